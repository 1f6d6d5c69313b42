"""Benchmark: loading Neo4j in ``UNWIND`` batches against one ``MERGE`` per transaction, and
the latency of every named query on NetworkX and on Neo4j.

Run from the repo root::

    .venv/bin/python bench/neo4j.py [--min-relationships 20000] [--naive-copies 1]
                                    [--load-repeat 3] [--batch-size 1000]
                                    [--repeat 20] [--warmup 2] [--budget 30]

The server is the one of ``NEO4J_URI``, ``NEO4J_USERNAME``, ``NEO4J_PASSWORD`` (and
``NEO4J_DATABASE``). Without ``NEO4J_URI``, a throwaway Neo4j 5.26 is started with
``docker/neo4j-start.sh`` (needs java and mvn) in a temporary folder on a free port, as
``.ci/neo4j-pytest`` does, and stopped (folder removed) at the end. The benchmark wipes ptkg's
labels (:func:`ptkg.stores.neo4j_store.wipe`) several times; on a server of ``NEO4J_URI`` that
already holds nodes with those labels it refuses to start unless ``--wipe`` is given.

The graph: ``tests/data/corpus/pytorch_blog.jsonl`` (or ``--corpus``) built with
:func:`ptkg.build.build` (``model="blank"``, no cache) and read back from its file. For the load,
that graph is repeated (:func:`replicate_graph`: copy ``N`` suffixes every node's id, ``name``
and ``url`` with ``#copy-N``, and the ``sources`` of its relationships) until it has at least
``--min-relationships`` relationships. In one run, on one server, the database wiped before each
load: a warm-up, then ``--load-repeat`` rounds of one batched load and one load with a
transaction per row, interleaved so that a change in the machine's load hits both; the report
gives the best round of each (highest rows/s) and lists every round:

- **warm-up**: the repeated graph loaded in batches, untimed (the server's JIT and page
  cache). Even so the first round is often the slowest of both kinds; on a shared machine the
  rounds also move with the load of other processes, hence the best of several;
- **batched**: :func:`ptkg.stores.neo4j_store.load_graph` of the repeated graph,
  ``--batch-size`` rows per ``UNWIND`` query and write transaction. The nodes phase runs from
  the call to the last node batch and so includes building the rows of both nodes and
  relationships and the ``IF NOT EXISTS`` constraint statements; the relationships phase runs
  from there to the last
  relationship batch. The count check that ``load_graph`` does afterwards is in the total only;
- **one MERGE per transaction**: the same rows (:func:`ptkg.stores.rows.node_rows`,
  :func:`~ptkg.stores.rows.relationship_rows`, built before the timing) and the same Cypher
  text (:func:`~ptkg.cypher.merge_nodes_query`, :func:`~ptkg.cypher.merge_relationships_query`)
  with a ``$rows`` of one row, one ``session.execute_write`` per node and per relationship, after
  the same constraints. Only the batching differs. By default it loads the first
  ``--naive-copies`` copies (1: the plain corpus graph), not all of them, because thousands of
  one-row transactions take long; the ratio compares per-row throughput (rows per second),
  which does not depend on the number of rows as long as both loads are past warm-up.

The counts in Neo4j after each load are compared with the graph's and printed (``counts
match``), not asserted. Then the plain corpus graph is loaded, and every named query
(:func:`ptkg.named_queries.load_queries`) runs with its header's example parameters,
``--warmup`` times untimed and ``--repeat`` times timed (fewer when the timed runs of one
query on one backend pass ``--budget`` seconds: the table says how many), on the NetworkX graph
(:func:`ptkg.stores.grand_cypher.run_query`) and in Neo4j
(:func:`ptkg.stores.neo4j_store.run_query`, over Bolt on
127.0.0.1): wall time per call, parsing and row conversion included. p50 and p95 are
interpolated percentiles of those runs (``statistics.quantiles``, inclusive).

Progress goes to stderr; a Markdown report for the README to stdout. Wall times suffer when
other processes share the CPUs (the server runs on the same machine): the load average is
printed at the start, after the loads and at the end. This is a benchmark, not a test: it
checks no timing and never fails on one.
"""

# ruff: noqa: E402 (imports after the sys.path fix below, which must run first)
from __future__ import annotations

import sys
from pathlib import Path

