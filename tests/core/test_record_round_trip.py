"""``core.runner._normalise`` (orjson's round trip where it is proved to be ``json``'s) against
``json.loads(json.dumps(record, ensure_ascii=False))``: the same value to the bit and the type,
or the same error, on records of every JSON-able and unusual shape (a page record of the
document kind is such a record)."""

from __future__ import annotations

import json
import struct
from collections import OrderedDict, defaultdict, namedtuple
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from parsescore.core.runner import _normalise, _orjson_safe

Pair = namedtuple("Pair", "a b")


def _bits(value: Any) -> Any:
    """A value compared by type and to the bit (NaN equals NaN, -0.0 differs from 0.0)."""
    if isinstance(value, float):
        return (type(value), struct.pack("<d", value))
    if isinstance(value, dict):
        return (type(value), [(_bits(k), _bits(v)) for k, v in value.items()])
    if isinstance(value, list | tuple):
        return (type(value), [_bits(v) for v in value])
    return (type(value), value)


def _outcome(function: Any, record: Any) -> Any:
    try:
        return ("ok", _bits(function(record)))
    except Exception as exc:
        return ("error", type(exc))


def plain(record: Any) -> Any:
    if not isinstance(record, dict):
        raise TypeError("not a dict")
    return json.loads(json.dumps(record, ensure_ascii=False))


atoms = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.integers(-5, 5),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-1e3, 1e3),
    st.text(max_size=5),
    st.sampled_from(["\ud800", "a\udfffb", "\u2028", "é", '"\\', "\x00"]),
    st.floats(allow_nan=True).map(np.float64),
    st.sampled_from([np.float32(1.5), np.int64(3), np.bool_(True), np.float64("nan")]),
)
keys = st.one_of(
    st.text(max_size=4), st.integers(-3, 3), st.sampled_from([None, True, 1.5, ("a", 1)])
)
values = st.recursive(
    atoms,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(keys, inner, max_size=4),
        st.dictionaries(st.text(max_size=3), inner, max_size=4),
        st.tuples(inner, inner).map(lambda t: Pair(*t)),
        st.dictionaries(st.text(max_size=3), inner, max_size=3).map(OrderedDict),
    ),
    max_leaves=20,
)


@settings(max_examples=1500, deadline=None)
@given(st.dictionaries(st.text(max_size=4), values, max_size=5))
@example({"a": [1.5, np.float64(2.5), (1, "x")], "b": {"c": None, "d": True}})
def test_same_as_json_round_trip(record: dict[str, Any]) -> None:
    assert _outcome(_normalise, record) == _outcome(plain, record)


def test_shared_circular_deep_and_subclassed() -> None:
    shared = [1, 2]
    circular: dict[str, Any] = {"a": 1}
    circular["self"] = circular
    deep: Any = 1
    for _ in range(300):
        deep = [deep]
    counts: defaultdict[str, int] = defaultdict(int, {"x": 2})
    for record in (
        {"one": shared, "two": shared},
        circular,
        {"deep": deep},
        {"counts": counts},
        {"big": 2**64, "small": -(2**63) - 1},
        {"value": np.float64(1e300) * 10},
    ):
        assert _outcome(_normalise, record) == _outcome(plain, record)
    assert not _orjson_safe(circular)
    assert not _orjson_safe({"one": shared, "two": shared})
    with pytest.raises(TypeError):
        _normalise([1])  # type: ignore[arg-type]


def test_a_page_record_takes_orjson() -> None:
    record = {"page": {"text": [{"gt": "a", "pred": "b", "edit": np.float64(0.5),
                                 "gt_position": [1, 2], "_teds": (0.5, 0)}],
                       "order": {}, "invented": []}}  # fmt: skip
    assert _orjson_safe(record)
    assert _bits(_normalise(record)) == _bits(plain(record))
