"""Issue 12: everyday questions answered right, or answered "not in this corpus".

``tests/gold/questions.json`` holds 53 questions a user asks of the whole corpus (what a release
introduced and how stable each feature is, when a feature became stable, which releases support
a device, what a release deprecated, which library releases shipped with a core release, who
built what, what is part of what, which posts discuss something, what changed between two
releases), each with the answer written by reading the posts, not by running ptkg. Every
question is asked here the way a user asks it: ``ptkg.open(graph).ask(question)`` on the graph of
the whole corpus (``ptkg build tests/data/corpus/pytorch_blog.jsonl
tests/data/corpus/2026/pytorch_blog_2026.jsonl``, model ``en_core_web_sm``).

How an answer is judged (:func:`judge`):

- Each row of the result is read as facts (:func:`row_facts`): the entity the row answers with
  (``features-by-release``: the feature; ``feature-stability``: the asked feature in the row's
  release; ``hardware-support``: the asked device in the row's release; ``released-with``: the
  library release; ``organizations``: the organization, about the row's entity ...), with the
  release, stability and relation the row states.
- A gold item is found when a fact names it (:func:`ptkg.names.name_key` of the fact's name
  equals that of the item's ``name`` or one of its ``also``) and agrees with it: the item's
  ``stability`` is stated by the row; its ``release`` is the fact's release when the query
  answers with releases (a row without one does not say which release); its ``with_release``
  is the core release asked for; a deprecation item's relation (``REMOVES`` when the gold says
  so, else ``DEPRECATES``) is the row's; and a ``diff`` item's ``previous`` release and
  stability are found too. A gold item without a stability makes no claim about one.
- ``organizations`` rows, when the query is run without an organization, are read only when
  they are about an entity the question names (run without its ``name`` parameter too, it
  lists everything everyone built, and the rows about everything else are not an answer).
- A question passes when every gold item is found. Where the gold is ``complete``, the facts
  no item accounts for are reported as extras (precision) but do not fail the question.
- A ``not_in_corpus`` question passes when the answer says so honestly: the question is not
  mapped (``ptkg ask`` prints the closest question shapes), or the name it asks about is not
  in the graph (:class:`~ptkg.explore.NotFoundError`, which the CLI prints as "no Release named
  ..."), or the result carries a gap line ("no post in the graph announces ...", "no post
  states a stability for ..."). Rows, or an empty table with no gap line, presented as the
  answer are a failure.

The questions ptkg answers wrongly today are ``xfail(strict=True)`` with the cause diagnosed
in :data:`XFAIL` (one line each, prefixed by the kind of cause, :data:`CAUSES`), so this module
reads as a report. The extractors are changing: refresh the list with :func:`answer_report`,
which builds the graph (about 30 s) and prints, per question, pass or fail and what was
missing::

    .venv/bin/python -c "import sys; sys.path.insert(0, 'tests'); \\
        import test_questions; test_questions.answer_report()"

(``answer_report('out/graph.json')`` reads a graph already built.) A question that starts to
pass fails its strict xfail: delete its line from :data:`XFAIL`.
"""

from __future__ import annotations

import difflib
import json
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import pytest

import ptkg
from ptkg.errors import PtkgError
from ptkg.explore import NotFoundError, name_index
from ptkg.names import generic_stems, name_key, variant_key

if TYPE_CHECKING:  # pragma: no cover
    from ptkg.api import Graph

TESTS = Path(__file__).resolve().parent
GOLD = TESTS / "gold" / "questions.json"
CORPUS_POSTS = (TESTS / "data" / "corpus" / "pytorch_blog.jsonl",
                TESTS / "data" / "corpus" / "2026" / "pytorch_blog_2026.jsonl")
MODEL = "en_core_web_sm"
QUESTIONS: list[dict] = json.loads(GOLD.read_text(encoding="utf8"))["questions"]
#: The issue asks for a list of at least this many questions, with their answers, as tests.
MIN_QUESTIONS = 20

#: The kinds of cause an xfail reason starts with: the question goes to the wrong named query
#: (``ptkg.ask``); the graph lacks or mislabels a fact; the fact is there under a name the
#: reader does not accept; the named query cannot show the fact; or a question the corpus does
#: not answer is answered as if it did.
CAUSES = ("mapper", "extraction", "naming", "query", "not-in-corpus")

