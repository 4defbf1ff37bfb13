"""Cell-level differences of two tables: hand-written expected records, properties of the
alignment (identity, swapping sides, no cell listed twice) and the bundled PubTabNet pairs."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_helpers import sample_pairs, wrap

from parsescore.core.errors import InputError
from parsescore.shared.tables.celldiff import cell_diff_summary, differing_cells
from parsescore.table import TEDS

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cell(row: int, col: int, text: str, rowspan: int = 1, colspan: int = 1) -> dict[str, Any]:
    return {"row": row, "col": col, "rowspan": rowspan, "colspan": colspan, "text": text}


def grid_html(rows: list[list[str]]) -> str:
    """A span-free table, one ``td`` per text."""
    body = "".join("<tr>" + "".join(f"<td>{t}</td>" for t in row) + "</tr>" for row in rows)
    return wrap(body)


def swapped(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records as they read with truth and prediction exchanged."""
    flip = {"deletion": "insertion", "insertion": "deletion", "substitution": "substitution"}
    return [{"change": flip[r["change"]], "truth": r["pred"], "pred": r["truth"]} for r in records]


def as_set(records: list[dict[str, Any]]) -> set[str]:
    return {json.dumps(r, sort_keys=True) for r in records}


ABC = [["a", "b"], ["c", "d"], ["e", "f"]]


# --- hand-made cases ------------------------------------------------------------------------


def test_identical_tables_have_no_differences() -> None:
    html = wrap('<tr><td colspan="2">h</td></tr><tr><td>a</td><td>b</td></tr>')
    assert differing_cells(html, html) == []


def test_one_changed_text_is_one_substitution() -> None:
    pred = [["a", "b"], ["c", "X"], ["e", "f"]]
    assert differing_cells(grid_html(ABC), grid_html(pred)) == [
        {"change": "substitution", "truth": cell(1, 1, "d"), "pred": cell(1, 1, "X")}
    ]


def test_deleted_row_gives_deletions_for_that_row_only() -> None:
    assert differing_cells(grid_html(ABC), grid_html([["a", "b"], ["e", "f"]])) == [
        {"change": "deletion", "truth": cell(1, 0, "c"), "pred": None},
        {"change": "deletion", "truth": cell(1, 1, "d"), "pred": None},
    ]


def test_inserted_row_gives_insertions_only() -> None:
    pred = [["a", "b"], ["x", "y"], ["c", "d"], ["e", "f"]]
    assert differing_cells(grid_html(ABC), grid_html(pred)) == [
        {"change": "insertion", "truth": None, "pred": cell(1, 0, "x")},
        {"change": "insertion", "truth": None, "pred": cell(1, 1, "y")},
    ]


def test_inserted_column_gives_insertions_only() -> None:
    pred = [["a", "X", "b"], ["c", "Y", "d"], ["e", "Z", "f"]]
    assert differing_cells(grid_html(ABC), grid_html(pred)) == [
        {"change": "insertion", "truth": None, "pred": cell(0, 1, "X")},
        {"change": "insertion", "truth": None, "pred": cell(1, 1, "Y")},
        {"change": "insertion", "truth": None, "pred": cell(2, 1, "Z")},
    ]


def test_changed_colspan_is_a_substitution() -> None:
    truth = wrap('<tr><td colspan="2">h</td><td>i</td></tr><tr><td>a</td><td>b</td><td>c</td></tr>')
    pred = wrap("<tr><td>h</td><td>i</td></tr><tr><td>a</td><td>b</td><td>c</td></tr>")
    # "i" sits at column 2 in the truth and column 1 in the prediction: a moved cell with a
    # different top-left slot has no counterpart, so it is a deletion plus an insertion.
    assert differing_cells(truth, pred) == [
        {"change": "substitution", "truth": cell(0, 0, "h", colspan=2), "pred": cell(0, 0, "h")},
        {"change": "deletion", "truth": cell(0, 2, "i"), "pred": None},
        {"change": "insertion", "truth": None, "pred": cell(0, 1, "i")},
    ]


def test_changed_colspan_keeping_the_grid_is_a_single_substitution() -> None:
    truth = wrap('<tr><td colspan="2">h</td></tr><tr><td>a</td><td>b</td></tr>')
    pred = wrap("<tr><td>h</td></tr><tr><td>a</td><td>b</td></tr>")
    assert differing_cells(truth, pred) == [
        {"change": "substitution", "truth": cell(0, 0, "h", colspan=2), "pred": cell(0, 0, "h")}
    ]


