"""``parsescore compare``: systems scored on the same dataset, with intervals and p-values.

``register(app)`` adds the command; numpy and the results load when it runs.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from parsescore.cli.common import (
    AttributesOption,
    PermutationsOption,
    ResamplesOption,
    SeedOption,
)
from parsescore.core.compare import DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES
from parsescore.core.errors import InputError

if TYPE_CHECKING:
    from rich.console import Console

    from parsescore.core.compare import Comparison

__all__ = ["print_comparison", "register"]


class OutputFormat(StrEnum):
    """What ``compare`` prints (an enum: every typer release shows and checks it alike)."""

    terminal = "terminal"
    markdown = "markdown"
    latex = "latex"
    csv = "csv"
    json = "json"


def _number(value: float) -> str:
    return f"{value:.4f}"


def _p_value(value: float) -> str:
    return f"{value:.4f}" if value >= 1e-4 else f"{value:.1e}"


def print_comparison(comparison: Comparison, console: Console | None = None) -> None:
    """Two tables: each system's value of every statistic and mean with its interval, then each
    difference with its p-value."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    from parsescore.cli.common import console as command_console

    console = console or command_console()
    level = f"{comparison.confidence * 100:g}%"
    console.print(
        f"[bold]parsescore compare[/] — {comparison.kind}, {len(comparison.common_items)} shared "
        f"items (seed {comparison.seed}, {comparison.n_resamples} bootstrap resamples)",
        highlight=False,
    )
    # statistics of the items' summed counts (pooled, micro) under the kind's labels, then the
    # per-item means under the metrics' names
    entries = [(entry.label, entry) for entry in comparison.statistics.values()]
    entries += list(comparison.metrics.items())
    means = Table(box=box.SIMPLE_HEAD)
    means.add_column("metric", overflow="fold")
    means.add_column("n", justify="right")
    means.add_column("system", overflow="fold")
    means.add_column("value", justify="right")
    means.add_column(f"{level} CI", justify="right", no_wrap=True)
    for metric, entry in entries:
        arrow = "↑" if entry.higher_is_better else "↓"
        values = [s.mean for s in entry.systems.values()]
        best = max(values) if entry.higher_is_better else min(values)
        for k, (name, summary) in enumerate(entry.systems.items()):
            style = "bold" if summary.mean == best and values.count(best) == 1 else None
            means.add_row(
                escape(f"{metric} {arrow}") if k == 0 else "",
                str(len(entry.items)) if k == 0 else "",
                escape(name),
                _number(summary.mean),
                f"[{_number(summary.ci_low)}, {_number(summary.ci_high)}]",
                style=style,
            )
        means.add_section()
    console.print(means)

    console.print(
        f"[bold]Differences a − b[/] (paired; p: two-sided sign-flip permutation test, "
        f"{comparison.n_permutations} random sign flips, or exact when 2^n is fewer)",
        highlight=False,
    )
    diffs = Table(box=box.SIMPLE_HEAD)
    diffs.add_column("metric", overflow="fold")
    diffs.add_column("a − b", overflow="fold")
    diffs.add_column("difference", justify="right")
    diffs.add_column(f"{level} CI", justify="right", no_wrap=True)
    diffs.add_column("p", justify="right")
    for metric, entry in entries:
        for k, d in enumerate(entry.differences):
            diffs.add_row(
                escape(metric) if k == 0 else "",
                escape(f"{d.a} − {d.b}"),
                f"{d.mean_difference:+.4f}",
                f"[{d.ci_low:+.4f}, {d.ci_high:+.4f}]",
                _p_value(d.p_value),
            )
        if len(entry.differences) > 1:
            diffs.add_section()
    console.print(diffs)
    for name, items in comparison.only_in.items():
        if items:
            shown = ", ".join(items[:10]) + (" ..." if len(items) > 10 else "")
            console.print(
                escape(f"only in {name} ({len(items)}, not compared): {shown}"),
                style="yellow",
                highlight=False,
            )
    console.print(
        "↑ higher is better, ↓ lower is better; bold: the best. Every number is over the items "
        "every system has: a metric's name is the mean of the items' values; a total's label "
        "(pooled, micro) is that statistic of the items' summed counts.",
        style="dim",
        highlight=False,
    )


def _formatted(comparison: Comparison, format: str, metrics: list[str] | None) -> str:
    """The comparison as text in ``format`` (markdown, latex, csv: the columns ``metrics``, else
    the headline ones; or json, every number)."""
    from parsescore.core.files import dump_json

    if format == "json":
        return dump_json(comparison.to_json())
    writers = {"markdown": comparison.to_markdown, "latex": comparison.to_latex}
    return writers.get(format, comparison.to_csv)(metrics)


