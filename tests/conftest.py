"""Fixtures shared by every test module: the bundled data, the two graphs, the Neo4j server.

Two graphs:

- the **hand-made graph** (``handmade_graph``, ``handmade_graph_file``): ``tests/data/graph.json``,
  built by ``tests/data/handmade.py`` from facts written by hand. Query, store, page and CLI
  tests use it, so a change to an extraction rule does not change what they see.
- the **sample graph** (``sample_graph``, ``sample_graph_file``, ``sample_graph_json``): the
  graph of ``data/seed_sample.txt``, built once per session with the English model
  (``ptkg.build.build``, as ``ptkg build`` does). Extraction and quality tests use it.

Tests get a fresh ``MultiDiGraph`` read from the file, so a test may change its copy without
touching the others; both files live in a session folder (the hand-made one is a copy).

The Neo4j fixtures (``neo4j_settings``, ``neo4j_driver``, ``neo4j_empty``, ``neo4j_clean``,
``neo4j_unavailable``) are for ``tests/neo4j/`` and the Neo4j half of ``tests/stores/``. The
server is the one ``make test`` starts with ``docker/neo4j-start.sh`` (``.ci/with-neo4j``),
reached through the standard variables ``NEO4J_URI``, ``NEO4J_USERNAME``, ``NEO4J_PASSWORD`` and
``NEO4J_DATABASE``. Without ``NEO4J_URI`` the tests that use them skip, and fail when ``CI`` or
``PTKG_REQUIRE_NEO4J`` is set, so CI cannot pass without a real server; a ``NEO4J_URI`` whose
server does not answer always fails.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import neo4j
import networkx as nx
import pytest
from spacy.language import Language

from ptkg.build import build
from ptkg.errors import StoreError
from ptkg.extractors.pipeline import load_nlp, run_extraction
from ptkg.graph import build_graph, read_graph
from ptkg.readers import read_posts
from ptkg.records import Entity, Fact, Mention, Post, PostFacts
from ptkg.stores.neo4j_store import Neo4jSettings, connect

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "corpus"
HANDMADE = REPO / "tests" / "data" / "graph.json"
MODEL = "en_core_web_sm"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository's root folder."""
    return REPO


@pytest.fixture(scope="session")
def sample_path() -> Path:
    """The bundled sample: the seed table dump, 100 rows of 8 posts."""
    return REPO / "data" / "seed_sample.txt"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The development corpus, shipped as test data: ``pytorch_blog.jsonl`` (66 posts of
    2018-2025), its seed-format rendering, ``2026/`` (21 posts as today's site's scraper saves
    them) and ``html/`` (a real WordPress page). A copy of ``../shared/corpus``."""
    return CORPUS


@pytest.fixture(scope="session")
def gold_sample_path() -> Path:
    """The gold annotation of the bundled sample, made by reading it."""
    return REPO / "tests" / "gold" / "sample.json"


@pytest.fixture(scope="session")
def sample_posts(sample_path: Path) -> dict[str, Post]:
    """The posts of the sample by url, in reading order."""
    return {post.url: post for post in read_posts([sample_path])}


@pytest.fixture(scope="session")
def handmade_graph_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hand-made graph's file (``tests/data/graph.json``, see ``tests/data/handmade.py``),
    copied to a session folder so that no test can change the committed file."""
    path = tmp_path_factory.mktemp("handmade") / "graph.json"
    shutil.copyfile(HANDMADE, path)
    return path


@pytest.fixture
def handmade_graph(handmade_graph_file: Path) -> nx.MultiDiGraph:
    """A fresh copy of the hand-made graph, read from its file."""
    return read_graph(handmade_graph_file)


@pytest.fixture(scope="session")
def sample_graph_file(tmp_path_factory: pytest.TempPathFactory, sample_path: Path) -> Path:
    """The sample's graph file, built once with the English model."""
    path = tmp_path_factory.mktemp("sample") / "graph.json"
    build([sample_path], path, model=MODEL)
    return path


@pytest.fixture(scope="session")
def sample_graph_json(sample_graph_file: Path) -> str:
    """The text of the sample's graph file."""
    return sample_graph_file.read_text(encoding="utf8")


@pytest.fixture
def sample_graph(sample_graph_file: Path) -> nx.MultiDiGraph:
    """A fresh copy of the sample's graph, read from its file."""
    return read_graph(sample_graph_file)


