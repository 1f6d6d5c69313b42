"""Named Cypher queries: the ``queries/*.cypher`` files, with their metadata, run by name.

A named query is one ``.cypher`` file in the ``ptkg.queries`` package (``queries/`` in the
source tree), found from that package's location, never from the working directory. The file
opens with a header of ``//`` comment lines, like datasette's configured queries carry a title,
description and parameters::

    // name: features-by-release
    // description: The features a release introduces, with the stability it gave each.
    // param: release = "PyTorch 1.8"  (a Release name: library and version)
    // param: type = "SUPPORTS"  (optional: one relationship type; every type when absent)
    //
    // Any other comment line is a note for the reader.
    MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) WHERE r.name = $release ...

``name`` is the file name without ``.cypher``; ``description`` is one line; each ``param`` gives
the parameter's name, an example value written as JSON (a string in double quotes, a number,
``true``/``false``/``null`` or a list) and, in parentheses, a note. A note that starts with
``optional`` makes the parameter optional: when it is not given it is bound to null, so the
query tests ``$type IS NULL OR ...``. Every ``$name`` of the query must be declared, and every
declared parameter used.

The query text is the same on both backends: the Cypher subset that grand-cypher 1.2.0 runs
and Neo4j 5 runs the same way (see :mod:`ptkg.cypher`). Parameters are bound by each backend's
own means: escaped literals on NetworkX (:func:`ptkg.cypher.bind_params`), real parameters in
Neo4j. A value given as a string to a parameter whose example is a number (``--param
limit=5``) is read as that number, because ``LIMIT`` needs an integer on both.

What the queries avoid, and why (found running each on both engines):

- ``OPTIONAL MATCH``, ``WITH``, ``UNWIND``, ``UNION``, ``labels()`` and ``length()`` do not
  exist in grand-cypher: a node's label is read from its ``label`` property, which the Neo4j
  store also writes; version order is the length of the ``PRECEDES`` chain before a release,
  counted as ``COUNT(earlier)`` over ``(earlier)-[:PRECEDES*0..99]->(r)``. grand-cypher expands
  ``*0..99`` into one pattern per length and searches each through every edge: seconds on the
  bundled sample, minutes on a whole-blog graph, so only ``releases-of-library`` does it; the
  other queries order releases by name and say so.
- grand-cypher 1.2.0 finds no rows when index hints (``x.name = ...`` in ``WHERE``, or inline
  ``{name: ...}``) constrain *both* ends of one edge of ptkg's graph, whose edges are keyed by
  type: its hint double-check looks the edge up under key 0. Queries that constrain both ends,
  or ``OR`` conditions on two nodes, wrap one side in ``coalesce(x.name, "")``, which is never
  hinted and means the same (names are never null).
- Every RETURN item has an ``AS`` alias (the column names then agree), and a query that orders
  its rows orders them completely (tie-break keys), so both engines give the same order.

Names resolve: a parameter whose note says it is a *name* ("a Release name", "a Hardware or
Platform name", "an entity name, any label") is looked up before the query runs, through the
one resolver (:class:`ptkg.explore.NameIndex`): any alias, case or ``v`` prefix gives the
canonical name ("pytorch v2.0" runs as "PyTorch 2.0"), and a name the graph does not have is a
:class:`~ptkg.explore.NotFoundError` naming the closest ones, not an empty table. A note that
says *node label* or *relationship type* makes the value one of the graph's labels or types,
whatever its case. :func:`query_gaps` says, in one line each, when the graph holds no post that
announces a release a query asks about, or lists its features.
"""

from __future__ import annotations

import difflib
import json
import re
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .cypher import orders_rows, parameter_names, relationship_types
from .errors import PtkgError, QueryError

if TYPE_CHECKING:  # pragma: no cover
    from .stores import Store

SUFFIX = ".cypher"

_HEADER_LINE = re.compile(r"//\s*(name|description|param)\s*:\s*(.*?)\s*\Z")
_PARAM = re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?P<rest>.+)\Z")
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")


class QueryFileError(PtkgError):
    """A ``.cypher`` file whose header cannot be read; the message names the file and line."""


