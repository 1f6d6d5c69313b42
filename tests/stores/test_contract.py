"""The store contract (``ptkg.stores.Store``), one suite run on both stores.

Every test runs on the graph file (``networkx``: :class:`GraphFileStore` on the hand-made graph,
``tests/data/graph.json``) and on Neo4j (``neo4j``: :class:`Neo4jStore` with the hand-made graph
loaded, on the server of ``NEO4J_URI``; marked ``neo4j``: without ``NEO4J_URI`` it skips, and
fails when ``CI`` or ``PTKG_REQUIRE_NEO4J`` is set). The expected rows are written out, read
from the facts of ``tests/data/handmade.py``: both stores must give them, so this is a contract,
not a comparison of one store with the other.

``store`` holds the hand-made graph for a whole module of read-only tests; ``empty_store`` is a
new, empty one for the tests that load (the Neo4j one holds the hand-made graph again after
the test, as ``store`` expects).
"""

from __future__ import annotations

import pytest

from ptkg.cypher import row_sort_key
from ptkg.errors import QueryError
from ptkg.graph import graph_counts, graph_to_dict, read_graph
from ptkg.named_queries import load_queries, run_named_query
from ptkg.stores import Store
from ptkg.stores.neo4j_store import Neo4jStore
from ptkg.stores.networkx_store import GraphFileStore

STORES = ["networkx", pytest.param("neo4j", marks=pytest.mark.neo4j)]
QUERIES = load_queries()

BLOG = "https://pytorch.org/blog/"
URL_LIBRARIES = BLOG + "pytorch-library-updates-new-model-serving-library/"
URL_18 = BLOG + "pytorch-1.8-released/"
URL_19 = BLOG + "pytorch-1.9-released/"
URL_110 = BLOG + "pytorch-1.10-released/"
URL_22 = BLOG + "pytorch2-2/"
URL_28 = BLOG + "pytorch-2-8/"
URL_MAC = BLOG + "introducing-accelerated-pytorch-training-on-mac/"
TITLE_LIBRARIES = "PyTorch library updates including new model serving library"
TITLE_18 = ("PyTorch 1.8 Release, including Compiler and Distributed Training updates, and New "
            "Mobile Tutorials")
TITLE_19 = "PyTorch 1.9 Release, including torch.linalg and Mobile Interpreter"
TITLE_110 = "PyTorch 1.10 Release, including CUDA Graphs APIs, frontend and compiler improvements"
TITLE_22 = "PyTorch 2.2: FlashAttention-v2 integration, AOTInductor"
ANNOUNCED = [
    ["PyTorch", "PyTorch 1.8", "2021-03-04", TITLE_18, URL_18],
    ["PyTorch", "PyTorch 1.9", "2021-06-15", TITLE_19, URL_19],
    ["PyTorch", "PyTorch 1.10", "2021-10-21", TITLE_110, URL_110],
    ["PyTorch", "PyTorch 2.2", "2024-01-30", TITLE_22, URL_22],
    ["PyTorch", "PyTorch 2.8", "2025-08-06", "PyTorch 2.8 Release Blog", URL_28],
]
MACOS_X86 = ("Please note that we are [deprecating macOS x86 support]"
             "(https://github.com/pytorch/pytorch/issues/114602), and PyTorch 2.2.x will be the "
             "last version that supports macOS x64.")
LOOK_BACK_28 = "macOS x86 support was deprecated in 2.2."
DEPRECATED = ["PyTorch", "PyTorch 2.2", "DEPRECATES", "Platform", "macOS x86",
              [LOOK_BACK_28, MACOS_X86, MACOS_X86],  # the 2.2 post says it twice
              [URL_28, URL_22, URL_22]]
URL_FSDP = BLOG + "scaling-pytorch-models-on-cloud-tpus-with-fsdp/"
ZERO_SENTENCE = ("(Prototype) ZeroRedundancyOptimizer** - Based on and in partnership with the "
                 "Microsoft DeepSpeed team, this feature helps reduce per-process memory "
                 "footprint by sharding optimizer states across all participating processes in "
                 "the ```ProcessGroup``` gang.")
