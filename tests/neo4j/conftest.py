"""Fixtures for the tests that need a real Neo4j server: everything in this folder.

Every test collected under ``tests/neo4j/`` gets the ``neo4j`` marker (so ``-m "not neo4j"``
runs the rest on a machine without Java). The server and its fixtures (``neo4j_settings``,
``neo4j_driver``, ``neo4j_empty``, ``neo4j_clean``; without ``NEO4J_URI`` they skip, and fail
when ``CI`` or ``PTKG_REQUIRE_NEO4J`` is set) are in ``tests/conftest.py``, shared with the
Neo4j half of ``tests/stores/``. ``PTKG_NEO4J_MANAGED=1`` says that the server was started by
the scripts of ``docker/`` with this environment, so a test may kill and restart it
(``test_recovery.py``).

Fixtures here: ``neo4j_server`` (kill and start the managed server; it is started again after
the test) and ``loaded`` (the hand-made graph, ``tests/data/graph.json``, loaded once for a
module of read-only tests).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ptkg.graph import read_graph
from ptkg.stores.neo4j_store import Neo4jSettings, load_graph

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.neo4j)


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
def neo4j_server(neo4j_settings: Neo4jSettings, repo_root: Path, neo4j_unavailable):
    """The managed server, started again after the test whatever happened to it."""
    if os.environ.get("PTKG_NEO4J_MANAGED") != "1":
        neo4j_unavailable("the server was not started by docker/neo4j-start.sh for these tests "
                     "(PTKG_NEO4J_MANAGED=1 is not set): not killing it")
    server = ManagedServer(repo_root)
    yield server
    server.start()


@pytest.fixture(scope="module")
def loaded(neo4j_driver, neo4j_settings, neo4j_empty, handmade_graph_file):
    """The hand-made graph, loaded once for a module of read-only tests."""
    neo4j_empty()
    graph = read_graph(handmade_graph_file)
    load_graph(neo4j_driver, graph, neo4j_settings.database)
    return graph
