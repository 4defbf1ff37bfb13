"""The sequence-diagram kind's description for the registry (:mod:`parsescore.core.kinds`).

Cheap to import: everything heavy is a :func:`~parsescore.core.kinds.lazy` reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from parsescore.core.kinds import Kind, Metric, PredictParts, ReportParts, lazy
from parsescore.sequence.model import CATEGORIES
from parsescore.shared.coverage import READABLE

__all__ = ["KIND", "is_block"]


def is_block(value: Any) -> bool:
    """Whether ``value`` is one model's ``{"totals", "files"}`` block."""
    return isinstance(value, dict) and "totals" in value and "files" in value


def _detect(doc: Mapping[str, Any]) -> bool:
    """One model's ``{"totals", "files"}`` block, or a block per model."""
    return is_block(doc) or (bool(doc) and all(is_block(v) for v in doc.values()))


_RATES = tuple(
    Metric(f"{category}_{change}_rate", f"{category} {change} %", False, "percent")
    for category in CATEGORIES
    for change in ("insertion", "deletion", "substitution")
)
#: (I + D + S) / ground truth × 100: of all categories, and of the paper's Figure 6/7 ones
#: (the report derives those from the counts).
_ERRORS = (
    Metric("error_rate", "error % (all)", False, "percent", headline=True),
    Metric("node_error_rate", "node error %", False, "percent", headline=True),
    Metric("message_error_rate", "message error %", False, "percent", headline=True),
    Metric("direction_error_rate", "direction error %", False, "percent", headline=True),
)

#: The dataset's numbers are pooled (summed counts over summed ground truth), not means of the
#: files' rates: named so, apart from the per-file metrics.
_POOLED = tuple(replace(m, label=f"{m.label} (pooled)") for m in (*_ERRORS, *_RATES))

KIND = Kind(
    name="sequence",
    title="Sequence diagrams",
    item="file",
    items="files",
    metrics=(*_ERRORS, *_RATES, READABLE),
    totals=(*_POOLED, READABLE),
    totals_note="sequence error % is all errors over all ground-truth elements",
    evaluate=lazy("parsescore.sequence.result:evaluate"),
    read=lazy("parsescore.sequence.result:read"),
    detect=_detect,
    documents={"sequence": "parsescore sequence --out (one model, or one block per model)"},
    recognised="`sequence` (totals, files, or one such block per model)",
    schema=lazy("parsescore.sequence.schema:schema_defs"),
    cli=lazy("parsescore.sequence.cli:register"),
    report=ReportParts(
        prepare=lazy("parsescore.sequence.report_html:prepare"),
        plots=lazy("parsescore.sequence.report_html:plots_html"),
        drilldown=lazy("parsescore.sequence.report_html:drilldown"),
    ),
    summarise=lazy("parsescore.sequence.cli:summarise"),
    predict=PredictParts(
        suffix=".puml",
        prompt=lazy("parsescore.sequence.predict:prompt"),
        accept=lazy("parsescore.sequence.predict:accept"),
        default_format="plantuml",
        formats={
            "mermaid": PredictParts(
                suffix=".mmd",
                prompt=lazy("parsescore.sequence.predict:prompt_mermaid"),
                accept=lazy("parsescore.sequence.predict:accept_mermaid"),
            )
        },
    ),
    demo=lazy("parsescore.sequence.demo:run_demo"),
)
