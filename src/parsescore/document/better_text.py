"""Text of the ``parsescore`` profile: the named normalisation profiles, and the character and
word error counts of a block pair with jiwer's definitions, computed with rapidfuzz.

jiwer (``jiwer.cer`` / ``jiwer.wer`` with their default transforms) counts, per pair, the
Levenshtein edits S + D + I between the reference and the hypothesis — characters of the
stripped strings for CER; for WER the words of the string with runs of two or more whitespace
characters made one space, stripped, then split on single spaces — and divides the sums over all
pairs by the reference's length H + S + D. The same counts come here from
``rapidfuzz.distance.Levenshtein`` (jiwer uses rapidfuzz's opcodes too), without jiwer at run
time; ``tests/document/test_better.py`` checks the parity with jiwer itself.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from rapidfuzz.distance import Levenshtein

from parsescore.shared.distance import dashes, quotes

__all__ = [
    "PROFILES",
    "NormalisationName",
    "PairCounts",
    "formula_text",
    "jiwer_words",
    "normaliser",
    "pair_counts",
]

#: The text normalisation profiles of ``--normalisation`` (see :data:`PROFILES`).
NormalisationName = Literal["unicode", "whitespace", "none", "omnidocbench"]

_ESCAPES = re.compile(r"\\[tn]")
_WHITESPACE = re.compile(r"\s+")
_MULTIPLE_SPACES = re.compile(r"\s\s+")


def _none(text: str) -> str:
    return text


def _whitespace(text: str) -> str:
    """Every run of whitespace one space; both ends stripped."""
    return _WHITESPACE.sub(" ", text).strip()


def _unicode(text: str) -> str:
    """NFKC; the escaped ``\\t`` ``\\n`` sequences OmniDocBench's truth texts hold are spaces;
    dashes and curly quotes unified (the shared steps); then :func:`_whitespace`."""
    text = unicodedata.normalize("NFKC", text)
    text = _ESCAPES.sub(" ", text)
    return _whitespace(quotes(dashes(text)))


def _omnidocbench(text: str) -> str:
    """OmniDocBench v1.5's text key: inline LaTeX to Unicode, then word characters and CJK only
    (no spaces are left, so each page block is one word for WER)."""
    from parsescore.document.normalise import text_key

    return text_key(text)


#: Each profile: what it does, in order (the docs list the same steps).
PROFILES: dict[str, tuple[str, Callable[[str], str]]] = {
    "unicode": (
        "NFKC; escaped \\t and \\n sequences as spaces; dashes and curly quotes unified; "
        "whitespace runs one space, ends stripped",
        _unicode,
    ),
    "whitespace": ("whitespace runs one space, ends stripped", _whitespace),
    "none": ("the text as written (jiwer's own stripping of each block only)", _none),
    "omnidocbench": (
        "OmniDocBench v1.5's text normalisation: inline LaTeX to Unicode, escaped \\t \\n "
        "removed, only word characters and CJK kept (no spaces)",
        _omnidocbench,
    ),
}


def normaliser(name: str) -> Callable[[str], str]:
    """The normalisation of profile ``name`` followed by jiwer's stripping of each string."""
    step = PROFILES[name][1]

    def normalise(text: str) -> str:
        return step(text).strip()

    return normalise


_FORMULA_DELIMITERS = re.compile(r"^\s*(\$\$|\\\[|\$|\\\()|(\$\$|\\\]|\$|\\\))\s*$")


def formula_text(latex: str) -> str:
    """A display formula as compared: its delimiters and every whitespace character removed
    (LaTeX spacing in the source is not what the page shows)."""
    return _WHITESPACE.sub("", _FORMULA_DELIMITERS.sub("", latex.strip()))


def jiwer_words(text: str) -> list[str]:
    """The words of ``text`` as jiwer's ``wer_default`` makes them."""
    return [w for w in _MULTIPLE_SPACES.sub(" ", text).strip().split(" ") if w]


@dataclass(frozen=True, slots=True)
class PairCounts:
    """The counts of one truth/prediction pair (either side may be empty: a missed or an
    invented block).

    Attributes:
        char_edits: Levenshtein distance between the two strings (jiwer's S + D + I).
        truth_chars, pred_chars: the strings' lengths.
        word_edits: Levenshtein distance between their jiwer words.
        truth_words: the truth's number of jiwer words.
    """

    char_edits: int
    truth_chars: int
    pred_chars: int
    word_edits: int
    truth_words: int


def pair_counts(truth: str, pred: str) -> PairCounts:
    """Counts of two normalised strings.

    >>> pair_counts("kitten sat", "sitting sat")
    PairCounts(char_edits=3, truth_chars=10, pred_chars=11, word_edits=1, truth_words=2)
    """
    truth_words, pred_words = jiwer_words(truth), jiwer_words(pred)
    return PairCounts(
        Levenshtein.distance(truth, pred),
        len(truth),
        len(pred),
        Levenshtein.distance(truth_words, pred_words),
        len(truth_words),
    )
