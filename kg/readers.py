"""Read PyTorch blog posts, in whatever form they come, as :class:`~ptkg.records.Post` records.

One function per input format; :func:`read_posts` walks paths and picks the reader by looking
at each file's *content* (:func:`detect_format`), never at its name only.

Formats
-------
``table``
    The Hugging Face dataset-viewer table dump (``data/seed_sample.txt``): header lines
    ``text``, ``stringlengths``, ..., ``|---|---|---|``, then rows
    ``<text> | <source url> | <category> |`` whose text runs over several lines and may itself
    contain ``|``. A line that is only ``| <url> | <category> |`` ends a row whose text ended
    with a line break (or, right after another row, a row with empty text); a line
    ``<url> | <category> |`` followed by a line ``|`` is a row whose text is empty (in the seed,
    chunks that held nothing but formula images). Rows are chunks; chunks with the same url
    are one post. Jekyll front matter rendered into the first chunk of a post (``layout: ...``,
    ``title: '...'``, ``author: ...``) gives title, author and date and is removed from the text.
``jsonl``, ``csv``, ``parquet``
    A dataset export: a text column (``text``, ``content`` or ``body``) and a url column
    (``url``, ``source`` or ``link``), with ``title``, ``date`` and ``author`` when present.
    Rows with the same url are chunks of one post. A JSONL ``front_matter`` field (raw
    ``---`` block) fills a missing title, author or date.
``jekyll``
    A ``_posts`` file: YAML front matter between ``---`` lines, then the markdown body, kept
    as is. The date comes from the file name ``YYYY-MM-DD-slug.md``, else from the front
    matter ``date``; the url is ``https://pytorch.org/blog/<slug>/`` unless the front matter
    has a ``permalink``.

Origins: every :class:`~ptkg.records.Span` gives the file (the path as given) and the 1-based
line where its stretch of text starts, so ``post.origin(offset)`` names the input line of any
character. In JSONL and Parquet a record is one line (row), so those chunks get one span per
text line, all pointing at the record.

Bad input: a file is read as UTF-8 (UTF-16 and UTF-32 are named as such, and refused); a
row that cannot be used is skipped into the :class:`~ptkg.records.SkipReport` with its
``file:line``, and the rows beside it are read:

- the format is told by the majority of the first lines, so a bad first line (a NUL byte, an
  array, a record nested 200,000 deep, a record longer than the sniffer's window) costs only
  that line (lines that cannot tell are read past for up to :data:`MAX_HEAD_BYTES`);
- a lone surrogate (``"\\ud800"`` in JSON) in text, title or author is replaced by U+FFFD
  and reported, the row kept;
- YAML front matter is loaded with :class:`BoundedSafeLoader` (:func:`load_yaml`): plain data
  only, at most :data:`MAX_FRONT_MATTER_CHARS` characters, nested at most
  :data:`MAX_YAML_DEPTH` deep, aliases adding at most :data:`MAX_ALIAS_EXPANSION` values and
  characters (a "billion laughs" document is refused in a millisecond); a Jekyll post with
  such front matter is skipped, a JSONL ``front_matter`` field ignored, front matter at the
  start of a row's text kept as text, each reported;
- a CSV cut inside a quoted field loses its last row, reported;
- :func:`read_posts` reads each url once across files: a later post with the same text is
  dropped and counted, one with a different text is skipped naming the first.

Not supported: compressed files, JSON arrays (``.json``), CSV without a header row, Jekyll
``_config.yml`` permalink defaults (a post without ``permalink`` gets ``/blog/<slug>/``),
Liquid tags and includes (left in the text), YAML anchors that expand front matter by more
than :data:`MAX_ALIAS_EXPANSION` values and characters.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import hashlib
import io
import itertools
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO, Protocol
from urllib.parse import urlsplit

import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from .errors import InputError
from .records import Post, SkipReport, Span

FORMATS = ("table", "jsonl", "csv", "parquet", "jekyll")
SITE = "https://pytorch.org"

TEXT_FIELDS = ("text", "content", "body")
URL_FIELDS = ("url", "source", "link")
TITLE_FIELDS = ("title",)
DATE_FIELDS = ("date",)
AUTHOR_FIELDS = ("author", "authors")
FRONT_MATTER_FIELD = "front_matter"

# Jekyll front-matter keys recognised when rendered as plain text lines at the start of a post;
# a block counts only if it has one of the anchor keys.
# fmt: off
FRONT_MATTER_KEYS = frozenset({
    "layout", "title", "author", "authors", "date", "featured-img", "image", "redirect_from",
    "category", "categories", "tags", "permalink", "slug", "excerpt", "description", "hidden",
    "published", "discourse", "canonical_url",
})
# fmt: on
FRONT_MATTER_ANCHORS = frozenset({"layout", "title"})
FENCES = ("---", "...")
MAX_FENCED_LINES = 200

TABLE_HEADER_FIRST = "text"
TABLE_RULE = "|---|---|---|"
TABLE_HEADER_LINES = 20
CSV_DELIMITERS = (",", "\t", ";")
CSV_FIELD_LIMIT = 2**31 - 1
DATE_FORMATS = ("%Y/%m/%d", "%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y")

HEAD_BYTES = 1 << 17  # holds any front matter of MAX_FRONT_MATTER_CHARS, in any UTF-8
MAX_HEAD_BYTES = 1 << 24
SNIFF_LINES = 50
PARQUET_MAGIC = b"PAR1"
PARQUET_BATCH = 1024
# fmt: off
BYTE_ORDER_MARKS = (
    (codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"),
)
# fmt: on

# YAML front matter is loaded safely (no Python tags) and within bounds: at most this many
# characters (the corpus has at most 388; PyYAML reads 16 KiB in 0.1-0.2 s), nested at most
# this deep, and aliases may add at most this much: a character of a scalar or a value
# counts 1 (a "billion laughs" document of a few hundred bytes expands to 10**9 values).
MAX_FRONT_MATTER_CHARS = 1 << 14
MAX_YAML_DEPTH = 100
MAX_ALIAS_EXPANSION = 1 << 14

UNKNOWN_FORMAT = "unknown format (not a table dump, JSON Lines, CSV, Parquet or Jekyll post)"
UNCLOSED_FRONT_MATTER = "front matter is not closed (no second '---' line)"
FIX_UTF8 = "re-encode it as UTF-8"

_CELL = r"[^|\s](?:[^|]*[^|\s])?"  # a cell: no pipes, no blanks at either end
# The end of a table row: `<text> | <url> | <category> |`, `| <url> | <category> |` or
# `<url> | <category> |`. Group `sep` tells the three apart; the text is what precedes it.
_ROW_END_HTTP = re.compile(
    rf"(?P<sep>^\| |^| \| )(?P<url>https?://[^\s|]+) \| (?P<cat>{_CELL}) \|$"
)
_FRONT_MATTER_LINE = re.compile(r"(?P<key>[A-Za-z][\w-]*):(?:[ \t]+(?P<value>.*))?")
_POST_NAME = re.compile(r"(?P<date>\d{4}-\d{1,2}-\d{1,2})-(?P<slug>.+)")
_FLOW_BRACKET = re.compile(r"[][{}]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_JSON_OBJECT_START = re.compile(r'\{\s*(?:"|\}|$)')
_ISO_DATE = re.compile(r"(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?:[T\s]|$)")


@dataclass(frozen=True)
class Chunk:
    """One row of an input: a stretch of a post's text, before chunks are joined into posts.

    ``line`` is the 1-based line (or Parquet row) where the text starts. When
    ``lines_follow_file`` is true, line ``k`` of ``text`` is line ``line + k`` of the file;
    otherwise the whole text comes from the one record at ``line``.
    """

    url: str
    text: str
    file: str
    line: int
    title: str | None = None
    date: str | None = None
    author: str | None = None
    lines_follow_file: bool = True


# --------------------------------------------------------------------------- entry points


def read_posts(
    paths: Iterable[str | os.PathLike[str]],
    report: SkipReport | None = None,
) -> Iterator[Post]:
    """Read every post under ``paths``, choosing each file's reader by its content.

    Parameters
    ----------
    paths : iterable of str or Path
        Files and directories. Directories are walked recursively in sorted order, skipping
        hidden files and directories (names starting with ``.``).
    report : SkipReport, optional
        Collects skipped rows and files; a strict report raises on the first skip instead.

    Yields
    ------
    Post
        The posts of each file in input order, files in the order given (then sorted); each
        url once.

    Raises
    ------
    InputError
        A missing or unreadable path, a file that is not UTF-8, or a file named directly
        whose format cannot be detected (inside a directory such a file is only skipped).

    Notes
    -----
    Lazy: a file is opened, and its errors raised, when iteration reaches it. Chunks are
    grouped into posts within one file. A url already read from another file is not read
    again: with the same text the later post is dropped and counted in
    ``report.duplicates``; with a different text it is skipped, naming where the first was
    read (``same URL as <file>:<line> with different text; kept the first``).
    """
    report = _report(report)
    seen: dict[str, tuple[Span, bytes]] = {}
    for path in paths:
        file = os.fspath(path)
        if os.path.isdir(file):
            posts = _read_dir(file, report)
        else:
            posts = READERS[detect_format(file)](file, report)
        for post in posts:
            if _first_with_url(post, seen, report):
                yield post


def _first_with_url(post: Post, seen: dict[str, tuple[Span, bytes]], report: SkipReport) -> bool:
    """Tell whether ``post`` is the first with its url; report it when it is not.

    ``seen`` maps each url read so far to the first span of its post and a digest of its text.
    """
    digest = hashlib.blake2b(post.text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    span = post.spans[0] if post.spans else Span(0, 0, "<unknown>", 1)
    first = seen.get(post.url)
    if first is None:
        seen[post.url] = (span, digest)
        return True
    if first[1] == digest:
        report.duplicates += 1
    else:
        where = f"{first[0].file}:{first[0].line}"
        reason = f"same URL as {where} with different text; kept the first"
        report.skip(span.file, span.line, reason)
    return False


def detect_format(path: str | os.PathLike[str]) -> str:
    """Return the format of the file at ``path``, one of :data:`FORMATS`, from its content.

    Raises
    ------
    InputError
        The file is missing or unreadable, is text but not UTF-8 (UTF-16 is named as such),
        or has an unknown format; the message says what is missing when the file is almost
        a known format (a CSV header without a text column, unclosed front matter).
    """
    file = os.fspath(path)
    head = _read_head(file)
    fmt = guess_format(head)
    if fmt is None:
        if b"\x00" not in head and _bom_encoding(head) is None:
            _check_utf8(head, file, final=False)
        reason, line = _unknown_format(head)
        raise InputError(reason, file, line)
    return fmt


def guess_format(head: bytes) -> str | None:
    """Return the format of a file that starts with ``head``, or None if it is not known.

    ``head`` may end anywhere, even inside the first line. Lines holding a NUL byte are left
    out, and a JSON Lines file is told by the majority of its first :data:`SNIFF_LINES`
    lines, so that a bad first line (not an object, nested too deep, a NUL byte) does not
    hide the good ones; a last line cut by the end of ``head`` counts when it starts like a
    JSON object. Text with NUL bytes that is not UTF-8 is binary: None.

    Examples
    --------
    >>> guess_format(b'{"text": "Hi", "url": "https://pytorch.org/blog/x/"}\\n')
    'jsonl'
    >>> guess_format(b'[1, 2]\\n{"text": "Hi", "url": "https://pytorch.org/blog/x/"}\\n')
    'jsonl'
    >>> guess_format(b'{"text": "a record longer than the head, cut he')
    'jsonl'
    >>> guess_format(b"---\\ntitle: Hi\\n---\\nBody\\n")
    'jekyll'
    >>> guess_format(b"Hello\\n") is None
    True
    """
    if head.startswith(PARQUET_MAGIC):
        return "parquet"
    if _bom_encoding(head) is not None or (b"\x00" in head and not _is_utf8_start(head)):
        return None
    lines = _head_lines(head)
    text = "\n".join(lines)
    for fmt, test in _CONTENT_TESTS:
        if test(lines, text):
            return fmt
    return None


def _unknown_format(head: bytes) -> tuple[str, int | None]:
    """Return why a file that starts with ``head`` is in no known format, and the line.

    Says what is missing when the file is almost in a format.

    Examples
    --------
    >>> _unknown_format(b"url,title\\nhttps://pytorch.org/blog/a/,A\\n")[0]
    'CSV, but no text column in the header (expected one of text, content, body)'
    >>> _unknown_format(b"---\\ntitle: Hi\\nBody\\n")
    ("starts like a Jekyll post, but the front matter is not closed (no second '---' line)", 1)
    >>> _unknown_format("text".encode("utf-16"))
    ('UTF-16 text (it starts with a UTF-16 byte order mark): re-encode it as UTF-8', None)
    """
    encoding = _bom_encoding(head)
    if encoding is not None:
        return f"{encoding} text (it starts with a {encoding} byte order mark): {FIX_UTF8}", None
    lines = _head_lines(head)
    if lines[0].rstrip() == FENCES[0]:
        return f"starts like a Jekyll post, but the {UNCLOSED_FRONT_MATTER}", 1
    missing = _csv_missing_column("\n".join(lines))
    if missing is not None:
        return f"CSV, but {_no_column(missing)}", 1
    return UNKNOWN_FORMAT, None


# --------------------------------------------------------------------------- table dump


def read_table_dump(
    path: str | os.PathLike[str],
    report: SkipReport | None = None,
) -> Iterator[Post]:
    """Read the posts of a dataset-viewer table dump (see :func:`parse_table_rows`)."""
    file = os.fspath(path)
    yield from parse_table_dump(_read_text(file), file, report)


def parse_table_dump(
    lines: str | Iterable[str], file: str = "<table>", report: SkipReport | None = None
) -> Iterator[Post]:
    """Parse a table dump into posts: its rows grouped by url, front matter removed.

    Examples
    --------
    >>> dump = '''text
    ... |---|---|---|
    ... layout: blog_detail
    ... title: 'Hello'
    ... First line
    ... second | https://pytorch.org/blog/hello/ | pytorch blogs |'''
    >>> [(p.url, p.title, p.text, p.origin(0)) for p in parse_table_dump(dump, "dump.txt")]
    [('https://pytorch.org/blog/hello/', 'Hello', 'First line\\nsecond', ('dump.txt', 5))]
    """
    report = _report(report)
    return assemble_posts(parse_table_rows(lines, file, report), report)


def parse_table_rows(
    lines: str | Iterable[str], file: str = "<table>", report: SkipReport | None = None
) -> Iterator[Chunk]:
    """Parse the rows of a table dump, one :class:`Chunk` per row, in file order.

    A row ends at a line ending in ``| <url> | <category> |``; the categories are learned
    from the rows that have an http(s) url, so that rows with another url are still found
    (and skipped). Rows with an empty text are yielded with ``text == ""``.

    Parameters
    ----------
    lines : str or iterable of str
        The dump, or its lines (line ends are dropped).
    file : str
        The file name used in spans and skips.
    report : SkipReport, optional
        Receives rows without a usable url and text left without a url at the end.
    """
    report = _report(report)
    rows = _lines(lines)
    body = _table_body_start(rows)
    row_end = _row_end_pattern(rows[body:])
    pending: list[str] = []
    start = body + 1
    i = body
    while i < len(rows):
        match = row_end.search(rows[i]) if row_end else None
        if match is None:
            start = start if pending else i + 1
            pending.append(rows[i])
            i += 1
            continue
        head = rows[i][: match.start()]
        text = "\n".join([*pending, head] if head else pending)
        chunk = _table_chunk(match["url"], text, file, start if pending else i + 1, report)
        if chunk is not None:
            yield chunk
        pending = []
        empty_cell = match["sep"] == "" and i + 1 < len(rows) and rows[i + 1].strip() == "|"
        i += 2 if empty_cell else 1
    if "".join(pending).strip():
        report.skip(file, start, "row has no source column (is the file cut short?)")


def _table_body_start(lines: list[str]) -> int:
    """Return the index of the first row line: after the ``|---|---|---|`` header, else 0."""
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or lines[first].strip() != TABLE_HEADER_FIRST:
        return 0
    for i in range(first, min(len(lines), first + TABLE_HEADER_LINES)):
        if lines[i].strip() == TABLE_RULE:
            return i + 1
    return 0


def _row_end_pattern(lines: list[str]) -> re.Pattern[str] | None:
    """Build the row-end pattern for the categories seen on rows with an http(s) url."""
    categories = sorted({m["cat"] for line in lines if (m := _ROW_END_HTTP.search(line))})
    if not categories:
        return None
    names = "|".join(re.escape(c) for c in categories)
    return re.compile(rf"(?P<sep>^\| |^| \| )(?P<url>[^\s|]*) \| (?P<cat>{names}) \|$")


def _table_chunk(url: str, text: str, file: str, line: int, report: SkipReport) -> Chunk | None:
    """Return the chunk of one table row, or skip it when its url is not http(s)."""
    if not _is_http(url):
        reason = f"source is not an http(s) URL: {url!r}" if url else "row has no source URL"
        report.skip(file, line, reason)
        return None
    return Chunk(url=url, text=text, file=file, line=line)


# --------------------------------------------------------------------------- JSONL, CSV, Parquet


def read_jsonl(path: str | os.PathLike[str], report: SkipReport | None = None) -> Iterator[Post]:
    """Read the posts of a JSON Lines file (see :func:`parse_jsonl_rows`)."""
    file = os.fspath(path)
    yield from parse_jsonl(_read_text(file), file, report)


def parse_jsonl(
    lines: str | Iterable[str], file: str = "<jsonl>", report: SkipReport | None = None
) -> Iterator[Post]:
    """Parse JSON Lines into posts, rows with the same url joined in order.

    Examples
    --------
    >>> rows = ['{"url": "https://pytorch.org/blog/a/", "text": "One", "date": "2021-03-04"}',
    ...         'not json',
    ...         '{"url": "https://pytorch.org/blog/a/", "text": "Two"}']
    >>> report = SkipReport()
    >>> [(p.text, p.date, p.origin(4)) for p in parse_jsonl(rows, "a.jsonl", report)]
    [('One\\nTwo', '2021-03-04', ('a.jsonl', 3))]
    >>> [str(s) for s in report.skips]
    ['a.jsonl:2: not valid JSON (Expecting value)']
    """
    report = _report(report)
    return assemble_posts(parse_jsonl_rows(lines, file, report), report)


def parse_jsonl_rows(
    lines: str | Iterable[str], file: str = "<jsonl>", report: SkipReport | None = None
) -> Iterator[Chunk]:
    """Parse JSON Lines into chunks; a line that is not a usable JSON object is skipped."""
    report = _report(report)
    for number, line in enumerate(_lines(lines), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as error:
            report.skip(file, number, f"not valid JSON ({getattr(error, 'msg', 'too deep')})")
            continue
        if not isinstance(record, dict):
            report.skip(file, number, "not a JSON object")
            continue
        chunk = record_to_chunk(record, file, number, report)
        if chunk is not None:
            yield chunk


def read_csv(path: str | os.PathLike[str], report: SkipReport | None = None) -> Iterator[Post]:
    """Read the posts of a CSV (or TSV) file with a header row (see :func:`parse_csv_rows`)."""
    file = os.fspath(path)
    yield from parse_csv(_read_text(file), file, report)


def parse_csv(text: str, file: str = "<csv>", report: SkipReport | None = None) -> Iterator[Post]:
    """Parse CSV text into posts, rows with the same url joined in order."""
    report = _report(report)
    return assemble_posts(parse_csv_rows(text, file, report), report)


def parse_csv_rows(
    text: str,
    file: str = "<csv>",
    report: SkipReport | None = None,
) -> Iterator[Chunk]:
    """Parse CSV text into chunks; the line of a chunk is where its text field starts.

    The delimiter is the first of ``, \\t ;`` whose header has a text and a url column. A
    last row whose quoted field is not closed (a file cut short) is skipped: ``csv`` would
    read it to the end of the file without a word.

    Raises
    ------
    InputError
        The header has no text or no url column, or the CSV cannot be parsed.

    Examples
    --------
    >>> report = SkipReport()
    >>> text = 'url,text\\nhttps://e.org/a/,"Whole"\\nhttps://e.org/b/,"Cut sh'
    >>> [c.text for c in parse_csv_rows(text, "cut.csv", report)]
    ['Whole']
    >>> [str(s) for s in report.skips]
    ['cut.csv:3: row is cut short: a quoted field is not closed at the end of the file']
    """
    report = _report(report)
    csv.field_size_limit(CSV_FIELD_LIMIT)
    delimiter = _csv_delimiter(text) or ","
    buffer = io.StringIO(text, newline="")
    reader = csv.reader(buffer, delimiter=delimiter)
    try:
        yield from _csv_chunks(reader, file, report, _CsvEnd(buffer, text, delimiter))
    except csv.Error as error:
        raise InputError(f"malformed CSV ({error})", file, reader.line_num) from error


class _CsvReader(Protocol):
    """What ``csv.reader`` returns: rows, and the number of lines read so far."""

    line_num: int

    def __iter__(self) -> Iterator[list[str]]: ...

    def __next__(self) -> list[str]: ...


@dataclass
class _CsvEnd:
    """Tells whether the row ``csv.reader`` just read from ``buffer`` is the last and is cut."""

    buffer: io.StringIO
    text: str
    delimiter: str
    row_start: int = 0

    def mark(self) -> None:
        """Note where the next row starts."""
        self.row_start = self.buffer.tell()

    def cut(self) -> bool:
        """Tell whether the row read since :meth:`mark` ends the file inside a quoted field."""
        if self.buffer.tell() < len(self.text):
            return False
        return _ends_in_quoted_field(self.text, self.row_start, self.delimiter)


def _ends_in_quoted_field(text: str, start: int, delimiter: str) -> bool:
    """Tell whether the CSV ``text`` from ``start`` on ends inside a quoted field.

    Follows ``csv.reader`` (not strict, double quotes): a field that starts with a quote is
    quoted until a quote that is not doubled; a quote elsewhere is a plain character.
    """
    stop = re.compile(f"[{re.escape(delimiter)}\r\n]")
    at, field_start = start, True
    while at < len(text):
        if field_start and text[at] == '"':
            at += 1
            while (quote := text.find('"', at)) >= 0 and text.startswith('"', quote + 1):
                at = quote + 2
            if quote < 0:
                return True
            at, field_start = quote + 1, False
            continue
        end = stop.search(text, at)
        if end is None:
            return False
        at, field_start = end.end(), True
    return False


def _csv_chunks(
    reader: _CsvReader, file: str, report: SkipReport, csv_end: _CsvEnd
) -> Iterator[Chunk]:
    """Yield the chunks of the rows after the header of a ``csv.reader``."""
    header = [_field_key(name) for name in next(reader, [])]
    if not header:
        return
    text_at = _column(header, TEXT_FIELDS, file)
    _column(header, URL_FIELDS, file)
    end = reader.line_num
    while True:
        csv_end.mark()
        row = next(reader, None)
        if row is None:
            break
        start, end = end + 1, reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if csv_end.cut():
            reason = "row is cut short: a quoted field is not closed at the end of the file"
            report.skip(file, start, reason)
            break
        if len(row) != len(header):
            report.skip(file, start, f"malformed row: {len(row)} fields, header has {len(header)}")
            continue
        text_line = start + sum(cell.count("\n") for cell in row[:text_at])
        chunk = record_to_chunk(dict(zip(header, row, strict=True)), file, text_line, report)
        if chunk is not None:
            yield replace(chunk, lines_follow_file=True)


def _column(header: list[str], names: tuple[str, ...], file: str) -> int:
    """Return the index of the first header column among ``names`` or raise InputError."""
    for name in names:
        if name in header:
            return header.index(name)
    raise InputError(_no_column(names), file, 1)


def _no_column(names: tuple[str, ...]) -> str:
    """Say that a CSV header has none of the column ``names``."""
    return f"no {names[0]} column in the header (expected one of {', '.join(names)})"


def _csv_delimiter(text: str) -> str | None:
    """Return the first delimiter whose header row names a text and a url column."""
    for delimiter, keys in _csv_headers(text):
        if keys & set(TEXT_FIELDS) and keys & set(URL_FIELDS):
            return delimiter
    return None


def _csv_missing_column(text: str) -> tuple[str, ...] | None:
    """Return the column names a CSV header lacks when it has only a text or only a url column.

    None when no delimiter splits the first row into two or more columns with one of them.
    """
    for delimiter, keys in _csv_headers(text):
        if len(keys) < 2 or delimiter not in text.partition("\n")[0]:
            continue
        if keys & set(URL_FIELDS) and not keys & set(TEXT_FIELDS):
            return TEXT_FIELDS
        if keys & set(TEXT_FIELDS) and not keys & set(URL_FIELDS):
            return URL_FIELDS
    return None


def _csv_headers(text: str) -> Iterator[tuple[str, set[str]]]:
    """Yield each of :data:`CSV_DELIMITERS` with the column keys of the first row it splits."""
    for delimiter in CSV_DELIMITERS:
        try:
            header = next(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter), [])
        except csv.Error:
            continue
        yield delimiter, {_field_key(name) for name in header}


def read_parquet(
    path: str | os.PathLike[str],
    report: SkipReport | None = None,
) -> Iterator[Post]:
    """Read the posts of a Parquet file; the line of a chunk is its row number (1-based).

    Raises
    ------
    InputError
        The file is missing, unreadable or not a valid Parquet file.
    """
    file = os.fspath(path)
    report = _report(report)
    yield from assemble_posts(_parquet_chunks(file, report), report)


def _parquet_chunks(file: str, report: SkipReport) -> Iterator[Chunk]:
    """Yield one chunk per usable Parquet row."""
    with _open(file) as handle:
        try:
            rows = _parquet_rows(pq.ParquetFile(handle))
            for number, record in enumerate(rows, start=1):
                chunk = record_to_chunk(record, file, number, report)
                if chunk is not None:
                    yield chunk
        except (pa.ArrowException, OSError) as error:
            raise InputError(f"not a readable Parquet file ({_one_line(error)})", file) from error


def _parquet_rows(table: pq.ParquetFile) -> Iterator[dict[str, object]]:
    """Yield the rows of a Parquet file as dicts, a batch at a time."""
    for batch in table.iter_batches(batch_size=PARQUET_BATCH):
        yield from batch.to_pylist()


def record_to_chunk(
    record: Mapping[str, object], file: str, line: int, report: SkipReport
) -> Chunk | None:
    """Return the chunk of one dataset row, or skip the row (and return None).

    Field names are matched case-insensitively: text from :data:`TEXT_FIELDS`, url from
    :data:`URL_FIELDS`, then title, date (normalized, see :func:`normalize_date`) and author;
    a ``front_matter`` field fills those three when missing.
    """
    fields: dict[str, object] = {}
    for key, value in record.items():
        fields.setdefault(_field_key(key), value)
    text, url = _first(fields, TEXT_FIELDS), _first(fields, URL_FIELDS)
    problem = _row_problem(text, url)
    if problem:
        report.skip(file, line, problem)
        return None
    front = fields.get(FRONT_MATTER_FIELD)
    meta: dict[str, object] = {}
    if isinstance(front, str):
        meta, _, refused = _front_matter(front)
        if refused is not None:
            reason = f"{FRONT_MATTER_FIELD} field ignored ({refused.reason})"
            report.skip(file, line, reason)
    return Chunk(
        url=str(url).strip(),
        text=str(text),
        file=file,
        line=line,
        title=_as_text(_first(fields, TITLE_FIELDS)) or _as_text(meta.get("title")),
        date=normalize_date(_first(fields, DATE_FIELDS)) or normalize_date(meta.get("date")),
        author=_as_text(_first(fields, AUTHOR_FIELDS)) or _as_text(meta.get("author")),
        lines_follow_file=False,
    )


def _row_problem(text: object, url: object) -> str | None:
    """Return why a row with this text and url cannot be used, or None."""
    if text is None:
        return f"no text (expected a field {' or '.join(TEXT_FIELDS)})"
    if not isinstance(text, str):
        return f"text is not a string but {type(text).__name__}"
    if url is None or url == "":
        return f"no url (expected a field {' or '.join(URL_FIELDS)})"
    if not isinstance(url, str) or not _is_http(url.strip()):
        return f"url is not an http(s) URL: {url!r}"
    return None


def _first(fields: Mapping[str, object], names: tuple[str, ...]) -> object:
    """Return the value of the first of ``names`` present and not null, else None."""
    return next((fields[n] for n in names if fields.get(n) is not None), None)


def _field_key(name: object) -> str:
    """Return a column name as it is matched: stripped, lower case, BOM removed."""
    return str(name).removeprefix("\ufeff").strip().lower()


# --------------------------------------------------------------------------- Jekyll


def read_jekyll(path: str | os.PathLike[str], report: SkipReport | None = None) -> Iterator[Post]:
    """Read the post of one Jekyll ``_posts`` file (see :func:`parse_jekyll`)."""
    file = os.fspath(path)
    post = parse_jekyll(_read_text(file), file, os.path.basename(file), report)
    if post is not None:
        yield post


def parse_jekyll(
    text: str, file: str = "<jekyll>", name: str | None = None, report: SkipReport | None = None
) -> Post | None:
    """Parse a Jekyll post: YAML front matter between ``---`` lines, then the markdown body.

    Parameters
    ----------
    text : str
        The whole file.
    file : str
        The file name used in spans and skips.
    name : str, optional
        The post's file name, ``YYYY-MM-DD-slug.md``; defaults to the last part of ``file``.
    report : SkipReport, optional
        Receives a post whose front matter is missing or invalid, or whose body is empty.

    Returns
    -------
    Post or None
        None when the post was skipped.

    Notes
    -----
    The date is taken from the file name and, only when the name has none, from the front
    matter ``date`` (the file name is what the corpus and the site's urls use). The slug is
    the front matter ``slug``, else the file name without date and extension. The url is
    ``https://pytorch.org`` + ``permalink`` (``:title``/``:slug``, ``:year``, ``:month``,
    ``:day`` filled in) when the front matter has one, else ``https://pytorch.org/blog/<slug>/``.

    Examples
    --------
    >>> post = parse_jekyll("---\\ntitle: Hi\\n---\\nBody text\\n", "_posts/2021-03-04-hi.md")
    >>> post.url, post.date, post.title, post.text
    ('https://pytorch.org/blog/hi/', '2021-03-04', 'Hi', 'Body text\\n')
    >>> post.origin(0)
    ('_posts/2021-03-04-hi.md', 4)
    """
    report = _report(report)
    lines = text.removeprefix("\ufeff").split("\n")
    parsed = _jekyll_front_matter(lines, file, report)
    if parsed is None:
        return None
    meta, close = parsed
    file_date, file_slug = _split_post_name(name or os.path.basename(file))
    slug = _as_text(meta.get("slug")) or file_slug
    date = file_date or normalize_date(meta.get("date"))
    url = _jekyll_url(meta.get("permalink"), slug, date)
    body = "\n".join(lines[close + 1 :])
    if not body.strip():
        report.skip(file, close + 2, f"empty post {url}")
        return None
    title, author = _as_text(meta.get("title")), _as_text(_first(meta, AUTHOR_FIELDS))
    chunk = Chunk(url=url, text=body, file=file, line=close + 2, title=title, author=author)
    chunk = _without_surrogates(chunk, report)  # only from a str: a UTF-8 file has none
    if chunk is None:
        return None
    return Post(
        url=url,
        text=chunk.text,
        title=chunk.title,
        date=date,
        author=chunk.author,
        spans=(Span(0, len(chunk.text), file, close + 2),),
    )


def _jekyll_front_matter(
    lines: list[str],
    file: str,
    report: SkipReport,
) -> tuple[dict[str, object], int] | None:
    """Return the front matter of a post and the index of its closing line, or skip the post."""
    if lines[0].rstrip() != FENCES[0]:
        report.skip(file, 1, "no front matter (a Jekyll post starts with a '---' line)")
        return None
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip() in FENCES), None)
    if close is None:
        report.skip(file, 1, UNCLOSED_FRONT_MATTER)
        return None
    try:
        meta = load_yaml("\n".join(lines[1:close]))
    except RefusedYaml as error:
        report.skip(file, 2 + error.line, f"front matter refused: {error.reason}")
        return None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = 2 + mark.line if mark is not None else 2
        problem = getattr(error, "problem", None) or "does not parse"
        report.skip(file, line, f"front matter is not valid YAML ({problem})")
        return None
    except (ValueError, TypeError, RecursionError) as error:
        report.skip(file, 2, f"front matter is not valid YAML ({_one_line(error)})")
        return None
    if meta is not None and not isinstance(meta, dict):
        report.skip(file, 2, "front matter is not a mapping of keys to values")
        return None
    return meta or {}, close


def _split_post_name(name: str) -> tuple[str | None, str]:
    """Return the date and the slug of a ``_posts`` file name (date None when it has none)."""
    stem = Path(name).stem
    match = _POST_NAME.fullmatch(stem)
    if match is None:
        return None, stem
    return normalize_date(match["date"]), match["slug"]


def _jekyll_url(permalink: object, slug: str, date: str | None) -> str:
    """Return a post's url from its permalink pattern, else ``/blog/<slug>/``."""
    if not isinstance(permalink, str) or not permalink.strip():
        return f"{SITE}/blog/{slug}/"
    path = permalink.strip().replace(":title", slug).replace(":slug", slug)
    if date:
        year, month, day = date.split("-")
        path = path.replace(":year", year).replace(":month", month).replace(":day", day)
    return SITE + (path if path.startswith("/") else "/" + path)


