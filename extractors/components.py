"""ptkg's spaCy components, registered by entry point (``spacy_factories`` in pyproject):

- ``ptkg_line_breaks``: a line break starts a sentence (headings and bullets stand alone);
- ``ptkg_entities``: :class:`ptkg.extractors.entities.EntityFinder`;
- ``ptkg_relations``: :class:`ptkg.extractors.relations.RelationFinder`.

Each factory is a thin function over its class.
"""

from __future__ import annotations

import numpy
from spacy.attrs import SENT_START
from spacy.errors import Errors
from spacy.language import Language
from spacy.tokens import Doc

from ptkg.extractors.entities import EntityFinder
from ptkg.extractors.relations import RelationFinder


class LineBreaks:
    """Start a sentence after every line break, so a heading is never glued to its paragraph."""

    def __call__(self, doc: Doc) -> Doc:
        # A line break always sits in a whitespace token: look at those only.
        starts = [i + 1 for i in numpy.flatnonzero(doc.to_array("IS_SPACE"))
                  if i + 1 < len(doc) and "\n" in doc[i].text]
        if not starts:
            return doc
        if doc.has_annotation("DEP"):  # as ``Token.is_sent_start`` refuses it
            raise ValueError(Errors.E043)
        # One array for the whole doc: setting ``Token.is_sent_start`` scans every token for
        # a parse each time, which made a long post quadratic.
        sent_starts = doc.to_array(SENT_START)
        sent_starts[starts] = 1
        doc.from_array([SENT_START], sent_starts)
        return doc


@Language.factory("ptkg_line_breaks", requires=["token.text"], assigns=["token.is_sent_start"])
def make_line_breaks(nlp: Language, name: str) -> LineBreaks:
    return LineBreaks()


@Language.factory("ptkg_entities", requires=["token.text"],
                  assigns=["doc.spans"], default_config={})
def make_entity_finder(nlp: Language, name: str) -> EntityFinder:
    return EntityFinder(nlp, name)


@Language.factory("ptkg_relations", requires=["doc.spans", "token.is_sent_start"],
                  assigns=["doc._.ptkg_relations"], default_config={})
def make_relation_finder(nlp: Language, name: str) -> RelationFinder:
    return RelationFinder(nlp, name)
