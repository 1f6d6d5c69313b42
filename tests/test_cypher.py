"""Tests of ptkg.cypher: grand-cypher queries, parameters, errors and output formats."""

from __future__ import annotations

import doctest
import json

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ptkg import cypher
from ptkg.cypher import bind_params, parse_param, quote_literal
from ptkg.errors import QueryError
from ptkg.output import format_rows, generate_lines
from ptkg.stores.grand_cypher import clear_query_cache, query_view, run_query

URL = "https://pytorch.org/blog/pytorch-1.8-released/"
NODES = [
    ("Library", "PyTorch", {"aliases": ["torch"]}),
    ("Release", "PyTorch 1.7", {"library": "PyTorch", "version": "1.7"}),
    ("Release", "PyTorch 1.8", {"library": "PyTorch", "version": "1.8", "date": "2021-03-04"}),
    ("Feature", "torch.fx", {"stability": "Beta", "aliases": ["FX"]}),
    ("Feature", "torch.fft", {"stability": "Stable"}),
    ("Feature", "PyTorch 1.8", {}),  # named like a release
    ("Hardware", "ROCm", {"kind": "backend"}),
    ("Post", URL, {"url": URL, "title": "PyTorch 1.8 released", "date": "2021-03-04"}),
]
EDGES = [
    ("Release:PyTorch 1.8", "Feature:torch.fx", "INTRODUCES", {"stability": "Beta"}),
    ("Release:PyTorch 1.7", "Feature:torch.fft", "INTRODUCES", {"stability": "Stable"}),
    ("Release:PyTorch 1.7", "Feature:PyTorch 1.8", "INTRODUCES", {}),
    ("Library:PyTorch", "Release:PyTorch 1.7", "HAS_RELEASE", {}),
    ("Library:PyTorch", "Release:PyTorch 1.8", "HAS_RELEASE", {}),
    ("Release:PyTorch 1.7", "Release:PyTorch 1.8", "PRECEDES", {}),
    ("Release:PyTorch 1.8", "Hardware:ROCm", "SUPPORTS", {}),
    (f"Post:{URL}", "Release:PyTorch 1.8", "ANNOUNCES", {}),
    (f"Post:{URL}", "Release:PyTorch 1.8", "MENTIONS", {"count": 3}),
    (f"Post:{URL}", "Feature:torch.fx", "MENTIONS", {"count": 2}),
]
WEIRD_NAMES = [
    'x" OR 1=1 //',
    '" RETURN f.name //',
    "ends with a backslash \\",
    '\\" still inside',
    "two\nlines\r\tand a tab",
    "nul \x00 escape \x1b bell \x07",
    "line separator \u2028 and bom \ufeff",
    "lone surrogate \udc80",
    "é 😀 中文",
    "$name",
    "//",
    "",
]


def _add_node(graph: nx.MultiDiGraph, label: str, name: str, props: dict) -> None:
    node_name = props.get("title", name)
    graph.add_node(f"{label}:{name}", label=label, name=node_name, **props)


def _add_edge(graph: nx.MultiDiGraph, source: str, target: str, type_: str, props: dict) -> None:
    provenance = {"sources": [URL], "evidence": [f"{source} {type_} {target}"],
                  "rules": ["test"], "count": 1}
    graph.add_edge(source, target, key=type_, type=type_, **{**provenance, **props})


def make_graph(reverse: bool = False) -> nx.MultiDiGraph:
    """The small hand-made graph, inserted in the given or the reverse order."""
    graph = nx.MultiDiGraph()
    order = reversed if reverse else list
    for label, name, props in order(NODES):
        _add_node(graph, label, name, props)
    for source, target, type_, props in order(EDGES):
        _add_edge(graph, source, target, type_, props)
    return graph


def make_named_graph(names: list[str]) -> nx.MultiDiGraph:
    """The small graph plus one Feature per name."""
    graph = make_graph()
    for name in names:
        _add_node(graph, "Feature", name, {})
    return graph


@pytest.fixture
def graph() -> nx.MultiDiGraph:
    return make_graph()


