"""Looking entities up by any of their names and describing them with their evidence."""

from __future__ import annotations

import difflib

import networkx as nx

from .names import name_key

SKIP_PROPERTIES = {"label", "name", "aliases"}


def find_nodes(graph: nx.MultiDiGraph, name: str) -> list[str]:
    """Nodes whose name or one of whose aliases has the same key as ``name``."""
    key = name_key(name)
    return sorted(
        node for node, data in graph.nodes(data=True)
        if key in {name_key(n) for n in [data["name"], *data.get("aliases", [])]}
    )


def closest_names(graph: nx.MultiDiGraph, name: str, label: str | None = None) -> list[str]:
    """Up to five names of nodes (of ``label``) that look most like ``name``, or its aliases."""
    names: dict[str, str] = {}
    for _, data in sorted(graph.nodes(data=True)):
        if label is None or data["label"] == label:
            for each in [data["name"], *data.get("aliases", [])]:
                names.setdefault(each.casefold(), data["name"])
    close = difflib.get_close_matches(name.casefold(), sorted(names), n=10, cutoff=0.5)
    return list(dict.fromkeys(names[c] for c in close))[:5]


def describe(graph: nx.MultiDiGraph, node: str) -> str:
    """A readable account of a node: properties, aliases, then each relation and its evidence."""
    data = graph.nodes[node]
    lines = [f"{data['label']}: {data['name']}"]
    if data.get("aliases"):
        lines.append(f"  aliases: {', '.join(data['aliases'])}")
    for key in sorted(set(data) - SKIP_PROPERTIES):
        lines.append(f"  {key}: {data[key]}")
    edges = [(key, "->", v, d) for _, v, key, d in graph.out_edges(node, keys=True, data=True)]
    edges += [(key, "<-", u, d) for u, _, key, d in graph.in_edges(node, keys=True, data=True)]
    for key, arrow, other, edge in sorted(edges, key=lambda e: (e[0] == "MENTIONS", e[0], e[2])):
        if key == "MENTIONS":
            continue
        stability = f" [{edge['stability']}]" if edge.get("stability") else ""
        lines.append(f"  {arrow} {key}{stability} {other}")
        for url, sentence in zip(edge.get("sources", []), edge.get("evidence", []), strict=True):
            lines.append(f"      \"{sentence}\"\n        {url}")
    posts = sorted(u for u, _, key in graph.in_edges(node, keys=True) if key == "MENTIONS")
    if posts:
        lines.append(f"  mentioned in {len(posts)} posts:")
        lines.extend(f"      {graph.nodes[p].get('url', p)}" for p in posts)
    return "\n".join(lines)
