"""The facts the bundled sample states, read back from its graph (built once, in conftest).

These are end-to-end extraction-quality tests: the English pipeline over
``data/seed_sample.txt``, then the graph file. Each required fact is its own case, so a run
lists exactly which facts are missing.
"""

from __future__ import annotations

import networkx as nx
import pytest

from ptkg.evaluate import find_duplicates
from ptkg.graph import node_id, read_from_posts
from ptkg.names import version_key

PROVENANCE = ("sources", "evidence", "offsets", "rules", "count")
DERIVED_TYPES = ("MENTIONS", "HAS_RELEASE", "PRECEDES")

# (source, type, target, stability of the edge) the sample states (the list).
REQUIRED_FACTS = [
    (("Release", "PyTorch 1.8"), "INTRODUCES", ("Feature", "torch.fx"), "Beta"),
    (("Release", "PyTorch 1.8"), "INTRODUCES", ("Feature", "torch.fft"), "Stable"),
    (("Release", "PyTorch 1.8"), "INTRODUCES", ("Feature", "torch.linalg"), "Beta"),
    (("Release", "PyTorch 1.8"), "INTRODUCES", ("Feature", "ZeroRedundancyOptimizer"), "Prototype"),
    (("Release", "PyTorch 1.8"), "INTRODUCES", ("Feature", "Remote Module"), "Prototype"),
    (("Release", "PyTorch 1.8"), "SUPPORTS", ("Hardware", "ROCm"), None),
    (("Release", "PyTorch 1.12"), "SUPPORTS", ("Hardware", "MPS"), None),
    (("Release", "torchvision 0.6"), "RELEASED_WITH", ("Release", "PyTorch 1.5"), None),
    (("Release", "torchaudio 0.5"), "RELEASED_WITH", ("Release", "PyTorch 1.5"), None),
    (("Release", "torchtext 0.6"), "RELEASED_WITH", ("Release", "PyTorch 1.5"), None),
    (("Release", "PyTorch/XLA 1.5"), "RELEASED_WITH", ("Release", "PyTorch 1.5"), None),
    (("Feature", "FSDP"), "PART_OF", ("Library", "PyTorch/XLA"), None),
    (("Library", "PyTorch/XLA"), "SUPPORTS", ("Hardware", "TPU"), None),
    (("Library", "TorchServe"), "DEVELOPED_BY", ("Organization", "AWS"), None),
    (("Library", "TorchServe"), "DEVELOPED_BY", ("Organization", "Meta"), None),
]


def relations(graph: nx.MultiDiGraph) -> set[tuple[str, str, str, str | None]]:
    """Every edge as (source name, type, target name, stability)."""
    return {(graph.nodes[u]["name"], key, graph.nodes[v]["name"], data.get("stability"))
            for u, v, key, data in graph.edges(keys=True, data=True)}


def extracted_edges(graph: nx.MultiDiGraph) -> list[tuple[str, str, str, dict]]:
    return [(u, v, key, data) for u, v, key, data in graph.edges(keys=True, data=True)
            if read_from_posts(key, data)]


@pytest.mark.parametrize(("source", "type_", "target", "stability"), REQUIRED_FACTS,
                         ids=[f"{s[1]}-{t}-{o[1]}" for s, t, o, _ in REQUIRED_FACTS])
def test_sample_graph_states_fact(sample_graph, source, type_, target, stability):
    found = {fact for fact in relations(sample_graph)
             if fact[0] == source[1] and fact[1] == type_ and fact[2] == target[1]}
    assert found == {(source[1], type_, target[1], stability)}
    assert sample_graph.has_edge(node_id(*source), node_id(*target), key=type_)


