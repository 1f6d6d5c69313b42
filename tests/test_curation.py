"""Issue 12: a project's curation (``ptkg.toml``, ``--patterns DIR``) without editing ptkg.

Reading and checking the file (every error one line naming the file and line), its digest for
the extraction cache, its graph-level effects on hand-made facts, and a curation of real posts:
a rejected noise name, two names of the MPS backend merged into one lifecycle, FFmpeg relabelled
a Library, and Helion, a 2026 name the pack does not know, found in the 2026 posts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ptkg.curation import Curation, CurationError, Merge, Reject, read_curation
from ptkg.extractors.pipeline import extract_posts, load_nlp
from ptkg.extractors.rules import check_token_pattern
from ptkg.graph import build_graph, read_graph
from ptkg.readers import read_posts
from ptkg.records import Entity, Fact, Mention, PostFacts

BLOG = "https://pytorch.org/blog/"

PROJECT = """\
# the curation of a project
[[name]]
label = "Library"
name = "Helion"
aliases = ["Helion DSL"]

[[name]]
label = "Hardware"
name = "GB300"
exact = true

[[name]]
label = "Library"
name = "nanochat"

[[merge]]
names = ["PreResNet-164", "ResNet-164"]
label = "Model"

[reject]
names = ["are now available", "deltas", {name = "PyTorch", label = "Feature"}]

[labels]
FFmpeg = "Library"
"Composable Kernel" = "Library"

