"""Tests of the named queries (``queries/*.cypher``, ``ptkg.named_queries``, ``ptkg queries``).

Every packaged query parses its header and runs on the hand-made graph (``tests/data/graph.json``,
see ``tests/data/handmade.py``) with its example parameters; the queries of issue 3 give the
rows a reader expects for the hand-made facts, compared with what the graph itself holds. The
same queries in Neo4j: ``tests/neo4j/test_parity.py`` and ``tests/stores/test_contract.py``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import ptkg.queries
from ptkg.cli import main
from ptkg.errors import QueryError
from ptkg.graph import build_graph, node_id, read_graph
from ptkg.named_queries import (
    NamedQuery,
    QueryFileError,
    QueryParam,
    check_params,
    get_query,
    load_queries,
    parse_query,
    queries_dir,
    read_query,
    run_named_query,
)
from ptkg.records import Entity, Fact, Mention, PostFacts
from ptkg.stores.networkx_store import GraphFileStore

QUERY_FILES = sorted(Path(ptkg.queries.__file__).resolve().parent.glob("*.cypher"))
QUERIES = load_queries()
ISSUE_QUERIES = ["features-by-release", "releases-of-library", "released-with", "hardware-support",
                 "feature-stability", "organizations", "evidence", "neighbors", "top-mentioned",
                 "posts-about"]
OPTIONAL = sorted(name for name, q in QUERIES.items() if any(p.optional for p in q.params))
COLUMNS = {
    "announcements": ["library", "release", "date", "title", "url"],
    "based-on": ["source_label", "source", "target_label", "target", "sentences", "posts"],
    "evidence": ["relation", "source_label", "source", "target_label", "target", "reads",
                 "sentences", "posts", "rules"],
    "feature-stability": ["library", "release", "version", "date", "feature", "stability",
                          "named", "posts"],
    "features-by-release": ["feature", "stability", "latest_stability", "named"],
    "features-of-library": ["feature", "stability"],
    "hardware-support": ["supporter", "version", "label", "name", "device"],
    "neighbors": ["source_label", "source", "relation", "target_label", "target"],
    "organizations": ["organization", "label", "name", "reads"],
    "posts-about": ["url", "title", "date", "mentions", "label", "mentioned"],
    "released-with": ["library", "release", "version"],
    "releases-of-library": ["position", "release", "version", "date"],
    "stability-counts": ["release", "stability", "features"],
    "supported-hardware": ["label", "device", "supporter_label", "supporter", "sentences",
                           "posts"],
    "top-mentioned": ["name", "posts", "mentions"],
}
URL_18 = "https://pytorch.org/blog/pytorch-1.8-released/"
URL_110 = "https://pytorch.org/blog/pytorch-1.10-released/"
URL_LIBRARIES = "https://pytorch.org/blog/pytorch-library-updates-new-model-serving-library/"
VALID = ('// name: {name}\n// description: Something.\n// param: x = "a"  (a note)\n'
         "MATCH (n) WHERE n.name = $x RETURN n.name AS name\n")


@pytest.fixture(scope="module")
def graph(handmade_graph_file):
    """The hand-made graph, read once for the module (the queries do not change it)."""
    return read_graph(handmade_graph_file)


@pytest.fixture(scope="module")
def store(graph) -> GraphFileStore:
    """The hand-made graph as a store."""
    return GraphFileStore(graph=graph)


@pytest.fixture(scope="module")
def example_results(store) -> dict[str, tuple[list[str], list[list[object]]]]:
    """Each named query's result with its example parameters, computed once."""
    return {name: run_named_query(store, query, query.example_params)
            for name, query in QUERIES.items()}


def as_dicts(result) -> list[dict[str, object]]:
    columns, rows = result
    return [dict(zip(columns, row, strict=True)) for row in rows]


def name_of(graph, node: str) -> str:
    return graph.nodes[node]["name"]


