"""Issue 12: resolution at corpus scale, rule by rule, each with the merge it makes, the reason
it records and the guard that keeps a look-alike apart (``kg/resolve.py``), then on real posts.
"""

from __future__ import annotations

import json

import networkx as nx
import pytest

import ptkg.resolve
from ptkg.extractors.pipeline import run_extraction
from ptkg.graph import build_graph, generate_json
from ptkg.lifecycle import feature_lifecycle
from ptkg.names import heading_api, name_key, one_letter_apart, singular, variant_key
from ptkg.readers import read_posts
from ptkg.records import Entity, Fact, Mention, PostFacts
from ptkg.resolve import Resolver, hardware_key, pack_tables

BLOG = "https://pytorch.org/blog/"
#: The alias pack of the tests on hand-made facts (the packaged one grows): (label, canonical
#: name, other forms).
PACK = [
    ("Library", "PyTorch", ["Pytorch"]), ("Library", "torchaudio", ["TorchAudio"]),
    ("Library", "ONNX", []), ("Library", "ONNX Runtime", ["ORT"]),
    ("Organization", "AWS", ["Amazon Web Services"]), ("Organization", "NVIDIA", ["Nvidia"]),
    ("Organization", "Intel", []), ("Organization", "Apple", []), ("Organization", "Google", []),
    ("Hardware", "TPU", ["TPUs", "Cloud TPU"]), ("Hardware", "GPU", ["GPUs"]),
    ("Hardware", "CUDA", []), ("Hardware", "Intel GPU", []), ("Hardware", "AMD GPU", []),
    ("Hardware", "Intel Xeon", ["Xeon"]), ("Hardware", "H100", []), ("Hardware", "A100", []),
    ("Hardware", "Apple silicon", ["Apple M1"]), ("Hardware", "Apple M1 Ultra", ["M1 Ultra"]),
    ("Hardware", "Tensor Cores", ["Tensor Core"]), ("Model", "Mask R-CNN", []),
    ("Feature", "DDP", ["DistributedDataParallel", "Distributed Data Parallel"]),
]


BACKENDS = {"CUDA"}


@pytest.fixture(autouse=True)
def test_pack(monkeypatch):
    """Resolution reads :data:`PACK` instead of the packaged alias pack."""
    names, surfaces, vendors, kinds = pack_tables(
        {"label": label, "pattern": form, "id": name,
         **({"kind": "backend"} if name in BACKENDS else {})}
        for label, name, forms in PACK for form in [name, *forms])
    monkeypatch.setattr(ptkg.resolve, "pack_names", lambda: names)
    monkeypatch.setattr(ptkg.resolve, "pack_surfaces", lambda: surfaces)
    monkeypatch.setattr(ptkg.resolve, "vendors", lambda: vendors)
    monkeypatch.setattr(ptkg.resolve, "pack_kinds", lambda: kinds)


def post(slug: str, names: list[tuple[str, str, int]], facts=()) -> PostFacts:
    """A post naming each (label, name) ``count`` times."""
    mentions = [Mention(Entity(label, name), name, i, i + 1)
                for label, name, count in names for i in range(count)]
    return PostFacts(BLOG + slug + "/", slug, None, None, mentions, list(facts))


def fact(type_: str, source: Entity, target: Entity, stability: str | None = None) -> Fact:
    return Fact(type_, source, target, "test.rule", 0, 11, "A sentence.", stability)


def nodes(graph: nx.MultiDiGraph, label: str | None = None) -> dict[str, dict]:
    return {d["name"]: d for _, d in graph.nodes(data=True)
            if d["label"] != "Post" and (label is None or d["label"] == label)}


def resolve(*names: tuple[str, str, int], facts=()) -> nx.MultiDiGraph:
    """The graph of one post per name (so each is a separate reading)."""
    return build_graph([post(f"p{i}", [n]) for i, n in enumerate(names)]
                       + ([post("facts", [], facts)] if facts else []))


# --------------------------------------------------------------------------- merges

