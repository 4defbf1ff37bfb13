"""parsescore.core.compare: bootstrap intervals and permutation p-values recomputed by hand."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.core.compare import bootstrap_means, compare_results, paired_permutation_pvalue
from parsescore.core.errors import InputError
from parsescore.core.results import Result

# Quarter values: every sum and mean below is exact in binary floating point.
A = {"t1": 0.5, "t2": 0.75, "t3": 1.0, "t4": 0.25, "t5": 0.5}
B = {"t1": 0.25, "t2": 0.5, "t3": 1.0, "t4": 0.5, "t5": 0.0}


def table_result(name: str, scores: dict[str, float], **extra: dict[str, float]) -> Result:
    items = {item: {"TEDS": value} for item, value in scores.items()}
    for metric, values in extra.items():
        for item, value in values.items():
            items.setdefault(item, {})[metric] = value
    return Result("table", name, items)


def hand_percentile(values: list[float], q: float) -> float:
    """numpy's default ('linear') percentile, written out."""
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def hand_bootstrap(
    systems: list[list[float]], seed: int, n_resamples: int
) -> tuple[list[list[float]], list[float]]:
    """Resampled means of each system and of the first two systems' difference, in loops.

    One row of item indices is drawn per resample (the same generator stream as one big draw).
    """
    rng = np.random.Generator(np.random.PCG64(seed))
    n = len(systems[0])
    means: list[list[float]] = [[] for _ in systems]
    diffs: list[float] = []
    for _ in range(n_resamples):
        row = [int(i) for i in rng.integers(0, n, size=n)]
        for s, values in enumerate(systems):
            means[s].append(sum(values[i] for i in row) / n)
        diffs.append(sum(systems[0][i] - systems[1][i] for i in row) / n)
    return means, diffs


def hand_exact_pvalue(a: list[float], b: list[float]) -> float:
    d = [x - y for x, y in zip(a, b, strict=True)]
    observed = abs(sum(d))
    hits = 0
    flips = list(itertools.product((1, -1), repeat=len(d)))
    for signs in flips:
        if abs(sum(s * x for s, x in zip(signs, d, strict=True))) >= observed:
            hits += 1
    return hits / len(flips)


def test_bootstrap_reproduces_hand_computation() -> None:
    seed, n_resamples = 7, 300
    comparison = compare_results(
        [table_result("a", A), table_result("b", B)], seed=seed, n_resamples=n_resamples
    )
    entry = comparison.metrics["TEDS"]
    assert entry.items == ("t1", "t2", "t3", "t4", "t5")
    a = [A[k] for k in entry.items]
    b = [B[k] for k in entry.items]
    (means_a, means_b), diffs = hand_bootstrap([a, b], seed, n_resamples)

    assert entry.systems["a"].mean == sum(a) / 5 == 0.6
    assert entry.systems["b"].mean == sum(b) / 5
    assert entry.systems["a"].ci_low == pytest.approx(hand_percentile(means_a, 2.5), abs=1e-12)
    assert entry.systems["a"].ci_high == pytest.approx(hand_percentile(means_a, 97.5), abs=1e-12)
    assert entry.systems["b"].ci_low == pytest.approx(hand_percentile(means_b, 2.5), abs=1e-12)
    assert entry.systems["b"].ci_high == pytest.approx(hand_percentile(means_b, 97.5), abs=1e-12)
    (difference,) = entry.differences
    assert (difference.a, difference.b) == ("a", "b")
    assert difference.mean_difference == pytest.approx(0.15, abs=1e-15)
    assert difference.ci_low == pytest.approx(hand_percentile(diffs, 2.5), abs=1e-12)
    assert difference.ci_high == pytest.approx(hand_percentile(diffs, 97.5), abs=1e-12)
    # 5 items: 2^5 = 32 sign vectors <= 10000, so the p-value is the exact enumeration.
    assert difference.p_value == hand_exact_pvalue(a, b)


def test_bootstrap_means_matches_loops_for_three_rows() -> None:
    rows = [[1.0, 2.0, 4.0, 8.0], [0.0, 0.5, 0.25, 1.0], [3.0, 3.0, 3.0, 0.0]]
    got = bootstrap_means(np.array(rows), n_resamples=50, seed=11)
    rng = np.random.Generator(np.random.PCG64(11))
    for r in range(50):
        idx = rng.integers(0, 4, size=4)
        for k, row in enumerate(rows):
            assert got[k, r] == pytest.approx(sum(row[i] for i in idx) / 4, abs=1e-15)


