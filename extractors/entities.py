"""The entity finder: the alias pack and the naming rules that generalize beyond it.

:class:`EntityFinder` (the ``ptkg_entities`` component) matches the alias pack
(``patterns/entities.jsonl``, the EntityRuler format with the canonical name as ``id``) and rules
that generalize to names the pack has never seen (:data:`RULES`, each with its priority):

- releases: "PyTorch v1.12", "the 1.12 release", "release (2.13+)", "CUDA 12.8", "ROCm >= 7.02"
  (not a toolkit's version that starts a heading: "### CUDA 10.2 ... Deprecation");
- API names: ``torch.*``, ``nn.*``/``np.*``/``linalg.*``/``dist.*``, ``<library>.<name>``
  ("tlx.async_dot"), a snake-case name called or typed ("an is_capturing() method", "the
  syevj_batched kernel", "the kernels (unified_attention_2d)"), the members of a short module
  alias of a library the post names ("hl.tile", "hl.grid"), a feature named with its number
  format ("FP8 semi-structured sparsity", "float8 all_gather");
- libraries: ``torch*``/``Torch*``/``*Torch`` names, vendor families (``cu*``/``hip*``/``roc*``/
  ``one*``, ``*CCL``, ``*SHMEM``), the packages of "pip install <name>";
- hardware: accelerator codes (H100, GB300, MI350X, gfx950, "8xA100"), vendor products
  ("NVIDIA B200 GPUs" is B200, "Intel Data Center GPU Max Series", "Intel Arc Graphics", "Intel
  Core Ultra processors" is the Intel Core Ultra), the
  model numbers of a device family of the pack (``"family": true``: "Ethos-U55",
  "Corstone-320") and a code name in parentheses ("(Codename Lunar Lake)");
- models: a family of the pack (``"family": true``) with a version or size
  ("Qwen3.5-397B-A17B", "Kimi-K2", "GPT-2 XL"), a name with a parameter count
  ("Moonlight-16B-A3B"), an architecture's suffix ("RoFormer", "BlockBERT");
- names typed by the words around them: "<Name> library/backend/framework/compiler/DSL",
  "<Name>, a ... library", "<Name> as a ... system" (a name written as one word, "DuaLip-GPU",
  outranks the device inside it), "solver, <Name>,", "libraries such as A, B and C",
  "accelerators like Huawei's Ascend NPU", "<Name> optimizer",
  "<Two Capitalized> feature", "<snake_case> backend",
  "the <Name> platform", an acronym and its expansion ("Triton Language Extensions (TLX)"), a
  contributor's or speaker's company ("Guangye Yu (Intel)", "by Valeri Milke from VamiSec"), a
  model's maker ("Ling-2.6-1T (InclusionAI)"), "<Name> Foundation/Labs"; technique names ("Warp
  Specialization", "Vertical Fusion"); CamelCase names ("InverseMelScale"), a Feature unless
  typed otherwise.

A library's snake-case function named with its module ("tlx.async_dot") is that function
where the post names it bare ("the async_dot / local_trans APIs"). A name typed in a post types
its other mentions in that post, and "<Name> Summit/license/
benchmark ..." makes it no entity there (:meth:`EntityFinder._typed`). Some matches are never
names (:meth:`EntityFinder._noise`): handles ("@PyTorch"), given names before a surname ("Adam
Paszke"), social links ("follow us on Twitter"), people's surnames ("DeVries"), authors
("authored by ..., MinNi, and ..."), units ("GiB"), events ("KubeCon"), acronyms of common
phrases ("query-heads-per-kv-head (QpKV)"), the rows of a results table ("SpaceInvaders 7727 ±
1121").

A device the pack names as its maker (``"maker"``: "Arm") is the company where a post speaks of
one ("Arm's TOSA", "Arm has worked with Meta", "by NVIDIA, ARM, and Intel"); a company the
pack names as its cloud (``"cloud"``: AWS) is the Platform where something runs on it ("on AWS
clusters"), as the contract's "AWS as a cloud" is.

It writes ``doc.spans["ptkg"]`` (label = entity label, ``id_`` = canonical name),
``doc.spans["ptkg_inner"]`` (hardware and platforms a feature's or library's name holds:
"Android GPU backend", "DuaLip-GPU") and ``doc.spans["ptkg_stability"]`` (stability markers,
labelled with their word).
:meth:`EntityFinder.candidates` gives every candidate with the rule that read it.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import defaultdict
from collections.abc import Callable, Container, Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

import srsly
from spacy.language import Language
from spacy.matcher import Matcher, PhraseMatcher
from spacy.tokens import Doc, Span

from ptkg.extractors.patterns import ENTITY_PATTERNS, pattern_surface, read_patterns
from ptkg.extractors.rules import check_token_pattern
from ptkg.extractors.stability import MARKER
from ptkg.names import MODEL_NUMBER, SNAKE_NAME
from ptkg.schema import CORE_LIBRARY, DEVICE_LABELS

# Candidates of higher priority (lower number) win overlaps: releases, then names typed by their
# context, then the pack and API names, then library names, then guesses.
PRIORITY = {"release": 0, "context": 1, "pack": 2, "api": 2, "library": 3, "named": 4}

#: Each rule, with the priority of its candidates.
RULES = {
    "pack": PRIORITY["pack"],
    "release": PRIORITY["release"], "bare_release": PRIORITY["release"],
    "contributor_org": PRIORITY["context"], "acronym": PRIORITY["context"],
    "torch_api": PRIORITY["api"], "dotted_api": PRIORITY["api"],
    "library_api": PRIORITY["api"], "device_code": PRIORITY["api"],
    "device_family": PRIORITY["api"], "codename": PRIORITY["api"],
    "snake_api": PRIORITY["api"], "alias_member": PRIORITY["api"],
    "precision_variant": PRIORITY["api"],
    "vendor_product": PRIORITY["api"], "device_backend": PRIORITY["api"],
    "consumer_device": PRIORITY["api"], "cloud_instance": PRIORITY["api"],
    "quoted_backend": PRIORITY["api"], "library_part": PRIORITY["api"],
    "torch_library": PRIORITY["library"], "vendor_library": PRIORITY["library"],
    "pip_install": PRIORITY["library"], "model_name": PRIORITY["api"],
    "typed_name": PRIORITY["named"], "org_suffix": PRIORITY["named"],
    "technique": PRIORITY["named"], "camel_case": PRIORITY["named"],
    "learned": PRIORITY["named"],
}

#: Rules that guess a name from its shape alone.
_GUESSES = ("camel_case", "technique", "typed_name", "learned")

#: Rules whose label says what the words around a name say it is: that label types the name's
#: other mentions in the post (camel_case and learned ones).
TYPING_RULES = ("contributor_org", "acronym", "typed_name", "org_suffix", "model_name",
                "pip_install", "vendor_library", "snake_api")


class Candidate(NamedTuple):
    """A name one rule read: its priority (lower wins an overlap), span and rule."""

    priority: int
    span: Span | None
    rule: str


# Where a guessed name may not start: inside a word, a path, a handle ("@PyTorch"), a hashtag.
_START = r"(?<![\w./:@#\\-])"

_API = re.compile(r"(?<![\w.@:])[Tt]orch(?:(?:\.|::)[A-Za-z_]\w*)+")  # torch.fx, torch::nn


# "torchcomms", "TorchSpec", "TorchEasyRec", "ProbTorch": a library of the PyTorch ecosystem,
# unless the pack says otherwise ("TorchScript", "PrimTorch" are features).
_TORCH_LIBRARY = re.compile(
    r"(?<![\w./@-])(?:[Tt]orch(?!script)[a-z_][A-Za-z_]*|Torch(?!Script)[A-Z][A-Za-z]+"
    r"|[A-Z][a-z]+Torch)\b"
    r"(?!\.\w|\(|-)")


_VERSION = r"v?(?P<version>\d{1,2}\.\d{1,2}(?:\.\d{1,2})?)(?!\d|\.\d|x\b|%)"
# A version, or a major alone ("FFmpeg 6, 5 and 4.4": a list may open with one).
_VERSION_OR_MAJOR = (r"v?(?P<version>\d{1,2}\.\d{1,2}(?:\.\d{1,2})?(?!\d|\.\d|x\b|%)"
                     r"|\d{1,2}(?![\w.]|\.\d))")


_BARE_RELEASE = re.compile(
    r"\b(?:(?:[Tt]he\s+(?:upcoming\s+)?)" + _VERSION + r"\s+release\b"
    r"|(?<=release\s\()" + _VERSION.replace("version", "version3") + r"(?=\+?\))"
    r"|(?:[Ii]n|[Ss]tarting in|[Aa]long with|[Ss]ince)\s+"
    + _VERSION.replace("version", "version2") + r"(?=[,.]\s))"
)

# Toolkits that are Hardware in the pack, or no entity, but have releases: "CUDA 12.8", "ROCm
# >= 7.02", "Python 3.7". A toolkit's release is a dependency of a release, never one a post
# announces or whose section a heading opens (``ptkg.extractors.extract``).
_TOOLKITS = {"cuda": "CUDA", "rocm": "ROCm", "python": "Python"}
TOOLKITS = frozenset(_TOOLKITS.values())
# "Python 2", "Python2", "Python 3.11": Python's versions, its majors alone too.
_PYTHON = re.compile(r"(?<![\w/@.])[Pp]ython ?(?P<version>[23](?:\.\d{1,2})?)(?![\w.+]|\.\d)")
# What joins the versions of a list: ", ", " and ", ", or ", "/".
_LIST_JOIN = r"(?:[ \t]*,[ \t]*(?:and[ \t]+|or[ \t]+)?|[ \t]+(?:and|or)[ \t]+|[ \t]*/[ \t]*)v?"
# More versions of the release before: "CUDA 10.2 and 11.3", "CUDA 11.6, 11.7 or 11.8".
_MORE_VERSIONS = re.compile(
    _LIST_JOIN + r"(?P<version>\d{1,2}\.\d{1,2}(?:\.\d{1,2})?)(?!\d|\.\d|x\b|%)")
# More versions after a major: "FFmpeg 6, 5 and 4.4".
_MORE_MAJORS = re.compile(_LIST_JOIN + r"(?P<version>\d{1,2}(?:\.\d{1,2}){0,2})(?!\d|\.\d|x\b|%)")
# A list of bare versions: "4.3, 4.2 and 4.1" (its first; _MORE_VERSIONS reads the others).
_BARE_LIST = re.compile(
    r"(?<![\w.])v?(?P<version>\d{1,2}\.\d{1,2})(?![\d.]\d)"
    r"(?=(?:[ \t]*,[ \t]*v?\d{1,2}\.\d{1,2})*[ \t]*,?[ \t]+(?:and|or)[ \t]+v?\d{1,2}\.\d)")
#: A list of bare versions after "the", which "releases" may follow: "the 2.2, 2.3 and 2.5".
_THE_BARE_LIST = re.compile(r"(?<=[Tt]he )" + _BARE_LIST.pattern)
_RELEASES_AFTER = re.compile(r"[ \t]+releases\b")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")


def _listed_versions(text: str, first: re.Match, more: re.Pattern = _MORE_VERSIONS
                     ) -> list[re.Match]:
    """A list's first version and the ones ``more`` reads after it: "10.2 and 11.3"."""
    versions = [first]
    while found := more.match(text, versions[-1].end()):
        versions.append(found)
    return versions


# A name as the typing rules read it: up to three words, each capitalized or CamelCase.
_NAME_WORD = r"(?:[A-Z][\w+/.-]*[A-Za-z0-9+]|[a-z]+[A-Z](?:[\w+/.-]*[A-Za-z0-9+])?)"
_NAME = rf"(?P<name>{_NAME_WORD}(?:[ \t]+[A-Z][\w+/.-]*[A-Za-z0-9+]){{0,2}})"

# "<Name> library", "<Name> backend", "the <Name> DSL", "<Name> inference engine".
_LIBRARY_KINDS = r"librar(?:y|ies)|backends?|frameworks?|compilers?|DSLs?|SDKs?|toolkits?"
_LIBRARY_MODIFIERS = (r"inference|serving|training|kernel|compiler|deep[- ]learning|open[- ]source"
                      r"|Python|C\+\+|ML|DL|LLM|RL|JIT")
_TYPED_LIBRARY = re.compile(
    _START + _NAME + rf"[ \t]+(?:(?P<modifier>{_LIBRARY_MODIFIERS})[ \t]+)?"
    rf"(?P<kind>{_LIBRARY_KINDS}|(?<=e[ \t])engines?)\b")
