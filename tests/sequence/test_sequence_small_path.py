"""A small pair's line pairing runs on Python lists (no NumPy import); a big one on arrays.
Both give the same pairs, distances and counts: forced onto either path, every script pair
scores alike, ties included (few names and words, many equal distances)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.sequence import metrics
from parsescore.sequence.metrics import compare_scripts

NAMES = ["A", "B", "C"]
ARROWS = ["->", "-->", "->>", "<-"]
WORDS = ["hi", "ok", "get", "x"]

lines = st.lists(
    st.tuples(st.sampled_from(NAMES), st.sampled_from(ARROWS), st.sampled_from(NAMES),
              st.lists(st.sampled_from(WORDS), max_size=2)).map(
        lambda a: f"{a[0]} {a[1]} {a[2]}" + (f" : {' '.join(a[3])}" if a[3] else "")
    ),
    max_size=24,
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(lines, lines)
def test_lists_and_arrays_score_alike(truth: list[str], pred: list[str]) -> None:
    truth_text, pred_text = "\n".join(truth) or "A -> B", "\n".join(pred) or "B -> A"
    on_lists = compare_scripts(truth_text, pred_text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(metrics, "LIST_ENTRIES", -1)
        on_arrays = compare_scripts(truth_text, pred_text)
    assert on_lists == on_arrays


@dataclass(frozen=True)
class _Line:
    canonical: str


@pytest.mark.parametrize("size", [1, 5, 16, 17, 30])
@pytest.mark.parametrize("flip", [False, True])
def test_pairing_is_the_same_on_both_sides_of_the_threshold(size: int, flip: bool) -> None:
    removed = [_Line(f"A -> B : {'x' * (i % 4)}{i % 3}") for i in range(size)]
    added = [_Line(f"A -> B : {'x' * (i % 3)}{i % 2}") for i in range(size + 3)]
    removed_positions = list(range(0, 2 * size, 2))
    added_positions = list(range(size + 3))
    pairs = metrics._pair(removed, added, removed_positions, added_positions, flip=flip)  # type: ignore[arg-type]
    arrays = metrics._pair_arrays(removed, added, removed_positions, added_positions, flip=flip)  # type: ignore[arg-type]
    assert pairs == arrays and all(type(v) is int for pair in pairs for v in pair)
