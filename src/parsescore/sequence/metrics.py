"""The paper's metrics: line diff → pairing → categorisation → rates, exactly as the spec counts.

One pass (:func:`compare_diagrams`) computes the counts *and* the explanation of every count
(:class:`Difference`, with both lines and their line numbers); tables, JSON and plots are
derived from that result.

Steps for one file pair:

1. The metric elements of both scripts (arrows, notes, groups, boxes, participant
   declarations) in canonical one-line form are compared with a minimal Myers line diff.
   Elements kept by the diff are correct.
2. Removed (truth-only) and added (prediction-only) elements of the same kind are paired over
   the whole file by Levenshtein distance of their canonical forms with
   ``scipy.optimize.linear_sum_assignment`` (its algorithm in :mod:`parsescore.shared.lap` for
   small matrices: the same assignment without scipy's import). A pair whose normalised
   distance (distance / longer length) exceeds the threshold (default 0.5) is one deletion
   plus one insertion.
   Ties (several minimal diffs, several optimal assignments) are broken so that swapping
   truth and prediction exactly swaps insertions and deletions (:func:`_oriented_diff`,
   :func:`_pair`).
3. Pairs and unpaired elements are categorised (see :func:`_compare_arrows`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any, Literal

from rapidfuzz.distance import Levenshtein

from parsescore.core.aggregate import summed_counts, totals
from parsescore.core.errors import InputError
from parsescore.core.kinds import Metric
from parsescore.sequence.kind import CATEGORY_COUNTS, POOLED_ERRORS, POOLED_RATES, file_counts
from parsescore.sequence.model import (
    CATEGORIES,
    DEFAULT_THRESHOLD,
    METRIC_KINDS,
    Arrow,
    Box,
    Diagnostic,
    Endpoint,
    Group,
    Note,
    ParsedDiagram,
    Participant,
    without_colours,
)
from parsescore.sequence.read import read_diagram
from parsescore.shared.coverage import Coverage
from parsescore.shared.lap import LIST_ENTRIES, linear_sum_assignment, list_assignment
from parsescore.shared.linediff import DiffOp, myers_diff
from parsescore.shared.scores import safe_ratio

__all__ = [
    "CategoryCounts",
    "Difference",
    "FileScore",
    "ModelScore",
    "compare_diagrams",
    "compare_scripts",
]


Change = Literal["insertion", "deletion", "substitution"]
MetricElement = Arrow | Note | Group | Box | Participant


@dataclass(frozen=True, slots=True)
class CategoryCounts:
    """Counts of one category; rates are percentages of the ground-truth count (0 if none)."""

    gt_count: int = 0
    insertion: int = 0
    deletion: int = 0
    substitution: int = 0

    @property
    def insertion_rate(self) -> float:
        return safe_ratio(self.insertion, self.gt_count) * 100

    @property
    def deletion_rate(self) -> float:
        return safe_ratio(self.deletion, self.gt_count) * 100

    @property
    def substitution_rate(self) -> float:
        return safe_ratio(self.substitution, self.gt_count) * 100

    @property
    def errors(self) -> int:
        return self.insertion + self.deletion + self.substitution

    @property
    def error_rate(self) -> float:
        """(I + D + S) / ground-truth count × 100 (the Figure 6/7 quantity)."""
        return safe_ratio(self.errors, self.gt_count) * 100

    def __add__(self, other: CategoryCounts) -> CategoryCounts:
        return CategoryCounts(
            self.gt_count + other.gt_count,
            self.insertion + other.insertion,
            self.deletion + other.deletion,
            self.substitution + other.substitution,
        )

    def as_dict(self) -> dict[str, float]:
        return {
            "gt_count": self.gt_count,
            "insertion": self.insertion,
            "deletion": self.deletion,
            "substitution": self.substitution,
            "insertion_rate": self.insertion_rate,
            "deletion_rate": self.deletion_rate,
            "substitution_rate": self.substitution_rate,
        }


@dataclass(frozen=True, slots=True)
class Difference:
    """One counted difference, with both lines so a user can see why it was counted.

    Attributes:
        category: one of :data:`CATEGORIES`.
        change: ``insertion``, ``deletion`` or ``substitution``.
        truth_line / pred_line: 1-based first line of the element (None on the missing side).
        truth_text / pred_text: the element's script text (stripped; None on the missing side).
        truth_canonical / pred_canonical: the canonical forms that were compared.
        detail: what differs, in words.
        edit_distance: Levenshtein distance of the two messages (message substitutions only).
    """

    category: str
    change: Change
    truth_line: int | None
    truth_text: str | None
    pred_line: int | None
    pred_text: str | None
    truth_canonical: str | None
    pred_canonical: str | None
    detail: str
    edit_distance: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "change": self.change,
            "truth_line": self.truth_line,
            "truth_text": self.truth_text,
            "pred_line": self.pred_line,
            "pred_text": self.pred_text,
            "detail": self.detail,
            "edit_distance": self.edit_distance,
        }


@dataclass(frozen=True, slots=True)
class Pairing:
    """A removed/added pair of the same kind chosen by the assignment (before the threshold)."""

    kind: str
    truth_line: int
    pred_line: int
    truth_canonical: str
    pred_canonical: str
    distance: int
    normalised_distance: float
    substitution: bool


@dataclass(frozen=True, slots=True)
class FileScore:
    """Counts and their explanation for one ground-truth / prediction file pair."""

    path: str
    gt_lines: int
    counts: dict[str, CategoryCounts]
    differences: tuple[Difference, ...]
    pairings: tuple[Pairing, ...] = ()
    diagnostics: tuple[str, ...] = ()
    prediction_missing: bool = False

    @property
    def errors(self) -> int:
        return sum(c.errors for c in self.counts.values())

    @property
    def elements(self) -> int:
        return sum(c.gt_count for c in self.counts.values())

    @property
    def error_rate(self) -> float:
        """All errors over all ground-truth elements × 100 (errors per element, for ranking)."""
        return safe_ratio(self.errors, self.elements) * 100

    @property
    def readable(self) -> float:
        """1.0 when the prediction was present and readable, 0.0 when it was scored as empty."""
        return 0.0 if self.prediction_missing else 1.0

    @property
    def item_counts(self) -> dict[str, int]:
        """The counts this file carries as an item (``Result.counts``): errors, elements, each
        category's counts (see :func:`parsescore.sequence.kind.file_counts`)."""
        counts: dict[str, int] = file_counts(
            {c: {k: getattr(self.counts[c], k) for k in CATEGORY_COUNTS} for c in self.counts}
        )
        return counts

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "gt_lines": self.gt_lines}
        for category in CATEGORIES:
            out[category] = self.counts[category].as_dict()
        out["readable"] = self.readable
        return out