@pytest.fixture
def support_graph() -> nx.MultiDiGraph:
    """Two posts: PyTorch 2.1's, whose feature "Widget sparsity" runs on GPUs; a later one that
    says it runs on AMD GPUs too (what a release supports through its features)."""
    sparsity, gpu, amd = (Entity("Feature", "Widget sparsity"), Entity("Hardware", "GPU"),
                          Entity("Hardware", "AMD GPU"))

    def said(type_: str, source: Entity, target: Entity, stability: str | None = None) -> Fact:
        return Fact(type_, source, target, "test.rule", 0, 11, "A sentence.", stability)

    release = Entity("Release", "PyTorch 2.1")
    return build_graph([
        PostFacts("https://pytorch.org/blog/pytorch-2-1/", "PyTorch 2.1", None, None,
                  [Mention(release, "PyTorch 2.1", 0, 11)],
                  [said("INTRODUCES", release, sparsity, "Prototype"),
                   said("SUPPORTS", sparsity, gpu)]),
        PostFacts("https://pytorch.org/blog/pytorch-2-12/", "PyTorch 2.12", None, None, [],
                  [said("SUPPORTS", sparsity, amd)])])


@pytest.fixture(scope="session")
def sample_results(sample_posts: dict[str, Post]) -> list:
    """The facts extracted from the sample (English model, one process), in reading order."""
    return run_extraction(list(sample_posts.values()), model=MODEL, jobs=1)


@pytest.fixture(scope="session")
def blank_nlp() -> Language:
    """The pipeline with ptkg's rule components alone (no model weights)."""
    return load_nlp("blank")


@pytest.fixture(scope="session")
def english_nlp() -> Language:
    """The pipeline with the English model: rules that read the parse need it."""
    return load_nlp(MODEL)


@pytest.fixture(scope="session")
def corpus_graph_file(tmp_path_factory: pytest.TempPathFactory, corpus_dir: Path) -> Path:
    """The graph of the whole corpus a user has (``pytorch_blog.jsonl`` and
    ``2026/pytorch_blog_2026.jsonl``), built once with the English model and no cache, as
    ``ptkg build`` builds it (about 30 s). The everyday questions (``test_questions.py``) ask it."""
    path = tmp_path_factory.mktemp("corpus") / "graph.json"
    build([corpus_dir / "pytorch_blog.jsonl", corpus_dir / "2026" / "pytorch_blog_2026.jsonl"],
          path, model=MODEL, cache=False)
    return path


# --------------------------------------------------------------------------- Neo4j


def neo4j_required() -> bool:
    """Whether a missing server is a failure: in CI, or when PTKG_REQUIRE_NEO4J is set."""
    return any(os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")
               for name in ("CI", "PTKG_REQUIRE_NEO4J"))


def skip_or_fail(message: str) -> None:
    """Skip, or fail when a server is required (CI)."""
    if neo4j_required():
        pytest.fail(message + " (required: CI or PTKG_REQUIRE_NEO4J is set)", pytrace=False)
    pytest.skip(message)


def empty_database(driver: neo4j.Driver, database: str) -> None:
    """Delete every node and relationship (the test database belongs to the tests)."""
    while True:
        records, _, _ = driver.execute_query(
            "MATCH (n) WITH n LIMIT 10000 DETACH DELETE n RETURN count(*) AS deleted",
            database_=database)
        if records[0]["deleted"] == 0:
            return


@pytest.fixture(scope="session")
def neo4j_unavailable():
    """:func:`skip_or_fail`, for fixtures elsewhere that need the server in some other way."""
    return skip_or_fail


@pytest.fixture(scope="session")
def neo4j_settings() -> Neo4jSettings:
    """The server's settings, from the environment."""
    if not os.environ.get("NEO4J_URI"):
        skip_or_fail("NEO4J_URI is not set: no Neo4j server to test against "
                     "(`make test` starts one when java and mvn are on PATH)")
    return Neo4jSettings.from_env()


@pytest.fixture(scope="module")
def neo4j_driver(neo4j_settings: Neo4jSettings):
    """A verified driver for the module; a server that does not answer fails the tests."""
    try:
        driver = connect(neo4j_settings)
    except StoreError as error:
        pytest.fail(f"NEO4J_URI is set but: {error}", pytrace=False)
    with driver:
        yield driver


@pytest.fixture(scope="module")
def neo4j_empty(neo4j_driver: neo4j.Driver, neo4j_settings: Neo4jSettings):
    """A function that empties the database, for module-scoped setup fixtures."""
    return lambda: empty_database(neo4j_driver, neo4j_settings.database)


@pytest.fixture
def neo4j_clean(neo4j_driver: neo4j.Driver, neo4j_settings: Neo4jSettings) -> neo4j.Driver:
    """The driver, after emptying the database."""
    empty_database(neo4j_driver, neo4j_settings.database)
    return neo4j_driver
