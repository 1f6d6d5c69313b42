"""Feature lifecycles and release diffs: what each release said of a feature, and what changed.

A feature's stability is a history: every ``(release)-[:INTRODUCES]->(feature)`` edge keeps the
stability that release stated (``Prototype``, ``Beta``, ``Stable``, or none). From those edges:

- :func:`feature_lifecycle`: every release that introduces a feature, in version order (per
  library), with the stability each stated and its evidence (sentence + post URL), the feature's
  current ``stability`` (the graph's: stated by its latest release), and its **changes**: a
  *promotion* when a release states a higher stability (Prototype < Beta < Stable) than the
  previous release of the same library that stated one, a *demotion* when lower. Releases that
  state no stability are listed but neither promote nor demote.
- :func:`release_diff`: two releases ``a`` and ``b`` of one library, ``a`` older. The feature's
  *stability as of a release R* is the one stated by the latest release of the library up to
  and including R that stated one.

  * **new**: ``b`` introduces it and no release of the library up to and including ``a`` did;
  * **promoted** / **demoted**: ``b`` introduces it with a stability higher / lower than its
    stability as of ``a``;
  * **restated**: ``b`` introduces it again with a stability neither higher nor lower than
    its stability as of ``a`` (the 1.10 post's "(Beta) PyTorch Profiler", Beta in 1.9; Beta
    then API-Unstable, the same commitment in the words of 2.8);
  * **only in a**: ``a`` introduces it and ``b`` does not.

Both return dataclasses (``to_dict()`` gives plain JSON data, sorted) and work on any graph
:func:`ptkg.graph.build_graph` made. Releases of different libraries are never compared:
a promotion is within one library.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

import networkx as nx

from .errors import PtkgError
from .explore import NotFoundError, find_nodes, resolve_node
from .graph import node_id, same_things
from .names import version_key
from .schema import CORE_LIBRARY, ENDINGS, STABILITIES, after_previous, change

__all__ = ["Coverage", "NotFoundError", "ReleaseOrderError", "feature_lifecycle", "find_node",
           "gap_line", "graph_coverage", "release_coverage", "release_diff"]


class ReleaseOrderError(PtkgError):
    """Two releases that cannot be diffed: the same one, other libraries, or the wrong order."""


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Evidence:
    """A sentence and the post it was read from."""

    sentence: str
    url: str


@dataclass(frozen=True)
class Statement:
    """What one release said of a feature: its INTRODUCES edge."""

    release: str
    library: str
    version: str
    date: str | None
    stability: str | None
    evidence: tuple[Evidence, ...] = ()
    named: str | None = None  # the name that release's post gave the feature, if another


@dataclass(frozen=True)
class Ending:
    """A release's deprecation or removal of a thing: its DEPRECATES or REMOVES edge."""

    change: str  # DEPRECATES or REMOVES
    release: str
    library: str
    version: str
    date: str | None
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True)
class Change:
    """A promotion or demotion between two releases of one library."""

    kind: str  # "promotion" or "demotion"
    library: str
    from_release: str
    from_stability: str
    to_release: str
    to_stability: str


@dataclass
class Lifecycle:
    """A feature's history across releases."""

    feature: str
    aliases: list[str]
    stability: str | None  # current: stated by its latest release
    libraries: list[str]  # PART_OF
    releases: list[Statement] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)  # one line per library with unlisted releases
    endings: list[Ending] = field(default_factory=list)  # deprecations and removals, by date
    replaced_by: list[str] = field(default_factory=list)  # REPLACES into it: its successors
    replaces: list[str] = field(default_factory=list)  # REPLACES from it: what it succeeded

    @property
    def promotions(self) -> list[Change]:
        return [c for c in self.changes if c.kind == "promotion"]

    @property
    def demotions(self) -> list[Change]:
        return [c for c in self.changes if c.kind == "demotion"]

    def to_dict(self) -> dict:
        data = asdict(self)
        data["promotions"] = [asdict(c) for c in self.promotions]
        data["demotions"] = [asdict(c) for c in self.demotions]
        del data["changes"]
        return data


