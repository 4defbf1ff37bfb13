"""``parsescore demo`` section for tables: the 20 PubTabNet sample pairs, scored."""

from __future__ import annotations

from pathlib import Path

from parsescore.files import write_json, write_text
from parsescore.results import command_result, write_result
from parsescore.table.batch import evaluate_tables
from parsescore.table.celldiff import table_details
from parsescore.table.inputs import load_tables

__all__ = ["SAMPLES_DIR", "run_demo"]

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "data" / "table" / "pubtabnet_samples"


def run_demo(out_dir: Path) -> str:
    """Score the bundled PubTabNet samples; write ``results.json`` and ``tables.md``.

    Returns the Markdown section for the report index.
    """
    out_dir = Path(out_dir)
    truth = load_tables(SAMPLES_DIR / "sample_gt.json")
    pred = load_tables(SAMPLES_DIR / "sample_pred.json")
    result = evaluate_tables(truth, pred)
    doc = result.to_json()
    write_json(out_dir / "results.json", doc)
    envelope = out_dir / "envelope.json"  # with the cells that differ, for the report
    write_result(
        envelope,
        command_result(
            doc,
            envelope,
            inputs={"truth": "sample_gt.json", "pred": "sample_pred.json"},
            details=table_details(truth, pred),
        ),
    )
    metrics = doc["metrics"]
    header = "| table | TEDS | TEDS-S | GriTS-Top | GriTS-Con |\n|---|---:|---:|---:|---:|\n"
    rows = "".join(
        f"| {name} | {metrics['TEDS']['scores'][name]:.4f} | "
        f"{metrics['TEDS-S']['scores'][name]:.4f} | {metrics['GriTS-Top']['scores'][name]:.4f} | "
        f"{metrics['GriTS-Con']['scores'][name]:.4f} |\n"
        for name in truth
    )
    means = (
        f"| **mean** | **{metrics['TEDS']['mean']:.4f}** | **{metrics['TEDS-S']['mean']:.4f}** | "
        f"**{metrics['GriTS-Top']['mean']:.4f}** | **{metrics['GriTS-Con']['mean']:.4f}** |\n"
    )
    write_text(out_dir / "tables.md", "# PubTabNet sample pairs\n\n" + header + rows + means)
    return (
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
        "JSON: [table/results.json](table/results.json).\n"
    )
