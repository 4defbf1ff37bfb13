"""Regression cases found by differential testing against Flowde (EPPI-Centre/Flowde).

Each case was found by running Flowde's ``ParsingBenchmark`` (reconstructed outside the project)
and ours on the same random files; the expected exception classes are Flowde's, checked on the
same inputs. Written when the implementation still differed, so they fail until it is fixed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fc_helpers import Option, pred_node, write_preds, write_truth

from parsescore.flowchart import ParsingBenchmark

TRUTH = {
    "d1": [Option(["A", "B"], [(1, 2)])],
    "d2": [Option(["A", "B"], [(1, 2)])],
}


def _kwargs(gt: Path, pred_dir: Path, expected: int, **extra: Any) -> dict[str, Any]:
    return {
        "pred_diagrams_dir": pred_dir,
        "true_nodes_dir": gt / "nodes",
        "true_labels_dir": gt / "labels",
        "true_flow_dir": gt / "flow",
        "true_additional_texts_dir": gt / "additional_texts",
        "expected_num_diagrams": expected,
        **extra,
    }


def _edit_truth(gt: Path, part: str, stem: str, edit: Any) -> None:
    path = gt / part / f"{stem}.json"
    content = json.loads(path.read_text(encoding="utf-8"))
    edit(content)
    path.write_text(json.dumps(content), encoding="utf-8")


# --- 1. allow_missing_pred_diagrams: the truth of unpredicted flowcharts is still validated ----


def _set_first_add_text(c: dict[str, Any]) -> None:
    c["options"][0]["additional_texts"] = [""]


def _set_first_label(c: dict[str, Any]) -> None:
    c["options"][0]["nodes"][0]["labels"] = [""]


def _set_bool_target(c: dict[str, Any]) -> None:
    c["options"][0]["nodes"][1]["points_to"] = [True]  # 2 -> "1" as a boolean


MODEL_FAULTS = {
    "empty additional text": ("additional_texts", _set_first_add_text),
    "empty label": ("labels", _set_first_label),
    "boolean points_to entry": ("flow", _set_bool_target),
}


def write_missing_pred_case(tmp_path: Path, fault: str) -> dict[str, Any]:
    """Truth d1 and d2; only d1 predicted; d2's truth has a fault Flowde's data model refuses."""
    gt = write_truth(tmp_path, TRUTH)
    part, edit = MODEL_FAULTS[fault]
    _edit_truth(gt, part, "d2", edit)
    preds = write_preds(
        tmp_path / "predictions",
        {"d1": {"nodes": [pred_node(1, "A", [2]), pred_node(2, "B", [])]}},
    )
    return _kwargs(gt, preds, 2, allow_missing_pred_diagrams=True)


@pytest.mark.parametrize("fault", sorted(MODEL_FAULTS))
def test_unpredicted_truth_is_still_validated(tmp_path: Path, fault: str) -> None:
    """Flowde builds every ground-truth DiagramOptions before dropping unpredicted stems, so a
    model-level fault in an unpredicted flowchart's truth raises (RuntimeError wrapping the
    ValidationError); ours skipped those stems and constructed the benchmark.

    Found by differential testing against Flowde (mutations t_add/t_labels/t_points_to).
    """
    with pytest.raises(RuntimeError):
        ParsingBenchmark(**write_missing_pred_case(tmp_path, fault), show_progress=False)


# --- 2. precedence: files with different top-level keys before the type of a value ------------


def write_pred_key_mismatch_case(tmp_path: Path) -> dict[str, Any]:
    """d1.json has an extra ``additional_texts`` key holding a string; d2.json lacks the key."""
    gt = write_truth(tmp_path, TRUTH)
    nodes = [pred_node(1, "A", [2]), pred_node(2, "B", [])]
    preds = write_preds(
        tmp_path / "predictions",
        {"d1": {"nodes": nodes, "additional_texts": "x"}, "d2": {"nodes": nodes}},
    )
    return _kwargs(gt, preds, 2)


def test_differing_pred_top_level_keys_reported_before_value_type(tmp_path: Path) -> None:
    """Flowde first requires every prediction file of a directory to have the first file's
    top-level keys (ValueError), and only then checks value types; ours raised TypeError for
    the string ``additional_texts`` of the first file.

    Found by differential testing against Flowde (mutation p_add). The spec names both rules
    but not their order, so Flowde's order decides.
    """
    with pytest.raises(ValueError):
        ParsingBenchmark(**write_pred_key_mismatch_case(tmp_path), show_progress=False)


# --- 3. precedence: cross-part ground-truth checks before per-part type checks ----------------


def _float_node_number(c: dict[str, Any]) -> None:
    c["options"][0]["nodes"][1]["node_number"] = 2.5


def _options_object(c: dict[str, Any]) -> None:
    c["options"] = {}


CROSS_PART_FAULTS = {
    "float node_number in the nodes part only": ("nodes", _float_node_number),
    "options is an object in the labels part": ("labels", _options_object),
}


def write_cross_part_case(tmp_path: Path, fault: str) -> dict[str, Any]:
    truth = {"d1": TRUTH["d1"]}
    gt = write_truth(tmp_path, truth)
    part, edit = CROSS_PART_FAULTS[fault]
    _edit_truth(gt, part, "d1", edit)
    preds = write_preds(
        tmp_path / "predictions",
        {"d1": {"nodes": [pred_node(1, "A", [2]), pred_node(2, "B", [])]}},
    )
    return _kwargs(gt, preds, 1)


@pytest.mark.parametrize("fault", sorted(CROSS_PART_FAULTS))
def test_cross_part_truth_checks_precede_type_checks(tmp_path: Path, fault: str) -> None:
    """Flowde compares option counts and node numbers across the four ground-truth parts before
    it checks types within a part, so these faults are ValueErrors (option counts 0 vs 1; node
    numbers [1, 2.5] vs [1, 2]); ours raised TypeError.

    Found by differential testing against Flowde (mutations t_node_number, t_top). The spec
    names both rules but not their order, so Flowde's order decides.
    """
    with pytest.raises(ValueError) as info:
        ParsingBenchmark(**write_cross_part_case(tmp_path, fault), show_progress=False)
    assert not isinstance(info.value, TypeError)


# --- 4. expected_num_diagrams is compared with ==, so 1.0 and True count as 1 ------------------


def write_one_diagram_case(tmp_path: Path, expected: Any) -> dict[str, Any]:
    gt = write_truth(tmp_path, {"d1": TRUTH["d1"]})
    preds = write_preds(
        tmp_path / "predictions",
        {"d1": {"nodes": [pred_node(1, "A", [2]), pred_node(2, "B", [])]}},
    )
    return _kwargs(gt, preds, expected)


@pytest.mark.parametrize("expected", [1.0, True], ids=["float", "bool"])
def test_expected_num_diagrams_compared_by_equality(tmp_path: Path, expected: Any) -> None:
    """Flowde only checks ``len(files) == expected_num_diagrams``, so 1.0 and True are accepted
    for one flowchart (node-text cost 0, flow Jaccard 1.0); ours raised TypeError.

    Found by differential testing against Flowde (argument types). The spec does not type this
    argument, so Flowde's behaviour decides; lowest priority of these cases.
    """
    bench = ParsingBenchmark(**write_one_diagram_case(tmp_path, expected), show_progress=False)
    assert bench.total_node_text_cost() == 0
    assert bench.avg_flow_jaccard() == 1.0
