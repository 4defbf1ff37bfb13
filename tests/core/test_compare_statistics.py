"""Intervals and paired tests of summed-count statistics (pooled ratios, micro F1), checked
against an independent implementation of the procedure the compare module documents, a
coverage simulation, and the plugin kind end to end."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from parsescore_textkind import KIND as TEXT

from parsescore.core.aggregate import totals
from parsescore.core.compare import (
    bootstrap_statistics,
    compare_results,
    statistic_pvalue,
)
from parsescore.core.kinds import Aggregate, FromCounts, Ratio, registered
from parsescore.core.results import Result
from parsescore.shared.scores import Counts, safe_ratio

RATIO = Ratio("errors", "elements", scale=100.0)
F1 = FromCounts("f1")


def _value(rule: Aggregate, sums: list[float]) -> float:
    """The statistic of summed counts, written from the docstring with the shared score types."""
    if isinstance(rule, Ratio):
        return safe_ratio(sums[0], sums[1], empty=rule.empty) * rule.scale
    assert isinstance(rule, FromCounts)
    value: float = getattr(Counts(*(int(s) for s in sums)), rule.score)
    return value


def reference_bootstrap(rule: Aggregate, counts: np.ndarray, n_resamples: int, seed: int):
    """Row r: the items drawn by rng.integers(0, n, size=(R, n))[r], their counts summed."""
    k, n, _ = counts.shape
    rng = np.random.Generator(np.random.PCG64(seed))
    indices = rng.integers(0, n, size=(n_resamples, n))
    return np.array(
        [
            [_value(rule, [float(v) for v in counts[s, row].sum(axis=0)]) for row in indices]
            for s in range(k)
        ]
    )


def reference_pvalue(rule: Aggregate, a: np.ndarray, b: np.ndarray, n_permutations: int, seed: int):
    """Swap the systems' counts where the sign is -1; count |stat a' - stat b'| reaching."""
    n = len(a)
    stat_a, stat_b = (_value(rule, list(x.sum(axis=0))) for x in (a, b))
    observed = abs(stat_a - stat_b)
    slack = 1e-10 * (abs(stat_a) + abs(stat_b))
    if 2**n <= n_permutations:
        vectors = [[-1 if code >> i & 1 else 1 for i in range(n)] for code in range(2**n)]
    else:
        rng = np.random.Generator(np.random.PCG64(seed))
        vectors = (1 - 2 * rng.integers(0, 2, size=(n_permutations, n))).tolist()
    count = 0
    for signs in vectors:
        swapped_a = [a[i] if s == 1 else b[i] for i, s in enumerate(signs)]
        swapped_b = [b[i] if s == 1 else a[i] for i, s in enumerate(signs)]
        value = abs(
            _value(rule, list(np.sum(swapped_a, axis=0)))
            - _value(rule, list(np.sum(swapped_b, axis=0)))
        )
        count += value >= observed - slack
    if 2**n <= n_permutations:
        return count / 2**n
    return (count + 1) / (n_permutations + 1)


def _counts(rule: Aggregate, rng: np.random.Generator, n: int, quality: float) -> np.ndarray:
    if isinstance(rule, Ratio):
        elements = rng.integers(1, 30, size=n)
        errors = rng.binomial(elements, quality)
        return np.stack([errors, elements], axis=1).astype(float)
    tp = rng.integers(0, 10, size=n)
    return np.stack([tp, rng.integers(0, 4, size=n), rng.integers(0, 4, size=n)], axis=1).astype(
        float
    )


@pytest.mark.parametrize("rule", [RATIO, F1], ids=["ratio", "f1"])
@pytest.mark.parametrize(("n", "permutations"), [(6, 100), (25, 300)], ids=["exact", "random"])
def test_intervals_and_p_values_equal_the_documented_procedure(rule, n, permutations) -> None:
    rng = np.random.default_rng(7)
    a, b = _counts(rule, rng, n, 0.1), _counts(rule, rng, n, 0.2)
    counts = np.stack([a, b])
    ours = bootstrap_statistics(rule, counts, n_resamples=300, seed=11)
    assert np.array_equal(ours, reference_bootstrap(rule, counts, 300, 11))
    p = statistic_pvalue(rule, a, b, n_permutations=permutations, seed=11)
    assert p == reference_pvalue(rule, a, b, permutations, 11)


