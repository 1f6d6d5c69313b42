"""The graph in Neo4j: connect, load (batched, idempotent), count, wipe and query.

A ptkg graph (see :mod:`ptkg.graph`) becomes, in Neo4j:

Nodes
    One node per graph node, with the graph node's ``label`` as its Neo4j label and every node
    attribute as a property — ``label`` and ``name`` included, so ``n.label`` reads the same on
    both backends (grand-cypher has no ``labels()``). The key is ``url`` for ``Post`` and
    ``name`` for every other label (``schema.md``); a uniqueness constraint per label on its key
    (``ptkg_<Label>_<key>``) is created first, ``IF NOT EXISTS``.
Relationships
    One relationship per graph edge, its type the edge key, every edge attribute a property
    (``type`` included, for the same reason as ``label``). The provenance lists ``sources``,
    ``evidence`` and ``rules`` are stored as they are (lists of strings). ``offsets`` — a list of
    ``[start, end]`` pairs or null per sentence in the graph — cannot be stored as such (Neo4j
    properties hold no nested lists and no nulls in lists), so it is stored **flat**:
    ``[start0, end0, start1, end1, ...]``, with ``-1, -1`` for an unknown position; sentence
    ``i`` of ``evidence`` is at ``offsets[2*i..2*i+2]``. :func:`run_query` turns the flat list of
    a whole relationship it returns (``RETURN r``) back into pairs, so whole relationships read
    the same on both backends; a query that projects ``r.offsets`` itself gets the flat list.

Loading writes rows in batches of ``UNWIND $rows AS row MERGE ... SET x = row.props`` queries,
nodes before relationships, each batch in a managed write transaction (``execute_write``, which
the driver retries on transient errors and lost connections). ``MERGE`` on the key and ``SET =``
(properties replaced, not appended) make a load idempotent: loading the same graph twice, or
again after a load that was interrupted, gives the same nodes, relationships and properties as
one clean load. A load does not remove what an earlier load of another graph wrote: wipe first.

Wipe scope: :func:`wipe` deletes every node that carries one of ptkg's labels (:data:`LABELS`,
plus the labels of the graph being loaded), with its relationships, in batches; other labels in
the database are left alone, and so are the constraints. ptkg does not mark its nodes otherwise,
so keep other data with these labels in another database.

Every call passes ``database_``; the driver is created by :func:`connect` (or by the caller) and
injected. Failures raise :class:`~ptkg.errors.StoreError` (server unreachable, credentials
refused, a write refused) or :class:`~ptkg.errors.QueryError` (a query the server rejects), with
one-line messages that name the server and never contain the password.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import time
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import neo4j
import networkx as nx
from neo4j import GraphDatabase, RoutingControl
from neo4j import exceptions as neo4j_errors
from neo4j.graph import Node, Path, Relationship

from ptkg import __version__
from ptkg.cypher import (
    count_nodes_query,
    count_relationships_query,
    create_constraint_query,
    fetch_nodes_query,
    fetch_relationships_query,
    merge_nodes_query,
    merge_relationships_query,
    orders_rows,
    row_sort_key,
    wipe_query,
)
from ptkg.errors import QueryError, StoreError
from ptkg.graph import graph_counts
from ptkg.schema import LABELS, key_property
from ptkg.stores.rows import batched, node_rows, relationship_rows, unflatten_offsets

DEFAULT_URI = "bolt://127.0.0.1:7687"
DEFAULT_USER = "neo4j"
DEFAULT_DATABASE = "neo4j"
DEFAULT_BATCH_SIZE = 1000
SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")

_DRIVER_ERRORS = (neo4j_errors.Neo4jError, neo4j_errors.DriverError)
_SYNTAX_POSITION = re.compile(r"\s*\(line (\d+), column (\d+) \(offset: \d+\)\)")


# ---- connection -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Neo4jSettings:
    """Where and how to connect: URI, user, password (never shown) and database.

    Build it with :meth:`from_env`, which takes each value from its argument, else from the
    standard environment variable, else from the default.
    """

    uri: str = DEFAULT_URI
    user: str = DEFAULT_USER
    password: str | None = field(default=None, repr=False)
    database: str = DEFAULT_DATABASE

    @classmethod
    def from_env(cls, uri: str | None = None, user: str | None = None,
                 password: str | None = None, database: str | None = None,
                 environ: Mapping[str, str] | None = None) -> Neo4jSettings:
        """Settings from the arguments, else ``NEO4J_URI``, ``NEO4J_USERNAME``,
        ``NEO4J_PASSWORD``, ``NEO4J_DATABASE``, else the defaults.

        Examples
        --------
        >>> s = Neo4jSettings.from_env(environ={"NEO4J_URI": "bolt://db:7687",
        ...                                     "NEO4J_PASSWORD": "secret"}, database="ptkg")
        >>> s
        Neo4jSettings(uri='bolt://db:7687', user='neo4j', database='ptkg')
        """
        env = os.environ if environ is None else environ
        return cls(uri=uri or env.get("NEO4J_URI") or DEFAULT_URI,
                   user=user or env.get("NEO4J_USERNAME") or DEFAULT_USER,
                   password=password if password is not None else env.get("NEO4J_PASSWORD"),
                   database=database or env.get("NEO4J_DATABASE") or DEFAULT_DATABASE)

    @property
    def display_uri(self) -> str:
        """The URI without any ``user:password@`` part, for messages."""
        return safe_uri(self.uri)

    def with_uri(self, uri: str) -> Neo4jSettings:
        """The same settings for another server."""
        return dataclasses.replace(self, uri=uri)


@dataclass(frozen=True)
class _Origin:
    uri: str
    secret: str | None


_ORIGINS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def safe_uri(uri: str) -> str:
    """``uri`` without credentials: ``bolt://u:p@host:7687`` → ``bolt://host:7687``.

    Examples
    --------
    >>> safe_uri("neo4j://neo4j:secret@db.example:7687")
    'neo4j://db.example:7687'
    """
    try:
        parts = urlsplit(uri)
    except ValueError:
        return "<invalid URI>"
    if "@" not in parts.netloc:
        return uri
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def connect(settings: Neo4jSettings, **config: Any) -> neo4j.Driver:
    """Open a driver for ``settings`` and check that the server answers and accepts the login.

    Parameters
    ----------
    settings : Neo4jSettings
        URI, user, password, database.
    **config
        Driver configuration (``max_transaction_retry_time``, ``connection_timeout``, ...),
        passed to ``GraphDatabase.driver``. Notifications are off unless configured.

    Returns
    -------
    neo4j.Driver
        A verified driver; close it (or use it as a context manager) when done.

    Raises
    ------
    StoreError
        The URI is invalid, the server cannot be reached, or it refuses the credentials.
    """
    uri = settings.display_uri
    scheme = urlsplit(settings.uri).scheme if "://" in settings.uri else ""
    if scheme not in SCHEMES:
        raise StoreError(f"bad Neo4j URI {uri!r}: use bolt://HOST:PORT or neo4j://HOST:PORT "
                         f"(schemes: {', '.join(SCHEMES)})")
    if "@" in urlsplit(settings.uri).netloc:
        raise StoreError(f"Neo4j URI {uri}: give the user and password in NEO4J_USERNAME and "
                         "NEO4J_PASSWORD (or --user and --password), not in the URI")
    auth = (settings.user, settings.password) if settings.password is not None else None
    config.setdefault("notifications_min_severity", "OFF")
    config.setdefault("user_agent", f"ptkg/{__version__}")
    try:
        driver = GraphDatabase.driver(settings.uri, auth=auth, **config)
    except (neo4j_errors.ConfigurationError, ValueError, TypeError) as error:
        message = f"bad Neo4j URI or settings for {uri}: {_first_line(error)}"
        raise StoreError(_redact(message, settings.password)) from None
    _ORIGINS[driver] = _Origin(uri, settings.password)
    try:
        driver.verify_connectivity()
    except Exception as error:
        driver.close()
        raise _store_error(driver, error, settings) from error
    return driver


def _store_error(driver: neo4j.Driver | None, error: Exception,
                 settings: Neo4jSettings | None = None, database: str | None = None) -> StoreError:
    """A one-line StoreError for a driver error, naming the server, never the password."""
    origin = _ORIGINS.get(driver) if driver is not None else None
    uri = settings.display_uri if settings else origin.uri if origin else "Neo4j"
    secret = settings.password if settings else origin.secret if origin else None
    if isinstance(error, neo4j_errors.AuthError):
        user = f" as user {settings.user!r}" if settings else ""
        message = (f"Neo4j at {uri} refused the login{user} (authentication failed): check "
                   "NEO4J_USERNAME and NEO4J_PASSWORD (or --user and --password)")
    elif isinstance(error, (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired,
                            neo4j_errors.IncompleteCommit)):
        message = (f"cannot reach Neo4j at {uri} ({_unreachable_reason(error)}): is the server "
                   "running? check NEO4J_URI or --uri")
    elif isinstance(error, neo4j_errors.Neo4jError) and error.code and \
            error.code.endswith("DatabaseNotFound"):
        database = settings.database if settings else database
        message = (f"Neo4j at {uri} has no database {database!r}: check NEO4J_DATABASE or "
                   "--database")
    elif isinstance(error, neo4j_errors.Neo4jError):
        message = f"Neo4j at {uri} refused the operation: {error.code}: {_first_line(error)}"
    else:
        message = f"Neo4j at {uri}: {type(error).__name__}: {_first_line(error)}"
    return StoreError(_redact(message, secret))


def _unreachable_reason(error: BaseException) -> str:
    """``[Errno 111] Connection refused`` out of the driver's two-line message, else line one."""
    found = re.findall(r"\(reason (.+?)\)\s*$", str(error), re.MULTILINE)
    return found[-1] if found else _first_line(error)


