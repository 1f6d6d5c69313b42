"""The timeline view in headless Chromium, offline: lanes, dots, lines, the panel, XSS."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from ptkg.graph import node_id, read_graph
from ptkg.render import evidence_url, render_timeline

pytestmark = pytest.mark.browser

IMG = "<img src=x onerror=alert(1)>"


def svg_texts(locator) -> list[str]:
    """The text of SVG <text> elements, without their <title> (SVG has no innerText)."""
    return locator.evaluate_all("(els) => els.map((e) => e.firstChild.textContent)")


@pytest.fixture(scope="module")
def timeline_page(tmp_path_factory, handmade_graph_file) -> Path:
    """The timeline of the hand-made graph (``tests/data/graph.json``)."""
    path = tmp_path_factory.mktemp("pages") / "timeline.html"
    render_timeline(read_graph(handmade_graph_file), path)
    return path


def test_timeline_page_shows_every_release_and_introduction(open_page, timeline_page,
                                                            handmade_graph):
    run = open_page(timeline_page)
    releases = [d for _, d in handmade_graph.nodes(data=True) if d["label"] == "Release"]
    introduces = [(u, v) for u, v, k in handmade_graph.edges(keys=True) if k == "INTRODUCES"]
    counts = run.page.locator("#counts")
    assert int(counts.get_attribute("data-releases")) == len(releases)
    assert int(counts.get_attribute("data-cells")) == len(introduces)
    assert run.page.locator("circle.cell").count() == len(introduces)
    assert run.page.locator("text.version").count() == len(releases)
    lanes = run.page.locator(".lane .corner h2").all_inner_texts()
    assert Counter(lanes) == Counter({d["library"] for d in releases})
    assert lanes[0] == "PyTorch"
    versions = svg_texts(run.page.locator(".lane").first.locator("text.version"))
    pytorch = sorted((d for d in releases if d["library"] == "PyTorch"),
                     key=lambda d: [int(p) for p in d["version"].split(".")])
    assert versions == [d["version"] for d in pytorch]
    run.screenshot("timeline")
    run.assert_clean()


def test_timeline_page_click_on_dot_shows_evidence(open_page, timeline_page, handmade_graph):
    run = open_page(timeline_page)
    start, end = node_id("Release", "PyTorch 1.8"), node_id("Feature", "torch.fx")
    j = run.evaluate("""([u, v]) => ptkg.data.edges.findIndex((e) =>
        ptkg.data.nodes[e.from].id === u && ptkg.data.nodes[e.to].id === v)""", [start, end])
    run.page.locator(f"circle.cell[data-edge='{j}']").click()
    panel = run.page.locator("#panel")
    assert panel.get_attribute("data-kind") == "edge"
    edge = handmade_graph.edges[start, end, "INTRODUCES"]
    assert panel.locator("h2").inner_text() == f"INTRODUCES [{edge['stability']}]"
    assert panel.locator(".evidence").all_inner_texts()[0].startswith(edge["evidence"][0])
    assert panel.locator(".evidence a").first.get_attribute("href") == evidence_url(
        edge["sources"][0], edge["evidence"][0])
    run.page.locator("text.feature", has_text="torch.fx").first.click()
    assert panel.locator("h2").inner_text() == "torch.fx"
    run.screenshot("timeline-panel")
    run.assert_clean()


def test_timeline_page_library_filter(open_page, timeline_page):
    run = open_page(timeline_page)
    run.page.select_option("#library-filter", label="PyTorch")
    visible = [s for s in run.page.locator(".lane").all() if s.is_visible()]
    assert [s.get_attribute("data-library") for s in visible] == ["PyTorch"]
    run.assert_clean()


def test_timeline_page_feature_across_releases_is_one_line(open_page, tmp_path):
    """A feature introduced by two releases: one row, two dots, one line through them."""
    graph = nx.MultiDiGraph()
    graph.add_node(node_id("Library", "PyTorch"), label="Library", name="PyTorch", aliases=[],
                   mentions=3)
    for version in ["1.9", "1.10", "1.11"]:
        graph.add_node(node_id("Release", f"PyTorch {version}"), label="Release",
                       name=f"PyTorch {version}", library="PyTorch", version=version,
                       aliases=[], mentions=1)
        graph.add_edge(node_id("Library", "PyTorch"), node_id("Release", f"PyTorch {version}"),
                       key="HAS_RELEASE", type="HAS_RELEASE")
    graph.add_node(node_id("Feature", IMG), label="Feature", name=IMG, aliases=[], mentions=2)
    for version, stability in [("1.9", "Beta"), ("1.11", "Stable")]:
        graph.add_edge(node_id("Release", f"PyTorch {version}"), node_id("Feature", IMG),
                       key="INTRODUCES", type="INTRODUCES", stability=stability,
                       sources=["javascript:alert(2)"], evidence=[f"{IMG} is {stability}"],
                       count=1, rules=["r"])
    path = tmp_path / "line.html"
    render_timeline(graph, path)
    run = open_page(path)
    assert [t.removeprefix("⚑ ") for t in svg_texts(run.page.locator("text.feature"))] == [IMG]
    assert run.page.locator("line.through").count() == 1
    fills = [c.get_attribute("fill") for c in run.page.locator("circle.cell").all()]
    assert fills == ["#e08214", "#1a9850"]
    run.page.locator("circle.cell").last.click()
    assert run.page.locator("#panel .evidence").inner_text().startswith(f"{IMG} is Stable")
    assert run.evaluate("document.querySelectorAll('img, a').length") == 0
    run.page.wait_for_timeout(200)
    run.screenshot("timeline-line")
    run.assert_clean()


def test_timeline_page_empty_says_so(open_page, tmp_path):
    path = tmp_path / "empty.html"
    render_timeline(nx.MultiDiGraph(), path)
    run = open_page(path)
    assert run.page.locator("#empty").inner_text().startswith("This graph has no releases")
    run.assert_clean()
