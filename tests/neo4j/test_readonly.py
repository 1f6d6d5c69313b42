"""The read-only path to Neo4j is really read-only, against the real server (issue 10, item 12).

``run_query`` (``ptkg query --backend neo4j``, named queries, agents) must refuse file access,
administration, ``USE`` and procedures outside its allow-list, however they are spelled, and
still run ordinary reads. Each refusal is tried on the server and its effect checked (the
other session's write survives, no user is created, no file is read). The second layer alone,
:func:`plan_refusal` on the server's own ``EXPLAIN`` plans, is tested too, as is the embedded
server's configuration (file URLs off, an empty import folder, HTTP serving the Browser only).
The same refusals without a server: ``tests/test_neo4j_store.py``.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import neo4j
import pytest
from click.testing import CliRunner

from ptkg.cli import main
from ptkg.errors import QueryError
from ptkg.named_queries import load_queries
from ptkg.stores.neo4j_store import (
    READ_PROCEDURES,
    Neo4jSettings,
    plan_refusal,
    run_query,
)

REFUSED = "ptkg runs read-only queries: "
PASSWD = "file:///etc/passwd"
U = "\\u"  # a Java unicode escape in the query text, as a client would send it


def refused(driver: neo4j.Driver, settings: Neo4jSettings, query: str,
            params: dict | None = None) -> str:
    """The one-line refusal of ``query`` by the read path (fails when it runs)."""
    with pytest.raises(QueryError) as raised:
        run_query(driver, query, params or {}, settings.database, notify=None)
    message = str(raised.value)
    assert "\n" not in message
    assert "root:" not in message
    return message


def managed_only(neo4j_unavailable) -> None:
    if os.environ.get("PTKG_NEO4J_MANAGED") != "1":
        neo4j_unavailable("the server was not started by docker/neo4j-start.sh "
                          "(PTKG_NEO4J_MANAGED=1 is not set): its configuration is not ptkg's")


# --------------------------------------------------------------------------- file access


@pytest.mark.parametrize(("query", "params"), [
    (f'LOAD CSV FROM "{PASSWD}" AS row RETURN row', {}),
    (f"load csv from '{PASSWD}' as row return row", {}),
    (f'LoAd /* not a comment to Neo4j? it is */ CsV FROM "{PASSWD}" AS row RETURN row', {}),
    (f'// a comment first\nLOAD // and one inside\nCSV FROM "{PASSWD}" AS row RETURN row', {}),
    (f'LOAD CSV FROM "{PASSWD}" AS `row` RETURN `row` AS `LOAD CSV`', {}),
    (f'LOAD CSV WITH HEADERS FROM "{PASSWD}" AS row FIELDTERMINATOR ":" RETURN row', {}),
    (f'CALL {{ LOAD CSV FROM "{PASSWD}" AS row RETURN row }} RETURN row', {}),
    (f'MATCH (n) WITH count(n) AS c CALL {{ WITH c LOAD CSV FROM "{PASSWD}" AS row '
     "RETURN row }} RETURN row", {}),
    (f'RETURN ["x"] AS row UNION LOAD CSV FROM "{PASSWD}" AS row RETURN row', {}),
    (f'{U}004cOAD CSV FROM "{PASSWD}" AS row RETURN row', {}),
    (f'{U}006c{U}006f{U}0061{U}0064 CSV FROM "{PASSWD}" AS row RETURN row', {}),
    ('LOAD CSV FROM $url AS row RETURN row', {"url": PASSWD}),
    ('LOAD CSV FROM "https://example.org/posts.csv" AS row RETURN row', {}),
], ids=["plain", "lower-case", "block-comment", "line-comments", "backticks", "headers",
        "in-call-subquery", "in-nested-call", "after-union", "unicode-escape",
        "unicode-escapes-lower", "url-parameter", "remote-url"])
def test_issue10_run_query_refuses_load_csv(neo4j_driver, neo4j_settings, query, params):
    """LOAD CSV is refused however it is written: issue 10 read the server's /etc/passwd."""
    assert refused(neo4j_driver, neo4j_settings, query, params) == REFUSED + \
        "LOAD CSV is not allowed"


@pytest.mark.parametrize("query", [
    f'WITH "{PASSWD}" AS url LOAD CSV FROM url AS row RETURN row',
    f"RETURN 'FILE:/etc/passwd' AS url, '{PASSWD}' AS again",
    f'RETURN "{U}0066ile:///etc/passwd" AS url',
], ids=["variable", "upper-case", "unicode-escape"])
def test_run_query_refuses_file_urls(neo4j_driver, neo4j_settings, query):
    assert refused(neo4j_driver, neo4j_settings, query) == REFUSED + "file URLs are not allowed"