#: The questions answered wrongly today, each with its diagnosed cause: the first word, one of
#: :data:`CAUSES`, is the cause to fix first; a second cause that would remain after it is
#: named after it (refresh with :func:`answer_report`).
XFAIL: dict[str, str] = {
    # -- release features
    "q03": "naming: features-by-release PyTorch 2.0 misses 2 by naming, whole headings the "
           "summary table links to by no name of a feature: 'Accelerating inference on CPU "
           "with PyTorch by leveraging oneDNN Graph' (no link), 'Optimized PyTorch Inference "
           "with AWS Graviton processors' (linked as 'AWS Graviton3', a device)",
    "q04": "naming: 2.2's FlashAttention-2 row is SDPA, named 'FlashAttention-2 support in "
           "torch.nn.functional.scaled_dot_product_attention' (the gold accepts the name without "
           "the module path), and '[Beta] Improvements to _torch.compile_-ing Optimizers' is read "
           "as 'torch.compile' (Optimizer compilation)",
    "q05": "naming: 'FMA-based addcdiv lowering for XPU', 'Inductor FlexAttention pipelining' "
           "(FlexAttention) and 'Multi-GPU/multi-node profiling improvements' (PyTorch "
           "Profiler) keep their headings whole",
    # -- feature lifecycles
    "q18": "extraction: feature-stability gives 1.3 [Beta]; the July 2020 classification "
           "post's 'Prototype (was Experimental)' is no relation of the graph (it announces no "
           "release)",
    # -- hardware support
    "q22": "extraction: torch_xla 1.5's section says TPUs of the library ('a Python package "
           "that ... on Cloud TPUs', 'You can try it ... on an 8-core Cloud TPU device'); the "
           "sample's gold reads that 'it' as the library, this question's as the release 1.5 "
           "(reading it as the release drops the sample's relations 0.908 -> 0.886); "
           "releases-supporting finds PyTorch 1.3 and PyTorch/XLA 1.12 (FSDP)",
    # -- deprecations
    # -- released with
    # -- who built what, part of
    "q42": "extraction: organizations about PyTorch/XLA gives Google and Meta; Salesforce (the "
           "1.3 Cloud TPU pilot) has no DEVELOPED_BY",
    "q43": "extraction: Apple DEVELOPED_BY only ExecuTorch, nothing for MPS (organizations "
           "about GPU, the first thing named after PyTorch: an empty table)",
}

#: Questions that pass today for a reason weaker than it looks (printed by the report).
CAVEATS: dict[str, str] = {}

#: The relationship a question of a kind asks for: a fact of another one is not its answer
#: (a deprecation item says ``"relation": "REMOVES"`` when it is a removal).
KIND_RELATIONS = {"deprecations": "DEPRECATES", "part-of": "PART_OF",
                  "developed-by": "DEVELOPED_BY"}
INTRODUCES = "INTRODUCES"
#: The relationships a query reads by its text alone (not said again when a fact is shown).
QUERY_RELATIONS = frozenset({INTRODUCES, "SUPPORTS", "RELEASED_WITH"})

#: The queries whose facts carry a release: a gold item's release must be the fact's.
RELEASE_QUERIES = frozenset({
    "features-by-release", "features-by-stability", "feature-stability", "feature-lifecycle",
    "hardware-support", "releases-supporting", "deprecations", "releases-of-library",
    "announcements", "stability-counts", "release-diff"})


# --------------------------------------------------------------------------- reading answers