def edges_of_type(graph, rel_type: str):
    return [(u, v, d) for u, v, k, d in graph.edges(keys=True, data=True) if k == rel_type]


# --------------------------------------------------------------------------- the files


def test_query_library_has_the_issue_queries():
    assert len(QUERY_FILES) >= 10
    assert [name for name in ISSUE_QUERIES if name not in QUERIES] == []


@pytest.mark.parametrize("path", QUERY_FILES, ids=[p.stem for p in QUERY_FILES])
def test_query_file_header_parses(path):
    query = read_query(path)
    assert query.name == path.stem
    assert query.path == path
    assert query.description and "\n" not in query.description
    assert query.text == path.read_text(encoding="utf8")
    for param in query.params:
        assert param.example is not None, f"{param.name} has no example"


@pytest.mark.parametrize("name", sorted(COLUMNS))
def test_query_columns_are_aliased(example_results, name):
    assert example_results[name][0] == COLUMNS[name]


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_query_runs_with_example_params(example_results, name):
    columns, rows = example_results[name]
    assert columns and len(set(columns)) == len(columns)
    assert all(len(row) == len(columns) for row in rows)


@pytest.mark.parametrize("name", OPTIONAL)
def test_query_runs_without_optional_params(graph, name, store):
    query = QUERIES[name]
    required = {p.name: p.example for p in query.params if not p.optional}
    _, some = run_named_query(store, query, query.example_params)
    _, every = run_named_query(store, query, required)
    assert len(every) >= len(some)
    assert some


def test_load_queries_reads_the_package_not_the_cwd(tmp_path, monkeypatch):
    (tmp_path / "features-by-release.cypher").write_text("not a query", encoding="utf8")
    monkeypatch.chdir(tmp_path)
    assert queries_dir() == Path(ptkg.queries.__file__).resolve().parent
    assert load_queries() == QUERIES


# --------------------------------------------------------------------------- known facts


def test_features_by_release_gives_each_feature_with_its_stability(graph, store):
    rows = as_dicts(run_named_query(store, get_query("features-by-release"),
                                    {"release": "PyTorch 1.8"}))
    assert {"feature": "torch.fx", "stability": "Beta", "latest_stability": "Stable",
            "named": None} in rows
    assert {"feature": "torch.linalg", "stability": None, "latest_stability": "Stable",
            "named": None} in rows
    release = node_id("Release", "PyTorch 1.8")
    expected = sorted((name_of(graph, v), d.get("stability"))
                      for u, v, d in edges_of_type(graph, "INTRODUCES") if u == release)
    assert [(r["feature"], r["stability"]) for r in rows] == expected


def test_releases_of_library_in_version_order(example_results):
    rows = as_dicts(example_results["releases-of-library"])
    assert [(r["position"], r["release"], r["version"]) for r in rows] == [
        (1, "PyTorch 1.5", "1.5"), (2, "PyTorch 1.8", "1.8"), (3, "PyTorch 1.9", "1.9"),
        (4, "PyTorch 1.10", "1.10"), (5, "PyTorch 1.12", "1.12"), (6, "PyTorch 2.2", "2.2"),
        (7, "PyTorch 2.8", "2.8")]


def test_released_with_gives_the_library_releases(store):
    _, rows = run_named_query(store, get_query("released-with"), {"release": "PyTorch 1.5"})
    assert rows == [["PyTorch/XLA", "PyTorch/XLA 1.5", "1.5"],
                    ["torchvision", "torchvision 0.6", "0.6"]]


