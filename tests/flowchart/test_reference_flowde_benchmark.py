"""Flowde's ``ParsingBenchmark`` test cases, reproduced with real files instead of mocks.

Upstream file: EPPI-Centre/Flowde ``tests/unit/test_benchmarks/test_parsing/test_parsing_bench.py``.
Upstream's orchestration tests replace the loaders and matchers with fakes and check which
arguments they receive. We cannot (and need not) patch our internals, so each of those tests
becomes a small dataset whose numbers can only come out right if the method combines the right
diagrams, options and distance function. The two tests that upstream already runs on files
(default vs explicit distance; predictions without node text) keep their inputs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flowde_cases import (
    make_benchmark,
    node_pairs,
    option,
    pred_diagram,
    tn,
    write_preds,
    write_truth,
    zero_distance,
)
from flowde_cases import pred_node as pn

from parsescore.flowchart import (
    ParsingBenchmark,
    ParsingBenchmarkCapabilities,
    PredDiagramStructure,
    levenshtein,
    levenshtein_with_text_normalisation,
)


@pytest.mark.parametrize(
    ("distance_fn", "expected_costs"),
    [
        pytest.param(None, (1, 0, 0), id="omitted-uses-normalised-text"),
        pytest.param(levenshtein, (3, 1, 4), id="explicit-raw-distance"),
        pytest.param(levenshtein_with_text_normalisation, (1, 0, 0), id="explicit-new-name"),
    ],
)
def test_default_and_explicit_text_distances(
    tmp_path: Path, distance_fn: Any, expected_costs: tuple[int, int, int]
) -> None:
    """The spec's default-vs-raw case: (node, label, additional) = (1, 0, 0) vs (3, 1, 4)."""
    benchmark = make_benchmark(
        tmp_path,
        {
            "a": [
                option(
                    [tn(1, "Screened (n = 10)", ["Follow-up"], [2]), tn(2, "Analysed", [], [])],
                    ["Figure 1"],
                )
            ]
        },
        {
            "a": pred_diagram(
                [
                    pn(1, "Screened (n=11)", ["Follow\N{EN DASH}up"], [2]),
                    pn(2, "Analysed", [], []),
                ],
                [" Figure   1 "],
            )
        },
        distance_fn=distance_fn,
    )
    assert (
        benchmark.total_node_text_cost(),
        benchmark.total_label_cost(),
        benchmark.total_additional_text_cost(),
    ) == expected_costs


def two_diagrams(tmp_path: Path, **kwargs: Any) -> ParsingBenchmark:
    """diagram_2 is written first; texts differ everywhere, so only a zero distance is free."""
    truths = {
        "diagram_2": [option([tn(1, "Second", ["b"], [1])], ["Figure 2"])],
        "diagram_1": [option([tn(1, "First", ["a"], [1])], ["Figure 1"])],
    }
    preds = {
        "diagram_2": pred_diagram([pn(1, "2nd", ["bb"], [1])], ["Fig. 2"]),
        "diagram_1": pred_diagram([pn(1, "1st", ["aa"], [1])], ["Fig. 1"]),
    }
    return make_benchmark(tmp_path, truths, preds, **kwargs)


def test_init_loads_and_sorts_diagrams_by_stem(tmp_path: Path) -> None:
    benchmark = two_diagrams(tmp_path, distance_fn=zero_distance)
    assert [d.parent_img_code for d in benchmark.pred_diagrams] == ["diagram_1", "diagram_2"]
    assert [o.parent_img_code for o in benchmark.true_diagrams_options_list] == [
        "diagram_1",
        "diagram_2",
    ]
    assert benchmark.allow_missing_pred_diagrams is False
    assert benchmark.distance_fn is zero_distance


def test_init_keeps_only_predicted_diagrams_when_missing_allowed(tmp_path: Path) -> None:
    truths = {
        stem: [option([tn(1, "Node", [], [1])])] for stem in ("diagram_3", "diagram_2", "diagram_1")
    }
    preds = {stem: pred_diagram([pn(1, "Node")]) for stem in ("diagram_2", "diagram_1")}
    benchmark = make_benchmark(tmp_path, truths, preds, allow_missing=True, expected_num_diagrams=3)
    assert [d.parent_img_code for d in benchmark.pred_diagrams] == ["diagram_1", "diagram_2"]
    assert [o.parent_img_code for o in benchmark.true_diagrams_options_list] == [
        "diagram_1",
        "diagram_2",
    ]
    assert [m.parent_img_code for m in benchmark.node_matches()] == ["diagram_1", "diagram_2"]