@pytest.mark.parametrize(
    "query, columns, rows",
    [
        (
            'MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) WHERE r.name = "PyTorch 1.8" '
            "RETURN f.name, i.stability",
            ["f.name", "i.stability"],
            [["torch.fx", "Beta"]],
        ),
    ],
)
def test_run_query_example(graph, query, columns, rows):
    assert run_query(graph, query) == (columns, rows)


@pytest.mark.parametrize(
    "query, rows",
    [
        ('MATCH (r:Release) WHERE r.name = "PyTorch 1.8" RETURN ID(r)',
         [["Release:PyTorch 1.8"]]),
        ('MATCH (f:Feature) WHERE f.name = "PyTorch 1.8" RETURN ID(f)',
         [["Feature:PyTorch 1.8"]]),
        ('MATCH (n) WHERE n.name = "PyTorch 1.8" RETURN ID(n)',
         [["Feature:PyTorch 1.8"], ["Release:PyTorch 1.8"]]),
        ('MATCH (n:Feature|Library) WHERE n.name STARTS WITH "PyTorch" RETURN ID(n)',
         [["Feature:PyTorch 1.8"], ["Library:PyTorch"]]),
    ],
)
def test_run_query_filters_labels(graph, query, rows):
    assert run_query(graph, query)[1] == rows


@pytest.mark.parametrize(
    "query, rows",
    [
        ("MATCH (p:Post)-[m:MENTIONS]->(r:Release) RETURN type(m), m.count", [["MENTIONS", 3]]),
        ("MATCH (p:Post)-[m:ANNOUNCES]->(r:Release) RETURN type(m), m.count", [["ANNOUNCES", 1]]),
        ("MATCH (p:Post)-[m]->(r:Release) RETURN type(m), m.count",
         [["ANNOUNCES", 1], ["MENTIONS", 3]]),
        ("MATCH (p:Post)-[m:MENTIONS|ANNOUNCES]->(x) RETURN type(m), x.name",
         [["ANNOUNCES", "PyTorch 1.8"], ["MENTIONS", "PyTorch 1.8"], ["MENTIONS", "torch.fx"]]),
        ('MATCH (p:Post)-[m]->(r:Release) WHERE type(m) = "MENTIONS" RETURN m.count', [[3]]),
    ],
)
def test_run_query_filters_relationship_types(graph, query, rows):
    assert run_query(graph, query)[1] == rows


@pytest.mark.parametrize(
    "query, columns, rows",
    [
        ("MATCH (r:Release)-[:INTRODUCES]->(f:Feature) RETURN r.name, COUNT(f) AS features",
         ["r.name", "features"], [["PyTorch 1.7", 2], ["PyTorch 1.8", 1]]),
        ("MATCH (r:Release)-[:INTRODUCES]->(f:Feature) RETURN COUNT(f), r.name",
         ["COUNT(f)", "r.name"], [[1, "PyTorch 1.8"], [2, "PyTorch 1.7"]]),
        ("MATCH (r:Release)-[:INTRODUCES]->(f:Feature) RETURN r.name, COLLECT(f.name) AS names",
         ["r.name", "names"],
         [["PyTorch 1.7", ["PyTorch 1.8", "torch.fft"]], ["PyTorch 1.8", ["torch.fx"]]]),
        ("MATCH (p:Post)-[m:MENTIONS]->(x) RETURN SUM(m.count) AS total, MAX(m.count) AS most",
         ["total", "most"], [[5, 3]]),
        ('MATCH (f:Feature) WHERE f.name = "nothing" '
         "RETURN COUNT(f) AS n, COLLECT(f.name) AS names", ["n", "names"], [[0, []]]),
        ('MATCH (f:Feature) WHERE f.name = "nothing" RETURN COUNT(f) AS n LIMIT 0', ["n"], []),
    ],
)
def test_run_query_aggregates(graph, query, columns, rows):
    assert run_query(graph, query) == (columns, rows)


