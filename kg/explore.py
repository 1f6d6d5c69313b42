"""Looking entities up by any of their names, and describing them with their evidence.

One resolver serves every command that takes a name — named-query parameters, ``query
--param``, ``lifecycle``, ``diff``, ``show``, ``render --focus``, ``ask`` and the MCP tools:
:class:`NameIndex` (:func:`name_index` for a graph, kept while it lives) finds a node by its
name or any alias, whatever the case, spacing, hyphens, quotes, backticks, a trailing ``()`` or
a ``v`` before a version (:func:`ptkg.names.name_key`: "pytorch v2.0" is "PyTorch 2.0"); a node
whose own name matches wins over nodes that have it as an alias. A release is also found with
fewer or more trailing ``.0`` ("PyTorch 2", "PyTorch 2.0.0"), by any name of its library
("torch_xla 1.5" is "PyTorch/XLA 1.5"), and by its version alone for the core library ("1.12"
is "PyTorch 1.12"). A name the graph does not have is a
:class:`NotFoundError` that lists the closest names, never an empty answer.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from .errors import PtkgError
from .names import name_key, version_key
from .schema import CORE_LIBRARY
from .stores.indexes import graph_index

SKIP_PROPERTIES = {"label", "name", "aliases", "merged"}
CLOSEST = 5

class NotFoundError(PtkgError):
    """No node of the wanted label has that name or alias (the message lists the closest)."""


@dataclass(frozen=True)
class Entry:
    """One node as the resolver knows it."""

    node: str
    label: str
    name: str
    aliases: tuple[str, ...] = ()
    library: str | None = None
    version: str | None = None


def _trimmed(version: str) -> tuple:
    key = list(version_key(version))
    while len(key) > 1 and key[-1] == (0, 0, ""):
        key.pop()
    return tuple(key)


def _describe_labels(labels: Sequence[str] | None) -> str:
    if not labels:
        return "entity"
    return " or ".join(labels)


class NameIndex:
    """Every name and alias of a graph's nodes, by :func:`~ptkg.names.name_key`.

    Build it with :meth:`from_graph` (:func:`name_index` keeps one per graph) or, for a store
    that is not a graph in memory (Neo4j), :meth:`from_rows`.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("Release:PyTorch 2.0", label="Release", name="PyTorch 2.0",
    ...            library="PyTorch", version="2.0")
    >>> g.add_node("Library:PyTorch", label="Library", name="PyTorch", aliases=["Pytorch"])
    >>> index = NameIndex.from_graph(g)
    >>> index.resolve_name("pytorch v2.0", ["Release"]), index.resolve_name("PyTorch 2")
    ('PyTorch 2.0', 'PyTorch 2.0')
    >>> index.resolve_name("PyTorch 9.9", ["Release"])
    Traceback (most recent call last):
    ...
    ptkg.explore.NotFoundError: no Release named 'PyTorch 9.9' in the graph; closest: PyTorch 2.0
    """

    def __init__(self, entries: Iterable[Entry]):
        self.entries: dict[str, Entry] = {}
        self._own: dict[str, list[str]] = defaultdict(list)
        self._alias: dict[str, list[str]] = defaultdict(list)
        self._releases: dict[tuple[str, tuple], list[str]] = defaultdict(list)
        for entry in sorted(entries, key=lambda e: e.node):
            self.entries[entry.node] = entry
            self._own[name_key(entry.name)].append(entry.node)
            for alias in entry.aliases:
                key = name_key(alias)
                if entry.node not in self._alias[key]:
                    self._alias[key].append(entry.node)
            if entry.label == "Release" and entry.library and entry.version is not None:
                self._releases[(entry.library, _trimmed(str(entry.version)))].append(entry.node)
        self._names: dict[str | None, dict[str, str]] = {}
        self._exact: dict[str, list[str]] | None = None

    @classmethod
    def from_graph(cls, graph: nx.MultiDiGraph) -> NameIndex:
        """The index of a graph's nodes."""
        return cls(_entry(node, data) for node, data in graph.nodes(data=True))

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping[str, object]]) -> NameIndex:
        """The index of rows with ``label``, ``name``, ``aliases``, ``library``, ``version``
        (and optionally ``node``), as :data:`NAMES_QUERY` returns them."""
        entries = []
        for row in rows:
            label, name = row.get("label"), row.get("name")
            if not isinstance(label, str) or not isinstance(name, str):
                continue
            node = row.get("node") or f"{label}:{row.get('key') or name}"
            entries.append(_entry(str(node), dict(row)))
        return cls(entries)

    # ------------------------------------------------------------------ lookups

    def labels(self) -> list[str]:
        """The labels of the indexed nodes, sorted."""
        return sorted({e.label for e in self.entries.values()})

    def by_name(self, name: str) -> list[str]:
        """The nodes whose canonical name is exactly ``name``."""
        if self._exact is None:
            exact: dict[str, list[str]] = defaultdict(list)
            for entry in self.entries.values():
                exact[entry.name].append(entry.node)
            self._exact = dict(exact)
        return self._exact.get(name, [])

    def find(self, name: str, labels: Sequence[str] | None = None) -> list[str]:
        """The nodes (of ``labels``) that ``name`` names: their own name first, else an alias,
        else (releases) a version with fewer or more ``.0`` or another name of the library."""
        key = name_key(name)
        wanted = set(labels) if labels else None

        def keep(nodes: Iterable[str]) -> list[str]:
            return [n for n in nodes if wanted is None or self.entries[n].label in wanted]

        own = keep(self._own.get(key, ()))
        if own:
            return own
        aliased = keep(self._alias.get(key, ()))
        if aliased:
            return aliased
        if wanted is None or "Release" in wanted:
            return self._releases_by_version(name)
        return []

    def find_all(self, name: str, labels: Sequence[str] | None = None) -> list[str]:
        """Every node (of ``labels``) whose name or an alias is ``name`` (own and alias
        matches together, sorted); else the releases :meth:`find` finds by version."""
        key = name_key(name)
        wanted = set(labels) if labels else None
        nodes = sorted({n for n in (*self._own.get(key, ()), *self._alias.get(key, ()))
                        if wanted is None or self.entries[n].label in wanted})
        if nodes or (wanted is not None and "Release" not in wanted):
            return nodes
        return self._releases_by_version(name)

    def _releases_by_version(self, name: str) -> list[str]:
        library, _, version = name.strip().rpartition(" ")
        if not library and re.fullmatch(r"[vV]?\d+(\.\d+)*", version):
            library = CORE_LIBRARY  # "1.12", "v2.0": a release of the core library
        if not library or not any(ch.isdigit() for ch in version):
            return []
        libraries = {self.entries[n].name for n in self.find(library, ["Library"])}
        libraries.add(library)
        trimmed = _trimmed(version)
        found = []
        for (lib, version_), nodes in self._releases.items():
            if version_ == trimmed and (lib in libraries or name_key(lib) == name_key(library)):
                found += nodes
        return sorted(set(found))

    def resolve(self, name: str, labels: Sequence[str] | None = None) -> list[str]:
        """The nodes ``name`` names, all with one canonical name.

        Raises
        ------
        NotFoundError
            No node has that name (the message lists the closest names), or it names nodes
            with different names (the message lists them).
        """
        nodes = self.find(name, labels)
        if not nodes:
            close = self.closest(name, labels)
            hint = f"; closest: {', '.join(close)}" if close else ""
            raise NotFoundError(f"no {_describe_labels(labels)} named {name!r} in the graph"
                                f"{hint}")
        names = sorted({self.entries[n].name for n in nodes})
        if len(names) > 1:
            found = ", ".join(f"{self.entries[n].name} ({self.entries[n].label})"
                              for n in nodes)
            raise NotFoundError(f"{name!r} names several entities: {found}; use the full name")
        return nodes

    def resolve_name(self, name: str, labels: Sequence[str] | None = None) -> str:
        """The canonical name of what ``name`` names (see :meth:`resolve`)."""
        return self.entries[self.resolve(name, labels)[0]].name

    def resolve_node(self, name: str, label: str) -> str:
        """The one node of ``label`` that ``name`` names (see :meth:`resolve`)."""
        nodes = self.resolve(name, [label])
        if len(nodes) > 1:
            names = ", ".join(self.entries[n].name for n in nodes)
            raise NotFoundError(f"{name!r} names several {label} nodes: {names}; "
                                "use the full name")
        return nodes[0]

    def closest(self, name: str, labels: Sequence[str] | None = None,
                n: int = CLOSEST) -> list[str]:
        """Up to ``n`` canonical names (of ``labels``) that look most like ``name``, or whose
        aliases do."""
        cache_key = ",".join(sorted(labels)) if labels else None
        names = self._names.get(cache_key)
        if names is None:
            names = {}
            wanted = set(labels) if labels else None
            for entry in self.entries.values():
                if wanted is None or entry.label in wanted:
                    for each in (entry.name, *entry.aliases):
                        names.setdefault(each.casefold(), entry.name)
            self._names[cache_key] = names
        close = difflib.get_close_matches(name.casefold(), sorted(names), n=n * 2, cutoff=0.5)
        return list(dict.fromkeys(names[c] for c in close))[:n]


