"""``ptkg fetch``: keep a local copy of a blog current, from its feed or sitemap to each page.

:func:`fetch` reads a *listing* — an RSS 2.0 or Atom feed, a sitemap (``<urlset>``, or a
``<sitemapindex>`` whose sitemaps it reads in turn), given as a URL or as a saved file — and
saves the page of every post it lists as ``<slug>.html`` in the output folder, with a manifest
(:data:`MANIFEST`) that records, per URL, the file, ``ETag``, ``Last-Modified``, the SHA-256 of
the page and when it was fetched.

Polite: it reads ``robots.txt`` once per host and skips what it disallows (its ``Crawl-delay``
raises the delay), waits ``delay`` seconds between requests to one host, names itself in the
``User-Agent`` (:data:`USER_AGENT`), and retries a 429, a 5xx or a broken connection with
exponential backoff, honouring ``Retry-After`` (up to :data:`MAX_RETRY_AFTER` seconds).

Incremental and resumable: a page already in the manifest is asked for with ``If-None-Match`` /
``If-Modified-Since``; a 304, or a 200 with the same SHA-256, leaves the file alone. Each page
is written to a temporary file and renamed, and the manifest is rewritten (atomically) at most
every :data:`MANIFEST_EVERY` seconds while pages are saved and once at the end, so a killed
fetch loses at most the pages of its last second (saved again by the rerun, which goes on from
there). A page that cannot be had after the retries is reported and left out; the others are kept.

Not supported: JavaScript-rendered pages, authentication, pages behind a consent wall, feeds
that list other feeds, ``robots.txt`` wildcards beyond what ``urllib.robotparser`` reads.
"""

from __future__ import annotations

import contextlib
import email.utils
import hashlib
import json
import re
import time
import urllib.robotparser
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx

from . import __version__
from .errors import PtkgError
from .files import write_atomic

MANIFEST = ".ptkg-fetch.json"
FORMAT = "ptkg-fetch"
USER_AGENT = f"ptkg/{__version__} (PyTorch blog knowledge graph; polite fetcher)"
RETRY_STATUSES = {429, 500, 502, 503, 504}
MAX_RETRY_AFTER = 120.0
#: Seconds between two writes of the manifest during a fetch (and once at the end): a killed
#: fetch fetches again at most the pages of its last second, and a rerun of many unchanged
#: pages does not rewrite the manifest once per page.
MANIFEST_EVERY = 1.0
_TRANSIENT = (httpx.TransportError,)
_SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


class FetchError(PtkgError):
    """A listing that cannot be read, or an output folder that cannot be written."""


@dataclass
class PageRecord:
    """What the manifest keeps of one page."""

    url: str
    file: str
    sha256: str
    fetched_at: str
    etag: str | None = None
    last_modified: str | None = None
    final_url: str | None = None


@dataclass
class FetchSummary:
    """What one fetch did: counts of pages and the ones it could not get, with why."""

    listed: int = 0
    new: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    disallowed: list[str] = field(default_factory=list)
    requests: int = 0
    seconds: float = 0.0

    @property
    def downloaded(self) -> int:
        """Pages saved this time: new or changed."""
        return len(self.new) + len(self.changed)


@dataclass
class Politeness:
    """How a fetch treats a server: delay, retries, backoff, timeout, User-Agent."""

    delay: float = 1.0
    retries: int = 3
    backoff: float = 1.0
    timeout: float = 30.0
    user_agent: str = USER_AGENT


def fetch(source: str, out: str | Path, *, politeness: Politeness | None = None,
          limit: int | None = None, client: httpx.Client | None = None,
          sleep: Callable[[float], None] = time.sleep,
          progress: Callable[[str, str], None] | None = None) -> FetchSummary:
    """Save the page of every post ``source`` lists into ``out`` (see the module docstring).

    Parameters
    ----------
    source : the URL of a feed or sitemap, or the path of a saved one.
    out : the folder of the pages and the manifest (created when missing).
    politeness : delay, retries, backoff, timeout and User-Agent.
    limit : fetch at most this many posts (the first ones listed).
    client : an ``httpx.Client`` to use (default: one made here and closed after).
    sleep : how to wait (tests pass a recorder).
    progress : called with (url, outcome) after each post.

    Raises
    ------
    FetchError
        The listing cannot be read or holds no post URL, or ``out`` cannot be written.
    """
    started = time.perf_counter()
    rules = politeness or Politeness()
    folder = Path(out)
    manifest = read_manifest(folder)
    own_client = client is None
    client = client or httpx.Client(follow_redirects=True, timeout=rules.timeout,
                                    headers={"User-Agent": rules.user_agent})
    session = _Session(client, rules, sleep)
    summary = FetchSummary()
    try:
        urls = list(dict.fromkeys(_listing(source, session)))
        if not urls:
            raise FetchError(f"{source}: lists no post (not an RSS/Atom feed or a sitemap?)")
        urls = urls[:limit] if limit is not None else urls
        summary.listed = len(urls)
        written = time.monotonic()
        for url in urls:
            outcome = _fetch_page(url, folder, manifest, session, summary)
            if outcome in ("new", "changed") and time.monotonic() - written >= MANIFEST_EVERY:
                _write_manifest(folder, source, manifest)
                written = time.monotonic()
            if progress:
                progress(url, outcome)
    finally:
        if manifest:
            _write_manifest(folder, source, manifest)
        if own_client:
            client.close()
    summary.requests = session.requests
    summary.seconds = time.perf_counter() - started
    return summary


