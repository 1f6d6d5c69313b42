"""Benchmark: ptkg's build path against bare spaCy, one process against several.

Run from the repo root::

    .venv/bin/python bench/extract.py [--min-mb 2] [--model en_core_web_sm] [--jobs 2]

The corpus (``tests/data/corpus/pytorch_blog.jsonl``, or ``--corpus``) is read
with :func:`ptkg.readers.read_posts`; its posts are cycled, each copy with its own url
(``<url>#copy-N``), until the UTF-8 text is at least ``--min-mb`` MB (1 MB = 10**6 bytes).
Words are ``len(post.text.split())``. Every measurement runs in this process, with the same
model, over the same posts:

- **bare**: ``bare_nlp(model).pipe`` over the masked texts (masking done before timing), every
  doc consumed, ``batch_size=pipeline.BATCH_SIZE``;
- **build, jobs=1**: ``run_extraction(posts, model, jobs=1)`` + ``build_graph`` +
  ``generate_json``: ``ptkg build`` without file I/O;
- **build, jobs=N**: the same with ``--jobs`` processes;
- **build, blank**: ``model="blank"``, jobs=1.

Model loading is excluded from the throughput of *bare* and *build, jobs=1*: the bare pipeline
is loaded before its timing; ``run_extraction`` loads its pipeline inside, so ``load_nlp`` is
timed on its own and subtracted. Both load times are printed. *build, jobs=N* includes worker
start-up (fork + one ``load_nlp`` per worker, timed on its own with a pool like
``run_extraction``'s, and printed): the speed-up compares what a user waits for, jobs=1 with
its load against jobs=N with its start-up; the speed-up without them is printed too.

Wall times suffer when other processes share the CPUs: the load average is printed, and so are
CPU seconds (user + system, this process and its workers), which suffer less.

This is a benchmark, not a test: it checks nothing about timings and never fails on them.
Peak RSS comes from ``getrusage``: ``RUSAGE_SELF`` is this process over all runs (it holds
every pipeline at once, so it is above what one ``ptkg build`` needs); ``RUSAGE_CHILDREN`` is
the largest single worker, not a sum.
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
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from threading import BrokenBarrierError
from typing import Any, TypeVar

from ptkg.extractors import pipeline
from ptkg.extractors.text import mask_markup
from ptkg.graph import build_graph, generate_json
from ptkg.readers import read_posts
from ptkg.records import Post

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO / "tests" / "data" / "corpus" / "pytorch_blog.jsonl"
MB = 1_000_000
TARGET_RATIO = 0.75
TARGET_SPEEDUP = 1.6
TARGET_RSS_MB = 1024
T = TypeVar("T")


@dataclass(frozen=True)
class Clock:
    """Wall seconds; CPU seconds (user + system) of this process and its finished children;
    CPU seconds that other processes of the machine used meanwhile (NaN off Linux)."""

    wall: float = 0.0
    cpu: float = 0.0
    others: float = 0.0

    def __add__(self, other: Clock) -> Clock:
        return Clock(self.wall + other.wall, self.cpu + other.cpu, self.others + other.others)

    def __sub__(self, other: Clock) -> Clock:
        return Clock(self.wall - other.wall, self.cpu - other.cpu, self.others - other.others)


@dataclass
class Timing:
    """One measurement (the best run) and the load or start-up part of it."""

    name: str
    total: Clock  # with load or start-up
    load: Clock
    stages: dict[str, float] = field(default_factory=dict)  # wall seconds per stage

    def work(self) -> Clock:
        """The run without load or start-up."""
        return self.total - self.load


@dataclass
class Results:
    """Every measurement of one benchmark run."""

    bare: Timing
    one: Timing
    many: Timing
    blank: Timing
    identical: bool
    json_bytes: int


# ------------------------------------------------------------------------------------ input


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                        help="posts in any format ptkg reads (default: %(default)s)")
    parser.add_argument("--min-mb", type=float, default=2.0,
                        help="repeat posts until the text is this many MB (default: 2)")
    parser.add_argument("--model", default="en_core_web_sm",
                        help="spaCy model for bare and build runs (default: en_core_web_sm)")
    parser.add_argument("--jobs", type=int, default=2, help="processes of the parallel run")
    parser.add_argument("--repeat", type=int, default=1, help="take the best of N runs")
    return parser.parse_args(argv)


def load_corpus(path: Path, min_mb: float) -> list[Post]:
    """The corpus posts, cycled with distinct urls until the text reaches ``min_mb`` MB."""
    originals = list(read_posts([path]))
    if not originals:
        raise SystemExit(f"{path}: no posts read")
    posts: list[Post] = []
    size, copy = 0, 0
    while size < min_mb * MB:
        for post in originals:
            url = post.url if copy == 0 else f"{post.url}#copy-{copy}"
            posts.append(dataclasses.replace(post, url=url))
            size += len(post.text.encode("utf8"))
            if size >= min_mb * MB:
                break
        copy += 1
    return posts


def count_words(posts: list[Post]) -> int:
    return sum(len(post.text.split()) for post in posts)


def text_mb(posts: list[Post]) -> float:
    return sum(len(post.text.encode("utf8")) for post in posts) / MB


# ----------------------------------------------------------------------------------- timing


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def machine_cpu_seconds() -> float:
    """CPU seconds used by every process of the machine since boot, steal included (Linux)."""
    try:
        ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    except (OSError, ValueError):
        return float("nan")
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")  # not idle, iowait


def timed(fn: Callable[[], T]) -> tuple[Clock, T]:
    """The time ``fn`` took, and its result."""
    gc.collect()
    wall, cpu, machine = time.perf_counter(), cpu_seconds(), machine_cpu_seconds()
    result = fn()
    cpu = cpu_seconds() - cpu
    others = max(machine_cpu_seconds() - machine - cpu, 0.0)
    return Clock(time.perf_counter() - wall, cpu, others), result


def best_of(repeat: int, fn: Callable[[], T]) -> tuple[Clock, T]:
    """The fastest (wall) of ``repeat`` runs of ``fn`` and that run's result."""
    runs = [timed(fn) for _ in range(max(repeat, 1))]
    return min(runs, key=lambda run: run[0].wall)


