"""Interactive HTML pages of the graph: each one self-contained file that works offline.

Three views, one HTML file each:

* the **graph view** (:func:`generate_graph_html`, ``ptkg render``): a node's color and shape
  say its label (a legend tells which), its size its ``mentions``; an edge's color says its
  relationship type, and ``INTRODUCES`` edges are colored by their stability. A click on a
  node or an edge opens a panel with its properties, aliases and the sentences it was read
  from, each linking to the sentence in its post. A search box jumps to a node and highlights
  it (one highlight at a time); filters hide labels, relationship types, or everything but one
  release (chosen by library, then version) and what it is connected to, and the nodes a filter
  leaves without any edge go with it. "Start here" lists the releases that introduce the most
  features and the most connected features.
* the **matrix view** (:func:`generate_matrix_html`, ``ptkg render --matrix``): per library,
  features × releases in version order, each cell colored by the stability that release stated
  (its ``stated`` words in the tooltip), a mark where a release deprecates or removes it;
  sortable, filterable, and a cell opens its evidence. Data: :mod:`ptkg.matrix`.
* the **timeline view** (:func:`generate_timeline_html`, ``ptkg render --timeline``): the
  releases of each library in version order with their dates, and under each release the
  features it introduced, colored by the stability it stated; a feature introduced by several
  releases is one row, and one line runs through its releases. It draws what
  :func:`ptkg.timeline.timeline` computes (the data ``ptkg timeline`` prints), with every
  feature; newest first on request; rows that look like extraction noise are flagged.

What the format supports, and what it does not:

* **Offline.** Every script and style is inlined: vis-network 9.1.2 (vendored in
  ``templates/vendor``, see its README) and ptkg's own JS and CSS from ``templates/``. The page
  requests nothing, not even a font or an icon, and its Content-Security-Policy
  (``default-src 'none'``; scripts allowed by their sha256 only) holds it to that. The links to
  the posts open the blog, which does need the network; each carries a text fragment
  (``#:~:text=``, :func:`evidence_url`) so that the browser scrolls to the sentence.
* **Deterministic.** Positions are precomputed in Python: a Fruchterman-Reingold spring layout
  seeded with :data:`LAYOUT_SEED`, then, up to :data:`LABEL_LAYOUT_LIMIT` nodes, spread until
  no two labels overlap (:func:`separate_boxes`, from each label's width in DejaVu Sans, the
  widest of the usual sans-serif fonts), rounded to whole pixels; the data is JSON with sorted
  keys. The same graph and options give the same bytes, on one machine (numpy's float rounding
  on another machine could move a node by a pixel). The page opens still, on those positions
  (a box turns physics on).
* **Readable.** ``--focus`` follows the typed relations (posts and ``MENTIONS`` only with
  ``with_posts``), and a focused page keeps at most :data:`DEFAULT_MAX_NODES` nodes (the
  nearest, then the most connected) and says so when it cut. Up to :data:`LABEL_NODE_LIMIT`
  nodes, the labels are drawn and do not overlap at the zoom the page opens with (measured in
  ``tests/browser``); above it, they show when zoomed in. Edge labels show when zoomed in.
* **Safe.** The graph's text is embedded as JSON in a ``<script type="application/json">``
  element with ``<``, ``>``, ``&``, U+2028 and U+2029 escaped (so ``</script>`` or ``<!--`` in
  a post cannot end the element), and the page builds its DOM with ``textContent`` only: a post
  with markup shows the markup as text. Links are only made for ``http(s)`` URLs.
* **Size.** The whole-corpus graph (about 900 nodes and 2,600 edges) is a 1.2 MB page whose
  first stable frame comes in about a second in headless Chromium on 2 cores, a focused page of
  130 nodes in half a second; see ``bench/render.py``.
* Needs a browser with JavaScript (a recent Chromium, Firefox or Safari); no server.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import networkx as nx

from .errors import PtkgError
from .explore import closest_names, find_nodes
from .files import write_atomic
from .names import version_key
from .schema import CORE_LIBRARY, LABELS, OTHER_LABEL, RELATION_TYPES, STABILITIES, UNSTATED_COLOR
from .timeline import timeline

TEMPLATES = Path(__file__).resolve().parent / "templates"
VIS_NETWORK = TEMPLATES / "vendor" / "vis-network-9.1.2.min.js"

#: A focused page (``--focus``) keeps at most this many nodes unless told otherwise.
DEFAULT_MAX_NODES = 150
#: Up to this many nodes, the labels are drawn and do not overlap at the page's opening zoom.
LABEL_NODE_LIMIT = 150
#: Up to this many nodes, the layout is spread until no two labels overlap.
LABEL_LAYOUT_LIMIT = 300
#: The spring layout's seed, and its number of iterations.
LAYOUT_SEED = 7
LAYOUT_ITERATIONS = 60
#: How strongly every node is pulled to the center: keeps small components close.
LAYOUT_GRAVITY = 0.03
#: How strongly a MENTIONS edge pulls in the layout, next to 1.0 for the extracted relations:
#: posts name everything, and at full weight they would crush the graph into one ball.
MENTIONS_WEIGHT = 0.2
#: Node labels: font size in canvas pixels, the longest label (longer names are cut with …),
#: the label box's height, and the gap kept between two boxes.
LABEL_FONT = 13
LABEL_CHARS = 28
LABEL_HEIGHT = 17
LABEL_GAP = 4
#: Relationship types a focus follows only with ``with_posts`` (they reach posts).
POST_TYPES = frozenset({"MENTIONS", "ANNOUNCES"})

#: Colors of a stability (INTRODUCES edges, timeline dots); "" is "not stated".
STABILITY_COLORS = {**{s.name: s.color for s in STABILITIES.values()}, "": UNSTATED_COLOR}
EDGE_COLOR = "#7f8c99"

#: Advance widths in DejaVu Sans, in hundredths of an em (measured with Chromium's canvas);
#: the widest of the usual sans-serif fonts, so an estimate from it is never too small.
_CHAR_WIDTHS = {width: chars for width, chars in (
    (27, "'"), (28, "ijl"), (29, "IJ"), (32, " ,."), (34, "/:;\\|"), (35, "f"), (36, "-"),
    (39, "()[]t"), (40, "!"), (41, "r"), (46, '"'), (50, "*_`"), (52, "sz"), (53, "?"),
    (55, "c"), (56, "L"), (58, "Fk"), (59, "vxy"), (60, "P"), (61, "TYao"), (62, "eé"),
    (63, "ESbdghnpqu"), (64, "0123456789${}"), (66, "K"), (68, "AV"), (69, "BRXZ"), (70, "C"),
    (73, "U"), (75, "HN"), (77, "DG"), (78, "&"), (79, "OQ"), (82, "w"), (84, "#+<=>^~"),
    (86, "M"), (95, "%"), (97, "m"), (99, "W"), (100, "@…®"))}
CHAR_WIDTH = {char: width for width, chars in _CHAR_WIDTHS.items() for char in chars}
#: The width of a character the table does not have (CJK and symbols are up to 1 em).
OTHER_CHAR_WIDTH = 100


class UnknownNameError(PtkgError):
    """A ``--focus`` or ``--release`` name that is in no node; ``closest`` lists near names."""

    def __init__(self, what: str, name: str, closest: list[str]):
        self.name = name
        self.closest = closest
        hint = f"; closest: {', '.join(closest)}" if closest else ""
        super().__init__(f"no {what} named {name!r} in the graph{hint}")


@dataclass(frozen=True)
class RenderSummary:
    """What a page shows: its path, size in bytes, and counts (``{"nodes": 143, ...}``)."""

    path: Path
    size: int
    counts: dict[str, int] = field(default_factory=dict)
    physics: bool | None = None  # graph view: does the page open with physics on
    notice: str = ""  # graph view: the node cap was hit (what the page says about it)


# --------------------------------------------------------------------------- links


_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_MARKUP = re.compile(r"\*+|`+|~~|(?<!\w)__?(?=\S)|(?<=\S)__?(?!\w)|<[^>\s][^>]*>")
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~])")
_ESCAPED_LINK = re.compile(r"\\?\[([^\]\[]*?)\\\]\(")
_DANGLING_LINK = re.compile(r"^([^\[]*?)\\?\]\([^)\s]*\)")  # no "[" before it
_KEPT = 0xE000  # private-use characters stand for escaped ones while the markup is removed
_MD_LEAD = re.compile(r"^\s*(?:#{1,6}\s+|[-+*]\s+|\d+[.)]\s+|>\s*)+")
#: A sentence longer than this many words is linked by its first and last words (start,end).
FRAGMENT_WORDS = 10
FRAGMENT_END_WORDS = 4


def fragment_text(sentence: str) -> str:
    r"""The words of ``sentence`` as the post's page shows them: Markdown links, emphasis,
    backticks, heading and list marks left out, spaces collapsed.

    Examples
    --------
    >>> fragment_text("(Beta) **ZeroRedundancyOptimizer**: use ```torch.fx``` [here](https://x)")
    '(Beta) ZeroRedundancyOptimizer: use torch.fx here'
    >>> fragment_text(r"[Beta] _torch.compile_ + torch_xla, cpp\_wrapper, TORCH_LOGS")
    '[Beta] torch.compile + torch_xla, cpp_wrapper, TORCH_LOGS'
    >>> fragment_text(r"PyTorch 2.10\](https://x) deprecated [TorchScript\](https://y).")
    'PyTorch 2.10 deprecated TorchScript.'
    """
    # a scraper's escaped link brackets still make a link ("[2.10\\](url)"), and a link cut
    # by the sentence's start leaves its "](url)"; any other escaped character (``\\_``) is
    # text, kept aside while the markup goes
    text = _DANGLING_LINK.sub(r"\1", _ESCAPED_LINK.sub(r"[\1](", sentence))
    text = _MD_ESCAPE.sub(lambda m: chr(_KEPT + ord(m.group(1))), text)
    text = _MD_LINK.sub(r"\1", text)
    text = _MD_MARKUP.sub("", _MD_LEAD.sub("", text))
    text = re.sub("[\ue000-\ue07f]", lambda m: chr(ord(m.group(0)) - _KEPT), text)
    return " ".join(text.split())


def fragment_term(text: str) -> str:
    """``text`` percent-encoded as one term of a text directive (the Text Fragments spec):
    everything but letters, digits, ``.``, ``_`` and ``~``, so also ``-``, ``&`` and ``,``, which
    the directive's syntax uses.

    Examples
    --------
    >>> fragment_term("CUDA-support, RPC & TensorPipe")
    'CUDA%2Dsupport%2C%20RPC%20%26%20TensorPipe'
    """
    return quote(text, safe="").replace("-", "%2D")


def text_fragment(sentence: str) -> str:
    """The text directive that finds ``sentence`` on its post's page (``text=...``), or "".

    A sentence of up to :data:`FRAGMENT_WORDS` words is the whole directive; a longer one is
    ``text=start,end``: its first and last :data:`FRAGMENT_END_WORDS` words.

    Examples
    --------
    >>> text_fragment("[Beta] torch.fx")
    'text=%5BBeta%5D%20torch.fx'
    >>> text_fragment("one two three four five six seven eight nine ten eleven")
    'text=one%20two%20three%20four,eight%20nine%20ten%20eleven'
    """
    words = fragment_text(sentence).split()
    if not words:
        return ""
    if len(words) <= FRAGMENT_WORDS:
        return "text=" + fragment_term(" ".join(words))
    start = " ".join(words[:FRAGMENT_END_WORDS])
    end = " ".join(words[-FRAGMENT_END_WORDS:])
    return f"text={fragment_term(start)},{fragment_term(end)}"


def evidence_url(url: str, sentence: str) -> str:
    """The link to ``sentence`` in the post at ``url``: the URL with a text fragment, so the
    browser scrolls to the sentence and marks it (browsers without text fragments open the
    post). A URL that is not http(s), or a sentence without words, gives ``url`` as it is.

    Examples
    --------
    >>> evidence_url("https://pytorch.org/blog/a/", "(Stable) torch.linalg")
    'https://pytorch.org/blog/a/#:~:text=%28Stable%29%20torch.linalg'
    >>> evidence_url("https://pytorch.org/blog/a/#intro", "Hello")
    'https://pytorch.org/blog/a/#intro:~:text=Hello'
    """
    fragment = text_fragment(sentence)
    if not fragment or not re.match(r"https?://", url, re.IGNORECASE):
        return url
    base, _, existing = url.partition("#")
    return f"{base}#{existing.partition(':~:')[0]}:~:{fragment}"


# --------------------------------------------------------------------------- noise


#: A name that starts with one of these words is a phrase, not a name.
PHRASE_WORDS = frozenset((
    "to", "are", "is", "be", "been", "being", "was", "were", "and", "or", "of", "for", "with",
    "now", "we", "it", "this", "that", "these", "those", "our", "your", "their", "can", "will",
    "has", "have", "had", "into", "from", "by"))


def suspect_reasons(data: dict) -> list[str]:
    """Why a feature's row looks like extraction noise ("implement", "to suggest"), or [].

    A name that starts with a function word is suspect; so is a lower-case name of plain
    words (no ``.``, ``_``, ``:``, ``/``, digit or capital: not an API name such as
    ``torch.fx``) mentioned at most once. The pages flag such rows so a reader can spot and
    report them; they are not removed.

    Examples
    --------
    >>> suspect_reasons({"name": "to suggest", "mentions": 1})
    ["starts with 'to'", 'lower-case name', 'mentioned once']
    >>> suspect_reasons({"name": "torch.fx", "mentions": 1}), suspect_reasons(
    ...     {"name": "autograd", "mentions": 60})
    ([], [])
    """
    name = str(data.get("name", ""))
    words = name.split()
    mentions = data.get("mentions", 0) or 0
    reasons = []
    if words and words[0].casefold() in PHRASE_WORDS:
        reasons.append(f"starts with {words[0]!r}")
    lower = bool(name[:1].islower() and not re.search(r"[._:/()\d]|[A-Z]", name))
    if lower and (mentions <= 1 or reasons):
        reasons.append("lower-case name")
    if reasons and mentions <= 1:
        reasons.append("mentioned once" if mentions == 1 else "never mentioned")
    return reasons


# --------------------------------------------------------------------------- selection


def select_subgraph(graph: nx.MultiDiGraph, *, focus: str | None = None, depth: int = 1,
                    labels: Iterable[str] = (), release: str | None = None,
                    min_mentions: int = 0, with_posts: bool = False,
                    max_nodes: int | None = None) -> nx.MultiDiGraph:
    """The part of ``graph`` a page shows; with no option, the whole graph.

    Parameters
    ----------
    focus : an entity's name or alias: keep the nodes within ``depth`` hops of it, along the
        typed relations, either way; every node of that name is a center. Posts, and the
        ``MENTIONS`` and ``ANNOUNCES`` edges that reach them, are followed only with
        ``with_posts`` (a post that is the center is kept, with what it mentions).
        Without ``focus``, posts are kept as any other node.
    depth : hops around ``focus``.
    labels : keep only nodes with these labels (any case); the centers stay.
    release : a release's name: keep it and the nodes it is directly connected to.
    min_mentions : drop entities mentioned fewer times; posts (no ``mentions``) and centers stay.
    with_posts : ``focus`` also follows posts and their edges.
    max_nodes : keep at most this many nodes: with ``focus``, the nearest first, then the most
        connected (typed relations, then mentions), then by id; without, the most connected.
        ``None``: :data:`DEFAULT_MAX_NODES` with ``focus``, no cap without; 0: no cap.

    Nodes that ``labels`` or ``min_mentions`` leave without any edge, but that had one, go too
    (a center stays). ``graph.graph`` of the result has ``centers`` (sorted node ids) and
    ``total``: how many nodes the selection had before the cap.

    Raises
    ------
    UnknownNameError
        ``focus`` or ``release`` names no node (the error lists the closest names).
    PtkgError
        A label that is neither in the schema nor in the graph.
    """
    keep = set(graph)
    centers: set[str] = set()
    distance: dict[str, int] = {}
    if focus is not None:
        found = find_nodes(graph, focus)
        if not found:
            raise UnknownNameError("entity", focus, closest_names(graph, focus))
        distance = _walk(graph, found, depth, with_posts)
        keep = set(distance)
        centers.update(found)
    if release is not None:
        found = [n for n in find_nodes(graph, release) if graph.nodes[n]["label"] == "Release"]
        if not found:
            raise UnknownNameError("release", release, closest_names(graph, release, "Release"))
        near = set(found)
        for node in found:
            near.update(graph.predecessors(node))
            near.update(graph.successors(node))
        keep &= near
        centers.update(found)
    before = set(keep)
    wanted = set(check_labels(graph, labels))
    if wanted:
        keep = {n for n in keep if n in centers or graph.nodes[n]["label"] in wanted}
    if min_mentions > 0:
        keep = {n for n in keep
                if n in centers or graph.nodes[n].get("mentions", min_mentions) >= min_mentions}
    if keep != before:
        keep = _drop_orphans(graph, keep, before, centers)
    total = len(keep)
    cap = (DEFAULT_MAX_NODES if focus is not None else 0) if max_nodes is None else max_nodes
    if cap and len(keep) > cap:
        keep = _cap(graph, keep, centers, distance, cap)
    subgraph = nx.MultiDiGraph()
    subgraph.add_nodes_from((n, graph.nodes[n]) for n in sorted(keep))
    subgraph.add_edges_from(
        (u, v, key, data) for u, v, key, data in sorted(graph.edges(keys=True, data=True),
                                                        key=lambda e: e[:3])
        if u in keep and v in keep)
    subgraph.graph["centers"] = sorted(centers & keep)
    subgraph.graph["total"] = total
    return subgraph


def _walk(graph: nx.MultiDiGraph, starts: list[str], depth: int,
          with_posts: bool) -> dict[str, int]:
    """Breadth-first hops from ``starts`` along the edges a focus follows: node -> distance."""
    distance = {node: 0 for node in starts}
    frontier = sorted(starts)
    for hop in range(1, depth + 1):
        following = []
        for node in frontier:
            center_post = hop == 1 and graph.nodes[node]["label"] == "Post"
            edges = [(v, key) for _, v, key in graph.out_edges(node, keys=True)]
            edges += [(u, key) for u, _, key in graph.in_edges(node, keys=True)]
            for other, key in sorted(edges):
                if other in distance:
                    continue
                if not with_posts and not center_post and (
                        key in POST_TYPES or graph.nodes[other]["label"] == "Post"):
                    continue
                distance[other] = hop
                following.append(other)
        frontier = sorted(following)
    return distance


def _typed_degree(graph: nx.MultiDiGraph, node: str) -> int:
    return sum(1 for _, _, key in graph.edges(node, keys=True) if key not in POST_TYPES) + sum(
        1 for _, _, key in graph.in_edges(node, keys=True) if key not in POST_TYPES)


def _cap(graph: nx.MultiDiGraph, keep: set[str], centers: set[str], distance: dict[str, int],
         cap: int) -> set[str]:
    """The ``cap`` nodes of ``keep`` a page shows: centers, then nearest, most connected."""
    def rank(node: str) -> tuple:
        return (node not in centers, distance.get(node, 0), -_typed_degree(graph, node),
                -(graph.nodes[node].get("mentions") or 0), node)
    return set(sorted(keep, key=rank)[:max(cap, len(centers & keep))])


def _drop_orphans(graph: nx.MultiDiGraph, keep: set[str], before: set[str],
                  centers: set[str]) -> set[str]:
    """``keep`` without the nodes that had an edge within ``before`` and have none within it."""
    def linked(node: str, within: set[str]) -> bool:
        return any(v in within and v != node for v in graph.successors(node)) or any(
            u in within and u != node for u in graph.predecessors(node))
    return {n for n in keep if n in centers or linked(n, keep) or not linked(n, before)}


def check_labels(graph: nx.MultiDiGraph, labels: Iterable[str]) -> list[str]:
    """The labels named, spelled as in the graph (any case matches), each once, in order.

    Raises
    ------
    PtkgError
        A label that is neither in the schema nor in the graph (the message lists them).
    """
    known = sorted(set(LABELS) | {d["label"] for _, d in graph.nodes(data=True)})
    by_key = {label.casefold(): label for label in known}
    wanted = []
    for label in labels:
        if label.casefold() not in by_key:
            raise PtkgError(f"unknown label {label!r}; labels: {', '.join(known)}")
        wanted.append(by_key[label.casefold()])
    return list(dict.fromkeys(wanted))


def describe_selection(*, focus: str | None = None, depth: int = 1, labels: Iterable[str] = (),
                       release: str | None = None, min_mentions: int = 0,
                       with_posts: bool = False) -> str:
    """One line that says what part of the graph a page shows: ``"focus: torch.fx (depth 1)"``."""
    parts = []
    if focus is not None:
        parts.append(f"focus: {focus} (depth {depth}{', with posts' if with_posts else ''})")
    if release is not None:
        parts.append(f"release: {release}")
    labels = list(labels)
    if labels:
        parts.append(f"labels: {', '.join(labels)}")
    if min_mentions > 0:
        parts.append(f"min mentions: {min_mentions}")
    return " · ".join(parts) if parts else "the whole graph"


def cap_notice(shown: int, total: int, *, focus: str | None = None, depth: int = 1) -> str:
    """What a page says when the node cap cut the selection, or "" when it did not.

    Examples
    --------
    >>> cap_notice(150, 351, focus="torch.compile", depth=2)[:64]
    'Showing 150 of 351 nodes within 2 hops of torch.compile: the nea'
    """
    if shown >= total:
        return ""
    where = (f"within {depth} hop{'s' if depth != 1 else ''} of {focus}: the nearest, then the "
             "most connected" if focus is not None else "of the selection: the most connected")
    return (f"Showing {shown} of {total} nodes {where}. Raise --max-nodes (0: no cap) or lower "
            "--depth to see the rest.")


# --------------------------------------------------------------------------- layout


def label_text(data: dict) -> str:
    """The label a graph page draws for a node: its name, cut to :data:`LABEL_CHARS`.

    Examples
    --------
    >>> label_text({"name": "Accelerating PyTorch Vision Models with Channels Last on CPU"})
    'Accelerating PyTorch Vision…'
    """
    name = " ".join(str(data["name"]).split())
    return name if len(name) <= LABEL_CHARS else name[:LABEL_CHARS - 1].rstrip() + "…"


def text_width(text: str, size: float = LABEL_FONT) -> float:
    """The width of ``text`` in pixels at ``size`` in DejaVu Sans (:data:`CHAR_WIDTH`).

    Examples
    --------
    >>> text_width("torch.fx", 100)
    385.0
    """
    return sum(CHAR_WIDTH.get(char, OTHER_CHAR_WIDTH) for char in text) * size / 100


def layout_positions(graph: nx.MultiDiGraph, *, seed: int = LAYOUT_SEED,
                     iterations: int = LAYOUT_ITERATIONS, labels: dict[str, str] | None = None,
                     aspect: float = 1.35) -> dict[str, tuple[int, int]]:
    """Node positions in pixels from a seeded spring layout: the same graph, the same positions.

    Fruchterman-Reingold on the undirected graph (a MENTIONS edge weighs
    :data:`MENTIONS_WEIGHT`, any other edge 1), with a weak pull towards the center so that
    small components stay near; dense numpy arrays, fine for a few thousand nodes. Without
    ``labels`` the layout spans about ``90 * sqrt(n)`` pixels each way. With ``labels`` (node ->
    the text drawn under it) and up to :data:`LABEL_LAYOUT_LIMIT` nodes, the layout is scaled
    to the room the labels need and spread by :func:`separate_boxes` until no two nodes'
    boxes (shape and label) overlap; up to :data:`LABEL_NODE_LIMIT` nodes it is then packed
    (:func:`compact_boxes`) into a box of width ``aspect`` times its height (the canvas a page
    gives it), so that the labels are as large as they can be when the page fits it in view.

    Why not ``networkx.spring_layout``: its force method has no pull towards the center
    (``gravity`` works only with ``method="energy"``), so the many small components of a blog
    graph drift to the edges; and both its energy method and its force method above 500 nodes
    need scipy, which ptkg does not otherwise depend on. This is the same update, with gravity.
    """
    import numpy as np

    nodes = sorted(graph)
    n = len(nodes)
    if n <= 1:
        return {node: (0, 0) for node in nodes}
    index = {node: i for i, node in enumerate(nodes)}
    weights = np.zeros((n, n), dtype=np.float32)
    for u, v, key in sorted(graph.edges(keys=True)):
        if u != v:
            weight = MENTIONS_WEIGHT if key == "MENTIONS" else 1.0
            weights[index[u], index[v]] += weight
            weights[index[v], index[u]] += weight
    rng = np.random.default_rng(seed)
    pos = rng.random((n, 2)).astype(np.float32)
    k = math.sqrt(1.0 / n)
    temperature = 0.1
    cooling = temperature / (iterations + 1)
    for _ in range(iterations):
        x, y = pos[:, 0], pos[:, 1]
        dx = x[:, None] - x[None, :]
        dy = y[:, None] - y[None, :]
        square = dx * dx + dy * dy
        np.maximum(square, 1e-4, out=square)
        force = k * k / square - weights * (np.sqrt(square) / k)
        displacement = np.stack([(dx * force).sum(axis=1), (dy * force).sum(axis=1)], axis=1)
        displacement -= (pos - pos.mean(axis=0)) * (LAYOUT_GRAVITY * n * k)
        length = np.sqrt((displacement ** 2).sum(axis=1))
        np.maximum(length, 0.01, out=length)
        pos += displacement * (temperature / length)[:, None]
        temperature -= cooling
    pos = pos.astype(np.float64)
    pos -= pos.mean(axis=0)
    if labels is None or n > LABEL_LAYOUT_LIMIT:
        span = np.abs(pos).max() or 1.0
        pos *= 90 * math.sqrt(n) / span
    else:
        sizes = np.array([node_size(graph.nodes[node].get("mentions")) for node in nodes],
                         dtype=np.float64)
        half = np.maximum(sizes, np.array([text_width(labels.get(node, "")) / 2
                                           for node in nodes]))
        below = sizes + LABEL_HEIGHT
        pos = _fill_room(pos, half, sizes, below, aspect)
        pos, _ = separate_boxes(pos, half, sizes, below)
        if n <= LABEL_NODE_LIMIT:
            pos = compact_boxes(pos, half, sizes, below, aspect)
    return {node: (int(round(x)), int(round(y))) for node, (x, y) in zip(nodes, pos.tolist(),
                                                                        strict=True)}


#: The room a label-aware layout starts in: this many times the area of the boxes.
LAYOUT_ROOM = 2.0
#: The canvas of a graph page, width / height: with the panel open (a focused page), without.
ASPECT_WITH_PANEL = 0.88
ASPECT = 1.35
#: Rounds of :func:`compact_boxes`, and how much each shrinks the axis that overflows the
#: canvas, and the other.
COMPACT_ROUNDS = 10
SHRINK = 0.8
SHRINK_OTHER = 0.92
#: How much :func:`compact_boxes` favors horizontal moves when the layout is too tall.
SIDEWAYS_BIAS = 3.0


def _fill_room(pos, half, above, below, aspect):
    """Spring positions scaled to a room of :data:`LAYOUT_ROOM` times the boxes' area."""
    import numpy as np

    area = float(((2 * half + LABEL_GAP) * (above + below + LABEL_GAP)).sum()) * LAYOUT_ROOM
    width, height = math.sqrt(area * aspect), math.sqrt(area / aspect)
    spread = np.abs(pos).max(axis=0)
    spread[spread == 0] = 1.0
    return pos / spread * np.array([width / 2, height / 2])


