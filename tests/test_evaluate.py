"""Tests of ptkg.evaluate: a hand-made gold and graph whose scores are known."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from ptkg.errors import InputError
from ptkg.evaluate import Score, evaluate, find_duplicates, read_gold, report_rows
from ptkg.graph import node_id

P1 = "https://pytorch.org/blog/one/"
P2 = "https://pytorch.org/blog/two/"  # not in the gold: its edges do not count
R18 = ["Release", "PyTorch 1.8"]

GOLD = {
    "description": "hand-made",
    "posts": [{"url": P1, "title": "One"}],
    "entities": [
        {"label": "Feature", "name": "torch.fx", "also": ["FX"], "posts": [P1]},
        {"label": "Feature", "name": "torch.fft", "posts": [P1]},
        {"label": "Hardware", "name": "ROCm", "posts": [P1]},
        {"label": "Release", "name": "PyTorch 1.8", "posts": [P1]},
    ],
    "relations": [
        {"type": "INTRODUCES", "source": R18, "target": ["Feature", "torch.fx"],
         "stability": "Beta", "post": P1, "evidence": "[Beta] FX"},
        {"type": "INTRODUCES", "source": R18, "target": ["Feature", "torch.fft"],
         "stability": "Stable", "post": P1, "evidence": "[Stable] torch.fft"},
        {"type": "SUPPORTS", "source": R18, "target": ["Hardware", "ROCm"], "post": P1,
         "evidence": "support for ROCm"},
    ],
}


def hand_graph() -> nx.MultiDiGraph:
    """P1 names FX (= torch.fx), torch.fft, Bogus and PyTorch 1.8, not ROCm.

    P1's edges: INTRODUCES FX (Beta: right), torch.fft (Beta: wrong), Bogus (spurious).
    P2 names Torch.FFT (a duplicate of torch.fft) and introduces it: outside the gold.
    """
    graph = nx.MultiDiGraph()
    for url in (P1, P2):
        graph.add_node(node_id("Post", url), label="Post", name=url, url=url)
    for label, name in [("Feature", "FX"), ("Feature", "torch.fft"), ("Feature", "Bogus"),
                        ("Release", "PyTorch 1.8"), ("Feature", "Torch.FFT")]:
        graph.add_node(node_id(label, name), label=label, name=name, aliases=[])
    for url, label, name in [(P1, "Feature", "FX"), (P1, "Feature", "torch.fft"),
                             (P1, "Feature", "Bogus"), (P1, "Release", "PyTorch 1.8"),
                             (P2, "Feature", "Torch.FFT")]:
        graph.add_edge(node_id("Post", url), node_id(label, name), key="MENTIONS",
                       type="MENTIONS", count=1)
    for url, name, stability in [(P1, "FX", "Beta"), (P1, "torch.fft", "Beta"),
                                 (P1, "Bogus", None), (P2, "Torch.FFT", "Stable")]:
        props = {"stability": stability} if stability else {}
        graph.add_edge(node_id(*R18), node_id("Feature", name), key="INTRODUCES",
                       type="INTRODUCES", sources=[url], evidence=["x"], offsets=[[0, 1]],
                       rules=["test"], count=1, **props)
    return graph


@pytest.fixture
def gold(tmp_path):
    path = tmp_path / "gold.json"
    path.write_text(json.dumps(GOLD), encoding="utf8")
    return read_gold([path])


def test_evaluate_entity_scores(gold):
    report = evaluate(hand_graph(), gold)
    assert report.entities == {"Feature": Score(2, 3, 2), "Hardware": Score(0, 0, 1),
                               "Release": Score(1, 1, 1)}
    feature = report.entities["Feature"]
    assert (feature.precision, feature.recall, feature.f1) == pytest.approx((2 / 3, 1.0, 0.8))
    assert report.total("entities") == Score(3, 4, 4)


def test_evaluate_relation_scores(gold):
    report = evaluate(hand_graph(), gold)
    assert report.relations == {"INTRODUCES": Score(2, 3, 2), "SUPPORTS": Score(0, 0, 1)}
    total = report.total("relations")
    assert (total.precision, total.recall, total.f1) == pytest.approx((2 / 3, 2 / 3, 2 / 3))


def test_evaluate_stability_accuracy(gold):
    report = evaluate(hand_graph(), gold)
    assert (report.stability_correct, report.stability_found, report.stability_total) == (1, 2, 2)
    assert report.stability_accuracy == 0.5


def test_evaluate_missed_and_spurious(gold):
    report = evaluate(hand_graph(), gold)
    assert report.missed == sorted([
        "('Hardware', 'ROCm')",
        "('SUPPORTS', ('Release', 'PyTorch 1.8'), ('Hardware', 'ROCm'))"])
    assert report.spurious == sorted([
        "('Feature', 'Bogus')",
        "('INTRODUCES', ('Release', 'PyTorch 1.8'), ('Feature', 'Bogus'))"])


def test_find_duplicates_groups_same_key():
    assert find_duplicates(hand_graph()) == [["Feature:Torch.FFT", "Feature:torch.fft"]]


@pytest.mark.parametrize(("score", "expected"), [
    (Score(0, 0, 0), (0.0, 0.0, 0.0)),
    (Score(0, 2, 0), (0.0, 0.0, 0.0)),
    (Score(1, 4, 2), (0.25, 0.5, 1 / 3)),
])
def test_score_ratios(score, expected):
    assert (score.precision, score.recall, score.f1) == pytest.approx(expected)


def test_report_rows_end_each_part_with_all(gold):
    rows = report_rows(evaluate(hand_graph(), gold))
    assert [(row[0], row[1]) for row in rows] == [
        ("entities", "Feature"), ("entities", "Hardware"), ("entities", "Release"),
        ("entities", "all"), ("relations", "INTRODUCES"), ("relations", "SUPPORTS"),
        ("relations", "all")]
    assert rows[0] == ["entities", "Feature", 0.667, 1.0, 0.8, 2, 3, 2]


def test_read_gold_folder_reads_every_file(tmp_path):
    first = {**GOLD, "relations": GOLD["relations"][:1]}
    second = {**GOLD, "posts": [{"url": P2, "title": "Two"}], "relations": GOLD["relations"][1:]}
    for name, data in (("a.json", first), ("b.json", second)):
        (tmp_path / name).write_text(json.dumps(data), encoding="utf8")
    gold = read_gold([tmp_path])
    assert gold.posts == {P1, P2}
    assert set(gold.relations) == {
        ("INTRODUCES", tuple(R18), ("Feature", "torch.fx")),
        ("INTRODUCES", tuple(R18), ("Feature", "torch.fft")),
        ("SUPPORTS", tuple(R18), ("Hardware", "ROCm"))}


@pytest.mark.parametrize("content", ["not json", "[]", '{"posts": []}',
                                     '{"posts": [{}], "entities": [], "relations": []}'],
                         ids=["not-json", "list", "no-entities", "post-without-url"])
def test_read_gold_bad_file_names_it(tmp_path, content):
    path = tmp_path / "gold.json"
    path.write_text(content, encoding="utf8")
    with pytest.raises(InputError) as info:
        read_gold([path])
    assert str(info.value).startswith(f"{path}: ")


def test_evaluate_scope_counts_only_the_annotated_types(tmp_path):
    """A file scoped to INTRODUCES ignores other relation types and bystander entities."""
    scoped = {**GOLD, "scope": {"entity_labels": ["Release", "Feature"],
                                "relation_types": ["INTRODUCES"]},
              "entities": [e for e in GOLD["entities"] if e["label"] != "Hardware"],
              "relations": [r for r in GOLD["relations"] if r["type"] == "INTRODUCES"]}
    path = tmp_path / "scoped.json"
    path.write_text(json.dumps(scoped), encoding="utf8")
    graph = hand_graph()
    graph.add_node(node_id("Hardware", "ROCm"), label="Hardware", name="ROCm", aliases=[])
    graph.add_edge(node_id("Post", P1), node_id("Hardware", "ROCm"), key="MENTIONS",
                   type="MENTIONS", count=1)
    graph.add_edge(node_id(*R18), node_id("Hardware", "ROCm"), key="SUPPORTS", type="SUPPORTS",
                   sources=[P1], evidence=["x"], offsets=[[0, 1]], rules=["test"], count=1)
    report = evaluate(graph, read_gold([path]))
    assert report.relations == {"INTRODUCES": Score(2, 3, 2)}
    assert report.entities == {"Feature": Score(2, 3, 2), "Release": Score(1, 1, 1)}


def test_gold_entities_named_two_ways_are_one(tmp_path):
    """Two gold files name one feature two ways, each accepting the other: one entity, and
    one merged node finds it and its relations from both files."""
    files = []
    for index, (name, other, release) in enumerate([("nn.Module parametrization",
                                                     "nn.Module parameterization", "1.9"),
                                                    ("nn.Module parameterization",
                                                     "nn.Module parametrization", "1.10")]):
        url = f"https://pytorch.org/blog/{index}/"
        data = {"posts": [{"url": url}],
                "entities": [{"label": "Feature", "name": name, "also": [other], "posts": [url]},
                             {"label": "Release", "name": f"PyTorch {release}", "posts": [url]}],
                "relations": [{"type": "INTRODUCES", "source": ["Release", f"PyTorch {release}"],
                               "target": ["Feature", name], "post": url, "evidence": name}]}
        files.append(tmp_path / f"{index}.json")
        files[-1].write_text(json.dumps(data), encoding="utf8")
    gold = read_gold(files)
    features = [e for e in gold.entities if e[0] == "Feature"]
    assert features == [("Feature", "nn.Module parameterization")]
    graph = nx.MultiDiGraph()
    feature = node_id("Feature", "nn.Module parametrization")
    graph.add_node(feature, label="Feature", name="nn.Module parametrization", aliases=[])
    for index, release in enumerate(["1.9", "1.10"]):
        url = f"https://pytorch.org/blog/{index}/"
        graph.add_node(node_id("Post", url), label="Post", name=url, url=url)
        graph.add_node(node_id("Release", f"PyTorch {release}"), label="Release",
                       name=f"PyTorch {release}", aliases=[])
        for node in (feature, node_id("Release", f"PyTorch {release}")):
            graph.add_edge(node_id("Post", url), node, key="MENTIONS", type="MENTIONS")
        graph.add_edge(node_id("Release", f"PyTorch {release}"), feature, key="INTRODUCES",
                       type="INTRODUCES", sources=[url], evidence=["x"])
    report = evaluate(graph, gold)
    assert report.total("relations").f1 == 1.0 and report.total("entities").f1 == 1.0


def test_a_node_is_found_by_its_aliases(tmp_path):
    """The gold says torch.distributed; the graph's node is PyTorch Distributed, with
    torch.distributed among its aliases: found."""
    path = tmp_path / "gold.json"
    path.write_text(json.dumps({
        "posts": [{"url": P1}],
        "entities": [{"label": "Feature", "name": "torch.distributed", "posts": [P1]}],
        "relations": []}), encoding="utf8")
    graph = nx.MultiDiGraph()
    graph.add_node(node_id("Post", P1), label="Post", name=P1, url=P1)
    node = node_id("Feature", "PyTorch Distributed")
    graph.add_node(node, label="Feature", name="PyTorch Distributed",
                   aliases=["torch.distributed"])
    graph.add_edge(node_id("Post", P1), node, key="MENTIONS", type="MENTIONS")
    assert evaluate(graph, read_gold([path])).total("entities").f1 == 1.0
