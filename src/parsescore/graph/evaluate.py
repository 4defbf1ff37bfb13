"""Scoring an extracted graph against a ground-truth graph (docling-graph script 16's eval.json).

One pass builds a :class:`GraphMatching` (identity indexes, strict matches, relaxed alias pairs,
singleton-root and structural-alignment pairs); every number of the report is derived from it.
Matching is grouped by class (and, for relaxed matching, by digit signature), so nodes of
different classes are never compared.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property, lru_cache
from itertools import chain, compress, count
from operator import itemgetter
from pathlib import Path
from typing import Any, Literal, get_args

from parsescore.core.errors import InputError
from parsescore.graph.canon import (
    NAME_LIKE_FIELDS,
    SquashedText,
    canonical_identity_value,
    canonical_text,
    digit_runs,
    drop_accents,
    is_filled,
    loose_text,
    squash,
)
from parsescore.graph.micro import entry_counts
from parsescore.graph.micro import micro as micro_scores
from parsescore.graph.options import AlignMode, EnumIds
from parsescore.graph.template import GraphData
from parsescore.graph.verbatim import LooseSource

__all__ = ["GraphMatching", "build_report", "evaluate_graphs", "match_graphs"]

Key = tuple[str, tuple[str, ...]]
"""Node identity: (class name, canonical values of its identity fields)."""
Rung = Literal["strict", "relaxed", "aligned"]

META_KEYS = frozenset({"id", "label", "type", "__class__", "__provenance__", "merged_aliases"})
"""Node attributes that are bookkeeping, never compared."""
VERBATIM_MIN_CHARS = 80
STRONG_CONTAINMENT_CHARS = 40
FANOUT_MIN_EDGES = 5
FANOUT_EXTRACTED_SHARE = 0.6
FANOUT_TRUTH_SHARE = 0.4


def node_class(node: dict[str, Any]) -> str:
    """A node's class: ``__class__``, else ``label``."""
    return str(node.get("__class__") or node.get("label") or "")


def _enum_value(value: Any) -> Any:
    """An Enum member (also inside a list) replaced by its value, for ``enum_ids="value"``."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, list):
        return [_enum_value(item) for item in value]
    return value


def node_key(
    node: dict[str, Any],
    id_fields_by_class: dict[str, list[str]],
    enum_ids: EnumIds = "reference",
) -> Key | None:
    """Identity key of a node, or None when all its canonical identity values are empty.

    ``enum_ids="reference"`` canonicalises an Enum member as the reference does, through
    ``str()`` (``"Color.RED"`` outside name fields, which never equals the extracted
    ``"red"``); ``"value"`` canonicalises its value instead.
    """
    cls = node_class(node)
    values = tuple(
        canonical_identity_value(
            name,
            node.get(name) if enum_ids == "reference" else _enum_value(node.get(name)),
        )
        for name in id_fields_by_class.get(cls, [])
    )
    if not any(values):
        return None
    return (cls, values)


@dataclass
class IdentityIndex:
    """Nodes of one graph by identity key (first node with a key wins)."""

    by_key: dict[Key, dict[str, Any]]
    unkeyed: list[dict[str, Any]]
    id_to_key: dict[str, Key]

    @classmethod
    def build(
        cls,
        nodes: list[dict[str, Any]],
        id_fields_by_class: dict[str, list[str]],
        enum_ids: EnumIds = "reference",
    ) -> IdentityIndex:
        by_key: dict[Key, dict[str, Any]] = {}
        unkeyed: list[dict[str, Any]] = []
        id_to_key: dict[str, Key] = {}
        if enum_ids != "reference":
            for node in nodes:
                found = node_key(node, id_fields_by_class, enum_ids)
                if found is None:
                    unkeyed.append(node)
                    continue
                by_key.setdefault(found, node)
                id_to_key[str(node.get("id"))] = found
            return cls(by_key, unkeyed, id_to_key)
        # node_key, without its per-node calls: a plain string value goes straight to the
        # cached canonical form
        text_form = canonical_text
        for node in nodes:
            node_cls = str(node.get("__class__") or node.get("label") or "")
            names = id_fields_by_class.get(node_cls, ())
            if len(names) == 1:  # the usual identity, without a comprehension
                name = names[0]
                raw = node.get(name)
                value = (
                    text_form(name in NAME_LIKE_FIELDS, raw)
                    if type(raw) is str
                    else canonical_identity_value(name, raw)
                )
                if not value:
                    unkeyed.append(node)
                    continue
                key: Key = (node_cls, (value,))
            else:
                values = tuple([canonical_identity_value(n, node.get(n)) for n in names])
                if not any(values):
                    unkeyed.append(node)
                    continue
                key = (node_cls, values)
            by_key.setdefault(key, node)
            id_to_key[str(node.get("id"))] = key
        return cls(by_key, unkeyed, id_to_key)


def relaxed_pairs(truth_keys: list[Key], extracted_keys: list[Key]) -> list[tuple[Key, Key]]:
    """Pair unmatched identities by unique same-class containment with equal digit runs.

    Truth keys are taken in order; an extracted key qualifies when its joined canonical text
    contains or is contained in the truth's (canonical or squashed ``[a-z0-9]`` form). A pair is
    made only when exactly one unused extracted key qualifies.
    """
    groups: dict[tuple[str, tuple[str, ...]], list[tuple[int, str, str]]] = defaultdict(list)
    for index, key in enumerate(extracted_keys):
        text = "".join(key[1])
        if text:
            groups[key[0], digit_runs(text)].append((index, text, squash(text)))
    used: set[int] = set()
    pairs: list[tuple[Key, Key]] = []
    for key_a in truth_keys:
        text_a = "".join(key_a[1])
        if not text_a:
            continue
        squash_a = squash(text_a)
        found: int | None = None
        ambiguous = False
        for index, text_b, squash_b in groups.get((key_a[0], digit_runs(text_a)), ()):
            if index in used:
                continue
            if (
                text_a in text_b
                or text_b in text_a
                or (squash_a and squash_b and (squash_a in squash_b or squash_b in squash_a))
            ):
                if found is not None:
                    ambiguous = True
                    break
                found = index
        if found is not None and not ambiguous:
            used.add(found)
            pairs.append((key_a, extracted_keys[found]))
    return pairs


_ID_MIN_CHARS = 3
"""Identity values whose squash is shorter are never looked up in the source."""
_PACE = 8
"""The word check gives a class up once its keys found are fewer than its keys times the share
of the source gone through, over this (a quarter of the pace that reaches half at the end)."""


def detect_synthetic_classes(truth_keys: list[Key], source: str | SquashedText) -> set[str]:
    """Classes whose truth identifiers are mostly (< half found) absent from the source text.

    A key is found when any canonical value, squashed and at least 3 characters long, occurs in
    the squashed source. Most classes are not synthetic and only need half their keys shown
    found: the source's cheap word check (:meth:`SquashedText.proven`) goes first, chunk by
    chunk while a class needs it and keeps pace. The classes still open then get the exact
    index: their keys' values are looked up in its batches, cheapest first, only while some
    class of theirs is undecided (decided once half its keys are found, or too few are left
    unsettled to reach half).
    """
    text = source if isinstance(source, SquashedText) else SquashedText(source)
    classes = [cls for cls, _ in truth_keys]
    totals = Counter(classes)
    hits = dict.fromkeys(totals, 0)
    found = [False] * len(truth_keys)
    values = [value for _, key_values in truth_keys for value in key_values]
    owners = [index for index, (_, key_values) in enumerate(truth_keys) for _ in key_values]
    checked = set(totals)  # the classes the word check still works for
    for proven, covered in text.proven(values, _ID_MIN_CHARS):
        for position in proven:
            index = owners[position]
            if not found[index]:
                found[index] = True
                hits[classes[index]] += 1
        # A class leaves once half its keys are found, or when far behind the pace to half
        # (a synthetic class: the exact index then settles it, without the rest of the text).
        checked = {
            cls
            for cls in checked
            if 2 * hits[cls] < totals[cls] and _PACE * hits[cls] >= covered * totals[cls]
        }
        if not checked:
            break
    # the exact index for the keys of the classes still open, not shown found yet
    open_classes = {cls for cls, total in totals.items() if 2 * hits[cls] < total}
    if not open_classes:
        return set()
    # per class: [keys, keys found, keys not found that still have values to look up]
    tally = {cls: [totals[cls], hits[cls], 0] for cls in open_classes}
    keys_of: dict[str, list[int]] = {}
    unchecked = [0] * len(truth_keys)
    for index, (cls, key_values) in enumerate(truth_keys):
        if cls not in open_classes or found[index]:
            continue
        candidates = {c for v in key_values if v and len(c := squash(v)) >= _ID_MIN_CHARS}
        for candidate in candidates:
            keys_of.setdefault(candidate, []).append(index)
        unchecked[index] = len(candidates)
        tally[cls][2] += bool(candidates)

    def undecided(cls: str) -> bool:
        total, hit_count, open_keys = tally[cls]
        return 2 * hit_count < total <= 2 * (hit_count + open_keys)

    source_index = text.index
    for batch in source_index.batches(sorted(keys_of)):
        undecided_classes = {cls for cls in tally if undecided(cls)}
        if not undecided_classes:
            break
        live = (
            batch
            if len(undecided_classes) == len(tally)
            else [c for c in batch if any(classes[k] in undecided_classes for k in keys_of[c])]
        )
        for candidate, hit in zip(live, source_index.contains(live), strict=True):
            for k in keys_of[candidate]:
                if found[k]:
                    continue
                counts = tally[classes[k]]
                unchecked[k] -= 1
                if hit:
                    found[k] = True
                    counts[1] += 1
                    counts[2] -= 1
                elif not unchecked[k]:
                    counts[2] -= 1
    return {cls for cls, (total, hit_count, _) in tally.items() if 2 * hit_count < total}


_Scalar = str | int | float
Prepared = dict[str, str | set[str]]
"""A node's compared fields (:func:`_comparable_fields`)."""


