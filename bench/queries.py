"""Benchmark: every named query with the graph loaded once, at 1x, 3x and 30x the corpus, on
the embedded store (the compiled executor, and grand-cypher as it ran before) and on Neo4j, in
one run; and ``ptkg query`` as a whole process.

Run from the repo root::

    .venv/bin/python bench/queries.py [--graph PATH | --corpus PATH --model M --jobs N]
                                      [--scales 1,3,30] [--repeat 20] [--warmup 2]
                                      [--budget 10] [--before-budget 20] [--process-runs 7]
                                      [--no-neo4j] [--no-before] [--wipe]

The graph: ``--graph``, else ``tests/data/corpus/pytorch_blog.jsonl`` built as ``ptkg build
... --jobs 2`` does (``--model en_core_web_sm``, no cache). Scale ``k`` is that graph repeated
``k`` times with distinct names (``replicate_graph`` of ``bench/neo4j.py``: copy N's ids, names,
urls and sources get ``#copy-N``); copy 0 keeps the real names, so each query runs with its
header's example parameters and scans grow with the graph.

Per scale and named query (``--warmup`` untimed runs, then ``--repeat`` timed, fewer past
``--budget`` seconds; p50 and p95 interpolated as in ``bench/neo4j.py``):

- **ptkg** — :func:`ptkg.named_queries.run_named_query` on a ``GraphFileStore`` holding the graph
  (what the Python API and ``ptkg mcp`` do): names resolved, then the compiled executor
  (:mod:`ptkg.stores.compiled`); the first call's index building is in the warm-up;
- **before** — grand-cypher itself (:func:`ptkg.stores.grand_cypher.run_on_grand_cypher`), as
  every query ran before the compiled executor (``--before-budget`` seconds per query; each
  query in a forked child stopped after ``--before-timeout`` seconds, shown as ``> 60 s``);
- **Neo4j** — the same call on a ``Neo4jStore`` after loading the same graph (read-only path,
  real parameters, Bolt on 127.0.0.1). Without ``NEO4J_URI`` a throwaway Neo4j 5.26 is started
  with ``docker/neo4j-start.sh`` (as ``bench/neo4j.py`` does) and stopped at the end.

Whole process: ``ptkg query --graph FILE CYPHER`` and ``ptkg queries run NAME``, each
``--process-runs`` times, median and max wall time, at every scale, with ``PTKG_ENGINE`` unset
(the compiled executor) and ``PTKG_ENGINE=grand-cypher`` (before). Reading the graph file is
timed apart. Markdown tables go to stdout, progress to stderr. A benchmark, not a test: it
checks nothing and never fails on a timing.
"""

# ruff: noqa: E402 (imports after the sys.path fix below, which must run first)
from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]

import argparse
import importlib.util
import os
import signal
import statistics
import subprocess
import tempfile
import time

import networkx as nx

from ptkg.build import build
from ptkg.graph import read_graph, write_graph
from ptkg.named_queries import check_params, load_queries, run_named_query
from ptkg.stores.grand_cypher import clear_query_cache, run_on_grand_cypher
from ptkg.stores.networkx_store import GraphFileStore

REPO = _HERE.parent
DEFAULT_CORPUS = REPO / "tests" / "data" / "corpus" / "pytorch_blog.jsonl"
PROCESS_QUERY = ('MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) WHERE r.name = "PyTorch 1.8" '
                 "RETURN f.name AS feature, i.stability AS stability ORDER BY feature")
PROCESS_NAMED = ["features-by-release", "neighbors", "top-mentioned", "posts-about"]