@dataclass(frozen=True)
class Fact:
    """What one row of a result says, as a gold item would say it.

    ``name`` is the entity the row answers with; ``relation`` the relationship the row reads
    (the query's own, or the row's ``change``/``relation``); ``subject`` is what the row is
    about when the query does not fix it (``organizations``: the entity built).
    """

    name: str
    release: str | None = None
    stability: str | None = None
    relation: str | None = None
    with_release: str | None = None
    subject: str | None = None
    named: str | None = None  # the name the release's post gave the feature (a row's "named")

    def describe(self) -> str:
        parts = [self.name]
        if self.release:
            parts.append(f"@ {self.release}")
        if self.stability:
            parts.append(f"[{self.stability}]")
        if self.relation and self.relation not in QUERY_RELATIONS:
            parts.append(f"({self.relation})")
        if self.subject:
            parts.append(f"for {self.subject}")
        if self.named:
            parts.append(f"as {self.named!r}")
        return " ".join(parts)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def row_facts(query: str, params: Mapping[str, object], row: Mapping[str, object]
              ) -> list[Fact]:
    """The facts one row of named query ``query`` (run with resolved ``params``) states.

    Examples
    --------
    >>> row_facts("features-by-release", {"release": "PyTorch 1.8"},
    ...           {"feature": "torch.fx", "stability": "Beta", "latest_stability": "Stable"})
    [Fact(name='torch.fx', release='PyTorch 1.8', stability='Beta', relation='INTRODUCES', \
with_release=None, subject=None, named=None)]
    >>> [f.describe() for f in row_facts("feature-lifecycle", {"feature": "torch.fx"},
    ...  {"from_release": "PyTorch 1.8", "from_stability": "Beta",
    ...   "to_release": "PyTorch 1.10", "to_stability": "Stable"})]
    ['torch.fx @ PyTorch 1.8 [Beta]', 'torch.fx @ PyTorch 1.10 [Stable]']
    """
    get = row.get
    release = _text(params.get("release"))
    if query in ("features-by-release", "features-by-stability"):
        return [Fact(str(get("feature")), release, _text(get("stability")), INTRODUCES,
                     named=_text(get("named")))]
    if query == "feature-stability":
        return [Fact(str(params["feature"]), _text(get("release")), _text(get("stability")),
                     INTRODUCES, named=_text(get("named")))]
    if query == "feature-lifecycle":
        feature = str(params["feature"])
        return [Fact(feature, _text(get("from_release")), _text(get("from_stability")),
                     INTRODUCES),
                Fact(feature, _text(get("to_release")), _text(get("to_stability")), INTRODUCES)]
    if query == "hardware-support":
        on = _text(get("name")) if get("label") == "Release" else None
        return [Fact(str(get("hardware") or params["hardware"]), on, relation="SUPPORTS",
                     subject=_text(get("name")))]
    if query == "releases-supporting":  # a row of one of the devices asked ("hardware")
        return [Fact(str(get("hardware") or params["hardware"]), _text(get("release")),
                     _text(get("stability")),
                     "SUPPORTS", subject=_text(get("via")))]
    if query == "deprecations":
        return [Fact(str(get("name")), _text(get("release")), relation=_text(get("change")))]
    if query == "released-with":
        return [Fact(str(get("release")), relation="RELEASED_WITH", with_release=release)]
    if query == "organizations":
        return [Fact(str(get("organization")), relation="DEVELOPED_BY",
                     subject=_text(get("name")))]
    if query == "part-of":  # the row's whole is what the asked entity is part of
        return [Fact(str(get("whole")), relation="PART_OF", subject=str(params["name"]))]
    if query == "release-diff":  # one of the two releases' statements of a feature, and the
        # one an older release made before it
        facts = [Fact(str(get("feature")), _text(get("release")), _text(get("stability")),
                      INTRODUCES, named=_text(get("named")))]
        if get("previous_release"):
            facts.append(Fact(str(get("feature")), _text(get("previous_release")),
                              _text(get("previous_stability")), INTRODUCES))
        return facts
    if query == "features-of-library":  # the library is what the row's feature is part of
        return [Fact(str(params["library"]), relation="PART_OF", subject=_text(get("feature")))]
    if query == "neighbors":
        asked = params["name"]
        other = get("target") if get("source") == asked else get("source")
        return [Fact(str(other), relation=_text(get("relation")), subject=str(asked))]
    if query == "posts-about":
        return [Fact(str(get("title")))]
    if query == "evidence":  # the asked relation, or what replaced its source since
        if get("relation") == "REPLACES":
            return [Fact(str(get("source")), relation="REPLACES", subject=str(params["source"]))]
        return [Fact(str(params["target"]), relation=_text(get("relation")),
                     subject=str(params["source"]))]
    if query in ("releases-of-library", "announcements", "stability-counts"):
        return [Fact(str(get("release")), _text(get("release")))]
    return [Fact(str(get("name")))]  # top-mentioned