def _first_line(error: BaseException) -> str:
    """The first non-empty line of an error's message (Neo4jError: its ``message``)."""
    text = (error.message if isinstance(error, neo4j_errors.Neo4jError) and error.message
            else str(error) or type(error).__name__)
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    return lines[0].rstrip(":") if lines else type(error).__name__


def _redact(text: str, secret: str | None) -> str:
    """``text`` with every occurrence of ``secret`` replaced by ``***``."""
    return text.replace(secret, "***") if secret else text


# ---- rows: pure functions of the graph --------------------------------------------------------


# ---- Cypher text: named builders --------------------------------------------------------------


# ---- writing ----------------------------------------------------------------------------------

@dataclass
class LoadSummary:
    """What a load wrote, and the counts found in Neo4j afterwards next to the graph's."""

    database: str
    graph_nodes: dict[str, int]
    graph_relationships: dict[str, int]
    nodes: dict[str, int]
    relationships: dict[str, int]
    batches: int = 0
    rows: int = 0
    seconds: float = 0.0

    def differences(self) -> list[str]:
        """``"Feature: 150 in Neo4j, 141 in the graph"`` for each count that differs."""
        found = [(self.graph_nodes, self.nodes), (self.graph_relationships, self.relationships)]
        return [f"{name}: {neo.get(name, 0)} in Neo4j, {expected.get(name, 0)} in the graph"
                for expected, neo in found
                for name in sorted(set(expected) | set(neo))
                if neo.get(name, 0) != expected.get(name, 0)]


