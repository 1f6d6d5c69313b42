"""Tests of ``ptkg.render`` and ``ptkg render`` without a browser (``tests/browser/`` has those).

What the page does in Chromium is tested there; here: the selection, the seeded layout, the
embedded data, determinism, self-containment, the CLI and its errors.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections import Counter

import networkx as nx
import pytest
from click.testing import CliRunner

from ptkg.cli import main
from ptkg.errors import PtkgError
from ptkg.graph import node_id, read_graph, write_graph
from ptkg.matrix import generate_matrix_html
from ptkg.render import (
    DEFAULT_MAX_NODES,
    LABEL_HEIGHT,
    LABEL_NODE_LIMIT,
    UnknownNameError,
    embed_json,
    evidence_url,
    fragment_term,
    generate_graph_html,
    generate_timeline_html,
    graph_view_data,
    label_text,
    layout_positions,
    node_size,
    release_groups,
    render_graph,
    select_subgraph,
    suspect_reasons,
    text_fragment,
    text_width,
    timeline_view_data,
)
from ptkg.timeline import timeline

CRAFTED = ["</script><script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<!--",
           "a\u2028b\u2029c", "&amp; &lt;", "\"quoted\" 'single'"]


def run(*args, catch: bool = True):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch)


def page_data(html: str) -> dict:
    """The JSON the page embeds, read back as the browser's JSON.parse would."""
    match = re.search(r'<script type="application/json" id="ptkg-data">(.*?)</script>', html,
                      re.S)
    return json.loads(match.group(1))


def release_graph() -> nx.MultiDiGraph:
    """PyTorch 1.8.1, 1.9 and 1.10 (added out of order, no PRECEDES chain: version order);
    torch.fx introduced by two of them."""
    graph = nx.MultiDiGraph()
    graph.add_node(node_id("Library", "PyTorch"), label="Library", name="PyTorch", mentions=3,
                   aliases=[])
    for version, date in [("1.10", "2021-10-21"), ("1.8.1", None), ("1.9", "2021-06-15")]:
        props = {"library": "PyTorch", "version": version, "mentions": 1, "aliases": []}
        if date:
            props["date"] = date
        graph.add_node(node_id("Release", f"PyTorch {version}"), label="Release",
                       name=f"PyTorch {version}", **props)
        graph.add_edge(node_id("Library", "PyTorch"), node_id("Release", f"PyTorch {version}"),
                       key="HAS_RELEASE", type="HAS_RELEASE")
    for name in ["torch.fx", "FSDP"]:
        graph.add_node(node_id("Feature", name), label="Feature", name=name, mentions=2,
                       aliases=[])
    url = "https://pytorch.org/blog/a/"
    for release, feature, stability in [("1.8.1", "torch.fx", "Beta"),
                                        ("1.10", "torch.fx", "Stable"), ("1.10", "FSDP", None)]:
        props = {"sources": [url], "evidence": [f"{feature} in {release}"], "count": 1,
                 "rules": ["test"]}
        if stability:
            props["stability"] = stability
        graph.add_edge(node_id("Release", f"PyTorch {release}"), node_id("Feature", feature),
                       key="INTRODUCES", type="INTRODUCES", **props)
    return graph


# --------------------------------------------------------------------------- embedding


@pytest.mark.parametrize("text", CRAFTED)
def test_embed_json_escapes_markup_and_round_trips(text):
    embedded = embed_json({"text": text, "list": [text]})
    for forbidden in ["<", ">", "&", "\u2028", "\u2029"]:
        assert forbidden not in embedded
    assert json.loads(embedded) == {"text": text, "list": [text]}


