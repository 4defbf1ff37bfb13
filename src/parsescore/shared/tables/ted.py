"""Exact tree edit distance (Zhang–Shasha), in plain Python for small pairs, compiled for big.

Unit insert/delete costs and a rename cost looked up in a class-by-class matrix, so that the
(expensive) text distances are computed once per distinct cell pair outside the kernel.
Zhang–Shasha and the reference's APTED both return the optimum, so the distances agree
(up to float summation order). Tables are shallow, so the run time is close to O(n1 * n2).

A pair of at most ``COMPILED_FROM`` DP cells (``n1 * n2``) runs the Python loops of
:mod:`parsescore.shared.tables.ted_small` (importable without NumPy) while the process has not
yet spent ``PYTHON_CELLS_BUDGET`` cells there: a one-cell table costs
microseconds in Python, where importing numba and loading its compiled kernel costs about a
second and 100 MB in a fresh process. Bigger pairs, every pair once the kernel is loaded, and
every pair after the budget (a dataset of many small tables) run the numba kernel
(:mod:`parsescore.shared.tables.ted_compiled`): the same loops operation for operation, so
both paths return the same floats (tests compare them across the threshold) and which one ran
never shows in a result. The compiled path computes only the DP cells an optimal edit can
pass through (:func:`pruned_tree_edit_distance`, same float; proof in its docstring), its
functions compiled from this module's own code objects (``BAND_KERNELS``).
"""

from __future__ import annotations

import math
import threading

import numpy as np

from parsescore.shared.tables.ted_small import python_kernel_runs, zhang_shasha

__all__ = [
    "band_limits",
    "banded_distance",
    "postorder_arrays",
    "pruned_tree_edit_distance",
    "scratch",
    "split_keyroots",
    "tree_edit_distance",
]

#: The kernels ``ted_compiled`` compiles from this module's code objects (one source).
BAND_KERNELS = ("_left_paths", "_band_leaf_rows", "_band_forest", "_band_distance")


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


def band_limits(n1: int, n2: int, width: int) -> tuple[int, int]:
    """The differences ``x - y`` a cell may have when any path through it costs <= ``width``.

    A forest-DP cell (x, y) stands for the postorder prefixes ``0..x`` and ``0..y``; with
    ``d = x - y`` and ``d0 = n1 - n2``, every path through it costs at least
    ``|d| + |d0 - d|`` (see :func:`pruned_tree_edit_distance`). Needs ``width >= |d0|``.
    """
    d0 = n1 - n2
    slack = (width - abs(d0)) // 2
    return max(min(0, d0) - slack, -n2), min(max(0, d0) + slack, n1)


def _band_leaf_rows(
    leaves: np.ndarray,
    class_self: np.ndarray,
    leftmost_other: np.ndarray,
    class_other: np.ndarray,
    rename: np.ndarray,
    tree_dist: np.ndarray,
    dlo: int,
    dhi: int,
    transpose: bool,
) -> None:
    """``_leaf_rows`` for the pairs inside the band only (same floats: the minimum of the
    same rename costs, then the same sum); a scan stops at a zero cost, none is lower.
    ``transpose``: the leaves are tree 2's, their costs a column of ``rename``."""
    n_other = leftmost_other.shape[0]
    for a in range(leaves.shape[0]):
        x = leaves[a]
        cx = class_self[x]
        if transpose:  # x is a node of tree 2, v of tree 1: d = v - x
            lo = x + dlo
            hi = x + dhi
        else:  # d = x - v
            lo = x - dhi
            hi = x - dlo
        if lo < 0:
            lo = 0
        if hi > n_other - 1:
            hi = n_other - 1
        for v in range(lo, hi + 1):
            first = leftmost_other[v]
            if transpose:
                best = rename[class_other[v], cx]
                u = v - 1
                while u >= first and best > 0.0:
                    cost = rename[class_other[u], cx]
                    if cost < best:
                        best = cost
                    u -= 1
            else:
                best = rename[cx, class_other[v]]
                u = v - 1
                while u >= first and best > 0.0:
                    cost = rename[cx, class_other[u]]
                    if cost < best:
                        best = cost
                    u -= 1
            if best > 2.0:
                best = 2.0
            d = (v - first) + best
            if transpose:
                tree_dist[v, (v - x) - dlo] = d
            else:
                tree_dist[x, (x - v) - dlo] = d


