"""Issue 13: names resolve everywhere, through one resolver; an unknown name is an error.

``ptkg.explore.NameIndex`` serves named-query parameters, ``query --param``, ``lifecycle``,
``diff``, ``show``, ``render --focus`` and ``ask``: any alias, case or ``v`` prefix gives the
canonical name; a name the graph does not have exits 1 listing the closest names, never an
empty table with exit 0. A label or relationship type the graph does not have is a warning.
On the hand-made graph (``tests/data/graph.json``).
"""

from __future__ import annotations

import json

import networkx as nx
import pytest
from click.testing import CliRunner

from ptkg.cli import main
from ptkg.explore import NAMES_QUERY, NameIndex, NotFoundError, name_index
from ptkg.graph import read_graph
from ptkg.named_queries import (
    cypher_name_params,
    cypher_vocabulary,
    get_query,
    resolve_params,
    resolve_query_params,
    run_named_query,
    store_names,
)
from ptkg.stores.networkx_store import GraphFileStore


def run(*args, catch: bool = True):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch)


@pytest.fixture(scope="module")
def graph(handmade_graph_file) -> nx.MultiDiGraph:
    return read_graph(handmade_graph_file)


@pytest.fixture(scope="module")
def index(graph) -> NameIndex:
    return name_index(graph)


@pytest.mark.parametrize(("given", "labels", "name"), [
    ("PyTorch 1.8", ["Release"], "PyTorch 1.8"),
    ("pytorch 1.8", ["Release"], "PyTorch 1.8"),
    ("pytorch v1.8", ["Release"], "PyTorch 1.8"),
    ("PyTorch V1.10", None, "PyTorch 1.10"),
    ("PyTorch 1.10.0", ["Release"], "PyTorch 1.10"),
    ("1.12", ["Release"], "PyTorch 1.12"),
    ("v2.2", ["Release"], "PyTorch 2.2"),
    ("PyTorch® 2.2", ["Release"], "PyTorch 2.2"),
    ("torch_xla 1.5", ["Release"], "PyTorch/XLA 1.5"),
    ("FX", ["Feature"], "torch.fx"),
    ("`torch.fx()`", None, "torch.fx"),
    ("Metal Performance Shaders", ["Hardware", "Platform"], "MPS"),
    ("mac", ["Hardware", "Platform"], "macOS"),
    ("Fully Sharded Data Parallel", None, "FSDP"),
    ("torch_xla", ["Library"], "PyTorch/XLA"),
    ("resnet-50", ["Model"], "ResNet50"),
])
def test_issue13_resolver_reads_aliases_case_and_versions(index, given, labels, name):
    assert index.resolve_name(given, labels) == name


def test_issue13_resolver_finds_a_release_by_its_librarys_alias():
    g = nx.MultiDiGraph()
    g.add_node("Library:PyTorch/XLA", label="Library", name="PyTorch/XLA", aliases=["PT/XLA"])
    g.add_node("Release:PyTorch/XLA 2.1", label="Release", name="PyTorch/XLA 2.1",
               library="PyTorch/XLA", version="2.1")
    assert NameIndex.from_graph(g).resolve_name("pt/xla v2.1.0", ["Release"]) == "PyTorch/XLA 2.1"


@pytest.mark.parametrize(("given", "labels", "message"), [
    ("PyTorch 9.9", ["Release"], "no Release named 'PyTorch 9.9' in the graph; closest: "
                                 "PyTorch 1.9"),
    ("torch.fxx", None, "no entity named 'torch.fxx' in the graph; closest: torch.fx"),
    ("MSP", ["Hardware", "Platform"], "no Hardware or Platform named 'MSP' in the graph"),
])
def test_issue13_unknown_name_lists_the_closest(index, given, labels, message):
    with pytest.raises(NotFoundError) as error:
        index.resolve_name(given, labels)
    assert str(error.value).startswith(message)


def test_issue13_a_name_of_two_entities_is_an_error():
    g = nx.MultiDiGraph()
    g.add_node("Feature:Torch Foo", label="Feature", name="Torch Foo", aliases=["foo"])
    g.add_node("Library:Foo Lib", label="Library", name="Foo Lib", aliases=["foo"])
    with pytest.raises(NotFoundError, match="'foo' names several entities: Torch Foo "
                                            r"\(Feature\), Foo Lib \(Library\)"):
        NameIndex.from_graph(g).resolve_name("foo")
    assert NameIndex.from_graph(g).resolve_name("foo", ["Library"]) == "Foo Lib"


