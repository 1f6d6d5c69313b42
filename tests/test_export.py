"""Tests of the exporters (GraphML, Cypher script, neo4j-admin CSV) and of ``ptkg export``.

Every exporter is round-tripped on the hand-made graph (``tests/data/graph.json``) and on a graph
of odd names
(quotes, backslashes, line breaks, ``;``, ``|``, backquotes, unicode). The Cypher script is
run against a real Neo4j in ``tests/neo4j/test_export_cypher.py``.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from ptkg import export as ex
from ptkg.cli import main
from ptkg.graph import graph_to_dict, node_id, write_graph

URL = 'https://example.org/blog/a-"quoted";|url/?q=1&x=<y>'
ODD_NAMES = [
    'double "quotes" and \'single\'',
    "back\\slash and \\n that is not a line break",
    "line\nbreak, carriage\r\nreturn and\ttab",
    "semi;colon",
    "pipe|bar",
    "comma, here",
    "ends with a semicolon;",
    "// looks like a comment",
    "`backquoted` name",
    "  surrounding spaces  ",
    "<xml> & &amp; entities",
    "unicode: PyTörch — 東京 🚀 ’quotes’ \u2028 separator",
    "Feature:colon inside",
]
ODD_LABEL = "Odd Label`s"
ODD_TYPE = "ODD-TYPE"


def add_entity(graph: nx.MultiDiGraph, label: str, name: str, **props) -> str:
    node = node_id(label, name)
    graph.add_node(node, label=label, name=name, **props)
    return node


def make_odd_graph() -> nx.MultiDiGraph:
    """A graph of ptkg's shape whose names and values are as awkward as they get."""
    graph = nx.MultiDiGraph()
    post = node_id("Post", URL)
    graph.add_node(post, label="Post", name='A "title"; with | bars', url=URL,
                   title='A "title"; with | bars', date="2021-03-04", author="Zoë Ünicode")
    features = [add_entity(graph, "Feature", name, aliases=[name.upper(), f"alias;{i}|x"],
                           mentions=i + 1, stability="Beta")
                for i, name in enumerate(ODD_NAMES)]
    odd = add_entity(graph, ODD_LABEL, "x`y\\z", aliases=[], mentions=0, ratio=0.25, flag=True)
    for i, feature in enumerate(features):
        graph.add_edge(post, feature, key="MENTIONS", type="MENTIONS", count=i + 1)
    for i, (a, b) in enumerate(zip(features, features[1:], strict=False)):
        graph.add_edge(a, b, key="BASED_ON", type="BASED_ON", count=2,
                       sources=[URL, URL], evidence=[ODD_NAMES[i], f'said "{i}";\n\\ok|'],
                       offsets=[[i, i + 5], None], rules=["based_on.uses"])
    graph.add_edge(features[0], odd, key=ODD_TYPE, type=ODD_TYPE, evidence=["a;b|c"])
    return graph


@pytest.fixture
def odd_graph() -> nx.MultiDiGraph:
    return make_odd_graph()


@pytest.fixture(params=["handmade", "odd"])
def any_graph(request) -> nx.MultiDiGraph:
    """The hand-made graph, and the odd one."""
    if request.param == "odd":
        return make_odd_graph()
    return request.getfixturevalue("handmade_graph")


def shuffled(graph: nx.MultiDiGraph, seed: int) -> nx.MultiDiGraph:
    """The same graph with nodes, edges and attributes inserted in another order."""
    rng = random.Random(seed)
    nodes = list(graph.nodes(data=True))
    edges = list(graph.edges(keys=True, data=True))
    rng.shuffle(nodes)
    rng.shuffle(edges)
    copy = nx.MultiDiGraph()
    for node, data in nodes:
        items = list(data.items())
        rng.shuffle(items)
        copy.add_node(node, **dict(items))
    for u, v, key, data in edges:
        copy.add_edge(u, v, key=key, **data)
    return copy


