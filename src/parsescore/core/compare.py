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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parsescore.core.errors import InputError
from parsescore.core.results import Result

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "Comparison",
    "DifferenceSummary",
    "MetricComparison",
    "SystemSummary",
    "bootstrap_means",
    "compare_results",
    "paired_permutation_pvalue",
    "permutation_pvalues",
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
        systems: ``{name: SystemSummary}`` in system order.
        differences: every pair ``(a, b)`` with ``a`` before ``b`` in system order.
    """

    metric: str
    higher_is_better: bool
    items: tuple[str, ...]
    systems: dict[str, SystemSummary]
    differences: list[DifferenceSummary]


@dataclass(frozen=True)
class Comparison:
    """The whole comparison; :meth:`to_json` is the ``parsescore compare --out`` document.

    Attributes:
        kind: the kind of every result compared.
        systems: system names, in the order given.
        metrics: ``{metric: MetricComparison}``.
        only_in: ``{name: [items]}``: for every system, its items that some other system lacks
            (left out of every number).
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

    def to_json(self) -> dict[str, Any]:
        """``{"systems", "metrics": {m: {"systems", "differences"}}, "only_in"}``."""
        return {
            "systems": list(self.systems),
            "metrics": {
                metric: {
                    "systems": {
                        name: {"mean": s.mean, "ci_low": s.ci_low, "ci_high": s.ci_high}
                        for name, s in entry.systems.items()
                    },
                    "differences": [
                        {
                            "a": d.a,
                            "b": d.b,
                            "mean_difference": d.mean_difference,
                            "ci_low": d.ci_low,
                            "ci_high": d.ci_high,
                            "p_value": d.p_value,
                        }
                        for d in entry.differences
                    ],
                }
                for metric, entry in self.metrics.items()
            },
            "only_in": {name: list(items) for name, items in self.only_in.items()},
        }


def _generator(seed: int) -> np.random.Generator:
    import numpy as np

    return np.random.Generator(np.random.PCG64(seed))


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
    rng = _generator(seed)
    out = np.empty((k, n_resamples), dtype=np.float64)
    chunk = max(1, _CHUNK_ELEMENTS // n)
    for start in range(0, n_resamples, chunk):
        stop = min(n_resamples, start + chunk)
        indices = rng.integers(0, n, size=(stop - start, n))
        # How often each item is drawn in each resample: a resampled mean is then one row of a
        # matrix product (fast for many rows) instead of a gather of n values per row.
        offsets = (np.arange(stop - start, dtype=np.int64) * n)[:, None]
        counts = np.bincount((indices + offsets).ravel(), minlength=(stop - start) * n)
        out[:, start:stop] = rows @ counts.reshape(stop - start, n).T.astype(np.float64) / n
    return out


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
    chunk = max(1, _CHUNK_ELEMENTS // n)
    if n < 63 and (1 << n) <= n_permutations:
        total = 1 << n
        bits = np.arange(n, dtype=np.int64)
        for start in range(0, total, chunk):
            codes = np.arange(start, min(total, start + chunk), dtype=np.int64)
            signs = (1 - 2 * ((codes[:, None] >> bits) & 1)).astype(np.float64)
            count += np.count_nonzero(np.abs(signs @ d.T) >= threshold, axis=0)
        return np.asarray(count / total, dtype=np.float64)
    rng = _generator(seed)
    for start in range(0, n_permutations, chunk):
        stop = min(n_permutations, start + chunk)
        signs = (1 - 2 * rng.integers(0, 2, size=(stop - start, n))).astype(np.float64)
        count += np.count_nonzero(np.abs(signs @ d.T) >= threshold, axis=0)
    return (count + 1) / (n_permutations + 1)


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
    if metrics is None:
        chosen = list(available)
    else:
        chosen = list(dict.fromkeys(metrics))
        unknown = [m for m in chosen if m not in available]
        if unknown:
            raise InputError(
                f"unknown metric {unknown[0]!r} (not in every result on the shared items); "
                f"known: {', '.join(available) or '(none)'}"
            )
    if not chosen:
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
    )
