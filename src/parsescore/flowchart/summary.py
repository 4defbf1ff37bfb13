"""The flowchart summary printed by ``parsescore flowchart`` (and ``run``)."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parsescore.core.results import Result

__all__ = ["print_summary", "summarise"]


def _fmt(value: float) -> str:
    return f"{value:g}" if float(value).is_integer() else f"{value:.4f}"


def print_summary(result: dict[str, Any], console: Console | None = None) -> None:
    """Per-diagram table and totals, as the CLI prints them."""
    console = console or Console()
    has = {
        key: key in result["totals"]
        for key in ("label_cost", "additional_text_cost", "edge_label_cost")
    }
    has_flow = "avg_flow_jaccard" in result["totals"]
    table = Table(
        title="Flowchart parsing benchmark",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        padding=(0, 1, 0, 0),
    )
    table.add_column("flowchart", overflow="fold", min_width=12)
    table.add_column("opt", justify="right")
    table.add_column("text", justify="right")
    if has["label_cost"]:
        table.add_column("label", justify="right")
    if has["additional_text_cost"]:
        table.add_column("extra", justify="right")
    if has["edge_label_cost"]:
        table.add_column("edge", justify="right")
    if has_flow:
        for name in ("tp/fp/fn", "P", "R", "F1", "Jaccard"):
            table.add_column(name, justify="right", no_wrap=True)
    unreadable = result.get("unreadable", {})
    for d in result["diagrams"]:
        stem = escape(d["stem"])
        if d.get("readable") is False:  # scored as an empty prediction
            stem += " [dim](unreadable)[/]" if d["stem"] in unreadable else " [dim](missing)[/]"
        row = [stem, str(d["option"]), _fmt(d["node_text_cost"])]
        if has["label_cost"]:
            row.append(_fmt(d["label_cost"]))
        if has["additional_text_cost"]:
            row.append(_fmt(d["additional_text_cost"]))
        if has["edge_label_cost"]:
            row.append(_fmt(d["edge_label_cost"]) if "edge_label_cost" in d else "–")
        if has_flow:
            f = d["flow"]
            row += [
                f"{f['tp']}/{f['fp']}/{f['fn']}",
                f"{f['precision']:.3f}",
                f"{f['recall']:.3f}",
                f"{f['f1']:.3f}",
                f"{f['jaccard']:.3f}",
            ]
        table.add_row(*row)
    t = result["totals"]
    total_row = ["total", "", _fmt(t["node_text_cost"])]
    if has["label_cost"]:
        total_row.append(_fmt(t["label_cost"]))
    if has["additional_text_cost"]:
        total_row.append(_fmt(t["additional_text_cost"]))
    if has["edge_label_cost"]:
        total_row.append(_fmt(t["edge_label_cost"]))
    if has_flow:
        m = t["flow_micro"]
        total_row += [
            f"{m['tp']}/{m['fp']}/{m['fn']}",
            f"{m['precision']:.3f}",
            f"{m['recall']:.3f}",
            f"{m['f1']:.3f}",
            f"{t['avg_flow_jaccard']:.3f}",
        ]
    table.add_section()
    table.add_row(*total_row, style="bold")
    console.print(table)
    if result["missing_predictions"] and "unreadable" not in result:  # an older document
        console.print(
            f"Not scored (no prediction): {', '.join(result['missing_predictions'])}",
            highlight=False,
        )
    if has["edge_label_cost"]:
        console.print(
            "edge: edit cost of the labels on matched edges (Mermaid/DOT; not a Flowde number).",
            style="dim",
            highlight=False,
        )
    console.print(
        "text/labels/extra: edit costs of node text, labels, additional texts (lower is "
        "better); opt: chosen ground-truth option; flow P/R/F1 total is micro, Jaccard total "
        "the unweighted mean (avg_flow_jaccard).",
        style="dim",
        highlight=False,
    )


def summarise(result: Result, console: Console) -> None:
    """:func:`print_summary` of a result scored in this process, then the answers line (how
    many were readable) and the warnings (:func:`parsescore.cli.common.print_answers`)."""
    from parsescore.cli.common import print_answers

    print_summary(result.native, console)
    print_answers(result, console)