@lru_cache(maxsize=1 << 16)
def _loose_short(text: str) -> str:
    return loose_text(text)


def _loose_value(value: Any) -> str:
    """:func:`loose_text` of an attribute value; short ones (units, amounts, categories,
    repeated across nodes) are cached."""
    text = str(value)
    return _loose_short(text) if len(text) <= 200 else loose_text(text)


def _loose_number(value: int | float) -> str:
    """:func:`_loose_value` of an int or a float, without :func:`loose_text`: their text is
    ASCII without spaces or capitals, and a leading minus sign is a glued bullet, dropped."""
    return str(value).lstrip("-")


def _comparable_fields(node: dict[str, Any], names: Iterable[str]) -> Prepared:
    """Filled fields among ``names`` in comparison form: the loose text of a scalar, the set of
    loose texts of a list's scalars. ``names`` leaves out the meta keys, and for an extracted
    node the fields no truth node of its class has (never compared)."""
    out: Prepared = {}
    get = node.get
    for name in names:
        value = get(name)
        if value is None:
            continue
        kind = type(value)
        if kind is str and len(value) <= 200:  # the common cases first, without the calls
            if value.strip():
                out[name] = _loose_short(value)
        elif kind is float or kind is int:
            out[name] = _loose_number(value)
        elif kind is dict or not is_filled(value):
            continue
        elif isinstance(value, _Scalar):
            out[name] = _loose_value(value)
        elif isinstance(value, list):
            out[name] = {_loose_value(x) for x in value if isinstance(x, _Scalar)}
    return out


def _score_prepared(truth: Prepared, extracted: Prepared) -> float:
    score = 0.0
    for name, a in truth.items():
        b = extracted.get(name)
        if b is None:
            continue
        if isinstance(a, str):
            if not isinstance(b, str) or not a or not b:
                continue
            if a == b:
                score += 1.0
            elif len(a) >= 4 and len(b) >= 4 and (a in b or b in a):
                score += 1.0 if min(len(a), len(b)) >= STRONG_CONTAINMENT_CHARS else 0.5
        elif not isinstance(b, str) and a & b:
            score += 0.5
    return score


def pair_score(truth_node: dict[str, Any], extracted_node: dict[str, Any]) -> float:
    """Attribute-overlap score of two same-class nodes (structural alignment).

    Over the truth's filled fields whose extracted value is filled: equal normalised scalars
    +1; containment (both ≥ 4 chars) +1 when the shorter is ≥ 40 chars, else +0.5; lists with
    a shared normalised element +0.5.
    """
    names = truth_node.keys() - META_KEYS
    return _score_prepared(
        _comparable_fields(truth_node, names), _comparable_fields(extracted_node, names)
    )


GRAM = 4
"""Containment needs both texts ≥ 4 characters, so a contained text holds all the 4-character
windows of the other."""
SMALL_BLOCK = 16
"""Blocks of pairs up to this size are listed in Python, larger ones built in numpy."""
BRUTE_FORCE_PAIRS = 4096
"""Classes with at most this many truth×extracted pairs are scored pair by pair."""
DENSE_CELLS = 1 << 24
"""Cells of one score matrix (int16: 32 MB); a larger class is scored in bands of rows."""
LISTED_BLOCK = 64
"""Blocks of pairs up to this size are listed pair by pair by :func:`_sparse_greedy`; larger
ones are handled per group of nodes sharing the same large blocks."""
SPARSE_WORK = 1_000_000
"""Most steps :func:`_sparse_greedy` may take (listed pairs, group pairs, truth nodes × their
pairs of groups) before a class is scored in numpy matrices instead (measured: a step costs
about as much as 30 matrix cells, and importing numpy as 500,000 steps)."""

SEARCH_STEPS = 10_000_000
"""Most steps (:func:`_containment_cost`) containment may take in plain Python for one field
and direction, about 0.2 s (what importing numpy and hashing the windows of 3,500 texts take);
beyond, the windows are hashed in numpy."""
SLICE_STEPS = 5
CHECK_STEPS = 5

Block = tuple[str, list[int], list[int], int]
"""``(field, truth positions, extracted positions, half-points)``: every pair of the product
gains the half-points (scores are multiples of 0.5) for that field."""


def _contained_in_python(
    needles: list[str],
    texts: list[str],
    budget: int,
    words: tuple[list[list[str]], list[list[str]]] | None = None,
) -> list[tuple[int, int]] | None:
    """``(i, j)`` for every ``needles[i]`` (distinct) inside a different ``texts[j]``, or None
    when finding them would take more than ``budget`` steps (:func:`_containment_cost`).
    ``words``: the needles' and the texts' words (split at spaces), when already split.

    A needle of three words or more holds its inner words whole, as words of any text holding
    it: it is looked for (``in``) only in the texts having the inner word fewest texts have
    (words are counted in C; only the words some needle picks are indexed). Shorter needles
    are found by :func:`_contained_by_search` or :func:`_contained_by_slices`.
    """
    needle_words = [n.split(" ") for n in needles] if words is None else words[0]
    inner: dict[int, list[str]] = {}  # needle of three words or more -> its inner words
    rest: list[int] = []
    for index, split in enumerate(needle_words):
        if len(split) >= 3:
            inner[index] = split[1:-1]
        else:
            rest.append(index)
    rarest: dict[int, str] = {}
    holding: dict[str, list[int]] = defaultdict(list)  # a picked word -> the texts having it
    steps = 0
    if inner:
        text_words = [text.split(" ") for text in texts] if words is None else words[1]
        counts = Counter(chain.from_iterable(text_words))  # occurrences: at least the texts
        rarest = {index: min(split, key=counts.__getitem__) for index, split in inner.items()}
        steps = CHECK_STEPS * sum(map(counts.__getitem__, rarest.values()))
        wanted = set(rarest.values())
        for j, split in enumerate(text_words):
            for word in wanted.intersection(split):
                holding[word].append(j)
    short = [needles[i] for i in rest]
    cost = _containment_cost(short, texts)
    if steps + abs(cost) > budget:
        return None
    found = [
        (index, j)
        for index, word in rarest.items()
        for j in holding.get(word, ())
        if needles[index] in texts[j] and needles[index] != texts[j]
    ]
    if cost:  # else no text is longer than a short needle
        pairs = (
            _contained_by_search(short, texts) if cost >= 0 else _contained_by_slices(short, texts)
        )
        found += [(rest[i], j) for i, j in pairs]
    return found


