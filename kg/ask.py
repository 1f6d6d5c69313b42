"""``ptkg ask``: a question in plain English, mapped onto a named query — offline, no LLM.

:class:`QuestionMapper` reads a question with spaCy (a blank English tokenizer: no model, no
network, the same answer every time) in two passes:

1. **Entity linking.** A ``PhraseMatcher`` (case-insensitive) finds the graph's own names and
   aliases and the alias pack's surface forms (``extractors/patterns/entities.jsonl``, kept
   when their canonical name is in the graph): "Metal Performance Shaders" is ``MPS``,
   "torch_xla" is ``PyTorch/XLA``, "FX" is ``torch.fx``. A version ("1.10", "v2.2") is a release
   of the library named just before it ("pytorch v1.9", "torchvision 0.6"), else of PyTorch
   ("the 2.2 release"), or of the library or release a few list words before it
   ("torchaudio between 0.11 and 0.12", "PyTorch 1.9 and 1.10") when the graph has that
   release. Each spelling of a name is a pattern ("torch.accelerator.Graph" tokenizes apart
   where its casefolded form does not). Stability words (stable, beta, prototype, API-Stable,
   API-Unstable; "how stable" asks for the stability and filters nothing), label words
   (features, models, hardware, libraries, organizations, platforms) and a count ("top 5")
   are read too.
2. **Question shapes.** A ``Matcher`` over the tokens finds the trigger words of each named
   query's shapes (:data:`SHAPES`: "what's new in", "shipped with", "deprecated", "how many",
   "promoted", "where does it say", ...), each with a weight. Every query whose parameters the
   linked entities can fill is scored (trigger weights, plus one when the entities are exactly
   the kinds it takes); the best wins, ties going to the earlier query of :data:`SHAPES`. A
   question with no trigger and no entity that a query takes is not mapped: the answer is
   "I can't map this question" and the three closest question shapes (:func:`closest_shapes`).

Issue 12 (the everyday questions of ``tests/gold/questions.json``) added the shapes
``part-of`` (what X is part of: the entity *before* "part of"; what is part of a library, after
it, stays ``features-of-library``), ``release-diff`` (two releases of one library, older
first), ``organizations`` about one entity ("who developed / contributed / is behind X"),
and "which releases support X" for ``hardware-support``; six lines for them close
``questions.jsonl``. "Which releases support X" later got a query of its own,
``releases-supporting`` (the releases, also through the features they introduce, with the
stability they gave them): its two lines in ``questions.jsonl`` moved to it.

The question set ``tests/data/questions.jsonl`` (77 questions: 73 paraphrases over the 16 named
queries, 4 that must not be mapped) was written before this module, with the query and the
parameters each should get; ``tests/test_ask.py`` scores it. Accuracy (query and every
parameter exactly right) when the mapper was first written: 97.4% (75 of 77: "beta"/"prototype"
features of a release went to ``features-by-release``); after two fixes (a stability word asks
for that stability; two stability words are a count, not a filter): 100%. A second set,
``tests/data/questions_heldout.jsonl`` (22 questions), written after the mapper and scored once
before any change: 95.5% (21 of 22; "What links to X?" missed ``neighbors``), 100% after.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from .explore import NameIndex
from .names import DOTTED_API, version_key
from .schema import ANY_DEVICE, CORE_LIBRARY, DEVICE_LABELS, STABILITIES

#: The version of a release: "1.10", "v2.2", "0.6.1".
VERSION = re.compile(r"^[vV]?\d+(?:\.\d+)+$")
DEFAULT_LIMIT = 10

#: The words of a question that name a stability level (the contract's, "prototypes" too).
STABILITY_WORDS = {f"{word.replace(' ', '-')}{plural}": level.name
                   for level in STABILITIES.values() for word in (*level.words, *level.legacy)
                   for plural in ("", "s")}
LABEL_WORDS = {
    "feature": "Feature", "features": "Feature", "model": "Model", "models": "Model",
    "hardware": "Hardware", "device": "Hardware", "devices": "Hardware", "backend": "Hardware",
    "backends": "Hardware", "accelerator": "Hardware", "accelerators": "Hardware",
    "library": "Library", "libraries": "Library", "project": "Library", "projects": "Library",
    "organization": "Organization", "organizations": "Organization", "company": "Organization",
    "companies": "Organization", "platform": "Platform", "platforms": "Platform",
    "release": "Release", "releases": "Release",
}
#: The words between a bare version and the library or release before it that it belongs to.
_LIST_WORDS = {"and", "to", "vs", "vs.", "versus", ",", "or", "between", "from", "in", "of",
               "since", "the", "versions", "version", "releases", "release"}
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "twenty": 20}


#: The words of a question that say something ends: deprecated, or removed.
DEPRECATION_WORDS = r"deprecat\w*"
REMOVAL_WORDS = r"remov\w*|drop|drops|dropped|dropping"
#: What a question asks replaced a thing: ``replacements``; else its deprecations' sentences.
REPLACEMENT_WORDS = r"replac\w*|successors?|instead|renamed|formerly|supersed\w*"


def _word(regex: str) -> dict:
    return {"LOWER": {"REGEX": regex}}


def _words(*words: str) -> list[dict]:
    return [{"LOWER": w} for w in words]


#: A stability word as the matcher sees it: "beta", or "API-Stable" in three tokens.
_LEVEL_WORDS = ["stable", "beta", "prototype"]
_API_LEVEL = [{"LOWER": "api"}, {"ORTH": "-"}, {"LOWER": {"IN": ["stable", "unstable"]}}]


#: Per named query: an example question (its shape, offered when a question cannot be mapped),
#: what it takes, and its trigger patterns (spaCy Matcher token patterns) with their weights.
#: ``takes``: slots filled from the linked entities; a slot in ``needs`` must be filled.
SHAPES: dict[str, dict] = {
    "features-by-stability": {
        "example": "What became stable in PyTorch 2.1?",
        "needs": ("stability",), "takes": ("release", "stability"),
        "triggers": [
            ([_word(r"^(became|become|becomes|went|go|goes|graduat\w*|moved)$")], 2),
            ([{"LOWER": {"IN": _LEVEL_WORDS}}, _word(r"^features?$")], 2),
            ([*_API_LEVEL, _word(r"^features?$")], 2),
            ([_word(r"^features?$")], 1),
            ([{"LOWER": {"IN": ["as", "in", "at"]}}, {"LOWER": {"IN": _LEVEL_WORDS}}], 3),
            ([{"LOWER": {"IN": ["as", "in", "at"]}}, *_API_LEVEL], 3),
        ]},
    "stability-counts": {
        "example": "How many features per stability did PyTorch 1.8 introduce?",
        "needs": (), "takes": ("release",),
        "triggers": [
            (_words("how", "many"), 5), ([_word(r"^count\w*$")], 5), (_words("number", "of"), 5),
            ([{"LOWER": {"IN": ["per", "by"]}}, _word(r"^stabilit(y|ies)$")], 2),
        ]},
    "released-with": {
        "example": "Which library releases shipped with PyTorch 1.5?",
        "needs": ("release",), "takes": ("release", "library"),
        "triggers": [
            ([{"LOWER": "alongside"}], 5), (_words("together", "with"), 5),
            ([_word(r"^(released|shipped|ship|came|come|launched|out|published)$"),
              {"LOWER": "with"}], 5),
            ([_word(r"^(library|libraries|domain)$"), _word(r"^(releases?|released|versions?)$")],
             3),
        ]},
    "deprecations": {
        "example": "What was deprecated in PyTorch 2.2?",
        "needs": (), "takes": ("release",),
        "triggers": [
            ([{"LOWER": "still"}, _word(r"^(supported|maintained|available)$")], 7),
            ([_word(rf"^({DEPRECATION_WORDS})$")], 6), ([_word(rf"^({REMOVAL_WORDS})$")], 6),
            (_words("no", "longer"), 5),
        ]},
    "replacements": {
        "example": "What replaced MAGMA?",
        "needs": (), "takes": ("name",),
        "triggers": [([_word(rf"^({REPLACEMENT_WORDS})$")], 7), (_words("new", "name"), 6)]},
    "features-by-release": {
        "example": "What's new in PyTorch 1.8?",
        "needs": ("release",), "takes": ("release", "hardware"),
        "triggers": [
            ([{"LOWER": "new"}], 3),
            ([_word(r"^(introduc\w*|ship|ships|shipped|add|adds|added|bring|brings|brought|"
                    r"includ\w*|came|come|comes|contain\w*)$")], 2),
            ([_word(r"^features?$")], 2),
            # "What features did the 0.4 release announce?": features, not posts
            ([_word(r"^features?$"), {"OP": "{1,10}"}, _word(r"^announc\w*$")], 5),
            ([_word(r"^(what|whats)$"), {"LOWER": {"IN": ["'s", "is"]}, "OP": "?"},
              {"LOWER": "in"}], 1),
        ]},
    "releases-of-library": {
        "example": "What releases of torchvision are there?",
        "needs": ("library",), "takes": ("library",),
        "triggers": [
            ([_word(r"^(releases|versions|version|released)$")], 3),
            ([_word(r"^(latest|newest|last|first|oldest|earliest|recent)$"), {"OP": "?"},
              _word(r"^(releases?|versions?)$")], 4),
            (_words("in", "order"), 1), (_words("when", "was", "each"), 1),
        ]},
    "announcements": {
        "example": "Which posts announce PyTorch releases?",
        "needs": (), "takes": ("library", "release"),
        "triggers": [
            ([_word(r"^announc\w*$")], 6),
            # below a version question's "each ... version" (releases-of-library)
            ([{"LOWER": "when"}, {"OP": "{1,5}"},
              _word(r"^(released|launched|published|out|come|came|ship|shipped)$")], 4),
        ]},
    "hardware-support": {
        "example": "What supports MPS?",
        "needs": ("hardware",), "takes": ("hardware",),
        "triggers": [
            ([_word(r"^support\w*$")], 3),
            ([_word(r"^(run|runs|running|work|works|working)$"), {"LOWER": "on"}], 3),
            (_words("since", "when"), 2),
        ]},
    "releases-supporting": {
        "example": "Which releases support MPS?",
        "needs": ("hardware",), "takes": ("hardware",),
        "triggers": [
            ([_word(r"^(releases?|versions?)$"),
              _word(r"^(support\w*|add\w*|improv\w*|introduc\w*|brought|bring\w*|enabl\w*)$")],
             6),
            ([_word(r"^(releases?|versions?)$"), {"LOWER": "of", "OP": "?"},
              {"IS_ALPHA": True, "OP": "?"}, _word(r"^support\w*$")], 6),
            # "In which releases did Apple silicon support improve?"
            ([_word(r"^releases$"), {"OP": "{1,4}"}, _word(r"^(support\w*|improv\w*)$")], 5),
        ]},
    "feature-lifecycle": {
        "example": "When was ZeroRedundancyOptimizer promoted?",
        "needs": ("feature",), "takes": ("feature",),
        "triggers": [
            ([_word(r"^promot\w*$")], 6), ([_word(r"^demot\w*$")], 6),
            ([_word(r"^(lifecycle|evolv\w*|chang\w*)$")], 5),
            (_words("over", "time"), 3),
        ]},
    "feature-stability": {
        "example": "What is the stability of torch.fx in each release?",
        "needs": ("feature",), "takes": ("feature",),
        "triggers": [
            ([_word(r"^(stability|stable)$")], 3),
            ([_word(r"^history$")], 5),  # every release's statement, not only the changes
            ([{"LOWER": {"IN": ["which", "what"]}}, _word(r"^releases?$")], 3),
            ([_word(r"^(appear\w*|introduc\w*)$")], 2),
        ]},
    "organizations": {
        "example": "What did Microsoft build?",
        "needs": (), "takes": ("organization", "name"),
        "triggers": [
            ([{"LOWER": "who"}, _word(r"^(built|build|builds|develop\w*|made|makes|make|"
                                      r"maintain\w*|created|creates|contribut\w*|"
                                      r"works?|worked|working)$")], 6),
            ([_word(r"^(built|build|develop\w*|maintain\w*|contribut\w*)$")], 3),
            (_words("made", "by"), 3), ([{"LOWER": "behind"}], 5),
            ([_word(r"^(collaborat\w*|partner\w*)$")], 4),
            ([_word(r"^(work|worked|working|teamed)$"), {"LOWER": "with"}], 3),
            ([_word(r"^(work|works|worked|working)$"), {"LOWER": "on"}], 1),
            ([_word(r"^(organizations?|compan(y|ies))$")], 1),
        ]},
    "evidence": {
        "example": "What is the evidence that torchvision 0.6 shipped with PyTorch 1.5?",
        "needs": ("source", "target"), "takes": ("source", "target"),
        "triggers": [
            ([{"LOWER": "evidence"}], 6), ([{"LOWER": "why"}], 4),
            ([_word(r"^sentences?$")], 5), (_words("where", "does", "it", "say"), 6),
            ([_word(r"^(proof|prove\w*|sources?|quote\w*)$")], 4),
            ([_word(r"^(linked|connecting|links)$")], 3),
        ]},
    "top-mentioned": {
        "example": "Which features are mentioned most?",
        "needs": ("label",), "takes": ("label", "limit"),
        "triggers": [
            ([{"LOWER": "most"}], 5), ([{"LOWER": "top"}], 5), ([_word(r"^popular\w*$")], 4),
        ]},
    "posts-about": {
        "example": "Which posts mention torch.fx?",
        "needs": ("name",), "takes": ("name",),
        "triggers": [
            ([_word(r"^(posts?|articles?|blogs?|stories)$")], 3),
            ([_word(r"^discuss\w*$")], 3), ([_word(r"^(talk|talks|write|writes|wrote)$"),
                                             {"LOWER": "about"}], 3),
            ([_word(r"^mention\w*$")], 2),
        ]},
    "features-of-library": {
        "example": "What features are part of PyTorch/XLA?",
        "needs": ("library",), "takes": ("library",),
        "triggers": [
            (_words("part", "of"), 4), ([_word(r"^(contain\w*|belong\w*|inside)$")], 4),
            ([_word(r"^features?$"), {"LOWER": "of"}], 2), ([_word(r"^features?$")], 1),
        ]},
    "part-of": {
        "example": "What library is FSDP part of?",
        "needs": ("name",), "takes": ("name",),
        "triggers": [
            (_words("part", "of"), 4), ([_word(r"^belong\w*$"), {"LOWER": "to"}], 4),
            (_words("member", "of"), 4), ([_word(r"^(joined|join|joins|merged|moved)$")], 2),
        ]},
    "based-on": {
        "example": "What is FlexAttention built on?",
        "needs": ("name",), "takes": ("name",),
        "triggers": [
            ([_word(r"^(based|built|build|builds|building|modeled|modelled)$"),
              {"LOWER": {"IN": ["on", "upon", "atop"]}}], 6),
            (_words("on", "top", "of"), 6), (_words("inspired", "by"), 6),
            ([_word(r"^(relies|rely|relying|depends|depend|depending)$"),
              {"LOWER": {"IN": ["on", "upon"]}}], 5),
            (_words("under", "the", "hood"), 4), (_words("powered", "by"), 4),
            ([_word(r"^(leverag\w*|utiliz\w*|underl\w*)$")], 3),
            # below a stability's 3 and a posts word's 3: "stable enough to use?", "posts use X"
            ([_word(r"^(use|uses|used|using)$")], 2),
        ]},
    "supported-hardware": {
        "example": "What hardware does ExecuTorch support?",
        "needs": ("name",), "takes": ("name",),
        "triggers": [
            ([_word(r"^(hardware|devices?|platforms?|accelerators?|backends?|chips?|gpus?|"
                    r"operating)$")], 3),
            ([_word(r"^(support\w*|run|runs|running)$")], 2),
            ([_word(r"^(work|works|working)$"), {"LOWER": "on"}], 2),  # not "work with"
        ]},
    "release-diff": {
        "example": "What changed between PyTorch 1.9 and 1.10?",
        "needs": ("a", "b"), "takes": ("a", "b"),
        "triggers": [
            ([_word(r"^(chang\w*|differ\w*|diff|compar\w*|versus|vs\.?)$")], 4),
            ([{"LOWER": "between"}], 2), ([{"LOWER": "from"}], 1),
        ]},
    "neighbors": {
        "example": "What is torch.fx related to?",
        "needs": ("name",), "takes": ("name",),
        "triggers": [
            ([_word(r"^(related|connected|relations?|relationships?|neighbou?rs?|linked|"
                    r"links?)$")], 4),
            (_words("tell", "me", "about"), 4), (_words("know", "about"), 4),
            ([{"LOWER": "about"}], 1),
            ([{"LOWER": {"IN": ["what", "who"]}}, {"LOWER": {"IN": ["is", "are", "'s"]}}], 1),
        ]},
}

#: The words of a question that name a relationship type (for ``evidence``'s ``type``).
RELATION_WORDS = [
    (re.compile(r"\b(released|shipped|came out|launched) (with|alongside)\b"), "RELEASED_WITH"),
    (re.compile(r"\bsupport(s|ed|ing)?\b"), "SUPPORTS"),
    (re.compile(r"\bbased on\b"), "BASED_ON"),
    (re.compile(r"\b(developed|built|made|maintained) by\b"), "DEVELOPED_BY"),
    (re.compile(r"\bpart of\b"), "PART_OF"),
    (re.compile(r"\bdeprecat\w*\b"), "DEPRECATES"),
    (re.compile(r"\bremov\w*\b"), "REMOVES"),
    (re.compile(r"\bintroduc\w*\b"), "INTRODUCES"),
]


@dataclass(frozen=True)
class Mention:
    """Something the question names: an entity, a stability, a label word or a number."""

    kind: str  # entity, stability, label, number; inner: a device inside an entity's name;
    # within: another device inside a device's name
    value: object  # the canonical name, stability, label or number
    label: str | None  # the entity's label
    text: str  # the words of the question
    start: int  # token offsets
    end: int


@dataclass
class MappedQuestion:
    """What a question maps to: a named query and its parameters, or nothing."""

    question: str
    query: str | None
    params: dict[str, object] = field(default_factory=dict)
    score: float = 0
    mentions: list[Mention] = field(default_factory=list)
    closest: list[str] = field(default_factory=list)  # question shapes, when not mapped
    #: the parameters of the other devices the question names ("AMD GPUs / ROCm"): the answer
    #: is the rows of each
    also: list[dict[str, object]] = field(default_factory=list)
    #: what the question asks to have happened, as a column of the rows and the values that
    #: answer it ("When did FSDP become stable?": stability Stable); None: no outcome
    outcome: tuple[str, tuple[str, ...]] | None = None
    #: words of an unmapped question that look like names the graph does not have ("GB300")
    unknown: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"question": self.question, "query": self.query, "params": self.params,
                "also": self.also, "score": self.score, "closest": self.closest,
                "outcome": [self.outcome[0], list(self.outcome[1])] if self.outcome else None,
                "unknown": self.unknown,
                "mentions": [{"kind": m.kind, "value": m.value, "label": m.label,
                              "text": m.text} for m in self.mentions]}


def _load_nlp():
    import spacy

    return spacy.blank("en")


class QuestionMapper:
    """Maps questions onto the named queries, for one graph's names (see the module docstring).

    Parameters
    ----------
    index : NameIndex
        The graph's names (:func:`ptkg.explore.name_index`, or a store's).
    links : Mapping[tuple[str, str], set[str]] or None
        Pairs of canonical names that have a relationship (either direction), to put the
        ``evidence`` query's ends in the graph's order; None: the question's order.
    """

    def __init__(self, index: NameIndex, links: set[tuple[str, str]] | None = None):
        from spacy.matcher import Matcher, PhraseMatcher

        self.index = index
        self.links = links
        self.nlp = _load_nlp()
        self.phrases = PhraseMatcher(self.nlp.vocab, attr="LOWER")
        self.surfaces: dict[str, tuple[str, str]] = {}  # match key -> (name, label)
        self._spellings: dict[str, set[str]] = {}  # lower surface -> the spellings seen
        for surface, (name, label) in sorted(self._surfaces().items()):
            key = f"E{len(self.surfaces)}"
            self.surfaces[key] = (name, label)
            # The tokenizer splits "torch.accelerator.Graph" where it keeps
            # "torch.accelerator.graph" whole: each spelling's tokens are a pattern.
            docs = {tuple(t.text.casefold() for t in doc): doc for doc in (
                self.nlp.make_doc(spelling) for spelling in
                sorted({surface, *self._spellings.get(surface, ())}))}
            self.phrases.add(key, [docs[tokens] for tokens in sorted(docs)])
        self.matcher = Matcher(self.nlp.vocab)
        for query, shape in SHAPES.items():
            for number, (pattern, _) in enumerate(shape["triggers"]):
                self.matcher.add(f"{query}#{number}", [pattern])

    def _surfaces(self) -> dict[str, tuple[str, str]]:
        """Every surface form to link: the graph's names and aliases, then the alias pack's
        forms whose canonical name the graph has (a graph name wins)."""
        found: dict[str, tuple[str, str]] = {}
        entries = [e for e in self.index.entries.values() if e.label != "Post"]
        for entry in sorted(entries, key=lambda e: (e.label == "Release", e.node)):
            for surface in (entry.name, *entry.aliases, *_said_in_words(entry.name)):
                if len(surface) > 1:
                    found.setdefault(surface.casefold(), (entry.name, entry.label))
                    self._spellings.setdefault(surface.casefold(), set()).add(surface)
        for surface, canonical, label in _pack_forms():
            key = surface.casefold()
            if key in found or len(surface) < 2:
                continue
            nodes = self.index.find(canonical, [label])
            if nodes:
                entry = self.index.entries[nodes[0]]
                found[key] = (entry.name, entry.label)
                self._spellings.setdefault(key, set()).add(surface)
        return found

    # ------------------------------------------------------------------ reading

    def mentions(self, doc) -> list[Mention]:
        """The entities, releases, stabilities, label words and numbers of a parsed question."""
        from spacy.util import filter_spans

        keys = {}
        for match_id, start, end in self.phrases(doc):
            keys.setdefault((start, end), self.nlp.vocab.strings[match_id])
        linked = {}
        for span in filter_spans([doc[s:e] for s, e in keys]):
            name, label = self.surfaces[keys[(span.start, span.end)]]
            linked[span.start] = Mention("entity", name, label, span.text, span.start, span.end)
        found: list[Mention] = []
        taken: set[int] = set()
        for mention in linked.values():
            taken.update(range(mention.start, mention.end))
        for token in doc:
            if not VERSION.match(token.text):
                continue
            version = token.text.lstrip("vV")
            start = token.i
            library = CORE_LIBRARY
            before = next((m for m in linked.values() if m.end == token.i
                           and m.label == "Library"), None)
            if before is not None:
                library, start = str(before.value), before.start
                del linked[before.start]
            elif token.i in taken:
                continue
            else:
                context = self._version_context(doc, token.i, found, linked)
                if context is not None and self.index.find(f"{context[0]} {version}",
                                                           ["Release"]):
                    library = context[0]
                    if context[1] is not None:  # the library's name, read as this release's
                        del linked[context[1].start]
            name = f"{library} {version}"
            nodes = self.index.find(name, ["Release"])
            canonical = self.index.entries[nodes[0]].name if nodes else name
            found.append(Mention("entity", canonical, "Release", doc[start:token.i + 1].text,
                                 start, token.i + 1))
            taken.update(range(start, token.i + 1))
        found += linked.values()
        for token in doc:
            if token.i in taken:
                continue
            word = token.lower_
            if (word in ("stable", "unstable") and token.i >= 2 and doc[token.i - 1].text == "-"
                    and doc[token.i - 2].lower_ == "api"):
                word = f"api-{word}"  # "API-Stable" is three tokens: API, -, Stable
            if word == "stable" and token.i and doc[token.i - 1].lower_ == "how":
                continue  # "how stable is each": asks for the stability, filters nothing
            if word in STABILITY_WORDS:
                found.append(Mention("stability", STABILITY_WORDS[word], None, token.text,
                                     token.i, token.i + 1))
            elif word in LABEL_WORDS:
                found.append(Mention("label", LABEL_WORDS[word], None, token.text, token.i,
                                     token.i + 1))
            elif word.isdigit() or word in _NUMBER_WORDS:
                value = int(word) if word.isdigit() else _NUMBER_WORDS[word]
                found.append(Mention("number", value, None, token.text, token.i, token.i + 1))
        found.extend(self._inner_devices(doc, keys, linked))
        found.extend(self._devices_within(keys, linked))
        return sorted(found, key=lambda m: m.start)

    def _inner_devices(self, doc, keys: dict[tuple[int, int], str],
                       linked: dict[int, Mention]) -> Iterator[Mention]:
        """The devices whose support a longer name the question links is ("Windows" of the
        feature "Improved Windows Support", not "CUDA" of "CUDA Graphs"), as ``inner``
        mentions: what a device query takes when the question names no device of its own."""
        supports = [m for m in linked.values() if m.text.lower().endswith(" support")]
        for (start, end), key in sorted(keys.items()):
            name, label = self.surfaces[key]
            if label in DEVICE_LABELS and start not in linked and any(
                    m.start <= start and end <= m.end for m in supports):
                yield Mention("inner", name, label, doc[start:end].text, start, end)

    def _devices_within(self, keys: dict[tuple[int, int], str],
                        linked: dict[int, Mention]) -> Iterator[Mention]:
        """Another device a device's name holds ("Apple silicon" of "Apple silicon GPUs", which
        the graph calls MPS), as a ``within`` mention: a question of support asks of both. Not
        a generic one ("GPU" of "AMD GPUs")."""
        devices = [m for m in linked.values() if m.label in DEVICE_LABELS]
        for (start, end), key in sorted(keys.items()):
            name, label = self.surfaces[key]
            outer = next((m for m in devices if m.start <= start and end <= m.end
                          and (start, end) != (m.start, m.end)), None)
            if outer is not None and label in DEVICE_LABELS and name != outer.value \
                    and name not in ANY_DEVICE:
                yield Mention("within", name, label, outer.text, start, end)

    def _version_context(self, doc, i: int, releases: list[Mention],
                         linked: dict[int, Mention]) -> tuple[str, Mention | None] | None:
        """The library a bare version at token ``i`` belongs to, from what comes before it:
        a release it is listed with ("torchvision 0.8 and 0.9", "from 1.9 to 1.10"), else a
        library named a few words before it ("torchaudio between 0.11 and 0.12"); with the
        library's mention when that is what names it. None: nothing before says."""
        j = i - 1
        while j >= 0 and doc[j].lower_ in _LIST_WORDS:
            j -= 1
        if j < 0 or j == i - 1:
            return None
        release = next((m for m in releases if m.end == j + 1), None)
        if release is not None:
            entries = self.index.find(str(release.value), ["Release"])
            library = self.index.entries[entries[0]].library if entries else None
            return (library, None) if library else None
        mention = next((m for m in linked.values() if m.end == j + 1
                        and m.label == "Library"), None)
        return (str(mention.value), mention) if mention is not None else None

    def triggers(self, doc, mentions: Sequence[Mention] = ()) -> dict[str, float]:
        """Each query's trigger score: the weights of its distinct patterns found, but not of
        words within a name the question links ("GPUs" of "AMD GPUs")."""
        named = {i for m in mentions if m.kind == "entity" for i in range(m.start, m.end)}
        scores: dict[str, float] = {}
        seen = set()
        for match_id, start, end in self.matcher(doc):
            key = self.nlp.vocab.strings[match_id]
            if key in seen or named.issuperset(range(start, end)):
                continue
            seen.add(key)
            query, number = key.rsplit("#", 1)
            scores[query] = scores.get(query, 0) + SHAPES[query]["triggers"][int(number)][1]
        return scores

    # ------------------------------------------------------------------ mapping

    def map(self, question: str) -> MappedQuestion:
        """The named query and parameters ``question`` asks for, or an unmapped
        :class:`MappedQuestion` with the three closest question shapes."""
        text = question.replace("’", "'")
        doc = self.nlp(text)
        mentions = self.mentions(doc)
        if _HOW_TO.match(text):  # instructions: no named query holds them
            return MappedQuestion(question, None, {}, 0, mentions, closest_shapes(question))
        scores = self.triggers(doc, mentions)
        if _asks_yes_or_no(doc, mentions):
            scores["evidence"] = scores.get("evidence", 0) + YES_OR_NO_WEIGHT
        best: tuple[float, int, str, dict] | None = None
        for order, query in enumerate(SHAPES):
            params = self._fill(query, mentions, text, doc)
            if params is None:
                continue
            score = scores.get(query, 0)
            if query == "features-by-stability" and "stability" in params:
                # "What did 1.8 introduce, beta only?": a release's features, of one stability
                score = max(score, scores.get("features-by-release", 0))
            if score <= 0 and not SHAPES[query]["needs"]:
                continue
            if score <= 0 and not self._default(query, mentions):
                continue
            score += self._fit(query, mentions)
            if "stability" in params:  # a stability word asks for that stability
                score += 3
            if best is None or (score, -order) > (best[0], -best[1]):
                best = (score, order, query, params)
        if best is None:
            return MappedQuestion(question, None, {}, 0, mentions, closest_shapes(question),
                                  unknown=_unknown_names(doc, mentions))
        return MappedQuestion(question, best[2], best[3], best[0], mentions,
                              also=_other_devices(best[2], best[3], mentions),
                              outcome=_outcome(best[2], mentions, doc))

    def _release_pair(self, entities: list[Mention]) -> tuple[str, str] | None:
        """The two releases of one library a question compares, older first, or None."""
        releases = [m for m in entities if m.label == "Release"]
        if len(releases) != 2 or len(entities) != 2:
            return None
        found = []
        for mention in releases:
            nodes = self.index.find(str(mention.value), ["Release"])
            if not nodes:
                return None
            entry = self.index.entries[nodes[0]]
            found.append((entry.library, version_key(entry.version or ""), entry.name))
        (la, ka, a), (lb, kb, b) = sorted(found)
        if la != lb or ka == kb:
            return None
        return a, b

    def _default(self, query: str, mentions: list[Mention]) -> bool:
        """With no trigger word, one entity alone asks for its default query."""
        entities = [m for m in mentions if m.kind == "entity"]
        if len(entities) != 1:
            return False
        label = entities[0].label
        defaults = {"Release": "features-by-release", "Library": "releases-of-library",
                    "Hardware": "hardware-support", "Platform": "hardware-support",
                    "Feature": "feature-stability", "Organization": "organizations"}
        return defaults.get(label, "neighbors") == query

    def _fit(self, query: str, mentions: list[Mention]) -> float:
        """One more when the question's entities are exactly what the query takes."""
        entities = [m for m in mentions if m.kind == "entity"]
        takes = SHAPES[query]["takes"]
        kinds = {"release": {"Release"}, "library": {"Library"},
                 "hardware": set(DEVICE_LABELS), "feature": {"Feature"},
                 "organization": {"Organization"}}
        wanted = [kinds[t] for t in takes if t in kinds]
        if query in ("neighbors", "posts-about", "part-of", "based-on"):
            return 1 if len(entities) == 1 else 0
        if query == "replacements":
            return 1 if len(entities) <= 1 else 0
        if query == "supported-hardware":
            return 1 if len(_supporters(entities)) == 1 else 0
        if query == "organizations":
            return 1 if entities else 0
        if query == "release-diff":
            return 1 if len(entities) == 2 else 0
        if query == "evidence":
            return 1 if len(entities) == 2 else 0
        if not entities:
            return 1 if not wanted else 0
        free = dict(zip((t for t in takes if t in kinds), wanted, strict=True))
        for entity in entities:  # each entity fills one slot the query takes
            slot = next((t for t, labels in free.items() if entity.label in labels), None)
            if slot is None:
                return 0
            del free[slot]
        return 0 if any(need in free for need in SHAPES[query]["needs"]) else 1

    def _fill(self, query: str, mentions: list[Mention], text: str, doc=None) -> dict | None:
        """The parameters of ``query`` from the mentions, or None when a needed one is
        missing or an entity is of a kind the query cannot take."""
        entities = [m for m in mentions if m.kind == "entity"]
        by_label: dict[str, list[Mention]] = {}
        for m in entities:
            by_label.setdefault(m.label or "", []).append(m)

        def first(*labels: str):
            for m in entities:
                if m.label in labels:
                    return m.value
            return None

        params: dict[str, object] = {}
        takes = SHAPES[query]["takes"]
        if "release" in takes and first("Release"):
            params["release"] = first("Release")
        if "library" in takes and first("Library"):
            params["library"] = first("Library")
        inner = next((m.value for m in mentions if m.kind == "inner"), None)
        if "hardware" in takes and (first(*DEVICE_LABELS) or inner):
            params["hardware"] = first(*DEVICE_LABELS) or inner  # "improved Windows support"
        if "feature" in takes and first("Feature"):
            params["feature"] = first("Feature")
        if "organization" in takes and first("Organization"):
            params["organization"] = first("Organization")
        if query == "organizations":  # what was built: the entity asked about
            built = [m for m in entities if m.label != "Organization"]
            if len(built) > 1:  # "to PyTorch", "PyTorch work with": the blog's own library
                built = [m for m in built if not (m.label == "Library" and m.value == CORE_LIBRARY)]
            if built:
                params["name"] = built[0].value
        if query == "part-of":  # "what is X part of": the entity before the words
            whole = _position(doc, _WHOLE_WORDS)
            parts = [m for m in entities if whole is None or m.end <= whole]
            if not parts:
                return None
            params["name"] = parts[-1].value
        if query == "features-of-library" and _position(doc, _WHOLE_WORDS) is not None:
            whole = _position(doc, _WHOLE_WORDS)  # "what is part of X": X after the words
            if not any(m.label == "Library" and m.start >= whole for m in entities):
                return None
        if query == "deprecations":  # its release is the one that ends things, if any
            params.pop("release", None)
            params.update(_ending_params(doc, entities))
        if query == "release-diff":
            pair = self._release_pair(entities)
            if pair is None:
                return None
            params["a"], params["b"] = pair
        if "stability" in takes:
            stabilities = _asked_stabilities(mentions, doc)
            if len(stabilities) == 1:  # the query takes one: two are a count or a list
                params["stability"] = stabilities[0]
        if query in ("neighbors", "posts-about", "based-on"):
            if len(entities) != 1:
                return None
            params["name"] = entities[0].value
        if query == "replacements":  # "What replaced TorchScript in 2.12?": TorchScript
            replaced = [m for m in entities if m.label != "Release"] or entities
            if replaced:
                params["name"] = replaced[0].value
        if query == "supported-hardware":  # what the one thing that is no device supports
            supporters = _supporters(entities)
            if len(supporters) != 1:
                return None
            params["name"] = supporters[0].value
        if query == "evidence":
            if len(entities) != 2:
                return None
            source, target = entities[0].value, entities[1].value
            if self.links is not None and (source, target) not in self.links and (
                    target, source) in self.links:
                source, target = target, source
            params.update(source=source, target=target)
            relation = relation_word(text)
            if relation:
                params["type"] = relation
        if query == "top-mentioned":
            label = next((m.value for m in mentions if m.kind == "label"), None)
            if label is None:
                return None
            params["label"] = label
            params["limit"] = next((m.value for m in mentions if m.kind == "number"),
                                   DEFAULT_LIMIT)
        if any(need not in params for need in SHAPES[query]["needs"]):
            return None
        if query == "releases-of-library" and first("Release"):
            return None
        if query == "features-by-stability" and any(m.label != "Release" for m in entities):
            return None  # "When did FSDP become stable?" is about FSDP, not a list
        if query == "announcements" and first("Feature", "Hardware"):
            return None
        return params


