"""Issue 13: the compiled executor gives grand-cypher's answers, or hands the query back.

``ptkg.stores.compiled`` answers the named queries (and most other queries) without
grand-cypher; every answer it gives must be grand-cypher's own, to the row and the order, and
what it cannot answer identically it refuses (``Unsupported``) so that grand-cypher runs it.
Compared here: every named query with every name of the graph that fits its parameters, on the
hand-made graph and on the sample's, and a list of other queries. No timings are checked
(``bench/queries.py`` measures them).
"""

from __future__ import annotations

import itertools

import networkx as nx
import pytest

from ptkg.errors import QueryError
from ptkg.graph import read_graph
from ptkg.named_queries import check_params, load_queries
from ptkg.stores import compiled, grand_cypher
from ptkg.stores.compiled import Unsupported, compile_query, parse, run_compiled
from ptkg.stores.grand_cypher import clear_query_cache, run_on_grand_cypher, run_query
from ptkg.stores.indexes import graph_index

QUERIES = load_queries()
VALUES_PER_PARAM = 12

VARIABLE_LENGTH = [
    'MATCH (r:Release)-[i:INTRODUCES|SUPPORTS]->(f)-[:SUPPORTS*0..1]->(h:Hardware|Platform) '
    'WHERE h.name = "MPS" RETURN r.name, f.name, i.stability ORDER BY r.name, f.name',
    'MATCH (r:Release)-[:PRECEDES*1..3]->(s) RETURN r.name, s.name',
    'MATCH (r:Release)-[:PRECEDES*0..2]->(s:Release) RETURN r.name, s.name',
    'MATCH (r:Release)-[:PRECEDES*2]->(s) RETURN r.name, s.name',
    'MATCH (r:Release)-[:PRECEDES*0]->(s) RETURN r.name, s.name',
    'MATCH (r:Release)-[:PRECEDES*2..1]->(s) RETURN r.name, s.name',
    'MATCH (r:Release)-[:PRECEDES*2..1]->(s) RETURN COUNT(s) AS n',
    'MATCH (r:Release)<-[:PRECEDES*1..2]-(s) WHERE r.name = "PyTorch 1.10" RETURN s.name',
    'MATCH (s)-[:PRECEDES*0..1]->(r:Release) WHERE r.name = "PyTorch 1.10" RETURN s.name',
    'MATCH (r)<-[:PRECEDES*0..1]-(s) WHERE s.name = "PyTorch 1.9" RETURN r.name, s.name',
    'MATCH (r)<-[:PRECEDES*0..1]-(s) WHERE r.name = "PyTorch 1.9" RETURN r.name, s.name',
    'MATCH (a)-[*1..2]->(b) WHERE a.name = "PyTorch 1.8" RETURN b.name, b.label',
    'MATCH (a)-[*0..2]->(b:Feature) WHERE a.name = "PyTorch 1.9" RETURN b.name',
    'MATCH (a:Release {name: "PyTorch 1.9"})-[*0..1]->(b) RETURN a.name, b.name',
    'MATCH (a)-[*0..1]->(b {name: "PyTorch 1.9"}) RETURN a.name, b.name',
    'MATCH (a)-[:PRECEDES*0..1]->(b)-[:PRECEDES*0..1]->(c) WHERE c.name = "PyTorch 1.10" '
    'RETURN a.name, b.name, c.name',
    'MATCH (a)-[:PRECEDES*0..1]->(b)<-[:PRECEDES*0..1]-(c) WHERE b.name = "PyTorch 1.9" '
    'RETURN a.name, b.name, c.name',
    'MATCH (a)<-[:PRECEDES*0..1]-(b)-[:PRECEDES*0..1]->(c) WHERE c.name = "PyTorch 1.9" '
    'RETURN a.name, b.name, c.name',
    'MATCH (l:Library)-[:HAS_RELEASE]->(r)-[:INTRODUCES|SUPPORTS*1..2]->(x) '
    'RETURN l.name, x.label, COUNT(r) AS n',
    'MATCH (r:Release)-[:INTRODUCES*0..1]->(f) WHERE f.stability = "Stable" OR '
    'f.label = "Release" RETURN r.name, f.name',
    'MATCH (r:Release)-[:PRECEDES*0..1]->(s) WHERE NOT s.name = "PyTorch 1.9" '
    'RETURN r.name, s.name',
    'MATCH (p:Post)-[:MENTIONS*0..1]->(e:Hardware) RETURN e.name, COUNT(p) AS n '
    'ORDER BY n DESC, e.name',
    'MATCH (r:Release)-[ :PRECEDES * 1 .. 2 ]->(s) RETURN r.name, s.name',
]