@dataclass(frozen=True, slots=True)
class SkippedFile:
    """A file that was not scored, and why."""

    path: str
    reason: str


@dataclass(frozen=True, slots=True)
class ModelScore:
    """All file scores of one model, and dataset totals (counts summed, then divided).

    ``formats``: how many truth / prediction files were read as each format
    (``{"truth": {"plantuml": 30}, "pred": {"mermaid": 30}}``). ``coverage``: which answers
    were missing, unreadable or fenced (None: not recorded; see :mod:`parsescore.shared.coverage`).
    """

    name: str
    files: tuple[FileScore, ...]
    skipped: tuple[SkippedFile, ...] = ()
    warnings: tuple[str, ...] = field(default=())
    formats: dict[str, dict[str, int]] = field(default_factory=dict)
    coverage: Coverage | None = None

    @property
    def counts(self) -> dict[str, dict[str, int]]:
        """Each file's counts (:attr:`FileScore.item_counts`) by path: what every dataset number
        is built from."""
        return {file.path: file.item_counts for file in self.files}

    @property
    def totals(self) -> dict[str, CategoryCounts]:
        """Each category's counts summed over the files."""
        return _summed(self.counts)

    @property
    def pooled(self) -> dict[str, float]:
        """The dataset's rates (``<category>_<change>_rate``, ``error_rate`` and the Figure 6/7
        ``<category>_error_rate``): counts summed over the files, then divided, × 100, as the
        kind declares them (:func:`parsescore.core.aggregate.totals`)."""
        return _pooled((*POOLED_RATES, *POOLED_ERRORS), self.counts)

    @property
    def readable(self) -> float:
        """The share of truth files whose prediction was present and readable (over the
        scored files when ``coverage`` is not recorded)."""
        if self.coverage is not None:
            return self.coverage.readable
        return safe_ratio(sum(f.readable for f in self.files), len(self.files), empty=1.0)

    def as_dict(self) -> dict[str, Any]:
        """The spec's JSON block: ``{"totals": {...}, "files": [...]}``, and ``readable``
        (the share of truth files whose prediction was present and readable) beside them;
        each file also has its ``readable`` after its categories. ``totals`` holds the
        categories only, as the spec has it."""
        counts = self.counts
        totals, pooled = _summed(counts), _pooled(POOLED_RATES, counts)
        return {
            "totals": {
                category: {k: getattr(totals[category], k) for k in CATEGORY_COUNTS}
                | {
                    f"{change}_rate": pooled[f"{category}_{change}_rate"]
                    for change in CATEGORY_COUNTS[1:]
                }
                for category in CATEGORIES
            },
            "files": [file.as_dict() for file in self.files],
            "readable": self.readable,
        }


