"""``ptkg fetch``: against a real HTTP server on 127.0.0.1 serving fixture pages.

The server (a ``ThreadingHTTPServer`` in a thread) serves a feed, a sitemap, a robots.txt and
pages; it answers conditional requests with 304, can answer a 429 first, redirect, or die in
the middle of a body, and it logs every request. No test touches the internet.
"""

from __future__ import annotations

import hashlib
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ptkg.fetch import MANIFEST, USER_AGENT, FetchError, Politeness, fetch, read_manifest
from ptkg.graph import read_graph

FAST = Politeness(delay=0.0, retries=2, backoff=0.01, timeout=5.0)


class Site:
    """What the server serves: path -> page, and what it has seen."""

    def __init__(self) -> None:
        self.pages: dict[str, bytes] = {}
        self.redirects: dict[str, str] = {}
        self.throttle: dict[str, int] = {}  # path -> how many 429s to answer first
        self.broken: dict[str, int] = {}  # path -> how many bodies to cut short first
        self.robots = "User-agent: *\nDisallow: /private/\n"
        self.log: list[tuple[str, dict[str, str]]] = []
        self.lock = threading.Lock()

    def add_post(self, slug: str, title: str) -> None:
        self.pages[f"/blog/{slug}/"] = (
            f"<html><head><title>{title}</title><link rel='canonical' "
            f"href='https://pytorch.org/blog/{slug}/'></head><body><article><h1>{title}</h1>"
            f"<p>We are excited to announce {title}.</p></article></body></html>").encode()

    def feed(self, base: str) -> bytes:
        items = "".join(f"<item><title>{path}</title><link>{base}{path}</link></item>"
                        for path in sorted(self.pages) if path.startswith(("/blog/", "/old/",
                                                                           "/private/")))
        return (f'<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>'
                f"{items}</channel></rss>").encode()


def make_handler(site: Site):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # quiet
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            with site.lock:
                site.log.append((self.path, dict(self.headers)))
            base = f"http://{self.headers['Host']}"
            if self.path == "/robots.txt":
                return self.send(200, site.robots.encode(), "text/plain")
            if self.path == "/feed/":
                return self.send(200, site.feed(base), "application/rss+xml")
            if self.path in site.redirects:
                self.send_response(301)
                self.send_header("Location", site.redirects[self.path])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            if site.throttle.get(self.path, 0) > 0:
                site.throttle[self.path] -= 1
                self.send_response(429)
                self.send_header("Retry-After", "3")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            body = site.pages.get(self.path)
            if body is None:
                return self.send(404, b"not found", "text/plain")
            etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return None
            if site.broken.get(self.path, 0) > 0:
                site.broken[self.path] -= 1
                self.send_response(200)
                self.send_header("Content-Length", str(len(body) + 500))
                self.end_headers()
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                return None
            return self.send(200, body, "text/html; charset=utf-8", etag)

        def send(self, status: int, body: bytes, kind: str, etag: str | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            if etag:
                self.send_header("ETag", etag)
            self.end_headers()
            self.wfile.write(body)

    return Handler


@pytest.fixture
def site() -> Iterator[tuple[Site, str]]:
    """A loopback server with three posts; yields it and its base URL."""
    state = Site()
    for slug in ("pytorch-1.8-released", "pytorch-1.9-released", "pytorch-1.10-released"):
        state.add_post(slug, slug.replace("-", " "))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(state))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def page_requests(site: Site) -> list[str]:
    return [path for path, _ in site.log if path.startswith(("/blog/", "/old/", "/private/"))]


def test_fetch_saves_every_listed_page_with_a_manifest(site, tmp_path):
    state, base = site
    summary = fetch(f"{base}/feed/", tmp_path, politeness=FAST)
    assert summary.listed == 3 and len(summary.new) == 3 and not summary.failed
    assert sorted(p.name for p in tmp_path.glob("*.html")) == [
        "pytorch-1.10-released.html", "pytorch-1.8-released.html", "pytorch-1.9-released.html"]
    manifest = read_manifest(tmp_path)
    record = manifest[f"{base}/blog/pytorch-1.8-released/"]
    page = (tmp_path / record.file).read_bytes()
    assert record.sha256 == hashlib.sha256(page).hexdigest()
    assert page == state.pages["/blog/pytorch-1.8-released/"]
    assert record.etag and record.fetched_at
    data = json.loads((tmp_path / MANIFEST).read_text(encoding="utf8"))
    assert data["format"] == "ptkg-fetch" and data["source"] == f"{base}/feed/"