ADHOC = [
    'MATCH (n:Feature) RETURN n.name',
    'MATCH (n) RETURN n.label, COUNT(n) AS c',
    'MATCH (n:Feature) RETURN n.name, n.stability ORDER BY n.name LIMIT 5',
    'MATCH (n:Feature) RETURN n.name ORDER BY n.name DESC SKIP 3 LIMIT 4',
    'MATCH (n:Feature) WHERE n.name STARTS WITH "torch." RETURN n.name',
    'MATCH (n:Feature) WHERE n.name ENDS WITH "fx" RETURN n.name',
    'MATCH (n:Feature) WHERE n.name CONTAINS "Zero" RETURN n.name, n.aliases',
    'MATCH (n:Feature) WHERE NOT n.stability IS NULL RETURN n.name, n.stability',
    'MATCH (n:Feature) WHERE n.stability IS NULL RETURN COUNT(n) AS c',
    'MATCH (n:Feature) WHERE n.stability IN ["Beta", "Stable"] RETURN n.name',
    'MATCH (n:Feature) WHERE NOT n.stability IN ["Beta", "Stable"] RETURN n.name',
    'MATCH (n:Feature) WHERE n.stability = "Beta" OR n.stability = "Prototype" RETURN n.name',
    'MATCH (n:Feature) WHERE n.stability <> "Beta" RETURN n.name',
    'MATCH (n:Feature) WHERE NOT n.stability = "Beta" RETURN n.name',
    'MATCH (r:Release) WHERE r.version_order > 3 RETURN r.name, r.version_order',
    'MATCH (r:Release) WHERE r.version_order >= 2 AND r.version_order <= 4 RETURN r.name',
    'MATCH (r:Release) WHERE r.version_order * 2 > 6 RETURN r.name',
    'MATCH (r:Release) WHERE r.version_order + 1 = 3 RETURN r.name',
    'MATCH (r:Release) WHERE r.date < "2021-06-01" RETURN r.name, r.date',
    'MATCH (r:Release) RETURN r.library, COUNT(r) AS n ORDER BY n DESC, r.library',
    'MATCH (r:Release) RETURN r.library, MAX(r.version_order) AS top, MIN(r.version_order) AS low',
    'MATCH (r:Release) RETURN r.library, AVG(r.version_order) AS a, SUM(r.version_order) AS s',
    'MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) RETURN r.name, i.stability, f.name',
    'MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) RETURN r.name AS release, COUNT(f) AS n '
    'ORDER BY n DESC, release LIMIT 3',
    'MATCH (f:Feature)<-[i:INTRODUCES]-(r:Release) WHERE f.name = "torch.fx" RETURN r.name, i',
    'MATCH (f:Feature)<-[i:INTRODUCES]-(r) RETURN f, r.name',
    'MATCH (a)-[r]->(b) WHERE a.name = "PyTorch 1.8" RETURN type(r), b.name',
    'MATCH (a:Release {name: "PyTorch 1.8"})-[r]->(b) RETURN type(r), b.name',
    'MATCH (a)-[r:SUPPORTS|PART_OF]->(b) RETURN a.name, type(r) AS t, b.name',
    'MATCH (p:Post)-[m:MENTIONS]->(e) RETURN e.label, COUNT(p) AS c, SUM(m.count) AS s',
    'MATCH (p:Post)-[m:MENTIONS]->(e:Hardware) RETURN e.name, COUNT(p) AS posts '
    'ORDER BY posts DESC, e.name',
    'MATCH (l:Library)-->(r:Release) RETURN l.name, r.name',
    'MATCH (r:Release)<--(l:Library) RETURN l.name, r.name',
    'MATCH (r:Release)-[:PRECEDES]->(s:Release)-[:PRECEDES]->(t) RETURN r.name, s.name, t.name',
    'MATCH (a)-[:INTRODUCES]->(f)<-[:INTRODUCES]-(b) RETURN a.name, f.name, b.name',
    'MATCH (n:Feature) RETURN toLower(n.name) AS low, toUpper(n.name) AS up, trim(n.name) AS t, '
    'size(n.name) AS s',
    'MATCH (n:Feature) RETURN size(n.aliases) AS s, n.name',
    'MATCH (n) RETURN ID(n) AS id, n.name',
    'MATCH (n:Release) RETURN coalesce(n.date, "unknown") AS d, n.name',
    'MATCH (n:Release) RETURN coalesce(n.date, n.name), n.name',
    'MATCH (n:Release) RETURN DISTINCT n.library',
    'MATCH (n:Release) RETURN DISTINCT n.library, n.date',
    'MATCH (n:Feature) WHERE toLower(n.name) = "torch.fx" RETURN n.name',
    'MATCH (n) WHERE toLower(n.name) = "torch.fx" RETURN n.name',
    'MATCH (n) WHERE size(n.aliases) > 1 RETURN n.name',
    'MATCH (n:Release) WHERE NOT n.date IS NULL RETURN n.name ORDER BY n.date DESC, n.name',
    'MATCH (r:Release) RETURN COUNT(r) AS n',
    'MATCH (r:Release) WHERE r.name = "nope" RETURN COUNT(r) AS n, SUM(r.version_order) AS s',
    'MATCH (r:Release) WHERE r.name = "nope" RETURN r.name, COUNT(r) AS n',
    'MATCH (f:Feature) WHERE f.name = "nothing" RETURN COUNT(f) AS n LIMIT 0',
    'MATCH (n:Feature) WHERE n.name = "torch.fx" OR n.name = "torch.fft" RETURN n.name',
    'MATCH (n:Feature) WHERE (n.name = "torch.fx" OR n.name = "torch.fft") AND '
    'n.stability = "Stable" RETURN n.name',
    'MATCH (a)-[r]->(b) WHERE (coalesce(a.name, "") = "torch.fx" OR '
    'coalesce(b.name, "") = "torch.fx") RETURN a.name, type(r), b.name',
    'MATCH (r:Release) WHERE r.library = "PyTorch" AND r.version_order < 3 RETURN r.name',
    'MATCH (r:Release)-[x:RELEASED_WITH]->(c) RETURN r.name, c.name, x.count, x.sources',
    'MATCH (n:Nope) RETURN n.name',
    'MATCH (a)-[:NOPE]->(b) RETURN a.name',
    'match (n:Feature) where n.name = "torch.fx" return n.name as x',
    'MATCH (p:Post)-[m:MENTIONS]->(e) WHERE m.count > 1 RETURN p.url, e.name, m.count '
    'ORDER BY m.count DESC, p.url, e.name',
    'MATCH (n:Feature) WHERE n.stability = "Beta" AND n.name = "AOTInductor" RETURN n.name',
    'MATCH (r:Release) WHERE r.version_order = 1.0 RETURN r.name',
    'MATCH (r:Release) WHERE r.version_order = true RETURN r.name',
    'MATCH (r) WHERE r.label = "Library" RETURN r.name',
    'MATCH (r:Release)-[i:INTRODUCES]->(f) WHERE i.stability = "Beta" RETURN r.name, f.name',
    'MATCH (r:Release)-[i:INTRODUCES]->(f) WHERE i.stability = "Beta" AND r.name = "PyTorch 1.8" '
    'RETURN f.name',
    'MATCH (r:Release) RETURN r.name AS n ORDER BY n DESC LIMIT 2',
    'MATCH (r:Release)-[i]->(f) RETURN type(i) AS t, COUNT(f) AS n ORDER BY t',
    'MATCH (r:Release) RETURN r',
    'MATCH (r:Release) WHERE r.name = $x RETURN r.name',
    # ORDER BY with LIMIT: only ties that reach the rows returned matter (issue 13)
    'MATCH (p:Post)-[m:MENTIONS]->(e) RETURN e.name AS name, COUNT(p) AS posts '
    'ORDER BY posts DESC LIMIT 3',
    'MATCH (p:Post)-[m:MENTIONS]->(e) RETURN e.name AS name, COUNT(p) AS posts '
    'ORDER BY posts DESC SKIP 2 LIMIT 3',
    'MATCH (p:Post)-[m:MENTIONS]->(e) RETURN e.name AS name, SUM(m.count) AS n '
    'ORDER BY n, name LIMIT 4',
    'MATCH (p:Post)-[m:MENTIONS]->(e) RETURN e.label AS label, COUNT(p) AS posts '
    'ORDER BY posts LIMIT 2',
    'MATCH (n:Release) RETURN n.name, n.date ORDER BY n.date DESC LIMIT 2',
    'MATCH (n:Release) RETURN n.name, n.version_order ORDER BY n.version_order DESC LIMIT 2',
    'MATCH (n:Release) RETURN n.library ORDER BY n.library LIMIT 1',
    'MATCH (n:Release) RETURN n.name ORDER BY n.library LIMIT 1',
    'MATCH (n:Feature) RETURN n.name ORDER BY n.name LIMIT 0',
    'MATCH (n:Feature) RETURN n.name ORDER BY n.name SKIP 500 LIMIT 2',
    # variable length (issue 13): grand-cypher's lengths, zero-length ends on one node
    *VARIABLE_LENGTH,
    # grand-cypher's answer depends on its match order, or on its hints: handed back
    'MATCH (n:Feature) RETURN n.name LIMIT 3',
    'MATCH (n:Release) RETURN n.name ORDER BY n.version_order',
    'MATCH (a)-[r]->(b) WHERE a.name = "PyTorch 1.8" AND b.name = "torch.fx" RETURN type(r)',
    'MATCH (a)-[r]->(b) WHERE a.name = "torch.fx" OR b.name = "torch.fx" RETURN a.name, b.name',
    'MATCH (n:Feature) RETURN n.name ORDER BY n.stability',
    # errors: the same message
    'MATCH (r:Release) RETURN x.name',
    'MATCH (r:Release) RETURN r.name, r.name',
    'MATCH (r:Release) RETURN DISTINCT r.name AS name',
    'MATCH (r) RETURN count(r)',
    'MATCH (r:Release) WHERE EXISTS { MATCH (r)-[:SUPPORTS]->(h) } RETURN r.name',
]

