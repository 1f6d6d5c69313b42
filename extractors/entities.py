"""The entity finder: the alias pack and the naming rules that generalize beyond it.

:class:`EntityFinder` (the ``ptkg_entities`` component) matches the alias pack
(``patterns/entities.jsonl``, the EntityRuler format with the canonical name as ``id``) and rules
that generalize: releases ("PyTorch v1.12", "the 1.12 release"), ``torch.*`` API names,
``torch*`` library names, CamelCase API names, vendor hardware products, "<Name>
library/backend". It writes ``doc.spans["ptkg"]`` (label = entity label, ``id_`` = canonical
name), ``doc.spans["ptkg_inner"]`` (hardware and platforms a feature's name holds: "Android GPU
backend") and ``doc.spans["ptkg_stability"]`` (stability markers, labelled with their word).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import srsly
from spacy.language import Language
from spacy.matcher import Matcher, PhraseMatcher
from spacy.tokens import Doc, Span

from ptkg.extractors.patterns import ENTITY_PATTERNS, pattern_surface, read_patterns
from ptkg.extractors.rules import check_token_pattern
from ptkg.extractors.stability import MARKER

# Candidates of higher priority win overlaps: releases, then the pack and API names, then guesses.
PRIORITY = {"release": 0, "pack": 1, "api": 1, "library": 2, "named": 3}


_API = re.compile(r"(?<![\w.])[Tt]orch(?:\.[A-Za-z_]\w*)+")


_TORCH_LIBRARY = re.compile(r"(?<![\w./-])[Tt]orch(?!script\b)[a-z_][A-Za-z_]*\b(?!\.\w|\()")


_VERSION = r"v?(?P<version>\d{1,2}\.\d{1,2}(?:\.\d{1,2})?)(?!\d|\.\d|x\b|%)"


_BARE_RELEASE = re.compile(
    r"\b(?:(?:[Tt]he\s+(?:upcoming\s+)?)" + _VERSION + r"\s+release\b"
    r"|(?:[Ii]n|[Ss]tarting in|[Aa]long with|[Ss]ince)\s+"
    + _VERSION.replace("version", "version2") + r"(?=[,.]\s))"
)


_NAMED = re.compile(
    r"\b(?P<name>(?:[A-Z][\w+/.-]*[A-Za-z0-9+]|[a-z]+[A-Z]\w*)(?:\s+[A-Z][\w+/.-]*[A-Za-z0-9+]){0,2})"
    r"\s+(?P<kind>library|backend)\b"
)


_CAMEL = re.compile(
    r"(?<![\w./:-])(?=[A-Za-z]*[a-z][A-Z])[A-Z][A-Za-z]*[a-z][A-Z][A-Za-z0-9]*(?:-\d+)?\b"
    r"(?![.(/-])"
)


_DOTTED_API = re.compile(r"(?<![\w.])(?:nn|np|F|c10|at)(?:\.|::)[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


# CamelCase words that are not features: sites, products of other fields.
_NOT_FEATURES = {"GitHub", "YouTube", "LinkedIn", "JavaScript", "TypeScript", "PyPI", "iPhone",
                 "iPad", "MacBook", "PowerPoint", "WordPress", "DevOps", "FairScale", "PhD",
                 "McKinsey", "OpenAI", "MLPerf", "ImageNet", "LibriSpeech", "CheckList",
                 "NeurIPS"}


# A vendor's product: "Intel Data Center GPU Max Series", "Intel Arc GPUs", "AMD Instinct GPU".
_HARDWARE_PRODUCT = re.compile(
    r"\b(?:Intel|AMD|NVIDIA|Nvidia|Apple|Arm|Qualcomm|Google|AWS|Samsung)[®™]?"
    r"(?:[ \t]+[A-Z0-9][\w®™+-]*){1,4}[ \t]+(?P<device>GPU|CPU|NPU|TPU|Processor|Accelerator)s?"
    r"(?:[ \t]+(?:Max[ \t]+)?Series)?\b")


_DATASET = re.compile(r"\bdatasets?\b", re.I)


_LOWER_WORD = re.compile(r"(?<![\w-])(?!and\b)[a-z]{3,}\b")  # a word of a sentence


_WORD = re.compile(r"\W+")


_NOT_NAMES = {"The", "This", "That", "These", "Our", "New", "Python", "C++", "A", "An", "Its",
              "Their", "Each", "Any", "Native", "Default", "Standard", "Core", "Open", "Domain"}


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
        self.kinds: dict[str, str] = {}  # Hardware canonical name -> kind
        self.labels: dict[str, str] = {}  # canonical name -> label
        self._release: re.Pattern | None = None
        self._device_backend: re.Pattern | None = None

    def initialize(self, get_examples: Callable | None = None, *, nlp: Language | None = None,
                   patterns: Iterable[dict] | None = None) -> None:
        """Load ``patterns`` (default: the packaged alias pack)."""
        self.add_patterns(read_patterns(ENTITY_PATTERNS, check_token_pattern)
                          if patterns is None else patterns)

    def add_patterns(self, patterns: Iterable[dict]) -> None:
        self.patterns.extend(patterns)
        self._reset()
        surfaces: dict[str, list[str]] = defaultdict(list)
        for record in self.patterns:
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
            surfaces[label].append(surface)
            if label == "Library":
                self.library_names[surface.lower()] = canonical
            if label == "Hardware":
                self.kinds[canonical] = record.get("kind", "device")
        self._device_backend = re.compile(
            rf"(?<![\w-])(?:{_alternatives(surfaces['Platform'])})[ \t]+"
            rf"(?:{_alternatives(surfaces['Hardware'])})[ \t]+back[- ]?end\b", re.I)
        names = sorted(self.library_names, key=lambda s: (-len(s), s))
        libraries = "|".join(re.escape(n) for n in names) + r"|torch[a-z_]\w*"
        self._release = re.compile(
            r"(?<![\w/])(?P<library>" + libraries + r")(?:\s+(?:version|release))?\s+" + _VERSION,
            re.I,
        )

    def __call__(self, doc: Doc) -> Doc:
        text = doc.text  # spaCy joins the tokens again on every ``Doc.text``
        candidates = list(self._pack_matches(doc)) + list(self._rule_matches(doc, text))
        chosen = _select(candidates)
        doc.spans["ptkg"] = chosen
        doc.spans["ptkg_inner"] = _inner_devices(candidates, chosen)
        doc.spans["ptkg_stability"] = [  # labelled with the word: its level depends on the date
            span for m in MARKER.finditer(text)
            if (span := _char_span(doc, m.start(), m.end(), m.group(1).lower()))
        ]
        return doc

    def _pack_matches(self, doc: Doc) -> Iterator[tuple]:
        matches = [m for matcher in (self.phrases, self.exact, self.tokens) if len(matcher)
                   for m in matcher(doc)]
        for match_id, start, end in matches:
            label, canonical = self.nlp.vocab.strings[match_id].split("\t")
            yield PRIORITY["pack"], Span(doc, start, end, label=label, span_id=canonical)

    def _rule_matches(self, doc: Doc, text: str) -> Iterator[tuple]:
        for m in self._release.finditer(text):
            library = self.library_names.get(m.group("library").lower(), m.group("library"))
            yield self._candidate(doc, m, "release", "Release",
                                  f"{library} {_short_version(m.group('version'))}")
        for m in _BARE_RELEASE.finditer(text):
            # "the 1.12 release" names the release; in "In 1.8," only the number does.
            group = 0 if m.group("version") else "version2"
            version = _short_version(m.group("version") or m.group("version2"))
            yield self._candidate(doc, m, "release", "Release", f"PyTorch {version}", group)
        for m in _API.finditer(text):
            name = "torch" + m.group(0)[5:]
            yield self._candidate(doc, m, "api", self.labels.get(name, "Feature"), name)
        for m in _TORCH_LIBRARY.finditer(text):
            name = self.library_names.get(m.group(0).lower(), m.group(0))
            yield self._candidate(doc, m, "library", self.labels.get(name, "Library"), name)
        in_datasets = _DatasetLines(text)
        for m in _CAMEL.finditer(text):
            if m.group(0) not in _NOT_FEATURES and not in_datasets(m.start()):
                yield self._candidate(doc, m, "named", "Feature", m.group(0))
        for m in _DOTTED_API.finditer(text):
            yield self._candidate(doc, m, "api", "Feature", m.group(0))
        for m in _HARDWARE_PRODUCT.finditer(text):
            name = re.sub(r"[®™]", "", m.group(0))
            name = re.sub(rf"\b({m.group('device')})s\b", r"\1", " ".join(name.split()))
            yield self._candidate(doc, m, "api", "Hardware", name)
        for m in self._device_backend.finditer(text):  # "Android GPU backend": a feature
            yield self._candidate(doc, m, "api", "Feature", " ".join(m.group(0).split()))
        for m in _NAMED.finditer(text):
            name = m.group("name")
            if name.split()[0] in _NOT_NAMES:
                continue
            label = "Library" if m.group("kind") == "library" else "Hardware"
            yield self._candidate(doc, m, "named", label, name, group="name")

    def _candidate(self, doc: Doc, m: re.Match, rule: str, label: str, name: str,
                   group: int | str = 0) -> tuple:
        span = _char_span(doc, m.start(group), m.end(group), label, name)
        if span is not None and _WORD.sub("", span.text) != _WORD.sub("", m.group(group)):
            span = None  # the match is part of a longer word ("torch.compile'd")
        return PRIORITY[rule], span

    def to_disk(self, path, *, exclude=()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        srsly.write_jsonl(path / "patterns.jsonl", self.patterns)

    def from_disk(self, path, *, exclude=()) -> EntityFinder:
        self.patterns = []
        self.add_patterns(read_patterns(Path(path) / "patterns.jsonl", check_token_pattern))
        return self


def _alternatives(surfaces: list[str]) -> str:
    """A regex alternation of ``surfaces``, longest first (none: one that never matches)."""
    ordered = sorted(set(surfaces), key=lambda s: (-len(s), s))
    return "|".join(re.escape(s) for s in ordered) or "(?!)"


def _short_version(version: str) -> str:
    """ "1.4.0" names the same release as "1.4"; "1.4.1" does not."""
    return re.sub(r"^(\d+\.\d+)\.0$", r"\1", version)


def _line_at(text: str, offset: int) -> str:
    """The line of ``text`` that holds ``offset``."""
    return text[text.rfind("\n", 0, offset) + 1:text.find("\n", offset) % (len(text) + 1)]


def _list_context(text: str, offset: int, limit: int = 30) -> str:
    """The line that holds ``offset``, and the lines up to its list's introduction.

    For a list item of names only: "The text datasets listed below ...:" above "* PennTreebank".
    List items start with spaces: ``mask_markup`` blanked their bullets.
    """
    start = text.rfind("\n", 0, offset) + 1
    lines = [_line_at(text, offset)]
    if _LOWER_WORD.search(lines[0].rpartition(":")[2]):
        return lines[0]  # "* Added aligned flag to RoIAlign": a sentence, not a list of names
    while start > 0 and len(lines) < limit and (lines[-1][:1].isspace() or not lines[-1]):
        end = start - 1
        start = text.rfind("\n", 0, end) + 1
        lines.append(text[start:end])
    return "\n".join(lines)


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


def _inner_devices(candidates: Iterable[tuple], chosen: list[Span]) -> list[Span]:
    """Hardware and platforms named inside a chosen feature ("Android GPU backend")."""
    inside_feature = _within(s for s in chosen if s.label_ == "Feature")
    return _select((priority, c) for priority, c in candidates
                   if c is not None and c.label_ in ("Hardware", "Platform")
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


def _select(candidates: Iterable[tuple]) -> list[Span]:
    """Keep the best non-overlapping spans: by priority, then length, then position."""
    ranked = sorted((c for c in candidates if c[1] is not None),
                    key=lambda c: (c[0], -len(c[1]), c[1].start))
    taken: set[int] = set()
    chosen = []
    for _, span in ranked:
        if taken.isdisjoint(range(span.start, span.end)):
            chosen.append(span)
            taken.update(range(span.start, span.end))
    return sorted(chosen, key=lambda s: (s.start, s.end))
