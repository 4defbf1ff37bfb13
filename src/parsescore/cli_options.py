"""Command-line options shared by every dataset command (one definition, one help text)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["CacheOption", "DaskSchedulerOption", "JobsOption", "QuietOption", "ResultOption"]

JobsOption = Annotated[int, typer.Option("--jobs", help="Worker processes (0 = all cores).")]
DaskSchedulerOption = Annotated[
    str | None,
    typer.Option("--dask-scheduler", help="Run on this Dask scheduler (the dask extra)."),
]
CacheOption = Annotated[
    Path | None,
    typer.Option("--cache", help="Reuse per-item results cached in this directory."),
]
QuietOption = Annotated[bool, typer.Option("--quiet", help="No progress bar or cache summary.")]
ResultOption = Annotated[
    Path | None,
    typer.Option(
        "--result",
        help="Also write the common result envelope here (parsescore schema result; "
        "parsescore.load_result reads it back).",
    ),
]
