"""Exact lexicographic node matching and ground-truth option choice.

Per option: minimise node-text cost; among those matchings maximise matched edge pairs (when flow
was predicted); among those minimise label cost (when labels were predicted). Flowde solves the
later stages as dense MILPs over all n² pairs. We keep exactly the same optimum but:

- build the text-cost matrix once (rapidfuzz for the built-in distances);
- restrict every later stage to the choices of the text-optimal matchings (exactly those, from
  the assignment's dual potentials), i.e. to the tie groups — usually tiny;
- skip a stage whose answer is already known (a unique text-optimal matching, a matching that
  reaches the flow upper bound, a label cost at its lower bound);
- look for such a matching in polynomial time where texts and labels cannot tell nodes apart
  (colour refinement of both flows at once), so identical texts, identical labels and
  symmetric flows are proved optimal without branching when the flow is predicted right;
- otherwise solve one MILP for flow and labels together (flow weighted above any label
  difference, exact for integer label costs; two stages otherwise);
- keep scipy's text assignment when it is lexicographically optimal, so results coincide with
  Flowde's wherever its solver has no real choice.
- solve a small option (at most ``LIST_ENTRIES`` entries in the augmented matrix) on Python
  lists up to the point where a MILP needs arrays: a small pair whose text-optimal matching is
  unique is then scored without importing NumPy (most of a fresh process's first call); the
  same costs, assignment and support as on arrays (property tests force either path).

Maximising matched edges over node bijections is NP-hard in general (a true cycle is matched
in full exactly when the prediction has a Hamiltonian cycle), so a noisy prediction of a flow
whose texts are all identical can still need the MILP's branching.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsescore.flowchart.models import (
    Diagram,
    DiagramMatch,
    DiagramOptions,
    Node,
    NodeMatch,
    NodeMatches,
    PredDiagramStructure,
    TextListMatch,
    TextListMatches,
)
from parsescore.shared.assign import (
    ConstraintRows,
    ListPair,
    SupportLists,
    TextOptimalSupport,
    augmented_assignment,
    augmented_assignment_lists,
    match_text_lists,
    solve_binary_milp,
    text_optimal_support,
    text_optimal_support_lists,
)
from parsescore.shared.distance import (
    DistanceFnProtocol,
    TextCostLists,
    TextCosts,
    text_cost_lists,
    text_costs,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "match_additional_texts",
    "match_node_labels",
    "match_nodes",
    "match_nodes_single_option",
    "match_single_diagram",
]

_SELECTED = 0.5
#: Options whose augmented matrix (true + predicted nodes, squared) has at most this many
#: entries are matched on lists: no NumPy import, and faster than arrays at these sizes in a
#: warm process too (assignment and support of 16 + 16 nodes: 2.1 ms on lists, 3.2 ms on
#: arrays; 24 + 24: 4.4 and 5.3 ms).
LIST_ENTRIES = 32 * 32


def _match_text_list_records(
    true_texts: Sequence[str],
    pred_texts: Sequence[str],
    distance_fn: DistanceFnProtocol,
    *,
    parent_img_code: str | None = None,
    true_option_idx: int | None = None,
) -> TextListMatches:
    """Optimal text-list matching as Flowde records (true items in order, then extra preds)."""
    records = [
        TextListMatch(
            true_index=p.true_index,
            pred_index=p.pred_index,
            true_text=None if p.true_index is None else true_texts[p.true_index],
            pred_text=None if p.pred_index is None else pred_texts[p.pred_index],
            parent_img_code=parent_img_code,
            true_option_idx=true_option_idx,
            cost=p.cost,
        )
        for p in match_text_lists(true_texts, pred_texts, distance_fn)
    ]
    return TextListMatches(matches=records)


def match_node_labels(node_matches: NodeMatches, distance_fn: DistanceFnProtocol) -> NodeMatches:
    """Fill ``label_matches`` of every record; an unmatched node's labels meet ``[]``."""
    for m in node_matches.matches:
        true_labels = m.true_node.labels if m.true_node is not None else []
        pred_labels = m.pred_node.labels if m.pred_node is not None else []
        if true_labels is None or pred_labels is None:
            raise ValueError("Node labels cannot be None when matching node labels.")
        m.label_matches = _match_text_list_records(true_labels, pred_labels, distance_fn)
    return node_matches


