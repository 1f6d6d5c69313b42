"""Faults against a real Neo4j: wrong credentials (issue 3), a server dying mid-load (issue 10).

Wrong credentials give a clear message, and the password is nowhere; a server killed mid-load
fails the load about the timeout after, with a line that says what is retried. The unreachable
server and a port that never answers need no server: see ``tests/test_neo4j_store.py``. Syntax
errors on Neo4j: ``test_query.py``.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import time

import pytest
from click.testing import CliRunner

from ptkg.cli import main
from ptkg.errors import StoreError
from ptkg.stores.neo4j_store import Neo4jSettings, connect, load_graph, run_query

WRONG = "wrong-Pa55word-4c1d"


@pytest.fixture
def unlock_after(neo4j_settings):
    """Wait, after the test, until the right password works again: Neo4j locks a user out for a
    few seconds after three failed logins in a row, which would fail the next tests."""
    yield
    deadline = time.monotonic() + 60
    while True:
        try:
            connect(neo4j_settings).close()
            return
        except StoreError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def run(*args: str, env: dict | None = None):
    return CliRunner(env=env).invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("how", ["option", "env"])
@pytest.mark.parametrize("command", [["query", "--backend", "neo4j", "RETURN 1 AS one"],
                                     ["neo4j", "load"]])
def test_cli_wrong_password_is_a_clear_error_without_the_password(
        neo4j_settings, sample_graph_file, caplog, unlock_after, how, command):
    caplog.set_level(logging.DEBUG, logger="neo4j")
    args = [*command, "--graph", sample_graph_file] if command[0] == "neo4j" else command
    if how == "option":
        result = run(*args, "--password", WRONG)
    else:
        result = run(*args, env={"NEO4J_PASSWORD": WRONG})
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"Error: Neo4j at {neo4j_settings.display_uri} refused the login as user "
        f"{neo4j_settings.user!r} (authentication failed): check NEO4J_USERNAME and "
        "NEO4J_PASSWORD (or --user and --password)"]
    assert WRONG not in result.output
    assert caplog.records, "the driver's debug log was not captured: the next check would pass"
    assert WRONG not in caplog.text


def test_connect_logs_no_password(neo4j_settings, caplog):
    """The driver's debug log of a successful login does not hold the password."""
    caplog.set_level(logging.DEBUG, logger="neo4j")
    with connect(neo4j_settings) as driver:
        driver.execute_query("RETURN 1", database_=neo4j_settings.database)
    assert caplog.records
    assert neo4j_settings.password
    assert neo4j_settings.password not in caplog.text


@pytest.mark.parametrize("database", ["no-such-database"])
def test_connect_unknown_database_is_a_store_error(neo4j_settings, database):
    settings = Neo4jSettings(neo4j_settings.uri, neo4j_settings.user, neo4j_settings.password,
                             database)
    with connect(settings) as driver, pytest.raises(StoreError) as raised:
        run_query(driver, "RETURN 1", {}, database)
    assert str(raised.value).startswith(f"Neo4j at {settings.display_uri} ")
    assert neo4j_settings.password not in str(raised.value)


def test_issue10_server_dying_mid_load_fails_within_the_timeout(neo4j_settings, neo4j_server,
                                                                 handmade_graph):
    """Issue 10, item 14: a server killed mid-load gave 60 s of silence, then one line. Now a
    line says what is retried, and the load fails about ``timeout`` seconds after the kill."""
    settings = dataclasses.replace(neo4j_settings, timeout=3.0)
    notices: list[str] = []
    killed: list[float] = []

    def kill_after_first_batch(rows: int) -> None:
        if not killed:
            neo4j_server.kill()
            killed.append(time.monotonic())

    with connect(settings, notify=notices.append) as driver, \
            pytest.raises(StoreError) as raised:
        load_graph(driver, handmade_graph, settings.database, batch_size=2,
                   progress=kill_after_first_batch, notify=notices.append)
    waited = time.monotonic() - killed[0]
    assert waited < settings.timeout + 5
    assert str(raised.value) == (
        f"cannot reach Neo4j at {settings.display_uri} ([Errno 111] Connection refused): is "
        "the server running? check NEO4J_URI or --uri")
    assert len(notices) == 1
    assert re.fullmatch(
        rf"waiting for Neo4j at {re.escape(settings.display_uri)}: writing batch 2 \(2 \w+ "
        r"rows\) failed \(.+\); retrying \(timeout 3 s\)", notices[0]), notices