def _grouped(
    compared: Mapping[str, Comparison], by: str | None, format: str, metrics: list[str] | None
) -> str:
    """The comparisons as text in ``format``; with ``--by``, one per value: JSON ``{"by",
    "groups": {value: comparison}}``, a section (Markdown, LaTeX) or a leading column (CSV)."""
    from parsescore.core.files import csv_rows, csv_text, dump_json

    if by is None:
        return _formatted(compared[""], format, metrics)
    if format == "json":
        return dump_json({"by": by, "groups": {v: c.to_json() for v, c in compared.items()}})
    if format == "csv":
        import csv
        import io

        table: list[list[str]] = []
        for value, comparison in compared.items():
            text = _formatted(comparison, "csv", metrics)
            header, *rows = csv.reader(io.StringIO(text, newline=""))
            if not table:
                table.append([csv_text(by), *header])
            table += [[csv_text(value), *row] for row in rows]
        return csv_rows(table)
    sections = []
    for value, comparison in compared.items():
        text = _formatted(comparison, format, metrics)
        title = f"{by} = {value}"
        if format == "markdown":
            from parsescore.core.markdown import inert_markdown

            sections.append(f"### {inert_markdown(title)}\n\n{text}")  # the table is inert
        else:
            from parsescore.core.leaderboard import latex_escape

            sections.append(f"% {title}\n\\paragraph{{{latex_escape(title)}}}\n{text}")
    return "\n".join(sections)


def register(app: typer.Typer) -> None:
    """Add the ``compare`` subcommand to a typer app."""

    @app.command("compare")
    def compare_command(
        results: Annotated[
            list[Path],
            typer.Argument(
                help="Result JSON files (--out or --result of any kind's command), same kind "
                "and dataset; a file holding several systems (e.g. several models) counts as "
                "each of them.",
                show_default=False,
                metavar="RESULT",
            ),
        ],
        metric: Annotated[
            list[str] | None,
            typer.Option("--metric", help="Compare only this metric (repeatable; default all)."),
        ] = None,
        seed: SeedOption = 0,
        resamples: ResamplesOption = DEFAULT_RESAMPLES,
        permutations: PermutationsOption = DEFAULT_PERMUTATIONS,
        name: Annotated[
            list[str] | None,
            typer.Option("--name", help="System name of each file, in order (default: stem)."),
        ] = None,
        out: Annotated[
            Path | None,
            typer.Option(
                "--out",
                help="Write the comparison here, in the format its extension names: .md "
                "(Markdown), .tex (LaTeX), .csv, else JSON (every number).",
            ),
        ] = None,
        by: Annotated[
            str | None,
            typer.Option(
                "--by",
                help="Compare per value of this item attribute (the kind's, e.g. a table's "
                "structure, or a column of --attributes): one comparison per value.",
            ),
        ] = None,
        attributes: AttributesOption = None,
        format: Annotated[
            OutputFormat,
            typer.Option(
                "--format",
                help="What to print: terminal (tables for reading, the default), or the "
                "systems × metrics table as markdown, latex or csv, or json.",
            ),
        ] = OutputFormat.terminal,
    ) -> None:
        """Compare systems: means with 95% paired-bootstrap intervals, differences, p-values."""
        from parsescore.cli.common import announce, console
        from parsescore.core.compare import compare_results
        from parsescore.core.files import write_text
        from parsescore.core.results import load_systems

        if seed < 0:
            raise InputError(f"--seed must be a non-negative integer, got {seed}")
        systems = load_systems(list(results), list(name) if name else None)
        if len(systems) < 2:
            raise InputError(
                "compare needs at least two systems: give two or more result files "
                "(or one file holding several)"
            )
        if attributes is not None:
            from parsescore.core.breakdown import with_attribute_source

            systems = with_attribute_source(systems, attributes)
        settings: dict[str, Any] = {
            "metrics": list(metric) if metric else None,
            "seed": seed,
            "n_resamples": resamples,
            "n_permutations": permutations,
        }
        if by is None:
            compared = {"": compare_results(systems, **settings)}
        else:
            from parsescore.core.compare import compare_by

            compared = dict(compare_by(systems, by, **settings))
        if out is not None:  # the file first: in place even when the reader goes away
            from parsescore.core.leaderboard import FORMATS

            written = FORMATS.get(out.suffix.lower(), "json")
            write_text(out, _grouped(compared, by, written, metric))
        out_console = console(width=120)  # piped: wide enough for one line per row
        for value, comparison in compared.items():
            if format == "terminal":
                if by is not None:
                    out_console.rule(f"{by} = {value}", align="left")
                print_comparison(comparison, out_console)
        if format != "terminal":
            sys.stdout.write(_grouped(compared, by, format, metric))
        if out is not None:
            announce(out_console if format == "terminal" else console(stderr=True), out)
