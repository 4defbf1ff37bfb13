"""Flowde's loading and validation test cases, reproduced through ``ParsingBenchmark(...)``.

Upstream files (EPPI-Centre/Flowde, ``tests/unit/test_benchmarks/test_parsing/``):

- ``test_check_parsing_bench_data.py``: file counts and stems, option counts, node numbers across
  parts, the generic ground-truth structure checks, the per-part checks, the prediction
  structure checks. Upstream calls each ``check_*`` function on its own; here every case is a
  set of files handed to the public constructor, so the corrupted file is the only fault (where
  Flowde's checks read the same key in several parts, the fault is written into all of them);
- ``test_load_diagrams.py``: sorted loading, only top-level ``*.json`` files, empty directories;
- ``test_parsing_bench_types.py``: the cases that concern files (``Diagram.from_path``,
  ``DiagramOptions.from_true_paths``: node order in a file, metadata of loaded nodes, wrapped
  ground-truth errors).

Expected exception classes are upstream's (TypeError for a wrong type, ValueError for a wrong
structure or value, RuntimeError where Flowde wraps a ground-truth model error).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flowde_cases import (
    TRUTH_PARTS,
    TruthDirs,
    benchmark_from_dirs,
    option,
    pred_diagram,
    pred_node,
    tn,
    write_json,
    write_preds,
    write_truth,
)

BASE_OPTION = option(
    [
        tn(1, "Assessed for eligibility", ["screening", "eligibility"], [2]),
        tn(2, "Randomised", ["randomisation", "allocation"], [1]),
    ],
    ["Figure 1", "Participant flow diagram"],
)


def base_pred() -> dict[str, Any]:
    return pred_diagram(
        [
            pred_node(1, "Assessed for eligibility", ["screening", "eligibility"], [2]),
            pred_node(2, "Randomised", ["randomisation", "allocation"], [1]),
        ],
        ["Figure 1"],
    )


def setup_files(
    tmp_path: Path,
    stems: tuple[str, ...] = ("diagram_1",),
    preds: dict[str, Any] | None = None,
) -> tuple[TruthDirs, Path]:
    truth = write_truth(tmp_path / "truth", {stem: [BASE_OPTION] for stem in stems})
    pred_dir = write_preds(
        tmp_path / "pred", preds if preds is not None else {s: base_pred() for s in stems}
    )
    return truth, pred_dir


def build(
    truth: TruthDirs,
    pred_dir: Path | list[Path],
    expected: int = 1,
    allow_missing_pred_diagrams: bool = False,
):
    return benchmark_from_dirs(
        pred_dir,
        truth,
        expected_num_diagrams=expected,
        allow_missing=allow_missing_pred_diagrams,
    )


# --- test_check_parsing_bench_data.py: check_benchmark_files_match ----------------------------


def test_matching_stems_in_every_directory_build_a_benchmark(tmp_path: Path) -> None:
    truth, pred_dir = setup_files(tmp_path, ("diagram_1", "diagram_2"))
    benchmark = build(truth, pred_dir, expected=2)
    assert [m.parent_img_code for m in benchmark.node_matches()] == ["diagram_1", "diagram_2"]


def test_missing_predictions_are_allowed_when_asked(tmp_path: Path) -> None:
    truth, pred_dir = setup_files(
        tmp_path, ("diagram_1", "diagram_2"), preds={"diagram_1": base_pred()}
    )
    benchmark = build(truth, pred_dir, expected=2, allow_missing_pred_diagrams=True)
    assert [m.parent_img_code for m in benchmark.node_matches()] == ["diagram_1"]


@pytest.mark.parametrize(
    ("pred_stems", "parts_missing_diagram_2", "allow_missing"),
    [
        pytest.param(["diagram_1"], [], False, id="pred-count-wrong"),
        pytest.param(["diagram_1", "diagram_2"], ["nodes"], False, id="nodes-count-wrong"),
        pytest.param(["diagram_1", "diagram_2"], ["labels"], False, id="labels-count-wrong"),
        pytest.param(
            ["diagram_1", "diagram_2"],
            ["additional_texts"],
            False,
            id="additional-texts-count-wrong",
        ),
        pytest.param(["diagram_1", "diagram_2"], ["flow"], False, id="flow-count-wrong"),
        pytest.param(["diagram_1"], list(TRUTH_PARTS), False, id="all-counts-wrong"),
        pytest.param(["diagram_1"], ["nodes"], True, id="allow-missing-preds-nodes-count-wrong"),
        pytest.param(["diagram_1"], ["labels"], True, id="allow-missing-preds-labels-count-wrong"),
        pytest.param(
            ["diagram_1"],
            ["additional_texts"],
            True,
            id="allow-missing-preds-additional-texts-count-wrong",
        ),
        pytest.param(["diagram_1"], ["flow"], True, id="allow-missing-preds-flow-count-wrong"),
        pytest.param(
            ["diagram_1"], list(TRUTH_PARTS), True, id="allow-missing-preds-all-true-counts-wrong"
        ),
    ],
)
def test_file_counts_must_equal_expected_num_diagrams(
    tmp_path: Path,
    pred_stems: list[str],
    parts_missing_diagram_2: list[str],
    allow_missing: bool,
) -> None:
    truth, pred_dir = setup_files(
        tmp_path, ("diagram_1", "diagram_2"), preds={s: base_pred() for s in pred_stems}
    )
    for part in parts_missing_diagram_2:
        truth.file(part, "diagram_2").unlink()
    with pytest.raises(ValueError):
        build(truth, pred_dir, expected=2, allow_missing_pred_diagrams=allow_missing)


@pytest.mark.parametrize(
    "renamed",
    [
        pytest.param({"labels": "different"}, id="labels-stem-different"),
        pytest.param({"additional_texts": "different"}, id="additional-texts-stem-different"),
        pytest.param({"flow": "different"}, id="flow-stem-different"),
        pytest.param({"nodes": "different"}, id="nodes-stem-different"),
        pytest.param(
            {
                "labels": "different_labels",
                "additional_texts": "different_additional_texts",
                "flow": "different_flow",
            },
            id="multiple-stems-different",
        ),
    ],
)
def test_ground_truth_parts_must_share_stems(tmp_path: Path, renamed: dict[str, str]) -> None:
    truth, pred_dir = setup_files(tmp_path)
    for part, new_stem in renamed.items():
        truth.file(part, "diagram_1").rename(truth.file(part, new_stem))
    with pytest.raises(ValueError) as excinfo:
        build(truth, pred_dir)
    assert "different" in str(excinfo.value)


@pytest.mark.parametrize("allow_missing", [False, True])
def test_prediction_stem_must_be_a_ground_truth_stem(tmp_path: Path, allow_missing: bool) -> None:
    truth, pred_dir = setup_files(tmp_path, preds={"diagram_2": base_pred()})
    with pytest.raises(ValueError) as excinfo:
        build(truth, pred_dir, allow_missing_pred_diagrams=allow_missing)
    assert "diagram_2" in str(excinfo.value)


# Upstream's duplicate-stem cases pass two paths with one stem from different parent
# directories; one directory cannot hold two such files, so the public-API equivalents are
# the same prediction directory given twice and two directories supplying the same part.


def test_same_prediction_directory_twice_is_rejected(tmp_path: Path) -> None:
    truth, pred_dir = setup_files(tmp_path)
    with pytest.raises(ValueError):
        build(truth, [pred_dir, pred_dir])


def test_two_prediction_directories_with_the_same_part_are_rejected(tmp_path: Path) -> None:
    truth, pred_dir = setup_files(tmp_path)
    other = write_preds(tmp_path / "other_pred", {"diagram_1": base_pred()})
    with pytest.raises(ValueError):
        build(truth, [pred_dir, other])


# --- check_benchmark_options_match ------------------------------------------------------------


def test_matching_options_and_node_numbers_build_a_benchmark(tmp_path: Path) -> None:
    truth, pred_dir = setup_files(tmp_path)
    benchmark = build(truth, pred_dir)
    assert benchmark.total_node_text_cost() == 0


def _options_with_counts(counts: dict[str, int]) -> dict[str, dict[str, Any]]:
    return {
        "nodes": {
            "options": [
                {
                    "nodes": [
                        {"node_number": 1, "text": f"Node 1 option {i}"},
                        {"node_number": 2, "text": f"Node 2 option {i}"},
                    ]
                }
                for i in range(counts["nodes"])
            ]
        },
        "labels": {
            "options": [
                {
                    "nodes": [
                        {"node_number": 1, "labels": [f"label 1 option {i}"]},
                        {"node_number": 2, "labels": [f"label 2 option {i}"]},
                    ]
                }
                for i in range(counts["labels"])
            ]
        },
        "additional_texts": {
            "options": [
                {"additional_texts": [f"Figure option {i}", f"Participant flow option {i}"]}
                for i in range(counts["additional_texts"])
            ]
        },
        "flow": {
            "options": [
                {
                    "nodes": [
                        {"node_number": 1, "points_to": [2]},
                        {"node_number": 2, "points_to": [1]},
                    ]
                }
                for _ in range(counts["flow"])
            ]
        },
    }


@pytest.mark.parametrize(
    ("nodes", "labels", "additional_texts", "flow"),
    [
        pytest.param(1, 2, 1, 1, id="labels-option-count-different"),
        pytest.param(1, 1, 2, 1, id="additional-texts-option-count-different"),
        pytest.param(1, 1, 1, 2, id="flow-option-count-different"),
        pytest.param(2, 1, 1, 1, id="nodes-option-count-different"),
        pytest.param(1, 2, 3, 4, id="all-option-counts-different"),
        pytest.param(0, 1, 1, 1, id="nodes-has-zero-options"),
        pytest.param(1, 0, 1, 1, id="labels-has-zero-options"),
        pytest.param(1, 1, 0, 1, id="additional-texts-has-zero-options"),
        pytest.param(1, 1, 1, 0, id="flow-has-zero-options"),
    ],
)
def test_every_part_must_have_the_same_number_of_options(
    tmp_path: Path, nodes: int, labels: int, additional_texts: int, flow: int
) -> None:
    truth, pred_dir = setup_files(tmp_path)
    counts = {"nodes": nodes, "labels": labels, "additional_texts": additional_texts, "flow": flow}
    for part, content in _options_with_counts(counts).items():
        write_json(truth.file(part, "diagram_1"), content)
    with pytest.raises(ValueError):
        build(truth, pred_dir)


@pytest.mark.parametrize(
    ("part", "content"),
    [
        pytest.param(
            "labels",
            {
                "options": [
                    {
                        "nodes": [
                            {"node_number": 1, "labels": ["screening"]},
                            {"node_number": 3, "labels": ["wrong"]},
                        ]
                    }
                ]
            },
            id="labels-node-numbers-do-not-match",
        ),
        pytest.param(
            "flow",
            {
                "options": [
                    {
                        "nodes": [
                            {"node_number": 1, "points_to": [3]},
                            {"node_number": 3, "points_to": [1]},
                        ]
                    }
                ]
            },
            id="flow-node-numbers-do-not-match",
        ),
    ],
)
def test_node_numbers_must_agree_across_parts(
    tmp_path: Path, part: str, content: dict[str, Any]
) -> None:
    truth, pred_dir = setup_files(tmp_path)
    write_json(truth.file(part, "diagram_1"), content)
    with pytest.raises(ValueError):
        build(truth, pred_dir)


# --- check_true_diagram_component_generic_structure (run for every part) ----------------------


@pytest.mark.parametrize("part", TRUTH_PARTS)
@pytest.mark.parametrize(
    ("content", "error"),
    [
        pytest.param([], TypeError, id="json-not-dict"),
        pytest.param({"not_options": []}, ValueError, id="wrong-top-level-key"),
        pytest.param({"options": []}, ValueError, id="empty-options"),
        pytest.param({"options": ["not a dict"]}, TypeError, id="option-not-dict"),
        # Flowde's constructor compares the option counts of the four parts before it checks
        # types: len("not a list") is 10 options against 1, a ValueError (differential test).
        pytest.param({"options": "not a list"}, ValueError, id="options-not-list"),
        pytest.param({"options": "x"}, TypeError, id="options-one-char-string"),
    ],
)
def test_ground_truth_file_generic_structure(
    tmp_path: Path, part: str, content: Any, error: type[Exception]
) -> None:
    truth, pred_dir = setup_files(tmp_path)
    write_json(truth.file(part, "diagram_1"), content)
    with pytest.raises(error):
        build(truth, pred_dir)


# --- check_true_diagram_generic_nodes_list_structure (nodes, labels, flow) --------------------

NODE_BASED_PARTS = ("nodes", "labels", "flow")


def _node_part(part: str, nodes: list[tuple[Any, Any]]) -> dict[str, Any]:
    """One option of a node-based part from (node_number, value) pairs."""
    key = {"nodes": "text", "labels": "labels", "flow": "points_to"}[part]
    return {"options": [{"nodes": [{"node_number": n, key: v} for n, v in nodes]}]}


def _write_node_parts(truth: TruthDirs, by_part: dict[str, list[tuple[Any, Any]]]) -> None:
    for part, nodes in by_part.items():
        write_json(truth.file(part, "diagram_1"), _node_part(part, nodes))


@pytest.mark.parametrize("part", NODE_BASED_PARTS)
def test_option_needs_exactly_the_nodes_key(tmp_path: Path, part: str) -> None:
    truth, pred_dir = setup_files(tmp_path)
    write_json(truth.file(part, "diagram_1"), {"options": [{"not_nodes": []}]})
    with pytest.raises(ValueError):
        build(truth, pred_dir)


@pytest.mark.parametrize(
    ("part", "node_without_number"),
    [
        pytest.param("nodes", {"text": "Node without number"}, id="nodes"),
        pytest.param("labels", {"labels": ["screening"]}, id="labels"),
        pytest.param("flow", {"points_to": [2]}, id="flow"),
    ],
)
def test_node_needs_a_node_number(
    tmp_path: Path, part: str, node_without_number: dict[str, Any]
) -> None:
    truth, pred_dir = setup_files(tmp_path)
    write_json(truth.file(part, "diagram_1"), {"options": [{"nodes": [node_without_number]}]})
    with pytest.raises(ValueError):
        build(truth, pred_dir)


def test_node_number_must_be_an_integer(tmp_path: Path) -> None:
    truth, pred_dir = setup_files(tmp_path)
    _write_node_parts(
        truth,
        {
            "nodes": [("1", "Node 1"), (2, "Node 2")],
            "labels": [("1", []), (2, [])],
            "flow": [("1", [2]), (2, [])],
        },
    )
    with pytest.raises(TypeError):
        build(truth, pred_dir)


@pytest.mark.parametrize(
    "by_part",
    [
        pytest.param(
            {
                "nodes": [(1, "Node 1"), (1, "Node 1 duplicate")],
                "labels": [(1, []), (1, [])],
                "flow": [(1, [1]), (1, [1])],
            },
            id="duplicate-node-numbers",
        ),
        pytest.param(
            {
                "nodes": [(1, "Node 1"), (3, "Node 3")],
                "labels": [(1, []), (3, [])],
                "flow": [(1, [3]), (3, [1])],
            },
            id="non-sequential-node-numbers",
        ),
        pytest.param({"nodes": [], "labels": [], "flow": []}, id="empty-nodes"),
    ],
)
def test_node_numbers_are_unique_sequential_and_present(
    tmp_path: Path, by_part: dict[str, list[tuple[Any, Any]]]
) -> None:
    truth, pred_dir = setup_files(tmp_path)
    _write_node_parts(truth, by_part)
    with pytest.raises(ValueError):
        build(truth, pred_dir)


# --- check_true_{nodes,labels,additional_texts,flow}_structure ----------------------------------


@pytest.mark.parametrize(
    ("part", "content", "error"),
    [
        pytest.param(
            "nodes",
            {
                "options": [
                    {
                        "nodes": [
                            {"node_number": 1, "text": "Node 1", "labels": ["extra"]},
                            {"node_number": 2, "text": "Node 2"},
                        ]
                    }
                ]
            },
            ValueError,
            id="nodes-wrong-node-keys",
        ),
        pytest.param(
            "nodes",
            {
                "options": [
                    {"nodes": [{"node_number": 1, "text": 123}, {"node_number": 2, "text": "B"}]}
                ]
            },
            TypeError,
            id="nodes-text-not-string",
        ),
        pytest.param(
            "labels",
            {
                "options": [
                    {
                        "nodes": [
                            {"node_number": 1, "labels": ["screening"], "text": "extra"},
                            {"node_number": 2, "labels": []},
                        ]
                    }
                ]
            },
            ValueError,
            id="labels-wrong-node-keys",
        ),
        pytest.param(
            "labels",
            {
                "options": [
                    {
                        "nodes": [
                            {"node_number": 1, "labels": "screening"},
                            {"node_number": 2, "labels": []},
                        ]
                    }
                ]
            },
            TypeError,
            id="labels-not-list",
        ),
        pytest.param(
            "labels",
            {
                "options": [
                    {
                        "nodes": [
                            {"node_number": 1, "labels": ["a", 2]},
                            {"node_number": 2, "labels": []},
                        ]
                    }
                ]
            },
            TypeError,
            id="label-not-string",
        ),
        pytest.param(
            "additional_texts",
            {"options": [{"additional_texts": ["Figure 1"], "nodes": []}]},
            ValueError,
            id="additional-texts-wrong-option-keys",
        ),
        pytest.param(
            "additional_texts",
            {"options": [{"additional_texts": "Figure 1"}]},
            TypeError,
            id="additional-texts-not-list",
        ),
        pytest.param(
            "additional_texts",
            {"options": [{"additional_texts": ["Figure 1", 2]}]},
            TypeError,
            id="additional-text-not-string",
        ),
        pytest.param(
            "flow",
            {
                "options": [
                    {
                        "nodes": [
                            {"node_number": 1, "points_to": [2], "text": "extra"},
                            {"node_number": 2, "points_to": [1]},
                        ]
                    }
                ]
            },
            ValueError,
            id="flow-wrong-node-keys",
        ),
        pytest.param(
            "flow",
            {
                "options": [
                    {
                        "nodes": [
                            {"node_number": 1, "points_to": 2},
                            {"node_number": 2, "points_to": [1]},
                        ]
                    }
                ]
            },
            TypeError,
            id="points-to-not-list",
        ),
        pytest.param(
            "flow",
            {
                "options": [
                    {
                        "nodes": [
                            {"node_number": 1, "points_to": [2, "1"]},
                            {"node_number": 2, "points_to": [1]},
                        ]
                    }
                ]
            },
            TypeError,
            id="points-to-item-not-int",
        ),
        pytest.param(
            "flow",
            {
                "options": [
                    {
                        "nodes": [
                            {"node_number": 1, "points_to": [2, 2]},
                            {"node_number": 2, "points_to": [1]},
                        ]
                    }
                ]
            },
            ValueError,
            id="duplicate-edges",
        ),
        pytest.param(
            "flow",
            {
                "options": [
                    {
                        "nodes": [
                            {"node_number": 1, "points_to": []},
                            {"node_number": 2, "points_to": []},
                        ]
                    }
                ]
            },
            ValueError,
            id="isolated-nodes",
        ),
    ],
)
def test_ground_truth_part_contents(
    tmp_path: Path, part: str, content: dict[str, Any], error: type[Exception]
) -> None:
    truth, pred_dir = setup_files(tmp_path)
    write_json(truth.file(part, "diagram_1"), content)
    with pytest.raises(error):
        build(truth, pred_dir)


def test_a_self_loop_keeps_a_single_ground_truth_node_in_the_flow(tmp_path: Path) -> None:
    """Flowde's matching tests use one-node options that point to themselves; they are valid."""
    truth = write_truth(tmp_path / "truth", {"diagram_1": [option([tn(1, "Alpha", ["a"], [1])])]})
    pred_dir = write_preds(
        tmp_path / "pred",
        {"diagram_1": pred_diagram([pred_node(1, "Alpha", ["a"], [1])], ["Figure 1"])},
    )
    assert build(truth, pred_dir).avg_flow_jaccard() == 1.0


