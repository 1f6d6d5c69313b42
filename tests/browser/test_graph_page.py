"""The graph view in headless Chromium, offline: counts, clicks, filters, search, bad input, XSS."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from ptkg.build import build
from ptkg.graph import node_id, read_graph, write_graph
from ptkg.render import LABEL_NODE_LIMIT, evidence_url, render_graph

pytestmark = pytest.mark.browser

URL_18 = "https://pytorch.org/blog/pytorch-1.8-released/"
VISIBLE_NODES = ("ptkg.nodes.get({filter: (n) => !n.hidden})"
                 ".map((n) => ptkg.data.nodes[n.id].id).sort()")
VISIBLE_EDGES = ("ptkg.edges.get({filter: (e) => !e.hidden}).map((e) => {"
                 " const d = ptkg.data.edges[e.id];"
                 " return [ptkg.data.nodes[d.from].id, d.type, ptkg.data.nodes[d.to].id]; })")


@pytest.fixture(scope="module")
def graph_page(tmp_path_factory, handmade_graph_file) -> Path:
    """The page of the hand-made graph (``tests/data/graph.json``)."""
    path = tmp_path_factory.mktemp("pages") / "graph.html"
    render_graph(read_graph(handmade_graph_file), path)
    return path


def index_of(run, node: str) -> int:
    return run.evaluate("(id) => ptkg.data.nodes.findIndex((n) => n.id === id)", node)


def screen_point(run, canvas_point: dict) -> tuple[float, float]:
    """Where a point of the network's canvas is on the screen."""
    return tuple(run.evaluate("""(p) => {
        const d = ptkg.network.canvasToDOM(p);
        const r = document.getElementById("network").getBoundingClientRect();
        return [d.x + r.left, d.y + r.top]; }""", canvas_point))


def freeze_and_center(run, point: dict) -> None:
    """Physics off (with the page's own box), the view centered on ``point``."""
    if run.page.is_checked("#physics"):
        run.page.click("#physics")
    run.evaluate("(p) => ptkg.network.moveTo({position: p, scale: 1.6, animation: false})", point)
    run.page.wait_for_timeout(100)


def visible(run) -> tuple[set[str], set[tuple[str, str, str]]]:
    nodes = set(run.evaluate(VISIBLE_NODES))
    edges = {tuple(e) for e in run.evaluate(VISIBLE_EDGES)}
    counts = run.page.locator("#counts")
    assert int(counts.get_attribute("data-visible-nodes")) == len(nodes)
    assert int(counts.get_attribute("data-visible-edges")) == len(edges)
    return nodes, edges


def test_graph_page_offline_shows_every_node_and_edge(open_page, graph_page, handmade_graph):
    run = open_page(graph_page)
    nodes, edges = handmade_graph.number_of_nodes(), handmade_graph.number_of_edges()
    counts = run.page.locator("#counts")
    assert counts.inner_text() == f"{nodes} nodes · {edges} edges"
    assert (int(counts.get_attribute("data-nodes")), int(counts.get_attribute("data-edges"))) == (
        nodes, edges)
    assert run.evaluate("[ptkg.nodes.length, ptkg.edges.length]") == [nodes, edges]
    shown, drawn = visible(run)
    assert shown == set(handmade_graph)
    assert drawn == {(u, k, v) for u, v, k in handmade_graph.edges(keys=True)}
    legend = run.evaluate("""[...document.querySelectorAll('#label-filters label')].map((l) =>
        [l.querySelector('input').value, Number(l.querySelector('.count').textContent)])""")
    labels = Counter(d["label"] for _, d in handmade_graph.nodes(data=True))
    assert dict(legend) == labels
    types = run.evaluate("""[...document.querySelectorAll('#type-filters label')].map((l) =>
        [l.querySelector('input').value, Number(l.querySelector('.count').textContent)])""")
    assert dict(types) == Counter(k for _, _, k in handmade_graph.edges(keys=True))
    run.screenshot("graph")
    run.assert_clean()


