"""Our outputs equal docling-graph 1.9.1's on the fixtures it produced (see data/README.md)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import Cli
from parsescore.core.api import evaluate
from parsescore.core.errors import InputError
from parsescore.graph.aggregate import aggregate_tree
from parsescore.graph.api import evaluate_files
from parsescore.graph.canon import canonical_identity_value, loose_text, squash
from parsescore.graph.evaluate import detect_synthetic_classes, pair_score, relaxed_pairs
from parsescore.graph.io import read_instance
from parsescore.graph.template import collect_id_fields, load_template

TEMPLATES = {
    "library": "library_template.Library",
    "study": "study_template.Study",
    "catalog": "catalog_template.Catalog",
    "quirks": "quirks_template.Ledger",
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


@pytest.mark.parametrize("example", ["library", "study", "catalog", "quirks"])
def test_truth_graph_matches_reference_converter(
    example: str, reference_rules: dict[str, Any], template_path: Path
) -> None:
    expected = reference_rules["truth_graphs"][example]
    template = load_template(TEMPLATES[example])
    assert collect_id_fields(template) == expected["id_fields"]
    path = template_path / example / "truth.json"
    graph = read_instance(path.read_text("utf-8"), path, template=template)
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


LENIENT = ["dangling", "no_id", "empty_nodes", "empty_with_edges", "no_nodes_key"]
LENIENT_VARIANTS = {
    "auto_source": {"source": "source.md"},
    "on": {"structural_align": "on"},
    "off": {"structural_align": "off"},
}


@pytest.mark.parametrize("variant", list(LENIENT_VARIANTS))
@pytest.mark.parametrize("name", LENIENT)
def test_odd_graphs_score_as_script_16_scores_them(
    name: str, variant: str, template_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dangling edges, no nodes, nodes without id: script 16's numbers, with a warning."""
    monkeypatch.chdir(template_path / "library")
    expected_path = template_path / "lenient" / "expected" / f"{name}_{variant}.json"
    expected = json.loads(expected_path.read_text("utf-8"))
    pred = f"../lenient/{name}.json"
    options = LENIENT_VARIANTS[variant]
    assert (
        evaluate_files(truth="truth.json", pred=pred, template=TEMPLATES["library"], **options)
        == expected
    )
    scored = evaluate("graph", "truth.json", pred, template=TEMPLATES["library"], **options)
    assert scored.warnings and all(w.startswith(f"{pred}: ") for w in scored.warnings)
    with pytest.raises(InputError, match=re.escape(pred)):
        evaluate_files(truth="truth.json", pred=pred, template=TEMPLATES["library"], strict=True)


def test_cli_warns_on_dangling_edges_and_strict_refuses(
    template_path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cli: Cli
) -> None:
    monkeypatch.chdir(template_path / "library")
    out = tmp_path / "eval.json"
    args = ["graph", "--graph", "../lenient/dangling.json", "--truth", "truth.json",
            "--template", TEMPLATES["library"], "--source", "source.md"]  # fmt: skip
    result = cli(*args, "--out", out)
    assert result.code == 0, result.err
    assert (
        "warning: ../lenient/dangling.json: 12 edge end(s) name no node (edges[14] target "
        "'Dataset_missing', edges[15] source 'Ghost_1', edges[16] source 'Ghost_1' and 9 more)"
    ) in " ".join(result.err.split())
    expected = template_path / "lenient" / "expected" / "dangling_auto_source.json"
    assert json.loads(out.read_text("utf-8")) == json.loads(expected.read_text("utf-8"))
    refused = cli(*args, "--strict")
    assert refused.code == 2
    assert refused.err.strip() == (
        "error: ../lenient/dangling.json (edges[14]): edge target 'Dataset_missing' is not the "
        "id of any node"
    )


QUIRK_VARIANTS = {
    "auto_source": {"source": "source.md"},
    "on": {"structural_align": "on"},
    "off": {"structural_align": "off"},
}


