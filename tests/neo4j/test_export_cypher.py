"""The exported Cypher script, run against a real Neo4j, recreates the graph (issue 3, part 6).

The script is sent the way its header says: split on ``";\\n"``, each non-empty statement
through the Python driver, comments included. Each test empties the database first and again
after itself.
"""

from __future__ import annotations

from collections import Counter

import networkx as nx
import pytest

from ptkg.cypher import constraint_name
from ptkg.export import generate_cypher
from ptkg.graph import graph_to_dict, node_id
from ptkg.schema import LABELS, key_property
from ptkg.stores.neo4j_store import fetch_graph

URL = 'https://example.org/blog/a-"quoted";|url/?q=1&x=<y>'
ODD_NAMES = [
    'double "quotes" and \'single\'',
    "back\\slash and \\n that is not a line break",
    "line\nbreak, carriage\r\nreturn and\ttab",
    "semi;colon and ;\n inside",
    "pipe|bar, comma",
    "// looks like a comment",
    "`backquoted` name",
    "  surrounding spaces  ",
    "unicode: PyTörch — 東京 🚀 ’quotes’ \u2028 separator \x07 bell",
]
ODD_LABEL = "Odd Label`s"


def odd_graph() -> nx.MultiDiGraph:
    graph = nx.MultiDiGraph()
    post = node_id("Post", URL)
    graph.add_node(post, label="Post", name='A "title"; with | bars', url=URL,
                   title='A "title"; with | bars', author="Zoë Ünicode")
    features = []
    for i, name in enumerate(ODD_NAMES):
        features.append(node_id("Feature", name))
        graph.add_node(features[-1], label="Feature", name=name, mentions=i,
                       aliases=[name.upper(), f"alias;{i}|x"] if i else [])
        graph.add_edge(post, features[-1], key="MENTIONS", type="MENTIONS", count=i + 1)
    for i, (a, b) in enumerate(zip(features, features[1:], strict=False)):
        graph.add_edge(a, b, key="BASED_ON", type="BASED_ON", count=2, sources=[URL, URL],
                       evidence=[ODD_NAMES[i], f'said "{i}";\n\\ok|'],
                       offsets=[[i, i + 5], None], rules=["based_on.uses"])
    odd = node_id(ODD_LABEL, "x`y\\z")
    graph.add_node(odd, label=ODD_LABEL, name="x`y\\z", ratio=0.25, flag=True)
    graph.add_edge(features[0], odd, key="ODD TYPE", type="ODD TYPE", evidence=["a;b|c"])
    return graph


def run_script(driver, database: str, text: str) -> int:
    """Send each statement of the script, as its header says; the number sent."""
    statements = [piece for piece in text.split(";\n")
                  if piece.strip() and not all(line.startswith("//")
                                               for line in piece.strip().splitlines())]
    for statement in statements:
        driver.execute_query(statement, database_=database)
    return len(statements)


def neo4j_counts(driver, database: str) -> tuple[Counter, Counter]:
    records, _, _ = driver.execute_query(
        "MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS count", database_=database)
    nodes = Counter({r["label"]: r["count"] for r in records})
    records, _, _ = driver.execute_query(
        "MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS count", database_=database)
    return nodes, Counter({r["type"]: r["count"] for r in records})


def graph_counts(graph: nx.MultiDiGraph) -> tuple[Counter, Counter]:
    return (Counter(d["label"] for _, d in graph.nodes(data=True)),
            Counter(k for _, _, k in graph.edges(keys=True)))


@pytest.fixture
def database(neo4j_clean, neo4j_settings, neo4j_empty):
    """The database name, emptied before the test and after it."""
    yield neo4j_settings.database
    neo4j_empty()


def test_script_recreates_the_handmade_graph(neo4j_driver, database, handmade_graph):
    text = generate_cypher(handmade_graph)
    labels, types = graph_counts(handmade_graph)
    sent = run_script(neo4j_driver, database, text)
    assert sent == len(labels) + handmade_graph.number_of_nodes() + handmade_graph.number_of_edges()
    assert neo4j_counts(neo4j_driver, database) == (labels, types)
    fetched = fetch_graph(neo4j_driver, database)
    assert graph_to_dict(fetched) == graph_to_dict(handmade_graph)
    records, _, _ = neo4j_driver.execute_query("SHOW CONSTRAINTS YIELD name RETURN name",
                                               database_=database)
    assert {constraint_name(label, key_property(label)) for label in labels} <= \
        {r["name"] for r in records}

    run_script(neo4j_driver, database, text)  # a rerun converges: nothing doubles
    assert neo4j_counts(neo4j_driver, database) == (labels, types)
    assert graph_to_dict(fetch_graph(neo4j_driver, database)) == graph_to_dict(handmade_graph)


def test_script_keeps_odd_strings_exactly(neo4j_driver, database):
    graph = odd_graph()
    run_script(neo4j_driver, database, generate_cypher(graph))
    assert neo4j_counts(neo4j_driver, database) == graph_counts(graph)
    fetched = fetch_graph(neo4j_driver, database, labels=[*LABELS, ODD_LABEL])
    assert graph_to_dict(fetched) == graph_to_dict(graph)
    records, _, _ = neo4j_driver.execute_query(
        "MATCH (f:Feature) RETURN f.name AS name", database_=database)
    assert sorted(r["name"] for r in records) == sorted(ODD_NAMES)
