"""TEDS / TEDS-S equal table_recognition_metric 0.0.6 (within 1e-12) on generated pairs,
edge cases, the PubTabNet samples and stored scores of large pairs."""

from __future__ import annotations

import json

import pytest
from table_helpers import DATA, reference_score, wrap

from parsescore.table import TEDS
from parsescore.table.synthetic import random_pair

TOL = 1e-12

SMALL_CASES = [(seed, 3 + seed % 10, 2 + seed % 6, seed % 4 == 0) for seed in range(300)]
MEDIUM_CASES = [(5000 + k, 15 + 3 * k, 6 + k, k % 3 == 0) for k in range(6)]


@pytest.mark.parametrize("structure_only", [False, True], ids=["TEDS", "TEDS-S"])
def test_generated_small_pairs(structure_only: bool) -> None:
    ours, worst, mismatches = TEDS(structure_only=structure_only), 0.0, []
    for seed, rows, cols, broken in SMALL_CASES:
        gt, pred = random_pair(seed, rows, cols, broken=broken)
        expected = reference_score(gt, pred, structure_only)
        got = ours(gt, pred)
        worst = max(worst, abs(got - expected))
        if abs(got - expected) > TOL:
            mismatches.append((seed, got, expected))
    assert mismatches == []
    assert worst <= TOL


@pytest.mark.parametrize("case", MEDIUM_CASES, ids=lambda c: f"{c[1]}x{c[2]}")
def test_generated_medium_pairs(case: tuple[int, int, int, bool]) -> None:
    seed, rows, cols, broken = case
    gt, pred = random_pair(seed, rows, cols, broken=broken)
    for structure_only in (False, True):
        assert TEDS(structure_only)(gt, pred) == pytest.approx(
            reference_score(gt, pred, structure_only), abs=TOL
        )


def test_large_pairs_against_stored_reference_scores() -> None:
    """60x15-sized pairs: the reference's scores come from benchmarks/table_make_fixture.py."""
    cases = json.loads((DATA / "reference_large.json").read_text(encoding="utf-8"))["cases"]
    assert len(cases) >= 22
    for case in cases:
        assert TEDS()(case["truth"], case["pred"]) == pytest.approx(case["teds"], abs=TOL)
        assert TEDS(structure_only=True)(case["truth"], case["pred"]) == pytest.approx(
            case["teds_s"], abs=TOL
        )


@pytest.mark.parametrize("structure_only", [False, True], ids=["TEDS", "TEDS-S"])
def test_pubtabnet_samples(
    samples: dict[str, tuple[str, str]],
    sample_reference: dict[str, tuple[float, float]],
    structure_only: bool,
) -> None:
    ours = TEDS(structure_only=structure_only)
    assert len(samples) == 20
    for name, (gt, pred) in samples.items():
        expected = sample_reference[name][int(structure_only)]
        assert ours(gt, pred) == pytest.approx(expected, abs=TOL), name
        # argument order: the reference's own call in the other order gives the same number
        assert ours(pred, gt) == pytest.approx(expected, abs=TOL), name


