"""Flowde's matching test cases, reproduced through ``ParsingBenchmark``'s public methods.

Upstream file: EPPI-Centre/Flowde,
``tests/unit/test_benchmarks/test_parsing/test_match_diagrams.py``.
Upstream calls ``match_texts_lists``, ``match_nodes_single_option``, ``match_nodes``,
``match_node_labels``, ``match_additional_texts``, ``match_single_diagram`` and ``match_diagrams``
on in-memory objects. Here each case is written as files and read back through
``node_matches()``, ``node_and_label_matches()``, ``additional_text_matches()`` and
``diagram_matches()``:

- text-list matching is observed through additional texts (the same routine matches labels);
- a single-option ``match_nodes_single_option`` case is a flowchart with one ground-truth option;
- a hand-built ``NodeMatches`` given to ``match_node_labels`` becomes a flowchart whose node
  matching produces exactly those pairs (where a pair had to be left unmatched, the distance
  function forbids pairing those two node texts; see each case).

Inputs and expected numbers are upstream's. Flowde's "edges involving unmatched nodes" cases are
the worked cases of the spec (flow tp/fp/fn/Jaccard table); they are here with their edge sets.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flowde_cases import (
    TABLE_COSTS,
    TrueNode,
    benchmark_from_dirs,
    make_benchmark,
    matched,
    node_pairs,
    one_option_benchmark,
    option,
    pair_set,
    pred_diagram,
    table_distance,
    tenth_levenshtein,
    text_records,
    tn,
    truth_part_contents,
    unmatched_pred,
    unmatched_true,
    write_json,
    write_preds,
    write_truth,
)
from flowde_cases import pred_node as pn

from parsescore.flowchart import levenshtein

Distance = Callable[..., float]

# --- match_texts_lists (observed through additional texts) --------------------------------------


def additional_text_benchmark(
    tmp_path: Path, true_texts: list[str], pred_texts: list[str], distance_fn: Distance
):
    return one_option_benchmark(
        tmp_path,
        [tn(1, "Node", [], [1])],
        [pn(1, "Node")],
        true_additional_texts=true_texts,
        pred_additional_texts=pred_texts,
        distance_fn=distance_fn,
    )


@pytest.mark.parametrize(
    "distance_fn",
    [pytest.param(levenshtein, id="levenshtein"), pytest.param(table_distance, id="custom")],
)
def test_two_empty_text_lists_give_no_records(tmp_path: Path, distance_fn: Distance) -> None:
    benchmark = additional_text_benchmark(tmp_path, [], [], distance_fn)
    (matches,) = benchmark.additional_text_matches()
    assert matches.matches == []
    assert matches.total_cost == 0


TEXT_LIST_CASES = [
    pytest.param(
        levenshtein, ["abc"], ["abc"], [matched(0, 0, "abc", "abc", 0)], id="levenshtein-exact"
    ),
    pytest.param(
        table_distance, ["abc"], ["abc"], [matched(0, 0, "abc", "abc", 7)], id="custom-exact"
    ),
    pytest.param(
        levenshtein, ["abc"], [], [unmatched_true(0, "abc", 3)], id="levenshtein-unmatched-true"
    ),
    pytest.param(
        table_distance, ["abc"], [], [unmatched_true(0, "abc", 13)], id="custom-unmatched-true"
    ),
    pytest.param(
        levenshtein, [], ["abcd"], [unmatched_pred(0, "abcd", 4)], id="levenshtein-unmatched-pred"
    ),
    pytest.param(
        table_distance, [], ["abcd"], [unmatched_pred(0, "abcd", 19)], id="custom-unmatched-pred"
    ),
    pytest.param(
        levenshtein,
        ["cat", "dog"],
        ["cat", "dig"],
        [matched(0, 0, "cat", "cat", 0), matched(1, 1, "dog", "dig", 1)],
        id="levenshtein-two-matches-with-one-cost",
    ),
    pytest.param(
        table_distance,
        ["cat", "dog"],
        ["cat", "dig"],
        [matched(0, 0, "cat", "cat", 5), matched(1, 1, "dog", "dig", 8)],
        id="custom-two-matches",
    ),
    pytest.param(
        levenshtein,
        ["cat", "dog", "mouse"],
        ["cat", "dog"],
        [
            matched(0, 0, "cat", "cat", 0),
            matched(1, 1, "dog", "dog", 0),
            unmatched_true(2, "mouse", 5),
        ],
        id="levenshtein-more-true-than-pred",
    ),
    pytest.param(
        table_distance,
        ["cat", "dog", "mouse"],
        ["cat", "dog"],
        [
            matched(0, 0, "cat", "cat", 5),
            matched(1, 1, "dog", "dog", 6),
            unmatched_true(2, "mouse", 17),
        ],
        id="custom-more-true-than-pred",
    ),
    pytest.param(
        levenshtein,
        ["cat", "dog"],
        ["cat", "dog", "mouse"],
        [
            matched(0, 0, "cat", "cat", 0),
            matched(1, 1, "dog", "dog", 0),
            unmatched_pred(2, "mouse", 5),
        ],
        id="levenshtein-more-pred-than-true",
    ),
    pytest.param(
        table_distance,
        ["cat", "dog"],
        ["cat", "dog", "mouse"],
        [
            matched(0, 0, "cat", "cat", 5),
            matched(1, 1, "dog", "dog", 6),
            unmatched_pred(2, "mouse", 23),
        ],
        id="custom-more-pred-than-true",
    ),
    pytest.param(
        table_distance,
        ["allocated", "randomised"],
        ["allocated", "randomised"],
        [
            matched(0, 1, "allocated", "randomised", 1),
            matched(1, 0, "randomised", "allocated", 1),
        ],
        id="custom-distance-changes-assignment",
    ),
    pytest.param(
        levenshtein,
        ["randomised", "allocated"],
        ["allocated", "randomised"],
        [
            matched(0, 1, "randomised", "randomised", 0),
            matched(1, 0, "allocated", "allocated", 0),
        ],
        id="levenshtein-matches-by-text-not-by-index",
    ),
]


@pytest.mark.parametrize(("distance_fn", "true_texts", "pred_texts", "expected"), TEXT_LIST_CASES)
def test_text_list_matching(
    tmp_path: Path,
    distance_fn: Distance,
    true_texts: list[str],
    pred_texts: list[str],
    expected: list[dict[str, Any]],
) -> None:
    benchmark = additional_text_benchmark(tmp_path, true_texts, pred_texts, distance_fn)
    (matches,) = benchmark.additional_text_matches()
    assert text_records(matches) == expected
    assert matches.total_cost == sum(r["cost"] for r in expected)


def test_additional_text_records_carry_diagram_and_option(tmp_path: Path) -> None:
    benchmark = additional_text_benchmark(
        tmp_path, ["True Figure 1", "True caption"], ["Pred Figure 1", "Pred caption"], levenshtein
    )
    (matches,) = benchmark.additional_text_matches()
    assert text_records(matches) == [
        matched(0, 0, "True Figure 1", "Pred Figure 1", 3),
        matched(1, 1, "True caption", "Pred caption", 3),
    ]
    assert [(m.parent_img_code, m.true_option_idx) for m in matches.matches] == [
        ("diagram_1", 0),
        ("diagram_1", 0),
    ]


def test_additional_texts_basic_match(tmp_path: Path) -> None:
    benchmark = additional_text_benchmark(
        tmp_path, ["Figure 1", "Caption"], ["Figure 1", "Other"], levenshtein
    )
    (matches,) = benchmark.additional_text_matches()
    assert [m.match_type for m in matches.matches] == ["match", "match"]
    first = matches.matches[0]
    assert (first.true_text, first.pred_text, first.cost) == ("Figure 1", "Figure 1", 0)


def test_additional_text_matching_needs_predicted_additional_texts(tmp_path: Path) -> None:
    benchmark = one_option_benchmark(
        tmp_path, [tn(1, "Node", [], [1])], [pn(1, "Node")], pred_additional_texts=None
    )
    assert "additional_text_matches" not in benchmark.capabilities.available_methods
    with pytest.raises(ValueError):
        benchmark.additional_text_matches()


@pytest.mark.parametrize("pred_has_additional_texts", [True, False])
def test_additional_text_matching_needs_ground_truth_additional_texts(
    tmp_path: Path, pred_has_additional_texts: bool
) -> None:
    """Ground truth without its additional-texts file cannot be loaded at all."""
    truth = write_truth(tmp_path / "truth", {"diagram_1": [option([tn(1, "Node", [], [1])])]})
    truth.file("additional_texts", "diagram_1").unlink()
    pred_dir = write_preds(
        tmp_path / "pred",
        {
            "diagram_1": pred_diagram(
                [pn(1, "Node")], ["Figure 1"] if pred_has_additional_texts else None
            )
        },
    )
    with pytest.raises(ValueError):
        benchmark_from_dirs(pred_dir, truth, expected_num_diagrams=1)


# --- match_nodes_single_option: minimum text cost, then flow, then labels ----------------------

ALPHA_BETA = [tn(1, "Alpha", ["a"], [2]), tn(2, "Beta", ["b"], [1])]
CAT_DOG_CHAIN = [tn(1, "cat", ["animal"], [2]), tn(2, "dog", ["animal"], [])]
CAT_DOG_CYCLE = [tn(1, "cat", ["animal"], [2]), tn(2, "dog", ["animal"], [1])]
ALLOCATED_RANDOMISED = [
    tn(1, "allocated", ["label 1"], [2]),
    tn(2, "randomised", ["label 2"], [1]),
]
DUPLICATE_PAIR = [
    tn(1, "Duplicate", ["true label 1"], [2]),
    tn(2, "Duplicate", ["true label 2"], []),
]
CAT_PAIR = [tn(1, "cat", ["true label 1"], [2]), tn(2, "cat", ["true label 2"], [])]

SINGLE_OPTION_CASES = [
    pytest.param(
        levenshtein,
        ALPHA_BETA,
        [pn(1, "Beta", ["b"], []), pn(2, "Alpha", ["a"], [1])],
        [(1, 2, 0), (2, 1, 0)],
        0,
        0.5,
        None,
        id="levenshtein-swapped-exact-matches",
    ),
    pytest.param(
        levenshtein,
        CAT_DOG_CHAIN,
        [pn(1, "cat", ["animal"], [2]), pn(2, "dig", ["animal"], [])],
        [(1, 1, 0), (2, 2, 1)],
        1,
        1.0,
        None,
        id="levenshtein-one-imperfect-match",
    ),
    pytest.param(
        table_distance,
        CAT_DOG_CHAIN,
        [pn(1, "cat", ["animal"], []), pn(2, "dig", ["animal"], [1])],
        [(1, 1, 5), (2, 2, 8)],
        13,
        0.0,
        None,
        id="custom-one-imperfect-match",
    ),
    pytest.param(
        table_distance,
        ALLOCATED_RANDOMISED,
        [pn(1, "allocated", ["label 1"], []), pn(2, "randomised", ["label 2"], [1, 2])],
        [(1, 2, 1), (2, 1, 1)],
        2,
        1 / 3,
        None,
        id="custom-distance-changes-assignment",
    ),
    pytest.param(
        levenshtein,
        ALPHA_BETA,
        [pn(1, "Beta", ["b"]), pn(2, "Alpha", ["a"])],
        [(1, 2, 0), (2, 1, 0)],
        0,
        None,
        None,
        id="levenshtein-swapped-exact-matches-pred-flow-not-done",
    ),
    pytest.param(
        table_distance,
        CAT_DOG_CYCLE,
        [pn(1, "cat", ["animal"]), pn(2, "dig", ["animal"])],
        [(1, 1, 5), (2, 2, 8)],
        13,
        None,
        None,
        id="custom-one-imperfect-match-pred-flow-not-done",
    ),
    pytest.param(
        table_distance,
        ALLOCATED_RANDOMISED,
        [pn(1, "allocated", ["label 1"]), pn(2, "randomised", ["label 2"])],
        [(1, 2, 1), (2, 1, 1)],
        2,
        None,
        None,
        id="custom-distance-changes-assignment-pred-flow-not-done",
    ),
    pytest.param(
        levenshtein,
        ALPHA_BETA,
        [pn(1, "Alpha", ["a"], [])],
        [(1, 1, 0), (2, None, 4)],
        4,
        0.0,
        None,
        id="levenshtein-unmatched-true-node",
    ),
    pytest.param(
        table_distance,
        [tn(1, "cat", ["animal"], [2]), tn(2, "mouse", ["animal"], [1])],
        [pn(1, "cat", ["animal"], [])],
        [(1, 1, 5), (2, None, 17)],
        22,
        0.0,
        None,
        id="custom-unmatched-true-node",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Alpha", ["a"], [1])],
        [pn(1, "Alpha", ["a"], []), pn(2, "Beta", ["b"], [])],
        [(1, 1, 0), (None, 2, 4)],
        4,
        0.0,
        None,
        id="levenshtein-unmatched-pred-node",
    ),
    pytest.param(
        table_distance,
        [tn(1, "cat", ["animal"], [1])],
        [pn(1, "cat", ["animal"], []), pn(2, "mouse", ["animal"], [])],
        [(1, 1, 5), (None, 2, 23)],
        28,
        0.0,
        None,
        id="custom-unmatched-pred-node",
    ),
    pytest.param(
        levenshtein,
        ALPHA_BETA,
        [pn(1, "Alpha", None, [2, 1]), pn(2, "Beta", None, [])],
        [(1, 1, 0), (2, 2, 0)],
        0,
        1 / 3,
        None,
        id="levenshtein-pred-labels-not-done-flow-done",
    ),
    pytest.param(
        table_distance,
        CAT_DOG_CHAIN,
        [pn(1, "cat", None, [2, 1]), pn(2, "dog", None, [2, 1])],
        [(1, 1, 5), (2, 2, 6)],
        11,
        1 / 4,
        None,
        id="custom-pred-labels-not-done-flow-done",
    ),
    pytest.param(
        levenshtein,
        ALPHA_BETA,
        [pn(1, "Alpha", ["a"]), pn(2, "Beta", ["b"])],
        [(1, 1, 0), (2, 2, 0)],
        0,
        None,
        None,
        id="levenshtein-pred-labels-done-flow-not-done",
    ),
    pytest.param(
        table_distance,
        CAT_DOG_CYCLE,
        [pn(1, "cat", ["feline"]), pn(2, "dog", ["animal"])],
        [(1, 1, 5), (2, 2, 6)],
        11,
        None,
        None,
        id="custom-pred-labels-done-flow-not-done",
    ),
    pytest.param(
        levenshtein,
        ALPHA_BETA,
        [pn(1, "Alpha"), pn(2, "Beta")],
        [(1, 1, 0), (2, 2, 0)],
        0,
        None,
        None,
        id="levenshtein-pred-labels-and-flow-not-done",
    ),
    pytest.param(
        table_distance,
        CAT_DOG_CYCLE,
        [pn(1, "cat"), pn(2, "dog")],
        [(1, 1, 5), (2, 2, 6)],
        11,
        None,
        None,
        id="custom-pred-labels-and-flow-not-done",
    ),
    pytest.param(
        levenshtein,
        DUPLICATE_PAIR,
        [pn(1, "Duplicate", ["pred label 1"], []), pn(2, "Duplicate", ["pred label 2"], [1])],
        [(1, 2, 0), (2, 1, 0)],
        0,
        1.0,
        {1: (["pred label 2"], [1]), 2: (["pred label 1"], [])},
        id="levenshtein-duplicate-pred-nodes-swapped-to-maximise-flow",
    ),
    pytest.param(
        table_distance,
        CAT_PAIR,
        [pn(1, "cat", ["pred label 1"], []), pn(2, "cat", ["pred label 2"], [1])],
        [(1, 2, 5), (2, 1, 5)],
        10,
        1.0,
        {1: (["pred label 2"], [1]), 2: (["pred label 1"], [])},
        id="custom-duplicate-pred-nodes-swapped-to-maximise-flow",
    ),
    pytest.param(
        levenshtein,
        DUPLICATE_PAIR,
        [pn(1, "Duplicate", ["pred label 1"]), pn(2, "Duplicate", ["pred label 2"])],
        [(1, 1, 0), (2, 2, 0)],
        0,
        None,
        {1: (["pred label 1"], None), 2: (["pred label 2"], None)},
        id="duplicate-pred-nodes-not-swapped-when-pred-flow-not-done",
    ),
    pytest.param(
        levenshtein,
        [
            tn(1, "Start", ["true start"], [2]),
            tn(2, "Duplicate", ["true duplicate 1"], [3, 4]),
            tn(3, "Middle", ["true middle"], [5]),
            tn(4, "Duplicate", ["true duplicate 2"], [5, 6]),
            tn(5, "End", ["true end"], []),
            tn(6, "Duplicate", ["true duplicate 3"], [5]),
        ],
        [
            pn(47, "Middle", ["pred middle"], [91]),
            pn(12, "Duplicate", ["pred duplicate right-for-true-4"], [91, 37]),
            pn(83, "Start", ["pred start"], [64]),
            pn(91, "End", ["pred end"], []),
            pn(64, "Duplicate", ["pred duplicate right-for-true-2"], [47, 12]),
            pn(37, "Duplicate", ["pred duplicate right-for-true-6"], [91]),
        ],
        [(1, 83, 0), (2, 64, 0), (3, 47, 0), (4, 12, 0), (5, 91, 0), (6, 37, 0)],
        0,
        1.0,
        {
            1: (["pred start"], [64]),
            2: (["pred duplicate right-for-true-2"], [47, 12]),
            3: (["pred middle"], [91]),
            4: (["pred duplicate right-for-true-4"], [91, 37]),
            5: (["pred end"], []),
            6: (["pred duplicate right-for-true-6"], [91]),
        },
        id="levenshtein-six-nodes-three-duplicate-pred-nodes-swapped-to-maximise-flow",
    ),
]


@pytest.mark.parametrize(
    (
        "distance_fn",
        "true_nodes",
        "pred_nodes",
        "expected_pairs",
        "expected_total",
        "expected_jaccard",
        "expected_pred_details",
    ),
    SINGLE_OPTION_CASES,
)
def test_single_option_node_matching(
    tmp_path: Path,
    distance_fn: Distance,
    true_nodes: list[TrueNode],
    pred_nodes: list[dict[str, Any]],
    expected_pairs: list[tuple[int | None, int | None, float]],
    expected_total: float,
    expected_jaccard: float | None,
    expected_pred_details: dict[int, tuple[list[str] | None, list[int] | None]] | None,
) -> None:
    benchmark = one_option_benchmark(tmp_path, true_nodes, pred_nodes, distance_fn=distance_fn)
    (node_matches,) = benchmark.node_matches()
    assert node_pairs(node_matches) == expected_pairs
    assert node_matches.total_node_text_cost == expected_total
    assert node_matches.true_diagram_option_idx == 0
    if expected_jaccard is not None:
        assert node_matches.flow_score.jaccard == pytest.approx(expected_jaccard)
        assert benchmark.all_flow_jaccard_scores() == [pytest.approx(expected_jaccard)]
    if expected_pred_details is not None:
        details = {
            m.true_node.node_number: (m.pred_node.labels, m.pred_node.points_to)
            for m in node_matches.matches
            if m.true_node is not None and m.pred_node is not None
        }
        assert details == expected_pred_details


# --- edges involving unmatched nodes (the spec's worked cases) ----------------------------------


@pytest.mark.parametrize(
    ("true_specs", "pred_specs", "true_to_pred", "unmatched_preds", "tp_fp_fn", "jaccard", "edges"),
    [
        pytest.param(
            [(1, "Start", [2]), (2, "End", [])],
            [(10, "Start", [20]), (20, "End", []), (30, "Extra", [10])],
            {1: 10, 2: 20},
            {30},
            (1, 1, 0),
            0.5,
            (set(), {(10000, 1)}),
            id="edge-from-extra-pred-node-to-matched-node",
        ),
        pytest.param(
            [(1, "Start", [2]), (2, "End", [])],
            [(10, "Start", [30]), (20, "End", []), (30, "Extra", [])],
            {1: 10, 2: 20},
            {30},
            (0, 1, 1),
            0.0,
            ({(1, 2)}, {(1, 10000)}),
            id="edge-from-matched-node-to-extra-pred-node",
        ),
        pytest.param(
            [(1, "Start", [2]), (2, "End", [])],
            [
                (10, "Start", [20]),
                (20, "End", []),
                (30, "Extra source", [40]),
                (40, "Extra target", []),
            ],
            {1: 10, 2: 20},
            {30, 40},
            (1, 1, 0),
            0.5,
            (set(), {(10000, 10001)}),
            id="edge-between-extra-pred-nodes",
        ),
        pytest.param(
            [(1, "Start", [2]), (2, "Middle", [3]), (3, "End", [])],
            [(10, "Start", [20, 30]), (20, "Middle", [30]), (30, "End", [])],
            {1: 10, 2: 20, 3: 30},
            set(),
            (2, 1, 0),
            2 / 3,
            (set(), {(1, 3)}),
            id="extra-edge-between-matched-nodes",
        ),
        pytest.param(
            [(1, "Start", [2]), (2, "Middle", [3]), (3, "End", [])],
            [(10, "Start", []), (30, "End", [])],
            {1: 10, 2: None, 3: 30},
            set(),
            (0, 0, 2),
            0.0,
            ({(1, 2), (2, 3)}, set()),
            id="missing-true-node-and-its-edges",
        ),
    ],
)
def test_flow_with_unmatched_nodes(
    tmp_path: Path,
    true_specs: list[tuple[int, str, list[int]]],
    pred_specs: list[tuple[int, str, list[int]]],
    true_to_pred: dict[int, int | None],
    unmatched_preds: set[int],
    tp_fp_fn: tuple[int, int, int],
    jaccard: float,
    edges: tuple[set[tuple[int, int]], set[tuple[int, int]]],
) -> None:
    benchmark = one_option_benchmark(
        tmp_path,
        [
            tn(number, text, [f"true label {number}"], targets)
            for number, text, targets in true_specs
        ],
        [pn(number, text, None, targets) for number, text, targets in pred_specs],
        distance_fn=levenshtein,
    )
    (node_matches,) = benchmark.node_matches_with_flow()
    pairs = pair_set(node_matches)
    assert {t: p for t, p in pairs if t is not None} == true_to_pred
    assert {p for t, p in pairs if t is None} == unmatched_preds
    (score,) = benchmark.all_flow_scores()
    assert (score.tp, score.fp, score.fn) == tp_fp_fn
    assert score.jaccard == pytest.approx(jaccard)
    assert (score.missing_edges, score.extra_edges) == edges


# --- nodes or node text missing ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("true_nodes_missing", "pred_nodes_missing"),
    [
        pytest.param(True, False, id="true-nodes-missing"),
        pytest.param(False, True, id="pred-nodes-missing"),
        pytest.param(True, True, id="both-nodes-missing"),
    ],
)
def test_node_matching_needs_nodes_on_both_sides(
    tmp_path: Path, true_nodes_missing: bool, pred_nodes_missing: bool
) -> None:
    truth = write_truth(tmp_path / "truth", {"diagram_1": [option(ALPHA_BETA)]})
    if true_nodes_missing:
        truth.file("nodes", "diagram_1").unlink()
    nodes = None if pred_nodes_missing else [pn(1, "Alpha", ["a"], [2]), pn(2, "Beta", ["b"], [])]
    pred_dir = write_preds(tmp_path / "pred", {"diagram_1": pred_diagram(nodes, ["Figure 1"])})
    with pytest.raises(ValueError):
        benchmark_from_dirs(pred_dir, truth, expected_num_diagrams=1)


@pytest.mark.parametrize(
    ("true_text_done", "pred_text_done"),
    [
        pytest.param(False, True, id="true-text-not-done"),
        pytest.param(True, False, id="pred-text-not-done"),
        pytest.param(False, False, id="both-text-not-done"),
    ],
)
def test_node_matching_needs_text_on_every_node(
    tmp_path: Path, true_text_done: bool, pred_text_done: bool
) -> None:
    truth = write_truth(tmp_path / "truth", {"diagram_1": [option(ALPHA_BETA)]})
    if not true_text_done:
        contents = truth_part_contents([option(ALPHA_BETA)])["nodes"]
        del contents["options"][0]["nodes"][0]["text"]
        write_json(truth.file("nodes", "diagram_1"), contents)
    first = pn(1, "Alpha", ["a"], [2]) if pred_text_done else pn(1, None, ["a"], [2])
    pred_dir = write_preds(
        tmp_path / "pred",
        {"diagram_1": pred_diagram([first, pn(2, "Beta", ["b"], [])], ["Figure 1"])},
    )
    with pytest.raises(ValueError):
        benchmark_from_dirs(pred_dir, truth, expected_num_diagrams=1)


# --- match_nodes: choosing among ground-truth options ------------------------------------------


def full_pred(nodes: list[dict[str, Any]], additional_texts: list[str] | None = None):
    return pred_diagram(nodes, ["Figure 1"] if additional_texts is None else additional_texts)


@pytest.mark.parametrize(
    ("distance_fn", "options", "pred", "expected_idx", "expected_pairs", "expected_total"),
    [
        pytest.param(
            levenshtein,
            [
                option([tn(1, "Wrong 1", ["label 1"], [2]), tn(2, "Wrong 2", ["label 2"], [1])]),
                option([tn(1, "Node 1", ["label 1"], [2]), tn(2, "Node 2", ["label 2"], [1])]),
            ],
            full_pred([pn(1, "Node 1", ["label 1"], [2]), pn(2, "Node 2", ["label 2"], [])]),
            1,
            [(1, 1, 0), (2, 2, 0)],
            0,
            id="levenshtein-selects-second-option",
        ),
        pytest.param(
            levenshtein,
            [
                option([tn(1, "Alpha", ["label 1"], [2]), tn(2, "Beta", ["label 2"], [1])]),
                option([tn(1, "Gamma", ["label 1"], [2]), tn(2, "Delta", ["label 2"], [1])]),
            ],
            full_pred([pn(10, "Alpha", ["label 1"], [20]), pn(20, "Beta", ["label 2"], [])]),
            0,
            [(1, 10, 0), (2, 20, 0)],
            0,
            id="levenshtein-selects-first-option-with-nonmatching-pred-node-numbers",
        ),
        pytest.param(
            levenshtein,
            [
                option([tn(1, "Alpha", ["label 1"], [2]), tn(2, "Beta", ["label 2"], [1])]),
                option([tn(1, "Alpha", ["label 1"], [2]), tn(2, "Beta", ["label 2"], [1])]),
            ],
            full_pred([pn(1, "Alpha", ["label 1"], [2]), pn(2, "Beta", ["label 2"], [])]),
            0,
            [(1, 1, 0), (2, 2, 0)],
            0,
            id="levenshtein-tie-selects-first-option",
        ),
        pytest.param(
            levenshtein,
            [
                option([tn(1, "Alpha", ["label 1"], [2]), tn(2, "Beta", ["label 2"], [1])]),
                option(
                    [
                        tn(1, "Alpha", ["label 1"], [2]),
                        tn(2, "Beta", ["label 2"], [3]),
                        tn(3, "Gamma", ["label 3"], [1]),
                    ]
                ),
            ],
            full_pred(
                [
                    pn(1, "Alpha", ["label 1"], [2]),
                    pn(2, "Beta", ["label 2"], []),
                    pn(3, "Gamma", ["label 3"], []),
                ]
            ),
            1,
            [(1, 1, 0), (2, 2, 0), (3, 3, 0)],
            0,
            id="levenshtein-selects-option-with-more-nodes-when-it-fits-best",
        ),
        pytest.param(
            table_distance,
            [
                option(
                    [tn(1, "allocated", ["label 1"], [2]), tn(2, "randomised", ["label 2"], [1])]
                ),
                option([tn(1, "cat", ["label 1"], [2]), tn(2, "dog", ["label 2"], [1])]),
            ],
            full_pred([pn(1, "allocated", ["label 1"], [2]), pn(2, "randomised", ["label 2"], [])]),
            0,
            [(1, 2, 1), (2, 1, 1)],
            2,
            id="custom-selects-first-option-with-crossed-assignment",
        ),
        pytest.param(
            table_distance,
            [
                option(
                    [tn(1, "allocated", ["label 1"], [2]), tn(2, "randomised", ["label 2"], [1])]
                ),
                option([tn(1, "cat", ["label 1"], [2]), tn(2, "dog", ["label 2"], [1])]),
            ],
            full_pred([pn(1, "cat", ["label 1"], [2]), pn(2, "dog", ["label 2"], [])]),
            1,
            [(1, 1, 5), (2, 2, 6)],
            11,
            id="custom-selects-second-option",
        ),
    ],
)
def test_option_with_lowest_node_text_cost_is_selected(
    tmp_path: Path,
    distance_fn: Distance,
    options: list[Any],
    pred: dict[str, Any],
    expected_idx: int,
    expected_pairs: list[tuple[int | None, int | None, float]],
    expected_total: float,
) -> None:
    benchmark = make_benchmark(
        tmp_path, {"diagram_1": options}, {"diagram_1": pred}, distance_fn=distance_fn
    )
    (node_matches,) = benchmark.node_matches()
    assert node_matches.true_diagram_option_idx == expected_idx
    assert node_matches.total_node_text_cost == expected_total
    assert node_pairs(node_matches) == expected_pairs


def selection_option(
    texts: tuple[str, str] = ("Node 1", "Node 2"),
    labels: tuple[str, str] = ("label 1", "label 2"),
    points_to: tuple[tuple[int, ...], tuple[int, ...]] = ((2,), ()),
    additional_text: str = "Participant flow diagram",
):
    return option(
        [tn(1, texts[0], [labels[0]], points_to[0]), tn(2, texts[1], [labels[1]], points_to[1])],
        [additional_text],
    )


def selection_pred(
    labels: tuple[str, str] | None = ("label 1", "label 2"),
    points_to: tuple[tuple[int, ...], tuple[int, ...]] | None = ((2,), ()),
    additional_text: str | None = "Participant flow diagram",
) -> dict[str, Any]:
    return pred_diagram(
        [
            pn(
                number,
                f"Node {number}",
                None if labels is None else [labels[number - 1]],
                None if points_to is None else points_to[number - 1],
            )
            for number in (1, 2)
        ],
        None if additional_text is None else [additional_text],
    )


WRONG_LABELS = ("Wrong label 1", "Wrong label 2")
REVERSED_FLOW = ((), (1,))


@pytest.mark.parametrize(
    ("options", "pred", "expected_idx"),
    [
        pytest.param(
            [
                selection_option(
                    labels=WRONG_LABELS, points_to=REVERSED_FLOW, additional_text="Wrong caption"
                ),
                selection_option(texts=("Other node 1", "Other node 2")),
            ],
            selection_pred(),
            0,
            id="node-text-takes-priority-over-all-later-evidence",
        ),
        pytest.param(
            [
                selection_option(points_to=REVERSED_FLOW),
                selection_option(labels=WRONG_LABELS, additional_text="Wrong caption"),
            ],
            selection_pred(),
            1,
            id="flow-breaks-node-text-tie-before-labels-and-additional-text",
        ),
        pytest.param(
            [
                selection_option(additional_text="Wrong caption"),
                selection_option(labels=WRONG_LABELS),
            ],
            selection_pred(),
            0,
            id="labels-break-node-text-and-flow-tie-before-additional-text",
        ),
        pytest.param(
            [selection_option(additional_text="Wrong caption"), selection_option()],
            selection_pred(),
            1,
            id="additional-text-breaks-node-flow-and-label-tie",
        ),
        pytest.param(
            [selection_option(), selection_option()],
            selection_pred(),
            0,
            id="first-option-wins-complete-tie",
        ),
        pytest.param(
            [
                selection_option(labels=WRONG_LABELS),
                selection_option(additional_text="Wrong caption"),
            ],
            selection_pred(points_to=None),
            1,
            id="labels-break-tie-when-flow-not-parsed",
        ),
        pytest.param(
            [selection_option(additional_text="Wrong caption"), selection_option()],
            selection_pred(labels=None),
            1,
            id="additional-text-breaks-tie-when-labels-not-parsed",
        ),
        pytest.param(
            [selection_option(additional_text="Wrong caption"), selection_option()],
            selection_pred(points_to=None),
            1,
            id="additional-text-breaks-tie-when-flow-not-parsed",
        ),
        pytest.param(
            [selection_option(additional_text="Wrong caption"), selection_option()],
            selection_pred(labels=None, points_to=None),
            1,
            id="additional-text-breaks-tie-without-labels-or-flow",
        ),
    ],
)
def test_option_selection_uses_the_available_evidence_in_order(
    tmp_path: Path, options: list[Any], pred: dict[str, Any], expected_idx: int
) -> None:
    benchmark = make_benchmark(
        tmp_path, {"diagram_1": options}, {"diagram_1": pred}, distance_fn=levenshtein
    )
    (node_matches,) = benchmark.node_matches()
    assert node_matches.true_diagram_option_idx == expected_idx


def test_every_option_is_scored_and_the_cheapest_wins(tmp_path: Path) -> None:
    """Upstream mocks the per-option matcher with costs 10, 2 and 7; here the texts cost that."""
    options = [
        option([tn(1, text, ["l"], [1])]) for text in ("abcdefghijklm", "abcde", "abcdefghij")
    ]
    pred = full_pred([pn(1, "abc", ["l"], [1])])
    benchmark = make_benchmark(
        tmp_path, {"diagram_1": options}, {"diagram_1": pred}, distance_fn=levenshtein
    )
    (node_matches,) = benchmark.node_matches()
    assert node_matches.true_diagram_option_idx == 1
    assert node_matches.total_node_text_cost == 2


# --- match_node_labels (through node_and_label_matches) ----------------------------------------


def no_pairs_levenshtein(*, true_text: str | None, pred_text: str | None) -> int:
    """Levenshtein, but pairing two present texts costs 100 more: nothing gets paired."""
    extra = 100 if true_text is not None and pred_text is not None else 0
    return levenshtein(true_text=true_text, pred_text=pred_text) + extra


def table_distance_nodes_apart(*, true_text: str | None, pred_text: str | None) -> int:
    """The cost table, with the two node texts of one case made too far apart to pair."""
    if (true_text, pred_text) == ("Node 1", "Extra node"):
        return 1000
    return table_distance(true_text=true_text, pred_text=pred_text)


LABEL_CASES = [
    pytest.param(
        levenshtein,
        [tn(1, "Node 1", ["screened"], [1])],
        [pn(1, "Node 1", ["screened"])],
        [[matched(0, 0, "screened", "screened", 0)]],
        0,
        id="levenshtein-single-exact-label-match",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Node 1", ["randomised"], [1])],
        [pn(1, "Node 1", ["randomized"])],
        [[matched(0, 0, "randomised", "randomized", 1)]],
        1,
        id="levenshtein-single-imperfect-label-match",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Node 1", ["screened", "excluded"], [1])],
        [pn(1, "Node 1", ["screened"])],
        [[matched(0, 0, "screened", "screened", 0), unmatched_true(1, "excluded", 8)]],
        8,
        id="levenshtein-matched-node-has-extra-true-label",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Node 1", ["screened"], [1])],
        [pn(1, "Node 1", ["screened", "excluded"])],
        [[matched(0, 0, "screened", "screened", 0), unmatched_pred(1, "excluded", 8)]],
        8,
        id="levenshtein-matched-node-has-extra-pred-label",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Node 1", ["screened", "randomised"], [1])],
        [pn(1, "Node 1", ["randomized", "screened"])],
        [
            [
                matched(0, 1, "screened", "screened", 0),
                matched(1, 0, "randomised", "randomized", 1),
            ]
        ],
        1,
        id="levenshtein-labels-reordered",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Node 1", [], [1])],
        [pn(1, "Node 1", [])],
        [[]],
        0,
        id="levenshtein-matched-node-both-label-lists-empty",
    ),
    pytest.param(
        # Upstream has one case per unmatched side; one flowchart with both sides unmatched
        # needs a distance that refuses to pair the two node texts.
        no_pairs_levenshtein,
        [tn(1, "Node 1", ["excluded"], [1])],
        [pn(1, "Extra node", ["extra"])],
        [[unmatched_true(0, "excluded", 8)], [unmatched_pred(0, "extra", 5)]],
        13,
        id="levenshtein-unmatched-true-and-pred-node-labels",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Node 1", ["screened"], [2]), tn(2, "Node two", ["randomised", "excluded"], [1])],
        [
            pn(1, "Node 1", ["screened"]),
            pn(2, "Node tw0", ["randomized"]),
            pn(3, "Extra node", ["extra"]),
        ],
        [
            [matched(0, 0, "screened", "screened", 0)],
            [matched(0, 0, "randomised", "randomized", 1), unmatched_true(1, "excluded", 8)],
            [unmatched_pred(0, "extra", 5)],
        ],
        14,
        id="levenshtein-multiple-node-matches-mixed-label-outcomes",
    ),
    pytest.param(
        table_distance,
        [tn(1, "Node 1", ["cat", "dog"], [1])],
        [pn(1, "Node 1", ["cat", "dig"])],
        [[matched(0, 0, "cat", "cat", 5), matched(1, 1, "dog", "dig", 8)]],
        13,
        id="custom-matched-node-labels-use-custom-costs",
    ),
    pytest.param(
        table_distance,
        [tn(1, "Node 1", ["allocated", "randomised"], [1])],
        [pn(1, "Node 1", ["allocated", "randomised"])],
        [
            [
                matched(0, 1, "allocated", "randomised", 1),
                matched(1, 0, "randomised", "allocated", 1),
            ]
        ],
        2,
        id="custom-distance-changes-label-assignment",
    ),
    pytest.param(
        table_distance_nodes_apart,
        [tn(1, "Node 1", ["mouse"], [1])],
        [pn(1, "Extra node", ["mouse"])],
        [[unmatched_true(0, "mouse", 17)], [unmatched_pred(0, "mouse", 23)]],
        40,
        id="custom-unmatched-true-and-pred-label-costs",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Node 1", ["screened", "randomised"], [2]), tn(2, "Node 2", ["excluded"], [1])],
        [pn(1, "Node 1", ["screened", "randomized"]), pn(2, "Node 2", ["excluded"])],
        [
            [
                matched(0, 0, "screened", "screened", 0),
                matched(1, 1, "randomised", "randomized", 1),
            ],
            [matched(0, 0, "excluded", "excluded", 0)],
        ],
        1,
        id="levenshtein-label-matching-works-when-pred-flow-not-done",
    ),
]


@pytest.mark.parametrize(
    ("distance_fn", "true_nodes", "pred_nodes", "expected_by_record", "expected_total"),
    LABEL_CASES,
)
def test_node_label_matching(
    tmp_path: Path,
    distance_fn: Distance,
    true_nodes: list[TrueNode],
    pred_nodes: list[dict[str, Any]],
    expected_by_record: list[list[dict[str, Any]]],
    expected_total: float,
) -> None:
    benchmark = one_option_benchmark(tmp_path, true_nodes, pred_nodes, distance_fn=distance_fn)
    (node_matches,) = benchmark.node_and_label_matches()
    assert [text_records(m.label_matches) for m in node_matches.matches] == expected_by_record
    assert node_matches.total_label_error_cost == expected_total
    assert benchmark.total_label_cost() == expected_total


def test_unmatched_nodes_have_their_labels_compared_with_nothing(tmp_path: Path) -> None:
    """Upstream checks the label lists handed to the text matcher for each kind of record:
    (true labels, predicted labels) for a pair, (true labels, []) and ([], predicted labels)."""
    benchmark = one_option_benchmark(
        tmp_path,
        [
            tn(1, "Matched true node", ["matched true label"], [2]),
            tn(2, "Unmatched true node", ["unmatched true label"], [1]),
        ],
        [
            pn(1, "Matched pred node", ["matched pred label"]),
            pn(2, "Zzz", ["unmatched pred label"]),
        ],
        distance_fn=lambda *, true_text, pred_text: (
            0
            if (true_text, pred_text) == ("Matched true node", "Matched pred node")
            else no_pairs_levenshtein(true_text=true_text, pred_text=pred_text)
        ),
    )
    (node_matches,) = benchmark.node_and_label_matches()
    assert [m.match_type for m in node_matches.matches] == [
        "match",
        "unmatched_true",
        "unmatched_pred",
    ]
    label_lists = [
        (
            [r.true_text for r in m.label_matches.matches if r.true_text is not None],
            [r.pred_text for r in m.label_matches.matches if r.pred_text is not None],
        )
        for m in node_matches.matches
    ]
    assert label_lists == [
        (["matched true label"], ["matched pred label"]),
        (["unmatched true label"], []),
        ([], ["unmatched pred label"]),
    ]


def test_label_matching_needs_predicted_labels(tmp_path: Path) -> None:
    benchmark = one_option_benchmark(tmp_path, ALPHA_BETA, [pn(1, "Alpha"), pn(2, "Beta")])
    assert "node_and_label_matches" not in benchmark.capabilities.available_methods
    with pytest.raises(ValueError):
        benchmark.node_and_label_matches()


def test_label_matching_needs_ground_truth_labels(tmp_path: Path) -> None:
    truth = write_truth(tmp_path / "truth", {"diagram_1": [option(ALPHA_BETA)]})
    truth.file("labels", "diagram_1").unlink()
    pred_dir = write_preds(
        tmp_path / "pred",
        {"diagram_1": pred_diagram([pn(1, "Alpha", ["a"]), pn(2, "Beta", ["b"])], ["Figure 1"])},
    )
    with pytest.raises(ValueError):
        benchmark_from_dirs(pred_dir, truth, expected_num_diagrams=1)


# --- match_single_diagram / match_diagrams (through diagram_matches) ---------------------------

DIAGRAM_CASES = {
    "levenshtein-selects-best-true-option-with-perfect-match": dict(
        distance_fn=levenshtein,
        options=[
            option(
                [
                    tn(1, "Wrong node 1", ["wrong label 1"], [2]),
                    tn(2, "Wrong node 2", ["wrong label 2"], [1]),
                ],
                ["Wrong Figure"],
            ),
            option(
                [tn(1, "Node 1", ["label 1"], [2]), tn(2, "Node 2", ["label 2"], [1])],
                ["Figure 1"],
            ),
        ],
        pred=full_pred(
            [pn(1, "Node 1", ["label 1"], [2]), pn(2, "Node 2", ["label 2"], [])], ["Figure 1"]
        ),
        idx=1,
        pairs=[(1, 1, 0), (2, 2, 0)],
        node_cost=0,
        labels=[
            [matched(0, 0, "label 1", "label 1", 0)],
            [matched(0, 0, "label 2", "label 2", 0)],
        ],
        label_cost=0,
        additional=[matched(0, 0, "Figure 1", "Figure 1", 0)],
        additional_cost=0,
    ),
    "levenshtein-handles-unmatched-pred-node-labels-and-additional-text-cost": dict(
        distance_fn=levenshtein,
        options=[
            option([tn(1, "Alpha", ["cat"], [1])], ["Figure 1"]),
            option([tn(1, "Wrong", ["dog"], [1])], ["Wrong Figure"]),
        ],
        pred=full_pred([pn(1, "Alpha", ["cat"], []), pn(2, "Beta", ["mouse"], [])], ["Figure X"]),
        idx=0,
        pairs=[(1, 1, 0), (None, 2, 4)],
        node_cost=4,
        labels=[[matched(0, 0, "cat", "cat", 0)], [unmatched_pred(0, "mouse", 5)]],
        label_cost=5,
        additional=[matched(0, 0, "Figure 1", "Figure X", 1)],
        additional_cost=1,
    ),
    "levenshtein-label-costs-and-extra-pred-additional-text": dict(
        distance_fn=levenshtein,
        options=[
            option(
                [tn(1, "Start", ["screened", "randomised"], [2]), tn(2, "End", ["excluded"], [1])],
                ["Caption"],
            )
        ],
        pred=full_pred(
            [pn(1, "Start", ["screened", "randomized"], [2]), pn(2, "End", ["included"], [])],
            ["Caption", "Extra note"],
        ),
        idx=0,
        pairs=[(1, 1, 0), (2, 2, 0)],
        node_cost=0,
        labels=[
            [
                matched(0, 0, "screened", "screened", 0),
                matched(1, 1, "randomised", "randomized", 1),
            ],
            [matched(0, 0, "excluded", "included", 2)],
        ],
        label_cost=3,
        additional=[matched(0, 0, "Caption", "Caption", 0), unmatched_pred(1, "Extra note", 10)],
        additional_cost=10,
    ),
    "custom-distance-used-for-node-label-and-additional-text-matching": dict(
        distance_fn=table_distance,
        options=[
            option(
                [tn(1, "allocated", ["allocated"], [2]), tn(2, "randomised", ["randomised"], [1])],
                ["allocated"],
            ),
            option([tn(1, "cat", ["cat"], [2]), tn(2, "dog", ["dog"], [1])], ["cat"]),
        ],
        pred=full_pred(
            [pn(1, "allocated", ["allocated"], [2]), pn(2, "randomised", ["randomised"], [])],
            ["randomised"],
        ),
        idx=0,
        pairs=[(1, 2, 1), (2, 1, 1)],
        node_cost=2,
        labels=[
            [matched(0, 0, "allocated", "randomised", 1)],
            [matched(0, 0, "randomised", "allocated", 1)],
        ],
        label_cost=2,
        additional=[matched(0, 0, "allocated", "randomised", 1)],
        additional_cost=1,
    ),
    "custom-distance-with-extra-pred-label-and-none-matches-for-additional-text": dict(
        distance_fn=table_distance,
        options=[option([tn(1, "abc", ["abc"], [1])], ["extreme"])],
        pred=full_pred([pn(1, "abc", ["abc", "mouse"], [])], ["extreme"]),
        idx=0,
        pairs=[(1, 1, 7)],
        node_cost=7,
        labels=[[matched(0, 0, "abc", "abc", 7), unmatched_pred(1, "mouse", 23)]],
        label_cost=30,
        additional=[unmatched_true(0, "extreme", 89), unmatched_pred(0, "extreme", 97)],
        additional_cost=186,
    ),
    "levenshtein-unmatched-true-node-labels": dict(
        distance_fn=levenshtein,
        options=[
            option(
                [
                    tn(1, "Start", ["screened"], [2]),
                    tn(2, "Missing true node", ["missing label"], [1]),
                ],
                ["Caption"],
            )
        ],
        pred=full_pred([pn(1, "Start", ["screened"], [])], ["Caption"]),
        idx=0,
        pairs=[(1, 1, 0), (2, None, len("Missing true node"))],
        node_cost=len("Missing true node"),
        labels=[
            [matched(0, 0, "screened", "screened", 0)],
            [unmatched_true(0, "missing label", len("missing label"))],
        ],
        label_cost=len("missing label"),
        additional=[matched(0, 0, "Caption", "Caption", 0)],
        additional_cost=0,
    ),
    "levenshtein-extra-true-additional-text": dict(
        distance_fn=levenshtein,
        options=[
            option(
                [tn(1, "Start", ["screened"], [2]), tn(2, "End", ["included"], [1])],
                ["Caption", "Trial flow"],
            )
        ],
        pred=full_pred(
            [pn(1, "Start", ["screened"], [2]), pn(2, "End", ["included"], [])], ["Caption"]
        ),
        idx=0,
        pairs=[(1, 1, 0), (2, 2, 0)],
        node_cost=0,
        labels=[
            [matched(0, 0, "screened", "screened", 0)],
            [matched(0, 0, "included", "included", 0)],
        ],
        label_cost=0,
        additional=[
            matched(0, 0, "Caption", "Caption", 0),
            unmatched_true(1, "Trial flow", len("Trial flow")),
        ],
        additional_cost=len("Trial flow"),
    ),
    "levenshtein-reordered-labels": dict(
        distance_fn=levenshtein,
        options=[
            option(
                [
                    tn(1, "Start", ["screened", "randomised"], [2]),
                    tn(2, "End", ["excluded", "included"], [1]),
                ],
                ["Caption"],
            )
        ],
        pred=full_pred(
            [
                pn(1, "Start", ["randomized", "screened"], [2]),
                pn(2, "End", ["included", "excluded"], []),
            ],
            ["Caption"],
        ),
        idx=0,
        pairs=[(1, 1, 0), (2, 2, 0)],
        node_cost=0,
        labels=[
            [
                matched(0, 1, "screened", "screened", 0),
                matched(1, 0, "randomised", "randomized", 1),
            ],
            [matched(0, 1, "excluded", "excluded", 0), matched(1, 0, "included", "included", 0)],
        ],
        label_cost=1,
        additional=[matched(0, 0, "Caption", "Caption", 0)],
        additional_cost=0,
    ),
    "levenshtein-duplicate-pred-nodes-swapped-before-label-matching": dict(
        distance_fn=levenshtein,
        options=[option(DUPLICATE_PAIR, ["Caption"])],
        pred=full_pred(
            [
                pn(1, "Duplicate", ["pred label 1"], []),
                pn(2, "Duplicate", ["pred label 2"], [1]),
            ],
            ["Caption"],
        ),
        idx=0,
        pairs=[(1, 2, 0), (2, 1, 0)],
        node_cost=0,
        labels=[
            [matched(0, 0, "true label 1", "pred label 2", 4)],
            [matched(0, 0, "true label 2", "pred label 1", 4)],
        ],
        label_cost=8,
        additional=[matched(0, 0, "Caption", "Caption", 0)],
        additional_cost=0,
    ),
}


def check_diagram_match(
    diagram_match: Any, case: dict[str, Any], stem: str, *, with_indices: bool = True
) -> None:
    def records(expected: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if with_indices:
            return expected
        return [{k: v for k, v in r.items() if not k.endswith("_index")} for r in expected]

    assert diagram_match.pred_diagram.parent_img_code == stem
    assert diagram_match.pred_diagram.diagram_type == "pred"
    assert diagram_match.true_diagram.true_option_idx == case["idx"]
    assert diagram_match.node_matches.true_diagram_option_idx == case["idx"]
    assert node_pairs(diagram_match.node_matches) == case["pairs"]
    assert diagram_match.total_node_text_cost == case["node_cost"]
    assert [
        text_records(m.label_matches, with_indices=with_indices)
        for m in diagram_match.node_matches.matches
    ] == [records(r) for r in case["labels"]]
    assert diagram_match.total_label_error_cost == case["label_cost"]
    assert text_records(
        diagram_match.additional_text_matches, with_indices=with_indices
    ) == records(case["additional"])
    assert diagram_match.total_additional_text_cost == case["additional_cost"]
    assert diagram_match.total_text_cost == (
        case["node_cost"] + case["label_cost"] + case["additional_cost"]
    )


@pytest.mark.parametrize("case_id", list(DIAGRAM_CASES))
def test_diagram_match(tmp_path: Path, case_id: str) -> None:
    case = DIAGRAM_CASES[case_id]
    benchmark = make_benchmark(
        tmp_path,
        {"diagram_1": case["options"]},
        {"diagram_1": case["pred"]},
        distance_fn=case["distance_fn"],
    )
    (diagram_match,) = benchmark.diagram_matches()
    check_diagram_match(diagram_match, case, "diagram_1")


def test_diagram_matches_for_several_diagrams(tmp_path: Path) -> None:
    """Upstream's multi-diagram case: three flowcharts in one run, each with its own choice."""
    second = dict(
        DIAGRAM_CASES["levenshtein-handles-unmatched-pred-node-labels-and-additional-text-cost"]
    )
    second["pred"] = full_pred(
        [pn(10, "Alpha", ["cat"], []), pn(20, "Beta", ["mouse"], [])], ["Figure X"]
    )
    second["pairs"] = [(1, 10, 0), (None, 20, 4)]
    cases = {
        "diagram_1": DIAGRAM_CASES["levenshtein-selects-best-true-option-with-perfect-match"],
        "diagram_2": second,
        "diagram_3": DIAGRAM_CASES["levenshtein-label-costs-and-extra-pred-additional-text"],
    }
    benchmark = make_benchmark(
        tmp_path,
        {stem: case["options"] for stem, case in cases.items()},
        {stem: case["pred"] for stem, case in cases.items()},
        distance_fn=levenshtein,
    )
    diagram_matches = benchmark.diagram_matches()
    assert len(diagram_matches) == 3
    for (stem, case), diagram_match in zip(cases.items(), diagram_matches, strict=True):
        check_diagram_match(diagram_match, case, stem, with_indices=False)


