"""Tests of ptkg.lifecycle (feature lifecycles, release diffs) and the lifecycle/diff commands.

Four kinds of graph: hand-built from PostFacts here (known promotions), the hand-made graph of
``tests/data/graph.json`` (the shared test graph, real sentences), the 1.8/1.9/1.10 release posts
of the corpus (lifecycles read by hand from the posts), and a graph built from the gold
annotations (answers computed from the gold files directly).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from ptkg.cli import main
from ptkg.extractors.pipeline import run_extraction
from ptkg.graph import build_graph, node_id, write_graph
from ptkg.lifecycle import (
    NotFoundError,
    ReleaseOrderError,
    changes,
    feature_lifecycle,
    find_node,
    release_diff,
)
from ptkg.names import name_key, version_key
from ptkg.readers import read_posts
from ptkg.records import Entity, Fact, Mention, PostFacts
from ptkg.resolve import Resolver

BLOG = "https://pytorch.org/blog/"
URL_18 = BLOG + "pytorch-1.8-released/"
GOLD = Path(__file__).resolve().parent / "gold"
STABILITY_RANK = {"Prototype": 0, "Beta": 1, "Stable": 2}


def run(*args, catch: bool = True):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch)


# --------------------------------------------------------------------------- hand-built graphs


def release_post(release: str, features: dict[str, str | None], date: str | None = None,
                 ) -> PostFacts:
    """The post announcing ``release``, which introduces ``features`` (name -> stability)."""
    url = BLOG + name_key(release) + "/"
    target = Entity("Release", release)
    facts = [Fact("ANNOUNCES", Entity("Post", url), target, "test.rule", -1, -1, release)]
    mentions = [Mention(target, release, 0, len(release))]
    for name, stability in features.items():
        sentence = f"({stability}) {name} in {release}" if stability else f"{name} in {release}"
        facts.append(Fact("INTRODUCES", target, Entity("Feature", name), "test.rule", 0,
                          len(sentence), sentence, stability))
        mentions.append(Mention(Entity("Feature", name), name, 0, len(name)))
    return PostFacts(url, f"{release} is out", date, None, mentions, facts)


# Zero: Prototype -> Beta -> Stable. Hook: Beta, unstated, Stable (a promotion 1.8 -> 1.10).
# Down: Stable -> Beta (a demotion). Late: first in 1.9. Gone: only 1.8 and 1.9.
# Shared: Prototype in PyTorch 1.8, Stable in torchvision 0.9 (other library: no change).
HAND = {
    "PyTorch 1.8": ({"Zero": "Prototype", "Hook": "Beta", "Down": "Stable", "Gone": "Beta",
                     "Shared": "Prototype", "Plain": None}, "2021-03-04"),
    "PyTorch 1.9": ({"Zero": "Beta", "Hook": None, "Late": "Prototype", "Gone": "Beta",
                     "Plain": None}, "2021-06-15"),
    "PyTorch 1.10": ({"Zero": "Stable", "Hook": "Stable", "Down": "Beta", "Late": "Beta",
                      "Fresh": "Beta", "Plain": None}, "2021-10-21"),
    "torchvision 0.9": ({"Shared": "Stable"}, "2021-03-04"),
}


@pytest.fixture
def hand_graph() -> nx.MultiDiGraph:
    return build_graph([release_post(r, f, d) for r, (f, d) in HAND.items()])


def history(lifecycle) -> list[tuple[str, str | None]]:
    return [(s.release, s.stability) for s in lifecycle.releases]


def change_list(found) -> list[tuple[str, str, str, str, str]]:
    return [(c.kind, c.from_release, c.from_stability, c.to_release, c.to_stability)
            for c in found]


@pytest.mark.parametrize(("feature", "releases", "expected"), [
    ("Zero", [("PyTorch 1.8", "Prototype"), ("PyTorch 1.9", "Beta"), ("PyTorch 1.10", "Stable")],
     [("promotion", "PyTorch 1.8", "Prototype", "PyTorch 1.9", "Beta"),
      ("promotion", "PyTorch 1.9", "Beta", "PyTorch 1.10", "Stable")]),
    ("Hook", [("PyTorch 1.8", "Beta"), ("PyTorch 1.9", None), ("PyTorch 1.10", "Stable")],
     [("promotion", "PyTorch 1.8", "Beta", "PyTorch 1.10", "Stable")]),
    ("Down", [("PyTorch 1.8", "Stable"), ("PyTorch 1.10", "Beta")],
     [("demotion", "PyTorch 1.8", "Stable", "PyTorch 1.10", "Beta")]),
    ("Shared", [("PyTorch 1.8", "Prototype"), ("torchvision 0.9", "Stable")], []),
    ("Plain", [("PyTorch 1.8", None), ("PyTorch 1.9", None), ("PyTorch 1.10", None)], []),
], ids=["prototype-beta-stable", "unstated-between", "demotion", "two-libraries", "unstated"])
def test_feature_lifecycle_hand_graph(hand_graph, feature, releases, expected):
    found = feature_lifecycle(hand_graph, feature)
    assert history(found) == releases
    assert change_list(found.changes) == expected
    assert change_list(found.promotions) == [c for c in expected if c[0] == "promotion"]
    assert change_list(found.demotions) == [c for c in expected if c[0] == "demotion"]


@pytest.mark.parametrize(("release", "feature", "previous"), [
    ("PyTorch 1.9", "Zero", ("Prototype", "PyTorch 1.8")),
    ("PyTorch 1.10", "Hook", ("Beta", "PyTorch 1.8")),  # 1.9 stated none
    ("PyTorch 1.8", "Zero", (None, None)),  # the first statement
    ("torchvision 0.9", "Shared", (None, None)),  # another library's
    ("PyTorch 1.10", "Plain", (None, None)),  # no stability stated
], ids=["last-release", "skips-unstated", "first", "other-library", "unstated"])
def test_introduces_carries_the_stability_stated_before(hand_graph, release, feature, previous):
    """An INTRODUCES that states a stability carries the last one an older release of the same
    library stated, so that one Cypher match (release-diff) shows a promotion."""
    edge = hand_graph.edges[f"Release:{release}", f"Feature:{feature}", "INTRODUCES"]
    assert (edge.get("previous_stability"), edge.get("previous_release")) == previous


def test_feature_lifecycle_evidence_and_dates(hand_graph):
    found = feature_lifecycle(hand_graph, "zero")
    first = found.releases[0]
    assert (first.library, first.version, first.date) == ("PyTorch", "1.8", "2021-03-04")
    assert [(e.sentence, e.url) for e in first.evidence] == [
        ("(Prototype) Zero in PyTorch 1.8", BLOG + "pytorch1.8/")]
    assert found.stability == "Stable"


def test_feature_lifecycle_to_dict_is_json(hand_graph):
    data = json.loads(json.dumps(feature_lifecycle(hand_graph, "Hook").to_dict()))
    assert data["feature"] == "Hook"
    assert [r["release"] for r in data["releases"]] == ["PyTorch 1.8", "PyTorch 1.9",
                                                        "PyTorch 1.10"]
    assert data["promotions"] == [{"kind": "promotion", "library": "PyTorch",
                                   "from_release": "PyTorch 1.8", "from_stability": "Beta",
                                   "to_release": "PyTorch 1.10", "to_stability": "Stable"}]
    assert data["demotions"] == []
    assert "changes" not in data


def test_feature_lifecycle_unknown_name_lists_closest(hand_graph):
    with pytest.raises(NotFoundError, match=r"^no Feature named 'Zer0'; closest: Zero"):
        feature_lifecycle(hand_graph, "Zer0")


def test_feature_lifecycle_release_name_is_not_a_feature(hand_graph):
    with pytest.raises(NotFoundError):
        feature_lifecycle(hand_graph, "PyTorch 1.8")


def test_feature_lifecycle_of_a_model_is_its_features():
    """The Model Emformer is the Feature "Emformer Module" a release introduces (SAME_AS):
    its lifecycle is that Feature's; a Model linked to no Feature is still no feature."""
    model = Entity("Model", "Emformer")
    post = release_post("torchaudio 0.10", {"Emformer Module": "Prototype"}, "2021-10-21")
    post.mentions.append(Mention(model, "Emformer", 0, 8))
    other = Mention(Entity("Model", "Conformer"), "Conformer", 0, 9)
    post.mentions.append(other)
    graph = build_graph([post])
    assert graph.has_edge("Feature:Emformer Module", "Model:Emformer", "SAME_AS")
    found = feature_lifecycle(graph, "Emformer")
    assert found.feature == "Emformer Module"
    assert history(found) == [("torchaudio 0.10", "Prototype")]
    with pytest.raises(NotFoundError):
        feature_lifecycle(graph, "Conformer")


