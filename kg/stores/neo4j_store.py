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

Timeouts: :attr:`Neo4jSettings.timeout` (``NEO4J_TIMEOUT``, default 15 s) bounds connecting (TCP
and the Bolt handshake: a port that accepts but never answers fails after it) and the driver's
retries of a transaction (a server that dies mid-load fails after it). While it waits longer
than a second, :func:`connect` says so in one line (``waiting for Neo4j at URI: connecting
(timeout 15 s)``), and a load whose batch is retried says which; the line goes to the
``notify`` callable (default: standard error; ``None``: silent).

The read-only path
    :func:`run_query` (``ptkg query --backend neo4j``, named queries on Neo4j, agents) runs
    other people's Cypher, so it refuses anything but a plain read, in two independent layers:

    1. A lexical check (:func:`check_read_only`) on the query's tokens — strings, comments and
       backticked names are skipped, Java-style ``\\uXXXX`` escapes decoded first, as Neo4j's
       parser does — refuses ``LOAD CSV``, string literals holding a ``file:`` URL,
       administration commands (``SHOW ...``, ``TERMINATE ...``, ``CREATE``/``DROP``/``ALTER``
       ``USER``/``ROLE``/``DATABASE``/``INDEX``..., ``GRANT``/``DENY``/``REVOKE``,
       ``START``/``STOP DATABASE``), ``USE``, ``EXPLAIN``/``PROFILE``, ``CALL`` of any procedure
       not in :data:`READ_PROCEDURES`, and namespaced functions outside Cypher's built-in ones
       (:data:`READ_FUNCTION_NAMESPACES`: no ``apoc.*``).
    2. On the server: the query runs in a READ access-mode transaction, which first runs it
       under ``EXPLAIN`` (nothing executes) and checks the plan (:func:`plan_refusal`): the query
       type must be ``r`` (read-only; writes, schema and administration commands are not), no
       operator may load CSV, show or terminate anything, run an administration command, call a
       procedure outside the allow-list or a function outside the built-in namespaces, or run on
       another database. Only then does the query itself run, in the same transaction.

    Limits: the text layer refuses a string literal holding ``file:`` even when it is only data
    (``WHERE s.text CONTAINS "file:"``): pass such text as a parameter, which neither layer
    reads. ``EXPLAIN`` and ``PROFILE`` are refused (ptkg prints rows, not plans). A query that
    only writes gets the server's words for it (``Writing in read access mode not allowed``).

    A restricted user is a third layer where the server has one: Neo4j Community has no roles
    (every user is an administrator), so on Enterprise or Aura give ``ptkg query`` a user with
    the built-in ``reader`` role. The embedded server of ``docker/`` also disallows file URLs
    for ``LOAD CSV``, has an empty import folder and no unrestricted procedures.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import math
import os
import re
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import neo4j
import networkx as nx
from neo4j import GraphDatabase
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
from ptkg.stores import DEFAULT_NEO4J_TIMEOUT
from ptkg.stores.rows import batched, node_rows, relationship_rows, unflatten_offsets

DEFAULT_URI = "bolt://127.0.0.1:7687"
DEFAULT_USER = "neo4j"
DEFAULT_DATABASE = "neo4j"
DEFAULT_BATCH_SIZE = 1000
DEFAULT_TIMEOUT = DEFAULT_NEO4J_TIMEOUT
SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
#: Seconds :func:`connect` waits before it says what it is waiting for.
NOTICE_AFTER = 1.0

_DRIVER_ERRORS = (neo4j_errors.Neo4jError, neo4j_errors.DriverError)
_SYNTAX_POSITION = re.compile(r"\s*\(line (\d+), column (\d+) \(offset: \d+\)\)")


