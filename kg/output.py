"""Rows printed three ways: an aligned table, JSON, or CSV (``--format table|json|csv``).

One output dispatcher for every command that prints rows (:func:`format_rows`): query results,
named queries, lifecycles and diffs, timelines, evaluation reports.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Iterator, Sequence

FORMATS = ("table", "json", "csv")

def format_rows(columns: Sequence[str], rows: Sequence[Sequence[object]], fmt: str) -> str:
    """Write query results as text, ending with a newline.

    Parameters
    ----------
    columns : Sequence[str]
        The column names, as returned by :func:`run_query`.
    rows : Sequence[Sequence[object]]
        The rows, as returned by :func:`run_query`.
    fmt : str
        One of :data:`FORMATS` (see :func:`generate_lines`).

    Returns
    -------
    str
        The whole output.

    Raises
    ------
    ValueError
        If ``fmt`` is not one of :data:`FORMATS`.

    Examples
    --------
    >>> print(format_rows(["f.name", "i.stability"], [["torch.fx", "Beta"]], "table"), end="")
    f.name    i.stability
    --------  -----------
    torch.fx  Beta
    """
    return "\n".join(generate_lines(columns, rows, fmt)) + "\n"

def generate_lines(
    columns: Sequence[str], rows: Sequence[Sequence[object]], fmt: str
) -> Iterator[str]:
    """Generate the output of query results, one line (a CSV record) at a time, without newline.

    Parameters
    ----------
    columns : Sequence[str]
        The column names.
    rows : Sequence[Sequence[object]]
        The rows.
    fmt : str
        ``table``: aligned columns under a header and a dashed line, null as an empty cell, lists
        and dicts as compact JSON, control characters escaped. ``json``: a JSON list of objects
        keyed by column (indent 2, non-ASCII kept), the same text ``json.dumps`` gives.
        ``csv``: a header and one record per row, null as an empty field, booleans as
        ``true``/``false``, lists and dicts as JSON text.

    Yields
    ------
    str
        One line of output (a CSV record may hold newlines inside quotes).

    Raises
    ------
    ValueError
        If ``fmt`` is not one of :data:`FORMATS`.
    """
    writers = {"table": _table_lines, "json": _json_lines, "csv": _csv_lines}
    if fmt not in writers:
        raise ValueError(f"unknown output format {fmt!r}: use one of {', '.join(FORMATS)}")
    return writers[fmt](list(columns), rows)

def _json_text(value: object) -> str:
    """Compact JSON for a list or dict inside a table cell or CSV field."""
    return json.dumps(value, ensure_ascii=False, default=str)

def _field_text(value: object) -> str:
    """The text of one CSV field or table cell, before any escaping."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, dict)):
        return _json_text(value)
    return str(value)

def _cell_text(value: object) -> str:
    """The text of a table cell: non-printable characters escaped, so rows stay one line."""
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in _field_text(value)
    )

def _display_width(text: str) -> int:
    """Terminal columns taken by ``text``: wide East Asian characters count 2, combining 0."""
    return sum(
        0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in "WF" else 1
        for char in text
    )

def _pad(text: str, width: int) -> str:
    """Pad ``text`` with spaces to ``width`` display columns."""
    return text + " " * (width - _display_width(text))

def _table_lines(columns: list[str], rows: Sequence[Sequence[object]]) -> Iterator[str]:
    """Aligned plain-text columns, two spaces apart, under a header and dashes."""
    header = [_cell_text(column) for column in columns]
    cells = [[_cell_text(value) for value in row] for row in rows]
    columns_text = zip(header, *cells, strict=False)
    widths = [max(_display_width(text) for text in column) for column in columns_text]
    yield _table_line(header, widths)
    yield _table_line(["-" * width for width in widths], widths)
    for row in cells:
        yield _table_line(row, widths)

def _table_line(texts: Sequence[str], widths: Sequence[int]) -> str:
    """One table line, without trailing spaces."""
    return "  ".join(_pad(text, width) for text, width in zip(texts, widths, strict=True)).rstrip()

def _json_lines(columns: list[str], rows: Sequence[Sequence[object]]) -> Iterator[str]:
    """``json.dumps(objects, indent=2, ensure_ascii=False)``, one line at a time."""
    if not rows:
        yield "[]"
        return
    yield "["
    for index, row in enumerate(rows):
        record = dict(zip(columns, row, strict=True))
        text = json.dumps(record, ensure_ascii=False, indent=2, default=str)
        lines = text.split("\n")
        if index < len(rows) - 1:
            lines[-1] += ","
        yield from ("  " + line for line in lines)
    yield "]"

def _csv_lines(columns: list[str], rows: Sequence[Sequence[object]]) -> Iterator[str]:
    """A CSV header and one record per row, through the csv module."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for record in [columns, *([_field_text(value) for value in row] for row in rows)]:
        writer.writerow(record)
        yield buffer.getvalue().removesuffix("\n")
        buffer.seek(0)
        buffer.truncate()