def test_issue13_own_name_wins_over_an_alias():
    g = nx.MultiDiGraph()
    g.add_node("Feature:FX", label="Feature", name="FX")
    g.add_node("Feature:torch.fx", label="Feature", name="torch.fx", aliases=["FX"])
    assert NameIndex.from_graph(g).resolve_name("fx", ["Feature"]) == "FX"


def test_issue13_names_from_rows_as_a_server_gives_them(graph):
    """A Neo4j store's names come from NAMES_QUERY: the same resolver, from rows."""
    store = GraphFileStore(graph=graph)
    columns, rows = store.query(NAMES_QUERY, {})
    from_rows = NameIndex.from_rows(dict(zip(columns, row, strict=True)) for row in rows)
    assert from_rows.resolve_name("pytorch v1.8", ["Release"]) == "PyTorch 1.8"
    assert from_rows.resolve_name("Metal Performance Shaders") == "MPS"

    class Server:
        location = "bolt://test"

        def query(self, cypher, params):
            return store.query(cypher, params)

    assert store_names(Server()).resolve_name("FX") == "torch.fx"


# ---------------------------------------------------------------------------- named queries

@pytest.mark.parametrize(("query", "given", "resolved"), [
    ("features-by-release", {"release": "pytorch v1.8"}, {"release": "PyTorch 1.8"}),
    ("hardware-support", {"hardware": "metal performance shaders"}, {"hardware": "MPS"}),
    ("features-of-library", {"library": "torch_xla"}, {"library": "PyTorch/XLA"}),
    ("top-mentioned", {"label": "model", "limit": 3}, {"label": "Model", "limit": 3}),
    ("evidence", {"source": "pytorch 1.12", "target": "mps", "type": "supports"},
     {"source": "PyTorch 1.12", "target": "MPS", "type": "SUPPORTS"}),
    ("features-by-stability", {"release": "1.10", "stability": "stable"},
     {"release": "PyTorch 1.10", "stability": "Stable"}),
    ("organizations", {"organization": None}, {"organization": None}),
])
def test_issue13_named_query_params_resolve(graph, query, given, resolved):
    assert resolve_params(GraphFileStore(graph=graph), get_query(query), given) == resolved


def test_issue13_named_query_gives_the_rows_of_the_canonical_name(graph):
    store = GraphFileStore(graph=graph)
    query = get_query("features-by-release")
    assert run_named_query(store, query, {"release": "pytorch v1.8"}) == \
        run_named_query(store, query, {"release": "PyTorch 1.8"})


@pytest.mark.parametrize(("query", "given", "message"), [
    ("features-by-release", {"release": "PyTorch 9.9"}, "no Release named 'PyTorch 9.9'"),
    ("top-mentioned", {"label": "Feeture", "limit": 3},
     "the graph has no label 'Feeture'; closest: Feature"),
    ("evidence", {"source": "PyTorch 1.12", "target": "MPS", "type": "SUPORTS"},
     "the graph has no relationship type 'SUPORTS'; closest: SUPPORTS"),
    ("features-by-stability", {"release": "PyTorch 1.10", "stability": "stabel"},
     "the contract has no stability 'stabel'; closest: Stable"),
])
def test_issue13_named_query_unknown_value_is_an_error(graph, query, given, message):
    with pytest.raises(NotFoundError, match="^" + message):
        run_named_query(GraphFileStore(graph=graph), get_query(query), given)


def test_issue13_cli_named_query_accepts_an_alias(handmade_graph_file):
    canonical = run("queries", "run", "features-by-release", "--param", "release=PyTorch 1.8",
                    "--graph", handmade_graph_file, catch=False)
    alias = run("queries", "run", "features-by-release", "--param", "release=pytorch v1.8",
                "--graph", handmade_graph_file, catch=False)
    assert alias.exit_code == canonical.exit_code == 0
    assert alias.stdout == canonical.stdout
    assert "torch.fx" in alias.stdout


@pytest.mark.parametrize("value", ["pytorch 9.9", "PyTorch 9.9"])
def test_issue13_cli_named_query_unknown_name_exits_1(handmade_graph_file, value):
    """Not an empty table with exit 0: an error naming the closest releases."""
    result = run("queries", "run", "features-by-release", "--param", f"release={value}",
                 "--graph", handmade_graph_file)
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: no Release named {value!r} in the graph; "
                                    "closest: PyTorch 1.9")
    assert len(result.output.splitlines()) == 1


# ---------------------------------------------------------------------------- any Cypher

