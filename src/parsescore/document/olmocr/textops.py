"""olmOCR-bench's text operations, reproduced for its decisions: the normalisation every test
applies, the near-match search of ``order`` tests (fuzzysearch's Levenshtein search, whose
overlapping matches are merged before they are compared), and the repetition count of the
``baseline`` test.

>>> normalise("**Bold** and _it_ — “quoted”<br>x")
'Bold and it - "quoted" x'
>>> near_match_starts("PATTERN", "---PATERN---", 1)
[3]
>>> tail_repeats("abcabcabc", 5)
[1, 1, 3, 1, 1]
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterator

__all__ = [
    "near_match_groups",
    "near_match_starts",
    "normalise",
    "raw_near_matches",
    "tail_repeats",
]

_BR = re.compile(r"<br/?>")
_BOLD_STARS = re.compile(r"\*\*(.*?)\*\*")
_BOLD_UNDERSCORES = re.compile(r"__(.*?)__")
_HTML_B = re.compile(r"</?b>")
_HTML_I = re.compile(r"</?i>")
_BOLD_PAIR = re.compile(r"(\*\*|__)(.*?)\1")
_ITALIC_PAIR = re.compile(r"(\*|_)(.*?)\1")
_SPACES = re.compile(r"\s+")
#: typographic characters olmOCR-bench folds to ASCII (and the micro sign to Greek mu), in its
#: order (the order matters only for characters that map onto another key: none do)
_FOLDS = str.maketrans({
    "‘": "'", "’": "'", "‚": "'", "“": '"', "”": '"', "„": '"', "＿": "_", "–": "-",
    "—": "-", "‑": "-", "‒": "-", "−": "-", "\u00b5": "\u03bc",
})  # fmt: skip


def normalise(text: str) -> str:
    """olmOCR-bench's ``normalize_text``: line breaks as spaces, Markdown/HTML bold and italics
    unwrapped, whitespace runs collapsed, NFC, typographic quotes and dashes folded."""
    # each step only where it can change something (a cell or a short text usually has no markup)
    if "<" in text:
        text = _BR.sub(" ", text)
    stars, underscores = "*" in text, "_" in text
    if stars:
        text = _BOLD_STARS.sub(r"\1", text)
    if underscores:
        text = _BOLD_UNDERSCORES.sub(r"\1", text)
    if "<" in text:
        text = _HTML_B.sub("", text)
        text = _HTML_I.sub("", text)
    if stars or underscores:
        text = _BOLD_PAIR.sub(r"\2", text)
        text = _ITALIC_PAIR.sub(r"\2", text)
    text = _SPACES.sub(" ", text)
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return text.translate(_FOLDS)


def tail_repeats(text: str, longest: int) -> list[int]:
    """For n = 1..``longest``: how many times the text's last n characters repeat back to back at
    its end, whitespace runs counted as one space (olmOCR's ``RepeatDetector``).

    Only the text's end is collapsed and searched, widened until every count stops short of
    where it was cut (then the counts are those of the whole text)."""
    if not text:
        return [0] * longest
    size = 4 * longest + 64
    while True:
        # the end collapsed is the whole text collapsed's end (a run cut in two still ends as
        # one space), so windows inside it compare the same characters
        cut = max(0, len(text) - size)
        counts, whole = _tail_repeats(_SPACES.sub(" ", text[cut:]), longest)
        if cut == 0 or not whole:
            return counts
        size *= 4


def _tail_repeats(text: str, longest: int) -> tuple[list[int], bool]:
    """The counts on ``text`` and whether one of them ran back to its start (where an earlier
    part of the text could have continued it)."""
    counts = [0] * longest
    whole = False
    for size in range(1, longest + 1):
        if len(text) < size:
            whole = True
            continue
        target = text[-size:]
        count = 0
        pos = len(text) - size
        while pos >= 0 and text.startswith(target, pos):
            count += 1
            pos -= size
        if pos < 0:
            whole = True  # the next window would start before the cut
        counts[size - 1] = count
    return counts, whole


# --- fuzzysearch's find_near_matches(needle, text, max_l_dist=d), as olmOCR-bench calls it ---


def near_match_starts(needle: str, text: str, max_dist: int) -> list[int]:
    """Start offsets of the matches fuzzysearch 0.8 reports for ``needle`` within Levenshtein
    distance ``max_dist`` of a part of ``text``: every exact occurrence when ``max_dist`` is 0,
    otherwise one match per group of overlapping candidates (the one with the fewest edits, then
    the longest). Where several are equally good fuzzysearch takes the first in a set's order,
    which follows Python's per-process hash seed (its answer changes from run to run); we take
    the earliest."""
    return [min(ties) for ties in near_match_groups(needle, text, max_dist)]


def near_match_groups(needle: str, text: str, max_dist: int) -> list[list[int]]:
    """For each match fuzzysearch reports (in text order), the starts it can report there: one
    start, or the equally good candidates of a group among which its choice is by hash order."""
    if not needle:
        raise ValueError("the text to search for is empty")
    if max_dist == 0:
        return [[start] for start in _exact(needle, text, 0, len(text))]
    return _groups(raw_near_matches(needle, text, max_dist))


def raw_near_matches(
    needle: str, text: str, max_dist: int, *, compiled: bool | None = None
) -> list[tuple[int, int, int]]:
    """fuzzysearch's candidates (start, end, edits) before overlapping ones are merged: its
    n-gram search when the needle is long enough for one of ``max_dist + 1`` pieces of at least
    3 characters to be intact, else its candidate-list search. ``compiled=False``: the pure
    Python expansion (the definition the kernels are checked against)."""
    if len(needle) // (max_dist + 1) >= 3:
        return list(_ngram_search(needle, text, max_dist, compiled=compiled))
    return list(_linear_search(needle, text, max_dist))


def _exact(needle: str, text: str, start: int, end: int) -> Iterator[int]:
    start = max(0, min(start, len(text)))
    end = max(start, min(end, len(text)))
    index = text.find(needle, start, end)
    while index >= 0:
        yield index
        index = text.find(needle, index + 1, end)


def _groups(matches: list[tuple[int, int, int]]) -> list[list[int]]:
    """fuzzysearch's consolidation: matches whose spans overlap are grouped (a new match joining
    two groups merges them, so groups never overlap); each group's best matches (fewest edits,
    then longest) give the starts it may report."""
    groups: list[tuple[int, int, list[tuple[int, int, int]]]] = []
    for match in matches:
        start, end, _ = match
        hit = [g for g in groups if not (end <= g[0] or start >= g[1])]
        if not hit:
            groups.append((start, end, [match]))
            continue
        members = [match]
        low, high = start, end
        for group in hit:
            members += group[2]
            low, high = min(low, group[0]), max(high, group[1])
        groups = [g for g in groups if all(g is not h for h in hit)]
        groups.append((low, high, members))
    found = []
    for _, _, members in sorted(groups, key=lambda g: g[0]):
        best = min((m[2], m[0] - m[1]) for m in members)
        found.append(sorted({m[0] for m in members if (m[2], m[0] - m[1]) == best}))
    return sorted(found)


# A needle that the text starts with expands to (0, len(needle)) in both variants (the tests
# check it): by induction on the rows, after row i < len(needle) cell i holds 0 and every other
# cell at least 1 (cell i's diagonal is cell i - 1's 0 and the characters are equal; any other
# cell's diagonal is at least 1, its above and left at least 0 before adding 1). The long
# variant's band always holds cell i (cell i - 1 was within its limit) and reaches the last cell
# on row len(needle) - 1, whose 0 is the best; later rows hold no 0 (every diagonal is at least
# 1), so neither the best nor its length changes. Most expansions of real matches are such.


def _slow_expand(needle: str, text: str, max_dist: int) -> tuple[int, int] | None:
    """The fewest edits turning ``needle`` into a prefix of ``text`` (and that prefix's length,
    the longest among the best), or None above ``max_dist``: fuzzysearch's expansion, in its
    short and long (banded) variants, which can differ at the margins."""
    if text.startswith(needle):
        return 0, len(needle)  # see the note above
    if len(needle) > max(max_dist * 2, 10):
        return _expand_long(needle, text, max_dist)
    return _expand_short(needle, text, max_dist)


def _expand_short(needle: str, text: str, max_dist: int) -> tuple[int, int] | None:
    global _python_cells
    size = len(needle)
    scores = list(range(1, size + 1))
    best, best_at = size, -1
    rows = 0
    for at, char in enumerate(text):
        rows += 1
        diagonal = at
        left = diagonal + 1
        for k, wanted in enumerate(needle):
            # min(diagonal + (char != wanted), above + 1, left + 1), spelt out (it is the hot loop)
            above = scores[k]
            value = diagonal if char == wanted else diagonal + 1
            if above < value:
                value = above + 1
            if left < value:
                value = left + 1
            scores[k] = left = value
            diagonal = above
        if left <= best:
            best, best_at = left, at
        elif min(scores) >= best:
            break
    _python_cells += rows * size
    return (best, best_at + 1) if best <= max_dist else None


def _expand_long(needle: str, text: str, max_dist: int) -> tuple[int, int] | None:
    global _python_cells
    size = len(needle)
    scores = list(range(1, size + 1))
    best, best_at = size, -1
    good = max_dist
    next_low: int | None = 0
    next_high = size - 1
    cells = 0
    for at, char in enumerate(text):
        low = next_low if next_low is not None else 0
        high = size if next_high + 1 > size else next_high + 1
        cells += high - low
        diagonal = at
        left = diagonal + 1
        if left <= good:
            next_low, next_high = 0, 0
        else:
            next_low, next_high = None, -1
        for k in range(low, high):
            # min(diagonal + (char != needle[k]), above + 1, left + 1), spelt out (the hot loop)
            above = scores[k]
            value = diagonal if char == needle[k] else diagonal + 1
            if above < value:
                value = above + 1
            if left < value:
                value = left + 1
            scores[k] = left = value
            diagonal = above
            if left <= good:
                if next_low is None:
                    next_low = k
                reach = k + 1 + good - left
                if reach > next_high:
                    next_high = reach
        if next_low is None:
            break
        if high == size and left <= best:
            best, best_at = left, at
            if best < good:
                good = best
    _python_cells += cells
    return (best, best_at + 1) if best <= max_dist else None


def _fast_expand(needle: str, text: str, max_dist: int) -> tuple[int, int] | None:
    """``_expand`` through the compiled kernels (the same results)."""
    from parsescore.document.olmocr.kernels import codes, expand_long, expand_short

    if text.startswith(needle):
        return 0, len(needle)  # as the kernels find (see the note above _slow_expand)
    kernel = expand_long if len(needle) > max(max_dist * 2, 10) else expand_short
    score, length = kernel(codes(needle), codes(text), max_dist)
    return None if score < 0 else (int(score), int(length))


#: DP cells filled in Python before the compiled kernels are worth numba's import (about a
#: second of CPU, as much as ~16 million cells in Python); the results are the same either way
_PYTHON_CELLS = 16_000_000
_python_cells = 0
#: expansions already done (the same piece of needle against the same stretch of text recurs
#: across the grams, tests and repeats of a page); short ones only, at most 50,000 (a few MB)
_EXPANDED: dict[tuple[str, str, int], tuple[int, int] | None] = {}
_EXPANDED_MAX = 50_000
_EXPANDED_CHARS = 256


def _auto_expand(needle: str, text: str, max_dist: int) -> tuple[int, int] | None:
    if text.startswith(needle):
        return 0, len(needle)  # see the note above _slow_expand
    remember = len(needle) + len(text) <= _EXPANDED_CHARS
    key = (needle, text, max_dist)
    if remember:
        found = _EXPANDED.get(key, _EXPANDED)
        if found is not _EXPANDED:
            return found  # type: ignore[return-value]
    if _python_cells < _PYTHON_CELLS and "numba" not in sys.modules:
        result = _slow_expand(needle, text, max_dist)
    else:
        result = _fast_expand(needle, text, max_dist)
    if remember:
        if len(_EXPANDED) >= _EXPANDED_MAX:
            _EXPANDED.clear()
        _EXPANDED[key] = result
    return result


def _ngram_search(needle: str, text: str, max_dist: int, *, compiled: bool | None = None) -> \
        Iterator[tuple[int, int, int]]:  # fmt: skip
    """Candidates around exact occurrences of the needle's n-grams (one of d + 1 pieces must be
    intact), expanded right then left (``compiled``: by the numba kernels, or not; None: in
    Python for a small run, compiled for a large one)."""
    _expand = (_auto_expand if compiled is None else _fast_expand if compiled else
               _slow_expand)  # fmt: skip
    size, length = len(needle), len(text)
    gram = size // (max_dist + 1)
    for gram_start in range(0, size - gram + 1, gram):
        gram_end = gram_start + gram
        before = needle[:gram_start][::-1]
        after = needle[gram_end:]
        low = max(0, gram_start - max_dist)
        high = min(length, length - size + gram_end + max_dist)
        for index in _exact(needle[gram_start:gram_end], text, low, high):
            right = _expand(after, text[index + gram : index - gram_start + size + max_dist],
                            max_dist)  # fmt: skip
            if right is None:
                continue
            left_text = text[max(0, index - gram_start - (max_dist - right[0])) : index][::-1]
            left = _expand(before, left_text, max_dist - right[0])
            if left is None:
                continue
            yield index - left[1], index + gram + right[1], left[0] + right[0]


def _linear_search(needle: str, text: str, max_dist: int) -> Iterator[tuple[int, int, int]]:
    """fuzzysearch's candidate-list search for short needles (each candidate: start, position
    in the needle, edits so far)."""
    size = len(needle)
    if max_dist >= size:
        for index in range(len(text) + 1):
            yield index, index, size
        return
    first: dict[str, int] = {}
    for index in range(min(size, max_dist + 1) - 1, -1, -1):
        first[needle[index]] = index
    candidates: list[tuple[int, int, int]] = []
    for index, char in enumerate(text):
        fresh: list[tuple[int, int, int]] = []
        at = first.get(char)
        if at is not None:
            if at + 1 == size:
                yield index, index + 1, at
            else:
                fresh.append((index, at + 1, at))
        for start, pos, dist in candidates:
            if needle[pos] == char:
                if pos + 1 == size:
                    yield start, index + 1, dist
                else:
                    fresh.append((start, pos + 1, dist))
                continue
            if dist == max_dist:
                continue
            fresh.append((start, pos, dist + 1))
            if index + 1 < len(text) and pos + 1 < size:
                fresh.append((start, pos + 1, dist + 1))
            for skipped in range(1, max_dist - dist + 1):
                if pos + skipped == size:
                    yield start, index + 1, dist + skipped
                    break
                if needle[pos + skipped] == char:
                    if pos + skipped + 1 == size:
                        yield start, index + 1, dist + skipped
                    else:
                        fresh.append((start, pos + 1 + skipped, dist + skipped))
                    break
        candidates = fresh
    for start, pos, dist in candidates:
        total = dist + size - pos
        if total <= max_dist:
            yield start, len(text), total
