"""Issue 13: ``ptkg mcp``, tested with the official SDK's own client.

A real ``ptkg mcp`` subprocess over stdio, and a real streamable-HTTP server on 127.0.0.1 in a
subprocess: the client lists the tools (one per named query, typed, plus show, lifecycle,
diff, ask and cypher), gets the rows ``ptkg queries run`` prints for every named query, the
evidence sentences and post URLs, and tool errors (never a crash) for unknown names, bad
arguments and refused Cypher. On the hand-made graph.
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import threading
import time

import anyio
import pytest
from click.testing import CliRunner

from ptkg.cli import main
from ptkg.mcp_server import HOST, tool_name
from ptkg.named_queries import load_queries

mcp = pytest.importorskip("mcp")
from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

QUERIES = load_queries()
EXTRA_TOOLS = {"show", "lifecycle", "diff", "ask", "cypher"}
TIMEOUT = 60


def cli_rows(graph_file, name: str, params: dict) -> list[dict]:
    args = ["queries", "run", name, "--graph", str(graph_file), "--format", "json"]
    for key, value in params.items():
        args += ["--param", f"{key}:={json.dumps(value)}"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


async def check_session(client, graph_file) -> None:
    """What both transports must do, in one session."""
    listed = (await client.list_tools()).tools
    tools = {tool.name: tool for tool in listed}
    assert set(tools) == {tool_name(n) for n in QUERIES} | EXTRA_TOOLS

    schema = tools["features_by_release"].input_schema
    assert schema["required"] == ["release"]
    assert schema["properties"]["release"]["type"] == "string"
    top = tools["top_mentioned"].input_schema
    assert top["properties"]["limit"]["type"] == "integer"
    assert "required" not in tools["organizations"].input_schema or \
        tools["organizations"].input_schema["required"] == []

    for name, query in QUERIES.items():
        params = {p.name: p.example for p in query.params}
        result = await client.call_tool(tool_name(name), params)
        assert not result.is_error, (name, result.content)
        assert result.structured_content["rows"] == cli_rows(graph_file, name, params), name
        assert json.loads(result.content[0].text)["rows"] == result.structured_content["rows"]

    found = (await client.call_tool("features_by_release",
                                    {"release": "pytorch v1.8"})).structured_content
    assert found["params"] == {"release": "PyTorch 1.8", "hardware": None}
    fx = next(i for i, row in enumerate(found["rows"]) if row["feature"] == "torch.fx")
    evidence = found["evidence"][fx][0]
    assert evidence["url"] == "https://pytorch.org/blog/pytorch-1.8-released/"
    assert "FX" in evidence["sentence"]

    unknown = await client.call_tool("features_by_release", {"release": "PyTorch 9.9"})
    assert unknown.is_error
    assert "no Release named 'PyTorch 9.9' in the graph; closest: PyTorch 1.9" in \
        unknown.content[0].text
    missing = await client.call_tool("features_by_release", {})
    assert missing.is_error
    refused = await client.call_tool("cypher", {
        "query": 'LOAD CSV FROM "file:///etc/passwd" AS row RETURN row'})
    assert refused.is_error and "LOAD CSV is not allowed" in refused.content[0].text
    bad = await client.call_tool("cypher", {"query": "MATCH (n RETURN n"})
    assert bad.is_error and "Cypher syntax error" in bad.content[0].text

    show = (await client.call_tool("show", {"name": "FX"})).structured_content
    assert show["entities"][0]["name"] == "torch.fx"
    lifecycle = (await client.call_tool("lifecycle", {"feature": "ZeroRedundancyOptimizer"})
                 ).structured_content
    assert [c["to_release"] for c in lifecycle["promotions"]] == ["PyTorch 1.9", "PyTorch 1.10"]
    diff = (await client.call_tool("diff", {"a": "PyTorch 1.10", "b": "1.12"})
            ).structured_content
    assert diff["gaps"] and diff["b"] == "PyTorch 1.12"
    wrong_order = await client.call_tool("diff", {"a": "PyTorch 1.10", "b": "PyTorch 1.9"})
    assert wrong_order.is_error and "does not come before" in wrong_order.content[0].text
    asked = (await client.call_tool("ask", {"question": "What became stable in 1.10?"})
             ).structured_content
    assert asked["query"] == "features-by-stability"
    assert [r["feature"] for r in asked["result"]["rows"]] == ["ZeroRedundancyOptimizer",
                                                               "torch.fx"]
    cypher = (await client.call_tool("cypher", {
        "query": "MATCH (r:Release) WHERE r.name = $r RETURN r.date AS date",
        "params": {"r": "pytorch v1.9"}})).structured_content
    assert cypher["rows"] == [{"date": "2021-06-15"}]
    # after every error, the server still answers
    assert not (await client.call_tool("neighbors", {"name": "torch.fx"})).is_error


def run_in_own_thread(session) -> None:
    """Run an async client session in a thread of its own, with its own event loop: the
    browser tests' playwright leaves an asyncio loop running in the main thread."""
    failure: list[BaseException] = []

    def target() -> None:
        try:
            anyio.run(session)
        except BaseException as error:  # noqa: BLE001 - re-raised in the test's thread
            failure.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


def test_issue13_mcp_over_stdio(handmade_graph_file):
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "ptkg.cli", "mcp", "--graph",
                                         str(handmade_graph_file)])

    async def session():
        with anyio.fail_after(TIMEOUT):
            async with Client(params) as client:
                await check_session(client, handmade_graph_file)

    run_in_own_thread(session)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"ptkg mcp exited: {process.stderr.read()}")
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=1):
            return
        time.sleep(0.1)
    raise AssertionError("ptkg mcp did not listen in time")


def outside_address() -> str | None:
    """This machine's address on a non-loopback interface, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("10.255.255.255", 1))
            address = sock.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


@pytest.fixture
def http_server(handmade_graph_file):
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "ptkg.cli", "mcp", "--graph", str(handmade_graph_file),
         "--transport", "http", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_port(port, process)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_issue13_mcp_over_streamable_http(http_server, handmade_graph_file):
    async def session():
        with anyio.fail_after(TIMEOUT):
            async with Client(f"http://{HOST}:{http_server}/mcp") as client:
                await check_session(client, handmade_graph_file)

    run_in_own_thread(session)


def test_issue13_mcp_http_binds_loopback_only(http_server):
    assert HOST == "127.0.0.1"
    address = outside_address()
    if address is None:
        pytest.skip("no non-loopback interface to try")
    with pytest.raises(OSError):
        socket.create_connection((address, http_server), timeout=2).close()


def test_issue13_mcp_command_has_no_host_option():
    assert "--host" not in {opt for p in main.commands["mcp"].params for opt in p.opts}
