"""Post-level readings of ``ptkg.extract`` on small posts, through the rule components alone.

Each post is a few lines written the way release posts are; ``run_extraction`` with the blank
model runs the same code as a build, without the English model's parse.
"""

from __future__ import annotations

import pytest

from ptkg.extractors.pipeline import run_extraction
from ptkg.graph import build_graph
from ptkg.records import Entity, Post, PostFacts

BLOG = "https://pytorch.org/blog/"


def extracted(text: str, title: str, model: str = "en_core_web_sm") -> PostFacts:
    """What ptkg reads from one post."""
    [result] = run_extraction([Post(BLOG + "p/", text, title)], model=model, jobs=1)
    return result


def facts_of(text: str, title: str = "New library releases", model: str = "blank") -> set[tuple]:
    """(type, source, target, stability) read from one post."""
    return {(f.type, f.source.name, f.target.name, f.stability)
            for f in extracted(text, title, model).facts}


def triples_of(text: str, title: str = "New library releases",
               model: str = "blank") -> set[tuple]:
    """(type, source, target) read from one post."""
    return {f[:3] for f in facts_of(text, title, model)}


def parts_of(facts: set[tuple], library: str) -> set[str]:
    """The names ``facts`` (type, source, target) make part of ``library``."""
    return {part for kind, part, whole in facts if kind == "PART_OF" and whole == library}


def mentioned(text: str) -> set[Entity]:
    [result] = run_extraction([Post(BLOG + "p/", text, "Title")], model="blank", jobs=1)
    return {m.entity for m in result.mentions}


def test_bare_version_in_library_section_is_that_librarys_release():
    found = mentioned("# TorchAudio 0.8.0\n"
                      "Starting in 0.8.0, TorchAudio uses CMake to build its C++ extension.\n")
    assert Entity("Release", "torchaudio 0.8") in found
    assert Entity("Release", "PyTorch 0.8") not in found


def test_bare_version_beside_a_core_release_stays_pytorchs():
    found = mentioned("# TorchVision 0.9.0\n"
                      "Starting in 1.8, torchvision requires PyTorch 1.8 or later.\n")
    assert Entity("Release", "torchvision 1.8") not in found


def test_toolkit_release_heading_opens_no_section():
    """1.13: a heading about CUDA versions, then the Beta features: PyTorch 1.13's."""
    text = ("We are excited to announce the release of PyTorch 1.13.\n\n"
            "## Stable Features\n\n### (Stable) CUDA 10.2 and 11.3 CI/CD Deprecation\n\n"
            "We deprecated CUDA 10.2 and 11.3.\n\n## Beta Features\n\n### (Beta) functorch\n\n"
            "### (Beta) CUDA Sanitizer\n\nIt finds races.\n")
    facts = facts_of(text, "PyTorch 1.13 release")
    assert ("INTRODUCES", "PyTorch 1.13", "CUDA Sanitizer", "Beta") in facts
    assert {f[1] for f in facts if f[0] == "INTRODUCES"} == {"PyTorch 1.13"}
    assert {("DEPRECATES", "PyTorch 1.13", "CUDA 10.2", None),
            ("DEPRECATES", "PyTorch 1.13", "CUDA 11.3", None)} <= facts


def test_marked_heading_over_marked_items_is_a_group():
    """1.9: "(Beta) Distributed Training Updates" groups bold (Beta) bullets: no feature of its
    own; a marked tutorial link under a feature heading makes no group."""
    text = ("We are excited to announce PyTorch 1.9.\n\n# Distributed Training\n\n"
            "### (Beta) Distributed Training Updates\n\nThere are beta features:\n\n"
            "* **(Beta) ZeroRedundancyOptimizer**: shards optimizer states.\n\n"
            "### (Prototype) FX Graph Mode Quantization\n\nIt quantizes.\n\n* Tutorials:\n"
            "  * [(Prototype) FX Graph Mode User Guide](https://pytorch.org/tutorials/x.html)\n")
    introduced = {f[2]: f[3] for f in facts_of(text, "PyTorch 1.9 Release")
                  if f[0] == "INTRODUCES"}
    assert introduced == {"ZeroRedundancyOptimizer": "Beta",
                          "FX Graph Mode Quantization": "Prototype"}


@pytest.mark.parametrize(("title", "introduced"), [
    ("PyTorch 1.13 release, including beta versions of functorch", True),
    ("PyTorch library updates including new model serving library", False),
])
def test_marked_library_joins_the_core_release_its_title_names(title, introduced):
    """ "(Beta) functorch" in the 1.13 post is a feature of 1.13 (functorch moved into PyTorch);
    "TorchServe (Experimental)" in a post about library updates is the library itself."""
    text = ("Along with the PyTorch 1.13 release, we are announcing updates.\n\n"
            "## Beta Features\n\n### (Beta) functorch\n\nIt is now in PyTorch.\n")
    facts = facts_of(text, title)
    assert (("INTRODUCES", "PyTorch 1.13", "functorch", "Beta") in facts) is introduced


def test_a_name_inside_the_sections_feature_stands_for_it():
    """1.9: "The Complex Autograd feature, released as a beta in PyTorch 1.8, is now stable"
    under "(Stable) Complex Autograd" is about Complex Autograd, not autograd."""
    text = ("We are excited to announce PyTorch 1.9.\n\n### (Stable) Complex Autograd\n\n"
            "The Complex Autograd feature, released as a beta in PyTorch 1.8, is now stable.\n")
    facts = facts_of(text, "PyTorch 1.9 Release", model="en_core_web_sm")
    assert ("INTRODUCES", "PyTorch 1.8", "Complex Autograd", "Beta") in facts
    assert not {f for f in facts if f[2] == "autograd"}


def test_what_a_generic_subject_recalls_is_the_sections_feature():
    """1.7: "Support for using the PyTorch profiler in conjunction with the RPC framework was
    first introduced in PyTorch 1.6" under "[Beta] Enhancements to RPC-based Profiling" recalls
    RPC-based profiling in 1.6, not the profiler."""
    text = ("We are excited to announce PyTorch 1.7.\n\n## [Beta] Enhancements to RPC-based "
            "Profiling\nSupport for using the PyTorch profiler in conjunction with the RPC "
            "framework was first introduced in PyTorch 1.6. In PyTorch 1.7, the following "
            "enhancements have been made.\n")
    introduced = {f[:3] for f in facts_of(text, "PyTorch 1.7 released", model="en_core_web_sm")
                  if f[0] == "INTRODUCES"}
    assert ("INTRODUCES", "PyTorch 1.6", "Enhancements to RPC-based Profiling") in introduced
    assert not {f for f in introduced if f[2] == "PyTorch Profiler"}


def test_added_bullet_items_after_such_as():
    text = ("PyTorch 1.4 is released.\n\n# torchaudio 0.4\n\n"
            "* New filters such as biquad, data augmentation such as time and frequency "
            "masking, transforms such as MFCC, gain and dither, are now available.\n")
    introduced = {f[2] for f in facts_of(text, "PyTorch 1.4 released") if f[0] == "INTRODUCES"}
    assert {"biquad", "MFCC", "gain", "dither", "time masking", "frequency masking"} <= introduced
    assert "time" not in introduced  # "time and frequency masking" share "masking"
    assert not {name for name in introduced if "such as" in name or name.startswith("are")}


def test_13_post_shapes():
    """1.13: a heading whose colon is followed by the change keeps it ("NNC: Add BF16 ..."); a
    table cell ("Beta Support for M1 devices") restates a heading; "Since v1.12, ... as a
    prototype feature" is what 1.12 introduced, the section's feature."""
    text = ("We are excited to announce the release of PyTorch 1.13.\n\n"
            "<table><tr><td>Beta Support for M1 devices</td></tr></table>\n\n"
            "## Beta Features\n\n### (Beta) NNC: Add BF16 and Channels last support\n\n"
            "It is faster.\n\n### (Beta) Support for M1 Devices\n\n"
            "Since v1.12, PyTorch has been offering native builds for Apple silicon machines "
            "that use the M1 chip as a prototype feature.\n")
    introduced = {(f[1], f[2], f[3]) for f in facts_of(text, "PyTorch 1.13 release")
                  if f[0] == "INTRODUCES"}
    assert introduced == {("PyTorch 1.13", "NNC: Add BF16 and Channels last support", "Beta"),
                          ("PyTorch 1.13", "Support for M1 Devices", "Beta"),
                          ("PyTorch 1.12", "Support for M1 Devices", "Prototype")}


def test_marked_release_heading_is_no_feature():
    text = ("PyTorch 1.8 is released with updated libraries.\n"
            "# [Stable] TorchCSPRNG 0.2.0\n"
            "This release includes a new API for encryption.\n")
    assert not {f for f in facts_of(text) if f[0] == "INTRODUCES"}


@pytest.mark.parametrize(("line", "feature", "stability"), [
    ("Concretely, Stable level async error/timeout handling was added to improve reliability.",
     "async error/timeout handling", "Stable"),
    ("We have added stable support for RPC based profiling.", "RPC-based profiling", "Stable"),
    ("The release brings beta level support for complex tensors in autograd.",
     "complex tensors", "Beta"),
    ("It adds beta support for torch.fx graph capture.", "torch.fx graph capture", "Beta"),
    ("It brings beta level support for complex tensors including torch.complex64 dtypes.",
     "complex tensors", "Beta"),
], ids=["level", "support-for", "level-support-for", "dotted-name", "name-ends-at-including"])
def test_stability_stated_in_prose(line, feature, stability):
    text = f"PyTorch 1.8 is released today.\n{line}\n"
    assert ("INTRODUCES", "PyTorch 1.8", feature, stability) in facts_of(text, "PyTorch 1.8")


@pytest.mark.parametrize("line", [
    "It is pushed to Beta level for broader adoption.",
    "It includes prototype support for semi-structured (2:4) sparsity on GPUs.",
    "It includes experimental support for features such as model deployment.",
], ids=["no-name", "name-runs-on", "generic-name"])
def test_stability_in_prose_needs_a_whole_name(line):
    text = f"PyTorch 2.1 is released today.\n{line}\n"
    assert not {f for f in facts_of(text, "PyTorch 2.1") if f[0] == "INTRODUCES"}


def test_feature_heading_naming_hardware_supports_it():
    text = ("PyTorch 1.8 is released today.\n"
            "(Prototype) CUDA-support in RPC using TensorPipe - This feature is fast.\n")
    assert ("SUPPORTS", "CUDA-support in RPC using TensorPipe", "CUDA", None) in facts_of(
        text, "PyTorch 1.8")


def test_a_feature_named_for_its_base_is_based_on_it():
    """ "RPC-based Profiling" is based on RPC, a feature the post names (the 1.6 post)."""
    text = ("PyTorch 1.6 is released today.\n"
            "[Beta] Enhancements to RPC-based Profiling\n"
            "The RPC framework is used for distributed training.\n")
    facts = triples_of(text, "PyTorch 1.6")
    based = {f for f in facts if f[0] == "BASED_ON"}
    assert ("BASED_ON", "RPC-based profiling", "RPC") in based
    assert {target for _, _, target in based} == {"RPC"}  # the heading's feature too