def test_exact_permutation_matches_hand_enumeration() -> None:
    # Deliberate ties: d = (0.25, 0.25, -0.5, 0, 0.75, 0.5), several sign vectors tie.
    a = [0.5, 0.75, 0.0, 1.0, 1.0, 0.75]
    b = [0.25, 0.5, 0.5, 1.0, 0.25, 0.25]
    expected = hand_exact_pvalue(a, b)
    assert paired_permutation_pvalue(a, b, n_permutations=64) == expected
    assert paired_permutation_pvalue(a, b) == expected
    # The exact value does not depend on the seed.
    assert paired_permutation_pvalue(a, b, seed=123) == expected
    assert 0 < expected < 1


def test_exact_permutation_known_values() -> None:
    # Every difference +1: only the all-plus and all-minus vectors reach |sum| = n.
    assert paired_permutation_pvalue([1.0] * 4, [0.0] * 4) == 2 / 16
    # No difference at all: every vector ties, p = 1.
    assert paired_permutation_pvalue([0.3, 0.7], [0.3, 0.7]) == 1.0
    # One item: both vectors reach |d|.
    assert paired_permutation_pvalue([0.9], [0.1]) == 1.0


def test_monte_carlo_permutation_matches_loops_with_plus_one() -> None:
    a = [0.5, 1.0, 0.75, 0.25, 1.0, 0.5, 0.75, 1.0, 0.0, 0.5]
    b = [0.25, 0.5, 0.75, 0.5, 0.5, 0.25, 0.25, 0.75, 0.0, 0.5]
    n_permutations, seed = 200, 5  # 2^10 = 1024 > 200: random sign flips
    d = [x - y for x, y in zip(a, b, strict=True)]
    observed = abs(sum(d))
    rng = np.random.Generator(np.random.PCG64(seed))
    count = 0
    for _ in range(n_permutations):
        signs = [1 - 2 * int(bit) for bit in rng.integers(0, 2, size=len(d))]
        if abs(sum(s * x for s, x in zip(signs, d, strict=True))) >= observed:
            count += 1
    expected = (count + 1) / (n_permutations + 1)
    assert paired_permutation_pvalue(a, b, n_permutations=n_permutations, seed=seed) == expected
    # With enough permutations the same data is enumerated exactly instead.
    assert paired_permutation_pvalue(a, b, n_permutations=1024) == hand_exact_pvalue(a, b)


def test_only_in_reported_and_left_out() -> None:
    a = table_result("a", A | {"only_a": 0.0})
    b = table_result("b", B | {"only_b1": 1.0, "only_b2": 1.0})
    c = table_result("c", A | {"only_b1": 0.5})
    comparison = compare_results([a, b, c], n_resamples=100)
    assert comparison.only_in == {"a": ["only_a"], "b": ["only_b1", "only_b2"], "c": ["only_b1"]}
    assert comparison.common_items == ("t1", "t2", "t3", "t4", "t5")
    entry = comparison.metrics["TEDS"]
    assert entry.systems["a"].mean == 0.6
    assert [(d.a, d.b) for d in entry.differences] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert comparison.to_json()["only_in"] == comparison.only_in


def test_metric_on_some_items_only() -> None:
    # Like a graph result: node metrics on node items, edge metrics on edge items.
    n, e = "node_strict_f1", "edge_strict_f1"
    a = Result("graph", "a", {"node:X": {n: 1.0}, "node:Y": {n: 0.5}, "edge:L": {e: 0.0}})
    b = Result("graph", "b", {"node:X": {n: 0.5}, "node:Y": {n: 0.5}, "edge:L": {e: 1.0}})
    comparison = compare_results([a, b], n_resamples=50)
    assert comparison.metrics[n].items == ("node:X", "node:Y")
    assert comparison.metrics[e].items == ("edge:L",)
    assert comparison.metrics[n].differences[0].mean_difference == 0.25
    assert comparison.metrics[e].systems["b"].ci_low == 1.0
    # A metric no shared item has in every system is not comparable.
    c = Result("graph", "c", {"node:X": {n: 1.0}, "node:Y": {}, "edge:L": {e: 0.0}})
    d = Result("graph", "d", {"node:X": {}, "node:Y": {n: 0.5}, "edge:L": {e: 1.0}})
    assert list(compare_results([c, d], n_resamples=10).metrics) == [e]
    with pytest.raises(InputError, match=rf"unknown metric '{n}'.*known: {e}"):
        compare_results([c, d], metrics=[n])