def separate_boxes(pos, half, above, below, *, gap: float = LABEL_GAP, iterations: int = 500,
                   bias: float = 1.0):
    """Move the boxes apart until none overlaps another by a pixel (``gap`` kept between them).

    Box ``i`` spans ``x ± half[i]`` and ``y - above[i]`` to ``y + below[i]``. Each round, every
    overlapping pair is pushed apart along the axis that needs the shorter move (a horizontal
    move counts ``1 / bias`` of its length: ``bias`` above 1 widens the layout), each by half of
    it; ties of equal positions are broken by index, so the result is deterministic. Arrays of
    shape ``(n, 2)`` and ``(n,)``; returns the new positions and whether no box overlaps.
    """
    import numpy as np

    pos = np.array(pos, dtype=np.float64)
    n = len(pos)
    order = np.arange(n)
    tie = np.sign(order[:, None] - order[None, :]).astype(np.float64)
    width = half[:, None] + half[None, :] + gap
    for _ in range(iterations):
        x, y = pos[:, 0], pos[:, 1]
        dx = x[:, None] - x[None, :]
        over_x = width - np.abs(dx)
        top, bottom = y - above, y + below
        over_y = (np.minimum(bottom[:, None], bottom[None, :])
                  - np.maximum(top[:, None], top[None, :]) + gap)
        hit = (over_x > 0.5) & (over_y > 0.5)
        np.fill_diagonal(hit, False)
        if not hit.any():
            return pos, True
        middle = (top + bottom) / 2
        dy = middle[:, None] - middle[None, :]
        sx = np.where(dx != 0, np.sign(dx), tie)
        sy = np.where(dy != 0, np.sign(dy), tie)
        sideways = over_x < over_y * bias
        move_x = np.where(hit & sideways, sx * over_x, 0.0).sum(axis=1) * 0.5
        move_y = np.where(hit & ~sideways, sy * (over_y + 0.5), 0.0).sum(axis=1) * 0.5
        pos[:, 0] += move_x
        pos[:, 1] += move_y
    return pos, False


