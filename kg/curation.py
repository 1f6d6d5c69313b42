"""A project's curation: names, merges, rejects and labels a user adds without editing ptkg.

A project file is TOML (``ptkg.toml``, read with :mod:`tomllib`); every table is optional::

    # Names the entity finder must find, with their other forms (case-insensitive; with
    # ``exact = true`` only as written). Also the canonical name of what it matches.
    [[name]]
    label = "Library"
    name = "Helion"
    aliases = ["Helion DSL"]

    # These names are one node, named by the first; ``label`` (optional) is the node's label.
    [[merge]]
    names = ["Tensor Parallelism", "TensorParallel"]
    label = "Feature"

    # Never a node: its mentions and the facts that name it are dropped. A string rejects the
    # name under any label; a table {name, label} under that label only.
    [reject]
    names = ["are now available", "deltas", {name = "PyTorch", label = "Feature"}]

    # This name is a <label>: its node gets that label (before resolution merges anything).
    [labels]
    FFmpeg = "Library"
    "Composable Kernel" = "Library"

    # Extra pattern files in the alias pack's format (JSON Lines: label, pattern, id), every
    # ``*.jsonl`` of each folder, relative to this file; ``ptkg build --patterns DIR`` adds one.
    [patterns]
    dirs = ["patterns"]

Two kinds of effects:

- **extraction**: :attr:`Curation.patterns`, the names of ``[[name]]`` and the pattern files as
  alias-pack records (``{"label", "pattern", "id"}``), which the entity finder loads after the
  packaged pack. They change what is extracted, so :attr:`Curation.digest` (SHA-256 of them)
  is part of the extraction cache key; a curation without patterns has no digest and leaves
  the cache key as it was.
- **graph**: merges, rejects, labels, and the canonical names of ``[[name]]`` and the pattern
  files, applied by :class:`ptkg.resolve.Resolver` when the graph is built from the facts (a
  cached post's facts too: changing them needs no new extraction).

Errors are :class:`CurationError`, one line naming the file and line (or the key): an unknown
table or key, a label the contract does not have, a merge of fewer than two names, a name both
merged and rejected. Not supported: ``Post`` and ``Release`` in ``[[name]]`` (releases are read
by rule: add the library), more than one project file (combine them with
:meth:`Curation.combined`).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ptkg.extractors.patterns import PatternError, pattern_surface, read_patterns

from .errors import InputError
from .names import name_key
from .schema import LABELS

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as the tomli package (a dependency there)
    import tomli as tomllib

#: Labels a curation may name: every label of the contract but ``Post``.
NODE_LABELS = tuple(label for label in LABELS if label != "Post")
_TABLES = {"name", "merge", "reject", "labels", "patterns"}
_KEYS = {"name": {"label", "name", "aliases", "exact"}, "merge": {"names", "label"},
         "reject": {"names"}, "patterns": {"dirs"}}


class CurationError(InputError):
    """A project file or pattern file that cannot be used: ``path:line: reason``."""


@dataclass(frozen=True)
class Merge:
    """Names that are one node: ``names[0]`` is its name; ``label`` its label when given."""

    names: tuple[str, ...]
    label: str | None = None


@dataclass(frozen=True)
class Reject:
    """A name that is never a node (under ``label``, or under any label when None)."""

    name: str
    label: str | None = None


@dataclass(frozen=True)
class Curation:
    """What a project file (and pattern folders) say; :meth:`read` makes one.

    ``patterns`` are alias-pack records (``label``, ``pattern``, ``id``) in file order, and
    ``origins`` where each was read (``file:line``), for messages.
    """

    sources: tuple[str, ...] = ()
    patterns: tuple[dict, ...] = ()
    origins: tuple[str, ...] = ()
    merges: tuple[Merge, ...] = ()
    rejects: tuple[Reject, ...] = ()
    labels: tuple[tuple[str, str], ...] = ()  # (name, label), in file order
    _known: dict = field(default=None, compare=False, repr=False, hash=False)

    # ------------------------------------------------------------------ reading

    @classmethod
    def read(cls, path: str | Path) -> Curation:
        """Read and check a project file (and the pattern folders it names).

        Raises
        ------
        CurationError
            ``path:line: reason`` for the first problem (``path: reason`` when no line is
            known).

        Examples
        --------
        >>> import tempfile, pathlib
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> _ = (folder / "ptkg.toml").write_text('[[name]]\\nlabel = "Library"\\n'
        ...                                       'name = "Helion"\\n')
        >>> Curation.read(folder / "ptkg.toml").patterns
        ({'label': 'Library', 'pattern': 'Helion', 'id': 'Helion'},)
        """
        path = Path(path)
        try:
            text = path.read_text(encoding="utf8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            raise CurationError(f"cannot read the project file ({reason})", str(path)) from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            line = re.search(r"\(at line (\d+)", str(error))
            reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(error))
            raise CurationError(f"not TOML ({reason})", str(path),
                                int(line.group(1)) if line else None) from None
        return _Reader(path, text).read(data)

    @classmethod
    def from_pattern_dirs(cls, dirs: Iterable[str | Path]) -> Curation:
        """A curation of pattern files alone: every ``*.jsonl`` of each folder (or file).

        Raises
        ------
        CurationError
            A folder that does not exist, or a bad line (``file:line: reason``).
        """
        patterns, origins, sources = [], [], []
        for folder in map(Path, dirs):
            found, where = _read_pattern_dir(folder, "--patterns", None)
            patterns.extend(found)
            origins.extend(where)
            sources.append(str(folder))
        return cls(sources=tuple(sources), patterns=tuple(patterns), origins=tuple(origins))

    def combined(self, other: Curation) -> Curation:
        """This curation and ``other`` (its entries after this one's)."""
        return Curation(self.sources + other.sources, self.patterns + other.patterns,
                        self.origins + other.origins, self.merges + other.merges,
                        self.rejects + other.rejects, self.labels + other.labels)

    # ------------------------------------------------------------------ extraction

    @property
    def digest(self) -> str | None:
        """SHA-256 of the extraction-level part (:attr:`patterns`); None when there is none.

        Merges, rejects and labels are applied to the facts when the graph is built: they do
        not change what is extracted, so they are not in it.
        """
        if not self.patterns:
            return None
        text = json.dumps(list(self.patterns), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf8")).hexdigest()

    def check_patterns(self, validate: Callable[[object, str], None]) -> None:
        """Run ``validate(token_pattern, "file:line")`` on each token pattern (a list).

        The spaCy side passes ``ptkg.extractors.rules.check_token_pattern``.

        Raises
        ------
        CurationError
            What ``validate`` raised (``file:line: invalid token pattern (...)``).
        """
        for record, where in zip(self.patterns, self.origins, strict=True):
            if not isinstance(record["pattern"], str):
                try:
                    validate(record["pattern"], where)
                except ValueError as error:  # PatternError
                    raise CurationError(str(error)) from None

    # ------------------------------------------------------------------ graph

    def known(self) -> dict[tuple[str, str], str]:
        """(label, key of a form) -> canonical name, for every name and pattern, first wins."""
        if self._known is None:
            known: dict[tuple[str, str], str] = {}
            for record in self.patterns:
                canonical = record.get("id") or pattern_surface(record)
                for form in (pattern_surface(record), canonical):
                    known.setdefault((record["label"], name_key(form)), canonical)
            object.__setattr__(self, "_known", known)
        return self._known

    def is_rejected(self, label: str, name: str) -> bool:
        """Whether the curation rejects ``name`` as a ``label``."""
        key = name_key(name)
        return any(name_key(r.name) == key and r.label in (None, label) for r in self.rejects)

    def label_of(self, name: str) -> str | None:
        """The label the curation gives ``name``, if any (the last entry wins)."""
        key = name_key(name)
        found = [label for each, label in self.labels if name_key(each) == key]
        return found[-1] if found else None


# ---------------------------------------------------------------------------- reading


class _Reader:
    """Checks a parsed project file, naming the line of each table it complains about."""

    def __init__(self, path: Path, text: str):
        self.path = path
        self.lines = text.splitlines()

    def fail(self, reason: str, line: int | None) -> CurationError:
        return CurationError(reason, str(self.path), line)

    def line_of(self, table: str, index: int = 0, key: str | None = None) -> int | None:
        """The line of the ``index``-th ``[[table]]`` (or ``[table]``), or of ``key`` in it."""
        header = re.compile(r"^\s*\[\[?\s*" + re.escape(table) + r"\s*\]\]?\s*(#.*)?$")
        starts = [n for n, line in enumerate(self.lines, 1) if header.match(line)]
        if index >= len(starts):
            return None
        if key is None:
            return starts[index]
        pattern = re.compile(r"^\s*(?:" + re.escape(key) + r"|\"" + re.escape(key) + r"\")\s*=")
        for number in range(starts[index] + 1, len(self.lines) + 1):
            line = self.lines[number - 1]
            if re.match(r"^\s*\[", line):
                break
            if pattern.match(line):
                return number
        return starts[index]

    def read(self, data: dict) -> Curation:
        for table, value in data.items():
            if table not in _TABLES:
                raise self.fail(f"unknown table {table!r} (known: "
                                f"{', '.join(sorted(_TABLES))})", None)
            many = table in ("name", "merge")
            if many and not (isinstance(value, list) and all(isinstance(v, dict)
                                                             for v in value)):
                raise self.fail(f"{table!r} is a list of tables: write [[{table}]]",
                                self.line_of(table))
            if not many and not isinstance(value, dict):
                raise self.fail(f"{table!r} is a table: write [{table}]", self.line_of(table))
            for index, entry in enumerate(value if many else [value]):
                allowed = _KEYS.get(table)
                if allowed is not None:
                    unknown = sorted(set(entry) - allowed)
                    if unknown:
                        raise self.fail(f"{table}: unknown key {unknown[0]!r} (known: "
                                        f"{', '.join(sorted(allowed))})",
                                        self.line_of(table, index, unknown[0]))
        patterns, origins = [], []
        for index, entry in enumerate(data.get("name", [])):
            patterns.append(self.name_record(entry, index))
            origins.append(f"{self.path}:{self.line_of('name', index)}")
            for alias in entry.get("aliases", []):
                patterns.append(self.pattern(entry, alias))
                origins.append(f"{self.path}:{self.line_of('name', index, 'aliases')}")
        for folder in self.strings(data.get("patterns", {}), "dirs", "patterns", 0):
            found, where = _read_pattern_dir(self.path.parent / folder, str(self.path),
                                             self.line_of("patterns", 0, "dirs"))
            patterns.extend(found)
            origins.extend(where)
        merges = tuple(self.merge(entry, index) for index, entry in
                       enumerate(data.get("merge", [])))
        rejects = self.rejects(data.get("reject", {}))
        labels = self.labels(data.get("labels", {}))
        self.check_conflicts(merges, rejects)
        return Curation((str(self.path),), tuple(patterns), tuple(origins), merges, rejects,
                        labels)

    def label(self, value: object, table: str, index: int, key: str = "label") -> str:
        if value not in NODE_LABELS:
            raise self.fail(f"{table}: {key} {value!r} is not a label of the contract (one of "
                            f"{', '.join(NODE_LABELS)})", self.line_of(table, index, key))
        return value

    def text(self, value: object, table: str, index: int, key: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{table}: {key} must be a non-empty string",
                            self.line_of(table, index, key))
        return value.strip()

    def strings(self, entry: dict, key: str, table: str, index: int) -> list[str]:
        value = entry.get(key, [])
        if not isinstance(value, list):
            raise self.fail(f"{table}: {key} must be a list of strings",
                            self.line_of(table, index, key))
        return [self.text(v, table, index, key) for v in value]

    def name_record(self, entry: dict, index: int) -> dict:
        for key in ("label", "name"):
            if key not in entry:
                raise self.fail(f"name: needs {key!r}", self.line_of("name", index))
        label = self.label(entry["label"], "name", index)
        if label == "Release":
            raise self.fail("name: a Release is read by rule (\"<library> <version>\"): add its "
                            "Library instead", self.line_of("name", index, "label"))
        self.text(entry["name"], "name", index, "name")
        self.strings(entry, "aliases", "name", index)
        if not isinstance(entry.get("exact", False), bool):
            raise self.fail("name: exact must be true or false",
                            self.line_of("name", index, "exact"))
        return self.pattern(entry, entry["name"])

    def pattern(self, entry: dict, surface: str) -> dict:
        surface = " ".join(surface.split())
        pattern: str | list = surface
        if entry.get("exact"):
            pattern = [{"ORTH": word} for word in surface.split()]
        return {"label": entry["label"], "pattern": pattern, "id": " ".join(entry["name"].split())}

    def merge(self, entry: dict, index: int) -> Merge:
        names = self.strings(entry, "names", "merge", index)
        if len({name_key(n) for n in names}) < 2:
            raise self.fail("merge: names needs at least two different names",
                            self.line_of("merge", index, "names") if "names" in entry
                            else self.line_of("merge", index))
        label = entry.get("label")
        return Merge(tuple(names), None if label is None else self.label(label, "merge", index))

    def rejects(self, table: dict) -> tuple[Reject, ...]:
        value = table.get("names", [])
        if not isinstance(value, list):
            raise self.fail("reject: names must be a list", self.line_of("reject", 0, "names"))
        found = []
        for item in value:
            if isinstance(item, dict):
                unknown = sorted(set(item) - {"name", "label"})
                if unknown or "name" not in item:
                    raise self.fail("reject: a table in names is {name = \"...\", label = "
                                    "\"...\"}", self.line_of("reject", 0, "names"))
                found.append(Reject(self.text(item["name"], "reject", 0, "names"),
                                    None if item.get("label") is None
                                    else self.label(item["label"], "reject", 0, "names")))
            else:
                found.append(Reject(self.text(item, "reject", 0, "names")))
        return tuple(found)

    def labels(self, table: dict) -> tuple[tuple[str, str], ...]:
        return tuple((self.text(name, "labels", 0, name), self.label(label, "labels", 0, name))
                     for name, label in table.items())

    def check_conflicts(self, merges: tuple[Merge, ...], rejects: tuple[Reject, ...]) -> None:
        rejected = {name_key(r.name) for r in rejects}
        for index, merge in enumerate(merges):
            both = [n for n in merge.names if name_key(n) in rejected]
            if both:
                raise self.fail(f"merge: {both[0]!r} is also rejected; keep one of the two",
                                self.line_of("merge", index, "names"))


def _read_pattern_dir(folder: Path, named_in: str,
                      line: int | None) -> tuple[list[dict], list[str]]:
    """The records of every ``*.jsonl`` under ``folder`` (or of the file), checked;
    ``named_in:line`` is where the folder was named, for the message when it does not exist."""
    if folder.is_file():
        files = [folder]
    elif folder.is_dir():
        files = sorted(folder.rglob("*.jsonl"))
    else:
        raise CurationError(f"no such pattern folder: {folder}", named_in, line)
    patterns, origins = [], []
    for file in files:
        try:
            records = read_patterns(file)
        except PatternError as error:
            raise CurationError(str(error)) from None
        except (OSError, UnicodeDecodeError) as error:
            raise CurationError(f"cannot read the pattern file ({error})", str(file)) from None
        numbers = [n for n, line in enumerate(file.read_text(encoding="utf8").splitlines(), 1)
                   if line.strip()]
        for record, number in zip(records, numbers, strict=True):
            _check_record(record, f"{file}:{number}")
            patterns.append(dict(record))
            origins.append(f"{file}:{number}")
    return patterns, origins


def _check_record(record: dict, where: str) -> None:
    file, _, line = where.rpartition(":")
    if record["label"] not in NODE_LABELS or record["label"] == "Release":
        raise CurationError(f"label {record['label']!r} is not a label a pattern can give "
                            f"(one of {', '.join(n for n in NODE_LABELS if n != 'Release')})",
                            file, int(line))
    pattern = record["pattern"]
    if isinstance(pattern, str):
        if not pattern.strip():
            raise CurationError("an empty pattern", file, int(line))
    elif not (isinstance(pattern, list) and pattern
              and all(isinstance(t, dict) and t for t in pattern)):
        raise CurationError("a pattern is a string or a non-empty list of token patterns",
                            file, int(line))
    if "id" in record and not (isinstance(record["id"], str) and record["id"].strip()):
        raise CurationError("'id' must be a non-empty string (the canonical name)", file,
                            int(line))
    unknown = sorted(set(record) - {"label", "pattern", "id", "kind"})
    if unknown:
        raise CurationError(f"unknown key {unknown[0]!r} (known: id, kind, label, pattern)",
                            file, int(line))


def read_curation(project: str | Path | None = None,
                  pattern_dirs: Iterable[str | Path] = ()) -> Curation | None:
    """The curation of ``ptkg build --project FILE --patterns DIR...``; None when neither.

    Raises
    ------
    CurationError
        See :meth:`Curation.read` and :meth:`Curation.from_pattern_dirs`.
    """
    pattern_dirs = list(pattern_dirs)
    if project is None and not pattern_dirs:
        return None
    curation = Curation.read(project) if project is not None else Curation()
    if pattern_dirs:
        curation = curation.combined(Curation.from_pattern_dirs(pattern_dirs))
    return curation