# --- lexicographic evidence: text cost, then flow, then labels ---------------------------------

LEXICOGRAPHIC_CASES = [
    pytest.param(
        levenshtein,
        [tn(1, "Alpha", ["left"], [2]), tn(2, "Beta", ["right"], [])],
        [pn(10, "Alpha", ["right"], []), pn(20, "Beta", ["left"], [10])],
        {(1, 10), (2, 20)},
        0,
        0.0,
        id="node-text-takes-priority-over-flow-and-labels",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Duplicate", ["left"], [2]), tn(2, "Duplicate", ["right"], [])],
        [pn(10, "Duplicate", ["left"], []), pn(20, "Duplicate", ["right"], [10])],
        {(1, 20), (2, 10)},
        0,
        1.0,
        id="flow-breaks-node-text-tie-before-labels",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "ab", ["left"], [2]), tn(2, "ac", ["right"], [])],
        [pn(10, "ad", None, []), pn(20, "ae", None, [10])],
        {(1, 20), (2, 10)},
        2,
        1.0,
        id="flow-breaks-nonidentical-node-text-tie",
    ),
    pytest.param(
        levenshtein,
        [
            tn(1, "Duplicate", ["one"], [2, 3]),
            tn(2, "Duplicate", ["two"], [3]),
            tn(3, "Duplicate", ["three"], []),
            tn(4, "Duplicate", ["four"], [1]),
        ],
        [
            pn(10, "Duplicate", None, [20, 30]),
            pn(20, "Duplicate", None, [30]),
            pn(30, "Duplicate", None, []),
        ],
        {(1, 10), (2, 20), (3, 30), (4, None)},
        len("Duplicate"),
        0.75,
        id="flow-chooses-which-true-node-is-unmatched",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Duplicate", ["one"], [2]), tn(2, "Duplicate", ["two"], [])],
        [
            pn(10, "Duplicate", None, [20]),
            pn(20, "Duplicate", None, []),
            pn(30, "Duplicate", None, []),
        ],
        {(1, 10), (2, 20), (None, 30)},
        len("Duplicate"),
        1.0,
        id="flow-chooses-which-predicted-node-is-unmatched",
    ),
    pytest.param(
        levenshtein,
        [
            tn(1, "Duplicate", ["unmatched"], [2]),
            tn(2, "Duplicate", ["middle"], [3]),
            tn(3, "Duplicate", ["end"], []),
        ],
        [pn(10, "Duplicate", ["middle"], [20]), pn(20, "Duplicate", ["end"], [])],
        {(1, None), (2, 10), (3, 20)},
        len("Duplicate"),
        0.5,
        id="labels-break-flow-tie-with-an-unmatched-true-node",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Duplicate", ["left"], [2]), tn(2, "Duplicate", ["right"], [1])],
        [pn(10, "Duplicate", ["right"], [20]), pn(20, "Duplicate", ["left"], [10])],
        {(1, 20), (2, 10)},
        0,
        1.0,
        id="labels-break-node-text-and-flow-tie",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Duplicate", ["left"], [2]), tn(2, "Duplicate", ["right"], [1])],
        [pn(10, "Duplicate", ["right"]), pn(20, "Duplicate", ["left"])],
        {(1, 20), (2, 10)},
        0,
        None,
        id="labels-break-node-text-tie-without-flow",
    ),
    pytest.param(
        levenshtein,
        [
            tn(1, "Duplicate", ["left alpha", "left beta"], [2]),
            tn(2, "Duplicate", ["right alpha", "right beta"], []),
        ],
        [
            pn(10, "Duplicate", ["right beta", "right alpha"]),
            pn(20, "Duplicate", ["left beta", "left alpha"]),
        ],
        {(1, 20), (2, 10)},
        0,
        None,
        id="multiple-labels-break-node-text-tie",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Duplicate", ["left"], [2]), tn(2, "Duplicate", ["right"], [])],
        [pn(10, "Duplicate", ["right"], []), pn(20, "Duplicate", ["left"], [])],
        {(1, 20), (2, 10)},
        0,
        0.0,
        id="labels-break-tie-when-parsed-flow-has-no-edges",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "ab", ["first"], [2]), tn(2, "ac", ["second"], [1])],
        [pn(10, "ad", ["second"]), pn(20, "ae", ["first"])],
        {(1, 20), (2, 10)},
        2,
        None,
        id="labels-choose-between-nonidentical-text-optimal-pairs",
    ),
    pytest.param(
        tenth_levenshtein,
        [tn(1, "ab", ["first"], [2]), tn(2, "ac", ["second"], [1])],
        [pn(10, "ad", ["second"]), pn(20, "ae", ["first"])],
        {(1, 20), (2, 10)},
        0.2,
        None,
        id="labels-break-fractional-node-text-cost-tie",
    ),
    pytest.param(
        levenshtein,
        [
            tn(1, "Duplicate", ["one"], [2]),
            tn(2, "Duplicate", ["two"], [3]),
            tn(3, "Duplicate", ["xxxxxxxxxxxxxxxxxxxx"], [1]),
        ],
        [pn(10, "Duplicate", ["one"]), pn(20, "Duplicate", ["two"])],
        {(1, 10), (2, 20), (3, None)},
        len("Duplicate"),
        None,
        id="labels-choose-which-true-node-is-unmatched",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Duplicate", ["a"], [2]), tn(2, "Duplicate", ["b"], [])],
        [
            pn(10, "Duplicate", ["a"]),
            pn(20, "Duplicate", ["b"]),
            pn(30, "Duplicate", ["xxxxxxxxxx"]),
        ],
        {(1, 10), (2, 20), (None, 30)},
        len("Duplicate"),
        None,
        id="labels-choose-which-predicted-node-is-unmatched",
    ),
    pytest.param(
        levenshtein,
        [tn(1, "Alpha", ["label 1"], [2]), tn(2, "Beta", ["label 2"], [])],
        [pn(10, "Alpha"), pn(20, "Beta"), pn(30, "Extra")],
        {(1, 10), (2, 20), (None, 30)},
        len("Extra"),
        None,
        id="text-only-matching-includes-unmatched-predicted-node",
    ),
]


