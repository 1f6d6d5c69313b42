"""Benchmark: posts per second of every reader on real files, against the JSON Lines reader.

Run from the repo root::

    .venv/bin/python bench/readers.py [--rounds 5] [--min-time 0.5] [--html-copies 20]
                                      [--profile FORMAT]

Every input is read with :func:`ptkg.readers.read_posts` (format detection included), in this
process, from real files or files written from them in a temporary folder before any timing:

- **JSONL** — ``tests/data/corpus/pytorch_blog.jsonl`` (66 posts), the baseline;
- **table dump** — ``tests/data/corpus/pytorch_blog_seedformat.txt``, the same posts;
- **Jekyll** — one ``_posts/YYYY-MM-DD-<slug>.md`` per JSONL row: its ``front_matter`` field,
  then its text;
- **CSV** and **Parquet** — the JSONL rows' ``url``, ``title``, ``date``, ``author`` and ``text``
  (``csv.writer``, ``pyarrow.parquet.write_table``);
- **Markdown 2026** — ``tests/data/corpus/2026/markdown/`` (21 posts), and **JSONL 2026**,
  ``tests/data/corpus/2026/pytorch_blog_2026.jsonl``, the same posts;
- **HTML** — ``tests/data/corpus/html/pytorch2-2.wordpress.html`` copied ``--html-copies``
  times under different names, each copy's ``<link rel="canonical">`` given its own URL
  (``.../pytorch2-2-copy-N/``; with one URL, :func:`read_posts` would keep one post and drop
  the rest as duplicates); its baseline, **JSONL pytorch2-2 ×N**, is the JSONL row of that post
  written as many times with the same URLs;
- **RSS feed** — an RSS 2.0 file of the 21 posts of 2026, each ``<item>`` with its link,
  title, ``pubDate``, ``dc:creator`` and ``content:encoded`` HTML made from its Markdown with
  markdown-it-py (``commonmark`` preset, tables on).

Each input is read once untimed (imports, file cache); the number of reads per round is then
chosen so that a round takes at least ``--min-time`` seconds; ``--rounds`` rounds go over every
input in turn (interleaved, so a change in the machine's load hits all of them) and each input's
best round counts. *chars* is the length of the posts' text as read. The ratios are posts/s
over the JSONL reader's (66 posts), and the speed against the JSONL of the same posts (for
the 66-post inputs, the same ratio). ``--profile FORMAT`` prints the top of a ``cProfile`` of
one read of that input instead (``jsonl``, ``table``, ``jekyll``, ``csv``, ``parquet``,
``jsonl-2026``, ``markdown``, ``feed``, ``jsonl-page``, ``html``).

Wall times suffer when other processes share the CPUs: the load average is printed. This is
a benchmark, not a test: it checks no timing, only that each input gives the posts it should.
"""

from __future__ import annotations

import argparse
import cProfile
import csv
import email.utils
import gc
import json
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from xml.sax.saxutils import escape

import pyarrow as pa
import pyarrow.parquet as pq
from markdown_it import MarkdownIt

from ptkg.readers import read_posts
from ptkg.records import Post, SkipReport

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "corpus"
JSONL = CORPUS / "pytorch_blog.jsonl"
TABLE = CORPUS / "pytorch_blog_seedformat.txt"
MARKDOWN_2026 = CORPUS / "2026" / "markdown"
JSONL_2026 = CORPUS / "2026" / "pytorch_blog_2026.jsonl"
PAGE = CORPUS / "html" / "pytorch2-2.wordpress.html"
PAGE_URL = "https://pytorch.org/blog/pytorch2-2/"
COLUMNS = ("url", "title", "date", "author", "text")


@dataclass
class Case:
    """One input: how it is read, and what its speed is compared with."""

    key: str
    name: str
    path: Path
    baseline: str  # the key of the JSONL input with the same posts
    posts: list[Post] = field(default_factory=list)
    skips: int = 0
    loops: int = 1
    rounds: list[float] = field(default_factory=list)  # seconds per read, one per round

    def read(self) -> list[Post]:
        report = SkipReport()
        posts = list(read_posts([self.path], report))
        self.skips = len(report.skips) + report.duplicates
        return posts

    @property
    def best(self) -> float:
        return min(self.rounds)

    @property
    def chars(self) -> int:
        return sum(len(post.text) for post in self.posts)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (best counts)")
    parser.add_argument("--min-time", type=float, default=0.5,
                        help="seconds one round of one input takes at least (default: 0.5)")
    parser.add_argument("--html-copies", type=int, default=20,
                        help="copies of the HTML page, each its own URL (default: 20)")
    parser.add_argument("--profile", metavar="FORMAT",
                        help="print a cProfile of one read of this input (e.g. html, table)")
    return parser.parse_args(argv)