MERGES = [
    # (rule, the names read with their labels and counts, the node, words of the reason)
    ("plural", [("Feature", "GradScaler", 3), ("Feature", "GradScalers", 1)],
     ("Feature", "GradScaler"), "plural of GradScaler"),
    ("plural of a class: its instances", [("Feature", "Tensor", 3), ("Feature", "Tensors", 2)],
     ("Feature", "Tensor"), "plural of Tensor"),
    ("plural, last word", [("Feature", "Sparse Tensor", 1), ("Feature", "Sparse Tensors", 4)],
     ("Feature", "Sparse Tensor"), "plural of Sparse Tensor"),
    ("plural, API", [("Feature", "nn.Module", 5), ("Feature", "nn.Modules", 2)],
     ("Feature", "nn.Module"), "plural of nn.Module"),
    ("separator", [("Feature", "torch.deploy", 2), ("Feature", "torch::deploy", 1)],
     ("Feature", "torch.deploy"), "`::` = `.`"),
    ("namespace nn.", [("Feature", "nn.Module", 5), ("Feature", "torch.nn.Module", 1)],
     ("Feature", "nn.Module"), "nn. = torch.nn."),
    ("namespace torch.", [("Feature", "torch.linalg", 5), ("Feature", "linalg", 1)],
     ("Feature", "torch.linalg"), "torch.linalg = linalg"),
    ("namespace F.", [("Feature", "F.relu", 1), ("Feature", "torch.nn.functional.relu", 1)],
     ("Feature", "torch.nn.functional.relu"), "F. = torch.nn.functional."),
    ("namespace torch.ao", [("Feature", "torch.quantization", 1),
                            ("Feature", "torch.ao.quantization", 1)],
     ("Feature", "torch.ao.quantization"), "torch.ao. = torch."),
    ("spelling", [("Feature", "nn.Module parameterization", 1),
                  ("Feature", "nn.Module Parametrization", 1)],
     ("Feature", "nn.Module Parametrization"), "parameterization = parametrization"),
    ("spelling I/O", [("Feature", "Native image I/O for JPEG and PNG formats", 1),
                      ("Feature", "Native image IO for JPEG and PNG formats", 1)],
     ("Feature", "Native image I/O for JPEG and PNG formats"), "I/O = IO"),
    ("version v", [("Feature", "FlashAttention-2", 7), ("Feature", "FlashAttentionv2", 1)],
     ("Feature", "FlashAttention-2"), "a `v` before the version number"),
    ("version in hyphens", [("Model", "Sonnet-4.6", 2), ("Model", "Sonnet-4-6", 1)],
     ("Model", "Sonnet-4.6"), "a version written with hyphens"),
    ("class", [("Feature", "TransformerEncoder", 5), ("Feature", "nn.TransformerEncoder", 3)],
     ("Feature", "nn.TransformerEncoder"), "the class nn.TransformerEncoder"),
    ("means", [("Feature", "CUDA-support in RPC using TensorPipe", 1),
               ("Feature", "CUDA support in RPC", 2)],
     ("Feature", "CUDA support in RPC"), "with the means 'using TensorPipe'"),
    ("function", [("Feature", "inference_mode", 2), ("Feature", "torch.inference_mode", 3)],
     ("Feature", "torch.inference_mode"), "the function torch.inference_mode"),
    ("function in words", [("Feature", "Scaled dot product attention 2.0", 1),
                           ("Feature", "torch.nn.functional.scaled_dot_product_attention", 3)],
     ("Feature", "torch.nn.functional.scaled_dot_product_attention"), "spelled in words"),
    ("generic last word", [("Feature", "BetterTransformer", 5),
                           ("Feature", "BetterTransformer API", 1)],
     ("Feature", "BetterTransformer"), "generic word 'API'"),
    ("generic first word", [("Feature", "Profiler", 2), ("Feature", "PyTorch Profiler", 1)],
     ("Feature", "Profiler"), "generic word 'PyTorch'"),
    ("PyTorch X is torch.x", [("Feature", "torch.distributed", 3),
                              ("Feature", "PyTorch Distributed", 4)],
     ("Feature", "torch.distributed"), "torch.distributed with 'PyTorch' for 'torch.'"),
    ("generic words", [("Feature", "CUDA Graphs", 5),
                       ("Feature", "CUDA Graphs APIs Integration", 1)],
     ("Feature", "CUDA Graphs"), "generic words 'APIs' and 'Integration'"),
    ("parallelism", [("Feature", "TensorParallel", 3), ("Feature", "Tensor Parallelism", 1)],
     ("Feature", "TensorParallel"), "Parallelism for Parallel"),
    ("heading API", [("Feature", "torch.fft", 3),
                     ("Feature", "NumPy Compatible torch.fft module", 1)],
     ("Feature", "torch.fft"), "the heading names the API torch.fft"),
    ("heading via API", [("Feature", "torch.linalg", 3), (
        "Feature", "Support for NumPy style linear algebra functions via torch.linalg", 1)],
     ("Feature", "torch.linalg"), "the heading names the API torch.linalg"),
    ("heading words spell an API", [("Feature", "torch.distributed.rpc", 3),
                                    ("Feature", "Distributed RPC framework APIs", 1)],
     ("Feature", "torch.distributed.rpc"), "the heading's words spell the API"),
    ("heading rename", [("Feature", "torch.func", 3), ("Feature", "functorch -> torch.func", 1)],
     ("Feature", "torch.func"), "the heading renames functorch to torch.func"),
    ("a function that computes a feature", [
        ("Feature", "torchaudio.functional.compute_kaldi_pitch", 1), ("Feature", "Kaldi Pitch", 2)],
     ("Feature", "torchaudio.functional.compute_kaldi_pitch"), "spelled in words"),
    ("hardware vendor and device word", [("Hardware", "H100", 9),
                                         ("Hardware", "NVIDIA H100 GPU", 1)],
     ("Hardware", "H100"), "the hardware H100 named with its vendor"),
    ("hardware memory and form factor", [("Hardware", "A100", 9),
                                         ("Hardware", "NVIDIA A100-SXM4-40GB GPU", 1)],
     ("Hardware", "A100"), "memory or form factor"),
    ("hardware, a pack form", [("Hardware", "TPU", 9), ("Hardware", "Google Cloud TPU", 1)],
     ("Hardware", "TPU"), "the hardware TPU"),
    ("hardware, two long names", [("Hardware", "Intel Data Center GPU Max Series", 9),
                                  ("Hardware", "Intel Max Series GPU", 1)],
     ("Hardware", "Intel Data Center GPU Max Series"), "named with its vendor, a device word"),
    ("hardware, without the family", [("Hardware", "Intel Xeon Cooper Lake CPU", 1),
                                      ("Hardware", "Intel Cooper Lake Processor", 2)],
     ("Hardware", "Intel Cooper Lake Processor"), "without its family name"),
    ("generic word optimizer", [("Feature", "Fused Adagrad", 1),
                                ("Feature", "Fused Adagrad optimizer", 1)],
     ("Feature", "Fused Adagrad"), "generic word 'optimizer'"),
    ("heading via an environment variable", [
        ("Feature", "TORCH_LOGS", 2),
        ("Feature", "Fine-grained configurable logging via TORCH_LOGS", 1)],
     ("Feature", "TORCH_LOGS"), "the heading names the API TORCH_LOGS"),
    ("a heading's area before a dash", [
        ("Feature", "async error/timeout handling", 2),
        ("Feature", "NCCL Reliability - Async Error/Timeout Handling", 1)],
     ("Feature", "async error/timeout handling"), "under its area 'NCCL Reliability'"),
    ("the same words in another order", [
        ("Feature", "Distributed training on Windows", 2),
        ("Feature", "Windows support for Distributed Training", 1)],
     ("Feature", "Distributed training on Windows"), "in another order"),
    ("API typo", [("Feature", "torch.use_deterministic_algorithms", 9),
                  ("Feature", "torch.use_determinstic_algorithms", 1)],
     ("Feature", "torch.use_deterministic_algorithms"), "in an API's name (a typo)"),
    ("API typo in a module", [("Feature", "torch.nn.functional.scaled_dot_product_attention", 4),
                              ("Feature", "torch.nn.functiona.scaled_dot_product_attention", 1)],
     ("Feature", "torch.nn.functional.scaled_dot_product_attention"), "(a typo)"),
    ("a torch module without torch.", [("Feature", "torch.linalg.eigh", 3),
                                       ("Feature", "linalg.eigh", 1)],
     ("Feature", "torch.linalg.eigh"), "torch.linalg = linalg"),
    ("dist is torch.distributed", [("Feature", "torch.distributed.init_process_group", 3),
                                   ("Feature", "dist.init_process_group", 1)],
     ("Feature", "torch.distributed.init_process_group"), "dist. = torch.distributed."),
    ("a library's function", [("Feature", "torchaudio.functional.forced_align", 1),
                              ("Feature", "forced_align", 2)],
     ("Feature", "torchaudio.functional.forced_align"), "the function"),
    ("typo", [("Library", "torchaudio", 80), ("Library", "TorchaAudio", 1)],
     ("Library", "torchaudio"), "typo of torchaudio (one letter; 1 against 80 mentions)"),
    ("label: Library over Feature", [("Feature", "TorchRL", 11), ("Library", "torchrl", 2)],
     ("Library", "TorchRL"), "read as a Feature; the same name as the Library torchrl; label "
                             "Library: a label more specific than Feature"),
    ("label: the pack's", [("Feature", "MaskRCNN", 2), ("Model", "Mask R-CNN", 2)],
     ("Model", "Mask R-CNN"), "label Model: the alias pack's label"),
    ("label and plural", [("Feature", "TensorCore", 2), ("Hardware", "Tensor Cores", 1)],
     ("Hardware", "Tensor Cores"), "read as a Feature"),
]


