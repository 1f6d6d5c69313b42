"""``ptkg mcp``: the graph as an MCP server, for agents (IDE assistants, chat clients).

Built on the official ``mcp`` Python SDK (``mcp.server.mcpserver.MCPServer``). The graph is
loaded once, when the server starts; every tool answers from memory (a graph file) or from
Neo4j (a ``bolt://`` graph, through the read-only path).

Tools (:func:`build_server`)
    - one per named query (``queries/*.cypher``), named like it with ``_`` for ``-``
      (``features_by_release``), with its parameters typed (a string, an integer; optional
      ones may be left out) and described by the query's header;
    - ``show`` (an entity by any name: properties, relations and their evidence),
      ``lifecycle`` (a feature across releases), ``diff`` (two releases of one library),
      ``ask`` (a question in plain English, :mod:`ptkg.ask`), ``cypher`` (read-only Cypher,
      refused as the read-only Neo4j path refuses it: no writes, no ``LOAD CSV``, no
      procedures outside the allow-list, no administration).

Every result is JSON (structured content, and the same as text): the rows, with, for each row,
the evidence sentences and the post URLs they were read from (``evidence``), the gaps of the
graph for the question (``gaps``) and warnings. An unknown name, a bad parameter or a refused
query is a tool error (``isError``) whose text says what to fix; nothing crashes the server.

Transports: ``stdio`` (the client starts ``ptkg mcp`` and talks over its standard streams;
nothing else is written to stdout) and streamable HTTP at ``http://127.0.0.1:PORT/mcp``,
bound to the loopback interface only (``--port``). Tool calls are served one at a time.
"""

from __future__ import annotations

import inspect
import sys
import threading
from collections.abc import Callable
from typing import Annotated, Any

from .api import Graph
from .errors import PtkgError

SERVER_NAME = "ptkg"
HOST = "127.0.0.1"
INSTRUCTIONS = (
    "A knowledge graph of PyTorch blog posts: releases, features and their stability "
    "(Prototype, Beta, Stable, API-Unstable, API-Stable), hardware and platforms, "
    "organizations, deprecations. Prefer the named-query tools; names resolve (any alias, "
    "case or 'v' prefix). Every row carries the sentences and post URLs it was read from.")


def tool_name(query_name: str) -> str:
    """A named query's tool name: ``features-by-release`` → ``features_by_release``."""
    return query_name.replace("-", "_")


