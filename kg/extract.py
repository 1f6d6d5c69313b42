"""From one post and its spaCy ``Doc`` to plain facts: mentions and relations with evidence.

The spaCy components (``ptkg.extractors``) find entities, stability markers and sentence
relations. This module adds what needs the whole post: which release the post is about, the
feature headings of a release post and the stability each states, library releases listed in a
post about a core release, and the implied source of a sentence relation ("we have added
support for ROCm" in the PyTorch 1.8 post).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from spacy.tokens import Doc, Span

from .records import Post
from .text import Line

CORE_LIBRARY = "PyTorch"
_ANNOUNCE = re.compile(
    r"\b(announc\w*|releas\w*|availab\w*|introduc\w*|launch\w*|now available|excited)\b", re.I
)
_HEADING_TAIL = re.compile(r"\s+[-–—:]\s+.*$|\s*[-–—]\s*$")
_HEADING_LEAD = re.compile(r"^\s*(?:\d{1,2}[.)]\s*)?")
_SENTENCE_STABILITY = re.compile(
    r"\b(?:as|in)\s+(?:a\s+|an\s+)?(stable|beta|prototype|experimental)\b"
    r"|\b(?:is|are|now|graduat\w+ to|promoted to)\s+(stable|beta|prototype|experimental)\b",
    re.I,
)
# What each relationship type may connect (schema.md).
ENDPOINTS = {
    "ANNOUNCES": ({"Post"}, {"Release"}),
    "INTRODUCES": ({"Release"}, {"Feature"}),
    "RELEASED_WITH": ({"Release"}, {"Release"}),
    "PART_OF": ({"Feature"}, {"Library"}),
    "SUPPORTS": ({"Release", "Library", "Feature"}, {"Hardware", "Platform"}),
    "DEVELOPED_BY": ({"Library", "Feature", "Release"}, {"Organization"}),
    "BASED_ON": ({"Feature", "Library"}, {"Feature", "Library"}),
}
STABILITY_WORDS = {"stable": "Stable", "beta": "Beta", "prototype": "Prototype",
                   "experimental": "Prototype"}


@dataclass(frozen=True, order=True)
class Entity:
    """A node: its label and canonical name."""

    label: str
    name: str


@dataclass(frozen=True, order=True)
class Mention:
    """An entity named in a post: the canonical entity, the surface form and where it stands."""

    entity: Entity
    surface: str
    start: int
    end: int
    kind: str | None = None  # Hardware kind


@dataclass(frozen=True, order=True)
class Fact:
    """A relation read from a post, with the sentence (evidence) and the rule that read it."""

    type: str
    source: Entity
    target: Entity
    rule: str
    start: int  # offsets of the evidence in the post text; -1 when read from the title
    end: int
    evidence: str
    stability: str | None = None


@dataclass
class PostFacts:
    """Everything ptkg read from one post."""

    url: str
    title: str | None
    date: str | None
    author: str | None
    mentions: list[Mention] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)


def extract_post(post: Post, doc: Doc, lines: list[Line], title_doc: Doc | None,
                 kinds: dict[str, str]) -> PostFacts:
    """Read mentions and facts from a post whose (masked) text was run through the pipeline."""
    spans = list(doc.spans["ptkg"])
    result = PostFacts(post.url, post.title, post.date, post.author)
    result.mentions = sorted(
        Mention(_entity(s), post.text[s.start_char:s.end_char], s.start_char, s.end_char,
                kinds.get(s.id_) if s.label_ == "Hardware" else None)
        for s in spans
    )
    subject = subject_release(doc, title_doc)
    facts = result.facts
    facts.extend(_announced(post, doc, lines, spans, title_doc))
    facts.extend(_heading_features(doc, lines, spans, subject))
    facts.extend(_released_with(spans, subject))
    facts.extend(_sentence_facts(doc, subject))
    result.facts = sorted({_with_post_text(f, post.text) for f in facts if _fits(f)})
    return result


def _with_post_text(fact: Fact, text: str) -> Fact:
    """Evidence as the post wrote it (the pipeline saw it with markup masked)."""
    if fact.start < 0:  # read from the title, not the text
        return fact
    return replace(fact, evidence=" ".join(text[fact.start:fact.end].split()))


def _fits(fact: Fact) -> bool:
    sources, targets = ENDPOINTS[fact.type]
    return (fact.source.label in sources and fact.target.label in targets
            and fact.source != fact.target)


def _entity(span: Span) -> Entity:
    return Entity(span.label_, span.id_ or span.text)


def _fact(type_: str, source: Entity, target: Entity, rule: str, evidence: Span,
          stability: str | None = None) -> Fact:
    text = evidence.text.strip()
    start = evidence.start_char + (len(evidence.text) - len(evidence.text.lstrip()))
    return Fact(type_, source, target, rule, start, start + len(text), " ".join(text.split()),
                stability)


def subject_release(doc: Doc, title_doc: Doc | None) -> Entity | None:
    """The release a post is about: the first one in its title, else in its opening lines."""
    for candidate in (title_doc, doc[: min(len(doc), 120)]):
        if candidate is None:
            continue
        spans = candidate.spans["ptkg"] if isinstance(candidate, Doc) else [
            s for s in doc.spans["ptkg"] if s.end <= candidate.end]
        releases = [s for s in spans if s.label_ == "Release"]
        if releases and (candidate is title_doc or _ANNOUNCE.search(candidate.text)):
            return _entity(releases[0])
    return None


def _announced(post: Post, doc: Doc, lines: list[Line], spans: list[Span],
               title_doc: Doc | None) -> list[Fact]:
    """A release named in an announcing title, and releases that open a section heading."""
    source = Entity("Post", post.url)
    facts = []
    if title_doc is not None and _ANNOUNCE.search(title_doc.text):
        title = " ".join(title_doc.text.split())
        facts.extend(Fact("ANNOUNCES", source, _entity(s), "announces.title", -1, -1, title)
                     for s in title_doc.spans["ptkg"] if s.label_ == "Release")
    for line, release in _release_headings(lines, spans):
        evidence = doc.char_span(line.start, line.end, alignment_mode="expand")
        facts.append(_fact("ANNOUNCES", source, _entity(release), "announces.release_heading",
                           evidence))
    return facts


def _release_headings(lines: list[Line], spans: list[Span]) -> Iterator[tuple[Line, Span]]:
    """Headings that start with a release: "torchaudio 0.5", "torch_xla 1.5 now available"."""
    for line in lines:
        if line.kind != "heading":
            continue
        first = next((s for s in spans if line.start <= s.start_char < line.end), None)
        if first is not None and first.label_ == "Release" and first.start_char <= line.start + 4:
            yield line, first


def _heading_features(doc: Doc, lines: list[Line], spans: list[Span],
                      subject: Entity | None) -> list[Fact]:
    """Feature headings and bullets with a stability marker: the release INTRODUCES them."""
    markers = {doc[m.start].idx: m for m in doc.spans["ptkg_stability"]}
    facts, release = [], subject
    section_releases = dict(_release_headings(lines, spans))
    for line in lines:
        inside = [s for s in spans if line.start <= s.start_char < line.end]
        if line in section_releases:
            release = _entity(section_releases[line])
        marker = next((m for start, m in markers.items() if line.start <= start < line.end), None)
        if marker is None or release is None or line.kind == "code":
            continue
        evidence = doc.char_span(line.start, line.end, alignment_mode="expand")
        feature = _heading_feature(doc, line, marker, inside)
        if feature is None:
            facts.extend(_fact("SUPPORTS", release, _entity(s), "supports.marked_heading", evidence)
                         for s in _leading_hardware(inside, marker))
        else:
            facts.append(_fact("INTRODUCES", release, feature, "introduces.marked_heading",
                               evidence, marker.label_))
    return facts


def _heading_feature(doc: Doc, line: Line, marker: Span, inside: list[Span]) -> Entity | None:
    """The feature a marked line names: a known feature in it, else the line's own words."""
    text = doc.text[line.start:line.end]
    head_end = line.start + len(_HEADING_TAIL.sub("", text))
    named = [s for s in inside if s.start_char < head_end and s.label_ != "Release"]
    leading = [s for s in named if s.start_char <= max(marker.end_char, line.start) + 2]
    if leading and leading[0].label_ in ("Library", "Hardware", "Platform"):
        return None  # "TorchServe (Experimental)", "[Beta] AMD GPU Binaries": not a feature
    known = [s for s in named if s.label_ == "Feature" and (
        (s in leading and _NAME_ENDS.match(doc.text[s.end_char:head_end]))
        or _VIA.search(doc.text[line.start:s.start_char]))]
    if known:
        return _entity(known[0])
    rel_start, rel_end = marker.start_char - line.start, marker.end_char - line.start
    name = text[:rel_start] + " " + text[rel_end:head_end - line.start]
    name = " ".join(_HEADING_LEAD.sub("", name).split()).strip(" .:-–")
    if not name or len(name.split()) > 10:
        return None
    return Entity("Feature", name)