@pytest.mark.parametrize(
    "query, rows",
    [
        ("MATCH (f:Feature) RETURN f.name ORDER BY f.name DESC LIMIT 2",
         [["torch.fx"], ["torch.fft"]]),
        ("MATCH (f:Feature) RETURN f.name ORDER BY f.name SKIP 1 LIMIT 1", [["torch.fft"]]),
        ("MATCH (p:Post)-[m:MENTIONS]->(x) RETURN x.name, m.count ORDER BY m.count DESC",
         [["PyTorch 1.8", 3], ["torch.fx", 2]]),
        ("MATCH (r:Release)-[:INTRODUCES]->(f) RETURN r.name, COUNT(f) AS n "
         "ORDER BY n DESC LIMIT 1", [["PyTorch 1.7", 2]]),
        ("MATCH (f:Feature) RETURN f.name LIMIT 2", [["PyTorch 1.8"], ["torch.fft"]]),
    ],
)
def test_run_query_orders_and_limits(graph, query, rows):
    assert run_query(graph, query)[1] == rows


@pytest.mark.parametrize(
    "query",
    [
        "MATCH (f:Feature) RETURN f.name LIMIT 2",
        "MATCH (r:Release)-[:INTRODUCES]->(f) RETURN f.name, r.name ORDER BY r.name",
        "MATCH (n) RETURN n.name, n.label",
        "MATCH (r:Release)-[:INTRODUCES]->(f) RETURN r.name, COLLECT(f.name) AS names",
    ],
)
def test_run_query_ignores_insertion_order(query):
    assert run_query(make_graph(), query) == run_query(make_graph(reverse=True), query)


@pytest.mark.parametrize(
    "query, row",
    [
        (
            'MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) WHERE f.name = "torch.fx" RETURN f, i',
            [
                {"aliases": ["FX"], "label": "Feature", "name": "torch.fx", "stability": "Beta"},
                {"count": 1, "evidence": ["Release:PyTorch 1.8 INTRODUCES Feature:torch.fx"],
                 "rules": ["test"], "sources": [URL], "stability": "Beta", "type": "INTRODUCES"},
            ],
        ),
    ],
)
def test_run_query_returns_plain_entities(graph, query, row):
    columns, rows = run_query(graph, query)
    assert (columns, rows) == (["f", "i"], [row])
    assert [list(value) for value in rows[0]] == [sorted(value) for value in row]
    rows[0][0]["aliases"].append("changed")
    assert graph.nodes["Feature:torch.fx"]["aliases"] == ["FX"]
    assert [n for n, data in graph.nodes(data=True) if "__labels__" in data] == []
    assert [e for *e, data in graph.edges(keys=True, data=True) if "__labels__" in data] == []


@pytest.mark.parametrize(
    "query, rows",
    [
        ('MATCH (a:Release)-[p:PRECEDES|INTRODUCES*1..2]->(f:Feature) WHERE f.name = "torch.fx" '
         "RETURN a.name, p",
         [["PyTorch 1.7", ["PRECEDES", "INTRODUCES"]], ["PyTorch 1.8", ["INTRODUCES"]]]),
        ('MATCH (a:Release)-[:PRECEDES*0..1]->(b:Release) WHERE a.name = "PyTorch 1.7" '
         "RETURN b.name", [["PyTorch 1.7"], ["PyTorch 1.8"]]),
    ],
)
def test_run_query_variable_length(graph, query, rows):
    _, found = run_query(graph, query)
    simple = [[v if isinstance(v, str) else [e["type"] for e in v] for v in row] for row in found]
    assert simple == rows