def test_fetch_rerun_downloads_nothing(site, tmp_path):
    """Issue 11: a second run sends conditional requests and downloads nothing."""
    state, base = site
    fetch(f"{base}/feed/", tmp_path, politeness=FAST)
    before = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("*.html")}
    state.log.clear()
    summary = fetch(f"{base}/feed/", tmp_path, politeness=FAST)
    assert summary.downloaded == 0 and len(summary.unchanged) == 3
    assert all(headers.get("If-None-Match") for path, headers in state.log
               if path.startswith("/blog/"))
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("*.html")} == before


def test_fetch_after_one_new_post_downloads_only_it(site, tmp_path):
    state, base = site
    fetch(f"{base}/feed/", tmp_path, politeness=FAST)
    state.add_post("pytorch-2-12-release-blog", "PyTorch 2.12")
    summary = fetch(f"{base}/feed/", tmp_path, politeness=FAST)
    assert summary.new == [f"{base}/blog/pytorch-2-12-release-blog/"]
    assert summary.changed == [] and len(summary.unchanged) == 3


def test_fetch_changed_page_is_saved_again(site, tmp_path):
    state, base = site
    fetch(f"{base}/feed/", tmp_path, politeness=FAST)
    state.pages["/blog/pytorch-1.9-released/"] += b"<!-- edited -->"
    summary = fetch(f"{base}/feed/", tmp_path, politeness=FAST)
    assert summary.changed == [f"{base}/blog/pytorch-1.9-released/"]
    assert (tmp_path / "pytorch-1.9-released.html").read_bytes().endswith(b"<!-- edited -->")


def test_fetch_is_polite(site, tmp_path):
    """robots.txt is read and obeyed, the User-Agent names ptkg, the delay is kept."""
    state, base = site
    state.add_post("x", "x")
    state.pages["/private/secret/"] = state.pages.pop("/blog/x/")
    waits: list[float] = []
    summary = fetch(f"{base}/feed/", tmp_path, sleep=waits.append,
                    politeness=Politeness(delay=0.5, retries=0, timeout=5.0))
    assert summary.disallowed == [f"{base}/private/secret/"]
    assert "/private/secret/" not in page_requests(state)
    assert {headers["User-Agent"] for _, headers in state.log} == {USER_AGENT}
    assert state.log[0][0] == "/robots.txt" or state.log[1][0] == "/robots.txt"
    assert waits and all(0 < wait <= 0.5 for wait in waits)


def test_fetch_retries_a_429_honouring_retry_after(site, tmp_path):
    state, base = site
    state.throttle["/blog/pytorch-1.9-released/"] = 2
    waits: list[float] = []
    summary = fetch(f"{base}/feed/", tmp_path, politeness=FAST, sleep=waits.append)
    assert len(summary.new) == 3 and not summary.failed
    assert page_requests(state).count("/blog/pytorch-1.9-released/") == 3
    assert waits.count(3.0) == 2  # Retry-After: 3, twice (the recorder does not wait)


def test_fetch_follows_a_redirect(site, tmp_path):
    state, base = site
    state.redirects["/old/pytorch-1-8/"] = "/blog/pytorch-1.8-released/"
    state.pages["/old/pytorch-1-8/"] = b""  # listed in the feed; the server redirects it
    summary = fetch(f"{base}/feed/", tmp_path, politeness=FAST)
    record = read_manifest(tmp_path)[f"{base}/old/pytorch-1-8/"]
    assert record.final_url == f"{base}/blog/pytorch-1.8-released/"
    assert not summary.failed