@dataclass(frozen=True)
class QueryParam:
    """One declared parameter of a named query.

    Attributes
    ----------
    name : str
        The parameter, ``$name`` in the query.
    example : object
        An example value (str, number, bool, None or a list), as JSON in the header.
    note : str
        What the value is, from the header's parentheses ("" when absent).
    optional : bool
        Whether the parameter may be left out (it is then bound to null).
    """

    name: str
    example: object
    note: str = ""
    optional: bool = False

    @property
    def kind(self) -> str | None:
        """What the value is, from the note: ``name`` (of an entity), ``label`` (a node label),
        ``type`` (a relationship type), ``stability`` (a level of the contract), or None.

        Examples
        --------
        >>> QueryParam("release", "PyTorch 1.8", "a Release name").kind
        'name'
        >>> QueryParam("label", "Feature", "a node label: Library, Release").kind
        'label'
        """
        note = self.note.casefold()
        if re.search(r"\ba stability\b", note):
            return "stability"
        if re.search(r"\bnode label\b", note):
            return "label"
        if re.search(r"\brelationship type\b", note):
            return "type"
        if re.search(r"\bname\b", note) and isinstance(self.example, str):
            return "name"
        return None

    @property
    def labels(self) -> tuple[str, ...]:
        """The labels a name parameter's note names (``()``: any label).

        Examples
        --------
        >>> QueryParam("hardware", "MPS", "a Hardware or Platform name").labels
        ('Hardware', 'Platform')
        """
        from .schema import LABELS

        if self.kind != "name":
            return ()
        return tuple(label for label in LABELS if re.search(rf"\b{label}\b", self.note))

    @property
    def cli_example(self) -> str:
        """The example as a ``--param`` value: ``release="PyTorch 1.8"``, ``limit=10``.

        Examples
        --------
        >>> QueryParam("release", "PyTorch 1.8").cli_example
        'release="PyTorch 1.8"'
        >>> QueryParam("limit", 10).cli_example, QueryParam("names", ["a"]).cli_example
        ('limit=10', 'names:=["a"]')
        """
        if isinstance(self.example, str):
            simple = re.fullmatch(r"[\w.:/@+-]+", self.example)
            return f"{self.name}={self.example if simple else json.dumps(self.example)}"
        if isinstance(self.example, (int, float)) and not isinstance(self.example, bool):
            return f"{self.name}={json.dumps(self.example)}"
        return f"{self.name}:={json.dumps(self.example, ensure_ascii=False)}"


@dataclass(frozen=True)
class NamedQuery:
    """A named Cypher query and its metadata, read from one ``.cypher`` file.

    Attributes
    ----------
    name : str
        The query's name, the file name without ``.cypher`` (``features-by-release``).
    description : str
        One line: what the query answers.
    params : tuple[QueryParam, ...]
        The declared parameters, in header order.
    text : str
        The whole file: header and Cypher (comments are valid Cypher on both backends).
    path : pathlib.Path
        The file it was read from.
    """

    name: str
    description: str
    params: tuple[QueryParam, ...]
    text: str
    path: Path

    @property
    def ordered(self) -> bool:
        """Whether the final RETURN has an ORDER BY, so the row order is part of the answer."""
        return orders_rows(self.text)

    @property
    def relationships(self) -> frozenset[str]:
        """The relationship types the query reads (``INTRODUCES`` for feature-stability)."""
        return relationship_types(self.text)

    @property
    def example_params(self) -> dict[str, object]:
        """The example value of every parameter, optional ones included."""
        return {param.name: param.example for param in self.params}

    def usage(self) -> str:
        """The parameters as ``--param`` options: ``--param release="PyTorch 1.8"``."""
        return " ".join(f"[--param {p.cli_example}]" if p.optional else f"--param {p.cli_example}"
                        for p in self.params)


def queries_dir() -> Path:
    """The folder of the packaged ``.cypher`` files: where the ``ptkg.queries`` module is."""
    from . import queries

    return Path(queries.__file__).resolve().parent


def load_queries(directory: str | Path | None = None) -> dict[str, NamedQuery]:
    """Read every named query.

    Parameters
    ----------
    directory : str or Path, optional
        A folder of ``.cypher`` files; by default the packaged ones (:func:`queries_dir`).

    Returns
    -------
    dict[str, NamedQuery]
        The queries by name, sorted by name.

    Raises
    ------
    QueryFileError
        If a file cannot be read or its header is malformed (the message names file and line).

    Examples
    --------
    >>> queries = load_queries()
    >>> queries["features-by-release"].params[0].name
    'release'
    """
    folder = Path(directory) if directory is not None else queries_dir()
    found = [read_query(path) for path in sorted(folder.glob(f"*{SUFFIX}"))]
    return {query.name: query for query in sorted(found, key=lambda q: q.name)}