def test_generate_graph_html_keeps_crafted_text_inside_the_json(tmp_path):
    graph = nx.MultiDiGraph()
    for i, text in enumerate(CRAFTED):
        graph.add_node(node_id("Feature", text), label="Feature", name=text, mentions=i,
                       aliases=[text])
    graph.add_edge(node_id("Feature", CRAFTED[0]), node_id("Feature", CRAFTED[1]),
                   key="BASED_ON", type="BASED_ON", sources=["https://x/<b>"],
                   evidence=[CRAFTED[1]], count=1, rules=["r"])
    html = generate_graph_html(graph, title=CRAFTED[0])
    assert "<img" not in html
    assert "alert(1)</script>" not in html
    assert html.count("<!--") == 0
    assert "<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>" in html
    data = page_data(html)
    assert sorted(n["name"] for n in data["nodes"]) == sorted(CRAFTED)
    # the sentence is all markup: no words to link to, so the link is the URL itself
    assert data["edges"][0]["evidence"] == [["https://x/<b>", CRAFTED[1], "https://x/<b>"]]


# --------------------------------------------------------------------------- the page


@pytest.mark.parametrize("generate", [generate_graph_html, generate_timeline_html,
                                      generate_matrix_html], ids=["graph", "timeline", "matrix"])
def test_page_is_deterministic(handmade_graph, handmade_graph_file, generate):
    first = generate(handmade_graph)
    again = generate(read_graph(handmade_graph_file))
    shuffled = nx.MultiDiGraph()
    shuffled.add_nodes_from(reversed(list(handmade_graph.nodes(data=True))))
    shuffled.add_edges_from(reversed(list(handmade_graph.edges(keys=True, data=True))))
    assert first == again == generate(shuffled)


@pytest.mark.parametrize("generate", [generate_graph_html, generate_timeline_html,
                                      generate_matrix_html], ids=["graph", "timeline", "matrix"])
def test_page_is_self_contained(handmade_graph, generate):
    html = generate(handmade_graph)
    assert not re.search(r"<(script|img|iframe|link)\b[^>]*\b(src|href)=", html, re.I)
    styles = "".join(re.findall(r"<style>(.*?)</style>", html, re.S))
    assert not re.search(r"@import|url\(|@font-face", styles, re.I)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    assert "default-src &#x27;none&#x27;" in csp
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(scripts) >= 2
    for code in scripts:
        digest = base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()
        assert f"sha256-{digest}" in csp
    assert "sourceMappingURL" not in html


def test_graph_view_data_encodes_the_graph(handmade_graph):
    data = graph_view_data(handmade_graph)
    assert len(data["nodes"]) == handmade_graph.number_of_nodes()
    assert len(data["edges"]) == handmade_graph.number_of_edges()
    ids = [n["id"] for n in data["nodes"]]
    edges = {(ids[e["from"]], e["type"], ids[e["to"]]) for e in data["edges"]}
    assert edges == {(u, k, v) for u, v, k in handmade_graph.edges(keys=True)}
    assert Counter(n["label"] for n in data["nodes"]) == Counter(
        d["label"] for _, d in handmade_graph.nodes(data=True))
    assert data["physics"] is False  # the page opens still, on the label-aware layout
    fx = ids.index(node_id("Feature", "torch.fx"))
    assert data["nodes"][fx]["size"] > data["nodes"][ids.index(node_id("Feature", "AOTInductor"))][
        "size"]
    introduces = [e for e in data["edges"] if e["type"] == "INTRODUCES" and e["to"] == fx]
    assert [(ids[e["from"]], e["props"]["stability"]) for e in introduces] == [
        ("Release:PyTorch 1.10", "Stable"), ("Release:PyTorch 1.8", "Beta")]
    assert all(url in data["posts"] for e in data["edges"] for url, *_ in e["evidence"])
    assert all(link == evidence_url(url, sentence)
               for e in data["edges"] for url, sentence, link in e["evidence"])


def test_graph_view_data_big_graph_says_labels_show_zoomed_in():
    graph = nx.path_graph(LABEL_NODE_LIMIT + 1, create_using=nx.MultiDiGraph)
    graph = nx.relabel_nodes(graph, {i: f"Feature:f{i}" for i in graph})
    for node in graph:
        graph.nodes[node].update(label="Feature", name=node[8:], mentions=1, aliases=[])
    data = graph_view_data(graph)
    assert data["physics"] is False
    assert data["notice"].startswith(f"{LABEL_NODE_LIMIT + 1} nodes: labels show when you zoom")
    assert graph_view_data(graph.subgraph(list(graph)[:LABEL_NODE_LIMIT]))["notice"] == ""


