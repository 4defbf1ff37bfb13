"""The strict JSON reader's orjson path (graph.json and ground truths are its largest inputs):
whatever it reads equals ``json``'s strict parse, and every repeated key and every nesting
beyond the limit is still refused, whichever path reads the text."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.core.errors import InputError
from parsescore.core.files import _orjson_parse, decode_text, parse_json
from parsescore.graph.io import read_graph

# Keys and strings made of what ends or escapes a key, and colons
tricky_text = st.text(alphabet='":\\ \t\na\u00e9\u2028', max_size=6)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**25), 10**25)
    | st.floats(allow_nan=False, allow_infinity=False)
    | tricky_text
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(tricky_text, inner, max_size=4),
    max_leaves=25,
)


def write(value: Any, rng: random.Random, escape_colons: bool, ascii_only: bool) -> str:
    """JSON text of ``value`` in a random layout, colons inside strings written as ``\\u003a``
    (or ``\\u003A``) when ``escape_colons``."""

    def string(text: str) -> str:
        out = json.dumps(text, ensure_ascii=ascii_only)
        if escape_colons:
            out = out.replace(":", rng.choice(["\\u003a", "\\u003A", ":"]))
        return out

    def space() -> str:
        return rng.choice(["", " ", "\n", "\t ", "\r\n  "])

    if isinstance(value, dict):
        items = [f"{string(k)}{space()}:{space()}{write(v, rng, escape_colons, ascii_only)}"
                 for k, v in value.items()]  # fmt: skip
        return "{" + space() + ("," + space()).join(items) + space() + "}"
    if isinstance(value, list):
        parts = [write(v, rng, escape_colons, ascii_only) for v in value]
        return "[" + space() + ("," + space()).join(parts) + space() + "]"
    if isinstance(value, str):
        return string(value)
    return json.dumps(value)


def strict_json(text: str) -> Any:
    """The reference: ``json`` with every object checked for a repeated key."""

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise ValueError("repeated key")
        return dict(pairs)

    return json.loads(text, object_pairs_hook=unique)


def same(a: Any, b: Any) -> bool:
    """Equal values of equal types all the way down (``1 == 1.0`` is not enough)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b) or repr(a) == repr(b)


@given(values, st.integers(0, 2**32), st.booleans(), st.booleans())
@settings(max_examples=400, deadline=None)
def test_reads_what_strict_json_reads(
    value: Any, seed: int, escape_colons: bool, ascii_only: bool
) -> None:
    text = write(value, random.Random(seed), escape_colons, ascii_only)
    assert same(parse_json(text), strict_json(text))
    proved, fast = _orjson_parse(text, 256)
    if proved:
        assert same(fast, strict_json(text))


@given(values, st.integers(0, 2**32))
@settings(max_examples=200, deadline=None)
def test_ordinary_text_takes_the_fast_path(value: Any, seed: int) -> None:
    """Without escaped colons or 19-digit runs the counts prove a text free of repeats."""
    text = write(value, random.Random(seed), escape_colons=False, ascii_only=False)
    if "0" * 19 in "".join("0" if c.isdigit() else " " for c in text):
        return
    proved, fast = _orjson_parse(text, 256)
    assert proved
    assert same(fast, strict_json(text))


@pytest.mark.parametrize(
    ("text", "proved"),
    [
        ('{"a": 18446744073709551615, "b": -9223372036854775808}', True),  # 64 bits: ints
        ('{"a": 18446744073709551616}', False),  # beyond: orjson's float, json's int
        ('[-9223372036854775809, "e+"]', False),
        ('{"a": 12345678901234567890123, "b": 1.5}', False),
        ('{"id": "1234567890123456789012", "x": 2.0}', True),  # digits in a string only
        ('{"a": 1e300, "b": 1234567890123456789012}', False),
    ],
)
def test_integers_beyond_64_bits_fall_back(text: str, proved: bool) -> None:
    assert _orjson_parse(text, 256)[0] is proved
    assert same(parse_json(text), strict_json(text))


