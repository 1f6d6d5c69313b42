"""Jekyll front matter: a YAML block or rendered ``key: value`` lines, loaded within bounds."""

from __future__ import annotations

import datetime as dt
import re

import yaml

# Jekyll front-matter keys recognised when rendered as plain text lines at the start of a post;
# a block counts only if it has one of the anchor keys.
# fmt: off
FRONT_MATTER_KEYS = frozenset({
    "layout", "title", "author", "authors", "date", "featured-img", "image", "redirect_from",
    "category", "categories", "tags", "permalink", "slug", "excerpt", "description", "hidden",
    "published", "discourse", "canonical_url",
})

# fmt: on
FRONT_MATTER_ANCHORS = frozenset({"layout", "title"})

FENCES = ("---", "...")

MAX_FENCED_LINES = 200

# YAML front matter is loaded safely (no Python tags) and within bounds: at most this many
# characters (the corpus has at most 388; PyYAML reads 16 KiB in 0.1-0.2 s), nested at most
# this deep, and aliases may add at most this much: a character of a scalar or a value
# counts 1 (a "billion laughs" document of a few hundred bytes expands to 10**9 values).
MAX_FRONT_MATTER_CHARS = 1 << 14

MAX_YAML_DEPTH = 100

MAX_ALIAS_EXPANSION = 1 << 14

_FRONT_MATTER_LINE = re.compile(r"(?P<key>[A-Za-z][\w-]*):(?:[ \t]+(?P<value>.*))?")

_FLOW_BRACKET = re.compile(r"[][{}]")

class RefusedYaml(Exception):
    """YAML that :func:`load_yaml` refuses to load, and the 0-based line of the text it names."""

    def __init__(self, reason: str, line: int = 0):
        super().__init__(reason)
        self.reason = reason
        self.line = line

class BoundedSafeLoader(yaml.SafeLoader):
    """A ``yaml.SafeLoader`` that refuses documents whose aliases multiply them.

    Before a document is constructed, its node graph is checked (:func:`_check_yaml_nodes`):
    an alias that refers to the node it is in, nesting deeper than :data:`MAX_YAML_DEPTH`,
    or aliases that add more than :data:`MAX_ALIAS_EXPANSION` (values and characters of
    scalars) raise :class:`RefusedYaml`.
    PyYAML shares the object of an anchor among its aliases, so loading a "billion laughs"
    document is fast; what blows up is whoever walks the result.
    """

    def construct_document(self, node: yaml.Node) -> object:
        _check_yaml_nodes(node)
        return super().construct_document(node)

def load_yaml(text: str) -> object:
    """Load one YAML document with :class:`BoundedSafeLoader`, if it is not too large.

    Raises
    ------
    RefusedYaml
        ``text`` is longer than :data:`MAX_FRONT_MATTER_CHARS`, or refused by the loader.
    yaml.YAMLError
        ``text`` is not valid YAML, or has tags that are not plain data (``!!python/...``).

    Examples
    --------
    >>> load_yaml("title: &t Hi\\nauthor: *t")
    {'title': 'Hi', 'author': 'Hi'}
    >>> lol = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\\n"
    >>> lol += "".join(f"{n}: &{n} [{', '.join(['*' + p] * 10)}]\\n" for p, n in zip("abc", "bcd"))
    >>> load_yaml(lol)
    Traceback (most recent call last):
    ...
    ptkg.readers.RefusedYaml: its aliases expand it by more than 16384 values and characters
    """
    if len(text) > MAX_FRONT_MATTER_CHARS:
        raise RefusedYaml(f"longer than {MAX_FRONT_MATTER_CHARS} characters")
    _check_flow_depth(text)
    return yaml.load(text, Loader=BoundedSafeLoader)  # a SafeLoader: plain data only

def _check_flow_depth(text: str) -> None:
    """Refuse ``[``/``{`` nesting deeper than :data:`MAX_YAML_DEPTH`, before PyYAML scans it.

    PyYAML's scanner takes time quadratic in the flow nesting (2,000 levels: 1.5 s). Brackets
    inside quotes are counted too: no real front matter comes near the limit with them.
    """
    depth = 0
    for bracket in _FLOW_BRACKET.finditer(text):
        depth = depth + 1 if bracket.group() in "[{" else max(depth - 1, 0)
        if depth > MAX_YAML_DEPTH:
            line = text.count("\n", 0, bracket.start())
            raise RefusedYaml(f"nested more than {MAX_YAML_DEPTH} deep", line)

