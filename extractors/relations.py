"""The relation finder: relations between the entities of one sentence, around trigger phrases.

:class:`RelationFinder` (the ``ptkg_relations`` component) runs the trigger rules of
``patterns/relations.jsonl`` (:mod:`ptkg.extractors.rules`) and the side-by-side names
("PyTorch/XLA FSDP", "Microsoft DeepSpeed"), and writes ``doc._.ptkg_relations``:
:class:`Relation` records naming the rule that fired. A per-doc :class:`_DocIndex` answers
what each trigger needs (its sentence, the sentence's entities, clause breaks, subjects) in
logarithmic time, so a long post costs time in proportion to its length.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import numpy
import srsly
from spacy.attrs import DEP, LOWER, ORTH, SENT_START
from spacy.language import Language
from spacy.matcher import Matcher
from spacy.strings import get_string_id
from spacy.tokens import Doc, Span, Token

from ptkg.extractors.rules import CODE_RULES, MAX_LEAD, TriggerRule, parse_rule, read_rules
from ptkg.schema import ANY_DEVICE, CORE_LIBRARY, DEVICE_LABELS, ENDINGS


@dataclass(frozen=True)
class Relation:
    """A relation read from one sentence; ``source`` is None when the sentence leaves it implied."""

    type: str
    source: Span | None
    target: Span
    rule: str
    sentence: Span
    implied_source: bool = True  # may the post's section or release stand in for a None source
    anaphor: bool = False  # the source is the sentence's subject "it" or "the project"


class _DocIndex:
    """What reading a trigger asks of its doc, found once per doc: the sentences, the
    entities of each, and where clause breaks, commas and subjects stand.

    ``Span.sent`` walks the tokens out to the sentence's edges, and reading a trigger scanned
    every entity of the post and every token back to its sentence's start: a long post took
    time quadratic in its length. Each answer here is the one those scans gave.
    """

    def __init__(self, doc: Doc, entities: list[Span]):
        self.doc = doc
        self.entities = entities
        # Sentence hooks (none in ptkg's pipelines) or no boundaries: ask ``Span.sent``.
        self._plain = not ("sent" in doc.user_span_hooks or "sents" in doc.user_hooks) \
            and doc.has_annotation("SENT_START")
        self.starts = numpy.flatnonzero(doc.to_array(SENT_START) == 1).tolist()
        self.breaks = _positions(doc, LOWER, _CLAUSE_BREAKS)
        self.commas = _positions(doc, ORTH, {","})
        self.semicolons = _positions(doc, ORTH, {";"})
        self.colons = _positions(doc, ORTH, {":"})
        self.subjects = _positions(doc, DEP, {"nsubj", "nsubjpass"})
        self.parsed = doc.has_annotation("DEP")  # a blank pipeline's tokens have no children
        in_order = all(a.start <= b.start for a, b in zip(entities, entities[1:], strict=False))
        self._entity_starts = [e.start for e in entities] if in_order else None
        self._text: str | None = None
        self._sentences: dict[int, Span] = {}
        self._inside: dict[int, list[Span]] = {}
        self._covered: dict[int, set[int]] = {}
        self._future: dict[int, list[tuple[int, int]]] = {}  # plan phrases of a sentence

    def sentence(self, span: Span) -> Span:
        """``span.sent``: the sentence that holds the span's first token."""
        if not self._plain:
            return span.sent
        k = bisect.bisect_right(self.starts, span.start) - 1
        start = self.starts[k] if k >= 0 else 0
        if start not in self._sentences:
            end = self.starts[k + 1] if k + 1 < len(self.starts) else len(self.doc)
            self._sentences[start] = self.doc[start:end]
        return self._sentences[start]

    def inside(self, sentence: Span) -> list[Span]:
        """The entities within ``sentence``, in the order of the doc's entities."""
        if sentence.start not in self._inside:
            entities = self.entities
            if self._entity_starts is not None:
                lo = bisect.bisect_left(self._entity_starts, sentence.start)
                hi = bisect.bisect_right(self._entity_starts, sentence.end)
                entities = entities[lo:hi]
            self._inside[sentence.start] = [e for e in entities if sentence.start <= e.start
                                            and e.end <= sentence.end]
        return self._inside[sentence.start]

    def covered(self, sentence: Span) -> set[int]:
        """The tokens of the entities within ``sentence``."""
        if sentence.start not in self._covered:
            self._covered[sentence.start] = {i for e in self.inside(sentence)
                                             for i in range(e.start, e.end)}
        return self._covered[sentence.start]

    def future(self, sentence: Span, trigger: Span) -> bool:
        """Whether the clause of ``trigger`` in ``sentence`` speaks of a plan ("will be
        available"): anywhere before the trigger, or after it up to a clause joined with "and"
        ("are removing support for Python2 and will support Python3 only": a fact, then a
        plan)."""
        if sentence.start not in self._future:
            text = self.text(sentence.start, sentence.end)
            self._future[sentence.start] = [
                (m.start(), m.end()) for m in _FUTURE.finditer(text)]
        plans = self._future[sentence.start]
        if not plans:
            return False
        offset = self.doc[sentence.start].idx
        start, end = trigger.start_char - offset, trigger.end_char - offset
        rest = self.text(trigger.end, sentence.end)
        joined = _JOINED_CLAUSE.search(rest)
        clause_end = end + (joined.start() if joined else len(rest) + 1)
        return any(a < start or end <= a < clause_end for a, _ in plans)

    def text(self, start: int, end: int) -> str:
        """``doc[start:end].text``, cut from the doc's text (read once)."""
        if end <= start:
            return ""
        last = self.doc[end - 1]
        return self.doc_text[self.doc[start].idx:last.idx + len(last.text)]

    @property
    def doc_text(self) -> str:
        """``doc.text``, read once."""
        if self._text is None:
            self._text = self.doc.text
        return self._text

    def colon_after(self, start: int) -> Token | None:
        """The colon within :data:`MAX_LEAD` tokens from token ``start``, if one stands there."""
        at = self.first(self.colons, start, start + MAX_LEAD)
        return None if at is None else self.doc[at]

    @staticmethod
    def first(positions: list[int], start: int, end: int) -> int | None:
        """The first of the sorted ``positions`` in ``[start, end)``."""
        k = bisect.bisect_left(positions, start)
        return positions[k] if k < len(positions) and positions[k] < end else None

    @staticmethod
    def last(positions: list[int], start: int, end: int) -> int | None:
        """The last of the sorted ``positions`` in ``[start, end)``."""
        k = bisect.bisect_left(positions, end) - 1
        return positions[k] if k >= 0 and positions[k] >= start else None


def _positions(doc: Doc, attr: int, values: set[str]) -> list[int]:
    """The indices of the tokens whose ``attr`` is one of ``values``, in order."""
    ids = numpy.array([get_string_id(value) for value in values], dtype="uint64")
    return numpy.flatnonzero(numpy.isin(doc.to_array(attr), ids)).tolist()