# "<Name>, a high-performance ... library", "<Name> is an open-source ... engine", "resulting
# in <Name> as a modern ... system".
_APPOSITION = re.compile(
    _START + _NAME + r"\**(?:,[ \t]+|[ \t]+is[ \t]+|[ \t]+as[ \t]+)(?:a|an)[ \t]+"
    r"(?:(?!of\b|for\b|to\b|in\b|with\b|on\b)[\w+-]+,?[ \t]+){0,6}?"
    r"(?P<kind>library|framework|compiler|DSL|toolkit|package|engine|SDK|solver|system)\b")
# "libraries such as FairSeq, MetaSeq, and HuggingFace": each name of the list is a library;
# "cloud providers (such as Google Drive or AWS S3)": each a platform; "systems like PDLP": a
# library.
_LIST_ITEM = r"[A-Z][\w+.-]*[A-Za-z0-9+](?:[ \t][A-Z][\w+.-]*[A-Za-z0-9+]){0,2}"
# "Huawei's Ascend NPU": an item its maker's name opens.
_OWNER = r"(?:[A-Z]\w*['’]s[ \t]+)?"
_OWNED_ITEM = re.compile(rf"{_OWNER}(?P<name>{_LIST_ITEM})")
_TYPED_LIST = re.compile(
    r"\b(?P<kind>librar(?:y|ies)|frameworks?|packages?|toolkits?|services?|compan(?:y|ies)"
    r"|startups?|models?|architectures?|providers?|solvers?|systems?|accelerators?|GPUs)[ \t]+"
    r"\(?(?:like|such[ \t]+as|including|e\.g\.,?)[ \t]+"
    rf"(?P<items>{_OWNER}{_LIST_ITEM}(?:(?:,[ \t]*{_OWNER}{_LIST_ITEM})*,?[ \t]+(?:and|or)[ \t]+"
    rf"{_OWNER}{_LIST_ITEM})?)")
# "Stanford, UC Berkeley, Caltech, and other universities": each name of the list is one.
_LIST_OF_KIND = re.compile(
    rf"(?<![\w.-])(?P<items>{_OWNER}{_LIST_ITEM}(?:[ \t]*,[ \t]*{_OWNER}{_LIST_ITEM})+)"
    r"[ \t]*,?[ \t]+and[ \t]+other[ \t]+(?P<kind>universities|compan(?:y|ies)|organi[sz]ations"
    r"|institutions|startups|librar(?:y|ies)|frameworks|packages|toolkits)\b")
# "TorchAudio, ESPNet, Asteroid, and FastMRI": a list of three or more names, each maybe with
# its other name ("Z.ai (Zhipu)", "Alibaba Cloud / Qwen") and its emphasis masked ("**MiniMax**,").
_PEER = (rf"(?:{_LIST_ITEM}|\d[\w.-]*[A-Za-z])"
         rf"(?:[ \t]*\([^()\n]{{1,30}}\)|[ \t]+/[ \t]+{_LIST_ITEM})?")
_PEER_LIST = re.compile(
    rf"(?<![\w.-]){_PEER}(?:[ \t]*,[ \t]*{_PEER})+[ \t]*,?[ \t]+(?:and|or)[ \t]+{_PEER}\b")
#: A list's item by its first name: "Alibaba Cloud" of "Alibaba Cloud / Qwen".
_PEER_NAME = re.compile(rf"(?:^|(?<=,)|(?<=\band|\b or))[ \t]*(?P<name>{_LIST_ITEM})")
#: A capitalized word after a list item: the name goes on past what the item can take.
_NAME_GOES_ON = re.compile(r"[ \t]+[A-Z]")
_LIST_LABELS = {"librar": "Library", "framew": "Library", "packag": "Library", "toolki": "Library",
                "servic": "Platform", "compan": "Organization", "startu": "Organization",
                "models": "Model", "model": "Model", "archit": "Model", "provid": "Platform",
                "solver": "Library", "system": "Library", "accele": "Hardware",
                "gpus": "Hardware", "univer": "Organization", "organi": "Organization",
                "instit": "Organization"}

# "the ModelScope platform": a platform.
_TYPED_PLATFORM = re.compile(_START + _NAME + r"[ \t]+(?:platform|hub|cloud)\b")
# "OpenInfra Summit", "the OpenMDW license": names of things the graph does not hold.
_NOT_ENTITY_KINDS = (r"licen[sc]es?|datasets?|benchmarks?|leaderboards?|conferences?|[Ss]ummits?"
                     r"|[Cc]hallenges?|[Aa]wards?|apps?|assistants?|chatbots?|podcasts?|[Mm]eetups?"
                     r"|[Hh]ackathons?|[Ww]orkshops?"
                     r"|nodes?|operation")  # "the MultDerivative node" of an example's graph
_NOT_ENTITY = re.compile(
    _START + _NAME + rf"[ \t]+(?:[a-z][\w-]*[ \t]+)?(?:{_NOT_ENTITY_KINDS})\b"
    rf"|\b(?:{_NOT_ENTITY_KINDS})[ \t]+(?:like|such[ \t]+as)[ \t]+"
    rf"{_NAME.replace('<name>', '<listed>')}")
# "its distributed linear programming solver, DuaLip, by": the name after its kind.
_KIND_FIRST = re.compile(
    r"\b(?:library|framework|compiler|DSL|toolkit|engine|SDK|solver),[ \t]+" + _NAME
    + r"(?=[ \t]*,)")
# "Muon optimizer", "the Fused Adagrad optimizer".
_TYPED_OPTIMIZER = re.compile(_START + _NAME + r"[ \t]+[Oo]ptimizers?\b")
# "Added Kaldi Pitch feature", "the Complex Autograd feature": two capitalized words or more.
_TYPED_FEATURE = re.compile(_START + r"(?P<name>[A-Z][\w-]*(?:[ \t]+[A-Z][\w-]*){1,3})"
                            r"[ \t]+feature\b(?![ \t]+(?:extraction|flags?|requests?)\b)")

# "Guangye Yu (Intel)", "Daniel Galvez and Ting-Yang Kuei (NVIDIA)": a contributor's company.
_PERSON_WORD = r"[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?"
#: The roles of a company's heads, which say the name they are of is a company's.
_CHIEF_ROLES = r"Co-?[Ff]ounder|Cofounder|Founder|CEO|CTO|COO|CFO"
_CONTRIBUTOR_ORG = re.compile(
    rf"(?<![\w.-])(?P<person>{_PERSON_WORD}(?: [A-Z]\.)?(?: {_PERSON_WORD}){{1,2}})"
    r" \((?P<org>[A-Z][\w&.-]*(?: (?:de |of |du )?[A-Z][\w&.-]*){0,3}?)"
    rf"(?P<role> (?:{_CHIEF_ROLES}|VP|Chair|Director))?\)")
# (a role after the company is the person's, and says the company is one: "Jiyang Gao
# (Galaxea AI CEO)")
# "Triton Language Extensions (TLX)", "TLX (Triton Language Extensions)": an acronym that the
# last word of its expansion types.
_EXPANSION = (r"(?P<expansion>[A-Z][\w-]*(?:[ \t]+(?:of|for|and|[A-Z][\w-]*)){0,4}"
              r"[ \t]+(?P<head>[A-Z][a-z]+))")
_ACRONYM = r"(?P<acronym>[A-Z][A-Za-z0-9]{1,6})"
_ACRONYMS = (re.compile(_START + _EXPANSION + r"[ \t]+\(" + _ACRONYM + r"\)"),
             re.compile(_START + _ACRONYM + r"[ \t]+\(" + _EXPANSION + r"\)"))
_ACRONYM_HEADS = {
    "Library": {"Library", "Libraries", "Toolkit", "Framework", "Compiler", "Language", "Runtime",
                "Engine", "Kernel", "Kernels", "Language Extensions"},
    "Organization": {"Foundation", "Labs", "Laboratory", "Institute", "Corporation"},
    "Feature": {"Architecture", "Interface", "Representation"},  # "... Set Architecture (TOSA)"
}

# A line that cites a paper: a year and the words of a reference.
_YEAR = re.compile(r"(?<![\d.])(?:19|20)\d\d(?![\d.])")
_REFERENCE = re.compile(r"\bet al\b|\bProceedings\b|[Tt]echnical [Rr]eport|\barXiv\b|\bIn [A-Z]|"
                        r"\b(?:Conference|Journal|Transactions|Symposium|Workshop)\b|"
                        r"^\W*\[?\d{1,3}[\].]|(?:[A-Z]\.\s*){1,2}[A-Z][a-z]+,|[A-Z][a-z]+,\s+[A-Z]\.")
# The role of a person that follows a company: "(Galaxea AI CEO)".

_BY = re.compile(r"\bby\b[^.;:\n]*$")
# "This post is authored by Raghuraman Krishnamoorthi, James Reed, MinNi, and": a list of people.
_AUTHORS = re.compile(r"\b(?:authored|written|presented|posted|contributed|edited)[ \t]+by[ \t]+"
                      r"(?:[A-Z][\w'-]*(?:[ \t]+[A-Z][\w'.-]*)*"
                      r"(?:,[ \t]*(?:and[ \t]+)?|[ \t]+and[ \t]+))+$")
# "by Valeri Milke from VamiSec GmbH", "led by Roy Saurabh and Ann Lee from AffectLog", "by
# Taraqur Rahman and Owen O'Donnell from OWL Integrations", "by Maurits de Groot from Nebius".
_NAME_WORD = rf"(?:{_PERSON_WORD}|[A-Z]'{_PERSON_WORD})"
_SPEAKER = (rf"{_NAME_WORD}(?: [A-Z]\.)?"
            rf"(?: (?:(?:de|van|von|der|da|di|del|le|la) )?{_NAME_WORD}){{1,3}}")
_SPEAKER_ORG = re.compile(
    rf"\b(?:by|By)[ \t]+{_SPEAKER}(?:(?:,| and) {_SPEAKER})*"
    r" from (?:the )?(?P<org>[A-Z][\w&-]*(?: (?:of |for |& )?[A-Z][\w&-]*){0,3})")
# "Co-Founder of Embedded LLM", "VP of Product and Head of Open Source at Reflection AI", "a
# member of the technical staff at Inferact": a person's role at a company.
_ROLE_AT = re.compile(
    rf"\b(?:(?:{_CHIEF_ROLES})[ \t]+(?:of|at)"  # of the company
    r"|(?:VP|Head|[Mm]ember of (?:the )?[Tt]echnical [Ss]taff|[Ee]ngineer|[Ss]cientist|"
    r"[Rr]esearcher|Director|Manager|Architect|Professor)"
    r"(?: of (?:the )?[A-Z][\w&-]*(?: [A-Z][\w&-]*)*)?[ \t]+at)"  # of a department, at it
    r"[ \t]+(?:the[ \t]+)?(?P<org>[A-Z][\w&-]*(?: (?:of |for |& )?[A-Z][\w&-]*){0,3})\b")
_LEGAL_SUFFIX = re.compile(r"[ \t]+(?:GmbH|Inc\.?|Ltd\.?|LLC|AG|SA|SAS|Corp\.?)$")
# "Ling-2.6-1T (InclusionAI)": the company after a model's name.
_MAKER = re.compile(r"^\**[ \t]*\((?P<org>[A-Z][\w&-]*(?: [A-Z][\w&-]*)?)\)")
_LISTED = re.compile(r"(?:^|[,;:\n]|\band|\bwith)[ \t]*$")

# A backend named by its code name in quotes: "the “sox_io” backend", "“soundfile” backend".
_QUOTED_BACKEND = re.compile(r"[“\"](?P<name>[a-z][a-z0-9_]*)[”\"][ \t]+backend\b"
                             r"|(?<![\w.\"“-])(?P<snake>[a-z][a-z0-9]*_[a-z0-9_]+)[ \t]+backend\b")

#: The parts of a tool that its name opens: "the Helion autotuner", "TokenSpeed's scheduler",
#: the "ExecuTorch delegate framework", "the ExecuTorch SDK", "the PlayTorch app". A library's
#: compiler is the library itself, and "the PyTorch runtime" is how posts speak of PyTorch.
#: A determiner right before a library's name, which makes "<library> <part>" one thing: "the
#: ExecuTorch runtime" (not "with Arm Compute Library runtime": the library, at run time).
_DETERMINER_BEFORE = re.compile(r"\b(?:the|a|an|its|their|our|this|new)[ \t]+$", re.I)
_LIBRARY_PARTS = "autotuner|scheduler|thread ?pool|runtime|allocator|dispatcher|tokenizer" \
                 "|delegate framework|SDK|app"

