"""GriTS's dynamic programmes as plain Python functions over NumPy arrays.

:mod:`parsescore.shared.tables.grits` runs them as they are for small grids, and
:mod:`parsescore.shared.tables.grits_compiled` compiles these very functions with numba for
big ones: one source, so both paths compute the same floats.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "_align",
    "_difflib_pairs",
    "_difflib_total",
    "_inner_score",
    "_matched_sum",
    "_outer",
    "_traceback",
]


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
