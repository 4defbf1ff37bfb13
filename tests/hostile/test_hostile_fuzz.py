"""Property tests of the hardening helpers: the strict JSON reader and the secret redactor."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.core.errors import InputError
from parsescore.core.files import parse_json
from parsescore.predict.engine import Redactor, _secrets

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
@settings(max_examples=200, deadline=None)
def test_strict_reader_reads_what_json_writes(value: Any) -> None:
    text = json.dumps(value)
    assert parse_json(text) == json.loads(text)


@given(st.text(min_size=1, max_size=8), json_values, json_values)
@settings(max_examples=100, deadline=None)
def test_any_duplicate_key_is_an_error(key: str, first: Any, second: Any) -> None:
    text = (
        "{"
        + f"{json.dumps(key)}: {json.dumps(first)}, {json.dumps(key)}: {json.dumps(second)}"
        + "}"
    )
    with pytest.raises(InputError, match="duplicate key"):
        parse_json(text)


# Keys and strings made of the characters that end a key ('"', whitespace, ':'), and every
# layout json allows between a key and its colon: the reader counts keys on the text to prove
# that no key repeats, so these are the texts where that count could go wrong.
tricky_text = st.text(alphabet='":\\ \t\r\na', max_size=6)
tricky_values = st.recursive(
    st.none() | st.integers() | tricky_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(tricky_text, inner, max_size=3),
    max_leaves=12,
)
layouts = st.sampled_from(
    [(None, (",", ":")), (2, (",", ": ")), ("\t", (", ", " : ")), (None, (",\r\n", "\n\t:"))]
)


@given(tricky_values, layouts)
@settings(max_examples=300, deadline=None)
def test_strict_reader_reads_any_layout(value: Any, layout: tuple[Any, tuple[str, str]]) -> None:
    indent, separators = layout
    text = json.dumps(value, indent=indent, separators=separators)
    assert parse_json(text) == json.loads(text)


@given(tricky_text, tricky_values, tricky_values, layouts, layouts)
@settings(max_examples=200, deadline=None)
def test_duplicate_key_is_an_error_in_any_layout(
    key: str, first: Any, second: Any, layout: tuple[Any, Any], other: tuple[Any, Any]
) -> None:
    """A repeated key is found whatever whitespace surrounds either copy's colon."""
    left = json.dumps({key: first}, indent=layout[0], separators=layout[1])
    right = json.dumps({key: second}, indent=other[0], separators=other[1])
    text = left[:-1].rstrip() + "," + right[1:]
    with pytest.raises(InputError, match="duplicate key"):
        parse_json(text)


@given(st.text(max_size=300))
@settings(max_examples=300, deadline=None)
def test_strict_reader_reads_or_says_why(text: str) -> None:
    """Any text: the value json would read, or an InputError with a message (no other error)."""
    try:
        value = parse_json(text)
    except InputError as exc:
        assert exc.reason
        return
    assert json.dumps(value) == json.dumps(json.loads(text))


secret_text = st.text(
    alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=4, max_size=40
)


def encodings(secret: str) -> list[str]:
    escaped = "".join(f"\\u{ord(c):04x}" for c in secret)
    return [
        secret,
        escaped,
        escaped.upper().replace("\\U", "\\u"),
        secret.replace("/", "\\/"),
        quote(secret, safe=""),
        json.dumps(json.dumps(secret))[2:-2],
    ]


@given(secret_text, st.text(max_size=30), st.text(max_size=30))
@settings(max_examples=300, deadline=None)
def test_redactor_hides_a_key_in_every_encoding(key: str, before: str, after: str) -> None:
    redact = Redactor(_secrets(key, None))
    for form in encodings(key):
        parts = redact(before + form + after).split("[redacted]")
        assert all(key not in part and form not in part for part in parts), (form, parts)


@given(st.integers(min_value=1, max_value=65535), st.sampled_from(["127.0.0.1", "llm.local"]))
@settings(max_examples=50, deadline=None)
def test_redactor_hides_the_address(port: int, host: str) -> None:
    base = f"http://{host}:{port}/v1"
    redact = Redactor(_secrets("sk-unused", base))
    for secret in (base, f"{host}:{port}"):
        for form in encodings(secret):
            parts = redact(f"error from {form}: refused").split("[redacted]")
            assert all(f"{host}:{port}" not in p and form not in p for p in parts), parts