#: "How do I install CUDA drivers?", "How to use FSDP": a question for instructions, which the
#: posts' facts do not hold (not "How stable is X?" nor "How did X change?").
_HOW_TO = re.compile(r"\s*how\s+(?:(?:do|can|should|would|could)\s+(?:i|we|you|one)|to)\b",
                     re.I)

#: "Does ExecuTorch support iOS?": a yes-or-no question about a relation between two entities
#: asks for its evidence (none is the answer no, as far as the posts say), not for everything
#: that supports iOS. Its weight outdoes a trigger word's ("support").
_YES_OR_NO = {"does", "do", "did", "is", "are", "was", "were", "can", "has", "have"}
_YES_OR_NO_RELATIONS = {"SUPPORTS", "PART_OF", "BASED_ON", "DEVELOPED_BY"}
YES_OR_NO_WEIGHT = 5


def _said_in_words(name: str) -> tuple[str, ...]:
    """How a question says a module path: "torchvision.transforms.v2" as "torchvision's
    transforms v2" or "torchvision transforms v2" (its first part owns the rest)."""
    if not DOTTED_API.fullmatch(name):
        return ()
    owner, _, rest = name.partition(".")
    words = rest.replace(".", " ")
    return f"{owner}'s {words}", f"{owner}’s {words}", f"{owner} {words}"


