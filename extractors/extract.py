"""From one post and its spaCy ``Doc`` to plain facts: mentions and relations with evidence.

The spaCy components (``ptkg.extractors``) find entities, stability markers and sentence
relations. This module adds what needs the whole post: which release the post is about, the
feature headings of a release post and the stability each states, library releases listed in a
post about a core release, and the implied source of a sentence relation ("we have added
support for ROCm" in the PyTorch 1.8 post).
"""

from __future__ import annotations

import bisect
import html
import itertools
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import NamedTuple

from spacy.tokens import Doc, Span

from ptkg.extractors import stability
from ptkg.extractors.document import LEAD_LEVEL
from ptkg.extractors.entities import ALIAS_MEMBER, CODE_NAME, TOOLKITS
from ptkg.extractors.relations import BASE_LABELS, PAST_LEAD
from ptkg.extractors.rules import CODE_RULES
from ptkg.extractors.sections import (
    CAPTION,
    Context,
    heading_kinds,
    leaf_headings,
    only_names_a_kind,
    section_contexts,
)
from ptkg.extractors.text import Line, unmasked_span
from ptkg.names import DOTTED_API, LINKING_WORDS, name_key, version_key
from ptkg.records import Entity, Fact, Mention, Post, PostFacts
from ptkg.schema import ANY_DEVICE, CORE_LIBRARY, DEVICE_LABELS, ENDINGS, RELATION_TYPES

_ANNOUNCE = re.compile(
    r"\b(announc\w*|releas\w*|availab\w*|introduc\w*|launch\w*|now available|excited)\b", re.I
)
# What follows a heading's name: " - This feature ...", ": ahead-of-time compilation ...".
# An explanation after a dash is a sentence ("- This feature ...") or runs long; a short
# capitalized tail is part of the name ("RPC - Asynchronous User Functions").
_DASH_TAIL = (r"\s+[-–—]\s+(?:(?=[a-z(]|(?i:this|these|it|we|a|an|the|in|with|for)\b)"
              r"|(?=(?:\S+\s+){5}\S)).*$|\s*[-–—]\s*$")
# A heading's name ends at its colon ("AOTInductor: ahead-of-time compilation ..."), unless
# what follows is the change itself ("NNC: Add BF16 and Channels last support").
_HEADING_TAIL = re.compile(
    r"\s*:\s+(?!(?i:add|adds|added|enable|enables|support|supports|improve|improves|extend|"
    r"extends|allow|allows|introduce|introduces)\b).*$|,\s+(?:a|an|the)\s+.*$|"
    r"\s+(?i:(?:is|are)\s+)?(?i:now\s+(?:available|supported))\W*$|" + _DASH_TAIL)
_COLON_NAME = re.compile(r":\s*[_*`]*(?P<name>[A-Za-z][\w.]*?)[_*`]*\s*$")
_HEADING_LEAD = re.compile(
    r"^\s*(?:\d{1,2}[.)]\s*)?(?:(?:introducing|announcing|introduction of)\s+)?", re.I)
def extract_post(post: Post, doc: Doc, lines: list[Line], title_doc: Doc | None,
                 kinds: dict[str, str], author_doc: Doc | None = None,
                 library_names: dict[str, str] | None = None) -> PostFacts:
    """Read mentions and facts from a post whose (masked) text was run through the pipeline.

    ``title_doc`` and ``author_doc`` are the title and author run through the entity finder:
    what they name is mentioned by the post too (offsets -1: not in the text).
    """
    spans, by_line, outline = _outline(doc, lines, post.markup)
    if title_doc is not None:
        title_doc.spans["ptkg"] = _typed_by_text(title_doc.spans["ptkg"], spans)
    result = PostFacts(post.url, post.title, post.date, post.author)
    in_text = [(s, _surface(s), s.start_char, s.end_char) for s in spans]
    outside = [(s, s.text, -1, -1) for extra in (title_doc, author_doc) if extra is not None
               for s in extra.spans["ptkg"]]
    result.mentions = sorted(
        Mention(_entity(s), surface, start, end,
                kinds.get(s.id_) if s.label_ == "Hardware" else None)
        for s, surface, start, end in in_text + outside
    )
    subject = subject_release(doc, title_doc)
    facts = result.facts
    facts.extend(_announced(post, doc, outline, title_doc))
    facts.extend(_title_support(title_doc))
    sections: dict[int, Section] = {}
    titled = next((_entity(s) for s in (title_doc.spans["ptkg"] if title_doc else [])
                   if s.label_ == "Release" and _is_core(_entity(s))), None)
    topic = _topic_library(subject, outline, title_doc)
    facts.extend(_section_facts(doc, lines, by_line, subject, sections, outline._replace(
        titled=titled, features_of=_features_announced(doc, lines, by_line, subject, outline),
        topic=topic, release_features=_FEATURES_OF_RELEASE.search(post.title or "") is not None
        and subject is not None)))
    facts.extend(_released_with(spans, subject, kinds))
    facts.extend(_named_after_library(spans, library_names))
    facts.extend(_library_post_code(spans, topic, facts, post.text))
    facts.extend(_named_for_base(doc, spans, facts))
    facts.extend(_devices_in_names(doc, spans))
    facts.extend(_code_names(doc, spans))
    announced = sorted({f.target for f in facts
                        if f.type == "ANNOUNCES" and _library_kind(f.target, kinds) == "domain"})
    only_core = _only_release(CORE_LIBRARY, by_line)
    facts.extend(_sentence_facts(doc, subject, lines, sections, _title_topic(title_doc),
                                 announced, _entity(only_core) if only_core else None))
    facts.extend(_component_lists(doc, lines, by_line, _title_library(title_doc)))
    facts.extend(_library_highlights(doc, lines, by_line, post.text))
    facts.extend(_renaming_headings(doc, lines, by_line))
    dated_by = titled.name if titled is not None else None  # "New library updates in 1.12"
    result.facts = sorted({_with_post_text(f, post, dated_by) for f in _most_specific(facts)
                           if _fits(f)})
    result.mentions = sorted(_without_names_inside_names(
        _without_idle_languages(result.mentions, result.facts), result.facts)
        + _headings_of_apis(doc, lines, by_line, result.facts))
    for link in _summary_links(doc, lines, post.text, result.facts):
        _name_by_summary_link(result, link)
    for heading, feature in _feature_headings(lines, result.facts):
        _name_short_forms(result, _section_of(heading, lines, post.markup), feature)
    return result


class _SummaryLink(NamedTuple):
    """A link of the post to one of its feature headings, and the feature the heading names."""

    label: str
    start: int
    end: int
    heading: Line
    feature: Entity


#: A summary table's link to a place in the post: ``<td><a href="#beta-torchcompile">
#: torch.compile</a>``, or ``| [torch.compile](#beta-torchcompile) |``.
_ANCHOR_LINK = re.compile(r'<td[^>]*>\s*(?:<(?!/?td\b)[^>]*>\s*)*<a\s+href="#(?P<html>[^"\s]+)"\s*>'
                          r"(?P<html_label>[^<\n]+)</a>"
                          r"|\|\s*\[(?P<md_label>[^\]\n]+)\]\(#(?P<md>[^)\s]+)\)\s*(?=\|)")


def _summary_links(doc: Doc, lines: list[Line], raw: str, facts: list[Fact]) -> list[_SummaryLink]:
    """The links of a release post's summary table to its feature headings ("X86
    quantization backend" to "[Beta] "X86" as the new default quantization backend for x86
    CPU"), found by the anchor a Markdown renderer gives the heading. Not a link to a heading
    of several features ("Stable Features"), nor one of two links to a heading: each names a
    part of it ("CUDA support for 11.7 & 11.8", "Python 1.8")."""
    links = defaultdict(list)
    for m in _ANCHOR_LINK.finditer(raw):
        kind = "html" if m.group("html") else "md"
        label = m.group(f"{kind}_label")
        start = m.start(f"{kind}_label") + len(label) - len(label.lstrip())
        links[m.group(kind).lower()].append((" ".join(html.unescape(label).split()), start,
                                             start + len(label.strip())))
    if not links:
        return []
    text = _text(doc)
    features = _feature_headings(lines, [f for f in facts if f.type == "INTRODUCES"])
    keys = {name_key(feature.name) for _, feature in features}
    found = []
    for line, feature in features:
        named = links.get(_anchor(text[line.start:line.end]), [])
        if len(named) == 1 and named[0][0] and (
                name_key(named[0][0]) not in keys - {name_key(feature.name)}):
            found.append(_SummaryLink(*named[0], line, feature))  # not "torch.compile
            # (dynamic=True)" to "[Beta] torch.compile", a heading of its own further on
    return sorted(found, key=lambda link: link.start)


def _anchor(heading: str) -> str:
    """The anchor Markdown renderers give a heading: lower case, punctuation out, blanks as
    hyphens ("[Beta] torch.compile" is ``beta-torchcompile``)."""
    return re.sub(r"[^\w\- ]", "", " ".join(heading.split()).lower()).replace(" ", "-")


def _name_by_summary_link(result: PostFacts, link: _SummaryLink) -> None:
    """A summary table's link names the feature of the heading it links to: the names the
    finder read in the link are that feature's ("Torch.set_default & torch.device" links to
    "torch.set_default_device and torch.device as context manager"). When the finder read no
    feature there, the link's words are the release team's short name for the feature and the
    feature's name: "X86 quantization backend", with the heading's words kept as its alias.
    The feature is the API the heading names, when it names one (:func:`_headings_of_apis`).
    A link that names only a device or another thing is no name of the feature."""
    read = [m for m in result.mentions if link.start <= m.start and m.end <= link.end]
    inside = [m for m in read if m.entity.label == "Feature"]
    if read and not inside:
        return  # "AWS Graviton3" to "Optimized PyTorch Inference with AWS Graviton processors"
    feature = next((m.entity for m in result.mentions if m.surface == link.feature.name
                    and m.entity.label == "Feature"
                    and link.heading.start <= m.start < link.heading.end), link.feature)
    if not read and len(link.label.split()) < len(feature.name.split()):
        named = Entity("Feature", link.label)
        result.facts = sorted({replace(f, source=named if f.source == feature else f.source,
                                       target=named if f.target == feature else f.target)
                               for f in result.facts})
        result.mentions = [replace(m, entity=named) if m.entity == feature else m
                           for m in result.mentions]
        result.mentions.append(Mention(named, feature.name, link.heading.start,
                                       link.heading.end))
        feature = named
    result.mentions = sorted([m for m in result.mentions if m not in inside]
                             + [Mention(feature, link.label, link.start, link.end)])


def _feature_headings(lines: list[Line], facts: list[Fact]) -> list[tuple[Line, Entity]]:
    """The headings that name a feature, each with the feature."""
    starts = [line.start for line in lines]
    found = {}
    for fact in facts:
        if fact.rule in _HEADING_RULES and fact.start >= 0:
            line = lines[bisect.bisect_right(starts, fact.start) - 1]
            if line.kind == "heading":
                found[line] = fact.source if fact.type == "PART_OF" else fact.target
    return sorted(found.items(), key=lambda item: item[0].start)


def _section_of(heading: Line, lines: list[Line], markup: str) -> tuple[int, int]:
    """The section a heading opens, the heading in it: it ends at the next heading as high,
    or at any heading in flattened text, which lost the levels."""
    after = [line for line in lines if line.start > heading.start]
    end = next((line.start for line in after
                if _ends_section(line, heading.level, markup, True)), None)
    return heading.start, end if end is not None else (after[-1].end if after else heading.end)


def _name_short_forms(result: PostFacts, section: tuple[int, int], feature: Entity) -> None:
    """A feature heading's last words, named again in its section, are the heading's feature
    there: "Caching allocator" under "[Beta] PyTorch Mobile Caching allocator for performance
    improvements". Not the last thing of a name that links several ("ProcessGroup support in
    custom ops", "... Redesign and Input Dist Fusion"). The short form is this section's only:
    no alias resolution reads elsewhere (2.12's "PyTorch's caching allocator" is CUDA's), so
    its mentions are ``local``."""
    start, end = section
    words = feature.name.lower().split()
    short = {m.entity for m in result.mentions
             if m.entity.label == "Feature" and m.entity != feature and start <= m.start < end
             and 2 <= len(key := m.surface.lower().split()) < len(words)
             and words[-len(key):] == key and not LINKING_WORDS & set(words[:-len(key)])}
    if not short:
        return
    result.mentions = sorted(replace(m, entity=feature, local=True)
                             if m.entity in short and start <= m.start < end else m
                             for m in result.mentions)
    result.facts = sorted({replace(f, source=feature if f.source in short else f.source,
                                   target=feature if f.target in short else f.target)
                           if start <= f.start < end else f for f in result.facts})


def _headings_of_apis(doc: Doc, lines: list[Line], by_line: dict[int, list[Span]],
                      facts: list[Fact]) -> list[Mention]:
    """A feature heading one of whose section's first two paragraphs opens by saying what an
    API is or does names that API: "[Beta] CUDA-based CTC decoder", then
    "torchaudio.models.decoder.CUCTCDecoder performs CTC beam search in CUDA devices"; "The
    new ``torch.nn.utils.stateless.functional_call()`` API allows". So does one whose first
    paragraph says the API holds it ("[Beta] Datacollectors", then "These can be found in
    torchrl.collectors"). The heading is read as a mention of the API, so resolution makes one
    node of the two. Not when the API "now" does more: "torch.compile now understands NumPy"
    under "torch.compile + NumPy" is about another thing; nor a class ("StreamReader is
    TorchAudio's new I/O API" under "Streaming API", the name the release diff shows)."""
    text = _text(doc)
    starts = [line.start for line in lines]
    mentions = []
    for fact in facts:
        if fact.rule not in _HEADING_RULES or fact.start < 0:
            continue
        at = bisect.bisect_right(starts, fact.start) - 1
        if lines[at].kind not in ("heading", "bullet"):
            continue
        body = list(itertools.islice(_paragraphs(lines[at + 1:at + 9], text), 2))
        feature = fact.source if fact.type == "PART_OF" else fact.target
        apis = [(line, s) for line in body for s in by_line.get(line.start, [])
                if s.label_ == "Feature" and DOTTED_API.fullmatch(s.id_ or s.text)
                and s.id_ != feature.name]
        api = _api_ending(lines[at], by_line, feature, text) or next(
            (s for line, s in apis if _THE_NEW.fullmatch(text, line.start, s.start_char)
             and _DEFINES.match(text, s.end_char)), None) or next(
            (s for line, s in apis if line == body[0] and _home_of(text, s)), None)
        if api is not None:
            mentions.append(Mention(_entity(api), feature.name, fact.start, fact.end))
    return mentions


def _api_ending(heading: Line, by_line: dict[int, list[Span]], feature: Entity,
                text: str) -> Span | None:
    """The API a heading ends with when the heading names what the API gains, a thing of its
    own: "FlashAttention-2 support in torch.nn.functional.scaled_dot_product_attention" is
    SDPA's news. What has no name of its own is the heading's feature: "Support for
    User-defined Triton kernels in torch.compile"; so is "torch.compile + NumPy"."""
    named = by_line.get(heading.start, [])
    return next((s for s in named if s.label_ == "Feature" and s.id_ != feature.name
                 and DOTTED_API.fullmatch(s.id_ or s.text)
                 and _IN_BEFORE.search(text, heading.start, s.start_char)
                 and not text[s.end_char:heading.end].strip(" `_*.:")
                 and any(o.end_char <= s.start_char and o.label_ in ("Feature", "Library")
                         for o in named)), None)


#: The words before the API a heading ends with: "... support in `torch.compile`".
_IN_BEFORE = re.compile(r"\ssupport\s+in[\s`_*]*$", re.I)


def _paragraphs(lines: list[Line], text: str) -> Iterator[Line]:
    """The text lines that open a section, up to its next heading."""
    for line in lines:
        if line.kind == "heading":
            return
        if line.kind != "code" and text[line.start:line.end].strip():
            yield line


def _home_of(text: str, api: Span) -> bool:
    """Whether the words around ``api`` say it holds what a section is about: "Several
    objective functions are included in torchrl.objectives", "These can be found in
    torchrl.collectors", "brings new functions ... to the `torch.autograd.functional`
    submodule"."""
    before = text[max(0, api.start_char - 40):api.start_char]
    return bool(_HOLDS_BEFORE.search(before) or (
        re.search(r"\bto\s+the[\s`_*]*$", before)
        and _MODULE_AFTER.match(text, api.end_char)))