def label_counts(graph) -> Counter:
    return Counter(data["label"] for _, data in graph.nodes(data=True))


def type_counts(graph) -> Counter:
    return Counter(key for _, _, key in graph.edges(keys=True))


def flat_offsets(offsets) -> list[int]:
    return [x for pair in offsets for x in (pair if pair is not None else [-1, -1])]


def neo4j_props(data: dict) -> dict:
    """What Neo4j holds for a node or edge: no nulls, offsets flat (see ptkg.neo4j_store)."""
    props = {k: v for k, v in data.items() if v is not None}
    if "offsets" in props:
        props["offsets"] = flat_offsets(props["offsets"])
    return props


# --------------------------------------------------------------------------- GraphML


def test_graphml_round_trip(any_graph, tmp_path):
    path = tmp_path / "graph.graphml"
    ex.write_graphml(any_graph, path)
    assert graph_to_dict(ex.read_graphml(path)) == graph_to_dict(any_graph)


def test_graphml_is_plain_graphml_for_networkx_and_gephi(any_graph, tmp_path):
    path = tmp_path / "graph.graphml"
    ex.write_graphml(any_graph, path)
    loaded = nx.read_graphml(path, force_multigraph=True)
    assert sorted(loaded.nodes) == sorted(any_graph.nodes)
    assert Counter((u, v, d["type"]) for u, v, d in loaded.edges(data=True)) == \
        Counter((u, v, k) for u, v, k in any_graph.edges(keys=True))
    for node, data in loaded.nodes(data=True):
        original = any_graph.nodes[node]
        assert data["label"] == original["name"]  # what Gephi shows on the node
        assert data["ptkg_label"] == original["label"]
        assert all(isinstance(value, (str, int, float, bool)) for value in data.values())
        if "aliases" in original:
            assert json.loads(data["aliases"]) == original["aliases"]
    text = path.read_text(encoding="utf8")
    key_ids = re.findall(r'<key id="([^"]+)"', text)
    edge_ids = re.findall(r'<edge id="([^"]+)"', text)
    assert "d3" not in key_ids  # Gephi reads key d3 as yEd's node label
    assert len(set(edge_ids)) == len(edge_ids) == any_graph.number_of_edges()


def test_graphml_values_of_every_kind_round_trip(tmp_path):
    graph = nx.MultiDiGraph()
    add_entity(graph, "Feature", "a", empty="", nothing=None, mixed=1, flag=True, ratio=1.5,
               big=2**40, nested={"k": [1, None]})
    add_entity(graph, "Feature", "b", mixed="one", flag=False, ratio=-0.0, empty="x")
    graph.add_edge("Feature:a", "Feature:b", key="BASED_ON", type="BASED_ON", note="")
    path = tmp_path / "graph.graphml"
    ex.write_graphml(graph, path)
    assert graph_to_dict(ex.read_graphml(path)) == graph_to_dict(graph)


def test_graphml_replaces_characters_xml_cannot_carry(tmp_path):
    graph = nx.MultiDiGraph()
    add_entity(graph, "Feature", "form\x0cfeed\x00")
    path = tmp_path / "graph.graphml"
    ex.write_graphml(graph, path)
    [(node, data)] = ex.read_graphml(path).nodes(data=True)
    assert node == "Feature:form\ufffdfeed\ufffd"
    assert data["name"] == "form\ufffdfeed\ufffd"


def test_graphml_reserves_ptkg_label(tmp_path):
    graph = nx.MultiDiGraph()
    add_entity(graph, "Feature", "a", ptkg_label="x")
    with pytest.raises(ex.ExportError, match="ptkg_label"):
        ex.write_graphml(graph, tmp_path / "graph.graphml")


def test_read_graphml_rejects_other_graphml(tmp_path):
    path = tmp_path / "other.graphml"
    nx.write_graphml(nx.path_graph(3), path)
    with pytest.raises(ex.ExportError, match="not a ptkg GraphML file"):
        ex.read_graphml(path)