def test_changes_ignores_unstated_stability():
    assert changes([]) == []


def diff_sets(diff) -> dict[str, set]:
    return {
        "new": {(e.feature, e.stability) for e in diff.new},
        "promoted": {(e.feature, e.previous_stability, e.previous_release, e.stability)
                     for e in diff.promoted},
        "demoted": {(e.feature, e.previous_stability, e.previous_release, e.stability)
                    for e in diff.demoted},
        "restated": {(e.feature, e.previous_stability, e.previous_release, e.stability)
                     for e in diff.restated},
        "only_in_a": {(e.feature, e.stability) for e in diff.only_in_a},
    }


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("PyTorch 1.9", "PyTorch 1.10", {
        "new": {("Fresh", "Beta")},
        "promoted": {("Zero", "Beta", "PyTorch 1.9", "Stable"),
                     ("Hook", "Beta", "PyTorch 1.8", "Stable"),
                     ("Late", "Prototype", "PyTorch 1.9", "Beta")},
        "demoted": {("Down", "Stable", "PyTorch 1.8", "Beta")},
        "restated": set(),
        "only_in_a": {("Gone", "Beta")},
    }),
    ("PyTorch 1.8", "PyTorch 1.10", {
        "new": {("Late", "Beta"), ("Fresh", "Beta")},
        "promoted": {("Zero", "Prototype", "PyTorch 1.8", "Stable"),
                     ("Hook", "Beta", "PyTorch 1.8", "Stable")},
        "demoted": {("Down", "Stable", "PyTorch 1.8", "Beta")},
        "restated": set(),
        "only_in_a": {("Gone", "Beta"), ("Shared", "Prototype")},
    }),
    ("PyTorch 1.8", "PyTorch 1.9", {
        "new": {("Late", "Prototype")},
        "promoted": {("Zero", "Prototype", "PyTorch 1.8", "Beta")},
        "demoted": set(),
        "restated": {("Gone", "Beta", "PyTorch 1.8", "Beta")},  # said again, as it was
        "only_in_a": {("Down", "Stable"), ("Shared", "Prototype")},
    }),
], ids=["1.9-1.10", "1.8-1.10-skips-a-release", "1.8-1.9"])
def test_release_diff_hand_graph(hand_graph, a, b, expected):
    assert diff_sets(release_diff(hand_graph, a, b)) == expected


