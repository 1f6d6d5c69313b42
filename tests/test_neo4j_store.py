"""The Neo4j store without a server: settings, rows, pinned Cypher text, errors (issue 3).

Tests against a real server are in ``tests/neo4j/``.
"""

from __future__ import annotations

import subprocess
import sys

import networkx as nx
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from ptkg.cli import main
from ptkg.cypher import (
    count_nodes_query,
    count_relationships_query,
    create_constraint_query,
    fetch_nodes_query,
    fetch_relationships_query,
    merge_nodes_query,
    merge_relationships_query,
    orders_rows,
    quote_name,
    wipe_query,
)
from ptkg.errors import StoreError
from ptkg.graph import graph_counts
from ptkg.schema import LABELS
from ptkg.stores.neo4j_store import Neo4jSettings, connect, safe_uri, syntax_message
from ptkg.stores.rows import (
    batched,
    flatten_offsets,
    node_rows,
    relationship_rows,
    unflatten_offsets,
)

SECRET = "s3cret-Pa55word"
UNREACHABLE = "bolt://127.0.0.1:1"


# --------------------------------------------------------------------------- Cypher text


@pytest.mark.parametrize(("built", "text"), [
    (create_constraint_query("Post", "url"),
     "CREATE CONSTRAINT ptkg_Post_url IF NOT EXISTS FOR (n:Post) REQUIRE n.url IS UNIQUE"),
    (create_constraint_query("Feature", "name"),
     "CREATE CONSTRAINT ptkg_Feature_name IF NOT EXISTS FOR (n:Feature) REQUIRE n.name IS UNIQUE"),
    (create_constraint_query("Odd Label", "name"),
     "CREATE CONSTRAINT ptkg_Odd_Label_name IF NOT EXISTS FOR (n:`Odd Label`) "
     "REQUIRE n.name IS UNIQUE"),
    (merge_nodes_query("Post", "url"),
     "UNWIND $rows AS row MERGE (n:Post {url: row.key}) SET n = row.props"),
    (merge_relationships_query("Release", "name", "INTRODUCES", "Feature", "name"),
     "UNWIND $rows AS row MATCH (a:Release {name: row.start}) MATCH (b:Feature {name: row.end}) "
     "MERGE (a)-[r:INTRODUCES]->(b) SET r = row.props"),
    (merge_relationships_query("Post", "url", "MENTIONS", "Hardware", "name"),
     "UNWIND $rows AS row MATCH (a:Post {url: row.start}) MATCH (b:Hardware {name: row.end}) "
     "MERGE (a)-[r:MENTIONS]->(b) SET r = row.props"),
    (wipe_query("Release"),
     "MATCH (n:Release) WITH n LIMIT $limit DETACH DELETE n RETURN count(*) AS deleted"),
    (count_nodes_query("Model"), "MATCH (n:Model) RETURN count(n) AS count"),
    (count_relationships_query("SUPPORTS"), "MATCH ()-[r:SUPPORTS]->() RETURN count(r) AS count"),
    (fetch_nodes_query(), "MATCH (n) WHERE any(label IN labels(n) WHERE label IN $labels) "
                          "RETURN labels(n) AS labels, properties(n) AS props"),
    (fetch_relationships_query(),
     "MATCH (a)-[r]->(b) WHERE any(label IN labels(a) WHERE label IN $labels) "
     "AND any(label IN labels(b) WHERE label IN $labels) "
     "RETURN labels(a) AS start_labels, properties(a) AS start, type(r) AS type, "
     "properties(r) AS props, labels(b) AS end_labels, properties(b) AS end"),
], ids=["constraint-post", "constraint-feature", "constraint-quoted", "merge-nodes",
        "merge-relationships", "merge-relationships-from-post", "wipe", "count-nodes",
        "count-relationships", "fetch-nodes", "fetch-relationships"])
def test_cypher_builder_text(built, text):
    assert built == text


@pytest.mark.parametrize(("name", "quoted"), [
    ("Release", "Release"), ("HAS_RELEASE", "HAS_RELEASE"), ("a b", "`a b`"),
    ("x`) DETACH DELETE (n", "`x``) DETACH DELETE (n`"), ("1abc", "`1abc`"),
])
def test_quote_name_cannot_be_broken_out_of(name, quoted):
    assert quote_name(name) == quoted


