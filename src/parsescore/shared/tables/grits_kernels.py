"""GriTS's dynamic programmes, one source for both paths, imported without NumPy.

Every grid is a flat row-major sequence (``rewards[t_outer, t_inner, p_outer, p_inner]`` at
``((a * t_inner + i) * p_outer + b) * p_inner + j``) and every buffer comes from ``_floats`` /
``_ints``: here they make lists, so :mod:`parsescore.shared.tables.grits` runs these functions on
lists for small grids without importing NumPy (its import costs a fresh process more than the
pair's scoring); :mod:`parsescore.shared.tables.grits_compiled` compiles these very code objects
with numba over a namespace whose ``_floats``/``_ints`` make arrays. Same operations in the same
order on IEEE doubles, so both paths give the same floats.
"""

from __future__ import annotations

__all__ = [
    "_align",
    "_difflib_pairs",
    "_difflib_total",
    "_inner_score",
    "_matched_sum",
    "_outer",
    "_traceback",
]


def _floats(n: int) -> list[float]:
    """``n`` zeros (the compiled namespace's version makes a float64 array)."""
    return [0.0] * n


def _ints(n: int) -> list[int]:
    """``n`` integer zeros (the compiled namespace's version makes an int64 array)."""
    return [0] * n


def _align(rewards: list[float], n1: int, n2: int) -> tuple[float, list[int]]:
    """1-D alignment DP of an ``n1 x n2`` reward matrix (max total reward, diagonal > up > left
    on ties) and its ``(n1 + 1) x (n2 + 1)`` pointers."""
    width = n2 + 1
    scores = _floats((n1 + 1) * width)
    pointers = _ints((n1 + 1) * width)
    for i in range(1, n1 + 1):
        pointers[i * width] = -1
    for j in range(1, n2 + 1):
        pointers[j] = 1
    for i in range(1, n1 + 1):
        for j in range(1, n2 + 1):
            diag = scores[(i - 1) * width + j - 1] + rewards[(i - 1) * n2 + j - 1]
            skip2 = scores[i * width + j - 1]
            skip1 = scores[(i - 1) * width + j]
            best = diag
            if skip1 > best:
                best = skip1
            if skip2 > best:
                best = skip2
            scores[i * width + j] = best
            if diag == best:
                pointers[i * width + j] = 0
            elif skip1 == best:
                pointers[i * width + j] = -1
            else:
                pointers[i * width + j] = 1
    return float(scores[n1 * width + n2]), pointers


def _traceback(pointers: list[int], n1: int, n2: int) -> tuple[list[int], list[int]]:
    """The aligned index pairs of ``_align``'s pointers, in order."""
    width = n2 + 1
    i = n1
    j = n2
    first = _ints(min(i, j))
    second = _ints(min(i, j))
    count = 0
    while not (i == 0 and j == 0):
        p = pointers[i * width + j]
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


def _inner_score(
    rewards: list[float], a: int, b: int, row: list[float], n1: int, p_outer: int, n2: int
) -> float:
    """Score of the 1-D alignment of ``rewards[a, :, b, :]`` (same sums and maxima as
    ``_align``, without pointers, one rolling row)."""
    for j in range(n2 + 1):
        row[j] = 0.0
    for i in range(1, n1 + 1):
        base = ((a * n1 + i - 1) * p_outer + b) * n2 - 1
        diagonal_previous = row[0]  # scores[i - 1, 0] = 0
        row[0] = 0.0
        for j in range(1, n2 + 1):
            diag = diagonal_previous + rewards[base + j]
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


def _outer(
    rewards: list[float], t_outer: int, t_inner: int, p_outer: int, p_inner: int
) -> tuple[list[int], list[int], float]:
    """Align outer sequences (rows) of ``rewards[t_outer, t_inner, p_outer, p_inner]``."""
    row_rewards = _floats(t_outer * p_outer)
    row = _floats(p_inner + 1)
    for a in range(t_outer):
        for b in range(p_outer):
            row_rewards[a * p_outer + b] = _inner_score(
                rewards, a, b, row, t_inner, p_outer, p_inner
            )
    score, pointers = _align(row_rewards, t_outer, p_outer)
    first, second = _traceback(pointers, t_outer, p_outer)
    return first, second, score