def test_release_diff_evidence_links(hand_graph):
    diff = release_diff(hand_graph, "PyTorch 1.9", "PyTorch 1.10")
    (hook,) = [e for e in diff.promoted if e.feature == "Hook"]
    assert [(e.sentence, e.url) for e in hook.evidence] == [
        ("(Stable) Hook in PyTorch 1.10", BLOG + "pytorch1.10/")]
    assert [(e.sentence, e.url) for e in hook.previous_evidence] == [
        ("(Beta) Hook in PyTorch 1.8", BLOG + "pytorch1.8/")]
    data = json.loads(json.dumps(diff.to_dict()))
    assert (data["a"], data["b"], data["library"]) == ("PyTorch 1.9", "PyTorch 1.10", "PyTorch")
    assert [e["feature"] for e in data["promoted"]] == ["Hook", "Late", "Zero"]


@pytest.mark.parametrize(("a", "b", "message"), [
    ("PyTorch 1.9", "PyTorch 1.9", "compared with itself"),
    ("PyTorch 1.8", "torchvision 0.9", "different libraries"),
    ("PyTorch 1.10", "PyTorch 1.9", "PyTorch 1.10 does not come before PyTorch 1.9"),
], ids=["same", "other-library", "wrong-order"])
def test_release_diff_bad_pair_raises(hand_graph, a, b, message):
    with pytest.raises(ReleaseOrderError, match=message):
        release_diff(hand_graph, a, b)


@pytest.mark.parametrize("name", ["PyTorch 1.10", "pytorch v1.10", "PYTORCH 1.10", "PyTorch 1.10.0",
                                  "`PyTorch 1.10`"])
def test_find_node_release_by_any_form(hand_graph, name):
    assert find_node(hand_graph, name, "Release") == node_id("Release", "PyTorch 1.10")


def test_find_node_unknown_release(hand_graph):
    with pytest.raises(NotFoundError, match=r"^no Release named 'PyTorch 3.0'; closest: "):
        find_node(hand_graph, "PyTorch 3.0", "Release")


# --------------------------------------------------------------------------- the hand-made graph


@pytest.mark.parametrize("name", ["torch.fx", "FX", "`torch.fx`"])
def test_feature_lifecycle_handmade_torch_fx_beta_in_18(handmade_graph, name):
    found = feature_lifecycle(handmade_graph, name)
    assert found.feature == "torch.fx"
    assert history(found) == [("PyTorch 1.8", "Beta"), ("PyTorch 1.10", "Stable")]
    assert [(e.sentence, e.url) for e in found.releases[0].evidence] == [
        ("[Beta] Python code Transformations with FX", URL_18)]
    assert found.stability == "Stable"
    assert change_list(found.changes) == [
        ("promotion", "PyTorch 1.8", "Beta", "PyTorch 1.10", "Stable")]


def test_feature_lifecycle_handmade_zero_redundancy_optimizer(handmade_graph):
    found = feature_lifecycle(handmade_graph, "ZeroRedundancyOptimizer")
    assert history(found) == [("PyTorch 1.8", "Prototype"), ("PyTorch 1.9", "Beta"),
                              ("PyTorch 1.10", "Stable")]
    assert [s.date for s in found.releases] == ["2021-03-04", "2021-06-15", "2021-10-21"]
    assert change_list(found.promotions) == [
        ("promotion", "PyTorch 1.8", "Prototype", "PyTorch 1.9", "Beta"),
        ("promotion", "PyTorch 1.9", "Beta", "PyTorch 1.10", "Stable")]
    assert found.demotions == []


