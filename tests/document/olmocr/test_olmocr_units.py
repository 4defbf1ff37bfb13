"""Unit-level parity with the reference's own functions (``golden/units.json``): fuzzysearch's
near-match starts, olmOCR-bench's HTML and Markdown table graphs (BeautifulSoup's html.parser
tree), its text normalisation and its repetition count."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from parsescore.document.olmocr.tables import CellGraph, html_tables, markdown_tables
from parsescore.document.olmocr.textops import (
    near_match_groups,
    near_match_starts,
    normalise,
    raw_near_matches,
    tail_repeats,
)

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from unit_inputs import FORMULA_PAIRS, HTML, MARKDOWN, NEAR, TEXTS  # noqa: E402

GOLDEN = json.loads((HERE / "golden" / "units.json").read_text(encoding="utf-8"))


def _table(table: CellGraph) -> dict[str, Any]:
    def rel(relation: dict[tuple[int, int], set[tuple[int, int]]]) -> list[Any]:
        return sorted([list(k), sorted(list(v) for v in vs)] for k, vs in relation.items())

    return {
        "cells": sorted([r, c, t] for (r, c), t in table.cells.items()),
        "headings": sorted(list(h) for h in table.headings),
        "up": rel(table.up),
        "down": rel(table.down),
        "left": rel(table.left),
        "right": rel(table.right),
        "top_headings": sorted([list(k), sorted(list(v) for v in table.top_headings(k))]
                               for k in table.cells),
        "left_headings": sorted([list(k), sorted(list(v) for v in table.left_headings(k))]
                                for k in table.cells),
    }  # fmt: skip


def test_near_matches_as_fuzzysearch() -> None:
    """fuzzysearch's candidates exactly; after merging, one start per group as it reports them
    (where a group has equally good matches its pick follows the hash seed: the recorded pick
    is then one of the group's ties, and ours the earliest of them)."""
    assert len(GOLDEN["near"]) == len(NEAR)
    ties = 0
    for (needle, text, dist), want, raw in zip(NEAR, GOLDEN["near"], GOLDEN["near_raw"],
                                               strict=True):  # fmt: skip
        case = (needle, text, dist)
        if dist > 0:
            assert [list(m) for m in raw_near_matches(needle, text, dist, compiled=True)] == raw
            assert raw_near_matches(needle, text, dist, compiled=False) == [tuple(m) for m in raw]
        groups = near_match_groups(needle, text, dist)
        assert len(groups) == len(want), case
        for options, start in zip(groups, want, strict=True):
            assert start in options, case
            ties += len(options) > 1
        assert near_match_starts(needle, text, dist) == [min(g) for g in groups]
    assert 0 < ties < len(NEAR) // 4


@pytest.mark.parametrize("index", range(len(HTML)))
def test_html_tables_as_beautifulsoup(index: int) -> None:
    assert [_table(t) for t in html_tables(HTML[index])] == GOLDEN["html"][index]


@pytest.mark.parametrize("index", range(len(MARKDOWN)))
def test_markdown_tables(index: int) -> None:
    assert [_table(t) for t in markdown_tables(MARKDOWN[index])] == GOLDEN["markdown"][index]


def test_normalisation_and_repeats() -> None:
    for text, want in zip(TEXTS, GOLDEN["texts"], strict=True):
        assert normalise(text) == want["normalised"], text
        assert tail_repeats(text, 5) == want["repeats"], text


def test_formula_comparison_as_olmocr_bench(monkeypatch: pytest.MonkeyPatch) -> None:
    """Node's KaTeX (MathML containment, missing characters) and, where they do not decide,
    Debian's Chromium laying the formulas out, against the harness's comparison in Playwright's
    Chromium (a formula KaTeX refuses as the reference passes against anything: its quirk)."""
    from katex_ref import katex_dir

    from parsescore.document.olmocr import maths

    monkeypatch.setenv(maths.KATEX_DIR_ENV, str(katex_dir()))
    assert maths.renderer_available() and maths.browser() is not None
    decided: dict[int, bool] = {}
    for k, (reference, candidate) in enumerate(FORMULA_PAIRS):
        with contextlib.suppress(maths.NeedsLayout):
            decided[k] = maths._compare(maths.render(reference), maths.render(candidate))
    assert 0 < len(decided) < len(FORMULA_PAIRS)
    boxes = maths.layout([f for k, pair in enumerate(FORMULA_PAIRS) if k not in decided
                          for f in pair])  # one Chromium run  # fmt: skip
    for k, ((reference, candidate), want) in enumerate(zip(FORMULA_PAIRS, GOLDEN["maths"],
                                                           strict=True)):  # fmt: skip
        got = decided[k] if k in decided else maths.same_layout(boxes[reference],
                                                                 boxes[candidate])  # fmt: skip
        assert got == want, (reference, candidate)