@pytest.mark.parametrize(("names", "node", "reason"), [m[1:] for m in MERGES],
                         ids=[m[0] for m in MERGES])
def test_issue12_resolution_merges_with_a_reason(names, node, reason):
    graph = resolve(*names)
    label, name = node
    found = [n for n, d in graph.nodes(data=True) if d["label"] != "Post"]
    assert found == [f"{label}:{name}"]
    data = graph.nodes[found[0]]
    assert set(data["aliases"]) == {n for _, n, _ in names} - {name}
    assert data["merged"] == sorted(data["merged"])
    assert any(reason in entry for entry in data["merged"]), data["merged"]
    assert graph.nodes[found[0]]["mentions"] == sum(count for *_, count in names)


KEPT_APART = [
    # (why, names that stay separate nodes)
    ("a lower-case code name's s is the API's",
     [("Feature", "torch.distributions", 2), ("Feature", "torch.distribution", 1)]),
    ("Hugging Face's Transformers is not the plural of Transformer",
     [("Feature", "Transformer", 3), ("Feature", "Transformers", 1)]),
    ("the last letter: two methods", [("Feature", "MultiSWAG", 6), ("Feature", "MultiSWA", 1)]),
    ("code names are exact", [("Feature", "torch.range", 10), ("Feature", "torch.arange", 1)]),
    ("two words are an API only if it computes them", [("Feature", "torch.channels_last", 2),
                                                       ("Feature", "Channels Last", 3)]),
    ("the same words, three names", [("Feature", "Distributed training on Windows", 1),
                                     ("Feature", "Windows support for Distributed Training", 1),
                                     ("Feature", "Training on Windows, distributed", 1)]),
    ("a plural's s is another API", [("Feature", "torch.distributions.normal", 2),
                                     ("Feature", "torch.distribution.normal", 1)]),
    ("a typo needs a common form", [("Library", "TorchElastic", 3),
                                    ("Library", "TorcheElastic", 1)]),
    ("versions are different things", [("Feature", "FlashAttention", 7),
                                       ("Feature", "FlashAttention-2", 7),
                                       ("Feature", "FlashAttention3", 1)]),
    ("a vendor's GPUs are a family of their own", [("Hardware", "GPU", 9),
                                                   ("Hardware", "Intel GPU", 3),
                                                   ("Hardware", "AMD GPU", 2)]),
    ("a GPU with Tensor Cores", [("Hardware", "Tensor Cores", 9),
                                 ("Hardware", "Nvidia Tensor Core GPU", 1)]),
    ("a CUDA GPU is not the backend", [("Hardware", "CUDA", 9),
                                       ("Hardware", "NVIDIA CUDA GPU", 1)]),
    ("a CPU and a GPU", [("Hardware", "Intel Xeon", 9),
                         ("Hardware", "Intel Xeon CPU Max Series", 1),
                         ("Hardware", "Intel Max Series GPU", 1)]),
    ("two specific labels: the company and the cloud",
     [("Organization", "AWS", 5), ("Platform", "AWS", 2)]),
    ("the pack names two things", [("Library", "ONNX", 5), ("Library", "ONNX Runtime", 2)]),
    ("a chip of a family is its own node", [("Hardware", "Apple silicon", 5),
                                            ("Hardware", "Apple M1 Ultra", 1)]),
    ("a one-word class name", [("Feature", "Dataset", 3),
                               ("Feature", "torch.utils.data.Dataset", 1)]),
    ("two APIs end with the class", [("Feature", "MultiheadAttention", 3),
                                     ("Feature", "nn.MultiheadAttention", 2),
                                     ("Feature", "torch.ao.nn.quantizable.MultiheadAttention",
                                      1)]),
    ("a heading about something else with the API",
     [("Feature", "torch.compile", 9), ("Feature", "torch.compile + NumPy", 1),
      ("Feature", "torch.export-based Quantization", 1), ("Feature", "torch.export", 3)]),
    ("data parallelism is not DataParallel",
     [("Feature", "DataParallel", 2), ("Feature", "Data Parallelism", 1)]),
    ("an English word is not a torch module", [("Feature", "Quantization", 1),
                                               ("Feature", "torch.quantization", 1)]),
    ("a feature about a device is not the device",
     [("Hardware", "CUDA", 9), ("Feature", "CUDA support", 1)]),
    ("two specific labels", [("Library", "Metal", 1), ("Platform", "Metal", 1)]),
    ("a feature for what is not a device", [("Feature", "Quantization", 2),
                                            ("Feature", "Quantization for LLMs", 1)]),
    ("a Model is not a Library", [("Model", "Llama", 3), ("Library", "Llama", 1)]),
]


