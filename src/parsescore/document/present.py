"""What the document kind shows: the terminal summary, its JSON Schema parts and the report's
per-page drill-down, all from the ``Result`` alone (a loaded envelope shows the same)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console

from parsescore.core.results import Result
from parsescore.core.schema import NUMBER, STRING, map_of, record

__all__ = ["drilldown", "schema_defs", "summarise"]

_SHOWN = (
    ("text_edit", "Text Edit_dist (page avg) ↓"),
    ("text_edit_whole", "Text Edit_dist (whole) ↓"),
    ("formula_edit", "Formula Edit_dist ↓"),
    ("table_teds", "Table TEDS ↑"),
    ("table_teds_s", "Table TEDS-S ↑"),
    ("table_edit", "Table Edit_dist ↓"),
    ("reading_order_edit", "Reading order Edit_dist ↓"),
)


def summarise(result: Result, out: Console) -> None:
    """The compat numbers, what was skipped or unreadable, and the worst pages by text edit."""
    from rich.table import Table

    if result.dataset.get("truth_format") == "olmocr-bench":
        from parsescore.document.olmocr.present import summarise as summarise_olmocr

        return summarise_olmocr(result, out)

    profile = result.dataset.get("profile", "omnidocbench")
    table = Table(title=f"{result.name}: document ({profile})", title_justify="left")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key, label in _SHOWN:
        value = result.totals.get(key)
        table.add_row(label, "–" if value is None else f"{value:.4f}")
    out.print(table)
    pages = result.dataset.get("pages", len(result.items))
    out.print(f"{len(result.items)} of {pages} pages scored", highlight=False)
    skipped = result.dataset.get("skipped") or []
    if skipped:
        out.print(
            f"{len(skipped)} page(s) had no prediction file and were skipped (as OmniDocBench "
            "does): " + ", ".join(skipped[:5]) + (" …" if len(skipped) > 5 else ""),
            highlight=False,
        )
    for image, reason in (result.dataset.get("unreadable") or {}).items():
        out.print(f"unreadable: {image}: {reason}", highlight=False)
    worst = int(result.options.get("worst", 5)) if "worst" in result.options else 5
    ranked = sorted(
        (i for i in result.items if "text_edit" in result.items[i]),
        key=lambda i: -result.items[i]["text_edit"],
    )[:worst]
    if ranked:
        out.print(
            "worst pages (text edit): "
            + ", ".join(f"{i} {result.items[i]['text_edit']:.3f}" for i in ranked),
            highlight=False,
        )
    out.print(
        "not computed: " + ", ".join(result.dataset.get("not_computed") or ["CDM", "Overall"]),
        highlight=False,
    )


def schema_defs() -> dict[str, dict[str, Any]]:
    element = {
        "type": "object",
        "properties": {
            "all": {"type": "object"},
            "group": {"type": "object"},
            "page": {"type": "object"},
        },
    }
    return {
        "document": {
            "type": "object",
            "description": "OmniDocBench v1.5's <name>_metric_result.json document.",
            "required": ["text_block", "display_formula", "table", "reading_order"],
            "properties": {k: element for k in
                           ("text_block", "display_formula", "table", "reading_order")},
        },
        "document_detail": record({}),
        "document_dataset": {
            "type": "object",
            "properties": {
                "profile": STRING,
                "pages": NUMBER,
                "skipped": {"type": "array", "items": STRING},
                "unreadable": map_of(STRING),
                "files": map_of(STRING),
                "not_computed": {"type": "array", "items": STRING},
                "metric_result": {"type": "object"},
            },
        },
    }  # fmt: skip


def drilldown(system: Any, items: Sequence[str]) -> str:
    """Per page: the compat numbers and the prediction file it was read from."""
    from parsescore.report.html import e, html_table, item_summary

    result = system.result
    if result.dataset.get("truth_format") == "olmocr-bench":
        from parsescore.document.olmocr.present import drilldown as drilldown_olmocr

        return drilldown_olmocr(system, items)
    files = result.dataset.get("files") or {}
    rows = []
    for item in items:
        values = result.items.get(item, {})
        rows.append([
            item_summary(system, item),
            e(files.get(item, "")),
            *(e("–" if m not in values else f"{values[m]:.4f}")
              for m in ("text_edit", "formula_edit", "table_teds", "reading_order_edit")),
        ])  # fmt: skip
    columns = [("page", False), ("file", False), ("text edit", True), ("formula edit", True),
               ("table TEDS", True), ("order edit", True)]  # fmt: skip
    return '<div class="document-kind">' + html_table(columns, rows) + "</div>"
