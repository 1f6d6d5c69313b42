"""The ``ptkg`` command line: each command parses, calls one library function and prints.

The group keeps one :class:`Session` in ``ctx.obj``: the store a command reads (a graph file or
a Neo4j server, :func:`ptkg.stores.open_store`) is opened there once, on first use, and
closed when the command ends (``call_on_close``).
"""

from __future__ import annotations

import functools
import json
import logging
import sys

import click

from . import __version__
from .errors import PtkgError, QueryError
from .records import BLOG_URL
from .stores import (
    DEFAULT_GRAPH,
    DEFAULT_NEO4J_TIMEOUT,
    GRAPH_VARIABLE,
    default_target,
    is_server,
)

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


class Session:
    """What one ``ptkg`` invocation has open: the stores it read, by target, and the Neo4j
    timeout its ``--timeout`` gave (None: ``NEO4J_TIMEOUT``, else the default)."""

    def __init__(self) -> None:
        self.stores: dict[str, object] = {}
        self.timeout: str | None = None

    def store(self, target: str | None, settings=None):
        """The store of ``target`` (None: ``$PTKG_GRAPH``, else the default, with a note)."""
        from .stores import open_store

        if target is None:
            target, builtin = default_target()
            if builtin:
                click.echo(f"reading {DEFAULT_GRAPH} (the default: give --graph or set "
                           f"{GRAPH_VARIABLE})", err=True)
        if target not in self.stores:
            if is_server(target) and settings is None:
                settings = neo4j_settings(None, None, None, None, self.timeout)
            self.stores[target] = open_store(target, neo4j=settings)
        return self.stores[target]

    def close(self) -> None:
        for store in self.stores.values():
            store.close()
        self.stores.clear()


def current_session() -> Session:
    """The current command's :class:`Session`."""
    return click.get_current_context().ensure_object(Session)


def open_store_of(target: str | None, settings=None):
    """The store of ``target`` in the current command's session."""
    return current_session().store(target, settings)


def load_graph(target: str | None):
    """The graph a command reads: from a graph file, or fetched from a Neo4j server."""
    return open_store_of(target).graph()


def graph_option(function):
    """``--graph PATH|URI``: the graph a command reads (a file, or a Neo4j bolt:// URI), and
    ``--timeout`` for the server (:func:`neo4j_timeout_option`)."""
    function = neo4j_timeout_option(function)
    return click.option(
        "--graph", "graph_path", envvar=GRAPH_VARIABLE, show_envvar=True, metavar="PATH|URI",
        help=f"Graph JSON file, or a Neo4j bolt:// URI  [default: {DEFAULT_GRAPH}]")(function)


def neo4j_timeout_option(function):
    """``--timeout SECONDS``: how long a Neo4j server is waited for; falls back to
    ``NEO4J_TIMEOUT``, then :data:`~ptkg.stores.DEFAULT_NEO4J_TIMEOUT`.

    Every command that can open a Neo4j store takes it (through :func:`graph_option` and
    :func:`neo4j_options`; a command given both gets it once). It passes no argument to the
    command: its value goes to the :class:`Session`, which passes it to the settings of each
    server it opens (:func:`neo4j_settings`). The value is checked there, when a server is
    opened, so a bad ``NEO4J_TIMEOUT`` does not fail a command that reads a graph file.
    """
    if any("--timeout" in param.opts for param in getattr(function, "__click_params__", ())):
        return function

    def remember(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
        ctx.ensure_object(Session).timeout = value

    return click.option(
        "--timeout", envvar="NEO4J_TIMEOUT", show_envvar=True, metavar="SECONDS",
        default=f"{DEFAULT_NEO4J_TIMEOUT:g}", show_default=True, expose_value=False,
        callback=remember,
        help="Seconds to wait for a Neo4j server: to connect, and to retry a failed "
             "transaction.")(function)


def output_graph_option(function):
    """``--graph PATH``: the graph file a command writes."""
    return click.option(
        "--graph", "graph_path", envvar=GRAPH_VARIABLE, show_envvar=True, default=DEFAULT_GRAPH,
        show_default=True, type=click.Path(dir_okay=False),
        help="The graph JSON file to write.")(function)


def extraction_options(function):
    """``--model --jobs --progress --base-url --project --patterns``: how posts are read
    (``build``, ``sync``)."""
    options = [
        click.option("--model", default="en_core_web_sm", show_default=True,
                     help="spaCy pipeline: en_core_web_sm, or 'blank' for the rule components "
                          "alone."),
        click.option("--jobs", default=1, show_default=True, type=click.IntRange(1),
                     help="Extraction processes; the graph is the same for any number."),
        click.option("--progress/--no-progress", default=None,
                     help="Show a progress bar (default: when stderr is a terminal)."),
        click.option("--base-url", default=BLOG_URL, show_default=True,
                     help="URL prefix of plain Markdown posts that name no URL: "
                          "<base-url><slug>/."),
        click.option("--project", type=click.Path(dir_okay=False),
                     help="A project file (ptkg.toml): names, merges, rejects and labels of "
                          "your own."),
        click.option("--patterns", "pattern_dirs", multiple=True, type=click.Path(),
                     help="A folder of extra JSONL pattern files in the alias pack's format "
                          "(repeatable)."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def output_format_option(function):
    """``--format table|json|csv``: how rows are printed."""
    return click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]),
                        default="table", show_default=True, help="Output format.")(function)


