"""Tests of ptkg.graph: determinism, the JSON file, derived edges, resolution, atomic writes."""

from __future__ import annotations

import itertools
import json
import os
import re
import stat
from dataclasses import replace

import networkx as nx
import pytest

from ptkg.errors import GraphFileError
from ptkg.extractors.pipeline import run_extraction
from ptkg.graph import (
    build_graph,
    dict_to_graph,
    generate_json,
    graph_to_dict,
    node_id,
    read_graph,
    write_graph,
)
from ptkg.readers import read_posts
from ptkg.records import Entity, Fact, Mention, Post, PostFacts

BLOG = "https://pytorch.org/blog/"


def mention(label: str, name: str, surface: str | None = None) -> Mention:
    surface = name if surface is None else surface
    return Mention(Entity(label, name), surface, 0, len(surface))


def fact(type_: str, source: Entity, target: Entity, stability: str | None = None,
         evidence: str = "A sentence.") -> Fact:
    return Fact(type_, source, target, "test.rule", 0, len(evidence), evidence, stability)


def post_facts(slug: str, mentions=(), facts=(), date: str | None = None) -> PostFacts:
    return PostFacts(BLOG + slug + "/", slug, date, None, list(mentions), list(facts))


def release(name: str) -> Entity:
    return Entity("Release", name)


def edges_of(graph: nx.MultiDiGraph, type_: str) -> set[tuple[str, str]]:
    return {(graph.nodes[u]["name"], graph.nodes[v]["name"])
            for u, v, key in graph.edges(keys=True) if key == type_}


def nodes_of(graph: nx.MultiDiGraph, label: str) -> dict[str, dict]:
    return {data["name"]: data for _, data in graph.nodes(data=True) if data["label"] == label}


# --------------------------------------------------------------------------- determinism


def test_build_graph_twice_gives_same_bytes(sample_results, sample_graph_json):
    assert generate_json(build_graph(sample_results)) == sample_graph_json


def test_build_graph_result_order_does_not_matter(sample_results, sample_graph_json):
    assert generate_json(build_graph(list(reversed(sample_results)))) == sample_graph_json


@pytest.mark.parametrize("jobs", [2])
def test_run_extraction_jobs_same_graph_on_sample(sample_posts, sample_graph_json, jobs):
    results = run_extraction(list(sample_posts.values()), model="en_core_web_sm", jobs=jobs)
    assert generate_json(build_graph(results)) == sample_graph_json


@pytest.mark.parametrize("jobs", [3])
def test_run_extraction_jobs_same_graph_on_corpus_posts(corpus_dir, jobs):
    posts = list(itertools.islice(read_posts([corpus_dir / "pytorch_blog.jsonl"]), 10))
    one = generate_json(build_graph(run_extraction(posts, model="blank", jobs=1)))
    assert generate_json(build_graph(run_extraction(posts, model="blank", jobs=jobs))) == one


# --------------------------------------------------------------------------- JSON


def test_graph_to_dict_round_trip(sample_graph):
    data = graph_to_dict(sample_graph)
    assert graph_to_dict(dict_to_graph(json.loads(json.dumps(data)))) == data


def odd_graph() -> nx.MultiDiGraph:
    graph = nx.MultiDiGraph()
    names = ["Ünïcode “quoted” name", "tab\tand\nnewline", "back\\slash \"q\"", "日本語 1.0",
             "Feature:with:colons"]
    for name in names:
        graph.add_node(node_id("Feature", name), label="Feature", name=name, aliases=[name[:3]])
    graph.add_edge(node_id("Feature", names[0]), node_id("Feature", names[1]), key="BASED_ON",
                   type="BASED_ON", sources=[BLOG + "é/"], evidence=["“Ünïcode” ✓"],
                   offsets=[[0, 9]], rules=["test.rule"], count=1)
    return graph