def test_a_heading_named_for_its_base_is_based_on_it():
    """A marked heading the release introduces, named for a library of the post, is based on it
    wherever the name stands in the heading (the 1.8 library post's torchaudio section)."""
    text = ("# TorchAudio 0.8.0\n"
            "### [Stable] Switch to CMake-based build\n"
            "Starting in 0.8.0, TorchAudio uses CMake to build its C++ extension.\n")
    facts = triples_of(text, "New PyTorch library releases")
    assert ("BASED_ON", "Switch to CMake-based build", "CMake") in facts


def test_a_feature_named_for_the_library_it_supports_is_based_on_it():
    """The 2.12 post's "**ROCm: rocSHMEM support**": the support is built on rocSHMEM, a library;
    "MPS support" names a device, which nothing is based on."""
    text = ("# PyTorch 2.12\n\nPyTorch 2.12 is out.\n\n## ROCm\n\n**ROCm: rocSHMEM support**\n\n"
            "rocSHMEM support enables symmetric memory collective operations on AMD GPUs.\n\n"
            "## MPS\n\n**MPS support**\n\nMPS support is faster.\n")
    based = {f for f in triples_of(text, "PyTorch 2.12 Release Blog", "en_core_web_sm")
             if f[0] == "BASED_ON"}
    assert based == {("BASED_ON", "rocSHMEM support", "rocSHMEM")}


def test_a_technique_named_for_what_it_is_done_to_is_based_on_it(corpus_dir):
    """The 2.12 post's "**ROCm: Inductor FlexAttention pipelining**" pipelines FlexAttention."""
    post = corpus_dir / "2026" / "markdown" / "20260513_pytorch-2-12-release-blog.md"
    text = post.read_text(encoding="utf8").split("\n", 1)[1]
    based = {f for f in triples_of(text, "PyTorch 2.12 Release Blog", "en_core_web_sm")
             if f[0] == "BASED_ON"}
    assert ("BASED_ON", "Inductor FlexAttention pipelining", "FlexAttention") in based


def test_a_contribution_to_a_change_of_an_api_does_not_make_the_api(corpus_dir):
    """The 2.12 post: "Contributed by ... (Intel)" under "`torch.accelerator.Graph`: Device
    Agnostic ... API" made that new API; under "`torch.export` now supports Microscaling (MX)
    quantization formats" and "Capture Control flow with torch.cond within CUDA Graph" the
    contribution is the change, not torch.export or torch.cond."""
    post = corpus_dir / "2026" / "markdown" / "20260513_pytorch-2-12-release-blog.md"
    text = post.read_text(encoding="utf8").split("\n", 1)[1]
    made = {f[1:3] for f in triples_of(text, "PyTorch 2.12 Release Blog", "en_core_web_sm")
            if f[0] == "DEVELOPED_BY"}
    assert ("torch.accelerator.Graph", "Intel") in made
    assert not {m for m in made if m[0] in ("torch.export", "torch.cond")}


def test_what_a_release_adds_in_a_hardware_section_supports_it(corpus_dir):
    """The 2.12 post's MPS section: the companion API "was also added" supports MPS, as the
    section's heading feature does."""
    post = corpus_dir / "2026" / "markdown" / "20260513_pytorch-2-12-release-blog.md"
    text = post.read_text(encoding="utf8").split("\n", 1)[1]
    facts = triples_of(text, "PyTorch 2.12 Release Blog", "en_core_web_sm")
    assert {("SUPPORTS", "torch._C._mps_loadMetalllib", "MPS"),
            ("INTRODUCES", "PyTorch 2.12", "torch._C._mps_loadMetalllib")} <= facts


def test_a_feature_now_at_a_level_is_introduced_at_it():
    """The 2.2 library post: "It is now stable!" is the feature the sentence before is about,
    introduced by the section's release; the evidence holds both sentences."""
    text = ("## TorchVision\n\nTorchVision 0.17 is out.\n\n"
            "### The V2 transforms are now stable!\n\n"
            "The `torchvision.transforms.v2` namespace was still in BETA stage until now. "
            "It is now stable! Whether you are new or not, start here.\n")
    [result] = run_extraction([Post(BLOG + "p/", text, "New library updates in PyTorch 2.2")],
                              model="en_core_web_sm", jobs=1)
    [fact] = [f for f in result.facts if f.rule == "introduces.now_at_level"]
    assert (fact.source.name, fact.target.name, fact.stability) == (
        "torchvision 0.17", "torchvision.transforms.v2", "Stable")
    assert fact.evidence.startswith("The `torchvision.transforms.v2` namespace")


def test_a_level_an_earlier_release_gave_and_one_kept_are_introduced_at_it():
    """The 2.1 library post: "In the previous release 0.15 we BETA-released ... in X" is what
    torchvision 0.15 shipped, at Beta; "We're keeping X and Y as BETA until 0.17" is the level
    the section's release (0.16) states for each."""
    text = ("## TorchVision\n\nTorchVision 0.16 is out.\n\n"
            "### Transforms, Tensors and Datasets\n\n"
            "In the previous release 0.15 we BETA-released a new set of transforms in "
            "`torchvision.transforms.v2` with native support for tasks like segmentation. "
            "We're keeping the `torchvision.transforms.v2` and `torchvision.tv_tensors` "
            "namespaces as BETA until 0.17 out of precaution.\n")
    introduced = {fact[1:] for fact in facts_of(text, "New library updates in PyTorch 2.1",
                                                "en_core_web_sm") if fact[0] == "INTRODUCES"}
    assert introduced == {("torchvision 0.15", "torchvision.transforms.v2", "Beta"),
                          ("torchvision 0.16", "torchvision.transforms.v2", "Beta"),
                          ("torchvision 0.16", "torchvision.tv_tensors", "Beta")}


def test_in_library_states_its_own_source_only():
    """ "news from PyTorch" under a feature's heading does not make the feature PyTorch's."""
    text = ("PyTorch 1.9 is released today.\n"
            "(Beta) DDP static graph\n"
            "To get the latest news from PyTorch, follow us on Twitter.\n")
    assert not {f for f in facts_of(text, "PyTorch 1.9") if f[0] == "PART_OF"}


@pytest.mark.parametrize("heading", ["[Beta] AMD GPU Binaries Now Available",
                                     "1. [Beta] AMD GPU Binaries Now Available"],
                         ids=["plain", "numbered"])
def test_marked_heading_leading_hardware_is_a_feature_that_supports_it(heading):
    """A marked heading is a feature, whatever it names first (GUIDELINES: one rule); the
    device it names is what the feature supports."""
    text = f"PyTorch 1.8 is released today.\n## {heading}\n"
    assert {("INTRODUCES", "PyTorch 1.8", "AMD GPU Binaries", "Beta"),
            ("SUPPORTS", "AMD GPU Binaries", "AMD GPU", None)} <= facts_of(text, "PyTorch 1.8")


@pytest.mark.parametrize(("lead", "name"), [
    ("* **(Beta) CUDA support is available in RPC**: it is built on TensorPipe.",
     "CUDA support in RPC"),
    ("### (Prototype) Complex numbers are now supported on MPS", "Complex numbers on MPS")])
def test_where_a_marked_subject_is_available_is_part_of_its_name(lead, name):
    """"X is available in Y" names X in Y, not X alone."""
    text = f"PyTorch 1.9 is released today.\n\n{lead}\n"
    found = {(t, n) for t, _, n, _ in facts_of(text, "PyTorch 1.9") if t == "INTRODUCES"}
    assert found == {("INTRODUCES", name)}


LIBRARY_SECTION = """PyTorch 1.12 is released today.
### functorch
We're excited to announce functorch 0.2.0 with new experimental features.
#### (Prototype) functorch.experimental.functionalize
It removes mutations from a program.
## Performance Improvements
### (Beta) Channels Last on CPU
"""


def test_library_section_announcement_opens_its_release():
    """Under "### functorch", "announce functorch 0.2.0" makes the section functorch 0.2's,
    down to the next heading as high as "### functorch"."""
    found = facts_of(LIBRARY_SECTION, "PyTorch 1.12")
    assert ("ANNOUNCES", BLOG + "p/", "functorch 0.2", None) in found
    introduced = {(f[1], f[2]) for f in found if f[0] == "INTRODUCES"}
    assert introduced == {("functorch 0.2", "functorch.experimental.functionalize"),
                          ("PyTorch 1.12", "Channels Last on CPU")}


@pytest.mark.parametrize(("summary", "release"), [
    ("| TorchVision 0.16 | TorchAudio 2.1 |\n", "torchvision 0.16"),
    ("| TorchVision 0.15 | TorchVision 0.16 |\n", "torchvision"),
    ("", "torchvision"),
], ids=["one-release-in-the-summary", "two-releases", "none"])
def test_library_section_naming_no_release_is_the_one_release_the_post_names(summary, release):
    """A "## TorchVision" section whose text names no release is the release of torchvision
    that the post names elsewhere (a summary's table of versions), if it names only one;
    otherwise its features are the library's."""
    text = (f"Along with 2.1, we release library updates.\n\n{summary}\n## TorchVision\n\n"
            "### [BETA] Faster JPEG decoding\n\nIt decodes on GPU.\n")
    found = facts_of(text, "New Library Updates in PyTorch 2.1")
    owners = {f[1] for f in found if f[0] == "INTRODUCES" and f[2] == "Faster JPEG decoding"} \
        | {f[2] for f in found if f[0] == "PART_OF" and f[1] == "Faster JPEG decoding"}
    assert owners == {release}


@pytest.mark.parametrize(("heading", "feature"), [
    ("[Beta] Tensor Parallelism introduces more efficient ways to train LLMs",
     "Tensor Parallelism"),
    ("[PROTOTYPE] Weight-Only-Quantization introduced into Inductor CPU backend",
     "Weight-Only-Quantization"),
    ("(Beta) CUDA Graphs APIs Integration", "CUDA Graphs APIs Integration"),
    ("[Beta] A new API to apply filter, effects and codec",
     "A new API to apply filter, effects and codec"),
    # common words before a participle name no feature alone (the 1.7 post)
    ("[Beta] Stack traces added to profiler", "Stack traces added to profiler"),
], ids=["verb", "participle", "capitalized-no-verb", "generic-subject", "common-words"])
def test_heading_that_reads_as_a_sentence_names_its_subject(heading, feature):
    """The English model's parse finds where a heading starts to say something of its name."""
    text = f"PyTorch 2.3 is released today.\n### {heading}\n"
    introduced = {f[2] for f in facts_of(text, "PyTorch 2.3", "en_core_web_sm")
                  if f[0] == "INTRODUCES"}
    assert introduced == {feature}


@pytest.mark.parametrize(("heading", "feature"), [
    ("[Beta] AOTInductor: ahead-of-time compilation for torch.export-ed programs", "AOTInductor"),
    ("[Prototype] Improved third-party device support: _PrivateUse1_", "PrivateUse1"),
    ("[Stable] TorchVision Mobile: Operators, Android Binaries, and Tutorial",
     "TorchVision Mobile"),
    ("(Beta) Android NNAPI Support in Beta", "Android NNAPI Support"),
], ids=["colon-explains", "colon-names", "colon-lists", "level-restated"])
def test_marked_heading_name_ends_at_its_colon(heading, feature):
    text = f"PyTorch 2.2 is released today.\n### {heading}\n"
    assert {f[2] for f in facts_of(text, "PyTorch 2.2") if f[0] == "INTRODUCES"} == {feature}


