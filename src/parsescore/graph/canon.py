"""Canonical forms used for node identity, relaxed matching and text comparison.

Every function here reproduces one normalisation of docling-graph 1.9.1 exactly, because the
evaluation's numbers depend on them character for character (an accent kept or dropped decides
whether two nodes match).
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Iterator
from functools import cached_property, lru_cache
from itertools import takewhile
from typing import Any

__all__: list[str] = []  # internal: the kind's own machinery

NAME_LIKE_FIELDS = frozenset({"name", "title", "nom"})
"""Identity fields canonicalised as display names (UPPER_SNAKE) instead of alphanumerics."""

_LEADING_ARTICLES = ("The ", "the ", "A ", "a ", "An ", "an ")
_BARE_ARTICLES = frozenset({"The", "the", "A", "a", "An", "an"})
_WORD_SEPARATORS = re.compile(r"[\s_\-]+")
_DIGITS = re.compile(r"\d+")
# A run of bullet/dash markers glued to the next word, at the text's start or after whitespace.
# Written with the marker first (so the regex engine skips to marker characters) and the
# lookbehind after it: the same matches as ``(?<!\S)[-•*+]+(?=\S)``, several times faster.
_GLUED_BULLETS = re.compile(r"[-•*+](?<!\S[-•*+])[-•*+]*(?=\S)")
_CDATA = re.compile(r"<!\[CDATA\[(.*?)\]\]>", re.DOTALL)
_ANY_TAG = re.compile(r"<[^>]*>")


def drop_accents(text: str) -> str:
    """NFKD with the combining marks removed ("Café" → "Cafe")."""
    if text.isascii():
        return text  # already decomposed, and no combining marks
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def normalise_entity_name(raw: Any) -> str:
    """Display name → UPPER_SNAKE key ("The John-Doe's" → "JOHN_DOE"); "" when nothing is left.

    Accents are dropped, one leading English article is removed, spaces/underscores/hyphens
    all separate words and a possessive ``'s`` is dropped from each word.
    """
    if not raw or not isinstance(raw, str):
        return ""
    text = drop_accents(raw).strip()
    if not text:
        return ""
    if text.startswith(_LEADING_ARTICLES):
        for article in _LEADING_ARTICLES:
            if text.startswith(article):
                text = text[len(article) :].strip()
                break
    if text in _BARE_ARTICLES:
        return ""
    if "s" not in text:  # no possessive to drop: the words as they are
        return "_".join(filter(None, _WORD_SEPARATORS.split(text))).upper()
    words: list[str] = []
    for word in _WORD_SEPARATORS.split(text):
        if word.endswith("'s") or (len(word) >= 2 and word[-2:] == "\u2019s"):
            word = word[:-2]
        if word:
            words.append(word)
    return "_".join(words).upper()


def canonical_identity_value(field: str, value: Any) -> str:
    """Canonical form of one identity value: names as UPPER_SNAKE, others as ``[a-z0-9]*``.

    Non-string values (numbers, lists) are canonicalised through ``str(value)``, as the
    reference does.
    """
    if value is None:
        return ""
    if type(value) is str:  # the common case, cached (not a str subclass such as an Enum)
        return canonical_text(field in NAME_LIKE_FIELDS, value)
    if field in NAME_LIKE_FIELDS and isinstance(value, str):
        return normalise_entity_name(value)
    return _alphanumeric(str(value))


def _alphanumeric(raw: str) -> str:
    if raw.isascii():  # NFKD leaves ASCII as it is: only the [a-z0-9] projection is left
        if raw.isalnum():  # a number or a code: already its own form, cased
            return raw.lower()
        return raw.encode("ascii").translate(_LOWER_ASCII, _NOT_ALNUM_ASCII).decode("ascii")
    text = raw.strip()
    if not text:
        return ""
    return squash(unicodedata.normalize("NFKD", text))


@lru_cache(maxsize=1 << 16)
def canonical_text(name_like: bool, value: str) -> str:
    """:func:`canonical_identity_value` of a plain string (``name_like``: its field is in
    :data:`NAME_LIKE_FIELDS`), cached: ids repeat, in the converter's fingerprints and in both
    graphs' identity keys, and a caller with many values calls this directly."""
    return normalise_entity_name(value) if name_like else _alphanumeric(value)


_NOT_ALNUM_ASCII = bytes(b for b in range(256) if not chr(b).isascii() or not chr(b).isalnum())
_LOWER_ASCII = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
_FOLD_ERRORS = "parsescore.casefold-to-ascii"