# ---- connection -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Neo4jSettings:
    """Where and how to connect: URI, user, password (never shown), database and timeout.

    Build it with :meth:`from_env`, which takes each value from its argument, else from the
    standard environment variable, else from the default.

    Attributes
    ----------
    timeout : float
        Seconds to wait for the server: to connect (TCP and Bolt handshake, the driver's
        ``connection_timeout`` and ``connection_acquisition_timeout``) and, for a transaction
        that failed on a lost connection or a transient error, to retry it
        (``max_transaction_retry_time``). ``NEO4J_TIMEOUT``; default :data:`DEFAULT_TIMEOUT`.
    """

    uri: str = DEFAULT_URI
    user: str = DEFAULT_USER
    password: str | None = field(default=None, repr=False)
    database: str = DEFAULT_DATABASE
    timeout: float = DEFAULT_TIMEOUT

    @classmethod
    def from_env(cls, uri: str | None = None, user: str | None = None,
                 password: str | None = None, database: str | None = None,
                 environ: Mapping[str, str] | None = None,
                 timeout: float | str | None = None) -> Neo4jSettings:
        """Settings from the arguments, else ``NEO4J_URI``, ``NEO4J_USERNAME``,
        ``NEO4J_PASSWORD``, ``NEO4J_DATABASE``, ``NEO4J_TIMEOUT``, else the defaults.

        Raises
        ------
        StoreError
            The timeout is not a number of seconds greater than 0.

        Examples
        --------
        >>> s = Neo4jSettings.from_env(environ={"NEO4J_URI": "bolt://db:7687",
        ...                                     "NEO4J_PASSWORD": "secret"}, database="ptkg")
        >>> s
        Neo4jSettings(uri='bolt://db:7687', user='neo4j', database='ptkg', timeout=15.0)
        >>> Neo4jSettings.from_env(environ={"NEO4J_TIMEOUT": "2.5"}).timeout
        2.5
        """
        env = os.environ if environ is None else environ
        if timeout is None or (isinstance(timeout, str) and not timeout.strip()):
            timeout = env.get("NEO4J_TIMEOUT") or DEFAULT_TIMEOUT
        return cls(uri=uri or env.get("NEO4J_URI") or DEFAULT_URI,
                   user=user or env.get("NEO4J_USERNAME") or DEFAULT_USER,
                   password=password if password is not None else env.get("NEO4J_PASSWORD"),
                   database=database or env.get("NEO4J_DATABASE") or DEFAULT_DATABASE,
                   timeout=parse_timeout(timeout))

    @property
    def display_uri(self) -> str:
        """The URI without any ``user:password@`` part, for messages."""
        return safe_uri(self.uri)

    def with_uri(self, uri: str) -> Neo4jSettings:
        """The same settings for another server."""
        return dataclasses.replace(self, uri=uri)


def parse_timeout(value: float | str) -> float:
    """A timeout in seconds, from a number or its text.

    Raises
    ------
    StoreError
        Not a finite number greater than 0.

    Examples
    --------
    >>> parse_timeout("10"), parse_timeout(0.5)
    (10.0, 0.5)
    """
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise StoreError(f"bad Neo4j timeout {value!r}: give a number of seconds greater than 0 "
                         "(NEO4J_TIMEOUT or --timeout)")
    return seconds


def notify_stderr(message: str) -> None:
    """Write one line to standard error: the default ``notify`` of :func:`connect`."""
    print(message, file=sys.stderr, flush=True)


