"""CLI: ``parsescore table`` (a collection), ``parsescore grits`` (cell lists) and ``parsescore
teds`` (one pair, as the reference's ``table_recognition_metric`` command); the first two are
thin shells over :func:`parsescore.evaluate`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

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
from parsescore.core.errors import InputError

if TYPE_CHECKING:
    from rich.console import Console

    from parsescore.core.results import Result

#: The formats ``--truth-format`` / ``--pred-format`` take (parsescore.table.formats.FORMATS,
#: written out so that --help does not import the readers).
FORMAT_HELP = (
    "html (the reference's input: a whole document), html-fragment, markdown, latex, csv, tsv, "
    "otsl, doctags, or auto (a folder's files by extension, others by content)"
)
TruthFormatOption = Annotated[
    str, typer.Option("--truth-format", help=f"How the truth tables are written: {FORMAT_HELP}.")
]
PredFormatOption = Annotated[
    str,
    typer.Option("--pred-format", help=f"How the predicted tables are written: {FORMAT_HELP}."),
]
LatexMathOption = Annotated[
    str,
    typer.Option(
        "--latex-math",
        help="LaTeX tables: math as its source between $ (source, the default) or as the text "
        "it shows (text: $\\pm$ is ±, $^{a}$ is <sup>a</sup>).",
    ),
]

__all__ = ["register", "summarise"]


def summarise(result: Result, console: Console) -> None:
    """The command's summary: the mean of every metric, the lowest-scoring tables, the tables
    with no answer and the answers with no truth, then the answers' line and the warnings
    (:func:`~parsescore.cli.common.print_answers`)."""
    from rich.markup import escape
    from rich.table import Table

    from parsescore.cli.common import print_answers
    from parsescore.shared.coverage import READABLE

    doc = result.native
    if "GriTS-Loc" in doc["metrics"]:  # a GriTS run on cell lists
        means = Table(title=f"parsescore grits — {doc['n_tables']} tables")
        means.add_column("metric")
        means.add_column("mean", justify="right")
        for name, entry in doc["metrics"].items():
            mean = entry["mean"]
            if name != READABLE.name:  # the answers' line says it
                means.add_row(name, "n/a (no boxes)" if mean is None else f"{mean:.4f}")
        console.print(means)
    else:
        means = Table(title=f"parsescore table — {doc['n_tables']} tables")
        means.add_column("metric")
        means.add_column("mean", justify="right")
        for name, entry in doc["metrics"].items():
            if name.endswith(("precision", "recall")) or name == READABLE.name:
                continue
            label = f"{name} (headline)" if name == doc["metric"] else name
            means.add_row(label, f"{entry['mean']:.4f}")
        console.print(means)
        headline = doc["scores"]
        other = "TEDS" if doc["metric"] == "TEDS-S" else "TEDS-S"
        secondary = doc["metrics"][other]["scores"]
        worst = sorted(headline, key=lambda name: (headline[name], name))[:5]
        if worst and headline[worst[0]] < 1.0:
            lowest = Table(title="lowest-scoring tables", title_justify="left")
            lowest.add_column("table", overflow="fold")
            lowest.add_column(doc["metric"], justify="right")
            lowest.add_column(other, justify="right")
            for name in worst:
                lowest.add_row(escape(name), f"{headline[name]:.4f}", f"{secondary[name]:.4f}")
            console.print(lowest)
    missing, extra = doc["missing"], doc["extra"]
    if missing:
        shown = ", ".join(missing[:10]) + (" ..." if len(missing) > 10 else "")
        left_out = doc["options"].get("allow_missing") is True
        how = "left out, --allow-missing" if left_out else "scored 0"
        console.print(f"[yellow]{len(missing)} missing (no answer; {how}):[/] {escape(shown)}")
    if extra:
        console.print(f"[dim]{len(extra)} answers without truth ignored[/]")
    print_answers(result, console)


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
        out: OutOption = None,
        result: ResultOption = None,
        csv: CsvOption = None,
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
        truth_format: TruthFormatOption = "html",
        pred_format: PredFormatOption = "html",
        no_header: Annotated[
            bool, typer.Option("--no-header", help="CSV/TSV: the first row is not a header.")
        ] = False,
        latex_math: LatexMathOption = "source",
        strict: StrictOption = False,
        allow_missing: AllowMissingOption = False,
        grits_iou: Annotated[
            str, typer.Option("--grits-iou", help="enclosing (table-transformer) or union.")
        ] = "enclosing",
        grits_lcs: Annotated[
            str, typer.Option("--grits-lcs", help="difflib (table-transformer) or exact.")
        ] = "difflib",
    ) -> None:
        """Score a collection of predicted tables (HTML, or --pred-format): TEDS, TEDS-S and
        GriTS per table."""
        from parsescore.core.api import evaluate

        scored = evaluate(
            "table",
            truth,
            pred,
            structure_only=structure_only,
            denominator=denominator,
            normalise=normalise,
            ignore_nodes=[t for t in (ignore_nodes or "").split(",") if t] or None,
            grits=not no_grits,
            grits_iou=grits_iou,
            grits_lcs=grits_lcs,
            truth_format=truth_format,
            pred_format=pred_format,
            header=not no_header,
            latex_math=latex_math,
            strict=strict,
            allow_missing=allow_missing,
            cell_details=result is not None,
            jobs=jobs,
            dask_scheduler=dask_scheduler,
            cache=cache,
            quiet=quiet,
        )
        out_console = console()
        summarise(scored, out_console)
        write_outputs([scored], out_console, out=out, result=result, csv=csv)

    @app.command("grits")
    def grits_command(
        truth: Annotated[
            Path, typer.Option("--truth", help="Truth cells: {name: [cell]} JSON, or tables.")
        ],
        pred: Annotated[Path, typer.Option("--pred", help="Predicted cells or tables.")],
        out: OutOption = None,
        result: ResultOption = None,
        csv: CsvOption = None,
        truth_format: Annotated[
            str,
            typer.Option(
                "--truth-format",
                help=f"cells (table-transformer cell lists, the default) or a table format: "
                f"{FORMAT_HELP}.",
            ),
        ] = "cells",
        pred_format: Annotated[
            str,
            typer.Option(
                "--pred-format", help="cells (the default) or a table format, as --truth-format."
            ),
        ] = "cells",
        iou: Annotated[
            str, typer.Option("--iou", help="enclosing (table-transformer) or union.")
        ] = "enclosing",
        lcs: Annotated[
            str, typer.Option("--lcs", help="difflib (table-transformer) or exact.")
        ] = "difflib",
        latex_math: LatexMathOption = "source",
        strict: StrictOption = False,
        allow_missing: AllowMissingOption = False,
        jobs: JobsOption = 1,
        dask_scheduler: DaskSchedulerOption = None,
        cache: CacheOption = None,
        quiet: QuietOption = False,
    ) -> None:
        """GriTS-Top, -Con and -Loc of table-transformer cell lists (JSON per side), or GriTS-Top
        and -Con of tables in any format (--truth-format/--pred-format; no boxes, no -Loc)."""
        from parsescore.core.api import evaluate

        if iou not in ("enclosing", "union"):
            raise InputError(f"--iou must be enclosing or union, got {iou!r}")
        if lcs not in ("difflib", "exact"):
            raise InputError(f"--lcs must be difflib or exact, got {lcs!r}")
        cells = (truth_format, pred_format) == ("cells", "cells")
        if not cells and "cells" in (truth_format, pred_format):
            raise InputError(
                "--truth-format and --pred-format: cell lists and tables cannot be compared; "
                "give both as cells or both as table formats"
            )
        formats: dict[str, Any] = {}
        if not cells:
            formats = {"truth_format": truth_format, "pred_format": pred_format}
            formats |= {"latex_math": latex_math, "strict": strict}
        scored = evaluate(
            "table",
            truth,
            pred,
            cells=cells,
            teds=cells,  # tables: GriTS only
            **formats,
            grits_iou=iou,
            grits_lcs=lcs,
            allow_missing=allow_missing,
            jobs=jobs,
            dask_scheduler=dask_scheduler,
            cache=cache,
            quiet=quiet,
        )
        out_console = console()
        summarise(scored, out_console)
        write_outputs([scored], out_console, out=out, result=result, csv=csv)

    @app.command("teds")
    def teds_command(
        gt_html: Annotated[str | None, typer.Option("-gt", "--gt_html", help="Truth HTML.")] = None,
        pred_html: Annotated[
            str | None, typer.Option("-pred", "--pred_html", help="Predicted HTML.")
        ] = None,
        structure_only: Annotated[
            bool, typer.Option("-steds", "--structure_only", help="TEDS-S.")
        ] = False,
        truth_format: TruthFormatOption = "html",
        pred_format: PredFormatOption = "html",
        latex_math: LatexMathOption = "source",
    ) -> None:
        """Score one pair and print the number, like ``table_recognition_metric`` (the
        prediction is read as a model's answer: prose and fences around the table dropped)."""
        from parsescore.table.formats import read_answer, read_table
        from parsescore.table.teds import TEDS

        if gt_html is None:
            raise ValueError("gt_html must be non-empty.")
        if pred_html is None:
            raise ValueError("pred_html must be non-empty.")
        gt_html = read_table(gt_html, truth_format, latex_math=latex_math).html
        pred_html = read_answer(pred_html, pred_format, latex_math=latex_math)[0].html
        try:
            score = TEDS(structure_only=structure_only)(gt_html, pred_html)
        except ValueError as exc:
            raise InputError(f"bad HTML: {exc}") from None
        except Exception as exc:  # lxml's ParserError is not a ValueError
            raise InputError(f"bad HTML: {exc}") from None
        sys.stdout.write(f"{score}\n")
