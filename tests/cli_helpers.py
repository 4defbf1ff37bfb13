"""Run the ``parsescore`` CLI in-process, the one way every test does it.

Tests go through :func:`parsescore.cli.main.main` (the console entry point and the stable API),
never through the typer app object or typer's ``CliRunner``: ``main`` is what users run, so
its error handling (one ``error:`` line on stderr, exit status 2) is part of what is tested.
Most tests use the ``cli`` fixture of ``tests/conftest.py`` rather than importing this module.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from typing import Protocol

import pytest


@dataclass(frozen=True)
class CliRun:
    """What one command did: its exit status and what it printed to stdout and stderr."""

    code: int
    out: str
    err: str


class Cli(Protocol):
    """The ``cli`` fixture: ``cli("table", "--truth", path, ...)`` runs one command."""

    def __call__(self, *args: str | os.PathLike[str]) -> CliRun: ...


def exit_status(code: object) -> tuple[int, str]:
    """The status and stderr text ``sys.exit(code)`` gives a process, as CPython does it:
    ``None`` is 0, an int is itself, anything else (a message) is printed and gives 1."""
    if code is None:
        return 0, ""
    if isinstance(code, int):
        return code, ""
    return 1, f"{code}\n"


def run_cli(
    args: Sequence[str | os.PathLike[str]], capsys: pytest.CaptureFixture[str] | None
) -> CliRun:
    """Run ``parsescore ARGS`` in-process and return its status and output.

    Output printed before the call is discarded first, so ``out``/``err`` hold only what this
    command printed. A normal return counts as exit status 0, like the console script.
    ``capsys=None`` is for module- or session-scoped fixtures, which cannot use the
    function-scoped ``capsys``: the output is then caught by swapping ``sys.stdout`` and
    ``sys.stderr`` for the call (the CLI looks them up when it prints, so both ways see it all).
    """
    from parsescore.cli.main import main  # here, not at the top: conftest imports this module

    if capsys is None:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code, message = _call(main, args)
        return CliRun(code, out.getvalue(), err.getvalue() + message)
    capsys.readouterr()
    code, message = _call(main, args)
    captured = capsys.readouterr()
    return CliRun(code, captured.out, captured.err + message)


def _call(
    main: Callable[[list[str]], None], args: Sequence[str | os.PathLike[str]]
) -> tuple[int, str]:
    """``main(args)`` with its ``SystemExit`` turned into ``(status, message for stderr)``."""
    try:
        main([str(arg) for arg in args])
    except SystemExit as stop:
        return exit_status(stop.code)
    return 0, ""


def default_sigint() -> None:
    """``preexec_fn`` of a subprocess a test interrupts with SIGINT: Ctrl-C's default action,
    whatever the test runner inherited (a shell starts background jobs with SIGINT ignored, and
    Python then never raises KeyboardInterrupt)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
