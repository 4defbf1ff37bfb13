"""Optimal assignment with unmatched costs, and the exact MILP helpers built on it.

Two lists are paired on an augmented square matrix (each item may also stay unmatched at its own
cost), solved by scipy's ``linear_sum_assignment`` (:mod:`parsescore.shared.lap` for small
matrices: the same assignment without importing scipy.optimize) — the references'
construction, so that ties
fall the same way. For lexicographic objectives the text-optimal matchings are found exactly by
duality: the choices used by some optimal matching all have zero reduced cost, and the optimal
matchings are precisely the perfect matchings on them, which shrinks an n² model to its tie groups.
The ``*_lists`` variants take and give Python lists and run the very same float operations, so
that a small pair is matched without importing NumPy; NumPy and scipy are imported only by the
functions that need them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsescore.shared.distance import DistanceFnProtocol, text_cost_lists, text_costs
from parsescore.shared.lap import (
    LIST_ENTRIES,
    SMALL_ENTRIES,
    linear_sum_assignment,
    list_assignment,
)

if TYPE_CHECKING:
    import numpy as np
    from scipy.optimize import LinearConstraint, OptimizeResult

__all__ = [
    "ListPair",
    "SupportLists",
    "TextOptimalSupport",
    "augmented_assignment",
    "augmented_assignment_lists",
    "match_text_lists",
    "solve_binary_milp",
    "text_optimal_support",
    "text_optimal_support_lists",
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
    import numpy as np

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


def _augmented_rows(
    paired: Sequence[Sequence[float]],
    unmatched_true: Sequence[float],
    unmatched_pred: Sequence[float],
    forbidden_cost: float | None,
) -> list[list[float]]:
    """The square matrix of :func:`augmented_assignment` as rows of floats (same numbers)."""
    n_true, n_pred = len(unmatched_true), len(unmatched_pred)
    size = n_true + n_pred
    if forbidden_cost is None:
        largest = max((c for row in paired for c in row), default=0.0)
        largest = max(largest, *unmatched_true, *unmatched_pred, 0.0)
        forbidden_cost = (float(largest) + 1.0) * (size + 1)
    cost = [[forbidden_cost] * size for _ in range(size)]
    for i in range(n_true):
        cost[i][:n_pred] = [float(c) for c in paired[i]]
        cost[i][n_pred + i] = float(unmatched_true[i])
    for j in range(n_pred):
        cost[n_true + j][j] = float(unmatched_pred[j])
        cost[n_true + j][n_pred:] = [0.0] * n_true
    return cost


def augmented_assignment_lists(
    paired: Sequence[Sequence[float]],
    unmatched_true: Sequence[float],
    unmatched_pred: Sequence[float],
    *,
    forbidden_cost: float | None = None,
) -> list[ListPair]:
    """:func:`augmented_assignment` of costs given as lists (``paired[i][j]``): the same
    records, solved by :func:`~parsescore.shared.lap.list_assignment` on lists whatever the
    size (callers choose this for small inputs)."""
    n_true, n_pred = len(unmatched_true), len(unmatched_pred)
    if n_true + n_pred == 0:
        return []
    cost = _augmented_rows(paired, unmatched_true, unmatched_pred, forbidden_cost)
    rows, cols = list_assignment(cost, limit=len(cost) ** 2)
    records: list[ListPair] = []
    for r, c in zip(rows, cols, strict=True):
        if r < n_true and c < n_pred:
            records.append(ListPair(r, c, float(paired[r][c])))
        elif r < n_true and c == n_pred + r:
            records.append(ListPair(r, None, float(unmatched_true[r])))
        elif c < n_pred and r == n_true + c:
            records.append(ListPair(None, c, float(unmatched_pred[c])))
        elif r < n_true or c < n_pred:  # as in augmented_assignment
            records.append(
                ListPair(r if r < n_true else None, c if c < n_pred else None, cost[r][c])
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
    size = len(true_texts) + len(pred_texts)
    if size * size <= LIST_ENTRIES:  # a few texts: the same records without NumPy
        lists = text_cost_lists(true_texts, pred_texts, distance_fn)
        return augmented_assignment_lists(
            lists.paired,
            lists.unmatched_true,
            lists.unmatched_pred,
            forbidden_cost=TEXT_LIST_FORBIDDEN_COST,
        )
    costs = text_costs(true_texts, pred_texts, distance_fn)
    return augmented_assignment(
        costs.paired,
        costs.unmatched_true,
        costs.unmatched_pred,
        forbidden_cost=TEXT_LIST_FORBIDDEN_COST,
    )


@dataclass(frozen=True, slots=True)
class TextOptimalSupport:
    """Which pairs / unmatched choices occur in some minimum-cost matching.

    ``pairs[i, j]`` true node i with pred node j; ``true_alone[i]``, ``pred_alone[j]``: left
    unmatched. With ``exact``, these are exactly the choices of the minimum-cost matchings and
    every perfect matching on them costs ``minimum_cost``; otherwise they are a superset (float
    costs, within a tolerance) and callers keep the optimum fixed with a cost row.
    """

    pairs: np.ndarray
    true_alone: np.ndarray
    pred_alone: np.ndarray
    minimum_cost: float
    exact: bool = False
    """True when every perfect matching on the support provably costs ``minimum_cost`` (integer
    costs, admitted reduced costs too small to add up to 1), so no cost row is needed."""


def _augmented_matrix(
    paired: np.ndarray, unmatched_true: np.ndarray, unmatched_pred: np.ndarray
) -> np.ndarray:
    """The square matrix of :func:`augmented_assignment` (default forbidden cost)."""
    import numpy as np

    n_true, n_pred = paired.shape
    size = n_true + n_pred
    all_costs = np.concatenate((paired.ravel(), unmatched_true, unmatched_pred))
    forbidden_cost = (float(np.max(all_costs, initial=0.0)) + 1.0) * (size + 1)
    cost = np.full((size, size), forbidden_cost, dtype=np.float64)
    cost[:n_true, :n_pred] = paired
    cost[np.arange(n_true), n_pred + np.arange(n_true)] = unmatched_true
    cost[n_true + np.arange(n_pred), np.arange(n_pred)] = unmatched_pred
    cost[n_true:, n_pred:] = 0.0
    return cost


def text_optimal_support(
    paired: np.ndarray,
    unmatched_true: np.ndarray,
    unmatched_pred: np.ndarray,
    minimum_cost: float,
) -> TextOptimalSupport:
    """The choices used by some minimum-cost matching, from one optimal assignment.

    Given an optimal assignment ``col_of``, moving row i to column j changes the cost by
    ``C[i, j] - C[i, col_of[i]]``; optimality means this "exchange" graph on columns has no
    negative cycle, so shortest distances ``d`` from a virtual source exist and are dual
    potentials: every reduced cost ``C[i, j] - C[i, col_of[i]] + d[col_of[i]] - d[j]`` is >= 0.
    Another optimal assignment differs from ``col_of`` by exchange cycles of total cost 0, hence
    of reduced cost 0 on every arc, so a choice is in some optimal matching exactly when it is
    assigned, or its arc has reduced cost 0 and lies in a strongly connected component of the
    zero-reduced-cost arcs (a cycle through it exists). Distances are computed by vectorised
    Bellman-Ford (a few passes over the n² matrix in practice), far cheaper than an LP solve.
    """
    import numpy as np

    n_true, n_pred = paired.shape
    cost = _augmented_matrix(paired, unmatched_true, unmatched_pred)
    size = cost.shape[0]
    rows, col_of = linear_sum_assignment(cost)
    exchange = cost - cost[rows, col_of][:, None]
    scale = max(1.0, float(np.max(np.abs(cost), initial=0.0)))
    tolerance = 1e-9 * scale
    dist = np.zeros(size)
    for _ in range(size):
        updated = np.minimum(dist, (dist[col_of][:, None] + exchange).min(axis=0))
        if not np.any(updated < dist - tolerance):
            dist = updated
            break
        dist = updated
    reduced = exchange + dist[col_of][:, None] - dist[None, :]
    admit = 1e-7 * scale
    tight = reduced <= admit
    arc_rows, arc_cols = np.nonzero(tight)
    component = strong_components(size, col_of[arc_rows], arc_cols)
    used = tight & (component[col_of][:, None] == component[None, :])
    used[rows, col_of] = True
    largest_admitted = float(np.max(np.where(used, reduced, 0.0), initial=0.0))
    integral = bool(np.all(cost == np.round(cost)))
    exact = integral and size * max(largest_admitted, 0.0) < 0.5
    return TextOptimalSupport(
        pairs=used[:n_true, :n_pred].copy(),
        true_alone=used[np.arange(n_true), n_pred + np.arange(n_true)],
        pred_alone=used[n_true + np.arange(n_pred), np.arange(n_pred)],
        minimum_cost=minimum_cost,
        exact=exact,
    )


def strong_components(size: int, sources: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Strongly connected component of each of ``size`` nodes, given the arcs
    ``sources[k] -> targets[k]`` (numbers label components; only equality matters).

    Small graphs in Python (iterative Tarjan), bigger ones with scipy's csgraph: importing
    scipy.sparse is dearer than the whole search on a small pair.
    """
    import numpy as np

    if size * size > SMALL_ENTRIES:
        from scipy.sparse import csc_array
        from scipy.sparse.csgraph import connected_components

        graph = csc_array((np.ones(sources.size), (sources, targets)), shape=(size, size))
        _, labels = connected_components(graph, directed=True, connection="strong")
        return np.asarray(labels)
    component = strong_components_lists(size, sources.tolist(), targets.tolist())
    return np.array(component, dtype=np.int64)


