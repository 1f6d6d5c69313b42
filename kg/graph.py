"""The knowledge graph: built from extracted facts, saved as one JSON file.

A ``networkx.MultiDiGraph`` whose node ids are ``"<Label>:<name>"`` (``"Post:<url>"``) and
whose edge key is the relationship type, so (start, type, end) is unique by construction.
Node attributes: ``label``, ``name`` and the properties of ``schema.md``, and ``merged`` when
resolution (:mod:`ptkg.resolve`) merged other names into the node: a sorted list of
``"<name>: <why>"`` (``"GradScalers: plural of GradScaler"``; ``"<name> (<label>): ..."`` for a
name read under another label). Edge attributes: ``type`` and its properties. A fact whose
endpoints' labels, once resolved, do not fit its type under the contract is not added (a Feature
that resolution makes a Hardware keeps no ``INTRODUCES``); nor is one that names a name the
project file rejects. The JSON file has sorted keys and lists and no timestamps: the same input
gives the same bytes.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import networkx as nx

from .errors import GraphFileError
from .files import write_atomic
from .names import MODEL_NUMBER, variant_key, version_key
from .records import Entity, Fact, PostFacts
from .resolve import Resolver, hardware_key, pack_device_families, pack_families
from .schema import (
    DEVICE_LABELS,
    ENDINGS,
    RELATION_TYPES,
    STABILITIES,
    after_previous,
    stability_rank,
)

if TYPE_CHECKING:
    from .curation import Curation

FORMAT = "ptkg-graph"
FORMAT_VERSION = 1


def node_id(label: str, name: str) -> str:
    """The id of a node: ``"Release:PyTorch 1.8"``."""
    return f"{label}:{name}"


def build_graph(results: Iterable[PostFacts],
                curation: Curation | None = None) -> nx.MultiDiGraph:
    """Build the graph from the facts of each post (in any order: the result is the same).

    ``curation`` (:mod:`ptkg.curation`): a project's rejects, labels, names and merges, applied
    when the facts are resolved to nodes.
    """
    results = sorted(results, key=lambda r: r.url)
    resolver = Resolver.from_results(results, curation)
    graph = nx.MultiDiGraph()
    for result in results:
        _add_post(graph, result, resolver)
    _add_releases(graph, resolver)
    _add_variants(graph)
    _add_same_things(graph, resolver)
    _add_feature_stability(graph)
    _add_deprecated(graph)
    _finish_lists(graph)
    _add_previous_stability(graph)
    _add_devices(graph)
    _add_stated_in(graph)
    return graph


def _add_post(graph: nx.MultiDiGraph, result: PostFacts, resolver: Resolver) -> None:
    post = node_id("Post", result.url)
    props = {"url": result.url, "title": result.title, "date": result.date,
             "author": result.author}
    graph.add_node(post, label="Post", name=result.title or result.url,
                   **{k: v for k, v in props.items() if v is not None})
    counts: Counter[Entity] = Counter()
    for mention in result.mentions:
        entity = resolver.resolve(mention.entity)
        if entity is None:
            continue
        counts[entity] += 1
        node = _add_entity(graph, entity, mention.entity, resolver)
        if not mention.local:
            graph.nodes[node]["_aliases"].add(mention.surface)
        if mention.kind and entity.label == "Hardware":
            graph.nodes[node]["kind"] = mention.kind
    for fact in result.facts:
        for entity in (fact.source, fact.target):
            if entity.label != "Post" and (resolved := resolver.resolve(entity)) is not None:
                counts[resolved] += 0
        _add_fact(graph, fact, result.url, resolver)
    for entity, count in counts.items():
        node = _add_entity(graph, entity)
        graph.nodes[node]["mentions"] += max(count, 1)
        graph.add_edge(post, node, key="MENTIONS", type="MENTIONS", count=max(count, 1))


def _add_entity(graph: nx.MultiDiGraph, entity: Entity, read: Entity | None = None,
                resolver: Resolver | None = None) -> str:
    """The node of ``entity``, added when new; ``read`` is the entity as extracted, whose
    merge reason (if any) goes to the node's ``merged``."""
    node = node_id(entity.label, entity.name)
    if node not in graph:
        graph.add_node(node, label=entity.label, name=entity.name, mentions=0, _aliases=set(),
                       _merged=set())
        if entity.label == "Hardware":
            graph.nodes[node]["kind"] = "device"
    if read is not None and resolver is not None and (why := resolver.reason(read)):
        form = read.name if read.label == entity.label else f"{read.name} ({read.label})"
        graph.nodes[node]["_merged"].add(f"{form}: {why}")
        if read.name != entity.name:
            graph.nodes[node]["_aliases"].add(read.name)
    return node