@pytest.mark.parametrize(
    "value, literal",
    [
        ("PyTorch 1.8", '"PyTorch 1.8"'),
        (3, "3"),
        (-2, "-2"),
        (1.5, "1.5"),
        (1e-20, "1e-20"),
        (True, "true"),
        (False, "false"),
        (None, "null"),
        (["a", 1, None, [True]], '["a", 1, null, [true]]'),
        (("a",), '["a"]'),
        ('x" OR 1=1 //', '"x\\" OR 1=1 //"'),
        ("a\\", '"a\\\\"'),
        ('\\"', '"\\\\\\""'),
        ("l1\nl2\r\t\b\f", '"l1\\nl2\\r\\t\\b\\f"'),
        ("\x00\x1b\u2028\ufeff", '"\\u0000\\u001b\\u2028\\ufeff"'),
        ("\U000e0001", '"\\U000e0001"'),
        ("é 😀 中文 'single'", "\"é 😀 中文 'single'\""),
    ],
)
def test_quote_literal_values(value, literal):
    assert quote_literal(value) == literal


@pytest.mark.parametrize("value", [{"a": 1}, float("nan"), float("inf"), b"bytes", [object()]])
def test_quote_literal_rejects(value):
    with pytest.raises(QueryError, match="cannot"):
        quote_literal(value)


@pytest.mark.parametrize(
    "query, params, bound",
    [
        ("MATCH (n) WHERE n.name = $name RETURN n.name", {"name": "a"},
         'MATCH (n) WHERE n.name = "a" RETURN n.name'),
        ('MATCH (n) WHERE n.name = "$a" // $a\nRETURN n.name, $a', {"a": 1},
         'MATCH (n) WHERE n.name = "$a" // $a\nRETURN n.name, 1'),
        ("RETURN 'it''s $a', \"say \\\"$a\\\"\", `$a`, /* $a */ $a", {"a": 2},
         "RETURN 'it''s $a', \"say \\\"$a\\\"\", `$a`, /* $a */ 2"),
        ("WHERE n.v IN $vs AND n.x = $x_1 LIMIT $n", {"vs": ["1.8", 2], "x_1": None, "n": 5},
         'WHERE n.v IN ["1.8", 2] AND n.x = null LIMIT 5'),
        ("RETURN $a$a, $ab", {"a": 1, "ab": 2, "unused": {"a": 1}}, "RETURN 11, 2"),
        ('WHERE n.name = "unterminated $a', {}, 'WHERE n.name = "unterminated $a'),
    ],
)
def test_bind_params_outside_literals(query, params, bound):
    assert bind_params(query, params) == bound


@pytest.mark.parametrize(
    "query, params, message",
    [
        ("RETURN $b, $a, $b", {}, "missing value for query parameter(s) $b, $a"),
        ("MATCH (n) WHERE n.name = $name RETURN n.name", {"nam": "x"},
         "missing value for query parameter(s) $name"),
    ],
)
def test_bind_params_missing(query, params, message):
    with pytest.raises(QueryError) as info:
        bind_params(query, params)
    assert str(info.value) == message


@pytest.mark.parametrize("params", [None, {}])
def test_run_query_missing_param(graph, params):
    with pytest.raises(QueryError, match=r"^missing value for query parameter\(s\) \$release$"):
        run_query(graph, "MATCH (r:Release) WHERE r.name = $release RETURN r.name", params)


@pytest.mark.parametrize(
    "query, params, rows",
    [
        ("MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) WHERE r.name = $release "
         "RETURN f.name, i.stability", {"release": "PyTorch 1.8"}, [["torch.fx", "Beta"]]),
        ("MATCH (f:Feature) WHERE f.stability IN $levels RETURN f.name",
         {"levels": ["Beta", "Stable"]}, [["torch.fft"], ["torch.fx"]]),
        ("MATCH (p:Post)-[m:MENTIONS]->(x) WHERE m.count >= $min RETURN x.name",
         {"min": 2.5}, [["PyTorch 1.8"]]),
        ("MATCH (f:Feature) RETURN f.name ORDER BY f.name LIMIT $n", {"n": 1}, [["PyTorch 1.8"]]),
        ('MATCH (f:Feature) WHERE f.name = $name OR f.name = "$name" RETURN f.name',
         {"name": "torch.fx"}, [["torch.fx"]]),
    ],
)
def test_run_query_params(graph, query, params, rows):
    assert run_query(graph, query, params)[1] == rows


