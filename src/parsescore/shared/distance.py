"""Text normalisation and text distances shared by every kind.

Flowde's default distance (and a sensible default elsewhere) is Levenshtein on normalised
text. Normalisation is a pipeline of small named steps so that each
step can be tested, reused and explained on its own.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from rapidfuzz.distance import Levenshtein

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "BULLET_CHARS",
    "CARET_CHARS",
    "DASH_CHARS",
    "DOUBLE_QUOTES",
    "NORMALISATION_STEPS",
    "SINGLE_QUOTES",
    "DistanceFnProtocol",
    "ErrorCounts",
    "TextCostLists",
    "TextCosts",
    "checked_distance",
    "error_counts",
    "jiwer_words",
    "levenshtein",
    "levenshtein_with_text_normalisation",
    "normalise_text",
    "text_cost_lists",
    "text_costs",
]

BULLET_CHARS = (
    "\u2022\u25cf\u25cb\u25aa\u25ab\u25fb\u25a0\u25a1\u25e6\u2023\u2043\u2219\u2666\u25c6\u2610"
)
DASH_CHARS = "\u2010-\u2012\u2013\u2014\u2015\u2212"
SINGLE_QUOTES = "\u2018\u2019\u201a\u201b"
DOUBLE_QUOTES = "\u201c\u201d\u201e\u201f"
CARET_CHARS = "^\u02c6\u0302"


def _char_class(chars: str) -> re.Pattern[str]:
    return re.compile(f"[{re.escape(chars)}]")


_BULLET_RE = _char_class(BULLET_CHARS)
_DASH_RE = _char_class(DASH_CHARS)
_SINGLE_QUOTE_RE = _char_class(SINGLE_QUOTES)
_DOUBLE_QUOTE_RE = _char_class(DOUBLE_QUOTES)
_CARET_RE = _char_class(CARET_CHARS)
_ORDINALS = [
    (re.compile(r"(?<=\d)ˢᵗ"), "st"),
    (re.compile(r"(?<=\d)ⁿᵈ"), "nd"),
    (re.compile(r"(?<=\d)ʳᵈ"), "rd"),
    (re.compile(r"(?<=\d)ᵗʰ"), "th"),
]
_BR_RUN_RE = re.compile(r"(?:<br\s*/?>\s*){2,}", re.IGNORECASE)
_LETTER_O_BULLET_RE = re.compile(r"(?m)^[ \t]*[oO]\s+")
_SPACES_RE = re.compile(r" +")
# Patterns that may start inside a whitespace run are written so that a match starts only where
# a run starts (or right after the previous match): a regex engine would otherwise try, and fail,
# at every position of a long run (quadratic; 60,000 newlines took seconds). Same matches.
_SPACES_AROUND_NEWLINE_RE = re.compile(r"(?<! ) *+\n *+|(?<= )\n *+")
_LEADING_BULLET_RE = re.compile(r"(?m)^[ \t]*•\s*")
_LEADING_DASH_RE = re.compile(r"(?m)^[ \t]*-\s*")
_SPACE_BEFORE_PUNCT_RE = re.compile(r"(?<!\s)\s++([,.;:!?%)\]])")
_SPACE_AFTER_OPEN_RE = re.compile(r"([(\[])\s+")
_EQUALS_RE = re.compile(r"(?<!\s)\s*+=\s*+|(?<=\s)=\s*+")
_PLUS_RE = re.compile(r"(?<![^\S\n])[^\S\n]*+\+[^\S\n]*+|(?<=[^\S\n])\+[^\S\n]*+")
_WORD_HYPHEN_RE = re.compile(r"(?<=\w)\s*-\s*(?=\w)")
_NEWLINES_RE = re.compile(r"\n+")
_MULTIPLE_SPACES_RE = re.compile(r"\s\s+")


def nfc(text: str) -> str:
    """Step 1: compose characters so that equal-looking text compares equal."""
    return unicodedata.normalize("NFC", text)


def ordinal_superscripts(text: str) -> str:
    """Step 2: ``1ˢᵗ`` → ``1st`` (only directly after a digit)."""
    for pattern, replacement in _ORDINALS:
        text = pattern.sub(replacement, text)
    return text


def line_endings_and_tabs(text: str) -> str:
    """Step 3: ``\\r\\n`` and ``\\r`` become ``\\n``; a tab is a space."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")


