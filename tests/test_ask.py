"""Issue 13: ``ptkg ask`` maps plain-English questions onto the named queries.

``tests/data/questions.jsonl`` was written before the mapper (``ptkg.ask``): each question with
the named query and the parameters it should get; ``questions_heldout.jsonl`` after it. Every
question is a test, and the accuracy of each set must be at least 90% (the README reports the
first score and the current one). On the hand-made graph, whose names the mapper links.
"""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

import ptkg
from ptkg.ask import SHAPES, QuestionMapper, closest_shapes, score_questions
from ptkg.cli import main
from ptkg.explore import name_index
from ptkg.graph import read_graph
from ptkg.named_queries import load_queries

DATA = Path(__file__).resolve().parent / "data"
QUESTIONS = [json.loads(line) for line in (DATA / "questions.jsonl").read_text(
    encoding="utf8").splitlines() if line.strip()]
HELDOUT = [json.loads(line) for line in (DATA / "questions_heldout.jsonl").read_text(
    encoding="utf8").splitlines() if line.strip()]


def run(*args, catch: bool = True):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch)


@pytest.fixture(scope="module")
def mapper(handmade_graph_file) -> QuestionMapper:
    return ptkg.open(handmade_graph_file).mapper()


def test_issue13_question_set_covers_every_named_query():
    assert len(QUESTIONS) >= 60
    mapped = [q for q in QUESTIONS if q["query"]]
    assert len(mapped) >= 60
    assert {q["query"] for q in mapped} == set(load_queries())
    assert set(SHAPES) == set(load_queries())


@pytest.mark.parametrize("item", QUESTIONS + HELDOUT, ids=[q["question"] for q in
                                                           QUESTIONS + HELDOUT])
def test_issue13_question_maps_to_its_query_and_params(mapper, item):
    found = mapper.map(item["question"])
    assert (found.query, found.params if found.query else {}) == (item["query"], item["params"])


@pytest.mark.parametrize("questions", [QUESTIONS, HELDOUT], ids=["questions", "heldout"])
def test_issue13_mapping_accuracy_at_least_90_percent(mapper, questions):
    accuracy, wrong = score_questions(mapper, questions)
    assert accuracy >= 0.9, [(item["question"], found.query, found.params)
                             for item, found in wrong]


@pytest.mark.parametrize("item", [q for q in QUESTIONS if q["query"]],
                         ids=[q["question"] for q in QUESTIONS if q["query"]])
def test_issue13_expected_params_run(handmade_graph_file, item):
    """The question set's parameters are valid names of the graph: each query runs."""
    result = ptkg.open(handmade_graph_file).run(item["query"], item["params"])
    assert result.columns


def test_issue13_mapping_is_deterministic(handmade_graph_file):
    index = name_index(read_graph(handmade_graph_file))
    first, second = QuestionMapper(index), QuestionMapper(index)
    for item in QUESTIONS:
        assert first.map(item["question"]).to_dict() == second.map(item["question"]).to_dict()


def test_issue13_unmapped_question_gets_three_shapes(mapper):
    found = mapper.map("Write me a poem about tensors")
    assert found.query is None
    assert len(found.closest) == 3 and all(shape in {s["example"] for s in SHAPES.values()}
                                           for shape in found.closest)
    assert closest_shapes("what is new", 1) == ["What's new in PyTorch 1.8?"]


def test_issue13_cli_ask_prints_query_rows_and_evidence(handmade_graph_file):
    result = run("ask", "What became stable in 1.10?", "--graph", handmade_graph_file,
                 catch=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == ('query: ptkg queries run features-by-stability --param '
                        'release="PyTorch 1.10" --param stability="Stable"')
    assert lines[1].split() == ["feature", "stability", "latest_stability", "release",
                                "named"]
    assert [line.split()[0] for line in lines[3:5]] == ["ZeroRedundancyOptimizer", "torch.fx"]
    assert lines[5] == "evidence:"
    assert lines[6].startswith("  row 1: PyTorch 1.10 -[INTRODUCES]-> ZeroRedundancyOptimizer: ")
    assert lines[6].endswith("https://pytorch.org/blog/pytorch-1.10-released/")


def test_issue13_cli_ask_says_when_the_answer_is_none(handmade_graph_file):
    """An empty answer says so: no post states it (not an empty table alone)."""
    result = run("ask", "What became stable in PyTorch 2.2?", "--graph", handmade_graph_file,
                 catch=False)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1].startswith("no rows: no post in the graph states")