def fit_scale(pos, half, above, below, aspect: float) -> float:
    """The zoom at which the boxes fit a canvas ``aspect`` wide and 1 high (larger: better)."""
    left, right = (pos[:, 0] - half).min(), (pos[:, 0] + half).max()
    top, bottom = (pos[:, 1] - above).min(), (pos[:, 1] + below).max()
    return min(aspect / max(right - left, 1.0), 1.0 / max(bottom - top, 1.0))


def compact_boxes(pos, half, above, below, aspect: float, *, rounds: int | None = None):
    """Pack the boxes tighter: each round shrinks the layout towards its center (more along the
    axis that overflows the canvas shape ``aspect``), then :func:`separate_boxes` again; the
    layout that fits the canvas at the largest zoom with no overlap wins."""
    import numpy as np

    best, best_scale = pos, fit_scale(pos, half, above, below, aspect)
    current = pos
    for _ in range(COMPACT_ROUNDS if rounds is None else rounds):
        width = (current[:, 0] + half).max() - (current[:, 0] - half).min()
        height = (current[:, 1] + below).max() - (current[:, 1] - above).min()
        wide = width / max(height, 1.0) > aspect
        factor = np.array([SHRINK, SHRINK_OTHER] if wide else [SHRINK_OTHER, SHRINK])
        middle = current.mean(axis=0)
        current, ok = separate_boxes(middle + (current - middle) * factor, half, above, below,
                                     bias=1.0 if wide else SIDEWAYS_BIAS)
        if not ok:
            break
        scale = fit_scale(current, half, above, below, aspect)
        if scale > best_scale:
            best, best_scale = current, scale
    return best


