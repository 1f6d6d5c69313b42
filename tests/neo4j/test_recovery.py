"""A load interrupted by killing Neo4j mid-way completes after a restart (issue 3, part 7)."""

from __future__ import annotations

import subprocess
import sys

import networkx as nx
import pytest

from ptkg.graph import graph_counts, graph_to_dict, node_id, write_graph
from ptkg.schema import key_property
from ptkg.stores.neo4j_store import connect, count, fetch_graph, load_graph

# Loads the graph file argv[1] in batches of argv[2] rows, printing the rows written so far after
# each batch; the driver gives up after 1 s of retries (default 30 s), so a dead server ends it.
LOADER = """
import sys
from ptkg.errors import StoreError
from ptkg.graph import read_graph
from ptkg.stores.neo4j_store import Neo4jSettings, connect, load_graph

graph = read_graph(sys.argv[1])
settings = Neo4jSettings.from_env()
written = 0


def progress(rows):
    global written
    written += rows
    print(written, flush=True)


try:
    with connect(settings, max_transaction_retry_time=1.0, connection_timeout=5.0) as driver:
        load_graph(driver, graph, settings.database, int(sys.argv[2]), progress=progress)
except StoreError as error:
    print(f"error: {error}", file=sys.stderr)
    sys.exit(1)
print("done", flush=True)
"""


def repeated_graph(graph: nx.MultiDiGraph, copies: int) -> nx.MultiDiGraph:
    """``copies`` disjoint copies of ``graph``, each name (and Post url) suffixed ``#k``."""
    big = nx.MultiDiGraph()
    for copy in range(copies):
        ids = {}
        for node, data in sorted(graph.nodes(data=True)):
            data = dict(data)
            data["name"] = f"{data['name']} #{copy}"
            if data["label"] == "Post":
                data["url"] = f"{data['url']}#{copy}"
            ids[node] = node_id(data["label"], data[key_property(data["label"])])
            big.add_node(ids[node], **data)
        for start, end, key, data in sorted(graph.edges(keys=True, data=True)):
            big.add_edge(ids[start], ids[end], key=key, **data)
    return big


def neo4j_counts(driver, settings, graph) -> tuple[dict[str, int], dict[str, int]]:
    return count(driver, settings.database, *graph_counts(graph))


@pytest.mark.parametrize(("copies", "batch_size"), [(60, 50)])
def test_issue3_load_killed_midway_completes_after_restart(neo4j_server, neo4j_settings,
                                                           handmade_graph, tmp_path, copies,
                                                           batch_size):
    """issue 3: kill Neo4j during a load, restart it, load again: the counts of a clean load."""
    big = repeated_graph(handmade_graph, copies)
    total = big.number_of_nodes() + big.number_of_edges()
    assert big.number_of_edges() >= 5000
    path = tmp_path / "big.json"
    write_graph(big, path)
    with connect(neo4j_settings) as driver:
        driver.execute_query("MATCH (n) DETACH DELETE n", database_=neo4j_settings.database)

    loader = subprocess.Popen([sys.executable, "-c", LOADER, str(path), str(batch_size)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        killed_at = None
        for line in loader.stdout:
            if line.strip().isdigit() and int(line) >= total // 2:  # in the relationships
                neo4j_server.kill()
                killed_at = int(line)
                break
        out, err = loader.communicate(timeout=120)
    finally:
        if loader.poll() is None:
            loader.kill()
            loader.communicate()
    assert killed_at is not None, "the load ended before it was half done"
    assert "done" not in out.split(), "the load finished before the kill took effect"
    assert loader.returncode == 1
    assert err.splitlines()[-1].startswith(  # before it: the driver's retry warnings
        f"error: cannot reach Neo4j at {neo4j_settings.display_uri} "), err
    assert "Traceback" not in err

    neo4j_server.start()
    with connect(neo4j_settings) as driver:
        nodes, rels = neo4j_counts(driver, neo4j_settings, big)
        assert killed_at <= sum(nodes.values()) + sum(rels.values()) < total  # a partial load

        recovered = load_graph(driver, big, neo4j_settings.database, batch_size=1000)
        # A clean load gives the graph's counts and properties (test_load.py): so must this one.
        assert recovered.differences() == []
        assert (recovered.nodes, recovered.relationships) == graph_counts(big)
        assert graph_to_dict(fetch_graph(driver, neo4j_settings.database)) == graph_to_dict(big)