#: What says an API holds a section's things: "are included in", "can be found in".
_HOLDS_BEFORE = re.compile(r"\b(?:included|found|available|collected|grouped)\s+in"
                           r"(?:\s+the)?[\s`_*]*$", re.I)
_MODULE_AFTER = re.compile(r"[\s`_*]*\s(?:sub)?(?:module|package|namespace)\b")


#: The rules that read a feature from a heading: a release's, or a library's section.
_HEADING_RULES = {"introduces.marked_heading", "introduces.section_heading",
                  "part_of.library_section"}
#: What opens a line before the API it defines: "The new ``torch.nn.utils.stateless...``".
_THE_NEW = re.compile(r"[\s*_`-]*(?:the\s+(?:new\s+)?)?[\s*_`]*", re.I)
#: What an API is or does, said as a definition: "performs", "can apply", "is TorchAudio's new
#: I/O API", "allows users", "includes"; not "now supports", "previously only supported".
_DEFINES = re.compile(r"(?:\(\))?[\s`_*]*(?:\sAPIs?)?\s(?:is|are|allows|enables|lets|performs|"
                      r"provides|includes|can\s+(?!now\b)\w+)\b", re.I)


def _without_idle_languages(mentions: list[Mention], facts: list[Fact]) -> list[Mention]:
    """The mentions but those of a language's releases no fact of the post takes part in:
    "Python 3.8" in a list of supported versions is no entity (languages are none), "we will
    no longer support Python 2" makes Python 2 the release that PyTorch 1.5 removes."""
    in_facts = {e for f in facts for e in (f.source, f.target)}
    return [m for m in mentions if not (m.entity.label == "Release" and m.entity not in in_facts
                                        and m.entity.name.rpartition(" ")[0] in _LANGUAGES)]


_LANGUAGES = {"Python"}


def _without_names_inside_names(mentions: list[Mention], facts: list[Fact]) -> list[Mention]:
    """The mentions but those of a feature the post names only as what a longer feature's name
    is for or in, in the sentence that feature was read from, and that takes part in no fact:
    "[Stable] Modulation input for DeformConv2D" names one feature, not DeformConv2D beside it."""
    in_facts = {e for f in facts for e in (f.source, f.target)}
    candidates = [m for m in mentions if m.entity.label == "Feature" and m.entity not in in_facts]
    if not candidates:
        return mentions
    longer = [(f.start, f.end, e.name) for f in facts for e in (f.source, f.target)
              if e.label == "Feature" and f.start >= 0]

    def inside(m: Mention) -> bool:
        return m.start >= 0 and any(
            start <= m.start and m.end <= end and name != m.entity.name
            and re.search(rf"\b(?:for|in|of|to|with)\s+{re.escape(m.surface)}\b", name)
            for start, end, name in longer)

    alone = {m.entity for m in candidates} - {m.entity for m in candidates if not inside(m)}
    return [m for m in mentions if m.entity not in alone]


def _most_specific(facts: list[Fact]) -> list[Fact]:
    """Facts without the core release's INTRODUCES of a feature that a library's section of
    the same post has: the summary bullets of the PyTorch 1.7 post list torchvision 0.8's
    features, which its torchvision section introduces."""
    def key(entity: Entity) -> str:
        return name_key(entity.name).replace("/", "")

    def core(entity: Entity) -> bool:
        return entity.name == CORE_LIBRARY or entity.name.startswith(CORE_LIBRARY + " ")

    elsewhere = {key(f.target) for f in facts if f.type == "INTRODUCES" and not core(f.source)}
    elsewhere |= {key(f.source) for f in facts if f.rule == "part_of.library_section"}
    return [f for f in facts if not (f.type == "INTRODUCES" and core(f.source)
                                     and key(f.target) in elsewhere)]


class Outline(NamedTuple):
    """Where a post's release sections start, and how its text is written."""

    headings: dict[Line, Span]  # headings that start with a release: "torchaudio 0.5"
    announced: dict[Line, tuple[Span, int]]  # releases announced under their library's heading
    markup: str = "markdown"
    libraries: dict[Line, tuple[Entity, Span | None]] | None = None  # "# torchvision"
    titled: Entity | None = None  # the core release the title names: "PyTorch 1.13 release"
    features_of: Entity | None = None  # whose features a post of no release announces
    topic: Entity | None = None  # the library a post of no release is about: "... with TokenSpeed"
    release_features: bool = False  # its title is about a release's features: each heading one


def _outline(doc: Doc, lines: list[Line],
             markup: str) -> tuple[list[Span], dict[int, list[Span]], Outline]:
    """The post's entities (bare versions owned by their section), grouped by line, and its
    outline. Updates ``doc`` when a bare version changes hands."""
    spans = list(doc.spans["ptkg"])
    by_line = _group_by_line(lines, spans)
    headings = dict(_release_headings(lines, by_line, _text(doc)))
    owned = _owned_bare_releases(doc, lines, by_line, headings)
    if owned:
        spans = [owned.get(span, span) for span in spans]
        by_line = _group_by_line(lines, spans)
        headings = {line: owned.get(span, span) for line, span in headings.items()}
        doc.spans["ptkg"] = spans
        doc._.ptkg_relations = [
            replace(r, source=owned.get(r.source, r.source), target=owned.get(r.target, r.target))
            for r in doc._.ptkg_relations or []]
    return spans, by_line, Outline(headings, _library_announcements(lines, by_line, _text(doc)),
                                   markup, _library_sections(lines, by_line, _text(doc), markup))


def _owned_bare_releases(doc: Doc, lines: list[Line], by_line: dict[int, list[Span]],
                         headings: dict[Line, Span]) -> dict[Span, Span]:
    """A bare version in a library's release section is that library's release.

    "Starting in 0.8.0, TorchAudio uses CMake" under "TorchAudio 0.8.0" is torchaudio 0.8;
    the entity finder, which sees no sections, read "PyTorch 0.8".
    """
    library, owned = None, {}
    for line in lines:
        if line in headings:
            library = headings[line].id_.rpartition(" ")[0]
        if library in (None, CORE_LIBRARY):
            continue
        core = {s.sent.start for s in by_line[line.start] if s.label_ == "Release"
                and s.id_.startswith(CORE_LIBRARY + " ") and not _BARE_VERSION.match(s.text)}
        for span in by_line[line.start]:  # not in "Starting in 1.8, it requires PyTorch 1.8"
            if span.label_ == "Release" and _BARE_VERSION.match(span.text) \
                    and span.sent.start not in core:
                owned[span] = Span(doc, span.start, span.end, label="Release",
                                   span_id=f"{library} {span.id_.rpartition(' ')[2]}")
    return owned


_BARE_VERSION = re.compile(r"(?:the\s+(?:upcoming\s+)?)?v?\d", re.I)


def _with_post_text(fact: Fact, post: Post, dated_by: str | None) -> Fact:
    """Evidence as the post wrote it (the pipeline saw it with markup masked), and the level
    the stated stability word names in the post's era: its date, else the PyTorch release
    the fact is about or the post's title names (``dated_by``)."""
    if fact.stability is not None:
        release = fact.source.name if _is_core(fact.source) else dated_by
        fact = replace(fact, stability=stability.level(fact.stability, post.date, release))
    if fact.start < 0:  # read from the title, not the text
        return fact
    start, end = unmasked_span(post.text, fact.start, fact.end)
    return replace(fact, start=start, end=end,
                   evidence=" ".join(post.text[start:end].split()))


def _fits(fact: Fact) -> bool:
    return RELATION_TYPES[fact.type].fits(fact.source.label, fact.target.label) \
        and fact.source != fact.target


def _text(doc: Doc) -> str:
    """The doc's text, read once: spaCy joins the tokens again on every ``Doc.text``."""
    if "ptkg_text" not in doc.user_data:
        doc.user_data["ptkg_text"] = doc.text
    return doc.user_data["ptkg_text"]


def _entity(span: Span) -> Entity:
    return Entity(span.label_, span.id_ or span.text)


def _code_fact(rule: str, source: Entity, target: Entity, evidence: Span,
               stability: str | None = None, stated: str | None = None) -> Fact:
    """A fact read by one of the :data:`~ptkg.extractors.rules.CODE_RULES`.

    ``stability`` is the word that states it ("beta", read into its level at the end);
    ``stated`` the words the post used, when not the evidence's marker.
    """
    return _fact(CODE_RULES[rule].type, source, target, rule, evidence, stability, stated)


def _fact(type_: str, source: Entity, target: Entity, rule: str, evidence: Span,
          stability: str | None = None, stated: str | None = None) -> Fact:
    whole = _span_text(evidence)
    text = whole.strip()
    start = evidence.start_char + (len(whole) - len(whole.lstrip()))
    return Fact(type_, source, target, rule, start, start + len(text), " ".join(text.split()),
                stability, stated)


def _surface(span: Span) -> str:
    """A mention's surface as the finder read it: "forced\\_align" is "forced_align", a link's
    URL is out, and a sentence's full stop the tokenizer left on the name is not the name's
    ("faster than AdamW.")."""
    surface = " ".join(_span_text(span).split())
    return surface[:-1] if surface.endswith(".") and not _entity(span).name.endswith(".") \
        else surface


def _span_text(span: Span) -> str:
    """``span.text``, cut from the doc's text: spaCy joins the span's tokens on every call."""
    if not len(span):
        return span.text
    return _text(span.doc)[span.start_char:span.end_char]


def subject_release(doc: Doc, title_doc: Doc | None) -> Entity | None:
    """The release a post is about: the first one in its title, else in its opening lines."""
    for candidate in (title_doc, doc[: min(len(doc), 120)]):
        if candidate is None:
            continue
        spans = candidate.spans["ptkg"] if isinstance(candidate, Doc) else [
            s for s in doc.spans["ptkg"] if s.end <= candidate.end]
        releases = [s for s in spans if s.label_ == "Release" and not _of_toolkit(s)]
        if releases and (candidate is title_doc or _ANNOUNCE.search(candidate.text)):
            return _entity(releases[0])
    return None


def _of_toolkit(release: Span) -> bool:
    """Whether a release is a toolkit's ("CUDA 10.2", "Python 3.7"): a dependency, which no post
    announces and whose heading ("### CUDA 10.2 and 11.3 CI/CD Deprecation") opens no section."""
    return release.id_.rpartition(" ")[0] in TOOLKITS


def _group_by_line(lines: list[Line], spans: Iterable[Span]) -> dict[int, list[Span]]:
    """The spans that start on each line, keyed by the line's start offset."""
    starts = [line.start for line in lines]
    grouped: dict[int, list[Span]] = {start: [] for start in starts}
    for span in spans:
        grouped[starts[bisect.bisect_right(starts, span.start_char) - 1]].append(span)
    return grouped


def _announced(post: Post, doc: Doc, outline: Outline, title_doc: Doc | None) -> list[Fact]:
    """A release named in an announcing title, and releases that open a section heading."""
    source = Entity("Post", post.url)
    facts = []
    if title_doc is not None:
        title = " ".join(title_doc.text.split())
        releases = [s for s in title_doc.spans["ptkg"] if s.label_ == "Release"]
        if _ANNOUNCE.search(title) or (releases and releases[0].start == 0):
            rule = CODE_RULES["announces.title"]
            facts.extend(Fact(rule.type, source, _entity(s), rule.id, -1, -1, title)
                         for s in releases)
    for line, release in outline.headings.items():
        evidence = doc.char_span(line.start, line.end, alignment_mode="expand")
        facts.append(_code_fact("announces.release_heading", source, _entity(release),
                           evidence))
    for release, _ in outline.announced.values():
        facts.append(_code_fact("announces.library_section", source, _entity(release),
                           release.sent))
    for _, release in (outline.libraries or {}).values():
        if release is not None:  # "## TorchVision", its release the post's table of versions
            facts.append(_code_fact("announces.library_section", source, _entity(release),
                                    release.sent))
    return facts


#: A title that says a release gains a device's support: "Intel GPU Support Now Available in
#: PyTorch 2.5", "PyTorch 2.4 Now Supports Intel GPUs for Faster Workloads".
_SUPPORT_TITLE = re.compile(
    r"(?:^|:\s*)(?:(?P<device>[^:]+?)\s+support\s+(?:is\s+)?(?:now\s+)?available\s+(?:in|with)"
    r"\s+(?P<release>[^:,]+?)\s*$|(?P<release2>[^:]+?)\s+(?:now\s+)?supports\s+(?P<device2>.+))",
    re.I)


def _title_support(title_doc: Doc | None) -> list[Fact]:
    """What a title says a release gains, a device's support, is a feature the release
    introduces, named for the device ("Intel GPU support") and supporting it; the title is the
    evidence."""
    found = _SUPPORT_TITLE.search(title_doc.text) if title_doc is not None else None
    if found is None:
        return []
    device_at = found.span("device") if found.group("device") else found.span("device2")
    release_at = found.span("release") if found.group("release") else found.span("release2")
    spans = title_doc.spans["ptkg"]
    releases = [s for s in spans if s.label_ == "Release" and _is_core(_entity(s))
                and release_at[0] <= s.start_char and s.end_char <= release_at[1]]
    devices = [s for s in spans if s.label_ in DEVICE_LABELS and s.start_char == device_at[0]]
    if len(releases) != 1 or not devices:
        return []
    title, device = " ".join(title_doc.text.split()), _entity(devices[0])
    feature = Entity("Feature", f"{device.name} support")
    rule, supports = CODE_RULES["introduces.title_support"], CODE_RULES["supports.named_in_feature"]
    return [Fact(rule.type, _entity(releases[0]), feature, rule.id, -1, -1, title),
            Fact(supports.type, feature, device, supports.id, -1, -1, title)]


def _library_announcements(lines: list[Line], by_line: dict[int, list[Span]],
                           doc_text: str) -> dict[Line, tuple[Span, int]]:
    """Releases announced under a heading that is their library's name, with its depth.

    "### functorch" then "We're excited to announce functorch 0.2.0": the section is
    functorch 0.2's until a heading as high as "### functorch".
    """
    found, library = {}, None
    for line in lines:
        inside = by_line[line.start]
        text = doc_text[line.start:line.end]
        if line.kind == "heading":
            library = None
            if len(inside) == 1 and inside[0].label_ == "Library" and \
                    inside[0].text == text.strip():
                library = (inside[0].id_, line.level)
        elif library is not None and _ANNOUNCE.search(text):
            release = next((s for s in inside if s.label_ == "Release"
                            and s.id_.rpartition(" ")[0] == library[0]), None)
            if release is not None:
                found[line], library = (release, library[1]), None
    return found


def _library_sections(lines: list[Line], by_line: dict[int, list[Span]], doc_text: str,
                      markup: str) -> dict[Line, tuple[Entity, Span | None]]:
    """Headings that are a library's name ("# torchvision"), with the release of that library
    the section names ("torchvision 0.8.0 introduces ..."), if it names one.

    Such a section is that release's down to the next heading as high (in flattened text, to
    the next heading that names a library or starts with a release); without a release it is
    the library's (its features belong to it, no release is known to introduce them).
    """
    def names_a_library(line: Line) -> bool:
        inside = by_line[line.start]
        return (line.kind == "heading" and (line.level > 0 or markup == "flat")
                and len(inside) == 1 and inside[0].label_ == "Library"
                and inside[0].id_ != CORE_LIBRARY
                and _span_text(inside[0]) == doc_text[line.start:line.end].strip(" #*_`"))

    found = {}
    for i, line in enumerate(lines):
        if not names_a_library(line):
            continue
        library = by_line[line.start][0].id_
        release = None
        for later in lines[i + 1:]:
            if _ends_section(later, line.level, markup, names_a_library(later) or any(
                    s.label_ == "Release" for s in by_line[later.start][:1])
                    or bool(heading_kinds(doc_text[later.start:later.end]))):
                break
            release = release or next((s for s in by_line[later.start] if s.label_ == "Release"
                                       and s.id_.rpartition(" ")[0] == library), None)
        found[line] = (Entity("Library", library), release or _only_release(library, by_line))
    return found


def _only_release(library: str, by_line: dict[int, list[Span]]) -> Span | None:
    """The one release of ``library`` a post names, if it names one only: "TorchVision 0.16"
    of a summary's table of library versions is the release of the "## TorchVision" section."""
    releases = {s.id_: s for spans in by_line.values() for s in spans
                if s.label_ == "Release" and s.id_.rpartition(" ")[0] == library}
    return next(iter(releases.values())) if len(releases) == 1 else None


