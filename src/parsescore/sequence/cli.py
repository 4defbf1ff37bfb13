"""``parsescore sequence``: score PlantUML / Mermaid sequence diagrams (files, directories or
git refs)."""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from parsescore.cli.common import (
    AllowMissingOption,
    CacheOption,
    CsvOption,
    DaskSchedulerOption,
    ForceOption,
    JobsOption,
    OutOption,
    QuietOption,
    ResultOption,
    StrictOption,
    announce,
    output_folder,
    print_answers,
    warn,
    wide_console,
    write_outputs,
)
from parsescore.core.errors import InputError
from parsescore.sequence.model import CATEGORIES, DEFAULT_THRESHOLD

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from parsescore.core.results import Result
    from parsescore.sequence.inputs import ScriptSource
    from parsescore.sequence.metrics import ModelScore

__all__ = ["register", "run_sequence", "summarise"]


class FormatChoice(StrEnum):
    """The dialects a script can be read as (``auto``: by content, then by file name)."""

    auto = "auto"
    plantuml = "plantuml"
    mermaid = "mermaid"


def _table2(models: list[ModelScore]) -> Table:
    from rich.markup import escape
    from rich.table import Table

    from parsescore.sequence.report import TABLE2_HEADERS, unique_names

    table = Table(title="Sequence diagrams — Table 2 (rates in % of ground truth)")
    table.add_column("")
    for category in CATEGORIES:
        table.add_column(TABLE2_HEADERS[category], justify="right")
    totals = models[0].totals
    table.add_row("Ground truth count", *[str(totals[c].gt_count) for c in CATEGORIES])
    for name, model in zip(unique_names(models), models, strict=True):
        totals = model.totals
        table.add_section()
        table.add_row(f"[bold]{escape(name)}[/]", *[""] * len(CATEGORIES))
        for label, attr in (
            ("Insertion (%)", "insertion_rate"),
            ("Deletion (%)", "deletion_rate"),
            ("Substitution (%)", "substitution_rate"),
        ):
            table.add_row(label, *[f"{getattr(totals[c], attr):.2f}" for c in CATEGORIES])
    return table


def _worst(model: ModelScore, name: str, count: int) -> Table:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"Worst files — {escape(name)}")
    for column in ("file", "lines", "errors", "gt elements", "errors / element (%)"):
        table.add_column(column, justify="left" if column == "file" else "right")
    ranked = sorted(model.files, key=lambda f: (-f.error_rate, -f.errors, f.path))
    for file in ranked[:count]:
        table.add_row(
            escape(file.path),
            str(file.gt_lines),
            str(file.errors),
            str(file.elements),
            f"{file.error_rate:.2f}",
        )
    return table


def _syntax_check(
    models: list[ModelScore],
    pred_sources: list[ScriptSource],
    console: Console,
    err_console: Console,
    pred_format: str = "auto",
) -> None:
    """Compile every prediction with PlantUML (in parallel) and list the ones that fail: the
    diagram that is scored (a chat answer's, see :func:`parsescore.shared.answers.unwrap_answer`),
    its lines counted in the answer. A report only: what does not compile still scores."""
    from rich.markup import escape

    from parsescore.sequence.dataset import answer_formats
    from parsescore.sequence.read import detect_format
    from parsescore.sequence.report import unique_names
    from parsescore.sequence.syntax import check_syntax, find_plantuml
    from parsescore.shared.answers import unwrap_answer

    command = find_plantuml()
    if command is None:
        warn(
            err_console,
            "syntax check skipped: no PlantUML found (set PLANTUML_JAR to a plantuml.jar "
            "or install the 'plantuml' command)",
        )
        return
    jobs: list[tuple[str, str, str]] = []
    first_lines: list[int] = []  # where the checked diagram starts in the answer
    mermaid = 0
    for name, source in zip(unique_names(models), pred_sources, strict=True):
        for rel in source.paths:
            try:
                answer = unwrap_answer(source.read(rel), answer_formats(pred_format))
            except InputError as exc:
                console.print(escape(f"[{name}] {rel}: not checked ({exc})"), highlight=False)
                continue
            if detect_format(answer.text, rel) == "mermaid":
                mermaid += 1  # PlantUML cannot compile Mermaid: the reader's warnings say it all
            else:
                jobs.append((name, rel, answer.text))
                first_lines.append(answer.line)
    if mermaid:
        console.print(f"syntax check: {mermaid} Mermaid prediction(s) not checked", highlight=False)
    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        results = list(pool.map(lambda job: check_syntax(command, job[1], job[2]), jobs))
    failures = 0
    for (name, rel, _), first, result in zip(jobs, first_lines, results, strict=True):
        if not result.ok:
            failures += 1
            where = f" line {result.line + first - 1}" if result.line else ""
            console.print(
                escape(f"[{name}] {rel}:{where} does not compile: {result.message}"),
                highlight=False,
            )
    console.print(
        f"syntax check: {failures} prediction(s) do not compile"
        if failures
        else f"syntax check: every prediction compiles ({len(results)} checked)",
        highlight=False,
    )