@pytest.mark.parametrize(("heading", "feature"), [
    ("[Beta] Improvements to _torch.compile_-ing Optimizers", "torch.compile"),
    ("[Beta] Support for NumPy style linear algebra functions via torch.linalg",
     "torch.linalg"),
    ("[Beta] Support for User-defined Triton kernels in _torch.compile_",
     "Support for User-defined Triton kernels in torch.compile"),
], ids=["improves-the-api", "via-the-api", "names-what-of-the-api"])
def test_a_generic_heading_about_an_api_is_the_api_unless_it_names_what_of_it(heading, feature):
    """The 2.2 and 2.3 headings: improvements to an API update it; support for kernels in an
    API is a feature of its own, not a second Beta of torch.compile."""
    text = f"PyTorch 2.3 is released today.\n### {heading}\n"
    assert {f[2] for f in facts_of(text, "PyTorch 2.3") if f[0] == "INTRODUCES"} == {feature}


@pytest.mark.parametrize(("heading", "feature"), [
    ("[Beta] FlashAttention-2 support in _torch.nn.functional.scaled_dot_product_attention_",
     "torch.nn.functional.scaled_dot_product_attention"),
    ("[Beta] Support for User-defined Triton kernels in _torch.compile_",
     "Support for User-defined Triton kernels in torch.compile"),
], ids=["names-what-the-api-gains", "gains-what-has-no-name"])
def test_a_heading_ending_with_the_api_that_gains_a_named_thing_is_the_api(heading, feature):
    """The 2.2 post: the API is the feature a heading names when what it gains has a name of
    its own; the heading is kept as the API's alias."""
    text = f"PyTorch 2.2 is released today.\n### {heading}\n"
    [result] = run_extraction([Post(BLOG + "p/", text, "PyTorch 2.2")], model="blank", jobs=1)
    graph = build_graph([result])
    introduced = {graph.nodes[v]["name"] for _, v, key in graph.edges(keys=True)
                  if key == "INTRODUCES"}
    assert introduced == {feature}


@pytest.mark.parametrize(("lead", "supported"), [
    ("PyTorch 2.4 features include:", {("SUPPORTS", "PyTorch 2.4", "Windows")}),
    ("We are enhancing this to reach Beta. Planned features in 2.5 include:", set()),
], ids=["list-of-the-release", "list-of-plans"])
def test_the_items_of_a_list_of_plans_state_nothing(lead, supported):
    """The Intel 2.4 post: what a list of plans names is not yet supported."""
    text = f"PyTorch 2.4 is released today.\n\n{lead}\n\n* Windows support.\n"
    found = triples_of(text, "PyTorch 2.4", model="en_core_web_sm")
    assert {f for f in found if f[0] == "SUPPORTS"} == supported


def test_marked_heading_in_first_person_is_no_feature():
    text = "PyTorch 2.1 is released today.\n### [Beta] We integrate some RLHF components\n"
    assert not {f for f in facts_of(text, "PyTorch 2.1") if f[0] == "INTRODUCES"}


@pytest.mark.parametrize(("heading", "devices"), [
    ("[Stable] TorchVision Mobile: Operators, Android Binaries, and Tutorial", {"Android"}),
    ("(Beta) CUDA support is available in RPC: Compared to CPU RPC and general-purpose RPC "
     "frameworks, CUDA RPC is a much more efficient way for P2P Tensor communication.",
     {"CUDA"}),
], ids=["short-colon-list", "colon-prose"])
def test_marked_heading_devices_stop_at_prose(heading, devices):
    text = f"PyTorch 1.9 is released today.\n### {heading}\n"
    assert {f[2] for f in facts_of(text, "PyTorch 1.9")
            if f[0] == "SUPPORTS" and f[3] is None and f[1] != "PyTorch 1.9"} == devices


DEPRECATIONS = ("We are excited to announce the release of PyTorch 1.13.\n\n"
                "## Introduction of CUDA 11.6 and 11.7 and deprecation of CUDA 10.2 and 11.3\n\n"
                "Decommissioning of CUDA 11.3 and introduction of CUDA 11.7 brings support for "
                "the new kernel modules. Timely deprecating older CUDA versions allows us to "
                "move on. We are deprecating TorchText's custom data abstractions such as Field."
                " The Sox I/O backend no longer supports file-like objects.\n")


def test_what_a_release_deprecates_is_named_by_the_sentence():
    """A toolkit's release ("CUDA 11.7") deprecates nothing: the post's release does; a list ends
    at "and introduction of"; "older CUDA versions" and an owner ("TorchText's") end nothing,
    but the examples the owner's abstractions are ("such as Field") do, as the support of what
    something no longer supports ("file-like objects"), read from the parse."""
    endings = {f for f in facts_of(DEPRECATIONS, "PyTorch 1.13 release", "en_core_web_sm")
               if f[0] in ("DEPRECATES", "REMOVES")}
    assert endings == {("DEPRECATES", "PyTorch 1.13", "CUDA 10.2", None),
                       ("DEPRECATES", "PyTorch 1.13", "CUDA 11.3", None),
                       ("REMOVES", "PyTorch 1.13", "CUDA 11.3", None),
                       ("DEPRECATES", "PyTorch 1.13", "Field", None),
                       ("REMOVES", "PyTorch 1.13", "file-like object support", None)}


def test_what_a_library_release_drops_is_each_version_it_lists():
    """The versions a sentence lists as dropped are all removed, by the section's release: none
    of the listed versions is another's source."""
    text = ("We are excited to announce PyTorch 2.1.\n\n## TorchAudio\n\n"
            "TorchAudio v2.1 works with FFmpeg 6, 5 and 4.4. The support for 4.3, 4.2 and 4.1 "
            "are dropped.\n")
    assert {(f[1], f[2]) for f in facts_of(text, "New library updates in PyTorch 2.1",
                                            "en_core_web_sm") if f[0] == "REMOVES"} == {
        ("torchaudio 2.1", "FFmpeg 4.3"), ("torchaudio 2.1", "FFmpeg 4.2"),
        ("torchaudio 2.1", "FFmpeg 4.1")}


@pytest.mark.parametrize(("sentence", "ended"), [
    ("The `volatile` flag is now deprecated and has no effect.", "volatile flag"),
    ("Because of these conventions, we deprecated `LC2CL` and `BLC2CBL` which were used to "
     "transfer shapes.", {"LC2CL", "BLC2CBL"}),
    ("The channel parameter of all transforms and functions is now deprecated.",
     "channel parameter"),
    ("PyTorch also announced the deprecation of its official Anaconda channel.",
     "Anaconda channel"),
    ("This release concludes the migration by removing the backends.", set()),
], ids=["passive-subject", "object-list", "compound", "deprecation-of", "common-noun"])
def test_a_deprecation_ends_what_its_grammar_names(sentence, ended):
    """What the names of a deprecation sentence miss, the parse names: its object, its
    passive subject, what "deprecation of" names, never a common noun alone."""
    ended = {ended} if isinstance(ended, str) else ended
    text = f"We are excited to announce the release of PyTorch 2.6.\n\n{sentence}\n"
    assert {f[2] for f in facts_of(text, "PyTorch 2.6 release", "en_core_web_sm")
            if f[0] in ("DEPRECATES", "REMOVES")} == ended


def test_library_subsection_of_a_release_section_is_the_releases():
    """1.12: "### TorchData" under "## Frontend APIs" names no TorchData release: its marked
    features are PyTorch 1.12's, and TorchData's; a library's own top section (a library
    updates post) keeps them the library's."""
    nested = ("We are excited to announce the release of PyTorch 1.12.\n\n## Frontend APIs\n\n"
              "### TorchData\n\n#### (Beta) AWS S3 Integration\n\nIt reads S3.\n\n"
              "## Performance Improvements\n\n### (Beta) Channels Last on CPU\n\nFast.\n")
    facts = facts_of(nested, "PyTorch 1.12 release")
    assert {("INTRODUCES", "PyTorch 1.12", "AWS S3 Integration", "Beta"),
            ("PART_OF", "AWS S3 Integration", "torchdata", None),
            ("INTRODUCES", "PyTorch 1.12", "Channels Last on CPU", "Beta")} <= facts
    top = ("We are excited to announce PyTorch 2.1.\n\n## Summary\n\nWe list them.\n\n"
           "## TorchAudio\n\n### [Beta] Music source separation\n\nIt separates.\n")
    assert {f for f in facts_of(top, "PyTorch 2.1 release") if f[0] != "ANNOUNCES"} == {
        ("PART_OF", "Music source separation", "torchaudio", None)}


@pytest.mark.parametrize(("heading", "name"), [
    ("### (Beta) New High level autograd API", "High level autograd API"),
    ("### [Beta] ‘Channels last’ memory format", "Channels last memory format"),
    ("### (Beta) New features", None)])
def test_a_heading_name_drops_new_and_quotes(heading, name):
    """"New" is not part of a feature's name (the next release's post would not say it), nor
    are quotes; "New features" names no feature at all."""
    found = {f[2] for f in facts_of(f"PyTorch 1.5 is released today.\n\n{heading}\n",
                                    "PyTorch 1.5 release") if f[0] == "INTRODUCES"}
    assert found == ({name} if name else set())


def test_a_library_named_with_support_in_a_release_section_is_a_feature():
    """"ROCm: rocSHMEM support" under a 2.12 topical heading names a feature of 2.12, while a
    library named alone ("TorchServe (Experimental)") in a library post names no feature."""
    text = ("We are excited to announce the release of PyTorch 2.12.\n\n## Distributed\n\n"
            "**ROCm: rocSHMEM support**\n\nIt enables symmetric memory on AMD GPUs.\n")
    assert ("INTRODUCES", "PyTorch 2.12", "rocSHMEM support", None) in facts_of(
        text, "PyTorch 2.12 Release Blog")


@pytest.mark.parametrize("byline", [
    "**By PyTorch Foundation | May 26, 2026 | [No Comments](https://pytorch.org/blog/x/)**",
    "**By PyTorch Foundation**\n\n**May 26, 2026**"], ids=["one-line", "two-lines"])
def test_a_bold_by_line_is_no_feature(byline):
    """The bold lines a post opens with, before its first paragraph, are its by-line."""
    text = (f"{byline}\n\nWe are excited to announce the release of PyTorch 2.13.\n\n"
            "## Performance\n\n**FooBar kernels**\n\nFast.\n")
    assert {f[2] for f in facts_of(text, "PyTorch 2.13 Release Blog")
            if f[0] == "INTRODUCES"} == {"FooBar kernels"}


def test_flattened_release_section_ends_at_a_stability_section():
    """The table dump lost heading levels: "torchaudio 0.6" then "Prototype Features" (1.6)
    gives the prototype features back to the post's release; a sign-off names nothing."""
    text = ("We are excited to announce the release of PyTorch 1.6.\nUpdated Domain Libraries\n"
            "torchaudio 0.6\ntorchaudio now officially supports Windows.\nPrototype Features\n"
            "To reiterate, Prototype features are early features.\nTorchScript Module Freezing\n"
            "Freezing inlines the module's parameters.\nCheers!\nTeam PyTorch\n")
    [result] = run_extraction([Post(BLOG + "p/", text, "PyTorch 1.6 released", markup="flat")],
                              model="blank", jobs=1)
    introduced = {(f.source.name, f.target.name, f.stability) for f in result.facts
                  if f.type == "INTRODUCES"}
    assert introduced == {("PyTorch 1.6", "TorchScript Module Freezing", "Prototype")}