def test_issue12_a_feature_named_for_its_devices_is_the_feature():
    """2.1's "[Prototype] semi-structured (2:4) sparsity for NVIDIA® GPUs" is the feature 2.3
    makes Beta, when the words after "for" name a device of the graph."""
    graph = resolve(("Feature", "semi-structured (2:4) sparsity", 2),
                    ("Feature", "semi-structured (2:4) sparsity for NVIDIA® GPUs", 1),
                    ("Hardware", "NVIDIA GPU", 3))
    data = graph.nodes["Feature:semi-structured (2:4) sparsity"]
    assert data["aliases"] == ["semi-structured (2:4) sparsity for NVIDIA® GPUs"]
    assert any("for the devices 'NVIDIA® GPUs'" in entry for entry in data["merged"])


@pytest.mark.parametrize("names", [k[1] for k in KEPT_APART], ids=[k[0] for k in KEPT_APART])
def test_issue12_resolution_keeps_look_alikes_apart(names):
    graph = resolve(*names)
    assert sorted((d["label"], d["name"]) for _, d in graph.nodes(data=True)
                  if d["label"] != "Post") == sorted((label, name) for label, name, _ in names)
    assert all("merged" not in d for _, d in graph.nodes(data=True))


def test_issue12_a_name_keeps_its_label_when_its_facts_need_it():
    """functorch that a release INTRODUCES stays a Feature beside the Library functorch: the
    contract's INTRODUCES goes to a Feature, and the fact is kept."""
    facts = [fact("INTRODUCES", Entity("Release", "PyTorch 1.13"),
                  Entity("Feature", "functorch"), "Beta")]
    graph = resolve(("Library", "functorch", 9), ("Feature", "functorch", 1), facts=facts)
    assert {"Library:functorch", "Feature:functorch"} <= set(graph)
    assert graph.has_edge("Release:PyTorch 1.13", "Feature:functorch", "INTRODUCES")
    assert graph.edges["Feature:functorch", "Library:functorch", "SAME_AS"]["why"] == (
        "the same thing; a Feature for its INTRODUCES, which a Library cannot take")


