"""The dataset viewer's table dump (``data/seed_sample.txt``): ``text | url | category |`` rows."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator

from ..records import Post, SkipReport
from .posts import Chunk, _is_http, _lines, _report, assemble_posts
from .source import _read_text

TABLE_HEADER_FIRST = "text"

TABLE_RULE = "|---|---|---|"

TABLE_HEADER_LINES = 20

_CELL = r"[^|\s](?:[^|]*[^|\s])?"  # a cell: no pipes, no blanks at either end

# The end of a table row: `<text> | <url> | <category> |`, `| <url> | <category> |` or
# `<url> | <category> |`. Group `sep` tells the three apart; the text is what precedes it.
_ROW_END_HTTP = re.compile(
    rf"(?P<sep>^\| |^| \| )(?P<url>https?://[^\s|]+) \| (?P<cat>{_CELL}) \|$"
)

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
    return assemble_posts(parse_table_rows(lines, file, report), report, markup="flat")

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
