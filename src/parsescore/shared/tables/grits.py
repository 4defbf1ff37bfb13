"""GriTS (grid table similarity): Top, Con and, when cells have boxes, Loc.

Follows microsoft/table-transformer ``src/grits.py`` (the values of PubTables-1M): tables
become grids where a spanning cell fills every slot it covers; rows are aligned by a 1-D DP
whose match reward is the 1-D DP score of the two rows, then columns likewise ("factored
2D most-similar substructures"); the score is ``2·Σf / (|A|+|B|)`` written as an F-score of
precision ``Σf/|pred|`` and recall ``Σf/|true|``. Same DP order and tie-breaking, so the
floats agree with the reference bit for bit on its own data.

Two reward details differ between published implementations; both are options:

- ``iou="enclosing"`` (table-transformer, PyMuPDF ``include_rect``: area of intersection over
  the smallest box holding both) or ``iou="union"`` (docling-metrics: true union).
- ``lcs="difflib"`` (both references: ``difflib.SequenceMatcher`` matching blocks, a greedy
  approximation) or ``lcs="exact"`` (the paper's true longest common subsequence).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

import numpy as np
from numba import njit
from rapidfuzz import process
from rapidfuzz.distance import LCSseq

from parsescore.core.errors import InputError
from parsescore.shared.tables.grid import GridCell
from parsescore.shared.tables.limits import check_cells, check_grits_pairs, span
from parsescore.shared.tables.names import GRITS_KEYS, IouMode, LcsMode

__all__ = [
    "GridCell",
    "GritsResult",
    "GritsScore",
    "cells_from_table",
    "factored_2dmss",
    "grits",
    "lcs_similarity",
]


@dataclass(frozen=True, slots=True)
class GritsScore:
    """One GriTS variant: F-score, precision, recall and the factored upper bound."""

    fscore: float
    precision: float
    recall: float
    upper_bound: float


@dataclass(frozen=True, slots=True)
class GritsResult:
    """GriTS-Top, GriTS-Con and (only when every cell has a box) GriTS-Loc."""

    top: GritsScore
    con: GritsScore
    loc: GritsScore | None

    def scores(self) -> dict[str, float | None]:
        """Each variant's F-score, precision and recall, keyed as
        :data:`parsescore.shared.tables.names.GRITS_KEYS` (``top``, ``top_precision``, ...; None:
        GriTS-Loc not measured)."""
        out: dict[str, float | None] = {}
        for key in GRITS_KEYS:
            variant, _, part = key.partition("_")
            score = getattr(self, variant)
            out[key] = None if score is None else getattr(score, part or "fscore")
        return out

    def as_dict(self) -> dict[str, float | None]:
        """Flat dict with table-transformer's key names."""
        out: dict[str, float | None] = {}
        for name, score in (("top", self.top), ("con", self.con), ("loc", self.loc)):
            out[f"grits_{name}"] = None if score is None else score.fscore
            out[f"grits_precision_{name}"] = None if score is None else score.precision
            out[f"grits_recall_{name}"] = None if score is None else score.recall
            out[f"grits_{name}_upper_bound"] = None if score is None else score.upper_bound
        return out


def compute_fscore(matched: float, num_true: int, num_pred: int) -> tuple[float, float, float]:
    """F, P, R with table-transformer's conventions (P=1 without predictions, R=1 without
    truth, F=0 when P+R=0)."""
    precision = matched / num_pred if num_pred > 0 else 1
    recall = matched / num_true if num_true > 0 else 1
    fscore = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0
    return float(fscore), float(precision), float(recall)


@njit(cache=True)
def _align(rewards: np.ndarray) -> tuple[float, np.ndarray]:
    """1-D alignment DP (max total reward, diagonal > up > left on ties) and the pointers."""
    n1, n2 = rewards.shape
    scores = np.zeros((n1 + 1, n2 + 1))
    pointers = np.zeros((n1 + 1, n2 + 1), dtype=np.int8)
    for i in range(1, n1 + 1):
        pointers[i, 0] = -1
    for j in range(1, n2 + 1):
        pointers[0, j] = 1
    for i in range(1, n1 + 1):
        for j in range(1, n2 + 1):
            diag = scores[i - 1, j - 1] + rewards[i - 1, j - 1]
            skip2 = scores[i, j - 1]
            skip1 = scores[i - 1, j]
            best = diag
            if skip1 > best:
                best = skip1
            if skip2 > best:
                best = skip2
            scores[i, j] = best
            if diag == best:
                pointers[i, j] = 0
            elif skip1 == best:
                pointers[i, j] = -1
            else:
                pointers[i, j] = 1
    return float(scores[n1, n2]), pointers