# "LightSeek Foundation", "Mobius Labs": a name with a company's or lab's suffix.
_ORG_SUFFIX = re.compile(
    _START + r"(?P<name>(?:[A-Z][\w&-]*[ \t]+){1,2}(?:Foundation|Labs|Research|Corporation"
    r"|Technologies|University|Institute|Inc\.?))(?![ \t]+[A-Z]|\w)")

# "Warp Specialization", "Vertical Fusion", "TLX Block Attention", "GEMM + Epilogue Fusion": a
# named technique.
_TECHNIQUE = re.compile(
    _START + r"(?P<name>(?:(?:[A-Z][\w+-]*|\+)[ \t]+){1,3}(?:Fusion|Parallelism|Offloading"
    r"|Specialization|Sparsity|Attention|Checkpointing|Pipelining|Quantization|Sharding))\b"
    r"(?![ \t]+(?!(?:Examples?|Overview|Types?|Results?|Benchmarks?|Performance|Support)\b)[A-Z])")

def _acting_snake_names(doc: Doc) -> Iterator[Candidate]:
    """A snake-case name that does something is a function, kernel or op, an API: the subject
    of a verb of action ("`fused_gate_sigmoid_mul_add` computes the full expression"), not of
    "is" ("`gate_val` is a scalar": a variable). Needs the parse."""
    for token in doc:
        if SNAKE_NAME.fullmatch(token.text) and token.dep_ == "nsubj" \
                and token.head.tag_ == "VBZ" and token.head.pos_ == "VERB" \
                and token.text.rpartition("_")[2] not in _VARIABLE_ENDS:
            span = Span(doc, token.i, token.i + 1, label="Feature", span_id=token.text)
            yield Candidate(RULES["snake_api"], span, "snake_api")


#: The last words of a variable's name, not a function's: "`ema_model` computes ..." in an
#: example is the model the example made.
_VARIABLE_ENDS = {"model", "models", "weight", "weights", "val", "value", "values", "index",
                  "indices", "tensor", "tensors", "input", "inputs", "output", "outputs",
                  "state", "states", "buffer", "data", "size", "dim"}

_TITLE_BEFORE = re.compile(r"[A-Z][\w+-]*[ \t]+$")

# Accelerator codes: NVIDIA (A100, H200, B200, GB300, GH200), AMD (MI300X) and gfx targets.
#: A product's code name in parentheses: "Intel Core Ultra ... (Codename Lunar Lake)",
#: "Xeon ... (codenamed Cooper Lake)".
CODE_NAME = re.compile(
    r"\(\s*[Cc]ode[ -]?[Nn]ame[ds]?\s+(?P<name>[A-Z][\w-]*(?:[ \t]+[A-Z][\w-]*)?)\s*\)")
#: A cloud's instance type: "AWS Graviton3-based m7g.xlarge", "Amazon EC2 Inf1 instances", "the
#: Amazon EC2 P3" (not "AWS EC2 m7i.metal-48xl", a size this leaves out).
_INSTANCE_TYPE = re.compile(
    r"(?<![\w./@-])(?:(?:(?:Amazon|AWS)[ \t]+)?EC2[ \t]+"
    r"(?P<family>[A-Za-z]{1,3}\d[a-z]{0,3})(?![\w-]|\.\w)"
    r"|(?P<type>[a-z]{1,3}\d[a-z]{0,3}\.(?:\d*x?large|metal|medium)))\b")
_DEVICE_CODE = re.compile(
    r"(?<![\w./@-])(?:\d{1,2}[x×][ \t]?)?"
    r"(?P<code>(?:G[BH]|[ABHPV])[1-9]00(?![\d])|MI[1-9]\d{1,2}[AXL]?|gfx\d{2,3}[\da-f])"
    r"s?\b(?!-\w)")  # "2000+ B300s": each a B300

# "cuSolver", "hipSPARSELt", "rocSHMEM", "oneCCL"; "XCCL", "ncclx"; "NVSHMEM".
_VENDOR_LIBRARY = re.compile(
    r"(?<![\w./@-])(?:(?:cu|hip|roc|one)[A-Z][A-Za-z0-9]*|[A-Z]CCL|[a-z]ccl[a-z]?|[A-Z]+SHMEM)"
    r"\b(?![(/-]|\.\w|[ \t]+[A-Z][a-z])")

# "cuSolver's syevj_batched kernel", "an is_capturing() method": an API named in snake case.
#: What a post's example defines, right before its name: "to define a `..._mask` function".
_DEFINED_HERE = re.compile(r"\b(?:define|defined|defining|write|wrote|writing)[ \t]+"
                           r"(?:a|an|the|our|your|this)?[ \t]*\W*$", re.I)
#: A definition in inline code (its backtick masked), right before its name: "in `class
#: LlamaAttention`".
_DEFINITION = re.compile(r"(?:\s\s|\n)(?:class|def)[ \t]+$")
_CODE_KINDS = r"(?:methods?|functions?|kernels?|(?i:api)s?|ops?|operators?|primitives?)"
_SNAKE_API = re.compile(
    r"(?<![\w.@/-])(?P<name>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)"
    rf"(?:\(\)|(?=[ \t]+{_CODE_KINDS}\b))")
# "one of the kernels (unified_attention_2d)": the kind, then the name in parentheses.
_KIND_THEN_SNAKE = re.compile(
    rf"\b{_CODE_KINDS}[ \t]*\([ \t]*(?P<name>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)[ \t]*\)")

# "pip install torchcomms", "pip install -U helion triton".
_PIP_INSTALL = re.compile(
    r"\bpip3?[ \t]+install[ \t]+(?P<names>(?:(?:-\S+[ \t]+)*"
    r"(?!(?:and|or|to|then|with|from|the)\b)[a-z][a-z0-9_.-]*[a-z0-9]"
    r"(?:\[[\w,]+\])?(?:[=<>~!]=?[\w.*]+)?(?:[ \t]+|$|(?=[.,;)])))+)")
_PIP_NAMES = {"torch": "PyTorch", "pytorch": "PyTorch"}

# Model names: a family with a version or size ("Qwen3.5-397B-A17B", "GPT-2 XL", "Kimi-K2"),
# a name with a parameter count ("Moonlight-16B-A3B"), an architecture's suffix ("RoFormer").
_MODEL_TAIL = (r"(?:-(?!(?:based|style|like|class|sized|scale|level|only|era|specific)\b)"
               r"[A-Za-z0-9](?:[A-Za-z0-9.]*[A-Za-z0-9])?)*"
               r"(?:[ \t](?:XL|XXL|Large|Medium|Small|Base|Mini|Instruct|Chat|Thinking|"
               r"\d+(?:\.\d+)?B)\b)?")
_PARAMETER_COUNT = re.compile(
    _START + r"(?P<name>[A-Z][a-z][A-Za-z0-9.]*(?:-[A-Za-z0-9.]+)*-\d+(?:\.\d+)?[BMT]\b"
    r"(?:-[A-Za-z0-9](?:[A-Za-z0-9.]*[A-Za-z0-9])?)*)")
_ARCHITECTURE = re.compile(
    _START + r"(?P<name>[A-Z][A-Za-z]*(?:BERT[a]?|[Ff]ormer|Net|NeXt|Nets|GAN|RNN|CNN|ViT)"
    r"(?:-?V?\d+(?:x\d+)?)?)\b(?![(/-]|\.\w)")

# "Atari SpaceInvaders 7727 ± 1121 21676 ± 8897": a row of a results table, not a mention.
_TABLE_ROW_REST = re.compile(r"^[\s\d.,:;±%x×+*/()~<>=-]*(?:[\s\d.,±%x×+*/()~<>=-]|ms|s|GB|GiB|MB|"
                             r"tps|TFLOPS|k|K|M|B)*$")

_CAMEL = re.compile(
    r"(?<![\w./:@#-])(?=[A-Za-z]*[a-z][A-Z])[A-Z][A-Za-z]*[a-z][A-Z][A-Za-z0-9]*(?:-\d+)?\b"
    r"(?![(/-]|\.\w)"
)
# "AOTInductor", "SGLang": an acronym run into a capitalized word.
_ACRONYM_CAMEL = re.compile(
    r"(?<![\w./:@#-])[A-Z]{2,}[A-Z][a-z]{3,}(?:[A-Z][a-z]+)*\b(?![(/-]|\.\w)")
# "mBarrier": a lower-case letter or two, then a capitalized word.
_LOWER_CAMEL = re.compile(r"(?<![\w./:@#-])[a-z][A-Z][a-z]{2,}[A-Za-z0-9]*\b(?![(/-]|\.\w)")


_DOTTED_API = re.compile(
    r"(?<![\w.@])(?:nn|np|F|c10|at|linalg|fft|optim|dist)(?:\.|::)[A-Za-z_]\w*"
    r"(?:\.[A-Za-z_]\w*)*")
# After a library's name: "tlx.async_dot", "torchvision.ops.nms" (not a file: "setup.py").
_LIBRARY_API = (r"(?<![\w./@-])(?P<library>{libraries})(?:\.|::)"
                r"(?P<api>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)")
_FILE_SUFFIX = re.compile(r"\.(?:py|md|txt|json|ya?ml|html?|com|org|io|ai|dev|sh|cpp|h|so)$")
# "hl.tile", "hl.grid": a member of a short module alias ("import helion.language as hl").
ALIAS_MEMBER = re.compile(r"(?<![\w./@-])(?P<alias>[a-z]{2,3})\.(?P<member>[a-z]+(?:_[a-z0-9]+)*)"
                          r"\b(?![./-]\w)")


# "DataLoading": two words joined, the second a gerund, name a process, not a class.
_GERUND_PAIR = re.compile(r"[A-Z][a-z]+[A-Z][a-z]+ing")
# CamelCase words that are not features: sites, products of other fields, datasets.
_NOT_FEATURES = {"GitHub", "YouTube", "LinkedIn", "JavaScript", "TypeScript", "PyPI", "iPhone",
                 "iPad", "MacBook", "PowerPoint", "WordPress", "DevOps", "FairScale", "PhD",
                 "McKinsey", "OpenAI", "MLPerf", "ImageNet", "LibriSpeech", "CheckList",
                 "NeurIPS", "GitLab", "ArXiv", "InfoWorld", "DataScience", "WeChat",
                 "HumanEval", "FineWeb", "WikiText", "ShareGPT", "ModelNet", "WordNet",
                 "ShapeNet", "ObjectNet", "iTunes", "eBay", "eBook", "iOS", "macOS", "tvOS",
                 "watchOS", "vLLM", "nvFuser", "TorchBench", "Torchbench", "AutoML", "CoLA",
                 "SQuAD", "MNIST", "CIFAR", "OpenBook", "RESTful", "OSPOlogy",
                 # activations and ops a sentence uses, not features of a library
                 "ReLU", "SiLU", "GeLU", "GELU", "TopK", "VSCode"}

# Words that are not names, as the typing rules see them.
#: Verbs a line of changes opens with before a name: "Added Kaldi Pitch feature".
_LEAD_VERBS = {"Added", "Adds", "Introduced", "Introduces", "Improved", "Updated", "Enabled",
               "Exposed", "Extended", "Released"}
_DETERMINERS = {"The", "This", "That", "These", "Those", "Our", "Its", "Their", "A", "An"}
_NOT_NAMES = _DETERMINERS | {
              "New", "It", "We", "They", "You", "He", "She", "There", "Here", "Which", "Who",
              "Python", "C++", "Each", "Every", "Any", "Native", "Default", "Standard", "Core",
              "Open", "Domain", "Tensor", "Graph", "Model", "Data", "Existing", "Custom", "Other",
              "Some", "All", "Both", "Legacy", "Compute", "ML", "AI", "DL", "RL", "LLM",
              "JIT", "AOT", "API", "GPU", "CPU", "TP", "PP", "DP", "EP", "TMA", "CUDA", "C",
              "Distributed", "Modern", "Popular", "Unified", "Lightweight", "Fast", "Efficient",
              "Deep", "Learning", "Machine", "High", "Low", "Large", "Small", "What", "How",
              "Why", "When", "With", "Using", "Introducing", "Improved", "Better", "Faster",
              "Optimized", "Optimizing", "Accelerating", "Advanced", "Enabling", "Building",
              "Scaling", "Training", "Inference", "Simple", "Full", "Sparse",
              "Dense", "Multi", "Single", "First", "Next", "Last", "Future", "Paged", "Block",
              "Figure", "Table", "Step", "Part", "Section", "Chapter", "Day", "Keynote",
              "Library", "Libraries", "Framework", "Backend", "Compiler", "Toolkit", "Engine",
              "Runtime", "Kernel", "Kernels", "Mode", "Support", "Project", "Team", "CNN", "CNNs",
              "RNN", "RNNs", "LSTM", "LSTMs", "GAN", "GANs", "LLMs", "MLP", "MLPs", "GNN",
              "GNNs", "SLM", "SLMs", "VLM", "VLMs"}