[patterns]
dirs = ["patterns"]
"""


def write(folder: Path, text: str, patterns: list[dict] | None = None) -> Path:
    (folder / "patterns").mkdir(exist_ok=True)
    lines = "".join(json.dumps(p) + "\n" for p in patterns or [])
    (folder / "patterns" / "extra.jsonl").write_text(lines, encoding="utf8")
    path = folder / "ptkg.toml"
    path.write_text(text, encoding="utf8")
    return path


# --------------------------------------------------------------------------- reading


def test_issue12_read_a_project_file(tmp_path):
    extra = {"label": "Hardware", "pattern": "Blackwell", "id": "Blackwell", "kind": "device"}
    curation = Curation.read(write(tmp_path, PROJECT, [extra]))
    assert curation.patterns == (
        {"label": "Library", "pattern": "Helion", "id": "Helion"},
        {"label": "Library", "pattern": "Helion DSL", "id": "Helion"},
        {"label": "Hardware", "pattern": [{"ORTH": "GB300"}], "id": "GB300"},
        {"label": "Library", "pattern": "nanochat", "id": "nanochat"},
        extra,
    )
    project = tmp_path / "ptkg.toml"
    assert curation.origins == (f"{project}:2", f"{project}:5", f"{project}:7",
                                f"{project}:12", f"{tmp_path / 'patterns' / 'extra.jsonl'}:1")
    assert curation.merges == (Merge(("PreResNet-164", "ResNet-164"), "Model"),)
    assert curation.rejects == (Reject("are now available"), Reject("deltas"),
                                Reject("PyTorch", "Feature"))
    assert curation.labels == (("FFmpeg", "Library"), ("Composable Kernel", "Library"))
    assert curation.is_rejected("Feature", "Are now available")
    assert curation.is_rejected("Feature", "PyTorch")
    assert not curation.is_rejected("Library", "PyTorch")
    assert curation.label_of("ffmpeg") == "Library"
    assert curation.known()["Library", "heliondsl"] == "Helion"
    curation.check_patterns(check_token_pattern)  # spaCy's schema accepts the token pattern


def test_issue12_digest_covers_what_extraction_reads(tmp_path):
    """Names and pattern files change what is extracted; merges, rejects and labels do not."""
    base = Curation.read(write(tmp_path, PROJECT))
    assert base.digest == Curation.read(write(tmp_path, PROJECT)).digest
    assert len(base.digest) == 64
    graph_only = PROJECT.replace('"deltas", ', "").replace('FFmpeg = "Library"\n', "")
    assert Curation.read(write(tmp_path, graph_only)).digest == base.digest
    renamed = PROJECT.replace('"Helion DSL"', '"helion-lang"')
    assert Curation.read(write(tmp_path, renamed)).digest != base.digest
    extra = [{"label": "Library", "pattern": "TileLang"}]
    assert Curation.read(write(tmp_path, PROJECT, extra)).digest != base.digest
    no_names = '[labels]\nFFmpeg = "Library"\n'
    assert Curation.read(write(tmp_path, no_names)).digest is None


def test_issue12_read_curation_from_options(tmp_path):
    assert read_curation(None, []) is None
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "a.jsonl").write_text('{"label": "Library", "pattern": "Helion"}\n',
                                              encoding="utf8")
    only_patterns = read_curation(None, [tmp_path / "dir"])
    assert only_patterns.patterns == ({"label": "Library", "pattern": "Helion"},)
    both = read_curation(write(tmp_path, PROJECT), [tmp_path / "dir"])
    assert both.patterns[-1] == {"label": "Library", "pattern": "Helion"}
    assert both.merges and both.sources == (str(tmp_path / "ptkg.toml"), str(tmp_path / "dir"))


@pytest.mark.parametrize(("text", "message"), [
    ('[[name]]\nlabel = "Library"\nname = "Helion\n', "ptkg.toml:3: not TOML (Illegal character"),
    ('[[names]]\nname = "x"\n', "ptkg.toml: unknown table 'names' (known: labels, merge, name, "
                                "patterns, reject)"),
    ('[[name]]\nlabel = "Library"\nname = "Helion"\nalias = ["x"]\n',
     "ptkg.toml:4: name: unknown key 'alias' (known: aliases, exact, label, name)"),
    ('\n[[name]]\nname = "Helion"\n', "ptkg.toml:2: name: needs 'label'"),
    ('[[name]]\nlabel = "Framework"\nname = "Helion"\n',
     "ptkg.toml:2: name: label 'Framework' is not a label of the contract (one of Library, "
     "Release, Feature, Hardware, Platform, Organization, Model)"),
    ('[[name]]\nlabel = "Release"\nname = "Helion 1.0"\n',
     "ptkg.toml:2: name: a Release is read by rule"),
    ('[[name]]\nlabel = "Library"\nname = ""\n', "ptkg.toml:3: name: name must be a non-empty "
                                                 "string"),
    ('[[name]]\nlabel = "Library"\nname = "Helion"\naliases = "helion"\n',
     "ptkg.toml:4: name: aliases must be a list of strings"),
    ('[[merge]]\nnames = ["TensorParallel", "tensor-parallel"]\n',
     "ptkg.toml:2: merge: names needs at least two different names"),
    ('[[merge]]\nnames = ["a", "b"]\nlabel = "Thing"\n', "ptkg.toml:3: merge: label 'Thing'"),
    ('[merge]\nnames = ["a", "b"]\n', "ptkg.toml:1: 'merge' is a list of tables: write "
                                      "[[merge]]"),
    ('[reject]\nnames = [{name = "x", labl = "Feature"}]\n',
     "ptkg.toml:2: reject: a table in names is {name"),
    ('[[merge]]\nnames = ["a", "b"]\n[reject]\nnames = ["B"]\n',
     "ptkg.toml:2: merge: 'b' is also rejected; keep one of the two"),
    ('[labels]\nFFmpeg = "Libary"\n', "ptkg.toml:2: labels: FFmpeg 'Libary' is not a label"),
    ('[patterns]\ndirs = ["nowhere"]\n', "ptkg.toml:2: no such pattern folder: "),
])
def test_issue12_project_file_errors_name_the_line(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(CurationError) as error:
        Curation.read(path)
    assert str(error.value).startswith(f"{tmp_path}/{message}")
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(("line", "message"), [
    ('{"label": "Library", "pattern": "Helion"', "not a JSON object"),
    ('{"label": "Library"}', "a pattern needs 'label' and 'pattern'"),
    ('{"label": "Framework", "pattern": "Helion"}', "label 'Framework' is not a label a "
                                                   "pattern can give"),
    ('{"label": "Library", "pattern": []}', "a pattern is a string or a non-empty list"),
    ('{"label": "Library", "pattern": "Helion", "id": ""}', "'id' must be a non-empty string"),
    ('{"label": "Library", "pattern": "Helion", "ids": "x"}', "unknown key 'ids'"),
])
def test_issue12_pattern_file_errors_name_the_line(tmp_path, line, message):
    folder = tmp_path / "patterns"
    folder.mkdir()
    (folder / "a.jsonl").write_text('{"label": "Library", "pattern": "TileLang"}\n\n' + line
                                    + "\n", encoding="utf8")
    with pytest.raises(CurationError) as error:
        Curation.from_pattern_dirs([folder])
    assert str(error.value).startswith(f"{folder / 'a.jsonl'}:3: {message}")


# --------------------------------------------------------------------------- graph effects


def curation_of(text: str, tmp_path: Path) -> Curation:
    return Curation.read(write(tmp_path, text))


def facts_post(mentions: list[Entity], facts: list[Fact]) -> PostFacts:
    return PostFacts(BLOG + "p/", "p", None, None,
                     [Mention(e, e.name, 0, 1) for e in mentions], facts)


def test_issue12_rejected_names_are_no_nodes_and_their_facts_go(tmp_path):
    noise, library = Entity("Feature", "are now available"), Entity("Library", "PyTorch")
    handle = Entity("Feature", "PyTorch")
    facts = [Fact("PART_OF", noise, library, "test", 0, 1, "x"),
             Fact("BASED_ON", handle, library, "test", 0, 1, "y")]
    results = [facts_post([noise, library, handle], facts)]
    curation = curation_of(PROJECT.replace('\n[patterns]\ndirs = ["patterns"]\n', ""), tmp_path)
    graph = build_graph(results, curation)
    assert sorted(n for n in graph if not n.startswith("Post:")) == ["Library:PyTorch"]
    assert [k for _, _, k in graph.edges(keys=True)] == ["MENTIONS"]
    assert "Feature:are now available" in build_graph(results)


def test_issue12_labels_relabel_and_drop_facts_the_label_cannot_take(tmp_path):
    ffmpeg = Entity("Hardware", "FFmpeg")
    facts = [Fact("SUPPORTS", Entity("Release", "torchaudio 2.1"), ffmpeg, "test", 0, 1, "x")]
    graph = build_graph([facts_post([ffmpeg], facts)],
                        curation_of('[labels]\nFFmpeg = "Library"\n', tmp_path))
    assert graph.nodes["Library:FFmpeg"]["merged"] == ["FFmpeg (Hardware): the project file "
                                                       "labels it Library"]
    assert "kind" not in graph.nodes["Library:FFmpeg"]
    assert not any(k == "SUPPORTS" for _, _, k in graph.edges(keys=True))


def test_issue12_merges_join_names_across_labels_under_the_first_name(tmp_path):
    a, b = Entity("Feature", "TensorParallel"), Entity("Library", "Tensor Parallelism")
    text = '[[merge]]\nnames = ["Tensor Parallel", "TensorParallel", "Tensor Parallelism"]\n' \
           'label = "Feature"\n'
    graph = build_graph([facts_post([a, b, b], [])], curation_of(text, tmp_path))
    node = graph.nodes["Feature:Tensor Parallel"]
    assert node["mentions"] == 3
    assert node["merged"] == [
        "Tensor Parallelism (Library): the project file merges it into Tensor Parallel",
        "TensorParallel: same name up to case, spacing and punctuation"]


def test_issue12_names_give_the_canonical_name(tmp_path):
    """A form the project file lists is its name's node, as a pack alias would be."""
    text = '[[name]]\nlabel = "Library"\nname = "Helion"\naliases = ["Helion DSL"]\n'
    graph = build_graph([facts_post([Entity("Library", "Helion DSL"),
                                     Entity("Library", "helion")], [])],
                        curation_of(text, tmp_path))
    assert [n for n in graph if n.startswith("Library:")] == ["Library:Helion"]
    assert graph.nodes["Library:Helion"]["merged"] == [
        "Helion DSL: the project file names it Helion",
        "helion: the project file names it Helion"]