HANDED_BACK = [
    'MATCH (n:Feature) RETURN n.name LIMIT 3',
    'MATCH (n:Release) RETURN n.name ORDER BY n.version_order',
    'MATCH (a)-[r]->(b) WHERE a.name = "PyTorch 1.8" AND b.name = "torch.fx" RETURN type(r)',
    'MATCH (a:Release {name: "PyTorch 1.8"})-[r]->(b:Feature {name: "torch.fx"}) RETURN type(r)',
    'MATCH (n:Feature) RETURN n.name ORDER BY n.stability',
    'MATCH (r:Release) WHERE EXISTS { MATCH (r)-[:SUPPORTS]->(h) } RETURN r.name',
    'MATCH (l:Library)-[:HAS_RELEASE]->(r) MATCH (r)-[:INTRODUCES]->(f) RETURN l.name, f.name',
    'MATCH (r:Release) RETURN COLLECT(r.name) AS names',
    'MATCH (r:Release)-[p:PRECEDES*1..2]->(s) RETURN r.name, s.name',
    'MATCH (r:Release)-[:PRECEDES*1..9]->(s) RETURN r.name, s.name',
]


def answer(run, graph, query, params):
    try:
        return run(graph, query, params)
    except QueryError as error:
        return ("error", str(error))


def param_values(graph, query) -> list[dict]:
    """Every combination (capped) of names that fit each parameter, and the optional nulls."""
    names = {}
    for _, data in graph.nodes(data=True):
        names.setdefault(data["label"], []).append(data["name"])
    choices = []
    for param in query.params:
        if param.kind == "name":
            labels = param.labels or [label for label in names if label != "Post"]
            values = sorted({n for label in labels for n in names.get(label, [])})
            values = values[:VALUES_PER_PARAM] + ["nothing by that name"]
        elif param.kind == "label":
            values = sorted(names) + ["Nope"]
        elif param.kind == "type":
            values = ["SUPPORTS", "RELEASED_WITH", "MENTIONS"]
        elif param.kind == "stability":
            values = ["Stable", "Beta", "Prototype", "API-Unstable"]
        else:
            values = [1, 3, 100] if isinstance(param.example, int) else [param.example]
        choices.append(values + ([None] if param.optional else []))
    combos = []
    for values in itertools.islice(itertools.product(*choices), 80):
        given = {p.name: v for p, v in zip(query.params, values, strict=True) if v is not None}
        combos.append(check_params(query, given))
    return combos


