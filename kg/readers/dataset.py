"""Dataset exports: JSON Lines, CSV and Parquet rows with a text and a url column."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import InputError
from ..records import Post, SkipReport
from .front_matter import _front_matter
from .posts import (
    AUTHOR_FIELDS,
    DATE_FIELDS,
    FRONT_MATTER_FIELD,
    TEXT_FIELDS,
    TITLE_FIELDS,
    URL_FIELDS,
    Chunk,
    _as_text,
    _field_key,
    _first,
    _is_http,
    _lines,
    _one_line,
    _report,
    assemble_posts,
    normalize_date,
)
from .source import _open, _read_text

CSV_DELIMITERS = (",", "\t", ";")

CSV_FIELD_LIMIT = 2**31 - 1

PARQUET_MAGIC = b"PAR1"

PARQUET_BATCH = 1024

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
    a ``front_matter`` field fills those three when missing (and is read only then).
    """
    fields: dict[str, object] = {}
    for key, value in record.items():
        fields.setdefault(_field_key(key), value)
    text, url = _first(fields, TEXT_FIELDS), _first(fields, URL_FIELDS)
    problem = _row_problem(text, url)
    if problem:
        report.skip(file, line, problem)
        return None
    title = _as_text(_first(fields, TITLE_FIELDS))
    date = normalize_date(_first(fields, DATE_FIELDS))
    author = _as_text(_first(fields, AUTHOR_FIELDS))
    front = fields.get(FRONT_MATTER_FIELD)
    if isinstance(front, str) and not (title and date and author):  # YAML only when needed
        meta, _, refused = _front_matter(front)
        if refused is not None:
            reason = f"{FRONT_MATTER_FIELD} field ignored ({refused.reason})"
            report.skip(file, line, reason)
        title = title or _as_text(meta.get("title"))
        date = date or normalize_date(meta.get("date"))
        author = author or _as_text(meta.get("author"))
    return Chunk(url=str(url).strip(), text=str(text), file=file, line=line, title=title,
                 date=date, author=author, lines_follow_file=False)

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
