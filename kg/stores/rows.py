"""A graph as rows for a database: one dict per node and per relationship, then batches.

Pure functions of a ptkg graph (no driver): the Neo4j load and the Cypher and CSV exports write
the same rows. A node row is ``{"key", "props"}`` (per label); a relationship row is
``{"start", "end", "props"}`` (per start label, type and end label). Properties are the graph's,
nulls left out, ``offsets`` flat (``[start0, end0, start1, end1, ...]``, ``-1, -1`` for an
unknown position: Neo4j has no nested lists and no nulls in lists).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence

import networkx as nx

from ptkg.errors import StoreError
from ptkg.schema import key_property

UNKNOWN_OFFSET = -1

def node_key(graph: nx.MultiDiGraph, node: str) -> object:
    """The key value of a graph node (its ``url`` or ``name``; else the id after ``Label:``)."""
    data = graph.nodes[node]
    value = data.get(key_property(data["label"]))
    return value if value is not None else str(node).partition(":")[2]

def node_rows(graph: nx.MultiDiGraph) -> dict[str, list[dict]]:
    """The nodes of ``graph`` as rows per label: ``{"key": ..., "props": {...}}``.

    Labels and rows are sorted (by key); ``props`` holds every node attribute whose value is not
    null, the key property included.

    Raises
    ------
    StoreError
        A node without a label, or a property Neo4j cannot store.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("Release:PyTorch 1.8", label="Release", name="PyTorch 1.8", version="1.8")
    >>> node_rows(g)
    {'Release': [{'key': 'PyTorch 1.8', 'props': {'label': 'Release', 'name': 'PyTorch 1.8', \
'version': '1.8'}}]}
    """
    by_label: dict[str, list[dict]] = defaultdict(list)
    for node, data in graph.nodes(data=True):
        label = data.get("label")
        if not label:
            raise StoreError(f"node {node!r} has no label: not a ptkg graph")
        props = _properties(data, f"node {node!r}")
        key = node_key(graph, node)
        props[key_property(label)] = key
        by_label[label].append({"key": key, "props": props})
    return {label: sorted(rows, key=lambda row: str(row["key"]))
            for label, rows in sorted(by_label.items())}

def relationship_rows(graph: nx.MultiDiGraph) -> dict[tuple[str, str, str], list[dict]]:
    """The edges of ``graph`` as rows per (start label, type, end label).

    Each row is ``{"start": key, "end": key, "props": {...}}``; ``props`` holds every edge
    attribute that is not null, with ``offsets`` flattened (see :func:`flatten_offsets`).
    Groups and rows are sorted.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("Release:PyTorch 1.8", label="Release", name="PyTorch 1.8")
    >>> g.add_node("Feature:torch.fx", label="Feature", name="torch.fx")
    >>> _ = g.add_edge("Release:PyTorch 1.8", "Feature:torch.fx", key="INTRODUCES",
    ...                type="INTRODUCES", offsets=[[5, 9], None], count=2)
    >>> relationship_rows(g)
    {('Release', 'INTRODUCES', 'Feature'): [{'start': 'PyTorch 1.8', 'end': 'torch.fx', \
'props': {'count': 2, 'offsets': [5, 9, -1, -1], 'type': 'INTRODUCES'}}]}
    """
    groups: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for start, end, key, data in graph.edges(keys=True, data=True):
        rel_type = str(data.get("type") or key)
        where = f"relationship {start!r} -[{rel_type}]-> {end!r}"
        props = _properties(data, where)
        props["type"] = rel_type
        group = (graph.nodes[start]["label"], rel_type, graph.nodes[end]["label"])
        groups[group].append({"start": node_key(graph, start), "end": node_key(graph, end),
                              "props": props})
    return {group: sorted(rows, key=lambda row: (str(row["start"]), str(row["end"])))
            for group, rows in sorted(groups.items())}

def flatten_offsets(offsets: Sequence[Sequence[int] | None]) -> list[int]:
    """``[[start, end] | None, ...]`` → ``[start, end, ...]`` with ``-1, -1`` for None.

    Examples
    --------
    >>> flatten_offsets([[8782, 8804], None])
    [8782, 8804, -1, -1]
    """
    flat: list[int] = []
    for pair in offsets:
        if pair is None:
            flat += [UNKNOWN_OFFSET, UNKNOWN_OFFSET]
        elif len(pair) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in pair):
            flat += [int(pair[0]), int(pair[1])]
        else:
            raise ValueError(f"an offset is [start, end] or null, not {pair!r}")
    return flat

def unflatten_offsets(flat: Sequence[int]) -> list[list[int] | None]:
    """The inverse of :func:`flatten_offsets`.

    Examples
    --------
    >>> unflatten_offsets([8782, 8804, -1, -1])
    [[8782, 8804], None]
    """
    if len(flat) % 2:
        raise ValueError(f"flat offsets have an even length, not {len(flat)}")
    pairs = zip(flat[::2], flat[1::2], strict=True)
    return [None if start == UNKNOWN_OFFSET and end == UNKNOWN_OFFSET else [start, end]
            for start, end in pairs]

def _properties(data: Mapping[str, object], where: str) -> dict[str, object]:
    """The attributes of a node or edge as Neo4j properties (nulls left out), checked."""
    props: dict[str, object] = {}
    for name, value in sorted(data.items()):
        if value is None or name.startswith("_"):
            continue
        if name == "offsets" and isinstance(value, list):
            try:
                value = flatten_offsets(value)
            except (TypeError, ValueError) as error:
                raise StoreError(f"{where}: cannot store offsets: {error}") from None
        problem = _property_problem(value)
        if problem:
            raise StoreError(f"{where}: Neo4j cannot store property {name!r}: {problem}")
        props[name] = list(value) if isinstance(value, tuple) else value
    return props

def _property_problem(value: object) -> str | None:
    """Why Neo4j cannot store ``value`` as a property, or None."""
    scalar = (str, int, float, bool)
    if isinstance(value, float) and not math.isfinite(value):
        return None  # Neo4j stores NaN and infinities
    if isinstance(value, scalar):
        return None
    if isinstance(value, (list, tuple)):
        if any(not isinstance(item, scalar) for item in value):
            return "a list may only hold strings, numbers or booleans (no nulls, lists or maps)"
        kinds = {bool if isinstance(i, bool) else str if isinstance(i, str) else float
                 for i in value}
        if len(kinds) > 1:
            return "a list must hold values of one type"
        return None
    return f"a {type(value).__name__} is not a property value"

def batched(rows: Sequence[dict], size: int) -> Iterator[list[dict]]:
    """Slices of ``rows`` of at most ``size`` rows.

    Examples
    --------
    >>> [len(b) for b in batched([{}] * 5, 2)]
    [2, 2, 1]
    """
    if size < 1:
        raise ValueError(f"batch size must be at least 1, not {size}")
    for start in range(0, len(rows), size):
        yield list(rows[start:start + size])
