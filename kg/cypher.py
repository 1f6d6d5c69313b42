"""Cypher text: literals, parameters, row order, and the builders of the statements ptkg sends.

One home for Cypher as text, shared by both stores and the exports: :func:`quote_literal` and
:func:`quote_name` write values and names no input can break out of; :func:`bind_params` and
:func:`parse_param` handle ``$name`` parameters (the NetworkX store binds them as literals, the
Neo4j store sends real parameters); :func:`row_sort_key` is the row order both stores give a
query without ``ORDER BY``; the ``*_query`` builders are the statements of a Neo4j load, wipe
and count (their text is pinned by unit tests).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence

from ptkg.errors import QueryError

_PARAM_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

_SCANNER = re.compile(
    r"""
      "(?:[^"\\]|\\.)*(?:"|\\?\Z)    # double-quoted string (unterminated: to the end)
    | '(?:[^'\\]|\\.)*(?:'|\\?\Z)    # single-quoted string
    | `[^`]*(?:`|\Z)                # quoted name
    | //[^\n]*                      # line comment
    | /\*.*?(?:\*/|\Z)              # block comment
    | \$(?P<name>[A-Za-z_][A-Za-z0-9_]*)
    """,
    re.VERBOSE | re.DOTALL,
)

_STRING_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
                   "\b": "\\b", "\f": "\\f"}

def bind_params(query: str, params: Mapping[str, object]) -> str:
    """Replace each ``$name`` outside string literals and comments with its quoted value.

    Parameters
    ----------
    query : str
        Cypher text with ``$name`` parameters.
    params : Mapping[str, object]
        A value for each parameter: str, int, float, bool, None or a list of these. Values the
        query does not use are ignored.

    Returns
    -------
    str
        The query with every parameter replaced by a Cypher literal (see :func:`quote_literal`).

    Raises
    ------
    QueryError
        If a parameter of the query has no value, or a value has a type Cypher cannot write.

    Examples
    --------
    >>> bind_params('MATCH (n) WHERE n.name = $name RETURN n.name // $name', {"name": 'a"b'})
    'MATCH (n) WHERE n.name = "a\\\\"b" RETURN n.name // $name'
    """
    missing: list[str] = []

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name is None:
            return match.group(0)
        if name not in params:
            missing.append(name)
            return match.group(0)
        return quote_literal(params[name])

    text = _SCANNER.sub(replace, query)
    if missing:
        names = ", ".join(f"${name}" for name in dict.fromkeys(missing))
        raise QueryError(f"missing value for query parameter(s) {names}")
    return text

def quote_literal(value: object) -> str:
    """Write a Python value as a Cypher literal that reads back as the same value.

    Strings are double-quoted; quotes, backslashes and every non-printable character are
    escaped, so a value can never end the literal early.

    Parameters
    ----------
    value : object
        A str, int, float (finite), bool, None, or a list or tuple of these.

    Returns
    -------
    str
        The literal: ``"text"``, ``12``, ``1.5``, ``true``, ``null``, ``[1, "a"]``.

    Raises
    ------
    QueryError
        If the value is of another type, or a float that is not finite.

    Examples
    --------
    >>> print(quote_literal(['x" OR 1=1 //', "line\\nbreak", 3, None]))
    ["x\\" OR 1=1 //", "line\\nbreak", 3, null]
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise QueryError(f"cannot write {value!r} as a Cypher literal")
        return float.__repr__(value)
    if isinstance(value, str):
        return '"' + "".join(_escape_char(char) for char in value) + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(quote_literal(item) for item in value) + "]"
    raise QueryError(
        f"cannot use a {type(value).__name__} as a query parameter: "
        "give a string, number, boolean, null or a list of these"
    )

def _escape_char(char: str) -> str:
    """Escape one character of a string literal (the escapes Cypher and Python share)."""
    if char in _STRING_ESCAPES:
        return _STRING_ESCAPES[char]
    if char.isprintable():
        return char
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"

def parse_param(text: str) -> tuple[str, object]:
    """Read a ``--param`` option: ``name=value`` gives a string, ``name:=json`` a JSON value.

    Parameters
    ----------
    text : str
        ``NAME=VALUE`` (the value is always a string, even ``1.8`` or ``true``) or
        ``NAME:=JSON`` (a JSON number, string, boolean, null or list).

    Returns
    -------
    tuple[str, object]
        The parameter name and its value.

    Raises
    ------
    QueryError
        If the text has no ``=``, the name is not an identifier, or the JSON is invalid or an
        object.

    Examples
    --------
    >>> parse_param('release=PyTorch 1.8')
    ('release', 'PyTorch 1.8')
    >>> parse_param('limit:=5')
    ('limit', 5)
    """
    name, equals, value = text.partition("=")
    if not equals:
        raise QueryError(f"bad parameter {text!r}: write NAME=VALUE, or NAME:=JSON")
    is_json = name.endswith(":")
    name = name.removesuffix(":").strip()
    if not _PARAM_NAME.match(name):
        raise QueryError(f"bad parameter name {name!r}: use letters, digits and _")
    return name, _parse_json_value(name, value) if is_json else value

def _parse_json_value(name: str, text: str) -> object:
    """Read the JSON value of parameter ``name`` and check Cypher can write it."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise QueryError(f"parameter {name}: invalid JSON {text!r} ({exc.msg})") from exc
    quote_literal(value)
    return value

def sort_key(value: object) -> tuple:
    """A key that orders values of any type: booleans, numbers, strings, others, then null."""
    if value is None:
        return (4, "")
    if isinstance(value, bool):
        return (0, value)
    if isinstance(value, (int, float)):
        return (1, value)
    if isinstance(value, str):
        return (2, value)
    return (3, json.dumps(value, ensure_ascii=False, sort_keys=True, default=str))

def row_sort_key(row: Sequence[object]) -> tuple:
    """Sort key of a whole row."""
    return tuple(sort_key(value) for value in row)


def parameter_names(query: str) -> set[str]:
    """The ``$name`` parameters a query uses (not inside strings or comments).

    Examples
    --------
    >>> sorted(parameter_names('MATCH (n) WHERE n.a = $a AND n.b = "$no" RETURN n // $c'))
    ['a']
    """
    return {m.group("name") for m in _SCANNER.finditer(query) if m.group("name")}


def orders_rows(query: str) -> bool:
    """Whether the query's final ``RETURN`` has an ``ORDER BY`` (strings and comments ignored).

    Examples
    --------
    >>> orders_rows('MATCH (n) RETURN n.name ORDER BY n.name'), orders_rows('RETURN "ORDER BY"')
    (True, False)
    """
    text = _SCANNER.sub(" ", query)
    returns = [m.end() for m in re.finditer(r"\bRETURN\b", text, re.IGNORECASE)]
    tail = text[returns[-1]:] if returns else text
    return re.search(r"\bORDER\s+BY\b", tail, re.IGNORECASE) is not None


def relationship_types(query: str) -> frozenset[str]:
    """The relationship types the query's patterns name (strings and comments ignored).

    Examples
    --------
    >>> sorted(relationship_types('MATCH (r)-[i:INTRODUCES]->(f)-[:BASED_ON|PART_OF*0..1]->(g)'))
    ['BASED_ON', 'INTRODUCES', 'PART_OF']
    """
    text = _SCANNER.sub(" ", query)
    return frozenset(name for types in _TYPED_RELATIONSHIP.findall(text)
                     for name in re.findall(r"\w+", types))


#: A relationship pattern's types: ``[i:INTRODUCES]``, ``[:VARIANT_OF|SAME_AS*0..1]``.
_TYPED_RELATIONSHIP = re.compile(r"\[\s*\w*\s*:\s*(\w+(?:\s*\|\s*:?\s*\w+)*)")

_SIMPLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

def quote_name(name: str) -> str:
    """A label, type or property name as Cypher: bare when simple, else in backticks.

    Examples
    --------
    >>> quote_name("Release"), quote_name("odd `name`")
    ('Release', '`odd ``name```')
    """
    if _SIMPLE_NAME.match(name):
        return name
    return "`" + name.replace("`", "``") + "`"

def constraint_name(label: str, key: str) -> str:
    """The name ptkg gives the uniqueness constraint of ``label``: ``ptkg_Post_url``."""
    return "ptkg_" + re.sub(r"\W", "_", label) + "_" + re.sub(r"\W", "_", key)

def create_constraint_query(label: str, key: str) -> str:
    """``CREATE CONSTRAINT ... IF NOT EXISTS`` making ``key`` unique among ``label`` nodes."""
    return (f"CREATE CONSTRAINT {quote_name(constraint_name(label, key))} IF NOT EXISTS "
            f"FOR (n:{quote_name(label)}) REQUIRE n.{quote_name(key)} IS UNIQUE")

def merge_nodes_query(label: str, key: str) -> str:
    """One batch of nodes: ``$rows`` of ``{key, props}``; properties replaced, not merged."""
    return (f"UNWIND $rows AS row "
            f"MERGE (n:{quote_name(label)} {{{quote_name(key)}: row.key}}) "
            f"SET n = row.props")

def merge_relationships_query(start_label: str, start_key: str, rel_type: str,
                              end_label: str, end_key: str) -> str:
    """One batch of relationships: ``$rows`` of ``{start, end, props}``, endpoints by key."""
    return (f"UNWIND $rows AS row "
            f"MATCH (a:{quote_name(start_label)} {{{quote_name(start_key)}: row.start}}) "
            f"MATCH (b:{quote_name(end_label)} {{{quote_name(end_key)}: row.end}}) "
            f"MERGE (a)-[r:{quote_name(rel_type)}]->(b) "
            f"SET r = row.props")

def wipe_query(label: str) -> str:
    """Delete up to ``$limit`` nodes of ``label`` with their relationships; return how many."""
    return (f"MATCH (n:{quote_name(label)}) WITH n LIMIT $limit "
            f"DETACH DELETE n RETURN count(*) AS deleted")

def fetch_nodes_query() -> str:
    """Every node with one of ``$labels``: its labels and properties."""
    return ("MATCH (n) WHERE any(label IN labels(n) WHERE label IN $labels) "
            "RETURN labels(n) AS labels, properties(n) AS props")

def fetch_relationships_query() -> str:
    """Every relationship between nodes with one of ``$labels``: ends, type and properties."""
    return ("MATCH (a)-[r]->(b) "
            "WHERE any(label IN labels(a) WHERE label IN $labels) "
            "AND any(label IN labels(b) WHERE label IN $labels) "
            "RETURN labels(a) AS start_labels, properties(a) AS start, type(r) AS type, "
            "properties(r) AS props, labels(b) AS end_labels, properties(b) AS end")

def count_nodes_query(label: str) -> str:
    """The number of nodes of ``label`` (read from Neo4j's count store)."""
    return f"MATCH (n:{quote_name(label)}) RETURN count(n) AS count"

def count_relationships_query(rel_type: str) -> str:
    """The number of relationships of ``rel_type`` (read from Neo4j's count store)."""
    return f"MATCH ()-[r:{quote_name(rel_type)}]->() RETURN count(r) AS count"
