"""``ptkg build``: read posts, extract facts, build the graph and write it atomically."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from ptkg.extractors.pipeline import WorkerError

from .cache import CacheStats, ExtractionCache, default_cache_dir, run_cached_extraction
from .curation import Curation
from .errors import InputError
from .graph import build_graph, graph_counts, write_graph
from .readers import read_posts
from .records import BLOG_URL, Skip, SkipReport


@dataclass
class BuildSummary:
    """What a build read, skipped and wrote."""

    posts: int
    nodes: dict[str, int]
    edges: dict[str, int]
    skipped: list[Skip] = field(default_factory=list)
    seconds: float = 0.0
    cache: CacheStats | None = None  # None: built without the cache
    cache_dir: Path | None = None

    @property
    def cached(self) -> int:
        """Posts whose facts came from the cache."""
        return self.cache.hits if self.cache is not None else 0


def build(inputs: Iterable[str | Path], graph_path: str | Path, *, model: str = "en_core_web_sm",
          jobs: int = 1, strict: bool = False, report: SkipReport | None = None,
          progress: Callable[[int, int], Callable[[int], None]] | None = None,
          cache: bool = True, cache_dir: str | Path | None = None,
          base_url: str = BLOG_URL, curation: Curation | None = None) -> BuildSummary:
    """Build the graph of the posts in ``inputs`` and write it to ``graph_path``.

    Parameters
    ----------
    inputs : files or folders of posts, in any format :mod:`ptkg.readers` knows.
    graph_path : where the graph JSON goes; replaced atomically, only when the build succeeds.
    model : ``"en_core_web_sm"`` or ``"blank"`` (rule components alone).
    jobs : processes for extraction; the graph is the same for any number.
    strict : fail on the first unusable row instead of skipping it.
    report : collects the skipped rows, and is there to read when the build fails; when given,
        its own ``strict`` applies instead of ``strict``.
    progress : called with (total posts, 0) and returns a callback that takes a step count.
    cache : read and write the extraction cache (:mod:`ptkg.cache`): only posts that are new
        or changed, or every post when the extractor changed, are extracted. ``False`` builds
        from scratch and leaves the cache alone. The graph is the same bytes either way.
    cache_dir : the cache folder; default ``.ptkg-cache`` beside ``graph_path``.
    base_url : the URL prefix of plain Markdown posts that name no URL (``<base_url><slug>/``).
    curation : a project file's names and patterns (extraction, part of the cache key) and
        merges, rejects and labels (applied to the graph) (:mod:`ptkg.curation`).

    Raises
    ------
    InputError
        A file cannot be read, or no usable post was found (or a skip with ``strict``).
    WorkerError
        An extraction process died (killed, out of memory): the graph is not written; the
        posts extracted until then are in the cache, when it is on.
    """
    started = time.perf_counter()
    inputs = list(inputs)
    patterns = curation.patterns if curation is not None else ()
    if patterns:
        from ptkg.extractors.rules import check_token_pattern

        curation.check_patterns(check_token_pattern)
    report = SkipReport(strict=strict) if report is None else report
    posts = list(read_posts(inputs, report, base_url=base_url))
    if not posts:
        where = ", ".join(map(str, inputs))
        raise InputError(f"no usable post found ({len(report.skips)} rows skipped)", where)
    store = None
    if cache:
        cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir(graph_path)
        store = ExtractionCache.open(cache_dir, model,
                                     curation.digest if curation is not None else None)
    step = progress(len(posts), 0) if progress else None
    try:
        results = run_cached_extraction(posts, store, model=model, jobs=jobs, progress=step,
                                        patterns=patterns)
    except WorkerError as error:
        raise WorkerError(f"{error}: the graph was not written; rerun, with fewer --jobs") \
            from None
    graph = build_graph(results, curation)
    write_graph(graph, graph_path)
    summary = summarize(graph, len(posts), report.skips, time.perf_counter() - started)
    if store is not None:
        store.prune()
        summary.cache, summary.cache_dir = store.stats, store.root
    return summary


def summarize(graph: nx.MultiDiGraph, posts: int, skipped: list[Skip],
              seconds: float) -> BuildSummary:
    """Count nodes per label and edges per type."""
    nodes, edges = graph_counts(graph)
    return BuildSummary(posts, nodes, edges, skipped, seconds)