def measure_load(model: str, repeat: int) -> Clock:
    """The time ``load_nlp(model)`` takes (what ``run_extraction`` spends before extracting)."""
    return best_of(repeat, lambda: pipeline.load_nlp(model))[0]


def measure_bare(posts: list[Post], model: str, repeat: int) -> tuple[Timing, int]:
    """Bare ``nlp.pipe`` over the masked texts, load timed apart; and the token count."""
    load, nlp = best_of(repeat, lambda: pipeline.bare_nlp(model))
    texts = [mask_markup(post.text) for post in posts]

    def run() -> int:
        return sum(len(doc) for doc in nlp.pipe(texts, batch_size=pipeline.BATCH_SIZE))

    clock, tokens = best_of(repeat, run)
    return Timing(f"bare spaCy `nlp.pipe` ({model})", clock + load, load), tokens


def build_json(posts: list[Post], model: str, jobs: int) -> tuple[str, Clock, dict[str, float]]:
    """``ptkg build`` without file I/O: the graph JSON, its time and the wall time per stage."""
    extract, results = timed(lambda: pipeline.run_extraction(posts, model, jobs=jobs))
    graph_clock, graph = timed(lambda: build_graph(results))
    json_clock, text = timed(lambda: generate_json(graph))
    stages = {"extract": extract.wall, "graph": graph_clock.wall, "json": json_clock.wall}
    return text, extract + graph_clock + json_clock, stages


def measure_build(posts: list[Post], model: str, jobs: int, load: Clock, repeat: int,
                  name: str) -> tuple[Timing, str]:
    """Best of ``repeat`` builds; ``load`` is the load or start-up part of each."""
    runs = [build_json(posts, model, jobs) for _ in range(max(repeat, 1))]
    text, clock, stages = min(runs, key=lambda run: run[1].wall)
    return Timing(name, clock, load, stages), text


def _init_and_wait(model: str, main: int, barrier: Any) -> None:
    pipeline._init_worker(model, main)
    barrier.wait(timeout=600)


def measure_startup(model: str, jobs: int, repeat: int) -> Clock:
    """The time from creating a pool like ``run_extraction``'s until every worker is ready."""

    def start() -> None:
        barrier = multiprocessing.Barrier(jobs)
        with ProcessPoolExecutor(jobs, initializer=_init_and_wait,
                                 initargs=(model, os.getpid(), barrier)) as pool:
            for future in [pool.submit(os.getpid) for _ in range(jobs)]:
                future.result()

    try:
        return best_of(repeat, start)[0]
    except BrokenBarrierError:
        return Clock(float("nan"), float("nan"))