# Leading words of a technique name that are not part of it: "Other Fusion", "Efficient ...".
_NOT_TECHNIQUE_WORDS = _NOT_NAMES - {"Multi", "Single", "Distributed"} | {
    "In", "On", "At", "For", "From", "To", "By", "Of", "As", "See", "And", "Or", "Via", "Into",
    "Unlike", "Like", "Beyond", "Toward", "Towards", "Under", "Over", "About", "Across", "Through",
    "Without", "Within", "Between", "After", "Before", "While", "Is", "Are", "Does", "Do", "Can",
    "Exact", "Fast", "Faster", "Memory-Efficient", "Efficient", "Scalable", "Flexible", "Self"}

# "follow us on Twitter, YouTube and LinkedIn": links to a site, not mentions of a company.
_FOLLOW_US = re.compile(r"\b(?:follow|find|join|reach(?: out to)?|contact|connect with)\s+"
                        r"(?:us|me|PyTorch)\b"
                        r"[^.\n]*\bon\s+(?:[\w.]+(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+))*$",
                        re.I)

# Matches that are never names (:func:`_noise`).
_SURNAME = re.compile(r"^(?:Mc|Mac|De|Di|Da|Du|La|Le|Van|Von|O')[A-Z][a-z]+$")
_NOT_A_NAME = re.compile(
    r"^(?:[KMGTPE]i?B|[A-Z][a-z]?[A-Z]s?|\w+aaS|(?:[A-Z]x)+[A-Z]|[A-Z]\w*Con|Gen[A-Z]{2}|GmbH"
    r"|NeurIPS|ICML|ICLR|CVPR|ICCV|ECCV|EMNLP|NAACL|AAAI|UAI|KDD|MLSys|RecSys|SIGGRAPH)$")
# ("IoT", "SoCs", "GiB", "PhD", "SxS", "CxHxW", "IaaS", "KubeCon", "GenAI", "GmbH", conferences);
# a few of these shapes are names the pack knows ("MoE"): the pack is not filtered.


#: The kinds of device a vendor's product name ends with: "NVIDIA B200 GPU".
_DEVICE_KINDS = "GPU|CPU|NPU|TPU|Processor|Accelerator"
_HARDWARE_PRODUCT = re.compile(
    r"\b(?:Intel|AMD|NVIDIA|Nvidia|Apple|Arm|Qualcomm|Google|AWS|Samsung)[®™]?"
    r"(?:[ \t]+[A-Z0-9][\w®™+-]*){1,4}(?:[ \t]+(?:mobile|desktop))?[ \t]+"
    rf"(?P<device>{_DEVICE_KINDS}|Graphics|processor)s?"
    r"(?:[ \t]+(?:Max[ \t]+)?Series)?\b(?![ \t]+[A-Z][a-z])")
# Phones and headsets by their model: "iPhone 15 Pro Max", "Samsung Galaxy S22, S23, and S24"
# (each a device), "Pixel 8", "Meta Quest 3".
_CONSUMER_DEVICE = re.compile(
    r"(?<![\w-])(?:(?:Apple[ \t]+)?iPhone[ \t]+\d{1,2}(?:[ \t]+(?:Pro(?:[ \t]+Max)?|Plus|mini))?"
    r"|(?:Google[ \t]+)?Pixel[ \t]+\d{1,2}(?:[ \t]+(?:Pro|XL)|a)?"
    r"|(?:Meta[ \t]+)?Quest[ \t]+\d"
    r"|(?P<galaxy>(?:Samsung[ \t]+)?Galaxy[ \t]+)(?P<model>[SAZ]\d{1,2}(?:[ \t]+Ultra|\+)?))\b")
#: The models listed after a phone's: "Samsung Galaxy S22, S23, and S24".
_MORE_MODELS = re.compile(r"(?:,[ \t]*(?:and[ \t]+)?|[ \t]+and[ \t]+)(?P<model>[SAZ]\d{1,2})\b")
# The words of a product that only say which one: "NVIDIA A100 40GB GPU" is an A100.
#: A product's model number, then the kind of device it is, which says nothing more:
#: "Intel Xeon Platinum 8380H CPU" is the Intel Xeon Platinum 8380H.
_MODEL_NUMBER_THEN_KIND = re.compile(rf"(\w*\d\w*)[ \t]+(?:{_DEVICE_KINDS})$")
_PRODUCT_DETAIL = re.compile(r"^(?:\d+GB|SXM\d?|PCIe|HBM\d?e?|Tensor|Core|Instinct|Tesla|Data|"
                             r"Center|Datacenter)$", re.I)


_DATASET = re.compile(r"\bdatasets?\b", re.I)


_LOWER_WORD = re.compile(r"(?<![\w-])(?!and\b)[a-z]{3,}\b")  # a word of a sentence


_WORD = re.compile(r"\W+")