@pytest.mark.parametrize("name", WEIRD_NAMES)
def test_run_query_param_matches_literally(name):
    graph = make_named_graph(WEIRD_NAMES)
    query = "MATCH (f:Feature) WHERE f.name = $name RETURN ID(f), f.name"
    assert run_query(graph, query, {"name": name})[1] == [[f"Feature:{name}", name]]


@pytest.mark.parametrize(
    "attempt",
    [
        'x" OR f.name = "torch.fx',
        'torch.fx" OR "1" = "1',
        '" OR 1=1 //',
        'x"}) MATCH (f:Feature) RETURN f.name //',
        "torch.fx\\",
        "torch.fx\n",
    ],
)
def test_run_query_param_injection_finds_nothing(graph, attempt):
    query = "MATCH (f:Feature) WHERE f.name = $name RETURN f.name"
    assert run_query(graph, query, {"name": attempt}) == (["f.name"], [])


@settings(max_examples=60, deadline=None)
@given(name=st.text(max_size=12))
def test_run_query_param_roundtrips_any_text(name):
    graph = make_named_graph([name, name + "x"])
    query = "MATCH (f:Feature) WHERE f.name = $name RETURN ID(f)"
    assert run_query(graph, query, {"name": name})[1] == [[f"Feature:{name}"]]


@pytest.mark.parametrize(
    "text, param",
    [
        ("release=PyTorch 1.8", ("release", "PyTorch 1.8")),
        ("version=1.8", ("version", "1.8")),
        ("flag=true", ("flag", "true")),
        ("empty=", ("empty", "")),
        ("expr=a=b", ("expr", "a=b")),
        ("n:=5", ("n", 5)),
        ("x:=1.5", ("x", 1.5)),
        ("b:=true", ("b", True)),
        ("z:=null", ("z", None)),
        ('s:="PyTorch 1.8"', ("s", "PyTorch 1.8")),
        ('levels:=["Beta", 2]', ("levels", ["Beta", 2])),
        (" spaced =x", ("spaced", "x")),
    ],
)
def test_parse_param_values(text, param):
    assert parse_param(text) == param


