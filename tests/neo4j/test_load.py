"""Loading a graph into a real Neo4j: counts, idempotence, provenance, wipe (issue 3).

The graph is the hand-made one (``tests/data/graph.json``, see ``tests/data/handmade.py``).
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ptkg.cli import main
from ptkg.cypher import constraint_name
from ptkg.errors import StoreError
from ptkg.graph import graph_counts, graph_to_dict, node_id, write_graph
from ptkg.schema import LABELS, key_property
from ptkg.stores.neo4j_store import count, fetch_graph, load_graph, wipe

URL_18 = "https://pytorch.org/blog/pytorch-1.8-released/"


def run(*args: str, catch: bool = True):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch)


def neo4j_counts(driver, settings, graph) -> tuple[dict[str, int], dict[str, int]]:
    """Nodes per label and relationships per type in Neo4j, for ptkg's labels and the graph's
    types, zero counts left out (so they compare with :func:`graph_counts`)."""
    labels, types = graph_counts(graph)
    nodes, rels = count(driver, settings.database, set(LABELS) | set(labels), types)
    return ({k: v for k, v in nodes.items() if v}, {k: v for k, v in rels.items() if v})


def relationship_dump(driver, settings) -> list[tuple]:
    """Every relationship with its ends' keys and all its properties, read back with a query."""
    records, _, _ = driver.execute_query(
        "MATCH (a)-[r]->(b) RETURN a.label AS a, coalesce(a.url, a.name) AS ka, type(r) AS t, "
        "b.label AS b, coalesce(b.url, b.name) AS kb, properties(r) AS props",
        database_=settings.database)
    return sorted((r["a"], r["ka"], r["t"], r["b"], r["kb"], sorted(r["props"].items()))
                  for r in records)


@pytest.mark.parametrize("batch_size", [7, 1000])
def test_load_counts_equal_the_graph(neo4j_clean, neo4j_settings, handmade_graph, batch_size):
    summary = load_graph(neo4j_clean, handmade_graph, neo4j_settings.database, batch_size)
    expected_nodes, expected_rels = graph_counts(handmade_graph)
    assert neo4j_counts(neo4j_clean, neo4j_settings, handmade_graph) == (expected_nodes,
                                                                         expected_rels)
    assert (summary.nodes, summary.relationships) == (expected_nodes, expected_rels)
    assert summary.differences() == []
    assert summary.rows == handmade_graph.number_of_nodes() + handmade_graph.number_of_edges()
    groups = len(expected_nodes) + len({(handmade_graph.nodes[u]["label"], k,
                                         handmade_graph.nodes[v]["label"])
                                        for u, v, k in handmade_graph.edges(keys=True)})
    assert summary.batches >= groups
    assert summary.batches > groups if batch_size == 7 else summary.batches == groups


@pytest.mark.parametrize("batch_size", [50])
def test_load_round_trips_the_graph(neo4j_clean, neo4j_settings, handmade_graph, batch_size):
    """Every node and relationship property reads back as in the graph (offsets as pairs)."""
    load_graph(neo4j_clean, handmade_graph, neo4j_settings.database, batch_size)
    fetched = fetch_graph(neo4j_clean, neo4j_settings.database)
    assert graph_to_dict(fetched) == graph_to_dict(handmade_graph)


@pytest.mark.parametrize("batch_size", [25, 1000])
def test_load_twice_gives_identical_counts_and_properties(neo4j_clean, neo4j_settings,
                                                          handmade_graph, batch_size):
    load_graph(neo4j_clean, handmade_graph, neo4j_settings.database, batch_size)
    counts_once = neo4j_counts(neo4j_clean, neo4j_settings, handmade_graph)
    dump_once = relationship_dump(neo4j_clean, neo4j_settings)
    load_graph(neo4j_clean, handmade_graph, neo4j_settings.database, batch_size)
    assert neo4j_counts(neo4j_clean, neo4j_settings, handmade_graph) == counts_once
    assert relationship_dump(neo4j_clean, neo4j_settings) == dump_once
    assert counts_once == graph_counts(handmade_graph)


@pytest.mark.parametrize("rel", [("Release:PyTorch 1.8", "Feature:torch.fx", "INTRODUCES")])
def test_load_provenance_lists_read_back_equal_the_graph(neo4j_clean, neo4j_settings,
                                                         handmade_graph, rel):
    load_graph(neo4j_clean, handmade_graph, neo4j_settings.database)
    records, _, _ = neo4j_clean.execute_query(
        "MATCH (a)-[r]->(b) WHERE r.sources IS NOT NULL "
        "RETURN a.label AS a, coalesce(a.url, a.name) AS ka, type(r) AS t, b.label AS b, "
        "coalesce(b.url, b.name) AS kb, r.sources AS sources, r.evidence AS evidence, "
        "r.rules AS rules, r.count AS count, r.offsets AS offsets",
        database_=neo4j_settings.database)
    read_back = {(node_id(r["a"], r["ka"]), node_id(r["b"], r["kb"]), r["t"]):
                 (r["sources"], r["evidence"], r["rules"], r["count"], r["offsets"])
                 for r in records}
    expected = {(u, v, k): (d["sources"], d["evidence"], d["rules"], d["count"],
                            [x for pair in d["offsets"] for x in (pair or [-1, -1])])
                for u, v, k, d in handmade_graph.edges(keys=True, data=True) if "sources" in d}
    assert read_back == expected
    assert URL_18 in read_back[rel][0]
    assert len(read_back[rel][0]) == len(read_back[rel][1]) == read_back[rel][3]


