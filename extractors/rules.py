"""The relation rules: trigger rules read from ``patterns/relations.jsonl``, and rules in code.

A trigger rule is one line of ``relations.jsonl``, validated when it is read into a
:class:`TriggerRule`: an unknown key, a relation type the contract does not extract, a label
that type cannot connect, a value outside the vocabulary below or a bad token pattern fails
naming the file and line. The fields:

``id``
    The rule's name, ``<type>.<what>`` (``supports.support_for``); kept in each relation's
    ``rules``.
``label``
    The relation type (:data:`ptkg.schema.EXTRACTED_TYPES`).
``pattern``
    The trigger: a spaCy Matcher token pattern.
``source``, ``target``
    The labels a source and a target may have (within the type's endpoints; ``source`` may be
    empty: then only an implied source stands).
``targets`` — where the targets stand
    ``after`` (default): the first name within :data:`MAX_LEAD` words after the trigger, and
    those listed with it ("support for CPU, CUDA and ROCm"); ``next``: right after the trigger;
    ``after_or_before``: after, else the nearest name before; ``next_or_before``: right after,
    else right before; ``before``: the names before the trigger ("acknowledge X and Y as
    influences"); ``last_before``: the last name before it and those listed with it ("MAGMA
    was deprecated in favor of cuSolver"); ``modified``: the names right before the trigger
    that modify it, a noun, listed by list words only ("CUDA 11 and Windows CUDA support"),
    none when an owner's ("PyTorch's GPU support").
``choose`` — how the source is chosen among the sentence's names
    ``nearest`` (default): the closest name before the trigger; ``subject``: the sentence's
    subject, else the nearest; ``subject_only``: the subject or none ("engineers from NVIDIA
    helped": with whom is not said); ``listed_after``: every name after the trigger in its
    clause ("components such as ATen or c10d"); ``in_trigger``: the name inside the trigger
    ("upstreamed torch.compile into PyTorch/XLA"), else the nearest; ``named_after``: the name in
    parentheses right after the target ("a variant of Muon (MuonClip)"), else as ``subject``.
``side``
    Where the nearest source is looked for first: ``before`` (default) or ``after`` ("as a
    backend for X"). A trigger in a sentence's opening phrase ("Based on X, Y ...") looks after.
``implied`` — when the sentence names no source
    ``section`` (default): the post's section feature or release stands in; ``none``: no
    relation; ``refers_back``: the post's library or feature ("try it on X", "X dependency");
    ``not_people``: the section's, unless the sentence's subject is "we" or "you".
``max_gap``
    The source ends at most this many tokens before the trigger.
``not_after``
    Words that, right before the trigger, change its sense ("as part of a goal").
``not_heads``
    Words (lower case) whose phrase the trigger opens that change its sense ("implemented one
    of the kernels in Helion": written in it, no part of it). Needs the parse.
``twins``
    A Library may be the source too, read as the Feature the type needs, which resolution
    keeps beside the Library and links by ``SAME_AS`` ("ExecuTorch is becoming a part of
    PyTorch Core": the contract's PART_OF is from a Feature).

Rules in code (:data:`CODE_RULES`) read what needs the whole post (headings, sections,
titles); each fact they make names one of them, as trigger facts name their rule's ``id``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from spacy.schemas import validate_token_pattern

from ptkg.extractors.patterns import RELATION_PATTERNS, PatternError, read_patterns
from ptkg.schema import EXTRACTED_TYPES, RELATION_TYPES

MAX_LEAD = 12  # words a trigger's first target may stand after it: "support for the new X"

TARGET_PLACES = ("after", "next", "after_or_before", "next_or_before", "before", "last_before",
                 "modified")
SOURCE_CHOICES = ("nearest", "subject", "subject_only", "listed_after", "in_trigger",
                  "named_after")
SIDES = ("before", "after")
IMPLIED = ("section", "none", "refers_back", "not_people")


@dataclass(frozen=True)
class TriggerRule:
    """One line of ``relations.jsonl`` (see the module docstring for each field)."""

    id: str
    label: str
    pattern: tuple
    source: tuple[str, ...]
    target: tuple[str, ...]
    targets: str = "after"
    choose: str = "nearest"
    side: str = "before"
    implied: str = "section"
    max_gap: int | None = None
    not_after: tuple[str, ...] = ()
    not_heads: tuple[str, ...] = ()
    twins: bool = False

    @property
    def source_labels(self) -> tuple[str, ...]:
        """The labels a source may have: with ``twins``, a Library too."""
        return (*self.source, "Library") if self.twins else self.source

    @property
    def adjacent(self) -> bool:
        """Whether a target must stand right next to the trigger."""
        return self.targets in ("next", "next_or_before")

    @property
    def may_precede(self) -> bool:
        """Whether a target may stand before the trigger when none follows it."""
        return self.targets in ("after_or_before", "next_or_before")

    def to_dict(self) -> dict:
        """The rule as a line of ``relations.jsonl`` (defaults left out)."""
        data = dataclasses.asdict(self)
        data["pattern"] = list(self.pattern)
        defaults = {f.name: f.default for f in dataclasses.fields(self)}
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in data.items()
                if k in ("id", "label", "pattern", "source", "target") or v != defaults[k]}


_VOCABULARY = {"targets": TARGET_PLACES, "choose": SOURCE_CHOICES, "side": SIDES,
               "implied": IMPLIED}
_FIELDS = {f.name for f in dataclasses.fields(TriggerRule)}
_REQUIRED = {"id", "label", "pattern", "source", "target"}


def parse_rule(record: dict, where: str = "<rule>") -> TriggerRule:
    """A :class:`TriggerRule` from one pattern-file record, checked against the contract.

    Raises
    ------
    PatternError
        ``where: reason``: an unknown or missing key, a type the contract does not extract, a
        label the type cannot connect, or a value outside the vocabulary.
    """
    unknown = sorted(set(record) - _FIELDS)
    if unknown:
        keys = ", ".join(sorted(_FIELDS))
        raise PatternError(f"{where}: unknown key {unknown[0]!r} (keys: {keys})")
    missing = sorted(_REQUIRED - set(record))
    if missing:
        raise PatternError(f"{where}: a rule needs {', '.join(repr(m) for m in missing)}")
    label = record["label"]
    if label not in EXTRACTED_TYPES:
        raise PatternError(f"{where}: {label!r} is not a relationship type ptkg reads "
                           f"(types: {', '.join(EXTRACTED_TYPES)})")
    kind = RELATION_TYPES[label]
    for side, allowed in (("source", kind.sources), ("target", kind.targets)):
        wrong = sorted(set(record[side]) - allowed)
        if wrong:
            raise PatternError(f"{where}: {label} cannot have a {side} labelled {wrong[0]!r} "
                               f"(allowed: {', '.join(sorted(allowed))})")
    for key, values in _VOCABULARY.items():
        if key in record and record[key] not in values:
            raise PatternError(f"{where}: {key} {record[key]!r} is not one of {', '.join(values)}")
    if "twins" in record and not isinstance(record["twins"], bool):
        raise PatternError(f"{where}: twins must be true or false")
    if "max_gap" in record and not (isinstance(record["max_gap"], int) and record["max_gap"] >= 0):
        raise PatternError(f"{where}: max_gap must be a whole number of tokens")
    check_token_pattern(record["pattern"], where)
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in record.items()}
    return TriggerRule(**values)


def check_token_pattern(pattern: object, where: str) -> None:
    """Check a spaCy Matcher token pattern against spaCy's schema.

    Raises
    ------
    PatternError
        ``where: invalid token pattern (...)``.
    """
    if not isinstance(pattern, list) or not pattern:
        raise PatternError(f"{where}: a trigger pattern is a non-empty list of token patterns")
    errors = validate_token_pattern(pattern)
    if errors:
        raise PatternError(f"{where}: invalid token pattern ({errors[0]})")


def read_rules(path: str | Path = RELATION_PATTERNS) -> list[TriggerRule]:
    """The trigger rules of a pattern file, validated, in file order.

    Raises
    ------
    PatternError
        The first bad line, as ``path:line: reason``; a rule id given twice.
    """
    lines = [number for number, line in
             enumerate(Path(path).read_text(encoding="utf8").splitlines(), 1) if line.strip()]
    rules = [parse_rule(record, f"{path}:{number}")
             for number, record in zip(lines, read_patterns(path, check_token_pattern),
                                       strict=True)]
    seen: set[str] = set()
    for number, rule in zip(lines, rules, strict=True):
        if rule.id in seen or rule.id in CODE_RULES:
            raise PatternError(f"{path}:{number}: rule id {rule.id!r} is used twice")
        seen.add(rule.id)
    return rules


@dataclass(frozen=True)
class CodeRule:
    """A rule written in code: its id, the type of the facts it makes, what it reads."""

    id: str
    type: str
    reads: str


CODE_RULES: dict[str, CodeRule] = {rule.id: rule for rule in (
    CodeRule("announces.title", "ANNOUNCES", "a release named in an announcing title"),
    CodeRule("announces.release_heading", "ANNOUNCES", "a heading that opens with a release"),
    CodeRule("announces.library_section", "ANNOUNCES",
             "a release announced under its library's heading, or the one release of a "
             "library a post gives a section ('## TorchVision' and its table's TorchVision 0.15)"),
    CodeRule("introduces.marked_heading", "INTRODUCES",
             "a heading or bullet with a stability marker names a feature"),
    CodeRule("introduces.added_bullet", "INTRODUCES",
             "an 'Added ...' bullet of a release section lists features"),
    CodeRule("introduces.stated_stability", "INTRODUCES",
             "stability stated in prose: 'stable support for X', 'our X prototype'"),
    CodeRule("introduces.said_new", "INTRODUCES",
             "what a release section's sentence says is new: 'X was also added', "
             "'now exposes an X method', a bullet 'X now supports ...'"),
    CodeRule("introduces.now_at_level", "INTRODUCES",
             "a sentence saying a feature is now at a level: 'X is now stable', 'It is now"
             " stable!'"),
    CodeRule("introduces.moved_to_level", "INTRODUCES",
             "features a sentence lists as moved to a level: 'moved to stable including X, Y'"),
    CodeRule("introduces.earlier_release", "INTRODUCES",
             "what an earlier release shipped, recalled: 'X, released as a beta in PyTorch 1.8'"),
    CodeRule("introduces.release_adds", "INTRODUCES",
             "what a sentence of any post says a release adds: 'With PyTorch 1.11 we're adding X'"),
    CodeRule("introduces.title_support", "INTRODUCES",
             "a device's support a post's title says a core release gains: 'Intel GPU Support "
             "Now Available in PyTorch 2.5' (the feature 'Intel GPU support')"),
    CodeRule("introduces.section_heading", "INTRODUCES",
             "an unmarked leaf heading or bold lead line of a section that lists features, "
             "with the stability the section states"),
    CodeRule("supports.section_hardware", "SUPPORTS",
             "a feature a release introduces under a hardware heading ('### ROCm'), by its "
             "own heading or in the section's prose, supports that hardware"),
    CodeRule("supports.in_feature_section", "SUPPORTS",
             "hardware or a platform the body of a feature's section names"),
    CodeRule("supports.marked_heading", "SUPPORTS",
             "the hardware a marked heading opens with: the release supports it"),
    CodeRule("supports.named_in_feature", "SUPPORTS",
             "hardware or a platform the name of a feature or library names: 'Android GPU "
             "backend', 'DuaLip-GPU'"),
    CodeRule("variant_of.code_name", "VARIANT_OF",
             "a code name in parentheses after hardware: 'Intel Core Ultra processor family "
             "(Codename Meteor Lake)' is a generation of the Intel Core Ultra"),
    CodeRule("released_with.core_release_post", "RELEASED_WITH",
             "library releases named in a post about a core release"),
    CodeRule("part_of.named_after_library", "PART_OF",
             "a feature whose name starts with a library's"),
    CodeRule("part_of.compound", "PART_OF", "a library's name right before a feature's"),
    CodeRule("part_of.kind_of_library", "PART_OF",
             "a feature in apposition to a library's kind of part: \"X, a new PyTorch API\""),
    CodeRule("part_of.library_section", "PART_OF",
             "a marked feature in a library's section that names no release of it"),
    CodeRule("part_of.core_library_section", "PART_OF",
             "a marked feature of a library's subsection of a core release's section: the "
             "release introduces it, and it is part of the library"),
    CodeRule("part_of.announced_feature", "PART_OF",
             "a top heading of a post of no release that announces a library's features: "
             "'we are announcing four PyTorch prototype features'"),
    CodeRule("part_of.library_post_lead", "PART_OF",
             "a bold lead line in a section of changes or features of a post about a library "
             "other than PyTorch: '**Gemma AllReduce Fusion**' under '## 3. Performance "
             "Optimizations' of a post titled '... with TokenSpeed'"),
    CodeRule("part_of.library_post_code", "PART_OF",
             "a class or function a post about a library names: 'MambaSlot' of the post "
             "about TokenSpeed"),
    CodeRule("part_of.component_list", "PART_OF",
             "an item of a list a library's line leads: 'the library includes:'"),
    CodeRule("supports.component_list", "SUPPORTS",
             "a device's support, an item of a list a library's line leads"),
    CodeRule("part_of.library_highlight", "PART_OF",
             "a feature in a list item its library's bold name leads, not one it works with: "
             "'**TorchAudio** - ... defaulting to sox_io backend'"),
    CodeRule("supports.library_highlight", "SUPPORTS",
             "a device in a list item its library's bold name leads: '**TorchCSPRNG** - ...'"),
    CodeRule("based_on.component_list", "BASED_ON",
             "what an item of a library's list of parts is powered by: that part and the "
             "library are based on it ('Optimized RecSys kernels powered by FBGEMM')"),
    CodeRule("based_on.hyphen_based", "BASED_ON",
             "a name right before '-based' and another: 'FX-based Graph Mode Quantization'"),
    CodeRule("based_on.named_based", "BASED_ON",
             "a feature named for what it is based on: 'RPC-based Profiling', 'rocSHMEM "
             "support'"),
    CodeRule("developed_by.compound", "DEVELOPED_BY",
             "an organization's name right before a library's or feature's"),
    CodeRule("developed_by.team_at", "DEVELOPED_BY",
             "a library's team at a company, or a library or feature at one: 'the Helion "
             "team at Meta', 'systems like PDLP at Google and DuaLip at LinkedIn'"),
    CodeRule("replaces.renaming_heading", "REPLACES",
             "a heading that names the old thing, an arrow and the new: 'functorch -> torch.func'"),
)}


def rule_ids() -> dict[str, str]:
    """Every rule id, in the file and in code, with the relation type it makes."""
    ids = {rule.id: rule.label for rule in read_rules()}
    ids.update((rule.id, rule.type) for rule in CODE_RULES.values())
    return dict(sorted(ids.items()))
