"""Exact tree edit distance (Zhang–Shasha), in plain Python for small pairs, compiled for big.

Unit insert/delete costs and a rename cost looked up in a class-by-class matrix, so that the
(expensive) text distances are computed once per distinct cell pair outside the kernel.
Zhang–Shasha and the reference's APTED both return the optimum, so the distances agree
(up to float summation order). Tables are shallow, so the run time is close to O(n1 * n2).

A pair of at most ``COMPILED_FROM`` DP cells (``n1 * n2``) runs the Python loops below while
the process has not yet spent ``PYTHON_CELLS_BUDGET`` cells there: a one-cell table costs
microseconds in Python, where importing numba and loading its compiled kernel costs about a
second and 100 MB in a fresh process. Bigger pairs, every pair once the kernel is loaded, and
every pair after the budget (a dataset of many small tables) run the numba kernel
(:mod:`parsescore.shared.tables.ted_compiled`): the same loops operation for operation, so
both paths return the same floats (tests compare them across the threshold) and which one ran
never shows in a result.
"""

from __future__ import annotations

import sys

import numpy as np

__all__ = ["COMPILED_FROM", "PYTHON_CELLS_BUDGET", "postorder_arrays", "tree_edit_distance"]

#: DP cells (n1 * n2) above which the compiled kernel runs: at this size the Python loops take
#: about 10-30 ms, the compiled kernel's import about a second once per process.
COMPILED_FROM = 5_000
#: Python-kernel cells a process may spend in all before it loads the compiled kernel (about
#: the CPU time of that load).
PYTHON_CELLS_BUDGET = 100_000
_python_cells_spent = 0


def postorder_arrays(children: list[list[int]], root: int) -> tuple[np.ndarray, np.ndarray]:
    """Postorder permutation and leftmost-leaf indices of a tree given as child lists.

    Returns ``(order, leftmost)``: ``order[k]`` is the original id of the k-th node in
    postorder, ``leftmost[k]`` the postorder index of its leftmost leaf descendant.
    Iterative, so deep trees do not hit Python's recursion limit.
    """
    order: list[int] = []
    leftmost: list[int] = []
    stack: list[tuple[int, int]] = [(root, 0)]
    first_leaf: dict[int, int] = {}
    while stack:
        node, child_index = stack.pop()
        kids = children[node]
        if child_index < len(kids):
            stack.append((node, child_index + 1))
            stack.append((kids[child_index], 0))
            continue
        first = first_leaf[kids[0]] if kids else len(order)
        first_leaf[node] = first
        order.append(node)
        leftmost.append(first)
    return np.array(order, dtype=np.int64), np.array(leftmost, dtype=np.int64)


def _keyroots(leftmost: list[int]) -> list[int]:
    """Nodes that are the highest with their leftmost leaf (Zhang–Shasha's key roots)."""
    seen: set[int] = set()
    out: list[int] = []
    for i in range(len(leftmost) - 1, -1, -1):
        if leftmost[i] not in seen:
            seen.add(leftmost[i])
            out.append(i)
    return out[::-1]


def _leaf_rows(
    leaf_keyroots: list[int],
    class_self: list[int],
    leftmost_other: list[int],
    class_other: list[int],
    rename_rows: list[list[float]],
    tree_dist: list[list[float]],
    transpose: bool,
) -> None:
    """``TD[x, Y] = |Y| - 1 + min(2, min_{y' in Y} rename(x, y'))`` for single-node key roots
    x (see the compiled kernel's ``_leaf_rows``)."""
    n_other = len(leftmost_other)
    for x in leaf_keyroots:
        row = rename_rows[class_self[x]]
        minima = [0.0] * n_other
        for v in range(n_other):
            best = row[class_other[v]]
            child = v - 1
            while child >= leftmost_other[v]:
                if minima[child] < best:
                    best = minima[child]
                child = leftmost_other[child] - 1
            minima[v] = best
        for v in range(n_other):
            best = minima[v]
            if best > 2.0:
                best = 2.0
            d = (v - leftmost_other[v]) + best
            if transpose:
                tree_dist[v][x] = d
            else:
                tree_dist[x][v] = d


def _zhang_shasha(
    leftmost1: list[int],
    leftmost2: list[int],
    class1: list[int],
    class2: list[int],
    rename: list[list[float]],
    rename_t: list[list[float]],
) -> float:
    n1, n2 = len(leftmost1), len(leftmost2)
    all_keyroots1 = _keyroots(leftmost1)
    all_keyroots2 = _keyroots(leftmost2)
    tree_dist = [[0.0] * n2 for _ in range(n1)]
    forest = [[0.0] * (n2 + 1) for _ in range(n1 + 1)]
    leaf1 = [k for k in all_keyroots1 if leftmost1[k] == k]
    leaf2 = [k for k in all_keyroots2 if leftmost2[k] == k]
    keyroots1 = [k for k in all_keyroots1 if leftmost1[k] != k]
    keyroots2 = [k for k in all_keyroots2 if leftmost2[k] != k]
    _leaf_rows(leaf1, class1, leftmost2, class2, rename, tree_dist, False)
    _leaf_rows(leaf2, class2, leftmost1, class1, rename_t, tree_dist, True)
    for k1 in keyroots1:
        l1 = leftmost1[k1]
        rows = k1 - l1 + 2
        for k2 in keyroots2:
            l2 = leftmost2[k2]
            cols = k2 - l2 + 2
            first_row = forest[0]
            for j in range(cols):
                first_row[j] = float(j)
            for i in range(1, rows):
                x = l1 + i - 1
                lx = leftmost1[x]
                x_on_left_path = lx == l1
                rename_x = rename[class1[x]]
                previous = forest[i - 1]
                current = forest[i]
                before_x = forest[lx - l1]
                dist_x = tree_dist[x]
                left = float(i)
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
    return float(tree_dist[n1 - 1][n2 - 1])


def tree_edit_distance(
    leftmost1: np.ndarray,
    leftmost2: np.ndarray,
    class1: np.ndarray,
    class2: np.ndarray,
    rename: np.ndarray,
    *,
    compiled: bool | None = None,
) -> float:
    """Tree edit distance of two postorder trees; insert/delete cost 1.

    ``class1[i]``/``class2[j]`` index the rows/columns of ``rename`` (float64), the cost of
    relabelling node i of tree 1 into node j of tree 2. ``compiled`` forces one kernel (tests);
    by default the size decides (``COMPILED_FROM``).
    """
    n1, n2 = leftmost1.shape[0], leftmost2.shape[0]
    if n1 == 0:
        return float(n2)
    if n2 == 0:
        return float(n1)
    global _python_cells_spent
    if compiled is None:
        compiled = (
            n1 * n2 > COMPILED_FROM
            or _python_cells_spent + n1 * n2 > PYTHON_CELLS_BUDGET
            or "parsescore.shared.tables.ted_compiled" in sys.modules
        )
    if compiled:
        from parsescore.shared.tables.ted_compiled import compiled_tree_edit_distance

        return compiled_tree_edit_distance(leftmost1, leftmost2, class1, class2, rename)
    _python_cells_spent += n1 * n2
    costs = np.asarray(rename, dtype=np.float64)
    return _zhang_shasha(
        [int(v) for v in leftmost1],
        [int(v) for v in leftmost2],
        [int(v) for v in class1],
        [int(v) for v in class2],
        costs.tolist(),
        costs.T.tolist(),
    )
