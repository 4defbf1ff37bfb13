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