# --------------------------------------------------------------------------- real posts


def extract_with(posts, curation: Curation | None, model: str = "en_core_web_sm"):
    """What the build does with a project file: its names are added to the entity finder."""
    if curation is not None:
        curation.check_patterns(check_token_pattern)
    return list(extract_posts(posts, load_nlp(model, curation.patterns if curation else ())))


CORPUS_POSTS = ("pytorch-1.12-released", "stochastic-weight-averaging-in-pytorch",
                "new-library-updates-in-pytorch-2.1",
                "pytorch-1-dot-4-released-and-domain-libraries-updated")


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Curation:
    return Curation.read(write(tmp_path_factory.mktemp("project"), PROJECT))


@pytest.fixture(scope="module")
def corpus_results(corpus_dir, project):
    urls = {BLOG + slug + "/" for slug in CORPUS_POSTS}
    posts = [p for p in read_posts([corpus_dir / "pytorch_blog.jsonl"]) if p.url in urls]
    assert len(posts) == len(urls)
    return extract_with(posts, project)


def test_issue12_curation_of_real_posts_merges_rejects_and_relabels(corpus_results, project):
    plain, curated = build_graph(corpus_results), build_graph(corpus_results, project)
    # two names of one network (the SWA post's "Preactivation ResNet-164" and "ResNet-164"),
    # which no rule can know are one: one node, and `ptkg show` says why
    assert {"Model:PreResNet-164", "Model:ResNet-164"} <= set(plain)
    assert "Model:ResNet-164" not in curated
    merged = curated.nodes["Model:PreResNet-164"]
    assert "ResNet-164" in merged["aliases"]
    assert "ResNet-164: the project file merges it into PreResNet-164" in merged["merged"]
    # a noise name of the 1.4 post is gone, with its mentions
    rejected = [n for n in plain if plain.nodes[n]["label"] != "Post"
                and project.is_rejected(plain.nodes[n]["label"], plain.nodes[n]["name"])]
    assert all(n not in curated for n in rejected)
    # FFmpeg, a Hardware read from "FFmpeg backend", is a Library
    assert "Library:FFmpeg" in curated and "Hardware:FFmpeg" not in curated
    assert not [u for u, _, k in curated.in_edges("Library:FFmpeg", keys=True)
                if k == "SUPPORTS"]


