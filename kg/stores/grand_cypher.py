"""Cypher on the NetworkX graph, through grand-cypher, with parameters and three output formats.

:func:`run_query` runs a read-only Cypher query on a ptkg ``MultiDiGraph`` and returns the
column names (in RETURN order) and the rows. grand-cypher matches labels and relationship types
through a ``__labels__`` set on nodes and edges, so queries run on a *query view*: a copy of the
graph whose nodes carry ``{label}`` and whose edges carry ``{type}``, built in sorted node and
edge order (so rows come out in the same order whatever order the graph was built in) and cached
per graph object. ``__labels__`` never reaches the results.

grand-cypher has no parameters: :func:`bind_params` replaces each ``$name`` outside string
literals and comments with a quoted literal that no value can break out of. Errors, syntax or
run time, become one-line :class:`~ptkg.errors.QueryError` messages.

The Cypher subset that grand-cypher 1.2.0 runs (write named queries that also run on Neo4j in
the intersection of both):

Works
    ``MATCH`` with labels, ``:A|B`` label and type alternatives, inline ``{key: value}``
    properties, ``->`` and ``<-`` relationships, variable length ``*n`` and ``*min..max``
    (``*0..n`` too, at most 100 hops); several ``MATCH`` clauses (joined); ``WHERE`` with
    ``= <> < <= > >=``, ``AND``/``OR``/``NOT``, parentheses, ``IN [literal list]``,
    ``IS NULL`` (write ``NOT x IS NULL``), ``CONTAINS``, ``STARTS WITH``, ``ENDS WITH``,
    ``EXISTS { MATCH ... }``, arithmetic; ``RETURN`` of properties, whole nodes and
    relationships, ``ID(n)``, ``type(r)``, ``toLower``, ``toUpper``, ``trim``, ``size``,
    ``coalesce``, ``AS`` aliases, ``DISTINCT``; the aggregates ``COUNT``, ``SUM``, ``AVG``,
    ``MIN``, ``MAX`` and ``COLLECT``, grouped by the other items; ``ORDER BY`` (properties,
    aliases, aggregates; ``ASC``/``DESC``), ``SKIP``, ``LIMIT``; ``//`` comments; keywords in any
    case, except ``EXISTS`` and the aggregate names.

Does not work
    ``OPTIONAL MATCH``, ``WITH``, ``UNWIND``, ``UNION``, ``CALL``, any write clause;
    comma-separated patterns in one ``MATCH`` (use one ``MATCH`` per pattern); undirected
    ``-[]-`` patterns (they only match edges present in both directions); lower-case aggregate
    names and ``exists`` (write ``COUNT(x)``, ``EXISTS``); ``COUNT(*)``, ``COUNT(DISTINCT x)``;
    ``STARTS WITH`` with more than one space; single-quoted strings; ``/* */`` comments; ``=~``;
    ``IS NOT NULL``; ``x IN n.list`` (only a literal list on the right); expressions other than
    function calls in ``RETURN``; ``RETURN DISTINCT`` together with ``AS`` or with an aggregate
    (rejected here); named paths ``p = (...)`` (rejected here: grand-cypher returns every
    parallel edge of a MultiDiGraph, in the wrong order); a trailing ``;``.

Differs from Neo4j
    Distinct variables of one connected pattern match distinct nodes. ``COUNT(x.prop)`` counts
    nulls too, ``SUM`` and ``AVG`` read null as 0, and ``MIN``/``MAX``/``ORDER BY`` over a
    property that is null on some rows and a string on others fail (order by
    ``coalesce(x.prop, "") AS key`` instead). Column names are grand-cypher's rendering of each
    item (``f.name``, ``COUNT(f)``, ``toLower(f.name)``): give items an ``AS`` alias for names
    that are the same on both engines. Without ``ORDER BY`` the rows are sorted (Neo4j leaves
    them in any order); with it, ties keep the view's sorted node order.
"""

from __future__ import annotations

import os
import re
import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING

import networkx as nx