def test_flattened_text_reads_a_level_list_that_lost_its_bullet():
    """2.0's summary bullet "New prototype features and technologies across TorchDynamo, ..."
    is a plain line in the table dump; its features are still the release's prototypes."""
    text = ("We are excited to announce the release of PyTorch 2.0.\nSummary:\n"
            "New prototype features and technologies across TorchDynamo, AOTAutograd, PrimTorch "
            "and TorchInductor.\nNew features make it faster.\n")
    [result] = run_extraction([Post(BLOG + "p/", text, "PyTorch 2.0 release", markup="flat")],
                              model="blank", jobs=1)
    assert {(f.target.name, f.stability) for f in result.facts if f.type == "INTRODUCES"} == {
        ("TorchDynamo", "Prototype"), ("AOTAutograd", "Prototype"), ("PrimTorch", "Prototype"),
        ("TorchInductor", "Prototype")}


@pytest.mark.parametrize(("heading", "names"), [
    ("### (Beta) iOS support", {"iOS support"}),
    ("### Efficiency improvements", set())], ids=["verb-last", "generic"])
def test_a_heading_that_ends_with_its_verb_is_a_name(heading, names):
    """"iOS support" is no sentence whose subject is iOS (torchvision 0.10's feature is the
    support, not the platform); "Efficiency improvements" names nothing."""
    text = f"We are excited to announce torchvision 0.10.\n\n## Features\n\n{heading}\n\nOK.\n"
    assert {f[2] for f in facts_of(text, "torchvision 0.10 released", "en_core_web_sm")
            if f[0] == "INTRODUCES"} == names


def test_a_lead_that_starts_with_a_library_and_another_name_names_the_other():
    """2.12: "ROCm: hipSPARSELt and FP8 semi-structured sparsity" is the feature after "and";
    hipSPARSELt is the library it comes with, and ROCm what it is for."""
    text = ("We are excited to announce the release of PyTorch 2.12.\n\n## Performance\n\n"
            "**ROCm: hipSPARSELt and FP8 semi-structured sparsity**\n\n"
            "hipSPARSELt is now enabled by default in PyTorch builds on ROCm.\n")
    assert {f[2] for f in facts_of(text, "PyTorch 2.12 release") if f[0] == "INTRODUCES"} == {
        "FP8 semi-structured sparsity"}


def test_all_domain_libraries_end_what_the_sentence_ends_each():
    """1.5's library post: "all three domain libraries are removing support for Python2 and
    will support Python3 only" is a removal by each domain library release it announces (the
    plan is another clause), not by torch_xla, which no one calls a domain library."""
    text = ("We're excited to share new releases for all three domain libraries.\n\n"
            "For this release, all three domain libraries are removing support for Python2 and "
            "will support Python3 only.\n\n### torchaudio 0.5\n\nIt has new transforms.\n\n"
            "### torchvision 0.6\n\nIt has new models.\n\n### torchtext 0.6\n\nIt has new "
            "datasets.\n\n### torch_xla 1.5 now available\n\nIt runs on TPUs.\n")
    assert {(f[1], f[2]) for f in facts_of(text, "PyTorch library updates", "en_core_web_sm")
            if f[0] == "REMOVES"} == {("torchaudio 0.5", "Python 2"),
                                      ("torchvision 0.6", "Python 2"),
                                      ("torchtext 0.6", "Python 2")}


def test_what_a_sentence_says_a_release_adds_is_its_feature_in_any_post():
    """The FSDP post announces no release, but says what 1.11 adds and at which level."""
    text = ("Training large models is hard.\n\nWith PyTorch 1.11 we're adding native support "
            "for Fully Sharded Data Parallel (FSDP), currently available as a prototype "
            "feature.\n")
    assert {(f[1], f[2], f[3]) for f in facts_of(text, "Introducing FSDP")
            if f[0] == "INTRODUCES"} == {("PyTorch 1.11", "FSDP", "Prototype")}


def test_what_was_added_since_a_release_is_that_releases_feature():
    """The Intel 2.6 post: "Since PyTorch 2.6, X86 CPU support of FlexAttention was added"
    is 2.6's FlexAttention work, said in a post of no release."""
    text = ("FlexAttention was first introduced in PyTorch 2.5.\n\nSince PyTorch 2.6, X86 CPU "
            "support of FlexAttention was added through TorchInductor CPP backend.\n")
    assert ("PyTorch 2.6", "FlexAttention") in {
        (f[1], f[2]) for f in facts_of(text, "Unlocking PyTorch on Intel", "en_core_web_sm")
        if f[0] == "INTRODUCES"}


def test_what_a_later_post_recalls_an_earlier_release_did_is_that_releases_feature():
    """The 2.12 post recalls 2.11 and 2.10 in its opening: what 2.11 "expanded that foundation
    with" is 2.11's; what 2.10 deprecated in the same breath is no feature it introduced."""
    text = ("We are excited to announce the release of PyTorch 2.12.\n\n"
            "[PyTorch 2.10](https://pytorch.org/blog/pytorch-2-10-release-blog/) laid the "
            "groundwork with FlexAttention and the formal deprecation of TorchScript. "
            "[PyTorch 2.11](https://pytorch.org/blog/pytorch-2-11-release-blog/) expanded that "
            "foundation with FlashAttention-4 on next-generation GPUs.\n")
    introduced = {(f[1], f[2]) for f in facts_of(text, "PyTorch 2.12 Release Blog",
                                                 model="en_core_web_sm") if f[0] == "INTRODUCES"}
    assert {("PyTorch 2.10", "FlexAttention"), ("PyTorch 2.11", "FlashAttention-4")} <= introduced
    assert ("PyTorch 2.10", "TorchScript") not in introduced


def test_what_a_post_of_the_api_era_says_is_new():
    """A 2.8-era post marks no feature: a summary bullet's API that "now" does more, a subject
    that "was also added" and what something "now exposes" are what the release introduces; a
    post that marks its features does not read such sentences."""
    text = ("We are excited to announce the release of PyTorch 2.12.\n\n"
            "* `torch.export.save` now supports Microscaling (MX) quantization formats\n\n"
            "### Stream and graph management\n\n"
            "Alongside this, `torch.Stream` now exposes an `is_capturing()` method. A companion "
            "API (`torch._C._mps_loadMetalllib`) was also added for loading blobs.\n")
    introduced = {f[2] for f in facts_of(text, "PyTorch 2.12 Release Blog", model="en_core_web_sm")
                  if f[0] == "INTRODUCES" and f[1] == "PyTorch 2.12"}
    assert {"torch.export.save", "is_capturing", "torch._C._mps_loadMetalllib"} <= introduced
    assert "torch.Stream" not in introduced
    marked = text.replace("### Stream", "### [Beta] Stream")
    introduced = {f[2] for f in facts_of(marked, "PyTorch 2.12 Release Blog",
                                         model="en_core_web_sm") if f[0] == "INTRODUCES"}
    assert not introduced & {"torch.export.save", "is_capturing", "torch._C._mps_loadMetalllib"}


def test_what_a_sentence_says_is_available_from_a_release():
    """"X is available from the PyTorch/XLA 1.12 ... releases": that release introduces X; a
    sentence whose subject is something else introduces nothing."""
    text = ("# Scaling models with FSDP\n\n"
            "FSDP is available from the PyTorch/XLA 1.12 and newer nightly releases. The "
            "tutorial on FSDP is available from the PyTorch/XLA 1.13 docs onwards.\n")
    introduced = {(f[1], f[2]) for f in facts_of(text, "Scaling PyTorch models with FSDP")
                  if f[0] == "INTRODUCES"}
    assert introduced == {("PyTorch/XLA 1.12", "FSDP")}


def test_a_credit_line_names_who_developed_the_sections_feature():
    """"Added by <person> (<company>)", "implemented for CUDA by ...": the company developed
    the feature of the section the credit closes."""
    text = ("We are excited to announce the release of PyTorch 2.12.\n\n## Performance\n\n"
            "### Expandable segments\n\nAMD GPUs now support expandable memory segments. "
            "Added by Prachi Gupta (AMD) (PR #173330).\n\n### FMA-based addcdiv lowering\n\n"
            "This was first implemented for CUDA by Michael Lazos (Meta) (PR #174912).\n")
    developed = {(f[1], f[2]) for f in facts_of(text, "PyTorch 2.12 Release Blog",
                                                 "en_core_web_sm") if f[0] == "DEVELOPED_BY"}
    assert developed == {("Expandable segments", "AMD"), ("FMA-based addcdiv lowering", "Meta")}


def test_a_heading_whose_section_defines_an_api_is_that_api():
    """"[Beta] CUDA-based CTC decoder", then "torchaudio.models.decoder.CUCTCDecoder performs
    CTC beam search": one node, named by the API, the heading an alias; "torch.compile now
    understands NumPy" under "torch.compile + NumPy" is about another thing."""
    text = ("# TorchAudio\n\nTorchAudio v2.1 introduces the following new features.\n\n"
            "**[Beta] CUDA-based CTC decoder**\n\n"
            "`torchaudio.models.decoder.CUCTCDecoder` performs CTC beam search in CUDA devices."
            "\n\n**[Beta] Faster NumPy tracing**\n\n"
            "`torch.compile` now understands how to compile NumPy operations.\n")
    results = run_extraction([Post(BLOG + "p/", text, "New library updates in PyTorch 2.1")],
                             model="blank", jobs=1)
    graph = build_graph(results)
    decoder = graph.nodes["Feature:torchaudio.models.decoder.CUCTCDecoder"]
    assert "CUDA-based CTC decoder" in decoder["aliases"]
    assert "Feature:CUDA-based CTC decoder" not in graph
    assert "Feature:Faster NumPy tracing" in graph


def test_a_library_section_heading_that_defines_an_api_is_that_api():
    """In a library's section without a release ("### [Beta] Environment wrappers", then
    "torchrl.envs includes several wrappers"), the heading's feature is the API too."""
    text = ("## TorchRL\n\n### [Beta] Environment wrappers and transforms\n\n"
            "torchrl.envs includes several wrappers around common environment libraries.\n")
    results = run_extraction([Post(BLOG + "p/", text, "New Library Updates in PyTorch 2.0")],
                             model="blank", jobs=1)
    graph = build_graph(results)
    assert "Environment wrappers and transforms" in graph.nodes["Feature:torchrl.envs"]["aliases"]