def _matched_sum(
    rewards: list[float],
    t_inner: int,
    p_outer: int,
    p_inner: int,
    rows_t: list[int],
    rows_p: list[int],
    cols_t: list[int],
    cols_p: list[int],
) -> float:
    """Sum of the rewards of the aligned rows' and columns' slot pairs."""
    total = 0.0
    for a in range(len(rows_t)):
        for b in range(len(cols_t)):
            total += rewards[
                ((rows_t[a] * t_inner + cols_t[b]) * p_outer + rows_p[a]) * p_inner + cols_p[b]
            ]
    return total


def _difflib_total(a: list[int], b: list[int], stack: list[int], lengths: list[int]) -> int:
    """Total size of ``SequenceMatcher(None, a, b).get_matching_blocks()`` (no junk).

    Same recursion as difflib: the longest common block of the range (the first one found
    scanning i, then j, ascending: smallest start on ties), then the parts left and right of it.
    Valid when difflib's autojunk does not apply (``len(b) < 200``). ``stack`` holds 4 ints a
    range; ``lengths`` two rows of ``len(lengths) // 2``.
    """
    width = len(lengths) // 2
    total = 0
    stack[0], stack[1], stack[2], stack[3] = 0, len(a), 0, len(b)
    top = 1
    while top > 0:
        top -= 1
        alo, ahi, blo, bhi = (
            stack[4 * top],
            stack[4 * top + 1],
            stack[4 * top + 2],
            stack[4 * top + 3],
        )
        best_i, best_j, best_k = alo, blo, 0
        # lengths[j + 1]: run of equal characters ending at (i - 1, j); width + j + 1: at (i, j).
        for j in range(blo, bhi + 1):
            lengths[j] = 0
        lengths[width + blo] = 0
        for i in range(alo, ahi):
            for j in range(blo, bhi):
                if a[i] == b[j]:
                    k = lengths[j] + 1
                    lengths[width + j + 1] = k
                    if k > best_k:
                        best_i, best_j, best_k = i - k + 1, j - k + 1, k
                else:
                    lengths[width + j + 1] = 0
            for j in range(blo + 1, bhi + 1):
                lengths[j] = lengths[width + j]
        if best_k > 0:
            total += best_k
            if alo < best_i and blo < best_j:
                stack[4 * top], stack[4 * top + 1] = alo, best_i
                stack[4 * top + 2], stack[4 * top + 3] = blo, best_j
                top += 1
            if best_i + best_k < ahi and best_j + best_k < bhi:
                stack[4 * top], stack[4 * top + 1] = best_i + best_k, ahi
                stack[4 * top + 2], stack[4 * top + 3] = best_j + best_k, bhi
                top += 1
    return total


def _difflib_pairs(
    codes1: list[int],
    starts1: list[int],
    codes2: list[int],
    starts2: list[int],
    rows: list[int],
    cols: list[int],
    out: list[int],
    width: int,
) -> None:
    """``out[i * width + j]``: ``_difflib_total`` of texts i and j for each listed pair."""
    longest = 1
    for i in range(len(starts1) - 1):
        longest = max(longest, starts1[i + 1] - starts1[i])
    for j in range(len(starts2) - 1):
        longest = max(longest, starts2[j + 1] - starts2[j])
    stack = _ints(4 * (2 * longest + 2))
    lengths = _ints(2 * (longest + 2))
    for p in range(len(rows)):
        i, j = rows[p], cols[p]
        a = codes1[starts1[i] : starts1[i + 1]]
        b = codes2[starts2[j] : starts2[j + 1]]
        out[i * width + j] = _difflib_total(a, b, stack, lengths)