@pytest.mark.parametrize(
    ("distance_fn", "true_nodes", "pred_nodes", "expected_pairs", "text_cost", "jaccard"),
    LEXICOGRAPHIC_CASES,
)
def test_lexicographic_matching(
    tmp_path: Path,
    distance_fn: Distance,
    true_nodes: list[TrueNode],
    pred_nodes: list[dict[str, Any]],
    expected_pairs: set[tuple[int | None, int | None]],
    text_cost: float,
    jaccard: float | None,
) -> None:
    benchmark = one_option_benchmark(tmp_path, true_nodes, pred_nodes, distance_fn=distance_fn)
    (node_matches,) = benchmark.node_matches()
    assert pair_set(node_matches) == expected_pairs
    assert node_matches.total_node_text_cost == pytest.approx(text_cost)
    if jaccard is not None:
        assert node_matches.flow_score.jaccard == pytest.approx(jaccard)


def test_ten_identical_nodes_on_a_cycle(tmp_path: Path) -> None:
    """10! text-optimal matchings, 10 flow-optimal rotations, one of them right by its labels."""
    pred_number_of = {1: 71, 2: 23, 3: 89, 4: 14, 5: 62, 6: 35, 7: 97, 8: 46, 9: 58, 10: 11}
    true_nodes = [tn(k, "Duplicate", [f"node {k}"], [k % 10 + 1]) for k in range(1, 11)]
    pred_nodes = [
        pn(pred_number_of[k], "Duplicate", [f"node {k}"], [pred_number_of[k % 10 + 1]])
        for k in range(10, 0, -1)
    ]
    benchmark = one_option_benchmark(tmp_path, true_nodes, pred_nodes, distance_fn=levenshtein)
    (node_matches,) = benchmark.node_and_label_matches()
    assert {
        m.true_node.node_number: m.pred_node.node_number
        for m in node_matches.matches
        if m.true_node is not None and m.pred_node is not None
    } == pred_number_of
    assert node_matches.total_node_text_cost == 0
    assert node_matches.flow_score.jaccard == pytest.approx(1.0)
    assert node_matches.total_label_error_cost == 0


def test_the_cost_table_is_flowdes() -> None:
    """Guard the transcription of upstream's custom distance (used by many cases above)."""
    assert table_distance(true_text="cat", pred_text="cat") == 5
    assert table_distance(true_text="extreme", pred_text=None) == 89
    assert table_distance(true_text=None, pred_text="extreme") == 97
    assert table_distance(true_text="cat", pred_text="dog") == 83
    assert len(TABLE_COSTS) == 13