def _summed(counts: Mapping[str, Mapping[str, int]]) -> dict[str, CategoryCounts]:
    """Each category's counts summed over the files' counts (in file order)."""
    names = [f"{category}_{k}" for category in CATEGORIES for k in CATEGORY_COUNTS]
    summed = iter(int(value) for value in summed_counts(counts, names, list(counts)))
    return {
        category: CategoryCounts(*(next(summed) for _ in CATEGORY_COUNTS))
        for category in CATEGORIES
    }


def _pooled(metrics: Sequence[Metric], counts: Mapping[str, Mapping[str, int]]) -> dict[str, float]:
    """The declared totals ``metrics`` of the files' counts."""
    return totals(metrics, {path: {} for path in counts}, counts)


# -- counting ------------------------------------------------------------------------------


def ground_truth_counts(diagram: ParsedDiagram) -> dict[str, int]:
    """Per-category ground-truth counts of one script (the spec's counting rules)."""
    arrows = diagram.arrows
    return {
        "node": sum(len(arrow.nodes) for arrow in arrows),
        "direction": len(arrows),
        "direction_type": len(arrows),
        "message": sum(arrow.has_message for arrow in arrows),
        "box": len(diagram.boxes),
        "group": len(diagram.groups),
        "note": len(diagram.notes),
        "participant": len(diagram.participants),
    }


class _Tally:
    """Accumulates differences and counts while one file pair is categorised."""

    def __init__(self) -> None:
        self.differences: list[Difference] = []

    def add(
        self,
        category: str,
        change: Change,
        truth: MetricElement | None,
        pred: MetricElement | None,
        detail: str,
        edit_distance: int | None = None,
    ) -> None:
        self.differences.append(
            Difference(
                category,
                change,
                truth.line if truth else None,
                _text(truth),
                pred.line if pred else None,
                _text(pred),
                truth.canonical if truth else None,
                pred.canonical if pred else None,
                detail,
                edit_distance,
            )
        )


def _text(element: MetricElement | None) -> str | None:
    if element is None:
        return None
    return "\n".join(line.strip() for line in element.raw.splitlines())


def _end_name(end: Endpoint) -> str:
    return end.render()


def _compare_ends(
    tally: _Tally, truth: Arrow, pred: Arrow, t_end: Endpoint, p_end: Endpoint, what: str
) -> None:
    if t_end == p_end:
        return
    if t_end.is_node and p_end.is_node:
        tally.add(
            "node",
            "substitution",
            truth,
            pred,
            f"{what} {_end_name(t_end)} became {_end_name(p_end)}",
        )
    elif t_end.is_node:
        tally.add(
            "node", "deletion", truth, pred, f"{what} {_end_name(t_end)} became {_end_name(p_end)}"
        )
    elif p_end.is_node:
        tally.add(
            "node", "insertion", truth, pred, f"{what} {_end_name(t_end)} became {_end_name(p_end)}"
        )
    else:
        tally.add(
            "direction",
            "substitution",
            truth,
            pred,
            f"{what} {_end_name(t_end)} became {_end_name(p_end)}",
        )