@pytest.mark.parametrize(
    "text, message",
    [
        ("release", "bad parameter 'release': write NAME=VALUE, or NAME:=JSON"),
        ("=x", "bad parameter name '': use letters, digits and _"),
        ("1st=x", "bad parameter name '1st': use letters, digits and _"),
        ("n:=five", "parameter n: invalid JSON 'five' (Expecting value)"),
        ('m:={"a": 1}', "cannot use a dict as a query parameter: "
                        "give a string, number, boolean, null or a list of these"),
        ("n:=NaN", "cannot write nan as a Cypher literal"),
    ],
)
def test_parse_param_errors(text, message):
    with pytest.raises(QueryError) as info:
        parse_param(text)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "query, message",
    [
        ("MATCH (r:Release) RETURN r.name;",
         "Cypher syntax error at line 1, column 32: unexpected ';'"),
        ('MATCH (r:Release)\nWHERE r.name = "x"\nRETURN  \n',
         "Cypher syntax error at line 3, column 7: unexpected end of query"),
        ("", "Cypher syntax error at line 1, column 1: unexpected end of query"),
        ("MATCH (r) RETURN count(r)",
         "Cypher syntax error at line 1, column 23: unexpected '(' "
         "(write COUNT in upper case)"),
        ("MATCH (r) WHERE exists { MATCH (r)-->(h) } RETURN r",
         "Cypher syntax error at line 1, column 24: unexpected '{' (write EXISTS in upper case)"),
        ("OPTIONAL MATCH (r) RETURN r",
         "Cypher syntax error at line 1, column 1: unexpected 'OPTIONAL' "
         "(OPTIONAL is not supported by grand-cypher)"),
        ("MATCH (a:Release)\n  WITH a RETURN a.name",
         "Cypher syntax error at line 2, column 3: unexpected 'WITH' "
         "(WITH is not supported by grand-cypher)"),
        ("MATCH (a:Release), (b:Release) RETURN a.name",
         "Cypher syntax error at line 1, column 18: unexpected ','"),
        ("MATCH (a) WHERE a.name = 'x' RETURN a",
         "Cypher syntax error at line 1, column 26: unexpected \"'\""),
    ],
)
def test_run_query_syntax_error(graph, query, message):
    with pytest.raises(QueryError) as info:
        run_query(graph, query)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "query, message",
    [
        ("MATCH (r:Release) RETURN x.name",
         "cannot run Cypher query: NotImplementedError: Unknown entity name: x.name"),
        ("MATCH (r:Release)-[*1..300]->(f) RETURN f.name",
         "cannot run Cypher query: ValueError: max hop is caped at 100, found 301!"),
        ("MATCH (f:Feature) RETURN f.name ORDER BY f.stability",
         "cannot run Cypher query: TypeError: '<' not supported between instances of 'str' and "
         "'float' (ORDER BY, MIN or MAX over a value that is null on some rows: use "
         'coalesce(x, "") AS key and ORDER BY key)'),
        ("MATCH (r:Release) RETURN DISTINCT r.name AS name",
         "RETURN DISTINCT cannot be combined with AS or aggregates in grand-cypher"),
        ("MATCH (r:Release)-[:INTRODUCES]->(f) RETURN DISTINCT r.name, COUNT(f)",
         "RETURN DISTINCT cannot be combined with AS or aggregates in grand-cypher"),
        ("MATCH (r:Release) RETURN r.name, r.name",
         "two RETURN items give the column 'r.name': give each a distinct AS alias"),
        ("MATCH (r:Release) RETURN r.name, r.version AS name, r.date AS name",
         "two RETURN items give the column 'name': give each a distinct AS alias"),
        ("MATCH p = (r:Release)-->(f) RETURN p",
         "named paths (p = ...) are not supported: return the nodes and relationships instead"),
    ],
)
def test_run_query_unsupported(graph, query, message):
    with pytest.raises(QueryError) as info:
        run_query(graph, query)
    assert str(info.value) == message


@pytest.mark.parametrize(
    "query",
    ["MATCH (r:Release)\nRETURN r.name;", "MATCH (r:Release) RETURN x.name", "MATCH (r) RETURN"],
)
def test_run_query_error_is_one_line(graph, query):
    with pytest.raises(QueryError) as info:
        run_query(graph, query)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "query, rows",
    [
        ('MATCH (f:Feature) WHERE NOT f.stability IS NULL AND f.name CONTAINS "f" '
         "RETURN toUpper(f.name) AS name", [["TORCH.FFT"], ["TORCH.FX"]]),
        ('MATCH (r:Release) RETURN r.name, coalesce(r.date, "unknown") AS date',
         [["PyTorch 1.7", "unknown"], ["PyTorch 1.8", "2021-03-04"]]),
        ("MATCH (r:Release) WHERE EXISTS { MATCH (r)-[:SUPPORTS]->(h:Hardware) } RETURN r.name",
         [["PyTorch 1.8"]]),
        ("MATCH (l:Library)-[:HAS_RELEASE]->(r) MATCH (r)-[:INTRODUCES]->(f) "
         'WHERE f.stability = "Beta" RETURN l.name, f.name', [["PyTorch", "torch.fx"]]),
        ("MATCH (f:Feature) RETURN DISTINCT f.label", [["Feature"]]),
    ],
)
def test_run_query_supported_features(graph, query, rows):
    assert run_query(graph, query)[1] == rows


def test_query_view_cached_per_graph(graph):
    view = query_view(graph)
    assert query_view(graph) is view
    assert view.nodes["Release:PyTorch 1.8"]["__labels__"] == {"Release"}
    assert view.edges["Release:PyTorch 1.8", "Feature:torch.fx", "INTRODUCES"]["__labels__"] == {
        "INTRODUCES"}
    _add_node(graph, "Feature", "torch.linalg", {})
    rebuilt = query_view(graph)
    assert rebuilt is not view
    assert "Feature:torch.linalg" in rebuilt
    clear_query_cache()
    assert query_view(graph) is not rebuilt


