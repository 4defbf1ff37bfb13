"""``linear_sum_assignment`` without importing ``scipy.optimize`` for small matrices.

Importing ``scipy.optimize`` costs about half a second of CPU in a fresh process, many times
the whole scoring of a small pair. For matrices of at most ``SMALL_ENTRIES`` entries the same
algorithm runs here in NumPy — the shortest augmenting path method scipy uses (Crouse, "On
implementing 2D rectangular assignment algorithms", 2016), with the same row order, the same
column scan order and the same tie rule (among equally short paths the last free column scanned,
else the first column found) — so that it returns scipy's very assignment, ties included: the
flowchart and sequence results depend on which of several optimal assignments is chosen.
Property tests compare the two on tie-heavy matrices. Bigger matrices, and any matrix with a
non-finite entry (scipy's errors), go to scipy.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SMALL_ENTRIES", "linear_sum_assignment"]

#: Matrices up to this many entries are solved here (a 64 x 64 matrix in a few milliseconds).
SMALL_ENTRIES = 4096


def linear_sum_assignment(cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Minimum-cost assignment, exactly as ``scipy.optimize.linear_sum_assignment(cost)``."""
    matrix = np.asarray(cost, dtype=np.float64)
    if matrix.ndim != 2 or matrix.size > SMALL_ENTRIES or not np.all(np.isfinite(matrix)):
        from scipy.optimize import linear_sum_assignment as scipy_lsa

        rows, cols = scipy_lsa(cost)
        return rows, cols
    n_rows, n_cols = matrix.shape
    if n_rows == 0 or n_cols == 0:
        empty = np.empty(0, dtype=np.intp)
        return empty, empty.copy()
    transpose = n_cols < n_rows
    if transpose:
        matrix = matrix.T
        n_rows, n_cols = n_cols, n_rows
    col4row = _solve(np.ascontiguousarray(matrix), n_rows, n_cols)
    if transpose:
        order = np.argsort(col4row, kind="stable")
        return col4row[order].astype(np.intp), order.astype(np.intp)
    return np.arange(n_rows, dtype=np.intp), col4row.astype(np.intp)


def _solve(cost: np.ndarray, n_rows: int, n_cols: int) -> np.ndarray:
    """Column of each row (``n_rows <= n_cols``), by one shortest augmenting path per row."""
    u = np.zeros(n_rows)
    v = np.zeros(n_cols)
    path = np.full(n_cols, -1, dtype=np.int64)
    col4row = np.full(n_rows, -1, dtype=np.int64)
    row4col = np.full(n_cols, -1, dtype=np.int64)
    for current_row in range(n_rows):
        shortest = np.full(n_cols, np.inf)
        in_rows = np.zeros(n_rows, dtype=bool)
        in_cols = np.zeros(n_cols, dtype=bool)
        # Columns not yet on the path, in scipy's scan order: it starts from the last column
        # and, when it takes one, moves the last of the list into its place.
        remaining = list(range(n_cols - 1, -1, -1))
        min_value = 0.0
        row = current_row
        sink = -1
        while sink == -1:
            in_rows[row] = True
            scan = np.asarray(remaining, dtype=np.int64)
            reduced = min_value + cost[row, scan] - u[row] - v[scan]
            better = reduced < shortest[scan]
            path[scan[better]] = row
            shortest[scan[better]] = reduced[better]
            values = shortest[scan]
            lowest = values.min()
            at_lowest = values == lowest
            free = at_lowest & (row4col[scan] == -1)
            # scipy's scan keeps the first column at the minimum, then replaces it by every
            # later free column at the same value: the last free one, else the first.
            index = int(np.flatnonzero(free)[-1]) if free.any() else int(np.argmax(at_lowest))
            min_value = float(lowest)
            column = remaining[index]
            if row4col[column] == -1:
                sink = column
            else:
                row = int(row4col[column])
            in_cols[column] = True
            last = remaining.pop()
            if index < len(remaining):
                remaining[index] = last
        u[current_row] += min_value
        others = in_rows.copy()
        others[current_row] = False
        rows_on_path = np.flatnonzero(others)
        u[rows_on_path] += min_value - shortest[col4row[rows_on_path]]
        v[in_cols] -= min_value - shortest[in_cols]
        column = sink
        while True:
            row = int(path[column])
            row4col[column] = row
            col4row[row], column = column, int(col4row[row])
            if row == current_row:
                break
    return col4row