@pytest.mark.parametrize("subtitle, message", [
    ("the whole graph", "This graph is empty"),
    ("min mentions: 9", "Nothing to show: no node is left by this selection (min mentions: 9)"),
])
def test_graph_view_data_empty_graph_says_so(subtitle, message):
    data = graph_view_data(nx.MultiDiGraph(), subtitle=subtitle)
    assert data["empty"].startswith(message)
    assert data["nodes"] == [] and data["physics"] is False


# --------------------------------------------------------------------------- layout


def test_layout_positions_is_seeded_and_spread(handmade_graph):
    positions = layout_positions(handmade_graph)
    assert positions == layout_positions(handmade_graph.copy())
    assert set(positions) == set(handmade_graph)
    assert all(isinstance(c, int) for xy in positions.values() for c in xy)
    assert len(set(positions.values())) == len(positions)
    assert positions != layout_positions(handmade_graph, seed=8)


@pytest.mark.parametrize("size", [0, 1, 2])
def test_layout_positions_tiny_graphs(size):
    graph = nx.MultiDiGraph()
    graph.add_nodes_from(f"Feature:{i}" for i in range(size))
    positions = layout_positions(graph)
    assert sorted(positions) == sorted(graph)
    assert len(set(positions.values())) == size


# --------------------------------------------------------------------------- selection


@pytest.mark.parametrize("with_posts", [False, True], ids=["typed", "with-posts"])
@pytest.mark.parametrize("depth", [0, 1, 2])
def test_select_subgraph_focus_keeps_the_neighborhood(handmade_graph, depth, with_posts):
    center = node_id("Feature", "torch.fx")
    walked = handmade_graph.copy()
    if not with_posts:  # typed relations only: no post, no MENTIONS or ANNOUNCES
        walked.remove_nodes_from([n for n, d in handmade_graph.nodes(data=True)
                                  if d["label"] == "Post"])
    expected = set(nx.ego_graph(walked.to_undirected(), center, radius=depth))
    selected = select_subgraph(handmade_graph, focus="TORCH.FX", depth=depth,
                               with_posts=with_posts)
    assert set(selected) == expected
    assert with_posts or depth == 0 or {"MENTIONS", "ANNOUNCES"}.isdisjoint(
        k for *_, k in selected.edges(keys=True))
    assert selected.graph["centers"] == [center]
    assert {(u, v, k) for u, v, k in selected.edges(keys=True)} == {
        (u, v, k) for u, v, k in handmade_graph.edges(keys=True) if u in expected and v in expected}


def test_select_subgraph_release_and_labels(handmade_graph):
    release = node_id("Release", "PyTorch 1.8")
    near = {release, *handmade_graph.predecessors(release), *handmade_graph.successors(release)}
    selected = select_subgraph(handmade_graph, release="pytorch 1.8", labels=["feature"])
    assert set(selected) == {n for n in near if n == release
                             or handmade_graph.nodes[n]["label"] == "Feature"}
    assert {handmade_graph.nodes[n]["label"] for n in selected} == {"Release", "Feature"}


def test_select_subgraph_min_mentions_keeps_posts_but_not_the_orphans_it_makes(handmade_graph):
    selected = select_subgraph(handmade_graph, min_mentions=4)
    kept = {n for n, d in handmade_graph.nodes(data=True)
            if d["label"] == "Post" or d["mentions"] >= 4}
    linked = {n for u, v in handmade_graph.subgraph(kept).edges() if u != v for n in (u, v)}
    assert set(selected) == kept & linked
    assert {d["label"] for n, d in handmade_graph.nodes(data=True) if n in kept - linked} == {
        "Post"}  # posts that mentioned only what the filter dropped