@pytest.mark.parametrize(("hardware", "row"), [
    ("MPS", {"supporter": "PyTorch", "version": "1.12", "label": "Release",
             "name": "PyTorch 1.12", "device": "MPS"}),
    ("ROCm", {"supporter": "PyTorch", "version": "1.8", "label": "Release",
              "name": "PyTorch 1.8", "device": "ROCm"}),
    ("TPU", {"supporter": "PyTorch/XLA", "version": None, "label": "Library",
             "name": "PyTorch/XLA", "device": "TPU"}),
    ("TPU", {"supporter": "FSDP", "version": None, "label": "Feature", "name": "FSDP",
             "device": "TPU"}),
    ("macOS", {"supporter": "PyTorch", "version": "1.12", "label": "Release",
               "name": "PyTorch 1.12", "device": "macOS"}),
])
def test_hardware_support_names_the_release(graph, hardware, row, store):
    query = get_query("hardware-support")
    rows = as_dicts(run_named_query(store, query, {"hardware": hardware}))
    assert row in rows
    target = next(n for n, d in graph.nodes(data=True) if d["name"] == hardware)
    supporters = sorted(name_of(graph, u) for u, v, _ in edges_of_type(graph, "SUPPORTS")
                        if v == target)
    assert sorted(r["name"] for r in rows) == supporters


def test_a_post_about_a_version_is_a_post_about_the_feature():
    url = "https://pytorch.org/blog/fsdp2/"
    mentions = [Mention(Entity("Feature", "FSDP2"), "FSDP2", 0, 5)]
    other = [Mention(Entity("Feature", "FSDP"), "FSDP", 0, 4)]
    store = GraphFileStore(graph=build_graph([
        PostFacts(url, "FSDP2", None, None, mentions, []),
        PostFacts("https://pytorch.org/blog/fsdp/", "FSDP", None, None, other, [])]))
    rows = as_dicts(run_named_query(store, get_query("posts-about"), {"name": "FSDP"}))
    assert sorted((r["title"], r["mentioned"]) for r in rows) == [("FSDP", "FSDP"),
                                                                  ("FSDP2", "FSDP2")]


def test_a_post_about_a_models_feature_is_a_post_about_the_model():
    """ "(Prototype) Emformer Module" is the Model Emformer (SAME_AS)."""
    url = "https://pytorch.org/blog/pytorch-1.10-new-library-releases/"
    heading = Entity("Feature", "Emformer Module")
    mentions = [Mention(heading, "Emformer Module", 0, 15),
                Mention(Entity("Model", "Emformer"), "Emformer", 20, 28)]
    introduces = Fact("INTRODUCES", Entity("Release", "torchaudio 0.10"), heading, "test.rule",
                      0, 15, "(Prototype) Emformer Module", "Prototype")
    store = GraphFileStore(graph=build_graph([
        PostFacts(url, "1.10", None, None, mentions, [introduces])]))
    rows = as_dicts(run_named_query(store, get_query("posts-about"), {"name": "Emformer"}))
    assert sorted((r["label"], r["mentioned"]) for r in rows) == [
        ("Feature", "Emformer Module"), ("Model", "Emformer")]


def test_support_of_a_product_is_support_of_its_family():
    h100 = Entity("Hardware", "H100")
    mentions = [Mention(Entity("Hardware", d), d, 0, len(d)) for d in ("H100", "Hopper")]
    supports = Fact("SUPPORTS", Entity("Release", "PyTorch 2.0"), h100, "test.rule", 0, 11,
                    "A sentence.")
    posts = [PostFacts("https://pytorch.org/blog/p/", "p", None, None, mentions, [supports])]
    store = GraphFileStore(graph=build_graph(posts))
    for name in ("hardware-support", "releases-supporting"):
        rows = as_dicts(run_named_query(store, get_query(name), {"hardware": "Hopper"}))
        assert [(r["device"], r.get("name", r.get("release"))) for r in rows] == [
            ("H100", "PyTorch 2.0")], name


def test_feature_stability_lists_each_release(example_results):
    rows = as_dicts(example_results["feature-stability"])
    assert [(r["library"], r["release"], r["version"], r["stability"]) for r in rows] == [
        ("PyTorch", "PyTorch 1.8", "1.8", "Beta"), ("PyTorch", "PyTorch 1.10", "1.10", "Stable")]
    assert [r["posts"] for r in rows] == [[URL_18], [URL_110]]