def _same_end(a: Endpoint, b: Endpoint) -> bool:
    """Equal endpoints for the swap test: the two diagram borders count as one "outside".

    So ``[-> A`` against ``A ->]`` (into A from outside, out of A to outside) is a swap, one
    ``direction`` substitution, like ``[-> A`` against ``[<- A``.
    """
    if a.kind == "boundary" and b.kind == "boundary":
        return True
    return a == b


def _compare_arrows(tally: _Tally, truth: Arrow, pred: Arrow) -> None:
    """Rule 3 of the spec for a paired arrow line."""
    ts, tt, ps, pt = truth.source, truth.target, pred.source, pred.target
    if not _same_end(ts, tt) and _same_end(ps, tt) and _same_end(pt, ts):
        tally.add(
            "direction",
            "substitution",
            truth,
            pred,
            f"direction reversed: {_end_name(ts)} -> {_end_name(tt)} became "
            f"{_end_name(ps)} -> {_end_name(pt)}",
        )
    else:
        if ts == tt and ps == pt:
            _compare_ends(tally, truth, pred, ts, ps, "self-message participant")
        else:
            _compare_ends(tally, truth, pred, ts, ps, "source")
            _compare_ends(tally, truth, pred, tt, pt, "target")
        for t_extra, p_extra in zip_longest(truth.multicast, pred.multicast):
            if t_extra is None:
                tally.add(
                    "node", "insertion", truth, pred, f"multicast target {_end_name(p_extra)} added"
                )
            elif p_extra is None:
                tally.add(
                    "node",
                    "deletion",
                    truth,
                    pred,
                    f"multicast target {_end_name(t_extra)} missing",
                )
            else:
                _compare_ends(tally, truth, pred, t_extra, p_extra, "multicast target")
    if truth.shape != pred.shape:
        tally.add(
            "direction_type",
            "substitution",
            truth,
            pred,
            f"arrow type {truth.shape} became {pred.shape}",
        )
    if truth.message and pred.message:
        if truth.message != pred.message:
            distance = Levenshtein.distance(truth.message, pred.message)
            tally.add(
                "message",
                "substitution",
                truth,
                pred,
                f"message changed (edit distance {distance})",
                distance,
            )
    elif truth.message:
        tally.add("message", "deletion", truth, pred, "message missing")
    elif pred.message:
        tally.add("message", "insertion", truth, pred, "message added")


def _unpaired(tally: _Tally, element: MetricElement, side: Literal["truth", "pred"]) -> None:
    """Rules 4 and 5: an element with no partner on the other side."""
    change: Change = "deletion" if side == "truth" else "insertion"
    truth = element if side == "truth" else None
    pred = element if side == "pred" else None
    word = "missing from the prediction" if side == "truth" else "not in the ground truth"
    if isinstance(element, Arrow):
        tally.add("direction", change, truth, pred, f"arrow {word}")
        if element.message:
            tally.add("message", change, truth, pred, f"message {word}")
        for name in element.nodes:
            tally.add("node", change, truth, pred, f"node {name} {word}")
    else:
        tally.add(element.kind, change, truth, pred, f"{element.kind} {word}")


def _pair(
    removed: Sequence[MetricElement],
    added: Sequence[MetricElement],
    removed_positions: Sequence[int],
    added_positions: Sequence[int],
    *,
    flip: bool = False,
) -> list[tuple[int, int, int]]:
    """Minimum-total-Levenshtein pairing (rectangular assignment): (removed, added, distance).

    Among pairings of equal total Levenshtein distance, the one moving lines least (sum of
    ``|truth position - prediction position|``) wins, so ties do not depend on which side is
    the truth: the cost is ``distance * K + gap`` with ``K`` above any possible gap total.
    ``flip`` solves the transposed problem (see :func:`_oriented_diff`), so that swapping
    truth and prediction gives exactly the mirrored pairing even where optima tie.
    """
    if not removed or not added:
        return []
    if len(removed) * len(added) > LIST_ENTRIES:
        return _pair_arrays(removed, added, removed_positions, added_positions, flip=flip)
    # A small matrix on lists (no NumPy import for a small pair): the same integers as
    # _pair_arrays, the same floats of them, scipy's assignment of them (tests compare both).
    added_texts = [e.canonical for e in added]
    distance = [[Levenshtein.distance(e.canonical, text) for text in added_texts] for e in removed]
    gap = [[abs(r - a) for a in added_positions] for r in removed_positions]
    scale = max((max(row) for row in gap), default=0) * min(len(removed), len(added)) + 1
    cost = [
        [float(d * scale + g) for d, g in zip(d_row, g_row, strict=True)]
        for d_row, g_row in zip(distance, gap, strict=True)
    ]
    if flip:
        added_rows, removed_cols = list_assignment([list(c) for c in zip(*cost, strict=True)])
        rows, cols = removed_cols, added_rows
    else:
        rows, cols = list_assignment(cost)
    return [(r, c, distance[r][c]) for r, c in zip(rows, cols, strict=True)]


