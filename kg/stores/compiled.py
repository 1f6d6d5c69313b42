"""A compiled executor for the Cypher the named queries use, on the graph in memory.

:func:`run_compiled` answers a query the way grand-cypher 1.2.0 does — the same columns, the
same rows, the same order — without grand-cypher: the text is parsed once into a plan (kept per
query text, parameters apart), and the plan matches its pattern from an index
(:mod:`ptkg.stores.indexes`) instead of trying every node. A query outside the subset below, or
one whose answer would depend on grand-cypher's match order, raises :class:`Unsupported`, and
:func:`ptkg.stores.grand_cypher.run_query` runs it on grand-cypher instead: any query still
runs, with identical results (``tests/test_speed_engine.py`` compares both on every named
query, many parameter values and a list of other queries).

The subset
    One ``MATCH`` of a path of nodes ``(v:Label|Other {key: value})`` and directed
    relationships ``-[r:TYPE|OTHER]->``, ``<-[r]-``, ``-->``, ``<--`` and bounded variable-length
    ones without a variable, ``-[:TYPE*0..1]->``, ``<-[*2]-`` (at most ``*..8``; no undirected
    ones, each variable once); ``WHERE`` with comparisons (``= == <> < > <= >=``,
    ``IS``, ``IN [list]``, ``CONTAINS``, ``STARTS WITH``, ``ENDS WITH``), ``NOT``, ``AND`` /
    ``OR`` (mixed only inside parentheses), arithmetic; ``RETURN`` of variables, properties,
    ``ID``, ``type``, ``toLower``, ``toUpper``, ``trim``, ``size``, ``coalesce``, ``AS``,
    ``DISTINCT`` (without ``ORDER BY``); ``COUNT``, ``SUM``, ``AVG``, ``MIN``, ``MAX``;
    ``ORDER BY``, ``SKIP``, ``LIMIT``; ``$name`` parameters; ``//`` comments.

What falls back to grand-cypher
    Everything else (several ``MATCH`` clauses, ``EXISTS``, ``COLLECT``, a variable on a
    variable-length relationship, syntax errors, ...); a query whose rows tie on every
    ``ORDER BY`` key but differ, among the rows ``SKIP``/``LIMIT`` keep or across their edge;
    one whose ``SKIP``/``LIMIT`` without ``ORDER BY`` would cut a set of rows (grand-cypher's
    pick then depends on its match order); a ``WHERE`` from which grand-cypher would derive
    index hints for two pattern nodes (it then finds no rows or wrong ones, see
    :mod:`ptkg.named_queries`); an expression that raises (grand-cypher reports the error).

How it is the same
    grand-cypher derives *hints* from ``WHERE`` comparisons of a property with a literal and
    from inline properties, and starts its search only from the hinted nodes; the plan
    computes the same hint domain and applies it. ``WHERE`` is evaluated with grand-cypher's
    rules (a comparison that fails on types is false, null is false, both sides of ``AND`` /
    ``OR`` are evaluated); aggregates group by every looked-up item as grand-cypher does;
    ``ORDER BY`` sorts nulls as infinity. Distinct pattern nodes match distinct graph nodes.
    A variable-length relationship is matched once per length, as grand-cypher expands it: a
    zero length puts both ends on one node (passing both node patterns; a hint on the end
    grand-cypher merges away is dropped, as it drops it), a length ``k`` a path whose ``k - 1``
    inner nodes are distinct from each other and from every other node of the match (Neo4j
    only keeps relationships distinct: on a cycle or a self-loop it can find more paths).
    Only when every ``WHERE`` expression is safe (cannot raise) are its conditions applied
    while matching (from a property index, before the pattern is complete).
"""

from __future__ import annotations

import ast
import gc
import heapq
import itertools
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

import networkx as nx

from ptkg.cypher import bind_params, row_sort_key, sort_key
from ptkg.errors import QueryError

from .indexes import GraphIndex, graph_index

EMPTY_AGGREGATES = {"COUNT": 0, "SUM": 0, "COLLECT": []}
PLAN_CACHE_SIZE = 512
MAX_HOPS = 8  # the longest variable-length relationship compiled (grand-cypher allows 99)
MAX_HOP_ASSIGNMENTS = 64  # the most combinations of lengths one pattern is matched with
ANCHOR_COST = 2.0  # what starting a search from one node costs, in edges followed


class Unsupported(Exception):
    """The query is outside the compiled subset: run it on grand-cypher."""


# ---------------------------------------------------------------------------- values

