r"""Export the graph for other tools: GraphML (Gephi), a Cypher script, neo4j-admin import CSVs.

Every exporter is deterministic (the same graph gives the same bytes: nodes, relationships and
properties in sorted order, no timestamps) and writes atomically (a temporary file in the
target's folder, renamed on success; see :func:`ptkg.files.write_atomic`).

GraphML (:func:`generate_graphml`, :func:`write_graphml`, :func:`read_graphml`)
    One ``<graph edgedefault="directed">``; node ids are ptkg's (``"Release:PyTorch 1.8"``),
    edge ids are ``r0``, ``r1``, ... (unique, as Gephi needs) and the relationship type is the
    edge attribute ``type``. GraphML only has scalar attributes, so:

    - ``label`` holds the node's *display name* (its ``name``), because Gephi (and yEd) show
      the attribute named ``label`` on the node; ptkg's label (``Release``) is in
      ``ptkg_label``, the column to partition or colour by. ``ptkg_label`` is reserved.
    - a property whose values are not all of one scalar type (the lists ``aliases``,
      ``sources``, ``evidence``, ``rules``, ``offsets``; ``None``; mixed types; the empty
      string, which GraphML readers drop) is written as JSON text for every element that has
      it. The graph attributes ``ptkg_json_node_keys`` / ``ptkg_json_edge_keys`` name those
      properties (a JSON list) so :func:`read_graphml` decodes them; other tools see the text.
    - integers are ``long``, floats ``double``, booleans ``boolean``, text ``string``.
    - characters XML 1.0 cannot carry (control characters other than tab, line feed and
      carriage return; lone surrogates) become U+FFFD: the only lossy case.
    - key ids are ``g0``, ``n0``, ``e0``, ...: never ``d3``, which Gephi takes for yEd's label.

    :func:`read_graphml` gives back the same graph: nodes, edges (keyed by type) and properties.

    Why not ``networkx.write_graphml`` (``read_graphml`` is networkx's): its writer puts a raw
    carriage return in the XML, which every XML parser reads back as a line feed (a sentence
    with ``\r\n`` would not round-trip); it numbers keys ``d0``, ``d1``, ... including ``d3``;
    it uses the edge key, here the relationship type, as the edge id, so ids repeat; and it
    writes control characters XML 1.0 cannot carry, making a file no reader accepts.

Cypher (:func:`generate_cypher_statements`, :func:`generate_cypher`, :func:`write_cypher`)
    The graph as ``ptkg neo4j load`` stores it (:mod:`ptkg.stores.neo4j_store`: ``label`` and
    ``type`` are properties too, ``offsets`` is flat, the same named constraints), as a script that
    needs no ptkg. One statement per line, each ending in ``;``: first a
    ``CREATE CONSTRAINT ptkg_<Label>_<key> IF NOT EXISTS`` per label (unique ``url`` for
    ``Post``, ``name`` otherwise), then one ``MERGE (n:Label {key: ...}) SET n = {...}`` per
    node, then one ``MATCH (a ...) MATCH (b ...) MERGE (a)-[r:TYPE]->(b) SET r = {...}`` per
    relationship. Rerunning it converges: no duplicates, the same properties. Run it with
    ``cypher-shell -f FILE``, or split the text on ``";\n"`` (:func:`split_cypher_script`) and
    send each statement through a driver. String literals are double-quoted with ``\\``,
    ``\"``, ``\n``, ``\r``, ``\t``, ``\b``, ``\f`` and ``\uXXXX`` escapes, so no literal holds a
    raw line break; labels, types and keys are backquoted when they are not plain names. One
    statement per transaction: fine for thousands of relationships, slower than
    ``ptkg neo4j load`` (batched) on big graphs.

CSV (:func:`write_csv`)
    A folder for ``neo4j-admin database import full`` (Neo4j 5): ``nodes_<Label>.csv`` per
    label and ``relationships_<TYPE>.csv`` per type (names percent-encoded unless plain), plus
    ``neo4j-admin-import.sh`` (the exact command, delimiters included) and
    ``constraints.cypher`` (to run after the import, which creates no constraints). The
    properties are those of the Cypher export. One global id space: ``:ID`` is
    ``"<Label>:<key>"`` (``"Release:PyTorch 1.8"``), not stored; ``:START_ID``/``:END_ID``
    refer to it. Headers are typed (``name:string``, ``mentions:long``, ``aliases:string[]``,
    ``offsets:long[]``); ``:LABEL`` ends node files, ``:TYPE`` is third in relationship files.
    Fields are comma-separated; text is always double-quoted with ``""`` for a quote
    (RFC 4180), numbers and booleans are bare, an absent property is an empty bare field.
    Text may hold line breaks: the script passes ``--multiline-fields=true``.

    neo4j-admin has no escape for the array delimiter inside an element, so rather than escape
    it the exporter picks one that occurs in no list element (and no label): ``;``
    (neo4j-admin's default) when it can, else ``|``, else U+001F (unit separator), and raises
    :class:`ExportError` when all three occur. The script passes it as ``--array-delimiter``;
    :class:`CsvExport` reports it. Limits: an empty list is written as an absent property
    (neo4j-admin cannot tell an empty array from none; ``ptkg neo4j load`` stores ``[]``); an
    empty string cannot be a list element; a property whose type differs between the rows of
    one file is written as JSON text (type ``string``) in every row of that file.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import networkx as nx

from .cypher import create_constraint_query, quote_literal, quote_name
from .errors import PtkgError, StoreError
from .files import write_atomic
from .schema import key_property
from .stores.rows import node_rows, relationship_rows

#: Array delimiters :func:`write_csv` tries, in order: the first in no list element is used.
ARRAY_DELIMITERS = (";", "|", "\x1f")
GRAPHML_FORMAT = "ptkg-graphml"
GRAPHML_VERSION = 1

_PLAIN_FILE = re.compile(r"[A-Za-z0-9_.-]+\Z")
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


class ExportError(PtkgError):
    """A graph that cannot be written in the requested format, or a target that cannot be
    written."""


# --------------------------------------------------------------------------- shared


def _sorted_nodes(graph: nx.MultiDiGraph) -> list[tuple[str, dict]]:
    return sorted(graph.nodes(data=True), key=lambda item: item[0])


def _sorted_edges(graph: nx.MultiDiGraph) -> list[tuple[str, str, str, dict]]:
    return sorted(graph.edges(keys=True, data=True), key=lambda e: (e[0], e[2], e[1]))


def _scalar_kind(value) -> str | None:
    """``"bool"``, ``"int"``, ``"float"`` or ``"str"`` for a scalar, else None."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    return None