def test_feature_stability_lists_a_feature_named_after_it_and_built_on_it():
    """q16: 2.12's "Inductor FlexAttention pipelining" (BASED_ON FlexAttention) is a row of
    FlexAttention's, under its own name; a feature built on it under another name is not
    (FlexAttention BASED_ON torch.compile is no row of torch.compile's)."""
    url = "https://pytorch.org/blog/p/"
    flex, piped = Entity("Feature", "FlexAttention"), Entity("Feature",
                                                             "Inductor FlexAttention pipelining")
    compile_ = Entity("Feature", "torch.compile")
    facts = [Fact("INTRODUCES", Entity("Release", "PyTorch 2.5"), flex, "test.rule", 0, 5, "x"),
             Fact("INTRODUCES", Entity("Release", "PyTorch 2.12"), piped, "test.rule", 0, 5, "x"),
             Fact("BASED_ON", piped, flex, "test.rule", 0, 5, "x"),
             Fact("BASED_ON", flex, compile_, "test.rule", 0, 5, "x")]
    mentions = [Mention(e, e.name, 0, 5) for e in (flex, piped, compile_)]
    store = GraphFileStore(graph=build_graph([PostFacts(url, "p", None, None, mentions, facts)]))
    query = get_query("feature-stability")
    rows = as_dicts(run_named_query(store, query, {"feature": "FlexAttention"}))
    assert [(r["release"], r["feature"]) for r in rows] == [
        ("PyTorch 2.5", "FlexAttention"), ("PyTorch 2.12", "Inductor FlexAttention pipelining")]
    assert not as_dicts(run_named_query(store, query, {"feature": "torch.compile"}))


def test_organizations_lists_who_built_what(graph, store):
    query = get_query("organizations")
    rows = run_named_query(store, query, {})[1]
    expected = sorted((name_of(graph, v), graph.nodes[u]["label"], name_of(graph, u), d["count"])
                      for u, v, d in edges_of_type(graph, "DEVELOPED_BY"))
    assert [tuple(row) for row in rows] == expected
    assert ["Microsoft", "Library", "DeepSpeed", 1] in rows


def test_organizations_filters_one_organization(example_results):
    rows = example_results["organizations"][1]
    assert rows and {row[0] for row in rows} == {"Microsoft"}


def test_evidence_gives_the_sentences_and_posts(graph, example_results):
    [row] = as_dicts(example_results["evidence"])
    edge = graph.edges[node_id("Release", "torchvision 0.6"), node_id("Release", "PyTorch 1.5"),
                       "RELEASED_WITH"]
    assert row == {"relation": "RELEASED_WITH", "source_label": "Release",
                   "source": "torchvision 0.6", "target_label": "Release",
                   "target": "PyTorch 1.5", "reads": edge["count"],
                   "sentences": edge["evidence"], "posts": edge["sources"], "rules": edge["rules"]}
    assert set(row["posts"]) == {URL_LIBRARIES}
    assert len(row["sentences"]) == len(row["posts"]) > 0


@pytest.mark.parametrize(("params", "relations"), [
    ({"source": "PyTorch 1.8", "target": "torch.fx"}, ["INTRODUCES"]),
    ({"source": "PyTorch 1.8", "target": "torch.fx", "type": "INTRODUCES"}, ["INTRODUCES"]),
    ({"source": "PyTorch 1.8", "target": "torch.fx", "type": "SUPPORTS"}, []),
    ({"source": "torch.fx", "target": "PyTorch 1.8"}, []),
])
def test_evidence_filters_by_type(graph, params, relations, store):
    rows = as_dicts(run_named_query(store, get_query("evidence"), params))
    assert [r["relation"] for r in rows] == relations