class _Open(NamedTuple):
    """An open section of a library or release: the release the post was in before it, its
    heading's level, and, in flattened text, the kinds of heading that end it (any if empty)."""

    release: Entity | None
    level: int
    kinds: frozenset[str] = frozenset()


def _ends_section(line: Line, level: int, markup: str, opens_another: bool) -> bool:
    """Whether ``line`` ends a section whose heading has ``level``: a heading as high in
    Markdown; in flattened text, which lost the levels, a heading that opens another section
    (``opens_another``: of a library, of a release, or of a kind, "Performance Improvements")."""
    if line.kind != "heading":
        return False
    return opens_another if markup == "flat" else 0 < line.level <= level


def _release_headings(lines: list[Line], by_line: dict[int, list[Span]],
                      doc_text: str) -> Iterator[tuple[Line, Span]]:
    """Headings that start with a release: "torchaudio 0.5", "torch_xla 1.5 now available"."""
    for line in lines:
        if line.kind != "heading":
            continue
        first = next(iter(by_line[line.start]), None)
        lead = _MARKED_LEAD.match(doc_text[line.start:line.end]) if first is not None else None
        if first is not None and first.label_ == "Release" and not _of_toolkit(first) and \
                first.start_char <= line.start + lead.end() + 4:
            yield line, first


@dataclass(frozen=True)
class Section:
    """Where a line stands: the release whose section it is in, the feature it is about, and
    the hardware or platform a section of it is about ("### ROCm")."""

    release: Entity | None
    feature: Entity | None
    hardware: Entity | None = None
    marked: str | None = None  # the stability word the feature's own line states: "beta"
    library: Entity | None = None  # the library of a subsection of the core release's section
    changed: bool = False  # its heading tells of a change to an API: "torch.export now supports"


def _marks_no_features(doc: Doc, subject: Entity | None, markup: str) -> bool:
    """Whether a release post of the 2.8 era states stability per section, not per feature:
    then each leaf heading or bold lead line of its release sections names a feature."""
    if markup != "markdown" or subject is None or doc.spans["ptkg_stability"]:
        return False
    library, _, version = subject.name.rpartition(" ")
    return library == CORE_LIBRARY and version_key(version) >= version_key(API_ERA)


def _lists_features(context: Context, unmarked: bool, line: Line, text: str,
                    markup: str, leads_prose: bool) -> bool:
    """Whether an unmarked leaf heading in ``context`` names a feature.

    In a section that states a stability (``## Beta Features``); in Markdown also in a section
    that lists changes, or anywhere but deprecations in a post that marks no feature. A
    heading that names a kind of section ("Performance Improvements") names none. In Markdown
    a heading is a real one (levels 1-6) or a bold lead line, not a line of raw HTML. Short
    lines of flattened text look like headings too often: there a heading in a section of
    changes names a feature only when a paragraph follows it (``leads_prose``), as one under
    "Performance Improvements" does and a line of a lost list or table does not.
    """
    if context.deprecations or context.none or only_names_a_kind(text):
        return False
    if markup == "markdown":
        return line.level > 0 and (context.word is not None or context.changes or unmarked)
    return context.word is not None or (context.changes and leads_prose)


#: A title about a release's features, whose headings each name one: "Unlocking the Latest
#: Features in PyTorch 2.6 for Intel Platforms".
_FEATURES_OF_RELEASE = re.compile(r"\b(?:new|latest)\s+features\s+(?:in|of)\s", re.I)
#: The first PyTorch release of the API-Unstable/API-Stable classification (schema.md).
API_ERA = "2.8"


def _hardware_sections(open_sections: list[tuple[int, Entity]], line: Line, text: str,
                       inside: list[Span], markup: str) -> list[tuple[int, Entity]]:
    """The hardware sections open after heading ``line``: "### ROCm", "### Apple MPS".

    A heading that names only hardware or platforms opens one; any heading as high ends it.
    """
    level = line.level or 0
    kept = [] if markup == "flat" else [(lvl, hw) for lvl, hw in open_sections if lvl < level]
    named = [s for s in inside if s.label_ not in DEVICE_LABELS]
    devices = [s for s in inside if s.label_ in DEVICE_LABELS]
    rest = text
    for span in devices:
        rest = rest.replace(_span_text(span), " ")
    if devices and not named and not re.sub(r"[#*_`\W]+|\b(apple|nvidia|amd|intel)\b", "",
                                             rest, flags=re.I):
        kept.append((level, _entity(devices[-1])))
    return kept if line.level != LEAD_LEVEL else open_sections


def _sections(doc: Doc, lines: list[Line], by_line: dict[int, list[Span]],
              subject: Entity | None,
              outline: Outline) -> Iterator[tuple[Line, Section, Fact | None]]:
    """Walk the lines of a post, tracking release sections and marked feature headings.

    Yields each line with its section and, for a line with a stability marker, the fact it
    states: the release INTRODUCES the feature (or SUPPORTS the hardware) it names.
    """
    markers = _group_by_line(lines, doc.spans["ptkg_stability"])
    section_releases, announced = outline.headings, outline.announced
    contexts = section_contexts(_text(doc), lines, outline.markup)
    leaves = leaf_headings(lines, outline.markup)
    leads_prose = {line.start for line, after in zip(lines, lines[1:], strict=False)
                   if after.kind == "text"}
    groups = _marked_groups(lines, markers, _text(doc), outline.markup)
    unmarked = _marks_no_features(doc, subject, outline.markup) or outline.release_features
    hardware: list[tuple[int, Entity]] = []  # open hardware sections: "### ROCm"
    release, feature, in_docs = subject, None, False
    owner: Entity | None = None  # the library of a section that names no release of it
    outer: _Open | None = None  # the library's or release's section the line is in
    listed: tuple[int, Entity | None, Entity] | None = None  # "* torchvision", then sub-items
    releases_of = {library: found for library, found in (outline.libraries or {}).values()}
    marked: str | None = None  # the stability word of the section's marked feature
    top = min((line.level for line in lines if line.kind == "heading" and line.level), default=0)
    nested: Entity | None = None  # a library whose subsection of a release section this is
    prose = False  # a paragraph was read: bold lines before it are the by-line, not features
    changed = False
    for line in lines:
        inside = by_line[line.start]
        text = _text(doc)[line.start:line.end]
        before = feature
        if line.kind == "heading":
            hardware = _hardware_sections(hardware, line, text, inside, outline.markup)
        kinds = heading_kinds(text) if line.kind == "heading" else set()
        if outer is not None and _ends_section(line, outer.level, outline.markup,
                                               line in section_releases
                                               or line in (outline.libraries or {})
                                               or bool(kinds & outer.kinds if outer.kinds
                                                       else kinds)):
            release, feature, outer, owner, nested = outer.release, None, None, None, None
        if line in section_releases:  # in Markdown it ends at the next heading as high; in
            # flattened text at a stability section's ("Prototype Features"), which no release
            # of a library has inside
            ends = _Open(release, line.level) if line.level else None
            if outline.markup == "flat":
                ends = _Open(release, 0, frozenset({"stability"}))
            release, feature, outer = _entity(section_releases[line]), None, ends
        elif line in (outline.libraries or {}):
            library, found = outline.libraries[line]
            outer = _Open(release, line.level)
            feature, owner, nested = None, None, None
            if found is not None:
                release = _entity(found)
            elif release is not None and release == outline.titled and line.level > top:
                nested = library  # "## Frontend APIs", "### TorchData": the release's features
            else:
                release, owner = None, library
        elif line in announced and outer is None:
            outer = _Open(release, announced[line][1])
            release, feature = _entity(announced[line][0]), None
        if line.kind == "heading" and line not in section_releases:
            feature = _named_heading(text, inside, line)  # "PyTorch Mobile": its section
        in_docs = _in_docs(in_docs, line, text)
        listed = _library_item(listed, line, text, inside, releases_of)
        here, owner_here = release, owner
        if listed is not None and line.kind == "bullet" and line.level > listed[0]:
            here, owner_here = listed[1] and _entity(listed[1]), listed[2]
        marker = next(iter(markers[line.start]), None)
        context = contexts[line.start]
        fact = None
        if marker is not None and line.kind != "code" and not in_docs and line not in groups \
                and line not in section_releases and _marks_line(
                    doc, line, marker):  # "[Stable] TorchCSPRNG 0.2.0": a release
            if here is not None:
                fact = _marked_line_fact(doc, line, marker, inside, here,
                                         joins_core=here == outline.titled)
            elif owner_here is not None:  # "# torchaudio" names no version: its feature
                fact = _library_feature(doc, line, marker, inside, owner_here)
        elif line.kind == "heading" and release is None and outline.features_of is not None \
                and line.level == top and owner is None:
            fact = _announced_feature(doc, line, inside, outline.features_of, context)
        elif line.kind == "heading" and line.level == LEAD_LEVEL and release is None \
                and owner is None and outline.topic is not None and prose \
                and _lists_features(context, False, line, text, outline.markup, False):
            fact = _announced_feature(doc, line, inside, outline.topic, context,
                                      "part_of.library_post_lead")
        elif line.kind == "heading" and release is not None and line.start in leaves \
                and line not in section_releases and line not in announced and \
                (prose or line.level != LEAD_LEVEL) and \
                _lists_features(context, unmarked, line, text, outline.markup,
                                line.start in leads_prose):
            fact = _unmarked_line_fact(doc, line, inside, release, context)
        if fact is not None and fact.type == "INTRODUCES":
            feature, marked = fact.target, fact.stability
            changed = _tells_of_a_change(text, feature)
        elif fact is not None and fact.rule in _ANNOUNCED_RULES:
            feature, marked, changed = fact.source, None, False
        elif feature != before or line.kind == "heading":
            marked, changed = None, False
        prose = prose or line.kind == "text"
        section_hardware = hardware[-1][1] if hardware else None
        yield line, Section(release, feature, section_hardware, marked, nested, changed), fact


def _tells_of_a_change(heading: str, feature: Entity) -> bool:
    """Whether a heading that names an API tells of a change to it, not of the API: "`torch.export`
    now supports Microscaling (MX) quantization formats", "Capture Control flow with torch.cond
    within CUDA Graph"; not "`torch.accelerator.Graph`: Device Agnostic ... API"."""
    words = " ".join(re.sub(r"[`*#]", " ", heading).split()).replace(" :", ":")
    words = re.sub(r"^\w+:\s+", "", words)  # "ROCm: rocSHMEM support"
    return DOTTED_API.fullmatch(feature.name) is not None and words != feature.name \
        and not words.startswith(feature.name + ":")


def _marks_line(doc: Doc, line: Line, marker: Span) -> bool:
    """Whether a marker marks its line: any in a heading, one that opens or closes the words
    of a line of prose; not one inside a sentence ("TorchX now supports [AWS Batch](...) and
    [Ray (experimental)](...) schedulers in addition to ...": Ray's)."""
    if line.kind == "heading":
        return True
    text = _text(doc)
    before = _MARK_EDGE.sub("", text[line.start:marker.start_char])
    after = _MARK_EDGE.sub("", _LINK_TARGETS.sub("", text[marker.end_char:line.end]))
    return not before or not after


#: What may stand before a line's marker or after it: list marks, emphasis, punctuation.
_MARK_EDGE = re.compile(r"[\s*_`#.:;,\-\d\[\]()]+")
_LINK_TARGETS = re.compile(r"\]\([^)\s]*\)")


def _marked_groups(lines: list[Line], markers: dict[int, list[Span]], text: str,
                   markup: str) -> set[Line]:
    """Marked headings that group marked items: "(Beta) Distributed Training Updates" over bold
    "(Beta) CUDA support ..." bullets names no feature of its own; marked links of a list of
    tutorials are no items. Flattened text lost the levels and the bullet marks: there the
    items are the marked lines of prose after one that introduces a list ("...: ") and before
    the next heading."""
    flat = markup == "flat"
    items = ("bullet", "text") if flat else ("bullet", "heading")
    groups = set()
    for i, line in enumerate(lines):
        if line.kind != "heading" or not (line.level or flat) or not markers[line.start]:
            continue
        in_docs, listed = False, not flat
        for later in lines[i + 1:]:
            if later.kind == "heading" and (flat or 0 < later.level <= line.level):
                break
            in_docs = _in_docs(in_docs, later, text[later.start:later.end])
            if later.kind in items and markers[later.start] and listed and not in_docs:
                groups.add(line)
                break
            listed = listed or text[later.start:later.end].rstrip().endswith(":")
    return groups


def _in_docs(in_docs: bool, line: Line, text: str) -> bool:
    """Whether ``line`` is in a list of docs or tutorials ("Tutorials:", then bullets)."""
    return bool(_DOCS_LIST.search(text)) or (line.kind == "bullet" and in_docs)


def _library_item(listed: tuple[int, Span | None, Entity] | None, line: Line, text: str,
                  inside: list[Span], releases_of: dict[Entity, Span | None]
                  ) -> tuple[int, Span | None, Entity] | None:
    """The library list item the sub-items of a list belong to ("* torchvision", then "*
    (Stable) Native image I/O ..."): its depth, the library's release the post names, if
    one, and the library. A heading, or an item as shallow, ends it."""
    if line.kind == "heading" or (listed is not None and line.kind == "bullet"
                                  and line.level <= listed[0]):
        listed = None
    if line.kind == "bullet" and line.level and len(inside) == 1 and \
            inside[0].label_ == "Library" and inside[0].id_ != CORE_LIBRARY and \
            _span_text(inside[0]) == text.strip(" *-+_`"):
        library = _entity(inside[0])
        return line.level, releases_of.get(library), library
    return listed


def _library_feature(doc: Doc, line: Line, marker: Span, inside: list[Span],
                     library: Entity) -> Fact | None:
    """A marked feature in a library's section that names no release: part of the library."""
    feature = _heading_feature(doc, line, marker, inside)
    if feature is None:
        return None
    evidence = doc.char_span(line.start, line.end, alignment_mode="expand")
    return _code_fact("part_of.library_section", feature, library, evidence)


#: An opening that announces features: "Today, we are announcing four PyTorch prototype
#: features."
_ANNOUNCES_FEATURES = re.compile(
    rf"\b(?:announc|introduc|releas)\w*\s+(?:(?:a\s+)?(?:few|several|some|two|three|four|"
    rf"five|six|\d+|new)\s+)?(?P<library>[\w./-]+\s+)?(?:(?:{stability.WORDS})\s+)?features\b",
    re.I)


def _features_announced(doc: Doc, lines: list[Line], by_line: dict[int, list[Span]],
                        subject: Entity | None, outline: Outline) -> Entity | None:
    """The library whose features a post announces when no release opens it: its first
    paragraph says so ("Today, we are announcing four PyTorch prototype features"), and its
    headings name them (``_announced_feature``)."""
    if subject is not None or outline.headings or outline.announced or outline.libraries:
        return None
    first = next((line for line in lines if line.kind == "text"
                  and _text(doc)[line.start:line.end].strip()), None)
    found = first and _ANNOUNCES_FEATURES.search(_text(doc), first.start, first.end)
    library = found and found.group("library") and next(
        (s for s in by_line[first.start] if s.label_ == "Library"
         and s.start_char == found.start("library")), None)
    return _entity(library) if library else None


#: The rules of a post of no release whose line names a feature the section is then about.
_ANNOUNCED_RULES = {"part_of.announced_feature", "part_of.library_post_lead"}


def _topic_library(subject: Entity | None, outline: Outline,
                   title_doc: Doc | None) -> Entity | None:
    """The library other than PyTorch that a post of no release is about, as its title names
    it ("Up to 580tps! ... with TokenSpeed"): the bold lead lines of its sections of changes
    or features name its parts (``part_of.library_post_lead``)."""
    if subject is not None or outline.headings or outline.announced or outline.libraries:
        return None
    library = _title_library(title_doc)
    return library if library is not None and library.name != CORE_LIBRARY else None


def _announced_feature(doc: Doc, line: Line, inside: list[Span], library: Entity,
                       context: Context, rule: str = "part_of.announced_feature") -> Fact | None:
    """A top heading of a post that announces a library's features names one: part of the
    library ("## NNAPI Support with Google Android" of "four PyTorch prototype features"); so
    does a bold lead line in a section of changes or features of a post about a library
    ("**Gemma AllReduce Fusion**" under "## 3. Performance Optimizations")."""
    fact = _unmarked_line_fact(doc, line, inside, library, context)
    if fact is None or _span_text(doc.char_span(line.start, line.end, alignment_mode="expand")
                                  ).strip(" #*") == library.name:
        return None
    return replace(fact, type="PART_OF", source=fact.target, target=library, stability=None,
                   stated=None, rule=CODE_RULES[rule].id)


