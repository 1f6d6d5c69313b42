"""Fixtures for the tests that need a real Neo4j server: everything in this folder.

Every test collected under ``tests/neo4j/`` gets the ``neo4j`` marker (so ``-m "not neo4j"``
runs the rest on a machine without Java). The server is the one ``make test`` starts with
``docker/neo4j-start.sh`` (``.ci/with-neo4j``), reached through the standard variables
``NEO4J_URI``, ``NEO4J_USERNAME``, ``NEO4J_PASSWORD`` and ``NEO4J_DATABASE``.

Without ``NEO4J_URI`` these tests skip — and fail when ``CI`` or ``PTKG_REQUIRE_NEO4J`` is set,
so CI cannot pass without a real server. A ``NEO4J_URI`` whose server does not answer always
fails. ``PTKG_NEO4J_MANAGED=1`` says that the server was started by the scripts of ``docker/``
with this environment, so a test may kill and restart it (``test_recovery.py``).

Fixtures: ``neo4j_settings`` (session), ``neo4j_driver`` (one per module), ``neo4j_clean`` (the
driver, after emptying the database: use it in every test that writes), ``neo4j_empty`` (a
function that empties it, for module-scoped setup), ``neo4j_server`` (kill and start the managed
server; it is started again after the test). The graph of the
bundled sample comes from ``tests/conftest.py`` (``sample_graph``, ``sample_graph_file``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import neo4j
import pytest

from ptkg.errors import StoreError
from ptkg.graph import read_graph
from ptkg.stores.neo4j_store import Neo4jSettings, connect, load_graph

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.neo4j)


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


class ManagedServer:
    """The server of ``docker/neo4j-start.sh``, which a test may kill and start again."""

    def __init__(self, repo: Path):
        self.start_script = repo / "docker" / "neo4j-start.sh"
        self.stop_script = repo / "docker" / "neo4j-stop.sh"

    def _run(self, *command: str | Path, timeout: float) -> subprocess.CompletedProcess:
        env = {**os.environ, "PYTHON": sys.executable}
        return subprocess.run([str(c) for c in command], env=env, capture_output=True, text=True,
                              timeout=timeout, check=False)

    def kill(self) -> None:
        """SIGKILL the server (a crash)."""
        done = self._run(self.stop_script, "--kill", timeout=60)
        assert done.returncode == 0, done.stderr

    def start(self) -> None:
        """Start the server (it recovers its store) and wait until Bolt answers."""
        done = self._run(self.start_script, timeout=400)
        assert done.returncode == 0, done.stderr


@pytest.fixture
def neo4j_server(neo4j_settings: Neo4jSettings, repo_root: Path):
    """The managed server, started again after the test whatever happened to it."""
    if os.environ.get("PTKG_NEO4J_MANAGED") != "1":
        skip_or_fail("the server was not started by docker/neo4j-start.sh for these tests "
                     "(PTKG_NEO4J_MANAGED=1 is not set): not killing it")
    server = ManagedServer(repo_root)
    yield server
    server.start()


@pytest.fixture(scope="module")
def loaded(neo4j_driver, neo4j_settings, neo4j_empty, sample_graph_file):
    """The sample's graph, loaded once for a module of read-only tests."""
    neo4j_empty()
    graph = read_graph(sample_graph_file)
    load_graph(neo4j_driver, graph, neo4j_settings.database)
    return graph