# --------------------------------------------------------------------------- Cypher

_CYPHER_UNESCAPE = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "r": "\r", "t": "\t",
                    "b": "\b", "f": "\f"}


def cypher_tokens(statement: str) -> tuple[list[str], str]:
    """The decoded string literals of a statement, and the text outside them.

    A small Cypher lexer: double-quoted strings with backslash escapes, backquoted names.
    Fails on an unterminated string or name, or an unknown escape.
    """
    literals, outside, i = [], [], 0
    while i < len(statement):
        char = statement[i]
        if char == '"':
            value, i = [], i + 1
            while statement[i] != '"':
                if statement[i] == "\\":
                    code = statement[i + 1]
                    if code == "u":
                        value.append(chr(int(statement[i + 2:i + 6], 16)))
                        i += 6
                        continue
                    value.append(_CYPHER_UNESCAPE[code])
                    i += 2
                    continue
                value.append(statement[i])
                i += 1
            literals.append("".join(value))
            outside.append('""')
        elif char == "`":
            end = i + 1
            while not (statement[end] == "`" and statement[end + 1:end + 2] != "`"):
                end += 2 if statement[end:end + 2] == "``" else 1
            outside.append(statement[i:end + 1])
            i = end
        else:
            outside.append(char)
        i += 1
    return literals, "".join(outside)


def test_cypher_script_has_one_merge_per_node_and_relationship(any_graph):
    text = ex.generate_cypher(any_graph)
    lines = text.splitlines()
    statements = [line for line in lines if not line.startswith("//")]
    assert all(line.endswith(";") for line in statements)
    labels = label_counts(any_graph)
    assert [s for s in statements if s.startswith("CREATE CONSTRAINT")] == \
        ex.constraint_statements(labels)
    node_merges = [s for s in statements if s.startswith("MERGE (n:")]
    rel_merges = [s for s in statements if s.startswith("MATCH (a:")]
    assert len(node_merges) == any_graph.number_of_nodes()
    assert len(rel_merges) == any_graph.number_of_edges()
    assert len(statements) == len(labels) + len(node_merges) + len(rel_merges)
    assert all(" MERGE (a)-[r:" in s for s in rel_merges)
    assert ex.split_cypher_script(text) == [s[:-1] for s in statements]


def test_cypher_string_literals_are_escaped(odd_graph):
    statements = ex.generate_cypher_statements(odd_graph)
    literals: set[str] = set()
    for statement in statements:
        assert "\n" not in statement and "\r" not in statement
        found, outside = cypher_tokens(statement)
        literals.update(found)
        assert '"' not in outside.replace('""', "")
    for name in ODD_NAMES:
        assert name in literals
        assert name.upper() in literals
    assert {URL, 'said "0";\n\\ok|', "Zoë Ünicode", "x`y\\z", "a;b|c"} <= literals
    assert any(f"`{ODD_LABEL.replace('`', '``')}`" in s for s in statements)
    assert any(f"[r:`{ODD_TYPE}`]" in s for s in statements)


def test_cypher_node_statement_sets_every_property():
    graph = nx.MultiDiGraph()
    add_entity(graph, "Release", "PyTorch 1.8", library="PyTorch", version="1.8",
               aliases=["v1.8"], mentions=3, flag=False, ratio=0.5, missing=None)
    [constraint, merge] = ex.generate_cypher_statements(graph)
    assert constraint == ("CREATE CONSTRAINT ptkg_Release_name IF NOT EXISTS "
                          "FOR (n:Release) REQUIRE n.name IS UNIQUE;")
    assert merge == ('MERGE (n:Release {name: "PyTorch 1.8"}) SET n = {aliases: ["v1.8"], '
                     'flag: false, label: "Release", library: "PyTorch", mentions: 3, '
                     'name: "PyTorch 1.8", ratio: 0.5, version: "1.8"};')