def test_a_heading_whose_words_spell_a_kernel_is_the_kernel():
    """The TokenSpeed post's lead line and the kernel its section names are one node, named as
    the code names it; three words spell no API ("Get Device Info" is not get_device)."""
    graph = resolve(("Feature", "Fused QK-RMSNorm + Partial RoPE + Gate Split in Attention", 1),
                    ("Feature", "fused_qk_rmsnorm_rope_gate", 1),
                    ("Feature", "Get Device Info", 1), ("Feature", "get_device", 1))
    assert "Feature:Fused QK-RMSNorm + Partial RoPE + Gate Split in Attention" not in graph
    assert "its words spell the API" in graph.nodes["Feature:fused_qk_rmsnorm_rope_gate"][
        "merged"][0]
    assert {"Feature:Get Device Info", "Feature:get_device"} <= set(graph)


@pytest.mark.parametrize("heading, model", [
    ("Emformer Module", "Emformer"), ("RetinaNet detection model", "RetinaNet"),
    ("Wav2Vec2.0 Model", "Wav2Vec2.0")])
def test_issue12_a_feature_named_as_a_model_is_the_model(heading, model):
    """A Feature named as a Model and model words is the Model: one node, or, when a release
    introduces it (INTRODUCES needs a Feature), a Feature linked to the Model by SAME_AS."""
    plain = resolve(("Model", model, 5), ("Feature", heading, 1))
    assert f"Feature:{heading}" not in plain and f"Model:{model}" in plain
    facts = [fact("INTRODUCES", Entity("Release", "torchaudio 0.10"), Entity("Feature", heading))]
    kept = resolve(("Model", model, 5), ("Feature", heading, 1), facts=facts)
    assert kept.has_edge(f"Feature:{heading}", f"Model:{model}", "SAME_AS")


