"""Blog pages as posts: the HTML of a post page, or of a feed item, turned into Markdown.

:func:`read_html` reads a saved page (as ``ptkg fetch`` saves them, or as a browser does); a
page without its own URL takes the one ``ptkg fetch``'s manifest records for its file.

A page is parsed with lxml (a real HTML parser) and its article found by trafilatura, a
main-content extractor, which also writes it as Markdown: headings keep their level, lists,
bold and italic runs, tables and code stay; navigation, footers, scripts and forms go. The
Markdown is then read like every other post (``ptkg.extractors.document``), so a page and the
Markdown it was made from give the same facts. trafilatura escapes Markdown characters in text
(``TORCH\\_LOGS``); the escapes are undone, since ptkg reads names, not emphasis, there.

The post's metadata comes from the page itself: the URL from ``<link rel="canonical">`` (else
``og:url``), the title from the article's ``<h1>`` (else ``og:title``, else ``<title>``), the date
from ``article:published_time``, a ``<time datetime>``, WordPress's ``.meta-date.published``
or JSON-LD ``datePublished``, the author from ``.meta-author``, ``<meta name="author">``,
``rel="author"`` or JSON-LD.

What is not a post: a page whose body lists several articles (an index page), a "not found"
page, a page with no article text. :func:`parse_page` says so with :class:`NotAPost`.

Encodings: the bytes are read as the page declares (``<meta charset>``); bytes that are UTF-8
but declared otherwise (a common server slip) are read as UTF-8, and the decision is reported.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import lxml.html

from ..errors import PtkgError
from ..records import Post, SkipReport, Span
from .posts import _report, normalize_date
from .source import _read_bytes

#: The manifest ``ptkg fetch`` writes beside the pages (see :mod:`ptkg.fetch`).
FETCH_MANIFEST = ".ptkg-fetch.json"

_UNESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([\w-]+)""", re.I)
_NOT_FOUND = re.compile(r"\b(404|not found|page not found|nothing found)\b", re.I)
_TITLE_SUFFIX = re.compile(r"\s*[|–—-]\s*PyTorch\s*$")
#: Fewer characters of article text than this is no post.
MIN_TEXT = 200


class NotAPost(PtkgError):  # noqa: N818 - a reason, not a failure of ptkg
    """A page that is not a blog post (an index page, a 404 page, no article); says why."""


@dataclass(frozen=True)
class Page:
    """A post read from a page: its metadata and its text as Markdown."""

    url: str | None
    title: str | None
    date: str | None
    author: str | None
    markdown: str
    encoding: str = "utf-8"
    encoding_note: str | None = None  # set when the page's declared encoding was wrong


def is_html(lines: list[str]) -> bool:
    """Whether a file starts like an HTML page (``<!DOCTYPE html>`` or ``<html``).

    Examples
    --------
    >>> is_html(["<!DOCTYPE html>", "<html lang='en'>"]), is_html(["# Title"])
    (True, False)
    """
    first = next((line.strip().lower() for line in lines if line.strip()), "")
    return first.startswith(("<!doctype html", "<html"))


def read_html(path: str | os.PathLike[str], report: SkipReport | None = None) -> list[Post]:
    """Read the post of a saved page; a page that is no post is skipped with why."""
    file = os.fspath(path)
    report = _report(report)
    try:
        page = parse_page(_read_bytes(file), _fetched_url(file))
    except NotAPost as reason:
        report.skip(file, None, f"not a blog post: {reason}")
        return []
    if page.encoding_note:
        report.skip(file, None, f"encoding {page.encoding_note} (page kept)")
    if not page.url:
        report.skip(file, None, "the page names no URL (no canonical link) and no fetch "
                                "manifest lists it")
        return []
    return [Post(url=page.url, text=page.markdown, title=page.title, date=page.date,
                 author=page.author, spans=(Span(0, len(page.markdown), file, 1),))]


def _fetched_url(file: str) -> str | None:
    """The URL ``ptkg fetch`` recorded for a saved page, when its folder has the manifest."""
    manifest = Path(file).parent / FETCH_MANIFEST
    try:
        pages = json.loads(manifest.read_text(encoding="utf8")).get("pages", {})
    except (OSError, ValueError, AttributeError):
        return None
    name = Path(file).name
    return next((url for url, record in sorted(pages.items())
                 if isinstance(record, dict) and record.get("file") == name), None)


