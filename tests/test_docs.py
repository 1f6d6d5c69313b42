"""The README documents every command, so the docs cannot drift from the CLI."""

from __future__ import annotations

import re

import pytest

from ptkg.cli import main

COMMANDS = sorted(main.commands)


@pytest.fixture(scope="module")
def readme(repo_root) -> str:
    return (repo_root / "README.md").read_text(encoding="utf8")


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_documents_command(readme, command):
    assert re.search(rf"\bptkg {re.escape(command)}\b", readme), (
        f"README.md does not show `ptkg {command}`")


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_documents_command_options(readme, command):
    options = sorted({opt for param in main.commands[command].params
                      for opt in param.opts if opt.startswith("--") and opt != "--help"})
    assert [opt for opt in options if opt not in readme] == []
