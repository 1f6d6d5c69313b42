"""Plain Markdown posts without front matter, as a scraper of today's site saves them.

The title is the first ``# `` heading; the text is everything after it (blank lines skipped),
by-line included, as the JSON Lines export of the same posts has it. The author and date come
from a by-line in the opening lines, in the shapes the site's posts use::

    By PyTorch Foundation | May 13, 2026 | No Comments
    **By:** Burkhard Ringlein (IBM Research)          **Date:** April 2, 2026
    **By PyTorch Foundation**  then  **May 22, 2026**  **Author:** PyTorch Foundation
    - Authors: TorchSpec team  - Date: March 19, 2026  - Source: https://...
    By Jake Siso, Dev Shankar  then, after a blank line,  May 26, 2026

(some posts have none); else the date comes from a ``YYYYMMDD_`` or ``YYYY-MM-DD-`` file-name
prefix. The URL is a ``Source:`` line's, else ``<base URL><slug>/``, the slug being the file
name without its date prefix and ``.md`` (``--base-url``, default :data:`BASE_URL`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..records import BLOG_URL, Post, SkipReport, Span
from .posts import _report, normalize_date
from .source import _read_text

BASE_URL = BLOG_URL
#: How many non-blank lines after the title a by-line may take.
BYLINE_LINES = 6

_TITLE = re.compile(r"#[ \t]+(?P<title>\S.*?)[ \t#]*$")
_FILE_DATE = re.compile(r"^(?P<date>\d{8}|\d{4}-\d{2}-\d{2})[_-](?P<slug>.+)$")
_MARKS = re.compile(r"\*\*|__|^\s*[-*+]\s+|\s{2,}$")
_FIELD = re.compile(r"^(?P<key>by|authors?|date|published|source)\s*:?\s*(?P<value>.*)$", re.I)
_ORDINAL = re.compile(r"(\d)(st|nd|rd|th)\b")


def is_plain_markdown(lines: list[str]) -> bool:
    """Whether a file opens with a ``# `` title line (blank lines before it allowed).

    Examples
    --------
    >>> is_plain_markdown(["", "# PyTorch 2.12 Release Blog", "", "We are excited"])
    True
    >>> is_plain_markdown(["---", "title: x", "---"])
    False
    """
    first = next((line for line in lines if line.strip()), "")
    return bool(_TITLE.match(first.strip()))


def read_markdown(path: str | os.PathLike[str], report: SkipReport | None = None,
                  base_url: str = BASE_URL) -> list[Post]:
    """Read one plain Markdown post (see the module docstring)."""
    file = os.fspath(path)
    post = parse_markdown(_read_text(file), file, Path(file).name, _report(report), base_url)
    return [post] if post is not None else []


def parse_markdown(text: str, file: str = "<markdown>", name: str | None = None,
                   report: SkipReport | None = None, base_url: str = BASE_URL) -> Post | None:
    """A post from a Markdown text that opens with its ``# `` title.

    Examples
    --------
    >>> post = parse_markdown("# Hi\\n\\nBy Team PyTorch | May 13, 2026\\n\\nBody.\\n",
    ...                       "posts/20260513_hi.md")
    >>> post.url, post.title, post.date, post.author, post.text
    ('https://pytorch.org/blog/hi/', 'Hi', '2026-05-13', 'Team PyTorch', \
'By Team PyTorch | May 13, 2026\\n\\nBody.\\n')
    """
    report = _report(report)
    lines = text.removeprefix("\ufeff").split("\n")
    number = next((i for i, line in enumerate(lines) if line.strip()), None)
    match = _TITLE.match(lines[number].strip()) if number is not None else None
    if match is None:
        report.skip(file, 1, "no '# ' title line: not a plain Markdown post")
        return None
    body_start = next((i for i in range(number + 1, len(lines)) if lines[i].strip()), None)
    if body_start is None:
        report.skip(file, number + 1, "empty post: nothing after the title")
        return None
    body = "\n".join(lines[body_start:])
    author, date, source = read_byline(lines[body_start:])
    file_date, slug = _file_date(name or Path(file).name)
    url = source or f"{base_url.rstrip('/')}/{slug}/"
    return Post(url=url, text=body, title=match.group("title"), date=date or file_date,
                author=author, spans=(Span(0, len(body), file, body_start + 1),))


def read_byline(lines: list[str]) -> tuple[str | None, str | None, str | None]:
    """Author, date and source URL of a by-line at the start of ``lines`` (None when absent).

    Examples
    --------
    >>> read_byline(["**Date:** April 2, 2026  ", "**Author:** PyTorch Foundation", "", "Hi"])
    ('PyTorch Foundation', '2026-04-02', None)
    >>> read_byline(["By Morrison Turnansky | May 27, 2026", "", "When you use PyTorch"])
    ('Morrison Turnansky', '2026-05-27', None)
    >>> read_byline(["We are excited to announce the release of PyTorch 2.12!"])
    (None, None, None)
    """
    author = date = source = None
    for raw in [line for line in lines if line.strip()][:BYLINE_LINES]:
        line = _MARKS.sub("", raw).strip()
        parts = [part.strip() for part in line.split("|") if part.strip()]
        found = False
        for part in parts:
            field = _FIELD.match(part)
            value = _date(part)
            if value is not None:
                date, found = date or value, True
            elif field and field.group("value"):
                key, text = field.group("key").lower(), field.group("value").strip()
                if key in ("by", "author", "authors") and _names_people(text):
                    author, found = author or text, True
                elif key in ("date", "published"):
                    date, found = date or _date(text), True
                elif key == "source" and text.startswith("http"):
                    source, found = source or text, True
        if not found:
            break
    return author, date, source


def _names_people(text: str) -> bool:
    """Whether a "By ..." line names authors, not a sentence ("By leveraging X, we ...")."""
    return len(text.split()) <= 40 and not text.rstrip().endswith((".", "!", "?", ":"))


def _date(text: str) -> str | None:
    return normalize_date(_ORDINAL.sub(r"\1", text.strip().rstrip(".")))


def _file_date(name: str) -> tuple[str | None, str]:
    """The date of a ``YYYYMMDD_slug.md`` or ``YYYY-MM-DD-slug.md`` name, and its slug."""
    stem = re.sub(r"\.(md|markdown)$", "", name)
    match = _FILE_DATE.match(stem)
    if match is None:
        return None, stem
    digits = match.group("date").replace("-", "")
    return normalize_date(f"{digits[:4]}-{digits[4:6]}-{digits[6:]}"), match.group("slug")
