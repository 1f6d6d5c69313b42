"""Entity resolution: one node per real thing.

Two names resolve to one node when they have the same label and the same *key*: case,
spacing, hyphens, underscores, quotes, backticks, a trailing ``()`` and a ``v`` before a
version number do not count. When the key is one of the alias pack's forms, the node takes the
pack's canonical name; otherwise the most frequent form wins, then the first in sorted order.
Deterministic and explainable: the merged forms end up in the node's ``aliases``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import cache

from ptkg.extractors.patterns import ENTITY_PATTERNS, pattern_surface, read_patterns

from .names import name_key
from .records import Entity, PostFacts


@cache
def pack_names() -> dict[tuple[str, str], str]:
    """(label, key of a surface form) -> canonical name, for every entry of the alias pack."""
    names = {}
    for pattern in read_patterns(ENTITY_PATTERNS):
        surface = pattern_surface(pattern)
        canonical = pattern.get("id") or surface
        names.setdefault((pattern["label"], name_key(surface)), canonical)
        names.setdefault((pattern["label"], name_key(canonical)), canonical)
    return names


class Resolver:
    """Maps every extracted entity to its canonical entity."""

    def __init__(self, counts: Counter[Entity]):
        known = pack_names()
        groups: dict[tuple[str, str], list[Entity]] = defaultdict(list)
        for entity in sorted(counts):
            key = (entity.label, name_key(entity.name))
            groups[key].append(entity)
        self.canonical: dict[Entity, Entity] = {}
        for (label, key), members in groups.items():
            if (label, key) in known:  # a form the pack knows: its canonical name
                best = Entity(label, known[label, key])
            else:
                best = min(members, key=lambda e: (-counts[e], e.name))
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