def test_issue12_model_words_alone_name_no_model():
    """Model words after a name that is no Model's, or a heading of models, join nothing and
    link nothing, introduced or not; the near miss "MobileNetV3 models" is the Model's."""
    headings = ("Mobile models", "New Mobile models for Classification", "MobileNetV3 models")
    facts = [fact("INTRODUCES", Entity("Release", "torchvision 0.9"), Entity("Feature", name))
             for name in headings]
    graph = resolve(("Model", "MobileNetV3", 5), *(("Feature", name, 1) for name in headings),
                    facts=facts)
    assert {"Feature:Mobile models", "Feature:New Mobile models for Classification"} <= set(graph)
    assert [e[:2] for e in graph.edges(keys=True) if e[2] == "SAME_AS"] == [
        ("Feature:MobileNetV3 models", "Model:MobileNetV3")]


def test_issue12_same_as_links_only_a_feature_to_a_library_or_model():
    """A Feature kept beside a Hardware of its name for its INTRODUCES is linked to nothing by
    resolution, whose SAME_AS runs from a Feature to a Library or Model (the graph links a
    backend's twins by their names and the backend's kind)."""
    facts = [fact("INTRODUCES", Entity("Release", "PyTorch 2.0"), Entity("Feature", "XPU")),
             fact("SUPPORTS", Entity("Release", "PyTorch 2.0"), Entity("Hardware", "XPU"))]
    graph = resolve(("Hardware", "XPU", 9), ("Feature", "XPU", 1), facts=facts)
    assert {"Hardware:XPU", "Feature:XPU"} <= set(graph)
    assert not [e for e in graph.edges(keys=True) if e[2] == "SAME_AS"]


def test_issue12_a_release_is_named_by_its_librarys_node():
    results = [post("a", [("Feature", "TorchRL", 5), ("Release", "torchrl 0.1", 1)]),
               post("b", [("Library", "torchrl", 1)])]
    graph = build_graph(results)
    assert graph.nodes["Release:TorchRL 0.1"]["library"] == "TorchRL"
    assert graph.has_edge("Library:TorchRL", "Release:TorchRL 0.1", "HAS_RELEASE")
    assert "Release:torchrl 0.1" not in graph and "Library:torchrl" not in graph


def test_issue12_merged_features_share_one_lifecycle():
    """The spellings of 1.9 and 1.10 are one feature: Beta, then Stable."""
    r19, r110 = Entity("Release", "PyTorch 1.9"), Entity("Release", "PyTorch 1.10")
    results = [
        PostFacts(BLOG + "pytorch-1.9-released/", "1.9", "2021-06-15", None,
                  [Mention(Entity("Feature", "nn.Module parameterization"), "x", 0, 1)],
                  [fact("INTRODUCES", r19, Entity("Feature", "nn.Module parameterization"),
                        "Beta")]),
        PostFacts(BLOG + "pytorch-1.10-released/", "1.10", "2021-10-21", None,
                  [Mention(Entity("Feature", "nn.Module Parametrization"), "x", 0, 1)],
                  [fact("INTRODUCES", r110, Entity("Feature", "nn.Module Parametrization"),
                        "Stable")]),
    ]
    graph = build_graph(results)
    found = feature_lifecycle(graph, "nn.Module parameterization")
    assert [(s.release, s.stability) for s in found.releases] == [("PyTorch 1.9", "Beta"),
                                                                  ("PyTorch 1.10", "Stable")]
    assert [c.kind for c in found.changes] == ["promotion"]


