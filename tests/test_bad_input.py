"""Bad input of issue 10: each case the audit found, built here from real posts.

The posts come from the development corpus (``tests/data/corpus``) and the reader fixtures;
each test damages them the way the audit did (large inputs are generated here, never
committed). What must hold: no traceback, the good rows beside the bad one are read, every
skip names its file and line, and a fatal error is one line.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ptkg import readers
from ptkg.build import build
from ptkg.cache import post_key
from ptkg.cli import main
from ptkg.errors import GraphFileError, InputError
from ptkg.graph import build_graph, read_graph, write_graph
from ptkg.readers import guess_format, load_yaml, read_posts
from ptkg.records import Post, SkipReport

REPO = Path(__file__).parents[1]
CORPUS = REPO / "tests" / "data" / "corpus"
FIXTURES = Path(__file__).parent / "data" / "readers"
JEKYLL_18 = FIXTURES / "2021-03-04-pytorch-1.8-released.md"
URL_18 = "https://pytorch.org/blog/pytorch-1.8-released/"
SEED = REPO / "data" / "seed_sample.txt"


@pytest.fixture(scope="module")
def corpus_rows() -> list[dict]:
    """The first five posts of the corpus, as JSON Lines records."""
    with open(CORPUS / "pytorch_blog.jsonl", encoding="utf-8") as file:
        return [json.loads(next(file)) for _ in range(5)]


def write_jsonl(path: Path, rows: list[dict | str]) -> Path:
    """Write records (or raw lines) as JSON Lines; ``json.dumps`` spells a surrogate \\ud800."""
    lines = [row if isinstance(row, str) else json.dumps(row) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def read(paths: list[Path], strict: bool = False) -> tuple[list[Post], SkipReport]:
    report = SkipReport(strict=strict)
    return list(read_posts(paths, report)), report


def skip_lines(report: SkipReport) -> list[str]:
    return [str(skip) for skip in report.skips]


def run(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


# --------------------------------------------------------------------------- 1. surrogates


@pytest.mark.parametrize("field", ["text", "title"])
def test_issue10_lone_surrogate_row_read_with_replacement(tmp_path, corpus_rows, field):
    """A lone surrogate in a JSONL text or title is read as U+FFFD, reported, the row kept."""
    bad = dict(corpus_rows[1])
    bad[field] = bad[field][:20] + "\ud800" + bad[field][20:]
    path = write_jsonl(tmp_path / "posts.jsonl", [corpus_rows[0], bad, corpus_rows[2]])
    assert "\\ud800" in path.read_text(encoding="utf-8")
    posts, report = read([path])
    assert [post.url for post in posts] == [row["url"] for row in corpus_rows[:3]]
    assert getattr(posts[1], field) == bad[field].replace("\ud800", "\ufffd")
    assert (posts[0].text, posts[2].text) == (corpus_rows[0]["text"], corpus_rows[2]["text"])
    assert skip_lines(report) == [
        f"{path}:2: lone surrogate '\\ud800' in {field} replaced by U+FFFD (row kept)"
    ]
    assert len({post_key(post) for post in posts}) == 3


def test_issue10_lone_surrogate_in_url_skips_row(tmp_path, corpus_rows):
    """A url with a lone surrogate cannot name a post: that row is skipped, the others read."""
    bad = {**corpus_rows[1], "url": corpus_rows[1]["url"] + "\udc80"}
    path = write_jsonl(tmp_path / "posts.jsonl", [corpus_rows[0], bad, corpus_rows[2]])
    posts, report = read([path])
    assert [post.url for post in posts] == [corpus_rows[0]["url"], corpus_rows[2]["url"]]
    assert skip_lines(report) == [f"{path}:2: url holds a lone surrogate: {bad['url']!r}"]


def test_issue10_lone_surrogate_build_keeps_every_post(tmp_path, corpus_rows):
    """The build is not lost: post_key, extraction, the cache and the graph file all take it."""
    bad = {**corpus_rows[1], "text": corpus_rows[1]["text"] + " \ud83d", "title": "\udfff"}
    path = write_jsonl(tmp_path / "posts.jsonl", [corpus_rows[0], bad])
    graph_path = tmp_path / "graph.json"
    summary = build([path], graph_path, model="blank", cache_dir=tmp_path / "cache")
    assert summary.posts == 2
    assert [str(skip) for skip in summary.skipped] == [
        f"{path}:2: lone surrogate '\\ud83d' in text and title replaced by U+FFFD (row kept)"
    ]
    graph = read_graph(graph_path)
    titles = {data.get("title") for _, data in graph.nodes(data=True) if data["label"] == "Post"}
    assert titles == {corpus_rows[0]["title"], "\ufffd"}


@pytest.mark.parametrize("field", ["url", "text", "title", "author", "date"])
def test_issue10_post_key_never_raises(field):
    """post_key hashes any Post, lone surrogates included, and tells them from U+FFFD."""
    post = Post("https://pytorch.org/blog/a/", "PyTorch 1.8 adds torch.fx.")
    setattr(post, field, "x\ud800")
    fixed = Post("https://pytorch.org/blog/a/", "PyTorch 1.8 adds torch.fx.")
    setattr(fixed, field, "x\ufffd")
    assert post_key(post) != post_key(fixed)


# --------------------------------------------------------------------------- 2. YAML


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    """The classic alias bomb: ``width ** levels`` strings from a few hundred bytes."""
    names = "abcdefghijklmnopqrstuvwxyz"
    lines = ["a: &a [" + ", ".join(['"lol"'] * width) + "]"]
    for i in range(1, levels):
        refs = ", ".join([f"*{names[i - 1]}"] * width)
        lines.append(f"{names[i]}: &{names[i]} [{refs}]")
    return "title: Laughs\n" + "\n".join(lines) + f"\nauthor: *{names[levels - 1]}\n"


# name: (YAML, 1-based line of the YAML that the skip names, reason)
BAD_YAML = {
    "billion-laughs": (
        billion_laughs(),
        5,
        "its aliases expand it by more than 16384 values and characters",
    ),
    "one-long-string-aliased": (
        "title: &t " + "x" * 1000 + "\nauthor: [" + ", ".join(["*t"] * 50) + "]\n",
        2,
        "its aliases expand it by more than 16384 values and characters",
    ),
    "alias-in-itself": (
        "title: Self\ntags: &t [a, *t]\n",
        2,
        "an alias refers to the node it is in",
    ),
    "nested-200000-deep": (
        "title: " + "[" * 200_000 + "]" * 200_000 + "\n",
        1,
        "longer than 16384 characters",
    ),
    "nested-5000-deep": (
        "title: Deep\ntags: " + "[" * 5000 + "]" * 5000 + "\n",
        2,
        "nested more than 100 deep",
    ),
    "block-nested-deep": (
        "title: Deep\ntags:\n" + "".join(" " * i + "- \n" for i in range(1, 120)),
        22,
        "nested more than 100 deep",
    ),
    "too-long": ("title: " + "x" * 20_000 + "\n", 1, "longer than 16384 characters"),
}


@pytest.mark.parametrize("case", sorted(BAD_YAML))
def test_issue10_bad_yaml_jekyll_post_skipped_fast(tmp_path, case):
    """Bad front matter (alias bomb, too long or deep, alias in itself): skipped fast, by line."""
    front, line, reason = BAD_YAML[case]
    posts_dir = tmp_path / "_posts"
    posts_dir.mkdir()
    shutil.copy(JEKYLL_18, posts_dir / JEKYLL_18.name)
    bad = posts_dir / "2021-01-01-bomb.md"
    bad.write_text(f"---\n{front}---\nThe body of the post.\n", encoding="utf-8")
    started = time.perf_counter()
    posts, report = read([tmp_path])
    assert time.perf_counter() - started < 1.0
    assert [post.url for post in posts] == [URL_18]
    assert skip_lines(report) == [f"{bad}:{line + 1}: front matter refused: {reason}"]
    with pytest.raises(InputError, match=f"^{bad}:{line + 1}: front matter refused"):
        read([bad], strict=True)


@pytest.mark.parametrize("case", sorted(BAD_YAML))
def test_issue10_bad_yaml_jsonl_front_matter_field_ignored(tmp_path, corpus_rows, case):
    """A JSONL ``front_matter`` field that is an alias bomb is ignored, reported; row read."""
    front, _, reason = BAD_YAML[case]
    bad = {**corpus_rows[1], "title": None, "author": None, "front_matter": f"---\n{front}---\n"}
    path = write_jsonl(tmp_path / "posts.jsonl", [corpus_rows[0], bad, corpus_rows[2]])
    started = time.perf_counter()
    posts, report = read([path])
    assert time.perf_counter() - started < 1.0
    assert [(post.url, post.title) for post in posts] == [
        (corpus_rows[0]["url"], corpus_rows[0]["title"]),
        (bad["url"], None),
        (corpus_rows[2]["url"], corpus_rows[2]["title"]),
    ]
    assert posts[1].text == bad["text"]
    assert skip_lines(report) == [f"{path}:2: front_matter field ignored ({reason})"]


def test_issue10_alias_bomb_in_table_dump_text_read_as_text(tmp_path):
    """A table dump chunk that starts with an alias bomb keeps it as text; the seed is read."""
    seed = SEED.read_text(encoding="utf-8").split("\n")
    rule = seed.index("|---|---|---|")
    bomb = f"---\n{billion_laughs()}---\nThe body of the post."
    row = f"{bomb} | https://pytorch.org/blog/bomb/ | pytorch blogs |"
    path = tmp_path / "dump.txt"
    path.write_text("\n".join([*seed[: rule + 1], row, *seed[rule + 1 :]]), encoding="utf-8")
    posts, report = read([path])
    seed_urls = [post.url for post in read_posts([SEED])]
    assert [post.url for post in posts] == ["https://pytorch.org/blog/bomb/", *seed_urls]
    assert posts[0].text == bomb
    reason = "its aliases expand it by more than 16384 values and characters"
    assert skip_lines(report) == [
        f"{path}:{rule + 2 + 5}: front matter refused ({reason}); read as text"
    ]


def test_issue10_load_yaml_keeps_ordinary_aliases():
    """Anchors and aliases within the bounds (the usual ``<<: *defaults``) still load."""
    text = "base: &b {layout: blog_detail, author: Team PyTorch}\npost:\n  <<: *b\n  title: Hi\n"
    assert load_yaml(text)["post"] == {
        "layout": "blog_detail",
        "author": "Team PyTorch",
        "title": "Hi",
    }


# --------------------------------------------------------------------------- 4. detection


# Each damages the lines of a JSON Lines file and returns them with the skips it expects.
def _nul_on_line_2(rows: list[str]) -> tuple[list[str], list[str]]:
    return [rows[0], "\x00" + rows[1], *rows[2:]], ["2: not valid JSON (Expecting value)"]


def _array_first(rows: list[str]) -> tuple[list[str], list[str]]:
    return ["[1,2]", *rows], ["1: not a JSON object"]


def _nested_first(rows: list[str]) -> tuple[list[str], list[str]]:
    return ["[" * 200_000 + "]" * 200_000, *rows], ["1: not valid JSON (too deep)"]


def _objects_nested_first(rows: list[str]) -> tuple[list[str], list[str]]:
    return ['{"a":' * 200_000 + "1" + "}" * 200_000, *rows], ["1: not valid JSON (too deep)"]


def _two_nested_first(rows: list[str]) -> tuple[list[str], list[str]]:
    deep = "[" * 200_000 + "]" * 200_000  # together far beyond the sniffer's first read
    return [deep, deep, *rows], [f"{n}: not valid JSON (too deep)" for n in (1, 2)]


@pytest.mark.parametrize(
    "damage",
    [_nul_on_line_2, _array_first, _nested_first, _objects_nested_first, _two_nested_first],
)
def test_issue10_bad_first_lines_lose_only_themselves(tmp_path, corpus_rows, damage):
    """A NUL byte on line 2, a first line that is an array or nested deep: only it is lost."""
    rows, skips = damage([json.dumps(row) for row in corpus_rows])
    path = write_jsonl(tmp_path / "posts.jsonl", rows)
    assert readers.detect_format(path) == "jsonl"
    posts, report = read([path])
    lost = {1} if damage is _nul_on_line_2 else set()
    assert [post.url for post in posts] == [
        row["url"] for i, row in enumerate(corpus_rows) if i not in lost
    ]
    assert [str(s).removeprefix(f"{path}:") for s in report.skips] == skips
    dir_posts, dir_report = read([tmp_path])
    assert ([p.url for p in dir_posts], skip_lines(dir_report)) == (
        [p.url for p in posts],
        skip_lines(report),
    )


def test_issue10_first_record_larger_than_sniffer_window(tmp_path, corpus_rows):
    """A valid 50 MB first record (beyond the sniffer's window) is read, and so is the rest."""
    size = 3 * readers.MAX_HEAD_BYTES
    assert size >= 50 * 10**6
    text = "PyTorch. " * (size // 9)
    big = {"url": "https://pytorch.org/blog/big/", "title": "Big", "text": text}
    path = write_jsonl(tmp_path / "posts.jsonl", [big, *corpus_rows[:2]])
    assert path.stat().st_size > size
    posts, report = read([path])
    assert [post.url for post in posts] == [big["url"], *(row["url"] for row in corpus_rows[:2])]
    assert len(posts[0].text) == len(big["text"])
    assert report.skips == []


@pytest.mark.parametrize(
    ("head", "fmt"),
    [
        (b'[1,2]\n{"url": "https://e.org/a/", "text": "A"}\n', "jsonl"),
        (b'not json\n{"url": "https://e.org/a/", "text": "A"}\n', "jsonl"),
        (b'{"url": "https://e.org/a/", "text": "A"}\n\x00\x00\x00\n', "jsonl"),
        (b'{"url": "https://e.org/a/", "te', "jsonl"),
        (b'{"url": "https://e.org/a/", "text": "A"}\none\ntwo\n', None),
        (b"---\ntitle: Hi\n---\n" + b'{"a": 1}\n' * 10, "jekyll"),
        (b'text\n|---|---|---|\n{"a": 1}\n{"b": 2}\nx | https://e.org/ | blogs |\n', "table"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00", None),
    ],
    ids=[
        "array-first",
        "prose-first",
        "nul-line",
        "cut-record",
        "prose-majority",
        "jekyll-with-json-code",
        "table-with-json-code",
        "png",
    ],
)
def test_issue10_guess_format_by_majority(head, fmt):
    """JSON Lines is told by most of the first lines, not by the first one alone."""
    assert guess_format(head) == fmt


# --------------------------------------------------------------------------- 5. CSV cut


def _corpus_csv(rows: list[dict]) -> str:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(["title", "url", "date", "author", "text"])
    for row in rows:
        writer.writerow([row["title"], row["url"], row["date"], row["author"], row["text"]])
    return buffer.getvalue()


@pytest.mark.parametrize("where", ["in-a-word", "after-a-line-break", "after-doubled-quote"])
def test_issue10_csv_cut_inside_quoted_field_skips_last_row(tmp_path, corpus_rows, where):
    """A CSV cut inside a quoted field: the last row is skipped by line, not read truncated."""
    rows = [dict(row) for row in corpus_rows[:3]]
    rows[2]["text"] = 'He said ""use torch.compile"" then\nleft.' + rows[2]["text"]
    text = _corpus_csv(rows)
    last = text.index(rows[2]["url"])
    marks = {"in-a-word": "He sa", "after-a-line-break": "then\n", "after-doubled-quote": '""'}
    cut = text.index(marks[where], last) + len(marks[where])
    path = tmp_path / "posts.csv"
    path.write_text(text[:cut], encoding="utf-8")
    posts, report = read([path])
    assert [post.text for post in posts] == [rows[0]["text"], rows[1]["text"]]
    line = text.count("\n", 0, last) + 1
    assert skip_lines(report) == [
        f"{path}:{line}: row is cut short: a quoted field is not closed at the end of the file"
    ]


@pytest.mark.parametrize(
    "tail",
    ['"last text"', '"last ""quoted"" text"', 'a 5" screen', '"closed" then more', ""],
)
def test_issue10_csv_complete_last_row_not_reported(tail):
    """A last row that is whole, even without a final line break, is read, not reported."""
    text = f"url,text\nhttps://e.org/a/,first\nhttps://e.org/b/,{tail}"
    report = SkipReport()
    chunks = list(readers.parse_csv_rows(text, "t.csv", report))
    assert len(chunks) == 2
    assert report.skips == []


def test_issue10_csv_cut_cli_says_one_row_skipped(tmp_path, corpus_rows):
    """``ptkg build`` on a cut CSV: exit 0, the row named, "1 rows skipped" in the summary."""
    text = _corpus_csv(corpus_rows[:2])
    path = tmp_path / "posts.csv"
    path.write_text(text[: len(text) - 100], encoding="utf-8")
    result = run(
        "build", path, "--graph", tmp_path / "graph.json", "--model", "blank", "--no-cache"
    )
    assert result.exit_code == 0, result.output
    line = text.count("\n", 0, text.index(corpus_rows[1]["url"])) + 1
    assert (
        f"skipped {path}:{line}: row is cut short: a quoted field is not closed at the end of "
        "the file" in result.stderr.splitlines()
    )
    assert ": 1 posts (cache off)" in result.stdout
    assert " 1 rows skipped, " in result.stdout


# --------------------------------------------------------------------------- 6. duplicate urls


def test_issue10_same_url_different_text_keeps_first(tmp_path, corpus_rows):
    """The same url in a later file with another text is skipped, naming where the first was."""
    first = write_jsonl(tmp_path / "a.jsonl", corpus_rows[:3])
    changed = {**corpus_rows[1], "text": corpus_rows[1]["text"] + "\nAn added line."}
    later = write_jsonl(tmp_path / "b.jsonl", [corpus_rows[3], changed])
    posts, report = read([first, later])
    assert [post.url for post in posts] == [row["url"] for row in corpus_rows[:4]]
    assert posts[1].text == corpus_rows[1]["text"]
    assert skip_lines(report) == [
        f"{later}:2: same URL as {first}:2 with different text; kept the first"
    ]
    assert report.duplicates == 0


def test_issue10_same_url_same_text_dropped_and_counted(tmp_path, corpus_rows):
    """An identical post in a second file is dropped without a skip, and counted."""
    first = write_jsonl(tmp_path / "a.jsonl", corpus_rows[:3])
    copy = tmp_path / "copy" / "a.jsonl"
    copy.parent.mkdir()
    shutil.copy(first, copy)
    posts, report = read([first, tmp_path / "copy"])
    assert [post.url for post in posts] == [row["url"] for row in corpus_rows[:3]]
    assert (report.skips, report.duplicates) == ([], 3)


def test_issue10_corpus_in_two_formats_each_post_once(corpus_rows):
    """The corpus as JSON Lines and seed-format: 66 posts, not 132, each other text a skip."""
    jsonl, seed = CORPUS / "pytorch_blog.jsonl", CORPUS / "pytorch_blog_seedformat.txt"
    posts, report = read([jsonl, seed])
    assert len(posts) == len({post.url for post in posts}) == 66
    assert {post.spans[0].file for post in posts} == {str(jsonl)}
    assert len(report.skips) == 66
    assert all(
        skip.file == str(seed) and skip.line and skip.reason.startswith(f"same URL as {jsonl}:")
        for skip in report.skips
    )


def test_issue10_read_posts_still_lazy(tmp_path, corpus_rows):
    """Tracking urls keeps ``read_posts`` lazy: a later file is opened only when reached."""
    first = write_jsonl(tmp_path / "a.jsonl", corpus_rows[:2])
    later = tmp_path / "later.jsonl"
    posts = read_posts([first, later])
    assert next(posts).url == corpus_rows[0]["url"]
    write_jsonl(later, [corpus_rows[1], corpus_rows[2]])
    assert [post.url for post in posts] == [corpus_rows[1]["url"], corpus_rows[2]["url"]]


# --------------------------------------------------------------------------- 7. not a graph


def _graph_bytes() -> bytes:
    path = Path(tempfile.mkdtemp()) / "graph.json"
    write_graph(build_graph([]), path)
    data = path.read_bytes()
    shutil.rmtree(path.parent)
    return data


@pytest.mark.parametrize(
    "content",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe",
        '{"format": "ptkg-graph", "name": "caf\u00e9"}'.encode("latin-1"),
        _graph_bytes().decode("utf-8").encode("utf-16"),
        b"[" * 100_000 + b"]" * 100_000,
        b"ptkg-graph",
    ],
    ids=["binary", "latin-1", "utf-16", "nested", "not-json"],
)
def test_issue10_read_graph_not_utf8_json_one_line(tmp_path, content):
    """A file that is not UTF-8 JSON: one GraphFileError line, the same on the command line."""
    path = tmp_path / "graph.json"
    path.write_bytes(content)
    message = f"{path}: not a ptkg graph file (not UTF-8 JSON)"
    with pytest.raises(GraphFileError) as caught:
        read_graph(path)
    assert str(caught.value) == message
    result = run("stats", "--graph", path)
    assert (result.exit_code, result.output.splitlines()) == (1, [f"Error: {message}"])


def test_issue10_read_graph_json_array_one_line(tmp_path):
    """A JSON array is UTF-8 JSON but not a graph: one line that says so."""
    path = tmp_path / "graph.json"
    path.write_text("[1, 2]\n", encoding="utf-8")
    result = run("stats", "--graph", path)
    assert (result.exit_code, result.output.splitlines()) == (
        1,
        [f'Error: {path}: not a ptkg graph (no "format": "ptkg-graph")'],
    )


# --------------------------------------------------------------------------- 8. smaller


@pytest.mark.parametrize(
    ("encoding", "name"),
    [("utf-16", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32", "UTF-32")],
)
def test_issue10_utf16_named(tmp_path, corpus_rows, encoding, name):
    """UTF-16 (with a byte order mark) is named, with the fix; in a folder it is skipped."""
    text = "\n".join(json.dumps(row) for row in corpus_rows[:2]) + "\n"
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = "\ufeff".encode(encoding) + data
    path = tmp_path / "posts.jsonl"
    path.write_bytes(data)
    reason = f"{name} text (it starts with a {name} byte order mark): re-encode it as UTF-8"
    with pytest.raises(InputError) as caught:
        read([path])
    assert str(caught.value) == f"{path}: {reason}"
    (tmp_path / "sub").mkdir()
    write_jsonl(tmp_path / "sub" / "good.jsonl", corpus_rows[2:3])
    posts, report = read([tmp_path])
    assert [post.url for post in posts] == [corpus_rows[2]["url"]]
    assert skip_lines(report) == [f"{path}: {reason}"]


@pytest.mark.parametrize(
    ("columns", "missing"),
    [
        (
            ["title", "url", "date"],
            "no text column in the header (expected one of text, content, body)",
        ),
        (
            ["title", "date", "text"],
            "no url column in the header (expected one of url, source, link)",
        ),
    ],
)
def test_issue10_csv_without_column_names_it(tmp_path, corpus_rows, columns, missing):
    """A CSV whose header lacks the text (or url) column: the message names the column."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(columns)
    writer.writerows([[row[c] for c in columns] for row in corpus_rows[:3]])
    path = tmp_path / "posts.csv"
    path.write_text(buffer.getvalue(), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read([path])
    assert str(caught.value) == f"{path}:1: CSV, but {missing}"


def test_issue10_unclosed_front_matter_names_it(tmp_path):
    """A Jekyll post without its second ``---`` line: the message says so, on line 1."""
    lines = JEKYLL_18.read_text(encoding="utf-8").split("\n")
    close = lines.index("---", 1)
    path = tmp_path / JEKYLL_18.name
    path.write_text("\n".join(lines[:close] + lines[close + 1 :]), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read([path])
    assert str(caught.value) == (
        f"{path}:1: starts like a Jekyll post, but the front matter is not closed "
        "(no second '---' line)"
    )


def test_issue10_unclosed_front_matter_of_a_long_post_read_as_jekyll(tmp_path):
    """Past the longest front matter, a ``---`` post is read as Jekyll: the reader says why."""
    body = JEKYLL_18.read_text(encoding="utf-8").split("---\n", 2)[2]
    path = tmp_path / "2021-03-04-long.md"
    path.write_text("---\ntitle: Long\n" + body * 10, encoding="utf-8")
    posts, report = read([path])
    assert (posts, skip_lines(report)) == (
        [],
        [f"{path}:1: front matter is not closed (no second '---' line)"],
    )


def _run_unprivileged(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """Run ``ptkg`` as user ``nobody`` (root reads any file), or as ourselves if not root."""
    command = [sys.executable, "-c", "from ptkg.cli import main; main()", *args]
    if os.geteuid() == 0:
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    env = {**os.environ, "HOME": str(cwd)}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(
    os.name != "posix" or (os.geteuid() == 0 and shutil.which("setpriv") is None),
    reason="needs a user that file permissions apply to",
)
def test_issue10_unreadable_input_exits_1(corpus_rows):
    """An input that cannot be read (permissions) stops the build with exit 1 and one line."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        work.chmod(0o755)
        path = write_jsonl(work / "posts.jsonl", corpus_rows[:1])
        path.chmod(0)
        result = _run_unprivileged(["build", str(path), "--graph", str(work / "g.json")], work)
    assert (result.returncode, result.stderr.splitlines()) == (
        1,
        [f"Error: {path}: permission denied"],
    )
