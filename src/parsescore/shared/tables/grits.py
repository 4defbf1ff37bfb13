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

import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import TYPE_CHECKING, Any

from rapidfuzz.distance import LCSseq

from parsescore.core.errors import InputError
from parsescore.shared.tables import grits_kernels
from parsescore.shared.tables.grid import GridCell
from parsescore.shared.tables.limits import check_cells, check_grits_pairs, span
from parsescore.shared.tables.names import GRITS_KEYS, IouMode, LcsMode

if TYPE_CHECKING:
    import numpy as np

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


#: Slot pairs (``tr * tc * pr * pc``, one variant's rewards) up to which GriTS runs on Python
#: lists, NumPy not imported (its import costs a fresh process more than such a pair's scoring),
#: until a process has spent ``PYTHON_REWARDS_BUDGET`` rewards there (about what loading numba
#: costs), or numba is loaded anyway; above, on arrays with the compiled kernels. Same functions
#: (:mod:`parsescore.shared.tables.grits_kernels`), same floats either way.
COMPILED_FROM = 2_000
PYTHON_REWARDS_BUDGET = 40_000
_python_rewards_spent = 0
#: Box coordinates beyond this magnitude (or not finite) take the array path: there, IoU's
#: float32 casts and NumPy's NaN-propagating minima are NumPy's own.
_LIST_BOX_LIMIT = 1e38


def _compiled_kernels(work: int, repeats: int = 1) -> dict[str, Any] | None:
    """The compiled kernels when ``work`` (reward entries, ``repeats`` times) is worth them,
    else None (then the work is counted against the budget)."""
    global _python_rewards_spent
    if (
        work > COMPILED_FROM
        or _python_rewards_spent + work * repeats > PYTHON_REWARDS_BUDGET
        or "parsescore.shared.tables.grits_compiled" in sys.modules
    ):
        from parsescore.shared.tables.grits_compiled import kernels

        return kernels
    _python_rewards_spent += work * repeats
    return None


def _python_kernels() -> dict[str, Any]:
    return {name: getattr(grits_kernels, name) for name in ("_outer", "_matched_sum")}


def _outer(rewards: np.ndarray) -> tuple[Sequence[int], Sequence[int], float]:
    """The factored outer alignment of ``rewards[t_outer, t_inner, p_outer, p_inner]`` (rows
    of each side, score), by the kernel the size picks (also the cell diff's alignment)."""
    compiled = _compiled_kernels(rewards.size)
    flat: Any = rewards.reshape(-1)
    if compiled is None:
        outer = grits_kernels._outer
        flat = flat.tolist()
    else:
        outer = compiled["_outer"]
        flat = flat.astype("float64")  # a contiguous copy
    rows_t, rows_p, score = outer(flat, *rewards.shape)
    return rows_t, rows_p, float(score)


def _factored(
    kernels: dict[str, Any], rewards: Any, transposed: Any, shape: tuple[int, int, int, int]
) -> GritsScore:
    """Factored 2D-MSS of flat row-major ``rewards[tr, tc, pr, pc]`` and its
    ``[tc, tr, pc, pr]`` transpose (lists or arrays, as ``kernels`` take them)."""
    n_tr, n_tc, n_pr, n_pc = shape
    num_true = n_tr * n_tc
    num_pred = n_pr * n_pc
    rows_t, rows_p, row_score = kernels["_outer"](rewards, n_tr, n_tc, n_pr, n_pc)
    cols_t, cols_p, col_score = kernels["_outer"](transposed, n_tc, n_tr, n_pc, n_pr)
    upper, _, _ = compute_fscore(min(float(row_score), float(col_score)), num_true, num_pred)
    matched = kernels["_matched_sum"](rewards, n_tc, n_pr, n_pc, rows_t, rows_p, cols_t, cols_p)
    fscore, precision, recall = compute_fscore(float(matched), num_true, num_pred)
    return GritsScore(fscore, precision, recall, upper)


def factored_2dmss(rewards: np.ndarray) -> GritsScore:
    """Factored 2D-MSS of two grids given all slot-pair rewards ``[tr, tc, pr, pc]``."""
    import numpy as np

    rewards = np.ascontiguousarray(rewards, dtype=np.float64)
    shape: Any = rewards.shape
    compiled = _compiled_kernels(rewards.size)
    transposed = np.ascontiguousarray(rewards.transpose(1, 0, 3, 2)).reshape(-1)
    flat = rewards.reshape(-1)
    if compiled is None:
        return _factored(_python_kernels(), flat.tolist(), transposed.tolist(), shape)
    return _factored(compiled, flat, transposed, shape)


