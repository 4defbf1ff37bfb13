"""One CLI: a command (or a few) per registered kind, plus the core commands.

The app is built from the kind registry (:mod:`parsescore.kinds`) each time :func:`main` runs, so
a kind registered in-process gets its commands. Building it imports no kind's scoring code, so
``parsescore --help`` is instant; a command imports what it needs when it runs. Bad input ends
with one ``error: …`` line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from parsescore import __version__
from parsescore.cli_common import ForceOption
from parsescore.kinds import kinds

__all__ = ["build_app", "main", "one_line"]

#: Exceptions that mean bad input (files, values, options) rather than a bug.
INPUT_ERRORS = (ValueError, TypeError, OSError, RuntimeError, KeyError)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"parsescore {__version__}")
        raise typer.Exit()


def build_app() -> typer.Typer:
    """The whole CLI: every registered kind's commands, then compare, schema, report, demo and
    the predict commands. Help texts are shown as written (no markup: ``[cell]`` stays)."""
    app = typer.Typer(
        name="parsescore",
        help="Score parsed "
        + ", ".join(kind.title.lower() for kind in kinds())
        + " against ground truth.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )

    @app.callback()
    def _root(
        version: Annotated[
            bool,
            typer.Option("--version", callback=_version, is_eager=True, help="Print version."),
        ] = False,
    ) -> None:
        """parsescore: exact, fast evaluation of document and diagram parsers."""

    for kind in kinds():
        kind.cli(app)
    from parsescore import compare_cli, schema_cli
    from parsescore.predict import cli as predict_cli
    from parsescore.report import cli as report_cli

    compare_cli.register(app)
    schema_cli.register(app)
    report_cli.register(app)

    @app.command()
    def demo(
        out: Annotated[Path, typer.Option("--out", help="Report folder to write.")] = Path(
            "demo-report"
        ),
        force: ForceOption = False,
    ) -> None:
        """Evaluate the bundled example data of every kind and write a report folder."""
        from parsescore.cli_common import output_folder
        from parsescore.demo import run_demo

        run_demo(output_folder(out, force=force))

    predict_cli.register(app)
    return app


def one_line(message: str) -> str:
    """Collapse a multi-line error message into one line."""
    parts = [line.strip() for line in message.splitlines() if line.strip()]
    return "; ".join(parts) if parts else "unknown error"


def _error(message: str, hint: str = "") -> None:
    """The one form of an error: ``error: message`` on stderr (a hint on the next line)."""
    sys.stderr.write(f"error: {one_line(message)}\n")
    if hint:
        sys.stderr.write(f"{hint}\n")
    sys.stderr.flush()


def _click_errors() -> tuple[type[Exception], type[Exception]]:
    """The usage-error and base-error classes of the click that typer runs on (typer ≥ 0.22
    ships its own copy of click)."""
    try:
        from typer._click import exceptions
    except ImportError:  # pragma: no cover - typer on the click package
        from click import exceptions  # type: ignore[no-redef]
    return exceptions.UsageError, exceptions.ClickException


def _paths(value: Any) -> list[Path]:
    values = value if isinstance(value, list | tuple) else [value]
    return [Path(v) for v in values if isinstance(v, str | Path) and str(v)]


def _guard_outputs(command: Any) -> None:
    """Wrap a command so that it refuses, before it runs, to write over one of its inputs
    (:func:`parsescore.cli_common.check_not_inputs`): path options named in
    ``OUTPUT_OPTIONS`` are outputs; other path options, and text options naming an existing
    file, are inputs."""
    from parsescore.cli_common import OUTPUT_OPTIONS, check_not_inputs

    callback = command.callback
    if callback is None:
        return
    path_options = {p.name for p in command.params if "Path" in type(p.type).__name__}

    def guarded(**params: Any) -> Any:
        inputs: dict[str, list[Path]] = {}
        outputs: dict[str, list[Path]] = {}
        for name, value in params.items():
            paths = _paths(value)
            if name in OUTPUT_OPTIONS and name in path_options:
                outputs[name] = paths
            elif name in path_options:
                inputs[name] = paths
            else:
                inputs[name] = [p for p in paths if p.is_file()]
        check_not_inputs(inputs, outputs)
        return callback(**params)

    command.callback = guarded


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the app; bad input is one ``error:`` line and exit status 2."""
    usage_error, click_error = _click_errors()
    command = typer.main.get_command(build_app())
    for subcommand in getattr(command, "commands", {}).values():
        _guard_outputs(subcommand)
    try:
        code: Any = command.main(args=argv, prog_name="parsescore", standalone_mode=False)
    except typer.Abort:
        _error("interrupted")
        sys.exit(130)
    except typer.Exit as stop:
        sys.exit(stop.exit_code)
    except usage_error as exc:
        context = getattr(exc, "ctx", None)
        path = context.command_path if context is not None else "parsescore"
        _error(exc.format_message(), f"see: {path} --help")  # type: ignore[attr-defined]
        sys.exit(2)
    except click_error as exc:
        _error(exc.format_message())  # type: ignore[attr-defined]
        sys.exit(getattr(exc, "exit_code", 1))
    except INPUT_ERRORS as exc:
        _error(str(exc))
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)


def __getattr__(name: str) -> Any:
    # ``parsescore.cli.app``: a freshly built app (the registry may have changed since import).
    if name == "app":
        return build_app()
    raise AttributeError(f"module 'parsescore.cli' has no attribute {name!r}")
