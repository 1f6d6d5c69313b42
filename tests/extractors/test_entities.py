"""Tests of the entity finder's rules (``extractors/entities.py``), through ``load_nlp("blank")``.

Each case is a sentence from a post (shortened) with what the rule must read, and one it must
not; issue 12 asked for names of new posts found by rules that generalize, not only by the pack.
"""

from __future__ import annotations

import pytest

from ptkg.extractors.entities import RULES, EntityFinder
from ptkg.extractors.patterns import ENTITY_PATTERNS, read_patterns
from ptkg.extractors.text import mask_markup


def found(nlp, text: str) -> set[tuple[str, str]]:
    """(label, canonical name) of the entities found in ``text``."""
    doc = nlp(mask_markup(text))
    return {(span.label_, span.id_) for span in doc.spans["ptkg"]}


def rules_of(nlp, text: str) -> dict[tuple[str, str], set[str]]:
    """For each entity found in ``text``, the rules that read it."""
    finder: EntityFinder = nlp.get_pipe("ptkg_entities")
    doc = nlp(mask_markup(text))
    chosen = {(s.start, s.end, s.label_, s.id_) for s in doc.spans["ptkg"]}
    rules: dict[tuple[str, str], set[str]] = {}
    for candidate in finder.candidates(doc):
        span = candidate.span
        if (span.start, span.end, span.label_, span.id_) in chosen:
            rules.setdefault((span.label_, span.id_), set()).add(candidate.rule)
    return rules


def pack_ids() -> set[str]:
    return {record.get("id") or record["pattern"] for record in read_patterns(ENTITY_PATTERNS)
            if isinstance(record.get("id") or record["pattern"], str)}


@pytest.mark.parametrize(("text", "expected"), [
    ("The kernel runs on NVIDIA B200 GPUs and on 8xA100 (40GB) nodes.",
     {("Hardware", "B200"), ("Hardware", "A100")}),
    ("FP8 sparsity on MI350X and on an MI325X, built for gfx950.",
     {("Hardware", "MI350X"), ("Hardware", "gfx950"), ("Hardware", "MI325X")}),
    ("A rack of GB300 systems next to GH200 superchips.",
     {("Hardware", "GB300"), ("Hardware", "GH200")}),
    ("Benchmarks on an NVIDIA A100-SXM4-40GB GPU.", {("Hardware", "A100")}),
    ("Torchtitan on 2000+ B300s.", {("Hardware", "B300")}),
], ids=["nvidia-codes", "amd-codes", "superchips", "product-variant", "plural"])
def test_issue12_accelerator_codes(blank_nlp, text, expected):
    """Accelerator codes are hardware, and a vendor's product names the code it is."""
    assert found(blank_nlp, text) >= expected
    assert not {name for label, name in found(blank_nlp, text) if "NVIDIA" in name}


@pytest.mark.parametrize(("text", "expected"), [
    ("The Ethos-U55 and the Ethos-U65 extend the Ethos-U family to Cortex-M85 systems.",
     {("Hardware", "Ethos-U55"), ("Hardware", "Ethos-U65"), ("Hardware", "Cortex-M85")}),
    ("Deploy it on the Corstone-320 FVP.", {("Hardware", "Corstone-320")}),
    ("Measured on AWS Graviton3-based m7g.xlarge instances, 16 GB per core in TPU v3 and 32 GB "
     "per chip in TPU v4.",
     {("Hardware", "Graviton3"), ("Hardware", "TPU v3"), ("Hardware", "TPU v4"),
      ("Hardware", "m7g.xlarge")}),
    ("We deploy our models on Amazon EC2 Inf1 instances, cheaper than Amazon EC2 instances "
     "and GPU instances like the Amazon EC2 P3.",
     {("Hardware", "Amazon EC2 Inf1"), ("Platform", "Amazon EC2"), ("Hardware", "Amazon EC2 P3")}),
    ("Try Intel® Arc™ Graphics family (Codename DG2) and Intel® Graphics (Codename Lunar "
     "Lake), or Xeon processors (codenamed Cooper Lake).",
     {("Hardware", "Intel Arc Graphics"), ("Hardware", "DG2"), ("Hardware", "Lunar Lake"),
      ("Hardware", "Cooper Lake")}),
    ("Supports Linux (Ubuntu, SUSE Linux and Red Hat Linux) and Windows 10/11.",
     {("Platform", "Ubuntu"), ("Platform", "SUSE Linux"), ("Platform", "Red Hat Linux")}),
    ("It brings Intel® Client GPUs (Intel® Core™ Ultra processors with built-in graphics).",
     {("Hardware", "Intel Core Ultra")}),
    ("Measured on an Intel® Xeon® Platinum 8380H CPU @ 2.90GHz.",
     {("Hardware", "Intel Xeon Platinum 8380H")}),
    ("and Intel® Core™ Ultra mobile processor family with Intel® Graphics.",
     {("Hardware", "Intel Core Ultra")}),
], ids=["device-family-models", "reference-design", "generations", "cloud-instances",
        "codenames",
        "linux-distributions",
        "vendor-processors", "vendor-model-number", "vendor-form-factor"])
def test_issue12_a_device_familys_models_and_code_names_are_hardware(blank_nlp, text, expected):
    """The ExecuTorch Ethos-U85 and Intel GPU support in 2.5 posts: a model number of a device
    family the alias pack names ("family": true) is a device of it, whichever number; a code
    name in parentheses names a device; Linux distributions are platforms."""
    assert found(blank_nlp, text) >= expected
    assert ("Organization", "Red Hat") not in found(blank_nlp, text)