_NAME_ENDS = re.compile(r"\s*($|\(|support\b|module\b|API\b|package\b)", re.I)
_VIA = re.compile(r"\b(via|with|through)\s+$", re.I)


def _leading_hardware(inside: list[Span], marker: Span) -> list[Span]:
    """Hardware and platforms a marked heading starts with ("[Beta] AMD GPU Binaries")."""
    first = [s for s in inside if s.start_char <= marker.end_char + 2]
    return [s for s in first if s.label_ in ("Hardware", "Platform")]


def _released_with(spans: list[Span], subject: Entity | None) -> list[Fact]:
    """In a post about a core release, every other library's release shipped with it."""
    if subject is None or not subject.name.startswith(CORE_LIBRARY + " "):
        return []
    return [
        _fact("RELEASED_WITH", _entity(s), subject, "released_with.core_release_post", s.sent)
        for s in spans
        if s.label_ == "Release" and not s.id_.startswith(CORE_LIBRARY + " ")
    ]


def _sentence_facts(doc: Doc, subject: Entity | None) -> list[Fact]:
    """Relations read around trigger phrases; an implied source is the post's release."""
    facts = []
    for relation in doc._.ptkg_relations or []:
        source = _entity(relation.source) if relation.source is not None else None
        if source is None and relation.type == "SUPPORTS":
            source = subject
        elif source == Entity("Library", CORE_LIBRARY) and relation.type == "SUPPORTS":
            source = subject or source  # "PyTorch" in a post about PyTorch 1.12 is 1.12
        if source is None:
            continue
        facts.append(_fact(relation.type, source, _entity(relation.target), relation.rule,
                           relation.sentence))
    return facts