def decode_page(data: bytes) -> tuple[str, str, str | None]:
    """Text, encoding used, and a note when the declared encoding was not the real one.

    Examples
    --------
    >>> decode_page('<meta charset="iso-8859-1"><p>café</p>'.encode())[1:]
    ('utf-8', 'declared iso-8859-1, read as UTF-8')
    """
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace"), "utf-8", None
    declared = _CHARSET.search(data[:4096])
    name = declared.group(1).decode("ascii").lower() if declared else "utf-8"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        wrong = name not in ("utf-8", "utf8") and any(b > 127 for b in data)
        return text, "utf-8", f"declared {name}, read as UTF-8" if wrong else None
    try:
        return data.decode(name, errors="replace"), name, None
    except LookupError:
        return data.decode("cp1252", errors="replace"), "cp1252", f"unknown charset {name}"


def parse_page(data: bytes | str, url: str | None = None) -> Page:
    """The post a page holds (see the module docstring).

    Raises
    ------
    NotAPost
        An index page, a "not found" page, or a page without article text.
    """
    text, encoding, note = decode_page(data) if isinstance(data, bytes) else (data, "utf-8",
                                                                                None)
    try:
        tree = lxml.html.fromstring(text)
    except (ValueError, lxml.etree.ParserError) as error:
        raise NotAPost(f"not an HTML page ({error})") from None
    title = _title(tree)
    if len(tree.xpath("//article")) > 1:
        raise NotAPost(f"an index page ({len(tree.xpath('//article'))} articles), not a post")
    if title and _NOT_FOUND.search(title) and len(title) < 60:
        raise NotAPost(f"a 'not found' page ({title!r})")
    markdown = html_to_markdown(text)
    if len(markdown) < MIN_TEXT:
        raise NotAPost("no article text found")
    meta = _json_ld(tree)
    return Page(url=_canonical(tree) or url, title=title, date=_date(tree, meta),
                author=_author(tree, meta), markdown=markdown, encoding=encoding,
                encoding_note=note)


def html_to_markdown(html: str, fragment: bool = False) -> str:
    """The main content of a page (or a whole fragment, such as a feed item) as Markdown."""
    import trafilatura

    if fragment:
        html = f"<html><body><article>{html}</article></body></html>"
    markdown = trafilatura.extract(html, output_format="markdown", include_tables=True,
                                   include_formatting=True, include_links=False,
                                   include_comments=False, favor_recall=fragment) or ""
    return _UNESCAPE.sub(r"\1", markdown).strip() + "\n" if markdown.strip() else ""


def _first(tree, *paths: str) -> str | None:
    for path in paths:
        for found in tree.xpath(path):
            value = found if isinstance(found, str) else found.text_content()
            value = " ".join(str(value).split())
            if value:
                return value
    return None


def _canonical(tree) -> str | None:
    return _first(tree, "//link[@rel='canonical']/@href", "//meta[@property='og:url']/@content")


def _title(tree) -> str | None:
    found = _first(tree, "//article//h1", "//h1[contains(@class, 'entry-title')]",
                   "//meta[@property='og:title']/@content", "//h1", "//title")
    return _TITLE_SUFFIX.sub("", found) if found else None


def _date(tree, meta: dict) -> str | None:
    for value in (_first(tree, "//meta[@property='article:published_time']/@content",
                         "//time/@datetime",
                         "//*[contains(concat(' ', @class, ' '), ' published ')]",
                         "//*[contains(@class, 'blog-date')]"),
                  meta.get("datePublished")):
        date = normalize_date(value) if isinstance(value, str) else None
        if date:
            return date
    return None


def _author(tree, meta: dict) -> str | None:
    found = _first(tree, "//*[contains(@class, 'meta-author')]//*[contains(@class, 'fn')]//a",
                   "//meta[@name='author']/@content", "//*[@rel='author']")
    if found:
        return re.sub(r"^By\s+", "", found)
    author = meta.get("author")
    if isinstance(author, list):
        author = author[0] if author else None
    if isinstance(author, dict):
        author = author.get("name")
    return author if isinstance(author, str) and author.strip() else None


def _json_ld(tree) -> dict:
    """The first JSON-LD object of the page that describes an article (or {})."""
    for script in tree.xpath("//script[@type='application/ld+json']/text()"):
        try:
            data = json.loads(script)
        except ValueError:
            continue
        items = data.get("@graph", [data]) if isinstance(data, dict) else data
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict) and "datePublished" in item:
                return item
    return {}
