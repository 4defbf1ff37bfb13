"""What every dataset command shares: its options (one definition, one help text), the one way
it writes its files, and the one wording that announces them.

Imports nothing heavy: the kinds' commands are registered from here when ``parsescore`` starts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from parsescore.core.errors import InputError
from parsescore.core.options import NamedOptions, declared

if TYPE_CHECKING:
    from rich.console import Console

    from parsescore.core.results import Result

__all__ = [
    "FOLDER_MARKER",
    "OUTPUT_OPTIONS",
    "AttributesOption",
    "ClosedPipe",
    "CsvOption",
    "ForceOption",
    "OutOption",
    "PermutationsOption",
    "ResamplesOption",
    "ResultOption",
    "SeedOption",
    "announce",
    "check_not_inputs",
    "console",
    "empty_file_warnings",
    "output_folder",
    "per_system_paths",
    "print_answers",
    "print_breakdowns",
    "print_summary",
    "show_and_write",
    "warn",
    "wide_console",
    "with_empty_file_warnings",
    "write_files",
    "write_outputs",
]

#: ``--attributes FILE.csv`` of commands that read results (compare, report), as every kind's
#: command declares it (:class:`parsescore.core.options.NamedOptions`).
AttributesOption = Annotated[
    Path | None,
    next(o for o in declared(NamedOptions) if o.name == "attributes").marker(),
]
OutOption = Annotated[
    Path | None,
    typer.Option("--out", help="Write the command's JSON document here (every number)."),
]
ResultOption = Annotated[
    Path | None,
    typer.Option(
        "--result",
        help="Also write the common result envelope here (parsescore schema result; "
        "parsescore.load_result reads it back); several systems: <stem>.<system><suffix>.",
    ),
]
SeedOption = Annotated[
    int, typer.Option("--seed", help="Random seed (bootstrap resamples, permutations).")
]
ResamplesOption = Annotated[int, typer.Option("--resamples", help="Bootstrap resamples.")]
PermutationsOption = Annotated[
    int,
    typer.Option(
        "--permutations",
        help="Random sign flips of the permutation test (exact when 2^items is fewer).",
    ),
]
CsvOption = Annotated[
    Path | None,
    typer.Option(
        "--csv",
        help="Also write one row per item (an id column, one column per metric); several "
        "systems: <stem>.<system><suffix>.",
    ),
]


ForceOption = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Write into the output folder even if it holds files parsescore did not write.",
    ),
]


class ClosedPipe(BrokenPipeError):
    """The reader of stdout went away (``| head``): the command stops printing, quietly.

    Raised with no errno, so that the CLI framework (click answers ``EPIPE`` with exit status
    1) lets it through to ``parsescore.cli.main``, which ends with status 0."""


#: Options naming what a command writes; every other path option names something it reads.
OUTPUT_OPTIONS = frozenset({"out", "result", "csv", "report", "markdown", "cache"})
#: Inputs that are a workspace (a git repository, a benchmark tree) rather than a set of items:
#: outputs may go inside them (never onto one of their files).
_WORKSPACE_INPUTS = frozenset({"repo", "root"})
#: The file that marks a folder as written by parsescore (so a later run may write into it).
FOLDER_MARKER = ".parsescore"


def _option(name: str) -> str:
    return "--" + name.rstrip("_").replace("_", "-")


def _within(inner: Path, outer: Path) -> bool:
    return inner == outer or outer in inner.parents


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.samefile(b)  # hard links too
    except OSError:
        return False


def check_not_inputs(inputs: dict[str, list[Path]], outputs: dict[str, list[Path]]) -> None:
    """Refuse a command whose output would land on one of its inputs: the same file or folder
    (resolved, so through symlinks and hard links) or a path inside an input folder.
    ``inputs``/``outputs`` map an option name to the paths it was given. (A folder output
    that holds other files needs ``--force``: :func:`output_folder`.)"""
    for out_name, out_paths in outputs.items():
        for out_path in out_paths:
            out_real = out_path.resolve()
            for in_name, in_paths in inputs.items():
                for in_path in in_paths:
                    in_real = in_path.resolve()
                    what = f"{_option(out_name)} {out_path}"
                    if out_real == in_real or _same_file(out_path, in_path):
                        raise InputError(
                            f"{what} is also the input {_option(in_name)} {in_path}; "
                            "refusing to overwrite an input, write elsewhere"
                        )
                    inside = in_name not in _WORKSPACE_INPUTS and _within(out_real, in_real)
                    if inside and in_path.is_dir():
                        raise InputError(
                            f"{what} is inside the input folder {_option(in_name)} "
                            f"{in_path}; refusing to write into an input, write elsewhere"
                        )


def output_folder(path: Path, *, force: bool = False, option: str = "--out") -> Path:
    """Make ``path`` ready as an output folder: created (and marked as ours) when missing or
    empty; an existing folder holding files parsescore did not write needs ``force``."""
    if path.exists() and not path.is_dir():
        raise InputError(f"{option} {path} exists and is not a folder")
    marker = path / FOLDER_MARKER
    if path.is_dir() and not marker.is_file() and any(path.iterdir()) and not force:
        raise InputError(
            f"{option} {path} is a folder that holds files parsescore did not write; "
            "use --force to write into it anyway, or choose an empty or new folder"
        )
    from parsescore.core.files import write_text

    write_text(marker, "Written by parsescore: a later run may overwrite the files here.\n")
    return path


def console(*, stderr: bool = False, width: int = 0) -> Console:
    """The console of a command (:class:`parsescore.cli.terminal.FittingConsole`: its tables
    never hide a digit). When output is not a terminal and ``COLUMNS`` does not say how wide
    it is, at least ``width`` columns wide, so that piped tables keep one line per row."""
    import os

    from parsescore.cli.terminal import FittingConsole

    out = FittingConsole(stderr=stderr)
    if width and not out.is_terminal and not os.environ.get("COLUMNS", "").isdigit():
        out = FittingConsole(stderr=stderr, width=max(out.width, width))
    return out


def wide_console(*, stderr: bool = False) -> Console:
    """The console of a command's summary: when piped, wide enough (140 columns) that a
    kind's widest summary table keeps one line per row."""
    return console(stderr=stderr, width=140)


