"""The sequence-diagram kind's description for the registry (:mod:`parsescore.core.kinds`): its
metrics and how each dataset number is built from the counts every file carries, its options,
its readers, its command.

Cheap to import: everything heavy is a :func:`~parsescore.core.kinds.lazy` reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from parsescore.core.kinds import (
    CommandParts,
    Dataset,
    Kind,
    Metric,
    PredictParts,
    Ratio,
    ReportParts,
    lazy,
)
from parsescore.sequence.attributes import ATTRIBUTES
from parsescore.sequence.model import CATEGORIES
from parsescore.sequence.options import SequenceOptions
from parsescore.sequence.read import FORMATS
from parsescore.shared.coverage import READABLE

__all__ = ["KIND"]

#: The changes counted in every category.
CHANGES = ("insertion", "deletion", "substitution")
#: A category's counts, as the native document and the detail keep them.
CATEGORY_COUNTS = ("gt_count", *CHANGES)
#: The categories of the paper's Figure 6/7, in its order.
PLOT_CATEGORIES = ("node", "message", "direction")


def is_block(value: Any) -> bool:
    """Whether ``value`` is one model's ``{"totals", "files"}`` block."""
    return isinstance(value, dict) and "totals" in value and "files" in value


def _detect(doc: Mapping[str, Any]) -> bool:
    """One model's ``{"totals", "files"}`` block, or a block per model."""
    return is_block(doc) or (bool(doc) and all(is_block(v) for v in doc.values()))


def file_counts(categories: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The counts a file carries (``Result.counts``) from its counts per category
    (``gt_count``, ``insertion``, ``deletion``, ``substitution``): ``errors`` and ``elements``
    (all categories' I + D + S and ground truth), each category's four counts
    (``node_gt_count``, ``node_insertion``, ...) and the Figure 6/7 categories' errors
    (``node_errors``, ...): what every dataset number is a ratio of."""
    errors: Any = 0
    elements: Any = 0
    flat: dict[str, Any] = {}
    for category, counts in categories.items():
        elements += counts["gt_count"]
        category_errors = counts["insertion"] + counts["deletion"] + counts["substitution"]
        errors += category_errors
        for count in CATEGORY_COUNTS:
            flat[f"{category}_{count}"] = counts[count]
        if category in PLOT_CATEGORIES:
            flat[f"{category}_errors"] = category_errors
    return {"errors": errors, "elements": elements} | flat


_RATES = tuple(
    Metric(f"{category}_{change}_rate", f"{category} {change} %", False, "percent")
    for category in CATEGORIES
    for change in CHANGES
)
#: (I + D + S) / ground truth × 100: of all categories, and of the paper's Figure 6/7 ones
#: (the report adds those to the items and totals, from the counts).
_ERRORS = (
    Metric("error_rate", "error % (all)", False, "percent", headline=True),
    *(
        Metric(f"{category}_error_rate", f"{category} error %", False, "percent", headline=True)
        for category in PLOT_CATEGORIES
    ),
)

#: The dataset's rates are pooled: counts summed over the files, then divided (× 100), named so
#: apart from the per-file metrics.
POOLED_RATES = tuple(
    replace(
        metric,
        label=f"{metric.label} (pooled)",
        aggregate=Ratio(f"{category}_{change}", f"{category}_gt_count", scale=100),
    )
    for metric, (category, change) in zip(
        _RATES, [(c, ch) for c in CATEGORIES for ch in CHANGES], strict=True
    )
)
POOLED_ERRORS = (
    replace(_ERRORS[0], label="error % (all) (pooled)", aggregate=Ratio("errors", "elements", 100)),
    *(
        replace(
            metric,
            label=f"{metric.label} (pooled)",
            aggregate=Ratio(f"{category}_errors", f"{category}_gt_count", scale=100),
        )
        for metric, category in zip(_ERRORS[1:], PLOT_CATEGORIES, strict=True)
    ),
)
#: Of all truth files, those ``allow_missing`` leaves out included: not a number of the items.
READABLE_TOTAL = replace(
    READABLE,
    aggregate=Dataset(
        "the share of all truth files whose prediction was present and readable; with "
        "allow_missing the files left out count too, and they are not items"
    ),
)
#: ``Result.totals``, in the order sequence results have always written them (the report adds
#: the Figure 6/7 error rates, ``POOLED_ERRORS[1:]``).
RESULT_TOTALS = (*POOLED_RATES, POOLED_ERRORS[0], READABLE_TOTAL)

KIND = Kind(
    name="sequence",
    title="Sequence diagrams",
    item="file",
    items="files",
    metrics=(*_ERRORS, *_RATES, READABLE),
    totals=(*POOLED_ERRORS, *POOLED_RATES, READABLE_TOTAL),
    totals_note="sequence error % is all errors over all ground-truth elements",
    evaluate=lazy("parsescore.sequence.result:evaluate"),
    read=lazy("parsescore.sequence.result:read"),
    detect=_detect,
    documents={"sequence": "parsescore sequence --out (one model, or one block per model)"},
    recognised="`sequence` (totals, files, or one such block per model)",
    schema=lazy("parsescore.sequence.schema:schema_defs"),
    report=ReportParts(
        prepare=lazy("parsescore.sequence.report_html:prepare"),
        plots=lazy("parsescore.sequence.report_html:plots_html"),
        drilldown=lazy("parsescore.sequence.report_html:drilldown"),
    ),
    summarise=lazy("parsescore.sequence.cli:summarise"),
    options=SequenceOptions,
    command=CommandParts(
        help="Score PlantUML or Mermaid sequence diagrams with the image-to-UML paper's metrics.",
        truth="Ground-truth .puml/.mmd file or directory.",
        pred="Prediction file or directory (repeat for models).",
        pred_many=True,
        required=False,
        run=lazy("parsescore.sequence.cli:run"),
    ),
    formats=FORMATS,
    attributes=ATTRIBUTES,
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