def create_constraints(driver: neo4j.Driver, labels: Iterable[str],
                       database: str = DEFAULT_DATABASE) -> None:
    """Create the uniqueness constraint of each label on its key, if it does not exist.

    Raises
    ------
    StoreError
        The server cannot be reached or refuses (for example: duplicate keys already there).
    """
    try:
        for label in sorted(set(labels)):
            driver.execute_query(create_constraint_query(label, key_property(label)),
                                 database_=database)
    except _DRIVER_ERRORS as error:
        raise _store_error(driver, error, database=database) from error


def load_graph(driver: neo4j.Driver, graph: nx.MultiDiGraph,
               database: str = DEFAULT_DATABASE, batch_size: int = DEFAULT_BATCH_SIZE,
               progress: Callable[[int], None] | None = None) -> LoadSummary:
    """Write ``graph`` to Neo4j: constraints, then nodes, then relationships, in batches.

    Parameters
    ----------
    driver : neo4j.Driver
        An open driver (see :func:`connect`).
    graph : networkx.MultiDiGraph
        A ptkg graph.
    database : str
        The Neo4j database.
    batch_size : int
        Rows per ``UNWIND`` query and transaction.
    progress : callable, optional
        Called with the number of rows (nodes or relationships) written after each batch; the
        total is ``graph.number_of_nodes() + graph.number_of_edges()``.

    Returns
    -------
    LoadSummary
        Batches, rows, seconds and the counts in Neo4j per label and type next to the graph's.

    Raises
    ------
    StoreError
        The server cannot be reached (after the driver's retries) or refuses a write, a
        property cannot be stored, or the counts in Neo4j differ from the graph's afterwards
        (data of an earlier load: wipe first).
    """
    started = time.perf_counter()
    if batch_size < 1:
        raise StoreError(f"batch size must be at least 1, not {batch_size}")
    nodes = node_rows(graph)
    relationships = relationship_rows(graph)
    create_constraints(driver, nodes, database)
    batches = rows = 0
    try:
        with driver.session(database=database) as session:
            for label, label_rows in nodes.items():
                query = merge_nodes_query(label, key_property(label))
                for batch in batched(label_rows, batch_size):
                    session.execute_write(_write_rows, query, batch)
                    batches, rows = batches + 1, rows + len(batch)
                    if progress:
                        progress(len(batch))
            for (start, rel_type, end), group_rows in relationships.items():
                query = merge_relationships_query(start, key_property(start), rel_type,
                                                  end, key_property(end))
                for batch in batched(group_rows, batch_size):
                    session.execute_write(_write_rows, query, batch)
                    batches, rows = batches + 1, rows + len(batch)
                    if progress:
                        progress(len(batch))
    except _DRIVER_ERRORS as error:
        raise _store_error(driver, error, database=database) from error
    expected_nodes, expected_rels = graph_counts(graph)
    found_nodes, found_rels = count(driver, database, expected_nodes, expected_rels)
    summary = LoadSummary(database, expected_nodes, expected_rels, found_nodes, found_rels,
                          batches, rows, time.perf_counter() - started)
    differences = summary.differences()
    if differences:
        raise StoreError(f"loaded, but the counts in Neo4j differ from the graph's "
                         f"({'; '.join(differences[:3])}"
                         f"{'; ...' if len(differences) > 3 else ''}): data of an earlier load? "
                         "load again with --wipe")
    return summary