def test_graph_page_click_on_node_shows_evidence(open_page, graph_page, handmade_graph):
    run = open_page(graph_page)
    release = node_id("Release", "PyTorch 1.8")
    i = index_of(run, release)
    position = run.evaluate("(i) => ptkg.network.getPosition(i)", i)
    freeze_and_center(run, position)
    run.page.mouse.click(*screen_point(run, run.evaluate("(i) => ptkg.network.getPosition(i)",
                                                         i)))
    panel = run.page.locator("#panel")
    assert panel.is_visible()
    assert panel.get_attribute("data-kind") == "node"
    assert panel.locator("h2").inner_text() == "PyTorch 1.8"
    edge = handmade_graph.edges[release, node_id("Feature", "torch.fx"), "INTRODUCES"]
    evidence = panel.locator(".evidence", has_text=edge["evidence"][0])
    assert evidence.count() >= 1
    assert evidence.first.locator("a").get_attribute("href") == evidence_url(
        URL_18, edge["evidence"][0])
    assert evidence.first.locator("a").get_attribute("href").startswith(URL_18 + "#:~:text=")
    assert evidence.first.locator("a").get_attribute("rel") == "noopener noreferrer"
    run.screenshot("graph-node-panel")
    run.assert_clean()


def test_graph_page_click_on_edge_shows_evidence(open_page, graph_page, handmade_graph):
    run = open_page(graph_page)
    start, end = node_id("Release", "PyTorch 1.8"), node_id("Feature", "torch.fx")
    j = run.evaluate("""([u, v]) => ptkg.data.edges.findIndex((e) =>
        ptkg.data.nodes[e.from].id === u && ptkg.data.nodes[e.to].id === v
        && e.type === "INTRODUCES")""", [start, end])
    # only this relationship type drawn, so that no other edge crosses the middle of this one
    for box in run.page.locator("#type-filters input").all():
        if box.get_attribute("value") != "INTRODUCES":
            box.uncheck()
    middle = run.evaluate("""(j) => { const e = ptkg.data.edges[j];
        const a = ptkg.network.getPosition(e.from), b = ptkg.network.getPosition(e.to);
        return {x: (a.x + b.x) / 2, y: (a.y + b.y) / 2}; }""", j)
    assert run.evaluate("(j) => ptkg.data.edges[j].curve", j) == 0
    freeze_and_center(run, middle)
    run.page.mouse.click(*screen_point(run, middle))
    panel = run.page.locator("#panel")
    assert (panel.get_attribute("data-kind"), panel.get_attribute("data-index")) == ("edge",
                                                                                     str(j))
    assert panel.locator("h2").inner_text() == "INTRODUCES [Beta]"
    data = handmade_graph.edges[start, end, "INTRODUCES"]
    assert panel.locator(".evidence").all_inner_texts()[0].startswith(data["evidence"][0])
    assert panel.locator(".evidence a").first.get_attribute("href") == evidence_url(
        data["sources"][0], data["evidence"][0])
    run.screenshot("graph-edge-panel")
    run.assert_clean()


@pytest.mark.parametrize("kind, value", [("label", "Feature"), ("type", "MENTIONS"),
                                         ("release", "PyTorch 1.8")])
def test_graph_page_filters_hide_what_they_should(open_page, graph_page, handmade_graph, kind,
                                                  value):
    run = open_page(graph_page)
    graph = handmade_graph
    all_edges = {(u, k, v) for u, v, k in graph.edges(keys=True)}
    release = None
    if kind == "label":
        run.page.locator(f"#label-filters input[value='{value}']").uncheck()
        nodes = {n for n, d in graph.nodes(data=True) if d["label"] != value}
        edges = {(u, k, v) for u, k, v in all_edges if u in nodes and v in nodes}
    elif kind == "type":
        run.page.locator(f"#type-filters input[value='{value}']").uncheck()
        nodes = set(graph)
        edges = {e for e in all_edges if e[1] != value}
    else:
        run.page.select_option("#release-filter", label=value)
        release = node_id("Release", value)
        nodes = {release, *graph.predecessors(release), *graph.successors(release)}
        edges = {(u, k, v) for u, k, v in all_edges if u in nodes and v in nodes}
    # the nodes the filter leaves without an edge (that had one) go too
    linked = {n for u, _, v in edges for n in (u, v)}
    orphans = {n for n in nodes if n not in linked and n != release and graph.degree(n)}
    nodes -= orphans
    assert len(nodes) < graph.number_of_nodes() or len(edges) < len(all_edges)
    assert visible(run) == (nodes, edges)
    counts = run.page.locator("#counts").inner_text()
    hidden = f"; {len(orphans)} left without edges hidden" if orphans else ""
    assert counts.endswith(f"(showing {len(nodes)} · {len(edges)}{hidden})")
    run.screenshot(f"graph-filter-{kind}")
    run.page.click("#reset")
    assert visible(run) == (set(graph), all_edges)
    run.assert_clean()


