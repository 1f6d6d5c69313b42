"""The graph file as a store: a ptkg graph JSON file, read into a NetworkX ``MultiDiGraph``.

Cypher runs on it in memory through :mod:`ptkg.stores.grand_cypher` (imported on the first
query, so commands that only read the graph do not pay for it).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import networkx as nx

from ptkg.files import write_atomic
from ptkg.graph import generate_json, read_graph


class GraphFileStore:
    """A graph JSON file, queried in memory with grand-cypher.

    The file is read on first use and kept; :meth:`load` replaces it atomically. Without a
    path the store holds ``graph`` in memory only (:meth:`load` then replaces it).
    """

    def __init__(self, path: str | Path | None = None, *,
                 graph: nx.MultiDiGraph | None = None):
        self.path = Path(path) if path is not None else None
        self.location = str(path) if path is not None else "<graph in memory>"
        self._graph = graph

    def graph(self) -> nx.MultiDiGraph:
        """The graph of the file (read once)."""
        if self._graph is None:
            self._graph = read_graph(self.path) if self.path is not None else nx.MultiDiGraph()
        return self._graph

    def query(self, cypher: str, params: Mapping[str, object] | None = None
              ) -> tuple[list[str], list[list[object]]]:
        """Run a read-only query on the graph (see :func:`ptkg.stores.grand_cypher.run_query`)."""
        from .grand_cypher import run_query

        return run_query(self.graph(), cypher, params)

    def load(self, graph: nx.MultiDiGraph, **options: object) -> Path | None:
        """Write ``graph`` to the file, replacing it in one step; return the path."""
        if self.path is not None:
            write_atomic(self.path, generate_json(graph))
        self._graph = graph
        return self.path

    def close(self) -> None:
        """Nothing to release: the graph stays in memory until the store is dropped."""

    def __enter__(self) -> GraphFileStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