@pytest.fixture(scope="module", params=["handmade", "sample"])
def graph(request, handmade_graph_file, sample_graph_file):
    return read_graph(handmade_graph_file if request.param == "handmade" else sample_graph_file)


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_issue13_compiled_named_query_is_grand_cyphers(graph, name):
    """Every named query, every fitting name: the compiled rows are grand-cypher's, in order."""
    query = QUERIES[name]
    for params in param_values(graph, query):
        expected = answer(run_on_grand_cypher, graph, query.text, params)
        found = answer(run_compiled, graph, query.text, params)  # Unsupported would fail here
        assert found == expected, (name, params)


@pytest.mark.parametrize("query", ADHOC)
def test_issue13_run_query_is_grand_cyphers(graph, query):
    """Any query: the same columns, rows, order, or error as grand-cypher's own."""
    params = {"x": "PyTorch 1.8"}
    assert answer(run_query, graph, query, params) == answer(run_on_grand_cypher, graph, query,
                                                             params)


@pytest.mark.parametrize("query", VARIABLE_LENGTH)
def test_issue13_compiled_variable_length_is_grand_cyphers(graph, query):
    """Bounded variable length (``*0..1``, ``*1..3``, ``*2``): compiled, grand-cypher's rows."""
    assert answer(run_compiled, graph, query, {}) == answer(run_on_grand_cypher, graph, query,
                                                            {})


