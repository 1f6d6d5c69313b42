"""The ``ptkg`` command line: each command parses, calls one library function and prints."""

from __future__ import annotations

import difflib
import functools
import json
import sys

import click

from . import __version__
from .errors import PtkgError, QueryError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}
DEFAULT_GRAPH = "out/graph.json"


def graph_option(function):
    """``--graph PATH``: the graph file a command reads."""
    return click.option("--graph", "graph_path", default=DEFAULT_GRAPH, show_default=True,
                        type=click.Path(dir_okay=False), help="Graph JSON file.")(function)


def output_format_option(function):
    """``--format table|json|csv``: how rows are printed."""
    return click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]),
                        default="table", show_default=True, help="Output format.")(function)


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


def load_graph(path: str):
    from .graph import read_graph
    return read_graph(path)


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, prog_name="ptkg")
def main() -> None:
    """Build and query a knowledge graph of PyTorch releases, features and hardware.

    \b
    Example:
        ptkg build data/seed_sample.txt --graph out/graph.json
        ptkg query 'MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) RETURN r.name, f.name'
    """


@main.command()
@click.argument("inputs", nargs=-1, required=True, type=click.Path())
@graph_option
@click.option("--model", default="en_core_web_sm", show_default=True,
              help="spaCy pipeline: en_core_web_sm, or 'blank' for the rule components alone.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(1),
              help="Extraction processes; the graph is the same for any number.")
@click.option("--strict", is_flag=True, help="Fail on the first row that cannot be used.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False),
              help="Write the skipped rows, one per line, to this file.")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar (default: when stderr is a terminal).")
@translate_errors
def build(inputs, graph_path, model, jobs, strict, report_path, progress) -> None:
    """Build the graph from blog posts: table dumps, JSONL/CSV/Parquet, Jekyll posts or folders.

    \b
    Example:
        ptkg build ../shared/corpus/pytorch_blog.jsonl --graph out/graph.json --jobs 2
    """
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
                            progress=start)
    finally:  # the skipped rows are reported when the build fails too: they may be why
        if bar is not None:
            bar.close()
        for skip in skips.skips[:10]:
            click.echo(f"skipped {skip}", err=True)
        if report_path:
            _write_report(report_path, skips.skips)
    click.echo(f"wrote {graph_path}: {summary.posts} posts, "
               f"{sum(summary.nodes.values())} nodes, {sum(summary.edges.values())} edges, "
               f"{len(summary.skipped)} rows skipped, {summary.seconds:.1f}s")
    _echo_counts(summary.nodes, summary.edges)


def _write_report(path: str, skipped: list) -> None:
    from .graph import write_atomic

    try:
        write_atomic(path, "".join(f"{skip}\n" for skip in skipped))
    except OSError as error:
        raise click.ClickException(f"{path}: cannot write the report ({error.strerror})") from None


def _echo_counts(nodes: dict[str, int], edges: dict[str, int]) -> None:
    click.echo("nodes: " + ", ".join(f"{k} {v}" for k, v in nodes.items()))
    click.echo("edges: " + ", ".join(f"{k} {v}" for k, v in edges.items()))


@main.command()
@graph_option
@translate_errors
def stats(graph_path) -> None:
    """Count the graph's nodes per label and edges per type.

    \b
    Example:
        ptkg stats --graph out/graph.json
    """
    from .build import summarize

    graph = load_graph(graph_path)
    summary = summarize(graph, sum(1 for _, d in graph.nodes(data=True)
                                   if d["label"] == "Post"), [], 0.0)
    click.echo(f"{graph_path}: {sum(summary.nodes.values())} nodes, "
               f"{sum(summary.edges.values())} edges")
    _echo_counts(summary.nodes, summary.edges)


@main.command()
@click.argument("cypher")
@graph_option
@output_format_option
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
              help="A query parameter ($NAME); NAME:=JSON for a number, list or null.")
@translate_errors
def query(cypher, graph_path, fmt, params) -> None:
    """Run a Cypher query on the graph.

    \b
    Example:
        ptkg query 'MATCH (r:Release)-[i:INTRODUCES]->(f:Feature)
          WHERE r.name = $release RETURN f.name, i.stability' --param release="PyTorch 1.8"
    """
    from .cypher import format_rows, parse_param, run_query

    bound = dict(parse_param(p) for p in params)
    columns, rows = run_query(load_graph(graph_path), cypher, bound)
    click.echo(format_rows(columns, rows, fmt), nl=False)


@main.command()
@click.argument("name")
@graph_option
@translate_errors
def show(name, graph_path) -> None:
    """Show an entity, its aliases and relations, with the sentences and posts behind each.

    \b
    Example:
        ptkg show torch.fx --graph out/graph.json
    """
    from .explore import describe, find_nodes

    graph = load_graph(graph_path)
    nodes = find_nodes(graph, name)
    if not nodes:
        names = sorted({d["name"] for _, d in graph.nodes(data=True)})
        close = difflib.get_close_matches(name, names, n=5, cutoff=0.5)
        hint = f"; closest: {', '.join(close)}" if close else ""
        raise click.ClickException(f"no entity named {name!r} in {graph_path}{hint}")
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
    from .cypher import format_rows
    from .evaluate import evaluate, read_gold, report_rows

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


if __name__ == "__main__":  # pragma: no cover
    main()