@pytest.mark.parametrize(("text", "expected"), [
    ("Added Kaldi Pitch feature; the Complex Autograd feature is new.",
     {("Feature", "Kaldi Pitch"), ("Feature", "Complex Autograd")}),
    ("It defaults to sox_io backend, as the triton_attn backend does.",
     {("Feature", "sox_io backend"), ("Feature", "triton_attn backend")}),
], ids=["typed-by-feature", "snake-case-backend"])
def test_issue12_features_typed_by_the_word_after_them(blank_nlp, text, expected):
    """The 1.8 library post and the Helion paged attention post: two capitalized words or more
    before "feature" name one (a leading verb left out); a snake-case name before "backend"
    names a backend, quoted or not."""
    assert found(blank_nlp, text) >= expected
    assert not {n for _, n in found(blank_nlp, "This feature and the Stable feature are new.")}


def test_a_drivers_name_holds_no_device(blank_nlp):
    """The 1.13 post: "NVIDIA Open GPU Kernel Modules" is the driver, no GPU it names."""
    assert found(blank_nlp, "It allows support for C++17 in PyTorch and new NVIDIA Open GPU "
                            "Kernel Modules.") == {("Library", "PyTorch"),
                                                   ("Library", "NVIDIA Open GPU Kernel Modules")}


@pytest.mark.parametrize("text", [
    "The H264 codec and the A1000 figure and model V3 are no devices.",
    "A code name (Codename the best) is no device.",
    "See figure B2 and table H1.",
])
def test_issue12_accelerator_codes_need_their_shape(blank_nlp, text):
    assert not {n for label, n in found(blank_nlp, text) if label == "Hardware"}


@pytest.mark.parametrize(("text", "name"), [
    ("Users on older architectures (e.g., Pascal, Volta) use CUDA 12.6.", "Volta"),
    ("primitives that do not exist on Ampere or Hopper", "Hopper"),
    ("Sessions covered AMD ROCm, Arm SME2 and Google TPUs.", "SME2"),
    ("TLX supports sm_100+ targets.", "Blackwell"),
], ids=["family", "family-2", "instruction-set", "compute-capability"])
def test_issue12_architecture_families_and_instruction_sets(blank_nlp, text, name):
    assert ("Hardware", name) in found(blank_nlp, text)


@pytest.mark.parametrize(("text", "name"), [
    ("Users on newer GPUs should use the CUDA 13.0+ wheels.", "CUDA 13.0"),
    ("ROCm >= 7.02 is required.", "ROCm 7.02"),
    ("We deprecated CUDA 10.2 and 11.3.", "CUDA 10.2"),
    ("Support for Intel GPUs is now available in PyTorch® 2.5.", "PyTorch 2.5"),
    ("Quantization is available in PyTorch starting in version 1.3.", "PyTorch 1.3"),
    ("This year featured 4 milestone releases for PyTorch in the 2.2, 2.3, 2.4 and 2.5 "
     "releases.", "PyTorch 2.3"),
])
def test_issue12_toolkit_versions_are_releases(blank_nlp, text, name):
    """A CUDA or ROCm version is a Release of that toolkit (tests/gold/GUIDELINES.md); a
    trademark sign between a name and its version changes nothing ("PyTorch® 2.5"), nor does
    the version the library starts at ("PyTorch starting in version 1.3", the 2020
    introduction to quantization); "the 2.2, 2.3, 2.4 and 2.5 releases" are PyTorch's, as "the
    1.12 release" is (the 2024 year in review)."""
    assert ("Release", name) in found(blank_nlp, text)


@pytest.mark.parametrize(("text", "expected"), [
    ("Qwen3.5-397B-A17B runs at 580 tps.", {("Model", "Qwen3.5-397B-A17B")}),
    ("used by Kimi-K2-Thinking and GLM-4.5", {("Model", "Kimi-K2-Thinking"), ("Model", "GLM-4.5")}),
    ("We trained GPT-2 XL and DeepSeek-V3.", {("Model", "GPT-2 XL"), ("Model", "DeepSeek-V3")}),
    ("We finetuned Moonlight-16B-A3B.", {("Model", "Moonlight-16B-A3B")}),
    ("BlockBERT and RoFormer compute attention differently.",
     {("Model", "BlockBERT"), ("Model", "RoFormer")}),
    ("This enables running Llama 2 7B and Llama3.1 8B on phones.",
     {("Model", "Llama 2 7B"), ("Model", "Llama3.1 8B")}),
    # a family's model named with its maker's family, an acronym's in lower case (the Helion
    # autotuning post of 2026)
    ("We used Claude Opus-4.8 and gpt-5.5.", {("Model", "Opus-4.8"), ("Model", "gpt-5.5")}),
    # a family's model named by its size alone (the FSDP post)
    ("It reached 84 TFLOPS for GPT 1T model and 159 TFLOPS for GPT 175B model.",
     {("Model", "GPT 1T"), ("Model", "GPT 175B")}),
], ids=["family-size", "family-version", "family-size-word", "parameter-count", "suffix",
        "spaced-parameter-count", "maker-family-and-lower-case-acronym", "family-and-size"])
def test_issue12_model_names(blank_nlp, text, expected):
    assert found(blank_nlp, text) >= expected


@pytest.mark.parametrize(("text", "label"), [
    ("Arm has worked with Meta to bring it to phones.", "Organization"),
    ("It leverages the expressiveness of Arm’s TOSA.", "Organization"),
    ("The format was introduced by NVIDIA, ARM, and Intel in a paper.", "Organization"),
    ("The operators run on Arm.", "Hardware"),
    ("Arm is supported since 1.8.", "Hardware"),
], ids=["subject", "owner", "list-of-companies", "device", "passive-subject"])
def test_a_device_named_as_its_maker_is_the_company_where_a_post_speaks_of_one(
        english_nlp, text, label):
    """The Ethos-U85, float8 and low-bit operator posts: Arm, the company and the device."""
    doc = english_nlp(text)
    assert {s.label_ for s in doc.spans["ptkg"] if s.id_ == "Arm"} == {label}


