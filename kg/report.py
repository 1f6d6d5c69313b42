"""The "what's new" digest: for each release after a given one, what it brought, with evidence.

``ptkg report --since RELEASE [--library L] --format md|html`` prints (or writes) the summary a
developer advocate writes by hand each release. :func:`whats_new` computes it as plain data
(dataclasses; ``to_dict()`` gives JSON data) from the release-intelligence functions, and
:func:`generate_markdown` / :func:`generate_html` write it:

- the releases of the library after ``since``, in version order (the ``PRECEDES`` chain,
  :func:`ptkg.timeline.timeline`), each compared with the release just before it by
  :func:`ptkg.lifecycle.release_diff`:

  * **new features**, grouped by the stability the release stated (Stable, API-Stable, Beta,
    API-Unstable, Prototype, then not stated): the diff's ``new``;
  * **promotions** and **demotions**: the diff's ``promoted`` and ``demoted``, each with the
    release that stated the old level;
- **deprecations** and **removals**: the release's ``DEPRECATES`` and ``REMOVES`` edges (a
  feature, library, hardware, platform or release);
- **new hardware and platforms supported**: the release's ``SUPPORTS`` edges to a Hardware or
  Platform node that no earlier release of the library supports;
- every line ends with its evidence: the post, linked to the sentence (:func:`ptkg.render.
  evidence_url`, a ``#:~:text=`` fragment), and how many more sentences say it;
- a release that no post of the graph announces says so in one line; a release announced but
  whose features no post lists, and a previous release whose features no post lists (a feature
  shown as new may have come with it), get a gap line (:func:`ptkg.lifecycle.gap_line`).

Deterministic: the same graph gives the same bytes (sorted everywhere, no timestamp). The
HTML page is self-contained and static (no script; a Content-Security-Policy that allows no
request), every text escaped, links made for http(s) URLs only.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

import networkx as nx

from .errors import PtkgError
from .lifecycle import Evidence, edge_evidence, find_node, gap_line, release_coverage, release_diff
from .schema import DEVICE_LABELS, STABILITIES
from .timeline import timeline

#: The order new features are grouped in: stable levels first, then unstable, then unstated.
STABILITY_ORDER = (*sorted(STABILITIES, key=lambda name: -STABILITIES[name].rank), "")
#: How much of a sentence a line quotes.
QUOTE_WIDTH = 160

__all__ = ["Item", "ReleaseReport", "Report", "ReportError", "generate", "generate_html",
           "generate_markdown", "whats_new"]


class ReportError(PtkgError):
    """A ``--since`` release that cannot start a report (another library, the last release)."""


@dataclass(frozen=True)
class Item:
    """One line of a release's report: a feature (or other entity) and its evidence."""

    name: str
    label: str = "Feature"
    stability: str | None = None
    previous_stability: str | None = None  # promotions and demotions: the old level ...
    previous_release: str | None = None  # ... and the release that stated it
    evidence: tuple[Evidence, ...] = ()


@dataclass
class ReleaseReport:
    """What one release brought, against the release before it."""

    release: str
    library: str
    version: str
    date: str | None
    previous: str  # the release it is compared with
    announced_by: tuple[str, ...] = ()  # post URLs (ANNOUNCES)
    new: list[tuple[str, list[Item]]] = field(default_factory=list)  # (stability or "", items)
    promoted: list[Item] = field(default_factory=list)
    demoted: list[Item] = field(default_factory=list)
    deprecated: list[Item] = field(default_factory=list)
    removed: list[Item] = field(default_factory=list)
    supports: list[Item] = field(default_factory=list)  # new hardware and platforms
    gaps: list[str] = field(default_factory=list)

    SECTIONS = ("promoted", "demoted", "deprecated", "removed", "supports")

    @property
    def new_count(self) -> int:
        return sum(len(items) for _, items in self.new)

    @property
    def empty(self) -> bool:
        """Whether the graph knows nothing this release brought."""
        return not self.new_count and not any(getattr(self, s) for s in self.SECTIONS)

    listed: bool = True  # some post lists the release's features (INTRODUCES)

    @property
    def unannounced(self) -> str | None:
        """The one line saying no post announces the release, or None."""
        if self.announced_by:
            return None
        if self.listed:
            return f"no post in the graph announces {self.release}: its facts come from others"
        tail = ("nothing it brought is known" if self.empty
                else "what follows comes from other posts")
        return f"no post in the graph announces {self.release} or lists its features: {tail}"

    def counts(self) -> dict[str, int]:
        return {"new": self.new_count, **{s: len(getattr(self, s)) for s in self.SECTIONS}}