XLA_TPU_SENTENCE = ("To support TPUs in PyTorch, the PyTorch/XLA library provides a backend for "
                    "XLA devices (most notably TPUs) and lays the groundwork for scaling large "
                    "PyTorch models on TPUs.")
APPLE_SILICON_SENTENCE = ("Until now, PyTorch training on Mac only leveraged the CPU, but with "
                          "the upcoming  PyTorch v1.12 release, developers and researchers can "
                          "take advantage of Apple silicon GPUs for significantly faster model "
                          "training.")
MPS_SENTENCES = ["Accelerated GPU training is enabled using Apple’s Metal Performance Shaders "
                 "(MPS) as a backend for PyTorch.", "The MPS backend extends the PyTorch "
                 "framework, providing scripts and capabilities to set up and run operations on "
                 "Mac."]
ROCM_SENTENCE = ("Starting in PyTorch 1.8, we have added support for ROCm wheels providing an easy "
                 "onboarding to using AMD GPUs.")
MAC_COLLABORATION = ("In collaboration with the Metal engineering team at Apple, we are excited "
                     "to announce support for GPU-accelerated PyTorch training on Mac.")
PYTHON2_REMOVED = ["torchvision", "torchvision 0.6", "REMOVES", "Release", "Python 2",
                   ["For this release, all three domain libraries are removing support for "
                    "Python2 and will support Python3 only."], [URL_LIBRARIES]]
MAGMA_REPLACED = ["Library", "MAGMA", "Library", "cuSolver",
                  ["cuSolver replaces the legacy MAGMA backend."], [URL_28]]
RELEASED_WITH_SENTENCE = ("We’re excited to share new releases for all three domain libraries "
                          "alongside PyTorch 1.5 and the rest of the library updates.")