@pytest.mark.parametrize(("text", "expected"), [
    # phones and headsets by their model, a list of models each with the phone's family (the
    # ExecuTorch alpha post)
    ("It runs on iPhone 15 Pro, iPhone 15 Pro Max, Samsung Galaxy S22, S23, and S24 phones.",
     {"iPhone 15 Pro", "iPhone 15 Pro Max", "Samsung Galaxy S22", "Samsung Galaxy S23",
      "Samsung Galaxy S24"}),
    ("Meta uses it for hand tracking on Meta Quest 3 and on a Pixel 8.",
     {"Meta Quest 3", "Pixel 8"}),
    ("Our quest to fix pixel shaders took 3 releases.", set()),  # common words
], ids=["phones-and-a-list", "headset-and-pixel", "common-words"])
def test_a_phone_or_headset_is_named_by_its_model(blank_nlp, text, expected):
    assert {name for label, name in found(blank_nlp, text) if label == "Hardware"} == expected


@pytest.mark.parametrize(("text", "label"), [
    ("Scaling tests of PyTorch FSDP on AWS show it can scale.", "Platform"),
    ("We ran scaling tests on AWS clusters using FSDP.", "Platform"),
    ("Alibaba adds support for PyTorch in Alibaba Cloud.", "Platform"),
    ("It runs well on AWS Graviton processors.", None),  # the cloud's device
    ("TorchServe was developed by engineers from Facebook and AWS.", "Organization"),
], ids=["on-cloud", "cloud-clusters", "in-cloud", "cloud-product", "company"])
def test_a_company_named_as_its_cloud_is_the_platform_where_something_runs(blank_nlp, text,
                                                                           label):
    """The FSDP and Alibaba Cloud posts: AWS, the company and the cloud."""
    doc = blank_nlp(text)
    labels = {s.label_ for s in doc.spans["ptkg"] if s.id_ in ("AWS", "Alibaba Cloud")}
    assert labels == ({label} if label else set())


@pytest.mark.parametrize(("text", "expected"), [
    # a feature named with its number format (the 2.12 post, float8 with FSDP2)
    ("It is faster, with FP8 semi-structured sparsity added by Benji Beck (Meta).",
     "FP8 semi-structured sparsity"),
    ("We use float8 all_gather() to cut the communication.", "float8 all_gather"),
], ids=["format-and-feature", "format-and-api"])
def test_a_feature_named_with_its_number_format_is_a_feature_of_its_own(blank_nlp, text,
                                                                         expected):
    assert ("Feature", expected) in found(blank_nlp, text)


def test_a_number_format_before_an_api_or_mixed_precision_names_no_feature(blank_nlp):
    """ "bfloat16 torch.compiled" models, "float16 Automatic Mixed Precision": the format the
    API or AMP works in, no feature of its own."""
    names = {name for _, name in found(
        blank_nlp, "Square markers are bfloat16 torch.compile runs with float16 Automatic Mixed "
        "Precision (AMP).")}
    assert not {n for n in names if n.startswith(("bfloat16", "float16"))}


def test_a_snake_case_name_after_its_kind_is_an_api(blank_nlp):
    """The Helion paged attention post: "one of the kernels (unified_attention_2d)"."""
    assert ("Feature", "unified_attention_2d") in found(
        blank_nlp, "We ported one of the kernels (unified_attention_2d) to Helion.")


def test_a_snake_case_name_before_its_kind_is_an_api_whatever_the_case(blank_nlp):
    """The PyTorch/XLA TPU post: "Notice the start_server api call"."""
    assert ("Feature", "start_server") in found(blank_nlp, "Notice the start_server api call.")


def test_a_family_before_its_model_is_no_model_of_its_own(blank_nlp):
    """ "Claude Opus-4.8" is one model, and a project named after a family ("gpt-fast") none."""
    models = {name for label, name in found(
        blank_nlp, "We used Claude Opus-4.8 and the gpt-fast project.") if label == "Model"}
    assert models == {"Opus-4.8"}


@pytest.mark.parametrize("text", [
    "It scales up to 1M tokens with Up-to-1M context.",
    "The Llama-3-based recipe and the GPT-style decoder.",
])
def test_issue12_model_names_need_a_version_not_a_word(blank_nlp, text):
    names = {name for label, name in found(blank_nlp, text) if label == "Model"}
    assert not {n for n in names if n.endswith(("based", "style")) or n.startswith("Up")}


@pytest.mark.parametrize(("text", "expected"), [
    ("The legacy MAGMA backend was deprecated in favor of cuSolver.",
     {("Library", "MAGMA"), ("Library", "cuSolver")}),
    ("This is supported by FFmpeg backend and soundfile.", {("Library", "FFmpeg")}),
    ("Arm Compute Library backend support for AWS Graviton", {("Library", "Arm Compute Library")}),
    ("The Composable Kernel backend is used for GEMMs.", {("Library", "Composable Kernel")}),
], ids=["backend-after-name", "ffmpeg", "acl", "ck"])
def test_issue12_library_backends_are_libraries(blank_nlp, text, expected):
    """ "backend" after a library's name does not make it hardware."""
    assert found(blank_nlp, text) >= expected
    assert not {name for label, name in found(blank_nlp, text) if label == "Hardware"} & {
        name for _, name in expected}


@pytest.mark.parametrize(("text", "expected"), [
    ("The TokenSpeed inference engine is fast. TokenSpeed wins.", {("Library", "TokenSpeed")}),
    ("Mooncake, a high-performance transfer engine, moves KV caches. Mooncake scales.",
     {("Library", "Mooncake")}),
    ("Kernels are written in the Helion DSL.", {("Library", "Helion")}),
    ("To get started, pip install torchcomms and set the variable.",
     {("Library", "torchcomms")}),
    ("Triton Language Extensions (TLX) exposes warp specialization. TLX is fast.",
     {("Library", "TLX")}),
    ("We use rocSHMEM, hipSPARSELt and XCCL.",
     {("Library", "rocSHMEM"), ("Library", "hipSPARSELt"), ("Library", "XCCL")}),
], ids=["typed-engine", "apposition", "dsl", "pip-install", "acronym", "vendor-families"])
def test_issue12_libraries_by_their_context(blank_nlp, text, expected):
    assert found(blank_nlp, text) >= expected