# --- check_pred_structure / validate_pred_diagram_sources ---------------------------------------


def _valid_pred_content(
    text: bool, labels: bool, additional_texts: bool, flow: bool
) -> dict[str, Any]:
    content: dict[str, Any] = {}
    if text or labels or flow:
        nodes = []
        for number in (1, 2):
            node: dict[str, Any] = {"node_number": number}
            if text:
                node["text"] = f"Node {number}"
            if labels:
                node["labels"] = [f"label {number}", "shared label"]
            if flow:
                node["points_to"] = [2] if number == 1 else []
            nodes.append(node)
        content["nodes"] = nodes
    if additional_texts:
        content["additional_texts"] = ["Figure 1", "Trial flow"]
    return content


STRUCTURES = [
    pytest.param(True, False, False, False, id="nodes-only"),
    pytest.param(False, True, False, False, id="labels-only"),
    pytest.param(False, False, True, False, id="additional-texts-only"),
    pytest.param(False, False, False, True, id="flow-only"),
    pytest.param(True, True, False, False, id="nodes-and-labels"),
    pytest.param(True, False, True, False, id="nodes-and-additional-texts"),
    pytest.param(True, False, False, True, id="nodes-and-flow"),
    pytest.param(False, True, True, False, id="labels-and-additional-texts"),
    pytest.param(False, True, False, True, id="labels-and-flow"),
    pytest.param(False, False, True, True, id="additional-texts-and-flow"),
    pytest.param(True, True, True, False, id="nodes-labels-additional-texts"),
    pytest.param(True, True, False, True, id="nodes-labels-flow"),
    pytest.param(True, False, True, True, id="nodes-additional-texts-flow"),
    pytest.param(False, True, True, True, id="labels-additional-texts-flow"),
    pytest.param(True, True, True, True, id="all-benchmarks"),
]