def test_issue13_cli_ask_json(handmade_graph_file):
    result = run("ask", "Which posts mention torch.fx?", "--graph", handmade_graph_file,
                 "--format", "json", catch=False)
    data = json.loads(result.stdout)
    assert (data["mapped"], data["query"], data["params"]) == (True, "posts-about",
                                                               {"name": "torch.fx"})
    assert {row["url"] for row in data["result"]["rows"]} >= {
        "https://pytorch.org/blog/pytorch-1.8-released/"}


def test_issue13_cli_ask_unmapped_exits_1(handmade_graph_file):
    result = run("ask", "What is the weather in Paris?", "--graph", handmade_graph_file)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "I can't map this question. The closest question shapes:"
    assert len(lines) == 4 and all(line.startswith("  ") for line in lines[1:])


def test_issue13_cli_ask_unknown_release_is_an_error(handmade_graph_file):
    """Mapped, but the graph has no such release: an error with the closest, exit 1."""
    result = run("ask", "What's new in PyTorch 9.9?", "--graph", handmade_graph_file)
    assert result.exit_code == 1
    assert result.output.startswith("Error: no Release named 'PyTorch 9.9' in the graph")


def test_issue13_ask_doctests():
    import doctest

    import ptkg.ask

    assert doctest.testmod(ptkg.ask).failed == 0


# --------------------------------------------------------------------------- issue 12 mappings


@pytest.mark.parametrize(("question", "query", "params"), [
    ("What did PyTorch 1.8 introduce, and how stable is each feature?", "features-by-release",
     {"release": "PyTorch 1.8"}),
    ("What became stable in PyTorch 1.10?", "features-by-stability",
     {"release": "PyTorch 1.10", "stability": "Stable"}),
], ids=["how-stable-is-each", "became-stable"])
def test_issue12_how_stable_asks_the_stability_and_filters_nothing(mapper, question, query,
                                                                   params):
    """'how stable is each' asks for the stability column; 'became stable' still filters."""
    found = mapper.map(question)
    assert (found.query, found.params) == (query, params)


@pytest.mark.parametrize("question", ["Which features were API-Unstable in PyTorch 2.8?"])
def test_issue12_api_stability_words_across_the_hyphen(mapper, question):
    """'API-Unstable' is three tokens (API, -, Unstable) and one stability word."""
    found = mapper.map(question)
    assert (found.query, found.params) == ("features-by-stability",
                                           {"release": "PyTorch 2.8",
                                            "stability": "API-Unstable"})


@pytest.mark.parametrize(("question", "stability"), [
    ("What did PyTorch 1.8 introduce in beta?", "Beta"),
    ("What did PyTorch 1.8 ship at prototype?", "Prototype"),
    ("What did PyTorch 1.8 ship as API-Unstable?", "API-Unstable"),
    ("Which API-Stable features did PyTorch 1.8 add?", "API-Stable"),
    ("What did PyTorch 1.8 introduce, beta only?", "Beta"),
    ("What did PyTorch 1.8 introduce that is beta?", "Beta"),
], ids=["in-beta", "at-prototype", "as-api-unstable", "api-stable-features", "beta-only",
        "that-is-beta"])