# This file is bench/neo4j.py: run as a script, its folder is sys.path[0], and `import neo4j`
# (here and in ptkg.stores.neo4j_store) would import this file instead of the driver.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]

import argparse
import contextlib
import math
import os
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import neo4j
import networkx as nx

from ptkg import cypher, schema
from ptkg.build import build
from ptkg.errors import PtkgError
from ptkg.graph import graph_counts, read_graph
from ptkg.named_queries import NamedQuery, check_params, load_queries
from ptkg.stores import grand_cypher, neo4j_store
from ptkg.stores import rows as store_rows
from ptkg.stores.neo4j_store import Neo4jSettings

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO / "tests" / "data" / "corpus" / "pytorch_blog.jsonl"
START_SCRIPT = REPO / "docker" / "neo4j-start.sh"
STOP_SCRIPT = REPO / "docker" / "neo4j-stop.sh"
THROWAWAY_PASSWORD = "ptkg-bench-password"
DRIVER_ERRORS = (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError)


@dataclass
class LoadTiming:
    """One load: what it wrote, how long each phase took, and whether Neo4j's counts match."""

    name: str
    nodes: int
    relationships: int
    node_seconds: float
    relationship_seconds: float
    total_seconds: float
    transactions: int
    counts: str = ""

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.node_seconds

    @property
    def relationships_per_second(self) -> float:
        return self.relationships / self.relationship_seconds

    @property
    def rows_per_second(self) -> float:
        return (self.nodes + self.relationships) / (self.node_seconds + self.relationship_seconds)