def neo4j_options(function):
    """``--uri --user --password --database --timeout``: the Neo4j server; each falls back to its
    env var.

    The password is read from ``--password`` or ``NEO4J_PASSWORD`` and never printed. The
    timeout reaches the command through its session (:func:`neo4j_timeout_option`).
    """
    function = neo4j_timeout_option(function)
    options = [
        click.option("--uri", envvar="NEO4J_URI", show_envvar=True, metavar="URI",
                     help="Neo4j Bolt URI  [default: bolt://127.0.0.1:7687]"),
        click.option("--user", envvar="NEO4J_USERNAME", show_envvar=True,
                     help="Neo4j user  [default: neo4j]"),
        click.option("--password", envvar="NEO4J_PASSWORD", show_envvar=True,
                     help="Neo4j password; prefer the environment variable (options show in ps)."),
        click.option("--database", envvar="NEO4J_DATABASE", show_envvar=True,
                     help="Neo4j database  [default: neo4j]"),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def query_options(function):
    """``--param``, ``--backend`` and the Neo4j connection: what running a query takes."""
    function = neo4j_options(function)
    function = click.option(
        "--backend", type=click.Choice(["networkx", "neo4j"]), default="networkx",
        show_default=True, help="Query the graph file (networkx) or a Neo4j server.")(function)
    return click.option(
        "--param", "params", multiple=True, metavar="NAME=VALUE",
        help="A query parameter ($NAME); NAME:=JSON for a number, list or null.")(function)


def neo4j_settings(uri, user, password, database, timeout):
    """The connection settings of :func:`neo4j_options` and :func:`neo4j_timeout_option`
    (env vars and defaults filled in).

    Also keeps the driver's log (connection and retry warnings) off stderr, unless logging was
    configured: a failure ends in one ``Error:`` line.

    Raises
    ------
    click.UsageError
        The timeout is not a number of seconds greater than 0 (exit 2).
    """
    from .stores.neo4j_store import Neo4jSettings, parse_timeout

    if timeout is not None:
        try:
            timeout = parse_timeout(timeout)
        except PtkgError as error:
            raise click.UsageError(str(error)) from None
    driver_log = logging.getLogger("neo4j")
    if not driver_log.hasHandlers():
        driver_log.addHandler(logging.NullHandler())
    return Neo4jSettings.from_env(uri=uri, user=user, password=password, database=database,
                                  timeout=timeout)


def query_store(graph_path, backend, uri, user, password, database):
    """The store ``query`` and ``queries run`` read: ``--backend neo4j`` or a bolt:// --graph
    is a server (with the connection options), anything else a graph file."""
    if backend == "neo4j" or (graph_path and is_server(graph_path)):
        settings = neo4j_settings(uri, user, password, database, current_session().timeout)
        return open_store_of(graph_path if backend != "neo4j" else settings.uri, settings)
    return open_store_of(graph_path)


def translate_errors(function):
    """Turn ptkg's exceptions into one-line click errors: bad data exits 1, bad usage 2."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except QueryError as error:
            raise click.UsageError(str(error)) from None
        except PtkgError as error:
            raise click.ClickException(str(error)) from None
    return wrapper


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, prog_name="ptkg")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Build and query a knowledge graph of PyTorch releases, features and hardware.

    Commands that read a graph take --graph (a graph file, or a Neo4j bolt:// URI); without
    it, $PTKG_GRAPH, else out/graph.json.

    \b
    Example:
        ptkg build data/seed_sample.txt --graph out/graph.json
        ptkg query 'MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) RETURN r.name, f.name'
    """
    ctx.obj = ctx.ensure_object(Session)
    ctx.call_on_close(ctx.obj.close)


@main.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path(readable=False))
@output_graph_option
@extraction_options
@click.option("--strict", is_flag=True, help="Fail on the first row that cannot be used.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False),
              help="Write the skipped rows, one per line, to this file.")
@click.option("--cache/--no-cache", "cache", default=True, show_default=True,
              help="Reuse the facts of unchanged posts; --no-cache extracts every post and "
                   "leaves the cache alone.")
@click.option("--cache-dir", type=click.Path(file_okay=False),
              help="The extraction cache folder  [default: .ptkg-cache beside the graph]")
@translate_errors
def build(inputs, graph_path, model, jobs, progress, base_url, project, pattern_dirs, strict,
          report_path, cache, cache_dir) -> None:
    """Build the graph from blog posts: table dumps, JSONL/CSV/Parquet, Jekyll posts or folders.

    \b
    Example:
        ptkg build ../shared/corpus/pytorch_blog.jsonl --graph out/graph.json --jobs 2
        ptkg build ../shared/corpus/ --graph out/graph.json --no-cache
    """
    if is_server(graph_path):
        raise click.UsageError("build writes a graph file: give --graph PATH, then load it "
                               "with `ptkg neo4j load`")
    from .curation import read_curation

    _build_and_report(inputs, graph_path, model=model, jobs=jobs, strict=strict,
                      report_path=report_path, progress=progress, cache=cache,
                      cache_dir=cache_dir, base_url=base_url,
                      curation=read_curation(project, pattern_dirs))