def test_query_view_clear_sees_attribute_changes(graph):
    query = 'MATCH (f:Feature) WHERE f.name = "torch.fx" RETURN f.stability'
    assert run_query(graph, query)[1] == [["Beta"]]
    graph.nodes["Feature:torch.fx"]["stability"] = "Stable"
    clear_query_cache()
    assert run_query(graph, query)[1] == [["Stable"]]


COLUMNS = ["f.name", "i.stability", "n", "aliases"]
ROWS = [
    ["torch.fx", "Beta", 2, ["FX", "fx"]],
    ["torch.fft", None, 10, []],
    ["中文", 'say "hi", ok', 1.5, {"k": True}],
    ["line\nbreak", True, None, None],
]
TABLE = """\
f.name       i.stability   n    aliases
-----------  ------------  ---  ------------
torch.fx     Beta          2    ["FX", "fx"]
torch.fft                  10   []
中文         say "hi", ok  1.5  {"k": true}
line\\nbreak  true
"""
JSON = """\
[
  {
    "f.name": "torch.fx",
    "i.stability": "Beta",
    "n": 2,
    "aliases": [
      "FX",
      "fx"
    ]
  },
  {
    "f.name": "torch.fft",
    "i.stability": null,
    "n": 10,
    "aliases": []
  },
  {
    "f.name": "中文",
    "i.stability": "say \\"hi\\", ok",
    "n": 1.5,
    "aliases": {
      "k": true
    }
  },
  {
    "f.name": "line\\nbreak",
    "i.stability": true,
    "n": null,
    "aliases": null
  }
]
"""
CSV = """\
f.name,i.stability,n,aliases
torch.fx,Beta,2,"[""FX"", ""fx""]"
torch.fft,,10,[]
中文,"say ""hi"", ok",1.5,"{""k"": true}"
"line
break",true,,
"""


@pytest.mark.parametrize("fmt, text", [("table", TABLE), ("json", JSON), ("csv", CSV)])
def test_format_rows_formats(fmt, text):
    assert format_rows(COLUMNS, ROWS, fmt) == text


@pytest.mark.parametrize("fmt", ["json"])
def test_format_rows_json_matches_json_dumps(fmt):
    records = [dict(zip(COLUMNS, row, strict=True)) for row in ROWS]
    assert format_rows(COLUMNS, ROWS, fmt) == json.dumps(records, indent=2,
                                                         ensure_ascii=False) + "\n"


@pytest.mark.parametrize(
    "fmt, text",
    [("table", "f.name\n------\n"), ("json", "[]\n"), ("csv", "f.name\n")],
)
def test_format_rows_empty(fmt, text):
    assert format_rows(["f.name"], [], fmt) == text


@pytest.mark.parametrize(
    "fmt, lines",
    [("csv", ["f.name,i.stability", "torch.fx,Beta"]),
     ("table", ["f.name    i.stability", "--------  -----------", "torch.fx  Beta"])],
)
def test_generate_lines_one_per_line(fmt, lines):
    assert list(generate_lines(["f.name", "i.stability"], [["torch.fx", "Beta"]], fmt)) == lines


@pytest.mark.parametrize("fmt", ["yaml", ""])
def test_format_rows_unknown_format(fmt):
    with pytest.raises(ValueError, match="unknown output format"):
        format_rows(["a"], [[1]], fmt)


@pytest.mark.parametrize("fmt", ["json"])
def test_format_rows_of_query(graph, fmt):
    columns, rows = run_query(
        graph, 'MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) WHERE r.name = "PyTorch 1.8" '
        "RETURN f.name, i.stability")
    assert json.loads(format_rows(columns, rows, fmt)) == [
        {"f.name": "torch.fx", "i.stability": "Beta"}]


@pytest.mark.parametrize("module", [cypher])
def test_cypher_doctests(module):
    results = doctest.testmod(module)
    assert results.failed == 0
    assert results.attempted >= 5