NEW_NAMES = {"Library:Helion": "helion", "Library:nanochat": "using-muon-optimizer"}


@pytest.fixture(scope="module")
def posts_2026(corpus_dir, project):
    posts = [p for p in read_posts([corpus_dir / "2026" / "pytorch_blog_2026.jsonl"])
             if any(part in p.url for part in NEW_NAMES.values())]
    assert len(posts) == 4
    return (build_graph(extract_with(posts, None)),
            build_graph(extract_with(posts, project), project), posts)


@pytest.mark.parametrize("node", sorted(NEW_NAMES))
def test_issue12_curation_adds_a_2026_name(posts_2026, node):
    """Names of 2026 (issue 12 item 7: Helion, nanochat), found in every 2026 post that holds
    them once the project file names them, as what it says they are."""
    plain, curated, posts = posts_2026
    name = node.partition(":")[2]
    holding = sorted(p.url for p in posts if name in p.text)
    assert holding
    assert sorted(u[5:] for u, _, k in curated.in_edges(node, keys=True)
                  if k == "MENTIONS") == holding
    plain_mentions = plain.nodes[node]["mentions"] if node in plain else 0
    assert plain_mentions <= curated.nodes[node]["mentions"]


# --------------------------------------------------------------------------- the command


def test_issue12_build_with_a_project_file(corpus_dir, tmp_path):
    """``ptkg build --project``: names change extraction (a new cache key); merges, rejects and
    labels change the graph only, so editing them re-extracts nothing; a bad file is one line."""
    from click.testing import CliRunner

    from ptkg.cli import main

    posts = corpus_dir / "2026" / "markdown"
    project = write(tmp_path, PROJECT)
    graph = tmp_path / "graph.json"

    def build(*extra):
        return CliRunner().invoke(main, ["build", str(posts), "--graph", str(graph), "--model",
                                         "blank", *map(str, extra)])

    assert "21 posts (0 from the cache)" in build().output
    first = build("--project", project)
    assert "21 posts (0 from the cache)" in first.output, first.output
    assert "Library:nanochat" in read_graph(graph)
    project.write_text(PROJECT.replace('"deltas", ', '"deltas", "Muon", '), encoding="utf8")
    again = build("--project", project)
    assert "21 posts (21 from the cache)" in again.output, again.output
    assert not [n for n in read_graph(graph) if n.endswith(":Muon")]
    shown = CliRunner().invoke(main, ["show", "ProcessGroup", "--graph", str(graph)])
    assert "  merged:\n      ProcessGroups: plural of ProcessGroup\n" in shown.output
    project.write_text('[[name]]\nlabel = "Framework"\nname = "x"\n', encoding="utf8")
    bad = build("--project", project)
    assert bad.exit_code == 1
    assert bad.output.splitlines() == [
        f"Error: {project}:2: name: label 'Framework' is not a label of the contract (one of "
        "Library, Release, Feature, Hardware, Platform, Organization, Model)"]