class EntityFinder:
    """Find entities with the alias pack and with rules that generalize beyond it."""

    def __init__(self, nlp: Language, name: str = "ptkg_entities"):
        self.nlp = nlp
        self.name = name
        self.patterns: list[dict] = []
        self._reset()

    def _reset(self) -> None:
        self.phrases = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.exact = PhraseMatcher(self.nlp.vocab, attr="ORTH")  # ORTH-only token patterns
        self.tokens = Matcher(self.nlp.vocab, validate=True)
        self.library_names: dict[str, str] = {}  # lowercased surface form -> canonical name
        self.kinds: dict[str, str] = {}  # Hardware (or Library) canonical name -> kind
        self.labels: dict[str, str] = {}  # canonical name -> label
        self.known: dict[str, tuple[str, str]] = {}  # lowercased surface -> (label, canonical)
        self.first_names: set[str] = set()  # canonical names that are also given names ("Adam")
        self.device_families: dict[str, str] = {}  # a device family's surface -> its name
        self.makers: dict[str, str] = {}  # device named as its maker ("Arm") -> the company
        self.clouds: set[str] = set()  # companies named as their cloud ("AWS")
        self._release: re.Pattern | None = None
        self._device_backend: re.Pattern | None = None
        self._library_part: re.Pattern | None = None
        self._family: re.Pattern | None = None
        self._device_family: re.Pattern | None = None
        self._library_api: re.Pattern | None = None

    def initialize(self, get_examples: Callable | None = None, *, nlp: Language | None = None,
                   patterns: Iterable[dict] | None = None) -> None:
        """Load ``patterns`` (default: the packaged alias pack)."""
        self.add_patterns(read_patterns(ENTITY_PATTERNS, check_token_pattern)
                          if patterns is None else patterns)

    def add_patterns(self, patterns: Iterable[dict]) -> None:
        self.patterns.extend(patterns)
        self._reset()
        surfaces: dict[str, list[str]] = defaultdict(list)
        families: dict[bool, list[str]] = defaultdict(list)  # by whether they are devices
        for record in self.patterns:
            if record.get("resolve_only"):  # a name read otherwise (a heading) joins another
                continue
            label, pattern = record["label"], record["pattern"]
            surface = pattern_surface(record)
            canonical = record.get("id") or surface
            key = f"{label}\t{canonical}"
            if isinstance(pattern, str):
                self.phrases.add(key, [self.nlp.make_doc(pattern)])
            elif all(token.keys() == {"ORTH"} for token in pattern):
                orths = [token["ORTH"] for token in pattern]
                self.exact.add(key, [Doc(self.nlp.vocab, words=orths, spaces=[True] * len(orths))])
            else:
                self.tokens.add(key, [pattern])
            self.labels.setdefault(canonical, label)
            self.known.setdefault(surface.lower(), (label, canonical))
            self.known.setdefault(canonical.lower(), (label, canonical))
            surfaces[label].append(surface)
            if label == "Library":
                self.library_names[surface.lower()] = canonical
            if label == "Hardware":
                self.kinds[canonical] = record.get("kind", "device")
                if record.get("maker"):
                    self.makers[canonical] = record["maker"]
            elif label == "Library" and record.get("kind"):  # "domain": torchvision, ...
                self.kinds[canonical] = record["kind"]
            elif label == "Organization" and record.get("cloud"):
                self.clouds.add(canonical)
            if record.get("family"):  # "Qwen", "DeepSeek": versions of it are models;
                families[label == "Hardware"].append(surface)  # "Ethos-U": devices
                if label == "Hardware":
                    self.device_families[surface.lower()] = canonical
            if record.get("first_name"):
                self.first_names.add(canonical)
        platform = _alternatives(surfaces["Platform"], grouped=True)
        library = _alternatives(surfaces["Library"], grouped=True)
        self._device_backend = re.compile(  # "Android GPU backend", "Triton Apple MPS backend"
            rf"(?<![\w-])(?:(?:{library})[ \t]+"
            rf"(?:(?:{platform})[ \t]+)?|(?:{platform})[ \t]+)"
            rf"(?:{_alternatives(surfaces['Hardware'], grouped=True)})[ \t]+back[- ]?end\b", re.I)
        self._library_part = re.compile(  # "the Helion autotuner", "ExecuTorch's threadpool"
            rf"(?<![\w-])(?i:(?P<library>{library}))"
            rf"(?P<owner>['’]s)?[ \t]+(?P<part>{_LIBRARY_PARTS})\b")
        names = sorted(self.library_names, key=lambda s: (-len(s), s))
        libraries = _by_first_letter(([(n, re.escape(n)) for n in names] or [("", "")])
                                     + [("torch", r"torch[a-z_]\w*")]
                                     + [(t, re.escape(t)) for t in _TOOLKITS])
        self._release = re.compile(  # a version, or a major that may open a list
            r"(?<![\w/@])(?P<library>" + libraries +
            r")[®™]?(?:\s+(?:(?:starting|beginning)\s+(?:(?:in|with|from)\s+)?)?(?:version|release)"
            r"|[ \t]*[><]=?)?\s+" + _VERSION_OR_MAJOR, re.I)  # "PyTorch starting in version 1.3"
        models = _alternatives(families[False], _inner_case_free)
        self._family = re.compile(  # "Claude Opus-4.8": a family's model, named by its own
            _START + rf"(?:(?P<outer>{models})[ \t]+(?=[A-Za-z]+[- ]?\d))?(?P<name>(?:{models})"
            r"(?:[- ]?(?=[A-Za-z]?\d)|(?<=[a-z])(?=\d))[A-Za-z]?\d+(?:\.\d+)*(?:[a-z]|[BMT]\b)?"
            + _MODEL_TAIL + r")(?![\w+]|\.\d)")  # "GPT 175B": its size
        self._device_family = re.compile(  # "Ethos-U55", "Corstone-320", "AWS Graviton3-based"
            _START + rf"(?P<name>(?P<family>{_alternatives(families[True])}){MODEL_NUMBER})"
            r"(?!\w|-(?!based\b))"
        ) if families[True] else None
        lower = sorted({n for n in self.library_names if re.fullmatch(r"[a-z][a-z0-9_]*", n)}
                       | {"triton", "tlx", "helion"}, key=lambda s: (-len(s), s))
        self._library_api = re.compile(
            _LIBRARY_API.format(libraries=_by_first_letter([(n, re.escape(n)) for n in lower],
                                                           ignore_case=False)))

    def __call__(self, doc: Doc) -> Doc:
        text = doc.text  # spaCy joins the tokens again on every ``Doc.text``
        candidates = self.candidates(doc, text)
        chosen = self._as_clouds(self._as_makers(_shared_device_heads(
            _renamed(_select(candidates), text, self.labels), text, self.known), text), text)
        doc.spans["ptkg"] = chosen
        doc.spans["ptkg_inner"] = _inner_devices(candidates, chosen)
        doc.spans["ptkg_stability"] = [  # labelled with the word: its level depends on the date
            span for m in MARKER.finditer(text)
            if (span := _char_span(doc, m.start(), m.end(), m.group(1).lower()))
        ]
        return doc

    def _as_makers(self, spans: list[Span], text: str) -> list[Span]:
        """A device named as its maker ("Arm") is the company where the post speaks of one:
        an owner ("Arm's TOSA"), a verb's subject ("Arm has worked with Meta"), an item of a
        list of companies ("introduced by NVIDIA, ARM, and Intel")."""
        found = list(spans)
        for i, span in enumerate(spans):
            maker = self.makers.get(span.id_) if span.label_ == "Hardware" else None
            if maker is not None and (_POSSESSIVE.match(text, span.end_char)
                                      or _acting_subject(span)
                                      or _listed_with_companies(spans, i, text)):
                found[i] = Span(span.doc, span.start, span.end, label="Organization",
                                span_id=maker)
        return found

    def _as_clouds(self, spans: list[Span], text: str) -> list[Span]:
        """A company the pack names as its cloud ("AWS") is the Platform where a post says
        something runs there: "on AWS", "on AWS clusters"; not "on AWS Graviton" (a device),
        nor "engineers from AWS"."""
        return [Span(span.doc, span.start, span.end, label="Platform", span_id=span.id_)
                if span.label_ == "Organization" and span.id_ in self.clouds
                and _RUNS_ON.search(text, max(0, span.start_char - 12), span.start_char)
                and _CLOUD_END.match(text, span.end_char) else span for span in spans]

    def candidates(self, doc: Doc, text: str | None = None) -> list[Candidate]:
        """Every name the pack and the rules read in ``doc``, overlapping, each with its rule,
        the matches that are never names left out and the names typed in the post typed
        everywhere in it."""
        text = doc.text if text is None else text
        found = [c for c in itertools.chain(self._pack_matches(doc), self._rule_matches(doc, text))
                 if c.span is not None and not self._noise(c, doc, text)]
        found.extend(self._makers(doc, text, found))
        found.extend(_techniques_again(doc, text, found))
        found.extend(_members_again(doc, text, found))
        found.extend(_spaced_names(doc, text, found))
        found.extend(_alias_members(doc, text, found))
        found.extend(_precision_variants(doc, text, found))
        return self._typed(doc, text, found)

    def _makers(self, doc: Doc, text: str, found: list[Candidate]) -> Iterator[Candidate]:
        """The company in parentheses after a model's name: "Ling-2.6-1T (InclusionAI)"."""
        for candidate in found:
            if candidate.span.label_ != "Model":
                continue
            m = _MAKER.match(text, candidate.span.end_char)
            if m is None:
                continue
            org = m.group("org")
            label, name = self.known.get(org.lower(), ("Organization", org))
            if label == "Organization" and org.split()[0] not in _NOT_NAMES:
                span = _char_span(doc, m.start("org"), m.end("org"), label, name)
                yield Candidate(RULES["contributor_org"], span, "contributor_org")

    def _pack_matches(self, doc: Doc) -> Iterator[Candidate]:
        matches = [m for matcher in (self.phrases, self.exact, self.tokens) if len(matcher)
                   for m in matcher(doc)]
        for match_id, start, end in matches:
            label, canonical = self.nlp.vocab.strings[match_id].split("\t")
            yield Candidate(PRIORITY["pack"], Span(doc, start, end, label=label, span_id=canonical),
                            "pack")

    def _rule_matches(self, doc: Doc, text: str) -> Iterator[Candidate]:
        yield from self._release_lists(doc, text)
        for m in _PYTHON.finditer(text):
            yield self._candidate(doc, m, "release", "Release", f"Python {m.group('version')}")
        for m in _BARE_RELEASE.finditer(text):
            # "the 1.12 release" names the release; in "In 1.8," only the number does.
            group = 0 if m.group("version") else "version2" if m.group("version2") else "version3"
            version = _short_version(m.group(group if group else "version"))
            yield self._candidate(doc, m, "bare_release", "Release", f"PyTorch {version}", group)
        for m in _API.finditer(text):
            name = "torch" + m.group(0)[5:]
            if name.endswith("d") and name[:-1] in self.labels:
                name = name[:-1]  # "a torch.compiled model" is torch.compile
            yield self._candidate(doc, m, "torch_api", self.labels.get(name, "Feature"), name)
        for m in _TORCH_LIBRARY.finditer(text):
            if m.group(0) not in _NOT_FEATURES:
                name = self._near_library(m.group(0))
                yield self._known(doc, m, "torch_library", "Library", name)
        yield from self._device_matches(doc, text)
        yield from self._library_matches(doc, text)
        yield from self._model_matches(doc, text)
        yield from self._typed_matches(doc, text)
        in_datasets = _DatasetLines(text)
        for pattern in (_CAMEL, _ACRONYM_CAMEL, _LOWER_CAMEL):
            for m in pattern.finditer(text):
                if re.sub(r"-\d+$", "", m.group(0)) not in _NOT_FEATURES \
                        and not _GERUND_PAIR.fullmatch(m.group(0)) and not in_datasets(m.start()):
                    yield self._known(doc, m, "camel_case", "Feature", m.group(0))

    def _release_lists(self, doc: Doc, text: str) -> Iterator[Candidate]:
        """A library's releases: "CUDA 11.6", its more versions ("CUDA 10.2 and 11.3"), a list
        that opens with a major ("FFmpeg 6, 5 and 4.4"), and a list of bare versions in the
        sentence after a list ("The support for 4.3, 4.2 and 4.1 are dropped"): that
        library's too."""
        lists = []  # (start, end, library) of each list, in text order
        for m in self._release.finditer(text):
            library = m.group("library").lower()
            library = _TOOLKITS.get(library) or self.library_names.get(library, m.group("library"))
            major = "." not in m.group("version")
            versions = _listed_versions(text, m, _MORE_MAJORS if major else _MORE_VERSIONS)
            if major and not any("." in v.group("version") for v in versions):
                continue  # "FFmpeg 6" alone, or "Python 3 and 4", lists no release
            lists.append((m.start(), versions[-1].end(), library))
            for i, version in enumerate(versions):
                yield self._candidate(doc, version, "release", "Release",
                                      f"{library} {_short_version(version.group('version'))}",
                                      "version" if i else 0)
        lists.sort()
        for m in _BARE_LIST.finditer(text):
            before = [item for item in lists if item[1] <= m.start()]
            if not before or any(start <= m.start() < end for start, end, _ in lists):
                continue
            between = text[before[-1][1]:m.start()]
            if len(between) > 120 or len(_SENTENCE_END.findall(between)) != 1:
                continue
            for version in _listed_versions(text, m):
                yield self._candidate(doc, version, "release", "Release",
                                      f"{before[-1][2]} {_short_version(version.group('version'))}",
                                      "version")
        for m in _THE_BARE_LIST.finditer(text):  # "the 2.2, 2.3, 2.4 and 2.5 releases":
            versions = _listed_versions(text, m)  # PyTorch's, as "the 1.12 release" is
            if _RELEASES_AFTER.match(text, versions[-1].end()):
                for version in versions:
                    yield self._candidate(doc, version, "bare_release", "Release",
                                          f"PyTorch {_short_version(version.group('version'))}",
                                          "version")

    def _device_matches(self, doc: Doc, text: str) -> Iterator[Candidate]:
        for m in _DEVICE_CODE.finditer(text):
            yield self._known(doc, m, "device_code", "Hardware", m.group("code"))
        for m in self._device_family.finditer(text) if self._device_family else ():
            family = self.device_families[m.group("family").lower()]  # "AWS Graviton": Graviton
            yield self._known(doc, m, "device_family", "Hardware",
                              family + m.group("name")[len(m.group("family")):], "name")
        for m in _INSTANCE_TYPE.finditer(text):
            name = m.group("type") or f"Amazon EC2 {m.group('family')}"
            yield self._candidate(doc, m, "cloud_instance", "Hardware", name)
        for m in CODE_NAME.finditer(text):  # "(Codename Meteor Lake)": a device's name
            yield self._known(doc, m, "codename", "Hardware", m.group("name"), "name")
        for m in _HARDWARE_PRODUCT.finditer(text):
            # "Intel Core Ultra mobile processor": a form of the family, which it names
            name = re.sub(r"[®™]|[ \t]+(?:mobile|desktop)\b", "", m.group(0))
            name = re.sub(rf"\b({m.group('device')})s\b", r"\1", " ".join(name.split()))
            name = name.removesuffix(" processor")  # "Intel Core Ultra processors": the family
            yield self._candidate(doc, m, "vendor_product", "Hardware", self._product_model(name)
                                  or _MODEL_NUMBER_THEN_KIND.sub(r"\1", name))
        for m in _CONSUMER_DEVICE.finditer(text):
            yield from self._consumer_devices(doc, m)
        for m in self._device_backend.finditer(text):  # "Android GPU backend": a feature
            yield self._candidate(doc, m, "device_backend", "Feature", " ".join(m.group(0).split()))
        for m in self._library_part.finditer(text):  # "Triton's autotuner": the library's part
            library = self.library_names[m.group("library").lower()]
            if library != CORE_LIBRARY and not self._after_a_library(text, m.start()) and (
                    m.group("owner") or _DETERMINER_BEFORE.search(text, max(0, m.start() - 6),
                                                                   m.start())):
                yield self._candidate(doc, m, "library_part", "Feature",
                                      f"{library} {m.group('part')}")
        for m in _QUOTED_BACKEND.finditer(text):  # "the “sox_io” backend", "sox_io backend"
            yield self._candidate(doc, m, "quoted_backend", "Feature",
                                  f"{m.group('name') or m.group('snake')} backend")

    def _consumer_devices(self, doc: Doc, m: re.Match) -> Iterator[Candidate]:
        """A phone or headset by its model, and the models listed after a phone's, each
        named with the phone's family ("S23" of "Samsung Galaxy S22, S23" is a Galaxy S23)."""
        name = " ".join(m.group(0).split())
        if m.group("galaxy") and not name.startswith("Samsung"):
            name = f"Samsung {name}"
        yield self._candidate(doc, m, "consumer_device", "Hardware", name)
        if m.group("galaxy"):
            end = m.end()
            while more := _MORE_MODELS.match(m.string, end):
                yield self._candidate(doc, more, "consumer_device", "Hardware",
                                      f"Samsung Galaxy {more.group('model')}", "model")
                end = more.end()

    def _after_a_library(self, text: str, start: int) -> bool:
        """Whether the word before ``start`` names a library: "the TorchX Ray scheduler" is
        TorchX's scheduler for Ray."""
        before = text[max(0, start - 40):start].split()
        return bool(before) and before[-1].lower() in self.library_names

    def _near_library(self, name: str) -> str:
        """A known library one letter away from ``name``: "TorchaAudio" is torchaudio."""
        key = name.lower()
        if key in self.library_names or len(key) < 8:
            return name
        near = sorted(canonical for surface, canonical in self.library_names.items()
                      if abs(len(surface) - len(key)) <= 1 and _one_edit(surface, key))
        return near[0] if len(set(near)) == 1 else name

    def _product_model(self, product: str) -> str | None:
        """The code or family a vendor's product name is ("NVIDIA B200 GPU": B200), if the
        other words only say which one it is."""
        words = product.split()[1:-1]
        for known in (" ".join(product.split()[1:]), " ".join(words)):
            if self.known.get(known.lower(), ("",))[0] == "Hardware":
                return self.known[known.lower()][1]  # "Google Cloud TPU": Cloud TPU, a TPU
        words = [re.sub(r"-(?:SXM\d?|PCIe|\d+GB)\b", "", w) for w in words]  # A100-SXM4-40GB
        named = [w for w in words if _DEVICE_CODE.fullmatch(w)
                 or self.known.get(w.lower(), ("",))[0] == "Hardware"]
        if len(named) == 1 and all(w in named or _PRODUCT_DETAIL.match(w) for w in words):
            word = named[0]
            return self.known.get(word.lower(), ("", word))[1]
        return None

    def _library_matches(self, doc: Doc, text: str) -> Iterator[Candidate]:
        for m in _VENDOR_LIBRARY.finditer(text):
            name = m.group(0)
            if re.fullmatch(r"[a-z]ccl", name):
                name = name.upper()  # "xccl" is XCCL
            yield self._known(doc, m, "vendor_library", "Library", name)
        for m in _PIP_INSTALL.finditer(text):
            for word in re.finditer(r"(?<!\S)[a-z][a-z0-9_.-]*[a-z0-9]", m.group("names")):
                name = re.split(r"[\[=<>~!]", word.group(0))[0]
                name = _PIP_NAMES.get(name.lower(), name)
                yield self._known(doc, word, "pip_install", "Library", name,
                                  offset=m.start("names"))
        for m in _DOTTED_API.finditer(text):
            yield self._candidate(doc, m, "dotted_api", "Feature", m.group(0))
        for m in itertools.chain(_SNAKE_API.finditer(text), _KIND_THEN_SNAKE.finditer(text)):
            yield self._known(doc, m, "snake_api", "Feature", m.group("name"), "name")
        yield from _acting_snake_names(doc)
        for m in self._library_api.finditer(text):
            if not _FILE_SUFFIX.search(m.group(0)):
                yield self._candidate(doc, m, "library_api", "Feature", m.group(0))

    def _model_matches(self, doc: Doc, text: str) -> Iterator[Candidate]:
        for pattern in (self._family, _PARAMETER_COUNT, _ARCHITECTURE):
            for m in pattern.finditer(text):
                first = re.split(r"[- ]", m.group("name"))[0]
                if m.group("name") not in _NOT_FEATURES and first not in _NOT_TECHNIQUE_WORDS \
                        and len(first) > 2:  # "DenseNets" are the architecture DenseNet
                    name = m.group("name").removesuffix("s") if m.group("name").endswith(
                        "Nets") else m.group("name")
                    outer = "outer" in pattern.groupindex and m.group("outer")
                    yield self._known(doc, m, "model_name", "Model", name, 0 if outer else "name")

    def _typed_matches(self, doc: Doc, text: str) -> Iterator[Candidate]:
        for pattern, label in ((_TYPED_LIBRARY, "Library"), (_APPOSITION, "Library"),
                               (_KIND_FIRST, "Library"),
                               (_TYPED_OPTIMIZER, "Feature"), (_TYPED_FEATURE, "Feature"),
                               (_TYPED_PLATFORM, "Platform")):
            for m in pattern.finditer(text):
                start, name = self._name_start(doc, m, label,
                                               pattern not in (_APPOSITION, _KIND_FIRST))
                if label == "Platform" and not re.search(r"[a-z][A-Z]", name):
                    continue  # "a Pythonic platform": a platform is typed for CamelCase names
                if name and not _common_acronym(name, text):
                    candidate = self._known_span(doc, start, m.end("name"), "typed_name", label,
                                                 name)
                    if label == "Feature":  # "the Fused Adagrad optimizer" beats "Adagrad"
                        candidate = candidate._replace(priority=PRIORITY["api"])
                    yield candidate
        for m in _CONTRIBUTOR_ORG.finditer(text):
            org, person = m.group("org"), m.group("person")
            known = self.known.get(org.lower())
            if " " not in org and _abbreviates(org, text[max(0, m.start("org") - 120):
                                                         m.start("org") - 1]) \
                    or known is not None and known[0] not in ("Organization", "Hardware") \
                    or org.split()[0] in _NOT_NAMES or _citation(text, m.start()) \
                    or not re.search(r"[a-z]{2}|[A-Z]{2}", org) \
                    or any(w.lower() in self.known or w in _NOT_TECHNIQUE_WORDS
                           for w in person.split()):
                continue  # "Triton Language Extensions (TLX)": an acronym, not a company
            if known is None and not m.group("role") and not _BY.search(
                    text, max(0, m.start() - 80), m.start()) and (
                    re.fullmatch(r"[A-Z][a-z]+", org)
                    or not _LISTED.search(text, max(0, m.start() - 20), m.start())):
                continue  # "Baseline (Separate)": an unknown company needs "Contributed by ..."
            name = known[1] if known else org
            yield self._candidate(doc, m, "contributor_org", "Organization", name, "org")
        for m in itertools.chain(_TYPED_LIST.finditer(text), _LIST_OF_KIND.finditer(text)):
            label = _LIST_LABELS.get(m.group("kind")[:6].lower()) or _LIST_LABELS["model"]
            for item in _OWNED_ITEM.finditer(m.group("items")):
                name = item.group("name")
                if name.split()[0] in _NOT_NAMES or name in _NOT_FEATURES:
                    continue
                start = m.start("items") + item.start("name")
                if _NAME_GOES_ON.match(text, start + len(name)):
                    continue  # "Elastic Kubernetes Service": a name longer than a list item
                candidate = self._known_span(doc, start, start + len(name), "typed_name", label,
                                             name)
                if name.lower() not in self.known:  # "Google Drive" of a list beats "Google"
                    candidate = candidate._replace(priority=PRIORITY["context"])
                yield candidate
        yield from self._peer_typed(doc, text)
        for m in itertools.chain(_SPEAKER_ORG.finditer(text), _ROLE_AT.finditer(text)):
            org = _LEGAL_SUFFIX.sub("", m.group("org"))
            known = self.known.get(org.lower())
            if (org.split()[0] not in _NOT_NAMES or " " in org) and (
                    known is None or known[0] in ("Organization", "Hardware")):
                # a speaker's company of two words may open with a common one: "from Future
                # Processing"
                span = _char_span(doc, m.start("org"), m.start("org") + len(org),
                                  "Organization", known[1] if known else org)
                yield Candidate(RULES["contributor_org"], span, "contributor_org")
        for pattern in _ACRONYMS:
            for m in pattern.finditer(text):
                yield from self._acronym(doc, m)
        for m in _ORG_SUFFIX.finditer(text):
            words = m.group("name").split()
            if words[0] in _NOT_NAMES or "AI" in words[:-1] or _citation(text, m.start()) \
                    or words[-1] == "Research" and not re.search(r"[A-Z].*[A-Z]", words[0]) \
                    and words[0].lower() not in self.known \
                    or " ".join(words).lower() in text \
                    or _title_case(_line_at(text, m.start())) \
                    and not re.search(r"[a-z][A-Z]|^[A-Z]{2,}$", words[0]):
                continue  # "Chinese AI Labs", "Operations Research", "an umbrella foundation"
            yield self._known(doc, m, "org_suffix", "Organization", m.group("name"), "name")
        for m in _TECHNIQUE.finditer(text):
            if _TITLE_BEFORE.search(text, max(0, m.start() - 40), m.start()) \
                    or _citation(text, m.start()):
                continue  # a part of a longer title: "FX Graph Mode Post Training Quantization"
            words = list(re.finditer(r"\S+", m.group("name")))
            while len(words) > 1 and (words[0].group() in _NOT_TECHNIQUE_WORDS
                                      or words[0].group().endswith("ing")
                                      or words[0].group() == "+"):
                words.pop(0)  # "Other Fusion", "Optimizing Tensor Parallelism"
            if len(words) > 1:
                name = " ".join(w.group() for w in words)
                span = _char_span(doc, m.start("name") + words[0].start(), m.end("name"),
                                  "Feature", name)
                yield Candidate(RULES["technique"], span, "technique")

    def _peer_typed(self, doc: Doc, text: str) -> Iterator[Candidate]:
        """A CamelCase name in a list of names the pack knows, all of one label, has their
        label: "like TorchAudio, ESPNet, Asteroid, and FastMRI" makes FastMRI a library."""
        for m in _PEER_LIST.finditer(text):
            items = list(_PEER_NAME.finditer(m.group(0)))
            labels = {self.known[i["name"].lower()][0] for i in items
                      if i["name"].lower() in self.known}
            known = sum(i["name"].lower() in self.known for i in items)
            if known < 2 or len(labels) != 1 or labels & {"Feature", "Release"}:
                continue
            for item in items:
                name = item["name"]
                if name.lower() not in self.known and name not in _NOT_FEATURES \
                        and (_CAMEL.fullmatch(name) or _ACRONYM_CAMEL.fullmatch(name)):
                    start = m.start() + item.start("name")
                    yield self._known_span(doc, start, start + len(name), "typed_name",
                                           next(iter(labels)), name)

    def _acronym(self, doc: Doc, m: re.Match) -> Iterator[Candidate]:
        """The acronym and its expansion, named by the acronym, when the expansion's last word
        says what it is and the acronym's letters follow the expansion's words."""
        acronym, expansion = m.group("acronym"), m.group("expansion")
        last_two = " ".join(expansion.split()[-2:])
        label = next((label for label, heads in _ACRONYM_HEADS.items()
                      if m.group("head") in heads or last_two in heads), None)
        words = [w for w in re.split(r"[\s-]+", expansion) if w[0].isupper()]
        capitals = [c for c in acronym if c.isupper()]
        spelled = [w[0] for w in words] == capitals  # "Tensor Operator Set Architecture"
        if label is None or sum(c.isupper() for c in acronym) < 2 or \
                capitals[0] != words[0][0] or len(capitals) > len(words) + 1 or \
                expansion.split()[0] in (_DETERMINERS if spelled else _NOT_NAMES):
            return
        label, name = self.known.get(expansion.lower()) or self.known.get(acronym.lower()) or (
            label, acronym if label == "Library" else expansion)
        for group in ("acronym", "expansion"):
            yield self._candidate(doc, m, "acronym", label, name, group)

    def _name_start(self, doc: Doc, m: re.Match, label: str,
                    mid_sentence: bool = True) -> tuple[int, str]:
        """Where the name a typing rule read starts, and the name: its leading generic words
        left out ("The TokenSpeed engine"); none when it is no name: a word that starts a
        sentence ("Existing backend"), a generic word ("ML library", "Tensor library")."""
        start, name = m.start("name"), m.group("name")
        words = name.split()
        while words and (words[0] in _NOT_NAMES or words[0] in _NOT_TECHNIQUE_WORDS
                         or words[0] in _LEAD_VERBS or words[0].lower() in ("the", "a", "an")):
            start = m.start("name") + name.index(words[1]) if len(words) > 1 else m.end()
            words.pop(0)
        name = " ".join(words)
        if not words or words[-1] in _NOT_NAMES or name in _NOT_FEATURES \
                or re.fullmatch(r"[A-Z][a-z]+-[A-Za-z][a-z]+", name):
            return start, ""  # "Co-located", "High-Level": an adjective
        if len(words) > 1 and name.lower() not in self.known and any(
                self.known.get(w.lower(), (label,))[0] != label for w in words):
            return start, ""  # "Triton Apple MPS backend": a device's feature, not a library
        if mid_sentence and len(words) == 1 and re.fullmatch(r"[A-Z][a-z]+", name):
            span = _char_span(doc, start, m.end("name"), "")
            if span is None or span[0].is_sent_start:
                return start, ""
        return start, name

    def _known_span(self, doc: Doc, start: int, end: int, rule: str, label: str,
                    name: str) -> Candidate:
        known = self.known.get(name.lower())
        if known is not None:
            label, name = known
        span = _char_span(doc, start, end, label, name)
        if span is not None and (span.start_char, span.end_char) != (start, end):
            span = None  # not whole tokens (doc.text, rebuilt on every call, is not read)
        return Candidate(RULES[rule], span, rule)

    def _known(self, doc: Doc, m: re.Match, rule: str, label: str, name: str,
               group: int | str = 0, offset: int = 0) -> Candidate:
        """A rule's candidate, with the pack's label and name when the pack knows it."""
        known = self.known.get(name.lower())
        if known is not None:
            label, name = known
        if offset:
            span = _char_span(doc, offset + m.start(group), offset + m.end(group), label, name)
            if span is not None and _WORD.sub("", span.text) != _WORD.sub("", m.group(group)):
                span = None
            return Candidate(RULES[rule], span, rule)
        return self._candidate(doc, m, rule, label, name, group)

    def _candidate(self, doc: Doc, m: re.Match, rule: str, label: str, name: str,
                   group: int | str = 0) -> Candidate:
        start = m.start(group)
        if start > 0 and m.string[start - 1] in "vV" and group:  # "Since v1.12": one token
            start -= 1
        span = _char_span(doc, start, m.end(group), label, name)
        if span is not None and _WORD.sub("", span.text) != _WORD.sub("", m.string[start:m.end(
                group)]):
            span = None  # the match is part of a longer word ("torch.compile'd")
        return Candidate(RULES[rule], span, rule)

    def _noise(self, candidate: Candidate, doc: Doc, text: str) -> bool:
        """Whether a match is no name: a handle or hashtag ("@PyTorch"), a given name ("Adam
        Paszke"), a function the post's example defines, and for guesses a surname
        ("DeVries"), a unit ("GiB"), an event ("KubeCon"), the first cell of a results table's
        row."""
        span = candidate.span
        if span.start_char > 0 and text[span.start_char - 1] in "@#":
            return True
        if _FOLLOW_US.search(text, max(0, span.start_char - 200), span.start_char):
            return True
        following = doc[span.end] if span.end < len(doc) else None
        if span.id_ in self.first_names and following is not None and following.is_title \
                and not following.is_sent_start:
            return True
        if candidate.rule in ("pack", "release", "bare_release", "torch_api", "dotted_api"):
            return False
        if (candidate.rule == "snake_api" and _DEFINED_HERE.search(
                text, max(0, span.start_char - 40), span.start_char)) or _DEFINITION.search(
                text, max(0, span.start_char - 9), span.start_char):
            return True  # code the post's example writes, no API: "Do we now need to define a
            # `prefixlm_document_mask` function", "in `class LlamaAttention`, we define"
        name = span.id_
        if _NOT_A_NAME.match(name) and not self.known.get(name.lower()):
            return True
        if _SURNAME.match(name) and span.start > 0 and doc[span.start - 1].is_title:
            return True
        if candidate.rule == "camel_case" and (
                _common_acronym(name, text) or re.search(r"(?:ability|abilty|able)$", name)
                or _AUTHORS.search(text, max(0, span.start_char - 200), span.start_char)):
            return True  # "query-heads-per-kv-head (QpKV)", "authored by A, MinNi and B"
        if candidate.rule in ("camel_case", "technique", "typed_name", "learned"):
            line_start = text.rfind("\n", 0, span.start_char) + 1
            line_end = text.find("\n", span.end_char) % (len(text) + 1)
            rest = text[line_start:span.start_char] + " " + text[span.end_char:line_end]
            if rest.strip() and _TABLE_ROW_REST.match(rest):
                return True
        return False

    def _typed(self, doc: Doc, text: str, found: list[Candidate]) -> list[Candidate]:
        """Type every guessed mention of a name the post types somewhere ("TokenSpeed is an
        inference engine": each "TokenSpeed" of the post is a Library), and find its other
        mentions (a typed name's exact surface elsewhere in the post)."""
        blocked = {_without_lead(m.group("name") or m.group("listed")).lower()
                   for m in _NOT_ENTITY.finditer(text)} - set(self.known)
        found = [c for c in found if not (c.rule in _GUESSES and c.span.id_.lower() in blocked)]
        types: dict[str, tuple[int, str, str]] = {}
        for candidate in found:
            span = candidate.span
            if candidate.rule in TYPING_RULES and span.id_.lower() not in self.known:
                rank = TYPING_RULES.index(candidate.rule)
                key = span.id_.lower()
                types[key] = min(types.get(key, (rank, span.label_, span.id_)),
                                 (rank, span.label_, span.id_))
        if not types:
            return found
        typed = []
        for candidate in found:
            entry = types.get(candidate.span.id_.lower())
            if entry is not None and candidate.rule in ("camel_case", "learned", "technique"):
                span = candidate.span
                candidate = candidate._replace(span=Span(doc, span.start, span.end,
                                                         label=entry[1], span_id=entry[2]))
            typed.append(_as_one_word(candidate, types))
        surfaces = {c.span.text: c.span.id_.lower() for c in found
                    if c.span.id_.lower() in types and c.span.text.lower() not in self.known
                    and re.fullmatch(r"[\w.+-]+(?: [\w.+-]+)*", c.span.text)}
        if surfaces:
            ordered = sorted(surfaces, key=lambda s: (-len(s), s))
            mentions = re.compile(rf"{_START}(?:{'|'.join(map(re.escape, ordered))})"
                                  r"(?![\w+]|-\w|\.\w)")
            for m in mentions.finditer(text):
                label, name = types[surfaces[m.group(0)]][1:]
                span = _char_span(doc, m.start(), m.end(), label, name)
                if span is not None and span.text == m.group(0):
                    typed.append(_as_one_word(Candidate(RULES["learned"], span, "learned"), types))
        return typed

    def to_disk(self, path, *, exclude=()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_jsonl(path / "patterns.jsonl", self.patterns)

    def from_disk(self, path, *, exclude=()) -> EntityFinder:
        self.patterns = []
        self.add_patterns(read_patterns(Path(path) / "patterns.jsonl", check_token_pattern))
        return self


def _techniques_again(doc: Doc, text: str, found: list[Candidate]) -> Iterator[Candidate]:
    """A technique the post names in title case is the same technique in its prose's lower
    case: "**Horizontal Fusion**: ..." and "Inductor also uses horizontal fusion"."""
    techniques = [c.span for c in found if c.rule == "technique"]
    surfaces = {span.text for span in techniques}
    names = {span.text.lower(): span.id_ for span in techniques}
    if not names:
        return
    ordered = sorted(names, key=lambda s: (-len(s), s))
    again = re.compile(rf"{_START}(?:{'|'.join(map(re.escape, ordered))})(?![\w+]|-\w)", re.I)
    for m in again.finditer(text):
        if m.group(0) not in surfaces:
            span = _char_span(doc, m.start(), m.end(), "Feature", names[m.group(0).lower()])
            if span is not None:
                yield Candidate(RULES["learned"], span, "learned")


def _members_again(doc: Doc, text: str, found: list[Candidate]) -> Iterator[Candidate]:
    """A library's snake-case function the post names with its module is the same function
    named bare: "tlx.async_dot", then "The async_dot / local_trans / tlx APIs target ..."."""
    members = {c.span.id_.rpartition(".")[2]: c.span.id_ for c in found
               if c.rule == "library_api" and "_" in c.span.id_.rpartition(".")[2]}
    if not members:
        return
    ordered = sorted(members, key=lambda s: (-len(s), s))
    again = re.compile(rf"(?<![\w.@/:-])(?:{'|'.join(map(re.escape, ordered))})(?![\w(.-])")
    for m in again.finditer(text):
        span = _char_span(doc, m.start(), m.end(), "Feature", members[m.group(0)])
        if span is not None:
            yield Candidate(RULES["learned"], span, "learned")


def _spaced_names(doc: Doc, text: str, found: list[Candidate]) -> Iterator[Candidate]:
    """A CamelCase name after a word is the name the post writes as the two joined: "LFBO
    TreeSearch" is the LFBOTreeSearch of the same post, not a TreeSearch."""
    joined = {c.span.text: c for c in found if c.rule == "camel_case"}
    for candidate in found:
        if candidate.rule != "camel_case":
            continue
        start = candidate.span.start_char
        word = _WORD_BEFORE.search(text, max(0, start - 40), start)
        whole = joined.get(word.group(1) + candidate.span.text) if word else None
        if whole is not None:
            span = _char_span(doc, word.start(1), candidate.span.end_char, "Feature",
                              whole.span.id_)
            if span is not None:
                yield whole._replace(span=span)


#: A number format right before a name: "FP8 " of "FP8 semi-structured sparsity".
_PRECISION_BEFORE = re.compile(
    r"(?<![\w.-])((?:[Ff][Pp]|[Ii][Nn][Tt]|[Bb][Ff])\d{1,2}|(?:b?float|uint)\d{1,2}|NVFP4|MXFP\d)"
    r"[ \t]+$")


def _precision_variants(doc: Doc, text: str, found: list[Candidate]) -> Iterator[Candidate]:
    """A feature named with the number format it works in is a feature of its own: "FP8
    semi-structured sparsity" (added by another team than the 2:4 sparsity it extends),
    "int4 weight-only quantization"."""
    for candidate in found:
        span = candidate.span
        if span.label_ != "Feature" or "." in span.text or not re.search(r"[a-z]{3}", span.text) \
                or "precision" in span.text.lower():
            continue  # "bfloat16 torch.compiled": an API; "float16 Automatic Mixed Precision": AMP
        start = span.start_char
        m = _PRECISION_BEFORE.search(text, max(0, start - 12), start)
        if m is not None:
            name = f"{m.group(1)} {span.text}"
            whole = _char_span(doc, m.start(1), span.end_char, "Feature", name)
            if whole is not None:
                yield Candidate(RULES["precision_variant"], whole, "precision_variant")


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one inserted, deleted or replaced letter."""
    if len(a) > len(b):
        a, b = b, a
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    return a[i + (len(a) == len(b)):] == b[i + 1:]


def _abbreviates(acronym: str, before: str) -> bool:
    """Whether ``acronym`` abbreviates the words that end ``before``: "Neural Information
    Processing Systems (NeurIPS)", "PyTorch Certified Associate (PTCA)", "Linux Foundation
    (LF)"."""
    capitals = "".join(c for c in acronym if c.isupper())
    if len(capitals) < 2:
        return False
    words = re.findall(r"[\w'-]+", before)[-len(capitals) - 3:]
    for k in range(1, len(words) + 1):
        tail = words[-k:]
        if tail[0][0].upper() == capitals[0] and _subsequence(capitals.lower(),
                                                              " ".join(tail).lower()):
            return True
    return False


def _title_case(line: str) -> bool:
    """Whether a line is written in title case: no lower-case word but short function words
    ("PyTorch Foundation Expands to an Umbrella Foundation")."""
    words = re.findall(r"[A-Za-z][\w'-]*", line)
    return len(words) >= 4 and not any(
        w[0].islower() and w not in _FUNCTION_WORDS for w in words)


_FUNCTION_WORDS = {"a", "an", "the", "to", "of", "for", "and", "or", "in", "on", "at", "by",
                   "with", "from", "as", "into", "via", "vs", "is", "are"}


def _subsequence(letters: str, text: str) -> bool:
    """Whether ``letters`` occur in ``text`` in order ("xmx" in "xe matrix extensions")."""
    rest = iter(text)
    return all(letter in rest for letter in letters)


def _without_lead(name: str) -> str:
    """``name`` without its leading generic words: "Their LingGuang" -> "LingGuang"."""
    words = name.split()
    while len(words) > 1 and (words[0] in _NOT_NAMES or words[0] in _NOT_TECHNIQUE_WORDS):
        words.pop(0)
    return " ".join(words)


def _common_acronym(name: str, text: str) -> bool:
    """Whether the post introduces ``name`` as the acronym of a common phrase: "domain APIs
    (DAPI)", not "Triton Language Extensions (TLX)"."""
    if not re.fullmatch(r"[A-Z][A-Za-z]{1,5}", name) or sum(c.isupper() for c in name) < 2:
        return False
    for m in re.finditer(rf"\(({re.escape(name)})\)", text):
        words = re.findall(r"[\w'-]+", text[max(0, m.start() - 80):m.start()])[-len(name):]
        if any(w[0].islower() and w not in ("of", "and", "for", "in", "to") for w in words):
            return True
    return False


def _citation(text: str, offset: int) -> bool:
    """Whether ``offset`` stands in a reference of a list of papers ("... Wilson; Uncertainty
    in Artificial Intelligence (UAI), 2018")."""
    line = _line_at(text, offset)
    return bool(_YEAR.search(line) and _REFERENCE.search(line))


def _alternatives(surfaces: list[str],
                  escape: Callable[[str], str] = re.escape, grouped: bool = False) -> str:
    """A regex alternation of ``surfaces``, longest first (none: one that never matches), each
    made a pattern by ``escape``; ``grouped``: by first letter, for a ``re.I`` pattern
    (:func:`_by_first_letter`)."""
    ordered = sorted(set(surfaces), key=lambda s: (-len(s), s))
    if grouped and ordered:
        return _by_first_letter([(s, escape(s)) for s in ordered])
    return "|".join(escape(s) for s in ordered) or "(?!)"


def _by_first_letter(alternatives: list[tuple[str, str]], ignore_case: bool = True) -> str:
    """An alternation of ``(name, pattern)`` pairs that matches as ``"|".join(patterns)``
    does, in a fraction of the time: the alternatives are grouped under their first character
    (``t(?:orchvision|orchaudio|...)``), keeping their order within a group, so at each
    position the engine tries only the group of the character there instead of every
    alternative (under ``re.I`` it cannot skip an alternative by its first letter). Two
    groups never both match at one position, so the first alternative that matches is the
    same one. ``ignore_case``: the pattern is compiled with ``re.I`` ("T" and "t" are one group).

    Each pattern must start with its name's first character, an ASCII letter or digit; if
    one does not, the alternation is left as it is.
    """
    if not all(name[:1].isascii() and name[:1].isalnum() and pattern[:1] == name[:1]
               for name, pattern in alternatives):
        return "|".join(pattern for _, pattern in alternatives)
    groups: dict[str, list[str]] = {}
    for name, pattern in alternatives:
        groups.setdefault(name[0].lower() if ignore_case else name[0], []).append(pattern[1:])
    return "|".join(f"{first}(?:{'|'.join(rests)})" for first, rests in groups.items())


def _inner_case_free(surface: str) -> str:
    """``surface`` as a pattern whose letters after the first match in any case: the family
    MiniMax is also written "Minimax M2.5", never "minimax" (a lower-case slug, such as
    "kimi-k25-3node-h100", is a file's name, not the model's); an acronym's first letter
    too ("gpt-5.5" is GPT's, so named by its maker)."""
    if len(surface) > 1 and surface.isupper():
        return "(?i:" + re.escape(surface) + ")"
    return re.escape(surface[0]) + "(?i:" + re.escape(surface[1:]) + ")"


def _short_version(version: str) -> str:
    """ "1.4.0" names the same release as "1.4"; "1.4.1" does not."""
    return re.sub(r"^(\d+\.\d+)\.0$", r"\1", version)


def _line_at(text: str, offset: int) -> str:
    """The line of ``text`` that holds ``offset``."""
    return text[text.rfind("\n", 0, offset) + 1:text.find("\n", offset) % (len(text) + 1)]


def _list_context(text: str, offset: int, limit: int = 30) -> str:
    """The line that holds ``offset``, and the lines up to its list's introduction.

    For a list item of names only: "The text datasets listed below ...:" above "* PennTreebank".
    List items start with spaces: ``mask_markup`` blanked their bullets; in flattened text,
    which lost them, an item is a line of names only.
    """
    start = text.rfind("\n", 0, offset) + 1
    lines = [_line_at(text, offset)]
    if not _names_only(lines[0]):
        return lines[0]  # "* Added aligned flag to RoIAlign": a sentence, not a list of names
    while start > 0 and len(lines) < limit and (lines[-1][:1].isspace() or not lines[-1]
                                                or _names_only(lines[-1])):
        end = start - 1
        start = text.rfind("\n", 0, end) + 1
        lines.append(text[start:end])
    return "\n".join(lines)


def _names_only(line: str) -> bool:
    """Whether a line is names only, after its label: "Text classification: AG_NEWS, IMDB"."""
    names = line.rpartition(":")[2]
    return bool(names.strip()) and not _LOWER_WORD.search(names)


#: What stands between a name and its former name in one sentence: "AmplitudeToDB (previously
#: named"; not "specific to SGD. Previously, SWA".
_FORMERLY = re.compile(r"[^\w.\n]{0,3}\(?\s*(?:previously|formerly)"
                       r"(?:\s+(?:named|called|known\s+as))?[^\w.\n]{0,3}$", re.I)
#: A name read as the start of a longer word: "pytorch" of "pytorch-pretrained-bert".
_JOINED = re.compile(r"[-_.]\w")


def _renamed(spans: list[Span], text: str, known: Container[str]) -> list[Span]:
    """The names a post gives as a name's former one ("AmplitudeToDB (previously named
    SpectrogramToDB)", "PlayTorch SDK (formerly known as PyTorch Live)") or as its short form
    ("DistributedTensor (DTensor)") read as that name, so resolution makes one node of the two
    wherever else the other name is read; ``known`` are the alias pack's canonical names."""
    renamed = list(spans)
    for i, (name, former) in enumerate(zip(spans, spans[1:], strict=False)):
        if name.label_ == former.label_ and name.id_ != former.id_ and _FORMERLY.match(
                text[name.end_char:former.start_char]) and not _JOINED.match(
                text, former.end_char):
            renamed[i + 1] = Span(former.doc, former.start, former.end, label=name.label_,
                                  span_id=name.id_)
    return _select_short_forms(renamed, text, known)


#: A short form in parentheses after a name or its link: "DistributedTensor (DTensor)".
_SHORT_FORM = re.compile(r"[ \t]*\( ?(?P<short>[A-Za-z][\w.-]*[A-Za-z0-9]) ?\)")


#: The word right before a name, and the space between: "LFBO " of "LFBO TreeSearch".
_WORD_BEFORE = re.compile(r"(?<![\w.-])([A-Za-z][A-Za-z0-9]*)[ \t]$")


#: A GPU's compiler target, its other name in parentheses: "MI350X (gfx950)".
_GPU_TARGET = re.compile(r"gfx\d{2,3}[\da-f]|sm_?\d{2,3}a?")


#: A long form in parentheses after a short one: "torch.amp (Automatic Mixed Precision)".
_LONG_FORM = re.compile(r"[ \t]*\( ?(?P<long>[A-Z][\w-]*(?: [\w-]+){1,5}) ?\)")


def _shared_device_heads(spans: list[Span], text: str,
                         known: dict[str, tuple[str, str]]) -> list[Span]:
    """The vendors listed before a vendor's device share its head noun: in "NVIDIA, AMD, and
    Intel GPUs" NVIDIA and AMD are GPUs too, each the device the pack knows by that name
    ("NVIDIA GPUs": NVIDIA GPU); a vendor whose device the pack does not know stays a company."""
    spans = list(spans)
    for at, device in enumerate(spans):
        vendor, _, head = device.text.partition(" ")
        if device.label_ != "Hardware" or not head or known.get(vendor.lower(), ("",))[0] \
                != "Organization":
            continue
        right = device
        for before in range(at - 1, -1, -1):
            company = spans[before]
            name = known.get(f"{company.text} {head}".lower())
            if company.label_ != "Organization" or name is None or name[0] != "Hardware" or \
                    not re.fullmatch(_LIST_JOIN, text[company.end_char:right.start_char]):
                break
            spans[before] = _char_span(company.doc, company.start_char, company.end_char,
                                       "Hardware", name[1]) or company
            right = company
    return spans


def _select_short_forms(spans: list[Span], text: str, known: Container[str]) -> list[Span]:
    """``spans`` with the short form a post gives a name in parentheses read as that name,
    when its letters are the name's in order, from the first ("DistributedTensor (DTensor)"),
    or the name as the short form when only the short form is ``known`` ("Elastic Kubernetes
    Service (EKS)" is the pack's Amazon EKS); so with the name in parentheses after the
    short form, of an API the last part ("torch.amp (Automatic Mixed Precision)"), and a GPU's
    compiler target in parentheses as the GPU ("MI350X (gfx950)"); a span of another label
    there stays."""
    starts = {span.start_char: k for k, span in enumerate(spans)}
    taken = _within(spans)
    added = []
    for i, span in enumerate(spans):
        long = _LONG_FORM.match(text, span.end_char)
        k = starts.get(long.start("long")) if long else None
        if k is not None and spans[k].label_ == span.label_ and spans[k].end_char == long.end(
                "long") and _short_form(spans[k].text, span.text.rpartition(".")[2]):
            spans[i] = Span(span.doc, span.start, span.end, label=span.label_,
                            span_id=spans[k].id_)  # "torch.amp (Automatic Mixed Precision)"
            continue
        m = _SHORT_FORM.match(text, span.end_char)
        if not m or not (_short_form(span.text, m.group("short")) or span.label_ == "Hardware"
                         and _GPU_TARGET.fullmatch(m.group("short"))):
            continue
        k = starts.get(m.start("short"))
        if k is not None and spans[k].label_ == span.label_ \
                and spans[k].end_char == m.end("short"):
            if spans[k].id_ in known and span.id_ not in known:
                spans[i] = Span(span.doc, span.start, span.end, label=span.label_,
                                span_id=spans[k].id_)
            else:
                spans[k] = Span(span.doc, spans[k].start, spans[k].end, label=span.label_,
                                span_id=span.id_)
        elif k is None:
            short = _char_span(span.doc, m.start("short"), m.end("short"), span.label_, span.id_)
            if short is not None and not taken(short):
                added.append(short)
    return sorted(spans + added, key=lambda s: s.start) if added else spans


def _short_form(name: str, short: str) -> bool:
    """Whether ``short`` shortens ``name``: shorter, with its first letter and every letter
    in order ("EKS" of "Elastic Kubernetes Service")."""
    name, short = name.lower(), short.lower()
    return 1 < len(short) < len(name) and short[0] == name[0] and _subsequence(short, name)


def _char_span(doc: Doc, start: int, end: int, label: str, span_id: str = "") -> Span | None:
    return doc.char_span(start, end, label=label, span_id=span_id, alignment_mode="expand")


class _DatasetLines:
    """Whether an offset of ``text`` stands in a list of datasets (``_list_context``), decided
    once per line: a long line with many names was read again for each."""

    def __init__(self, text: str):
        self.text = text
        self._newlines: list[int] | None = None
        self._lines: dict[int, bool] = {}

    def __call__(self, offset: int) -> bool:
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self.text)]
        k = bisect.bisect_left(self._newlines, offset)  # the newlines before ``offset``
        start = self._newlines[k - 1] + 1 if k else 0
        if start not in self._lines:
            self._lines[start] = bool(_DATASET.search(_list_context(self.text, offset)))
        return self._lines[start]