# ------------------------------------------------------------------------------------ input


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf8").splitlines()
            if line.strip()]


def slug_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def write_jekyll(folder: Path, rows: list[dict]) -> Path:
    """One ``_posts`` file per row: the row's front matter, then its text."""
    posts = folder / "_posts"
    posts.mkdir(parents=True)
    for row in rows:
        slug = slug_of(row["url"])  # two rows have no date: the reader allows a bare slug
        name = f"{row['date']}-{slug}.md" if row.get("date") else f"{slug}.md"
        (posts / name).write_text(row["front_matter"] + row["text"], encoding="utf8")
    return posts


def write_csv(path: Path, rows: list[dict]) -> Path:
    with path.open("w", encoding="utf8", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(COLUMNS)
        writer.writerows([row.get(column) or "" for column in COLUMNS] for row in rows)
    return path


def write_parquet(path: Path, rows: list[dict]) -> Path:
    table = pa.table({column: [row.get(column) for row in rows] for column in COLUMNS})
    pq.write_table(table, path)
    return path


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows),
                    encoding="utf8")
    return path


def page_copy(page: str, n: int) -> str:
    """The page with its canonical link naming copy ``n`` (its only use of the post's URL)."""
    return page.replace(f'rel="canonical" href="{PAGE_URL}"',
                        f'rel="canonical" href="{copy_url(n)}"')


def copy_url(n: int) -> str:
    return PAGE_URL.rstrip("/") + f"-copy-{n}/"


def write_pages(folder: Path, copies: int) -> Path:
    folder.mkdir(parents=True)
    page = PAGE.read_text(encoding="utf8")
    for n in range(copies):
        (folder / f"pytorch2-2-copy-{n:02d}.html").write_text(page_copy(page, n),
                                                               encoding="utf8")
    return folder


def write_page_jsonl(path: Path, rows: list[dict], copies: int) -> Path:
    """The JSONL row of the page's post, ``copies`` times with the page copies' URLs."""
    row = next(row for row in rows if row["url"] == PAGE_URL)
    return write_jsonl(path, [{**row, "url": copy_url(n)} for n in range(copies)])


def rss_date(day: str) -> str:
    when = datetime.strptime(day, "%Y-%m-%d").replace(hour=12, tzinfo=timezone.utc)
    return email.utils.format_datetime(when)


def write_feed(path: Path, rows: list[dict]) -> Path:
    """An RSS 2.0 feed whose items carry the rows' text as ``content:encoded`` HTML."""
    md = MarkdownIt("commonmark").enable("table")
    items = []
    for row in rows:
        creator = (f"<dc:creator>{escape(row['author'])}</dc:creator>"
                   if row.get("author") else "")
        items.append(
            f"<item><title>{escape(row['title'])}</title><link>{escape(row['url'])}</link>"
            f"<guid>{escape(row['url'])}</guid><pubDate>{rss_date(row['date'])}</pubDate>"
            f"{creator}<content:encoded>{escape(md.render(row['text']))}</content:encoded>"
            "</item>\n")
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/">\n<channel><title>PyTorch Blog</title>'
        "<link>https://pytorch.org/blog/</link><description>bench</description>\n"
        + "".join(items) + "</channel></rss>\n", encoding="utf8")
    return path


def make_cases(folder: Path, copies: int) -> list[Case]:
    rows, rows_2026 = read_rows(JSONL), read_rows(JSONL_2026)
    pages = f"JSONL pytorch2-2 ×{copies}"
    return [
        Case("jsonl", "JSONL", JSONL, "jsonl"),
        Case("table", "table dump", TABLE, "jsonl"),
        Case("jekyll", "Jekyll `_posts`", write_jekyll(folder / "jekyll", rows), "jsonl"),
        Case("csv", "CSV", write_csv(folder / "posts.csv", rows), "jsonl"),
        Case("parquet", "Parquet", write_parquet(folder / "posts.parquet", rows), "jsonl"),
        Case("jsonl-2026", "JSONL 2026", JSONL_2026, "jsonl-2026"),
        Case("markdown", "Markdown 2026", MARKDOWN_2026, "jsonl-2026"),
        Case("feed", "RSS feed 2026 (`content:encoded`)", write_feed(folder / "feed.xml",
                                                                   rows_2026), "jsonl-2026"),
        Case("jsonl-page", pages, write_page_jsonl(folder / "page.jsonl", rows, copies),
             "jsonl-page"),
        Case("html", f"HTML page ×{copies}", write_pages(folder / "html", copies),
             "jsonl-page"),
    ]


