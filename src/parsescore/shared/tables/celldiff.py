"""Which cells of a predicted table differ from the truth: the per-pair detail the report lists.

TEDS and GriTS say *how much* two tables differ; this says *which cells*. Rows and columns are
aligned with GriTS-Con's own factored alignment (``grits._outer``: truth rows ↔ predicted rows
by a 1-D DP whose reward is the 1-D DP score of two rows over slot text similarities, then
columns likewise), so an inserted row or column in the prediction does not shift every later
cell into a "difference". The alignment uses the exact LCS similarity (``lcs="exact"``) rather
than GriTS's default difflib blocks: difflib is not symmetric in its arguments, the true LCS
is, so swapping truth and prediction mirrors the result whenever the best alignment is unique.
On ties (two rows exchanged, say) GriTS's DP tie-break (skip a truth row before a predicted
one) decides which of them is reported as moved, and that choice is not symmetric.

A truth cell's counterpart is the predicted cell whose top-left slot sits at the aligned
(row, column); with none, the truth cell is a deletion. Predicted cells that are nobody's
counterpart are insertions. A counterpart whose text or span differs is a substitution.
The alignment rewards use GriTS's cell text (``" ".join(itertext())``, markup ignored); whether
two counterparts differ is judged on the text TEDS compares (inline markup kept).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from lxml import etree, html

from parsescore.core.errors import InputError
from parsescore.shared.tables.grits import (
    GridCell,
    _Grid,
    _outer,
    _reshape,
    _text_similarities,
    cells_from_table,
)
from parsescore.shared.tables.normalise import normalise_html
from parsescore.shared.tables.tree import cell_tokens, find_table

__all__ = ["CHANGES", "cell_diff_summary", "differing_cells", "table_details"]

CHANGES = ("substitution", "deletion", "insertion")

_Slot = tuple[int, int]


def _cell_text(element: etree._Element) -> str:
    """The cell's TEDS content tokens joined (markup such as ``<b>`` included, as TEDS compares
    it), runs of whitespace collapsed to one space and the ends stripped."""
    tail = element.tail
    if element.tag != "td":
        # cell_tokens drops the outer tags assuming a td, whose tail it never reads.
        element.tail = None
    try:
        text = "".join(cell_tokens(element))
    finally:
        element.tail = tail
    return " ".join(text.split())


def _find_any_table(text: str) -> etree._Element | None:
    """TEDS's first ``body/table``; failing that, a bare ``<table>`` or the first table anywhere.

    TEDS scores a bare table 0 (a reference quirk); here the report still wants its cells.
    """
    table = find_table(text)
    if table is not None:
        return table
    root = html.fromstring(text, parser=html.HTMLParser(remove_comments=True, encoding="utf-8"))
    if root.tag == "table":
        return root
    found = root.xpath(".//table")
    return found[0] if found else None


def _read_side(text: Any, *, where: str, normalise: bool) -> tuple[list[GridCell], list[str]]:
    """GriTS cells of one side and each cell's TEDS-view text; InputError on bad input."""
    if not isinstance(text, str):
        raise InputError(f"expected an HTML string, got {type(text).__name__}", where=where)
    if not text.strip():
        raise InputError("empty HTML", where=where)
    try:
        if normalise:
            text = normalise_html(text)
        table = _find_any_table(text)
        if table is None:
            raise InputError("no <table> in the HTML", where=where)
        cells = cells_from_table(table)
        # cells_from_table visits td/th depth-first in document order, as iter() does.
        elements = list(table.iter("td", "th"))
    except InputError as exc:
        raise InputError(exc.reason, where=where) from None
    except (ValueError, etree.LxmlError) as exc:
        reason = getattr(exc, "reason", None) or str(exc) or type(exc).__name__
        raise InputError(f"bad HTML: {reason}", where=where) from None
    return cells, [_cell_text(e) for e in elements]


def _alignment(
    true_cells: list[GridCell], pred_cells: list[GridCell]
) -> tuple[dict[int, int], dict[int, int]]:
    """Truth row → predicted row and truth column → predicted column, as GriTS-Con aligns."""
    true, pred = _Grid(true_cells), _Grid(pred_cells)
    n_true, n_pred = true.n_rows * true.n_cols, pred.n_rows * pred.n_cols
    if n_true == 0 or n_pred == 0:
        return {}, {}
    texts1, texts2 = true.flat_texts, pred.flat_texts
    unique1 = {t: i for i, t in enumerate(dict.fromkeys(texts1))}
    unique2 = {t: i for i, t in enumerate(dict.fromkeys(texts2))}
    similarity = _text_similarities(list(unique1), list(unique2), "exact")
    index1 = np.array([unique1[t] for t in texts1], dtype=np.int64)
    index2 = np.array([unique2[t] for t in texts2], dtype=np.int64)
    rewards = np.ascontiguousarray(
        _reshape(similarity[np.ix_(index1, index2)], true, pred), dtype=np.float64
    )
    rows_t, rows_p, _ = _outer(rewards)
    cols_t, cols_p, _ = _outer(np.ascontiguousarray(rewards.transpose(1, 0, 3, 2)))
    rows = {int(a): int(b) for a, b in zip(rows_t, rows_p, strict=True)}
    cols = {int(a): int(b) for a, b in zip(cols_t, cols_p, strict=True)}
    return rows, cols


def _top_left(cell: GridCell) -> _Slot:
    return cell.row_nums[0], cell.column_nums[0]


