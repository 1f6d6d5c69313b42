"""Entity resolution: one node per real thing.

Two names resolve to one node when they have the same label and the same *key*: case,
spacing, hyphens, underscores, quotes, backticks, a trailing ``()`` and a ``v`` before a
version number do not count. The alias pack has already mapped its surface forms to canonical
names; among the names that share a key, a canonical name of the pack wins, else the most
frequent form, else the first in sorted order. Deterministic and explainable: the merged forms
end up in the node's ``aliases``.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import cache

from ptkg.extractors.components import ENTITY_PATTERNS, read_patterns

from .extract import Entity, PostFacts

_NOISE = re.compile(r"[\s_\-`'\"’‘“”]+")


def name_key(name: str) -> str:
    """The part of a name that identifies it.

    Examples
    --------
    >>> name_key("`torch.compile()`") == name_key("Torch.Compile")
    True
    >>> name_key("TorchVision v0.11") == name_key("torchvision 0.11")
    True
    """
    text = name.casefold().strip()
    text = re.sub(r"\(\)$", "", re.sub(r"`", "", text))
    text = re.sub(r"\bv(?=\d)", "", text)
    return _NOISE.sub("", text)


@cache
def pack_names() -> frozenset[tuple[str, str]]:
    """(label, canonical name) of every entry of the alias pack."""
    names = ((p["label"], p.get("id") or p["pattern"]) for p in read_patterns(ENTITY_PATTERNS))
    return frozenset(name for name in names if isinstance(name[1], str))


class Resolver:
    """Maps every extracted entity to its canonical entity."""

    def __init__(self, counts: Counter[Entity]):
        groups: dict[tuple[str, str], list[Entity]] = defaultdict(list)
        for entity in sorted(counts):
            groups[entity.label, name_key(entity.name)].append(entity)
        known = pack_names()
        self.canonical: dict[Entity, Entity] = {}
        for members in groups.values():
            best = min(members, key=lambda e: ((e.label, e.name) not in known, -counts[e], e.name))
            for member in members:
                self.canonical[member] = best

    @classmethod
    def from_results(cls, results: Iterable[PostFacts]) -> Resolver:
        counts: Counter[Entity] = Counter()
        for result in results:
            counts.update(m.entity for m in result.mentions)
            for fact in result.facts:
                counts.update(e for e in (fact.source, fact.target) if e.label != "Post")
        return cls(counts)

    def resolve(self, entity: Entity) -> Entity:
        return self.canonical.get(entity, entity)