def test_changed_rowspan_is_a_substitution() -> None:
    truth = wrap('<tr><td rowspan="2">k</td><td>a</td></tr><tr><td>b</td></tr>')
    pred = wrap("<tr><td>k</td><td>a</td></tr><tr><td></td><td>b</td></tr>")
    assert differing_cells(truth, pred) == [
        {"change": "substitution", "truth": cell(0, 0, "k", rowspan=2), "pred": cell(0, 0, "k")},
        {"change": "insertion", "truth": None, "pred": cell(1, 0, "")},
    ]


def test_mixed_changes_come_in_reading_order() -> None:
    pred = [["a", "B"], ["e", "f"], ["g", "h"]]
    assert differing_cells(grid_html(ABC), grid_html(pred)) == [
        {"change": "substitution", "truth": cell(0, 1, "b"), "pred": cell(0, 1, "B")},
        {"change": "deletion", "truth": cell(1, 0, "c"), "pred": None},
        {"change": "deletion", "truth": cell(1, 1, "d"), "pred": None},
        {"change": "insertion", "truth": None, "pred": cell(2, 0, "g")},
        {"change": "insertion", "truth": None, "pred": cell(2, 1, "h")},
    ]


def test_exchanged_rows_report_one_row_as_moved() -> None:
    """Two alignments tie; GriTS's tie-break keeps the first truth row, so the second one is
    reported as moved (deleted there, inserted above). Swapping the sides keeps the other row,
    which is why the swap property below is tested on pairs without ties."""
    assert differing_cells(grid_html([["a"], ["b"]]), grid_html([["b"], ["a"]])) == [
        {"change": "deletion", "truth": cell(1, 0, "b"), "pred": None},
        {"change": "insertion", "truth": None, "pred": cell(0, 0, "b")},
    ]


def test_text_is_the_teds_content_with_whitespace_collapsed() -> None:
    truth = wrap("<tr><td> a\n  b </td><td><b>x</b></td><th> y </th>\n</tr>")
    pred = wrap("<tr><td>a b</td><td>x</td><th>y</th></tr>")
    # Whitespace never differs; inline markup does, as TEDS counts it.
    assert differing_cells(truth, pred) == [
        {"change": "substitution", "truth": cell(0, 1, "<b>x</b>"), "pred": cell(0, 1, "x")}
    ]


def test_bare_and_wrapped_tables_read_alike() -> None:
    inner = "<thead><tr><td>a</td></tr></thead><tbody><tr><td>b</td></tr></tbody>"
    assert differing_cells(f"<table>{inner}</table>", wrap(inner)) == []
    assert differing_cells(f"<div><p>x</p><table>{inner}</table></div>", wrap(inner)) == []


def test_normalise_applies_the_teds_normalisation() -> None:
    truth, pred = wrap("<tr><th>Ａ</th></tr>"), wrap("<tr><td>A</td></tr>")
    assert differing_cells(truth, pred, normalise=True) == []
    assert differing_cells(truth, pred) == [
        {"change": "substitution", "truth": cell(0, 0, "Ａ"), "pred": cell(0, 0, "A")}
    ]


def test_empty_table_against_cells() -> None:
    full = grid_html([["a"]])
    assert differing_cells(wrap(""), full) == [
        {"change": "insertion", "truth": None, "pred": cell(0, 0, "a")}
    ]
    assert differing_cells(full, wrap("")) == [
        {"change": "deletion", "truth": cell(0, 0, "a"), "pred": None}
    ]


def test_summary_counts_every_kind() -> None:
    records = differing_cells(grid_html(ABC), grid_html([["a", "B"], ["e", "f"], ["g", "h"]]))
    assert cell_diff_summary(records) == {"substitution": 1, "deletion": 2, "insertion": 2}
    assert cell_diff_summary([]) == {"substitution": 0, "deletion": 0, "insertion": 0}


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ("", "empty HTML"),
        ("  \n ", "empty HTML"),
        ("<html><body><p>no table</p></body></html>", "no <table>"),
        (wrap('<tr><td colspan="x">a</td></tr>'), "not an integer"),
        (None, "expected an HTML string"),
    ],
)
@pytest.mark.parametrize("side", ["truth", "prediction"])
def test_bad_input_raises_input_error(bad: Any, reason: str, side: str) -> None:
    good = grid_html([["a"]])
    args = (bad, good) if side == "truth" else (good, bad)
    with pytest.raises(InputError, match=reason) as info:
        differing_cells(*args)
    assert info.value.where == side


# --- properties -----------------------------------------------------------------------------

TEXTS = st.sampled_from(["", "a", "b", "ab", "a b", "<b>a</b>"])
SPANNED_CELL = st.tuples(TEXTS, st.integers(1, 3), st.integers(1, 3))
SPANNED_TABLE = st.lists(st.lists(SPANNED_CELL, min_size=0, max_size=4), min_size=0, max_size=5)


