"""``ptkg build``: read posts, extract facts, build the graph and write it atomically."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from .errors import InputError
from .graph import build_graph, write_graph
from .pipeline import run_extraction
from .readers import read_posts
from .records import Skip, SkipReport


@dataclass
class BuildSummary:
    """What a build read, skipped and wrote."""

    posts: int
    nodes: dict[str, int]
    edges: dict[str, int]
    skipped: list[Skip] = field(default_factory=list)
    seconds: float = 0.0


def build(inputs: Iterable[str | Path], graph_path: str | Path, *, model: str = "en_core_web_sm",
          jobs: int = 1, strict: bool = False, report: SkipReport | None = None,
          progress: Callable[[int, int], Callable[[int], None]] | None = None) -> BuildSummary:
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

    Raises
    ------
    InputError
        A file cannot be read, or no usable post was found (or a skip with ``strict``).
    """
    started = time.perf_counter()
    inputs = list(inputs)
    report = SkipReport(strict=strict) if report is None else report
    posts = list(read_posts(inputs, report))
    if not posts:
        where = ", ".join(map(str, inputs))
        raise InputError(f"no usable post found ({len(report.skips)} rows skipped)", where)
    step = progress(len(posts), 0) if progress else None
    results = run_extraction(posts, model=model, jobs=jobs, progress=step)
    graph = build_graph(results)
    write_graph(graph, graph_path)
    return summarize(graph, len(posts), report.skips, time.perf_counter() - started)


def summarize(graph: nx.MultiDiGraph, posts: int, skipped: list[Skip],
              seconds: float) -> BuildSummary:
    """Count nodes per label and edges per type."""
    nodes = Counter(data["label"] for _, data in graph.nodes(data=True))
    edges = Counter(key for _, _, key in graph.edges(keys=True))
    return BuildSummary(posts, dict(sorted(nodes.items())), dict(sorted(edges.items())),
                        skipped, seconds)
