"""``dump_json`` writes through orjson only when that is proved to give ``json``'s text: for
any value, the same text (or the same error) as ``json.dumps(indent=2, ensure_ascii=False,
allow_nan=False)`` and a newline."""

from __future__ import annotations

import enum
import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.core.files import _orjson_dump, dump_json

# What string escapes and layouts differ on: quotes, backslashes, control characters, DEL,
# line separators, non-ASCII letters, lone surrogates.
tricky_text = st.text(alphabet='"\\\x00\x01\x08\x0c\n\r\t\x1f\x7f\u2028é€\ud800 a:', max_size=6)


class Colour(enum.Enum):
    RED = "red"


class Label(enum.StrEnum):
    A = "a"


scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()  # NaN and infinities included: json refuses them
    | st.sampled_from([1e-5, 2.5e-7, 1e16, 1e22, -0.0, 5e-324, 0.0001, 1e-4 * 0.99])
    | tricky_text
    | st.sampled_from([Colour.RED, Label.A])  # types json refuses, or writes as a str
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(tricky_text, inner, max_size=4)
        | st.dictionaries(st.integers(0, 3), inner, max_size=2)  # json writes int keys as str
    ),
    max_leaves=20,
)


def _outcome(write: Any, value: Any) -> Any:
    try:
        return write(value)
    except (ValueError, TypeError) as exc:
        return type(exc).__name__, str(exc)


def _reference(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


@settings(max_examples=600, deadline=None)
@given(values)
def test_dump_json_is_jsons_text(value: Any) -> None:
    assert _outcome(dump_json, value) == _outcome(_reference, value)


@pytest.mark.parametrize(
    "value",
    [
        {"a": [1, 2.5, {}, [], "x\ny", None, True], "b": {"c": -0.0, "d": 1e16}},
        [[], {}, [[]], {"": {}}],
        {"é": "€\u2028\x7f"},
    ],
)
def test_plain_values_take_the_orjson_path(value: Any) -> None:
    assert _orjson_dump(value) == _reference(value)


@pytest.mark.parametrize(
    "value",
    [[1e-5], [math.nan], [2**64], ["\ud800"], {1: 2}, (Colour.RED,), [1.0, 2.5e-7]],
)
def test_what_orjson_writes_otherwise_goes_to_json(value: Any) -> None:
    assert _orjson_dump(value) is None


def test_a_circular_value_is_refused_as_json_refuses_it() -> None:
    looped: list[Any] = [1]
    looped.append(looped)
    with pytest.raises(ValueError, match="Circular reference"):
        dump_json(looped)
