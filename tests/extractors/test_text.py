"""Tests of ptkg.text: masking keeps every offset, code is masked, lines are classified."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ptkg.extractors import text as text_module
from ptkg.extractors.text import classify_lines, mask_markup

MARKUP = [
    "## [Beta] **torch.fx** see [docs](https://x.y) and <b>bold</b>",
    "![diagram](img/a.png) A [ref link][1] and `torch.fft` at https://pytorch.org/docs.",
    "| feature | status |\n|---|---|\n| torch.fx | Beta |",
    "* bullet with __strong__ text\n1. numbered *emphasis* item\n> quoted line",
    "<!-- a comment\nover two lines --> Ünïcode “quotes” 日本語 stay.",
]
FENCED = ("Intro sentence here about things.\n```python\nimport torch\n"
          "x = torch.fx.symbolic_trace(m)\n```\nAfter the code, torch.fft is stable now.")
UNCLOSED = ("```python\nimport torch\nmodel = torch.compile(model)\n"
            "This is a long prose sentence that ends here today.\n## [Beta] torch.fx")


def kinds(text: str) -> list[tuple[str, str]]:
    return [(text[line.start:line.end], line.kind) for line in classify_lines(text)]


def assert_same_offsets(original: str, masked: str) -> None:
    assert len(masked) == len(original)
    changed = {masked[i] for i in range(len(original)) if masked[i] != original[i]}
    assert changed <= {" "}
    assert [i for i, c in enumerate(masked) if c == "\n"] == [
        i for i, c in enumerate(original) if c == "\n"]


@pytest.mark.parametrize("text", [*MARKUP, FENCED, UNCLOSED])
def test_mask_markup_keeps_length_and_offsets(text):
    assert_same_offsets(text, mask_markup(text))


PIECES = [*"ab #*_`[]()<>!|-\n.:/T", "```", "http://x", "**", "[a](b)", ">>> ", "1. ", "word "]


@given(st.lists(st.sampled_from(PIECES), max_size=80).map("".join))
def test_mask_markup_keeps_offsets_of_any_text(text):
    assert_same_offsets(text, mask_markup(text))


@pytest.mark.parametrize(("text", "words"), [
    (MARKUP[0], ["[Beta]", "torch.fx", "see", "docs", "and", "bold"]),
    (MARKUP[1], ["A", "ref", "link", "and", "torch.fft", "at"]),
    (MARKUP[2], ["feature", "status", "torch.fx", "Beta"]),
    (MARKUP[3], ["bullet", "with", "strong", "text", "numbered", "emphasis", "item", "quoted",
                 "line"]),
])
def test_mask_markup_keeps_readable_words(text, words):
    assert mask_markup(text).split() == words


@pytest.mark.parametrize(("text", "words"), [
    ("A companion API (`torch._C._mps_loadMetalllib`) was added.",
     ["A", "companion", "API", "(", "torch._C._mps_loadMetalllib", ")", "was", "added."]),
    ("set _torch.compile_ or *x*.", ["set", "torch.compile", "or", "x", "."]),
    (r"**\[Beta] _torch.compile_ + _NumPy_**", ["[Beta]", "torch.compile", "+", "NumPy"]),
    (r"_cpp\_wrapper_ and torch.\_dynamo.config and my\_hardware\_device",
     ["cpp_wrapper", "and", "torch._dynamo.config", "and", "my_hardware_device"]),
])
def test_mask_markup_keeps_underscores_after_a_dot(text, words):
    """An underscore after a dot belongs to a private name, not to emphasis; emphasis inside
    bold is masked too ("_NumPy_**"); an escaped underscore inside a name stays in it (the
    backslash moves to the name's end, so offsets keep their place)."""
    assert mask_markup(text).split() == words


def test_mask_markup_masks_fenced_code():
    masked = mask_markup(FENCED).split("\n")
    assert masked == ["Intro sentence here about things.", *[" " * len(row) for row in
                                                              FENCED.split("\n")[1:5]],
                      "After the code, torch.fft is stable now."]


@pytest.mark.parametrize("code", [">>> import torch", "    pip install torch",
                                  "from torch import fx", "model = torch.compile(model)"])
def test_mask_markup_masks_code_lines(code):
    text = f"Run this first please.\n{code}\nThen read the rest of the post."
    assert mask_markup(text).split("\n")[1] == " " * len(code)


def test_classify_lines_fence():
    assert kinds(FENCED) == [
        ("Intro sentence here about things.", "text"), ("```python", "code"),
        ("import torch", "code"), ("x = torch.fx.symbolic_trace(m)", "code"), ("```", "code"),
        ("After the code, torch.fft is stable now.", "text")]


def test_classify_lines_unclosed_fence_closes_at_prose():
    assert kinds(UNCLOSED) == [
        ("```python", "code"), ("import torch", "code"),
        ("model = torch.compile(model)", "code"),
        ("This is a long prose sentence that ends here today.", "text"),
        ("## [Beta] torch.fx", "heading")]
    masked = mask_markup(UNCLOSED).split("\n")
    assert masked[3:] == ["This is a long prose sentence that ends here today.",
                          "   [Beta] torch.fx"]


@pytest.mark.parametrize(("line", "kind"), [
    ("# Heading", "heading"),
    ("(Prototype) Remote Module", "heading"),
    ("* bullet one here", "bullet"),
    ("1. numbered item", "bullet"),
    ("This sentence is long enough to be text and it ends with a period.", "text"),
    ("", "code"),
])
def test_classify_lines_kind(line, kind):
    assert kinds(line) == [(line, kind)]


def test_text_doctests():
    assert doctest.testmod(text_module).failed == 0


@pytest.mark.parametrize(("text", "words"), [
    ("thanks to [QuantScientist](https://discuss.pytorch.org/u/quantscientist/summary) and "
     "[albanD](https://discuss.pytorch.org/u/alband/summary)", ["thanks", "to", "and"]),
    ("by [Daniel Kang (AER Labs)](https://www.linkedin.com/in/aer-dk/)",
     ["by", "(AER", "Labs)"]),
    ("see [TorchRec](https://github.com/pytorch/torchrec) by [@Meet](https://github.com/meet)",
     ["see", "TorchRec", "by"]),
], ids=["forum-users", "affiliation-kept", "repository-kept"])
def test_mask_markup_drops_the_labels_of_profile_links(text, words):
    """A link to a person's profile names a person or a handle: only an affiliation stays."""
    masked = mask_markup(text)
    assert masked.split() == words and len(masked) == len(text)


def test_classify_lines_a_table_cell_is_no_heading():
    """The 2.0 library post's "Latest Stable Library Versions" table: a cell names a version,
    not a section (it read as a release heading that announced TorchServe 0.7.1)."""
    found = dict(kinds("<tr>\n   <td>TorchServe 0.7.1\n   </td>\n## TorchVision"))
    assert (found["   <td>TorchServe 0.7.1"], found["## TorchVision"]) == ("text", "heading")