@pytest.mark.parametrize("query, name", [("torch.fx", "torch.fx"), ("TORCH.FX", "torch.fx"),
                                         ("zeroredundancyoptimizer", "ZeroRedundancyOptimizer"),
                                         ("Torch_XLA", "PyTorch/XLA")])
def test_graph_page_search_jumps_and_highlights(open_page, graph_page, query, name):
    run = open_page(graph_page)
    run.page.fill("#search", query)
    run.page.press("#search", "Enter")
    panel = run.page.locator("#panel")
    assert panel.locator("h2").inner_text() == name
    i = run.evaluate("(n) => ptkg.data.nodes.findIndex((x) => x.name === n)", name)
    assert run.evaluate("ptkg.network.getSelectedNodes()") == [i]
    assert run.evaluate("(i) => ptkg.nodes.get(i).borderWidth", i) == 5
    assert run.evaluate("ptkg.state.highlighted") == i
    run.screenshot("graph-search")
    run.page.fill("#search", "no such thing at all")
    run.page.press("#search", "Enter")
    assert run.page.locator("#status").inner_text() == "no such name"
    run.assert_clean()


def test_graph_page_focus_opens_on_the_center(open_page, tmp_path, handmade_graph):
    path = tmp_path / "focus.html"
    summary = render_graph(handmade_graph, path, focus="PyTorch 1.8", depth=1)
    run = open_page(path)
    assert run.page.locator("#counts").get_attribute("data-nodes") == str(
        summary.counts["nodes"])
    run.page.wait_for_selector("#panel:not([hidden])")
    assert run.page.locator("#panel h2").inner_text() == "PyTorch 1.8"
    assert run.page.locator("#subtitle").inner_text() == "focus: PyTorch 1.8 (depth 1)"
    run.screenshot("graph-focus")
    run.assert_clean()


@pytest.mark.parametrize("options, message", [
    ({}, "This graph is empty: it has no nodes."),
    ({"min_mentions": 5}, "Nothing to show: no node is left by this selection"),
])
def test_graph_page_empty_says_so(open_page, tmp_path, options, message):
    path = tmp_path / "empty.html"
    graph = nx.MultiDiGraph()
    if options:
        graph.add_node("Feature:x", label="Feature", name="x", mentions=1, aliases=[])
    render_graph(graph, path, **options)
    run = open_page(path)
    assert run.page.locator("#empty").is_visible()
    assert run.page.locator("#empty").inner_text().startswith(message)
    assert run.page.locator("#counts").inner_text() == "0 nodes · 0 edges"
    run.screenshot("graph-empty" if not options else "graph-empty-selection")
    run.assert_clean()


def test_graph_page_big_graph_starts_still(open_page, tmp_path):
    """A big page draws the precomputed positions, physics off, and says labels need a zoom."""
    n = 400
    graph = nx.MultiDiGraph()
    for i in range(n):
        graph.add_node(f"Feature:f{i}", label="Feature", name=f"f{i}", mentions=i % 7,
                       aliases=[])
    for i in range(1, n):
        graph.add_edge(f"Feature:f{i // 3}", f"Feature:f{i}", key="BASED_ON", type="BASED_ON")
    path = tmp_path / "big.html"
    assert render_graph(graph, path).physics is False
    run = open_page(path)
    assert n > LABEL_NODE_LIMIT
    assert not run.page.is_checked("#physics")
    assert run.page.locator("#notice").inner_text().startswith(
        f"{n} nodes: labels show when you zoom in")
    run.page.wait_for_timeout(300)
    moved = run.evaluate("""() => { const p = ptkg.network.getPositions();
        return ptkg.data.nodes.filter((n, i) => p[i].x !== n.x || p[i].y !== n.y).length; }""")
    assert moved == 0
    assert run.evaluate("window.ptkgReadyAt") < 5000
    run.screenshot("graph-big")
    run.assert_clean()


