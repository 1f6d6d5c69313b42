"""The graph contract of ``docs/schema.md`` as data: labels, relationship types, stability.

Every module reads the contract from here and keeps no copy of it: the graph builder and the
extractors check a relation's endpoints with :meth:`RelationType.fits`, the Neo4j store makes a
constraint on each label's :attr:`Label.key`, the pages draw labels with :attr:`Label.color` and
stabilities with :attr:`Stability.color`, lifecycles and diffs compare levels with
:func:`change`, and the extractors read a stability from the words of :data:`STABILITIES`
(:func:`stability_named`). ``tests/test_schema.py`` checks this module against the tables of
``docs/schema.md``, the project's copy of the contract.

Adding a label, a relationship type or a stability level is one entry here and one row in
``docs/schema.md``; ``extractors/README.md`` shows each as a worked example.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

CORE_LIBRARY = "PyTorch"


@dataclass(frozen=True)
class Label:
    """A node label: its key property and how the pages draw it."""

    name: str
    key: str = "name"
    color: str = "#444444"
    shape: str = "dot"  # a vis-network shape
    dashes: bool = False


LABELS: dict[str, Label] = {label.name: label for label in (
    Label("Post", key="url", color="#8a8a8a", shape="square"),
    Label("Library", color="#0072b2", shape="hexagon"),
    Label("Release", color="#d55e00", shape="diamond"),
    Label("Feature", color="#56b4e9"),
    Label("Hardware", color="#e69f00", shape="triangle"),
    Label("Platform", color="#009e73", shape="triangleDown"),
    Label("Organization", color="#a6761d", shape="star"),
    Label("Model", color="#7b3294", dashes=True),
)}
#: How the pages draw a label the contract does not have.
OTHER_LABEL = Label("", color="#444444")
ANY = frozenset(LABELS) - {"Post"}
#: The relationship types of what a release ends.
ENDINGS = ("DEPRECATES", "REMOVES")
#: The labels of what something runs on or supports (a SUPPORTS target).
DEVICE_LABELS = ("Hardware", "Platform")
#: Hardware too generic to say what a feature supports: every feature runs on some CPU or GPU.
ANY_DEVICE = frozenset({"CPU", "GPU"})


def key_property(label: str) -> str:
    """The key property of ``label``: ``url`` for ``Post``, else ``name``.

    Examples
    --------
    >>> key_property("Post"), key_property("Feature"), key_property("Custom")
    ('url', 'name', 'name')
    """
    return LABELS[label].key if label in LABELS else "name"


@dataclass(frozen=True)
class RelationType:
    """A relationship type: what it connects and whether it is read from posts.

    ``extracted`` types carry provenance (``sources``, ``evidence``, ``offsets``, ``rules``,
    ``count``); the others are derived by the graph builder. ``contract`` types are those of
    the shared contract, which the gold annotates; the others are ptkg's own.
    """

    name: str
    sources: frozenset[str]
    targets: frozenset[str]
    extracted: bool = True
    color: str = "#7f8c99"
    contract: bool = True

    def fits(self, source: str, target: str) -> bool:
        """Whether a relation of this type may go from a ``source`` to a ``target`` label."""
        return source in self.sources and target in self.targets


def _type(name: str, sources: str, targets: str, **options) -> RelationType:
    def labels(text: str) -> frozenset[str]:
        return ANY if text == "*" else frozenset(text.split())
    return RelationType(name, labels(sources), labels(targets), **options)


_DEPRECATABLE = "Feature Library Hardware Platform Release"
RELATION_TYPES: dict[str, RelationType] = {t.name: t for t in (
    _type("MENTIONS", "Post", "*", extracted=False, color="#d6d6d6"),
    _type("ANNOUNCES", "Post", "Release"),
    _type("HAS_RELEASE", "Library", "Release", extracted=False),
    _type("PRECEDES", "Release", "Release", extracted=False),
    _type("VARIANT_OF", "Hardware Feature Model", "Hardware Feature Model", color="#8c6d31",
          contract=False),  # made from names (``why``), or read: "X (codename Y)"
    _type("SAME_AS", "Feature Library", "Library Model Hardware", extracted=False,
          color="#01665e"),
    _type("INTRODUCES", "Release", "Feature", color="#9e9e9e"),
    _type("DEPRECATES", "Release", _DEPRECATABLE, color="#b2182b"),
    _type("REMOVES", "Release", _DEPRECATABLE, color="#67001f"),
    _type("RELEASED_WITH", "Release", "Release"),
    _type("PART_OF", "Feature", "Library"),
    _type("SUPPORTS", "Release Library Feature", "Hardware Platform"),
    _type("DEVELOPED_BY", "Library Feature Release", "Organization"),
    _type("BASED_ON", "Feature Library", "Feature Library"),
    _type("REPLACES", "Feature Library", "Feature Library", color="#5e3c99", contract=False),
)}
#: The types read from posts, in the contract's order, then ptkg's own.
EXTRACTED_TYPES = tuple(name for name, t in RELATION_TYPES.items() if t.extracted)
#: The types read from posts that the contract has, and the gold annotates.
CONTRACT_TYPES = tuple(name for name in EXTRACTED_TYPES if RELATION_TYPES[name].contract)


@dataclass(frozen=True)
class Stability:
    """A stability level: the words that state it, its era and its place among the levels.

    ``stable`` splits the levels in two tiers; ``rank`` orders the levels of one era
    (Prototype < Beta < Stable); ``words`` are the lower-case words a marker or a sentence
    states it with (``[Beta]``, "beta support for"); ``until`` is the last date (YYYY-MM-DD) a
    word of ``legacy`` states it ("Experimental", before July 2020, is Beta).
    """

    name: str
    stable: bool
    rank: int
    era: str  # "2020" (Prototype/Beta/Stable, to 2.7) or "2.8" (API-Unstable/API-Stable)
    words: tuple[str, ...]
    color: str
    legacy: tuple[str, ...] = ()
    until: str | None = None


STABILITIES: dict[str, Stability] = {s.name: s for s in (
    Stability("Prototype", False, 1, "2020", ("prototype",), "#c51b7d"),
    Stability("Beta", False, 2, "2020", ("beta",), "#e08214",
              legacy=("experimental",), until="2020-07-27"),
    Stability("Stable", True, 3, "2020", ("stable",), "#1a9850"),
    Stability("API-Unstable", False, 2, "2.8", ("api-unstable", "api unstable"), "#8073ac"),
    Stability("API-Stable", True, 3, "2.8", ("api-stable", "api stable"), "#006837"),
)}
#: The color of an INTRODUCES edge or timeline cell that states no stability.
UNSTATED_COLOR = "#9e9e9e"
#: A word that states a level only in its era: "Experimental" after July 2020 reads Prototype.
AFTER_LEGACY = {"experimental": "Prototype"}


def stability_words() -> list[str]:
    """Every word that states a level, longest first (for a regular expression)."""
    words = {w for s in STABILITIES.values() for w in (*s.words, *s.legacy)} | set(AFTER_LEGACY)
    return sorted(words, key=lambda w: (-len(w), w))


def stability_named(word: str, date: str | None = None) -> str:
    """The level a word states in a post of ``date``.

    Examples
    --------
    >>> stability_named("BETA"), stability_named("API-Unstable")
    ('Beta', 'API-Unstable')
    >>> stability_named("Experimental", "2020-04-21"), stability_named("experimental", "2022-06-28")
    ('Beta', 'Prototype')

    Raises
    ------
    KeyError
        ``word`` states no level.
    """
    word = " ".join(word.lower().replace("-", " ").split())
    for level in STABILITIES.values():
        if word in {w.replace("-", " ") for w in level.words}:
            return level.name
        if word in level.legacy and (date is None or level.until is None or date <= level.until):
            return level.name
    return AFTER_LEGACY[word]


def change(old: str, new: str) -> str | None:
    """``"promotion"``, ``"demotion"`` or None, from level ``old`` to ``new`` (a later release).

    A move between the tiers (to Stable or API-Stable, or back) is one; within a tier, a move
    between levels of one era (Prototype to Beta); Prototype or Beta followed by API-Unstable is
    neither: the names changed, not the commitment.

    Examples
    --------
    >>> change("Prototype", "Beta"), change("Beta", "API-Stable"), change("Beta", "API-Unstable")
    ('promotion', 'promotion', None)
    >>> change("Stable", "Prototype"), change("Stable", "API-Stable")
    ('demotion', None)
    """
    a, b = STABILITIES[old], STABILITIES[new]
    if a.stable != b.stable:
        return "promotion" if b.stable else "demotion"
    if a.era == b.era and a.rank != b.rank:
        return "promotion" if b.rank > a.rank else "demotion"
    return None


Stated = TypeVar("Stated")


def after_previous(stated: Iterable[Stated],
                   library: Callable[[Stated], str]) -> Iterator[tuple[Stated, Stated]]:
    """Each statement of a feature's stability with the one before it by a release of the same
    library: ``stated`` in version order, only statements of a level.

    Examples
    --------
    >>> said = [("PyTorch", "1.8"), ("torchvision", "0.9"), ("PyTorch", "1.10")]
    >>> list(after_previous(said, lambda s: s[0]))
    [(('PyTorch', '1.8'), ('PyTorch', '1.10'))]
    """
    last: dict[str, Stated] = {}
    for statement in stated:
        before = last.get(library(statement))
        if before is not None:
            yield before, statement
        last[library(statement)] = statement


def stability_rank(name: str | None) -> int:
    """A level's place for sorting (stable levels last), 0 for none stated."""
    return STABILITIES[name].rank if name in STABILITIES else 0