def test_fetch_page_that_dies_mid_body_is_retried(site, tmp_path):
    state, base = site
    state.broken["/blog/pytorch-1.10-released/"] = 1
    summary = fetch(f"{base}/feed/", tmp_path, politeness=FAST)
    assert not summary.failed and len(summary.new) == 3
    page = (tmp_path / "pytorch-1.10-released.html").read_bytes()
    assert page == state.pages["/blog/pytorch-1.10-released/"]


def test_fetch_page_that_always_dies_is_reported_and_the_others_kept(site, tmp_path):
    state, base = site
    state.broken["/blog/pytorch-1.10-released/"] = 99
    summary = fetch(f"{base}/feed/", tmp_path, politeness=FAST)
    assert [url for url, _ in summary.failed] == [f"{base}/blog/pytorch-1.10-released/"]
    assert len(summary.new) == 2 and not (tmp_path / "pytorch-1.10-released.html").exists()
    assert not list(tmp_path.glob(".*.tmp"))


def test_fetch_resumes_after_a_partial_run(site, tmp_path):
    """What a killed fetch wrote is kept: a rerun asks only for what is new to it."""
    state, base = site
    fetch(f"{base}/feed/", tmp_path, politeness=FAST, limit=1)
    summary = fetch(f"{base}/feed/", tmp_path, politeness=FAST)
    assert len(summary.unchanged) == 1 and len(summary.new) == 2


def test_fetch_interrupted_keeps_what_it_saved(site, tmp_path):
    """Ctrl-C after the first page: the manifest names it, and the rerun asks only for it
    conditionally, downloading the two others."""
    state, base = site

    def interrupt(url, outcome):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        fetch(f"{base}/feed/", tmp_path, politeness=FAST, progress=interrupt)
    assert len(read_manifest(tmp_path)) == 1
    summary = fetch(f"{base}/feed/", tmp_path, politeness=FAST)
    assert len(summary.unchanged) == 1 and len(summary.new) == 2


def test_fetch_reads_a_sitemap_and_a_saved_listing(site, tmp_path):
    state, base = site
    sitemap = ('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
               f"<url><loc>{base}/blog/pytorch-1.9-released/</loc></url></urlset>")
    saved = tmp_path / "sitemap.xml"
    saved.write_text(sitemap, encoding="utf8")
    summary = fetch(str(saved), tmp_path / "pages", politeness=FAST)
    assert summary.new == [f"{base}/blog/pytorch-1.9-released/"]


@pytest.mark.parametrize("listing", [b"<html>not a feed</html>", b"\x00\x01"])
def test_fetch_listing_with_no_post_is_an_error(tmp_path, listing):
    path = tmp_path / "listing.xml"
    path.write_bytes(listing)
    with pytest.raises(FetchError, match="lists no post"):
        fetch(str(path), tmp_path / "out", politeness=FAST)


def test_fetch_unreachable_listing_is_one_line(tmp_path):
    with pytest.raises(FetchError, match=r"^http://127\.0\.0\.1:9/feed/: cannot read the listing"):
        fetch("http://127.0.0.1:9/feed/", tmp_path,
              politeness=Politeness(delay=0, retries=0, timeout=1.0))


def test_fetch_rejects_a_sitemap_with_entities(tmp_path):
    bomb = (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]>'
            b'<urlset><url><loc>&a;</loc></url></urlset>')
    path = Path(tmp_path / "bomb.xml")
    path.write_bytes(bomb)
    with pytest.raises(FetchError, match="lists no post"):
        fetch(str(path), tmp_path / "out", politeness=FAST)


# --------------------------------------------------------------------------- the commands

WORDPRESS_PAGE = Path(__file__).parent / "data" / "corpus" / "html" / "pytorch2-2.wordpress.html"


def ptkg(*args):
    from click.testing import CliRunner

    from ptkg.cli import main

    return CliRunner().invoke(main, [str(arg) for arg in args])


