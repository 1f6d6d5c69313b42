"""Interactive HTML pages of the graph: each one self-contained file that works offline.

Two views, one HTML file each:

* the **graph view** (:func:`generate_graph_html`, ``ptkg render``): a node's color and shape
  say its label (a legend tells which), its size its ``mentions``; an edge is labelled with its
  relationship type, and ``INTRODUCES`` edges are colored by their stability. A click on a node
  or an edge opens a panel with its properties, aliases and the sentences it was read from,
  each linking to its post. A search box jumps to a node and highlights it; filters hide labels,
  relationship types, or everything but one release and what it is connected to.
* the **timeline view** (:func:`generate_timeline_html`, ``ptkg render --timeline``): the
  releases of each library in version order with their dates, and under each release the
  features it introduced, colored by the stability it stated; a feature introduced by several
  releases is one row, and one line runs through its releases. It draws what
  :func:`ptkg.timeline.timeline` computes (the data ``ptkg timeline`` prints), with every feature.

What the format supports, and what it does not:

* **Offline.** Every script and style is inlined: vis-network 9.1.2 (vendored in
  ``templates/vendor``, see its README) and ptkg's own JS and CSS from ``templates/``. The page
  requests nothing, not even a font or an icon, and its Content-Security-Policy
  (``default-src 'none'``; scripts allowed by their sha256 only) holds it to that. The links to
  the posts open the blog, which does need the network.
* **Deterministic.** Positions are precomputed in Python: a Fruchterman-Reingold spring layout
  seeded with :data:`LAYOUT_SEED`, rounded to whole pixels; the data is JSON with sorted keys.
  The same graph and options give the same bytes, on one machine (numpy's float rounding on
  another machine could move a node by a pixel).
* **Safe.** The graph's text is embedded as JSON in a ``<script type="application/json">``
  element with ``<``, ``>``, ``&``, U+2028 and U+2029 escaped (so ``</script>`` or ``<!--`` in
  a post cannot end the element), and the page builds its DOM with ``textContent`` only: a post
  with markup shows the markup as text. Links are only made for ``http(s)`` URLs.
* **Size.** No node cap. Up to :data:`PHYSICS_NODE_LIMIT` nodes, physics settles the layout,
  starting from the precomputed positions; above it, the page opens with physics off on those
  positions and says so (a box turns physics on). The whole-corpus graph (about 900 nodes and
  2,600 edges) is a 1.1 MB page whose first stable frame comes in about a second in headless
  Chromium on 2 cores; see ``bench/render.py``. Edge labels and node labels are drawn only when
  zoomed in enough to read them.
* Needs a browser with JavaScript (a recent Chromium, Firefox or Safari); no server.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from .errors import PtkgError
from .explore import closest_names, find_nodes
from .files import write_atomic
from .names import version_key
from .schema import LABELS, OTHER_LABEL, RELATION_TYPES, STABILITIES, UNSTATED_COLOR
from .timeline import timeline

TEMPLATES = Path(__file__).resolve().parent / "templates"
VIS_NETWORK = TEMPLATES / "vendor" / "vis-network-9.1.2.min.js"

#: Above this many nodes a graph page opens with physics off, on the precomputed positions.
PHYSICS_NODE_LIMIT = 300
#: The spring layout's seed, and its number of iterations.
LAYOUT_SEED = 7
LAYOUT_ITERATIONS = 60
#: How strongly every node is pulled to the center: keeps small components close.
LAYOUT_GRAVITY = 0.03
#: How strongly a MENTIONS edge pulls in the layout, next to 1.0 for the extracted relations:
#: posts name everything, and at full weight they would crush the graph into one ball.
MENTIONS_WEIGHT = 0.2

#: Colors of a stability (INTRODUCES edges, timeline dots); "" is "not stated".
STABILITY_COLORS = {**{s.name: s.color for s in STABILITIES.values()}, "": UNSTATED_COLOR}
EDGE_COLOR = "#7f8c99"


class UnknownNameError(PtkgError):
    """A ``--focus`` or ``--release`` name that is in no node; ``closest`` lists near names."""

    def __init__(self, what: str, name: str, closest: list[str]):
        self.name = name
        self.closest = closest
        hint = f"; closest: {', '.join(closest)}" if closest else ""
        super().__init__(f"no {what} named {name!r} in the graph{hint}")


@dataclass(frozen=True)
class RenderSummary:
    """What a page shows: its path, size in bytes, and counts (``{"nodes": 143, ...}``)."""

    path: Path
    size: int
    counts: dict[str, int] = field(default_factory=dict)
    physics: bool | None = None  # graph view: does the page open with physics on


# --------------------------------------------------------------------------- selection


def select_subgraph(graph: nx.MultiDiGraph, *, focus: str | None = None, depth: int = 1,
                    labels: Iterable[str] = (), release: str | None = None,
                    min_mentions: int = 0) -> nx.MultiDiGraph:
    """The part of ``graph`` a page shows; with no option, the whole graph.

    Parameters
    ----------
    focus : an entity's name or alias: keep the nodes within ``depth`` hops of it (edges
        followed either way); every node of that name is a center.
    depth : hops around ``focus``.
    labels : keep only nodes with these labels (any case); the centers stay.
    release : a release's name: keep it and the nodes it is directly connected to.
    min_mentions : drop entities mentioned fewer times; posts (no ``mentions``) and centers stay.

    Raises
    ------
    UnknownNameError
        ``focus`` or ``release`` names no node (the error lists the closest names).
    PtkgError
        A label that is neither in the schema nor in the graph.
    """
    keep = set(graph)
    centers: set[str] = set()
    if focus is not None:
        found = find_nodes(graph, focus)
        if not found:
            raise UnknownNameError("entity", focus, closest_names(graph, focus))
        undirected = graph.to_undirected(as_view=True)
        near: set[str] = set()
        for node in found:
            near.update(nx.single_source_shortest_path_length(undirected, node, cutoff=depth))
        keep &= near
        centers.update(found)
    if release is not None:
        found = [n for n in find_nodes(graph, release) if graph.nodes[n]["label"] == "Release"]
        if not found:
            raise UnknownNameError("release", release, closest_names(graph, release, "Release"))
        near = set(found)
        for node in found:
            near.update(graph.predecessors(node))
            near.update(graph.successors(node))
        keep &= near
        centers.update(found)
    wanted = set(check_labels(graph, labels))
    if wanted:
        keep = {n for n in keep if n in centers or graph.nodes[n]["label"] in wanted}
    if min_mentions > 0:
        keep = {n for n in keep
                if n in centers or graph.nodes[n].get("mentions", min_mentions) >= min_mentions}
    subgraph = nx.MultiDiGraph()
    subgraph.add_nodes_from((n, graph.nodes[n]) for n in sorted(keep))
    subgraph.add_edges_from(
        (u, v, key, data) for u, v, key, data in sorted(graph.edges(keys=True, data=True),
                                                        key=lambda e: e[:3])
        if u in keep and v in keep)
    subgraph.graph["centers"] = sorted(centers & keep)
    return subgraph


def check_labels(graph: nx.MultiDiGraph, labels: Iterable[str]) -> list[str]:
    """The labels named, spelled as in the graph (any case matches), each once, in order.

    Raises
    ------
    PtkgError
        A label that is neither in the schema nor in the graph (the message lists them).
    """
    known = sorted(set(LABELS) | {d["label"] for _, d in graph.nodes(data=True)})
    by_key = {label.casefold(): label for label in known}
    wanted = []
    for label in labels:
        if label.casefold() not in by_key:
            raise PtkgError(f"unknown label {label!r}; labels: {', '.join(known)}")
        wanted.append(by_key[label.casefold()])
    return list(dict.fromkeys(wanted))


def describe_selection(*, focus: str | None = None, depth: int = 1, labels: Iterable[str] = (),
                       release: str | None = None, min_mentions: int = 0) -> str:
    """One line that says what part of the graph a page shows: ``"focus: torch.fx (depth 1)"``."""
    parts = []
    if focus is not None:
        parts.append(f"focus: {focus} (depth {depth})")
    if release is not None:
        parts.append(f"release: {release}")
    labels = list(labels)
    if labels:
        parts.append(f"labels: {', '.join(labels)}")
    if min_mentions > 0:
        parts.append(f"min mentions: {min_mentions}")
    return " · ".join(parts) if parts else "the whole graph"


# --------------------------------------------------------------------------- layout


def layout_positions(graph: nx.MultiDiGraph, *, seed: int = LAYOUT_SEED,
                     iterations: int = LAYOUT_ITERATIONS) -> dict[str, tuple[int, int]]:
    """Node positions in pixels from a seeded spring layout: the same graph, the same positions.

    Fruchterman-Reingold on the undirected graph (a MENTIONS edge weighs
    :data:`MENTIONS_WEIGHT`, any other edge 1), with a weak pull towards the center so that
    small components stay near; dense numpy arrays, fine for a few thousand nodes. The layout
    spans about ``90 * sqrt(n)`` pixels each way.

    Why not ``networkx.spring_layout``: its force method has no pull towards the center
    (``gravity`` works only with ``method="energy"``), so the many small components of a blog
    graph drift to the edges; and both its energy method and its force method above 500 nodes
    need scipy, which ptkg does not otherwise depend on. This is the same update, with gravity.
    """
    import numpy as np

    nodes = sorted(graph)
    n = len(nodes)
    if n <= 1:
        return {node: (0, 0) for node in nodes}
    index = {node: i for i, node in enumerate(nodes)}
    weights = np.zeros((n, n), dtype=np.float32)
    for u, v, key in sorted(graph.edges(keys=True)):
        if u != v:
            weight = MENTIONS_WEIGHT if key == "MENTIONS" else 1.0
            weights[index[u], index[v]] += weight
            weights[index[v], index[u]] += weight
    rng = np.random.default_rng(seed)
    pos = rng.random((n, 2)).astype(np.float32)
    k = math.sqrt(1.0 / n)
    temperature = 0.1
    cooling = temperature / (iterations + 1)
    for _ in range(iterations):
        x, y = pos[:, 0], pos[:, 1]
        dx = x[:, None] - x[None, :]
        dy = y[:, None] - y[None, :]
        square = dx * dx + dy * dy
        np.maximum(square, 1e-4, out=square)
        force = k * k / square - weights * (np.sqrt(square) / k)
        displacement = np.stack([(dx * force).sum(axis=1), (dy * force).sum(axis=1)], axis=1)
        displacement -= (pos - pos.mean(axis=0)) * (LAYOUT_GRAVITY * n * k)
        length = np.sqrt((displacement ** 2).sum(axis=1))
        np.maximum(length, 0.01, out=length)
        pos += displacement * (temperature / length)[:, None]
        temperature -= cooling
    pos -= pos.mean(axis=0)
    span = np.abs(pos).max() or 1.0
    pos *= 90 * math.sqrt(n) / span
    return {node: (int(round(x)), int(round(y))) for node, (x, y) in zip(nodes, pos.tolist(),
                                                                        strict=True)}


# --------------------------------------------------------------------------- graph view


def graph_view_data(graph: nx.MultiDiGraph, *, title: str = "ptkg graph",
                    subtitle: str = "the whole graph", centers: Iterable[str] = (),
                    physics_limit: int = PHYSICS_NODE_LIMIT,
                    post_titles: dict[str, str] | None = None) -> dict:
    """The data of a graph page, as plain JSON-able data (:func:`generate_graph_html` embeds it).

    Nodes and edges are sorted (edges by start, type, end) and refer to nodes by index;
    ``x``/``y`` are :func:`layout_positions`; ``physics`` is false above ``physics_limit``.
    ``post_titles`` (URL → title) names the posts the evidence cites, for the posts that are
    not in ``graph`` (default: the titles of the posts in ``graph``).
    """
    nodes = sorted(graph)
    index = {node: i for i, node in enumerate(nodes)}
    positions = layout_positions(graph)
    edges = sorted(graph.edges(keys=True, data=True), key=lambda e: (e[0], e[2], e[1]))
    pair_seen: Counter[tuple[str, str]] = Counter()
    node_rows, edge_rows = [], []
    for node in nodes:
        data = graph.nodes[node]
        x, y = positions[node]
        node_rows.append({**_node_row(node, data), "x": x, "y": y,
                          "size": node_size(data.get("mentions"))})
    for u, v, key, data in edges:
        pair = (min(u, v), max(u, v))
        curve = pair_seen[pair]
        pair_seen[pair] += 1
        edge_rows.append({**_edge_row(index, u, v, key, data), "curve": round(0.2 * curve, 2)})
    present_labels = {d["label"] for _, d in graph.nodes(data=True)}
    present_types = {key for _, _, key in graph.edges(keys=True)}
    releases = sorted((n for n in nodes if graph.nodes[n]["label"] == "Release"),
                      key=lambda n: _release_key(graph.nodes[n]))
    physics = 0 < len(nodes) <= physics_limit
    notice = "" if physics or not nodes else (
        f"{len(nodes)} nodes: physics is off, the positions are precomputed; "
        "tick “physics” to let the layout move.")
    return {
        "view": "graph", "title": title, "subtitle": subtitle, "physics": physics,
        "notice": notice, "empty": _empty_message(graph, subtitle),
        "labels": _ordered(present_labels, tuple(LABELS)),
        "types": _ordered(present_types, tuple(RELATION_TYPES)),
        "styles": _styles(present_labels),
        "nodes": node_rows, "edges": edge_rows,
        "releases": [index[n] for n in releases],
        "centers": [index[n] for n in sorted(centers) if n in index],
        "posts": _cited_posts([e for *_, e in edges], post_titles or post_titles_of(graph)),
    }


def node_size(mentions: int | None) -> int:
    """A node's radius in pixels: grows with the square root of its mentions (posts: 14)."""
    if mentions is None:
        return 14
    return min(10 + round(4 * math.sqrt(max(mentions, 0))), 50)


