"""GriTS: parity with table-transformer's values on grits_10.json, hand-computed grids, and
cases that tell the implementation variants apart (IoU denominator, LCS)."""

from __future__ import annotations

import json
import subprocess
import sys
from html import escape
from pathlib import Path

import pytest
from lxml import html as lxml_html
from table_helpers import DATA

from cli_helpers import Cli
from parsescore.shared.tables.grits import (
    GridCell,
    _iou_matrix,
    cells_from_table,
    grits,
    lcs_similarity,
)

GRITS_CASES = json.loads((DATA / "grits" / "grits_10.json").read_text(encoding="utf-8"))
KEYS = (
    [f"grits_{m}" for m in ("top", "con", "loc")]
    + [f"grits_{p}_{m}" for m in ("top", "con", "loc") for p in ("precision", "recall")]
    + [f"grits_{m}_upper_bound" for m in ("top", "con", "loc")]
)


def _cells(raw: list[dict]) -> list[GridCell]:
    return [GridCell.from_mapping(c, where=f"cell {i}") for i, c in enumerate(raw)]


@pytest.fixture(params=["python", "compiled"])
def kernel_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run GriTS's dynamic programmes in Python, or compiled, whatever the size."""
    from parsescore.shared.tables import grits as module

    monkeypatch.setattr(module, "PYTHON_REWARDS_BUDGET", 10**12)
    if request.param == "compiled":
        monkeypatch.setattr(module, "COMPILED_FROM", -1)
    else:
        monkeypatch.setattr(module, "COMPILED_FROM", 10**12)
        monkeypatch.delitem(sys.modules, "parsescore.shared.tables.grits_compiled", raising=False)
    return str(request.param)


@pytest.mark.parametrize("case", GRITS_CASES, ids=lambda c: c["id"])
def test_grits_10_bit_exact(case: dict, kernel_path: str) -> None:
    """Both kernel paths (Python for small grids, numba for big) give the reference's bits."""
    result = grits(_cells(case["true_cells"]), _cells(case["pred_cells"])).as_dict()
    for key in KEYS:
        assert result[key] == case[key], key


def _cells_to_html(raw: list[dict]) -> str:
    rows: dict[int, list[dict]] = {}
    for cell in raw:
        rows.setdefault(min(cell["row_nums"]), []).append(cell)
    n_rows = max(max(c["row_nums"]) for c in raw) + 1
    body = ""
    for r in range(n_rows):
        tds = ""
        for cell in sorted(rows.get(r, []), key=lambda c: min(c["column_nums"])):
            attrs = ""
            if len(cell["column_nums"]) > 1:
                attrs += f' colspan="{len(cell["column_nums"])}"'
            if len(cell["row_nums"]) > 1:
                attrs += f' rowspan="{len(cell["row_nums"])}"'
            tds += f"<td{attrs}>{escape(cell['cell_text'])}</td>"
        body += f"<tr>{tds}</tr>"
    return f"<html><body><table>{body}</table></body></html>"


@pytest.mark.parametrize("case", GRITS_CASES[:6], ids=lambda c: c["id"])
def test_grits_from_html_matches_top_and_con(case: dict) -> None:
    """As upstream's HTML route: cells → HTML → our HTML reader → same Top and Con."""
    tables = []
    for side in ("true_cells", "pred_cells"):
        root = lxml_html.fromstring(_cells_to_html(case[side]))
        tables.append(cells_from_table(root.xpath("body/table")[0]))
    result = grits(*tables)
    assert result.loc is None
    assert result.top.fscore == pytest.approx(case["grits_top"], rel=1e-12)
    assert result.con.fscore == pytest.approx(case["grits_con"], rel=1e-12)


def test_identical_grid_scores_one() -> None:
    cells = [
        GridCell((r,), (c,), f"{r}{c}", (c, r, c + 1, r + 1)) for r in range(3) for c in range(2)
    ]
    result = grits(cells, cells)
    for score in (result.top, result.con, result.loc):
        assert score is not None
        assert (score.fscore, score.precision, score.recall, score.upper_bound) == (
            1.0,
            1.0,
            1.0,
            1.0,
        )


