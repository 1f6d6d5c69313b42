"""Issue 14 in headless Chromium, offline: readable focused graphs, the feature × release
matrix, links to the sentence, the release filter, the timeline's order, noise flags, the
"what's new" report; each count the page shows checked against the graph.

Label overlap is measured from what vis-network drew: each visible node's label box
(``labelModule.size``, canvas pixels) mapped to the screen; two boxes overlap when they share
more than half a pixel each way. The README's screenshots come from here
(``PTKG_DOCS_SCREENSHOTS=1``, see ``conftest.py``).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import networkx as nx
import pytest

from ptkg.graph import node_id, read_graph
from ptkg.lifecycle import release_diff
from ptkg.matrix import render_matrix
from ptkg.render import (
    LABEL_NODE_LIMIT,
    evidence_url,
    render_graph,
    render_timeline,
    suspect_reasons,
    text_fragment,
)
from ptkg.report import whats_new, write_report

pytestmark = pytest.mark.browser

IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>alert(1)</script>"

#: Every visible node's drawn label box on the screen, and what overlaps.
LABELS_JS = """() => {
  const net = ptkg.network, scale = net.getScale();
  const r = document.getElementById("network").getBoundingClientRect();
  const boxes = [], undrawn = [];
  for (const id of Object.keys(net.body.nodes)) {
    const node = net.body.nodes[id];
    if (!ptkg.state.nodeVisible[Number(id)]) continue;
    const label = node.labelModule;
    if (!label.visible()) { undrawn.push(Number(id)); continue; }
    const s = label.size;
    const a = net.canvasToDOM({x: s.left, y: s.top});
    const b = net.canvasToDOM({x: s.left + s.width, y: s.top + s.height});
    boxes.push([Number(id), a.x, a.y, b.x, b.y]);
  }
  const pairs = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const p = boxes[i], q = boxes[j];
      const w = Math.min(p[3], q[3]) - Math.max(p[1], q[1]);
      const h = Math.min(p[4], q[4]) - Math.max(p[2], q[2]);
      if (w > 0.5 && h > 0.5) pairs.push([ptkg.data.nodes[p[0]].text, ptkg.data.nodes[q[0]].text]);
    }
  }
  const outside = boxes.filter((b) => b[1] < -0.5 || b[2] < -0.5 || b[3] > r.width + 0.5
                                      || b[4] > r.height + 0.5).length;
  return {labels: boxes.length, undrawn: undrawn.length, overlaps: pairs.slice(0, 5),
          overlapping: pairs.length, outside, fontPx: 13 * scale, scale};
}"""
RING = "ptkg.nodes.get({filter: (n) => n.borderWidth === 5}).map((n) => n.id)"


def measure_labels(run) -> dict:
    run.page.wait_for_timeout(50)
    return run.evaluate(LABELS_JS)


def node_index(run, node: str) -> int:
    return run.evaluate("(id) => ptkg.data.nodes.findIndex((n) => n.id === id)", node)


def click_node(run, i: int) -> None:
    point = run.evaluate("""(i) => { const p = ptkg.network.getPosition(i);
        const d = ptkg.network.canvasToDOM(p);
        const r = document.getElementById("network").getBoundingClientRect();
        return [d.x + r.left, d.y + r.top]; }""", i)
    run.page.mouse.click(*point)


@pytest.fixture(scope="module")
def corpus_graph(corpus_graph_file) -> nx.MultiDiGraph:
    return read_graph(corpus_graph_file)


@pytest.fixture(scope="module")
def graph_page(tmp_path_factory, handmade_graph_file) -> Path:
    path = tmp_path_factory.mktemp("views") / "graph.html"
    render_graph(read_graph(handmade_graph_file), path)
    return path


# --------------------------------------------------------------------------- 1. focused views


@pytest.mark.parametrize("focus, depth", [("torch.compile", 2), ("PyTorch 1.8", 2), ("MPS", 2),
                                          ("PyTorch 2.0", 1)])
def test_issue14_focused_graph_labels_do_not_overlap(open_page, tmp_path, corpus_graph, focus,
                                                     depth):
    """On the corpus: typed relations only, at most 150 nodes, every label drawn at the zoom
    the page opens with, inside the view, and no two label boxes overlapping."""
    path = tmp_path / "focus.html"
    summary = render_graph(corpus_graph, path, focus=focus, depth=depth)
    run = open_page(path)
    nodes = summary.counts["nodes"]
    assert nodes <= LABEL_NODE_LIMIT
    counts = run.page.locator("#counts")
    assert (int(counts.get_attribute("data-nodes")), int(counts.get_attribute("data-edges"))) == (
        nodes, summary.counts["edges"])
    assert "Post" not in run.evaluate("ptkg.data.nodes.map((n) => n.label)")
    assert set(run.evaluate("ptkg.data.edges.map((e) => e.type)")).isdisjoint(
        {"MENTIONS", "ANNOUNCES"})
    figures = measure_labels(run)
    assert figures["overlaps"] == [] and figures["overlapping"] == 0
    assert (figures["labels"], figures["undrawn"], figures["outside"]) == (nodes, 0, 0)
    assert run.page.locator("#notice").inner_text() == summary.notice
    if focus == "torch.compile":
        run.doc_screenshot("graph-focus")
    run.assert_clean()


def test_issue14_150_nodes_labels_do_not_overlap(open_page, tmp_path):
    """A page of exactly LABEL_NODE_LIMIT nodes with long names: every label drawn, none
    overlapping (independent of what the extraction finds in the corpus)."""
    graph = nx.MultiDiGraph()
    words = ["Distributed", "checkpoint", "Tensor", "Parallel", "compile", "kernel", "Mobile",
             "quantization", "API", "backend"]
    for i in range(LABEL_NODE_LIMIT):
        name = " ".join(words[(i + k) % len(words)] for k in range(1 + i % 4)) + f" {i}"
        graph.add_node(f"Feature:{name}", label="Feature", name=name, mentions=i % 13,
                       aliases=[])
    names = sorted(graph)
    for i, node in enumerate(names[1:], start=1):
        graph.add_edge(names[(i - 1) // 3], node, key="BASED_ON", type="BASED_ON")
    path = tmp_path / "150.html"
    render_graph(graph, path)
    run = open_page(path)
    figures = measure_labels(run)
    assert figures["overlapping"] == 0, figures["overlaps"]
    assert (figures["labels"], figures["undrawn"], figures["outside"]) == (LABEL_NODE_LIMIT, 0, 0)
    run.assert_clean()


def test_issue14_node_cap_says_so(open_page, tmp_path, handmade_graph):
    path = tmp_path / "cap.html"
    summary = render_graph(handmade_graph, path, focus="PyTorch 1.8", depth=3, max_nodes=8)
    run = open_page(path)
    assert run.page.locator("#counts").get_attribute("data-nodes") == "8"
    notice = run.page.locator("#notice")
    assert notice.is_visible()
    assert notice.inner_text() == summary.notice
    assert notice.inner_text().startswith(f"Showing 8 of {summary.counts['total']} nodes")
    run.assert_clean()


def test_issue14_filters_hide_the_orphans_they_make(open_page, graph_page, handmade_graph):
    run = open_page(graph_page)
    for kind in ("MENTIONS", "ANNOUNCES"):
        run.page.locator(f"#type-filters input[value='{kind}']").uncheck()
    posts = {n for n, d in handmade_graph.nodes(data=True) if d["label"] == "Post"}
    typed = [(u, v) for u, v, k in handmade_graph.edges(keys=True)
             if k not in ("MENTIONS", "ANNOUNCES")]
    linked = {n for edge in typed for n in edge}
    orphans = {n for n in handmade_graph if n not in linked}
    assert posts <= orphans  # a post has only MENTIONS and ANNOUNCES
    shown = set(run.evaluate("ptkg.nodes.get({filter: (n) => !n.hidden})"
                             ".map((n) => ptkg.data.nodes[n.id].id)"))
    assert shown == set(handmade_graph) - orphans
    assert int(run.page.locator("#counts").get_attribute("data-orphans")) == len(orphans)
    assert f"{len(orphans)} left without edges hidden" in run.page.locator("#counts").inner_text()
    run.page.locator("#orphans").uncheck()
    assert run.evaluate("ptkg.nodes.get({filter: (n) => !n.hidden}).length") == len(
        handmade_graph)
    run.page.locator("#orphans").check()
    run.page.locator("#label-filters input[value='Release']").uncheck()
    shown = set(run.evaluate("ptkg.nodes.get({filter: (n) => !n.hidden})"
                             ".map((n) => ptkg.data.nodes[n.id].id)"))
    kept = {(u, v) for u, v in typed if handmade_graph.nodes[u]["label"] != "Release"
            and handmade_graph.nodes[v]["label"] != "Release"}
    assert shown == {n for edge in kept for n in edge}
    run.assert_clean()


def test_issue14_one_highlight_at_a_time(open_page, graph_page):
    run = open_page(graph_page)
    fx = node_index(run, node_id("Feature", "torch.fx"))
    run.page.fill("#search", "torch.fx")
    run.page.press("#search", "Enter")
    assert run.evaluate(RING) == [fx]
    run.evaluate("ptkg.network.fit({animation: false})")
    other = node_index(run, node_id("Hardware", "MPS"))
    click_node(run, other)
    assert run.page.locator("#panel h2").inner_text() == "MPS"
    assert run.evaluate(RING) == [other]
    run.page.locator("#panel .jump").first.click()  # a node named in the panel
    ring = run.evaluate(RING)
    assert len(ring) == 1 and ring != [other]
    run.page.mouse.click(300, 860)  # empty canvas, bottom left
    assert run.evaluate(RING) == []
    run.assert_clean()


def test_issue14_release_filter_by_library_then_version(open_page, graph_page, handmade_graph):
    run = open_page(graph_page)
    releases: dict[str, list[dict]] = {}
    for _, d in handmade_graph.nodes(data=True):
        if d["label"] == "Release":
            releases.setdefault(d["library"], []).append(d)
    libraries = sorted(releases, key=lambda name: (name != "PyTorch", name.casefold()))
    labels = run.page.locator("#release-library option").all_inner_texts()
    assert labels == ["Every library"] + [f"{lib} ({len(releases[lib])})" for lib in libraries]
    groups = run.evaluate("""[...document.querySelectorAll('#release-filter optgroup')].map((g) =>
        [g.label, [...g.querySelectorAll('option')].map((o) => o.textContent)])""")

    def in_order(lib):
        return [d["name"] for d in sorted(releases[lib], key=lambda d: [
            int(p) for p in d["version"].split(".")])]
    assert groups == [[lib, in_order(lib)] for lib in libraries]
    run.page.select_option("#release-library", label=f"PyTorch ({len(releases['PyTorch'])})")
    assert run.page.locator("#release-filter option").all_inner_texts() == [
        "All PyTorch releases", *in_order("PyTorch")]
    run.page.select_option("#release-filter", label="PyTorch 1.9")
    release = node_id("Release", "PyTorch 1.9")
    near = {release, *handmade_graph.predecessors(release), *handmade_graph.successors(release)}
    shown = set(run.evaluate("ptkg.nodes.get({filter: (n) => !n.hidden})"
                             ".map((n) => ptkg.data.nodes[n.id].id)"))
    assert shown <= near and release in shown
    run.page.select_option("#release-library", label="torchvision (1)")  # another library:
    assert run.evaluate("ptkg.state.release") is None                    # the filter is off
    assert run.evaluate("ptkg.nodes.get({filter: (n) => !n.hidden}).length") == len(
        handmade_graph)
    run.screenshot("graph-release-filter")
    run.assert_clean()


# --------------------------------------------------------------------------- 3. links


SENTENCES = [
    ("(Prototype) ZeroRedundancyOptimizer** - Based on and in partnership with the Microsoft "
     "DeepSpeed team, this feature helps reduce per-process memory footprint by sharding "
     "optimizer states across all participating processes in the ```ProcessGroup``` gang.",
     "(Prototype) <strong>ZeroRedundancyOptimizer</strong> - Based on and in partnership with "
     "the Microsoft DeepSpeed team, this feature helps reduce per-process memory footprint by "
     "sharding optimizer states across all participating processes in the "
     "<code>ProcessGroup</code> gang."),
    ("CUDA-support in RPC & TensorPipe, 50% faster", "CUDA-support in RPC &amp; TensorPipe, 50% "
     "faster"),
    (r"TorchScript, deprecated in [PyTorch 2.10\](https://pytorch.org/blog/x/), is gone.",
     'TorchScript, deprecated in <a href="https://pytorch.org/blog/x/">PyTorch 2.10</a>, is '
     "gone."),
]


@pytest.mark.parametrize("sentence, rendered", SENTENCES,
                         ids=["long", "syntax-characters", "escaped-link"])
def test_issue14_text_fragment_scrolls_to_the_sentence(browser, tmp_path, sentence, rendered):
    """The fragment a page links with finds the sentence on a page that renders the post's
    Markdown (emphasis and code gone, '-', '&', ',' and '%' kept)."""
    filler = "".join(f"<p>Paragraph {i}: other things, nothing to see.</p>" for i in range(150))
    post = tmp_path / "post.html"
    post.write_text(f"<!DOCTYPE html><html><body>{filler}<h3 id='target'>{rendered}</h3>"
                    f"{filler}</body></html>", encoding="utf8")
    fragment = text_fragment(sentence)
    assert "-" not in fragment.partition("=")[2] and "&" not in fragment
    link = evidence_url("https://pytorch.org/blog/x/", sentence)
    assert link == "https://pytorch.org/blog/x/#:~:" + fragment
    context = browser.new_context(viewport={"width": 1000, "height": 700}, offline=True)
    try:
        page = context.new_page()
        page.goto(f"{post.as_uri()}#:~:{fragment}")
        page.wait_for_timeout(400)
        top = page.evaluate("document.getElementById('target').getBoundingClientRect().top")
        assert page.evaluate("window.scrollY") > 1000
        assert 0 <= top < 700
        page.goto(post.as_uri())  # a control: without the fragment the page stays on top
        page.goto(f"{post.as_uri()}#:~:text=no%20such%20words%20here")
        page.wait_for_timeout(200)
        assert page.evaluate("window.scrollY") == 0
    finally:
        context.close()
    words = [unquote(term) for term in fragment.removeprefix("text=").split(",")]
    shown = " ".join(re.sub(r"<[^>]+>", "", rendered).replace("&amp;", "&").split())
    assert all(w in shown for w in words)


# --------------------------------------------------------------------------- 2. the matrix


@pytest.fixture(scope="module")
def matrix_page(tmp_path_factory, handmade_graph_file) -> Path:
    path = tmp_path_factory.mktemp("views") / "matrix.html"
    render_matrix(read_graph(handmade_graph_file), path)
    return path


def pytorch_rows(graph) -> dict[str, dict[str, set[str]]]:
    """Row name -> release name -> the types of the PyTorch release's edges to it."""
    rows: dict[str, dict[str, set[str]]] = {}
    for u, v, key in graph.edges(keys=True):
        if key in ("INTRODUCES", "DEPRECATES", "REMOVES") and graph.nodes[u].get(
                "library") == "PyTorch":
            rows.setdefault(graph.nodes[v]["name"], {}).setdefault(
                graph.nodes[u]["name"], set()).add(key)
    return rows


