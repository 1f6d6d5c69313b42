"""Parity (issue 3): every named query gives the same rows on the embedded graph and in Neo4j.

Neo4j is loaded with the hand-made graph (``tests/data/graph.json``); each query runs with its
example parameters, and once more without its optional ones. The rows must be equal: in the
same order when the query has an ORDER BY, as a multiset otherwise. (The rows themselves are
pinned, store by store, in ``tests/stores/test_contract.py``.)
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ptkg.cli import main
from ptkg.named_queries import load_queries, run_named_query
from ptkg.stores.neo4j_store import Neo4jStore
from ptkg.stores.networkx_store import GraphFileStore

QUERIES = load_queries()
CASES = [(name, query.example_params) for name, query in QUERIES.items()] + [
    (name, {p.name: p.example for p in query.params if not p.optional})
    for name, query in QUERIES.items() if any(p.optional for p in query.params)]


def row_key(row: list[object]) -> str:
    return json.dumps(row, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize(("name", "params"), CASES,
                         ids=[f"{name}-{'-'.join(params) or 'none'}" for name, params in CASES])
def test_named_query_same_rows_on_both_backends(neo4j_driver, neo4j_settings, loaded, name,
                                                params):
    query = QUERIES[name]
    on_networkx = run_named_query(GraphFileStore(graph=loaded), query, params)
    with Neo4jStore(neo4j_settings) as server:
        on_neo4j = run_named_query(server, query, params)
    assert on_neo4j[0] == on_networkx[0]
    if query.ordered:
        assert on_neo4j[1] == on_networkx[1]
    else:
        assert sorted(map(row_key, on_neo4j[1])) == sorted(map(row_key, on_networkx[1]))


def test_every_issue_query_returns_rows_in_neo4j(neo4j_driver, neo4j_settings, loaded):
    """Parity of empty results would prove nothing: the issue's queries find the facts."""
    with Neo4jStore(neo4j_settings) as server:
        empty = [name for name in ["features-by-release", "releases-of-library",
                                   "released-with", "hardware-support", "feature-stability",
                                   "organizations", "evidence", "neighbors", "top-mentioned",
                                   "posts-about"]
                 if not run_named_query(server, QUERIES[name], QUERIES[name].example_params)[1]]
    assert empty == []


@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
def test_cli_queries_run_same_output_on_both_backends(loaded, handmade_graph_file, fmt):
    args = ["queries", "run", "hardware-support", "--param", "hardware=MPS", "--format", fmt]
    on_neo4j = CliRunner().invoke(main, [*args, "--backend", "neo4j"], catch_exceptions=False)
    on_networkx = CliRunner().invoke(main, [*args, "--graph", str(handmade_graph_file)],
                                     catch_exceptions=False)
    assert on_neo4j.exit_code == on_networkx.exit_code == 0
    assert on_neo4j.stdout == on_networkx.stdout
    assert "PyTorch 1.12" in on_neo4j.stdout
