"""The Neo4j store without a server: settings, rows, pinned Cypher text, errors (issue 3), the
read-only guard's text layer, bad URIs and timeouts (issue 10).

Tests against a real server are in ``tests/neo4j/`` (the guard: ``test_readonly.py``).
"""

from __future__ import annotations

import doctest
import socket
import subprocess
import sys
import time

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
from ptkg.errors import QueryError, StoreError
from ptkg.graph import graph_counts
from ptkg.named_queries import load_queries
from ptkg.schema import LABELS
from ptkg.stores import neo4j_store
from ptkg.stores.neo4j_store import (
    READ_PROCEDURES,
    Neo4jSettings,
    Neo4jStore,
    check_read_only,
    connect,
    decode_unicode_escapes,
    plan_refusal,
    read_only_refusal,
    safe_uri,
    syntax_message,
)
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
    for name in ("NEO4J_URI", "NEO4J_USERNAME", "NEO4J_PASSWORD", "NEO4J_DATABASE",
                 "NEO4J_TIMEOUT"):
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



def test_neo4j_store_doctests():
    results = doctest.testmod(neo4j_store)
    assert results.failed == 0
    assert results.attempted >= 10


# --------------------------------------------------------------------------- timeouts


@pytest.mark.parametrize(("environ", "argument", "timeout"), [
    ({}, None, 15.0),
    ({"NEO4J_TIMEOUT": "2.5"}, None, 2.5),
    ({"NEO4J_TIMEOUT": "2.5"}, 7, 7.0),
    ({"NEO4J_TIMEOUT": ""}, "4", 4.0),
    ({"NEO4J_TIMEOUT": "60"}, "", 60.0),
])
def test_settings_timeout_from_argument_then_env_then_default(environ, argument, timeout):
    assert Neo4jSettings.from_env(environ=environ, timeout=argument).timeout == timeout


@pytest.mark.parametrize("value", ["soon", "0", "-1", "nan", "inf"])
def test_settings_bad_timeout_is_one_line(value):
    with pytest.raises(StoreError) as raised:
        Neo4jSettings.from_env(environ={"NEO4J_TIMEOUT": value})
    assert str(raised.value) == (f"bad Neo4j timeout {value!r}: give a number of seconds greater "
                                 "than 0 (NEO4J_TIMEOUT or --timeout)")