def test_a_short_form_in_parentheses_is_the_name_it_shortens():
    """"[PyTorch DistributedTensor](...) (DTensor)" gives the feature its short form, so the
    2.0 heading "[Prototype] DTensor" is that feature; so does "torch.amp (Automatic Mixed
    Precision)", the long form after the short one; a short form whose letters are not the
    name's in order ("Tensor Parallel (FSDP)") stays apart."""
    text = ("We are excited to announce PyTorch 2.0.\n\n### [Prototype] DTensor\n\n"
            "[PyTorch DistributedTensor](https://github.com/pytorch/pytorch) (DTensor) is a "
            "prototyping effort. Tensor Parallel (FSDP) composes with it.\n\n"
            "Or utilize torch.amp (Automatic Mixed Precision) package.\n")
    graph = build_graph(run_extraction([Post(BLOG + "2-0/", text, "PyTorch 2.0 released")],
                                       model="blank", jobs=1))
    assert "DTensor" in graph.nodes["Feature:DistributedTensor"]["aliases"]
    assert "Feature:DTensor" not in graph
    assert "torch.amp" in graph.nodes["Feature:Automatic Mixed Precision"]["aliases"]
    assert "FSDP" not in graph.nodes["Feature:Tensor Parallelism"].get("aliases", [])


def test_an_api_in_a_library_module_is_part_of_the_library():
    """"tlx.async_dot" is TLX's (a library the post names), "torchaudio.prototype.
    chroma\\_filterbank" torchaudio's, with the escaped name whole in the evidence; a torch.*
    API is not made PyTorch's by its path alone."""
    text = ("This work is built on TLX (Triton Language Extensions), a set of extensions to the "
            "Triton compiler. The kernel relies on tlx.async_dot and torch.compile.\n\n"
            "- [torchaudio.prototype.chroma\\_filterbank](https://pytorch.org/audio/x.html)\n")
    [result] = run_extraction([Post(BLOG + "p/", text, "TLX notes")], model="blank", jobs=1)
    assert {(f.source.name, f.target.name, f.evidence) for f in result.facts
            if f.type == "PART_OF"} == {
        ("tlx.async_dot", "TLX", "The kernel relies on tlx.async_dot and torch.compile."),
        ("torchaudio.prototype.chroma_filterbank", "torchaudio",
         "torchaudio.prototype.chroma\\_filterbank")}


def test_a_camel_case_name_that_opens_with_a_library_is_its_part():
    """"DeepSpeedZeroOptimizer" opens with DeepSpeed, spelled as the library is: its part (the
    Muon post of 2026); "XlaFullyShardedDataParallel" does not spell XLA so."""
    text = ("We use DeepSpeed and XLA here. We move the update to the stage 1 "
            "`DeepSpeedZeroOptimizer`, and wrap the module with `XlaFullyShardedDataParallel`.\n")
    [result] = run_extraction([Post(BLOG + "p/", text, "Muon notes")], model="blank", jobs=1)
    assert {(f.source.name, f.target.name) for f in result.facts if f.type == "PART_OF"} == {
        ("DeepSpeedZeroOptimizer", "DeepSpeed")}


def test_a_part_a_library_possesses_is_its_part():
    """"Triton's autotuner" is named "Triton autotuner", which opens with Triton: its part (the
    Helion attention post of 2026), as "the PyTorch MPS Backend" is PyTorch's by its words."""
    text = ("We use Triton here. For this we also leveraged Triton's autotuner in a limited "
            "way.\n")
    [result] = run_extraction([Post(BLOG + "p/", text, "Helion notes")], model="blank", jobs=1)
    assert {(f.source.name, f.target.name) for f in result.facts if f.type == "PART_OF"} == {
        ("Triton autotuner", "Triton")}


AMP_POST = ("Mixed precision trains with FP16 where it is safe and with FP32 elsewhere. " * 12
            + "\n\nWith AMP being added to PyTorch core, we have started the process of "
            "deprecating `apex.amp.` Use `torch.cuda.amp` from the latest PyTorch 1.6 release. "
            "Overhead that nvFuser can't completely remove stays.\n")


@pytest.mark.parametrize(("text", "expected"), [
    (AMP_POST, {("DEPRECATES", "PyTorch 1.6", "apex.amp")}),
    (AMP_POST + "PyTorch 1.5 had none of it.\n", set()),
], ids=["the-one-release-named", "two-releases-named"])
def test_a_post_of_no_release_deprecates_for_the_one_release_it_names(text, expected):
    """The AMP post announces no release and names PyTorch 1.6 only, late in its text: its
    deprecation of apex.amp is 1.6's. Naming two releases, it says whose it is for neither;
    "remove" said of overhead is no removal either way."""
    assert {f for f in triples_of(text, "Introducing native PyTorch AMP")
            if f[0] in ("DEPRECATES", "REMOVES")} == expected


def test_a_gpu_target_in_parentheses_is_the_gpu():
    """The 2.12 post's "on MI350X (gfx950)" makes gfx950 MI350X's other name, so its later bare
    "gfx950" is that GPU too; a device in parentheses that is no compiler target stays apart."""
    text = ("FP8 inputs are now supported through hipSPARSELt on MI350X (gfx950). Tuned for "
            "gfx950 first. It runs on the CPU (x86) too.\n")
    graph = build_graph(run_extraction([Post(BLOG + "p/", text, "ROCm notes")],
                                       model="blank", jobs=1))
    assert "gfx950" in graph.nodes["Hardware:MI350X"]["aliases"]
    assert "Hardware:gfx950" not in graph and "Hardware:x86" in graph


@pytest.mark.parametrize(("text", "api", "heading"), [
    ("## TorchRL\n\n### [Beta] Datacollectors\n\nData collection in RL is made easy. These "
     "can be found in torchrl.collectors and are documented here.\n", "torchrl.collectors",
     "Datacollectors"),
    ("We are excited to announce PyTorch 1.5.\n\n## New High level autograd API "
     "(Experimental)\n\nPyTorch 1.5 brings new functions including jacobian and hessian to "
     "the `torch.autograd.functional` submodule.\n", "torch.autograd.functional",
     "High level autograd API"),
    ("We are excited to announce PyTorch 1.12.\n\n### (Beta) Functional API for Modules\n\n"
     "PyTorch 1.12 introduces a new beta feature.\n\n"
     "The new ``torch.nn.utils.stateless.functional_call()`` API allows for:\n- computation\n",
     "torch.nn.utils.stateless.functional_call", "Functional API for Modules"),
], ids=["found-in", "to-the-submodule", "the-new-api-of-the-second-paragraph"])
def test_a_heading_whose_opening_paragraphs_name_its_api_is_that_api(text, api, heading):
    results = run_extraction([Post(BLOG + "p/", text, "New Library Updates in PyTorch 2.0")],
                             model="blank", jobs=1)
    graph = build_graph(results)
    assert heading in graph.nodes["Feature:" + api]["aliases"]
    assert "Feature:" + heading not in graph


def test_an_api_a_heading_only_uses_is_not_the_heading():
    """"It runs on top of torch.fx" says what the feature uses, not where it lives."""
    text = ("We are excited to announce PyTorch 1.8.\n\n## [Beta] Graph rewriting\n\n"
            "It runs on top of torch.fx for speed.\n")
    graph = build_graph(run_extraction([Post(BLOG + "p/", text, "PyTorch 1.8")],
                                       model="blank", jobs=1))
    assert "Feature:Graph rewriting" in graph


def test_a_feature_renamed_between_releases_is_one_node():
    """The alias pack gives a feature's names of each release one canonical name: 1.12's
    "Introducing Accelerated PyTorch Training on Mac" (a name only its heading uses, so the
    finder does not look for it: ``resolve_only``) and 2.0's "PyTorch MPS Backend" are one
    MPS backend, Prototype then Beta; 1.9's "Mobile Interpreter" is 1.8's Lite Interpreter."""
    posts = [Post(BLOG + "1-12/", "We are excited to announce PyTorch 1.12.\n\n"
                  "### (Prototype) Introducing Accelerated PyTorch Training on Mac\n\n"
                  "It uses the GPU.\n", "PyTorch 1.12 released"),
             Post(BLOG + "2-0/", "We are excited to announce PyTorch 2.0.\n\n"
                  "### [Beta] PyTorch MPS Backend\n\nIt uses the GPU.\n\n"
                  "### (Beta) Mobile Interpreter\n\nIt is small.\n", "PyTorch 2.0 released"),
             Post(BLOG + "mac/", "Accelerated PyTorch Training on Mac is here.\n",
                  "Introducing Accelerated PyTorch Training on Mac")]
    graph = build_graph(run_extraction(posts, model="blank", jobs=1))
    stated = {(u, d["stability"]) for u, v, d in graph.in_edges("Feature:MPS backend", data=True)
              if d["type"] == "INTRODUCES"}
    assert stated == {("Release:PyTorch 1.12", "Prototype"), ("Release:PyTorch 2.0", "Beta")}
    assert "Feature:Lite Interpreter" in graph and "Feature:Mobile Interpreter" not in graph
    assert not [v for _, v in graph.out_edges("Post:" + BLOG + "mac/")
                if v.startswith("Feature:")]


def test_the_devices_a_features_section_names_are_what_it_supports():
    """The body of a feature's section naming a device or platform says the feature runs
    there ("Its kernels are tuned with CUDA, ROCm": no trigger word needed), what
    was "only supported on Linux" before included; a bare GPU or CPU, a link to a tutorial or
    a platform's notebook or the platform a thing is built on says nothing."""
    text = ("We are excited to announce PyTorch 2.2.\n\n### [Beta] AOTInductor\n\n"
            "Its kernels are tuned with CUDA, ROCm and a GPU cluster. Its wheels are built on "
            "macOS 14.\n\n"
            "### [Beta] Windows support for audio\n\n"
            "These C++ components were only supported on Linux and macOS.\n\n"
            "* iOS/Android Tutorial\n\nRun this Colab notebook to see the graph.\n\n"
            "### [Beta] Faster attention routines\n\n"
            "Previous versions of PyTorch provided optimized ROCm implementations. In PyTorch "
            "2.1, Metal kernels would be used. It now has FlashAttention-based routines. This "
            "enables the same sparsity path that was previously CUDA-only. The previous "
            "behavior can be enabled by setting CAPABILITY=avx2.\n")
    supported = {(f[1], f[2]) for f in facts_of(text, "PyTorch 2.2", "en_core_web_sm")
                 if f[0] == "SUPPORTS"}
    assert {("AOTInductor", "CUDA"), ("AOTInductor", "ROCm"),
            ("Windows support for audio", "Linux"), ("Windows support for audio", "macOS")
            } <= supported
    assert not {pair for pair in supported
                if pair[1] in ("GPU", "CPU", "iOS", "Android", "Google Colab")}
    assert ("AOTInductor", "macOS") not in supported
    # what came before, or what would be, is not what the feature supports
    assert not {pair for pair in supported if pair[0] == "Faster attention routines"}


#: The TorchRec post's list of what the library has (abridged), and two lists that lead no
#: parts: a list of highlights, and one whose items are changes.
TORCHREC_LIST = (
    "# Introducing TorchRec\n\nTorchRec is a PyTorch domain library.\n\n"
    "In particular, the library includes:\n"
    "- Modeling primitives, such as embedding bags and jagged tensors, that enable easy "
    "authoring of large models.\n"
    "- Optimized RecSys kernels powered by FBGEMM, including support for sparse operations.\n"
    "- A sharder which can partition embedding tables.\n"
    "- A planner which can automatically generate optimized sharding plans for models.\n"
    "- GPU inference support.\n"
    "- Common modules for RecSys, such as models and public datasets.\n\n"
    "Some of the highlights include:\n- Default handlers for common use cases\n\n"
    "The torchtext 0.5 release includes:\n- Added bindings for SentencePiece.\n")