def _named_heading(text: str, inside: list[Span], line: Line) -> Entity | None:
    """The feature a heading consists of, if it names nothing else ("PyTorch Mobile"), or the
    feature or library it asks about ("Why Mooncake?", "What is TorchSpec?"): its section is
    about it. (A heading that is a library's name opens the library's section instead.)"""
    if len(inside) != 1 or inside[0].label_ not in ("Feature", "Library"):
        return None
    name = inside[0]
    start, end = name.start_char - line.start, name.end_char - line.start
    if name.label_ == "Feature" and _HEADING_MARKUP.fullmatch(text[:start]) \
            and _HEADING_MARKUP.fullmatch(text[end:]):
        return _entity(name)
    if _ASKS_ABOUT.fullmatch(text[:start]) and _QUESTION_END.fullmatch(text[end:]):
        return _entity(name)
    return None


#: What may stand around the name a heading consists of: its marks, spaces.
_HEADING_MARKUP = re.compile(r"[\s#*_`]*")
#: A heading's question about a library: "Why Mooncake?", "What is TorchSpec?".
_ASKS_ABOUT = re.compile(r"[\s#*_]*(?:why|what\s+(?:is|are))\s+", re.I)
_QUESTION_END = re.compile(r"\s*\?[\s*_]*")


def _unmarked_line_fact(doc: Doc, line: Line, inside: list[Span], release: Entity,
                        context: Context) -> Fact | None:
    """The feature an unmarked leaf heading or bold lead line of a release section names,
    with the stability of its section (``## API-UNSTABLE Features``), if any."""
    text = _text(doc)[line.start:line.end]
    words = " ".join(re.sub(r"[#*_`]+", " ", text).split())
    if not words or words.endswith(":") or _NO_NAME_LINE.match(words) or _names_only(text, inside):
        return None  # a caption or a sign-off ("Cheers!", "Team PyTorch") names no feature
    at = doc.char_span(line.start, line.end, alignment_mode="expand")
    if at is None:
        return None
    named = _after_device_prefix(text, line, inside)
    if named is not inside:  # "ROCm: Expandable segments": the name follows the colon
        line = Line(line.start + text.index(":") + 1, line.end, line.kind, line.level)
        text = _text(doc)[line.start:line.end]
    start = line.start + len(text) - len(text.lstrip(" \t*#-"))
    token = next((t for t in at if t.idx >= start), None)
    if token is None:
        return None
    empty = Span(doc, token.i, token.i)  # where a marker would stand: none is there
    feature = _heading_feature(doc, line, empty, named)
    if feature is None or _generic(feature.name):
        return None
    return _code_fact("introduces.section_heading", release, feature, at, context.word,
                      context.stated)


_NO_NAME_LINE = re.compile(CAPTION.pattern +
                      r"|^(cheers|thanks|thank you|regards|best|team \w+|the \w+ team)\W*$", re.I)


def _names_only(text: str, inside: list[Span]) -> bool:
    """Whether a heading names libraries, hardware or releases and says nothing else of
    them ("Introducing TorchData", "CUDA", "torchvision 0.7"): not one feature."""
    others = [s for s in inside if s.label_ in ("Library", "Hardware", "Platform", "Release")]
    if not others or any(s.label_ == "Feature" for s in inside):
        return False
    rest = text
    for span in others:
        rest = rest.replace(_span_text(span), " ")
    words = re.findall(r"[A-Za-z][\w.+-]*", rest.lower())
    return all(w in _ANNOUNCING for w in words)


_ANNOUNCING = {"introducing", "announcing", "introduction", "of", "the", "a", "an", "new",
               "welcome", "welcomes", "updates", "update", "and", "on", "for",
               "apple", "nvidia", "amd", "intel", "library", "libraries", "now", "available"}


def _after_device_prefix(text: str, line: Line, inside: list[Span]) -> list[Span]:
    """The names of a heading, without a hardware prefix before its colon ("ROCm: Expandable
    segments" names Expandable segments, under "### ROCm")."""
    colon = text.find(":")
    if colon < 0:
        return inside
    prefix = [s for s in inside if s.start_char < line.start + colon]
    if prefix and all(s.label_ in DEVICE_LABELS for s in prefix):
        return [s for s in inside if s not in prefix]
    return inside


def _marked_line_fact(doc: Doc, line: Line, marker: Span, inside: list[Span],
                      release: Entity, joins_core: bool = False) -> Fact | None:
    """What a marked line states: the release INTRODUCES the feature it names, or SUPPORTS
    the hardware it leads with. ``joins_core``: the line is in a section of the core release
    the post's title names, where a library it names alone joins PyTorch ("(Beta) functorch"
    in "PyTorch 1.13 release, ..."; not "TorchServe (Experimental)" in "PyTorch library
    updates ...")."""
    evidence = doc.char_span(line.start, line.end, alignment_mode="expand")
    feature = _heading_feature(doc, line, marker, inside, core=joins_core)
    if feature is not None and _ONE_WORD.fullmatch(feature.name):
        named = f"{_release_library(release).name} {feature.name}"
        feature = Entity("Feature", named) if named in _text(doc) else feature  # "TorchRec
        # Inference", as its section says
    if feature is not None:
        return _code_fact("introduces.marked_heading", release, feature, evidence,
                          marker.label_, _span_text(marker).strip())
    return _leading_support(doc, line, marker, inside, release)


#: A heading's name that is one plain word: under a library's release, the library's when
#: the post says so ("(Beta) Inference" of TorchRec 0.2 is "TorchRec Inference").
_ONE_WORD = re.compile(r"[A-Z][a-z]+")


def _marker_of(doc: Doc, line: Line) -> Span:
    """The first stability marker of a marked line."""
    return next(s for s in doc.spans["ptkg_stability"] if line.start <= s.start_char < line.end)


def _leading_support(doc: Doc, line: Line, marker: Span, inside: list[Span],
                     release: Entity) -> Fact | None:
    """The release SUPPORTS the hardware or platform a marked line starts with ("[Beta] AMD GPU
    Binaries Now Available": PyTorch 1.8 supports AMD GPUs, and introduces the binaries)."""
    hardware = _leading_hardware(inside, marker, _text(doc)[line.start:line.end], line.start)
    if not hardware:
        return None
    evidence = doc.char_span(line.start, line.end, alignment_mode="expand")
    return _code_fact("supports.marked_heading", release, _entity(hardware[0]), evidence)


def _section_facts(doc: Doc, lines: list[Line], by_line: dict[int, list[Span]],
                   subject: Entity | None, sections: dict[int, Section],
                   outline: Outline) -> list[Fact]:
    """Marked lines, the features an "Added ..." bullet of a release section lists, and
    stability stated in prose. Inside a marked feature's section, an "Added ..." bullet and a
    sentence stating the feature's own level are about that feature ("(Prototype) Distributed
    training on Windows", then "PyTorch 1.7 brings prototype support for DistributedDataParallel
    ... on the Windows platform"): they introduce nothing else."""
    facts = []
    listed = False  # the line before was an item of a list
    for line, section, fact in _sections(doc, lines, by_line, subject, outline):
        sections[line.start] = section
        # flattened text lost the marks of a list's items after its first ("* SoX is now
        # optional", then "New filters such as biquad ... are now available")
        item = line.kind == "bullet" or (outline.markup == "flat" and line.kind == "text" and (
            listed or bool(_LEVEL_LIST.match(_text(doc), line.start))))
        listed = item
        if fact is not None:
            facts.append(fact)
            facts.extend(_devices_in_heading_name(fact, by_line[line.start]))
            if fact.rule == CODE_RULES["introduces.marked_heading"].id:
                facts.extend(f for f in [_leading_support(
                    doc, line, _marker_of(doc, line), by_line[line.start], fact.source)] if f)
                if section.library is not None:
                    facts.append(replace(fact, type="PART_OF", source=fact.target,
                                         target=section.library, stability=None, stated=None,
                                         rule=CODE_RULES["part_of.core_library_section"].id))
            facts.extend(_on_section_hardware([fact], section))
        elif section.release is not None and section.marked is None and item:
            facts.extend(_added_features(doc, line, by_line[line.start], section.release))
        if fact is None and line.kind != "code" and section.release is not None:
            facts.extend(f for f in _prose_stability(doc, line, by_line[line.start],
                                                     section.release)
                         if not _same_level(f.stability, section.marked, section.release))
            facts.extend(_trailing_stability(doc, by_line[line.start], section.release))
            facts.extend(_moved_to_level(doc, line, section.release))
            facts.extend(_now_at_level(doc, line, by_line[line.start], section.release))
            facts.extend(_section_at_level(doc, line, section))
            facts.extend(_earlier_releases(doc, by_line[line.start], section))
            facts.extend(_level_released(doc, line, by_line[line.start], section.release))
            facts.extend(_kept_at_level(doc, line, by_line[line.start], section.release))
            said_new = _said_new(doc, line, by_line[line.start], section.release)
            facts.extend(said_new + _on_section_hardware(said_new, section))
        if line.kind != "code":
            facts.extend(_adding_with_release(doc, by_line[line.start]))
        if fact is None and line.kind in ("text", "bullet") and section.feature is not None:
            facts.extend(_section_devices(doc, line, by_line[line.start], section.feature))
    return facts


def _on_section_hardware(facts: list[Fact], section: Section) -> list[Fact]:
    """What a release introduces in a section about hardware supports it: "### ROCm", then
    "**ROCm: rocSHMEM support**"; "**MPS: Metal-4 offline shader compilation**", then "A
    companion API (`torch._C._mps_loadMetalllib`) was also added"."""
    if section.hardware is None:
        return []
    return [replace(fact, type="SUPPORTS", source=fact.target, target=section.hardware,
                    stability=None, stated=None, rule=CODE_RULES["supports.section_hardware"].id)
            for fact in facts if fact.type == "INTRODUCES"]


#: What a sentence would do, or would have done: a past or a plan, not what is supported.
_WOULD = re.compile(r"\bwould\b", re.I)
#: What a document is: a tutorial, a notebook, a demo app, docs.
_DOCUMENTS = r"tutorials?|notebooks?|demo(?:\s+apps?)?|docs|documentation|recipes?"
#: A line that names a document, not a fact: "* iOS/Android Tutorial", "* Android demo app".
_DOCS_LINE = re.compile(rf"\b(?:{_DOCUMENTS})\W*$", re.I)
#: A platform named as the home of a document, where nothing is said to run: "this colab
#: notebook", "this [Colab notebook](...)".
_A_DOCUMENT = re.compile(rf"\s+(?:{_DOCUMENTS})\b", re.I)
#: Where a thing is built, which is not where it runs: "wheels ... built on macOS 26".
_BUILT_ON = re.compile(r"\bbuilt\s+(?:on|with)\s+$")


def _section_devices(doc: Doc, line: Line, inside: list[Span], feature: Entity) -> list[Fact]:
    """The hardware and platforms the body of a feature's section names, each supported by the
    feature ("AOTInductor supports the same backends as Inductor, including CUDA, ROCm"; a
    sentence naming a device in a section about the feature is about running it there; what
    "were only supported on Linux" before still is), but a bare CPU or GPU, a device the
    feature's own name names (``supports.named_in_feature``) and a line that names a document
    ("* iOS/Android Tutorial") or a platform a document is of ("this colab notebook") or a
    thing is built on ("built on macOS 26"), nor a device of a sentence about what was before
    ("Previous versions of PyTorch provided optimized CUDA implementations", "In PyTorch 2.0,
    AVX2 kernels would be used", "the same path that was previously CUDA-only"). The evidence is
    the line."""
    text = _text(doc)
    devices = [s for s in inside if s.label_ in DEVICE_LABELS
               and s.id_ not in ANY_DEVICE and s.id_ not in feature.name
               and not PAST_LEAD.match(text[s.sent.start_char:s.start_char])
               and not _WAS_BEFORE.search(text, s.sent.start_char, s.start_char)
               and not _WOULD.search(text, s.sent.start_char, s.sent.end_char)
               and not _A_DOCUMENT.match(text, s.end_char)
               and not _BUILT_ON.search(text, max(0, s.start_char - 20), s.start_char)]
    if not devices or _DOCS_LINE.search(text, line.start, line.end):
        return []
    evidence = doc.char_span(line.start, line.end, alignment_mode="expand")
    return [_code_fact("supports.in_feature_section", feature, _entity(device), evidence)
            for device in devices] if evidence is not None else []


#: What a device right after it was before and no longer is: "a path that was previously
#: CUDA-only" (now on ROCm too).
_WAS_BEFORE = re.compile(r"\b(?:previously|formerly)\s+$", re.I)


def _adding_with_release(doc: Doc, inside: list[Span]) -> list[Fact]:
    """What a sentence says a release adds, in any post: "With PyTorch 1.11 we're adding native
    support for Fully Sharded Data Parallel (FSDP), currently available as a prototype feature"
    (1.11 INTRODUCES FSDP, Prototype), and what it says is available from a release: "FSDP is
    available from the PyTorch/XLA 1.12 and newer nightly releases"."""
    text = _text(doc)
    facts = []
    for span in inside:
        if span.label_ != "Release" or _of_toolkit(span):
            continue
        facts.extend(_code_fact("introduces.release_adds", _entity(span), _entity(feature),
                                span.sent) for feature in _recalled(span, inside, text))
        feature = _added_by(span, inside, text) or _added_since(span, inside, text) \
            or _available_from(span, inside, text)
        if feature is None:
            continue
        level = _SINCE_LEVEL.search(text, feature.end_char, span.sent.end_char)
        word = level.group("word") if level else None
        facts.append(_code_fact("introduces.release_adds", _entity(span), _entity(feature),
                                span.sent, word and word.lower(), word))
    return facts


def _added_by(release: Span, inside: list[Span], text: str) -> Span | None:
    """The feature of "With PyTorch 1.11 we're adding X": a core release opens the sentence."""
    if not _is_core(_entity(release)) or not _WITH_RELEASE.fullmatch(
            text, release.sent.start_char, release.start_char):
        return None
    adding = _WE_ADD.match(text, release.end_char)
    return next((f for f in inside if f.label_ == "Feature" and f.sent == release.sent
                 and adding is not None and f.start_char >= adding.end()), None)


def _added_since(release: Span, inside: list[Span], text: str) -> Span | None:
    """The feature of "Since PyTorch 2.6, X86 CPU support of FlexAttention was added": a core
    release opens the sentence, and the last feature named before "was added" is its."""
    if not _is_core(_entity(release)) or not _SINCE_RELEASE.fullmatch(
            text, release.sent.start_char, release.start_char):
        return None
    added = _WAS_ADDED.search(text, release.end_char, release.sent.end_char)
    return next((f for f in reversed(inside) if f.label_ == "Feature" and added is not None
                 and release.end_char <= f.start_char and f.end_char <= added.start()), None)


def _recalled(release: Span, inside: list[Span], text: str) -> list[Span]:
    """The features of "PyTorch 2.11 expanded that foundation with differentiable collectives,
    FlashAttention-4 on next-generation GPUs, and ...": a core release that opens the sentence
    and what it did, in the past tense, with the features named after it; not what it ended
    ("laid the groundwork with ... and the formal deprecation of TorchScript")."""
    if not _is_core(_entity(release)) or not _SUBJECT_LEAD.fullmatch(
            text, release.sent.start_char, release.start_char):
        return []
    did = _DID_WITH.match(text, release.end_char, release.sent.end_char)
    return [f for f in inside if f.label_ == "Feature" and f.sent == release.sent
            and did is not None and f.start_char >= did.end()
            and not _ENDED.search(text, max(did.end(), f.start_char - 40), f.start_char)]


def _available_from(release: Span, inside: list[Span], text: str) -> Span | None:
    """The feature of "X is available from the PyTorch/XLA 1.12 ...": the sentence's subject,
    what is available from the release."""
    subject = next((f for f in inside if f.label_ == "Feature" and f.sent == release.sent
                    and f.start_char < release.start_char), None)
    if subject is None or not _SUBJECT_LEAD.fullmatch(text, subject.sent.start_char,
                                                      subject.start_char):
        return None
    between = _AVAILABLE_FROM.fullmatch(text, subject.end_char, release.start_char)
    return subject if between else None


#: Up to two words before a sentence's subject: "The new ".
_SUBJECT_LEAD = re.compile(r"\W*(?:[\w-]+\s+){0,2}")
#: "is available from the", "are now included in", "is available starting with".
_AVAILABLE_FROM = re.compile(r"\W*\s+(?:is|are)\s+(?:now\s+)?(?:available|included)\s+"
                             r"(?:in|from|since|starting\s+(?:in|with|from))\s+(?:the\s+)?", re.I)