def announce(out: Console, path: str | Path) -> None:
    """The one line every command prints for a file (or folder) it wrote."""
    out.print(f"Wrote {path}", highlight=False, markup=False, soft_wrap=True)


def warn(err: Console, message: str) -> None:
    """The one form of a warning line (on stderr)."""
    from rich.markup import escape

    err.print(f"[yellow]warning:[/] {escape(message)}", highlight=False)


def show_and_write(scored: Result, values: Mapping[str, Any], out: Console) -> None:
    """The end of every kind command: ``--out``, ``--result`` and ``--csv`` written first (so
    they are in place even when the reader of the summary goes away, ``| head``), then the
    summary (:func:`print_summary`), then a ``Wrote`` line per file (``values``: the command's
    checked flags, ``options`` among them); an envelope keeps the system's name when
    ``--name`` gave it."""
    scored = with_empty_file_warnings(scored, values.get("truth"), values.get("pred"))
    written = write_files(
        [scored],
        out=values["out"],
        result=values["result"],
        csv=values["csv"],
        named=getattr(values["options"], "name", None) is not None,
    )
    print_summary(scored, out)
    for path in written:
        announce(out, path)


#: Files larger than this are not read to see whether they hold only whitespace.
_BLANK_CHECK_BYTES = 1 << 16


def _blank_files(path: Any) -> list[Path]:
    """The files at ``path`` (a file, or a folder's files at any depth) that are empty or
    hold only whitespace."""
    if not isinstance(path, str | Path):
        return []
    root = Path(path)
    candidates = [root] if root.is_file() else sorted(root.rglob("*")) if root.is_dir() else []
    blank = []
    for file in candidates:
        try:
            if not file.is_file() or file.name.startswith("."):
                continue
            size = file.stat().st_size
            if size == 0 or (size <= _BLANK_CHECK_BYTES and not file.read_bytes().strip()):
                blank.append(file)
        except OSError:
            continue  # the kind's reader says what is wrong with it
    return blank


def empty_file_warnings(truth: Any, pred: Any, said: Sequence[str] = ()) -> list[str]:
    """A warning for every empty or whitespace-only truth or answer file (an empty truth
    scores every answer line as an error against no ground truth, so its rates say nothing);
    answers already named in ``said`` (the result's own warnings) are not named twice."""
    preds = pred if isinstance(pred, list | tuple) else [pred]
    warnings = [
        f"truth file {file} is empty (or only whitespace): its item has no ground truth, so "
        "its errors have no meaningful rate"
        for file in _blank_files(truth)
    ]
    for one in preds:
        for file in _blank_files(one):
            if not any(file.name in message for message in said):
                warnings.append(
                    f"answer file {file} is empty (or only whitespace): scored as an empty answer"
                )
    return warnings


def with_empty_file_warnings(result: Result, truth: Any, pred: Any) -> Result:
    """``result`` with :func:`empty_file_warnings` added to its warnings."""
    extra = empty_file_warnings(truth, pred, result.warnings)
    return replace(result, warnings=(*result.warnings, *extra)) if extra else result


