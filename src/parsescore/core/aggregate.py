"""Dataset totals from the metrics' declared aggregation (:data:`parsescore.core.kinds.Aggregate`).

A kind scores items; each item carries its metrics and the counts behind them (``Result.counts``:
tp/fp/fn, errors/elements, ...). How a total is built is declared on the metric — a mean of the
items' values, a sum, a ratio of summed counts, a set-comparison score of summed tp/fp/fn, the
number of items, or a dataset-level number given by the kind — and computed here, once, for
every kind, with the references' arithmetic (a mean is ``sum(values) / n`` in item order; F1 is
``2PR/(P+R)``), so that totals agree with the references to the last bit.

>>> from parsescore.core.kinds import FromCounts, Mean, Metric, Ratio
>>> items = {"a": {"f1": 1.0}, "b": {"f1": 0.5}}
>>> counts = {"a": {"tp": 2, "fp": 0, "fn": 0}, "b": {"tp": 1, "fp": 1, "fn": 1}}
>>> totals(
...     [Metric("f1", "F1 (mean)", True), Metric("f1_micro", "F1", True,
...      aggregate=FromCounts("f1"))], items, counts)
{'f1': 0.75, 'f1_micro': 0.75}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from parsescore.core.kinds import Aggregate, Dataset, FromCounts, Items, Mean, Metric, Ratio, Sum
from parsescore.shared.scores import Counts, safe_ratio

if TYPE_CHECKING:
    import numpy as np

__all__ = ["count_names", "statistic", "summed_counts", "total", "totals"]

ItemValues = Mapping[str, Mapping[str, float]]


def summed_counts(counts: ItemValues, names: Sequence[str], items: Sequence[str]) -> list[float]:
    """Each count of ``names`` summed over ``items`` (in item order); a count an item lacks is 0."""
    sums = [0.0] * len(names)
    for item in items:
        values = counts.get(item, {})
        for k, name in enumerate(names):
            sums[k] += values.get(name, 0)
    return sums


def total(
    metric: Metric,
    items: ItemValues,
    counts: ItemValues,
    *,
    given: Mapping[str, float] | None = None,
    only: Sequence[str] | None = None,
) -> float | None:
    """``metric``'s total over the items ``only`` (default: all), as it declares; None when it
    has none (a mean of nothing without an ``empty`` value, a dataset number not given)."""
    ids = list(items) if only is None else list(only)
    rule = metric.aggregate
    if isinstance(rule, Mean):
        name = rule.of or metric.name
        values = [items[i][name] for i in ids if name in items[i]]
        return sum(values) / len(values) if values else rule.empty
    if isinstance(rule, Sum):
        if rule.count is not None:
            return summed_counts(counts, [rule.count], ids)[0]
        name = rule.of or metric.name
        return sum(items[i][name] for i in ids if name in items[i])
    if isinstance(rule, Ratio):
        numerator, denominator = summed_counts(counts, [rule.numerator, rule.denominator], ids)
        return safe_ratio(numerator, denominator, empty=rule.empty) * rule.scale
    if isinstance(rule, FromCounts):
        tp, fp, fn = summed_counts(counts, [rule.tp, rule.fp, rule.fn], ids)
        score: float = getattr(Counts(int(tp), int(fp), int(fn)), rule.score)
        return score if rule.digits is None else round(score, rule.digits)
    if isinstance(rule, Items):
        return float(len(ids))
    if isinstance(rule, Dataset):
        return None if given is None else given.get(metric.name)
    raise TypeError(f"unknown aggregation {rule!r}")


def totals(
    metrics: Sequence[Metric],
    items: ItemValues,
    counts: ItemValues,
    *,
    given: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Every total ``metrics`` declare that has a value, in declaration order."""
    found: dict[str, float] = {}
    for metric in metrics:
        value = total(metric, items, counts, given=given)
        if value is not None:
            found[metric.name] = value
    return found


def count_names(rule: Aggregate) -> tuple[str, ...]:
    """The counts a summed-count aggregation reads, in the order :func:`statistic` takes them
    (``()`` for a mean, a sum of values, the number of items or a dataset number)."""
    if isinstance(rule, Ratio):
        return (rule.numerator, rule.denominator)
    if isinstance(rule, FromCounts):
        return (rule.tp, rule.fp, rule.fn)
    return ()


def statistic(rule: Aggregate, sums: np.ndarray) -> np.ndarray:
    """A summed-count aggregation of every row of ``sums`` (shape ``(r, c)``: the counts of
    :func:`count_names`, summed), with the same arithmetic as :func:`total` (bit for bit)."""
    import numpy as np

    sums = np.asarray(sums, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        if isinstance(rule, Ratio):
            numerator, denominator = sums[:, 0], sums[:, 1]
            ratio = np.where(denominator != 0, numerator / denominator, rule.empty)
            return np.asarray(ratio * rule.scale, dtype=np.float64)
        if isinstance(rule, FromCounts):
            tp, fp, fn = sums[:, 0], sums[:, 1], sums[:, 2]
            precision = np.where(tp + fp != 0, tp / (tp + fp), 0.0)
            recall = np.where(tp + fn != 0, tp / (tp + fn), 0.0)
            scores = {
                "precision": precision,
                "recall": recall,
                "f1": np.where(
                    precision + recall != 0,
                    2 * precision * recall / (precision + recall),
                    0.0,
                ),
                "jaccard": np.where(tp + fp + fn != 0, tp / (tp + fp + fn), 1.0),
            }
            chosen = np.asarray(scores[rule.score], dtype=np.float64)
            if rule.digits is None:
                return chosen
            # Python's round, as total() rounds (numpy's differs in the last digit at times)
            return np.array([round(float(v), rule.digits) for v in chosen], dtype=np.float64)
    raise TypeError(f"{rule!r} is not an aggregation of summed counts")