def test_missing_column_hand_computed() -> None:
    # truth 2x2 (a b / c d); prediction keeps only the first column (a / c).
    truth = [
        GridCell((0,), (0,), "a"),
        GridCell((0,), (1,), "b"),
        GridCell((1,), (0,), "c"),
        GridCell((1,), (1,), "d"),
    ]
    pred = [GridCell((0,), (0,), "a"), GridCell((1,), (0,), "c")]
    result = grits(truth, pred)
    # 2 of 4 true slots matched perfectly: precision 1, recall 1/2, F = 2/3.
    for score in (result.top, result.con):
        assert (score.precision, score.recall) == (1.0, 0.5)
        assert score.fscore == 2 * 1.0 * 0.5 / 1.5
    assert result.loc is None  # no boxes given


def test_spanning_cell_vs_split_cells_hand_computed() -> None:
    # one cell spanning two columns vs two 1x1 cells: every slot-pair IoU is 1/2.
    truth = [GridCell((0,), (0, 1), "ab")]
    pred = [GridCell((0,), (0,), "a"), GridCell((0,), (1,), "b")]
    top = grits(truth, pred).top
    assert (top.fscore, top.precision, top.recall) == (0.5, 0.5, 0.5)
    con = grits(truth, pred).con
    # "ab" vs "a" and "ab" vs "b": 2*1/3 each, two slots → 4/3 over 2 slots.
    assert con.fscore == pytest.approx(2 / 3, abs=1e-15)


def test_empty_tables() -> None:
    one = [GridCell((0,), (0,), "a")]
    assert grits([], []).top.fscore == 1.0
    assert grits(one, []).top.fscore == 0.0
    assert grits([], one).top.recall == 1.0


def test_iou_variants_differ_on_crossing_boxes() -> None:
    """README difference 1: [-1,0,1,1] vs [0,-1,1,1] gives 1/4 (enclosing) vs 1/3 (union)."""
    import numpy as np

    a = np.array([[0.0, 0.0, 2.0, 2.0], [-1.0, 0.0, 1.0, 1.0]])
    b = np.array([[1.0, 1.0, 3.0, 3.0], [0.0, -1.0, 1.0, 1.0]])
    enclosing = _iou_matrix(a, b, "enclosing")
    union = _iou_matrix(a, b, "union")
    assert enclosing[0, 0] == 1 / 9 and union[0, 0] == 1 / 7
    assert enclosing[1, 1] == 0.25 and union[1, 1] == 1 / 3
    # A whole table where the choice changes GriTS-Top (hand computed, identity alignment):
    # slots (0,0) 1/2, (0,1) 1/4 vs 1/3, (1,0) 1, (1,1) 1/2 → sums 2.25 vs 7/3 over 4 slots.
    truth = [GridCell((0,), (0, 1)), GridCell((1,), (0,)), GridCell((1,), (1,))]
    pred = [GridCell((0,), (0,)), GridCell((0, 1), (1,)), GridCell((1,), (0,))]
    assert grits(truth, pred, iou="enclosing").top.fscore == pytest.approx(2.25 / 4, abs=1e-15)
    assert grits(truth, pred, iou="union").top.fscore == pytest.approx((7 / 3) / 4, abs=1e-15)


def test_lcs_variants_differ() -> None:
    """README difference 2: difflib's blocks find 3 common characters, a true LCS 4."""
    assert lcs_similarity("abcXbca", "bcaYabc") == 3 / 7
    assert lcs_similarity("abcXbca", "bcaYabc", lcs="exact") == 4 / 7
    assert lcs_similarity("", "") == 1.0
    truth, pred = [GridCell((0,), (0,), "abcXbca")], [GridCell((0,), (0,), "bcaYabc")]
    assert grits(truth, pred).con.fscore == pytest.approx(3 / 7, abs=1e-15)
    assert grits(truth, pred, lcs="exact").con.fscore == pytest.approx(4 / 7, abs=1e-15)


def test_cells_from_html_placement() -> None:
    table = lxml_html.fromstring(
        "<html><body><table><thead><tr><th rowspan='2'>a</th><th colspan='2'>b <b>c</b></th></tr>"
        "<tr><td>d</td><td>e</td></tr></thead><tr><td>f</td><td colspan='2'>g</td></tr>"
        "</table></body></html>"
    ).xpath("body/table")[0]
    cells = cells_from_table(table)
    placed = [(c.row_nums, c.column_nums, c.text, c.header) for c in cells]
    assert placed == [
        ((0, 1), (0,), "a", True),
        ((0,), (1, 2), "b  c", True),
        ((1,), (1,), "d", True),
        ((1,), (2,), "e", True),
        ((2,), (0,), "f", False),
        ((2,), (1, 2), "g", False),
    ]