@pytest.fixture
def silent_port():
    """A port on 127.0.0.1 that accepts TCP connections (the kernel's backlog) but never
    answers the Bolt handshake: a hung server, or something else listening."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(16)
        yield listening.getsockname()[1]


def silent_message(port: int, timeout: str) -> str:
    return (f"cannot reach Neo4j at bolt://127.0.0.1:{port} (no Bolt answer within {timeout} s: "
            "a Neo4j Bolt port? NEO4J_TIMEOUT or --timeout waits longer): is the server "
            "running? check NEO4J_URI or --uri")


def test_issue10_connect_to_a_port_that_never_answers_fails_within_the_timeout(silent_port):
    """Issue 10, item 14: 60 s of silence, then one line. Now a line says what it waits for,
    and the error comes after the timeout."""
    notices: list[str] = []
    settings = Neo4jSettings(f"bolt://127.0.0.1:{silent_port}", password=SECRET, timeout=1.5)
    started = time.monotonic()
    with pytest.raises(StoreError) as raised:
        connect(settings, notify=notices.append)
    assert 1.4 < time.monotonic() - started < 1.5 + 3
    assert str(raised.value) == silent_message(silent_port, "1.5")
    assert notices == [f"waiting for Neo4j at bolt://127.0.0.1:{silent_port}: connecting "
                       "(timeout 1.5 s)"]


def test_issue10_cli_port_that_never_answers_says_what_it_waits_for(silent_port):
    started = time.monotonic()
    result = CliRunner(env={"NEO4J_URI": f"bolt://127.0.0.1:{silent_port}",
                            "NEO4J_TIMEOUT": "1.5", "NEO4J_PASSWORD": SECRET}).invoke(
        main, ["query", "--backend", "neo4j", "RETURN 1"])
    assert time.monotonic() - started < 1.5 + 3
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"waiting for Neo4j at bolt://127.0.0.1:{silent_port}: connecting (timeout 1.5 s)",
        "Error: " + silent_message(silent_port, "1.5")]
    assert SECRET not in result.output


def neo4j_command(args: list[str], uri: str, graph_file) -> list[str]:
    """A command line that opens the Neo4j store at ``uri``: ``{uri}`` and ``{graph}`` filled."""
    return [arg.format(uri=uri, graph=graph_file) for arg in args]


#: Every way a command opens a Neo4j store: --backend neo4j with --uri, a bolt:// --graph, and
#: ``neo4j load``'s server.
NEO4J_COMMAND_LINES = [
    ["query", "--backend", "neo4j", "--uri", "{uri}", "RETURN 1"],
    ["query", "--graph", "{uri}", "RETURN 1"],
    ["queries", "run", "announcements", "--backend", "neo4j", "--uri", "{uri}"],
    ["queries", "run", "announcements", "--graph", "{uri}"],
    ["neo4j", "load", "--graph", "{graph}", "--uri", "{uri}"],
    ["stats", "--graph", "{uri}"],
    ["show", "torch.fx", "--graph", "{uri}"],
]


@pytest.mark.parametrize("args", NEO4J_COMMAND_LINES, ids=" ".join)
def test_cli_timeout_option_bounds_a_port_that_never_answers(silent_port, handmade_graph_file,
                                                            args):
    """``--timeout 2``, on every command that opens a Neo4j store, wins over NEO4J_TIMEOUT: the
    command says what it waits for after a second (NOTICE_AFTER), then fails about two seconds
    later with the one line naming the timeout (a timeout of 1 s would race the notice)."""
    uri = f"bolt://127.0.0.1:{silent_port}"
    started = time.monotonic()
    result = CliRunner(env={"NEO4J_TIMEOUT": "60", "NEO4J_PASSWORD": SECRET}).invoke(
        main, [*neo4j_command(args, uri, handmade_graph_file), "--timeout", "2"])
    assert 1.9 < time.monotonic() - started < 2 + 4
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines()[-2:] == [
        f"waiting for Neo4j at {uri}: connecting (timeout 2 s)",
        "Error: " + silent_message(silent_port, "2")]
    assert SECRET not in result.output


@pytest.mark.parametrize("args", [["stats", "--graph", "{uri}"],
                                  ["neo4j", "load", "--graph", "{graph}", "--uri", "{uri}"]],
                         ids=" ".join)
def test_cli_timeout_env_var_still_bounds_the_wait(silent_port, handmade_graph_file, args):
    """NEO4J_TIMEOUT is --timeout's env var: without the option it sets the wait."""
    uri = f"bolt://127.0.0.1:{silent_port}"
    started = time.monotonic()
    result = CliRunner(env={"NEO4J_TIMEOUT": "1.5"}).invoke(
        main, neo4j_command(args, uri, handmade_graph_file))
    assert 1.4 < time.monotonic() - started < 1.5 + 4
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == "Error: " + silent_message(silent_port, "1.5")


@pytest.mark.parametrize("value", ["soon", "0", "-1"])
def test_cli_bad_timeout_is_a_usage_error(value):
    result = CliRunner().invoke(main, ["query", "--backend", "neo4j", "--uri", UNREACHABLE,
                                       "--timeout", value, "RETURN 1"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"Error: bad Neo4j timeout {value!r}: give a number of seconds greater than 0 "
        "(NEO4J_TIMEOUT or --timeout)")


@pytest.mark.parametrize("value", ["soon"])
def test_cli_bad_timeout_env_var_does_not_fail_a_graph_file(handmade_graph_file, value):
    """The timeout is checked when a server is opened, not by a command reading a file."""
    result = CliRunner(env={"NEO4J_TIMEOUT": value}).invoke(
        main, ["stats", "--graph", str(handmade_graph_file)], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"{handmade_graph_file}: ")


def test_connect_quick_failure_says_nothing_while_waiting():
    notices: list[str] = []
    with pytest.raises(StoreError):
        connect(Neo4jSettings(UNREACHABLE, password=SECRET, timeout=5), notify=notices.append)
    time.sleep(neo4j_store.NOTICE_AFTER + 0.2)
    assert notices == []


# --------------------------------------------------------------------------- malformed URIs


@pytest.mark.parametrize(("uri", "message"), [
    (f"bolt://neo4j:{SECRET}@[::1", "bad Neo4j URI 'bolt://[::1': Invalid IPv6 URL: use "
                                    "bolt://HOST:PORT or neo4j://HOST:PORT"),
    ("bolt://[::1", "bad Neo4j URI 'bolt://[::1': Invalid IPv6 URL: use bolt://HOST:PORT or "
                    "neo4j://HOST:PORT"),
    (f"neo4j://neo4j:{SECRET}@[::1/db", "bad Neo4j URI 'neo4j://[::1/db': Invalid IPv6 URL: "
                                        "use bolt://HOST:PORT or neo4j://HOST:PORT"),
    ("bolt://db:port", "bad Neo4j URI 'bolt://db:port': Port could not be cast to integer value "
                       "as 'port': use bolt://HOST:PORT or neo4j://HOST:PORT"),
], ids=["ipv6-with-password", "ipv6", "ipv6-path", "port"])
def test_issue10_malformed_uri_is_a_store_error_without_the_password(uri, message):
    """Issue 10, item 13: ``bolt://neo4j:PW@[::1`` gave a ValueError traceback."""
    with pytest.raises(StoreError) as raised:
        connect(Neo4jSettings(uri=uri, password=SECRET))
    assert str(raised.value) == message
    assert SECRET not in str(raised.value)


def test_issue10_cli_malformed_uri_is_one_line():
    result = CliRunner(env={"NEO4J_PASSWORD": SECRET}).invoke(
        main, ["query", "--backend", "neo4j", "--uri", f"bolt://neo4j:{SECRET}@[::1", "RETURN 1"])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "Error: bad Neo4j URI 'bolt://[::1': Invalid IPv6 URL: use bolt://HOST:PORT or "
        "neo4j://HOST:PORT"]
    assert SECRET not in result.output