def _asks_yes_or_no(doc, mentions: list[Mention]) -> bool:
    """Whether the question asks if one entity has a relation to another."""
    entities = [m for m in mentions if m.kind == "entity"]
    return (len(doc) > 0 and doc[0].lower_ in _YES_OR_NO and len(entities) == 2
            and relation_word(doc.text) in _YES_OR_NO_RELATIONS)


def relation_word(text: str) -> str | None:
    """The relationship type a question's words name ("support": SUPPORTS), or None."""
    return next((t for pattern, t in RELATION_WORDS if pattern.search(text.casefold())), None)


def _supporters(entities: list[Mention]) -> list[Mention]:
    """The entities that are no device: what supported-hardware asks about."""
    return [m for m in entities if m.label not in DEVICE_LABELS]


def _other_devices(query: str, params: dict[str, object],
                   mentions: list[Mention]) -> list[dict[str, object]]:
    """The parameters of a hardware query for each other device (or platform) the question
    names, of the label of the one it asks about: "AMD GPUs / ROCm", "Intel GPUs (XPU)"."""
    asked = params.get("hardware")
    if asked is None or "hardware" not in SHAPES[query]["takes"]:
        return []
    label = next(m.label for m in mentions if m.kind in ("entity", "inner") and m.value == asked)
    others = dict.fromkeys(m.value for m in mentions if m.kind in ("entity", "within")
                           and m.label == label and m.value != asked)
    return [{**params, "hardware": other} for other in others]