def _to_json(value) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError) as error:
        raise ExportError(f"a property value cannot be exported ({error})") from None


def neo4j_rows(graph: nx.MultiDiGraph) -> tuple[dict, dict]:
    """The node and relationship rows ``ptkg neo4j load`` writes (:mod:`ptkg.stores.neo4j_store`).

    Raises
    ------
    ExportError
        A node without a label, or a property Neo4j cannot store.
    """
    try:
        return node_rows(graph), relationship_rows(graph)
    except StoreError as error:
        raise ExportError(str(error)) from None


def _write(path: Path, text: str) -> None:
    try:
        write_atomic(path, text)
    except OSError as error:
        raise ExportError(f"{path}: cannot write ({error.strerror or error})") from None
    except UnicodeEncodeError as error:
        raise ExportError(f"{path}: text that cannot be written as UTF-8 ({error.reason})") \
            from None


def _check_file_target(path: Path) -> None:
    if path.is_dir():
        raise ExportError(f"{path} is a folder: give a file name")


# --------------------------------------------------------------------------- GraphML


def _xml_text(value: str) -> str:
    """Escape text for an XML attribute value or element content, keeping \\r, \\n and \\t."""
    value = _XML_INVALID.sub("\ufffd", value)
    return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("\r", "&#13;").replace("\n", "&#10;")
            .replace("\t", "&#9;"))


