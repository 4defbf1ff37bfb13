"""``parsescore demo`` section for tables: the 20 PubTabNet sample pairs, scored."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from parsescore.core.api import evaluate
from parsescore.core.demo import write_demo_results
from parsescore.core.files import write_text
from parsescore.core.kinds import DemoOutput
from parsescore.core.markdown import markdown_text
from parsescore.table.metrics import GRITS, TEDS, TEDS_S

__all__ = ["SAMPLES_DIR", "run_demo"]

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "data" / "table" / "pubtabnet_samples"


def run_demo(out_dir: Path) -> DemoOutput:
    """Score the bundled PubTabNet samples; write ``scores.json``, ``result.json`` (the
    envelope, with the cells that differ) and ``tables.md``; return the report index's
    section."""
    out_dir = Path(out_dir)
    result = evaluate(
        "table", SAMPLES_DIR / "sample_gt.json", SAMPLES_DIR / "sample_pred.json", quiet=True
    )
    # paths relative to the bundled data folder, so the output does not depend on the install
    result = replace(result, inputs={"truth": "sample_gt.json", "pred": "sample_pred.json"})
    doc = result.native
    write_demo_results(out_dir, [replace(result, name="table")])
    truth = result.items
    metrics = doc["metrics"]
    shown = [m.name for m in (TEDS, TEDS_S, *GRITS) if m.headline and m.name in metrics]
    header = "| table | " + " | ".join(shown) + " |\n|---|" + "---:|" * len(shown) + "\n"
    rows = "".join(
        f"| {markdown_text(name)} | "
        + " | ".join(f"{metrics[m]['scores'][name]:.4f}" for m in shown)
        + " |\n"
        for name in truth
    )
    means = "| **mean** | " + " | ".join(f"**{metrics[m]['mean']:.4f}**" for m in shown) + " |\n"
    write_text(out_dir / "tables.md", "# PubTabNet sample pairs\n\n" + header + rows + means)
    section = (
        "## Table\n\n"
        f"{len(truth)} PubTabNet sample pairs (IBM PubTabNet `src/`, Apache-2.0) scored with "
        "TEDS / TEDS-S (the scores of `table_recognition_metric` 0.0.6) and GriTS.\n\n"
        "| metric | mean |\n|---|---:|\n"
        + "".join(
            f"| {name} | {entry['mean']:.4f} |\n"
            for name, entry in metrics.items()
            if not name.endswith(("precision", "recall"))
        )
        + "\nPer-table scores: [table/tables.md](table/tables.md); "
        "JSON: [table/scores.json](table/scores.json), envelope "
        "[table/result.json](table/result.json).\n"
    )
    return DemoOutput(section, [replace(result, name="table")])
