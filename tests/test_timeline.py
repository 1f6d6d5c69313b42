"""Tests of ptkg.timeline and ``ptkg timeline``: order, dates, PRECEDES, headline features."""

from __future__ import annotations

import json
import re

import networkx as nx
import pytest
from click.testing import CliRunner

from ptkg.cli import main
from ptkg.graph import build_graph, node_id, write_graph
from ptkg.lifecycle import NotFoundError
from ptkg.records import Entity, Fact, Mention, PostFacts
from ptkg.timeline import timeline, timeline_to_dict

BLOG = "https://pytorch.org/blog/"


def run(*args, catch: bool = True):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch)


def post(slug: str, date: str | None, release: str | None, features=(), mentioned=(),
         released_with: str | None = None) -> PostFacts:
    """A post announcing ``release`` (if any) and introducing ``features`` (name, stability,
    times read); ``mentioned`` releases are only named."""
    url = BLOG + slug + "/"
    mentions = [Mention(Entity("Release", r), r, 0, 1) for r in mentioned]
    facts = []
    if release:
        target = Entity("Release", release)
        mentions.append(Mention(target, release, 0, 1))
        facts.append(Fact("ANNOUNCES", Entity("Post", url), target, "test", -1, -1, slug))
        for name, stability, reads in features:
            facts.extend(Fact("INTRODUCES", target, Entity("Feature", name), "test", i, i + 1,
                              f"{name} sentence {i}", stability) for i in range(reads))
        if released_with:
            facts.append(Fact("RELEASED_WITH", target, Entity("Release", released_with), "test",
                              0, 1, "with"))
    return PostFacts(url, slug, date, None, mentions, facts)


@pytest.fixture
def hand_graph() -> nx.MultiDiGraph:
    return build_graph([
        post("pytorch-1-10", "2021-10-21", "PyTorch 1.10",
             [("Alpha", "Beta", 1), ("Bravo", "Stable", 1), ("Charlie", None, 3),
              ("Delta", "Prototype", 1), ("Echo", "Beta", 2), ("Foxtrot", "Stable", 1)]),
        post("pytorch-1-9", "2021-06-15", "PyTorch 1.9", [("Alpha", "Prototype", 1)]),
        post("pytorch-1-9-again", "2021-06-20", "PyTorch 1.9"),
        post("vision-0-11", "2021-10-21", "torchvision 0.11", [("Golf", "Beta", 1)],
             released_with="PyTorch 1.10"),
        post("mentions-only", "2022-01-01", None, mentioned=["PyTorch 1.8", "torchvision 0.9"]),
        post("libraries", None, None, mentioned=[]),
    ])


def names(lane) -> list[str]:
    return [r.name for r in lane.releases]


def test_timeline_orders_libraries_and_versions(hand_graph):
    lanes = timeline(hand_graph)
    assert [lane.library for lane in lanes] == ["PyTorch", "torchvision"]
    assert names(lanes[0]) == ["PyTorch 1.8", "PyTorch 1.9", "PyTorch 1.10"]
    assert names(lanes[1]) == ["torchvision 0.9", "torchvision 0.11"]


def test_timeline_dates_from_earliest_announcing_post(hand_graph):
    (lane,) = timeline(hand_graph, "PyTorch")
    assert [(r.version, r.date) for r in lane.releases] == [
        ("1.8", None), ("1.9", "2021-06-15"), ("1.10", "2021-10-21")]
    assert lane.releases[1].announced_by == (BLOG + "pytorch-1-9-again/", BLOG + "pytorch-1-9/")


def test_timeline_precedes_links(hand_graph):
    (lane,) = timeline(hand_graph, "PyTorch")
    assert [(r.previous, r.next) for r in lane.releases] == [
        (None, "PyTorch 1.9"), ("PyTorch 1.8", "PyTorch 1.10"), ("PyTorch 1.9", None)]