def _build_and_report(inputs, graph_path, *, model, jobs, strict, report_path, progress,
                      cache, cache_dir, base_url=BLOG_URL, curation=None) -> None:
    """Run a build with a progress bar and print what it wrote and skipped (build, sync)."""
    from .build import build as run_build
    from .records import SkipReport

    bar = None
    skips = SkipReport(strict=strict)

    def start(total: int, _: int):
        nonlocal bar
        from tqdm import tqdm
        bar = tqdm(total=total, unit="post", desc="extracting", file=sys.stderr,
                   disable=not progress if progress is not None else None)
        return bar.update

    try:
        summary = run_build(inputs, graph_path, model=model, jobs=jobs, report=skips,
                            progress=start, cache=cache, cache_dir=cache_dir,
                            base_url=base_url, curation=curation)
    finally:  # the skipped rows are reported when the build fails too: they may be why
        if bar is not None:
            bar.close()
        _echo_skips(skips.skips, report_path)
        if skips.duplicates:
            click.echo(f"read {skips.duplicates} posts twice (same url, same text): kept the "
                       f"first", err=True)
        if report_path:
            _write_report(report_path, skips.skips)
    if summary.cache is not None and summary.cache.invalid:
        click.echo(f"ignored {summary.cache.invalid} unreadable cache entries in "
                   f"{summary.cache_dir} (extracted again)", err=True)
    if summary.cache is not None and summary.cache.write_errors:
        click.echo(f"could not write {summary.cache.write_errors} cache entries in "
                   f"{summary.cache_dir}", err=True)
    from_cache = (f"{summary.cached} from the cache" if summary.cache is not None
                  else "cache off")
    click.echo(f"wrote {graph_path}: {summary.posts} posts ({from_cache}), "
               f"{sum(summary.nodes.values())} nodes, {sum(summary.edges.values())} edges, "
               f"{len(summary.skipped)} rows skipped, {summary.seconds:.1f}s")
    _echo_counts(summary.nodes, summary.edges)


#: How many skipped rows a build prints; the rest are counted (all go to --report).
SHOWN_SKIPS = 10


def _echo_skips(skipped: list, report_path: str | None) -> None:
    for skip in skipped[:SHOWN_SKIPS]:
        click.echo(f"skipped {skip}", err=True)
    if len(skipped) > SHOWN_SKIPS:
        where = f"all in {report_path}" if report_path else "--report FILE lists them all"
        click.echo(f"... and {len(skipped) - SHOWN_SKIPS} more skipped ({where})", err=True)


def _write_report(path: str, skipped: list) -> None:
    from .files import write_atomic

    try:
        write_atomic(path, "".join(f"{skip}\n" for skip in skipped))
    except OSError as error:
        raise click.ClickException(f"{path}: cannot write the report ({error.strerror})") from None


def _echo_counts(nodes: dict[str, int], edges: dict[str, int]) -> None:
    click.echo("nodes: " + ", ".join(f"{k} {v}" for k, v in nodes.items()))
    click.echo("edges: " + ", ".join(f"{k} {v}" for k, v in edges.items()))