def test_an_acronym_spelled_by_its_expansion_names_an_architecture(blank_nlp):
    """The Ethos-U85 post: "Arm's Tensor Operator Set Architecture (TOSA)" is a feature, though
    "Tensor" alone opens no name ("our core Tensor library")."""
    assert ("Feature", "Tensor Operator Set Architecture") in found(
        blank_nlp, "It uses the expressiveness of Arm’s Tensor Operator Set Architecture (TOSA).")


def test_issue12_a_typed_name_types_its_other_mentions(blank_nlp):
    """ "TokenSpeed inference engine" makes every "TokenSpeed" of the post a library."""
    rules = rules_of(blank_nlp, "TokenSpeed is fast. The TokenSpeed inference engine wins.")
    assert set(rules) == {("Library", "TokenSpeed")}
    assert {"typed_name", "camel_case"} <= rules["Library", "TokenSpeed"]


@pytest.mark.parametrize("text", [
    "Existing backend is kept.",
    "Our core Tensor library is fast, an ML library.",
    "FX provides a Pythonic platform for transforming code.",
    "A Co-located framework.",
])
def test_issue12_typing_rules_skip_words(blank_nlp, text):
    assert {label for label, _ in found(blank_nlp, text)} <= {"Feature"} and not {
        name for _, name in found(blank_nlp, text)
        if name in ("Existing", "Tensor", "ML", "Pythonic", "Co-located")}


@pytest.mark.parametrize(("text", "expected"), [
    ("Contributed by Chizkiyahu Raful (ARM) (PR #176270).", {("Organization", "Arm")}),
    ("Contributed by Guangye Yu (Intel) across six PRs.", {("Organization", "Intel")}),
    ("This was contributed by Daniel Galvez and Ting-Yang Kuei (NVIDIA).",
     {("Organization", "NVIDIA")}),
    ("a talk by Valeri Milke from VamiSec GmbH.", {("Organization", "VamiSec")}),
    ("**Fault-Tolerant Training** by Cyril Konkratenko and Maurits de Groot from Nebius.",
     {("Organization", "Nebius")}),
    ("**Bioacoustics** by Taraqur Rahman and Owen O'Donnell from OWL Integrations.",
     {("Organization", "OWL Integrations")}),
    ("**Compliance-as-Code** by Raja Gopal Hari Vijay from Zoho Corporation.",
     {("Organization", "Zoho Corporation")}),
    ("**Ball Tracking** by Maciej Szymkowski from Future Processing.",
     {("Organization", "Future Processing")}),
    ("**Optimization in PyTorch** by Andrii Krutsylo from the Polish Academy of Sciences.",
     {("Organization", "Polish Academy of Sciences")}),
    ("**Imaging** by Andrew Wang (DeepInverse) and Minh Hai Nguyen (Universite de Toulouse).",
     {("Organization", "Universite de Toulouse")}),
    ("[Pin Siang Tan](https://x/), Co-Founder of Embedded LLM and a vLLM contributor",
     {("Organization", "Embedded LLM")}),
    ("**Joe Spisak**, VP of Product and Head of Open Source at Reflection AI, took the stage",
     {("Organization", "Reflection AI")}),
    ("[Ziqi Zhao](https://x/), a member of the technical staff at Inferact; the company",
     {("Organization", "Inferact")}),
    ("* **Ling-2.6-1T** (InclusionAI) — a trillion-parameter model",
     {("Organization", "InclusionAI"), ("Model", "Ling-2.6-1T")}),
    ("served by the LightSeek Foundation under the MIT license",
     {("Organization", "LightSeek Foundation")}),
], ids=["contributor-hardware-name", "contributor", "contributors", "speaker-from",
        "speaker-particle", "speaker-apostrophe", "speaker-four-names", "speaker-common-word",
        "speaker-from-the", "contributor-particle", "founder-of", "head-at", "staff-at",
        "model-maker", "suffix"])
def test_issue12_organizations_by_their_context(blank_nlp, text, expected):
    assert found(blank_nlp, text) >= expected


def test_a_role_after_a_company_is_no_part_of_its_name(blank_nlp):
    """The China post's bylines: "Jiyang Gao (Galaxea AI CEO)" names Galaxea AI, and "Galaxea
    AI CEO" is no other name of it (the whole-corpus scan of 7 December evening); nor is a
    name of two words in parentheses an acronym of the words before it ("a Different Game ...
    Jiyang Gao" spell G, A, I)."""
    doc = blank_nlp("### Robotics: China Is Playing a Different Game\n\n"
                    "*Matt White, Jiyang Gao (Galaxea AI CEO) and Nathan Lambert*")
    assert [(s.text, s.id_) for s in doc.spans["ptkg"] if s.label_ == "Organization"] == [
        ("Galaxea AI", "Galaxea AI")]


@pytest.mark.parametrize("text", [
    "Andrew Gordon Wilson; Uncertainty in Artificial Intelligence (UAI), 2018",
    "the PyTorch Certified Associate (PTCA) exam",
    "Recommendation Systems (RecSys) comprise a large footprint",
    "| Aspect | Baseline (Separate) | Fused Kernel |",
    "What Does an Umbrella Foundation Mean?\nBy becoming an umbrella foundation, we grow.",
    "Frontier Chinese AI Labs release models.",
], ids=["citation", "acronym", "acronym-camel", "table-header", "title-case", "generic"])
def test_issue12_organizations_need_more_than_parentheses(blank_nlp, text):
    assert not {name for label, name in found(blank_nlp, text) if label == "Organization"}