def test_select_subgraph_focus_cap_keeps_the_nearest(handmade_graph):
    full = select_subgraph(handmade_graph, focus="PyTorch 1.8", depth=3, max_nodes=0)
    capped = select_subgraph(handmade_graph, focus="PyTorch 1.8", depth=3, max_nodes=8)
    assert capped.number_of_nodes() == 8 and capped.graph["total"] == full.number_of_nodes() > 8
    hops = nx.single_source_shortest_path_length(full.to_undirected(), "Release:PyTorch 1.8")
    assert "Release:PyTorch 1.8" in capped
    assert max(hops[n] for n in capped) <= min(hops[n] for n in set(full) - set(capped))
    assert select_subgraph(handmade_graph, focus="PyTorch 1.8", depth=3).number_of_nodes() == min(
        full.number_of_nodes(), DEFAULT_MAX_NODES)
    assert select_subgraph(handmade_graph).graph["total"] == handmade_graph.number_of_nodes()


def test_render_graph_cap_notice(tmp_path, handmade_graph):
    summary = render_graph(handmade_graph, tmp_path / "p.html", focus="PyTorch 1.8", depth=3,
                           max_nodes=8)
    assert summary.counts["nodes"] == 8
    assert summary.notice.startswith(f"Showing 8 of {summary.counts['total']} nodes within 3 "
                                     "hops of PyTorch 1.8")
    data = page_data((tmp_path / "p.html").read_text(encoding="utf8"))
    assert data["notice"] == summary.notice


def test_release_groups_by_library_then_version(handmade_graph):
    groups = release_groups(handmade_graph)
    assert groups[0][0] == "PyTorch"
    assert [handmade_graph.nodes[n]["version"] for n in groups[0][1]] == [
        "1.5", "1.8", "1.9", "1.10", "1.12", "2.2", "2.8"]
    assert [name for name, _ in groups[1:]] == sorted((name for name, _ in groups[1:]),
                                                      key=str.casefold)
    assert sum(len(r) for _, r in groups) == sum(
        1 for _, d in handmade_graph.nodes(data=True) if d["label"] == "Release")


@pytest.mark.parametrize("kwargs, what, closest", [
    ({"focus": "PyTorch 1.88"}, "entity", "PyTorch 1.8"),
    ({"release": "torch.fx"}, "release", None),
    ({"release": "PyTorch 1.88"}, "release", "PyTorch 1.8"),
])
def test_select_subgraph_unknown_name_lists_closest(handmade_graph, kwargs, what, closest):
    with pytest.raises(UnknownNameError) as error:
        select_subgraph(handmade_graph, **kwargs)
    name = next(iter(kwargs.values()))
    assert str(error.value).startswith(f"no {what} named {name!r} in the graph")
    if closest:
        assert closest in error.value.closest
        assert len(error.value.closest) <= 5


def test_select_subgraph_unknown_label(handmade_graph):
    with pytest.raises(PtkgError, match=r"^unknown label 'Person'; labels: Feature, "):
        select_subgraph(handmade_graph, labels=["Person"])


# --------------------------------------------------------------------------- timeline


def test_timeline_view_data_version_order_and_dates():
    data = timeline_view_data(release_graph())
    (lane,) = data["libraries"]
    assert lane["name"] == "PyTorch"
    assert [(data["nodes"][r["node"]]["name"], r["version"], r["date"])
            for r in lane["releases"]] == [("PyTorch 1.8.1", "1.8.1", ""),
                                           ("PyTorch 1.9", "1.9", "2021-06-15"),
                                           ("PyTorch 1.10", "1.10", "2021-10-21")]


