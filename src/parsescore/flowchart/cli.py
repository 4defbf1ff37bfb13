"""``parsescore flowchart``: the parsing benchmark from the command line."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from parsescore.cli_options import (
    CacheOption,
    DaskSchedulerOption,
    JobsOption,
    QuietOption,
    ResultOption,
)
from parsescore.errors import InputError
from parsescore.files import write_json
from parsescore.flowchart.benchmark import ParsingBenchmark, use_runner
from parsescore.flowchart.load import TRUTH_PARTS
from parsescore.flowchart.report import benchmark_result, print_summary
from parsescore.results import command_result, write_result
from parsescore.text import levenshtein, levenshtein_with_text_normalisation


class Distance(StrEnum):
    normalised = "normalised"
    raw = "raw"


DISTANCES = {Distance.normalised: levenshtein_with_text_normalisation, Distance.raw: levenshtein}


def run_flowchart(
    truth: Path,
    preds: list[Path],
    *,
    expected_num_diagrams: int | None = None,
    allow_missing: bool = False,
    distance: Distance = Distance.normalised,
    show_progress: bool | None = None,
    jobs: int = 1,
    dask_scheduler: str | None = None,
    cache: Path | None = None,
    quiet: bool | None = None,
) -> dict:
    """Load, score and return the JSON-ready result (shared by the CLI and the demo)."""
    if not truth.is_dir():
        raise InputError(
            "--truth should be a directory holding nodes/ labels/ flow/ additional_texts/",
            path=truth,
        )
    missing = [part for part in TRUTH_PARTS if not (truth / part).is_dir()]
    if missing:
        raise InputError(
            f"ground-truth folder lacks {', '.join(p + '/' for p in missing)}; expected "
            "nodes/ labels/ flow/ additional_texts/",
            path=truth,
        )
    if expected_num_diagrams is None:
        expected_num_diagrams = len(list((truth / "nodes").glob("*.json")))
    bench = ParsingBenchmark(
        pred_diagrams_dir=preds[0] if len(preds) == 1 else preds,
        distance_fn=DISTANCES[distance],
        allow_missing_pred_diagrams=allow_missing,
        true_nodes_dir=truth / "nodes",
        true_labels_dir=truth / "labels",
        true_flow_dir=truth / "flow",
        true_additional_texts_dir=truth / "additional_texts",
        expected_num_diagrams=expected_num_diagrams,
        show_progress=show_progress,
    )
    use_runner(bench, jobs=jobs, dask_scheduler=dask_scheduler, cache_dir=cache, quiet=quiet)
    return benchmark_result(
        bench,
        inputs={"truth": str(truth), "pred": [str(p) for p in preds]},
        options={
            "distance": distance.value,
            "allow_missing": allow_missing,
            "expected_num_diagrams": expected_num_diagrams,
        },
    )


def register(app: typer.Typer) -> None:
    @app.command("flowchart")
    def flowchart(
        truth: Annotated[
            Path,
            typer.Option(
                "--truth", help="Ground-truth folder with nodes/ labels/ flow/ additional_texts/."
            ),
        ],
        pred: Annotated[
            list[Path],
            typer.Option("--pred", help="Prediction folder; repeat for separately parsed parts."),
        ],
        expected_num_diagrams: Annotated[
            int | None,
            typer.Option(
                "--expected-num-diagrams",
                help="Flowcharts in the whole ground truth (default: as many as --truth holds).",
            ),
        ] = None,
        allow_missing: Annotated[
            bool,
            typer.Option(
                "--allow-missing", help="Score only the flowcharts that have predictions."
            ),
        ] = False,
        distance: Annotated[
            Distance,
            typer.Option("--distance", help="normalised (Flowde's default) or raw Levenshtein."),
        ] = Distance.normalised,
        out: Annotated[
            Path | None, typer.Option("--out", help="Write every number and match as JSON.")
        ] = None,
        result_path: ResultOption = None,
        jobs: JobsOption = 1,
        dask_scheduler: DaskSchedulerOption = None,
        cache: CacheOption = None,
        quiet: QuietOption = False,
    ) -> None:
        """Flowchart parsing benchmark (Flowde-compatible): text, labels, flow, extra text."""
        result = run_flowchart(
            truth,
            pred,
            expected_num_diagrams=expected_num_diagrams,
            allow_missing=allow_missing,
            distance=distance,
            show_progress=False if quiet else None,
            jobs=jobs,
            dask_scheduler=dask_scheduler,
            cache=cache,
            quiet=quiet,
        )
        print_summary(result, Console())
        if out is not None:
            write_json(out, result)
            Console().print(f"Wrote {out}", highlight=False)
        if result_path is not None:
            # the native document records inputs, options, node pairs and missing predictions
            write_result(result_path, command_result(result, result_path))
            Console().print(f"Wrote {result_path}", highlight=False)
