"""Tests of ptkg.cache and incremental builds: only changed posts are extracted, the graph is
byte-identical to a clean build, bad entries are recomputed, a new extractor version misses."""

from __future__ import annotations

import itertools
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ptkg import cache as cache_module
from ptkg.build import build
from ptkg.cache import (
    ExtractionCache,
    default_cache_dir,
    dict_to_facts,
    extractor_version,
    facts_to_dict,
    post_key,
)
from ptkg.cli import main
from ptkg.extractors import pipeline
from ptkg.readers import read_posts
from ptkg.records import Post, PostFacts, Span

MODEL = "blank"
CORPUS_POSTS = 8


def run(*args, catch: bool = True):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=catch)


@pytest.fixture(scope="module")
def corpus_rows(corpus_dir) -> list[dict]:
    """The first posts of the corpus, as JSONL rows (and one more to add later)."""
    rows = []
    with open(corpus_dir / "pytorch_blog.jsonl", encoding="utf8") as file:
        for line in itertools.islice(file, CORPUS_POSTS + 1):
            rows.append(json.loads(line))
    return rows


def write_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf8")
    return path


@pytest.fixture(autouse=True)
def pinned_version(request, monkeypatch):
    """The extractor version computed once per (model, ptkg version) in a build test.

    The source files it hashes may be edited while the tests run (by someone working on the
    extractors); a build test checks what the cache does for one version, so it pins it.
    The tests of :func:`extractor_version` itself are left alone.
    """
    if request.node.name.startswith("test_extractor_version"):
        return
    real, known = cache_module.extractor_version, {}

    def pinned(model, curation=None):
        key = (model, curation, cache_module.__version__)
        if key not in known:
            known[key] = real(model, curation)
        return known[key]

    monkeypatch.setattr(cache_module, "extractor_version", pinned)


@pytest.fixture
def spy(monkeypatch) -> list[str]:
    """The urls of the posts sent to extraction, in order."""
    seen: list[str] = []
    real = pipeline.iter_extraction

    def iter_extraction(posts, *args, **kwargs):
        seen.extend(p.url for p in posts)
        return real(posts, *args, **kwargs)

    monkeypatch.setattr(pipeline, "iter_extraction", iter_extraction)
    return seen


def clean_build(tmp_path: Path, rows: list[dict], name: str = "clean") -> str:
    folder = tmp_path / name
    folder.mkdir()
    path = folder / "graph.json"
    build([write_rows(folder / "posts.jsonl", rows)], path, model=MODEL, cache=False)
    assert not (folder / ".ptkg-cache").exists()
    return path.read_text(encoding="utf8")


# --------------------------------------------------------------------------- serialization


def test_facts_to_dict_round_trip_sample(sample_results):
    for facts in sample_results:
        data = json.loads(json.dumps(facts_to_dict(facts)))
        assert dict_to_facts(data) == facts


@pytest.mark.parametrize("change", [
    lambda d: d.pop("mentions"),
    lambda d: d.update(extra=1),
    lambda d: d["facts"].append({"type": "X"}),
    lambda d: d.update(mentions="not a list"),
], ids=["missing-field", "extra-field", "bad-fact", "not-a-list"])
def test_dict_to_facts_rejects_other_shapes(sample_results, change):
    data = facts_to_dict(max(sample_results, key=lambda f: len(f.facts)))
    change(data)
    with pytest.raises((ValueError, TypeError)):
        dict_to_facts(data)


# --------------------------------------------------------------------------- keys


BASE = Post("https://pytorch.org/blog/a/", "PyTorch 1.8 adds torch.fx.", "Title", "2021-03-04",
            "Team", (Span(0, 26, "posts.jsonl", 1),))


@pytest.mark.parametrize("field", ["url", "text", "title", "date", "author"])
def test_post_key_changes_with_each_field(field):
    changed = Post(**{**BASE.__dict__, field: (getattr(BASE, field) or "") + "x"})
    assert post_key(changed) != post_key(BASE)


