"""``parsescore sequence``: score PlantUML sequence diagrams (files, directories or git refs)."""

from __future__ import annotations

import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parsescore.cli_options import CacheOption, DaskSchedulerOption, JobsOption, QuietOption
from parsescore.errors import InputError
from parsescore.files import write_json
from parsescore.results import command_result, write_result
from parsescore.sequence.dataset import score_model
from parsescore.sequence.inputs import ScriptSource, git_source, path_source
from parsescore.sequence.metrics import DEFAULT_THRESHOLD, ModelScore
from parsescore.sequence.model import CATEGORIES
from parsescore.sequence.report import TABLE2_HEADERS, results_json, unique_names, write_report
from parsescore.sequence.syntax import check_syntax, find_plantuml

__all__ = ["envelope_paths", "register", "run_sequence"]


def _console(*, stderr: bool = False) -> Console:
    """A console; when output is not a terminal, wide enough for Table 2 on one line."""
    console = Console(stderr=stderr)
    if not console.is_terminal:
        console = Console(stderr=stderr, width=max(console.width, 140))
    return console


def _table2(models: list[ModelScore]) -> Table:
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
) -> None:
    """Compile every prediction with PlantUML (in parallel) and list the ones that fail."""
    command = find_plantuml()
    if command is None:
        err_console.print(
            "syntax check skipped: no PlantUML found (set PLANTUML_JAR to a plantuml.jar "
            "or install the 'plantuml' command)",
            highlight=False,
        )
        return
    jobs: list[tuple[str, str, str]] = []
    for name, source in zip(unique_names(models), pred_sources, strict=True):
        for rel in source.paths:
            try:
                jobs.append((name, rel, source.read(rel)))
            except InputError as exc:
                console.print(escape(f"[{name}] {rel}: not checked ({exc})"), highlight=False)
    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        results = list(pool.map(lambda job: check_syntax(command, job[1], job[2]), jobs))
    failures = 0
    for (name, rel, _), result in zip(jobs, results, strict=True):
        if not result.ok:
            failures += 1
            where = f" line {result.line}" if result.line else ""
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


def envelope_paths(path: Path, names: list[str]) -> list[Path]:
    """Where ``--result`` writes each model's envelope: ``path`` itself for one model, else
    ``<stem>.<model><suffix>`` beside it (characters other than letters, digits, ``.``, ``_``,
    ``-`` and ``#`` in the model name become ``_``, so a ref such as ``origin/a`` stays a name)."""
    if len(names) == 1:
        return [path]
    safe = [re.sub(r"[^\w.#-]", "_", name) for name in names]
    if len(set(safe)) != len(safe):
        raise InputError(f"--result: model names {', '.join(names)} give clashing file names")
    return [path.with_name(f"{path.stem}.{name}{path.suffix}") for name in safe]


def _envelopes(
    models: list[ModelScore],
    result: Path,
    *,
    inputs: list[dict[str, Any]],
    threshold: float,
    console: Console,
) -> None:
    """Write one envelope per model, from the very block ``--out`` holds for it."""
    names = unique_names(models)
    for model, path, given in zip(models, envelope_paths(result, names), inputs, strict=True):
        envelope = command_result(
            results_json([model]),
            path,
            inputs=given,
            options={"threshold": threshold},
            details={
                file.path: {"differences": [d.as_dict() for d in file.differences]}
                for file in model.files
            },
            dataset={
                "missing_predictions": [f.path for f in model.files if f.prediction_missing],
                "skipped": [{"path": s.path, "reason": s.reason} for s in model.skipped],
            },
        )
        write_result(path, envelope)
        console.print(f"result written to {path}", highlight=False)