def peak_rss_mb() -> tuple[float, float]:
    """Peak resident set size (MB) of this process and of its largest finished child."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, child


def measure_all(posts: list[Post], words: int, model: str, jobs: int, repeat: int) -> Results:
    """Run the four measurements in order, printing each as it ends."""
    for warm_up in (model, "blank"):  # imports and file cache, outside every timing
        pipeline.load_nlp(warm_up)
    bare, tokens = measure_bare(posts, model, repeat)
    say(describe(bare, words, "load") + f"; {tokens:,} tokens")
    one, json_one = measure_build(posts, model, 1, measure_load(model, repeat), repeat,
                                  "ptkg build, jobs=1")
    say(describe(one, words, "load"))
    many, json_many = measure_build(posts, model, jobs, measure_startup(model, jobs, repeat),
                                    repeat, f"ptkg build, jobs={jobs}")
    say(describe(many, words, "worker start-up"))
    blank, _ = measure_build(posts, "blank", 1, measure_load("blank", repeat), repeat,
                             "ptkg build, blank, jobs=1")
    say(describe(blank, words, "load"))
    return Results(bare, one, many, blank, json_one == json_many, len(json_one.encode("utf8")))


# ----------------------------------------------------------------------------------- report


def say(text: str) -> None:
    print(text, flush=True)


def wps(words: int, seconds: float) -> float:
    return words / seconds if seconds > 0 else float("nan")


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def describe(timing: Timing, words: int, load_word: str) -> str:
    work, load, total = timing.work(), timing.load, timing.total
    stages = ", ".join(f"{k} {v:.2f} s" for k, v in timing.stages.items())
    own, child = peak_rss_mb()
    return (f"{timing.name}: {work.wall:.2f} s without {load_word} "
            f"({wps(words, work.wall):,.0f} words/s, CPU {work.cpu:.2f} s, "
            f"other processes' CPU {work.others:.2f} s); "
            f"{load_word} {load.wall:.2f} s; with it {total.wall:.2f} s "
            f"({wps(words, total.wall):,.0f} words/s)"
            + (f"; stages: {stages}" if stages else "")
            + f"; peak RSS so far: self {own:.0f} MB, largest child {child:.0f} MB")


def checks(results: Results, model: str, jobs: int) -> list[tuple[str, str, str, bool | None]]:
    """(check, value, target, met) for the summary table."""
    r = results
    ratio = r.bare.work().wall / r.one.work().wall
    speedup = r.one.total.wall / r.many.total.wall
    own, child = peak_rss_mb()
    return [
        ("build / bare words/s, load excluded", f"{ratio:.2f}", f">= {TARGET_RATIO}",
         ratio >= TARGET_RATIO),
        ("build / bare, CPU seconds", f"{r.bare.work().cpu / r.one.work().cpu:.2f}", "", None),
        (f"speed-up jobs={jobs} / jobs=1, load and start-up included", f"{speedup:.2f}",
         f">= {TARGET_SPEEDUP}", speedup >= TARGET_SPEEDUP),
        (f"speed-up jobs={jobs} / jobs=1, load and start-up excluded",
         f"{r.one.work().wall / r.many.work().wall:.2f}", "", None),
        (f"blank vs {model}, load excluded",
         f"{r.one.work().wall / r.blank.work().wall:.1f}x", "", None),
        ("peak RSS, main process (all runs)", f"{own:.0f} MB", f"< {TARGET_RSS_MB} MB",
         own < TARGET_RSS_MB),
        ("peak RSS, largest worker", f"{child:.0f} MB", f"< {TARGET_RSS_MB} MB",
         child < TARGET_RSS_MB),
        (f"graph JSON jobs=1 == jobs={jobs} (identical)", str(r.identical), "True", r.identical),
    ]


def timings(results: Results) -> list[Timing]:
    return [results.bare, results.one, results.many, results.blank]


def markdown_table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> str:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def run_table(timings: list[Timing], words: int) -> str:
    header = ("Run", "Load / start-up (s)", "Work (s)", "Words/s", "Work CPU (s)",
              "Others' CPU (s)", "Total (s)", "Words/s with load")
    rows = [(t.name, f"{t.load.wall:.1f}", f"{t.work().wall:.1f}",
             f"{wps(words, t.work().wall):,.0f}", f"{t.work().cpu:.1f}",
             f"{t.total.others:.1f}", f"{t.total.wall:.1f}", f"{wps(words, t.total.wall):,.0f}")
            for t in timings]
    return markdown_table(rows, header)


def check_table(rows: list[tuple[str, str, str, bool | None]]) -> str:
    cells = [(name, value, target or "—", "—" if met is None else ("yes" if met else "**no**"))
             for name, value, target, met in rows]
    return markdown_table(cells, ("Check", "Value", "Target", "Met"))


def report(results: Results, setting: str, words: int, model: str, jobs: int) -> None:
    """Print the figures, then the two Markdown tables."""
    rows = checks(results, model, jobs)
    say("")
    for name, value, target, _ in rows:
        say(f"{name}: {value}" + (f" (target {target})" if target else ""))
    say(f"graph JSON: {results.json_bytes:,} bytes; identical: {results.identical}")
    say(f"load average at the end: {load_average()}")
    busy = [t.name for t in timings(results) if t.total.others > 0.1 * t.total.wall]
    if busy:
        say(f"warning: other processes used the CPUs during {', '.join(busy)}: those wall "
            "times are inflated; rerun on a quiet machine or with --repeat")
    say("")
    say(setting + ":")
    say("")
    say(run_table(timings(results), words))
    say("")
    say(check_table(rows))


# ------------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    model = pipeline.resolve_model(args.model)
    posts = load_corpus(args.corpus, args.min_mb)
    words = count_words(posts)
    setting = (f"{len(posts)} posts, {text_mb(posts):.2f} MB, {words:,} words, {model}, "
               f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, "
               f"best of {max(args.repeat, 1)}")
    say(f"corpus: {args.corpus}; {setting}; load average {load_average()}")
    say("model loading is excluded from bare and jobs=1 throughput (timed apart, printed); "
        f"jobs={args.jobs} includes worker start-up (timed apart, printed)")
    results = measure_all(posts, words, model, args.jobs, args.repeat)
    report(results, setting, words, model, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