@dataclass
class QueryTiming:
    """One named query on one backend: latencies in seconds and rows, or the error."""

    samples: list[float]
    rows: int | None = None
    error: str | None = None

    @property
    def runs(self) -> int:
        return len(self.samples)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                        help="posts in any format ptkg reads (default: %(default)s)")
    parser.add_argument("--min-relationships", type=int, default=20_000,
                        help="repeat the graph until it has this many relationships")
    parser.add_argument("--naive-copies", type=int, default=1,
                        help="copies loaded one MERGE per transaction (0: all of them)")
    parser.add_argument("--load-repeat", type=int, default=3,
                        help="rounds of both loads; the best of each is reported")
    parser.add_argument("--batch-size", type=int, default=neo4j_store.DEFAULT_BATCH_SIZE,
                        help="rows per UNWIND batch (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=20, help="timed runs of each query")
    parser.add_argument("--warmup", type=int, default=2, help="untimed runs of each query first")
    parser.add_argument("--budget", type=float, default=30.0,
                        help="seconds of timed runs per query and backend, at most")
    parser.add_argument("--wipe", action="store_true",
                        help="allow wiping ptkg's labels on a NEO4J_URI server that has some")
    return parser.parse_args(argv)


def say(message: str) -> None:
    print(f"bench/neo4j: {message}", file=sys.stderr, flush=True)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


# ---- the graph: pure functions --------------------------------------------------------------

def copies_needed(relationships: int, minimum: int) -> int:
    """How many copies of a graph with ``relationships`` reach ``minimum`` (at least one).

    Examples
    --------
    >>> copies_needed(2612, 20_000), copies_needed(2612, 0), copies_needed(5000, 20_000)
    (8, 1, 4)
    """
    if relationships < 1:
        return 1
    return max(1, math.ceil(minimum / relationships))


def replicate_graph(graph: nx.MultiDiGraph, copies: int) -> nx.MultiDiGraph:
    """``copies`` disjoint copies of ``graph``; copy ``N`` > 0 has keys suffixed ``#copy-N``.

    In copy ``N`` every node id, ``name`` and ``url``, and every entry of a relationship's
    ``sources``, gets ``#copy-N``; copy 0 is ``graph`` itself. Other attributes are shared
    values (not deep copies): do not change them in place.

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("Library:Captum", label="Library", name="Captum")
    >>> g.add_node("Post:u", label="Post", name="T", url="u")
    >>> _ = g.add_edge("Post:u", "Library:Captum", key="MENTIONS", type="MENTIONS",
    ...                sources=["u"])
    >>> two = replicate_graph(g, 2)
    >>> sorted(two.nodes)
    ['Library:Captum', 'Library:Captum#copy-1', 'Post:u', 'Post:u#copy-1']
    >>> two.nodes["Post:u#copy-1"]["url"], two.edges["Post:u#copy-1", "Library:Captum#copy-1",
    ...                                                "MENTIONS"]["sources"]
    ('u#copy-1', ['u#copy-1'])
    """
    result = nx.MultiDiGraph()
    for copy in range(max(copies, 1)):
        suffix = f"#copy-{copy}" if copy else ""
        for node, data in graph.nodes(data=True):
            props = dict(data)
            for name in ("name", "url"):
                if isinstance(props.get(name), str):
                    props[name] += suffix
            result.add_node(f"{node}{suffix}", **props)
        for start, end, key, data in graph.edges(keys=True, data=True):
            props = dict(data)
            if isinstance(props.get("sources"), list):
                props["sources"] = [f"{source}{suffix}" for source in props["sources"]]
            result.add_edge(f"{start}{suffix}", f"{end}{suffix}", key=key, **props)
    return result


def percentile(samples: list[float], q: int) -> float:
    """The ``q``-th percentile of ``samples``, linearly interpolated (inclusive method).

    Examples
    --------
    >>> percentile([1.0, 2.0, 3.0, 4.0, 5.0], 50), percentile([1.0, 2.0, 3.0, 4.0, 5.0], 95)
    (3.0, 4.8)
    """
    if len(samples) == 1:
        return samples[0]
    return statistics.quantiles(samples, n=100, method="inclusive")[q - 1]


# ---- the server -----------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def neo4j_server() -> Iterator[tuple[Neo4jSettings, bool]]:
    """The settings of ``NEO4J_URI``, else of a throwaway server started here and stopped after.

    Yields the settings and whether the server is the throwaway one.
    """
    if os.environ.get("NEO4J_URI"):
        settings = Neo4jSettings.from_env()
        say(f"using the server of NEO4J_URI: {settings.display_uri}")
        yield settings, False
        return
    folder = Path(tempfile.mkdtemp(prefix="ptkg-bench-neo4j-"))
    port = free_port()
    env = {**os.environ, "NEO4J_RUN_DIR": str(folder), "NEO4J_DATA": str(folder / "data"),
           "NEO4J_PORT": str(port), "NEO4J_PASSWORD": THROWAWAY_PASSWORD,
           "PYTHON": sys.executable}
    try:
        started = time.perf_counter()
        say(f"starting a throwaway Neo4j on 127.0.0.1:{port} in {folder}")
        if subprocess.run([str(START_SCRIPT)], env=env, check=False).returncode:
            raise SystemExit("bench/neo4j: the throwaway Neo4j did not start (see the lines "
                             "above); or set NEO4J_URI, NEO4J_USERNAME and NEO4J_PASSWORD")
        say(f"Neo4j up in {time.perf_counter() - started:.1f} s")
        yield Neo4jSettings(uri=f"bolt://127.0.0.1:{port}", user="neo4j",
                            password=THROWAWAY_PASSWORD), True
    finally:
        subprocess.run([str(STOP_SCRIPT)], env=env, check=False)
        shutil.rmtree(folder, ignore_errors=True)


# ---- loading --------------------------------------------------------------------------------

def check_counts(driver: neo4j.Driver, graph: nx.MultiDiGraph, database: str) -> str:
    """``counts match``, or the first differences between Neo4j's counts and the graph's."""
    expected_nodes, expected_rels = graph_counts(graph)
    nodes, rels = neo4j_store.count(driver, database, expected_nodes, expected_rels)
    summary = neo4j_store.LoadSummary(database, expected_nodes, expected_rels, nodes, rels)
    differences = summary.differences()
    return "counts match" if not differences else "COUNTS DIFFER: " + "; ".join(differences[:3])


def time_batched(driver: neo4j.Driver, graph: nx.MultiDiGraph, database: str,
                 batch_size: int) -> LoadTiming:
    """:func:`ptkg.stores.neo4j_store.load_graph`, with the time of its last node batch."""
    nodes, relationships = graph.number_of_nodes(), graph.number_of_edges()
    written = 0
    node_done = last = 0.0

    def progress(rows: int) -> None:
        nonlocal written, node_done, last
        written += rows
        last = time.perf_counter()
        if written <= nodes:
            node_done = last

    started = time.perf_counter()
    summary = neo4j_store.load_graph(driver, graph, database, batch_size, progress=progress)
    total = time.perf_counter() - started
    counts = "counts match" if not summary.differences() else "COUNTS DIFFER"
    return LoadTiming(f"batched `UNWIND` ({batch_size} rows per transaction)", nodes,
                      relationships, node_done - started, last - node_done, total,
                      summary.batches, counts)


def _write_one(tx: neo4j.ManagedTransaction, query: str, row: dict) -> None:
    tx.run(query, rows=[row]).consume()


def time_naive(driver: neo4j.Driver, graph: nx.MultiDiGraph, database: str) -> LoadTiming:
    """One ``execute_write`` per node and per relationship, with the loader's Cypher text."""
    node_rows = store_rows.node_rows(graph)
    relationship_rows = store_rows.relationship_rows(graph)
    neo4j_store.create_constraints(driver, node_rows, database)
    key = schema.key_property
    transactions = 0
    with driver.session(database=database) as session:
        started = time.perf_counter()
        for label, rows in node_rows.items():
            query = cypher.merge_nodes_query(label, key(label))
            for row in rows:
                session.execute_write(_write_one, query, row)
                transactions += 1
        node_done = time.perf_counter()
        for (start, rel_type, end), rows in relationship_rows.items():
            query = cypher.merge_relationships_query(start, key(start), rel_type, end,
                                                          key(end))
            for row in rows:
                session.execute_write(_write_one, query, row)
                transactions += 1
        done = time.perf_counter()
    return LoadTiming("one `MERGE` per transaction", graph.number_of_nodes(),
                      graph.number_of_edges(), node_done - started, done - node_done,
                      done - started, transactions, check_counts(driver, graph, database))


# ---- querying -------------------------------------------------------------------------------

def time_query(run: Callable[[], tuple[list[str], list[list[object]]]], warmup: int,
               repeat: int, budget: float) -> QueryTiming:
    """Run ``run`` ``warmup`` times, then time it ``repeat`` times or until the timed runs
    have taken ``budget`` seconds (at least one run); an error ends the timing."""
    try:
        for _ in range(warmup):
            run()
        samples, rows = [], None
        for _ in range(max(repeat, 1)):
            started = time.perf_counter()
            _, result = run()
            samples.append(time.perf_counter() - started)
            rows = len(result)
            if sum(samples) > budget:
                break
    except PtkgError as error:
        return QueryTiming([], error=str(error))
    return QueryTiming(samples, rows)


def time_queries(graph: nx.MultiDiGraph, driver: neo4j.Driver, database: str,
                 queries: Mapping[str, NamedQuery], warmup: int, repeat: int,
                 budget: float) -> dict[str, tuple[QueryTiming, QueryTiming]]:
    """Each named query with its example parameters: (NetworkX timing, Neo4j timing)."""
    timings = {}
    for name, query in queries.items():
        params = check_params(query, query.example_params)
        on_networkx = time_query(lambda q=query, p=params: grand_cypher.run_query(graph, q.text, p),
                                 warmup, repeat, budget)
        on_neo4j = time_query(
            lambda q=query, p=params: neo4j_store.run_query(driver, q.text, p, database),
            warmup, repeat, budget)
        timings[name] = (on_networkx, on_neo4j)
        say(f"query {name}: {format_ms(on_networkx, 50)} ms on NetworkX, "
            f"{format_ms(on_neo4j, 50)} ms on Neo4j (p50)")
    return timings


# ---- the report -----------------------------------------------------------------------------

def format_ms(timing: QueryTiming, q: int) -> str:
    return "error" if timing.error else f"{percentile(timing.samples, q) * 1000:.1f}"


def row_counts(on_networkx: int | None, on_neo4j: int | None) -> str:
    """One count when the backends agree (or one failed), else ``NetworkX / Neo4j``.

    Examples
    --------
    >>> row_counts(3, 3), row_counts(None, 3), row_counts(3, 4), row_counts(None, None)
    ('3', '3', '3 / 4', '?')
    """
    found = {count for count in (on_networkx, on_neo4j) if count is not None}
    if len(found) > 1:
        return f"{on_networkx} / {on_neo4j}"
    return str(found.pop()) if found else "?"


def load_table(batched: LoadTiming, naive: LoadTiming) -> list[str]:
    lines = ["| load | nodes | relationships | transactions | nodes/s | relationships/s | "
             "rows/s | total (s) | counts |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for run in (batched, naive):
        lines.append(f"| {run.name} | {run.nodes:,} | {run.relationships:,} | "
                     f"{run.transactions:,} | {run.nodes_per_second:,.0f} | "
                     f"{run.relationships_per_second:,.0f} | {run.rows_per_second:,.0f} | "
                     f"{run.total_seconds:.2f} | {run.counts} |")
    lines.append(f"| **ratio** (batched / one per transaction) | | | | "
                 f"**{batched.nodes_per_second / naive.nodes_per_second:.1f}×** | "
                 f"**{batched.relationships_per_second / naive.relationships_per_second:.1f}×** "
                 f"| **{batched.rows_per_second / naive.rows_per_second:.1f}×** | | |")
    return lines


def query_table(timings: Mapping[str, tuple[QueryTiming, QueryTiming]],
                repeat: int) -> list[str]:
    lines = ["| named query | rows | NetworkX p50 (ms) | NetworkX p95 (ms) | Neo4j p50 (ms) | "
             "Neo4j p95 (ms) |",
             "|---|---:|---:|---:|---:|---:|"]
    notes = []
    for name, (on_networkx, on_neo4j) in timings.items():
        rows = row_counts(on_networkx.rows, on_neo4j.rows)
        lines.append(f"| `{name}` | {rows} | {format_ms(on_networkx, 50)} | "
                     f"{format_ms(on_networkx, 95)} | {format_ms(on_neo4j, 50)} | "
                     f"{format_ms(on_neo4j, 95)} |")
        for backend, timing in (("NetworkX", on_networkx), ("Neo4j", on_neo4j)):
            if timing.error:
                notes.append(f"- `{name}` on {backend}: error: {timing.error}")
            elif timing.runs < repeat:
                notes.append(f"- `{name}` on {backend}: {timing.runs} timed runs (budget)")
    return lines + (["", *notes] if notes else [])


# ---- main -----------------------------------------------------------------------------------

@dataclass
class Results:
    """Everything one run measured, and where."""

    posts: int
    plain: nx.MultiDiGraph
    copies: int
    subset: nx.MultiDiGraph
    batched_runs: list[LoadTiming]
    naive_runs: list[LoadTiming]
    timings: dict[str, tuple[QueryTiming, QueryTiming]]
    server: str
    load_at_start: str
    load_after_loads: str


def measure(args: argparse.Namespace, driver: neo4j.Driver, database: str, server: str,
            posts: int, plain: nx.MultiDiGraph, load_at_start: str) -> Results:
    """The loads (warm-up, then interleaved rounds) and the query latencies, on ``driver``."""
    queries = load_queries()
    copies = copies_needed(plain.number_of_edges(), args.min_relationships)
    naive_copies = copies if args.naive_copies < 1 else min(args.naive_copies, copies)
    large = replicate_graph(plain, copies)
    subset = replicate_graph(plain, naive_copies)
    neo4j_store.wipe(driver, database)
    say(f"warm-up: batched load of the {copies} copies (untimed)")
    neo4j_store.load_graph(driver, large, database, args.batch_size)
    neo4j_store.wipe(driver, database)
    batched_runs, naive_runs = [], []
    for round_ in range(1, max(args.load_repeat, 1) + 1):
        say(f"round {round_}: batched load of {copies} copies, {large.number_of_nodes():,} "
            f"nodes, {large.number_of_edges():,} relationships")
        batched_runs.append(time_batched(driver, large, database, args.batch_size))
        say(f"  {batched_runs[-1].total_seconds:.1f} s, "
            f"{batched_runs[-1].rows_per_second:,.0f} rows/s; wiping")
        neo4j_store.wipe(driver, database)
        say(f"round {round_}: one MERGE per transaction, {naive_copies} copies, "
            f"{subset.number_of_nodes():,} nodes, {subset.number_of_edges():,} relationships")
        naive_runs.append(time_naive(driver, subset, database))
        say(f"  {naive_runs[-1].total_seconds:.1f} s, "
            f"{naive_runs[-1].rows_per_second:,.0f} rows/s; wiping")
        neo4j_store.wipe(driver, database)
    load_after_loads = load_average()
    neo4j_store.load_graph(driver, plain, database, args.batch_size)
    timings = time_queries(plain, driver, database, queries, args.warmup, args.repeat,
                           args.budget)
    neo4j_store.wipe(driver, database)
    return Results(posts, plain, copies, subset, batched_runs, naive_runs, timings, server,
                   load_at_start, load_after_loads)


def markdown(results: Results, args: argparse.Namespace) -> str:
    """The report: the load table, the query table, and how they were measured."""
    plain, subset, copies = results.plain, results.subset, results.copies
    batched = max(results.batched_runs, key=lambda run: run.rows_per_second)
    naive = max(results.naive_runs, key=lambda run: run.rows_per_second)
    rounds = "; ".join(f"{b.rows_per_second:,.0f} vs {n.rows_per_second:,.0f}"
                       for b, n in zip(results.batched_runs, results.naive_runs, strict=True))
    if subset.number_of_edges() == plain.number_of_edges() * copies:
        subset_note = "the same graph"
    else:
        subset_note = (f"a fixed subset, {subset.number_of_edges() // plain.number_of_edges()} "
                       f"of the {copies} copies ({subset.number_of_edges():,} relationships), "
                       "because a transaction per row takes long")
    lines = [
        f"Graph: `{args.corpus.name}` ({results.posts} posts, model `blank`): "
        f"{plain.number_of_nodes():,} nodes, {plain.number_of_edges():,} relationships; "
        f"repeated {copies} times (`#copy-N` keys) for the load.",
        "",
        *load_table(batched, naive),
        "",
        f"The batched load wrote the whole repeated graph; one `MERGE` per transaction wrote "
        f"{subset_note}. The ratio is per-row throughput. Best of {len(results.batched_runs)} "
        f"interleaved rounds, after a warm-up load; rows/s per round (batched vs one per "
        f"transaction): {rounds}. Nodes/s of the batched load include building the rows and "
        "the constraint statements; the counts are read back from Neo4j after each load.",
        "",
        *query_table(results.timings, args.repeat),
        "",
        f"Each query with its header's example parameters on the plain corpus graph: "
        f"{args.warmup} untimed runs, then {args.repeat} timed (at most {args.budget:g} s of "
        "them); wall time per call (`ptkg.cypher.run_query` on NetworkX, "
        "`ptkg.stores.neo4j_store.run_query` over Bolt on 127.0.0.1), parsing and row conversion "
        "included.",
        "",
        f"Neo4j: {results.server}, on the same machine; batch size {args.batch_size}. "
        f"{os.cpu_count()} CPUs; load average (1, 5, 15 min) {results.load_at_start} at the "
        f"start, {results.load_after_loads} after the loads, {load_average()} at the end; "
        f"Python {sys.version.split()[0]}, neo4j driver {neo4j.__version__}.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the server on TERM too
    load_at_start = load_average()
    with tempfile.TemporaryDirectory(prefix="ptkg-bench-") as folder:
        graph_file = Path(folder) / "graph.json"
        started = time.perf_counter()
        summary = build([args.corpus], graph_file, model="blank", cache=False)
        plain = read_graph(graph_file)
    say(f"built the graph of {summary.posts} posts in {time.perf_counter() - started:.1f} s: "
        f"{plain.number_of_nodes():,} nodes, {plain.number_of_edges():,} relationships")
    try:
        with neo4j_server() as (settings, throwaway), neo4j_store.connect(settings) as driver:
            existing, _ = neo4j_store.count(driver, settings.database)
            if not throwaway and any(existing.values()) and not args.wipe:
                say(f"{settings.display_uri} already holds {sum(existing.values()):,} nodes "
                    "with ptkg's labels, which this benchmark wipes: rerun with --wipe, or "
                    "set another NEO4J_DATABASE")
                return 1
            where = ("a throwaway server started by this script" if throwaway
                     else settings.display_uri)
            server = f"{driver.get_server_info().agent} ({where})"
            results = measure(args, driver, settings.database, server, summary.posts, plain,
                              load_at_start)
    except (PtkgError, *DRIVER_ERRORS) as error:
        say(f"failed: {error}")
        return 1
    print(markdown(results, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
