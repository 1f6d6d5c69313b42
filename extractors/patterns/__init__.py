"""The pattern packs: ``entities.jsonl`` (the alias pack) and ``relations.jsonl`` (trigger rules).

Both are JSON Lines, one object per line, in spaCy's pattern-file shape (``label``, ``pattern``,
``id``). :func:`read_patterns` reads one and fails naming the file and line of a bad line.
Nothing here imports spaCy: the graph builder reads the alias pack too. The spaCy side checks
token patterns against spaCy's schema (:func:`ptkg.extractors.rules.check_token_pattern`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

PATTERNS_DIR = Path(__file__).resolve().parent
ENTITY_PATTERNS = PATTERNS_DIR / "entities.jsonl"
RELATION_PATTERNS = PATTERNS_DIR / "relations.jsonl"


class PatternError(ValueError):
    """A pattern file line that cannot be used: the message names the file and line."""


def read_patterns(path: str | Path,
                  validate: Callable[[object, str], None] | None = None) -> list[dict]:
    """Read a JSONL pattern file: one dict per non-blank line, in file order.

    Each line needs ``label`` and ``pattern``; ``validate(pattern, "path:line")``, when given,
    checks each token pattern (a list) and raises :class:`PatternError`.

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
        if validate is not None and not isinstance(record["pattern"], str):
            validate(record["pattern"], f"{path}:{number}")
        patterns.append(record)
    return patterns


def pattern_surface(record: dict) -> str:
    """The text a pattern matches: the string, or its tokens' ``ORTH``/``LOWER`` joined."""
    pattern = record["pattern"]
    if isinstance(pattern, str):
        return pattern
    return " ".join(str(t.get("ORTH", t.get("LOWER", ""))) for t in pattern)
