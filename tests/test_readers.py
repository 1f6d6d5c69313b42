"""Tests of ptkg.readers: the seed table dump, the corpus in its formats, and bad input."""

from __future__ import annotations

import doctest
import json
import os
import re
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ptkg import readers
from ptkg.errors import InputError
from ptkg.readers import (
    detect_format,
    guess_format,
    normalize_date,
    parse_csv,
    parse_jekyll,
    parse_jsonl,
    parse_table_dump,
    parse_table_rows,
    read_csv,
    read_jekyll,
    read_jsonl,
    read_parquet,
    read_posts,
    read_table_dump,
    split_front_matter,
)
from ptkg.records import Post, SkipReport

REPO = Path(__file__).parents[1]
SEED = REPO / "data" / "seed_sample.txt"
FIXTURES = Path(__file__).parent / "data" / "readers"
CORPUS = REPO / "tests" / "data" / "corpus"
JEKYLL_18 = FIXTURES / "2021-03-04-pytorch-1.8-released.md"

BLOG = "https://pytorch.org/blog/"
SEED_URLS = [
    BLOG + "scaling-pytorch-models-on-cloud-tpus-with-fsdp/",
    BLOG + "pytorch-library-updates-new-model-serving-library/",
    BLOG + "announcing-pytorch-enterprise/",
    BLOG + "torchcsprng-release-blog/",
    BLOG + "overview-of-pytorch-autograd-engine/",
    BLOG + "pytorch-1.8-released/",
    BLOG + "introducing-accelerated-pytorch-training-on-mac/",
    BLOG + "how-to-train-state-of-the-art-models-using-torchvision-latest-primitives/",
]
TITLE_18 = (
    "PyTorch 1.8 Release, including Compiler and Distributed Training updates, "
    "and New Mobile Tutorials"
)
HEADER = "text\nstringlengths\n0\n1.73k\n| source\nstringlengths\n35\n119\n| category\n"
HEADER += "stringclasses\n2\nvalues |\n|---|---|---|\n"


@pytest.fixture(scope="module")
def seed_posts() -> dict[str, Post]:
    return {post.url: post for post in read_table_dump(str(SEED))}


@pytest.fixture(scope="module")
def corpus() -> Path:
    return CORPUS