def test_issue14_matrix_counts_and_cells_match_the_graph(open_page, matrix_page, handmade_graph):
    run = open_page(matrix_page)
    expected = pytorch_rows(handmade_graph)
    counts = run.page.locator("#counts")
    releases = sorted((d for _, d in handmade_graph.nodes(data=True)
                       if d["label"] == "Release" and d["library"] == "PyTorch"),
                      key=lambda d: [int(p) for p in d["version"].split(".")])
    assert counts.get_attribute("data-library") == "PyTorch"
    assert int(counts.get_attribute("data-rows")) == len(expected)
    assert int(counts.get_attribute("data-releases")) == len(releases)
    assert int(counts.get_attribute("data-cells")) == sum(len(r) for r in expected.values())
    versions = run.page.locator("thead .release .version").all_inner_texts()
    assert versions == [d["version"] for d in releases]
    drawn = run.evaluate("""() => {
        const versions = [...document.querySelectorAll('thead .release .version')]
            .map((v) => v.textContent);
        return [...document.querySelectorAll('tbody tr')].map((tr) => [
            ptkg.data.nodes[Number(tr.dataset.node)].name,
            [...tr.querySelectorAll('.cell')].map((c) => [versions[Number(c.dataset.column)],
                c.dataset.stability, c.dataset.mark, c.style.background])]); }""")
    colors = run.evaluate("ptkg.data.styles.stability")
    for name, cells in drawn:
        assert {f"PyTorch {v}" for v, *_ in cells} == set(expected[name])
        for version, stability, mark, background in cells:
            types = expected[name][f"PyTorch {version}"]
            edge = handmade_graph.edges[node_id("Release", f"PyTorch {version}"),
                                        next(n for n, d in handmade_graph.nodes(data=True)
                                             if d["name"] == name), "INTRODUCES"] \
                if "INTRODUCES" in types else {}
            assert stability == (edge.get("stability") or "")
            assert mark == ("removed" if "REMOVES" in types else
                            "deprecated" if "DEPRECATES" in types else "")
            if "INTRODUCES" in types:
                assert background.replace(" ", "") == _rgb(colors[stability])
    zero = dict(drawn)["ZeroRedundancyOptimizer"]
    assert [(v, s) for v, s, *_ in zero] == [("1.8", "Prototype"), ("1.9", "Beta"),
                                             ("1.10", "Stable")]
    assert [(v, m) for v, _, m, _ in dict(drawn)["macOS x86"]] == [("2.2", "deprecated")]
    run.screenshot("matrix-handmade")
    run.assert_clean()


