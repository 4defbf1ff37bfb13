"""Comparing systems scored on the same dataset: bootstrap intervals and permutation tests.

Every number is computed over the items all systems share (items some results lack are
reported in ``only_in``, never silently dropped from view), item by item, so the comparison is
*paired*: two systems are compared on the same items.

The procedure, exactly (so that anyone can reproduce it from the seed):

* Items of a metric are the shared items that have a value of that metric in every system,
  sorted by item id (so the numbers do not depend on file or argument order).
* **Bootstrap** (per metric): ``rng = numpy.random.Generator(numpy.random.PCG64(seed))``,
  ``indices = rng.integers(0, n, size=(n_resamples, n))`` (drawn in row chunks; the stream is the
  same). Row ``r`` is one resample of the ``n`` items, used *jointly* for every system and every
  difference. A system's interval is the 2.5th and 97.5th percentile (``numpy.percentile``,
  linear interpolation) of its ``n_resamples`` resampled means; a difference ``a - b`` is
  resampled as the mean of the per-item differences ``a_i - b_i`` over the same rows.
* **Paired permutation test** (per metric and pair, two-sided, sign flips): the statistic is
  ``|sum_i s_i d_i|`` with ``d_i = a_i - b_i`` and signs ``s_i`` in ``{+1, -1}``; the p-value is the
  share of sign vectors whose statistic reaches the observed one. When ``2**n <= n_permutations``
  every sign vector is enumerated and ``p = count / 2**n`` (exact; the observed vector is one of
  them). Otherwise ``rng = Generator(PCG64(seed))``, ``signs = 1 - 2 * rng.integers(0, 2,
  size=(n_permutations, n))`` and ``p = (count + 1) / (n_permutations + 1)``: the +1 counts the
  observed assignment, so a Monte Carlo p-value is never 0 and the test stays valid
  (Phipson & Smyth 2010). "Reaches" allows a rounding slack of ``1e-10 * sum_i |d_i|`` so that
  sign vectors tying mathematically with the observed one are counted whatever the rounding.

Each metric (and each pair) starts a fresh generator from ``seed``, so adding or removing a
metric or a system never changes the resamples or sign vectors another one sees (metrics on
the same items are computed together, from that one shared draw).

**Summed-count statistics** (``Comparison.statistics``): a kind's total that is a function of
per-item counts summed over the items (``Ratio``: ``scale * Σnumerator / Σdenominator``, e.g. the
pooled error %; ``FromCounts``: precision, recall, F1 = 2PR/(P+R) or Jaccard of Σtp, Σfp, Σfn,
e.g. micro F1) is compared on the shared items sorted by id, when every result carries those
counts on every shared item, with the same draws:

* its value is the function of the counts summed over the items;
* **bootstrap**: resample row ``r`` (the same ``rng.integers(0, n, size=(n_resamples, n))`` as the
  means, from a fresh ``Generator(PCG64(seed))``) sums each system's counts over the drawn items,
  each as often as it is drawn, and applies the function; a difference ``a - b`` is resampled as
  ``stat_a(row) - stat_b(row)``; intervals are the same percentiles;
* **paired test** (approximate randomisation, two-sided): a sign vector (the same vectors as the
  means' test: every one of the ``2**n`` when ``2**n <= n_permutations``, in order of their bit
  codes, else ``1 - 2 * rng.integers(0, 2, size=(n_permutations, n))``) swaps the two systems'
  counts on each item whose sign is ``-1``; its statistic is ``|stat(Σa') - stat(Σb')|`` of the
  swapped systems' summed counts; it reaches the observed ``|stat(Σa) - stat(Σb)|`` within a
  slack of ``1e-10 * (|stat(Σa)| + |stat(Σb)|)``; p is ``count / 2**n`` (exact) or ``(count + 1)
  / (n_permutations + 1)``. Each statistic and each pair starts a fresh generator from ``seed``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parsescore.core.aggregate import count_names, statistic, summed_counts
from parsescore.core.errors import InputError
from parsescore.core.kinds import Aggregate, FromCounts, Metric, Ratio, get_kind
from parsescore.core.results import Result

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "Comparison",
    "DifferenceSummary",
    "MetricComparison",
    "SystemSummary",
    "bootstrap_means",
    "bootstrap_statistics",
    "compare_results",
    "paired_permutation_pvalue",
    "permutation_pvalues",
    "statistic_pvalue",
]

#: Largest number of array elements materialised at once (index matrix × rows).
_CHUNK_ELEMENTS = 1 << 22
_TIE_SLACK = 1e-10
#: Default bootstrap resamples and random sign flips (``--resamples``, ``--permutations``).
DEFAULT_RESAMPLES = 10_000
DEFAULT_PERMUTATIONS = 10_000


@dataclass(frozen=True, slots=True)
class SystemSummary:
    """One system's mean of a metric over the compared items, with its bootstrap interval."""

    mean: float
    ci_low: float
    ci_high: float


