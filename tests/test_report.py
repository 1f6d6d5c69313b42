"""Tests of ``ptkg.report`` and ``ptkg report``: the "what's new" digest is the lifecycle and
diff functions' answer, release by release, each line with its evidence link; deterministic;
escaped. (Its HTML page in Chromium: ``tests/browser/test_views.py``.)"""

from __future__ import annotations

import doctest
import json
import re

import networkx as nx
import pytest
from click.testing import CliRunner

import ptkg.matrix
import ptkg.render
import ptkg.report
from ptkg.cli import main
from ptkg.graph import node_id, read_graph
from ptkg.lifecycle import NotFoundError, feature_lifecycle, release_diff
from ptkg.render import evidence_url
from ptkg.report import ReportError, generate_html, generate_markdown, whats_new

PYTORCH_AFTER_18 = ["PyTorch 1.9", "PyTorch 1.10", "PyTorch 1.12", "PyTorch 2.2", "PyTorch 2.8"]


def run(*args, catch: bool = True):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch)


def test_report_doctests():
    for module in (ptkg.report, ptkg.render, ptkg.matrix):
        assert doctest.testmod(module).failed == 0


def test_whats_new_lists_every_release_after_since(handmade_graph):
    report = whats_new(handmade_graph, "pytorch v1.8")
    assert (report.since, report.library) == ("PyTorch 1.8", "PyTorch")
    assert [r.release for r in report.releases] == PYTORCH_AFTER_18
    assert [r.previous for r in report.releases] == ["PyTorch 1.8", *PYTORCH_AFTER_18[:-1]]


def test_whats_new_is_the_diffs(handmade_graph):
    """New, promoted and demoted are release_diff's, release by release, same evidence."""
    report = whats_new(handmade_graph, "PyTorch 1.5")
    assert report.releases
    for release in report.releases:
        diff = release_diff(handmade_graph, release.previous, release.release)
        new = [(i.name, i.stability, i.evidence) for _, items in release.new for i in items]
        assert sorted(new) == sorted((e.feature, e.stability, e.evidence) for e in diff.new)
        for category in ("promoted", "demoted"):
            assert [(i.name, i.previous_stability, i.previous_release, i.stability, i.evidence)
                    for i in getattr(release, category)] == [
                (e.feature, e.previous_stability, e.previous_release, e.stability, e.evidence)
                for e in getattr(diff, category)]
        stabilities = [s for s, _ in release.new]
        order = list(ptkg.report.STABILITY_ORDER)
        assert stabilities == sorted(stabilities, key=order.index)


def test_whats_new_promotions_agree_with_the_lifecycle(handmade_graph):
    report = whats_new(handmade_graph, "PyTorch 1.5")
    promoted = {(i.name, i.previous_release, r.release) for r in report.releases
                for i in r.promoted}
    life = feature_lifecycle(handmade_graph, "ZeroRedundancyOptimizer")
    assert {(life.feature, c.from_release, c.to_release) for c in life.promotions} <= promoted
    assert ("ZeroRedundancyOptimizer", "PyTorch 1.8", "PyTorch 1.9") in promoted
    assert ("torch.fx", "PyTorch 1.8", "PyTorch 1.10") in promoted


def test_whats_new_deprecations_removals_and_new_support(handmade_graph):
    report = {r.release: r for r in whats_new(handmade_graph, "PyTorch 1.8").releases}
    assert [(i.name, i.label) for i in report["PyTorch 2.2"].deprecated] == [("macOS x86",
                                                                            "Platform")]
    edge = handmade_graph.edges[node_id("Release", "PyTorch 2.2"),
                                node_id("Platform", "macOS x86"), "DEPRECATES"]
    assert [(e.sentence, e.url) for e in report["PyTorch 2.2"].deprecated[0].evidence] == list(
        zip(edge["evidence"], edge["sources"], strict=True))
    assert [(i.name, i.label) for i in report["PyTorch 1.12"].supports] == [
        ("Apple silicon", "Hardware"), ("MPS", "Hardware"), ("macOS", "Platform")]
    assert whats_new(handmade_graph, "torchvision 0.6").releases == []  # its last release