def _entry(node: str, data: Mapping[str, object]) -> Entry:
    aliases = data.get("aliases") or ()
    if isinstance(aliases, str):
        aliases = (aliases,)
    name = data.get("name")
    version = data.get("version")
    return Entry(str(node), str(data.get("label", "")), str(name if name is not None else node),
                 tuple(str(a) for a in aliases),
                 str(data["library"]) if data.get("library") is not None else None,
                 str(version) if version is not None else None)


#: What :meth:`NameIndex.from_rows` reads, in the Cypher both stores run.
NAMES_QUERY = ("MATCH (n) RETURN n.label AS label, n.name AS name, n.aliases AS aliases, "
               "n.library AS library, n.version AS version, n.url AS key")


def name_index(graph: nx.MultiDiGraph) -> NameIndex:
    """The :class:`NameIndex` of ``graph``, kept with the graph's other indexes
    (:func:`ptkg.stores.indexes.graph_index`: rebuilt when the graph's counts change; after
    renaming nodes in place, call :func:`ptkg.stores.indexes.clear_indexes`)."""
    extras = graph_index(graph).extras
    index = extras.get("names")
    if index is None:
        index = extras["names"] = NameIndex.from_graph(graph)
    return index


def find_nodes(graph: nx.MultiDiGraph, name: str) -> list[str]:
    """Nodes whose name or one of whose aliases has the same key as ``name`` (any label; a
    release also by version, see :meth:`NameIndex.find_all`)."""
    return name_index(graph).find_all(name)