def test_issue10_cli_load_csv_is_one_line_and_reads_nothing():
    result = CliRunner().invoke(
        main, ["query", "--backend", "neo4j", f'LOAD CSV FROM "{PASSWD}" AS row RETURN row'])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines()[-1] == "Error: " + REFUSED + "LOAD CSV is not allowed"
    assert "root:" not in result.output


# --------------------------------------------------------------------------- transactions


@pytest.fixture
def open_write(neo4j_driver, neo4j_settings):
    """Another client's open write transaction (a node created, not committed) and its id."""
    session = neo4j_driver.session(database=neo4j_settings.database)
    tx = session.begin_transaction(metadata={"ptkg_test": "survivor"})
    tx.run("CREATE (:ReadOnlyProbe {name: 'survivor'})").consume()
    records, _, _ = neo4j_driver.execute_query(
        "SHOW TRANSACTIONS YIELD transactionId, metaData "
        "WHERE metaData.ptkg_test = 'survivor' RETURN transactionId",
        database_=neo4j_settings.database)
    assert len(records) == 1
    yield tx, records[0]["transactionId"]
    with contextlib.suppress(Exception):
        tx.close()
    session.close()
    neo4j_driver.execute_query("MATCH (n:ReadOnlyProbe) DETACH DELETE n",
                               database_=neo4j_settings.database)


@pytest.mark.parametrize("template", [
    'TERMINATE TRANSACTIONS "{id}"',
    "terminate transaction '{id}'",
    'TERMINATE /* x */ TRANSACTIONS // y\n "{id}"',
    U + '0054ERMINATE TRANSACTIONS "{id}"',
    'TERMINATE TRANSACTIONS "{id}" YIELD transactionId, message RETURN transactionId, message',
    'SHOW TRANSACTIONS YIELD transactionId AS t WHERE t = "{id}" '
    "TERMINATE TRANSACTIONS t YIELD message RETURN message",
], ids=["plain", "lower-case", "comments", "unicode-escape", "yield", "after-show"])
def test_issue10_terminate_cannot_kill_another_clients_write(neo4j_driver, neo4j_settings,
                                                             open_write, template):
    """Issue 10: TERMINATE TRANSACTIONS from the read path killed another client's write."""
    tx, transaction_id = open_write
    message = refused(neo4j_driver, neo4j_settings, template.format(id=transaction_id))
    assert message in (REFUSED + "TERMINATE TRANSACTIONS is not allowed",
                       REFUSED + "TERMINATE TRANSACTION is not allowed",
                       REFUSED + "SHOW TRANSACTIONS is not allowed")
    tx.commit()  # raises when the transaction was terminated
    records, _, _ = neo4j_driver.execute_query(
        "MATCH (n:ReadOnlyProbe {name: 'survivor'}) RETURN count(n) AS n",
        database_=neo4j_settings.database)
    assert records[0]["n"] == 1


@pytest.mark.parametrize(("query", "reason"), [
    ("SHOW TRANSACTIONS", "SHOW TRANSACTIONS is not allowed"),
    ("show transactions yield *", "SHOW TRANSACTIONS is not allowed"),
    ("SHOW /* x */ TRANSACTION", "SHOW TRANSACTION is not allowed"),
    (f"{U}0053HOW TRANSACTIONS", "SHOW TRANSACTIONS is not allowed"),
    ("SHOW TRANSACTIONS YIELD metaData RETURN metaData", "SHOW TRANSACTIONS is not allowed"),
    ("SHOW USERS", "SHOW USERS is not allowed"),
    ("SHOW CURRENT USER", "SHOW CURRENT USER is not allowed"),
    ("SHOW DATABASES", "SHOW DATABASES is not allowed"),
    ("SHOW SETTINGS YIELD name, value RETURN name, value", "SHOW SETTINGS is not allowed"),
    ("SHOW PROCEDURES", "SHOW PROCEDURES is not allowed"),
    ("SHOW ALL ROLES", "SHOW ALL ROLES is not allowed"),
    ("SHOW INDEXES", "SHOW INDEXES is not allowed"),
], ids=["transactions", "lower-case-yield", "comment", "unicode-escape", "metadata", "users",
        "current-user", "databases", "settings", "procedures", "roles", "indexes"])
