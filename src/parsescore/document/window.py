"""The fewest edits between a short string and a window of a longer one of the short one's
length, with most windows ruled out by an exact lower bound instead of being compared.

quick_match asks, tens of thousands of times a run, whether some window of a truth line is
close to a prediction (and the reverse); most answers are "no", which a plain scan can only
prove by comparing every window. Here two passes of Myers' bit-parallel search (Sellers'
recurrence: the pattern may start anywhere in the text) give, for every position of the long
string, the fewest edits between the short string and any substring *ending* there, and the
same for substrings *starting* there (run backwards). A window is a substring that starts and
ends at known positions, so its distance is at least both numbers; only windows whose bound
is below the best distance so far are compared (Myers' global distance).

The kernels are plain Python over int64 arrays, the short string's rows cut in blocks of
``WORD`` bits and every intermediate value masked to them (a sum never reaches the sign bit):
the same source runs as Python (tests) and compiled by numba in
:mod:`parsescore.document.window_compiled`, with the same integers.
"""

from __future__ import annotations

import numpy as np

__all__ = ["KERNELS", "WORD", "codes", "window_minimum"]

#: Bits of the short string per machine word (int64, sign and carry bits spared).
WORD = 62


def codes(text: str) -> np.ndarray:
    """The code points of ``text`` as the kernels take them."""
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)