def test_issue13_cypher_name_params_found_with_their_labels():
    assert cypher_name_params('MATCH (a:Release {name: $r})-[x]->(b) WHERE coalesce(b.name, '
                              '"") = $b RETURN a') == {"r": ("Release",), "b": ()}
    assert cypher_name_params("MATCH (a:Release) WHERE a.name = $r MATCH (a)-->(b) RETURN b") \
        == {"r": ("Release",)}  # outside the compiled subset: read from the text


def test_issue13_query_param_resolves(graph):
    cypher = "MATCH (r:Release)-[:SUPPORTS]->(h:Hardware) WHERE h.name = $hw RETURN r.name"
    store = GraphFileStore(graph=graph)
    assert resolve_query_params(store, cypher, {"hw": "mps"}) == \
        {"hw": "MPS"}
    with pytest.raises(NotFoundError, match="^no Hardware named 'MSP'"):
        resolve_query_params(store, cypher, {"hw": "MSP"})


def test_issue13_cli_query_param_accepts_an_alias(handmade_graph_file):
    result = run("query", "MATCH (r:Release)-[:SUPPORTS]->(h:Hardware) WHERE h.name = $hw "
                 "RETURN r.name AS release", "--param", "hw=metal performance shaders",
                 "--graph", handmade_graph_file, "--format", "json", catch=False)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == [{"release": "PyTorch 1.12"}]


def test_issue13_cli_query_unknown_name_exits_1(handmade_graph_file):
    result = run("query", "MATCH (f:Feature) WHERE f.name = $f RETURN f.stability", "--param",
                 "f=torch.fxx", "--graph", handmade_graph_file)
    assert result.exit_code == 1
    assert result.output.startswith("Error: no Feature named 'torch.fxx' in the graph; "
                                    "closest: torch.fx")


def test_issue13_vocabulary_skips_strings_and_comments():
    assert cypher_vocabulary('MATCH (n:Feature) WHERE n.name = "(x:Nope)" // (y:Nope)\n'
                             "RETURN n") == (["Feature"], [])


@pytest.mark.parametrize(("cypher", "warnings"), [
    ("MATCH (n:Feeture) RETURN n.name",
     ["warning: the graph has no label Feeture (closest: Feature)"]),
    ("MATCH (r:Release)-[:SUPORTS|INTRODUCES]->(h) RETURN r.name",
     ["warning: the graph has no relationship type SUPORTS (closest: SUPPORTS)"]),
    ("MATCH (n:Feature) RETURN n.name", []),
])
def test_issue13_cli_query_warns_of_unknown_labels_and_types(handmade_graph_file, cypher,
                                                             warnings):
    result = run("query", cypher, "--graph", handmade_graph_file, catch=False)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == warnings


# ---------------------------------------------------------------------------- commands

def test_issue13_show_accepts_an_alias_and_prints_json(handmade_graph_file):
    result = run("show", "pytorch v1.8", "--graph", handmade_graph_file, "--format", "json",
                 catch=False)
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    (entity,) = data["entities"]
    assert (entity["label"], entity["name"]) == ("Release", "PyTorch 1.8")
    introduces = [r for r in entity["relations"] if r["type"] == "INTRODUCES"]
    assert {r["other"]["name"] for r in introduces} >= {"torch.fx", "ZeroRedundancyOptimizer"}
    assert all(e["url"].startswith("https://") and e["sentence"]
               for r in introduces for e in r["evidence"])
    assert entity["mentioned_in"] == ["https://pytorch.org/blog/pytorch-1.8-released/"]


def test_issue13_lifecycle_and_diff_accept_aliases(handmade_graph_file):
    lifecycle = run("lifecycle", "FX", "--graph", handmade_graph_file, "--format", "json",
                    catch=False)
    assert json.loads(lifecycle.stdout)["feature"] == "torch.fx"
    diff = run("diff", "pytorch v1.9", "1.10", "--graph", handmade_graph_file, "--format",
               "json", catch=False)
    assert (json.loads(diff.stdout)["a"], json.loads(diff.stdout)["b"]) == ("PyTorch 1.9",
                                                                            "PyTorch 1.10")


def test_issue13_render_focus_accepts_an_alias(tmp_path, handmade_graph_file):
    out = tmp_path / "page.html"
    result = run("render", "--graph", handmade_graph_file, "--focus", "pytorch v1.8", "--out",
                 out, catch=False)
    assert result.exit_code == 0
    assert "focus: PyTorch 1.8" in out.read_text(encoding="utf8")