def introduced(graph, release: str) -> set[tuple[str, str | None]]:
    return {(graph.nodes[v]["name"], d.get("stability"))
            for _, v, k, d in graph.out_edges(node_id("Release", release), keys=True, data=True)
            if k == "INTRODUCES"}


def test_release_diff_handmade_15_18(handmade_graph):
    diff = release_diff(handmade_graph, "PyTorch 1.5", "PyTorch 1.8")
    assert {(e.feature, e.stability) for e in diff.new} == introduced(handmade_graph,
                                                                      "PyTorch 1.8")
    assert ("torch.fx", "Beta") in {(e.feature, e.stability) for e in diff.new}
    assert diff.promoted == diff.demoted == []
    assert {(e.feature, e.stability) for e in diff.only_in_a} == introduced(handmade_graph,
                                                                           "PyTorch 1.5") == set()


def test_release_diff_handmade_19_110(handmade_graph):
    diff = release_diff(handmade_graph, "PyTorch 1.9", "PyTorch 1.10")
    assert [(e.feature, e.stability) for e in diff.new] == [("CUDA Graphs", "Beta")]
    assert [(e.feature, e.previous_release, e.stability) for e in diff.promoted] == [
        ("torch.fx", "PyTorch 1.8", "Stable"), ("ZeroRedundancyOptimizer", "PyTorch 1.9", "Stable")]
    assert diff.demoted == []
    assert [(e.feature, e.stability) for e in diff.only_in_a] == [
        ("torch.linalg", "Stable"), ("TorchElastic", "Beta")]


# --------------------------------------------------------------------------- the corpus

RELEASE_POSTS = ["pytorch-1.8-released", "pytorch-1.9-released", "pytorch-1.10-released"]


@pytest.fixture(scope="module")
def corpus_release_graph(corpus_dir) -> nx.MultiDiGraph:
    """The graph of the 1.8, 1.9 and 1.10 release posts (English model)."""
    urls = {BLOG + slug + "/" for slug in RELEASE_POSTS}
    posts = [p for p in read_posts([corpus_dir / "pytorch_blog.jsonl"]) if p.url in urls]
    assert len(posts) == len(urls)
    return build_graph(run_extraction(posts, model="en_core_web_sm"))


# Read by hand from the posts' marked headings and bullets.
CORPUS_LIFECYCLES = {
    "ZeroRedundancyOptimizer": [("PyTorch 1.8", "Prototype"), ("PyTorch 1.9", "Beta"),
                                ("PyTorch 1.10", "Stable")],
    "torch.fx": [("PyTorch 1.8", "Beta"), ("PyTorch 1.10", "Stable")],
    "Remote Module": [("PyTorch 1.8", "Prototype"), ("PyTorch 1.10", "Stable")],
    "DDP Communication Hook": [("PyTorch 1.8", "Beta"), ("PyTorch 1.10", "Stable")],
    "torch.linalg": [("PyTorch 1.8", "Beta"), ("PyTorch 1.9", "Stable")],
    "torch.special": [("PyTorch 1.9", "Beta"), ("PyTorch 1.10", "Stable")],
    "Profile-directed typing in TorchScript": [("PyTorch 1.9", "Prototype"),
                                               ("PyTorch 1.10", "Beta")],
    "PyTorch Profiler": [("PyTorch 1.9", "Beta"), ("PyTorch 1.10", "Beta")],
}


@pytest.mark.parametrize(("feature", "releases"), list(CORPUS_LIFECYCLES.items()),
                         ids=list(CORPUS_LIFECYCLES))
def test_feature_lifecycle_corpus_release_posts(corpus_release_graph, feature, releases):
    found = feature_lifecycle(corpus_release_graph, feature)
    assert history(found) == releases
    stated = [s for _, s in releases]
    expected = ["promotion" if STABILITY_RANK[b] > STABILITY_RANK[a] else "demotion"
                for a, b in zip(stated, stated[1:], strict=False) if a != b]
    assert [c.kind for c in found.changes] == expected
    assert found.stability == releases[-1][1]


def gold_introductions(paths: list[Path], release: str) -> dict[str, str | None]:
    """name key of each of a gold feature's names -> the stability the release states."""
    found = {}
    for path in paths:
        data = json.loads(path.read_text(encoding="utf8"))
        names = {e["name"]: [e["name"], *e.get("also", [])] for e in data["entities"]}
        for relation in data["relations"]:
            if relation["type"] == "INTRODUCES" and relation["source"] == ["Release", release]:
                for name in names.get(relation["target"][1], [relation["target"][1]]):
                    found[name_key(name)] = relation.get("stability")
    return found


