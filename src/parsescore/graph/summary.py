"""Rich terminal summaries of a graph result (the reference prints plain text), printed from the
:class:`~parsescore.core.results.Result` alone: a loaded envelope or eval.json prints what the run
printed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parsescore.core.results import Result
from parsescore.graph.evaluate import fanout_warnings
from parsescore.graph.kind import RUNGS, SCORES, SECTIONS, is_documents

__all__ = ["summarise"]


def _rungs(result: Result) -> list[str]:
    """The rungs the result's totals report (eval.json's micro), in eval.json's order."""
    return [r for r in RUNGS if f"node_{r}_f1" in result.totals]


def _prf(values: Mapping[str, float], prefix: str, rung: str) -> str:
    """``P/R/F1`` of one rung from metrics (``node_strict_precision``, ...), ``—`` without."""
    names = [f"{prefix}_{rung}_{score}" for score in SCORES.values()]
    if not all(name in values for name in names):
        return "—"
    return "/".join(f"{values[name]:.2f}" for name in names)


SHOWN_PAIRS = 20
"""Alias and aligned pairs listed in the terminal; eval.json (``--out``) holds them all."""


def _more(console: Console, pairs: list[Any]) -> None:
    if len(pairs) > SHOWN_PAIRS:
        console.print(
            f"  … and {len(pairs) - SHOWN_PAIRS} more (all of them in --out's eval.json)",
            highlight=False,
        )


def _micro_table(title: str, result: Result, rungs: list[str]) -> Table:
    """P / R / F1 per rung (the totals) and the strict counts (``dataset["micro"]``), for nodes
    and edges."""
    table = Table(title=title, title_justify="left")
    table.add_column("P / R / F1")
    for rung in rungs:
        table.add_column(rung)
    table.add_column("tp / fp / fn (strict)", justify="right")
    micro = result.dataset["micro"]
    for section, prefix in SECTIONS:
        s = micro[section]["strict"]
        table.add_row(
            section,
            *(_prf(result.totals, prefix, r) for r in rungs),
            f"{s['tp']} / {s['fp']} / {s['fn']}",
        )
    return table


def print_eval_summary(result: Result, console: Console) -> None:
    """One document: micro scores, per-class and per-label tables, pairs, completeness,
    verbatim ratio, fan-out warnings, integrity."""
    rungs = _rungs(result)
    facts = result.dataset
    title = f"Graph evaluation — {escape(str(result.inputs['graph']))}"
    console.print(_micro_table(title, result, rungs))

    for title, prefix, column in (
        ("Nodes per class", "node", "class"),
        ("Edges per label", "edge", "label"),
    ):
        members = [item for item in result.items if item.startswith(f"{prefix}:")]
        if not members:
            continue
        table = Table(title=f"{title} (P / R / F1)", title_justify="left")
        table.add_column(column)
        for rung in rungs:
            table.add_column(rung)
        table.add_column("tp / fp / fn (strict)", justify="right")
        for item in members:
            values = result.items[item]
            table.add_row(
                escape(item[len(prefix) + 1 :]),
                *(_prf(values, prefix, r) for r in rungs),
                "{tp} / {fp} / {fn}".format(**result.details[item]["strict"]),
            )
        console.print(table)

    if facts["relaxed_alias_pairs"]:
        console.print("[bold]Alias pairs accepted by relaxed matching[/]")
        for pair in facts["relaxed_alias_pairs"][:SHOWN_PAIRS]:
            console.print(
                f"  {pair['class']}: {pair['truth']!r} ~ {pair['extracted']!r}",
                highlight=False,
                markup=False,
            )
        _more(console, facts["relaxed_alias_pairs"])
    alignment = facts["structural_alignment"]
    if alignment["synthetic_id_classes"]:
        console.print(
            "[bold]Synthetic-id classes[/] (truth ids absent from the source): "
            + escape(", ".join(alignment["synthetic_id_classes"])),
            highlight=False,
        )
    if alignment["pairs"]:
        console.print("[bold]Structurally aligned pairs[/]")
        for pair in alignment["pairs"][:SHOWN_PAIRS]:
            console.print(
                f"  {pair['class']}: {pair['truth']!r} ~ {pair['extracted']!r} "
                f"(score {pair['score']})",
                highlight=False,
                markup=False,
            )
        _more(console, alignment["pairs"])
    completeness = facts["attribute_completeness"]
    filled = sum(c["filled"] for f in completeness.values() for c in f.values())
    expected = sum(c["expected"] for f in completeness.values() for c in f.values())
    if expected:
        console.print(f"Attribute completeness (strict matches): {filled}/{expected}")
    if "verbatim_ratio" in result.totals:
        console.print(
            f"Verbatim ratio: {result.totals['verbatim_ratio']} (n={facts['verbatim_n']})"
        )
    for warning in fanout_warnings(facts["edge_fanout"]):
        console.print(
            f"[yellow]Fan-out warning[/] {escape(warning['label'])}: extracted top-source share "
            f"{warning['extracted_share']:.2f} ({warning['extracted_total']} edges) vs truth "
            f"{warning['truth_share']:.2f} — edges may be piled onto one parent",
            highlight=False,
        )
    integrity = facts["integrity"]
    console.print(
        f"Integrity: empty-identity={len(integrity['empty_identity_nodes'])}, "
        f"orphans={len(integrity['orphan_nodes'])}, unkeyed extracted/truth="
        f"{integrity['unkeyed_extracted_nodes']}/{integrity['unkeyed_truth_nodes']}",
        highlight=False,
    )


def print_dataset_summary(result: Result, console: Console) -> None:
    """A dataset's micro scores over documents, each document's F1 and how its answer read."""
    rungs = _rungs(result)
    facts = result.dataset
    title = f"Graph evaluation — {len(result.items)} documents, micro over documents"
    if isinstance(result.inputs.get("graph"), str):
        title += f" — {escape(result.inputs['graph'])}"
    console.print(_micro_table(title, result, rungs))

    table = Table(title="F1 per document", title_justify="left")
    table.add_column("document", overflow="fold")
    for section, _ in SECTIONS:
        for rung in rungs:
            table.add_column(f"{section} {rung}", justify="right")
    table.add_column("answer")
    unreadable, missing, fenced = facts["unreadable"], facts["missing"], facts["fenced"]
    for item, values in result.items.items():
        cells = [
            f"{values[name]:.2f}" if (name := f"{prefix}_{r}_f1") in values else "—"
            for _, prefix in SECTIONS
            for r in rungs
        ]
        answer = (
            "unreadable"
            if item in unreadable
            else "missing"
            if item in missing
            else f"fenced ({escape(fenced[item] or 'no info')})"
            if item in fenced
            else "read"
        )
        table.add_row(escape(item), *cells, answer)
    console.print(table)
    if "verbatim_ratio" in result.totals:
        console.print(
            f"Verbatim ratio (pooled): {result.totals['verbatim_ratio']} "
            f"({facts['verbatim_hits']}/{facts['verbatim_n']})",
            highlight=False,
        )


def summarise(result: Result, console: Console) -> None:
    """The summary of a graph result (one document's, or a dataset's), then the answers line
    and the warnings (:func:`print_answers`)."""
    from parsescore.cli.common import print_answers

    if is_documents(result.dataset):
        print_dataset_summary(result, console)
    else:
        print_eval_summary(result, console)
    print_answers(result, console)