# ----------------------------------------------------------------------------------- timing


def timed(fn: Callable[[], object], loops: int) -> float:
    """Seconds per call of ``fn``, over ``loops`` calls."""
    gc.collect()
    start = time.perf_counter()
    for _ in range(loops):
        fn()
    return (time.perf_counter() - start) / loops


def calibrate(case: Case, min_time: float) -> None:
    """Read once (untimed results kept), then choose the reads per round."""
    case.posts = case.read()
    once = timed(case.read, 1)
    case.loops = max(1, int(min_time / max(once, 1e-6)) + 1)


def run_rounds(cases: list[Case], rounds: int) -> None:
    for number in range(max(rounds, 1)):
        for case in cases:
            case.rounds.append(timed(case.read, case.loops))
        say(f"round {number + 1}: " + ", ".join(f"{c.key} {c.rounds[-1] * 1e3:.1f} ms"
                                                for c in cases))


def profile(case: Case) -> None:
    profiler = cProfile.Profile()
    profiler.runcall(case.read)
    say(f"\ncProfile of one read of {case.key} ({case.path}):")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("cumulative").print_stats(25)
    stats.sort_stats("tottime").print_stats(12)


# ----------------------------------------------------------------------------------- report


def say(text: str) -> None:
    print(text, flush=True)


def same_posts(case: Case, baseline: Case) -> str:
    """How ``case``'s posts differ from the baseline's: URLs, then fields of the same URL."""
    mine, theirs = ({p.url: p for p in c.posts} for c in (case, baseline))
    notes = []
    if set(mine) != set(theirs):
        notes.append(f"{len(set(mine) ^ set(theirs))} URLs not in both")
    for name in ("title", "date", "author", "text"):
        differ = sum(getattr(mine[url], name) != getattr(theirs[url], name)
                     for url in set(mine) & set(theirs))
        if differ:
            notes.append(f"{name} differs in {differ}")
    return "; ".join(notes) or "identical"


def markdown_table(cases: list[Case]) -> str:
    by_key = {case.key: case for case in cases}
    jsonl = by_key["jsonl"].best / len(by_key["jsonl"].posts)  # seconds per post
    lines = ["| format | posts | chars | posts/s | chars/s | ratio to JSONL | "
             "vs JSONL of the same posts | spread | posts as the JSONL's |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for case in cases:
        base = by_key[case.baseline]
        per_post = case.best / len(case.posts)
        spread = statistics.median(case.rounds) / case.best
        lines.append(
            f"| {case.name} | {len(case.posts)} | {case.chars:,} | {1 / per_post:,.0f} | "
            f"{case.chars / case.best:,.0f} | {jsonl / per_post:.3f} | "
            f"{base.best / case.best * len(case.posts) / len(base.posts):.3f} | "
            f"{spread:.2f} | {'—' if base is case else same_posts(case, base)} |")
    return "\n".join(lines)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="ptkg-bench-readers-"))
    try:
        cases = make_cases(folder, args.html_copies)
        for case in cases:
            calibrate(case, args.min_time)
            say(f"{case.key}: {len(case.posts)} posts, {case.skips} skipped or dropped, "
                f"{case.loops} reads per round")
        if args.profile:
            chosen = [case for case in cases if case.key == args.profile]
            if not chosen:
                raise SystemExit(f"--profile: one of {', '.join(c.key for c in cases)}")
            profile(chosen[0])
            return 0
        say(f"load average before: {load_average()}")
        run_rounds(cases, args.rounds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    say("")
    say(f"`read_posts` of each input, best of {args.rounds} interleaved rounds of at least "
        f"{args.min_time} s; {os.cpu_count()} CPUs, load average after {load_average()}, "
        f"Python {sys.version.split()[0]}:")
    say("")
    say(markdown_table(cases))
    say("")
    say("spread: median round / best round. 'ratio to JSONL': posts/s over the JSONL reader's "
        "(66 posts); 'vs JSONL of the same posts': against the JSONL input with the same posts.")
    bad = [case.key for case in cases if case.skips or not case.posts]
    if bad:
        say(f"warning: {', '.join(bad)} skipped or dropped posts")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
