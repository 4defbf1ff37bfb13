"""The document kind's description: cheap to import (heavy parts are ``lazy`` references)."""

from __future__ import annotations

from parsescore.core.kinds import (
    CommandParts,
    Dataset,
    Items,
    Kind,
    Metric,
    Ratio,
    ReportParts,
    lazy,
)
from parsescore.document.options import DocumentOptions

__all__ = ["KIND", "METRICS", "OMNIDOCBENCH_TOTALS", "TOTALS"]

_REF = "OmniDocBench v1.5's own number (pandas' summation order kept)"

#: Per page: OmniDocBench's per-page values (``<name>_<element>_per_page_edit.json``) and the
#: mean TEDS of the page's tables.
METRICS = (
    Metric("text_edit", "text edit", False, headline=True),
    Metric("formula_edit", "formula edit", False),
    Metric("table_teds", "table TEDS", True, headline=True),
    Metric("table_teds_s", "table TEDS-S", True),
    Metric("table_edit", "table edit", False),
    Metric("reading_order_edit", "reading order edit", False),
    Metric("olmocr_page", "olmOCR-bench tests passed", True),
)
_OLMOCR = "olmOCR-bench's own number (its harness's arithmetic)"
_OLMOCR_TYPES = ("baseline", "present", "absent", "order", "table", "math", "format", "footnote")
TOTALS = (
    Metric("text_edit", "text edit (page avg)", False, headline=True, aggregate=Dataset(_REF)),
    Metric("text_edit_whole", "text edit (whole)", False, aggregate=Dataset(_REF)),
    Metric("text_edit_sample_avg", "text edit (sample avg)", False, aggregate=Dataset(_REF)),
    Metric(
        "text_edit_pooled",
        "text edit (pooled from pages)",
        False,
        aggregate=Ratio("text_edits", "text_chars"),
    ),
    Metric("formula_edit", "formula edit (page avg)", False, aggregate=Dataset(_REF)),
    Metric("table_teds", "table TEDS", True, headline=True, aggregate=Dataset(_REF)),
    Metric("table_teds_s", "table TEDS-S", True, aggregate=Dataset(_REF)),
    Metric("table_edit", "table edit (page avg)", False, aggregate=Dataset(_REF)),
    Metric(
        "reading_order_edit",
        "reading order edit (page avg)",
        False,
        headline=True,
        aggregate=Dataset(_REF),
    ),
    Metric("pages", "pages scored", None, "count", aggregate=Items()),
    Metric("olmocr_overall", "olmOCR-bench score", True, aggregate=Dataset(_OLMOCR)),
    Metric(
        "olmocr_tests_passed",
        "olmOCR-bench tests passed (pooled over pages)",
        True,
        aggregate=Ratio("olmocr_passed", "olmocr_tests"),
    ),
    *(
        Metric(f"olmocr_{t}", f"olmOCR-bench {t} tests (mean fraction)", True,
               aggregate=Dataset(_OLMOCR))
        for t in _OLMOCR_TYPES
    ),
)

#: the totals of an OmniDocBench result (the olmOCR-bench ones have no value there)
OMNIDOCBENCH_TOTALS = tuple(m for m in TOTALS if not m.name.startswith("olmocr_"))

KIND = Kind(
    name="document",
    title="Document pages",
    item="page",
    items="pages",
    metrics=METRICS,
    totals=TOTALS,
    totals_note=(
        "document totals are OmniDocBench v1.5's: text, formula, table and reading-order edit "
        "distances averaged over pages, TEDS averaged over tables"
    ),
    evaluate=lazy("parsescore.document.dataset:evaluate"),
    read=lazy("parsescore.document.dataset:read"),
    detect=lambda doc: (
        isinstance(doc, dict)
        and {"text_block", "display_formula", "table", "reading_order"} <= set(doc)
    ),
    documents={"document": "OmniDocBench's <name>_metric_result.json (parsescore document --out)"},
    recognised="OmniDocBench's metric_result.json (keys text_block, display_formula, table, "
    "reading_order)",
    schema=lazy("parsescore.document.present:schema_defs"),
    report=ReportParts(
        prepare=None, plots=None, drilldown=lazy("parsescore.document.present:drilldown")
    ),
    summarise=lazy("parsescore.document.present:summarise"),
    options=DocumentOptions,
    command=CommandParts(
        help="Document pages (Markdown) against OmniDocBench's truth: its v1.5 end-to-end "
        "numbers, bit for bit.",
        truth="OmniDocBench's page list (OmniDocBench.json).",
        pred="Folder of one Markdown file per page (<image stem>.md, .mmd or <image>.md).",
    ),
    demo=lazy("parsescore.document.demo:run_demo"),
)