def test_bad_cell_mapping_is_named() -> None:
    from parsescore.core.errors import InputError

    with pytest.raises(InputError, match="cell 3"):
        GridCell.from_mapping({"row_nums": "x"}, where="cell 3")


def test_grits_command_against_stored_values(tmp_path: Path, cli: Cli) -> None:
    (tmp_path / "t.json").write_text(json.dumps({c["id"]: c["true_cells"] for c in GRITS_CASES}))
    (tmp_path / "p.json").write_text(
        json.dumps({c["id"]: c["pred_cells"] for c in GRITS_CASES[:-1]})
    )
    out = tmp_path / "out.json"
    args = ["grits", "--truth", str(tmp_path / "t.json"), "--pred", str(tmp_path / "p.json")]
    result = cli(*args, "--out", out)
    assert result.code == 0, result.err
    doc = json.loads(out.read_text())
    last = GRITS_CASES[-1]["id"]
    assert doc["missing"] == [last]
    for variant in ("top", "con", "loc"):
        label = f"GriTS-{variant.capitalize()}"
        expected = {c["id"]: c[f"grits_{variant}"] for c in GRITS_CASES[:-1]} | {last: 0.0}
        assert doc["metrics"][label]["scores"] == expected
        assert doc["metrics"][label]["mean"] == pytest.approx(sum(expected.values()) / 10)
    assert doc["metric"] == "GriTS-Con" and doc["scores"] == doc["metrics"]["GriTS-Con"]["scores"]


def test_grits_command_bad_cell(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from parsescore.core.errors import InputError
    from parsescore.table.inputs import load_cell_tables

    (tmp_path / "t.json").write_text(json.dumps({"x": [{"row_nums": [0], "column_nums": []}]}))
    with pytest.raises(InputError, match=r"t.json \(key 'x', cell 0\): 'row_nums'"):
        load_cell_tables(tmp_path / "t.json")


def test_compiled_difflib_equals_difflib_on_tie_prone_strings(kernel_path: str) -> None:
    """The compiled block recursion gives difflib's numbers (many ties, long right sides)."""
    import random
    from difflib import SequenceMatcher

    from parsescore.shared.tables.grits import _text_similarities

    rng = random.Random(7)
    for _ in range(60):
        alphabet = rng.choice(["ab", "abc", "0123456789.,", "购买方税率 "])
        left = list(
            dict.fromkeys(
                "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(6)
            )
        )
        right = list(
            dict.fromkeys(
                "".join(rng.choice(alphabet) for _ in range(rng.choice([5, 30, 230])))
                for _ in range(6)
            )
        )
        got = _text_similarities(left, right, "difflib")
        for i, a in enumerate(left):
            for j, b in enumerate(right):
                blocks = SequenceMatcher(None, a, b).get_matching_blocks()
                expected = (
                    1.0 if not a and not b else 2 * sum(x.size for x in blocks) / (len(a) + len(b))
                )
                assert got[i, j] == expected, (a, b)


def test_enclosing_iou_uses_pymupdf_float32_rectangles() -> None:
    """table-transformer's Rect.intersect/include_rect run on MuPDF's float32 fz_rect:
    Rect([0.1, 0, 1, 1]) holds x0 = float32(0.1) = 0.10000000149011612."""
    import numpy as np

    a = np.array([[0.1, 0.0, 1.0, 1.0]])
    b = np.array([[0.0, 0.0, 1.0, 1.0]])
    float32_x0 = 0.10000000149011612
    assert _iou_matrix(a, b, "enclosing")[0, 0] == (1.0 - float32_x0) * 1.0 / 1.0
    inter = 1.0 - 0.1  # double precision: 0.9
    assert _iou_matrix(a, b, "union")[0, 0] == inter / ((inter + 1.0) - inter)


def test_the_grits_function_is_not_shadowed_by_its_module() -> None:
    """``parsescore.table.grits`` is the function docs/table.md calls, on every access, also
    after its module was imported (it once was the module from the second access on)."""
    script = (
        "import parsescore.table as t\n"
        "from parsescore.table import GridCell\n"
        "cells = [GridCell((0,), (0,), 'a')]\n"
        "first = t.grits(cells, cells).con.fscore\n"
        "second = t.grits(cells, cells).con.fscore\n"
        "import parsescore.shared.tables.grits\n"
        "from parsescore.table import grits\n"
        "print(first, second, grits(cells, cells).con.fscore, t.grits is grits)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1.0", "1.0", "1.0", "True"]
