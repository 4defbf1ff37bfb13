"""quick_match's costly loops as kernels: the fewest edits between a short string and a window
of a longer one of the short one's length (most windows ruled out by an exact lower bound
instead of being compared), and the merging of consecutive predictions for one truth line.

quick_match asks, tens of thousands of times a run, whether some window of a truth line is
close to a prediction (and the reverse); most answers are "no", which a plain scan can only
prove by comparing every window. Here two passes of Myers' bit-parallel search (Sellers'
recurrence: the pattern may start anywhere in the text) give, for every position of the long
string, the fewest edits between the short string and any substring *ending* there, and the
same for substrings *starting* there (run backwards). A window is a substring that starts and
ends at known positions, so its distance is at least both numbers; only windows whose bound
is below the best distance so far are compared (Myers' global distance), and the search stops
at the first window below what the caller asks.

:func:`merge_row` is ``_merge_truncated``'s loop over one truth line (``match.py``), the same
conditions in the same order, its edit distances by the same bit-vector algorithm (an integer
has one value whichever algorithm finds it; the ratios are the same float divisions).

The kernels are plain Python over int64 arrays, the short string's rows cut in blocks of
``WORD`` bits and every intermediate value masked to them (a sum never reaches the sign bit):
the same source runs as Python (tests) and compiled by numba in
:mod:`parsescore.document.match_kernels_compiled`, with the same integers.
"""

from __future__ import annotations

import numpy as np

__all__ = ["KERNELS", "WORD", "codes", "cutoffs", "merge_row", "rescue_hits", "window_minimum"]

#: Bits of the short string per machine word (int64, sign and carry bits spared).
WORD = 62


def codes(text: str) -> np.ndarray:
    """The code points of ``text`` as the kernels take them."""
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)