def html_break_runs(text: str) -> str:
    """Step 4: two or more ``<br>`` variants in a row become one ``<br>``."""
    return _BR_RUN_RE.sub("<br>", text)


def bullets(text: str) -> str:
    """Step 5: bullet glyphs become ``•``; a line starting ``o``/``O`` + space is a bullet."""
    text = _BULLET_RE.sub("•", text)
    return _LETTER_O_BULLET_RE.sub("• ", text)


def dashes(text: str) -> str:
    """Step 6: hyphen, figure/en/em dash, horizontal bar, minus → ``-``."""
    return _DASH_RE.sub("-", text)


def quotes(text: str) -> str:
    """Step 7: curly and low quotes become straight quotes."""
    return _DOUBLE_QUOTE_RE.sub('"', _SINGLE_QUOTE_RE.sub("'", text))


def carets(text: str) -> str:
    """Step 8: circumflex look-alikes become ``^``."""
    return _CARET_RE.sub("^", text)


def spaces(text: str) -> str:
    """Step 9: runs of spaces become one; spaces around a newline go."""
    return _SPACES_AROUND_NEWLINE_RE.sub("\n", _SPACES_RE.sub(" ", text))


def punctuation_spacing(text: str) -> str:
    """Step 10: canonical spacing around bullets, punctuation, brackets, ``=``, ``+``, ``-``."""
    text = _LEADING_BULLET_RE.sub("• ", text)
    text = _LEADING_DASH_RE.sub("- ", text)
    text = _SPACE_BEFORE_PUNCT_RE.sub(r"\1", text)
    text = _SPACE_AFTER_OPEN_RE.sub(r"\1", text)
    text = _EQUALS_RE.sub(" = ", text)
    text = _PLUS_RE.sub("+", text)
    text = _WORD_HYPHEN_RE.sub("-", text)
    return _SPACES_RE.sub(" ", text)


def newlines_and_strip(text: str) -> str:
    """Step 11: repeated newlines become one; strip both ends."""
    return _NEWLINES_RE.sub("\n", text).strip()


NORMALISATION_STEPS: tuple[Callable[[str], str], ...] = (
    nfc,
    ordinal_superscripts,
    line_endings_and_tabs,
    html_break_runs,
    bullets,
    dashes,
    quotes,
    carets,
    spaces,
    punctuation_spacing,
    newlines_and_strip,
)


def normalise_text(text: str) -> str:
    """Normalise text the way Flowde's default distance does (no lowercasing, no accents).

    >>> normalise_text("n=10 ,  \\u2013 Follow \\u2013 up")
    'n = 10, - Follow-up'
    """
    for step in NORMALISATION_STEPS:
        text = step(text)
    return text


@runtime_checkable
class DistanceFnProtocol(Protocol):
    """A text distance: keyword-only, ``None`` means "no text on this side".

    Must return a finite, non-negative number; lower is closer.
    """

    def __call__(self, *, true_text: str | None, pred_text: str | None) -> float: ...


def _both_none_check(true_text: str | None, pred_text: str | None) -> tuple[str, str]:
    if true_text is None and pred_text is None:
        raise ValueError("Both true_text and pred_text cannot be None.")
    return true_text or "", pred_text or ""


def levenshtein(*, true_text: str | None, pred_text: str | None) -> int:
    """Character Levenshtein distance; ``None`` counts as ``""`` (both ``None``: ValueError).

    >>> levenshtein(true_text="kitten", pred_text="sitting")
    3
    """
    true_text, pred_text = _both_none_check(true_text, pred_text)
    return Levenshtein.distance(true_text, pred_text)