def build_server(graph: Graph):
    """An ``MCPServer`` serving ``graph`` (see the module docstring)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.types import ToolAnnotations

    from .named_queries import load_queries

    server = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING")
    lock = threading.Lock()
    read_only = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True,
                                openWorldHint=False)

    def add(function: Callable, name: str, description: str) -> None:
        server.add_tool(_guarded(function, lock), name=name, description=description,
                        annotations=read_only, structured_output=True)

    for query in load_queries().values():
        add(_query_tool(graph, query), tool_name(query.name), _query_description(query))

    def show(name: Annotated[str, _field("An entity's name or alias: 'torch.fx', 'MPS', "
                                         "'pytorch v1.8'.")]) -> dict[str, Any]:
        return {"name": name, "entities": graph.show(name)}

    def lifecycle(feature: Annotated[str, _field("A feature's name or alias.")]
                  ) -> dict[str, Any]:
        return graph.lifecycle(feature).to_dict()

    def diff(a: Annotated[str, _field("The older release: 'PyTorch 1.9'.")],
             b: Annotated[str, _field("The newer release of the same library.")]
             ) -> dict[str, Any]:
        return graph.diff(a, b).to_dict()

    def ask(question: Annotated[str, _field("A question in plain English: 'What became "
                                            "stable in PyTorch 1.10?'")]) -> dict[str, Any]:
        return graph.ask(question).to_dict()

    def cypher(query: Annotated[str, _field("A read-only Cypher query (the subset both "
                                            "backends run; see ptkg queries show).")],
               params: Annotated[dict[str, Any] | None,
                                 _field("Values of the query's $parameters.")] = None
               ) -> dict[str, Any]:
        return graph.query(query, params or {}).to_dict()

    add(show, "show", "An entity by any of its names: properties, aliases, every relation "
        "with its evidence sentences and post URLs.")
    add(lifecycle, "lifecycle", "A feature in every release that introduces it, in version "
        "order, with the stability each stated, its evidence, promotions and demotions, and "
        "the releases that deprecate or remove it.")
    add(diff, "diff", "Two releases of one library, the older first: features new in b, "
        "promoted, demoted, restated, only in a, and what b deprecates or removes, each with its "
        "evidence.")
    add(ask, "ask", "A question in plain English, mapped onto a named query (offline, "
        "deterministic); an unmapped question gets the closest question shapes, or an error "
        "with the closest names when it names something the graph does not have.")
    add(cypher, "cypher", "Read-only Cypher on the graph. Writes, LOAD CSV, procedures and "
        "administration are refused.")
    return server


def _field(description: str):
    from pydantic import Field

    return Field(description=description)


def _query_description(query) -> str:
    params = "; ".join(f"{p.name}: {p.note or 'a value'} (e.g. {p.example!r})"
                       for p in query.params)
    return f"{query.description} Parameters: {params}." if params else query.description


def _query_tool(graph: Graph, query) -> Callable[..., dict[str, Any]]:
    """A function whose signature is the query's parameters, typed, for the SDK to read."""
    parameters = []
    for param in query.params:
        example = param.example
        if isinstance(example, bool):
            kind: Any = bool
        elif isinstance(example, int):
            kind = int
        elif isinstance(example, float):
            kind = float
        elif isinstance(example, list):
            kind = list
        else:
            kind = str
        note = f"{param.note or param.name} (e.g. {example!r})"
        if param.optional:
            annotation = Annotated[kind | None, _field(note)]
            parameters.append(inspect.Parameter(param.name, inspect.Parameter.KEYWORD_ONLY,
                                                default=None, annotation=annotation))
        else:
            parameters.append(inspect.Parameter(param.name, inspect.Parameter.KEYWORD_ONLY,
                                                annotation=Annotated[kind, _field(note)]))

    def run(**values: Any) -> dict[str, Any]:
        given = {k: v for k, v in values.items() if v is not None}
        return graph.run(query.name, given).to_dict()

    run.__name__ = tool_name(query.name)
    run.__doc__ = query.description
    run.__signature__ = inspect.Signature(parameters, return_annotation=dict[str, Any])
    return run


def _guarded(function: Callable, lock: threading.Lock) -> Callable:
    """``function`` served one call at a time; ptkg's errors become tool errors with their
    message (anything else is a tool error too, without the internals)."""
    from mcp.server.mcpserver.exceptions import ToolError

    def call(**values: Any):
        with lock:
            try:
                return function(**values)
            except PtkgError as error:
                raise ToolError(str(error)) from None

    call.__name__ = function.__name__
    call.__doc__ = function.__doc__
    call.__signature__ = inspect.signature(function, eval_str=True)
    return call


def serve(store, *, transport: str = "stdio", port: int = 8765) -> None:
    """Load the graph of ``store``, then serve it over ``stdio`` or streamable ``http`` on
    127.0.0.1:``port`` until stopped."""
    import anyio

    graph = Graph(store)
    graph.graph()  # read the file (or fetch from Neo4j) before the first call
    graph.mapper()
    server = build_server(graph)
    if transport == "stdio":
        anyio.run(server.run_stdio_async)
        return
    print(f"ptkg mcp: serving {store.location} at http://{HOST}:{port}/mcp", file=sys.stderr,
          flush=True)
    anyio.run(lambda: server.run_streamable_http_async(host=HOST, port=port))