@pytest.fixture(scope="module")
def corpus_records(corpus: Path) -> list[dict]:
    lines = (corpus / "pytorch_blog.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def _line_of(path: Path, sentence: str) -> int:
    lines = path.read_text(encoding="utf-8").split("\n")
    found = [n for n, line in enumerate(lines, start=1) if sentence in line]
    assert len(found) == 1, found
    return found[0]


def test_module_doctests():
    assert doctest.testmod(readers).failed == 0


# --------------------------------------------------------------------------- the seed dump


def test_read_table_dump_seed_urls_in_order(seed_posts):
    assert list(seed_posts) == SEED_URLS


@pytest.mark.parametrize(
    ("slug", "title", "author"),
    [
        ("pytorch-1.8-released/", TITLE_18, "Team PyTorch"),
        (
            "pytorch-library-updates-new-model-serving-library/",
            "PyTorch library updates including new model serving library",
            "Team PyTorch",
        ),
        (
            "overview-of-pytorch-autograd-engine/",
            "Overview of PyTorch Autograd Engine",
            "Preferred Networks, Inc.",
        ),
        ("scaling-pytorch-models-on-cloud-tpus-with-fsdp/", None, None),
    ],
)
def test_read_table_dump_seed_front_matter(seed_posts, slug, title, author):
    post = seed_posts[BLOG + slug]
    assert (post.title, post.author, post.date) == (title, author, None)


def test_read_table_dump_seed_front_matter_removed(seed_posts):
    keys = ("layout:", "title:", "author:", "featured-img:")
    for post in seed_posts.values():
        assert not [line for line in post.text.split("\n") if line.startswith(keys)]
    post = seed_posts[BLOG + "pytorch-1.8-released/"]
    assert post.text.startswith("We are excited to announce the availability of PyTorch 1.8.")


@pytest.mark.parametrize(
    ("slug", "sentence", "line"),
    [
        (
            "pytorch-1.8-released/",
            "We are excited to announce the availability of PyTorch 1.8",
            230,
        ),
        (
            "scaling-pytorch-models-on-cloud-tpus-with-fsdp/",
            "One prominent distinction is that the native PyTorch FSDP",
            16,
        ),
        ("overview-of-pytorch-autograd-engine/", "Evaluating the Jvp for yields the result:", 187),
    ],
)
def test_post_origin_seed_sentence(seed_posts, slug, sentence, line):
    post = seed_posts[BLOG + slug]
    offset = post.text.index(sentence)
    assert post.origin(offset) == (str(SEED), line)
    assert post.origin(offset + len(sentence) - 1) == (str(SEED), line)
    assert _line_of(SEED, sentence) == line


def test_post_origin_every_seed_line(seed_posts):
    """Each line of a post's text starts the file line that origin() names."""
    lines = SEED.read_text(encoding="utf-8").split("\n")
    for post in seed_posts.values():
        offset = 0
        for text_line in post.text.split("\n"):
            file, number = post.origin(offset)
            assert file == str(SEED)
            assert lines[number - 1].startswith(text_line)
            offset += len(text_line) + 1


def test_parse_table_rows_seed_count_and_empty_rows():
    rows = list(parse_table_rows(SEED.read_text(encoding="utf-8"), str(SEED)))
    assert len(rows) == 100
    empty = [(row.line, row.url) for row in rows if not row.text.strip()]
    assert empty == [(n, BLOG + "overview-of-pytorch-autograd-engine/") for n in (177, 179, 185)]


# --------------------------------------------------------------------------- table dump by hand

ODD_ROWS = """Alpha line
ends with a break
| https://e.org/a/ | blogs |
Beta | pipe | in | text | https://e.org/a/ | blogs |
https://e.org/a/ | blogs |
|
| https://e.org/b/ | blogs |
Gamma | https://e.org/b/ | blogs |
"""


def test_parse_table_rows_odd_rows():
    rows = list(parse_table_rows(HEADER + ODD_ROWS, "t.txt"))
    got = [(row.url, row.text, row.line) for row in rows]
    assert got == [
        ("https://e.org/a/", "Alpha line\nends with a break", 14),
        ("https://e.org/a/", "Beta | pipe | in | text", 17),
        ("https://e.org/a/", "", 18),
        ("https://e.org/b/", "", 20),
        ("https://e.org/b/", "Gamma", 21),
    ]


def test_parse_table_dump_odd_rows_posts():
    posts = list(parse_table_dump(HEADER + ODD_ROWS, "t.txt"))
    assert [(p.url, p.text) for p in posts] == [
        ("https://e.org/a/", "Alpha line\nends with a break\nBeta | pipe | in | text"),
        ("https://e.org/b/", "Gamma"),
    ]
    assert posts[0].origin(posts[0].text.index("Beta")) == ("t.txt", 17)
    assert posts[0].origin(posts[0].text.index("ends")) == ("t.txt", 15)


def test_parse_table_dump_reads_the_lines_rows_overlap_on_once():
    # the real dump repeats a row's last line at the next row's start (314 of 912 joins)
    dump = HEADER + ("Intro\nPerformance Improvements | https://e.org/a/ | blogs |\n"
                     "Performance Improvements\nProse. | https://e.org/a/ | blogs |\n"
                     "Prose. | https://e.org/a/ | blogs |\n")
    [post] = parse_table_dump(dump, "t.txt")
    assert post.text == "Intro\nPerformance Improvements\nProse."
    assert post.origin(post.text.index("Prose")) == ("t.txt", 17)


def test_real_table_dump_repeats_no_line_where_its_rows_join(corpus_dir):
    [post] = [p for p in read_table_dump(corpus_dir / "pytorch_blog_seedformat.txt")
              if p.url.endswith("/a-better-transformer-for-fast-transformer-encoder-inference/")]
    assert post.text.count("Performance Improvements\n") == 1


def test_parse_table_rows_markdown_table_in_text():
    dump = "| a | b |\n|---|---|\n| 1 | 2 | | https://e.org/t/ | blogs |\n"
    rows = list(parse_table_rows(dump, "t.txt"))
    assert [(r.text, r.line) for r in rows] == [("| a | b |\n|---|---|\n| 1 | 2 |", 1)]


@pytest.mark.parametrize(
    ("row", "reason"),
    [
        ("Text | ftp://e.org/x/ | blogs |", "source is not an http(s) URL: 'ftp://e.org/x/'"),
        ("Text |  | blogs |", "row has no source URL"),
    ],
)
def test_parse_table_rows_bad_url_skipped(row, reason):
    report = SkipReport()
    dump = f"Ok | https://e.org/a/ | blogs |\nMore\n{row}\nLast | https://e.org/a/ | blogs |\n"
    rows = list(parse_table_rows(dump, "t.txt", report))
    assert [r.text for r in rows] == ["Ok", "Last"]
    assert [str(s) for s in report.skips] == [f"t.txt:2: {reason}"]


def test_parse_table_rows_text_without_url_skipped():
    report = SkipReport()
    rows = list(parse_table_rows("A | https://e.org/a/ | blogs |\ncut\nshort", "t.txt", report))
    assert len(rows) == 1
    assert [str(s) for s in report.skips] == [
        "t.txt:2: row has no source column (is the file cut short?)"
    ]


def test_parse_table_dump_front_matter_only_post_is_empty():
    report = SkipReport()
    dump = HEADER + "layout: blog_detail\ntitle: 'Only'\n| https://e.org/o/ | blogs |\n"
    assert list(parse_table_dump(dump, "t.txt", report)) == []
    assert [str(s) for s in report.skips] == ["t.txt:14: empty post https://e.org/o/"]


def test_parse_table_dump_front_matter_date_and_quotes():
    dump = HEADER + (
        'layout: blog_detail\ntitle: "A \\"quoted\\" title "\nauthor: Ann  \n'
        "date: 2018-01-19 12:00:00 -0500\nBody | https://e.org/d/ | blogs |\n"
    )
    (post,) = parse_table_dump(dump, "t.txt")
    assert (post.title, post.author, post.date, post.text) == (
        'A "quoted" title',
        "Ann",
        "2018-01-19",
        "Body",
    )
    assert post.origin(0) == ("t.txt", 18)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("layout: blog_detail\ntitle: 'Hi'\nBody", 2),
        ("\n---\ntitle: Hi\n---\nBody", 4),
        ("Note: this is the body", 0),
        ("author: Someone\nBody", 0),  # no layout or title: not front matter
        ("---\ntitle: [unclosed\n---\nBody", 0),
    ],
)
def test_split_front_matter_count(text, count):
    assert split_front_matter(text)[1] == count