def read_query(path: str | Path) -> NamedQuery:
    """Read one ``.cypher`` file (see :func:`parse_query`)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise QueryFileError(f"{path}: cannot read the query file ({reason})") from None
    return parse_query(text, path)


def parse_query(text: str, path: str | Path) -> NamedQuery:
    """Read the header of a named query's text.

    Parameters
    ----------
    text : str
        The file's text: a header of ``//`` lines, then Cypher.
    path : str or Path
        Its file; ``name`` must be the file name without ``.cypher``.

    Returns
    -------
    NamedQuery

    Raises
    ------
    QueryFileError
        If the header lacks a name or a description, has two of either, a name that is not the
        file's, a parameter line that does not read ``NAME = JSON (note)``, a parameter twice,
        or if the query uses a parameter it does not declare, or declares one it does not use.

    Examples
    --------
    >>> q = parse_query('// name: n\\n// description: D.\\n// param: x = 1 (optional)\\n'
    ...                 'MATCH (a) WHERE a.v = $x RETURN a.name AS name', "n.cypher")
    >>> q.name, q.description, q.params
    ('n', 'D.', (QueryParam(name='x', example=1, note='optional', optional=True),))
    """
    path = Path(path)
    fields: dict[str, str] = {}
    params: list[QueryParam] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("//"):
            break
        match = _HEADER_LINE.match(stripped)
        if not match:
            continue
        key, value = match.groups()
        where = f"{path}:{number}"
        if key == "param":
            param = _parse_param(value, where)
            if any(p.name == param.name for p in params):
                raise QueryFileError(f"{where}: parameter {param.name!r} is declared twice")
            params.append(param)
            continue
        if key in fields:
            raise QueryFileError(f"{where}: a second '{key}:' line; give one")
        if not value:
            raise QueryFileError(f"{where}: empty '{key}:'")
        fields[key] = value
    for key in ("name", "description"):
        if key not in fields:
            raise QueryFileError(f"{path}:1: the header has no '// {key}: ...' line")
    name = fields["name"]
    if name != path.name.removesuffix(SUFFIX) or not _NAME.match(name):
        raise QueryFileError(f"{path}: the header names the query {name!r}; name the file "
                             f"'{name}{SUFFIX}', in lower-case kebab-case")
    _check_declared(text, params, path)
    return NamedQuery(name, fields["description"], tuple(params), text, path)


def _parse_param(value: str, where: str) -> QueryParam:
    """``release = "PyTorch 1.8"  (a Release name)`` → QueryParam."""
    match = _PARAM.match(value)
    hint = 'write "// param: NAME = EXAMPLE  (note)", the example as JSON'
    if not match:
        raise QueryFileError(f"{where}: bad parameter line {value!r}: {hint}")
    rest = match.group("rest")
    try:
        example, end = json.JSONDecoder().raw_decode(rest)
    except json.JSONDecodeError:
        raise QueryFileError(f"{where}: the example of {match.group('name')!r} is not JSON "
                             f"({rest!r}): {hint}") from None
    if isinstance(example, dict):
        raise QueryFileError(f"{where}: the example of {match.group('name')!r} is an object; "
                             "give a string, number, boolean, null or list")
    note = rest[end:].strip()
    if note and not (note.startswith("(") and note.endswith(")")):
        raise QueryFileError(f"{where}: text after the example of {match.group('name')!r} "
                             f"({note!r}): {hint}")
    note = note[1:-1].strip()
    return QueryParam(match.group("name"), example, note, note.lower().startswith("optional"))


def _check_declared(text: str, params: list[QueryParam], path: Path) -> None:
    """Every ``$name`` used is declared, and every declared one is used."""
    used = parameter_names(text)
    declared = {p.name for p in params}
    if used - declared:
        missing = ", ".join(sorted(used - declared))
        raise QueryFileError(f"{path}: the query uses undeclared parameter(s) {missing}: "
                             "add a '// param: NAME = EXAMPLE' line for each")
    if declared - used:
        unused = ", ".join(sorted(declared - used))
        raise QueryFileError(f"{path}: parameter(s) {unused} declared but not used in the query")


def get_query(name: str, queries: Mapping[str, NamedQuery] | None = None) -> NamedQuery:
    """The named query ``name``.

    Parameters
    ----------
    name : str
        A query name, as ``ptkg queries list`` shows.
    queries : Mapping[str, NamedQuery], optional
        Where to look; by default :func:`load_queries`.

    Raises
    ------
    QueryError
        One line naming every existing query (and the closest, when one is close).

    Examples
    --------
    >>> get_query("released-with").params[0].example
    'PyTorch 1.5'
    """
    queries = load_queries() if queries is None else queries
    if name in queries:
        return queries[name]
    close = difflib.get_close_matches(name, list(queries), n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise QueryError(f"no named query {name!r}: {hint}the named queries are "
                     f"{', '.join(queries) or '(none)'}")


def check_params(query: NamedQuery, params: Mapping[str, object]) -> dict[str, object]:
    """Check the values given for a query's parameters and complete them.

    Parameters
    ----------
    query : NamedQuery
        The query.
    params : Mapping[str, object]
        The values given, by parameter name (from ``--param``: strings, or JSON values).

    Returns
    -------
    dict[str, object]
        A value for every declared parameter, in header order: optional ones not given are
        None, and a string given for a parameter whose example is a number is read as one.

    Raises
    ------
    QueryError
        One line: the required parameters that have no value, each with its example; or a
        parameter the query does not declare (with the ones it does); or a string that is not
        a number where a number is expected.

    Examples
    --------
    >>> check_params(get_query("top-mentioned"), {"label": "Model", "limit": "3"})
    {'label': 'Model', 'limit': 3}
    >>> check_params(get_query("features-by-release"), {})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ptkg.errors.QueryError: query features-by-release needs a value for release: give --param ...
    """
    declared = {param.name: param for param in query.params}
    unknown = [name for name in params if name not in declared]
    if unknown:
        takes = (f"it takes {', '.join(declared)}" if declared else "it takes no parameters")
        raise QueryError(f"query {query.name} has no parameter {', '.join(unknown)}: {takes}")
    missing = [p for p in query.params if not p.optional and p.name not in params]
    if missing:
        names = ", ".join(p.name for p in missing)
        give = " ".join(f"--param {p.cli_example}" for p in missing)
        raise QueryError(f"query {query.name} needs a value for {names}: give {give}")
    return {p.name: _coerce(query, p, params[p.name]) if p.name in params else None
            for p in query.params}


def _coerce(query: NamedQuery, param: QueryParam, value: object) -> object:
    """A string given where the example is a number becomes that number."""
    example = param.example
    if not isinstance(value, str) or isinstance(example, bool):
        return value
    if isinstance(example, (int, float)):
        try:
            return int(value) if isinstance(example, int) else float(value)
        except ValueError:
            kind = "an integer" if isinstance(example, int) else "a number"
            raise QueryError(f"query {query.name}: parameter {param.name} must be {kind}, not "
                             f"{value!r} (e.g. --param {param.cli_example})") from None
    return value


def run_named_query(store: Store, query: NamedQuery, params: Mapping[str, object], *,
                    resolve: bool = True) -> tuple[list[str], list[list[object]]]:
    """Run a named query in a store (a graph file or Neo4j): the same text on either.

    Parameters
    ----------
    store : Store
        Where the graph is.
    query : NamedQuery
        The query.
    params : Mapping[str, object]
        The values given (see :func:`check_params`).
    resolve : bool
        Look name, label and type parameters up first (see :func:`resolve_params`).

    Returns
    -------
    tuple[list[str], list[list[object]]]
        Column names and rows, as :meth:`ptkg.stores.Store.query` gives them.

    Raises
    ------
    QueryError
        Missing or unknown parameters (see :func:`check_params`), or the query cannot run.
    NotFoundError
        A name, label or type the graph does not have (the message lists the closest).
    StoreError
        The store cannot be reached.
    """
    checked = check_params(query, params)
    if resolve:
        checked = resolve_params(store, query, checked)
    return store.query(query.text, checked)


def resolve_params(store: Store, query: NamedQuery,
                   params: Mapping[str, object]) -> dict[str, object]:
    """The values of ``params`` with every name, label and type parameter resolved.

    A name becomes the canonical name of the node it names (of the labels its note gives); a
    label or type becomes the graph's spelling. Nulls (optional parameters left out) and
    values of other parameters are kept.

    Raises
    ------
    NotFoundError
        A name the graph does not have, or that names entities with different names; a label
        or type the graph does not have (each message lists the closest).

    Examples
    --------
    >>> import networkx as nx
    >>> from ptkg.stores.networkx_store import GraphFileStore
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("Release:PyTorch 2.0", label="Release", name="PyTorch 2.0",
    ...            library="PyTorch", version="2.0")
    >>> resolve_params(GraphFileStore(graph=g), get_query("features-by-release"),
    ...                {"release": "pytorch v2.0"})
    {'release': 'PyTorch 2.0'}
    """
    from .explore import NotFoundError, closest_words

    resolved = dict(params)
    index = None
    for param in query.params:
        value = resolved.get(param.name)
        if not isinstance(value, str) or param.kind is None:
            continue
        if index is None:
            index = store_names(store)
        if param.kind == "name":
            resolved[param.name] = index.resolve_name(value, list(param.labels) or None)
            continue
        if param.kind == "stability":
            from .schema import STABILITIES

            known = list(STABILITIES)
        else:
            known = index.labels() if param.kind == "label" else store_types(store)
        match = next((k for k in known if k.casefold() == value.casefold()), None)
        if match is None:
            close = closest_words(value, known)
            hint = f"; closest: {', '.join(close)}" if close else ""
            what = {"label": "label", "type": "relationship type",
                    "stability": "stability"}[param.kind]
            where = "the contract" if param.kind == "stability" else "the graph"
            raise NotFoundError(f"{where} has no {what} {value!r}{hint}")
        resolved[param.name] = match
    return resolved


_STORE_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def store_names(store: Store):
    """The :class:`~ptkg.explore.NameIndex` of a store's graph: the graph's own, kept while
    it lives, for a graph file; read once with :data:`~ptkg.explore.NAMES_QUERY` (and kept
    with the store) for a server."""
    from .explore import NAMES_QUERY, NameIndex, name_index
    from .stores.networkx_store import GraphFileStore

    if isinstance(store, GraphFileStore):
        return name_index(store.graph())
    cached = _STORE_NAMES.get(store)
    if cached is None:
        columns, rows = store.query(NAMES_QUERY, {})
        cached = NameIndex.from_rows(dict(zip(columns, row, strict=True)) for row in rows)
        _STORE_NAMES[store] = cached
    return cached


def store_types(store: Store) -> list[str]:
    """The relationship types of a store's graph, sorted."""
    from .stores.indexes import graph_index
    from .stores.networkx_store import GraphFileStore

    if isinstance(store, GraphFileStore):
        return graph_index(store.graph()).relationship_types()
    from .schema import RELATION_TYPES

    columns, rows = store.query("MATCH (a)-[r]->(b) RETURN DISTINCT type(r) AS type", {})
    return sorted({str(row[0]) for row in rows} | set(RELATION_TYPES))