def test_the_items_of_a_list_a_library_leads_are_its_parts():
    facts = triples_of(TORCHREC_LIST, "Introducing TorchRec", model="en_core_web_sm")
    parts = parts_of(facts, "TorchRec")
    assert {"embedding bags", "Optimized RecSys kernels", "sharder", "planner"} <= parts
    assert not parts & {"Modeling primitives", "Common modules", "models", "public datasets"}
    assert ("SUPPORTS", "TorchRec", "GPU") in facts
    assert not {f for f in facts if f[1] in ("Default handlers", "Added bindings")}
    # what a part is powered by, the part and its library are based on
    assert {f for f in facts if f[0] == "BASED_ON"} == {
        ("BASED_ON", "Optimized RecSys kernels", "FBGEMM"), ("BASED_ON", "TorchRec", "FBGEMM")}


def test_a_highlight_its_library_leads_names_the_devices_the_library_supports():
    """"* **TorchCSPRNG** - ... CUDA support on Windows" (the 1.8 library post's highlights):
    the library supports what the item names; a linked name before a colon ("[TensorBoard](...):
    ...") leads no highlight, and the core's features an item names are not the library's."""
    text = ("Some highlights include:\n"
            "* **TorchCSPRNG** - Support for cryptographically secure pseudorandom number "
            "generators is now stable with new APIs and CUDA support on Windows.\n"
            "* **TorchVision** - Added support for PyTorch Mobile, and iOS support.\n"
            "* [TensorBoard](https://www.tensorflow.org/tensorboard): visualization, Windows.\n")
    facts = triples_of(text)
    assert {("SUPPORTS", "torchcsprng", "CUDA"), ("SUPPORTS", "torchcsprng", "Windows"),
            ("SUPPORTS", "torchvision", "iOS")} <= facts
    assert not {f for f in facts if f[1] == "TensorBoard" or f[2] == "torchvision"}


def test_a_highlight_its_library_leads_names_the_librarys_parts():
    """The 1.8, 1.10 and 1.12 library posts' highlights: the features an item names are its
    library's parts ("defaulting to sox_io backend", "Added Kaldi Pitch feature"); not what it
    works with ("support for PyTorch Mobile", "[AMP autocasting](https://pytorch.org/docs/...)",
    "autograd support"), nor a name that only modifies a noun ("EmbeddingModule benchmarks")."""
    text = ("Some highlights include:\n"
            "* **TorchAudio** - Major improvements to I/O, including defaulting to sox_io "
            "backend and file-like object support. Added Kaldi Pitch feature and support for "
            "CMake based build allowing TorchAudio to better support no-Python environments.\n"
            "* **TorchVision** - Added support for PyTorch Mobile including "
            "[Detectron2Go](https://ai.facebook.com/blog/d2go) (D2Go), and "
            "[AMP autocasting](https://pytorch.org/docs/stable/amp.html).\n"
            "* **TorchAudio** - Added inference-only wav2vec 2.0 model, improved filtering and "
            "autograd support.\n"
            "* **TorchRec** - Added EmbeddingModule benchmarks and an improved planner.\n")
    parts = {(part, whole) for kind, part, whole in triples_of(text, model="en_core_web_sm")
             if kind == "PART_OF" and whole != "PyTorch"}
    assert parts == {("sox_io backend", "torchaudio"), ("Kaldi Pitch", "torchaudio")}


def test_this_work_is_the_feature_the_title_opens_with():
    """"This work is built on TLX" in a post titled "TLX Block Attention: A Warp-Specialized
    Blackwell Kernel ...": the work is the title's feature; a title that names no feature
    first leaves "this work" to no one."""
    text = "This work is built on TLX (Triton Language Extensions), a set of extensions.\n"
    facts = triples_of(text, "TLX Block Attention: A Warp-Specialized Kernel",
                       model="en_core_web_sm")
    assert ("BASED_ON", "TLX Block Attention", "TLX") in facts
    assert not {f for f in facts_of(text, "A Warp-Specialized Kernel", model="en_core_web_sm")
                if f[0] == "BASED_ON"}


def test_it_is_the_feature_a_title_introduces_in_apposition():
    """"It provides speedups for networks running on Volta" in "Introducing nvFuser, a deep
    learning compiler for PyTorch" is nvFuser's, not the title's library PyTorch."""
    text = ("nvFuser is a compiler. It provides significant speedups for deep learning networks "
            "running on Volta and later CUDA accelerators.\n")
    supports = {f for f in triples_of(text, "Introducing nvFuser, a deep learning compiler for "
                                      "PyTorch", model="en_core_web_sm") if f[0] == "SUPPORTS"}
    assert ("SUPPORTS", "nvFuser", "Volta") in supports
    assert not {f for f in supports if f[1] == "PyTorch"}


def test_support_no_sentence_gives_a_source_is_the_titles_library():
    """In a post about a library that no release opens, "We have extended it to include
    support for the Ethos-U device driver" is that library's support; a post whose title
    names only PyTorch gives it to no one."""
    text = "We have extended it to include support for the Ethos-U device driver.\n"
    assert ("SUPPORTS", "ExecuTorch", "Ethos-U") in triples_of(
        text, "ExecuTorch Becomes a Part of PyTorch Core", model="en_core_web_sm")
    assert not {f for f in facts_of(text, "PyTorch in the Wild", model="en_core_web_sm")
                if f[0] == "SUPPORTS"}


def test_prose_restating_the_headings_level_introduces_nothing_else():
    """2.0's "[Prototype] torch.compile(dynamic=True)", then "Experimental support for PT2
    compilation with dynamic shapes": "Experimental" is Prototype in 2.0, the heading's level,
    so the sentence is about the heading's feature; a level the heading does not state is
    another feature's."""
    text = ("We are excited to announce PyTorch 2.0.\n\n#### [Prototype] "
            "torch.compile(dynamic=True)\n\nExperimental support for PT2 compilation with "
            "dynamic shapes is available in this release. Stable level async error handling was "
            "added as well.\n")
    introduced = {f[2] for f in facts_of(text, "PyTorch 2.0 release") if f[0] == "INTRODUCES"}
    assert "torch.compile(dynamic=True)" in introduced
    assert "PT2 compilation" not in introduced and "async error handling" in introduced


#: The prototype-features post of 2020 (abridged): a post of no release that announces
#: PyTorch's features, one top heading each; a bold "Links" lead under two of them.
ANNOUNCED_FEATURES = (
    "Today, we are announcing four PyTorch prototype features. The first three of these "
    "will enable Mobile machine-learning developers to execute models.\n\n"
    "## NNAPI Support with Google Android\n\nNNAPI allows Android apps to run neural "
    "networks on the most powerful parts of the chips, including DSPs and NPUs.\n\n"
    "**Links**\n* [Android Blog](https://android-developers.googleblog.com/)\n\n"
    "## PyTorch Mobile GPU support\n\nThis initial prototype level support is via the Metal "
    "API specification for iOS, and the Vulkan API specification for Android.\n\n"
    "## ARM64 Builds for Linux\n\nWe will now provide prototype level PyTorch builds for "
    "ARM64 devices on Linux.\n\nThank you,\n\nTeam PyTorch\n")


def test_the_top_headings_of_a_post_announcing_features_name_them():
    facts = triples_of(ANNOUNCED_FEATURES, "Prototype Features Now Available",
                       model="en_core_web_sm")
    parts = parts_of(facts, "PyTorch")
    assert {"NNAPI Support with Google Android", "PyTorch Mobile GPU support",
            "ARM64 Builds for Linux"} <= parts
    assert not parts & {"Links", "Team PyTorch"}
    assert {("SUPPORTS", "NNAPI Support with Google Android", "NPU"),
            ("SUPPORTS", "PyTorch Mobile GPU support", "Vulkan")} <= facts


def test_a_post_that_announces_no_features_has_no_announced_headings():
    text = ANNOUNCED_FEATURES.replace("announcing four PyTorch prototype features",
                                      "sharing four PyTorch stories")
    assert not {f for f in facts_of(text, "Stories", model="en_core_web_sm")
                if f[2] == "PyTorch" and f[1] == "ARM64 Builds for Linux"}


def test_a_heading_name_leaves_out_its_purpose_and_inner_marks():
    """The 1.7, 1.9 and torchaudio 0.11 headings: the purpose a name ends with and a level
    marked inside it are not the feature's name."""
    text = ("We are excited to announce the release of PyTorch 1.9.\n\n"
            "## [Beta] PyTorch Mobile Caching allocator for performance improvements\n\nIt "
            "caches.\n\n## (Prototype) prepare_for_inference (for TorchScript Modules)\n\nIt "
            "freezes.\n\n## (Beta) RNN-T & (Prototype) Emformer Models and Recipes\n\nNew.\n")
    introduced = {f[2] for f in facts_of(text, "PyTorch 1.9 Release") if f[0] == "INTRODUCES"}
    assert {"PyTorch Mobile Caching allocator", "prepare_for_inference",
            "RNN-T & Emformer Models and Recipes"} <= introduced


#: A post about a library of 2026 (the TokenSpeed post, abridged): bold lead lines name its
#: parts in sections of features and optimizations, not in its benchmark or conclusion.
LIBRARY_POST = (
    "TokenSpeed is an open-source LLM inference engine released by the LightSeek Foundation.\n\n"
    "## 2. Runtime Designs and Features\n\nTokenSpeed serves hybrid models.\n\n"
    "**1. Unified State Transfer: Two Worlds, One Wire**\n\nStates move over RDMA.\n\n"
    "## 3. Performance Optimizations\n\n#### 3.2.1 Overlap Is All You Need\n\n"
    "TokenSpeed overlaps work.\n\n**Gemma AllReduce Fusion**\n\nIt fuses kernels.\n\n"
    "## 4. Benchmark\n\n**Test Environment**\n\nAll runs used one node.\n\n"
    "## 5. Conclusion\n\n**Lessons Learned**\n\nFusion pays.\n")


def test_the_lead_lines_of_a_post_about_a_library_name_its_parts():
    parts = parts_of(triples_of(LIBRARY_POST, "A Speed Record with TokenSpeed"), "TokenSpeed")
    assert parts == {"Unified State Transfer", "Gemma AllReduce Fusion"}


def test_the_lead_lines_of_a_post_about_no_library_name_no_parts():
    assert not parts_of(triples_of(LIBRARY_POST, "A Speed Record"), "TokenSpeed")


def test_the_code_a_post_about_a_library_writes_names_its_parts():
    """The TokenSpeed post writes its classes as code: `MambaSlot` and a called `mark_step()`
    are TokenSpeed's; an op written as prose (AllReduce) and PyTorch's `nn.Module` are not, nor
    anything in a post about no library."""
    text = ("TokenSpeed is an open-source LLM inference engine.\n\n"
            "**Gemma AllReduce Fusion**\n\nIt fuses AllReduce kernels.\n\n"
            "TokenSpeed attaches a `MambaSlot` to a node; each step "
            "calls mark_step() and wraps an `nn.Module` in `StreamFork`.\n")
    parts = {(source, target) for kind, source, target in triples_of(
        text, "A Speed Record with TokenSpeed") if kind == "PART_OF"}
    assert {("MambaSlot", "TokenSpeed"), ("mark_step", "TokenSpeed"),
            ("StreamFork", "TokenSpeed")} <= parts
    assert not {p for p in parts if p[0] in ("AllReduce", "nn.Module", "torch.nn.Module")}
    assert not {p for p in triples_of(text, "A Speed Record") if p[0] == "PART_OF"}


