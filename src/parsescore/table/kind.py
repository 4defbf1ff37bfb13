"""The table kind's description for the registry (:mod:`parsescore.core.kinds`).

Cheap to import: everything heavy is a :func:`~parsescore.core.kinds.lazy` reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parsescore.core.kinds import Kind, Metric, PredictParts, ReportParts, lazy
from parsescore.shared.coverage import READABLE

__all__ = ["KIND"]


def _detect(doc: Mapping[str, Any]) -> bool:
    return "metrics" in doc and "n_tables" in doc


def _grits(variant: str) -> tuple[Metric, ...]:
    name = f"GriTS-{variant}"
    return (
        Metric(name, name, True, headline=True),
        Metric(f"{name} precision", f"{name} precision", True),
        Metric(f"{name} recall", f"{name} recall", True),
    )


_SCORES = (
    Metric("TEDS", "TEDS", True, headline=True),
    Metric("TEDS-S", "TEDS-S", True, headline=True),
    *_grits("Top"),
    *_grits("Con"),
    *_grits("Loc"),
)

KIND = Kind(
    name="table",
    title="Tables",
    item="table",
    items="tables",
    metrics=(*_SCORES, READABLE),
    totals=(*_SCORES, READABLE, Metric("n_tables", "tables", None, "count")),
    totals_note="table scores are means over tables",
    evaluate=lazy("parsescore.table.result:evaluate"),
    read=lazy("parsescore.table.result:read"),
    detect=_detect,
    documents={"table": "parsescore table --out", "grits": "parsescore grits --out"},
    recognised="`parsescore table`/`grits` (keys metrics, n_tables)",
    schema=lazy("parsescore.table.schema:schema_defs"),
    cli=lazy("parsescore.table.cli:register"),
    report=ReportParts(
        prepare=None,
        plots=lazy("parsescore.table.report_html:plots_html"),
        drilldown=lazy("parsescore.table.report_html:drilldown"),
    ),
    summarise=lazy("parsescore.table.cli:summarise"),
    predict=PredictParts(
        suffix=".html",
        prompt=lazy("parsescore.table.predict:prompt"),
        accept=lazy("parsescore.table.predict:accept"),
        pred_for_run=lazy("parsescore.table.predict:named_as_truth"),
    ),
    demo=lazy("parsescore.table.demo:run_demo"),
)