def _pair_arrays(
    removed: Sequence[MetricElement],
    added: Sequence[MetricElement],
    removed_positions: Sequence[int],
    added_positions: Sequence[int],
    *,
    flip: bool,
) -> list[tuple[int, int, int]]:
    """:func:`_pair` of a big matrix: distances from one ``rapidfuzz`` ``cdist`` call."""
    import numpy as np
    from rapidfuzz import process

    distance = process.cdist(
        [e.canonical for e in removed],
        [e.canonical for e in added],
        scorer=Levenshtein.distance,
        dtype=np.int64,
        workers=1,
    )
    gap = np.abs(
        np.asarray(removed_positions, dtype=np.int64)[:, None]
        - np.asarray(added_positions, dtype=np.int64)[None, :]
    )
    scale = int(gap.max(initial=0)) * min(len(removed), len(added)) + 1
    cost = (distance * scale + gap).astype(np.float64)
    if flip:
        added_rows, removed_cols = linear_sum_assignment(cost.T)
        rows, cols = removed_cols, added_rows
    else:
        rows, cols = linear_sum_assignment(cost)
    return [(int(r), int(c), int(distance[r, c])) for r, c in zip(rows, cols, strict=True)]


def _oriented_diff(
    a: Sequence[tuple[str, str]], b: Sequence[tuple[str, str]]
) -> tuple[list[DiffOp], bool]:
    """A minimal Myers diff computed in an orientation that does not depend on argument order.

    Minimal diffs are not unique; Myers' greedy choice depends on which side is ``a``. Running
    it on the lexicographically smaller side first (and mirroring the script when that is the
    prediction) makes ``compare(b, a)`` the exact mirror of ``compare(a, b)``. Returns the ops
    (for ``a`` → ``b``) and whether the mirrored orientation was used.
    """
    if list(a) <= list(b):
        return myers_diff(a, b), False
    mirrored = {"equal": "equal", "delete": "insert", "insert": "delete"}
    return [
        DiffOp(mirrored[op.tag], op.b_index, op.a_index)  # type: ignore[arg-type]
        for op in myers_diff(b, a)
    ], True