def fetch_options(function):
    """``SOURCE --out --delay --retries --limit``: what ``fetch`` and ``sync`` read and how."""
    options = [
        click.argument("source"),
        click.option("--out", "out_dir", default="out/pages", show_default=True,
                     type=click.Path(file_okay=False),
                     help="The folder of the saved pages and their manifest."),
        click.option("--delay", default=1.0, show_default=True, type=click.FloatRange(0),
                     help="Seconds between two requests to one host (robots.txt may ask more)."),
        click.option("--retries", default=3, show_default=True, type=click.IntRange(0),
                     help="Retries of a 429, a 5xx or a broken connection, with backoff."),
        click.option("--limit", type=click.IntRange(1),
                     help="Fetch at most this many posts (the first ones listed)."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def _fetch_and_report(source: str, out_dir: str, delay: float, retries: int,
                      limit: int | None):
    """Run a fetch and print what it did; the failed pages one per line on stderr."""
    from .fetch import Politeness, fetch

    summary = fetch(source, out_dir, politeness=Politeness(delay=delay, retries=retries),
                    limit=limit)
    for url, why in summary.failed:
        click.echo(f"failed {url}: {why}", err=True)
    for url in summary.disallowed:
        click.echo(f"not fetched {url}: disallowed by robots.txt", err=True)
    click.echo(f"fetched {source} into {out_dir}: {summary.listed} posts listed, "
               f"{len(summary.new)} new, {len(summary.changed)} changed, "
               f"{len(summary.unchanged)} unchanged, {len(summary.failed)} failed, "
               f"{len(summary.disallowed)} disallowed ({summary.requests} requests, "
               f"{summary.seconds:.1f}s)")
    if summary.listed and len(summary.failed) + len(summary.disallowed) == summary.listed:
        raise click.ClickException(f"{source}: no page could be fetched")
    return summary


@main.command()
@fetch_options
@translate_errors
def fetch(source, out_dir, delay, retries, limit) -> None:
    """Save the page of every post a feed or sitemap lists (a URL or a saved file).

    Politely (robots.txt, a delay per host, retries with backoff) and incrementally: a rerun
    asks only for what changed (ETag, Last-Modified) and goes on where a killed one stopped.

    \b
    Example:
        ptkg fetch https://pytorch.org/feed/ --out out/pages
        ptkg build out/pages --graph out/graph.json
    """
    _fetch_and_report(source, out_dir, delay, retries, limit)


@main.command()
@fetch_options
@output_graph_option
@extraction_options
@translate_errors
def sync(source, out_dir, delay, retries, limit, graph_path, model, jobs, progress, base_url,
         project, pattern_dirs) -> None:
    """Fetch what a feed or sitemap lists, then rebuild the graph from the saved pages.

    Only new and changed pages are downloaded, and only their posts are extracted again (the
    others come from the build cache), so a sync after one new post takes seconds.

    \b
    Example:
        ptkg sync https://pytorch.org/feed/ --out out/pages --graph out/graph.json
    """
    if is_server(graph_path):
        raise click.UsageError("sync writes a graph file: give --graph PATH, then load it "
                               "with `ptkg neo4j load`")
    from .curation import read_curation

    curation = read_curation(project, pattern_dirs)  # a bad project file fails before the fetch
    _fetch_and_report(source, out_dir, delay, retries, limit)
    _build_and_report([out_dir], graph_path, model=model, jobs=jobs, strict=False,
                      report_path=None, progress=progress, cache=True, cache_dir=None,
                      base_url=base_url, curation=curation)


@main.command()
@graph_option
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="Output format (json includes the coverage).")
@click.option("--coverage", "show_coverage", is_flag=True,
              help="Also print the coverage of each library (table format).")
@translate_errors
def stats(graph_path, fmt, show_coverage) -> None:
    """Count the graph's nodes per label and edges per type, and what its posts cover.

    Coverage, per library: the releases the graph knows, how many a post announces, how many
    have features a post lists; and the posts that state no fact. Without --coverage, one
    line of it goes to stderr.

    \b
    Example:
        ptkg stats --graph out/graph.json --coverage
        ptkg stats --format json
    """
    from .api import graph_stats

    store = open_store_of(graph_path)
    data = graph_stats(store.graph(), store.location)
    if fmt == "json":
        _echo_json(data)
        return
    nodes, edges = data["nodes"], data["edges"]
    click.echo(f"{store.location}: {sum(nodes.values())} nodes, {sum(edges.values())} edges")
    _echo_counts(nodes, edges)
    coverage = data["coverage"]
    releases = sum(lib["releases"] for lib in coverage["libraries"])
    announced = sum(lib["announced"] for lib in coverage["libraries"])
    listed = sum(lib["listed"] for lib in coverage["libraries"])
    summary = (f"coverage: {releases} releases known, {announced} announced by a post, "
               f"{listed} with features listed; {coverage['posts']} posts, "
               f"{len(coverage['posts_without_facts'])} without any fact")
    if not show_coverage:
        click.echo(summary + " (--coverage for each library)", err=True)
        return
    from .output import format_rows

    click.echo(summary)
    rows = [[lib["library"], lib["releases"], lib["announced"], lib["listed"],
             ", ".join(lib["unlisted"][:6]) + (" …" if len(lib["unlisted"]) > 6 else "")]
            for lib in coverage["libraries"]]
    click.echo(format_rows(["library", "releases", "announced", "listed",
                            "no features listed"], rows, "table"), nl=False)
    for url in coverage["posts_without_facts"]:
        click.echo(f"no fact: {url}")


@main.command()
@click.argument("cypher")
@graph_option
@output_format_option
@query_options
@translate_errors
def query(cypher, graph_path, fmt, params, backend, uri, user, password, database) -> None:
    """Run a Cypher query on the graph, or in Neo4j with --backend neo4j.

    \b
    Example:
        ptkg query 'MATCH (r:Release)-[i:INTRODUCES]->(f:Feature)
          WHERE r.name = $release RETURN f.name, i.stability' --param release="PyTorch 1.8"
        ptkg query --backend neo4j 'MATCH (l:Library)-[:HAS_RELEASE]->(r) RETURN l.name, COUNT(r)'
    """
    from .cypher import parse_param
    from .named_queries import cypher_warnings, resolve_query_params
    from .output import format_rows

    bound = dict(parse_param(p) for p in params)
    store = query_store(graph_path, backend, uri, user, password, database)
    bound = resolve_query_params(store, cypher, bound)
    columns, rows = store.query(cypher, bound)
    _echo_notes(cypher_warnings(store, cypher), "warning")
    click.echo(format_rows(columns, rows, fmt), nl=False)


def _echo_notes(lines, prefix: str = "note") -> None:
    """Warnings and gaps: one line each on stderr, so stdout stays the data."""
    for line in lines:
        click.echo(f"{prefix}: {line}", err=True)


@main.command()
@click.argument("name")
@graph_option
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="Output format.")
@translate_errors
def show(name, graph_path, fmt) -> None:
    """Show an entity, its aliases and relations, with the sentences and posts behind each.

    \b
    Example:
        ptkg show torch.fx --graph out/graph.json
        ptkg show "pytorch v1.8" --format json
    """
    from .explore import closest_names, describe, describe_data, find_nodes

    graph = load_graph(graph_path)
    nodes = find_nodes(graph, name)
    if not nodes:
        close = closest_names(graph, name)
        hint = f"; closest: {', '.join(close)}" if close else ""
        raise click.ClickException(f"no entity named {name!r} in "
                                   f"{open_store_of(graph_path).location}{hint}")
    if fmt == "json":
        _echo_json({"name": name, "entities": [describe_data(graph, n) for n in nodes]})
        return
    click.echo("\n\n".join(describe(graph, node) for node in nodes))


