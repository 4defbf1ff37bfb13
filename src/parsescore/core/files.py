"""Reading inputs with clear errors and limits, and writing outputs atomically.

Every input file goes through :func:`read_text` (a size limit), every JSON input through
:func:`load_json` / :func:`parse_json` (duplicate keys, nesting depth), every JSONL input
through :func:`iter_jsonl` (streamed, a line at a time), and every output through
:func:`write_text` (a temp file in the same folder renamed into place). The limits are read from
environment variables each time, so a run (or a test) can raise or lower them:

- ``PARSESCORE_MAX_FILE_MB`` (default 100): the largest file read whole (JSON, HTML, PlantUML…);
  a larger dataset belongs in JSONL, which is read line by line.
- ``PARSESCORE_MAX_JSON_DEPTH`` (default 256): the deepest nesting of JSON arrays and objects.
"""

from __future__ import annotations

import gc
import json
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import accumulate
from pathlib import Path
from typing import Any

from parsescore.core.errors import InputError

__all__ = [
    "csv_rows",
    "csv_text",
    "decode_text",
    "dump_json",
    "env_limit",
    "gc_paused",
    "iter_jsonl",
    "load_json",
    "loads_as_json",
    "max_file_bytes",
    "parse_json",
    "read_text",
    "write_bytes",
    "write_json",
    "write_text",
]

_MB = 1_000_000


def env_limit(name: str, default: int) -> int:
    """A positive integer limit from the environment variable ``name`` (else ``default``)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise InputError(f"environment variable {name} must be a positive integer, got {raw!r}")
    return value


def max_file_bytes() -> int:
    """The largest input file read whole, in bytes (``PARSESCORE_MAX_FILE_MB``)."""
    return env_limit("PARSESCORE_MAX_FILE_MB", 100) * _MB


def _too_large(path: str | Path, size: int) -> InputError:
    limit = max_file_bytes()
    hint = (
        "; write a large dataset as JSONL (one item per line, read line by line)"
        if str(path).lower().endswith(".json")
        else ""
    )
    return InputError(
        f"file of {size / _MB:.1f} MB is larger than the limit of {limit // _MB} MB "
        f"(PARSESCORE_MAX_FILE_MB){hint}",
        path=path,
    )


def read_text(path: str | Path) -> str:
    """Read a UTF-8 text file; a missing, unreadable, binary or too large file is an InputError."""
    return decode_text(read_bytes(path), path)


def read_bytes(path: str | Path) -> bytes:
    """The bytes of a file :func:`read_text` reads (same errors but for the decoding): for a
    reader that hands them on undecoded (:func:`parse_json`)."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            limit = max_file_bytes()
            if size > limit:
                raise _too_large(path, size)
            data = handle.read(limit + 1)  # a pipe or a growing file: stop at the limit
    except OSError as exc:
        raise _read_error(exc, path) from None
    if len(data) > limit:
        raise _too_large(path, len(data))
    return data


