"""The hand-made graph of the query, store, page and CLI tests: a few posts' facts, by hand.

Eight posts, written as the :class:`~ptkg.records.PostFacts` an extractor would give for them,
and built with :func:`ptkg.graph.build_graph`, so what the builder derives (``HAS_RELEASE``,
``PRECEDES``, ``version_order``, release dates, a feature's latest stability, ``MENTIONS`` and
their counts, aliases) is the builder's. ``tests/data/graph.json`` is this module's output::

    python tests/data/handmade.py        # writes tests/data/graph.json

and ``tests/test_handmade.py`` checks that the file is what this module builds, that it keeps
the graph contract (``docs/schema.md``), and that every sentence is at its offsets in its post.

What it holds (47 nodes, every label and relationship type of the contract, and ptkg's own):

- the PyTorch 1.8, 1.9 and 1.10 release posts: ZeroRedundancyOptimizer Prototype -> Beta ->
  Stable, torch.fx Beta -> Stable, torch.linalg unstated -> Stable, torch.fft Stable, CUDA
  Graphs Beta (new in 1.10, for CUDA); ROCm in 1.8; ZeroRedundancyOptimizer based on
  DeepSpeed, both by Microsoft; TorchElastic Beta in 1.9, a Feature for that and the SAME_AS
  of the Library;
- the library post of PyTorch 1.5: torchvision 0.6 and PyTorch/XLA 1.5 (``torch_xla 1.5``)
  released with PyTorch 1.5, torchvision 0.6 removing Python 2 (a Release, as the gold
  annotations name it: so a ``Python`` library);
- the Mac post: PyTorch 1.12 (named, not announced: no date) supports MPS (read twice by one
  rule), Apple silicon and macOS, in collaboration with Apple; ResNet50 and VGG16; the Apple
  M1 Ultra it was measured on, a variant of Apple silicon;
- the PyTorch 2.2 post: AOTInductor Beta; macOS x86 deprecated (the sentence is there twice);
- the PyTorch/XLA FSDP post (no date in the corpus): FSDP part of PyTorch/XLA, for TPUs;
- the PyTorch 2.8 post, **hand-written**: the corpus has no post of the 2.8 era, the first
  that states ``API-Unstable``, so its lines are written here (:data:`TEXT_28`) in the
  style of that post's ``## API-UNSTABLE Features`` section, with a look back at the macOS x86
  deprecation of 2.2 (:data:`LOOK_BACK_28`), as the 2.12 post looks back at 2.10's, and the
  replacement of MAGMA by cuSolver that the 2.12 post states (:data:`MAGMA_28`, ``REPLACES``).

Every other sentence is copied from ``tests/data/corpus/pytorch_blog.jsonl`` (the post's text
as ``ptkg.readers`` reads it) and stands at the offsets given here. A fact's rule is the
extractor's rule that reads that sentence so in the bundled sample where there is one, else
``handmade.<type>``: no extractor rule reads deprecations, removals, or "To support model
scaling on TPUs" yet. Mentions are where the surface form stands in the post; their offsets are
not in the graph, only their count per post.
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from ptkg.graph import build_graph, write_graph
from ptkg.records import Entity, Fact, Mention, PostFacts

GRAPH_FILE = Path(__file__).resolve().parent / "graph.json"
BLOG = "https://pytorch.org/blog/"
URL_LIBRARIES = BLOG + "pytorch-library-updates-new-model-serving-library/"
URL_18 = BLOG + "pytorch-1.8-released/"
URL_19 = BLOG + "pytorch-1.9-released/"
URL_110 = BLOG + "pytorch-1.10-released/"
URL_MAC = BLOG + "introducing-accelerated-pytorch-training-on-mac/"
URL_22 = BLOG + "pytorch2-2/"
URL_FSDP = BLOG + "scaling-pytorch-models-on-cloud-tpus-with-fsdp/"
URL_28 = BLOG + "pytorch-2-8/"
#: The posts whose text is not in the corpus: their text, written here.
TEXT_28 = ("We are excited to announce the release of PyTorch 2.8!\n\n"
           "## API-UNSTABLE Features\n\n"
           "### [API-Unstable] Control Flow Operator Library\n\n"
           "## Deprecations\n\n"
           "macOS x86 support was deprecated in 2.2.\n\n"
           "cuSolver replaces the legacy MAGMA backend.\n")
HANDWRITTEN = {URL_28: TEXT_28}
LOOK_BACK_28 = "macOS x86 support was deprecated in 2.2."
#: A replacement, as the 2.12 post states one (it also deprecates MAGMA: not here).
MAGMA_28 = "cuSolver replaces the legacy MAGMA backend."

ZERO_18 = ("(Prototype) ZeroRedundancyOptimizer** - Based on and in partnership with the "
           "Microsoft DeepSpeed team, this feature helps reduce per-process memory footprint by "
           "sharding optimizer states across all participating processes in the "
           "```ProcessGroup``` gang.")
MACOS_X86 = ("Please note that we are [deprecating macOS x86 support]"
             "(https://github.com/pytorch/pytorch/issues/114602), and PyTorch 2.2.x will be the "
             "last version that supports macOS x64.")
MAC_COLLABORATION = ("In collaboration with the Metal engineering team at Apple, we are excited "
                     "to announce support for GPU-accelerated PyTorch training on Mac.")


def e(label: str, name: str) -> Entity:
    return Entity(label, name)


def fact(rel_type: str, source: Entity, target: Entity, rule: str, start: int, evidence: str,
         stability: str | None = None) -> Fact:
    """A fact read from ``evidence``, which starts at ``start`` (-1: the post's title)."""
    end = -1 if start < 0 else start + len(evidence)
    return Fact(rel_type, source, target, rule, start, end, evidence, stability)


def mention(label: str, name: str, surface: str, start: int, kind: str | None = None) -> Mention:
    return Mention(Entity(label, name), surface, start, start + len(surface), kind)


def title_fact(url: str, title: str, release: str) -> Fact:
    """The post announces ``release`` in its title."""
    return fact("ANNOUNCES", e("Post", url), e("Release", release), "announces.title", -1, title)


def library_post() -> PostFacts:
    title = "PyTorch library updates including new model serving library"
    post, tv06, xla15 = e("Post", URL_LIBRARIES), e("Release", "torchvision 0.6"), e(
        "Release", "PyTorch/XLA 1.5")
    pt15 = e("Release", "PyTorch 1.5")
    facts = [
        fact("ANNOUNCES", post, tv06, "announces.release_heading", 6343, "torchvision 0.6"),
        fact("ANNOUNCES", post, xla15, "announces.release_heading", 3694,
             "torch_xla 1.5 now available"),
        fact("RELEASED_WITH", tv06, pt15, "released_with.core_release_post", 5505,
             "We’re excited to share new releases for all three domain libraries alongside "
             "PyTorch 1.5 and the rest of the library updates."),
        fact("RELEASED_WITH", xla15, pt15, "released_with.core_release_post", 3694,
             "torch_xla 1.5 now available"),
        fact("REMOVES", tv06, e("Release", "Python 2"), "handmade.removes", 5631,
             "For this release, all three domain libraries are removing support for Python2 and "
             "will support Python3 only."),
    ]
    mentions = [
        mention("Release", "PyTorch 1.5", "PyTorch 1.5", 17),
        mention("Release", "PyTorch 1.5", "PyTorch 1.5", 417),
        mention("Library", "PyTorch", "PyTorch", 91),
        mention("Library", "PyTorch/XLA", "torch_xla", 221),
        mention("Library", "PyTorch/XLA", "PyTorch/XLA", 4435),
        mention("Release", "PyTorch/XLA 1.5", "torch_xla 1.5", 3694),
        mention("Library", "torchvision", "torchvision", 264),
        mention("Release", "torchvision 0.6", "torchvision 0.6", 6343),
        mention("Release", "torchvision 0.6", "torchvision 0.6", 6363),
        mention("Hardware", "TPU", "Cloud TPUs", 239, "device"),
        mention("Release", "Python 2", "Python2", 5701),
    ]
    return PostFacts(URL_LIBRARIES, title, "2020-04-21", "Team PyTorch", mentions, facts)


def release_18() -> PostFacts:
    title = ("PyTorch 1.8 Release, including Compiler and Distributed Training updates, and New "
             "Mobile Tutorials")
    pt18, zero = e("Release", "PyTorch 1.8"), e("Feature", "ZeroRedundancyOptimizer")
    deepspeed, microsoft = e("Library", "DeepSpeed"), e("Organization", "Microsoft")
    facts = [
        title_fact(URL_18, title, "PyTorch 1.8"),
        fact("INTRODUCES", pt18, e("Feature", "torch.fx"), "introduces.marked_heading", 3076,
             "[Beta] Python code Transformations with FX", "Beta"),
        fact("INTRODUCES", pt18, e("Feature", "torch.fft"), "introduces.marked_heading", 2032,
             "[Stable] ```Torch.fft``` support for high performance NumPy style FFTs", "Stable"),
        fact("INTRODUCES", pt18, zero, "introduces.marked_heading", 6493, ZERO_18, "Prototype"),
        fact("INTRODUCES", pt18, e("Feature", "torch.linalg"), "introduces.added_bullet", 560,
             "Added or stabilized APIs to support FFTs (```torch.fft```), Linear Algebra "
             "functions (```torch.linalg```), added support for autograd for complex tensors and "
             "updates to improve performance for calculating hessians and jacobians; and"),
        fact("SUPPORTS", pt18, e("Hardware", "ROCm"), "supports.support_for", 13023,
             "Starting in PyTorch 1.8, we have added support for ROCm wheels providing an easy "
             "onboarding to using AMD GPUs."),
        fact("BASED_ON", zero, deepspeed, "based_on.based_on", 6493, ZERO_18),
        fact("DEVELOPED_BY", zero, microsoft, "developed_by.collaboration", 6493, ZERO_18),
        fact("DEVELOPED_BY", deepspeed, microsoft, "developed_by.compound", 6493, ZERO_18),
    ]
    mentions = [
        mention("Release", "PyTorch 1.8", "PyTorch 1.8", 48),
        mention("Release", "PyTorch 1.8", "PyTorch 1.8", 1731),
        mention("Library", "PyTorch", "PyTorch", 1141),
        mention("Feature", "torch.fx", "torch.fx", 544),
        mention("Feature", "torch.fx", "torch.fx", 4198),
        mention("Feature", "torch.fx", "FX", 3116),
        mention("Feature", "torch.fx", "FX", 3119),
        mention("Feature", "torch.fft", "torch.fft", 605),
        mention("Feature", "torch.fft", "Torch.fft", 2044),
        mention("Feature", "torch.linalg", "torch.linalg", 649),
        mention("Feature", "ZeroRedundancyOptimizer", "ZeroRedundancyOptimizer", 6505),
        mention("Library", "DeepSpeed", "DeepSpeed", 6580),
        mention("Organization", "Microsoft", "Microsoft", 6570),
        mention("Hardware", "ROCm", "ROCm", 251, "backend"),
        mention("Hardware", "ROCm", "ROCm", 13074, "backend"),
    ]
    return PostFacts(URL_18, title, "2021-03-04", "Team PyTorch", mentions, facts)


def release_19() -> PostFacts:
    title = "PyTorch 1.9 Release, including torch.linalg and Mobile Interpreter"
    pt19 = e("Release", "PyTorch 1.9")
    facts = [
        title_fact(URL_19, title, "PyTorch 1.9"),
        fact("INTRODUCES", pt19, e("Feature", "torch.linalg"), "introduces.marked_heading", 1414,
             "(Stable) *torch.linalg*", "Stable"),
        fact("INTRODUCES", pt19, e("Feature", "ZeroRedundancyOptimizer"),
             "introduces.marked_heading", 10263,
             "(Beta) ZeroRedundancyOptimizer**: ZeroRedundancyOptimizer can be used in "
             "conjunction with DistributedDataParallel to reduce the size of per-process "
             "optimizer states.", "Beta"),
        fact("INTRODUCES", pt19, e("Feature", "TorchElastic"), "introduces.marked_heading", 8229,
             "(Beta) TorchElastic is now part of core", "Beta"),
    ]
    mentions = [
        mention("Release", "PyTorch 1.9", "PyTorch 1.9", 43),
        mention("Feature", "TorchElastic", "TorchElastic", 8236),
        mention("Library", "TorchElastic", "TorchElastic", 8272),
        mention("Feature", "torch.linalg", "torch.linalg", 315),
        mention("Feature", "torch.linalg", "torch.linalg", 1424),
        mention("Feature", "ZeroRedundancyOptimizer", "ZeroRedundancyOptimizer", 10270),
        mention("Feature", "ZeroRedundancyOptimizer", "ZeroRedundancyOptimizer", 10297),
        mention("Organization", "Microsoft", "Microsoft", 1151),
    ]
    return PostFacts(URL_19, title, "2021-06-15", "Team PyTorch", mentions, facts)


def release_110() -> PostFacts:
    title = ("PyTorch 1.10 Release, including CUDA Graphs APIs, frontend and compiler "
             "improvements")
    pt110 = e("Release", "PyTorch 1.10")
    facts = [
        title_fact(URL_110, title, "PyTorch 1.10"),
        fact("INTRODUCES", pt110, e("Feature", "torch.fx"), "introduces.marked_heading", 803,
             "(Stable) Python code transformations with FX", "Stable"),
        fact("INTRODUCES", pt110, e("Feature", "ZeroRedundancyOptimizer"),
             "introduces.marked_heading", 4721,
             "(Stable) ZeroRedundancyOptimizer**: This feature can be used in conjunction with "
             "DistributedDataParallel to reduce the size of per-process optimizer states.",
             "Stable"),
        fact("INTRODUCES", pt110, e("Feature", "CUDA Graphs"), "introduces.marked_heading", 2523,
             "(Beta) CUDA Graphs APIs Integration", "Beta"),
        fact("SUPPORTS", e("Feature", "CUDA Graphs"), e("Hardware", "CUDA"),
             "supports.named_in_feature", 2523, "(Beta) CUDA Graphs APIs Integration"),
    ]
    mentions = [
        mention("Release", "PyTorch 1.10", "PyTorch 1.10", 43),
        mention("Feature", "torch.fx", "FX", 561),
        mention("Feature", "torch.fx", "torch.fx", 1463),
        mention("Feature", "ZeroRedundancyOptimizer", "ZeroRedundancyOptimizer", 4730),
        mention("Feature", "CUDA Graphs", "CUDA Graphs", 453),
        mention("Hardware", "CUDA", "CUDA", 2627),  # "... CPU overheads for CUDA workloads."
    ]
    return PostFacts(URL_110, title, "2021-10-21", "Team PyTorch", mentions, facts)


def mac_post() -> PostFacts:
    title = "Introducing Accelerated PyTorch Training on Mac"
    pt112, mps = e("Release", "PyTorch 1.12"), e("Hardware", "MPS")
    facts = [
        fact("SUPPORTS", pt112, mps, "supports.backend_for", 611,
             "Accelerated GPU training is enabled using Apple’s Metal Performance Shaders (MPS) "
             "as a backend for PyTorch."),
        fact("SUPPORTS", pt112, mps, "supports.backend_for", 719,
             "The MPS backend extends the PyTorch framework, providing scripts and capabilities "
             "to set up and run operations on Mac."),
        fact("SUPPORTS", pt112, e("Hardware", "Apple silicon"), "supports.take_advantage", 140,
             "Until now, PyTorch training on Mac only leveraged the CPU, but with the upcoming  "
             "PyTorch v1.12 release, developers and researchers can take advantage of Apple "
             "silicon GPUs for significantly faster model training."),
        fact("SUPPORTS", pt112, e("Platform", "macOS"), "supports.runs_on", 1, MAC_COLLABORATION),
        fact("DEVELOPED_BY", pt112, e("Organization", "Apple"), "developed_by.collaboration", 1,
             MAC_COLLABORATION),
    ]
    mentions = [
        mention("Release", "PyTorch 1.12", "PyTorch v1.12", 222),
        mention("Release", "PyTorch 1.12", "PyTorch 1.12", 2002),
        mention("Library", "PyTorch", "PyTorch", 115),
        mention("Hardware", "MPS", "Metal Performance Shaders", 661, "backend"),
        mention("Hardware", "MPS", "MPS", 688, "backend"),
        mention("Hardware", "MPS", "MPS", 723, "backend"),
        mention("Hardware", "MPS", "MPS", 838, "backend"),
        mention("Hardware", "Apple silicon", "Apple silicon", 294, "device"),
        mention("Hardware", "Apple silicon", "Apple Silicon", 1123, "device"),
        mention("Hardware", "Apple M1 Ultra", "Apple M1 Ultra", 1890, "device"),
        mention("Platform", "macOS", "Mac", 135),
        mention("Platform", "macOS", "macOS", 1970),
        mention("Organization", "Apple", "Apple", 53),
        mention("Model", "ResNet50", "ResNet50", 2016),
        mention("Model", "VGG16", "VGG16", 2081),
    ]
    return PostFacts(URL_MAC, title, "2022-05-18", "Team PyTorch", mentions, facts)


def release_22() -> PostFacts:
    title = "PyTorch 2.2: FlashAttention-v2 integration, AOTInductor"
    pt22, x86 = e("Release", "PyTorch 2.2"), e("Platform", "macOS x86")
    facts = [
        title_fact(URL_22, title, "PyTorch 2.2"),
        fact("INTRODUCES", pt22, e("Feature", "AOTInductor"), "introduces.marked_heading", 4537,
             "[Beta] AOTInductor: ahead-of-time compilation and deployment for torch.export-ed "
             "programs", "Beta"),
        fact("DEPRECATES", pt22, x86, "handmade.deprecates", 670, MACOS_X86),
        fact("DEPRECATES", pt22, x86, "handmade.deprecates", 2549, MACOS_X86),
    ]
    mentions = [
        mention("Release", "PyTorch 2.2", "PyTorch® 2.2", 43),
        mention("Release", "PyTorch 2.2", "PyTorch 2.2", 131),
        mention("Feature", "AOTInductor", "AOTInductor", 392),
        mention("Platform", "macOS x86", "macOS x86", 707),
        mention("Platform", "macOS x86", "macOS x64", 834),
    ]
    return PostFacts(URL_22, title, "2024-01-30", None, mentions, facts)


def fsdp_post() -> PostFacts:
    title = "Scaling PyTorch models on Cloud TPUs with FSDP"
    fsdp, xla, tpu = e("Feature", "FSDP"), e("Library", "PyTorch/XLA"), e("Hardware", "TPU")
    facts = [
        fact("PART_OF", fsdp, xla, "part_of.in_library", 7887,
             "One might wonder why we need to develop a separate FSDP class in PyTorch/XLA "
             "instead of directly reusing [PyTorch's FSDP class]"
             "(https://pytorch.org/docs/stable/fsdp.html) or extending it to the XLA backend."),
        fact("SUPPORTS", fsdp, tpu, "handmade.supports", 739,
             "To support model scaling on TPUs, we implemented the widely-adopted [Fully Sharded "
             "Data Parallel (FSDP)](https://engineering.fb.com/2021/07/15/open-source/fsdp/) "
             "algorithm for XLA devices as part of the PyTorch/XLA 1.12 release."),
        fact("SUPPORTS", xla, tpu, "supports.backend_for", 264,
             "To support TPUs in PyTorch, the PyTorch/XLA library provides a backend for XLA "
             "devices (most notably TPUs) and lays the groundwork for scaling large PyTorch "
             "models on TPUs."),
    ]
    mentions = [
        mention("Feature", "FSDP", "Fully Sharded Data Parallel", 808),
        mention("Feature", "FSDP", "FSDP", 837),
        mention("Library", "PyTorch/XLA", "PyTorch/XLA", 296),
        mention("Hardware", "TPU", "Cloud TPUs", 196, "device"),
        mention("Hardware", "TPU", "TPUs", 275, "device"),
        mention("Model", "ResNet50", "ResNet-50", 6221),
    ]
    author = ("Ronghang Hu, Vaibhav Singh, Jack Cao, Milad Mohammadi, Yeounoh Chung, "
              "Shauheen Zahirazami, Ross Girshick")
    return PostFacts(URL_FSDP, title, None, author, mentions, facts)


def release_28() -> PostFacts:
    """Hand-written (see :data:`TEXT_28`): the one API-Unstable feature, and a look back at
    2.2's deprecation of macOS x86, as the 2.12 post looks back at 2.10's of TorchScript."""
    title = "PyTorch 2.8 Release Blog"
    heading = "[API-Unstable] Control Flow Operator Library"
    feature = "Control Flow Operator Library"
    facts = [
        title_fact(URL_28, title, "PyTorch 2.8"),
        fact("INTRODUCES", e("Release", "PyTorch 2.8"), e("Feature", feature),
             "introduces.marked_heading", TEXT_28.index(heading), heading, "API-Unstable"),
        fact("DEPRECATES", e("Release", "PyTorch 2.2"), e("Platform", "macOS x86"),
             "handmade.deprecates", TEXT_28.index(LOOK_BACK_28), LOOK_BACK_28),
        fact("REPLACES", e("Library", "cuSolver"), e("Library", "MAGMA"),
             "replaces.replaces", TEXT_28.index(MAGMA_28), MAGMA_28),
    ]
    mentions = [
        mention("Release", "PyTorch 2.8", "PyTorch 2.8", TEXT_28.index("PyTorch 2.8")),
        mention("Feature", feature, feature, TEXT_28.index(feature)),
        mention("Platform", "macOS x86", "macOS x86", TEXT_28.index("macOS x86")),
        mention("Library", "MAGMA", "MAGMA", TEXT_28.index("MAGMA")),
        mention("Library", "cuSolver", "cuSolver", TEXT_28.index("cuSolver")),
    ]
    return PostFacts(URL_28, title, "2025-08-06", None, mentions, facts)


def post_facts() -> list[PostFacts]:
    """The facts of every post of the hand-made graph."""
    return [library_post(), release_18(), release_19(), release_110(), mac_post(), release_22(),
            fsdp_post(), release_28()]


def build() -> nx.MultiDiGraph:
    """The hand-made graph, as :func:`ptkg.graph.build_graph` builds it."""
    return build_graph(post_facts())


def main() -> None:
    graph = build()
    write_graph(graph, GRAPH_FILE)
    print(f"wrote {GRAPH_FILE}: {graph.number_of_nodes()} nodes, "
          f"{graph.number_of_edges()} edges")


if __name__ == "__main__":
    main()
