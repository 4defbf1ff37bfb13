"""``parsescore report RESULT... --out DIR``, registered on the main app by ``register(app)``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from parsescore.errors import InputError

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``report`` subcommand to a typer app."""

    @app.command("report")
    def report_command(
        results: Annotated[
            list[Path],
            typer.Argument(
                help="Result JSON files (--out or --result of flowchart/table/sequence/graph, "
                "any mix of kinds); each file is a system, a multi-model sequence JSON one per "
                "model.",
                show_default=False,
                metavar="RESULT",
            ),
        ],
        out: Annotated[Path, typer.Option("--out", help="Folder to write index.html into.")],
        name: Annotated[
            list[str] | None,
            typer.Option("--name", help="System name of each file, in order (default: stem)."),
        ] = None,
        title: Annotated[str, typer.Option("--title", help="Page title.")] = "parsescore report",
        seed: Annotated[int, typer.Option("--seed", help="Random seed of the comparison.")] = 0,
        resamples: Annotated[
            int, typer.Option("--resamples", help="Bootstrap resamples.")
        ] = 10_000,
        permutations: Annotated[
            int, typer.Option("--permutations", help="Random sign flips of the permutation test.")
        ] = 10_000,
        max_items: Annotated[
            int,
            typer.Option(
                "--max-items",
                help="Items per system in the drill-down, worst first (0: all).",
            ),
        ] = 200,
    ) -> None:
        """Write one self-contained HTML report: overview, comparison, plots, per-item detail."""
        from parsescore.report import ReportOptions, write_report

        if seed < 0:
            raise InputError(f"--seed must be a non-negative integer, got {seed}")
        if max_items < 0:
            raise InputError(f"--max-items must be 0 (all) or more, got {max_items}")
        if out.exists() and not out.is_dir():
            raise InputError(f"--out {out} exists and is not a folder")
        options = ReportOptions(
            seed=seed,
            n_resamples=resamples,
            n_permutations=permutations,
            max_items=max_items,
            title=title,
        )
        target = write_report(
            list(results), out, names=list(name) if name else None, options=options
        )
        Console().print(f"Report written to [bold]{target}[/]", highlight=False)
