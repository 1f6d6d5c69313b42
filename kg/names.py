"""Version strings ordered as versions, not as text: 1.10 follows 1.9."""

from __future__ import annotations

import re


def version_key(version: str) -> tuple:
    """A sort key for ``"1.10"``, ``"v0.6"``, ``"2.0.1"``.

    Examples
    --------
    >>> sorted(["1.10", "1.9", "1.8.1", "2.0"], key=version_key)
    ['1.8.1', '1.9', '1.10', '2.0']
    """
    parts = re.findall(r"\d+|[A-Za-z]+", version.lstrip("vV"))
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts)
