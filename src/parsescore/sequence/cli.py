"""``parsescore sequence``: score PlantUML / Mermaid sequence diagrams (files, directories or
git refs) of one model or several, print the paper's Table 2 and the worst files, write the
files asked for.

The command itself is built by the core from :class:`~parsescore.sequence.options.
SequenceOptions` (``Kind.command``); :func:`run` is what it does. The summary is printed from
the :class:`~parsescore.core.results.Result` alone, so a loaded envelope prints the same.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsescore.cli.common import (
    announce,
    output_folder,
    print_answers,
    warn,
    wide_console,
    with_empty_file_warnings,
    write_files,
)
from parsescore.core.aggregate import summed_counts
from parsescore.core.errors import InputError
from parsescore.sequence.kind import CHANGES
from parsescore.sequence.model import CATEGORIES
from parsescore.sequence.options import SequenceOptions

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from parsescore.core.results import Result
    from parsescore.sequence.inputs import ScriptSource

__all__ = ["run", "run_models", "summarise"]


def _gt_counts(result: Result) -> list[int]:
    """Each category's ground-truth count, summed over the result's files."""
    from parsescore.sequence.result import counts_of

    names = [f"{category}_gt_count" for category in CATEGORIES]
    return [int(v) for v in summed_counts(counts_of(result), names, list(result.items))]


def _table2(results: Sequence[Result], names: Sequence[str]) -> Table:
    from rich.markup import escape
    from rich.table import Table

    from parsescore.sequence.report import TABLE2_HEADERS

    table = Table(title="Sequence diagrams — Table 2 (rates in % of ground truth)")
    table.add_column("")
    for category in CATEGORIES:
        table.add_column(TABLE2_HEADERS[category], justify="right")
    table.add_row("Ground truth count", *[str(v) for v in _gt_counts(results[0])])
    for name, result in zip(names, results, strict=True):
        table.add_section()
        table.add_row(f"[bold]{escape(name)}[/]", *[""] * len(CATEGORIES))
        for change in CHANGES:
            table.add_row(
                f"{change.capitalize()} (%)",
                *[f"{result.totals[f'{c}_{change}_rate']:.2f}" for c in CATEGORIES],
            )
    return table


def _worst(result: Result, name: str, count: int) -> Table:
    from rich.markup import escape
    from rich.table import Table

    from parsescore.sequence.result import counts_of

    table = Table(title=f"Worst files — {escape(name)}")
    for column in ("file", "lines", "errors", "gt elements", "errors / element (%)"):
        table.add_column(column, justify="left" if column == "file" else "right")
    counts = counts_of(result)
    rows = [
        (
            path,
            values["error_rate"],
            int(counts[path]["errors"]),
            int(counts[path]["elements"]),
            result.details.get(path, {}).get("gt_lines"),
        )
        for path, values in result.items.items()
    ]
    ranked = sorted(rows, key=lambda row: (-row[1], -row[2], row[0]))  # worst first
    for path, rate, errors, elements, lines in ranked[:count]:
        shown = escape(path)
        if result.items[path].get("readable") == 0.0:  # scored as an empty answer
            why = "unreadable" if path in result.dataset.get("unreadable", {}) else "missing"
            shown += f" [dim]({why})[/]"
        # errors over no ground-truth element have no rate (the JSON's 0 is the paper's rule)
        rated = f"{rate:.2f}" if elements or not errors else "— (empty truth)"
        table.add_row(shown, str(lines), str(errors), str(elements), rated)
    return table


def _syntax_check(
    names: Sequence[str],
    pred_sources: Sequence[ScriptSource],
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
    for name, source in zip(names, pred_sources, strict=True):
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
    sequence`` prints them), then its warnings: from the result alone."""
    _print([result], [result.name], console, worst=10)
    print_answers(result, console)


def _print(
    results: Sequence[Result], names: Sequence[str], console: Console, *, worst: int
) -> None:
    console.print(_table2(results, names))
    for name, result in zip(names, results, strict=True):
        if result.items:
            console.print(_worst(result, name, worst))


def _pairs(
    truth: Path | None, preds: Sequence[Path], options: SequenceOptions
) -> list[tuple[str | Path, str | Path]]:
    """(truth, prediction) of every model: paths, or git refs of ``--repo``."""
    if options.repo is not None:
        if truth is not None or preds:
            raise InputError("use either --repo/--truth-ref/--pred-ref or --truth/--pred")
        if not options.truth_ref or not options.pred_ref:
            raise InputError("--repo needs --truth-ref and at least one --pred-ref")
        return [(options.truth_ref, ref) for ref in options.pred_ref]
    if truth is None or not preds:
        raise InputError("give --truth and at least one --pred (or --repo with refs)")
    if options.truth_ref or options.pred_ref:
        raise InputError("--truth-ref/--pred-ref need --repo")
    return [(truth, pred) for pred in preds]


def run_models(
    truth: Path | None,
    preds: Sequence[Path],
    options: SequenceOptions,
    *,
    out: Path | None = None,
    result: Path | None = None,
    csv: Path | None = None,
    console: Console | None = None,
    err_console: Console | None = None,
) -> list[Result]:
    """The whole command: score every model (:func:`parsescore.sequence.result.evaluate`),
    print, write the files (``result`` / ``csv``: one per model, see
    :func:`~parsescore.cli.common.per_system_paths`; ``options.report``: the report folder)."""
    from parsescore.cli.common import print_breakdowns
    from parsescore.core.api import finish
    from parsescore.core.files import write_json
    from parsescore.sequence.report import unique_names, write_report
    from parsescore.sequence.result import evaluate, sources

    console = console or wide_console()
    err_console = err_console or wide_console(stderr=True)
    pairs = _pairs(truth, preds, options)
    if options.report is not None:
        output_folder(options.report, force=options.force, option="--report")
    results = [
        with_empty_file_warnings(finish(evaluate(t, p, options), options), t, p) for t, p in pairs
    ]
    names = unique_names([r.name for r in results])
    # every file first: in place even when the reader of the summary goes away (| head)
    written: list[Path] = []
    if out is not None:
        native = [r.native for r in results]
        write_json(out, native[0] if len(native) == 1 else dict(zip(names, native, strict=True)))
        written.append(out)
    written += write_files(
        results, result=result, csv=csv, names=names, named=options.name is not None
    )
    report_warnings: list[str] = []
    if options.report is not None:
        _, report_warnings = write_report([r.computed for r in results], options.report)
        written.append(options.report)
    _print(results, names, console, worst=options.worst)
    for name, scored in zip(names, results, strict=True):
        if len(results) > 1:  # each model's answers line and warnings, named
            console.print(f"[{name}]", end=" ", highlight=False, markup=False)
            scored = replace(scored, warnings=tuple(f"[{name}] {w}" for w in scored.warnings))
        print_answers(scored, console)
        print_breakdowns(scored, console)
    if options.check_syntax:
        pred_sources = [sources(t, p, repo=options.repo)[1] for t, p in pairs]
        _syntax_check(names, pred_sources, console, err_console, options.pred_format)
    for message in report_warnings:
        warn(err_console, message)
    for path in written:
        announce(console, path)
    return results


def run(values: Mapping[str, Any]) -> None:
    """``parsescore sequence`` (``CommandParts.run``): its checked flags, scored and written."""
    run_models(
        values["truth"],
        list(values["pred"] or []),
        values["options"],
        out=values["out"],
        result=values["result"],
        csv=values["csv"],
    )
    sys.stdout.flush()