@dataclass(frozen=True)
class _Origin:
    uri: str
    secret: str | None
    timeout: float = DEFAULT_TIMEOUT


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
    except ValueError:  # e.g. an unclosed IPv6 bracket: drop what a user:password@ could be
        scheme, sep, rest = uri.partition("://")
        authority, slash, path = rest.partition("/")
        return f"{scheme}{sep}{authority.rpartition('@')[2]}{slash}{path}" if sep else \
            uri.rpartition("@")[2]
    if "@" not in parts.netloc:
        return uri
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def connect(settings: Neo4jSettings, *, notify: Callable[[str], None] | None = notify_stderr,
            **config: Any) -> neo4j.Driver:
    """Open a driver for ``settings`` and check that the server answers and accepts the login.

    Parameters
    ----------
    settings : Neo4jSettings
        URI, user, password, database and timeout.
    notify : callable or None
        Called with one line (``waiting for Neo4j at URI: connecting (timeout 15 s)``) when the
        server has not answered after :data:`NOTICE_AFTER` seconds; ``None`` says nothing.
    **config
        Driver configuration, passed to ``GraphDatabase.driver``. ``connection_timeout``,
        ``connection_acquisition_timeout`` and ``max_transaction_retry_time`` default to
        ``settings.timeout``; notifications are off unless configured.

    Returns
    -------
    neo4j.Driver
        A verified driver; close it (or use it as a context manager) when done.

    Raises
    ------
    StoreError
        The URI is invalid, the server cannot be reached or does not answer within the
        timeout, or it refuses the credentials.
    """
    uri = settings.display_uri
    try:
        parts = urlsplit(settings.uri)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as error:
        raise StoreError(_redact(f"bad Neo4j URI {uri!r}: {_first_line(error)}: use "
                                 "bolt://HOST:PORT or neo4j://HOST:PORT",
                                 settings.password)) from None
    scheme = parts.scheme if "://" in settings.uri else ""
    if scheme not in SCHEMES:
        raise StoreError(f"bad Neo4j URI {uri!r}: use bolt://HOST:PORT or neo4j://HOST:PORT "
                         f"(schemes: {', '.join(SCHEMES)})")
    if "@" in parts.netloc:
        raise StoreError(f"Neo4j URI {uri}: give the user and password in NEO4J_USERNAME and "
                         "NEO4J_PASSWORD (or --user and --password), not in the URI")
    auth = (settings.user, settings.password) if settings.password is not None else None
    config.setdefault("notifications_min_severity", "OFF")
    config.setdefault("user_agent", f"ptkg/{__version__}")
    for name in ("connection_timeout", "connection_acquisition_timeout",
                 "max_transaction_retry_time"):
        config.setdefault(name, settings.timeout)
    try:
        driver = GraphDatabase.driver(settings.uri, auth=auth, **config)
    except (neo4j_errors.ConfigurationError, ValueError, TypeError) as error:
        message = f"bad Neo4j URI or settings for {uri}: {_first_line(error)}"
        raise StoreError(_redact(message, settings.password)) from None
    _ORIGINS[driver] = _Origin(uri, settings.password, settings.timeout)
    notice = None
    if notify is not None:
        notice = threading.Timer(NOTICE_AFTER, notify, [
            f"waiting for Neo4j at {uri}: connecting (timeout {settings.timeout:g} s)"])
        notice.daemon = True
        notice.start()
    try:
        driver.verify_connectivity()
    except Exception as error:
        driver.close()
        raise _store_error(driver, error, settings) from error
    finally:
        if notice is not None:
            notice.cancel()
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
    """Why the server cannot be reached, in a few words, out of the driver's message.

    ``[Errno 111] Connection refused``, ``no Bolt answer within 15 s ...`` (the handshake timed
    out), ``the connection was lost``, else the message's first line.
    """
    found = re.findall(r"\(reason (.+?)\)\s*$", str(error), re.MULTILINE)
    if found:
        return found[-1]
    deadline = re.search(r"Failed to read .*handshake.*\(deadline Deadline\(timeout=([\d.]+)\)",
                         str(error))
    if deadline:
        return (f"no Bolt answer within {float(deadline.group(1)):g} s: a Neo4j Bolt port? "
                "NEO4J_TIMEOUT or --timeout waits longer")
    if "defunct connection" in str(error):
        return "the connection was lost"
    if "timed out" in str(error).lower():
        return "timed out: NEO4J_TIMEOUT or --timeout waits longer"
    return _first_line(error)


def _first_line(error: BaseException) -> str:
    """The first non-empty line of an error's message (Neo4jError: its ``message``)."""
    text = (error.message if isinstance(error, neo4j_errors.Neo4jError) and error.message
            else str(error) or type(error).__name__)
    lines = [line.strip() for line in str(text).splitlines() if line.strip()]
    return lines[0].rstrip(":") if lines else type(error).__name__


def _redact(text: str, secret: str | None) -> str:
    """``text`` with every occurrence of ``secret`` replaced by ``***``."""
    return text.replace(secret, "***") if secret else text