_GRAPHML_TYPES = {"bool": "boolean", "int": "long", "float": "double", "str": "string"}


def _graphml_kinds(items: Iterable[dict]) -> dict[str, str | None]:
    """Attribute name → scalar kind written natively, or None when written as JSON text."""
    kinds: dict[str, set] = defaultdict(set)
    for data in items:
        for name, value in data.items():
            kind = _scalar_kind(value)
            if kind == "float" and not math.isfinite(value):
                kind = None  # written as JSON text ("NaN", "Infinity"), which json reads back
            kinds[name].add(None if kind == "str" and value == "" else kind)
    return {name: next(iter(found)) if len(found) == 1 else None
            for name, found in sorted(kinds.items())}


def _graphml_scalar(value, kind: str | None) -> str:
    if kind is None:
        return _to_json(value)
    if kind == "bool":
        return "true" if value else "false"
    if kind == "float":
        return repr(value)
    return str(value)


def graphml_node_attributes(data: dict) -> dict:
    """A node's GraphML attributes: ``label`` = display name, ``ptkg_label`` = ptkg's label."""
    if "ptkg_label" in data:
        raise ExportError("the node property 'ptkg_label' is reserved by the GraphML export")
    attributes = {k: v for k, v in data.items() if k != "label"}
    attributes["ptkg_label"] = data.get("label")
    attributes["label"] = data.get("name", "")
    return attributes


def generate_graphml(graph: nx.MultiDiGraph) -> str:
    """The graph as GraphML text (see the module docstring for how values are written)."""
    nodes = [(node, graphml_node_attributes(data)) for node, data in _sorted_nodes(graph)]
    edges = _sorted_edges(graph)
    node_kinds = _graphml_kinds(data for _, data in nodes)
    edge_kinds = _graphml_kinds(data for *_, data in edges)
    graph_data = {
        "ptkg_format": GRAPHML_FORMAT,
        "ptkg_format_version": GRAPHML_VERSION,
        "ptkg_json_node_keys": _to_json([k for k, kind in node_kinds.items() if kind is None]),
        "ptkg_json_edge_keys": _to_json([k for k, kind in edge_kinds.items() if kind is None]),
    }
    graph_kinds = {name: _scalar_kind(value) for name, value in graph_data.items()}
    ids: dict[tuple[str, str], str] = {}
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
             'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
             'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
             'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">']
    for domain, prefix, kinds in (("graph", "g", graph_kinds), ("node", "n", node_kinds),
                                  ("edge", "e", edge_kinds)):
        for index, (name, kind) in enumerate(kinds.items()):
            ids[domain, name] = f"{prefix}{index}"
            lines.append(f'  <key id="{prefix}{index}" for="{domain}" '
                         f'attr.name="{_xml_text(name)}" '
                         f'attr.type="{_GRAPHML_TYPES.get(kind, "string")}"/>')

    def data_lines(domain: str, data: dict, kinds: dict, indent: str) -> Iterator[str]:
        for name, value in sorted(data.items()):
            text = _xml_text(_graphml_scalar(value, kinds[name]))
            yield f'{indent}<data key="{ids[domain, name]}">{text}</data>'

    lines.append('  <graph edgedefault="directed">')
    lines.extend(data_lines("graph", graph_data, graph_kinds, "    "))
    for node, data in nodes:
        lines.append(f'    <node id="{_xml_text(node)}">')
        lines.extend(data_lines("node", data, node_kinds, "      "))
        lines.append("    </node>")
    for index, (u, v, _, data) in enumerate(edges):
        lines.append(f'    <edge id="r{index}" source="{_xml_text(u)}" target="{_xml_text(v)}">')
        lines.extend(data_lines("edge", data, edge_kinds, "      "))
        lines.append("    </edge>")
    lines += ["  </graph>", "</graphml>"]
    return "\n".join(lines) + "\n"