def _inner_devices(candidates: Iterable[Candidate], chosen: list[Span]) -> list[Span]:
    """Hardware and platforms named inside a chosen feature or library ("Android GPU backend",
    "DuaLip-GPU")."""
    inside_feature = _within(s for s in chosen if s.label_ in ("Feature", "Library"))
    return _select((priority, c) for priority, c, _ in candidates
                   if c is not None and c.label_ in DEVICE_LABELS
                   and priority <= PRIORITY["pack"]  # known names, not "<Name> backend" guesses
                   and inside_feature(c))


def _within(spans: Iterable[Span]) -> Callable[[Span], bool]:
    """A test of whether a span lies within one of ``spans``, in time logarithmic in their
    number: the ends, greatest so far, of the spans ordered by start."""
    ordered = sorted(spans, key=lambda s: s.start)
    starts = [s.start for s in ordered]
    ends = list(itertools.accumulate((s.end for s in ordered), max))

    def test(span: Span) -> bool:
        k = bisect.bisect_right(starts, span.start)  # the spans that start at or before it
        return k > 0 and ends[k - 1] >= span.end

    return test


def _alias_members(doc: Doc, text: str, found: list[Candidate]) -> Iterator[Candidate]:
    """The members of a short module alias the post writes for two names or more, opening
    with the first letter of a library the post names: "Helion recommends to use hl.tile
    over hl.grid" names two APIs of helion.language; "x.data" and "x.detach" are a variable's."""
    members: dict[str, set[str]] = {}
    matches = [m for m in ALIAS_MEMBER.finditer(text) if not _FILE_SUFFIX.search(m.group(0))
               and not _DOTTED_API.match(m.group(0))]
    for m in matches:
        members.setdefault(m.group("alias"), set()).add(m.group("member"))
    initials = {c.span.id_[0].lower() for c in found if c.span.label_ == "Library"}
    for m in matches:
        if len(members[m.group("alias")]) > 1 and m.group("alias")[0] in initials:
            span = _char_span(doc, m.start(), m.end(), "Feature", m.group(0))
            if span is not None:
                yield Candidate(RULES["alias_member"], span, "alias_member")


