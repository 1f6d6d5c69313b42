"""The contract module (``ptkg.schema``) against the tables of ``docs/schema.md``."""

from __future__ import annotations

import doctest
import re

import pytest

from ptkg import schema
from ptkg.schema import LABELS, RELATION_TYPES, STABILITIES, change, stability_named


@pytest.fixture(scope="module")
def tables(repo_root) -> dict[str, list[list[str]]]:
    """Each markdown table of docs/schema.md under its section heading: rows of cells."""
    text = (repo_root / "docs" / "schema.md").read_text(encoding="utf8")
    found: dict[str, list[list[str]]] = {}
    heading = ""
    for line in text.splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
        elif line.startswith("|") and not re.fullmatch(r"[|\s:-]+", line):
            found.setdefault(heading, []).append([c.strip() for c in line.strip("|").split("|")])
    return {name: rows[1:] for name, rows in found.items()}  # without the header row


def names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def labels_of(text: str) -> frozenset[str]:
    """'Release, Library or Feature' -> the labels; 'any' -> every label but Post."""
    if text.strip() == "any":
        return schema.ANY
    return frozenset(re.split(r",\s*|\s+or\s+", text.strip()))


def test_labels_are_the_documents(tables):
    documented = [names(row[0])[0] for row in tables["Nodes"]]
    assert documented == list(LABELS)


def test_each_label_key_is_the_documents(tables):
    for row in tables["Nodes"]:
        label = names(row[0])[0]
        key = "url" if "(key" in row[3] else "name"
        assert LABELS[label].key == key, label


def test_relation_types_and_endpoints_are_the_documents(tables):
    documented = {}
    for row in tables["Relationships"]:
        source, _, target = row[1].partition("→")
        documented[names(row[0])[0]] = (labels_of(source), labels_of(target))
    assert list(documented) == list(RELATION_TYPES)
    for name, (sources, targets) in documented.items():
        assert (RELATION_TYPES[name].sources, RELATION_TYPES[name].targets) == (sources, targets)


def test_derived_types_are_the_documents(tables):
    """MENTIONS, HAS_RELEASE and PRECEDES are derived (no provenance); the others are read."""
    derived = {names(row[0])[0] for row in tables["Relationships"]
               if "derived" in row[2] or names(row[0])[0] in ("MENTIONS", "HAS_RELEASE")}
    assert derived == {n for n, t in RELATION_TYPES.items() if not t.extracted}


def test_stability_levels_and_tiers_are_the_documents(tables):
    rows = tables["Stability vocabulary"]
    assert [names(row[0])[0] for row in rows] == list(STABILITIES)
    for row in rows:
        level = STABILITIES[names(row[0])[0]]
        assert level.stable == row[3].startswith("stable"), level.name


@pytest.mark.parametrize(("old", "new", "kind"), [
    ("Prototype", "Beta", "promotion"), ("Beta", "Stable", "promotion"),
    ("Prototype", "Stable", "promotion"), ("API-Unstable", "API-Stable", "promotion"),
    ("Beta", "API-Stable", "promotion"), ("Stable", "Beta", "demotion"),
    ("API-Stable", "Prototype", "demotion"), ("Beta", "Prototype", "demotion"),
    ("Prototype", "API-Unstable", None), ("Beta", "API-Unstable", None),
    ("Stable", "API-Stable", None), ("API-Unstable", "Beta", None),
])
def test_change_follows_the_promotion_rule(old, new, kind):
    """schema.md: a promotion crosses to a stable level, or goes from Prototype to Beta;
    Prototype or Beta followed by API-Unstable is neither."""
    assert change(old, new) == kind


@pytest.mark.parametrize(("word", "date", "level"), [
    ("experimental", "2020-04-21", "Beta"), ("Experimental", "2020-07-27", "Beta"),
    ("experimental", "2022-06-28", "Prototype"), ("API-UNSTABLE", None, "API-Unstable"),
    ("api stable", None, "API-Stable"), ("Stable", "2019-01-01", "Stable"),
])
def test_stability_named_reads_words_in_their_era(word, date, level):
    assert stability_named(word, date) == level


def test_schema_doctests():
    assert doctest.testmod(schema).failed == 0