def _rgb(color: str) -> str:
    color = color.lstrip("#")
    return "rgb({},{},{})".format(*(int(color[i:i + 2], 16) for i in (0, 2, 4)))


def test_issue14_matrix_cell_opens_its_evidence(open_page, matrix_page, handmade_graph):
    run = open_page(matrix_page)
    row = run.page.locator("tbody tr", has_text="ZeroRedundancyOptimizer")
    row.locator(".cell[data-stability='Beta']").click()
    panel = run.page.locator("#panel")
    assert panel.is_visible() and panel.get_attribute("data-kind") == "cell"
    assert panel.locator("h2").inner_text() == "ZeroRedundancyOptimizer in PyTorch 1.9"
    edge = handmade_graph.edges[node_id("Release", "PyTorch 1.9"),
                                node_id("Feature", "ZeroRedundancyOptimizer"), "INTRODUCES"]
    assert panel.locator(".evidence").first.inner_text().startswith(edge["evidence"][0])
    assert panel.locator(".evidence a").first.get_attribute("href") == evidence_url(
        edge["sources"][0], edge["evidence"][0])
    run.page.locator("tbody tr", has_text="macOS x86").locator(".cell").click()
    assert panel.locator(".relation-head").first.inner_text().startswith("PyTorch 2.2 → "
                                                                        "DEPRECATES")
    run.page.select_option("#library", index=1)  # another library: the panel is cleared
    assert panel.is_hidden()
    run.assert_clean()