@pytest.mark.parametrize("query", HANDED_BACK)
def test_issue13_compiled_hands_back_what_depends_on_grand_cypher(handmade_graph_file, query):
    graph = read_graph(handmade_graph_file)
    with pytest.raises(Unsupported):
        run_compiled(graph, query, {})
    assert answer(run_query, graph, query, {}) == answer(run_on_grand_cypher, graph, query, {})


def test_issue13_compiled_answers_every_named_query_on_its_own(handmade_graph_file,
                                                               monkeypatch):
    """With grand-cypher out of reach, the named queries still answer: they need only the
    compiled executor."""
    graph = read_graph(handmade_graph_file)

    def unreachable(*args, **kwargs):
        raise AssertionError("grand-cypher was used")

    monkeypatch.setattr(grand_cypher, "run_on_grand_cypher", unreachable)
    for query in QUERIES.values():
        run_query(graph, query.text, check_params(query, query.example_params))


def test_issue13_engine_variable_turns_the_compiled_executor_off(handmade_graph_file,
                                                                 monkeypatch):
    graph = read_graph(handmade_graph_file)
    monkeypatch.setenv("PTKG_ENGINE", "grand-cypher")
    monkeypatch.setattr(grand_cypher, "run_compiled", lambda *a: pytest.fail("compiled ran"))
    assert run_query(graph, "MATCH (n:Model) RETURN n.name")[1] == [["ResNet50"], ["VGG16"]]


def test_issue13_a_fault_of_the_compiled_executor_falls_back(handmade_graph_file, monkeypatch):
    graph = read_graph(handmade_graph_file)
    monkeypatch.delenv("PTKG_ENGINE", raising=False)

    def broken(self, graph, params):
        raise RuntimeError("a bug")

    monkeypatch.setattr(compiled.Plan, "run", broken)
    assert run_query(graph, "MATCH (n:Model) RETURN n.name")[1] == [["ResNet50"], ["VGG16"]]
    monkeypatch.setenv("PTKG_ENGINE", "compiled")
    with pytest.raises(RuntimeError):
        run_query(graph, "MATCH (n:Model) RETURN n.name")