def test_compare_gives_the_declared_statistic_its_interval_and_test() -> None:
    """Through compare_results: the plugin kind's pooled CER (a Ratio of edits/chars)."""
    rng = np.random.default_rng(3)
    # the totals' declaration of "cer": Σedits / Σchars
    rule = next(m.aggregate for m in TEXT.totals if m.name == "cer")
    assert isinstance(rule, Ratio)
    a = np.stack([rng.binomial(30, 0.1, size=12), np.full(12, 30)], axis=1).astype(float)
    b = np.stack([rng.binomial(30, 0.3, size=12), np.full(12, 30)], axis=1).astype(float)

    def result(name: str, counts: np.ndarray) -> Result:
        ids = [f"f{i:02d}" for i in range(len(counts))]
        item_counts = {i: {"edits": r[0], "chars": r[1]} for i, r in zip(ids, counts, strict=True)}
        items = {i: {"cer": r[0] / r[1]} for i, r in zip(ids, counts, strict=True)}
        return Result(
            "text", name, items, totals(TEXT.totals, items, item_counts), counts=item_counts
        )

    with registered(TEXT):
        ra, rb = result("a", a), result("b", b)
        comparison = compare_results([ra, rb], n_resamples=500, n_permutations=500, seed=5)
    pooled = comparison.statistics["cer"]
    assert pooled.label == "CER (pooled)" and pooled.statistic == "Σedits / Σchars"
    # the value is the result's own total, bit for bit
    assert (
        pooled.systems["a"].mean == ra.totals["cer"]
        and pooled.systems["b"].mean == rb.totals["cer"]
    )
    expected = reference_bootstrap(rule, np.stack([a, b]), 500, 5)
    low, high = np.percentile(expected, [2.5, 97.5], axis=1)
    assert (pooled.systems["a"].ci_low, pooled.systems["a"].ci_high) == (low[0], high[0])
    diff_low, diff_high = np.percentile(expected[0] - expected[1], [2.5, 97.5])
    (difference,) = pooled.differences
    assert (difference.ci_low, difference.ci_high) == (diff_low, diff_high)
    assert difference.p_value == reference_pvalue(rule, a, b, 500, 5)
    assert difference.p_value < 0.01
    # the per-item mean stays, under its own name, with today's numbers
    assert comparison.metrics["cer"].statistic == "mean"
    doc = comparison.to_json()
    assert list(doc) == ["systems", "statistics", "metrics", "only_in"]
    assert doc["statistics"]["cer"]["systems"]["a"]["value"] == ra.totals["cer"]


def test_ninety_five_percent_intervals_cover_a_known_ratio() -> None:
    """400 datasets of 60 items drawn from one population whose pooled error rate is known."""
    rng = np.random.default_rng(2026)
    rate, covered = 0.12, 0
    for seed in range(400):
        elements = rng.integers(5, 40, size=60)
        errors = rng.binomial(elements, rate)
        counts = np.stack([errors, elements], axis=1)[None].astype(float)
        boot = bootstrap_statistics(
            Ratio("errors", "elements"), counts, n_resamples=1000, seed=seed
        )
        low, high = np.percentile(boot[0], [2.5, 97.5])
        covered += low <= rate <= high
    assert covered / 400 >= 0.93, covered


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=7
    ),
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5)), min_size=7, max_size=7
    ),
)
def test_the_exact_test_of_f1_counts_every_swap(a_rows, b_rows) -> None:
    """Exact enumeration visits each of the 2^n swaps once: p equals a brute-force count."""
    a = np.array(a_rows, dtype=float)
    b = np.array(b_rows[: len(a_rows)], dtype=float)
    p = statistic_pvalue(F1, a, b, n_permutations=1 << 10)
    observed = abs(_value(F1, list(a.sum(0))) - _value(F1, list(b.sum(0))))
    slack = 1e-10 * (_value(F1, list(a.sum(0))) + _value(F1, list(b.sum(0))))
    hits = 0
    for swap in itertools.product([False, True], repeat=len(a)):
        sa = sum((b[i] if s else a[i] for i, s in enumerate(swap)), np.zeros(3))
        sb = sum((a[i] if s else b[i] for i, s in enumerate(swap)), np.zeros(3))
        hits += abs(_value(F1, list(sa)) - _value(F1, list(sb))) >= observed - slack
    assert p == hits / 2 ** len(a)
