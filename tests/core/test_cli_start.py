"""The CLI starts at once and helps everywhere: ``--help`` of every command exits 0 with no
traceback and keeps bracketed words; starting it imports none of the heavy dependencies; every
error is one ``error:`` line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from parsescore.cli.main import build_app

HEAVY = ("scipy", "numba", "numpy", "lxml", "pandas", "matplotlib", "openai", "dask")


def _commands() -> dict[str, Callable[..., Any]]:
    """Each command's function (the app's own map: no CLI framework objects are read)."""
    return dict(build_app().functions)


def _help_texts(function: Callable[..., Any]) -> list[str]:
    """The command's docstring and its options' help texts, from its type hints."""
    texts = [function.__doc__ or ""]
    for hint in typing.get_type_hints(function, include_extras=True).values():
        texts += [getattr(meta, "help", None) or "" for meta in getattr(hint, "__metadata__", ())]
    return texts


COMMANDS = sorted(_commands())


def test_every_kind_and_core_command_is_there() -> None:
    expected = {"flowchart", "table", "grits", "teds", "sequence", "graph", "graph-aggregate"}
    expected |= {"graph-audit", "compare", "schema", "report", "demo", "predict", "run", "prompt"}
    assert expected <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_of_every_command(command: str, cli) -> None:
    run = cli(command, "--help")
    assert run.code == 0, run.err
    assert run.err == "" and "Traceback" not in run.out
    assert run.out.startswith(f"Usage: parsescore {command}")
    # every bracketed word of the help texts survives (no markup eats "[cell]" or "[/rep<N>]")
    texts = _help_texts(_commands()[command])
    shown = " ".join(run.out.split())
    for text in texts:
        for bracketed in re.findall(r"\[[^\]]*\]", text):
            assert " ".join(bracketed.split()) in shown, (command, bracketed)


def test_the_bracketed_words_reported_lost_are_shown(cli) -> None:
    assert "<doc>/<contract>/<format>[/rep<N>]/<run>" in cli("graph-aggregate", "--help").out
    assert "{name: [cell]}" in cli("grits", "--help").out


def test_main_help_lists_every_command(cli) -> None:
    run = cli("--help")
    assert run.code == 0 and all(command in run.out for command in COMMANDS)


_PROBE = """
import json, sys
import parsescore.cli.main
at_import = sorted(m for m in {heavy} if m in sys.modules)
for argv in {argvs}:
    try:
        parsescore.cli.main.main(argv)
    except SystemExit as stop:
        assert stop.code == 0, (argv, stop.code)
print(json.dumps({{"import": at_import, "help": sorted(m for m in {heavy} if m in sys.modules)}}))
"""


def test_starting_the_cli_imports_no_heavy_dependency() -> None:
    argvs = [["--help"], *([c, "--help"] for c in COMMANDS)]
    code = _PROBE.format(heavy=repr(HEAVY), argvs=repr(argvs))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded == {"import": [], "help": []}


def test_a_command_loads_what_it_needs_when_it_runs(tmp_path: Path) -> None:
    """The lazy imports are not a way of never loading the scorer: running a command does
    (a small pair's TEDS needs lxml and the scorer, not NumPy)."""
    code = (
        "import sys, parsescore.cli.main\n"
        "try:\n"
        "    parsescore.cli.main.main(['teds', '-gt', "
        "'<html><body><table><tr><td>a</td></tr></table>"
        "</body></html>', '-pred', '<html><body><table><tr><td>a</td></tr></table></body>"
        "</html>'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('lxml' in sys.modules, 'parsescore.shared.tables.score' in sys.modules,\n"
        "      'numpy' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["1.0", "True", "True", "False"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["table", "--pred", "p.json"], "error: Missing option '--truth'."),
        (["nonsense"], "error: No such command 'nonsense'."),
        (["flowchart", "--truth", "t", "--pred", "p", "--distance", "x"], "error: Invalid value"),
        (["table", "--truth", "missing.json", "--pred", "p.json"], "error: missing.json: file"),
        (["schema", "tables"], "error: unknown schema 'tables'"),
        (["compare", "a.json"], "error: a.json: file not found"),
    ],
)
def test_one_error_line_form(
    argv: list[str], message: str, cli, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run = cli(*argv)
    assert run.code == 2
    first, *rest = run.err.splitlines()
    assert first.startswith(message), run.err
    assert all(line.startswith("see: parsescore") for line in rest), run.err
    assert "Traceback" not in run.err and run.out == ""