@dataclass(frozen=True)
class DiffEntry:
    """One feature of a release diff, with the evidence of the statement(s) behind it."""

    feature: str
    stability: str | None  # stated by b (by a for "only in a")
    evidence: tuple[Evidence, ...] = ()
    previous_stability: str | None = None  # as of a (promoted, demoted)
    previous_release: str | None = None  # the release that stated it
    previous_evidence: tuple[Evidence, ...] = ()
    label: str = "Feature"  # what b deprecates or removes may be a platform, a release, ...


@dataclass
class ReleaseDiff:
    """What changed between release ``a`` and release ``b`` of one library."""

    a: str
    b: str
    library: str
    new: list[DiffEntry] = field(default_factory=list)
    promoted: list[DiffEntry] = field(default_factory=list)
    demoted: list[DiffEntry] = field(default_factory=list)
    restated: list[DiffEntry] = field(default_factory=list)  # b states a's stability again
    only_in_a: list[DiffEntry] = field(default_factory=list)
    deprecated: list[DiffEntry] = field(default_factory=list)  # by b: features or anything else
    removed: list[DiffEntry] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)  # a or b: no post lists its features

    CATEGORIES = ("new", "promoted", "demoted", "restated", "only_in_a", "deprecated",
                  "removed")

    def to_dict(self) -> dict:
        return asdict(self)


# --------------------------------------------------------------------------- lookup


def find_node(graph: nx.MultiDiGraph, name: str, label: str) -> str:
    """The node of ``label`` named ``name`` or having it as an alias (any form: case, spacing,
    backticks, ``()``, a ``v`` before a version do not count), through the one resolver
    (:class:`ptkg.explore.NameIndex`).

    A node whose own name matches wins over nodes that have it as an alias. For a release, a
    version written with fewer or more trailing ``.0`` ("PyTorch 2", "pytorch v2.0.0") matches
    when no release matches exactly.

    Raises
    ------
    NotFoundError
        No such node, or several (the message names them, or the closest names).
    """
    return resolve_node(graph, name, label)


# --------------------------------------------------------------------------- coverage


@dataclass(frozen=True)
class Coverage:
    """What the graph knows of one release: the posts that announce it, the features listed."""

    release: str
    library: str
    version: str
    announced_by: tuple[str, ...]  # post URLs (ANNOUNCES)
    features: int  # INTRODUCES edges: features some post lists for it

    @property
    def listed(self) -> bool:
        """Whether some post lists the release's features."""
        return self.features > 0


def release_coverage(graph: nx.MultiDiGraph, release: str) -> Coverage:
    """The :class:`Coverage` of the release node ``release``."""
    data = graph.nodes[release]
    announced = sorted(graph.nodes[u].get("url", u) for u, _, key in
                       graph.in_edges(release, keys=True) if key == "ANNOUNCES")
    features = sum(1 for _, _, key in graph.out_edges(release, keys=True)
                   if key == "INTRODUCES")
    return Coverage(data["name"], data.get("library", ""), str(data.get("version", "")),
                    tuple(announced), features)


def gap_line(coverage: Coverage, what: str = "", own_list: bool = False) -> str | None:
    """One line saying what the graph lacks about a release, or None when a post lists its
    features. ``what`` ends the line: what cannot be known for that reason. With ``own_list``
    (an answer that is the release's list of features), features that only posts about other
    things name are a gap too: the release's own list is not known.

    Examples
    --------
    >>> print(gap_line(Coverage("PyTorch 2.6", "PyTorch", "2.6", (), 0), "nothing to compare"))
    no post in the graph announces PyTorch 2.6 or lists its features: nothing to compare
    >>> gap_line(Coverage("PyTorch 2.6", "PyTorch", "2.6", (), 1), own_list=True).split(": ")[1]
    'the feature listed comes from other posts, so its own list is not known'
    """
    if coverage.listed and own_list and not coverage.announced_by:
        listed = ("the feature listed comes" if coverage.features == 1 else
                  f"the {coverage.features} features listed come")
        text = (f"no post in the graph announces {coverage.release}: {listed} from other "
                "posts, so its own list is not known")
        return f"{text}: {what}" if what else text
    if coverage.listed:
        return None
    if coverage.announced_by:
        posts = len(coverage.announced_by)
        text = (f"{posts} post{'s' if posts > 1 else ''} in the graph announce"
                f"{'' if posts > 1 else 's'} {coverage.release}, but none lists its features")
    else:
        text = f"no post in the graph announces {coverage.release} or lists its features"
    return f"{text}: {what}" if what else text


