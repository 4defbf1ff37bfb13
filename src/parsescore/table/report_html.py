"""The table part of the HTML report: each table's scores, worst first, and the cells that
differ (from ``Result.details``; rows and columns aligned as GriTS aligns them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parsescore.report.html import (
    Salt,
    System,
    dicts,
    e,
    html_table,
    inline_markup,
    item_details,
    text_pair,
)
from parsescore.report.tables import table_drawing as drawing

__all__ = ["drilldown", "plots_html"]

#: Differing cells listed per table (the rest are counted, and in the result file).
CELLS_SHOWN = 200


def plots_html(members: Sequence[System], salt: Salt) -> str:
    """No size plot: a table result does not record cell counts (said, not left out silently)."""
    return (
        '<p class="note">Error by table size is not plotted: the table result JSON does '
        "not record cell counts.</p>"
    )


def _cell_place(cell: Any) -> str:
    if not isinstance(cell, dict):
        return "–"
    spans = [f"{k[0]}{cell[k]}" for k in ("rowspan", "colspan") if cell.get(k, 1) != 1]
    return e(f"r{cell.get('row')} c{cell.get('col')}" + (f" ({' '.join(spans)})" if spans else ""))


def _cells(cells: Sequence[Mapping[str, Any]]) -> str:
    rows = []
    for c in cells[:CELLS_SHOWN]:
        truth, pred = c.get("truth"), c.get("pred")
        truth_html, pred_html = text_pair(
            truth.get("text") if isinstance(truth, dict) else None,
            pred.get("text") if isinstance(pred, dict) else None,
        )
        truth_html, pred_html = inline_markup(truth_html), inline_markup(pred_html)
        rows.append(
            [e(c.get("change")), _cell_place(truth), truth_html, _cell_place(pred), pred_html]
        )
    header = [("change", False), ("truth cell", False), ("truth text", False)]
    header += [("predicted cell", False), ("predicted text", False)]
    more = len(cells) - CELLS_SHOWN
    tail = f'<p class="note">… and {more} more in the result file.</p>' if more > 0 else ""
    return html_table(header, rows, ["diff"] * len(rows)) + tail


def drilldown(system: System, items: Sequence[str]) -> str:
    """Missing and extra predictions, then every listed table drawn side by side with the
    list of its differing cells."""
    result = system.result
    out = []
    for key, title in (
        ("missing", "Missing predictions (scored 0)"),
        ("extra", "Extra predictions"),
    ):
        names = result.dataset.get(key) or []
        if names:
            out.append(f'<p class="note">{title}: {e(", ".join(map(str, names)))}</p>')
    details = result.details
    if not any("cells" in details.get(item, {}) for item in items):
        out.append(
            '<p class="note">The cells that differ are in the result envelope '
            "(<code>parsescore table --result FILE</code>); this file holds scores only.</p>"
        )
        return "".join(out)
    for item in items:
        detail = details.get(item, {})
        if "cells" not in detail:
            continue
        cells = dicts(detail.get("cells"))
        counts = detail.get("cell_changes") or {}
        tally = ", ".join(f"{n} {change}" for change, n in counts.items() if n) or "no change"
        body = drawing(detail)
        if cells and not isinstance(detail.get("grid"), dict):  # the drawing shows them
            body += "<h4>The cells that differ</h4>" + _cells(cells)
        out.append(item_details(system, item, body, f' <span class="muted">— {e(tally)}</span>'))
    return "".join(out)
