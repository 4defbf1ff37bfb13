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

The smallest matrices (at most ``LIST_ENTRIES`` entries: the few lines of a small pair) run the
same steps on Python lists (:func:`list_assignment`), so that scoring one small pair need not
import NumPy (about 0.1-0.2 s of CPU in a fresh process); same floats, same comparisons, same
assignment (property tests against scipy).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["LIST_ENTRIES", "SMALL_ENTRIES", "linear_sum_assignment", "list_assignment"]

#: Matrices up to this many entries are solved here (a 64 x 64 matrix in a few milliseconds).
SMALL_ENTRIES = 4096
#: Matrices up to this many entries are solved on Python lists (faster than NumPy's per-call
#: overhead at this size, and no NumPy import).
LIST_ENTRIES = 256


def linear_sum_assignment(cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Minimum-cost assignment, exactly as ``scipy.optimize.linear_sum_assignment(cost)``."""
    import numpy as np

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
    import numpy as np

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


def list_assignment(
    cost: Sequence[Sequence[float]], *, limit: int = LIST_ENTRIES
) -> tuple[list[int], list[int]]:
    """:func:`linear_sum_assignment` of a small matrix given as rows of finite floats, on
    Python lists (no NumPy): scipy's very ``(rows, cols)``, as lists of ints. A matrix of more
    than ``limit`` entries (a caller that measured lists faster at its sizes may raise it), or
    with a non-finite entry, goes to :func:`linear_sum_assignment` (NumPy, then scipy)."""
    n_rows = len(cost)
    n_cols = len(cost[0]) if n_rows else 0
    if n_rows * n_cols > limit or not all(
        len(row) == n_cols and all(math.isfinite(value) for value in row) for row in cost
    ):
        import numpy as np

        rows, cols = linear_sum_assignment(np.array(cost, dtype=np.float64))
        return rows.tolist(), cols.tolist()
    if n_rows == 0 or n_cols == 0:
        return [], []
    matrix = [[float(value) for value in row] for row in cost]
    if n_cols < n_rows:
        transposed = [list(column) for column in zip(*matrix, strict=True)]
        col4row = _solve_lists(transposed, n_cols, n_rows)
        order = sorted(range(n_cols), key=col4row.__getitem__)  # stable, as NumPy's argsort
        return [col4row[i] for i in order], order
    return list(range(n_rows)), _solve_lists(matrix, n_rows, n_cols)


def _solve_lists(cost: list[list[float]], n_rows: int, n_cols: int) -> list[int]:
    """:func:`_solve` on lists: the same sums in the same order, the same scan and tie rule."""
    u = [0.0] * n_rows
    v = [0.0] * n_cols
    path = [-1] * n_cols
    col4row = [-1] * n_rows
    row4col = [-1] * n_cols
    for current_row in range(n_rows):
        shortest = [math.inf] * n_cols
        in_rows = [False] * n_rows
        in_cols = [False] * n_cols
        remaining = list(range(n_cols - 1, -1, -1))
        min_value = 0.0
        row = current_row
        sink = -1
        while sink == -1:
            in_rows[row] = True
            cost_row = cost[row]
            u_row = u[row]
            for column in remaining:
                reduced = min_value + cost_row[column] - u_row - v[column]
                if reduced < shortest[column]:
                    path[column] = row
                    shortest[column] = reduced
            lowest = min(shortest[column] for column in remaining)
            first = last_free = -1
            for index, column in enumerate(remaining):
                if shortest[column] == lowest:
                    if first == -1:
                        first = index
                    if row4col[column] == -1:
                        last_free = index
            index = last_free if last_free != -1 else first
            min_value = lowest
            column = remaining[index]
            if row4col[column] == -1:
                sink = column
            else:
                row = row4col[column]
            in_cols[column] = True
            last = remaining.pop()
            if index < len(remaining):
                remaining[index] = last
        u[current_row] += min_value
        for other in range(n_rows):
            if in_rows[other] and other != current_row:
                u[other] += min_value - shortest[col4row[other]]
        for column in range(n_cols):
            if in_cols[column]:
                v[column] -= min_value - shortest[column]
        column = sink
        while True:
            row = path[column]
            row4col[column] = row
            col4row[row], column = column, col4row[row]
            if row == current_row:
                break
    return col4row