class _RetryNotice(logging.Handler):
    """Says once, through ``notify``, that the driver is retrying a transaction.

    The driver logs ``Transaction failed and will be retried in Ns (error)`` (logger
    ``neo4j.session``, WARNING) before each retry of a managed transaction; this handler turns
    the first one into a line naming the server, what failed, why and the timeout.
    """

    def __init__(self, driver: neo4j.Driver, notify: Callable[[str], None]):
        super().__init__(logging.WARNING)
        origin = _ORIGINS.get(driver)
        self.origin = origin or _Origin("Neo4j", None)
        self.notify = notify
        self.what = "the transaction"
        self.told = False

    def emit(self, record: logging.LogRecord) -> None:
        if self.told or not str(record.msg).startswith("Transaction failed and will be retried"):
            return
        self.told = True
        error = record.args[-1] if isinstance(record.args, tuple) and record.args else None
        reason = (_unreachable_reason(error) if isinstance(error, BaseException)
                  else "a transient error")
        message = (f"waiting for Neo4j at {self.origin.uri}: {self.what} failed ({reason}); "
                   f"retrying (timeout {self.origin.timeout:g} s)")
        with contextlib.suppress(Exception):
            self.notify(_redact(message, self.origin.secret))

    @classmethod
    @contextlib.contextmanager
    def installed(cls, driver: neo4j.Driver, notify: Callable[[str], None] | None
                  ) -> Iterator[_RetryNotice]:
        """The handler, listening to the driver's log for the duration of the block."""
        handler = cls(driver, notify or (lambda message: None))
        logger = logging.getLogger("neo4j.session")
        if notify is not None:
            logger.addHandler(handler)
        try:
            yield handler
        finally:
            logger.removeHandler(handler)


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
               progress: Callable[[int], None] | None = None,
               notify: Callable[[str], None] | None = notify_stderr) -> LoadSummary:
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
    notify : callable or None
        Called with one line when a batch failed and the driver retries it (a lost connection,
        a server restarting), once per load; ``None`` says nothing. The driver retries for up
        to the timeout of the settings the driver was made with (see :func:`connect`).

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
    queries = [(merge_nodes_query(label, key_property(label)), label, label_rows)
               for label, label_rows in nodes.items()]
    queries += [(merge_relationships_query(start, key_property(start), rel_type, end,
                                           key_property(end)), rel_type, group_rows)
                for (start, rel_type, end), group_rows in relationships.items()]
    try:
        with _RetryNotice.installed(driver, notify) as notice, \
                driver.session(database=database) as session:
            for query, name, query_rows in queries:
                for batch in batched(query_rows, batch_size):
                    notice.what = f"writing batch {batches + 1} ({len(batch)} {name} rows)"
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


# ---- the read-only guard ----------------------------------------------------------------------

#: The procedures a read-only query may CALL: the schema of the graph, nothing else.
READ_PROCEDURES = frozenset({
    "db.labels", "db.relationshipTypes", "db.propertyKeys", "db.schema.visualization",
    "db.schema.nodeTypeProperties", "db.schema.relTypeProperties",
})
#: Namespaces of Cypher's built-in functions (lower case: function names are case-insensitive);
#: any other namespaced function (``apoc.*``, a plugin's) is refused.
READ_FUNCTION_NAMESPACES = ("date", "datetime", "localdatetime", "localtime", "time", "duration",
                            "point", "vector.similarity")
#: Built-in namespaced functions outside those namespaces (lower case).
READ_FUNCTIONS = frozenset({"db.namefromelementid"})
READ_ONLY = "ptkg runs read-only queries"

# Words that start an administration command (SHOW USERS, TERMINATE TRANSACTIONS, USE system,
# CREATE ROLE, ...) when another word follows them. After a variable of the same name only an
# operator or one of _FOLLOWERS can come: `RETURN start AS s`, `WITH stop ORDER BY stop`.
_COMMAND_WORDS = frozenset({
    "ALTER", "CREATE", "DEALLOCATE", "DENY", "DROP", "DRYRUN", "ENABLE", "GRANT", "REALLOCATE",
    "RENAME", "REVOKE", "SHOW", "START", "STOP", "TERMINATE", "USE",
})
_FOLLOWERS = frozenset({
    "AND", "AS", "ASC", "ASCENDING", "BY", "CALL", "CONTAINS", "CREATE", "DELETE", "DESC",
    "DESCENDING", "DETACH", "ELSE", "END", "ENDS", "FILTER", "FINISH", "FOREACH", "IN", "IS",
    "LET", "LIMIT", "LOAD", "MATCH", "MERGE", "NEXT", "OFFSET", "ON", "OPTIONAL", "OR", "ORDER",
    "REMOVE", "RETURN", "SET", "SKIP", "STARTS", "THEN", "UNION", "UNWIND", "WHEN", "WHERE",
    "WITH", "XOR", "YIELD",
})
# Second words shown in a refusal: "SHOW ALL ROLES", "CREATE OR REPLACE DATABASE".
_QUALIFIERS = frozenset({"ALL", "BTREE", "BUILT", "COMPOSITE", "CURRENT", "DEFAULT", "FULLTEXT",
                         "HOME", "LOOKUP", "OR", "POINT", "RANGE", "TEXT", "VECTOR"})
