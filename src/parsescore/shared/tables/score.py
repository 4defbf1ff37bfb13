"""The TEDS score of two parsed table trees: the reference's rename costs, the compiled tree
edit distance, and its normalisation (:func:`teds_of_trees`).

Below :mod:`parsescore.shared.tables.teds` (the ``TEDS`` class) and every scorer of
collections of tables, which all use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rapidfuzz.distance import Levenshtein

from parsescore.shared.tables.names import Denominator
from parsescore.shared.tables.ted_small import python_kernel_runs, zhang_shasha
from parsescore.shared.tables.tree import NodeKey, TableTree

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Denominator", "TedsDetail", "rename_cost_rows", "rename_costs", "teds_of_trees"]


#: The most distances :func:`rename_costs` asks of one ``cdist`` call (256 KB of float64).
CDIST_CHUNK = 32 * 1024


def _code_point(index: int) -> str:
    """The index-th code point, skipping the surrogate block (not valid in rapidfuzz str)."""
    return chr(index if index < 0xD800 else index + 0x800)


def rename_costs(
    keys1: Sequence[NodeKey], keys2: Sequence[NodeKey], out: np.ndarray | None = None
) -> np.ndarray:
    """Rename cost of every class pair, as the reference's ``CustomConfig.rename`` defines it.

    1 when tag, colspan or rowspan differ; for two ``td`` where either has content, the
    Levenshtein distance of the token lists divided by the longer list's length; else 0.
    Written into ``out`` (float64, ``len(keys1) x len(keys2)``) when given. The distances
    come from ``cdist`` a few rows at a time (at most :data:`CDIST_CHUNK` values): a whole
    block at once is megabytes allocated and freed per pair, which the allocator hands back
    to the system and takes again (a page fault per 4 KB, every pair).
    """
    import numpy as np
    from rapidfuzz import process

    label_ids: dict[object, int] = {}
    ids1 = [label_ids.setdefault(key[:3], len(label_ids)) for key in keys1]
    ids2 = [label_ids.setdefault(key[:3], len(label_ids)) for key in keys2]
    if not any(key[3] for key in keys1) and not any(key[3] for key in keys2):
        # No cell has content (TEDS-S, or empty cells): every pair costs 0 or 1 by label.
        first, second = np.array(ids1, dtype=np.int64), np.array(ids2, dtype=np.int64)
        if out is None:
            by_label: np.ndarray = (first[:, None] != second[None, :]).astype(np.float64)
            return by_label
        out[...] = first[:, None] != second[None, :]
        return out
    td1 = [i for i, k in enumerate(keys1) if k[0] == "td"]
    td2 = [j for j, k in enumerate(keys2) if k[0] == "td"]
    # A td and another tag always differ (1); other tags are 0 or 1 by label; td pairs of
    # one label are filled below (other td pairs differ in a span: 1).
    if out is None:
        costs = np.ones((len(keys1), len(keys2)), dtype=np.float64)
    else:
        costs = out
        costs.fill(1.0)
    other1 = [i for i, k in enumerate(keys1) if k[0] != "td"]
    other2 = [j for j, k in enumerate(keys2) if k[0] != "td"]
    if other1 and other2:
        labels1 = np.array([ids1[i] for i in other1], dtype=np.int64)
        labels2 = np.array([ids2[j] for j in other2], dtype=np.int64)
        costs[np.ix_(other1, other2)] = labels1[:, None] != labels2[None, :]
    if not td1 or not td2:
        return costs
    # Every distinct token gets its own code point (found once over all cells, then each
    # cell encoded by C-level map/join): Levenshtein over the code strings is Levenshtein
    # over the token lists.
    tokens1 = [keys1[i][3] or () for i in td1]
    tokens2 = [keys2[j][3] or () for j in td2]
    distinct = set().union(*tokens1, *tokens2)
    vocabulary = {token: _code_point(index) for index, token in enumerate(distinct)}
    code = vocabulary.__getitem__
    encoded1 = dict(zip(td1, ("".join(map(code, t)) for t in tokens1), strict=True))
    encoded2 = dict(zip(td2, ("".join(map(code, t)) for t in tokens2), strict=True))

    by_label1: dict[int, list[int]] = {}
    for i in td1:
        by_label1.setdefault(ids1[i], []).append(i)
    by_label2: dict[int, list[int]] = {}
    for j in td2:
        by_label2.setdefault(ids2[j], []).append(j)
    for label, rows in by_label1.items():
        cols = by_label2.get(label)
        if not cols:
            continue
        texts1 = [encoded1[i] for i in rows]
        texts2 = [encoded2[j] for j in cols]
        lengths1 = np.array([len(t) for t in texts1], dtype=np.float64)
        lengths2 = np.array([len(t) for t in texts2], dtype=np.float64)
        contiguous = rows[-1] - rows[0] == len(rows) - 1 and cols[-1] - cols[0] == len(cols) - 1
        if contiguous:  # the usual case (tree.py numbers td classes by span): write in place
            target = costs[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
        else:
            target = np.empty((len(rows), len(cols)), dtype=np.float64)
        if lengths1.any() or lengths2.any():
            # Distances as float64 (exact integers) divided by the longer length; two empty
            # cells (distance 0) are divided by 1 instead of 0, so they stay 0.
            np.maximum(lengths1[:, None], lengths2[None, :], out=target)
            np.maximum(target, 1.0, out=target)
            step = max(1, CDIST_CHUNK // len(texts2))
            for start in range(0, len(texts1), step):
                distances = process.cdist(
                    texts1[start : start + step], texts2,
                    scorer=Levenshtein.distance, dtype=np.float64, workers=1,
                )  # fmt: skip
                rows_done = target[start : start + step]
                np.divide(distances, rows_done, out=rows_done)
        else:
            target[...] = 0.0
        if not contiguous:
            costs[np.ix_(rows, cols)] = target
    return costs


def rename_cost_rows(keys1: Sequence[NodeKey], keys2: Sequence[NodeKey]) -> list[list[float]]:
    """:func:`rename_costs` as rows of Python floats, pair by pair and without NumPy (small
    pairs): the same rule, the same integer distances (token lists mapped one-to-one to code
    points) divided by the same longer length (at least 1), so the same floats (tests)."""
    vocabulary: dict[str, str] = {}

    def encoded(key: NodeKey) -> str:
        return "".join(
            vocabulary.setdefault(token, _code_point(len(vocabulary))) for token in key[3] or ()
        )

    texts1 = [encoded(key) if key[0] == "td" else "" for key in keys1]
    texts2 = [encoded(key) if key[0] == "td" else "" for key in keys2]
    rows: list[list[float]] = []
    for key1, text1 in zip(keys1, texts1, strict=True):
        label = key1[:3]
        row = [1.0] * len(keys2)
        for j, key2 in enumerate(keys2):
            if key2[:3] != label:
                continue
            text2 = texts2[j]
            if key1[0] != "td" or not (text1 or text2):
                row[j] = 0.0
            else:
                row[j] = Levenshtein.distance(text1, text2) / max(len(text1), len(text2))
        rows.append(row)
    return rows


@dataclass(frozen=True, slots=True)
class TedsDetail:
    """One pair's TEDS with the numbers that explain it.

    Attributes:
        score: ``1 - distance / denominator`` (0.0 when either side has no table).
        distance: the tree edit distance (None when a side has no table).
        n_nodes_true, n_nodes_pred: tree sizes (table root included).
        denominator: the normaliser used (see ``Denominator``).
    """

    score: float
    distance: float | None
    n_nodes_true: int
    n_nodes_pred: int
    denominator: int


def teds_of_trees(
    first: TableTree, second: TableTree, *, denominator: Denominator = "tree_nodes"
) -> TedsDetail:
    """TEDS of two parsed trees (first as the reference's first tree)."""
    if denominator == "tree_nodes":
        n_norm = max(first.n_nodes, second.n_nodes)
    else:
        n_norm = max(first.n_descendants, second.n_descendants)
    if first.same_as(second):
        distance = 0.0
    elif python_kernel_runs(first.n_nodes * second.n_nodes):  # a small pair: no NumPy
        rows = rename_cost_rows(first.keys, second.keys)
        columns = [list(column) for column in zip(*rows, strict=True)]
        distance = zhang_shasha(
            list(first.leftmost), list(second.leftmost),
            list(first.node_class), list(second.node_class), rows, columns,
        )  # fmt: skip
    else:
        import numpy as np

        from parsescore.shared.tables.ted import scratch, tree_edit_distance

        arrays = (first.leftmost, second.leftmost, first.node_class, second.node_class)
        leftmost1, leftmost2, class1, class2 = (np.array(a, dtype=np.int64) for a in arrays)
        shape = (len(first.keys), len(second.keys))
        costs = rename_costs(
            first.keys, second.keys, out=scratch("rename", shape[0] * shape[1]).reshape(shape)
        )
        distance = tree_edit_distance(leftmost1, leftmost2, class1, class2, costs, compiled=True)
    # n_norm is 0 only with "all_descendants" and two empty tables (PubTabNet divides by 0).
    empty = 1.0 if distance == 0 else 0.0
    score = empty if n_norm == 0 else 1.0 - (float(distance) / n_norm)
    return TedsDetail(score, distance, first.n_nodes, second.n_nodes, n_norm)
