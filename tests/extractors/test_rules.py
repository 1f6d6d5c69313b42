"""The relation rules: ``patterns/relations.jsonl`` validated against the contract, and the
registry of rules written in code."""

from __future__ import annotations

import json
import re

import pytest

from ptkg.extractors.patterns import PatternError
from ptkg.extractors.rules import CODE_RULES, TriggerRule, parse_rule, read_rules, rule_ids
from ptkg.schema import EXTRACTED_TYPES

GOOD = {"label": "SUPPORTS", "id": "supports.x", "pattern": [{"LOWER": "on"}],
        "source": ["Release"], "target": ["Hardware"]}


def write_rules(tmp_path, *records: dict) -> str:
    path = tmp_path / "relations.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf8")
    return str(path)


@pytest.mark.parametrize(("change", "message"), [
    ({"prefer_subjct": True}, "unknown key 'prefer_subjct'"),
    ({"label": "PRECEDES"}, "'PRECEDES' is not a relationship type ptkg reads"),
    ({"target": ["Organization"]}, "SUPPORTS cannot have a target labelled 'Organization'"),
    ({"source": ["Post"]}, "SUPPORTS cannot have a source labelled 'Post'"),
    ({"targets": "anywhere"}, "targets 'anywhere' is not one of after, next"),
    ({"choose": "subjekt"}, "choose 'subjekt' is not one of nearest"),
    ({"implied": "always"}, "implied 'always' is not one of section"),
    ({"max_gap": -1}, "max_gap must be a whole number"),
    ({"twins": "yes"}, "twins must be true or false"),
    ({"pattern": [{"NOT_AN_ATTRIBUTE": "x"}]}, "invalid token pattern"),
    ({"pattern": []}, "a trigger pattern is a non-empty list"),
], ids=["unknown-key", "unknown-type", "wrong-target", "wrong-source", "targets", "choose",
        "implied", "max-gap", "twins", "token-pattern", "empty-pattern"])
def test_read_rules_bad_line_names_file_and_line(tmp_path, change, message):
    """Issue 9: a rule with label PRECEDES (derived, never read) or a misspelled flag fails
    when it is read, naming the file and line, instead of loading silently."""
    path = write_rules(tmp_path, GOOD, {**GOOD, "id": "supports.y", **change})
    with pytest.raises(PatternError, match=f"^{re.escape(path)}:2: .*{re.escape(message)}"):
        read_rules(path)


def test_read_rules_missing_key(tmp_path):
    record = {k: v for k, v in GOOD.items() if k != "target"}
    with pytest.raises(PatternError, match=r":1: a rule needs 'target'"):
        read_rules(write_rules(tmp_path, record))


def test_read_rules_id_used_twice(tmp_path):
    with pytest.raises(PatternError, match=r":2: rule id 'supports.x' is used twice"):
        read_rules(write_rules(tmp_path, GOOD, GOOD))


def test_read_rules_id_of_a_code_rule(tmp_path):
    with pytest.raises(PatternError, match="rule id 'part_of.compound' is used twice"):
        read_rules(write_rules(tmp_path, {**GOOD, "label": "PART_OF", "source": ["Feature"],
                                          "target": ["Library"], "id": "part_of.compound"}))


def test_packaged_rules_load_and_round_trip():
    rules = read_rules()
    assert rules and all(isinstance(r, TriggerRule) for r in rules)
    assert [parse_rule(r.to_dict()) for r in rules] == rules


def test_every_rule_makes_a_type_of_the_contract():
    assert set(rule_ids().values()) <= set(EXTRACTED_TYPES)
    assert all(rule.id.split(".")[0] == rule.type.lower() for rule in CODE_RULES.values())


def test_facts_name_registered_rules(sample_graph):
    """Every rule a graph's relations name is in the registry: file rules and code rules."""
    used = {rule for _, _, data in sample_graph.edges(data=True) for rule in data.get("rules", [])}
    known = rule_ids()
    assert used and used <= set(known)
    assert {known[rule] for rule in used} <= set(EXTRACTED_TYPES)
