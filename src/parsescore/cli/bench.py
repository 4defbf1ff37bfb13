"""``parsescore bench CONFIG.toml --out DIR``: a whole benchmark from one config
(:mod:`parsescore.core.bench`); ``parsescore bench --init FILE`` writes a commented example."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from parsescore.cli.common import ForceOption
from parsescore.core.errors import InputError
from parsescore.core.options import DatasetOptions, declared

__all__ = ["register"]

_RUN = {o.name: o for o in declared(DatasetOptions)}


def register(app: typer.Typer) -> None:
    """Add the ``bench`` command to a typer app."""

    @app.command("bench")
    def bench_command(
        config: Annotated[
            Path | None,
            typer.Argument(
                help="The benchmark config (TOML): datasets, their kinds and truths, systems.",
                show_default=False,
                metavar="CONFIG",
            ),
        ] = None,
        out: Annotated[
            Path | None,
            typer.Option(
                "--out",
                help="Folder for every envelope, comparison, the leaderboard tables and the "
                "report (items cached in DIR/cache: a re-run scores only what changed).",
            ),
        ] = None,
        init: Annotated[
            Path | None,
            typer.Option("--init", help="Write a commented example config here and stop."),
        ] = None,
        jobs: Annotated[int, _RUN["jobs"].marker()] = 1,
        dask_scheduler: Annotated[str | None, _RUN["dask_scheduler"].marker()] = None,
        quiet: Annotated[bool, _RUN["quiet"].marker()] = False,
        force: ForceOption = False,
    ) -> None:
        """Score every system of every dataset of a benchmark config, compare them, and write
        the leaderboard tables and one HTML report into one folder."""
        from parsescore.cli.common import announce, console, output_folder

        out_console = console()
        if init is not None:
            from parsescore.core.bench import EXAMPLE
            from parsescore.core.files import write_text

            if init.exists():
                raise InputError(f"{init} exists; choose another name for the example config")
            write_text(init, EXAMPLE)
            announce(out_console, init)
            return
        if config is None or out is None:
            raise InputError("give a config and --out DIR (or --init FILE for an example)")
        from parsescore.core.bench import load_bench, run_bench
        from parsescore.report import ReportOptions, write_report

        bench = load_bench(config)
        folder = output_folder(out, force=force)

        def progress(step: str) -> None:
            if not quiet:
                console(stderr=True).print(f"[dim]bench[/] {step}", highlight=False)

        written = run_bench(
            bench, folder, jobs=jobs, dask_scheduler=dask_scheduler, quiet=quiet, announce=progress
        )
        results = [r for rs in written.results.values() for r in rs]
        datasets = [name for name, rs in written.results.items() for _ in rs]
        report = write_report(
            results,
            folder / "report",
            options=ReportOptions(
                seed=bench.seed,
                n_resamples=bench.resamples,
                n_permutations=bench.permutations,
                title=bench.title,
            ),
            datasets=datasets,
        )
        board = folder / "leaderboard.md"
        if board.is_file():  # as written: a Markdown table must not be wrapped
            typer.echo(board.read_text(encoding="utf-8"))
        for path in (*written.files, report):
            announce(out_console, path)
