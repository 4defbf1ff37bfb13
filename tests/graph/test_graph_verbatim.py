"""The verbatim check's windows (:mod:`parsescore.graph.verbatim`): whatever the source and the
strings, the answers are those of the loose form of the whole source, and a string copied
from the source is settled without it."""

from __future__ import annotations

import sys
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.graph.canon import loose_text
from parsescore.graph.verbatim import WINDOW_MISSES, LooseSource

# What the loose form rewrites: whitespace of every kind (some NFKD-mapped to a space), bullets
# (some only after NFKD: fullwidth and small forms), combining marks that NFKD reorders, a
# character whose NFKD begins with a space, casefold expansions, and plain letters.
ALPHABET = (
    " \t\n\x1c\x85\u00a0\u2003\u3000"
    "-*+\u2022\uff0d\ufe63\uff0b\uff0a"
    "\u0301\u0316\u0308\u00a8"
    "\u00df\u0130\u03a3\u00e9"
    "abAB1"
)
texts = st.text(alphabet=ALPHABET, max_size=40)


def reference(values: list[str], source: str) -> list[bool]:
    whole = loose_text(source)
    return [loose_text(value) in whole for value in values]


@st.composite
def source_and_values(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A source and strings: pieces cut from it anywhere (so windows are tried, at word
    boundaries or inside words and combining sequences) and strings of their own."""
    source = draw(texts)
    values = []
    for _ in range(draw(st.integers(0, 12))):
        if source and draw(st.booleans()):
            start = draw(st.integers(0, len(source) - 1))
            end = draw(st.integers(start, len(source)))
            values.append(source[start:end])
        else:
            values.append(draw(texts))
    return source, values


@given(source_and_values())
@settings(max_examples=1500, deadline=None)
def test_answers_are_the_whole_loose_sources(case: tuple[str, list[str]]) -> None:
    source, values = case
    assert LooseSource(source).contains(values) == reference(values, source)
    assert bool(LooseSource(source)) == bool(loose_text(source))


@given(source_and_values())
@settings(max_examples=300, deadline=None)
def test_answers_once_the_whole_loose_source_is_known(case: tuple[str, list[str]]) -> None:
    source, values = case
    known = LooseSource(source)
    assert known.text == loose_text(source)
    assert bool(known) == bool(loose_text(source))
    assert known.contains(values) == reference(values, source)


def test_copied_strings_leave_the_source_alone() -> None:
    words = [f"Word{i}, -item *{i} caf\u00e9 STRASSE\u00df" for i in range(2000)]
    source = " \n".join(words)
    values = [" \n".join(words[i : i + 3]) for i in range(0, 1500, 100)]
    checked = LooseSource(source)
    assert all(checked.contains(values))
    assert "text" not in vars(checked)  # every string settled by its window
    assert checked.contains(values) == reference(values, source)


def test_strings_not_in_the_source_are_looked_for_in_all_of_it() -> None:
    source = "An item, copied.\nAnother   LINE\u00a0here"
    values = ["another line here", "AN ITEM, COPIED.", "missing", "copied. another"]
    values += [f"absent {i}" for i in range(WINDOW_MISSES + 3)]
    checked = LooseSource(source)
    assert checked.contains(values) == reference(values, source)
    assert checked.contains(values)[:4] == [True, True, False, True]


def test_whitespace_decomposes_to_whitespace() -> None:
    """The windows' premise: NFKD maps every whitespace character to whitespace only."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if char.isspace():
            decomposed = unicodedata.normalize("NFKD", char)
            assert decomposed and decomposed.isspace(), hex(code)
            assert unicodedata.combining(char) == 0
