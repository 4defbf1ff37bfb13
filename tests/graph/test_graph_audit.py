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


MULTI_SOURCES = {
    "graph.json": "scans/riverside_catalogue.pdf",
    "second/graph.json": "uploads/library_v2.pdf",
}


@pytest.mark.parametrize("how", ["source_map.json", "source_map.csv", "per-graph --source"])
def test_audit_sources_per_graph_equal_reference(how: str, template_path: Path) -> None:
    """Each document named as the reference's source list names it (reference-produced report)."""
    folder = template_path / "audit"
    expected = json.loads((folder / "expected_multi_report.json").read_text("utf-8"))
    graphs: list[str | Path] = [folder / g for g in MULTI_SOURCES]
    if how.startswith("source_map"):
        report = audit_graph_file(
            graphs, template="library_template.Library", source_map=folder / how
        )
    else:
        report = audit_graph_file(
            graphs, template="library_template.Library", source=list(MULTI_SOURCES.values())
        )
    assert without_rulebook(report.model_dump(mode="json")) == without_rulebook(expected)
    # without a mapping both graphs get their ledger's document: not the reference's sources
    plain = audit_graph_file(graphs, template="library_template.Library")
    assert [d.source for d in plain.per_document] == ["docs/riverside_catalogue.pdf"] * 2


def test_audit_cli_source_map(template_path: Path, tmp_path: Path, cli: Cli) -> None:
    folder = template_path / "audit"
    out = tmp_path / "audit.json"
    result = cli(
        "graph-audit", "--graph", folder / "graph.json",
        "--graph", folder / "second" / "graph.json", "--template", "library_template.Library",
        "--source-map", folder / "source_map.csv", "--out", out,
    )  # fmt: skip
    assert result.code == 0, result.err
    expected = json.loads((folder / "expected_multi_report.json").read_text("utf-8"))
    assert without_rulebook(json.loads(out.read_text("utf-8"))) == without_rulebook(expected)


def test_audit_source_map_errors(template_path: Path, tmp_path: Path, cli: Cli) -> None:
    folder = template_path / "audit"
    graph = str(folder / "graph.json")
    partial = tmp_path / "map.json"
    partial.write_text(json.dumps({"elsewhere/graph.json": "x.pdf"}), encoding="utf-8")
    result = cli("graph-audit", "--graph", graph, "--source-map", partial)
    assert result.code == 2
    assert result.err.strip() == f"error: {partial}: graph {graph!r} has no entry"
    bad_csv = tmp_path / "map.csv"
    bad_csv.write_text("graph,source\na,b,c\n", encoding="utf-8")
    result = cli("graph-audit", "--graph", graph, "--source-map", bad_csv)
    assert result.code == 2
    assert (
        result.err.strip() == f"error: {bad_csv} (row 1): expected 2 columns (graph,source), got 3"
    )
    not_object = tmp_path / "list.json"
    not_object.write_text("[1]", encoding="utf-8")
    result = cli("graph-audit", "--graph", graph, "--source-map", not_object)
    assert (
        result.code == 2
        and "expected a JSON object {graph path: source document path}" in result.err
    )
    result = cli("graph-audit", "--graph", graph, "--graph", graph,
                 "--source", "a", "--source", "b", "--source", "c")  # fmt: skip
    assert result.code == 2
    assert "one --source for every graph or one per --graph (2), got 3" in result.err
