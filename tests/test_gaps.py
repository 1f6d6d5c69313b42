"""Issue 13: answers that say what the graph lacks.

When no post of the graph announces a release or lists its features, ``diff``, ``lifecycle``,
``released-with`` (and the other release queries) and ``timeline`` say so in one line (stderr
in tables, ``gaps`` in JSON), and ``ptkg stats`` reports each library's coverage. The hand-made
graph has PyTorch 1.12 (named by the Mac post, announced by none, no features) and PyTorch 1.5
(its libraries' post announces torchvision 0.6 and PyTorch/XLA 1.5, not 1.5 itself).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ptkg.cli import main
from ptkg.graph import read_graph
from ptkg.lifecycle import feature_lifecycle, graph_coverage, release_coverage, release_diff
from ptkg.named_queries import get_query, query_gaps
from ptkg.stores.networkx_store import GraphFileStore
from ptkg.timeline import timeline

GAP_112 = "no post in the graph announces PyTorch 1.12 or lists its features"


def run(*args, catch: bool = True):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch)


@pytest.fixture(scope="module")
def graph(handmade_graph_file):
    return read_graph(handmade_graph_file)


def test_issue13_release_coverage(graph):
    covered = release_coverage(graph, "Release:PyTorch 1.8")
    assert covered.announced_by == ("https://pytorch.org/blog/pytorch-1.8-released/",)
    assert covered.features == 4 and covered.listed
    missing = release_coverage(graph, "Release:PyTorch 1.12")
    assert (missing.announced_by, missing.features, missing.listed) == ((), 0, False)


def test_issue13_diff_says_when_the_newer_release_is_not_listed(graph):
    diff = release_diff(graph, "PyTorch 1.10", "PyTorch 1.12")
    assert diff.new == [] and diff.promoted == []
    assert diff.gaps == [f"{GAP_112}: the diff cannot show what PyTorch 1.12 added or promoted"]
    assert release_diff(graph, "PyTorch 1.9", "PyTorch 1.10").gaps == []


def test_issue13_diff_says_when_no_post_announces_the_release_it_lists(handmade_graph):
    """Features that only posts about other things list are not the release's own list."""
    handmade_graph.remove_edges_from([(u, v, k) for u, v, k in handmade_graph.in_edges(
        "Release:PyTorch 1.10", keys=True) if k == "ANNOUNCES"])
    diff = release_diff(handmade_graph, "PyTorch 1.9", "PyTorch 1.10")
    assert diff.gaps == [
        "no post in the graph announces PyTorch 1.10: the 3 features listed come from other "
        "posts, so its own list is not known: the diff cannot show what PyTorch 1.10 added or "
        "promoted"]


def test_issue13_cli_diff_gap_is_one_line(handmade_graph_file):
    result = run("diff", "PyTorch 1.10", "PyTorch 1.12", "--graph", handmade_graph_file,
                 catch=False)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        f"gap: {GAP_112}: the diff cannot show what PyTorch 1.12 added or promoted"]
    as_json = run("diff", "PyTorch 1.10", "PyTorch 1.12", "--graph", handmade_graph_file,
                  "--format", "json", catch=False)
    assert json.loads(as_json.stdout)["gaps"] == [
        f"{GAP_112}: the diff cannot show what PyTorch 1.12 added or promoted"]


def test_issue13_lifecycle_names_the_releases_it_cannot_see(graph, handmade_graph_file):
    lifecycle = feature_lifecycle(graph, "ZeroRedundancyOptimizer")
    assert lifecycle.gaps == ["no post in the graph lists the features of PyTorch 1.12: what it "
                              "stated of this feature is not known"]
    assert feature_lifecycle(graph, "Control Flow Operator Library").gaps == []
    result = run("lifecycle", "ZeroRedundancyOptimizer", "--graph", handmade_graph_file,
                 catch=False)
    assert result.stderr.splitlines() == ["gap: " + lifecycle.gaps[0]]


@pytest.mark.parametrize(("query", "params", "rows", "gaps"), [
    ("released-with", {"release": "PyTorch 1.12"}, [],
     ["no post in the graph announces PyTorch 1.12: the library releases shipped with it are "
      "not known"]),
    ("released-with", {"release": "PyTorch 1.5"}, [["torchvision"]], []),
    ("features-by-release", {"release": "PyTorch 1.5"}, [],
     ["no post in the graph announces PyTorch 1.5 or lists its features: the features it "
      "introduced are not known"]),
    ("features-by-release", {"release": "torchvision 0.6"}, [],
     ["1 post in the graph announces torchvision 0.6, but none lists its features: the "
      "features it introduced are not known"]),
    ("features-by-release", {"release": "PyTorch 1.8"}, [["torch.fx"]], []),
    ("features-by-stability", {"release": "PyTorch 1.5", "stability": "Beta"}, [],
     ["no post in the graph announces PyTorch 1.5 or lists its features: the features it "
      "introduced, and at which stability, are not known"]),
    ("features-by-stability", {"stability": "Beta"}, [["torch.fx"]], []),
    ("hardware-support", {"hardware": "MPS"}, [], []),
])
def test_issue13_query_gaps(graph, query, params, rows, gaps):
    assert query_gaps(GraphFileStore(graph=graph), get_query(query), params, rows) == gaps


