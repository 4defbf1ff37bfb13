"""``parsescore report RESULT... --out DIR``, registered on the main app by ``register(app)``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from parsescore.cli.common import (
    AttributesOption,
    ForceOption,
    PermutationsOption,
    ResamplesOption,
    SeedOption,
)
from parsescore.core.compare import DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES
from parsescore.core.errors import InputError

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``report`` subcommand to a typer app."""

    @app.command("report")
    def report_command(
        results: Annotated[
            list[Path],
            typer.Argument(
                help="Result JSON files (--out or --result of any kind's command, any mix of "
                "kinds); each file is a system, a file holding several systems each of them.",
                show_default=False,
                metavar="RESULT",
            ),
        ],
        out: Annotated[
            Path,
            typer.Option("--out", help="Folder to write index.html (and items/*.html) into."),
        ],
        name: Annotated[
            list[str] | None,
            typer.Option("--name", help="System name of each file, in order (default: stem)."),
        ] = None,
        title: Annotated[str, typer.Option("--title", help="Page title.")] = "parsescore report",
        seed: SeedOption = 0,
        resamples: ResamplesOption = DEFAULT_RESAMPLES,
        permutations: PermutationsOption = DEFAULT_PERMUTATIONS,
        max_items: Annotated[
            int,
            typer.Option(
                "--max-items",
                help="Items per system with their detail on the main page, worst first; the "
                "others go to pages of as many in DIR/items/ (0: all on the main page).",
            ),
        ] = 200,
        by: Annotated[
            str | None,
            typer.Option(
                "--by",
                help="Also compare within each value of this item attribute (the kind's, or "
                "a column of --attributes).",
            ),
        ] = None,
        attributes: AttributesOption = None,
        force: ForceOption = False,
    ) -> None:
        """Write a static HTML report: overview, comparison, plots, per-item drawings."""
        from parsescore.cli.common import announce, console, output_folder
        from parsescore.report import ReportOptions, write_report

        if seed < 0:
            raise InputError(f"--seed must be a non-negative integer, got {seed}")
        if max_items < 0:
            raise InputError(f"--max-items must be 0 (all) or more, got {max_items}")
        output_folder(out, force=force)
        options = ReportOptions(
            seed=seed,
            n_resamples=resamples,
            n_permutations=permutations,
            max_items=max_items,
            title=title,
            by=by,
        )
        sources: list[Any] = list(results)
        if attributes is not None:
            from parsescore.core.breakdown import with_attribute_source
            from parsescore.core.results import load_systems

            loaded = load_systems(list(results), list(name) if name else None)
            sources = with_attribute_source(loaded, attributes)
            name = None
        target = write_report(sources, out, names=list(name) if name else None, options=options)
        announce(console(), target)