def spanned_html(rows: list[list[tuple[str, int, int]]]) -> str:
    return wrap(
        "".join(
            "<tr>"
            + "".join(f'<td rowspan="{r}" colspan="{c}">{t}</td>' for t, r, c in row)
            + "</tr>"
            for row in rows
        )
    )


@SETTINGS
@given(SPANNED_TABLE)
def test_identical_tables_never_differ(rows: list[list[tuple[str, int, int]]]) -> None:
    html = spanned_html(rows)
    assert differing_cells(html, html) == []


@SETTINGS
@given(SPANNED_TABLE, SPANNED_TABLE)
def test_each_cell_is_listed_at_most_once(
    truth_rows: list[list[tuple[str, int, int]]], pred_rows: list[list[tuple[str, int, int]]]
) -> None:
    records = differing_cells(spanned_html(truth_rows), spanned_html(pred_rows))
    truths = [(r["truth"]["row"], r["truth"]["col"]) for r in records if r["truth"]]
    preds = [(r["pred"]["row"], r["pred"]["col"]) for r in records if r["pred"]]
    assert len(truths) == len(set(truths))
    assert len(preds) == len(set(preds))
    assert truths == sorted(truths)  # reading order
    insertions = [(r["pred"]["row"], r["pred"]["col"]) for r in records if r["truth"] is None]
    assert insertions == sorted(insertions)
    assert json.loads(json.dumps(records)) == records


@st.composite
def edited_pair(draw: st.DrawFn) -> tuple[list[list[str]], list[list[str]], set[str], set[str]]:
    """A span-free truth grid whose cells all have distinct one-character texts, and a
    prediction made from it by deleting, inserting and rewriting rows, columns and cells
    (new texts are fresh characters). Returns both grids and the texts that must be listed:
    truth texts that were deleted or rewritten, predicted texts that are new."""
    fresh = iter(chr(0x4E00 + k) for k in range(10_000))
    n_rows, n_cols = draw(st.integers(1, 5)), draw(st.integers(1, 4))
    truth = [[next(fresh) for _ in range(n_cols)] for _ in range(n_rows)]
    keep_rows = [r for r in range(n_rows) if draw(st.booleans()) or r == 0]
    keep_cols = [c for c in range(n_cols) if draw(st.booleans()) or c == 0]
    pred = [[truth[r][c] for c in keep_cols] for r in keep_rows]
    for row in pred:
        for c in range(len(row)):
            if draw(st.integers(0, 4)) == 0:
                row[c] = next(fresh)
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(pred[0])))
        for row in pred:
            row.insert(at, next(fresh))
    for _ in range(draw(st.integers(0, 2))):
        pred.insert(draw(st.integers(0, len(pred))), [next(fresh) for _ in pred[0]])
    truth_texts = {t for row in truth for t in row}
    pred_texts = {t for row in pred for t in row}
    return truth, pred, truth_texts - pred_texts, pred_texts - truth_texts


@SETTINGS
@given(edited_pair())
def test_exactly_the_edited_cells_are_listed(
    pair: tuple[list[list[str]], list[list[str]], set[str], set[str]],
) -> None:
    truth, pred, changed_truth, new_pred = pair
    records = differing_cells(grid_html(truth), grid_html(pred))
    assert {r["truth"]["text"] for r in records if r["truth"]} == changed_truth
    assert {r["pred"]["text"] for r in records if r["pred"]} == new_pred
    assert all(r["truth"]["text"] != r["pred"]["text"] for r in records if r["truth"] and r["pred"])


@SETTINGS
@given(edited_pair())
def test_swapping_sides_mirrors_the_records(
    pair: tuple[list[list[str]], list[list[str]], set[str], set[str]],
) -> None:
    truth, pred = grid_html(pair[0]), grid_html(pair[1])
    forward, backward = differing_cells(truth, pred), differing_cells(pred, truth)
    assert as_set(swapped(backward)) == as_set(forward)
    assert cell_diff_summary(backward) == {
        "substitution": cell_diff_summary(forward)["substitution"],
        "deletion": cell_diff_summary(forward)["insertion"],
        "insertion": cell_diff_summary(forward)["deletion"],
    }


# --- the bundled PubTabNet pairs ------------------------------------------------------------


def test_pubtabnet_samples() -> None:
    teds = TEDS()
    pairs = sample_pairs()
    differing = 0
    for name, (gt, pred) in pairs.items():
        records = differing_cells(gt, pred)
        # A perfect TEDS means no cell differs, and on these pairs the converse holds too.
        assert (records == []) == (teds(gt, pred) == 1.0), name
        assert json.loads(json.dumps(records)) == records, name
        assert as_set(swapped(differing_cells(pred, gt))) == as_set(records), name
        differing += bool(records)
    assert differing == 15