def test_a_stability_after_the_verb_filters_the_releases_features(mapper, question, stability):
    """The README's known limit: "What did PyTorch 1.8 introduce in beta?" listed every 1.8
    feature; a release's features asked with a stability word are that stability's."""
    found = mapper.map(question)
    assert (found.query, found.params) == ("features-by-stability",
                                           {"release": "PyTorch 1.8", "stability": stability})


@pytest.mark.parametrize(("question", "query", "params"), [
    ("Which features are API-Stable?", "features-by-stability", {"stability": "API-Stable"}),
    ("Which features are in beta?", "features-by-stability", {"stability": "Beta"}),
    ("When did torch.fx become stable?", "feature-stability", {"feature": "torch.fx"}),
    ("Which stable features does PyTorch/XLA have?", "features-of-library",
     {"library": "PyTorch/XLA"}),
    ("What did PyTorch 1.10 add for CUDA?", "features-by-release",
     {"release": "PyTorch 1.10", "hardware": "CUDA"}),
    ("What's new in PyTorch 1.10?", "features-by-release", {"release": "PyTorch 1.10"}),
    ("Which features moved from beta to stable in PyTorch 1.10?", "features-by-stability",
     {"release": "PyTorch 1.10", "stability": "Stable"}),
], ids=["api-stable", "in-beta", "feature-became", "library-features", "release-for-device",
        "release-alone", "from-beta-to-stable"])
def test_issue12_a_stability_alone_asks_every_release(mapper, question, query, params):
    """A stability with no release asks for the features every release gave it; a question
    that names a feature or a library is about that, not a list of one stability; a release
    and a device ask for the release's features for that device."""
    found = mapper.map(question)
    assert (found.query, found.params) == (query, params)


@pytest.mark.parametrize(("question", "hardware"), [
    ("Which PyTorch releases support MPS?", "MPS"),
    ("Which PyTorch versions support Cloud TPUs?", "TPU"),
], ids=["releases-support", "versions-support"])
def test_issue12_releases_that_support_a_device(mapper, question, hardware):
    """'Which PyTorch releases support X' asks for the releases that support it, not for
    PyTorch's releases."""
    found = mapper.map(question)
    assert (found.query, found.params) == ("releases-supporting", {"hardware": hardware})


@pytest.mark.parametrize(("question", "also"), [
    ("Which releases support Apple silicon GPUs?", [{"hardware": "Apple silicon"}]),
    ("Which releases support AMD GPUs?", []),
], ids=["another-device", "generic-device"])
def test_issue12_a_device_named_inside_another_is_asked_too(question, also):
    """"Apple silicon GPUs", which the graph calls MPS, holds the device Apple silicon: the
    question asks of both; the GPU of "AMD GPUs" is no device of its own to ask of."""
    graph = nx.MultiDiGraph()
    for name, aliases in (("MPS", ["Apple silicon GPU"]), ("Apple silicon", []),
                          ("AMD GPU", []), ("GPU", [])):
        graph.add_node(f"Hardware:{name}", label="Hardware", name=name, aliases=aliases)
    found = ptkg.open(graph=graph).mapper().map(question)
    assert found.query == "releases-supporting" and found.also == also


def test_issue12_a_question_naming_two_devices_asks_for_each(handmade_graph_file, mapper):
    """"MPS / Apple silicon": the rows of each device, led by the device each row is for; the
    CLI prints the query of each; a question naming one device asks for it alone."""
    question = "Which PyTorch releases support MPS / Apple silicon?"
    found = mapper.map(question)
    assert (found.query, found.params, found.also) == (
        "releases-supporting", {"hardware": "MPS"}, [{"hardware": "Apple silicon"}])
    assert mapper.map("Which PyTorch releases support MPS?").also == []
    answer = ptkg.open(handmade_graph_file).ask(question)
    result = answer.result
    assert result.columns[0] == "hardware" and result.also == [{"hardware": "Apple silicon"}]
    assert {row["hardware"] for row in result} == {"MPS", "Apple silicon"}
    assert len(result.evidence) == len(result)
    lines = run("ask", question, "--graph", handmade_graph_file, catch=False).stdout.splitlines()
    assert lines[:2] == ['query: ptkg queries run releases-supporting --param hardware="MPS"',
                         'query: ptkg queries run releases-supporting --param '
                         'hardware="Apple silicon"']