@pytest.mark.parametrize(("text", "labels", "additional_texts", "flow"), STRUCTURES)
def test_valid_prediction_structures(
    tmp_path: Path, text: bool, labels: bool, additional_texts: bool, flow: bool
) -> None:
    """Every structure Flowde's checker accepts; the benchmark itself needs node text."""
    truth = write_truth(
        tmp_path / "truth",
        {"diagram_1": [option([tn(1, "Node 1", ["label 1"], [2]), tn(2, "Node 2", ["label 2"])])]},
    )
    pred_dir = write_preds(
        tmp_path / "pred", {"diagram_1": _valid_pred_content(text, labels, additional_texts, flow)}
    )
    if not text:
        with pytest.raises(ValueError):
            build(truth, pred_dir)
        return
    benchmark = build(truth, pred_dir)
    methods = set(benchmark.capabilities.available_methods)
    assert ("node_and_label_matches" in methods) is labels
    assert ("all_flow_scores" in methods) is flow
    assert ("additional_text_matches" in methods) is additional_texts
    assert benchmark.total_node_text_cost() == 0


def test_nested_and_non_json_files_are_ignored(tmp_path: Path) -> None:
    truth, pred_dir = setup_files(tmp_path)
    write_json(pred_dir / "nested" / "bad_nested.json", {"wrong_top_level_key": []})
    (pred_dir / "notes.txt").write_text("not json", encoding="utf-8")
    for part in TRUTH_PARTS:
        write_json(truth.part(part) / "nested" / "ignored.json", {})
        (truth.part(part) / "not_included.txt").write_text("not json", encoding="utf-8")
    benchmark = build(truth, pred_dir)
    assert [m.parent_img_code for m in benchmark.node_matches()] == ["diagram_1"]


