"""Names as ptkg compares them: the key of an entity name, and versions ordered as versions.

Nothing here imports spaCy: the graph, the stores, the views and the CLI all compare names.
"""

from __future__ import annotations

import re
from functools import lru_cache

_NOISE = re.compile(r"[\s_\-`'\"’‘“”®™]+")


@lru_cache(maxsize=1 << 16)  # resolution asks for the key of one name many times
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


# ---------------------------------------------------------------------------- resolution keys
# The helpers below serve ``ptkg.resolve``: each is one rule's test of two names, pure and
# spaCy-free, so a test can check a rule on two strings. ``name_key`` above stays what it was:
# the evaluation, the name index and the duplicate count compare names with it.

#: Spelling variants of one word, each rewritten to one form in :func:`variant_key` (evidence:
#: "nn.Module parameterization" in the 1.9 post, "nn.Module Parametrization" in 1.10; "Native
#: image I/O" and "Native image IO" in the torchvision 0.8 posts; British -isation).
SPELLINGS: tuple[tuple[str, str, str], ...] = (
    (r"parameteriz", "parametriz", "parameterization = parametrization"),
    (r"i/o", "io", "I/O = IO"),
    (r"isation", "ization", "-isation = -ization"),
)
#: An API's documented path, dotted: ``torchaudio.io.AudioEffector`` (not a version, "Wav2Vec2.0").
DOTTED_API = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
#: The model number or generation a device family's name takes: ``Ethos-U`` + ``55``,
#: ``Corstone`` + ``-320``, ``Graviton`` + ``3``, ``TPU`` + `` v4``.
MODEL_NUMBER = r"(?:-?\d{1,4}[A-Za-z]?|[ \t]v\d{1,2}[a-z]?)"
#: A snake-case name, as code names functions and kernels: ``fused_gate_sigmoid_mul_add``.
SNAKE_NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
#: ``torch`` modules that a post may name without ``torch.`` ("linalg", "fft"), never an English
#: word a heading could mean otherwise ("special", "sparse", "package" are left out).
TORCH_MODULES = frozenset({"linalg", "fft", "nn", "fx", "jit", "autograd", "optim",
                           "distributions", "func"})
_NAMESPACES: tuple[tuple[str, str, str], ...] = (
    (r"^(?:torch\.)?nn\.functional\.", "f.", "F. = torch.nn.functional."),
    (r"^torch\.nn\.", "nn.", "nn. = torch.nn."),
    # torch.nn re-exports torch.nn.parallel (nn.DataParallel); posts write
    # "torch.nn.DistributedDataParallel" for torch.nn.parallel.DistributedDataParallel
    (r"^nn\.parallel\.", "nn.", "nn.parallel. = nn."),
    # PyTorch 1.10 moved quantization to torch.ao, keeping the old names
    (r"^torch\.ao\.", "torch.", "torch.ao. = torch."),
    # the documented import: "import torch.distributed as dist"
    (r"^dist\.", "torch.distributed.", "dist. = torch.distributed."),
)
_VERSION_V = re.compile(r"(?<=[a-z])v(?=\d+(?:\.\d+)?$)")
#: A final version written with hyphens, as model ids write it: "Sonnet-4-6" is "Sonnet-4.6".
_HYPHEN_VERSION = re.compile(r"(?<=[A-Za-z]-\d)-(?=\d+$)")


