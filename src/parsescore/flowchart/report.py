"""Flowchart results as JSON (every number and every match) and as terminal tables."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parsescore import __version__
from parsescore.flowchart.benchmark import ParsingBenchmark
from parsescore.flowchart.models import FlowScores, NodeMatches, TextListMatches
from parsescore.scores import Counts, micro_counts


def _edges(edges: set[tuple[int, int]]) -> list[list[int]]:
    return [list(e) for e in sorted(edges)]


def _flow(score: FlowScores) -> dict[str, Any]:
    return {
        "tp": score.tp,
        "fp": score.fp,
        "fn": score.fn,
        "precision": score.precision,
        "recall": score.recall,
        "f1": score.f1,
        "jaccard": score.jaccard,
        "missing_edges": _edges(score.missing_edges),
        "extra_edges": _edges(score.extra_edges),
    }


def _text_list(matches: TextListMatches) -> list[dict[str, Any]]:
    return [
        {
            "match_type": m.match_type,
            "true_index": m.true_index,
            "pred_index": m.pred_index,
            "true_text": m.true_text,
            "pred_text": m.pred_text,
            "cost": m.cost,
        }
        for m in matches.matches
    ]


def _node_records(nm: NodeMatches) -> list[dict[str, Any]]:
    records = []
    for m in nm.matches:
        record: dict[str, Any] = {
            "match_type": m.match_type,
            "true_node": m.true_node.node_number if m.true_node else None,
            "pred_node": m.pred_node.node_number if m.pred_node else None,
            "true_text": m.true_node.text if m.true_node else None,
            "pred_text": m.pred_node.text if m.pred_node else None,
            "node_text_cost": float(m.node_text_cost),
        }
        if m.label_matches is not None:
            record["label_cost"] = m.label_matches.total_cost
            record["label_matches"] = _text_list(m.label_matches)
        records.append(record)
    return records


def benchmark_result(
    bench: ParsingBenchmark, *, inputs: dict[str, Any], options: dict[str, Any]
) -> dict[str, Any]:
    """Everything the benchmark computed, JSON-ready and deterministic."""
    caps = bench.capabilities
    node_matches = bench.node_matches()
    additional = bench.additional_text_matches() if caps.additional_text_matches else None
    diagrams = []
    for k, nm in enumerate(node_matches):
        record: dict[str, Any] = {
            "stem": nm.parent_img_code,
            "option": nm.true_diagram_option_idx,
            "node_text_cost": nm.total_node_text_cost,
        }
        if caps.node_and_label_matches:
            record["label_cost"] = nm.total_label_error_cost
        if additional is not None:
            record["additional_text_cost"] = additional[k].total_cost
        if caps.flow_scores:
            record["flow"] = _flow(nm.flow_score)
        record["node_matches"] = _node_records(nm)
        if additional is not None:
            record["additional_text_matches"] = _text_list(additional[k])
        diagrams.append(record)

    totals: dict[str, Any] = {
        "diagrams": len(diagrams),
        "node_text_cost": bench.total_node_text_cost(),
    }
    if caps.node_and_label_matches:
        totals["label_cost"] = bench.total_label_cost()
    if caps.additional_text_matches:
        totals["additional_text_cost"] = bench.total_additional_text_cost()
    if caps.flow_scores and diagrams:
        totals["avg_flow_jaccard"] = bench.avg_flow_jaccard()
        micro = micro_counts(Counts(s.tp, s.fp, s.fn) for s in bench.all_flow_scores())
        totals["flow_micro"] = micro.as_dict()
    return {
        "kind": "flowchart",
        "version": __version__,
        "inputs": inputs,
        "options": options,
        "parts": sorted(bench.pred_structure.parts),
        "available_methods": list(caps.available_methods),
        "totals": totals,
        "missing_predictions": bench.missing_pred_diagrams,
        "diagrams": diagrams,
    }


def _fmt(value: float) -> str:
    return f"{value:g}" if float(value).is_integer() else f"{value:.4f}"


def print_summary(result: dict[str, Any], console: Console | None = None) -> None:
    """Per-diagram table and totals, as the CLI prints them."""
    console = console or Console()
    has = {key: key in result["totals"] for key in ("label_cost", "additional_text_cost")}
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
    if has_flow:
        for name in ("tp/fp/fn", "P", "R", "F1", "Jaccard"):
            table.add_column(name, justify="right", no_wrap=True)
    for d in result["diagrams"]:
        row = [escape(d["stem"]), str(d["option"]), _fmt(d["node_text_cost"])]
        if has["label_cost"]:
            row.append(_fmt(d["label_cost"]))
        if has["additional_text_cost"]:
            row.append(_fmt(d["additional_text_cost"]))
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
    if result["missing_predictions"]:
        console.print(
            f"Not scored (no prediction): {', '.join(result['missing_predictions'])}",
            highlight=False,
        )
    console.print(
        "text/labels/extra: edit costs of node text, labels, additional texts (lower is "
        "better); opt: chosen ground-truth option; flow P/R/F1 total is micro, Jaccard total "
        "the unweighted mean (avg_flow_jaccard).",
        style="dim",
        highlight=False,
    )
