"""The flowchart summary printed by ``parsescore flowchart`` (and ``run``)."""

from __future__ import annotations

from collections.abc import Mapping

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parsescore.core.aggregate import summed_counts
from parsescore.core.results import Result
from parsescore.shared.coverage import READABLE

__all__ = ["summarise"]


def _fmt(value: float) -> str:
    return f"{value:g}" if float(value).is_integer() else f"{value:.4f}"


def summarise(result: Result, console: Console) -> None:
    """Per-diagram table and totals, as ``parsescore flowchart`` prints them, then the answers
    line (how many were readable) and the warnings (:func:`parsescore.cli.common.print_answers`).

    Everything comes from the :class:`Result` (items, counts, details, totals, dataset), so a
    result loaded from its envelope or its ``--out`` document prints the same.
    """
    from parsescore.cli.common import print_answers

    totals = result.totals
    costs = [
        key for key in ("label_cost", "additional_text_cost", "edge_label_cost") if key in totals
    ]
    has_flow = "avg_flow_jaccard" in totals
    table = Table(
        title="Flowchart parsing benchmark",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        padding=(0, 1, 0, 0),
    )
    table.add_column("flowchart", overflow="fold", min_width=12)
    table.add_column("opt", justify="right")
    table.add_column("text", justify="right")
    for cost in costs:
        table.add_column(_COLUMNS[cost], justify="right")
    if has_flow:
        for name in ("tp/fp/fn", "P", "R", "F1", "Jaccard"):
            table.add_column(name, justify="right", no_wrap=True)
    unreadable = result.dataset.get("unreadable", {})
    for stem, values in result.items.items():
        shown = escape(stem)
        if values.get(READABLE.name) == 0.0:  # scored as an empty prediction
            shown += " [dim](unreadable)[/]" if stem in unreadable else " [dim](missing)[/]"
        row = [
            shown,
            str(result.details.get(stem, {}).get("option", "")),
            _fmt(values["node_text_cost"]),
        ]
        row += [_fmt(values[cost]) if cost in values else "–" for cost in costs]
        if has_flow:
            row += [_counts(result.counts.get(stem, {}))]
            row += [f"{values[f'flow_{score}']:.3f}" for score in _SCORES]
        table.add_row(*row)
    total_row = ["total", "", _fmt(totals["node_text_cost"])]
    total_row += [_fmt(totals[cost]) for cost in costs]
    if has_flow:
        summed = summed_counts(result.counts, _COUNTS, list(result.items))
        total_row += [_counts(dict(zip(_COUNTS, summed, strict=True)))]
        total_row += [f"{totals[f'flow_micro_{score}']:.3f}" for score in _SCORES[:3]]
        total_row += [f"{totals['avg_flow_jaccard']:.3f}"]
    table.add_section()
    table.add_row(*total_row, style="bold")
    console.print(table)
    missing = result.dataset.get("missing") or []
    if missing and "unreadable" not in result.dataset:  # an older document
        console.print(
            f"Not scored (no prediction): {', '.join(missing)}", highlight=False, markup=False
        )
    if "edge_label_cost" in totals:
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
    print_answers(result, console)


_COLUMNS = {"label_cost": "label", "additional_text_cost": "extra", "edge_label_cost": "edge"}
_SCORES = ("precision", "recall", "f1", "jaccard")
_COUNTS = ("tp", "fp", "fn")


def _counts(counts: Mapping[str, float]) -> str:
    return "/".join(f"{counts.get(name, 0):.0f}" for name in _COUNTS)
