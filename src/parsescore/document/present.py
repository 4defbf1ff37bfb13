"""What the document kind shows: the terminal summary, its JSON Schema parts and the report's
per-page drill-down, all from the ``Result`` alone (a loaded envelope shows the same)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console

from parsescore.core.results import Result
from parsescore.core.schema import NUMBER, STRING, STRINGS, map_of, record

__all__ = ["drilldown", "page_details", "schema_defs", "summarise"]

#: Characters of a block's text kept in a page's detail (the envelope stays small; the scores
#: use the whole text).
TEXT_KEPT = 3000
#: Characters of a table's HTML kept in a page's detail (a longer one is not drawn).
TABLE_KEPT = 50_000

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
    from rich.markup import escape
    from rich.table import Table

    if result.dataset.get("truth_format") == "olmocr-bench":
        from parsescore.document.olmocr.present import summarise as summarise_olmocr

        return summarise_olmocr(result, out)

    profile = result.dataset.get("profile", "omnidocbench")
    table = Table(title=f"{escape(result.name)}: document ({profile})", title_justify="left")
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
            markup=False,
        )
    for image, reason in (result.dataset.get("unreadable") or {}).items():
        out.print(f"unreadable: {image}: {reason}", highlight=False, markup=False)
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
            markup=False,
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
        "document_detail": record(
            {
                "blocks": {"type": "array", "items": record({
                    "type": {"enum": ["text", "formula"]}, "category": STRING,
                    "truth": STRING, "pred": STRING, "edit": {"type": ["number", "null"]},
                })},
                "tables": {"type": "array", "items": record({
                    "truth": STRING, "pred": STRING, "teds": NUMBER, "teds_s": NUMBER,
                    "edit": {"type": ["number", "null"]},
                })},
                "order": record({"truth": STRINGS, "pred": STRINGS, "edit": NUMBER}),
            },
            optional=("blocks", "tables", "order"),
            description="A page's matched blocks (truth next to answer; an empty side: "
            "unmatched or invented), its tables and its reading order.",
        ),
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


def _kept(value: Any, limit: int = TEXT_KEPT) -> str:
    text = "" if value is None else str(value)
    return text if len(text) <= limit else text[:limit] + " …"


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return None
    return float(value)


def page_details(
    samples: Mapping[str, Sequence[Mapping[str, Any]]],
    invented: Mapping[str, Sequence[Mapping[str, Any]]],
) -> dict[str, dict[str, Any]]:
    """Each page's drill-down record from the dataset's matched samples: its text and formula
    blocks (truth next to the answer's block, an empty side where a truth block went unmatched
    or the answer invented one: ``invented[page]``, which OmniDocBench leaves out of its
    samples), its tables (both sides' HTML, TEDS, TEDS-S) and its reading order (the truth
    blocks in the truth's order and in the answer's)."""
    details: dict[str, dict[str, Any]] = {}
    for name, blocks in invented.items():
        for block in blocks:
            details.setdefault(name, {}).setdefault("blocks", []).append({
                "type": "text", "category": str(block.get("category") or ""), "truth": "",
                "pred": _kept(block.get("pred")), "edit": None,
            })  # fmt: skip

    def page(sample: Mapping[str, Any]) -> dict[str, Any]:
        return details.setdefault(str(sample.get("image_name")), {})

    texts: dict[str, dict[Any, str]] = {}
    for kind, element in (("text", "text_block"), ("formula", "display_formula")):
        for sample in samples.get(element, ()):
            metric = sample.get("metric") or {}
            page(sample).setdefault("blocks", []).append({
                "type": kind,
                "category": str(sample.get("gt_category_type") or
                                sample.get("pred_category_type") or ""),
                "truth": _kept(sample.get("gt")), "pred": _kept(sample.get("pred")),
                "edit": _number(metric.get("Edit_dist")),
            })  # fmt: skip
            if kind == "text":
                known = texts.setdefault(str(sample.get("image_name")), {})
                for position in sample.get("gt_position") or ():
                    if position != "":
                        known.setdefault(position, _kept(sample.get("gt"), 120))
    for sample in samples.get("table", ()):
        metric = sample.get("metric") or {}
        page(sample).setdefault("tables", []).append({
            "truth": _kept(sample.get("gt"), TABLE_KEPT), "pred": _kept(sample.get("pred"),
                                                                        TABLE_KEPT),
            "teds": _number(metric.get("TEDS")) or 0.0,
            "teds_s": _number(metric.get("TEDS_structure_only")) or 0.0,
            "edit": _number(metric.get("Edit_dist")),
        })  # fmt: skip
    for sample in samples.get("reading_order", ()):
        known = texts.get(str(sample.get("image_name")), {})
        page(sample)["order"] = {
            "truth": [known.get(p, f"block {p}") for p in sample.get("gt") or ()],
            "pred": [known.get(p, f"block {p}") for p in sample.get("pred") or ()],
            "edit": _number(sample.get("edit")) or 0.0,
        }
    return details


def _blocks_html(blocks: Sequence[Mapping[str, Any]]) -> str:
    from parsescore.report.html import e, fmt, html_table, text_pair

    rows, classes = [], []
    for block in blocks:
        truth, pred = str(block.get("truth", "")), str(block.get("pred", ""))
        status = "unmatched" if not pred else "invented" if not truth else "matched"
        old, new = text_pair(truth, pred) if truth and pred else (
            text_pair(truth or None, pred or None))  # fmt: skip
        edit = block.get("edit")
        rows.append([e(f"{block.get('type')} {block.get('category', '')}".strip()), e(status),
                     old, new, e("–" if edit is None else fmt(edit))])  # fmt: skip
        classes.append("diff" if status == "matched" else status)
    header = [("block", False), ("", False), ("truth", False), ("answer", False),
              ("edit ↓", True)]  # fmt: skip
    return html_table(header, rows, classes)


def _tables_html(tables: Sequence[Mapping[str, Any]]) -> str:
    from parsescore.core.errors import InputError
    from parsescore.report.html import e, fmt
    from parsescore.report.tables import table_drawing
    from parsescore.shared.tables.celldiff import table_details

    out = []
    for k, table in enumerate(tables, start=1):
        truth, pred = str(table.get("truth", "")), str(table.get("pred", ""))
        head = (f"<h5>Table {k}: TEDS {e(fmt(table.get('teds')))}, TEDS-S "
                f"{e(fmt(table.get('teds_s')))}</h5>")  # fmt: skip
        try:
            detail = table_details({"t": truth}, {"t": pred or "<table></table>"}).get("t")
        except (InputError, ValueError):
            detail = None
        if detail is None:
            out.append(head + '<p class="note">Not drawn: the truth table cannot be read.</p>')
        else:
            out.append(head + table_drawing(detail))
    return "".join(out)


def _order_html(order: Mapping[str, Any]) -> str:
    from parsescore.report.html import e, fmt

    def numbered(title: str, texts: Any) -> str:
        entries = "".join(f"<li>{e(t)}</li>" for t in (texts or ()))
        return f"<div><h5>{e(title)}</h5><ol>{entries}</ol></div>"

    return (
        f"<h5>Reading order (edit {e(fmt(order.get('edit')))})</h5>"
        '<div class="pair reading-order">'
        + numbered("Truth order", order.get("truth"))
        + numbered("Answer order", order.get("pred"))
        + "</div>"
    )


def drilldown(system: Any, items: Sequence[str]) -> str:
    """Per page (in the order given: worst first): the compat numbers and the file read, each
    truth block next to its matched answer block with their character differences (unmatched
    truth blocks and invented answer blocks marked), the tables drawn side by side with their
    differing cells, and the reading order as two numbered lists."""
    from parsescore.report.html import e, html_table, item_details, item_summary

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
    pages = []
    for item in items:
        detail = result.details.get(item) or {}
        body = ""
        if detail.get("blocks"):
            body += _blocks_html(detail["blocks"])
        if detail.get("tables"):
            body += _tables_html(detail["tables"])
        if detail.get("order"):
            body += _order_html(detail["order"])
        if body:
            pages.append(item_details(system, item, body))
    return '<div class="document-kind">' + html_table(columns, rows) + "".join(pages) + "</div>"
