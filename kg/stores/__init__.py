"""Where a graph lives, behind one interface: a graph file (NetworkX) or a Neo4j server.

:class:`Store` is what every query, view and command uses: ``load`` a graph into it, ``query``
it in Cypher with parameters, read it back as a ``graph``, ``close`` it. Two implementations:

- :class:`~ptkg.stores.networkx_store.GraphFileStore`: the graph JSON file, read into a
  ``networkx.MultiDiGraph``; Cypher runs on it through grand-cypher (no server).
- :class:`~ptkg.stores.neo4j_store.Neo4jStore`: a Neo4j server over Bolt; Cypher runs in
  read-only transactions with real parameters.

:func:`open_store` picks one from a target: a ``bolt://`` or ``neo4j://`` URI is a server, any
other text a graph file; no target means ``$PTKG_GRAPH``, else :data:`DEFAULT_GRAPH`. Both give
the same rows for the same query text (the named queries are written in the Cypher both run;
``tests/stores`` runs one contract suite on both). Importing this package imports neither
grand-cypher nor the Neo4j driver: each implementation is imported when it is opened.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

    from .neo4j_store import Neo4jSettings

DEFAULT_GRAPH = "out/graph.json"
#: The variable that names the graph a command reads when no ``--graph`` is given.
GRAPH_VARIABLE = "PTKG_GRAPH"
SERVER_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
#: Seconds a Neo4j server is waited for (``NEO4J_TIMEOUT``, ``--timeout``); here, not in
#: :mod:`~ptkg.stores.neo4j_store`, so the CLI shows it without importing the driver.
DEFAULT_NEO4J_TIMEOUT = 15.0

Rows = tuple[list[str], list[list[object]]]


@runtime_checkable
class Store(Protocol):
    """A graph store: load a graph, query it in Cypher, read it back, close it."""

    location: str  # for messages: the file's path, or the server's URI without credentials

    def load(self, graph: nx.MultiDiGraph, **options: object) -> object:
        """Put ``graph`` in the store (replacing what a graph file holds)."""

    def query(self, cypher: str, params: Mapping[str, object] | None = None) -> Rows:
        """Run a read-only Cypher query: (column names in RETURN order, rows).

        Rows are sorted when the final RETURN has no ORDER BY, so both stores print the same.
        """

    def graph(self) -> nx.MultiDiGraph:
        """The whole graph as a ptkg ``MultiDiGraph`` (read once, then kept)."""

    def close(self) -> None:
        """Release the store's resources (a driver's connections)."""


def is_server(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` names a Neo4j server (a Bolt or Neo4j URI) rather than a file.

    Examples
    --------
    >>> is_server("bolt://127.0.0.1:7687"), is_server("out/graph.json")
    (True, False)
    """
    scheme, sep, _ = os.fspath(target).partition("://")
    return bool(sep) and scheme.lower() in SERVER_SCHEMES


def default_target(environ: Mapping[str, str] | None = None) -> tuple[str, bool]:
    """The target a command reads without ``--graph``, and whether it is the built-in default
    (``$PTKG_GRAPH`` when set, else :data:`DEFAULT_GRAPH`)."""
    env = os.environ if environ is None else environ
    chosen = env.get(GRAPH_VARIABLE)
    return (chosen, False) if chosen else (DEFAULT_GRAPH, True)


def open_store(target: str | os.PathLike[str] | None = None, *,
               neo4j: Neo4jSettings | None = None) -> Store:
    """The store a target names (see the module docstring).

    Parameters
    ----------
    target : a graph file's path or a ``bolt://``/``neo4j://`` URI; None: ``$PTKG_GRAPH`` or
        :data:`DEFAULT_GRAPH`.
    neo4j : the connection settings (user, password, database; the URI is ``target``'s when it
        is one). Without them the standard ``NEO4J_*`` variables apply.

    Nothing is read or connected until the store is used.
    """
    if target is None:
        target = default_target()[0]
    if is_server(target):
        from .neo4j_store import Neo4jSettings, Neo4jStore

        settings = neo4j or Neo4jSettings.from_env()
        return Neo4jStore(settings.with_uri(os.fspath(target)))
    from .networkx_store import GraphFileStore

    return GraphFileStore(Path(target))