def match_additional_texts(
    true_diagram: Diagram, pred_diagram: Diagram, distance_fn: DistanceFnProtocol
) -> TextListMatches:
    """Match the additional texts of a ground-truth option and a prediction."""
    if true_diagram.additional_texts is None or pred_diagram.additional_texts is None:
        raise ValueError("Additional texts cannot be None when matching additional texts.")
    return _match_text_list_records(
        true_diagram.additional_texts,
        pred_diagram.additional_texts,
        distance_fn,
        parent_img_code=true_diagram.parent_img_code,
        true_option_idx=true_diagram.true_option_idx,
    )


@dataclass
class _Assignment:
    """A matching: ``pred_of[i]`` for true node i (-1 unmatched)."""

    pred_of: list[int]

    @classmethod
    def from_records(cls, records: list[ListPair], n_true: int) -> _Assignment:
        pred_of = [-1] * n_true
        for r in records:
            if r.true_index is not None and r.pred_index is not None:
                pred_of[r.true_index] = r.pred_index
        return cls(pred_of)


def _edges(nodes: list[Node]) -> list[tuple[int, int]]:
    index = {n.node_number: i for i, n in enumerate(nodes)}
    return [(i, index[t]) for i, n in enumerate(nodes) for t in n.points_to or []]


def _integral(values: np.ndarray) -> bool:
    import numpy as np

    return bool(np.all(values == np.round(values)))


def _refine(colours: list[int], out: list[list[int]], into: list[list[int]]) -> list[int]:
    """Colour refinement (1-WL) on a directed multigraph until no class splits."""
    n_classes = len(set(colours))
    while True:
        ids: dict[tuple[int, tuple[int, ...], tuple[int, ...]], int] = {}
        refined = [
            ids.setdefault(
                (
                    colours[v],
                    tuple(sorted(colours[u] for u in out[v])),
                    tuple(sorted(colours[u] for u in into[v])),
                ),
                len(ids),
            )
            for v in range(len(colours))
        ]
        if len(ids) == n_classes:
            return refined
        colours, n_classes = refined, len(ids)


