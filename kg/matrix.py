"""The feature × release matrix: what shipped when, at what stability, and what went away.

:func:`matrix_view_data` gives the data of the matrix page (``ptkg render --matrix``,
:func:`render_matrix`): per library with releases, the releases as columns in the
order of :func:`ptkg.timeline.timeline` (version order), and one row per thing a release of
the library introduces (``INTRODUCES``), deprecates (``DEPRECATES``) or removes (``REMOVES``).
A cell is one release's word on one row: the stability it stated (``stability``; ``stated`` keeps
the post's words), whether it deprecates or removes it, and the edges behind it, whose evidence
the page shows. A row of a feature holds exactly what :func:`ptkg.lifecycle.feature_lifecycle`
lists for that library (the tests check it).

Rows are in the order of the first release that names them, then by name; the page sorts and
filters them. A row's ``latest`` is the stability stated by the latest of its cells that states
one; ``suspect`` the reasons it looks like extraction noise (:func:`ptkg.render.suspect_reasons`).
A column's ``gap`` says when no post of the graph lists the release's features (the column is
unknown, not empty: :func:`ptkg.lifecycle.gap_line`).
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from .lifecycle import find_node, gap_line, release_coverage
from .render import (
    RenderSummary,
    _cited_posts,
    _edge_row,
    _node_row,
    _styles,
    generate_page,
    post_titles_of,
    suspect_reasons,
    write_html,
)
from .schema import LABELS, STABILITIES
from .timeline import timeline

#: The release → row relationship types the matrix draws.
MATRIX_TYPES = ("INTRODUCES", "DEPRECATES", "REMOVES")


def matrix_view_data(graph: nx.MultiDiGraph, *, title: str = "ptkg matrix",
                     library: str | None = None) -> dict:
    """The data of a matrix page, as plain JSON-able data (sorted; refers to nodes by index).

    ``libraries``: one entry per library with at least one row (PyTorch first, then by name),
    or only ``library`` (any of its names). Each has ``releases`` (``node``, ``version``,
    ``date``, ``gap``) and ``rows`` (``node``, ``first``, ``latest``, ``suspect``, ``cells``:
    ``column``, ``stability``, ``stated``, ``deprecated``, ``removed``, ``edges``). ``nodes`` and
    ``edges`` are what the evidence panel reads.

    Raises
    ------
    ptkg.lifecycle.NotFoundError
        ``library`` is not a library of the graph.
    """
    if library is not None:
        library = graph.nodes[find_node(graph, library, "Library")]["name"]
    lanes = timeline(graph, library, headline_limit=0)
    edges: list[tuple[str, str, str]] = []
    drawn = []
    for lane in lanes:
        columns = {release.node: column for column, release in enumerate(lane.releases)}
        cells: dict[str, dict[int, list[tuple[str, str, str]]]] = {}
        for release in lane.releases:
            for _, target, key in sorted(graph.out_edges(release.node, keys=True)):
                if key in MATRIX_TYPES:
                    cells.setdefault(target, {}).setdefault(columns[release.node], []).append(
                        (release.node, target, key))
        if cells or library is not None:
            drawn.append((lane, cells))
            edges.extend(e for row in cells.values() for found in row.values() for e in found)
    edges = sorted(set(edges))
    wanted = sorted({u for u, _, _ in edges} | {v for _, v, _ in edges}
                    | {r.node for lane, _ in drawn for r in lane.releases})
    index = {node: i for i, node in enumerate(wanted)}
    edge_index = {edge: j for j, edge in enumerate(edges)}
    libraries = []
    for lane, cells in drawn:
        rows = []
        for target, by_column in cells.items():
            row_cells = []
            for column in sorted(by_column):
                found = sorted(by_column[column], key=lambda e: MATRIX_TYPES.index(e[2]))
                keys = {key for *_, key in found}
                introduces = graph.edges[found[0]] if found[0][2] == "INTRODUCES" else {}
                row_cells.append({
                    "column": column, "edges": [edge_index[e] for e in found],
                    "stability": introduces.get("stability") or "",
                    "stated": _stated(introduces.get("stated")),
                    "introduced": "INTRODUCES" in keys,
                    "deprecated": "DEPRECATES" in keys, "removed": "REMOVES" in keys})
            stated = [c["stability"] for c in row_cells if c["stability"] in STABILITIES]
            data = graph.nodes[target]
            rows.append({"node": index[target], "first": row_cells[0]["column"],
                         "latest": stated[-1] if stated else "",
                         "suspect": suspect_reasons(data) if data["label"] == "Feature" else [],
                         "cells": row_cells})
        rows.sort(key=lambda r: (r["first"], graph.nodes[wanted[r["node"]]]["name"].casefold(),
                                 wanted[r["node"]]))
        libraries.append({
            "name": lane.library,
            "releases": [{"node": index[r.node], "version": r.version, "date": r.date or "",
                          "gap": gap_line(release_coverage(graph, r.node),
                                          "what it stated is not known") or ""}
                         for r in lane.releases],
            "rows": rows})
    empty = "" if libraries else (
        "This graph has no release that introduces, deprecates or removes anything: "
        "there is no matrix to draw.")
    edge_data = [graph.edges[e] for e in edges]
    return {"view": "matrix", "title": title, "empty": empty, "libraries": libraries,
            "nodes": [_node_row(node, graph.nodes[node]) for node in wanted],
            "edges": [_edge_row(index, u, v, key, data)
                      for (u, v, key), data in zip(edges, edge_data, strict=True)],
            "styles": _styles(set(LABELS)),
            "posts": _cited_posts(edge_data, post_titles_of(graph))}


def _stated(value) -> str:
    """The words a post used for a stability (a list when read more than once), as one line."""
    if isinstance(value, list | tuple):
        return "; ".join(dict.fromkeys(str(v) for v in value))
    return str(value) if value else ""


def generate_matrix_html(graph: nx.MultiDiGraph, *, title: str = "ptkg matrix",
                         library: str | None = None) -> str:
    """The matrix view of ``graph`` (:func:`matrix_view_data`)."""
    return _matrix_page(graph, title, library)[1]


def _matrix_page(graph: nx.MultiDiGraph, title: str, library: str | None) -> tuple[dict, str]:
    data = matrix_view_data(graph, title=title, library=library)
    return data, generate_page("matrix.html", title=title, data=data,
                               scripts=["common.js", "matrix.js"])


def render_matrix(graph: nx.MultiDiGraph, path: str | Path, *, title: str = "ptkg matrix",
                  library: str | None = None) -> RenderSummary:
    """Draw the feature × release matrix and write it to ``path`` atomically.

    Raises
    ------
    ptkg.lifecycle.NotFoundError
        ``library`` is not a library of the graph.
    """
    data, text = _matrix_page(graph, title, library)
    write_html(path, text)
    return RenderSummary(Path(path), len(text.encode("utf8")), {
        "libraries": len(data["libraries"]),
        "releases": sum(len(lib["releases"]) for lib in data["libraries"]),
        "rows": sum(len(lib["rows"]) for lib in data["libraries"]),
        "cells": sum(len(row["cells"]) for lib in data["libraries"] for row in lib["rows"])})
