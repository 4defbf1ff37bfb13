"""The one error type the CLI turns into a one-line message (never a traceback)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["InputError", "total_reader"]

_Reader = TypeVar("_Reader", bound=Callable[..., Any])


class InputError(ValueError):
    """Bad input: names the file, the place in it, what is wrong and what is expected.

    A ``ValueError`` so that API callers who catch the references' ValueError keep working.
    """

    def __init__(self, message: str, *, path: str | Path | None = None, where: str | None = None):
        self.path = None if path is None else str(path)
        self.where = where
        self.reason = message
        prefix = ""
        if self.path is not None:
            prefix = self.path + (f" ({where})" if where else "") + ": "
        elif where:
            prefix = f"{where}: "
        super().__init__(prefix + message)


def total_reader(what: str) -> Callable[[_Reader], _Reader]:
    """Make a reader of ``what`` (``"DOT file"``) total: any exception it lets out other than an
    InputError (a RecursionError on deep nesting, a bug on odd input) becomes an InputError
    naming the file (the reader's ``path`` keyword), so that bad input is one line or the
    item's unreadable reason, never a traceback. KeyboardInterrupt and SystemExit pass."""

    def wrap(read: _Reader) -> _Reader:
        @functools.wraps(read)
        def reader(*args: Any, **kwargs: Any) -> Any:
            try:
                return read(*args, **kwargs)
            except InputError:
                raise
            except RecursionError:
                error = InputError(
                    f"the {what} is nested too deeply to read", path=kwargs.get("path") or None
                )
            except MemoryError:
                error = InputError(
                    f"the {what} needs more memory than there is to read",
                    path=kwargs.get("path") or None,
                )
            except Exception as exc:
                detail = " ".join(str(exc).split())[:120]
                error = InputError(
                    f"cannot read the {what} ({type(exc).__name__}"
                    + (f": {detail})" if detail else ")"),
                    path=kwargs.get("path") or None,
                )
            raise error from None

        return reader  # type: ignore[return-value]

    return wrap