def test_neighbors_gives_every_relation_but_mentions(graph, example_results):
    rows = example_results["neighbors"][1]
    fx = node_id("Feature", "torch.fx")
    expected = sorted(
        ((graph.nodes[u]["label"], name_of(graph, u), key, graph.nodes[v]["label"],
          name_of(graph, v)) for u, v, key in graph.edges(keys=True)
         if fx in (u, v) and key != "MENTIONS"),
        key=lambda t: (t[2], t[1], t[4], t[0], t[3]))
    assert [tuple(row) for row in rows] == expected
    assert ("Release", "PyTorch 1.8", "INTRODUCES", "Feature", "torch.fx") in expected


def test_top_mentioned_orders_by_posts_then_mentions(graph, store):
    rows = run_named_query(store, get_query("top-mentioned"), {"label": "Model", "limit": 100})[1]
    counts: Counter = Counter()
    posts: Counter = Counter()
    for _, v, d in edges_of_type(graph, "MENTIONS"):
        if graph.nodes[v]["label"] == "Model":
            posts[name_of(graph, v)] += 1
            counts[name_of(graph, v)] += d["count"]
    expected = sorted(([n, posts[n], counts[n]] for n in posts), key=lambda r: (-r[1], -r[2], r[0]))
    assert rows == expected
    assert rows[0][0] == "ResNet50"


def test_top_mentioned_limit(graph, store):
    rows = run_named_query(store, get_query("top-mentioned"), {"label": "Feature", "limit": "3"})[1]
    assert len(rows) == 3


def test_posts_about_gives_the_posts(example_results):
    rows = as_dicts(example_results["posts-about"])
    assert [(r["url"], r["label"], r["mentions"]) for r in rows] == [(URL_18, "Feature", 4),
                                                                     (URL_110, "Feature", 2)]


def test_features_of_library(example_results):
    assert example_results["features-of-library"][1] == [["FSDP", None]]


def test_announcements_lists_every_announced_release(graph, store):
    rows = as_dicts(run_named_query(store, get_query("announcements"), {}))
    expected = sorted((graph.nodes[v]["library"], graph.nodes[v]["version_order"],
                       graph.nodes[u]["url"], name_of(graph, v))
                      for u, v, _ in edges_of_type(graph, "ANNOUNCES"))  # 1.10 after 1.9
    assert [(r["library"], r["release"], r["url"]) for r in rows] == [
        (library, release, url) for library, _, url, release in expected]
    assert [r["release"] for r in rows if r["library"] == "PyTorch"] == [
        "PyTorch 1.8", "PyTorch 1.9", "PyTorch 1.10", "PyTorch 2.2", "PyTorch 2.8"]


def test_stability_counts_per_release(example_results):
    assert example_results["stability-counts"][1] == [
        ["PyTorch 1.8", "Beta", 1], ["PyTorch 1.8", "Prototype", 1], ["PyTorch 1.8", "Stable", 1],
        ["PyTorch 1.8", "unstated", 1]]


# --------------------------------------------------------------------------- names and params


def test_get_query_unknown_name_lists_the_queries():
    with pytest.raises(QueryError) as error:
        get_query("features-by-relase")
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith("no named query 'features-by-relase': did you mean "
                              "'features-by-release'? the named queries are ")
    assert message.endswith(", ".join(QUERIES))


@pytest.mark.parametrize(("name", "params", "message"), [
    ("features-by-release", {},
     'query features-by-release needs a value for release: give --param release="PyTorch 1.10"'),
    ("evidence", {"type": "SUPPORTS"},
     'query evidence needs a value for source, target: give --param source="torchvision 0.6" '
     '--param target="PyTorch 1.5"'),
    ("features-by-release", {"release": "PyTorch 1.8", "relase": "x"},
     "query features-by-release has no parameter relase: it takes release, hardware"),
    ("top-mentioned", {"label": "Model", "limit": "ten"},
     "query top-mentioned: parameter limit must be an integer, not 'ten' (e.g. --param limit=10)"),
])
def test_check_params_names_what_is_wrong(name, params, message):
    with pytest.raises(QueryError) as error:
        check_params(get_query(name), params)
    assert str(error.value) == message


