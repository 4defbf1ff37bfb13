"""The table part of the HTML report: each table's scores, worst first, and the cells that
differ (from ``Result.details``; rows and columns aligned as GriTS aligns them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parsescore.kinds import get_kind
from parsescore.report.html import Salt, System, dicts, e, fmt, html_table, item_summary, text_cell

__all__ = ["drilldown", "plots_html"]

#: Differing cells listed per table (the rest are counted, and in the result file).
CELLS_SHOWN = 200


def plots_html(members: Sequence[System], salt: Salt) -> str:
    """No size plot: a table result does not record cell counts (said, not left out silently)."""
    return (
        '<p class="note">Error by table size is not plotted: the table result JSON does '
        "not record cell counts.</p>"
    )


def _primary(system: System) -> str | None:
    """The first headline metric any table has (TEDS, or GriTS-Top for a GriTS-only run)."""
    for metric in get_kind("table").headline_metrics():
        if any(metric in v for v in system.result.items.values()):
            return metric
    return None


def _cell_place(cell: Any) -> str:
    if not isinstance(cell, dict):
        return "–"
    spans = [f"{k[0]}{cell[k]}" for k in ("rowspan", "colspan") if cell.get(k, 1) != 1]
    return e(f"r{cell.get('row')} c{cell.get('col')}" + (f" ({' '.join(spans)})" if spans else ""))


def _cells(cells: Sequence[Mapping[str, Any]]) -> str:
    rows = [
        [
            e(c.get("change")),
            _cell_place(c.get("truth")),
            text_cell((c.get("truth") or {}).get("text") if c.get("truth") else None),
            _cell_place(c.get("pred")),
            text_cell((c.get("pred") or {}).get("text") if c.get("pred") else None),
        ]
        for c in cells[:CELLS_SHOWN]
    ]
    header = [("change", False), ("truth cell", False), ("truth text", False)]
    header += [("predicted cell", False), ("predicted text", False)]
    more = len(cells) - CELLS_SHOWN
    tail = f'<p class="note">… and {more} more in the result file.</p>' if more > 0 else ""
    return html_table(header, rows, ["diff"] * len(rows)) + tail


def drilldown(system: System, items: Sequence[str]) -> str:
    """Missing and extra predictions, every listed table's scores, then its differing cells."""
    result = system.result
    metrics = result.metrics()
    out = []
    for key, title in (
        ("missing", "Missing predictions (scored 0)"),
        ("extra", "Extra predictions"),
    ):
        names = result.dataset.get(key) or []
        if names:
            out.append(f'<p class="note">{title}: {e(", ".join(map(str, names)))}</p>')
    rows = [[e(item)] + [fmt(result.items[item].get(m)) for m in metrics] for item in items]
    primary = _primary(system)
    classes = [
        "diff" if primary is not None and result.items[item].get(primary, 1.0) < 1.0 else ""
        for item in items
    ]
    out.append(html_table([("table", False)] + [(e(m), True) for m in metrics], rows, classes))
    details = result.details
    if not any("cells" in details.get(item, {}) for item in items):
        out.append(
            '<p class="note">Worst first. The cells that differ are in the result envelope '
            "(<code>parsescore table --result FILE</code>); this file holds scores only.</p>"
        )
        return "".join(out)
    out.append("<h4>The cells that differ (rows and columns aligned as GriTS aligns them)</h4>")
    for item in items:
        cells = dicts(details.get(item, {}).get("cells"))
        if item not in details or not cells:
            continue
        counts = details[item].get("cell_changes") or {}
        tally = ", ".join(f"{n} {change}" for change, n in counts.items() if n)
        out.append(
            f'<details class="item"><summary>{item_summary(system, item)} '
            f'<span class="muted">— {e(tally)}</span></summary>{_cells(cells)}</details>'
        )
    return "".join(out)