def _add_fact(graph: nx.MultiDiGraph, fact: Fact, url: str, resolver: Resolver) -> bool:
    """Add ``fact``'s edge (or its read to the edge); False when it is not added: a rejected
    endpoint, labels the type does not fit once resolved, or a loop."""
    ends = [(e, resolver.resolve(e) if e.label != "Post" else e)
            for e in (fact.source, fact.target)]
    if any(resolved is None for _, resolved in ends):
        return False
    (source_read, source), (target_read, target) = ends
    if not RELATION_TYPES[fact.type].fits(source.label, target.label) or source == target:
        return False
    start = _endpoint(graph, source, source_read, resolver)
    end = _endpoint(graph, target, target_read, resolver)
    if not graph.has_edge(start, end, key=fact.type):
        graph.add_edge(start, end, key=fact.type, type=fact.type, _reads=[])
    graph.edges[start, end, fact.type]["_reads"].append(
        (url, fact.start, fact.end, fact.evidence, fact.rule, fact.stability, fact.stated,
         target_read.name))
    return True


def _endpoint(graph: nx.MultiDiGraph, entity: Entity, read: Entity, resolver: Resolver) -> str:
    if entity.label == "Post":
        return node_id("Post", entity.name)
    return _add_entity(graph, entity, read, resolver)


def _add_releases(graph: nx.MultiDiGraph, resolver: Resolver | None = None) -> None:
    """Library, version, version order and date of each release; HAS_RELEASE, PRECEDES."""
    by_library: dict[str, list[str]] = defaultdict(list)
    for node, data in list(graph.nodes(data=True)):
        if data["label"] != "Release":
            continue
        library, _, version = data["name"].rpartition(" ")
        data.update(library=library, version=version)
        dates = sorted(date for post, _, key in graph.in_edges(node, keys=True)
                       if key == "ANNOUNCES" and (date := graph.nodes[post].get("date")))
        if dates:
            data["date"] = dates[0]
        entity = Entity("Library", library)
        resolved = resolver.resolve(entity) if resolver else None
        library_node = _add_entity(graph, resolved if resolved and resolved.label == "Library"
                                   else entity)
        graph.add_edge(library_node, node, key="HAS_RELEASE", type="HAS_RELEASE")
        by_library[library].append(node)
    for releases in by_library.values():
        ordered = sorted(releases, key=lambda n: version_key(graph.nodes[n]["version"]))
        for position, release in enumerate(ordered, 1):
            graph.nodes[release]["version_order"] = position  # ORDER BY it: 1.10 after 1.9
        for older, newer in zip(ordered, ordered[1:], strict=False):
            graph.add_edge(older, newer, key="PRECEDES", type="PRECEDES")


#: A product named as its series with a model letter: MI300X and MI300A of the MI300.
_MODEL_LETTER = re.compile(r"(?P<family>.*\d)[A-Z]")
#: A version of a feature or model named as it with a number: FSDP2, FlashAttention-3, Llama 2.
_VERSION = re.compile(r"(?P<family>[^._:()]{3,}?)[- ]?(?P<version>\d+)")
_VARIANT_LABELS = ("Hardware", "Feature", "Model")


def _add_variants(graph: nx.MultiDiGraph) -> None:
    """VARIANT_OF from a product or version to its family when both are nodes of one label: a
    hardware series named with a model letter (MI300X of MI300), the family the alias pack gives
    hardware (H100 of Hopper), a feature's or a model's version (FSDP2 of FSDP, Llama 2 of
    Llama; not a code name: ``torch.float16`` is not a ``torch.float``). A variant stays a node
    of its own: it is another product or version, with its own facts."""
    by_name = {(data["label"], data["name"]): node for node, data in graph.nodes(data=True)
               if data["label"] in _VARIANT_LABELS}
    for (label, name), node in sorted(by_name.items()):
        for family, why in _families(label, name):
            if (label, family) in by_name and family != name:
                graph.add_edge(node, by_name[label, family], key="VARIANT_OF",
                               type="VARIANT_OF", why=why)