# --------------------------------------------------------------------------- the corpus


def test_seedformat_rows_and_posts(corpus, corpus_records):
    path = corpus / "pytorch_blog_seedformat.txt"
    report = SkipReport(strict=True)
    rows = list(parse_table_rows(path.read_text(encoding="utf-8"), str(path), report))
    posts = list(read_posts([path], report))
    assert len(rows) == 978
    assert len({row.url for row in rows}) == 66
    assert [p.url for p in posts] == [r["url"] for r in corpus_records]
    assert [(p.title, p.author) for p in posts] == [
        (r["title"], r["author"]) for r in corpus_records
    ]


def _words(text: str) -> Counter[str]:
    return Counter(re.findall(r"[A-Za-z]{3,}", text))


def test_seedformat_chunks_hold_corpus_text(corpus, corpus_records):
    """Each post's chunks hold the corpus post's words (rendering drops markup, not words)."""
    posts = {p.url: p for p in read_posts([corpus / "pytorch_blog_seedformat.txt"])}
    for record in corpus_records:
        rendered, source = _words(posts[record["url"]].text), _words(record["text"])
        extra = sum((rendered - source).values())  # words repeated by the chunk overlap
        assert extra / sum(rendered.values()) < 0.05, record["url"]
        lost = [word for word in source if word not in rendered]
        assert len(lost) / len(source) < 0.2, record["url"]  # link targets, html attributes