def test_whats_new_support_is_new_only(handmade_graph):
    """A hardware a release of the library supported before is not "new" again."""
    graph = handmade_graph
    graph.add_edge(node_id("Release", "PyTorch 2.2"), node_id("Hardware", "MPS"), key="SUPPORTS",
                   type="SUPPORTS", sources=["https://x/"], evidence=["MPS again."], count=1,
                   rules=["r"])
    graph.add_edge(node_id("Release", "PyTorch 2.2"), node_id("Hardware", "ROCm"),
                   key="SUPPORTS", type="SUPPORTS", sources=["https://x/"],
                   evidence=["ROCm again."], count=1, rules=["r"])
    report = {r.release: r for r in whats_new(graph, "PyTorch 1.10").releases}
    assert "MPS" not in [i.name for i in report["PyTorch 2.2"].supports]
    # ROCm: supported by 1.8, which is before --since: not new either
    assert [i.name for i in report["PyTorch 2.2"].supports] == []


def test_whats_new_unannounced_release_says_so_in_one_line(handmade_graph):
    report = {r.release: r for r in whats_new(handmade_graph, "PyTorch 1.10").releases}
    assert report["PyTorch 1.12"].unannounced == (
        "no post in the graph announces PyTorch 1.12 or lists its features: what follows comes "
        "from other posts")
    text = generate_markdown(whats_new(handmade_graph, "PyTorch 1.10"))
    assert text.count("No post in the graph announces PyTorch 1.12") == 1
    assert "> gap: no post in the graph announces PyTorch 1.12 or lists its features: a feature " \
           "shown as new in PyTorch 2.2 may have come with it" in text
    graph = handmade_graph
    graph.add_node(node_id("Release", "PyTorch 2.9"), label="Release", name="PyTorch 2.9",
                   library="PyTorch", version="2.9", aliases=[])
    graph.add_edge(node_id("Library", "PyTorch"), node_id("Release", "PyTorch 2.9"),
                   key="HAS_RELEASE", type="HAS_RELEASE")
    graph.add_edge(node_id("Release", "PyTorch 2.8"), node_id("Release", "PyTorch 2.9"),
                   key="PRECEDES", type="PRECEDES")
    last = whats_new(graph, "PyTorch 2.8").releases
    assert [r.unannounced for r in last] == [
        "no post in the graph announces PyTorch 2.9 or lists its features: nothing it brought "
        "is known"]
    section = generate_markdown(whats_new(graph, "PyTorch 2.8")).split("## PyTorch 2.9")[1]
    assert [line for line in section.splitlines() if line.strip()] == [
        "No post in the graph announces PyTorch 2.9 or lists its features: nothing it brought "
        "is known."]


def test_generate_markdown_every_line_links_to_its_sentence(handmade_graph):
    report = whats_new(handmade_graph, "PyTorch 1.8")
    text = generate_markdown(report)
    items = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(items) == sum(r.new_count + len(r.promoted) + len(r.demoted) + len(r.deprecated)
                             + len(r.removed) + len(r.supports) for r in report.releases)
    for line in items:
        assert re.search(r"\]\(https://pytorch\.org/blog/[^)\s]+#:~:text=[^)\s]+\)", line), line
    first = report.releases[0].promoted[0].evidence[0]
    assert evidence_url(first.url, first.sentence).replace("(", "%28").replace(")", "%29") in text
    assert text == generate_markdown(whats_new(read_graph_copy(handmade_graph), "PyTorch 1.8"))


