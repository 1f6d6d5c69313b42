"""Stability as posts state it, from the words of the contract's vocabulary (:mod:`ptkg.schema`).

``MARKER`` finds a marker ("[Beta]", "(Prototype)", "(Now Stable)", "[Experimental]",
"(API-Unstable)"); ``WORD`` a stability word anywhere; :func:`level` names the level a word
states in a post of a given date ("Experimental" before July 2020 is Beta).
"""

from __future__ import annotations

import re

from ptkg.schema import stability_named, stability_words

#: The words that state a level, as a regex alternation (longest first; "-" or a space inside).
WORDS = "|".join(re.escape(word).replace(r"\-", r"[\s-]").replace(r"\ ", r"[\s-]")
                 for word in stability_words())
MARKER = re.compile(rf"[\[(]\s*(?:now\s+)?({WORDS})\s*[\])]", re.I)
WORD = re.compile(rf"\b({WORDS})\b", re.I)


def level(word: str, date: str | None = None) -> str:
    """The level a stability word states in a post of ``date`` (YYYY-MM-DD, or unknown).

    Examples
    --------
    >>> level("[Beta]".strip("[]")), level("Experimental", "2019-10-10")
    ('Beta', 'Beta')
    """
    return stability_named(word, date)