def test_issue10_run_query_refuses_show(neo4j_driver, neo4j_settings, open_write, query,
                                        reason):
    """Issue 10: SHOW TRANSACTIONS showed other sessions' metadata; no SHOW runs."""
    assert refused(neo4j_driver, neo4j_settings, query) == REFUSED + reason


# --------------------------------------------------------------------------- procedures


@pytest.mark.parametrize(("query", "name"), [
    ("CALL dbms.listConfig()", "dbms.listConfig"),
    ("CALL dbms.listConfig", "dbms.listConfig"),
    ("CALL `dbms`.`listConfig`() YIELD name, value RETURN name, value", "dbms.listConfig"),
    ("MATCH (n) WITH count(n) AS c CALL dbms.listConfig() YIELD name RETURN name",
     "dbms.listConfig"),
    ("OPTIONAL CALL dbms.components()", "dbms.components"),
    (f"CALL dbms.{U}006cistConfig()", "dbms.listConfig"),
    ('CALL db.createLabel("Injected")', "db.createLabel"),
    ("CALL db.clearQueryCaches()", "db.clearQueryCaches"),
    ("CALL db.ping()", "db.ping"),
    ("CALL DB.LABELS()", "DB.LABELS"),
    ("CALL apoc.load.json('file:///etc/hostname')", "apoc.load.json"),
], ids=["listConfig", "no-parentheses", "backticks", "after-match", "optional-call",
        "unicode-escape", "db-write", "db-admin", "db-other", "wrong-case", "apoc"])
def test_issue10_run_query_refuses_procedures_off_the_allow_list(neo4j_driver, neo4j_settings,
                                                                 query, name):
    assert refused(neo4j_driver, neo4j_settings, query) == (
        f"{REFUSED}CALL {name} is not allowed (procedures allowed: "
        f"{', '.join(sorted(READ_PROCEDURES))})")
    records, _, _ = neo4j_driver.execute_query("CALL db.labels() YIELD label RETURN label",
                                               database_=neo4j_settings.database)
    assert "Injected" not in {record["label"] for record in records}


@pytest.mark.parametrize("query", [
    "RETURN apoc.version() AS v",
    "RETURN `apoc`.`text`.join(['a'], ',') AS v",
    "MATCH (n) WHERE gds.similarity.cosine([1], [1]) > 0 RETURN n",
])
def test_run_query_refuses_functions_outside_cyphers_own(neo4j_driver, neo4j_settings, query):
    assert refused(neo4j_driver, neo4j_settings, query).startswith(REFUSED + "function ")


# --------------------------------------------------------------------------- USE, administration


@pytest.mark.parametrize(("query", "database"), [
    ("USE system SHOW USERS", "system"),
    ("USE system MATCH (n) RETURN n", "system"),
    ("use `system` SHOW DATABASES", "system"),
    ("CALL { USE system SHOW USERS YIELD user RETURN user } RETURN user", "system"),
    ("RETURN 1 AS x UNION USE system SHOW USERS YIELD user AS x RETURN x", "system"),
    ("USE neo4j MATCH (n) RETURN count(n) AS n", "neo4j"),
    ("USE graph.byName('system') MATCH (n) RETURN n", "graph"),
], ids=["system-show", "system-match", "backticks", "in-call", "after-union", "same-database",
        "graph-by-name"])
def test_run_query_refuses_use(neo4j_driver, neo4j_settings, query, database):
    assert refused(neo4j_driver, neo4j_settings, query) == (
        f"{REFUSED}USE {database} is not allowed: queries run on the configured database "
        "(NEO4J_DATABASE or --database)")


