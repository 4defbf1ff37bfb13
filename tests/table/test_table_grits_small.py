"""GriTS of small grids on Python lists (no NumPy) gives the array path's floats bit for bit:
Top, Con and Loc, precision, recall, F and the upper bound, for random grids with spans, holes,
repeated and long texts and boxes (also across the size threshold that picks the path)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.shared.tables import grits as module
from parsescore.shared.tables.grits import GridCell, GritsResult, grits

COORDINATES = st.one_of(
    st.sampled_from([0.0, 0.1, 0.5, 1.0, 2.5, 3.3, -1.0, 1e-3]),
    st.floats(-50, 200, allow_nan=False, width=64),
)
TEXTS = st.one_of(
    st.text("ab ", max_size=6),
    st.sampled_from(["", "a", "购买方", "0.5", "1,000"]),
    st.text("abc", min_size=195, max_size=230),
)


@st.composite
def tables(draw: st.DrawFn, with_boxes: bool) -> list[GridCell]:
    """A grid of up to 4 x 4 slots tiled by spanning cells, some slots left empty."""
    n_rows = draw(st.integers(1, 4))
    n_cols = draw(st.integers(1, 4))
    free = {(r, c) for r in range(n_rows) for c in range(n_cols)}
    cells: list[GridCell] = []
    for r in range(n_rows):
        for c in range(n_cols):
            if (r, c) not in free:
                continue
            height = draw(st.integers(1, n_rows - r))
            width = 1
            while c + width < n_cols and (r, c + width) in free and draw(st.booleans()):
                width += 1
            while any((r + height - 1, c + k) not in free for k in range(width)):
                height -= 1
            rows, cols = tuple(range(r, r + height)), tuple(range(c, c + width))
            free -= {(a, b) for a in rows for b in cols}
            if draw(st.integers(0, 5)) == 0:
                continue  # a hole: slots no cell covers
            box = None
            if with_boxes:
                x0, y0 = draw(COORDINATES), draw(COORDINATES)
                box = (x0, y0, x0 + draw(COORDINATES), y0 + draw(COORDINATES))
            cells.append(GridCell(rows, cols, draw(TEXTS), box))
    return cells


@contextmanager
def path(name: str) -> Iterator[None]:
    """GriTS on lists whatever the size ("lists"), or on arrays with the compiled kernels."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "PYTHON_REWARDS_BUDGET", 10**12)
        if name == "arrays":
            patch.setattr(module, "COMPILED_FROM", -1)
            yield
        else:
            patch.setattr(module, "COMPILED_FROM", 10**12)
            patch.delitem(sys.modules, "parsescore.shared.tables.grits_compiled", raising=False)
            yield


def _bits(result: GritsResult) -> dict[str, Any]:
    return {key: (None if v is None else v.hex()) for key, v in result.as_dict().items()}


@settings(max_examples=300, deadline=None)
@given(
    st.booleans().flatmap(lambda boxes: st.tuples(tables(boxes), tables(boxes))),
    st.sampled_from(["enclosing", "union"]),
    st.sampled_from(["difflib", "exact"]),
)
def test_lists_and_arrays_give_the_same_bits(
    pair: tuple[list[GridCell], list[GridCell]], iou: Any, lcs: Any
) -> None:
    truth, answer = pair
    with path("arrays"):
        arrays = grits(truth, answer, iou=iou, lcs=lcs)
    with path("lists"):
        lists = grits(truth, answer, iou=iou, lcs=lcs)
    assert _bits(lists) == _bits(arrays)
    assert (lists.loc is None) == (arrays.loc is None)


@settings(max_examples=60, deadline=None)
@given(tables(True), tables(True), st.integers(0, 300))
def test_across_the_threshold(truth: list[GridCell], answer: list[GridCell], limit: int) -> None:
    """With the path picked by size (``COMPILED_FROM`` near the pair's slot pairs), the same
    bits as the arrays' path; pairs at or below the limit are scored on lists."""
    with path("arrays"):
        arrays = grits(truth, answer)
    picked: list[str] = []
    lists_path, arrays_path = module._grits_lists, module._grits_arrays
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "PYTHON_REWARDS_BUDGET", 10**12)
        patch.setattr(module, "COMPILED_FROM", limit)
        patch.delitem(sys.modules, "parsescore.shared.tables.grits_compiled", raising=False)
        patch.setattr(module, "_grits_lists", lambda *a: picked.append("lists") or lists_path(*a))
        patch.setattr(
            module, "_grits_arrays", lambda *a: picked.append("arrays") or arrays_path(*a)
        )
        chosen = grits(truth, answer)
    assert _bits(chosen) == _bits(arrays)
    slot_pairs = len(module._Grid(truth).relspan) * len(module._Grid(answer).relspan)
    assert picked == ["lists" if slot_pairs <= limit else "arrays"]


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
@pytest.mark.parametrize("value", [float("nan"), float("inf"), 1e39])
def test_boxes_beyond_float32_take_the_array_path(value: float) -> None:
    """NaN, infinite and float32-overflowing boxes are scored on arrays (NumPy's own casts and
    NaN rules), whatever the size."""
    truth = [GridCell((0,), (0,), "a", (0.0, 0.0, value, 1.0))]
    answer = [GridCell((0,), (0,), "a", (0.0, 0.0, 1.0, 1.0))]
    picked: list[str] = []
    arrays_path = module._grits_arrays
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            module, "_grits_arrays", lambda *a: picked.append("arrays") or arrays_path(*a)
        )
        grits(truth, answer)
    assert picked == ["arrays"]


def test_the_python_and_compiled_kernels_agree_on_a_big_random_grid() -> None:
    """The one kernel source: lists in Python and arrays compiled, on a 12 x 9 by 10 x 11 grid
    of random rewards with many ties."""
    import random

    import numpy as np

    rng = random.Random(29)
    rewards = np.array([rng.choice([0.0, 0.25, 0.5, 1.0, rng.random()]) for _ in range(11880)])
    rewards = rewards.reshape(12, 9, 10, 11)
    with path("lists"):
        python = module.factored_2dmss(rewards)
    with path("arrays"):
        compiled = module.factored_2dmss(rewards)
    assert python == compiled