def write_graphml(graph: nx.MultiDiGraph, path: str | Path) -> None:
    """Write :func:`generate_graphml` to ``path`` atomically.

    Raises
    ------
    ExportError
        ``path`` is a folder or cannot be written.
    """
    path = Path(path)
    _check_file_target(path)
    _write(path, generate_graphml(graph))


def graphml_to_graph(loaded: nx.Graph) -> nx.MultiDiGraph:
    """Turn what ``networkx.read_graphml`` read from our GraphML back into a ptkg graph."""
    if loaded.graph.get("ptkg_format") != GRAPHML_FORMAT:
        raise ExportError("not a ptkg GraphML file (no ptkg_format graph attribute)")
    json_nodes = set(json.loads(loaded.graph.get("ptkg_json_node_keys", "[]")))
    json_edges = set(json.loads(loaded.graph.get("ptkg_json_edge_keys", "[]")))
    graph = nx.MultiDiGraph()
    for node, data in loaded.nodes(data=True):
        props = {k: json.loads(v) if k in json_nodes else v for k, v in data.items()}
        props.pop("label", None)
        props["label"] = props.pop("ptkg_label")
        graph.add_node(node, **props)
    edges = (loaded.edges(keys=True, data=True) if loaded.is_multigraph()
             else ((u, v, d.get("id"), d) for u, v, d in loaded.edges(data=True)))
    for start, end, key, data in edges:
        props = {k: json.loads(v) if k in json_edges else v for k, v in data.items()
                 if loaded.is_multigraph() or k != "id"}
        graph.add_edge(start, end, key=props.get("type", key), **props)
    return graph


def read_graphml(path: str | Path) -> nx.MultiDiGraph:
    """Read a GraphML file written by :func:`write_graphml` back into a ptkg graph."""
    try:
        loaded = nx.read_graphml(path, force_multigraph=True)
    except (OSError, nx.NetworkXError, ValueError) as error:
        raise ExportError(f"{path}: cannot read GraphML ({error})") from None
    try:
        return graphml_to_graph(loaded)
    except ExportError as error:
        raise ExportError(f"{path}: {error}") from None


# --------------------------------------------------------------------------- Cypher


def cypher_string(value: str) -> str:
    r"""A Cypher string literal: double quotes, backslash escapes, no raw line break.

    The escaping is :func:`ptkg.cypher.quote_literal`'s, the one query parameters get.

    >>> print(cypher_string('say "hi"\\ \n'))
    "say \"hi\"\\ \n"
    """
    return quote_literal(value)


def cypher_literal(value) -> str:
    """A Cypher literal for a property value: a scalar or a list of scalars.

    >>> cypher_literal(["a", 'b"'])
    '["a", "b\\\\""]'
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if not -(2**63) <= value < 2**63:
            raise ExportError(f"integer {value} does not fit Neo4j's 64 bits")
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "0.0/0.0"
        if math.isinf(value):
            return "1.0/0.0" if value > 0 else "-1.0/0.0"
        return repr(value)
    if isinstance(value, str):
        return cypher_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(cypher_literal(item) for item in value) + "]"
    raise ExportError(f"no Cypher literal for a {type(value).__name__}")


def cypher_map(props: dict) -> str:
    """A Cypher map literal, keys in the given order.

    >>> cypher_map({"name": "torch.fx", "odd key": 1})
    '{name: "torch.fx", `odd key`: 1}'
    """
    return "{" + ", ".join(f"{quote_name(k)}: {cypher_literal(v)}" for k, v in props.items()) + "}"


def constraint_statements(labels: Iterable[str]) -> list[str]:
    """``CREATE CONSTRAINT ptkg_<Label>_<key> IF NOT EXISTS ...;`` per label, sorted."""
    return [create_constraint_query(label, key_property(label)) + ";"
            for label in sorted(set(labels))]


def _match_node(variable: str, label: str, key) -> str:
    return f"({variable}:{quote_name(label)} {{{quote_name(key_property(label))}: " \
           f"{cypher_literal(key)}}})"


def generate_cypher_statements(graph: nx.MultiDiGraph) -> list[str]:
    """The statements of the Cypher script, each one line ending in ``;``: constraints, then
    nodes, then relationships (see the module docstring)."""
    nodes, relationships = neo4j_rows(graph)
    statements = constraint_statements(nodes)
    for label, rows in nodes.items():
        statements += [f"MERGE {_match_node('n', label, row['key'])} "
                       f"SET n = {cypher_map(row['props'])};" for row in rows]
    for (start, rel_type, end), rows in relationships.items():
        statements += [f"MATCH {_match_node('a', start, row['start'])} "
                       f"MATCH {_match_node('b', end, row['end'])} "
                       f"MERGE (a)-[r:{quote_name(rel_type)}]->(b) "
                       f"SET r = {cypher_map(row['props'])};" for row in rows]
    return statements


def generate_cypher(graph: nx.MultiDiGraph) -> str:
    """The Cypher script's text: a comment header, then one statement per line."""
    header = [
        f"// ptkg graph: {graph.number_of_nodes()} nodes, "
        f"{graph.number_of_edges()} relationships.",
        "// Recreates it in Neo4j, idempotently: cypher-shell -f THIS_FILE, or split the text",
        '// on ";\\n" and run each statement that is not empty or a comment.',
    ]
    return "\n".join(header + generate_cypher_statements(graph)) + "\n"