def _add_same_things(graph: nx.MultiDiGraph, resolver: Resolver) -> None:
    """SAME_AS from a Feature to the Library or Model it names, the one thing the contract
    keeps as two nodes for a fact only a Feature takes: a release INTRODUCES a Feature
    ("[Stable] TorchElastic now bundled", "(Beta) Wav2Vec2.0 Model")."""
    for feature, other, why in resolver.same_things:
        ends = node_id(feature.label, feature.name), node_id(other.label, other.name)
        if all(end in graph for end in ends):
            graph.add_edge(*ends, key="SAME_AS", type="SAME_AS", why=why)
    for node, backend, why in sorted(_backend_twins(graph)):
        graph.add_edge(node, backend, key="SAME_AS", type="SAME_AS", why=why)


def _backend_twins(graph: nx.MultiDiGraph) -> Iterator[tuple[str, str, str]]:
    """The nodes that are a backend the graph holds as Hardware: the Library of a toolkit's
    releases (CUDA 12.8 of CUDA: a Hardware has no release), a Feature a release introduces
    named as the backend ("[Beta] PyTorch MPS Backend")."""
    for node, data in graph.nodes(data=True):
        if data["label"] == "Library" and any(
                key == "HAS_RELEASE" for _, _, key in graph.out_edges(node, keys=True)):
            backend, why = node_id("Hardware", data["name"]), "its releases (HAS_RELEASE)"
        elif data["label"] == "Feature" and (named := _BACKEND_NAME.fullmatch(data["name"])):
            backend, why = node_id("Hardware", named["backend"]), "a release's INTRODUCES"
        else:
            continue
        if graph.nodes.get(backend, {}).get("kind") == "backend":
            yield node, backend, (f"the same thing; a {data['label']} for {why}, which a "
                                  "Hardware cannot take")


#: A feature named as a backend: "MPS backend", "PyTorch MPS Backend".
_BACKEND_NAME = re.compile(r"(?:PyTorch\s+)?(?P<backend>\S+)\s+[Bb]ackend")


def read_from_posts(key: str, data: dict) -> bool:
    """Whether an edge was read from posts and carries provenance: one of a type the
    extractors read, but a VARIANT_OF made from names, which says ``why`` instead."""
    return RELATION_TYPES[key].extracted and "why" not in data


def same_things(graph: nx.MultiDiGraph, node: str) -> list[str]:
    """The nodes ``SAME_AS`` links ``node`` to, either way (a Feature's Library or Model, a
    Library's or Model's Feature), sorted."""
    return sorted({v for _, v, key in graph.out_edges(node, keys=True) if key == "SAME_AS"}
                  | {u for u, _, key in graph.in_edges(node, keys=True) if key == "SAME_AS"})


def _families(label: str, name: str) -> list[tuple[str, str]]:
    """The families a name says it belongs to, each with why."""
    if label != "Hardware":
        found = _VERSION.fullmatch(name)
        return [(found["family"], f"{name} is {found['family']} {found['version']}")
                ] if found else []
    found = _MODEL_LETTER.fullmatch(name)
    families = [(found["family"], f"{name} is the {found['family']} with a model letter")
                ] if found else []
    key = hardware_key(name)
    if key and (family := pack_families().get(key[0])):
        families.append((family, f"the alias pack gives {name} the family {family}"))
    families.extend((family, f"{name} is a model of the {family} family")
                    for family in pack_device_families()
                    if re.fullmatch(rf"{re.escape(family)}{MODEL_NUMBER}", name))
    return families


def _add_feature_stability(graph: nx.MultiDiGraph) -> None:
    """A feature's ``stability`` is the one its latest release stated.

    Releases of one library are ordered by version; releases of several libraries by date
    first (torchaudio 0.9 came after PyTorch 1.5), then version.
    """
    for node, data in graph.nodes(data=True):
        if data["label"] != "Feature":
            continue
        stated = [(graph.nodes[release], s)
                  for release, _, key, edge in graph.in_edges(node, keys=True, data=True)
                  if key == "INTRODUCES"
                  for s in {read[5] for read in edge["_reads"] if read[5]}]
        if not stated:
            continue
        mixed = len({release.get("library") for release, _ in stated}) > 1
        data["stability"] = max(
            ((release.get("date") or "") if mixed else "",
             version_key(release.get("version", "")), stability_rank(s), s)
            for release, s in stated)[3]


def _add_deprecated(graph: nx.MultiDiGraph) -> None:
    """A feature's ``deprecated`` is the first release that deprecated it (by date, then
    version)."""
    for node, data in graph.nodes(data=True):
        releases = [graph.nodes[r] for r, _, key in graph.in_edges(node, keys=True)
                    if key == "DEPRECATES" and graph.nodes[r]["label"] == "Release"]
        if data["label"] == "Feature" and releases:
            data["deprecated"] = min(releases, key=lambda r: (
                r.get("date") or "9999", version_key(r.get("version", ""))))["name"]


