"""``loads_as_json`` is ``json.loads``: the same value (types included) or the same error, on
generated values written in several ways and on the texts where orjson and ``json`` differ."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.core.files import loads_as_json

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=30,
)


def _same(a: Any, b: Any) -> bool:
    """Equal, with the same types all the way down (1 and 1.0 differ, -0.0 and 0.0 differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return math.copysign(1, a) == math.copysign(1, b) and (a == b or (a != a and b != b))
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


@settings(max_examples=300)
@given(VALUES, st.booleans(), st.sampled_from([None, 1, 2]))
def test_the_value_of_json_loads(value: Any, ascii: bool, indent: int | None) -> None:
    text = json.dumps(value, ensure_ascii=ascii, indent=indent)
    assert _same(loads_as_json(text), json.loads(text))


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "b": {"x": 1, "x": 2}, "a": 3}',  # repeated keys: the last value, first place
        "[123456789012345678901234567890, -9223372036854775809, 18446744073709551616]",
        "[NaN, Infinity, -Infinity]",
        "[1e400, -1e400, 1e-400]",
        '["\\ud800", "\\udfff x"]',
        "[-0.0, 0.0, -0, 1E5, 1.5e-7, 0.1, 2.675]",
        '\ufeff{"a": 1}',
        " \n [1, 2] \n ",
        '{"deep": ' + "[" * 300 + "]" * 300 + "}",
    ],
)
def test_where_orjson_differs(text: str) -> None:
    try:
        expected: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        with pytest.raises(json.JSONDecodeError) as raised:
            loads_as_json(text)
        assert (raised.value.msg, raised.value.pos) == (exc.msg, exc.pos)
    else:
        assert _same(loads_as_json(text), expected)


@pytest.mark.parametrize("text", ["", "{", '{"a" 1}', "[1,]", "[1] x", "{'a': 1}", "\ud800"])
def test_the_error_of_json_loads(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    with pytest.raises(json.JSONDecodeError) as raised:
        loads_as_json(text)
    assert (raised.value.msg, raised.value.lineno, raised.value.colno) == (
        expected.value.msg,
        expected.value.lineno,
        expected.value.colno,
    )
