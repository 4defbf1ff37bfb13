"""The small-matrix assignment solver returns scipy's very assignment, ties included."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment as scipy_assignment

from parsescore.shared import lap

matrices = st.tuples(
    st.integers(0, 12), st.integers(0, 12), st.integers(1, 4), st.booleans()
).flatmap(
    lambda shape: st.lists(
        st.integers(0, shape[2]) if shape[3] else st.floats(0, 3, allow_nan=False),
        min_size=shape[0] * shape[1],
        max_size=shape[0] * shape[1],
    ).map(lambda values: np.array(values, dtype=float).reshape(shape[0], shape[1]))
)


@settings(max_examples=400, deadline=None)
@given(matrices)
def test_same_assignment_as_scipy(cost: np.ndarray) -> None:
    rows, cols = lap.linear_sum_assignment(cost)
    expected_rows, expected_cols = scipy_assignment(cost)
    assert rows.tolist() == expected_rows.tolist()
    assert cols.tolist() == expected_cols.tolist()


def test_large_tie_heavy_matrices_agree() -> None:
    rng = np.random.default_rng(5)
    for shape in ((64, 64), (40, 64), (64, 40), (30, 30)):
        cost = rng.integers(0, 3, shape).astype(float)
        rows, cols = lap.linear_sum_assignment(cost)
        expected_rows, expected_cols = scipy_assignment(cost)
        assert rows.tolist() == expected_rows.tolist()
        assert cols.tolist() == expected_cols.tolist()


def test_big_or_non_finite_matrices_go_to_scipy() -> None:
    cost = np.array([[np.inf, 1.0], [2.0, np.inf]])
    assert [c.tolist() for c in lap.linear_sum_assignment(cost)] == [[0, 1], [1, 0]]
    big = np.random.default_rng(1).random((70, 70))
    assert lap.linear_sum_assignment(big)[1].tolist() == scipy_assignment(big)[1].tolist()


@settings(max_examples=400, deadline=None)
@given(matrices)
def test_lists_give_scipys_assignment(cost: np.ndarray) -> None:
    rows, cols = lap.list_assignment(cost.tolist())
    expected_rows, expected_cols = scipy_assignment(cost)
    assert (rows, cols) == (expected_rows.tolist(), expected_cols.tolist())
    assert all(type(i) is int for i in rows + cols)


def test_lists_past_their_size_or_not_finite_go_to_numpy_and_scipy() -> None:
    rng = np.random.default_rng(7)
    for shape in ((16, 16), (17, 16), (12, 30), (30, 12)):  # around LIST_ENTRIES (256)
        cost = rng.integers(0, 3, shape).astype(float)
        expected_rows, expected_cols = scipy_assignment(cost)
        assert lap.list_assignment(cost.tolist()) == (
            expected_rows.tolist(),
            expected_cols.tolist(),
        )
    assert lap.list_assignment([[np.inf, 1.0], [2.0, np.inf]]) == ([0, 1], [1, 0])
    assert lap.list_assignment([]) == ([], [])
    assert lap.list_assignment([[], []]) == ([], [])


def test_lists_with_a_raised_limit_give_scipys_assignment() -> None:
    """A caller may keep bigger matrices on lists (``limit``): still scipy's assignment."""
    rng = np.random.default_rng(11)
    for shape in ((17, 16), (32, 32), (20, 45), (45, 20)):
        cost = rng.integers(0, 3, shape).astype(float)
        expected_rows, expected_cols = scipy_assignment(cost)
        on_lists = lap.list_assignment(cost.tolist(), limit=cost.size)
        assert on_lists == (expected_rows.tolist(), expected_cols.tolist())