def _with_text(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give every node a text so that the listed fault is the only one."""
    return [{"text": f"Node {n['node_number']}", **n} for n in nodes]


@pytest.mark.parametrize(
    ("content", "error"),
    [
        pytest.param({"wrong_top_level_key": []}, ValueError, id="wrong-top-level-key"),
        pytest.param(
            {"nodes": [], "additional_texts": [], "extra": []}, ValueError, id="extra-top-level-key"
        ),
        pytest.param({"nodes": "not a list"}, TypeError, id="nodes-not-list"),
        pytest.param(
            {"nodes": [{"node_number": "1", "text": "Node 1"}]}, TypeError, id="node-number-not-int"
        ),
        pytest.param({"nodes": [{"node_number": 1, "text": 123}]}, TypeError, id="text-not-string"),
        pytest.param(
            {"nodes": _with_text([{"node_number": 1, "labels": "screening"}])},
            TypeError,
            id="labels-not-list",
        ),
        pytest.param(
            {"nodes": _with_text([{"node_number": 1, "labels": [123]}])},
            TypeError,
            id="label-not-string",
        ),
        pytest.param(
            {"nodes": _with_text([{"node_number": 1, "points_to": "2"}])},
            TypeError,
            id="flow-points-to-not-list",
        ),
        pytest.param(
            {"nodes": _with_text([{"node_number": 1, "points_to": ["2"]}])},
            TypeError,
            id="flow-points-to-item-not-int",
        ),
        pytest.param(
            {"nodes": _with_text([{"node_number": 1}]), "additional_texts": "Figure 1"},
            TypeError,
            id="additional-texts-not-list",
        ),
        pytest.param(
            {"nodes": _with_text([{"node_number": 1}]), "additional_texts": ["Figure 1", 123]},
            TypeError,
            id="additional-text-not-string",
        ),
        pytest.param(
            {
                "nodes": _with_text(
                    [{"node_number": 1, "points_to": [3]}, {"node_number": 2, "points_to": []}]
                )
            },
            ValueError,
            id="flow-invalid-pointed-to-node",
        ),
        pytest.param(
            {
                "nodes": [
                    {"node_number": 1, "text": "Node 1"},
                    {"node_number": 1, "text": "Duplicate"},
                ]
            },
            ValueError,
            id="duplicate-node-numbers-nodes-only",
        ),
        pytest.param(
            {
                "nodes": _with_text(
                    [
                        {"node_number": 1, "labels": ["screening"]},
                        {"node_number": 1, "labels": ["duplicate"]},
                    ]
                )
            },
            ValueError,
            id="duplicate-node-numbers-labels-only",
        ),
        pytest.param(
            {
                "nodes": _with_text(
                    [{"node_number": 1, "points_to": []}, {"node_number": 1, "points_to": []}]
                )
            },
            ValueError,
            id="duplicate-node-numbers-flow-only",
        ),
        pytest.param(
            {
                "nodes": [
                    pred_node(1, "Node 1", ["screening"], [2]),
                    pred_node(2, "Node 2", ["randomisation"], []),
                ],
                "additional_texts": "Figure 1",
            },
            TypeError,
            id="all-benchmarks-additional-texts-not-list",
        ),
        pytest.param(
            {
                "nodes": [
                    pred_node(1, "Node 1", ["screening"], [2]),
                    pred_node(2, "Node 2", ["randomisation"], []),
                ],
                "additional_texts": ["Figure 1", 123],
            },
            TypeError,
            id="all-benchmarks-additional-text-item-not-string",
        ),
        pytest.param(
            {
                "nodes": [
                    pred_node(1, "Node 1", ["screening"], [3]),
                    pred_node(2, "Node 2", ["randomisation"], []),
                ],
                "additional_texts": ["Figure 1"],
            },
            ValueError,
            id="all-benchmarks-invalid-pointed-to-node",
        ),
    ],
)
def test_invalid_prediction_structures(
    tmp_path: Path, content: Any, error: type[Exception]
) -> None:
    truth, pred_dir = setup_files(tmp_path, preds={"diagram_1": content})
    with pytest.raises(error):
        build(truth, pred_dir)


@pytest.mark.parametrize(
    ("node_fields", "missing_key"),
    [
        pytest.param({"text": "Node"}, "text", id="node-text"),
        pytest.param({"labels": ["screening"]}, "labels", id="labels"),
        pytest.param({"points_to": []}, "points_to", id="flow"),
        pytest.param({"text": "Node", "labels": ["s"]}, "text", id="text-labels-missing-text"),
        pytest.param({"text": "Node", "labels": ["s"]}, "labels", id="text-labels-missing-labels"),
        pytest.param({"text": "Node", "points_to": []}, "text", id="text-flow-missing-text"),
        pytest.param({"text": "Node", "points_to": []}, "points_to", id="text-flow-missing-flow"),
        pytest.param({"labels": ["s"], "points_to": []}, "labels", id="labels-flow-missing-labels"),
        pytest.param(
            {"labels": ["s"], "points_to": []}, "points_to", id="labels-flow-missing-flow"
        ),
        pytest.param(
            {"text": "Node", "labels": ["s"], "points_to": []}, "text", id="all-missing-text"
        ),
        pytest.param(
            {"text": "Node", "labels": ["s"], "points_to": []}, "labels", id="all-missing-labels"
        ),
        pytest.param(
            {"text": "Node", "labels": ["s"], "points_to": []}, "points_to", id="all-missing-flow"
        ),
    ],
)
def test_later_prediction_node_with_other_keys(
    tmp_path: Path, node_fields: dict[str, Any], missing_key: str
) -> None:
    later = {"node_number": 2, **node_fields}
    later.pop(missing_key)
    content = {"nodes": [{"node_number": 1, **node_fields}, later]}
    truth, pred_dir = setup_files(tmp_path, preds={"diagram_1": content})
    with pytest.raises(ValueError):
        build(truth, pred_dir)


@pytest.mark.parametrize("missing_key", ["nodes", "additional_texts"])
def test_later_prediction_file_with_other_top_level_keys(tmp_path: Path, missing_key: str) -> None:
    complete = _valid_pred_content(text=True, labels=False, additional_texts=True, flow=False)
    incomplete = {k: v for k, v in complete.items() if k != missing_key}
    stems = ("diagram_1", "diagram_2", "diagram_3")
    truth, pred_dir = setup_files(
        tmp_path,
        stems,
        preds={"diagram_1": complete, "diagram_2": complete, "diagram_3": incomplete},
    )
    with pytest.raises(ValueError):
        build(truth, pred_dir, expected=3)


# --- test_load_diagrams.py ----------------------------------------------------------------------


def test_diagrams_are_evaluated_in_sorted_stem_order(tmp_path: Path) -> None:
    truth = write_truth(
        tmp_path / "truth",
        {stem: [BASE_OPTION] for stem in ("b", "a")},
    )
    pred_dir = write_preds(tmp_path / "pred", {"b": base_pred(), "a": base_pred()})
    benchmark = build(truth, pred_dir, expected=2)
    assert [m.parent_img_code for m in benchmark.node_matches()] == ["a", "b"]
    assert [m.node_matches.parent_img_code for m in benchmark.diagram_matches()] == ["a", "b"]


def test_prediction_directory_without_top_level_json_is_rejected(tmp_path: Path) -> None:
    truth, _ = setup_files(tmp_path)
    pred_dir = tmp_path / "empty_pred"
    write_json(pred_dir / "nested" / "nested.json", base_pred())
    (pred_dir / "not_json.txt").write_text("not json", encoding="utf-8")
    with pytest.raises(ValueError):
        build(truth, pred_dir)


def test_ground_truth_directories_without_top_level_json_are_rejected(tmp_path: Path) -> None:
    truth = TruthDirs(tmp_path / "truth")
    for part in TRUTH_PARTS:
        write_json(truth.part(part) / "nested" / "nested.json", {})
    pred_dir = write_preds(tmp_path / "pred", {"diagram_1": base_pred()})
    with pytest.raises(ValueError):
        build(truth, pred_dir)


# --- test_parsing_bench_types.py: the file-loading cases -----------------------------------------


def test_ground_truth_nodes_may_be_listed_in_any_order(tmp_path: Path) -> None:
    """``DiagramOptions.from_true_paths`` pairs the parts by node number, not by position."""
    truth = TruthDirs(tmp_path / "truth")
    write_json(
        truth.file("nodes", "diagram_1"),
        {
            "options": [
                {
                    "nodes": [
                        {"node_number": 2, "text": "Node 2"},
                        {"node_number": 1, "text": "Node 1"},
                    ]
                }
            ]
        },
    )
    write_json(
        truth.file("labels", "diagram_1"),
        {
            "options": [
                {
                    "nodes": [
                        {"node_number": 2, "labels": ["label 2"]},
                        {"node_number": 1, "labels": ["label 1"]},
                    ]
                }
            ]
        },
    )
    write_json(
        truth.file("additional_texts", "diagram_1"),
        {"options": [{"additional_texts": ["Figure 1", "Trial flow"]}]},
    )
    write_json(
        truth.file("flow", "diagram_1"),
        {
            "options": [
                {
                    "nodes": [
                        {"node_number": 2, "points_to": [1]},
                        {"node_number": 1, "points_to": [2]},
                    ]
                }
            ]
        },
    )
    pred_dir = write_preds(
        tmp_path / "pred",
        {
            "diagram_1": pred_diagram(
                [
                    pred_node(1, "Node 1", ["label 1"], [2]),
                    pred_node(2, "Node 2", ["label 2"], [1]),
                ],
                ["Figure 1", "Trial flow"],
            )
        },
    )
    (diagram_match,) = build(truth, pred_dir).diagram_matches()
    true_diagram = diagram_match.true_diagram
    assert true_diagram.diagram_type == "true"
    assert true_diagram.true_option_idx == 0
    assert true_diagram.parent_img_code == "diagram_1"
    assert true_diagram.additional_texts == ["Figure 1", "Trial flow"]
    assert [(n.node_number, n.text, n.labels, n.points_to) for n in true_diagram.nodes] == [
        (1, "Node 1", ["label 1"], [2]),
        (2, "Node 2", ["label 2"], [1]),
    ]
    assert diagram_match.total_text_cost == 0
    assert diagram_match.flow_score.jaccard == 1.0


def test_loaded_prediction_nodes_carry_their_diagram_metadata(tmp_path: Path) -> None:
    truth, pred_dir = setup_files(tmp_path)
    (diagram_match,) = build(truth, pred_dir).diagram_matches()
    pred_diagram_ = diagram_match.pred_diagram
    assert pred_diagram_.parent_img_code == "diagram_1"
    assert pred_diagram_.diagram_type == "pred"
    assert pred_diagram_.true_option_idx is None
    assert [n.parent_img_code for n in pred_diagram_.nodes] == ["diagram_1", "diagram_1"]
    assert [n.diagram_type for n in pred_diagram_.nodes] == ["pred", "pred"]


@pytest.mark.parametrize(
    "bad_node",
    [
        pytest.param({"node_number": 1000, "text": "Node 1"}, id="node-number-too-large"),
        pytest.param({"node_number": 1, "text": ""}, id="empty-text"),
        pytest.param({"node_number": 1, "text": "Node 1", "labels": [""]}, id="empty-label"),
        pytest.param({"node_number": True, "text": "Node 1"}, id="bool-node-number"),
    ],
)
def test_prediction_values_rejected_by_the_strict_node_model(
    tmp_path: Path, bad_node: dict[str, Any]
) -> None:
    """Flowde validates joined predictions with ``Diagram.model_validate``: a ValidationError.

    A JSON ``true`` passes Flowde's ``isinstance(..., int)`` file check and is then refused by
    the strict model, so it too is a ValueError (not the TypeError of a string node number).
    """
    truth, pred_dir = setup_files(tmp_path, preds={"diagram_1": {"nodes": [bad_node]}})
    with pytest.raises(ValueError):
        build(truth, pred_dir)


def test_prediction_empty_additional_text_is_rejected(tmp_path: Path) -> None:
    content = pred_diagram([pred_node(1, "Node 1")], ["Figure 1", ""])
    truth, pred_dir = setup_files(tmp_path, preds={"diagram_1": content})
    with pytest.raises(ValueError):
        build(truth, pred_dir)


@pytest.mark.parametrize(
    ("part", "content"),
    [
        pytest.param(
            "nodes",
            {
                "options": [
                    {"nodes": [{"node_number": 1, "text": ""}, {"node_number": 2, "text": "B"}]}
                ]
            },
            id="empty-node-text",
        ),
        pytest.param(
            "labels",
            {
                "options": [
                    {
                        "nodes": [
                            {"node_number": 1, "labels": [""]},
                            {"node_number": 2, "labels": []},
                        ]
                    }
                ]
            },
            id="empty-label",
        ),
        pytest.param(
            "additional_texts", {"options": [{"additional_texts": [""]}]}, id="empty-additional"
        ),
    ],
)
def test_ground_truth_model_errors_are_wrapped_in_runtime_error(
    tmp_path: Path, part: str, content: dict[str, Any]
) -> None:
    """Flowde's file checks only test that these are strings; the empty string is then refused
    by the ``DiagramOptions`` model inside ``from_true_paths``, which re-raises every error as a
    RuntimeError ("Failed to create DiagramOptions")."""
    truth, pred_dir = setup_files(tmp_path)
    write_json(truth.file(part, "diagram_1"), content)
    with pytest.raises(RuntimeError):
        build(truth, pred_dir)