@dataclass(frozen=True, slots=True)
class DifferenceSummary:
    """``a - b`` averaged over the items, its bootstrap interval and permutation p-value."""

    a: str
    b: str
    mean_difference: float
    ci_low: float
    ci_high: float
    p_value: float


@dataclass(frozen=True)
class MetricComparison:
    """All systems on one metric.

    Attributes:
        metric: the metric's name.
        higher_is_better: direction of the metric (for display; the numbers do not use it).
        items: the items compared (sorted ids).
        systems: ``{name: SystemSummary}`` in system order (for a summed-count statistic,
            ``mean`` is the statistic's value over the items).
        differences: every pair ``(a, b)`` with ``a`` before ``b`` in system order.
        label: the kind's label of a summed-count statistic (the overview's name).
        statistic: ``mean`` (of the items' values), or how a summed-count statistic is
            computed (``100 × Σerrors / Σelements``, ``f1 of Σtp, Σfp, Σfn``).
    """

    metric: str
    higher_is_better: bool
    items: tuple[str, ...]
    systems: dict[str, SystemSummary]
    differences: list[DifferenceSummary]
    label: str = ""
    statistic: str = "mean"


@dataclass(frozen=True)
class Comparison:
    """The whole comparison; :meth:`to_json` is the ``parsescore compare --out`` document.

    Attributes:
        kind: the kind of every result compared.
        systems: system names, in the order given.
        metrics: ``{metric: MetricComparison}``.
        only_in: ``{name: [items]}``: for every system, its items that some other system lacks
            (left out of every number).
        statistics: ``{total: MetricComparison}``: the kind's totals that are functions of
            summed per-item counts (micro F1, pooled error rates), headline ones first, when
            every result carries those counts on every shared item.
        common_items: items every system has.
        seed, n_resamples, n_permutations, confidence: the settings used.
    """

    kind: str
    systems: list[str]
    metrics: dict[str, MetricComparison]
    only_in: dict[str, list[str]]
    common_items: tuple[str, ...]
    seed: int
    n_resamples: int
    n_permutations: int
    confidence: float
    statistics: dict[str, MetricComparison] = field(default_factory=dict)

    def to_markdown(self, metrics: Sequence[str] | None = None) -> str:
        """Systems × metrics (default: the headline ones) as a Markdown table
        (:mod:`parsescore.core.leaderboard`)."""
        from parsescore.core.leaderboard import to_markdown

        return to_markdown(self, metrics)

    def to_latex(self, metrics: Sequence[str] | None = None) -> str:
        """Systems × metrics as a LaTeX ``tabular`` (booktabs rules)."""
        from parsescore.core.leaderboard import to_latex

        return to_latex(self, metrics)

    def to_csv(self, metrics: Sequence[str] | None = None) -> str:
        """Systems × metrics as CSV: each value and its interval bounds, exactly."""
        from parsescore.core.leaderboard import to_csv

        return to_csv(self, metrics)

    def to_json(self) -> dict[str, Any]:
        """``{"systems", ["statistics": {s: {...}},] "metrics": {m: {"systems", "differences"}},
        "only_in"}``; ``statistics`` (the summed-count statistics) only when there are any."""
        doc: dict[str, Any] = {"systems": list(self.systems)}
        if self.statistics:
            doc["statistics"] = {
                name: {
                    "label": entry.label,
                    "statistic": entry.statistic,
                    "items": len(entry.items),
                }
                | _entry_json(entry, "value", "difference")
                for name, entry in self.statistics.items()
            }
        return doc | {
            "metrics": {
                metric: _entry_json(entry, "mean", "mean_difference")
                for metric, entry in self.metrics.items()
            },
            "only_in": {name: list(items) for name, items in self.only_in.items()},
        }


