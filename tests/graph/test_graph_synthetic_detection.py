"""Synthetic-id detection: the cheap word check before the exact index (hypothesis).

The word check (:meth:`SquashedText.proven`) may only ever prove a value found; the answer of
:func:`detect_synthetic_classes` must be the plain rule's (every key's values looked up with
``in``), whichever of the word check, the exact index's passes or both decide it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.graph import canon
from parsescore.graph.canon import SquashedText, squash, squash_spaced
from parsescore.graph.evaluate import detect_synthetic_classes

# Word characters, separators that split words ("-", "é" is dropped by the squash), characters
# the casefold turns into letters ("ß" → "ss", "ﬁ" → "fi", the Kelvin sign → "k").
_CHARS = list("ab1 2-_.|\u00e9\u00dfK\u212a\ufb01\u00a0")
_TEXT = st.text(alphabet=st.sampled_from(_CHARS), max_size=40)
_ID = st.text(alphabet=st.sampled_from(list("ab12 -_\u00e9\u00df")), max_size=12)


@contextmanager
def _forced(
    *, chunk: int | None = None, bulk: bool = False, hashed: bool = False
) -> Iterator[None]:
    """Small chunks for the word check; the exact index's numpy passes on small inputs."""
    saved = canon._WORD_CHUNK, canon._BULK_MIN_WORK, canon._TABLE_MAX
    if chunk is not None:
        canon._WORD_CHUNK = chunk
    if bulk:
        canon._BULK_MIN_WORK = 0
    if hashed:
        canon._TABLE_MAX = 0
    try:
        yield
    finally:
        canon._WORD_CHUNK, canon._BULK_MIN_WORK, canon._TABLE_MAX = saved


@st.composite
def _source_and_ids(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A source written from pieces, and ids that are its pieces, parts of them, pieces
    glued across separators, or unrelated (absent) text; pieces repeat."""
    pieces = draw(st.lists(_ID, min_size=1, max_size=8))
    order = draw(st.lists(st.integers(0, len(pieces) - 1), max_size=20))
    separators = st.sampled_from([" ", "-", " | ", "\u00e9", "", "\n"])
    source = "".join(pieces[i] + draw(separators) for i in order)

    def an_id() -> str:
        kind = draw(st.integers(0, 3))
        if kind == 0:
            return draw(st.sampled_from(pieces))
        if kind == 1 and source:  # any slice: inside words, across separators
            start = draw(st.integers(0, len(source) - 1))
            return source[start : start + draw(st.integers(0, 14))]
        if kind == 2 and len(pieces) > 1:  # two pieces glued, as a name's words squash
            return draw(st.sampled_from(pieces)) + "_" + draw(st.sampled_from(pieces))
        return draw(_ID)

    return source, [an_id() for _ in range(draw(st.integers(1, 30)))]


def _plain_rule(keys: list[Any], source: str) -> set[str]:
    squashed = squash(source)
    found: dict[str, list[bool]] = {}
    for cls, values in keys:
        candidates = [squash(v) for v in values if v and len(squash(v)) >= 3]
        found.setdefault(cls, []).append(any(c in squashed for c in candidates))
    return {cls for cls, hits in found.items() if sum(hits) / len(hits) < 0.5}


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_spaced_squash_words_join_to_the_squash(text: str) -> None:
    assert "".join(squash_spaced(text).split()) == squash(text)
    assert set(squash_spaced(text)) <= set("abcdefghijklmnopqrstuvwxyz0123456789 ")


@settings(max_examples=300, deadline=None)
@given(_source_and_ids(), st.sampled_from([1, 5, 1 << 16]), st.integers(0, 4))
def test_word_check_proves_only_values_in_the_text(
    source_and_ids: tuple[str, list[str]], chunk: int, min_length: int
) -> None:
    """Every value proven is in the squashed text, long enough, and proven once; a value that
    is a whole word of the text is always proven."""
    source, ids = source_and_ids
    squashed = squash(source)
    with _forced(chunk=chunk):
        proven = [p for found, _ in SquashedText(source).proven(ids, min_length) for p in found]
    assert len(proven) == len(set(proven))
    for position in proven:
        needle = squash(ids[position])
        assert len(needle) >= min_length and needle in squashed
    words = set(squash_spaced(source).split())
    for position, value in enumerate(ids):
        if value.isascii() and value.isalnum() and value.lower() in words:
            assert len(value) < min_length or position in proven


@settings(max_examples=300, deadline=None)
@given(_source_and_ids(), st.integers(0, 5), st.sampled_from([None, 3, 1 << 16]))
def test_detection_equals_the_plain_rule(
    source_and_ids: tuple[str, list[str]], seed: int, chunk: int | None
) -> None:
    """Keys of three classes (one or two values each) against the raw source: the word check
    decides some classes, the exact index the others."""
    source, ids = source_and_ids
    classes = ["A", "B", "C"]
    keys: list[Any] = []
    for index, value in enumerate(ids):
        cls = classes[(index * (seed + 1) + seed) % 3]
        keys.append((cls, (value,) if index % 4 else (value, ids[(index + seed) % len(ids)])))
    expected = _plain_rule(keys, source)
    with _forced(chunk=chunk):
        assert detect_synthetic_classes(keys, source) == expected
        assert detect_synthetic_classes(keys, SquashedText(source)) == expected
        with _forced(bulk=True):  # the exact index's numpy tables, then its hashes
            assert detect_synthetic_classes(keys, source) == expected
            with _forced(hashed=True):
                assert detect_synthetic_classes(keys, source) == expected


@pytest.mark.parametrize(
    ("source", "keys", "expected"),
    [
        # ids written as words, with separators, glued, inside words, casefolded, absent
        ("Item SKU-02952 and INV-2024-00042", [("A", ("sku02952",)), ("A", ("zz9",))], set()),
        ("x a1b2 y", [("A", ("A1B2",)), ("A", ("zz9",))], set()),
        ("Relay motor 2952 | Fan 12", [("P", ("RELAY_MOTOR_2952",)), ("P", ("FAN_FAN_1",))], set()),
        ("motor2952x", [("P", ("RELAY_MOTOR_2952",)), ("P", ("otor2",))], set()),
        ("Straße 12", [("S", ("STRASSE",)), ("S", ("xyz",)), ("S", ("qqq",))], {"S"}),
        ("Müller & Söhne", [("P", ("MULLER_&_SOHNE",))], {"P"}),
        ("", [("E", ("abc",)), ("F", ("ab",))], {"E", "F"}),
    ],
)
def test_detection_examples(source: str, keys: list[Any], expected: set[str]) -> None:
    assert _plain_rule(keys, source) == expected
    assert detect_synthetic_classes(keys, source) == expected
