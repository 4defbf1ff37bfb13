"""``parsescore demo``: evaluate the bundled example data of every kind, write a report folder.

Each kind package with a ``demo`` module contributes ``run_demo(out_dir) -> str``, which writes
its files under ``out_dir`` and returns a Markdown section for the report's index.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

from rich.console import Console

from parsescore.files import write_text

KINDS = ("flowchart", "table", "sequence", "graph")


def run_demo(out_dir: Path) -> Path:
    """Run every kind's demo into ``out_dir/<kind>/`` and write ``out_dir/index.md``."""
    console = Console()
    sections = ["# parsescore demo report\n"]
    for kind in KINDS:
        name = f"parsescore.{kind}.demo"
        if importlib.util.find_spec(f"parsescore.{kind}") is None:
            continue
        if importlib.util.find_spec(name) is None:
            continue
        console.rule(f"[bold]{kind}")
        sections.append(importlib.import_module(name).run_demo(out_dir / kind))
    results = [  # table and graph: the envelope, which holds the cells / nodes that differ
        path
        for path in (
            out_dir / "flowchart" / "result.json",
            out_dir / "table" / "envelope.json",
            out_dir / "sequence" / "results.json",
            out_dir / "graph" / "envelope.json",
        )
        if path.is_file()
    ]
    if results:
        from parsescore.report import write_report

        write_report(results, out_dir / "report", names=[p.parent.name for p in results])
        sections.append("## HTML report\n\n[report/index.html](report/index.html)\n")
    index = out_dir / "index.md"
    write_text(index, "\n".join(sections))
    start = out_dir / "report" / "index.html" if results else index
    console.print(f"\nReport written to [bold]{out_dir}[/] (open {start})")
    return index