#: Words of a question that end something ("deprecated", "dropped"), and the articles that
#: may stand between them and what they end ("dropped the ...").
_ENDING = re.compile(rf"^({DEPRECATION_WORDS}|{REMOVAL_WORDS}|{REPLACEMENT_WORDS})$")
_ARTICLES = {"the", "a", "an", "its"}
_BE = {"is", "was", "were", "are", "been", "be", "being", "get", "gets", "got"}


def _ending_params(doc, entities: list[Mention]) -> dict[str, object]:
    """The deprecations query's parameters: the thing the question asks about the end of
    (``name``: "Is TorchScript deprecated?", "Which release dropped Python 2?", "Was CUDA
    11.6 deprecated?"), the release that ends things ("What did PyTorch 2.2 deprecate?"), the
    library whose releases do ("What did torchaudio remove?") and the library whose versions
    end (``versions_of``: "Which CUDA versions were removed?")."""
    ended = next((m for m in entities if _ended_here(doc, m)), None)
    if ended is None and not any(m.label == "Release" for m in entities):
        # "TorchScript's deprecation"; not "Which CUDA versions did 1.13 deprecate?"
        ended = next((m for m in entities if m.label not in ("Release", "Library")
                      and not _kind_of_versions(doc, m)), None)
    rest = [m for m in entities if m is not ended]
    versions = next((m for m in rest if m.label != "Release" and _kind_of_versions(doc, m)),
                    None)  # "CUDA versions", not "the 2.12 release"
    rest = [m for m in rest if m is not versions]
    found = {"name": ended.value if ended else None,
             "versions_of": versions.value if versions else None,
             "release": next((m.value for m in rest if m.label == "Release"), None),
             "library": next((m.value for m in rest if m.label == "Library"), None)}
    return {key: value for key, value in found.items() if value is not None}


