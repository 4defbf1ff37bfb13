"""``parsescore demo`` section for knowledge graphs: the bundled library example, scored."""

from __future__ import annotations

from pathlib import Path

from parsescore.core.api import evaluate
from parsescore.core.demo import write_demo_results
from parsescore.core.files import write_json, write_text
from parsescore.core.kinds import DemoOutput
from parsescore.graph.audit import audit_graph_file
from parsescore.graph.evaluate import fanout_warnings
from parsescore.graph.result import to_result

__all__ = ["DEMO_DIR", "run_demo"]

DEMO_DIR = Path(__file__).resolve().parent.parent / "data" / "graph"


def _rung_row(name: str, section: dict[str, dict[str, float]]) -> str:
    cells = " | ".join(
        f"{section[r]['p']:.3f} / {section[r]['r']:.3f} / {section[r]['f1']:.3f}"
        if r in section
        else "—"
        for r in ("strict", "relaxed", "aligned")
    )
    return f"| {name} | {cells} |\n"


def run_demo(out_dir: Path) -> DemoOutput:
    """Evaluate the bundled example (``scores.json``: docling-graph's eval.json;
    ``result.json``: the envelope; audit.json, audit.md) and return the report index's
    section."""
    out_dir = Path(out_dir)
    template = f"{DEMO_DIR / 'library_template.py'}:Library"
    scored = evaluate(
        "graph",
        DEMO_DIR / "truth.json",
        DEMO_DIR / "graph.json",
        template=template,
        source=DEMO_DIR / "source.md",
    )
    report = dict(scored.native)
    report["graph"], report["truth"], report["template"] = (
        "graph.json",
        "truth.json",
        "library_template.py:Library",
    )  # paths relative to the bundled data folder, so the output does not depend on the install
    result = to_result(report, name="graph", source="source.md", options={}, details=scored.details)
    write_demo_results(out_dir, [result], native=report)  # the envelope with unmatched nodes
    audit = audit_graph_file(
        DEMO_DIR / "graph.json",
        provenance=DEMO_DIR / "provenance.json",
        template=template,
        source="riverside_catalogue.pdf",
    )
    audit.template = "library_template.py:Library"
    write_json(out_dir / "audit.json", audit.model_dump(mode="json"))
    write_text(out_dir / "audit.md", audit.render_markdown())
    micro = report["micro"]
    integrity = report["integrity"]
    pairs = "".join(
        f"- {p['class']}: `{p['truth']}` ~ `{p['extracted']}`\n"
        for p in report["relaxed_alias_pairs"]
    )
    pairs = pairs or "- none\n"
    warnings = fanout_warnings(report["edge_fanout"])
    section = (
        "## Graph\n\n"
        "A small hand-made library knowledge graph (`src/parsescore/data/graph/`) scored "
        "against its ground truth with docling-graph 1.9.1's rules (script 16, structural "
        "alignment auto).\n\n"
        "| micro P / R / F1 | strict | relaxed | aligned |\n|---|---|---|---|\n"
        + _rung_row("nodes", micro["nodes"])
        + _rung_row("edges", micro["edges"])
        + f"\nRelaxed alias pairs:\n\n{pairs}\n"
        f"Integrity: {len(integrity['empty_identity_nodes'])} empty-identity node(s), "
        f"{len(integrity['orphan_nodes'])} orphan(s), {integrity['unkeyed_extracted_nodes']} "
        f"unkeyed extracted node(s); fan-out warnings: {len(warnings)}. Template-level audit: "
        f"grounding {audit.summary.grounding_precision:.0%}, mean fill rate "
        f"{audit.summary.mean_fill_rate:.0%}.\n\n"
        "Files: [graph/scores.json](graph/scores.json) (eval.json), "
        "[graph/result.json](graph/result.json), [graph/audit.md](graph/audit.md), "
        "[graph/audit.json](graph/audit.json).\n"
    )
    return DemoOutput(section, [result])