@pytest.mark.parametrize(("text", "name"), [
    ("Muon Optimizer has gained momentum with Adam.", "Muon"),
    ("The Fused Adagrad optimizer is new.", "Fused Adagrad"),
    ("Warp Specialization splits producers and consumers.", "Warp Specialization"),
    ("## What is Vertical Fusion?", "Vertical Fusion"),
    ("In TLX Block Attention, blocks are fixed.", "TLX Block Attention"),
    ("primitives like tlx.async_dot and tlx.local_trans", "tlx.async_dot"),
    ("Batched linalg.eigh on CUDA is faster.", "linalg.eigh"),
    ("**GEMM + Epilogue Fusion**: Attaches simple math.", "GEMM + Epilogue Fusion"),
    ("We introduced torchao::parallel_1d for threads.", "torchao::parallel_1d"),
], ids=["optimizer", "typed-optimizer", "technique", "technique-heading", "technique-lead",
        "library-api", "bare-submodule", "technique-joined-by-plus", "library-api-colons"])
def test_issue12_features_by_their_shape(blank_nlp, text, name):
    assert ("Feature", name) in found(blank_nlp, text)


def test_a_snake_case_name_that_acts_is_an_api(english_nlp):
    """The TokenSpeed post: a kernel that replaces launches is named; a variable that "is" a
    scalar is not."""
    names = found(english_nlp, "`fused_gate_sigmoid_mul_add` computes the expression in one "
                               "kernel. The key inefficiency: `gate_val` is a scalar per token.")
    assert ("Feature", "fused_gate_sigmoid_mul_add") in names
    assert not {n for n in names if n[1] == "gate_val"}


def test_issue12_a_technique_is_named_again_in_lower_case(blank_nlp):
    """The kernel fusion post's "**Horizontal Fusion**: ..." and its prose "Inductor also uses
    horizontal fusion" name one technique; a lower-case phrase alone names none."""
    doc = blank_nlp(mask_markup("Inductor also uses horizontal fusion.\n\n"
                                "**Horizontal Fusion**: Runs independent operations at once."))
    assert [(s.text, s.id_) for s in doc.spans["ptkg"] if "Fusion" in s.id_] == [
        ("horizontal fusion", "Horizontal Fusion"), ("Horizontal Fusion", "Horizontal Fusion")]
    assert ("Feature", "Horizontal Fusion") not in found(blank_nlp, "It uses horizontal fusion.")


def test_issue12_a_name_the_post_also_writes_joined_is_that_name(blank_nlp):
    """The Helion autotuning post's "LFBO TreeSearch" is its LFBOTreeSearch; without the
    joined name in the post, TreeSearch is read alone."""
    text = "We compare LFBOTreeSearch to others. Use LLM-Seeded LFBO TreeSearch."
    assert {name for _, name in found(blank_nlp, text)} >= {"LFBOTreeSearch"}
    assert "TreeSearch" not in {name for _, name in found(blank_nlp, text)}
    assert ("Feature", "TreeSearch") in found(blank_nlp, "Use LLM-Seeded LFBO TreeSearch.")


@pytest.mark.parametrize("text", [
    "FX Graph Mode Post Training Dynamic Quantization tutorial",
    "2. Why Block Attention?",
    "Dao, T. (2022). FlashAttention: Fast and Memory-Efficient Exact Attention. arXiv.",
])
def test_issue12_technique_names_are_whole_names(blank_nlp, text):
    names = {name for label, name in found(blank_nlp, text) if label == "Feature"}
    assert not names & {"Post Training Dynamic Quantization", "Block Attention",
                        "Memory-Efficient Exact Attention", "Exact Attention"}


@pytest.mark.parametrize(("text", "not_found"), [
    ("We're releasing @PyTorch -QRNN, 2-17x faster.", "PyTorch"),
    ("The CUDA kernel was contributed by @MeetThePatel in 2.11.", "MeetThePatel"),
    ("By Zhipeng Wang, Guokai Ma and Chi McIsaac, DeepSpeed team", "McIsaac"),
    ("Muon reduces per-GPU memory by 3 GiB.", "GiB"),
    ("| SpaceInvaders | 7727 ± 1121 | 21676 ± 8897 |", "SpaceInvaders"),
    ("Schedule for KubeCon + CloudNativeCon is out.", "KubeCon"),
    ("on IoT devices and SoCs", "IoT"),
    ("follow us on Twitter, Medium, YouTube, and LinkedIn.", "LinkedIn"),
    ("This post is authored by Raghuraman Krishnamoorthi, James Reed, MinNi, and Seth Weidman.",
     "MinNi"),
    ("query-heads-per-kv-head (QpKV) is the tile size; QpKV is small.", "QpKV"),
    ("the OpenInfra Summit and licenses like the OpenMDW license", "OpenMDW"),
    ("Thanks to Adam Paszke for the review.", "Adam"),
    ("The kernel applies ReLU to TopK-selected tokens.", "ReLU"),
    ("The kernel applies ReLU to TopK-selected tokens.", "TopK"),
    ("It speeds up Transformer Encoder and Self Attention use cases.", "Self Attention"),
    ("Try `from torchtext.datasets.text_classification import DATASETS` today.",
     "torchtext.datasets.text_classification"),
    ("configurations from 128 to 2048 MACs/cycle", "macOS"),
    ("In Figure 2 the *MultDerivative* node also calculates the product.", "MultDerivative"),
    ("Then we execute the LogDerivative operation that the engine introduced.", "LogDerivative"),
    ("Do we now need to define a prefixlm_document_mask function as well?",
     "prefixlm_document_mask"),
    ("For example, in `class LlamaAttention`, we define: `_tp_plan = {}`", "LlamaAttention"),
], ids=["tweet-handle", "github-handle", "surname", "unit", "results-table", "event",
        "abbreviation", "social-links", "authors", "common-acronym", "not-an-entity",
        "given-name", "activation", "operation", "general-technique", "inline-import",
        "multiply-accumulates", "a graph's node", "an example's operation",
        "a function the example defines", "a class the example defines"])