def decode_text(data: bytes, path: str | Path | None) -> str:
    """Bytes of a text file (from disk or git) as str; binary or non-UTF-8 is an InputError."""
    if b"\x00" in data[:8192]:
        raise InputError("binary file, expected UTF-8 text", path=path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", path=path) from None


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; a key given twice is an error (``json`` would silently keep the last)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKeyError(key)
            seen.add(key)
    return obj


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_QUOTE_SPACE_COLON = re.compile(r'"[ \t\r\n]+:')


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector, restoring its state afterwards.

    Parsing a large JSON file or evaluating a large graph allocates hundreds of thousands of
    small acyclic objects; each allocation burst triggers collections that rescan all of them
    again (a third of a 15k-node graph evaluation). Reference counting still frees everything;
    cycles, if any, are collected by the collector's next full collection.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            # Everything allocated meanwhile goes straight to the oldest generation: re-enabled
            # as it was, the collector would scan those objects (a million) at the next
            # allocation, then again in the middle generation.
            gc.freeze()
            gc.unfreeze()
            gc.enable()


@contextmanager
def full_collections_paused() -> Iterator[None]:
    """Keep the cyclic collector's young collections but pause its full ones, restoring its
    thresholds afterwards.

    A run that keeps a record per item (a thousand pages, each with its matched blocks) grows
    the oldest generation steadily; every time it grows by a quarter the collector walks all
    of it again (on 1,000 document pages one full collection, 0.3 s of 3.6 s; 0.6 s at 2,000)
    and finds nothing there to free: what an item leaves in cycles dies young, and the young
    collections still free it (the same peak memory either way at 1,000 and 2,000 pages).
    Process-wide while it lasts, like ``gc.disable``.
    """
    young, middle, old = gc.get_threshold()
    gc.set_threshold(young, middle, _NEVER)
    try:
        yield
    finally:
        gc.set_threshold(young, middle, old)


#: A full-collection threshold no run reaches (the collector keeps it in a C int).
_NEVER = 2**31 - 1


def _bracket_depth(text: str) -> int:
    """The deepest nesting of arrays/objects in JSON text, counted on the brackets outside
    strings (for text too deep for ``json`` to parse, to say how deep it is)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)


def _shape(value: Any) -> tuple[int, int]:
    """The deepest nesting of lists/dicts in a parsed JSON value (0 for a scalar), and how many
    keys its objects hold in all.

    Walked with a stack, not recursion, after parsing: four times cheaper than scanning the
    text's brackets, and ``json`` itself refuses what is too deep to parse (RecursionError).
    """
    deepest = keys = 0
    stack: list[tuple[Any, int]] = [(value, 1)] if type(value) in (dict, list) else []
    while stack:
        container, depth = stack.pop()
        if depth > deepest:
            deepest = depth
        if type(container) is dict:
            keys += len(container)
            container = container.values()
        for item in container:
            if type(item) is dict or type(item) is list:
                stack.append((item, depth + 1))
    return deepest, keys


def _no_repeated_key(text: str, keys: int) -> bool:
    """Whether the text's objects, holding ``keys`` keys once parsed, were written with no
    key twice. Each written key is followed by its own colon, after its closing quote and
    optional whitespace, so it suffices that the colons (a string may hold some too), or
    failing that the quote-colon pairs, number no more than the parsed keys."""
    if text.count(":") == keys:  # the usual case, one fast count
        return True
    return text.count('":') + len(_QUOTE_SPACE_COLON.findall(text)) == keys


_DIGITS_AS_ZEROS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG_DIGIT_RUN = b"0" * 19
"""orjson reads an integer beyond 64 bits (19 digits or more) as a float, ``json`` as an int."""


def _long_digit_run(data: bytes) -> bool:
    """Whether UTF-8 text holds 19 digits in a row (perhaps an integer orjson reads as a
    float)."""
    return _LONG_DIGIT_RUN in data.translate(_DIGITS_AS_ZEROS)


def _orjson_loads(text: str | bytes, *, digits: bool = True) -> tuple[bool, Any, bytes]:
    """``(True, value, utf8)`` when orjson's parse of ``text`` is ``json.loads``'s (both keep
    a repeated key's last value), else ``(False, None, b"")``: orjson refuses what ``json``
    reads differently (``NaN``, lone surrogates, numbers beyond a double, a byte-order mark),
    and integers of 19 digits or more (beyond 64 bits orjson gives a float) are not tried
    (``digits=False``: the caller checks its value for such floats)."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - a dependency; the json path stays correct
        return False, None, b""
    try:
        data = text if isinstance(text, bytes) else text.encode()
    except UnicodeEncodeError:  # a lone surrogate
        return False, None, b""
    if digits and _long_digit_run(data):
        return False, None, b""
    try:
        return True, orjson.loads(data), data
    except orjson.JSONDecodeError:
        return False, None, b""


def loads_as_json(text: str) -> Any:
    """``json.loads(text)``, the same value or the same ``json.JSONDecodeError``, about twice
    as fast on large texts: for files whose reference reads them with ``json.load`` (a repeated
    key keeps its last value, no depth limit), such as OmniDocBench's page list."""
    with gc_paused():  # JSON values hold no cycles
        proved, value, _ = _orjson_loads(text)
        return value if proved else json.loads(text)


def _orjson_parse(text: str | bytes, depth_limit: int) -> tuple[bool, Any]:
    """``(True, value)`` when orjson's parse of ``text`` is proved to be what the strict
    ``json`` parse gives, else ``(False, None)`` (malformed, unusual or perhaps refused text:
    the caller parses it with ``json``, which says what is wrong).

    orjson is about 1.5 times faster than ``json`` but keeps a repeated key's last value
    silently. Its compact re-serialisation, indented, settles that: each key written in the
    text is followed by one colon outside strings, and every other colon of the text is a
    literal one inside a string, so the text's colons plus its escaped ones (``\u003a``)
    bound the colons of the written keys and strings from above; the re-serialisation writes
    each kept key with one colon and every colon of the kept strings literally. A repeated key
    drops a key (and its value's strings) from the parsed value, so it is refused unless the
    re-serialisation holds at least as many colons as that bound. Nesting is bounded too: a
    value ``depth_limit + 1`` levels deep puts a line of the indented text at ``2 ×
    depth_limit`` spaces. orjson's own differences (``NaN``, lone surrogates, numbers beyond a
    double, a byte-order mark) are errors of its parse, so they fall back. An integer beyond 64
    bits, which orjson reads as a float, is at least 9.2e18, a float the re-serialisation writes
    with an exponent (``e+18`` and up, as ``repr`` does): only a text whose re-serialisation
    holds a ``+`` (one ``memchr``) is scanned for 19 digits in a row (which fall back, as for
    ``json.loads``).
    """
    import orjson

    proved, value, data = _orjson_loads(text, digits=False)
    if not proved:
        return False, None
    try:
        written = orjson.dumps(value, option=orjson.OPT_INDENT_2)
    except orjson.JSONEncodeError:
        return False, None
    if b"+" in written and _long_digit_run(data):
        return False, None  # perhaps an integer beyond 64 bits, read as a float
    # (a backslash first: one memchr, where the five-byte search costs as much as a count)
    escaped = (
        data.count(b"\\u003a") + data.count(b"\\u003A")
        if b"\\" in data and b"\\u003" in data
        else 0
    )
    if data.count(b":") + escaped > written.count(b":"):
        return False, None  # perhaps a repeated key
    if b"\n" + b"  " * depth_limit in written:
        return False, None  # perhaps deeper than the limit
    return True, value


def parse_json(
    text: str | bytes, path: str | Path | None = None, *, where: str | None = None
) -> Any:
    """Parse JSON text strictly: malformed JSON names the line and column, a duplicate key
    and nesting deeper than ``PARSESCORE_MAX_JSON_DEPTH`` are errors too.

    ``text`` may be a file's bytes (:func:`read_bytes`): they are parsed as they are, and
    decoded as :func:`read_text` decodes them only when the fast path cannot prove its parse
    (then every error is the text's). A 10 MB file is then never a str at all, nor copied
    back into UTF-8: of the pages a large parse touches, a third fewer (measured on a
    graph.json of 7.8 MB: 16.5k page faults against 24.2k)."""
    limit = env_limit("PARSESCORE_MAX_JSON_DEPTH", 256)

    def too_deep(depth: int) -> InputError:
        return InputError(
            f"JSON nested {depth} levels deep, more than the limit of {limit} "
            "(PARSESCORE_MAX_JSON_DEPTH)",
            path=path,
            where=where,
        )

    with gc_paused():  # JSON values hold no cycles
        proved, value = _orjson_parse(text, limit)
    if proved:
        return value
    if isinstance(text, bytes):
        text = decode_text(text, path)
    try:
        with gc_paused():
            value = json.loads(text)
            depth, keys = _shape(value)
            if not _no_repeated_key(text, keys):
                # Perhaps a key given twice, which ``json`` silently drops: parse again,
                # checking every object (the plain parse is twice as fast, and counting
                # proves most texts free of repeats).
                value = json.loads(text, object_pairs_hook=_unique_object)
    except _DuplicateKeyError as exc:
        raise InputError(
            f"duplicate key {exc.key!r} in a JSON object (each key must appear once)",
            path=path,
            where=where,
        ) from None
    except json.JSONDecodeError as exc:
        place = where or f"line {exc.lineno}, column {exc.colno}"
        raise InputError(f"malformed JSON: {exc.msg}", path=path, where=place) from None
    except RecursionError:
        depth = _bracket_depth(text)
        if depth > limit:
            raise too_deep(depth) from None
        raise InputError("JSON nested too deeply to parse", path=path, where=where) from None
    if depth > limit:
        raise too_deep(depth)
    return value


def load_json(path: str | Path) -> Any:
    """Parse a JSON file strictly (see :func:`parse_json`; size limit of :func:`read_text`)."""
    return parse_json(read_text(path), path)


def _read_error(exc: OSError, path: Path) -> InputError:
    """One line for a file that cannot be opened or read."""
    if isinstance(exc, FileNotFoundError):
        return InputError("file not found", path=path)
    if isinstance(exc, IsADirectoryError):
        return InputError("is a directory, expected a file", path=path)
    return InputError(f"cannot read file: {exc.strerror}", path=path)


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` of each non-blank line of a JSONL file, read line by line
    (each line strictly, as :func:`parse_json`; a line is limited as a file is)."""
    path = Path(path)
    limit = max_file_bytes()
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise _read_error(exc, path) from None
    with handle:
        number = 0
        while True:
            try:
                raw = handle.readline(limit + 1)
            except OSError as exc:
                raise _read_error(exc, path) from None
            if not raw:
                return
            number += 1
            where = f"line {number}"
            if len(raw) > limit:
                raise InputError(
                    f"line longer than the limit of {limit // _MB} MB (PARSESCORE_MAX_FILE_MB)",
                    path=path,
                    where=where,
                )
            text = decode_text(raw, path) if number == 1 else _decode_line(raw, path, where)
            if text.strip():
                yield number, parse_json(text, path, where=where)


def _decode_line(raw: bytes, path: Path, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", path=path, where=where) from None


def dump_json(obj: Any) -> str:
    """Deterministic JSON text: same object, same bytes (floats are not rounded).

    The text is ``json.dumps(obj, indent=2, ensure_ascii=False, allow_nan=False)`` and a
    newline, the same value or the same error; orjson writes it when that is proved to give
    the same text (:func:`_orjson_dump`): ``json`` writes an indented text in Python, 9 ms
    for a 15k-node graph's eval.json; its compact text in C, the proof, and orjson's take 2."""
    fast = _orjson_dump(obj)
    if fast is not None:
        return fast
    return json.dumps(obj, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _orjson_dump(obj: Any) -> str | None:
    """:func:`dump_json`'s text written by orjson, or None when it is not proved the same.

    ``json``'s compact text (its C encoder: the same scalars, escapes and errors as the
    indented text it writes in Python) equal to orjson's compact text proves that both
    libraries write every key and value alike; their indented layouts (two spaces per level,
    ``": "``, ``{}`` and ``[]`` when empty) are the same, so orjson's indented text is then
    ``json``'s. Anything else goes to ``json``: what it refuses (NaN, a circular value, a
    type it cannot write) or writes otherwise (``1e-05``, which orjson writes ``0.00001``;
    ``int`` keys), and what orjson refuses (integers beyond 64 bits, lone surrogates)."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - a dependency; the json path stays correct
        return None
    try:
        compact = json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        if orjson.dumps(obj) != compact.encode():
            return None
        return orjson.dumps(obj, option=orjson.OPT_INDENT_2).decode() + "\n"
    except (ValueError, TypeError, RecursionError, UnicodeEncodeError):
        return None  # orjson.JSONEncodeError is a TypeError


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write a file atomically (a temp file in the same folder renamed into place), creating
    parent folders; a failed write (full disk, read-only) is an InputError naming the path and
    leaves any earlier file as it was. Every output of parsescore is written through here."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror}", path=path) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        # mkstemp makes the file private (0600); give it the mode a plain open() would.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~umask)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"cannot write: {exc.strerror}", path=path) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(path: str | Path, text: str) -> None:
    """Write UTF-8 text atomically (see :func:`write_bytes`); newlines are written as given."""
    write_bytes(path, text.encode("utf-8"))


def write_json(path: str | Path, obj: Any) -> None:
    """Write deterministic JSON atomically."""
    write_text(path, dump_json(obj))


#: What a spreadsheet takes for the start of a formula in a cell.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_text(cell: str) -> str:
    """A text cell of a CSV output, made inert for spreadsheets: a cell a spreadsheet would run as
    a formula (starting with ``= + - @``, a tab or a carriage return) gets a leading ``'``.
    Numbers are written with ``repr`` and never pass through here.

    >>> csv_text("=HYPERLINK(1)"), csv_text("+1+2"), csv_text("model_a")
    ("'=HYPERLINK(1)", "'+1+2", 'model_a')
    """
    return f"'{cell}" if cell.startswith(_FORMULA_START) else cell


def csv_rows(rows: Iterable[Sequence[str]]) -> str:
    """CSV text of ``rows``, one ``\\n``-terminated line per row, every cell holding a comma, a
    quote, a line feed or a carriage return quoted (Python's writer, told lines end in ``\\n``,
    would leave a lone carriage return unquoted, and a spreadsheet would split the row there).
    Text cells go through :func:`csv_text` first; this writes cells as given."""
    import csv
    import io

    lines = []
    for row in rows:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\r\n").writerow(row)
        lines.append(buffer.getvalue().removesuffix("\r\n") + "\n")
    return "".join(lines)
