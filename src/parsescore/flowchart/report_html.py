"""The flowchart part of the HTML report: errors by diagram size, and per diagram its node
pairs, label pairs, additional texts and missing/extra edges (from ``Result.details``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parsescore.flowchart.kind import KIND
from parsescore.flowchart.models import FIRST_UNMATCHED_ENDPOINT_ID
from parsescore.report import plots
from parsescore.report.draw import MAX_DRAWN, DrawEdge, DrawNode, canvas, layered_layout, svg_graph
from parsescore.report.html import (
    Salt,
    System,
    dicts,
    e,
    figure,
    fmt,
    html_table,
    item_details,
    num,
    text_pair,
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
    svgs = [
        plots.size_scatter_svg([panel], points, xlabel="ground-truth nodes", salt=salt())
        for panel in panels
    ]
    return figure(svgs, "Errors by diagram size.", "plot-size")


_MATCHED = DrawNode(0, "", fill="#e8f0fe", stroke="#4a6fa5")
_EDITED_STROKE = "#d97706"
_RED = "#c62828"


def _edge_list(flow: Mapping[str, Any], key: str) -> list[tuple[int, int]]:
    """The ``[source, target]`` integer pairs under ``key`` (anything else is left out)."""
    value = flow.get(key)
    return [
        (edge[0], edge[1])
        for edge in (value if isinstance(value, list) else [])
        if isinstance(edge, list | tuple)
        and len(edge) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in edge)
    ]


def _edge_labels(detail: Mapping[str, Any]) -> list[tuple[tuple[int, int], Mapping[str, Any]]]:
    """The detail's ``edge_labels`` records with a well-formed edge, keyed by that edge."""
    found = []
    for record in dicts(detail.get("edge_labels")):
        edge = _edge_list({"edge": [record.get("edge")]}, "edge")
        if edge:
            found.append((edge[0], record))
    return found


def _label(record: Mapping[str, Any] | None, side: str) -> str:
    value = None if record is None else record.get(side)
    return value if isinstance(value, str) else ""


def _edited(record: Mapping[str, Any] | None) -> bool:
    """A label edited: a matched edge whose label pair costs something."""
    return record is not None and num(record.get("cost")) > 0


def _edge_title(record: Mapping[str, Any]) -> str:
    truth, pred = _label(record, "true_label"), _label(record, "pred_label")
    return f"edge label edited: truth “{truth or '(none)'}”, prediction “{pred or '(none)'}”"


