"""The table kind's description for the registry (:mod:`parsescore.core.kinds`): its metrics
(:mod:`parsescore.table.metrics`), options (:class:`~parsescore.table.options.TableOptions`),
command and reader registry (:data:`~parsescore.shared.tables.registry.FORMATS`).

Cheap to import: everything heavy is a :func:`~parsescore.core.kinds.lazy` reference.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal

from parsescore.core.kinds import CommandParts, Format, Kind, PredictParts, ReportParts, lazy
from parsescore.shared.tables.registry import FORMATS
from parsescore.table.attributes import ATTRIBUTES
from parsescore.table.metrics import METRICS, TOTALS
from parsescore.table.options import TableOptions

__all__ = ["KIND", "registered", "with_format"]


def _detect(doc: Mapping[str, Any]) -> bool:
    return "metrics" in doc and "n_tables" in doc


KIND = Kind(
    name="table",
    title="Tables",
    item="table",
    items="tables",
    metrics=METRICS,
    totals=TOTALS,
    totals_note="table scores are means over tables",
    evaluate=lazy("parsescore.table.result:evaluate"),
    read=lazy("parsescore.table.result:read"),
    detect=_detect,
    documents={"table": "parsescore table --out", "grits": "parsescore grits --out"},
    recognised="`parsescore table`/`grits` (keys metrics, n_tables)",
    schema=lazy("parsescore.table.schema:schema_defs"),
    options=TableOptions,
    command=CommandParts(
        help="Score a collection of predicted tables (HTML, or --pred-format): TEDS, TEDS-S "
        "and GriTS per table.",
        truth="Truth tables (JSON, JSONL, folder).",
        pred="Predicted tables (JSON, JSONL, folder).",
        run=lazy("parsescore.table.cli:run_table"),
    ),
    formats=FORMATS,
    attributes=ATTRIBUTES,
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
    pair_options={"cell_details": False},  # a pair's metrics never show its differing cells
)


def with_format(*added: Format) -> Kind:
    """The table kind with more formats: its registry with ``added`` after the built-in ones
    and its options model taking their names as ``truth_format`` / ``pred_format`` — what one
    more entry of :data:`~parsescore.shared.tables.registry.FORMATS` and its name in
    ``TableFormat`` give. Register it in place of the built-in kind with
    :func:`parsescore.core.kinds.replaced` (docs/table.md, "Add a format")."""
    formats = (*KIND.formats, *added)
    choices: Any = Literal[(*(entry.name for entry in formats), "auto")]
    fields = [
        (field.name, choices, dataclasses.field(default=field.default, metadata=field.metadata))
        for field in dataclasses.fields(TableOptions)
        if field.name in ("truth_format", "pred_format")
    ]
    model = dataclasses.make_dataclass("TableOptions", fields, bases=(TableOptions,), frozen=True)
    model.__doc__ = TableOptions.__doc__
    return dataclasses.replace(KIND, formats=formats, options=model)


def registered() -> tuple[Format, ...]:
    """The formats of the table kind registered now (the built-in ones, or those of a kind
    :func:`with_format` made and :func:`~parsescore.core.kinds.replaced` registered): what the
    kind's readers look formats up in."""
    from parsescore.core.kinds import get_kind

    return get_kind(KIND.name).formats