@main.command("eval")
@click.option("--gold", "gold_paths", multiple=True, required=True, type=click.Path(exists=True),
              help="Gold JSON file or folder (repeatable).")
@graph_option
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@click.option("--errors", "show_errors", is_flag=True, help="List missed and spurious items.")
@translate_errors
def eval_command(gold_paths, graph_path, fmt, show_errors) -> None:
    """Score the graph against a gold annotation: precision, recall and F1 per label and type.

    \b
    Example:
        ptkg eval --gold tests/gold/sample.json --graph out/graph.json
    """
    from .evaluate import evaluate, read_gold, report_rows
    from .output import format_rows

    report = evaluate(load_graph(graph_path), read_gold(list(gold_paths)))
    columns = ["part", "name", "precision", "recall", "f1", "tp", "predicted", "gold"]
    rows = report_rows(report)
    if fmt == "json":
        click.echo(json.dumps({
            "rows": [dict(zip(columns, row, strict=True)) for row in rows],
            "stability_accuracy": report.stability_accuracy,
            "stability_found": report.stability_found,
            "stability_stated": report.stability_total,
            "duplicates": report.duplicates}, indent=2))
        return
    click.echo(format_rows(columns, rows, "table"), nl=False)
    click.echo(f"stability accuracy: {report.stability_accuracy:.3f} "
               f"({report.stability_correct} right of {report.stability_found} found; "
               f"{report.stability_total} stated in the gold)")
    click.echo(f"duplicate nodes: {len(report.duplicates)}")
    for group in report.duplicates:
        click.echo("  " + " = ".join(group))
    if show_errors:
        click.echo("missed:\n" + "".join(f"  {m}\n" for m in report.missed), nl=False)
        click.echo("spurious:\n" + "".join(f"  {s}\n" for s in report.spurious), nl=False)


@main.group("neo4j")
def neo4j_group() -> None:
    """Load the graph into a Neo4j server (then query it with ptkg query --backend neo4j).

    \b
    Example:
        export NEO4J_URI=bolt://127.0.0.1:7687 NEO4J_USERNAME=neo4j NEO4J_PASSWORD=...
        ptkg neo4j load --graph out/graph.json
    """


@neo4j_group.command("load")
@graph_option
@neo4j_options
@click.option("--batch-size", default=1000, show_default=True, type=click.IntRange(1),
              help="Rows per UNWIND query and write transaction.")
@click.option("--wipe", is_flag=True,
              help="First delete ptkg's data: every node with a ptkg label, and its relationships.")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar (default: when stderr is a terminal).")
@translate_errors
def neo4j_load(graph_path, uri, user, password, database, batch_size, wipe, progress) -> None:
    """Load the graph into Neo4j: constraints, then batched, idempotent MERGEs; check the counts.

    \b
    Example:
        NEO4J_PASSWORD=... ptkg neo4j load --graph out/graph.json --wipe
    """
    from tqdm import tqdm

    from .graph import graph_counts
    from .schema import LABELS
    from .stores.neo4j_store import Neo4jStore
    from .stores.neo4j_store import wipe as wipe_neo4j

    if graph_path is not None and is_server(graph_path):
        raise click.UsageError("--graph names the graph file to load; give the server with "
                               "--uri or NEO4J_URI")
    graph = load_graph(graph_path)
    server = Neo4jStore(neo4j_settings(uri, user, password, database, current_session().timeout))
    click.get_current_context().call_on_close(server.close)
    where = server.location
    if wipe:
        labels = set(LABELS) | set(graph_counts(graph)[0])
        deleted = wipe_neo4j(server.driver, server.settings.database, labels=labels)
        click.echo(f"wiped {deleted} ptkg nodes from {where}")
    total = graph.number_of_nodes() + graph.number_of_edges()
    with tqdm(total=total, unit="row", desc="loading", file=sys.stderr,
              disable=not progress if progress is not None else None) as bar:
        summary = server.load(graph, batch_size=batch_size, progress=bar.update)
    source = graph_path or default_target()[0]
    click.echo(f"loaded {source} into {where}: {sum(summary.nodes.values())} nodes, "
               f"{sum(summary.relationships.values())} relationships in {summary.batches} "
               f"batches, {summary.seconds:.1f}s; the counts in Neo4j match the graph")
    _echo_counts(summary.nodes, summary.relationships)


@main.command()
@graph_option
@click.option("--format", "fmt", type=click.Choice(["graphml", "cypher", "csv"]), required=True,
              help="graphml (Gephi), cypher (a MERGE script for Neo4j) or csv (neo4j-admin "
                   "import files).")