def _casefold_to_ascii(error: UnicodeError) -> tuple[str, int]:
    """Encoding error handler: a run of non-ASCII characters replaced by what casefolding
    leaves of it in ASCII ("ß" → "ss", "é" → "")."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    run = error.object[error.start : error.end]
    return run.casefold().encode("ascii", "ignore").decode("ascii"), error.end


codecs.register_error(_FOLD_ERRORS, _casefold_to_ascii)


def squash(text: str) -> str:
    """Casefolded ``[a-z0-9]`` projection, for word-glue-tolerant containment checks.

    ASCII characters casefold as they lowercase, so only the runs of other characters are
    casefolded (by the encoder's error handler, which keeps what is ASCII of them); a byte
    table then lowercases and drops the rest (a source of a megabyte in milliseconds, where a
    regex took a tenth of a second). An ASCII alphanumeric text (most identity values) is
    already that, but for its case.
    """
    if text.isascii() and text.isalnum():
        return text.lower()
    kept = text.encode("ascii", _FOLD_ERRORS)
    return kept.translate(_LOWER_ASCII, _NOT_ALNUM_ASCII).decode("ascii")


_SPACED_ASCII = bytes(32 if b in _NOT_ALNUM_ASCII else _LOWER_ASCII[b] for b in range(256))
""":func:`squash`'s byte table with a space for each character it drops, which keeps the
words it glues together apart."""


def squash_spaced(text: str) -> str:
    """:func:`squash` with a space for each character it drops: its words, split by
    ``str.split`` and joined, are exactly the squash."""
    if text.isascii() and text.isalnum():
        return text.lower()
    return text.encode("ascii", _FOLD_ERRORS).translate(_SPACED_ASCII).decode("ascii")


def digit_runs(text: str) -> tuple[str, ...]:
    """The runs of digits in ``text``, in order (an "Article 5" must never match "Article 6").

    Identity values are mostly all letters or all digits, answered without the regex
    (``isdecimal`` is exactly the regex's ``\\d``; a letter is never a digit)."""
    if text.isalpha():
        return ()
    if text.isdecimal():
        return (text,)
    return tuple(_DIGITS.findall(text))


def loose_text(text: str) -> str:
    """Comparison form of free text: NFKD, glued bullets dropped, spaces collapsed, casefold."""
    text = unicodedata.normalize("NFKD", text)
    text = _GLUED_BULLETS.sub("", text)
    # ``str.split`` splits at the characters ``\s`` matches: the runs become single spaces and
    # the ends are stripped (casefolding makes no whitespace), half a regex's work.
    return " ".join(text.split()).casefold()


def is_filled(value: Any) -> bool:
    """Whether a value carries data: None, blank strings, empty lists/dicts do not; 0/False do."""
    if value is None:
        return False
    if isinstance(value, str):
        return bool(value.strip())
    if isinstance(value, list | dict):
        return bool(value)
    return True


def strip_markup(text: str) -> str:
    """Plain content of a DocLang/XML serialisation: CDATA unwrapped, every tag removed."""
    return _ANY_TAG.sub("", _CDATA.sub(lambda match: match.group(1), text))


_HASH_BASE = 1_000_003  # odd, hence invertible modulo 2**64
_BULK_MIN_WORK = 20_000_000
"""Below this many haystack characters × needles, plain ``in`` is faster than hashing."""
_WINDOWS = (8, 12, 16, 24, 32)
"""Window lengths for needles longer than 8 characters: a needle is located by its prefix of
the longest of these it covers, then compared whole (few lengths, few passes)."""
_FILTER_BITS = 20
_TABLE_MAX = 1 << 24
"""Largest table of windows (one byte per possible window) :func:`contained_in` builds."""


def _window(length: int) -> int:
    if length <= _WINDOWS[0]:
        return length
    return max(w for w in _WINDOWS if w <= length)


def contained_in(needles: list[str], haystack: str) -> list[bool]:
    """``[needle in haystack for needle in needles]``, fast for many needles in a long text
    (see :class:`SubstringIndex`)."""
    return SubstringIndex(haystack).contains(needles)


class SubstringIndex:
    """Exact ``needle in haystack`` for many needles, over one haystack.

    Short needles (at most 8 characters, and the alphabet's size to the power of the
    needle's length at most ``_TABLE_MAX``) are looked up in a table of every window of the
    haystack of their length, each window numbered exactly in the haystack's alphabet;
    identifiers are short and a squashed text has 36 characters, so most needles go this way.
    Longer ones are hashed (see :meth:`_hashed`). A batch too small to repay a pass over the
    haystack is answered by plain ``in``. What several batches share (the alphabet, the
    tables, the prefix hashes) is built once, on first need, so a caller may ask in batches
    (:meth:`batches`) and stop when it knows enough.
    """

    def __init__(self, haystack: str) -> None:
        self.haystack = haystack
        self._tables: dict[int, Any] = {}

    def _small(self, count: int) -> bool:
        return len(self.haystack) * count < _BULK_MIN_WORK

    @cached_property
    def _alphabet(self) -> tuple[Any, Any, int, int]:
        """Each haystack character's rank in its alphabet, the rank of every code point up
        to the largest in the haystack (-1 for those it lacks), the alphabet's size and the
        longest needle a table serves."""
        import numpy as np

        codes = _code_points(self.haystack)
        present = np.zeros(int(codes.max()) + 1 if len(codes) else 1, dtype=bool)
        present[codes] = True
        # int32: a window's number stays below _TABLE_MAX (2**24)
        ranks = np.cumsum(present, dtype=np.int32) - 1
        ranks[~present] = -1
        dense = ranks[codes]
        size = int(present.sum())
        longest = 0
        while longest < _WINDOWS[0] and size ** (longest + 1) <= _TABLE_MAX:
            longest += 1
        return dense, ranks, size, longest

    def _batch(self, length: int) -> int:
        """The pass a needle of this length is looked up in: ``-length`` for a table, else
        its hash window."""
        return -length if length <= self._alphabet[3] else _window(length)

    def _by_batch(self, needles: list[str]) -> dict[int, list[int]]:
        """The positions of the non-empty needles no longer than the haystack, by batch."""
        by_length: dict[int, list[int]] = {}
        for index, length in enumerate(map(len, needles)):
            by_length.setdefault(length, []).append(index)
        grouped: dict[int, list[int]] = {}
        for length, indexes in by_length.items():
            if 0 < length <= len(self.haystack):
                grouped.setdefault(self._batch(length), []).extend(indexes)
        return grouped

    def batches(self, needles: list[str]) -> list[list[str]]:
        """``needles`` split into the batches :meth:`contains` answers with one pass each,
        cheapest first: the tables, then the hash windows, most needles first (a single batch
        when the work is small). Needles no pass needs (empty, or longer than the haystack)
        come last."""
        if self._small(len(needles)):
            return [needles] if needles else []
        grouped = self._by_batch(needles)
        order = sorted(grouped, key=lambda b: (b >= 0, -len(grouped[b])))
        batches = [[needles[i] for i in grouped[b]] for b in order]
        if sum(map(len, batches)) < len(needles):
            batches.append([n for n in needles if not 0 < len(n) <= len(self.haystack)])
        return batches

    def contains(self, needles: list[str]) -> list[bool]:
        """``[needle in haystack for needle in needles]``."""
        haystack = self.haystack
        if self._small(len(needles)):
            return [needle in haystack for needle in needles]
        result = [not needle for needle in needles]  # the empty needle is in every text
        for batch, indexes in self._by_batch(needles).items():
            group = [needles[i] for i in indexes]
            if self._small(len(group)):
                found = [needle in haystack for needle in group]
            elif batch < 0:
                found = self._tabled(-batch, group)
            else:
                found = self._hashed(batch, group)
            for index, hit in zip(indexes, found, strict=True):
                result[index] = hit
        return result

    def _tabled(self, length: int, needles: list[str]) -> list[bool]:
        """Needles of one length looked up in the table of the haystack's windows."""
        import numpy as np

        dense, ranks, size, _ = self._alphabet
        table = self._tables.get(length)
        if table is None:
            n = len(dense)
            windows = dense[: n - length + 1].copy()
            for offset in range(1, length):
                windows *= size
                windows += dense[offset : n - length + 1 + offset]
            table = self._tables[length] = np.zeros(size**length, dtype=bool)
            table[windows] = True
        # Each needle numbered as the windows are, all at once (a row of character ranks
        # per needle); a needle with a character the haystack lacks is not in it.
        chars = _code_points("".join(needles)).reshape(len(needles), length)
        needle_ranks = ranks[np.minimum(chars, len(ranks) - 1)]
        needle_ranks[chars >= len(ranks)] = -1
        known = (needle_ranks >= 0).all(axis=1)
        numbers = np.zeros(len(needles), dtype=np.int64)
        for column in needle_ranks.T:
            numbers *= size
            numbers += column
        found: list[bool] = (known & table[np.where(known, numbers, 0)]).tolist()
        return found

    @cached_property
    def _prefix_hashes(self) -> tuple[Any, Any]:
        """The haystack's prefix hashes and the inverse powers that turn their differences
        into window hashes."""
        import numpy as np

        codes = _code_points(self.haystack)
        n = len(codes)
        with np.errstate(over="ignore"):  # few arrays, computed in place
            powers = np.full(n, _HASH_BASE, dtype=np.uint64)
            powers[0] = 1
            np.cumprod(powers, out=powers)
            prefix = np.zeros(n + 1, dtype=np.uint64)
            np.multiply(codes, powers, out=prefix[1:])
            np.cumsum(prefix[1:], out=prefix[1:])
            del powers
            inverse_powers = np.full(n, pow(_HASH_BASE, -1, 1 << 64), dtype=np.uint64)
            inverse_powers[0] = 1
            np.cumprod(inverse_powers, out=inverse_powers)
        return prefix, inverse_powers

    def _hashed(self, length: int, needles: list[str]) -> list[bool]:
        """Needles located by the hash of their first ``length`` characters.

        Every window of the haystack of that length is hashed (a rolling polynomial hash in
        wrapping uint64 numpy arithmetic; needles longer than 8 characters are located by a
        prefix of 8, 12, 16, 24 or 32 characters, so there are few lengths). A bit table of
        the wanted hashes filters the windows before the exact hash lookup, and each window
        whose hash equals a needle's prefix hash is then compared character for character,
        so the answer is exact.
        """
        import numpy as np

        haystack = self.haystack
        prefix, inverse_powers = self._prefix_hashes
        n = len(haystack)
        powers = np.array([pow(_HASH_BASE, i, 1 << 64) for i in range(length)], dtype=np.uint64)
        prefixes = _code_points("".join([needle[:length] for needle in needles]))
        with np.errstate(over="ignore"):  # each needle's prefix hash, all at once
            values = (prefixes.reshape(len(needles), length) * powers).sum(axis=1, dtype=np.uint64)
        needle_hashes: dict[int, list[int]] = {}
        for index, value in enumerate(values.tolist()):
            needle_hashes.setdefault(value, []).append(index)
        mask = np.uint64((1 << _FILTER_BITS) - 1)
        wanted = np.array(sorted(needle_hashes), dtype=np.uint64)
        table = np.zeros(1 << _FILTER_BITS, dtype=bool)
        table[wanted & mask] = True
        with np.errstate(over="ignore"):
            windows = np.subtract(prefix[length:], prefix[:-length])
            windows *= inverse_powers[: n - length + 1]
        maybe = np.nonzero(table[windows & mask])[0]
        candidates = windows[maybe]
        del windows
        slots = np.minimum(np.searchsorted(wanted, candidates), len(wanted) - 1)
        hit = wanted[slots] == candidates
        hit_values, hit_positions = candidates[hit], maybe[hit]
        order = np.argsort(hit_values, kind="stable")
        hit_values, hit_positions = hit_values[order], hit_positions[order]
        values = np.array(list(needle_hashes), dtype=np.uint64)
        lows = np.searchsorted(hit_values, values, side="left").tolist()
        highs = np.searchsorted(hit_values, values, side="right").tolist()
        positions = hit_positions.tolist()  # one conversion, not one per needle
        found = [False] * len(needles)
        for group, low, high in zip(needle_hashes.values(), lows, highs, strict=True):
            for index in group:
                found[index] = _occurs(needles[index], haystack, positions, low, high)
        return found


def _code_points(text: str) -> Any:
    """The code points of ``text`` as a uint32 array."""
    import numpy as np

    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


def _occurs(needle: str, haystack: str, positions: list[int], low: int, high: int) -> bool:
    """Whether ``needle`` starts at one of ``positions[low:high]`` (its hash hits), checked
    character for character (the first hit usually matches)."""
    size = len(needle)
    for position in range(low, high):
        start = positions[position]
        if haystack[start : start + size] == needle:
            return True
    return False


_WORD_CHUNK = 1 << 16
"""Characters of a text per chunk of :meth:`SquashedText.proven` (each chunk records the first
place of each of its words: a word gets a candidate place per chunk)."""
_RUNS = re.compile(r"[a-z]+|[0-9]+")


class SquashedText:
    """A text's :func:`squash`, with a cheap exact positive check for many needles in it.

    :meth:`proven` finds values where they line up with the text's words (the runs the squash
    glues together), as identifiers are mostly written: a letter or digit run of the value's
    squash is a whole word there ("SKU-02952" holds ``sku02952``, "Relay motor 2952" holds
    ``relaymotor2952``). It goes through the text chunk by chunk, so a caller stops as soon as
    it knows enough, with no numpy and no array; what it does not find may still be in the
    text, which :attr:`index` answers exactly.
    """

    def __init__(self, text: str) -> None:
        self._spaced = squash_spaced(text)

    @cached_property
    def squashed(self) -> str:
        """:func:`squash` of the text."""
        return self._spaced.replace(" ", "")

    @cached_property
    def index(self) -> SubstringIndex:
        """The exact index of :attr:`squashed`."""
        return SubstringIndex(self.squashed)

    def has_words(self) -> bool:
        """Whether :attr:`squashed` is not empty."""
        return bool(self._spaced) and not self._spaced.isspace()

    def proven(self, values: list[str], min_length: int = 1) -> Iterator[tuple[list[int], float]]:
        """Chunk by chunk of the text, the positions of the ``values`` whose squash (of at
        least ``min_length`` characters) is shown to be in :attr:`squashed` there, each once,
        and the share of the text gone through so far.

        A value is looked for by its anchors (:func:`_anchors`): at the first place in the
        chunk where an anchor is a whole word, the words around are compared with the value.
        """
        wanted: dict[str, list[tuple[int, str, int]]] = {}  # anchor: (position, needle, offset)
        for position, value in enumerate(values):
            if value.isascii() and (value.isdigit() or value.isalpha()):
                if len(value) >= min_length:  # one word of letters or digits: its own anchor
                    needle = value if value.isdigit() else value.lower()
                    wanted.setdefault(needle, []).append((position, needle, 0))
                continue
            for anchor, needle, offset in _anchors(value, min_length):
                wanted.setdefault(anchor, []).append((position, needle, offset))
        done = [False] * len(values)
        spaced, start = self._spaced, 0
        while wanted and start < len(spaced):
            end = spaced.find(" ", start + _WORD_CHUNK)  # chunks end between words
            end = len(spaced) if end < 0 else end
            words = spaced[start:end].split()
            start = end
            first = dict(zip(reversed(words), range(len(words) - 1, -1, -1), strict=True))
            found: list[int] = []
            for anchor in wanted.keys() & first.keys():
                place = first[anchor]
                before = words[place - 1] if place else ""
                waiting = []
                for entry in wanted[anchor]:
                    position, needle, offset = entry
                    if done[position]:
                        continue
                    # A needle as long as its anchor is this word (the common case); else the
                    # word before must end where the anchor starts (most misses stop there).
                    if len(needle) == len(anchor) or (
                        (offset < len(before) or needle.startswith(before, offset - len(before)))
                        and _spans(words, place, needle, offset)
                    ):
                        done[position] = True
                        found.append(position)
                    else:
                        waiting.append(entry)
                if waiting:
                    wanted[anchor] = waiting
                else:
                    del wanted[anchor]
            yield found, start / len(spaced)


def _anchors(value: str, min_length: int) -> list[tuple[str, str, int]]:
    """The words the squash of ``value`` (the needle) is looked for by, with the needle and
    their offsets in it: a needle of one word itself (and, if it mixes letters and digits, its
    first run and first digit run); else its leading words of one kind glued (as a text
    writing the words together squashes) and its first number word (identifiers' rarest part),
    else its longest word."""
    words = squash_spaced(value).split()
    needle = "".join(words)
    if len(needle) < min_length or not needle:
        return []
    if len(words) == 1:
        if needle.isalpha() or needle.isdigit():
            return [(needle, needle, 0)]
        runs = _RUNS.findall(needle)
        digits = next(run for run in runs if run.isdigit())
        anchors = [(needle, needle, 0), (runs[0], needle, 0)]
        if digits is not runs[0]:
            anchors.append((digits, needle, needle.index(digits)))
        return anchors
    kind = str.isdigit if words[0].isdigit() else str.isalpha
    head = "".join(takewhile(kind, words))
    anchors = [(head, needle, 0)] if head else []
    best, best_offset, offset = "", 0, 0
    for word in words:
        if word.isdigit():
            best, best_offset = word, offset
            break
        if len(word) > len(best):
            best, best_offset = word, offset
        offset += len(word)
    if best_offset or best != head:
        anchors.append((best, needle, best_offset))
    return anchors


def _spans(words: list[str], place: int, needle: str, offset: int) -> bool:
    """Whether the words around ``words[place]``, joined, hold ``needle`` with its
    ``offset``-th character at that word's start."""
    tail = needle[offset:]
    got, end = words[place], place
    while len(got) < len(tail):
        end += 1
        if end == len(words):
            return False
        got += words[end]
    if not got.startswith(tail):
        return False
    head, start = "", place
    while len(head) < offset:
        start -= 1
        if start < 0:
            return False
        head = words[start] + head
    return head.endswith(needle[:offset])
