"""Flowde's text-distance test cases, reproduced through ``parsescore.flowchart``.

Upstream files (EPPI-Centre/Flowde, ``tests/unit/test_benchmarks/test_parsing/``):

- ``test_distance_fns/test_levenshtein_fn.py``: ``levenshtein_fn`` is our ``levenshtein``,
  ``levenshtein_with_text_normalisation`` keeps its name;
- ``test_distance_fns/test_text_normalisation.py``: Flowde tests its whitespace/NFC stage
  ``nfc_and_space_normalise`` on its own; we have one full pipeline, ``normalise_text``, and every
  one of those inputs contains only whitespace and NFC differences (plus one ``=``, which the full
  pipeline spaces the same way), so the expected outputs are the same.

Same inputs and expected values as upstream; the tables are ours.
"""

from __future__ import annotations

import pytest

from parsescore.flowchart import (
    levenshtein,
    levenshtein_with_text_normalisation,
    normalise_text,
)
from parsescore.shared import distance as core_text

# Cases shared by both distances: (true_text, pred_text, expected distance).
PLAIN_CASES = [
    ("abc", "abc", 0),
    ("abc", "abd", 1),
    ("abc", "abcd", 1),
    ("abcd", "abc", 1),
    ("kitten", "sitting", 3),
    (None, "abc", 3),
    ("abc", None, 3),
    (None, "", 0),
    ("", None, 0),
]

# Only the raw distance is tested with empty strings on one side upstream.
RAW_ONLY_CASES = [
    ("", "abc", 3),
    ("abc", "", 3),
]

# Whitespace, line endings and NFC: the normalised distance ignores them, except that a single
# newline still differs from a space.
NORMALISED_ONLY_CASES = [
    ("hello    world", "hello world", 0),
    ("hello  world   again", "hello world again", 0),
    ("hello\tworld", "hello world", 0),
    ("hello\t\tworld", "hello world", 0),
    ("hello\t  \tworld", "hello world", 0),
    ("hello\r\nworld", "hello\nworld", 0),
    ("hello\rworld", "hello\nworld", 0),
    ("hello\n\nworld", "hello\nworld", 0),
    ("hello\n\n\nworld", "hello\nworld", 0),
    ("hello   \n   world", "hello\nworld", 0),
    ("hello\t\n\tworld", "hello\nworld", 0),
    (" hello world ", "hello world", 0),
    ("\n\nhello\n\nworld\n\n", "hello\nworld", 0),
    ("e\u0301", "\u00e9", 0),
    ("Cafe\u0301   Society", "Caf\u00e9 Society", 0),
    ("Allocated  \n\n\t n  =  50", "Allocated\nn = 50", 0),
    ("Allocated\nn = 50", "Allocated n = 50", 1),
    ("A\nB  C\n\nD\tE", "A\nB C\nD E", 0),
    ("A\nB", "A B", 1),
]


@pytest.mark.parametrize(("true_text", "pred_text", "expected"), PLAIN_CASES + RAW_ONLY_CASES)
def test_raw_levenshtein(true_text: str | None, pred_text: str | None, expected: int) -> None:
    assert levenshtein(true_text=true_text, pred_text=pred_text) == expected


@pytest.mark.parametrize(
    ("true_text", "pred_text", "expected"), PLAIN_CASES + NORMALISED_ONLY_CASES
)
def test_normalised_levenshtein(
    true_text: str | None, pred_text: str | None, expected: int
) -> None:
    assert levenshtein_with_text_normalisation(true_text=true_text, pred_text=pred_text) == expected


@pytest.mark.parametrize("distance_fn", [levenshtein, levenshtein_with_text_normalisation])
def test_both_texts_missing_is_a_value_error(distance_fn) -> None:
    with pytest.raises(ValueError, match="None"):
        distance_fn(true_text=None, pred_text=None)


def test_flowchart_package_reexports_the_core_distances() -> None:
    assert levenshtein is core_text.levenshtein
    assert levenshtein_with_text_normalisation is core_text.levenshtein_with_text_normalisation
    assert normalise_text is core_text.normalise_text


# (input, expected normalised text), upstream test_text_normalisation.py.
WHITESPACE_AND_NFC_CASES = [
    ("hello world", "hello world"),
    ("hello    world", "hello world"),
    ("hello  world   again", "hello world again"),
    (" hello world ", "hello world"),
    ("\thello\tworld\t", "hello world"),
    ("hello\t\tworld", "hello world"),
    ("hello\t  \tworld", "hello world"),
    ("hello\nworld", "hello\nworld"),
    ("hello\n\nworld", "hello\nworld"),
    ("hello\n\n\nworld", "hello\nworld"),
    ("hello \n world", "hello\nworld"),
    ("hello    \n    world", "hello\nworld"),
    ("hello\t\n\tworld", "hello\nworld"),
    ("hello\r\nworld", "hello\nworld"),
    ("hello\rworld", "hello\nworld"),
    ("hello\r\n\r\nworld", "hello\nworld"),
    ("hello\r\rworld", "hello\nworld"),
    (" hello\t \r\n \tworld  ", "hello\nworld"),
    ("Allocated  \n\n\t n  =  50", "Allocated\nn = 50"),
    ("e\u0301", "\u00e9"),
    ("Cafe\u0301  Society", "Caf\u00e9 Society"),
    ("\u00e9", "\u00e9"),
    ("A\nB  C\n\nD\tE", "A\nB C\nD E"),
    ("\n\nhello\n\nworld\n\n", "hello\nworld"),
    ("hello \t \n \t world", "hello\nworld"),
]


@pytest.mark.parametrize(("text", "expected"), WHITESPACE_AND_NFC_CASES)
def test_whitespace_and_nfc_normalisation(text: str, expected: str) -> None:
    assert normalise_text(text) == expected