def article(version: str) -> bytes:
    """A release post long enough for an article extractor to take it for one."""
    paragraphs = "".join(
        f"<p>{text}</p>" for text in (
            f"We are excited to announce the release of PyTorch {version}. This release is "
            "composed of many commits from contributors all over the world.",
            "The release adds improvements to the compiler, to distributed training and to "
            "mobile deployment, along with many fixes to the documentation.",
            "Along with this release we are publishing updates to the domain libraries; as "
            "always, we welcome feedback from the community on the forums and on GitHub."))
    return (f"<html><head><title>PyTorch {version} released</title></head><body><article>"
            f"<h1>PyTorch {version} released</h1>{paragraphs}</article></body></html>").encode()


def test_fetch_command_prints_what_it_did(site, tmp_path):
    state, base = site
    state.broken["/blog/pytorch-1.10-released/"] = 99
    result = ptkg("fetch", f"{base}/feed/", "--out", tmp_path, "--delay", 0, "--retries", 0)
    assert result.exit_code == 0, result.output
    assert "3 posts listed, 2 new, 0 changed, 0 unchanged, 1 failed" in result.output
    assert f"failed {base}/blog/pytorch-1.10-released/: " in result.output
    rerun = ptkg("fetch", f"{base}/feed/", "--out", tmp_path, "--delay", 0, "--retries", 0)
    assert "0 new, 0 changed, 2 unchanged, 1 failed" in rerun.output


def test_fetch_command_fails_when_no_page_can_be_had(site, tmp_path):
    state, base = site
    for path in list(state.pages):
        state.broken[path] = 99
    result = ptkg("fetch", f"{base}/feed/", "--out", tmp_path, "--delay", 0, "--retries", 0)
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == f"Error: {base}/feed/: no page could be fetched"


def test_sync_builds_the_graph_and_then_extracts_only_the_new_post(site, tmp_path):
    """Issue 11: a sync after one new post downloads and extracts that post alone."""
    state, base = site
    for version in ("1.8", "1.9", "1.10"):
        state.pages[f"/blog/pytorch-{version}-released/"] = article(version)
    pages, graph = tmp_path / "pages", tmp_path / "graph.json"
    args = ("sync", f"{base}/feed/", "--out", pages, "--graph", graph, "--delay", 0,
            "--model", "blank")
    first = ptkg(*args)
    assert first.exit_code == 0, first.output
    assert "3 new" in first.output and "3 posts (0 from the cache)" in first.output
    state.pages["/blog/pytorch2-2/"] = WORDPRESS_PAGE.read_bytes()
    second = ptkg(*args)
    assert second.exit_code == 0, second.output
    assert "1 new, 0 changed, 3 unchanged" in second.output
    assert "4 posts (3 from the cache)" in second.output
    built = read_graph(graph)
    introduced = [feature for release, feature, kind in built.edges(keys=True)
                  if kind == "INTRODUCES" and release == "Release:PyTorch 2.2"]
    assert len(introduced) >= 5


def test_sync_applies_the_project_file(site, tmp_path):
    """A sync rebuilds the graph with the user's project file, as a build does."""
    state, base = site
    state.pages["/blog/pytorch-1.8-released/"] = article("1.8")
    project = tmp_path / "ptkg.toml"
    project.write_text('[[name]]\nlabel = "Platform"\nname = "GitHub"\n', encoding="utf8")
    pages, graph = tmp_path / "pages", tmp_path / "graph.json"
    result = ptkg("sync", f"{base}/feed/", "--out", pages, "--graph", graph, "--delay", 0,
                  "--model", "blank", "--project", project)
    assert result.exit_code == 0, result.output
    plain = tmp_path / "plain.json"
    assert ptkg("build", pages, "--graph", plain, "--model", "blank").exit_code == 0
    with_project = tmp_path / "with.json"
    assert ptkg("build", pages, "--graph", with_project, "--model", "blank",
                "--project", project).exit_code == 0
    assert graph.read_bytes() == with_project.read_bytes() != plain.read_bytes()
    assert "Platform:GitHub" in read_graph(graph)
    bad = ptkg("sync", f"{base}/feed/", "--out", pages, "--graph", graph, "--delay", 0,
               "--project", tmp_path / "missing.toml")
    assert bad.exit_code != 0 and "missing.toml" in bad.output