def _table(short: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distinct characters of ``short`` in an open-addressing table keyed by code point
    (``keys``, -1 for a free slot; ``index``: each one's number), and bit masks of each one's
    places in ``short`` (``forward[k, block]``) and in ``short`` reversed (``backward``)."""
    n = short.shape[0]
    slots = 2
    while slots < 2 * n:
        slots *= 2
    keys = np.full(slots, -1, dtype=np.int64)
    index = np.zeros(slots, dtype=np.int64)
    place = np.empty(n, dtype=np.int64)
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
        place[i] = index[slot]
    blocks = (n + WORD - 1) // WORD
    forward = np.zeros((count, blocks), dtype=np.int64)
    backward = np.zeros((count, blocks), dtype=np.int64)
    for i in range(n):
        k = place[i]
        forward[k, i // WORD] = forward[k, i // WORD] | (1 << (i % WORD))
        r = n - 1 - i
        backward[k, r // WORD] = backward[k, r // WORD] | (1 << (r % WORD))
    return keys, index, forward, backward


def _map(
    long: np.ndarray, start: int, stop: int, keys: np.ndarray, index: np.ndarray,
    found: np.ndarray,
) -> None:  # fmt: skip
    """``found[start:stop]``: ``long``'s characters there as numbers of the table's (-1: not
    in it)."""
    slots = keys.shape[0]
    for p in range(start, stop):
        c = long[p]
        slot = c & (slots - 1)
        found[p] = -1
        while keys[slot] != -1:
            if keys[slot] == c:
                found[p] = index[slot]
                break
            slot = (slot + 1) & (slots - 1)


def _alphabet(short: np.ndarray, long: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``long`` as numbers of the distinct characters of ``short`` (:func:`_map`) and the
    masks of :func:`_table`."""
    keys, index, forward, backward = _table(short)
    found = np.empty(long.shape[0], dtype=np.int64)
    _map(long, 0, long.shape[0], keys, index, found)
    return found, forward, backward


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
    found: np.ndarray, start: int, stop: int, masks: np.ndarray, n: int, pv: np.ndarray,
    mv: np.ndarray,
) -> int:  # fmt: skip
    """Levenshtein distance between the short string (``n`` rows, ``masks``) and
    ``found[start:stop]``: Myers' algorithm (the top row 0, 1, 2, ...)."""
    _reset(pv, mv, n)
    score = n
    for p in range(start, stop):
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


def _global_distance_word(
    found: np.ndarray, start: int, stop: int, masks: np.ndarray, n: int
) -> int:
    """:func:`_global_distance` for a short string of one block."""
    full = (1 << n) - 1
    high = n - 1
    pv = full
    mv = 0
    score = n
    for p in range(start, stop):
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
    found, forward, backward = _alphabet(short, long)
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
                distance = _global_distance_word(found, start, start + n, forward, n)
            else:
                distance = _global_distance(found, start, start + n, forward, n, pv, mv)
            if distance < best:
                best = distance
                if best <= enough:
                    break
    return best


def cutoffs(threshold: float, n: int) -> tuple[int, int]:
    """The most edits of ``n`` characters at most / below ``threshold``: the largest counts
    ``c`` with ``c / n <= threshold`` and ``c / n < threshold`` (float division)."""
    cutoff = int(threshold * n) + 1
    while cutoff > 0 and cutoff / n > threshold:
        cutoff -= 1
    enough = cutoff if cutoff / n < threshold else cutoff - 1
    return cutoff, enough


def _window_ratio(long: np.ndarray, short: np.ndarray, threshold: float) -> float:
    """``_window_distance`` of ``parsescore.document.match`` (``len(long) >= len(short) > 0``):
    the window distance over the short length, or a value on the same side of ``threshold``."""
    n = short.shape[0]
    cutoff, enough = cutoffs(threshold, n)
    return float(window_minimum(long, short, cutoff, enough) / n)


def merge_row(
    gt: np.ndarray, preds: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
    stops: np.ndarray, free: np.ndarray, costs: np.ndarray, threshold: float,
) -> tuple[int, int, float]:  # fmt: skip
    """One truth line's best run of consecutive predictions, as ``_merge_truncated`` of
    ``parsescore.document.match`` finds it (the same conditions in the same order): its first
    prediction, its length and its distance; ``(-1, 0, inf)`` when ``free`` is empty.

    ``preds`` is the predictions joined by spaces (prediction ``k`` at ``starts[k]``, of
    ``lengths[k]``), so that a run is a slice of it; ``stops[k]``: prediction ``k`` is fixed
    (a run stops before it); ``free``: the predictions a run may start at; ``costs``: the
    line's row of the cost matrix; ``threshold``: ``MERGE``."""
    n = gt.shape[0]
    count = starts.shape[0]
    blocks = (n + WORD - 1) // WORD
    keys, index, forward, _ = _table(gt)
    found = np.empty(preds.shape[0], dtype=np.int64)
    mapped = np.zeros(count, dtype=np.bool_)  # found holds the prediction and the space after
    pv = np.empty(blocks, dtype=np.int64)
    mv = np.empty(blocks, dtype=np.int64)
    windows = np.full(count, -1.0)  # each prediction's window ratio, once computed
    best_j = -1
    best_step = 0
    best_cost = np.inf
    for a in range(free.shape[0]):
        j = free[a]
        step = 1
        line_len = lengths[j]
        line_cost = costs[j]
        while not (j + step >= count or stops[j + step]):
            k = j + step
            if lengths[k] > n or (step == 1 and line_len > n):
                break
            merged_len = line_len + 1 + lengths[k]
            start = starts[j]
            for q in (j, k):
                if not mapped[q]:
                    stop = min(starts[q] + lengths[q] + 1, preds.shape[0])
                    _map(preds, starts[q], stop, keys, index, found)
                    mapped[q] = True
            if blocks == 1:
                edits = _global_distance_word(found, start, start + merged_len, forward, n)
            else:
                edits = _global_distance(found, start, start + merged_len, forward, n, pv, mv)
            merged_cost = edits / max(n, merged_len)
            if merged_cost > line_cost:
                break
            if step == 1:
                if windows[j] < 0:
                    windows[j] = _window_ratio(gt, preds[start : start + line_len], threshold)
                if windows[j] > threshold:
                    break
            if windows[k] < 0:
                windows[k] = _window_ratio(gt, preds[starts[k] : starts[k] + lengths[k]],
                                           threshold)  # fmt: skip
            if not windows[k] < threshold:
                break
            step += 1
            line_len = merged_len
            line_cost = merged_cost
            if merged_len > n:
                break
        if line_cost < best_cost:
            best_j = j
            best_step = step
            best_cost = line_cost
    return best_j, best_step, best_cost


def rescue_hits(
    gts: np.ndarray, gt_starts: np.ndarray, gt_lengths: np.ndarray,
    preds: np.ndarray, pred_starts: np.ndarray, pred_lengths: np.ndarray, threshold: float,
) -> np.ndarray:  # fmt: skip
    """``hits[j, u]``: truth line ``u`` fits a window of prediction ``j`` below ``threshold``
    (``_sub_gt_distance`` of ``parsescore.document.match`` below ``RESCUE``: never when the
    line is longer). Both sides joined (``gts``/``preds``, at their starts, of their
    lengths); truth first, as everywhere."""
    hits = np.zeros((pred_starts.shape[0], gt_starts.shape[0]), dtype=np.bool_)
    for j in range(pred_starts.shape[0]):
        pred = preds[pred_starts[j] : pred_starts[j] + pred_lengths[j]]
        for u in range(gt_starts.shape[0]):
            if pred_lengths[j] >= gt_lengths[u] > 0:
                gt = gts[gt_starts[u] : gt_starts[u] + gt_lengths[u]]
                hits[j, u] = _window_ratio(pred, gt, threshold) < threshold
    return hits


#: The kernels, callees first (compiled together by ``match_kernels_compiled``).
KERNELS = ("_table", "_map", "_alphabet", "_column", "_reset", "_infix_bounds", "_global_distance",
           "_infix_bounds_word", "_global_distance_word", "window_minimum", "cutoffs",
           "_window_ratio", "merge_row", "rescue_hits")  # fmt: skip