from ptkg.cypher import bind_params, row_sort_key
from ptkg.errors import QueryError

from .compiled import EMPTY_AGGREGATES, Unsupported, clear_plans, plain_value, run_compiled
from .indexes import clear_indexes

if TYPE_CHECKING:  # pragma: no cover
    from grandcypher import GrandCypherExecutor
    from lark import Tree
    from lark.exceptions import UnexpectedInput

#: ``PTKG_ENGINE=grand-cypher`` turns the compiled executor off (to compare, or to bench);
#: ``PTKG_ENGINE=compiled`` lets a fault of the compiled executor raise (tests) instead of
#: falling back to grand-cypher.
ENGINE_VARIABLE = "PTKG_ENGINE"

_LABELS = "__labels__"

_VIEWS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

_UNSUPPORTED_WORDS = {"OPTIONAL", "WITH", "UNWIND", "UNION", "CALL", "CREATE", "MERGE", "SET",
                      "DELETE", "DETACH", "REMOVE", "FOREACH", "LOAD"}

_UPPER_CASE_ONLY = {"COUNT", "SUM", "AVG", "MIN", "MAX", "COLLECT", "EXISTS"}

_EMPTY_AGGREGATES = EMPTY_AGGREGATES

def run_query(
    graph: nx.MultiDiGraph, query: str, params: Mapping[str, object] | None = None
) -> tuple[list[str], list[list[object]]]:
    """Run a Cypher query on a ptkg graph.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A ptkg graph: nodes with a ``label``, edges keyed by relationship type.
    query : str
        Cypher text in the subset grand-cypher runs (see the module docstring).
    params : Mapping[str, object], optional
        Values for the ``$name`` parameters of the query (see :func:`bind_params`).

    Returns
    -------
    tuple[list[str], list[list[object]]]
        The column names in RETURN order and one list of values per row. Whole nodes and
        relationships are plain dicts of their properties, with sorted keys. Without
        ``ORDER BY`` the rows are sorted.

    Raises
    ------
    QueryError
        If a parameter is missing, or the query does not parse or cannot run.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("Release:PyTorch 1.8", label="Release", name="PyTorch 1.8")
    >>> g.add_node("Feature:torch.fx", label="Feature", name="torch.fx")
    >>> _ = g.add_edge("Release:PyTorch 1.8", "Feature:torch.fx", key="INTRODUCES",
    ...                type="INTRODUCES", stability="Beta")
    >>> run_query(g, "MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) "
    ...              "WHERE r.name = $release RETURN f.name, i.stability",
    ...           {"release": "PyTorch 1.8"})
    (['f.name', 'i.stability'], [['torch.fx', 'Beta']])
    """
    engine = os.environ.get(ENGINE_VARIABLE, "").strip().lower()
    if engine != "grand-cypher":
        try:
            return run_compiled(graph, query, params)
        except QueryError:
            raise
        except Unsupported:
            pass
        except Exception:  # a fault of the compiled executor: grand-cypher still answers
            if engine == "compiled":
                raise
    return run_on_grand_cypher(graph, query, params)


def run_on_grand_cypher(
    graph: nx.MultiDiGraph, query: str, params: Mapping[str, object] | None = None
) -> tuple[list[str], list[list[object]]]:
    """Run a query on grand-cypher itself (what :func:`run_query` falls back to)."""
    tree = _parse(bind_params(query, params or {}))
    executor = _plan(query_view(graph), tree)
    kinds = _return_item_kinds(tree)
    keys = _column_keys(kinds, executor)
    rows = _collect_rows(_execute(executor), keys, _variable_length_edges(tree))
    if not rows and all(kinds):
        rows = _empty_aggregate_rows(executor)
    if executor._order_by is None:
        rows.sort(key=row_sort_key)
    return keys, rows

