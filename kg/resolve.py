"""Entity resolution: one node per real thing, and for every merge the reason it was made.

The extractors name each entity as the alias pack or a rule read it; the resolver decides which
of those names are one node. The rules apply in this order, each to the groups the ones before
made, and every one is *guarded*: a wrong merge is worse than a missed one.

1. **rejected** (project file): the name is never a node; its mentions and facts are dropped.
2. **labelled** (project file): the name gets the label the project file gives it.
3. **same name**: same label, same :func:`~ptkg.names.name_key` (case, spacing, hyphens,
   underscores, quotes, backticks, ``®``/``™``, a trailing ``()``, a ``v`` before a version).
4. **pack name**: forms the alias pack (or the project file) gives one canonical name; and
   **read as**: a name whose words the extractor read as another name of the same label
   ("Linux Foundation" read as LF) is that name.
5. **variant** (same label, same :func:`~ptkg.names.variant_key`): ``torch::deploy`` =
   ``torch.deploy``; ``torch.nn.Module`` = ``nn.Module``, ``torch.nn.functional.x`` = ``F.x``;
   ``linalg`` = ``torch.linalg`` (only the modules of :data:`~ptkg.names.TORCH_MODULES`);
   parameterization = parametrization, I/O = IO, -isation = -ization; ``FlashAttentionv2`` =
   ``FlashAttention-2``; ``Sonnet-4-6`` = ``Sonnet-4.6`` (a final version in a model id's
   hyphens); ``dist.`` = ``torch.distributed.``; and a post's typo of an API: one
   letter added or dropped in one part of 9 letters or more, the typo mentioned as often at most
   (``torch.nn.functiona.x``; not ``torch.compiler``, ``torch.randn``: short parts).
6. **class** (Feature): a CamelCase class name of two words or more (``TransformerEncoder``),
   or a snake_case function name (``inference_mode``), also spelled in three words or more
   ("Scaled dot product attention 2.0"), is the one ``torch``/``nn``/``F``/``dist`` API, or
   one of a ``torch*`` library (``torchaudio.functional.forced_align``), whose last part
   it is (``nn.TransformerEncoder``, ``torch.inference_mode``); not when
   several APIs end with it, not a one-word name (``Tensor``, ``Module``, ``compile``).
7. **plural** (same label): ``GradScalers`` is ``GradScaler`` when both are names, ``Named
   Tensors`` is ``Named Tensor``; not a lower-case code name (``torch.ones``), nor the plurals
   that are names of their own (``Transformers``, ``Datasets``: Hugging Face's libraries).
8. **generic word** (Feature): the same words in another order, linking words aside ("Windows
   support for Distributed Training" is "Distributed training on Windows", when no third name
   has them); ``BetterTransformer API`` is ``BetterTransformer``, ``PyTorch
   Profiler`` is ``Profiler``, when both are names (last words API, APIs, module, package,
   support, feature, integration; first word PyTorch); "PyTorch Distributed" is the module
   ``torch.distributed``; ``Tensor Parallelism`` is ``TensorParallel`` (not data parallelism:
   ``DataParallel`` is one of its two modules); a name of three words or more with the means
   it is built with is the name without them ("CUDA-support in RPC using TensorPipe").
9. **heading API** (Feature): a heading about one ``torch.*`` API is that API when it is a
   name: "NumPy Compatible torch.fft module", "... via torch.linalg", "functorch -> torch.func";
   so is a heading of two or three words and a head noun whose words spell a ``torch`` path
   that is a name ("Distributed RPC framework APIs" is ``torch.distributed.rpc``), and a
   heading whose opening words spell a snake-case API of four parts or more, in order, is
   that API ("Fused Gate-Sigmoid-Mul-Add in MoE Shared Expert" is
   ``fused_gate_sigmoid_mul_add``); and a feature named for its devices is the feature,
   when the words after "for" or "on" name a device or platform of the graph
   ("semi-structured (2:4) sparsity for NVIDIA® GPUs").
10. **hardware** (Hardware): a product named with its vendor, its device word, its memory or
    form factor ("NVIDIA A100-SXM4-40GB GPU", "NVIDIA H100 GPU", "AWS Graviton Processor",
    "Google Cloud TPU") is the product ("A100", "H100", "Graviton", "TPU"): **same node, its
    names in aliases** (not a variant relation: a memory size or a vendor prefix does not make
    another product). Never a name with a device word into a backend or interconnect ("NVIDIA
    CUDA GPU" is not CUDA), nor into a pack form ("Nvidia Tensor Core GPU" is not the Tensor
    Cores). A name without its family word is the name with it ("Intel Cooper Lake
    Processor" = "Intel Xeon Cooper Lake CPU", "Xeon" being a node) when both name a device
    of the same kind (a CPU and a GPU never merge). A vendor and a device word alone ("Intel
    GPU", "AMD GPU") is a family node of its own, never merged into "GPU".
11. **typo** (same label, names that are not code): one letter added, dropped or changed inside
    a name of 8 letters or more, the rare form read at most twice and the other at least 5
    times and 3 times as often ("TorchaAudio" is torchaudio, "PageAttention" PagedAttention);
    never the first or last letter (MultiSWA and MultiSWAG are two methods), never a digit,
    never a code name (``torch.range`` and ``torch.arange`` are two functions).
12. **label** (across labels, same variant or singular key): TorchRL as a Feature and torchrl as
    a Library are one node. Only a ``Feature`` (the label generic rules give any unknown name:
    CamelCase, ``torch.*``) joins a node of a specific label, and a ``Hardware`` read from
    "<Name> backend" a ``Library``; the label is that specific one, which the alias pack (or
    project file) must not contradict. Two specific labels stay apart (AWS the cloud and AWS
    the company; a project file's merge can join them). Nor
    when a name takes part in a fact its new label cannot take under the contract: "functorch"
    that a release INTRODUCES stays a Feature beside the Library functorch, and the graph
    links the two by ``SAME_AS`` (:attr:`Resolver.same_things`). A Feature named as a Model
    and model words ("Emformer Module", "RetinaNet detection model") is that Model the same
    way.
13. **merge** (project file): the names are one node, named by the first.
14. **release**: a release is named by its library's node ("torchrl 0.1" is "TorchRL 0.1" once
    torchrl is TorchRL).

No rule merges two names that the alias pack or the project file give different canonical
names. The node's name is the project file's canonical name, else the pack's, else the name
the rule merged into (the singular, the API, the product, the common spelling), else the most
mentioned form. Deterministic: groups are visited in sorted order, and the same facts give
the same nodes in any order. :meth:`Resolver.reasons` gives, for each name merged into a
node under another name, why; the graph keeps them in the node's ``merged`` property.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import cache

from ptkg.extractors.patterns import ENTITY_PATTERNS, pattern_surface, read_patterns

from .curation import Curation
from .names import (
    DOTTED_API,
    SNAKE_NAME,
    content_words,
    generic_stems,
    heading_api,
    model_stem,
    name_key,
    one_letter_apart,
    one_letter_typo_in_api,
    singular,
    variant_key,
)
from .records import Entity, PostFacts
from .schema import DEVICE_LABELS, RELATION_TYPES

SAME_KEY = "same name up to case, spacing and punctuation"
#: Labels that rule 12 never merges across: a release is read by rule, a post is a post.
UNMERGED_LABELS = frozenset({"Post", "Release"})
#: Vendors a hardware name may start with, besides the pack's organizations.
VENDORS = ("Arm", "NVIDIA", "Intel", "AMD", "Apple", "Google", "AWS", "Amazon", "Qualcomm",
           "Samsung", "MediaTek", "Huawei", "IBM", "Microsoft")
#: Device words of hardware names, and the kind of device each says (a CPU is a processor).
DEVICE_WORDS = {"gpu": "gpu", "gpus": "gpu", "cpu": "cpu", "cpus": "cpu", "processor": "cpu",
                "processors": "cpu", "npu": "npu", "npus": "npu", "accelerator": "accelerator",
                "accelerators": "accelerator", "chip": "chip", "chips": "chip",
                "graphics": "gpu"}  # "Intel Arc Graphics" is the Intel Arc GPU line
#: A feature named for its devices: "semi-structured (2:4) sparsity for NVIDIA® GPUs".
_FOR_DEVICE = re.compile(r"^(?P<feature>.+?) (?:for|on) (?P<device>[^ ].*)$")
#: Words of a hardware name that do not make another product: a memory size, a form factor.
_QUALIFIER = re.compile(r"^(?:\d+gb|sxm\d*|pcie|nvl\d*|series)$", re.I)
_CODE = re.compile(r"[._(]|::")
_CLASS = re.compile(r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$|^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")
#: A function's name spelled in words, maybe with the release it came in: "Scaled dot product
#: attention 2.0" is scaled_dot_product_attention.
_WORDS_NAME = re.compile(r"^(?P<words>[A-Za-z]+(?: [A-Za-z]+)+)(?: v?\d+(?:\.\d+)*)?$")
#: The fewest words a name spelling any API's name has; what a function computes takes two.
_SPELLED_WORDS = 3


def _in_words(name: str) -> str | None:
    """The snake_case function name a name of two words or more spells, if it does."""
    found = _WORDS_NAME.match(name)
    return found["words"].lower().replace(" ", "_") if found else None


#: A function that computes what its other words name: "compute_kaldi_pitch".
_COMPUTED = re.compile(r"^compute_(?P<what>[a-z0-9]+(?:_[a-z0-9]+)+)$")


def pack_tables(records: Iterable[dict]) -> tuple[dict[tuple[str, str], str],
                                                   dict[tuple[str, str], tuple[str, ...]],
                                                   tuple[str, ...], dict[str, str]]:
    """What resolution reads of an alias pack's records: (label, key of a form) -> canonical
    name; (label, canonical name) -> its forms as written; vendor names (the organizations and
    :data:`VENDORS`), longest first; a hardware canonical name -> its ``kind``."""
    names: dict[tuple[str, str], str] = {}
    surfaces: dict[tuple[str, str], set[str]] = defaultdict(set)
    found_vendors = set(VENDORS)
    kinds: dict[str, str] = {}
    for record in records:
        surface = pattern_surface(record)
        canonical = record.get("id") or surface
        names.setdefault((record["label"], name_key(surface)), canonical)
        names.setdefault((record["label"], name_key(canonical)), canonical)
        surfaces[record["label"], canonical].add(surface)
        if record["label"] == "Organization":
            found_vendors |= {canonical, surface}
        if record["label"] == "Hardware":
            kinds.setdefault(canonical, record.get("kind", "device"))
    return (names, {k: tuple(sorted(v)) for k, v in surfaces.items()},
            tuple(sorted(found_vendors, key=lambda v: (-len(v), v))), kinds)


@cache
def _pack_records() -> list[dict]:
    return read_patterns(ENTITY_PATTERNS)


@cache
def _pack() -> tuple:
    return pack_tables(_pack_records())


def pack_names() -> dict[tuple[str, str], str]:
    """(label, key of a surface form) -> canonical name, for every entry of the alias pack."""
    return _pack()[0]


def pack_surfaces() -> dict[tuple[str, str], tuple[str, ...]]:
    """(label, canonical name) -> the surface forms the alias pack gives it, as written."""
    return _pack()[1]


def vendors() -> tuple[str, ...]:
    """Vendor names a hardware name may start with, longest first."""
    return _pack()[2]


def pack_kinds() -> dict[str, str]:
    """The ``kind`` the alias pack gives each hardware canonical name."""
    return _pack()[3]


@cache
def pack_families() -> dict[str, str]:
    """The family the alias pack gives a hardware product (``variant_of``), by the product's
    :func:`hardware_key`: ``"h100"`` -> Hopper (so "NVIDIA H100 GPU" is a Hopper too)."""
    return {key[0]: record["variant_of"] for record in _pack_records()
            if record["label"] == "Hardware" and "variant_of" in record
            and (key := hardware_key(record.get("id") or pattern_surface(record)))}


@cache
def pack_device_families() -> tuple[str, ...]:
    """The hardware families the alias pack names whose model numbers are devices
    (``"family": true``): "Ethos-U" of Ethos-U55, "Corstone" of Corstone-320, longest first."""
    return tuple(sorted({record.get("id") or pattern_surface(record) for record in _pack_records()
                         if record["label"] == "Hardware" and record.get("family")},
                        key=lambda s: (-len(s), s)))


def hardware_key(name: str) -> tuple[str, str | None, list[str]] | None:
    """The product a hardware name names: its key, the kind of device its words say, and its
    words; None when only a vendor and a device word are left ("Intel GPU").

    Examples
    --------
    >>> hardware_key("NVIDIA A100-SXM4-40GB GPU")[:2], hardware_key("H100")[:2]
    (('a100', 'gpu'), ('h100', None))
    >>> hardware_key("Intel Data Center GPU Max Series")[0], hardware_key("AMD GPU")
    ('max', None)
    """
    text = re.sub(r"[®™]|\((?:R|TM)\)", " ", name)
    for vendor in vendors():
        if text.casefold().startswith(vendor.casefold() + " "):
            text = text[len(vendor):]
            break
    words = [w for w in re.split(r"[\s\-]+", text) if w]
    kinds = {DEVICE_WORDS[w.casefold()] for w in words if w.casefold() in DEVICE_WORDS}
    words = [w for w in words if w.casefold() not in DEVICE_WORDS and not _QUALIFIER.match(w)]
    if len(words) > 2 and [w.casefold() for w in words[:2]] == ["data", "center"]:
        words = words[2:]  # "Intel Data Center GPU Max Series" is the "Intel Max Series GPU"
    if not words or len(kinds) > 1:
        return None
    return name_key(" ".join(words)), next(iter(kinds), None), [name_key(w) for w in words]


#: The fewest parts of a snake-case API a heading's words may spell.
_SPELLED_PARTS = 4


def _subsequence(parts: list[str], words: list[str]) -> bool:
    """Whether ``parts`` stand in ``words`` in order, the first part first."""
    rest = iter(words)
    return bool(parts) and parts[0] == words[0] and all(p in rest for p in parts)


class _Groups:
    """Union-find over entities: each group has a root, a label, a weight (mentions) and the
    canonical names the pack or the project file give its members."""

    def __init__(self, counts: Counter[Entity], known: dict[tuple[str, str], str],
                 curated: dict[tuple[str, str], str] | None = None):
        self.counts = counts
        self.known_names = known
        self.curated = curated or {}
        self.known_forms: dict[tuple[str, str], set[str]] = defaultdict(set)
        for (label, key), canonical in known.items():
            self.known_forms[label, canonical].add(key)
        self.label_why: dict[Entity, str] = {}  # root -> why its label, when rule 12 chose it
        self.parent: dict[Entity, Entity] = {e: e for e in counts}
        self.why: dict[Entity, str] = {}  # a former root -> why it joined its parent
        self.label: dict[Entity, str] = {e: e.label for e in counts}
        self.weight: dict[Entity, int] = dict(counts)
        self.members: dict[Entity, list[Entity]] = {e: [e] for e in counts}
        self.forced: dict[Entity, str] = {}  # root -> the name a rule gives the node
        self.forced_why: dict[Entity, str] = {}  # root -> why

    def root(self, entity: Entity) -> Entity:
        while self.parent[entity] != entity:
            entity = self.parent[entity]
        return entity

    def roots(self, label: str | None = None) -> list[Entity]:
        return sorted(e for e in self.parent if self.parent[e] == e
                      and (label is None or self.label[e] == label))

    def node(self, entity: Entity) -> Entity:
        """The entity that names the node of ``entity``'s group."""
        root = self.root(entity)
        return Entity(self.label[root], self.display(root))

    def known(self, root: Entity) -> set[str]:
        """Canonical names the pack or the project file give the group's names."""
        label = self.label[root]
        return {name for e in self.members[root]
                if (name := self.known_names.get((label, name_key(e.name))))}

    def display(self, root: Entity) -> str:
        """The group's name: a rule's (a project merge, a release's library), else the project
        file's canonical name, else the pack's, else its root's."""
        if root in self.forced:
            return self.forced[root]
        label = self.label[root]
        curated = sorted({name for e in self.members[root]
                          if (name := self.curated.get((label, name_key(e.name))))})
        known = curated or sorted(self.known(root))
        return known[0] if known else root.name

    def heavier(self, a: Entity, b: Entity) -> tuple[Entity, Entity]:
        """(heavier, lighter) of two roots: more mentions, then the more qualified API
        (``torch.nn.functional.x`` over ``F.x``), then the name first in order."""
        def rank(root: Entity) -> tuple:
            name = self.display(root)
            return -self.weight[root], -name.count("."), name
        return (a, b) if rank(a) <= rank(b) else (b, a)

    def union(self, child: Entity, parent: Entity, reason: str, *, label: str | None = None,
              guard: bool = True) -> bool:
        """Join ``child``'s group to ``parent``'s (whose root stays the root)."""
        child, parent = self.root(child), self.root(parent)
        if child == parent:
            return False
        if guard:
            a, b = self.known(child), self.known(parent)
            if a and b and not a & b and self.label[child] == self.label[parent]:
                return False  # the pack says they are two things
        self.parent[child] = parent
        self.why[child] = reason
        self.label[parent] = label or self.label[parent]
        if child in self.label_why and parent not in self.label_why:
            self.label_why[parent] = self.label_why[child]
        self.weight[parent] += self.weight.pop(child)
        self.members[parent] = sorted(self.members[parent] + self.members.pop(child))
        if child in self.forced and parent not in self.forced:
            self.forced[parent] = self.forced[child]
            self.forced_why[parent] = self.forced_why[child]
        return True

    def path(self, entity: Entity) -> list[str]:
        reasons = []
        while self.parent[entity] != entity:
            reasons.append(self.why[entity])
            entity = self.parent[entity]
        return reasons

    def index(self, label: str | None = None) -> dict[tuple[str, str], Entity | None]:
        """(label, variant key of a member or a known form) -> its group's root; None when two
        groups share it (the pack kept them apart)."""
        found: dict[tuple[str, str], Entity | None] = {}
        for root in self.roots(label):
            keys = {variant_key(e.name)[0] for e in self.members[root]}
            names = self.known(root)
            keys |= {variant_key(n)[0] for n in names | {self.display(root)}}
            keys |= {variant_key(k)[0] for n in names
                     for k in self.known_forms[self.label[root], n]}
            for key in keys:
                where = (self.label[root], key)
                found[where] = root if found.get(where, root) == root else None
        return found