def test_issue13_cli_released_with_gap(handmade_graph_file):
    result = run("queries", "run", "released-with", "--param", "release=1.12", "--graph",
                 handmade_graph_file, catch=False)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        "gap: no post in the graph announces PyTorch 1.12: the library releases shipped with "
        "it are not known"]


def test_issue13_timeline_gaps(graph, handmade_graph_file):
    (lane,) = timeline(graph, "PyTorch")
    assert lane.gaps == ["PyTorch: no post in the graph lists the features of 2 of 7 releases "
                         "(1.5, 1.12, none announced)"]
    result = run("timeline", "--library", "pytorch", "--graph", handmade_graph_file,
                 catch=False)
    assert result.stderr.splitlines() == ["gap: " + lane.gaps[0]]
    as_json = run("timeline", "--library", "pytorch", "--graph", handmade_graph_file,
                  "--format", "json", catch=False)
    assert json.loads(as_json.stdout)["libraries"][0]["gaps"] == lane.gaps


def test_issue13_graph_coverage(graph):
    coverage = graph_coverage(graph)
    assert coverage["posts"] == 8 and coverage["posts_without_facts"] == []
    pytorch = coverage["libraries"][0]
    assert pytorch == {"library": "PyTorch", "releases": 7, "announced": 5, "listed": 5,
                       "unlisted": ["PyTorch 1.5", "PyTorch 1.12"]}
    assert [lib["library"] for lib in coverage["libraries"]] == [
        "PyTorch", "Python", "PyTorch/XLA", "torchvision"]


def test_issue13_graph_coverage_counts_posts_without_facts(graph):
    bare = graph.copy()
    bare.add_node("Post:https://example.org/a/", label="Post", name="A",
                  url="https://example.org/a/")
    bare.add_edge("Post:https://example.org/a/", "Feature:torch.fx", key="MENTIONS",
                  type="MENTIONS", count=1)
    assert graph_coverage(bare)["posts_without_facts"] == ["https://example.org/a/"]


def test_issue13_cli_stats_coverage(handmade_graph_file):
    plain = run("stats", "--graph", handmade_graph_file, catch=False)
    assert plain.stderr.splitlines() == [
        "coverage: 10 releases known, 7 announced by a post, 5 with features listed; 8 posts, "
        "0 without any fact (--coverage for each library)"]
    table = run("stats", "--graph", handmade_graph_file, "--coverage", catch=False)
    lines = table.stdout.splitlines()
    assert lines[3].startswith("coverage: 10 releases known")
    assert lines[4].split() == ["library", "releases", "announced", "listed", "no", "features",
                                "listed"]
    assert lines[6].split()[:4] == ["PyTorch", "7", "5", "5"]
    as_json = json.loads(run("stats", "--graph", handmade_graph_file, "--format", "json",
                             catch=False).stdout)
    assert set(as_json) == {"location", "nodes", "edges", "coverage"}
    assert as_json["nodes"]["Release"] == 10
    assert as_json["coverage"]["libraries"][0]["unlisted"] == ["PyTorch 1.5", "PyTorch 1.12"]


def test_issue12_deprecations_of_a_release_no_post_announces_are_not_known():
    """q33: the Intel post "PyTorch 2.4 Now Supports Intel GPUs" lists a feature 2.4 brought,
    and states none of 2.4's deprecations: no deprecation found is no answer that there were
    none. A release a post announces needs no line; a deprecation found needs none either."""
    from ptkg.graph import build_graph
    from ptkg.records import Entity, Fact, Mention, PostFacts

    def post(slug: str, facts: list[Fact]) -> PostFacts:
        return PostFacts(f"https://pytorch.org/blog/{slug}/", slug, "2024-08-01", None,
                         [Mention(Entity("Release", "PyTorch 2.4"), "PyTorch 2.4", 0, 11)], facts)

    introduces = Fact("INTRODUCES", Entity("Release", "PyTorch 2.4"),
                      Entity("Feature", "Intel GPU support"), "test.rule", 0, 11, "PyTorch 2.4")
    store = GraphFileStore(graph=build_graph([post("intel-gpus", [introduces])]))
    query = get_query("deprecations")
    assert query_gaps(store, query, {"release": "PyTorch 2.4"}, []) == [
        "no post in the graph announces PyTorch 2.4: what it deprecated or removed is not known"]
    assert query_gaps(store, query, {"release": "PyTorch 2.4"}, [["macOS x86"]]) == []
    announces = Fact("ANNOUNCES", Entity("Post", "https://pytorch.org/blog/pytorch2-4/"),
                     Entity("Release", "PyTorch 2.4"), "test.rule", 0, 11, "PyTorch 2.4")
    store = GraphFileStore(graph=build_graph([post("intel-gpus", [introduces]),
                                              post("pytorch2-4", [announces])]))
    assert query_gaps(store, query, {"release": "PyTorch 2.4"}, []) == []