# --------------------------------------------------------------------------- graph view


def graph_view_data(graph: nx.MultiDiGraph, *, title: str = "ptkg graph",
                    subtitle: str = "the whole graph", centers: Iterable[str] = (),
                    physics: bool = False, notice: str = "",
                    post_titles: dict[str, str] | None = None) -> dict:
    """The data of a graph page, as plain JSON-able data (:func:`generate_graph_html` embeds it).

    Nodes and edges are sorted (edges by start, type, end) and refer to nodes by index;
    ``x``/``y`` are :func:`layout_positions` (label-aware), ``text`` the label drawn;
    ``physics`` says whether the page starts the physics simulation (default: it opens still).
    ``notice`` is shown above the graph (the cap notice), followed by one for pages above
    :data:`LABEL_NODE_LIMIT` nodes. ``releaseGroups`` lists the releases by library (PyTorch
    first), each in version order; ``start`` the releases that introduce the most features and
    the most connected features. ``post_titles`` (URL → title) names the posts the evidence
    cites, for the posts that are not in ``graph`` (default: the titles of the posts in
    ``graph``).
    """
    nodes = sorted(graph)
    centers = [c for c in centers if c in graph]
    index = {node: i for i, node in enumerate(nodes)}
    texts = {node: label_text(graph.nodes[node]) for node in nodes}
    positions = layout_positions(graph, labels=texts,
                                 aspect=ASPECT_WITH_PANEL if centers else ASPECT)
    edges = sorted(graph.edges(keys=True, data=True), key=lambda e: (e[0], e[2], e[1]))
    pair_seen: Counter[tuple[str, str]] = Counter()
    node_rows, edge_rows = [], []
    for node in nodes:
        data = graph.nodes[node]
        x, y = positions[node]
        node_rows.append({**_node_row(node, data), "x": x, "y": y, "text": texts[node],
                          "size": node_size(data.get("mentions"))})
    for u, v, key, data in edges:
        pair = (min(u, v), max(u, v))
        curve = pair_seen[pair]
        pair_seen[pair] += 1
        edge_rows.append({**_edge_row(index, u, v, key, data), "curve": round(0.2 * curve, 2)})
    present_labels = {d["label"] for _, d in graph.nodes(data=True)}
    present_types = {key for _, _, key in graph.edges(keys=True)}
    notices = [notice] if notice else []
    if len(nodes) > LABEL_NODE_LIMIT:
        notices.append(f"{len(nodes)} nodes: labels show when you zoom in. For a page that "
                       "reads at a glance, render a part: --focus NAME, --release R, "
                       "--max-nodes N.")
    return {
        "view": "graph", "title": title, "subtitle": subtitle, "physics": physics,
        "notice": " ".join(notices), "empty": _empty_message(graph, subtitle),
        "labels": _ordered(present_labels, tuple(LABELS)),
        "types": _ordered(present_types, tuple(RELATION_TYPES)),
        "styles": _styles(present_labels),
        "nodes": node_rows, "edges": edge_rows,
        "releaseGroups": [{"library": library, "releases": [index[n] for n in releases]}
                          for library, releases in release_groups(graph)],
        "start": _start_here(graph, index),
        "centers": [index[n] for n in sorted(centers) if n in index],
        "posts": _cited_posts([e for *_, e in edges], post_titles or post_titles_of(graph)),
    }