# --------------------------------------------------------------------------- XSS (issue 4)

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def crafted_graph(tmp_path_factory) -> Path:
    """A graph built from a crafted post, plus hand-made nodes with markup and a bad URL."""
    folder = tmp_path_factory.mktemp("crafted")
    rows = [{"url": f"https://pytorch.org/blog/crafted-{SCRIPT}/",
             "title": f"{SCRIPT} PyTorch 1.8 {IMG}", "date": "2021-03-04",
             "text": (f"PyTorch 1.8 release notes.\n\n(Beta) torch.fx {IMG}\n"
                      f"PyTorch 1.8 adds torch.fx, which runs on CUDA </script>{SCRIPT} <!-- "
                      "and \u2028 a line separator.\n"
                      "PyTorch 1.8 supports ROCm <b onmouseover=alert(3)>bold</b>.")}]
    posts = folder / "posts.jsonl"
    posts.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf8")
    path = folder / "graph.json"
    build([posts], path, model="blank", cache=False)
    graph = read_graph(path)
    graph.add_node(node_id("Feature", IMG), label="Feature", name=IMG, mentions=3,
                   aliases=[SCRIPT, "</script><!--"])
    graph.add_node("Post:javascript:alert(4)", label="Post", name=f"bad {SCRIPT}",
                   url="javascript:alert(4)")
    graph.add_edge(node_id("Release", "PyTorch 1.8"), node_id("Feature", IMG), key="INTRODUCES",
                   type="INTRODUCES", sources=["javascript:alert(4)"], evidence=[IMG], count=1,
                   rules=[SCRIPT], stability="Beta")
    write_graph(graph, path)
    return path


def assert_inert(run, scripts: int) -> None:
    """No element, handler or link that the data could have made; only the page's scripts."""
    assert run.evaluate("document.querySelectorAll('img, iframe, b, object, embed').length") == 0
    assert run.evaluate("document.querySelectorAll('script:not([type])').length") == scripts
    assert run.evaluate("""[...document.querySelectorAll('*')].filter((e) =>
        [...e.attributes].some((a) => a.name.startsWith('on'))).length""") == 0
    assert run.evaluate("""[...document.querySelectorAll('a')].filter((a) =>
        !/^https?:/.test(a.getAttribute('href'))).length""") == 0


def test_issue4_crafted_post_shows_as_text_in_graph_page(open_page, tmp_path, crafted_graph):
    """Issue 4: markup in a post shows as text and runs nothing; bad URLs are no links."""
    path = tmp_path / "crafted.html"
    render_graph(read_graph(crafted_graph), path)
    run = open_page(path)
    texts = []
    for i in range(run.evaluate("ptkg.data.nodes.length")):
        run.evaluate("(i) => ptkg.showNode(i)", i)
        texts.append(run.page.locator("#panel").inner_text())
        assert_inert(run, 3)  # vis-network, common.js, graph.js
    for j in range(run.evaluate("ptkg.data.edges.length")):
        run.evaluate("(j) => ptkg.showEdge(j)", j)
        texts.append(run.page.locator("#panel").inner_text())
        assert_inert(run, 3)  # vis-network, common.js, graph.js
    text = "\n".join(texts)
    assert SCRIPT in text and IMG in text and "<b onmouseover=alert(3)>bold</b>" in text
    assert "</script><!--" in text
    bad = run.evaluate("""(name) => ptkg.data.edges.findIndex((e) =>
        ptkg.data.nodes[e.to].name === name)""", IMG)
    run.evaluate("(j) => ptkg.showEdge(j)", bad)
    assert run.page.locator("#panel span.source").all_inner_texts() == [f"bad {SCRIPT}"]
    assert run.page.locator("#panel a").count() == 0
    run.page.fill("#search", IMG)
    run.page.press("#search", "Enter")
    assert run.page.locator("#panel h2").inner_text() == IMG
    run.page.wait_for_timeout(300)  # an <img onerror> would have fired by now
    run.screenshot("graph-xss")
    run.assert_clean()
