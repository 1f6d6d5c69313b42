"""Imports follow the data flow: reading a graph needs neither spaCy nor the Neo4j driver.

The static contracts are import-linter's (``.ci/lint-imports``, run by ``make test``); this
checks what a real command imports when it runs.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
from ptkg.cli import main
try:
    main(sys.argv[1:], standalone_mode=False)
finally:
    heavy = sorted(m for m in ("spacy", "thinc", "neo4j", "grandcypher") if m in sys.modules)
    print(json.dumps(heavy), file=sys.stderr)
"""


def imported(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True,
                          text=True, check=True, timeout=120)
    return json.loads(done.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize(("args", "heavy"), [
    (["stats"], []),
    (["show", "torch.fx"], []),
    (["lifecycle", "torch.fx"], []),
    (["query", "MATCH (r:Release) RETURN COUNT(r) AS n"], []),  # the compiled executor
])
def test_commands_import_only_what_they_use(sample_graph_file, args, heavy):
    """Issue 9: `ptkg stats` does not import spaCy (nor the driver, nor grand-cypher)."""
    assert imported(*args, "--graph", str(sample_graph_file)) == heavy