def test_the_members_of_a_library_alias_are_its_parts():
    """The Helion paged attention post: hl.tile and hl.grid (helion.language as hl) are parts
    of Helion, the library the post is about."""
    text = ("Helion is a DSL for kernels.\n\nHelion recommends to use hl.tile over hl.grid "
            "for the outer loop.\n")
    parts = parts_of(triples_of(text, "Portable Paged Attention in Helion"), "Helion")
    assert {"hl.tile", "hl.grid"} <= parts


def test_a_mention_keeps_its_name_as_read():
    """An escaped underscore is the name's (masking unescapes it) and a link's URL is not: the
    surfaces, which become aliases, are whole names."""
    text = ("We added `torchaudio.functional.forced\\_align` today.\n\n"
            "It ran on [NVIDIA A100](https://www.nvidia.com/a100/) GPUs.\n\n"
            "It trains 25% faster than AdamW.\n\nMore follows.\n")
    [result] = run_extraction([Post(BLOG + "p/", text, "Title")], model="blank", jobs=1)
    surfaces = {m.surface for m in result.mentions}
    assert {"torchaudio.functional.forced_align", "AdamW"} <= surfaces
    assert not {s for s in surfaces if "\\" in s or "http" in s or s.endswith(".")}


def test_a_marked_item_that_names_a_dataset_is_no_feature():
    text = ("# TorchVision 0.9.0\n\n* [Stable] WiderFace dataset\n"
            "* [Stable] Improved FasterRCNN speed and accuracy\n")
    introduced = {f[2] for f in facts_of(text) if f[0] == "INTRODUCES"}
    assert "WiderFace dataset" not in introduced and introduced


def test_a_summary_tables_link_names_the_feature_of_its_heading():
    """The 2.0 post's summary table links each feature to its heading: "X86 quantization
    backend" is the release team's short name for '"X86" as the new default quantization
    backend for x86 CPU', and "Torch.set_default & torch.device" names the heading's API, not
    a "torch.set_default" of its own. Not a link that names a device ("AWS Graviton3"), a link
    to a heading of many features ("Stable Features"), a table's wrong link ("Torch.compile
    (dynamic=True)" to "[Beta] torch.compile", a heading of its own further on), nor a link in
    prose ("[Composability](#...)")."""
    row = '<tr>\n<td>\n</td>\n<td><a href="#{}">{}</a>\n</td>\n</tr>\n'
    table = "<table>\n" + "".join(row.format(anchor, label) for anchor, label in [
        ("stable-features", "Accelerated PT 2 Transformers"),
        ("beta-x86-as-the-new-default-quantization-backend-for-x86-cpu",
         "X86 quantization backend"),
        ("beta-torchset_default_device-and-torchdevice-as-context-manager",
         "Torch.set_default &amp; torch.device"),
        ("beta-torchcompile", "Torch.compile (dynamic=True)"),
        ("optimized-pytorch-inference-with-aws-graviton-processors", "AWS Graviton3"),
    ]) + "</table>\n\n"
    text = (
        "We are excited to announce the release of PyTorch 2.0.\n\n" + table
        + "See the [Composability](#beta-gnn-inference-and-training-optimization-on-cpu) "
        "section.\n\n## Stable Features\n\n### [Stable] Accelerated PyTorch 2 Transformers\n\n"
        "The PyTorch 2.0 release includes a new high-performance implementation.\n\n"
        "## Beta Features\n\n### [Beta] torch.compile\n\ntorch.compile is the main API.\n\n"
        "### [Beta] torch.set_default_device and torch.device as context manager\n\n"
        "torch.set_default_device allows users to change the default device that factory "
        "functions in PyTorch allocate on.\n\n"
        '### [Beta] "X86" as the new default quantization backend for x86 CPU\n\n'
        "The new X86 quantization backend replaces FBGEMM.\n\n"
        "### [Beta] GNN inference and training optimization on CPU\n\n"
        "PyTorch 2.0 includes several critical optimizations to improve GNN inference.\n\n"
        "## Prototype Features\n\n### Distributed API\n\n"
        "#### [Prototype] torch.compile(dynamic=True)\n\nExperimental support.\n\n"
        "### Optimized PyTorch Inference with AWS Graviton processors\n\n"
        "The optimizations focused on three key areas.\n")
    graph = build_graph(run_extraction([Post(BLOG + "2-0/", text, "PyTorch 2.0 release")],
                                       model="blank", jobs=1))
    x86 = graph.nodes["Feature:X86 quantization backend"]
    assert "X86 as the new default quantization backend for x86 CPU" in x86["aliases"]
    assert "Torch.set_default & torch.device" in graph.nodes[
        "Feature:torch.set_default_device"]["aliases"]
    assert "Feature:torch.set_default" not in graph
    assert "Feature:torch.compile(dynamic=True)" in graph
    assert "Feature:AWS Graviton3" not in graph
    assert "Feature:Composability" not in graph
    assert "Feature:GNN inference and training optimization on CPU" in graph
    assert "Accelerated PT 2 Transformers" not in graph.nodes[  # 2.0's name of it (pack)
        "Feature:BetterTransformer"].get("aliases", [])


def test_a_heading_with_an_arrow_names_a_replacement():
    """The 2.0 post's "### [Beta] functorch -> torch.func": torch.func replaces functorch; an
    arrow in prose writes a pipeline, no replacement."""
    text = ("# PyTorch 2.0\n\n### [Beta] functorch -> torch.func\n\n"
            "The functorch APIs are now available in the torch.func module.\n\n"
            "Models go from PyTorch -> ONNX -> TensorRT for deployment.\n")
    replaces = {f for f in triples_of(text, "PyTorch 2.0 release") if f[0] == "REPLACES"}
    assert replaces == {("REPLACES", "torch.func", "functorch")}


def test_a_library_that_becomes_part_of_another_is_its_feature_twin():
    """"ExecuTorch is becoming a part of PyTorch Core" (the ExecuTorch post): the contract's
    PART_OF is from a Feature, so the part is the Feature ExecuTorch, which resolution links to
    the Library by SAME_AS; "it's part of PyTorch" names no twin."""
    text = ("ExecuTorch is a library for on-device inference.\n\n"
            "Today, we're excited to share that ExecuTorch is becoming a part of PyTorch Core.\n\n"
            "Guaranteed PyTorch version compatibility, because it's part of PyTorch.\n")
    [result] = run_extraction([Post(BLOG + "p/", text, "ExecuTorch news")],
                              model="en_core_web_sm", jobs=1)
    parts = {(f.source.label, f.source.name, f.target.name) for f in result.facts
             if f.type == "PART_OF"}
    assert parts == {("Feature", "ExecuTorch", "PyTorch")}


def test_a_librarys_news_under_its_release_is_the_releases():
    """The 1.6 library post's "torchaudio now officially supports Windows", under its torchaudio
    0.6 heading, is torchaudio 0.6's support; what the library is stays the library's."""
    text = ("# New library releases\n\n## torchaudio 0.6\n\n"
            "torchaudio now officially supports Windows.\n\n"
            "torchaudio is a package that runs on Linux.\n")
    supports = {f for f in triples_of(text, "New library releases", model="en_core_web_sm")
                if f[0] == "SUPPORTS"}
    assert supports == {("SUPPORTS", "torchaudio 0.6", "Windows"),
                        ("SUPPORTS", "torchaudio", "Linux")}


def test_a_versions_table_announces_only_the_releases_the_post_has_a_section_for():
    """The 2.0 library post's table of latest stable versions names TorchServe 0.7.1 and
    TorchVision 0.15; only TorchVision has a section, so the post announces TorchVision 0.15
    alone. Both shipped with PyTorch 2.0."""
    text = ("We are bringing a number of improvements to the current PyTorch libraries.\n\n"
            "<table>\n  <tr>\n   <td>TorchServe 0.7.1\n   </td>\n"
            "   <td>TorchVision 0.15\n   </td>\n  </tr>\n</table>\n\n"
            "## TorchVision\n\n### [Beta] Transforms v2\n\nNew transforms.\n")
    facts = triples_of(text, "New Library Updates in PyTorch 2.0")
    assert {f[2] for f in facts if f[0] == "ANNOUNCES"} == {"torchvision 0.15"}
    assert {f[1] for f in facts if f[0] == "RELEASED_WITH"} == {"torchvision 0.15",
                                                                "TorchServe 0.7.1"}


@pytest.mark.parametrize(("heading", "supported"), [
    ("### Why Mooncake?", True),
    ("### What is Mooncake?", True),
    ("### Why it matters", False),
], ids=["why", "what-is", "no-name"])
def test_a_heading_asking_about_a_library_makes_its_section_about_it(heading, supported):
    """The 2026 TorchSpec post: under "Why Mooncake?", the key properties it lists are
    Mooncake's ("Near-line-rate transfers on InfiniBand/RoCE"); a heading that asks about no
    name gives its section no source."""
    text = ("# TorchSpec: speculative decoding training at scale\n\n"
            "TorchSpec streams hidden states through Mooncake.\n\n"
            f"{heading}\n\nMooncake is a transfer engine for KV cache management.\n\n"
            "Key properties:\n\n"
            "- RDMA + TCP with a unified API: Near-line-rate transfers on InfiniBand/RoCE.\n")
    facts = triples_of(text, "TorchSpec", model="en_core_web_sm")
    assert (("SUPPORTS", "Mooncake", "InfiniBand") in facts) is supported
    assert (("SUPPORTS", "Mooncake", "RoCE") in facts) is supported


def test_an_earlier_release_a_library_section_looks_back_at_ships_with_nothing():
    """The 1.9 library post: torchaudio 0.9 ships with PyTorch 1.9; "Since the 0.6 release"
    in its section looks back at an older one."""
    text = ("We are excited to announce the release of PyTorch 1.9.\n\n# TorchAudio 0.9.0\n\n"
            "Since the 0.6 release, we have continuously improved I/O functionality.\n")
    shipped = {f[1] for f in facts_of(text, "New library releases in PyTorch 1.9")
               if f[0] == "RELEASED_WITH"}
    assert shipped == {"torchaudio 0.9"}


def test_a_one_word_heading_of_a_library_release_is_named_as_its_section_names_it():
    """TorchRec 0.2's "### (Beta) Inference" is "TorchRec Inference", as the section's first
    words say; "(Beta) Planner" stays the planner its section never calls "TorchRec Planner"."""
    text = ("# New library updates\n\n## TorchRec 0.2.0\n\n### (Beta) Planner\n\n"
            "The planner generates sharding plans.\n\n### (Beta) Inference\n\n"
            "[TorchRec Inference](https://github.com/pytorch/torchrec/tree/main/torchrec/"
            "inference) is a C++ library that supports multi-gpu inference.\n")
    introduced = {(f[1], f[2], f[3]) for f in facts_of(text, model="en_core_web_sm")
                  if f[0] == "INTRODUCES"}
    assert introduced == {("TorchRec 0.2", "TorchRec Inference", "Beta"),
                          ("TorchRec 0.2", "Planner", "Beta")}