# --------------------------------------------------------------------------- YAML


class RefusedYaml(Exception):
    """YAML that :func:`load_yaml` refuses to load, and the 0-based line of the text it names."""

    def __init__(self, reason: str, line: int = 0):
        super().__init__(reason)
        self.reason = reason
        self.line = line


class BoundedSafeLoader(yaml.SafeLoader):
    """A ``yaml.SafeLoader`` that refuses documents whose aliases multiply them.

    Before a document is constructed, its node graph is checked (:func:`_check_yaml_nodes`):
    an alias that refers to the node it is in, nesting deeper than :data:`MAX_YAML_DEPTH`,
    or aliases that add more than :data:`MAX_ALIAS_EXPANSION` (values and characters of
    scalars) raise :class:`RefusedYaml`.
    PyYAML shares the object of an anchor among its aliases, so loading a "billion laughs"
    document is fast; what blows up is whoever walks the result.
    """

    def construct_document(self, node: yaml.Node) -> object:
        _check_yaml_nodes(node)
        return super().construct_document(node)


def load_yaml(text: str) -> object:
    """Load one YAML document with :class:`BoundedSafeLoader`, if it is not too large.

    Raises
    ------
    RefusedYaml
        ``text`` is longer than :data:`MAX_FRONT_MATTER_CHARS`, or refused by the loader.
    yaml.YAMLError
        ``text`` is not valid YAML, or has tags that are not plain data (``!!python/...``).

    Examples
    --------
    >>> load_yaml("title: &t Hi\\nauthor: *t")
    {'title': 'Hi', 'author': 'Hi'}
    >>> lol = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\\n"
    >>> lol += "".join(f"{n}: &{n} [{', '.join(['*' + p] * 10)}]\\n" for p, n in zip("abc", "bcd"))
    >>> load_yaml(lol)
    Traceback (most recent call last):
    ...
    ptkg.readers.RefusedYaml: its aliases expand it by more than 16384 values and characters
    """
    if len(text) > MAX_FRONT_MATTER_CHARS:
        raise RefusedYaml(f"longer than {MAX_FRONT_MATTER_CHARS} characters")
    _check_flow_depth(text)
    return yaml.load(text, Loader=BoundedSafeLoader)  # a SafeLoader: plain data only