def test_check_params_completes_optional_and_reads_numbers():
    assert check_params(get_query("evidence"), {"target": "b", "source": "a"}) == {
        "source": "a", "target": "b", "type": None}
    assert check_params(get_query("top-mentioned"), {"label": "Model", "limit": "3"}) == {
        "label": "Model", "limit": 3}


def test_missing_param_is_checked_before_the_query_runs(graph, store):
    with pytest.raises(QueryError, match="needs a value for release"):
        run_named_query(store, get_query("released-with"), {})


@pytest.mark.parametrize(("example", "expected"), [
    ("PyTorch 1.8", 'release="PyTorch 1.8"'), ("MPS", "release=MPS"), (10, "release=10"),
    (["a", 1], 'release:=["a", 1]'), (None, "release:=null"),
])
def test_param_cli_example(example, expected):
    assert QueryParam("release", example).cli_example == expected


@pytest.mark.parametrize(("name", "ordered"), [
    ("releases-of-library", True), ("features-by-release", True),
])
def test_query_ordered(name, ordered):
    assert get_query(name).ordered is ordered


def test_query_ordered_ignores_comments():
    text = ('// name: q\n// description: D.\n// ORDER BY in a comment\n'
            'MATCH (n) RETURN n.name AS name // ORDER BY name\n')
    assert parse_query(text, "q.cypher").ordered is False


# --------------------------------------------------------------------------- bad files


@pytest.mark.parametrize(("text", "message"), [
    ("// description: D.\nRETURN 1 AS x\n", "{path}:1: the header has no '// name: ...' line"),
    ("// name: q\nRETURN 1 AS x\n", "{path}:1: the header has no '// description: ...' line"),
    ("// name: other\n// description: D.\nRETURN 1 AS x\n",
     "{path}: the header names the query 'other'; name the file 'other.cypher', in lower-case "
     "kebab-case"),
    ("// name: q\n// name: q\n// description: D.\nRETURN 1 AS x\n",
     "{path}:2: a second 'name:' line; give one"),
    ("// name: q\n// description: D.\n// param: x = PyTorch\nRETURN $x AS x\n",
     "{path}:3: the example of 'x' is not JSON ('PyTorch'): write \"// param: NAME = EXAMPLE  "
     "(note)\", the example as JSON"),
    ("// name: q\n// description: D.\n// param: x\nRETURN $x AS x\n",
     "{path}:3: bad parameter line 'x': write \"// param: NAME = EXAMPLE  (note)\", the example "
     "as JSON"),
    ('// name: q\n// description: D.\n// param: x = "a"\n// param: x = "b"\nRETURN $x AS x\n',
     "{path}:4: parameter 'x' is declared twice"),
    ("// name: q\n// description: D.\nMATCH (n) WHERE n.name = $who RETURN n.name AS n\n",
     "{path}: the query uses undeclared parameter(s) who: add a '// param: NAME = EXAMPLE' line "
     "for each"),
    ('// name: q\n// description: D.\n// param: x = "a"\nRETURN "$x" AS x // $x\n',
     "{path}: parameter(s) x declared but not used in the query"),
])
def test_parse_query_rejects_bad_headers(tmp_path, text, message):
    path = tmp_path / "q.cypher"
    path.write_text(text, encoding="utf8")
    with pytest.raises(QueryFileError) as error:
        read_query(path)
    assert str(error.value) == message.format(path=path)


