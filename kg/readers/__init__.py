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

``markdown``
    A plain Markdown post without front matter, as a scraper of today's WordPress site saves
    it: the title is the first ``# `` line, author and date come from a by-line (several shapes)
    or the file name, the URL is ``<base URL><slug>/`` (:mod:`ptkg.readers.markdown`).
``html``
    A saved page of the blog (today's WordPress site or the older Jekyll one): the article is
    found and written as Markdown by trafilatura, title, date, author and canonical URL come
    from the page (:mod:`ptkg.readers.html`); index and "not found" pages are skipped.
``feed``
    An RSS 2.0 or Atom feed with full content: each item a post (:mod:`ptkg.readers.feed`).
``sitemap``
    A sitemap lists pages, not posts: skipped with the ``ptkg fetch`` command that gets them.

Every format's text is read as Markdown by the extractors, except the table dump's, whose
Markdown was flattened to plain text (``Post.markup``).

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
- a lone surrogate (``"\ud800"`` in JSON) in text, title or author is replaced by U+FFFD
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

import functools
import hashlib
import os
from collections.abc import Callable, Iterable, Iterator

from ..errors import InputError
from ..records import Post, SkipReport, Span
from .dataset import (
    parse_csv,
    parse_csv_rows,
    parse_jsonl,
    parse_jsonl_rows,
    read_csv,
    read_jsonl,
    read_parquet,
    record_to_chunk,
)
from .detect import (
    FORMATS,
    MAX_HEAD_BYTES,
    UNKNOWN_FORMAT,
    _read_head,
    _unknown_format,
    detect_format,
    guess_format,
)
from .feed import read_feed, read_sitemap
from .front_matter import MAX_ALIAS_EXPANSION, RefusedYaml, load_yaml, split_front_matter
from .html import read_html
from .jekyll import parse_jekyll, read_jekyll
from .markdown import BASE_URL, parse_markdown, read_markdown
from .posts import Chunk, _report, assemble_posts, normalize_date
from .source import _os_error
from .table import parse_table_dump, parse_table_rows, read_table_dump

__all__ = [
    "Chunk", "FORMATS", "InputError", "MAX_ALIAS_EXPANSION", "MAX_HEAD_BYTES", "READERS",
    "RefusedYaml", "UNKNOWN_FORMAT", "assemble_posts", "detect_format", "guess_format",
    "load_yaml", "normalize_date", "parse_csv", "parse_csv_rows", "parse_jekyll", "parse_jsonl",
    "parse_jsonl_rows", "parse_markdown", "parse_table_dump", "parse_table_rows", "read_csv",
    "read_feed", "read_html", "read_jekyll", "read_jsonl", "read_markdown", "read_parquet",
    "read_posts", "read_table_dump", "record_to_chunk", "split_front_matter",
]


def read_posts(
    paths: Iterable[str | os.PathLike[str]],
    report: SkipReport | None = None,
    *,
    base_url: str = BASE_URL,
) -> Iterator[Post]:
    """Read every post under ``paths``, choosing each file's reader by its content.

    Parameters
    ----------
    paths : iterable of str or Path
        Files and directories. Directories are walked recursively in sorted order, skipping
        hidden files and directories (names starting with ``.``).
    report : SkipReport, optional
        Collects skipped rows and files; a strict report raises on the first skip instead.
    base_url : str
        The URL prefix of plain Markdown posts that name no URL: ``<base_url><slug>/``.

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
    readers = {**READERS, "markdown": functools.partial(read_markdown, base_url=base_url)}
    seen: dict[str, tuple[Span, bytes]] = {}
    for path in paths:
        file = os.fspath(path)
        if os.path.isdir(file):
            posts = _read_dir(file, report, readers)
        else:
            posts = readers[detect_format(file)](file, report)
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

def _read_dir(top: str, report: SkipReport, readers: dict[str, Reader]) -> Iterator[Post]:
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
            yield from readers[fmt](file, report)

def _walk_error(error: OSError) -> None:
    """Raise an unreadable directory met by ``os.walk`` as InputError."""
    raise _os_error(error, str(error.filename))

Reader = Callable[[str, SkipReport], Iterable[Post]]
#: The reader of each format of :data:`FORMATS`.
READERS: dict[str, Reader] = {
    "table": read_table_dump,
    "jsonl": read_jsonl,
    "csv": read_csv,
    "parquet": read_parquet,
    "jekyll": read_jekyll,
    "markdown": read_markdown,
    "html": read_html,
    "feed": read_feed,
    "sitemap": read_sitemap,
}
