"""Plain records passed between the readers, the extractors and the graph builder.

Readers make :class:`Post` records; the extractors turn each into :class:`PostFacts`
(:class:`Mention` and :class:`Fact` records naming :class:`Entity` nodes); the graph builder
reads those. Nothing here imports spaCy.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from .errors import InputError

#: The blog's address: a post that names no URL of its own is ``<BLOG_URL><slug>/``.
BLOG_URL = "https://pytorch.org/blog/"


@dataclass(frozen=True)
class Span:
    """A stretch ``text[start:end]`` of a post's text and where it was read from."""

    start: int
    end: int
    file: str
    line: int  # 1-based line of the file where the stretch starts


@dataclass
class Post:
    """One blog post: all its chunks joined, with the origin of each chunk."""

    url: str
    text: str
    title: str | None = None
    date: str | None = None  # YYYY-MM-DD
    author: str | None = None
    spans: tuple[Span, ...] = ()
    markup: str = "markdown"  # or "flat": Markdown rendered to plain text (the table dump)

    def origin(self, offset: int) -> tuple[str, int] | None:
        """Return ``(file, line)`` of the character at ``offset``, or None if unknown."""
        starts = [s.start for s in self.spans]
        i = bisect.bisect_right(starts, offset) - 1
        if i < 0:
            return None
        span = self.spans[i]
        return span.file, span.line + self.text.count("\n", span.start, offset)


@dataclass(frozen=True)
class Skip:
    """A row or file that could not be used, and why."""

    file: str
    line: int | None
    reason: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.reason}"


@dataclass
class SkipReport:
    """Collects what readers skipped; with ``strict`` the first skip raises instead.

    ``skips`` also holds rows that were read only after a repair the reason names (a lone
    surrogate replaced by U+FFFD, front matter ignored): they changed, so they are listed.
    ``duplicates`` counts posts dropped because an earlier file gave the same url with the same
    text; they are not skips (nothing is lost), so they are only counted.
    """

    strict: bool = False
    skips: list[Skip] = field(default_factory=list)
    duplicates: int = 0

    def skip(self, file: str, line: int | None, reason: str) -> None:
        """Record that the row at ``file:line`` was skipped (or repaired) and why.

        Raises
        ------
        InputError
            With ``strict``, instead of recording it.
        """
        if self.strict:
            raise InputError(reason, file, line)
        self.skips.append(Skip(str(file), line, reason))


@dataclass(frozen=True, order=True)
class Entity:
    """A node: its label and canonical name."""

    label: str
    name: str


@dataclass(frozen=True, order=True)
class Mention:
    """An entity named in a post: the canonical entity, the surface form and where it stands."""

    entity: Entity
    surface: str
    start: int
    end: int
    kind: str | None = None  # Hardware kind
    local: bool = False  # a short form the post gives the entity in one section: no alias


@dataclass(frozen=True, order=True)
class Fact:
    """A relation read from a post, with the sentence (evidence) and the rule that read it."""

    type: str
    source: Entity
    target: Entity
    rule: str
    start: int  # offsets of the evidence in the post text; -1 when read from the title
    end: int
    evidence: str
    stability: str | None = None
    stated: str | None = None  # the words that stated it: "[Beta]", "API-UNSTABLE Features"


@dataclass
class PostFacts:
    """Everything ptkg read from one post."""

    url: str
    title: str | None
    date: str | None
    author: str | None
    mentions: list[Mention] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
