"""``edge_label_cost``: the texts on arrows ("yes"/"no" of a decision), which Flowde does not score.

Only Mermaid and DOT carry edge labels, so the cost exists for a flowchart whose truth and
prediction were both read from those formats. It is computed over matched edges (a true edge
s→t and a predicted edge whose endpoints are matched to s and t): the distance of the two
labels with the benchmark's distance (Flowde's normalised Levenshtein by default); a label on
one side only costs its own (normalised) length. Missing and extra edges are the flow scores'
business and cost nothing here. Flowde's numbers are untouched.
"""

from __future__ import annotations

from typing import Any

from parsescore.flowchart.models import NodeMatches, numbered_pred_edges
from parsescore.shared.distance import DistanceFnProtocol

__all__ = ["EdgeLabels", "edge_label_cost", "edge_label_records"]

EdgeLabels = dict[tuple[int, int], str]


def edge_label_cost(
    node_matches: NodeMatches,
    true_labels: EdgeLabels,
    pred_labels: EdgeLabels,
    distance_fn: DistanceFnProtocol,
) -> float:
    """Sum of label distances over the matched edges of one flowchart.

    >>> from parsescore.flowchart.models import Node, NodeMatch
    >>> from parsescore.shared.distance import levenshtein_with_text_normalisation as dist
    >>> def node(n, kind, to):
    ...     return Node(node_number=n, text=f"N{n}", labels=[], points_to=to,
    ...                 parent_img_code="x", diagram_type=kind,
    ...                 true_option_idx=0 if kind == "true" else None)
    >>> nm = NodeMatches(true_diagram_option_idx=0, matches=[
    ...     NodeMatch(true_node=node(1, "true", [2]), pred_node=node(7, "pred", [8]),
    ...               node_text_cost=0),
    ...     NodeMatch(true_node=node(2, "true", []), pred_node=node(8, "pred", []),
    ...               node_text_cost=0)])
    >>> edge_label_cost(nm, {(1, 2): "yes"}, {(7, 8): "Yes"}, dist)
    1
    >>> edge_label_cost(nm, {(1, 2): "yes"}, {}, dist)
    3
    """
    cost: float = 0
    for record in edge_label_records(node_matches, true_labels, pred_labels, distance_fn):
        cost += record.get("cost", 0)
    return cost


def edge_label_records(
    node_matches: NodeMatches,
    true_labels: EdgeLabels | None,
    pred_labels: EdgeLabels | None,
    distance_fn: DistanceFnProtocol,
) -> list[dict[str, Any]]:
    """Every labelled edge of one flowchart, for the report's drawings: ``edge`` in ground-truth
    numbering (as the flow scores number edges), ``true_label`` and ``pred_label`` (None where
    that side has none) and, on a matched edge when both sides carry labels, the ``cost`` that
    :func:`edge_label_cost` sums. Truth edges first (matched ones with their predicted label),
    then the extra predicted ones; a side whose format has no labels is None.

    >>> from parsescore.flowchart.models import Node, NodeMatch
    >>> from parsescore.shared.distance import levenshtein_with_text_normalisation as dist
    >>> def node(n, kind, to):
    ...     return Node(node_number=n, text=f"N{n}", labels=[], points_to=to,
    ...                 parent_img_code="x", diagram_type=kind,
    ...                 true_option_idx=0 if kind == "true" else None)
    >>> nm = NodeMatches(true_diagram_option_idx=0, matches=[
    ...     NodeMatch(true_node=node(1, "true", [2]), pred_node=node(7, "pred", [8, 9]),
    ...               node_text_cost=0),
    ...     NodeMatch(true_node=node(2, "true", []), pred_node=node(8, "pred", []),
    ...               node_text_cost=0),
    ...     NodeMatch(true_node=None, pred_node=node(9, "pred", []), node_text_cost=2)])
    >>> edge_label_records(nm, {(1, 2): "yes"}, {(7, 8): "Yes", (7, 9): "no"}, dist)
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'edge': [1, 2], 'true_label': 'yes', 'pred_label': 'Yes', 'cost': 1},
     {'edge': [1, 10000], 'true_label': None, 'pred_label': 'no'}]
    """
    true_edges = [(n.node_number, t) for n in node_matches.true_nodes for t in n.points_to or []]
    matched: dict[tuple[int, int], list[str | None]] = {}
    extra: list[tuple[tuple[int, int], str]] = []
    truth = set(true_edges)
    for own, numbered in numbered_pred_edges(node_matches):
        label = (pred_labels or {}).get(own) or None
        if numbered in truth:
            matched.setdefault(numbered, []).append(label)
        elif label:
            extra.append((numbered, label))
    both = true_labels is not None and pred_labels is not None
    records: list[dict[str, Any]] = []
    for edge in dict.fromkeys(true_edges):
        true_label = (true_labels or {}).get(edge) or None
        for pred_label in matched.get(edge) or [None]:
            if not (true_label or pred_label):
                continue
            record: dict[str, Any] = {
                "edge": list(edge),
                "true_label": true_label,
                "pred_label": pred_label,
            }
            if both and edge in matched:
                record["cost"] = distance_fn(true_text=true_label, pred_text=pred_label)
            records.append(record)
    records += [
        {"edge": list(edge), "true_label": None, "pred_label": label} for edge, label in extra
    ]
    return records