@pytest.mark.parametrize("make_graph", [odd_graph], ids=["unicode-and-odd-names"])
def test_write_graph_read_graph_round_trip(tmp_path, make_graph):
    graph = make_graph()
    path = tmp_path / "graph.json"
    write_graph(graph, path)
    back = read_graph(path)
    assert sorted(back.nodes(data=True)) == sorted(graph.nodes(data=True))
    assert sorted(back.edges(keys=True, data=True)) == sorted(graph.edges(keys=True, data=True))
    assert path.read_text(encoding="utf8") == generate_json(graph)


# --------------------------------------------------------------------------- derived edges


def test_build_graph_precedes_follows_version_order():
    posts = [post_facts(f"pytorch-{v}", [mention("Release", f"PyTorch {v}")])
             for v in ("1.9", "1.10", "1.8")]
    posts.append(post_facts("vision", [mention("Release", "torchvision 0.6"),
                                       mention("Release", "torchvision 0.11")]))
    graph = build_graph(posts)
    assert edges_of(graph, "PRECEDES") == {("PyTorch 1.8", "PyTorch 1.9"),
                                           ("PyTorch 1.9", "PyTorch 1.10"),
                                           ("torchvision 0.6", "torchvision 0.11")}
    orders = {name: data["version_order"] for name, data in nodes_of(graph, "Release").items()}
    assert orders == {"PyTorch 1.8": 1, "PyTorch 1.9": 2, "PyTorch 1.10": 3,
                      "torchvision 0.6": 1, "torchvision 0.11": 2}


def test_build_graph_has_release_links_library():
    graph = build_graph([post_facts("p", [mention("Release", "PyTorch 1.10"),
                                          mention("Release", "PyTorch/XLA 1.5")])])
    assert edges_of(graph, "HAS_RELEASE") == {("PyTorch", "PyTorch 1.10"),
                                              ("PyTorch/XLA", "PyTorch/XLA 1.5")}
    releases = nodes_of(graph, "Release")
    assert {(n, d["library"], d["version"]) for n, d in releases.items()} == {
        ("PyTorch 1.10", "PyTorch", "1.10"), ("PyTorch/XLA 1.5", "PyTorch/XLA", "1.5")}


def test_build_graph_links_a_hardware_product_to_its_family():
    devices = ["MI300", "MI300X", "MI350X", "Hopper", "H100", "NVIDIA H200 GPU", "A100",
               "Ethos-U", "Ethos-U55", "Corstone-320", "TPU", "TPU v4", "Graviton", "Graviton3"]
    graph = build_graph([post_facts("p", [mention("Hardware", d) for d in devices])])
    # the series with a model letter, the pack's family (of H200 named with its vendor and
    # device word too), a model number of a device family of the pack (Ethos-U55); no edge to
    # a family the posts do not name (Ampere, MI350, Corstone)
    assert edges_of(graph, "VARIANT_OF") == {("MI300X", "MI300"), ("H100", "Hopper"),
                                             ("NVIDIA H200 GPU", "Hopper"),
                                             ("Ethos-U55", "Ethos-U"), ("TPU v4", "TPU"),
                                             ("Graviton3", "Graviton")}
    assert {"MI300X", "H100"} <= set(nodes_of(graph, "Hardware"))  # a variant is its own node


@pytest.mark.parametrize("local", [True, False])
def test_build_graph_reads_a_local_short_form_as_no_alias(local):
    """A short form a post gives a feature in its section only ("caching allocator" under
    "PyTorch Mobile Caching allocator") merges no other post's same words into the feature,
    nor becomes its alias; read as a name of it everywhere, it would."""
    short = replace(mention("Feature", "PyTorch Mobile Caching allocator", "caching allocator"),
                    local=local)
    graph = build_graph([post_facts("a", [short]),
                         post_facts("b", [mention("Feature", "caching allocator")])])
    features = nodes_of(graph, "Feature")
    assert len(features) == (2 if local else 1)  # read as a name everywhere: one node
    assert "caching allocator" not in features.get("PyTorch Mobile Caching allocator", {}).get(
        "aliases", [])


