"""Flowchart part of ``parsescore demo``: the seed's example and four CONSORT diagrams."""

from __future__ import annotations

from dataclasses import replace
from importlib.resources import files
from pathlib import Path

from parsescore.cli.common import console as command_console
from parsescore.core.api import evaluate
from parsescore.core.demo import write_demo_results
from parsescore.core.kinds import DemoOutput
from parsescore.flowchart.summary import summarise

__all__ = ["run_demo"]


def run_demo(out_dir: Path) -> DemoOutput:
    """Score the bundled flowcharts, write ``scores.json`` and ``result.json``
    (:func:`~parsescore.core.demo.write_demo_results`), return the report section."""
    data = Path(str(files("parsescore") / "data" / "flowchart"))
    result = evaluate("flowchart", data / "ground-truth", data / "predictions", quiet=True)
    summarise(result, command_console())
    write_demo_results(out_dir, [replace(result, name="flowchart")])
    doc = result.native
    lines = [
        "## Flowcharts",
        "",
        "Flowde-compatible parsing benchmark on the seed's example and four CONSORT diagrams "
        "(predictions derived with typical parser errors). Full result: "
        "`flowchart/scores.json` (envelope: `flowchart/result.json`).",
        "",
        "| flowchart | option | node text | labels | additional | flow tp/fp/fn | Jaccard |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for d in doc["diagrams"]:
        f = d["flow"]
        lines.append(
            f"| {d['stem']} | {d['option']} | {d['node_text_cost']:g} | {d['label_cost']:g} | "
            f"{d['additional_text_cost']:g} | {f['tp']}/{f['fp']}/{f['fn']} | {f['jaccard']:.3f} |"
        )
    t = doc["totals"]
    lines += [
        "",
        f"Totals: node text {t['node_text_cost']:g}, labels {t['label_cost']:g}, additional "
        f"texts {t['additional_text_cost']:g}; mean flow Jaccard {t['avg_flow_jaccard']:.4f}.",
        "",
    ]
    return DemoOutput("\n".join(lines), [replace(result, name="flowchart")])