def closest_names(graph: nx.MultiDiGraph, name: str, label: str | None = None) -> list[str]:
    """Up to five names of nodes (of ``label``) that look most like ``name``, or its aliases."""
    return name_index(graph).closest(name, [label] if label else None)


def resolve_node(graph: nx.MultiDiGraph, name: str, label: str) -> str:
    """The node of ``label`` that ``name`` names (see :meth:`NameIndex.resolve`).

    Raises
    ------
    NotFoundError
        No such node (the message lists the closest names), or several.
    """
    try:
        return name_index(graph).resolve_node(name, label)
    except NotFoundError as error:
        raise NotFoundError(str(error).replace(" in the graph", "")) from None


def resolve_nodes(graph: nx.MultiDiGraph, name: str) -> list[str]:
    """Every node ``name`` names, any label (``show``), or :class:`NotFoundError`."""
    index = name_index(graph)
    nodes = index.find_all(name)
    if not nodes:
        index.resolve(name)  # raises, with the closest names
    return sorted(nodes)


# ---------------------------------------------------------------------------- labels, types

def closest_words(word: str, words: Iterable[str], n: int = 3) -> list[str]:
    """Up to ``n`` of ``words`` that look like ``word`` (case does not count).

    Examples
    --------
    >>> closest_words("Feeture", ["Feature", "Release", "Post"])
    ['Feature']
    """
    by_fold = {w.casefold(): w for w in sorted(words)}
    close = difflib.get_close_matches(word.casefold(), list(by_fold), n=n, cutoff=0.5)
    return [by_fold[c] for c in close]


