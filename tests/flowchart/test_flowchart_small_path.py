"""A small flowchart option is matched on Python lists (no NumPy import) until a MILP needs
arrays; a big one on arrays from the start. Both give the same records: forced onto either
path, every pair of diagrams matches alike, ties included (repeated texts and labels), and the
list helpers give the array helpers' very numbers."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fc_helpers import Option, benchmark
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_flowchart_properties import flowcharts

from parsescore.flowchart import match
from parsescore.shared import assign
from parsescore.shared.assign import (
    augmented_assignment,
    augmented_assignment_lists,
    text_optimal_support,
    text_optimal_support_lists,
)
from parsescore.shared.distance import (
    levenshtein,
    levenshtein_with_text_normalisation,
    text_cost_lists,
    text_costs,
)

#: Thresholds that send every option to one path: lists everywhere, arrays everywhere.
ON_LISTS, ON_ARRAYS = 10**9, -1


def _matches(truth: list[Option], pred: dict[str, Any], threshold: int) -> list[dict[str, Any]]:
    with pytest.MonkeyPatch.context() as patch, tempfile.TemporaryDirectory() as tmp:
        patch.setattr(match, "LIST_ENTRIES", threshold)
        patch.setattr(assign, "LIST_ENTRIES", threshold)
        bench = benchmark(Path(tmp), {"d": truth}, {"d": pred})
        return [m.model_dump() for m in bench.node_matches()]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(flowcharts(), st.sampled_from(["labels", "points_to", None]))
def test_lists_and_arrays_match_alike(
    case: tuple[Option, dict[str, Any]], drop: str | None
) -> None:
    """With flow and labels, flow alone, labels alone: the text-optimal matching's bounds
    decide on lists exactly when they decide on arrays."""
    truth, pred = case
    if drop is not None:  # that part not predicted
        pred = {**pred, "nodes": [{k: v for k, v in n.items() if k != drop} for n in pred["nodes"]]}
    assert _matches([truth], pred, ON_LISTS) == _matches([truth], pred, ON_ARRAYS)


@pytest.mark.parametrize("n", [3, 8, 9, 15, 16, 17, 24])
def test_both_sides_of_the_threshold_match_alike(n: int) -> None:
    """Repeated texts and a noisy flow around the default threshold (32 nodes in all)."""
    texts = [["Same", "Other", "Same!"][i % 3] for i in range(n)]
    edges = sorted({(i, i + 1) for i in range(1, n)} | {(1, n)})
    truth = Option(texts, edges, labels=[["x"] if i % 2 else [] for i in range(n)])
    nodes = [
        {
            "node_number": 10 + i,
            "text": texts[(i + 1) % n],
            "labels": ["x"] if i % 3 else [],
            "points_to": [10 + (i + 2) % n],
        }
        for i in range(n)
    ]
    pred = {"nodes": nodes, "additional_texts": []}
    default = _matches([truth], pred, match.LIST_ENTRIES)
    assert default == _matches([truth], pred, ON_LISTS) == _matches([truth], pred, ON_ARRAYS)


costs = st.sampled_from([0.0, 1.0, 2.0, 3.0, 0.5, 1.5, 1e-10, 2.0 + 1e-12])
matrices = st.integers(0, 6).flatmap(
    lambda n_true: st.integers(0, 6).flatmap(
        lambda n_pred: st.tuples(
            st.lists(
                st.lists(costs, min_size=n_pred, max_size=n_pred),
                min_size=n_true,
                max_size=n_true,
            ),
            st.lists(costs, min_size=n_true, max_size=n_true),
            st.lists(costs, min_size=n_pred, max_size=n_pred),
        )
    )
)


@settings(max_examples=300, deadline=None)
@given(matrices, st.booleans())
def test_list_helpers_give_the_array_helpers_numbers(
    data: tuple[list[list[float]], list[float], list[float]], integral: bool
) -> None:
    paired, alone_t, alone_p = data
    if integral:  # integer costs: many exact ties, and the support is exact
        paired = [[float(round(c)) for c in row] for row in paired]
        alone_t, alone_p = [float(round(c)) for c in alone_t], [float(round(c)) for c in alone_p]
    arrays = (
        np.array(paired, dtype=np.float64).reshape(len(alone_t), len(alone_p)),
        np.array(alone_t, dtype=np.float64),
        np.array(alone_p, dtype=np.float64),
    )
    records = augmented_assignment_lists(paired, alone_t, alone_p)
    assert records == augmented_assignment(*arrays)
    for forbidden in (1e9, 2.5):
        assert augmented_assignment_lists(
            paired, alone_t, alone_p, forbidden_cost=forbidden
        ) == augmented_assignment(*arrays, forbidden_cost=forbidden)
    if not paired or not paired[0]:
        return
    minimum = sum(r.cost for r in records)
    on_lists = text_optimal_support_lists(paired, alone_t, alone_p, minimum)
    on_arrays = text_optimal_support(*arrays, minimum)
    assert on_lists.pairs == on_arrays.pairs.tolist()
    assert on_lists.true_alone == on_arrays.true_alone.tolist()
    assert on_lists.pred_alone == on_arrays.pred_alone.tolist()
    assert on_lists.exact == on_arrays.exact
    per_true = on_arrays.pairs.sum(axis=1) + on_arrays.true_alone
    per_pred = on_arrays.pairs.sum(axis=0) + on_arrays.pred_alone
    assert on_lists.unique() == bool(np.all(per_true == 1) and np.all(per_pred == 1))


def _custom(*, true_text: str | None, pred_text: str | None) -> float:
    return abs(len(true_text or "") - len(pred_text or "")) / 3


TEXT = st.text(alphabet="ab –=\n  •", max_size=6)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(TEXT, max_size=5),
    st.lists(TEXT, max_size=5),
    st.sampled_from([levenshtein, levenshtein_with_text_normalisation, _custom]),
)
def test_text_cost_lists_are_text_costs(true: list[str], pred: list[str], fn: Any) -> None:
    lists = text_cost_lists(true, pred, fn)
    arrays = text_costs(true, pred, fn)
    again = lists.as_arrays()
    for name in ("paired", "unmatched_true", "unmatched_pred"):
        assert getattr(again, name).shape == getattr(arrays, name).shape
        assert getattr(again, name).tolist() == getattr(arrays, name).tolist()
    assert lists.paired == arrays.paired.tolist()