# --------------------------------------------------------------------------- read-only: text layer

R = "\\u"  # a Java unicode escape in the query text


@pytest.mark.parametrize(("query", "reason"), [
    ('LOAD CSV FROM "file:///etc/passwd" AS row RETURN row', "LOAD CSV is not allowed"),
    ("load\tcsv from 'https://example.org/a.csv' as row return row", "LOAD CSV is not allowed"),
    ("LOAD/**/CSV FROM $url AS row RETURN row", "LOAD CSV is not allowed"),
    ("LOAD // line\u2028CSV FROM $url AS row RETURN row", "LOAD CSV is not allowed"),
    ("LOAD\u00a0CSV FROM $url AS row RETURN row", "LOAD CSV is not allowed"),
    (f"{R}004c{R}004fAD CSV FROM $url AS row RETURN row", "LOAD CSV is not allowed"),
    (f"{R}uuu004cOAD CSV FROM $url AS row RETURN row", "LOAD CSV is not allowed"),
    (f"RETURN 'x{R}0027 LOAD CSV FROM $url AS row RETURN row //'", "LOAD CSV is not allowed"),
    ("RETURN 'x\\\\' LOAD CSV FROM $url AS row RETURN row //'", "LOAD CSV is not allowed"),
    ("MATCH (n) CALL { WITH n LOAD CSV FROM $url AS row RETURN row } RETURN row",
     "LOAD CSV is not allowed"),
    ("RETURN 'file:/etc/passwd'", "file URLs are not allowed"),
    ('RETURN "FILE:///etc/passwd"', "file URLs are not allowed"),
    (f"RETURN '{R}0066ile:///etc/passwd'", "file URLs are not allowed"),
    ("SHOW TRANSACTIONS", "SHOW TRANSACTIONS is not allowed"),
    ("show  /* */ transactions yield *", "SHOW TRANSACTIONS is not allowed"),
    ("SHOW CURRENT USER", "SHOW CURRENT USER is not allowed"),
    ("SHOW ALL PRIVILEGES", "SHOW ALL PRIVILEGES is not allowed"),
    ('TERMINATE TRANSACTIONS "neo4j-transaction-1"', "TERMINATE TRANSACTIONS is not allowed"),
    (f'{R}0074erminate transactions "x"', "TERMINATE TRANSACTIONS is not allowed"),
    ("USE system SHOW USERS", "USE system is not allowed: queries run on the configured "
                              "database (NEO4J_DATABASE or --database)"),
    ("CALL { USE `system` MATCH (n) RETURN n } RETURN n",
     "USE system is not allowed: queries run on the configured database (NEO4J_DATABASE or "
     "--database)"),
    ("CREATE USER x SET PASSWORD 'y'", "CREATE USER is not allowed"),
    ("CREATE OR REPLACE DATABASE x", "CREATE OR REPLACE DATABASE is not allowed"),
    ("DROP DATABASE neo4j", "DROP DATABASE is not allowed"),
    ("ALTER CURRENT USER SET PASSWORD FROM 'a' TO 'b'", "ALTER CURRENT USER is not allowed"),
    ("GRANT ROLE admin TO x", "GRANT ROLE is not allowed"),
    ("DENY TRAVERSE ON GRAPH * TO r", "DENY TRAVERSE is not allowed"),
    ("REVOKE ROLE admin FROM x", "REVOKE ROLE is not allowed"),
    ("STOP DATABASE neo4j", "STOP DATABASE is not allowed"),
    ("START DATABASE neo4j", "START DATABASE is not allowed"),
    ("RENAME USER a TO b", "RENAME USER is not allowed"),
    ("CREATE CONSTRAINT c FOR (n:X) REQUIRE n.a IS UNIQUE", "CREATE CONSTRAINT is not allowed"),
    ("EXPLAIN MATCH (n) RETURN n", "EXPLAIN is not allowed (ptkg prints a query's rows, not its "
                                   "plan)"),
    ("CYPHER 5 runtime=slotted PROFILE MATCH (n) RETURN n",
     "PROFILE is not allowed (ptkg prints a query's rows, not its plan)"),
    ("CALL dbms.listConfig()", "CALL dbms.listConfig is not allowed (procedures allowed: "
                               + ", ".join(sorted(READ_PROCEDURES)) + ")"),
    ("CALL `dbms`.`listConfig`", "CALL dbms.listConfig is not allowed (procedures allowed: "
                                 + ", ".join(sorted(READ_PROCEDURES)) + ")"),
    ("CALL db.createLabel('X')", "CALL db.createLabel is not allowed (procedures allowed: "
                                 + ", ".join(sorted(READ_PROCEDURES)) + ")"),
    ("CALL apoc.cypher.runWrite('CREATE ()', {})", "CALL apoc.cypher.runWrite is not allowed "
     "(procedures allowed: " + ", ".join(sorted(READ_PROCEDURES)) + ")"),
    ("RETURN apoc.version()", "function apoc.version is not allowed (only Cypher's built-in "
                              "functions)"),
    ("RETURN `apoc` . `util`.sha1(['x'])", "function apoc.util.sha1 is not allowed (only "
                                           "Cypher's built-in functions)"),
], ids=lambda value: value if len(value) < 30 else None)
def test_read_only_refusal_reads_the_tokens(query, reason):
    assert read_only_refusal(query) == reason
    with pytest.raises(QueryError) as raised:
        check_read_only(query)
    assert str(raised.value) == f"ptkg runs read-only queries: {reason}"