def test_parse_query_reads_params_and_notes(tmp_path):
    text = ('// name: q\n// description: D.\n// param: x = "a b"  (a note)\n'
            "// param: n = 5  (optional: how many)\n// a free note\n"
            "MATCH (m) WHERE m.name = $x RETURN m.name AS name LIMIT $n\n")
    query = parse_query(text, tmp_path / "q.cypher")
    assert query == NamedQuery("q", "D.", (QueryParam("x", "a b", "a note", False),
                                           QueryParam("n", 5, "optional: how many", True)),
                               text, tmp_path / "q.cypher")
    assert query.usage() == '--param x="a b" [--param n=5]'


def test_load_queries_from_a_folder(tmp_path):
    for name in ("b-query", "a-query"):
        (tmp_path / f"{name}.cypher").write_text(VALID.format(name=name), encoding="utf8")
    assert list(load_queries(tmp_path)) == ["a-query", "b-query"]


# --------------------------------------------------------------------------- CLI


def run(*args, catch: bool = True):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch)


def test_cli_queries_list():
    result = run("queries", "list", catch=False)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split() == ["name", "params", "description"]
    assert [line.split()[0] for line in lines[2:]] == list(QUERIES)
    release = next(line for line in lines if line.startswith("features-by-release "))
    assert '--param release="PyTorch 1.10" [--param hardware=CUDA]' in release
    assert release.endswith(QUERIES["features-by-release"].description)


def test_cli_queries_list_json():
    result = run("queries", "list", "--format", "json", catch=False)
    assert result.exit_code == 0
    listed = json.loads(result.output)
    assert [(q["name"], q["description"]) for q in listed] == [
        (q.name, q.description) for q in QUERIES.values()]
    assert listed[[q["name"] for q in listed].index("evidence")]["params"] == (
        '--param source="torchvision 0.6" --param target="PyTorch 1.5" '
        "[--param type=RELEASED_WITH]")


def test_cli_queries_show_prints_the_file():
    result = run("queries", "show", "hardware-support", catch=False)
    assert result.exit_code == 0
    assert result.output == QUERIES["hardware-support"].text


def test_cli_queries_run_json(handmade_graph_file):
    result = run("queries", "run", "released-with", "--param", "release=PyTorch 1.5",
                 "--graph", handmade_graph_file, "--format", "json", catch=False)
    assert result.exit_code == 0
    assert [row["release"] for row in json.loads(result.output)] == [
        "PyTorch/XLA 1.5", "torchvision 0.6"]


def test_cli_queries_run_table(handmade_graph_file):
    result = run("queries", "run", "features-by-release", "--param", "release=PyTorch 1.8",
                 "--graph", handmade_graph_file, catch=False)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split() == ["feature", "stability", "latest_stability", "named"]
    assert [" ".join(line.split()) for line in lines[2:]] == [
        "ZeroRedundancyOptimizer Prototype Stable", "torch.fft Stable Stable",
        "torch.fx Beta Stable", "torch.linalg Stable"]


def test_cli_queries_run_csv_with_number_param(handmade_graph_file):
    result = run("queries", "run", "top-mentioned", "--param", "label=Model", "--param",
                 "limit=1", "--graph", handmade_graph_file, "--format", "csv", catch=False)
    assert result.exit_code == 0
    assert result.output.splitlines() == ["name,posts,mentions", "ResNet50,2,2"]


@pytest.mark.parametrize("command", ["run", "show"])
def test_cli_unknown_query_is_a_usage_error_listing_the_queries(command, tmp_path):
    result = run("queries", command, "no-such-query")
    assert result.exit_code == 2
    [line] = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert line == ("Error: no named query 'no-such-query': the named queries are "
                    + ", ".join(QUERIES))


def test_cli_missing_param_names_it(tmp_path):
    result = run("queries", "run", "hardware-support", "--graph", tmp_path / "absent.json")
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "Error: query hardware-support needs a value for hardware: give --param hardware=MPS")


def test_cli_missing_graph_exits_1(tmp_path):
    result = run("queries", "run", "hardware-support", "--param", "hardware=MPS", "--graph",
                 tmp_path / "absent.json")
    assert result.exit_code == 1
    assert str(tmp_path / "absent.json") in result.output


