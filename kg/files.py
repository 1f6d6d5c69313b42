"""Files replaced in one step: the graph, pages, reports and cache entries.

:func:`write_atomic` writes a temporary file in the target's folder and renames it over the
target, so a reader sees the old file or the new one, never a part. click's ``atomic=True``
shows the shape but replaces the target even when the write fails; here a failure removes the
temporary file and leaves the target as it was.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_atomic(path: str | Path, text: str, *, fsync: bool = True) -> None:
    """Replace ``path`` with ``text`` (UTF-8) in one step; on any failure the old file stays.

    The new file keeps the permissions of the file it replaces (a new one gets those the umask
    gives). ``fsync=False`` skips the flush to disk, for files whose loss costs nothing but a
    recomputation (cache entries, which carry a checksum).

    Raises
    ------
    OSError
        The folder or the file cannot be written.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf8") as file:
            os.fchmod(file.fileno(), _file_mode(path))  # mkstemp's 0600 would hide it from others
            file.write(text)
            if fsync:
                file.flush()
                os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


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
