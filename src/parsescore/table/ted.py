"""Exact tree edit distance (Zhang–Shasha) compiled with numba.

Unit insert/delete costs and a rename cost looked up in a class-by-class matrix, so that the
(expensive) text distances are computed once per distinct cell pair outside the kernel.
Zhang–Shasha and the reference's APTED both return the optimum, so the distances agree
(up to float summation order). Tables are shallow, so the run time is close to O(n1 * n2).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["postorder_arrays", "tree_edit_distance"]


def postorder_arrays(children: list[list[int]], root: int) -> tuple[np.ndarray, np.ndarray]:
    """Postorder permutation and leftmost-leaf indices of a tree given as child lists.

    Returns ``(order, leftmost)``: ``order[k]`` is the original id of the k-th node in
    postorder, ``leftmost[k]`` the postorder index of its leftmost leaf descendant.
    Iterative, so deep trees do not hit Python's recursion limit.
    """
    n = len(children)
    order = np.empty(n, dtype=np.int64)
    leftmost = np.empty(n, dtype=np.int64)
    position = 0
    stack: list[tuple[int, int]] = [(root, 0)]
    first_leaf: dict[int, int] = {}
    while stack:
        node, child_index = stack.pop()
        kids = children[node]
        if child_index < len(kids):
            stack.append((node, child_index + 1))
            stack.append((kids[child_index], 0))
            continue
        order[position] = node
        leftmost[position] = first_leaf[kids[0]] if kids else position
        first_leaf[node] = leftmost[position]
        position += 1
    return order[:position], leftmost[:position]


@njit(cache=True)
def _keyroots(leftmost: np.ndarray) -> np.ndarray:
    """Nodes that are the highest with their leftmost leaf (Zhang–Shasha's key roots)."""
    n = leftmost.shape[0]
    seen = np.zeros(n, dtype=np.bool_)
    out = np.empty(n, dtype=np.int64)
    count = 0
    for i in range(n - 1, -1, -1):
        if not seen[leftmost[i]]:
            seen[leftmost[i]] = True
            out[count] = i
            count += 1
    return out[:count][::-1].copy()


@njit(cache=True)
def _zhang_shasha(
    leftmost1: np.ndarray,
    leftmost2: np.ndarray,
    class1: np.ndarray,
    class2: np.ndarray,
    rename: np.ndarray,
) -> float:
    n1 = leftmost1.shape[0]
    n2 = leftmost2.shape[0]
    keyroots1 = _keyroots(leftmost1)
    keyroots2 = _keyroots(leftmost2)
    tree_dist = np.zeros((n1, n2), dtype=np.float64)
    forest = np.zeros((n1 + 1, n2 + 1), dtype=np.float64)
    for a in range(keyroots1.shape[0]):
        k1 = keyroots1[a]
        l1 = leftmost1[k1]
        rows = k1 - l1 + 2
        for b in range(keyroots2.shape[0]):
            k2 = keyroots2[b]
            l2 = leftmost2[k2]
            cols = k2 - l2 + 2
            forest[0, 0] = 0.0
            for i in range(1, rows):
                forest[i, 0] = forest[i - 1, 0] + 1.0
            for j in range(1, cols):
                forest[0, j] = forest[0, j - 1] + 1.0
            for i in range(1, rows):
                x = l1 + i - 1
                lx = leftmost1[x]
                cx = class1[x]
                for j in range(1, cols):
                    y = l2 + j - 1
                    delete = forest[i - 1, j] + 1.0
                    insert = forest[i, j - 1] + 1.0
                    best = delete if delete < insert else insert
                    ly = leftmost2[y]
                    if lx == l1 and ly == l2:
                        change = forest[i - 1, j - 1] + rename[cx, class2[y]]
                        if change < best:
                            best = change
                        forest[i, j] = best
                        tree_dist[x, y] = best
                    else:
                        change = forest[lx - l1, ly - l2] + tree_dist[x, y]
                        if change < best:
                            best = change
                        forest[i, j] = best
    return tree_dist[n1 - 1, n2 - 1]


def tree_edit_distance(
    leftmost1: np.ndarray,
    leftmost2: np.ndarray,
    class1: np.ndarray,
    class2: np.ndarray,
    rename: np.ndarray,
) -> float:
    """Tree edit distance of two postorder trees; insert/delete cost 1.

    ``class1[i]``/``class2[j]`` index the rows/columns of ``rename`` (float64), the cost of
    relabelling node i of tree 1 into node j of tree 2.
    """
    if leftmost1.shape[0] == 0:
        return float(leftmost2.shape[0])
    if leftmost2.shape[0] == 0:
        return float(leftmost1.shape[0])
    return float(
        _zhang_shasha(
            np.ascontiguousarray(leftmost1, dtype=np.int64),
            np.ascontiguousarray(leftmost2, dtype=np.int64),
            np.ascontiguousarray(class1, dtype=np.int64),
            np.ascontiguousarray(class2, dtype=np.int64),
            np.ascontiguousarray(rename, dtype=np.float64),
        )
    )
