"""``parsescore graph``, ``graph-aggregate`` and ``graph-audit`` subcommands."""

from __future__ import annotations

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
    announce,
    console,
    wide_console,
    write_outputs,
)

__all__ = ["register"]


#: What --template is, and that importing it runs its code.
TEMPLATE_HELP = (
    "Root template: pkg.module.Class or path/to/file.py:Class. The module is imported, so its "
    "Python code runs with your rights: use only templates you trust."
)


def register(app: typer.Typer) -> None:
    """Add the knowledge-graph subcommands to the parsescore app."""

    @app.command("graph")
    def graph_command(
        graph: Annotated[
            Path,
            typer.Option(
                "--graph",
                "--pred",
                help="Extracted graph.json (the prediction), or a folder of <id>.json answers.",
            ),
        ],
        truth: Annotated[
            Path,
            typer.Option(
                "--truth",
                help="Ground truth: an instance of --template (JSON), or a graph.json without "
                "it; or a folder of <id>.json truths (a dataset, with --graph a folder).",
            ),
        ],
        template: Annotated[
            str | None,
            typer.Option("--template", help=TEMPLATE_HELP),
        ] = None,
        source: Annotated[
            Path | None,
            typer.Option(
                "--source",
                help="Source text the model was served (enables verbatim ratio and "
                "synthetic-id detection); with folders, a folder of <id>.<suffix> sources.",
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
        strict: Annotated[
            bool,
            typer.Option(
                "--strict",
                help="Stop (exit 2) at the first answer that is unreadable or that script 16 "
                "scores only with a warning (edges to missing nodes, no nodes, nodes without "
                "id), instead of scoring it (as an empty graph, or with the warning).",
            ),
        ] = False,
        enum_ids: Annotated[
            str,
            typer.Option(
                "--enum-ids",
                help="reference: an Enum in an identity is compared as str() (the reference; "
                "never equals the extracted value); value: by its value.",
            ),
        ] = "reference",
        normalise_source_accents: Annotated[
            bool,
            typer.Option(
                "--normalise-source-accents",
                help="Drop the source's accents before looking truth ids up in it (ids are "
                "accent-free; the reference keeps the source's accents).",
            ),
        ] = False,
        allow_missing: AllowMissingOption = False,
        out: OutOption = None,
        result: ResultOption = None,
        csv: CsvOption = None,
        jobs: JobsOption = 1,
        dask_scheduler: DaskSchedulerOption = None,
        cache: CacheOption = None,
        quiet: QuietOption = False,
    ) -> None:
        """Score an extracted graph.json against ground truth (docling-graph script 16), or
        a folder of them against a folder of truths; --out writes eval.json (with folders:
        one per document and their micro)."""
        from parsescore.core.api import evaluate
        from parsescore.graph.summary import summarise

        scored = evaluate(
            "graph",
            truth,
            graph,
            template=template,
            source=source,
            structural_align=structural_align,
            id_fields=list(id_fields or []),
            root_class=root_class,
            strict=strict,
            enum_ids=enum_ids,
            normalise_source_accents=normalise_source_accents,
            allow_missing=allow_missing,
            jobs=jobs,
            dask_scheduler=dask_scheduler,
            cache=cache,
            quiet=quiet,
        )
        out_console = wide_console()
        summarise(scored, out_console)
        write_outputs([scored], out_console, out=out, result=result, csv=csv)

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

        out_console = console()
        if out_console.is_terminal:
            with out_console.status(f"Aggregating runs under {root} ..."):
                aggregated = aggregate_tree(root, csv_path=csv)
        else:
            aggregated = aggregate_tree(root, csv_path=csv)
        if not quiet:
            print_aggregate_summary(aggregated, out_console)
        out_console.print(f"Aggregated {len(aggregated.records)} run(s)", highlight=False)
        for path in (aggregated.json_path, aggregated.report_path, aggregated.csv_path):
            announce(out_console, path)

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
            typer.Option("--template", help=TEMPLATE_HELP),
        ] = None,
        source: Annotated[
            list[str] | None,
            typer.Option(
                "--source",
                help="Source document path (its stem flags a synthetic root id): once for "
                "every graph, or once per --graph in the same order; default: the "
                "provenance ledger's document.source.",
            ),
        ] = None,
        source_map: Annotated[
            Path | None,
            typer.Option(
                "--source-map",
                help="JSON {graph path: document path} or CSV graph,source (graph paths "
                "relative to this file): each graph's source document.",
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
        from parsescore.core.files import write_json, write_text
        from parsescore.graph.audit import audit_graph_file, print_audit_summary

        report = audit_graph_file(
            list(graph),
            provenance=provenance,
            template=template,
            source=list(source or []),
            source_map=source_map,
        )
        out_console = console()
        print_audit_summary(report, out_console)
        if out is not None:
            write_json(out, report.model_dump(mode="json"))
            announce(out_console, out)
        if markdown is not None:
            write_text(markdown, report.render_markdown())
            announce(out_console, markdown)