COLUMNS = {
    "announcements": ["library", "release", "date", "title", "url"],
    "deprecations": ["library", "release", "change", "label", "name", "sentences", "posts"],
    "evidence": ["relation", "source_label", "source", "target_label", "target", "reads",
                 "sentences", "posts", "rules"],
    "feature-lifecycle": ["library", "from_release", "from_date", "from_stability", "to_release",
                          "to_date", "to_stability"],
    "feature-stability": ["library", "release", "version", "date", "feature", "stability",
                          "named", "posts"],
    "features-by-release": ["feature", "stability", "latest_stability", "named"],
    "features-by-stability": ["feature", "stability", "latest_stability", "release",
                              "named"],
    "features-of-library": ["feature", "stability"],
    "hardware-support": ["supporter", "version", "label", "name", "device"],
    "neighbors": ["source_label", "source", "relation", "target_label", "target"],
    "organizations": ["organization", "label", "name", "reads"],
    "posts-about": ["url", "title", "date", "mentions", "label", "mentioned"],
    "released-with": ["library", "release", "version"],
    "releases-of-library": ["position", "release", "version", "date"],
    "stability-counts": ["release", "stability", "features"],
    "top-mentioned": ["name", "posts", "mentions"],
    "part-of": ["label", "whole", "reads"],
    "release-diff": ["feature", "release", "stability", "named", "previous_stability",
                     "previous_release", "position"],
    "releases-supporting": ["library", "release", "via", "device", "stability", "sentences",
                            "posts"],
    "based-on": ["source_label", "source", "target_label", "target", "sentences", "posts"],
    "replacements": ["replaced_label", "replaced", "label", "replacement", "sentences",
                     "posts"],
    "supported-hardware": ["label", "device", "supporter_label", "supporter", "sentences",
                           "posts"],
}
#: (query, params) -> rows: every named query with its example parameters, and again without
#: its optional ones.
NAMED_ROWS = [
    ("announcements", {"library": "PyTorch", "release": "PyTorch 1.8"}, ANNOUNCED[:1]),
    ("announcements", {"release": "PyTorch 2.8"}, ANNOUNCED[-1:]),
    ("announcements", {"release": "PyTorch 1.12"}, []),  # named, announced by no post
    ("announcements", {"library": "PyTorch"}, ANNOUNCED),
    ("announcements", {}, [
        *ANNOUNCED,
        ["PyTorch/XLA", "PyTorch/XLA 1.5", "2020-04-21", TITLE_LIBRARIES, URL_LIBRARIES],
        ["torchvision", "torchvision 0.6", "2020-04-21", TITLE_LIBRARIES, URL_LIBRARIES]]),
    ("deprecations", {"release": "PyTorch 2.2", "library": "PyTorch", "name": "macOS x86"},
     [DEPRECATED]),
    ("deprecations", {"name": "Python 2"}, [PYTHON2_REMOVED]),
    ("deprecations", {"library": "torchvision"}, [PYTHON2_REMOVED]),
    ("deprecations", {"release": "PyTorch 2.2", "name": "Python 2"}, []),
    # the 2.8 post looks back at 2.2's deprecation: a row of 2.2 (d.stated_in)
    ("deprecations", {"release": "PyTorch 2.8"}, [DEPRECATED]),
    ("deprecations", {"release": "PyTorch 1.9"}, []),
    ("deprecations", {"versions_of": "Python"}, [PYTHON2_REMOVED]),  # Python 2 is a Release
    ("deprecations", {"versions_of": "PyTorch"}, []),
    ("deprecations", {}, [DEPRECATED, PYTHON2_REMOVED]),
    ("replacements", {"name": "MAGMA"}, [MAGMA_REPLACED]),
    ("replacements", {"name": "cuSolver"}, [MAGMA_REPLACED]),  # what it replaced
    ("replacements", {"name": "macOS x86"}, []),
    ("replacements", {}, [MAGMA_REPLACED]),
    ("evidence", {"source": "torchvision 0.6", "target": "PyTorch 1.5", "type": "RELEASED_WITH"},
     [["RELEASED_WITH", "Release", "torchvision 0.6", "Release", "PyTorch 1.5", 1,
       [RELEASED_WITH_SENTENCE], [URL_LIBRARIES], ["released_with.core_release_post"]]]),
    ("evidence", {"source": "torchvision 0.6", "target": "PyTorch 1.5"},
     [["RELEASED_WITH", "Release", "torchvision 0.6", "Release", "PyTorch 1.5", 1,
       [RELEASED_WITH_SENTENCE], [URL_LIBRARIES], ["released_with.core_release_post"]]]),
    # what has replaced the asked source since: "Is MAGMA still ...?"
    ("evidence", {"source": "MAGMA", "target": "PyTorch 2.8"},
     [["REPLACES", "Library", "cuSolver", "Library", "MAGMA", 1, MAGMA_REPLACED[4], [URL_28],
       ["replaces.replaces"]]]),
    ("feature-lifecycle", {"feature": "ZeroRedundancyOptimizer"}, [
        ["PyTorch", "PyTorch 1.8", "2021-03-04", "Prototype", "PyTorch 1.9", "2021-06-15", "Beta"],
        ["PyTorch", "PyTorch 1.8", "2021-03-04", "Prototype", "PyTorch 1.10", "2021-10-21",
         "Stable"],
        ["PyTorch", "PyTorch 1.9", "2021-06-15", "Beta", "PyTorch 1.10", "2021-10-21", "Stable"]]),
    ("feature-stability", {"feature": "torch.fx"}, [
        ["PyTorch", "PyTorch 1.8", "1.8", "2021-03-04", "torch.fx", "Beta", None, [URL_18]],
        ["PyTorch", "PyTorch 1.10", "1.10", "2021-10-21", "torch.fx", "Stable", None,
         [URL_110]]]),
    ("features-by-release", {"release": "PyTorch 1.8"}, [
        ["ZeroRedundancyOptimizer", "Prototype", "Stable", None],
        ["torch.fft", "Stable", "Stable", None], ["torch.fx", "Beta", "Stable", None],
        ["torch.linalg", None, "Stable", None]]),
    ("features-by-release", {"release": "PyTorch 1.10", "hardware": "CUDA"},
     [["CUDA Graphs", "Beta", "Beta", None]]),  # its post says CUDA Graphs are for CUDA
    ("features-by-release", {"release": "PyTorch 1.8", "hardware": "CUDA"}, []),
    ("features-by-stability", {"release": "PyTorch 1.10", "stability": "Stable"}, [
        ["ZeroRedundancyOptimizer", "Stable", "Stable", "PyTorch 1.10", None],
        ["torch.fx", "Stable", "Stable", "PyTorch 1.10", None]]),
    ("features-by-stability", {"stability": "Beta"}, [  # every release's, in version order
        ["torch.fx", "Beta", "Stable", "PyTorch 1.8", None],
        ["TorchElastic", "Beta", "Beta", "PyTorch 1.9", None],
        ["ZeroRedundancyOptimizer", "Beta", "Stable", "PyTorch 1.9", None],
        ["CUDA Graphs", "Beta", "Beta", "PyTorch 1.10", None],
        ["AOTInductor", "Beta", "Beta", "PyTorch 2.2", None]]),
    ("features-of-library", {"library": "PyTorch/XLA"}, [["FSDP", None]]),
    ("hardware-support", {"hardware": "MPS"},
     [["PyTorch", "1.12", "Release", "PyTorch 1.12", "MPS"]]),
    ("neighbors", {"name": "torch.fx"}, [
        ["Release", "PyTorch 1.10", "INTRODUCES", "Feature", "torch.fx"],
        ["Release", "PyTorch 1.8", "INTRODUCES", "Feature", "torch.fx"]]),
    ("organizations", {"organization": "Microsoft"}, [
        ["Microsoft", "Feature", "ZeroRedundancyOptimizer", 1],
        ["Microsoft", "Library", "DeepSpeed", 1]]),
    ("organizations", {}, [
        ["Apple", "Release", "PyTorch 1.12", 1],
        ["Microsoft", "Feature", "ZeroRedundancyOptimizer", 1],
        ["Microsoft", "Library", "DeepSpeed", 1]]),
    ("posts-about", {"name": "torch.fx"}, [
        [URL_18, TITLE_18, "2021-03-04", 4, "Feature", "torch.fx"],
        [URL_110, TITLE_110, "2021-10-21", 2, "Feature", "torch.fx"]]),
    ("released-with", {"release": "PyTorch 1.5"}, [
        ["PyTorch/XLA", "PyTorch/XLA 1.5", "1.5"], ["torchvision", "torchvision 0.6", "0.6"]]),
    ("released-with", {"release": "PyTorch 1.5", "library": "torchvision"},
     [["torchvision", "torchvision 0.6", "0.6"]]),
    ("releases-of-library", {"library": "PyTorch"}, [
        [1, "PyTorch 1.5", "1.5", None], [2, "PyTorch 1.8", "1.8", "2021-03-04"],
        [3, "PyTorch 1.9", "1.9", "2021-06-15"], [4, "PyTorch 1.10", "1.10", "2021-10-21"],
        [5, "PyTorch 1.12", "1.12", None], [6, "PyTorch 2.2", "2.2", "2024-01-30"],
        [7, "PyTorch 2.8", "2.8", "2025-08-06"]]),
    ("stability-counts", {"release": "PyTorch 1.8"}, [
        ["PyTorch 1.8", "Beta", 1], ["PyTorch 1.8", "Prototype", 1], ["PyTorch 1.8", "Stable", 1],
        ["PyTorch 1.8", "unstated", 1]]),
    ("stability-counts", {}, [
        ["PyTorch 1.10", "Beta", 1], ["PyTorch 1.10", "Stable", 2], ["PyTorch 1.8", "Beta", 1],
        ["PyTorch 1.8", "Prototype", 1], ["PyTorch 1.8", "Stable", 1],
        ["PyTorch 1.8", "unstated", 1], ["PyTorch 1.9", "Beta", 2], ["PyTorch 1.9", "Stable", 1],
        ["PyTorch 2.2", "Beta", 1], ["PyTorch 2.8", "API-Unstable", 1]]),
    ("top-mentioned", {"label": "Feature", "limit": 10}, [
        ["ZeroRedundancyOptimizer", 3, 4], ["torch.fx", 2, 6], ["torch.linalg", 2, 3],
        ["FSDP", 1, 2], ["torch.fft", 1, 2], ["AOTInductor", 1, 1], ["CUDA Graphs", 1, 1],
        ["Control Flow Operator Library", 1, 1], ["TorchElastic", 1, 1]]),
    ("part-of", {"name": "FSDP"}, [["Library", "PyTorch/XLA", 1]]),
    ("release-diff", {"a": "PyTorch 1.9", "b": "PyTorch 1.10"}, [
        ["CUDA Graphs", "PyTorch 1.10", "Beta", None, None, None, 4],
        ["TorchElastic", "PyTorch 1.9", "Beta", None, None, None, 3],
        ["ZeroRedundancyOptimizer", "PyTorch 1.9", "Beta", None, "Prototype", "PyTorch 1.8", 3],
        ["ZeroRedundancyOptimizer", "PyTorch 1.10", "Stable", None, "Beta", "PyTorch 1.9", 4],
        # 1.9 did not restate torch.fx: its stability before 1.10 is 1.8's
        ["torch.fx", "PyTorch 1.10", "Stable", None, "Beta", "PyTorch 1.8", 4],
        ["torch.linalg", "PyTorch 1.9", "Stable", None, None, None, 3]]),
    ("releases-supporting", {"hardware": "MPS"}, [
        ["PyTorch", "PyTorch 1.12", "MPS", "MPS", None, MPS_SENTENCES, [URL_MAC, URL_MAC]]]),
    ("based-on", {"name": "ZeroRedundancyOptimizer"}, [
        ["Feature", "ZeroRedundancyOptimizer", "Library", "DeepSpeed", [ZERO_SENTENCE], [URL_18]]]),
    ("supported-hardware", {"name": "PyTorch/XLA"}, [
        ["Hardware", "TPU", "Library", "PyTorch/XLA", [XLA_TPU_SENTENCE], [URL_FSDP]]]),
]
FEATURES_OF = ("MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) WHERE r.name = $release "
               "RETURN f.name AS feature, i.stability AS stability")
