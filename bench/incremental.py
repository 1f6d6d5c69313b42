"""Benchmark: a clean build against an incremental rebuild after one post changed.

Run from the repo root::

    .venv/bin/python bench/incremental.py [--model blank] [--copies 1] [--jobs 1] [--repeat 3]

The corpus (``tests/data/corpus/pytorch_blog.jsonl``, or ``--corpus``) is read
with :func:`ptkg.readers.read_posts` and written, ``--copies`` times (each copy with its own
url, ``<url>#copy-N``), to a JSONL file in a temporary folder. Every measurement is one
:func:`ptkg.build.build` call in this process, with the same model and jobs — reading the
posts, extraction (or the cache), building the graph and writing it atomically:

- **clean** (``cache=False``): every post extracted, no cache read or written;
- **cold cache**: every post extracted, each result written to the empty cache;
- **no change**: the same input again, every post from the cache;
- **one post changed**: a sentence appended to one post (a different post each repeat),
  one post extracted, the rest from the cache;
- **one post added** and **one post removed**: likewise.

The ratio is each build's wall time over the clean build's, best of ``--repeat`` runs (the
cache folder is fresh for each cold run). After the changes, the incremental graph is compared
byte for byte with a clean build of the same input (printed: ``identical``). A build that
extracts anything also loads the spaCy pipeline (``load_nlp``, timed apart and printed): with
``--model en_core_web_sm`` it dominates a one-post rebuild.

CPU seconds (this process and its workers) and the load average are printed: wall times suffer
when other processes share the CPUs. This is a benchmark, not a test: it checks no timing.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ptkg.build import BuildSummary, build
from ptkg.extractors import pipeline
from ptkg.readers import read_posts
from ptkg.records import Post

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO / "tests" / "data" / "corpus" / "pytorch_blog.jsonl"


@dataclass
class Run:
    """One build: what it extracted and how long it took (the best of the repeats)."""

    name: str
    wall: float
    cpu: float
    extracted: int
    cached: int


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                        help="posts in any format ptkg reads (default: %(default)s)")
    parser.add_argument("--model", default="blank",
                        help="spaCy pipeline: blank (default) or en_core_web_sm")
    parser.add_argument("--copies", type=int, default=1,
                        help="write the corpus this many times, each copy its own urls")
    parser.add_argument("--jobs", type=int, default=1, help="extraction processes")
    parser.add_argument("--repeat", type=int, default=3, help="take the best of N runs")
    return parser.parse_args(argv)


def load_posts(path: Path, copies: int) -> list[Post]:
    originals = list(read_posts([path]))
    if not originals:
        raise SystemExit(f"{path}: no posts read")
    return [dataclasses.replace(post, url=post.url if copy == 0 else f"{post.url}#copy-{copy}")
            for copy in range(max(copies, 1)) for post in originals]


def write_posts(path: Path, posts: list[Post]) -> None:
    rows = [{"url": p.url, "title": p.title, "date": p.date, "author": p.author, "text": p.text}
            for p in posts]
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows),
                    encoding="utf8")


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(name: str, fn: Callable[[], BuildSummary]) -> Run:
    wall, cpu = time.perf_counter(), cpu_seconds()
    summary = fn()
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    return Run(name, wall, cpu, summary.posts - summary.cached, summary.cached)


def best(runs: list[Run]) -> Run:
    return min(runs, key=lambda run: run.wall)


def changed(post: Post, n: int) -> Post:
    return dataclasses.replace(post, text=post.text + f"\n\nEdit {n}: PyTorch 1.8 adds torch.fx.\n")


def bench(args: argparse.Namespace, folder: Path) -> tuple[list[Run], bool, float, dict]:
    posts = load_posts(args.corpus, args.copies)
    source = folder / "posts.jsonl"
    graph = folder / "graph.json"
    cache_dir = folder / "cache"

    def run(name: str, current: list[Post], cache: bool = True) -> Run:
        write_posts(source, current)
        return timed(name, lambda: build([source], graph, model=args.model, jobs=args.jobs,
                                         cache=cache, cache_dir=cache_dir))

    pipeline.load_nlp(args.model)  # imports and first load outside every timing
    clean, cold, same, one, added, removed = [], [], [], [], [], []
    for n in range(max(args.repeat, 1)):
        clean.append(run("clean build (`--no-cache`)", posts, cache=False))
        shutil.rmtree(cache_dir, ignore_errors=True)
        cold.append(run("cold cache (every post extracted and stored)", posts))
        same.append(run("rebuild, nothing changed", posts))
        edited = list(posts)
        edited[n % len(posts)] = changed(posts[n % len(posts)], n)
        one.append(run("rebuild, one post changed", edited))
        extra = dataclasses.replace(posts[0], url=f"{posts[0].url}#added-{n}")
        added.append(run("rebuild, one post added", [*edited, extra]))
        removed.append(run("rebuild, one post removed", edited[1:] + [extra]))
        final = edited[1:] + [extra]
    incremental = graph.read_bytes()
    write_posts(source, final)
    build([source], folder / "clean.json", model=args.model, jobs=args.jobs, cache=False)
    identical = incremental == (folder / "clean.json").read_bytes()
    load = min(timed_load(args.model) for _ in range(max(args.repeat, 1)))
    entries = [p for p in cache_dir.rglob("*.json") if p.name != "version.json"]
    disk = {"entries": len(entries), "bytes": sum(p.stat().st_size for p in entries),
            "posts": len(posts), "text_mb": sum(len(p.text.encode()) for p in posts) / 1e6}
    return [best(r) for r in (clean, cold, same, one, added, removed)], identical, load, disk


def timed_load(model: str) -> float:
    start = time.perf_counter()
    pipeline.load_nlp(model)
    return time.perf_counter() - start


def markdown(runs: list[Run], identical: bool, load: float, disk: dict,
             args: argparse.Namespace) -> str:
    clean = runs[0].wall
    lines = ["| build | posts extracted | from cache | wall (s) | CPU (s) | vs clean |",
             "|---|---:|---:|---:|---:|---:|"]
    for run in runs:
        lines.append(f"| {run.name} | {run.extracted} | {run.cached} | {run.wall:.2f} | "
                     f"{run.cpu:.2f} | {run.wall / clean:.3f} |")
    one = runs[3]
    lines += [
        "",
        f"{disk['posts']} posts ({disk['text_mb']:.2f} MB of text), model `{args.model}`, "
        f"jobs {args.jobs}, best of {args.repeat}; `load_nlp` {load:.2f} s; load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs; "
        f"Python {sys.version.split()[0]}.",
        f"One changed post: {one.wall:.2f} s against {clean:.2f} s clean "
        f"({clean / one.wall:.1f}x faster). Cache: {disk['entries']} entries, "
        f"{disk['bytes'] / 1e6:.2f} MB. Incremental graph byte-identical to a clean build: "
        f"{'identical' if identical else 'DIFFERENT'}.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ptkg-bench-") as folder:
        runs, identical, load, disk = bench(args, Path(folder))
    print(markdown(runs, identical, load, disk, args))
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