def test_every_method_pairs_each_diagram_with_its_truth_and_uses_distance_fn(
    tmp_path: Path,
) -> None:
    """Replaces upstream's call-recording tests of ``diagram_matches``, ``node_matches``,
    ``node_and_label_matches`` and ``additional_text_matches``: with the zero distance every
    cost is 0 although no text agrees, and results follow the sorted stems."""
    benchmark = two_diagrams(tmp_path, distance_fn=zero_distance)
    stems = ["diagram_1", "diagram_2"]
    assert [m.parent_img_code for m in benchmark.node_matches()] == stems
    # Pairing or leaving both nodes unmatched costs 0 either way; the predicted self-loop
    # decides (flow stage), so the pairing itself is determined.
    assert [node_pairs(m) for m in benchmark.node_matches()] == [[(1, 1, 0)], [(1, 1, 0)]]
    assert [m.total_label_error_cost for m in benchmark.node_and_label_matches()] == [0, 0]
    # With every cost 0, pairing the two captions ties with leaving both unmatched, so only
    # the costs and which ground-truth text was used are asserted.
    additional = benchmark.additional_text_matches()
    assert [m.total_cost for m in additional] == [0, 0]
    assert [[r.true_text for r in m.matches if r.true_text] for m in additional] == [
        ["Figure 1"],
        ["Figure 2"],
    ]
    diagram_matches = benchmark.diagram_matches()
    assert [d.pred_diagram.parent_img_code for d in diagram_matches] == stems
    assert [d.true_diagram.parent_img_code for d in diagram_matches] == stems
    assert [d.total_text_cost for d in diagram_matches] == [0, 0]


def test_the_same_files_cost_something_with_levenshtein(tmp_path: Path) -> None:
    """Counter-check of the test above: the default distance does see the differences."""
    benchmark = two_diagrams(tmp_path)
    assert benchmark.total_node_text_cost() > 0
    assert benchmark.total_label_cost() > 0
    assert benchmark.total_additional_text_cost() > 0


def test_additional_texts_are_matched_against_the_option_chosen_by_node_matching(
    tmp_path: Path,
) -> None:
    truths = {
        "diagram_1": [
            option([tn(1, "Wrong", [], [1])], ["Option zero caption"]),
            option([tn(1, "Right", [], [1])], ["Option one caption"]),
        ],
        "diagram_2": [
            option([tn(1, "Right", [], [1])], ["Option zero caption"]),
            option([tn(1, "Wrong", [], [1])], ["Option one caption"]),
        ],
    }
    preds = {stem: pred_diagram([pn(1, "Right")], ["Caption"]) for stem in truths}
    benchmark = make_benchmark(tmp_path, truths, preds, distance_fn=levenshtein)
    assert [m.true_diagram_option_idx for m in benchmark.node_matches()] == [1, 0]
    records = [
        [(r.true_text, r.true_option_idx, r.parent_img_code) for r in m.matches]
        for m in benchmark.additional_text_matches()
    ]
    assert records == [
        [("Option one caption", 1, "diagram_1")],
        [("Option zero caption", 0, "diagram_2")],
    ]


def test_node_matches_with_flow_returns_the_node_matches(tmp_path: Path) -> None:
    benchmark = two_diagrams(tmp_path, distance_fn=levenshtein)
    with_flow = benchmark.node_matches_with_flow()
    assert [node_pairs(m) for m in with_flow] == [node_pairs(m) for m in benchmark.node_matches()]
    assert [m.true_diagram_option_idx for m in with_flow] == [0, 0]


