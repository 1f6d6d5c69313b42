"""Tests of the ``ptkg`` command line, through click's CliRunner.

``build`` reads real posts (the bundled sample); the commands that read a graph (``stats``,
``query``, ``show``, ``eval``) read the hand-made graph (``tests/data/graph.json``, see
``tests/data/handmade.py``), so what they print does not change with an extraction rule.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from click.testing import CliRunner

from ptkg.cli import main
from ptkg.evaluate import evaluate, read_gold, report_rows
from ptkg.graph import build_graph, node_id, write_graph
from ptkg.records import Entity, Mention, PostFacts

ISSUE_QUERY = ('MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) WHERE r.name = "PyTorch 1.8" '
               "RETURN f.name, i.stability")
PARAM_QUERY = ("MATCH (r:Release)-[i:INTRODUCES]->(f:Feature) WHERE r.name = $release "
               "RETURN f.name, i.stability")
URL_18 = "https://pytorch.org/blog/pytorch-1.8-released/"
URL_110 = "https://pytorch.org/blog/pytorch-1.10-released/"
URL_22 = "https://pytorch.org/blog/pytorch2-2/"
URL_28 = "https://pytorch.org/blog/pytorch-2-8/"
GOOD_ROW = '{"url": "https://pytorch.org/blog/a/", "text": "PyTorch 1.8 adds torch.fx."}'
COMMANDS = sorted(main.commands)


def run(*args: str, catch: bool = True):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch)


def count_lines(graph) -> list[str]:
    """The ``nodes:`` and ``edges:`` lines, counted here from the graph itself."""
    nodes = Counter(data["label"] for _, data in graph.nodes(data=True))
    edges = Counter(key for _, _, key in graph.edges(keys=True))
    return ["nodes: " + ", ".join(f"{k} {v}" for k, v in sorted(nodes.items())),
            "edges: " + ", ".join(f"{k} {v}" for k, v in sorted(edges.items()))]


def introduced_by_18(graph) -> set[tuple[str, str | None]]:
    return {(graph.nodes[v]["name"], data.get("stability"))
            for _, v, key, data in graph.out_edges(node_id("Release", "PyTorch 1.8"), keys=True,
                                                  data=True)
            if key == "INTRODUCES"}


def error_lines(result) -> list[str]:
    return [line for line in result.output.splitlines() if line.startswith("Error:")]


# --------------------------------------------------------------------------- build


def test_build_writes_graph_and_summary(tmp_path, sample_path, sample_graph, sample_graph_json):
    path = tmp_path / "tmp" / "graph.json"
    result = run("build", sample_path, "--graph", path, catch=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert re.fullmatch(
        rf"wrote {re.escape(str(path))}: 8 posts \(0 from the cache\), "
        rf"{sample_graph.number_of_nodes()} nodes, "
        rf"{sample_graph.number_of_edges()} edges, 0 rows skipped, \d+\.\ds", lines[0])
    assert lines[1:] == count_lines(sample_graph)
    assert result.stderr == ""
    assert path.read_text(encoding="utf8") == sample_graph_json


def write_rows(tmp_path, *rows: str):
    path = tmp_path / "posts.jsonl"
    path.write_text("".join(row + "\n" for row in rows), encoding="utf8")
    return path


def test_build_report_lists_skipped_rows(tmp_path):
    posts = write_rows(tmp_path, GOOD_ROW, "not json", '{"text": "no url"}')
    report = tmp_path / "skipped.txt"
    result = run("build", posts, "--graph", tmp_path / "graph.json", "--model", "blank",
                 "--report", report, catch=False)
    assert result.exit_code == 0
    graph = re.escape(str(tmp_path / "graph.json"))
    assert re.fullmatch(rf"wrote {graph}: 1 posts \(0 from the cache\), \d+ nodes, \d+ edges, "
                        r"2 rows skipped, \d+\.\ds", result.stdout.splitlines()[0])
    reported = report.read_text(encoding="utf8").splitlines()
    assert [line.split(": ")[0] for line in reported] == [f"{posts}:2", f"{posts}:3"]
    assert result.stderr.splitlines() == [f"skipped {line}" for line in reported]


def test_build_report_is_written_when_no_post_is_usable(tmp_path):
    posts = write_rows(tmp_path, '{"text": "no url"}', "not json")
    report = tmp_path / "skipped.txt"
    result = run("build", posts, "--graph", tmp_path / "graph.json", "--report", report)
    assert result.exit_code == 1
    reported = report.read_text(encoding="utf8").splitlines()
    assert [line.split(": ")[0] for line in reported] == [f"{posts}:1", f"{posts}:2"]
    assert error_lines(result) == [f"Error: {posts}: no usable post found (2 rows skipped)"]


def test_build_missing_input_names_file(tmp_path):
    missing = tmp_path / "nope.txt"
    result = run("build", missing, "--graph", tmp_path / "graph.json")
    assert result.exit_code == 1
    assert result.output.splitlines() == error_lines(result)
    assert len(error_lines(result)) == 1
    assert error_lines(result)[0].startswith(f"Error: {missing}: ")


@pytest.mark.parametrize("content", [
    "hello\nworld\n",
    "{\"text\": \"no url\"}\nnot json\n{\"url\": \"ftp://x/\", \"text\": \"PyTorch 1.8\"}\n",
    "",
], ids=["unknown-format", "only-bad-rows", "empty-file"])
def test_build_without_usable_post_fails(tmp_path, content):
    posts = tmp_path / "posts.jsonl"
    posts.write_text(content, encoding="utf8")
    result = run("build", posts, "--graph", tmp_path / "graph.json")
    assert result.exit_code == 1
    assert len(error_lines(result)) == 1
    assert error_lines(result)[0].startswith(f"Error: {posts}: ")
    assert "Traceback" not in result.output
    assert not (tmp_path / "graph.json").exists()


def test_build_strict_fails_on_malformed_row(tmp_path):
    posts = write_rows(tmp_path, GOOD_ROW, "not json", GOOD_ROW)
    graph = tmp_path / "graph.json"
    result = run("build", posts, "--graph", graph, "--strict", "--model", "blank")
    assert result.exit_code == 1
    assert len(error_lines(result)) == 1
    assert error_lines(result)[0].startswith(f"Error: {posts}:2: ")
    assert not graph.exists()


def test_build_failure_leaves_graph_file_untouched(tmp_path, handmade_graph_file):
    graph = tmp_path / "graph.json"
    text = handmade_graph_file.read_text(encoding="utf8")
    graph.write_text(text, encoding="utf8")
    posts = write_rows(tmp_path, '{"text": "no url"}')
    result = run("build", posts, "--graph", graph)
    assert result.exit_code == 1
    assert graph.read_text(encoding="utf8") == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["graph.json", "posts.jsonl"]


def test_build_unwritable_graph_path_is_one_line_error(tmp_path):
    posts = write_rows(tmp_path, GOOD_ROW)
    graph = tmp_path / "posts.jsonl" / "graph.json"
    result = run("build", posts, "--graph", graph, "--model", "blank")
    assert result.exit_code == 1
    assert len(error_lines(result)) == 1
    assert error_lines(result)[0].startswith(f"Error: {graph}: cannot write the graph (")
    assert "Traceback" not in result.output


# --------------------------------------------------------------------------- stats, query


def test_stats_counts_nodes_and_edges(handmade_graph_file, handmade_graph):
    result = run("stats", "--graph", handmade_graph_file, catch=False)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"{handmade_graph_file}: {handmade_graph.number_of_nodes()} nodes, "
        f"{handmade_graph.number_of_edges()} edges", *count_lines(handmade_graph)]
    assert result.stdout.splitlines()[1:] == [
        "nodes: Feature 9, Hardware 6, Library 8, Model 2, Organization 2, Platform 2, Post 8, "
        "Release 10",
        "edges: ANNOUNCES 7, BASED_ON 1, DEPRECATES 1, DEVELOPED_BY 3, HAS_RELEASE 10, "
        "INTRODUCES 12, MENTIONS 50, PART_OF 1, PRECEDES 6, RELEASED_WITH 2, REMOVES 1, "
        "REPLACES 1, SAME_AS 1, SUPPORTS 7, VARIANT_OF 1"]


@pytest.mark.parametrize("command", ["stats", "show torch.fx", "query MATCH_(n)_RETURN_n",
                                     "eval --gold tests/gold/sample.json"])
def test_command_missing_graph_is_one_line_error(tmp_path, repo_root, monkeypatch, command):
    monkeypatch.chdir(repo_root)
    missing = tmp_path / "graph.json"
    args = [a.replace("_", " ") for a in command.split()]
    result = run(*args, "--graph", missing)
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"Error: {missing}: no such graph file; build one with `ptkg build`"]


def test_query_issue_example_json(handmade_graph_file, handmade_graph):
    result = run("query", ISSUE_QUERY, "--graph", handmade_graph_file, "--format", "json",
                 catch=False)
    assert result.exit_code == 0
    rows = json.loads(result.stdout)
    assert rows == [{"f.name": "ZeroRedundancyOptimizer", "i.stability": "Prototype"},
                    {"f.name": "torch.fft", "i.stability": "Stable"},
                    {"f.name": "torch.fx", "i.stability": "Beta"},
                    {"f.name": "torch.linalg", "i.stability": None}]
    assert {(row["f.name"], row["i.stability"]) for row in rows} == introduced_by_18(
        handmade_graph)
    assert result.stdout.endswith("]\n")
    assert not result.stdout.endswith("\n\n")


def test_query_param_binds_value(handmade_graph_file, handmade_graph):
    result = run("query", PARAM_QUERY, "--graph", handmade_graph_file, "--format", "csv",
                 "--param", "release=PyTorch 1.8", catch=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "f.name,i.stability"
    assert sorted(lines[1:]) == sorted(f"{name},{stability or ''}"
                                       for name, stability in introduced_by_18(handmade_graph))
    assert "torch.linalg," in lines


@pytest.mark.parametrize(("cypher", "params", "message"), [
    ("MATCH (r:Release RETURN r", [], "Error: Cypher syntax error"),
    (PARAM_QUERY, [], "Error: missing value for query parameter(s) $release"),
], ids=["syntax-error", "missing-param"])
def test_query_bad_query_is_usage_error(handmade_graph_file, cypher, params, message):
    result = run("query", cypher, "--graph", handmade_graph_file, *params)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert len(error_lines(result)) == 1
    assert error_lines(result)[0].startswith(message)
    assert result.output.splitlines()[-1] == error_lines(result)[0]


# --------------------------------------------------------------------------- show


def test_show_lists_aliases_relations_evidence_and_post(handmade_graph_file):
    result = run("show", "torch.fx", "--graph", handmade_graph_file, catch=False)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "Feature: torch.fx",
        "  aliases: FX",
        "  mentions: 6",
        "  stability: Stable",
        "  <- INTRODUCES [Stable] Release:PyTorch 1.10",
        '      "(Stable) Python code transformations with FX"',
        f"        {URL_110}",
        "  <- INTRODUCES [Beta] Release:PyTorch 1.8",
        '      "[Beta] Python code Transformations with FX"',
        f"        {URL_18}",
        "  mentioned in 2 posts:",
        f"      {URL_110}",
        f"      {URL_18}",
    ]


def test_show_says_why_a_product_is_a_variant_of_its_family(tmp_path):
    mentions = [Mention(Entity("Hardware", d), d, 0, len(d)) for d in ("MI300X", "MI300")]
    write_graph(build_graph([PostFacts("https://pytorch.org/blog/p/", "p", None, None,
                                       mentions, [])]), tmp_path / "g.json")
    result = run("show", "MI300X", "--graph", tmp_path / "g.json", catch=False)
    assert "  -> VARIANT_OF Hardware:MI300 (MI300X is the MI300 with a model letter)" in \
        result.stdout.splitlines()


def test_show_lists_every_read_of_a_relation(handmade_graph_file):
    """A relation read three times (the 2.2 post says it twice, the 2.8 post looks back at it)
    shows every sentence."""
    result = run("show", "macOS x64", "--graph", handmade_graph_file, catch=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:6] == ["Platform: macOS x86", "  aliases: macOS x64", "  mentions: 3",
                         "  <- DEPRECATES Release:PyTorch 2.2",
                         '      "macOS x86 support was deprecated in 2.2."', f"        {URL_28}"]
    assert lines[6:10:2] == 2 * ['      "Please note that we are [deprecating macOS x86 support]'
                                "(https://github.com/pytorch/pytorch/issues/114602), and PyTorch "
                                '2.2.x will be the last version that supports macOS x64."']
    assert lines[7:11:2] == 2 * [f"        {URL_22}"]


@pytest.mark.parametrize("name", ["FX", "TORCH.FX", "`torch.fx`"])
def test_show_finds_entity_by_alias_or_form(handmade_graph_file, name):
    result = run("show", name, "--graph", handmade_graph_file, catch=False)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "Feature: torch.fx"


def test_show_unknown_name_lists_closest(handmade_graph_file):
    result = run("show", "torch.fxx", "--graph", handmade_graph_file)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    prefix = f"Error: no entity named 'torch.fxx' in {handmade_graph_file}; closest: "
    assert len(lines) == 1
    assert lines[0].startswith(prefix)
    assert lines[0][len(prefix):].split(", ")[0] == "torch.fx"


# --------------------------------------------------------------------------- eval


def test_eval_prints_table_and_stability(handmade_graph_file, handmade_graph, gold_sample_path):
    result = run("eval", "--gold", gold_sample_path, "--graph", handmade_graph_file, catch=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    report = evaluate(handmade_graph, read_gold([gold_sample_path]))
    rows = report_rows(report)
    assert lines[0].split() == ["part", "name", "precision", "recall", "f1", "tp", "predicted",
                                "gold"]
    assert [line.split() for line in lines[2:2 + len(rows)]] == [
        [str(cell) for cell in row] for row in rows]
    assert lines[2 + len(rows):] == [
        f"stability accuracy: {report.stability_accuracy:.3f} "
        f"({report.stability_correct} right of {report.stability_found} found; "
        f"{report.stability_total} stated in the gold)",
        f"duplicate nodes: {len(report.duplicates)}",
        *("  " + " = ".join(group) for group in report.duplicates)]


def test_eval_json_format(handmade_graph_file, gold_sample_path):
    result = run("eval", "--gold", gold_sample_path, "--graph", handmade_graph_file,
                 "--format", "json", catch=False)
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert set(data) == {"rows", "stability_accuracy", "stability_found", "stability_stated",
                         "duplicates"}
    assert {(row["part"], row["name"]) for row in data["rows"]} >= {
        ("entities", "all"), ("relations", "all"), ("relations", "INTRODUCES")}


@pytest.mark.parametrize("content", ['{"posts": []}', "[1]", "not json"],
                         ids=["no-entities", "list", "not-json"])
def test_eval_bad_gold_is_one_line_error(tmp_path, handmade_graph_file, content):
    gold = tmp_path / "gold.json"
    gold.write_text(content, encoding="utf8")
    result = run("eval", "--gold", gold, "--graph", handmade_graph_file)
    assert result.exit_code == 1
    assert len(result.output.splitlines()) == 1
    assert result.output.startswith(f"Error: {gold}: ")


# --------------------------------------------------------------------------- help


@pytest.mark.parametrize("args", [["-h"], ["--help"]])
def test_main_help_lists_commands(args):
    result = run(*args, catch=False)
    assert result.exit_code == 0
    listed = {line.split()[0] for line in result.stdout.split("Commands:")[1].splitlines()
              if line.strip()}
    assert listed == set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_command_has_help_with_example(command):
    result = run(command, "-h", catch=False)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"Usage: main {command} ")
    summary = main.commands[command].help.split("\n")[0]
    assert summary.strip()
    assert " ".join(summary.split()) in " ".join(result.stdout.split())
    assert "Example:" in result.stdout
    assert f"ptkg {command} " in result.stdout


def graph_reading_commands(group=main, prefix=()) -> list[tuple[str, ...]]:
    """Every command (subcommands too) that can open a Neo4j store: a ``--graph PATH|URI``
    or a ``--uri`` option."""
    found = []
    for name, command in sorted(group.commands.items()):
        path = (*prefix, name)
        if hasattr(command, "commands"):
            found += graph_reading_commands(command, path)
        elif any(opt in ("--uri",) or (opt == "--graph" and param.metavar == "PATH|URI")
                 for param in command.params for opt in param.opts):
            found.append(path)
    return found


def test_neo4j_commands_are_the_graph_reading_ones():
    """The commands the --timeout help test covers include the three that take --uri."""
    commands = graph_reading_commands()
    assert {("query",), ("queries", "run"), ("neo4j", "load"), ("stats",),
            ("show",)} <= set(commands)
    assert ("build",) not in commands and ("sync",) not in commands


@pytest.mark.parametrize("command", graph_reading_commands(), ids=" ".join)
def test_neo4j_command_help_shows_timeout(command):
    """Every command that can open a Neo4j store takes --timeout (env var NEO4J_TIMEOUT,
    default 15 s), once."""
    result = run(*command, "--help", catch=False)
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "--timeout SECONDS Seconds to wait for a Neo4j server" in text
    assert "[env var: NEO4J_TIMEOUT; default: 15]" in text
    assert text.count("--timeout") == 1