@pytest.mark.parametrize(("query", "reason"), [
    ("CREATE USER ptkg_probe SET PASSWORD 'probe-password-1'", "CREATE USER is not allowed"),
    ("create user ptkg_probe set password 'probe-password-1' change not required",
     "CREATE USER is not allowed"),
    ("CREATE OR REPLACE USER ptkg_probe SET PASSWORD 'probe-password-1'",
     "CREATE OR REPLACE USER is not allowed"),
    ("ALTER USER ptkg_probe SET PASSWORD 'probe-password-2'", "ALTER USER is not allowed"),
    ("DROP USER ptkg_probe", "DROP USER is not allowed"),
    ("CREATE ROLE ptkg_role", "CREATE ROLE is not allowed"),
    ("GRANT ROLE reader TO ptkg_probe", "GRANT ROLE is not allowed"),
    ("DENY READ {*} ON GRAPH * TO ptkg_role", "DENY READ is not allowed"),
    ("REVOKE ROLE reader FROM ptkg_probe", "REVOKE ROLE is not allowed"),
    ("CREATE DATABASE ptkg_probe", "CREATE DATABASE is not allowed"),
    ("STOP DATABASE ptkg_probe", "STOP DATABASE is not allowed"),
    ("START DATABASE ptkg_probe", "START DATABASE is not allowed"),
    ("CREATE INDEX ptkg_probe FOR (n:ReadOnlyProbe) ON (n.name)", "CREATE INDEX is not allowed"),
    ("DROP INDEX ptkg_probe IF EXISTS", "DROP INDEX is not allowed"),
    ("CREATE RANGE INDEX ptkg_probe FOR (n:ReadOnlyProbe) ON (n.name)",
     "CREATE RANGE INDEX is not allowed"),
    ("EXPLAIN MATCH (n) RETURN n", "EXPLAIN is not allowed (ptkg prints a query's rows, not "
                                   "its plan)"),
    ("PROFILE MATCH (n) RETURN n", "PROFILE is not allowed (ptkg prints a query's rows, not "
                                   "its plan)"),
    ("CYPHER runtime=slotted PROFILE MATCH (n) RETURN n",
     "PROFILE is not allowed (ptkg prints a query's rows, not its plan)"),
], ids=["create-user", "create-user-lower", "create-or-replace", "alter-user", "drop-user",
        "create-role", "grant", "deny", "revoke", "create-database", "stop-database",
        "start-database", "create-index", "drop-index", "create-range-index", "explain",
        "profile", "cypher-options-profile"])
def test_run_query_refuses_administration(neo4j_driver, neo4j_settings, query, reason):
    assert refused(neo4j_driver, neo4j_settings, query) == REFUSED + reason
    records, _, _ = neo4j_driver.execute_query("SHOW USERS YIELD user RETURN user",
                                               database_="system")
    assert {record["user"] for record in records} == {"neo4j"} | (
        {neo4j_settings.user} if neo4j_settings.user else set())
    records, _, _ = neo4j_driver.execute_query("SHOW INDEXES YIELD name RETURN name",
                                               database_=neo4j_settings.database)
    assert "ptkg_probe" not in {record["name"] for record in records}


@pytest.mark.parametrize("query", [
    'CREATE (:Release {name: "PyTorch 9.9"})',
    'MERGE (r:Release {name: "PyTorch 9.9"}) RETURN r',
    'MATCH (r:Release) SET r.name = "overwritten"',
    "MATCH (r:Release) DETACH DELETE r",
    "MATCH (r:Release) REMOVE r:Release",
    "MATCH (r:Release) FOREACH (x IN [1] | SET r.x = x)",
])
def test_run_query_refuses_writes(neo4j_driver, neo4j_settings, loaded, query):
    message = refused(neo4j_driver, neo4j_settings, query)
    assert message == ("cannot run Cypher query: Writing in read access mode not allowed "
                       "(ptkg runs read-only queries)")
    records, _, _ = neo4j_driver.execute_query(
        "MATCH (r:Release) RETURN count(r) AS n, collect(r.name) AS names",
        database_=neo4j_settings.database)
    expected = sorted(data["name"] for _, data in loaded.nodes(data=True)
                      if data["label"] == "Release")
    assert sorted(records[0]["names"]) == expected


# --------------------------------------------------------------------------- reads still work


@pytest.mark.parametrize(("query", "column"), [
    ("CALL db.labels() YIELD label RETURN label", "label"),
    ("CALL db.labels()", "label"),
    ("CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType",
     "relationshipType"),
    ("CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey", "propertyKey"),
])
def test_run_query_allows_the_schema_procedures(neo4j_driver, neo4j_settings, loaded, query,
                                                column):
    columns, rows = run_query(neo4j_driver, query, {}, neo4j_settings.database, notify=None)
    assert columns == [column]
    found = {row[0] for row in rows}
    if column == "label":
        assert {data["label"] for _, data in loaded.nodes(data=True)} <= found
    else:
        assert found


def test_run_query_allows_schema_visualization(neo4j_driver, neo4j_settings, loaded):
    columns, rows = run_query(neo4j_driver, "CALL db.schema.visualization()", {},
                              neo4j_settings.database, notify=None)
    assert columns == ["nodes", "relationships"]
    assert {node["name"] for node in rows[0][0]} >= {"Release", "Feature"}