def test_totals_sum_over_diagrams(tmp_path: Path) -> None:
    """Node costs 2 + 3, label costs 4 + 6, additional-text costs 3 + 3 (upstream's numbers)."""
    truths = {
        "diagram_1": [
            option([tn(1, "Screened", ["abcd"], [2]), tn(2, "Included", [], [])], ["Figure 1"])
        ],
        "diagram_2": [
            option([tn(1, "Analysed", ["abcdef"], [2]), tn(2, "Excluded", [], [])], ["Figure 2"])
        ],
    }
    preds = {
        "diagram_1": pred_diagram(
            [pn(1, "Screenedxx", ["wxyz"], [2]), pn(2, "Included", [], [])], ["Fig 1"]
        ),
        "diagram_2": pred_diagram(
            [pn(1, "Analysedxyz", ["uvwxyz"], [2]), pn(2, "Excluded", [], [])], ["Fgr 2"]
        ),
    }
    benchmark = make_benchmark(tmp_path, truths, preds, distance_fn=levenshtein)
    assert [m.total_node_text_cost for m in benchmark.node_matches()] == [2, 3]
    assert benchmark.total_node_text_cost() == 5
    assert [m.total_label_error_cost for m in benchmark.node_and_label_matches()] == [4, 6]
    assert benchmark.total_label_cost() == 10
    assert [m.total_cost for m in benchmark.additional_text_matches()] == [3, 3]
    assert benchmark.total_additional_text_cost() == 6


def test_flow_scores_jaccards_and_their_mean(tmp_path: Path) -> None:
    """Three flowcharts with flow Jaccard 1/4, 3/4 and 1/2; the mean gives each equal weight."""
    chain4 = [tn(1, "A", [], [2]), tn(2, "B", [], [3]), tn(3, "C", [], [4]), tn(4, "D", [], [])]
    chain3 = [tn(1, "A", [], [2]), tn(2, "B", [], [3]), tn(3, "C", [], [])]
    truths = {
        "diagram_1": [option(chain4)],
        "diagram_2": [option(chain4)],
        "diagram_3": [option(chain3)],
    }
    preds = {
        # tp 1 (A→B), fp 1 (A→C), fn 2 (B→C, C→D)
        "diagram_1": pred_diagram(
            [
                pn(1, "A", None, [2, 3]),
                pn(2, "B", None, []),
                pn(3, "C", None, []),
                pn(4, "D", None, []),
            ]
        ),
        # tp 3, fp 1 (A→D)
        "diagram_2": pred_diagram(
            [
                pn(1, "A", None, [2, 4]),
                pn(2, "B", None, [3]),
                pn(3, "C", None, [4]),
                pn(4, "D", None, []),
            ]
        ),
        # tp 1, fn 1 (B→C)
        "diagram_3": pred_diagram(
            [pn(1, "A", None, [2]), pn(2, "B", None, []), pn(3, "C", None, [])]
        ),
    }
    benchmark = make_benchmark(tmp_path, truths, preds, distance_fn=levenshtein)
    scores = benchmark.all_flow_scores()
    assert scores == [m.flow_score for m in benchmark.node_matches_with_flow()]
    assert [(s.tp, s.fp, s.fn) for s in scores] == [(1, 1, 2), (3, 1, 0), (1, 0, 1)]
    assert benchmark.all_flow_jaccard_scores() == [0.25, 0.75, 0.5]
    assert benchmark.avg_flow_jaccard() == 0.5


def _pred_content(labels: bool, flow: bool, additional_texts: bool) -> dict[str, Any]:
    nodes = [
        pn(1, "Node 1", ["label 1"] if labels else None, [2] if flow else None),
        pn(2, "Node 2", ["label 2"] if labels else None, [] if flow else None),
    ]
    return pred_diagram(nodes, ["Figure 1"] if additional_texts else None)


def _structure_benchmark(
    tmp_path: Path, labels: bool, flow: bool, additional_texts: bool
) -> ParsingBenchmark:
    truth = {
        "diagram_1": [option([tn(1, "Node 1", ["label 1"], [2]), tn(2, "Node 2", ["label 2"])])]
    }
    return make_benchmark(
        tmp_path,
        truth,
        {"diagram_1": _pred_content(labels, flow, additional_texts)},
        distance_fn=zero_distance,
    )