def _finish_lists(graph: nx.MultiDiGraph) -> None:
    """Turn the working sets and reads into the sorted properties of the contract."""
    for _, data in graph.nodes(data=True):
        aliases = data.pop("_aliases", set())
        merged = data.pop("_merged", set())
        if data["label"] != "Post":
            data["aliases"] = sorted(a for a in aliases if a != data["name"])
        if merged:
            data["merged"] = sorted(merged)
    for _, target, key, data in graph.edges(keys=True, data=True):
        reads = sorted(set(data.pop("_reads", [])), key=lambda r: (
            r[0], r[1], r[2], r[4], r[3], r[5] or "", r[6] or "", r[7]))
        if not reads:
            continue
        data["sources"] = [r[0] for r in reads]
        data["evidence"] = [r[3] for r in reads]
        data["offsets"] = [[r[1], r[2]] if r[1] >= 0 else None for r in reads]
        data["rules"] = sorted({r[4] for r in reads})
        data["count"] = len(reads)
        stabilities = [r[5] for r in reads if r[5]]
        if key == "INTRODUCES" and stabilities:
            data["stability"] = Counter(stabilities).most_common(1)[0][0]
            stated = [r[6] for r in reads if r[5] == data["stability"] and r[6]]
            if stated:
                data["stated"] = Counter(stated).most_common(1)[0][0]
        if key == "INTRODUCES" and (named := _named(reads, graph.nodes[target]["name"])):
            data["named"] = named


def _add_previous_stability(graph: nx.MultiDiGraph) -> None:
    """On an INTRODUCES that states a stability, ``previous_stability`` and
    ``previous_release``: the last one an older release of the same library stated for the
    feature (1.10's Stable torch.fx was 1.8's Beta), so that one Cypher match shows a change."""
    for node, data in graph.nodes(data=True):
        if data["label"] != "Feature":
            continue
        stated = sorted((graph.nodes[r]["library"], version_key(graph.nodes[r]["version"]), r)
                        for r, _, key, edge in graph.in_edges(node, keys=True, data=True)
                        if key == "INTRODUCES" and edge.get("stability") in STABILITIES)
        for (_, _, older), (_, _, newer) in after_previous(stated, lambda s: s[0]):
            edge = graph.edges[newer, node, "INTRODUCES"]
            edge["previous_stability"] = graph.edges[older, node, "INTRODUCES"]["stability"]
            edge["previous_release"] = graph.nodes[older]["name"]


def _named(reads: list[tuple], name: str) -> str | None:
    """The name a release's post gave a feature, when it never used the node's own (2.0's
    "Accelerated PyTorch 2 Transformers" is BetterTransformer renamed; 2.2's "FlashAttention-2
    support in ...scaled_dot_product_attention" is the function's news): the name it used
    most, spelling variants aside."""
    own = variant_key(name)[0]
    others = [r[7] for r in reads if variant_key(r[7])[0] != own]
    return Counter(others).most_common(1)[0][0] if others and len(others) == len(reads) \
        else None


def _add_devices(graph: nx.MultiDiGraph) -> None:
    """An INTRODUCES edge's ``devices``: what a post that states it says the feature supports.

    "Which releases support AMD GPUs?" counts a release that introduces a feature its own post
    says supports them, not one whose feature another post says so of later (PyTorch 2.1's
    semi-structured sparsity, said to run on AMD GPUs in the 2.12 post). The names stand
    between bars ("|AMD GPU|ROCm|"): a string the queries test with ``CONTAINS "|" + name +
    "|"``, the one list test that grand-cypher, the compiled executor and Neo4j all run.
    """
    for feature, introduced in _introductions(graph).items():
        supports = [(graph.nodes[device]["name"], set(data["sources"]))
                    for _, device, key, data in graph.out_edges(feature, keys=True, data=True)
                    if key == "SUPPORTS" and graph.nodes[device]["label"] in DEVICE_LABELS]
        for data in introduced:
            said = set(data["sources"])
            devices = {name for name, posts in supports if posts & said}
            if devices:
                data["devices"] = _barred(devices)