def print_summary(result: Result, out: Console) -> None:
    """A result's summary as its command prints it: the kind's own (from the ``Result``
    alone), then a table per breakdown (``--by``)."""
    from parsescore.core.kinds import get_kind

    get_kind(result.kind).summarise(result, out)
    print_breakdowns(result, out)


def print_breakdowns(result: Result, out: Console) -> None:
    """One table per ``--by`` field: each value's item count and headline totals."""
    from rich.markup import escape
    from rich.table import Table

    from parsescore.core.kinds import get_kind

    found = result.dataset.get("breakdown")
    if not isinstance(found, dict):
        return
    kind = get_kind(result.kind)
    for field, values in found.items():
        shown = [m for m in kind.headline_totals() if any(m.name in v for v in values.values())]
        table = Table(title=f"by {field}", title_justify="left")
        table.add_column(field, overflow="fold")
        table.add_column(result.nouns()[1], justify="right")
        for metric in shown:
            table.add_column(f"{metric.label} {metric.arrow}", justify="right")
        for value, totals in values.items():
            table.add_row(
                escape(value),
                f"{totals['items']:.0f}",
                *(metric.show(totals.get(metric.name)) for metric in shown),
            )
        out.print(table)


def print_answers(result: Result, out: Console) -> None:
    """The line every dataset summary ends with: how many answers were readable, and how many were
    unreadable, missing or read from a fenced block (:mod:`parsescore.shared.coverage`); then the
    result's warnings on stderr. Nothing when the result records no answers."""
    from parsescore.shared.coverage import READABLE

    readable = result.totals.get(READABLE.name)
    if readable is not None:
        facts = result.dataset
        parts = [f"{READABLE.label} {READABLE.show(readable)}"]
        for key, what in (("unreadable", "unreadable"), ("missing", "missing")):
            if facts.get(key):
                parts.append(f"{len(facts[key])} {what}")
        if facts.get("fenced"):
            parts.append(f"{len(facts['fenced'])} read from a fenced block")
        out.print("; ".join(parts), highlight=False, markup=False, soft_wrap=True)
    err = wide_console(stderr=True)  # a warning stays one line when piped
    for message in result.warnings:
        warn(err, message)


def per_system_paths(path: Path, names: Sequence[str]) -> list[Path]:
    """Where a file per system goes: ``path`` itself for one system, else
    ``<stem>.<name><suffix>`` beside it (characters other than letters, digits, ``.``, ``_``,
    ``-`` and ``#`` in a name become ``_``, so a git ref such as ``origin/a`` stays one name)."""
    if len(names) == 1:
        return [path]
    safe = [re.sub(r"[^\w.#-]", "_", name) for name in names]
    if len(set(safe)) != len(safe):
        raise InputError(f"systems {', '.join(names)} give clashing file names beside {path}")
    return [path.with_name(f"{path.stem}.{name}{path.suffix}") for name in safe]


def write_outputs(
    results: Sequence[Result],
    out_console: Console,
    *,
    out: Path | None = None,
    native: Any = None,
    result: Path | None = None,
    csv: Path | None = None,
    names: Sequence[str] | None = None,
    named: bool = False,
) -> None:
    """Write what ``--out``, ``--result`` and ``--csv`` ask for (:func:`write_files`), then
    announce each file."""
    written = write_files(
        results, out=out, native=native, result=result, csv=csv, names=names, named=named
    )
    for path in written:
        announce(out_console, path)


def write_files(
    results: Sequence[Result],
    *,
    out: Path | None = None,
    native: Any = None,
    result: Path | None = None,
    csv: Path | None = None,
    names: Sequence[str] | None = None,
    named: bool = False,
) -> list[Path]:
    """Write what ``--out``, ``--result`` and ``--csv`` ask for, printing nothing; return the
    files written, in order (a command announces them after its summary).

    ``--out`` is the kind's own document: ``native``, else the one result's. An envelope is
    named after its file's stem (as :func:`parsescore.load_result` names a file) unless the
    user ``named`` the system (``--name``); with several results, ``names`` (default: theirs)
    name the files.
    """
    from parsescore.core.files import write_json

    written: list[Path] = []
    if out is not None:
        if native is None:
            if len(results) != 1:
                raise ValueError("several results need their combined native document")
            native = results[0].native
        write_json(out, native)
        written.append(out)
    labels = list(names) if names is not None else [r.name for r in results]
    if result is not None:
        for item, path in zip(results, per_system_paths(result, labels), strict=True):
            (item if named else replace(item, name=path.stem)).write(path)
            written.append(path)
    if csv is not None:
        for item, path in zip(results, per_system_paths(csv, labels), strict=True):
            item.write_csv(path)
            written.append(path)
    return written