@click.option("--out", "out_path", required=True, type=click.Path(),
              help="The file to write (graphml, cypher) or the folder (csv).")
@translate_errors
def export(graph_path, fmt, out_path) -> None:
    """Export the graph as GraphML, a Cypher script or neo4j-admin import CSVs.

    \b
    Example:
        ptkg export --graph out/graph.json --format graphml --out out/graph.graphml
        ptkg export --graph out/graph.json --format cypher --out out/graph.cypher
        ptkg export --graph out/graph.json --format csv --out out/csv
    """
    from . import export as exporters

    graph = load_graph(graph_path)
    counts = f"{graph.number_of_nodes()} nodes, {graph.number_of_edges()} relationships"
    if fmt == "csv":
        summary = exporters.write_csv(graph, out_path)
        click.echo(f"wrote {out_path}: {counts} in {len(summary.node_files)} node files and "
                   f"{len(summary.relationship_files)} relationship files, "
                   f"array delimiter {summary.array_delimiter!r}")
        for name in [*summary.node_files, *summary.relationship_files, *summary.other_files]:
            click.echo(f"  {name}")
        return
    write = exporters.write_graphml if fmt == "graphml" else exporters.write_cypher
    write(graph, out_path)
    click.echo(f"wrote {out_path}: {counts}")


def report_format_option(function):
    """``--format table|json``: a report printed as tables or as one JSON document."""
    return click.option("--format", "fmt", type=click.Choice(["table", "json"]),
                        default="table", show_default=True, help="Output format.")(function)


def _echo_json(data) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


@main.command()
@click.argument("name")
@graph_option
@report_format_option
@translate_errors
def lifecycle(name, graph_path, fmt) -> None:
    """Show a feature's stability in every release that introduces it, its promotions, and
    the releases that deprecate or remove it.

    \b
    Example:
        ptkg lifecycle torch.compile --graph out/graph.json
        ptkg lifecycle ZeroRedundancyOptimizer --format json
    """
    from .lifecycle import feature_lifecycle, generate_lifecycle_text

    found = feature_lifecycle(load_graph(graph_path), name)
    if fmt == "json":
        _echo_json(found.to_dict())
    else:
        click.echo(generate_lifecycle_text(found), nl=False)
        _echo_notes(found.gaps, "gap")


@main.command()
@click.argument("a")
@click.argument("b")
@graph_option
@report_format_option
@translate_errors
def diff(a, b, graph_path, fmt) -> None:
    """Compare two releases of a library: new, promoted, demoted and restated features, those
    only in A, and what B deprecates or removes.

    \b
    Example:
        ptkg diff "PyTorch 2.0" "PyTorch 2.1" --graph out/graph.json
        ptkg diff "pytorch v1.9" "PyTorch 1.10" --format json
    """
    from .lifecycle import ReleaseOrderError, generate_diff_text, release_diff

    try:
        found = release_diff(load_graph(graph_path), a, b)
    except ReleaseOrderError as error:
        raise click.UsageError(str(error)) from None
    if fmt == "json":
        _echo_json(found.to_dict())
    else:
        click.echo(generate_diff_text(found), nl=False)
        _echo_notes(found.gaps, "gap")


@main.command()
@click.option("--library", help="Only this library's releases (any of its names).")
@click.option("--headline-limit", default=5, show_default=True, type=click.IntRange(0),
              help="Headline features listed per release.")
@graph_option
@report_format_option
@translate_errors
def timeline(library, headline_limit, graph_path, fmt) -> None:
    """List releases in version order with their dates and headline features.

    \b
    Example:
        ptkg timeline --library torchvision --graph out/graph.json
        ptkg timeline --format json
    """
    from .timeline import generate_timeline_text, timeline_to_dict
    from .timeline import timeline as make_timeline

    lanes = make_timeline(load_graph(graph_path), library, headline_limit=headline_limit)
    if fmt == "json":
        _echo_json(timeline_to_dict(lanes))
    else:
        click.echo(generate_timeline_text(lanes), nl=False)
        _echo_notes([line for lane in lanes for line in lane.gaps], "gap")


@main.command()
@graph_option
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False),
              help="The HTML file to write (replaced atomically).")
@click.option("--focus", help="Only this entity's neighborhood (any of its names), along typed "
              "relations.")
@click.option("--depth", type=click.IntRange(0), help="Hops around --focus.  [default: 1]")
@click.option("--with-posts", is_flag=True,
              help="--focus also follows posts and their MENTIONS/ANNOUNCES edges.")
@click.option("--max-nodes", type=click.IntRange(0), metavar="N",
              help="At most N nodes, the nearest and most connected (a notice says when it "
                   "cuts; 0: no cap).  [default: 150 with --focus, else no cap]")
@click.option("--label", "labels", multiple=True, metavar="LABEL",
              help="Only nodes with this label (repeatable).")
@click.option("--release", help="Only this release and what it is directly connected to.")
@click.option("--min-mentions", default=0, show_default=True, type=click.IntRange(0),
              help="Drop entities mentioned fewer times (posts stay).")