#: What a release did, said after its name: "expanded that foundation with", "introduced".
_DID_WITH = re.compile(r"\W*(?:(?:expanded|extended|built\s+on|laid|followed)\b[^.;:,]{0,40}?"
                       r"\bwith|introduced|added|brought|shipped|delivered)\s", re.I)
#: What was ended, said right before its name: "the deprecation of", "removing".
_ENDED = re.compile(r"\b(?:deprecat|remov|drop)\w*\s+(?:of\s+|support\s+for\s+)?(?:the\s+)?\W*$",
                    re.I)
#: "With PyTorch 1.11", "In PyTorch 2.0", at the start of a sentence.
_WITH_RELEASE = re.compile(r"\W*(?:with|in)\s+(?:the\s+)?", re.I)
_SINCE_RELEASE = re.compile(r"\W*(?:since|starting\s+(?:in|with|from)|as\s+of)\s+(?:the\s+)?",
                            re.I)
_WAS_ADDED = re.compile(r"\b(?:was|were|has\s+been|have\s+been)\s+(?:first\s+)?"
                        r"(?:added|introduced)\b", re.I)
#: "we're adding", "we are introducing", "we have added": what the release brings follows.
_WE_ADD = re.compile(r"(?:\s+release)?\s*,?\s*we(?:['’]re|\s+are|\s+have)?\s+"
                     r"(?:adding|introducing|added|introduced|releasing|shipping)\b", re.I)


def _same_level(word: str | None, marked: str | None, release: Entity) -> bool:
    """Whether a stability word states the level of the section's marked feature: in 2.0,
    "Experimental support for PT2 compilation" under "[Prototype] torch.compile(dynamic=True)"
    restates the heading's level."""
    return None not in (word, marked) and stability.level(word, None, release.name) == \
        stability.level(marked, None, release.name)


def _prose_stability(doc: Doc, line: Line, inside: list[Span], release: Entity) -> list[Fact]:
    """Stability stated in prose: "Stable level async error/timeout handling was added".

    Prose is sentences: a short fragment without final punctuation (the cell "Beta Support for
    M1 devices" of a summary table, a caption) restates a heading, it states nothing.
    """
    text = _text(doc)
    facts = []
    for m in _STATED_STABILITY.finditer(text, line.start, line.end):
        if text[m.end():m.end() + 1] in ("(", ":"):
            continue  # "support for semi-structured (2:4) sparsity": the name runs on
        sentence = doc.char_span(m.start(), m.end(), alignment_mode="expand").sent
        if _fragment(_span_text(sentence)):
            continue
        name = _NAME_STOP.sub("", " " + m.group("name")).strip()  # "Beta level for ...": none
        named = [s for s in inside if m.start("name") <= s.start_char < m.start("name") + len(name)]
        if _generic(name) or len(name.split()) > 5 or (named and named[0].label_ != "Feature"):
            continue  # "Beta support for AMD GPUs" is support; "for features such as" none
        exact = named[0] if named and len(named[0].text) == len(name) else None
        feature = _entity(exact) if exact is not None else Entity("Feature", name)
        facts.append(_code_fact("introduces.stated_stability", release, feature, sentence,
                                m.group(1).lower(), m.group(1)))
    return facts


def _now_at_level(doc: Doc, line: Line, inside: list[Span], release: Entity) -> list[Fact]:
    """A sentence of a release section that says a feature is now at a level: "The Complex
    Autograd feature, released as a beta in PyTorch 1.8, is now stable." Its subject is the
    feature, or "It" the feature the sentence before is about ("The `torchvision.transforms.v2`
    namespace was still in BETA stage until now. It is now stable!")."""
    text = _text(doc)
    if not _NOW.search(text, line.start, line.end):
        return []  # most lines: no sentence to split
    facts = []
    before, previous = None, None  # the feature the sentence before is about, and that sentence
    for sentence in doc.char_span(line.start, line.end, alignment_mode="expand").sents:
        names = [s for s in inside if s.label_ == "Feature"
                 and sentence.start_char <= s.start_char < sentence.end_char]
        found = _NOW_AT_LEVEL.match(text, sentence.start_char, sentence.end_char)
        refers = found is not None and found.group("subject").lower() in ("it", "this")
        feature = before if refers else found and next(
            (s for s in names if s.end_char <= found.end("subject")), None)
        if found and feature is not None:
            evidence = doc[previous.start:sentence.end] if refers else sentence
            facts.append(_code_fact("introduces.now_at_level", release, _entity(feature),
                                    evidence, found.group("level").lower(),
                                    found.group("level")))
        before = next((s for s in names if s.root.dep_ in ("nsubj", "nsubjpass")), None) \
            or (names[0] if names else None)
        previous = sentence
    return facts


_NOW = re.compile(rf"\bnow\s+(?:(?:in|at)\s+)?(?:{stability.WORDS})\b", re.I)
#: "<subject> is now stable": the level a sentence says its subject has reached.
_NOW_AT_LEVEL = re.compile(rf"\W*(?P<subject>[^.!?]+?)\s+(?:is|are)\s+now\s+(?:(?:in|at)\s+)?"
                           rf"(?P<level>{stability.WORDS})\b(?=\s*[.!]|\s+and\b)", re.I)


#: The verbs that move a feature to a level: "moved to stable", "graduated to beta".
_MOVED = r"moved|graduat\w*|promoted"


def _section_at_level(doc: Doc, line: Line, section: Section) -> list[Fact]:
    """What a feature's section says its feature was pushed to: "Now it has been further
    improved ..., which is pushed to Beta level for broader adoption" under "## FP16 on X86
    CPU Support for Eager and Inductor Modes" (Intel's PyTorch 2.6 post). A heading's marker
    says the level itself."""
    if section.feature is None or section.marked is not None or section.release is None:
        return []
    text = _text(doc)
    return [_code_fact("introduces.stated_stability", section.release, section.feature,
                       doc.char_span(m.start(), m.end(), alignment_mode="expand").sent,
                       m.group("word").lower(), m.group("word"))
            for m in _PUSHED_TO_LEVEL.finditer(text, line.start, line.end)]


#: A level a section's feature is moved to: "pushed to Beta level", "promoted to the stable stage".
_PUSHED_TO_LEVEL = re.compile(
    rf"\b(?:{_MOVED}|pushed|upgraded|elevated)\s+to\s+(?:the\s+)?"
    rf"(?P<word>{stability.WORDS})\s+(?:level|stage|status|quality)\b", re.I)


def _fragment(sentence: str) -> bool:
    """Whether a sentence is a fragment: fewer than eight words and no final punctuation."""
    words = sentence.split()
    return len(words) < 8 and not re.search(r"[.!?:;]\W*$", sentence.strip())


def _moved_to_level(doc: Doc, line: Line, release: Entity) -> list[Fact]:
    """Features a sentence lists as moved to a level: "several features moved to stable
    including custom C++ Classes, the memory profiler, ... such as Per-RPC timeout"."""
    text = _text(doc)
    facts = []
    for m in _MOVED_TO.finditer(text, line.start, line.end):
        sentence = doc.char_span(m.start(), m.end(), alignment_mode="expand").sent
        items = re.split(r",\s*(?:and\s+)?|\s+and\s+|\s+such as\s+",
                         text[m.end():sentence.end_char].rstrip(" .;"))
        for item in items:
            name = " ".join(w for w in item.strip().rstrip(".;:").split()
                            if w.lower() not in ("the", "a", "an"))
            if name and len(name.split()) <= 6 and not _LIST_FILLER.search(name):
                facts.append(_code_fact("introduces.moved_to_level", release,
                                        Entity("Feature", name), sentence, m.group("word"),
                                        m.group("word")))
    return facts


_MOVED_TO = re.compile(
    rf"\b(?:{_MOVED})\s+to\s+\W*(?P<word>{stability.WORDS})\W*\s+"
    r"(?:including|such as|:)\s+", re.I)
_LIST_FILLER = re.compile(r"\b(number of|other features|features|and more)\b", re.I)


def _earlier_releases(doc: Doc, inside: list[Span], section: Section) -> list[Fact]:
    """What an earlier release shipped, as a later post recalls it: "The Complex Autograd
    feature, released as a beta in PyTorch 1.8, is now stable" (1.8: Beta; this one: Stable).

    A name inside the name of the section's feature stands for that feature ("Autograd" in
    "The Complex Autograd feature ..." under "(Stable) Complex Autograd"); a sentence that
    names no feature is about the section's ("Since v1.12, PyTorch has been offering native
    builds ... as a prototype feature" under "(Beta) Support for M1 Devices").
    """
    text = _text(doc)
    release = section.release
    if section.feature is not None and section.feature.label != "Feature":
        section = replace(section, feature=None)  # "Why Mooncake?": no release's feature
    facts = []
    for span in inside:
        if span.label_ != "Release" or _entity(span) == release:
            continue
        since = _SINCE_LEVEL.search(text, span.start_char, span.sent.end_char)
        if section.feature is not None and since is not None and _SINCE.search(
                text, span.sent.start_char, span.start_char):  # "Since v1.12, ... as a
            word = since.group("word")  # prototype feature": the section's feature, then
            facts.append(_code_fact("introduces.earlier_release", _entity(span),
                                    section.feature, span.sent, word.lower(), word))
            continue
        before = _EARLIER.search(text, span.sent.start_char, span.start_char)
        named = next((f for f in reversed(inside) if f.label_ == "Feature"
                      and f.sent.start == span.sent.start and before is not None
                      and f.end_char <= before.start() and _opens(f)), None)
        if named is None:
            continue
        feature = _entity(named)
        if section.feature is not None and (name_key(feature.name) in name_key(
                section.feature.name) or _of_generic_subject(named)):
            feature = section.feature
        after = _AS_LEVEL.match(text, span.end_char)
        word = before.group("word") or (after.group("word") if after else None)
        facts.append(_code_fact("introduces.earlier_release", _entity(span), feature,
                                span.sent, word and word.lower(), word))
        now = _NOW_LEVEL.search(text, span.end_char, span.sent.end_char)
        if now is not None:
            facts.append(_code_fact("introduces.stated_stability", release, feature,
                                    span.sent, now.group("word").lower(), now.group("word")))
    return facts


def _level_released(doc: Doc, line: Line, inside: list[Span], release: Entity) -> list[Fact]:
    """What an earlier release shipped at a level, the release named first: "In the previous
    release 0.15 we BETA-released a new set of transforms in X" (torchvision 0.15 in a
    torchvision 0.16 section). The feature is the first the sentence names after the verb."""
    text = _text(doc)
    facts = []
    for m in _LEVEL_RELEASED.finditer(text, line.start, line.end):
        sentence = doc.char_span(m.start(), m.end(), alignment_mode="expand").sent
        earlier = next((_entity(s) for s in reversed(inside) if s.label_ == "Release"
                        and sentence.start_char <= s.start_char < m.start()
                        and _entity(s) != release), None)
        previous = _PREVIOUS_RELEASE.search(text, sentence.start_char, m.start())
        if earlier is None and previous is not None:
            library = release.name.rpartition(" ")[0]
            earlier = Entity("Release", f"{library} {previous.group('version')}")
        feature = next((s for s in inside if s.label_ == "Feature"
                        and m.end() <= s.start_char < sentence.end_char), None)
        if earlier is not None and earlier != release and feature is not None:
            word = m.group("word") or m.group("as_word")
            facts.append(_code_fact("introduces.earlier_release", earlier, _entity(feature),
                                    sentence, word.lower(), word))
    return facts


def _kept_at_level(doc: Doc, line: Line, inside: list[Span], release: Entity) -> list[Fact]:
    """Features a release keeps at a level: "We're keeping the X and Y namespaces as BETA
    until 0.17" (each at Beta in the section's release)."""
    text = _text(doc)
    facts = []
    for m in _KEPT_AS.finditer(text, line.start, line.end):
        sentence = doc.char_span(m.start(), m.end(), alignment_mode="expand").sent
        facts.extend(_code_fact("introduces.stated_stability", release, _entity(s), sentence,
                                m.group("word").lower(), m.group("word"))
                     for s in inside if s.label_ == "Feature"
                     and m.start("names") <= s.start_char < m.end("names"))
    return facts


_LEVEL_RELEASED = re.compile(rf"\b(?:(?P<word>{stability.WORDS})-released|released\s+as\s+"
                             rf"(?:an?\s+)?(?P<as_word>{stability.WORDS})\b)", re.I)
_PREVIOUS_RELEASE = re.compile(r"\b(?:previous|last|prior)\s+release\s+v?"
                               r"(?P<version>\d{1,2}\.\d{1,2})(?![\d.]\d)", re.I)
_KEPT_AS = re.compile(rf"\bkeep(?:s|ing)?\s+(?P<names>(?:[^.!?]|\.(?=\w))+?)\s+as\s+"
                      rf"(?P<word>{stability.WORDS})\b(?!\s+as\b)", re.I)  # not "as stable as"


def _of_generic_subject(span: Span) -> bool:
    """Whether a name only qualifies a sentence's generic subject: "Support for using the
    PyTorch profiler in conjunction with the RPC framework was first introduced in PyTorch 1.6"
    is said of the section's feature (RPC-based profiling), not of the profiler."""
    subject = next((t for t in span.sent if t.dep_ in ("nsubj", "nsubjpass")), None)
    return subject is not None and subject.lower_ in _GENERIC_SUBJECTS and not (
        span.start <= subject.i < span.end or subject.head.i in range(span.start, span.end))


_GENERIC_SUBJECTS = {"support", "functionality", "ability", "integration", "work"}


def _opens(span: Span) -> bool:
    """Whether a name is what its sentence is about: its subject, or in its first words."""
    root = span.root
    return span.start - span.sent.start <= 4 or root.dep_ in ("nsubj", "nsubjpass") or (
        root.dep_ == "compound" and root.head.dep_ in ("nsubj", "nsubjpass"))


_EARLIER = re.compile(
    rf"\b(?:first\s+)?(?:released|introduced|launched|added)\s+(?:as\s+(?:an?\s+)?"
    rf"(?P<word>{stability.WORDS})\s+)?in\s+(?:the\s+)?$", re.I)
_SINCE = re.compile(r"\bsince\s+$", re.I)
_SINCE_LEVEL = re.compile(rf"\bas\s+an?\s+(?P<word>{stability.WORDS})\s+feature\b", re.I)
_AS_LEVEL = re.compile(rf"\s+as\s+(?:an?\s+)?(?P<word>{stability.WORDS})\b", re.I)
_NOW_LEVEL = re.compile(rf"\b(?:is|are)\s+(?:now\s+)?(?P<word>{stability.WORDS})\b", re.I)


def _trailing_stability(doc: Doc, inside: list[Span], release: Entity) -> list[Fact]:
    """A stability word after a feature's name: "our Android GPU backend prototype"."""
    return [_code_fact("introduces.stated_stability", release, _entity(span), span.sent,
                       trailing.group(1).lower(), trailing.group(1))
            for span in inside if span.label_ == "Feature"
            and (trailing := _TRAILING_STABILITY.match(_text(doc), span.end_char))]


def _devices_in_heading_name(fact: Fact, inside: list[Span]) -> list[Fact]:
    """ "(Prototype) CUDA-support in RPC using TensorPipe": the feature supports CUDA.

    The heading counts up to its explanation after a dash, with what a short colon tail lists
    ("TorchVision Mobile: Operators, Android Binaries, and Tutorial").
    """
    if fact.type != "INTRODUCES":
        return []
    heading = re.sub(_DASH_TAIL, "", fact.evidence)
    if len(heading.partition(":")[2].split()) > 8:  # ": Compared to CPU RPC and ...": prose
        heading = heading.partition(":")[0]
    words = set(re.findall(r"[\w.+/]+", heading))
    devices = [span for span in inside if span.label_ in DEVICE_LABELS]
    named = {span.text for span in devices}
    words |= {part for word in words if set(word.split("/")) <= named
              for part in word.split("/")}  # "(for Linux/macOS)", not "Multi-GPU/multi-node"
    return [replace(fact, type="SUPPORTS", source=fact.target, target=_entity(span),
                    rule=CODE_RULES["supports.named_in_feature"].id, stability=None)
            for span in devices if set(re.findall(r"[\w.+/]+", span.text)) <= words]