def _check_yaml_nodes(root: yaml.Node) -> None:
    """Check the node graph of a composed YAML document against the limits of the loader.

    Walks each node once (an alias is the node of its anchor, met again), without recursion.

    Raises
    ------
    RefusedYaml
        See :class:`BoundedSafeLoader`; the line is where the offending node starts.
    """
    sizes: dict[int, int] = {}  # node id -> values and scalar characters, aliases expanded
    depths: dict[int, int] = {}
    open_nodes: set[int] = set()
    referenced: set[int] = set()
    added = 0
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key, children = id(node), _yaml_children(node)
        if done:
            open_nodes.discard(key)
            own = len(node.value) if isinstance(node, yaml.ScalarNode) else 0
            sizes[key] = 1 + own + sum(sizes[id(child)] for child in children)
            depths[key] = 1 + max((depths[id(child)] for child in children), default=0)
            for child in children:
                if id(child) in referenced:  # met before: an alias
                    added += sizes[id(child)]
                referenced.add(id(child))
            if added > MAX_ALIAS_EXPANSION:
                limit = MAX_ALIAS_EXPANSION
                refused = f"its aliases expand it by more than {limit} values and characters"
            elif depths[key] > MAX_YAML_DEPTH:
                refused = f"nested more than {MAX_YAML_DEPTH} deep"
            else:
                continue
            raise RefusedYaml(refused, node.start_mark.line)
        if key in sizes:
            continue
        if key in open_nodes:
            raise RefusedYaml("an alias refers to the node it is in", node.start_mark.line)
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in children)

def _yaml_children(node: yaml.Node) -> list[yaml.Node]:
    """Return the nodes in a sequence or mapping node (keys and values), none for a scalar."""
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []

def split_front_matter(text: str) -> tuple[dict[str, object], int]:
    """Find Jekyll front matter at the start of ``text``.

    Two shapes are recognised after leading blank lines: a YAML block between ``---`` lines,
    and front matter rendered as plain lines (``layout: blog_detail``, ``title: '...'``): a
    run of ``key: value`` lines with keys from :data:`FRONT_MATTER_KEYS`, including ``layout``
    or ``title``. Values lose their quotes and outer blanks.

    Returns
    -------
    fields : dict
        The front matter, empty when there is none.
    lines : int
        How many lines of ``text`` it occupies (0 when there is none).

    Examples
    --------
    >>> split_front_matter("layout: blog_detail\\ntitle: 'Hi there '\\nauthor: Team PyTorch\\nBody")
    ({'layout': 'blog_detail', 'title': 'Hi there', 'author': 'Team PyTorch'}, 3)
    >>> split_front_matter("Note: not front matter")
    ({}, 0)
    """
    fields, count, _ = _front_matter(text)
    return fields, count

def _front_matter(text: str) -> tuple[dict[str, object], int, RefusedYaml | None]:
    """Return what :func:`split_front_matter` does, and why a ``---`` block was refused.

    A refused block (:func:`load_yaml`) counts as no front matter; the error's line is
    the 0-based line of ``text`` it names.
    """
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if first < len(lines) and lines[first].strip() == FENCES[0]:
        try:
            return (*_fenced_front_matter(lines, first), None)
        except RefusedYaml as error:
            return {}, 0, RefusedYaml(error.reason, first + 1 + error.line)
    fields: dict[str, object] = {}
    end = first
    while end < len(lines):
        match = _FRONT_MATTER_LINE.fullmatch(lines[end].rstrip())
        if match is None or match["key"] not in FRONT_MATTER_KEYS:
            break
        fields.setdefault(match["key"], _scalar(match["value"] or ""))
        end += 1
    if not FRONT_MATTER_ANCHORS & fields.keys():
        return {}, 0, None
    return fields, end, None

def _fenced_front_matter(lines: list[str], start: int) -> tuple[dict[str, object], int]:
    """Parse a ``---`` YAML block opening at ``lines[start]``; ({}, 0) if it is not one.

    Raises
    ------
    RefusedYaml
        The block is too large, too deep or expands through aliases (:func:`load_yaml`).
    """
    stop = min(len(lines), start + MAX_FENCED_LINES)
    close = next((i for i in range(start + 1, stop) if lines[i].rstrip() in FENCES), None)
    if close is None:
        return {}, 0
    try:
        meta = load_yaml("\n".join(lines[start + 1 : close]))
    except (yaml.YAMLError, ValueError, TypeError, RecursionError):
        return {}, 0
    if not isinstance(meta, dict):
        return {}, 0
    return {str(k): v for k, v in meta.items()}, close + 1

def _scalar(raw: str) -> object:
    """Return a rendered front-matter value: YAML strings, dates and lists, else the raw text."""
    try:
        value = load_yaml(raw)
    except (RefusedYaml, yaml.YAMLError, ValueError, TypeError, RecursionError):
        return raw.strip()
    if isinstance(value, str):
        return value.strip()
    return value if isinstance(value, dt.date | list) else raw.strip()