def summarise(result: Result, console: Console) -> None:
    """Table 2, the worst files and the answers line of one scored model (as ``parsescore
    sequence`` prints them), then its warnings."""
    _print([result], console, worst=10)
    print_answers(result, console)


def _print(results: list[Result], console: Console, *, worst: int) -> None:
    from parsescore.sequence.report import unique_names

    models = [r.computed for r in results]
    console.print(_table2(models))
    for name, model in zip(unique_names(models), models, strict=True):
        if model.files:
            console.print(_worst(model, name, worst))


def run_sequence(
    truth: Path | None,
    preds: list[Path],
    *,
    out: Path | None = None,
    result: Path | None = None,
    csv: Path | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    ignore_colours: bool = False,
    truth_format: str = "auto",
    pred_format: str = "auto",
    strict: bool = False,
    allow_missing: bool = False,
    check: bool = False,
    report: Path | None = None,
    repo: Path | None = None,
    truth_ref: str | None = None,
    pred_refs: list[str] | None = None,
    worst: int = 10,
    jobs: int = 1,
    dask_scheduler: str | None = None,
    cache: Path | None = None,
    quiet: bool = False,
    force: bool = False,
    console: Console | None = None,
    err_console: Console | None = None,
) -> list[Result]:
    """The whole command: score every model (:func:`parsescore.evaluate`), print, write files.

    ``result`` / ``csv`` write one file per model (see :func:`per_system_paths`).
    """
    from parsescore.core.api import evaluate
    from parsescore.core.files import write_json
    from parsescore.sequence.report import results_json, unique_names, write_report
    from parsescore.sequence.result import sources

    console = console or wide_console()
    err_console = err_console or wide_console(stderr=True)
    if not 0 <= threshold <= 1:  # checked before anything is read
        raise InputError(f"--threshold must be between 0 and 1, got {threshold}")
    pred_refs = pred_refs or []
    if repo is not None:
        if truth is not None or preds:
            raise InputError("use either --repo/--truth-ref/--pred-ref or --truth/--pred")
        if not truth_ref or not pred_refs:
            raise InputError("--repo needs --truth-ref and at least one --pred-ref")
        pairs: list[tuple[str | Path, str | Path]] = [(truth_ref, ref) for ref in pred_refs]
    else:
        if truth is None or not preds:
            raise InputError("give --truth and at least one --pred (or --repo with refs)")
        if truth_ref or pred_refs:
            raise InputError("--truth-ref/--pred-ref need --repo")
        pairs = [(truth, pred) for pred in preds]
    if report is not None:
        output_folder(report, force=force, option="--report")
    options: dict[str, object] = {"threshold": threshold, "repo": repo, "jobs": jobs}
    options |= {"ignore_colours": ignore_colours}
    options |= {"truth_format": truth_format, "pred_format": pred_format}
    options |= {"quiet": quiet, "dask_scheduler": dask_scheduler, "cache": cache}
    options |= {"strict": strict, "allow_missing": allow_missing}
    results = [evaluate("sequence", t, p, **options) for t, p in pairs]
    models = [r.computed for r in results]
    names = unique_names(models)
    _print(results, console, worst=worst)
    for name, scored in zip(names, results, strict=True):
        if len(results) > 1:  # each model's answers line and warnings, named
            console.print(f"[{name}]", end=" ", highlight=False, markup=False)
            scored = replace(scored, warnings=tuple(f"[{name}] {w}" for w in scored.warnings))
        print_answers(scored, console)
    if check:
        pred_sources = [sources(t, p, repo=repo)[1] for t, p in pairs]
        _syntax_check(models, pred_sources, console, err_console, pred_format)
    if out is not None:
        write_json(out, results_json(models))
        announce(console, out)
    write_outputs(results, console, result=result, csv=csv, names=names)
    if report is not None:
        _, warnings = write_report(models, report)
        for message in warnings:
            warn(err_console, message)
        announce(console, report)
    return results


