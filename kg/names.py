"""Names as ptkg compares them: the key of an entity name, and versions ordered as versions.

Nothing here imports spaCy: the graph, the stores, the views and the CLI all compare names.
"""

from __future__ import annotations

import re

_NOISE = re.compile(r"[\s_\-`'\"’‘“”®™]+")


def name_key(name: str) -> str:
    """The part of a name that identifies it.

    Case, spacing, hyphens, underscores, quotes, backticks, ``®``/``™``, a trailing ``()`` and a
    ``v`` before a version number do not count.

    Examples
    --------
    >>> name_key("`torch.compile()`") == name_key("Torch.Compile")
    True
    >>> name_key("TorchVision v0.11") == name_key("torchvision 0.11")
    True
    """
    text = name.casefold().strip()
    text = re.sub(r"\(\)$", "", re.sub(r"`", "", text))
    text = re.sub(r"\bv(?=\d)", "", text)
    return _NOISE.sub("", text)


def version_key(version: str) -> tuple:
    """A sort key for ``"1.10"``, ``"v0.6"``, ``"2.0.1"``: 1.10 follows 1.9.

    Examples
    --------
    >>> sorted(["1.10", "1.9", "1.8.1", "2.0"], key=version_key)
    ['1.8.1', '1.9', '1.10', '2.0']
    """
    parts = re.findall(r"\d+|[A-Za-z]+", version.lstrip("vV"))
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts)