class RelationFinder:
    """Read relations between the entities of a sentence around trigger phrases."""

    def __init__(self, nlp: Language, name: str = "ptkg_relations"):
        self.nlp = nlp
        self.name = name
        self.rules: dict[str, TriggerRule] = {}
        self._patterns: dict[str, list[list[dict]]] = {}  # rule id -> its patterns
        self._rank: dict[int, int] = {}  # a rule's match key -> its order in the file
        # Rules whose first token is one word or a set of words (LOWER or ORTH, no operator)
        # and that match a bounded number of tokens: their Matcher runs only where that first
        # word stands (see :meth:`_matches`); the others run in ``_general`` over the doc.
        self._prefiltered: list[_Prefilter] = []
        self._general = Matcher(nlp.vocab, validate=True)
        if not Doc.has_extension("ptkg_relations"):
            Doc.set_extension("ptkg_relations", default=None)

    def initialize(self, get_examples: Callable | None = None, *, nlp: Language | None = None,
                   patterns: Iterable[dict | TriggerRule] | None = None) -> None:
        """Load trigger rules (default: the packaged ``relations.jsonl``, validated)."""
        self.add_patterns(read_rules() if patterns is None else patterns)

    def add_patterns(self, patterns: Iterable[dict | TriggerRule]) -> None:
        """Add trigger rules: :class:`TriggerRule` records, or dicts in the file's shape."""
        for number, record in enumerate(patterns, 1):
            rule = record if isinstance(record, TriggerRule) else \
                parse_rule(record, f"rule {number}")
            self.rules[rule.id] = rule
            self._patterns.setdefault(rule.id, []).append(list(rule.pattern))
            self._rank.setdefault(self.nlp.vocab.strings.add(rule.id), len(self._rank))
            self._add_prefilter(rule)

    def _add_prefilter(self, rule: TriggerRule) -> None:
        first, length = _first_words(rule.pattern), _max_tokens(rule.pattern)
        if len(self._patterns[rule.id]) > 1:  # a rule id again: both patterns, as before
            self._prefiltered = [p for p in self._prefiltered if p.rule != rule.id]
            if rule.id in self._general:
                self._general.remove(rule.id)
            self._general.add(rule.id, self._patterns[rule.id])
            return
        if first is None or length is None:
            self._general.add(rule.id, [list(rule.pattern)])
            return
        matcher = None
        if length > 1:  # one token: the first word is the match
            matcher = Matcher(self.nlp.vocab)
            matcher.add(rule.id, [list(rule.pattern)])
        self._prefiltered.append(_Prefilter(rule.id, self.nlp.vocab.strings.add(rule.id),
                                            first[0], first[1], length, matcher))

    def _matches(self, doc: Doc) -> list[tuple[int, int, int]]:
        """What one Matcher of every rule finds in ``doc``, ordered by (start, end, rule), in
        time spent where a rule's first word stands: a Matcher tries every rule at every token,
        and most
        tokens open none (a rule's match lies within its first word and the most tokens it
        can take after it)."""
        found = list(self._general(doc)) if len(self._general) else []
        if self._prefiltered:
            words = doc.to_array([LOWER, ORTH])
            n = len(doc)
            for p in self._prefiltered:
                starts = numpy.flatnonzero(numpy.isin(words[:, p.column], p.ids)).tolist()
                if not starts:
                    continue
                if p.matcher is None:
                    found.extend((p.key, i, i + 1) for i in starts)
                    continue
                window_start, window_end = starts[0], min(starts[0] + p.length, n)
                for i in starts[1:] + [n]:
                    if i < window_end:  # overlapping windows are read as one
                        window_end = min(i + p.length, n)
                        continue
                    found.extend((key, window_start + s, window_start + e)
                                 for key, s, e in p.matcher(doc[window_start:window_end]))
                    window_start, window_end = i, min(i + p.length, n)
        return sorted(found, key=lambda m: (m[1], m[2], self._rank[m[0]]))

    def __call__(self, doc: Doc) -> Doc:
        entities = list(doc.spans.get("ptkg", []))
        # where a name starts or ends, a space of masked markup before or after it included
        starts = {e.start for e in entities} | {
            e.start - 1 for e in entities if e.start and doc[e.start - 1].is_space}
        ends = {e.end for e in entities} | {
            e.end + 1 for e in entities if e.end < len(doc) and doc[e.end].is_space}
        index = _DocIndex(doc, entities)
        found = []
        for match_id, start, end in self._matches(doc):
            rule = self.rules[self.nlp.vocab.strings[match_id]]
            if rule.adjacent and end not in starts and not (rule.may_precede and start in ends) \
                    and index.colon_after(end) is None:
                continue  # the common case of "in", "of": no name next to the trigger
            if _states(rule, doc[start:end], index):
                found.extend(self._read(rule, doc[start:end], index))
        found.extend(_compounds(doc, entities, index))
        doc._.ptkg_relations = found
        return doc

    def _read(self, rule: TriggerRule, trigger: Span, index: _DocIndex) -> Iterator[Relation]:
        if rule.targets == "modified" and index.parsed and _unmodified(trigger.root):
            return
        sentence = index.sentence(trigger)
        inside, covered = index.inside(sentence), index.covered(sentence)
        covered = covered | set(range(trigger.start, trigger.end))  # "TorchAudio support to"
        semicolon = index.last(index.semicolons, sentence.start, trigger.start)
        sources = [e for e in inside if e.label_ in rule.source_labels
                   and (not _modifier(e, covered) or rule.label == "DEVELOPED_BY" and _team_of(e))
                   and not _excepted(e)
                   and (semicolon is None or e.start > semicolon)]  # "X module; ... on GPUs"
        purpose = _purpose(trigger, sentence)
        if rule.max_gap is not None and not purpose:
            sources = [e for e in sources if e.end <= trigger.start
                       and _words(trigger.doc[e.end:trigger.start]) <= rule.max_gap
                       and not any(t.text == ":" for t in trigger.doc[e.end:trigger.start])]
            # "FlexAttention: The Flexibility of PyTorch": a title's name is not the "of"'s
        clause_end = _clause_end(trigger, index)
        chosen = [t for t in _targets(rule, trigger, [e for e in inside
                                                      if e.label_ in rule.target],
                                      clause_end, inside, index) if not _excepted(t)]
        if rule.label == "BASED_ON":  # "using the TensorFloat32 datatype": a number format
            chosen = [t for t in chosen if t.end >= len(t.doc)
                      or t.doc[t.end].lower_ not in _FORMAT_NOUNS]
        if rule.label == "PART_OF":  # "integrated torch_npu into pytorch as a plug-in": not in
            chosen = [t for t in chosen if not _AS_PLUGIN.match(index.doc_text, t.end_char)]
        if rule.label in ENDINGS:
            chosen = [_with_kind(t) for t in chosen if not _ends_nothing(t)] or _ended_objects(
                trigger)
        elif rule.label == "REPLACES":  # "replaces the autograd metaclass": the metaclass
            chosen = [t for t in chosen if not _names_part(t, covered) and not _cut(t)]
        clause_start = sentence.start
        if purpose or _opens_sentence(trigger, sentence):  # "Based on X and Y, Z does ...": Z
            comma = _closing_comma(trigger, sentence, index)
            clause_start = comma
            chosen = [e for e in chosen if e.end <= comma]
            rule = replace(rule, side="after")
            sources = [e for e in sources if e.start > comma]
            opener = _opening_name(trigger.doc, inside, rule, comma)
            if opener is not None and opener not in sources:
                sources = [opener, *sources]
            if purpose and not sources and _first_subject(
                    trigger.doc[comma:clause_end], index) is None:
                return  # "To install PyTorch with the latest GPU support, run ...": the reader's
        clause = trigger.doc[clause_start:clause_end]
        if rule.label in ("BASED_ON", "REPLACES", "DEVELOPED_BY") and _of_common_noun(
                trigger, covered):  # not where it runs: "speedups for networks running on
            return  # Volta" are nvFuser's; nor who made it: "a backend allowlist added by"
        if rule.targets == "last_before":  # the source is what the trigger names after it
            sources = [e for e in sources if e.start >= trigger.end]
        for target in chosen:  # what a rule reads as targets together is none's source
            candidates = [s for s in sources if s not in chosen and s.id_ != target.id_
                          and not (rule.label in ("PART_OF", "SUPPORTS") and _instrument(s))]
            named = _named_after(target, candidates) if rule.choose == "named_after" else None
            found, anaphor = ([named], False) if named is not None else _sources(
                rule, trigger, candidates, clause, index)
            evidence = sentence if target.end <= sentence.end else _through_line(
                sentence, target, index.doc_text)
            for source in found:
                if _kind_of_library_part(rule, source, target):
                    yield Relation("PART_OF", source, target,
                                   CODE_RULES["part_of.kind_of_library"].id, evidence)
                    continue
                yield Relation(rule.label, source, target, rule.id, evidence,
                               rule.implied != "none", anaphor)

    def to_disk(self, path, *, exclude=()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_jsonl(path / "patterns.jsonl", [r.to_dict() for r in self.rules.values()])

    def from_disk(self, path, *, exclude=()) -> RelationFinder:
        self.add_patterns(read_rules(Path(path) / "patterns.jsonl"))
        return self


@dataclass(frozen=True)
class _Prefilter:
    """A rule matched only from the tokens its first word (``ids``, of ``column``) stands at."""

    rule: str
    key: int
    column: int  # 0: LOWER, 1: ORTH (the columns of ``doc.to_array([LOWER, ORTH])``)
    ids: numpy.ndarray
    length: int  # the most tokens a match takes
    matcher: Matcher | None  # None: a one-token rule, matched by its first word alone


def _first_words(pattern: tuple | list) -> tuple[int, numpy.ndarray] | None:
    """The column and string ids of the words a pattern's first token is, when it is only
    that: ``{"LOWER": "for"}``, ``{"LOWER": {"IN": [...]}}``, ``{"ORTH": ","}``."""
    first = pattern[0]
    if len(first) != 1:
        return None
    ((attr, value),) = first.items()
    if attr not in ("LOWER", "ORTH"):
        return None
    if isinstance(value, str):
        words = [value]
    elif isinstance(value, dict) and set(value) == {"IN"} and all(
            isinstance(w, str) for w in value["IN"]):
        words = value["IN"]
    else:
        return None
    return ("LOWER", "ORTH").index(attr), numpy.array([get_string_id(w) for w in words],
                                                      dtype="uint64")


def _max_tokens(pattern: tuple | list) -> int | None:
    """The most tokens a pattern matches; None when unbounded (``+``, ``*``, ``{n,}``)."""
    total = 0
    for token in pattern:
        op = token.get("OP", "1")
        if op in ("1", "?", "!"):  # "!" counted as a token: a window too long is harmless
            total += 1
        elif op.startswith("{") and op.endswith("}"):
            low, comma, high = op[1:-1].partition(",")
            if comma and not high:
                return None
            total += int(high if comma else low)
        else:
            return None
    return total


_FUTURE = re.compile(r"\b(will be available|in the coming (?:months|weeks)|in a future release|"
                     r"we plan to|planned for|will be integrated|will support)\b", re.I)


#: Where a clause joined to the one before begins: "and will support", "and are".
_JOINED_CLAUSE = re.compile(r"\b(?:and|but)\s+(?:will|is|are|was|were|has|have|can|now)\b", re.I)

_NEGATIONS = {"not", "n't", "never", "no", "cannot", "without"}


#: What opens a clause about what no longer holds: "Until now, PyTorch training on Mac only
#: leveraged the CPU, but ...", "Previous versions of PyTorch made it difficult to ...", "The
#: previous behavior can be enabled by setting ...=avx2".
PAST_LEAD = re.compile(r"^\W*(?:until now|previously|so far|in the past|(?:the )?(?:previous|prior|"
                       r"earlier|older|old) (?:versions?|releases?|behaviou?rs?|defaults?)\b)\b",
                       re.I)


def _states(rule: TriggerRule, trigger: Span, index: _DocIndex) -> bool:
    """Whether the trigger states its relation: not a plan, a negation or a past now over.

    A rule's ``not_after`` lists words that, right before the trigger, change its sense
    ("as part of PyTorch's goal" is not a component), its ``not_heads`` the words whose phrase
    the trigger opens that do ("implemented X in Helion").
    """
    doc, sentence = trigger.doc, index.sentence(trigger)
    before = doc[max(sentence.start, trigger.start - 3):trigger.start]
    if index.future(sentence, trigger) or any(t.lower_ in _NEGATIONS for t in before):
        return False
    if trigger.start > sentence.start and \
            doc[trigger.start - 1].lower_ in rule.not_after:
        return False
    if index.parsed and trigger[0].head.lower_ in rule.not_heads:
        return False  # "implemented X in Helion"
    last_break = index.last(index.breaks, sentence.start, trigger.start)
    clause_start = sentence.start if last_break is None else last_break + 1
    return not PAST_LEAD.match(index.text(clause_start, trigger.start))


def _excepted(name: Span) -> bool:
    """Whether a name is the exception of its sentence: "all submodules except
    `torch.distributed` on M1" are tested on M1, torch.distributed is not; "devices without
    Ethos-U capability" have none."""
    words = [t for t in name.doc[max(0, name.start - 3):name.start]
             if not (t.is_punct or t.is_space)]
    return bool(words) and words[-1].lower_ in _EXCEPTIONS


_EXCEPTIONS = {"except", "excluding", "besides", "without"}

#: What a thing joins a library as when it stays apart: "into pytorch as a plug-in".
_AS_PLUGIN = re.compile(r"[\s*_`]*as\s+(?:an?\s+)?(?:plug-?ins?|add-?ons?|extensions?)\b", re.I)

#: Nouns that make the name before them a number format, which nothing is built on.
_FORMAT_NOUNS = {"datatype", "datatypes", "dtype", "dtypes", "format", "formats"}


def _kind_of_library_part(rule: TriggerRule, source: Span | None, target: Span) -> bool:
    """Whether a feature said to be "a <library> <part>" is that library's part, not built on
    it: "FlexAttention, a new PyTorch API" (where "TorchAO, a PyTorch-native library" is)."""
    doc = target.doc
    return rule.label == "BASED_ON" and rule.targets == "next" and source is not None \
        and source.label_ == "Feature" \
        and target.label_ == "Library" and target.end < len(doc) \
        and doc[target.end].lower_ in _PART_NOUNS


#: What a library has as parts: "a PyTorch API", "a new PyTorch feature".
_PART_NOUNS = {"api", "apis", "feature", "module", "operator", "function", "class", "method"}


_CLAUSE_BREAKS = {";", "while", "whereas", "which", "but", "although", "though", "where", "when"}


def _clause_end(trigger: Span, index: _DocIndex) -> int:
    """Token index where the clause that holds the trigger ends: at a clause word, or at a
    participle a comma opens ("supports fused=True, performing the step in a single CUDA
    kernel": the kernel is not what it supports)."""
    sentence = index.sentence(trigger)
    found = index.first(index.breaks, trigger.end, sentence.end)
    end = sentence.end if found is None else found
    if index.parsed:
        doc = trigger.doc
        end = next((t.i for t in doc[trigger.end:end - 1] if t.text == ","
                    and doc[t.i + 1].tag_ == "VBG"
                    and doc[t.i + 1].lower_ not in _LISTING_WORDS), end)
    return end


#: The words that list names of any label; "using", "via", "through" and "with" list devices
#: only ("on GPU using CUDA").
_LIST_WORDS = {",", "and", "or", "/", "&"}
_CONJUNCTIONS = _LIST_WORDS | {"using", "via", "through", "with"}


_LIST_GLUE = _CONJUNCTIONS | {"as", "well", "both", "either", "the", "a", "an"}


def _listed(trigger: Span, targets: list[Span], lead: int, inside: list[Span]) -> list[Span]:
    """The targets a trigger governs: the first within ``lead`` words, and those listed with it.

    "support for CPU, CUDA and ROCm" lists three; in "modeled after NumPy's np.linalg module,
    brings NumPy-style support" the second NumPy is not listed. An owner stands for what it owns:
    in "NumPy's np.fft" the target is np.fft.
    """
    doc = trigger.doc
    right = [e for e in targets if e.start >= trigger.end]
    if not right or _words(doc[trigger.end:right[0].start]) > lead or any(
            t.lower_ in _NEGATIONS for t in doc[trigger.end:right[0].start]):
        return []  # "supports fallback to running operators not supported by Ethos-U"
    chosen = []
    covered = {i for e in inside for i in range(e.start, e.end)}
    for target in right:
        if chosen and chosen[-1].id_ in ANY_DEVICE and _opens_examples(
                doc[chosen[-1].end:target.start]):
            chosen[-1] = target  # "newer GPUs (e.g., Blackwell)": the examples say which
            continue
        if chosen and _other_name(doc[chosen[-1].end:target.start]):
            if _opens_kinds(chosen[-1], target):  # "Linux (Ubuntu, SUSE Linux and ...)"
                chosen.append(target)
            continue  # "Muon (MuonClip)": one name; "(from cuda to xpu)": no list
        if chosen and (not _glue(doc[chosen[-1].end:target.start]) or (
                target.label_ not in DEVICE_LABELS and (_names_part(target, covered) or not (
                    _LIST_WORDS & {t.lower_ for t in doc[chosen[-1].end:target.start]})))):
            break  # "into PyTorch, the functorch APIs", not "Ampere and later CUDA devices";
            # "in TIMM through FuncTorch tracing": a means, where a device's would be listed
        chosen.append(target)
    owned = dict.fromkeys(_owned(target, inside) for target in chosen)
    return [target for target in owned if target in targets]  # "of PyTorch RPC": not PyTorch


def _opens_examples(gap: Span) -> bool:
    """Whether a gap opens an aside of examples: " (e.g., " of "GPUs (e.g., Blackwell)"."""
    words = [t for t in gap if not t.is_space]
    return len(words) > 1 and words[0].text == "(" and words[1].lower_ in _EXAMPLE_WORDS


def _opens_kinds(device: Span, target: Span) -> bool:
    """Whether an aside right after a device or platform opens on one of its label, a list of
    its kinds: "Linux (Ubuntu, SUSE Linux and Red Hat Linux) and Windows" supports all five."""
    return target.label_ in DEVICE_LABELS and target.label_ == device.label_ and \
        _words(target.doc[device.end:target.start]) == 1


def _words(gap: Span) -> int:
    """The tokens of a gap that are not spaces: masked markup ("of [TorchInductor](...)")
    leaves spaces that separate no words."""
    return sum(not token.is_space for token in gap)


def _glue(gap: Span) -> bool:
    """Whether the words between two names list them.

    ", ", " and ", "and through the managed", "or GPU using CUDA": not "module, brings", nor
    "and introduction of".
    """
    if _other_name(gap):
        return False  # "a variant of Muon (MuonClip)": another name of it, not a second
    words = _outside_parentheses(gap)
    examples = _examples_lead(words)
    other = [t for t in words if t.lower_ not in _LIST_GLUE and t.i not in examples]
    if any(t.pos_ == "NOUN" and t.i + 1 < len(t.doc) and t.nbor(1).lower_ in ("of", "for")
           for t in other):
        return False  # "CUDA 11.3 and introduction of CUDA 11.7": a phrase of its own
    return not other or (len(other) <= 3 and any(t.lower_ in _CONJUNCTIONS for t in words)
                         and not any(t.pos_ in ("VERB", "AUX") and t.dep_ != "amod"
                                     for t in other))


def _examples_lead(words: list[Token]) -> set[int]:
    """The words of a gap that lead the examples of a kind, and the owner of the name after
    it: in "Intel GPUs, as well as custom accelerators like Google's TPU" the list goes on."""
    lead = set()
    for k, token in enumerate(words):
        if token.lower_ in _EXAMPLE_WORDS:
            lead.add(token.i)
            kind = k - 1
            while kind >= 0 and words[kind].pos_ in ("ADJ", "NOUN") and k - kind <= 3:
                lead.add(words[kind].i)
                kind -= 1
        elif token.tag_ == "POS" and k == len(words) - 1 and k > 0 \
                and words[k - 1].pos_ == "PROPN":
            lead.update((token.i, words[k - 1].i))  # "Huawei's" of the next name
    return lead


def _bare_list(gap: Span) -> bool:
    """Whether the words between two names are list words only: ", ", " and "."""
    return all(t.is_space or t.lower_ in _LIST_GLUE for t in gap)


def _outside_parentheses(gap: Span) -> list[Token]:
    """The words of a gap but an aside in parentheses: "Linux (Ubuntu, SUSE Linux and Red Hat
    Linux) and Windows" lists two."""
    words, depth = [], 0
    for token in gap:
        depth += token.text == "("
        if depth == 0 and not token.is_space:
            words.append(token)
        depth -= token.text == ")" and depth > 0
    return words


def _owned(target: Span, inside: list[Span]) -> Span:
    """What a library or feature named as an owner owns, else the target.

    "PyTorch's newly introduced CrossEntropyLoss" and "PyTorch dispatch mechanism" name the
    feature, not PyTorch.
    """
    after = next((e for e in inside if e.start >= target.end), None)  # in the sentence
    if after is None or {target.label_, after.label_} - {"Library", "Feature"}:
        return target
    return after if _owner_of(target, after) else target


#: The labels a BASED_ON joins.
BASE_LABELS = ("Feature", "Library")


def _hyphen_based(base: Span, name: Span) -> bool:
    """Whether ``name`` follows ``base`` and "-based" right away: "FX-based Graph Mode
    Quantization"."""
    gap = base.doc[base.end:name.start]
    return base.label_ in BASE_LABELS and name.label_ in BASE_LABELS and [
        t.lower_ for t in gap] == ["-", "based"]


def _owner_of(owner: Span, owned: Span) -> bool:
    """Whether ``owner`` names what ``owned`` belongs to: "PyTorch/XLA FSDP", "PyTorch's new X".

    Only modifiers may stand between them, on one line: not "Meta's engineers adopted X"; nor
    is a name the owner's that a "+" joins to more names of a common noun ("TRT-LLM's fused
    AllReduce + Residual + RMSNorm kernel": the kernel is).
    """
    gap = owner.doc[owner.end:owned.start]
    words = [t for t in gap if not t.is_space]
    if "\n" in gap.text or len(words) > 3 or _joined_into_a_noun(owned):
        return False
    if words and words[0].text in _POSSESSIVE:
        words = words[1:]
    elif words:
        return False
    return all(t.pos_ in ("ADJ", "ADV", "") or (t.pos_ == "VERB" and t.dep_ == "amod")
               for t in words) and all(t.is_lower for t in words)


def _joined_into_a_noun(name: Span) -> bool:
    """Whether "+" joins ``name`` to more names that modify a common noun: "AllReduce +
    Residual + RMSNorm kernel" (not "Symmetric Memory + NCCL Device APIs", two names)."""
    doc, i = name.doc, name.end
    if i >= len(doc) or doc[i].text != "+":
        return False
    while i < len(doc) and (doc[i].text == "+" or not (doc[i].is_lower or doc[i].is_punct)):
        i += 1
    return i < len(doc) and doc[i].is_alpha and doc[i].is_lower and not doc[i].is_stop


def _side_by_side(left: Span, right: Span, between: str) -> bool:
    """Whether two names both modify one noun after them, neither the other: "rocSHMEM
    symmetric memory collectives" are symmetric memory's collectives on rocSHMEM. Not when
    the noun is a kind of software, which both name ("PyTorch tensor parallelism APIs"), nor
    when the first names the second's owner ("TorchRec DistributedModuleParallel behavior",
    "NumPy's np.fft module"). Needs the parse."""
    head = left.root.head
    return left.root.dep_ in ("amod", "compound", "nmod") and head.i >= right.end \
        and right.root.head.i == head.i and not between.lstrip().startswith(_POSSESSIVE) \
        and not _software_kind(head)


def _modifies_a_noun(name: Span, covered: set[int]) -> bool:
    """Whether a name only modifies a common noun that is no kind of software: "kernel fusion
    benefits", "the DataPipes pipeline" (not "the FSDP implementation"). Needs the parse."""
    head = name.root
    while head.dep_ == "compound" and head.head.i != head.i:  # "X label_smoothing parameter"
        head = head.head
    return head.i not in range(name.start, name.end) and head.i not in covered \
        and not _software_kind(head)


def _software_kind(noun: Token) -> bool:
    """Whether a noun is a kind of software or code: "API", "kernels", "class"."""
    kinds = _SOFTWARE_KINDS | _CODE_NOUNS
    return noun.lower_ in kinds or noun.lower_.removesuffix("s") in kinds


#: Nouns for what code a name is or has, and who works on it: "PyTorch's AveragedModel class",
#: "its CrossEntropyLoss label_smoothing parameter", "DeepSpeed's DeepCompile sub-framework",
#: "the DeepSpeed ZeRO team".
_CODE_NOUNS = {"class", "classes", "parameter", "argument", "option", "flag", "framework", "sub",
               "team"}


def _of_common_noun(trigger: Span, covered: set[int]) -> bool:
    """Whether the trigger is a participle said of a common noun, its own subject: in
    "... serialize tensors for models leveraging Microscaling quantization" the models
    leverage it, not the sentence's subject. Not a kind of software, which names the thing
    it is said of ("a toolkit based on PyTorch", "its original implementation"), but a support
    a common word says the kind of ("Inductor ordering support added by": not Inductor), nor
    a noun a name owns ("the rms_norm kernel using ...")."""
    verb = trigger.root
    noun = verb.head
    if verb.dep_ != "acl" or verb.tag_ not in ("VBG", "VBN") or noun.pos_ != "NOUN" \
            or noun.i in covered or noun.lower_ in _SOFTWARE_KINDS - {"support"}:
        return False
    if noun.lower_ == "support":
        before = noun.doc[noun.i - 1]
        return before.pos_ in ("NOUN", "VERB") and before.is_lower and before.i not in covered
    return not any(c.i in covered for c in _owners(noun))


def _owners(noun: Token) -> Iterator[Token]:
    """The words that say whose a noun is: "PyTorch's demo", "the rms_norm kernel", "a demo
    of PyTorch"."""
    for child in noun.children:
        if child.dep_ in ("poss", "compound"):
            yield child
        elif child.dep_ == "prep" and child.lower_ == "of":
            yield from (g for g in child.children if g.dep_ == "pobj")


def _opens_sentence(trigger: Span, sentence: Span) -> bool:
    """Whether the trigger stands in the sentence's opening phrase.

    "Based on X, Y ...", "Heavily inspired by X, Y ..." or "Through the joint collaboration
    of A and B, X ...". The words before the trigger are read only as far as that is decided.
    """
    count, first, adverbs = 0, None, True
    for t in trigger.doc[sentence.start:trigger.start]:
        if t.is_punct or t.is_space:
            continue
        count, first = count + 1, t if first is None else first
        adverbs = adverbs and t.pos_ == "ADV"
        if count > 3 and not adverbs:
            return False
    return count == 0 or (count <= 3 and first.lower_ in _OPENING_WORDS) or adverbs


_OPENING_WORDS = {"through", "in", "with", "thanks", "via", "by"}


def _opening_name(doc: Doc, inside: list[Span], rule: TriggerRule, comma: int) -> Span | None:
    """The name that opens the main clause after an opening phrase, its subject even where
    the parser misses it ("Originally developed by Meta, ExecuTorch simplifies ...", parsed
    as a compound of "simplifies"); not an owner ("..., PyTorch's X")."""
    at = next((t.i for t in doc[comma + 1:] if not (t.is_space or t.is_punct)), None)
    name = next((e for e in inside if e.start == at and e.label_ in rule.source_labels), None)
    if name is None or (name.end < len(doc) and doc[name.end].text in _POSSESSIVE):
        return None
    return name


def _closing_comma(trigger: Span, sentence: Span, index: _DocIndex) -> int:
    """Where the opening phrase of a trigger ends: its first comma not in an aside ("Supports
    Linux (Ubuntu, SUSE Linux and Red Hat Linux) and Windows 10/11."), else the sentence's
    end."""
    start = trigger.end
    while (comma := index.first(index.commas, start, sentence.end)) is not None:
        if not _in_aside(trigger.doc[trigger.end:comma]):
            return comma
        start = comma + 1
    return sentence.end


def _other_name(gap: Span) -> bool:
    """Whether a name after ``gap`` stands in an aside that is no list of examples: "Muon
    (MuonClip)", "Linux (Ubuntu, SUSE Linux ...", not "newer GPUs (e.g., Blackwell)"."""
    return _in_aside(gap) and not any(t.lower_ in _EXAMPLE_WORDS for t in gap)


_EXAMPLE_WORDS = {"e.g.", "e.g", "eg", "such", "including", "like", "incl."}
#: Participles that list on rather than open a clause: "including CUDA", "using CUDA".
_LISTING_WORDS = _EXAMPLE_WORDS | _CONJUNCTIONS


def _in_aside(before: Span) -> bool:
    """Whether the end of ``before`` is inside parentheses it opens."""
    depth = 0
    for token in before:
        depth = depth + (token.text == "(") - (token.text == ")" and depth > 0)
    return depth > 0


def _purpose(trigger: Span, sentence: Span) -> bool:
    """Whether the trigger stands in an opening purpose clause that a comma closes: "To
    enable GPU support, we suggest installing X" (X is the source)."""
    doc = trigger.doc
    words = [t for t in doc[sentence.start:trigger.start] if not (t.is_punct or t.is_space)]
    return len(words) >= 2 and words[0].lower_ == "to" and words[1].pos_ == "VERB" and not any(
        t.text == "," for t in words) and any(t.text == "," for t in doc[trigger.end:sentence.end])


def _said_of_a_noun(rule: TriggerRule, trigger: Span, index: _DocIndex) -> Token | None:
    """The common noun a sentence says the trigger of, when its subject is one: what "The
    prototype loss ... supports autograd, torchscript ... and can be run on CPU" says runs on
    CPU is the loss, not a name of its object list; what "Based on X, the new bindings allow
    ..." says is based on X are the bindings (an opening phrase, before its subject)."""
    opening = rule.side == "after" and trigger.root.dep_ in ("advcl", "prep")
    if not index.parsed or not (opening or (rule.label == "SUPPORTS"
                                            and rule.choose == "subject")):
        return None
    noun = _noun_subject(trigger, index.covered(index.sentence(trigger)))
    return None if noun is None or (opening and noun.i < trigger.start) else noun


def _owns(name: Span, noun: Token) -> bool:
    """Whether ``name`` stands before ``noun`` in its phrase: "TorchAudio's loss function"."""
    return any(name.start <= t.i < name.end for left in noun.lefts for t in left.subtree)


def _noun_subject(trigger: Span, covered: set[int]) -> Token | None:
    """The common noun that is the subject of the verb the trigger belongs to (or of the verb
    its own is joined to), if the subject is one: no name, no pronoun. Needs the parse."""
    verb = trigger.root
    while verb.dep_ in ("conj", "xcomp", "aux", "auxpass", "prep", "advmod", "pobj", "advcl") \
            and verb.head.i != verb.i:
        verb = verb.head
    subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    return subject if subject is not None and subject.pos_ == "NOUN" \
        and subject.i not in covered else None


def _instrument(name: Span) -> bool:
    """Whether a name is what something else is made with: in "implementations of datasets
    with DataPipes in TorchVision" the datasets are TorchVision's, not DataPipes; what "FP8
    inputs are supported through hipSPARSELt on MI350X" runs there are the inputs."""
    root = name.root
    return root.dep_ == "pobj" and root.head.lower_ in ("with", "using", "via", "through")


def _is_subject(token: Token) -> bool:
    """Whether a name's head word is a subject, or names one in apposition: "Graph mode
    (torch.compile) now has ...", or names the team that is: "The ExecuTorch team released"."""
    return token.dep_ in ("nsubj", "nsubjpass") or (
        token.dep_ == "appos" and token.head.dep_ in ("nsubj", "nsubjpass")) or _names_team(token)


def _names_team(token: Token) -> bool:
    """Whether a name's head word names the team that is its sentence's subject."""
    return token.dep_ == "compound" and token.head.lower_ in _TEAMS \
        and token.head.dep_ in ("nsubj", "nsubjpass")


def _team_of(name: Span) -> bool:
    """Whether a library names the team that is its sentence's subject, who made what the
    sentence says with others: "The ExecuTorch team released their alpha in collaboration with
    partners from Arm" (not PyTorch's team: every core change would be PyTorch's)."""
    return name.id_ != CORE_LIBRARY and _names_team(name.root)


_TEAMS = {"team", "teams"}
#: What makes a name an owner: "PyTorch's", "NumPy’s".
_POSSESSIVE = ("'s", "’s")


def _subject(spans: list[Span], trigger: Span | None = None) -> Span | None:
    """The candidate the parser made a subject of the sentence, if any; with ``trigger``, not
    the subject of a clause after the trigger that does not hold it ("models using MX
    quantization could not be exported because torch.export.save did not handle ...": not
    torch.export.save)."""
    return next((s for s in spans if _is_subject(s.root) and (
        trigger is None or s.start < trigger.start
        or s.root.head.is_ancestor(trigger.root) or s.root.head == trigger.root)), None)



#: Words before a deprecated thing's name that are not part of it: "its official Anaconda channel".
_NOT_OF_NAME = {"official", "new", "old", "older", "current", "existing", "historic", "custom",
                "previous", "all", "some", "any", "other", "such"}
#: Heads of objects that name no one thing: "we deprecated support", "is deprecated for them".
_NO_THING = {"support", "feature", "features", "version", "versions", "release", "releases",
             "use", "usage", "api", "apis", "it", "this", "that", "them", "these", "those",
             "process", "way", "ways", "option", "options", "functionality"}


def _ends_nothing(target: Span) -> bool:
    """Whether a deprecation's target names no one thing that ends: PyTorch's own releases
    ("deprecated in 2.10" says when), an owner ("TorchText's custom data abstractions"), a
    kind of versions ("older CUDA versions")."""
    if target.id_ == CORE_LIBRARY or target.id_.startswith(CORE_LIBRARY + " "):
        return True
    after = target.doc[target.end].lower_ if target.end < len(target.doc) else ""
    return after in (*_POSSESSIVE, "versions", "releases")


def _with_kind(target: Span) -> Span:
    """What ends is the thing of the kind the name is followed by: "the (now deprecated)
    torch.fft function" ends the function, not the torch.fft module of the same name."""
    doc = target.doc
    kind = doc[target.end] if target.end < len(doc) else None
    if kind is None or target.label_ != "Feature" or kind.lower_ not in _API_KINDS:
        return target
    return Span(doc, target.start, target.end + 1, label=target.label_,
                span_id=f"{target.id_} {kind.lower_}")


#: Kinds of API a name may be followed by, each a thing of its own: "the torch.fft function".
_API_KINDS = {"function", "class", "method"}


def _ended_objects(trigger: Span) -> list[Span]:
    """What a deprecation that names no known thing ends, by its grammar: the object of "we
    deprecated LC2CL and BLC2CBL", the subject of "the volatile flag is now deprecated", what
    "the deprecation of" names; "custom data abstractions such as Field" ends Field. Features,
    unless the parse is missing (a blank pipeline reads none)."""
    heads: list[Token] = []
    for token in trigger:
        if token.pos_ == "VERB":
            heads += [c for c in token.children if c.dep_ in ("dobj", "nsubjpass")]
        elif token.pos_ == "NOUN":
            heads += [g for c in token.children if c.dep_ == "prep" and c.lower_ in ("of", "for")
                      for g in c.children if g.dep_ == "pobj"]
    nouns = [n for head in heads for n in (head, *head.conjuncts)]
    supported = trigger[-1].lower_ in ("support", "supports")
    named = []
    for noun in nouns:
        examples = [g for c in noun.children if c.dep_ == "prep" and c.lower_ == "as"
                    for g in c.children if g.dep_ == "pobj"]  # "such as Field"
        for name in [n for e in examples for n in (e, *e.conjuncts)] or [noun]:
            span = _name_phrase(name, supported)
            if span is not None:
                named.append(span)
    return named


def _name_phrase(noun: Token, supported: bool = False) -> Span | None:
    """The name a noun heads: it and the compounds and modifiers right before it; a common
    noun alone names none. What ends when a thing is ``supported`` no longer is its support:
    "no longer supports file-like objects" ends "file-like object support"."""
    if noun.pos_ not in ("NOUN", "PROPN", "X") or noun.lower_ in _NO_THING:
        return None
    modifiers = {t.i for c in noun.lefts if c.dep_ in ("compound", "amod", "nmod")
                 and c.lower_ not in _NOT_OF_NAME for t in c.subtree}  # "file-like objects"
    start = noun.i
    while start > 0 and (start - 1 in modifiers or noun.doc[start - 1].is_space):
        start -= 1
    while noun.doc[start].is_space:
        start += 1
    span = noun.doc[start:noun.i + 1]
    if len([t for t in span if not t.is_space]) == 1 and noun.pos_ == "NOUN" and noun.is_lower:
        return None  # "removing the deprecated backends": a kind, not one thing
    name = re.sub(r"\s*-\s*", "-", " ".join(span.text.split())).strip(".")
    if supported and noun.pos_ == "NOUN" and noun.is_lower:
        plural = noun.tag_ == "NNS" and noun.lower_.endswith("s") and not noun.lower_.endswith("ss")
        name = f"{name[:-1] if plural else name} support"
    label = _HEAD_LABELS.get(noun.lower_, "Feature")
    return Span(noun.doc, start, noun.i + 1, label=label, span_id=name) if name else None


#: Heads of a name that say its label: the "Anaconda channel" is a platform.
_HEAD_LABELS = {"channel": "Platform", "channels": "Platform", "platform": "Platform"}


def _targets(rule: TriggerRule, trigger: Span, targets: list[Span], clause_end: int,
             inside: list[Span], index: _DocIndex) -> list[Span]:
    """The targets a trigger governs, by where the rule says they stand (``targets``)."""
    left = [e for e in targets if e.end <= trigger.start]
    if rule.targets == "before":  # "acknowledge X, Y and Z as influences"
        return left
    if rule.targets == "last_before":  # "MAGMA was deprecated in favor of cuSolver"
        return _listed_before(trigger, left, adjacent=False)
    if rule.targets == "modified":  # "CUDA 11 and Windows CUDA support"
        return _listed_before(trigger, left, adjacent=True, bare=True)
    lead = 0 if rule.adjacent else MAX_LEAD
    right = _listed(trigger, [e for e in targets if e.end <= clause_end], lead, inside) \
        or _colon_list(rule, trigger, targets, inside, index)
    if right or not rule.may_precede:
        return right
    return _listed_before(trigger, left, rule.adjacent)


def _colon_list(rule: TriggerRule, trigger: Span, targets: list[Span], inside: list[Span],
                index: _DocIndex) -> list[Span]:
    """The names a colon lists after the trigger's object when that object is a kind of thing,
    plural ("relies on several TLX primitives that go beyond base Triton: tlx.async_dot for
    ...; tlx.local_trans for ...; and the mBarrier synchronization model"): the name that opens
    each item of the list, its items parted by semicolons, else by list words; a colon that
    ends the line leads the lines after it ("Inductor uses other forms of vertical fusion ...:",
    then "**Reduction Fusion**: Combines ...")."""
    doc = trigger.doc
    sentence = index.sentence(trigger)
    colon = index.colon_after(trigger.end)
    if colon is None or colon.i >= sentence.end:
        return []
    lead = [t for t in doc[trigger.end:colon.i] if not t.is_space]
    verb = next((i for i, t in enumerate(lead) if t.pos_ in ("VERB", "AUX")), len(lead))
    if not any(t.tag_ == "NNS" for t in lead[:verb]) or any(
            e.start < colon.i < e.end for e in inside):
        return []  # "uses two powerful paradigms:", not "uses the API:" or a name's colon
    after = [e for e in targets if e.start > colon.i and e.end <= sentence.end]
    if not after and colon.i + 1 < len(doc) and "\n" in doc[colon.i + 1].text_with_ws + \
            colon.whitespace_:  # the colon ends its line
        return _line_openers(index.doc_text, colon,
                             [e for e in index.entities if e.label_ in rule.target])
    items = [colon.i, *(t.i for t in doc[colon.i + 1:sentence.end] if t.text == ";")]
    if len(items) == 1:
        return _listed(doc[colon.i:colon.i + 1], after, 1, inside)
    openers = [next((e for e in after if e.start > at and _words(doc[at + 1:e.start]) <= 3),
                    None) for at in items]
    return [e for e in dict.fromkeys(openers) if e is not None]


def _line_openers(text: str, colon: Token, names: list[Span]) -> list[Span]:
    """The names in the terms that open the lines after a line-ending colon, each term ended by
    its own colon ("Reduction Fusion: Combines ...", "GEMM + Epilogue Fusion: Attaches ..."), up
    to the first line that is no such item. ``text`` is the doc's."""
    found = []
    for line in _LINE.finditer(text, colon.idx + 1):
        if not line.group(0).strip():
            continue
        term = _ITEM_TERM.match(line.group(0))
        if term is None:
            break
        found.extend(next(([e] for e in names if line.start() <= e.start_char
                           and e.end_char <= line.start() + term.end(1)), []))
    return found


def _through_line(sentence: Span, target: Span, text: str) -> Span:
    """A list's lead sentence through the end of the later line that names the target
    (``text`` is the doc's)."""
    doc = target.doc
    end = text.find("\n", target.end_char)
    last = doc.char_span(target.start_char, len(text) if end < 0 else end,
                         alignment_mode="contract")
    return doc[sentence.start:last.end if last is not None else target.end]


_LINE = re.compile(r"[^\n]+")
#: The term a line of a definition list opens with: "**Reduction Fusion**: ...".
_ITEM_TERM = re.compile(r"\W{0,4}(\w[^:\n]{0,50}?)[\s*_`]*:\s")


def _unmodified(noun: Token) -> bool:
    """Whether the names before a trigger do not say whose it is: the trigger is a verb
    ("NVIDIA GPUs support FP8"), or an owner has it ("PyTorch's GPU support")."""
    return noun.pos_ == "VERB" or any(child.dep_ == "poss" for child in noun.children)


def _listed_before(trigger: Span, left: list[Span], adjacent: bool,
                   bare: bool = False) -> list[Span]:
    """The last of the names ``left`` of the trigger, right before it when ``adjacent``, and
    the names listed with it: "4.3, 4.2 and 4.1 are dropped"; when ``bare``, listed by list
    words only ("CPU inductor improvements, AVX512 support" lists AVX512 alone)."""
    if not left or (adjacent and _words(trigger.doc[left[-1].end:trigger.start])):
        return []
    listed = left[-1:]
    for before in reversed(left[:-1]):
        gap = trigger.doc[before.end:listed[0].start]
        if not (_bare_list(gap) if bare else _glue(gap)):
            break
        listed.insert(0, before)
    return listed


def _named_after(target: Span, candidates: list[Span]) -> Span | None:
    """The name in parentheses right after a target, which names what the trigger says of it:
    "a variant of Muon (MuonClip)" is MuonClip."""
    doc = target.doc
    if target.end >= len(doc) or doc[target.end].text != "(":
        return None
    return next((s for s in candidates if s.start == target.end + 1 and s.end < len(doc)
                 and doc[s.end].text == ")"), None)


def _sources(rule: TriggerRule, trigger: Span, candidates: list[Span], clause: Span,
             index: _DocIndex) -> tuple[list[Span | None], bool]:
    """The sources of a relation and whether the source refers back ("it", "the project").

    None stands for a source the sentence leaves to the post (its section or release).
    """
    if rule.choose == "listed_after":  # "PyTorch components such as ATen or c10d"
        return [s for s in candidates if trigger.end <= s.start and s.end <= clause.end], False
    within = [s for s in candidates if trigger.start <= s.start and s.end <= trigger.end]
    if rule.choose == "in_trigger" and within:  # "upstreamed torch.compile into PyTorch/XLA"
        return within[-1:], False
    subject = _subject(candidates, trigger) if rule.choose in (
        "subject", "subject_only", "named_after") else None
    if subject is not None and not (subject.start > trigger.end and _refers_back(
            clause, trigger, candidates, index)):
        return [subject], False
    run = next((s for s in within if index.parsed and s.root.dep_ == "dobj"
                and s.root.head.i == trigger.start), None) if subject is None else None
    if run is not None:  # "years of running PyTorch at scale ... on Alibaba Cloud"
        return [run], False
    noun = _said_of_a_noun(rule, trigger, index)
    if noun is not None:  # the noun, left to the post, or the names that own it ("The
        return [s for s in candidates if _owns(s, noun)] or [None], False  # A / B APIs")
    if rule.implied == "refers_back" and not candidates and _said_by_people(trigger, clause,
                                                                             index):
        return [], False  # "we depend on X": the authors do, not the post's library
    if _refers_back(clause, trigger, candidates, index) or (
            rule.implied == "refers_back" and not candidates):
        return [None], True
    opening = [s for s in candidates if s.end <= trigger.start] if _subordinate(
        clause, trigger) else []
    if opening:  # "As FlexAttention leverages torch.compile, it can ...": the parser missed it
        return opening[:1], False
    if rule.choose == "subject_only":  # "engineers from NVIDIA helped": with whom is not said
        made = _made_by_subject(trigger, candidates)
        return ([made], False) if made is not None else ([], False)
    source = _nearest(trigger, [s for s in candidates if not _in_other_clause(s, trigger)],
                      rule.side == "after")
    if source is None and rule.implied == "not_people" and _personal_subject(clause, index):
        return [], False  # "We use X": the authors do, not the post's feature
    return [source], False


#: What people of a company do to what they made: "developers at NVIDIA moved ... as AMP".
_MAKING_VERBS = {"built", "build", "created", "create", "developed", "develop", "contributed",
                 "contribute", "added", "implemented", "designed", "wrote", "upstreamed",
                 "ported", "released", "open-sourced", "launched", "introduced", "moved"}


def _made_by_subject(trigger: Span, candidates: list[Span]) -> Span | None:
    """What the people the trigger names made, when they are the subject of a verb of making:
    the first name after the verb that is said of it ("developers at NVIDIA and Facebook moved
    mixed precision functionality into PyTorch core as the AMP package": AMP)."""
    people = trigger.root
    verb = people.head
    if people.dep_ != "nsubj" or verb.pos_ not in ("VERB", "AUX"):
        return None
    verb = next((c for c in verb.children if c.dep_ == "xcomp"), verb)  # "wanted to build"
    if verb.lower_ not in _MAKING_VERBS:  # the pipeline has no lemmatizer
        return None
    covered = {i for s in candidates for i in range(s.start, s.end)}
    return next((s for s in candidates if s.start > verb.i and not _modifier(s, covered)
                 and any(t.i == verb.i for t in s.root.ancestors)), None)


def _modifier(span: Span, covered: set[int]) -> bool:
    """Whether a name only modifies a common noun: "PyTorch training", "the PyTorch team".

    ``covered`` holds the tokens of the sentence's entities.
    """
    root = span.root
    return root.dep_ == "compound" and span.label_ == "Library" and root.head.i not in covered


_ANAPHOR_NOUNS = {"feature", "project", "library", "package", "extension", "module", "framework",
                  "work", "kernel"}


#: Nouns for what a library or feature is: "a toolkit based on PyTorch" is the toolkit named.
_SOFTWARE_KINDS = _ANAPHOR_NOUNS | {
    "toolkit", "tool", "mechanism", "system", "interface", "api", "solver", "stack", "compiler",
    "backend", "runtime", "engine", "platform", "implementation", "kernel", "operator",
    "function", "method", "version", "support", "layer", "architecture"}
_PEOPLE = {"we", "you", "i", "they", "users"}
_AUTHORS = {"we", "i"}  # of _PEOPLE, the post's own writers


def _first_subject(clause: Span, index: _DocIndex) -> Token | None:
    found = index.first(index.subjects, clause.start, clause.end)
    return None if found is None else clause.doc[found]


def _said_by_people(trigger: Span, clause: Span, index: _DocIndex) -> bool:
    """Whether the trigger's own subject, the last before it, is the authors: "we depend on
    X" (not "you can try it", where "it" refers back)."""
    found = index.last(index.subjects, clause.start, trigger.start)
    return found is not None and clause.doc[found].lower_ in _AUTHORS


def _personal_subject(clause: Span, index: _DocIndex) -> bool:
    subject = _first_subject(clause, index)
    return subject is not None and subject.lower_ in _PEOPLE


def _refers_back(clause: Span, trigger: Span, candidates: list[Span],
                 index: _DocIndex) -> bool:
    """Whether the source is the clause's subject "it", "this feature" or "the project".

    Not when a name stands between that subject and the trigger: in "It brings TorchData,
    which is built on TorchVision", TorchData is built on TorchVision; nor when the trigger
    stands in an opening subordinate clause with a name: in "As FlexAttention leverages
    torch.compile, it can ...", FlexAttention does.
    """
    subject = _first_subject(clause, index)
    after = subject is not None and subject.i > trigger.start and _subordinate(clause, trigger)
    if subject is None or any((after or subject.i < s.start) and s.end <= trigger.start
                              for s in candidates):
        return False
    lefts = [t.lower_ for t in subject.lefts]
    return subject.lower_ == "it" or (subject.lower_ == "this" and subject.dep_ == "nsubjpass") or (
        subject.lower_ in _ANAPHOR_NOUNS and lefts in (["this"], ["the"]))


def _subordinate(clause: Span, trigger: Span) -> bool:
    """Whether the trigger stands in a clause that opens the sentence with a subordinating
    word: "As FlexAttention leverages torch.compile, it can ..." (its subject is before it)."""
    words = [t for t in clause.doc[clause.start:trigger.start] if not t.is_space]
    return bool(words) and words[0].lower_ in _SUBORDINATORS and not any(
        t.text in (",", ";", ":", "–", "—") for t in words)  # not "Because ..., you can use X"


_SUBORDINATORS = {"as", "while", "since", "because", "when", "whereas", "although", "though",
                  "if", "once"}


def _names_part(span: Span, covered: set[int]) -> bool:
    """Whether a name only says whose a common noun is: "the autograd metaclass", not "the
    MAGMA backend"."""
    root = span.root
    head = root.head
    return root.dep_ == "compound" and head.i not in covered and head.pos_ in ("NOUN", "PROPN") \
        and head.lower_ not in _SOFTWARE_KINDS  # "the legacy MAGMA backend" is MAGMA


def _cut(span: Span) -> bool:
    """Whether a name is the start of a longer word: "pytorch" of "pytorch-pretrained-bert"."""
    doc = span.doc
    return span.end < len(doc) and not span[-1].whitespace_ and (
        doc[span.end].text in ("-", "_") or doc[span.end].is_alpha)


def _in_other_clause(span: Span, trigger: Span) -> bool:
    """Whether a name stands in a relative clause that does not hold the trigger: in "The new
    backend, which utilizes FBGEMM and oneDNN, replaces FBGEMM", oneDNN replaces nothing."""
    clause = next((t for t in span.root.ancestors if t.dep_ == "relcl"), None)
    return clause is not None and any(c.tag_ in ("WDT", "WP") for c in clause.children) \
        and clause != trigger.root and not clause.is_ancestor(trigger.root)


def _nearest(trigger: Span, spans: list[Span], after: bool) -> Span | None:
    """The source closest before the trigger.

    With ``after`` (rules like "as a backend for X") the source after the trigger comes first.
    """
    before = [s for s in spans if s.end <= trigger.start]
    later = [s for s in spans if s.start >= trigger.end]
    if after and later:
        return later[0]
    return before[-1] if before else None


#: Between a library and a company: "the Helion team at Meta", "development team from".
_TEAM_AT = re.compile(r"\s*(?:(?:development|engineering|core)\s+)?teams?\s+(?:at|from)\s*",
                      re.I)


#: Between a library or feature and its company: "systems like PDLP at Google".
_AT = re.compile(r"\s*at\s*")


def _names_its_maker(company: Span) -> bool:
    """Whether a company after "at" ends its phrase, so that it is where the name was made:
    "DuaLip at LinkedIn", "PDLP at Google and ...", not "torch.compile at Meta scale"."""
    doc = company.doc
    return company.end >= len(doc) or not (doc[company.end].is_alpha
                                           and doc[company.end].is_lower) or doc[
        company.end].lower_ in ("and", "or")


def _companies_listed(after: list[Span]) -> list[Span]:
    """The companies that open ``after`` and those listed with them: "Google, Meta, and"."""
    listed: list[Span] = []
    for span in after:
        if span.label_ != "Organization" or listed and not _bare_list(
                span.doc[listed[-1].end:span.start]):
            break
        listed.append(span)
    return listed


def _compounds(doc: Doc, entities: list[Span], index: _DocIndex) -> Iterator[Relation]:
    """Names side by side.

    ``PyTorch/XLA FSDP`` or ``PyTorch's new FSDP``: the feature is part of the library;
    ``Microsoft DeepSpeed`` or ``Nvidia's cuRAND``: the organization develops it, but not
    PyTorch: a company's "PyTorch" is its build ("NVIDIA PyTorch"), team or work on it;
    ``FX-based Graph Mode Quantization``: the feature is based on FX; ``the Helion team at
    Meta``: the companies a library's team is at develop it (not PyTorch's, as above), as
    ``DuaLip at LinkedIn`` says of a library or feature.
    """
    for at, (left, right) in enumerate(zip(entities, entities[1:], strict=False)):
        if _hyphen_based(left, right):
            yield Relation("BASED_ON", right, left, CODE_RULES["based_on.hyphen_based"].id,
                           index.sentence(left))
        between = index.text(left.end, right.start)
        if left.label_ in ("Library", "Feature") and left.id_ != CORE_LIBRARY and (
                _TEAM_AT.fullmatch(between) and left.label_ == "Library"
                or _AT.fullmatch(between) and _names_its_maker(right)):
            for company in _companies_listed(entities[at + 1:]):
                yield Relation("DEVELOPED_BY", left, company,
                               CODE_RULES["developed_by.team_at"].id, index.sentence(left))
        if not _owner_of(left, right):
            continue
        if left.label_ == "Library" and right.label_ == "Feature" and not _modifies_a_noun(
                right, index.covered(index.sentence(right))) and not _side_by_side(
                left, right, between):  # "Triton kernel fusion benefits" are benefits:
            # the words name no part of Triton
            yield Relation("PART_OF", right, left, CODE_RULES["part_of.compound"].id,
                           index.sentence(left))
        elif left.label_ == "Organization" and right.label_ in ("Library", "Feature") and \
                right.id_ != CORE_LIBRARY:  # a company's PyTorch is its build, team or work on
            # it: "NVIDIA PyTorch with native AMP", "Intel PyTorch team", "Huawei's PyTorch
            # contributions"
            yield Relation("DEVELOPED_BY", right, left, CODE_RULES["developed_by.compound"].id,
                           index.sentence(left))