def test_named_queries_doctests():
    import doctest

    import ptkg.named_queries

    results = doctest.testmod(ptkg.named_queries)
    assert results.attempted > 0
    assert results.failed == 0


@pytest.mark.parametrize("args", [["queries"], ["queries", "list"], ["queries", "show"],
                                  ["queries", "run"]])
def test_cli_queries_help_has_an_example(args):
    result = run(*args, "-h", catch=False)
    assert result.exit_code == 0
    assert "Example:\n" in result.output


# --------------------------------------------------------------------------- issue 13: new queries


def test_issue13_deprecations_lists_what_releases_deprecate_and_remove(store):
    rows = as_dicts(run_named_query(store, get_query("deprecations"), {}))
    assert [(r["release"], r["change"], r["label"], r["name"]) for r in rows] == [
        ("PyTorch 2.2", "DEPRECATES", "Platform", "macOS x86"),
        ("torchvision 0.6", "REMOVES", "Release", "Python 2")]
    assert all(len(r["sentences"]) == len(r["posts"]) >= 1 for r in rows)
    assert rows[1]["posts"] == [URL_LIBRARIES]


def test_issue13_deprecations_of_one_release(store):
    rows = as_dicts(run_named_query(store, get_query("deprecations"), {"release": "v2.2"}))
    assert [r["name"] for r in rows] == ["macOS x86"]
    assert any("deprecating macOS x86 support" in s for s in rows[0]["sentences"])


def test_deprecations_of_a_core_release_hold_its_library_releases(store):
    """What PyTorch 1.5 dropped is also what the library releases shipped with it dropped."""
    rows = as_dicts(run_named_query(store, get_query("deprecations"), {"release": "PyTorch 1.5"}))
    assert [(r["release"], r["change"], r["name"]) for r in rows] == [
        ("torchvision 0.6", "REMOVES", "Python 2")]
    rows = as_dicts(run_named_query(store, get_query("deprecations"),
                                    {"release": "torchvision 0.6"}))
    assert [r["name"] for r in rows] == ["Python 2"]


@pytest.mark.parametrize(("release", "stability", "features"), [
    ("PyTorch 1.10", "Stable", ["ZeroRedundancyOptimizer", "torch.fx"]),
    ("PyTorch 1.10", "beta", ["CUDA Graphs"]),
    ("PyTorch 1.8", "Prototype", ["ZeroRedundancyOptimizer"]),
    ("PyTorch 2.8", "API-Unstable", ["Control Flow Operator Library"]),
    ("PyTorch 1.9", "Prototype", []),
])
def test_issue13_features_by_stability(store, release, stability, features):
    rows = as_dicts(run_named_query(store, get_query("features-by-stability"),
                                    {"release": release, "stability": stability}))
    assert [r["feature"] for r in rows] == features
    assert {r["stability"] for r in rows} <= {stability.capitalize(), stability}


@pytest.mark.parametrize(("query", "kinds"), [
    ("features-by-release", {"release": ("name", ("Release",)),
                             "hardware": ("name", ("Hardware", "Platform"))}),
    ("hardware-support", {"hardware": ("name", ("Hardware", "Platform"))}),
    ("neighbors", {"name": ("name", ())}),
    ("top-mentioned", {"label": ("label", ()), "limit": (None, ())}),
    ("evidence", {"source": ("name", ()), "target": ("name", ()), "type": ("type", ())}),
    ("features-by-stability", {"release": ("name", ("Release",)),
                               "stability": ("stability", ())}),
    ("deprecations", {"release": ("name", ("Release",)), "library": ("name", ("Library",)),
                      "name": ("name", ()), "versions_of": ("name", ("Library",))}),
])
def test_issue13_param_kind_read_from_the_note(query, kinds):
    assert {p.name: (p.kind, p.labels) for p in get_query(query).params} == kinds