def write_cypher(graph: nx.MultiDiGraph, path: str | Path) -> None:
    """Write :func:`generate_cypher` to ``path`` atomically.

    Raises
    ------
    ExportError
        ``path`` is a folder or cannot be written, or a property Neo4j cannot store.
    """
    path = Path(path)
    _check_file_target(path)
    _write(path, generate_cypher(graph))


def split_cypher_script(text: str) -> list[str]:
    """The statements of a script from :func:`generate_cypher`, without their ``;``.

    Splits on ``";\\n"``, drops ``//`` comment lines and empty pieces.

    >>> split_cypher_script('// two\\nRETURN ";\\\\n";\\nRETURN 2;\\n')
    ['RETURN ";\\\\n"', 'RETURN 2']
    """
    pieces = ("\n".join(line for line in piece.splitlines() if not line.startswith("//"))
              for piece in text.split(";\n"))
    return [piece.strip() for piece in pieces if piece.strip()]


# --------------------------------------------------------------------------- CSV

_CSV_TYPES = {"bool": "boolean", "int": "long", "float": "double", "str": "string"}


@dataclass
class CsvExport:
    """What :func:`write_csv` wrote: file name → row count, the other files, the delimiter."""

    folder: Path
    array_delimiter: str
    node_files: dict[str, int] = field(default_factory=dict)
    relationship_files: dict[str, int] = field(default_factory=dict)
    other_files: list[str] = field(default_factory=list)


def _file_part(name: str) -> str:
    return name if _PLAIN_FILE.match(name) else quote(name, safe="")


def node_file_name(label: str) -> str:
    """The node CSV of a label: ``nodes_Release.csv``."""
    return f"nodes_{_file_part(label)}.csv"


def relationship_file_name(rel_type: str) -> str:
    """The relationship CSV of a type: ``relationships_INTRODUCES.csv``."""
    return f"relationships_{_file_part(rel_type)}.csv"


def csv_node_id(label: str, key) -> str:
    """The ``:ID`` of a node in the CSV export: ``"Release:PyTorch 1.8"``."""
    return f"{label}:{key}"


def _csv_kind(value) -> tuple[str, str]:
    """("scalar" or "list", element kind; "" for an empty list)."""
    if isinstance(value, (list, tuple)):
        kinds = {_scalar_kind(item) for item in value}
        return "list", (kinds.pop() if len(kinds) == 1 else "float") if kinds else ""
    return "scalar", _scalar_kind(value) or "str"