class Resolver:
    """Maps every extracted entity to its node's entity, with the reason of each merge.

    Parameters
    ----------
    counts : how often each entity was read (mentions and fact endpoints).
    curation : a project's curation (:mod:`ptkg.curation`): rejects, labels, names, merges.
    roles : the facts each entity takes part in, as (type, "source" or "target", the other
        end's label): rule 12 never gives a name a label those facts do not fit.
    surfaces : the words each entity was read from (its mentions' surface forms), for rule 4.
    """

    def __init__(self, counts: Counter[Entity], curation: Curation | None = None,
                 roles: dict[Entity, set[tuple[str, str, str]]] | None = None,
                 surfaces: dict[Entity, set[str]] | None = None):
        self.curation = curation or Curation()
        self.roles = roles or {}
        self.surfaces = surfaces or {}
        self.rejected = frozenset(e for e in counts
                                  if self.curation.is_rejected(e.label, e.name))
        relabel: dict[Entity, Entity] = {}
        for entity in sorted(set(counts) - self.rejected):
            label = self.curation.label_of(entity.name)
            if label and label != entity.label and entity.label not in UNMERGED_LABELS:
                relabel[entity] = Entity(label, entity.name)
        working: Counter[Entity] = Counter()
        for entity, count in counts.items():
            if entity not in self.rejected:
                working[relabel.get(entity, entity)] += count
        known = {**pack_names()}
        known.update(self.curation.known())
        self.known = known
        groups = _Groups(working, known, self.curation.known())
        self._apart: list[tuple[Entity, Entity, list[str]]] = []  # and the unfit fact types
        self._same_name(groups)
        self._variants(groups)
        self._api_typos(groups)
        self._classes(groups)
        self._plurals(groups)
        self._generic_words(groups)
        self._heading_apis(groups)
        self._spelled_kernels(groups)
        self._for_devices(groups)
        self._hardware(groups)
        self._typos(groups)
        self._labels(groups)
        self._named_models(groups)
        self._merges(groups)
        self._releases(groups)
        self.canonical: dict[Entity, Entity] = {}
        self._reasons: dict[Entity, str] = {}
        for entity in sorted(counts):
            if entity in self.rejected:
                continue
            member = relabel.get(entity, entity)
            root = groups.root(member)
            node = groups.node(member)
            self.canonical[entity] = node
            reasons = groups.path(member)
            if member.label != node.label and root in groups.label_why:
                reasons.append(groups.label_why[root])
            if entity in relabel:
                reasons.insert(0, f"the project file labels it {member.label}")
            if not reasons and entity != node:
                reasons = [self._why_named(entity, node, groups, root)]
            if entity != node:
                self._reasons[entity] = "; ".join(reasons)
        for node in set(self.canonical.values()):
            self.canonical.setdefault(node, node)
        #: (Feature, Library or Model, why): one thing the contract's labels keep as two nodes
        self.same_things = self._same_things(groups)

    # ------------------------------------------------------------------ the rules

    def _same_name(self, groups: _Groups) -> None:
        """Rules 3 and 4: same label and key; forms the pack gives one name."""
        by_key: dict[tuple[str, str], list[Entity]] = defaultdict(list)
        for entity in sorted(groups.parent):
            by_key[entity.label, name_key(entity.name)].append(entity)
        for members in by_key.values():
            best = min(members, key=lambda e: (-groups.counts[e], e.name))
            for member in members:
                groups.union(member, best, SAME_KEY)
        by_known: dict[tuple[str, str], list[Entity]] = defaultdict(list)
        for root in groups.roots():
            for name in sorted(groups.known(root)):
                by_known[groups.label[root], name].append(root)
        for (_, name), roots in sorted(by_known.items()):
            source = "the project file" if (roots[0].label, name_key(name)) in \
                self.curation.known() else "the alias pack"
            for root in roots[1:]:
                groups.union(root, roots[0], f"{source} names it {name}")
        index = {(e.label, name_key(e.name)): e for e in sorted(groups.parent)}
        for entity in sorted(groups.parent):
            for surface in sorted(self.surfaces.get(entity, ())):
                other = index.get((entity.label, name_key(surface)))
                if other is None or groups.root(other) == groups.root(entity):
                    continue
                heavy, light = groups.heavier(groups.root(entity), groups.root(other))
                groups.union(light, heavy, f"the extractor read {surface!r} as {entity.name}")

    def _variants(self, groups: _Groups) -> None:
        """Rule 5: same label, same variant key."""
        by_key: dict[tuple[str, str], list[Entity]] = defaultdict(list)
        for root in groups.roots():
            if groups.label[root] in UNMERGED_LABELS:
                continue
            for key in sorted({variant_key(e.name)[0] for e in groups.members[root]}):
                by_key[groups.label[root], key].append(root)
        for roots in by_key.values():
            roots = sorted({groups.root(r) for r in roots})
            while len(roots) > 1:
                heavy, light = groups.heavier(roots[0], roots[1])
                steps = sorted({s for r in (heavy, light) for e in groups.members[r]
                                for s in variant_key(e.name)[1]})
                groups.union(light, heavy, f"{', '.join(steps) or 'variant'} "
                                           f"({groups.display(heavy)})")
                roots = sorted({groups.root(r) for r in roots})

    def _api_typos(self, groups: _Groups) -> None:
        """Rule 5, for code: a dotted API with a letter added or dropped in one long part of
        another, mentioned as often at most, is that API."""
        names = {r: groups.display(r) for r in groups.roots("Feature")}  # named once
        apis = {r: name for r, name in names.items() if DOTTED_API.fullmatch(name)}
        for rare, name in apis.items():
            if groups.weight.get(rare, 3) > 2:  # common, or no longer a root
                continue
            matches = {groups.root(c) for c, other in apis.items()
                       if one_letter_typo_in_api(name, other)} - {groups.root(rare)}
            matches = {c for c in matches if groups.weight[c] >= groups.weight[rare]}
            if len(matches) == 1:
                (target,) = matches
                heavy, light = groups.heavier(rare, target)
                groups.union(light, heavy, f"one letter apart from {groups.display(heavy)} "
                                           "in an API's name (a typo)")

    def _classes(self, groups: _Groups) -> None:
        """Rule 6: a bare class or function name is the one torch API that ends with it."""
        apis: dict[str, set[Entity]] = defaultdict(set)
        computed: dict[str, set[Entity]] = defaultdict(set)
        for root in groups.roots("Feature"):
            for entity in groups.members[root]:
                text = entity.name.strip("`").removesuffix("()")
                if re.match(r"^(?:torch\w*|nn|F|dist)\.[\w.]+$", text):
                    apis[text.rpartition(".")[2]].add(root)  # the class name, as written
                    what = _COMPUTED.match(text.rpartition(".")[2])
                    if what:  # "compute_kaldi_pitch" computes the "Kaldi Pitch" feature
                        computed[what["what"]].add(root)
        for root in groups.roots("Feature"):
            names = {e.name for e in groups.members[root]}
            names |= {form for name in groups.known(root)
                      for form in pack_surfaces().get(("Feature", name), ())}
            bare = [n for n in sorted(names) if _CLASS.match(n)]
            spelled = [f for n in sorted(names) if (f := _in_words(n))]
            targets = {groups.root(t) for name in bare + [
                f for f in spelled if f.count("_") >= _SPELLED_WORDS - 1]
                for t in apis.get(name, ())}
            targets |= {groups.root(t) for f in spelled  # "Kaldi Pitch" of compute_kaldi_pitch
                        for t in computed.get(f, ())}
            targets.discard(groups.root(root))
            if len(targets) == 1:
                (target,) = targets
                kind = "class" if bare and "_" not in bare[0] else "function"
                how = "" if bare else ", spelled in words"
                groups.union(root, target, f"the {kind} {groups.display(target)}{how}")

    def _plurals(self, groups: _Groups) -> None:
        """Rule 7: a plural is its singular, when both are names."""
        index = groups.index()
        for root in groups.roots():
            label = groups.label[root]
            if label in UNMERGED_LABELS:
                continue
            for entity in groups.members[root]:
                single = singular(entity.name)
                target = index.get((label, variant_key(single)[0])) if single else None
                if target is not None and groups.root(target) != groups.root(root):
                    groups.union(root, target, f"plural of {groups.display(target)}")
                    break

    def _generic_words(self, groups: _Groups) -> None:
        """Rule 8: a feature's name with a generic first or last word is the feature."""
        index = groups.index("Feature")
        for root in groups.roots("Feature"):
            done = False
            for entity in groups.members[root]:
                for stem, reason in generic_stems(entity.name):
                    target = index.get(("Feature", variant_key(stem)[0]))
                    if target is not None and groups.root(target) != groups.root(root):
                        groups.union(root, target, f"{groups.display(target)} {reason}")
                        done = True
                        break
                if done:
                    break
        by_words: dict[frozenset[str], set[Entity]] = defaultdict(set)
        for root in groups.roots("Feature"):
            for entity in groups.members[root]:
                if words := content_words(entity.name):
                    by_words[words].add(root)
        for _, found in sorted(by_words.items(), key=lambda item: sorted(item[0])):
            roots = sorted({groups.root(r) for r in found})
            if len(roots) == 2:  # more would be a family of names, not one feature's two
                heavy, light = groups.heavier(*roots)
                groups.union(light, heavy, f"the words of {groups.display(heavy)} in "
                                           "another order")

    def _heading_apis(self, groups: _Groups) -> None:
        """Rule 9: a heading about one torch API is that API."""
        index = groups.index("Feature")
        for root in groups.roots("Feature"):
            for entity in groups.members[root]:
                found = heading_api(entity.name)
                target = index.get(("Feature", variant_key(found[0])[0])) if found else None
                if target is not None and groups.root(target) != groups.root(root):
                    groups.union(root, target, found[1])
                    break

    def _spelled_kernels(self, groups: _Groups) -> None:
        """Rule 9: a heading whose opening words spell a snake-case API, in order, is that API
        ("Fused Gate-Sigmoid-Mul-Add in MoE Shared Expert" is ``fused_gate_sigmoid_mul_add``,
        "Fused QK-RMSNorm + Partial RoPE + Gate Split" is ``fused_qk_rmsnorm_rope_gate``)."""
        apis: dict[str, list[tuple[list[str], Entity]]] = defaultdict(list)
        for root in groups.roots("Feature"):
            parts = groups.display(root).split("_")
            if len(parts) >= _SPELLED_PARTS and SNAKE_NAME.fullmatch(groups.display(root)):
                apis[parts[0]].append((parts, root))
        for root in groups.roots("Feature"):
            words = re.findall(r"[a-z0-9]+", groups.display(root).lower())
            for parts, api in apis.get(words[0] if words else "", []):
                if api != root and _subsequence(parts, words) and \
                        groups.root(api) != groups.root(root):
                    groups.union(root, api, f"its words spell the API {groups.display(api)}")
                    break

    def _for_devices(self, groups: _Groups) -> None:
        """Rule 9: a feature named for the devices it runs on is the feature
        ("semi-structured (2:4) sparsity for NVIDIA® GPUs" is 2.3's "semi-structured (2:4)
        sparsity"), when the name after "for" or "on" is a device or platform of the graph."""
        devices = {key for label in DEVICE_LABELS
                   for (_, key), root in groups.index(label).items() if root is not None}
        index = groups.index("Feature")
        for root in groups.roots("Feature"):
            for entity in groups.members[root]:
                found = _FOR_DEVICE.match(entity.name)
                device = found.group("device") if found else ""
                if not found or not {variant_key(d)[0] for d in (device, singular(device))
                                     if d} & devices:
                    continue  # variant_key ignores marks: "NVIDIA® GPUs" is NVIDIA GPUs
                target = index.get(("Feature", variant_key(found.group("feature"))[0]))
                if target is not None and groups.root(target) != groups.root(root):
                    groups.union(root, target, f"{groups.display(target)} for the devices "
                                               f"{found.group('device')!r}")
                    break

    def _hardware(self, groups: _Groups) -> None:
        """Rule 10: hardware products named with vendor, device word, memory, form factor."""
        products: dict[Entity, list[tuple[str, str | None, list[str]]]] = {}
        kinds: dict[Entity, set[str]] = {}
        forms: dict[str, Entity | None] = {}  # key of an alias pack form -> its group
        for root in groups.roots("Hardware"):
            names = {e.name for e in groups.members[root]} | {groups.display(root)}
            products[root] = [k for name in sorted(names) if (k := hardware_key(name))]
            kinds[root] = {kind for _, kind, _ in products[root] if kind}
            for name in groups.known(root):
                for key in groups.known_forms["Hardware", name]:
                    forms[key] = root if forms.get(key, root) == root else None
        named = [k for (label, _), name in self.known.items() if label == "Hardware"
                 if (k := hardware_key(name))]
        families = {words[0] for found in [*products.values(), named] for _, _, words in found
                    if len(words) == 1}  # "xeon", of "Intel Xeon"

        def kind_of(root: Entity) -> set[str]:
            return {k for member in groups.members[root] for k in kinds.get(member, ())}

        def compatible(a: Entity, b: Entity, both: bool = False) -> bool:
            ka, kb = kind_of(groups.root(a)), kind_of(groups.root(b))
            if (ka or kb) and {pack_kinds().get(groups.display(groups.root(r)), "device")
                               for r in (a, b)} != {"device"}:
                return False  # "NVIDIA CUDA GPU" is a GPU, not the backend CUDA
            return (ka == kb and bool(ka)) if both else not (ka and kb and ka != kb)

        shared: dict[str, list[tuple[Entity, bool]]] = defaultdict(list)
        for root in groups.roots("Hardware"):
            for key, kind, words in products[root]:
                # a pack form ("Cloud TPU" of TPU) once the vendor is dropped, not a device word:
                # "Nvidia Tensor Core GPU" is a GPU, not the pack's "Tensor Core"
                target = forms.get(key) if kind is None else None
                if target is not None and compatible(root, target) and groups.union(
                        root, target, f"the hardware {groups.display(target)} named with its "
                                      "vendor"):
                    break
                shared[key].append((root, False))
                if len(words) > 1 and words[0] in families:
                    shared["".join(words[1:])].append((root, True))
        for _, entries in sorted(shared.items()):
            entries = sorted(set(entries))
            for (a, a_family), (b, b_family) in zip(entries, entries[1:], strict=False):
                family = a_family or b_family
                if groups.root(a) == groups.root(b) or not compatible(a, b, both=family):
                    continue
                heavy, light = groups.heavier(groups.root(a), groups.root(b))
                groups.union(light, heavy, f"the hardware {groups.display(heavy)} named with "
                             + ("or without its family name" if family else
                                "its vendor, a device word, its memory or form factor"))

    def _typos(self, groups: _Groups) -> None:
        """Rule 11: a rare name one letter away from a common one (not code)."""
        for label in sorted({groups.label[r] for r in groups.roots()} - UNMERGED_LABELS):
            roots = [r for r in groups.roots(label) if not _CODE.search(groups.display(r))]
            common = [r for r in roots if groups.weight[r] >= 5]
            for rare in (r for r in roots if groups.weight[r] <= 2):
                key = name_key(groups.display(rare))
                if len(key) < 8:
                    continue
                matches = [c for c in common if groups.weight[c] >= 3 * groups.weight[rare]
                           and one_letter_apart(key, name_key(groups.display(c)))]
                if len(matches) == 1:
                    target = matches[0]
                    groups.union(rare, target, f"typo of {groups.display(target)} (one letter; "
                                               f"{groups.weight[rare]} against "
                                               f"{groups.weight[target]} mentions)")

    def _labels(self, groups: _Groups) -> None:
        """Rule 12: one name across labels is one node, with a label chosen by rule."""
        by_key: dict[str, set[Entity]] = defaultdict(set)
        for root in groups.roots():
            if groups.label[root] in UNMERGED_LABELS:
                continue
            for entity in groups.members[root]:
                by_key[variant_key(entity.name)[0]].add(root)
                if single := singular(entity.name):
                    by_key[variant_key(single)[0]].add(root)
        for key, roots in sorted(by_key.items()):
            roots = {groups.root(r) for r in roots}
            labels = {groups.label[r] for r in roots}
            if len(labels) < 2:
                continue
            target, why = self._label_for(groups, roots, key)
            if target is None:
                continue
            into = sorted((r for r in roots if groups.label[r] == target),
                          key=lambda r: (-groups.weight[r], groups.display(r)))[0]
            for other in sorted(roots - {into}):
                if groups.label[other] == target:
                    continue
                if unfit := self._unfit(groups, other, target):
                    self._apart.append((other, into, unfit))
                    continue
                heavy, _ = groups.heavier(into, other)
                name = groups.display(heavy)
                known = groups.known(into) | groups.known(other)
                groups.union(other, into, f"read as a {groups.label[other]}; the same name as "
                                          f"the {target} {groups.display(into)}",
                             label=target, guard=False)
                into = groups.root(into)
                groups.label_why[into] = f"label {target}: {why}"
                if not known and name != groups.display(into):
                    groups.forced[into] = name  # the most read form names the node
                    groups.forced_why[into] = f"{name} is the most read form"

    def _named_models(self, groups: _Groups) -> None:
        """Rule 12 for a model: a Feature named as a Model and a model word ("Emformer
        Module", "RetinaNet detection model") is that Model."""
        models = groups.index("Model")
        for root in groups.roots("Feature"):
            if groups.known(root):  # the pack or the project file names it a Feature
                continue
            name = groups.display(root)
            stem = model_stem(name)
            model = models.get(("Model", variant_key(stem)[0])) if stem else None
            if model is None:
                continue
            model = groups.root(model)
            if unfit := self._unfit(groups, root, "Model"):
                self._apart.append((root, model, unfit))
            else:
                groups.union(root, model, f"{stem} and a model word, the Model "
                                          f"{groups.display(model)}", label="Model")

    def _unfit(self, groups: _Groups, root: Entity, label: str) -> list[str]:
        """The types of the group's facts that ``label`` cannot take under the contract (none:
        the group may take ``label``)."""
        return sorted({kind for member in groups.members[root]
                       for kind, side, other in self.roles.get(member, ())
                       if not RELATION_TYPES[kind].fits(*((label, other) if side == "source"
                                                           else (other, label)))})

    def _same_things(self, groups: _Groups) -> list[tuple[Entity, Entity, str]]:
        """The pairs rule 12 kept apart that ``SAME_AS`` links, a Feature to a Library or
        Model, with why: the fact types that kept them apart."""
        kinds: dict[tuple[Entity, Entity], set[str]] = defaultdict(set)
        for apart, into, unfit in self._apart:
            pair = groups.node(apart), groups.node(into)
            if pair[0] != pair[1] and pair[0].label == "Feature" and pair[1].label in (
                    "Library", "Model"):  # a backend's twins: graph._backend_twins
                kinds[pair].update(unfit)
        return [(feature, other, f"the same thing; a {feature.label} for its "
                                 f"{' and '.join(sorted(kinds[feature, other]))}, which a "
                                 f"{other.label} cannot take")
                for feature, other in sorted(kinds)]

    def _label_for(self, groups: _Groups, roots: set[Entity],
                   key: str) -> tuple[str | None, str]:
        labels = {groups.label[r] for r in roots}
        specific = labels - {"Feature"}
        if {"Library", "Hardware"} <= specific:
            specific.discard("Hardware")  # "FFmpeg backend" reads a Hardware
        if len(specific) != 1:
            return None, ""  # two specific labels: AWS the cloud and AWS the company
        (label,) = specific
        known = {groups.label[r] for r in roots if groups.known(r)}
        if known - {label}:
            return None, ""  # the pack gives the name another label
        if known:
            curated = any((label, name_key(n)) in self.curation.known()
                          for r in roots for n in groups.known(r))
            return label, "the project file's label" if curated else "the alias pack's label"
        if "Hardware" in labels and label == "Library":
            return label, "a Library, not a Hardware read from \"<name> backend\""
        return label, "a label more specific than Feature, the generic rules' label"

    def _merges(self, groups: _Groups) -> None:
        """Rule 13: the project file's merges."""
        for merge in self.curation.merges:
            keys = [name_key(n) for n in merge.names]
            roots = sorted({groups.root(e) for e in groups.parent
                            if name_key(e.name) in keys})
            if not roots:
                continue
            labels = {groups.label[r] for r in roots}
            label = merge.label or (labels.pop() if len(labels) == 1 else
                                    self._label_for(groups, set(roots), keys[0])[0]
                                    or groups.label[groups.heavier(roots[0], roots[-1])[0]])
            into = roots[0]
            for root in roots[1:]:
                groups.union(root, into, f"the project file merges it into {merge.names[0]}",
                             label=label, guard=False)
            into = groups.root(into)
            groups.label[into] = label
            groups.forced[into] = merge.names[0]
            groups.forced_why[into] = f"the project file merges it into {merge.names[0]}"

    def _releases(self, groups: _Groups) -> None:
        """Rule 14: a release is named by its library's node."""
        libraries = {key: root for (label, key), root in groups.index("Library").items()
                     if root is not None}
        by_name: dict[str, list[Entity]] = defaultdict(list)
        for root in groups.roots("Release"):
            library, _, version = groups.display(root).rpartition(" ")
            library_root = libraries.get(variant_key(library)[0])
            name = groups.display(root) if library_root is None else \
                f"{groups.display(library_root)} {version}"
            by_name[name].append(root)
        for name, roots in sorted(by_name.items()):
            into = roots[0]
            for root in roots[1:]:
                groups.union(root, into, f"a release of {name.rpartition(' ')[0]}", guard=False)
            into = groups.root(into)
            if groups.display(into) != name:
                groups.forced[into] = name
                groups.forced_why[into] = f"a release of {name.rpartition(' ')[0]}"

    def _why_named(self, entity: Entity, node: Entity, groups: _Groups, root: Entity) -> str:
        """Why the root of a group, merged into by others, has the node's name."""
        if name_key(entity.name) == name_key(node.name):
            return SAME_KEY
        if self.curation.known().get((node.label, name_key(entity.name))) == node.name:
            return f"the project file names it {node.name}"
        if self.known.get((node.label, name_key(entity.name))) == node.name:
            return f"the alias pack names it {node.name}"
        if root in groups.forced:
            return groups.forced_why[root]
        carrier = next((m for m in groups.members[root] if m != root and (
            m.name == node.name or self.known.get((node.label, name_key(m.name))) == node.name)),
            None)
        if carrier is None:
            return f"named {node.name}"
        source = " (the alias pack's name)" if carrier.name != node.name else ""
        return f"one node with {node.name}{source}: {'; '.join(groups.path(carrier))}"

    # ------------------------------------------------------------------ use

    @classmethod
    def from_results(cls, results: Iterable[PostFacts],
                     curation: Curation | None = None) -> Resolver:
        counts: Counter[Entity] = Counter()
        roles: dict[Entity, set[tuple[str, str, str]]] = defaultdict(set)
        surfaces: dict[Entity, set[str]] = defaultdict(set)
        for result in results:
            counts.update(m.entity for m in result.mentions)
            for mention in result.mentions:
                if not mention.local:  # "caching allocator" under "... Caching allocator"
                    surfaces[mention.entity].add(mention.surface)
            for fact in result.facts:
                counts.update(e for e in (fact.source, fact.target) if e.label != "Post")
                roles[fact.source].add((fact.type, "source", fact.target.label))
                roles[fact.target].add((fact.type, "target", fact.source.label))
        return cls(counts, curation, roles, surfaces)

    def resolve(self, entity: Entity) -> Entity | None:
        """The node's entity of ``entity``; None when the project file rejects it."""
        if entity in self.rejected:
            return None
        return self.canonical.get(entity, entity)

    def reason(self, entity: Entity) -> str | None:
        """Why ``entity`` is merged into a node of another name or label (None: it is not)."""
        return self._reasons.get(entity)

    def reasons(self) -> dict[Entity, str]:
        """Every merged entity and why, sorted."""
        return dict(sorted(self._reasons.items()))