def with_repeat(value: Any, rng: random.Random, key: str, first: Any, second: Any) -> Any:
    """``value`` with an object holding ``key`` twice put somewhere inside (a list of pairs
    marks it for :func:`write_pairs`)."""
    repeated = _Pairs([(key, first), *[(f"k{i}", i) for i in range(rng.randint(0, 2))]])
    repeated.pairs.insert(rng.randint(1, len(repeated.pairs)), (key, second))
    if rng.random() < 0.3:
        return repeated
    if isinstance(value, dict) and value:
        name = rng.choice(list(value))
        return {**value, name: with_repeat(value[name], rng, key, first, second)}
    if isinstance(value, list) and value:
        index = rng.randrange(len(value))
        return [*value[:index], with_repeat(value[index], rng, key, first, second)]
    return [value, repeated] if rng.random() < 0.5 else {"x": value, "y": repeated}


class _Pairs:
    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        self.pairs = pairs


def write_pairs(value: Any, rng: random.Random, escape: bool) -> str:
    """:func:`write` that also writes :class:`_Pairs` objects (repeated keys), keys written
    with escapes (``\\u0061`` for ``a``) when ``escape``."""

    def key(text: str) -> str:
        if escape and rng.random() < 0.5:
            return '"' + "".join(f"\\u{ord(c):04x}" for c in text) + '"'
        return json.dumps(text)

    if isinstance(value, _Pairs):
        items = [f"{key(k)}:{write_pairs(v, rng, escape)}" for k, v in value.pairs]
        return "{" + ",".join(items) + "}"
    if isinstance(value, dict):
        items = [f"{key(k)}: {write_pairs(v, rng, escape)}" for k, v in value.items()]
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(write_pairs(v, rng, escape) for v in value) + "]"
    if isinstance(value, str) and escape:
        return json.dumps(value).replace(":", "\\u003a")
    return json.dumps(value)


@given(values, tricky_text, values, values, st.integers(0, 2**32), st.booleans())
@settings(max_examples=400, deadline=None)
def test_every_repeated_key_is_refused(
    value: Any, key: str, first: Any, second: Any, seed: int, escape: bool
) -> None:
    """Nested anywhere, the key written plainly or escaped, colons in the values escaped."""
    rng = random.Random(seed)
    text = write_pairs(with_repeat(value, rng, key, first, second), rng, escape)
    with pytest.raises(ValueError, match="repeated key"):
        strict_json(text)  # the text does repeat a key
    assert not _orjson_parse(text, 256)[0]
    with pytest.raises(InputError, match="duplicate key"):
        parse_json(text)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 2}',
        '{"a": 1, "\\u0061": 2}',  # the same key, escaped
        '{"a": "x", "a": "\\u003a"}',  # the kept value's escaped colon
        '{"a": "\\u003a\\u003A", "b": {"c": 1, "c": "::"}}',
        '{"a:b": 1, "a:b": 1}',
        '[{"k": [{"k": 1, "k": 1}]}]',
        '{"x": {"y": {"z": {"a": null, "a": null}}}}',
        '{"a": 1, "b": {"a": 2}, "a": 3}',
    ],
)
def test_repeated_keys_that_counts_might_miss(text: str) -> None:
    with pytest.raises(InputError, match="duplicate key"):
        parse_json(text)


def nested(depth: int, innermost: str) -> str:
    """A text ``depth`` levels deep (arrays and objects alternating)."""
    text = innermost
    for level in range(depth - 1):
        text = f"[{text}]" if level % 2 else f'{{"k": {text}}}'
    return text