def test_post_key_ignores_where_chunks_came_from():
    moved = Post(**{**BASE.__dict__, "spans": (Span(0, 26, "other.jsonl", 40),)})
    assert post_key(moved) == post_key(BASE)


def test_post_key_none_differs_from_empty():
    assert post_key(Post(BASE.url, BASE.text, None)) != post_key(Post(BASE.url, BASE.text, ""))


def test_extractor_version_is_stable_and_names_its_parts():
    version = extractor_version(MODEL)
    assert version == extractor_version(MODEL)
    assert version.parts["model"] == "blank"
    assert {"ptkg", "spacy", "extractors/patterns/entities.jsonl",
            "extractors/patterns/relations.jsonl", "extractors/extract.py", "extractors/text.py",
            "extractors/components.py", "extractors/pipeline.py", "extractors/rules.py",
            "kg/schema.py", "kg/records.py"} <= set(version.parts)


def test_extractor_version_changes_with_model():
    assert extractor_version("blank") != extractor_version("en_core_web_sm")
    assert extractor_version("en_core_web_sm").parts["model"].startswith("en_core_web_sm")


def test_extractor_version_changes_with_ptkg_version(monkeypatch):
    before = extractor_version(MODEL)
    monkeypatch.setattr(cache_module, "__version__", "99.0")
    assert extractor_version(MODEL).digest != before.digest


def test_extractor_version_changes_with_any_file_of_the_package(monkeypatch, tmp_path):
    """The whole extraction package is hashed: a pattern file, and a new module too."""
    before = extractor_version(MODEL)
    package = tmp_path / "extractors"
    shutil.copytree(cache_module.EXTRACTION_PACKAGE, package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache_module, "EXTRACTION_PACKAGE", package)
    assert extractor_version(MODEL).digest == before.digest
    with open(package / "patterns" / "entities.jsonl", "a", encoding="utf8") as file:
        file.write('{"label": "Feature", "pattern": "NewThing", "id": "NewThing"}\n')
    changed = extractor_version(MODEL).digest
    assert changed != before.digest
    (package / "new_rules.py").write_text("RULES = []\n", encoding="utf8")
    assert extractor_version(MODEL).digest not in (before.digest, changed)


def test_default_cache_dir_is_beside_the_graph(tmp_path):
    assert default_cache_dir(tmp_path / "out" / "graph.json") == tmp_path / "out" / ".ptkg-cache"


# --------------------------------------------------------------------------- incremental builds


def test_build_incremental_is_byte_identical_to_clean(tmp_path, corpus_rows, spy):
    """Change one post, add one, remove one: only the changed and the added post are
    extracted, and the graph has the bytes of a clean build of the new input."""
    rows, extra = corpus_rows[:CORPUS_POSTS], corpus_rows[CORPUS_POSTS]
    posts = write_rows(tmp_path / "posts.jsonl", rows)
    graph = tmp_path / "graph.json"
    first = build([posts], graph, model=MODEL)
    assert (first.posts, first.cached, first.cache.written) == (CORPUS_POSTS, 0, CORPUS_POSTS)
    assert graph.read_text(encoding="utf8") == clean_build(tmp_path, rows, "clean-before")

    changed = dict(rows[2], text=rows[2]["text"] + "\n\nWe added torch.fx support for ROCm.\n")
    removed = rows[5]
    new_rows = [changed if row is rows[2] else row for row in rows if row is not removed]
    new_rows.append(extra)
    write_rows(posts, new_rows)
    spy.clear()
    second = build([posts], graph, model=MODEL)
    assert sorted(spy) == sorted([changed["url"], extra["url"]])
    assert (second.posts, second.cached, second.cache.misses) == (CORPUS_POSTS, CORPUS_POSTS - 2,
                                                                   2)
    text = graph.read_text(encoding="utf8")
    assert text == clean_build(tmp_path, new_rows, "clean-after")
    assert f'"Post:{removed["url"]}"' not in text
    assert f'"Post:{extra["url"]}"' in text

    spy.clear()
    third = build([posts], graph, model=MODEL)
    assert (spy, third.cached) == ([], CORPUS_POSTS)
    assert graph.read_text(encoding="utf8") == text