_POSSESSIVE = re.compile(r"['’]s\b")
#: The words before a cloud where something runs there: "on AWS", "tests ... on Alibaba Cloud".
_RUNS_ON = re.compile(r"\b(?:on|in)\s+(?:the\s+)?$", re.I)
#: What a cloud where something runs is not followed by: a name, its product ("on AWS
#: Graviton processors", "on AWS EC2").
_CLOUD_END = re.compile(r"(?!\s+[A-Z0-9])")
_LIST_GAP = re.compile(r"[ \t]*(?:,[ \t]*)?(?:(?:and|or)[ \t]+)?")


def _acting_subject(span: Span) -> bool:
    """Whether a name is the subject of a verb it does ("Arm offers reference designs"), not
    one done to it ("Arm is supported"). Needs the parse."""
    return span.root.dep_ == "nsubj" and span.root.head.pos_ == "VERB"


def _listed_with_companies(spans: list[Span], i: int, text: str) -> bool:
    """Whether the name ``spans[i]`` stands in a list beside a company: "NVIDIA, ARM, and
    Intel"."""
    return any(0 <= j < len(spans) and spans[j].label_ == "Organization"
               and _LIST_GAP.fullmatch(text[min(spans[i].end_char, spans[j].end_char):
                                            max(spans[i].start_char, spans[j].start_char)])
               for j in (i - 1, i + 1))