def _kind_of_versions(doc, mention: Mention) -> bool:
    """Whether a mention names a kind of versions, no one thing: "CUDA versions"."""
    after = doc[mention.end].lower_ if mention.end < len(doc) else ""
    return after in ("version", "versions", "release", "releases")


def _ended_here(doc, mention: Mention) -> bool:
    """Whether the words around a mention say it ends: "deprecated X", "dropped support for
    X", "X is deprecated", "the replacement for X"."""
    i = mention.start - 1
    while i >= 0 and doc[i].lower_ in _ARTICLES:
        i -= 1
    if i >= 1 and doc[i].lower_ in ("for", "of"):  # not "deprecated for PyTorch 2.2"
        if doc[i - 1].lower_ == "support":
            i -= 2  # "dropped support for X"
        elif _REPLACEMENT.match(doc[i - 1].lower_):
            i -= 1  # "the replacement for X", "instead of X"
    if i >= 0 and _ENDING.match(doc[i].lower_):
        return True
    after = doc[mention.end].lower_ if mention.end < len(doc) else ""
    return (mention.start > 0 and doc[mention.start - 1].lower_ in _BE
            and bool(_ENDING.match(after)))


def _asked_stabilities(mentions: list[Mention], doc) -> tuple[str, ...]:
    """The stabilities a question asks for, in its order: after "to" when it names one there
    ("moved from beta to stable": Stable)."""
    asked = [m for m in mentions if m.kind == "stability"]
    to = [t.i for t in doc if t.lower_ == "to"] if doc is not None else []
    if to and any(m.start > to[-1] for m in asked):
        asked = [m for m in asked if m.start > to[-1]]
    return tuple(dict.fromkeys(str(m.value) for m in asked))


