"""One CLI: a command (or a few) per registered kind, plus the core commands.

The app is built from the kind registry (:mod:`parsescore.core.kinds`) each time :func:`main` runs,
so a kind registered in-process gets its commands. Building it imports no kind's scoring code, so
``parsescore --help`` is instant; a command imports what it needs when it runs. Bad input ends with
one ``error: …`` line on stderr and exit status 2, never a traceback."""

from __future__ import annotations

import functools
import inspect
import sys
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from parsescore import __version__
from parsescore.cli.common import ClosedPipe, ForceOption
from parsescore.core.errors import InputError
from parsescore.core.kinds import (
    CommandParts,
    Kind,
    builtin_kind,
    iter_kinds,
    kinds,
    resolved,
    without_plugins,
)

__all__ = ["App", "build_app", "guard_outputs", "main", "one_line", "path_parameters"]

CommandFunction = TypeVar("CommandFunction", bound=Callable[..., Any])

#: The one exception that means bad input (files, values, options); any other is a bug and shows
#: its traceback (exit status 1).
INPUT_ERRORS = (InputError,)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"parsescore {__version__}")
        raise typer.Exit()


def build_app(only: str | None = None) -> App:
    """The whole CLI: every registered kind's commands, then compare, schema, report, demo and
    the predict commands. Help texts are shown as written (no markup: ``[cell]`` stays).
    ``only``: the command a run names first (see :class:`App`); when a built-in kind registers
    it, the app holds the kinds up to that one and nothing else: no later kind's description,
    no core command, no installed plugin is read (:func:`~parsescore.core.kinds.without_plugins`:
    a plugin's command never takes a built-in kind's command's name). A built-in kind's own
    command (``parsescore graph``) reads that kind alone: no kind's other commands take a
    kind's name."""
    if only is not None:
        with without_plugins():
            app = _build_app(only, lean=True)
        if only in app.kind_commands:
            return app
    return _build_app(only)