def query_view(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Return the labelled copy of ``graph`` that grand-cypher queries, cached per graph.

    Parameters
    ----------
    graph : networkx.MultiDiGraph
        A ptkg graph.

    Returns
    -------
    networkx.MultiDiGraph
        A copy in sorted node and edge order whose nodes have ``__labels__ = {label}`` and whose
        edges have ``__labels__ = {type}`` (the edge key when ``type`` is absent).

    Notes
    -----
    Building the view takes two to three times ``graph.copy()``: 0.1 s for 14,000 edges, 0.3 s
    for 30,000, five to fifteen times a simple query. So it is kept, weakly, for as long as
    ``graph`` lives, and rebuilt when the number of nodes or edges changes. After changing
    attribute values in place, call :func:`clear_query_cache`.
    """
    signature = (graph.number_of_nodes(), graph.number_of_edges())
    cached = _VIEWS.get(graph)
    if cached is not None and cached[0] == signature:
        return cached[1]
    view = _build_view(graph)
    _VIEWS[graph] = (signature, view)
    return view

def clear_query_cache() -> None:
    """Forget every cached query view (see :func:`query_view`), index and plan."""
    _VIEWS.clear()
    clear_indexes()
    clear_plans()

def _build_view(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Copy ``graph`` in sorted order with ``__labels__`` on every node and edge."""
    view = nx.MultiDiGraph()
    view.add_nodes_from(
        (node, {**data, _LABELS: {data["label"]} if "label" in data else set()})
        for node, data in sorted(graph.nodes(data=True), key=lambda item: str(item[0]))
    )
    edges = sorted(graph.edges(keys=True, data=True), key=lambda edge: tuple(map(str, edge[:3])))
    view.add_edges_from(
        (u, v, key, {**data, _LABELS: {data.get("type", key)}}) for u, v, key, data in edges
    )
    return view

def _parse(query: str) -> Tree:
    """Parse ``query`` with grand-cypher's grammar; reject named paths."""
    from grandcypher import _GrandCypherGrammar
    from lark.exceptions import UnexpectedInput

    try:
        tree = _GrandCypherGrammar.parse(query)
    except UnexpectedInput as exc:
        raise QueryError(_syntax_message(exc, query)) from exc
    if any(tree.find_data("path_clause")):
        raise QueryError(
            "named paths (p = ...) are not supported: return the nodes and relationships instead"
        )
    return tree

def _syntax_message(exc: UnexpectedInput, query: str) -> str:
    """A one-line message for a lark parse error: where, what, and a hint."""
    from lark.exceptions import UnexpectedEOF

    position = exc.pos_in_stream
    if isinstance(exc, UnexpectedEOF) or position is None or not 0 <= position < len(query):
        text = query.rstrip()
        line = text.count("\n") + 1
        column = len(text) - (text.rfind("\n") + 1) + 1
        return f"Cypher syntax error at line {line}, column {column}: unexpected end of query"
    found = re.match(r"\w+|\S", query[position:])
    word = found.group() if found else query[position]
    message = f"Cypher syntax error at line {exc.line}, column {exc.column}: unexpected {word!r}"
    return message + _syntax_hint(query[:position], word)

def _syntax_hint(before: str, word: str) -> str:
    """Explain the common cases of grand-cypher's subset, else nothing."""
    if word.upper() in _UNSUPPORTED_WORDS:
        return f" ({word.upper()} is not supported by grand-cypher)"
    previous = re.search(r"(\w+)\s*\Z", before)
    name = previous.group(1).upper() if previous else ""
    if word in ("(", "{") and name in _UPPER_CASE_ONLY:
        return f" (write {name} in upper case)"
    return ""

def _plan(view: nx.MultiDiGraph, tree: Tree) -> GrandCypherExecutor:
    """Turn the parse tree into grand-cypher's executor, as ``GrandCypher.run`` does.

    grand-cypher has no public way to reuse a parse tree or to read the RETURN items, so this
    module reads ``_GrandCypherGrammar`` and a few executor attributes (``_return_requests``,
    ``_aggregate_functions``, ``_entity2alias``, ``_distinct``, ``_order_by``, ``_skip``,
    ``_limit``); pyproject pins grand-cypher below 2 and the tests cover each of them.
    """
    from grandcypher import GrandCypherTransformer
    from lark.exceptions import VisitError

    transformer = GrandCypherTransformer(view)
    try:
        transformer.transform(tree)
    except VisitError as exc:
        raise QueryError(f"cannot run Cypher query: {_one_line(exc.orig_exc)}") from exc
    return transformer._executors[0]

def _column_keys(kinds: list[bool], executor: GrandCypherExecutor) -> list[str]:
    """The result key of each RETURN item, in RETURN order; reject what grand-cypher drops.

    ``kinds`` says which items are aggregates: grand-cypher keeps the plain items and the
    aggregates in two lists, and returns its columns in neither RETURN order.
    """
    plain = iter(executor._return_requests)
    aggregates = iter(executor._aggregate_functions)
    keys = []
    for is_aggregate in kinds:
        name = str(next(aggregates) if is_aggregate else next(plain))
        keys.append(str(executor._entity2alias.get(name, name)))
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    if duplicates:
        raise QueryError(
            f"two RETURN items give the column {duplicates[0]!r}: give each a distinct AS alias"
        )
    if executor._distinct and (executor._aggregate_functions or executor._entity2alias):
        raise QueryError(
            "RETURN DISTINCT cannot be combined with AS or aggregates in grand-cypher"
        )
    return keys

def _return_item_kinds(tree: Tree) -> list[bool]:
    """For each item of the main RETURN clause: is it an aggregate?"""
    from lark import Tree

    query = tree.children[0]
    clause = next(c for c in query.children if isinstance(c, Tree) and c.data == "return_clause")
    return [
        isinstance(item.children[0], Tree) and item.children[0].data == "aggregation_function"
        for item in clause.children
        if isinstance(item, Tree) and item.data == "return_item"
    ]

def _variable_length_edges(tree: Tree) -> set[str]:
    """Names of the relationship variables with a ``*`` length (their values are lists)."""
    from lark import Token

    names = set()
    for edge in tree.find_data("edge_match"):
        tokens = list(edge.scan_values(lambda value: isinstance(value, Token)))
        if any(t.type == "MIN_HOP" for t in tokens):
            names.update(str(t) for t in tokens if t.type == "CNAME")
    return names

def _execute(executor: GrandCypherExecutor) -> dict:
    """Run the executor; any failure becomes a one-line QueryError."""
    try:
        return executor.returns()
    except Exception as exc:  # grand-cypher raises bare built-in errors on bad queries
        message = f"cannot run Cypher query: {_one_line(exc)}"
        if isinstance(exc, TypeError) and "not supported between instances" in str(exc):
            message += (" (ORDER BY, MIN or MAX over a value that is null on some rows: use"
                        ' coalesce(x, "") AS key and ORDER BY key)')
        raise QueryError(message) from exc

def _one_line(exc: BaseException) -> str:
    """``Type: message`` on one line."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__

def _collect_rows(raw: dict, keys: list[str], lists: set[str]) -> list[list[object]]:
    """Turn grand-cypher's ``{column: values}`` into rows of plain values."""
    columns = {str(key): values for key, values in raw.items()}
    missing = [key for key in keys if key not in columns]
    if missing:
        raise QueryError(f"cannot run Cypher query: grand-cypher returned no column {missing[0]!r}")
    rows = []
    for index in range(len(columns[keys[0]])):
        row = [_plain(columns[key][index]) for key in keys]
        rows.append([_as_list(v) if k in lists else v for k, v in zip(keys, row, strict=True)])
    return rows

_plain = plain_value

def _as_list(value: object) -> object:
    """A variable-length relationship is a list, even when it matched one hop."""
    return [value] if isinstance(value, dict) else value

def _empty_aggregate_rows(executor: GrandCypherExecutor) -> list[list[object]]:
    """The one row Cypher gives for aggregates over no match (grand-cypher gives none)."""
    if executor._skip or executor._limit == 0:
        return []
    return [[_plain(_EMPTY_AGGREGATES.get(f.name)) for f in executor._aggregate_functions]]

