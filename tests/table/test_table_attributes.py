"""The table kind's item attributes: ``structure`` (PubTabNet's simple/complex split) and
``cells`` (bins of the truth's cell count) — checked against the rule applied here on the
bundled PubTabNet samples, broken down as scoring each value's tables alone, compared per
value, and carried by the envelope (the ``--out`` document, the reference-shaped one, holds
no truth to read them from)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import html as lxml_html

import parsescore
from attribute_checks import (
    check_breakdown_is_the_subsets_totals,
    check_compare_by,
    check_envelope_round_trip,
    native_round_trip,
)
from parsescore.core.errors import InputError
from parsescore.core.kinds import get_kind
from parsescore.core.results import Result
from parsescore.table.attributes import CELL_BINS

SAMPLES = Path(parsescore.__file__).resolve().parent / "data" / "table" / "pubtabnet_samples"
TRUTH = json.loads((SAMPLES / "sample_gt.json").read_text(encoding="utf-8"))
PRED = json.loads((SAMPLES / "sample_pred.json").read_text(encoding="utf-8"))
#: GriTS off: the breakdowns are of TEDS; one GriTS run is enough (the structure test).
FAST = {"grits": False, "quiet": True}


def _spans_and_cells(document: str) -> tuple[bool, int]:
    """PubTabNet's rule, applied here with lxml alone: whether a cell of the table has a
    ``rowspan`` or ``colspan`` above 1, and how many ``td``/``th`` cells it has."""
    table = lxml_html.fromstring(document).find(".//table")
    cells = table.findall(".//td") + table.findall(".//th")
    spans = any(int(c.get(a, "1")) > 1 for c in cells for a in ("rowspan", "colspan"))
    return spans, len(cells)


def _bin(cells: int) -> str:
    return next(label for label, low, high in CELL_BINS if low <= cells <= high)


@pytest.fixture(scope="module")
def result() -> Result:
    return parsescore.evaluate(
        "table", SAMPLES / "sample_gt.json", SAMPLES / "sample_pred.json", quiet=True,
        by=("structure", "cells"),
    )  # fmt: skip


def test_structure_is_pubtabnets_split_of_the_bundled_samples(result: Result) -> None:
    for name, record in TRUTH.items():
        spans, cells = _spans_and_cells(record["html"])
        expected = "complex" if spans else "simple"
        assert record["type"] == expected  # PubTabNet's own label agrees with the rule
        assert result.attributes[name] == {"structure": expected, "cells": _bin(cells)}
    found = {v["structure"] for v in result.attributes.values()}
    assert found == {"simple", "complex"}  # both splits are exercised
    assert len({v["cells"] for v in result.attributes.values()}) >= 3


def test_every_format_is_split_by_the_same_rule() -> None:
    truth = {
        "spans": "| a | b |\n|---|---|\n| 1 | 2 |",  # Markdown has no spans
        "latex": r"\begin{tabular}{cc}\multicolumn{2}{c}{head}\\ 1 & 2\\\end{tabular}",
        "html": "<table><tr><td rowspan='2'>a</td><td>b</td></tr><tr><td>c</td></tr></table>",
        "one": "<table><tr><td colspan='1'>a</td></tr></table>",  # a span of 1 is no span
    }
    got = parsescore.evaluate(
        "table", truth, truth, truth_format="auto", pred_format="auto", **FAST
    ).attributes
    assert {n: v["structure"] for n, v in got.items()} == {
        "spans": "simple",
        "latex": "complex",
        "html": "complex",
        "one": "simple",
    }
    assert got["spans"]["cells"] == got["latex"]["cells"] == "1-25"


@pytest.mark.parametrize("field", ["structure", "cells"])
def test_a_breakdown_is_each_values_tables_scored_alone(field: str) -> None:
    result = parsescore.evaluate(
        "table", SAMPLES / "sample_gt.json", SAMPLES / "sample_pred.json", by=(field,), **FAST
    )

    def score_only(items: list[str]) -> Result:
        return parsescore.evaluate(
            "table", {n: TRUTH[n] for n in items}, {n: PRED[n] for n in items}, **FAST
        )

    found = check_breakdown_is_the_subsets_totals(result, field, score_only)
    assert "TEDS" in found[next(iter(found))]


def test_compare_by_structure_compares_within_each_split(tmp_path: Path, cli) -> None:
    pred = parsescore.evaluate(
        "table", SAMPLES / "sample_gt.json", SAMPLES / "sample_pred.json", name="pred", **FAST
    )
    normalised = parsescore.evaluate(
        "table", SAMPLES / "sample_gt.json", SAMPLES / "sample_pred.json", name="normalised",
        normalise=True, **FAST,
    )  # fmt: skip
    check_compare_by([pred, normalised], "structure", tmp_path, cli)


def test_the_envelope_carries_them_and_the_out_document_does_not(
    result: Result, tmp_path: Path, cli
) -> None:
    loaded = check_envelope_round_trip(result, tmp_path)
    assert loaded.dataset["breakdown"] == result.dataset["breakdown"]
    (native,) = native_round_trip(result, tmp_path)
    assert native.attributes == {}  # the reference-shaped document holds no truth
    with pytest.raises(InputError, match=r"no table item has the attribute 'structure'"):
        parsescore.core.breakdown.groups(native, "structure")
    run = cli("compare", tmp_path / "native.json", tmp_path / "native.json", "--by", "structure")
    assert run.code == 2 and "no table item has the attribute 'structure'" in run.err


def test_the_command_prints_and_keeps_the_breakdown(tmp_path: Path, cli) -> None:
    out = tmp_path / "result.json"
    run = cli(
        "table", "--truth", SAMPLES / "sample_gt.json", "--pred", SAMPLES / "sample_pred.json",
        "--no-grits", "--by", "structure", "--result", out, "--quiet",
    )  # fmt: skip
    assert run.code == 0, run.err
    assert "simple" in run.out and "complex" in run.out
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert list(doc["dataset"]["breakdown"]["structure"]) == ["simple", "complex"]
    declared = {a.name: a.values for a in get_kind("table").attributes}
    assert declared["structure"] == ("simple", "complex")