@pytest.mark.parametrize(("limit", "expected"), [
    (5, [("Bravo", "Stable"), ("Foxtrot", "Stable"), ("Echo", "Beta"), ("Alpha", "Beta"),
         ("Delta", "Prototype")]),
    (2, [("Bravo", "Stable"), ("Foxtrot", "Stable")]),
    (0, []),
    (10, [("Bravo", "Stable"), ("Foxtrot", "Stable"), ("Echo", "Beta"), ("Alpha", "Beta"),
          ("Delta", "Prototype"), ("Charlie", None)]),
    (None, [("Bravo", "Stable"), ("Foxtrot", "Stable"), ("Echo", "Beta"), ("Alpha", "Beta"),
            ("Delta", "Prototype"), ("Charlie", None)]),
], ids=["default", "two", "none", "all", "unlimited"])
def test_timeline_headlines_stable_first_then_most_read(hand_graph, limit, expected):
    (lane,) = timeline(hand_graph, "PyTorch", headline_limit=limit)
    release = lane.releases[-1]
    assert [(h.feature, h.stability) for h in release.headlines] == expected
    assert release.feature_count == 6
    assert all(h.url == BLOG + "pytorch-1-10/" for h in release.headlines)


def test_timeline_nodes_are_the_graph_ids(hand_graph):
    """A release's and a headline's ``node`` find them, and their INTRODUCES edge, in the graph."""
    (lane,) = timeline(hand_graph, "PyTorch", headline_limit=None)
    assert [r.node for r in lane.releases] == [node_id("Release", r.name) for r in lane.releases]
    release = lane.releases[-1]
    assert [h.node for h in release.headlines] == [node_id("Feature", h.feature)
                                                   for h in release.headlines]
    assert [hand_graph.edges[release.node, h.node, "INTRODUCES"].get("stability")
            for h in release.headlines] == [h.stability for h in release.headlines]


def test_timeline_released_with(hand_graph):
    (lane,) = timeline(hand_graph, "torchvision")
    assert [r.released_with for r in lane.releases] == [(), ("PyTorch 1.10",)]


@pytest.mark.parametrize("name", ["torchvision", "TorchVision", "`torchvision`"])
def test_timeline_library_by_any_form(hand_graph, name):
    assert [lane.library for lane in timeline(hand_graph, name)] == ["torchvision"]


def test_timeline_unknown_library_raises(hand_graph):
    with pytest.raises(NotFoundError, match=r"^no Library named 'torchvisio'; closest: "):
        timeline(hand_graph, "torchvisio")


def test_timeline_broken_chain_keeps_every_release(hand_graph):
    hand_graph.remove_edge(node_id("Release", "PyTorch 1.9"), node_id("Release", "PyTorch 1.10"),
                           key="PRECEDES")
    (lane,) = timeline(hand_graph, "PyTorch")
    assert names(lane) == ["PyTorch 1.8", "PyTorch 1.9", "PyTorch 1.10"]
    assert [(r.previous, r.next) for r in lane.releases] == [
        (None, "PyTorch 1.9"), ("PyTorch 1.8", None), (None, None)]


def test_timeline_to_dict_is_plain_json(hand_graph):
    data = timeline_to_dict(timeline(hand_graph))
    assert json.loads(json.dumps(data)) == json.loads(json.dumps(data, sort_keys=True))
    release = data["libraries"][0]["releases"][2]
    assert sorted(release) == ["announced_by", "date", "feature_count", "headlines", "library",
                               "name", "next", "node", "previous", "released_with", "version"]
    assert release["node"] == node_id("Release", "PyTorch 1.10")
    assert release["headlines"][0] == {"feature": "Bravo", "node": node_id("Feature", "Bravo"),
                                       "stability": "Stable", "url": BLOG + "pytorch-1-10/"}


# --------------------------------------------------------------------------- the hand-made graph


def test_timeline_handmade_pytorch_in_version_order(handmade_graph):
    (lane,) = timeline(handmade_graph, "PyTorch")
    order = names(lane)
    assert order == ["PyTorch 1.5", "PyTorch 1.8", "PyTorch 1.9", "PyTorch 1.10", "PyTorch 1.12",
                     "PyTorch 2.2", "PyTorch 2.8"]
    assert order == sorted(order, key=lambda n: tuple(int(p) for p in n.split()[1].split(".")))
    chain = [(u, v) for u, v, k in handmade_graph.edges(keys=True) if k == "PRECEDES"
             and handmade_graph.nodes[u]["library"] == "PyTorch"]
    assert {(node_id("Release", a), node_id("Release", b))
            for a, b in zip(order, order[1:], strict=False)} == set(chain)
    assert [lane.library for lane in timeline(handmade_graph)] == [
        "PyTorch", "Python", "PyTorch/XLA", "torchvision"]


