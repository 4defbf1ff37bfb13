"""``parsescore demo`` section for document pages: three pages written for parsescore and two
"models" made from them (``parsescore/data/document/README.md``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from parsescore.core.demo import write_demo_results
from parsescore.core.kinds import DemoOutput

__all__ = ["DEMO_DATA", "run_demo"]

DEMO_DATA = Path(__file__).resolve().parent.parent / "data" / "document"


def run_demo(out_dir: Path) -> DemoOutput:
    """Score both demo models into ``out_dir``; return the report index section."""
    from parsescore.document.dataset import evaluate
    from parsescore.document.options import DocumentOptions

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    results = []
    rows = []
    for model in ("model_a", "model_b"):
        result = evaluate(DEMO_DATA / "truth.json", DEMO_DATA / model, DocumentOptions(quiet=True))
        results.append(replace(result, name=f"document:{model}"))
        t = result.totals
        rows.append(
            f"| {model} | {t.get('text_edit', float('nan')):.4f} | "
            f"{t.get('formula_edit', float('nan')):.4f} | "
            f"{t.get('table_teds', float('nan')):.4f} | "
            f"{t.get('reading_order_edit', float('nan')):.4f} |"
        )
    write_demo_results(out_dir, results)  # scores.<model>.json, result.<model>.json
    section = (
        "## Document\n\n"
        "Three pages written for parsescore in OmniDocBench's format, scored with OmniDocBench "
        "v1.5's end-to-end rules (profile `omnidocbench`): `model_a` writes tables as Markdown, "
        "`model_b` has noisy text and LaTeX tables (v1.5 scores a LaTeX table TEDS 0).\n\n"
        "| model | text edit ↓ | formula edit ↓ | table TEDS ↑ | reading order edit ↓ |\n"
        "|---|---|---|---|---|\n" + "\n".join(rows) + "\n\n"
        f"Files: [{out_dir.name}/scores.model_a.json]({out_dir.name}/scores.model_a.json) "
        "(OmniDocBench's metric_result.json), "
        f"[{out_dir.name}/result.model_a.json]({out_dir.name}/result.model_a.json).\n"
    )
    return DemoOutput(section, results)
