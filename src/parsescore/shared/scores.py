"""Count and score types shared by every kind: tp/fp/fn, P/R/F1/Jaccard, edit rates.

Formulas follow the references literally (e.g. F1 as ``2PR/(P+R)``) so that floats agree to the
last bit, and zero denominators give the references' values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Counts", "macro_mean", "micro_counts", "safe_ratio"]


def safe_ratio(numerator: float, denominator: float, *, empty: float = 0.0) -> float:
    """``numerator / denominator``, or ``empty`` when the denominator is zero."""
    return numerator / denominator if denominator else empty


@dataclass(frozen=True, slots=True)
class Counts:
    """Set-comparison counts and the scores derived from them.

    Attributes:
        tp: items in both truth and prediction.
        fp: predicted items absent from the truth.
        fn: true items absent from the prediction.
    """

    tp: int
    fp: int
    fn: int

    @classmethod
    def from_sets(cls, true: Iterable[Any], pred: Iterable[Any]) -> Counts:
        """Counts of two sets (duplicates collapse)."""
        true_set, pred_set = set(true), set(pred)
        return cls(
            tp=len(true_set & pred_set), fp=len(pred_set - true_set), fn=len(true_set - pred_set)
        )

    @property
    def precision(self) -> float:
        """tp / (tp + fp); 0.0 when nothing was predicted."""
        return safe_ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float:
        """tp / (tp + fn); 0.0 when the truth is empty."""
        return safe_ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float:
        """Harmonic mean 2PR/(P+R); 0.0 when both are zero."""
        p, r = self.precision, self.recall
        return safe_ratio(2 * p * r, p + r)

    @property
    def jaccard(self) -> float:
        """tp / (tp + fp + fn); 1.0 when both sets are empty."""
        return safe_ratio(self.tp, self.tp + self.fp + self.fn, empty=1.0)

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    def as_dict(self) -> dict[str, float]:
        """Counts and scores as a flat JSON-ready dict."""
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "jaccard": self.jaccard,
        }


def micro_counts(counts: Iterable[Counts]) -> Counts:
    """Sum counts over items (micro aggregation)."""
    total = Counts(0, 0, 0)
    for c in counts:
        total = total + c
    return total


def macro_mean(values: Sequence[float]) -> float:
    """Unweighted mean; ValueError on an empty sequence (a mean of nothing is not 0)."""
    if not values:
        raise ValueError("Cannot average an empty list of scores.")
    return sum(values) / len(values)
