"""A post as a tree of blocks: headings with their level, paragraphs, list items, bold lead
lines, table rows and code, each with its character offsets in the post text.

Two sources of structure, one shape:

- **Markdown** (Jekyll posts, pages a scraper saved, the ``text`` of JSON Lines, CSV and Parquet
  rows, and what the HTML reader makes of a page) is parsed with markdown-it-py, a CommonMark
  parser (tables enabled). Its block tokens give each block's lines; a paragraph or list item
  that opens with a bold run ending its line (``**Fused Adagrad optimizer**``) is a *lead*: a
  heading one level below every heading, as posts of 2026 use them to name features. Raw HTML
  blocks keep the line heuristics below, with their tags masked.
- **Flattened text** (the dataset viewer's table dump, where the Markdown was rendered to plain
  text and its marks are gone) keeps the heuristics of :func:`ptkg.extractors.text.classify_lines`
  (a short line without final punctuation is a heading) and gives the same shape, every heading
  at level 0.

:func:`parse_document` gives the :class:`Document`; :meth:`Document.lines` the per-line view the
extractors walk (:class:`ptkg.extractors.text.Line` with its kind and level). A block's
``parent`` is the heading or lead whose section holds it, so the sections form a tree:
:meth:`Document.section_path` names the headings above a block.

Not supported: Setext headings inside lists, reference definitions spanning lines, nested
HTML blocks with Markdown inside them (read with the heuristics).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ptkg.extractors.text import Line, classify_lines, is_code_line, line_kind

MARKUPS = ("markdown", "flat")
#: The level of a bold lead line: below any heading (Markdown has six levels).
LEAD_LEVEL = 7


@dataclass(frozen=True)
class Block:
    """One block of a post: ``text[start:end]`` and what kind of block it is.

    ``kind`` is ``heading``, ``lead``, ``paragraph``, ``item``, ``table``, ``code`` or
    ``html``; ``level`` is a heading's level (1-6, 0 when flattened text lost it, 7 for a lead)
    or a list item's depth (1 for the outer list); ``parent`` the index of the heading or lead
    whose section holds it (-1: none).
    """

    kind: str
    start: int
    end: int
    level: int = 0
    parent: int = -1


@dataclass
class Document:
    """A post's text and its blocks, in text order."""

    text: str
    markup: str
    blocks: list[Block] = field(default_factory=list)
    _lines: list[Line] | None = field(default=None, repr=False)

    def lines(self) -> list[Line]:
        """Every line of the text with its kind (``heading``, ``bullet``, ``text``, ``code``)
        and a heading's level; a lead line is a heading of :data:`LEAD_LEVEL`."""
        if self._lines is None:
            self._lines = (classify_lines(self.text) if self.markup == "flat"
                           else _markdown_lines(self.text))
        return self._lines

    def section_path(self, index: int) -> list[Block]:
        """The headings and leads above block ``index``, outermost first."""
        path = []
        parent = self.blocks[index].parent
        while parent >= 0:
            path.append(self.blocks[parent])
            parent = self.blocks[parent].parent
        return path[::-1]


def parse_document(text: str, markup: str = "markdown") -> Document:
    """The blocks of a post's ``text``, read as ``markup`` (``markdown`` or ``flat``).

    Examples
    --------
    >>> doc = parse_document("## Beta Features\\n\\n**torch.compile: faster**\\n\\nIt is fast.\\n")
    >>> [(b.kind, b.level, doc.text[b.start:b.end]) for b in doc.blocks]
    [('heading', 2, '## Beta Features'), ('lead', 7, '**torch.compile: faster**'), \
('paragraph', 0, 'It is fast.')]
    >>> [b.parent for b in doc.blocks]
    [-1, 0, 1]
    """
    if markup not in MARKUPS:
        raise ValueError(f"unknown markup {markup!r}: use one of {', '.join(MARKUPS)}")
    document = Document(text, markup)
    lines = document.lines()
    blocks = _flat_blocks(lines) if markup == "flat" else _markdown_blocks(text, lines)
    document.blocks = _with_parents(blocks)
    return document


def document_lines(text: str, markup: str = "markdown") -> list[Line]:
    """``parse_document(text, markup).lines()`` without the blocks, which the extraction
    does not read (the blocks parse the Markdown a second time)."""
    if markup not in MARKUPS:
        raise ValueError(f"unknown markup {markup!r}: use one of {', '.join(MARKUPS)}")
    return Document(text, markup).lines()


# --------------------------------------------------------------------------- Markdown


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def _tokens(text: str) -> list[Token]:
    return _parser().parse(text)


def _line_offsets(text: str) -> list[tuple[int, int]]:
    offsets, start = [], 0
    for raw in text.split("\n"):
        offsets.append((start, start + len(raw)))
        start += len(raw) + 1
    return offsets