def variant_key(name: str) -> tuple[str, tuple[str, ...]]:
    """The key of ``name`` with the variants of :data:`SPELLINGS`, ``::`` for ``.``, the
    ``torch.nn.``/``nn.``/``F.`` namespaces and a ``v`` before a final version number made one;
    and the variants that changed it (the reasons of a merge).

    Examples
    --------
    >>> variant_key("torch::deploy")
    ('torch.deploy', ('`::` = `.`',))
    >>> variant_key("torch.nn.Module")[0] == variant_key("nn.Module")[0]
    True
    >>> variant_key("linalg")
    ('torch.linalg', ('torch.linalg = linalg',))
    >>> variant_key("linalg.eigh")[0] == variant_key("torch.linalg.eigh")[0]
    True
    >>> variant_key("dist.init_process_group")
    ('torch.distributed.initprocessgroup', ('dist. = torch.distributed.',))
    >>> variant_key("FlashAttentionv2")[0] == name_key("FlashAttention-2")
    True
    >>> variant_key("Sonnet-4-6")
    ('sonnet4.6', ('a version written with hyphens',))
    """
    reasons = []
    if _HYPHEN_VERSION.search(name):
        name = _HYPHEN_VERSION.sub(".", name)
        reasons.append("a version written with hyphens")
    key = name_key(name)
    if "::" in key:
        key = key.replace("::", ".")
        reasons.append("`::` = `.`")
    for pattern, replacement, reason in _NAMESPACES:
        new = re.sub(pattern, replacement, key)
        if new != key:
            key = new
            reasons.append(reason)
    module = key.split(".")[0]
    if module in TORCH_MODULES and (module != "nn" or key == "nn"):  # "linalg", "linalg.eigh"
        key = "torch." + key
        reasons.append(f"torch.{module} = {module}")
    for pattern, replacement, reason in SPELLINGS:
        new = re.sub(pattern, replacement, key)
        if new != key:
            key = new
            reasons.append(reason)
    new = _VERSION_V.sub("", key)
    if new != key:
        key = new
        reasons.append("a `v` before the version number")
    return key, tuple(reasons)


#: Plurals that name something else than their singular: Hugging Face's libraries.
NOT_PLURALS = frozenset({"transformers", "datasets", "diffusers", "tokenizers", "accelerate"})
_LAST_WORD = re.compile(r"([^\s.:/]+)$")


def singular(name: str) -> str | None:
    """The singular of ``name`` when its last word is an English plural in ``-s`` of a name
    (``GradScalers``, ``nn.Modules``, ``Intel Arc GPUs``), else None.

    Not a plural: a lower-case code name (``torch.ones``, ``torch.distributions``: the ``s``
    is the API's), a word in ``-ss``/``-us``/``-is``, a short word (``Ops``), and
    :data:`NOT_PLURALS`.

    Examples
    --------
    >>> singular("GradScalers"), singular("nn.Modules"), singular("Named Tensors")
    ('GradScaler', 'nn.Module', 'Named Tensor')
    >>> singular("torch.zeros") is None and singular("Transformers") is None
    True
    """
    text = name.strip().strip("`")
    match = _LAST_WORD.search(text)
    if not match:
        return None
    word = match.group(1)
    code = not re.search(r"\s", text)
    if (not word.endswith("s") or word.endswith(("ss", "us", "is", "'s", "’s"))
            or len(word) < 4 or word.casefold() in NOT_PLURALS):
        return None
    if code and not word[:1].isupper():
        return None  # torch.ones, nn.modules as a package path, allpass
    return text[:-1]


#: Words a feature's name may add to the name of the same feature ("BetterTransformer API",
#: "CUDA Graphs APIs Integration").
GENERIC_SUFFIXES = ("api", "apis", "module", "package", "support", "feature", "integration",
                    "optimizer")
#: A first word that adds nothing to a feature's name ("PyTorch Profiler" is the Profiler).
GENERIC_PREFIXES = ("pytorch",)


#: Words a release heading adds to a model's name ("Emformer Module", "RetinaNet detection
#: model"): the last is a model word, the others a model word or the task.
MODEL_WORDS = ("model", "models", "module", "architecture", "architectures")
MODEL_TASKS = ("detection", "segmentation", "classification")
_MODEL_QUALIFIERS = MODEL_WORDS + MODEL_TASKS


def model_stem(name: str) -> str | None:
    """The model ``name`` names with model words after it, if any.

    Examples
    --------
    >>> model_stem("RetinaNet detection model"), model_stem("Wav2Vec2.0 Model")
    ('RetinaNet', 'Wav2Vec2.0')
    >>> model_stem("Model"), model_stem("Mobile models for Classification")
    (None, None)
    """
    words = name.split()
    if len(words) < 2 or words[-1].casefold() not in MODEL_WORDS:
        return None
    last = len(words) - 1
    while last > 1 and words[last - 1].casefold() in _MODEL_QUALIFIERS:
        last -= 1
    return " ".join(words[:last])


