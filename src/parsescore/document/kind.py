"""The document kind's description: cheap to import (heavy parts are ``lazy`` references)."""

from __future__ import annotations

from parsescore.core.kinds import (
    Attribute,
    CommandParts,
    Dataset,
    Items,
    Kind,
    Metric,
    PredictParts,
    Ratio,
    ReportParts,
    lazy,
)
from parsescore.document.options import DocumentOptions

__all__ = ["KIND", "METRICS", "OMNIDOCBENCH_TOTALS", "PARSESCORE_TOTALS", "TOTALS", "detect"]


def detect(doc: object) -> bool:
    """An OmniDocBench metric_result document, the ``parsescore`` profile's document, or an
    olmOCR-bench scores document (cheap: no import)."""
    if not isinstance(doc, dict):
        return False
    if {"tests", "groups", "overall", "types"} <= set(doc):
        return True
    if doc.get("profile") == "parsescore" and isinstance(doc.get("omnidocbench"), dict):
        return True
    return {"text_block", "display_formula", "table", "reading_order"} <= set(doc)


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
    # profile parsescore (better.py): the numbers a page should get, beside the compat ones
    Metric("text_cer", "text CER", False),
    Metric("text_wer", "text WER", False),
    Metric("text_union_error", "text error (union)", False),
    Metric("formula_union_error", "formula error (union)", False),
    Metric("table_teds_any", "table TEDS (any format)", True),
    Metric("table_teds_s_any", "table TEDS-S (any format)", True),
    Metric("table_grits_top", "table GriTS-Top", True),
    Metric("table_grits_con", "table GriTS-Con", True),
    Metric("order_accuracy", "order accuracy", True),
    Metric("order_tau", "order Kendall tau", True),
    Metric("order_edit", "order edit", False),
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
        Metric(
            f"olmocr_{t}",
            f"olmOCR-bench {t} tests (mean fraction)",
            True,
            aggregate=Dataset(_OLMOCR),
        )
        for t in _OLMOCR_TYPES
    ),
)
#: The totals of profile ``parsescore`` (better.py): page means and pooled ratios of the pages'
#: counts (a compat result has none of them).
PARSESCORE_TOTALS = (
    Metric("text_cer", "text CER (page mean)", False),
    Metric("text_cer_pooled", "text CER (pooled)", False,
           aggregate=Ratio("text_char_edits", "text_truth_chars")),
    Metric("text_wer", "text WER (page mean)", False),
    Metric("text_wer_pooled", "text WER (pooled)", False,
           aggregate=Ratio("text_word_edits", "text_truth_words")),
    Metric("text_union_error", "text error over the union (page mean)", False),
    Metric("text_union_error_pooled", "text error over the union (pooled)", False,
           aggregate=Ratio("text_union_edits", "text_union_chars")),
    Metric("formula_union_error", "formula error over the union (page mean)", False),
    Metric("formula_union_error_pooled", "formula error over the union (pooled)", False,
           aggregate=Ratio("formula_union_edits", "formula_union_chars")),
    Metric("table_teds_any", "table TEDS, any format (page mean)", True),
    Metric("table_teds_any_tables", "table TEDS, any format (per table)", True,
           aggregate=Ratio("table_teds_sum", "table_slots")),
    Metric("table_teds_s_any", "table TEDS-S, any format (page mean)", True),
    Metric("table_teds_s_any_tables", "table TEDS-S, any format (per table)", True,
           aggregate=Ratio("table_teds_s_sum", "table_slots")),
    Metric("table_grits_top", "table GriTS-Top (page mean)", True),
    Metric("table_grits_top_tables", "table GriTS-Top (per table)", True,
           aggregate=Ratio("table_grits_top_sum", "table_slots")),
    Metric("table_grits_con", "table GriTS-Con (page mean)", True),
    Metric("table_grits_con_tables", "table GriTS-Con (per table)", True,
           aggregate=Ratio("table_grits_con_sum", "table_slots")),
    Metric("order_accuracy", "order accuracy (page mean)", True),
    Metric("order_accuracy_pooled", "order accuracy (pooled pairs)", True,
           aggregate=Ratio("order_pairs_agreeing", "order_pairs")),
    Metric("order_tau", "order Kendall tau (page mean)", True),
    Metric("order_edit", "order edit (page mean)", False),
)  # fmt: skip

#: the totals of an OmniDocBench result (the olmOCR-bench ones have no value there)
OMNIDOCBENCH_TOTALS = tuple(m for m in TOTALS if not m.name.startswith("olmocr_"))

KIND = Kind(
    name="document",
    title="Document pages",
    item="page",
    items="pages",
    metrics=METRICS,
    totals=(*TOTALS, *PARSESCORE_TOTALS),
    totals_note=(
        "document totals are OmniDocBench v1.5's: text, formula, table and reading-order edit "
        "distances averaged over pages, TEDS averaged over tables; profile parsescore adds "
        "page means and pooled ratios of the pages' counts (CER, WER, union error, per-table "
        "TEDS and GriTS, order accuracy)"
    ),
    evaluate=lazy("parsescore.document.dataset:evaluate"),
    read=lazy("parsescore.document.better_present:read"),
    detect=detect,
    documents={
        "document": "OmniDocBench's <name>_metric_result.json (parsescore document --out), or "
        "the parsescore profile's document holding it, or olmOCR-bench's scores (--truth-format "
        "olmocr-bench)"
    },
    recognised="OmniDocBench's metric_result.json (keys text_block, display_formula, table, "
    "reading_order), the parsescore profile's (keys profile, omnidocbench) or olmOCR-bench's "
    "scores (keys tests, groups, overall, types)",
    schema=lazy("parsescore.document.better_present:schema_defs"),
    report=ReportParts(
        prepare=None, plots=None, drilldown=lazy("parsescore.document.present:drilldown")
    ),
    summarise=lazy("parsescore.document.better_present:summarise"),
    options=DocumentOptions,
    attributes=(
        Attribute("data_source", "OmniDocBench's page_attribute data_source (the page's type)"),
        Attribute("language", "page_attribute language (english, simplified_chinese, ...)"),
        Attribute("layout", "page_attribute layout (single_column, double_column, ...)"),
        Attribute("special_issue", "page_attribute special_issue, several joined with +"),
    ),
    subset_totals=lazy("parsescore.document.dataset:subset_totals"),
    command=CommandParts(
        help="Document pages (Markdown) against OmniDocBench's truth: its v1.5 end-to-end "
        "numbers, bit for bit (--profile parsescore: also the numbers a page should get).",
        truth="OmniDocBench's page list (OmniDocBench.json).",
        pred="Folder of one Markdown file per page (<image stem>.md, .mmd or <image>.md).",
    ),
    predict=PredictParts(
        suffix=".md",
        prompt=lazy("parsescore.document.predict:prompt"),
        accept=lazy("parsescore.document.predict:accept"),
        whole_answer=True,
    ),
    demo=lazy("parsescore.document.demo:run_demo"),
)