def test_cypher_posts_are_keyed_on_url(odd_graph):
    statements = ex.generate_cypher_statements(odd_graph)
    assert f"MERGE (n:Post {{url: {ex.cypher_string(URL)}}})" in "\n".join(statements)
    assert any(s.startswith(f"MATCH (a:Post {{url: {ex.cypher_string(URL)}}})")
               for s in statements)


def test_cypher_refuses_values_neo4j_cannot_store(tmp_path):
    graph = nx.MultiDiGraph()
    add_entity(graph, "Feature", "a", nested=[[1], [2]])
    with pytest.raises(ex.ExportError, match="nested"):
        ex.write_cypher(graph, tmp_path / "graph.cypher")
    assert not (tmp_path / "graph.cypher").exists()


# --------------------------------------------------------------------------- CSV

HEADER_FIELD = re.compile(r":ID|:LABEL|:START_ID|:END_ID|:TYPE|"
                          r"[^:]+:(string|long|double|boolean)(\[\])?")
NEO4J_TYPES = {str: "string", int: "long", float: "double", bool: "boolean"}


def expected_type(values: list) -> str:
    """The neo4j-admin type of a column, from the graph's own values."""
    scalars = [v for v in values if not isinstance(v, list)]
    elements = [item for v in values if isinstance(v, list) for item in v]
    if scalars:
        [kind] = {type(v) for v in scalars}
        return NEO4J_TYPES[kind]
    kinds = {type(item) for item in elements} or {str}
    [kind] = kinds
    return NEO4J_TYPES[kind] + "[]"


def read_back(folder: Path, export: ex.CsvExport):
    """Nodes {(label, id): props} and relationships {(type, start, end): props} from the CSVs."""
    nodes, rels = {}, {}
    for name in [*export.node_files, *export.relationship_files]:
        header, rows = ex.read_csv_rows(folder / name)
        for row in rows:
            assert len(row) == len(header)
            props, special = {}, {}
            for column, text in zip(header, row, strict=True):
                key, _, kind = column.partition(":")
                if not key:
                    special[kind] = text
                    continue
                value = ex.parse_csv_value(text, kind, export.array_delimiter)
                if value is not None:
                    props[key] = value
            if "ID" in special:
                nodes[special["LABEL"], special["ID"]] = props
            else:
                rels[special["TYPE"], special["START_ID"], special["END_ID"]] = props
    return nodes, rels


def test_csv_files_headers_and_counts(any_graph, tmp_path):
    export = ex.write_csv(any_graph, tmp_path)
    labels, types = label_counts(any_graph), type_counts(any_graph)
    assert export.node_files == {ex.node_file_name(k): v for k, v in sorted(labels.items())}
    assert export.relationship_files == {ex.relationship_file_name(k): v
                                         for k, v in sorted(types.items())}
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*export.node_files, *export.relationship_files, "constraints.cypher",
         "neo4j-admin-import.sh"])
    for label in labels:
        header, rows = ex.read_csv_rows(tmp_path / ex.node_file_name(label))
        data = [neo4j_props(d) for _, d in any_graph.nodes(data=True) if d["label"] == label]
        keys = sorted({k for d in data for k in d})
        assert header == [":ID"] + [f"{k}:{expected_type([d[k] for d in data if k in d])}"
                                    for k in keys] + [":LABEL"]
        assert len(rows) == labels[label]
        assert all(HEADER_FIELD.fullmatch(field) for field in header)
    for rel_type in types:
        header, rows = ex.read_csv_rows(tmp_path / ex.relationship_file_name(rel_type))
        data = [neo4j_props(d) for *_, k, d in any_graph.edges(keys=True, data=True)
                if k == rel_type]
        keys = sorted({k for d in data for k in d})
        assert header == [":START_ID", ":END_ID", ":TYPE"] + [
            f"{k}:{expected_type([d[k] for d in data if k in d])}" for k in keys]
        assert len(rows) == types[rel_type]
        assert all(HEADER_FIELD.fullmatch(field) for field in header)


