"""Formats told from content: the first lines of a file, never its name only."""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Callable

from ..errors import InputError
from .dataset import PARQUET_MAGIC, _csv_delimiter, _csv_missing_column, _no_column
from .feed import is_feed, is_sitemap
from .front_matter import FENCES, MAX_FRONT_MATTER_CHARS
from .html import is_html
from .jekyll import UNCLOSED_FRONT_MATTER
from .markdown import is_plain_markdown
from .source import FIX_UTF8, _bom_encoding, _check_utf8, _is_utf8_start, _open, _os_error
from .table import _ROW_END_HTTP, _table_body_start

FORMATS = ("table", "jsonl", "csv", "parquet", "jekyll", "markdown", "html", "feed", "sitemap")

HEAD_BYTES = 1 << 17  # holds any front matter of MAX_FRONT_MATTER_CHARS, in any UTF-8

MAX_HEAD_BYTES = 1 << 24

SNIFF_LINES = 50

UNKNOWN_FORMAT = ("unknown format (not a table dump, JSON Lines, CSV, Parquet, Jekyll or Markdown "
                  "post, HTML page, feed or sitemap)")

_JSON_OBJECT_START = re.compile(r'\{\s*(?:"|\}|$)')

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

def _head_lines(head: bytes) -> list[str]:
    """Return the lines of the start of a file, BOM and line ends removed, NUL lines blank."""
    text = head.decode("utf-8", errors="replace").removeprefix("\ufeff")
    return ["" if "\x00" in line else line.rstrip("\r") for line in text.split("\n")]

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
    ("html", lambda lines, text: is_html(lines)),
    ("feed", lambda lines, text: is_feed(lines)),
    ("sitemap", lambda lines, text: is_sitemap(lines)),
    ("jsonl", _is_jsonl),
    ("csv", _is_csv),
    ("markdown", lambda lines, text: is_plain_markdown(lines)),
    ("table", _is_table_rows),
)