def _alphabet(
    short: np.ndarray, long: np.ndarray, forward: np.ndarray, backward: np.ndarray
) -> np.ndarray:
    """Bit masks of each distinct character's places in ``short`` (``forward[k, block]``; in
    ``short`` reversed: ``backward``), and ``long`` as indices of those characters (-1: not
    in ``short``), through an open-addressing table keyed by code point."""
    n = short.shape[0]
    slots = 2
    while slots < 2 * n:
        slots *= 2
    keys = np.full(slots, -1, dtype=np.int64)
    index = np.zeros(slots, dtype=np.int64)
    count = 0
    for i in range(n):
        c = short[i]
        slot = c & (slots - 1)
        while keys[slot] != -1 and keys[slot] != c:
            slot = (slot + 1) & (slots - 1)
        if keys[slot] == -1:
            keys[slot] = c
            index[slot] = count
            count += 1
        k = index[slot]
        forward[k, i // WORD] = forward[k, i // WORD] | (1 << (i % WORD))
        r = n - 1 - i
        backward[k, r // WORD] = backward[k, r // WORD] | (1 << (r % WORD))
    m = long.shape[0]
    found = np.empty(m, dtype=np.int64)
    for p in range(m):
        c = long[p]
        slot = c & (slots - 1)
        found[p] = -1
        while keys[slot] != -1:
            if keys[slot] == c:
                found[p] = index[slot]
                break
            slot = (slot + 1) & (slots - 1)
    return found


def _column(k: int, masks: np.ndarray, pv: np.ndarray, mv: np.ndarray, n: int, hin: int) -> int:
    """One column of Myers' bit-vector algorithm over the blocks of ``WORD`` rows (Myers
    1999, the blocks linked by the horizontal difference): ``pv``/``mv`` (vertical +1/-1
    differences) advanced by the character of index ``k`` (-1: in no place); ``hin`` is the
    top row's horizontal difference (0: free start, 1: global). Returns the bottom row's."""
    blocks = pv.shape[0]
    for b in range(blocks):
        width = WORD if b < blocks - 1 else n - WORD * (blocks - 1)
        full = (1 << width) - 1
        eq = masks[k, b] if k >= 0 else 0
        p = pv[b]
        mm = mv[b]
        xv = eq | mm
        if hin < 0:
            eq = eq | 1
        xh = ((((eq & p) + p) & full) ^ p) | eq
        ph = mm | (~(xh | p) & full)
        mh = p & xh
        hout = 0
        if (ph >> (width - 1)) & 1:
            hout = 1
        elif (mh >> (width - 1)) & 1:
            hout = -1
        ph = (ph << 1) & full
        mh = (mh << 1) & full
        if hin < 0:
            mh = mh | 1
        elif hin > 0:
            ph = ph | 1
        pv[b] = mh | (~(xv | ph) & full)
        mv[b] = ph & xv
        hin = hout
    return hin


def _reset(pv: np.ndarray, mv: np.ndarray, n: int) -> None:
    blocks = pv.shape[0]
    for b in range(blocks):
        width = WORD if b < blocks - 1 else n - WORD * (blocks - 1)
        pv[b] = (1 << width) - 1
        mv[b] = 0


def _infix_bounds(
    found: np.ndarray, masks: np.ndarray, n: int, backwards: bool, pv: np.ndarray,
    mv: np.ndarray, out: np.ndarray,
) -> None:  # fmt: skip
    """``out[p]``: fewest edits between the short string and a substring of the long one
    ending at ``p`` (starting at ``p`` when ``backwards``, ``masks`` then being the reversed
    string's): Myers' search (Sellers' recurrence, the top row all zero)."""
    m = found.shape[0]
    _reset(pv, mv, n)
    score = n
    for step in range(m):
        p = m - 1 - step if backwards else step
        score += _column(found[p], masks, pv, mv, n, 0)
        out[p] = score


def _global_distance(
    found: np.ndarray, start: int, masks: np.ndarray, n: int, pv: np.ndarray, mv: np.ndarray
) -> int:
    """Levenshtein distance between the short string and the long one's window of its length
    at ``start``: Myers' algorithm (the top row 0, 1, 2, ...)."""
    _reset(pv, mv, n)
    score = n
    for p in range(start, start + n):
        score += _column(found[p], masks, pv, mv, n, 1)
    return score


def _infix_bounds_word(
    found: np.ndarray, masks: np.ndarray, n: int, backwards: bool, out: np.ndarray
) -> None:
    """:func:`_infix_bounds` for a short string of one block, its vectors held in scalars."""
    m = found.shape[0]
    full = (1 << n) - 1
    high = n - 1
    pv = full
    mv = 0
    score = n
    for step in range(m):
        p = m - 1 - step if backwards else step
        k = found[p]
        eq = masks[k, 0] if k >= 0 else 0
        xv = eq | mv
        xh = ((((eq & pv) + pv) & full) ^ pv) | eq
        ph = mv | (~(xh | pv) & full)
        mh = pv & xh
        if (ph >> high) & 1:
            score += 1
        elif (mh >> high) & 1:
            score -= 1
        ph = (ph << 1) & full
        mh = (mh << 1) & full
        pv = mh | (~(xv | ph) & full)
        mv = ph & xv
        out[p] = score


def _global_distance_word(found: np.ndarray, start: int, masks: np.ndarray, n: int) -> int:
    """:func:`_global_distance` for a short string of one block."""
    full = (1 << n) - 1
    high = n - 1
    pv = full
    mv = 0
    score = n
    for p in range(start, start + n):
        k = found[p]
        eq = masks[k, 0] if k >= 0 else 0
        xv = eq | mv
        xh = ((((eq & pv) + pv) & full) ^ pv) | eq
        ph = mv | (~(xh | pv) & full)
        mh = pv & xh
        if (ph >> high) & 1:
            score += 1
        elif (mh >> high) & 1:
            score -= 1
        ph = ((ph << 1) | 1) & full
        mh = (mh << 1) & full
        pv = mh | (~(xv | ph) & full)
        mv = ph & xv
    return score


def window_minimum(long: np.ndarray, short: np.ndarray, cutoff: int, enough: int) -> int:
    """Fewest edits between ``short`` (``0 < len(short) <= len(long)``) and a window of
    ``long`` of its length if that is at most ``cutoff``, else ``cutoff + 1`` — or, as soon as
    one is found, the distance of some window at most ``enough`` (``<= cutoff``).

    The window of the lowest bound is compared first (the likeliest to be close enough), then
    the others left to right while their bound is below the best distance found."""
    n = short.shape[0]
    m = long.shape[0]
    blocks = (n + WORD - 1) // WORD
    forward = np.zeros((n, blocks), dtype=np.int64)
    backward = np.zeros((n, blocks), dtype=np.int64)
    found = _alphabet(short, long, forward, backward)
    pv = np.empty(blocks, dtype=np.int64)
    mv = np.empty(blocks, dtype=np.int64)
    ends = np.empty(m, dtype=np.int64)
    if blocks == 1:
        _infix_bounds_word(found, forward, n, False, ends)
    else:
        _infix_bounds(found, forward, n, False, pv, mv, ends)
    best = cutoff + 1
    lowest = best
    for end in range(n - 1, m):
        if ends[end] < lowest:
            lowest = ends[end]
    if lowest > cutoff:
        return best  # no substring ending where a window ends is close enough
    starts = np.empty(m, dtype=np.int64)
    if blocks == 1:
        _infix_bounds_word(found, backward, n, True, starts)
    else:
        _infix_bounds(found, backward, n, True, pv, mv, starts)
    bounds = np.empty(m - n + 1, dtype=np.int64)
    first = 0
    for start in range(m - n + 1):
        bounds[start] = max(starts[start], ends[start + n - 1])
        if bounds[start] < bounds[first]:
            first = start
    for k in range(-1, m - n + 1):
        start = first if k < 0 else k
        if bounds[start] < best and (k < 0 or k != first):
            if blocks == 1:
                distance = _global_distance_word(found, start, forward, n)
            else:
                distance = _global_distance(found, start, forward, n, pv, mv)
            if distance < best:
                best = distance
                if best <= enough:
                    break
    return best


#: The kernels, callees first (compiled together by ``window_compiled``).
KERNELS = ("_alphabet", "_column", "_reset", "_infix_bounds", "_global_distance",
           "_infix_bounds_word", "_global_distance_word", "window_minimum")  # fmt: skip