@pytest.mark.parametrize("query", [
    'MATCH (r:Release) WHERE r.name = "LOAD CSV" RETURN r.name',
    "MATCH (r:Release) RETURN r.name // LOAD CSV FROM 'file:///etc/passwd'",
    "MATCH (r:Release) /* SHOW USERS; TERMINATE TRANSACTIONS */ RETURN r.name",
    "MATCH (r:Release) RETURN r.name AS `LOAD CSV`, r.version AS `SHOW USERS`",
    "MATCH (show:Release)-[use:INTRODUCES]->(start:Feature) RETURN show, use, start",
    "UNWIND [1] AS stop WITH stop AS create RETURN create AS drop ORDER BY drop DESC",
    "MATCH (p:Post) WHERE p.profile: 1 = 1 RETURN p",
    "MATCH (p:Post) WHERE p.url STARTS WITH 'https://pytorch.org/' RETURN p.url",
    "RETURN 'the profile:x' AS s, 'c:/files' AS t",
    "CALL db.labels() YIELD label RETURN label",
    "CALL db.schema.visualization",
    "OPTIONAL CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey",
    "MATCH (n) CALL (n) { RETURN n.name AS name } RETURN name",
    "MATCH (n) CALL { WITH n RETURN n.name AS name } RETURN name",
    "RETURN date.truncate('year', date()), DateTime.fromEpoch(0, 0), duration.between(date(), "
    "date()), point.distance(point({x: 0, y: 0}), point({x: 1, y: 1})), "
    "vector.similarity.cosine([1.0], [1.0]), db.nameFromElementId('x'), toUpper('s')",
    "CREATE (n:Release) RETURN n",
    "MATCH (r) SET r.x = 1",
    "CYPHER runtime=slotted MATCH (n) RETURN count(n)",
    "MATCH (a)-[:PRECEDES*1..3]->(b) RETURN a.name, b.name LIMIT 1",
    f"RETURN '{R}0041' AS a, 'it\\'s' AS b",
], ids=lambda value: value if len(value) < 30 else None)
def test_read_only_refusal_lets_reads_through(query):
    """Keywords in strings, comments and names, variables named like commands, schema
    procedures and built-in functions pass; plain writes are left to the server's check."""
    assert read_only_refusal(query) is None


