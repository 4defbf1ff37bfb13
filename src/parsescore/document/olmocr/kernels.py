"""Compiled (numba) forms of fuzzysearch's prefix expansion, the hot loop of ``order`` tests:
the same recurrences, band limits and stopping rules as ``textops._expand_short`` and
``_expand_long`` (which stay the readable, reference-checked definition), on code-point arrays.
Each returns (edits, length) or (-1, -1) above the limit."""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["codes", "expand_long", "expand_short"]


def codes(text: str) -> np.ndarray:
    """The text's code points."""
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


@njit(cache=True)
def expand_short(needle: np.ndarray, text: np.ndarray, max_dist: int) -> tuple[int, int]:
    size = needle.shape[0]
    scores = np.arange(1, size + 1)
    best = size
    best_at = -1
    for at in range(text.shape[0]):
        char = text[at]
        diagonal = at
        left = diagonal + 1
        for k in range(size):
            above = scores[k]
            value = diagonal + (1 if char != needle[k] else 0)
            if above + 1 < value:
                value = above + 1
            if left + 1 < value:
                value = left + 1
            scores[k] = value
            left = value
            diagonal = above
        if left <= best:
            best = left
            best_at = at
        elif scores.min() >= best:
            break
    if best <= max_dist:
        return best, best_at + 1
    return -1, -1


@njit(cache=True)
def expand_long(needle: np.ndarray, text: np.ndarray, max_dist: int) -> tuple[int, int]:
    size = needle.shape[0]
    scores = np.arange(1, size + 1)
    best = size
    best_at = -1
    good = max_dist
    next_low = 0
    next_high = size - 1
    for at in range(text.shape[0]):
        char = text[at]
        low = next_low
        high = min(size, next_high + 1)
        diagonal = at
        left = diagonal + 1
        if left <= good:
            next_low = 0
            next_high = 0
        else:
            next_low = -1
            next_high = -1
        for k in range(low, high):
            above = scores[k]
            value = diagonal + (1 if char != needle[k] else 0)
            if above + 1 < value:
                value = above + 1
            if left + 1 < value:
                value = left + 1
            scores[k] = value
            left = value
            diagonal = above
            if left <= good:
                if next_low == -1:
                    next_low = k
                reach = k + 1 + (good - left)
                if reach > next_high:
                    next_high = reach
        if next_low == -1:
            break
        if high == size and left <= best:
            best = left
            best_at = at
            if best < good:
                good = best
    if best <= max_dist:
        return best, best_at + 1
    return -1, -1
