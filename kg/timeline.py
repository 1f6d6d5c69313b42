"""The release timeline: each library's releases in version order, with dates and headlines.

:func:`timeline` returns plain data (dataclasses; ``to_dict()`` gives JSON data) for any view
to draw: ``ptkg timeline`` prints it as tables or JSON, and the HTML timeline view
(``ptkg.render.timeline_view_data``, ``ptkg render --timeline``) draws it as lanes, with every
feature (``headline_limit=None``).

- Libraries are ordered by name (case-insensitive), ``PyTorch`` — the core library — first.
- Releases follow the ``PRECEDES`` chain of their library (it is version order); a release the
  chain does not reach (a graph edited by hand) comes after it, in version order.
- ``date`` is the release's date: the earliest date of a post that announces it (``ANNOUNCES``),
  absent when no dated post does.
- ``headlines``: the features the release introduces, Stable first, then Beta, Prototype and
  those with no stated stability; within each, the most read (INTRODUCES ``count``) first, then
  by name; at most ``headline_limit``, or all with ``None`` (``feature_count`` says how many
  there are in all).
- ``node`` (of a release and of a headline's feature) is the node's id in the graph: the INTRODUCES
  edge of a headline is ``graph.edges[release.node, headline.node, "INTRODUCES"]``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import networkx as nx

from .lifecycle import find_node
from .names import version_key
from .schema import CORE_LIBRARY, stability_rank

HEADLINE_LIMIT = 5


@dataclass(frozen=True)
class Headline:
    """A feature a release introduces, with the stability the release stated."""

    feature: str
    node: str  # the feature's node id
    stability: str | None
    url: str | None  # the first post the statement was read from


@dataclass(frozen=True)
class TimelineRelease:
    """One release on the timeline."""

    name: str
    node: str  # the release's node id
    library: str
    version: str
    date: str | None
    previous: str | None  # PRECEDES, from the older release
    next: str | None
    announced_by: tuple[str, ...]  # post URLs (ANNOUNCES)
    released_with: tuple[str, ...]  # the core releases it shipped alongside (RELEASED_WITH)
    feature_count: int
    headlines: tuple[Headline, ...]


@dataclass
class LibraryTimeline:
    """A library's releases in order."""

    library: str
    releases: list[TimelineRelease] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)  # the releases no post lists features of

    def to_dict(self) -> dict:
        return asdict(self)


def timeline(graph: nx.MultiDiGraph, library: str | None = None, *,
             headline_limit: int | None = HEADLINE_LIMIT) -> list[LibraryTimeline]:
    """The releases of every library (or of ``library``, by any name or alias), in order.

    Libraries without releases are left out. Each release lists at most ``headline_limit``
    headline features; ``None`` lists every feature it introduces.

    Raises
    ------
    ptkg.lifecycle.NotFoundError
        ``library`` is not a library of the graph.

    Examples
    --------
    >>> from ptkg.graph import build_graph
    >>> from ptkg.records import Entity, Mention, PostFacts
    >>> post = PostFacts("https://pytorch.org/blog/x/", "x", None, None,
    ...                  [Mention(Entity("Release", f"PyTorch {v}"), v, 0, 1)
    ...                   for v in ("1.10", "1.9")])
    >>> [r.name for r in timeline(build_graph([post]))[0].releases]
    ['PyTorch 1.9', 'PyTorch 1.10']
    """
    if library is not None:
        libraries = [find_node(graph, library, "Library")]
    else:
        libraries = sorted((n for n, d in graph.nodes(data=True) if d["label"] == "Library"),
                           key=lambda n: _library_order(graph.nodes[n]["name"]))
    lanes = []
    for node in libraries:
        releases = _ordered_releases(graph, node)
        if releases or library is not None:
            drawn = [_release(graph, r, headline_limit) for r in releases]
            lanes.append(LibraryTimeline(graph.nodes[node]["name"], drawn,
                                         timeline_gaps(graph.nodes[node]["name"], drawn)))
    return lanes