def _added_features(doc: Doc, line: Line, inside: list[Span], release: Entity) -> list[Fact]:
    """ "Added the Griffin-Lim functional, InverseMelScale and Vol transforms": new features."""
    text = _text(doc)[line.start:line.end]
    verb = _ADDED.match(text)
    if verb is None:
        return []
    evidence = doc.char_span(line.start, line.end, alignment_mode="expand")
    known = [_entity(s) for s in inside if s.label_ == "Feature"]
    rest = text[verb.end():]
    intro = [m for m in _LIST_INTRO.finditer(rest) if len(rest[:m.start()].split()) <= 4]
    items = _listed_items(rest[intro[-1].end():] if intro else rest)
    others = {_span_text(s).lower() for s in inside if s.label_ != "Feature"}
    listed = [Entity("Feature", item) for item in items if item.lower() not in others]
    word = stability.WORD.search(text[:intro[-1].start() + verb.end()] if intro else text)
    stated = word.group(1) if word else None
    return [_code_fact("introduces.added_bullet", release, feature, evidence,
                       stated.lower() if stated else None, stated)
            for feature in dict.fromkeys(known + listed)]


def _said_new(doc: Doc, line: Line, inside: list[Span], release: Entity) -> list[Fact]:
    """What a release section's sentence says is new or updated (the guidelines' "presents as
    new or updated"): its subject "was also added" ("A companion API (torch._C._mps_loadMetalllib)
    was also added"), what something "now exposes" ("torch.Stream now exposes an is_capturing()
    method"), and the API a bullet opens with that "now" does more ("torch.export.save now
    supports Microscaling (MX) quantization formats"). Only in a post that marks no feature
    (of the 2.8 era): a post that marks them names each one it presents in a heading."""
    if doc.spans["ptkg_stability"]:
        return []
    text = _text(doc)
    facts = []
    for span in inside:
        if span.label_ != "Feature":
            continue
        sentence = span.sent
        lead = text[max(sentence.start_char, line.start):span.start_char]
        after = text[span.end_char:min(sentence.end_char, line.end)]
        said = (_ADDED_SUBJECT.fullmatch(lead) and _WAS_ADDED.match(after)
                or _NOW_EXPOSES.search(lead)
                or line.kind == "bullet" and _is_api(span)
                and _BULLET_LEAD.fullmatch(text, line.start, span.start_char)
                and _DOES_MORE.match(after))
        if said:
            facts.append(_code_fact("introduces.said_new", release, _entity(span), sentence))
    return facts


#: Up to three words before a sentence's subject: "A companion API (".
_ADDED_SUBJECT = re.compile(r"\W*(?:[\w-]+\s+){0,3}\(?\s*")
_WAS_ADDED = re.compile(r"\s*\)?\s+(?:was|were|has\s+been|have\s+been)\s+(?:also\s+)?added\b",
                        re.I)
_NOW_EXPOSES = re.compile(r"\bnow\s+(?:exposes|exposed)\s+(?:an?|the)\s+(?:new\s+)?\W*$", re.I)
#: A bullet that opens with a name: "* ", "* New ".
_BULLET_LEAD = re.compile(r"\W*(?:new\s+)?\W*", re.I)
#: "now supports ...", "control flow can now be captured".
_DOES_MORE = re.compile(r"\W*(?:[a-z]+\s+){0,2}(?:can\s+)?now\b")


#: A line that lists the features of one level: "New prototype features and technologies
#: across TensorParallel, DTensor, ...", a bullet whose mark flattened text lost.
_LEVEL_LIST = re.compile(rf"\W*new\s+(?:{stability.WORDS})\s+features?\b[^.]*?\b"
                         r"(?:across|including|such as)\s", re.I)


def _listed_items(text: str) -> list[str]:
    """The names of a list like "X, Y and Z filters": short items, generic nouns removed. A
    list with a long item is a sentence ("constraints on names of submodules, parameters, and
    buffers in nn.Module"), which lists no names."""
    text = re.split(r"\s+(?:to|which|that|for|so|in order)\s+|[;(]|\.(?!\w)", text,
                    maxsplit=1)[0]
    if _NOT_FEATURE_WORDS.search(text):
        return []
    items = []
    for item in _LIST_SPLIT.split(text):
        item = re.split(r"\s+(?:such as|like|including)\s+", item)[-1]  # "transforms such as MFCC"
        words = [w for w in item.split() if w.lower() not in _GENERIC_WORDS]
        if words and words[0].lower() in _PREDICATE_WORDS:
            continue  # "..., are now available"
        if len(words) > 3:
            return []
        if words:
            items.append(" ".join(words))
    return _shared_heads(items, text) if len(items) >= 2 else []


def _shared_heads(items: list[str], text: str) -> list[str]:
    """Items that share the next item's last word: "time and frequency masking" is "time
    masking" and "frequency masking"."""
    shared = list(items)
    for i, (item, after) in enumerate(zip(items, items[1:], strict=False)):
        words = after.split()
        if " " not in item and item.islower() and len(words) >= 2 and after.islower() \
                and f"{item} and {after}" in text:
            shared[i] = f"{item} {words[-1]}"
    return shared


#: What separates the items of a list: "A, B and C", "A, B, and C".
_LIST_SPLIT = re.compile(r",\s*(?:and\s+)?|\s+and\s+")
#: The words that start a list's predicate, not an item: "..., are now available".
_PREDICATE_WORDS = {"are", "is", "was", "were", "now", "will", "can", "have", "has"}


def _heading_feature(doc: Doc, line: Line, marker: Span, inside: list[Span],
                     core: bool = False) -> Entity | None:
    """The feature a marked line names: a known feature in it, else the line's own words.

    A line that names a library alone ("TorchServe (Experimental)") names the library, no
    feature, except in a section of a ``core`` release: there the library joins PyTorch ("(Beta)
    functorch", "(Beta) TorchElastic is now part of core") and is its feature.
    """
    text = _text(doc)[line.start:line.end]
    head_end = line.start + len(_HEADING_TAIL.sub("", text))
    named = [s for s in inside if s.start_char < head_end and s.label_ != "Release"]
    leading = [s for s in named if s.start_char <= _name_start(text, line.start, marker) + 2]
    rest = _text(doc)[leading[0].end_char:head_end].replace(marker.text, "") if leading else ""
    if leading and leading[0].label_ == "Library" and _LIBRARY_ONLY.match(rest) and (
            core or not _SUPPORT_NAME.match(rest)):  # "ROCm: rocSHMEM support": a feature
        return Entity("Feature", leading[0].id_) if core else None
    joined = _AND_REST.match(rest) if leading and leading[0].label_ == "Library" else None
    if joined:  # "ROCm: hipSPARSELt and FP8 semi-structured sparsity": the library's feature
        return Entity("Feature", _plain_name(joined.group("name").strip(" .:-–*_`")))
    trailing = _TRAILING_API.search(text)
    if trailing:  # "Up to 100x faster batched eigendecomposition on CUDA (`linalg.eigh`)"
        return Entity("Feature", _torch_api(trailing.group("api")))
    default = _NEW_DEFAULT.match(_text(doc), marker.end_char, head_end)
    if default:  # "Changing the default backend to “sox_io” (for Linux/macOS), and ..."
        return Entity("Feature", f"{default.group('name')} {default.group('kind').lower()}")
    generic = _GENERIC_LEAD.match(_text(doc)[marker.end_char:head_end])
    named_after_colon = _COLON_NAME.search(text)
    if generic and named_after_colon:  # "Improved third-party device support: PrivateUse1"
        return Entity("Feature", named_after_colon.group("name"))
    features = [s for s in named if s.label_ == "Feature"]
    known = [s for s in features if (
        (s in leading and _ends_name(s, _text(doc)[s.end_char:head_end]))
        or (_is_api(s) and (_VIA.search(_text(doc)[line.start:s.start_char])
                            or (generic and len(features) == 1 and _only_linking(
                                _text(doc)[marker.end_char + generic.end():s.start_char])))))]
    if known:
        return _entity(known[0])
    where = _AVAILABLE_IN.search(_text(doc), marker.end_char, head_end)
    if where:  # "CUDA support is available in RPC": "CUDA support", then "in RPC"
        head_end = where.start()
    subject_end = _predicate_start(doc, marker.end_char, head_end)
    if not _generic(_text(doc)[marker.end_char:subject_end]):
        head_end = subject_end  # not "New algorithms include ...": that names nothing
    rel_start, rel_end = marker.start_char - line.start, marker.end_char - line.start
    name = text[:rel_start] + " " + text[rel_end:head_end - line.start]
    if where:
        name = f"{name.rstrip()} {where.group('where')}"
    name = _PACKAGE_OF_LIST.sub(r"\g<api>", _LIST_LEAD_END.sub("", name))
    name = _plain_name(" ".join(_HEADING_LEAD.sub("", name).split()).strip(" .:-–"))
    if not name or len(name.split()) > 14 or name.split()[0].lower() in _PRONOUNS or \
            _generic(name) or _DATASET.search(name):
        return None  # "[Beta] We integrate some RLHF components": a sentence, not a name;
        # "[Stable] WiderFace dataset": data, which the graph does not hold
    return Entity("Feature", name)


#: The verb a heading that leads a list ends with: "All ... methods ... now support:".
_LIST_LEAD_END = re.compile(r"\s+(?:now\s+(?:support|include|provide|offer)s?\s*:?|"
                            r"(?:support|include|provide|offer)s?\s*:)[\s*_`]*$", re.I)
#: What of a package a heading names, which is the package: "methods in the io.image package".
_PACKAGE_OF_LIST = re.compile(r"^.*?\bin\s+the\s+`?(?P<api>[A-Za-z_]\w*(?:\.\w+)+)`?\s+"
                              r"(?:package|module|namespace)\s*$", re.I)


#: A change of a default, which names the new one: "Changing the default backend to “sox_io”".
_NEW_DEFAULT = re.compile(r"\W*(?:chang|switch|mov)\w*\s+(?:the\s+)?default\s+(?P<kind>[A-Za-z-]+)"
                          r"\s+(?:from\s+\S+\s+)?to\s+[“\"'`]*(?P<name>[A-Za-z_][\w.-]*\w)", re.I)


def _only_linking(between: str) -> bool:
    """Whether only linking words stand between a heading's generic lead and its API: the
    heading improves or supports the API ("Improvements to torch.compile-ing Optimizers"
    updates torch.compile), unless it names what of it ("Support for User-defined Triton
    kernels in torch.compile": those kernels are the feature)."""
    return all(w in _LINKING for w in re.findall(r"[\w-]+", between.lower()))


_LINKING = {"to", "for", "of", "in", "the", "a", "an", "and", "on"}


_PRONOUNS = {"we", "you", "it", "this", "they", "our", "these"}
_DATASET = re.compile(r"\b(?:datasets?|benchmarks?)$", re.I)


def _plain_name(name: str) -> str:
    """A heading's name without what is not the feature's: a leading "New", quotes around
    words ("‘Channels last’ memory format"), the blank of masked emphasis before a hyphen
    ("torch.export -based Quantization"), a level it restates at its end ("... Support in
    Beta") or marks inside it ("RNN-T & (Prototype) Emformer Models"), the purpose it ends
    with ("Caching allocator for performance improvements", "prepare_for_inference (for
    TorchScript Modules)", "memory format for Computer Vision models") and the places it lists
    ("File-like object support in both sox_io backend, soundfile backend and sox_effects").
    The device it is for stays: "Channels Last on CPU" is not "Channels Last"."""
    name = _RESTATED_LEVEL.sub("", _MASKED_BEFORE_HYPHEN.sub("", _QUOTES.sub("", name)))
    name = _PURPOSE_END.sub("", _INNER_LEVEL.sub(" ", name))
    newless = _NEW_LEAD.sub("", name)
    if newless != name and newless.split()[0].lower() not in _GENERIC_NOUNS:
        name = newless  # not "A new API to apply filter, effects and codec"
    return name.strip()


#: A heading's words after the library it starts with: "hipSPARSELt and FP8 ... sparsity".
_AND_REST = re.compile(r"^\s*and\s+(?P<name>\w.*?)\s*$")
_QUOTES = re.compile(r"[‘“”\"]|’(?!\w)")
#: A level the name restates at its end: "(Beta) Android NNAPI Support in Beta".
_RESTATED_LEVEL = re.compile(rf"\s+(?:in|to|as)\s+(?:{stability.WORDS})\s*$", re.I)
#: A level marked inside a name: "RNN-T & (Prototype) Emformer Models and Recipes".
_INNER_LEVEL = re.compile(rf"(?<=\S)\s+[\[(](?:{stability.WORDS})[\])]\s+(?=\S)", re.I)
#: The purpose a name ends with: "for performance improvements", "(for TorchScript Modules)";
#: the places it lists: "in both sox_io backend, soundfile backend and sox_effects".
_PURPOSE_END = re.compile(r"\s+(?:for\s+(?:better\s+|improved\s+)?(?:performance|speed|"
                          r"efficiency)(?:\s+(?:improvements?|gains?))?|\(for\s[^()]+\)"
                          r"|for\s+(?:[\w-]+\s+){1,3}models|in\s+both\s.+)\s*$", re.I)
#: The blank masked emphasis leaves before a hyphen: "_torch.export_-based" is one word.
_MASKED_BEFORE_HYPHEN = re.compile(r"(?<=\w) +(?=-\w)")
_NEW_LEAD = re.compile(r"^new\s+(?=\S)", re.I)
#: Where a subject is available: it belongs to the name ("CUDA support in RPC").
_AVAILABLE_IN = re.compile(r"\s+(?:is|are)\s+(?:now\s+)?(?:available|supported|enabled)\s+"
                           r"(?P<where>(?:in|on|for)\s+[^.:;,]+?)[\s*_`]*$", re.I)
_TRAILING_API = re.compile(r"\(\s*(?P<api>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\s*\)\W*$")
#: torch's modules, which posts also write without "torch." ("linalg.eigh", "nn.Module").
TORCH_MODULES = {"linalg", "fft", "nn", "special", "sparse", "distributed", "export", "cuda",
                 "mps", "xpu", "accelerator", "compiler", "autograd", "jit", "fx", "func",
                 "utils", "ao", "quantization", "profiler", "backends", "optim", "library"}


def _torch_api(name: str) -> str:
    """``linalg.eigh`` is ``torch.linalg.eigh``; other dotted names stay as they are."""
    return f"torch.{name}" if name.split(".")[0] in TORCH_MODULES else name


def _generic(name: str) -> bool:
    """Whether a name is only generic words: "New algorithms", "A new API", "features"."""
    words = re.findall(r"[\w./+-]+", name.lower())
    return all(w in _GENERIC_WORDS or w in _GENERIC_NOUNS for w in words)


_GENERIC_NOUNS = {"api", "apis", "feature", "features", "algorithm", "algorithms", "model",
                  "models", "operator", "operators", "option", "options", "tool", "tools",
                  "functionality", "improvement", "improvements", "update", "updates"}


def _predicate_start(doc: Doc, start: int, end: int) -> int:
    """Where a heading that reads as a sentence starts saying something of its subject.

    "Tensor Parallelism introduces more efficient ways to train LLMs" names Tensor Parallelism.
    Needs the parse: without it, the heading runs to ``end``.
    """
    heading = doc.char_span(start, end, alignment_mode="expand")
    root = next((t for t in heading or () if t.dep_ == "ROOT" and t.pos_ in ("VERB", "AUX")
                 and t.is_lower), None)  # "CUDA Graphs APIs": a capital is a name, no verb
    words = [t for t in heading or () if not t.is_punct]
    if root is None or root == words[-1] or not any(
            t.dep_ in ("nsubj", "nsubjpass") and t.idx >= start and t.pos_ != "PRON"
            for t in root.lefts):
        return end  # "iOS support" ends with its "verb": a name, not a sentence
    lead = [t for t in root.lefts if t.dep_ in ("aux", "auxpass", "advmod", "neg")]
    subject = [t for t in words if start <= t.idx < root.idx]
    if root.tag_ == "VBN" and not lead and all(t.is_lower for t in subject[1:]):
        return end  # "Stack traces added to profiler": common words name no feature alone
    return min([root.idx] + [t.idx for t in lead])


_STATED_STABILITY = re.compile(
    rf"\b({stability.WORDS})\s+"
    r"(?:level\s+(?:support\s+for\s+)?|support\s+for\s+)(?P<name>(?:[^;:,.()]|\.(?=\w))+)",
    re.I)
_NAME_STOP = re.compile(
    r"\s+(?:was|were|is|are|has|have|will|to|and|in|for|on|with|which|that|from|including|such|"
    r"via|using)\b.*$", re.I)