BY_NAME = "MATCH (f:Feature) WHERE f.name = $name RETURN f.name AS name"


@pytest.fixture(scope="module", params=STORES)
def store(request, handmade_graph_file):
    """Each store, holding the hand-made graph (read-only tests)."""
    if request.param == "networkx":
        opened = GraphFileStore(handmade_graph_file)
    else:
        request.getfixturevalue("neo4j_empty")()
        opened = Neo4jStore(request.getfixturevalue("neo4j_settings"))
        opened.load(read_graph(handmade_graph_file))
    yield opened
    opened.close()


@pytest.fixture(params=STORES)
def empty_store(request, tmp_path, handmade_graph_file):
    """A new, empty store of each kind (for the tests that load)."""
    if request.param == "networkx":
        opened = GraphFileStore(tmp_path / "graph.json")
        yield opened
        opened.close()
        return
    request.getfixturevalue("neo4j_clean")
    settings = request.getfixturevalue("neo4j_settings")
    opened = Neo4jStore(settings)
    yield opened
    opened.close()
    with Neo4jStore(settings) as again:  # as the module's `store` left it
        again.load(read_graph(handmade_graph_file), wipe_first=True)


def reopen(store: Store) -> Store:
    """A new store on the same file or server: what it reads is what was stored."""
    if isinstance(store, GraphFileStore):
        return GraphFileStore(store.path)
    return Neo4jStore(store.settings)