def _record(cell: GridCell, text: str) -> dict[str, Any]:
    return {
        "row": cell.row_nums[0],
        "col": cell.column_nums[0],
        "rowspan": len(cell.row_nums),
        "colspan": len(cell.column_nums),
        "text": text,
    }


def differing_cells(
    truth_html: str, pred_html: str, *, normalise: bool = False
) -> list[dict[str, Any]]:
    """The cells that differ between two HTML tables, as JSON-ready records.

    Each record is ``{"change": "substitution" | "deletion" | "insertion", "truth": CELL |
    None, "pred": CELL | None}`` with ``CELL = {"row", "col", "rowspan", "colspan", "text"}``:
    the 0-based grid slot of the cell's top-left corner (cells placed as GriTS places them),
    its spans, and its text as TEDS sees the content (inline markup kept, whitespace collapsed
    and stripped). Equal cells are left out. Order: truth cells in reading order (row, col),
    then insertions in prediction reading order.

    The table is TEDS's first ``body/table``, or else a bare or nested ``<table>``;
    ``normalise`` applies TEDS's optional OmniDocBench normalisation to both sides first.
    Empty or unparsable HTML, HTML without a table, or a non-integer span raise
    :class:`~parsescore.core.errors.InputError` (``where`` is ``"truth"`` or ``"prediction"``).

    >>> row = "<html><body><table><tr><td>a</td><td>{}</td></tr></table></body></html>"
    >>> [r["change"] for r in differing_cells(row.format("b"), row.format("c"))]
    ['substitution']
    """
    return _compare(truth_html, pred_html, normalise=normalise)[0]


def _compare(
    truth_html: str, pred_html: str, *, normalise: bool
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """:func:`differing_cells` and the grid the report draws: every cell of both tables and
    the row and column alignment (``[[truth, pred]]`` pairs, 0-based)."""
    true_cells, true_texts = _read_side(truth_html, where="truth", normalise=normalise)
    pred_cells, pred_texts = _read_side(pred_html, where="prediction", normalise=normalise)
    rows, cols = _alignment(true_cells, pred_cells)
    # Top-left slots are unique: a cell starts at the first free column of its row.
    pred_at: dict[_Slot, int] = {_top_left(c): i for i, c in enumerate(pred_cells)}

    def reading_order(cells: list[GridCell]) -> list[int]:
        return sorted(range(len(cells)), key=lambda i: _top_left(cells[i]))

    records: list[dict[str, Any]] = []
    matched: set[int] = set()
    for i in reading_order(true_cells):
        cell = true_cells[i]
        truth = _record(cell, true_texts[i])
        r, c = rows.get(truth["row"]), cols.get(truth["col"])
        j = None if r is None or c is None else pred_at.get((r, c))
        if j is None:
            records.append({"change": "deletion", "truth": truth, "pred": None})
            continue
        matched.add(j)
        pred = _record(pred_cells[j], pred_texts[j])
        if any(truth[k] != pred[k] for k in ("rowspan", "colspan", "text")):
            records.append({"change": "substitution", "truth": truth, "pred": pred})
    for j in reading_order(pred_cells):
        if j not in matched:
            pred = _record(pred_cells[j], pred_texts[j])
            records.append({"change": "insertion", "truth": None, "pred": pred})
    grid = {
        "rows": [[a, b] for a, b in sorted(rows.items())],
        "cols": [[a, b] for a, b in sorted(cols.items())],
        "truth": [_record(true_cells[i], true_texts[i]) for i in reading_order(true_cells)],
        "pred": [_record(pred_cells[j], pred_texts[j]) for j in reading_order(pred_cells)],
    }
    return records, grid


def cell_diff_summary(records: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """``{"substitution": n, "deletion": n, "insertion": n}``, every key present (a report
    header or a JSON column needs the zeros too)."""
    counts = dict.fromkeys(CHANGES, 0)
    for record in records:
        counts[record["change"]] += 1
    return counts


def table_details(
    truth_tables: Mapping[str, str], pred_tables: Mapping[str, str], *, normalise: bool = False
) -> dict[str, dict[str, Any]]:
    """The drill-down record of each truth table in a result envelope (``parsescore table
    --result``): the cells that differ (:func:`differing_cells`), their counts, and the grid
    the HTML report draws side by side (every cell of both tables, the row/column alignment).

    A prediction in which TEDS finds no ``body/table`` (a bare ``<table>`` too: the reference
    scores it 0) has every truth cell deleted, so the cells agree with the score; a missing
    prediction (listed in ``dataset.missing``) and an unreadable truth table get no record.
    """

    def teds_sees_a_table(html: str) -> bool:
        try:
            return find_table(normalise_html(html) if normalise else html) is not None
        except (etree.LxmlError, ValueError):  # e.g. whitespace-only HTML
            return False

    details: dict[str, dict[str, Any]] = {}
    for name, truth_html in truth_tables.items():
        pred_html = pred_tables.get(name)
        if pred_html is None:
            continue
        try:
            if not teds_sees_a_table(pred_html):
                pred_html = "<table></table>"
            cells, grid = _compare(truth_html, pred_html, normalise=normalise)
        except InputError as error:
            if error.where == "truth":
                continue  # no readable truth table: nothing to align
            cells, grid = _compare(truth_html, "<table></table>", normalise=normalise)
        details[name] = {"cells": cells, "cell_changes": cell_diff_summary(cells), "grid": grid}
    return details