# --------------------------------------------------------------------------- rows


def test_node_rows_use_the_schema_keys(sample_graph):
    rows = node_rows(sample_graph)
    assert sorted(rows) == sorted(graph_counts(sample_graph)[0])
    assert set(rows) <= set(LABELS)
    for label, label_rows in rows.items():
        key = "url" if label == "Post" else "name"
        assert [row["key"] for row in label_rows] == sorted(row["key"] for row in label_rows)
        assert all(row["props"][key] == row["key"] for row in label_rows)
        assert all(row["props"]["label"] == label for row in label_rows)
    posts = {row["key"] for row in rows["Post"]}
    assert "https://pytorch.org/blog/pytorch-1.8-released/" in posts
    assert sum(len(r) for r in rows.values()) == sample_graph.number_of_nodes()


def test_relationship_rows_flatten_offsets_and_keep_provenance(sample_graph):
    groups = relationship_rows(sample_graph)
    assert sum(len(rows) for rows in groups.values()) == sample_graph.number_of_edges()
    by_edge = {(start, row["start"], rel_type, end, row["end"]): row["props"]
               for (start, rel_type, end), rows in groups.items() for row in rows}
    for u, v, key, data in sample_graph.edges(keys=True, data=True):
        a, b = sample_graph.nodes[u], sample_graph.nodes[v]
        props = by_edge[(a["label"], a.get("url", a["name"]), key, b["label"],
                         b.get("url", b["name"]))]
        expected = dict(data)
        if "offsets" in expected:
            expected["offsets"] = [x for pair in data["offsets"] for x in (pair or [-1, -1])]
        assert props == expected


def test_node_rows_leave_out_nulls_and_reject_what_neo4j_cannot_store():
    graph = nx.MultiDiGraph()
    graph.add_node("Post:u", label="Post", name="T", url="u", date=None)
    assert node_rows(graph) == {"Post": [{"key": "u", "props": {"label": "Post", "name": "T",
                                                                "url": "u"}}]}
    graph.add_node("Feature:f", label="Feature", name="f", aliases=["a", None])
    with pytest.raises(StoreError, match=r"^node 'Feature:f': Neo4j cannot store property "
                                         r"'aliases': a list may only hold"):
        node_rows(graph)


@given(st.lists(st.one_of(st.none(), st.tuples(st.integers(0, 10**9), st.integers(0, 10**9))
                          .map(list))))
def test_offsets_flatten_round_trip(offsets):
    flat = flatten_offsets(offsets)
    assert all(isinstance(x, int) for x in flat)
    assert len(flat) == 2 * len(offsets)
    assert unflatten_offsets(flat) == offsets


@pytest.mark.parametrize(("size", "lengths"), [(1, [1, 1, 1]), (2, [2, 1]), (5, [3])])
def test_batched_slices_rows(size, lengths):
    assert [len(b) for b in batched([{"a": i} for i in range(3)], size)] == lengths


# --------------------------------------------------------------------------- settings


def test_settings_from_env_then_defaults(monkeypatch):
    for name in ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE"):
        monkeypatch.delenv(name, raising=False)
    assert Neo4jSettings.from_env() == Neo4jSettings("bolt://127.0.0.1:7687", "neo4j", None,
                                                     "neo4j")
    monkeypatch.setenv("NEO4J_URI", "neo4j://db:7687")
    monkeypatch.setenv("NEO4J_USERNAME", "ptkg")
    monkeypatch.setenv("NEO4J_PASSWORD", SECRET)
    monkeypatch.setenv("NEO4J_DATABASE", "graph")
    assert Neo4jSettings.from_env() == Neo4jSettings("neo4j://db:7687", "ptkg", SECRET, "graph")
    assert Neo4jSettings.from_env(uri="bolt://other:1", database="x").uri == "bolt://other:1"
    assert SECRET not in repr(Neo4jSettings.from_env())


