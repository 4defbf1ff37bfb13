"""The flowchart part of the HTML report: errors by diagram size, and per diagram its node
pairs, label pairs, additional texts and missing/extra edges (from ``Result.details``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parsescore.flowchart.kind import KIND
from parsescore.flowchart.models import FIRST_UNMATCHED_ENDPOINT_ID
from parsescore.report import plots
from parsescore.report.html import (
    Salt,
    System,
    dicts,
    e,
    figure,
    fmt,
    html_table,
    item_summary,
    num,
    text_cell,
)

__all__ = ["drilldown", "plots_html"]


def _sizes(system: System) -> dict[str, int]:
    """Ground-truth nodes per diagram (the matched and unmatched truth nodes)."""
    return {
        stem: sum(1 for m in dicts(detail.get("node_matches")) if m.get("true_node") is not None)
        for stem, detail in system.result.details.items()
    }


def plots_html(members: Sequence[System], salt: Salt) -> str:
    """Edge error and node-text cost per ground-truth node, by diagram size."""
    points: dict[str, dict[str, list[tuple[float, float]]]] = {"flow": {}, "text": {}}
    for s in members:
        sizes = _sizes(s)
        for item, v in s.result.items.items():
            size = sizes.get(item)
            if not size:
                continue
            if "flow_f1" in v:
                points["flow"].setdefault(s.name, []).append((size, 1 - v["flow_f1"]))
            if "node_text_cost" in v:
                points["text"].setdefault(s.name, []).append((size, v["node_text_cost"] / size))
    panels = [
        (key, title)
        for key, title in (
            ("flow", "edge error (1 − flow F1)"),
            ("text", "node-text cost per ground-truth node"),
        )
        if points[key]
    ]
    if not panels:
        return ""
    svg = plots.size_scatter_svg(panels, points, xlabel="ground-truth nodes", salt=salt())
    return figure(svg, "Errors by diagram size.", "plot-size")


def _diagram(detail: Mapping[str, Any]) -> str:
    out = []
    matches = dicts(detail.get("node_matches"))
    true_text = {
        m.get("true_node"): m.get("true_text") for m in matches if m.get("true_node") is not None
    }
    rows, classes = [], []
    label_rows, label_classes = [], []
    for m in matches:
        unmatched = m.get("match_type") != "match"
        rows.append(
            [
                e(m.get("match_type")),
                e(fmt(m.get("true_node"))) if m.get("true_node") is not None else "–",
                text_cell(m.get("true_text")),
                e(fmt(m.get("pred_node"))) if m.get("pred_node") is not None else "–",
                text_cell(m.get("pred_text")),
                fmt(num(m.get("node_text_cost")), 1),
                fmt(num(m.get("label_cost")), 1) if "label_cost" in m else "–",
            ]
        )
        cost = num(m.get("node_text_cost")) + num(m.get("label_cost"))
        classes.append("unmatched" if unmatched else ("diff" if cost else ""))
        for lm in dicts(m.get("label_matches")):
            label_rows.append(
                [
                    e(m.get("true_node")) if m.get("true_node") is not None else "–",
                    e(lm.get("match_type")),
                    text_cell(lm.get("true_text")),
                    text_cell(lm.get("pred_text")),
                    fmt(lm.get("cost"), 1),
                ]
            )
            label_classes.append(
                "unmatched"
                if lm.get("match_type") != "match"
                else ("diff" if lm.get("cost") else "")
            )
    out.append("<h4>Node pairs</h4>")
    out.append(
        html_table(
            [
                ("match", False),
                ("truth node", True),
                ("truth text", False),
                ("pred node", True),
                ("predicted text", False),
                ("text cost", True),
                ("label cost", True),
            ],
            rows,
            classes,
        )
    )
    if label_rows:
        out.append("<h4>Edge labels</h4>")
        out.append(
            html_table(
                [
                    ("truth node", True),
                    ("match", False),
                    ("truth label", False),
                    ("predicted label", False),
                    ("cost", True),
                ],
                label_rows,
                label_classes,
            )
        )
    additional = dicts(detail.get("additional_text_matches"))
    if additional:
        out.append("<h4>Additional texts</h4>")
        out.append(
            html_table(
                [("match", False), ("truth", False), ("prediction", False), ("cost", True)],
                [
                    [
                        e(a.get("match_type")),
                        text_cell(a.get("true_text")),
                        text_cell(a.get("pred_text")),
                        fmt(a.get("cost"), 1),
                    ]
                    for a in additional
                ],
                ["unmatched" if a.get("match_type") != "match" else "" for a in additional],
            )
        )
    flow = detail.get("flow")
    if isinstance(flow, dict):

        def node(number: Any) -> str:
            if isinstance(number, int) and number >= FIRST_UNMATCHED_ENDPOINT_ID:
                return f"{number} (unmatched predicted node)"
            text = true_text.get(number)
            short = "" if text is None else f" ({' '.join(str(text).split())[:60]})"
            return f"{number}{short}"

        for key, title in (
            ("missing_edges", "Missing edges (in the truth, not in the prediction)"),
            ("extra_edges", "Extra edges (in the prediction, not in the truth)"),
        ):
            edges = [
                edge
                for edge in (flow.get(key) or [])
                if isinstance(edge, list | tuple) and len(edge) == 2
            ]
            out.append(f"<h4>{title}: {len(edges)}</h4>")
            if edges:
                out.append(
                    "<ul>"
                    + "".join(f"<li>{e(node(a))} → {e(node(b))}</li>" for a, b in edges)
                    + "</ul>"
                )
        out.append(
            '<p class="note">Edges use ground-truth node numbers; a predicted endpoint without '
            f"a matched node gets a fresh id from {FIRST_UNMATCHED_ENDPOINT_ID}.</p>"
        )
    return "".join(out)


def drilldown(system: System, items: Sequence[str]) -> str:
    """Every listed diagram's pairs and edges, after the list of diagrams not predicted."""
    out = []
    missing = system.result.dataset.get("missing_predictions") or []
    if missing:
        out.append(f'<p class="note">Missing predictions: {e(", ".join(map(str, missing)))}</p>')
    for item in items:
        out.append(
            f'<details class="item"><summary>{item_summary(system, item)}</summary>'
            f"{_edge_label_cost(system.result.items.get(item, {}))}"
            f"{_diagram(system.result.details.get(item, {}))}</details>"
        )
    return "".join(out)


def _edge_label_cost(values: Mapping[str, float]) -> str:
    """The diagram's ``edge_label_cost``, where truth and prediction carry edge labels."""
    if "edge_label_cost" not in values:
        return ""
    metric = KIND.metric("edge_label_cost")
    return (
        f'<p class="note">{e(metric.label)}: {e(metric.show(values["edge_label_cost"]))} '
        "(labels on matched edges, Mermaid/DOT only; not a Flowde number)</p>"
    )
