"""score.rename_costs (arrays) and score.rename_cost_rows (lists, small pairs) against the
reference's rename rule written out pair by pair, and against each other bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from parsescore.shared.tables import score
from parsescore.shared.tables.score import rename_cost_rows, rename_costs
from parsescore.shared.tables.tree import NodeKey

# One-character tokens include the first code points the encoding hands out and a private
# use one; longer tokens are inline tags.
_TOKENS = ["a", "b", " ", "\x00", "\x01", "\x02", "\ue000", "购", "<b>", "</b>", "<i>", "</i>"]


@st.composite
def _key(draw: st.DrawFn) -> NodeKey:
    tag = draw(st.sampled_from(["td", "td", "td", "tr", "th", "b", "table"]))
    if tag != "td":
        return (tag, None, None, None)
    spans = draw(st.sampled_from([(1, 1), (1, 1), (2, 1), (1, 2)]))
    content = tuple(draw(st.lists(st.sampled_from(_TOKENS), max_size=6)))
    return (tag, spans[0], spans[1], content)


def _rule(a: NodeKey, b: NodeKey) -> float:
    if a[:3] != b[:3]:
        return 1.0
    if a[0] == "td" and (a[3] or b[3]):
        first, second = list(a[3] or ()), list(b[3] or ())
        return Levenshtein.distance(first, second) / max(len(first), len(second))
    return 0.0


@settings(max_examples=300, deadline=None)
@given(st.lists(_key(), min_size=1, max_size=12), st.lists(_key(), min_size=1, max_size=12))
def test_every_class_pair_follows_the_rule(keys1: list[NodeKey], keys2: list[NodeKey]) -> None:
    keys1 = list(dict.fromkeys(keys1))  # classes are distinct labels
    keys2 = list(dict.fromkeys(keys2))
    costs = rename_costs(keys1, keys2)
    expected = np.array([[_rule(a, b) for b in keys2] for a in keys1])
    assert costs.shape == expected.shape
    assert np.array_equal(costs, expected)


@settings(max_examples=300, deadline=None)
@given(st.lists(_key(), min_size=1, max_size=12), st.lists(_key(), min_size=1, max_size=12))
def test_rows_are_the_arrays_floats(keys1: list[NodeKey], keys2: list[NodeKey]) -> None:
    keys1 = list(dict.fromkeys(keys1))
    keys2 = list(dict.fromkeys(keys2))
    rows = rename_cost_rows(keys1, keys2)
    assert rows == rename_costs(keys1, keys2).tolist()
    assert all(type(value) is float for row in rows for value in row)


@settings(max_examples=150, deadline=None)
@given(st.lists(_key(), min_size=1, max_size=12), st.lists(_key(), min_size=1, max_size=12),
       st.integers(1, 40))  # fmt: skip
def test_distances_asked_a_few_rows_at_a_time_are_the_same(
    keys1: list[NodeKey], keys2: list[NodeKey], chunk: int
) -> None:
    """``cdist`` asked for ``chunk`` distances at a time (one row, several, all of them)."""
    keys1 = list(dict.fromkeys(keys1))
    keys2 = list(dict.fromkeys(keys2))
    whole = rename_costs(keys1, keys2)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(score, "CDIST_CHUNK", chunk)
        assert np.array_equal(rename_costs(keys1, keys2), whole)


@settings(max_examples=100, deadline=None)
@given(st.lists(_key(), min_size=1, max_size=12), st.lists(_key(), min_size=1, max_size=12))
def test_written_into_out(keys1: list[NodeKey], keys2: list[NodeKey]) -> None:
    """``out`` (holding anything before) receives the same floats and is what is returned."""
    keys1 = list(dict.fromkeys(keys1))
    keys2 = list(dict.fromkeys(keys2))
    out = np.full((len(keys1), len(keys2)), np.nan)
    assert rename_costs(keys1, keys2, out=out) is out
    assert np.array_equal(out, rename_costs(keys1, keys2))