def _same(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and name_key(a) == name_key(b)


def _same_name(a: str, b: str) -> bool:
    """The same name to a reader: the same key up to a documented spelling variant
    (``variant_key``: "I/O" and "IO", ``::`` and ``.``, ``nn.`` and ``torch.nn.``) and to a
    generic word or the means a name adds (``generic_stems``: "Android NNAPI Support" is
    "Android NNAPI", "CUDA-support in RPC using TensorPipe" is "CUDA support in RPC")."""
    def keys(name: str) -> set[str]:
        return {variant_key(n)[0] for n in (name, *(stem for stem, _ in generic_stems(name)))}
    return bool(keys(a) & keys(b))


def item_names(item: Mapping[str, object]) -> list[str]:
    """The names a reader accepts for a gold item: ``name``, then ``also``."""
    return [str(item["name"]), *(str(a) for a in item.get("also", []))]


def mismatch(kind: str, query: str, item: Mapping[str, object], fact: Fact) -> str | None:
    """Why ``fact`` is not ``item`` (None when it is): a wrong name, release, stability,
    core release or relation."""
    if not any(_same_name(name, said) for name in item_names(item)
               for said in (fact.name, fact.named) if said):
        return "name"
    release = _text(item.get("release"))
    if release and query in RELEASE_QUERIES and not _same(release, fact.release):
        return f"release {fact.release}"
    stability = _text(item.get("stability"))
    if stability and stability != fact.stability:
        return f"stability {fact.stability}"
    with_release = _text(item.get("with_release"))
    if with_release and not _same(with_release, fact.with_release):
        return f"core release {fact.with_release}"
    relation = item.get("relation") or KIND_RELATIONS.get(kind)
    if relation and fact.relation != relation:
        return f"relation {fact.relation}"
    return None


# --------------------------------------------------------------------------- judging answers


@dataclass
class Verdict:
    """How ptkg answered one gold question."""

    id: str
    question: str
    kind: str
    query: str | None = None
    params: dict[str, object] = field(default_factory=dict)
    rows: int = 0
    passed: bool = False
    missing: list[str] = field(default_factory=list)  # gold items not found, and why
    extra: list[str] = field(default_factory=list)  # facts of a complete gold no item explains
    note: str = ""  # the honest answer given, or what went wrong

    def lines(self) -> list[str]:
        """The verdict as report lines: a head line, then one line per miss and extras."""
        asked = f"{self.query} {json.dumps(self.params, ensure_ascii=False)}" if self.query \
            else "unmapped"
        head = f"{self.id} {'PASS' if self.passed else 'FAIL'} [{self.kind}] {self.question}"
        lines = [head, f"    asked: {asked}, {self.rows} rows"]
        if self.note:
            lines.append(f"    {self.note}")
        lines += [f"    missing: {miss}" for miss in self.missing]
        if self.extra:
            shown = "; ".join(self.extra[:8]) + (f"; +{len(self.extra) - 8} more"
                                                 if len(self.extra) > 8 else "")
            lines.append(f"    extra ({len(self.extra)}): {shown}")
        return lines


def _diagnose(graph: Graph, item: Mapping[str, object], facts: Sequence[Fact],
              near: dict[str, str]) -> str:
    """What became of a gold item that no fact matches: the nearest fact and why it is not
    the item, else the nearest fact by name, and what the graph calls the item."""
    if near:
        return "; ".join(f"{name} -> {why}" for name, why in sorted(near.items()))
    index = name_index(graph.graph())
    known = sorted({f"{index.entries[n].name} ({index.entries[n].label})"
                    for name in item_names(item) for n in index.find(name)})
    hint = f"graph has {', '.join(known[:3])}" if known else "graph has no entity of that name"
    closest = difflib.get_close_matches(name_key(str(item["name"])),
                                        sorted({name_key(f.name) for f in facts}), n=1,
                                        cutoff=0.5)
    if closest:
        hint += f"; closest row: {next(f.name for f in facts if name_key(f.name) == closest[0])}"
    return hint


def _item_label(item: Mapping[str, object]) -> str:
    label = str(item["name"])
    for key in ("release", "with_release"):
        if item.get(key):
            label += f" @ {item[key]}"
    if item.get("stability"):
        label += f" [{item['stability']}]"
    if item.get("relation"):
        label += f" ({item['relation']})"
    return label


def judge(graph: Graph, gold: Mapping[str, object]) -> Verdict:
    """Ask ``graph`` the gold question as a user does, and compare the answer with the gold."""
    answer_gold = gold["answer"]
    verdict = Verdict(str(gold["id"]), str(gold["question"]), str(gold["kind"]))
    mapping = graph.mapper().map(verdict.question)
    verdict.query, verdict.params = mapping.query, dict(mapping.params)
    try:
        answer = graph.ask(verdict.question)
    except NotFoundError as error:
        verdict.note = f"answer: {error}"
        verdict.passed = bool(answer_gold["not_in_corpus"])
        return verdict
    except PtkgError as error:
        verdict.note = f"error: {type(error).__name__}: {error}"
        return verdict
    result = answer.result
    if answer_gold["not_in_corpus"]:
        if result is None:
            verdict.note = "answer: I can't map this question (closest shapes offered)"
            verdict.passed = True
        elif result.gaps:
            verdict.rows = len(result)
            verdict.note = f"answer: {'; '.join(result.gaps)}"
            verdict.passed = True
        else:
            verdict.rows = len(result)
            shown = "; ".join(" | ".join(str(v) for v in row.values())
                              for row in result.to_dicts()[:3])
            verdict.note = ("not in the corpus, but answered as if complete: "
                            + (f"rows {shown}" if len(result) else "an empty table, no gap line"))
        return verdict
    if result is None:
        verdict.note = "not mapped: closest shapes " + "; ".join(answer.mapping.closest)
        verdict.missing = [_item_label(item) for item in answer_gold["items"]]
        return verdict
    verdict.rows = len(result)
    asked = [str(m.value) for m in answer.mapping.mentions if m.kind == "entity"]
    compare(graph, verdict, answer_gold, result.to_dicts(), asked)
    return verdict


def compare(graph: Graph, verdict: Verdict, answer_gold: Mapping[str, object],
            rows: Sequence[Mapping[str, object]], asked: Sequence[str] = ()) -> None:
    """Fill ``verdict`` (its query and params set) from the rows of its query: the gold items
    not found, the extras of a complete gold, and whether it passed. ``asked``: the entities
    the question names (the ``organizations`` rows about others are not read)."""
    query, params = verdict.query or "", verdict.params
    facts = [fact for row in rows for fact in row_facts(query, params, row)]
    relevant = list(range(len(facts)))
    if query == "organizations" and params.get("organization") is None:
        keys = {name_key(name) for name in asked}
        relevant = [n for n in relevant if facts[n].subject and name_key(facts[n].subject)
                    in keys]
    used: set[int] = set()
    for item in answer_gold["items"]:
        wanted = [item]
        previous = item.get("previous")
        if previous:
            wanted.append({**item, **previous})
        for one in wanted:
            near: dict[str, str] = {}
            found = False
            for number in relevant:
                why = mismatch(verdict.kind, query, one, facts[number])
                if why is None:
                    used.add(number)
                    found = True
                elif why != "name":
                    near.setdefault(facts[number].describe(), why)
            if not found:
                verdict.missing.append(f"{_item_label(one)}: "
                                       f"{_diagnose(graph, one, facts, near)}")
    if answer_gold.get("complete"):
        verdict.extra = sorted({facts[n].describe() for n in range(len(facts))
                                if n not in used})
    verdict.passed = not verdict.missing


def judge_all(graph: Graph) -> list[Verdict]:
    """The verdict of every gold question, in the gold's order."""
    return [judge(graph, gold) for gold in QUESTIONS]


# --------------------------------------------------------------------------- the report


def build_corpus_graph(path: str | Path) -> Path:
    """Build the whole corpus's graph to ``path`` as ``ptkg build`` does (no cache)."""
    from ptkg.build import build

    build(list(CORPUS_POSTS), path, model=MODEL, cache=False)
    return Path(path)


def answer_report(graph_path: str | Path | None = None, file: TextIO | None = None
                  ) -> list[Verdict]:
    """Print, per gold question, PASS or FAIL and what was missing; then the questions whose
    outcome disagrees with :data:`XFAIL`. Builds the corpus graph in a temporary folder
    unless ``graph_path`` names one already built.

    Returns
    -------
    list[Verdict]
        The verdicts, in the gold's order.
    """
    out = file or sys.stdout
    with tempfile.TemporaryDirectory(prefix="ptkg-questions-") as folder:
        path = Path(graph_path) if graph_path else build_corpus_graph(Path(folder) / "g.json")
        with ptkg.open(path) as graph:
            verdicts = judge_all(graph)
    for verdict in verdicts:
        print("\n".join(verdict.lines()), file=out)
        if verdict.id in XFAIL:
            print(f"    xfail reason: {XFAIL[verdict.id]}", file=out)
        if verdict.id in CAVEATS:
            print(f"    caveat: {CAVEATS[verdict.id]}", file=out)
    passed = [v.id for v in verdicts if v.passed]
    print(f"\n{len(passed)} of {len(verdicts)} questions pass", file=out)
    stale = [v.id for v in verdicts if v.passed and v.id in XFAIL]
    new = [v.id for v in verdicts if not v.passed and v.id not in XFAIL]
    if stale:
        print(f"now passing, delete from XFAIL: {', '.join(stale)}", file=out)
    if new:
        print(f"now failing, add to XFAIL with a reason: {', '.join(new)}", file=out)
    return verdicts


# --------------------------------------------------------------------------- the tests


@pytest.fixture(scope="module")
def corpus_kg(corpus_graph_file: Path):
    """The whole corpus's graph, opened once through the Python API."""
    with ptkg.open(corpus_graph_file) as graph:
        yield graph


def _case(gold: dict):
    reason = XFAIL.get(gold["id"])
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(gold, id=gold["id"], marks=marks)


@pytest.mark.parametrize("gold", [_case(gold) for gold in QUESTIONS])
def test_issue12_question_answered_right(corpus_kg, gold):
    """Issue 12: the gold answer's items are in the answer to the question (or it says honestly
    that the corpus does not answer it)."""
    verdict = judge(corpus_kg, gold)
    assert verdict.passed, "\n".join(verdict.lines())


def test_issue12_question_list_and_xfail_reasons():
    """Issue 12: the list keeps at least 20 questions with unique ids; every xfail reason and
    caveat names one of them, and every xfail reason says which kind of cause it is."""
    ids = [gold["id"] for gold in QUESTIONS]
    assert len(ids) >= MIN_QUESTIONS and len(set(ids)) == len(ids)
    assert set(XFAIL) <= set(ids) and set(CAVEATS) <= set(ids) and not set(XFAIL) & set(CAVEATS)
    assert {reason.split(":", 1)[0] for reason in XFAIL.values()} <= set(CAUSES)


@pytest.mark.parametrize(("fact", "why"), [
    (Fact("ZeRO", "PyTorch 1.10", "Stable"), None),
    (Fact("zero redundancy optimizer", "PyTorch 1.10", "Stable"), None),
    (Fact("ZeroRedundancyOptimizer", "PyTorch 1.10", None), "stability None"),
    (Fact("ZeroRedundancyOptimizer", "PyTorch 1.10", "Beta"), "stability Beta"),
    (Fact("ZeroRedundancyOptimizer", "PyTorch 1.9", "Stable"), "release PyTorch 1.9"),
    (Fact("ZeroRedundancyOptimizer", None, "Stable"), "release None"),
    (Fact("Remote Module", "PyTorch 1.10", "Stable"), "name"),
], ids=["alias", "name-key", "no-stability", "other-stability", "other-release", "no-release",
        "other-name"])
def test_issue12_judge_matches_name_release_and_stability(fact, why):
    """A fact is a gold item only with one of its names, its release and its stability."""
    item = {"name": "ZeroRedundancyOptimizer", "also": ["ZeRO"], "stability": "Stable",
            "release": "PyTorch 1.10"}
    assert mismatch("feature-lifecycle", "feature-stability", item, fact) == why


@pytest.mark.parametrize(("kind", "query", "item", "fact", "why"), [
    ("deprecations", "deprecations", {"name": "CUDA 11.3", "release": "PyTorch 1.13"},
     Fact("CUDA 11.3", "PyTorch 1.13", relation="REMOVES"), "relation REMOVES"),
    ("deprecations", "deprecations",
     {"name": "Python 2", "release": "PyTorch 1.5", "relation": "REMOVES"},
     Fact("Python 2", "PyTorch 1.5", relation="REMOVES"), None),
    ("released-with", "released-with", {"name": "torchvision 0.6", "with_release": "PyTorch 1.5"},
     Fact("torchvision 0.6", with_release="PyTorch 1.6"), "core release PyTorch 1.6"),
    ("developed-by", "organizations", {"name": "Meta", "also": ["Facebook"], "release": "x"},
     Fact("Facebook", relation="DEVELOPED_BY", subject="TorchServe"), None),
    ("part-of", "neighbors", {"name": "PyTorch"},
     Fact("PyTorch", relation="BASED_ON", subject="ExecuTorch"), "relation BASED_ON"),
], ids=["deprecation-is-not-removal", "removal", "other-core-release", "release-free-query",
        "based-on-is-not-part-of"])
def test_issue12_judge_matches_relation_and_core_release(kind, query, item, fact, why):
    """A deprecation is not a removal; a library release shipped with the asked core release;
    a query that answers without releases is not asked for one."""
    assert mismatch(kind, query, item, fact) == why


def test_issue12_row_facts_doctests():
    """The examples of :func:`row_facts` run."""
    import doctest

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for test in finder.find(row_facts, "row_facts", globs={"row_facts": row_facts}):
        runner.run(test)
    assert runner.failures == 0 and runner.tries >= 2