@pytest.mark.parametrize("jobs", [2])
def test_build_incremental_jobs_sends_only_misses(tmp_path, corpus_rows, spy, jobs):
    rows = corpus_rows[:CORPUS_POSTS]
    posts = write_rows(tmp_path / "posts.jsonl", rows[:4])
    graph = tmp_path / "graph.json"
    build([posts], graph, model=MODEL, jobs=jobs)
    write_rows(posts, rows)
    spy.clear()
    summary = build([posts], graph, model=MODEL, jobs=jobs)
    assert spy == [row["url"] for row in rows[4:]]
    assert summary.cached == 4
    assert graph.read_text(encoding="utf8") == clean_build(tmp_path, rows)


def test_build_no_cache_extracts_everything_and_leaves_cache(tmp_path, corpus_rows, spy):
    rows = corpus_rows[:3]
    posts = write_rows(tmp_path / "posts.jsonl", rows)
    graph = tmp_path / "graph.json"
    build([posts], graph, model=MODEL)
    entries = sorted((tmp_path / ".ptkg-cache").rglob("*.json"))
    stamps = [p.stat().st_mtime_ns for p in entries]
    spy.clear()
    summary = build([posts], graph, model=MODEL, cache=False)
    assert (summary.cache, summary.cached) == (None, 0)
    assert sorted(spy) == sorted(row["url"] for row in rows)
    assert [p.stat().st_mtime_ns for p in entries] == stamps


def test_build_cache_dir_option(tmp_path, corpus_rows):
    posts = write_rows(tmp_path / "posts.jsonl", corpus_rows[:2])
    summary = build([posts], tmp_path / "out" / "graph.json", model=MODEL,
                    cache_dir=tmp_path / "elsewhere")
    assert summary.cache_dir == tmp_path / "elsewhere"
    assert not (tmp_path / "out" / ".ptkg-cache").exists()
    assert (tmp_path / "elsewhere" / "CACHEDIR.TAG").read_text().startswith(
        "Signature: 8a477f597d28d172789f06886806bc55")
    assert len(list((tmp_path / "elsewhere").rglob("*/*/*.json"))) == 2


# --------------------------------------------------------------------------- bad entries


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def empty(path: Path) -> None:
    path.write_bytes(b"")


def garbage(path: Path) -> None:
    path.write_bytes(b"\xff\xfe\x00not json")


def edited_facts(path: Path) -> None:
    entry = json.loads(path.read_text(encoding="utf8"))
    entry["facts"]["mentions"] = entry["facts"]["mentions"][1:]  # checksum no longer matches
    path.write_text(json.dumps(entry), encoding="utf8")


def other_version(path: Path) -> None:
    entry = json.loads(path.read_text(encoding="utf8"))
    entry["extractor"] = "0" * 64
    path.write_text(json.dumps(entry), encoding="utf8")


def other_post(path: Path) -> None:
    """The entry of another post copied over this one."""
    others = [p for p in path.parent.parent.rglob("*.json")
              if p != path and p.name != "version.json"]
    shutil.copyfile(others[0], path)


def folder_instead(path: Path) -> None:
    path.unlink()
    path.mkdir()


@pytest.mark.parametrize("damage", [truncate, empty, garbage, edited_facts, other_version,
                                    other_post])
def test_build_bad_entry_is_recomputed(tmp_path, corpus_rows, spy, damage):
    rows = corpus_rows[:3]
    posts = write_rows(tmp_path / "posts.jsonl", rows)
    graph = tmp_path / "graph.json"
    build([posts], graph, model=MODEL)
    expected = graph.read_text(encoding="utf8")
    store = ExtractionCache.open(tmp_path / ".ptkg-cache", MODEL)
    post = next(read_posts([posts]))
    entry = store.path(post_key(post))
    damage(entry)
    spy.clear()
    summary = build([posts], graph, model=MODEL)
    assert spy == [post.url]
    assert (summary.cached, summary.cache.invalid, summary.cache.written) == (2, 1, 1)
    assert graph.read_text(encoding="utf8") == expected
    assert ExtractionCache.open(tmp_path / ".ptkg-cache", MODEL).get(post) is not None