@pytest.mark.parametrize("variant", list(QUIRK_VARIANTS))
def test_reference_quirks_are_the_default(
    variant: str, template_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An Enum identity never matches strictly; accented truth ids are not found in the source."""
    folder = template_path / "quirks"
    monkeypatch.chdir(folder)
    expected = json.loads((folder / "expected" / f"eval_{variant}.json").read_text("utf-8"))
    ours = evaluate_files(
        truth="truth.json", pred="graph.json", template="quirks_template.Ledger",
        **QUIRK_VARIANTS[variant],
    )  # fmt: skip
    assert ours == expected
    assert ours["nodes"]["Entry"]["strict"]["tp"] == 0
    if variant == "auto_source":
        assert ours["structural_alignment"]["synthetic_id_classes"] == ["Entry", "Place"]


def test_enum_ids_value_matches_enum_identities(
    template_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(template_path / "quirks")
    ours = evaluate_files(
        truth="truth.json", pred="graph.json", template="quirks_template.Ledger",
        structural_align="off", enum_ids="value",
    )  # fmt: skip
    assert ours["nodes"]["Entry"]["strict"] == {
        "tp": 2, "fp": 1, "fn": 1, "p": 0.667, "r": 0.667, "f1": 0.667
    }  # fmt: skip
    assert ours["relaxed_alias_pairs"] == []  # A1/A2 now match strictly, B7 ≠ B8
    assert ours["edges"]["HAS_ENTRY"]["strict"]["tp"] == 2


def test_normalise_source_accents_finds_accented_ids(
    template_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Cli, tmp_path: Path
) -> None:
    monkeypatch.chdir(template_path / "quirks")
    common = {"truth": "truth.json", "pred": "graph.json", "template": "quirks_template.Ledger"}
    accents = evaluate_files(**common, source="source.md", normalise_source_accents=True)
    assert accents["structural_alignment"]["synthetic_id_classes"] == ["Entry"]
    both = evaluate_files(
        **common, source="source.md", normalise_source_accents=True, enum_ids="value"
    )
    assert both["structural_alignment"]["synthetic_id_classes"] == []
    assert "aligned" not in both["micro"]["nodes"]
    out = tmp_path / "eval.json"
    result = cli(
        "graph", "--graph", "graph.json", "--truth", "truth.json", "--template",
        "quirks_template.Ledger", "--source", "source.md", "--normalise-source-accents",
        "--enum-ids", "value", "--out", out,
    )  # fmt: skip
    assert result.code == 0, result.err
    assert json.loads(out.read_text("utf-8")) == both
    bad = cli("graph", "--graph", "graph.json", "--truth", "truth.json", "--template",
              "quirks_template.Ledger", "--enum-ids", "name")  # fmt: skip
    assert bad.code == 2
    assert bad.err.splitlines() == [
        "error: Invalid value for '--enum-ids': 'name' is not one of 'reference', 'value'.",
        "see: parsescore graph --help",
    ]


BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.parametrize(
    "pairs", ["default", "all indexed", "indexed, one row a band", "all pair by pair"]
)
@pytest.mark.parametrize("variant", list(LENIENT_VARIANTS))
def test_billing_shape_equals_reference_with_every_scoring_path(
    variant: str, pairs: str, template_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The BillingDocument shape of bench_graph.py (Enum fields, components, invented ids,
    aliases, extras; data/billing): script 16's eval.json whether alignment scores pairs from
    the inverted indexes into score matrices (the fast path, also in bands of one row) or one by
    one (the plain rule)."""
    from functools import partial

    from parsescore.graph import evaluate as graph_evaluate

    folder = template_path / "billing"
    monkeypatch.chdir(folder)
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    if pairs != "default":
        limit = 10**12 if pairs == "all pair by pair" else 0
        cells = 1 if pairs == "indexed, one row a band" else graph_evaluate.DENSE_CELLS
        monkeypatch.setattr(
            graph_evaluate,
            "structural_pairs",
            partial(graph_evaluate.structural_pairs, brute_force_pairs=limit, dense_cells=cells),
        )
    expected = json.loads((folder / "expected" / f"eval_{variant}.json").read_text("utf-8"))
    ours = evaluate_files(
        truth="truth.json", pred="graph.json", template="graph_billing_template.BillingDocument",
        **LENIENT_VARIANTS[variant],
    )  # fmt: skip
    assert ours == expected
    if variant == "on":
        assert len(ours["structural_alignment"]["pairs"]) == 53
