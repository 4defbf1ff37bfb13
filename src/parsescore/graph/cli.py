"""``parsescore graph``, ``graph-aggregate`` and ``graph-audit`` subcommands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from parsescore.cli_options import ResultOption
from parsescore.errors import InputError
from parsescore.files import write_json
from parsescore.results import command_result, write_result

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the knowledge-graph subcommands to the parsescore app."""

    @app.command("graph")
    def graph_command(
        graph: Annotated[Path, typer.Option("--graph", help="Extracted graph.json.")],
        truth: Annotated[
            Path,
            typer.Option(
                "--truth",
                help="Ground truth: an instance of --template (JSON), or a graph.json without it.",
            ),
        ],
        template: Annotated[
            str | None,
            typer.Option(
                "--template", help="Root template: pkg.module.Class or path/to/file.py:Class."
            ),
        ] = None,
        source: Annotated[
            Path | None,
            typer.Option(
                "--source",
                help="Source text the model was served (enables verbatim ratio and "
                "synthetic-id detection).",
            ),
        ] = None,
        structural_align: Annotated[
            str,
            typer.Option(
                "--structural-align",
                help="auto: align classes whose truth ids are absent from --source; on: all "
                "classes; off: none.",
            ),
        ] = "auto",
        id_fields: Annotated[
            list[str] | None,
            typer.Option(
                "--id-fields",
                help="Without --template: identity fields, Class=field1,field2 (repeatable).",
            ),
        ] = None,
        root_class: Annotated[
            str | None,
            typer.Option("--root-class", help="Without --template: the root class name."),
        ] = None,
        out: Annotated[Path | None, typer.Option("--out", help="Write eval.json here.")] = None,
        result_path: ResultOption = None,
    ) -> None:
        """Score an extracted graph.json against ground truth (docling-graph script 16)."""
        from parsescore.graph.api import match_files
        from parsescore.graph.evaluate import build_report
        from parsescore.graph.io import parse_id_fields
        from parsescore.graph.summary import print_eval_summary
        from parsescore.graph.unmatched import unmatched_details

        if structural_align not in ("auto", "on", "off"):
            raise InputError(
                f"--structural-align must be auto, on or off, got {structural_align!r}"
            )
        if template is not None and (id_fields or root_class):
            raise InputError("--id-fields/--root-class only apply without --template")
        matching = match_files(
            graph,
            truth,
            template,
            source=source,
            structural_align=structural_align,  # type: ignore[arg-type]
            id_fields=parse_id_fields(id_fields or []) if template is None else None,
            root_class=root_class,
        )
        report = build_report(matching, graph=str(graph), truth=str(truth), template=template)
        console = Console()
        print_eval_summary(report, console)
        if out is not None:
            write_json(out, report)
            console.print(f"Saved JSON report to {out}", highlight=False)
        if result_path is not None:
            # eval.json records graph/truth/template, the alignment mode and every dataset fact
            options: dict[str, object] = {}
            if template is None:
                options = {"id_fields": list(id_fields or []), "root_class": root_class}
            details = unmatched_details(matching)
            envelope = command_result(
                report,
                result_path,
                inputs={"source": None if source is None else str(source)},
                options=options,
                details=details,
            )
            write_result(result_path, envelope)
            console.print(f"Saved result envelope to {result_path}", highlight=False)

    @app.command("graph-aggregate")
    def graph_aggregate_command(
        root: Annotated[
            Path,
            typer.Option("--root", help="Benchmark tree <doc>/<contract>/<format>[/rep<N>]/<run>."),
        ] = Path("outputs/benchmarks"),
        csv: Annotated[
            Path | None,
            typer.Option("--csv", help="Per-run CSV (default <root>/_aggregate.csv)."),
        ] = None,
        quiet: Annotated[bool, typer.Option("--quiet", help="Skip printing the table.")] = False,
    ) -> None:
        """Aggregate eval.json files over a run matrix (docling-graph script 17)."""
        from parsescore.graph.aggregate import aggregate_tree, print_aggregate_summary

        console = Console()
        if console.is_terminal:
            with console.status(f"Aggregating runs under {root} ..."):
                result = aggregate_tree(root, csv_path=csv)
        else:
            result = aggregate_tree(root, csv_path=csv)
        if not quiet:
            print_aggregate_summary(result, console)
        console.print(
            f"Aggregated {len(result.records)} run(s) -> {result.json_path}", highlight=False
        )

    @app.command("graph-audit")
    def graph_audit_command(
        graph: Annotated[
            list[Path], typer.Option("--graph", help="Extracted graph.json (repeatable).")
        ],
        provenance: Annotated[
            Path | None,
            typer.Option("--provenance", help="provenance.json (default: beside graph.json)."),
        ] = None,
        template: Annotated[
            str | None,
            typer.Option(
                "--template", help="Root template: pkg.module.Class or path/to/file.py:Class."
            ),
        ] = None,
        source: Annotated[
            str | None,
            typer.Option(
                "--source",
                help="Source document path (its stem flags a synthetic root id); default: "
                "the provenance ledger's document.source.",
            ),
        ] = None,
        out: Annotated[
            Path | None, typer.Option("--out", help="Write the JSON report here.")
        ] = None,
        markdown: Annotated[
            Path | None, typer.Option("--markdown", help="Write the Markdown report here.")
        ] = None,
    ) -> None:
        """Template-level evaluation without ground truth (templategen/evaluate.py)."""
        from parsescore.graph.audit import audit_graph_file, print_audit_summary

        report = audit_graph_file(
            list(graph), provenance=provenance, template=template, source=source
        )
        console = Console()
        print_audit_summary(report, console)
        if out is not None:
            write_json(out, report.model_dump(mode="json"))
            console.print(f"Saved JSON report to {out}", highlight=False)
        if markdown is not None:
            from parsescore.files import write_text

            write_text(markdown, report.render_markdown())
            console.print(f"Saved Markdown report to {markdown}", highlight=False)