def _build_app(only: str | None, *, lean: bool = False) -> App:
    """The app; ``lean``: the kinds' commands up to the first kind registering ``only``."""
    app = App(
        only=only,
        name="parsescore",
        help=None
        if lean  # the root's help is never shown by a run of one command
        else "Score parsed "
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

    first = builtin_kind(only) if lean and only is not None else None
    for kind in [first] if first is not None else iter_kinds():
        if kind.command is not None:
            app.command(kind.name, help=kind.command.help)(kind_command(kind))
        if kind.cli is not None:
            kind.cli(app)
        if lean and only in app.functions:
            break
    app.kind_commands = frozenset(app.functions)
    if lean:
        return app
    from parsescore.cli import bench as bench_cli
    from parsescore.cli import compare as compare_cli
    from parsescore.cli import predict as predict_cli
    from parsescore.cli import report as report_cli
    from parsescore.cli import schema as schema_cli

    compare_cli.register(app)
    bench_cli.register(app)
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
        from parsescore.cli.common import output_folder
        from parsescore.core.demo import run_demo

        run_demo(output_folder(out, force=force))

    predict_cli.register(app)
    app.register_deferred()
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


def _interrupted() -> typing.NoReturn:
    """Ctrl-C: ``error: interrupted`` and exit status 130, for every command."""
    _error("interrupted")
    sys.exit(130)


def _framework_error(exc: BaseException) -> tuple[int, str] | None:
    """``(exit status, message)`` when ``exc`` is an error of the command-line framework (a
    usage error, a bad value), else None.

    typer has run on the click package and on its own copy of click, so the classes differ
    between releases; their documented interface does not: ``exit_code`` and
    ``format_message()`` (a usage error exits with 2).
    """
    code = getattr(exc, "exit_code", None)
    message = getattr(exc, "format_message", None)
    if isinstance(code, int) and callable(message):
        text = message()
        return code, text if isinstance(text, str) else str(exc)
    return None


def _paths(value: Any) -> list[Path]:
    values = value if isinstance(value, list | tuple) else [value]
    return [Path(v) for v in values if isinstance(v, str | Path) and str(v)]


def _names_a_file(path: Path) -> bool:
    """Whether a text parameter's value names an existing file. A text too long to be a file
    name (``parsescore teds -gt HTML`` with a long cell) names none: ``is_file`` raises
    ``OSError`` (ENAMETOOLONG) for it, which was a traceback."""
    try:
        return path.is_file()
    except OSError:
        return False


def _names_a_path(annotation: Any) -> bool:
    """Whether a parameter's type (``Path``, ``Path | None``, ``list[Path]``, inside
    ``Annotated``) holds a path."""
    if annotation is Path:
        return True
    return any(_names_a_path(arg) for arg in typing.get_args(annotation))


def path_parameters(function: Callable[..., Any]) -> frozenset[str]:
    """The parameters of a command function whose type is a path (read from the function's own
    type hints, not from the CLI framework's objects)."""
    hints = typing.get_type_hints(function, include_extras=True)
    return frozenset(name for name, hint in hints.items() if _names_a_path(hint))


def guard_outputs(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` refusing, before it runs, to write over one of its inputs
    (:func:`parsescore.cli.common.check_not_inputs`): path parameters named in
    ``OUTPUT_OPTIONS`` are outputs; other path parameters, and text parameters naming an
    existing file, are inputs. The wrapper keeps the signature (typer reads it)."""
    from parsescore.cli.common import OUTPUT_OPTIONS, check_not_inputs

    path_options = path_parameters(function)

    @functools.wraps(function)
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
                inputs[name] = [p for p in paths if _names_a_file(p)]
        check_not_inputs(inputs, outputs)
        try:
            return function(**params)
        except KeyboardInterrupt:
            raise typer.Abort from None  # Ctrl-C: error: interrupted, exit status 130
        except BrokenPipeError as closed:  # | head: past the framework, to main's quiet end
            raise ClosedPipe from closed

    return guarded


class App(typer.Typer):
    """The parsescore app: every command it registers is guarded (:func:`guard_outputs`), and
    :attr:`functions` maps each command's name to its function (for help texts and tests,
    without reading the CLI framework's objects).

    ``only``: the one command a run will use (``parsescore teds …``). The framework turns every
    registered command into its own objects, reading each function's signature, before it runs
    any; an app made for one run hands it only that command, and registers the others too only
    when no command has that name (the error then lists and suggests them all)."""

    def __init__(self, *, only: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.functions: dict[str, Callable[..., Any]] = {}
        #: The commands the kinds registered (the rest are the core's).
        self.kind_commands: frozenset[str] = frozenset()
        self._only = only
        self._deferred: list[Callable[[], Any]] = []

    def command(self, *args: Any, **kwargs: Any) -> Callable[[CommandFunction], CommandFunction]:
        register = super().command(*args, **kwargs)
        name = args[0] if args else kwargs.get("name")

        def decorator(function: CommandFunction) -> CommandFunction:
            key = name or function.__name__.lower().replace("_", "-")
            self.functions[key] = function
            if self._only is None or key == self._only:
                register(guard_outputs(function))
            else:
                self._deferred.append(lambda: register(guard_outputs(function)))
            return function

        return decorator

    def register_deferred(self) -> None:
        """Register the commands held back for ``only`` when no command has that name."""
        if self._only is not None and self._only not in self.functions:
            for register in self._deferred:
                register()
        self._deferred = []


def kind_command(kind: Kind) -> Callable[..., None]:
    """The command of ``kind``, built from its declared options (``Kind.options``): ``--truth``,
    ``--pred``, one flag per option, then ``--out``, ``--result`` and ``--csv``. It checks the
    flags into the kind's options model and runs ``CommandParts.run`` (default: evaluate, the
    kind's summary, the files)."""
    from parsescore.cli.common import CsvOption, OutOption, ResultOption
    from parsescore.core.options import declared, options_model

    parts = kind.command
    assert parts is not None and kind.options is not None
    model = kind.options
    options = [o for o in declared(model) if o.where != "api"]
    pred_type: Any = list[Path] if parts.pred_many else Path
    truth_type: Any = Path
    if not parts.required:
        pred_type, truth_type = pred_type | None, truth_type | None
    aliased = bool(parts.pred_flags)  # then --pred is checked here, given either way
    shown_pred = pred_type | None if aliased else pred_type
    common = {
        "truth": Annotated[truth_type, typer.Option("--truth", help=parts.truth)],
        "pred": Annotated[shown_pred, typer.Option("--pred", help=parts.pred)],
    }
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [
        inspect.Parameter(
            name,
            keyword,
            annotation=hint,
            **({"default": None} if not parts.required or (aliased and name == "pred") else {}),
        )
        for name, hint in common.items()
    ]
    if aliased:  # the old spellings of --pred: accepted, not shown
        alias = typer.Option(*parts.pred_flags, hidden=True, help=parts.pred)
        parameters.append(
            inspect.Parameter(
                "pred_alias", keyword, default=None, annotation=Annotated[pred_type | None, alias]
            )
        )
    parameters += [option.cli_parameter() for option in options]
    outputs = {"out": OutOption, "result": ResultOption, "csv": CsvOption}
    parameters += [
        inspect.Parameter(name, keyword, default=None, annotation=hint)
        for name, hint in outputs.items()
    ]

    def command(**values: Any) -> None:
        if aliased:
            values = {**values, "pred": _pred_or_alias(values, parts)}
        given = {o.name: values[o.name] for o in options}
        checked: Any = options_model(model, kind.name, given, where="cli")
        run = parts.run or _default_run(kind)
        run({**{k: values[k] for k in (*common, *outputs)}, "options": checked})

    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": None}
    command.__name__ = kind.name
    command.__doc__ = parts.help
    return command


def _pred_or_alias(values: Mapping[str, Any], parts: CommandParts) -> Any:
    """``--pred`` or its old spelling (one of them; repeated values of both add up)."""
    pred, alias = values["pred"], values.get("pred_alias")
    if parts.pred_many:
        merged = [*(pred or []), *(alias or [])]
        found: Any = merged or None
    elif pred is not None and alias is not None:
        raise InputError(f"give --pred once (--pred and {parts.pred_flags[0]} are one option)")
    else:
        found = pred if pred is not None else alias
    if found is None and parts.required:
        raise InputError("missing option --pred (the prediction)")
    return found


def _default_run(kind: Kind) -> Callable[[Mapping[str, Any]], None]:
    """Evaluate, print the kind's summary, write ``--out``/``--result``/``--csv``."""

    def run(values: Mapping[str, Any]) -> None:
        from parsescore.cli.common import show_and_write, wide_console
        from parsescore.core.api import finish

        scored = resolved(kind.evaluate)(values["truth"], values["pred"], values["options"])
        show_and_write(finish(scored, values["options"]), values, wide_console())

    return run


def _closed_pipe() -> typing.NoReturn:
    """The reader of stdout went away (``parsescore … | head``): stop quietly with status 0,
    as ``head``'s other writers do; the command's files were written before it printed. What
    is still buffered goes to /dev/null, so Python's exit flush cannot complain either."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is no real file (a test's buffer)
        pass
    sys.exit(0)


def _one_blas_thread() -> None:
    """A process of our own (the console script) gets one OpenBLAS thread unless the user chose.

    Importing numpy starts one OpenBLAS thread per core, which spin: a fresh ``import numpy``
    costs about twice the CPU it needs (0.22 s against 0.12 s on this project's machine). The
    commands do no BLAS work that threads repay: their numpy work is element-wise or small;
    the only matrix products, ``compare``'s bootstrap and permutation tests
    (:mod:`parsescore.core.compare`), have a few rows and take less CPU and less time with one
    thread, and give the same floats on every machine (with several threads OpenBLAS may sum
    in another order). Never done on ``import parsescore``: a user's own numpy is theirs."""
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _no_pydantic_plugins() -> None:
    """A process of our own (the console script) reads no pydantic plugins unless the user chose
    (``PYDANTIC_DISABLE_PLUGINS`` set to anything, even empty, is theirs).

    pydantic looks for plugins when the first model class is built (a graph template, the
    flowchart models) by reading every installed distribution's entry points: about 23 M
    instructions (6-8 ms of CPU on this project's machine), a sixth of the start of
    ``parsescore graph`` before its template. A plugin only observes validation, and no
    output of parsescore comes from one. Never done on ``import parsescore``: a user's own
    plugins are theirs."""
    import os

    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "1")


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the app; bad input is one ``error:`` line and exit status 2."""
    if argv is None:  # the console script or ``python -m parsescore``, not a test's call
        _one_blas_thread()
        _no_pydantic_plugins()
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        app = build_app(only=args[0] if args and not args[0].startswith("-") else None)
        # bare ``parsescore`` shows the help (not a usage error holding the whole help)
        code: Any = app(args=args or ["--help"], prog_name="parsescore", standalone_mode=False)
        sys.stdout.flush()  # a closed pipe is found here, not in Python's exit flush
    except (typer.Abort, KeyboardInterrupt):  # Ctrl-C, wherever it came
        _interrupted()
    except BrokenPipeError:  # also rich's (parsescore.cli.terminal.ClosedPipe)
        _closed_pipe()
    except typer.Exit as stop:
        sys.exit(stop.exit_code)
    except Exception as exc:
        framework = _framework_error(exc)
        if framework is not None:
            status, message = framework
            hint = ""
            if status == 2:  # a usage error: say where the command's help is
                context = getattr(exc, "ctx", None)
                path = getattr(context, "command_path", None) or "parsescore"
                hint = f"see: {path} --help"
            _error(message, hint)
            sys.exit(status)
        if isinstance(exc, INPUT_ERRORS):
            _error(str(exc))
            sys.exit(2)
        raise
    if code == 130:  # typer's own answer to Ctrl-C (typer.Exit(130), returned quietly)
        _interrupted()
    sys.exit(code if isinstance(code, int) else 0)


def __getattr__(name: str) -> Any:
    # ``parsescore.cli.main.app``: a freshly built app (the registry may have changed since import).
    if name == "app":
        return build_app()
    raise AttributeError(f"module 'parsescore.cli.main' has no attribute {name!r}")