def test_issue12_noise_is_no_entity(blank_nlp, text, not_found):
    assert not_found not in {name for _, name in found(blank_nlp, text)}


@pytest.mark.parametrize(("text", "expected"), [
    ("The MagicPony team at Twitter contributed.", ("Organization", "Twitter")),
    ("Use the Adam optimizer.", ("Feature", "Adam")),
    ("It joins Adam, AdamW, and SGD.", ("Feature", "Adam")),
], ids=["site-as-company", "optimizer", "optimizer-list"])
def test_issue12_noise_filters_keep_real_mentions(blank_nlp, text, expected):
    assert expected in found(blank_nlp, text)


@pytest.mark.parametrize(("text", "name"), [
    ("The TorchaAudio and TorcheElastic libraries", "torchaudio"),
    ("TorchSpec trains draft models.", "TorchSpec"),
])
def test_issue12_torch_libraries(blank_nlp, text, name):
    """A name of the ecosystem's shape is a library; one letter off a known one is that one."""
    assert ("Library", name) in found(blank_nlp, text)


@pytest.mark.parametrize(("text", "name"), [
    ("TorchScript is deprecated; torchscriptable code.", "torchscriptable"),
    ("TorchScriptabilty support would allow it.", "TorchScriptabilty"),
])
def test_issue12_words_made_of_names_are_no_libraries(blank_nlp, text, name):
    assert name not in {n for _, n in found(blank_nlp, text)}


def test_issue12_libraries_listed_after_such_as(blank_nlp):
    text = "on additional libraries such as FairSeq, MetaSeq, and HuggingFace to benefit"
    assert ("Library", "MetaSeq") in found(blank_nlp, text)
    text = "Using machine learning frameworks such as PyTorch, ATOM was able to design"
    assert "ATOM" not in {name for _, name in found(blank_nlp, text)}


def test_names_listed_before_and_other_kind_are_of_that_kind(blank_nlp):
    """The 2019 dev tools post: "Stanford, UC Berkeley, Caltech, and other universities"."""
    text = "Stanford, UC Berkeley, Caltech, and other universities are using PyTorch."
    assert found(blank_nlp, text) >= {("Organization", "Stanford"),
                                      ("Organization", "UC Berkeley"),
                                      ("Organization", "Caltech")}


@pytest.mark.parametrize(("text", "expected"), [
    ("connecting to cloud providers (such as Google Drive or AWS S3), the DataPipes",
     {("Platform", "Google Drive"), ("Platform", "AWS S3")}),
    ("within services such as Amazon Sagemaker and Elastic Kubernetes Service (EKS)",
     {("Platform", "Amazon EKS")}),
], ids=["providers-in-parentheses", "three-word-item"])
def test_issue12_a_listed_name_longer_than_a_known_one_is_the_listed_name(blank_nlp, text,
                                                                          expected):
    """A list typed by its kind names each item whole: "Google Drive", not the pack's Google;
    an item is never cut short of the name it starts ("Elastic Kubernetes" of "... Service")."""
    names = found(blank_nlp, text)
    assert expected <= names
    assert not {n for _, n in names if n in ("Google", "AWS", "Elastic Kubernetes")}
    doc = blank_nlp(text)
    assert "Elastic Kubernetes" not in {span.text for span in doc.spans["ptkg"]}


def test_a_name_whose_short_form_the_pack_knows_is_the_pack_name(blank_nlp):
    """"Elastic Kubernetes Service (EKS)": the pack knows EKS as Amazon EKS, so the long name
    is Amazon EKS too (one node, not a duplicate beside the pack's); a short form the pack does
    not know takes the long name ("DistributedTensor (DTensor)")."""
    doc = blank_nlp("services such as Elastic Kubernetes Service (EKS) and Amazon EKS.")
    assert {(s.text, s.id_) for s in doc.spans["ptkg"]} == {
        ("Elastic Kubernetes Service", "Amazon EKS"), ("EKS", "Amazon EKS"),
        ("Amazon EKS", "Amazon EKS")}
    assert found(blank_nlp, "We add DistributedTensor (DTensor) to it.") >= {
        ("Feature", "DistributedTensor")}


def test_entity_finder_rules_have_priorities():
    """Every rule a candidate can name has a priority; typed contexts beat the pack."""
    assert RULES["contributor_org"] < RULES["pack"] < RULES["camel_case"]
    assert RULES["release"] == min(RULES.values())


def test_entity_finder_pack_families():
    """A family of the pack names a model with a version; bare, it keeps its own label
    (DeepSeek the company, Qwen the models); a device family's model numbers are devices
    (Ethos-U55 of the Ethos-U)."""
    families = [r for r in read_patterns(ENTITY_PATTERNS) if r.get("family")]
    assert families and {r["label"] for r in families} == {"Model", "Organization", "Hardware"}
    assert {"Qwen", "Llama", "DeepSeek"} <= pack_ids()


@pytest.mark.parametrize(("text", "expected"), [
    ("We met DeepSeek in Hangzhou; DeepSeek-V3 is open.",
     {("Organization", "DeepSeek"), ("Model", "DeepSeek-V3")}),
    ("Qwen models and Qwen3.5 are open.", {("Model", "Qwen"), ("Model", "Qwen3.5")}),
])
def test_issue12_family_and_its_versions(blank_nlp, text, expected):
    assert found(blank_nlp, text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Originally developed by Moonshot AI and Tsinghua University, Mooncake is an engine.",
     ("Organization", "Tsinghua University")),
    ("It serves Minimax M2.5 and Qwen3.5.", ("Model", "Minimax M2.5")),
    ("It works with SGLang and TensorRT LLM today.", ("Library", "TensorRT-LLM")),
    ("Changing the default backend to “sox_io” (for Linux), and the “soundfile” backend’s API.",
     ("Feature", "soundfile backend")),
], ids=["university", "family-inner-case", "spelled-with-a-space", "quoted-backend"])
def test_names_of_2026_posts_by_rule_and_pack(blank_nlp, text, expected):
    """A university is an organization by its suffix; a family's inner letters match in any
    case (MiniMax, "Minimax M2.5"); TensorRT LLM is TensorRT-LLM, not TensorRT; a backend named
    by its code name in quotes is a feature."""
    assert expected in found(blank_nlp, text)
    assert ("Library", "TensorRT") not in found(blank_nlp, text)