def generate_graph_html(graph: nx.MultiDiGraph, *, title: str = "ptkg graph",
                        subtitle: str = "the whole graph", centers: Iterable[str] = (),
                        physics_limit: int = PHYSICS_NODE_LIMIT,
                        post_titles: dict[str, str] | None = None) -> str:
    """The graph view of ``graph`` (all of it: select first with :func:`select_subgraph`)."""
    data = graph_view_data(graph, title=title, subtitle=subtitle, centers=centers,
                           physics_limit=physics_limit, post_titles=post_titles)
    return generate_page("graph.html", title=title, data=data,
                         scripts=[VIS_NETWORK, "common.js", "graph.js"])


def render_graph(graph: nx.MultiDiGraph, path: str | Path, *, title: str = "ptkg graph",
                 focus: str | None = None, depth: int = 1, labels: Iterable[str] = (),
                 release: str | None = None, min_mentions: int = 0,
                 physics_limit: int = PHYSICS_NODE_LIMIT) -> RenderSummary:
    """Select (see :func:`select_subgraph`), draw and write the graph view to ``path``.

    The file is replaced atomically. Raises what :func:`select_subgraph` raises, and
    ``OSError`` when the file cannot be written.
    """
    labels = check_labels(graph, labels)
    selected = select_subgraph(graph, focus=focus, depth=depth, labels=labels, release=release,
                               min_mentions=min_mentions)
    subtitle = describe_selection(focus=focus, depth=depth, labels=labels, release=release,
                                  min_mentions=min_mentions)
    text = generate_graph_html(selected, title=title, subtitle=subtitle,
                               centers=selected.graph["centers"], physics_limit=physics_limit,
                               post_titles=post_titles_of(graph))
    write_html(path, text)
    return RenderSummary(
        Path(path), len(text.encode("utf8")),
        {"nodes": selected.number_of_nodes(), "edges": selected.number_of_edges()},
        physics=0 < selected.number_of_nodes() <= physics_limit)