def test_read_jsonl_corpus(corpus, corpus_records):
    path = corpus / "pytorch_blog.jsonl"
    posts = list(read_posts([str(path)], SkipReport(strict=True)))
    assert len(posts) == 66
    assert [(p.url, p.title, p.author, p.date, p.text) for p in posts] == [
        (r["url"], r["title"], r["author"], r["date"], r["text"]) for r in corpus_records
    ]
    assert sum(p.date is not None for p in posts) == 64
    assert posts[0].date == "2018-01-19"
    last = posts[-1]
    assert last.origin(len(last.text) - 1) == (str(path), 66)


def test_read_posts_corpus_as_jekyll_posts(corpus_records, tmp_path):
    """The corpus rebuilt as a `_posts` folder reads back as the same posts."""
    for record in corpus_records:
        name = Path(record["source_path"] or f"{record['id']}.md").name
        _write(tmp_path / "_posts" / name, record["front_matter"] + record["text"])
    posts = {p.url: p for p in read_posts([tmp_path], SkipReport(strict=True))}
    assert len(posts) == 66
    for record in corpus_records:
        post = posts[record["url"]]
        assert (post.title, post.author, post.text) == (
            record["title"],
            record["author"],
            record["text"],
        )
        if record["date_source"] in ("filename", "front_matter"):
            assert post.date == record["date"]


# --------------------------------------------------------------------------- JSONL


def test_read_jsonl_fixture():
    path = FIXTURES / "posts.jsonl"
    posts = list(read_jsonl(path))
    assert [(p.url, p.title, p.author, p.date) for p in posts] == [
        (
            BLOG + "pytorch-0_4_0-migration-guide/",
            "The road to 1.0: production ready PyTorch",
            None,
            "2018-04-22",
        ),
        (BLOG + "pytorch-1.8-released/", TITLE_18, "Team PyTorch", "2021-03-04"),
        (
            BLOG + "overview-of-pytorch-autograd-engine/",
            "Overview of PyTorch Autograd Engine",
            "Preferred Networks, Inc.",
            None,
        ),
    ]
    assert all(p.origin(len(p.text) - 1) == (str(path), n) for n, p in enumerate(posts, 1))


def test_parse_jsonl_malformed_lines_skipped():
    lines = [
        '{"url": "https://e.org/a/", "text": "One"}',
        '{"url": "https://e.org/a/", "text": ',
        "[1, 2]",
        "",
        '{"text": "no url"}',
        '{"url": "https://e.org/b/"}',
        '{"url": "mailto:x@e.org", "text": "Mail"}',
        '{"url": "https://e.org/b/", "text": 3}',
        '{"source": "https://e.org/a/", "content": "Two"}',
    ]
    report = SkipReport()
    posts = list(parse_jsonl(lines, "x.jsonl", report))
    assert [(p.url, p.text) for p in posts] == [("https://e.org/a/", "One\nTwo")]
    assert posts[0].origin(posts[0].text.index("Two")) == ("x.jsonl", 9)
    assert [str(s) for s in report.skips] == [
        "x.jsonl:2: not valid JSON (Expecting value)",
        "x.jsonl:3: not a JSON object",
        "x.jsonl:5: no url (expected a field url or source or link)",
        "x.jsonl:6: no text (expected a field text or content or body)",
        "x.jsonl:7: url is not an http(s) URL: 'mailto:x@e.org'",
        "x.jsonl:8: text is not a string but int",
    ]