@pytest.mark.parametrize(
    ("structure", "method_name", "missing_part"),
    [
        pytest.param(
            (True, True, False), "diagram_matches", "additional_texts", id="diagram-matches"
        ),
        pytest.param((False, False, False), "node_and_label_matches", "labels", id="labels"),
        pytest.param((False, False, False), "total_label_cost", "labels", id="total-label-cost"),
        pytest.param(
            (False, False, False),
            "additional_text_matches",
            "additional_texts",
            id="additional-text-matches",
        ),
        pytest.param(
            (False, False, False),
            "total_additional_text_cost",
            "additional_texts",
            id="total-additional-text-cost",
        ),
        pytest.param((False, False, False), "all_flow_scores", "flow", id="flow-scores"),
        pytest.param(
            (False, False, False), "all_flow_jaccard_scores", "flow", id="flow-jaccard-scores"
        ),
        pytest.param((False, False, False), "avg_flow_jaccard", "flow", id="average-flow-jaccard"),
        pytest.param(
            (False, False, False), "node_matches_with_flow", "flow", id="node-matches-with-flow"
        ),
    ],
)
def test_methods_needing_an_unparsed_part_raise(
    tmp_path: Path, structure: tuple[bool, bool, bool], method_name: str, missing_part: str
) -> None:
    labels, flow, additional_texts = structure
    benchmark = _structure_benchmark(tmp_path, labels, flow, additional_texts)
    assert method_name not in benchmark.capabilities.available_methods
    with pytest.raises(ValueError) as excinfo:
        getattr(benchmark, method_name)()
    assert missing_part in str(excinfo.value)


ALWAYS = {"node_matches", "total_node_text_cost"}
LABEL_METHODS = {"node_and_label_matches", "total_label_cost"}
FLOW_METHODS = {
    "node_matches_with_flow",
    "all_flow_scores",
    "all_flow_jaccard_scores",
    "avg_flow_jaccard",
}
ADDITIONAL_METHODS = {"additional_text_matches", "total_additional_text_cost"}

CAPABILITY_CASES = [
    pytest.param(False, False, False, set(), id="node-text-only"),
    pytest.param(True, False, False, LABEL_METHODS, id="with-labels"),
    pytest.param(False, True, False, FLOW_METHODS, id="with-flow"),
    pytest.param(False, False, True, ADDITIONAL_METHODS, id="with-additional-text"),
    pytest.param(True, True, False, LABEL_METHODS | FLOW_METHODS, id="with-labels-and-flow"),
    pytest.param(
        True, False, True, LABEL_METHODS | ADDITIONAL_METHODS, id="with-labels-and-additional-text"
    ),
    pytest.param(
        False, True, True, FLOW_METHODS | ADDITIONAL_METHODS, id="with-flow-and-additional-text"
    ),
    pytest.param(
        True,
        True,
        True,
        LABEL_METHODS | FLOW_METHODS | ADDITIONAL_METHODS | {"diagram_matches"},
        id="complete-structure",
    ),
]


@pytest.mark.parametrize(("labels", "flow", "additional_texts", "extra_methods"), CAPABILITY_CASES)
def test_available_methods_follow_the_predicted_parts(
    tmp_path: Path, labels: bool, flow: bool, additional_texts: bool, extra_methods: set[str]
) -> None:
    benchmark = _structure_benchmark(tmp_path, labels, flow, additional_texts)
    available = set(benchmark.capabilities.available_methods)
    assert available == ALWAYS | extra_methods
    for name in available:
        getattr(benchmark, name)()  # every advertised method works


@pytest.mark.parametrize(("labels", "flow", "additional_texts", "extra_methods"), CAPABILITY_CASES)
def test_capabilities_from_pred_structure(
    labels: bool, flow: bool, additional_texts: bool, extra_methods: set[str]
) -> None:
    structure = PredDiagramStructure(
        node_text=True, labels=labels, flow=flow, additional_texts=additional_texts
    )
    capabilities = ParsingBenchmarkCapabilities.from_pred_structure(structure)
    assert set(capabilities.available_methods) == ALWAYS | extra_methods


def test_predictions_without_node_text_are_rejected(tmp_path: Path) -> None:
    truth = write_truth(tmp_path / "truth", {"diagram_1": [option([tn(1, "Node 1", [], [1])])]})
    pred_dir = write_preds(
        tmp_path / "preds", {"diagram_1": {"nodes": [{"node_number": 1, "labels": []}]}}
    )
    with pytest.raises(ValueError, match="text"):
        ParsingBenchmark(
            pred_diagrams_dir=pred_dir,
            distance_fn=zero_distance,
            expected_num_diagrams=1,
            **truth.kwargs(),
        )