def test_timeline_view_data_one_row_per_feature():
    data = timeline_view_data(release_graph())
    (lane,) = data["libraries"]
    names = [data["nodes"][f["node"]]["name"] for f in lane["features"]]
    assert names == ["torch.fx", "FSDP"]
    cells = [[(c["column"], c["stability"]) for c in f["cells"]] for f in lane["features"]]
    assert cells == [[(0, "Beta"), (2, "Stable")], [(2, "")]]
    edges = [(data["nodes"][e["from"]]["name"], data["nodes"][e["to"]]["name"],
              e["props"].get("stability"), e["evidence"]) for e in data["edges"]]
    assert edges == [
        ("PyTorch 1.10", "FSDP", None, [["https://pytorch.org/blog/a/", "FSDP in 1.10",
                                          "https://pytorch.org/blog/a/#:~:text=FSDP%20in%201.10"]]),
        ("PyTorch 1.10", "torch.fx", "Stable",
         [["https://pytorch.org/blog/a/", "torch.fx in 1.10",
           "https://pytorch.org/blog/a/#:~:text=torch.fx%20in%201.10"]]),
        ("PyTorch 1.8.1", "torch.fx", "Beta",
         [["https://pytorch.org/blog/a/", "torch.fx in 1.8.1",
           "https://pytorch.org/blog/a/#:~:text=torch.fx%20in%201.8.1"]])]
    assert [data["edges"][c["edge"]]["props"].get("stability") or ""
            for f in lane["features"] for c in f["cells"]] == ["Beta", "Stable", ""]
    assert timeline_view_data(nx.MultiDiGraph())["empty"].startswith("This graph has no release")


def test_issue5_timeline_page_draws_what_ptkg_timeline_computes(handmade_graph):
    """Issue 5 part 3: one function (ptkg.timeline.timeline) serves the CLI and the page."""
    data = timeline_view_data(handmade_graph)
    page = [(lib["name"], [data["nodes"][r["node"]]["id"] for r in lib["releases"]],
             sorted((lib["releases"][c["column"]]["node"], f["node"], c["stability"])
                    for f in lib["features"] for c in f["cells"]))
            for lib in data["libraries"]]
    index = {node["id"]: i for i, node in enumerate(data["nodes"])}
    computed = [(lane.library, [r.node for r in lane.releases],
                 sorted((index[r.node], index[h.node], h.stability or "")
                        for r in lane.releases for h in r.headlines))
                for lane in timeline(handmade_graph, headline_limit=None)]
    assert page == computed
    assert sum(len(lane[2]) for lane in page) == sum(
        1 for *_, key in handmade_graph.edges(keys=True) if key == "INTRODUCES")


# --------------------------------------------------------------------------- CLI


def test_cli_render_writes_the_page(tmp_path, handmade_graph, handmade_graph_file):
    out = tmp_path / "graph.html"
    result = run("render", "--graph", handmade_graph_file, "--out", out, catch=False)
    assert result.exit_code == 0
    size = len(out.read_bytes())
    assert result.output == (f"wrote {out}: {handmade_graph.number_of_nodes()} nodes, "
                             f"{handmade_graph.number_of_edges()} edges, {size:,} bytes\n")
    again = tmp_path / "again.html"
    run("render", "--graph", handmade_graph_file, "--out", again, catch=False)
    assert again.read_bytes() == out.read_bytes()


def test_cli_render_focus_label_release(tmp_path, handmade_graph_file):
    out = tmp_path / "focus.html"
    result = run("render", "--graph", handmade_graph_file, "--out", out, "--focus", "PyTorch 1.8",
                 "--depth", "1", "--label", "Release", "--label", "Hardware", "--release",
                 "PyTorch 1.8", "--min-mentions", "1", catch=False)
    assert result.exit_code == 0
    data = page_data(out.read_text(encoding="utf8"))
    assert {n["label"] for n in data["nodes"]} <= {"Release", "Hardware"}
    assert data["subtitle"] == ("focus: PyTorch 1.8 (depth 1) · release: PyTorch 1.8 · "
                                "labels: Release, Hardware · min mentions: 1")
    assert [data["nodes"][i]["name"] for i in data["centers"]] == ["PyTorch 1.8"]


def test_cli_render_timeline(tmp_path, handmade_graph, handmade_graph_file):
    out = tmp_path / "timeline.html"
    result = run("render", "--graph", handmade_graph_file, "--timeline", "--out", out, catch=False)
    assert result.exit_code == 0
    releases = [n for n, d in handmade_graph.nodes(data=True) if d["label"] == "Release"]
    assert re.fullmatch(rf"wrote {re.escape(str(out))}: {len(releases)} releases of \d+ "
                        r"libraries, \d+ features, [\d,]+ bytes\n", result.output)
    assert page_data(out.read_text(encoding="utf8"))["view"] == "timeline"


