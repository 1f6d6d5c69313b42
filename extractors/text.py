"""Post text as the extractors see it: markup masked, lines classified.

Masking keeps every character at its offset (markup becomes spaces, line breaks stay), so an
offset into the masked text is an offset into the post text: evidence keeps its place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ptkg.extractors.stability import MARKER

_FENCE = re.compile(r"^\s*(```|~~~)")
_HTML = re.compile(r"<!--.*?-->|<[^<>\n]{1,400}>", re.S)
_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)")
_REF_LINK = re.compile(r"\[([^\]\n]*)\]\[[^\]\n]*\]")
_URL = re.compile(r"https?://\S+|www\.\S+")
#: Inline code that is an import statement ("`from torchtext.datasets.text_classification import
#: DATASETS`"): code, whose names are mentions of nothing.
_INLINE_IMPORT = re.compile(r"`(?:from\s+[\w.]+\s+)?import\s[^`\n]*`?")
_EMPHASIS = re.compile(
    r"\*\*|__|(?<![\w.])[*_](?=\S)|(?<=\S)[*_](?!\w)|`|\\(?=[_*\[\]()#`\\])")
#: An escaped underscore inside a name ("cpp\\_wrapper", "torch.\\_dynamo"): the name's own.
_ESCAPED_UNDERSCORE = re.compile(r"(?<=[\w.])\\(_(?:(?:[\w.]|\\_)*\w)?)")
_LINE_MARK = re.compile(r"^(\s*)(#{1,6}\s+|>\s*|[*+-]\s+|\d{1,2}[.)]\s+)")
_TABLE_RULE = re.compile(r"^[\s|:\-]+$")
#: An HTML table cell that opens a line: "<td>TorchServe 0.7.1" names no section.
_TABLE_CELL = re.compile(r"<t[dh]\b", re.I)
_CODE_LANG = {"python", "bash", "shell", "console", "sh", "text", "cpp", "c++", "yaml", "json",
              "py"}
_CODE_LINE = re.compile(
    r"""^\s*(>>>|\.\.\.\s|\$\s|import\s+\w|from\s+[\w.]+\s+import\s|def\s+\w|class\s+\w+[(:]|
    return\b|for\s.+:\s*$|if\s.+:\s*$|elif\s|else:|with\s.+:\s*$|print\(|@\w|
    [\w.\[\]'"]+\s*[+\-*/]?=(?!=)|[\w.]+\(.*\)[\s;,]*(?:\#.*)?$|[)\]}],?\s*$|pip\s+install|conda\s+install|
    torchrun\s|python\s+\S+\.py|Traceback\s\(|[A-Z]\w*(?:Error|Exception|Warning):\s)""",
    re.X,
)
_HEADING_END = re.compile(r"[.,;:]\s*$")
#: A line that may be a comment of a code listing: "# Now torch.bmm gives the same result"
#: (a heading of two or more marks, "## Using the legacy API", is none).
_COMMENT = re.compile(r"^#(?!#)\s")
_BULLET = re.compile(r"^\s*([*+-]|\d{1,2}[.)])\s+")


@dataclass(frozen=True)
class Line:
    """One line of a post: its offsets in the post text, what kind of block it is, and a
    heading's level (1-6 in Markdown, 7 for a bold lead line, 0 when the text lost it)."""

    start: int
    end: int
    kind: str  # "heading", "bullet", "text" or "code"
    level: int = 0


def _blank(match: re.Match) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def _keep_label(match: re.Match) -> str:
    """A link's label, where the link stood. A link to a person's profile page keeps only the
    affiliation its label gives: the rest is a name or a handle ("[QuantScientist](https://
    discuss.pytorch.org/u/quantscientist/...)", "[Daniel Kang (AER Labs)](...linkedin...)")."""
    whole, label = match.group(0), match.group(1)
    if _PROFILE_URL.search(whole, len(label) + 2):
        label = re.sub(r"[^()]+(?=\(|$)", _blank, label)
    return " " + label + " " * (len(whole) - len(label) - 1)


#: The URL of a person's profile: a forum user, a GitHub or X account, a LinkedIn member.
_PROFILE_URL = re.compile(r"\((?:https?://)?(?:www\.)?(?:discuss\.pytorch\.org/u/|"
                          r"linkedin\.com/in/|(?:github|twitter|x)\.com/[\w.-]+/?\))", re.I)


def is_code_line(line: str) -> bool:
    """Whether a line of plain text looks like a line of a code listing."""
    stripped = line.strip()
    return stripped.lower() in _CODE_LANG or bool(_CODE_LINE.match(line))


def classify_lines(text: str) -> list[Line]:
    """Split a post into lines and tell headings, bullets, text and code apart.

    Unmarked short lines right after a sentence that introduces examples ("Examples include:")
    are its items, whose marks flattened text lost: bullets, not headings.
    """
    lines: list[Line] = []
    offset, in_fence, listing = 0, False, False
    for raw in text.split("\n"):
        start, offset = offset, offset + len(raw) + 1
        if _FENCE.match(raw):
            in_fence = not in_fence
            lines.append(Line(start, start + len(raw), "code"))
            continue
        if in_fence and _looks_like_prose(raw):
            in_fence = False  # an unclosed fence (the closing one lost in a text dump)
        kind = "code" if in_fence else line_kind(raw)
        if kind == "heading" and listing and not MARKER.search(raw) and not raw.startswith("#"):
            kind = "bullet"
        listing = (kind == "bullet" and listing) or (
            kind == "text" and bool(_EXAMPLES_INTRO.search(raw)))
        lines.append(Line(start, start + len(raw), kind))
    return _comments_as_code(text, lines)


#: A sentence that introduces a list of examples: "Examples include:", "such as:".
_EXAMPLES_INTRO = re.compile(r"\b(?:examples?(?: of these)? include|such as|for example)\s*:\s*$",
                             re.I)


def _comments_as_code(text: str, lines: list[Line]) -> list[Line]:
    """Lines of one ``#`` next to code (or to such lines) are its comments, not headings: the
    fences a text dump lost leave "# train" between two lines of a listing."""
    out, i = list(lines), 0
    comment = [line.kind == "heading" and bool(_COMMENT.match(text[line.start:line.end].strip()))
               for line in lines]
    while i < len(lines):
        end = i
        while end < len(lines) and comment[end]:
            end += 1  # a run of comment lines, lines[i:end]
        if end > i and ((i > 0 and lines[i - 1].kind == "code")
                        or (end < len(lines) and lines[end].kind == "code")):
            out[i:end] = [replace(line, kind="code") for line in lines[i:end]]
        i = max(end, i + 1)
    return out


def _looks_like_prose(raw: str) -> bool:
    stripped = raw.strip()
    if is_code_line(raw) or not stripped:
        return False
    return bool(MARKER.match(stripped)) or (
        len(stripped.split()) >= 6 and stripped[-1] in ".!?" and stripped[0].isupper())


def line_kind(raw: str, html: bool = False) -> str:
    """The kind of a line of plain text: ``heading``, ``bullet``, ``text`` or ``code``.

    A line of six words or fewer without final punctuation is a heading, as is one of up to
    14 words that starts with a capital (after an opening quote), but not a table's cell
    (text); with ``html``, tags are masked first.
    """
    if _TABLE_CELL.match(raw.lstrip()):
        return "text"  # "<td>TorchServe 0.7.1": a cell of "Latest Stable Library Versions"
    if html:
        raw = _HTML.sub(_blank, raw)
    stripped = raw.strip()
    if not stripped or _TABLE_RULE.match(stripped) or is_code_line(raw):
        return "code"
    if stripped.startswith("#"):
        return "heading"
    if _BULLET.match(raw):
        return "bullet"
    words = stripped.split()
    if len(words) <= 6 and not _HEADING_END.search(stripped):
        return "heading"
    first = stripped.lstrip("‘“'\"")[:1]  # "‘Channels last’ memory format ...": C
    if len(words) <= 14 and not _HEADING_END.search(stripped) and (
        first.isupper() or first in "[("
    ):
        return "heading"
    return "text"


def _unescape(match: re.Match) -> str:
    """``\\_wrapper`` as ``_wrapper `` (the same length): backslashes move out of the name."""
    name = match.group(1).replace("\\", "")
    return name + " " * (len(match.group(0)) - len(name))


def unmasked_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Where a stretch of the masked ``text`` from ``start`` to ``end`` stands in ``text``
    itself, its markup whole: with the link bracket or emphasis that masking blanked right
    before it when the stretch closes them ("[PyTorch 2.10](...) laid the groundwork", "**CUDA
    Graph kernel annotations**"), and to the end of an escaped name it ends in
    (:func:`unmasked_end`).

    >>> text = "Done. [PyTorch 2.10](https://x.y) laid it. **Bold** words. **Lead**"
    >>> def whole(words):
    ...     start = text.index(words)
    ...     start, end = unmasked_span(text, start, start + len(words))
    ...     return text[start:end]
    >>> whole("PyTorch 2.10](https://x.y) laid it."), whole("Bold** words."), whole("Lead")
    ('[PyTorch 2.10](https://x.y) laid it.', '**Bold** words.', '**Lead**')
    >>> text = "**`torch.export` now supports MX**"
    >>> text[slice(*unmasked_span(text, 3, len(text) - 2))]
    '**`torch.export` now supports MX**'
    """
    end = unmasked_end(text, end)
    before, after = start, end
    while before > 0 and text[before - 1] in _OPENING_MARKS:
        before -= 1
    if before == start or (before and text[before - 1].isalnum()):
        return start, end
    while after < len(text) and text[after] in _CLOSING_MARKS:
        after += 1  # "**`torch.export` now supports ...**": the bold closes after the name
    closers = [_CLOSER.get(mark, mark) for mark in _MARK.findall(text[before:start])]
    stop = next((stop for stop in range(end, after + 1)
                 if all(closer in text[start:stop] for closer in closers)), None)
    return (before, stop) if stop is not None else (start, end)


_OPENING_MARKS = "[*_`"
_CLOSING_MARKS = "*_`"  # a link closes with "](", which the stretch holds
#: The marks that open a stretch, and what closes each: a link's bracket its ``](``.
_MARK = re.compile(r"\*\*|[\[*_`]")
_CLOSER = {"[": "]("}


def unmasked_end(text: str, end: int) -> int:
    r"""Where a stretch of the masked ``text`` that ends at ``end`` ends in ``text`` itself: an
    escaped name is shorter when masked ("chroma\_filterbank" is "chroma_filterbank "), so a
    stretch that ends in it ends at its end in the post.

    >>> text = r"see chroma\_filterbank now"
    >>> text[:unmasked_end(text, len("see chroma_filterbank"))]
    'see chroma\\_filterbank'
    """
    for m in _ESCAPED_UNDERSCORE.finditer(text, max(0, end - 200), end + 200):
        if m.start() < end <= m.end():
            return m.end()
    return end


def mask_markup(text: str, lines: list[Line] | None = None) -> str:
    """Return ``text`` with markdown and HTML markup, URLs and code replaced by spaces.

    The result has the same length as ``text``; link labels and inline code stay readable.

    Examples
    --------
    >>> text = "## [Beta] **torch.fx** see [docs](https://x.y)"
    >>> masked = mask_markup(text)
    >>> masked.split(), len(masked) == len(text)
    (['[Beta]', 'torch.fx', 'see', 'docs'], True)
    """
    lines = classify_lines(text) if lines is None else lines
    out = list(text)
    for line in lines:
        if line.kind == "code":
            for i in range(line.start, line.end):
                out[i] = " "
    masked = _ESCAPED_UNDERSCORE.sub(_unescape, "".join(out))
    for pattern, repl in ((_INLINE_IMPORT, _blank), (_HTML, _blank), (_IMAGE, _blank),
                          (_LINK, _keep_label),
                          (_REF_LINK, _keep_label), (_URL, _blank), (_EMPHASIS, _blank)):
        masked = pattern.sub(repl, masked)
    masked = "\n".join(_LINE_MARK.sub(lambda m: " " * len(m.group(0)), row)
                       for row in masked.split("\n"))
    return masked.replace("|", " ")