def test_a_marker_inside_a_sentence_marks_no_feature_of_the_line():
    """The 1.12 library post's "TorchX now supports [AWS Batch](...) and [Ray
    (experimental)](...) schedulers in addition to our existing integrations." marks Ray, not
    the sentence: no feature is the whole line. A line the marker opens or closes is marked."""
    text = ("# New library updates\n\n## TorchX v0.2.0\n\n### Expanded Scheduler Support\n\n"
            "TorchX now supports [AWS Batch](https://pytorch.org/torchx/main/schedulers/"
            "aws_batch.html) and [Ray (experimental)](https://pytorch.org/torchx/main/schedulers/"
            "ray.html) schedulers in addition to our existing integrations.\n\n"
            "* (Prototype) MLFlow backend for TorchX Tracker\n")
    introduced = {(f[1], f[2], f[3]) for f in facts_of(text) if f[0] == "INTRODUCES"}
    assert introduced == {("TorchX 0.2", "MLFlow backend for TorchX Tracker", "Prototype")}


@pytest.mark.parametrize("title", [
    "Intel GPU Support Now Available in PyTorch 2.5",
    "Accelerate Your AI: PyTorch 2.4 Now Supports Intel GPUs for Faster Workloads"])
def test_a_title_that_says_a_release_gains_a_devices_support_names_the_feature(title):
    """The two Intel posts' titles: the release introduces the device's support, a feature
    named for the device, which supports it; the title is the evidence."""
    [result] = run_extraction([Post(BLOG + "p/", "Intel GPU support is here.\n", title)],
                              model="en_core_web_sm", jobs=1)
    release = "PyTorch 2.5" if "2.5" in title else "PyTorch 2.4"
    found = {(f.type, f.source.name, f.target.name, f.evidence) for f in result.facts
             if f.rule in ("introduces.title_support", "supports.named_in_feature")}
    assert found == {("INTRODUCES", release, "Intel GPU support", title),
                     ("SUPPORTS", "Intel GPU support", "Intel GPU", title)}


def test_a_headings_last_words_in_its_section_are_its_feature_there_only():
    """The 1.7 post: "caching allocator" under "[Beta] PyTorch Mobile Caching allocator ..." is
    that feature, a short form no other post's "caching allocator" resolves into (local); not
    the last thing of a heading that links two ("ProcessGroup support in custom ops")."""
    text = ("# Mobile\n\n## [Beta] PyTorch Mobile Caching allocator for performance improvements\n"
            "PyTorch 1.7 provides a simple caching allocator for CPU.\n\n"
            "## [Beta] ProcessGroup support in custom ops\n"
            "Custom ops can now take a ProcessGroup.\n\n"
            "## Other news\nThe caching allocator of CUDA is not this one.\n")
    result = extracted(text, "PyTorch 1.7 released")
    named = {(m.surface.lower(), m.entity.name, m.local) for m in result.mentions
             if m.surface.lower() in ("caching allocator", "custom ops")}
    assert named == {("caching allocator", "PyTorch Mobile Caching allocator", True),
                     ("caching allocator", "caching allocator", False),
                     ("custom ops", "custom ops", False)}
    assert ("SUPPORTS", "PyTorch Mobile Caching allocator", "CPU") in {
        (f.type, f.source.name, f.target.name) for f in result.facts}


def test_a_post_about_a_releases_features_names_one_in_each_heading():
    """Intel's post "Unlocking the Latest Features in PyTorch 2.6 for Intel Platforms": each
    heading is a feature of 2.6, as in a release post that marks none, at the level its section
    says it was pushed to; not its legal lines."""
    text = ("PyTorch 2.6 has just been released with a set of new features.\n\n"
            "## Improved Intel GPU Availability\n\nWindows binary releases are available for "
            "Intel GPUs. Now it has been further improved, which is pushed to Beta level for "
            "broader adoption.\n\n## Notices and Disclaimers\n\nPerformance varies by use.\n")
    introduced = {fact[1:] for fact in facts_of(
        text, "Unlocking the Latest Features in PyTorch 2.6 for Intel Platforms", "en_core_web_sm")
        if fact[0] == "INTRODUCES"}
    assert introduced == {("PyTorch 2.6", "Improved Intel GPU Availability", None),
                          ("PyTorch 2.6", "Improved Intel GPU Availability", "Beta")}


def test_a_code_name_in_parentheses_is_a_variant_of_the_hardware_before_it():
    """The Intel posts: a code name after a family names a generation of it; not after a
    product with its clock between ("8380H CPU @ 2.90GHz": a product of Cooper Lake)."""
    text = ("Try Intel® Arc™ Graphics family (Codename DG2), Intel® Core™ Ultra processor family "
            "with Intel® Graphics (Codename Meteor Lake), and Intel® Core™ Ultra mobile processor "
            "family with Intel® Graphics (Codename Lunar Lake).\n\n"
            "We used an Intel® Xeon® Platinum 8380H CPU @ 2.90GHz (codenamed Cooper Lake).\n")
    variants = {t for t in triples_of(text, "A post", "en_core_web_sm") if t[0] == "VARIANT_OF"}
    assert variants == {("VARIANT_OF", "DG2", "Intel Arc Graphics"),
                        ("VARIANT_OF", "Meteor Lake", "Intel Core Ultra"),
                        ("VARIANT_OF", "Lunar Lake", "Intel Core Ultra")}


def test_a_library_whose_name_names_a_device_supports_it():
    """The DuaLip post of 2026: a library typed as one word, "DuaLip-GPU", runs on GPUs."""
    text = "The stack was rebuilt, resulting in DuaLip-GPU as a modern, scalable system.\n"
    assert ("SUPPORTS", "DuaLip-GPU", "GPU") in triples_of(text, "A post")


@pytest.mark.parametrize(("text", "supported"), [
    ("It is compatible with torch.compile and CUDA graphs.\n", set()),
    ("We moved to CUDA Green Contexts for isolation.\n", set()),
    ("We also revamped our Android GPU backend.\n", {"GPU", "Android"}),
], ids=["toolkit-concept", "toolkit-concept-words", "device-inside"])
def test_a_toolkits_own_concept_names_no_support(text, supported):
    """The 2.12 post and the FSDP post: "CUDA Graphs" and "CUDA Green Contexts" are CUDA's
    own concepts, which the toolkit opening their name owns; the "Android GPU backend" runs
    on what it names."""
    assert {f[2] for f in triples_of(text, "A post", "en_core_web_sm")
            if f[0] == "SUPPORTS"} == supported


def test_a_title_of_a_release_with_no_device_support_introduces_nothing():
    [result] = run_extraction([Post(BLOG + "p/", "It is out.\n",
                                    "PyTorch 2.5 Now Supports Faster Workloads")],
                              model="en_core_web_sm", jobs=1)
    assert not [f for f in result.facts if f.rule == "introduces.title_support"]



def test_a_marked_change_of_a_default_names_the_new_default():
    """The 1.8 library post's "[Stable] Changing the default backend to “sox_io” (for
    Linux/macOS), and updating ...": torchaudio 0.8 introduces the sox_io backend, which
    supports the platforms the heading names, one with a slash; a word joined by a slash to a
    word that names no device ("Multi-GPU/multi-node") names none."""
    text = ("# TorchAudio 0.8.0\n\n* [Stable] Changing the default backend to “sox_io” (for "
            "Linux/macOS), and updating the “soundfile” backend’s interface.\n"
            "* [Beta] Multi-GPU/multi-node profiling improvements\n")
    facts = facts_of(text, model="en_core_web_sm")
    assert {f for f in facts if f[0] in ("INTRODUCES", "SUPPORTS")} == {
        ("INTRODUCES", "torchaudio 0.8", "sox_io backend", "Stable"),
        ("INTRODUCES", "torchaudio 0.8", "Multi-GPU/multi-node profiling improvements", "Beta"),
        ("SUPPORTS", "sox_io backend", "Linux", None),
        ("SUPPORTS", "sox_io backend", "macOS", None)}



def test_a_librarys_function_named_bare_is_the_function_and_each_owner_is_a_source():
    """The TLX post: "tlx.async_dot" and "tlx.local_trans", then "The async_dot / local_trans /
    tlx APIs target the Blackwell architecture": the bare names are those functions, and what
    the APIs target each of them supports."""
    text = ("This kernel relies on several TLX primitives: tlx.async_dot for issuing MMA "
            "operations; tlx.local_trans for transposes. The async_dot / local_trans / tlx APIs "
            "target the Blackwell architecture (sm_100+) specifically.\n")
    facts = triples_of(text, "TLX Block Attention: A Warp-Specialized Blackwell Kernel",
                       model="en_core_web_sm")
    assert {("SUPPORTS", "tlx.async_dot", "Blackwell"),
            ("SUPPORTS", "tlx.local_trans", "Blackwell")} <= facts


def test_what_is_now_deprecated_is_the_kind_the_name_is_followed_by():
    """The 1.7 post: "since its name conflicts with the historic (and now deprecated) torch.fft
    function" deprecates the function, not the new torch.fft module of the same name."""
    text = ("# PyTorch 1.7 released\n\n## [Beta] NumPy Compatible torch.fft module\n\n"
            "This new module must be imported to be used in the 1.7 release, since its name "
            "conflicts with the historic (and now deprecated) torch.fft function.\n")
    endings = {f for f in facts_of(text, "PyTorch 1.7 released", "en_core_web_sm")
               if f[0] in ("DEPRECATES", "REMOVES")}
    assert endings == {("DEPRECATES", "PyTorch 1.7", "torch.fft function", None)}


def test_a_name_only_inside_a_headings_name_is_no_node_of_its_own():
    """1.8's library post: "[Stable] Modulation input for DeformConv2D" names one feature; the
    operator is a node of its own where the post names it elsewhere too."""
    heading = "# TorchVision 0.9.0\n* [Stable] Modulation input for DeformConv2D\n"

    def named(text: str) -> set[str]:
        [result] = run_extraction([Post(BLOG + "p/", text, "Title")], model="en_core_web_sm",
                                  jobs=1)
        return {m.entity.name for m in result.mentions} | {f.target.name for f in result.facts}

    assert {"Modulation input for DeformConv2D"} <= named(heading) - {"DeformConv2D"}
    assert "DeformConv2D" not in named(heading)
    assert "DeformConv2D" in named(heading + "\nDeformConv2D now takes a mask.\n")


def test_it_in_a_list_item_is_the_name_the_item_opens_with():
    """The 2019 hackathon winners: "It features a unified interface inspired by TorchVision"
    is said of Torchmeta, the name the item opens with, not of the post's PyTorch."""
    text = ("The winning projects were:\n\n* Torchmeta, which provides extensions for PyTorch "
            "to simplify the development of meta-learning algorithms in PyTorch. It features a "
            "unified interface inspired by TorchVision for both few-shot classification.\n")
    found = triples_of(text, "PyTorch adds new tools and libraries", "en_core_web_sm")
    assert ("BASED_ON", "Torchmeta", "torchvision") in found
    assert ("BASED_ON", "PyTorch", "torchvision") not in found
