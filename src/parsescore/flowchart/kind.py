"""The flowchart kind's description for the registry (:mod:`parsescore.core.kinds`).

Cheap to import: everything heavy is a :func:`~parsescore.core.kinds.lazy` reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parsescore.core.kinds import CommandParts, Kind, Metric, PredictParts, ReportParts, lazy
from parsescore.flowchart.options import FlowchartOptions
from parsescore.shared.coverage import READABLE

__all__ = ["KIND"]


def _detect(doc: Mapping[str, Any]) -> bool:
    return doc.get("kind") == "flowchart" or ("diagrams" in doc and "missing_predictions" in doc)


_COSTS = (
    Metric("node_text_cost", "node text cost", False, "cost", headline=True),
    Metric("label_cost", "label cost", False, "cost", headline=True),
    Metric("additional_text_cost", "additional text cost", False, "cost", headline=True),
    # Mermaid/DOT only: the texts on arrows (not a Flowde number; parsescore.flowchart.edges)
    Metric("edge_label_cost", "edge label cost", False, "cost"),
)

KIND = Kind(
    name="flowchart",
    title="Flowcharts",
    item="diagram",
    items="diagrams",
    metrics=(
        *_COSTS,
        Metric("flow_precision", "flow precision", True),
        Metric("flow_recall", "flow recall", True),
        Metric("flow_f1", "flow F1", True, headline=True),
        Metric("flow_jaccard", "flow Jaccard", True),
        READABLE,
    ),
    totals=(
        Metric("diagrams", "diagrams", None, "count"),
        *_COSTS,
        Metric("flow_micro_f1", "flow F1 (micro)", True, headline=True),
        Metric("avg_flow_jaccard", "flow Jaccard (mean)", True, headline=True),
        Metric("flow_micro_precision", "flow precision (micro)", True),
        Metric("flow_micro_recall", "flow recall (micro)", True),
        Metric("flow_micro_jaccard", "flow Jaccard (micro)", True),
        READABLE,
    ),
    totals_note="flowchart costs are sums over diagrams, flow F1 is micro-averaged",
    evaluate=lazy("parsescore.flowchart.result:evaluate"),
    read=lazy("parsescore.flowchart.result:read"),
    detect=_detect,
    documents={"flowchart": "parsescore flowchart --out"},
    recognised="`parsescore flowchart` (keys kind, diagrams)",
    schema=lazy("parsescore.flowchart.schema:schema_defs"),
    options=FlowchartOptions,
    command=CommandParts(
        help="Flowchart parsing benchmark (Flowde-compatible): text, labels, flow, extra text.",
        truth="Ground-truth folder with nodes/ labels/ flow/ additional_texts/, or of one "
        ".mmd/.mermaid/.dot/.gv file per flowchart.",
        pred="Prediction folder (.json, .mmd, .mermaid, .dot, .gv files, chat answers too); "
        "repeat for separately parsed parts.",
        pred_many=True,
    ),
    report=ReportParts(
        prepare=None,
        plots=lazy("parsescore.flowchart.report_html:plots_html"),
        drilldown=lazy("parsescore.flowchart.report_html:drilldown"),
    ),
    summarise=lazy("parsescore.flowchart.summary:summarise"),
    predict=PredictParts(
        suffix=".json",
        prompt=lazy("parsescore.flowchart.predict:prompt"),
        accept=lazy("parsescore.flowchart.predict:accept"),
        response_format=lazy("parsescore.flowchart.predict:response_format"),
        run_options={"allow_missing": True},  # failed images are missing predictions
        default_format="json",
        formats={
            "mermaid": PredictParts(
                suffix=".mmd",
                prompt=lazy("parsescore.flowchart.predict:prompt_mermaid"),
                accept=lazy("parsescore.flowchart.predict:accept_mermaid"),
                run_options={"allow_missing": True},
            ),
            "dot": PredictParts(
                suffix=".dot",
                prompt=lazy("parsescore.flowchart.predict:prompt_dot"),
                accept=lazy("parsescore.flowchart.predict:accept_dot"),
                run_options={"allow_missing": True},
            ),
        },
    ),
    demo=lazy("parsescore.flowchart.demo:run_demo"),
)
