"""Issue 13: the Python API, ``import ptkg; g = ptkg.open("out/graph.json")``.

On the hand-made graph; the doctests of ``ptkg.api`` run on their own three-node graph.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import ptkg
from ptkg.api import Answer, Graph, Result, check_read_only, row_evidence
from ptkg.errors import QueryError
from ptkg.explore import NotFoundError
from ptkg.graph import build_graph
from ptkg.named_queries import get_query
from ptkg.records import Entity, Fact, PostFacts


@pytest.fixture(scope="module")
def g(handmade_graph_file) -> Graph:
    graph = ptkg.open(handmade_graph_file)
    yield graph
    graph.close()


def test_issue13_import_ptkg_stays_light():
    """``import ptkg`` loads neither the API nor networkx, spaCy or a driver."""
    probe = ("import json, sys, ptkg; print(json.dumps(sorted(m for m in ('ptkg.api', "
             "'networkx', 'spacy', 'neo4j', 'grandcypher', 'pandas') if m in sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=60)
    assert json.loads(done.stdout) == []


def test_issue13_open_gives_a_graph(g, handmade_graph_file):
    assert isinstance(g, Graph) and g.location == str(handmade_graph_file)
    assert ptkg.Graph is Graph and ptkg.Result is Result and ptkg.Answer is Answer


def test_issue13_run_named_query_rows_as_dicts(g):
    result = g.run("features-by-release", release="pytorch v1.8")
    assert result.params == {"release": "PyTorch 1.8", "hardware": None}
    assert result.columns == ["feature", "stability", "latest_stability", "named"]
    assert result[0] == {"feature": "ZeroRedundancyOptimizer", "stability": "Prototype",
                         "latest_stability": "Stable", "named": None}
    assert [row["feature"] for row in result] == ["ZeroRedundancyOptimizer", "torch.fft",
                                                  "torch.fx", "torch.linalg"]
    assert len(result) == 4 and result.to_dicts() == list(result)


def test_issue13_run_carries_evidence_per_row(g):
    result = g.run("features-by-release", {"release": "PyTorch 1.8"})
    assert len(result.evidence) == len(result)
    fx = result.evidence[2]
    assert fx and fx[0]["relation"] == "INTRODUCES" and fx[0]["source"] == "PyTorch 1.8"
    assert fx[0]["target"] == "torch.fx" and fx[0]["stability"] == "Beta"
    assert "FX" in fx[0]["sentence"]
    assert fx[0]["url"] == "https://pytorch.org/blog/pytorch-1.8-released/"
    support = g.run("hardware-support", hardware="MPS")
    assert support.evidence[0][0]["relation"] == "SUPPORTS"
    assert support.evidence[0][0]["url"].startswith("https://pytorch.org/blog/")


def test_row_evidence_is_what_the_query_reads_each_sentence_once():
    """A stability row shows the INTRODUCES that states it, not the feature's PART_OF, when
    the query reads INTRODUCES; a sentence read twice is shown once."""
    post = "https://pytorch.org/blog/pytorch-2.0-release/"
    release, feature = Entity("Release", "PyTorch 2.0"), Entity("Feature", "torch.compile")
    facts = [Fact("INTRODUCES", release, feature, "test.rule", 0, 20, "[Beta] torch.compile",
                  "Beta"),
             Fact("PART_OF", feature, Entity("Library", "PyTorch"), "test.rule", 30, 60,
                  "PyTorch's torch.compile is fast."),
             Fact("PART_OF", feature, Entity("Library", "PyTorch"), "test.rule", 30, 60,
                  "PyTorch's torch.compile is fast.")]
    graph = build_graph([PostFacts(post, "PyTorch 2.0", None, None, [], facts)])
    row = [["PyTorch", "PyTorch 2.0", "torch.compile", "Beta"]]
    [read] = row_evidence(graph, [], row, read=get_query("feature-stability").relationships)
    assert [e["relation"] for e in read] == ["INTRODUCES"]
    [every] = row_evidence(graph, [], row)
    assert sorted(e["relation"] for e in every) == ["INTRODUCES", "PART_OF"]


def test_issue13_run_result_to_dict_is_json(g):
    data = g.run("released-with", release="1.12").to_dict()
    assert json.loads(json.dumps(data)) == data
    assert set(data) == {"query", "params", "also", "columns", "rows", "evidence", "gaps",
                         "warnings"}
    assert data["rows"] == [] and data["gaps"] == [
        "no post in the graph announces PyTorch 1.12: the library releases shipped with it are "
        "not known"]


def test_issue13_run_unknown_name_raises_with_the_closest(g):
    with pytest.raises(NotFoundError, match="closest: PyTorch 1.9"):
        g.run("features-by-release", release="PyTorch 9.9")


def test_issue13_query_resolves_names_and_warns(g):
    result = g.query("MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) WHERE r.name = $r "
                     "RETURN f.name AS feature ORDER BY feature", r="pytorch v1.10")
    assert [row["feature"] for row in result] == ["CUDA Graphs", "ZeroRedundancyOptimizer",
                                                  "torch.fx"]
    assert g.query("MATCH (n:Feeture) RETURN n.name").warnings == [
        "the graph has no label Feeture (closest: Feature)"]


@pytest.mark.parametrize("cypher", [
    'LOAD CSV FROM "file:///etc/passwd" AS row RETURN row',
    "CALL dbms.listConfig()",
    "SHOW TRANSACTIONS",
    'TERMINATE TRANSACTIONS "neo4j-transaction-1"',
])
def test_issue13_query_refuses_what_the_read_only_path_refuses(g, cypher):
    """The read-only Neo4j path's own guard, on the graph file too."""
    with pytest.raises(QueryError, match="^ptkg runs read-only queries: .* not allowed"):
        check_read_only(cypher)
    with pytest.raises(QueryError, match="^ptkg runs read-only queries: .* not allowed"):
        g.query(cypher)