def _left_paths(leftmost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Nodes grouped by leftmost leaf: ``nodes[offsets[l]:offsets[l + 1]]`` (increasing) are
    the left path of the key root whose leftmost leaf is l (the nodes sharing that leaf)."""
    n = leftmost.shape[0]
    offsets = np.zeros(n + 1, dtype=np.int64)
    for v in range(n):
        offsets[leftmost[v] + 1] += 1
    for v in range(n):
        offsets[v + 1] += offsets[v]
    filled = offsets[:n].copy()
    nodes = np.empty(n, dtype=np.int64)
    for v in range(n):
        nodes[filled[leftmost[v]]] = v
        filled[leftmost[v]] += 1
    return offsets, nodes


def _band_forest(
    leftmost1: np.ndarray,
    leftmost2: np.ndarray,
    class1: np.ndarray,
    class2: np.ndarray,
    rename: np.ndarray,
    keyroots1: np.ndarray,
    keyroots2: np.ndarray,
    tree_dist: np.ndarray,
    forest: np.ndarray,
    dlo: int,
    dhi: int,
) -> None:
    """Zhang–Shasha's forest loops over the cells whose global difference ``x - y`` lies in
    ``[dlo, dhi]``; a cell outside reads as +inf. Row 0 and column 0 of each forest (pure
    inserts or deletes) are exact values computed where read. Cells are stored by row and
    ``x - y - dlo``, distances likewise: memory and work grow with the band, not n1 * n2."""
    width = dhi - dlo + 1
    inf = np.inf
    offsets1, path1 = _left_paths(leftmost1)
    offsets2, path2 = _left_paths(leftmost2)
    for a in range(keyroots1.shape[0]):
        k1 = keyroots1[a]
        l1 = leftmost1[k1]
        for b in range(keyroots2.shape[0]):
            k2 = keyroots2[b]
            l2 = leftmost2[k2]
            # This pair's results are its left-path pairs; only those in the band are ever
            # read. Cells after the last of them (in x or in y) feed none: not computed.
            x_need = -1
            y_need = -1
            for p in range(offsets1[l1], offsets1[l1 + 1]):
                xp = path1[p]
                for q in range(offsets2[l2], offsets2[l2 + 1]):
                    yq = path2[q]
                    if dlo <= xp - yq <= dhi:
                        if xp > x_need:
                            x_need = xp
                        if yq > y_need:
                            y_need = yq
            if x_need < 0:
                continue
            x_lo = l1 if l1 > l2 + dlo else l2 + dlo
            x_hi = x_need if x_need < y_need + dhi else y_need + dhi
            for x in range(x_lo, x_hi + 1):
                i = x - l1 + 1
                lx = leftmost1[x]
                rename_x = rename[class1[x]]
                dist_x = tree_dist[x]
                current = forest[i]
                previous = forest[i - 1]
                r = lx - l1
                before = forest[r]
                y_lo = l2 if l2 > x - dhi else x - dhi
                y_hi = y_need if y_need < x - dlo else x - dlo
                # (x, y_lo - 1): column 0 (i deletions) or outside the band.
                left = float(i) if y_lo == l2 else inf
                if r > 0:  # x is off its key root's left path (most rows): i > 1
                    for y in range(y_lo, y_hi + 1):
                        o = (x - y) - dlo
                        best = (previous[o - 1] if o >= 1 else inf) + 1.0
                        insert = left + 1.0
                        if insert < best:
                            best = insert
                        ly = leftmost2[y]
                        if ly == l2:
                            base = float(r)
                        else:
                            ob = (lx - ly) - dlo
                            base = before[ob] if 0 <= ob < width else inf
                        change = base + dist_x[o]
                        if change < best:
                            best = change
                        current[o] = best
                        left = best
                    continue
                for y in range(y_lo, y_hi + 1):
                    o = (x - y) - dlo
                    if i == 1:
                        up = float(y - l2 + 1)
                    elif o >= 1:
                        up = previous[o - 1]
                    else:
                        up = inf
                    best = up + 1.0
                    insert = left + 1.0
                    if insert < best:
                        best = insert
                    ly = leftmost2[y]
                    if r == 0 and ly == l2:  # x and y on their key roots' left paths
                        j = y - l2 + 1
                        if i == 1:
                            diagonal = float(j - 1)
                        elif j == 1:
                            diagonal = float(i - 1)
                        else:
                            diagonal = previous[o]
                        change = diagonal + rename_x[class2[y]]
                        if change < best:
                            best = change
                        dist_x[o] = best
                    else:
                        if r == 0:
                            base = float(ly - l2)
                        elif ly == l2:
                            base = float(r)
                        else:
                            ob = (lx - ly) - dlo
                            base = before[ob] if 0 <= ob < width else inf
                        change = base + dist_x[o]
                        if change < best:
                            best = change
                    current[o] = best
                    left = best


def _band_distance(
    leftmost1: np.ndarray,
    leftmost2: np.ndarray,
    class1: np.ndarray,
    class2: np.ndarray,
    rename: np.ndarray,
    keyroots1: np.ndarray,
    keyroots2: np.ndarray,
    leaves1: np.ndarray,
    leaves2: np.ndarray,
    dlo: int,
    dhi: int,
    tree_dist: np.ndarray,
    forest: np.ndarray,
) -> float:
    """One pruned run: the distance found inside the band (an upper bound, exact when it
    is at most the band's width; see :func:`pruned_tree_edit_distance`). ``tree_dist``
    (n1 x width) and ``forest`` ((n1 + 1) x width) come filled with +inf
    (:func:`_band_buffers`)."""
    n1 = leftmost1.shape[0]
    n2 = leftmost2.shape[0]
    _band_leaf_rows(leaves1, class1, leftmost2, class2, rename, tree_dist, dlo, dhi, False)
    _band_leaf_rows(leaves2, class2, leftmost1, class1, rename, tree_dist, dlo, dhi, True)
    _band_forest(
        leftmost1,
        leftmost2,
        class1,
        class2,
        rename,
        keyroots1,
        keyroots2,
        tree_dist,
        forest,
        dlo,
        dhi,
    )
    return float(tree_dist[n1 - 1, (n1 - n2) - dlo])


def split_keyroots(leftmost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Zhang–Shasha's key roots of one tree: (those with children, single-node ones)."""
    # The key root of a leftmost leaf is the last node (in postorder) having it.
    last = np.full(leftmost.shape[0], -1, dtype=np.int64)
    np.maximum.at(last, leftmost, np.arange(leftmost.shape[0], dtype=np.int64))
    roots = np.sort(last[last >= 0])
    single = leftmost[roots] == roots
    return np.ascontiguousarray(roots[~single]), np.ascontiguousarray(roots[single])


#: The largest scratch array kept between calls (:func:`scratch`), in float64 values (32 MB).
SCRATCH_KEPT = 4 * 1024 * 1024

_scratch = threading.local()


def scratch(slot: str, size: int) -> np.ndarray:
    """A flat float64 array of ``size`` values, its contents undefined, from a buffer kept per
    thread and per ``slot`` between calls (up to :data:`SCRATCH_KEPT` values).

    A TEDS pair's big arrays (the rename costs, the band DP's) are megabytes; made afresh for
    every pair, they are mapped from the system and handed back each time, a page fault per 4
    KB (1,200 for a 60x15 pair, about 3 ms of its 35 ms on this project's machine). A caller
    uses its slot's array only until it returns, so no value passes between calls."""
    buffers: dict[str, np.ndarray] = _scratch.__dict__.setdefault("buffers", {})
    buffer = buffers.get(slot)
    if buffer is None or buffer.shape[0] < size:
        buffer = np.empty(size)
        if size <= SCRATCH_KEPT:
            buffers[slot] = buffer
    return buffer[:size]


def _band_buffers(n1: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """``_band_distance``'s two arrays (``tree_dist``: n1 x width, ``forest``: (n1 + 1) x
    width), filled with +inf, in the ``"band"`` :func:`scratch`. Each run refills what it
    uses."""
    used = scratch("band", (2 * n1 + 1) * width)
    used.fill(np.inf)
    return used[: n1 * width].reshape(n1, width), used[n1 * width :].reshape(n1 + 1, width)


_BandArrays = tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
    np.ndarray, np.ndarray, np.ndarray, np.ndarray,
]  # fmt: skip


def _band_arguments(
    leftmost1: np.ndarray,
    leftmost2: np.ndarray,
    class1: np.ndarray,
    class2: np.ndarray,
    rename: np.ndarray,
) -> _BandArrays:
    """The arrays ``_band_distance`` takes before its band, contiguous and typed for numba."""
    keyroots1, leaves1 = split_keyroots(leftmost1)
    keyroots2, leaves2 = split_keyroots(leftmost2)
    return (
        np.ascontiguousarray(leftmost1, dtype=np.int64),
        np.ascontiguousarray(leftmost2, dtype=np.int64),
        np.ascontiguousarray(class1, dtype=np.int64),
        np.ascontiguousarray(class2, dtype=np.int64),
        np.ascontiguousarray(rename, dtype=np.float64),
        keyroots1,
        keyroots2,
        leaves1,
        leaves2,
    )


def banded_distance(
    leftmost1: np.ndarray,
    leftmost2: np.ndarray,
    class1: np.ndarray,
    class2: np.ndarray,
    rename: np.ndarray,
    width: int,
    *,
    compiled: bool = False,
) -> float:
    """One run of the pruned loops with the band of paths costing at most ``width`` (>= |n1 -
    n2|): an upper bound of the distance, equal to it when it is at most ``width`` (tests)."""
    arrays = _band_arguments(leftmost1, leftmost2, class1, class2, rename)
    dlo, dhi = band_limits(leftmost1.shape[0], leftmost2.shape[0], width)
    buffers = _band_buffers(leftmost1.shape[0], dhi - dlo + 1)
    if compiled:
        from parsescore.shared.tables.ted_compiled import kernels

        return float(kernels["_band_distance"](*arrays, dlo, dhi, *buffers))
    return _band_distance(*arrays, dlo, dhi, *buffers)


def pruned_tree_edit_distance(
    leftmost1: np.ndarray,
    leftmost2: np.ndarray,
    class1: np.ndarray,
    class2: np.ndarray,
    rename: np.ndarray,
    *,
    compiled: bool = True,
    first_width: int | None = None,
) -> float:
    """:func:`tree_edit_distance` (both trees non-empty) computing only the forest-DP cells
    an optimal edit can pass through, with exactly the same float result.

    Why it is exact. Zhang–Shasha's cells, in every key-root pair's forest DP, stand for
    postorder prefixes of the two whole trees: cell (x, y) means nodes ``0..x`` of tree 1
    and ``0..y`` of tree 2 are edited (the key-root pair's forest is the part after the
    prefixes its leftmost leaves start). An edit script is a path of steps from the empty
    prefixes to the whole trees: a delete or insert (cost 1) changes the prefix-length
    difference ``d = x - y`` by 1, a rename (cost >= 0) leaves it, and mapping a subtree
    pair of sizes s1, s2 (cost ``TD >= |s1 - s2|``, by induction) changes it by s1 - s2.
    So every step changes d by at most its cost, and a path of total cost C through (x, y)
    has ``|d| + |d0 - d| <= C`` (``d0 = n1 - n2``; first part from the start, second to the
    end). Running the same loops with every cell outside ``|d| + |d0 - d| <= w`` read as
    +inf (:func:`band_limits`) gives a value R >= the true distance TD at every cell (fewer
    and larger candidates, float + and min are monotone); and if R <= w then TD <= w, so
    every cell of the unpruned run's optimal path (cost TD, up to rounding far below 1,
    while the bound is an integer) lies in the band and is computed from the same inputs by
    the same operations: R == TD bit for bit. Otherwise R is still an upper bound, and the
    band is widened (to ceil(R) when that is at most 4 w, else 4 w) until R <= w; when the
    band would cover half the cells the unpruned kernel runs instead.

    Within the band, a key-root pair's forest DP is cut after the last of its results that
    is in the band: its results are the distances of its left-path node pairs, read only
    at the same (x, y) of other DPs, so only in the band; and every DP cell depends on
    cells with smaller or equal x and y only. The computed cells are thus the same, and a
    pair with no result in the band is skipped (most pairs of a table root with a row).

    ``compiled=False`` runs the same functions in Python (tests); ``first_width`` sets the
    first band (tests; default from the tree sizes).
    """
    n1, n2 = leftmost1.shape[0], leftmost2.shape[0]
    d0 = abs(n1 - n2)
    arrays = _band_arguments(leftmost1, leftmost2, class1, class2, rename)
    if compiled:
        from parsescore.shared.tables.ted_compiled import kernels

        run = kernels["_band_distance"]
    else:
        run = _band_distance
    width = first_width if first_width is not None else d0 + 2 + (n1 + n2) // 32
    width = max(width, d0 + 2)
    while 2 * width < n1 + n2:
        dlo, dhi = band_limits(n1, n2, width)
        found = float(run(*arrays, dlo, dhi, *_band_buffers(n1, dhi - dlo + 1)))
        if found <= width:
            return found
        width = min(math.ceil(found), 4 * width)
    if compiled:
        from parsescore.shared.tables.ted_compiled import compiled_tree_edit_distance

        return compiled_tree_edit_distance(leftmost1, leftmost2, class1, class2, rename)
    dlo, dhi = band_limits(n1, n2, n1 + n2)
    return float(run(*arrays, dlo, dhi, *_band_buffers(n1, dhi - dlo + 1)))


def tree_edit_distance(
    leftmost1: np.ndarray,
    leftmost2: np.ndarray,
    class1: np.ndarray,
    class2: np.ndarray,
    rename: np.ndarray,
    *,
    compiled: bool | None = None,
    pruned: bool = True,
) -> float:
    """Tree edit distance of two postorder trees; insert/delete cost 1.

    ``class1[i]``/``class2[j]`` index the rows/columns of ``rename`` (float64), the cost of
    relabelling node i of tree 1 into node j of tree 2. ``compiled`` forces one kernel (tests);
    by default the size decides (``ted_small.python_kernel_runs``). The compiled path prunes
    the DP to the cells an optimal edit can reach (:func:`pruned_tree_edit_distance`, same floats);
    ``pruned=False`` runs every cell (tests).
    """
    n1, n2 = leftmost1.shape[0], leftmost2.shape[0]
    if n1 == 0:
        return float(n2)
    if n2 == 0:
        return float(n1)
    if compiled is None:
        compiled = not python_kernel_runs(n1 * n2)
    if compiled:
        if pruned:
            return pruned_tree_edit_distance(leftmost1, leftmost2, class1, class2, rename)
        from parsescore.shared.tables.ted_compiled import compiled_tree_edit_distance

        return compiled_tree_edit_distance(leftmost1, leftmost2, class1, class2, rename)
    costs = np.asarray(rename, dtype=np.float64)
    return zhang_shasha(
        [int(v) for v in leftmost1],
        [int(v) for v in leftmost2],
        [int(v) for v in class1],
        [int(v) for v in class2],
        costs.tolist(),
        costs.T.tolist(),
    )