def strong_components_lists(size: int, sources: Sequence[int], targets: Sequence[int]) -> list[int]:
    """:func:`strong_components` of a small graph on lists (iterative Tarjan)."""
    successors: list[list[int]] = [[] for _ in range(size)]
    for a, b in zip(sources, targets, strict=True):
        successors[a].append(b)
    index = [-1] * size
    low = [0] * size
    on_stack = [False] * size
    stack: list[int] = []
    component = [-1] * size
    counter = n_components = 0
    for root in range(size):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            node, next_child = work.pop()
            if next_child == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            children = successors[node]
            descended = False
            for k in range(next_child, len(children)):
                child = children[k]
                if index[child] < 0:
                    work.append((node, k + 1))
                    work.append((child, 0))
                    descended = True
                    break
                if on_stack[child]:
                    low[node] = min(low[node], index[child])
            if descended:
                continue
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component[member] = n_components
                    if member == node:
                        break
                n_components += 1
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return component


@dataclass(frozen=True, slots=True)
class SupportLists:
    """:class:`TextOptimalSupport` as lists: ``pairs[i][j]``, ``true_alone[i]``,
    ``pred_alone[j]``, ``exact`` — the same values, for a small pair scored without NumPy."""

    pairs: list[list[bool]]
    true_alone: list[bool]
    pred_alone: list[bool]
    minimum_cost: float
    exact: bool = False

    def unique(self) -> bool:
        """Whether exactly one matching reaches the minimum: one choice per node, each side."""
        per_true = [
            sum(row) + alone for row, alone in zip(self.pairs, self.true_alone, strict=True)
        ]
        per_pred = [
            sum(row[j] for row in self.pairs) + alone for j, alone in enumerate(self.pred_alone)
        ]
        return all(n == 1 for n in per_true) and all(n == 1 for n in per_pred)