#: For each query, what its release parameter's gap makes unknown.
_GAP_WORDS = {
    "features-by-release": "the features it introduced are not known",
    "features-by-stability": "the features it introduced, and at which stability, are not known",
    "stability-counts": "the features it introduced are not known",
    "released-with": "the library releases shipped with it are not known",
    "deprecations": "what it deprecated or removed is not known",
    "release-diff": "what it introduced, and at which stability, is not known",
}
#: The queries whose rows list a release's features: listed only by posts that do not announce
#: the release, they are what those posts happen to say, not the release's list.
_LISTS_FEATURES = frozenset({"features-by-release", "features-by-stability", "stability-counts",
                             "release-diff"})
#: The parameters that name the releases a query asks about.
_RELEASE_PARAMS = ("release", "a", "b")


def query_gaps(store: Store, query: NamedQuery, params: Mapping[str, object],
               rows: Sequence[object] | None = None) -> list[str]:
    """One line for each release a query asks about that no post of the graph announces or
    lists the features of (the rows cannot show what the graph lacks); ``[]`` otherwise.

    ``params`` are resolved values (see :func:`resolve_params`); ``rows``, the query's rows when
    known. Only the queries of :data:`_GAP_WORDS` ask about releases. Besides a release no post
    announces or lists the features of:

    - ``released-with`` with no rows says that no post read names a library release shipped
      with it (rows read from a library's own post need no note);
    - ``deprecations`` with no rows, of a release no post announces, says what it ended is not
      known, though other posts list features it brought (the Intel post's "PyTorch 2.4 Now
      Supports Intel GPUs" states no deprecation of 2.4's);
    - a query that lists a release's features (:data:`_LISTS_FEATURES`) says so when features
      are listed but no post announces the release: the rows are what other posts mention
      (a partner's post about the release), not the release's own list.
    """
    words = _GAP_WORDS.get(query.name)
    releases = [value for key in _RELEASE_PARAMS
                if isinstance(value := params.get(key), str)]
    if words is None or not releases or (rows and query.name == "released-with"):
        return []
    from .lifecycle import gap_line

    lines = []
    for release in dict.fromkeys(releases):
        coverage = _release_coverage(store, release)
        if coverage is None:
            continue
        if query.name == "deprecations" and not rows and not coverage.announced_by:
            lines.append(f"no post in the graph announces {release}: {words}")
            continue  # a feature another post says it brought states none of its endings
        if query.name == "released-with":
            lines.append(f"no post in the graph announces {release}: {words}"
                         if not coverage.announced_by else
                         f"no post in the graph names a library release shipped with "
                         f"{release}: {words}")
            continue
        line = gap_line(coverage, "" if coverage.listed else words,
                        own_list=query.name in _LISTS_FEATURES)
        if line:
            lines.append(line)
    return lines


