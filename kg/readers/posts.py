"""Chunks joined into posts, the record fields readers look for, and values (dates, names)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

from ..records import Post, SkipReport, Span
from .front_matter import _front_matter

TEXT_FIELDS = ("text", "content", "body")

URL_FIELDS = ("url", "source", "link")

TITLE_FIELDS = ("title",)

DATE_FIELDS = ("date",)

AUTHOR_FIELDS = ("author", "authors")

FRONT_MATTER_FIELD = "front_matter"

DATE_FORMATS = ("%Y/%m/%d", "%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y")

_SURROGATE = re.compile("[\ud800-\udfff]")

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

def _first(fields: Mapping[str, object], names: tuple[str, ...]) -> object:
    """Return the value of the first of ``names`` present and not null, else None."""
    return next((fields[n] for n in names if fields.get(n) is not None), None)

def _field_key(name: object) -> str:
    """Return a column name as it is matched: stripped, lower case, BOM removed."""
    return str(name).removeprefix("\ufeff").strip().lower()

def assemble_posts(chunks: Iterable[Chunk], report: SkipReport | None = None,
                   markup: str = "markdown") -> Iterator[Post]:
    """Join chunks into posts: grouped by url in order of first appearance, joined with "\\n".

    Front matter at the start of a post's first chunk (a ``---`` YAML block, or rendered
    ``key: value`` lines such as ``layout: blog_detail``, see :func:`split_front_matter`) is
    removed from the text and fills title, date and author when the chunks have none.
    Chunks whose text is blank are left out; a post with no text left is skipped.

    A lone surrogate (``"\\ud800"``: JSON can spell it, UTF-8 cannot) in a chunk's text,
    title or author is replaced by U+FFFD and reported, the chunk kept; in its url, the
    chunk is skipped. ``markup`` says how the text is written (``Post.markup``).
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
            yield replace(post, markup=markup)

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

def _join_chunks(chunks: list[Chunk]) -> tuple[str, tuple[Span, ...]]:
    """Join the non-blank chunk texts with "\\n" and return the text and its spans.

    A dataset cut into rows with an overlap repeats the last lines of a row at the start of the
    next: they are read once.
    """
    parts: list[str] = []
    spans: list[Span] = []
    offset = 0
    for chunk in chunks:
        if parts:
            chunk = _without_overlap(parts[-1], chunk)
        if not chunk.text.strip():
            continue
        if parts:
            offset += 1
        spans.extend(_chunk_spans(chunk, offset))
        parts.append(chunk.text)
        offset += len(chunk.text)
    return "\n".join(parts), tuple(spans)

#: The most lines a row repeats of the row before it.
MAX_OVERLAP_LINES = 3


def _without_overlap(before: str, chunk: Chunk) -> Chunk:
    """``chunk`` without the lines it starts with that end the text ``before`` it: the
    overlap of a dataset's rows ("Performance Improvements" ending one, starting the next).

    Examples
    --------
    >>> _without_overlap("a\\nHeading", Chunk("u", "Heading\\nText", "f", 9)).text
    'Text'
    """
    tail = before.rsplit("\n", MAX_OVERLAP_LINES)[-MAX_OVERLAP_LINES:]
    lines = chunk.text.split("\n")
    for n in range(min(MAX_OVERLAP_LINES, len(tail), len(lines)), 0, -1):
        if tail[-n:] == lines[:n] and any(line.strip() for line in lines[:n]):
            line = chunk.line + n if chunk.lines_follow_file else chunk.line
            return replace(chunk, text="\n".join(lines[n:]), line=line)
    return chunk


def _chunk_spans(chunk: Chunk, offset: int) -> list[Span]:
    """Return the spans of a chunk placed at ``offset``: one, or one per line of one record."""
    if chunk.lines_follow_file:
        return [Span(offset, offset + len(chunk.text), chunk.file, chunk.line)]
    spans = []
    for piece in chunk.text.split("\n"):
        spans.append(Span(offset, offset + len(piece), chunk.file, chunk.line))
        offset += len(piece) + 1
    return spans

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