def generic_stems(name: str) -> list[tuple[str, str]]:
    """The names ``name`` reduces to without a generic first or last word, with the reason;
    ``PyTorch X`` also to the module ``torch.x`` ("PyTorch Distributed" is torch.distributed);
    a heading's name to the part after its area and a spaced dash;
    ``X Parallelism`` to ``X Parallel`` (not data parallelism: ``DataParallel`` is one of its
    two modules).

    Examples
    --------
    >>> generic_stems("BetterTransformer API")
    [('BetterTransformer', "with the generic word 'API'")]
    >>> generic_stems("PyTorch Distributed")[1]
    ('torch.distributed', "with 'PyTorch' for 'torch.'")
    >>> generic_stems("CUDA Graphs APIs Integration")[0][0]
    'CUDA Graphs'
    >>> [k for k, _ in generic_stems("Tensor Parallelism")]
    ['Tensor Parallel']
    >>> generic_stems("CUDA Graphs")
    []
    >>> generic_stems("CUDA-support in RPC using TensorPipe")
    [('CUDA-support in RPC', "with the means 'using TensorPipe'")]
    >>> generic_stems("NCCL Reliability - Async Error/Timeout Handling")
    [('Async Error/Timeout Handling', "under its area 'NCCL Reliability'")]
    """
    words = name.split()
    last = len(words)
    while last > 1 and words[last - 1].casefold() in GENERIC_SUFFIXES:
        last -= 1
    first = 1 if len(words) > 1 and words[0].casefold() in GENERIC_PREFIXES else 0
    stems = []
    for start, end in dict.fromkeys([(0, last), (first, len(words)), (first, last)]):
        if (start, end) != (0, len(words)) and end - start >= 1:
            added = [repr(w) for w in words[:start] + words[end:]]
            stems.append((" ".join(words[start:end]), "with the generic " + (
                f"word {added[0]}" if len(added) == 1 else
                f"words {', '.join(added[:-1])} and {added[-1]}")))
    if first and len(words) == 2 and re.fullmatch(r"[A-Za-z]\w*", words[1]):
        stems.append((f"torch.{words[1].lower()}", "with 'PyTorch' for 'torch.'"))
    area = _AREA.match(name)
    if area and len(area.group("rest").split()) >= 2:  # "NCCL Reliability - Async ... Handling"
        stems.append((area.group("rest"), f"under its area {area.group('area')!r}"))
    means = _MEANS.search(name)
    if means and len(name[:means.start()].split()) >= 3:  # a stem that still names one thing
        stems.append((name[:means.start()], f"with the means {means.group(0).strip()!r}"))
    key = name_key(name)
    if key.endswith("parallelism") and not key.endswith("dataparallelism"):
        stems.append((name[:-3], "with Parallelism for Parallel"))
    return [(stem, reason) for stem, reason in stems if len(name_key(stem)) >= 3]


#: A heading's area before a spaced dash, then the feature: "NCCL Reliability - Async
#: Error/Timeout Handling".
_AREA = re.compile(r"(?P<area>[^-–—]+?)\s+[-–—]\s+(?P<rest>\S.*)$")
#: How a feature is built, after its name: "CUDA-support in RPC using TensorPipe".
_MEANS = re.compile(r"\s+(?:using|via)\s+\S+$")
#: A ``torch.*`` API, or an environment variable that works as one ("TORCH_LOGS").
_API_NAME = re.compile(r"(?<![\w.])torch(?:\.[A-Za-z_]\w*)+|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")
_HEAD_WORDS = "module|api|apis|package|namespace"
_HEAD_NOUNS = rf"(?:{_HEAD_WORDS})"
#: A heading of two or three words and head nouns: "Distributed RPC framework APIs".
_SPELLED_API = re.compile(rf"(?:PyTorch\s+)?(?P<words>[A-Za-z]+(?:\s+[A-Za-z]+){{1,2}}?)"
                          rf"(?:\s+(?:framework|{_HEAD_WORDS}))+", re.I)