@pytest.mark.parametrize(("question", "params"), [
    ("What library is FSDP part of?", {"name": "FSDP"}),
    ("Which library does Fully Sharded Data Parallel belong to?", {"name": "FSDP"}),
], ids=["part-of", "belong-to"])
def test_issue12_what_a_feature_is_part_of(handmade_graph_file, mapper, question, params):
    """'What is X part of' follows PART_OF from X (features-of-library answers the reverse)."""
    found = mapper.map(question)
    assert (found.query, found.params) == ("part-of", params)
    rows = ptkg.open(handmade_graph_file).ask(question).result.to_dicts()
    assert rows == [{"label": "Library", "whole": "PyTorch/XLA", "reads": 1}]


def test_issue12_what_is_part_of_a_library_stays_features_of_library(mapper):
    found = mapper.map("What features are part of PyTorch/XLA?")
    assert (found.query, found.params) == ("features-of-library", {"library": "PyTorch/XLA"})


@pytest.mark.parametrize(("question", "name"), [
    ("Who developed ZeroRedundancyOptimizer?", "ZeroRedundancyOptimizer"),
    ("Who contributed ZeroRedundancyOptimizer to PyTorch?", "ZeroRedundancyOptimizer"),
    ("Which companies are behind DeepSpeed?", "DeepSpeed"),
    ("Who did PyTorch work with on DeepSpeed?", "DeepSpeed"),
], ids=["developed", "contributed", "behind", "work-with"])
def test_issue12_who_built_x_asks_about_x(handmade_graph_file, mapper, question, name):
    """'Who developed/contributed/is behind X' gives the organizations of X only."""
    found = mapper.map(question)
    assert (found.query, found.params) == ("organizations", {"name": name})
    rows = ptkg.open(handmade_graph_file).ask(question).result.to_dicts()
    assert {(row["organization"], row["name"]) for row in rows} == {("Microsoft", name)}


@pytest.mark.parametrize(("question", "params"), [
    ("What changed between PyTorch 1.9 and 1.10?", {"a": "PyTorch 1.9", "b": "PyTorch 1.10"}),
    ("What changed in feature stability between PyTorch 1.10 and 1.8?",
     {"a": "PyTorch 1.8", "b": "PyTorch 1.10"}),
    ("compare pytorch v1.8 with v1.9", {"a": "PyTorch 1.8", "b": "PyTorch 1.9"}),
], ids=["between", "newer-first", "compare"])
def test_issue12_what_changed_between_two_releases(mapper, question, params):
    """Two releases of one library compared: release-diff, the older release first."""
    found = mapper.map(question)
    assert (found.query, found.params) == ("release-diff", params)


def test_issue12_release_diff_rows_are_both_releases_statements(handmade_graph_file):
    answer = ptkg.open(handmade_graph_file).ask("What changed between PyTorch 1.9 and 1.10?")
    rows = [(r["feature"], r["release"], r["stability"]) for r in answer.result]
    assert rows == [("CUDA Graphs", "PyTorch 1.10", "Beta"),
                    ("TorchElastic", "PyTorch 1.9", "Beta"),
                    ("ZeroRedundancyOptimizer", "PyTorch 1.9", "Beta"),
                    ("ZeroRedundancyOptimizer", "PyTorch 1.10", "Stable"),
                    ("torch.fx", "PyTorch 1.10", "Stable"),
                    ("torch.linalg", "PyTorch 1.9", "Stable")]


def test_issue12_library_name_then_two_bare_versions(corpus_kg):
    """'torchaudio between 0.11 and 0.12': both versions are torchaudio's, not PyTorch's."""
    found = corpus_kg.mapper().map("What changed in torchaudio between 0.11 and 0.12?")
    assert (found.query, found.params) == ("release-diff", {"a": "torchaudio 0.11",
                                                            "b": "torchaudio 0.12"})