def counts_by_query(store: Store) -> tuple[dict[str, int], dict[str, int]]:
    """Nodes per label and relationships per type, counted by the store in Cypher."""
    _, nodes = store.query("MATCH (n) RETURN n.label AS label, COUNT(n) AS nodes")
    _, rels = store.query("MATCH (a)-[r]->(b) RETURN type(r) AS type, COUNT(r) AS rels")
    return dict(map(tuple, nodes)), dict(map(tuple, rels))


def plain(data: dict) -> dict:
    return dict(sorted(data.items()))


# --------------------------------------------------------------------------- load, graph, close


def test_store_implements_the_protocol(store):
    assert isinstance(store, Store)
    assert isinstance(store.location, str) and store.location


def test_load_puts_the_graph_in_the_store(empty_store, handmade_graph):
    empty_store.load(handmade_graph)
    assert counts_by_query(empty_store) == graph_counts(handmade_graph)
    with reopen(empty_store) as again:
        assert graph_to_dict(again.graph()) == graph_to_dict(handmade_graph)


def test_load_twice_gives_the_same_graph(empty_store, handmade_graph):
    empty_store.load(handmade_graph)
    empty_store.load(handmade_graph.copy())
    assert counts_by_query(empty_store) == graph_counts(handmade_graph)
    with reopen(empty_store) as again:
        assert graph_to_dict(again.graph()) == graph_to_dict(handmade_graph)