@dataclass
class Report:
    """The digest: the releases of ``library`` after ``since``, oldest first."""

    since: str
    library: str
    releases: list[ReleaseReport] = field(default_factory=list)
    titles: dict[str, str] = field(default_factory=dict)  # post URL -> title

    def to_dict(self) -> dict:
        """Plain JSON data (lists, not tuples)."""
        data = asdict(self)
        data["releases"] = [{**asdict(r), "new": [{"stability": s or None, "features": [
            asdict(i) for i in items]} for s, items in r.new], "unannounced": r.unannounced}
            for r in self.releases]
        return json.loads(json.dumps(data))


# --------------------------------------------------------------------------- computing


def whats_new(graph: nx.MultiDiGraph, since: str, library: str | None = None) -> Report:
    """The digest of every release of the library after ``since`` (any name of a release).

    ``library`` (any of its names) defaults to ``since``'s library; given, ``since`` may be a
    version of it alone ("0.15" with torchvision).

    Raises
    ------
    ptkg.lifecycle.NotFoundError
        ``since`` or ``library`` is not in the graph.
    ReportError
        ``since`` is a release of another library than ``library``.
    """
    start = _since_node(graph, since, library)
    name = graph.nodes[start].get("library") or ""
    lanes = timeline(graph, name, headline_limit=0)
    releases = [r.node for r in lanes[0].releases] if lanes else []
    if start not in releases:
        releases = [start]
    position = releases.index(start)
    report = Report(graph.nodes[start]["name"], name)
    supported: set[str] = set()
    for node in releases[:position + 1]:
        supported.update(_supports(graph, node))
    for before, node in zip(releases[position:], releases[position + 1:], strict=False):
        report.releases.append(_release_report(graph, before, node, supported))
        supported.update(_supports(graph, node))
    urls = sorted({e.url for r in report.releases for item in _items(r) for e in item.evidence}
                  | {u for r in report.releases for u in r.announced_by})
    titles = {d.get("url", n): d["name"] for n, d in graph.nodes(data=True)
              if d["label"] == "Post"}
    report.titles = {url: titles.get(url, url) for url in urls}
    return report


def _since_node(graph: nx.MultiDiGraph, since: str, library: str | None) -> str:
    if library is None:
        return find_node(graph, since, "Release")
    library_name = graph.nodes[find_node(graph, library, "Library")]["name"]
    try:
        node = find_node(graph, since, "Release")
    except PtkgError:
        node = None
    if node is None or graph.nodes[node].get("library") != library_name:
        try:
            node = find_node(graph, f"{library_name} {since}", "Release")
        except PtkgError:
            if node is None:
                raise
    if graph.nodes[node].get("library") != library_name:
        raise ReportError(f"{graph.nodes[node]['name']} is not a release of {library_name}; "
                          f"name one of its releases (e.g. --since \"{library_name} X.Y\")")
    return node


def _supports(graph: nx.MultiDiGraph, release: str) -> dict[str, dict]:
    """Hardware and platform node -> SUPPORTS edge data, for what ``release`` supports."""
    return {target: edge for _, target, key, edge in graph.out_edges(release, keys=True,
                                                                      data=True)
            if key == "SUPPORTS" and graph.nodes[target]["label"] in DEVICE_LABELS}


def _release_report(graph: nx.MultiDiGraph, before: str, node: str,
                    supported: set[str]) -> ReleaseReport:
    data = graph.nodes[node]
    diff = release_diff(graph, graph.nodes[before]["name"], data["name"])
    coverage = release_coverage(graph, node)
    report = ReleaseReport(data["name"], data.get("library", ""), str(data.get("version", "")),
                           data.get("date"), graph.nodes[before]["name"], coverage.announced_by)
    groups: dict[str, list[Item]] = {}
    for entry in diff.new:
        stability = entry.stability if entry.stability in STABILITIES else ""
        groups.setdefault(stability, []).append(
            Item(entry.feature, "Feature", entry.stability, evidence=entry.evidence))
    order = [s for s in STABILITY_ORDER if s in groups] + sorted(
        set(groups) - set(STABILITY_ORDER))
    report.new = [(s, groups[s]) for s in order]
    for category in ("promoted", "demoted"):
        getattr(report, category).extend(
            Item(e.feature, "Feature", e.stability, e.previous_stability, e.previous_release,
                 e.evidence) for e in getattr(diff, category))
    for category in ("deprecated", "removed"):
        getattr(report, category).extend(sorted(
            (Item(e.feature, e.label, evidence=e.evidence) for e in getattr(diff, category)),
            key=_item_key))
    report.supports = sorted((Item(graph.nodes[v]["name"], graph.nodes[v]["label"],
                                   evidence=edge_evidence(edge))
                              for v, edge in _supports(graph, node).items() if v not in supported),
                             key=lambda i: (i.label, *_item_key(i)))
    report.listed = coverage.listed
    if coverage.announced_by:
        line = gap_line(coverage, "what it added or promoted is not known")
        if line:
            report.gaps.append(line)
    line = gap_line(release_coverage(graph, before),
                    f"a feature shown as new in {data['name']} may have come with it")
    if line and report.new:
        report.gaps.append(line)
    return report