def test_issue12_resolution_is_deterministic_and_explained():
    names = [("Feature", "GradScaler", 1), ("Feature", "GradScalers", 1),
             ("Feature", "torch::deploy", 1), ("Feature", "torch.deploy", 1),
             ("Library", "torchrl", 2), ("Feature", "TorchRL", 3)]
    results = [post(f"p{i}", [n]) for i, n in enumerate(names)]
    one = generate_json(build_graph(results))
    assert generate_json(build_graph(list(reversed(results)))) == one
    resolver = Resolver.from_results(results)
    assert resolver.reasons() == {
        Entity("Feature", "GradScalers"): "plural of GradScaler",
        Entity("Feature", "TorchRL"): "read as a Feature; the same name as the Library torchrl; "
                                      "label Library: a label more specific than Feature, the "
                                      "generic rules' label",
        Entity("Feature", "torch::deploy"): "`::` = `.` (torch.deploy)",
        Entity("Library", "torchrl"): "same name up to case, spacing and punctuation",
    }
    merged = {d["name"]: d.get("merged") for d in json.loads(one)["nodes"]}
    assert merged["GradScaler"] == ["GradScalers: plural of GradScaler"]


# --------------------------------------------------------------------------- name helpers


@pytest.mark.parametrize(("a", "b", "same"), [
    ("torch::deploy", "torch.deploy", True), ("torch.nn.Module", "nn.Module", True),
    ("nn.functional.relu", "F.relu", True), ("fft", "torch.fft", True),
    ("special", "torch.special", False),  # an English word: not a bare module name
    ("Native image I/O", "Native image IO", True), ("quantisation", "quantization", True),
    ("YOLOv5", "YOLO-5", True), ("Wav2Vec2", "Wav2Vec-2", True),
    ("Sonnet-4-6", "Sonnet-4.6", True), ("Llama-3-8B", "Llama-3.8B", False),
    ("Corstone-320", "Corstone-3.20", False),
])
def test_issue12_variant_key(a, b, same):
    assert (variant_key(a)[0] == variant_key(b)[0]) is same


@pytest.mark.parametrize(("name", "expected"), [
    ("GradScalers", "GradScaler"), ("Intel Arc GPUs", "Intel Arc GPU"), ("DataPipes", "DataPipe"),
    ("torch.ones", None), ("allpass", None), ("Ops", None), ("Datasets", None),
    ("Kubernetes cluster", None), ("Process", None), ("Focus", None), ("Apple's", None),
])
def test_issue12_singular(name, expected):
    assert singular(name) == expected


@pytest.mark.parametrize(("name", "api"), [
    ("NumPy Compatible torch.fft module", "torch.fft"), ("torch.special module", "torch.special"),
    ("functorch -> torch.func", "torch.func"), ("torch.compile + NumPy", None),
    ("torch.set_default_device and torch.device as context manager", None),
    ("torch.export -based Quantization", None), ("Profile-directed typing in TorchScript", None),
])
def test_issue12_heading_api(name, api):
    found = heading_api(name)
    assert (found and found[0]) == api or (found is None and api is None)


@pytest.mark.parametrize(("a", "b", "apart"), [
    ("torchaaudio", "torchaudio", True), ("pageattention", "pagedattention", True),
    ("multiswa", "multiswag", False), ("torchrange", "torcharange", True),  # code: guarded above
    ("int8", "uint8", False), ("mistral", "mixtral", True), ("resnet", "resnext", True),
    ("torchaudio", "torchaudios", False),
])
def test_issue12_one_letter_apart(a, b, apart):
    assert one_letter_apart(a, b) is apart


