"""``parsescore demo`` section for sequence diagrams: six real diagrams, two derived "models".

The data (``parsescore/data/sequence``) are real PlantUML diagrams of the MicroWaveDeviceInventory
project (Apache-2.0) and two sets of predictions made from them by documented hand edits (see
the data README). The demo scores both models and writes the JSON, Table 1/2, the Figure 6/7
plot and the per-file differences.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from parsescore.core.demo import write_demo_results
from parsescore.core.kinds import DemoOutput
from parsescore.sequence.cli import run_models
from parsescore.sequence.options import SequenceOptions
from parsescore.sequence.report import table1_markdown, table2_markdown

__all__ = ["DEMO_DATA", "run_demo"]

DEMO_DATA = Path(__file__).resolve().parent.parent / "data" / "sequence"


def run_demo(out_dir: Path) -> DemoOutput:
    """Score the bundled demo models into ``out_dir``; return the report index section."""
    out_dir = Path(out_dir)
    results = run_models(
        DEMO_DATA / "truth",
        [DEMO_DATA / "model_a", DEMO_DATA / "model_b"],
        SequenceOptions(report=out_dir, quiet=True),
    )
    models = [r.computed for r in results]
    names = [r.name for r in results]
    write_demo_results(
        out_dir, results, native=dict(zip(names, (r.native for r in results), strict=True))
    )
    links = ", ".join(
        f"[{name}]({out_dir.name}/{name})"
        for name in (
            "scores.json",
            "result.model_a.json",
            "result.model_b.json",
            "table2.md",
            "table1.md",
            "differences.md",
            "errors_by_lines.png",
            "errors_by_lines.svg",
        )
    )
    section = (
        "## Sequence\n\n"
        "Six real PlantUML sequence diagrams (openBackhaul/MicroWaveDeviceInventory, "
        "Apache-2.0) scored against two sets of hand-edited predictions (`model_a`, "
        "`model_b`; the edits are listed in `parsescore/data/sequence/README.md`), with the "
        "metrics of the image-to-UML paper.\n\n"
        f"Files: {links}.\n\n"
        "Table 2 (rates in % of the ground-truth counts):\n\n"
        f"{table2_markdown(models)}\n"
        "Table 1 (ground-truth files by line count):\n\n"
        f"{table1_markdown(models[0])}\n"
        f"![error % by line count]({out_dir.name}/errors_by_lines.png)\n"
    )
    return DemoOutput(section, [replace(r, name=f"sequence:{r.name}") for r in results])
