"""The reference's formulation, written afresh: dense two-stage MILPs over all n² node pairs.

Flowde fixes the minimum node-text cost with a cost row, then maximises matched edge pairs with
one variable per (true edge, predicted edge) pair and three linking rows each, then minimises
label cost with the edge count fixed. This module builds that same model from its description
(no Flowde code) so that the benchmark can time it beside ours, and the tests can check that our
reduced model reaches the same optimum on random instances.
"""

from __future__ import annotations

import numpy as np

from parsescore.shared.assign import ConstraintRows, augmented_assignment, solve_binary_milp
from parsescore.shared.distance import (
    DistanceFnProtocol,
    levenshtein_with_text_normalisation,
    text_costs,
)


def dense_lexicographic_optimum(
    true_texts: list[str],
    pred_texts: list[str],
    true_edges: list[tuple[int, int]],
    pred_edges: list[tuple[int, int]],
    true_labels: list[list[str]] | None,
    pred_labels: list[list[str]] | None,
    distance_fn: DistanceFnProtocol = levenshtein_with_text_normalisation,
    *,
    time_limit: float | None = None,
) -> tuple[float, int, float | None]:
    """Return (min text cost, max matched edge pairs, min label cost) by the dense model."""
    from parsescore.shared.assign import match_text_lists

    costs = text_costs(true_texts, pred_texts, distance_fn)
    records = augmented_assignment(costs.paired, costs.unmatched_true, costs.unmatched_pred)
    minimum = sum(r.cost for r in records)
    n_t, n_p = len(true_texts), len(pred_texts)

    def x(i: int, j: int) -> int:
        return i * n_p + j

    y0, z0 = n_t * n_p, n_t * n_p + n_t
    e0 = z0 + n_p
    n_vars = e0 + len(true_edges) * len(pred_edges)
    rows = ConstraintRows()
    for i in range(n_t):
        cols = [x(i, j) for j in range(n_p)] + [y0 + i]
        rows.add(cols, [1.0] * len(cols), 1.0, 1.0)
    for j in range(n_p):
        cols = [x(i, j) for i in range(n_t)] + [z0 + j]
        rows.add(cols, [1.0] * len(cols), 1.0, 1.0)
    text_cols = list(range(e0))
    text_vals = [*costs.paired.ravel().tolist(), *costs.unmatched_true, *costs.unmatched_pred]
    rows.add(text_cols, text_vals, minimum, minimum)
    k = e0
    for a, b in true_edges:
        for c, d in pred_edges:
            rows.add([k, x(a, c)], [1.0, -1.0], -np.inf, 0.0)
            rows.add([k, x(b, d)], [1.0, -1.0], -np.inf, 0.0)
            rows.add([k, x(a, c), x(b, d)], [1.0, -1.0, -1.0], -1.0, np.inf)
            k += 1
    best_flow = 0
    options = {"time_limit": time_limit} if time_limit else {}
    if n_vars > e0:
        objective = np.zeros(n_vars)
        objective[e0:] = -1.0
        result = _solve(objective, rows, options, "dense flow stage")
        best_flow = round(-float(result.fun))
        flow_cols = list(range(e0, n_vars))
        rows.add(flow_cols, [1.0] * len(flow_cols), best_flow, best_flow)
    best_labels = None
    if true_labels is not None and pred_labels is not None:

        def label_cost(t: list[str], p: list[str]) -> float:
            return sum(r.cost for r in match_text_lists(t, p, distance_fn))

        objective = np.zeros(n_vars)
        for i in range(n_t):
            for j in range(n_p):
                objective[x(i, j)] = label_cost(true_labels[i], pred_labels[j])
            objective[y0 + i] = label_cost(true_labels[i], [])
        for j in range(n_p):
            objective[z0 + j] = label_cost([], pred_labels[j])
        result = _solve(objective, rows, options, "dense label stage")
        best_labels = float(objective @ np.round(result.x))
    return minimum, best_flow, best_labels


def _solve(objective: np.ndarray, rows: ConstraintRows, options: dict, what: str):  # type: ignore[no-untyped-def]
    if not options:
        return solve_binary_milp(objective, rows, what=what)
    from scipy.optimize import Bounds, milp

    n = objective.size
    result = milp(
        c=objective,
        integrality=np.ones(n, dtype=np.uint8),
        bounds=Bounds(np.zeros(n), np.ones(n)),
        constraints=rows.build(n),
        options={"mip_rel_gap": 0.0, **options},
    )
    if result.status != 0:
        raise TimeoutError(f"{what}: {result.message}")
    return result