ROW = "<tr><td>a</td><td>b</td></tr>"
EDGE_CASES: dict[str, tuple[str, str]] = {
    "empty gt": ("", wrap(ROW)),
    "empty pred": (wrap(ROW), ""),
    "bare table (no body) scores 0": ("<table><tr><td>a</td></tr></table>", wrap(ROW)),
    "body without html scores 0": ("<body><table><tr><td>a</td></tr></table></body>", wrap(ROW)),
    "head and body": ("<head></head><body><table>" + ROW + "</table></body>", wrap(ROW)),
    "no table at all": ("<html><body><p>text</p></body></html>", wrap(ROW)),
    "only first table counts": (
        "<html><body><table>" + ROW + "</table><table><tr><td>z</td></tr></table></body></html>",
        wrap(ROW),
    ),
    "table not directly in body": (
        "<html><body><div><table>" + ROW + "</table></div></body></html>",
        wrap(ROW),
    ),
    "th is not a cell": (wrap("<tr><th>a<b>x</b></th><td>b</td></tr>"), wrap(ROW)),
    "th vs td": (wrap("<tr><th>a</th><th>b</th></tr>"), wrap(ROW)),
    "whitespace kept": (wrap("<tr><td> a </td><td>b\n</td></tr>"), wrap(ROW)),
    "entities decoded": (
        wrap("<tr><td>&amp;&lt;&#x4e2d;&nbsp;</td><td>b</td></tr>"),
        wrap("<tr><td>&<中\u00a0</td><td>b</td></tr>"),
    ),
    "inline tags are tokens": (
        wrap("<tr><td><b>a</b></td><td>b<sup>2</sup>x</td></tr>"),
        wrap(ROW),
    ),
    "unk tag has no closing token": (wrap("<tr><td><unk>a</unk></td><td>b</td></tr>"), wrap(ROW)),
    "spans": (wrap('<tr><td colspan="2">a</td></tr><tr><td rowspan="2">b</td></tr>'), wrap(ROW)),
    "span attribute with spaces": (
        wrap('<tr><td colspan=" 2 ">a</td></tr>'),
        wrap('<tr><td colspan="2">a</td></tr>'),
    ),
    "explicit span 1": (wrap('<tr><td colspan="1" rowspan="1">a</td><td>b</td></tr>'), wrap(ROW)),
    "empty cells": (wrap("<tr><td></td><td></td></tr>"), wrap(ROW)),
    "both empty cells": (wrap("<tr><td></td></tr>"), wrap("<tr><td></td></tr>")),
    "thead tbody": (wrap("<thead>" + ROW + "</thead><tbody>" + ROW + "</tbody>"), wrap(ROW + ROW)),
    "comments removed": (wrap("<tr><td>a<!-- c --></td><!-- x --><td>b</td></tr>"), wrap(ROW)),
    "processing instruction": (wrap("<tr><td>a<?pi x?></td><td><?pi y?>b</td></tr>"), wrap(ROW)),
    "nested table in cell": (
        wrap("<tr><td><table><tr><td>x</td></tr></table>y</td><td>b</td></tr>"),
        wrap(ROW),
    ),
    "CJK": (
        wrap("<tr><td>购买方</td><td>纳税人识别号</td></tr>"),
        wrap("<tr><td>购买</td><td>纳税人识别</td></tr>"),
    ),
    "broken: unclosed cells": (wrap("<tr><td>a<td>b<tr><td>c"), wrap(ROW)),
    "broken: stray closing tags": (wrap("<tr><td>a</td></span></td><td>b</tr></tr>"), wrap(ROW)),
    "broken: truncated": ("<html><body><table><tr><td>a</td><td>b", wrap(ROW)),
    "empty table": (wrap(""), wrap(ROW)),
    "two empty tables": (wrap(""), wrap("")),
    "caption and colgroup": (
        wrap("<caption>c</caption><colgroup><col></colgroup>" + ROW),
        wrap(ROW),
    ),
    "uppercase tags": (
        "<HTML><BODY><TABLE><TR><TD>a</TD><TD>B</TD></TR></TABLE></BODY></HTML>",
        wrap(ROW),
    ),
    "doctype": ("<!DOCTYPE html><html><body><table>" + ROW + "</table></body></html>", wrap(ROW)),
}


@pytest.mark.parametrize("name", list(EDGE_CASES))
@pytest.mark.parametrize("structure_only", [False, True], ids=["TEDS", "TEDS-S"])
def test_edge_cases(name: str, structure_only: bool) -> None:
    gt, pred = EDGE_CASES[name]
    for first, second in ((gt, pred), (pred, gt)):
        expected = reference_score(first, second, structure_only)
        assert TEDS(structure_only)(first, second) == pytest.approx(expected, abs=TOL)


def test_zero_cases_are_exactly_zero() -> None:
    for name in ("empty gt", "empty pred", "bare table (no body) scores 0", "no table at all"):
        gt, pred = EDGE_CASES[name]
        assert TEDS()(gt, pred) == 0.0
        assert reference_score(gt, pred) == 0.0


RAISING = {
    "whitespace-only document": " ",
    "non-integer colspan": wrap('<tr><td colspan="x">a</td></tr>'),
    "encoding declaration": '<?xml version="1.0" encoding="utf-8"?>' + wrap(ROW),
}


@pytest.mark.parametrize("name", list(RAISING))
def test_inputs_the_reference_rejects_are_rejected(name: str) -> None:
    bad = RAISING[name]
    with pytest.raises(Exception):  # noqa: B017 - lxml's ParserError is not a ValueError
        reference_score(bad, wrap(ROW))
    with pytest.raises(Exception):  # noqa: B017
        TEDS()(bad, wrap(ROW))


@pytest.mark.parametrize("structure_only", [False, True], ids=["TEDS", "TEDS-S"])
def test_ignore_nodes(structure_only: bool) -> None:
    from table_recognition_metric import TEDS as ReferenceTEDS

    gt = wrap("<thead><tr><td><b>a</b> <i>x</i></td><td>b</td></tr></thead><tr><td>c</td></tr>")
    pred = wrap("<tr><td>a <i>y</i></td><td><b>b</b></td></tr><tr><td>c</td></tr>")
    for ignore in (["b"], ["b", "i", "thead"], ("tbody",), "b", "span", ["td"]):
        expected = ReferenceTEDS(structure_only, ignore_nodes=ignore)(gt, pred)
        assert TEDS(structure_only, ignore_nodes=ignore)(gt, pred) == pytest.approx(
            expected, abs=TOL
        )