def test_graph_gives_back_an_equal_graph(store, handmade_graph):
    assert graph_to_dict(store.graph()) == graph_to_dict(handmade_graph)
    with reopen(store) as again:
        assert graph_to_dict(again.graph()) == graph_to_dict(handmade_graph)


def test_close_can_be_called_twice_and_ends_a_with_block(store):
    opened = reopen(store)
    assert opened.query(BY_NAME, {"name": "torch.fx"}) == (["name"], [["torch.fx"]])
    opened.close()
    opened.close()
    with reopen(store) as again:
        assert again.query(BY_NAME, {"name": "FSDP"}) == (["name"], [["FSDP"]])


# --------------------------------------------------------------------------- query


def test_query_counts_every_label_and_type(store, handmade_graph):
    assert counts_by_query(store) == graph_counts(handmade_graph)


COUNT_RELEASES = ("MATCH (r:Release) WHERE $library IS NULL OR r.library = $library "
                  "RETURN COUNT(r) AS releases")


@pytest.mark.parametrize(("cypher", "params", "rows"), [
    (FEATURES_OF, {"release": "PyTorch 1.9"},
     [["TorchElastic", "Beta"], ["ZeroRedundancyOptimizer", "Beta"], ["torch.linalg", "Stable"]]),
    (FEATURES_OF, {"release": "PyTorch 2.8"},
     [["Control Flow Operator Library", "API-Unstable"]]),
    ("MATCH (f:Feature) WHERE f.name IN $names RETURN f.name AS feature, f.stability AS stability",
     {"names": ["torch.fx", "FSDP", "not a feature"]}, [["FSDP", None], ["torch.fx", "Stable"]]),
    ("MATCH (r:Release) WHERE r.version_order >= $n RETURN r.name AS feature, r.version AS "
     "stability", {"n": 6}, [["PyTorch 2.2", "2.2"], ["PyTorch 2.8", "2.8"]]),
], ids=["release", "api-unstable", "list", "number"])
def test_query_binds_parameters(store, cypher, params, rows):
    assert store.query(cypher, params) == (["feature", "stability"], rows)


@pytest.mark.parametrize(("library", "releases"), [(None, 10), ("PyTorch", 7), ("Python", 1),
                                                   ("pytorch", 0)])
def test_query_binds_null_and_strings(store, library, releases):
    assert store.query(COUNT_RELEASES, {"library": library}) == (["releases"], [[releases]])


def test_query_dollar_inside_a_string_is_no_parameter(store):
    cypher = 'MATCH (f:Feature) WHERE f.name = $name OR f.name = "$name" RETURN f.name AS name'
    assert store.query(cypher, {"name": "FSDP"}) == (["name"], [["FSDP"]])