def _check_flow_depth(text: str) -> None:
    """Refuse ``[``/``{`` nesting deeper than :data:`MAX_YAML_DEPTH`, before PyYAML scans it.

    PyYAML's scanner takes time quadratic in the flow nesting (2,000 levels: 1.5 s). Brackets
    inside quotes are counted too: no real front matter comes near the limit with them.
    """
    depth = 0
    for bracket in _FLOW_BRACKET.finditer(text):
        depth = depth + 1 if bracket.group() in "[{" else max(depth - 1, 0)
        if depth > MAX_YAML_DEPTH:
            line = text.count("\n", 0, bracket.start())
            raise RefusedYaml(f"nested more than {MAX_YAML_DEPTH} deep", line)


def _check_yaml_nodes(root: yaml.Node) -> None:
    """Check the node graph of a composed YAML document against the limits of the loader.

    Walks each node once (an alias is the node of its anchor, met again), without recursion.

    Raises
    ------
    RefusedYaml
        See :class:`BoundedSafeLoader`; the line is where the offending node starts.
    """
    sizes: dict[int, int] = {}  # node id -> values and scalar characters, aliases expanded
    depths: dict[int, int] = {}
    open_nodes: set[int] = set()
    referenced: set[int] = set()
    added = 0
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key, children = id(node), _yaml_children(node)
        if done:
            open_nodes.discard(key)
            own = len(node.value) if isinstance(node, yaml.ScalarNode) else 0
            sizes[key] = 1 + own + sum(sizes[id(child)] for child in children)
            depths[key] = 1 + max((depths[id(child)] for child in children), default=0)
            for child in children:
                if id(child) in referenced:  # met before: an alias
                    added += sizes[id(child)]
                referenced.add(id(child))
            if added > MAX_ALIAS_EXPANSION:
                limit = MAX_ALIAS_EXPANSION
                refused = f"its aliases expand it by more than {limit} values and characters"
            elif depths[key] > MAX_YAML_DEPTH:
                refused = f"nested more than {MAX_YAML_DEPTH} deep"
            else:
                continue
            raise RefusedYaml(refused, node.start_mark.line)
        if key in sizes:
            continue
        if key in open_nodes:
            raise RefusedYaml("an alias refers to the node it is in", node.start_mark.line)
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in children)


