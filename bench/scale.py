"""Benchmark: extraction time per character of one post, from 50 KB to 1 MB of text.

Run from the repo root::

    .venv/bin/python bench/scale.py [--sizes 50,100,200,500,1000] [--models blank,en_core_web_sm]
                                    [--repeat 1] [--corpus tests/data/corpus/pytorch_blog.jsonl]

Two texts made from the corpus (read with :func:`ptkg.readers.read_posts`), each cut to every
size (1 KB = 1,000 characters) and extracted as one post by
:func:`ptkg.extractors.pipeline.extract_posts`, what a worker of ``ptkg build`` runs:

- **repetitive**: the text of one post (``--post``, a part of its URL; default the PyTorch 1.8
  release post) repeated;
- **concatenated**: the corpus's posts in order, joined by blank lines, repeated past its end.

Every measurement runs in a process forked once the pipeline is loaded (loading is not timed),
so its peak RSS (``ru_maxrss``) is the pipeline's plus what that one post needs. Times are the
CPU seconds of that process, less sensitive than wall seconds to other jobs on the machine
(both are printed, with the load average); best of ``--repeat``. The **ratio** is the time per
character at a size over the time per character at the smallest size, for the same model and
text: extraction is linear in the post's length when the ratios stay flat (target: all within
2x). A model left out of ``--models`` or not installed is skipped.

This is a benchmark, not a test: it checks nothing about timings and never fails on them.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import multiprocessing
import os
import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import spacy

from ptkg.errors import PtkgError
from ptkg.extractors import pipeline
from ptkg.readers import read_posts
from ptkg.records import Post

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO / "tests" / "data" / "corpus" / "pytorch_blog.jsonl"
KB = 1000
TARGET_RATIO = 2.0


@dataclass(frozen=True)
class Measure:
    """One post of one size, extracted with one model."""

    model: str
    text: str
    size: int  # characters
    wall: float
    cpu: float
    rss_mb: float
    facts: int

    @property
    def per_char_us(self) -> float:
        return self.cpu / self.size * 1e6


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                        help="posts to make the texts from (default: the test corpus)")
    parser.add_argument("--sizes", default="50,100,200,500,1000",
                        help="text sizes in KB (1,000 characters), smallest first")
    parser.add_argument("--models", default="blank,en_core_web_sm",
                        help="comma-separated models (default: blank,en_core_web_sm)")
    parser.add_argument("--post", default="pytorch-1.8-released",
                        help="part of the URL of the post the repetitive text repeats")
    parser.add_argument("--repeat", type=int, default=1, help="take the best of N runs")
    return parser.parse_args(argv)


def make_texts(corpus: Path, post: str) -> tuple[Post, dict[str, str]]:
    """A post to dress the texts in, and the unit each text repeats, by name."""
    posts = list(read_posts([corpus]))
    chosen = next((p for p in posts if post in p.url), posts[0])
    units = {"repetitive": chosen.text.strip() + "\n\n",
             "concatenated": "".join(p.text.strip() + "\n\n" for p in posts)}
    return chosen, units


def cut(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def measure(nlp, model: str, name: str, post: Post, size: int, repeat: int) -> Measure:
    """The best of ``repeat`` runs, each in a process forked from this one."""
    context = multiprocessing.get_context("fork")
    runs = []
    for _ in range(max(repeat, 1)):
        receive, send = context.Pipe(duplex=False)
        child = context.Process(target=_extract, args=(nlp, post, send))
        child.start()
        send.close()
        wall, cpu, rss_mb, facts = receive.recv()
        child.join()
        runs.append(Measure(model, name, size, wall, cpu, rss_mb, facts))
    best = min(runs, key=lambda run: run.cpu)
    return dataclasses.replace(best, rss_mb=max(run.rss_mb for run in runs))


def _extract(nlp, post: Post, send) -> None:
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    facts = list(pipeline.extract_posts([post], nlp))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    send.send((wall, cpu, rss_mb, len(facts[0].facts)))
    send.close()


def ratio(run: Measure, runs: list[Measure]) -> float:
    first = next(r for r in runs if (r.model, r.text) == (run.model, run.text))
    return run.per_char_us / first.per_char_us


def load(model: str):
    try:
        nlp = pipeline.load_nlp(model)
    except PtkgError as error:
        print(f"skipping {model}: {error}", file=sys.stderr)
        return None
    return nlp


def bench(args: argparse.Namespace) -> list[Measure]:
    sizes = [int(s) * KB for s in args.sizes.split(",")]
    post, units = make_texts(args.corpus, args.post)
    runs = []
    for model in [m.strip() for m in args.models.split(",") if m.strip()]:
        nlp = load(model)
        if nlp is None:
            continue
        nlp.max_length = max(nlp.max_length, max(sizes) + 1)  # ptkg before issue 10: E088
        for name, unit in units.items():
            for size in sizes:
                text = dataclasses.replace(post, text=cut(unit, size))
                run = measure(nlp, model, name, text, size, args.repeat)
                runs.append(run)
                print(f"{model} {name} {size // KB} KB: {run.cpu:.2f} s CPU, "
                      f"{run.per_char_us:.2f} us/char, ratio {ratio(run, runs):.2f}, "
                      f"{run.rss_mb:.0f} MB", file=sys.stderr, flush=True)
        del nlp
        gc.collect()
    return runs


def markdown(runs: list[Measure], args: argparse.Namespace, load_before: str) -> str:
    lines = ["| model | text | size (KB) | wall (s) | CPU (s) | CPU µs/char | ratio vs "
             f"{runs[0].size // KB} KB | peak RSS (MB) | facts |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for run in runs:
        lines.append(f"| {run.model} | {run.text} | {run.size // KB:,} | {run.wall:.2f} | "
                     f"{run.cpu:.2f} | {run.per_char_us:.2f} | {ratio(run, runs):.2f} | "
                     f"{run.rss_mb:,.0f} | {run.facts:,} |")
    lines += ["", "| model | text | largest ratio | target | met |", "|---|---|---:|---:|---:|"]
    for model, text in dict.fromkeys((r.model, r.text) for r in runs):
        worst = max(ratio(r, runs) for r in runs if (r.model, r.text) == (model, text))
        lines.append(f"| {model} | {text} | {worst:.2f} | <= {TARGET_RATIO:.0f} | "
                     f"{'yes' if worst <= TARGET_RATIO else 'no'} |")
    piece = getattr(pipeline, "PIECE_LENGTH", None)
    lines += ["", f"One post per run, best of {args.repeat}; CPU seconds of the process that "
              f"extracts (forked after loading the pipeline); "
              f"{f'pieces of {piece:,} characters; ' if piece else ''}"
              f"load average {load_before} before, {load_average()} after, on "
              f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}, spaCy "
              f"{spacy.__version__}."]
    return "\n".join(lines)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    before = load_average()
    runs = bench(args)
    if not runs:
        print("no model to measure", file=sys.stderr)
        return 1
    print(markdown(runs, args, before))
    return 0


if __name__ == "__main__":
    sys.exit(main())