def test_issue12_mixed_case_name_links(corpus_kg):
    """'torch.accelerator.Graph' is three tokens, its casefolded form one: both link."""
    found = corpus_kg.mapper().map("Is torch.accelerator.Graph API-Stable or API-Unstable?")
    assert (found.query, found.params) == ("feature-stability",
                                           {"feature": "torch.accelerator.Graph"})


@pytest.mark.parametrize(("question", "query", "params"), [
    ("Which releases added or improved Windows support?", "releases-supporting",
     {"hardware": "Windows"}),
    ("Which releases added CUDA Graphs?", "feature-stability", {"feature": "CUDA Graphs"}),
], ids=["a-devices-support-named-by-a-feature", "a-feature-named-for-a-device"])
def test_issue12_a_feature_named_as_a_devices_support_asks_for_the_device(corpus_kg, question,
                                                                         query, params):
    """"improved Windows support" links torchaudio's feature "Improved Windows Support"; a
    question of releases that added it asks for the device, not for that one feature (but
    "CUDA Graphs" is a feature, not CUDA's support)."""
    found = corpus_kg.mapper().map(question)
    assert (found.query, found.params) == (query, params)


@pytest.mark.parametrize(("question", "gap"), [
    ("What features did the PyTorch 0.4 release announce?",
     "no post in the graph announces PyTorch 0.4: the feature listed comes from other posts, "
     "so its own list is not known"),
    ("What features did the PyTorch 1.1 release announce?",
     "no post in the graph announces PyTorch 1.1 or lists its features: the features it "
     "introduced are not known"),
    ("Which library releases shipped with PyTorch 1.13?",
     "no post in the graph names a library release shipped with PyTorch 1.13: the library "
     "releases shipped with it are not known"),
    ("Is torch.accelerator.Graph API-Stable or API-Unstable?",
     "not in the graph: no post states a stability for torch.accelerator.Graph"),
], ids=["features-of-unannounced-release", "release-with-no-features",
        "released-with-nothing-named", "no-stability-stated"])
def test_issue12_not_in_corpus_gets_the_gap_line(corpus_kg, question, gap):
    assert corpus_kg.ask(question).result.gaps == [gap]


@pytest.mark.parametrize("question", ["When did torchvision's transforms v2 become stable?",
                                      "When did torchvision transforms v2 become stable?"])
def test_issue12_a_module_path_said_in_words_links(corpus_kg, question):
    """A dotted name said as words, its library owning the rest ("torchvision's transforms
    v2"), is that name."""
    found = corpus_kg.mapper().map(question)
    assert (found.query, found.params) == ("feature-stability",
                                           {"feature": "torchvision.transforms.v2"})


@pytest.fixture(scope="module")
def corpus_kg(corpus_graph_file):
    with ptkg.open(corpus_graph_file) as graph:
        yield graph


@pytest.mark.parametrize(("question", "gap"), [
    ("Has CUDA Graphs become stable?", "not in the graph: no post says that CUDA Graphs is "
     "Stable in any release (the rows are every stability stated)"),
    ("Is torch.linalg API-Stable or API-Unstable?", "not in the graph: no post says that "
     "torch.linalg is API-Stable or API-Unstable in any release (the rows are every stability "
     "stated)"),
    ("Is torch.fft beta?", "not in the graph: no post says that torch.fft is Beta in any "
     "release (the rows are every stability stated)"),
    ("When did torch.fx become stable?", None),
    ("What did PyTorch 2.2 remove?", "not in the graph: no post says that PyTorch 2.2 removes "
     "anything (the rows are deprecations)"),
    ("What did PyTorch 2.2 deprecate?", None),
    ("What was deprecated or removed in PyTorch 2.2?", None),
], ids=["never-stable", "never-api-stable", "stable-not-beta", "became-stable", "no-removal",
        "deprecation", "either"])