def _item_key(item: Item) -> tuple:
    return (item.name.casefold(), item.name, item.label)


def _items(release: ReleaseReport) -> list[Item]:
    return [i for _, items in release.new for i in items] + [
        i for s in ReleaseReport.SECTIONS for i in getattr(release, s)]


# --------------------------------------------------------------------------- text

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")


def _md(text: str) -> str:
    """``text`` with Markdown's special characters escaped (one line).

    Examples
    --------
    >>> _md("torch.compile(*args) <b>")
    'torch.compile(\\\\*args) \\\\<b\\\\>'
    """
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def _md_url(url: str) -> str:
    return url.replace(" ", "%20").replace("(", "%28").replace(")", "%29").replace("<", "%3C") \
        .replace(">", "%3E")


def _quote(sentence: str) -> str:
    from .render import fragment_text

    text = fragment_text(sentence)
    return text if len(text) <= QUOTE_WIDTH else text[:QUOTE_WIDTH - 1].rstrip() + "…"


def _link(evidence: Evidence) -> str:
    from .render import evidence_url

    return evidence_url(evidence.url, evidence.sentence)


def _what(item: Item, kind: str) -> str:
    """The words of a line, before its evidence."""
    label = f" ({item.label})" if item.label != "Feature" else ""
    if kind in ("promoted", "demoted"):
        return (f"{item.name}{label}: {item.previous_stability} ({item.previous_release}) → "
                f"{item.stability}")
    return f"{item.name}{label}"


TITLES = {"promoted": "Promoted", "demoted": "Demoted", "deprecated": "Deprecated",
          "removed": "Removed", "supports": "New hardware and platforms supported"}


def _heading(report: Report) -> tuple[str, str]:
    releases = report.releases
    title = f"What's new in {report.library} since {report.since}"
    if not releases:
        summary = f"{report.since} is the latest release of {report.library} in the graph."
    else:
        summary = (f"{len(releases)} release{'s' if len(releases) != 1 else ''} after "
                   f"{report.since}: {', '.join(r.version or r.release for r in releases)}. "
                   "Each is compared with the release before it; every line links to the "
                   "sentence it was read from.")
    return title, summary


def generate_markdown(report: Report) -> str:
    """The digest as Markdown: one section per release, one line per fact with its evidence."""
    title, summary = _heading(report)
    lines = [f"# {_md(title)}", "", _md(summary)]
    for release in report.releases:
        date = f" ({release.date})" if release.date else ""
        lines += ["", f"## {_md(release.release)}{date}", ""]
        if release.announced_by:
            posts = ", ".join(f"[{_md(report.titles.get(u, u))}]({_md_url(u)})"
                              for u in release.announced_by)
            lines.append(f"Announced by {posts}. Compared with {_md(release.previous)}.")
        else:
            lines.append(f"{_md(release.unannounced[0].upper() + release.unannounced[1:])}.")
        if release.new:
            lines += ["", f"### New features ({release.new_count})"]
            for stability, items in release.new:
                lines += ["", f"**{stability or 'Stability not stated'}**", ""]
                lines += [_md_line(report, item, "new") for item in items]
        for section in ReleaseReport.SECTIONS:
            items = getattr(release, section)
            if items:
                lines += ["", f"### {TITLES[section]} ({len(items)})", ""]
                lines += [_md_line(report, item, section) for item in items]
        if release.gaps:
            lines += [""] + [f"> gap: {_md(gap)}" for gap in release.gaps]
    return "\n".join(lines) + "\n"


def _md_line(report: Report, item: Item, kind: str) -> str:
    text = f"- {_md(_what(item, kind))}"
    if not item.evidence:
        return text + " (no sentence: derived)"
    first = item.evidence[0]
    more = f" (+{len(item.evidence) - 1} more)" if len(item.evidence) > 1 else ""
    source = _md(report.titles.get(first.url, first.url))
    if re.match(r"https?://", first.url, re.IGNORECASE):
        source = f"[{source}]({_md_url(_link(first))})"
    return f"{text}: “{_md(_quote(first.sentence))}” {source}{more}"