@pytest.mark.parametrize("limit", [1, 2, 3, 7, 40])
@pytest.mark.parametrize("innermost", ["[]", "{}", "[1]", '{"a": "[[{{"}'])
def test_nesting_at_and_beyond_the_limit(
    limit: int, innermost: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARSESCORE_MAX_JSON_DEPTH", str(limit))
    at = nested(limit, innermost)
    assert parse_json(at) == json.loads(at)
    beyond = nested(limit + 1, innermost)
    with pytest.raises(InputError, match=f"nested {limit + 1} levels deep"):
        parse_json(beyond)


@pytest.mark.parametrize(
    "text",
    [
        "123456789012345678901234567890",
        "[18446744073709551616, -9223372036854775809]",
        '{"n": 99999999999999999999}',
        "[1e400, -1e400]",
        "[NaN, Infinity]",
        '["\\ud800"]',
        '["\\ud83d\\ude00"]',
        "[9223372036854775807, -9223372036854775808, 18446744073709551615]",
    ],
)
def test_what_orjson_reads_otherwise_is_read_as_json_reads_it(text: str) -> None:
    assert same(parse_json(text), json.loads(text))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": 1,}', "malformed JSON: Expecting property name enclosed in double quotes"),
        ("[1, 2", "malformed JSON: Expecting ',' delimiter"),
        ("", "malformed JSON: Expecting value"),
        ("\ufeff[1]", "malformed JSON: Unexpected UTF-8 BOM"),
    ],
)
def test_malformed_text_says_what_json_says(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_json(text, "x.json")


def outcome(call: Any) -> tuple[str, Any]:
    """A parse's value, or its error as the user reads it."""
    try:
        return "value", call()
    except InputError as exc:
        return "error", str(exc)


# File bytes a reader may meet: a byte-order mark, NULs, bytes that are not UTF-8, a
# truncation, leading whitespace (ASCII or not) before a bare graph.json
byte_edits = st.sampled_from(
    ["none", "bom", "nul", "latin1", "surrogate", "truncate", "space", "nbsp", "fence"]
)


def edited(text: str, edit: str, cut: int) -> bytes:
    data = text.encode()
    if edit == "bom":
        return b"\xef\xbb\xbf" + data
    if edit == "nul":
        return data[: cut % (len(data) + 1)] + b"\x00" + data[cut % (len(data) + 1) :]
    if edit == "latin1":
        return data + b"\xe9"
    if edit == "surrogate":
        return b'["\xed\xa0\x80", ' + data + b"]"
    if edit == "truncate":
        return data[: cut % (len(data) + 1)]
    if edit == "space":
        return b" \r\n\t" * (cut % 40) + data
    if edit == "nbsp":
        return "\u00a0\u2003".encode() + data
    if edit == "fence":
        return b"Here it is:\n```json\n" + data + b"\n```\n"
    return data


@given(values, st.integers(0, 2**32), byte_edits, st.integers(0, 10**6))
@settings(max_examples=400, deadline=None)
def test_file_bytes_read_as_their_decoded_text(value: Any, seed: int, edit: str, cut: int) -> None:
    """``parse_json`` of a file's bytes gives what ``parse_json(read_text(file))`` gives: the
    same value, or the same error."""
    text = write({"nodes": [value], "edges": []}, random.Random(seed), False, False)
    data = edited(text, edit, cut)
    as_text = outcome(lambda: parse_json(decode_text(data, "g.json"), "g.json"))
    assert outcome(lambda: parse_json(data, "g.json")) == as_text
    # the graph.json reader, as the command reads an answer (bytes) and as the API reads it
    as_str = outcome(lambda: read_graph(decode_text(data, "g.json"), "g.json", answer=True))
    as_bytes = outcome(lambda: read_graph(data, "g.json", answer=True))
    if as_str[0] == "value":
        assert as_bytes[0] == "value"
        assert same(as_bytes[1].nodes, as_str[1].nodes)
        assert (as_bytes[1].fence, as_bytes[1].warnings) == (as_str[1].fence, as_str[1].warnings)
    else:
        assert as_bytes == as_str
