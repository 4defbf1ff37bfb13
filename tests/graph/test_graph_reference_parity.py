"""Our outputs equal docling-graph 1.9.1's on the fixtures it produced (see data/README.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import Cli
from parsescore.graph.aggregate import aggregate_tree
from parsescore.graph.api import evaluate_files
from parsescore.graph.canon import canonical_identity_value, loose_text, squash
from parsescore.graph.evaluate import detect_synthetic_classes, pair_score, relaxed_pairs
from parsescore.graph.template import collect_id_fields, load_template, truth_graph_from_file

TEMPLATES = {
    "library": "library_template.Library",
    "study": "study_template.Study",
    "catalog": "catalog_template.Catalog",
}
VARIANTS = [
    ("library", "auto_source", {"source": "source.md"}),
    ("library", "no_source", {}),
    ("library", "on", {"structural_align": "on"}),
    ("library", "off_source", {"structural_align": "off", "source": "source.md"}),
    ("study", "auto_source", {"source": "source.md"}),
    ("study", "on", {"structural_align": "on"}),
    ("study", "off", {"structural_align": "off"}),
    ("catalog", "auto_source", {"source": "source.md"}),
    ("catalog", "no_source", {}),
]


@pytest.mark.parametrize(("example", "variant", "options"), VARIANTS)
def test_eval_json_equals_reference(
    example: str,
    variant: str,
    options: dict[str, Any],
    template_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = template_path / example
    monkeypatch.chdir(folder)
    expected = json.loads((folder / "expected" / f"eval_{variant}.json").read_text("utf-8"))
    ours = evaluate_files(
        truth="truth.json", pred="graph.json", template=TEMPLATES[example], **options
    )
    assert ours == expected


def test_cli_writes_the_reference_eval_json(
    template_path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cli: Cli
) -> None:
    folder = template_path / "study"
    monkeypatch.chdir(folder)
    out = tmp_path / "eval.json"
    result = cli(
        "graph", "--graph", "graph.json", "--truth", "truth.json",
        "--template", "study_template.Study", "--source", "source.md", "--out", out,
    )  # fmt: skip
    assert result.code == 0, result.err
    expected = json.loads((folder / "expected" / "eval_auto_source.json").read_text("utf-8"))
    assert json.loads(out.read_text("utf-8")) == expected


def test_file_template_spec_gives_the_same_scores(
    template_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = template_path / "library"
    monkeypatch.chdir(folder)
    expected = json.loads((folder / "expected" / "eval_on.json").read_text("utf-8"))
    ours = evaluate_files(
        truth="truth.json",
        pred="graph.json",
        template="../library_template.py:Library",
        structural_align="on",
    )
    assert ours["template"] == "../library_template.py:Library"
    ours["template"] = expected["template"]
    assert ours == expected


def test_canonical_identity_matches_reference(reference_rules: dict[str, Any]) -> None:
    for field, value, expected in reference_rules["canon"]:
        assert canonical_identity_value(field, value) == expected, (field, value)


def test_loose_text_matches_reference(reference_rules: dict[str, Any]) -> None:
    for text, expected in reference_rules["loose"]:
        assert loose_text(text) == expected, text


def test_pair_score_matches_reference(reference_rules: dict[str, Any]) -> None:
    for truth_node, extracted_node, expected in reference_rules["pair_score"]:
        assert pair_score(truth_node, extracted_node) == expected, (truth_node, extracted_node)


def _keys(raw: list[list[Any]]) -> list[tuple[str, tuple[str, ...]]]:
    return [(cls, tuple(values)) for cls, values in raw]


def test_relaxed_pairs_match_reference(reference_rules: dict[str, Any]) -> None:
    for truth_keys, extracted_keys, expected in reference_rules["relaxed"]:
        ours = relaxed_pairs(_keys(truth_keys), _keys(extracted_keys))
        assert json.loads(json.dumps(ours)) == expected


def test_synthetic_detection_matches_reference(reference_rules: dict[str, Any]) -> None:
    for keys, source, expected in reference_rules["synthetic"]:
        assert sorted(detect_synthetic_classes(_keys(keys), squash(source))) == expected


@pytest.mark.parametrize("example", ["library", "study", "catalog"])
def test_truth_graph_matches_reference_converter(
    example: str, reference_rules: dict[str, Any], template_path: Path
) -> None:
    expected = reference_rules["truth_graphs"][example]
    template = load_template(TEMPLATES[example])
    assert collect_id_fields(template) == expected["id_fields"]
    graph = truth_graph_from_file(template_path / example / "truth.json", template)
    nodes = json.loads(json.dumps(graph.nodes, default=str))
    assert nodes == expected["nodes"]  # same ids, attributes and (post-)order
    assert graph.edges == expected["edges"]


def _table_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| ")]


def test_aggregate_matches_reference(data_dir: Path, tmp_path: Path) -> None:
    root = tmp_path / "matrix"
    shutil.copytree(data_dir / "matrix" / "input", root)
    result = aggregate_tree(root)
    expected = json.loads((data_dir / "matrix" / "expected_aggregate.json").read_text("utf-8"))
    assert json.loads(result.json_path.read_text("utf-8")) == expected
    expected_md = (data_dir / "matrix" / "expected_synthesis_report.md").read_text("utf-8")
    ours_md = result.report_path.read_text("utf-8")
    assert _table_rows(ours_md) == _table_rows(expected_md)
    assert len(_table_rows(ours_md)) == 9  # header + rule + 7 cells
    csv_lines = result.csv_path.read_text("utf-8").splitlines()
    assert len(csv_lines) == 1 + len(expected)
    assert csv_lines[0].startswith("doc,contract,format,rep,run")