_TRAILING_STABILITY = re.compile(r"[ \t]+(prototype|beta)\b", re.I)  # "our X prototype"
_DOCS_LIST = re.compile(r"\b(tutorials?|user guides?|recipes?|documentation)\s*:\s*$", re.I)
_ADDED = re.compile(r"^\W*(?:added|adds|introduced|introduces|new)\s+(?:support\s+for\s+)?", re.I)
_NOT_FEATURE_WORDS = re.compile(r"\b(datasets?|bugs?|fix\w*|docs?|documentation|tests?)\b", re.I)
_LIST_INTRO = re.compile(r"\b(?:across|including|such as|like)\s+", re.I)
_GENERIC_WORDS = {"the", "a", "an", "new", "functional", "functionals", "transform",
                  "transforms", "filter", "filters", "transformation", "transformations",
                  "function", "functions", "support", "and", "both", "several", "more",
                  "efficiency", "usability", "reliability", "quality", "various", "general",
                  "other", "miscellaneous"}
_MARKED_LEAD = re.compile(r"[^\w\[(]*(?:[\[(]\s*(?:now\s+)?\w+\s*[\])])?\W*", re.I)
#: A name that ends in support: "rocSHMEM support", "GPU inference support", "NNAPI Support with
#: Google Android" (PyTorch's support of it); not "TorchElastic integration with Kubernetes",
#: the library's own.
_SUPPORT_NAME = re.compile(r"\W*(?:integration|support(?:\s+(?:with|for|on)\s.*)?)\W*$", re.I)
_LIBRARY_ONLY = re.compile(
    r"\s*($|integration\b|support\b|now\s+(?:available|stable|beta|in)\b|is\b)", re.I)
_GENERIC_LEAD = re.compile(
    r"\W*(ability|support|improved|improvements?|new|updated|enhanced|extend\w*|adds?)\b", re.I)
def _is_api(span: Span) -> bool:
    """Whether a name is an API's (``torch.fx``, also when written "FX"), not an area's."""
    return "." in (span.id_ or span.text) or "::" in (span.id_ or span.text)


def _ends_name(span: Span, rest: str) -> bool:
    """Whether a heading's name ends with the known name ``span``: nothing but "(", a suffix
    such as "module" follows; "support ..." and a dash also end an API's name ("torch.fft
    support for NumPy style FFTs", "torch.fx - Python code transformations"), not an area's
    ("ProcessGroup support in custom ops", "RPC - Asynchronous User Functions")."""
    return bool(_NAME_ENDS.match(rest) or (_is_api(span) and _API_ENDS.match(rest)))


_API_ENDS = re.compile(r"\s+[-–—]\s|\s*support\b", re.I)
_NAME_ENDS = re.compile(r"\s*($|\(|(?:module|APIs?|package)\s*(?:$|\())", re.I)
_VIA = re.compile(r"\b(via|with|through)\s+$", re.I)


def _name_start(text: str, offset: int, marker: Span) -> int:
    """Where the name of a marked line starts: after "1. [Beta] ", or at the start of
    "TorchElastic integration with Kubernetes (Experimental)" (a trailing marker)."""
    start = offset + _MARKED_LEAD.match(text, _HEADING_LEAD.match(text).end()).end()
    if marker.start_char > start:  # the marker trails: the line starts with its name
        start = offset + len(text) - len(text.lstrip(" \t*#-"))
    return start


def _leading_hardware(inside: list[Span], marker: Span, text: str, offset: int) -> list[Span]:
    """Hardware and platforms a marked heading starts with ("[Beta] AMD GPU Binaries")."""
    start = _name_start(text, offset, marker)
    return [s for s in inside if s.start_char <= start + 2 and s.label_ in DEVICE_LABELS]


def _named_after_library(spans: list[Span], library_names: dict[str, str] | None) -> list[Fact]:
    """A feature whose name starts with a library's ("PyTorch Profiler") is part of it, and so
    is an API in a library's module ("torchaudio.pipelines.MMS_FA"; "tlx.async_dot" of TLX, a
    library the post names). Not a ``torch`` API: every core API would be part of PyTorch, and
    the golds give that only where a sentence says so."""
    libraries = library_names or {}
    modules = {**{s.text.lower(): s.id_ for s in spans if s.label_ == "Library"}, **libraries}
    facts = []
    for span in spans:
        library = next(filter(None, (_library_opening(name, modules, libraries)
                                     for name in (span.text, span.id_))), None) \
            if span.label_ == "Feature" else None  # "PyTorch MPS Backend"; "Triton's autotuner"
        if library:
            facts.append(_code_fact("part_of.named_after_library", _entity(span),
                                    Entity("Library", library), _sentence_holding(span)))
    return facts


def _library_opening(name: str, modules: dict[str, str], libraries: dict[str, str]) -> str | None:
    """The library whose name or module opens a feature's name: "torchaudio.pipelines",
    "Helion autotuner", "DeepSpeedZeroOptimizer"."""
    words = name.split()
    first = words[0].lower()
    module, dot, rest = first.partition(".")
    if dot and rest:
        library = modules.get(module)
        return None if library == CORE_LIBRARY else library  # torch.* says nothing more
    return libraries.get(first) if len(words) > 1 else _camel_prefix(name, libraries)


#: A name in code's shape: "MambaSlot", "fused_qk_rmsnorm_rope_gate", "hl.tile".
_CODE_SHAPE = re.compile(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|"
                         + ALIAS_MEMBER.pattern)


def _library_post_code(spans: list[Span], topic: Entity | None, facts: list[Fact],
                       raw: str) -> list[Fact]:
    """The classes and functions a post about a library writes as code are the library's
    parts ("`MambaSlot`" of the post about TokenSpeed, "hl.tile" of the post about Helion),
    unless something else owns them or they are PyTorch's ("`nn.Module`")."""
    if topic is None:
        return []
    owned = {f.source for f in facts if f.type == "PART_OF"}
    seen, found = set(), []
    for span in spans:
        entity = _entity(span)
        if span.label_ != "Feature" or entity in owned or entity in seen \
                or not _CODE_SHAPE.fullmatch(span.text) \
                or not (_written_as_code(span, raw) or _member_of_alias(span.text, topic)) \
                or span.text.lower().startswith(("torch", "nn.")):
            continue
        seen.add(entity)
        found.append(_code_fact("part_of.library_post_code", entity, topic,
                                _sentence_holding(span)))
    return found


def _written_as_code(span: Span, raw: str) -> bool:
    """Whether the post writes a name as code: in backticks, or called ("mark_step()")."""
    return raw[span.start_char - 1:span.start_char] == "`" \
        or raw[span.end_char:span.end_char + 2] == "()"


def _member_of_alias(name: str, library: Entity) -> bool:
    """Whether a name is a member of a module alias opening with the library's first letter:
    "hl.tile" of Helion (helion.language as hl)."""
    return ALIAS_MEMBER.fullmatch(name) is not None and name[0] == library.name[0].lower()


def _camel_prefix(name: str, libraries: dict[str, str]) -> str | None:
    """The library a one-word CamelCase name opens with, spelled as the library is:
    "DeepSpeedZeroOptimizer" is DeepSpeed's; "XlaFullyShardedDataParallel" is not XLA's."""
    return next((name[:end] for end in range(len(name) - 1, 2, -1)
                 if name[end].isupper() and libraries.get(name[:end].lower()) == name[:end]),
                None)


_NAMED_BASE = re.compile(r"(?<![\w.-])(?P<base>[\w.]+)-based\s+\S")


def _named_for_base(doc: Doc, spans: list[Span], facts: list[Fact]) -> list[Fact]:
    """A feature named for a feature or library of the post it is based on ("RPC-based
    Profiling", "torch.export-based quantization"), for the library it supports ("rocSHMEM
    support") or for what a technique is done to ("FlexAttention pipelining"), a name the
    finder found or a heading a release introduces ("[Stable] Switch to CMake-based build")."""
    bases = {s.text.lower(): s for s in spans if s.label_ in BASE_LABELS}
    named = [(_entity(s), _sentence_holding(s)) for s in spans if s.label_ == "Feature"] + [
        (f.target, doc.char_span(f.start, f.end, alignment_mode="expand")) for f in facts
        if f.type == "INTRODUCES" and f.target.label == "Feature" and f.start >= 0]
    found = []
    for feature, evidence in named:
        base = next((bases.get(m["base"].lower()) for m in _NAMED_BASE.finditer(feature.name)
                     if m["base"].lower() in bases), None)
        first, _, rest = feature.name.partition(" ")
        if base is None and rest and _SUPPORT_NAME.match(rest):  # "rocSHMEM support": built
            base = bases.get(first.lower())  # on the library it is named for
            base = base if base is not None and base.label_ == "Library" else None
        words = feature.name.split()
        if base is None and len(words) > 1 and re.fullmatch(r"[a-z]+ing", words[-1]):
            base = bases.get(words[-2].lower())  # "FlexAttention pipelining"
        if base is not None and _entity(base) != feature and evidence is not None:
            found.append(_code_fact("based_on.named_based", feature, _entity(base), evidence))
    return found


def _sentence_holding(span: Span) -> Span:
    """``span``'s sentence, up to the span's end where the parser ended the sentence inside
    it (at a list item's "torchaudio.pipelines." of "torchaudio.pipelines.WAVLM_LARGE")."""
    return span.doc[span.sent.start:max(span.sent.end, span.end)]


def _devices_in_names(doc: Doc, spans: list[Span]) -> list[Fact]:
    """A feature or library whose name names hardware or a platform ("Android GPU backend",
    "DuaLip-GPU") supports it."""
    holding = _holders([s for s in spans if s.label_ in ("Feature", "Library")])
    return [_code_fact("supports.named_in_feature", _entity(feature), _entity(device),
                       feature.sent)
            for device in doc.spans.get("ptkg_inner", [])
            for feature in holding(device) if not _toolkit_concept(feature, device)]


def _code_names(doc: Doc, spans: list[Span]) -> list[Fact]:
    """A code name in parentheses is a generation or product of the hardware it follows, the
    family: "Intel Core Ultra processor family with Intel Graphics (Codename Meteor Lake)",
    "3rd Gen Intel Xeon Scalable processor (codenamed Cooper Lake)". Not when a figure stands
    between ("Xeon Platinum 8380H CPU @ 2.90GHz (codenamed Cooper Lake)": that product is one
    of the code name's)."""
    text = _text(doc)
    hardware = [s for s in spans if s.label_ == "Hardware"]
    starts = [s.start_char for s in hardware]
    facts = []
    for m in CODE_NAME.finditer(text):
        at = bisect.bisect_left(starts, m.start("name"))
        if 0 < at < len(hardware) and hardware[at].start_char == m.start("name") and (
                family := hardware[at - 1]).sent == hardware[at].sent \
                and _ONLY_WORDS.fullmatch(text, family.end_char, m.start()):
            facts.append(_code_fact("variant_of.code_name", _entity(hardware[at]),
                                    _entity(family), family.sent))
    return facts


#: Words only, between a family's name and its code name ("family with Intel® Graphics").
_ONLY_WORDS = re.compile(r"(?:[^\W\d_]|[\s®™])*")


def _toolkit_concept(feature: Span, device: Span) -> bool:
    """Whether a name is a toolkit's own concept, the toolkit opening it ("CUDA Graphs",
    "CUDA Green Contexts"): the toolkit owns it, it is not what the feature runs on."""
    return device.start == feature.start and device.id_ in TOOLKITS \
        and not _SUPPORT_NAME.match(feature.doc[device.end:feature.end].text)


def _holders(spans: list[Span]) -> Callable[[Span], list[Span]]:
    """A function that gives the ``spans`` that hold a span, in their order.

    Spans in order that do not overlap (the entity finder's) are searched by bisection: one
    scan of every feature for every device made a long post quadratic.
    """
    starts = [s.start for s in spans]
    disjoint = all(a.end <= b.start for a, b in zip(spans, spans[1:], strict=False))

    def holding(inner: Span) -> list[Span]:
        candidates = spans
        if disjoint:
            k = bisect.bisect_right(starts, inner.start) - 1
            candidates = spans[k:k + 1] if k >= 0 else []
        return [s for s in candidates if s.start <= inner.start and inner.end <= s.end]

    return holding


def _released_with(spans: list[Span], subject: Entity | None,
                   kinds: dict[str, str]) -> list[Fact]:
    """In a post about a core release, every other PyTorch library's release shipped with it:
    one with "torch" in its name (torchvision, PyTorch/XLA, TorchServe, ExecuTorch), or one the
    pack gives the kind ``domain`` or ``ecosystem`` (FBGEMM), the newest the post names of each
    library (the others are looked back at); a toolkit (CUDA, cuDNN, NCCL) ships none."""
    if subject is None or not subject.name.startswith(CORE_LIBRARY + " "):
        return []
    shipped = [s for s in spans
               if s.label_ == "Release" and not s.id_.startswith(CORE_LIBRARY + " ")
               and ("torch" in s.id_.lower() or _library_kind(_entity(s), kinds) in (
                   "domain", "ecosystem"))]
    newest: dict[str, tuple] = {}  # "Since the 0.6 release" under torchaudio 0.9 looks back
    for library, version in (_library_version(s) for s in shipped):
        newest[library] = max(newest.get(library, ()), version)
    return [_code_fact("released_with.core_release_post", _entity(s), subject, s.sent)
            for s in shipped if newest[_library_version(s)[0]] == _library_version(s)[1]]


def _library_version(release: Span) -> tuple[str, tuple]:
    """A release's library and its version's sort key: ("torchaudio", (0, 9))."""
    library, _, version = release.id_.rpartition(" ")
    return library, version_key(version)


def _library_kind(release: Entity, kinds: dict[str, str]) -> str | None:
    """The kind the alias pack gives a release's library: "domain" for torchaudio 0.5."""
    library = _release_library(release)
    return kinds.get(library.name) if library else None


def _typed_by_text(names: Iterable[Span], spans: list[Span]) -> list[Span]:
    """The title's names, each a guessed Feature typed as the post's text types it: "with
    TokenSpeed" names the Library that "TokenSpeed is an ... inference engine" does."""
    labels: dict[str, set[str]] = defaultdict(set)
    for span in spans:
        labels[span.id_].add(span.label_)
    return [Span(s.doc, s.start, s.end, label=next(iter(labels[s.id_])), span_id=s.id_)
            if s.label_ == "Feature" and labels[s.id_] in ({"Library"}, {"Model"}) else s
            for s in names]


def _title_library(title_doc: Doc | None) -> Entity | None:
    """The library a post's title is about: the one it names besides PyTorch, if only one."""
    named = {_entity(s) for s in title_doc.spans["ptkg"] if s.label_ == "Library"} \
        if title_doc is not None else set()
    others = named - {Entity("Library", CORE_LIBRARY)} or named
    return next(iter(others)) if len(others) == 1 else None


def _title_topic(title_doc: Doc | None) -> Entity | None:
    """What a post's title is about: the feature it introduces, named in apposition
    ("Introducing nvFuser, a deep learning compiler for PyTorch"), else its library
    (``_title_library``), else the feature that opens it before a colon ("TLX Block
    Attention: A Warp-Specialized Blackwell Kernel ...")."""
    if title_doc is None:
        return None
    text = _text(title_doc)
    first = next(iter(title_doc.spans["ptkg"]), None)
    opening = first is not None and first.label_ == "Feature" and \
        first.start_char == _HEADING_LEAD.match(text).end()
    if opening and text[first.end_char:].lstrip().startswith(","):
        return _entity(first)
    library = _title_library(title_doc)
    if library is not None:
        return library
    if opening and first.start_char == 0 and text[first.end_char:].lstrip().startswith(":"):
        return _entity(first)
    return None


def _is_core(release: Entity | None) -> bool:
    """Whether a release is one of PyTorch's own ("PyTorch 1.13")."""
    return release is not None and release.name.startswith(CORE_LIBRARY + " ")


def _release_library(release: Entity | None) -> Entity | None:
    return Entity("Library", release.name.rpartition(" ")[0]) if release else None


#: Words that make a library's sentence its release's news: "torchaudio now supports Windows".
_RELEASE_NEWS = re.compile(r"\b(?:now|this release|this version)\b", re.I)
#: A sentence about every library release of a post: "all three domain libraries are ...".
_ALL_LIBRARIES = re.compile(r"\b(?:all|each of the|both)\s+(?:the\s+)?(?:\w+\s+)?"
                            r"domain\s+librar(?:y|ies)\b", re.I)


