"""Compare a built graph with a gold annotation (``tests/gold/GUIDELINES.md``).

Entities are compared per label, relations per type, on the posts the gold covers: a node
counts as predicted when one of those posts MENTIONS it, a relation when one of those posts is
among its ``sources``. Names match by :func:`ptkg.resolve.name_key` against the gold name and
the variants the annotator accepted (``also``), and a node by its aliases when its name matches
none. Gold entities of one label whose accepted names overlap (two files naming one feature
two ways, each accepting the other) are one entity.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from .errors import InputError
from .graph import same_things
from .names import name_key
from .schema import CONTRACT_TYPES

Key = tuple[str, str]  # (label, name)


@dataclass
class Gold:
    """A gold annotation: the posts it covers, its entities and relations."""

    posts: set[str] = field(default_factory=set)
    entities: dict[Key, set[str]] = field(default_factory=dict)  # entity -> accepted name keys
    relations: dict[tuple[str, Key, Key], str | None] = field(default_factory=dict)
    # post -> (entity labels, relation types) when its file annotates only those
    scopes: dict[str, tuple[set[str], set[str]]] = field(default_factory=dict)

    def in_scope(self, url: str, relation_type: str) -> bool:
        return url not in self.scopes or relation_type in self.scopes[url][1]

    def find(self, label: str, name: str) -> Key | None:
        """The gold entity a predicted (label, name) stands for, if any."""
        key = name_key(name)
        return next((e for e, keys in self.entities.items() if e[0] == label and key in keys),
                    None)


@dataclass
class Score:
    """Counts of one row of the report."""

    true_positives: int = 0
    predicted: int = 0
    gold: int = 0

    @property
    def precision(self) -> float:
        return self.true_positives / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


@dataclass
class Report:
    """Scores per label and per relation type, stability accuracy and duplicate nodes."""

    entities: dict[str, Score]
    relations: dict[str, Score]
    stability_correct: int  # INTRODUCES found with the gold's stability
    stability_found: int  # INTRODUCES with a stated stability that the graph has
    stability_total: int  # INTRODUCES with a stated stability in the gold
    duplicates: list[list[str]]
    missed: list[str]
    spurious: list[str]

    @property
    def stability_accuracy(self) -> float:
        """Of the stated stabilities whose relation the graph has, the share it got right."""
        return self.stability_correct / self.stability_found if self.stability_found else 1.0

    def total(self, part: str) -> Score:
        rows = getattr(self, part).values()
        return Score(sum(r.true_positives for r in rows), sum(r.predicted for r in rows),
                     sum(r.gold for r in rows))


def read_gold(paths: list[str | Path]) -> Gold:
    """Read one or more gold files (a folder means every ``*.json`` in it)."""
    gold = Gold()
    files = []
    for path in map(Path, paths):
        files.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    for file in files:
        try:
            data = json.loads(file.read_text(encoding="utf8"))
        except (OSError, ValueError) as error:
            raise InputError(f"cannot read gold file ({error})", str(file)) from None
        try:
            _add_gold(gold, data)
        except (KeyError, TypeError, IndexError, AttributeError) as error:
            raise InputError(f"not a gold file ({type(error).__name__}: {error}); see "
                             "tests/gold/GUIDELINES.md", str(file)) from None
    _join_overlapping(gold)
    return gold


def _join_overlapping(gold: Gold) -> None:
    """Make gold entities of one label whose accepted names overlap one entity, named by the
    first in sorted order, and name their relations after it."""
    renamed: dict[Key, Key] = {}
    kept: list[Key] = []
    for entity in sorted(gold.entities):
        into = next((k for k in kept if k[0] == entity[0]
                     and gold.entities[k] & gold.entities[entity]), None)
        if into is None:
            kept.append(entity)
        else:
            gold.entities[into] |= gold.entities.pop(entity)
            renamed[entity] = into
    if renamed:
        relations = list(gold.relations.items())
        gold.relations.clear()
        for (kind, source, target), stability in relations:
            triple = (kind, renamed.get(source, source), renamed.get(target, target))
            gold.relations[triple] = stability or gold.relations.get(triple)


def _add_gold(gold: Gold, data: dict) -> None:
    urls = [p["url"] for p in data["posts"]]
    gold.posts.update(urls)
    if "scope" in data:
        scope = (set(data["scope"]["entity_labels"]), set(data["scope"]["relation_types"]))
        gold.scopes.update((url, scope) for url in urls)
    for entity in data["entities"]:
        keys = {name_key(n) for n in [entity["name"], *entity.get("also", [])]}
        gold.entities.setdefault((entity["label"], entity["name"]), set()).update(keys)
    for relation in data["relations"]:
        triple = (relation["type"], tuple(relation["source"]), tuple(relation["target"]))
        gold.relations[triple] = relation.get("stability") or gold.relations.get(triple)


def evaluate(graph: nx.MultiDiGraph, gold: Gold) -> Report:
    """Score ``graph`` against ``gold``."""
    identify = _identifier(graph, gold)
    relation_edges = [
        (u, v, k, d) for u, v, k, d in graph.edges(keys=True, data=True)
        if k in CONTRACT_TYPES
        and any(gold.in_scope(url, k) for url in set(d.get("sources", [])) & gold.posts)
    ]
    predicted_relations = {(k, identify(u), _as_named(gold, graph, v, d) or identify(v)):
                           d.get("stability") for u, v, k, d in relation_edges}
    predicted_entities = {identify(v) for u, v, k in graph.edges(keys=True)
                          if k == "MENTIONS" and graph.nodes[u].get("url") in gold.posts
                          and _entity_in_scope(gold, graph.nodes[u]["url"], v, graph,
                                               relation_edges)}
    entities = _score(predicted_entities, set(gold.entities), lambda e: e[0])
    relations = _score(set(predicted_relations), set(gold.relations), lambda r: r[0])
    stated = {r: s for r, s in gold.relations.items() if r[0] == "INTRODUCES" and s}
    found = [r for r in stated if r in predicted_relations]
    correct = sum(predicted_relations[r] == stated[r] for r in found)
    missed = sorted(map(str, (set(gold.relations) - set(predicted_relations))
                        | (set(gold.entities) - predicted_entities)))
    spurious = sorted(map(str, (set(predicted_relations) - set(gold.relations))
                          | (predicted_entities - set(gold.entities))))
    return Report(entities, relations, correct, len(found), len(stated), find_duplicates(graph),
                  missed, spurious)


def _as_named(gold: Gold, graph: nx.MultiDiGraph, node: str, edge: dict) -> Key | None:
    """The gold entity an INTRODUCES names by the name its release's post gave the feature
    (``named``: 2.0's "Accelerated PyTorch 2 Transformers", BetterTransformer renamed)."""
    named = edge.get("named")
    return gold.find(graph.nodes[node]["label"], named) if named else None


def _entity_in_scope(gold: Gold, url: str, node: str, graph: nx.MultiDiGraph,
                     relation_edges: list) -> bool:
    """In a post annotated for some relation types only, entities count when they take part."""
    if url not in gold.scopes:
        return True
    return graph.nodes[node]["label"] in gold.scopes[url][0] and any(
        node in (u, v) and url in d.get("sources", []) for u, v, _, d in relation_edges)


def _identifier(graph: nx.MultiDiGraph, gold: Gold):
    """A node's gold key: by its label and names, else by those of the node it is
    (``SAME_AS``: the Feature ExecuTorch that a PART_OF needs is the Library ExecuTorch)."""
    def find(node: str) -> Key | None:
        data = graph.nodes[node]
        names = [data["name"], *data.get("aliases", [])]
        return next((key for key in (gold.find(data["label"], n) for n in names)
                     if key is not None), None)

    def identify(node: str) -> Key:
        data = graph.nodes[node]
        if data["label"] == "Post":
            return ("Post", data["url"])
        found = (find(n) for n in (node, *same_things(graph, node)))
        return next((key for key in found if key is not None), (data["label"], data["name"]))
    return identify


def _score(predicted: set, expected: set, group) -> dict[str, Score]:
    scores: dict[str, Score] = defaultdict(Score)
    for item in predicted:
        scores[group(item)].predicted += 1
        scores[group(item)].true_positives += item in expected
    for item in expected:
        scores[group(item)].gold += 1
    return dict(sorted(scores.items()))


def find_duplicates(graph: nx.MultiDiGraph) -> list[list[str]]:
    """Groups of nodes of one label whose names or aliases share a key."""
    owners: dict[tuple[str, str], set[str]] = defaultdict(set)
    for node, data in graph.nodes(data=True):
        if data["label"] == "Post":
            continue
        for name in [data["name"], *data.get("aliases", [])]:
            owners[data["label"], name_key(name)].add(node)
    return sorted(sorted(nodes) for nodes in owners.values() if len(nodes) > 1)


def report_rows(report: Report) -> list[list[object]]:
    """The report as table rows: part, label or type, precision, recall, F1, counts."""
    rows = []
    for part in ("entities", "relations"):
        for name, score in [*getattr(report, part).items(), ("all", report.total(part))]:
            rows.append([part, name, round(score.precision, 3), round(score.recall, 3),
                         round(score.f1, 3), score.true_positives, score.predicted, score.gold])
    return rows