def _transposed(rewards: list[float], shape: tuple[int, int, int, int]) -> list[float]:
    """Flat ``rewards[tr, tc, pr, pc]`` as flat ``[tc, tr, pc, pr]``."""
    n_tr, n_tc, n_pr, n_pc = shape
    return [
        rewards[((tr * n_tc + tc) * n_pr + pr) * n_pc + pc]
        for tc in range(n_tc)
        for tr in range(n_tr)
        for pc in range(n_pc)
        for pr in range(n_pr)
    ]


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


def _code_arrays(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

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
    ``_similarity_rows`` is the same rule on lists, for small tables.
    """
    import numpy as np
    from rapidfuzz import process

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
            work = int(sum(lengths1[rows] * lengths2[cols]))
            compiled = _compiled_kernels(work)
            if compiled is None:  # difflib itself (no autojunk below 200 characters)
                for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
                    matcher = SequenceMatcher(None, texts1[row], texts2[col])
                    common[row, col] = sum(b.size for b in matcher.get_matching_blocks())
            else:
                codes1, starts1 = _code_arrays(texts1)
                codes2, starts2 = _code_arrays(texts2)
                flat = np.ascontiguousarray(common).reshape(-1)
                compiled["_difflib_pairs"](
                    codes1, starts1, codes2, starts2, rows, cols, flat, len(texts2)
                )
                common = flat.reshape(common.shape)
        for j in np.nonzero(long_b)[0]:
            matcher = SequenceMatcher(None, "", texts2[j])
            for i in np.nonzero(needs[:, j] | (common[:, j] == 1))[0]:
                matcher.set_seq1(texts1[i])
                common[i, j] = sum(block.size for block in matcher.get_matching_blocks())
    total = lengths1[:, None] + lengths2[None, :]
    out = np.ones(total.shape)
    np.divide((2 * common).astype(np.float64), total.astype(np.float64), out=out, where=total > 0)
    return out


def _similarity_rows(texts1: list[str], texts2: list[str], lcs: LcsMode) -> list[list[float]]:
    """``_text_similarities`` on lists, pair by pair: the same rule and the same floats (each
    similarity is one correctly rounded division of two small integers). When difflib's
    matcher work would repay the compiled recursion, that path's rows."""
    common = [[LCSseq.similarity(a, b) for b in texts2] for a in texts1]
    if lcs == "difflib":
        pending = [
            (i, j)
            for i, a in enumerate(texts1)
            for j, b in enumerate(texts2)
            if (common[i][j] >= 2 and a != b) or (common[i][j] == 1 and len(b) >= 200)
        ]
        work = sum(len(texts1[i]) * len(texts2[j]) for i, j in pending if len(texts2[j]) < 200)
        if work and _compiled_kernels(work) is not None:
            rows: list[list[float]] = _text_similarities(texts1, texts2, lcs).tolist()
            return rows
        for i, j in pending:
            matcher = SequenceMatcher(None, texts1[i], texts2[j])
            common[i][j] = sum(block.size for block in matcher.get_matching_blocks())
    return [
        [
            2 * c / (len(a) + len(b)) if len(a) + len(b) > 0 else 1.0
            for b, c in zip(texts2, row, strict=True)
        ]
        for a, row in zip(texts1, common, strict=True)
    ]


def _slot_ious(boxes1: np.ndarray, boxes2: np.ndarray, mode: IouMode) -> np.ndarray:
    """IoU of every slot pair, computed once per distinct box pair (spans repeat a lot)."""
    import numpy as np

    unique1, index1 = _distinct_rows(boxes1)
    unique2, index2 = _distinct_rows(boxes2)
    ious: np.ndarray = _iou_matrix(unique1, unique2, mode)[np.ix_(index1, index2)]
    return ious


def _distinct_rows(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``boxes`` (in order of first appearance) and each row's index
    among them. Each IoU is computed element-wise, so which order the distinct rows come in
    changes no number; a dict does this in a fraction of ``np.unique(axis=0)``'s time on the
    small grids most tables have."""
    import numpy as np

    first: dict[tuple[float, ...], int] = {}
    index = np.fromiter(
        (first.setdefault(tuple(row), len(first)) for row in boxes.tolist()),
        dtype=np.intp,
        count=len(boxes),
    )
    rows = np.array(list(first), dtype=np.float64).reshape(len(first), boxes.shape[1])
    return rows, index


def _iou_matrix(boxes1: np.ndarray, boxes2: np.ndarray, mode: IouMode) -> np.ndarray:
    """IoU of every box pair ([x0, y0, x1, y1]); 0 when the denominator area is 0.

    ``"enclosing"`` reproduces table-transformer's PyMuPDF ``Rect`` arithmetic, including its
    float32 coordinates (``intersect``/``include_rect`` run in MuPDF's C ``fz_rect``); areas
    are then taken in double precision as PyMuPDF's ``get_area`` does.
    """
    import numpy as np

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


Box = tuple[float, float, float, float]


def _iou(a: Box, b: Box, mode: IouMode) -> float:
    """``_iou_matrix`` of one pair of finite boxes, operation for operation (NumPy's
    ``maximum``/``minimum`` of two non-NaN doubles are ``max``/``min``)."""
    ix = max(min(a[2], b[2]) - max(a[0], b[0]), 0.0)
    iy = max(min(a[3], b[3]) - max(a[1], b[1]), 0.0)
    inter = ix * iy
    if mode == "enclosing":
        denom = (max(a[2], b[2]) - min(a[0], b[0])) * (max(a[3], b[3]) - min(a[1], b[1]))
    else:
        area1 = (a[2] - a[0]) * (a[3] - a[1])
        area2 = (b[2] - b[0]) * (b[3] - b[1])
        denom = area1 + area2 - inter
    return inter / denom if denom > 0 else 0.0


def _float32(box: Box) -> Box:
    """``box`` through float32 and back (C casts, as NumPy's ``astype``)."""
    x0, y0, x1, y1 = array("f", box).tolist()
    return x0, y0, x1, y1


def _iou_rows(boxes1: list[Box], boxes2: list[Box], mode: IouMode) -> list[float]:
    """``_slot_ious`` on lists: flat, true slot-major, each distinct box pair computed once."""
    cast = _float32 if mode == "enclosing" else (lambda box: box)
    distinct2 = {box: cast(box) for box in boxes2}
    rows: dict[Box, list[float]] = {}
    out: list[float] = []
    for box1 in boxes1:
        row = rows.get(box1)
        if row is None:
            first = cast(box1)
            by_box = {box2: _iou(first, cast2, mode) for box2, cast2 in distinct2.items()}
            row = rows[box1] = [by_box[box2] for box2 in boxes2]
        out.extend(row)
    return out


class _Grid:
    """Slot-wise lists of one table (row-major): relative spans, boxes and texts."""

    def __init__(self, cells: Sequence[GridCell]) -> None:
        if cells:
            self.n_rows = max(max(c.row_nums) for c in cells) + 1
            self.n_cols = max(max(c.column_nums) for c in cells) + 1
        else:
            self.n_rows, self.n_cols = 1, 0  # table-transformer's [[]] grid
        check_cells(self.n_rows * self.n_cols)
        n_cols = self.n_cols
        slots = self.n_rows * n_cols
        zero: Box = (0.0, 0.0, 0.0, 0.0)
        self.relspan: list[Box] = [zero] * slots
        self.bbox: list[Box] = [zero] * slots
        self.text = [["" for _ in range(n_cols)] for _ in range(self.n_rows)]
        self.has_boxes = bool(cells) and all(c.bbox is not None for c in cells)
        for cell in cells:
            r0, r1 = min(cell.row_nums), max(cell.row_nums) + 1
            c0, c1 = min(cell.column_nums), max(cell.column_nums) + 1
            box = None if cell.bbox is None else _box(cell.bbox)
            for r in cell.row_nums:
                for c in cell.column_nums:
                    self.relspan[r * n_cols + c] = (
                        float(c0 - c),
                        float(r0 - r),
                        float(c1 - c),
                        float(r1 - r),
                    )
                    if box is not None:
                        self.bbox[r * n_cols + c] = box
                    self.text[r][c] = cell.text

    @property
    def flat_texts(self) -> list[str]:
        return [t for row in self.text for t in row]

    @property
    def plain_boxes(self) -> bool:
        """Whether every box coordinate is finite and float32-sized (lists may score it)."""
        return all(abs(v) < _LIST_BOX_LIMIT for box in self.bbox for v in box)


def _box(values: Sequence[float]) -> Box:
    x0, y0, x1, y1 = (float(v) for v in values)
    return x0, y0, x1, y1


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

    Small grids are scored on lists (no NumPy import), big ones on arrays with the compiled
    kernels; the same kernels' code, the same floats.

    >>> cell = GridCell((0,), (0,), "a")
    >>> grits([cell], [cell]).top.fscore
    1.0
    """
    true, pred = _Grid(true_cells), _Grid(pred_cells)
    n_true, n_pred = true.n_rows * true.n_cols, pred.n_rows * pred.n_cols
    check_grits_pairs(n_true, n_pred)
    with_loc = loc and true.has_boxes and pred.has_boxes
    if with_loc and not (true.plain_boxes and pred.plain_boxes):
        compiled = _compiled_kernels(COMPILED_FROM + 1)
    else:
        compiled = _compiled_kernels(n_true * n_pred, 3 if with_loc else 2)
    if compiled is None:
        return _grits_lists(true, pred, iou, lcs, with_loc)
    return _grits_arrays(true, pred, iou, lcs, with_loc, compiled)


def _con_indices(true: _Grid, pred: _Grid) -> tuple[list[str], list[str], list[int], list[int]]:
    """Distinct texts of each side (in order of first appearance) and each slot's index."""
    texts1, texts2 = true.flat_texts, pred.flat_texts
    unique1 = {t: i for i, t in enumerate(dict.fromkeys(texts1))}
    unique2 = {t: i for i, t in enumerate(dict.fromkeys(texts2))}
    return (
        list(unique1),
        list(unique2),
        [unique1[t] for t in texts1],
        [unique2[t] for t in texts2],
    )


def _grits_lists(
    true: _Grid, pred: _Grid, iou: IouMode, lcs: LcsMode, with_loc: bool
) -> GritsResult:
    """GriTS on Python lists and the Python kernels (small grids; no NumPy)."""
    kernels = _python_kernels()
    shape = (true.n_rows, true.n_cols, pred.n_rows, pred.n_cols)

    def variant(rewards: list[float]) -> GritsScore:
        return _factored(kernels, rewards, _transposed(rewards, shape), shape)

    top = variant(_iou_rows(true.relspan, pred.relspan, iou))
    texts1, texts2, index1, index2 = _con_indices(true, pred)
    similarity = _similarity_rows(texts1, texts2, lcs)
    con = variant([similarity[i][j] for i in index1 for j in index2])
    loc_score = variant(_iou_rows(true.bbox, pred.bbox, iou)) if with_loc else None
    return GritsResult(top, con, loc_score)


def _grits_arrays(
    true: _Grid,
    pred: _Grid,
    iou: IouMode,
    lcs: LcsMode,
    with_loc: bool,
    kernels: dict[str, Any],
) -> GritsResult:
    """GriTS on NumPy arrays and the compiled kernels (big grids)."""
    import numpy as np

    n_true, n_pred = true.n_rows * true.n_cols, pred.n_rows * pred.n_cols
    shape = (true.n_rows, true.n_cols, pred.n_rows, pred.n_cols)

    def variant(rewards: np.ndarray) -> GritsScore:
        grid = np.ascontiguousarray(_reshape(rewards, true, pred), dtype=np.float64)
        transposed = np.ascontiguousarray(grid.transpose(1, 0, 3, 2)).reshape(-1)
        return _factored(kernels, grid.reshape(-1), transposed, shape)

    def boxes(values: list[Box], n: int) -> np.ndarray:
        return np.array(values, dtype=np.float64).reshape(n, 4)

    top = variant(_slot_ious(boxes(true.relspan, n_true), boxes(pred.relspan, n_pred), iou))
    texts1, texts2, index1, index2 = _con_indices(true, pred)
    similarity = _text_similarities(texts1, texts2, lcs)
    con_rewards = (
        similarity[np.ix_(np.array(index1, dtype=np.int64), np.array(index2, dtype=np.int64))]
        if n_true and n_pred
        else np.zeros((n_true, n_pred))
    )
    con = variant(con_rewards)
    loc_score = None
    if with_loc:
        loc_rewards = _slot_ious(boxes(true.bbox, n_true), boxes(pred.bbox, n_pred), iou)
        loc_score = variant(loc_rewards)
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