def _entry_json(entry: MetricComparison, value: str, difference: str) -> dict[str, Any]:
    """``{"systems": {name: {value, ci_low, ci_high}}, "differences": [...]}`` of one metric or
    statistic, its value and difference under the given keys."""
    return {
        "systems": {
            name: {value: s.mean, "ci_low": s.ci_low, "ci_high": s.ci_high}
            for name, s in entry.systems.items()
        },
        "differences": [
            {
                "a": d.a,
                "b": d.b,
                difference: d.mean_difference,
                "ci_low": d.ci_low,
                "ci_high": d.ci_high,
                "p_value": d.p_value,
            }
            for d in entry.differences
        ],
    }


def _generator(seed: int) -> np.random.Generator:
    import numpy as np

    return np.random.Generator(np.random.PCG64(seed))


def _resample_weights(n: int, n_resamples: int, seed: int) -> Iterator[tuple[int, int, np.ndarray]]:
    """``(start, stop, weights)`` chunks of the bootstrap: ``weights[r, i]`` is how often item
    ``i`` is drawn in resample ``start + r`` of ``rng.integers(0, n, size=(n_resamples, n))``
    (drawn in row chunks from ``rng = Generator(PCG64(seed))``; the stream is the same)."""
    import numpy as np

    rng = _generator(seed)
    chunk = max(1, _CHUNK_ELEMENTS // n)
    for start in range(0, n_resamples, chunk):
        stop = min(n_resamples, start + chunk)
        indices = rng.integers(0, n, size=(stop - start, n))
        # How often each item is drawn in each resample: a resampled sum is then one row of a
        # matrix product (fast for many rows) instead of a gather of n values per row.
        offsets = (np.arange(stop - start, dtype=np.int64) * n)[:, None]
        counts = np.bincount((indices + offsets).ravel(), minlength=(stop - start) * n)
        yield start, stop, counts.reshape(stop - start, n).astype(np.float64)


def bootstrap_means(
    rows: np.ndarray, *, n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0
) -> np.ndarray:
    """Means of every row of ``rows`` (shape ``(k, n)``) over the same bootstrap resamples.

    Returns shape ``(k, n_resamples)``; resample ``r`` draws item indices
    ``rng.integers(0, n, size=(n_resamples, n))[r]`` with ``rng = Generator(PCG64(seed))``.
    """
    import numpy as np

    rows = np.asarray(rows, dtype=np.float64)
    if rows.ndim != 2 or rows.shape[1] == 0:
        raise ValueError(f"rows must have shape (k, n) with n >= 1, got {rows.shape}")
    k, n = rows.shape
    out = np.empty((k, n_resamples), dtype=np.float64)
    for start, stop, weights in _resample_weights(n, n_resamples, seed):
        out[:, start:stop] = rows @ weights.T / n
    return out


def bootstrap_statistics(
    rule: Aggregate,
    counts: np.ndarray,
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> np.ndarray:
    """A summed-count statistic of every system over the same bootstrap resamples.

    ``counts`` has shape ``(k, n, c)``: system, item, the ``c`` counts ``rule`` reads
    (:func:`count_names`). Resample ``r`` sums each system's counts over the items drawn (with
    their multiplicity; the draws of :func:`bootstrap_means`) and applies ``rule`` to the sums.
    Returns shape ``(k, n_resamples)``.
    """
    import numpy as np

    counts = np.asarray(counts, dtype=np.float64)
    k, n, _ = counts.shape
    out = np.empty((k, n_resamples), dtype=np.float64)
    for start, stop, weights in _resample_weights(n, n_resamples, seed):
        for s in range(k):
            out[s, start:stop] = statistic(rule, weights @ counts[s])
    return out


def _sign_vectors(n: int, n_permutations: int, seed: int) -> Iterator[np.ndarray]:
    """Chunks of the test's sign vectors (rows of ±1.0): all ``2**n`` in order of their bit
    codes when ``2**n <= n_permutations`` (sign ``i`` of code ``c`` is ``-1`` when bit ``i``
    is set), else ``1 - 2 * rng.integers(0, 2, size=(n_permutations, n))`` drawn in row chunks
    from ``rng = Generator(PCG64(seed))``."""
    import numpy as np

    chunk = max(1, _CHUNK_ELEMENTS // n)
    if _exact(n, n_permutations):
        total = 1 << n
        bits = np.arange(n, dtype=np.int64)
        for start in range(0, total, chunk):
            codes = np.arange(start, min(total, start + chunk), dtype=np.int64)
            yield (1 - 2 * ((codes[:, None] >> bits) & 1)).astype(np.float64)
        return
    rng = _generator(seed)
    for start in range(0, n_permutations, chunk):
        stop = min(n_permutations, start + chunk)
        yield (1 - 2 * rng.integers(0, 2, size=(stop - start, n))).astype(np.float64)


def _exact(n: int, n_permutations: int) -> bool:
    return n < 63 and (1 << n) <= n_permutations


def _p_value(count: np.ndarray, n: int, n_permutations: int) -> np.ndarray:
    """``count / 2**n`` (exact), else ``(count + 1) / (n_permutations + 1)``."""
    import numpy as np

    if _exact(n, n_permutations):
        return np.asarray(count / (1 << n), dtype=np.float64)
    return np.asarray((count + 1) / (n_permutations + 1), dtype=np.float64)


def permutation_pvalues(
    differences: np.ndarray, *, n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = 0
) -> np.ndarray:
    """Sign-flip p-values of every row of ``differences`` (shape ``(m, n)``, paired ``a - b``).

    All rows see the same sign vectors (as separate calls with the same seed would).
    """
    import numpy as np

    d = np.asarray(differences, dtype=np.float64)
    if d.ndim != 2 or d.shape[1] == 0:
        raise ValueError(f"differences must have shape (m, n) with n >= 1, got {d.shape}")
    if n_permutations < 1:
        raise ValueError(f"n_permutations must be at least 1, got {n_permutations}")
    n = d.shape[1]
    observed = np.abs(d.sum(axis=1))
    threshold = observed - _TIE_SLACK * np.abs(d).sum(axis=1)
    count = np.zeros(d.shape[0], dtype=np.int64)
    for signs in _sign_vectors(n, n_permutations, seed):
        count += np.count_nonzero(np.abs(signs @ d.T) >= threshold, axis=0)
    return _p_value(count, n, n_permutations)


def statistic_pvalue(
    rule: Aggregate,
    a: np.ndarray,
    b: np.ndarray,
    *,
    n_permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = 0,
) -> float:
    """Paired approximate-randomisation p-value of a summed-count statistic (two-sided).

    ``a`` and ``b`` are the two systems' counts, shape ``(n, c)``. A sign vector swaps the two
    systems' counts on every item whose sign is ``-1``; its statistic is ``|rule(Σa') -
    rule(Σb')|`` of the swapped systems' summed counts, and "reaches" the observed one (no swap)
    within ``1e-10 * (|rule(Σa)| + |rule(Σb)|)``. Sign vectors and p-values as
    :func:`permutation_pvalues`.
    """
    import numpy as np

    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    n = a.shape[0]
    sum_a, sum_b = a.sum(axis=0), b.sum(axis=0)
    stat_a = statistic(rule, sum_a[None, :])[0]
    stat_b = statistic(rule, sum_b[None, :])[0]
    threshold = abs(stat_a - stat_b) - _TIE_SLACK * (abs(stat_a) + abs(stat_b))
    # Swapping item i moves d_i = a_i - b_i from a to b: with signs s, Σa' = m + (s·d)/2 and
    # Σb' = m - (s·d)/2 where m = (Σa + Σb)/2 (exact for whole counts).
    middle = (sum_a + sum_b) / 2
    d = a - b
    count = 0
    for signs in _sign_vectors(n, n_permutations, seed):
        half = (signs @ d) / 2
        swapped = np.abs(statistic(rule, middle + half) - statistic(rule, middle - half))
        count += int(np.count_nonzero(swapped >= threshold))
    return float(_p_value(np.asarray([count]), n, n_permutations)[0])


def paired_permutation_pvalue(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    *,
    n_permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = 0,
) -> float:
    """Two-sided paired sign-flip permutation p-value for ``mean(a) != mean(b)``.

    Exact enumeration of all ``2**n`` sign vectors when ``2**n <= n_permutations``
    (``p = count / 2**n``); otherwise ``n_permutations`` random sign vectors with the +1
    correction ``p = (count + 1) / (n_permutations + 1)``. See the module docstring.

    >>> paired_permutation_pvalue([1.0, 1.0, 1.0], [0.0, 0.0, 0.0])  # 2 of the 8 sign vectors
    0.25
    """
    import numpy as np

    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    if d.ndim != 1 or d.size == 0:
        raise ValueError("a and b must be non-empty 1-d sequences of the same length")
    return float(permutation_pvalues(d[None, :], n_permutations=n_permutations, seed=seed)[0])


def _percentiles(samples: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    # Rounded so that confidence 0.95 asks for exactly the 2.5th and 97.5th percentiles.
    tail = round((1 - confidence) * 50, 10)
    low, high = np.percentile(samples, [tail, 100 - tail], axis=1)
    return low, high


def compare_results(
    results: Sequence[Result],
    *,
    metrics: Sequence[str] | None = None,
    seed: int = 0,
    n_resamples: int = DEFAULT_RESAMPLES,
    n_permutations: int = DEFAULT_PERMUTATIONS,
    confidence: float = 0.95,
) -> Comparison:
    """Compare two or more results of the same kind on their shared items.

    ``metrics`` defaults to every metric all results have (in the first result's order).
    """
    import numpy as np

    results = list(results)
    if len(results) < 2:
        raise InputError(f"compare needs at least two results, got {len(results)}")
    kinds = {result.kind for result in results}
    if len(kinds) > 1:
        listed = ", ".join(dict.fromkeys(f"{r.path or r.name} is {r.kind}" for r in results))
        raise InputError(f"cannot compare results of different kinds: {listed}")
    names = [result.name for result in results]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise InputError(
            f"two results are both named {duplicates[0]!r}; give each system its own name"
        )
    if n_resamples < 1:
        raise InputError(f"the number of bootstrap resamples must be at least 1, got {n_resamples}")
    if n_permutations < 1:
        raise InputError(f"the number of permutations must be at least 1, got {n_permutations}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"the seed must be a non-negative integer, got {seed!r}")
    if not 0 < confidence < 1:
        raise InputError(f"confidence must be between 0 and 1, got {confidence}")
    kind = results[0].kind

    item_sets = [set(result.items) for result in results]
    common = set.intersection(*item_sets)
    only_in = {
        result.name: [item for item in result.items if item not in common] for result in results
    }
    if not common:
        raise InputError(
            "the results share no items (are they scores of the same dataset?); "
            + "; ".join(f"{r.name}: {len(r.items)} items" for r in results)
        )
    common_items = tuple(sorted(common))

    def measured(metric: str) -> tuple[str, ...]:
        """The shared items on which every system has a value of ``metric``."""
        return tuple(item for item in common_items if all(metric in r.items[item] for r in results))

    available = {metric: items for metric in results[0].metrics() if (items := measured(metric))}
    counted = _counted_statistics(kind, results, common_items)
    if metrics is None:
        chosen = list(available)
        chosen_statistics = list(counted)
    else:
        asked = list(dict.fromkeys(metrics))
        unknown = [m for m in asked if m not in available and m not in counted]
        if unknown:
            known = [*counted, *available]
            raise InputError(
                f"unknown metric {unknown[0]!r} (not in every result on the shared items); "
                f"known: {', '.join(known) or '(none)'}"
            )
        chosen = [m for m in asked if m in available]
        chosen_statistics = [m for m in asked if m in counted and m not in available]
        chosen_statistics += [m for m in asked if m in counted and m in available]
    if not chosen and not chosen_statistics:
        raise InputError("the results have no metric in common on their shared items")

    pairs = [(i, j) for i in range(len(results)) for j in range(i + 1, len(results))]
    k = len(results)
    # Metrics measured on the same items share their draws (each would start the same
    # generator anyway), so they are resampled together: one draw, one matrix product.
    groups: dict[tuple[str, ...], list[str]] = {}
    for metric in chosen:
        groups.setdefault(available[metric], []).append(metric)
    out_by_metric: dict[str, MetricComparison] = {}
    for items, group in groups.items():
        values = np.array(
            [[[r.items[item][m] for item in items] for r in results] for m in group],
            dtype=np.float64,
        )  # (metrics, systems, items)
        diffs = np.stack([values[:, i] - values[:, j] for i, j in pairs], axis=1)
        per_metric = k + len(pairs)
        rows = np.concatenate([values, diffs], axis=1).reshape(-1, len(items))
        boot = bootstrap_means(rows, n_resamples=n_resamples, seed=seed)
        low, high = _percentiles(boot, confidence)
        p_values = permutation_pvalues(
            diffs.reshape(-1, len(items)), n_permutations=n_permutations, seed=seed
        )
        for g, metric in enumerate(group):
            base = g * per_metric
            systems = {
                r.name: SystemSummary(
                    float(values[g, s].mean()), float(low[base + s]), float(high[base + s])
                )
                for s, r in enumerate(results)
            }
            differences = [
                DifferenceSummary(
                    results[i].name,
                    results[j].name,
                    float(diffs[g, p].mean()),
                    float(low[base + k + p]),
                    float(high[base + k + p]),
                    float(p_values[g * len(pairs) + p]),
                )
                for p, (i, j) in enumerate(pairs)
            ]
            out_by_metric[metric] = MetricComparison(
                metric, results[0].higher_is_better(metric), items, systems, differences
            )
    out = {metric: out_by_metric[metric] for metric in chosen}
    statistics = {
        name: _compare_statistic(
            counted[name], results, pairs, seed, n_resamples, n_permutations, confidence
        )
        for name in chosen_statistics
    }
    return Comparison(
        kind,
        names,
        out,
        only_in,
        common_items,
        seed,
        n_resamples,
        n_permutations,
        confidence,
        statistics,
    )


@dataclass(frozen=True)
class _Counted:
    metric: Metric
    items: tuple[str, ...]


def _counted_statistics(
    kind: str, results: Sequence[Result], common_items: tuple[str, ...]
) -> dict[str, _Counted]:
    """The kind's totals that are functions of summed counts (headline ones first) whose counts
    every result carries on every shared item."""
    declared = get_kind(kind).totals
    ordered = [m for m in declared if m.headline] + [m for m in declared if not m.headline]
    found: dict[str, _Counted] = {}
    for metric in ordered:
        needed = count_names(metric.aggregate)
        if not needed or metric.higher_is_better is None:
            continue
        if all(
            name in r.counts.get(item, {})
            for r in results
            for item in common_items
            for name in needed
        ):
            found[metric.name] = _Counted(metric, common_items)
    return found


def _compare_statistic(
    counted: _Counted,
    results: Sequence[Result],
    pairs: Sequence[tuple[int, int]],
    seed: int,
    n_resamples: int,
    n_permutations: int,
    confidence: float,
) -> MetricComparison:
    """Intervals and paired tests of one summed-count statistic (see the module docstring)."""
    import numpy as np

    rule = counted.metric.aggregate
    names = count_names(rule)
    items = counted.items
    counts = np.array(
        [[[r.counts[item][name] for name in names] for item in items] for r in results],
        dtype=np.float64,
    )  # (systems, items, counts)
    point = [
        float(statistic(rule, np.array([summed_counts(r.counts, names, items)]))[0])
        for r in results
    ]
    boot = bootstrap_statistics(rule, counts, n_resamples=n_resamples, seed=seed)
    differences_boot = np.stack([boot[i] - boot[j] for i, j in pairs]) if pairs else boot[:0]
    low, high = _percentiles(np.concatenate([boot, differences_boot]), confidence)
    k = len(results)
    systems = {
        r.name: SystemSummary(point[s], float(low[s]), float(high[s]))
        for s, r in enumerate(results)
    }
    differences = [
        DifferenceSummary(
            results[i].name,
            results[j].name,
            point[i] - point[j],
            float(low[k + p]),
            float(high[k + p]),
            statistic_pvalue(rule, counts[i], counts[j], n_permutations=n_permutations, seed=seed),
        )
        for p, (i, j) in enumerate(pairs)
    ]
    metric = counted.metric
    assert metric.higher_is_better is not None
    return MetricComparison(
        metric.name,
        metric.higher_is_better,
        items,
        systems,
        differences,
        label=metric.label,
        statistic=_describe(rule),
    )


def _describe(rule: Aggregate) -> str:
    """How a statistic is computed from the items, in words (for tables and the JSON)."""
    if isinstance(rule, Ratio):
        scale = "" if rule.scale == 1.0 else f"{rule.scale:g} × "
        return f"{scale}Σ{rule.numerator} / Σ{rule.denominator}"
    if isinstance(rule, FromCounts):
        return f"{rule.score} of Σ{rule.tp}, Σ{rule.fp}, Σ{rule.fn}"
    return "mean"


def compare_by(
    results: Sequence[Result],
    field: str,
    **settings: Any,
) -> dict[str, Comparison]:
    """One comparison per value of the item attribute ``field`` (``--by``), each over the
    shared items that have that value (an item's value is the first result's that has it; the
    kind's declared order of values first). ``settings`` are :func:`compare_results`'s."""
    from dataclasses import replace

    from parsescore.core.breakdown import groups

    results = list(results)
    if not results:
        raise InputError("compare needs at least two results, got 0")
    labelled = dict(results[0].attributes)
    for result in results[1:]:
        for item, values in result.attributes.items():
            labelled.setdefault(item, values)
    merged = replace(results[0], attributes=labelled)
    order = next((a.values for a in get_kind(merged.kind).attributes if a.name == field), ())
    out: dict[str, Comparison] = {}
    for value, items in groups(merged, field, order).items():
        chosen = set(items)
        subsets = [
            replace(
                r,
                items={i: m for i, m in r.items.items() if i in chosen},
                counts={i: c for i, c in r.counts.items() if i in chosen},
            )
            for r in results
        ]
        try:
            out[value] = compare_results(subsets, **settings)
        except InputError as error:
            raise InputError(f"{field} = {value}: {error}") from None
    return out
