"""``edge_label_cost``: the texts on arrows ("yes"/"no" of a decision), which Flowde does not score.

Only Mermaid and DOT carry edge labels, so the cost exists for a flowchart whose truth and
prediction were both read from those formats. It is computed over matched edges (a true edge
s→t and a predicted edge whose endpoints are matched to s and t): the distance of the two
labels with the benchmark's distance (Flowde's normalised Levenshtein by default); a label on
one side only costs its own (normalised) length. Missing and extra edges are the flow scores'
business and cost nothing here. Flowde's numbers are untouched.
"""

from __future__ import annotations

from parsescore.flowchart.models import NodeMatches
from parsescore.shared.distance import DistanceFnProtocol

__all__ = ["EdgeLabels", "edge_label_cost"]

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
    true_number = {
        m.pred_node.node_number: m.true_node.node_number
        for m in node_matches.matches
        if m.pred_node is not None and m.true_node is not None
    }
    true_edges = {(n.node_number, t) for n in node_matches.true_nodes for t in n.points_to or []}
    cost: float = 0
    for node in node_matches.pred_nodes:
        for target in node.points_to or []:
            source, end = true_number.get(node.node_number), true_number.get(target)
            if source is None or end is None or (source, end) not in true_edges:
                continue
            true_label = true_labels.get((source, end))
            pred_label = pred_labels.get((node.node_number, target))
            if true_label or pred_label:
                cost += distance_fn(true_text=true_label or None, pred_text=pred_label or None)
    return cost