# --------------------------------------------------------------------------- the manifest


def read_manifest(folder: Path) -> dict[str, PageRecord]:
    """The pages a folder's manifest records, by URL (none when there is no manifest yet).

    Raises
    ------
    FetchError
        The manifest exists but is not one ptkg wrote.
    """
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        raise FetchError(f"{path}: cannot read the fetch manifest ({error}); remove it to "
                         "fetch every page again") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise FetchError(f"{path}: not a ptkg fetch manifest")
    try:
        return {url: PageRecord(**record) for url, record in data["pages"].items()}
    except (KeyError, TypeError) as error:
        raise FetchError(f"{path}: a page record is malformed ({error})") from None


def _write_manifest(folder: Path, source: str, manifest: dict[str, PageRecord]) -> None:
    data = {"format": FORMAT, "version": 1, "source": source,
            "pages": {url: asdict(manifest[url]) for url in sorted(manifest)}}
    try:
        write_atomic(folder / MANIFEST, json.dumps(data, indent=1, sort_keys=True) + "\n")
    except OSError as error:
        raise FetchError(f"{folder}: cannot write the fetch manifest ({error.strerror})") \
            from None


# --------------------------------------------------------------------------- HTTP


class _Session:
    """Requests made politely: robots.txt per host, a delay per host, retries with backoff."""

    def __init__(self, client: httpx.Client, rules: Politeness,
                 sleep: Callable[[float], None]):
        self.client, self.rules, self.sleep = client, rules, sleep
        self.robots: dict[str, urllib.robotparser.RobotFileParser | None] = {}
        self.last: dict[str, float] = {}
        self.requests = 0

    def allowed(self, url: str) -> bool:
        robots = self._robots(url)
        return robots is None or robots.can_fetch(self.rules.user_agent, url)

    def get(self, url: str, headers: dict[str, str] | None = None) -> httpx.Response:
        """GET with retries; the last failure is raised (httpx error or a bad status)."""
        for attempt in range(self.rules.retries + 1):
            self._wait(url)
            try:
                response = self.client.get(url, headers=headers or {})
                response.read()
            except _TRANSIENT:
                if attempt == self.rules.retries:
                    raise
                self.sleep(self.rules.backoff * 2 ** attempt)
                continue
            if response.status_code not in RETRY_STATUSES or attempt == self.rules.retries:
                return response
            asked = _retry_after(response)
            self.sleep(asked if asked is not None else self.rules.backoff * 2 ** attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    def _wait(self, url: str) -> None:
        host = urlsplit(url).netloc
        robots = self.robots.get(host)
        delay = max(self.rules.delay, float(robots.crawl_delay(self.rules.user_agent) or 0)
                    if robots else 0.0)
        if host in self.last:
            remaining = self.last[host] + delay - time.monotonic()
            if remaining > 0:
                self.sleep(remaining)
        self.last[host] = time.monotonic()
        self.requests += 1

    def _robots(self, url: str) -> urllib.robotparser.RobotFileParser | None:
        parts = urlsplit(url)
        if parts.netloc not in self.robots:
            self.robots[parts.netloc] = None  # while reading it, and when there is none
            with contextlib.suppress(httpx.HTTPError):
                response = self.get(f"{parts.scheme}://{parts.netloc}/robots.txt")
                if response.status_code == 200:
                    parser = urllib.robotparser.RobotFileParser()
                    parser.parse(response.text.splitlines())
                    self.robots[parts.netloc] = parser
        return self.robots[parts.netloc]


def _retry_after(response: httpx.Response) -> float | None:
    """The seconds a ``Retry-After`` header asks for (a number or an HTTP date), capped."""
    value = response.headers.get("Retry-After", "").strip()
    if not value:
        return None
    if value.isdigit():
        return min(float(value), MAX_RETRY_AFTER)
    with contextlib.suppress(TypeError, ValueError):
        when = email.utils.parsedate_to_datetime(value)
        return max(0.0, min((when - datetime.now(timezone.utc)).total_seconds(),
                            MAX_RETRY_AFTER))
    return None


# --------------------------------------------------------------------------- the listing


def _listing(source: str, session: _Session) -> Iterator[str]:
    """The post URLs a feed or sitemap (URL or file) lists, in its order."""
    if re.match(r"https?://", source):
        try:
            response = session.get(source)
        except httpx.HTTPError as error:
            raise FetchError(f"{source}: cannot read the listing ({_one_line(error)})") \
                from None
        if response.status_code != 200:
            raise FetchError(f"{source}: cannot read the listing (HTTP {response.status_code})")
        body, base = response.content, str(response.url)
    else:
        try:
            body, base = Path(source).read_bytes(), ""
        except OSError as error:
            raise FetchError(f"{source}: cannot read the listing ({error.strerror})") \
                from None
    yield from parse_listing(body, base, session)


def parse_listing(body: bytes, base: str = "", session: _Session | None = None
                  ) -> Iterator[str]:
    """The URLs of a sitemap (a sitemap index's sitemaps read through ``session``) or a feed.

    Examples
    --------
    >>> list(parse_listing(b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    ...                    b'<url><loc>https://pytorch.org/blog/a/</loc></url></urlset>'))
    ['https://pytorch.org/blog/a/']
    """
    root = _xml_root(body)
    if root is not None and root.tag in (f"{_SITEMAP}urlset", "urlset"):
        yield from (loc.strip() for loc in _locs(root))
        return
    if root is not None and root.tag in (f"{_SITEMAP}sitemapindex", "sitemapindex"):
        for sitemap in _locs(root):
            if session is not None:
                response = session.get(urljoin(base, sitemap.strip()))
                if response.status_code == 200:
                    yield from parse_listing(response.content, str(response.url), session)
        return
    import feedparser

    feed = feedparser.parse(body)
    for entry in feed.entries:
        link = entry.get("link")
        if link:
            yield urljoin(base, link)


def _xml_root(body: bytes) -> ET.Element | None:
    if b"<!DOCTYPE" in body[:1000] or b"<!ENTITY" in body:
        return None  # no entities: a sitemap has none, and expanding them is unsafe
    try:
        return ET.fromstring(body)
    except ET.ParseError:
        return None


def _locs(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter()
            if element.tag in (f"{_SITEMAP}loc", "loc") and element.text]


# --------------------------------------------------------------------------- pages


def _fetch_page(url: str, folder: Path, manifest: dict[str, PageRecord], session: _Session,
                summary: FetchSummary) -> str:
    """Fetch one page into ``folder``; record it; return the outcome's name."""
    if not session.allowed(url):
        summary.disallowed.append(url)
        return "disallowed by robots.txt"
    known = manifest.get(url)
    headers = {}
    if known is not None and (folder / known.file).exists():
        if known.etag:
            headers["If-None-Match"] = known.etag
        if known.last_modified:
            headers["If-Modified-Since"] = known.last_modified
    try:
        response = session.get(url, headers)
    except httpx.HTTPError as error:
        summary.failed.append((url, _one_line(error)))
        return "failed"
    if response.status_code == 304 and headers:
        summary.unchanged.append(url)
        return "unchanged"
    if response.status_code != 200:
        summary.failed.append((url, f"HTTP {response.status_code}"))
        return "failed"
    digest = hashlib.sha256(response.content).hexdigest()
    if known is not None and known.sha256 == digest and (folder / known.file).exists():
        summary.unchanged.append(url)
        return "unchanged"
    name = known.file if known is not None else _file_name(url, manifest)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / name, response.content)  # as served: the reader finds the charset
    except OSError as error:
        raise FetchError(f"{folder / name}: cannot write the page ({error.strerror})") from None
    manifest[url] = PageRecord(
        url, name, digest, datetime.now(timezone.utc).isoformat(timespec="seconds"),
        response.headers.get("ETag"), response.headers.get("Last-Modified"),
        str(response.url) if str(response.url) != url else None)
    (summary.changed if known is not None else summary.new).append(url)
    return "changed" if known is not None else "new"


def _file_name(url: str, manifest: dict[str, PageRecord]) -> str:
    """``<slug>.html`` from the URL's last path part; a short hash when that name is taken."""
    path = urlsplit(url).path.rstrip("/")
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", path.rsplit("/", 1)[-1]).strip("-.") or "index"
    slug = slug.removesuffix(".html")
    name = f"{slug}.html"
    if name in {record.file for record in manifest.values()}:
        name = f"{slug}-{hashlib.sha256(url.encode()).hexdigest()[:8]}.html"
    return name


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
