"""Optimal assignment with unmatched costs, and the exact MILP helpers built on it.

Two lists are paired on an augmented square matrix (each item may also stay unmatched at its own
cost), solved by scipy's ``linear_sum_assignment`` — the references' construction, so that ties
fall the same way. For lexicographic objectives the text-optimal matchings are found exactly by
LP duality: with optimal duals, the optimal matchings are precisely the perfect matchings on the
zero-reduced-cost pairs, which shrinks an n² model to its tie groups.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import (
    Bounds,
    LinearConstraint,
    OptimizeResult,
    linear_sum_assignment,
    linprog,
    milp,
)
from scipy.sparse import coo_array, csc_array

from parsescore.shared.distance import DistanceFnProtocol, text_costs

__all__ = [
    "ListPair",
    "TextOptimalSupport",
    "augmented_assignment",
    "match_text_lists",
    "solve_binary_milp",
    "text_optimal_support",
]

TEXT_LIST_FORBIDDEN_COST = 10.0**9


@dataclass(frozen=True, slots=True)
class ListPair:
    """One record of a list matching: a pair, or an item left unmatched (other index None)."""

    true_index: int | None
    pred_index: int | None
    cost: float


def augmented_assignment(
    paired: np.ndarray,
    unmatched_true: np.ndarray,
    unmatched_pred: np.ndarray,
    *,
    forbidden_cost: float | None = None,
) -> list[ListPair]:
    """Minimum-cost matching where every item is paired once or left unmatched.

    Records come in row order: true items in order (paired or not), then unmatched predictions
    ascending. ``forbidden_cost`` defaults to ``(max cost + 1) * (size + 1)``.
    """
    n_true, n_pred = paired.shape
    size = n_true + n_pred
    if size == 0:
        return []
    if forbidden_cost is None:
        all_costs = np.concatenate((paired.ravel(), unmatched_true, unmatched_pred))
        forbidden_cost = (float(np.max(all_costs, initial=0.0)) + 1.0) * (size + 1)
    cost = np.full((size, size), forbidden_cost, dtype=np.float64)
    cost[:n_true, :n_pred] = paired
    cost[np.arange(n_true), n_pred + np.arange(n_true)] = unmatched_true
    cost[n_true + np.arange(n_pred), np.arange(n_pred)] = unmatched_pred
    cost[n_true:, n_pred:] = 0.0
    rows, cols = linear_sum_assignment(cost)
    records: list[ListPair] = []
    for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
        if r < n_true and c < n_pred:
            records.append(ListPair(r, c, float(paired[r, c])))
        elif r < n_true and c == n_pred + r:
            records.append(ListPair(r, None, float(unmatched_true[r])))
        elif c < n_pred and r == n_true + c:
            records.append(ListPair(None, c, float(unmatched_pred[c])))
        elif r < n_true or c < n_pred:
            # Only reachable when a real cost reaches the forbidden cost (a custom distance
            # returning >= 1e9 in a text list): the reference keeps such a record as it falls.
            records.append(
                ListPair(
                    r if r < n_true else None,
                    c if c < n_pred else None,
                    float(cost[r, c]),
                )
            )
    return records


def match_text_lists(
    true_texts: Sequence[str], pred_texts: Sequence[str], distance_fn: DistanceFnProtocol
) -> list[ListPair]:
    """Optimal matching of two string lists; a pair is used only when cheaper than two unmatched.

    >>> from parsescore.shared.distance import levenshtein
    >>> pairs = match_text_lists(["ab", "x"], ["ab"], levenshtein)
    >>> [(p.true_index, p.pred_index, p.cost) for p in pairs]
    [(0, 0, 0.0), (1, None, 1.0)]
    """
    if not true_texts and not pred_texts:
        return []
    costs = text_costs(true_texts, pred_texts, distance_fn)
    return augmented_assignment(
        costs.paired,
        costs.unmatched_true,
        costs.unmatched_pred,
        forbidden_cost=TEXT_LIST_FORBIDDEN_COST,
    )


@dataclass(frozen=True, slots=True)
class TextOptimalSupport:
    """Which pairs / unmatched choices occur in some minimum-cost matching (a superset is exact).

    ``pairs[i, j]`` true node i with pred node j; ``true_alone[i]``, ``pred_alone[j]``: left
    unmatched. Every perfect matching on these choices has cost ``minimum_cost``.
    """

    pairs: np.ndarray
    true_alone: np.ndarray
    pred_alone: np.ndarray
    minimum_cost: float
    exact: bool = False
    """True when every perfect matching on the support provably costs ``minimum_cost`` (integer
    costs, admitted reduced costs too small to add up to 1), so no cost row is needed."""


def text_optimal_support(
    paired: np.ndarray,
    unmatched_true: np.ndarray,
    unmatched_pred: np.ndarray,
    minimum_cost: float,
) -> TextOptimalSupport:
    """Zero-reduced-cost choices of the assignment LP, from HiGHS duals.

    Complementary slackness: every optimal matching uses only choices with zero reduced cost
    under any optimal dual, and any perfect matching on them attains the optimum. The tolerance
    only ever admits extra choices; callers keep the optimum fixed with a cost row, so the
    result stays exact.
    """
    n_true, n_pred = paired.shape
    n_pairs = n_true * n_pred
    n_vars = n_pairs + n_true + n_pred
    rows = np.concatenate(
        (
            np.repeat(np.arange(n_true), n_pred),
            n_true + np.tile(np.arange(n_pred), n_true),
            np.arange(n_true),
            n_true + np.arange(n_pred),
        )
    )
    cols = np.concatenate(
        (np.arange(n_pairs), np.arange(n_pairs), n_pairs + np.arange(n_true + n_pred))
    )
    a_eq = csc_array((np.ones(rows.size), (rows, cols)), shape=(n_true + n_pred, n_vars))
    c = np.concatenate((paired.ravel(), unmatched_true, unmatched_pred))
    result = linprog(c, A_eq=a_eq, b_eq=np.ones(n_true + n_pred), bounds=(0, None), method="highs")
    if result.status != 0:
        raise RuntimeError(f"Could not solve the node-text assignment LP: {result.message}")
    duals = result.eqlin.marginals
    reduced = c - np.concatenate(
        (
            (duals[:n_true, None] + duals[None, n_true:]).ravel(),
            duals[:n_true],
            duals[n_true:],
        )
    )
    tolerance = 1e-7 * max(1.0, float(np.max(np.abs(c), initial=0.0)))
    zero = reduced <= tolerance
    largest_admitted = float(np.max(reduced[zero], initial=0.0))
    exact = bool(np.all(c == np.round(c))) and (n_true + n_pred) * largest_admitted < 0.5
    return TextOptimalSupport(
        pairs=zero[:n_pairs].reshape(n_true, n_pred),
        true_alone=zero[n_pairs : n_pairs + n_true],
        pred_alone=zero[n_pairs + n_true :],
        minimum_cost=minimum_cost,
        exact=exact,
    )


class ConstraintRows:
    """Collects sparse rows ``lower <= sum(coef * x[col]) <= upper`` for a MILP."""

    def __init__(self) -> None:
        self._rows: list[int] = []
        self._cols: list[int] = []
        self._vals: list[float] = []
        self.lower: list[float] = []
        self.upper: list[float] = []

    def add(self, cols: Sequence[int], coefs: Sequence[float], lower: float, upper: float) -> None:
        row = len(self.lower)
        self._rows.extend([row] * len(cols))
        self._cols.extend(cols)
        self._vals.extend(coefs)
        self.lower.append(lower)
        self.upper.append(upper)

    def build(self, n_vars: int) -> LinearConstraint:
        matrix = coo_array(
            (np.asarray(self._vals, dtype=np.float64), (self._rows, self._cols)),
            shape=(len(self.lower), n_vars),
        ).tocsc()
        return LinearConstraint(matrix, np.asarray(self.lower), np.asarray(self.upper))


def solve_binary_milp(
    objective: np.ndarray,
    constraints: ConstraintRows,
    *,
    what: str,
    presolve: bool = True,
) -> OptimizeResult:
    """Solve a 0/1 MILP to proven optimality (HiGHS, zero gap) or raise RuntimeError."""
    n_vars = objective.size
    options: dict[str, float | bool] = {"mip_rel_gap": 0.0, "presolve": presolve}
    result = milp(
        c=objective,
        integrality=np.ones(n_vars, dtype=np.uint8),
        bounds=Bounds(np.zeros(n_vars), np.ones(n_vars)),
        constraints=constraints.build(n_vars),
        options=options,
    )
    if result.status != 0 or not result.success or result.x is None:
        raise RuntimeError(
            f"Could not prove an optimal solution during {what}. "
            f"Solver status: {result.status}. Solver message: {result.message}"
        )
    return result