def test_issue13_missing_parameter_is_the_same_error(handmade_graph_file):
    graph = read_graph(handmade_graph_file)
    with pytest.raises(QueryError, match=r"missing value for query parameter\(s\) \$r"):
        run_compiled(graph, "MATCH (n) WHERE n.name = $r RETURN n.name", {})


def test_issue13_plan_is_kept_per_text_parameters_apart(handmade_graph_file):
    graph = read_graph(handmade_graph_file)
    text = "MATCH (r:Release) WHERE r.name = $r RETURN r.date AS date"
    plan = compile_query(text)
    assert compile_query(text) is plan
    assert run_compiled(graph, text, {"r": "PyTorch 1.8"})[1] == [["2021-03-04"]]
    assert run_compiled(graph, text, {"r": "PyTorch 1.9"})[1] == [["2021-06-15"]]
    clear_query_cache()
    assert compile_query(text) is not plan


def test_issue13_indexes_follow_the_graph(handmade_graph_file):
    graph = read_graph(handmade_graph_file)
    query = 'MATCH (f:Feature) WHERE f.name = "torch.new" RETURN f.name'
    index = graph_index(graph)
    assert run_query(graph, query)[1] == []
    graph.add_node("Feature:torch.new", label="Feature", name="torch.new")
    assert graph_index(graph) is not index
    assert run_query(graph, query)[1] == [["torch.new"]]
    graph.nodes["Feature:torch.new"]["name"] = "torch.newer"
    clear_query_cache()
    assert run_query(graph, query)[1] == []


@pytest.mark.parametrize(("text", "message"), [
    ("MATCH (a), (b) RETURN a", "expected RETURN"),
    ("MATCH (a)-[r*1..3]->(b) RETURN a", "a variable on a variable-length relationship"),
    ("MATCH (a)-[*1..9]->(b) RETURN a", "a variable length over 8"),
    ("MATCH (a)-[*1.5]->(b) RETURN a", "a variable length takes whole numbers"),
    ("MATCH (a)-[r]-(b) RETURN a", "an undirected relationship"),
    ("MATCH (a)-->(a) RETURN a", "a variable used twice in the pattern"),
    ("MATCH (a) WHERE a.x = 1 AND a.y = 2 OR a.z = 3 RETURN a", "AND and OR mixed"),
])
def test_issue13_parse_refuses_outside_the_subset(text, message):
    with pytest.raises(Unsupported, match=re_escape(message)):
        parse(text)


def small_graph(edges: list[tuple[str, str, str]], extra: dict | None = None):
    """A MultiDiGraph of ``Thing`` nodes named as their ids (``extra``: {id: attributes})."""
    graph = nx.MultiDiGraph()
    for node in sorted({n for u, v, _ in edges for n in (u, v)} | set(extra or {})):
        graph.add_node(node, **{"label": "Thing", "name": node, **(extra or {}).get(node, {})})
    for u, v, rel_type in edges:
        graph.add_edge(u, v, key=rel_type, type=rel_type)
    return graph


CYCLES = small_graph([("a", "b", "T"), ("b", "a", "T"), ("b", "c", "T"), ("c", "c", "T"),
                      ("c", "d", "T"), ("b", "c", "U"), ("a", "d", "U"), ("d", "e", "T")],
                     {"a": {"label": "Start"}, "f": {}})