def _listing(names: list[str], limit: int = 8) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" (+{len(names) - limit} more)" if len(names) > limit else "")


def _library_releases(graph: nx.MultiDiGraph, library: str) -> list[str]:
    """The release nodes of ``library`` (by name), in version order."""
    node = node_id("Library", library)
    releases = [n for _, n, key in graph.out_edges(node, keys=True) if key == "HAS_RELEASE"] \
        if node in graph else []
    return sorted(releases, key=lambda n: (version_key(str(graph.nodes[n].get("version", ""))),
                                           n))


def graph_coverage(graph: nx.MultiDiGraph) -> dict:
    """How much of each library's history the graph's posts cover (``ptkg stats``).

    Returns ``{"posts": N, "posts_without_facts": [urls], "libraries": [{"library",
    "releases", "announced", "listed", "unlisted": [release names]}]}``: per library with
    releases (PyTorch first, then by name), how many releases the graph knows, how many a post
    announces (``ANNOUNCES``), how many have features some post lists (``INTRODUCES``), and
    which have none; a post *without any fact* is a source of no relationship but
    ``MENTIONS`` (it names entities, states nothing about them).
    """
    libraries = []
    names = sorted((d["name"] for _, d in graph.nodes(data=True) if d.get("label") == "Library"),
                   key=lambda n: (n != CORE_LIBRARY, n.casefold(), n))
    for library in names:
        releases = _library_releases(graph, library)
        if not releases:
            continue
        covered = [release_coverage(graph, r) for r in releases]
        libraries.append({
            "library": library, "releases": len(covered),
            "announced": sum(1 for c in covered if c.announced_by),
            "listed": sum(1 for c in covered if c.listed),
            "unlisted": [c.release for c in covered if not c.listed]})
    with_facts = {url for _, _, key, data in graph.edges(keys=True, data=True)
                  if key != "MENTIONS" for url in data.get("sources", [])}
    posts = sorted(d.get("url", n) for n, d in graph.nodes(data=True) if d.get("label") == "Post")
    return {"posts": len(posts), "posts_without_facts": [p for p in posts if p not in with_facts],
            "libraries": libraries}


def lifecycle_gaps(graph: nx.MultiDiGraph, history: list[Statement]) -> list[str]:
    """Per library of ``history``: the releases from the feature's first one on whose features
    no post lists (what they said of the feature is unknown), as one line each."""
    lines = []
    for library in sorted({s.library for s in history if s.library}):
        first = min(version_key(s.version) for s in history if s.library == library)
        unlisted = [graph.nodes[n]["name"] for n in _library_releases(graph, library)
                    if version_key(str(graph.nodes[n].get("version", ""))) > first
                    and not release_coverage(graph, n).listed]
        if unlisted:
            lines.append(f"no post in the graph lists the features of {_listing(unlisted)}: "
                         f"what {'they' if len(unlisted) > 1 else 'it'} stated of this feature "
                         "is not known")
    return lines


# --------------------------------------------------------------------------- lifecycle


def statements(graph: nx.MultiDiGraph, feature: str) -> list[Statement]:
    """The INTRODUCES edges into ``feature`` (a node id), ordered by library, then version."""
    found = []
    for release, _, key, edge in graph.in_edges(feature, keys=True, data=True):
        if key != "INTRODUCES":
            continue
        data = graph.nodes[release]
        found.append(Statement(
            data["name"], data.get("library", ""), data.get("version", ""), data.get("date"),
            edge.get("stability"), edge_evidence(edge), edge.get("named")))
    return sorted(found, key=_release_order)


