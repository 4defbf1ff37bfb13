"""CLI: ``parsescore table`` (a collection; the core builds it from
:class:`~parsescore.table.options.TableOptions`, :func:`run_table` runs it), ``parsescore grits``
(cell lists, or tables with GriTS only) and ``parsescore teds`` (one pair, as the reference's
``table_recognition_metric`` command). ``grits`` and ``teds`` take the flags they share with
``table`` from its declarations; the dataset commands are thin shells over
:func:`parsescore.evaluate`."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from parsescore.cli.common import (
    CsvOption,
    OutOption,
    ResultOption,
    show_and_write,
    wide_console,
)
from parsescore.core.errors import InputError
from parsescore.core.options import Option, declared, options_model
from parsescore.shared.coverage import READABLE
from parsescore.table.metrics import GRITS, GRITS_HEADLINE, N_TABLES, TEDS, TEDS_S
from parsescore.table.options import TableOptions

if TYPE_CHECKING:
    from rich.console import Console

    from parsescore.core.results import Result

__all__ = ["register", "run_table", "summarise"]

#: What ``grits --truth-format`` / ``--pred-format`` take besides the table formats.
CELLS = "cells"


def summarise(result: Result, console: Console) -> None:
    """The command's summary, from the result alone (a run and its envelope read back print the
    same): the mean of every metric, the lowest-scoring tables, the tables with no answer and the
    answers with no truth, then the answers' line and the warnings
    (:func:`~parsescore.cli.common.print_answers`)."""
    from rich.markup import escape
    from rich.table import Table

    from parsescore.cli.common import print_answers

    headline = str(result.options.get("metric", TEDS.name))
    grits_run = headline == GRITS_HEADLINE  # a GriTS run (cell lists, or tables with GriTS only)
    n_tables = N_TABLES.show(result.totals.get(N_TABLES.name, len(result.items)))
    means = Table(title=f"parsescore {'grits' if grits_run else 'table'} — {n_tables} tables")
    means.add_column("metric")
    means.add_column("mean", justify="right")
    if grits_run:
        for metric in GRITS:
            mean = result.totals.get(metric.name)
            means.add_row(metric.name, "n/a (no boxes)" if mean is None else f"{mean:.4f}")
        console.print(means)
    else:
        for name, mean in result.totals.items():
            if name in (READABLE.name, N_TABLES.name) or name.endswith(("precision", "recall")):
                continue
            means.add_row(f"{name} (headline)" if name == headline else name, f"{mean:.4f}")
        console.print(means)
        other = TEDS.name if headline == TEDS_S.name else TEDS_S.name
        scores = {item: values[headline] for item, values in result.items.items()}
        worst = sorted(scores, key=lambda name: (scores[name], name))[:5]
        if worst and scores[worst[0]] < 1.0:
            lowest = Table(title="lowest-scoring tables", title_justify="left")
            lowest.add_column("table", overflow="fold")
            lowest.add_column(headline, justify="right")
            lowest.add_column(other, justify="right")
            for name in worst:
                secondary = result.items[name][other]
                lowest.add_row(escape(name), f"{scores[name]:.4f}", f"{secondary:.4f}")
            console.print(lowest)
    missing, extra = result.dataset.get("missing", []), result.dataset.get("extra", [])
    if missing:
        shown = ", ".join(missing[:10]) + (" ..." if len(missing) > 10 else "")
        left_out = result.options.get("allow_missing") is True
        how = "left out, --allow-missing" if left_out else "scored 0"
        console.print(f"[yellow]{len(missing)} missing (no answer; {how}):[/] {escape(shown)}")
    if extra:
        console.print(f"[dim]{len(extra)} answers without truth ignored[/]")
    print_answers(result, console)


def run_table(values: Mapping[str, Any]) -> None:
    """``parsescore table``: evaluate (the cells that differ only for ``--result``, the one
    file that holds them; ``--ignore-nodes`` split at commas), print the summary, write the
    files."""
    from parsescore.core.api import finish
    from parsescore.core.kinds import get_kind, resolved

    options: TableOptions = values["options"]
    tags = tuple(tag for given in options.ignore_nodes for tag in given.split(",") if tag)
    options = replace(options, ignore_nodes=tags, cell_details=values["result"] is not None)
    scored = resolved(get_kind("table").evaluate)(values["truth"], values["pred"], options)
    show_and_write(finish(scored, options), values, wide_console())


def _declared(option_name: str, **changes: Any) -> Option:
    """``table``'s declaration of an option (with ``changes``: another name and flag, default
    or choices for a command that takes it differently)."""
    found = next(option for option in declared(TableOptions) if option.name == option_name)
    return replace(found, **changes)


def _command(
    function: Callable[..., None], parameters: list[inspect.Parameter]
) -> Callable[..., None]:
    """``function`` with ``parameters`` as its signature (typer reads its flags from it)."""
    function.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    function.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": None}
    return function


def _path(name: str, flag: str, help: str) -> inspect.Parameter:
    return inspect.Parameter(
        name,
        inspect.Parameter.KEYWORD_ONLY,
        annotation=Annotated[Path, typer.Option(flag, help=help)],
    )


def _outputs() -> list[inspect.Parameter]:
    keyword = inspect.Parameter.KEYWORD_ONLY
    return [
        inspect.Parameter(name, keyword, default=None, annotation=hint)
        for name, hint in (("out", OutOption), ("result", ResultOption), ("csv", CsvOption))
    ]


#: The options ``parsescore grits`` shares with ``parsescore table`` (the GriTS ones under its
#: own flags ``--iou`` / ``--lcs``), and its formats: ``cells`` (the default) or a table format.
_GRITS_SHARED: tuple[str, ...] = (
    "latex_math",
    "strict",
    "allow_missing",
    "jobs",
    "dask_scheduler",
    "cache",
)
_GRITS_SHARED += ("quiet", "name")


def _grits_options() -> list[Option]:
    formats = _declared("truth_format")
    choices = (CELLS, *formats.choices)
    format_help = (
        "cells (table-transformer cell lists, the default) or a table format (GriTS-Top and "
        "-Con; tables have no boxes)."
    )
    return [
        _declared("truth_format", default=CELLS, choices=choices, help=format_help),
        _declared("pred_format", default=CELLS, choices=choices, help=format_help),
        _declared("grits_iou", name="iou", flag="--iou"),
        _declared("grits_lcs", name="lcs", flag="--lcs"),
        *(_declared(name) for name in _GRITS_SHARED),
    ]


def grits_command(**values: Any) -> None:
    """GriTS-Top, -Con and -Loc of table-transformer cell lists (JSON per side), or GriTS-Top
    and -Con of tables in any format (--truth-format/--pred-format; no boxes, no -Loc)."""
    from parsescore.core.kinds import get_kind, resolved

    formats = (values["truth_format"], values["pred_format"])
    cells = formats == (CELLS, CELLS)
    if not cells and CELLS in formats:
        raise InputError(
            "--truth-format and --pred-format: cell lists and tables cannot be compared; "
            "give both as cells or both as table formats"
        )
    given = {name: values[name] for name in _GRITS_SHARED}
    given |= {"grits_iou": values["iou"], "grits_lcs": values["lcs"]}
    if cells:
        given |= {"cells": True}
    else:
        given |= {"teds": False, "truth_format": formats[0], "pred_format": formats[1]}
    if cells:
        given.pop("latex_math")
        given.pop("strict")
    options = options_model(TableOptions, "grits", given)
    from parsescore.core.api import finish

    scored = resolved(get_kind("table").evaluate)(values["truth"], values["pred"], options)
    show_and_write(finish(scored, options), {**values, "options": options}, wide_console())


def teds_command(**values: Any) -> None:
    """Score one pair and print the number, like ``table_recognition_metric`` (the
    prediction is read as a model's answer: prose and fences around the table dropped)."""
    from lxml.etree import LxmlError

    from parsescore.shared.tables.teds import TEDS as TEDSMetric
    from parsescore.table.readers import read_answer, read_table

    gt_html, pred_html = values["gt_html"], values["pred_html"]
    if gt_html is None:
        raise InputError("gt_html must be non-empty.")
    if pred_html is None:
        raise InputError("pred_html must be non-empty.")
    math = values["latex_math"]
    gt_html = read_table(gt_html, values["truth_format"], latex_math=math).html
    pred_html = read_answer(pred_html, values["pred_format"], latex_math=math)[0].html
    try:
        score = TEDSMetric(structure_only=values["structure_only"])(gt_html, pred_html)
    except (ValueError, LxmlError) as exc:  # lxml's ParserError is not a ValueError
        raise InputError(f"bad HTML: {exc}") from None
    sys.stdout.write(f"{score}\n")


def register(app: typer.Typer) -> None:
    """Add ``parsescore grits`` and ``parsescore teds`` (``parsescore table`` is the kind's
    main command, built by the core)."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    grits = [
        _path("truth", "--truth", "Truth cells: {name: [cell]} JSON, or tables."),
        _path("pred", "--pred", "Predicted cells or tables."),
        *_outputs(),
        *(option.cli_parameter() for option in _grits_options()),
    ]
    app.command("grits", help=grits_command.__doc__)(_command(grits_command, grits))

    def text(flags: tuple[str, ...], help: str) -> Any:
        return Annotated[str | None, typer.Option(*flags, help=help)]

    teds = [
        inspect.Parameter(
            "gt_html", keyword, default=None, annotation=text(("-gt", "--gt_html"), "Truth HTML.")
        ),
        inspect.Parameter(
            "pred_html",
            keyword,
            default=None,
            annotation=text(("-pred", "--pred_html"), "Predicted HTML."),
        ),
        inspect.Parameter(
            "structure_only",
            keyword,
            default=False,
            annotation=Annotated[bool, typer.Option("-steds", "--structure_only", help="TEDS-S.")],
        ),
        *(
            _declared(name).cli_parameter()
            for name in ("truth_format", "pred_format", "latex_math")
        ),
    ]
    app.command("teds", help=teds_command.__doc__)(_command(teds_command, teds))