def _yaml_children(node: yaml.Node) -> list[yaml.Node]:
    """Return the nodes in a sequence or mapping node (keys and values), none for a scalar."""
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


# --------------------------------------------------------------------------- posts from chunks


def assemble_posts(chunks: Iterable[Chunk], report: SkipReport | None = None) -> Iterator[Post]:
    """Join chunks into posts: grouped by url in order of first appearance, joined with "\\n".

    Front matter at the start of a post's first chunk (a ``---`` YAML block, or rendered
    ``key: value`` lines such as ``layout: blog_detail``, see :func:`split_front_matter`) is
    removed from the text and fills title, date and author when the chunks have none.
    Chunks whose text is blank are left out; a post with no text left is skipped.

    A lone surrogate (``"\\ud800"``: JSON can spell it, UTF-8 cannot) in a chunk's text,
    title or author is replaced by U+FFFD and reported, the chunk kept; in its url, the
    chunk is skipped.
    """
    report = _report(report)
    groups: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        chunk = _without_surrogates(chunk, report)
        if chunk is not None:
            groups.setdefault(chunk.url, []).append(chunk)
    for url, group in groups.items():
        post = _assemble_post(url, group, report)
        if post is None:
            report.skip(group[0].file, group[0].line, f"empty post {url}")
        else:
            yield post