def _contained_by_search(needles: list[str], texts: list[str]) -> list[tuple[int, int]]:
    """``(i, j)`` for every ``needles[i]`` inside a longer ``texts[j]``, by ``str.find`` in the
    texts joined by newlines, longest last: a needle is looked for only from the first text
    longer than it (an equal-length text holds it only when equal)."""
    order = sorted(range(len(texts)), key=lambda j: len(texts[j]))
    lengths = [len(texts[j]) for j in order]
    starts = [0]
    for length in lengths:
        starts.append(starts[-1] + length + 1)
    joined = "\n".join([texts[j] for j in order])
    find = joined.find
    found: set[tuple[int, int]] = set()
    for index, needle in enumerate(needles):
        size = len(needle)
        at = find(needle, starts[bisect_right(lengths, size)])
        while at >= 0:
            slot = bisect_right(starts, at) - 1
            if at + size < starts[slot + 1]:  # inside one text, not across a newline
                found.add((index, order[slot]))
            at = find(needle, at + 1)
    return list(found)


def _contained_by_slices(needles: list[str], texts: list[str]) -> list[tuple[int, int]]:
    """:func:`_contained_by_search` for short texts and distinct needles: for each needle
    length and start, the slices there of the texts longer than that length, looked up among
    the needles.

    The texts are sorted longest first, so the texts having a slice at a start are a prefix;
    slicing and looking up run in C (``map``, a set intersection), Python only visits hits.
    """
    where = {needle: index for index, needle in enumerate(needles)}
    order = sorted(range(len(texts)), key=list(map(len, texts)).__getitem__, reverse=True)
    ordered = [texts[j] for j in order]
    shorter = [-len(text) for text in ordered]  # ascending, for bisect
    found: set[tuple[int, int]] = set()
    for size in set(map(len, needles)):
        start = 0
        while count := bisect_right(shorter, -max(size + 1, start + size)):
            pieces = list(map(itemgetter(slice(start, start + size)), ordered[:count]))
            hits = where.keys() & pieces
            if hits:
                for k in compress(range(count), map(hits.__contains__, pieces)):
                    found.add((where[pieces[k]], order[k]))
            start += 1
    return list(found)


def _containment_cost(needles: list[str], texts: list[str]) -> int:
    """About the steps (of some 20 ns) the cheaper of :func:`_contained_by_search` and
    :func:`_contained_by_slices` takes, negative for the slices: ``str.find`` skips ahead
    about a needle's length per step over the longer texts; a slice costs a few steps. Zero
    when no text is longer than a needle."""
    if not needles:
        return 0
    text_lengths = Counter(map(len, texts))
    sizes = Counter(map(len, needles))
    search = slices = 0
    for size, needle_count in sizes.items():
        longer = [(length, n) for length, n in text_lengths.items() if length > size]
        search += needle_count * sum(n * (length + 1) for length, n in longer) // size
        slices += SLICE_STEPS * sum(n * (length - size + 1) for length, n in longer)
    return search if search <= slices else -slices


_GRAM_HASH_BASE = 1_000_003


def _gram_hashes(texts: list[str]) -> Any:
    """A hash of every ``GRAM``-character window inside one of ``texts`` (none across two), in
    text order: a wrapping uint64 polynomial of the characters, computed in numpy."""
    import numpy as np

    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    chars = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    count = len(chars) - GRAM + 1
    if count <= 0:
        return np.zeros(0, dtype=np.uint64)
    hashes = chars[:count].copy()
    with np.errstate(over="ignore"):
        for offset in range(1, GRAM):
            hashes *= np.uint64(_GRAM_HASH_BASE)
            hashes += chars[offset : count + offset]
    owner = np.repeat(np.arange(len(texts)), lengths)[:count]
    first = np.cumsum(lengths) - lengths
    inside = np.arange(count) - first[owner] <= lengths[owner] - GRAM
    return hashes[inside]


class _Windows:
    """Distinct texts of at least ``GRAM`` characters with the hash of each of their windows,
    computed once for containment both ways between two sets of texts."""

    def __init__(self, texts: list[str]) -> None:
        import numpy as np

        self.texts = texts
        self.hashes = _gram_hashes(texts)
        self.counts = np.fromiter(map(len, texts), np.int64, len(texts)) - (GRAM - 1)

    @cached_property
    def sorted(self) -> tuple[Any, Any]:
        """The window hashes sorted, and the text each comes from."""
        import numpy as np

        order = np.argsort(self.hashes)
        return self.hashes[order], np.repeat(np.arange(len(self.texts)), self.counts)[order]


def _contained(needles: _Windows, texts: _Windows) -> list[tuple[int, int]]:
    """``(i, j)`` for every ``needles.texts[i]`` inside a different ``texts.texts[j]``.

    A text holding a needle holds each of its windows of ``GRAM`` characters, so the
    candidates of a needle are the texts holding its rarest window (found through sorted
    window hashes, in numpy), each then checked with ``in``: exact, hash collisions only add
    candidates.
    """
    import numpy as np

    sorted_hashes, owners = texts.sorted
    wanted = needles.hashes
    if not len(wanted) or not len(sorted_hashes):
        return []
    low = np.searchsorted(sorted_hashes, wanted, side="left")
    counts = np.searchsorted(sorted_hashes, wanted, side="right") - low
    firsts = np.cumsum(needles.counts) - needles.counts
    n_wanted = len(wanted)
    rarest = np.minimum.reduceat(counts * n_wanted + np.arange(n_wanted), firsts) % n_wanted
    sizes = counts[rarest]
    # every (needle, text) candidate: the owners of each needle's run of rarest-window hits
    which = np.repeat(np.arange(len(needles.texts)), sizes)
    runs = np.repeat(low[rarest] - (np.cumsum(sizes) - sizes), sizes) + np.arange(len(which))
    n_texts = len(texts.texts)
    candidates = np.unique(which * n_texts + owners[runs])
    pairs: list[tuple[int, int]] = []
    needle_texts, other_texts = needles.texts, texts.texts
    needle_index, text_index = np.divmod(candidates, n_texts)
    for i, j in zip(needle_index.tolist(), text_index.tolist(), strict=True):
        needle, text = needle_texts[i], other_texts[j]
        if text != needle and needle in text:
            pairs.append((i, j))
    return pairs


