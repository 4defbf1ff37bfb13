"""What ``parsescore graph`` does with its checked flags (the command itself is built by the
core from :class:`~parsescore.graph.options.GraphOptions`), and the kind's other commands,
``graph-aggregate`` and ``graph-audit``."""

from __future__ import annotations

import gc
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from parsescore.cli.common import announce, console, wide_console
from parsescore.core.options import declared
from parsescore.graph.options import GraphOptions

__all__ = ["register", "run"]

if TYPE_CHECKING:
    TemplateOption = str | None
else:  # the --template flag as GraphOptions declares it (the same option in graph-audit)
    TemplateOption = (
        next(o for o in declared(GraphOptions) if o.name == "template").cli_parameter().annotation
    )


def run(values: Mapping[str, Any]) -> None:
    """``parsescore graph``: score (with the core's finish: ``--attributes``, ``--by``), print the
    summary on a wide console (a dataset's table of documents keeps one line per row when
    piped), write ``--out``/``--result``/``--csv``. The unmatched nodes and edges are listed
    only for ``--result`` (the envelope is the one output that holds them)."""
    from parsescore.cli.common import show_and_write
    from parsescore.core.api import finish
    from parsescore.graph.result import evaluate

    options: GraphOptions = values["options"]
    listed = values.get("result") is not None
    scored = finish(evaluate(values["truth"], values["pred"], options, unmatched=listed), options)
    show_and_write(scored, values, wide_console())
    if _nodes(scored.computed) >= LEAVE_TO_EXIT_NODES:
        leave_to_exit(scored)


LEAVE_TO_EXIT_NODES = 5_000
"""Both graphs' nodes from which a document's evaluation is left to the exit (a smaller one is
freed in milliseconds, and a process running the command in-process is then left as it was)."""


def _nodes(computed: Any) -> int:
    """The nodes of both graphs of one document's matching (0 for anything else)."""
    from parsescore.graph.evaluate import GraphMatching

    if not isinstance(computed, GraphMatching):
        return 0
    return len(computed.truth.nodes) + len(computed.extracted.nodes)


def leave_to_exit(*objects: Any) -> None:
    """Leave ``objects`` (a finished command's evaluation, its outputs written and closed) to
    be reclaimed by the operating system when the process ends, not freed one by one.

    A 15k-node evaluation is a few hundred thousand dicts, lists and strings (its graphs, its
    indexes, the report): freeing them object by object when the command returns, then
    scanning what is left in the interpreter's final collections, cost about a sixth of the
    command's CPU. Here a reference cycle holds them, and the cyclic collector is told to
    leave everything alive now alone (``gc.freeze``), so nothing frees them before the
    process ends. Exit itself is unchanged: ``atexit`` handlers run, standard streams are
    flushed, and what reference counting frees at teardown is freed as before (a file
    object then closes and flushes). Skipped are the deallocation of these plain data
    objects (dicts, lists, strings, numbers, dataclasses: none has a finaliser) and the final
    collections' scan of what is frozen; so a reference cycle of objects alive now that only
    becomes garbage during teardown is not collected either (its finalisers do not run, as
    for any object still alive when the interpreter ends). In a long-lived process (a test
    calling the command in-process) the holder is collected after the next ``gc.unfreeze``
    (as :func:`parsescore.core.files.gc_paused` does), like any garbage.
    """
    holder: list[Any] = [*objects]
    holder.append(holder)
    gc.freeze()


def register(app: typer.Typer) -> None:
    """Add the kind's other commands (``graph-aggregate``, ``graph-audit``) to the app."""

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
        template: TemplateOption = None,
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
        if out is not None:  # files first: in place even when the reader goes away (| head)
            write_json(out, report.model_dump(mode="json"))
        if markdown is not None:
            write_text(markdown, report.render_markdown())
        out_console = console()
        print_audit_summary(report, out_console)
        for path in (out, markdown):
            if path is not None:
                announce(out_console, path)