def test_build_unreadable_entry_path_is_recomputed_without_writing(tmp_path, corpus_rows, spy):
    """An entry that is a folder cannot be read nor replaced: extracted, the build goes on."""
    rows = corpus_rows[:2]
    posts = write_rows(tmp_path / "posts.jsonl", rows)
    graph = tmp_path / "graph.json"
    build([posts], graph, model=MODEL)
    expected = graph.read_text(encoding="utf8")
    post = next(read_posts([posts]))
    folder_instead(ExtractionCache.open(tmp_path / ".ptkg-cache", MODEL).path(post_key(post)))
    summary = build([posts], graph, model=MODEL)
    assert (summary.cached, summary.cache.invalid, summary.cache.write_errors) == (1, 1, 1)
    assert graph.read_text(encoding="utf8") == expected


def test_build_extractor_version_change_misses_everything(tmp_path, corpus_rows, spy,
                                                          monkeypatch):
    rows = corpus_rows[:3]
    posts = write_rows(tmp_path / "posts.jsonl", rows)
    graph = tmp_path / "graph.json"
    build([posts], graph, model=MODEL)
    expected = graph.read_text(encoding="utf8")
    monkeypatch.setattr(cache_module, "__version__", "99.0")
    spy.clear()
    summary = build([posts], graph, model=MODEL)
    assert (summary.cached, len(spy)) == (0, 3)
    assert graph.read_text(encoding="utf8") == expected
    folders = sorted(p.name for p in (tmp_path / ".ptkg-cache").iterdir() if p.is_dir())
    assert len(folders) == 2  # the old version is kept (KEEP_VERSIONS), just not read


def test_build_model_change_misses_everything(tmp_path, corpus_rows, spy):
    posts = write_rows(tmp_path / "posts.jsonl", corpus_rows[:2])
    build([posts], tmp_path / "graph.json", model=MODEL)
    spy.clear()
    summary = build([posts], tmp_path / "graph.json", model="en_core_web_sm")
    assert (summary.cached, len(spy)) == (0, 2)


# --------------------------------------------------------------------------- crash safety


def test_put_failing_rename_leaves_no_entry_nor_temp(tmp_path, monkeypatch, sample_results,
                                                    sample_posts):
    store = ExtractionCache.open(tmp_path, MODEL)
    first, post = list(sample_posts.values())[:2]
    facts = {f.url: f for f in sample_results}
    store.put(first, facts[first.url])

    def replace(*args, **kwargs):
        raise OSError(28, "No space left on device")

    real = os.replace
    monkeypatch.setattr(os, "replace", replace)
    store.put(post, facts[post.url])
    monkeypatch.setattr(os, "replace", real)
    assert (store.stats.written, store.stats.write_errors) == (1, 1)
    assert not store.path(post_key(post)).exists()
    assert [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")] == []
    assert store.get(post) is None
    store.put(post, facts[post.url])
    assert store.get(post) == facts[post.url]


def test_build_interrupted_keeps_extracted_entries(tmp_path, corpus_rows, monkeypatch):
    """Ctrl-C during extraction: no graph is written, the posts done so far are cached."""
    rows = corpus_rows[:4]
    posts = write_rows(tmp_path / "posts.jsonl", rows)
    real = pipeline.iter_extraction

    def interrupted(posts, *args, **kwargs):
        for i, facts in enumerate(real(posts, *args, **kwargs)):
            if i == 2:
                raise KeyboardInterrupt
            yield facts

    monkeypatch.setattr(pipeline, "iter_extraction", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build([posts], tmp_path / "graph.json", model=MODEL)
    assert not (tmp_path / "graph.json").exists()
    monkeypatch.setattr(pipeline, "iter_extraction", real)
    summary = build([posts], tmp_path / "graph.json", model=MODEL)
    assert summary.cached == 2
    assert (tmp_path / "graph.json").read_text(encoding="utf8") == clean_build(tmp_path, rows)


def test_get_ignores_temp_files_of_a_killed_writer(tmp_path, sample_results, sample_posts):
    store = ExtractionCache.open(tmp_path, MODEL)
    post = next(iter(sample_posts.values()))
    facts = next(f for f in sample_results if f.url == post.url)
    path = store.path(post_key(post))
    path.parent.mkdir(parents=True)
    (path.parent / f".{path.name}.abc123.tmp").write_text('{"format": "ptkg-extr', "utf8")
    assert store.get(post) is None
    assert store.stats.invalid == 0
    store.put(post, facts)
    assert store.get(post) == facts


# --------------------------------------------------------------------------- pruning


def fake_version(root: Path, name: str, mtime: float) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "version.json").write_text(json.dumps({"format": cache_module.FORMAT}), "utf8")
    os.utime(folder / "version.json", (mtime, mtime))
    return folder


def test_prune_keeps_recent_versions_and_foreign_folders(tmp_path, sample_results,
                                                         sample_posts):
    old = [fake_version(tmp_path, f"{i:016x}", 1_000_000 + i) for i in range(5)]
    foreign = tmp_path / "0123456789abcdef"
    foreign.mkdir()
    (foreign / "mine.txt").write_text("not a cache", "utf8")
    other_name = fake_version(tmp_path, "photos", 0)
    store = ExtractionCache.open(tmp_path, MODEL)
    post = next(iter(sample_posts.values()))
    store.put(post, next(f for f in sample_results if f.url == post.url))
    removed = store.prune(keep=3)
    assert sorted(removed) == old[:3]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [old[3].name, old[4].name, foreign.name, other_name.name, store.folder.name,
         "CACHEDIR.TAG"])