def _bench_neo4j():
    """bench/neo4j.py as a module (its replicate_graph, percentile, time_query, server)."""
    spec = importlib.util.spec_from_file_location("ptkg_bench_neo4j", _HERE / "neo4j.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


B = _bench_neo4j()


def say(message: str) -> None:
    print(f"bench/queries: {message}", file=sys.stderr, flush=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graph", type=Path, help="a graph file (default: build --corpus)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--model", default="en_core_web_sm")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--scales", default="1,3,30",
                        help="copies of the graph, comma-separated (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--budget", type=float, default=10.0,
                        help="seconds of timed runs per query, scale and store, at most")
    parser.add_argument("--before-budget", type=float, default=20.0,
                        help="the same for grand-cypher (before)")
    parser.add_argument("--before-timeout", type=float, default=60.0,
                        help="stop a grand-cypher query after this many seconds")
    parser.add_argument("--process-runs", type=int, default=7)
    parser.add_argument("--no-neo4j", action="store_true")
    parser.add_argument("--no-before", action="store_true")
    parser.add_argument("--wipe", action="store_true",
                        help="allow wiping ptkg's labels on a NEO4J_URI server that has some")
    return parser.parse_args(argv)


def base_graph(args: argparse.Namespace, folder: Path) -> tuple[nx.MultiDiGraph, str]:
    if args.graph:
        return read_graph(args.graph), str(args.graph)
    path = folder / "corpus.json"
    say(f"building {args.corpus.name} (model {args.model}, jobs {args.jobs})")
    build([args.corpus], path, model=args.model, jobs=args.jobs, cache=False)
    return read_graph(path), f"{args.corpus.name}, model {args.model}"


def time_store(store, queries, args, budget: float) -> dict:
    timings = {}
    for name, query in queries.items():
        params = check_params(query, query.example_params)
        timings[name] = B.time_query(lambda q=query, p=params: run_named_query(store, q, p),
                                     args.warmup, args.repeat, budget)
    return timings


def _before_child(connection, graph, query, params, args) -> None:
    timing = B.time_query(lambda: run_on_grand_cypher(graph, query.text, params),
                          1 if args.warmup else 0, args.repeat, args.before_budget)
    connection.send((timing.samples, timing.rows, timing.error))
    connection.close()


def time_before(graph, queries, args) -> dict:
    """grand-cypher's timings, each query in a forked child that is stopped after
    ``--before-timeout`` seconds (one run of a scan on grand-cypher can take minutes)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    timings = {}
    for name, query in queries.items():
        params = check_params(query, query.example_params)
        receive, send = context.Pipe(duplex=False)
        child = context.Process(target=_before_child, args=(send, graph, query, params, args))
        child.start()
        send.close()
        if receive.poll(args.before_timeout):
            samples, rows, error = receive.recv()
            timings[name] = B.QueryTiming(samples, rows, error)
        else:
            timings[name] = B.QueryTiming([], error=f"> {args.before_timeout:g} s")
        child.terminate()
        child.join()
        say(f"  before {name}: {B.format_ms(timings[name], 50)} ms")
    return timings


def process_times(graph_file: Path, args, engine: str | None) -> dict[str, list[float]]:
    """Wall times of whole ``ptkg`` processes; a run past ``--before-timeout`` counts as that."""
    env = {k: v for k, v in os.environ.items() if k != "PTKG_ENGINE"}
    if engine:
        env["PTKG_ENGINE"] = engine
    ptkg = str(Path(sys.executable).parent / "ptkg")
    commands: dict[str, list[str]] = {
        "ptkg query": [ptkg, "query", "--graph", str(graph_file), PROCESS_QUERY]}
    queries = load_queries()
    for name in PROCESS_NAMED:
        args_ = [f"{p.name}={p.example}" for p in queries[name].params]
        commands[f"ptkg queries run {name}"] = [
            ptkg, "queries", "run", name, "--graph", str(graph_file),
            *[x for a in args_ for x in ("--param", a)]]
    found = {}
    for label, command in commands.items():
        runs = []
        for _ in range(args.process_runs):
            started = time.perf_counter()
            try:
                subprocess.run(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, check=True,
                               timeout=args.before_timeout)
            except subprocess.TimeoutExpired:
                runs.append(float("inf"))
                break
            runs.append(time.perf_counter() - started)
        found[label] = runs
    return found


def measure_scale(copies: int, plain: nx.MultiDiGraph, queries, args, driver, settings,
                  folder: Path) -> dict:
    graph = B.replicate_graph(plain, copies)
    say(f"scale {copies}x: {graph.number_of_nodes():,} nodes, {graph.number_of_edges():,} edges")
    graph_file = folder / f"graph-{copies}x.json"
    write_graph(graph, graph_file)
    started = time.perf_counter()
    read_graph(graph_file)
    read_seconds = time.perf_counter() - started
    clear_query_cache()
    store = GraphFileStore(graph=graph)
    started = time.perf_counter()
    first = queries["features-by-release"]
    run_named_query(store, first, first.example_params)
    first_call = time.perf_counter() - started
    ptkg = time_store(store, queries, args, args.budget)
    say(f"  ptkg: slowest p50 {max(B.percentile(t.samples, 50) for t in ptkg.values()) * 1e3:.1f}"
        " ms")
    before = {} if args.no_before else time_before(graph, queries, args)
    neo4j = {}
    if driver is not None:
        from ptkg.stores import neo4j_store

        neo4j_store.wipe(driver, settings.database)
        started = time.perf_counter()
        neo4j_store.load_graph(driver, graph, settings.database, 1000)
        say(f"  loaded into Neo4j in {time.perf_counter() - started:.1f} s")
        with neo4j_store.Neo4jStore(settings) as server:
            neo4j = time_store(server, queries, args, args.budget)
        neo4j_store.wipe(driver, settings.database)
    processes = {"ptkg": process_times(graph_file, args, None)}
    if not args.no_before:
        processes["before"] = process_times(graph_file, args, "grand-cypher")
    return {"copies": copies, "nodes": graph.number_of_nodes(), "edges": graph.number_of_edges(),
            "posts": sum(1 for _, d in graph.nodes(data=True) if d.get("label") == "Post"),
            "size": graph_file.stat().st_size, "read": read_seconds, "first_call": first_call,
            "ptkg": ptkg, "before": before, "neo4j": neo4j, "processes": processes}


def ms(timing, q: int = 50) -> str:
    if timing is None:
        return "—"
    if timing.error and timing.error.startswith(">"):
        return timing.error
    return B.format_ms(timing, q)


def p50(timing) -> float:
    return B.percentile(timing.samples, 50) if timing and timing.samples else float("nan")


def query_table(scale: dict, queries) -> list[str]:
    lines = [f"**{scale['copies']}x** ({scale['posts']:,} posts, {scale['nodes']:,} nodes, "
             f"{scale['edges']:,} relationships):", "",
             "| named query | rows | ptkg p50 (ms) | ptkg p95 (ms) | before p50 (ms) | "
             "Neo4j p50 (ms) | Neo4j p95 (ms) | before / ptkg | Neo4j / ptkg |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name in queries:
        mine = scale["ptkg"][name]
        before = scale["before"].get(name)
        neo4j = scale["neo4j"].get(name)
        rows = B.row_counts(mine.rows, neo4j.rows if neo4j else None)
        speedup = f"{p50(before) / p50(mine):.0f}×" if before and before.samples else "—"
        ratio = f"{p50(neo4j) / p50(mine):.2f}" if neo4j and neo4j.samples else "—"
        runs = f" ({before.runs} runs)" if before and 0 < before.runs < 3 else ""
        lines.append(f"| `{name}` | {rows} | {ms(mine)} | {ms(mine, 95)} | {ms(before)}{runs} | "
                     f"{ms(neo4j)} | {ms(neo4j, 95)} | {speedup} | {ratio} |")
    worst = max(queries, key=lambda n: p50(scale["ptkg"][n]))
    lines += ["", f"slowest on ptkg: `{worst}` {ms(scale['ptkg'][worst])} ms p50; reading the "
              f"graph file ({scale['size'] / 1e6:.1f} MB) {scale['read']:.2f} s; first named "
              f"query after loading (indexes built) {scale['first_call'] * 1e3:.0f} ms."]
    return lines


def secs(value: float) -> str:
    return "timed out" if value == float("inf") else f"{value:.2f}"


def process_table(scales: list[dict]) -> list[str]:
    lines = ["| command | scale | ptkg median (s) | ptkg max (s) | before median (s) | "
             "before max (s) |", "|---|---:|---:|---:|---:|---:|"]
    for scale in scales:
        mine = scale["processes"]["ptkg"]
        before = scale["processes"].get("before", {})
        for label, runs in mine.items():
            old = before.get(label)
            lines.append(f"| `{label}` | {scale['copies']}x | {secs(statistics.median(runs))} | "
                         f"{secs(max(runs))} | "
                         f"{secs(statistics.median(old)) if old else '—'} | "
                         f"{secs(max(old)) if old else '—'} |")
    return lines


def crossover(scales: list[dict], queries) -> list[str]:
    lines = ["| scale | ptkg slowest p50 (ms) | ptkg median p50 (ms) | Neo4j slowest p50 (ms) | "
             "Neo4j median p50 (ms) | queries faster on Neo4j |", "|---:|---:|---:|---:|---:|---|"]
    for scale in scales:
        mine = [p50(scale["ptkg"][n]) * 1e3 for n in queries]
        neo = [p50(scale["neo4j"][n]) * 1e3 for n in queries if n in scale["neo4j"]]
        faster = [n for n in queries if n in scale["neo4j"]
                  and p50(scale["neo4j"][n]) < p50(scale["ptkg"][n])]
        lines.append(f"| {scale['copies']}x | {max(mine):.1f} | {statistics.median(mine):.1f} | "
                     f"{max(neo) if neo else float('nan'):.1f} | "
                     f"{statistics.median(neo) if neo else float('nan'):.1f} | "
                     f"{len(faster)} of {len(queries)}"
                     f"{': ' + ', '.join(f'`{n}`' for n in faster) if faster else ''} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the server on TERM too
    scales_wanted = [int(s) for s in args.scales.split(",") if s.strip()]
    queries = load_queries()
    load_at_start = B.load_average()
    with tempfile.TemporaryDirectory(prefix="ptkg-bench-queries-") as name:
        folder = Path(name)
        plain, source = base_graph(args, folder)
        say(f"graph {source}: {plain.number_of_nodes():,} nodes, {plain.number_of_edges():,} edges")
        results = []
        server_name = "not measured (--no-neo4j)"
        if args.no_neo4j:
            for copies in scales_wanted:
                results.append(measure_scale(copies, plain, queries, args, None, None, folder))
        else:
            from ptkg.stores import neo4j_store

            with B.neo4j_server() as (settings, throwaway), \
                    neo4j_store.connect(settings) as driver:
                existing, _ = neo4j_store.count(driver, settings.database)
                if not throwaway and any(existing.values()) and not args.wipe:
                    say("the NEO4J_URI server holds ptkg nodes, which this benchmark wipes: "
                        "rerun with --wipe, or unset NEO4J_URI for a throwaway server")
                    return 1
                server_name = driver.get_server_info().agent + (
                    " (throwaway, same machine)" if throwaway else f" ({settings.display_uri})")
                for copies in scales_wanted:
                    results.append(measure_scale(copies, plain, queries, args, driver, settings,
                                                 folder))
    out = [f"Graph: {source}, {plain.number_of_nodes():,} nodes, {plain.number_of_edges():,} "
           f"relationships; scales {', '.join(f'{s}x' for s in scales_wanted)}; Neo4j: "
           f"{server_name}.", ""]
    for scale in results:
        out += query_table(scale, queries) + [""]
    out += ["Crossover (p50 of each named query, graph loaded once):", "",
            *crossover(results, queries), "", "Whole process:", "", *process_table(results), "",
            f"{args.warmup} untimed runs, then up to {args.repeat} timed per query and store "
            f"(at most {args.budget:g} s; before: {args.before_budget:g} s); {os.cpu_count()} "
            f"CPUs; load average {load_at_start} at the start, {B.load_average()} at the end; "
            f"Python {sys.version.split()[0]}."]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