def release_groups(graph: nx.MultiDiGraph) -> list[tuple[str, list[str]]]:
    """The release nodes of ``graph`` by library (PyTorch first, then by name), each list in
    version order: what the pages' release filters offer."""
    groups: dict[str, list[str]] = {}
    for node, data in graph.nodes(data=True):
        if data["label"] == "Release":
            groups.setdefault(_release_library(data), []).append(node)
    order = sorted(groups, key=lambda name: (name != CORE_LIBRARY, name.casefold(), name))
    return [(library, sorted(groups[library], key=lambda n: _release_key(graph.nodes[n])))
            for library in order]


#: How many releases and features "Start here" lists.
START_COUNT = 6


def _start_here(graph: nx.MultiDiGraph, index: dict[str, int]) -> dict:
    """The releases that introduce the most features, and the most connected features."""
    releases = Counter({n: 0 for n, d in graph.nodes(data=True) if d["label"] == "Release"})
    for u, _, key in graph.edges(keys=True):
        if key == "INTRODUCES":
            releases[u] += 1
    top_releases = sorted((n for n, c in releases.items() if c), key=lambda n: (
        -releases[n], _release_key(graph.nodes[n])))[:START_COUNT]
    features = [(n, _typed_degree(graph, n)) for n, d in graph.nodes(data=True)
                if d["label"] == "Feature"]
    top_features = sorted((f for f in features if f[1] > 1), key=lambda f: (
        -f[1], -(graph.nodes[f[0]].get("mentions") or 0), f[0]))[:START_COUNT]
    return {"releases": [[index[n], releases[n]] for n in top_releases],
            "features": [[index[n], degree] for n, degree in top_features]}