def test_parse_jsonl_strict_raises_with_line():
    with pytest.raises(InputError, match=r"^x\.jsonl:2: not valid JSON") as caught:
        list(
            parse_jsonl(
                '{"url": "https://e.org/", "text": "a"}\n{oops\n',
                "x.jsonl",
                SkipReport(strict=True),
            )
        )
    assert (caught.value.file, caught.value.line) == ("x.jsonl", 2)


def test_parse_jsonl_empty_post_skipped():
    report = SkipReport()
    rows = ['{"url": "https://e.org/e/", "text": "  "}', '{"url": "https://e.org/e/", "text": ""}']
    assert list(parse_jsonl(rows, "x.jsonl", report)) == []
    assert [str(s) for s in report.skips] == ["x.jsonl:1: empty post https://e.org/e/"]


def test_parse_jsonl_front_matter_field_fills_missing_values():
    row = {
        "url": "https://e.org/f/",
        "text": "Body",
        "front_matter": "---\ntitle: 'From front matter'\nauthor: Team PyTorch\n"
        "date: 2020-05-06\n---\n",
    }
    (post,) = parse_jsonl([json.dumps(row)])
    assert (post.title, post.author, post.date) == (
        "From front matter",
        "Team PyTorch",
        "2020-05-06",
    )


# --------------------------------------------------------------------------- CSV


def test_read_csv_fixture():
    path = FIXTURES / "posts.csv"
    report = SkipReport()
    posts = list(read_csv(path, report))
    assert [(p.url, p.title, p.date, p.author) for p in posts] == [
        (BLOG + "pytorch-1.8-released/", "PyTorch 1.8 Release", "2021-03-04", "Team PyTorch"),
        (
            BLOG + "overview-of-pytorch-autograd-engine/",
            "Overview of PyTorch Autograd Engine",
            None,
            "Preferred Networks, Inc.",
        ),
    ]
    first = posts[0]
    assert '"frontend APIs"' in first.text
    assert first.origin(first.text.index("It includes")) == (str(path), 3)
    assert first.origin(first.text.index("TorchText and")) == (str(path), 5)
    assert [str(s) for s in report.skips] == [
        f"{path}:7: no url (expected a field url or source or link)"
    ]


def test_parse_csv_tab_separated_and_bad_rows():
    text = "URL\tTitle\tBody\nhttps://e.org/a/\tA\tAlpha\nhttps://e.org/a/\tonly two\n"
    report = SkipReport()
    posts = list(parse_csv(text, "t.tsv", report))
    assert [(p.url, p.title, p.text) for p in posts] == [("https://e.org/a/", "A", "Alpha")]
    assert [str(s) for s in report.skips] == ["t.tsv:3: malformed row: 2 fields, header has 3"]


def test_parse_csv_header_without_url_raises():
    with pytest.raises(InputError, match=r"^t\.csv:1: no url column"):
        list(parse_csv("text,title\nHello,Hi\n", "t.csv"))


# --------------------------------------------------------------------------- Parquet


def _write_parquet(path: Path, rows: list[dict]) -> str:
    pq.write_table(pa.Table.from_pylist(rows), path)
    return str(path)


def test_read_parquet_rows(tmp_path):
    rows = [
        {
            "source": "https://e.org/p/",
            "text": "First",
            "title": "P",
            "date": "2024-01-30",
            "author": "Ann",
        },
        {"source": "https://e.org/q/", "text": None, "title": None, "date": None, "author": None},
        {
            "source": "https://e.org/p/",
            "text": "Second\nthird",
            "title": None,
            "date": None,
            "author": None,
        },
    ]
    path = _write_parquet(tmp_path / "posts.bin", rows)
    report = SkipReport()
    (post,) = read_posts([path], report)
    assert (post.url, post.text, post.title, post.date, post.author) == (
        "https://e.org/p/",
        "First\nSecond\nthird",
        "P",
        "2024-01-30",
        "Ann",
    )
    assert post.origin(post.text.index("third")) == (path, 3)
    assert [str(s) for s in report.skips] == [
        f"{path}:2: no text (expected a field text or content or body)"
    ]