# Facts read from sentences rather than headings (gold relations of tests/gold/sample.json).
SENTENCE_FACTS = [
    # "Stable level async error/timeout handling was added ...; and stable support for RPC
    # based profiling." / "we also revamped our Android GPU backend prototype"
    (("Release", "PyTorch 1.8"), "INTRODUCES", ("Feature", "async error/timeout handling"),
     "Stable"),
    (("Release", "PyTorch 1.8"), "INTRODUCES", ("Feature", "RPC-based profiling"), "Stable"),
    (("Release", "PyTorch 1.8"), "INTRODUCES", ("Feature", "Android GPU backend"), "Prototype"),
    # a feature whose name names hardware or a platform
    (("Feature", "Android GPU backend"), "SUPPORTS", ("Hardware", "GPU"), None),
    (("Feature", "Android GPU backend"), "SUPPORTS", ("Platform", "Android"), None),
    (("Feature", "CUDA-support in RPC using TensorPipe"), "SUPPORTS", ("Hardware", "CUDA"), None),
    # "The project began ... when teams from Facebook and Google came together"
    (("Library", "PyTorch/XLA"), "DEVELOPED_BY", ("Organization", "Google"), None),
    (("Library", "PyTorch/XLA"), "DEVELOPED_BY", ("Organization", "Meta"), None),
    # "You can try it for free ... with Google Colab, and you can use it ... on Google Cloud."
    (("Library", "PyTorch/XLA"), "SUPPORTS", ("Platform", "Google Colab"), None),
    (("Library", "PyTorch/XLA"), "SUPPORTS", ("Platform", "Google Cloud"), None),
    # "Fixed an issue related to the SentencePiece dependency" in the torchtext 0.6 section
    (("Library", "torchtext"), "BASED_ON", ("Library", "SentencePiece"), None),
    # "PyTorch had only two ... implementations: Mersenne Twister for CPU and Nvidia's cuRAND
    # Philox for CUDA."
    (("Feature", "Mersenne Twister"), "PART_OF", ("Library", "PyTorch"), None),
    (("Feature", "cuRAND Philox"), "PART_OF", ("Library", "PyTorch"), None),
    # "the native PyTorch FSDP is built upon separate CUDA streams"
    (("Feature", "FSDP"), "SUPPORTS", ("Hardware", "CUDA"), None),
    # "PyTorch's newly introduced CrossEntropyLoss label_smoothing parameter"
    (("Feature", "CrossEntropyLoss"), "PART_OF", ("Library", "PyTorch"), None),
    # "Based on PyTorch dispatch mechanism ..., it allows ...": "it" is the post's torchcsprng
    (("Library", "torchcsprng"), "BASED_ON", ("Feature", "Dispatcher"), None),
]


@pytest.mark.parametrize(("source", "type_", "target", "stability"), SENTENCE_FACTS,
                         ids=[f"{s[1]}-{t}-{o[1]}" for s, t, o, _ in SENTENCE_FACTS])
def test_sample_graph_states_sentence_fact(sample_graph, source, type_, target, stability):
    test_sample_graph_states_fact(sample_graph, source, type_, target, stability)


# Readings the sample's words do not support, each once read by an earlier rule.
UNSTATED_FACTS = [
    # "TorchElastic integration with Kubernetes (Experimental)": TorchElastic's, not the release's
    (("Release", "PyTorch 1.5"), "SUPPORTS", ("Platform", "Kubernetes")),
    # "Until now, PyTorch training on Mac only leveraged the CPU, but with ... v1.12 ..."
    (("Release", "PyTorch 1.12"), "SUPPORTS", ("Hardware", "CPU")),
    # "As part of PyTorch's goal to support scientific computing, ... the torch.fft module."
    (("Feature", "torch.fft"), "PART_OF", ("Library", "PyTorch")),
    # "this feature adds support for it in NCCL process groups": "it" is NCCL's send/recv API
    (("Feature", "Process Group NCCL Send/Recv"), "PART_OF", ("Library", "NCCL")),
    # "CUDA features that are not supported by XLA devices"
    (("Library", "XLA"), "SUPPORTS", ("Hardware", "CUDA")),
    # "Based on PyTorch dispatch mechanism ..., it allows the users to extend c10::GeneratorImpl"
    (("Feature", "c10::GeneratorImpl"), "BASED_ON", ("Feature", "Dispatcher")),
]