def _write_rows(tx: neo4j.ManagedTransaction, query: str, rows: list[dict]) -> None:
    tx.run(query, rows=rows).consume()


def wipe(driver: neo4j.Driver, database: str = DEFAULT_DATABASE,
         labels: Iterable[str] = LABELS, batch_size: int = 10_000) -> int:
    """Delete ptkg's nodes (every node with one of ``labels``) and their relationships.

    Deletes in batches of ``batch_size`` nodes, one managed write transaction each; other
    labels and the constraints stay.

    Returns
    -------
    int
        The number of nodes deleted.

    Raises
    ------
    StoreError
        The server cannot be reached or refuses.
    """
    deleted = 0
    try:
        with driver.session(database=database) as session:
            for label in sorted(set(labels)):
                query = wipe_query(label)
                while True:
                    done = session.execute_write(_delete_batch, query, batch_size)
                    deleted += done
                    if done < batch_size:
                        break
    except _DRIVER_ERRORS as error:
        raise _store_error(driver, error, database=database) from error
    return deleted


def _delete_batch(tx: neo4j.ManagedTransaction, query: str, limit: int) -> int:
    return tx.run(query, limit=limit).single(strict=True)["deleted"]


def count(driver: neo4j.Driver, database: str = DEFAULT_DATABASE,
          labels: Iterable[str] = LABELS,
          types: Iterable[str] = ()) -> tuple[dict[str, int], dict[str, int]]:
    """Nodes per label and relationships per type in Neo4j, for the labels and types given.

    Raises
    ------
    StoreError
        The server cannot be reached or refuses.
    """
    def read(tx: neo4j.ManagedTransaction) -> tuple[dict[str, int], dict[str, int]]:
        nodes = {label: tx.run(count_nodes_query(label)).single(strict=True)["count"]
                 for label in sorted(set(labels))}
        rels = {rel_type: tx.run(count_relationships_query(rel_type)).single(strict=True)["count"]
                for rel_type in sorted(set(types))}
        return nodes, rels

    try:
        with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS) as session:
            return session.execute_read(read)
    except _DRIVER_ERRORS as error:
        raise _store_error(driver, error, database=database) from error


