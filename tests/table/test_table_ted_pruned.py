"""The pruned tree edit distance (ted.pruned_tree_edit_distance) against the full kernel:
the same float, bit for bit, on random trees and tables, whatever band it starts from."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.shared.tables.score import rename_costs
from parsescore.shared.tables.ted import (
    band_limits,
    banded_distance,
    postorder_arrays,
    pruned_tree_edit_distance,
    split_keyroots,
    tree_edit_distance,
)
from parsescore.shared.tables.teds import TEDS
from parsescore.table.synthetic import random_pair, random_table_html


def _random_tree(
    rng: random.Random, n: int, n_labels: int, shallow: bool
) -> tuple[np.ndarray, np.ndarray]:
    """A random tree (bushy and shallow like a table, or any shape) in postorder arrays."""
    children: list[list[int]] = [[] for _ in range(n)]
    for node in range(1, n):
        parent = rng.randrange(min(node, 4)) if shallow else rng.randrange(node)
        children[parent].append(node)
    labels = [rng.randrange(n_labels) for _ in range(n)]
    order, leftmost = postorder_arrays(children, 0)
    return leftmost, np.array([labels[i] for i in order], dtype=np.int64)


def _costs(rng: random.Random, n_labels: int) -> np.ndarray:
    """Rename costs in [0, 1] as TEDS's are (0 on the diagonal, some exact zeros off it)."""
    costs = np.array(
        [[rng.choice([0.0, 1.0, rng.random()]) for _ in range(n_labels)] for _ in range(n_labels)]
    )
    np.fill_diagonal(costs, 0.0)
    return costs


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 10**9),
    st.integers(1, 45),
    st.integers(1, 45),
    st.integers(0, 12),
    st.booleans(),
)
def test_python_pruned_equals_full_on_random_trees(
    seed: int, n1: int, n2: int, extra: int, shallow: bool
) -> None:
    """Any first band (narrow ones fail their check and widen): the full kernel's float."""
    rng = random.Random(seed)
    n_labels = rng.randint(1, 6)
    l1, c1 = _random_tree(rng, n1, n_labels, shallow)
    l2, c2 = _random_tree(rng, n2, n_labels, shallow)
    costs = _costs(rng, n_labels)
    full = tree_edit_distance(l1, l2, c1, c2, costs, compiled=False)
    pruned = pruned_tree_edit_distance(
        l1, l2, c1, c2, costs, compiled=False, first_width=abs(n1 - n2) + extra
    )
    assert pruned == full


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(60, 160), st.integers(0, 30), st.booleans())
def test_compiled_pruned_equals_full_on_random_trees(
    seed: int, n1: int, extra: int, shallow: bool
) -> None:
    """The compiled pruned kernel on bigger trees, near-equal sizes so the band stays narrow."""
    rng = random.Random(seed)
    n2 = max(1, n1 + rng.randint(-10, 10))
    n_labels = rng.randint(2, 8)
    l1, c1 = _random_tree(rng, n1, n_labels, shallow)
    l2, c2 = _random_tree(rng, n2, n_labels, shallow)
    costs = _costs(rng, n_labels)
    full = tree_edit_distance(l1, l2, c1, c2, costs, compiled=True, pruned=False)
    pruned = pruned_tree_edit_distance(l1, l2, c1, c2, costs, first_width=abs(n1 - n2) + extra)
    assert pruned == full


def _table_distances(
    gt: str, pred: str, structure_only: bool, first_width: int | None
) -> tuple[float, float]:
    first, second = TEDS(structure_only).tree(gt), TEDS(structure_only).tree(pred)
    assert first is not None and second is not None
    costs = rename_costs(first.keys, second.keys)
    trees = (first.leftmost, second.leftmost, first.node_class, second.node_class)
    args = (*(np.array(a, dtype=np.int64) for a in trees), costs)
    full = tree_edit_distance(*args, compiled=True, pruned=False)
    return full, pruned_tree_edit_distance(*args, first_width=first_width)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10**9),
    st.integers(2, 30),
    st.integers(1, 10),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from([None, 0, 5, 40]),
)
def test_pruned_equals_full_on_table_pairs(
    seed: int,
    rows: int,
    cols: int,
    spans: bool,
    broken: bool,
    structure_only: bool,
    first_width: int | None,
) -> None:
    """Near-identical tables (a prediction is an edited copy): spans, broken markup, empty
    cells, inline tags, TEDS and TEDS-S, both argument orders."""
    gt, pred = random_pair(seed, rows, cols, spans=spans, broken=broken)
    for first, second in ((gt, pred), (pred, gt)):
        if TEDS().tree(first) is None or TEDS().tree(second) is None:
            return
        full, pruned = _table_distances(first, second, structure_only, first_width)
        assert pruned == full


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 25), st.integers(1, 8), st.booleans())
def test_pruned_equals_full_on_unrelated_tables(
    seed: int, rows: int, cols: int, structure_only: bool
) -> None:
    """Two unrelated tables of different shapes: the band widens to the full kernel's answer."""
    rng = random.Random(seed)
    gt = random_table_html(rng, rows, cols)
    pred = random_table_html(rng, rng.randint(1, 25), rng.randint(1, 8), spans=rng.random() < 0.5)
    full, pruned = _table_distances(gt, pred, structure_only, None)
    assert pruned == full


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_pruned_equals_full_on_the_benchmark_pairs(seed: int) -> None:
    """The 60x15 benchmark pairs, TEDS and TEDS-S, the default first band."""
    gt, pred = random_pair(seed, 60, 15, spans=False)
    for structure_only in (False, True):
        full, pruned = _table_distances(gt, pred, structure_only, None)
        assert pruned == full