def _field_blocks(
    truth: list[tuple[int, Prepared]],
    extracted: list[tuple[int, Prepared]],
    search_steps: int = SEARCH_STEPS,
) -> tuple[list[Block], list[Block]]:
    """What each field adds to the pairs of one class, as :func:`_score_prepared` scores it,
    found through inverted indexes instead of pair by pair (positions index the two lists).

    Scalar blocks (an equal value: 2 half-points; a contained text: 2 from 40 characters, else
    1): a pair is in at most one per field. Element blocks (a shared list element, 1 half-point
    once per field however many are shared): a pair may be in several of one field.
    """
    exact_t: _Index = defaultdict(lambda: defaultdict(list))
    exact_e: _Index = defaultdict(lambda: defaultdict(list))
    element_t: _Index = defaultdict(lambda: defaultdict(list))
    element_e: _Index = defaultdict(lambda: defaultdict(list))
    for side, exact, element in ((truth, exact_t, element_t), (extracted, exact_e, element_e)):
        for position, (_, fields) in enumerate(side):
            for name, value in fields.items():
                if type(value) is str:
                    if value:
                        exact[name][value].append(position)
                else:
                    for item in value:
                        element[name][item].append(position)
    scalar = _shared(exact_t, exact_e, 2)
    elements = _shared(element_t, element_e, 1)
    # Containment between distinct values (a value shared by many nodes is checked once).
    contained: set[tuple[str, str, str]] = set()  # (field, truth value, extracted value)
    for name, values in exact_t.items():
        texts = _long_texts(values)
        others = _long_texts(exact_e.get(name, {}))
        if not texts or not others:
            continue
        words = [text.split(" ") for text in texts], [text.split(" ") for text in others]
        inside = _contained_in_python(texts, others, search_steps, words)
        holding = (
            None
            if inside is None
            else _contained_in_python(others, texts, search_steps, (words[1], words[0]))
        )
        if inside is None or holding is None:
            truth_windows, other_windows = _Windows(texts), _Windows(others)
            inside = _contained(truth_windows, other_windows)
            holding = _contained(other_windows, truth_windows)
        contained.update((name, texts[i], others[j]) for i, j in inside)
        contained.update((name, texts[j], others[i]) for i, j in holding)
    for name, a, b in sorted(contained):
        strong = min(len(a), len(b)) >= STRONG_CONTAINMENT_CHARS
        scalar.append((name, exact_t[name][a], exact_e[name][b], 2 if strong else 1))
    return scalar, elements


_Index = defaultdict[str, defaultdict[str, list[int]]]
"""Field → value → the positions (of one side's nodes) having it."""


def _shared(truth: _Index, extracted: _Index, halves: int) -> list[Block]:
    """The blocks of the values both sides have, each worth ``halves``."""
    return [
        (name, t_list, e_list, halves)
        for name, values in truth.items()
        if (others := extracted.get(name))
        for value, t_list in values.items()
        if (e_list := others.get(value))
    ]


def _long_texts(values: dict[str, list[int]]) -> list[str]:
    """The distinct values long enough to count as contained (≥ ``GRAM`` characters)."""
    return [text for text in values if len(text) >= GRAM]


def _take_greedily(
    candidates: list[tuple[int, int, int]], used_t: bytearray, used_e: bytearray
) -> list[tuple[int, int, int]]:
    """Greedy one-to-one choice among ``(-half-points, truth, extracted)`` candidates, best
    first, ties in truth then extracted order: ``(half-points, truth, extracted)`` of the pairs
    taken; ``used_t``/``used_e`` mark the nodes taken, before and after."""
    candidates.sort()
    taken: list[tuple[int, int, int]] = []
    for negative, t_index, e_index in candidates:
        if not used_t[t_index] and not used_e[e_index]:
            used_t[t_index] = used_e[e_index] = 1
            taken.append((-negative, t_index, e_index))
    return taken


def _sparse_greedy(
    scalar: list[Block],
    elements: list[Block],
    n_truth: int,
    n_extracted: int,
    listed: int = LISTED_BLOCK,
    max_work: int = SPARSE_WORK,
) -> list[tuple[int, int, int]] | None:
    """:func:`_dense_greedy` in plain Python, for a class whose large blocks are few: None when
    it would take more than ``max_work`` steps.

    Pairs of blocks up to ``listed`` pairs are listed one by one. The nodes in the same large
    blocks form a group, and two groups' pairs share one score from those blocks, computed once
    per pair of groups that share a block. Candidates are never listed nor sorted: score by
    score, best first, each truth node still free, in order, takes the first extracted node
    still free among its pairs of that score (the greedy's choice): in a pair of groups, the
    group's first free node (a free node scoring more with it would have been taken), or a
    listed pair.
    """
    grouped_fields = {name for name, t, e, _ in elements if len(t) * len(e) > listed}
    large = [b for b in scalar if len(b[1]) * len(b[2]) > listed]
    first_element = len(large)  # the large blocks from here on are list elements
    large += [b for b in elements if b[0] in grouped_fields]
    work = sum(len(b[1]) * len(b[2]) for b in (*scalar, *elements)) - sum(
        len(b[1]) * len(b[2]) for b in large
    )
    if work > max_work:
        return None
    listed_pairs: dict[int, dict[int, int]] = defaultdict(dict)
    for _, t_list, e_list, halves in scalar:
        if len(t_list) * len(e_list) <= listed:
            for t_index in t_list:
                row = listed_pairs[t_index]
                for e_index in e_list:
                    row[e_index] = row.get(e_index, 0) + halves
    shared: set[tuple[str, int, int]] = set()  # one half-point per list field and pair
    for name, t_list, e_list, _ in elements:
        if name not in grouped_fields:
            for t_index in t_list:
                row = listed_pairs[t_index]
                for e_index in e_list:
                    if (name, t_index, e_index) not in shared:
                        shared.add((name, t_index, e_index))
                        row[e_index] = row.get(e_index, 0) + 1

    t_group, t_members, t_signatures = _groups([b[1] for b in large], n_truth)
    e_group, e_members, e_signatures = _groups([b[2] for b in large], n_extracted)
    groups_in: list[list[int]] = [[] for _ in large]  # block -> the extracted groups in it
    for group, signature in enumerate(e_signatures):
        for block in signature:
            groups_in[block].append(group)
    work += sum(len(groups_in[b]) for signature in t_signatures for b in signature)
    if work > max_work:
        return None
    group_scores: list[dict[int, int]] = []  # truth group -> extracted group -> half-points
    for signature in t_signatures:
        scores: dict[int, int] = {}
        in_list_field: dict[str, set[int]] = defaultdict(set)
        for block in signature:
            name, _, _, halves = large[block]
            if block >= first_element:
                in_list_field[name].update(groups_in[block])
                continue
            for group in groups_in[block]:
                scores[group] = scores.get(group, 0) + halves
        for groups in in_list_field.values():
            for group in groups:
                scores[group] = scores.get(group, 0) + 1
        group_scores.append(scores)
    work += sum(len(m) * len(scores) for m, scores in zip(t_members, group_scores, strict=True))
    if work > max_work:
        return None

    # The candidates by score: listed pairs per truth node, pairs of groups per truth group.
    # A pair also listed comes twice, the second time scored lower: never taken then.
    listed_at: dict[int, dict[int, list[int]]] = defaultdict(dict)
    for t_index, row in listed_pairs.items():
        scores = group_scores[t_group[t_index]]
        for e_index, halves in row.items():
            total = halves + scores.get(e_group[e_index], 0)
            if total >= 2:
                listed_at[total].setdefault(t_index, []).append(e_index)
    groups_at: dict[int, dict[int, list[int]]] = defaultdict(dict)
    for truth_group, scores in enumerate(group_scores):
        for group, halves in scores.items():
            if halves >= 2:
                groups_at[halves].setdefault(truth_group, []).append(group)
    used_t, used_e = bytearray(n_truth), bytearray(n_extracted)
    first_free = [0] * len(e_members)  # per extracted group: its members before are all taken
    taken: list[tuple[int, int, int]] = []
    for level in sorted(listed_at.keys() | groups_at.keys(), reverse=True):
        rows, group_pairs = listed_at.get(level, {}), groups_at.get(level, {})
        visited = set(rows).union(*(t_members[truth_group] for truth_group in group_pairs))
        for t_index in sorted(visited):
            if used_t[t_index]:
                continue
            best = n_extracted
            for e_index in rows.get(t_index, ()):
                if e_index < best and not used_e[e_index]:
                    best = e_index
            for group in group_pairs.get(t_group[t_index], ()):
                members, at = e_members[group], first_free[group]
                while at < len(members) and used_e[members[at]]:
                    at += 1
                first_free[group] = at
                if at < len(members) and members[at] < best:
                    best = members[at]
            if best < n_extracted:
                used_t[t_index] = used_e[best] = 1
                taken.append((level, t_index, best))
    return taken


