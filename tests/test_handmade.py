"""The hand-made graph (``tests/data/graph.json``): what ``tests/data/handmade.py`` builds, valid
under the graph contract, and made of sentences that stand where it says in its posts."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from ptkg.graph import generate_json, graph_counts, read_from_posts
from ptkg.named_queries import load_queries, run_named_query
from ptkg.readers import read_posts
from ptkg.schema import LABELS, RELATION_TYPES, STABILITIES, key_property
from ptkg.stores.networkx_store import GraphFileStore

DATA = Path(__file__).resolve().parent / "data"
#: Node counts per label and edge counts per type (the module docstring of handmade.py).
COUNTS = (
    {"Feature": 9, "Hardware": 6, "Library": 8, "Model": 2, "Organization": 2, "Platform": 2,
     "Post": 8, "Release": 10},
    {"ANNOUNCES": 7, "BASED_ON": 1, "DEPRECATES": 1, "DEVELOPED_BY": 3, "HAS_RELEASE": 10,
     "INTRODUCES": 12, "MENTIONS": 50, "PART_OF": 1, "PRECEDES": 6, "RELEASED_WITH": 2,
     "REMOVES": 1, "REPLACES": 1, "SAME_AS": 1, "SUPPORTS": 7, "VARIANT_OF": 1},
)
PROVENANCE = ("sources", "evidence", "offsets", "rules", "count")
HARDWARE_KINDS = {"device", "backend", "interconnect"}


def load_handmade():
    spec = importlib.util.spec_from_file_location("handmade", DATA / "handmade.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HANDMADE = load_handmade()


def test_graph_file_is_what_handmade_builds():
    """``python tests/data/handmade.py`` writes it: run that after changing the facts."""
    assert (DATA / "graph.json").read_text(encoding="utf8") == generate_json(HANDMADE.build())


def test_handmade_graph_counts(handmade_graph):
    assert graph_counts(handmade_graph) == COUNTS
    assert 25 <= handmade_graph.number_of_nodes() <= 50


def test_handmade_graph_has_every_label_type_and_stability(handmade_graph):
    labels, types = graph_counts(handmade_graph)
    assert set(labels) == set(LABELS)
    assert set(types) == set(RELATION_TYPES)
    stated = {d["stability"] for *_, k, d in handmade_graph.edges(keys=True, data=True)
              if k == "INTRODUCES" and "stability" in d}
    assert stated == {"Prototype", "Beta", "Stable", "API-Unstable"}
    unstated = [(u, v) for u, v, k, d in handmade_graph.edges(keys=True, data=True)
                if k == "INTRODUCES" and "stability" not in d]
    assert unstated == [("Release:PyTorch 1.8", "Feature:torch.linalg")]


def test_handmade_nodes_keep_the_contract(handmade_graph):
    for node, data in handmade_graph.nodes(data=True):
        label = data["label"]
        assert label in LABELS, node
        key = key_property(label)
        assert node == f"{label}:{data[key]}"
        assert isinstance(data["name"], str) and data["name"]
        if label == "Post":
            assert set(data) <= {"label", "name", "url", "title", "date", "author"}
            assert data["name"] == data["title"]
            continue
        assert data["aliases"] == sorted(set(data["aliases"])) and data["name"] not in data[
            "aliases"]
        if label == "Release":
            library, _, version = data["name"].rpartition(" ")
            assert (data["library"], data["version"]) == (library, version)
            assert f"Library:{library}" in handmade_graph
            assert isinstance(data["version_order"], int) and data["version_order"] >= 1
        if label == "Feature" and "stability" in data:
            assert data["stability"] in STABILITIES
        if label == "Hardware":
            assert data["kind"] in HARDWARE_KINDS


def test_handmade_edges_keep_the_contract(handmade_graph):
    for start, end, key, data in handmade_graph.edges(keys=True, data=True):
        rel_type = RELATION_TYPES[key]  # a KeyError names a type the contract does not have
        source, target = handmade_graph.nodes[start]["label"], handmade_graph.nodes[end]["label"]
        assert data["type"] == key
        assert rel_type.fits(source, target), (start, key, end)
        if read_from_posts(key, data):
            count = data["count"]
            assert count >= 1
            assert len(data["sources"]) == len(data["evidence"]) == len(data["offsets"]) == count
            assert data["rules"] and data["rules"] == sorted(set(data["rules"]))
            assert set(data["sources"]) <= {n[5:] for n in handmade_graph
                                            if n.startswith("Post:")}
        elif key == "MENTIONS":
            assert set(data) == {"type", "count"} and data["count"] >= 1
        else:  # derived: VARIANT_OF says why the product is of the family
            assert set(data) == ({"type", "why"} if key in ("VARIANT_OF", "SAME_AS") else {"type"})
        if key == "INTRODUCES" and "stability" in data:
            assert data["stability"] in STABILITIES


def test_handmade_release_chain_follows_version_order(handmade_graph):
    chain = sorted((handmade_graph.nodes[u]["version_order"], u, v)
                   for u, v, k in handmade_graph.edges(keys=True) if k == "PRECEDES"
                   and handmade_graph.nodes[u]["library"] == "PyTorch")
    assert [u for _, u, _ in chain] + [chain[-1][2]] == [
        f"Release:PyTorch {v}" for v in ("1.5", "1.8", "1.9", "1.10", "1.12", "2.2", "2.8")]


def corpus_posts() -> dict:
    return {post.url: post for post in read_posts([DATA / "corpus" / "pytorch_blog.jsonl"])}


@pytest.mark.parametrize("facts", HANDMADE.post_facts(), ids=lambda r: r.url.split("/")[-2])
def test_handmade_sentences_stand_at_their_offsets(facts):
    """Every sentence and surface form is in its post's text where handmade.py says; title,
    date and author are the post's (the hand-written 2.8 post: its text in handmade.py)."""
    if facts.url in HANDMADE.HANDWRITTEN:
        text = HANDMADE.HANDWRITTEN[facts.url]
    else:
        post = corpus_posts()[facts.url]
        text = post.text
        assert (facts.title, facts.date, facts.author) == (post.title, post.date, post.author)
    for fact in facts.facts:
        if fact.start < 0:
            assert fact.evidence == facts.title, fact
        else:
            assert text[fact.start:fact.end] == fact.evidence, fact
    for mention in facts.mentions:
        assert text[mention.start:mention.end] == mention.surface, mention