def _release_coverage(store: Store, release: str):
    """The :class:`ptkg.lifecycle.Coverage` of a release (by its canonical name), or None."""
    from .lifecycle import Coverage, release_coverage
    from .stores.networkx_store import GraphFileStore

    if isinstance(store, GraphFileStore):
        nodes = store_names(store).find(release, ["Release"])
        return release_coverage(store.graph(), nodes[0]) if nodes else None
    _, posts = store.query("MATCH (p:Post)-[:ANNOUNCES]->(r:Release) WHERE r.name = $name "
                           "RETURN p.url AS url", {"name": release})
    _, features = store.query("MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) WHERE r.name "
                              "= $name RETURN COUNT(f) AS features", {"name": release})
    return Coverage(release, "", "", tuple(sorted(str(r[0]) for r in posts)),
                    int(features[0][0]) if features else 0)


# ---------------------------------------------------------------------------- any Cypher

_STRINGS_AND_COMMENTS = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|//[^\n]*|/\*.*?\*/',
                                   re.DOTALL)
_NODE_LABELS = re.compile(r"\(\s*[A-Za-z_]\w*\s*:\s*(`?\w+`?(?:\s*\|\s*`?\w+`?)*)|"
                          r"\(\s*:\s*(`?\w+`?(?:\s*\|\s*`?\w+`?)*)")
