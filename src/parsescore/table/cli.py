"""CLI: ``parsescore table`` (a collection) and ``parsescore teds`` (one pair, as the
reference's ``table_recognition_metric`` command)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parsescore.cli_options import (
    CacheOption,
    DaskSchedulerOption,
    JobsOption,
    QuietOption,
    ResultOption,
)
from parsescore.errors import InputError
from parsescore.files import write_json
from parsescore.results import command_result, write_result
from parsescore.table.celldiff import table_details

__all__ = ["register"]


def _summary(result: object, console: Console) -> None:
    from parsescore.table.batch import BatchResult

    assert isinstance(result, BatchResult)
    doc = result.to_json()
    table = Table(title=f"parsescore table — {len(result.tables)} tables")
    table.add_column("metric")
    table.add_column("mean", justify="right")
    for name, entry in doc["metrics"].items():
        if name.endswith(("precision", "recall")):
            continue
        label = f"{name} (headline)" if name == doc["metric"] else name
        table.add_row(label, f"{entry['mean']:.4f}")
    console.print(table)
    headline = result.scores()
    other = [m for m in ("TEDS", "TEDS-S") if m != doc["metric"]]
    secondary = result.scores(other[0])
    worst = sorted(headline, key=lambda name: (headline[name], name))[:5]
    if worst and headline[worst[0]] < 1.0:
        lowest = Table(title="lowest-scoring tables", title_justify="left")
        lowest.add_column("table", overflow="fold")
        lowest.add_column(doc["metric"], justify="right")
        lowest.add_column(other[0], justify="right")
        for name in worst:
            lowest.add_row(escape(name), f"{headline[name]:.4f}", f"{secondary[name]:.4f}")
        console.print(lowest)
    if result.missing:
        shown = ", ".join(result.missing[:10]) + (" ..." if len(result.missing) > 10 else "")
        console.print(
            f"[yellow]{len(result.missing)} missing predictions (scored 0):[/] {escape(shown)}"
        )
    if result.extra:
        console.print(f"[dim]{len(result.extra)} predictions without truth ignored[/]")


def register(app: typer.Typer) -> None:
    """Add the table subcommands to the parsescore app."""

    @app.command("table")
    def table_command(
        truth: Annotated[Path, typer.Option("--truth", help="Truth tables (JSON, JSONL, folder).")],
        pred: Annotated[
            Path, typer.Option("--pred", help="Predicted tables (JSON, JSONL, folder).")
        ],
        structure_only: Annotated[
            bool, typer.Option("--structure-only", help="Headline metric TEDS-S (as -steds).")
        ] = False,
        jobs: JobsOption = 1,
        dask_scheduler: DaskSchedulerOption = None,
        cache: CacheOption = None,
        quiet: QuietOption = False,
        out: Annotated[
            Path | None, typer.Option("--out", help="Write the JSON result here.")
        ] = None,
        result_path: ResultOption = None,
        denominator: Annotated[
            str,
            typer.Option(
                "--denominator",
                help="tree_nodes (reference) or all_descendants (PubTabNet/OmniDocBench).",
            ),
        ] = "tree_nodes",
        normalise: Annotated[
            bool, typer.Option("--normalise", help="OmniDocBench-style HTML normalisation first.")
        ] = False,
        ignore_nodes: Annotated[
            str | None, typer.Option("--ignore-nodes", help="Comma-separated tags to strip.")
        ] = None,
        no_grits: Annotated[bool, typer.Option("--no-grits", help="Skip GriTS.")] = False,
        grits_iou: Annotated[
            str, typer.Option("--grits-iou", help="enclosing (table-transformer) or union.")
        ] = "enclosing",
        grits_lcs: Annotated[
            str, typer.Option("--grits-lcs", help="difflib (table-transformer) or exact.")
        ] = "difflib",
    ) -> None:
        """Score a collection of predicted HTML tables: TEDS, TEDS-S and GriTS per table."""
        from parsescore.table.batch import evaluate_tables
        from parsescore.table.inputs import load_tables

        if denominator not in ("tree_nodes", "all_descendants"):
            raise InputError(
                f"--denominator must be tree_nodes or all_descendants, got {denominator!r}"
            )
        truth_tables = load_tables(truth)
        pred_tables = load_tables(pred)
        if not truth_tables:
            raise InputError("no truth tables", path=truth)
        console = Console()
        result = evaluate_tables(
            truth_tables,
            pred_tables,
            structure_only=structure_only,
            jobs=jobs,
            with_grits=not no_grits,
            ignore_nodes=[t for t in (ignore_nodes or "").split(",") if t] or None,
            denominator=denominator,  # type: ignore[arg-type]
            normalise=normalise,
            grits_iou=grits_iou,  # type: ignore[arg-type]
            grits_lcs=grits_lcs,  # type: ignore[arg-type]
            progress=not quiet,
            dask_scheduler=dask_scheduler,
            cache_dir=cache,
            truth_path=truth,
            pred_path=pred,
        )
        doc = result.to_json()
        if out is not None:
            write_json(out, doc)
        if result_path is not None:
            write_result(
                result_path,
                command_result(
                    doc,
                    result_path,
                    inputs={"truth": str(truth), "pred": str(pred)},
                    details=table_details(truth_tables, pred_tables, normalise=normalise),
                ),
            )
        _summary(result, console)
        if out is not None:
            console.print(f"written: {out}")
        if result_path is not None:
            console.print(f"written: {result_path}")

    @app.command("grits")
    def grits_command(
        truth: Annotated[Path, typer.Option("--truth", help="Truth cells: {name: [cell]} JSON.")],
        pred: Annotated[Path, typer.Option("--pred", help="Predicted cells, same format.")],
        out: Annotated[
            Path | None, typer.Option("--out", help="Write the JSON result here.")
        ] = None,
        result_path: ResultOption = None,
        iou: Annotated[
            str, typer.Option("--iou", help="enclosing (table-transformer) or union.")
        ] = "enclosing",
        lcs: Annotated[
            str, typer.Option("--lcs", help="difflib (table-transformer) or exact.")
        ] = "difflib",
        jobs: JobsOption = 1,
        dask_scheduler: DaskSchedulerOption = None,
        cache: CacheOption = None,
        quiet: QuietOption = False,
    ) -> None:
        """GriTS-Top, -Con and -Loc of table-transformer cell lists (JSON per side)."""
        from parsescore.table.grits import evaluate_cell_tables, load_cell_tables

        if iou not in ("enclosing", "union"):
            raise InputError(f"--iou must be enclosing or union, got {iou!r}")
        if lcs not in ("difflib", "exact"):
            raise InputError(f"--lcs must be difflib or exact, got {lcs!r}")
        doc = evaluate_cell_tables(
            load_cell_tables(truth),
            load_cell_tables(pred),
            iou=iou,  # type: ignore[arg-type]
            lcs=lcs,  # type: ignore[arg-type]
            jobs=jobs,
            dask_scheduler=dask_scheduler,
            cache_dir=cache,
            quiet=quiet,
        )
        if out is not None:
            write_json(out, doc)
        if result_path is not None:
            inputs = {"truth": str(truth), "pred": str(pred)}
            write_result(result_path, command_result(doc, result_path, inputs=inputs))
        console = Console()
        table = Table(title=f"parsescore grits — {doc['n_tables']} tables")
        table.add_column("metric")
        table.add_column("mean", justify="right")
        for name, entry in doc["metrics"].items():
            mean = entry["mean"]
            table.add_row(name, "n/a (no boxes)" if mean is None else f"{mean:.4f}")
        console.print(table)
        if doc["missing"]:
            console.print(f"[yellow]{len(doc['missing'])} missing predictions (scored 0)[/]")
        if out is not None:
            console.print(f"written: {out}")
        if result_path is not None:
            console.print(f"written: {result_path}")

    @app.command("teds")
    def teds_command(
        gt_html: Annotated[str | None, typer.Option("-gt", "--gt_html", help="Truth HTML.")] = None,
        pred_html: Annotated[
            str | None, typer.Option("-pred", "--pred_html", help="Predicted HTML.")
        ] = None,
        structure_only: Annotated[
            bool, typer.Option("-steds", "--structure_only", help="TEDS-S.")
        ] = False,
    ) -> None:
        """Score one pair and print the number, like ``table_recognition_metric``."""
        from parsescore.table.teds import TEDS

        if gt_html is None:
            raise ValueError("gt_html must be non-empty.")
        if pred_html is None:
            raise ValueError("pred_html must be non-empty.")
        try:
            score = TEDS(structure_only=structure_only)(gt_html, pred_html)
        except ValueError as exc:
            raise InputError(f"bad HTML: {exc}") from None
        except Exception as exc:  # lxml's ParserError is not a ValueError
            raise InputError(f"bad HTML: {exc}") from None
        sys.stdout.write(f"{score}\n")
