"""Two tables drawn side by side for the HTML report, rows and columns aligned (spans kept),
the differing cells marked: shared by the kinds that show tables (the table kind's drill-down,
the document kind's page tables). Drawn from the drill-down record of
:func:`parsescore.shared.tables.celldiff.table_details` (``cells`` and ``grid``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parsescore.report.html import char_diff, dicts, e, inline_markup

__all__ = ["MAX_SLOTS", "table_drawing"]


def _merged(pairs: Any, n_truth: int, n_pred: int) -> list[tuple[int | None, int | None]]:
    """Truth and predicted indices (rows or columns) in one sequence: aligned pairs side by
    side, a deleted truth index or an inserted predicted one opposite a gap."""
    aligned = sorted(
        (int(a), int(b))
        for a, b in (
            p
            for p in (pairs if isinstance(pairs, list) else [])
            if isinstance(p, list) and len(p) == 2
        )
        if isinstance(a, int) and isinstance(b, int) and 0 <= a < n_truth and 0 <= b < n_pred
    )
    out: list[tuple[int | None, int | None]] = []
    t = p = 0
    for a, b in [*aligned, (n_truth, n_pred)]:
        if a < t or b < p:  # not monotone: ignore the pair
            continue
        out += [(k, None) for k in range(t, a)]
        out += [(None, k) for k in range(p, b)]
        if a < n_truth and b < n_pred:
            out.append((a, b))
        t, p = a + 1, b + 1
    return out


def _int(value: Any, default: int) -> int:
    """A JSON count (``default`` for anything else: the drill-down is tolerant)."""
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 100_000
    return value if ok else default


def _place(cell: Mapping[str, Any]) -> tuple[int, int, int, int]:
    """Row, column, rowspan, colspan of a cell record."""
    return (
        _int(cell.get("row"), 0),
        _int(cell.get("col"), 0),
        max(1, _int(cell.get("rowspan"), 1)),
        max(1, _int(cell.get("colspan"), 1)),
    )


_Placed = tuple[tuple[int, int, int, int], str]


def _placed(cells: Sequence[Mapping[str, Any]]) -> list[_Placed]:
    """Each cell's place (row, column, spans) and text, read once."""
    return [(_place(c), str(c.get("text", ""))) for c in cells]


def _extent(cells: Sequence[_Placed]) -> tuple[int, int]:
    rows = cols = 0
    for (r, k, rs, cs), _ in cells:
        rows, cols = max(rows, r + rs), max(cols, k + cs)
    return rows, cols


#: Above this many slots (rows × columns of the merged grid) a table is not drawn.
MAX_SLOTS = 4000


def _side(
    cells: Sequence[_Placed],
    rows: list[tuple[int | None, int | None]],
    cols: list[tuple[int | None, int | None]],
    side: int,
    marks: Mapping[tuple[int, int], tuple[str, str]],
) -> str:
    """One table on the merged grid: its cells with their spans, gaps where the other table has
    a row or column this one lacks; ``marks[(row, col)]`` is a cell's class and its HTML."""
    row_at = {r[side]: k for k, r in enumerate(rows) if r[side] is not None}
    col_at = {c[side]: k for k, c in enumerate(cols) if c[side] is not None}
    placed: dict[tuple[int, int], str] = {}
    covered: set[tuple[int, int]] = set()
    for (r0, c0, rs, cs), text in cells:
        r1, c1 = r0 + rs - 1, c0 + cs - 1
        if r0 not in row_at or c0 not in col_at:
            continue
        m0, n0 = row_at[r0], col_at[c0]
        m1, n1 = row_at.get(r1, m0), col_at.get(c1, n0)
        cls, content = marks.get((r0, c0)) or ("", e(text))
        content = inline_markup(content)  # <b>, <sup>, <br> … as markup, nothing else
        spans = (f' rowspan="{m1 - m0 + 1}"' if m1 > m0 else "") + (
            f' colspan="{n1 - n0 + 1}"' if n1 > n0 else ""
        )
        placed[(m0, n0)] = f"<td{f' class={cls}' if cls else ''}{spans}>{content}</td>"
        covered |= {(m, n) for m in range(m0, m1 + 1) for n in range(n0, n1 + 1)}
    other = 1 - side
    head = ["<tr><th></th>"]
    for c in cols:
        index = c[side]
        if index is None:
            head.append('<th class="ins" title="column only in the other table">+</th>')
        else:
            gone = c[other] is None
            head.append(f"<th{' class=del' if gone else ''}>{index + 1}</th>")
    head.append("</tr>")
    body = []
    for m, r in enumerate(rows):
        index = r[side]
        if index is None:
            body.append('<tr class="gap"><th class="ins">+</th>')
        else:
            gone = r[other] is None
            body.append(f"<tr><th{' class=del' if gone else ''}>{index + 1}</th>")
        for n, c in enumerate(cols):
            if (m, n) in placed:
                body.append(placed[(m, n)])
            elif (m, n) not in covered:
                gap = r[side] is None or c[side] is None
                body.append('<td class="gapcell"></td>' if gap else "<td></td>")
        body.append("</tr>")
    return (
        f'<table class="grid"><thead>{"".join(head)}</thead><tbody>{"".join(body)}</tbody></table>'
    )


def table_drawing(detail: Mapping[str, Any]) -> str:
    """The two tables side by side, rows and columns aligned as GriTS aligns them (spans
    kept): differing cells tinted with their character differences, a deleted row or column
    marked on the truth, an inserted one on the prediction (``+``)."""
    grid = detail.get("grid")
    if not isinstance(grid, dict):
        return (
            '<p class="note item-drawing">Not drawn: this result lists only the differing '
            "cells (an envelope from <code>parsescore table --result</code> has both tables)."
            "</p>"
        )
    truth, pred = _placed(dicts(grid.get("truth"))), _placed(dicts(grid.get("pred")))
    (tr, tc), (pr, pc) = _extent(truth), _extent(pred)
    rows = _merged(grid.get("rows"), tr, pr)
    cols = _merged(grid.get("cols"), tc, pc)
    if len(rows) * len(cols) > MAX_SLOTS:
        return (
            f'<p class="note item-drawing">Not drawn: more than {MAX_SLOTS} cells; the '
            "differing cells are listed below.</p>"
        )
    marks: tuple[dict[tuple[int, int], tuple[str, str]], ...] = ({}, {})
    for record in dicts(detail.get("cells")):
        change = record.get("change")
        t, p = record.get("truth"), record.get("pred")
        if change == "substitution" and isinstance(t, dict) and isinstance(p, dict):
            old, new = char_diff(str(t.get("text", "")), str(p.get("text", "")))
            marks[0][_place(t)[:2]] = ("sub", old)
            marks[1][_place(p)[:2]] = ("sub", new)
        elif change == "deletion" and isinstance(t, dict):
            marks[0][_place(t)[:2]] = ("del", e(t.get("text", "")))
        elif change == "insertion" and isinstance(p, dict):
            marks[1][_place(p)[:2]] = ("ins", e(p.get("text", "")))
    return (
        '<div class="pair item-drawing" data-drawing="table">'
        f"<div><h5>Ground truth</h5>{_side(truth, rows, cols, 0, marks[0])}</div>"
        f"<div><h5>Prediction</h5>{_side(pred, rows, cols, 1, marks[1])}</div></div>"
        '<p class="legend note"><span class="del-key">red: deleted cell, row or column</span>'
        "<span>green: inserted (+)</span><span>yellow: text or span changed</span></p>"
    )


