"""The one error type the CLI turns into a one-line message (never a traceback)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["InputError"]


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
