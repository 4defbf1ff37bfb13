"""Text of the ``parsescore`` profile: the named normalisation profiles and the formula key.

The character and word error counts with jiwer's definitions are the shared
:func:`parsescore.shared.distance.error_counts` (rapidfuzz; jiwer is not needed at run time):
jiwer (``jiwer.cer`` / ``jiwer.wer`` with their default transforms) counts, per pair, the
Levenshtein edits S + D + I between the stripped reference and hypothesis (characters for CER,
:func:`~parsescore.shared.distance.jiwer_words` for WER) and divides the sums over all pairs by
the reference's length H + S + D. Every profile ends with jiwer's stripping of each string.
``tests/document/test_better.py`` checks the parity with jiwer itself.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from parsescore.shared.distance import dashes, quotes

__all__ = ["PROFILES", "formula_text", "normaliser"]

_ESCAPES = re.compile(r"\\[tn]")
_WHITESPACE = re.compile(r"\s+")


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


#: Each profile of ``--normalisation`` (``DocumentOptions.normalisation`` lists the same names):
#: what it does, in order (the docs list the same steps), and the function.
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
