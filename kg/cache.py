"""The extraction cache: each post's facts, kept on disk so a rebuild extracts only what changed.

An entry is the :class:`~ptkg.records.PostFacts` of one post, as JSON (never pickle), found by
two hashes:

- the **extractor version** (:func:`extractor_version`): SHA-256 of everything extraction
  depends on — every file of the extraction package (``extractors/``: its code and its pattern
  files), the contract it checks facts against (``kg/schema.py``) and the records it makes
  (``kg/records.py``), the ptkg version, the spaCy version, and the model (package name and
  version, or ``blank``), plus :data:`ENTRY_FORMAT`;
- the **post key** (:func:`post_key`): SHA-256 of the post's url, title, date, author and text
  (where its chunks came from, ``Post.spans``, does not count: extraction does not read it).

Layout::

    <cache dir>/                      default: .ptkg-cache/ beside the graph file
      CACHEDIR.TAG                    tells backup tools to skip the folder
      <version[:16]>/                 one folder per extractor version
        version.json                  what the version hash was made of; its mtime = last use
        <key[:2]>/<key>.json          one entry per post

Changing a pattern, the extraction code, the model or ptkg's version gives a new version
folder: every entry is recomputed, the old folder is no longer read. :meth:`ExtractionCache.prune`
keeps the :data:`KEEP_VERSIONS` most recently used version folders and removes older ones
(only folders that look like ours: 16 hex digits holding a ``version.json``).

Crash safety: an entry is written to a temporary file in its folder and renamed over the
entry, so a reader sees a whole entry or none. An entry also carries the SHA-256 of its facts,
its version and its key; an entry that does not parse or whose checksum, version or key do not
match (truncated by a power loss, edited, from another format) is ignored and recomputed.
The cache is an optimization: an entry that cannot be written is counted, never fatal.

Not supported: sharing one cache between machines with different ptkg source trees is safe
(their versions differ) but gives no hits. Temporary files left by a killed process
(``.<key>.*.tmp``) are removed by the next write of the same entry (``ptkg.files``).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import typing
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from pathlib import Path

from ptkg import __version__, extractors, records, schema
from ptkg.extractors import pipeline

from .files import write_atomic
from .records import Post, PostFacts

#: The extraction package: every file under it is part of the extractor version.
EXTRACTION_PACKAGE = Path(extractors.__file__).resolve().parent

ENTRY_FORMAT = 1
FORMAT = "ptkg-extraction-cache"
DEFAULT_DIR_NAME = ".ptkg-cache"
KEEP_VERSIONS = 4
_VERSION_DIR = re.compile(r"^[0-9a-f]{16}$")
_CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                 "# This file is a cache directory tag created by ptkg (the extraction cache).\n"
                 "# For information about cache directory tags see https://bford.info/cachedir/\n")


def default_cache_dir(graph_path: str | Path) -> Path:
    """The cache folder of a graph file: ``.ptkg-cache`` in the same folder.

    Examples
    --------
    >>> default_cache_dir("out/graph.json").as_posix()
    'out/.ptkg-cache'
    """
    return Path(graph_path).parent / DEFAULT_DIR_NAME


# --------------------------------------------------------------------------- hashes


@dataclass(frozen=True)
class ExtractorVersion:
    """The version of the extraction: ``digest`` and the parts it was hashed from."""

    digest: str
    parts: dict[str, str] = field(hash=False)


def extractor_version(model: str, curation: str | None = None) -> ExtractorVersion:
    """Hash everything a post's facts depend on besides the post itself: ``curation`` is the
    digest of a project file's extraction patterns (:attr:`ptkg.curation.Curation.digest`).

    Raises
    ------
    PtkgError
        The model is not installed (as the build itself would).
    """
    parts = {
        "entry format": str(ENTRY_FORMAT),
        "ptkg": __version__,
        "spacy": _distribution_version("spacy"),
        "model": _model_identity(model),
    }
    files = [p for p in sorted(EXTRACTION_PACKAGE.rglob("*"))
             if p.is_file() and p.suffix in (".py", ".jsonl") and "__pycache__" not in p.parts]
    for path in files:
        parts[f"extractors/{path.relative_to(EXTRACTION_PACKAGE).as_posix()}"] = _sha256(
            path.read_bytes())
    for module in (schema, records):
        parts[f"kg/{Path(module.__file__).name}"] = _sha256(Path(module.__file__).read_bytes())
    if curation is not None:
        parts["curation"] = curation
    digest = _sha256(json.dumps(parts, sort_keys=True).encode("utf8"))
    return ExtractorVersion(digest, parts)


def _model_identity(model: str) -> str:
    name = pipeline.resolve_model(model)
    if name == "blank":
        return "blank"
    return f"{name} {_distribution_version(name)}"


def _distribution_version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def post_key(post: Post) -> str:
    """SHA-256 of what extraction reads of a post: url, title, date, author, text.

    Never raises: a lone surrogate (``"\\ud800"``, which JSON can spell but UTF-8 cannot) is
    hashed as its ``surrogatepass`` bytes, and a field that is not text as its ``str``.

    Examples
    --------
    >>> a = Post("https://pytorch.org/blog/a/", "PyTorch 1.8 adds torch.fx.")
    >>> post_key(a) == post_key(Post(a.url, a.text)) != post_key(Post(a.url, a.text + " "))
    True
    >>> post_key(Post(a.url, "x\\ud800")) != post_key(Post(a.url, "x\\ufffd"))
    True
    """
    content = [post.url, post.title, post.date, post.author, post.text]
    if post.markup != "markdown":  # keys of Markdown posts stay what they were
        content.append(post.markup)
    text = json.dumps(content, ensure_ascii=False, default=str)
    return _sha256(text.encode("utf8", errors="surrogatepass"))


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- serialization


def facts_to_dict(facts: PostFacts) -> dict:
    """A post's facts as plain JSON data (:func:`dict_to_facts` reads it back)."""
    return asdict(facts)