#: Per query, the column of its rows that holds the outcome a question can ask for.
OUTCOME_COLUMNS = {"feature-stability": "stability", "feature-lifecycle": "to_stability",
                   "deprecations": "change"}
_REMOVAL = re.compile(rf"^({REMOVAL_WORDS})$")
_DEPRECATION = re.compile(rf"^({DEPRECATION_WORDS})$")
_REPLACEMENT = re.compile(rf"^({REPLACEMENT_WORDS})$")
#: The outcome of "What replaced TorchScript?" asked of its deprecations: a change no row holds.
REPLACED = "REPLACED_BY"


def when_empty(mapping: MappedQuestion) -> MappedQuestion | None:
    """The question to ask instead when ``mapping``'s query has no rows, or None: what
    replaced a thing no ``REPLACES`` names is asked of its deprecations, whose sentences may
    say ("torch.export should be used to replace the jit trace and script APIs")."""
    if mapping.query != "replacements" or "name" not in mapping.params:
        return None
    return replace(mapping, query="deprecations", params=dict(mapping.params),
                   outcome=(OUTCOME_COLUMNS["deprecations"], (REPLACED,)))


def _outcome(query: str, mentions: list[Mention], doc) -> tuple[str, tuple[str, ...]] | None:
    """The outcome the question asks the rows to hold: the stability a feature reached ("Has
    FSDP become stable?", "Is X API-Stable or API-Unstable?"), or removals rather than
    deprecations ("What did 2.12 remove?") and the other way round."""
    column = OUTCOME_COLUMNS.get(query)
    if column is None:
        return None
    if query == "deprecations":
        words = {t.lower_ for t in doc}
        removal = (any(_REMOVAL.match(w) for w in words)
                   or _position(doc, [("no", "longer")]) is not None)
        deprecation = any(_DEPRECATION.match(w) for w in words)
        if removal == deprecation:
            return None
        return column, ("REMOVES" if removal else "DEPRECATES",)
    stabilities = _asked_stabilities(mentions, doc)
    return (column, stabilities) if stabilities else None