@pytest.mark.parametrize("query", [
    "MATCH (x)-[:T*1..3]->(y) RETURN x.name, y.name",
    "MATCH (x)-[*1..3]->(y) RETURN x.name, y.name",
    "MATCH (x)-[*0..2]->(y) RETURN x.name, y.name",
    "MATCH (x)-[:T*0..1]->(y)-[:U*0..1]->(z) RETURN x.name, y.name, z.name",
    "MATCH (x:Start)-[*1..2]->(y)-[:T]->(z) RETURN x.name, y.name, z.name",
    "MATCH (x)-[:T]->(y)<-[*1..2]-(z) RETURN x.name, y.name, z.name",
    "MATCH (x)-[*0..1]->(y:Start) RETURN x.name, y.name",
    "MATCH (x:Start)-[*0..1]->(y:Thing) RETURN x.name, y.name",
    'MATCH (x)-[*0..2]->(y) WHERE y.name = "c" RETURN x.name, COUNT(y) AS n',
    'MATCH (x)-[*0..1]->(y) WHERE x.name = "c" RETURN y.name',
    'MATCH (x)<-[*0..1]-(y) WHERE x.name = "c" RETURN y.name',
    'MATCH (x)-[*0..1]->(y) WHERE y.name = "c" RETURN x.name',
    'MATCH (x)-[*0..1]->(y) WHERE NOT y.name = "c" RETURN x.name, y.name',
])
def test_issue13_variable_length_is_grand_cyphers_on_cycles(query):
    """Cycles, self-loops and parallel relationships: paths, repeated nodes and zero lengths
    as grand-cypher matches them."""
    expected = answer(run_on_grand_cypher, CYCLES, query, {})
    assert answer(run_compiled, CYCLES, query, {}) == expected


@pytest.mark.parametrize(("query", "rows"), [
    ("MATCH (x)-[r]->(y) RETURN x.name AS x, COUNT(y) AS n ORDER BY n DESC LIMIT 1",
     [["b", 3]]),
    ("MATCH (x)-[r]->(y) RETURN x.name AS x, COUNT(y) AS n ORDER BY n DESC SKIP 1 LIMIT 2",
     None),
    ("MATCH (x)-[r]->(y) RETURN x.name AS x, COUNT(y) AS n ORDER BY n LIMIT 2", None),
])
def test_issue13_ties_count_only_where_rows_are_kept(query, rows):
    """Rows tied on every ORDER BY key (c and d, one relationship each) matter only when
    LIMIT keeps some of them: then grand-cypher's match order picks, and it runs."""
    expected = run_on_grand_cypher(CYCLES, query, {})
    if rows is None:
        with pytest.raises(Unsupported, match="rows tie"):
            run_compiled(CYCLES, query, {})
        assert run_query(CYCLES, query, {}) == expected
    else:
        assert expected[1] == rows
        assert run_compiled(CYCLES, query, {}) == expected


UNNAMED = small_graph([("a", "b", "T"), ("b", "n", "T"), ("n", "c", "T"), ("n", "n", "U")],
                      {"n": {"name": None}})


@pytest.mark.parametrize(("query", "rows"), [
    ('MATCH (x)-[*0..1]->(y) WHERE NOT y.name = "c" RETURN ID(x), ID(y)',
     [["a", "a"], ["a", "b"], ["b", "b"], ["n", "n"]]),
    ('MATCH (x)-[*0..1]->(y) WHERE NOT x.name = "c" RETURN ID(x), ID(y)',
     [["a", "a"], ["a", "b"], ["b", "b"], ["b", "n"]]),
    ('MATCH (x)<-[*0..1]-(y) WHERE NOT x.name = "c" RETURN ID(x), ID(y)',
     [["a", "a"], ["b", "a"], ["b", "b"], ["n", "n"]]),
    ('MATCH (x)<-[*0..1]-(y) WHERE NOT y.name = "c" RETURN ID(x), ID(y)',
     [["a", "a"], ["b", "a"], ["b", "b"], ["n", "b"]]),
])
def test_issue13_zero_length_drops_the_hint_of_the_merged_end(query, rows):
    """A hint (here: a name, so not the unnamed n) holds where grand-cypher keeps it, and not
    on the end a zero length merges into the other one: (n, n) in, (b, n) out, or the
    reverse."""
    assert run_on_grand_cypher(UNNAMED, query, {})[1] == rows
    assert run_compiled(UNNAMED, query, {})[1] == rows


def re_escape(text: str) -> str:
    import re

    return re.escape(text)


@pytest.mark.parametrize("module", ["ptkg.stores.compiled", "ptkg.stores.indexes"])
def test_issue13_engine_doctests(module):
    import doctest
    import importlib

    assert doctest.testmod(importlib.import_module(module)).failed == 0