def test_a_lower_case_slug_is_no_model_of_a_family(blank_nlp):
    assert not {e for e in found(blank_nlp, "Run kimi-k25-3node-h100 with Kimi K2.5.")
                if e[1].startswith("kimi")}


def test_a_version_of_a_model_family_is_read_with_it(blank_nlp):
    """DeepLab is a family (the alias pack's ``family``): "DeepLab V3" is one model, which
    resolution makes one node with DeepLabV3."""
    assert found(blank_nlp, "Use DeepLab V3 to segment images!") == {("Model", "DeepLab V3")}


def test_a_dtype_named_by_its_other_name_is_the_dtype(blank_nlp):
    """The alias pack gives the dtypes' documented other names: torch.half is torch.float16."""
    assert found(blank_nlp, "16-bit floating point torch.float16 or torch.half") == {
        ("Feature", "torch.float16")}
    assert found(blank_nlp, "torch.long and torch.int") == {("Feature", "torch.int64"),
                                                            ("Feature", "torch.int32")}


def test_issue12_torch_suffix_is_a_library(blank_nlp):
    assert found(blank_nlp, "ProbTorch and PrimTorch") == {("Library", "ProbTorch"),
                                                            ("Feature", "PrimTorch")}


@pytest.mark.parametrize(("text", "releases"), [
    ("### (Stable) CUDA 10.2 and 11.3 CI/CD Deprecation", {"CUDA 10.2", "CUDA 11.3"}),
    ("We deprecated CUDA 10.2 and 11.3 and completed migration of CUDA 11.6 and 11.7.",
     {"CUDA 10.2", "CUDA 11.3", "CUDA 11.6", "CUDA 11.7"}),
    ("CUDA 11.6, 11.7 or 11.8", {"CUDA 11.6", "CUDA 11.7", "CUDA 11.8"}),
    ("torchvision 0.8, 1,000 images", {"torchvision 0.8"}),
    ("we will no longer support Python 2, specifically version 2.7", {"Python 2"}),
    ("removing support for Python2 and will support Python3 only", {"Python 2", "Python 3"}),
    ("Deprecation of Python 3.7 support", {"Python 3.7"}),
    ("TorchAudio v2.1 works with FFmpeg 6, 5 and 4.4. The support for 4.3, 4.2 and 4.1 are "
     "dropped.", {"torchaudio 2.1", "FFmpeg 6", "FFmpeg 5", "FFmpeg 4.4", "FFmpeg 4.3",
                  "FFmpeg 4.2", "FFmpeg 4.1"}),
    ("It needs FFmpeg 6. Versions 4.3 and 4.2 are dropped.", set()),
    ("We support CUDA 12.6. It is new. Versions 11.3 and 10.2 are dropped.", {"CUDA 12.6"}),
])
def test_issue12_toolkit_versions_and_the_versions_after_them_are_releases(blank_nlp, text,
                                                                          releases):
    """A toolkit's versions are releases ("CUDA 10.2", "Python 3.7"), and so are the bare
    versions listed after a release ("and 11.3"), a list that opens with a major ("FFmpeg 6, 5
    and 4.4"), and the bare versions listed in the next sentence; a major alone is no release
    (but Python's), and the bare versions of a later sentence are no one's. A toolkit's release
    opens no section (``extract.py``)."""
    assert {name for label, name in found(blank_nlp, text) if label == "Release"} == releases


@pytest.mark.parametrize(("text", "expected"), [
    ("The transforms `AmplitudeToDB` (previously named `SpectrogramToDB`) and `MelScale`.",
     {("Feature", "AmplitudeToDB"), ("Feature", "MelScale")}),
    ("Use `MuLawDecoding` (formerly called `MuLawExpanding`) now.",
     {("Feature", "MuLawDecoding")}),
    ("Compare `AmplitudeToDB` (and `SpectrogramToDB`) here.",
     {("Feature", "AmplitudeToDB"), ("Feature", "SpectrogramToDB")}),
    ("It is not specific to `AmplitudeToDB`.\n\nPreviously, `SpectrogramToDB` was in contrib.",
     {("Feature", "AmplitudeToDB"), ("Feature", "SpectrogramToDB")}),
    ("HuggingFace PyTorch-Transformers (formerly known as pytorch-pretrained-bert) is a library",
     {("Library", "Hugging Face Transformers"), ("Library", "PyTorch")}),
], ids=["previously-named", "formerly-called", "no-rename", "next-sentence-previously",
        "former-name-part-of-a-word"])
def test_issue12_a_former_name_the_post_states_is_read_as_the_name(blank_nlp, text, expected):
    assert found(blank_nlp, text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Now with ~100% coverage and docs for C++ torch::nn module/functional.",
     {("Feature", "torch::nn")}),
    ("Composing vmap (vectorization), vjp (reverse-mode AD), and jvp (forward-mode AD) "
     "transforms.", {("Feature", "vmap"), ("Feature", "vjp"), ("Feature", "jvp")}),
    ("The distributed optimizer creates RRefs to optimizers on each worker.",
     {("Feature", "RRef")}),
], ids=["cpp-namespace", "function-transforms", "remote-reference"])
def test_torch_apis_of_cpp_and_the_pack(blank_nlp, text, expected):
    """A C++ namespace path of torch is an API as a dotted one is; functorch's transforms and
    RPC's RRef are the pack's."""
    assert found(blank_nlp, text) >= expected