def csv_column_types(rows: list[dict]) -> dict[str, str | None]:
    """Property → neo4j-admin type (``string``, ``long[]``, ...), or None for JSON text."""
    kinds: dict[str, set] = defaultdict(set)
    for row in rows:
        for name, value in row.items():
            kinds[name].add(_csv_kind(value))
    types: dict[str, str | None] = {}
    for name, found in sorted(kinds.items()):
        shapes = {shape for shape, _ in found}
        elements = {kind for _, kind in found if kind}
        if len(shapes) > 1 or len(elements) > 1:
            types[name] = None
        elif shapes == {"list"}:
            types[name] = _CSV_TYPES[elements.pop() if elements else "str"] + "[]"
        else:
            types[name] = _CSV_TYPES[elements.pop()]
    return types


def _check_csv_key(name: str) -> None:
    if ":" in name or not name or name.strip() != name:
        raise ExportError(f"property {name!r} cannot be a neo4j-admin header field "
                          "(it needs no ':' and no surrounding spaces)")


def _csv_scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    return str(value)


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _csv_field(value, column_type: str | None, delimiter: str) -> str:
    """One CSV field: text quoted (``""`` for a quote), numbers bare, absent empty."""
    if value is None or (isinstance(value, (list, tuple)) and not value):
        return ""
    if column_type is None:
        return _quoted(_to_json(value))
    if column_type.endswith("[]"):
        text = delimiter.join(_csv_scalar(item) for item in value)
        return _quoted(text) if column_type == "string[]" else text
    return _quoted(value) if isinstance(value, str) else _csv_scalar(value)


def _header_field(text: str) -> str:
    """A header field, quoted only when it must be (a comma, quote or line break)."""
    return _quoted(text) if any(ch in text for ch in ',"\r\n') else text


def _csv_table(header: list[str], rows: Iterable[list[str]]) -> str:
    return "".join(",".join(row) + "\n" for row in [header, *rows])


def choose_array_delimiter(nodes: dict, relationships: dict) -> str:
    """The first of :data:`ARRAY_DELIMITERS` in no list element and no label.

    Raises
    ------
    ExportError
        Every candidate occurs somewhere.
    """
    used = {ch for label in nodes for ch in ARRAY_DELIMITERS if ch in label}
    rows = [row for group in (*nodes.values(), *relationships.values()) for row in group]
    for row in rows:
        for value in row["props"].values():
            if isinstance(value, (list, tuple)):
                for item in value:
                    used.update(ch for ch in ARRAY_DELIMITERS if ch in _csv_scalar(item))
    for candidate in ARRAY_DELIMITERS:
        if candidate not in used:
            return candidate
    raise ExportError("every array delimiter ptkg can use (';', '|', U+001F) occurs in a list "
                      "element: neo4j-admin cannot import these lists")


def generate_csv_files(graph: nx.MultiDiGraph) -> tuple[dict[str, str], CsvExport]:
    """File name → text of each file of the CSV export, and its summary (folder ``.``)."""
    nodes, relationships = neo4j_rows(graph)
    delimiter = choose_array_delimiter(nodes, relationships)
    summary = CsvExport(folder=Path("."), array_delimiter=delimiter)
    files: dict[str, str] = {}
    for label, rows in nodes.items():
        types = csv_column_types([row["props"] for row in rows])
        for name in types:
            _check_csv_key(name)
        header = ([":ID"] + [_header_field(f"{k}:{t or 'string'}") for k, t in types.items()]
                  + [":LABEL"])
        body = ([_quoted(csv_node_id(label, row["key"]))]
                + [_csv_field(row["props"].get(k), t, delimiter) for k, t in types.items()]
                + [_quoted(label)] for row in rows)
        name = node_file_name(label)
        files[name] = _csv_table(header, body)
        summary.node_files[name] = len(rows)
    by_type: dict[str, list[tuple[str, str, dict]]] = defaultdict(list)
    for (start, rel_type, end), rows in relationships.items():
        by_type[rel_type] += [(csv_node_id(start, row["start"]), csv_node_id(end, row["end"]),
                               row["props"]) for row in rows]
    for rel_type, rows in sorted(by_type.items()):
        rows.sort(key=lambda row: (row[0], row[1]))
        types = csv_column_types([props for *_, props in rows])
        for name in types:
            _check_csv_key(name)
        header = [":START_ID", ":END_ID", ":TYPE"] + [_header_field(f"{k}:{t or 'string'}")
                                                    for k, t in types.items()]
        body = ([_quoted(start), _quoted(end), _quoted(rel_type)]
                + [_csv_field(props.get(k), t, delimiter) for k, t in types.items()]
                for start, end, props in rows)
        name = relationship_file_name(rel_type)
        files[name] = _csv_table(header, body)
        summary.relationship_files[name] = len(rows)
    files["constraints.cypher"] = "\n".join(constraint_statements(nodes)) + "\n"
    files["neo4j-admin-import.sh"] = _import_script(summary)
    summary.other_files = ["constraints.cypher", "neo4j-admin-import.sh"]
    return files, summary


