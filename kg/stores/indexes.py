"""Indexes of a ptkg graph in memory: nodes by label, by property value, edges by type.

:func:`graph_index` gives the :class:`GraphIndex` of a ``MultiDiGraph``, built once and kept
(weakly) for as long as the graph lives; it is rebuilt when the graph's number of nodes or
of connected node pairs changes (:func:`signature`). Indexes are built lazily, on the first
lookup that needs them: a property index the first time a query compares that property, the
typed adjacency the first time a pattern follows a relationship type; ``extras`` keeps what
other modules derive from the same graph (the name resolver's index). After changing
attribute values in place, call :func:`clear_indexes` (``ptkg.stores.grand_cypher.
clear_query_cache`` does).

The compiled executor (:mod:`ptkg.stores.compiled`) and the name resolver
(:mod:`ptkg.explore`) read them; nothing here imports grand-cypher or spaCy.
"""

from __future__ import annotations

import weakref
from collections import defaultdict
from collections.abc import Hashable, Iterable

import networkx as nx

_INDEXES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def edge_count(graph: nx.MultiDiGraph) -> int:
    """The number of edges, counted from the adjacency (cheaper than ``number_of_edges``)."""
    if graph.is_multigraph():
        return sum(len(keys) for neighbours in graph._succ.values()
                   for keys in neighbours.values())
    return sum(len(neighbours) for neighbours in graph._succ.values())


def signature(graph: nx.MultiDiGraph) -> tuple[int, int]:
    """What a kept index is checked against on every use: the number of nodes and of connected
    (start, end) pairs, counted in C (0.5 ms at 30 times the corpus, where counting every
    parallel edge takes 5 ms). A relationship added between two nodes that already have one,
    or an attribute changed in place, goes unseen: call :func:`clear_indexes` after either."""
    return len(graph._node), sum(map(len, graph._succ.values()))


class GraphIndex:
    """Lookups over one graph: by label, by (property, value), edges by type and direction.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A ptkg graph: nodes with a ``label``, edges whose type is their ``type`` (else key).

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("Release:PyTorch 1.8", label="Release", name="PyTorch 1.8")
    >>> g.add_node("Feature:torch.fx", label="Feature", name="torch.fx")
    >>> _ = g.add_edge("Release:PyTorch 1.8", "Feature:torch.fx", key="INTRODUCES")
    >>> index = GraphIndex(g)
    >>> index.by_label("Feature"), index.lookup("name", "PyTorch 1.8")
    (['Feature:torch.fx'], ['Release:PyTorch 1.8'])
    >>> [v for v, _, _ in index.edges("Release:PyTorch 1.8", "out", {"INTRODUCES"})]
    ['Feature:torch.fx']
    """

    def __init__(self, graph: nx.MultiDiGraph):
        self.graph = graph
        self.nodes = graph._node
        self._labels: dict[str, list] | None = None
        self._values: dict[str, dict[Hashable, list]] = {}
        self._typed: dict[str, dict] = {}
        self.extras: dict[str, object] = {}  # kept and dropped with the index

    def by_label(self, label: str) -> list:
        """The nodes whose ``label`` is ``label``."""
        if self._labels is None:
            labels: dict[str, list] = defaultdict(list)
            for node, data in self.nodes.items():
                labels[data.get("label")].append(node)
            self._labels = dict(labels)
        return self._labels.get(label, [])

    def labels(self) -> list[str]:
        """Every label a node has, sorted."""
        self.by_label("")
        return sorted(label for label in self._labels if isinstance(label, str))

    def lookup(self, attribute: str, value: Hashable) -> list:
        """The nodes whose ``attribute`` equals ``value`` (``==``; null never matches)."""
        values = self._values.get(attribute)
        if values is None:
            values = defaultdict(list)
            for node, data in self.nodes.items():
                found = data.get(attribute)
                if found is not None and isinstance(found, Hashable):
                    try:
                        values[found].append(node)
                    except TypeError:  # a tuple holding a list
                        continue
            values = self._values[attribute] = dict(values)
        try:
            return values.get(value, [])
        except TypeError:
            return []

    def edges(self, node, direction: str, types: Iterable[str] | None):
        """The edges at ``node``: ``(other end, key, data)`` going ``out`` or coming ``in``,
        of one of ``types`` (every type when None)."""
        if types is None:
            adjacency = self.graph._succ if direction == "out" else self.graph._pred
            return [(other, key, data) for other, keys in adjacency[node].items()
                    for key, data in keys.items()]
        typed = self._typed.get(direction)
        if typed is None:
            typed = self._typed[direction] = self._build_typed(direction)
        per_type = typed.get(node)
        if not per_type:
            return []
        found = []
        for rel_type in types:
            found += per_type.get(rel_type, ())
        return found

    def relationship_types(self) -> list[str]:
        """Every relationship type of the graph, sorted."""
        typed = self._typed.get("out")
        if typed is None:
            typed = self._typed["out"] = self._build_typed("out")
        return sorted({t for per_type in typed.values() for t in per_type if isinstance(t, str)})

    def _build_typed(self, direction: str) -> dict:
        adjacency = self.graph._succ if direction == "out" else self.graph._pred
        typed: dict = {}
        for node, neighbours in adjacency.items():
            per_type: dict = defaultdict(list)
            for other, keys in neighbours.items():
                for key, data in keys.items():
                    per_type[data.get("type", key)].append((other, key, data))
            if per_type:
                typed[node] = dict(per_type)
        return typed


def graph_index(graph: nx.MultiDiGraph) -> GraphIndex:
    """The :class:`GraphIndex` of ``graph``, kept while the graph lives and its counts hold."""
    current = signature(graph)
    cached = _INDEXES.get(graph)
    if cached is not None and cached[0] == current:
        return cached[1]
    index = GraphIndex(graph)
    _INDEXES[graph] = (current, index)
    return index


def clear_indexes() -> None:
    """Forget every kept index (after changing attribute values in place)."""
    _INDEXES.clear()