_REL_TYPES = re.compile(r"\[\s*[A-Za-z_]?\w*\s*:\s*(`?\w+`?(?:\s*\|\s*`?\w+`?)*)")
_NAME_EQUALS = re.compile(r"\b([A-Za-z_]\w*)\.name\s*=\s*\$([A-Za-z_]\w*)|"
                          r"\$([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\.name\b")
_INLINE_NAME = re.compile(r"\(\s*([A-Za-z_]\w*)?\s*(?::\s*([\w|]+))?\s*\{[^}]*\bname\s*:\s*"
                          r"\$([A-Za-z_]\w*)")
_VAR_LABELS = re.compile(r"\(\s*([A-Za-z_]\w*)\s*:\s*(\w+(?:\s*\|\s*\w+)*)")


def _words(pattern: re.Pattern, text: str) -> list[str]:
    found = []
    for match in pattern.finditer(text):
        group = next(g for g in match.groups() if g)
        found += [w.strip().strip("`") for w in group.split("|")]
    return found


def cypher_vocabulary(cypher: str) -> tuple[list[str], list[str]]:
    """The node labels and relationship types a Cypher text names (strings, comments left out).

    Examples
    --------
    >>> cypher_vocabulary('MATCH (n:Feeture)<-[:INTRODUCES|PART_OF]-(:Release) '
    ...                   'WHERE n.name = "(x:Y)" RETURN n')
    (['Feeture', 'Release'], ['INTRODUCES', 'PART_OF'])
    """
    text = _STRINGS_AND_COMMENTS.sub('""', cypher)
    return _words(_NODE_LABELS, text), _words(_REL_TYPES, text)