def test_issue14_matrix_sorts_and_filters(open_page, matrix_page, handmade_graph):
    run = open_page(matrix_page)

    def names():
        return run.evaluate("[...document.querySelectorAll('tbody tr')].map((tr) =>"
                            " ptkg.data.nodes[Number(tr.dataset.node)].name)")
    everything = names()
    run.page.select_option("#sort", "name")
    assert names() == sorted(everything, key=str.lower)
    run.page.select_option("#sort", "releases")
    assert names()[0] == "ZeroRedundancyOptimizer"
    run.page.fill("#find", "torch.")
    assert set(names()) == {n for n in everything if "torch." in n.lower()}
    assert run.page.locator("#counts").inner_text().endswith(
        f"(showing {len(names())} of {len(everything)})")
    run.page.fill("#find", "")
    run.page.locator("#deprecated-only").check()
    assert names() == ["macOS x86"]
    run.page.locator("#deprecated-only").uncheck()
    for box in run.page.locator("#stability-filters input").all():
        if box.get_attribute("value") != "Stable":
            box.uncheck()
    stable = {handmade_graph.nodes[v]["name"] for u, v, k, d in
              handmade_graph.edges(keys=True, data=True) if k == "INTRODUCES"
              and d.get("stability") == "Stable"
              and handmade_graph.nodes[u]["library"] == "PyTorch"}
    assert set(names()) == stable | {"macOS x86"}  # rows without an introduction stay
    run.assert_clean()