def heading_api(name: str) -> tuple[str, str] | None:
    """The ``torch.*`` API (or environment variable) that a feature heading names, and how,
    when the heading is about that API: "NumPy Compatible torch.fft module" (up to three words
    before the API and a head noun after it), "... via torch.linalg", "Fine-grained
    configurable logging via TORCH_LOGS", "functorch -> torch.func" (a rename). A heading
    that names another thing with the API ("torch.compile + NumPy", "torch.export-based
    Quantization") or two APIs names none.

    Examples
    --------
    >>> heading_api("NumPy Compatible torch.fft module")
    ('torch.fft', 'the heading names the API torch.fft')
    >>> heading_api("functorch -> torch.func")
    ('torch.func', 'the heading renames functorch to torch.func')
    >>> heading_api("torch.compile + NumPy") is None
    True
    >>> heading_api("Fine-grained configurable logging via TORCH_LOGS")[0]
    'TORCH_LOGS'
    >>> heading_api("Distributed RPC framework APIs")[0]
    'torch.distributed.rpc'
    """
    text = " ".join(name.replace("`", "").split())
    arrow = re.fullmatch(r"(?P<old>[^→]+?)\s*(?:->|→)\s*(?P<new>\S+)", text)
    if arrow and "-" not in arrow.group("new"):
        return arrow.group("new"), (f"the heading renames {arrow.group('old')} to "
                                              f"{arrow.group('new')}")
    apis = _API_NAME.findall(text)
    spelled = _SPELLED_API.fullmatch(text)
    if not apis and spelled:  # "Distributed RPC framework APIs": torch.distributed.rpc
        api = "torch." + ".".join(spelled.group("words").lower().split())
        return api, f"the heading's words spell the API {api}"
    if len(apis) != 1:
        return None
    api = apis[0]
    if re.fullmatch(r"(?:[\w’'-]+\s+){0,3}" + re.escape(api) + r"\s+" + _HEAD_NOUNS, text,
                    re.I) or re.fullmatch(r".+\s+via\s+" + re.escape(api), text):
        return api, f"the heading names the API {api}"
    return None


def one_letter_apart(a: str, b: str) -> bool:
    """Whether keys ``a`` and ``b`` differ by one letter added, dropped or changed inside the
    word (not its first or last letter, not a digit): "torchaaudio"/"torchaudio".

    Examples
    --------
    >>> one_letter_apart("torchaaudio", "torchaudio"), one_letter_apart("multiswag", "multiswa")
    (True, False)
    """
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) < len(b):
        a, b = b, a
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(b))
    if len(a) == len(b):
        same = a[i + 1:] == b[i + 1:]
        changed = a[i] + b[i]
    else:
        same = a[i + 1:] == b[i:]
        changed = a[i]
    return same and 0 < i < len(a) - 1 and changed.isalpha()


def one_letter_typo_in_api(a: str, b: str) -> bool:
    """Whether two dotted API names are one with a letter added or dropped inside one long part
    (9 letters or more after the first): a post's typo ("torch.nn.functiona.x",
    "torch.use_determinstic_algorithms"), not a sibling API ("torch.compile" and
    "torch.compiler", "torch.rand" and "torch.randn": short parts) nor a plural's s
    ("torch.distributions").

    Examples
    --------
    >>> one_letter_typo_in_api("torch.nn.functiona.sdpa", "torch.nn.functional.sdpa")
    True
    >>> one_letter_typo_in_api("torch.compile", "torch.compiler")
    False
    """
    parts_a, parts_b = name_key(a).split("."), name_key(b).split(".")
    if len(parts_a) != len(parts_b) or len(parts_a) < 2:
        return False
    differ = [(x, y) for x, y in zip(parts_a, parts_b, strict=True) if x != y]
    if len(differ) != 1:
        return False
    (x, y), = differ
    longer, shorter = (x, y) if len(x) > len(y) else (y, x)
    if len(longer) - len(shorter) != 1 or len(longer) < 9:
        return False
    i = next((i for i, (p, q) in enumerate(zip(longer, shorter, strict=False)) if p != q),
             len(shorter))
    plural = i == len(shorter) and longer[i] == "s"  # "torch.distributions": another name
    return i > 0 and not plural and longer[i].isalpha() and longer[:i] + longer[i + 1:] == shorter


#: The words that link a name's things ("Windows support for Distributed Training"): they do
#: not tell two feature names apart when the others are the same, in any order.
LINKING_WORDS = frozenset({"support", "for", "on", "in", "of", "the", "a", "an", "with", "to",
                            "and", "now", "new"})


def content_words(name: str) -> frozenset[str] | None:
    """The words of a feature's name but the linking ones, singular, in no order, when there
    are three or more: "Distributed training on Windows" and "Windows support for Distributed
    Training" say the same.

    Examples
    --------
    >>> content_words("Windows support for Distributed Training") == content_words(
    ...     "Distributed training on Windows")
    True
    >>> content_words("CUDA support in RPC") is None
    True
    """
    words = {singular(w) or w for w in re.findall(r"[\w./+-]+", name.casefold())}
    words -= LINKING_WORDS
    return frozenset(words) if len(words) >= 3 else None