def test_read_parquet_timestamp_dates(tmp_path):
    import datetime as dt

    table = pa.table(
        {
            "url": ["https://e.org/t/"],
            "content": ["Text"],
            "date": pa.array([dt.datetime(2022, 5, 18, 10, 30)], pa.timestamp("s")),
        }
    )
    pq.write_table(table, tmp_path / "t.parquet")
    (post,) = read_parquet(tmp_path / "t.parquet")
    assert post.date == "2022-05-18"


def test_read_parquet_corrupt_raises(tmp_path):
    path = tmp_path / "bad.parquet"
    path.write_bytes(b"PAR1 this is not really parquet")
    with pytest.raises(InputError, match="not a readable Parquet file"):
        list(read_posts([path]))


# --------------------------------------------------------------------------- Jekyll


@pytest.mark.parametrize(
    "name", ["2021-03-04-pytorch-1.8-released.md", "2021-3-4-pytorch-1.8-released.markdown"]
)
def test_read_posts_jekyll_dir(tmp_path, name):
    posts_dir = tmp_path / "_posts"
    posts_dir.mkdir()
    shutil.copy(JEKYLL_18, posts_dir / name)
    (post,) = read_posts([str(tmp_path)])
    file = os.path.join(str(tmp_path), "_posts", name)
    assert (post.url, post.date, post.title, post.author) == (
        BLOG + "pytorch-1.8-released/",
        "2021-03-04",
        TITLE_18,
        "Team PyTorch",
    )
    assert post.text == JEKYLL_18.read_text(encoding="utf-8").split("---\n", 2)[2]
    assert post.spans[0].line == 6
    sentence = "As part of PyTorch’s goal to support scientific computing"
    assert post.origin(post.text.index(sentence)) == (file, _line_of(JEKYLL_18, sentence))


@pytest.mark.parametrize(
    ("name", "front", "url", "date"),
    [
        (
            "2020-07-28-hello.md",
            "permalink: /news/:year/:title.html",
            "https://pytorch.org/news/2020/hello.html",
            "2020-07-28",
        ),
        (
            "hello.md",
            "permalink: blog/:title/\ndate: 2019-05-01 09:00:00",
            "https://pytorch.org/blog/hello/",
            "2019-05-01",
        ),
        ("2020-07-28-hello.md", "slug: other\ndate: 2019-05-01", BLOG + "other/", "2020-07-28"),
        ("2020-07-28-hello.md", "date: not a date", BLOG + "hello/", "2020-07-28"),
        ("hello.md", "date: sometime", BLOG + "hello/", None),
    ],
)
def test_parse_jekyll_url_and_date(name, front, url, date):
    post = parse_jekyll(f"---\ntitle: Hello\n{front}\n---\nBody\n", f"_posts/{name}")
    assert (post.url, post.date, post.title) == (url, date, "Hello")


@pytest.mark.parametrize(
    ("text", "skip"),
    [
        ("---\ntitle: [unclosed\n---\nBody\n", "p.md:2: front matter is not valid YAML"),
        ("---\ntitle: Hi\nauthor: a: b\n---\nBody\n", "p.md:3: front matter is not valid YAML"),
        ("---\n- a\n- b\n---\nBody\n", "p.md:2: front matter is not a mapping"),
        ("---\ntitle: Hi\nBody\n", "p.md:1: front matter is not closed"),
        ("---\ntitle: Hi\n---\n\n  \n", "p.md:4: empty post https://pytorch.org/blog/p/"),
    ],
)
def test_parse_jekyll_bad_posts_skipped(text, skip):
    report = SkipReport()
    assert parse_jekyll(text, "p.md", report=report) is None
    assert str(report.skips[0]).startswith(skip)
    with pytest.raises(InputError, match=f"^{skip[:8]}"):
        parse_jekyll(text, "p.md", report=SkipReport(strict=True))


