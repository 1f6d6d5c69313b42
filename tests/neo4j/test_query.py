"""``ptkg query --backend neo4j``: the same rows as the networkx backend, real parameters, and
one-line errors (issue 3)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ptkg.cli import main
from ptkg.errors import QueryError
from ptkg.stores import grand_cypher
from ptkg.stores.neo4j_store import run_query

ISSUE_QUERY = ('MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) WHERE r.name = "PyTorch 1.8" '
               "RETURN f.name AS feature, i.stability AS stability")
BOTH_BACKENDS = [
    ISSUE_QUERY,
    "MATCH (l:Library)-[:HAS_RELEASE]->(r:Release) RETURN l.name AS library, COUNT(r) AS releases",
    "MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) RETURN r, i, f",
    'MATCH (p:Post)-[m:MENTIONS]->(h:Hardware) WHERE h.name = "ROCm" RETURN p.url AS url, '
    "m.count AS count ORDER BY url",
    "MATCH (a:Release)-[:PRECEDES*1..3]->(b:Release) RETURN a.name AS older, b.name AS newer",
]


def run(*args: str, catch: bool = True):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch)


@pytest.mark.parametrize("query", BOTH_BACKENDS)
def test_run_query_same_rows_on_both_backends(neo4j_driver, neo4j_settings, loaded, query):
    on_neo4j = run_query(neo4j_driver, query, {}, neo4j_settings.database)
    on_networkx = grand_cypher.run_query(loaded, query, {})
    assert on_neo4j == on_networkx
    assert on_neo4j[1], "a query that returns nothing proves nothing"


@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
def test_cli_query_issue_example_same_output_on_both_backends(loaded, handmade_graph_file, fmt):
    on_neo4j = run("query", "--backend", "neo4j", "--format", fmt, ISSUE_QUERY, catch=False)
    on_networkx = run("query", "--graph", handmade_graph_file, "--format", fmt, ISSUE_QUERY,
                      catch=False)
    assert on_neo4j.exit_code == on_networkx.exit_code == 0
    assert on_neo4j.stdout == on_networkx.stdout
    assert "torch.fx" in on_neo4j.stdout


@pytest.mark.parametrize("release", ['PyTorch 1.8', 'x" OR 1=1 RETURN 1 //'])
def test_run_query_binds_real_parameters(neo4j_driver, neo4j_settings, loaded, release):
    query = ("MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) WHERE r.name = $release "
             "RETURN f.name AS feature, i.stability AS stability")
    on_neo4j = run_query(neo4j_driver, query, {"release": release}, neo4j_settings.database)
    assert on_neo4j == grand_cypher.run_query(loaded, query, {"release": release})
    assert bool(on_neo4j[1]) == (release == "PyTorch 1.8")


@pytest.mark.parametrize(("query", "params", "message"), [
    ("MATCH (r:Release RETURN r", [], "Error: Cypher syntax error at line 1, column 18: "),
    ("MATCH (r:Release) WHERE r.name = $release RETURN r.name", [],
     "Error: cannot run Cypher query: Expected parameter(s): release"),
    ('CREATE (:Release {name: "PyTorch 9.9"})', [],
     "Error: cannot run Cypher query: Writing in read access mode not allowed"),
], ids=["syntax-error", "missing-param", "write"])
def test_cli_query_bad_query_on_neo4j_is_one_line_exit_2(loaded, query, params, message):
    result = run("query", "--backend", "neo4j", query, *params)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1
    assert errors[0].startswith(message)
    assert result.stderr.splitlines()[-1] == errors[0]


@pytest.mark.parametrize("query", ["MATCH (n RETURN n", "RETURN 1 +"])
def test_run_query_syntax_error_is_query_error(neo4j_driver, neo4j_settings, query):
    with pytest.raises(QueryError, match=r"^Cypher syntax error at line 1, column \d+: "):
        run_query(neo4j_driver, query, {}, neo4j_settings.database)


@pytest.mark.parametrize("where", [["--backend", "neo4j"], ["--graph", "{uri}"]],
                         ids=" ".join)
def test_cli_query_timeout_option_on_a_live_server(loaded, neo4j_settings, handmade_graph_file,
                                                   where):
    """``--timeout`` (here shorter than NEO4J_TIMEOUT's default) does not change the rows."""
    args = [arg.format(uri=neo4j_settings.uri) for arg in where]
    on_neo4j = run("query", *args, "--timeout", "5", ISSUE_QUERY, catch=False)
    on_networkx = run("query", "--graph", handmade_graph_file, ISSUE_QUERY, catch=False)
    assert on_neo4j.exit_code == 0, on_neo4j.output
    assert on_neo4j.stdout == on_networkx.stdout
    assert on_neo4j.stdout.count("\n") > 2