def fetch_graph(driver: neo4j.Driver, database: str = DEFAULT_DATABASE,
                labels: Iterable[str] = LABELS) -> nx.MultiDiGraph:
    """Read ptkg's nodes and relationships back from Neo4j as a ptkg graph.

    The inverse of :func:`load_graph`: node ids ``"<Label>:<key>"``, edge key the type, flat
    offsets turned back into pairs. Loading a graph and fetching it gives an equal graph.

    Raises
    ------
    StoreError
        The server cannot be reached or refuses.
    """
    wanted = sorted(set(labels))

    def read(tx: neo4j.ManagedTransaction) -> tuple[list, list]:
        nodes = [(r["labels"], r["props"]) for r in tx.run(fetch_nodes_query(), labels=wanted)]
        rels = [(r["start_labels"], r["start"], r["type"], r["props"], r["end_labels"], r["end"])
                for r in tx.run(fetch_relationships_query(), labels=wanted)]
        return nodes, rels

    try:
        with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS) as session:
            nodes, rels = session.execute_read(read)
    except _DRIVER_ERRORS as error:
        raise _store_error(driver, error, database=database) from error
    graph = nx.MultiDiGraph()
    for node_labels, props in sorted(nodes, key=lambda n: str(sorted(n[1].items()))):
        graph.add_node(_fetched_id(node_labels, props, wanted), **props)
    for start_labels, start, rel_type, props, end_labels, end in rels:
        props = dict(props)
        if isinstance(props.get("offsets"), list):
            with contextlib.suppress(TypeError, ValueError):
                props["offsets"] = unflatten_offsets(props["offsets"])
        graph.add_edge(_fetched_id(start_labels, start, wanted),
                       _fetched_id(end_labels, end, wanted), key=rel_type, **props)
    return graph


def _fetched_id(node_labels: Sequence[str], props: Mapping[str, object],
                wanted: Sequence[str]) -> str:
    label = props.get("label")
    if label not in node_labels:
        label = next(label for label in sorted(node_labels) if label in wanted)
    return f"{label}:{props.get(key_property(str(label)))}"


# ---- querying ---------------------------------------------------------------------------------

def run_query(driver: neo4j.Driver, query: str, params: Mapping[str, object] | None = None,
              database: str = DEFAULT_DATABASE) -> tuple[list[str], list[list[object]]]:
    """Run a read-only Cypher query in Neo4j, with real parameters; rows as plain values.

    The result has the shape of :func:`ptkg.cypher.run_query`: the column names in RETURN order
    and one list per row. Whole nodes and relationships are dicts of their properties with
    sorted keys (``offsets`` of a relationship as ``[start, end]`` pairs again); temporal values
    are ISO strings. When the final ``RETURN`` has no ``ORDER BY`` the rows are sorted as the
    networkx backend sorts them, so both print the same.

    Raises
    ------
    QueryError
        The server rejects the query: a syntax error, a missing parameter, a write (the query
        runs in read mode), a type or arithmetic error. Exit code 2 in the CLI.
    StoreError
        The server cannot be reached or refuses for another reason.
    """
    try:
        result = driver.execute_query(query, dict(params or {}), routing_=RoutingControl.READ,
                                      database_=database)
    except neo4j_errors.CypherSyntaxError as error:
        raise QueryError(syntax_message(error.message or str(error))) from error
    except neo4j_errors.ClientError as error:
        if (error.code or "").startswith("Neo.ClientError.Statement."):
            raise QueryError(f"cannot run Cypher query: {_first_line(error)}") from error
        raise _store_error(driver, error, database=database) from error
    except _DRIVER_ERRORS as error:
        raise _store_error(driver, error, database=database) from error
    columns = list(result.keys)
    rows = [[plain_value(value) for value in record.values()] for record in result.records]
    if not orders_rows(query):
        rows.sort(key=row_sort_key)
    return columns, rows


