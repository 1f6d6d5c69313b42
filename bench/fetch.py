"""Benchmark: ``ptkg fetch`` and ``ptkg sync`` against a loopback HTTP server, a rerun and one
new post against the first run.

Run from the repo root::

    .venv/bin/python bench/fetch.py [--pages 50] [--repeat 3] [--models en_core_web_sm,blank]
                                    [--jobs 1]

The server (a ``ThreadingHTTPServer`` in a thread on 127.0.0.1, as ``tests/test_fetch.py``
runs one) serves ``/robots.txt`` (allowing everything), an RSS feed at ``/feed/`` listing every
page, and a real page, ``tests/data/corpus/html/pytorch2-2.wordpress.html`` (101 kB), under
``--pages`` paths ``/blog/pytorch2-2-copy-N/``. Each copy's ``<link rel="canonical">`` names its
own URL (``https://pytorch.org/blog/pytorch2-2-copy-N/``): with the page's one URL, the build
would keep one post. Pages carry an ``ETag`` and a conditional request with it gets a 304.
Every request is logged by the server (path, status, body bytes).

**fetch** (:func:`ptkg.fetch.fetch`, ``delay=0``, into a fresh temporary folder each repeat):

- **first run**: every page new;
- **rerun**: nothing changed, every page asked for with ``If-None-Match`` (304);
- **one new page**: a page added to the site and its feed; one page downloaded.

**sync** (what ``ptkg sync`` does: :func:`ptkg.fetch.fetch`, then :func:`ptkg.build.build` of
the pages folder with the cache on, pages, graph and cache in a fresh temporary folder each
repeat), for each of ``--models``:

- **clean**: the cache empty, every page fetched and every post extracted;
- **one new post**: a page added; it alone is fetched and extracted, the rest from the cache.

Each build that extracts loads its spaCy pipeline (``load_nlp``), as the command does; its
load time, and the time ``read_posts`` takes over the pages folder (the build reads every page
again: the cache keeps facts, not pages), are timed apart and printed. After the last repeat,
the one-new graph is compared byte for byte with a build of the same pages without the cache.
Times are the best of ``--repeat`` (wall); ratios are against the first run (fetch) or the
clean sync. CPU seconds and the load average are printed: wall times suffer when other
processes share the CPUs. A benchmark, not a test: it checks no timing.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import http.server
import os
import resource
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ptkg.build import build
from ptkg.extractors import pipeline
from ptkg.fetch import Politeness, fetch
from ptkg.readers import read_posts

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "tests" / "data" / "corpus" / "html" / "pytorch2-2.wordpress.html"
PAGE_URL = "https://pytorch.org/blog/pytorch2-2/"
NO_DELAY = Politeness(delay=0.0, retries=3, backoff=0.01, timeout=30.0)
T = TypeVar("T")


# ----------------------------------------------------------------------------------- server


class Site:
    """What the server serves (path -> page) and what it was asked (path, status, bytes)."""

    def __init__(self, pages: int) -> None:
        self.template = PAGE.read_text(encoding="utf8")
        self.pages: dict[str, bytes] = {}
        self.log: list[tuple[str, int, int]] = []
        self.lock = threading.Lock()
        for _ in range(pages):
            self.add_page()

    def add_page(self) -> None:
        n = len(self.pages)
        url = PAGE_URL.rstrip("/") + f"-copy-{n}/"
        page = self.template.replace(f'rel="canonical" href="{PAGE_URL}"',
                                     f'rel="canonical" href="{url}"')
        self.pages[f"/blog/pytorch2-2-copy-{n}/"] = page.encode("utf8")

    def feed(self, base: str) -> bytes:
        items = "".join(f"<item><title>{path}</title><link>{base}{path}</link></item>"
                        for path in self.pages)
        return (f'<?xml version="1.0"?><rss version="2.0"><channel><title>bench</title>'
                f"{items}</channel></rss>").encode()

    def record(self, path: str, status: int, size: int) -> None:
        with self.lock:
            self.log.append((path, status, size))


def make_handler(site: Site) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # quiet
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            if self.path == "/robots.txt":
                return self.send(200, b"User-agent: *\nAllow: /\n", "text/plain")
            if self.path == "/feed/":
                return self.send(200, site.feed(f"http://{self.headers['Host']}"),
                                 "application/rss+xml")
            body = site.pages.get(self.path)
            if body is None:
                return self.send(404, b"not found", "text/plain")
            etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            if self.headers.get("If-None-Match") == etag:
                site.record(self.path, 304, 0)
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return None
            return self.send(200, body, "text/html; charset=utf-8", etag)

        def send(self, status: int, body: bytes, kind: str, etag: str | None = None) -> None:
            site.record(self.path, status, len(body))
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            if etag:
                self.send_header("ETag", etag)
            self.end_headers()
            self.wfile.write(body)

    return Handler


@contextmanager
def serve(site: Site) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 in a thread; yield its feed's URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(site))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/feed/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


# ----------------------------------------------------------------------------------- timing


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(fn: Callable[[], T]) -> tuple[float, float, T]:
    """Wall and CPU seconds ``fn`` took (this process: the server thread too), and its result."""
    gc.collect()
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = fn()
    return time.perf_counter() - wall, cpu_seconds() - cpu, result


@dataclass
class FetchRun:
    """One fetch: what it did, what the server saw, how long it took."""

    name: str
    wall: float
    cpu: float
    listed: int
    new: int
    unchanged: int
    failed: int
    requests: int
    ok: int  # 200 answers to page requests
    not_modified: int  # 304 answers
    served: int  # body bytes the server sent


def fetch_run(name: str, site: Site, feed: str, out: Path) -> FetchRun:
    start = len(site.log)
    wall, cpu, summary = timed(lambda: fetch(feed, out, politeness=NO_DELAY))
    log = site.log[start:]
    pages = [entry for entry in log if entry[0].startswith("/blog/")]
    return FetchRun(name, wall, cpu, summary.listed, len(summary.new), len(summary.unchanged),
                    len(summary.failed), summary.requests,
                    sum(status == 200 for _, status, _ in pages),
                    sum(status == 304 for _, status, _ in pages),
                    sum(size for _, _, size in log))


def bench_fetch(pages: int, repeat: int) -> list[FetchRun]:
    """The three fetches, each the best (wall) of ``repeat`` fresh sites and folders."""
    runs: list[list[FetchRun]] = [[], [], []]
    for _ in range(max(repeat, 1)):
        site = Site(pages)
        folder = Path(tempfile.mkdtemp(prefix="ptkg-bench-fetch-"))
        try:
            with serve(site) as feed:
                runs[0].append(fetch_run("first run (all new)", site, feed, folder))
                runs[1].append(fetch_run("rerun (all unchanged, 304)", site, feed, folder))
                site.add_page()
                runs[2].append(fetch_run("one new page", site, feed, folder))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return [min(rounds, key=lambda run: run.wall) for rounds in runs]


@dataclass
class SyncRun:
    """One sync: its fetch and its build."""

    name: str
    fetch: float
    build: float
    cpu: float
    downloaded: int
    posts: int
    extracted: int
    cached: int

    @property
    def wall(self) -> float:
        return self.fetch + self.build


@dataclass
class SyncResult:
    """Both syncs of one model, and the parts timed apart."""

    model: str
    clean: SyncRun
    one_new: SyncRun
    load: float  # load_nlp(model)
    read: float  # read_posts over the pages folder of the one-new sync
    identical: bool


def sync_run(name: str, feed: str, folder: Path, model: str, jobs: int) -> SyncRun:
    pages, graph, cache = folder / "pages", folder / "graph.json", folder / "cache"
    fetch_wall, fetch_cpu, fetched = timed(lambda: fetch(feed, pages, politeness=NO_DELAY))
    build_wall, build_cpu, built = timed(lambda: build([pages], graph, model=model, jobs=jobs,
                                                       cache=True, cache_dir=cache))
    return SyncRun(name, fetch_wall, build_wall, fetch_cpu + build_cpu, fetched.downloaded,
                   built.posts, built.posts - built.cached, built.cached)


def bench_sync(pages: int, model: str, jobs: int, repeat: int) -> SyncResult:
    """Clean sync then one new post, best (wall) of ``repeat`` fresh sites and folders."""
    pipeline.load_nlp(model)  # imports and file cache, outside every timing
    clean, one_new, reads = [], [], []
    for number in range(max(repeat, 1)):
        site = Site(pages)
        folder = Path(tempfile.mkdtemp(prefix="ptkg-bench-sync-"))
        try:
            with serve(site) as feed:
                clean.append(sync_run("clean (cache empty)", feed, folder, model, jobs))
                site.add_page()
                one_new.append(sync_run("one new post", feed, folder, model, jobs))
            reads.append(timed(lambda pages=folder / "pages": list(read_posts([pages])))[0])
            if number == max(repeat, 1) - 1:
                build([folder / "pages"], folder / "clean.json", model=model, jobs=jobs,
                      cache=False)
                identical = (folder / "graph.json").read_bytes() == \
                    (folder / "clean.json").read_bytes()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        say(f"{model}, repeat {number + 1}: clean {clean[-1].wall:.2f} s, "
            f"one new {one_new[-1].wall:.2f} s")
    load = min(timed(lambda: pipeline.load_nlp(model))[0] for _ in range(max(repeat, 1)))
    return SyncResult(model, min(clean, key=lambda run: run.wall),
                      min(one_new, key=lambda run: run.wall), load, min(reads), identical)


# ----------------------------------------------------------------------------------- report


def say(text: str) -> None:
    print(text, flush=True)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def fetch_table(runs: list[FetchRun]) -> str:
    first = runs[0]
    lines = ["| fetch | listed | new | unchanged | requests | 200 | 304 | bytes served | "
             "wall (s) | CPU (s) | requests vs first | bytes vs first | wall vs first |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for run in runs:
        lines.append(
            f"| {run.name} | {run.listed} | {run.new} | {run.unchanged} | {run.requests} | "
            f"{run.ok} | {run.not_modified} | {run.served:,} | {run.wall:.3f} | "
            f"{run.cpu:.3f} | {run.requests / first.requests:.2f} | "
            f"{run.served / first.served:.3f} | {run.wall / first.wall:.3f} |")
    return "\n".join(lines)


def sync_table(results: list[SyncResult]) -> str:
    lines = ["| model | sync | pages downloaded | posts | extracted | from cache | fetch (s) | "
             "build (s) | total (s) | CPU (s) | vs clean |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for result in results:
        for run in (result.clean, result.one_new):
            lines.append(
                f"| `{result.model}` | {run.name} | {run.downloaded} | {run.posts} | "
                f"{run.extracted} | {run.cached} | {run.fetch:.2f} | {run.build:.2f} | "
                f"{run.wall:.2f} | {run.cpu:.2f} | {run.wall / result.clean.wall:.3f} |")
    return "\n".join(lines)


def sync_notes(results: list[SyncResult]) -> list[str]:
    notes = []
    for r in results:
        one = r.one_new
        notes.append(
            f"`{r.model}`: one new post {one.wall:.2f} s against {r.clean.wall:.2f} s clean "
            f"({r.clean.wall / one.wall:.1f}x faster; build alone "
            f"{one.build / r.clean.build:.3f} of the clean build). Of its build's "
            f"{one.build:.2f} s, `read_posts` of the {one.posts} pages takes {r.read:.2f} s and "
            f"`load_nlp` {r.load:.2f} s. One-new graph byte-identical to a build without the "
            f"cache: {'identical' if r.identical else 'DIFFERENT'}.")
    return notes


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=50, help="pages the site serves at first")
    parser.add_argument("--repeat", type=int, default=3, help="take the best of N runs")
    parser.add_argument("--models", default="en_core_web_sm,blank",
                        help="comma-separated spaCy pipelines of the sync runs ('' for none)")
    parser.add_argument("--jobs", type=int, default=1, help="extraction processes of the build")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    say(f"{args.pages} pages of {PAGE.stat().st_size:,} bytes; {os.cpu_count()} CPUs; "
        f"load average {load_average()}; Python {sys.version.split()[0]}")
    runs = bench_fetch(args.pages, args.repeat)
    say(f"fetch done; load average {load_average()}")
    models = [model for model in args.models.split(",") if model]
    results = [bench_sync(args.pages, model, args.jobs, args.repeat) for model in models]
    say("")
    say(f"`ptkg.fetch.fetch`, delay 0, {args.pages} pages (then {args.pages + 1}), "
        f"best of {args.repeat}:")
    say("")
    say(fetch_table(runs))
    if results:
        say("")
        say(f"sync (`fetch` then `build` with the cache), jobs {args.jobs}, best of "
            f"{args.repeat}; load average at the end {load_average()}:")
        say("")
        say(sync_table(results))
        say("")
        for note in sync_notes(results):
            say(note)
    failed = any(run.failed for run in runs) or not all(r.identical for r in results)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