def test_release_diff_corpus_agrees_with_gold(corpus_release_graph):
    """Diff 1.9 -> 1.10 of the extracted graph: every stability stated for 1.10 is the gold's,
    and the promotions are the ones read by hand (1.8 and 1.9 states, 1.10 gold)."""
    gold = gold_introductions([GOLD / "releases" / "pytorch-1.10-released.json"], "PyTorch 1.10")
    diff = release_diff(corpus_release_graph, "PyTorch 1.9", "PyTorch 1.10")
    stated = {e.feature: e.stability for e in diff.new + diff.promoted + diff.demoted}
    assert {f: s for f, s in stated.items() if name_key(f) in gold} == {
        f: gold[name_key(f)] for f in stated if name_key(f) in gold}
    assert {(e.feature, e.previous_stability, e.stability) for e in diff.promoted} >= {
        ("DDP Communication Hook", "Beta", "Stable"), ("Remote Module", "Prototype", "Stable"),
        ("torch.fx", "Beta", "Stable"), ("torch.special", "Beta", "Stable"),
        ("ZeroRedundancyOptimizer", "Beta", "Stable"),
        ("Profile-directed typing in TorchScript", "Prototype", "Beta")}
    assert diff.demoted == []
    assert {e.feature for e in diff.only_in_a} >= {
        "Complex Autograd", "TorchScript Module Freezing", "torch.package"}


def test_feature_lifecycle_corpus_parametrization_spellings(corpus_release_graph):
    found = feature_lifecycle(corpus_release_graph, "nn.Module Parametrization")
    assert history(found) == [("PyTorch 1.9", "Beta"), ("PyTorch 1.10", "Stable")]


# --------------------------------------------------------------------------- the gold graph


def gold_files() -> list[Path]:
    return sorted([GOLD / "sample.json", *(GOLD / "corpus").glob("*.json"),
                   *(GOLD / "releases").glob("*.json")])


def gold_results() -> list[PostFacts]:
    """The gold annotations as PostFacts, one per post (what a perfect extractor would read)."""
    posts: dict[str, PostFacts] = {}
    for path in gold_files():
        data = json.loads(path.read_text(encoding="utf8"))
        for post in data["posts"]:
            posts.setdefault(post["url"], PostFacts(post["url"], post.get("title"), None, None))
        for entity in data["entities"]:
            for url in entity.get("posts", []):
                name = entity["name"]
                posts[url].mentions.append(Mention(Entity(entity["label"], name), name, 0, 1))
        for relation in data["relations"]:
            evidence = relation.get("evidence", "")
            posts[relation["post"]].facts.append(Fact(
                relation["type"], Entity(*relation["source"]), Entity(*relation["target"]),
                "gold", 0, len(evidence), evidence, relation.get("stability")))
    return [PostFacts(p.url, p.title, None, None, sorted(set(p.mentions)), sorted(set(p.facts)))
            for p in posts.values()]


@pytest.fixture(scope="module")
def gold_graph():
    results = gold_results()
    return build_graph(results), Resolver.from_results(results), results


def gold_statements(gold_graph) -> dict[str, dict[str, set]]:
    """feature -> release -> stabilities the gold states (names as resolved in the graph)."""
    _, resolver, results = gold_graph
    found: dict[str, dict[str, set]] = defaultdict(lambda: defaultdict(set))
    for result in results:
        for fact in result.facts:
            if fact.type == "INTRODUCES":
                release = resolver.resolve(fact.source).name
                found[resolver.resolve(fact.target).name][release].add(fact.stability)
    return found


def _release_sort(name: str) -> tuple:
    library, _, version = name.rpartition(" ")
    return (library.casefold(), library, version_key(version), name)


def test_feature_lifecycle_gold_graph_every_feature(gold_graph):
    """On the gold's own graph, each feature's lifecycle lists what the gold says, in order."""
    graph = gold_graph[0]
    statements = gold_statements(gold_graph)
    assert statements, "no INTRODUCES in the gold"
    for feature, by_release in statements.items():
        found = feature_lifecycle(graph, feature)
        assert [s.release for s in found.releases] == sorted(by_release, key=_release_sort)
        for statement in found.releases:
            stated = by_release[statement.release] - {None}
            assert statement.stability in (stated or {None}), (feature, statement)