def _assemble_post(url: str, chunks: list[Chunk], report: SkipReport) -> Post | None:
    """Return the post made of ``chunks`` (all with ``url``), or None if it has no text."""
    first, meta = _strip_front_matter(chunks[0], report)
    chunks = [first, *chunks[1:]]
    text, spans = _join_chunks(chunks)
    if not text.strip():
        return None
    return Post(
        url=url,
        text=text,
        title=next((c.title for c in chunks if c.title), None) or _as_text(meta.get("title")),
        date=next((c.date for c in chunks if c.date), None) or normalize_date(meta.get("date")),
        author=next((c.author for c in chunks if c.author), None)
        or _as_text(_first(meta, AUTHOR_FIELDS)),
        spans=spans,
    )


def _without_surrogates(chunk: Chunk, report: SkipReport) -> Chunk | None:
    """Return ``chunk`` with lone surrogates replaced by U+FFFD (reported), or skip it.

    A chunk whose url holds one is skipped: the url names the post and cannot be repaired.
    """
    if _SURROGATE.search(chunk.url):
        report.skip(chunk.file, chunk.line, f"url holds a lone surrogate: {chunk.url!r}")
        return None
    fields = {"text": chunk.text, "title": chunk.title, "author": chunk.author}
    found = {name: m for name, value in fields.items() if value and (m := _SURROGATE.search(value))}
    if not found:
        return chunk
    names = " and ".join(found)
    first = next(iter(found.values())).group()
    reason = f"lone surrogate {first!r} in {names} replaced by U+FFFD (row kept)"
    report.skip(chunk.file, chunk.line, reason)
    return replace(chunk, **{name: _SURROGATE.sub("\ufffd", fields[name]) for name in found})