def node_size(mentions: int | None) -> int:
    """A node's radius in pixels: grows with the square root of its mentions, up to 30
    (posts: 12)."""
    if mentions is None:
        return 12
    return min(8 + round(3 * math.sqrt(max(mentions, 0))), 30)


def generate_graph_html(graph: nx.MultiDiGraph, *, title: str = "ptkg graph",
                        subtitle: str = "the whole graph", centers: Iterable[str] = (),
                        physics: bool = False, notice: str = "",
                        post_titles: dict[str, str] | None = None) -> str:
    """The graph view of ``graph`` (all of it: select first with :func:`select_subgraph`)."""
    data = graph_view_data(graph, title=title, subtitle=subtitle, centers=centers,
                           physics=physics, notice=notice, post_titles=post_titles)
    return generate_page("graph.html", title=title, data=data,
                         scripts=[VIS_NETWORK, "common.js", "graph.js"])


def render_graph(graph: nx.MultiDiGraph, path: str | Path, *, title: str = "ptkg graph",
                 focus: str | None = None, depth: int = 1, labels: Iterable[str] = (),
                 release: str | None = None, min_mentions: int = 0, with_posts: bool = False,
                 max_nodes: int | None = None, physics: bool = False) -> RenderSummary:
    """Select (see :func:`select_subgraph`), draw and write the graph view to ``path``.

    The file is replaced atomically. Raises what :func:`select_subgraph` raises, and
    ``OSError`` when the file cannot be written.
    """
    labels = check_labels(graph, labels)
    selected = select_subgraph(graph, focus=focus, depth=depth, labels=labels, release=release,
                               min_mentions=min_mentions, with_posts=with_posts,
                               max_nodes=max_nodes)
    subtitle = describe_selection(focus=focus, depth=depth, labels=labels, release=release,
                                  min_mentions=min_mentions, with_posts=with_posts)
    notice = cap_notice(selected.number_of_nodes(), selected.graph["total"], focus=focus,
                        depth=depth)
    text = generate_graph_html(selected, title=title, subtitle=subtitle,
                               centers=selected.graph["centers"], physics=physics,
                               notice=notice, post_titles=post_titles_of(graph))
    write_html(path, text)
    return RenderSummary(
        Path(path), len(text.encode("utf8")),
        {"nodes": selected.number_of_nodes(), "edges": selected.number_of_edges(),
         "total": selected.graph["total"]},
        physics=physics and selected.number_of_nodes() > 0, notice=notice)