def test_cli_render_missing_graph_is_one_line_error(tmp_path):
    missing = tmp_path / "nope.json"
    result = run("render", "--graph", missing, "--out", tmp_path / "x.html")
    assert result.exit_code == 1
    assert result.output == (f"Error: {missing}: no such graph file; build one with "
                             "`ptkg build`\n")
    assert not (tmp_path / "x.html").exists()


def test_cli_render_unknown_focus_lists_closest(tmp_path, handmade_graph_file):
    result = run("render", "--graph", handmade_graph_file, "--out", tmp_path / "x.html",
                 "--focus", "torch.fxx")
    assert result.exit_code == 1
    assert result.output.startswith("Error: no entity named 'torch.fxx' in the graph; closest: "
                                    "torch.fx")
    assert result.output.count("\n") == 1
    assert not (tmp_path / "x.html").exists()


@pytest.mark.parametrize("args, message", [
    (["--depth", "2"], "--depth needs --focus"),
    (["--timeline", "--focus", "torch.fx"], "--timeline draws every release"),
    (["--timeline", "--label", "Release"], "--timeline draws every release"),
])
def test_cli_render_usage_errors(tmp_path, handmade_graph_file, args, message):
    result = run("render", "--graph", handmade_graph_file, "--out", tmp_path / "x.html", *args)
    assert result.exit_code == 2
    assert f"Error: {message}" in result.output


def test_cli_render_unwritable_out_is_one_line_error(tmp_path, handmade_graph_file):
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf8")
    result = run("render", "--graph", handmade_graph_file, "--out", blocker / "graph.html")
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {blocker / 'graph.html'}: cannot write the page")
    assert result.output.count("\n") == 1