def test_read_jekyll_crlf(tmp_path):
    path = tmp_path / "2021-01-02-crlf.md"
    path.write_bytes(b"---\r\ntitle: 'CR LF'\r\n---\r\nLine one\r\nLine two\r\n")
    (post,) = read_jekyll(path)
    assert (post.title, post.date) == ("CR LF", "2021-01-02")
    assert post.origin(post.text.index("Line two")) == (str(path), 5)


# --------------------------------------------------------------------------- detection


def _parquet_bytes(tmp_path: Path) -> bytes:
    path = _write_parquet(tmp_path / "x.parquet", [{"url": "https://e.org/", "text": "T"}])
    return Path(path).read_bytes()


@pytest.mark.parametrize(
    ("name", "source", "fmt"),
    [
        ("posts.txt", FIXTURES / "posts.jsonl", "jsonl"),
        ("dump.csv", SEED, "table"),
        ("posts.md", FIXTURES / "posts.csv", "csv"),
        ("post.txt", JEKYLL_18, "jekyll"),
        ("rows.jsonl", None, "table"),
    ],
)
def test_detect_format_by_content(tmp_path, name, source, fmt):
    text = source.read_text(encoding="utf-8") if source else "A | https://e.org/ | blogs |\n"
    path = _write(tmp_path / name, text)
    assert detect_format(path) == fmt
    assert next(iter(read_posts([path]))).url.startswith("http")


def test_detect_format_parquet_by_magic(tmp_path):
    path = tmp_path / "data.json"
    path.write_bytes(_parquet_bytes(tmp_path))
    assert detect_format(path) == "parquet"


@pytest.mark.parametrize(
    "head",
    [b"", b"\n\n", b"Just some prose.\n", b"[1, 2]\n", b"\x89PNG\r\n\x1a\n\x00\x00", b"---\nx\n"],
)
def test_guess_format_unknown(head):
    assert guess_format(head) is None


def test_guess_format_long_first_jsonl_line():
    line = json.dumps({"url": "https://e.org/", "text": "x" * 200_000}).encode()
    assert guess_format(line + b"\n") == "jsonl"


# --------------------------------------------------------------------------- bad input


def test_read_posts_missing_file(tmp_path):
    missing = str(tmp_path / "nope.jsonl")
    with pytest.raises(InputError) as caught:
        list(read_posts([missing]))
    assert str(caught.value) == f"{missing}: no such file or directory"


@pytest.mark.parametrize("reader", [read_jsonl, read_table_dump, read_csv, read_parquet])
def test_readers_missing_file(tmp_path, reader):
    with pytest.raises(InputError, match="no such file or directory"):
        list(reader(tmp_path / "nope"))


def test_reader_given_a_directory(tmp_path):
    with pytest.raises(InputError, match="not a regular file"):
        list(read_jsonl(tmp_path))


