"""Loading and validation: every rule of the spec, the exception type, and a useful message."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fc_helpers import Option, pred_node, write_preds, write_truth

from parsescore.flowchart import ParsingBenchmark

A, B, C = "Assessed", "Randomised", "Analysed"
GOOD_TRUTH = {
    "d": [Option([A, B, C], [(1, 2), (2, 3)], labels=[[], ["x"], []], additional_texts=["Fig"])]
}


def good_pred() -> dict[str, Any]:
    return {
        "nodes": [pred_node(1, A, [2], []), pred_node(2, B, [3], ["x"]), pred_node(3, C, [], [])],
        "additional_texts": ["Fig"],
    }


def run(
    root: Path, pred: Any, truth_edit: Callable[[Path], None] | None = None, **kw: Any
) -> ParsingBenchmark:
    gt = write_truth(root, GOOD_TRUTH)
    if truth_edit:
        truth_edit(gt)
    preds = root / "predictions"
    preds.mkdir(parents=True, exist_ok=True)
    (preds / "d.json").write_text(json.dumps(pred), encoding="utf-8")
    kw.setdefault("expected_num_diagrams", 1)
    return ParsingBenchmark(
        pred_diagrams_dir=preds,
        true_nodes_dir=gt / "nodes",
        true_labels_dir=gt / "labels",
        true_flow_dir=gt / "flow",
        true_additional_texts_dir=gt / "additional_texts",
        **kw,
    )


def edit_pred(change: Callable[[dict[str, Any]], Any]) -> dict[str, Any]:
    pred = good_pred()
    change(pred)
    return pred


PRED_CASES = [
    ("list at top level", [1, 2], TypeError, "should be an object"),
    ("unknown top-level key", edit_pred(lambda p: p.update(extra=1)), ValueError, "top-level keys"),
    (
        "nodes not a list",
        edit_pred(lambda p: p.update(nodes={})),
        TypeError,
        "'nodes' should be a list",
    ),
    ("empty nodes", edit_pred(lambda p: p.update(nodes=[])), ValueError, "at least one node"),
    (
        "node not an object",
        edit_pred(lambda p: p["nodes"].__setitem__(1, 5)),
        TypeError,
        "a node should be an object",
    ),
    (
        "unknown node key",
        edit_pred(lambda p: p["nodes"][0].update(colour="red")),
        ValueError,
        "invalid node keys",
    ),
    (
        "keys differ between nodes",
        edit_pred(lambda p: p["nodes"][1].pop("labels")),
        ValueError,
        "node keys",
    ),
    (
        "node_number a string",
        edit_pred(lambda p: p["nodes"][0].update(node_number="1")),
        TypeError,
        "'node_number' should be an integer",
    ),
    (
        "node_number a bool",
        edit_pred(lambda p: p["nodes"][0].update(node_number=True)),
        ValueError,
        "valid integer",
    ),
    (
        "text not a string",
        edit_pred(lambda p: p["nodes"][0].update(text=3)),
        TypeError,
        "'text' should be a string",
    ),
    (
        "empty text",
        edit_pred(lambda p: p["nodes"][0].update(text="")),
        ValueError,
        "at least 1 character",
    ),
    (
        "labels not a list",
        edit_pred(lambda p: p["nodes"][0].update(labels="x")),
        TypeError,
        "'labels' should be a list",
    ),
    (
        "label not a string",
        edit_pred(lambda p: p["nodes"][0].update(labels=[1])),
        TypeError,
        "each label",
    ),
    (
        "points_to not a list",
        edit_pred(lambda p: p["nodes"][0].update(points_to=2)),
        TypeError,
        "'points_to' should be a list",
    ),
    (
        "points_to item not int",
        edit_pred(lambda p: p["nodes"][0].update(points_to=["2"])),
        TypeError,
        "each 'points_to' item",
    ),
    (
        "points to missing node",
        edit_pred(lambda p: p["nodes"][0].update(points_to=[7])),
        ValueError,
        "points to 7",
    ),
    (
        "duplicate node numbers",
        edit_pred(lambda p: p["nodes"][1].update(node_number=1)),
        ValueError,
        "repeated: [1]",
    ),
    (
        "node number too large",
        edit_pred(
            lambda p: (
                p["nodes"][2].update(node_number=1000),
                p["nodes"][1].update(points_to=[1000]),
            )
        ),
        ValueError,
        "less than 1000",
    ),
    (
        "additional_texts not a list",
        edit_pred(lambda p: p.update(additional_texts="x")),
        TypeError,
        "'additional_texts' should be a list",
    ),
    (
        "additional text not a string",
        edit_pred(lambda p: p.update(additional_texts=[None])),
        TypeError,
        "an additional text should be a string",
    ),
    (
        "no node text",
        {"nodes": [{"node_number": 1, "labels": []}]},
        ValueError,
        "node text is required",
    ),
    ("only node_number", {"nodes": [{"node_number": 1}]}, ValueError, "benchmarkable"),
]


@pytest.mark.parametrize(
    ("name", "pred", "error", "fragment"), PRED_CASES, ids=[c[0] for c in PRED_CASES]
)
def test_prediction_validation(
    tmp_path: Path, name: str, pred: Any, error: type, fragment: str
) -> None:
    with pytest.raises(error) as info:
        run(tmp_path, pred)
    message = str(info.value)
    assert fragment in message
    assert "d.json" in message or "predictions" in message  # names the file or directory


def test_malformed_json_names_line_and_column(tmp_path: Path) -> None:
    preds = tmp_path / "predictions"
    preds.mkdir()
    (preds / "d.json").write_text('{"nodes": [\n  {"node_number": 1,,}\n]}', encoding="utf-8")
    gt = write_truth(tmp_path, GOOD_TRUTH)
    with pytest.raises(ValueError, match=r"d\.json \(line 2, column 21\): malformed JSON"):
        ParsingBenchmark(
            pred_diagrams_dir=preds,
            true_nodes_dir=gt / "nodes",
            true_labels_dir=gt / "labels",
            true_flow_dir=gt / "flow",
            true_additional_texts_dir=gt / "additional_texts",
            expected_num_diagrams=1,
        )


def _edit_truth(part: str, change: Callable[[dict[str, Any]], Any]) -> Callable[[Path], None]:
    def edit(gt: Path) -> None:
        path = gt / part / "d.json"
        content = json.loads(path.read_text())
        change(content)
        path.write_text(json.dumps(content))

    return edit


def _edit_truths(change: Callable[[dict[str, Any]], Any]) -> Callable[[Path], None]:
    """The same edit in the three node-based parts (so they still agree with each other)."""

    def edit(gt: Path) -> None:
        for part in ("nodes", "labels", "flow"):
            _edit_truth(part, change)(gt)

    return edit


TRUTH_CASES = [
    (
        "not an object",
        _edit_truth("nodes", lambda c: c.clear() or c.update(x=1)),
        ValueError,
        "expected exactly {'options'}",
    ),
    (
        "options empty",
        _edit_truth("labels", lambda c: c.update(options=[])),
        ValueError,
        "same number of options",  # Flowde compares the parts first: 0 options against 1
    ),
    (
        "options not a list",
        _edit_truth("flow", lambda c: c.update(options="x")),
        TypeError,
        "'options' should be a list",
    ),
    (
        "option count differs",
        _edit_truth("additional_texts", lambda c: c["options"].append({"additional_texts": []})),
        ValueError,
        "same number of options",
    ),
    (
        "extra option key",
        _edit_truth("nodes", lambda c: c["options"][0].update(extra=[])),
        ValueError,
        "expected exactly {'nodes'}",
    ),
    (
        "node without number",
        _edit_truth("nodes", lambda c: c["options"][0]["nodes"][0].pop("node_number")),
        ValueError,
        "no 'node_number'",
    ),
    (
        "number not int",
        _edit_truth("nodes", lambda c: c["options"][0]["nodes"][0].update(node_number=1.0)),
        TypeError,
        "should be an integer",
    ),
    (
        "numbers not 1..n",
        _edit_truths(lambda c: c["options"][0]["nodes"][2].update(node_number=5)),
        ValueError,
        "must be 1..3",
    ),
    (
        "duplicate numbers",
        _edit_truths(lambda c: c["options"][0]["nodes"][2].update(node_number=2)),
        ValueError,
        "repeated: [2]",
    ),
    (
        "wrong node key",
        _edit_truth("nodes", lambda c: c["options"][0]["nodes"][0].update(label="x")),
        ValueError,
        "expected exactly {'node_number', 'text'}",
    ),
    (
        "text not str",
        _edit_truth("nodes", lambda c: c["options"][0]["nodes"][0].update(text=None)),
        TypeError,
        "'text' should be a string",
    ),
    (
        "empty text",
        _edit_truth("nodes", lambda c: c["options"][0]["nodes"][0].update(text="")),
        ValueError,
        "at least 1 character",
    ),
    (
        "labels not list",
        _edit_truth("labels", lambda c: c["options"][0]["nodes"][0].update(labels="x")),
        TypeError,
        "'labels' should be a list",
    ),
    (
        "label not str",
        _edit_truth("labels", lambda c: c["options"][0]["nodes"][0].update(labels=[3])),
        TypeError,
        "each label",
    ),
    (
        "points_to not list",
        _edit_truth("flow", lambda c: c["options"][0]["nodes"][0].update(points_to=2)),
        TypeError,
        "'points_to' should be a list",
    ),
    (
        "duplicate edge",
        _edit_truth("flow", lambda c: c["options"][0]["nodes"][0].update(points_to=[2, 2])),
        ValueError,
        "duplicate edges",
    ),
    (
        "node outside flow",
        _edit_truth("flow", lambda c: c["options"][0]["nodes"][1].update(points_to=[])),
        ValueError,
        "not in the flow: [3]",
    ),
    (
        "edge to missing node",
        _edit_truth("flow", lambda c: c["options"][0]["nodes"][2].update(points_to=[9])),
        ValueError,
        "do not exist: [9]",
    ),
    (
        "additional texts key",
        _edit_truth("additional_texts", lambda c: c["options"][0].update(more=[])),
        ValueError,
        "expected exactly {'additional_texts'}",
    ),
    (
        "additional text type",
        _edit_truth("additional_texts", lambda c: c["options"][0].update(additional_texts=[1])),
        TypeError,
        "each additional text",
    ),
    (
        "numbers differ between parts",
        _edit_truth("labels", lambda c: c["options"][0]["nodes"].pop()),
        ValueError,
        "node numbers differ",
    ),
]


@pytest.mark.parametrize(
    ("name", "edit", "error", "fragment"), TRUTH_CASES, ids=[c[0] for c in TRUTH_CASES]
)
def test_truth_validation(
    tmp_path: Path, name: str, edit: Callable[[Path], None], error: type, fragment: str
) -> None:
    with pytest.raises(error) as info:
        run(tmp_path, good_pred(), truth_edit=edit)
    assert fragment in str(info.value)
    assert "d.json" in str(info.value)


def test_expected_num_diagrams_must_match(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="expected 2 flowcharts"):
        run(tmp_path, good_pred(), expected_num_diagrams=2)


def test_truth_stems_must_agree_across_parts(tmp_path: Path) -> None:
    def rename(gt: Path) -> None:
        (gt / "flow" / "d.json").rename(gt / "flow" / "e.json")

    with pytest.raises(ValueError, match="flow files do not match"):
        run(tmp_path, good_pred(), truth_edit=rename)


def test_missing_truth_directory(tmp_path: Path) -> None:
    def remove(gt: Path) -> None:
        for f in (gt / "labels").iterdir():
            f.unlink()
        (gt / "labels").rmdir()

    with pytest.raises(ValueError, match="directory does not exist"):
        run(tmp_path, good_pred(), truth_edit=remove)


def test_empty_prediction_directory(tmp_path: Path) -> None:
    gt = write_truth(tmp_path, GOOD_TRUTH)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match=r"no prediction \.json files"):
        ParsingBenchmark(
            pred_diagrams_dir=tmp_path / "empty",
            true_nodes_dir=gt / "nodes",
            true_labels_dir=gt / "labels",
            true_flow_dir=gt / "flow",
            true_additional_texts_dir=gt / "additional_texts",
            expected_num_diagrams=1,
        )


def _split_dirs(
    tmp_path: Path, text_nodes: list[dict], label_nodes: list[dict]
) -> tuple[Path, Path, Path]:
    gt = write_truth(tmp_path, GOOD_TRUTH)
    text_dir = write_preds(tmp_path / "text", {"d": {"nodes": text_nodes}})
    label_dir = write_preds(tmp_path / "labels", {"d": {"nodes": label_nodes}})
    return gt, text_dir, label_dir


def _bench(gt: Path, dirs: list[Path]) -> ParsingBenchmark:
    return ParsingBenchmark(
        pred_diagrams_dir=dirs,
        true_nodes_dir=gt / "nodes",
        true_labels_dir=gt / "labels",
        true_flow_dir=gt / "flow",
        true_additional_texts_dir=gt / "additional_texts",
        expected_num_diagrams=1,
    )


def test_separate_parts_rules(tmp_path: Path) -> None:
    texts = [{"node_number": 1, "text": A}, {"node_number": 2, "text": B}]
    labels = [{"node_number": 1, "labels": []}, {"node_number": 2, "labels": []}]
    gt, text_dir, label_dir = _split_dirs(tmp_path, texts, labels)
    with pytest.raises(ValueError, match="only once"):
        _bench(gt, [text_dir, text_dir])
    with pytest.raises(ValueError, match="supplied twice"):
        _bench(gt, [text_dir, write_preds(tmp_path / "text2", {"d": {"nodes": texts}})])
    with pytest.raises(ValueError, match="node text is required"):
        _bench(gt, [label_dir])
    with pytest.raises(ValueError, match="at least one prediction directory"):
        _bench(gt, [])
    other = write_preds(tmp_path / "other", {"e": {"nodes": labels}})
    with pytest.raises(ValueError, match="same flowcharts"):
        _bench(gt, [text_dir, other])
    renumbered = write_preds(
        tmp_path / "renumbered",
        {"d": {"nodes": [{"node_number": 1, "labels": []}, {"node_number": 5, "labels": []}]}},
    )
    with pytest.raises(ValueError, match="node numbers"):
        _bench(gt, [text_dir, renumbered])