def test_handmade_only_the_28_post_is_written_by_hand():
    urls = {facts.url for facts in HANDMADE.post_facts()}
    assert set(HANDMADE.HANDWRITTEN) == {HANDMADE.URL_28}
    assert urls - set(corpus_posts()) == {HANDMADE.URL_28}


@pytest.mark.parametrize("name", sorted(load_queries()))
def test_handmade_example_params_find_rows(handmade_graph, name):
    """Every named query's example parameters find rows: a query test never compares nothing."""
    query = load_queries()[name]
    _, rows = run_named_query(GraphFileStore(graph=handmade_graph), query, query.example_params)
    assert rows


def test_handmade_aliases_are_the_surface_forms(handmade_graph):
    aliases = {n: d["aliases"] for n, d in handmade_graph.nodes(data=True) if d.get("aliases")}
    assert aliases == {
        "Feature:FSDP": ["Fully Sharded Data Parallel"], "Feature:torch.fft": ["Torch.fft"],
        "Feature:torch.fx": ["FX"], "Hardware:Apple silicon": ["Apple Silicon"],
        "Hardware:MPS": ["Metal Performance Shaders"], "Hardware:TPU": ["Cloud TPUs", "TPUs"],
        "Library:PyTorch/XLA": ["torch_xla"], "Model:ResNet50": ["ResNet-50"],
        "Platform:macOS": ["Mac"], "Platform:macOS x86": ["macOS x64"],
        "Release:PyTorch 1.12": ["PyTorch v1.12"], "Release:PyTorch 2.2": ["PyTorch® 2.2"],
        "Release:PyTorch/XLA 1.5": ["torch_xla 1.5"], "Release:Python 2": ["Python2"]}
    mentioned = Counter(v for _, v, k in handmade_graph.edges(keys=True) if k == "MENTIONS")
    assert [n for n in handmade_graph if n not in mentioned
            and handmade_graph.nodes[n]["label"] != "Post"] == ["Library:Python"]
