"""Minimal line diff (Myers' O(ND) greedy algorithm), the diff ``git diff`` computes by default.

A shared idea: any kind that compares scripts line by line can use it. The result is a minimal
edit script — the number of deletions plus insertions equals ``len(a) + len(b) - 2 * LCS`` —
as a list of :class:`DiffOp` in sequence order. Common prefix and suffix are stripped first
and sequences with nothing in common short-cut to "delete all, insert all", so real files
stay fast in pure Python.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = ["DiffOp", "edit_distance", "myers_diff"]

DiffTag = Literal["equal", "delete", "insert"]


@dataclass(frozen=True, slots=True)
class DiffOp:
    """One step of an edit script.

    Attributes:
        tag: ``"equal"`` (kept), ``"delete"`` (only in ``a``) or ``"insert"`` (only in ``b``).
        a_index: index into ``a`` (None for an insertion).
        b_index: index into ``b`` (None for a deletion).
    """

    tag: DiffTag
    a_index: int | None
    b_index: int | None


def _core(a: Sequence[int], b: Sequence[int]) -> list[tuple[DiffTag, int, int]]:
    """Myers greedy forward search plus backtracking; indices are local to ``a``/``b``."""
    n, m = len(a), len(b)
    if n == 0 or m == 0 or not set(a).intersection(b):
        return [("delete", i, -1) for i in range(n)] + [("insert", -1, j) for j in range(m)]
    size = n + m
    offset = size + 1
    v = [0] * (2 * size + 3)
    trace: list[list[int]] = []
    found = False
    for d in range(size + 1):
        # Keep only the slice round ``d`` reads (diagonals -d-1 .. d+1).
        trace.append(v[offset - d - 1 : offset + d + 2])
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[offset + k - 1] < v[offset + k + 1]):
                x = v[offset + k + 1]
            else:
                x = v[offset + k - 1] + 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            v[offset + k] = x
            if x >= n and y >= m:
                found = True
                break
        if found:
            break
    ops: list[tuple[DiffTag, int, int]] = []
    x, y = n, m
    for d in range(len(trace) - 1, -1, -1):
        snapshot = trace[d]  # snapshot[i] is v[k] for k = i - d - 1

        def at(k: int, snapshot: list[int] = snapshot, d: int = d) -> int:
            return snapshot[k + d + 1]

        k = x - y
        prev_k = k + 1 if k == -d or (k != d and at(k - 1) < at(k + 1)) else k - 1
        prev_x = at(prev_k) if d > 0 else 0
        prev_y = prev_x - prev_k if d > 0 else 0
        while x > prev_x and y > prev_y:
            ops.append(("equal", x - 1, y - 1))
            x -= 1
            y -= 1
        if d > 0:
            if x == prev_x:
                ops.append(("insert", -1, y - 1))
            else:
                ops.append(("delete", x - 1, -1))
        x, y = prev_x, prev_y
    ops.reverse()
    return ops


def myers_diff(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[DiffOp]:
    """Minimal edit script turning ``a`` into ``b`` (items compared with ``==``).

    >>> [(op.tag, op.a_index, op.b_index) for op in myers_diff("abc", "acd")]
    [('equal', 0, 0), ('delete', 1, None), ('equal', 2, 1), ('insert', None, 2)]
    """
    ids: dict[Hashable, int] = {}
    a_ids = [ids.setdefault(item, len(ids)) for item in a]
    b_ids = [ids.setdefault(item, len(ids)) for item in b]
    n, m = len(a_ids), len(b_ids)
    prefix = 0
    while prefix < n and prefix < m and a_ids[prefix] == b_ids[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < n - prefix
        and suffix < m - prefix
        and a_ids[n - 1 - suffix] == b_ids[m - 1 - suffix]
    ):
        suffix += 1
    result = [DiffOp("equal", i, i) for i in range(prefix)]
    for tag, i, j in _core(a_ids[prefix : n - suffix], b_ids[prefix : m - suffix]):
        result.append(DiffOp(tag, None if i < 0 else i + prefix, None if j < 0 else j + prefix))
    result.extend(DiffOp("equal", n - suffix + t, m - suffix + t) for t in range(suffix))
    return result


def edit_distance(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Number of deletions plus insertions in a minimal line diff of ``a`` and ``b``."""
    return sum(op.tag != "equal" for op in myers_diff(a, b))