def endings(graph: nx.MultiDiGraph, node: str) -> list[Ending]:
    """The DEPRECATES and REMOVES edges into ``node``, ordered by library, then version."""
    found = []
    for release, _, key, edge in graph.in_edges(node, keys=True, data=True):
        if key in ENDINGS:
            data = graph.nodes[release]
            found.append(Ending(key, data["name"], data.get("library", ""),
                                data.get("version", ""), data.get("date"), edge_evidence(edge)))
    return sorted(found, key=lambda e: (*_release_order(e), e.change))


def _release_order(statement: Statement | Ending) -> tuple:
    return (statement.library.casefold(), statement.library, version_key(statement.version),
            statement.release)


def edge_evidence(edge: dict) -> tuple[Evidence, ...]:
    """A relationship's sentences, each with the post it was read in."""
    pairs = zip(edge.get("evidence", []), edge.get("sources", []), strict=True)
    return tuple(Evidence(sentence, url) for sentence, url in pairs)


def changes(history: Iterable[Statement]) -> list[Change]:
    """Promotions and demotions: each stated stability against the previous one stated by a
    release of the same library (``history`` in version order).

    Examples
    --------
    >>> said = [Statement("PyTorch 1.8", "PyTorch", "1.8", None, "Prototype"),
    ...         Statement("PyTorch 1.9", "PyTorch", "1.9", None, None),
    ...         Statement("PyTorch 1.10", "PyTorch", "1.10", None, "Stable")]
    >>> [(c.kind, c.from_release, c.to_release) for c in changes(said)]
    [('promotion', 'PyTorch 1.8', 'PyTorch 1.10')]
    """
    stated = [s for s in history if s.stability in STABILITIES]
    return [Change(kind, after.library, before.release, before.stability, after.release,
                   after.stability)
            for before, after in after_previous(stated, lambda s: s.library)
            if (kind := change(before.stability, after.stability)) is not None]


def feature_lifecycle(graph: nx.MultiDiGraph, name: str) -> Lifecycle:
    """The lifecycle of the feature named ``name`` (or having it as an alias).

    Raises
    ------
    NotFoundError
        No feature has that name.
    """
    node = _feature_node(graph, name)
    data = graph.nodes[node]
    history = statements(graph, node)
    libraries = sorted({graph.nodes[v]["name"] for _, v, key in graph.out_edges(node, keys=True)
                        if key == "PART_OF"})
    replaced_by, replaces = replacements(graph, node)
    return Lifecycle(data["name"], list(data.get("aliases", [])), data.get("stability"),
                     libraries, history, changes(history), lifecycle_gaps(graph, history),
                     endings(graph, node), replaced_by, replaces)


def replacements(graph: nx.MultiDiGraph, node: str) -> tuple[list[str], list[str]]:
    """The names of what replaced ``node`` and of what it replaced (``REPLACES``), its own and
    those of the Library or Model it is (``SAME_AS``: functorch's Feature and Library)."""
    same = [node, *same_things(graph, node)]
    by = {graph.nodes[u]["name"] for n in same
          for u, _, key in graph.in_edges(n, keys=True) if key == "REPLACES"}
    of = {graph.nodes[v]["name"] for n in same
          for _, v, key in graph.out_edges(n, keys=True) if key == "REPLACES"}
    return sorted(by), sorted(of)


def _feature_node(graph: nx.MultiDiGraph, name: str) -> str:
    """The Feature named ``name``, else the one Feature that the Library or Model of that name
    is (``SAME_AS``: the lifecycle of the Model Emformer is its Feature "Emformer Module")."""
    try:
        return find_node(graph, name, "Feature")
    except NotFoundError:
        same = sorted({u for node in find_nodes(graph, name) for u in same_things(graph, node)
                       if graph.nodes[u]["label"] == "Feature"})
        if len(same) != 1:
            raise
        return same[0]


# --------------------------------------------------------------------------- diff