_UNICODE_ESCAPE = re.compile(r"\\u+([0-9A-Fa-f]{4})")
_NUMBER = re.compile(r"0[xX][0-9A-Fa-f_]*|0[oO][0-7_]*|[0-9][0-9_]*(?:\.[0-9][0-9_]*)?"
                     r"(?:[eE][+-]?[0-9]+)?")
# A line comment ends at any line break Python knows: ending it earlier than Neo4j would only
# shows the check more of the query.
_LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_FILE_URL = re.compile(r"(?<![A-Za-z0-9+.\-])file:", re.IGNORECASE)
_PLAN_FUNCTION = re.compile(r"([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)+)\s*\(")
# What a plan's details quote: backticked names (aliases, odd property keys) and strings.
_PLAN_QUOTED = re.compile(r"`(?:[^`]|``)*`|'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


@dataclass(frozen=True)
class _Token:
    kind: str  # word, name (`backticked`), string, number, symbol
    text: str  # the word, the name or string's value, the number or the symbol


def decode_unicode_escapes(text: str) -> str:
    r"""``text`` with Java's ``\uXXXX`` escapes decoded, as Neo4j's Cypher parser reads a query.

    Neo4j decodes them everywhere before parsing, so ``\u004cOAD CSV`` is ``LOAD CSV`` and
    ``\u0022`` ends a double-quoted string. Like Java, an escape whose backslash follows an odd
    number of backslashes is not one.

    Examples
    --------
    >>> decode_unicode_escapes(r"\u004cOAD CSV"), decode_unicode_escapes(r"'\\u0041'")
    ('LOAD CSV', "'\\\\u0041'")
    """
    out: list[str] = []
    backslashes = 0
    i = 0
    while i < len(text):
        found = _UNICODE_ESCAPE.match(text, i) if backslashes % 2 == 0 else None
        if found:
            out.append(chr(int(found.group(1), 16)))
            i = found.end()
            backslashes = 0
            continue
        backslashes = backslashes + 1 if text[i] == "\\" else 0
        out.append(text[i])
        i += 1
    return "".join(out)


def _word_char(char: str) -> bool:
    """Part of an unquoted name. Non-ASCII only for letters and decimal digits: splitting a word
    where Neo4j would not only shows the check more words."""
    return char == "_" or (char.isalnum() if char.isascii() else
                           char.isalpha() or char.isdecimal())


def cypher_tokens(query: str) -> list[_Token]:
    """The tokens of a Cypher query, without whitespace and comments (a lexer for the guard).

    Strings become their value, backticked names their name (``` `` ``` is one backtick);
    unterminated ones run to the end. Escapes are not decoded first: see
    :func:`decode_unicode_escapes`.
    """
    tokens: list[_Token] = []
    i, n = 0, len(query)
    while i < n:
        char = query[i]
        if char.isspace():
            i += 1
        elif query.startswith("//", i):
            while i < n and query[i] not in _LINE_BREAKS:
                i += 1
        elif query.startswith("/*", i):
            end = query.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif char in "'\"":
            value, i = [], i + 1
            while i < n and query[i] != char:
                value.append(query[i + 1] if query[i] == "\\" and i + 1 < n else query[i])
                i += 2 if query[i] == "\\" else 1
            tokens.append(_Token("string", "".join(value)))
            i += 1
        elif char == "`":
            value, i = [], i + 1
            while i < n and (query[i] != "`" or query.startswith("``", i)):
                value.append(query[i])
                i += 2 if query[i] == "`" else 1
            tokens.append(_Token("name", "".join(value)))
            i += 1
        elif char.isascii() and char.isdigit():
            number = _NUMBER.match(query, i)
            end = number.end() if number else i + 1
            tokens.append(_Token("number", query[i:end]))
            i = end
        elif _word_char(char):
            start = i
            while i < n and _word_char(query[i]):
                i += 1
            tokens.append(_Token("word", query[start:i]))
        else:
            tokens.append(_Token("symbol", char))
            i += 1
    return tokens


def _is_word(token: _Token | None, *words: str) -> bool:
    return token is not None and token.kind == "word" and (
        not words or token.text.upper() in words)


def _dotted_name(tokens: Sequence[_Token], start: int) -> tuple[str, int]:
    """The name ``a.b.c`` (words or backticked names) starting at ``start``; the index after."""
    parts, i = [], start
    while i < len(tokens) and tokens[i].kind in ("word", "name"):
        parts.append(tokens[i].text)
        if not (i + 2 < len(tokens) and tokens[i + 1].text == "." and
                tokens[i + 1].kind == "symbol" and tokens[i + 2].kind in ("word", "name")):
            i += 1
            break
        i += 2
    return ".".join(parts), i


def _function_allowed(name: str) -> bool:
    lowered = re.sub(r"\s+", "", name).lower()
    return lowered in READ_FUNCTIONS or any(lowered.startswith(namespace + ".")
                                            for namespace in READ_FUNCTION_NAMESPACES)


def _procedures_text() -> str:
    return ", ".join(sorted(READ_PROCEDURES))


def _token_refusal(tokens: Sequence[_Token]) -> str | None:
    """Why these tokens are not a plain read query, or None."""
    start = 0
    while _is_word(tokens[start] if start < len(tokens) else None, "CYPHER", "EXPLAIN",
                   "PROFILE"):
        word = tokens[start].text.upper()
        if word != "CYPHER":
            return f"{word} is not allowed (ptkg prints a query's rows, not its plan)"
        start += 1
        if start < len(tokens) and tokens[start].kind == "number":
            start += 1
        while start + 2 < len(tokens) and tokens[start + 1].text == "=":
            start += 3
    for i, token in enumerate(tokens):
        before = tokens[i - 1] if i else None
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if token.kind == "string" and _FILE_URL.search(token.text):
            return "file URLs are not allowed"
        if token.kind not in ("word", "name") or (before is not None and before.text == "." and
                                                   before.kind == "symbol"):
            continue
        word = token.text.upper() if token.kind == "word" else None
        if word == "LOAD" and _is_word(after, "CSV"):
            return "LOAD CSV is not allowed"
        if word in _COMMAND_WORDS and after is not None and (
                after.kind == "name" or (after.kind == "word" and
                                         (after.text.upper() not in _FOLLOWERS or
                                          (word == "CREATE" and _is_word(after, "OR"))))):
            what = [word, after.text.upper() if after.kind == "word" else after.text]
            for more in tokens[i + 2:i + 4]:  # SHOW ALL ROLES, CREATE OR REPLACE DATABASE
                if what[-1] not in _QUALIFIERS and what[-2:] != ["OR", "REPLACE"] or \
                        not _is_word(more):
                    break
                what.append(more.text.upper())
            if word == "USE":
                return (f"USE {after.text} is not allowed: queries run on the configured "
                        "database (NEO4J_DATABASE or --database)")
            return f"{' '.join(what)} is not allowed"
        if word == "CALL" and after is not None and after.kind in ("word", "name"):
            name, _ = _dotted_name(tokens, i + 1)
            if name not in READ_PROCEDURES:
                return f"CALL {name} is not allowed (procedures allowed: {_procedures_text()})"
        if _is_word(before, "CALL"):
            continue
        name, end = _dotted_name(tokens, i)
        if "." in name and end < len(tokens) and tokens[end].text == "(" and \
                tokens[end].kind == "symbol" and not _function_allowed(name):
            return f"function {name} is not allowed (only Cypher's built-in functions)"
    return None


def read_only_refusal(query: str) -> str | None:
    """Why ``query`` is not a plain read, from its text alone (the guard's first layer), or None.

    The reason is a short phrase (``LOAD CSV is not allowed``); :func:`check_read_only` raises
    it. The query is checked as Neo4j reads it (``\\uXXXX`` escapes decoded) and as written.

    Examples
    --------
    >>> read_only_refusal("MATCH (r:Release) WHERE r.name = 'LOAD CSV' RETURN r // SHOW USERS")
    >>> read_only_refusal("load /* x */ csv FROM 'https://example.org/a.csv' AS row RETURN row")
    'LOAD CSV is not allowed'
    >>> read_only_refusal("CALL `dbms`.listConfig()")
    'CALL dbms.listConfig is not allowed (procedures allowed: db.labels, db.propertyKeys, \
db.relationshipTypes, db.schema.nodeTypeProperties, db.schema.relTypeProperties, \
db.schema.visualization)'
    """
    decoded = decode_unicode_escapes(query)
    for text in dict.fromkeys([decoded, query]):
        reason = _token_refusal(cypher_tokens(text))
        if reason:
            return reason
    return None


def check_read_only(query: str) -> None:
    """Raise unless ``query`` reads like a plain read query (the guard's first layer).

    Raises
    ------
    QueryError
        ``ptkg runs read-only queries: LOAD CSV is not allowed``, and so on: see the module
        docstring for what is refused.
    """
    reason = read_only_refusal(query)
    if reason:
        raise QueryError(f"{READ_ONLY}: {reason}")


def _plan_operators(plan: Mapping[str, Any] | None) -> Iterator[Mapping[str, Any]]:
    if not plan:
        return
    yield plan
    for child in plan.get("children") or ():
        yield from _plan_operators(child)


def _camel_words(name: str) -> str:
    """``ShowTransactions`` → ``TRANSACTIONS`` after its first word, for messages."""
    return " ".join(re.findall(r"[A-Z][a-z0-9]*", name)[1:]).upper()


def plan_refusal(query_type: str | None, plan: Mapping[str, Any] | None,
                 database: str, planned_on: str | None = None) -> str | None:
    """Why an ``EXPLAIN``-ed query is not a plain read of ``database``, or None (layer two).

    Parameters
    ----------
    query_type : str or None
        The result summary's ``query_type``: ``r`` for a read-only query (``w``, ``rw``, ``s``
        for writes, read-writes, schema and administration).
    plan : mapping or None
        The summary's ``plan``: ``operatorType`` (``LoadCSV@neo4j``), ``args``, ``children``.
    database : str
        The database the query must read.
    planned_on : str, optional
        The summary's ``database``.

    Examples
    --------
    >>> plan_refusal("r", {"operatorType": "ProduceResults@neo4j", "children": [
    ...     {"operatorType": "LoadCSV@neo4j", "args": {"Details": "row"}}]}, "neo4j")
    'LOAD CSV is not allowed'
    >>> plan_refusal("r", {"operatorType": "ProcedureCall@neo4j",
    ...                    "args": {"Details": "db.labels() :: (label :: STRING)"}}, "neo4j")
    """
    wanted = database.casefold()
    if planned_on and planned_on.casefold() != wanted:
        return f"a query on database {planned_on!r} is not allowed (ptkg reads {database!r})"
    for operator in _plan_operators(plan):
        kind, _, on = str(operator.get("operatorType", "")).partition("@")
        details = str((operator.get("args") or {}).get("Details") or "")
        if kind == "LoadCSV":
            return "LOAD CSV is not allowed"
        if kind.startswith(("Show", "Terminate")):
            verb = "SHOW" if kind.startswith("Show") else "TERMINATE"
            return f"{verb} {_camel_words(kind)} is not allowed".replace("  ", " ")
        if kind in ("AdministrationCommand", "SystemProcedureCall") or \
                kind.startswith("Transaction"):
            return f"{kind} is not allowed (administration, or CALL {{}} IN TRANSACTIONS)"
        if on and on.casefold() != wanted:
            return f"a query on database {on!r} is not allowed (ptkg reads {database!r})"
        if kind == "ProcedureCall":
            name = details.partition("(")[0].strip()
            if name not in READ_PROCEDURES:
                return f"CALL {name} is not allowed (procedures allowed: {_procedures_text()})"
            continue
        for name in _PLAN_FUNCTION.findall(_PLAN_QUOTED.sub(" ", details)):
            if not _function_allowed(name):
                return f"function {name} is not allowed (only Cypher's built-in functions)"
    if query_type in ("w", "rw"):
        return "the query writes"
    if query_type != "r":
        return "schema and administration commands are not allowed"
    return None


def _explained_position(message: str) -> str:
    """A syntax error's position in ``EXPLAIN\\n`` + query, as a position in the query."""
    def shift(found: re.Match) -> str:
        line, column, offset = (int(x) for x in found.groups())
        return (f"(line {max(line - 1, 1)}, column {column} "
                f"(offset: {max(offset - len(_EXPLAIN), 0)}))")
    return re.sub(r"\(line (\d+), column (\d+) \(offset: (\d+)\)\)", shift, message)


_EXPLAIN = "EXPLAIN\n"


def _guarded_read(tx: neo4j.ManagedTransaction, query: str, params: dict,
                  database: str) -> tuple[list[str], list[list[object]]]:
    """EXPLAIN the query and check its plan, then run it: one READ transaction."""
    summary = tx.run(_EXPLAIN + query, params).consume()
    reason = plan_refusal(summary.query_type, summary.plan, database, summary.database)
    if reason == "the query writes":  # the server's own words for it, as before the guard
        raise QueryError("cannot run Cypher query: Writing in read access mode not allowed "
                         f"({READ_ONLY})")
    if reason:
        raise QueryError(f"{READ_ONLY}: {reason}")
    result = tx.run(query, params)
    columns = list(result.keys())
    return columns, [list(record.values()) for record in result]


# ---- querying ---------------------------------------------------------------------------------

def run_query(driver: neo4j.Driver, query: str, params: Mapping[str, object] | None = None,
              database: str = DEFAULT_DATABASE,
              notify: Callable[[str], None] | None = notify_stderr
              ) -> tuple[list[str], list[list[object]]]:
    """Run a read-only Cypher query in Neo4j, with real parameters; rows as plain values.

    The query must be a plain read: it is checked twice, from its text
    (:func:`check_read_only`) and from the server's plan of it (:func:`plan_refusal`, in the
    READ transaction the query then runs in); see "The read-only path" in the module docstring.

    The result has the shape of :func:`ptkg.cypher.run_query`: the column names in RETURN order
    and one list per row. Whole nodes and relationships are dicts of their properties with
    sorted keys (``offsets`` of a relationship as ``[start, end]`` pairs again); temporal values
    are ISO strings. When the final ``RETURN`` has no ``ORDER BY`` the rows are sorted as the
    networkx backend sorts them, so both print the same.

    Parameters
    ----------
    driver : neo4j.Driver
        An open driver (see :func:`connect`).
    query : str
        The Cypher query.
    params : mapping, optional
        Its parameters, sent as real parameters.
    database : str
        The database to read; a query may not name another (``USE``).
    notify : callable or None
        Called with one line when the driver retries the transaction (see :func:`load_graph`).

    Raises
    ------
    QueryError
        The query is not a plain read (``ptkg runs read-only queries: LOAD CSV is not
        allowed``), or the server rejects it: a syntax error, a missing parameter, a type or
        arithmetic error. Exit code 2 in the CLI.
    StoreError
        The server cannot be reached or refuses for another reason.
    """
    check_read_only(query)
    try:
        with _RetryNotice.installed(driver, notify) as notice, driver.session(
                database=database, default_access_mode=neo4j.READ_ACCESS,
                bookmark_manager=driver.execute_query_bookmark_manager) as session:
            notice.what = "the query"
            columns, values = session.execute_read(_guarded_read, query, dict(params or {}),
                                                   database)
    except neo4j_errors.CypherSyntaxError as error:
        message = _explained_position(error.message or str(error))
        raise QueryError(syntax_message(message)) from error
    except neo4j_errors.ClientError as error:
        if (error.code or "").startswith("Neo.ClientError.Statement."):
            raise QueryError(f"cannot run Cypher query: {_first_line(error)}") from error
        raise _store_error(driver, error, database=database) from error
    except _DRIVER_ERRORS as error:
        raise _store_error(driver, error, database=database) from error
    rows = [[plain_value(value) for value in record] for record in values]
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

    def __init__(self, settings: Neo4jSettings,
                 notify: Callable[[str], None] | None = notify_stderr):
        self.settings = settings
        self.notify = notify
        self.location = f"{settings.display_uri} (database {settings.database})"
        self._driver: neo4j.Driver | None = None
        self._graph: nx.MultiDiGraph | None = None

    @property
    def driver(self) -> neo4j.Driver:
        """The verified driver (see :func:`connect`)."""
        if self._driver is None:
            self._driver = connect(self.settings, notify=self.notify)
        return self._driver

    def query(self, cypher: str, params: Mapping[str, object] | None = None
              ) -> tuple[list[str], list[list[object]]]:
        """Run a read-only query with real parameters (see :func:`run_query`).

        The query's text is checked before the server is reached: a refused query needs none.
        """
        check_read_only(cypher)
        return run_query(self.driver, cypher, params, self.settings.database, self.notify)

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
                          progress=progress, notify=self.notify)

    def close(self) -> None:
        """Close the driver, if it was opened."""
        if self._driver is not None:
            self._driver.close()
            self._driver = None

    def __enter__(self) -> Neo4jStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