@pytest.mark.parametrize(("name", "rows"), [
    ("torch.fx", [["torch.fx"]]),
    ('x" OR 1=1 //', []),
    ('torch.fx" OR "1" = "1', []),
    ('" OR f.name = "torch.fx', []),
    ("torch.fx' OR ''='", []),
    ('x"}) MATCH (f:Feature) RETURN f.name AS name //', []),
    ("torch.fx\\", []),
    ("torch.fx\n", []),
    ("$name", []),
], ids=["plain", "or", "or-true", "quote-or", "single-quote", "second-match", "backslash",
        "line-break", "parameter-name"])
def test_query_parameter_is_a_value_never_cypher(store, name, rows):
    assert store.query(BY_NAME, {"name": name}) == (["name"], rows)


@pytest.mark.parametrize(("name", "params", "rows"), NAMED_ROWS,
                         ids=[f"{n}-{'-'.join(p) or 'none'}" for n, p, _ in NAMED_ROWS])
def test_named_query_rows(store, name, params, rows):
    assert run_named_query(store, QUERIES[name], params) == (COLUMNS[name], rows)


def test_posts_about_lists_a_same_named_pair_once(store):
    """The Feature and the Library TorchElastic (SAME_AS) are each listed once, not also as
    the other's."""
    assert run_named_query(store, QUERIES["posts-about"], {"name": "TorchElastic"}) == (
        COLUMNS["posts-about"], [
            [URL_19, TITLE_19, "2021-06-15", 1, "Feature", "TorchElastic"],
            [URL_19, TITLE_19, "2021-06-15", 1, "Library", "TorchElastic"]])


def test_supported_hardware_of_a_library_is_its_releases(store):
    """Asked about a library, supported-hardware gives what each of its releases supports,
    in device, then release order."""
    assert run_named_query(store, QUERIES["supported-hardware"], {"name": "PyTorch"}) == (
        COLUMNS["supported-hardware"], [
            ["Hardware", "Apple silicon", "Release", "PyTorch 1.12", [APPLE_SILICON_SENTENCE],
             [URL_MAC]],
            ["Hardware", "MPS", "Release", "PyTorch 1.12", MPS_SENTENCES, [URL_MAC, URL_MAC]],
            ["Hardware", "ROCm", "Release", "PyTorch 1.8", [ROCM_SENTENCE], [URL_18]],
            ["Platform", "macOS", "Release", "PyTorch 1.12", [MAC_COLLABORATION], [URL_MAC]]])


def test_releases_supporting_reads_a_feature_support_of_the_release_post(empty_store,
                                                                         support_graph):
    """A release supports a device through a feature it introduces only when its own post says
    the feature supports it, not when a later post does."""
    empty_store.load(support_graph)
    query = QUERIES["releases-supporting"]
    assert [row[:5] for row in run_named_query(empty_store, query, {"hardware": "GPU"})[1]] == [
        ["PyTorch", "PyTorch 2.1", "Widget sparsity", "GPU", "Prototype"]]
    assert run_named_query(empty_store, query, {"hardware": "AMD GPU"})[1] == []


def test_named_query_rows_cover_every_query():
    assert {name for name, _, _ in NAMED_ROWS} == set(QUERIES)
    optional = {name for name, q in QUERIES.items() if any(p.optional for p in q.params)}
    assert {name for name, params, _ in NAMED_ROWS if params != QUERIES[name].example_params} \
        == optional


def test_query_returns_whole_nodes_and_relationships(store, handmade_graph):
    columns, rows = store.query("MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) "
                                "WHERE f.name = $feature RETURN r, i, f", {"feature": "torch.fx"})
    graph = handmade_graph
    expected = sorted(([plain(graph.nodes[u]), plain(data), plain(graph.nodes[v])]
                       for u, v, key, data in graph.edges(keys=True, data=True)
                       if key == "INTRODUCES" and v == "Feature:torch.fx"), key=row_sort_key)
    assert (columns, rows) == (["r", "i", "f"], expected)
    assert [[list(value) for value in row] for row in rows] == [
        [sorted(value) for value in row] for row in expected]
    assert [(row[0]["name"], row[1]["stability"], row[1]["offsets"]) for row in rows] == [
        ("PyTorch 1.8", "Beta", [[3076, 3118]]), ("PyTorch 1.10", "Stable", [[803, 847]])]