def test_issue12_an_outcome_no_row_holds_is_said(handmade_graph_file, question, gap):
    """A question that asks for one outcome (a stability reached, a removal) whose rows hold
    none of it says that the posts do not state it; the rows stay what they are."""
    answer = ptkg.open(handmade_graph_file).ask(question)
    assert answer.result.rows
    assert answer.result.gaps == ([gap] if gap else [])


@pytest.mark.parametrize(("question", "params"), [
    ("Is macOS x86 deprecated?", {"name": "macOS x86"}),
    ("Which release dropped Python 2?", {"name": "Python 2"}),
    ("Was Python 2 dropped in torchvision 0.6?", {"name": "Python 2",
                                                   "release": "torchvision 0.6"}),
    ("What did PyTorch 2.2 deprecate?", {"release": "PyTorch 2.2"}),
    ("What did torchvision remove?", {"library": "torchvision"}),
    ("Which Python versions were dropped?", {"versions_of": "Python"}),
    ("Which Python versions did torchvision 0.6 remove?",
     {"versions_of": "Python", "release": "torchvision 0.6"}),
    ("What did the 2.2 release deprecate?", {"release": "PyTorch 2.2"}),
    ("Is macOS x86 still supported?", {"name": "macOS x86"}),
], ids=["passive", "object", "passive-with-release", "release-ends", "library-ends",
        "versions-of", "versions-of-a-release", "the-release", "still-supported"])
def test_issue12_what_ends_and_what_ends_it(mapper, question, params):
    """A deprecation question asks about what ends (after "deprecated", or "X is deprecated"),
    the release that ends it, or a library whose releases do."""
    found = mapper.map(question)
    assert (found.query, found.params) == ("deprecations", params)


@pytest.mark.parametrize(("question", "query", "params"), [
    ("Does PyTorch 1.12 support MPS?", "evidence",
     {"source": "PyTorch 1.12", "target": "MPS", "type": "SUPPORTS"}),
    ("Is FSDP part of PyTorch/XLA?", "evidence",
     {"source": "FSDP", "target": "PyTorch/XLA", "type": "PART_OF"}),
    ("Is ZeroRedundancyOptimizer based on DeepSpeed?", "evidence",
     {"source": "ZeroRedundancyOptimizer", "target": "DeepSpeed", "type": "BASED_ON"}),
    ("Was macOS x86 deprecated in PyTorch 2.2?", "deprecations",
     {"name": "macOS x86", "release": "PyTorch 2.2"}),
    ("Which releases support MPS?", "releases-supporting", {"hardware": "MPS"}),
], ids=["does-support", "is-part-of", "is-based-on", "was-deprecated", "not-yes-or-no"])
def test_issue12_a_yes_or_no_relation_question_asks_its_evidence(mapper, question, query,
                                                                params):
    """'Does X support Y?' asks whether the posts state that relation, not what supports Y;
    a deprecation keeps its own query, which says what ended and when."""
    found = mapper.map(question)
    assert (found.query, found.params) == (query, params)


@pytest.mark.parametrize(("question", "params"), [
    ("What replaced MAGMA?", {"name": "MAGMA"}),
    ("What should I use instead of MAGMA?", {"name": "MAGMA"}),
    ("What is the replacement for Python 2?", {"name": "Python 2"}),
    ("What did cuSolver replace?", {"name": "cuSolver"}),
    ("What is the new name of MAGMA?", {"name": "MAGMA"}),
    ("What replaced MAGMA in PyTorch 2.8?", {"name": "MAGMA"}),
    ("What was renamed?", {}),
], ids=["replaced", "instead-of", "replacement-for", "what-it-replaced", "new-name",
        "with-a-release", "every-replacement"])
def test_issue12_a_replacement_question_asks_for_replacements(mapper, question, params):
    found = mapper.map(question)
    assert (found.query, found.params) == ("replacements", params)


