"""The pattern packs: ``entities.jsonl`` (the alias pack) and ``relations.jsonl`` (trigger rules).

Both are JSON Lines, one object per line, in spaCy's pattern-file shape (``label``, ``pattern``,
``id``). :func:`read_patterns` reads one and fails naming the file and line of a bad line;
spaCy is imported only to validate token patterns, so the graph builder can read the alias pack
without it (``validate=False``).
"""

from __future__ import annotations

import json
from pathlib import Path

PATTERNS_DIR = Path(__file__).resolve().parent
ENTITY_PATTERNS = PATTERNS_DIR / "entities.jsonl"
RELATION_PATTERNS = PATTERNS_DIR / "relations.jsonl"


class PatternError(ValueError):
    """A pattern file line that cannot be used: the message names the file and line."""


def read_patterns(path: str | Path, *, validate: bool = True) -> list[dict]:
    """Read a JSONL pattern file: one dict per non-blank line, in file order.

    Each line needs ``label`` and ``pattern`` (a string, or a spaCy token pattern, checked with
    spaCy's schema when ``validate``).

    Raises
    ------
    PatternError
        ``path:line: reason`` for the first bad line.
    """
    patterns = []
    for number, line in enumerate(Path(path).read_text(encoding="utf8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as error:
            raise PatternError(f"{path}:{number}: not a JSON object ({error})") from None
        if not isinstance(record, dict) or not {"label", "pattern"} <= record.keys():
            raise PatternError(f"{path}:{number}: a pattern needs 'label' and 'pattern'")
        if validate and not isinstance(record["pattern"], str):
            from spacy.schemas import validate_token_pattern

            errors = validate_token_pattern(record["pattern"])
            if errors:
                raise PatternError(f"{path}:{number}: invalid token pattern ({errors[0]})")
        patterns.append(record)
    return patterns


def pattern_surface(record: dict) -> str:
    """The text a pattern matches: the string, or its tokens' ``ORTH``/``LOWER`` joined."""
    pattern = record["pattern"]
    if isinstance(pattern, str):
        return pattern
    return " ".join(str(t.get("ORTH", t.get("LOWER", ""))) for t in pattern)
