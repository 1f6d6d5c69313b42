"""Stability as posts state it, from the words of the contract's vocabulary (:mod:`ptkg.schema`).

``MARKER`` finds a marker ("[Beta]", "(Prototype)", "(Now Stable)", "[Experimental]",
"(API-Unstable)"); ``WORD`` a stability word anywhere; :func:`level` names the level a word
states in a post of a given date ("Experimental" before July 2020 is Beta).
"""

from __future__ import annotations

import re

from ptkg.names import version_key
from ptkg.schema import CORE_LIBRARY, stability_named, stability_words

#: The words that state a level, as a regex alternation (longest first; "-" or a space inside).
WORDS = "|".join(re.escape(word).replace(r"\-", r"[\s-]").replace(r"\ ", r"[\s-]")
                 for word in stability_words())
MARKER = re.compile(rf"[\[(]\s*(?:now\s+)?({WORDS})\s*[\])]", re.I)
WORD = re.compile(rf"\b({WORDS})\b", re.I)


#: The first PyTorch release after the era of "Experimental" as Beta, and its date: a post with
#: no date that states a level of it, or of a later release, states it in the new era.
FIRST_RELEASE_AFTER_LEGACY = ("1.6", "2020-07-28")


def level(word: str, date: str | None = None, release: str | None = None) -> str:
    """The level a stability word states in a post of ``date`` (YYYY-MM-DD, or unknown) about
    ``release`` ("PyTorch 2.0"), whose version dates a post that has no date of its own.

    Examples
    --------
    >>> level("[Beta]".strip("[]")), level("Experimental", "2019-10-10")
    ('Beta', 'Beta')
    >>> level("Experimental", None, "PyTorch 2.0"), level("Experimental", None, "PyTorch 1.5")
    ('Prototype', 'Beta')
    """
    library, _, version = (release or "").rpartition(" ")
    first, first_date = FIRST_RELEASE_AFTER_LEGACY
    if date is None and library == CORE_LIBRARY and version_key(version) >= version_key(first):
        date = first_date
    return stability_named(word, date)