def dict_to_facts(data: dict) -> PostFacts:
    """Rebuild :class:`PostFacts` from :func:`facts_to_dict` output.

    Field names must match the dataclasses exactly, so a change to them cannot pass silently.

    Raises
    ------
    ValueError
        The data does not have the fields of the records.
    """
    return _from_dict(PostFacts, data)


def _from_dict(cls: type, data: object):
    names, nested = _plan(cls)
    if not isinstance(data, dict) or data.keys() != names:
        raise ValueError(f"not a {cls.__name__} record")
    values = dict(data)
    for name, (is_list, item) in nested.items():
        value = values[name]
        if not is_list:
            values[name] = _from_dict(item, value)
        elif isinstance(value, list):
            values[name] = [_from_dict(item, v) for v in value]
        else:
            raise ValueError(f"{cls.__name__}.{name} is not a list")
    return cls(**values)


@functools.cache
def _plan(cls: type) -> tuple[frozenset[str], dict[str, tuple[bool, type]]]:
    """A record class's field names, and its fields holding records (or lists of them)."""
    hints = typing.get_type_hints(cls)
    nested = {}
    for name in (f.name for f in fields(cls)):
        hint = hints[name]
        item = typing.get_args(hint)[0] if typing.get_origin(hint) is list else None
        if is_dataclass(hint):
            nested[name] = (False, hint)
        elif item is not None and is_dataclass(item):
            nested[name] = (True, item)
    return frozenset(f.name for f in fields(cls)), nested


def _checksum(facts: dict) -> str:
    return _sha256(json.dumps(facts, sort_keys=True, ensure_ascii=False,
                              separators=(",", ":")).encode("utf8"))


# --------------------------------------------------------------------------- the cache


@dataclass
class CacheStats:
    """What a cache did during one build."""

    hits: int = 0
    misses: int = 0
    invalid: int = 0  # entries found but unusable (corrupt, truncated): recomputed
    written: int = 0
    write_errors: int = 0