def levenshtein_with_text_normalisation(*, true_text: str | None, pred_text: str | None) -> int:
    """Levenshtein distance after :func:`normalise_text` on both sides (Flowde's default).

    >>> levenshtein_with_text_normalisation(true_text="n=10", pred_text="n = 10")
    0
    >>> levenshtein_with_text_normalisation(true_text=None, pred_text=" ABC ")
    3
    """
    true_text, pred_text = _both_none_check(true_text, pred_text)
    return Levenshtein.distance(normalise_text(true_text), normalise_text(pred_text))


def checked_distance(
    distance_fn: DistanceFnProtocol, *, true_text: str | None, pred_text: str | None
) -> float:
    """Call a distance function and insist on a finite, non-negative result."""
    cost = float(distance_fn(true_text=true_text, pred_text=pred_text))
    if not math.isfinite(cost) or cost < 0:
        raise ValueError(
            f"Text distance functions must return finite, non-negative costs. Found {cost} "
            f"for true_text={true_text!r}, pred_text={pred_text!r}."
        )
    return cost


class TextCosts:
    """All costs needed to match two lists of texts: pairs, and each item left unmatched."""

    __slots__ = ("paired", "unmatched_pred", "unmatched_true")

    def __init__(
        self, paired: np.ndarray, unmatched_true: np.ndarray, unmatched_pred: np.ndarray
    ) -> None:
        self.paired = paired
        self.unmatched_true = unmatched_true
        self.unmatched_pred = unmatched_pred


# Labels and repeated texts are normalised again and again (every label-list pair of a
# flowchart): the steps are pure, so one bounded cache serves every call.
_normalise_cached = functools.lru_cache(maxsize=1 << 16)(normalise_text)

_BUILTIN_PREPROCESSORS: dict[object, Callable[[str], str] | None] = {
    levenshtein: None,
    levenshtein_with_text_normalisation: _normalise_cached,
}


class TextCostLists:
    """:class:`TextCosts` as Python lists (a small pair's, scored without importing NumPy)."""

    __slots__ = ("paired", "unmatched_pred", "unmatched_true")

    def __init__(
        self, paired: list[list[float]], unmatched_true: list[float], unmatched_pred: list[float]
    ) -> None:
        self.paired = paired
        self.unmatched_true = unmatched_true
        self.unmatched_pred = unmatched_pred

    def as_arrays(self) -> TextCosts:
        """The same numbers as the arrays :func:`text_costs` makes."""
        import numpy as np

        n_true, n_pred = len(self.unmatched_true), len(self.unmatched_pred)
        return TextCosts(
            np.array(self.paired, dtype=np.float64).reshape(n_true, n_pred),
            np.array(self.unmatched_true, dtype=np.float64),
            np.array(self.unmatched_pred, dtype=np.float64),
        )


def _cached_cost(distance_fn: DistanceFnProtocol) -> Callable[[str | None, str | None], float]:
    """``distance_fn`` checked and remembered per pair of texts (repeated texts are common)."""
    cache: dict[tuple[str | None, str | None], float] = {}

    def cost(true_text: str | None, pred_text: str | None) -> float:
        key = (true_text, pred_text)
        if key not in cache:
            cache[key] = checked_distance(distance_fn, true_text=true_text, pred_text=pred_text)
        return cache[key]

    return cost