def _planned_items(lines: list[Line], text: str) -> set[int]:
    """The starts of the items of lists whose lead sentence states a plan: "Planned features
    in 2.5 include:", "Coming releases will focus on:"."""
    planned, lead = set(), False
    for line in lines:
        words = text[line.start:line.end].strip()
        if line.kind == "bullet":
            if lead:
                planned.add(line.start)
        elif words:
            last = re.split(r"(?<=[.!?])\s+", words)[-1]
            lead = last.endswith(":") and bool(_PLAN_LEAD.search(last))
    return planned


#: A list's lead sentence that states a plan.
_PLAN_LEAD = re.compile(r"\b(?:planned|coming|upcoming|future|roadmap|will)\b", re.I)


def _sentence_facts(doc: Doc, subject: Entity | None, lines: list[Line],
                    sections: dict[int, Section], topic: Entity | None,
                    libraries: list[Entity], only_core: Entity | None) -> list[Fact]:
    """Relations read around trigger phrases.

    A source the sentence leaves implied is the feature whose section the sentence is in, else
    (for SUPPORTS) the release the post is about, else the ``topic`` of its title but PyTorch.
    A subject that refers back ("it", "the project", "this work") is that feature, else the
    library of the section's release, else the ``topic`` of the post's title
    (``_title_topic``). What "all (three) domain libraries" end, each release of a domain
    library (the pack's ``kind``) the post announces (``libraries``) ends. A deprecation left
    to no release is ``only_core``'s, the one PyTorch release the post names, if it names one
    only ("deprecating apex.amp" in the AMP post, which names 1.6); not a removal: "remove" is
    also said of overhead ("which nvFuser can't completely remove").
    """
    starts = [line.start for line in lines]
    ending = {r.sentence.start for r in doc._.ptkg_relations or [] if r.type in ENDINGS}
    planned = _planned_items(lines, _text(doc))
    facts = []
    for relation in doc._.ptkg_relations or []:
        if relation.type == "SUPPORTS" and relation.sentence.start in ending:
            continue  # "we are deprecating macOS x86 support": a deprecation, never support
        line = lines[bisect.bisect_right(starts, relation.sentence.start_char) - 1]
        if line.start in planned:
            continue  # "Planned features in 2.5 include: * Windows ... support": not yet
        section = sections.get(line.start, Section(subject, None))
        source = _entity(relation.source) if relation.source is not None else None
        toolkit = relation.type in ENDINGS and source is not None and _of_toolkit(
            relation.source)  # "CUDA 11.7 and deprecation of CUDA 10.2": a toolkit ends nothing
        if toolkit:
            source = None
        elif source is None and not relation.implied_source:
            continue
        if source is None and section.feature is not None \
                and section.feature.label in RELATION_TYPES[relation.type].sources:
            if relation.type == "DEVELOPED_BY" and section.changed:
                continue  # "torch.export now supports MX ... Contributed by (ARM)": the change
            source = section.feature
        lead = _ITEM_LEAD.match(_text(doc), line.start, line.end) \
            if source is None and relation.anaphor and line.kind == "bullet" else None
        if lead is not None:  # "* Torchmeta, which ... It features ...": Torchmeta, if known
            named = next((s for s in doc.spans["ptkg"] if s.start_char == lead.start("name")),
                         None)
            if named is None or named.label_ not in RELATION_TYPES[relation.type].sources:
                continue
            source = _entity(named)
        if source is None and relation.anaphor:
            source = _release_library(section.release) or topic
        if source is None and relation.type in ENDINGS and libraries and _ALL_LIBRARIES.search(
                _text(doc), relation.sentence.start_char, relation.sentence.end_char):
            facts.extend(_fact(relation.type, library, _entity(relation.target), relation.rule,
                               relation.sentence) for library in libraries)
            continue  # "all three domain libraries are removing support for Python2"
        if source is None and relation.type in ("SUPPORTS", *ENDINGS):
            source = section.release or subject or (
                topic if relation.type == "SUPPORTS" and topic != Entity("Library", CORE_LIBRARY)
                else only_core if relation.type == "DEPRECATES" else None)
        elif source == Entity("Library", CORE_LIBRARY) and relation.type in ("SUPPORTS",
                                                                             *ENDINGS):
            source = subject or source  # "PyTorch" in a post about PyTorch 1.12 is 1.12
        elif source is not None and source.label == "Library" and relation.type in (
                "SUPPORTS", *ENDINGS) and _RELEASE_NEWS.search(relation.sentence.text):
            # "torchaudio now supports Windows" under torchaudio 0.6 is that release's news;
            # "torch_xla is a Python package that ... on Cloud TPUs" is the library's
            source = next((r for r in (section.release, subject) if r is not None
                           and _release_library(r) == source), source)
        if source is None:
            continue
        target = _entity(relation.target)
        if not RELATION_TYPES[relation.type].fits(source.label, target.label):
            if relation.source is None or source.name == target.name:
                continue  # a twin is the name the sentence says it of, not "it"
            source = Entity("Feature", source.name)  # a rule's twin: ExecuTorch as a part
        facts.append(_fact(relation.type, source, target, relation.rule, relation.sentence))
    return facts


#: A list item that opens with a name and says what it is: "Torchmeta, which", "TorchX - a";
#: an "it" later in the item is that name.
_ITEM_LEAD = re.compile(r"[\s*+-]*(?P<name>[A-Z][\w.+/-]*(?:[ \t]+[A-Z][\w.+/-]*){0,3})"
                        r"[ \t]*(?:,[ \t]+(?:which|a|an|the)\b|[ \t]+[-\u2013\u2014:][ \t]+)")


def _component_lists(doc: Doc, lines: list[Line], by_line: dict[int, list[Span]],
                     topic: Entity | None) -> list[Fact]:
    """The parts of a library a list says it has: the items of a list that a line ending in
    "<library> includes:" leads ("In particular, the library includes:", "the new influence
    subsection of Captum includes:"). An item names a part by its opening words ("A planner
    which can ...", "Optimized RecSys kernels powered by FBGEMM"), or by what it lists
    ("Modeling primitives, such as embedding bags and jagged tensors"); an item that names a
    device's support ("GPU inference support") says the library supports it. "The library" or
    "it" is the library of the section's heading, else of the post's title (``topic``).
    """
    text = _text(doc)
    facts = []
    for at, lead in enumerate(lines):
        found = _COMPONENT_LEAD.match(text, lead.start, lead.end) if lead.kind == "text" else None
        owner = found and _list_owner(text, found.group("subject"), lead, lines[:at], by_line,
                                      topic)
        if not owner:
            continue
        for item in _list_items(lines[at + 1:], text):
            facts.extend(_component_facts(doc, item, by_line[item.start], owner))
    return facts


#: A highlight item its library's bold name leads: "* **TorchAudio** - Major improvements ...".
_HIGHLIGHT_LEAD = re.compile(r"\s*[*+-]\s+\*\*")
_HIGHLIGHT_DASH = re.compile(r"\*\*\s*[-\u2013\u2014:]\s")


def _library_highlights(doc: Doc, lines: list[Line], by_line: dict[int, list[Span]],
                        raw: str) -> list[Fact]:
    """The devices and platforms of a list item that its library's bold name leads ("*
    **TorchCSPRNG** - ... new APIs for AES128 ECB/CTR and CUDA support on Windows"): the
    library supports each; and the features it names are the library's parts ("including
    defaulting to sox_io backend"), but those it works with ("Added support for PyTorch Mobile",
    "switched to PyTorch native Complex type", "[AMP autocasting]" linked to PyTorch's docs,
    "autograd support"), those that only modify a noun ("EmbeddingModule benchmarks") and
    torch's APIs."""
    facts = []
    for item in lines:
        inside = by_line[item.start]
        if item.kind != "bullet" or not inside or inside[0].label_ != "Library" or \
                inside[0].id_ == CORE_LIBRARY or not _HIGHLIGHT_LEAD.fullmatch(
                    raw, item.start, inside[0].start_char) or not _HIGHLIGHT_DASH.match(
                    raw, inside[0].end_char):
            continue
        evidence = doc.char_span(item.start, item.end, alignment_mode="expand")
        facts.extend(_code_fact("supports.library_highlight", _entity(inside[0]), _entity(s),
                                evidence)
                     for s in inside[1:] if s.label_ in DEVICE_LABELS)
        facts.extend(_code_fact("part_of.library_highlight", _entity(s), _entity(inside[0]),
                                evidence)
                     for s in inside[1:] if s.label_ == "Feature" and _own_part(s, raw))
    return facts


#: Words right before a name a library's item works with, not one it has.
_WORKS_WITH = re.compile(r"(?:support\s+for|compatible\s+with|with|by|native|switched\s+to)\s+\W*$",
                         re.I)
#: Words right after a name that make it a modifier: "EmbeddingModule benchmarks", "autograd
#: support" (not a kind that names it: "Kaldi Pitch feature"); or a link to PyTorch's docs
#: ("[AMP autocasting](https://pytorch.org/docs/...)").
_MODIFIES = re.compile(r"[\s*_`]*(?:(?!(?:and|or|in|to|features?|transforms?|modules?|apis?|"
                       r"functions?|operators?|class)\b)[a-z][\w-]*\b|"
                       r"[^\]\n]*\]\(https?://pytorch\.org/docs)")


def _own_part(span: Span, raw: str) -> bool:
    """Whether a feature a library's highlight names is the library's own (see
    :func:`_library_highlights`)."""
    before = raw[max(0, span.start_char - 30):span.start_char]
    return not (_WORKS_WITH.search(before) or _MODIFIES.match(raw, span.end_char)
                or span.id_.startswith("torch."))


def _renaming_headings(doc: Doc, lines: list[Line], by_line: dict[int, list[Span]]) -> list[Fact]:
    """A heading that names a thing, an arrow and another: the second replaces the first
    ("[Beta] functorch -> torch.func", whose section says the APIs moved). Only in a heading:
    in prose an arrow also writes a pipeline ("PyTorch -> ONNX -> TensorRT")."""
    text = _text(doc)
    facts = []
    for line in lines:
        names = [s for s in by_line[line.start] if s.label_ in ("Feature", "Library")]
        if line.kind != "heading" or len(names) != 2:
            continue
        old, new = names
        if _ARROW.fullmatch(text, old.end_char, new.start_char) and old.id_ != new.id_:
            evidence = doc.char_span(line.start, line.end, alignment_mode="expand")
            facts.append(_code_fact("replaces.renaming_heading", _entity(new), _entity(old),
                                    evidence))
    return facts


_ARROW = re.compile(r"[`*_\s]*(?:->|→|⟶)[`*_\s]*")


def _list_owner(text: str, subject: str, lead: Line, before: list[Line],
                by_line: dict[int, list[Span]], topic: Entity | None) -> Entity | None:
    """The library a list's lead line is about: named in its subject, else the library "the
    library" or "it" refers to."""
    end = lead.start + len(subject.rstrip())
    named = [s for s in by_line[lead.start] if s.label_ == "Library" and s.end_char <= end
             and _ADVERB_ONLY.fullmatch(text, s.end_char, end)]
    if named:  # "... subsection of Captum includes:", "TorchRec also includes:"
        return _entity(named[-1])
    if not _REFERS_TO_LIBRARY.search(subject):
        return None
    heading = next((line for line in reversed(before) if line.kind == "heading"), None)
    spans = by_line[heading.start] if heading is not None else []
    libraries = [_entity(s) if s.label_ == "Library" else _release_library(_entity(s))
                 for s in spans if s.label_ in ("Library", "Release")]
    return libraries[0] if libraries else topic


def _list_items(after: list[Line], text: str) -> Iterator[Line]:
    """The bullet lines right after a list's lead line (blank lines between them skipped)."""
    for line in after:
        if line.kind == "bullet":
            yield line
        elif text[line.start:line.end].strip():
            return


def _component_facts(doc: Doc, item: Line, inside: list[Span], owner: Entity) -> list[Fact]:
    text = _text(doc)
    start = item.start + len(text[item.start:item.end]) - len(text[item.start:item.end].lstrip())
    evidence = doc.char_span(item.start, item.end, alignment_mode="expand")
    first = next((s for s in inside if s.start_char <= start + 2), None)
    if first is not None and first.label_ == "Library":
        return []  # another library in a list of them
    if first is not None and first.label_ == "Feature":
        return [_code_fact("part_of.component_list", _entity(first), owner, evidence)]
    head = _ITEM_HEAD.match(text, start, item.end)
    words = [t for t in doc[evidence.start:evidence.end] if not t.is_space
             and head and head.start("name") <= t.idx < head.end("name")]
    opening = next((t for t in doc[evidence.start:evidence.end] if not t.is_space), None)
    tagged = doc.has_annotation("TAG")  # the blank model has no tagger: names unchecked
    if not words or opening is None or (tagged and opening.tag_ not in _NAME_TAGS):
        return []  # "Added support for ...", "In partnership with ...": a change, not a part
    verb = next((i for i, t in enumerate(words) if i and t.tag_ in ("VBN", "VBD")
                 and t.nbor().tag_ == "IN"), len(words))  # "Pre-trained models built on"
    name = text[words[0].idx:words[verb - 1].idx + len(words[verb - 1])]
    if len(name.split()) > 4 or name.split()[-1].lower() in _NOT_PARTS:
        return []
    devices = [s for s in inside if s.label_ in DEVICE_LABELS
               and s.end_char <= start + len(name)]
    if devices and _SUPPORT_NAME.search(name):  # "GPU inference support."
        return [_code_fact("supports.component_list", owner, _entity(s), evidence)
                for s in devices]
    listed = _SUCH_AS.match(text, head.end(), item.end) if head else None
    names = ([n.strip() for n in _LIST_SPLIT.split(listed.group("items"))]
             if listed else [name])
    parts = [Entity("Feature", n) for n in names if n and len(n.split()) <= 4
             and not _generic(n) and not _NOT_FEATURE_WORDS.search(n) and not devices]
    return [_code_fact("part_of.component_list", part, owner, evidence) for part in parts] + [
        _code_fact("based_on.component_list", of, base, evidence)
        for base in _powered_by(text, head.end() if head else start, inside)
        for of in (*parts[:1], owner)]


#: What an item's part is built with, right after its name: "kernels powered by [FBGEMM]".
_POWERED_BY = re.compile(r"\s*(?:powered\s+by|built\s+(?:on|upon|with)|based\s+on)\s+\W*", re.I)


def _powered_by(text: str, end: int, inside: list[Span]) -> list[Entity]:
    """The library or feature an item's name is said to be powered by, right after it: one
    item's part and the library it is a part of are based on it."""
    found = _POWERED_BY.match(text, end)
    return [_entity(s) for s in inside if found and s.start_char == found.end()
            and s.label_ in ("Library", "Feature")]


#: A line that leads a list of a library's parts: "In particular, the library includes:".
_COMPONENT_LEAD = re.compile(r"(?P<subject>[^\n:]*?)\b(?:includes?|provides?|offers?|contains?|"
                             r"consists\s+of|comes\s+with)\s*:\s*$", re.I)
#: What may stand between a lead's library and its verb: "TorchRec also includes:".
_ADVERB_ONLY = re.compile(r"\s*(?:(?:also|now)\s*)?")
#: A lead's subject that refers to a library without naming it: "the library", "it".
_REFERS_TO_LIBRARY = re.compile(r"(?:^|[,.]\s*|\b(?:the|this|our)\s+(?:new\s+)?)"
                                r"(?:library|package|it)(?:\s+(?:also|now))?\s*$", re.I)
#: An item's opening name, up to where its description starts; an article dropped.
_ITEM_HEAD = re.compile(r"(?:(?:an?|the)\s+)?(?P<name>[^\s,(:;.][^,(:;]*?)(?=\s*[,(:;]|\.(?!\w)|"
                        r"\s+(?:which|that|to|for|with|powered|including|in|on|by|so|is|are)\b|"
                        r"\s*$)", re.I)
#: What a category item lists: "Modeling primitives, such as embedding bags and jagged tensors".
_SUCH_AS = re.compile(r",?\s*such\s+as\s+(?P<items>[^,.()]+?)(?=\s*[,.(]|\s+(?:that|which)\b|$)",
                      re.I)
#: The tags of a word that may open an item's name: a noun, an adjective, a gerund
#: ("Pipelining"), an article.
_NAME_TAGS = {"NN", "NNS", "NNP", "NNPS", "JJ", "VBG", "DT"}
#: Last words of an item that names what comes with a library, not a part of it.
_NOT_PARTS = _GENERIC_NOUNS | {"modules", "scripts", "examples", "tutorials", "recipes"}