def _add_stated_in(graph: nx.MultiDiGraph) -> None:
    """A DEPRECATES or REMOVES edge's ``stated_in``: the releases announced by a post that
    states it without announcing its release, between bars as ``devices`` is.

    The 2.12 post looks back: "Torchscript was deprecated in 2.10". That fact is PyTorch 2.10's,
    and "What does PyTorch 2.12 deprecate?" shows it too, as what its post says. A post that
    announces several releases (torchvision 0.6 and PyTorch/XLA 1.5) does not look back.
    """
    announced: dict[str, set[str]] = {}
    for post, release, key in graph.edges(keys=True):
        if key == "ANNOUNCES":
            announced.setdefault(graph.nodes[post]["url"], set()).add(graph.nodes[release]["name"])
    for release, _, key, data in graph.edges(keys=True, data=True):
        if key in ENDINGS:
            name = graph.nodes[release]["name"]
            others = set().union(*(announced.get(url, set()) for url in data["sources"]
                                   if name not in announced.get(url, ())))
            if others:
                data["stated_in"] = _barred(others)


def _barred(names: set[str]) -> str:
    """Names between bars, sorted: "|AMD GPU|ROCm|", for ``CONTAINS "|" + name + "|"``."""
    return "|" + "|".join(sorted(names)) + "|"


def _introductions(graph: nx.MultiDiGraph) -> dict[str, list[dict]]:
    """Each feature's INTRODUCES edges' data."""
    found: dict[str, list[dict]] = {}
    for _, feature, key, data in graph.edges(keys=True, data=True):
        if key == "INTRODUCES":
            found.setdefault(feature, []).append(data)
    return found


def graph_counts(graph: nx.MultiDiGraph) -> tuple[dict[str, int], dict[str, int]]:
    """Nodes per label and relationships per type in ``graph``, sorted by name."""
    nodes = Counter(data["label"] for _, data in graph.nodes(data=True))
    rels = Counter(str(data.get("type") or key) for _, _, key, data in
                   graph.edges(keys=True, data=True))
    return dict(sorted(nodes.items())), dict(sorted(rels.items()))


def graph_to_dict(graph: nx.MultiDiGraph) -> dict:
    """The graph as plain data: sorted nodes and edges, properties as they are."""
    nodes = [{"id": node, **{k: v for k, v in sorted(data.items())}}
             for node, data in sorted(graph.nodes(data=True))]
    edges = [{"source": u, "target": v, **dict(sorted(data.items()))}
             for u, v, _, data in sorted(graph.edges(keys=True, data=True),
                                         key=lambda e: (e[0], e[2], e[1]))]
    return {"format": FORMAT, "version": FORMAT_VERSION, "nodes": nodes, "edges": edges}


def dict_to_graph(data: dict) -> nx.MultiDiGraph:
    """Rebuild the graph from :func:`graph_to_dict` output."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GraphFileError("not a ptkg graph (no \"format\": \"ptkg-graph\")")
    graph = nx.MultiDiGraph()
    for node in data["nodes"]:
        props = dict(node)
        graph.add_node(props.pop("id"), **props)
    for edge in data["edges"]:
        props = dict(edge)
        source, target = props.pop("source"), props.pop("target")
        graph.add_edge(source, target, key=props["type"], **props)
    return graph


def generate_json(graph: nx.MultiDiGraph) -> str:
    """The graph file's text: deterministic JSON."""
    return json.dumps(graph_to_dict(graph), sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def write_graph(graph: nx.MultiDiGraph, path: str | Path) -> None:
    """Write the graph to ``path`` atomically: a temp file in the same folder, then rename.

    Raises
    ------
    GraphFileError
        The file cannot be written (the old file, if any, is left as it was).
    """
    text = generate_json(graph)
    try:
        write_atomic(path, text)
    except OSError as error:
        reason = error.strerror or str(error)
        raise GraphFileError(f"{path}: cannot write the graph ({reason})") from None


def read_graph(path: str | Path) -> nx.MultiDiGraph:
    """Read a graph file written by :func:`write_graph`.

    Raises
    ------
    GraphFileError
        The file is missing or unreadable, is not UTF-8 JSON (a binary or latin-1 file), or is
        JSON but not a ptkg graph; the message is one line that starts with the path.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise GraphFileError(f"{path}: no such graph file; build one with `ptkg build`") from None
    except OSError as error:
        raise GraphFileError(f"{path}: cannot read ({error.strerror})") from None
    try:
        content = json.loads(data.decode("utf8"))
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError included
        raise GraphFileError(f"{path}: not a ptkg graph file (not UTF-8 JSON)") from None
    try:
        return dict_to_graph(content)
    except GraphFileError as error:
        raise GraphFileError(f"{path}: {error}") from None
    except (ValueError, KeyError, TypeError) as error:
        raise GraphFileError(f"{path}: not a ptkg graph file ({error})") from None