def text_optimal_support_lists(
    paired: Sequence[Sequence[float]],
    unmatched_true: Sequence[float],
    unmatched_pred: Sequence[float],
    minimum_cost: float,
) -> SupportLists:
    """:func:`text_optimal_support` on lists, step by step the same float operations (so the
    same tolerances decide the same way) without NumPy, whatever the size (callers choose
    this for small inputs)."""
    n_true, n_pred = len(unmatched_true), len(unmatched_pred)
    cost = _augmented_rows(paired, unmatched_true, unmatched_pred, None)
    size = len(cost)
    _, col_of = list_assignment(cost, limit=size * size)
    exchange = [[c - row[col_of[i]] for c in row] for i, row in enumerate(cost)]
    scale = max(1.0, max((abs(c) for row in cost for c in row), default=0.0))
    tolerance = 1e-9 * scale
    dist = [0.0] * size
    for _ in range(size):
        through = [dist[col_of[i]] for i in range(size)]
        updated = [
            min(dist[j], min(through[i] + exchange[i][j] for i in range(size))) for j in range(size)
        ]
        if not any(new < old - tolerance for new, old in zip(updated, dist, strict=True)):
            dist = updated
            break
        dist = updated
    reduced = [
        [exchange[i][j] + dist[col_of[i]] - dist[j] for j in range(size)] for i in range(size)
    ]
    admit = 1e-7 * scale
    tight = [[value <= admit for value in row] for row in reduced]
    sources = [col_of[i] for i in range(size) for j in range(size) if tight[i][j]]
    targets = [j for i in range(size) for j in range(size) if tight[i][j]]
    component = strong_components_lists(size, sources, targets)
    used = [
        [tight[i][j] and component[col_of[i]] == component[j] for j in range(size)]
        for i in range(size)
    ]
    for i in range(size):
        used[i][col_of[i]] = True
    largest_admitted = max(
        0.0,
        max((reduced[i][j] for i in range(size) for j in range(size) if used[i][j]), default=0.0),
    )
    integral = all(c == round(c) for row in cost for c in row)
    exact = integral and size * max(largest_admitted, 0.0) < 0.5
    return SupportLists(
        pairs=[used[i][:n_pred] for i in range(n_true)],
        true_alone=[used[i][n_pred + i] for i in range(n_true)],
        pred_alone=[used[n_true + j][j] for j in range(n_pred)],
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
        import numpy as np
        from scipy.optimize import LinearConstraint
        from scipy.sparse import coo_array

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
    import numpy as np
    from scipy.optimize import Bounds, milp

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