def register(app: typer.Typer) -> None:
    """Add the ``sequence`` subcommand to the parsescore CLI."""

    @app.command("sequence")
    def sequence(
        truth: Annotated[
            Path | None,
            typer.Option("--truth", help="Ground-truth .puml/.mmd file or directory."),
        ] = None,
        pred: Annotated[
            list[Path] | None,
            typer.Option("--pred", help="Prediction file or directory (repeat for models)."),
        ] = None,
        out: OutOption = None,
        result: ResultOption = None,
        csv: CsvOption = None,
        threshold: Annotated[
            float,
            typer.Option(
                "--threshold",
                help="Largest normalised Levenshtein distance (distance / longer length) "
                "for a removed/added pair to count as a substitution.",
            ),
        ] = DEFAULT_THRESHOLD,
        ignore_colours: Annotated[
            bool,
            typer.Option(
                "--ignore-colours",
                help="Colours never count (default: a changed colour is a substitution, as in "
                "the paper's git diff).",
            ),
        ] = False,
        truth_format: Annotated[
            FormatChoice,
            typer.Option("--truth-format", help="Ground-truth dialect (auto: by content, name)."),
        ] = FormatChoice.auto,
        pred_format: Annotated[
            FormatChoice,
            typer.Option("--pred-format", help="Prediction dialect (auto: by content, name)."),
        ] = FormatChoice.auto,
        strict: StrictOption = False,
        allow_missing: AllowMissingOption = False,
        check_syntax_: Annotated[
            bool,
            typer.Option("--check-syntax", help="Report predictions PlantUML cannot compile."),
        ] = False,
        report: Annotated[
            Path | None,
            typer.Option("--report", help="Write Table 1/2, the plot and all differences here."),
        ] = None,
        repo: Annotated[
            Path | None, typer.Option("--repo", help="Git repository (paper set-up).")
        ] = None,
        truth_ref: Annotated[
            str | None, typer.Option("--truth-ref", help="Ref holding the ground truth.")
        ] = None,
        pred_ref: Annotated[
            list[str] | None,
            typer.Option("--pred-ref", help="Ref holding one model's outputs (repeatable)."),
        ] = None,
        worst: Annotated[
            int, typer.Option("--worst", help="How many worst files to list per model.")
        ] = 10,
        jobs: JobsOption = 1,
        dask_scheduler: DaskSchedulerOption = None,
        cache: CacheOption = None,
        quiet: QuietOption = False,
        force: ForceOption = False,
    ) -> None:
        """Score PlantUML or Mermaid sequence diagrams with the image-to-UML paper's metrics."""
        run_sequence(
            truth,
            list(pred or []),
            out=out,
            result=result,
            csv=csv,
            threshold=threshold,
            ignore_colours=ignore_colours,
            truth_format=truth_format.value,
            pred_format=pred_format.value,
            strict=strict,
            allow_missing=allow_missing,
            check=check_syntax_,
            report=report,
            repo=repo,
            truth_ref=truth_ref,
            pred_refs=list(pred_ref or []),
            worst=worst,
            jobs=jobs,
            dask_scheduler=dask_scheduler,
            force=force,
            cache=cache,
            quiet=quiet,
        )
        sys.stdout.flush()
