"""Hypothesis properties: self-similarity 1, scores in [0, 1], argument order irrelevant."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_helpers import reference_score

from parsescore.table import TEDS
from parsescore.table.synthetic import random_pair, random_table_html

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
sizes = st.tuples(st.integers(1, 8), st.integers(1, 5))
cell_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=6)


def _table(rows: list[list[str]]) -> str:
    from html import escape

    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<html><body><table>{body}</table></body></html>"


tables = st.lists(st.lists(cell_text, min_size=1, max_size=4), min_size=1, max_size=5).map(_table)


@SETTINGS
@given(seed=st.integers(0, 10**6), size=sizes, structure_only=st.booleans())
def test_a_table_scores_one_against_itself(
    seed: int, size: tuple[int, int], structure_only: bool
) -> None:
    import random

    html = random_table_html(random.Random(seed), *size)
    assert TEDS(structure_only)(html, html) == 1.0


@SETTINGS
@given(gt=tables, pred=tables, structure_only=st.booleans())
def test_scores_bounded_and_symmetric(gt: str, pred: str, structure_only: bool) -> None:
    """TEDS is not clamped (as in the reference): the distance can exceed the larger tree, but
    it is at most n1 + n2 - 2 (roots mapped), so -1 < score <= 1."""
    ours = TEDS(structure_only)
    forward, backward = ours(gt, pred), ours(pred, gt)
    assert -1.0 < forward <= 1.0
    assert forward == pytest.approx(backward, abs=1e-12)


@st.composite
def _same_shape_pair(draw: st.DrawFn) -> tuple[str, str]:
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=5))
    gt = [[draw(cell_text) for _ in range(n)] for n in shape]
    pred = [[draw(cell_text) for _ in range(n)] for n in shape]
    return _table(gt), _table(pred)


@SETTINGS
@given(pair=_same_shape_pair(), structure_only=st.booleans())
def test_well_formed_same_shape_tables_score_in_unit_interval(
    pair: tuple[str, str], structure_only: bool
) -> None:
    """Same structure, any cell texts: distance <= number of cells < nodes, so 0 < score <= 1."""
    gt, pred = pair
    score = TEDS(structure_only)(gt, pred)
    assert 0.0 < score <= 1.0
    if structure_only:
        assert score == 1.0


def test_negative_score_like_the_reference() -> None:
    """Found by hypothesis: mismatched rows and texts give a distance of 12 over 11 nodes."""
    gt = _table([[""], ["0", "0"], ["0", "0"], ["0"]])
    pred = _table([["", "", "", ""], ["", "", "", ""]])
    expected = reference_score(gt, pred)
    assert expected == pytest.approx(1 - 12 / 11, abs=1e-15)
    assert TEDS()(gt, pred) == pytest.approx(expected, abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), size=sizes, structure_only=st.booleans())
def test_argument_order_matches_the_reference_both_ways(
    seed: int, size: tuple[int, int], structure_only: bool
) -> None:
    gt, pred = random_pair(seed, size[0] + 1, size[1] + 1, broken=seed % 3 == 0)
    ours = TEDS(structure_only)
    for first, second in ((gt, pred), (pred, gt)):
        assert ours(first, second) == pytest.approx(
            reference_score(first, second, structure_only), abs=1e-12
        )


@SETTINGS
@given(text=st.text(max_size=200))
def test_arbitrary_text_never_crashes_differently_from_the_reference(text: str) -> None:
    """Fuzz: on any string we either both return the same score or both raise."""
    other = "<html><body><table><tr><td>a</td></tr></table></body></html>"
    try:
        expected: float | None = reference_score(text, other)
    except Exception:
        expected = None
    if expected is None:
        with pytest.raises(Exception):  # noqa: B017 - lxml's ParserError or ValueError
            TEDS()(text, other)
    else:
        assert TEDS()(text, other) == pytest.approx(expected, abs=1e-12)


@SETTINGS
@given(seed=st.integers(0, 10**6), structure_only=st.booleans())
def test_rename_cost_matrix_is_symmetric(seed: int, structure_only: bool) -> None:
    """rename(a, b) == rename(b, a) for every class pair, so the distance is symmetric."""
    import numpy as np

    from parsescore.shared.tables.score import rename_costs

    gt, pred = random_pair(seed, 5, 4)
    ours = TEDS(structure_only)
    first, second = ours.tree(gt), ours.tree(pred)
    assert first is not None and second is not None
    forward = rename_costs(first.keys, second.keys)
    backward = rename_costs(second.keys, first.keys)
    assert np.array_equal(forward, backward.T)
    assert ((forward >= 0) & (forward <= 1)).all()


_TAGS = ["td", "th", "tr", "thead", "tbody", "tfoot", "b", "i", "span", "unk", "div", "sup"]


@st.composite
def _markup(draw: st.DrawFn, depth: int = 0) -> str:
    """Random, often invalid, nesting of table and inline tags with text and entities."""
    parts = []
    for _ in range(draw(st.integers(0, 4 if depth < 3 else 1))):
        kind = draw(st.integers(0, 9))
        if kind < 3 or depth >= 4:
            parts.append(draw(st.sampled_from(["a", " ", "购", "&amp;", "x y", "\n", "&#233;"])))
        else:
            tag = draw(st.sampled_from(_TAGS))
            attrs = ""
            if tag in ("td", "th") and draw(st.booleans()):
                attrs = f' colspan="{draw(st.integers(1, 3))}" rowspan="{draw(st.integers(1, 2))}"'
            inner = draw(_markup(depth + 1))
            closing = f"</{tag}>" if draw(st.integers(0, 5)) else ""
            parts.append(f"<{tag}{attrs}>{inner}{closing}")
    return "".join(parts)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gt=_markup(), pred=_markup(), structure_only=st.booleans())
def test_random_markup_matches_the_reference(gt: str, pred: str, structure_only: bool) -> None:
    """Arbitrary (broken) nesting of table and inline tags: same score as the reference."""
    gt_html = f"<html><body><table>{gt}</table></body></html>"
    pred_html = f"<html><body><table>{pred}</table></body></html>"
    expected = reference_score(gt_html, pred_html, structure_only)
    assert TEDS(structure_only)(gt_html, pred_html) == pytest.approx(expected, abs=1e-12)