def cypher_warnings(store: Store, cypher: str) -> list[str]:
    """A line for each label or relationship type of ``cypher`` that the store's graph does
    not have, naming the closest ones (a query with one finds nothing: it is a typo)."""
    from .explore import unknown_words

    labels, types = cypher_vocabulary(cypher)
    if not labels and not types:
        return []
    lines = []
    if labels:
        lines += unknown_words(labels, store_names(store).labels(), "label")
    if types:
        lines += unknown_words(types, store_types(store), "relationship type")
    return lines


def cypher_name_params(cypher: str) -> dict[str, tuple[str, ...]]:
    """The parameters a Cypher text compares with a node's ``name``, and that node's labels
    (``()``: any): ``WHERE x.name = $p``, ``coalesce(x.name, "") = $p``, ``{name: $p}``.

    Examples
    --------
    >>> cypher_name_params('MATCH (r:Release)-[:SUPPORTS]->(h) WHERE r.name = $r '
    ...                    'AND h.name = $h AND h.kind = $k RETURN r.name')
    {'r': ('Release',), 'h': ()}
    """
    from .stores.compiled import Attr, Func, Param, Unsupported, parse

    try:
        query = parse(cypher)
    except (Unsupported, RecursionError):
        return _regex_name_params(cypher)
    labels = {n.var: tuple(sorted(n.labels)) for n in query.nodes}
    found: dict[str, tuple[str, ...]] = {}
    for node in query.nodes:
        for key, value in node.props:
            if key == "name" and isinstance(value, Param):
                found[value.name] = tuple(sorted(node.labels))
    for cmp in _comparisons(query.where):
        sides = [(cmp.left, cmp.right), (cmp.right, cmp.left)]
        for side, other in sides:
            if not isinstance(other, Param) or cmp.op != "==" or not cmp.should_be:
                continue
            attr = side
            if isinstance(side, Func) and side.name == "coalesce":
                attr = side.args[0]
            if isinstance(attr, Attr) and attr.prop == "name" and attr.var in labels:
                found[other.name] = labels[attr.var]
    return found


def _comparisons(cond) -> list:
    from .stores.compiled import BoolOp, Cmp

    if isinstance(cond, BoolOp):
        return _comparisons(cond.left) + _comparisons(cond.right)
    return [cond] if isinstance(cond, Cmp) and cond.op != "in" else []


def _regex_name_params(cypher: str) -> dict[str, tuple[str, ...]]:
    text = _STRINGS_AND_COMMENTS.sub('""', cypher)
    labels = {m.group(1): tuple(sorted(w.strip() for w in m.group(2).split("|")))
              for m in _VAR_LABELS.finditer(text)}
    found: dict[str, tuple[str, ...]] = {}
    for match in _NAME_EQUALS.finditer(text):
        var, param = (match.group(1), match.group(2)) if match.group(1) else (
            match.group(4), match.group(3))
        found[param] = labels.get(var, ())
    for match in _INLINE_NAME.finditer(text):
        node_labels = tuple(sorted(w.strip() for w in (match.group(2) or "").split("|") if w))
        found[match.group(3)] = node_labels
    return found


def resolve_query_params(store: Store, cypher: str,
                         params: Mapping[str, object]) -> dict[str, object]:
    """``params`` with each string compared to a node's name (:func:`cypher_name_params`)
    replaced by the canonical name it resolves to.

    Raises
    ------
    NotFoundError
        A name the graph does not have (the message lists the closest).
    """
    names = cypher_name_params(cypher)
    resolved = dict(params)
    wanted = [p for p in names if isinstance(resolved.get(p), str)]
    if not wanted:
        return resolved
    index = store_names(store)
    for param in wanted:
        labels = [label for label in names[param] if label in index.labels()] or None
        if names[param] and labels is None:
            continue  # a label the graph does not have: the query warns, nothing to resolve
        resolved[param] = index.resolve_name(str(resolved[param]), labels)
    return resolved
