"""The Zhang–Shasha kernel of :mod:`parsescore.shared.tables.ted`, compiled with numba.

Imported only for pairs big enough to repay numba's import and first compile (about a second
in a fresh process); ``ted_small.py`` holds the same loops in plain Python for small pairs,
written operation for operation alike so that both give the same floats, and ``ted.py`` the
pruned kernel (``pruned_tree_edit_distance``), compiled here from its very code objects.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from parsescore.shared.tables import ted
from parsescore.shared.tables.compile import compile_functions

__all__ = ["compiled_tree_edit_distance", "kernels"]

# The pruned kernel's functions are ted.py's own code objects, rebuilt over a namespace in
# which the functions they call are the compiled ones (one source for both paths).
kernels: dict[str, Any] = compile_functions(ted, ted.BAND_KERNELS)


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
def _subtree_min(leftmost: np.ndarray, values: np.ndarray, out: np.ndarray) -> None:
    """``out[v]`` = min of ``values`` over the subtree of v (postorder: [leftmost[v], v])."""
    for v in range(leftmost.shape[0]):
        best = values[v]
        child = v - 1
        while child >= leftmost[v]:
            if out[child] < best:
                best = out[child]
            child = leftmost[child] - 1
        out[v] = best


@njit(cache=True)
def _leaf_rows(
    leaf_keyroots: np.ndarray,
    class_self: np.ndarray,
    leftmost_other: np.ndarray,
    class_other: np.ndarray,
    rename_rows: np.ndarray,
    tree_dist: np.ndarray,
    transpose: bool,
) -> None:
    """Distances between single-node key roots and every subtree of the other tree.

    A single node x against a tree Y: either x is mapped to some y' (cost rename(x, y') plus
    inserting the other |Y| - 1 nodes) or deleted (1 + |Y|), so
    ``TD[x, Y] = |Y| - 1 + min(2, min_{y' in Y} rename(x, y'))``. This replaces Zhang–Shasha's
    forest loops for these key roots, which are most of a table's (every non-first cell).
    """
    n_other = leftmost_other.shape[0]
    values = np.empty(n_other)
    minima = np.empty(n_other)
    for a in range(leaf_keyroots.shape[0]):
        x = leaf_keyroots[a]
        row = rename_rows[class_self[x]]
        for v in range(n_other):
            values[v] = row[class_other[v]]
        _subtree_min(leftmost_other, values, minima)
        for v in range(n_other):
            best = minima[v]
            if best > 2.0:
                best = 2.0
            d = (v - leftmost_other[v]) + best
            if transpose:
                tree_dist[v, x] = d
            else:
                tree_dist[x, v] = d


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
    all_keyroots1 = _keyroots(leftmost1)
    all_keyroots2 = _keyroots(leftmost2)
    tree_dist = np.zeros((n1, n2), dtype=np.float64)
    forest = np.zeros((n1 + 1, n2 + 1), dtype=np.float64)
    # Single-node key roots get closed-form distances; the loops below skip them.
    leaf1 = all_keyroots1[leftmost1[all_keyroots1] == all_keyroots1]
    leaf2 = all_keyroots2[leftmost2[all_keyroots2] == all_keyroots2]
    keyroots1 = all_keyroots1[leftmost1[all_keyroots1] != all_keyroots1]
    keyroots2 = all_keyroots2[leftmost2[all_keyroots2] != all_keyroots2]
    _leaf_rows(leaf1, class1, leftmost2, class2, rename, tree_dist, False)
    _leaf_rows(leaf2, class2, leftmost1, class1, np.ascontiguousarray(rename.T), tree_dist, True)
    for a in range(keyroots1.shape[0]):
        k1 = keyroots1[a]
        l1 = leftmost1[k1]
        rows = k1 - l1 + 2
        for b in range(keyroots2.shape[0]):
            k2 = keyroots2[b]
            l2 = leftmost2[k2]
            cols = k2 - l2 + 2
            first_row = forest[0]
            for j in range(cols):
                first_row[j] = j  # insert the first j nodes of the forest
            for i in range(1, rows):
                x = l1 + i - 1
                lx = leftmost1[x]
                x_on_left_path = lx == l1
                rename_x = rename[class1[x]]
                previous = forest[i - 1]
                current = forest[i]
                before_x = forest[lx - l1]
                dist_x = tree_dist[x]
                left = float(i)  # delete the first i nodes
                current[0] = left
                for j in range(1, cols):
                    y = l2 + j - 1
                    best = previous[j] + 1.0
                    insert = left + 1.0
                    if insert < best:
                        best = insert
                    ly = leftmost2[y]
                    if x_on_left_path and ly == l2:
                        change = previous[j - 1] + rename_x[class2[y]]
                        if change < best:
                            best = change
                        dist_x[y] = best
                    else:
                        change = before_x[ly - l2] + dist_x[y]
                        if change < best:
                            best = change
                    current[j] = best
                    left = best
    return float(tree_dist[n1 - 1, n2 - 1])


def compiled_tree_edit_distance(
    leftmost1: np.ndarray,
    leftmost2: np.ndarray,
    class1: np.ndarray,
    class2: np.ndarray,
    rename: np.ndarray,
) -> float:
    """:func:`parsescore.shared.tables.ted.tree_edit_distance` for big trees (both non-empty)."""
    return float(
        _zhang_shasha(
            np.ascontiguousarray(leftmost1, dtype=np.int64),
            np.ascontiguousarray(leftmost2, dtype=np.int64),
            np.ascontiguousarray(class1, dtype=np.int64),
            np.ascontiguousarray(class2, dtype=np.int64),
            np.ascontiguousarray(rename, dtype=np.float64),
        )
    )