# --------------------------------------------------------------------------- timeline view


def timeline_view_data(graph: nx.MultiDiGraph, *, title: str = "ptkg timeline") -> dict:
    """The data of a timeline page (:func:`generate_timeline_html` embeds it).

    What :func:`ptkg.timeline.timeline` computes, with every feature of each release, laid
    out for drawing. One lane per library: its releases are the columns, each feature one row
    (ordered by the first release that introduced it, then name) with a cell per release that
    introduced it. ``nodes`` (the releases and features, sorted by id) and ``edges`` (their
    INTRODUCES edges, sorted) carry what the evidence panel shows; rows and cells refer to them
    by index.
    """
    lanes = timeline(graph, headline_limit=None)
    introductions = sorted({(release.node, feature.node) for lane in lanes
                            for release in lane.releases for feature in release.headlines})
    wanted = sorted({release.node for lane in lanes for release in lane.releases}
                    | {feature for _, feature in introductions})
    index = {node: i for i, node in enumerate(wanted)}
    edge_index = {edge: j for j, edge in enumerate(introductions)}
    edge_data = [graph.edges[u, v, "INTRODUCES"] for u, v in introductions]
    libraries = []
    for lane in lanes:
        rows: dict[str, dict] = {}
        for column, release in enumerate(lane.releases):
            for feature in release.headlines:
                row = rows.setdefault(feature.node, {"name": feature.feature, "first": column,
                                                     "cells": []})
                row["cells"].append({"column": column,
                                     "edge": edge_index[release.node, feature.node],
                                     "stability": feature.stability or ""})
        ordered = sorted(rows.items(), key=lambda item: (
            item[1]["first"], item[1]["name"].casefold(), item[0]))
        libraries.append({
            "name": lane.library,
            "releases": [{"node": index[r.node], "version": r.version, "date": r.date or ""}
                         for r in lane.releases],
            "features": [{"node": index[node], "cells": row["cells"]} for node, row in ordered]})
    empty = "" if libraries else "This graph has no releases: there is no timeline to draw."
    return {"view": "timeline", "title": title, "empty": empty, "libraries": libraries,
            "nodes": [_node_row(node, graph.nodes[node]) for node in wanted],
            "edges": [_edge_row(index, u, v, "INTRODUCES", data)
                      for (u, v), data in zip(introductions, edge_data, strict=True)],
            "styles": _styles(set(LABELS)),
            "posts": _cited_posts(edge_data, post_titles_of(graph))}


