"""What a post's headings open: a stability level, a list of changes, deprecations, or nothing
a reader takes features from.

Release posts group their features under headings that say what the group is: ``## Beta
Features`` or ``## API-UNSTABLE Features`` (a stability level, stated for every feature inside
that states none of its own), ``## Performance Improvements`` or ``### ROCm`` (a list of
changes), ``## Deprecations and Breaking Changes`` (what the release deprecates or removes, not
features), ``## Summary`` or ``## Acknowledgements`` (no features). :data:`SECTION_KINDS` is that
vocabulary, as data; :func:`section_contexts` walks a post's lines and gives each the kinds of
the headings it sits under.

A heading's section ends at the next heading of its level or higher in Markdown; a line of raw
HTML that looks like a heading (``<strong>Beta</strong>`` in a summary table) sits below every
Markdown heading, so the next one ends what it opened. Flattened
text has lost the levels: there, a section of a kind runs to the next heading of a kind, so
"Performance Improvements" still holds the "Inductor Performance Optimizations" line after it;
a section of changes is opened only by a heading another heading follows, one that groups the
ones below it, and ends at the next such heading ("Distributed", then "(Beta) Fully Sharded
Data Parallel"); a heading of changes that prose follows is a leaf and opens none.
A *leaf* heading has no heading below it in its section: it names one thing, not a group.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, replace

from ptkg.extractors import stability
from ptkg.extractors.document import LEAD_LEVEL
from ptkg.extractors.text import Line

#: Each kind of section, as the words of its heading (the heading's text, marks removed).
SECTION_KINDS: dict[str, re.Pattern[str]] = {
    "stability": re.compile(rf"^\W*(?:new\s+)?(?P<word>{stability.WORDS})\W*(?:features?)?\W*$",
                            re.I),
    "deprecations": re.compile(
        r"\b(deprecat\w*|removals?|removed|breaking changes?|end of (?:life|support)|"
        r"backwards?[- ]incompatible)\b", re.I),
    "changes": re.compile(
        r"\b(performance|improvements?|optimi[sz]ations?|highlights?|platforms?|hardware|"
        r"what'?s new|enhancements?|features|designs?)\b", re.I),
    "none": re.compile(
        r"^\W*(?:\d+(?:\.\d+)*\.?\s+)?"  # "## 5. Conclusion", "### 4.1 Basic Benchmark"
        r"(summary|conclusions?|acknowledg\w*|resources|getting started|next steps|"
        r"q\s*&\s*a|thanks?|thank you|references?|links|further reading|learn more|faq|"
        r"contributors?|community|"
        r"get involved|join us|installation|closing thoughts|what'?s next|looking ahead|"
        r"coming soon|future work|roadmap|(?:performance\s+)?evaluations?|benchmarks?|"
        r"experiments?|notices?|disclaimers?|legal|product and performance information)\b",
        re.I),  # "Notices and Disclaimers", a vendor's legal lines
}


@dataclass(frozen=True)
class Context:
    """The kinds of the headings a line sits under (and, for a heading, its own, but for the
    changes it names: a heading of changes is one of the changes of the section it is in)."""

    stated: str | None = None  # a stability section's heading words: "API-UNSTABLE Features"
    word: str | None = None  # the stability word it states: "api-unstable"
    changes: bool = False
    deprecations: bool = False
    none: bool = False  # under a heading no feature comes from

    @property
    def lists_features(self) -> bool:
        """Whether unmarked leaf headings here name features: a stability or changes section."""
        return (self.word is not None or self.changes) and not (self.deprecations or self.none)


def heading_kinds(text: str) -> set[str]:
    """The kinds a heading's words name (:data:`SECTION_KINDS`).

    Examples
    --------
    >>> sorted(heading_kinds("## API-UNSTABLE Features")), sorted(heading_kinds("Beta"))
    (['stability'], ['stability'])
    >>> sorted(heading_kinds("Deprecations and Breaking Changes"))
    ['deprecations']
    >>> sorted(heading_kinds("**Performance Improvements**")), heading_kinds("torch.fx")
    (['changes'], set())
    >>> sorted(heading_kinds("## 5. Conclusion")), sorted(heading_kinds("## 4. Benchmark"))
    (['none'], ['none'])
    """
    words = " ".join(re.sub(r"[#*_`\[\]()]+", " ", text).split())
    if CAPTION.match(words):  # "Figure 1. Performance comparison of ...": no section
        return set()
    kinds = {kind for kind, pattern in SECTION_KINDS.items() if pattern.search(words)}
    if "stability" in kinds:  # "## Beta Features" states a level; its features are no changes
        kinds.discard("changes")
    return kinds


#: The start of a caption of a figure or table, which no heading of a section is.
CAPTION = re.compile(r"^(table|figure|fig\.|chart|image|source)\b", re.I)


def only_names_a_kind(text: str) -> bool:
    """Whether a heading is a kind of section and nothing else ("Performance Improvements",
    "Beta Features", "Platform Related Updates"), not a change ("Inductor Performance
    Optimizations").

    Examples
    --------
    >>> only_names_a_kind("## Performance Improvements"), only_names_a_kind("**AVX512 kernels**")
    (True, False)
    >>> only_names_a_kind("Inductor Performance Optimizations")
    False
    """
    words = " ".join(re.sub(r"[#*_`\[\]()/&:,-]+", " ", text).split())
    if not heading_kinds(words):
        return False
    for pattern in SECTION_KINDS.values():
        words = pattern.sub(" ", words)
    rest = [w for w in words.lower().split() if w not in _FILLERS]
    return not rest


_FILLERS = {"and", "new", "other", "features", "feature", "updates", "update", "related", "the",
            "of", "in", "for", "key", "major", "notable", "additional", "general", "release",
            "releases", "changes", "misc", "miscellaneous", "more", "a"}


#: The level of a heading line of raw HTML in Markdown: below every heading and lead line.
RAW_HTML_LEVEL = LEAD_LEVEL + 1


def section_contexts(text: str, lines: list[Line], markup: str) -> dict[int, Context]:
    """The context of every line (by its start offset) of a post's ``lines``."""
    contexts: dict[int, Context] = {}
    stack: list[tuple[int, Context]] = []  # open headings of a kind: (level, their context)
    kinds_of = {line.start: heading_kinds(text[line.start:line.end])
                for line in lines if line.kind == "heading"}
    header = _column_headers(lines, kinds_of) if markup == "flat" else set()
    for line, after in zip(lines, [*lines[1:], None], strict=True):
        if line.kind == "heading":
            kinds = kinds_of[line.start] if line.start not in header else set()
            level = line.level or RAW_HTML_LEVEL
            if markup == "flat":  # levels lost: a heading another follows groups them, as
                # a stability heading does ("Prototype Features", a paragraph, its features)
                groups = "stability" in kinds or (after is not None and after.kind == "heading")
                level = _flat_section(stack, bool(kinds), groups)
            else:
                while stack and stack[-1][0] >= level:
                    stack.pop()
            outer = stack[-1][1] if stack else Context()
            if kinds:
                stack.append((level, _context(text[line.start:line.end], kinds, outer)))
            # "LR optimizations" names a change, not a section of changes it is one of
            contexts[line.start] = replace(stack[-1][1] if stack else outer,
                                           changes=outer.changes)
            continue
        contexts[line.start] = stack[-1][1] if stack else Context()
    return contexts


def _column_headers(lines: list[Line], kinds_of: dict[int, set[str]]) -> set[int]:
    """The headings of flattened text that are a summary table's column headers: a run of
    headings of a kind (``kinds_of`` a heading's start), two of them of stability ("Stable",
    "Beta", "Prototype", "Performance Improvements"), each on a line of its own."""
    headers: set[int] = set()
    for of_a_kind, run in itertools.groupby(lines, key=lambda line: bool(kinds_of.get(line.start))):
        run = list(run)
        if of_a_kind and sum("stability" in kinds_of[line.start] for line in run) >= 2:
            headers.update(line.start for line in run)
    return headers


#: The levels of flattened text's headings: one that groups the headings after it, one that
#: prose follows (a leaf).
_FLAT_GROUP, _FLAT_LEAF = 1, 2


def _flat_section(stack: list[tuple[int, Context]], of_a_kind: bool, groups: bool) -> int:
    """Close what a heading of flattened text ends and return the level it opens a section at.

    A leaf's section ends at the next heading. A group of a kind ends every section; any other
    group ends only a section of changes, since a stability section holds groups of its own
    ("Beta Features", then "Distributed", then "(Beta) ...").
    """
    while stack and stack[-1][0] == _FLAT_LEAF:
        stack.pop()
    if of_a_kind and groups:
        stack.clear()
    elif stack and groups:
        stack[-1] = stack[-1][0], replace(stack[-1][1], changes=False)
    return _FLAT_GROUP if groups else _FLAT_LEAF


def _context(heading: str, kinds: set[str], outer: Context) -> Context:
    word = None
    if "stability" in kinds:
        word = SECTION_KINDS["stability"].search(
            " ".join(re.sub(r"[#*_`\[\]()]+", " ", heading).split())).group("word").lower()
    return Context(
        stated=" ".join(re.sub(r"[#*_`]+", " ", heading).split()) if word else outer.stated,
        word=word or outer.word,
        changes=outer.changes or "changes" in kinds,
        deprecations=outer.deprecations or "deprecations" in kinds,
        none=outer.none or "none" in kinds)


def leaf_headings(lines: list[Line], markup: str = "markdown") -> set[int]:
    """The start offsets of the heading lines no deeper heading follows in their section.

    In flattened text, which lost the levels, a heading is a leaf unless a heading follows it
    at once: "Distributed API", then "[Prototype] DTensor", groups.
    """
    if markup == "flat":
        return {line.start for line, after in zip(lines, [*lines[1:], None], strict=True)
                if line.kind == "heading" and (after is None or after.kind != "heading")}
    headings = [line for line in lines if line.kind == "heading"]
    leaves = set()
    for line, after in zip(headings, [*headings[1:], None], strict=False):
        if after is None or (after.level or 0) <= (line.level or 0):
            leaves.add(line.start)
    return leaves
