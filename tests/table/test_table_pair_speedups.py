"""The shortcuts a small table pair takes give the numbers of the long way: ``score_pair``
(no cell details) equals the one-item dataset's metrics, and GriTS's distinct boxes by dict
give the IoUs ``np.unique`` gave."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore import evaluate, score_pair
from parsescore.shared.tables.grits import _distinct_rows, _iou_matrix
from parsescore.shared.tables.names import IouMode

MODES: list[IouMode] = ["enclosing", "union"]
CELL = st.sampled_from(["a", "b", "ab", "", "x y", "1.5"])


@st.composite
def tables(draw: st.DrawFn) -> str:
    rows = draw(st.lists(st.lists(CELL, min_size=1, max_size=3), min_size=1, max_size=3))
    tag = draw(st.sampled_from(["td", "th"]))
    body = "".join(
        "<tr>" + "".join(f"<{tag}>{text}</{tag}>" for text in row) + "</tr>" for row in rows
    )
    return f"<html><body><table>{body}</table></body></html>"


@settings(max_examples=40, deadline=None)
@given(truth=tables(), answer=tables())
def test_score_pair_is_the_one_item_dataset(truth: str, answer: str) -> None:
    whole = evaluate("table", {"pair": truth}, {"pair": answer}, quiet=True)
    assert score_pair("table", truth, answer) == dict(whole.items["pair"])


BOXES = st.lists(
    st.tuples(*[st.sampled_from([-2.0, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0])] * 4),
    min_size=0,
    max_size=12,
).map(lambda rows: np.array(rows, dtype=np.float64).reshape(len(rows), 4))


@settings(max_examples=200, deadline=None)
@given(boxes1=BOXES, boxes2=BOXES, mode=st.sampled_from(MODES))
def test_distinct_rows_give_np_uniques_ious(
    boxes1: np.ndarray, boxes2: np.ndarray, mode: IouMode
) -> None:
    rows1, index1 = _distinct_rows(boxes1)
    rows2, index2 = _distinct_rows(boxes2)
    assert (rows1[index1] == boxes1).all() and (rows2[index2] == boxes2).all()
    fast = _iou_matrix(rows1, rows2, mode)[np.ix_(index1, index2)]
    unique1, inverse1 = np.unique(boxes1, axis=0, return_inverse=True)
    unique2, inverse2 = np.unique(boxes2, axis=0, return_inverse=True)
    slow = _iou_matrix(unique1, unique2, mode)[np.ix_(inverse1.reshape(-1), inverse2.reshape(-1))]
    assert fast.tobytes() == slow.tobytes()
