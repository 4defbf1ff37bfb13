"""Template-level evaluation: equal to docling-graph's evaluate_template on the audit fixture."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import Cli
from parsescore.graph.audit import AUDIT_KEY_RULEBOOK, audit_graph, audit_graph_file
from parsescore.graph.template import GraphData


def without_rulebook(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_rulebook(v) for k, v in value.items() if k != "rulebook"}
    if isinstance(value, list):
        return [without_rulebook(v) for v in value]
    return value


def comparable_lines(markdown: str) -> list[str]:
    """Markdown lines except the rulebook wording (ours is our own text) and prose notes."""
    keep = []
    for line in markdown.splitlines():
        if line.startswith("| `"):
            line = line.rsplit("|", 2)[0]  # drop the clause column
        elif line.startswith(("- Root id", "- The root id", "- In ")):
            continue
        elif line.startswith("- Grounding:"):
            line = line.split(" checked values")[0]
        keep.append(line)
    return keep


def test_audit_matches_reference(template_path: Path) -> None:
    folder = template_path / "audit"
    report = audit_graph_file(folder / "graph.json", template="library_template.Library")
    expected = json.loads((folder / "expected_report.json").read_text("utf-8"))
    assert without_rulebook(report.model_dump(mode="json")) == without_rulebook(expected)
    expected_md = (folder / "expected_report.md").read_text("utf-8")
    assert comparable_lines(report.render_markdown()) == comparable_lines(expected_md)
    finding = report.per_document[0].audit_findings[0]
    assert finding.rulebook == AUDIT_KEY_RULEBOOK[finding.key]
    assert finding.rulebook.startswith("field-definitions.md#identity-fields")


def test_audit_without_template_uses_graph_keys() -> None:
    graph = GraphData(
        nodes=[
            {"id": "r", "__class__": "Root", "name": "doc", "title": "A title", "items": None},
            {"id": "i1", "__class__": "Item", "code": "X1", "note": ""},
            {"id": "i2", "__class__": "Item", "code": "X2", "note": "seen here"},
        ],
        edges=[{"source": "r", "target": "i1", "label": "items"}],
        graph={"template_name": "Root", "id_fields_map": {"Root": ["name"]}},
    )
    doc = audit_graph(
        graph, source="doc.pdf", chunk_texts=["A  title\nX1 seen here"], source_stem="doc"
    )
    rates = {r.model: (r.declared_fields, r.fill_rate) for r in doc.fill_rates}
    assert rates == {"Root": (["name", "title"], 1.0), "Item": (["code", "note"], 0.75)}
    assert doc.grounding is not None
    assert doc.grounding.root_id_synthetic  # name == file stem: excluded, flagged
    assert (doc.grounding.checked, doc.grounding.grounded) == (4, 3)
    assert doc.grounding.ungrounded_samples == ["Item.code='X2'"]
    assert audit_graph(graph, source="doc.pdf").grounding is None  # no chunks: nothing checkable


def test_audit_cli_writes_json_and_markdown(template_path: Path, tmp_path: Path, cli: Cli) -> None:
    folder = template_path / "audit"
    out, md = tmp_path / "audit.json", tmp_path / "audit.md"
    result = cli(
        "graph-audit", "--graph", folder / "graph.json",
        "--provenance", folder / "provenance.json",
        "--template", "library_template.Library", "--out", out, "--markdown", md,
    )  # fmt: skip
    assert result.code == 0, result.err
    assert json.loads(out.read_text("utf-8"))["summary"]["grounding_precision"] == 0.3
    assert md.read_text("utf-8").startswith("# Template evaluation — `library_template.Library`")
    assert "Rulebook violations" in result.out


def test_bad_provenance(tmp_path: Path) -> None:
    graph = tmp_path / "graph.json"
    graph.write_text(json.dumps({"nodes": [{"id": "a"}]}), encoding="utf-8")
    (tmp_path / "provenance.json").write_text(json.dumps({"chunks": [1]}), encoding="utf-8")
    with pytest.raises(ValueError, match=r"provenance\.json: 'chunks' must be an object"):
        audit_graph_file(graph)


def test_audit_pools_several_documents(template_path: Path) -> None:
    folder = template_path / "audit"
    expected = json.loads((folder / "expected_report.json").read_text("utf-8"))["summary"]
    report = audit_graph_file([folder / "graph.json"] * 2, template="library_template.Library")
    summary = report.summary
    assert (summary.documents, summary.total_nodes) == (2, 2 * expected["total_nodes"])
    assert summary.grounding_precision == expected["grounding_precision"]
    assert summary.root_id_synthetic_documents == 2
    assert summary.audit_totals == {k: 2 * v for k, v in expected["audit_totals"].items()}
