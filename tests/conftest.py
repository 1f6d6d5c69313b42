"""Fixtures shared by every test module: the bundled data, and the sample graph built once.

The graph of ``data/seed_sample.txt`` is built once per session with the English model
(``ptkg.build.build``, as ``ptkg build`` does) and kept as a file; tests get a fresh
``MultiDiGraph`` read from it, so a test may change its copy without touching the others.
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from spacy.language import Language

from ptkg.build import build
from ptkg.extractors.pipeline import load_nlp, run_extraction
from ptkg.graph import read_graph
from ptkg.readers import read_posts
from ptkg.records import Post

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "corpus"
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