def syntax_message(message: str) -> str:
    """Neo4j's multi-line syntax error as one line, in the networkx backend's words.

    Examples
    --------
    >>> syntax_message("Invalid input 'MATC': expected 'MATCH' (line 1, column 1 (offset: 0))"
    ...                '\\n"MATC (n) RETURN n"\\n ^')
    "Cypher syntax error at line 1, column 1: unexpected 'MATC'"
    """
    first = next((line.strip() for line in message.splitlines() if line.strip()), "")
    position = _SYNTAX_POSITION.search(first)
    where = f" at line {position.group(1)}, column {position.group(2)}" if position else ""
    text = _SYNTAX_POSITION.sub("", first).strip()
    found = re.match(r"Invalid input '(.*?)': expected", text)
    if found:
        text = f"unexpected {found.group(1)!r}" if found.group(1) else "unexpected end of query"
    return f"Cypher syntax error{where}: {text}"


def plain_value(value: object) -> object:
    """A driver value as plain data: nodes and relationships as dicts of their properties."""
    if isinstance(value, Relationship):
        props = {key: plain_value(value[key]) for key in sorted(value.keys())}
        if isinstance(props.get("offsets"), list):
            with contextlib.suppress(TypeError, ValueError):  # else not ptkg's: leave it
                props["offsets"] = unflatten_offsets(props["offsets"])
        return props
    if isinstance(value, Node):
        return {key: plain_value(value[key]) for key in sorted(value.keys())}
    if isinstance(value, Path):
        items: list[object] = [plain_value(value.start_node)]
        for rel in value.relationships:
            items += [plain_value(rel), plain_value(rel.end_node)]
        return items
    if isinstance(value, Mapping):
        return {str(key): plain_value(value[key]) for key in sorted(value, key=str)}
    if isinstance(value, (list, tuple)):
        return [plain_value(item) for item in value]
    if hasattr(value, "iso_format"):  # neo4j.time Date, DateTime, Time, Duration
        return value.iso_format()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


class Neo4jStore:
    """A Neo4j server as a graph store: read-only queries, batched loads, the graph fetched back.

    The driver is opened (and the server's answer and the login checked) on first use.
    """

    def __init__(self, settings: Neo4jSettings):
        self.settings = settings
        self.location = f"{settings.display_uri} (database {settings.database})"
        self._driver: neo4j.Driver | None = None
        self._graph: nx.MultiDiGraph | None = None

    @property
    def driver(self) -> neo4j.Driver:
        """The verified driver (see :func:`connect`)."""
        if self._driver is None:
            self._driver = connect(self.settings)
        return self._driver

    def query(self, cypher: str, params: Mapping[str, object] | None = None
              ) -> tuple[list[str], list[list[object]]]:
        """Run a read-only query with real parameters (see :func:`run_query`)."""
        return run_query(self.driver, cypher, params, self.settings.database)

    def graph(self) -> nx.MultiDiGraph:
        """ptkg's nodes and relationships in the database, as a graph (fetched once)."""
        if self._graph is None:
            self._graph = fetch_graph(self.driver, self.settings.database)
        return self._graph

    def load(self, graph: nx.MultiDiGraph, *, batch_size: int = DEFAULT_BATCH_SIZE,
             wipe_first: bool = False,
             progress: Callable[[int], None] | None = None) -> LoadSummary:
        """Load ``graph`` (see :func:`load_graph`); ``wipe_first`` deletes ptkg's nodes first."""
        if wipe_first:
            wipe(self.driver, self.settings.database,
                 labels=set(LABELS) | set(graph_counts(graph)[0]))
        self._graph = None
        return load_graph(self.driver, graph, self.settings.database, batch_size,
                          progress=progress)

    def close(self) -> None:
        """Close the driver, if it was opened."""
        if self._driver is not None:
            self._driver.close()
            self._driver = None

    def __enter__(self) -> Neo4jStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
