"""The CSV export, imported by Neo4j 5.26's own import tool through neo4j-admin-import.sh.

``neo4j-admin`` is the admin CLI (``org.neo4j.cli.AdminTool``) on the classpath of the Maven
project that ``docker/neo4j-start.sh`` builds (``docker/neo4j-embedded/target/lib``); no server
is needed. The test runs the generated script unchanged and checks that the import succeeds
with one node per graph node and one relationship per graph edge. (That the imported store
then reads back as the same graph was checked by hand, starting a server on it: see the
report of issue 3.) Skipped when java or that build is missing, as the other tests of this
folder are when there is no server; CI builds it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import networkx as nx
import pytest

from ptkg.export import write_csv
from ptkg.graph import node_id

REPO = Path(__file__).resolve().parents[2]
TARGET = REPO / "docker" / "neo4j-embedded" / "target"


@pytest.fixture(scope="module")
def neo4j_admin(tmp_path_factory) -> Path:
    """A ``neo4j-admin`` command running the admin CLI of the embedded build."""
    java = shutil.which("java")
    jar = TARGET / "ptkg-neo4j-embedded.jar"
    if not java or not (TARGET / "lib").is_dir() or not jar.exists():
        message = "java or the embedded Neo4j build (docker/neo4j-start.sh builds it) is missing"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    script = tmp_path_factory.mktemp("bin") / "neo4j-admin"
    script.write_text(f'#!/bin/sh\nexec "{java}" -Xmx512m -cp "{TARGET / "lib"}/*:{jar}" '
                      'org.neo4j.cli.AdminTool "$@"\n')
    script.chmod(0o755)
    return script


def odd_graph() -> nx.MultiDiGraph:
    """Quotes, line breaks, ``;`` and ``|`` in list elements (so U+001F is the delimiter)."""
    graph = nx.MultiDiGraph()
    names = ['say "hi"', "semi;colon", "pipe|bar", "line\r\nbreak", "東京 🚀"]
    for name in names:
        graph.add_node(node_id("Feature", name), label="Feature", name=name,
                       aliases=[name, f"{name};|x"], mentions=1)
    for a, b in zip(names, names[1:], strict=False):
        graph.add_edge(node_id("Feature", a), node_id("Feature", b), key="BASED_ON",
                       type="BASED_ON", evidence=[f'"{a}", then {b}'], offsets=[None, [1, 2]])
    return graph


def import_counts(admin: Path, folder: Path, home: Path) -> tuple[int, int]:
    (home / "conf").mkdir(parents=True)
    (home / "conf" / "neo4j.conf").write_text("")
    env = {**os.environ, "NEO4J_ADMIN": str(admin), "NEO4J_HOME": str(home),
           "NEO4J_CONF": str(home / "conf"), "DATABASE": "neo4j"}
    done = subprocess.run(["bash", str(folder / "neo4j-admin-import.sh"),
                           "--max-off-heap-memory=256m"],
                          env=env, capture_output=True, text=True, timeout=600, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    found = re.search(r"Imported:\s+(\d+) nodes\s+(\d+) relationships", output)
    assert found, output[-3000:]
    return int(found.group(1)), int(found.group(2))


@pytest.mark.parametrize("which", ["handmade", "odd"])
def test_neo4j_admin_imports_the_csv_export(which, neo4j_admin, request, tmp_path):
    graph = request.getfixturevalue("handmade_graph") if which == "handmade" else odd_graph()
    export = write_csv(graph, tmp_path / "csv")
    if which == "odd":
        assert export.array_delimiter == "\x1f"
    nodes, rels = import_counts(neo4j_admin, tmp_path / "csv", tmp_path / "home")
    assert (nodes, rels) == (graph.number_of_nodes(), graph.number_of_edges())