def test_query_returns_offsets_of_a_title_read_as_null(store, handmade_graph):
    _, rows = store.query('MATCH (p:Post)-[a:ANNOUNCES]->(r:Release) WHERE r.name = "PyTorch 1.8" '
                          "RETURN p, a")
    post, edge = f"Post:{URL_18}", handmade_graph.edges[f"Post:{URL_18}", "Release:PyTorch 1.8",
                                                        "ANNOUNCES"]
    assert rows == [[plain(handmade_graph.nodes[post]), plain(edge)]]
    assert rows[0][1]["offsets"] == [None]


@pytest.mark.parametrize(("cypher", "rows"), [
    ('MATCH (l:Library)-[:HAS_RELEASE]->(r:Release) WHERE l.name = "PyTorch" '
     "RETURN r.name AS release ORDER BY r.version_order DESC",
     [["PyTorch 2.8"], ["PyTorch 2.2"], ["PyTorch 1.12"], ["PyTorch 1.10"], ["PyTorch 1.9"],
      ["PyTorch 1.8"], ["PyTorch 1.5"]]),
    ('MATCH (l:Library)-[:HAS_RELEASE]->(r:Release) WHERE l.name = "PyTorch" '
     "RETURN r.name AS release ORDER BY r.version_order SKIP 2 LIMIT 3",
     [["PyTorch 1.9"], ["PyTorch 1.10"], ["PyTorch 1.12"]]),
    ("MATCH (p:Post)-[m:MENTIONS]->(f:Feature) RETURN f.name AS feature, m.count AS mentions "
     "ORDER BY mentions DESC, feature LIMIT 4",
     [["torch.fx", 4], ["FSDP", 2], ["ZeroRedundancyOptimizer", 2], ["torch.fft", 2]]),
], ids=["desc", "skip-limit", "two-keys"])
def test_query_keeps_the_order_by(store, cypher, rows):
    assert store.query(cypher)[1] == rows


def test_query_without_order_by_sorts_the_rows(store):
    _, rows = store.query("MATCH (r:Release) RETURN r.version AS version, r.name AS name")
    assert rows == [["0.6", "torchvision 0.6"], ["1.10", "PyTorch 1.10"],
                    ["1.12", "PyTorch 1.12"], ["1.5", "PyTorch 1.5"], ["1.5", "PyTorch/XLA 1.5"],
                    ["1.8", "PyTorch 1.8"], ["1.9", "PyTorch 1.9"], ["2", "Python 2"],
                    ["2.2", "PyTorch 2.2"], ["2.8", "PyTorch 2.8"]]
    assert rows == sorted(rows, key=row_sort_key)


@pytest.mark.parametrize(("cypher", "message"), [
    ("MATCH (r:Release RETURN r", "Cypher syntax error at line 1, column 18: unexpected 'RETURN'"),
    ("MATCH (n) RETURN", "Cypher syntax error at line 1, column "),
    ("MATCH (r:Release)\nWHERE r.name = = 1 RETURN r", "Cypher syntax error at line 2, column "),
], ids=["unclosed", "nothing-returned", "second-line"])
def test_query_syntax_error_is_a_query_error(store, cypher, message):
    with pytest.raises(QueryError) as error:
        store.query(cypher)
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("params", [None, {}, {"relase": "PyTorch 1.8"}],
                         ids=["none", "empty", "misspelled"])
def test_query_missing_parameter_is_a_query_error(store, params):
    with pytest.raises(QueryError) as error:
        store.query(FEATURES_OF, params)
    message = str(error.value)
    assert "\n" not in message
    assert "release" in message.replace("relase", "")
