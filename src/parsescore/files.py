"""Reading inputs with clear errors and writing outputs atomically."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from parsescore.errors import InputError

__all__ = ["decode_text", "dump_json", "load_json", "read_text", "write_json", "write_text"]


def read_text(path: str | Path) -> str:
    """Read a UTF-8 text file; a missing, unreadable or binary file is an InputError."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", path=path) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path=path) from None
    except OSError as exc:
        raise InputError(f"cannot read file: {exc.strerror}", path=path) from None
    return decode_text(data, path)


def decode_text(data: bytes, path: str | Path) -> str:
    """Bytes of a text file (from disk or git) as str; binary or non-UTF-8 is an InputError."""
    if b"\x00" in data[:8192]:
        raise InputError("binary file, expected UTF-8 text", path=path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", path=path) from None


def load_json(path: str | Path) -> Any:
    """Parse a JSON file; malformed JSON names the line and column."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"malformed JSON: {exc.msg}", path=path, where=f"line {exc.lineno}, column {exc.colno}"
        ) from None


def dump_json(obj: Any) -> str:
    """Deterministic JSON text: same object, same bytes (floats are not rounded)."""
    return json.dumps(obj, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_text(path: str | Path, text: str) -> None:
    """Write a file atomically (a temp file renamed into place), creating parent folders."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        # mkstemp makes the file private (0600); give it the mode a plain open() would.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_json(path: str | Path, obj: Any) -> None:
    """Write deterministic JSON atomically."""
    write_text(path, dump_json(obj))
