"""Zhang–Shasha on Python lists, for small pairs, and which pairs are small: imported
without NumPy, so that scoring one small table pair loads neither NumPy nor numba (NumPy's import
alone costs a fresh process 0.1-0.2 s of CPU, many times the pair's scoring).

:mod:`parsescore.shared.tables.ted` runs the same kernel for small pairs given as arrays, and
the compiled kernels for big ones (same floats: tests compare them across the threshold).
"""

from __future__ import annotations

import sys

__all__ = [
    "COMPILED_FROM",
    "PYTHON_CELLS_BUDGET",
    "python_kernel_runs",
    "zhang_shasha",
]

#: DP cells (n1 * n2) above which the compiled kernel runs: at this size the Python loops take
#: about 10-30 ms, the compiled kernel's import about a second once per process.
COMPILED_FROM = 5_000
#: Python-kernel cells a process may spend in all before it loads the compiled kernel (about
#: the CPU time of that load).
PYTHON_CELLS_BUDGET = 100_000
_python_cells_spent = 0


def python_kernel_runs(cells: int) -> bool:
    """Whether a pair of ``cells`` DP cells (``n1 * n2``) runs the Python kernel (then its
    cells are counted against the budget) rather than the compiled one: not above
    ``COMPILED_FROM``, not past ``PYTHON_CELLS_BUDGET`` in all, not once the compiled kernel
    is loaded anyway."""
    global _python_cells_spent
    if (
        cells > COMPILED_FROM
        or _python_cells_spent + cells > PYTHON_CELLS_BUDGET
        or "parsescore.shared.tables.ted_compiled" in sys.modules
    ):
        return False
    _python_cells_spent += cells
    return True


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


def zhang_shasha(
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
