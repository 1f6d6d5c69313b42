"""ptkg's exceptions: one base class, translated into click errors only by the CLI."""

from __future__ import annotations


class PtkgError(Exception):
    """Base class of every error ptkg raises on purpose."""


class InputError(PtkgError):
    """An input file that cannot be read or a row that cannot be used.

    The message names the file and, when known, the line: ``path:12: reason``.
    """

    def __init__(self, reason: str, file: str | None = None, line: int | None = None):
        self.reason = reason
        self.file = file
        self.line = line
        where = file if line is None else f"{file}:{line}"
        super().__init__(f"{where}: {reason}" if file else reason)


class GraphFileError(PtkgError):
    """A graph file that is missing or is not a ptkg graph."""


class QueryError(PtkgError):
    """A Cypher query that does not parse or cannot run (a usage error: exit 2)."""


class StoreError(PtkgError):
    """A graph store (Neo4j) that cannot be reached or refused an operation."""