def _strip_front_matter(chunk: Chunk, report: SkipReport) -> tuple[Chunk, dict[str, object]]:
    """Return ``chunk`` without the front matter its text starts with, and that front matter.

    Front matter that is refused (see :func:`load_yaml`) stays in the text, and is reported.
    """
    meta, count, refused = _front_matter(chunk.text)
    if refused is not None:
        line = chunk.line + refused.line if chunk.lines_follow_file else chunk.line
        report.skip(chunk.file, line, f"front matter refused ({refused.reason}); read as text")
    if not count:
        return chunk, {}
    rest = chunk.text.split("\n")[count:]
    line = chunk.line + count if chunk.lines_follow_file else chunk.line
    return replace(chunk, text="\n".join(rest), line=line), meta


def split_front_matter(text: str) -> tuple[dict[str, object], int]:
    """Find Jekyll front matter at the start of ``text``.

    Two shapes are recognised after leading blank lines: a YAML block between ``---`` lines,
    and front matter rendered as plain lines (``layout: blog_detail``, ``title: '...'``): a
    run of ``key: value`` lines with keys from :data:`FRONT_MATTER_KEYS`, including ``layout``
    or ``title``. Values lose their quotes and outer blanks.

    Returns
    -------
    fields : dict
        The front matter, empty when there is none.
    lines : int
        How many lines of ``text`` it occupies (0 when there is none).

    Examples
    --------
    >>> split_front_matter("layout: blog_detail\\ntitle: 'Hi there '\\nauthor: Team PyTorch\\nBody")
    ({'layout': 'blog_detail', 'title': 'Hi there', 'author': 'Team PyTorch'}, 3)
    >>> split_front_matter("Note: not front matter")
    ({}, 0)
    """
    fields, count, _ = _front_matter(text)
    return fields, count


