"""parsescore.core.results: every kind's real --out JSON loads back as per-item numbers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cli_helpers import Cli, run_cli
from parsescore.core.errors import InputError
from parsescore.core.results import (
    Result,
    detect_kind,
    higher_is_better,
    load_result,
    load_results,
    result_from_json,
)

DATA = Path(__file__).resolve().parents[2] / "src" / "parsescore" / "data"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Real result files of all four kinds, made by the kinds' own commands."""
    out = tmp_path_factory.mktemp("results")
    tables = DATA / "table" / "pubtabnet_samples"
    result = run_cli(
        [
            "table",
            "--truth",
            str(tables / "sample_gt.json"),
            "--pred",
            str(tables / "sample_pred.json"),
            "--out",
            str(out / "table.json"),
        ],
        None,
    )
    assert result.code == 0, result.err
    flow = DATA / "flowchart"
    result = run_cli(
        [
            "flowchart",
            "--truth",
            str(flow / "ground-truth"),
            "--pred",
            str(flow / "predictions"),
            "--quiet",
            "--out",
            str(out / "flowchart.json"),
        ],
        None,
    )
    assert result.code == 0, result.err
    seq = DATA / "sequence"
    result = run_cli(
        [
            "sequence",
            "--truth",
            str(seq / "truth"),
            "--pred",
            str(seq / "model_a"),
            "--out",
            str(out / "seq_a.json"),
        ],
        None,
    )
    assert result.code == 0, result.err
    result = run_cli(
        [
            "sequence",
            "--truth",
            str(seq / "truth"),
            "--pred",
            str(seq / "model_a"),
            "--pred",
            str(seq / "model_b"),
            "--out",
            str(out / "seq_ab.json"),
        ],
        None,
    )
    assert result.code == 0, result.err
    graph = DATA / "graph"
    result = run_cli(
        [
            "graph",
            "--graph",
            str(graph / "graph.json"),
            "--truth",
            str(graph / "truth.json"),
            "--template",
            f"{graph / 'library_template.py'}:Library",
            "--out",
            str(out / "eval.json"),
        ],
        None,
    )
    assert result.code == 0, result.err
    return {
        "table": out / "table.json",
        "flowchart": out / "flowchart.json",
        "sequence": out / "seq_a.json",
        "sequence2": out / "seq_ab.json",
        "graph": out / "eval.json",
    }


def test_table(outputs: dict[str, Path]) -> None:
    doc = json.loads(outputs["table"].read_text())
    result = load_result(outputs["table"])
    assert (result.kind, result.name) == ("table", "table")
    assert list(result.items) == list(doc["scores"])
    assert result.metrics() == list(doc["metrics"])
    assert "GriTS-Con" in result.metrics()
    for name, value in doc["scores"].items():
        assert result.items[name]["TEDS"] == value
        assert result.items[name]["TEDS-S"] == doc["metrics"]["TEDS-S"]["scores"][name]
    assert result.totals["TEDS"] == doc["mean"]
    assert result.totals["n_tables"] == 20
    assert all(result.higher_is_better(m) for m in result.metrics())


def test_flowchart(outputs: dict[str, Path]) -> None:
    doc = json.loads(outputs["flowchart"].read_text())
    result = load_result(outputs["flowchart"])
    assert result.kind == "flowchart"
    assert list(result.items) == [d["stem"] for d in doc["diagrams"]]
    assert result.metrics() == [
        "node_text_cost",
        "label_cost",
        "additional_text_cost",
        "flow_precision",
        "flow_recall",
        "flow_f1",
        "flow_jaccard",
        "readable",
    ]
    for diagram in doc["diagrams"]:
        item = result.items[diagram["stem"]]
        assert item["node_text_cost"] == diagram["node_text_cost"]
        assert item["label_cost"] == diagram["label_cost"]
        assert item["flow_jaccard"] == diagram["flow"]["jaccard"]
    # The per-item costs add up to the file's totals.
    assert (
        sum(v["node_text_cost"] for v in result.items.values()) == result.totals["node_text_cost"]
    )
    assert result.totals["flow_micro_f1"] == doc["totals"]["flow_micro"]["f1"]
    assert not result.higher_is_better("label_cost")
    assert result.higher_is_better("flow_f1")


def test_sequence_error_rate_is_the_file_score(outputs: dict[str, Path]) -> None:
    from parsescore.sequence.dataset import score_model
    from parsescore.sequence.inputs import path_source

    seq = DATA / "sequence"
    model = score_model(path_source(seq / "truth"), path_source(seq / "model_a"))
    result = load_result(outputs["sequence"])
    assert result.kind == "sequence"
    assert list(result.items) == [f.path for f in model.files]
    for file in model.files:
        item = result.items[file.path]
        assert item["error_rate"] == pytest.approx(file.error_rate, rel=1e-12)
        assert item["node_deletion_rate"] == file.counts["node"].deletion_rate
        assert item["participant_substitution_rate"] == file.counts["participant"].substitution_rate
    assert len(result.metrics()) == 8 * 3 + 2  # the rates, error_rate, readable
    assert not any(result.higher_is_better(m) for m in result.metrics() if m != "readable")
    assert result.higher_is_better("readable")
    assert all(item["readable"] == 1.0 for item in result.items.values())
    totals = model.totals
    errors = sum(c.errors for c in totals.values())
    gt = sum(c.gt_count for c in totals.values())
    assert result.totals["error_rate"] == pytest.approx(errors / gt * 100, rel=1e-12)