def test_issue14_matrix_crafted_text_is_inert(open_page, tmp_path):
    graph = nx.MultiDiGraph()
    graph.add_node(node_id("Library", "PyTorch"), label="Library", name="PyTorch", aliases=[])
    graph.add_node(node_id("Release", "PyTorch 2.0"), label="Release", name="PyTorch 2.0",
                   library="PyTorch", version="2.0", aliases=[])
    graph.add_edge(node_id("Library", "PyTorch"), node_id("Release", "PyTorch 2.0"),
                   key="HAS_RELEASE", type="HAS_RELEASE")
    graph.add_node(node_id("Feature", IMG), label="Feature", name=IMG, aliases=[SCRIPT],
                   mentions=1)
    graph.add_edge(node_id("Release", "PyTorch 2.0"), node_id("Feature", IMG), key="INTRODUCES",
                   type="INTRODUCES", stability="Beta", stated=[SCRIPT],
                   sources=["javascript:alert(2)"], evidence=[f"{IMG} {SCRIPT}"], count=1,
                   rules=["r"])
    path = tmp_path / "crafted.html"
    render_matrix(graph, path)
    run = open_page(path)
    run.page.locator(".cell").click()
    run.page.locator("tbody .name").click()
    run.page.wait_for_timeout(200)
    text = run.page.locator("body").inner_text()
    assert IMG in text
    assert run.evaluate("document.querySelectorAll('img, a, iframe').length") == 0
    assert run.evaluate("document.querySelectorAll('script:not([type])').length") == 2
    run.assert_clean()