@click.option("--timeline", "as_timeline", is_flag=True,
              help="Draw the timeline view: releases in order, their features by stability.")
@click.option("--newest-first", is_flag=True,
              help="--timeline opens with the newest release first.")
@click.option("--matrix", "as_matrix", is_flag=True,
              help="Draw the feature × release matrix: stability per release, deprecations.")
@click.option("--library", help="--matrix: only this library's releases (any of its names).")
@translate_errors
def render(graph_path, out_path, focus, depth, with_posts, max_nodes, labels, release,
           min_mentions, as_timeline, newest_first, as_matrix, library) -> None:
    """Write the graph as one interactive HTML page that works offline.

    Click a node or an edge for its evidence (linked to the sentence in its post); search, and
    filter by label, relationship and release, in the page. --timeline and --matrix draw the
    releases instead.

    \b
    Example:
        ptkg render --graph out/graph.json --out graph.html
        ptkg render --focus torch.compile --depth 2 --out compile.html
        ptkg render --label Release --label Hardware --release "PyTorch 2.0" --out hw.html
        ptkg render --timeline --newest-first --out timeline.html
        ptkg render --matrix --library PyTorch --out matrix.html
    """
    from pathlib import Path

    from .matrix import render_matrix
    from .render import render_graph, render_timeline

    if depth is not None and focus is None:
        raise click.UsageError("--depth needs --focus")
    if with_posts and focus is None:
        raise click.UsageError("--with-posts needs --focus")
    if as_timeline and as_matrix:
        raise click.UsageError("--timeline and --matrix are two pages: give one")
    if (as_timeline or as_matrix) and (focus or labels or release or min_mentions
                                       or max_nodes is not None):
        which = "--timeline" if as_timeline else "--matrix"
        raise click.UsageError(f"{which} draws every release: it takes no --focus, --label, "
                               "--release, --min-mentions or --max-nodes")
    if newest_first and not as_timeline:
        raise click.UsageError("--newest-first needs --timeline")
    if library is not None and not as_matrix:
        raise click.UsageError("--library needs --matrix")
    graph = load_graph(graph_path)
    focus, release = _resolve_focus(graph, focus, release)
    title = f"ptkg: {Path(graph_path or default_target()[0]).name}"
    if as_timeline:
        summary = render_timeline(graph, out_path, title=f"{title} timeline",
                                  newest_first=newest_first)
        counts = summary.counts
        click.echo(f"wrote {out_path}: {counts['releases']} releases of {counts['libraries']} "
                   f"libraries, {counts['features']} features, {summary.size:,} bytes")
        return
    if as_matrix:
        summary = render_matrix(graph, out_path, title=f"{title} matrix", library=library)
        counts = summary.counts
        click.echo(f"wrote {out_path}: {counts['rows']} rows × {counts['releases']} releases of "
                   f"{counts['libraries']} libraries, {counts['cells']} cells, "
                   f"{summary.size:,} bytes")
        return
    summary = render_graph(graph, out_path, title=title, focus=focus,
                           depth=1 if depth is None else depth, labels=labels, release=release,
                           min_mentions=min_mentions, with_posts=with_posts,
                           max_nodes=max_nodes)
    click.echo(f"wrote {out_path}: {summary.counts['nodes']} nodes, {summary.counts['edges']} "
               f"edges, {summary.size:,} bytes")
    if summary.notice:
        click.echo(f"note: {summary.notice}", err=True)


def _resolve_focus(graph, focus, release):
    """``--focus`` and ``--release`` through the one resolver ("pytorch v1.8" is "PyTorch
    1.8"); a name the resolver cannot place is left for the page's own error."""
    from .explore import NotFoundError, name_index

    index = name_index(graph)
    try:
        if focus is not None:
            focus = index.resolve_name(focus)
        if release is not None:
            release = index.resolve_name(release, ["Release"])
    except NotFoundError:
        pass
    return focus, release


@main.group("queries")
def queries_group() -> None:
    """Named Cypher queries (queries/*.cypher): list them, show one, run one by name.

    \b
    Example:
        ptkg queries list
        ptkg queries run features-by-release --param release="PyTorch 1.8"
    """


@queries_group.command("list")
@output_format_option
@translate_errors
def queries_list(fmt) -> None:
    """List the named queries: name, parameters (with an example) and description.

    \b
    Example:
        ptkg queries list --format json
    """
    from .named_queries import load_queries
    from .output import format_rows

    rows = [[q.name, q.usage(), q.description] for q in load_queries().values()]
    click.echo(format_rows(["name", "params", "description"], rows, fmt), nl=False)


@queries_group.command("show")
@click.argument("name")
@translate_errors
def queries_show(name) -> None:
    """Print a named query's file: its header, then its Cypher.

    \b
    Example:
        ptkg queries show hardware-support
    """
    from .named_queries import get_query

    click.echo(get_query(name).text, nl=False)


