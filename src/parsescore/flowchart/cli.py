"""``parsescore flowchart``: the parsing benchmark from the command line (a thin shell over
:func:`parsescore.evaluate`)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from parsescore.cli.common import (
    AllowMissingOption,
    CacheOption,
    CsvOption,
    DaskSchedulerOption,
    JobsOption,
    OutOption,
    QuietOption,
    ResultOption,
    StrictOption,
    console,
    write_outputs,
)

__all__ = ["register"]


class Distance(StrEnum):
    normalised = "normalised"
    raw = "raw"


class Format(StrEnum):
    """A flowchart file's format (parsescore.flowchart.formats.FORMATS)."""

    auto = "auto"
    json = "json"
    mermaid = "mermaid"
    dot = "dot"


def register(app: typer.Typer) -> None:
    """Add the ``flowchart`` command to a typer app."""

    @app.command("flowchart")
    def flowchart(
        truth: Annotated[
            Path,
            typer.Option(
                "--truth",
                help="Ground-truth folder with nodes/ labels/ flow/ additional_texts/, or of "
                "one .mmd/.mermaid/.dot/.gv file per flowchart.",
            ),
        ],
        pred: Annotated[
            list[Path],
            typer.Option(
                "--pred",
                help="Prediction folder (.json, .mmd, .mermaid, .dot, .gv files, chat answers "
                "too); repeat for separately parsed parts.",
            ),
        ],
        expected_num_diagrams: Annotated[
            int | None,
            typer.Option(
                "--expected-num-diagrams",
                help="Flowcharts in the whole ground truth (default: as many as --truth holds).",
            ),
        ] = None,
        allow_missing: AllowMissingOption = False,
        strict: StrictOption = False,
        distance: Annotated[
            Distance,
            typer.Option("--distance", help="normalised (Flowde's default) or raw Levenshtein."),
        ] = Distance.normalised,
        pred_format: Annotated[
            Format,
            typer.Option(
                "--pred-format",
                help="auto (by extension), json, mermaid or dot; a forced format also reads .txt.",
            ),
        ] = Format.auto,
        truth_format: Annotated[
            Format,
            typer.Option("--truth-format", help="auto (by extension), mermaid or dot."),
        ] = Format.auto,
        check_syntax: Annotated[
            bool,
            typer.Option(
                "--check-syntax",
                help="Also give the Mermaid answers to Mermaid's own parser (node and the npm "
                "packages mermaid and jsdom in --mermaid-dir); what it refuses is unreadable.",
            ),
        ] = False,
        mermaid_dir: Annotated[
            Path | None,
            typer.Option(
                "--mermaid-dir",
                help="Folder whose node_modules hold mermaid and jsdom, for --check-syntax "
                "(default: $PARSESCORE_MERMAID_DIR).",
            ),
        ] = None,
        out: OutOption = None,
        result: ResultOption = None,
        csv: CsvOption = None,
        jobs: JobsOption = 1,
        dask_scheduler: DaskSchedulerOption = None,
        cache: CacheOption = None,
        quiet: QuietOption = False,
    ) -> None:
        """Flowchart parsing benchmark (Flowde-compatible): text, labels, flow, extra text."""
        from parsescore.core.api import evaluate
        from parsescore.flowchart.summary import summarise

        scored = evaluate(
            "flowchart",
            truth,
            pred,
            expected_num_diagrams=expected_num_diagrams,
            allow_missing=allow_missing,
            strict=strict,
            distance=distance.value,
            jobs=jobs,
            dask_scheduler=dask_scheduler,
            cache=cache,
            quiet=quiet,
            pred_format=pred_format.value,
            truth_format=truth_format.value,
            check_syntax=check_syntax,
            mermaid_dir=mermaid_dir,
        )
        out_console = console()
        summarise(scored, out_console)
        write_outputs([scored], out_console, out=out, result=result, csv=csv)