# --------------------------------------------------------------------------- timeline view


def timeline_view_data(graph: nx.MultiDiGraph, *, title: str = "ptkg timeline",
                       newest_first: bool = False) -> dict:
    """The data of a timeline page (:func:`generate_timeline_html` embeds it).

    What :func:`ptkg.timeline.timeline` computes, with every feature of each release, laid
    out for drawing. One lane per library: its releases are the columns, each feature one row
    (ordered by the first release that introduced it, then name) with a cell per release that
    introduced it; ``suspect`` lists why a row looks like extraction noise
    (:func:`suspect_reasons`), ``gaps`` what the timeline cannot know. ``nodes`` (the releases
    and features, sorted by id) and ``edges`` (their INTRODUCES edges, sorted) carry what the
    evidence panel shows; rows and cells refer to them by index. ``newestFirst`` is how the
    page opens (its box turns the order around: newest release first, its features on top).
    """
    lanes = timeline(graph, headline_limit=None)
    introductions = sorted({(release.node, feature.node) for lane in lanes
                            for release in lane.releases for feature in release.headlines})
    wanted = sorted({release.node for lane in lanes for release in lane.releases}
                    | {feature for _, feature in introductions})
    index = {node: i for i, node in enumerate(wanted)}
    edge_index = {edge: j for j, edge in enumerate(introductions)}
    edge_data = [graph.edges[u, v, "INTRODUCES"] for u, v in introductions]
    libraries = []
    for lane in lanes:
        rows: dict[str, dict] = {}
        for column, release in enumerate(lane.releases):
            for feature in release.headlines:
                row = rows.setdefault(feature.node, {"name": feature.feature, "first": column,
                                                     "cells": []})
                row["cells"].append({"column": column,
                                     "edge": edge_index[release.node, feature.node],
                                     "stability": feature.stability or ""})
        ordered = sorted(rows.items(), key=lambda item: (
            item[1]["first"], item[1]["name"].casefold(), item[0]))
        libraries.append({
            "name": lane.library, "gaps": list(lane.gaps),
            "releases": [{"node": index[r.node], "version": r.version, "date": r.date or ""}
                         for r in lane.releases],
            "features": [{"node": index[node], "cells": row["cells"],
                          "suspect": suspect_reasons(graph.nodes[node])}
                         for node, row in ordered]})
    empty = "" if libraries else "This graph has no releases: there is no timeline to draw."
    return {"view": "timeline", "title": title, "empty": empty, "libraries": libraries,
            "newestFirst": newest_first,
            "nodes": [_node_row(node, graph.nodes[node]) for node in wanted],
            "edges": [_edge_row(index, u, v, "INTRODUCES", data)
                      for (u, v), data in zip(introductions, edge_data, strict=True)],
            "styles": _styles(set(LABELS)),
            "posts": _cited_posts(edge_data, post_titles_of(graph))}