def _as_one_word(candidate: Candidate, types: dict) -> Candidate:
    """A name the post types, written as one word of capitalized parts, outranks the pack's
    names inside it: the "GPU" of "DuaLip-GPU as a ... system" and the "vLLM" of "vLLM-Omni,
    a ... framework" are part of those names, the "PyTorch" of a "PyTorch-native library" is
    not."""
    span = candidate.span
    if candidate.rule in ("typed_name", "learned") and span.id_.lower() in types \
            and re.fullmatch(r"(?:[a-z]+)?[A-Z][\w.+]*(?:-[A-Z0-9][\w.+]*)+", span.text):
        return candidate._replace(priority=PRIORITY["pack"])
    return candidate


def _select(candidates: Iterable[tuple]) -> list[Span]:
    """Keep the best non-overlapping spans: by priority, then length, then position.

    ``candidates`` are (priority, span, ...) tuples (:class:`Candidate`)."""
    ranked = sorted((c for c in candidates if c[1] is not None),
                    key=lambda c: (c[0], -len(c[1]), c[1].start))
    taken: set[int] = set()
    chosen = []
    for _, span, *_ in ranked:
        if taken.isdisjoint(range(span.start, span.end)):
            chosen.append(span)
            taken.update(range(span.start, span.end))
    return sorted(chosen, key=lambda s: (s.start, s.end))
