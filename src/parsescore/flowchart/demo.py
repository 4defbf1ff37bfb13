"""Flowchart part of ``parsescore demo``: the seed's example and four CONSORT diagrams."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from rich.console import Console

from parsescore.files import write_json
from parsescore.flowchart.cli import run_flowchart
from parsescore.flowchart.report import print_summary


def run_demo(out_dir: Path) -> str:
    """Score the bundled flowcharts, write ``result.json``, return the report section."""
    data = Path(str(files("parsescore") / "data" / "flowchart"))
    result = run_flowchart(data / "ground-truth", [data / "predictions"], show_progress=False)
    print_summary(result, Console())
    write_json(out_dir / "result.json", result)
    lines = [
        "## Flowcharts",
        "",
        "Flowde-compatible parsing benchmark on the seed's example and four CONSORT diagrams "
        "(predictions derived with typical parser errors). Full result: `flowchart/result.json`.",
        "",
        "| flowchart | option | node text | labels | additional | flow tp/fp/fn | Jaccard |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for d in result["diagrams"]:
        f = d["flow"]
        lines.append(
            f"| {d['stem']} | {d['option']} | {d['node_text_cost']:g} | {d['label_cost']:g} | "
            f"{d['additional_text_cost']:g} | {f['tp']}/{f['fp']}/{f['fn']} | {f['jaccard']:.3f} |"
        )
    t = result["totals"]
    lines += [
        "",
        f"Totals: node text {t['node_text_cost']:g}, labels {t['label_cost']:g}, additional "
        f"texts {t['additional_text_cost']:g}; mean flow Jaccard {t['avg_flow_jaccard']:.4f}.",
        "",
    ]
    return "\n".join(lines)