def run_sequence(
    truth: Path | None,
    preds: list[Path],
    *,
    out: Path | None = None,
    result: Path | None = None,
    threshold: float = DEFAULT_THRESHOLD,
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
    console: Console | None = None,
    err_console: Console | None = None,
) -> list[ModelScore]:
    """The whole command: read, score every model, print, write JSON / report files.

    ``result`` writes the common envelope, one per model (see :func:`envelope_paths`).
    """
    console = console or _console()
    err_console = err_console or _console(stderr=True)
    pred_refs = pred_refs or []
    if not 0 <= threshold <= 1:
        raise InputError(f"--threshold must be between 0 and 1, got {threshold}")
    if repo is not None:
        if truth is not None or preds:
            raise InputError("use either --repo/--truth-ref/--pred-ref or --truth/--pred")
        if not truth_ref or not pred_refs:
            raise InputError("--repo needs --truth-ref and at least one --pred-ref")
        truth_source: ScriptSource = git_source(repo, truth_ref)
        pred_sources = [git_source(repo, ref) for ref in pred_refs]
        inputs = [{"repo": str(repo), "truth_ref": truth_ref, "pred_ref": ref} for ref in pred_refs]
    else:
        if truth is None or not preds:
            raise InputError("give --truth and at least one --pred (or --repo with refs)")
        if truth_ref or pred_refs:
            raise InputError("--truth-ref/--pred-ref need --repo")
        truth_source = path_source(truth)
        pred_sources = [path_source(pred) for pred in preds]
        inputs = [{"truth": str(truth), "pred": str(pred)} for pred in preds]
        if any(p.single_file != truth_source.single_file for p in pred_sources):
            raise InputError("--truth and --pred must both be files or both be directories")
        if not truth_source.paths:
            raise InputError(
                "no PlantUML scripts (.puml, .plantuml, .pu, .iuml, .wsd) found", path=truth
            )

    models = [
        score_model(
            truth_source,
            source,
            threshold=threshold,
            jobs=jobs,
            dask_scheduler=dask_scheduler,
            cache_dir=cache,
            progress=not quiet,
            console=err_console,
        )
        for source in pred_sources
    ]
    for name, model in zip(unique_names(models), models, strict=True):
        for warning in model.warnings:
            err_console.print(
                f"[yellow]warning[/] {escape(f'[{name}] {warning}')}", highlight=False
            )

    console.print(_table2(models))
    for name, model in zip(unique_names(models), models, strict=True):
        if model.files:
            console.print(_worst(model, name, worst))

    if check:
        _syntax_check(models, pred_sources, console, err_console)

    if out is not None:
        write_json(out, results_json(models))
        console.print(f"JSON written to {out}", highlight=False)
    if result is not None:
        _envelopes(models, result, inputs=inputs, threshold=threshold, console=console)
    if report is not None:
        written, warnings = write_report(models, report)
        for warning in warnings:
            err_console.print(f"[yellow]warning[/] {escape(warning)}", highlight=False)
        console.print(f"report written to {report} ({len(written)} files)", highlight=False)
    return models


def register(app: typer.Typer) -> None:
    """Add the ``sequence`` subcommand to the parsescore CLI."""

    @app.command("sequence")
    def sequence(
        truth: Annotated[
            Path | None, typer.Option("--truth", help="Ground-truth .puml file or directory.")
        ] = None,
        pred: Annotated[
            list[Path] | None,
            typer.Option("--pred", help="Prediction file or directory (repeat for models)."),
        ] = None,
        out: Annotated[Path | None, typer.Option("--out", help="Write JSON results here.")] = None,
        result: Annotated[
            Path | None,
            typer.Option(
                "--result",
                help="Also write the common result envelope here (parsescore schema result); "
                "with several models, one per model: <stem>.<model><suffix>.",
            ),
        ] = None,
        threshold: Annotated[
            float,
            typer.Option(
                "--threshold",
                help="Largest normalised Levenshtein distance (distance / longer length) "
                "for a removed/added pair to count as a substitution.",
            ),
        ] = DEFAULT_THRESHOLD,
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
    ) -> None:
        """Score PlantUML sequence diagrams with the image-to-UML paper's metrics."""
        run_sequence(
            truth,
            list(pred or []),
            out=out,
            result=result,
            threshold=threshold,
            check=check_syntax_,
            report=report,
            repo=repo,
            truth_ref=truth_ref,
            pred_refs=list(pred_ref or []),
            worst=worst,
            jobs=jobs,
            dask_scheduler=dask_scheduler,
            cache=cache,
            quiet=quiet,
        )
        sys.stdout.flush()