@pytest.mark.parametrize("rel", [("Release:PyTorch 1.8", "Feature:torch.fx", "INTRODUCES")])
def test_load_replaces_relationship_properties(neo4j_clean, neo4j_settings, handmade_graph, rel):
    """A second load SETs the graph's lists: it does not append to what is there."""
    load_graph(neo4j_clean, handmade_graph, neo4j_settings.database)
    data = handmade_graph.edges[rel]
    data.update(sources=data["sources"][:1], evidence=["changed"], offsets=[None], count=1)
    data.pop("stability", None)
    load_graph(neo4j_clean, handmade_graph, neo4j_settings.database)
    records, _, _ = neo4j_clean.execute_query(
        "MATCH (:Release {name: $a})-[r:INTRODUCES]->(:Feature {name: $b}) RETURN properties(r) "
        "AS props", a="PyTorch 1.8", b="torch.fx", database_=neo4j_settings.database)
    assert [r["props"] for r in records] == [{
        "count": 1, "evidence": ["changed"], "offsets": [-1, -1], "rules": data["rules"],
        "sources": data["sources"], "type": "INTRODUCES"}]


@pytest.mark.parametrize("label", sorted(LABELS))
def test_load_creates_a_uniqueness_constraint_per_label(neo4j_clean, neo4j_settings,
                                                         handmade_graph, label):
    load_graph(neo4j_clean, handmade_graph, neo4j_settings.database)
    records, _, _ = neo4j_clean.execute_query(
        "SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties",
        database_=neo4j_settings.database)
    constraints = {r["name"]: (r["type"], r["labelsOrTypes"], r["properties"]) for r in records}
    assert constraints[constraint_name(label, key_property(label))] == (
        "UNIQUENESS", [label], [key_property(label)])


@pytest.mark.parametrize("other", ["(:Other {name: 'keep'})-[:LINKS]->(:Other {name: 'too'})"])
def test_wipe_removes_ptkg_data_only(neo4j_clean, neo4j_settings, handmade_graph, other):
    load_graph(neo4j_clean, handmade_graph, neo4j_settings.database)
    neo4j_clean.execute_query(f"CREATE {other}", database_=neo4j_settings.database)
    deleted = wipe(neo4j_clean, neo4j_settings.database, batch_size=50)
    assert deleted == handmade_graph.number_of_nodes()
    assert neo4j_counts(neo4j_clean, neo4j_settings, handmade_graph) == ({}, {})
    records, _, _ = neo4j_clean.execute_query(
        "MATCH (n) OPTIONAL MATCH (n)-[r]->() RETURN labels(n) AS labels, n.name AS name, "
        "type(r) AS type", database_=neo4j_settings.database)
    assert sorted((r["labels"], r["name"], r["type"]) for r in records) == [
        (["Other"], "keep", "LINKS"), (["Other"], "too", None)]


@pytest.mark.parametrize("extra", [("Feature:only in the old graph", "Feature",
                                    "only in the old graph")])
def test_cli_load_wipe_clears_an_older_load(neo4j_clean, neo4j_settings, handmade_graph, tmp_path,
                                            extra):
    """Without --wipe, data of an older graph makes the count check fail; --wipe fixes it."""
    older = handmade_graph.copy()
    older.add_node(extra[0], label=extra[1], name=extra[2], aliases=[], mentions=1)
    load_graph(neo4j_clean, older, neo4j_settings.database)
    write_graph(handmade_graph, tmp_path / "graph.json")

    stale = run("neo4j", "load", "--graph", tmp_path / "graph.json")
    assert stale.exit_code == 1
    features = graph_counts(handmade_graph)[0]["Feature"]
    assert stale.output.splitlines() == [
        "Error: loaded, but the counts in Neo4j differ from the graph's (Feature: "
        f"{graph_counts(older)[0]['Feature']} in Neo4j, {features} in the graph): data of an "
        "earlier load? load again with --wipe"]

    result = run("neo4j", "load", "--graph", tmp_path / "graph.json", "--wipe", catch=False)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == (
        f"wiped {older.number_of_nodes()} ptkg nodes from {neo4j_settings.display_uri} "
        f"(database {neo4j_settings.database})")
    assert neo4j_counts(neo4j_clean, neo4j_settings, handmade_graph) == graph_counts(handmade_graph)


@pytest.mark.parametrize("batch_size", ["10"])
def test_cli_load_prints_the_summary_and_counts(neo4j_clean, neo4j_settings, handmade_graph,
                                                handmade_graph_file, batch_size):
    result = run("neo4j", "load", "--graph", handmade_graph_file, "--batch-size", batch_size,
                 catch=False)
    assert result.exit_code == 0, result.output
    nodes, rels = graph_counts(handmade_graph)
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith(
        f"loaded {handmade_graph_file} into {neo4j_settings.display_uri} (database "
        f"{neo4j_settings.database}): {sum(nodes.values())} nodes, {sum(rels.values())} "
        "relationships in ")
    assert lines[0].endswith("s; the counts in Neo4j match the graph")
    assert lines[1:] == ["nodes: " + ", ".join(f"{k} {v}" for k, v in nodes.items()),
                         "edges: " + ", ".join(f"{k} {v}" for k, v in rels.items())]
    assert result.stderr == ""  # no progress bar when stderr is not a terminal


@pytest.mark.parametrize("value", [[[1, 2]], {"a": 1}])
def test_load_rejects_a_property_neo4j_cannot_store(neo4j_clean, neo4j_settings, handmade_graph,
                                                    value):
    handmade_graph.nodes["Feature:torch.fx"]["odd"] = value
    with pytest.raises(StoreError, match=r"^node 'Feature:torch.fx': Neo4j cannot store "
                                         r"property 'odd'"):
        load_graph(neo4j_clean, handmade_graph, neo4j_settings.database)