def read_graph_copy(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    shuffled = nx.MultiDiGraph()
    shuffled.add_nodes_from(reversed(list(graph.nodes(data=True))))
    shuffled.add_edges_from(reversed(list(graph.edges(keys=True, data=True))))
    return shuffled


IMG = "<img src=x onerror=alert(1)>"


def test_report_escapes_markup(handmade_graph):
    graph = handmade_graph
    graph.add_node(node_id("Feature", IMG), label="Feature", name=IMG + " *x* [y](z)",
                   aliases=[], mentions=1)
    graph.add_edge(node_id("Release", "PyTorch 2.8"), node_id("Feature", IMG), key="INTRODUCES",
                   type="INTRODUCES", stability="Beta", sources=["javascript:alert(1)"],
                   evidence=[f"{IMG} </script> [a](b)"], count=1, rules=["r"])
    report = whats_new(graph, "PyTorch 2.2")
    page = generate_html(report)
    assert "<img" not in page and "javascript:" not in page.split("<main>")[1].split(
        'href="')[0] + "".join(re.findall(r'href="([^"]*)"', page))
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "<script" not in page
    text = generate_markdown(report)
    assert "\\<img src=x onerror=alert(1)\\> \\*x\\* \\[y\\](z)" in text
    assert "](javascript:" not in text


def test_report_is_deterministic(handmade_graph, handmade_graph_file):
    for generate in (generate_markdown, generate_html):
        assert generate(whats_new(handmade_graph, "PyTorch 1.5")) == generate(
            whats_new(read_graph(handmade_graph_file), "PyTorch 1.5")) == generate(
            whats_new(read_graph_copy(handmade_graph), "PyTorch 1.5"))


def test_whats_new_errors(handmade_graph):
    with pytest.raises(NotFoundError):
        whats_new(handmade_graph, "PyTorch 9.9")
    with pytest.raises(ReportError, match="is not a release of torchvision"):
        whats_new(handmade_graph, "PyTorch 1.8", "torchvision")
    assert whats_new(handmade_graph, "0.6", "torchvision").since == "torchvision 0.6"


def test_report_to_dict(handmade_graph):
    data = whats_new(handmade_graph, "PyTorch 2.2").to_dict()
    assert data["releases"][0]["new"] == [{"stability": "API-Unstable", "features": [
        {"name": "Control Flow Operator Library", "label": "Feature",
         "stability": "API-Unstable", "previous_stability": None, "previous_release": None,
         "evidence": [{"sentence": "[API-Unstable] Control Flow Operator Library",
                       "url": "https://pytorch.org/blog/pytorch-2-8/"}]}]}]


# --------------------------------------------------------------------------- CLI


def test_cli_report_markdown(handmade_graph, handmade_graph_file):
    result = run("report", "--since", "PyTorch 1.8", "--graph", handmade_graph_file, catch=False)
    assert result.exit_code == 0
    assert result.output == generate_markdown(whats_new(handmade_graph, "PyTorch 1.8"))
    assert result.output.startswith("# What's new in PyTorch since PyTorch 1.8\n")


def test_cli_report_json(handmade_graph, handmade_graph_file):
    """--format json prints the digest's data, the same the API's Report.to_dict gives."""
    result = run("report", "--since", "PyTorch 1.8", "--format", "json", "--graph",
                 handmade_graph_file, catch=False)
    assert result.exit_code == 0
    assert json.loads(result.output) == whats_new(handmade_graph, "PyTorch 1.8").to_dict()


def test_cli_report_html_to_file(tmp_path, handmade_graph_file):
    out = tmp_path / "report.html"
    result = run("report", "--since", "PyTorch 1.8", "--format", "html", "--out", out,
                 "--graph", handmade_graph_file, catch=False)
    assert result.exit_code == 0
    size = len(out.read_bytes())
    assert result.output == f"wrote {out}: 5 releases after PyTorch 1.8, {size:,} bytes\n"
    assert out.read_text(encoding="utf8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("args, code, message", [
    (["--since", "PyTorch 9.9"], 1, "Error: no Release"),
    (["--since", "PyTorch 1.8", "--library", "torchvision"], 2, "is not a release of torchvision"),
    (["--since", "PyTorch 1.8", "--format", "pdf"], 2, "Invalid value for '--format'"),
    ([], 2, "Missing option '--since'"),
])
def test_cli_report_errors(handmade_graph_file, args, code, message):
    result = run("report", *args, "--graph", handmade_graph_file)
    assert result.exit_code == code
    assert message in result.output