#: The change a question asks for, as a gap line says it: (its verb, its past participle, what
#: the rows are instead).
_CHANGES = {"REMOVES": ("removes", "removed", "deprecations"),
            "DEPRECATES": ("deprecates", "deprecated", "removals")}


def unmet_outcome(mapping: MappedQuestion, columns: Sequence[str],
                  rows: Sequence[Sequence[object]]) -> str:
    """A line that says the posts do not state what the question asks to have happened,
    when the rows are about it but none holds it ("Has torch.compile become stable?": every
    row Beta); "" otherwise."""
    if mapping.outcome is None or not rows or mapping.outcome[0] not in columns:
        return ""
    column, values = mapping.outcome
    found = [row[list(columns).index(column)] for row in rows]
    if any(value in values for value in found):
        return ""
    params = mapping.params
    if values[0] == REPLACED:
        return (f"not in the graph as a relation: no post states what replaced "
                f"{params['name']}; the rows are its deprecations, whose sentences may say")
    if values[0] in _CHANGES:
        verb, past, instead = _CHANGES[values[0]]
        said = (f"{params['name']} was {past}" if params.get("name") else
                f"{params.get('release') or params.get('library') or 'a release'} {verb} "
                f"anything")
        return f"not in the graph: no post says that {said} (the rows are {instead})"
    feature = params.get("feature")
    if not any(found):
        return f"not in the graph: no post states a stability for {feature}"
    return (f"not in the graph: no post says that {feature} is {' or '.join(values)} in any "
            f"release (the rows are every stability stated)")


