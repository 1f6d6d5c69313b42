"""Property tests of ptkg.readers: damaged real input only ever raises InputError.

Real input files are cut at a random byte and get random junk lines; every reader, and
``read_posts`` with format detection, must either yield well-formed posts or raise InputError.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ptkg import readers
from ptkg.errors import InputError
from ptkg.records import Post, SkipReport

REPO = Path(__file__).parents[1]
FIXTURES = Path(__file__).parent / "data" / "readers"
SOURCES = {
    "table": REPO / "data" / "seed_sample.txt",
    "jsonl": FIXTURES / "posts.jsonl",
    "csv": FIXTURES / "posts.csv",
    "jekyll": FIXTURES / "2021-03-04-pytorch-1.8-released.md",
}
READERS = [
    readers.read_table_dump,
    readers.read_jsonl,
    readers.read_csv,
    readers.read_parquet,
    readers.read_jekyll,
]
JUNK_LINES = st.one_of(
    st.text(max_size=80),
    st.sampled_from([
        "|", "| https://pytorch.org/blog/x/ | pytorch blogs |", "https://e.org/ | pytorch blogs |",
        "x | ftp://e.org/ | pytorch blogs |", "---", "...", "title: 'T'", "layout: blog_detail",
        '{"url": "https://e.org/j/", "text": "J"}', '{"url": 1}', "[]", '"', "text,url",
        "|---|---|---|", "text", "date: 2021-02-30", "\ufeff", "\r",
    ]),
)  # fmt: skip
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
_names = itertools.count()


def check_post(post: Post) -> None:
    """Assert what every reader promises about a post."""
    assert post.text.strip()
    assert post.url.startswith(("http://", "https://"))
    assert post.spans
    starts = [span.start for span in post.spans]
    assert starts == sorted(starts)
    for span in post.spans:
        assert 0 <= span.start <= span.end <= len(post.text)
        assert span.line >= 1
    assert post.date is None or len(post.date) == 10
    for offset in (0, len(post.text) // 2, len(post.text) - 1):
        assert post.origin(offset) is not None


def read_all(path: Path, strict: bool) -> None:
    """Run every reader and ``read_posts`` on ``path``; only InputError may escape."""
    for read in [*READERS, lambda p, r: readers.read_posts([p], r)]:
        try:
            for post in read(str(path), SkipReport(strict=strict)):
                check_post(post)
        except InputError as error:
            assert str(error).strip() and "\n" not in str(error)


@st.composite
def damaged(draw: st.DrawFn, source: Path) -> bytes:
    """The bytes of ``source`` cut at a random offset, with random junk lines inserted."""
    data = source.read_bytes()
    data = data[: draw(st.integers(0, len(data)))]
    lines = data.split(b"\n")
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(lines)))
        lines.insert(at, draw(JUNK_LINES).encode("utf-8", errors="surrogatepass"))
    return b"\n".join(lines)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("props")


@pytest.mark.parametrize("kind", sorted(SOURCES))
@SETTINGS
@given(data=st.data(), strict=st.booleans())
def test_damaged_real_files_raise_only_input_error(workdir, kind, data, strict):
    content = data.draw(damaged(SOURCES[kind]))
    path = workdir / f"{next(_names)}-2021-03-04-post.{kind}"
    path.write_bytes(content)
    read_all(path, strict)


@SETTINGS
@given(cut=st.integers(0, 4000), junk=st.binary(max_size=40), strict=st.booleans())
def test_damaged_parquet_raises_only_input_error(workdir, cut, junk, strict):
    rows = [
        {"url": "https://pytorch.org/blog/a/", "text": "A\nB", "date": "2021-03-04"},
        {"url": None, "text": "no url", "date": None},
        {"url": "https://pytorch.org/blog/a/", "text": "C", "date": "soon"},
    ]
    path = workdir / f"{next(_names)}.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    data = path.read_bytes()
    path.write_bytes(data[:cut] + junk if cut < len(data) else data)
    read_all(path, strict)


PARSERS = [
    lambda text, report: readers.parse_table_dump(text, "t.txt", report),
    lambda text, report: readers.parse_jsonl(text, "t.jsonl", report),
    lambda text, report: readers.parse_csv(text, "t.csv", report),
    lambda text, report: [p for p in [readers.parse_jekyll(text, "t.md", None, report)] if p],
]


@SETTINGS
@given(
    text=st.lists(st.one_of(JUNK_LINES, st.text(max_size=30)), max_size=12).map("\n".join),
    strict=st.booleans(),
)
def test_parsers_on_random_text_raise_only_input_error(text, strict):
    for parse in PARSERS:
        try:
            for post in parse(text, SkipReport(strict=strict)):
                check_post(post)
        except InputError:
            pass


@SETTINGS
@given(head=st.binary(max_size=200))
def test_guess_format_on_random_bytes(head):
    assert readers.guess_format(head) in (None, *readers.FORMATS)