def release_diff(graph: nx.MultiDiGraph, a: str, b: str) -> ReleaseDiff:
    """What changed from release ``a`` to release ``b`` (names or aliases) of one library.

    Raises
    ------
    NotFoundError
        A release is not in the graph.
    ReleaseOrderError
        ``a`` and ``b`` are the same release, of different libraries, or ``a`` is not older.
    """
    node_a, node_b = find_node(graph, a, "Release"), find_node(graph, b, "Release")
    ra, rb = graph.nodes[node_a], graph.nodes[node_b]
    if node_a == node_b:
        raise ReleaseOrderError(f"{ra['name']!r} is compared with itself; name two releases")
    if ra["library"] != rb["library"]:
        raise ReleaseOrderError(f"{ra['name']} and {rb['name']} are releases of different "
                                "libraries; compare two releases of one library")
    if version_key(ra["version"]) >= version_key(rb["version"]):
        raise ReleaseOrderError(f"{ra['name']} does not come before {rb['name']}; "
                                "give the older release first")
    library = ra["library"]
    releases = [n for _, n, key in graph.out_edges(node_id("Library", library), keys=True)
                if key == "HAS_RELEASE"] or [node_a, node_b]
    up_to_a = {n for n in releases
               if version_key(graph.nodes[n]["version"]) <= version_key(ra["version"])}
    introduced_a = _introduced(graph, node_a)
    introduced_b = _introduced(graph, node_b)
    before: dict[str, set] = {}
    as_of_a: dict[str, tuple[tuple, str, str, tuple[Evidence, ...]]] = {}
    for release in up_to_a:
        rank = version_key(graph.nodes[release]["version"])
        for feature, edge in _introduced(graph, release).items():
            before.setdefault(feature, set()).add(release)
            stability = edge.get("stability")
            if stability in STABILITIES and (
                    feature not in as_of_a or as_of_a[feature][0] < rank):
                as_of_a[feature] = (rank, stability, graph.nodes[release]["name"],
                                    edge_evidence(edge))
    diff = ReleaseDiff(ra["name"], rb["name"], library)
    for node, what in ((node_b, f"the diff cannot show what {rb['name']} added or promoted"),
                       (node_a, f"the diff cannot show what {rb['name']} dropped")):
        line = gap_line(release_coverage(graph, node), what, own_list=True)
        if line:
            diff.gaps.append(line)
    for feature, edge in introduced_b.items():
        entry = DiffEntry(graph.nodes[feature]["name"], edge.get("stability"), edge_evidence(edge))
        if feature not in before:
            diff.new.append(entry)
            continue
        stability = edge.get("stability")
        if stability not in STABILITIES or feature not in as_of_a:
            continue
        _, previous, previous_release, previous_evidence = as_of_a[feature]
        kind = change(previous, stability)
        entry = DiffEntry(entry.feature, stability, entry.evidence, previous, previous_release,
                          previous_evidence)
        {"promotion": diff.promoted, "demotion": diff.demoted, None: diff.restated}[
            kind].append(entry)
    for feature, edge in introduced_a.items():
        if feature not in introduced_b:
            diff.only_in_a.append(DiffEntry(graph.nodes[feature]["name"],
                                             edge.get("stability"), edge_evidence(edge)))
    for _, ended, key, edge in graph.out_edges(node_b, keys=True, data=True):
        if key in ENDINGS:
            category = diff.deprecated if key == "DEPRECATES" else diff.removed
            category.append(DiffEntry(graph.nodes[ended]["name"], None, edge_evidence(edge),
                                      label=graph.nodes[ended]["label"]))
    for category in ReleaseDiff.CATEGORIES:
        getattr(diff, category).sort(key=lambda e: (e.feature.casefold(), e.feature))
    return diff


def _introduced(graph: nx.MultiDiGraph, release: str) -> dict[str, dict]:
    """Feature node -> INTRODUCES edge data, for the features ``release`` introduces."""
    return {feature: edge for _, feature, key, edge in graph.out_edges(release, keys=True,
                                                                        data=True)
            if key == "INTRODUCES"}


# --------------------------------------------------------------------------- text

SENTENCE_WIDTH = 100


