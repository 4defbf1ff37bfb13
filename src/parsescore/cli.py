"""One CLI, a subcommand per kind (plus ``demo``).

Each kind package that has a ``cli`` module contributes its subcommands through
``register(app)``. Bad input ends with a one-line message and exit status 2, never a traceback.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from parsescore import __version__

KINDS = ("flowchart", "table", "sequence", "graph")

app = typer.Typer(
    name="parsescore",
    help="Score parsed flowcharts, tables, sequence diagrams and knowledge graphs "
    "against ground truth.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
err_console = Console(stderr=True, soft_wrap=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"parsescore {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print version.")
    ] = False,
) -> None:
    """parsescore: exact, fast evaluation of document and diagram parsers."""


@app.command()
def demo(
    out: Annotated[Path, typer.Option("--out", help="Report folder to write.")] = Path(
        "demo-report"
    ),
) -> None:
    """Evaluate the bundled example data of every kind and write a report folder."""
    from parsescore.demo import run_demo

    run_demo(out)


def _register_kinds() -> None:
    for kind in KINDS:
        name = f"parsescore.{kind}.cli"
        if importlib.util.find_spec(f"parsescore.{kind}") is None:
            continue
        if importlib.util.find_spec(name) is None:
            continue
        importlib.import_module(name).register(app)


_register_kinds()
importlib.import_module("parsescore.compare_cli").register(app)
importlib.import_module("parsescore.schema_cli").register(app)
importlib.import_module("parsescore.report.cli").register(app)
importlib.import_module("parsescore.predict.cli").register(app)


def one_line(message: str) -> str:
    """Collapse a multi-line error message into one line."""
    parts = [line.strip() for line in message.splitlines() if line.strip()]
    return "; ".join(parts) if parts else "unknown error"


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the app, turning input errors into one-line messages."""
    try:
        app(args=argv, prog_name="parsescore")
    except (ValueError, TypeError, OSError, RuntimeError, KeyError) as exc:
        err_console.print(f"[bold red]error:[/] {escape(one_line(str(exc)))}", highlight=False)
        sys.exit(2)