@pytest.mark.parametrize(("query", "rows"), [
    ('MATCH (r:Release) WHERE r.name = "LOAD CSV FROM \'https://x\' SHOW USERS" '
     "RETURN r.name AS name", []),
    ("MATCH (r:Release) // SHOW USERS\nWITH count(r) AS start RETURN start > 0 AS ok", [[True]]),
    ("UNWIND ['a'] AS use WITH use AS show RETURN show AS stop", [["a"]]),
    ('RETURN date.truncate("year", date("2021-03-04")) AS year, '
     "point.distance(point({x: 0, y: 0}), point({x: 3, y: 4})) AS d", [["2021-01-01", 5.0]]),
    ("RETURN 'call me' AS `CALL dbms.listConfig()`", [["call me"]]),
    ("RETURN 'it\\'s LOAD CSV, \\u0022quoted\\u0022' AS text", [["it's LOAD CSV, \"quoted\""]]),
], ids=["keywords-in-strings", "keywords-in-comments-and-names", "variables-named-like-commands",
        "built-in-functions", "backticked-column", "escaped-quotes"])
def test_run_query_still_runs_reads_that_look_odd(neo4j_driver, neo4j_settings, loaded, query,
                                                  rows):
    assert run_query(neo4j_driver, query, {}, neo4j_settings.database, notify=None)[1] == rows


@pytest.mark.parametrize("name", sorted(load_queries()))
def test_named_queries_pass_both_layers(neo4j_driver, neo4j_settings, loaded, name):
    """Every named query is a plain read to the server's plan too (parity: test_parity.py)."""
    query = load_queries()[name]
    with neo4j_driver.session(database=neo4j_settings.database,
                              default_access_mode=neo4j.READ_ACCESS) as session:
        summary = session.run("EXPLAIN " + query.text, query.example_params).consume()
    assert plan_refusal(summary.query_type, summary.plan, neo4j_settings.database,
                        summary.database) is None
    run_query(neo4j_driver, query.text, query.example_params, neo4j_settings.database,
              notify=None)


# --------------------------------------------------------------------------- the plan layer alone


@pytest.mark.parametrize(("query", "reason"), [
    (f'LOAD CSV FROM "{PASSWD}" AS row RETURN row', "LOAD CSV is not allowed"),
    (f'CALL {{ LOAD CSV FROM "{PASSWD}" AS row RETURN row }} RETURN row',
     "LOAD CSV is not allowed"),
    ("SHOW TRANSACTIONS", "SHOW TRANSACTIONS is not allowed"),
    ('TERMINATE TRANSACTIONS "neo4j-transaction-999999"', "TERMINATE TRANSACTIONS is not allowed"),
    ("SHOW SETTINGS", "SHOW SETTINGS is not allowed"),
    ("SHOW USERS", "AdministrationCommand is not allowed (administration, or CALL {} IN "
                   "TRANSACTIONS)"),
    ("CALL dbms.listConfig()", "CALL dbms.listConfig is not allowed (procedures allowed: "
                               + ", ".join(sorted(READ_PROCEDURES)) + ")"),
    ("RETURN 1 AS x UNION CALL dbms.components() YIELD name AS x RETURN x",
     "CALL dbms.components is not allowed (procedures allowed: "
     + ", ".join(sorted(READ_PROCEDURES)) + ")"),
    ('CALL db.createLabel("Injected")', "CALL db.createLabel is not allowed (procedures "
                                        "allowed: " + ", ".join(sorted(READ_PROCEDURES)) + ")"),
    ("CREATE (n:ReadOnlyProbe)", "the query writes"),
    ("CREATE INDEX ptkg_probe FOR (n:ReadOnlyProbe) ON (n.name)",
     "schema and administration commands are not allowed"),
], ids=["load-csv", "load-csv-in-call", "show-transactions", "terminate", "show-settings",
        "show-users", "procedure", "procedure-after-union", "db-write-procedure", "write",
        "schema"])
def test_plan_refusal_on_the_servers_own_plans(neo4j_driver, neo4j_settings, query, reason):
    """The second layer by itself: what the server's EXPLAIN says is enough to refuse."""
    with neo4j_driver.session(database=neo4j_settings.database,
                              default_access_mode=neo4j.READ_ACCESS) as session:
        summary = session.run("EXPLAIN " + query).consume()
    assert plan_refusal(summary.query_type, summary.plan, neo4j_settings.database,
                        summary.database) == reason