def test_multi_model_sequence(outputs: dict[str, Path]) -> None:
    results = load_results(outputs["sequence2"])
    assert [r.name for r in results] == ["seq_ab:model_a", "seq_ab:model_b"]
    assert results[0].items == load_result(outputs["sequence"]).items
    with pytest.raises(InputError, match=r"holds 2 systems \(model_a, model_b\)"):
        load_result(outputs["sequence2"])
    assert [r.name for r in load_results(outputs["sequence2"], name="run")] == [
        "run:model_a",
        "run:model_b",
    ]


def test_graph(outputs: dict[str, Path]) -> None:
    doc = json.loads(outputs["graph"].read_text())
    result = load_result(outputs["graph"])
    assert result.kind == "graph"
    assert list(result.items) == [f"node:{c}" for c in doc["nodes"]] + [
        f"edge:{label}" for label in doc["edges"]
    ]
    book = result.items["node:Book"]
    assert book["node_strict_f1"] == doc["nodes"]["Book"]["strict"]["f1"]
    assert book["node_relaxed_recall"] == doc["nodes"]["Book"]["relaxed"]["r"]
    assert not any(m.startswith("edge_") for m in book)
    assert result.totals["edge_strict_precision"] == doc["micro"]["edges"]["strict"]["p"]


def test_dataframe(outputs: dict[str, Path]) -> None:
    result = load_result(outputs["flowchart"])
    frame = result.to_dataframe()
    assert list(frame.columns) == ["system", "kind", "item", *result.metrics()]
    assert len(frame) == len(result.items)
    assert list(frame["item"]) == list(result.items)
    first = next(iter(result.items))
    assert frame.loc[0, "label_cost"] == result.items[first]["label_cost"]
    assert set(frame["system"]) == {"flowchart"}


def test_dataframe_without_pandas(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"pip install 'parsescore\[pandas\]'"):
        Result("table", "x", {"a": {"TEDS": 1.0}}).to_dataframe()


def test_grits_style_nulls_are_not_measured() -> None:
    doc = {
        "metric": "GriTS-Con",
        "n_tables": 2,
        "metrics": {
            "GriTS-Con": {"mean": 0.5, "scores": {"a": 1.0, "b": 0.0}},
            "GriTS-Loc": {"mean": None, "scores": {"a": None, "b": None}},
        },
    }
    result = result_from_json(doc, name="g")
    assert result.items == {"a": {"GriTS-Con": 1.0}, "b": {"GriTS-Con": 0.0}}
    assert "GriTS-Loc" not in result.totals


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2]", r"bad\.json: not a parsescore result: expected .*; found an array"),
        ('{"foo": 1}', r"not a parsescore result: .*found keys foo"),
        ("{", r"bad\.json \(line 1, column 2\): malformed JSON"),
        (
            '{"metric": "TEDS", "n_tables": 1, "metrics": {"TEDS": {"scores": {"a": "x"}}}}',
            r"bad\.json \(metrics\.TEDS\.scores\.a\): expected a number, found a string",
        ),
        (
            '{"kind": "flowchart", "diagrams": [{"stem": "d", "flow": {"precision": 1}}]}',
            r"\(diagrams\[0\]\.flow\): missing key 'recall'",
        ),
        (
            '{"kind": "flowchart", "diagrams": [{"stem": "d"}, {"stem": "d"}]}',
            r"\(diagrams\[1\]\.stem\): diagram 'd' appears twice",
        ),
        (
            '{"totals": {}, "files": []}',
            r"\(totals\): no category counts",
        ),
        (
            '{"micro": {}, "nodes": {"X": {"strict": {"p": true}}}, "edges": {}}',
            r"\(nodes\.X\.strict\.p\): expected a number, found a boolean",
        ),
    ],
)
def test_bad_files(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        load_result(write(tmp_path / "bad.json", text))


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.json: file not found"):
        load_result(tmp_path / "nope.json")


def test_detect_and_direction() -> None:
    assert detect_kind({"totals": {}, "files": []}) == "sequence"
    assert detect_kind({"m": {"totals": {}, "files": []}}) == "sequence"
    assert detect_kind({"micro": {}, "nodes": {}, "edges": {}}) == "graph"
    assert detect_kind({}) is None
    assert detect_kind("x") is None
    assert higher_is_better("table", "TEDS")
    assert not higher_is_better("sequence", "error_rate")
    with pytest.raises(ValueError, match="unknown kind"):
        higher_is_better("audio", "wer")


def test_real_grits_output(tmp_path: Path, cli: Cli) -> None:
    cases = json.loads(
        (
            Path(__file__).resolve().parents[1] / "table" / "data" / "grits" / "grits_10.json"
        ).read_text(encoding="utf-8")
    )
    (tmp_path / "t.json").write_text(json.dumps({c["id"]: c["true_cells"] for c in cases}))
    (tmp_path / "p.json").write_text(json.dumps({c["id"]: c["pred_cells"] for c in cases}))
    out = tmp_path / "grits.json"
    run = cli("grits", "--truth", tmp_path / "t.json", "--pred", tmp_path / "p.json", "--out", out)
    assert run.code == 0, run.err
    result = load_result(out)
    assert result.kind == "table"
    assert list(result.items) == [c["id"] for c in cases]
    for case in cases:
        assert result.items[case["id"]]["GriTS-Top"] == case["grits_top"]
        assert result.items[case["id"]]["GriTS-Con"] == case["grits_con"]