def text_costs(
    true_texts: Sequence[str], pred_texts: Sequence[str], distance_fn: DistanceFnProtocol
) -> TextCosts:
    """Cost matrix between two text lists plus unmatched costs (``distance(text, None)``).

    For the built-in Levenshtein distances each text is normalised once and the matrix comes
    from ``rapidfuzz.process.cdist`` — the same numbers as calling the function per pair.
    """
    import numpy as np
    from rapidfuzz import process

    n_true, n_pred = len(true_texts), len(pred_texts)
    if distance_fn in _BUILTIN_PREPROCESSORS:
        prep = _BUILTIN_PREPROCESSORS[distance_fn]
        true_norm = [prep(t) for t in true_texts] if prep else list(true_texts)
        pred_norm = [prep(t) for t in pred_texts] if prep else list(pred_texts)
        if n_true and n_pred:
            paired = process.cdist(
                true_norm, pred_norm, scorer=Levenshtein.distance, dtype=np.int64, workers=1
            ).astype(np.float64)
        else:
            paired = np.zeros((n_true, n_pred), dtype=np.float64)
        unmatched_true = np.array([len(t) for t in true_norm], dtype=np.float64)
        unmatched_pred = np.array([len(t) for t in pred_norm], dtype=np.float64)
        return TextCosts(paired, unmatched_true, unmatched_pred)

    cost = _cached_cost(distance_fn)
    paired = np.empty((n_true, n_pred), dtype=np.float64)
    for i, t in enumerate(true_texts):
        for j, p in enumerate(pred_texts):
            paired[i, j] = cost(t, p)
    unmatched_true = np.array([cost(t, None) for t in true_texts], dtype=np.float64)
    unmatched_pred = np.array([cost(None, p) for p in pred_texts], dtype=np.float64)
    return TextCosts(paired, unmatched_true, unmatched_pred)


def text_cost_lists(
    true_texts: Sequence[str], pred_texts: Sequence[str], distance_fn: DistanceFnProtocol
) -> TextCostLists:
    """:func:`text_costs` on Python lists, for a few texts: the same numbers (Levenshtein per
    pair instead of ``cdist``), without importing NumPy."""
    if distance_fn in _BUILTIN_PREPROCESSORS:
        prep = _BUILTIN_PREPROCESSORS[distance_fn]
        true_norm = [prep(t) for t in true_texts] if prep else list(true_texts)
        pred_norm = [prep(t) for t in pred_texts] if prep else list(pred_texts)
        distance = Levenshtein.distance
        return TextCostLists(
            [[float(distance(t, p)) for p in pred_norm] for t in true_norm],
            [float(len(t)) for t in true_norm],
            [float(len(p)) for p in pred_norm],
        )
    cost = _cached_cost(distance_fn)
    return TextCostLists(
        [[cost(t, p) for p in pred_texts] for t in true_texts],
        [cost(t, None) for t in true_texts],
        [cost(None, p) for p in pred_texts],
    )


def jiwer_words(text: str) -> list[str]:
    """The words of ``text`` as jiwer's default WER transform makes them: runs of two or more
    whitespace characters become one space, the ends are stripped, then the text is split on
    single spaces (a lone newline or tab stays inside a word, as in jiwer).

    >>> jiwer_words(" a  b\\tc\\nd ")
    ['a', 'b\\tc\\nd']
    """
    return [w for w in _MULTIPLE_SPACES_RE.sub(" ", text).strip().split(" ") if w]


@dataclass(frozen=True, slots=True)
class ErrorCounts:
    """Character and word error counts of one reference/hypothesis pair, as jiwer counts them
    (either side may be empty: a missed or an invented text).

    Attributes:
        char_edits: Levenshtein distance between the two strings (jiwer's S + D + I).
        truth_chars, pred_chars: the strings' lengths (jiwer's H + S + D is ``truth_chars``).
        word_edits: Levenshtein distance between their :func:`jiwer_words`.
        truth_words: the reference's number of words.
    """

    char_edits: int
    truth_chars: int
    pred_chars: int
    word_edits: int
    truth_words: int


def error_counts(truth: str, pred: str) -> ErrorCounts:
    """The counts behind jiwer's CER and WER for one pair (CER = Σ ``char_edits`` / Σ
    ``truth_chars`` over pairs; WER likewise with words). jiwer's CER also strips each string
    first; strip before calling to match it. rapidfuzz computes the distances, as jiwer's own
    opcodes come from rapidfuzz, so jiwer is not needed at run time.

    >>> error_counts("kitten sat", "sitting sat")
    ErrorCounts(char_edits=3, truth_chars=10, pred_chars=11, word_edits=1, truth_words=2)
    """
    truth_words, pred_words = jiwer_words(truth), jiwer_words(pred)
    return ErrorCounts(
        Levenshtein.distance(truth, pred),
        len(truth),
        len(pred),
        Levenshtein.distance(truth_words, pred_words),
        len(truth_words),
    )