def drawings(detail: Mapping[str, Any]) -> str:
    """The truth and the prediction drawn with one layered layout: matched nodes in the same
    place and colour (✎ and an orange border where the texts differ), missing edges dashed
    red on the truth, extra edges and unmatched predicted nodes red on the prediction; edges
    carry their labels (Mermaid/DOT), an edited one in orange with ✎ as edited node texts."""
    matches = [  # node numbers are integers (anything else is left out of the drawing)
        m
        for m in dicts(detail.get("node_matches"))
        if all(
            m.get(k) is None or (isinstance(m.get(k), int) and not isinstance(m.get(k), bool))
            for k in ("true_node", "pred_node")
        )
    ]
    found = detail.get("flow")
    flow: Mapping[str, Any] = found if isinstance(found, dict) else {}
    matched_edges = _edge_list(detail, "matched_edges")
    missing, extra = _edge_list(flow, "missing_edges"), _edge_list(flow, "extra_edges")
    truth_ids: list[Any] = [m["true_node"] for m in matches if m.get("true_node") is not None]
    lone_pred = [("pred", m.get("pred_node")) for m in matches if m.get("true_node") is None]
    fresh = sorted({x for edge in extra for x in edge if x >= FIRST_UNMATCHED_ENDPOINT_ID})
    if len(truth_ids) + len(lone_pred) + len(fresh) > MAX_DRAWN:
        return (
            f'<p class="note item-drawing">Not drawn: more than {MAX_DRAWN} nodes; the node '
            "pairs and edges are listed below.</p>"
        )
    layout = layered_layout([*truth_ids, *lone_pred, *fresh], [*matched_edges, *missing, *extra])
    size = canvas(layout)
    truth_nodes, pred_nodes = [], []
    for m in matches:
        edited = num(m.get("node_text_cost")) > 0
        stroke = _EDITED_STROKE if edited else _MATCHED.stroke
        if m.get("true_node") is not None:
            matched = m.get("match_type") == "match"
            truth_nodes.append(
                DrawNode(
                    m["true_node"],
                    str(m.get("true_text") or ""),
                    fill=_MATCHED.fill if matched else "#fde2e2",
                    stroke=stroke if matched else _RED,
                    dashed=not matched,
                    mark=matched and edited,
                    title=f"truth node {m['true_node']}" + ("" if matched else " (missing)"),
                )
            )
            if matched:
                pred_nodes.append(
                    DrawNode(
                        m["true_node"],
                        str(m.get("pred_text") or ""),
                        stroke=stroke,
                        mark=edited,
                        title=f"predicted node {m.get('pred_node')}",
                    )
                )
        else:
            pred_nodes.append(
                DrawNode(
                    ("pred", m.get("pred_node")),
                    str(m.get("pred_text") or ""),
                    fill="#fde2e2",
                    stroke=_RED,
                    title=f"predicted node {m.get('pred_node')} (extra)",
                )
            )
    pred_nodes += [
        DrawNode(x, "(unmatched endpoint)", fill="#fde2e2", stroke=_RED, title=str(x))
        for x in fresh
    ]
    labelled: dict[tuple[int, int], Mapping[str, Any]] = {}
    for edge, record in _edge_labels(detail):
        labelled.setdefault(edge, record)

    def shared(side: str) -> list[DrawEdge]:
        edges = []
        for a, b in matched_edges:
            record = labelled.get((a, b))
            edited = _edited(record)
            edges.append(
                DrawEdge(
                    a,
                    b,
                    label=_label(record, side),
                    mark=edited,
                    title=_edge_title(record) if record is not None and edited else "",
                )
            )
        return edges

    def flagged(word: str, record: Mapping[str, Any] | None, side: str) -> str:
        text = _label(record, side)
        return f"{word}: {text}" if text else word

    truth_svg = svg_graph(
        truth_nodes,
        shared("true_label")
        + [
            DrawEdge(
                a,
                b,
                _RED,
                dashed=True,
                label=flagged("missing", labelled.get((a, b)), "true_label"),
            )
            for a, b in missing
        ],
        layout,
        label="ground truth",
        size=size,
    )
    pred_svg = svg_graph(
        pred_nodes,
        shared("pred_label")
        + [
            DrawEdge(a, b, _RED, label=flagged("extra", labelled.get((a, b)), "pred_label"))
            for a, b in extra
        ],
        layout,
        label="prediction",
        size=size,
    )
    note = (
        ""
        if "matched_edges" in detail
        else '<p class="note">This file lists only the missing and extra edges (the '
        "edges both sides share are in the result envelope, <code>--result</code>).</p>"
    )
    return (
        f'<div class="pair item-drawing" data-drawing="flowchart">'
        f"<div><h5>Ground truth</h5>{truth_svg}</div>"
        f"<div><h5>Prediction</h5>{pred_svg}</div></div>{note}"
        '<p class="legend note"><span>dashed red arrow: missing edge</span><span>red arrow: '
        "extra edge</span><span>red box: unmatched node</span><span>✎ orange border: "
        "text edited</span><span>orange ✎ on an arrow: edge label edited</span></p>"
    )


def _diagram(detail: Mapping[str, Any]) -> str:
    out = [drawings(detail)]
    matches = dicts(detail.get("node_matches"))
    true_text = {
        m["true_node"]: m.get("true_text") for m in matches if isinstance(m.get("true_node"), int)
    }
    rows, classes = [], []
    label_rows, label_classes = [], []
    for m in matches:
        unmatched = m.get("match_type") != "match"
        truth_html, pred_html = text_pair(m.get("true_text"), m.get("pred_text"))
        rows.append(
            [
                e(m.get("match_type")),
                e(fmt(m.get("true_node"))) if m.get("true_node") is not None else "–",
                truth_html,
                e(fmt(m.get("pred_node"))) if m.get("pred_node") is not None else "–",
                pred_html,
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
                    *text_pair(lm.get("true_text"), lm.get("pred_text")),
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
        out.append("<h4>Node labels</h4>")
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
    edge_labels = _edge_labels(detail)
    if edge_labels:
        out.append("<h4>Edge labels</h4>")
        out.append(
            html_table(
                [
                    ("edge", False),
                    ("truth label", False),
                    ("predicted label", False),
                    ("cost", True),
                ],
                [
                    [
                        e(f"{a} → {b}"),
                        *text_pair(record.get("true_label"), record.get("pred_label")),
                        fmt(num(record.get("cost")), 1) if "cost" in record else "–",
                    ]
                    for (a, b), record in edge_labels
                ],
                ["diff" if _edited(record) else "" for _, record in edge_labels],
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
                        *text_pair(a.get("true_text"), a.get("pred_text")),
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
            edges = _edge_list(flow, key)
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
    missing = system.result.dataset.get("missing") or []
    if missing:
        out.append(f'<p class="note">Missing predictions: {e(", ".join(map(str, missing)))}</p>')
    for item in items:
        out.append(
            item_details(
                system,
                item,
                _edge_label_cost(system.result.items.get(item, {}))
                + _diagram(system.result.details.get(item, {})),
            )
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