def generate_lifecycle_text(lifecycle: Lifecycle) -> str:
    """``ptkg lifecycle``'s table: the releases with stability and evidence, then the changes."""
    from .output import format_rows

    lines = [f"Feature: {lifecycle.feature}"]
    if lifecycle.aliases:
        lines.append(f"aliases: {', '.join(lifecycle.aliases)}")
    for title, names in (("part of", lifecycle.libraries), ("replaced by", lifecycle.replaced_by),
                         ("replaces", lifecycle.replaces)):
        if names:
            lines.append(f"{title}: {', '.join(names)}")
    lines.append(f"current stability: {lifecycle.stability or 'not stated'}")
    if not lifecycle.releases:
        lines.append("no release introduces it")
        return "\n".join([*lines, *_endings_text(lifecycle.endings)]) + "\n"
    renamed = any(s.named for s in lifecycle.releases)  # a column only when a post renamed it
    rows = []
    for statement in lifecycle.releases:
        cells = [statement.release, statement.date, statement.stability,
                 *([statement.named] if renamed else [])]
        for i, evidence in enumerate(statement.evidence or (Evidence("", ""),)):
            rows.append([*(cells if i == 0 else ["", *[None] * (len(cells) - 1)]),
                         evidence.url, _short(evidence.sentence)])
    header = ["release", "date", "stability", *(["named"] if renamed else []), "post", "evidence"]
    lines.append(format_rows(header, rows, "table").rstrip("\n"))
    for title, found in (("promotions", lifecycle.promotions),
                         ("demotions", lifecycle.demotions)):
        text = "; ".join(f"{c.from_release} {c.from_stability} -> {c.to_release} "
                         f"{c.to_stability}" for c in found)
        lines.append(f"{title}: {text or 'none'}")
    return "\n".join([*lines, *_endings_text(lifecycle.endings)]) + "\n"


def _endings_text(found: list[Ending]) -> list[str]:
    """The deprecations and removals of a lifecycle, as a table after a title line."""
    from .output import format_rows

    if not found:
        return ["deprecations and removals: none"]
    rows = [[ending.change if i == 0 else "", ending.release if i == 0 else "",
             ending.date if i == 0 else None, evidence.url, _short(evidence.sentence)]
            for ending in found for i, evidence in enumerate(ending.evidence)]
    return ["deprecations and removals:", format_rows(["change", "release", "date", "post",
                                                  "evidence"], rows, "table").rstrip("\n")]


def generate_diff_text(diff: ReleaseDiff) -> str:
    """``ptkg diff``'s table: one row per feature and category, with its first evidence."""
    from .output import format_rows

    counts = [f"{len(diff.new)} new", f"{len(diff.promoted)} promoted",
              f"{len(diff.demoted)} demoted", f"{len(diff.restated)} restated",
              f"{len(diff.only_in_a)} only in {diff.a}",
              f"{len(diff.deprecated)} deprecated", f"{len(diff.removed)} removed"]
    lines = [f"{diff.a} -> {diff.b}: {', '.join(counts)}"]
    rows = []
    for category, title in (("new", "new"), ("promoted", "promoted"), ("demoted", "demoted"),
                            ("restated", "restated"), ("only_in_a", f"only in {diff.a}"),
                            ("deprecated", "deprecated"), ("removed", "removed")):
        for entry in getattr(diff, category):
            stability = entry.stability
            if entry.previous_stability:
                stability = (f"{entry.previous_stability} ({entry.previous_release}) -> "
                             f"{entry.stability}")
            first = entry.evidence[0] if entry.evidence else Evidence("", "")
            more = f" (+{len(entry.evidence) - 1} more)" if len(entry.evidence) > 1 else ""
            rows.append([title, entry.feature, stability, first.url,
                         _short(first.sentence) + more])
    if rows:
        lines.append(format_rows(["change", "feature", "stability", "post", "evidence"], rows,
                                 "table").rstrip("\n"))
    return "\n".join(lines) + "\n"


def _short(sentence: str, width: int = SENTENCE_WIDTH) -> str:
    """A sentence cut to ``width`` characters for a table cell.

    Examples
    --------
    >>> _short("abcdef", 4)
    'abc…'
    """
    return sentence if len(sentence) <= width else sentence[:width - 1].rstrip() + "…"