def _shell_word(text: str) -> str:
    if text == "\x1f":
        return "$'\\x1f'"
    return "'" + text.replace("'", "'\\''") + "'"


def _import_script(summary: CsvExport) -> str:
    lines = [
        "#!/usr/bin/env bash",
        "# Written by `ptkg export --format csv`. Imports the CSV files of this folder into an",
        "# empty database of a stopped Neo4j 5 with neo4j-admin:",
        "#   NEO4J_ADMIN=/path/to/neo4j-admin DATABASE=neo4j bash neo4j-admin-import.sh [OPTIONS]",
        "# OPTIONS (e.g. --overwrite-destination) go to neo4j-admin. Then start Neo4j and run",
        "# constraints.cypher (cypher-shell -f constraints.cypher): the import creates none.",
        "set -euo pipefail",
        'cd "$(dirname "$0")"',
        '"${NEO4J_ADMIN:-neo4j-admin}" database import full "${DATABASE:-neo4j}" \\',
        f"  --array-delimiter={_shell_word(summary.array_delimiter)} \\",
        "  --multiline-fields=true \\",
    ]
    lines += [f"  --nodes={_shell_word(name)} \\" for name in summary.node_files]
    lines += [f"  --relationships={_shell_word(name)} \\" for name in summary.relationship_files]
    lines.append('  "$@"')  # the database goes first: --nodes and --relationships take lists
    return "\n".join(lines) + "\n"


def write_csv(graph: nx.MultiDiGraph, folder: str | Path) -> CsvExport:
    """Write the neo4j-admin import files into ``folder`` (created if needed), each atomically.

    Files of an earlier export that this graph no longer has (a label that is gone) are not
    removed; the import script lists exactly the files of this export.

    Returns
    -------
    CsvExport
        The files written with their row counts, and the array delimiter chosen.

    Raises
    ------
    ExportError
        ``folder`` is a file or cannot be written, or the graph cannot be written as CSV.
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ExportError(f"{folder} is a file: the CSV export needs a folder")
    files, summary = generate_csv_files(graph)
    summary.folder = folder
    for name, text in files.items():
        _write(folder / name, text)
    return summary


def read_csv_rows(path: str | Path) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of one exported CSV file, read with the ``csv`` module."""
    with open(path, encoding="utf8", newline="") as file:
        rows = list(csv.reader(file))
    return rows[0], rows[1:]


def parse_csv_value(text: str, column_type: str, array_delimiter: str):
    """Decode one field of an exported CSV, as the ``csv`` module returns it.

    ``column_type`` is the header's type (``string``, ``long[]``, ...); an empty field is None.

    >>> parse_csv_value("1;2", "long[]", ";"), parse_csv_value("", "string", ";")
    ([1, 2], None)
    """
    if text == "":
        return None
    parse = {"string": str, "long": int, "int": int, "double": float, "float": float,
             "boolean": lambda s: s == "true"}
    if column_type.endswith("[]"):
        element = parse[column_type[:-2]]
        return [element(item) for item in text.split(array_delimiter)]
    return parse[column_type](text)
