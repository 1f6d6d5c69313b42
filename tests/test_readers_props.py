"""Property tests of ptkg.readers: damaged real input only ever raises InputError.

Real input files are cut at a random byte and get random junk lines; every reader, and
``read_posts`` with format detection, must either yield well-formed posts or raise InputError.

Issue 10: real corpus posts beside generated bad rows (lone surrogates, NUL bytes, nesting
200,000 deep, alias-heavy YAML front matter): nothing but InputError escapes, the good
posts are read whole, and every skip names its file and line.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ptkg import readers
from ptkg.cache import post_key
from ptkg.errors import InputError
from ptkg.records import Post, SkipReport

REPO = Path(__file__).parents[1]
FIXTURES = Path(__file__).parent / "data" / "readers"
CORPUS_JSONL = REPO / "tests" / "data" / "corpus" / "pytorch_blog.jsonl"
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
SURROGATES = st.integers(0xD800, 0xDFFF).map(chr)
# Text as a str may hold what no UTF-8 file can: lone surrogates; and NUL bytes.
ODD_TEXT = st.text(alphabet=st.one_of(st.characters(), SURROGATES, st.just("\x00")), max_size=30)
_SURROGATE = re.compile("[\ud800-\udfff]")
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
_names = itertools.count()


def check_post(post: Post) -> None:
    """Assert what every reader promises about a post."""
    assert post.text.strip()
    for value in (post.url, post.text, post.title, post.author):
        assert value is None or not _SURROGATE.search(value)
    assert post_key(post)
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
    text=st.lists(st.one_of(JUNK_LINES, st.text(max_size=30), ODD_TEXT), max_size=12).map(
        "\n".join
    ),
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


# --------------------------------------------------------------------------- issue 10

with open(CORPUS_JSONL, encoding="utf-8") as _file:
    GOOD_ROWS = [json.loads(line) for line in itertools.islice(_file, 4)]
BAD_URL = "https://pytorch.org/blog/bad-{}/"


@st.composite
def alias_yaml(draw: st.DrawFn) -> str:
    """YAML front matter full of anchors and aliases: sequences and mappings of earlier
    anchors (a "billion laughs" when wide and deep enough), maybe an alias inside itself."""
    lines = ["title: Anchored"]
    levels = draw(st.integers(1, 10))
    inside_itself = draw(st.integers(0, 4 * levels))  # a level whose node holds its own alias
    for i in range(levels):
        previous = st.just(f"*a{i - 1}" if i else "lol")  # chains of them multiply
        others = st.sampled_from([*(f"*a{j}" for j in range(i)), "lol", "'x'"])
        items = draw(st.lists(st.one_of(previous, others), min_size=1, max_size=12))
        if draw(st.booleans()):
            value = "[" + ", ".join(items) + "]"
        else:
            value = "{" + ", ".join(f"k{n}: {item}" for n, item in enumerate(items)) + "}"
        if i == inside_itself:
            value = f"[*a{i}, {value}]"
        lines.append(f"v{i}: &a{i} {value}")
    last = len(lines) - 2
    lines.append(draw(st.sampled_from([f"author: *a{last}", f"tags: [*a{last}, *a0]", ""])))
    return "\n".join(lines) + "\n"


def _row(link: str, **fields: object) -> dict:
    return {"url": link, "title": "A bad row", "text": "Text of a bad row.", **fields}


@st.composite
def bad_jsonl_line(draw: st.DrawFn, number: int) -> bytes:
    """One bad JSON Lines line: surrogates, a NUL byte, deep nesting or an alias bomb."""
    url = BAD_URL.format(number)
    kind = draw(st.sampled_from(["surrogate", "nul", "nested", "yaml", "yaml-in-text"]))
    if kind == "surrogate":
        field = draw(st.sampled_from(["text", "title", "author", "url"]))
        value = draw(st.text(max_size=10)) + draw(SURROGATES) + draw(st.text(max_size=10))
        row = _row(url, **{field: url + value if field == "url" else value})
        return json.dumps(row).encode()  # \ud800 as a JSON escape
    if kind == "nul":
        line = json.dumps(_row(url)).encode()
        at = draw(st.integers(0, len(line)))
        return line[:at] + b"\x00" + line[at:]
    if kind == "nested":
        depth = draw(st.integers(1000, 200_000))
        opener = draw(st.sampled_from(["[", '{"a":']))
        closer = "]" if opener == "[" else "}"
        return (opener * depth + "1" + closer * depth).encode()
    front = "---\n" + draw(alias_yaml()) + "---\n"
    if kind == "yaml":
        return json.dumps(_row(url, title=None, front_matter=front)).encode()
    return json.dumps(_row(url, text=front + "The body.")).encode()


@SETTINGS
@given(data=st.data(), strict=st.booleans())
def test_issue10_jsonl_good_rows_survive_bad_ones(workdir, data, strict):
    """Bad JSON Lines rows anywhere, even first: the real rows beside them are read whole."""
    count = data.draw(st.integers(1, 6))
    lines = [json.dumps(row).encode() for row in GOOD_ROWS]
    for number in range(count):
        at = data.draw(st.integers(0, len(lines)))
        lines.insert(at, data.draw(bad_jsonl_line(number)))
    path = workdir / f"{next(_names)}.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    report = SkipReport(strict=strict)
    try:
        posts = list(readers.read_posts([path], report))
    except InputError as error:
        assert strict and error.file == str(path) and error.line is not None
        assert "\n" not in str(error)
        return
    for post in posts:
        check_post(post)
    read = {post.url: post for post in posts}
    for row in GOOD_ROWS:
        assert (read[row["url"]].title, read[row["url"]].text) == (row["title"], row["text"])
    for skip in report.skips:
        assert skip.file == str(path) and skip.line is not None
        assert 1 <= skip.line <= len(lines)


@st.composite
def bad_jekyll_post(draw: st.DrawFn) -> bytes:
    """A ``_posts`` file with alias-heavy, deeply nested or NUL-holding front matter, or a
    NUL byte in its body (the first line stays ``---``: a file in no format has no line)."""
    kind = draw(st.sampled_from(["yaml", "nested", "nul-front", "nul-body"]))
    front = "title: A bad post\n"
    if kind == "yaml":
        front = draw(alias_yaml())
    elif kind == "nested":
        depth = draw(st.integers(50, 200_000))
        front += "tags: " + "[" * depth + "]" * depth + "\n"
    elif kind == "nul-front":
        front += "author: A\x00B\n"
    body = "The body of a bad post.\n"
    if kind == "nul-body":
        body = "The body \x00 of a bad post.\n"
    return f"---\n{front}---\n{body}".encode()


@SETTINGS
@given(bad=st.lists(bad_jekyll_post(), min_size=1, max_size=4), strict=st.booleans())
def test_issue10_jekyll_good_posts_survive_bad_ones(workdir, bad, strict):
    """A ``_posts`` folder of real posts and bad ones: the real ones are read whole."""
    folder = workdir / f"{next(_names)}-posts"
    folder.mkdir()
    for row in GOOD_ROWS:
        (folder / Path(row["source_path"]).name).write_text(
            row["front_matter"] + row["text"], encoding="utf-8"
        )
    for number, content in enumerate(bad):
        (folder / f"2021-01-0{number + 1}-bad-{number}.md").write_bytes(content)
    report = SkipReport(strict=strict)
    try:
        posts = list(readers.read_posts([folder], report))
    except InputError as error:
        assert strict and error.line is not None and "bad-" in str(error.file)
        assert "\n" not in str(error)
        return
    for post in posts:
        check_post(post)
    read = {post.url: post for post in posts}
    for row in GOOD_ROWS:
        assert (read[row["url"]].title, read[row["url"]].text) == (row["title"], row["text"])
    for skip in report.skips:
        assert "bad-" in skip.file and skip.line is not None


@SETTINGS
@given(text=alias_yaml())
def test_issue10_load_yaml_bounded(text):
    """Alias-heavy YAML is refused, or loads to data that stays small when expanded."""
    try:
        data = readers.load_yaml(text)
    except readers.RefusedYaml as error:
        assert error.reason and error.line >= 0
        return
    size = len(json.dumps(data))
    assert size < 3 * (len(text) + readers.MAX_ALIAS_EXPANSION)
