"""Text normalisation, step by step, and the distance functions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.shared import distance as text
from parsescore.shared.distance import (
    levenshtein,
    levenshtein_with_text_normalisation,
    normalise_text,
    text_costs,
)


@pytest.mark.parametrize(
    ("step", "before", "after"),
    [
        (text.nfc, "e\u0301", "\u00e9"),
        (text.ordinal_superscripts, "1ˢᵗ 2ⁿᵈ 3ʳᵈ 4ᵗʰ xᵗʰ", "1st 2nd 3rd 4th xᵗʰ"),
        (text.line_endings_and_tabs, "a\r\nb\rc\td", "a\nb\nc d"),
        (text.html_break_runs, "a<br><BR/>\n<br />b<br>c", "a<br>b<br>c"),
        (text.bullets, "\u25cf one\n  o two\nold", "• one\n• two\nold"),
        (text.bullets, "\u2610 box \u25e6 x", "• box • x"),
        (text.dashes, "a\u2010b\u2012c\u2013d\u2014e\u2015f\u2212g", "a-b-c-d-e-f-g"),
        (
            text.quotes,
            "\u2018a\u2019 \u201ab\u201b \u201cc\u201d \u201ed\u201f",
            "'a' 'b' \"c\" \"d\"",
        ),
        (text.carets, "219\u02c6 x\u0302", "219^ x^"),
        (text.spaces, "a   b \n  c", "a b\nc"),
        (text.punctuation_spacing, "•Withdrew", "• Withdrew"),
        (text.punctuation_spacing, "-Withdrew", "- Withdrew"),
        (text.punctuation_spacing, "participants , ( n = 5 ) [ a ]", "participants, (n = 5) [a]"),
        (text.punctuation_spacing, "n=5 n =5", "n = 5 n = 5"),
        (text.punctuation_spacing, "mean + SD", "mean+SD"),
        (text.punctuation_spacing, "post - partum, 5 - 10", "post-partum, 5-10"),
        (text.newlines_and_strip, "\n a\n\n\nb \n", "a\nb"),
    ],
)
def test_each_normalisation_step(step, before: str, after: str) -> None:  # type: ignore[no-untyped-def]
    assert step(before) == after


def test_pipeline_order_and_examples() -> None:
    assert text.NORMALISATION_STEPS[0] is text.nfc
    assert text.NORMALISATION_STEPS[-1] is text.newlines_and_strip
    assert normalise_text(" Screened\t(n=10) ") == "Screened (n = 10)"
    assert normalise_text("Follow\u2013up") == "Follow-up"
    assert (
        normalise_text("no LOWER-casing, no accents: café") == "no LOWER-casing, no accents: café"
    )
    # a newline differs from a space by one edit
    assert levenshtein_with_text_normalisation(true_text="a\nb", pred_text="a b") == 1


def test_levenshtein_none_handling() -> None:
    assert levenshtein(true_text=None, pred_text="abc") == 3
    assert levenshtein(true_text="abc", pred_text=None) == 3
    assert levenshtein_with_text_normalisation(true_text=None, pred_text=" ABC ") == 3
    with pytest.raises(ValueError, match="cannot be None"):
        levenshtein(true_text=None, pred_text=None)
    with pytest.raises(ValueError, match="cannot be None"):
        levenshtein_with_text_normalisation(true_text=None, pred_text=None)
    with pytest.raises(TypeError):
        levenshtein("a", "b")  # type: ignore[misc]  # keyword-only, as the protocol says


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(max_size=12), min_size=1, max_size=5),
    st.lists(st.text(max_size=12), min_size=1, max_size=5),
)
def test_cost_matrix_equals_per_pair_calls(true_texts: list[str], pred_texts: list[str]) -> None:
    for fn in (levenshtein, levenshtein_with_text_normalisation):
        costs = text_costs(true_texts, pred_texts, fn)
        for i, t in enumerate(true_texts):
            assert costs.unmatched_true[i] == fn(true_text=t, pred_text=None)
            for j, p in enumerate(pred_texts):
                assert costs.paired[i, j] == fn(true_text=t, pred_text=p)
        for j, p in enumerate(pred_texts):
            assert costs.unmatched_pred[j] == fn(true_text=None, pred_text=p)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40))
def test_normalisation_is_idempotent_on_its_output_shape(s: str) -> None:
    once = normalise_text(s)
    assert once == once.strip()
    assert "\n\n" not in once and "  " not in once