class ExtractionCache:
    """Per-post extraction results on disk, for one extractor version.

    Parameters
    ----------
    root : the cache folder (created on the first write).
    version : the extractor version (:func:`extractor_version`).
    """

    def __init__(self, root: str | Path, version: ExtractorVersion):
        self.root = Path(root)
        self.version = version
        self.folder = self.root / version.digest[:16]
        self.stats = CacheStats()
        self._ready = False

    @classmethod
    def open(cls, root: str | Path, model: str, curation: str | None = None) -> ExtractionCache:
        """The cache in ``root`` for the extraction with ``model`` (and a project file's
        patterns, by their digest)."""
        return cls(root, extractor_version(model, curation))

    def path(self, key: str) -> Path:
        """Where the entry of the post with this key lives."""
        return self.folder / key[:2] / f"{key}.json"

    def get(self, post: Post) -> PostFacts | None:
        """The cached facts of ``post``, or None (missing or unusable entry)."""
        key = post_key(post)
        try:
            text = self.path(key).read_text(encoding="utf8")
        except (OSError, UnicodeDecodeError) as error:
            if not isinstance(error, FileNotFoundError):
                self.stats.invalid += 1
            self.stats.misses += 1
            return None
        facts = self._parse(text, key, post.url)
        if facts is None:
            self.stats.invalid += 1
            self.stats.misses += 1
            return None
        self.stats.hits += 1
        return facts

    def _parse(self, text: str, key: str, url: str) -> PostFacts | None:
        try:
            entry = json.loads(text)
            if not (isinstance(entry, dict) and entry.get("format") == FORMAT
                    and entry.get("extractor") == self.version.digest
                    and entry.get("post") == key
                    and entry.get("checksum") == _checksum(entry["facts"])):
                return None
            facts = dict_to_facts(entry["facts"])
        except (ValueError, KeyError, TypeError, RecursionError):
            return None
        return facts if facts.url == url else None

    def put(self, post: Post, facts: PostFacts) -> None:
        """Store the facts of ``post``: written to a temp file, then renamed over the entry.

        A failure to write is counted in ``stats.write_errors`` and otherwise ignored.
        """
        key = post_key(post)
        data = facts_to_dict(facts)
        entry = {"format": FORMAT, "extractor": self.version.digest, "post": key,
                 "url": post.url, "checksum": _checksum(data), "facts": data}
        text = json.dumps(entry, sort_keys=True, ensure_ascii=False, indent=1) + "\n"
        try:
            self._prepare()
            write_atomic(self.path(key), text, fsync=False)
        except OSError:
            self.stats.write_errors += 1
            return
        self.stats.written += 1

    def _prepare(self) -> None:
        """Create the folders, the cache tag and ``version.json`` once."""
        if self._ready:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        tag = self.root / "CACHEDIR.TAG"
        if not tag.exists():
            write_atomic(tag, _CACHEDIR_TAG, fsync=False)
        info = {"format": FORMAT, "digest": self.version.digest, "parts": self.version.parts}
        write_atomic(self.folder / "version.json",
                     json.dumps(info, sort_keys=True, indent=1) + "\n", fsync=False)
        self._ready = True

    def touch(self) -> None:
        """Mark this version as used now (what :meth:`prune` keeps)."""
        with contextlib.suppress(OSError):
            os.utime(self.folder / "version.json")

    def prune(self, keep: int = KEEP_VERSIONS) -> list[Path]:
        """Remove version folders beyond the ``keep`` most recently used; return them.

        Only folders named with 16 hex digits that hold a ptkg ``version.json`` are removed;
        this version's folder never is.
        """
        try:
            candidates = [p for p in self.root.iterdir()
                          if p.is_dir() and _VERSION_DIR.match(p.name) and p != self.folder
                          and _is_version_folder(p)]
        except OSError:
            return []
        used = sorted(candidates, key=_last_used, reverse=True)
        removed = used[max(keep - 1, 0):]
        for folder in removed:
            shutil.rmtree(folder, ignore_errors=True)
        return removed


def _last_used(folder: Path) -> float:
    try:
        return (folder / "version.json").stat().st_mtime
    except OSError:
        return 0.0


def _is_version_folder(folder: Path) -> bool:
    try:
        info = json.loads((folder / "version.json").read_text(encoding="utf8"))
    except (OSError, ValueError):
        return False
    return isinstance(info, dict) and info.get("format") == FORMAT


# --------------------------------------------------------------------------- extraction


def run_cached_extraction(posts: list[Post], cache: ExtractionCache | None, *,
                          model: str = "en_core_web_sm", jobs: int = 1,
                          progress: Callable[[int], None] | None = None,
                          patterns: Sequence[dict] = ()) -> list[PostFacts]:
    """The facts of every post, in input order: from the cache when it has them, else
    extracted (only the misses go to :func:`ptkg.extractors.pipeline.iter_extraction`, with
    ``jobs``).

    Each extracted post is stored as soon as it is done, so an interrupted build keeps what it
    extracted. With ``cache=None`` this is :func:`ptkg.extractors.pipeline.run_extraction`.
    """
    progress = progress or (lambda n: None)
    if cache is None:
        return pipeline.run_extraction(posts, model=model, jobs=jobs, progress=progress,
                                       patterns=patterns)
    found = [cache.get(post) for post in posts]
    progress(sum(facts is not None for facts in found))
    missing = [i for i, facts in enumerate(found) if facts is None]
    extracted = pipeline.iter_extraction([posts[i] for i in missing], model=model, jobs=jobs,
                                         patterns=patterns)
    for i, facts in zip(missing, extracted, strict=True):
        cache.put(posts[i], facts)
        found[i] = facts
        progress(1)
    cache.touch()
    return typing.cast(list[PostFacts], found)