def test_issue13_query_cannot_write(g, handmade_graph):
    with pytest.raises(QueryError):
        g.query("MATCH (n) DETACH DELETE n")
    assert g.graph().number_of_nodes() == handmade_graph.number_of_nodes()


def test_issue13_lifecycle_diff_timeline_show_stats(g):
    assert [c.to_release for c in g.lifecycle("ZeroRedundancyOptimizer").promotions] == [
        "PyTorch 1.9", "PyTorch 1.10"]
    assert [e.feature for e in g.diff("PyTorch 1.9", "PyTorch 1.10").new] == ["CUDA Graphs"]
    assert [lane.library for lane in g.timeline()][0] == "PyTorch"
    (entity,) = g.show("FX")
    assert entity["name"] == "torch.fx"
    assert g.stats()["nodes"]["Feature"] == 9


def test_issue13_ask(g):
    answer = g.ask("What became stable in 1.10?")
    assert answer.mapped and answer.mapping.query == "features-by-stability"
    assert [row["feature"] for row in answer.result] == ["ZeroRedundancyOptimizer", "torch.fx"]
    unmapped = g.ask("What is the weather in Paris?")
    assert not unmapped.mapped and len(unmapped.to_dict()["closest"]) == 3


def test_issue13_to_df_with_pandas(g):
    import pandas as pd  # a test dependency: ptkg itself works without it
    frame = g.run("releases-of-library", library="PyTorch").to_df()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["position", "release", "version", "date"]
    assert frame["release"].tolist()[:2] == ["PyTorch 1.5", "PyTorch 1.8"]


def test_issue13_to_df_without_pandas(g, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="pip install pandas"):
        g.run("releases-of-library", library="PyTorch").to_df()


def test_issue13_open_a_graph_in_memory(handmade_graph):
    assert ptkg.open(graph=handmade_graph).run("top-mentioned", label="Model",
                                                limit=1).rows == [["ResNet50", 2, 2]]


def test_issue13_api_doctests():
    import doctest

    import ptkg.api

    assert doctest.testmod(ptkg.api).failed == 0