def _groups(
    blocks: list[list[int]], count: int
) -> tuple[list[int], list[list[int]], list[tuple[int, ...]]]:
    """The ``count`` nodes of one side grouped by the blocks (their positions on that side)
    they are in: each node's group, each group's nodes (in order) and blocks."""
    signatures: list[list[int]] = [[] for _ in range(count)]
    for index, positions in enumerate(blocks):
        for position in positions:
            signatures[position].append(index)
    number: dict[tuple[int, ...], int] = {}
    group_of = [0] * count
    members: list[list[int]] = []
    for position, signature in enumerate(signatures):
        key = tuple(signature)
        group = number.get(key)
        if group is None:
            group = number[key] = len(members)
            members.append([])
        members[group].append(position)
        group_of[position] = group
    return group_of, members, list(number)


@dataclass
class _Contributions:
    """The blocks of one class as numpy arrays, for :func:`_score_rows`."""

    blocks: list[tuple[Any, Any, int]]
    """``(truth positions, extracted positions, half-points)``: every pair of the product gains
    them."""
    codes: list[tuple[Any, Any]]
    """``(pair codes, half-points)``, a code being ``truth position × extracted count +
    extracted position``: small blocks listed one pair at a time, and the pairs sharing a
    list element (1 half-point once per field); a code may repeat across entries."""


def _contributions(scalar: list[Block], elements: list[Block], n_extracted: int) -> _Contributions:
    """The :class:`_Contributions` of a class's blocks."""
    import numpy as np

    found = _Contributions([], [])
    few_codes: list[int] = []  # pairs of small blocks, gathered without numpy's per-call cost
    few_halves: list[int] = []
    for _, t_list, e_list, halves in scalar:
        if len(t_list) * len(e_list) <= SMALL_BLOCK:
            for t_position in t_list:
                base = t_position * n_extracted
                few_codes.extend(base + e_position for e_position in e_list)
            few_halves.extend([halves] * (len(t_list) * len(e_list)))
        else:
            t = np.asarray(t_list, dtype=np.int64)
            found.blocks.append((t, np.asarray(e_list, dtype=np.int64), halves))
    per_field: dict[str, list[Any]] = defaultdict(list)
    for name, t_list, e_list, _ in elements:
        t = np.asarray(t_list, dtype=np.int64)
        e = np.asarray(e_list, dtype=np.int64)
        per_field[name].append((t[:, None] * n_extracted + e[None, :]).ravel())
    for blocks in per_field.values():
        shared = np.unique(np.concatenate(blocks))  # one shared element or many: +0.5
        found.codes.append((shared, np.ones(len(shared), dtype=np.int16)))
    found.codes.append(
        (np.asarray(few_codes, dtype=np.int64), np.asarray(few_halves, dtype=np.int16))
    )
    return found


def _score_rows(found: _Contributions, first: int, last: int, n_extracted: int) -> Any:
    """Half-point scores of the truth positions ``first`` to ``last`` (excluded) against every
    extracted position: an int16 matrix."""
    import numpy as np

    scores = np.zeros((last - first, n_extracted), dtype=np.int16)
    for t, e, halves in found.blocks:
        low, high = np.searchsorted(t, (first, last))  # positions were listed in order
        if low < high:
            scores[np.ix_(t[low:high] - first, e)] += halves
    flat = scores.reshape(-1)
    for codes, halves in found.codes:
        inside = (codes >= first * n_extracted) & (codes < last * n_extracted)
        np.add.at(flat, codes[inside] - first * n_extracted, halves[inside])
    return scores


def _greedy(
    halves: Any, t_order: Any, e_order: Any, used_t: Any, used_e: Any
) -> list[tuple[int, int, int]]:
    """Greedy one-to-one choice among candidate pairs, best first, ties in truth then extracted
    order: ``(half-points, truth, extracted)`` of the pairs taken; ``used_t``/``used_e`` (byte
    arrays) mark the nodes taken, before and after.

    Candidates are sorted so; each run of one score and one truth node gives that node the
    first extracted node of the run still free (if the truth node is itself still free) — the
    same pairs as visiting the candidates one by one.
    """
    import numpy as np

    taken: list[tuple[int, int, int]] = []
    if not len(halves):
        return taken
    top = int(halves.max())
    n_t, n_e = int(t_order.max()) + 1, int(e_order.max()) + 1
    order = np.argsort(((top - halves) * n_t + t_order) * n_e + e_order)  # one integer key
    halves, t_order, e_order = halves[order], t_order[order], e_order[order]
    breaks = np.flatnonzero((halves[1:] != halves[:-1]) | (t_order[1:] != t_order[:-1])) + 1
    starts = np.concatenate(([0], breaks)).tolist()
    ends = np.concatenate((breaks, [len(order)])).tolist()
    candidates = e_order.tolist()
    runs = zip(starts, ends, halves[starts].tolist(), t_order[starts].tolist(), strict=True)
    for start, end, score, t_index in runs:
        if used_t[t_index]:
            continue
        for position in range(start, end):
            e_index = candidates[position]
            if not used_e[e_index]:
                used_t[t_index] = used_e[e_index] = 1
                taken.append((score, t_index, e_index))
                break
    return taken