def test_a_camel_case_name_listed_with_known_libraries_is_a_library(blank_nlp):
    text = ("It helps users of complex numbers in PyTorch like TorchAudio, ESPNet, Asteroid, "
            "and FastMRI.")
    assert ("Library", "FastMRI") in found(blank_nlp, text)
    assert ("Organization", "YouTube") not in found(
        blank_nlp, "Follow us on Facebook, Twitter, YouTube or LinkedIn.")


def test_a_camel_case_name_listed_with_known_companies_is_a_company(blank_nlp):
    """The China post's labs, each in bold, some with their other name: "AIInnovation" is one
    of them (the whole-corpus audit of 7 December evening)."""
    text = ("I visited **Moonshot AI**, **Z.ai (Zhipu)**, **MiniMax**, **AIInnovation**, "
            "**01.ai**, **DeepSeek**, **Alibaba Cloud / Qwen**, and **Xiaomi**.")
    assert ("Organization", "AIInnovation") in found(blank_nlp, text)


def test_two_words_joined_with_a_gerund_name_no_class(blank_nlp):
    names = {n for _, n in found(blank_nlp, "Preprocessing and DataLoading with NVTabular, "
                                            "then DataLoader2 loads it.")}
    assert "DataLoading" not in names and "DataLoader2" in names


def test_an_acronym_run_into_a_word_is_a_name(blank_nlp):
    names = {n for _, n in found(blank_nlp, "AOTInductor is an extension of TorchInductor; "
                                            "the KLPPOLoss module, a RESTful endpoint.")}
    assert {"AOTInductor", "KLPPOLoss"} <= names and "RESTful" not in names


@pytest.mark.parametrize(("text", "expected", "unexpected"), [
    ("vLLM can be executed on NVIDIA, AMD, and Intel GPUs.",
     {("Hardware", "NVIDIA GPU"), ("Hardware", "AMD GPU"), ("Hardware", "Intel GPU")},
     {("Organization", "NVIDIA"), ("Organization", "AMD")}),
    ("For NVIDIA and AMD GPUs, it uses OpenAI Triton.",
     {("Hardware", "NVIDIA GPU"), ("Hardware", "AMD GPU"), ("Organization", "OpenAI")},
     {("Organization", "NVIDIA")}),
    # a company not in the list of the device, and one whose device the pack does not know
    ("NVIDIA builds chips, and AMD GPUs are fast.", {("Organization", "NVIDIA")}, set()),
    ("Google and AMD GPUs were compared.", {("Organization", "Google")}, set()),
], ids=["comma-list", "pair", "not-listed", "no-such-device"])
def test_issue12_listed_vendors_share_the_devices_head_noun(blank_nlp, text, expected,
                                                            unexpected):
    names = found(blank_nlp, text)
    assert expected <= names
    assert not unexpected & names


def test_the_pack_names_ecosystem_tools(blank_nlp):
    """Libraries and tools the unseen- golds found in the PlayTorch, Singapore meetup and
    ExecuTorch alpha posts, named by the pack; a bare "Expo" is not (a conference's "Community
    Expo")."""
    text = ("An SDK for React Native, run in the Expo Snack editor. MONAI's strategy, PyG's "
            "Jinja2 code generation and Ollama. Unity runs models with its library Sentis. "
            "The Community Expo ran all day.")
    assert found(blank_nlp, text) >= {
        ("Library", "React Native"), ("Platform", "Expo Snack"), ("Library", "MONAI"),
        ("Library", "Jinja2"), ("Library", "Ollama"), ("Organization", "Unity"),
        ("Library", "Sentis")}
    assert ("Organization", "Expo") not in found(blank_nlp, text)


def test_the_pack_names_a_library_by_its_first_name(blank_nlp):
    """TorchElastic was PyTorch Elastic in the 1.3 tools post ("### PyTorch Elastic
    (Experimental)"): one library, not PyTorch."""
    assert found(blank_nlp, "The focus of PyTorch Elastic is elasticity.") == {
        ("Library", "TorchElastic")}


def test_the_pack_names_a_device_whose_name_opens_with_a_library(blank_nlp):
    """ "Ray-Ban Meta Smart Glasses" are a device, no mention of Ray (the 20-node audit of
    422a25a)."""
    assert found(blank_nlp, "models run on Ray-Ban Meta Smart Glasses.") == {
        ("Hardware", "Ray-Ban Meta Smart Glasses")}


def test_the_pack_names_kinds_of_device(blank_nlp):
    """The kinds of device three `unseen-` golds and the held-out mobile gold annotate: a SoC,
    an ASIC, an AI PC (plurals too)."""
    assert found(blank_nlp, "Models run on their SoCs, on ASICs and on AI PCs.") == {
        ("Hardware", "SoC"), ("Hardware", "ASIC"), ("Hardware", "AI PC")}


def test_the_pack_names_a_library_by_its_acronym(blank_nlp):
    """The whole-corpus audit of 7 December evening: "[PyTorch-BigGraph](...): PBG is a
    distributed system" names one library, by its name and by its acronym."""
    text = "- [PyTorch-BigGraph](https://ai.facebook.com/blog/): PBG is a distributed system."
    assert {name for label, name in found(blank_nlp, text) if label == "Library"} == {
        "PyTorch-BigGraph"}


def test_a_role_of_a_department_names_no_company(blank_nlp):
    """ "VP of Product" is a department's; the company is the one the role is at."""
    names = {name for label, name in found(
        blank_nlp, "**Joe Spisak**, VP of Product and Head of Open Source at Reflection AI.")
        if label == "Organization"}
    assert names == {"Reflection AI"}