def test_build_graph_keeps_a_read_variant_with_its_sentence():
    """A variant read from a code name ("(Codename Meteor Lake)") keeps its provenance, as
    every extracted relationship does; one made from names says why."""
    read = fact("VARIANT_OF", Entity("Hardware", "Meteor Lake"),
                Entity("Hardware", "Intel Core Ultra"))
    graph = build_graph([post_facts("p", [mention("Hardware", "H100"),
                                          mention("Hardware", "Hopper")], [read])])
    edges = {(u, v): d for u, v, k, d in graph.edges(keys=True, data=True) if k == "VARIANT_OF"}
    assert edges[node_id("Hardware", "Meteor Lake"), node_id("Hardware", "Intel Core Ultra")][
        "evidence"] == ["A sentence."]
    assert "why" in edges[node_id("Hardware", "H100"), node_id("Hardware", "Hopper")]


@pytest.mark.parametrize(("label", "names", "variants"), [
    ("Feature", ["FSDP", "FSDP2", "FlashAttention", "FlashAttention-3", "torch.float",
                 "torch.float16"], {("FSDP2", "FSDP"), ("FlashAttention-3", "FlashAttention")}),
    ("Model", ["Llama", "Llama 2", "ResNet", "ResNet50"], {("Llama 2", "Llama"),
                                                          ("ResNet50", "ResNet")}),
])
def test_build_graph_links_a_version_to_what_it_versions(label, names, variants):
    # a code name's digits are part of a name, not a version (torch.float16)
    graph = build_graph([post_facts("p", [mention(label, n) for n in names])])
    assert edges_of(graph, "VARIANT_OF") == variants


def test_build_graph_release_date_ignores_undated_posts():
    """A release announced by a dated and an undated post takes the dated post's date."""
    target = release("PyTorch 1.8")
    posts = [post_facts(slug, [mention("Release", "PyTorch 1.8")],
                        [fact("ANNOUNCES", Entity("Post", BLOG + slug + "/"), target)], date)
             for slug, date in [("undated", None), ("dated", "2021-03-04"),
                                ("later", "2021-05-01")]]
    graph = build_graph(posts)
    assert graph.nodes[node_id("Release", "PyTorch 1.8")]["date"] == "2021-03-04"


@pytest.mark.parametrize(("stated", "latest"), [
    ({"1.8": "Prototype", "1.9": "Beta", "1.10": "Stable"}, "Stable"),
    ({"1.10": "Beta", "1.9": "Stable"}, "Beta"),
], ids=["prototype-beta-stable", "latest-is-not-highest-string"])
def test_build_graph_feature_stability_is_latest_release(stated, latest):
    feature = Entity("Feature", "Remote Module")
    posts = [post_facts(f"pytorch-{version}", [mention("Release", f"PyTorch {version}")],
                        [fact("INTRODUCES", release(f"PyTorch {version}"), feature, stability)])
             for version, stability in stated.items()]
    graph = build_graph(posts)
    assert graph.nodes[node_id("Feature", "Remote Module")]["stability"] == latest
    assert {(graph.nodes[u]["name"], d["stability"]) for u, _, k, d
            in graph.in_edges(node_id("Feature", "Remote Module"), keys=True, data=True)
            if k == "INTRODUCES"} == {(f"PyTorch {v}", s) for v, s in stated.items()}


def test_build_graph_a_release_supports_what_its_own_post_says_its_feature_supports(
        support_graph):
    """An INTRODUCES edge's ``devices`` are what a post stating it says the feature supports:
    GPU, from the release's post, not AMD GPU, from a later one (releases-supporting reads it:
    tests/stores/test_contract.py)."""
    edge = support_graph.edges[node_id("Release", "PyTorch 2.1"),
                               node_id("Feature", "Widget sparsity"), "INTRODUCES"]
    assert edge["devices"] == "|GPU|"