# --------------------------------------------------------------------------- the embedded server


def test_embedded_server_disallows_file_urls(neo4j_driver, neo4j_settings, neo4j_unavailable):
    """Even an administrator's own LOAD CSV, outside ptkg's read path, reads no file."""
    managed_only(neo4j_unavailable)
    with pytest.raises(neo4j.exceptions.ClientError) as raised:
        neo4j_driver.execute_query(f'LOAD CSV FROM "{PASSWD}" AS row RETURN row',
                                   database_=neo4j_settings.database)
    assert "allow_csv_import_from_file_urls" in str(raised.value)
    records, _, _ = neo4j_driver.execute_query(
        "CALL dbms.listConfig() YIELD name, value WHERE name IN $names RETURN name, value",
        names=["dbms.security.allow_csv_import_from_file_urls", "server.directories.import",
               "dbms.security.procedures.unrestricted"], database_=neo4j_settings.database)
    config = {record["name"]: record["value"] for record in records}
    assert config["dbms.security.allow_csv_import_from_file_urls"] == "false"
    assert config["dbms.security.procedures.unrestricted"] == ""
    import_root = Path(config["server.directories.import"])
    assert import_root.name == "import"
    assert list(import_root.iterdir()) == []


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def browser_server(repo_root, tmp_path_factory, neo4j_unavailable):
    """A second embedded server, with NEO4J_HTTP_PORT: Bolt and HTTP ports, stopped after."""
    managed_only(neo4j_unavailable)
    home = tmp_path_factory.mktemp("neo4j-browser")
    bolt, http = free_port(), free_port()
    env = {**os.environ, "NEO4J_PORT": str(bolt), "NEO4J_HTTP_PORT": str(http),
           "NEO4J_RUN_DIR": str(home), "NEO4J_DATA": str(home / "data"), "NEO4J_HEAP": "512m",
           "NEO4J_PAGECACHE": "64m", "PYTHON": sys.executable}
    started = subprocess.run([str(repo_root / "docker" / "neo4j-start.sh")], env=env,
                             capture_output=True, text=True, timeout=400, check=False)
    try:
        assert started.returncode == 0, started.stderr
        assert f"Neo4j Browser http://127.0.0.1:{http}/browser/" in started.stderr
        yield bolt, http
    finally:
        subprocess.run([str(repo_root / "docker" / "neo4j-stop.sh")], env=env,
                       capture_output=True, text=True, timeout=120, check=False)


def http_get(url: str, data: bytes | None = None) -> tuple[int, str, str]:
    request = urllib.request.Request(url, data=data, headers={"Accept": "*/*"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return (response.status, response.headers.get_content_type(),
                    response.read().decode("utf8"))
    except urllib.error.HTTPError as error:
        return error.code, "", ""


def test_embedded_server_serves_the_neo4j_browser(browser_server):
    """Issue 14, item 6: NEO4J_HTTP_PORT serves the Browser (org.neo4j.client:neo4j-browser)."""
    bolt, http = browser_server
    status, content_type, page = http_get(f"http://127.0.0.1:{http}/browser/")
    assert (status, content_type) == (200, "text/html")
    assert "<title>Neo4j Browser</title>" in page
    status, content_type, discovery = http_get(f"http://127.0.0.1:{http}/")
    assert (status, content_type) == (200, "application/json")
    assert json.loads(discovery)["bolt_direct"] == f"bolt://127.0.0.1:{bolt}"


def test_embedded_server_http_has_no_cypher_endpoints(browser_server):
    """HTTP serves the Browser only: Cypher goes through Bolt, where the password is asked."""
    _, http = browser_server
    body = json.dumps({"statements": [{"statement": "RETURN 1"}]}).encode()
    assert http_get(f"http://127.0.0.1:{http}/db/neo4j/tx/commit", body)[0] == 404
    assert http_get(f"http://127.0.0.1:{http}/db/neo4j/query/v2",
                    json.dumps({"statement": "RETURN 1"}).encode())[0] == 404
    with socket.socket() as listening:  # bound to 127.0.0.1 only
        listening.settimeout(2)
        addresses = {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None,
                                                               socket.AF_INET)}
        for address in sorted(addresses - {"127.0.0.1"}):
            assert listening.connect_ex((address, http)) != 0