# --------------------------------------------------------------------------- 4. the timeline


@pytest.fixture(scope="module")
def timeline_page(tmp_path_factory, handmade_graph_file) -> Path:
    path = tmp_path_factory.mktemp("views") / "timeline.html"
    render_timeline(read_graph(handmade_graph_file), path)
    return path


def test_issue14_timeline_newest_first(open_page, timeline_page):
    run = open_page(timeline_page)

    def first_lane():
        lane = run.page.locator(".lane").first
        versions = lane.locator("text.version").evaluate_all(
            "(els) => els.map((e) => [e.firstChild.textContent, e.getAttribute('x')])")
        names = lane.locator("text.feature").evaluate_all(
            "(els) => els.map((e) => [e.firstChild.textContent, e.getAttribute('y')])")
        by_x = [v for v, _ in sorted(versions, key=lambda v: float(v[1]))]
        by_y = [n for n, _ in sorted(names, key=lambda n: float(n[1]))]
        return by_x, by_y
    versions, rows = first_lane()
    assert versions == ["1.5", "1.8", "1.9", "1.10", "1.12", "2.2", "2.8"]
    run.page.locator("#newest-first").check()
    newest, newest_rows = first_lane()
    assert newest == versions[::-1]
    assert newest_rows[0] == "Control Flow Operator Library"  # the 2.8 feature on top
    assert sorted(newest_rows) == sorted(rows)
    run.assert_clean()