@given(st.integers(1, 400), st.integers(1, 400), st.integers(0, 900))
def test_band_limits_hold_exactly_the_cells_a_path_of_that_cost_can_reach(
    n1: int, n2: int, extra: int
) -> None:
    width = abs(n1 - n2) + extra
    dlo, dhi = band_limits(n1, n2, width)
    d0 = n1 - n2
    assert dlo <= min(0, d0) and dhi >= max(0, d0)
    for d in (dlo, dhi):
        assert abs(d) + abs(d0 - d) <= width
    assert dlo == -n2 or abs(dlo - 1) + abs(d0 - dlo + 1) > width
    assert dhi == n1 or abs(dhi + 1) + abs(d0 - dhi - 1) > width


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 30), st.integers(1, 30), st.booleans())
def test_every_band_gives_an_upper_bound_exact_when_within_the_band(
    seed: int, n1: int, n2: int, shallow: bool
) -> None:
    """The docstring's theorem itself, band by band: R_w >= TD, and R_w <= w implies R_w == TD
    (bit for bit); from w >= TD on every band finds TD."""
    rng = random.Random(seed)
    n_labels = rng.randint(1, 5)
    l1, c1 = _random_tree(rng, n1, n_labels, shallow)
    l2, c2 = _random_tree(rng, n2, n_labels, shallow)
    costs = _costs(rng, n_labels)
    full = tree_edit_distance(l1, l2, c1, c2, costs, compiled=False)
    for width in range(abs(n1 - n2), n1 + n2 + 1):
        found = banded_distance(l1, l2, c1, c2, costs, width)
        assert found >= full
        if found <= width or width >= full:
            assert found == full


def test_a_narrow_band_misses_the_optimum_and_the_loop_widens_it() -> None:
    """Rows shifted by k cells (k deleted at the start, k inserted at the end): the optimum
    goes k off the diagonal, so bands narrower than that find more than the distance."""
    k, n = 6, 40
    children = [list(range(1, n + 1))] + [[] for _ in range(n)]
    labels1 = [0] + [1 + i for i in range(n)]
    labels2 = [0] + [1 + (i + k) for i in range(n)]  # the same leaves, shifted by k
    order, l1 = postorder_arrays(children, 0)
    c1 = np.array([labels1[i] for i in order], dtype=np.int64)
    c2 = np.array([labels2[i] for i in order], dtype=np.int64)
    costs = 1.0 - np.eye(n + k + 1)
    full = tree_edit_distance(l1, l1, c1, c2, costs, compiled=False)
    assert full == 2 * k
    assert banded_distance(l1, l1, c1, c2, costs, 2) > 2
    assert banded_distance(l1, l1, c1, c2, costs, 2 * k) == full
    assert pruned_tree_edit_distance(l1, l1, c1, c2, costs, compiled=False, first_width=2) == full


@given(st.integers(0, 10**9), st.integers(1, 60), st.booleans())
def test_split_keyroots_are_zhang_shasha_key_roots(seed: int, n: int, shallow: bool) -> None:
    """Key roots: the highest node of each leftmost leaf, ascending; split by having children."""
    leftmost, _ = _random_tree(random.Random(seed), n, 1, shallow)
    with_children, single = split_keyroots(leftmost)
    expected = sorted(max(v for v in range(n) if leftmost[v] == leaf) for leaf in set(leftmost))
    assert sorted([*with_children.tolist(), *single.tolist()]) == expected
    assert with_children.tolist() == [k for k in expected if leftmost[k] != k]
    assert single.tolist() == [k for k in expected if leftmost[k] == k]


def test_scratch_is_kept_per_slot_and_thread_up_to_its_limit() -> None:
    import threading

    from parsescore.shared.tables import ted

    band = ted.scratch("band", 100)
    assert band.shape == (100,) and band.dtype == np.float64
    assert np.shares_memory(ted.scratch("band", 50), band)  # the kept buffer, again
    assert not np.shares_memory(ted.scratch("rename", 100), band)  # another slot's
    other: list[np.ndarray] = []
    worker = threading.Thread(target=lambda: other.append(ted.scratch("band", 100)))
    worker.start()
    worker.join()
    assert not np.shares_memory(other[0], band)  # another thread's
    big = ted.scratch("band", ted.SCRATCH_KEPT + 1)  # beyond the limit: made, not kept
    assert not np.shares_memory(big, ted.scratch("band", 100))


def test_a_pair_after_other_pairs_scores_as_a_fresh_process_does() -> None:
    """The kept arrays carry nothing from one pair to the next: each pair's TEDS, after bigger
    and smaller pairs in the same thread, equals the full kernel's."""
    pairs = [random_pair(seed, rows, cols) for seed, rows, cols in ((1, 30, 8), (2, 12, 5),
             (3, 40, 10), (1, 30, 8))]  # fmt: skip
    for gt, pred in pairs:
        first, second = (TEDS().tree(html) for html in (gt, pred))
        assert first is not None and second is not None
        leftmost1, leftmost2, class1, class2 = (
            np.array(a, dtype=np.int64)
            for a in (first.leftmost, second.leftmost, first.node_class, second.node_class)
        )
        costs = rename_costs(first.keys, second.keys)
        full = tree_edit_distance(
            leftmost1, leftmost2, class1, class2, costs, compiled=True, pruned=False
        )
        detail = TEDS().detail(gt, pred)
        assert detail.distance == full
