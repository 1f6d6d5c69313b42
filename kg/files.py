"""Files replaced in one step: the graph, pages, reports and cache entries.

:func:`write_atomic` writes a temporary file in the target's folder and renames it over the
target, so a reader sees the old file or the new one, never a part. click's ``atomic=True``
shows the shape but replaces the target even when the write fails; here a failure removes the
temporary file and leaves the target as it was.

A process killed during a write (kill -9, the out-of-memory killer, a power loss) cannot remove
its temporary file. The temporary files of a target are named ``.<name>.<pid>-<host>.<random>.tmp``
after the process that writes them, and every write of the target removes those
(:func:`remove_stale_temps`) of a process of this host that is gone, and any older than
:data:`STALE_SECONDS` (the only way to tell for files of other hosts, and for the
``.<name>.<random>.tmp`` that earlier versions wrote).
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import stat
import tempfile
import time
from pathlib import Path

#: A temporary file older than this (in seconds) is stale, whoever wrote it: writes take seconds.
STALE_SECONDS = 3600
_HOST = re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname())[:40]


def write_atomic(path: str | Path, text: str | bytes, *, fsync: bool = True) -> None:
    """Replace ``path`` with ``text`` (UTF-8, or bytes as they are) in one step; on any failure
    the old file stays.

    The new file keeps the permissions of the file it replaces (a new one gets those the umask
    gives). ``fsync=False`` skips the flush to disk, for files whose loss costs nothing but a
    recomputation (cache entries, which carry a checksum). Once ``path`` is replaced, the
    temporary files that killed writers left beside it are removed (:func:`remove_stale_temps`).

    Raises
    ------
    OSError
        The folder or the file cannot be written.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}-{_HOST}.", suffix=".tmp",
                                    dir=path.parent)
    try:
        data = text.encode("utf8") if isinstance(text, str) else text
        with os.fdopen(handle, "wb") as file:
            os.fchmod(file.fileno(), _file_mode(path))  # mkstemp's 0600 would hide it from others
            file.write(data)
            if fsync:
                file.flush()
                os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    remove_stale_temps(path)


def remove_stale_temps(path: str | Path, *, older_than: float = STALE_SECONDS) -> list[Path]:
    """Remove the temporary files of ``path`` that no live writer owns; return them.

    A file ``.<name>.<pid>-<host>.<random>.tmp`` is stale when its host is this one and no
    process ``pid`` runs, and any temporary file of ``path`` (also ``.<name>.<random>.tmp``)
    is when it was last written more than ``older_than`` seconds ago. Temporary files of other
    targets, and files that cannot be removed, are left alone; this never raises.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / ".graph.json.999999999-elsewhere.k2j4x8qa.tmp").write_text("")
    >>> [p.name for p in remove_stale_temps(folder / "graph.json", older_than=0)]
    ['.graph.json.999999999-elsewhere.k2j4x8qa.tmp']
    """
    path = Path(path)
    name = re.compile(rf"\.{re.escape(path.name)}\.(?:(?P<pid>\d+)-(?P<host>[A-Za-z0-9-]*)\.)?"
                      r"[a-z0-9_]+\.tmp")
    try:
        entries = [e for e in os.scandir(path.parent) if name.fullmatch(e.name)]
    except OSError:
        return []
    removed = []
    for entry in entries:
        match = name.fullmatch(entry.name)
        if _stale(entry, match["pid"], match["host"], older_than):
            with contextlib.suppress(OSError):  # gone already, or not ours to remove
                os.unlink(entry.path)
                removed.append(Path(entry.path))
    return sorted(removed)


def _stale(entry: os.DirEntry, pid: str | None, host: str | None, older_than: float) -> bool:
    if pid is not None and host == _HOST and not _alive(int(pid)):
        return True
    try:
        return time.time() - entry.stat(follow_symlinks=False).st_mtime > older_than
    except OSError:
        return False


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this host (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # not ours to signal, or a number no process has: keep its files
    return True


def _file_mode(path: Path) -> int:
    """The permissions of the file being replaced, else those a new file would get."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return _new_file_mode()


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