@pytest.mark.parametrize(("a", "b"), [
    ("PyTorch 1.8", "PyTorch 1.10"), ("PyTorch 1.10", "PyTorch 1.11"),
    ("PyTorch 1.11", "PyTorch 1.12"), ("PyTorch 2.0", "PyTorch 2.1"),
    ("PyTorch 1.5", "PyTorch 2.1"),
])
def test_release_diff_gold_graph(gold_graph, a, b):
    """The diff of two gold-annotated releases, against the definition applied to the gold."""
    graph = gold_graph[0]
    statements = gold_statements(gold_graph)
    if not all(any(r in rs for rs in statements.values()) for r in (a, b)):
        pytest.skip(f"the gold annotates no INTRODUCES of {a} or {b}")

    def stated(feature: str, release: str) -> str | None:
        values = sorted(statements[feature].get(release, set()) - {None})
        return values[0] if len(values) == 1 else None

    up_to_a = {f: [r for r in rs if r.startswith("PyTorch ")
                   and version_key(r.split()[1]) <= version_key(a.split()[1])]
               for f, rs in statements.items()}
    in_b = {f for f, rs in statements.items() if b in rs}
    in_a = {f for f, rs in statements.items() if a in rs}
    expected = {"new": {(f, stated(f, b)) for f in in_b if not up_to_a[f]},
                "promoted": set(), "demoted": set(), "restated": set(),
                "only_in_a": {(f, stated(f, a)) for f in in_a - in_b}}
    for feature in in_b:
        said = [(r, stated(feature, r)) for r in sorted(up_to_a[feature], key=_release_sort)
                if stated(feature, r)]
        now = stated(feature, b)
        if said and now:
            kind = "restated" if said[-1][1] == now else "promoted" \
                if STABILITY_RANK[now] > STABILITY_RANK[said[-1][1]] else "demoted"
            expected[kind].add((feature, said[-1][1], said[-1][0], now))
    assert diff_sets(release_diff(graph, a, b)) == expected


# --------------------------------------------------------------------------- CLI


@pytest.fixture
def hand_graph_file(tmp_path, hand_graph) -> Path:
    path = tmp_path / "graph.json"
    write_graph(hand_graph, path)
    return path


def test_lifecycle_command_table(hand_graph_file):
    result = run("lifecycle", "zero", "--graph", hand_graph_file, catch=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:2] == ["Feature: Zero", "current stability: Stable"]
    assert lines[2].split() == ["release", "date", "stability", "post", "evidence"]
    assert [line.split()[:4] for line in lines[4:7]] == [
        ["PyTorch", "1.8", "2021-03-04", "Prototype"], ["PyTorch", "1.9", "2021-06-15", "Beta"],
        ["PyTorch", "1.10", "2021-10-21", "Stable"]]
    assert lines[7:] == [
        "promotions: PyTorch 1.8 Prototype -> PyTorch 1.9 Beta; "
        "PyTorch 1.9 Beta -> PyTorch 1.10 Stable",
        "demotions: none", "deprecations and removals: none"]


def test_lifecycle_command_json(hand_graph_file, hand_graph):
    result = run("lifecycle", "Down", "--graph", hand_graph_file, "--format", "json",
                 catch=False)
    assert result.exit_code == 0
    expected = feature_lifecycle(hand_graph, "Down").to_dict()
    assert json.loads(result.stdout) == json.loads(json.dumps(expected))


def test_lifecycle_command_unknown_feature_is_one_line_error(hand_graph_file):
    result = run("lifecycle", "Zer0", "--graph", hand_graph_file)
    assert result.exit_code == 1
    assert result.output.splitlines() == ["Error: no Feature named 'Zer0'; closest: Zero"]


