"""The verbatim check of the report: which extracted long strings occur in the source text,
both in their loose form (:func:`~parsescore.graph.canon.loose_text`).

The loose form of a whole source (a megabyte: NFKD, glued bullets, whitespace, casefolding)
costs more than the rest of the check put together (0.4 G instructions for 1.2 MB), and
models mostly copy such strings as they read them. So a string found as it is in the raw
source is first checked in the loose form of the words around it only; the whole source is
put in loose form only when some string is not settled that way.

Why a window is exact: cut the source right after a whitespace character and right before
one (or at its ends). NFKD decomposes character by character and reorders combining marks
only between two starters, and whitespace characters are starters whose decompositions are
whitespace; a glued bullet is a run of bullet characters after whitespace or the text's
start; the words are split at whitespace; casefolding works character by character and makes
no whitespace. So the loose form of such a window is a run of whole words of the source's
loose form, joined by the same single spaces: a substring of it. A string found in the
window's loose form is found in the source's, and only a string not found so is looked for
in the whole source's loose form.
"""

from __future__ import annotations

from functools import cached_property

from parsescore.graph.canon import contained_in, loose_text

__all__: list[str] = []  # internal: the report's

WINDOW_WORD_MAX = 256
"""How far a window is widened from a found string to the whitespace around it; a longer
word leaves the string to the whole source's loose form."""
WINDOW_MISSES = 8
"""After this many strings not settled by a window, the rest are looked for in the whole
source's loose form (which is then needed anyway) without trying theirs."""


class LooseSource:
    """A source text whose loose form is computed only when a check needs all of it."""

    def __init__(self, raw: str) -> None:
        self.raw = raw

    @cached_property
    def text(self) -> str:
        """:func:`loose_text` of the whole source."""
        return loose_text(self.raw)

    def __bool__(self) -> bool:
        """Whether the loose form is not empty: it keeps a word for every run of the
        source's non-whitespace (a glued bullet leaves the rest of its word, a word of
        bullets its last), so an ASCII character that is not whitespace settles it."""
        if "text" in self.__dict__:
            return bool(self.text)
        if self.raw.encode("ascii", "ignore").decode("ascii").strip():
            return True
        return bool(self.text)

    def contains(self, values: list[str]) -> list[bool]:
        """``[loose_text(v) in loose_text(source) for v in values]``."""
        needles = [loose_text(value) for value in values]
        if "text" in self.__dict__:
            return contained_in(needles, self.text)
        found: list[bool] = []
        misses = 0
        for value, needle in zip(values, needles, strict=True):
            hit = misses < WINDOW_MISSES and self._in_window(value, needle)
            misses += not hit
            found.append(hit)
        rest = [index for index, hit in enumerate(found) if not hit]
        if rest:
            hits = contained_in([needles[i] for i in rest], self.text)
            for index, hit in zip(rest, hits, strict=True):
                found[index] = hit
        return found

    def _in_window(self, value: str, needle: str) -> bool:
        """Whether ``needle`` (the loose form of ``value``) is in the loose form of the words
        around the first raw occurrence of ``value`` (False: not settled here)."""
        if not needle:
            return True  # the empty string is in every text
        piece = value.strip()
        raw = self.raw
        at = raw.find(piece) if piece else -1
        if at < 0:
            return False
        start, end = at, at + len(piece)
        floor, ceiling = max(0, start - WINDOW_WORD_MAX), min(len(raw), end + WINDOW_WORD_MAX)
        while start > floor and not raw[start - 1].isspace():
            start -= 1
        while end < ceiling and not raw[end].isspace():
            end += 1
        if (start > 0 and not raw[start - 1].isspace()) or (
            end < len(raw) and not raw[end].isspace()
        ):
            return False  # a word too long to widen to
        return needle in loose_text(raw[start:end])