def _refined_isomorphism(
    allowed: np.ndarray,
    true_edges: list[tuple[int, int]],
    pred_edges: list[tuple[int, int]],
    true_keys: Sequence[object],
    pred_keys: Sequence[object],
) -> np.ndarray | None:
    """A matching of allowed pairs that colour refinement says maps flow onto flow, or None.

    Both graphs are refined together (true nodes first, then predicted ones), starting from
    their tie group (connected component of ``allowed``) and key; while a class holds several
    nodes, its first true and first predicted node are individualised. Each step is
    polynomial and there is no backtracking, so the answer may be None where an isomorphism
    exists (the caller then solves the MILP); a returned matching is checked by the caller.
    """
    import numpy as np

    n_true, n_pred = allowed.shape
    size = n_true + n_pred
    rows, cols = np.nonzero(allowed)
    parent = list(range(size))  # tie groups: union-find over the allowed pairs

    def root(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
        parent[root(i)] = root(n_true + j)
    group = [root(v) for v in range(size)]
    has_pair = np.concatenate((allowed.any(axis=1), allowed.any(axis=0)))
    keys = [*true_keys, *pred_keys]
    initial: dict[tuple[int, object], int] = {}
    colours = [
        initial.setdefault((int(group[v]), keys[v]) if has_pair[v] else (-1, None), len(initial))
        for v in range(size)
    ]
    out: list[list[int]] = [[] for _ in range(size)]
    into: list[list[int]] = [[] for _ in range(size)]
    for a, b in true_edges:
        out[a].append(b)
        into[b].append(a)
    for c, d in pred_edges:
        out[n_true + c].append(n_true + d)
        into[n_true + d].append(n_true + c)
    while True:
        colours = _refine(colours, out, into)
        members: dict[int, tuple[list[int], list[int]]] = {}
        for v in range(size):
            if has_pair[v]:
                members.setdefault(colours[v], ([], []))[v >= n_true].append(v)
        if any(len(t) != len(p) for t, p in members.values()):
            return None
        open_classes = [(len(t), c) for c, (t, _) in members.items() if len(t) > 1]
        if not open_classes:
            break
        _, chosen = min(open_classes)
        true_members, pred_members = members[chosen]
        fresh = max(colours) + 1
        colours[true_members[0]] = colours[pred_members[0]] = fresh
    pred_of = np.full(n_true, -1, dtype=np.int64)
    for true_members, pred_members in members.values():
        i, j = true_members[0], pred_members[0] - n_true
        if not allowed[i, j]:
            return None
        pred_of[i] = j
    return pred_of


class _OptionMatcher:
    """Solves one (ground-truth option, prediction) pair exactly."""

    def __init__(
        self,
        true_nodes: list[Node],
        pred_nodes: list[Node],
        distance_fn: DistanceFnProtocol,
        *,
        use_flow: bool,
        use_labels: bool,
        label_cost_cache: dict[tuple[tuple[str, ...], tuple[str, ...]], float],
        parent_img_code: str,
        option_idx: int,
    ) -> None:
        self.true_nodes = true_nodes
        self.pred_nodes = pred_nodes
        self.distance_fn = distance_fn
        self.use_flow = use_flow
        self.use_labels = use_labels
        self.label_cost_cache = label_cost_cache
        self.where = f"diagram {parent_img_code}, ground-truth option {option_idx}"
        true_texts, pred_texts = [n.text for n in true_nodes], [n.text for n in pred_nodes]
        size = len(true_nodes) + len(pred_nodes)
        # A small option is solved on lists until the MILP (if any) needs arrays: scoring one
        # small pair then imports no NumPy. Same costs, same assignment, same support.
        self.cost_lists: TextCostLists | None = None
        self._costs: TextCosts | None = None
        if size * size <= LIST_ENTRIES:
            self.cost_lists = text_cost_lists(true_texts, pred_texts, distance_fn)
        else:
            self._costs = text_costs(true_texts, pred_texts, distance_fn)

    @property
    def costs(self) -> TextCosts:
        """The text costs as arrays (made from the lists when a small option needs them)."""
        if self._costs is None:
            assert self.cost_lists is not None
            self._costs = self.cost_lists.as_arrays()
        return self._costs

    # -- label costs -------------------------------------------------------------------------
    def _label_cost(self, true_labels: list[str], pred_labels: list[str]) -> float:
        key = (tuple(true_labels), tuple(pred_labels))
        cost = self.label_cost_cache.get(key)
        if cost is None:
            cost = sum(p.cost for p in match_text_lists(true_labels, pred_labels, self.distance_fn))
            self.label_cost_cache[key] = cost
        return cost

    # -- solving -----------------------------------------------------------------------------
    def solve(self) -> _Assignment:
        n_true, n_pred = len(self.true_nodes), len(self.pred_nodes)
        lists = self.cost_lists
        if lists is not None:
            records = augmented_assignment_lists(
                lists.paired, lists.unmatched_true, lists.unmatched_pred
            )
            fallback = _Assignment.from_records(records, n_true)
            if not (self.use_flow or self.use_labels) or n_true == 0 or n_pred == 0:
                return fallback
            minimum = sum(r.cost for r in records)
            support = text_optimal_support_lists(
                lists.paired, lists.unmatched_true, lists.unmatched_pred, minimum
            )
            if support.unique() or self._fallback_at_its_bounds(support, fallback):
                return fallback
            # A later stage has a real choice: it runs on arrays (the same assignment and
            # support, recomputed there).
        return self._solve_arrays()

    def _fallback_at_its_bounds(self, support: SupportLists, fallback: _Assignment) -> bool:
        """Whether the text-optimal ``fallback`` provably wins the later stages, from the
        bounds :meth:`_solve_arrays` checks first (then it returns the fallback too): its flow
        reaches the flow upper bound (each true edge's heaviest candidate among the allowed
        pairs) and, with labels, its label cost the lower bound (each true, or each predicted,
        node's cheapest choice). Label costs must be (not too large) integers here, so that sums
        in any order are exact (the array path adds them with NumPy)."""
        n_true, n_pred = len(self.true_nodes), len(self.pred_nodes)
        allowed = [[j for j in range(n_pred) if support.pairs[i][j]] for i in range(n_true)]
        pred_of = fallback.pred_of
        if self.use_flow:
            pred_edge_count: dict[tuple[int, int], int] = {}
            for edge in _edges(self.pred_nodes):
                pred_edge_count[edge] = pred_edge_count.get(edge, 0) + 1
            pred_targets: list[list[tuple[int, int]]] = [[] for _ in range(n_pred)]
            for (c, d), count in pred_edge_count.items():
                pred_targets[c].append((d, count))
            flow_bound = flow = 0
            for a, b in _edges(self.true_nodes):
                flow_bound += max(
                    (
                        count
                        for c in allowed[a]
                        for d, count in pred_targets[c]
                        if support.pairs[b][d]
                    ),
                    default=0,
                )
                if pred_of[a] >= 0 and pred_of[b] >= 0:
                    flow += pred_edge_count.get((pred_of[a], pred_of[b]), 0)
            if flow < flow_bound:
                return False
        if not self.use_labels:
            return True
        t_labels = [n.labels or [] for n in self.true_nodes]
        p_labels = [n.labels or [] for n in self.pred_nodes]
        of_true = [
            [self._label_cost(t_labels[i], p_labels[j]) for j in allowed[i]]
            + ([self._label_cost(t_labels[i], [])] if support.true_alone[i] else [])
            for i in range(n_true)
        ]
        of_pred = [
            [
                self._label_cost(t_labels[i], p_labels[j])
                for i in range(n_true)
                if support.pairs[i][j]
            ]
            + ([self._label_cost([], p_labels[j])] if support.pred_alone[j] else [])
            for j in range(n_pred)
        ]
        every = [c for costs in (*of_true, *of_pred) for c in costs]
        if not all(c == round(c) for c in every) or sum(every) >= 2.0**52:
            return False  # sums of such integers are exact in any order
        lower = max(
            sum(min(costs) for costs in of_true if costs),
            sum(min(costs) for costs in of_pred if costs),
        )
        matched = set(pred_of)
        cost = sum(
            self._label_cost(t_labels[i], p_labels[j] if j >= 0 else [])
            for i, j in enumerate(pred_of)
        ) + sum(self._label_cost([], p_labels[j]) for j in range(n_pred) if j not in matched)
        return cost <= lower

    def _solve_arrays(self) -> _Assignment:
        import numpy as np

        n_true, n_pred = len(self.true_nodes), len(self.pred_nodes)
        records = augmented_assignment(
            self.costs.paired, self.costs.unmatched_true, self.costs.unmatched_pred
        )
        fallback = _Assignment.from_records(records, n_true)
        if not (self.use_flow or self.use_labels) or n_true == 0 or n_pred == 0:
            return fallback
        minimum = sum(r.cost for r in records)
        support = text_optimal_support(
            self.costs.paired, self.costs.unmatched_true, self.costs.unmatched_pred, minimum
        )
        pair_i, pair_j = np.nonzero(support.pairs)
        choices_per_true = support.pairs.sum(axis=1) + support.true_alone
        choices_per_pred = support.pairs.sum(axis=0) + support.pred_alone
        if np.all(choices_per_true == 1) and np.all(choices_per_pred == 1):
            return fallback  # the text-optimal matching is unique

        # Variables: allowed pairs, then allowed "true alone", then allowed "pred alone".
        true_alone = np.nonzero(support.true_alone)[0]
        pred_alone = np.nonzero(support.pred_alone)[0]
        n_pair_vars = pair_i.size
        pair_var = {
            (int(i), int(j)): k for k, (i, j) in enumerate(zip(pair_i, pair_j, strict=True))
        }
        base = ConstraintRows()
        rows_of_true: list[list[int]] = [[] for _ in range(n_true)]
        rows_of_pred: list[list[int]] = [[] for _ in range(n_pred)]
        for k, (i, j) in enumerate(zip(pair_i.tolist(), pair_j.tolist(), strict=True)):
            rows_of_true[i].append(k)
            rows_of_pred[j].append(k)
        for offset, i in enumerate(true_alone.tolist()):
            rows_of_true[i].append(n_pair_vars + offset)
        for offset, j in enumerate(pred_alone.tolist()):
            rows_of_pred[j].append(n_pair_vars + true_alone.size + offset)
        n_node_vars = n_pair_vars + true_alone.size + pred_alone.size
        for cols in (*rows_of_true, *rows_of_pred):
            base.add(cols, [1.0] * len(cols), 1.0, 1.0)
        var_costs = np.concatenate(
            (
                self.costs.paired[pair_i, pair_j],
                self.costs.unmatched_true[true_alone],
                self.costs.unmatched_pred[pred_alone],
            )
        )
        if not support.exact:
            # Keep the text optimum fixed explicitly (the support may be a tolerance superset).
            base.add(
                list(range(n_node_vars)),
                var_costs.tolist(),
                -np.inf,
                minimum + 1e-9 * max(1.0, minimum),
            )

        # Candidate edge pairs: true a->b with pred c->d where (a,c) and (b,d) are both allowed.
        # A repeated predicted edge counts once per occurrence, as in Flowde's model (weight).
        edge_pairs: list[tuple[int, int]] = []  # (source pair var, target pair var)
        weights: list[float] = []
        groups: dict[tuple[str, int, int], list[int]] = {}
        pred_edge_count: dict[tuple[int, int], int] = {}
        true_edges = _edges(self.true_nodes) if self.use_flow else []
        flow_bound = 0.0
        if self.use_flow:
            for edge in _edges(self.pred_nodes):
                pred_edge_count[edge] = pred_edge_count.get(edge, 0) + 1
            pred_targets: list[list[tuple[int, int]]] = [[] for _ in range(n_pred)]
            for p_idx, (c, d) in enumerate(pred_edge_count):
                pred_targets[c].append((d, p_idx))
            allowed_preds: list[list[int]] = [[] for _ in range(n_true)]
            for i, j in zip(pair_i.tolist(), pair_j.tolist(), strict=True):
                allowed_preds[i].append(j)
            counts = list(pred_edge_count.values())
            for t_idx, (a, b) in enumerate(true_edges):
                best_weight = 0
                for c in allowed_preds[a]:
                    src = pair_var[(a, c)]
                    for d, p_idx in pred_targets[c]:
                        tgt = pair_var.get((b, d))
                        if tgt is None:
                            continue
                        e = n_node_vars + len(edge_pairs)
                        edge_pairs.append((src, tgt))
                        weights.append(float(counts[p_idx]))
                        best_weight = max(best_weight, counts[p_idx])
                        # Aggregated linking rows (tighter than one row per endpoint): for a
                        # fixed true edge, at most one predicted edge can match it through a
                        # given node pair, and vice versa.
                        for key in (("ts", t_idx, src), ("tt", t_idx, tgt)):
                            groups.setdefault(key, []).append(e)
                        for key in (("ps", p_idx, src), ("pt", p_idx, tgt)):
                            groups.setdefault(key, []).append(e)
                # Under a one-to-one node matching a true edge meets at most one predicted
                # edge (the one between its endpoints' partners): the flow is at most the sum
                # of each true edge's heaviest candidate.
                flow_bound += best_weight
        n_vars = n_node_vars + len(edge_pairs)
        for (_, _, node_var), cols in groups.items():
            base.add([*cols, node_var], [1.0] * len(cols) + [-1.0], -np.inf, 0.0)

        def assignment_vector(assignment: _Assignment) -> np.ndarray:
            x = np.zeros(n_vars)
            pred_of = assignment.pred_of
            for i, j in enumerate(pred_of):
                if j >= 0:
                    x[pair_var[(i, j)]] = 1.0
            for offset, i in enumerate(true_alone.tolist()):
                x[n_pair_vars + offset] = float(pred_of[i] < 0)
            matched_pred = {j for j in pred_of if j >= 0}
            for offset, j in enumerate(pred_alone.tolist()):
                x[n_pair_vars + true_alone.size + offset] = float(j not in matched_pred)
            for e, (src, tgt) in enumerate(edge_pairs):
                x[n_node_vars + e] = min(x[src], x[tgt])
            return x

        def flow_of(assignment: _Assignment) -> int:
            pred_of = assignment.pred_of
            return sum(
                pred_edge_count.get((pred_of[a], pred_of[b]), 0)
                for a, b in true_edges
                if pred_of[a] >= 0 and pred_of[b] >= 0
            )

        edge_weights = np.asarray(weights, dtype=np.float64)
        label_costs = (
            self._variable_label_costs(pair_i, pair_j, true_alone, pred_alone)
            if self.use_labels
            else np.zeros(n_node_vars)
        )

        def label_cost_of(x: np.ndarray) -> float:
            return float(label_costs @ (x[:n_node_vars] > _SELECTED))

        x_fallback = assignment_vector(fallback)
        solution: np.ndarray | None = None  # None: the fallback is (still) the best known
        best_flow: int | None = None
        if edge_pairs:
            fallback_flow = flow_of(fallback)
            if fallback_flow >= flow_bound:
                best_flow = fallback_flow
            else:
                incumbent = self._structural_matching(support, true_edges, pred_edge_count)
                if incumbent is not None and flow_of(incumbent) >= flow_bound:
                    best_flow = round(flow_bound)
                    solution = assignment_vector(incumbent)
        else:
            best_flow = 0

        if best_flow is None and self.use_labels and _integral(label_costs):
            # One MILP for both stages: flow weighted above any possible label difference.
            label_range = self._label_upper_bound(
                label_costs, rows_of_true, rows_of_pred
            ) - self._label_lower_bound(label_costs, rows_of_true, rows_of_pred)
            scale = label_range + 1.0
            objective = np.zeros(n_vars)
            objective[:n_node_vars] = label_costs
            objective[n_node_vars:] = -scale * edge_weights
            result = solve_binary_milp(
                objective, base, what=f"flow and label optimisation ({self.where})"
            )
            best_flow = round(float(edge_weights @ np.round(result.x[n_node_vars:])))
            fallback_key = (flow_of(fallback), label_cost_of(x_fallback))
            if fallback_key != (best_flow, label_cost_of(result.x)):
                solution = result.x
        else:
            if best_flow is None:
                objective = np.zeros(n_vars)
                objective[n_node_vars:] = -edge_weights
                result = solve_binary_milp(
                    objective,
                    base,
                    what=f"flow optimisation ({self.where})",
                )
                best_flow = round(-float(result.fun))
                if best_flow > flow_of(fallback):
                    solution = result.x
            if edge_pairs:
                flow_cols = list(range(n_node_vars, n_vars))
                base.add(flow_cols, weights, float(best_flow), float(best_flow))
            if self.use_labels:
                current = x_fallback if solution is None else solution
                current_cost = label_cost_of(current)
                if (
                    solution is not None
                    and label_cost_of(x_fallback) <= current_cost
                    and flow_of(fallback) == best_flow
                ):
                    solution, current_cost = None, label_cost_of(x_fallback)
                if current_cost > self._label_lower_bound(label_costs, rows_of_true, rows_of_pred):
                    objective = np.zeros(n_vars)
                    objective[:n_node_vars] = label_costs
                    result = solve_binary_milp(
                        objective,
                        base,
                        what=f"label optimisation ({self.where})",
                    )
                    if result.fun < current_cost - 1e-9 * max(1.0, current_cost):
                        solution = result.x
        if solution is None:
            return fallback
        pred_of = np.full(n_true, -1, dtype=np.int64)
        chosen = np.nonzero(solution[:n_pair_vars] > _SELECTED)[0]
        pred_of[pair_i[chosen]] = pair_j[chosen]
        return _Assignment(pred_of.tolist())

    def _structural_matching(
        self,
        support: TextOptimalSupport,
        true_edges: list[tuple[int, int]],
        pred_edge_count: dict[tuple[int, int], int],
    ) -> _Assignment | None:
        """A text-optimal matching that maps the true flow onto the predicted one, if found.

        Polynomial: colour refinement with individualisation (no backtracking) on both graphs
        at once, first with labels in the initial colours, then without. A found matching is
        only a candidate; the caller keeps it when it reaches the flow upper bound, so this
        never changes the optimum, only how fast symmetric cases (identical texts and labels,
        isomorphic flows) are proved optimal.
        """
        import numpy as np

        pred_edges = list(pred_edge_count)
        keyed = [
            [tuple(n.labels or []) for n in self.true_nodes],
            [tuple(n.labels or []) for n in self.pred_nodes],
        ]
        blind: list[list[tuple[str, ...]]] = [
            [()] * len(self.true_nodes),
            [()] * len(self.pred_nodes),
        ]
        for true_keys, pred_keys in (keyed, blind) if self.use_labels else (blind,):
            pred_of = _refined_isomorphism(
                support.pairs, true_edges, pred_edges, true_keys, pred_keys
            )
            if pred_of is None:
                continue
            matched = pred_of >= 0
            if np.all(support.true_alone[~matched]) and np.all(
                support.pred_alone[np.setdiff1d(np.arange(len(self.pred_nodes)), pred_of)]
            ):
                return _Assignment(pred_of.tolist())
        return None

    @staticmethod
    def _label_upper_bound(
        label_costs: np.ndarray, rows_of_true: list[list[int]], rows_of_pred: list[list[int]]
    ) -> float:
        """Every solution's label cost: each true node's choice plus each lone pred's."""
        by_true = sum(float(label_costs[cols].max()) for cols in rows_of_true if cols)
        by_pred = sum(float(label_costs[cols].max()) for cols in rows_of_pred if cols)
        return by_true + by_pred

    @staticmethod
    def _label_lower_bound(
        label_costs: np.ndarray, rows_of_true: list[list[int]], rows_of_pred: list[list[int]]
    ) -> float:
        """Each true (or each pred) node takes exactly one choice: sum of their cheapest."""
        by_true = sum(float(label_costs[cols].min()) for cols in rows_of_true if cols)
        by_pred = sum(float(label_costs[cols].min()) for cols in rows_of_pred if cols)
        return max(by_true, by_pred)

    def _variable_label_costs(
        self,
        pair_i: np.ndarray,
        pair_j: np.ndarray,
        true_alone: np.ndarray,
        pred_alone: np.ndarray,
    ) -> np.ndarray:
        import numpy as np

        t_labels = [n.labels or [] for n in self.true_nodes]
        p_labels = [n.labels or [] for n in self.pred_nodes]
        costs = [
            self._label_cost(t_labels[i], p_labels[j]) for i, j in zip(pair_i, pair_j, strict=True)
        ]
        costs += [self._label_cost(t_labels[i], []) for i in true_alone]
        costs += [self._label_cost([], p_labels[j]) for j in pred_alone]
        return np.asarray(costs, dtype=np.float64)

    # -- records -----------------------------------------------------------------------------
    def node_matches(self, assignment: _Assignment, option_idx: int) -> NodeMatches:
        matches: list[NodeMatch] = []
        matched_pred: set[int] = set()
        lists = self.cost_lists
        for i, true_node in enumerate(self.true_nodes):
            j = assignment.pred_of[i]
            if j >= 0:
                matched_pred.add(j)
                cost = lists.paired[i][j] if lists is not None else float(self.costs.paired[i, j])
                matches.append(
                    NodeMatch(
                        true_node=true_node, pred_node=self.pred_nodes[j], node_text_cost=cost
                    )
                )
            else:
                cost = (
                    lists.unmatched_true[i]
                    if lists is not None
                    else float(self.costs.unmatched_true[i])
                )
                matches.append(NodeMatch(true_node=true_node, pred_node=None, node_text_cost=cost))
        for j, pred_node in enumerate(self.pred_nodes):
            if j not in matched_pred:
                cost = (
                    lists.unmatched_pred[j]
                    if lists is not None
                    else float(self.costs.unmatched_pred[j])
                )
                matches.append(NodeMatch(true_node=None, pred_node=pred_node, node_text_cost=cost))
        return NodeMatches(matches=matches, true_diagram_option_idx=option_idx)


def match_nodes_single_option(
    true_diagram: Diagram,
    pred_diagram: Diagram,
    distance_fn: DistanceFnProtocol,
    true_diagram_option_idx: int,
    *,
    label_cost_cache: dict[tuple[tuple[str, ...], tuple[str, ...]], float] | None = None,
) -> NodeMatches:
    """Lexicographically optimal node matching against one ground-truth option."""
    if true_diagram.nodes is None or pred_diagram.nodes is None:
        raise ValueError("Both diagrams must have nodes before matching nodes.")
    matcher = _OptionMatcher(
        true_diagram.nodes,
        pred_diagram.nodes,
        distance_fn,
        use_flow=pred_diagram.flow_done,
        use_labels=pred_diagram.labels_done,
        label_cost_cache={} if label_cost_cache is None else label_cost_cache,
        parent_img_code=pred_diagram.parent_img_code,
        option_idx=true_diagram_option_idx,
    )
    return matcher.node_matches(matcher.solve(), true_diagram_option_idx)


def match_nodes(
    true_diagram_options: DiagramOptions,
    pred_diagram: Diagram,
    distance_fn: DistanceFnProtocol,
    *,
    parts: PredDiagramStructure | None = None,
) -> NodeMatches:
    """Match against every option and choose one.

    Choice, by exact comparisons: lowest node-text cost; then (flow predicted) highest flow
    Jaccard; then (labels predicted) lowest label cost; then (additional texts predicted) lowest
    additional-text cost; then the first option. With labels predicted, the returned matches
    carry their label matches.

    ``parts`` (parsescore's, not Flowde's) says which parts were predicted where the diagram
    cannot: an empty prediction, as a missing or unreadable answer is scored, has no node to
    tell whether flow and labels were predicted (default: the diagram's own).
    """
    flow_done = pred_diagram.flow_done if parts is None else parts.flow
    labels_done = pred_diagram.labels_done if parts is None else parts.labels
    additional_done = (
        pred_diagram.additional_texts_done if parts is None else parts.additional_texts
    )
    cache: dict[tuple[tuple[str, ...], tuple[str, ...]], float] = {}
    option_matches = [
        match_nodes_single_option(option, pred_diagram, distance_fn, i, label_cost_cache=cache)
        for i, option in enumerate(true_diagram_options.options)
    ]
    candidates = list(range(len(option_matches)))

    def keep_best(values: dict[int, float], *, highest: bool) -> list[int]:
        best = max(values.values()) if highest else min(values.values())
        return [i for i in candidates if values[i] == best]

    candidates = keep_best(
        {i: option_matches[i].total_node_text_cost for i in candidates}, highest=False
    )
    if len(candidates) > 1 and flow_done:
        candidates = keep_best(
            {i: option_matches[i].flow_score.jaccard for i in candidates}, highest=True
        )
    if labels_done:
        for i in candidates:
            match_node_labels(option_matches[i], distance_fn)
        if len(candidates) > 1:
            candidates = keep_best(
                {i: option_matches[i].total_label_error_cost for i in candidates}, highest=False
            )
    if len(candidates) > 1 and additional_done:
        candidates = keep_best(
            {
                i: match_additional_texts(
                    true_diagram_options.options[i], pred_diagram, distance_fn
                ).total_cost
                for i in candidates
            },
            highest=False,
        )
    return option_matches[candidates[0]]


def match_single_diagram(
    true_diagram_options: DiagramOptions, pred_diagram: Diagram, distance_fn: DistanceFnProtocol
) -> DiagramMatch:
    """Nodes (with labels), flow and additional texts of one complete prediction."""
    node_matches = match_nodes(true_diagram_options, pred_diagram, distance_fn)
    true_diagram = true_diagram_options.options[node_matches.true_diagram_option_idx]
    if any(m.label_matches is None for m in node_matches.matches):
        match_node_labels(node_matches, distance_fn)
    return DiagramMatch(
        node_matches=node_matches,
        additional_text_matches=match_additional_texts(true_diagram, pred_diagram, distance_fn),
        pred_diagram=pred_diagram,
        true_diagram=true_diagram,
    )