def _dense_greedy(
    found: _Contributions, n_truth: int, n_extracted: int, cells: int
) -> list[tuple[int, int, int]]:
    """:func:`_greedy` over every pair of a large class scoring ≥ 1.0, from score matrices of
    at most ``cells`` cells (row bands when the class is larger).

    Most candidates of a large class score exactly 1.0 (one shared unit or category), and they
    come last: the higher ones are chosen first as sparse candidates; then each truth node
    still free, in order, takes the first extracted node still free that scores 1.0 with it
    (the same choice, without listing or sorting those candidates).
    """
    import numpy as np

    band = max(1, cells // max(1, n_extracted))
    bands = [(first, min(n_truth, first + band)) for first in range(0, n_truth, band)]
    kept = _score_rows(found, 0, n_truth, n_extracted) if len(bands) == 1 else None
    high: list[tuple[Any, Any, Any]] = []
    for first, last in bands:
        scores = kept if kept is not None else _score_rows(found, first, last, n_extracted)
        rows, columns = np.nonzero(scores > 2)
        high.append((scores[rows, columns].astype(np.int64), rows + first, columns))
    used_t, used_e = bytearray(n_truth), bytearray(n_extracted)
    halves, t_order, e_order = (np.concatenate(parts) for parts in zip(*high, strict=True))
    taken = _greedy(halves, t_order, e_order, used_t, used_e)
    free = np.frombuffer(bytes(used_e), dtype=np.uint8) == 0
    for first, last in bands:
        if not free.any():
            break
        scores = kept if kept is not None else _score_rows(found, first, last, n_extracted)
        for t_index in range(first, last):
            if used_t[t_index]:
                continue
            hits = np.flatnonzero((scores[t_index - first] == 2) & free)
            if len(hits):
                e_index = int(hits[0])
                free[e_index] = False
                taken.append((2, t_index, e_index))
    return taken


def structural_pairs(
    truth_keys: list[Key],
    extracted_keys: list[Key],
    truth_by_key: dict[Key, dict[str, Any]],
    extracted_by_key: dict[Key, dict[str, Any]],
    classes: set[str],
    *,
    brute_force_pairs: int = BRUTE_FORCE_PAIRS,
    dense_cells: int = DENSE_CELLS,
    listed_block: int = LISTED_BLOCK,
    sparse_work: int = SPARSE_WORK,
    search_steps: int = SEARCH_STEPS,
) -> list[tuple[Key, Key, float]]:
    """Greedy one-to-one pairing by attribute overlap, best score first, scores ≥ 1.0 only.

    Ties keep truth order, then extracted order. Only nodes of the same class are scored, so
    each class is paired on its own and the pairs are listed in that global order. A large
    class is scored from inverted indexes (:func:`_field_blocks`), in plain Python
    (:func:`_sparse_greedy`) unless that would take more than ``sparse_work`` steps, then in
    score matrices (:func:`_dense_greedy`); each gives the same pairs and scores as scoring
    every pair.
    """
    truth_by_class: dict[str, list[tuple[int, Prepared]]] = {}
    extracted_by_class: dict[str, list[tuple[int, Prepared]]] = defaultdict(list)
    truth_nodes: dict[str, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
    for index, key in enumerate(truth_keys):
        if key[0] in classes:
            truth_nodes[key[0]].append((index, truth_by_key[key]))
    for cls, nodes in truth_nodes.items():
        keys = dict.fromkeys(chain.from_iterable(node for _, node in nodes))
        fields = [name for name in keys if name not in META_KEYS]
        truth_by_class[cls] = [(index, _comparable_fields(node, fields)) for index, node in nodes]
    compared = {  # in a fixed order, as the truth's
        cls: list(dict.fromkeys(chain.from_iterable(fields for _, fields in truth)))
        for cls, truth in truth_by_class.items()
    }
    for index, key in enumerate(extracted_keys):
        names = compared.get(key[0])
        if names is not None:
            prepared = _comparable_fields(extracted_by_key[key], names)
            extracted_by_class[key[0]].append((index, prepared))

    chosen: list[tuple[int, int, int]] = []  # (half-points, truth index, extracted index)
    for cls, truth in truth_by_class.items():
        extracted = extracted_by_class.get(cls)
        if not extracted:
            continue
        n_truth, n_extracted = len(truth), len(extracted)
        if n_truth * n_extracted > brute_force_pairs:
            scalar, elements = _field_blocks(truth, extracted, search_steps)
            taken = _sparse_greedy(
                scalar, elements, n_truth, n_extracted, listed_block, sparse_work
            )
            if taken is None:
                found = _contributions(scalar, elements, n_extracted)
                taken = _dense_greedy(found, n_truth, n_extracted, dense_cells)
        else:
            candidates = [
                (-int(score * 2), t_position, e_position)
                for t_position, (_, t_fields) in enumerate(truth)
                for e_position, (_, e_fields) in enumerate(extracted)
                if (score := _score_prepared(t_fields, e_fields)) >= 1.0
            ]
            taken = _take_greedily(candidates, bytearray(n_truth), bytearray(n_extracted))
        chosen.extend((score, truth[t][0], extracted[e][0]) for score, t, e in taken)
    chosen.sort(key=lambda c: (-c[0], c[1], c[2]))  # the order one greedy over all gives
    return [(truth_keys[t], extracted_keys[e], score / 2) for score, t, e in chosen]


@dataclass
class GraphMatching:
    """Everything the report is derived from: indexes, matches per rung, alignment choices."""

    truth: GraphData
    extracted: GraphData
    id_fields_by_class: dict[str, list[str]]
    truth_index: IdentityIndex
    extracted_index: IdentityIndex
    strict: set[Key]
    relaxed: list[tuple[Key, Key]]
    aligned: list[tuple[Key, Key, float | str]]
    align_mode: AlignMode
    align_classes: set[str]
    synthetic_classes: set[str]
    source: LooseSource | None = None
    """The source text, for the verbatim check (None without one)."""
    relaxed_fold: dict[Key, Key] = field(default_factory=dict)
    aligned_fold: dict[Key, Key] = field(default_factory=dict)

    @property
    def aligned_active(self) -> bool:
        """The aligned rung is reported when some class was aligned or some pair was made."""
        return bool(self.align_classes) or bool(self.aligned)

    @property
    def rungs(self) -> list[Rung]:
        """The rungs eval.json reports, in its order."""
        rungs: list[Rung] = ["strict", "relaxed"]
        return [*rungs, "aligned"] if self.aligned_active else rungs

    def fold(self, rung: str) -> dict[Key, Key]:
        """Extracted key → truth key: the pairs a rung folds edge endpoints through."""
        return {"relaxed": self.relaxed_fold, "aligned": self.aligned_fold}.get(rung, {})

    @cached_property
    def edge_codes(self) -> EdgeCodes:
        """Both graphs' edges as numbered integers (computed once for the report and the
        unmatched lists)."""
        return EdgeCodes.of(self)


def match_graphs(
    truth: GraphData,
    extracted: GraphData,
    id_fields_by_class: dict[str, list[str]],
    *,
    root_class: str | None,
    source_text: str | None = None,
    align_mode: AlignMode = "auto",
    enum_ids: EnumIds = "reference",
    normalise_source_accents: bool = False,
) -> GraphMatching:
    """Match nodes rung by rung: strict keys, relaxed aliases, singleton root, alignment.

    The defaults keep the reference's quirks: see :func:`node_key` for ``enum_ids``;
    ``normalise_source_accents`` drops the source's accents before synthetic-id detection
    (identity values are accent-free, so the reference never finds "Café" as "cafe").
    """
    # the options model checks these for evaluate() and the command; this is for direct calls
    for name, value, hint in (
        ("align_mode", align_mode, AlignMode),
        ("enum_ids", enum_ids, EnumIds),
    ):
        if value not in get_args(hint):
            raise InputError(f"{name} must be one of {', '.join(get_args(hint))}, got {value!r}")
    truth_index = IdentityIndex.build(truth.nodes, id_fields_by_class, enum_ids)
    extracted_index = IdentityIndex.build(extracted.nodes, id_fields_by_class, enum_ids)
    truth_by_key, extracted_by_key = truth_index.by_key, extracted_index.by_key
    strict = truth_by_key.keys() & extracted_by_key.keys()
    truth_only = [k for k in truth_by_key if k not in strict]
    extracted_only = [k for k in extracted_by_key if k not in strict]
    relaxed = relaxed_pairs(truth_only, extracted_only)
    relaxed_truth = {a for a, _ in relaxed}
    relaxed_extracted = {b for _, b in relaxed}

    source_squashed = None
    if source_text and align_mode == "auto":
        source_squashed = SquashedText(
            drop_accents(source_text) if normalise_source_accents else source_text
        )
    synthetic: set[str] = set()
    if align_mode == "on":
        align_classes = {k[0] for k in truth_by_key} | {k[0] for k in extracted_by_key}
    elif source_squashed is not None and source_squashed.has_words():
        synthetic = detect_synthetic_classes(list(truth_by_key), source_squashed)
        align_classes = set(synthetic)
    else:
        align_classes = set()

    aligned: list[tuple[Key, Key, float | str]] = []
    if align_mode != "off" and root_class is not None:
        truth_roots = [k for k in truth_by_key if k[0] == root_class]
        extracted_roots = [k for k in extracted_by_key if k[0] == root_class]
        if (
            len(truth_roots) == 1
            and len(extracted_roots) == 1
            and truth_roots[0] not in strict
            and extracted_roots[0] not in strict
            and truth_roots[0] not in relaxed_truth
            and extracted_roots[0] not in relaxed_extracted
        ):
            aligned.append((truth_roots[0], extracted_roots[0], "singleton-root"))
    if align_classes:
        paired_truth = {a for a, _, _ in aligned} | relaxed_truth
        paired_extracted = {b for _, b, _ in aligned} | relaxed_extracted
        aligned.extend(
            structural_pairs(
                [k for k in truth_only if k not in paired_truth],
                [k for k in extracted_only if k not in paired_extracted],
                truth_by_key,
                extracted_by_key,
                align_classes,
            )
        )
    relaxed_fold = {b: a for a, b in relaxed}
    aligned_fold = dict(relaxed_fold)
    aligned_fold.update({b: a for a, b, _ in aligned})
    return GraphMatching(
        truth=truth,
        extracted=extracted,
        id_fields_by_class=id_fields_by_class,
        truth_index=truth_index,
        extracted_index=extracted_index,
        strict=set(strict),
        relaxed=relaxed,
        aligned=aligned,
        align_mode=align_mode,
        align_classes=align_classes,
        synthetic_classes=synthetic,
        source=LooseSource(source_text) if source_text else None,
        relaxed_fold=relaxed_fold,
        aligned_fold=aligned_fold,
    )


def prf(tp: int, fp: int, fn: int) -> dict[str, Any]:
    """Counts with precision, recall and F1 rounded to 3 decimals (0 on a zero denominator)."""
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "p": round(precision, 3),
        "r": round(recall, 3),
        "f1": round(f1, 3),
    }


@dataclass
class _EdgeSummary:
    """What the report needs from one graph's edges, gathered in a single walk over them."""

    ends: list[tuple[int, int, int]]
    """``(label, source key, target key)`` codes of the edges between keyed nodes (edges
    touching an unkeyed or unknown node are dropped)."""
    fanout: dict[str, dict[str, Any]]
    """:func:`edge_fanout` of the edges."""
    named_ids: set[str]
    """Every node id an edge names as its source or target (when asked for)."""


def _summarise_edges(
    edges: list[dict[str, Any]],
    id_to_key: dict[str, Key],
    key_codes: dict[Key, int],
    label_codes: dict[str, int],
    *,
    named_ids: bool = True,
) -> _EdgeSummary:
    """:class:`_EdgeSummary` of ``edges``; new labels are numbered into ``label_codes``.
    ``named_ids=False`` leaves ``named_ids`` empty (one set insertion per end saved)."""
    node_codes = {node_id: key_codes[key] for node_id, key in id_to_key.items()}
    rows: list[tuple[int, int, int]] = []
    per_label: dict[str, dict[Any, int]] = {}
    named: set[str] = set()
    for edge in edges:
        source, target = str(edge.get("source")), str(edge.get("target"))
        label = str(edge.get("label", ""))
        if named_ids:
            named.add(source)
            named.add(target)
        # fan-out counts sources by identity key (its code: one per key, and an int never
        # equals a raw id), unkeyed ones by their raw id
        counts = per_label.get(label)
        if counts is None:
            counts = per_label[label] = {}
        source_code = node_codes.get(source)
        by = source if source_code is None else source_code
        counts[by] = counts.get(by, 0) + 1
        if source_code is not None:
            target_code = node_codes.get(target)
            if target_code is not None:
                rows.append(
                    (label_codes.setdefault(label, len(label_codes)), source_code, target_code)
                )
    fanout = {
        label: {
            "total": (total := sum(counts.values())),
            "sources": len(counts),
            "top_source_share": round(max(counts.values()) / total, 3),
        }
        for label, counts in per_label.items()
    }
    return _EdgeSummary(rows, fanout, named)


@dataclass
class EdgeCodes:
    """The edges between keyed nodes of both graphs as packed integers
    ``(label × shift + source) × shift + target`` over one numbering of the node keys (from 1)
    and labels, so that edge sets are sets of ints (plain Python: a report needs no numpy, whose
    import alone costs more than these set operations on 20k edges)."""

    keys: list[Key]
    """The node key of each code (``keys[0]`` and codes of keys listed twice are unused)."""
    labels: list[str]
    """The label of each code."""
    key_codes: dict[Key, int]
    truth: _EdgeSummary
    extracted: _EdgeSummary

    @classmethod
    def of(cls, matching: GraphMatching) -> EdgeCodes:
        truth_keys, extracted_keys = matching.truth_index.by_key, matching.extracted_index.by_key
        # a key's code is its position in ``keys``: its last one, when both graphs have it (one
        # hashing pass, where removing the repeats first took two; unused codes cost nothing)
        keys: list[Key] = [("", ()), *truth_keys, *extracted_keys]
        key_codes = dict(zip(chain(truth_keys, extracted_keys), count(1)))
        label_codes: dict[str, int] = {}
        truth = _summarise_edges(
            matching.truth.edges,
            matching.truth_index.id_to_key,
            key_codes,
            label_codes,
            named_ids=False,  # the report's orphans are the extracted graph's only
        )
        extracted = _summarise_edges(
            matching.extracted.edges, matching.extracted_index.id_to_key, key_codes, label_codes
        )
        return cls(keys, list(label_codes), key_codes, truth, extracted)

    @property
    def shift(self) -> int:
        return len(self.keys)

    def truth_edges(self) -> set[int]:
        """The truth's distinct edges."""
        return _pack_edges(self.truth.ends, self.shift)

    def extracted_edges(self, fold: dict[Key, Key]) -> set[int]:
        """The extracted graph's distinct edges, endpoints folded onto truth keys (a rung)."""
        codes = self.key_codes
        return _pack_edges(
            self.extracted.ends, self.shift, {codes[b]: codes[a] for b, a in fold.items()}
        )

    def label_codes(self, packed: Iterable[int]) -> list[int]:
        """The label code of each packed edge."""
        square = self.shift * self.shift
        return [code // square for code in packed]

    def decode(self, packed: Iterable[int]) -> list[tuple[str, Key, Key]]:
        """Packed edges as ``(label, source key, target key)``."""
        shift, keys, names = self.shift, self.keys, self.labels
        square = shift * shift
        return [
            (names[code // square], keys[code % square // shift], keys[code % shift])
            for code in packed
        ]


def _pack_edges(
    ends: list[tuple[int, int, int]], shift: int, fold: dict[int, int] | None = None
) -> set[int]:
    """Distinct edge keys packed as ``(label * shift + source) * shift + target``, endpoints
    first folded onto truth keys (a rung's pairs)."""
    if not fold:
        return {(label * shift + source) * shift + target for label, source, target in ends}
    get = fold.get
    return {
        (label * shift + get(source, source)) * shift + get(target, target)
        for label, source, target in ends
    }


EdgeSide = Literal["truth", "strict", "relaxed", "aligned"]


def edge_keys(matching: GraphMatching, side: EdgeSide) -> set[tuple[str, Key, Key]]:
    """The edge keys ``(label, source key, target key)`` that :func:`build_report` counts.

    ``"truth"``: the truth's edges; a rung: the extracted edges, endpoints folded through that
    rung's pairs onto truth keys (none for ``strict``). Edges touching unkeyed nodes are
    dropped. The same sets as the report's packed integer keys, for callers that need the
    edges themselves rather than counts.
    """
    return edge_key_sets(matching, (side,))[side]


def edge_key_sets(
    matching: GraphMatching, sides: Sequence[EdgeSide]
) -> dict[EdgeSide, set[tuple[str, Key, Key]]]:
    """:func:`edge_keys` of several sides."""
    for side in sides:
        if side not in ("truth", "strict", "relaxed", "aligned"):
            raise ValueError(f"edge side must be truth, strict, relaxed or aligned, got {side!r}")
    codes = matching.edge_codes
    return {
        side: set(
            codes.decode(
                codes.truth_edges()
                if side == "truth"
                else codes.extracted_edges(matching.fold(side))
            )
        )
        for side in sides
    }


def edge_fanout(
    edges: list[dict[str, Any]], id_to_key: dict[str, Key]
) -> dict[str, dict[str, Any]]:
    """Per label: edge total, distinct sources, and the busiest source's share of the edges."""
    key_codes = {key: code for code, key in enumerate(dict.fromkeys(id_to_key.values()))}
    return _summarise_edges(edges, id_to_key, key_codes, {}).fanout


def fanout_warnings(fanout: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Labels whose extracted edges pile on one source while the truth's do not."""
    flagged = []
    for label, sides in fanout.items():
        got, truth = sides.get("extracted"), sides.get("truth")
        if not got or got["total"] < FANOUT_MIN_EDGES:
            continue
        truth_share = truth["top_source_share"] if truth else 0.0
        if got["top_source_share"] >= FANOUT_EXTRACTED_SHARE and truth_share <= FANOUT_TRUTH_SHARE:
            flagged.append(
                {
                    "label": label,
                    "extracted_share": got["top_source_share"],
                    "extracted_total": got["total"],
                    "truth_share": truth_share,
                }
            )
    return flagged


_NUMBERS = frozenset({int, float, bool})
"""Types whose values :func:`is_filled` always counts as filled."""


def build_report(
    matching: GraphMatching,
    *,
    graph: str,
    truth: str,
    template: str | None,
) -> dict[str, Any]:
    """The eval.json dictionary, key for key as docling-graph's script 16 writes it."""
    return report_and_verbatim_hits(matching, graph=graph, truth=truth, template=template)[0]


def report_and_verbatim_hits(
    matching: GraphMatching,
    *,
    graph: str,
    truth: str,
    template: str | None,
) -> tuple[dict[str, Any], int]:
    """:func:`build_report` and the count behind its ``verbatim_ratio`` (extracted long strings
    found in the source): eval.json keeps only the ratio, rounded, and a dataset pools the
    counts."""
    truth_by_key = matching.truth_index.by_key
    got_by_key = matching.extracted_index.by_key
    rungs_active = matching.aligned_active
    strict = matching.strict

    per_class: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    counted: dict[str, Iterable[Key]] = {
        "truth": truth_by_key,
        "got": got_by_key,
        "strict": strict,
        "relaxed_truth": map(itemgetter(0), matching.relaxed),
        "relaxed_got": map(itemgetter(1), matching.relaxed),
        "aligned_truth": map(itemgetter(0), matching.aligned),
        "aligned_got": map(itemgetter(1), matching.aligned),
    }
    for what, keys in counted.items():
        for cls, n in Counter(map(itemgetter(0), keys)).items():
            per_class[cls][what] = n

    node_metrics: dict[str, dict[str, Any]] = {}
    for cls in sorted(per_class):
        c = per_class[cls]
        tp = c["strict"]
        relaxed_tp = tp + c["relaxed_truth"]
        metrics = {
            "strict": prf(tp, c["got"] - tp, c["truth"] - tp),
            "relaxed": prf(relaxed_tp, c["got"] - tp - c["relaxed_got"], c["truth"] - relaxed_tp),
        }
        if rungs_active:
            aligned_tp = relaxed_tp + c["aligned_truth"]
            metrics["aligned"] = prf(
                aligned_tp,
                c["got"] - tp - c["relaxed_got"] - c["aligned_got"],
                c["truth"] - aligned_tp,
            )
        node_metrics[cls] = metrics

    # Edges are numbered integers (matching.edge_codes), in sets.
    codes = matching.edge_codes
    truth_summary, got_summary = codes.truth, codes.extracted
    rungs = matching.rungs
    truth_edges = codes.truth_edges()
    got_edges = {rung: codes.extracted_edges(matching.fold(rung)) for rung in rungs}
    truth_count = Counter(codes.label_codes(truth_edges))
    got_counts = {rung: Counter(codes.label_codes(edges)) for rung, edges in got_edges.items()}
    labels = sorted(codes.labels[c] for c in truth_count.keys() | got_counts["strict"].keys())
    label_code = {label: code for code, label in enumerate(codes.labels)}
    edge_metrics: dict[str, dict[str, Any]] = {label: {} for label in labels}
    for rung, edges in got_edges.items():
        got_count = got_counts[rung]
        tp_count = Counter(codes.label_codes(truth_edges & edges))
        for label in labels:
            code = label_code[label]
            tp = tp_count[code]
            edge_metrics[label][rung] = prf(tp, got_count[code] - tp, truth_count[code] - tp)

    # the micro scores: the classes' and labels' counts summed, scored by the core
    counts = {f"node:{cls}": entry_counts("node", m) for cls, m in node_metrics.items()}
    counts |= {f"edge:{label}": entry_counts("edge", m) for label, m in edge_metrics.items()}
    micro = micro_scores(counts, rungs)

    completeness: dict[str, dict[str, list[int]]] = {}
    long_values: list[str] = []
    source = matching.source
    has_source = bool(source)  # a source whose loose form holds some text
    for key, truth_node in truth_by_key.items():
        if key not in strict:
            continue
        got_node = got_by_key[key]
        slots = None
        for name, value in truth_node.items():
            # is_filled, with None, plain strings and numbers answered without a call
            if value is None or name in META_KEYS:
                continue
            kind = type(value)
            if not (value.strip() if kind is str else kind in _NUMBERS or is_filled(value)):
                continue
            if slots is None:
                slots = completeness.setdefault(key[0], {})
            slot = slots.get(name)
            if slot is None:
                slot = slots[name] = [0, 0]
            slot[1] += 1
            got = got_node.get(name)
            if got is not None:
                kind = type(got)
                if got.strip() if kind is str else kind in _NUMBERS or is_filled(got):
                    slot[0] += 1
        if has_source:
            long_values.extend(
                value
                for name, value in got_node.items()
                if isinstance(value, str)
                and len(value) >= VERBATIM_MIN_CHARS
                and name not in META_KEYS
            )
    verbatim_n = len(long_values)
    verbatim_hits = sum(source.contains(long_values)) if has_source and source is not None else 0

    got_fanout, truth_fanout = got_summary.fanout, truth_summary.fanout

    empty_identity: list[str] = []  # nodes whose class has id fields, none of them filled
    orphans: list[str] = []  # nodes no edge names
    id_fields, referenced = matching.id_fields_by_class, got_summary.named_ids
    for node in matching.extracted.nodes:
        node_id = str(node.get("id"))
        if node_id not in referenced:
            orphans.append(node_id)
        names = id_fields.get(str(node.get("__class__") or ""))
        if not names:
            continue
        for name in names:
            value = node.get(name)  # is_filled, with None and plain strings answered inline
            if value is not None and (value.strip() if type(value) is str else is_filled(value)):
                break
        else:
            empty_identity.append(node_id)

    def joined(key: Key) -> str:
        return " / ".join(key[1])

    report = {
        "graph": graph,
        "truth": truth,
        "template": template,
        "micro": micro,
        "nodes": node_metrics,
        "edges": edge_metrics,
        "relaxed_alias_pairs": [
            {"truth": joined(a), "extracted": joined(b), "class": a[0]} for a, b in matching.relaxed
        ],
        "structural_alignment": {
            "mode": matching.align_mode,
            "classes": sorted(matching.align_classes),
            "synthetic_id_classes": sorted(matching.synthetic_classes),
            "pairs": [
                {"truth": joined(a), "extracted": joined(b), "class": a[0], "score": score}
                for a, b, score in matching.aligned
            ],
        },
        "attribute_completeness": {
            cls: {name: {"filled": c[0], "expected": c[1]} for name, c in fields.items()}
            for cls, fields in completeness.items()
        },
        "verbatim_ratio": round(verbatim_hits / verbatim_n, 3)
        if has_source and verbatim_n
        else None,
        "verbatim_n": verbatim_n if has_source else None,
        "edge_fanout": {
            label: {"extracted": got_fanout.get(label), "truth": truth_fanout.get(label)}
            for label in labels
        },
        "integrity": {
            "empty_identity_nodes": empty_identity,
            "orphan_nodes": orphans,
            "unkeyed_extracted_nodes": len(matching.extracted_index.unkeyed),
            "unkeyed_truth_nodes": len(matching.truth_index.unkeyed),
        },
    }
    return report, verbatim_hits


def evaluate_graphs(
    truth: GraphData,
    extracted: GraphData,
    id_fields_by_class: dict[str, list[str]],
    *,
    root_class: str | None,
    source_text: str | None = None,
    align_mode: AlignMode = "auto",
    graph_name: str | Path = "",
    truth_name: str | Path = "",
    template_name: str | None = None,
    enum_ids: EnumIds = "reference",
    normalise_source_accents: bool = False,
) -> dict[str, Any]:
    """Match and report in one call (the eval.json dictionary)."""
    matching = match_graphs(
        truth,
        extracted,
        id_fields_by_class,
        root_class=root_class,
        source_text=source_text,
        align_mode=align_mode,
        enum_ids=enum_ids,
        normalise_source_accents=normalise_source_accents,
    )
    return build_report(
        matching, graph=str(graph_name), truth=str(truth_name), template=template_name
    )