def test_build_graph_a_deprecation_is_stated_in_the_later_releases_whose_posts_say_it(
        handmade_graph):
    """A DEPRECATES edge's ``stated_in``: the releases other than its own whose announcement
    states it (the 2.8 post looks back at 2.2's macOS x86); deprecations reads it."""
    edges = {(u, v): d.get("stated_in") for u, v, k, d in handmade_graph.edges(keys=True, data=True)
             if k in ("DEPRECATES", "REMOVES")}
    assert edges == {
        (node_id("Release", "PyTorch 2.2"), node_id("Platform", "macOS x86")): "|PyTorch 2.8|",
        (node_id("Release", "torchvision 0.6"), node_id("Release", "Python 2")): None}


def test_build_graph_same_fact_twice_is_one_edge():
    source, target = release("PyTorch 1.8"), Entity("Hardware", "ROCm")
    posts = [post_facts(slug, [mention("Release", "PyTorch 1.8"), mention("Hardware", "ROCm")],
                        [fact("SUPPORTS", source, target, evidence=f"Sentence {slug}.")])
             for slug in ("b", "a")]
    graph = build_graph(posts)
    edge = graph.edges[node_id("Release", "PyTorch 1.8"), node_id("Hardware", "ROCm"), "SUPPORTS"]
    assert (edge["sources"], edge["evidence"], edge["count"]) == (
        [BLOG + "a/", BLOG + "b/"], ["Sentence a.", "Sentence b."], 2)
    assert graph.number_of_edges(node_id("Release", "PyTorch 1.8"),
                                 node_id("Hardware", "ROCm")) == 1


# --------------------------------------------------------------------------- resolution


@pytest.mark.parametrize(("label", "forms", "name"), [
    ("Feature", ["torch.compile", "`torch.compile`", "torch.compile()"], "torch.compile"),
    ("Release", ["torchvision 0.11", "TorchVision v0.11"], None),
], ids=["torch.compile", "torchvision-0.11"])
def test_build_graph_merges_name_forms(label, forms, name):
    graph = build_graph([post_facts("p", [mention(label, form) for form in forms])])
    nodes = nodes_of(graph, label)
    assert len(nodes) == 1
    (found, data), = nodes.items()
    assert {found, *data["aliases"]} == set(forms)
    assert name is None or found == name


def test_build_graph_merges_forms_read_from_text():
    text = ("TorchVision v0.11 is out. We released torchvision 0.11 with new models.\n"
            "Use torch.compile, `torch.compile` or torch.compile() on them.")
    post = Post(BLOG + "p/", text, "Title")
    graph = build_graph(run_extraction([post], model="blank"))
    assert set(nodes_of(graph, "Release")) == {"torchvision 0.11"}
    assert nodes_of(graph, "Release")["torchvision 0.11"]["aliases"] == ["TorchVision v0.11"]
    assert set(nodes_of(graph, "Feature")) == {"torch.compile"}


# --------------------------------------------------------------------------- writing


def broken_graph() -> nx.MultiDiGraph:
    graph = nx.MultiDiGraph()
    graph.add_node("Feature:x", label="Feature", name="x", aliases={"not", "a list"})
    return graph


def fail_replace(monkeypatch):
    def replace(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", replace)


def fail_fsync(monkeypatch):
    def fsync(*args, **kwargs):
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(os, "fsync", fsync)


@pytest.mark.parametrize(("make_graph", "sabotage", "error"), [
    (odd_graph, fail_replace, GraphFileError),
    (odd_graph, fail_fsync, GraphFileError),
    (broken_graph, lambda monkeypatch: None, TypeError),
], ids=["replace-fails", "write-fails", "not-serializable"])
def test_write_graph_failure_keeps_old_file(tmp_path, monkeypatch, make_graph, sabotage, error):
    path = tmp_path / "graph.json"
    path.write_text("old graph\n", encoding="utf8")
    graph = make_graph()
    sabotage(monkeypatch)
    with pytest.raises(error):
        write_graph(graph, path)
    assert path.read_text(encoding="utf8") == "old graph\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["graph.json"]


def test_write_graph_unwritable_folder_raises_graph_file_error(tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf8")
    path = tmp_path / "file" / "graph.json"
    with pytest.raises(GraphFileError, match=f"^{re.escape(str(path))}: cannot write the graph"):
        write_graph(odd_graph(), path)


def test_write_graph_new_file_has_umask_permissions(tmp_path):
    umask = os.umask(0o022)
    try:
        write_graph(odd_graph(), tmp_path / "graph.json")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "graph.json").stat().st_mode) == 0o644