def generate_timeline_html(graph: nx.MultiDiGraph, *, title: str = "ptkg timeline") -> str:
    """The timeline view of ``graph``."""
    return generate_page("timeline.html", title=title, data=timeline_view_data(graph, title=title),
                         scripts=["common.js", "timeline.js"])


def render_timeline(graph: nx.MultiDiGraph, path: str | Path, *,
                    title: str = "ptkg timeline") -> RenderSummary:
    """Draw the timeline view and write it to ``path`` atomically."""
    data = timeline_view_data(graph, title=title)
    text = generate_page("timeline.html", title=title, data=data,
                         scripts=["common.js", "timeline.js"])
    write_html(path, text)
    return RenderSummary(Path(path), len(text.encode("utf8")), {
        "libraries": len(data["libraries"]),
        "releases": sum(len(lib["releases"]) for lib in data["libraries"]),
        "features": sum(len(lib["features"]) for lib in data["libraries"]),
        "introductions": len(data["edges"])})


# --------------------------------------------------------------------------- the page


def generate_page(template: str, *, title: str, data: dict, scripts: list[str | Path]) -> str:
    """Fill a template of ``templates/``: the title, the CSS, the data and the inlined scripts.

    ``scripts`` are template names or paths; each becomes an inline ``<script>`` whose sha256 is
    the only script source the page's Content-Security-Policy allows.
    """
    codes = [_read_script(script) for script in scripts]
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(c.encode()).digest()).decode()}'"
                      for c in codes)
    csp = (f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; "
           "img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'")
    values = {
        "title": html.escape(title),
        "csp": html.escape(csp),
        "css": (TEMPLATES / "ptkg.css").read_text(encoding="utf8"),
        "data": embed_json(data),
        "scripts": "\n".join(f"<script>{code}</script>" for code in codes),
    }
    page = (TEMPLATES / template).read_text(encoding="utf8")
    return re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)], page)


