"""Extraction of long posts: read whole in pieces, in time linear in their length (issue 10).

The inputs are generated here, never committed. No test times anything: ``bench/scale.py``
measures the time per character; these check that the indexes and pieces that make it flat
give the answers the plain scans gave.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from ptkg.extractors import entities, extract, pipeline, relations
from ptkg.extractors.pipeline import extract_posts, load_nlp, split_text
from ptkg.readers import read_posts

UNIT = ("TorchServe is developed by AWS and Meta. PyTorch 1.8 adds support for ROCm, CUDA and "
        "Apple silicon. PyTorch, which supports Android, is based on Torch.\n\n")


@pytest.fixture(scope="module")
def corpus_posts(corpus_dir):
    return list(read_posts([corpus_dir / "pytorch_blog.jsonl"]))


def shifted(facts, by: int) -> set:
    return {dataclasses.replace(f, start=f.start + by, end=f.end + by) if f.start >= 0 else f
            for f in facts}


@pytest.mark.parametrize(("text", "limit"), [
    ("one two\n\nthree four\nfive six seven\n\n\n   eight", 12),
    ("a line\nanother line\n  an indented line\nlast", 9),
    ("words on one line only, separated by single spaces " * 20, 40),
    ("x" * 95, 10),  # no whitespace at all: cut where the limit falls
    ("   \n\n\t  \n " * 30, 7),  # whitespace only
    ("short", 100),
    ("", 10),
])
def test_split_text_pieces_join_back_within_limit(text, limit):
    pieces = split_text(text, limit)
    assert "".join(pieces) == text
    assert all(len(piece) <= limit for piece in pieces)
    assert all(piece for piece in pieces[1:])


@pytest.mark.parametrize(("limit", "first"), [
    (20, "alpha beta gamma.\n\n"),
    (30, "alpha beta gamma.\n\n"),  # the blank line, in the second half
    (40, "alpha beta gamma.\n\ndelta epsilon\n"),  # a line break in the second half is later
])
def test_split_text_cuts_at_paragraph_then_line(limit, first):
    text = "alpha beta gamma.\n\ndelta epsilon\nzeta eta theta iota kappa lambda mu nu xi"
    pieces = split_text(text, limit)
    assert pieces[0] == first
    # Every later piece starts a word after a line break or a space: tokens stay whole.
    assert all(not piece[0].isspace() for piece in pieces[1:])


def test_issue10_pieces_give_the_facts_of_the_whole_post(corpus_posts, monkeypatch):
    """Issue 10: a post read in pieces has the facts of the post read at once (blank model)."""
    nlp = load_nlp("blank")
    posts = sorted(corpus_posts, key=lambda p: -len(p.text))[:4]
    whole = list(extract_posts(posts, nlp))
    monkeypatch.setattr(pipeline, "PIECE_LENGTH", 2000)
    assert all(len(split_text(p.text, 2000)) > 5 for p in posts)
    assert list(extract_posts(posts, nlp)) == whole


def test_issue10_post_longer_than_max_length_is_read_whole(corpus_posts):
    """Issue 10: a post longer than nlp.max_length is read to its end, offsets exact, and the
    post beside it keeps its facts."""
    nlp = load_nlp("blank")
    nlp.max_length = 50_000  # spaCy's E088 above it: the pieces stay below
    good = next(p for p in corpus_posts if "1.8" in p.title and "released" in p.url)
    filler = "```\n" + "loss = model(batch).sum()\n" * 40 + "```\n\nA paragraph of prose.\n\n"
    text = UNIT + filler * (210_000 // len(filler)) + "TorchServe is developed by AWS.\n"
    long = dataclasses.replace(good, url="https://example.org/long/", title="A long post",
                               text=text)
    alone = list(extract_posts([good], nlp))
    long_facts, good_facts = extract_posts([long, good], nlp)
    assert good_facts == alone[0]
    assert len(text) > 4 * nlp.max_length
    last = max(long_facts.facts, key=lambda f: f.start)
    assert (last.type, last.source.name, last.target.name) == ("DEVELOPED_BY", "TorchServe", "AWS")
    assert last.end == len(text) - 1
    for fact in long_facts.facts:
        assert fact.evidence == " ".join(text[fact.start:fact.end].split())
    in_text = [m for m in long_facts.mentions if m.start >= 0]  # -1: the title's
    assert max(m.start for m in in_text) > len(text) - 40
    for mention in in_text:
        assert text[mention.start:mention.end] == mention.surface


def test_issue10_repeated_text_repeats_its_facts(corpus_posts):
    """Issue 10: a long post of one paragraph repeated has that paragraph's facts at every
    copy, the indexes by sentence giving what the scans of every entity gave."""
    nlp = load_nlp("blank")
    post = dataclasses.replace(corpus_posts[0], url="https://example.org/repeated/",
                               title="Notes", author="", text=UNIT)
    copies = 600
    one = next(extract_posts([post], nlp))
    many = next(extract_posts([dataclasses.replace(post, text=UNIT * copies)], nlp))
    assert len(one.facts) >= 5
    assert set(many.facts) == set().union(*(shifted(one.facts, i * len(UNIT))
                                            for i in range(copies)))
    assert len(many.mentions) == copies * len(one.mentions)


@pytest.mark.parametrize("model", ["blank_nlp", "english_nlp"])
def test_doc_index_answers_as_the_scans(request, corpus_posts, model):
    """The sentence index answers as ``Span.sent`` and the token scans it replaces."""
    nlp = request.getfixturevalue(model)
    post = next(p for p in corpus_posts if "1.8" in p.title and "released" in p.url)
    doc = nlp(pipeline.mask_markup(post.text))
    entities = list(doc.spans["ptkg"])
    index = relations._DocIndex(doc, entities)
    for token in doc:
        span = doc[token.i:token.i + 1]
        sentence = index.sentence(span)
        assert (sentence.start, sentence.end) == (span.sent.start, span.sent.end)
        lead = [t for t in doc[sentence.start:token.i] if not (t.is_punct or t.is_space)]
        opens = not lead or (len(lead) <= 3 and lead[0].lower_ in relations._OPENING_WORDS) \
            or all(t.pos_ == "ADV" for t in lead)
        assert relations._opens_sentence(span, sentence) == opens
    for sentence in doc.sents:
        assert index.inside(sentence) == [e for e in entities if sentence.start <= e.start
                                          and e.end <= sentence.end]
    assert index.breaks == [t.i for t in doc if t.lower_ in relations._CLAUSE_BREAKS]
    assert index.commas == [t.i for t in doc if t.text == ","]
    assert index.subjects == [t.i for t in doc if t.dep_ in ("nsubj", "nsubjpass")]
    ranges = random.Random(10)
    for _ in range(300):
        start = ranges.randrange(len(doc))
        end = ranges.randrange(start, min(len(doc), start + 80) + 1)
        assert index.text(start, end) == doc[start:end].text
        inside = [i for i in index.breaks if start <= i < end]
        assert index.first(index.breaks, start, end) == (inside[0] if inside else None)
        assert index.last(index.breaks, start, end) == (inside[-1] if inside else None)


@pytest.mark.parametrize("seed", range(5))
def test_span_containment_answers_as_the_scans(blank_nlp, seed):
    """``_within`` (the entity finder) and ``_holders`` (the extractor) find the spans that
    hold a span as a scan of every span did, for spans that overlap or not."""
    doc = blank_nlp.make_doc(" ".join(f"w{i}" for i in range(60)))
    draw = random.Random(seed)
    spans = []
    for _ in range(25):
        start = draw.randrange(59)
        spans.append(doc[start:draw.randrange(start + 1, min(60, start + 6) + 1)])
    disjoint = entities._select((0, s) for s in spans)
    for outer in (sorted(spans, key=lambda s: (s.start, s.end)), disjoint):
        within, holding = entities._within(outer), extract._holders(outer)
        for inner in spans:
            holders = [s for s in outer if s.start <= inner.start and inner.end <= s.end]
            assert within(inner) == bool(holders)
            assert holding(inner) == holders