#: The words of "X is part of Y": what comes before them is the part, after them the whole.
_WHOLE_WORDS = (("part", "of"), ("belongs", "to"), ("belong", "to"), ("belonged", "to"),
                ("member", "of"))


def _position(doc, phrases: Sequence[tuple[str, ...]]) -> int | None:
    """The token offset where the first of ``phrases`` (lowercase words) starts, or None."""
    if doc is None:
        return None
    words = [t.lower_ for t in doc]
    for i in range(len(words)):
        if any(tuple(words[i:i + len(p)]) == p for p in phrases):
            return i
    return None


def _pack_forms() -> list[tuple[str, str, str]]:
    """(surface, canonical name, label) of each line of the alias pack."""
    from .extractors.patterns import ENTITY_PATTERNS, pattern_surface, read_patterns

    forms = []
    for record in read_patterns(ENTITY_PATTERNS):
        canonical = record.get("id")
        if isinstance(canonical, str):
            forms.append((pattern_surface(record), canonical, record["label"]))
    return forms


_STOPWORDS = {"a", "an", "the", "is", "are", "was", "were", "what", "which", "who", "how",
              "in", "of", "on", "to", "for", "and", "or", "do", "does", "did", "i", "me",
              "there", "it", "that", "this", "with", "by", "be", "can", "each", "all"}


def _unknown_names(doc, mentions: list[Mention]) -> list[str]:
    """The words no mention covers that look like names: with a digit and a letter
    ("GB300"), a capital after a small letter ("TorchFoo"), or a dot or underscore inside
    ("torch.foo"); a capitalized word ("Paris") or a plural of capitals ("GPUs") may be
    anything."""
    taken = {i for m in mentions for i in range(m.start, m.end)}
    found = []
    for token in doc:
        word = token.text.strip(".,;:?!()'\"")
        if (token.i in taken or len(word) < 2 or VERSION.match(word)
                or word.casefold() in _STOPWORDS or word.casefold() in STABILITY_WORDS
                or word.casefold() in LABEL_WORDS):
            continue
        if ((any(c.isdigit() for c in word) and any(c.isalpha() for c in word))
                or re.search(r"[a-z][A-Z]", word) or re.search(r"\w[._]\w", word)):
            found.append(word)
    return found


def closest_shapes(question: str, n: int = 3) -> list[str]:
    """The ``n`` example questions of :data:`SHAPES` that look most like ``question``.

    Examples
    --------
    >>> closest_shapes("what is new", 1)
    ["What's new in PyTorch 1.8?"]
    """
    def content(text: str) -> set[str]:
        return {w.rstrip("s") for w in re.findall(r"[a-z']+", text.casefold())
                if w not in _STOPWORDS}

    words = content(question)

    def likeness(example: str) -> tuple[float, float]:
        theirs = content(example)
        overlap = len(words & theirs) / max(len(words | theirs), 1)
        ratio = difflib.SequenceMatcher(None, question.casefold(), example.casefold()).ratio()
        return (overlap + 0.3 * ratio, ratio)

    examples = [shape["example"] for shape in SHAPES.values()]
    return sorted(examples, key=likeness, reverse=True)[:n]


def score_questions(mapper: QuestionMapper, questions: Sequence[Mapping[str, object]]
                    ) -> tuple[float, list[tuple[dict, MappedQuestion]]]:
    """The share of ``questions`` (``{"question", "query", "params"}``) mapped exactly right,
    and the ones that were not, each with what it was mapped to."""
    wrong = []
    for item in questions:
        found = mapper.map(str(item["question"]))
        if found.query != item["query"] or (found.query and found.params != item["params"]):
            wrong.append((dict(item), found))
    return 1 - len(wrong) / max(len(questions), 1), wrong