@njit(cache=True)
def _traceback(pointers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    i = pointers.shape[0] - 1
    j = pointers.shape[1] - 1
    first = np.empty(min(i, j), dtype=np.int64)
    second = np.empty(min(i, j), dtype=np.int64)
    count = 0
    while not (i == 0 and j == 0):
        p = pointers[i, j]
        if p == -1:
            i -= 1
        elif p == 1:
            j -= 1
        else:
            i -= 1
            j -= 1
            first[count] = i
            second[count] = j
            count += 1
    return first[:count][::-1].copy(), second[:count][::-1].copy()


@njit(cache=True)
def _inner_score(rewards: np.ndarray, a: int, b: int, row: np.ndarray) -> float:
    """Score of the 1-D alignment of ``rewards[a, :, b, :]`` (same sums and maxima as
    ``_align``, without pointers, one rolling row)."""
    n1 = rewards.shape[1]
    n2 = rewards.shape[3]
    for j in range(n2 + 1):
        row[j] = 0.0
    for i in range(1, n1 + 1):
        diagonal_previous = row[0]  # scores[i - 1, 0] = 0
        row[0] = 0.0
        for j in range(1, n2 + 1):
            diag = diagonal_previous + rewards[a, i - 1, b, j - 1]
            skip1 = row[j]  # scores[i - 1, j]
            skip2 = row[j - 1]  # scores[i, j - 1]
            best = diag
            if skip1 > best:
                best = skip1
            if skip2 > best:
                best = skip2
            diagonal_previous = row[j]
            row[j] = best
    return float(row[n2])


@njit(cache=True)
def _outer(rewards: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Align outer sequences (rows) of ``rewards[t_outer, t_inner, p_outer, p_inner]``."""
    t_outer = rewards.shape[0]
    p_outer = rewards.shape[2]
    row_rewards = np.zeros((t_outer, p_outer))
    row = np.zeros(rewards.shape[3] + 1)
    for a in range(t_outer):
        for b in range(p_outer):
            row_rewards[a, b] = _inner_score(rewards, a, b, row)
    score, pointers = _align(row_rewards)
    first, second = _traceback(pointers)
    return first, second, score


@njit(cache=True)
def _matched_sum(
    rewards: np.ndarray,
    rows_t: np.ndarray,
    rows_p: np.ndarray,
    cols_t: np.ndarray,
    cols_p: np.ndarray,
) -> float:
    total = 0.0
    for a in range(rows_t.shape[0]):
        for b in range(cols_t.shape[0]):
            total += rewards[rows_t[a], cols_t[b], rows_p[a], cols_p[b]]
    return total


def factored_2dmss(rewards: np.ndarray) -> GritsScore:
    """Factored 2D-MSS of two grids given all slot-pair rewards ``[tr, tc, pr, pc]``."""
    n_tr, n_tc, n_pr, n_pc = rewards.shape
    num_true = n_tr * n_tc
    num_pred = n_pr * n_pc
    rewards = np.ascontiguousarray(rewards, dtype=np.float64)
    rows_t, rows_p, row_score = _outer(rewards)
    transposed = np.ascontiguousarray(rewards.transpose(1, 0, 3, 2))
    cols_t, cols_p, col_score = _outer(transposed)
    upper, _, _ = compute_fscore(min(row_score, col_score), num_true, num_pred)
    matched = _matched_sum(rewards, rows_t, rows_p, cols_t, cols_p)
    fscore, precision, recall = compute_fscore(matched, num_true, num_pred)
    return GritsScore(fscore, precision, recall, upper)


def lcs_similarity(a: str, b: str, *, lcs: LcsMode = "difflib") -> float:
    """``2·|LCS|/(|a|+|b|)``; two empty strings → 1."""
    if len(a) == 0 and len(b) == 0:
        return 1.0
    if lcs == "exact":
        common = LCSseq.similarity(a, b)
    else:
        matcher = SequenceMatcher(None, a, b)
        common = sum(block.size for block in matcher.get_matching_blocks())
    return 2 * common / (len(a) + len(b))


@njit(cache=True)
def _difflib_total(a: np.ndarray, b: np.ndarray, stack: np.ndarray, lengths: np.ndarray) -> int:
    """Total size of ``SequenceMatcher(None, a, b).get_matching_blocks()`` (no junk).

    Same recursion as difflib: the longest common block of the range (the first one found
    scanning i, then j, ascending: smallest start on ties), then the parts left and right of it.
    Valid when difflib's autojunk does not apply (``len(b) < 200``).
    """
    total = 0
    stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3] = 0, a.shape[0], 0, b.shape[0]
    top = 1
    while top > 0:
        top -= 1
        alo, ahi, blo, bhi = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3]
        best_i, best_j, best_k = alo, blo, 0
        # lengths[0, j + 1]: run of equal characters ending at (i - 1, j); row 1: at (i, j).
        for j in range(blo, bhi + 1):
            lengths[0, j] = 0
        lengths[1, blo] = 0
        for i in range(alo, ahi):
            for j in range(blo, bhi):
                if a[i] == b[j]:
                    k = lengths[0, j] + 1
                    lengths[1, j + 1] = k
                    if k > best_k:
                        best_i, best_j, best_k = i - k + 1, j - k + 1, k
                else:
                    lengths[1, j + 1] = 0
            for j in range(blo + 1, bhi + 1):
                lengths[0, j] = lengths[1, j]
        if best_k > 0:
            total += best_k
            if alo < best_i and blo < best_j:
                stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3] = (
                    alo,
                    best_i,
                    blo,
                    best_j,
                )
                top += 1
            if best_i + best_k < ahi and best_j + best_k < bhi:
                stack[top, 0], stack[top, 1] = best_i + best_k, ahi
                stack[top, 2], stack[top, 3] = best_j + best_k, bhi
                top += 1
    return total


@njit(cache=True)
def _difflib_pairs(
    codes1: np.ndarray,
    starts1: np.ndarray,
    codes2: np.ndarray,
    starts2: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    out: np.ndarray,
) -> None:
    longest = 1
    for i in range(starts1.shape[0] - 1):
        longest = max(longest, starts1[i + 1] - starts1[i])
    for j in range(starts2.shape[0] - 1):
        longest = max(longest, starts2[j + 1] - starts2[j])
    stack = np.empty((2 * longest + 2, 4), dtype=np.int64)
    lengths = np.zeros((2, longest + 2), dtype=np.int64)
    for p in range(rows.shape[0]):
        i, j = rows[p], cols[p]
        a = codes1[starts1[i] : starts1[i + 1]]
        b = codes2[starts2[j] : starts2[j + 1]]
        out[i, j] = _difflib_total(a, b, stack, lengths)


def _code_arrays(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    joined = "".join(texts)
    codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    starts = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum([len(t) for t in texts], out=starts[1:])
    return codes, starts


def _text_similarities(texts1: list[str], texts2: list[str], lcs: LcsMode) -> np.ndarray:
    """Similarity of every pair of distinct texts.

    The exact LCS comes from rapidfuzz. For difflib, pairs whose true LCS is 0 or 1, or whose
    texts are equal, need no matcher (difflib's blocks are a common subsequence and find any
    common character); the rest run a compiled copy of difflib's block recursion, or difflib
    itself when its autojunk heuristic applies (right-hand text of 200 or more characters).
    """
    if not texts1 or not texts2:
        return np.zeros((len(texts1), len(texts2)))
    common = process.cdist(texts1, texts2, scorer=LCSseq.similarity, dtype=np.int64, workers=1)
    lengths1 = np.array([len(t) for t in texts1], dtype=np.int64)
    lengths2 = np.array([len(t) for t in texts2], dtype=np.int64)
    if lcs == "difflib":
        needs = common >= 2
        equal = np.array([[a == b for b in texts2] for a in texts1], dtype=bool)
        needs &= ~equal
        long_b = lengths2 >= 200
        rows, cols = np.nonzero(needs & ~long_b[None, :])
        if rows.size:
            codes1, starts1 = _code_arrays(texts1)
            codes2, starts2 = _code_arrays(texts2)
            _difflib_pairs(codes1, starts1, codes2, starts2, rows, cols, common)
        for j in np.nonzero(long_b)[0]:
            matcher = SequenceMatcher(None, "", texts2[j])
            for i in np.nonzero(needs[:, j] | (common[:, j] == 1))[0]:
                matcher.set_seq1(texts1[i])
                common[i, j] = sum(block.size for block in matcher.get_matching_blocks())
    total = lengths1[:, None] + lengths2[None, :]
    out = np.ones(total.shape)
    np.divide((2 * common).astype(np.float64), total.astype(np.float64), out=out, where=total > 0)
    return out


def _slot_ious(boxes1: np.ndarray, boxes2: np.ndarray, mode: IouMode) -> np.ndarray:
    """IoU of every slot pair, computed once per distinct box pair (spans repeat a lot)."""
    unique1, index1 = np.unique(boxes1, axis=0, return_inverse=True)
    unique2, index2 = np.unique(boxes2, axis=0, return_inverse=True)
    ious = _iou_matrix(unique1, unique2, mode)
    return ious[np.ix_(index1.reshape(-1), index2.reshape(-1))]


def _iou_matrix(boxes1: np.ndarray, boxes2: np.ndarray, mode: IouMode) -> np.ndarray:
    """IoU of every box pair ([x0, y0, x1, y1]); 0 when the denominator area is 0.

    ``"enclosing"`` reproduces table-transformer's PyMuPDF ``Rect`` arithmetic, including its
    float32 coordinates (``intersect``/``include_rect`` run in MuPDF's C ``fz_rect``); areas
    are then taken in double precision as PyMuPDF's ``get_area`` does.
    """
    if mode == "enclosing":
        boxes1 = boxes1.astype(np.float32).astype(np.float64)
        boxes2 = boxes2.astype(np.float32).astype(np.float64)
    a = boxes1[:, None, :]
    b = boxes2[None, :, :]
    ix = np.maximum(np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]), 0.0)
    iy = np.maximum(np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]), 0.0)
    inter = ix * iy
    if mode == "enclosing":
        ex = np.maximum(a[..., 2], b[..., 2]) - np.minimum(a[..., 0], b[..., 0])
        ey = np.maximum(a[..., 3], b[..., 3]) - np.minimum(a[..., 1], b[..., 1])
        denom = ex * ey
    else:
        area1 = (a[..., 2] - a[..., 0]) * (a[..., 3] - a[..., 1])
        area2 = (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])
        denom = area1 + area2 - inter
    out = np.zeros(np.broadcast_shapes(a.shape[:2], b.shape[:2]))
    np.divide(inter, denom, out=out, where=denom > 0)
    return out


class _Grid:
    """Slot-wise arrays of one table: relative spans, boxes and text ids."""

    def __init__(self, cells: Sequence[GridCell]) -> None:
        if cells:
            self.n_rows = max(max(c.row_nums) for c in cells) + 1
            self.n_cols = max(max(c.column_nums) for c in cells) + 1
        else:
            self.n_rows, self.n_cols = 1, 0  # table-transformer's [[]] grid
        check_cells(self.n_rows * self.n_cols)
        shape = (self.n_rows, self.n_cols)
        self.relspan = np.zeros((*shape, 4))
        self.bbox = np.zeros((*shape, 4))
        self.text = [["" for _ in range(self.n_cols)] for _ in range(self.n_rows)]
        self.has_boxes = bool(cells) and all(c.bbox is not None for c in cells)
        for cell in cells:
            r0, r1 = min(cell.row_nums), max(cell.row_nums) + 1
            c0, c1 = min(cell.column_nums), max(cell.column_nums) + 1
            for r in cell.row_nums:
                for c in cell.column_nums:
                    self.relspan[r, c] = (c0 - c, r0 - r, c1 - c, r1 - r)
                    if cell.bbox is not None:
                        self.bbox[r, c] = cell.bbox
                    self.text[r][c] = cell.text

    @property
    def flat_texts(self) -> list[str]:
        return [t for row in self.text for t in row]


def _reshape(flat: np.ndarray, true: _Grid, pred: _Grid) -> np.ndarray:
    return flat.reshape(true.n_rows, true.n_cols, pred.n_rows, pred.n_cols)


def grits(
    true_cells: Sequence[GridCell],
    pred_cells: Sequence[GridCell],
    *,
    iou: IouMode = "enclosing",
    lcs: LcsMode = "difflib",
    loc: bool = True,
) -> GritsResult:
    """GriTS-Top, -Con and (when both sides have boxes and ``loc``) -Loc of two cell lists.

    >>> cell = GridCell((0,), (0,), "a")
    >>> grits([cell], [cell]).top.fscore
    1.0
    """
    true, pred = _Grid(true_cells), _Grid(pred_cells)
    n_true, n_pred = true.n_rows * true.n_cols, pred.n_rows * pred.n_cols
    check_grits_pairs(n_true, n_pred)
    top_rewards = _slot_ious(true.relspan.reshape(n_true, 4), pred.relspan.reshape(n_pred, 4), iou)
    top = factored_2dmss(_reshape(top_rewards, true, pred))

    texts1, texts2 = true.flat_texts, pred.flat_texts
    unique1 = {t: i for i, t in enumerate(dict.fromkeys(texts1))}
    unique2 = {t: i for i, t in enumerate(dict.fromkeys(texts2))}
    similarity = _text_similarities(list(unique1), list(unique2), lcs)
    index1 = np.array([unique1[t] for t in texts1], dtype=np.int64)
    index2 = np.array([unique2[t] for t in texts2], dtype=np.int64)
    con_rewards = (
        similarity[np.ix_(index1, index2)] if n_true and n_pred else np.zeros((n_true, n_pred))
    )
    con = factored_2dmss(_reshape(con_rewards, true, pred))

    loc_score = None
    if loc and true.has_boxes and pred.has_boxes:
        loc_rewards = _slot_ious(true.bbox.reshape(n_true, 4), pred.bbox.reshape(n_pred, 4), iou)
        loc_score = factored_2dmss(_reshape(loc_rewards, true, pred))
    return GritsResult(top, con, loc_score)


def cells_from_table(table: Any) -> list[GridCell]:
    """Cells of an lxml ``table`` element, placed as table-transformer's ``html_to_cells``.

    Depth-first over every element; each ``tr`` starts a new row; each ``td``/``th`` takes the
    first free column of the current row and covers ``rowspan`` x ``colspan`` slots; its text is
    ``" ".join(itertext())``. Differences (documented): lxml's lenient parser instead of strict
    XML; spans below 1 count as 1; a cell before any ``tr`` goes to row 0.
    """
    cells: list[GridCell] = []
    occupied: dict[int, set[int]] = {}
    current_row = -1
    slots = 0
    stack: list[tuple[Any, bool]] = [(table, False)]
    while stack:
        element, in_header = stack.pop()
        tag = element.tag
        if tag == "tr":
            current_row += 1
        if tag in ("td", "th"):
            row = max(current_row, 0)
            colspan = span(max(_int_attr(element, "colspan"), 1), f"<{tag}> colspan")
            rowspan = span(max(_int_attr(element, "rowspan"), 1), f"<{tag}> rowspan")
            slots += colspan * rowspan
            check_cells(slots)
            taken = occupied.setdefault(row, set())
            column = 0
            while column in taken:
                column += 1
            rows = tuple(range(row, row + rowspan))
            cols = tuple(range(column, column + colspan))
            for r in rows:
                occupied.setdefault(r, set()).update(cols)
            text = " ".join(element.itertext())
            cells.append(GridCell(rows, cols, text, None, tag == "th" or in_header))
        child_header = in_header or tag in ("th", "thead")
        stack.extend(
            (child, child_header) for child in reversed(element) if isinstance(child.tag, str)
        )
    return cells


def _int_attr(element: Any, name: str) -> int:
    value = element.attrib.get(name)
    if value is None:
        return 1
    try:
        return int(value)
    except ValueError:
        raise InputError(f"<{element.tag} {name}={value!r}>: not an integer") from None