# --------------------------------------------------------------------------- CLI


def test_build_command_reports_posts_from_cache(tmp_path, corpus_rows):
    posts = write_rows(tmp_path / "posts.jsonl", corpus_rows[:3])
    graph = tmp_path / "graph.json"
    args = ["build", posts, "--graph", graph, "--model", MODEL]
    first = run(*args, catch=False)
    assert first.stdout.startswith(f"wrote {graph}: 3 posts (0 from the cache), ")
    second = run(*args, catch=False)
    assert second.stdout.startswith(f"wrote {graph}: 3 posts (3 from the cache), ")
    third = run(*args, "--no-cache", catch=False)
    assert third.stdout.startswith(f"wrote {graph}: 3 posts (cache off), ")
    assert first.stdout.splitlines()[1:] == second.stdout.splitlines()[1:] == \
        third.stdout.splitlines()[1:]
    assert second.stderr == ""


def test_build_command_cache_dir_and_unreadable_entry_warning(tmp_path, corpus_rows):
    posts = write_rows(tmp_path / "posts.jsonl", corpus_rows[:2])
    graph = tmp_path / "graph.json"
    cache_dir = tmp_path / "cache"
    run("build", posts, "--graph", graph, "--model", MODEL, "--cache-dir", cache_dir,
        catch=False)
    entry = next(p for p in cache_dir.rglob("*.json") if p.name != "version.json")
    truncate(entry)
    result = run("build", posts, "--graph", graph, "--model", MODEL, "--cache-dir", cache_dir,
                 catch=False)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"wrote {graph}: 2 posts (1 from the cache), ")
    assert result.stderr.splitlines() == [
        f"ignored 1 unreadable cache entries in {cache_dir} (extracted again)"]


def test_run_cached_extraction_without_cache_is_run_extraction(sample_posts):
    posts = list(sample_posts.values())[:2]
    assert cache_module.run_cached_extraction(posts, None, model=MODEL) == \
        pipeline.run_extraction(posts, model=MODEL)
    assert all(isinstance(f, PostFacts) for f in pipeline.run_extraction(posts, model=MODEL))


@pytest.mark.parametrize("module", ["ptkg.cache"])
def test_cache_doctests(module):
    import doctest
    import importlib

    results = doctest.testmod(importlib.import_module(module))
    assert (results.failed, results.attempted > 0) == (0, True)