def _front_matter(text: str) -> tuple[dict[str, object], int, RefusedYaml | None]:
    """Return what :func:`split_front_matter` does, and why a ``---`` block was refused.

    A refused block (:func:`load_yaml`) counts as no front matter; the error's line is
    the 0-based line of ``text`` it names.
    """
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if first < len(lines) and lines[first].strip() == FENCES[0]:
        try:
            return (*_fenced_front_matter(lines, first), None)
        except RefusedYaml as error:
            return {}, 0, RefusedYaml(error.reason, first + 1 + error.line)
    fields: dict[str, object] = {}
    end = first
    while end < len(lines):
        match = _FRONT_MATTER_LINE.fullmatch(lines[end].rstrip())
        if match is None or match["key"] not in FRONT_MATTER_KEYS:
            break
        fields.setdefault(match["key"], _scalar(match["value"] or ""))
        end += 1
    if not FRONT_MATTER_ANCHORS & fields.keys():
        return {}, 0, None
    return fields, end, None


def _fenced_front_matter(lines: list[str], start: int) -> tuple[dict[str, object], int]:
    """Parse a ``---`` YAML block opening at ``lines[start]``; ({}, 0) if it is not one.

    Raises
    ------
    RefusedYaml
        The block is too large, too deep or expands through aliases (:func:`load_yaml`).
    """
    stop = min(len(lines), start + MAX_FENCED_LINES)
    close = next((i for i in range(start + 1, stop) if lines[i].rstrip() in FENCES), None)
    if close is None:
        return {}, 0
    try:
        meta = load_yaml("\n".join(lines[start + 1 : close]))
    except (yaml.YAMLError, ValueError, TypeError, RecursionError):
        return {}, 0
    if not isinstance(meta, dict):
        return {}, 0
    return {str(k): v for k, v in meta.items()}, close + 1


def _scalar(raw: str) -> object:
    """Return a rendered front-matter value: YAML strings, dates and lists, else the raw text."""
    try:
        value = load_yaml(raw)
    except (RefusedYaml, yaml.YAMLError, ValueError, TypeError, RecursionError):
        return raw.strip()
    if isinstance(value, str):
        return value.strip()
    return value if isinstance(value, dt.date | list) else raw.strip()


def _join_chunks(chunks: list[Chunk]) -> tuple[str, tuple[Span, ...]]:
    """Join the non-blank chunk texts with "\\n" and return the text and its spans."""
    parts: list[str] = []
    spans: list[Span] = []
    offset = 0
    for chunk in chunks:
        if not chunk.text.strip():
            continue
        if parts:
            offset += 1
        spans.extend(_chunk_spans(chunk, offset))
        parts.append(chunk.text)
        offset += len(chunk.text)
    return "\n".join(parts), tuple(spans)


def _chunk_spans(chunk: Chunk, offset: int) -> list[Span]:
    """Return the spans of a chunk placed at ``offset``: one, or one per line of one record."""
    if chunk.lines_follow_file:
        return [Span(offset, offset + len(chunk.text), chunk.file, chunk.line)]
    spans = []
    for piece in chunk.text.split("\n"):
        spans.append(Span(offset, offset + len(piece), chunk.file, chunk.line))
        offset += len(piece) + 1
    return spans


# --------------------------------------------------------------------------- values


def normalize_date(value: object) -> str | None:
    """Return a date as ``YYYY-MM-DD``, or None when it is missing or cannot be read.

    Examples
    --------
    >>> normalize_date("2018-01-19 12:00:00 -0500"), normalize_date("March 4, 2021")
    ('2018-01-19', '2021-03-04')
    >>> normalize_date("2021-02-30") is None
    True
    """
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if not isinstance(value, str):
        return None
    text = value.strip()
    match = _ISO_DATE.match(text)
    if match:
        try:
            return dt.date(int(match["y"]), int(match["m"]), int(match["d"])).isoformat()
        except ValueError:
            return None
    for fmt in DATE_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            continue
    return None


def _as_text(value: object) -> str | None:
    """Return a title or author as stripped text (lists joined with ", "), or None."""
    if isinstance(value, list | tuple):
        names = [name for name in (_as_text(v) for v in value) if name]
        return ", ".join(names) or None
    if value is None or isinstance(value, bool | dict):
        return None
    return str(value).strip() or None


def _is_http(url: str) -> bool:
    """Tell whether ``url`` is an absolute http(s) URL with a host."""
    if not url or any(c.isspace() for c in url):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)


# --------------------------------------------------------------------------- files


def _report(report: SkipReport | None) -> SkipReport:
    """Return ``report``, or a new lenient one."""
    return report if report is not None else SkipReport()


def _lines(source: str | Iterable[str]) -> list[str]:
    """Return the lines of a text, or of an iterable of lines, without line ends."""
    if isinstance(source, str):
        source = source.removeprefix("\ufeff").split("\n")
    return [line.rstrip("\r\n") for line in source]


def _one_line(error: BaseException) -> str:
    """Return an exception's message on one line."""
    return " ".join(str(error).split()) or type(error).__name__