@pytest.mark.parametrize("name", sorted(load_queries()))
def test_named_queries_pass_the_text_layer(name):
    assert read_only_refusal(load_queries()[name].text) is None


@pytest.mark.parametrize(("text", "decoded"), [
    ("\\u004cOAD", "LOAD"),
    ("\\uuu0041", "A"),
    ("\\\\u0041", "\\\\u0041"),
    ("\\\\\\u0041", "\\\\A"),
    ("\\u005cu0041", "\\u0041"),
    ("\\u00", "\\u00"),
])
def test_decode_unicode_escapes_like_java(text, decoded):
    assert decode_unicode_escapes(text) == decoded


def plan(*operators: str, details: str = "") -> dict:
    """A plan whose operators are nested one in the other, as EXPLAIN returns it; the last one
    has the details."""
    node: dict | None = None
    for operator in reversed(operators):
        node = {"operatorType": operator, "args": {"Details": "" if node else details},
                "children": [node] if node else []}
    return node or {}


@pytest.mark.parametrize(("query_type", "found", "planned_on", "reason"), [
    ("r", plan("ProduceResults@neo4j", "AllNodesScan@neo4j"), "neo4j", None),
    ("r", plan("ProduceResults@neo4j", "Apply@neo4j", "LoadCSV@neo4j"), "neo4j",
     "LOAD CSV is not allowed"),
    ("r", plan("ProduceResults@neo4j", "ShowTransactions@neo4j"), "neo4j",
     "SHOW TRANSACTIONS is not allowed"),
    ("r", plan("ProduceResults@neo4j", "TerminateTransactions@neo4j"), "neo4j",
     "TERMINATE TRANSACTIONS is not allowed"),
    ("s", plan("AdministrationCommand@system"), "neo4j",
     "AdministrationCommand is not allowed (administration, or CALL {} IN TRANSACTIONS)"),
    ("r", plan("ProduceResults@system", "AllNodesScan@system"), "neo4j",
     "a query on database 'system' is not allowed (ptkg reads 'neo4j')"),
    ("r", plan("ProduceResults@neo4j"), "system",
     "a query on database 'system' is not allowed (ptkg reads 'neo4j')"),
    ("r", plan("ProduceResults@NEO4J"), "Neo4j", None),
    ("w", plan("ProduceResults@neo4j", "Create@neo4j"), "neo4j", "the query writes"),
    ("rw", plan("ProduceResults@neo4j", "SetProperty@neo4j"), "neo4j", "the query writes"),
    ("s", plan("CreateIndex@neo4j"), "neo4j", "schema and administration commands are not "
                                              "allowed"),
    (None, plan("ProduceResults@neo4j"), "neo4j", "schema and administration commands are not "
                                                  "allowed"),
])
def test_plan_refusal_reads_operators_and_query_type(query_type, found, planned_on, reason):
    assert plan_refusal(query_type, found, "neo4j", planned_on) == reason


@pytest.mark.parametrize(("details", "reason"), [
    ("db.labels() :: (label :: STRING)", None),
    ("db.schema.visualization() :: (nodes :: LIST<NODE>)", None),
    ("dbms.listConfig($autostring_0) :: (name :: STRING)",
     "CALL dbms.listConfig is not allowed (procedures allowed: "
     + ", ".join(sorted(READ_PROCEDURES)) + ")"),
])
def test_plan_refusal_reads_procedure_calls(details, reason):
    found = plan("ProduceResults@neo4j", "ProcedureCall@neo4j", details=details)
    assert plan_refusal("r", found, "neo4j") == reason


@pytest.mark.parametrize(("details", "reason"), [
    ("date.truncate($autostring_0, date()) AS y", None),
    ("n.name AS `apoc.version()`, 'apoc.x()' AS s", None),
    ("apoc.text.join($autolist_0, $autostring_1) AS v",
     "function apoc.text.join is not allowed (only Cypher's built-in functions)"),
])
def test_plan_refusal_reads_functions(details, reason):
    found = plan("ProduceResults@neo4j", "Projection@neo4j", details=details)
    assert plan_refusal("r", found, "neo4j") == reason


def test_store_query_refuses_before_connecting():
    """A refused query needs no server: the text layer runs before the driver is opened."""
    store = Neo4jStore(Neo4jSettings(UNREACHABLE, password=SECRET), notify=None)
    with pytest.raises(QueryError, match=r"^ptkg runs read-only queries: LOAD CSV is not"):
        store.query('LOAD CSV FROM "file:///etc/passwd" AS row RETURN row')
    assert store._driver is None