def generate_timeline_html(graph: nx.MultiDiGraph, *, title: str = "ptkg timeline",
                           newest_first: bool = False) -> str:
    """The timeline view of ``graph``."""
    data = timeline_view_data(graph, title=title, newest_first=newest_first)
    return generate_page("timeline.html", title=title, data=data,
                         scripts=["common.js", "timeline.js"])


def render_timeline(graph: nx.MultiDiGraph, path: str | Path, *, title: str = "ptkg timeline",
                    newest_first: bool = False) -> RenderSummary:
    """Draw the timeline view and write it to ``path`` atomically."""
    data = timeline_view_data(graph, title=title, newest_first=newest_first)
    text = generate_page("timeline.html", title=title, data=data,
                         scripts=["common.js", "timeline.js"])
    write_html(path, text)
    return RenderSummary(Path(path), len(text.encode("utf8")), {
        "libraries": len(data["libraries"]),
        "releases": sum(len(lib["releases"]) for lib in data["libraries"]),
        "features": sum(len(lib["features"]) for lib in data["libraries"]),
        "introductions": len(data["edges"]),
        "suspect": sum(1 for lib in data["libraries"] for f in lib["features"] if f["suspect"])})


# --------------------------------------------------------------------------- the page


def generate_page(template: str, *, title: str, data: dict, scripts: list[str | Path]) -> str:
    """Fill a template of ``templates/``: the title, the CSS, the data and the inlined scripts.

    ``scripts`` are template names or paths; each becomes an inline ``<script>`` whose sha256 is
    the only script source the page's Content-Security-Policy allows.
    """
    codes = [_read_script(script) for script in scripts]
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(c.encode()).digest()).decode()}'"
                      for c in codes)
    csp = (f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; "
           "img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'")
    values = {
        "title": html.escape(title),
        "csp": html.escape(csp),
        "css": (TEMPLATES / "ptkg.css").read_text(encoding="utf8"),
        "data": embed_json(data),
        "scripts": "\n".join(f"<script>{code}</script>" for code in codes),
    }
    page = (TEMPLATES / template).read_text(encoding="utf8")
    return re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)], page)


def embed_json(data: object) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element of an HTML page.

    ``<``, ``>`` and ``&`` become ``\\u003c``, ``\\u003e``, ``\\u0026`` (so neither
    ``</script>`` nor ``<!--`` can appear), U+2028 and U+2029 become escapes too; JSON.parse
    reads the same values back. Keys are sorted.

    Examples
    --------
    >>> embed_json({"text": "</script><!--"})
    '{"text":"\\\\u003c/script\\\\u003e\\\\u003c!--"}'
    """
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def write_html(path: str | Path, text: str) -> None:
    """Write a page atomically (a temp file in the same folder, then a rename).

    Raises
    ------
    PtkgError
        The file cannot be written; an older file at ``path`` is left as it was.
    """
    try:
        write_atomic(path, text)
    except OSError as error:
        reason = error.strerror or str(error)
        raise PtkgError(f"{path}: cannot write the page ({reason})") from None


def _read_script(script: str | Path) -> str:
    path = Path(script) if isinstance(script, Path) else TEMPLATES / script
    code = path.read_text(encoding="utf8")
    code = re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", code)
    if re.search(r"</script|<!--", code, re.IGNORECASE):
        raise PtkgError(f"{path}: a script that cannot be inlined (it contains </script or <!--)")
    return code


def _node_row(node: str, data: dict) -> dict:
    """A node as the pages' evidence panel reads it (the views add what they draw with)."""
    return {"id": node, "label": data["label"], "name": data["name"],
            "aliases": list(data.get("aliases", [])),
            "props": {k: v for k, v in sorted(data.items())
                      if k not in {"label", "name", "aliases"}}}


def _edge_row(index: dict[str, int], u: str, v: str, key: str, data: dict) -> dict:
    """An edge as the pages' evidence panel reads it: ends by index, (URL, sentence) pairs."""
    return {"from": index[u], "to": index[v], "type": key,
            "evidence": [[url, sentence, evidence_url(url, sentence)] for url, sentence in
                         zip(data.get("sources", []), data.get("evidence", []), strict=False)],
            "props": {k: val for k, val in sorted(data.items())
                      if k not in {"type", "sources", "evidence", "offsets"}}}


def _ordered(present: set[str], order: tuple[str, ...]) -> list[str]:
    return [x for x in order if x in present] + sorted(present - set(order))


def _styles(labels: set[str]) -> dict:
    return {"labels": {label: _label_style(label) for label in _ordered(labels, tuple(LABELS))},
            "stability": STABILITY_COLORS,
            "types": {name: t.color for name, t in RELATION_TYPES.items()}, "edge": EDGE_COLOR}


def _label_style(label: str) -> dict:
    """A label's color and vis-network shape (Okabe-Ito based: distinct for color-blind eyes)."""
    style = LABELS.get(label, OTHER_LABEL)
    dashes = {"dashes": True} if style.dashes else {}
    return {"color": style.color, "shape": style.shape, **dashes}


def post_titles_of(graph: nx.MultiDiGraph) -> dict[str, str]:
    """URL → title of every post of ``graph``."""
    return {data.get("url", node.partition(":")[2]): data["name"]
            for node, data in graph.nodes(data=True) if data["label"] == "Post"}


def _cited_posts(edges: list[dict], titles: dict[str, str]) -> dict[str, str]:
    """The title of each post the edges cite, for the evidence links (the URL when unknown)."""
    urls = sorted({url for edge in edges for url in edge.get("sources", [])})
    return {url: titles.get(url, url) for url in urls}


def _release_library(data: dict) -> str:
    return data.get("library") or data["name"].rpartition(" ")[0] or data["name"]


def _release_key(data: dict) -> tuple:
    library = _release_library(data)
    return (library != CORE_LIBRARY, library.casefold(), version_key(data.get("version", "")),
            data["name"])


def _empty_message(graph: nx.MultiDiGraph, subtitle: str) -> str:
    if graph.number_of_nodes():
        return ""
    if subtitle == "the whole graph":
        return "This graph is empty: it has no nodes. Build one from posts with `ptkg build`."
    return f"Nothing to show: no node is left by this selection ({subtitle})."