def compare_diagrams(
    truth: ParsedDiagram,
    pred: ParsedDiagram,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    path: str = "",
    diagnostics: Iterable[str] = (),
    prediction_missing: bool = False,
    ignore_colours: bool = False,
) -> FileScore:
    """Score one prediction against its ground truth (steps 1-3 of the module docstring).

    Colours count by default, as in the paper's git diff: a box, participant, note or group
    whose colour differs is a substitution of that element, an arrow's a ``direction_type``
    substitution. ``ignore_colours`` drops every colour first.

    >>> from parsescore.sequence.parser import parse_plantuml
    >>> score = compare_diagrams(parse_plantuml("A -> B : hi"), parse_plantuml("B -> A : hi"))
    >>> score.counts["direction"].substitution, score.counts["node"].substitution
    (1, 0)
    """
    if not 0 <= threshold <= 1:
        raise InputError(f"threshold must be between 0 and 1, got {threshold}")
    if ignore_colours:
        truth, pred = without_colours(truth), without_colours(pred)
    truth_elements = truth.metric_elements
    pred_elements = pred.metric_elements
    ops, flip = _oriented_diff(
        [(e.kind, e.canonical) for e in truth_elements],
        [(e.kind, e.canonical) for e in pred_elements],
    )
    removed: dict[str, list[MetricElement]] = {kind: [] for kind in METRIC_KINDS}
    added: dict[str, list[MetricElement]] = {kind: [] for kind in METRIC_KINDS}
    removed_at: dict[str, list[int]] = {kind: [] for kind in METRIC_KINDS}
    added_at: dict[str, list[int]] = {kind: [] for kind in METRIC_KINDS}
    for op in ops:
        if op.tag == "delete" and op.a_index is not None:
            element = truth_elements[op.a_index]
            removed[element.kind].append(element)
            removed_at[element.kind].append(op.a_index)
        elif op.tag == "insert" and op.b_index is not None:
            element = pred_elements[op.b_index]
            added[element.kind].append(element)
            added_at[element.kind].append(op.b_index)

    tally = _Tally()
    pairings: list[Pairing] = []
    for kind in METRIC_KINDS:
        paired_truth: set[int] = set()
        paired_pred: set[int] = set()
        for r, c, distance in _pair(
            removed[kind], added[kind], removed_at[kind], added_at[kind], flip=flip
        ):
            t_el, p_el = removed[kind][r], added[kind][c]
            longer = max(len(t_el.canonical), len(p_el.canonical))
            normalised = distance / longer if longer else 0.0
            is_pair = normalised <= threshold
            pairings.append(
                Pairing(
                    kind,
                    t_el.line,
                    p_el.line,
                    t_el.canonical,
                    p_el.canonical,
                    distance,
                    normalised,
                    is_pair and distance > 0,
                )
            )
            if not is_pair:
                continue
            paired_truth.add(r)
            paired_pred.add(c)
            if distance == 0:
                continue  # the same element, moved: nothing to count
            if isinstance(t_el, Arrow) and isinstance(p_el, Arrow):
                _compare_arrows(tally, t_el, p_el)
            else:
                tally.add(kind, "substitution", t_el, p_el, f"{kind} changed")
        for r, element in enumerate(removed[kind]):
            if r not in paired_truth:
                _unpaired(tally, element, "truth")
        for c, element in enumerate(added[kind]):
            if c not in paired_pred:
                _unpaired(tally, element, "pred")

    differences = sorted(
        tally.differences,
        key=lambda d: (
            d.truth_line if d.truth_line is not None else d.pred_line or 0,
            d.pred_line or 0,
            CATEGORIES.index(d.category),
        ),
    )
    gt = ground_truth_counts(truth)
    counts = {}
    for category in CATEGORIES:
        found = [d for d in differences if d.category == category]
        counts[category] = CategoryCounts(
            gt[category],
            sum(d.change == "insertion" for d in found),
            sum(d.change == "deletion" for d in found),
            sum(d.change == "substitution" for d in found),
        )
    return FileScore(
        path or truth.path,
        truth.line_count,
        counts,
        tuple(differences),
        tuple(pairings),
        tuple(diagnostics),
        prediction_missing,
    )


def compare_scripts(
    truth_text: str,
    pred_text: str,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    path: str = "",
    ignore_colours: bool = False,
    truth_format: str = "auto",
    pred_format: str = "auto",
) -> FileScore:
    """Read two scripts (PlantUML or Mermaid, see :func:`~parsescore.sequence.read.read_diagram`)
    and score them (truth first); reader warnings go in ``diagnostics``.

    >>> compare_scripts("A -> B : hi", "A -> B : hello").counts["message"].substitution
    1
    >>> mermaid = "sequenceDiagram\\n    A->>B: hi"
    >>> compare_scripts("@startuml\\nA -> B : hi\\n@enduml", mermaid).errors
    0
    """
    truth = read_diagram(truth_text, format=truth_format, path=path)
    pred = read_diagram(pred_text, format=pred_format, path=path)
    return compare_diagrams(
        truth,
        pred,
        threshold=threshold,
        path=path,
        diagnostics=_diagnostic_lines(truth.diagnostics, pred.diagnostics),
        ignore_colours=ignore_colours,
    )


def _diagnostic_lines(truth: Sequence[Diagnostic], pred: Sequence[Diagnostic]) -> tuple[str, ...]:
    return tuple(f"truth {d}" for d in truth) + tuple(f"prediction {d}" for d in pred)
