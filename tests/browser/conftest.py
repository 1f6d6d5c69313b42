"""Fixtures of the browser tests: Debian's Chromium, driven by Playwright, with no network.

Chromium is ``/usr/bin/chromium`` (``apt-get install chromium``; ``PTKG_CHROMIUM`` names another
binary); the Python package ``playwright`` (the ``test`` extra) drives it over its DevTools
pipe and never downloads a browser. Without Chromium these tests skip, except in CI
(``CI=true``), where they fail.

Every page is opened from a ``file://`` URL with the network cut three ways: the context is
offline, every request that is not ``file://`` is aborted by a route, and Chromium resolves no
host name. :class:`PageRun` records every request, console error, page error and dialog, and
:meth:`PageRun.assert_clean` asserts that the page made one request (itself) and nothing else
went wrong. Screenshots go to ``tests/artifacts/`` (git-ignored); :meth:`PageRun.doc_screenshot`
also writes the README's screenshots to ``docs/`` when ``PTKG_DOCS_SCREENSHOTS=1``::

    PTKG_DOCS_SCREENSHOTS=1 .venv/bin/pytest -q -p no:cacheprovider tests/browser -k docs

``corpus_graph_file`` is the graph of the development corpus (``tests/data/corpus/
pytorch_blog.jsonl``, 66 posts), built once per session with the blank model (about 10 s), for
the tests that measure the pages at the size a user sees; ``PTKG_CORPUS_GRAPH=PATH`` uses a
graph built beforehand instead (the README's screenshots use the English model's)::

    ptkg build tests/data/corpus/pytorch_blog.jsonl --graph /tmp/corpus.json --jobs 2
    PTKG_CORPUS_GRAPH=/tmp/corpus.json PTKG_DOCS_SCREENSHOTS=1 .venv/bin/pytest tests/browser
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("PTKG_CHROMIUM", "/usr/bin/chromium")
#: The flags this machine needs (see the env notes): no sandbox as root, no GPU, no QUIC, no
#: background traffic; and no host name resolves, so nothing can leave even by mistake.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND"]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
DOCS = Path(__file__).resolve().parents[2] / "docs"
CORPUS = Path(__file__).resolve().parents[1] / "data" / "corpus" / "pytorch_blog.jsonl"
VIEWPORT = {"width": 1400, "height": 900}


def _unavailable(message: str):
    pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session."""
    if not Path(CHROMIUM).exists():
        _unavailable(f"no Chromium at {CHROMIUM}: apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed: pip install -e '.[test]'")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                              headless=True)
        yield chromium
        chromium.close()


@dataclass
class PageRun:
    """An open page and everything it did that a test may want to see."""

    page: object
    url: str
    requests: list[str] = field(default_factory=list)
    aborted: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def evaluate(self, script: str, arg=None):
        return self.page.evaluate(script, arg)

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path

    def doc_screenshot(self, name: str) -> Path:
        """A screenshot for the README: ``tests/artifacts/NAME.png``, and ``docs/NAME.png``
        when ``PTKG_DOCS_SCREENSHOTS=1``."""
        path = self.screenshot(name)
        if os.environ.get("PTKG_DOCS_SCREENSHOTS") == "1":
            (DOCS / path.name).write_bytes(path.read_bytes())
        return path

    def assert_clean(self) -> None:
        """One request (the page itself), nothing aborted or failed, no error, no dialog."""
        assert self.requests == [self.url]
        assert self.aborted == []
        assert self.failed == []
        assert self.console_errors == []
        assert self.page_errors == []
        assert self.dialogs == []


@pytest.fixture
def open_page(browser):
    """``open_page(path)``: open an HTML file offline, wait for its first stable frame."""
    contexts = []

    def open_(path: Path, *, ready_timeout: float = 30_000) -> PageRun:
        context = browser.new_context(viewport=VIEWPORT, offline=True)
        contexts.append(context)
        page = context.new_page()
        run = PageRun(page, Path(path).resolve().as_uri())

        def route(request_route):
            if request_route.request.url.startswith("file://"):
                request_route.continue_()
            else:
                run.aborted.append(request_route.request.url)
                request_route.abort()

        def dialog(d):
            run.dialogs.append(f"{d.type}: {d.message}")
            d.dismiss()

        page.route("**/*", route)
        page.on("request", lambda r: run.requests.append(r.url))
        page.on("requestfailed", lambda r: run.failed.append(r.url))
        page.on("console", lambda m: m.type == "error" and run.console_errors.append(m.text))
        page.on("pageerror", lambda e: run.page_errors.append(str(e)))
        page.on("dialog", dialog)
        page.goto(run.url)
        # a selector, not wait_for_function: that evaluates a string, which the page's CSP forbids
        page.wait_for_selector("body[data-ready='true']", state="attached", timeout=ready_timeout)
        return run

    yield open_
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def corpus_graph_file(tmp_path_factory) -> Path:
    """The development corpus's graph, built once with the blank model (rules alone); or the
    graph file ``PTKG_CORPUS_GRAPH`` names (one ``ptkg build`` made, e.g. with the English
    model for the README's screenshots)."""
    from ptkg.build import build

    given = os.environ.get("PTKG_CORPUS_GRAPH")
    if given:
        return Path(given)
    path = tmp_path_factory.mktemp("corpus") / "corpus.json"
    build([CORPUS], path, model="blank", cache=False)
    return path