def _markdown_lines(text: str) -> list[Line]:
    """The lines of a Markdown text, kinds and heading levels from its block tokens."""
    offsets = _line_offsets(text)
    kinds: list[str | None] = [None] * len(offsets)
    levels = [0] * len(offsets)
    tokens = _tokens(text)
    depth = 0
    for index, token in enumerate(tokens):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
        if not token.map:
            continue
        first, last = token.map
        if token.type == "heading_open":
            _mark(kinds, levels, first, last, "heading", int(token.tag[1:]))
            if last - first > 1:  # a Setext heading: its underline is markup
                kinds[last - 1] = "code"
        elif token.type == "list_item_open":
            _mark(kinds, levels, first, first + 1, "bullet", depth)
        elif token.type == "paragraph_open":
            if _is_lead(tokens[index + 1]) and kinds[first] != "bullet":
                _mark(kinds, levels, first, first + 1, "heading", LEAD_LEVEL)
            for i in range(first, last):  # a code line a post forgot to fence stays code
                raw = text[offsets[i][0]:offsets[i][1]]
                _mark(kinds, levels, i, i + 1, "code" if is_code_line(raw) else "text", 0)
        elif token.type in ("fence", "code_block", "hr"):
            _mark(kinds, levels, first, last, "code", 0)
        elif token.type == "html_block":
            for i in range(first, last):  # raw HTML: the line heuristics, tags masked
                kinds[i] = kinds[i] or line_kind(text[offsets[i][0]:offsets[i][1]], html=True)
        elif token.type == "table_open":  # the header row, then the |---| rule
            _mark(kinds, levels, first + 1, first + 2, "code", 0)
        elif token.type == "tr_open":
            _mark(kinds, levels, first, last, "text", 0)
    return [Line(start, end, kind or "code", level)
            for (start, end), kind, level in zip(offsets, kinds, levels, strict=True)]


def _mark(kinds: list[str | None], levels: list[int], first: int, last: int, kind: str,
          level: int) -> None:
    """Give lines ``first`` to ``last`` (excluded) a kind, unless an enclosing block did."""
    for i in range(first, min(last, len(kinds))):
        if kinds[i] is None:
            kinds[i], levels[i] = kind, level


def _is_lead(inline: Token) -> bool:
    """Whether a paragraph's inline content opens with a bold run that ends its first line."""
    children = [c for c in inline.children or [] if not (c.type == "text" and not c.content)]
    if not children or children[0].type != "strong_open":
        return False
    depth = 0
    for i, child in enumerate(children):
        depth += child.type == "strong_open"
        depth -= child.type == "strong_close"
        if depth == 0:
            rest = children[i + 1:]
            tail = next((c for c in rest if c.type in ("softbreak", "hardbreak")), None)
            before = rest[:rest.index(tail)] if tail is not None else rest
            return all(c.type == "text" and not c.content.strip(" :.") for c in before)
    return False


def _markdown_blocks(text: str, lines: list[Line]) -> list[Block]:
    """Blocks from the line view: runs of lines of one kind, headings and items alone."""
    blocks: list[Block] = []
    tokens = _tokens(text)
    kinds_by_line = {}
    for token in tokens:
        if token.map and token.type in ("fence", "code_block"):
            kinds_by_line.update(dict.fromkeys(range(*token.map), "code"))
        elif token.map and token.type == "html_block":
            kinds_by_line.update(dict.fromkeys(range(*token.map), "html"))
        elif token.map and token.type == "tr_open":
            kinds_by_line.update(dict.fromkeys(range(*token.map), "table"))
    for number, line in enumerate(lines):
        kind = _block_kind(line, kinds_by_line.get(number))
        if kind is None:
            continue
        previous = blocks[-1] if blocks else None
        joins = (previous is not None and previous.kind == kind and kind in _RUNS
                 and lines[number - 1].end == previous.end)
        if joins:
            blocks[-1] = Block(kind, previous.start, line.end, previous.level)
        else:
            blocks.append(Block(kind, line.start, line.end, line.level))
    return blocks


_RUNS = {"paragraph", "code", "html", "table"}


def _block_kind(line: Line, token_kind: str | None) -> str | None:
    if line.start == line.end and token_kind is None:
        return None  # a blank line ends a block
    if token_kind in ("code", "html", "table"):
        return token_kind
    if line.kind == "heading":
        return "lead" if line.level == LEAD_LEVEL else "heading"
    return {"bullet": "item", "text": "paragraph"}.get(line.kind)


# --------------------------------------------------------------------------- flattened text


def _flat_blocks(lines: list[Line]) -> list[Block]:
    """Blocks of flattened text: each heading and bullet line alone, text lines in runs."""
    blocks: list[Block] = []
    for line in lines:
        kind = {"heading": "heading", "bullet": "item", "text": "paragraph",
                "code": "code"}[line.kind]
        if line.start == line.end:
            continue
        previous = blocks[-1] if blocks else None
        if previous is not None and previous.kind == kind and kind in _RUNS:
            blocks[-1] = Block(kind, previous.start, line.end)
        else:
            blocks.append(Block(kind, line.start, line.end, 1 if kind == "item" else 0))
    return blocks


def _with_parents(blocks: list[Block]) -> list[Block]:
    """Each block with the index of the nearest heading above it of a lower level."""
    result: list[Block] = []
    stack: list[int] = []  # indices of open headings, levels increasing
    for block in blocks:
        is_heading = block.kind in ("heading", "lead")
        while stack and is_heading and (result[stack[-1]].level or 1) >= (block.level or 1):
            stack.pop()
        parent = stack[-1] if stack else -1
        result.append(Block(block.kind, block.start, block.end, block.level, parent))
        if is_heading:
            stack.append(len(result) - 1)
    return result