def timeline_gaps(library: str, releases: list[TimelineRelease]) -> list[str]:
    """One line naming the releases of ``library`` whose features no post of the graph lists
    (their headlines are unknown, not empty); none when every release is listed.

    Examples
    --------
    >>> r = TimelineRelease("PyTorch 2.6", "Release:PyTorch 2.6", "PyTorch", "2.6", None, None,
    ...                     None, (), (), 0, ())
    >>> timeline_gaps("PyTorch", [r])
    ['PyTorch: no post in the graph lists the features of 1 of 1 releases (2.6, none \
announced)']
    """
    unlisted = [r for r in releases if not r.feature_count]
    if not unlisted:
        return []
    versions = [r.version or r.name for r in unlisted]
    shown = ", ".join(versions[:12]) + (f" (+{len(versions) - 12} more)" if len(versions) > 12
                                        else "")
    unannounced = sum(1 for r in unlisted if not r.announced_by)
    announced = ("none announced" if unannounced == len(unlisted) else
                 f"{len(unlisted) - unannounced} announced without a feature list")
    return [f"{library}: no post in the graph lists the features of {len(unlisted)} of "
            f"{len(releases)} releases ({shown}, {announced})"]


def _library_order(name: str) -> tuple:
    return (name != CORE_LIBRARY, name.casefold(), name)


def _ordered_releases(graph: nx.MultiDiGraph, library: str) -> list[str]:
    """The library's releases along the PRECEDES chain, then any it does not reach."""
    releases = sorted((r for _, r, key in graph.out_edges(library, keys=True)
                       if key == "HAS_RELEASE"),
                      key=lambda r: (version_key(graph.nodes[r].get("version", "")), r))
    members = set(releases)
    heads = [r for r in releases if _neighbour(graph, r, "in", members) is None]
    ordered, seen = [], set()
    for head in heads:
        current = head
        while current is not None and current not in seen:
            ordered.append(current)
            seen.add(current)
            current = _neighbour(graph, current, "out", members)
    return ordered + [r for r in releases if r not in seen]


def _neighbour(graph: nx.MultiDiGraph, release: str, direction: str,
               members: set[str] | None = None) -> str | None:
    """The release before (``"in"``) or after (``"out"``) ``release`` on the PRECEDES chain."""
    if direction == "out":
        found = [v for _, v, key in graph.out_edges(release, keys=True) if key == "PRECEDES"]
    else:
        found = [u for u, _, key in graph.in_edges(release, keys=True) if key == "PRECEDES"]
    found = sorted(n for n in found if members is None or n in members)
    return found[0] if found else None


def _release(graph: nx.MultiDiGraph, node: str, limit: int | None) -> TimelineRelease:
    data = graph.nodes[node]
    previous, following = _neighbour(graph, node, "in"), _neighbour(graph, node, "out")
    announced = sorted(graph.nodes[u].get("url", u) for u, _, key in graph.in_edges(node, keys=True)
                       if key == "ANNOUNCES")
    with_core = sorted(graph.nodes[v]["name"] for _, v, key in graph.out_edges(node, keys=True)
                       if key == "RELEASED_WITH")
    features = [(graph.nodes[v]["name"], v, edge.get("stability"), edge.get("count", 0),
                 (edge.get("sources") or [None])[0])
                for _, v, key, edge in graph.out_edges(node, keys=True, data=True)
                if key == "INTRODUCES"]
    features.sort(key=lambda f: (-stability_rank(f[2]), -f[3], f[0].casefold(), f[0],
                                 f[1]))
    return TimelineRelease(
        data["name"], node, data.get("library", ""), data.get("version", ""), data.get("date"),
        graph.nodes[previous]["name"] if previous else None,
        graph.nodes[following]["name"] if following else None,
        tuple(announced), tuple(with_core), len(features),
        tuple(Headline(name, feature, stability, url)
              for name, feature, stability, _, url in features[:limit]))


def timeline_to_dict(lanes: list[LibraryTimeline]) -> dict:
    """The timeline as JSON data: ``{"libraries": [{"library", "releases": [...]}, ...]}``."""
    return {"libraries": [lane.to_dict() for lane in lanes]}


def generate_timeline_text(lanes: list[LibraryTimeline]) -> str:
    """``ptkg timeline``'s tables: per library, its releases with date and headline features."""
    from .output import format_rows

    blocks = []
    for lane in lanes:
        title = f"{lane.library}: {len(lane.releases)} releases"
        rows = [[r.version, r.date, r.feature_count,
                 "; ".join(f"{h.feature} [{h.stability}]" if h.stability else h.feature
                           for h in r.headlines)
                 + ("; …" if r.feature_count > len(r.headlines) else "")]
                for r in lane.releases]
        table = format_rows(["version", "date", "features", "headlines"], rows, "table")
        blocks.append(title + ("\n" + table.rstrip("\n") if rows else ""))
    return "\n\n".join(blocks) + "\n" if blocks else "no releases\n"
