"""Jekyll ``_posts`` files: YAML front matter, then the Markdown body."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import yaml

from ..records import Post, SkipReport, Span
from .front_matter import FENCES, RefusedYaml, load_yaml
from .posts import (
    AUTHOR_FIELDS,
    Chunk,
    _as_text,
    _first,
    _one_line,
    _report,
    _without_surrogates,
    normalize_date,
)
from .source import _read_text

SITE = "https://pytorch.org"

UNCLOSED_FRONT_MATTER = "front matter is not closed (no second '---' line)"

_POST_NAME = re.compile(r"(?P<date>\d{4}-\d{1,2}-\d{1,2})-(?P<slug>.+)")

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
