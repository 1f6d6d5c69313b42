"""RSS 2.0 and Atom feeds with full content: each item a post (feedparser).

An item's URL is its link, its title, date and author the feed's; its text is its full content
(``content:encoded`` in RSS, ``<content>`` in Atom) turned into Markdown as pages are
(:func:`ptkg.readers.html.html_to_markdown`). An item that carries only a summary is skipped
with a line: its page has the post (``ptkg fetch`` gets it). A sitemap lists pages, not posts:
given to ``ptkg build`` it is skipped with a line that says to fetch it.
"""

from __future__ import annotations

import os
import re
from datetime import date

from ..records import Post, SkipReport, Span
from .html import html_to_markdown
from .posts import _is_http, _report, normalize_date
from .source import _read_bytes

_FEED_ROOT = re.compile(r"<(rss|feed|rdf:RDF)\b", re.I)
_SITEMAP_ROOT = re.compile(r"<(urlset|sitemapindex)\b", re.I)


def is_feed(lines: list[str]) -> bool:
    """Whether a file is an RSS or Atom feed (its root element, after an XML declaration)."""
    return bool(_FEED_ROOT.search(_opening(lines)))


def is_sitemap(lines: list[str]) -> bool:
    """Whether a file is a sitemap (``<urlset>`` or ``<sitemapindex>``)."""
    return bool(_SITEMAP_ROOT.search(_opening(lines)))


def _opening(lines: list[str]) -> str:
    text = "\n".join(lines[:20]).lstrip()
    return text[:2000] if text.startswith(("<?xml", "<rss", "<feed", "<urlset", "<sitemapindex",
                                           "<rdf:RDF")) else ""


def read_feed(path: str | os.PathLike[str], report: SkipReport | None = None) -> list[Post]:
    """The posts of a feed file, in its order; items without full content are skipped."""
    import feedparser

    file = os.fspath(path)
    report = _report(report)
    feed = feedparser.parse(_read_bytes(file))
    posts = []
    for number, entry in enumerate(feed.entries, 1):
        where = f"item {number}"
        link = (entry.get("link") or "").strip()
        if not _is_http(link):
            report.skip(file, None, f"{where}: no http(s) link")
            continue
        content = [c.get("value", "") for c in entry.get("content", []) if c.get("value")]
        if not content:
            report.skip(file, None, f"{where} ({link}): no full content, only a summary; "
                                    "fetch its page with `ptkg fetch`")
            continue
        text = html_to_markdown("\n".join(content), fragment=True)
        if not text.strip():
            report.skip(file, None, f"{where} ({link}): empty content")
            continue
        posts.append(Post(url=link, text=text, title=entry.get("title"),
                          date=_entry_date(entry), author=entry.get("author") or None,
                          spans=(Span(0, len(text), file, 1),)))
    return posts


def read_sitemap(path: str | os.PathLike[str], report: SkipReport | None = None) -> list[Post]:
    """A sitemap holds no post: skipped with the command that fetches what it lists."""
    file = os.fspath(path)
    _report(report).skip(file, None, "a sitemap lists pages, not posts: fetch them with "
                                     f"`ptkg fetch {file} --out DIR`, then build DIR")
    return []


def _entry_date(entry) -> str | None:
    for key in ("published_parsed", "updated_parsed"):
        parsed = entry.get(key)
        if parsed:
            return date(parsed.tm_year, parsed.tm_mon, parsed.tm_mday).isoformat()
    return normalize_date(entry.get("published") or entry.get("updated"))