def _os_error(error: OSError, file: str) -> InputError:
    """Turn an OSError into a one-line InputError naming ``file``."""
    reason = (error.strerror or _one_line(error)).lower()
    return InputError(reason, os.fspath(error.filename) if error.filename else file)


def _open(file: str) -> BinaryIO:
    """Open a regular file for binary reading, or raise InputError."""
    if os.path.exists(file) and not os.path.isfile(file):
        raise InputError("not a regular file", file)
    try:
        return open(file, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as error:
        raise _os_error(error, file) from error


def _read_bytes(file: str) -> bytes:
    """Return the content of a file, or raise InputError."""
    with _open(file) as handle:
        try:
            return handle.read()
        except OSError as error:
            raise _os_error(error, file) from error


def _read_head(file: str) -> bytes:
    """Return the start of a file: :data:`HEAD_BYTES`, more while it cannot tell the format.

    Reads on, up to :data:`MAX_HEAD_BYTES`, while the first non-empty line is not complete
    or the lines so far are all JSON that cannot tell JSON Lines (arrays, records nested too
    deep, see :func:`_is_jsonl`); a longer first line is judged by its start.
    """
    with _open(file) as handle:
        try:
            head = handle.read(HEAD_BYTES)
            while len(head) < MAX_HEAD_BYTES and _undecided(head):
                more = handle.read(len(head))
                if not more:
                    break
                head += more
        except OSError as error:
            raise _os_error(error, file) from error
    return head


def _undecided(head: bytes) -> bool:
    """Tell whether more of a file is needed to guess its format from ``head``."""
    if b"\n" not in head.lstrip():
        return True
    if guess_format(head) is not None:
        return False
    return _jsonl_votes(_head_lines(head)) == (0, 0)


def _read_text(file: str) -> str:
    """Return a UTF-8 text file's content without BOM, or raise InputError."""
    data = _read_bytes(file)
    _check_utf8(data, file, final=True)
    return data.decode("utf-8").removeprefix("\ufeff")


def _check_utf8(data: bytes, file: str, final: bool) -> None:
    """Raise InputError naming the line of the first byte that is not UTF-8.

    With ``final`` false, ``data`` is the start of a file and may end inside a character.
    """
    try:
        codecs.getincrementaldecoder("utf-8")().decode(data, final=final)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        reason = f"not UTF-8 (byte 0x{data[error.start]:02x} at line {line}); re-encode it as UTF-8"
        raise InputError(reason, file, line) from error


def _read_dir(top: str, report: SkipReport) -> Iterator[Post]:
    """Read the posts of every non-hidden file under ``top``, in sorted order."""
    for directory, subdirs, names in os.walk(top, onerror=_walk_error):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
        for name in sorted(names):
            file = os.path.join(directory, name)
            if name.startswith(".") or not os.path.isfile(file):
                continue
            head = _read_head(file)
            fmt = guess_format(head)
            if fmt is None:
                reason, line = _unknown_format(head)
                report.skip(file, line, reason)
                continue
            yield from READERS[fmt](file, report)


def _walk_error(error: OSError) -> None:
    """Raise an unreadable directory met by ``os.walk`` as InputError."""
    raise _os_error(error, str(error.filename))


# --------------------------------------------------------------------------- detection


def _head_lines(head: bytes) -> list[str]:
    """Return the lines of the start of a file, BOM and line ends removed, NUL lines blank."""
    text = head.decode("utf-8", errors="replace").removeprefix("\ufeff")
    return ["" if "\x00" in line else line.rstrip("\r") for line in text.split("\n")]


def _bom_encoding(head: bytes) -> str | None:
    """Return ``"UTF-16"`` or ``"UTF-32"`` when ``head`` starts with their byte order mark."""
    return next((name for bom, name in BYTE_ORDER_MARKS if head.startswith(bom)), None)


def _is_utf8_start(head: bytes) -> bool:
    """Tell whether ``head`` is the start of a UTF-8 text (it may end inside a character)."""
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return True


def _is_jsonl(lines: list[str], text: str) -> bool:
    """Most of the first lines that can tell are JSON objects, and at least one is.

    A line that is a JSON value but not an object, or starts like JSON but does not parse
    (an array, a record nested too deep), cannot tell; nor can a blank (or NUL) line. The
    last line may be cut by the end of the head: it counts if it starts like an object.
    """
    objects, others = _jsonl_votes(lines)
    return objects > 0 and objects >= others


def _jsonl_votes(lines: list[str]) -> tuple[int, int]:
    """Count the first :data:`SNIFF_LINES` non-blank lines that are JSON objects, and not JSON."""
    objects = others = 0
    sniffed = ((i, line.strip()) for i, line in enumerate(lines) if line.strip())
    for i, line in itertools.islice(sniffed, SNIFF_LINES):
        vote = _jsonl_vote(line, cut=i == len(lines) - 1)
        objects += vote > 0
        others += vote < 0
    return objects, others


def _jsonl_vote(line: str, cut: bool) -> int:
    """Return 1 for a JSON object line, -1 for a line that is not JSON, 0 when it cannot tell."""
    if line[0] == "{":
        try:
            return 1 if isinstance(json.loads(line), dict) else 0
        except (ValueError, RecursionError):
            return 1 if cut and _JSON_OBJECT_START.match(line) else 0
    if line[0] == "[":
        return 0
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return -1
    return 0


def _is_table_header(lines: list[str], text: str) -> bool:
    """Starts with the ``text`` ... ``|---|---|---|`` header of a table dump."""
    return _table_body_start(lines) > 0


def _is_jekyll(lines: list[str], text: str) -> bool:
    """Starts with a ``---`` line that is closed by another, or runs on past any front matter.

    In the second case the reader says what is wrong (not closed, or too long) on line 1.
    """
    if lines[0].rstrip() != FENCES[0]:
        return False
    closed = any(line.rstrip() in FENCES for line in lines[1:])
    return closed or len(text) > MAX_FRONT_MATTER_CHARS + len(lines[0]) + 1


def _is_csv(lines: list[str], text: str) -> bool:
    """Header row names a text and a url column."""
    return _csv_delimiter(text) is not None


def _is_table_rows(lines: list[str], text: str) -> bool:
    """Has a line ending like a table row: `` | <http url> | <category> |``."""
    return any(_ROW_END_HTTP.search(line) for line in lines)


# The two formats told by their first lines go first: a table dump or Jekyll post may hold
# JSON lines (code samples) that would outvote its prose.
_CONTENT_TESTS: tuple[tuple[str, Callable[[list[str], str], bool]], ...] = (
    ("table", _is_table_header),
    ("jekyll", _is_jekyll),
    ("jsonl", _is_jsonl),
    ("csv", _is_csv),
    ("table", _is_table_rows),
)

READERS: dict[str, Callable[[str, SkipReport], Iterator[Post]]] = {
    "table": read_table_dump,
    "jsonl": read_jsonl,
    "csv": read_csv,
    "parquet": read_parquet,
    "jekyll": read_jekyll,
}
