"""Files as bytes and text: opening, reading, UTF-8 checks and byte order marks, one-line errors."""

from __future__ import annotations

import codecs
import os
from typing import BinaryIO

from ..errors import InputError
from .posts import _one_line

# fmt: off
BYTE_ORDER_MARKS = (
    (codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"),
)

FIX_UTF8 = "re-encode it as UTF-8"

def _os_error(error: OSError, file: str) -> InputError:
    """Turn an OSError into a one-line InputError naming ``file``."""
    reason = (error.strerror or _one_line(error)).lower()
    return InputError(reason, os.fspath(error.filename) if error.filename else file)

def _open(file: str) -> BinaryIO:
    """Open a regular file for binary reading, or raise InputError."""
    if os.path.exists(file) and not os.path.isfile(file):
        raise InputError("not a regular file", file)
    try:
        return open(file, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as error:
        raise _os_error(error, file) from error

def _read_bytes(file: str) -> bytes:
    """Return the content of a file, or raise InputError."""
    with _open(file) as handle:
        try:
            return handle.read()
        except OSError as error:
            raise _os_error(error, file) from error

def _read_text(file: str) -> str:
    """Return a UTF-8 text file's content without BOM, or raise InputError."""
    data = _read_bytes(file)
    _check_utf8(data, file, final=True)
    return data.decode("utf-8").removeprefix("\ufeff")

def _check_utf8(data: bytes, file: str, final: bool) -> None:
    """Raise InputError naming the line of the first byte that is not UTF-8.

    With ``final`` false, ``data`` is the start of a file and may end inside a character.
    """
    try:
        codecs.getincrementaldecoder("utf-8")().decode(data, final=final)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        reason = f"not UTF-8 (byte 0x{data[error.start]:02x} at line {line}); re-encode it as UTF-8"
        raise InputError(reason, file, line) from error

def _bom_encoding(head: bytes) -> str | None:
    """Return ``"UTF-16"`` or ``"UTF-32"`` when ``head`` starts with their byte order mark."""
    return next((name for bom, name in BYTE_ORDER_MARKS if head.startswith(bom)), None)

def _is_utf8_start(head: bytes) -> bool:
    """Tell whether ``head`` is the start of a UTF-8 text (it may end inside a character)."""
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return True