def test_lifecycle_command_handmade_issue_example(handmade_graph_file):
    result = run("lifecycle", "torch.fx", "--graph", handmade_graph_file, catch=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    row = next(line for line in lines if line.startswith("PyTorch 1.8 "))
    assert row.split()[2:5] == ["2021-03-04", "Beta", URL_18]
    assert "[Beta] Python code Transformations with FX" in row
    assert lines[-3:] == ["promotions: PyTorch 1.8 Beta -> PyTorch 1.10 Stable",
                          "demotions: none", "deprecations and removals: none"]


def test_lifecycle_command_handmade_readme_example(handmade_graph_file):
    """The README's example: ZeroRedundancyOptimizer, Prototype in 1.8 to Stable in 1.10."""
    result = run("lifecycle", "ZeroRedundancyOptimizer", "--graph", handmade_graph_file,
                 catch=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:2] == ["Feature: ZeroRedundancyOptimizer", "current stability: Stable"]
    assert [line.split()[:5] for line in lines[4:7]] == [
        ["PyTorch", "1.8", "2021-03-04", "Prototype", URL_18],
        ["PyTorch", "1.9", "2021-06-15", "Beta", BLOG + "pytorch-1.9-released/"],
        ["PyTorch", "1.10", "2021-10-21", "Stable", BLOG + "pytorch-1.10-released/"]]
    assert lines[4].endswith("(Prototype) ZeroRedundancyOptimizer** - Based on and in "
                             "partnership with the Microsoft DeepSpeed te…")
    assert lines[7:] == [
        "promotions: PyTorch 1.8 Prototype -> PyTorch 1.9 Beta; "
        "PyTorch 1.9 Beta -> PyTorch 1.10 Stable",
        "demotions: none", "deprecations and removals: none"]


def test_diff_command_table(hand_graph_file):
    result = run("diff", "PyTorch 1.9", "pytorch v1.10", "--graph", hand_graph_file,
                 catch=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == ("PyTorch 1.9 -> PyTorch 1.10: 1 new, 3 promoted, 1 demoted, "
                        "0 restated, 1 only in PyTorch 1.9, 0 deprecated, 0 removed")
    assert re.split(r"\s{2,}", lines[1]) == ["change", "feature", "stability", "post",
                                              "evidence"]
    rows = [re.split(r"\s{2,}", line) for line in lines[3:]]
    assert [row[:3] for row in rows] == [
        ["new", "Fresh", "Beta"], ["promoted", "Hook", "Beta (PyTorch 1.8) -> Stable"],
        ["promoted", "Late", "Prototype (PyTorch 1.9) -> Beta"],
        ["promoted", "Zero", "Beta (PyTorch 1.9) -> Stable"],
        ["demoted", "Down", "Stable (PyTorch 1.8) -> Beta"],
        ["only in PyTorch 1.9", "Gone", "Beta"]]
    assert rows[0][3:] == [BLOG + "pytorch1.10/", "(Beta) Fresh in PyTorch 1.10"]
    said_again = run("diff", "PyTorch 1.8", "PyTorch 1.9", "--graph", hand_graph_file,
                     catch=False).stdout.splitlines()
    assert [re.split(r"\s{2,}", line)[:3] for line in said_again
            if line.startswith("restated")] == [["restated", "Gone", "Beta (PyTorch 1.8) -> Beta"]]


def test_diff_command_json(hand_graph_file, hand_graph):
    result = run("diff", "PyTorch 1.8", "PyTorch 1.10", "--graph", hand_graph_file,
                 "--format", "json", catch=False)
    assert result.exit_code == 0
    expected = release_diff(hand_graph, "PyTorch 1.8", "PyTorch 1.10").to_dict()
    assert json.loads(result.stdout) == json.loads(json.dumps(expected))


@pytest.mark.parametrize(("a", "b", "code", "message"), [
    ("PyTorch 1.10", "PyTorch 1.9", 2,
     "Error: PyTorch 1.10 does not come before PyTorch 1.9; give the older release first"),
    ("PyTorch 1.8", "torchvision 0.9", 2,
     "Error: PyTorch 1.8 and torchvision 0.9 are releases of different libraries; compare two "
     "releases of one library"),
    ("PyTorch 1.8", "PyTorch 9.9", 1, "Error: no Release named 'PyTorch 9.9'"),
], ids=["wrong-order", "other-library", "unknown"])
def test_diff_command_bad_releases(hand_graph_file, a, b, code, message):
    result = run("diff", a, b, "--graph", hand_graph_file)
    assert result.exit_code == code
    assert "Traceback" not in result.output
    assert result.output.splitlines()[-1].startswith(message)


# --------------------------------------------------------------------------- named query


@pytest.mark.parametrize("feature", ["Zero", "Hook", "Down", "Shared", "Plain"])
def test_feature_lifecycle_named_query_agrees(hand_graph, feature):
    """``queries/feature-lifecycle.cypher``: every pair of dated releases of one library, older
    first, that stated different stabilities; its neighbouring pairs are lifecycle's changes."""
    from ptkg.named_queries import load_queries, run_named_query
    from ptkg.stores.networkx_store import GraphFileStore

    columns, rows = run_named_query(GraphFileStore(graph=hand_graph),
                                    load_queries()["feature-lifecycle"], {"feature": feature})
    assert columns == ["library", "from_release", "from_date", "from_stability", "to_release",
                       "to_date", "to_stability"]
    found = feature_lifecycle(hand_graph, feature)
    stated = [s for s in found.releases if s.stability]
    expected = sorted(
        [a.library, a.release, a.date, a.stability, b.release, b.date, b.stability]
        for i, a in enumerate(stated) for b in stated[i + 1:]
        if a.library == b.library and a.stability != b.stability)
    assert sorted(rows) == expected
    neighbours = {(c.from_release, c.to_release) for c in found.changes}
    assert neighbours <= {(row[1], row[4]) for row in rows}


@pytest.mark.parametrize("module", ["ptkg.lifecycle"])
def test_lifecycle_doctests(module):
    import doctest
    import importlib

    results = doctest.testmod(importlib.import_module(module))
    assert (results.failed, results.attempted > 0) == (0, True)


def test_release_diff_lists_what_b_deprecates(handmade_graph, handmade_graph_file):
    """Issue 12: ``ptkg diff`` shows the deprecations and removals of b, of any label."""
    diff = release_diff(handmade_graph, "PyTorch 1.12", "PyTorch 2.2")
    assert [(e.feature, sorted({ev.url for ev in e.evidence})) for e in diff.deprecated] == [
        ("macOS x86", ["https://pytorch.org/blog/pytorch-2-8/",  # its look back at 2.2
                       "https://pytorch.org/blog/pytorch2-2/"])]
    assert diff.removed == []
    result = run("diff", "PyTorch 1.12", "PyTorch 2.2", "--graph", handmade_graph_file,
                 catch=False)
    assert "1 deprecated, 0 removed" in result.stdout.splitlines()[0]
    assert any(re.split(r"\s{2,}", line)[:2] == ["deprecated", "macOS x86"]
               for line in result.stdout.splitlines())


def test_lifecycle_shows_deprecations_and_removals(tmp_path):
    """Issue 12: ``ptkg lifecycle`` shows which releases deprecated or removed the feature, with
    the sentence and the post, in version order, after its stability history."""
    flag = Entity("Feature", "volatile flag")
    posts = [PostFacts(f"{BLOG}pytorch-{v}/", f"PyTorch {v}", date, None,
                       [Mention(Entity("Release", f"PyTorch {v}"), f"PyTorch {v}", 0, 11)],
                       [Fact(key, Entity("Release", f"PyTorch {v}"), flag, "test.rule", 0, 9,
                             sentence, stability)])
             for v, date, key, sentence, stability in [
                 ("0.3", "2017-12-05", "INTRODUCES", "[Beta] volatile", "Beta"),
                 ("0.4", "2018-04-22", "DEPRECATES", "volatile is deprecated", None),
                 ("1.0", "2018-12-07", "REMOVES", "volatile is gone", None)]]
    lifecycle = feature_lifecycle(build_graph(posts), "volatile flag")
    assert [(e.change, e.release, e.evidence[0].sentence) for e in lifecycle.endings] == [
        ("DEPRECATES", "PyTorch 0.4", "volatile is deprecated"),
        ("REMOVES", "PyTorch 1.0", "volatile is gone")]
    path = tmp_path / "graph.json"
    write_graph(build_graph(posts), path)
    lines = run("lifecycle", "volatile flag", "--graph", path, catch=False).stdout.splitlines()
    at = lines.index("deprecations and removals:")
    assert [line.split()[:3] for line in lines[at + 3:]] == [
        ["DEPRECATES", "PyTorch", "0.4"], ["REMOVES", "PyTorch", "1.0"]]


LIBRARY_POSTS = ["pytorch-1.8-new-library-releases", "new-library-updates-in-pytorch-2.1"]


def test_a_support_a_library_release_drops_ends_the_feature_it_introduced(corpus_dir):
    """Issue 12, on the real library posts: torchaudio 0.8's "[Stable] File-like object support
    in both "sox_io" backend, ..." names the support (not the places it lists), and 2.1's "Sox
    I/O backend no longer supports file-like objects" removes that support (not the objects):
    one feature, introduced and removed. torchvision 0.9's "[Stable] All read and decode
    methods in the io.image package now support:" leads a list; it names the package."""
    urls = {BLOG + slug + "/" for slug in LIBRARY_POSTS}
    posts = [p for p in read_posts([corpus_dir / "pytorch_blog.jsonl"]) if p.url in urls]
    graph = build_graph(run_extraction(posts, model="en_core_web_sm"))
    lifecycle = feature_lifecycle(graph, "File-like object support")
    assert history(lifecycle) == [("torchaudio 0.8", "Stable")]
    assert [(e.change, e.release) for e in lifecycle.endings] == [("REMOVES", "torchaudio 2.1")]
    assert history(feature_lifecycle(graph, "io.image")) == [("torchvision 0.9", "Stable")]


def test_a_backend_is_one_thing_with_its_feature_and_its_releases():
    """The whole-corpus audit of 7 December evening: the Feature "MPS backend" a release
    introduces is the Hardware MPS (a backend), and the Library CUDA that holds CUDA 12.8 is the
    Hardware CUDA (SAME_AS); MPS's lifecycle is its Feature's. A device is no backend's twin."""
    post = release_post("PyTorch 2.0", {"MPS backend": "Beta"}, "2023-03-15")
    post.mentions += [Mention(Entity("Hardware", name), name, 0, len(name), kind)
                      for name, kind in (("MPS", "backend"), ("CUDA", "backend"),
                                         ("A100", "device"))]
    post.mentions.append(Mention(Entity("Release", "CUDA 12.8"), "CUDA 12.8", 0, 9))
    graph = build_graph([post])
    assert graph.has_edge("Feature:MPS backend", "Hardware:MPS", "SAME_AS")
    assert graph.has_edge("Library:CUDA", "Hardware:CUDA", "SAME_AS")
    assert history(feature_lifecycle(graph, "MPS")) == [("PyTorch 2.0", "Beta")]
    assert not any(key == "SAME_AS" for *_, key in graph.in_edges("Hardware:A100", keys=True))