def embed_json(data: object) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element of an HTML page.

    ``<``, ``>`` and ``&`` become ``\\u003c``, ``\\u003e``, ``\\u0026`` (so neither
    ``</script>`` nor ``<!--`` can appear), U+2028 and U+2029 become escapes too; JSON.parse
    reads the same values back. Keys are sorted.

    Examples
    --------
    >>> embed_json({"text": "</script><!--"})
    '{"text":"\\\\u003c/script\\\\u003e\\\\u003c!--"}'
    """
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def write_html(path: str | Path, text: str) -> None:
    """Write a page atomically (a temp file in the same folder, then a rename).

    Raises
    ------
    PtkgError
        The file cannot be written; an older file at ``path`` is left as it was.
    """
    try:
        write_atomic(path, text)
    except OSError as error:
        reason = error.strerror or str(error)
        raise PtkgError(f"{path}: cannot write the page ({reason})") from None


def _read_script(script: str | Path) -> str:
    path = Path(script) if isinstance(script, Path) else TEMPLATES / script
    code = path.read_text(encoding="utf8")
    code = re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", code)
    if re.search(r"</script|<!--", code, re.IGNORECASE):
        raise PtkgError(f"{path}: a script that cannot be inlined (it contains </script or <!--)")
    return code


def _node_row(node: str, data: dict) -> dict:
    """A node as the pages' evidence panel reads it (the views add what they draw with)."""
    return {"id": node, "label": data["label"], "name": data["name"],
            "aliases": list(data.get("aliases", [])),
            "props": {k: v for k, v in sorted(data.items())
                      if k not in {"label", "name", "aliases"}}}