def test_issue14_timeline_sticky_heads_and_panel_cleared(open_page, tmp_path, corpus_graph):
    path = tmp_path / "timeline.html"
    render_timeline(corpus_graph, path, newest_first=True)
    run = open_page(path)
    assert run.page.is_checked("#newest-first")
    run.page.select_option("#library-filter", label="PyTorch")
    run.page.locator(".lane[data-library='PyTorch'] circle.cell").first.click()
    assert run.page.locator("#panel").is_visible()
    rows = run.page.locator(".lane[data-library='PyTorch'] text.feature").count()
    assert rows > 40
    run.evaluate("document.getElementById('timeline').scrollTop = 600")
    run.page.wait_for_timeout(50)
    heads, box = run.evaluate("""[document.querySelector(".lane[data-library='PyTorch'] .heads")
        .getBoundingClientRect().top,
        document.getElementById('timeline').getBoundingClientRect().top]""")
    assert abs(heads - box) < 1  # the release heads stay at the top while the rows scroll
    run.page.select_option("#library-filter", index=2)
    assert run.page.locator("#panel").is_hidden()  # the panel spoke of the other library
    assert run.page.locator("circle.cell.selected").count() == 0
    run.page.select_option("#library-filter", label="PyTorch")
    run.evaluate("document.getElementById('timeline').scrollTop = 0")
    run.page.mouse.move(5, 5)
    run.doc_screenshot("timeline")
    run.assert_clean()


def test_issue14_timeline_flags_noise_rows(open_page, tmp_path):
    graph = nx.MultiDiGraph()
    graph.add_node(node_id("Library", "PyTorch"), label="Library", name="PyTorch", aliases=[])
    graph.add_node(node_id("Release", "PyTorch 1.12"), label="Release", name="PyTorch 1.12",
                   library="PyTorch", version="1.12", aliases=[])
    graph.add_edge(node_id("Library", "PyTorch"), node_id("Release", "PyTorch 1.12"),
                   key="HAS_RELEASE", type="HAS_RELEASE")
    for name, mentions in [("implement", 1), ("to suggest", 1), ("torch.fx", 1),
                           ("autograd", 60)]:
        graph.add_node(node_id("Feature", name), label="Feature", name=name, aliases=[],
                       mentions=mentions)
        graph.add_edge(node_id("Release", "PyTorch 1.12"), node_id("Feature", name),
                       key="INTRODUCES", type="INTRODUCES", sources=["https://x/"],
                       evidence=[f"We {name}."], count=1, rules=["r"])
    flagged = sorted(d["name"] for _, d in graph.nodes(data=True)
                     if d["label"] == "Feature" and suspect_reasons(d))
    assert flagged == ["implement", "to suggest"]
    path = tmp_path / "noise.html"
    assert render_timeline(graph, path).counts["suspect"] == 2
    run = open_page(path)
    assert run.page.locator("#counts").get_attribute("data-suspect") == "2"
    assert run.page.locator("#suspect-count").inner_text() == "2"
    names = run.page.locator("text.feature.suspect").evaluate_all(
        "(els) => els.map((e) => e.firstChild.textContent)")
    assert sorted(names) == ["⚑ implement", "⚑ to suggest"]
    run.page.locator("text.feature.suspect").first.click()
    report = run.page.locator("#panel .report-line").input_value()
    assert report.startswith("ptkg: suspect Feature \"") and "in PyTorch" in report
    run.page.locator("#suspect-only").check()
    assert run.page.locator("text.feature").count() == 2
    run.assert_clean()


# --------------------------------------------------------------------------- 5. the report