def _read_as_nobody(path: Path) -> str:
    """What ``read_posts`` says of ``path`` to an unprivileged user: a forked child drops
    root's rights (it cannot start this interpreter, which lives under root's home)."""
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # the child: read without root's rights, say what read_posts said
        os.close(read_end)
        os.setgid(65534)
        os.setuid(65534)
        try:
            list(read_posts([path]))
            said = "read"
        except InputError as error:
            said = str(error)
        os.write(write_end, said.encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as said:
        message = said.read()
    os.waitpid(child, 0)
    return message


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_read_posts_unreadable_file(tmp_path):
    """A file its reader may not read is one line naming it; root reads any file, so as root
    an unprivileged user (nobody) reads it, from a folder it may enter."""
    folder = Path(tempfile.mkdtemp())  # tmp_path's parents are private to their owner
    try:
        folder.chmod(0o755)
        path = Path(_write(folder / "p.jsonl", '{"url": "https://e.org/", "text": "T"}\n'))
        path.chmod(0)
        if os.geteuid() != 0:
            with pytest.raises(InputError, match="permission denied"):
                list(read_posts([path]))
        else:
            assert _read_as_nobody(path) == f"{path}: permission denied"
    finally:
        shutil.rmtree(folder)


def test_read_posts_unreadable_file_message(tmp_path, monkeypatch):
    path = _write(tmp_path / "p.jsonl", '{"url": "https://e.org/", "text": "T"}\n')

    def refuse(file, mode="r", *args, **kwargs):
        raise PermissionError(13, "Permission denied", file)

    monkeypatch.setattr(readers.source, "open", refuse, raising=False)
    with pytest.raises(InputError) as caught:
        list(read_posts([path]))
    assert str(caught.value) == f"{path}: permission denied"


@pytest.mark.parametrize(
    ("content", "line", "byte"),
    [
        (
            b'{"url": "https://e.org/", "text": "ok"}\n{"url": "https://e.org/", "text": "\xe9"}',
            2,
            0xE9,
        ),
        (b"text\n|---|---|---|\nA | https://e.org/ | blogs |\nB\xff\n", 4, 0xFF),
        (b"Plain prose in Latin-1: \xe9t\xe9\n", 1, 0xE9),
    ],
)
def test_read_posts_not_utf8(tmp_path, content, line, byte):
    path = tmp_path / "latin1.txt"
    path.write_bytes(content)
    with pytest.raises(InputError) as caught:
        list(read_posts([path]))
    assert caught.value.line == line
    assert str(caught.value) == (
        f"{path}:{line}: not UTF-8 (byte 0x{byte:02x} at line {line}); re-encode it as UTF-8"
    )


def test_read_posts_unknown_format_named_directly(tmp_path):
    path = _write(tmp_path / "notes.md", "Just some notes, no front matter.\n")
    with pytest.raises(InputError, match="unknown format") as caught:
        list(read_posts([path]))
    assert caught.value.file == path


def test_read_posts_directory_skips_unknown_and_hidden(tmp_path):
    _write(tmp_path / "b" / "notes.md", "Just notes.\n")
    _write(tmp_path / "a.jsonl", '{"url": "https://e.org/a/", "text": "A"}\n')
    _write(tmp_path / "b" / "c.jsonl", '{"url": "https://e.org/c/", "text": "C"}\n')
    _write(tmp_path / ".hidden.jsonl", '{"url": "https://e.org/h/", "text": "H"}\n')
    _write(tmp_path / ".git" / "x.jsonl", '{"url": "https://e.org/g/", "text": "G"}\n')
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    report = SkipReport()
    posts = list(read_posts([str(tmp_path)], report))
    assert [p.url for p in posts] == ["https://e.org/a/", "https://e.org/c/"]
    assert [(s.file, s.line) for s in report.skips] == [
        (os.path.join(str(tmp_path), "image.png"), None),
        (os.path.join(str(tmp_path), "b", "notes.md"), None),
    ]
    assert all(s.reason.startswith("unknown format") for s in report.skips)


def test_read_posts_directory_strict_unknown_raises(tmp_path):
    _write(tmp_path / "notes.md", "Just notes.\n")
    with pytest.raises(InputError, match="unknown format"):
        list(read_posts([tmp_path], SkipReport(strict=True)))


# --------------------------------------------------------------------------- values


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2021-03-04", "2021-03-04"),
        ("2021-3-4", "2021-03-04"),
        ("2018-01-19 12:00:00 -0500", "2018-01-19"),
        ("2022-05-18T10:30:00Z", "2022-05-18"),
        ("March 4, 2021", "2021-03-04"),
        ("4 Mar 2021", "2021-03-04"),
        ("2021/03/04", "2021-03-04"),
        ("2021-02-30", None),
        ("soon", None),
        ("", None),
        (None, None),
        (20210304, None),
    ],
)
def test_normalize_date(value, expected):
    assert normalize_date(value) == expected