def _edge_row(index: dict[str, int], u: str, v: str, key: str, data: dict) -> dict:
    """An edge as the pages' evidence panel reads it: ends by index, (URL, sentence) pairs."""
    return {"from": index[u], "to": index[v], "type": key,
            "evidence": [[url, sentence] for url, sentence in
                         zip(data.get("sources", []), data.get("evidence", []), strict=False)],
            "props": {k: val for k, val in sorted(data.items())
                      if k not in {"type", "sources", "evidence", "offsets"}}}


def _ordered(present: set[str], order: tuple[str, ...]) -> list[str]:
    return [x for x in order if x in present] + sorted(present - set(order))


def _styles(labels: set[str]) -> dict:
    return {"labels": {label: _label_style(label) for label in _ordered(labels, tuple(LABELS))},
            "stability": STABILITY_COLORS,
            "types": {name: t.color for name, t in RELATION_TYPES.items()}, "edge": EDGE_COLOR}


def _label_style(label: str) -> dict:
    """A label's color and vis-network shape (Okabe-Ito based: distinct for color-blind eyes)."""
    style = LABELS.get(label, OTHER_LABEL)
    dashes = {"dashes": True} if style.dashes else {}
    return {"color": style.color, "shape": style.shape, **dashes}


def post_titles_of(graph: nx.MultiDiGraph) -> dict[str, str]:
    """URL → title of every post of ``graph``."""
    return {data.get("url", node.partition(":")[2]): data["name"]
            for node, data in graph.nodes(data=True) if data["label"] == "Post"}


def _cited_posts(edges: list[dict], titles: dict[str, str]) -> dict[str, str]:
    """The title of each post the edges cite, for the evidence links (the URL when unknown)."""
    urls = sorted({url for edge in edges for url in edge.get("sources", [])})
    return {url: titles.get(url, url) for url in urls}


def _release_library(data: dict) -> str:
    return data.get("library") or data["name"].rpartition(" ")[0] or data["name"]


def _release_key(data: dict) -> tuple:
    return (_release_library(data).casefold(), version_key(data.get("version", "")),
            data["name"])


def _empty_message(graph: nx.MultiDiGraph, subtitle: str) -> str:
    if graph.number_of_nodes():
        return ""
    if subtitle == "the whole graph":
        return "This graph is empty: it has no nodes. Build one from posts with `ptkg build`."
    return f"Nothing to show: no node is left by this selection ({subtitle})."