def test_issue12_a_replacement_is_its_relation(handmade_graph_file):
    """'What replaced X?' gives the REPLACES rows, each with its sentence."""
    answer = ptkg.open(handmade_graph_file).ask("What replaced MAGMA?")
    assert [(row["replacement"], row["replaced"]) for row in answer.result] == [
        ("cuSolver", "MAGMA")]
    assert answer.result.gaps == []


def test_issue12_a_replacement_no_relation_holds_asks_the_deprecations(handmade_graph_file):
    """What replaced a thing no REPLACES names: its deprecations, whose sentences may say
    ("torch.export should be used to replace ..."), and a line that says no relation does."""
    answer = ptkg.open(handmade_graph_file).ask("What replaced macOS x86?")
    assert answer.mapping.query == "deprecations"
    assert [row["change"] for row in answer.result] == ["DEPRECATES"]
    assert answer.result.gaps == ["not in the graph as a relation: no post states what replaced "
                                  "macOS x86; the rows are its deprecations, whose sentences may "
                                  "say"]


def test_issue12_a_thing_never_removed_says_so(handmade_graph_file):
    answer = ptkg.open(handmade_graph_file).ask("Was macOS x86 removed?")
    assert [row["change"] for row in answer.result] == ["DEPRECATES"]
    assert answer.result.gaps == ["not in the graph: no post says that macOS x86 was removed "
                                  "(the rows are deprecations)"]


@pytest.mark.parametrize(("question", "name"), [
    ("Which posts mention GB300?", "GB300"), ("what about torch.fxx", "torch.fxx"),
    ("Tell me about TorchFoo", "TorchFoo")], ids=["digits", "dotted", "camel-case"])
def test_issue12_a_question_naming_what_the_graph_lacks_is_an_error(handmade_graph_file,
                                                                     question, name):
    """An unmapped question that names something the graph does not have says so, with the
    closest names when some look like it, and exits 1 (one that names nothing gets the
    question shapes: test_issue13_cli_ask_unmapped_exits_1)."""
    result = run("ask", question, "--graph", handmade_graph_file)
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: no entity named {name!r} in the graph")


@pytest.mark.parametrize(("question", "query"), [
    ("Is ZeroRedundancyOptimizer stable enough to use?", "feature-stability"),
    ("Which posts use torch.fx?", "posts-about"),
    ("What uses DeepSpeed?", "based-on"),
    ("What does FSDP work on?", "supported-hardware"),
    ("Which companies work on DeepSpeed?", "organizations"),
    ("Who works on FSDP?", "organizations"),
], ids=["stable-enough-to-use", "posts-use", "what-uses", "work-on-devices",
        "companies-work-on", "who-works-on"])
def test_issue12_use_and_work_on_go_where_the_question_asks(mapper, question, query):
    """"use" asks what something builds on only when no stronger word asks for another query;
    "work on" is a device question unless it asks who."""
    assert mapper.map(question).query == query


@pytest.mark.parametrize("question", ["Which GPUs are fastest?", "What are the new APIs?"])
def test_issue12_plural_capitals_are_no_unknown_name(mapper, question):
    found = mapper.map(question)
    assert (found.query, found.unknown) == (None, [])


@pytest.mark.parametrize(("question", "params"), [
    ("What was deprecated for PyTorch 2.2?", {"release": "PyTorch 2.2"}),
    ("Which release dropped support for Python 2?", {"name": "Python 2"}),
], ids=["deprecated-for-release", "dropped-support-for"])
def test_issue12_for_after_an_ending_word(mapper, question, params):
    """"support for X" ends X; "deprecated for PyTorch 2.2" says whose deprecation it is."""
    assert mapper.map(question).params == params


def test_issue12_from_one_stability_to_another_asks_for_the_second(mapper):
    found = mapper.map("When did ZeroRedundancyOptimizer go from beta to stable?")
    assert found.outcome == ("stability", ("Stable",))