@pytest.mark.parametrize(("uri", "shown"), [
    ("bolt://neo4j:" + SECRET + "@db:7687", "bolt://db:7687"),
    ("bolt://db:7687", "bolt://db:7687"),
])
def test_safe_uri_drops_credentials(uri, shown):
    assert safe_uri(uri) == shown


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(("message", "line"), [
    ("Invalid input 'RETURN': expected \"(\" (line 1, column 18 (offset: 17))\n"
     '"MATCH (r:Release RETURN r"\n                  ^',
     "Cypher syntax error at line 1, column 18: unexpected 'RETURN'"),
    ("Invalid input '': expected an expression (line 1, column 11 (offset: 10))\n\"RETURN 1 +\"",
     "Cypher syntax error at line 1, column 11: unexpected end of query"),
    ("Variable `x` not defined (line 1, column 8 (offset: 7))\n\"RETURN x\"",
     "Cypher syntax error at line 1, column 8: Variable `x` not defined"),
    ("Something else", "Cypher syntax error: Something else"),
])
def test_syntax_message_is_one_line(message, line):
    assert syntax_message(message) == line


@pytest.mark.parametrize(("query", "ordered"), [
    ("MATCH (n) RETURN n.name ORDER BY n.name", True),
    ("MATCH (n) RETURN n.name order  by n.name DESC LIMIT 3", True),
    ('MATCH (n) WHERE n.name = "ORDER BY" RETURN n.name', False),
    ("MATCH (n) RETURN n.name // ORDER BY n.name", False),
    ("MATCH (n) WITH n ORDER BY n.name RETURN n.name", False),
])
def test_orders_rows_reads_the_final_return(query, ordered):
    assert orders_rows(query) is ordered


@pytest.mark.parametrize(("uri", "message"), [
    ("http://127.0.0.1:7474", "bad Neo4j URI 'http://127.0.0.1:7474': use bolt://HOST:PORT or "
                              "neo4j://HOST:PORT (schemes: bolt, bolt+s, bolt+ssc, neo4j, neo4j+s, "
                              "neo4j+ssc)"),
    ("127.0.0.1:7687", "bad Neo4j URI '127.0.0.1:7687': use bolt://HOST:PORT or neo4j://HOST:PORT "
                       "(schemes: bolt, bolt+s, bolt+ssc, neo4j, neo4j+s, neo4j+ssc)"),
    (f"bolt://neo4j:{SECRET}@127.0.0.1:1",
     "Neo4j URI bolt://127.0.0.1:1: give the user and password in NEO4J_USERNAME and "
     "NEO4J_PASSWORD (or --user and --password), not in the URI"),
], ids=["http", "no-scheme", "userinfo"])
def test_connect_bad_uri_is_a_store_error(uri, message):
    with pytest.raises(StoreError) as raised:
        connect(Neo4jSettings(uri=uri, password=SECRET))
    assert str(raised.value) == message


@pytest.mark.parametrize("command", [["query", "--backend", "neo4j", "RETURN 1"],
                                     ["neo4j", "load"]])
def test_cli_unreachable_server_is_one_line_exit_1(sample_graph_file, command):
    args = [*command, "--graph", str(sample_graph_file), "--uri", UNREACHABLE,
            "--password", SECRET]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"Error: cannot reach Neo4j at {UNREACHABLE} ([Errno 111] Connection refused): is the "
        "server running? check NEO4J_URI or --uri"]
    assert SECRET not in result.output


@pytest.mark.parametrize("uri", [UNREACHABLE])
def test_ptkg_process_unreachable_server_no_traceback(tmp_path, uri):
    """The installed command, in its own process: one line on stderr, exit 1, no password."""
    env = {"PATH": "/usr/bin:/bin", "NEO4J_URI": uri, "NEO4J_PASSWORD": SECRET}
    done = subprocess.run([sys.executable, "-m", "ptkg.cli", "query", "--backend", "neo4j",
                           "RETURN 1"], capture_output=True, text=True, env=env, timeout=60,
                          cwd=tmp_path, check=False)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"Error: cannot reach Neo4j at {UNREACHABLE} ([Errno 111] Connection refused): is the "
        "server running? check NEO4J_URI or --uri"]
    assert SECRET not in done.stderr


def test_cli_query_default_backend_is_networkx(sample_graph_file):
    """Without --backend the query runs on the graph file, even with a Neo4j URI that is down."""
    result = CliRunner(env={"NEO4J_URI": UNREACHABLE}).invoke(
        main, ["query", "--graph", str(sample_graph_file),
               'MATCH (r:Release) WHERE r.name = "PyTorch 1.8" RETURN r.name'],
        catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["r.name", "-----------", "PyTorch 1.8"]

