"""Rich terminal summaries of an eval.json report (the reference prints plain text)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parsescore.core.results import Result
from parsescore.graph.evaluate import fanout_warnings
from parsescore.graph.kind import RUNGS, is_documents

__all__ = ["print_dataset_summary", "print_eval_summary", "summarise"]


def _rungs(report: dict[str, Any]) -> list[str]:
    return [r for r in RUNGS if r in report["micro"]["nodes"]]


def _prf_cell(m: dict[str, Any] | None) -> str:
    if not m:
        return "—"
    return f"{m['p']:.2f}/{m['r']:.2f}/{m['f1']:.2f}"


SHOWN_PAIRS = 20
"""Alias and aligned pairs listed in the terminal; eval.json (``--out``) holds them all."""


def _more(console: Console, pairs: list[Any]) -> None:
    if len(pairs) > SHOWN_PAIRS:
        console.print(
            f"  … and {len(pairs) - SHOWN_PAIRS} more (all of them in --out's eval.json)",
            highlight=False,
        )


def _micro_table(title: str, micro: dict[str, Any], rungs: list[str]) -> Table:
    """P / R / F1 per rung and the strict counts, for nodes and edges."""
    table = Table(title=title, title_justify="left")
    table.add_column("P / R / F1")
    for rung in rungs:
        table.add_column(rung)
    table.add_column("tp / fp / fn (strict)", justify="right")
    for part in ("nodes", "edges"):
        section = micro[part]
        s = section["strict"]
        table.add_row(
            part, *(_prf_cell(section.get(r)) for r in rungs), f"{s['tp']} / {s['fp']} / {s['fn']}"
        )
    return table


def print_eval_summary(report: dict[str, Any], console: Console | None = None) -> None:
    """Micro scores, per-class and per-label tables, pairs, completeness, warnings, integrity."""
    console = console or Console()
    rungs = _rungs(report)
    console.print(_micro_table(f"Graph evaluation — {report['graph']}", report["micro"], rungs))

    for title, section in (
        ("Nodes per class", report["nodes"]),
        ("Edges per label", report["edges"]),
    ):
        if not section:
            continue
        table = Table(title=f"{title} (P / R / F1)", title_justify="left")
        table.add_column("class" if title.startswith("Nodes") else "label")
        for rung in rungs:
            table.add_column(rung)
        table.add_column("tp / fp / fn (strict)", justify="right")
        for name, metrics in section.items():
            s = metrics["strict"]
            table.add_row(
                escape(name),
                *(_prf_cell(metrics.get(r)) for r in rungs),
                f"{s['tp']} / {s['fp']} / {s['fn']}",
            )
        console.print(table)

    if report["relaxed_alias_pairs"]:
        console.print("[bold]Alias pairs accepted by relaxed matching[/]")
        for pair in report["relaxed_alias_pairs"][:SHOWN_PAIRS]:
            console.print(
                f"  {pair['class']}: {pair['truth']!r} ~ {pair['extracted']!r}", highlight=False
            )
        _more(console, report["relaxed_alias_pairs"])
    alignment = report["structural_alignment"]
    if alignment["synthetic_id_classes"]:
        console.print(
            "[bold]Synthetic-id classes[/] (truth ids absent from the source): "
            + ", ".join(alignment["synthetic_id_classes"]),
            highlight=False,
        )
    if alignment["pairs"]:
        console.print("[bold]Structurally aligned pairs[/]")
        for pair in alignment["pairs"][:SHOWN_PAIRS]:
            console.print(
                f"  {pair['class']}: {pair['truth']!r} ~ {pair['extracted']!r} "
                f"(score {pair['score']})",
                highlight=False,
            )
        _more(console, alignment["pairs"])
    filled = sum(c["filled"] for f in report["attribute_completeness"].values() for c in f.values())
    expected = sum(
        c["expected"] for f in report["attribute_completeness"].values() for c in f.values()
    )
    if expected:
        console.print(f"Attribute completeness (strict matches): {filled}/{expected}")
    if report["verbatim_ratio"] is not None:
        console.print(f"Verbatim ratio: {report['verbatim_ratio']} (n={report['verbatim_n']})")
    for warning in fanout_warnings(report["edge_fanout"]):
        console.print(
            f"[yellow]Fan-out warning[/] {warning['label']}: extracted top-source share "
            f"{warning['extracted_share']:.2f} ({warning['extracted_total']} edges) vs truth "
            f"{warning['truth_share']:.2f} — edges may be piled onto one parent",
            highlight=False,
        )
    integrity = report["integrity"]
    console.print(
        f"Integrity: empty-identity={len(integrity['empty_identity_nodes'])}, "
        f"orphans={len(integrity['orphan_nodes'])}, unkeyed extracted/truth="
        f"{integrity['unkeyed_extracted_nodes']}/{integrity['unkeyed_truth_nodes']}",
        highlight=False,
    )


def print_dataset_summary(result: Result, console: Console | None = None) -> None:
    """A dataset's micro scores over documents, each document's F1 and how its answer read."""
    console = console or Console()
    native = result.native
    rungs = _rungs(native)
    title = f"Graph evaluation — {len(result.items)} documents, micro over documents"
    if isinstance(native.get("graph"), str):
        title += f" — {native['graph']}"
    console.print(_micro_table(title, native["micro"], rungs))

    table = Table(title="F1 per document", title_justify="left")
    table.add_column("document", overflow="fold")
    for part in ("nodes", "edges"):
        for rung in rungs:
            table.add_column(f"{part} {rung}", justify="right")
    table.add_column("answer")
    unreadable, missing, fenced = native["unreadable"], native["missing"], native["fenced"]
    for item, report in native["documents"].items():
        cells = []
        for part in ("nodes", "edges"):
            section = report["micro"][part]
            cells += [f"{section[r]['f1']:.2f}" if r in section else "—" for r in rungs]
        answer = (
            "unreadable"
            if item in unreadable
            else "missing"
            if item in missing
            else f"fenced ({fenced[item] or 'no info'})"
            if item in fenced
            else "read"
        )
        table.add_row(escape(item), *cells, answer)
    console.print(table)
    if native["verbatim_ratio"] is not None:
        console.print(
            f"Verbatim ratio (pooled): {native['verbatim_ratio']} "
            f"({native['verbatim_hits']}/{native['verbatim_n']})",
            highlight=False,
        )


def summarise(result: Result, console: Console) -> None:
    """The summary of a result scored in this process (one document's eval.json, or a
    dataset's), then the answers line and the warnings (:func:`print_answers`)."""
    from parsescore.cli.common import print_answers

    if is_documents(result.dataset):
        print_dataset_summary(result, console)
    else:
        print_eval_summary(result.native, console)
    print_answers(result, console)