def test_render_graph_failed_write_keeps_the_old_page(tmp_path, handmade_graph, monkeypatch):
    out = tmp_path / "graph.html"
    out.write_text("old page", encoding="utf8")

    def fail(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", fail)
    with pytest.raises(PtkgError, match="cannot write the page"):
        render_graph(handmade_graph, out)
    assert out.read_text(encoding="utf8") == "old page"
    assert [p.name for p in tmp_path.iterdir()] == ["graph.html"]


def test_render_graph_round_trip_through_file(tmp_path, handmade_graph):
    """A graph written and read back renders the same page."""
    write_graph(handmade_graph, tmp_path / "g.json")
    assert generate_graph_html(read_graph(tmp_path / "g.json")) == generate_graph_html(
        handmade_graph)


# --------------------------------------------------------------------------- links (issue 14)


@pytest.mark.parametrize("text, encoded", [
    ("CUDA-support", "CUDA%2Dsupport"),
    ("A & B, C", "A%20%26%20B%2C%20C"),
    ("50% #1 ?x=y/z", "50%25%20%231%20%3Fx%3Dy%2Fz"),
    ("café’s “quotes”", "caf%C3%A9%E2%80%99s%20%E2%80%9Cquotes%E2%80%9D"),
    ("torch.fx_x~", "torch.fx_x~"),
])
def test_fragment_term_escapes_the_directive_syntax(text, encoded):
    assert fragment_term(text) == encoded
    assert not set("-&, #?=/") & set(fragment_term(text))


@pytest.mark.parametrize("sentence, fragment", [
    ("(Stable) torch.linalg", "text=%28Stable%29%20torch.linalg"),
    ("[Beta] **Python code Transformations** with `FX`",
     "text=%5BBeta%5D%20Python%20code%20Transformations%20with%20FX"),
    ("### Deprecations - the [volatile flag](https://x/y) is gone",
     "text=Deprecations%20%2D%20the%20volatile%20flag%20is%20gone"),
    ("Starting in PyTorch 1.8, we have added support for ROCm wheels providing an easy "
     "onboarding to using AMD GPUs.",
     "text=Starting%20in%20PyTorch%201.8%2C,to%20using%20AMD%20GPUs."),
    ("<img src=x onerror=alert(1)>", ""),
    ("   ", ""),
])
def test_text_fragment_plain_words_and_start_end_for_long_sentences(sentence, fragment):
    assert text_fragment(sentence) == fragment


def test_issue14_evidence_url_carries_the_sentence(handmade_graph):
    """Issue 14 item 3: every evidence link of a page is the post's URL with a text fragment."""
    from urllib.parse import unquote

    url = "https://pytorch.org/blog/pytorch-1.8-released/"
    link = evidence_url(url, "Starting in PyTorch 1.8, we have added support for ROCm wheels "
                             "providing an easy onboarding to using AMD GPUs.")
    base, _, directive = link.partition("#:~:text=")
    assert base == url
    start, end = directive.split(",")
    assert (unquote(start), unquote(end)) == ("Starting in PyTorch 1.8,", "to using AMD GPUs.")
    assert evidence_url("javascript:alert(1)", "x y") == "javascript:alert(1)"
    assert evidence_url(url + "#top", "a b") == url + "#top:~:text=a%20b"
    data = graph_view_data(handmade_graph)
    links = [e for edge in data["edges"] for e in edge["evidence"]]
    assert links and all(link.startswith(src + "#:~:text=") for src, _, link in links)


# --------------------------------------------------------------------------- readable layout


@pytest.mark.parametrize("name, mentions, reasons", [
    ("to suggest", 1, ["starts with 'to'", "lower-case name", "mentioned once"]),
    ("implement", 1, ["lower-case name", "mentioned once"]),
    ("are now available", 3, ["starts with 'are'", "lower-case name"]),
    ("autograd", 60, []),
    ("torch.compile", 1, []),
    ("nn.Module", 1, []),
    ("FSDP", 1, []),
])
def test_suspect_reasons(name, mentions, reasons):
    assert suspect_reasons({"name": name, "mentions": mentions}) == reasons


def label_boxes(graph, positions):
    """Each node's box as the page draws it: its shape, and its label under it."""
    boxes = {}
    for node, (x, y) in positions.items():
        size = node_size(graph.nodes[node].get("mentions"))
        half = max(size, text_width(label_text(graph.nodes[node])) / 2)
        boxes[node] = (x - half, y - size, x + half, y + size + LABEL_HEIGHT)
    return boxes


def overlapping(boxes) -> list[tuple[str, str]]:
    items = sorted(boxes.items())
    return [(a, b) for i, (a, p) in enumerate(items) for b, q in items[i + 1:]
            if min(p[2], q[2]) - max(p[0], q[0]) > 0 and min(p[3], q[3]) - max(p[1], q[1]) > 0]


def test_layout_positions_with_labels_no_two_boxes_overlap(handmade_graph):
    """Up to LABEL_NODE_LIMIT nodes, no shape or label box overlaps another one."""
    graph = nx.MultiDiGraph()
    for i in range(LABEL_NODE_LIMIT):
        graph.add_node(f"Feature:{i}", label="Feature", mentions=i % 9,
                       name=f"feature number {i} with a longish name"[: 8 + i % 30])
        if i:
            graph.add_edge(f"Feature:{i // 4}", f"Feature:{i}", key="BASED_ON")
    for g in (handmade_graph, graph):
        labels = {n: label_text(g.nodes[n]) for n in g}
        positions = layout_positions(g, labels=labels)
        assert overlapping(label_boxes(g, positions)) == []
        assert positions == layout_positions(g.copy(), labels=labels)


# --------------------------------------------------------------------------- matrix view


def test_matrix_view_data_rows_are_the_lifecycles(handmade_graph):
    """Each feature row holds what feature_lifecycle lists for that library, cell for cell."""
    from ptkg.lifecycle import feature_lifecycle
    from ptkg.matrix import matrix_view_data

    data = matrix_view_data(handmade_graph)
    assert data["libraries"][0]["name"] == "PyTorch"
    seen = 0
    for library in data["libraries"]:
        releases = [data["nodes"][r["node"]]["name"] for r in library["releases"]]
        for row in library["rows"]:
            node = data["nodes"][row["node"]]
            said = [(releases[c["column"]], c["stability"] or None) for c in row["cells"]
                    if c["introduced"]]
            if node["label"] == "Feature" and said:
                life = feature_lifecycle(handmade_graph, node["name"])
                assert said == [(s.release, s.stability) for s in life.releases
                                if s.library == library["name"]]
                seen += 1
    assert seen == len({v for u, v, k in handmade_graph.edges(keys=True) if k == "INTRODUCES"})
    pytorch = data["libraries"][0]
    marks = {(data["nodes"][row["node"]]["name"], pytorch["releases"][c["column"]]["version"])
             for row in pytorch["rows"] for c in row["cells"] if c["deprecated"]}
    assert marks == {("macOS x86", "2.2")}
    removed = [(data["nodes"][row["node"]]["name"], lib["name"]) for lib in data["libraries"]
               for row in lib["rows"] for c in row["cells"] if c["removed"]]
    assert removed == [("Python 2", "torchvision")]
    zero = next(r for r in pytorch["rows"]
                if data["nodes"][r["node"]]["name"] == "ZeroRedundancyOptimizer")
    assert [c["stability"] for c in zero["cells"]] == ["Prototype", "Beta", "Stable"]
    assert zero["latest"] == "Stable"
    gaps = {data["nodes"][r["node"]]["name"]: r["gap"] for r in pytorch["releases"]}
    assert gaps["PyTorch 1.12"].startswith("no post in the graph announces PyTorch 1.12")
    assert gaps["PyTorch 1.8"] == ""


def test_matrix_view_data_one_library_and_unknown_library(handmade_graph):
    from ptkg.lifecycle import NotFoundError
    from ptkg.matrix import matrix_view_data

    data = matrix_view_data(handmade_graph, library="TORCHVISION")
    assert [lib["name"] for lib in data["libraries"]] == ["torchvision"]
    with pytest.raises(NotFoundError):
        matrix_view_data(handmade_graph, library="no such library")
    assert matrix_view_data(nx.MultiDiGraph())["empty"].startswith("This graph has no release")


# --------------------------------------------------------------------------- CLI (issue 14)


def test_cli_render_matrix(tmp_path, handmade_graph_file):
    out = tmp_path / "matrix.html"
    result = run("render", "--graph", handmade_graph_file, "--matrix", "--out", out, catch=False)
    assert result.exit_code == 0
    assert re.fullmatch(rf"wrote {re.escape(str(out))}: \d+ rows × \d+ releases of \d+ "
                        r"libraries, \d+ cells, [\d,]+ bytes\n", result.output)
    assert page_data(out.read_text(encoding="utf8"))["view"] == "matrix"


def test_cli_render_focus_cap_notice_and_posts(tmp_path, handmade_graph_file):
    out = tmp_path / "focus.html"
    result = run("render", "--graph", handmade_graph_file, "--out", out, "--focus", "PyTorch 1.8",
                 "--depth", "3", "--max-nodes", "5")
    assert result.exit_code == 0
    assert result.output.startswith(f"wrote {out}: 5 nodes")
    assert "note: Showing 5 of " in result.output
    posts = run("render", "--graph", handmade_graph_file, "--out", out, "--focus", "torch.fx",
                "--with-posts", catch=False)
    assert posts.exit_code == 0
    data = page_data(out.read_text(encoding="utf8"))
    assert "Post" in {n["label"] for n in data["nodes"]}
    assert data["subtitle"] == "focus: torch.fx (depth 1, with posts)"


@pytest.mark.parametrize("args, message", [
    (["--with-posts"], "--with-posts needs --focus"),
    (["--timeline", "--matrix"], "--timeline and --matrix are two pages"),
    (["--matrix", "--focus", "torch.fx"], "--matrix draws every release"),
    (["--timeline", "--max-nodes", "3"], "--timeline draws every release"),
    (["--newest-first"], "--newest-first needs --timeline"),
    (["--library", "PyTorch"], "--library needs --matrix"),
])
def test_cli_render_issue14_usage_errors(tmp_path, handmade_graph_file, args, message):
    result = run("render", "--graph", handmade_graph_file, "--out", tmp_path / "x.html", *args)
    assert result.exit_code == 2
    assert f"Error: {message}" in result.output