def test_write_graph_replacing_keeps_permissions(tmp_path):
    path = tmp_path / "graph.json"
    path.write_text("old\n", encoding="utf8")
    path.chmod(0o640)
    write_graph(odd_graph(), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


# --------------------------------------------------------------------------- reading


@pytest.mark.parametrize("content", [
    None, "", "not json", "[]", '{"format": "other"}', '{"format": "ptkg-graph"}',
    '{"format": "ptkg-graph", "nodes": [{"name": "no id"}], "edges": []}',
], ids=["missing", "empty", "not-json", "list", "other-format", "no-nodes", "node-without-id"])
def test_read_graph_bad_file_raises_with_path(tmp_path, content):
    path = tmp_path / "graph.json"
    if content is not None:
        path.write_text(content, encoding="utf8")
    with pytest.raises(GraphFileError) as info:
        read_graph(path)
    assert str(info.value).startswith(f"{path}: ")
    assert "\n" not in str(info.value)


def test_read_graph_folder_raises_with_path(tmp_path):
    with pytest.raises(GraphFileError, match=f"^{re.escape(str(tmp_path))}: cannot read"):
        read_graph(tmp_path)


def test_introduces_keeps_the_words_that_stated_it_and_features_their_deprecation():
    """The contract: ``stated`` on INTRODUCES, ``deprecated`` on a Feature."""
    url = "https://pytorch.org/blog/p/"
    release, old = Entity("Release", "PyTorch 2.8"), Entity("Release", "PyTorch 2.9")
    feature = Entity("Feature", "torch.foo")
    facts = [Fact("INTRODUCES", release, feature, "x", 0, 5, "[Beta] torch.foo", "Beta",
                  "[BETA]"),
             Fact("DEPRECATES", old, feature, "y", 10, 20, "torch.foo is deprecated")]
    graph = build_graph([PostFacts(url, "t", None, None, facts=facts)])
    edge = graph.edges["Release:PyTorch 2.8", "Feature:torch.foo", "INTRODUCES"]
    assert (edge["stability"], edge["stated"]) == ("Beta", "[BETA]")
    assert graph.nodes["Feature:torch.foo"]["deprecated"] == "PyTorch 2.9"


def test_an_introduces_keeps_the_name_its_post_gave_a_renamed_feature():
    """2.0's "Accelerated PyTorch 2 Transformers" is BetterTransformer renamed (the alias pack
    says so): one node, and the 2.0 edge keeps the name its post used; 1.13's, which used the
    node's own name, keeps none."""
    graph = build_graph([
        post_facts("pytorch-1.13", facts=[fact("INTRODUCES", release("PyTorch 1.13"),
                                                Entity("Feature", "BetterTransformer"), "Stable")]),
        post_facts("pytorch-2.0", facts=[fact(
            "INTRODUCES", release("PyTorch 2.0"),
            Entity("Feature", "Accelerated PyTorch 2 Transformers"), "Stable")])])
    edges = {graph.nodes[u]["name"]: d for u, _, k, d in graph.in_edges(
        "Feature:BetterTransformer", keys=True, data=True) if k == "INTRODUCES"}
    assert edges["PyTorch 2.0"]["named"] == "Accelerated PyTorch 2 Transformers"
    assert "named" not in edges["PyTorch 1.13"]