@pytest.mark.parametrize(("source", "type_", "target"), UNSTATED_FACTS,
                         ids=[f"{s[1]}-{t}-{o[1]}" for s, t, o in UNSTATED_FACTS])
def test_sample_graph_lacks_unstated_fact(sample_graph, source, type_, target):
    assert not sample_graph.has_edge(node_id(*source), node_id(*target), key=type_)


def test_sample_graph_extracted_edges_carry_provenance(sample_graph):
    problems = []
    for u, v, key, data in extracted_edges(sample_graph):
        missing = [name for name in PROVENANCE if name not in data]
        if missing:
            problems.append((u, key, v, f"missing {missing}"))
            continue
        lengths = (len(data["sources"]), len(data["evidence"]), len(data["offsets"]))
        if lengths != (data["count"],) * 3 or not data["rules"]:
            problems.append((u, key, v, f"lengths {lengths}, count {data['count']}"))
    assert problems == []


def test_sample_graph_derived_edges_carry_no_evidence(sample_graph):
    with_evidence = {(u, key, v) for u, v, key, data in sample_graph.edges(keys=True, data=True)
                     if key in DERIVED_TYPES and "evidence" in data}
    assert with_evidence == set()


def test_sample_graph_evidence_is_post_text_at_offsets(sample_graph, sample_posts):
    mismatches = []
    for u, v, key, data in extracted_edges(sample_graph):
        for url, evidence, offsets in zip(data["sources"], data["evidence"],
                                          data["offsets"], strict=True):
            if offsets is None:  # read from the post's title
                text = " ".join(sample_posts[url].title.split())
            else:
                text = " ".join(sample_posts[url].text[offsets[0]:offsets[1]].split())
            if text != evidence:
                mismatches.append((key, u, v, url, offsets, evidence, text[:80]))
    assert mismatches == []


def test_sample_graph_has_no_duplicate_nodes(sample_graph):
    assert find_duplicates(sample_graph) == []


@pytest.mark.parametrize(("node", "alias"), [
    (("Feature", "torch.fx"), "FX"),
    (("Hardware", "MPS"), "Metal Performance Shaders"),
    (("Library", "PyTorch/XLA"), "torch_xla"),
])
def test_sample_graph_node_has_alias(sample_graph, node, alias):
    assert alias in sample_graph.nodes[node_id(*node)]["aliases"]


def test_sample_graph_aliases_exclude_the_name(sample_graph):
    named = {node for node, data in sample_graph.nodes(data=True)
             if data["name"] in data.get("aliases", [])}
    assert named == set()


def test_sample_graph_feature_stability_is_latest_release(sample_graph):
    expected, actual = {}, {}
    for node, data in sample_graph.nodes(data=True):
        if data["label"] != "Feature":
            continue
        actual[data["name"]] = data.get("stability")
        stated = [(version_key(sample_graph.nodes[u]["version"]), edge["stability"])
                  for u, _, key, edge in sample_graph.in_edges(node, keys=True, data=True)
                  if key == "INTRODUCES" and edge.get("stability")]
        expected[data["name"]] = max(stated)[1] if stated else None
    assert actual == expected
    assert {name for name, stability in actual.items() if stability} >= {
        "torch.fx", "torch.fft", "torch.linalg", "ZeroRedundancyOptimizer", "Remote Module"}


@pytest.mark.parametrize("platform", ["iOS", "Android"])
def test_sample_graph_section_heading_is_implied_source(sample_graph, platform):
    """Under the unmarked heading "PyTorch Mobile", "available on both iOS and Android"
    speaks of PyTorch Mobile, not of the release the post announces."""
    assert sample_graph.has_edge("Feature:PyTorch Mobile", f"Platform:{platform}", key="SUPPORTS")
    assert not sample_graph.has_edge("Release:PyTorch 1.8", f"Platform:{platform}",
                                     key="SUPPORTS")