def unknown_words(used: Iterable[str], known: Iterable[str], kind: str) -> list[str]:
    """A warning line for each of ``used`` that is not in ``known``, naming the closest.

    Examples
    --------
    >>> unknown_words(["Feeture", "Release"], ["Feature", "Release"], "label")
    ['the graph has no label Feeture (closest: Feature)']
    """
    known = sorted(set(known))
    lines = []
    for word in dict.fromkeys(used):
        if word in known:
            continue
        close = closest_words(word, known)
        hint = f" (closest: {', '.join(close)})" if close else ""
        lines.append(f"the graph has no {kind} {word}{hint}")
    return lines


# ---------------------------------------------------------------------------- describing

def describe(graph: nx.MultiDiGraph, node: str) -> str:
    """A readable account of a node: properties, aliases, then each relation and its evidence."""
    data = graph.nodes[node]
    lines = [f"{data['label']}: {data['name']}"]
    if data.get("aliases"):
        lines.append(f"  aliases: {', '.join(data['aliases'])}")
    if data.get("merged"):  # what resolution made one node with this one, and why
        lines.append("  merged:")
        lines.extend(f"      {reason}" for reason in data["merged"])
    for key in sorted(set(data) - SKIP_PROPERTIES):
        lines.append(f"  {key}: {data[key]}")
    edges = [(key, "->", v, d) for _, v, key, d in graph.out_edges(node, keys=True, data=True)]
    edges += [(key, "<-", u, d) for u, _, key, d in graph.in_edges(node, keys=True, data=True)]
    for key, arrow, other, edge in sorted(edges, key=lambda e: (e[0] == "MENTIONS", e[0], e[2])):
        if key == "MENTIONS":
            continue
        stability = f" [{edge['stability']}]" if edge.get("stability") else ""
        why = f" ({edge['why']})" if edge.get("why") else ""  # a derived edge's reason
        lines.append(f"  {arrow} {key}{stability} {other}{why}")
        for url, sentence in zip(edge.get("sources", []), edge.get("evidence", []), strict=True):
            lines.append(f"      \"{sentence}\"\n        {url}")
    posts = sorted(u for u, _, key in graph.in_edges(node, keys=True) if key == "MENTIONS")
    if posts:
        lines.append(f"  mentioned in {len(posts)} posts:")
        lines.extend(f"      {graph.nodes[p].get('url', p)}" for p in posts)
    return "\n".join(lines)


def describe_data(graph: nx.MultiDiGraph, node: str) -> dict:
    """:func:`describe` as JSON data (``ptkg show --format json``).

    ``{"node", "label", "name", "aliases", "merged", "properties", "relations": [{"direction":
    "out" | "in", "type", "other": {"node", "label", "name"}, "stability", "evidence":
    [{"sentence", "url"}]}], "mentioned_in": [post URLs]}``; relations in the order
    :func:`describe` prints them, ``MENTIONS`` left out (see ``mentioned_in``).
    """
    data = graph.nodes[node]
    relations = []
    edges = [("out", key, v, d) for _, v, key, d in graph.out_edges(node, keys=True, data=True)]
    edges += [("in", key, u, d) for u, _, key, d in graph.in_edges(node, keys=True, data=True)]
    for direction, key, other, edge in sorted(edges, key=lambda e: (e[1], e[2], e[0])):
        if key == "MENTIONS":
            continue
        other_data = graph.nodes[other]
        relations.append({
            "direction": direction, "type": key,
            "other": {"node": other, "label": other_data.get("label"),
                      "name": other_data.get("name")},
            "stability": edge.get("stability"),
            "evidence": [{"sentence": sentence, "url": url} for url, sentence in
                         zip(edge.get("sources", []), edge.get("evidence", []), strict=True)],
        })
    posts = sorted(graph.nodes[u].get("url", u) for u, _, key in graph.in_edges(node, keys=True)
                   if key == "MENTIONS")
    return {"node": node, "label": data.get("label"), "name": data.get("name"),
            "aliases": list(data.get("aliases", [])), "merged": list(data.get("merged", [])),
            "properties": {k: data[k] for k in sorted(set(data) - SKIP_PROPERTIES)},
            "relations": relations, "mentioned_in": posts}