def plain_value(value: object) -> object:
    """A fresh, JSON-like copy: no ``__labels__``, sorted dict keys, sets as sorted lists."""
    if isinstance(value, Mapping):
        return {str(k): plain_value(value[k]) for k in sorted(value, key=str)
                if k != "__labels__"}
    if isinstance(value, (list, tuple)):
        return [plain_value(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted((plain_value(item) for item in value), key=sort_key)
    return value


# ---------------------------------------------------------------------------- tokens

_TOKEN = re.compile(r"""
    (?P<ws>\s+|//[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\[^\n])*")
  | (?P<param>\$[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>(?:\d+\.(?!\.)\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>-\[|\]-|--|<>|>=|<=|==|\.\.|[()\[\]{}:,.|*<>=+\-/%])
""", re.VERBOSE)

_KEYWORDS = {"MATCH", "WHERE", "RETURN", "AND", "OR", "NOT", "IN", "IS", "CONTAINS", "STARTS",
             "ENDS", "WITH", "ORDER", "BY", "ASC", "DESC", "DISTINCT", "SKIP", "LIMIT", "AS",
             "NULL", "TRUE", "FALSE", "OPTIONAL", "UNWIND", "UNION", "CALL", "CREATE", "MERGE",
             "SET", "DELETE", "DETACH", "REMOVE", "FOREACH", "LOAD", "EXISTS"}
_AGGREGATES = ("COUNT", "SUM", "AVG", "MAX", "MIN")
_FUNCTIONS = {"tolower": "toLower", "toupper": "toUpper", "trim": "trim", "size": "size",
              "coalesce": "coalesce", "type": "type", "id": "ID"}


class _Token(NamedTuple):
    kind: str
    text: str
    start: int
    end: int

    @property
    def word(self) -> str:
        return self.text.upper() if self.kind == "name" else ""


def _tokens(text: str) -> list[_Token]:
    found, position = [], 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match:
            raise Unsupported(f"unexpected character {text[position]!r}")
        kind = match.lastgroup
        if kind != "ws":
            found.append(_Token(kind, match.group(), match.start(), match.end()))
        position = match.end()
    return found


# ---------------------------------------------------------------------------- syntax tree

class Lit(NamedTuple):
    value: object


class Param(NamedTuple):
    name: str


class Var(NamedTuple):
    name: str


class Attr(NamedTuple):
    var: str
    prop: str


class Func(NamedTuple):
    name: str  # toLower, toUpper, trim, size, coalesce, type, ID
    args: tuple


class Arith(NamedTuple):
    op: str
    left: object
    right: object


class Cmp(NamedTuple):
    should_be: bool
    left: object
    op: str  # ==, <>, <, >, <=, >=, is, in, contains, starts_with, ends_with
    right: object


class BoolOp(NamedTuple):
    op: str  # and, or
    left: object
    right: object


class NodePattern(NamedTuple):
    var: str
    labels: frozenset
    props: tuple  # ((key, Lit | Param), ...)


class RelPattern(NamedTuple):
    var: str | None
    types: frozenset | None
    forward: bool  # (a)-[]->(b): True; (a)<-[]-(b): False
    hops: tuple[int, int] | None = None  # -[*1..2]->: (1, 2), both ends included


class ReturnItem(NamedTuple):
    expr: object
    alias: str | None
    aggregate: str | None  # COUNT, SUM, ... or None


@dataclass
class Query:
    nodes: list[NodePattern]
    rels: list[RelPattern]
    where: object | None
    distinct: bool
    items: list[ReturnItem]
    order: list[tuple[object, bool]]  # (an Attr, Var or alias name, or an aggregate item; desc)
    skip: object | None
    limit: object | None


class _Parser:
    """A recursive-descent parser of the subset; anything else raises :class:`Unsupported`."""

    def __init__(self, text: str):
        self.text = text
        self.tokens = _tokens(text)
        self.position = 0
        self.anonymous = itertools.count()

    # -- helpers
    def peek(self, offset: int = 0) -> _Token | None:
        index = self.position + offset
        return self.tokens[index] if index < len(self.tokens) else None

    def next(self) -> _Token:
        token = self.peek()
        if token is None:
            raise Unsupported("unexpected end")
        self.position += 1
        return token

    def at(self, *texts: str) -> bool:
        token = self.peek()
        return token is not None and token.kind == "punct" and token.text in texts

    def at_word(self, *words: str) -> bool:
        token = self.peek()
        return token is not None and token.word in words

    def expect(self, text: str) -> _Token:
        token = self.next()
        if token.kind != "punct" or token.text != text:
            raise Unsupported(f"expected {text!r}")
        return token

    def expect_word(self, word: str) -> _Token:
        token = self.next()
        if token.word != word:
            raise Unsupported(f"expected {word}")
        return token

    def identifier(self) -> str:
        token = self.next()
        if token.kind != "name" or token.word in _KEYWORDS:
            raise Unsupported("expected a name")
        return token.text

    # -- query
    def parse(self) -> Query:
        self.expect_word("MATCH")
        nodes, rels = self.pattern()
        if self.at_word("MATCH"):
            raise Unsupported("several MATCH clauses")
        where = None
        if self.at_word("WHERE"):
            self.next()
            where = self.condition_chain()
        self.expect_word("RETURN")
        distinct = False
        if self.at_word("DISTINCT"):
            self.next()
            distinct = True
        items = [self.return_item()]
        while self.at(","):
            self.next()
            items.append(self.return_item())
        order: list = []
        if self.at_word("ORDER"):
            self.next()
            self.expect_word("BY")
            order.append(self.order_item())
            while self.at(","):
                self.next()
                order.append(self.order_item())
        skip = limit = None
        if self.at_word("SKIP"):
            self.next()
            skip = self.count_value()
        if self.at_word("LIMIT"):
            self.next()
            limit = self.count_value()
        if self.peek() is not None:
            raise Unsupported("text after the query")
        return Query(nodes, rels, where, distinct, items, order, skip, limit)

    def count_value(self):
        token = self.next()
        if token.kind == "param":
            return Param(token.text[1:])
        if token.kind == "number" and token.text.isdigit() and (
                token.text == "0" or not token.text.startswith("0")):
            return int(token.text)
        raise Unsupported("SKIP and LIMIT take a whole number")

    # -- pattern
    def pattern(self) -> tuple[list[NodePattern], list[RelPattern]]:
        nodes = [self.node()]
        rels: list[RelPattern] = []
        while self.at("<", "-[", "--"):
            rels.append(self.relationship())
            nodes.append(self.node())
        names = [n.var for n in nodes] + [r.var for r in rels if r.var]
        if len(set(names)) != len(names):
            raise Unsupported("a variable used twice in the pattern")
        return nodes, rels

    def node(self) -> NodePattern:
        self.expect("(")
        var = None
        if self.peek() is not None and self.peek().kind == "name":
            var = self.identifier()
        labels: frozenset = frozenset()
        if self.at(":"):
            self.next()
            labels = self.type_list()
        props: list = []
        if self.at("{"):
            self.next()
            while True:
                key = self.identifier()
                self.expect(":")
                props.append((key, self.value()))
                if self.at(","):
                    self.next()
                    continue
                break
            self.expect("}")
        self.expect(")")
        return NodePattern(var or f" anon{next(self.anonymous)}", labels, tuple(props))

    def type_list(self) -> frozenset:
        types = [self.identifier()]
        while self.at("|"):
            self.next()
            types.append(self.identifier())
        return frozenset(types)

    def relationship(self) -> RelPattern:
        left = False
        if self.at("<"):
            left = True
            self.next()
        var = types = hops = None
        if self.at("--"):
            self.next()
        else:
            self.expect("-[")
            if self.peek() is not None and self.peek().kind == "name":
                var = self.identifier()
            if self.at(":"):
                self.next()
                types = self.type_list()
            if self.at("*"):
                self.next()
                hops = self.hop_range()
                if var is not None:
                    raise Unsupported("a variable on a variable-length relationship")
            self.expect("]-")
        right = False
        if self.at(">"):
            self.next()
            right = True
        if left == right:
            raise Unsupported("an undirected relationship")
        return RelPattern(var, types, right, hops)

    def hop_range(self) -> tuple[int, int]:
        """``*2`` or ``*0..3``, as grand-cypher reads them (both lengths whole numbers)."""
        low = high = self.hop_count()
        if self.at(".."):
            self.next()
            high = self.hop_count()
        if high > MAX_HOPS:
            raise Unsupported(f"a variable length over {MAX_HOPS}")
        return low, high

    def hop_count(self) -> int:
        token = self.next()
        if token.kind != "number" or not token.text.isdigit():
            raise Unsupported("a variable length takes whole numbers")
        return int(token.text)

    # -- literals
    def value(self):
        """ESTRING, NUMBER (signed), NULL, TRUE, FALSE, or a parameter."""
        token = self.next()
        if token.kind == "param":
            return Param(token.text[1:])
        if token.kind == "string":
            return Lit(_string(token.text))
        if token.kind == "punct" and token.text in "+-":
            number = self.next()
            if number.kind != "number" or number.start != token.end:
                raise Unsupported("a sign without a number")
            return Lit(_number(token.text + number.text))
        if token.kind == "number":
            return Lit(_number(token.text))
        if token.word in ("NULL", "TRUE", "FALSE"):
            return Lit({"NULL": None, "TRUE": True, "FALSE": False}[token.word])
        raise Unsupported("expected a value")

    # -- conditions
    def condition_chain(self):
        units = [self.condition_unit()]
        ops = []
        while self.at_word("AND", "OR"):
            ops.append(self.next().word.lower())
            units.append(self.condition_unit())
        if len(set(ops)) > 1:
            raise Unsupported("AND and OR mixed without parentheses")
        result = units[0]
        for op, unit in zip(ops, units[1:], strict=True):
            result = BoolOp(op, result, unit)
        return result

    def condition_unit(self):
        if self.at("(") and self._parenthesized_boolean():
            self.next()
            inner = self.condition_chain()
            if not isinstance(inner, BoolOp):
                raise Unsupported("parentheses around one condition")
            self.expect(")")
            return inner
        return self.condition()

    def _parenthesized_boolean(self) -> bool:
        depth = 0
        for token in self.tokens[self.position:]:
            if token.kind == "punct" and token.text == "(":
                depth += 1
            elif token.kind == "punct" and token.text == ")":
                depth -= 1
                if depth == 0:
                    return False
            elif depth == 1 and token.word in ("AND", "OR"):
                return True
        return False

    def condition(self):
        if self.at_word("NOT"):
            self.next()
            inner = self.condition()
            return Cmp(not inner.should_be, inner.left, inner.op, inner.right)
        if self.at_word("EXISTS"):
            raise Unsupported("EXISTS")
        left = self.arith()
        token = self.peek()
        if token is None:
            raise Unsupported("unexpected end")
        if token.word == "IN":
            if not isinstance(left, (Var, Attr, Func)):
                raise Unsupported("IN after an expression")
            self.next()
            return Cmp(True, left, "in", self.value_list())
        op = self.operator()
        return Cmp(True, left, op, self.arith())

    def operator(self) -> str:
        token = self.next()
        if token.kind == "punct" and token.text in ("=", "=="):
            return "=="
        if token.kind == "punct" and token.text in ("<>", "<", ">", "<=", ">="):
            return token.text
        if token.word == "IS":
            return "is"
        if token.word == "CONTAINS":
            return "contains"
        if token.word in ("STARTS", "ENDS"):
            following = self.next()
            if following.word != "WITH" or self.text[token.end:following.start] != " ":
                raise Unsupported("STARTS WITH / ENDS WITH")
            return "starts_with" if token.word == "STARTS" else "ends_with"
        raise Unsupported("expected an operator")

    def value_list(self):
        if self.peek() is not None and self.peek().kind == "param":
            return Param(self.next().text[1:])
        self.expect("[")
        values = []
        if not self.at("]"):
            values.append(self.value())
            while self.at(","):
                self.next()
                values.append(self.value())
        self.expect("]")
        return tuple(values)

    # -- expressions
    def arith(self):
        left = self.arith_term()
        while self.at("+", "-"):
            op = self.next().text
            left = Arith(op, left, self.arith_term())
        return left

    def arith_term(self):
        left = self.arith_atom()
        while self.at("*", "/", "%"):
            op = self.next().text
            left = Arith(op, left, self.arith_atom())
        return left

    def arith_atom(self):
        if self.at("("):
            self.next()
            inner = self.arith()
            self.expect(")")
            return inner
        token = self.peek()
        if token is None:
            raise Unsupported("unexpected end")
        if token.kind == "name" and token.word not in ("NULL", "TRUE", "FALSE"):
            following = self.peek(1)
            if following is not None and following.kind == "punct" and following.text == "(":
                return self.function()
            return self.entity()
        return self.value()

    def entity(self):
        name = self.identifier()
        if self.at("."):
            self.next()
            token = self.next()
            if token.kind != "name":
                raise Unsupported("expected a property name")
            return Attr(name, token.text)
        return Var(name)

    def function(self):
        token = self.next()
        name = _FUNCTIONS.get(token.text.lower())
        if name is None:
            raise Unsupported(f"function {token.text}")
        self.expect("(")
        if name in ("type", "ID"):
            argument = self.entity()
            if not isinstance(argument, Var):
                raise Unsupported(f"{name} of a property")
            args: tuple = (argument,)
        else:
            args = (self.argument(),)
            while name == "coalesce" and self.at(","):
                self.next()
                args += (self.argument(),)
            if name == "coalesce" and len(args) < 2:
                raise Unsupported("coalesce of one argument")
        self.expect(")")
        return Func(name, args)

    def argument(self):
        token = self.peek()
        if token is not None and token.kind == "name" and token.word not in (
                "NULL", "TRUE", "FALSE"):
            following = self.peek(1)
            if following is not None and following.kind == "punct" and following.text == "(":
                return self.function()
            return self.entity()
        return self.value()

    # -- return
    def return_item(self) -> ReturnItem:
        token = self.peek()
        aggregate = None
        if token is not None and token.kind == "name" and token.text in _AGGREGATES and (
                self.peek(1) is not None and self.peek(1).text == "("):
            self.next()
            self.expect("(")
            expr = self.argument()
            self.expect(")")
            aggregate = token.text
        elif token is not None and token.kind == "name" and self.peek(1) is not None and (
                self.peek(1).kind == "punct" and self.peek(1).text == "("):
            expr = self.function()
        else:
            expr = self.entity()
        alias = None
        if self.at_word("AS"):
            self.next()
            alias = self.identifier()
        return ReturnItem(expr, alias, aggregate)

    def order_item(self):
        token = self.peek()
        if token is not None and token.kind == "name" and token.text in _AGGREGATES and (
                self.peek(1) is not None and self.peek(1).text == "("):
            self.next()
            self.expect("(")
            expr = self.argument()
            self.expect(")")
            field_ = ReturnItem(expr, None, token.text)
        else:
            field_ = self.entity()
        descending = False
        if self.at_word("ASC", "DESC"):
            descending = self.next().word == "DESC"
        return field_, descending


def _string(text: str) -> str:
    try:
        value = ast.literal_eval(text)
    except (SyntaxError, ValueError) as error:
        raise Unsupported("a string grand-cypher does not read") from error
    if not isinstance(value, str):
        raise Unsupported("not a string")
    return value


def _number(text: str) -> int | float:
    try:
        value = ast.literal_eval(text)
    except (SyntaxError, ValueError) as error:
        raise Unsupported("a number grand-cypher does not read") from error
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise Unsupported("not a number")
    return value


def parse(text: str) -> Query:
    """Parse ``text`` (with ``$name`` parameters unbound) into a :class:`Query`.

    Raises
    ------
    Unsupported
        The text is outside the compiled subset (it may still be valid for grand-cypher).

    Examples
    --------
    >>> q = parse('MATCH (r:Release)-[i:INTRODUCES]->(f) WHERE r.name = $r RETURN f.name')
    >>> [n.var for n in q.nodes], q.rels[0].types, q.where
    (['r', 'f'], frozenset({'INTRODUCES'}), Cmp(should_be=True, left=Attr(var='r', \
prop='name'), op='==', right=Param(name='r')))
    """
    return _Parser(text).parse()


# ---------------------------------------------------------------------------- binding

_SCALARS = (str, int, float, bool, type(None))


def _bind(expr, params: Mapping[str, object]):
    """The expression with its parameters replaced by literals (checked as grand-cypher's
    grammar would read them: scalars, and lists of scalars only after IN)."""
    if isinstance(expr, Param):
        value = params[expr.name]
        if not isinstance(value, _SCALARS):
            raise Unsupported("a list where a value is expected")
        return Lit(value)
    if isinstance(expr, Func):
        return Func(expr.name, tuple(_bind(a, params) for a in expr.args))
    if isinstance(expr, Arith):
        return Arith(expr.op, _bind(expr.left, params), _bind(expr.right, params))
    if isinstance(expr, Cmp):
        if expr.op == "in":
            right = expr.right
            if isinstance(right, Param):
                values = params[right.name]
                if not isinstance(values, (list, tuple)) or not all(
                        isinstance(v, _SCALARS) for v in values):
                    raise Unsupported("IN takes a list of values")
                bound = tuple(Lit(v) for v in values)
            else:
                bound = tuple(_bind(v, params) for v in right)
            return Cmp(expr.should_be, _bind(expr.left, params), "in", bound)
        return Cmp(expr.should_be, _bind(expr.left, params), expr.op, _bind(expr.right, params))
    if isinstance(expr, BoolOp):
        return BoolOp(expr.op, _bind(expr.left, params), _bind(expr.right, params))
    return expr


def _gc_name(expr) -> str:
    """The text grand-cypher gives an expression (its column name without an alias)."""
    if isinstance(expr, Attr):
        return f"{expr.var}.{expr.prop}"
    if isinstance(expr, Var):
        return expr.name
    if isinstance(expr, Lit):
        return str(expr.value)
    if isinstance(expr, Func):
        if expr.name == "ID":
            return f"ID({expr.args[0].name})"
        if expr.name == "coalesce":
            parts = [f'"{a.value}"' if isinstance(a, Lit) and isinstance(a.value, str)
                     else _gc_name(a) for a in expr.args]
            return f"coalesce({', '.join(parts)})"
        argument = expr.args[0]
        if expr.name == "size" and isinstance(argument, Lit) and isinstance(argument.value, str):
            return f'size("{argument.value}")'
        return f"{expr.name}({_gc_name(argument)})"
    raise Unsupported("an expression grand-cypher does not name")


# ---------------------------------------------------------------------------- evaluation

class _Raise(Exception):
    """An expression raised: grand-cypher reports it as an error; let it."""


def _none_wrapped(function):
    def compare(x, y):
        try:
            return function(x, y)
        except TypeError:
            return None
    return compare


_COMPARE = {
    "==": _none_wrapped(lambda x, y: x == y),
    "<>": _none_wrapped(lambda x, y: x != y),
    "<": _none_wrapped(lambda x, y: x < y),
    ">": _none_wrapped(lambda x, y: x > y),
    "<=": _none_wrapped(lambda x, y: x <= y),
    ">=": _none_wrapped(lambda x, y: x >= y),
    "in": lambda x, y: x in y,
    "contains": lambda x, y: y in x,
    "is": lambda x, y: x is y,
    "starts_with": lambda x, y: x.startswith(y),
    "ends_with": lambda x, y: x.endswith(y),
}

_ARITH = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: int(a / b) if isinstance(a, int) and isinstance(b, int) else a / b,
    "%": lambda a, b: a % b,
}

_SCALAR_FUNCTIONS = {"toLower": str.lower, "toUpper": str.upper, "trim": str.strip}


def _safe(expr) -> bool:
    """Whether evaluating ``expr`` can never raise (so it may run before a match is whole)."""
    if isinstance(expr, (Lit, Attr)):
        return True
    if isinstance(expr, Func):
        if expr.name in ("type", "ID"):  # of a variable: never raises
            return True
        return expr.name == "coalesce" and all(_safe(a) for a in expr.args)
    if isinstance(expr, Arith):
        return _safe(expr.left) and _safe(expr.right)
    if isinstance(expr, Cmp):
        right = expr.right if expr.op != "in" else Lit(None)
        return _safe(expr.left) and _safe(right)
    if isinstance(expr, BoolOp):
        return _safe(expr.left) and _safe(expr.right)
    return False  # Var: a bare entity in a comparison raises


class _Slots:
    """Where each variable's value is in a match tuple: nodes first, then edges."""

    def __init__(self, query: Query):
        self.nodes = {n.var: i for i, n in enumerate(query.nodes)}
        offset = len(query.nodes)
        self.edges = {r.var: offset + i for i, r in enumerate(query.rels) if r.var}

    def position(self, var: str) -> int:
        if var in self.nodes:
            return self.nodes[var]
        if var in self.edges:
            return self.edges[var]
        raise Unsupported(f"unknown variable {var}")


def _compile_expr(expr, slots: _Slots, node_data: Mapping) -> Callable:
    """A function of a match tuple giving the expression's value (grand-cypher's rules)."""
    if isinstance(expr, Lit):
        value = expr.value
        return lambda m: value
    if isinstance(expr, Attr):
        prop = expr.prop
        if expr.var in slots.nodes:
            i = slots.nodes[expr.var]
            return lambda m: node_data[m[i]].get(prop)
        i = slots.position(expr.var)
        return lambda m: m[i][3].get(prop)
    if isinstance(expr, Var):
        i = slots.position(expr.name)
        if expr.name in slots.nodes:
            return lambda m: node_data[m[i]]
        return lambda m: m[i][3]
    if isinstance(expr, Func):
        if expr.name == "ID":
            if expr.args[0].name not in slots.nodes:
                raise Unsupported("ID of a relationship")
            i = slots.nodes[expr.args[0].name]
            return lambda m: m[i]
        if expr.name == "type":
            var = expr.args[0].name
            if var not in slots.edges:
                slots.position(var)
                return lambda m: None
            i = slots.edges[var]
            return lambda m: m[i][3].get("type", m[i][2])
        args = [_compile_expr(a, slots, node_data) for a in expr.args]
        if expr.name == "coalesce":
            def coalesce(m):
                for argument in args:
                    value = argument(m)
                    if value is not None:
                        return value
                return None
            return coalesce
        function = len if expr.name == "size" else _SCALAR_FUNCTIONS[expr.name]
        argument = args[0]
        if function is len:
            def apply(m):
                value = argument(m)
                return len(value) if value is not None else None
        else:
            name = expr.name

            def apply(m):
                value = argument(m)
                if value is None:
                    return None
                if not isinstance(value, str):  # grand-cypher: AttributeError, an error
                    raise _Raise(name)
                return function(value)
        return apply
    if isinstance(expr, Arith):
        left = _compile_expr(expr.left, slots, node_data)
        right = _compile_expr(expr.right, slots, node_data)
        operation = _ARITH[expr.op]

        def arith(m):
            try:
                return operation(left(m), right(m))
            except (TypeError, ZeroDivisionError, OverflowError):
                return None
        return arith
    raise Unsupported(f"expression {expr!r}")


def _compile_condition(cond, slots: _Slots, node_data: Mapping) -> Callable:
    """A function of a match tuple: does it pass the WHERE condition (grand-cypher's rules)."""
    if isinstance(cond, BoolOp):
        left = _compile_condition(cond.left, slots, node_data)
        right = _compile_condition(cond.right, slots, node_data)
        if cond.op == "and":
            def both(m):
                a, b = left(m), right(m)  # grand-cypher evaluates both sides
                return a and b
            return both

        def either(m):
            a, b = left(m), right(m)
            return a or b
        return either
    if not isinstance(cond, Cmp):
        raise Unsupported("condition")
    if _has_var(cond):
        raise Unsupported("a bare variable in a comparison (grand-cypher's error)")
    if cond.op == "is" and not (isinstance(cond.right, Lit) and (
            cond.right.value is None or isinstance(cond.right.value, bool))):
        raise Unsupported("IS with a value other than null, true or false")
    left = _compile_expr(cond.left, slots, node_data)
    if cond.op == "in":
        values = [v.value for v in cond.right]
        right = lambda m: values  # noqa: E731
    else:
        right = _compile_expr(cond.right, slots, node_data)
    operation = _COMPARE[cond.op]
    should_be = cond.should_be

    def compare(m):
        a, b = left(m), right(m)
        try:
            value = operation(a, b)
        except (TypeError, AttributeError):
            value = False
        if value is None:
            value = False
        return value == should_be
    return compare


def _has_var(expr) -> bool:
    if isinstance(expr, Var):
        return True
    if isinstance(expr, Func):
        return expr.name not in ("type", "ID") and any(_has_var(a) for a in expr.args)
    if isinstance(expr, (Arith, BoolOp)):
        return _has_var(expr.left) or _has_var(expr.right)
    if isinstance(expr, Cmp):
        return _has_var(expr.left) or (expr.op != "in" and _has_var(expr.right))
    return False


def _variables(expr) -> set[str]:
    if isinstance(expr, Attr):
        return {expr.var}
    if isinstance(expr, Var):
        return {expr.name}
    if isinstance(expr, Func):
        return set().union(*(_variables(a) for a in expr.args))
    if isinstance(expr, (Arith, BoolOp)):
        return _variables(expr.left) | _variables(expr.right)
    if isinstance(expr, Cmp):
        right = expr.right if expr.op != "in" else ()
        return _variables(expr.left) | (_variables(right) if right != () else set())
    return set()


def _conjuncts(cond) -> list:
    if isinstance(cond, BoolOp) and cond.op == "and":
        return _conjuncts(cond.left) + _conjuncts(cond.right)
    return [cond]


def _disjuncts(cond) -> list:
    if isinstance(cond, BoolOp) and cond.op == "or":
        return _disjuncts(cond.left) + _disjuncts(cond.right)
    return [cond]


# ---------------------------------------------------------------------------- hints

_HINT_OPS = {"==": "==", "<": "<", ">": ">", "<=": "<=", ">=": ">="}
_NOT_HINT_OPS = {"==": "!=", "<": ">=", ">": "<=", "<=": ">", ">=": "<"}
_DOMAIN_TESTS = {
    "==": lambda a, v: a == v, "!=": lambda a, v: a != v, "<": lambda a, v: a < v,
    ">": lambda a, v: a > v, "<=": lambda a, v: a <= v, ">=": lambda a, v: a >= v,
}


def _hint_operand(expr):
    """The right side of a comparison as grand-cypher's hinter sees it, or a marker."""
    if isinstance(expr, Lit) and isinstance(expr.value, _SCALARS):
        return expr.value
    if isinstance(expr, Attr):  # grand-cypher's AttributeRef is a str: its text is compared
        return f"{expr.var}.{expr.prop}"
    if isinstance(expr, Var):
        return expr.name
    if isinstance(expr, Func) and expr.name == "ID":
        raise Unsupported("ID() in WHERE")
    return _NOT_HINTED


_NOT_HINTED = object()


def _and(a: dict | None, b: dict | None) -> dict | None:
    """grand-cypher's indexer AND: intersect the shared variables, keep the others."""
    if a is None:
        return b
    if b is None:
        return a
    merged = {k: a[k] & b[k] for k in a if k in b}
    merged.update({k: v for k, v in a.items() if k not in b})
    merged.update({k: v for k, v in b.items() if k not in a})
    return merged


def _or(a: dict | None, b: dict | None) -> dict | None:
    """grand-cypher's indexer OR: unknown if either side is, else a union per variable."""
    if a is None or b is None:
        return None
    merged = {k: a[k] | b[k] for k in a if k in b}
    merged.update({k: v for k, v in a.items() if k not in b})
    merged.update({k: v for k, v in b.items() if k not in a})
    return merged


def _domain(cond, index: GraphIndex) -> dict | None:
    """grand-cypher's index domain of a bound condition: {variable: set of node ids} or None."""
    if isinstance(cond, BoolOp):
        combine = _and if cond.op == "and" else _or
        return combine(_domain(cond.left, index), _domain(cond.right, index))
    if not isinstance(cond, Cmp):
        return None
    if isinstance(cond.left, Func) and cond.left.name == "ID":
        raise Unsupported("ID() in WHERE")
    if cond.op not in _HINT_OPS or not isinstance(cond.left, Attr):
        return None
    value = _hint_operand(cond.right)
    if value is _NOT_HINTED:
        return None
    op = _HINT_OPS[cond.op] if cond.should_be else _NOT_HINT_OPS[cond.op]
    return {cond.left.var: _node_domain(index, cond.left.prop, op, value)}


def _node_domain(index: GraphIndex, prop: str, op: str, value) -> set:
    """The nodes whose ``prop`` compares to ``value`` (null never does), as grand-cypher's
    indexer finds them."""
    if op == "==" and isinstance(value, Hashable):
        return set(index.lookup(prop, value)) if value is not None else set()
    cache = index.extras.setdefault("domains", OrderedDict())
    key = (prop, op, type(value).__name__, value)
    try:
        if key in cache:
            cache.move_to_end(key)
            return cache[key]
    except TypeError:  # an unhashable value: not kept
        key = None
    except KeyError:  # dropped by another thread meanwhile: compute it again
        pass
    test = _DOMAIN_TESTS[op]
    try:
        found = {node for node, data in index.nodes.items()
                 if data.get(prop) is not None and test(data.get(prop), value)}
    except TypeError as error:  # grand-cypher fails the query
        raise Unsupported("an index comparison grand-cypher fails on") from error
    if key is not None:
        cache[key] = found
        if len(cache) > 64:
            cache.popitem(last=False)
    return found


def _implied(cond, domain: dict) -> bool:
    """Whether a top-level WHERE conjunct holds for every node of the hinted domain: a
    comparison of the hinted variable's property with a value, which the domain was read
    from (grand-cypher's indexer intersects every such conjunct)."""
    return (isinstance(cond, Cmp) and cond.op in _HINT_OPS and isinstance(cond.left, Attr)
            and cond.left.var in domain and _hint_operand(cond.right) is not _NOT_HINTED
            and isinstance(cond.right, Lit))


def _hinted(query: Query, where, index: GraphIndex) -> tuple[str, set] | None:
    """The node variable grand-cypher's hints restrict, and its domain; None: no restriction.

    Raises :class:`Unsupported` when the hints would name two pattern nodes.
    """
    motif = None
    for node in query.nodes:
        for key, value in node.props:
            motif = _and(motif, {node.var: _node_domain(index, key, "==", value.value)})
    found = _and(motif, _domain(where, index) if where is not None else None)
    if not found or any(not nodes for nodes in found.values()):
        return None
    pattern_nodes = {n.var for n in query.nodes}
    keys = [k for k in found if k in pattern_nodes]
    if not keys:
        return None
    if len(keys) > 1:
        raise Unsupported("hints on two pattern nodes")
    return keys[0], found[keys[0]]


# ---------------------------------------------------------------------------- matching

@dataclass
class _Step:
    source: int  # the bound node position
    target: int  # the node position it binds
    rel: int  # the match-tuple position of the edge
    direction: str  # "out": edges leaving source; "in": edges arriving at source
    types: frozenset | None
    bound: tuple[int, ...] = ()  # node positions bound before this step
    checks: list = field(default_factory=list)  # conditions to apply once target is bound
    hops: int | None = None  # a variable-length relationship: its length in this assignment


def _steps(query: Query, anchor: int, hops: Mapping[int, int] | None = None) -> list[_Step]:
    """Bind the pattern's nodes outward from ``anchor``: to the right, then to the left;
    ``hops`` gives each variable-length relationship (by its number) one length."""
    hops = hops or {}
    count = len(query.nodes)
    steps, bound = [], [anchor]
    for target in range(anchor + 1, count):
        rel = query.rels[target - 1]
        steps.append(_Step(target - 1, target, count + target - 1,
                           "out" if rel.forward else "in", rel.types, tuple(bound),
                           hops=hops.get(target - 1)))
        bound.append(target)
    for target in range(anchor - 1, -1, -1):
        rel = query.rels[target]
        steps.append(_Step(target + 1, target, count + target,
                           "in" if rel.forward else "out", rel.types, tuple(bound),
                           hops=hops.get(target)))
        bound.append(target)
    return steps


def _hop_assignments(query: Query) -> list[dict[int, int]]:
    """Every combination of lengths of the variable-length relationships, ``{relationship
    number: length}``; grand-cypher matches each as a pattern of its own (``[{}]`` without
    any, ``[]`` when a range is empty, as in ``*2..1``)."""
    ranged = [(number, range(rel.hops[0], rel.hops[1] + 1))
              for number, rel in enumerate(query.rels) if rel.hops is not None]
    combinations = 1
    for _, lengths in ranged:
        combinations *= len(lengths)
    if combinations > MAX_HOP_ASSIGNMENTS:
        raise Unsupported(f"over {MAX_HOP_ASSIGNMENTS} combinations of variable lengths")
    numbers = [number for number, _ in ranged]
    return [dict(zip(numbers, lengths, strict=True))
            for lengths in itertools.product(*(lengths for _, lengths in ranged))]


def _kept_variables(query: Query, hops: Mapping[int, int]) -> set[str]:
    """The node variables left after grand-cypher merges the two ends of each zero-length
    relationship into one pattern node (``unify_zero_hop_nodes``: a union-find over the
    pattern's edges in its graph order, the start of each edge absorbing its end). Only these
    keep their hints; the others are matched through the node they merged into."""
    parent: dict[str, str] = {}

    def find(var: str) -> str:
        parent.setdefault(var, var)
        if parent[var] != var:
            parent[var] = find(parent[var])
        return parent[var]

    def source(number: int) -> int:  # grand-cypher's motif lists edges by their start node
        return number if query.rels[number].forward else number + 1

    for number in sorted(hops, key=lambda n: (source(n), n)):
        if hops[number] != 0:
            continue
        ends = (query.nodes[number].var, query.nodes[number + 1].var)
        start, end = ends if query.rels[number].forward else ends[::-1]
        root_start, root_end = find(start), find(end)
        if root_start != root_end:
            parent[root_end] = root_start
    return {node.var for node in query.nodes if find(node.var) == node.var}


class _Matcher:
    """Finds every match of a bound query's pattern in one graph.

    A variable-length relationship is matched once per length in its range, as grand-cypher
    does: length 0 binds its two ends to one node (which passes both node patterns); length
    ``k`` follows a path of ``k`` relationships whose inner nodes are distinct from each other
    and from every node of the match (grand-cypher matches a pattern with one node per inner
    node). Its match-tuple position holds the path's edges.
    """

    def __init__(self, query: Query, where, index: GraphIndex, slots: _Slots):
        self.query = query
        self.index = index
        self.slots = slots
        self.node_data = index.nodes
        self.count = len(query.nodes)
        self.size = self.count + len(query.rels)
        self.hint = _hinted(query, where, index)
        self.assignments = _hop_assignments(query)
        self.paths = frozenset(self.count + number for number, rel in enumerate(query.rels)
                               if rel.hops is not None)
        self.where = where
        self.safe = where is None or _safe(where)
        self.final = None if where is None else _compile_condition(where, slots, self.node_data)
        self.conjuncts = _conjuncts(where) if where is not None else []

    def _domain(self, hops: Mapping[int, int]) -> dict:
        """The hinted variable and its nodes, unless its node merged into another one."""
        if self.hint is None:
            return {}
        var, nodes = self.hint
        if 0 in hops.values() and var not in _kept_variables(self.query, hops):
            return {}
        return {var: nodes}

    def _implied(self, domain: dict) -> set[int]:
        """A hintable comparison on the hinted variable holds for every node of its domain."""
        if not (self.safe and domain):
            return set()
        return {number for number, c in enumerate(self.conjuncts) if _implied(c, domain)}

    def node_ok(self, position: int, domain: dict) -> Callable | None:
        """The test a node must pass at ``position`` (labels, inline properties, hinted
        domain), or None when any node does."""
        pattern = self.query.nodes[position]
        labels = pattern.labels
        props = [(k, v.value) for k, v in pattern.props]
        domain = domain.get(pattern.var)
        data_of = self.node_data
        if not labels and not props and domain is None:
            return None
        if labels and not props and domain is None:
            return lambda node: data_of[node].get("label") in labels
        if not labels and not props:
            return domain.__contains__

        def ok(node) -> bool:
            data = data_of[node]
            if labels and data.get("label") not in labels:
                return False
            for key, value in props:
                if data.get(key) != value:
                    return False
            return domain is None or node in domain
        return ok

    def matches(self, emit: Callable | None = None) -> list[tuple]:
        """Every match: node ids first, then ``(u, v, key, data)`` per relationship (a tuple
        of them per variable-length one); handed to ``emit`` one by one when given (then the
        list is empty)."""
        found: list[tuple] = []
        emit = emit or found.append
        for hops in self.assignments:
            domain = self._domain(hops)
            anchors = self._anchors(domain, hops)
            if len(anchors) == 1:
                self._run(*anchors[0], domain, hops, emit)
                continue
            seen = set()
            for position, candidates in anchors:
                for match in self._run(position, candidates, domain, hops):
                    key = self._key(match)
                    if key not in seen:
                        seen.add(key)
                        emit(match)
        return found

    def _key(self, match: tuple) -> tuple:
        """What tells two matches apart (edge data left out: dicts do not hash)."""
        count, paths = self.count, self.paths
        return match[:count] + tuple(
            tuple(e[:3] for e in value) if position in paths else value[:3]
            for position, value in enumerate(match[count:], count))

    def _anchors(self, domain: dict, hops: Mapping[int, int]) -> list[tuple[int, list]]:
        """Where to start: the cheapest of the hinted domain, an indexed WHERE equality (or an
        OR of them), a label, or every node."""
        options: list[list[tuple[int, list]]] = []
        for var, nodes in domain.items():
            options.append([(self.slots.nodes[var], list(nodes))])
        if self.safe:
            for conjunct in self.conjuncts:
                equalities = [self._equality(d) for d in _disjuncts(conjunct)]
                if equalities and all(e is not None for e in equalities):
                    options.append(equalities)
        for position, pattern in enumerate(self.query.nodes):
            if len(pattern.labels) == 1:
                options.append([(position, self.index.by_label(next(iter(pattern.labels))))])
            elif pattern.labels:
                nodes = [n for label in sorted(pattern.labels) for n in self.index.by_label(label)]
                options.append([(position, nodes)])
        if not options:
            options.append([(0, list(self.node_data))])
        implied = self._implied(domain)
        return min(options, key=lambda option: sum(self._cost(p, nodes, hops, implied)
                                                   for p, nodes in option))

    def _cost(self, position: int, nodes: list, hops: Mapping[int, int], implied: set[int],
              sample: int = 32) -> float:
        """About how much work starting from ``nodes`` is: each candidate costs ``ANCHOR_COST``
        edges (a search started), plus the edges of the first step from it (the mean of a
        few), each edge costing once more per WHERE condition that cannot be checked before
        it (a hinted comparison, read from the domain, costs nothing)."""
        steps = _steps(self.query, position, hops)
        if not steps or not nodes:
            return len(nodes)
        step = steps[0]
        few = nodes[:sample]
        if step.hops == 0:
            fanout = 1.0
        else:
            fanout = sum(len(self.index.edges(n, step.direction, step.types)) for n in few
                         if n in self.node_data) / len(few)
        anchor = {self.query.nodes[position].var}
        pending = sum(1 for number, c in enumerate(self.conjuncts)
                      if self.safe and number not in implied and not _variables(c) <= anchor)
        return len(nodes) * (ANCHOR_COST + fanout * (1 + pending))

    def _equality(self, cond) -> tuple[int, list] | None:
        """``v.p = literal`` or ``coalesce(v.p, other) = literal`` on a node: its candidates."""
        if not isinstance(cond, Cmp) or cond.op != "==" or not cond.should_be:
            return None
        left, right = cond.left, cond.right
        if isinstance(left, Lit) and not isinstance(right, Lit):
            left, right = right, left
        if not isinstance(right, Lit) or right.value is None or not isinstance(
                right.value, Hashable) or isinstance(right.value, bool):
            return None
        if isinstance(left, Func) and left.name == "coalesce" and isinstance(left.args[0], Attr):
            rest = left.args[1:]
            if len(rest) != 1 or not isinstance(rest[0], Lit) or rest[0].value == right.value:
                return None
            left = left.args[0]
        if not isinstance(left, Attr) or left.var not in self.slots.nodes:
            return None
        return self.slots.nodes[left.var], self.index.lookup(left.prop, right.value)

    def _run(self, anchor: int, candidates: list, domain: dict, hops: Mapping[int, int],
             emit: Callable | None = None) -> list[tuple]:
        """The matches from ``candidates`` at ``anchor``: a list, or each handed to ``emit``."""
        steps = _steps(self.query, anchor, hops)
        pushed: set[int] = self._implied(domain)
        anchor_checks = []
        if self.safe:
            bound_vars = {self.query.nodes[anchor].var}
            anchor_checks, pushed = self._ready(bound_vars, pushed)
            for step in steps:
                bound_vars.add(self.query.nodes[step.target].var)
                rel_var = self.query.rels[min(step.source, step.target)].var
                if rel_var:
                    bound_vars.add(rel_var)
                step.checks, pushed = self._ready(bound_vars, pushed)
        final = None if (self.where is None or len(pushed) == len(self.conjuncts)) \
            else self.final
        node_ok = [self.node_ok(p, domain) for p in range(self.count)]
        edges = self.index.edges
        found: list[tuple] = []
        emit = emit or found.append
        slots = [None] * self.size
        anchor_ok = node_ok[anchor]
        last = len(steps) - 1
        inner: list = []  # the inner nodes of the variable-length paths bound so far

        def finish(depth: int, checks: list) -> None:
            """The step at ``depth`` is bound: check what can be, then take the next."""
            if depth == last:
                match = tuple(slots)
                if checks and not all(check(match) for check in checks):
                    return
                if final is None or final(match):
                    emit(match)
                return
            if checks:
                partial = tuple(slots)
                if not all(check(partial) for check in checks):
                    return
            extend(depth + 1)

        def walk(depth: int, step: _Step) -> None:
            """A variable-length step: every path of ``step.hops`` relationships."""
            source = slots[step.source]
            target, rel, checks = step.target, step.rel, step.checks
            target_ok = node_ok[target]
            if step.hops == 0:
                if target_ok is None or target_ok(source):
                    slots[target], slots[rel] = source, ()
                    finish(depth, checks)
                    slots[target] = None
                return
            taken = {slots[p] for p in step.bound}.union(inner)
            direction, types, forward = step.direction, step.types, step.direction == "out"
            stack = [(source, step.hops, (), ())]  # depth first, in edge order
            while stack:
                node, remaining, between, path = stack.pop()
                following = []
                for other, key, data in edges(node, direction, types):
                    if other in taken or other in between:
                        continue
                    edge = (node, other, key, data) if forward else (other, node, key, data)
                    if remaining > 1:
                        following.append((other, remaining - 1, between + (other,),
                                          path + (edge,)))
                        continue
                    if target_ok is not None and not target_ok(other):
                        continue
                    slots[target], slots[rel] = other, path + (edge,)
                    inner.extend(between)
                    finish(depth, checks)
                    del inner[len(inner) - len(between):]
                stack.extend(reversed(following))
            slots[target] = None

        def extend(depth: int) -> None:
            step = steps[depth]
            if step.hops is not None:
                walk(depth, step)
                return
            source = slots[step.source]
            target, rel = step.target, step.rel
            target_ok = node_ok[target]
            bound = [slots[p] for p in step.bound]
            if inner:
                bound += inner
            forward = step.direction == "out"
            checks = step.checks
            final_step = depth == last
            for other, key, data in edges(source, step.direction, step.types):
                if other in bound or (target_ok is not None and not target_ok(other)):
                    continue
                slots[target] = other
                slots[rel] = (source, other, key, data) if forward else (other, source, key,
                                                                         data)
                if final_step:
                    match = tuple(slots)
                    if checks and not all(check(match) for check in checks):
                        continue
                    if final is None or final(match):
                        emit(match)
                    continue
                if checks:
                    partial = tuple(slots)
                    if not all(check(partial) for check in checks):
                        continue
                extend(depth + 1)
            slots[target] = None

        node_data = self.node_data
        try:
            for node in candidates:
                if node not in node_data or (anchor_ok is not None and not anchor_ok(node)):
                    continue
                slots[anchor] = node
                if anchor_checks:
                    partial = tuple(slots)
                    if not all(check(partial) for check in anchor_checks):
                        continue
                if last < 0:
                    match = tuple(slots)
                    if final is None or final(match):
                        emit(match)
                    continue
                extend(0)
        finally:  # the closures refer to each other: a cycle that would keep ``found`` (and
            finish = walk = extend = None  # every match) alive until the collector runs
        return found

    def _ready(self, bound_vars: set[str], pushed: set[int]) -> tuple[list, set[int]]:
        """The conjuncts whose variables are all bound now and were not applied yet."""
        checks = []
        pushed = set(pushed)
        for number, conjunct in enumerate(self.conjuncts):
            if number not in pushed and _variables(conjunct) <= bound_vars:
                checks.append(_compile_condition(conjunct, self.slots, self.node_data))
                pushed.add(number)
        return checks, pushed


# ---------------------------------------------------------------------------- results

def _lookup(item_expr, slots: _Slots, node_data) -> Callable:
    """A RETURN/ORDER BY item's value, as grand-cypher's ``_lookup`` gives it."""
    return _compile_expr(item_expr, slots, node_data)


def _sort_passes(rows: list, keys: list[Callable], directions: list[bool]) -> list:
    """grand-cypher's ORDER BY: one stable sort per key, last key first, null as infinity."""
    for key, descending in reversed(list(zip(keys, directions, strict=True))):
        def order_key(row, key=key):
            value = key(row)
            return float("inf") if value is None else value
        try:
            rows = sorted(rows, key=order_key, reverse=descending)
        except TypeError as error:
            raise _Raise("ORDER BY over values of two types") from error
    return rows


@dataclass
class Plan:
    """A parsed query, ready to run on any graph with any parameters."""

    text: str
    query: Query

    def run(self, graph: nx.MultiDiGraph, params: Mapping[str, object]
            ) -> tuple[list[str], list[list[object]]]:
        """Columns and rows, as :func:`ptkg.stores.grand_cypher.run_query` gives them.

        Raises
        ------
        Unsupported
            The answer needs grand-cypher (see the module docstring).
        """
        collecting = gc.isenabled()
        gc.disable()  # a query allocates many small acyclic objects beside a big graph: the
        try:  # collector would walk the whole graph again and again (up to half the time)
            return self._run(graph, params)
        except _Raise as error:
            raise Unsupported(f"an expression raised: {error}") from error
        except RecursionError as error:
            raise Unsupported("too deep") from error
        finally:
            if collecting:
                gc.enable()

    def _run(self, graph, params):
        query = self.query
        where = _bind(query.where, params) if query.where is not None else None
        nodes = [NodePattern(n.var, n.labels, tuple((k, _bind(v, params)) for k, v in n.props))
                 for n in query.nodes]
        bound_query = Query(nodes, query.rels, where, query.distinct, query.items, query.order,
                            query.skip, query.limit)
        items = [ReturnItem(_bind(i.expr, params), i.alias, i.aggregate) for i in query.items]
        skip = _count(query.skip, params) or 0
        limit = _count(query.limit, params)
        index = graph_index(graph)
        slots = _Slots(bound_query)
        node_data = index.nodes
        columns, aggregates, names = _columns(items)
        if query.distinct and (aggregates or any(i.alias for i in items)):
            raise Unsupported("DISTINCT with AS or aggregates: grand-cypher's error")
        for item in items:
            for var in _variables(item.expr):
                slots.position(var)
        matcher = _Matcher(bound_query, where, index, slots)
        order = _order_fields(query.order, items, names, params)
        if order and aggregates and not any(i.aggregate is None for i in items) and not any(
                kind == "path" for kind, _ in order):
            raise Unsupported("ORDER BY over aggregates alone")
        if aggregates and (order or limit is None):  # no match is cut: group them as found
            grouping = _Grouping(items, order, slots, node_data)
            matcher.matches(grouping.add)
            matches = None
        else:
            matches = matcher.matches()
        if not order and limit is not None and len(matches) > limit + skip:
            raise Unsupported("LIMIT without ORDER BY cuts the matches")
        if aggregates:
            if matches is not None:
                grouping = _Grouping(items, order, slots, node_data)
                for match in matches:
                    grouping.add(match)
            table = grouping.entries()  # rows are made below, of the groups kept only
        else:
            getters = [_lookup(i.expr, slots, node_data) for i in items]
            order_getters = [_order_getter(f, items, names, slots, node_data) for f in order]
            table = [([g(m) for g in getters], [g(m) for g in order_getters])
                     for m in matches]
        wanted = skip + limit if limit is not None else None
        if order:
            directions = [descending for _, descending in query.order]
            if wanted and wanted < len(table) and _plain_keys(table, len(order)):
                table = _best(table, wanted, directions[0])
            table = _sort_passes(table, [lambda r, i=i: r[1][i] for i in range(len(order))],
                                 directions)
        if aggregates:
            table = [(grouping.row(group), keys) for group, keys in table]
        if order:
            start = min(skip, len(table))
            _check_ties(table, start, len(table) if wanted is None else min(wanted, len(table)))
        rows = [row for row, _ in table]
        if query.distinct:
            if order:
                raise Unsupported("DISTINCT with ORDER BY")
            rows = _distinct(rows)
        if rows:
            start = min(skip, len(rows))
            end = min(start + limit, len(rows)) if limit is not None else len(rows)
            if not order and (start or end < len(rows)):
                raise Unsupported("SKIP or LIMIT without ORDER BY cuts the rows")
            rows = rows[start:end]
        rows = [[plain_value(value) for value in row] for row in rows]
        if not rows and items and all(i.aggregate for i in items):
            rows = [] if skip or limit == 0 else [
                [plain_value(EMPTY_AGGREGATES.get(i.aggregate)) for i in items]]
        if not order:
            rows.sort(key=row_sort_key)
        return columns, rows


def _count(value, params) -> int | None:
    if value is None:
        return None
    if isinstance(value, Param):
        value = params[value.name]
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise Unsupported("SKIP or LIMIT is not a whole number")
    return value


def _columns(items: list[ReturnItem]) -> tuple[list[str], bool, list[str]]:
    """Column names (alias, else grand-cypher's text), whether any item aggregates, and each
    item's own text."""
    names = []
    for item in items:
        text = _gc_name(item.expr)
        names.append(f"{item.aggregate}({text})" if item.aggregate else text)
    if len(set(names)) != len(names):
        raise Unsupported("two RETURN items with the same text")
    columns = [item.alias or name for item, name in zip(items, names, strict=True)]
    aliases = [item.alias for item in items if item.alias]
    if len(set(columns)) != len(columns) or set(aliases) & set(names):
        raise Unsupported("columns that collide")
    aggregates = any(item.aggregate for item in items)
    for item in items:
        if item.aggregate and isinstance(item.expr, Lit):
            raise Unsupported("an aggregate of a literal")
    return columns, aggregates, names


def _order_fields(order, items, names, params) -> list[tuple[str, object]]:
    """Each ORDER BY key as ("item", index of a RETURN item) or ("path", an expression)."""
    fields = []
    aliases = {item.alias: i for i, item in enumerate(items) if item.alias}
    for expr, _ in order:
        if isinstance(expr, ReturnItem):
            text = f"{expr.aggregate}({_gc_name(_bind(expr.expr, params))})"
            if text not in names:
                raise Unsupported("ORDER BY an aggregate not in RETURN")
            fields.append(("item", names.index(text)))
        elif isinstance(expr, Var) and expr.name in aliases:
            fields.append(("item", aliases[expr.name]))
        else:
            text = _gc_name(expr)
            if text in names:
                fields.append(("item", names.index(text)))
            else:
                fields.append(("path", expr))
    return fields


def _order_getter(field_, items, names, slots, node_data) -> Callable:
    kind, what = field_
    if kind == "item":
        getter = _lookup(items[what].expr, slots, node_data)
        return getter
    if isinstance(what, Var):
        raise Unsupported("ORDER BY a whole entity")
    return _lookup(what, slots, node_data)


class _Grouping:
    """grand-cypher's grouping: by every looked-up item that is not an aggregate's argument.

    :meth:`add` takes one match at a time (the matcher hands them over as it finds them, so no
    list of every match is kept); :meth:`table` gives each group's row and ORDER BY keys.
    """

    def __init__(self, items, order, slots, node_data):
        plain = [(i, item) for i, item in enumerate(items) if item.aggregate is None]
        arguments = [_gc_name(item.expr) for item in items
                     if item.aggregate and not _computed(item.expr)]
        group_texts = [_gc_name(item.expr) for _, item in plain]
        extra = [what for kind, what in order if kind == "path"]
        for text in group_texts + [_gc_name(e) for e in extra]:
            if any(text.endswith(argument) for argument in arguments):
                raise Unsupported(
                    "a grouped item that grand-cypher takes for an aggregate's argument")
        getters = [_lookup(item.expr, slots, node_data) for _, item in plain]
        getters += [_lookup(e, slots, node_data) for e in extra]
        aggregates = [(i, item.aggregate, None if item.aggregate == "COUNT" and not _computed(
            item.expr) else _lookup(item.expr, slots, node_data))
            for i, item in enumerate(items) if item.aggregate]
        self.width = len(items)
        self.plain_at = [i for i, _ in plain]
        self.aggregate_at = [(slot, i, name) for slot, (i, name, _) in enumerate(aggregates)]
        self.order_spec = []
        extra_index = len(plain)
        for kind, what in order:
            if kind == "item":
                self.order_spec.append((True, what))
            else:
                self.order_spec.append((False, extra_index))
                extra_index += 1
        self.groups: dict = {}
        self.single = len(getters) == 1  # keyed by the value itself, not a 1-tuple
        self.add = self._adder(getters, aggregates)

    def _adder(self, getters, aggregates) -> Callable:
        streamed = _STREAMED
        counted = [slot for slot, (_, name, getter) in enumerate(aggregates) if getter is None]
        evaluated = [(slot, getter) for slot, (_, name, getter) in enumerate(aggregates)
                     if name == "COUNT" and getter is not None]
        summed = [(slot, getter) for slot, (_, name, getter) in enumerate(aggregates)
                  if name == "SUM"]
        listed = [(slot, getter) for slot, (_, name, getter) in enumerate(aggregates)
                  if name not in streamed]
        zeros = [0] * len(aggregates)
        listed_slots = [slot for slot, _ in listed]
        groups = self.groups
        only = getters[0] if self.single else None

        def add(match) -> None:
            try:
                key = only(match) if only is not None else tuple([g(match) for g in getters])
                bucket = groups.get(key)
                if bucket is None:
                    bucket = groups[key] = zeros.copy()
                    for slot in listed_slots:
                        bucket[slot] = []
                for slot in counted:
                    bucket[slot] += 1
                for slot, getter in evaluated:
                    getter(match)
                    bucket[slot] += 1
                for slot, getter in summed:
                    bucket[slot] = bucket[slot] + (getter(match) or 0)
                for slot, getter in listed:
                    bucket[slot].append(getter(match))
            except TypeError as error:  # an unhashable key, or SUM over text: grand-cypher
                raise _Raise("grouping by a list or a map, or SUM over text") from error
        return add

    def entries(self) -> list[tuple[tuple, list]]:
        """Each group as ``((group key, aggregate values), ORDER BY keys)``, every aggregate
        computed (so one that fails, fails here); :meth:`row` makes the row of one."""
        plain_index = {i: j for j, i in enumerate(self.plain_at)}
        slot_of = {i: slot for slot, i, _ in self.aggregate_at}
        spec = [(True, plain_index[w]) if is_item and w in plain_index
                else (False, slot_of[w]) if is_item else (True, w)
                for is_item, w in self.order_spec]
        reduced = [(slot, name) for slot, _, name in self.aggregate_at if name not in _STREAMED]
        single = self.single
        entries = []
        for key, bucket in self.groups.items():
            if single:
                key = (key,)
            if reduced:
                bucket = bucket.copy()
                for slot, name in reduced:
                    bucket[slot] = _reduce(name, bucket[slot])
            entries.append(((key, bucket), [key[j] if from_key else bucket[j]
                                            for from_key, j in spec]))
        return entries

    def row(self, group: tuple) -> list:
        """The row of one group of :meth:`entries`."""
        key, bucket = group
        row: list = [None] * self.width
        for i, value in zip(self.plain_at, key, strict=False):
            row[i] = value
        for slot, i, _ in self.aggregate_at:
            row[i] = bucket[slot]
        return row


_STREAMED = frozenset({"COUNT", "SUM"})


def _computed(expr) -> bool:
    return not isinstance(expr, (Var, Attr)) and not (isinstance(expr, Func)
                                                      and expr.name == "ID")


def _reduce(name: str, values: list):
    try:
        if name == "COUNT":
            return len(values)
        if name == "SUM":
            return sum(value or 0 for value in values)
        if name == "AVG":
            values = [value or 0 for value in values]
            return sum(values) / len(values)
        if name == "MAX":
            return max(value if value is not None else -float("inf") for value in values)
        if name == "MIN":
            return min(value if value is not None else float("inf") for value in values)
    except (TypeError, ZeroDivisionError) as error:
        raise _Raise(f"{name} failed") from error
    raise Unsupported(name)


def _check_ties(table: list, start: int, end: int) -> None:
    """Rows that tie on every ORDER BY key keep grand-cypher's match order: if a run of them
    that reaches the rows returned (``table[start:end]``) holds different rows, only
    grand-cypher knows which come first (runs wholly outside are cut, whatever their order)."""
    if start >= end:
        return
    low, high = start, end - 1
    while low > 0 and table[low - 1][1] == table[start][1]:
        low -= 1
    while high + 1 < len(table) and table[high + 1][1] == table[end - 1][1]:
        high += 1
    run = table[low:high + 1]
    for (row_a, keys_a), (row_b, keys_b) in zip(run, run[1:], strict=False):
        if keys_a == keys_b and row_a != row_b:
            raise Unsupported("rows tie on every ORDER BY key")


def _plain_keys(table: list, count: int) -> bool:
    """Whether each ORDER BY key is a number or null in every row (no NaN), or text in every
    row: then no sort of the table or of a part of it can fail on two types."""
    for i in range(count):
        column = [keys[i] for _, keys in table]
        types = set(map(type, column))
        if types == {str}:
            continue
        if types <= _NUMBERS and (float not in types or not any(
                value != value for value in column)):
            continue
        return False
    return True


_NUMBERS = frozenset({int, float, bool, type(None)})


def _best(table: list, wanted: int, descending: bool) -> list:
    """The entries that can be among the first ``wanted`` once sorted: those whose first key is
    at least as good as the ``wanted``-th best (null as infinity), in table order, so that the
    stable sorts give them the order they have in the whole table."""
    infinity = float("inf")
    values = [infinity if keys[0] is None else keys[0] for _, keys in table]
    if descending:
        threshold = heapq.nlargest(wanted, values)[-1]
        return [entry for entry, value in zip(table, values, strict=True) if value >= threshold]
    threshold = heapq.nsmallest(wanted, values)[-1]
    return [entry for entry, value in zip(table, values, strict=True) if value <= threshold]


def _distinct(rows: list) -> list:
    seen, kept = set(), []
    for row in rows:
        try:
            key = tuple(row)
            hash(key)
        except TypeError as error:
            raise Unsupported("DISTINCT over lists or maps") from error
        if key not in seen:
            seen.add(key)
            kept.append(row)
    return kept


# ---------------------------------------------------------------------------- entry point

_PLANS: OrderedDict[str, Plan | None] = OrderedDict()
_PLANS_LOCK = threading.Lock()


def compile_query(text: str) -> Plan | None:
    """The plan of ``text``, kept per text (None: outside the subset, use grand-cypher).

    Examples
    --------
    >>> compile_query("MATCH (n:Feature) RETURN n.name") is not None
    True
    >>> compile_query("MATCH (n) WHERE EXISTS { MATCH (n)-->(m) } RETURN n") is None
    True
    """
    with _PLANS_LOCK:
        if text in _PLANS:
            _PLANS.move_to_end(text)
            return _PLANS[text]
    try:
        plan = Plan(text, parse(text))
    except (Unsupported, RecursionError):
        plan = None
    with _PLANS_LOCK:
        _PLANS[text] = plan
        if len(_PLANS) > PLAN_CACHE_SIZE:
            _PLANS.popitem(last=False)
    return plan


def run_compiled(graph: nx.MultiDiGraph, query: str, params: Mapping[str, object] | None = None
                 ) -> tuple[list[str], list[list[object]]]:
    """Run ``query`` with the compiled executor, or raise :class:`Unsupported`.

    Parameters are checked as :func:`ptkg.cypher.bind_params` checks them (a missing one is a
    :class:`~ptkg.errors.QueryError`).

    Examples
    --------
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("Release:PyTorch 1.8", label="Release", name="PyTorch 1.8")
    >>> g.add_node("Feature:torch.fx", label="Feature", name="torch.fx")
    >>> _ = g.add_edge("Release:PyTorch 1.8", "Feature:torch.fx", key="INTRODUCES",
    ...                type="INTRODUCES", stability="Beta")
    >>> run_compiled(g, "MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) "
    ...                 "WHERE r.name = $release RETURN f.name, i.stability",
    ...              {"release": "PyTorch 1.8"})
    (['f.name', 'i.stability'], [['torch.fx', 'Beta']])
    """
    params = dict(params or {})
    bind_params(query, params)  # the same errors for missing or unwritable values
    if not (graph.is_multigraph() and graph.is_directed()):
        raise Unsupported("not a MultiDiGraph")
    plan = compile_query(query)
    if plan is None:
        raise Unsupported("outside the compiled subset")
    return plan.run(graph, params)


def clear_plans() -> None:
    """Forget every kept plan."""
    with _PLANS_LOCK:
        _PLANS.clear()


__all__ = ["Plan", "QueryError", "Unsupported", "clear_plans", "compile_query", "parse",
           "plain_value", "run_compiled"]