def test_csv_handmade_headers_pinned(handmade_graph, tmp_path):
    ex.write_csv(handmade_graph, tmp_path)
    header = (tmp_path / "relationships_INTRODUCES.csv").read_text().splitlines()[0]
    assert header == (":START_ID,:END_ID,:TYPE,count:long,devices:string,evidence:string[],"
                      "offsets:long[],previous_release:string,previous_stability:string,"
                      "rules:string[],sources:string[],stability:string,type:string")
    header = (tmp_path / "nodes_Post.csv").read_text().splitlines()[0]
    assert header.startswith(":ID,") and header.endswith(",label:string,name:string,"
                                                         "title:string,url:string,:LABEL")


def test_csv_reads_back_to_the_graph(any_graph, tmp_path):
    export = ex.write_csv(any_graph, tmp_path)
    nodes, rels = read_back(tmp_path, export)

    def key(node):
        data = any_graph.nodes[node]
        return f"{data['label']}:{data['url' if data['label'] == 'Post' else 'name']}"

    def present(props):  # an empty list is written as an absent property
        return {k: v for k, v in neo4j_props(props).items() if v != []}

    assert nodes == {(d["label"], key(n)): present(d) for n, d in any_graph.nodes(data=True)}
    assert rels == {(k, key(u), key(v)): present(d)
                    for u, v, k, d in any_graph.edges(keys=True, data=True)}


def test_csv_quotes_text_and_keeps_numbers_bare(odd_graph, tmp_path):
    ex.write_csv(odd_graph, tmp_path)
    text = (tmp_path / "nodes_Feature.csv").read_bytes().decode("utf8")
    assert '"double ""quotes"" and \'single\'"' in text
    assert '"line\nbreak, carriage\r\nreturn and\ttab"' in text
    assert ',1,"' in text  # mentions:long is bare


@pytest.mark.parametrize(("elements", "delimiter"), [
    (["plain"], ";"), (["semi;colon"], "|"), (["semi;colon", "pipe|bar"], "\x1f")])
def test_csv_array_delimiter_is_one_no_element_holds(elements, delimiter, tmp_path):
    graph = nx.MultiDiGraph()
    add_entity(graph, "Feature", "a;b|c", aliases=elements)  # names are not lists: no matter
    export = ex.write_csv(graph, tmp_path)
    assert export.array_delimiter == delimiter
    script = (tmp_path / "neo4j-admin-import.sh").read_text()
    expected = "$'\\x1f'" if delimiter == "\x1f" else f"'{delimiter}'"
    assert f"  --array-delimiter={expected} \\\n" in script
    nodes, _ = read_back(tmp_path, export)
    assert nodes[("Feature", "Feature:a;b|c")]["aliases"] == elements


def test_csv_fails_when_every_delimiter_occurs(tmp_path):
    graph = nx.MultiDiGraph()
    add_entity(graph, "Feature", "a", aliases=["; | \x1f"])
    with pytest.raises(ex.ExportError, match="array delimiter"):
        ex.write_csv(graph, tmp_path)


def test_csv_import_script_lists_every_file(odd_graph, tmp_path):
    export = ex.write_csv(odd_graph, tmp_path)
    script = tmp_path / "neo4j-admin-import.sh"
    text = script.read_text()
    assert "database import full" in text and "--multiline-fields=true" in text
    for name in export.node_files:
        assert f"--nodes='{name}'" in text
    for name in export.relationship_files:
        assert f"--relationships='{name}'" in text
    assert ex.node_file_name(ODD_LABEL) == "nodes_Odd%20Label%60s.csv"
    subprocess.run(["bash", "-n", str(script)], check=True)
    assert (tmp_path / "constraints.cypher").read_text().splitlines() == \
        ex.constraint_statements(label_counts(odd_graph))


def test_csv_refuses_a_file_as_folder(tmp_path):
    target = tmp_path / "file.txt"
    target.write_text("x")
    with pytest.raises(ex.ExportError, match="needs a folder"):
        ex.write_csv(make_odd_graph(), target)