@pytest.mark.parametrize(("name", "key"), [
    ("NVIDIA H100 GPU", "h100"), ("NVIDIA A100 40GB GPU", "a100"), ("AWS Graviton Processor",
                                                                   "graviton"),
    ("Arm Ethos-U85 NPU", "ethosu85"), ("Intel® Max Series GPU", "max"), ("Intel GPU", None),
    ("GPU", None), ("Intel Xeon CPU GPU", None), ("Intel® Arc™ Graphics", "arc"),
])
def test_issue12_hardware_key(name, key):
    found = hardware_key(name)
    assert (found[0] if found else None) == key


# --------------------------------------------------------------------------- real posts

#: Posts of tests/data/corpus where the issue's pairs are read (slug -> what it holds).
CORPUS_POSTS = {
    "accelerating-training-on-nvidia-gpus-with-pytorch-automatic-mixed-precision":
        "GradScaler, GradScalers; A100",
    "pytorch-1.7-released": "Native image I/O and IO; NumPy Compatible torch.fft module",
    "pytorch-1.8-released": "torch.fft",
    "pytorch-1.9-released": "nn.Module parameterization",
    "pytorch-1.10-released": "nn.Module Parametrization",
    "new-library-updates-in-pytorch-2.0": "TorchRL, torchrl",
    "introducing-nvfuser-a-deep-learning-compiler-for-pytorch": "NVIDIA A100 40GB GPU",
    "pytorch-1.8-new-library-releases": "TorchaAudio",
    "pytorch-1.6-now-includes-stochastic-weight-averaging": "MultiSWA, MultiSWAG",
    "pytorch-0_4_0-migration-guide": "torch.rand, torch.randn, torch.range, torch.arange",
}
#: Names read in those posts that are one node (any of them may be missing when the
#: extraction does not read it; those it reads are one node).
ONE_NODE = [
    {"GradScaler", "GradScalers"},
    {"Native image I/O for JPEG and PNG formats", "Native image IO for JPEG and PNG formats"},
    {"nn.Module parameterization", "nn.Module Parametrization"},
    {"TorchRL", "torchrl"},
    {"A100", "NVIDIA A100 40GB GPU"},
    {"torchaudio", "TorchaAudio"},
    {"torch.fft", "NumPy Compatible torch.fft module"},
]
#: Names that stay nodes of their own.
APART = [{"MultiSWA", "MultiSWAG"}, {"torch.rand", "torch.randn", "torch.range", "torch.arange"}]


@pytest.fixture(scope="module")
def corpus_graph(corpus_dir) -> tuple[nx.MultiDiGraph, list[PostFacts]]:
    urls = {BLOG + slug + "/" for slug in CORPUS_POSTS}
    posts = [p for p in read_posts([corpus_dir / "pytorch_blog.jsonl"]) if p.url in urls]
    assert len(posts) == len(urls)
    results = run_extraction(posts, model="en_core_web_sm")
    return build_graph(results), results


def read_names(results: list[PostFacts]) -> set[str]:
    return {e.name for r in results for e in [m.entity for m in r.mentions]
            + [x for f in r.facts for x in (f.source, f.target)]}


@pytest.mark.parametrize("names", ONE_NODE, ids=lambda names: sorted(names)[0])
def test_issue12_corpus_pairs_are_one_node(corpus_graph, names):
    graph, results = corpus_graph
    read = names & read_names(results)
    holding = {n for n, d in graph.nodes(data=True) if d["label"] != "Post"
               and {d["name"], *d.get("aliases", [])} & read}
    assert len(holding) == (1 if read else 0), holding
    if len(read) > 1:
        (node,) = holding
        merged = {entry.split(":")[0].split(" (")[0] for entry in
                  graph.nodes[node]["merged"]}
        assert read - {graph.nodes[node]["name"]} <= merged


@pytest.mark.parametrize("names", APART, ids=lambda names: sorted(names)[0])
def test_issue12_corpus_look_alikes_stay_apart(corpus_graph, names):
    graph, results = corpus_graph
    read = names & read_names(results)
    found = {d["name"] for _, d in graph.nodes(data=True) if d["name"] in read}
    assert found == read


def test_issue12_corpus_graph_has_no_duplicate_keys(corpus_graph):
    """No two nodes of one label share a name key (what ``ptkg eval`` counts)."""
    graph, _ = corpus_graph
    keys = [(d["label"], name_key(d["name"])) for _, d in graph.nodes(data=True)
            if d["label"] != "Post"]
    assert len(keys) == len(set(keys))