CSS = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: #1f2328; margin: 0; background: #fff; }
main { max-width: 920px; margin: 0 auto; padding: 20px 28px 60px; }
h1 { font-size: 24px; margin: 0 0 6px; }
h2 { font-size: 19px; margin: 30px 0 4px; padding-top: 12px; border-top: 1px solid #d0d7de; }
h2 .date { color: #57606a; font-weight: normal; font-size: 15px; }
h3 { font-size: 15px; margin: 16px 0 4px; text-transform: uppercase; letter-spacing: .03em;
  color: #57606a; }
h4 { font-size: 14px; margin: 10px 0 2px; }
ul { margin: 0; padding-left: 22px; }
li { margin: 3px 0; }
.summary, .meta { color: #57606a; }
.name { font-weight: 600; }
.quote { color: #24292f; }
.source { font-size: 13px; }
.gap, .unannounced { background: #fff8c5; border-left: 3px solid #d4a72c; padding: 4px 10px;
  margin: 8px 0; font-size: 14px; }
.stability { display: inline-block; padding: 0 7px; border-radius: 9px; color: #fff;
  font-size: 12px; font-weight: 600; }
"""


def generate_html(report: Report) -> str:
    """The digest as one static, self-contained HTML page (no script, no request)."""
    from .render import STABILITY_COLORS

    esc = html.escape
    title, summary = _heading(report)
    parts = [f"<h1>{esc(title)}</h1>", f'<p class="summary">{esc(summary)}</p>']
    for release in report.releases:
        counts = " ".join(f'data-{k}="{v}"' for k, v in release.counts().items())
        date = f' <span class="date">{esc(release.date)}</span>' if release.date else ""
        parts.append(f'<section class="release" data-release="{esc(release.release)}" '
                     f'data-announced="{len(release.announced_by)}" {counts}>')
        parts.append(f"<h2>{esc(release.release)}{date}</h2>")
        if release.announced_by:
            posts = ", ".join(_html_link(u, report.titles.get(u, u)) for u in release.announced_by)
            parts.append(f'<p class="meta">Announced by {posts}. Compared with '
                         f"{esc(release.previous)}.</p>")
        else:
            line = release.unannounced
            parts.append(f'<p class="unannounced">{esc(line[0].upper() + line[1:])}.</p>')
        if release.new:
            parts.append(f'<h3>New features ({release.new_count})</h3>')
            for stability, items in release.new:
                color = STABILITY_COLORS.get(stability, STABILITY_COLORS[""])
                parts.append(f'<h4><span class="stability" style="background:{esc(color)}">'
                             f"{esc(stability or 'stability not stated')}</span></h4>")
                parts.append(f'<ul data-section="new" data-stability="{esc(stability)}">'
                             + "".join(_html_line(report, i, "new") for i in items) + "</ul>")
        for section in ReleaseReport.SECTIONS:
            items = getattr(release, section)
            if items:
                parts.append(f"<h3>{esc(TITLES[section])} ({len(items)})</h3>")
                parts.append(f'<ul data-section="{section}">'
                             + "".join(_html_line(report, i, section) for i in items) + "</ul>")
        parts += [f'<p class="gap">gap: {esc(gap)}</p>' for gap in release.gaps]
        parts.append("</section>")
    csp = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; "
           "form-action 'none'")
    body = "\n".join(parts)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{esc(csp)}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="generator" content="ptkg report">\n<title>{esc(title)}</title>\n'
            f"<style>{CSS}</style>\n</head>\n"
            f'<body data-ready="true" data-view="report" data-library="{esc(report.library)}" '
            f'data-since="{esc(report.since)}" data-releases="{len(report.releases)}">\n'
            f"<main>\n{body}\n</main>\n</body>\n</html>\n")


def _html_link(url: str, text: str, href: str | None = None) -> str:
    href = href or url
    if not re.match(r"https?://", href, re.IGNORECASE):
        return f'<span class="source">{html.escape(text)}</span>'
    return (f'<a class="source" href="{html.escape(href)}" rel="noopener noreferrer">'
            f"{html.escape(text)}</a>")


def _html_line(report: Report, item: Item, kind: str) -> str:
    esc = html.escape
    text = f'<span class="name">{esc(_what(item, kind))}</span>'
    if not item.evidence:
        return f"<li data-name=\"{esc(item.name)}\">{text} (no sentence: derived)</li>"
    first = item.evidence[0]
    more = f" (+{len(item.evidence) - 1} more)" if len(item.evidence) > 1 else ""
    link = _html_link(first.url, report.titles.get(first.url, first.url), _link(first))
    return (f'<li data-name="{esc(item.name)}">{text}: <span class="quote">'
            f"“{esc(_quote(first.sentence))}”</span> {link}{esc(more)}</li>")


def generate(report: Report, fmt: str) -> str:
    """The digest as ``md``, ``html`` or ``json`` (:meth:`Report.to_dict`) text."""
    if fmt == "json":
        return json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n"
    return generate_html(report) if fmt == "html" else generate_markdown(report)


def write_report(report: Report, path: str | Path, fmt: str) -> str:
    """Write the digest to ``path`` (atomically) as ``md``, ``html`` or ``json``; returns the
    text."""
    from .render import write_html

    text = generate(report, fmt)
    write_html(path, text)
    return text