def test_timeline_handmade_18_headlines(handmade_graph):
    (lane,) = timeline(handmade_graph, "PyTorch")
    (release,) = [r for r in lane.releases if r.name == "PyTorch 1.8"]
    assert [(h.feature, h.stability) for h in release.headlines] == [
        ("torch.fft", "Stable"), ("torch.fx", "Beta"), ("ZeroRedundancyOptimizer", "Prototype"),
        ("torch.linalg", None)]
    assert release.feature_count == sum(
        1 for _, _, k in handmade_graph.out_edges(node_id("Release", "PyTorch 1.8"), keys=True)
        if k == "INTRODUCES")
    assert release.feature_count == 4
    (short,) = [r for r in timeline(handmade_graph, "PyTorch", headline_limit=2)[0].releases
                if r.name == "PyTorch 1.8"]
    assert [h.feature for h in short.headlines] == ["torch.fft", "torch.fx"]
    assert short.feature_count == 4


def test_timeline_corpus_dates(corpus_dir, tmp_path):
    """Dates come from the announcing posts of the corpus (JSONL has dates)."""
    from ptkg.extractors.pipeline import run_extraction
    from ptkg.readers import read_posts

    urls = {BLOG + s + "/" for s in ("pytorch-1.8-released", "pytorch-1.9-released")}
    posts = [p for p in read_posts([corpus_dir / "pytorch_blog.jsonl"]) if p.url in urls]
    lanes = timeline(build_graph(run_extraction(posts, model="blank")), "PyTorch")
    dated = {r.name: r.date for r in lanes[0].releases}
    assert (dated["PyTorch 1.8"], dated["PyTorch 1.9"]) == ("2021-03-04", "2021-06-15")


# --------------------------------------------------------------------------- CLI


@pytest.fixture
def hand_graph_file(tmp_path, hand_graph):
    path = tmp_path / "graph.json"
    write_graph(hand_graph, path)
    return path


def test_timeline_command_table(hand_graph_file):
    result = run("timeline", "--graph", hand_graph_file, "--headline-limit", "2", catch=False)
    assert result.exit_code == 0
    blocks = result.stdout.split("\n\n")
    lines = blocks[0].splitlines()
    assert lines[0] == "PyTorch: 3 releases"
    assert re.split(r"\s{2,}", lines[1]) == ["version", "date", "features", "headlines"]
    assert [re.split(r"\s{2,}", line.rstrip()) for line in lines[3:]] == [
        ["1.8", "0"], ["1.9", "2021-06-15", "1", "Alpha [Prototype]"],
        ["1.10", "2021-10-21", "6", "Bravo [Stable]; Foxtrot [Stable]; …"]]
    assert blocks[1].splitlines()[0] == "torchvision: 2 releases"


def test_timeline_command_json(hand_graph_file, hand_graph):
    result = run("timeline", "--library", "TorchVision", "--graph", hand_graph_file,
                 "--format", "json", catch=False)
    assert result.exit_code == 0
    expected = timeline_to_dict(timeline(hand_graph, "torchvision"))
    assert json.loads(result.stdout) == json.loads(json.dumps(expected))


def test_timeline_command_unknown_library(hand_graph_file):
    result = run("timeline", "--library", "torchvisio", "--graph", hand_graph_file)
    assert result.exit_code == 1
    assert len(result.output.splitlines()) == 1
    assert result.output.startswith("Error: no Library named 'torchvisio'; closest: torchvision")


def test_timeline_command_handmade(handmade_graph_file):
    result = run("timeline", "--library", "pytorch", "--graph", handmade_graph_file, catch=False)
    assert result.exit_code == 0
    versions = [line.split()[0] for line in result.stdout.splitlines()[3:]]
    assert versions == ["1.5", "1.8", "1.9", "1.10", "1.12", "2.2", "2.8"]


@pytest.mark.parametrize("module", ["ptkg.timeline"])
def test_timeline_doctests(module):
    import doctest
    import importlib

    results = doctest.testmod(importlib.import_module(module))
    assert (results.failed, results.attempted > 0) == (0, True)