def test_deterministic_and_independent_of_order() -> None:
    a, b = table_result("a", A), table_result("b", B)
    first = compare_results([a, b], n_resamples=500, n_permutations=100)
    again = compare_results([a, b], n_resamples=500, n_permutations=100)
    assert first.to_json() == again.to_json()
    swapped = compare_results([b, a], n_resamples=500, n_permutations=100)
    assert swapped.metrics["TEDS"].systems["a"] == first.metrics["TEDS"].systems["a"]
    assert (
        swapped.metrics["TEDS"].differences[0].p_value
        == first.metrics["TEDS"].differences[0].p_value
    )
    other_seed = compare_results([a, b], n_resamples=500, seed=1)
    assert other_seed.metrics["TEDS"].systems["a"].mean == first.metrics["TEDS"].systems["a"].mean
    assert other_seed.to_json() != first.to_json()


def test_metric_selection_and_each_metric_own_stream() -> None:
    a = table_result("a", A, **{"TEDS-S": {k: 1 - v for k, v in A.items()}})
    b = table_result("b", B, **{"TEDS-S": {k: 1 - v for k, v in B.items()}})
    both = compare_results([a, b], n_resamples=200)
    only = compare_results([a, b], metrics=["TEDS-S"], n_resamples=200)
    assert list(both.metrics) == ["TEDS", "TEDS-S"]
    assert list(only.metrics) == ["TEDS-S"]
    assert only.metrics["TEDS-S"] == both.metrics["TEDS-S"]


def test_json_shape() -> None:
    doc = compare_results([table_result("a", A), table_result("b", B)], n_resamples=20).to_json()
    assert list(doc) == ["systems", "metrics", "only_in"]
    assert doc["systems"] == ["a", "b"]
    entry = doc["metrics"]["TEDS"]
    assert list(entry) == ["systems", "differences"]
    assert list(entry["systems"]["a"]) == ["mean", "ci_low", "ci_high"]
    assert list(entry["differences"][0]) == [
        "a",
        "b",
        "mean_difference",
        "ci_low",
        "ci_high",
        "p_value",
    ]
    assert all(type(v) is float for v in entry["systems"]["b"].values())


@pytest.mark.parametrize(
    ("results", "kwargs", "message"),
    [
        ([table_result("a", A)], {}, "at least two results"),
        (
            [table_result("a", A), Result("flowchart", "f", {"t1": {"TEDS": 1.0}})],
            {},
            "different kinds: a is table, f is flowchart",
        ),
        ([table_result("a", A), table_result("a", B)], {}, "both named 'a'"),
        ([table_result("a", A), table_result("b", {"x": 1.0})], {}, "share no items"),
        ([table_result("a", A), table_result("b", B)], {"metrics": ["GriTS"]}, "unknown metric"),
        ([table_result("a", A), table_result("b", B)], {"n_resamples": 0}, "at least 1"),
        ([table_result("a", A), table_result("b", B)], {"n_permutations": 0}, "at least 1"),
        ([table_result("a", A), table_result("b", B)], {"confidence": 1.5}, "between 0 and 1"),
        ([table_result("a", A), table_result("b", B)], {"seed": -2}, "non-negative integer"),
    ],
)
def test_bad_input(results: list[Result], kwargs: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        compare_results(results, **kwargs)


scores = st.lists(
    st.tuples(st.floats(0, 1, allow_nan=False), st.floats(0, 1, allow_nan=False)),
    min_size=1,
    max_size=9,
)


@settings(max_examples=40, deadline=None)
@given(pairs=scores)
def test_properties(pairs: list[tuple[float, float]]) -> None:
    a = [x for x, _ in pairs]
    b = [y for _, y in pairs]
    p = paired_permutation_pvalue(a, b, n_permutations=600)
    assert 0 < p <= 1
    assert paired_permutation_pvalue(b, a, n_permutations=600) == p
    comparison = compare_results(
        [
            Result("table", "a", {str(k): {"TEDS": x} for k, x in enumerate(a)}),
            Result("table", "b", {str(k): {"TEDS": y} for k, y in enumerate(b)}),
        ],
        n_resamples=200,
        n_permutations=600,
    )
    entry = comparison.metrics["TEDS"]
    # A percentile interval of resampled means lies within the values' range.
    assert min(a) - 1e-12 <= entry.systems["a"].ci_low <= entry.systems["a"].ci_high
    assert entry.systems["a"].ci_high <= max(a) + 1e-12
    assert entry.differences[0].p_value == p