def test_issue14_report_page_is_the_diffs(open_page, tmp_path, handmade_graph):
    """Each release's counts are what release_diff says against the release before it."""
    report = whats_new(handmade_graph, "PyTorch 1.8")
    path = tmp_path / "report.html"
    write_report(report, path, "html")
    run = open_page(path)
    sections = run.evaluate("""[...document.querySelectorAll('section.release')].map((s) =>
        [s.dataset.release, Number(s.dataset.new), Number(s.dataset.promoted),
         Number(s.dataset.demoted), Number(s.dataset.deprecated), Number(s.dataset.announced)])""")
    expected = []
    for previous, release in zip(["PyTorch 1.8", "PyTorch 1.9", "PyTorch 1.10", "PyTorch 1.12",
                                  "PyTorch 2.2"],
                                 ["PyTorch 1.9", "PyTorch 1.10", "PyTorch 1.12", "PyTorch 2.2",
                                  "PyTorch 2.8"], strict=True):
        diff = release_diff(handmade_graph, previous, release)
        node = node_id("Release", release)
        deprecated = sum(1 for _, _, k in handmade_graph.out_edges(node, keys=True)
                         if k == "DEPRECATES")
        announced = sum(1 for _, _, k in handmade_graph.in_edges(node, keys=True)
                        if k == "ANNOUNCES")
        expected.append([release, len(diff.new), len(diff.promoted), len(diff.demoted),
                         deprecated, announced])
    assert sections == expected
    assert run.page.locator("section[data-release='PyTorch 1.12'] .unannounced").inner_text() \
        .startswith("No post in the graph announces PyTorch 1.12")
    links = run.evaluate("[...document.querySelectorAll('li a')].map((a) => a.href)")
    assert links and all("#:~:text=" in link for link in links)
    run.screenshot("report")
    run.assert_clean()


# --------------------------------------------------------------------------- docs screenshots


def test_issue14_docs_screenshots_of_the_corpus(open_page, tmp_path, corpus_graph):
    """The matrix and the report of the corpus, as the README shows them."""
    path = tmp_path / "matrix.html"
    render_matrix(corpus_graph, path, library="PyTorch")
    run = open_page(path)
    assert run.page.locator("#counts").get_attribute("data-library") == "PyTorch"
    # the rows of the 1.8-1.10 promotions in view, no panel: the whole width of the matrix
    run.evaluate("""() => { const rows = [...document.querySelectorAll('tbody tr')];
        const row = rows.find((tr) => tr.textContent.includes('ZeroRedundancyOptimizer'))
            || rows[Math.floor(rows.length / 2)];
        row.scrollIntoView({block: 'center'}); }""")
    run.doc_screenshot("matrix")
    run.assert_clean()
    report = whats_new(corpus_graph, "PyTorch 2.0")
    path = tmp_path / "report.html"
    write_report(report, path, "html")
    run = open_page(path)
    assert int(run.page.locator("body").get_attribute("data-releases")) == len(report.releases)
    run.doc_screenshot("report")
    run.assert_clean()


def test_issue14_start_here_lists_the_biggest_releases(open_page, graph_page, handmade_graph):
    run = open_page(graph_page)
    shown = run.page.locator("#start-releases .start-row").all_inner_texts()
    introduces = {}
    for u, _, k in handmade_graph.edges(keys=True):
        if k == "INTRODUCES":
            introduces[handmade_graph.nodes[u]["name"]] = introduces.get(
                handmade_graph.nodes[u]["name"], 0) + 1
    counts = [(line.split("\n")[0], int(line.split("\n")[1].split()[0])) for line in shown]
    assert all(introduces[name] == n for name, n in counts)
    assert [n for _, n in counts] == sorted(introduces.values(), reverse=True)[:len(counts)]
    assert counts[0] == ("PyTorch 1.8", 4)
    run.page.locator("#start-releases .jump").first.click()
    assert run.page.locator("#panel h2").inner_text() == "PyTorch 1.8"
    assert len(run.evaluate(RING)) == 1
    run.assert_clean()
