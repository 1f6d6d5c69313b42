"""The Python API: a graph opened once, asked in Cypher, by named query, or in plain English.

::

    import ptkg
    g = ptkg.open("out/graph.json")          # a graph file, or a bolt:// URI (Neo4j)
    g.run("features-by-release", release="pytorch v1.8").rows
    g.query("MATCH (r:Release) WHERE r.name = $r RETURN r.date AS date", r="PyTorch 1.8")
    g.lifecycle("torch.fx").promotions
    g.diff("PyTorch 1.9", "PyTorch 1.10").new
    g.ask("What became stable in 1.10?").result.to_df()   # pandas, when installed

The graph is read once (a file) or connected once (Neo4j) and kept: every call after the first
answers from memory (the named queries in a few milliseconds on the whole blog's graph, see
the README). Names resolve as on the command line (:mod:`ptkg.explore`): any alias, case or
``v`` prefix; an unknown name raises :class:`~ptkg.explore.NotFoundError` listing the closest
ones. A :class:`Result` is a sequence of rows as dicts, with its columns, the evidence of each
row (the sentences and posts of the relationships between the row's entities and the query's),
the gaps the graph has for the question (:func:`ptkg.named_queries.query_gaps`) and warnings
(a label or relationship type the graph does not have). The JSON shapes of ``to_dict()`` are
the ones ``--format json`` prints and the MCP server returns.

Importing ``ptkg`` imports none of this (``ptkg.open`` loads it on first use); pandas is
optional: :meth:`Result.to_df` says how to install it when it is missing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

    from .ask import MappedQuestion, QuestionMapper
    from .lifecycle import Lifecycle, ReleaseDiff
    from .named_queries import NamedQuery
    from .stores import Store

#: At most this many evidence sentences per row (the most read relationships first).
EVIDENCE_PER_ROW = 5


@dataclass
class Result(Sequence):
    """Rows of a query as dicts, with their columns, evidence, gaps and warnings.

    Examples
    --------
    >>> r = Result(["feature", "stability"], [["torch.fx", "Beta"]])
    >>> r[0], len(r), r.to_dict()["rows"]
    ({'feature': 'torch.fx', 'stability': 'Beta'}, 1, [{'feature': 'torch.fx', \
'stability': 'Beta'}])
    """

    columns: list[str]
    rows: list[list[object]]
    query: str | None = None  # the named query, or None for Cypher
    params: dict[str, object] = field(default_factory=dict)  # as run (names resolved)
    cypher: str = ""
    evidence: list[list[dict]] = field(default_factory=list)  # one list per row
    gaps: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    also: list[dict[str, object]] = field(default_factory=list)  # more parameters run (union)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [dict(zip(self.columns, row, strict=True)) for row in self.rows[index]]
        return dict(zip(self.columns, self.rows[index], strict=True))

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[dict]:
        for row in self.rows:
            yield dict(zip(self.columns, row, strict=True))

    def to_dicts(self) -> list[dict]:
        """The rows as dicts (column -> value)."""
        return list(self)

    def union(self, other: Result, key: str) -> Result:
        """This result and ``other`` (the same query run with another ``key`` parameter, kept
        in ``also``) in one table, led by a ``key`` column that says whose each row is."""
        mine = self if key in self.columns else replace(
            self, columns=[key, *self.columns],
            rows=[[self.params.get(key), *row] for row in self.rows])
        return replace(
            mine, rows=mine.rows + [[other.params.get(key), *row] for row in other.rows],
            evidence=mine.evidence + other.evidence if mine.evidence else [],
            also=[*mine.also, other.params],
            gaps=list(dict.fromkeys(mine.gaps + other.gaps)),
            warnings=list(dict.fromkeys(mine.warnings + other.warnings)))

    def to_df(self):
        """The rows as a pandas ``DataFrame`` (columns in RETURN order).

        Raises
        ------
        ImportError
            pandas is not installed (``pip install pandas``).
        """
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - depends on the environment
            raise ImportError("Result.to_df needs pandas: pip install pandas") from None
        return pd.DataFrame(self.rows, columns=self.columns)

    def to_dict(self) -> dict:
        """JSON data: ``{"query", "params", "also": [params], "columns", "rows": [{column:
        value}], "evidence": [[{"relation", "source", "target", "stability", "sentence",
        "url"}]], "gaps": [lines], "warnings": [lines]}``."""
        return {"query": self.query, "params": self.params, "also": self.also,
                "columns": self.columns, "rows": self.to_dicts(), "evidence": self.evidence,
                "gaps": self.gaps, "warnings": self.warnings}


@dataclass
class Answer:
    """What ``ask`` gives: how the question was mapped, and the result (None when unmapped)."""

    mapping: MappedQuestion
    result: Result | None

    @property
    def mapped(self) -> bool:
        return self.result is not None

    def to_dict(self) -> dict:
        """``{"question", "mapped": bool, "query", "params", "closest": [question shapes],
        "outcome": [column, [values]] | null, "result": Result.to_dict() | null}``."""
        mapping = self.mapping.to_dict()
        return {"question": mapping["question"], "mapped": self.mapped,
                **{key: mapping[key] for key in ("query", "params", "closest", "outcome")},
                "result": self.result.to_dict() if self.result is not None else None}


class Graph:
    """A ptkg graph opened once: a graph file in memory, or a Neo4j server.

    Use :func:`open` to make one. Every method reads the same store; :meth:`close` releases it
    (a ``with`` block does).
    """

    def __init__(self, store: Store):
        self.store = store
        self._mapper: QuestionMapper | None = None

    # ------------------------------------------------------------------ stores

    @property
    def location(self) -> str:
        return self.store.location

    def graph(self) -> nx.MultiDiGraph:
        """The whole graph as a ``MultiDiGraph`` (fetched once from Neo4j)."""
        return self.store.graph()

    def close(self) -> None:
        """Release the store (a Neo4j driver's connections)."""
        self.store.close()

    def __enter__(self) -> Graph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ queries

    def query(self, cypher: str, params: Mapping[str, object] | None = None, *,
              resolve: bool = True, **kwargs: object) -> Result:
        """Run Cypher (read-only) with parameters; a parameter compared with a node's name is
        resolved first (:func:`ptkg.named_queries.resolve_query_params`).

        Examples
        --------
        >>> g = open(graph=_example_graph())
        >>> g.query("MATCH (r:Release)-[i:INTRODUCES]->(f) WHERE r.name = $r "
        ...         "RETURN f.name AS feature, i.stability AS stability", r="pytorch v1.8").rows
        [['torch.fx', 'Beta']]
        """
        from .named_queries import cypher_warnings, resolve_query_params

        values = {**(params or {}), **kwargs}
        check_read_only(cypher)
        if resolve:
            values = resolve_query_params(self.store, cypher, values)
        columns, rows = self.store.query(cypher, values)
        return Result(columns, rows, None, values, cypher,
                      warnings=cypher_warnings(self.store, cypher))

    def run(self, name: str, params: Mapping[str, object] | None = None, *,
            evidence: bool = True, **kwargs: object) -> Result:
        """Run a named query (``ptkg queries list``) with parameters given by keyword.

        Examples
        --------
        >>> g = open(graph=_example_graph())
        >>> r = g.run("features-by-release", release="PyTorch 1.8")
        >>> r[0]["feature"], r.evidence[0][0]["sentence"]
        ('torch.fx', '[Beta] Python code Transformations with FX')
        """
        from .named_queries import check_params, get_query, query_gaps, resolve_params

        query = get_query(name)
        values = resolve_params(self.store, query, check_params(query, {**(params or {}),
                                                                        **kwargs}))
        columns, rows = self.store.query(query.text, values)
        result = Result(columns, rows, query.name, values, query.text,
                        gaps=query_gaps(self.store, query, values, rows))
        if evidence:
            result.evidence = self.evidence(query, values, columns, rows)
        return result

    def queries(self) -> list[NamedQuery]:
        """The named queries."""
        from .named_queries import load_queries

        return list(load_queries().values())

    def evidence(self, query: NamedQuery | None, params: Mapping[str, object],
                 columns: list[str], rows: list[list[object]]) -> list[list[dict]]:
        """For each row: the sentences and posts of the relationships (other than MENTIONS)
        between the entities the row names and the entities the query's parameters name."""
        return row_evidence(self.graph(), _param_nodes(self.graph(), query, params), rows,
                            read=query.relationships if query is not None else frozenset())

    # ------------------------------------------------------------------ views

    def lifecycle(self, name: str) -> Lifecycle:
        """A feature's stability across releases (:func:`ptkg.lifecycle.feature_lifecycle`)."""
        from .lifecycle import feature_lifecycle

        return feature_lifecycle(self.graph(), name)

    def diff(self, a: str, b: str) -> ReleaseDiff:
        """Two releases of one library compared (:func:`ptkg.lifecycle.release_diff`)."""
        from .lifecycle import release_diff

        return release_diff(self.graph(), a, b)

    def timeline(self, library: str | None = None, *, headline_limit: int | None = 5) -> list:
        """Releases per library in version order (:func:`ptkg.timeline.timeline`)."""
        from .timeline import timeline

        return timeline(self.graph(), library, headline_limit=headline_limit)

    def show(self, name: str) -> list[dict]:
        """Every entity ``name`` names, with its relations and their evidence
        (:func:`ptkg.explore.describe_data`)."""
        from .explore import describe_data, resolve_nodes

        graph = self.graph()
        return [describe_data(graph, node) for node in resolve_nodes(graph, name)]

    def stats(self) -> dict:
        """Nodes per label, edges per type and coverage (:func:`graph_stats`)."""
        return graph_stats(self.graph(), self.location)

    def ask(self, question: str) -> Answer:
        """A question in plain English, mapped onto a named query and run
        (:mod:`ptkg.ask`); an unmapped question gives an :class:`Answer` without a result and
        with the closest question shapes, or, when it names something the graph does not have
        ("Which posts mention GB300?"), raises :class:`~ptkg.explore.NotFoundError` with the
        closest names."""
        mapping = self.mapper().map(question)
        if mapping.query is None:
            for word in mapping.unknown:  # "Which posts mention GB300?"
                self.mapper().index.resolve(word)  # a name the graph lacks raises
            return Answer(mapping, None)
        from .ask import unmet_outcome, when_empty

        result = self.run(mapping.query, mapping.params)
        instead = when_empty(mapping) if not result.rows else None
        if instead is not None:  # "What replaced TorchScript?": its deprecations
            mapping, result = instead, self.run(instead.query, instead.params)
        for params in mapping.also:  # "AMD GPUs / ROCm": the rows of each
            result = result.union(self.run(mapping.query, params), "hardware")

        unmet = unmet_outcome(mapping, result.columns, result.rows)
        if unmet:
            result.gaps.append(unmet)
        return Answer(mapping, result)

    def mapper(self) -> QuestionMapper:
        """The question mapper of this graph's names (built once)."""
        if self._mapper is None:
            from .ask import QuestionMapper
            from .named_queries import store_names

            graph = self.graph()
            links = {(graph.nodes[u].get("name"), graph.nodes[v].get("name"))
                     for u, v, key in graph.edges(keys=True) if key != "MENTIONS"}
            self._mapper = QuestionMapper(store_names(self.store), links)
        return self._mapper


def open(target: str | Path | None = None, *,  # noqa: A001 - ptkg.open, like io.open
         graph: nx.MultiDiGraph | None = None) -> Graph:
    """Open a graph: a graph file (``out/graph.json``), a Neo4j URI (``bolt://...``, with the
    ``NEO4J_*`` variables), or a ``MultiDiGraph`` already in memory (``graph=``).

    Without a target: ``$PTKG_GRAPH``, else ``out/graph.json``. Nothing is read until the first
    call.

    Examples
    --------
    >>> g = open(graph=_example_graph())
    >>> g.run("releases-of-library", library="pytorch").to_dicts()[0]["release"]
    'PyTorch 1.8'
    """
    if graph is not None:
        from .stores.networkx_store import GraphFileStore

        return Graph(GraphFileStore(target, graph=graph))
    from .stores import open_store

    return Graph(open_store(target))


# ---------------------------------------------------------------------------- shared helpers

def check_read_only(cypher: str) -> None:
    """Refuse Cypher that is not a plain read, with the project's one guard: the read-only
    Neo4j path's ``check_read_only`` (:mod:`ptkg.cypher` when it lives there, else
    :mod:`ptkg.stores.neo4j_store`), so a graph file refuses what Neo4j refuses; without it,
    :func:`refuse_unsafe_cypher`.

    Raises
    ------
    QueryError
        The text writes, loads files (``LOAD CSV``), calls procedures, or administers.
    """
    from . import cypher as cypher_module

    guard = getattr(cypher_module, "check_read_only", None)
    if guard is None:
        try:
            from .stores.neo4j_store import check_read_only as guard
        except ImportError:  # pragma: no cover - the driver is a dependency
            guard = refuse_unsafe_cypher
    guard(cypher)


_UNSAFE_WORDS = ("CREATE", "MERGE", "SET", "DELETE", "DETACH", "REMOVE", "DROP", "LOAD",
                 "CALL", "FOREACH", "TERMINATE", "SHOW", "GRANT", "DENY", "REVOKE", "ALTER",
                 "START", "STOP", "USE", "ENABLE", "RENAME")


def refuse_unsafe_cypher(cypher: str) -> None:
    """Refuse a write, ``LOAD CSV``, a procedure call or an administration command (outside
    strings and comments): the MCP server's and the API's check before any store sees the text.

    Examples
    --------
    >>> refuse_unsafe_cypher('MATCH (n) WHERE n.name = "CREATE" RETURN n')
    >>> refuse_unsafe_cypher('LOAD CSV FROM "file:///etc/passwd" AS row RETURN row')
    Traceback (most recent call last):
    ...
    ptkg.errors.QueryError: refused: LOAD is not allowed in a read-only query
    """
    import re

    from .errors import QueryError

    text = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`|//[^\n]*|/\*.*?\*/', " ",
                  cypher, flags=re.DOTALL)
    for word in re.findall(r"[A-Za-z_]+", text):
        if word.upper() in _UNSAFE_WORDS:
            raise QueryError(f"refused: {word.upper()} is not allowed in a read-only query")


def _param_nodes(graph: nx.MultiDiGraph, query: NamedQuery | None,
                 params: Mapping[str, object]) -> list[str]:
    """The nodes a query's name parameters name (their values are canonical names)."""
    from .explore import name_index

    index = name_index(graph)
    nodes: list[str] = []
    for param in (query.params if query is not None else ()):
        value = params.get(param.name)
        if param.kind == "name" and isinstance(value, str):
            wanted = set(param.labels)
            nodes += [n for n in index.by_name(value)
                      if not wanted or index.entries[n].label in wanted]
    return nodes


def row_evidence(graph: nx.MultiDiGraph, anchors: Sequence[str],
                 rows: Sequence[Sequence[object]],
                 limit: int | None = EVIDENCE_PER_ROW,
                 read: frozenset[str] = frozenset()) -> list[list[dict]]:
    """For each row, the evidence of the relationships between the entities it names (a value
    that is a node's canonical name) and ``anchors``, or among the row's entities: ``[{"relation",
    "source", "target", "stability", "sentence", "url"}]``, at most ``limit`` per row. When
    the row has relationships of the types the query ``read``, those only: a stability row's
    INTRODUCES, not the feature's PART_OF."""
    from .explore import name_index

    index = name_index(graph)
    succ = graph._succ
    found = []
    for row in rows:
        named = [n for value in row if isinstance(value, str) for n in index.by_name(value)]
        candidates = list(dict.fromkeys([*named, *anchors]))
        entries: list[tuple[tuple[bool, int], dict]] = []
        for u in candidates:
            for v in candidates:
                if u == v or (u not in named and v not in named and named):
                    continue
                for key, data in succ.get(u, {}).get(v, {}).items():
                    if key == "MENTIONS" or not data.get("evidence"):
                        continue
                    # An edge between two of the row's own entities comes first: the
                    # row's PyTorch 2.10 before the asked PyTorch 2.12.
                    rank = (u not in named or v not in named, -int(data.get("count", 1) or 1))
                    for sentence, url in zip(data.get("evidence", []), data.get("sources", []),
                                             strict=False):
                        entries.append((rank, {
                            "relation": data.get("type", key),
                            "source": graph.nodes[u].get("name"),
                            "target": graph.nodes[v].get("name"),
                            "stability": data.get("stability"),
                            "sentence": sentence, "url": url}))
        entries.sort(key=lambda item: item[0])
        unique: dict[tuple, dict] = {}
        for _, entry in entries:  # a sentence that states the fact twice, shown once
            unique.setdefault(tuple(entry.values()), entry)
        items = list(unique.values())
        if any(entry["relation"] in read for entry in items):
            items = [entry for entry in items if entry["relation"] in read]
        found.append(items[:limit] if limit is not None else items)
    return found


def graph_stats(graph: nx.MultiDiGraph, location: str = "") -> dict:
    """``ptkg stats --format json``: ``{"location", "nodes": {label: n}, "edges": {type: n},
    "coverage": ptkg.lifecycle.graph_coverage(graph)}``."""
    from .graph import graph_counts
    from .lifecycle import graph_coverage

    nodes, edges = graph_counts(graph)
    return {"location": location, "nodes": nodes, "edges": edges,
            "coverage": graph_coverage(graph)}


def _example_graph() -> nx.MultiDiGraph:
    """A three-node graph for the examples of this module."""
    import networkx as nx

    g = nx.MultiDiGraph()
    g.add_node("Library:PyTorch", label="Library", name="PyTorch")
    g.add_node("Release:PyTorch 1.8", label="Release", name="PyTorch 1.8", library="PyTorch",
               version="1.8", version_order=1)
    g.add_node("Feature:torch.fx", label="Feature", name="torch.fx", aliases=["FX"],
               stability="Beta")
    g.add_edge("Library:PyTorch", "Release:PyTorch 1.8", key="HAS_RELEASE", type="HAS_RELEASE")
    g.add_edge("Release:PyTorch 1.8", "Feature:torch.fx", key="INTRODUCES", type="INTRODUCES",
               stability="Beta", count=1, evidence=["[Beta] Python code Transformations with FX"],
               sources=["https://pytorch.org/blog/pytorch-1.8-released/"])
    return g
