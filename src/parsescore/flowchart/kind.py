"""The flowchart kind's description for the registry (:mod:`parsescore.core.kinds`).

Cheap to import: everything heavy is a :func:`~parsescore.core.kinds.lazy` reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from parsescore.core.kinds import (
    CommandParts,
    Dataset,
    Format,
    FromCounts,
    Items,
    Kind,
    Mean,
    Metric,
    PredictParts,
    ReportParts,
    Sum,
    lazy,
)
from parsescore.flowchart.attributes import ATTRIBUTES
from parsescore.flowchart.options import FlowchartOptions
from parsescore.shared.coverage import READABLE

__all__ = ["FORMATS", "KIND", "TOTALS"]


def _detect(doc: Mapping[str, Any]) -> bool:
    return doc.get("kind") == "flowchart" or ("diagrams" in doc and "missing_predictions" in doc)


# A diagram's edit costs; their totals are sums over the diagrams, as Flowde's total_*_cost.
_COSTS = (
    Metric("node_text_cost", "node text cost", False, "cost", headline=True, aggregate=Sum()),
    Metric("label_cost", "label cost", False, "cost", headline=True, aggregate=Sum()),
    Metric(
        "additional_text_cost",
        "additional text cost",
        False,
        "cost",
        headline=True,
        aggregate=Sum(),
    ),
    # Mermaid/DOT only: the texts on arrows (not a Flowde number; parsescore.flowchart.edges)
    Metric("edge_label_cost", "edge label cost", False, "cost", aggregate=Sum()),
)

#: The dataset totals (``Result.totals``, and ``totals`` of the ``--out`` document): each
#: declares how it is built from the diagrams' metrics and flow counts (tp/fp/fn per diagram,
#: ``Result.counts``); :func:`parsescore.core.aggregate.totals` computes them.
TOTALS = (
    Metric("diagrams", "diagrams", None, "count", aggregate=Items()),
    *_COSTS,
    Metric("flow_micro_f1", "flow F1 (micro)", True, headline=True, aggregate=FromCounts("f1")),
    Metric(
        "avg_flow_jaccard",
        "flow Jaccard (mean)",
        True,
        headline=True,
        aggregate=Mean(of="flow_jaccard"),
    ),
    Metric(
        "flow_micro_precision", "flow precision (micro)", True, aggregate=FromCounts("precision")
    ),
    Metric("flow_micro_recall", "flow recall (micro)", True, aggregate=FromCounts("recall")),
    Metric("flow_micro_jaccard", "flow Jaccard (micro)", True, aggregate=FromCounts("jaccard")),
    replace(
        READABLE,
        aggregate=Dataset(
            "the share of all truth flowcharts whose answer was present and readable "
            "(with --allow-missing the missing ones are not items)"
        ),
    ),
)

#: The formats a flowchart is read from (the reader registry), in ``auto``'s order: by
#: extension in a folder, by content for texts given in memory. The readers are in
#: :mod:`parsescore.flowchart.formats`; ``--pred-format`` / ``--truth-format`` take these names
#: and ``auto`` (:data:`parsescore.flowchart.options.FormatName`).
FORMATS = (
    Format(
        "json",
        "Flowde's JSON (a truth: nodes/ labels/ flow/ additional_texts/ folders)",
        (".json",),
        read=lazy("parsescore.flowchart.formats:read_json"),
        detect=lazy("parsescore.flowchart.formats:is_json"),
    ),
    Format(
        "mermaid",
        "Mermaid flowchart / graph",
        (".mmd", ".mermaid"),
        read=lazy("parsescore.flowchart.formats:read_mermaid"),
        detect=lazy("parsescore.flowchart.formats:is_mermaid"),
    ),
    Format(
        "dot",
        "Graphviz DOT",
        (".dot", ".gv"),
        read=lazy("parsescore.flowchart.formats:read_dot"),
        detect=lazy("parsescore.flowchart.formats:is_dot"),
    ),
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
    totals=TOTALS,
    totals_note="flowchart costs are sums over diagrams, flow F1 is micro-averaged",
    evaluate=lazy("parsescore.flowchart.result:evaluate"),
    read=lazy("parsescore.flowchart.result:read"),
    detect=_detect,
    documents={"flowchart": "parsescore flowchart --out"},
    recognised="`parsescore flowchart` (keys kind, diagrams)",
    schema=lazy("parsescore.flowchart.schema:schema_defs"),
    options=FlowchartOptions,
    formats=FORMATS,
    attributes=ATTRIBUTES,
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