# --------------------------------------------------------------------------- all formats


def export_bytes(graph: nx.MultiDiGraph, folder: Path) -> dict[str, bytes]:
    ex.write_graphml(graph, folder / "graph.graphml")
    ex.write_cypher(graph, folder / "graph.cypher")
    ex.write_csv(graph, folder / "csv")
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_exports_are_deterministic(any_graph, tmp_path):
    first = export_bytes(any_graph, tmp_path / "a")
    assert export_bytes(any_graph, tmp_path / "b") == first
    assert export_bytes(shuffled(any_graph, seed=7), tmp_path / "c") == first


@pytest.mark.parametrize("fmt", ["graphml", "cypher"])
def test_failed_write_keeps_the_old_file(fmt, odd_graph, tmp_path, monkeypatch):
    path = tmp_path / f"graph.{fmt}"
    path.write_text("old")

    def fail(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    write = ex.write_graphml if fmt == "graphml" else ex.write_cypher
    with pytest.raises(ex.ExportError, match="No space left on device"):
        write(odd_graph, path)
    assert path.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


# --------------------------------------------------------------------------- CLI


def run(*args, catch: bool = True):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch)


@pytest.fixture
def odd_graph_file(tmp_path) -> Path:
    path = tmp_path / "graph.json"
    write_graph(make_odd_graph(), path)
    return path


@pytest.mark.parametrize(("fmt", "name"), [("graphml", "g.graphml"), ("cypher", "g.cypher")])
def test_cli_export_file(fmt, name, handmade_graph_file, handmade_graph, tmp_path):
    out = tmp_path / "sub" / name
    result = run("export", "--graph", handmade_graph_file, "--format", fmt, "--out", out,
                 catch=False)
    assert result.exit_code == 0
    assert result.output == (f"wrote {out}: {handmade_graph.number_of_nodes()} nodes, "
                             f"{handmade_graph.number_of_edges()} relationships\n")
    expected = ex.generate_graphml if fmt == "graphml" else ex.generate_cypher
    assert out.read_text(encoding="utf8") == expected(handmade_graph)


def test_cli_export_csv(odd_graph_file, tmp_path):
    graph = make_odd_graph()
    out = tmp_path / "csv"
    result = run("export", "--graph", odd_graph_file, "--format", "csv", "--out", out,
                 catch=False)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == (f"wrote {out}: {graph.number_of_nodes()} nodes, "
                        f"{graph.number_of_edges()} relationships in 3 node files and "
                        f"3 relationship files, array delimiter '\\x1f'")
    assert lines[1:] == [f"  {p}" for p in [
        "nodes_Feature.csv", "nodes_Odd%20Label%60s.csv", "nodes_Post.csv",
        "relationships_BASED_ON.csv", "relationships_MENTIONS.csv",
        "relationships_ODD-TYPE.csv", "constraints.cypher", "neo4j-admin-import.sh"]]
    assert sorted(p.name for p in out.iterdir()) == sorted(line.strip() for line in lines[1:])


def test_cli_export_to_a_folder_is_one_line_error(odd_graph_file, tmp_path):
    result = run("export", "--graph", odd_graph_file, "--format", "graphml", "--out", tmp_path)
    assert result.exit_code == 1
    assert result.output == f"Error: {tmp_path} is a folder: give a file name\n"


def test_cli_export_bad_usage(odd_graph_file, tmp_path):
    result = run("export", "--graph", odd_graph_file, "--format", "gexf", "--out", tmp_path)
    assert result.exit_code == 2
    result = run("export", "--graph", odd_graph_file, "--format", "csv")
    assert result.exit_code == 2 and "--out" in result.output


def test_cli_export_missing_graph(tmp_path):
    result = run("export", "--graph", tmp_path / "none.json", "--format", "csv",
                 "--out", tmp_path / "csv")
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: {tmp_path / 'none.json'}: no such graph file")