@queries_group.command("run")
@click.argument("name")
@graph_option
@output_format_option
@query_options
@translate_errors
def queries_run(name, params, graph_path, fmt, backend, uri, user, password, database) -> None:
    """Run a named query on the graph, or in Neo4j with --backend neo4j.

    \b
    Example:
        ptkg queries run features-by-release --param release="PyTorch 1.8"
        ptkg queries run hardware-support --param hardware=MPS --backend neo4j
    """
    from .cypher import parse_param
    from .named_queries import check_params, get_query, query_gaps, resolve_params
    from .output import format_rows

    named = get_query(name)
    given = dict(parse_param(p) for p in params)
    checked = check_params(named, given)  # before reading the graph: a usage error comes first
    store = query_store(graph_path, backend, uri, user, password, database)
    resolved = resolve_params(store, named, checked)
    columns, rows = store.query(named.text, resolved)
    click.echo(format_rows(columns, rows, fmt), nl=False)
    _echo_notes(query_gaps(store, named, resolved, rows), "gap")


@main.command()
@click.argument("question")
@graph_option
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="Output format.")
@translate_errors
def ask(question, graph_path, fmt) -> None:
    """Answer a question in plain English with a named query (offline, no LLM).

    Prints the query it ran, the rows, and the evidence of each row. A question it cannot map
    gets the three closest question shapes (exit 1), or, when it names something the graph
    does not have, an error with the closest names (exit 1).

    \b
    Example:
        ptkg ask "What became stable in PyTorch 1.10?" --graph out/graph.json
        ptkg ask "Which posts mention torch.fx?" --format json
    """
    from .api import Graph

    answer = Graph(open_store_of(graph_path)).ask(question)
    if fmt == "json":
        _echo_json(answer.to_dict())
    else:
        _echo_answer(answer)
    if not answer.mapped:
        click.get_current_context().exit(1)


def _echo_answer(answer) -> None:
    from .named_queries import get_query
    from .output import format_rows

    if not answer.mapped:
        click.echo("I can't map this question. The closest question shapes:")
        for shape in answer.mapping.closest:
            click.echo(f"  {shape}")
        return
    result = answer.result
    query = get_query(result.query)
    for params in (result.params, *result.also):  # "AMD GPUs / ROCm": one run for each
        given = " ".join(f"--param {p.name}={json.dumps(params[p.name], ensure_ascii=False)}"
                         for p in query.params if params.get(p.name) is not None)
        click.echo(f"query: ptkg queries run {result.query} {given}".rstrip())
    click.echo(format_rows(result.columns, result.rows, "table"), nl=False)
    lines = []
    for number, entries in enumerate(result.evidence, start=1):
        for entry in entries[:2]:
            lines.append(f"  row {number}: {entry['source']} -[{entry['relation']}]-> "
                         f"{entry['target']}: \"{_short(entry['sentence'])}\" {entry['url']}")
    if lines:
        click.echo("evidence:")
        click.echo("\n".join(lines))
    for gap in result.gaps:
        click.echo(f"gap: {gap}")
    if not result.rows and not result.gaps:
        click.echo("no rows: no post in the graph states this (the answer is none, as far as "
                   "the graph knows)")


def _short(text: str, width: int = 110) -> str:
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"


@main.command()
@graph_option
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio",
              show_default=True, help="stdio (a client starts the server) or streamable HTTP.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="HTTP port on 127.0.0.1 (--transport http; 0: any free port).")
@translate_errors
def mcp(graph_path, transport, port) -> None:
    """Serve the graph to MCP clients: a tool per named query, show, lifecycle, diff, ask and
    read-only Cypher (HTTP binds 127.0.0.1 only).

    \b
    Example:
        ptkg mcp --graph out/graph.json
        ptkg mcp --graph out/graph.json --transport http --port 8765
    """
    from .mcp_server import serve

    serve(open_store_of(graph_path), transport=transport, port=port)


@main.command("report")
@click.option("--since", required=True, metavar="RELEASE",
              help="Report the releases after this one (any of its names).")
@click.option("--library", help="The library whose releases are reported (any of its names); "
              "--since may then be a version.  [default: --since's library]")
@click.option("--format", "fmt", type=click.Choice(["md", "html", "json"]), default="md",
              show_default=True,
              help="Markdown, one static self-contained HTML page, or JSON (Report.to_dict).")
@click.option("--out", "out_path", type=click.Path(dir_okay=False),
              help="Write to this file (replaced atomically) instead of printing.")
@graph_option
@translate_errors
def report_command(since, library, fmt, out_path, graph_path) -> None:
    """Write a "what's new" digest of every release after --since, each line with its evidence.

    Per release: new features by stability, promotions and demotions, deprecations and
    removals, new hardware and platforms supported; a release no post announces says so.

    \b
    Example:
        ptkg report --since "PyTorch 2.5" --graph out/graph.json
        ptkg report --since 0.15 --library torchvision --format html --out tv.html
    """
    from .report import ReportError, generate, whats_new, write_report

    try:
        found = whats_new(load_graph(graph_path), since, library)
    except ReportError as error:
        raise click.UsageError(str(error)) from None
    if out_path:
        text = write_report(found, out_path, fmt)
        click.echo(f"wrote {out_path}: {len(found.releases)} releases after {found.since}, "
                   f"{len(text.encode('utf8')):,} bytes")
        return
    click.echo(generate(found, fmt), nl=False)


if __name__ == "__main__":  # pragma: no cover
    main()
