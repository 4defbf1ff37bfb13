"""ParsingBenchmark: the seed's example, the spec's worked cases, matching and option rules."""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fc_helpers import Option, benchmark, pred_node, write_preds, write_truth

from parsescore.flowchart import ParsingBenchmark, levenshtein

SEED_DIR = Path(__file__).parent / "seed_example"


def seed_benchmark(**kwargs: object) -> ParsingBenchmark:
    gt = SEED_DIR / "ground-truth"
    return ParsingBenchmark(
        pred_diagrams_dir=SEED_DIR / "predictions",
        true_nodes_dir=gt / "nodes",
        true_labels_dir=gt / "labels",
        true_flow_dir=gt / "flow",
        true_additional_texts_dir=gt / "additional_texts",
        expected_num_diagrams=1,
        **kwargs,  # type: ignore[arg-type]
    )


def test_seed_example_numbers() -> None:
    bench = seed_benchmark()
    assert bench.total_node_text_cost() == 1
    assert bench.total_label_cost() == 1
    assert bench.total_additional_text_cost() == 1
    score = bench.all_flow_scores()[0]
    assert (score.tp, score.fp, score.fn) == (1, 1, 1)
    assert score.precision == score.recall == score.f1 == 0.5
    assert score.jaccard == 1 / 3
    assert score.missing_edges == {(2, 3)}
    assert score.extra_edges == {(1, 3)}
    assert bench.all_flow_jaccard_scores() == [1 / 3]
    assert bench.avg_flow_jaccard() == 1 / 3
    (matches,) = bench.node_matches()
    assert matches.parent_img_code == "example_0"
    assert matches.true_diagram_option_idx == 1
    pairs = [(m.true_node.node_number, m.pred_node.node_number) for m in matches.matches]  # type: ignore[union-attr]
    assert pairs == [(1, 1), (2, 2), (3, 3)]
    assert [m.node_text_cost for m in matches.matches] == [1, 0, 0]
    (dm,) = bench.diagram_matches()
    assert dm.total_text_cost == 3
    assert dm.true_diagram.true_option_idx == 1


def test_seed_code_runs_with_only_the_import_changed(tmp_path: Path) -> None:
    """The seed's snippets, verbatim but for the import line, print the seed's numbers."""
    shutil.copytree(SEED_DIR / "ground-truth", tmp_path / "data" / "ground-truth")
    shutil.copytree(SEED_DIR / "predictions", tmp_path / "results" / "predictions")
    script = """
from pathlib import Path

from parsescore.flowchart import ParsingBenchmark

truth_dir = Path("data/ground-truth")

benchmark = ParsingBenchmark(
    pred_diagrams_dir=Path("results/predictions"),
    true_nodes_dir=truth_dir / "nodes",
    true_labels_dir=truth_dir / "labels",
    true_flow_dir=truth_dir / "flow",
    true_additional_texts_dir=truth_dir / "additional_texts",
    expected_num_diagrams=1,
)
print(benchmark.total_node_text_cost())        # 1
print(benchmark.total_label_cost())            # 1
print(benchmark.total_additional_text_cost())  # 1
score = benchmark.all_flow_scores()[0]
print(score.tp, score.fp, score.fn)  # 1 1 1
print(score.precision)              # 0.5
print(score.recall)                 # 0.5
print(score.f1)                     # 0.5
print(score.jaccard)                # 0.3333333333333333
print(score.missing_edges)          # {(2, 3)}
print(score.extra_edges)            # {(1, 3)}
"""
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:10] == [
        "1.0",
        "1.0",
        "1.0",
        "1 1 1",
        "0.5",
        "0.5",
        "0.5",
        "0.3333333333333333",
        "{(2, 3)}",
        "{(1, 3)}",
    ]


# -- the spec's worked flow cases ---------------------------------------------------------------

A, B, C = "Assessed for eligibility", "Randomised", "Analysed"


@pytest.mark.parametrize(
    ("truth", "pred_nodes", "expected"),
    [
        pytest.param(
            Option([A, B], [(1, 2)]),
            [pred_node(1, A, [2]), pred_node(2, B, []), pred_node(3, "Zzzz extra", [2])],
            (1, 1, 0, 0.5),
            id="extra pred node -> matched node",
        ),
        pytest.param(
            Option([A, B], [(1, 2)]),
            [pred_node(1, A, [3]), pred_node(2, B, []), pred_node(3, "Zzzz extra", [])],
            (0, 1, 1, 0.0),
            id="matched node -> extra pred node",
        ),
        pytest.param(
            Option([A, B, C], [(1, 2), (2, 3)]),
            [pred_node(1, A, [2, 3]), pred_node(2, B, [3]), pred_node(3, C, [])],
            (2, 1, 0, 2 / 3),
            id="extra edge between matched nodes",
        ),
        pytest.param(
            Option([A, B, C], [(1, 2), (2, 3)]),
            [pred_node(1, A, []), pred_node(3, C, [])],
            (0, 0, 2, 0.0),
            id="missing middle node",
        ),
    ],
)
def test_worked_flow_cases(
    tmp_path: Path, truth: Option, pred_nodes: list[dict], expected: tuple
) -> None:
    bench = benchmark(tmp_path, {"d": [truth]}, {"d": {"nodes": pred_nodes}})
    score = bench.all_flow_scores()[0]
    assert (score.tp, score.fp, score.fn, score.jaccard) == expected


def test_unmatched_predicted_endpoints_get_fresh_ids(tmp_path: Path) -> None:
    """Each occurrence of an unmatched endpoint is a new id from 10000 (source before target)."""
    truth = Option([A, B], [(1, 2)])
    pred = [
        pred_node(1, A, [2]),
        pred_node(2, B, []),
        pred_node(3, "Zzzz extra one", [4]),
        pred_node(4, "Yyyy extra two", [3]),
    ]
    score = benchmark(tmp_path, {"d": [truth]}, {"d": {"nodes": pred}}).all_flow_scores()[0]
    assert score.extra_edges == {(10000, 10001), (10002, 10003)}
    assert (score.tp, score.fp, score.fn) == (1, 2, 0)


def test_default_vs_raw_distance(tmp_path: Path) -> None:
    truth = Option(
        ["Screened (n = 10)", "Included"],
        [(1, 2)],
        labels=[["Follow-up"], []],
        additional_texts=["Figure 1"],
    )
    pred = {
        "nodes": [
            pred_node(1, "Screened (n=11)", [2], ["Follow–up"]),
            pred_node(2, "Included", [], []),
        ],
        "additional_texts": [" Figure   1 "],
    }
    default = benchmark(tmp_path / "a", {"d": [truth]}, {"d": pred})
    raw = benchmark(tmp_path / "b", {"d": [truth]}, {"d": pred}, distance_fn=levenshtein)
    costs = [
        (b.total_node_text_cost(), b.total_label_cost(), b.total_additional_text_cost())
        for b in (default, raw)
    ]
    assert costs == [(1, 0, 0), (3, 1, 4)]


# -- unmatched costs, text lists -----------------------------------------------------------------


def test_unmatched_nodes_cost_their_normalised_length(tmp_path: Path) -> None:
    truth = Option([A, B], [(1, 2)])
    pred = {"nodes": [pred_node(1, A), pred_node(2, B), pred_node(3, "  extra   box ")]}
    bench = benchmark(tmp_path, {"d": [truth]}, {"d": pred})
    (nm,) = bench.node_matches()
    extra = nm.matches[-1]
    assert extra.match_type == "unmatched_pred" and extra.true_node is None
    assert extra.node_text_cost == len("extra box")
    assert bench.total_node_text_cost() == len("extra box")


def test_missing_true_node_costs_its_length_and_is_listed_in_order(tmp_path: Path) -> None:
    truth = Option([A, B, C], [(1, 2), (2, 3)])
    bench = benchmark(
        tmp_path, {"d": [truth]}, {"d": {"nodes": [pred_node(9, C), pred_node(4, A)]}}
    )
    (nm,) = bench.node_matches()
    assert [m.match_type for m in nm.matches] == ["match", "unmatched_true", "match"]
    assert [m.pred_node.node_number if m.pred_node else None for m in nm.matches] == [4, None, 9]
    assert bench.total_node_text_cost() == len(B)


def test_label_pair_used_only_when_cheaper_than_two_unmatched(tmp_path: Path) -> None:
    costs = {("extreme", "extreme"): 1000}

    def table_cost(*, true_text: str | None, pred_text: str | None) -> float:
        if true_text is None or pred_text is None:
            return len(true_text or pred_text or "")
        return costs.get(
            (true_text, pred_text), levenshtein(true_text=true_text, pred_text=pred_text)
        )

    truth = Option(["x box", "y box"], [(1, 2)], labels=[["extreme"], []])
    pred = {"nodes": [pred_node(1, "x box", labels=["extreme"]), pred_node(2, "y box", labels=[])]}
    bench = benchmark(tmp_path, {"d": [truth]}, {"d": pred}, distance_fn=table_cost)
    records = bench.node_and_label_matches()[0].matches[0].label_matches.matches  # type: ignore[union-attr]
    assert [(r.true_index, r.pred_index, r.match_type, r.cost) for r in records] == [
        (0, None, "unmatched_true", 7.0),
        (None, 0, "unmatched_pred", 7.0),
    ]
    assert bench.total_label_cost() == 14


# -- matching order: text, then flow, then labels ------------------------------------------------


def test_flow_then_labels_break_text_ties(tmp_path: Path) -> None:
    """The seed's example: four 'Lost to follow-up' nodes told apart by flow, then labels."""
    lost = "Lost to follow-up"
    truth = Option(
        ["Intervention", "Control", lost, lost, lost, lost],
        [(1, 3), (1, 4), (2, 5), (2, 6)],
        labels=[
            [],
            [],
            ["Before treatment"],
            ["During treatment"],
            ["Before treatment"],
            ["During treatment"],
        ],
    )
    # Predicted numbering scrambled; the arms and labels identify each node.
    pred = {
        "nodes": [
            pred_node(1, lost, [], ["During treatment"]),  # control, during -> true 6
            pred_node(2, "Control", [1, 4]),
            pred_node(3, lost, [], ["During treatment"]),  # intervention, during -> true 4
            pred_node(4, lost, [], ["Before treatment"]),  # control, before -> true 5
            pred_node(5, "Intervention", [3, 6]),
            pred_node(6, lost, [], ["Before treatment"]),  # intervention, before -> true 3
        ]
    }
    for node in pred["nodes"]:
        node.setdefault("labels", [])
    bench = benchmark(tmp_path, {"d": [truth]}, {"d": pred})
    (nm,) = bench.node_matches()
    pairs = {m.true_node.node_number: m.pred_node.node_number for m in nm.matches}  # type: ignore[union-attr]
    assert pairs == {1: 5, 2: 2, 3: 6, 4: 3, 5: 4, 6: 1}
    assert bench.total_label_cost() == 0
    assert bench.avg_flow_jaccard() == 1.0


def test_without_flow_or_labels_ties_keep_scipy_order(tmp_path: Path) -> None:
    lost = "Lost to follow-up"
    truth = Option([A, lost, lost], [(1, 2), (1, 3)])
    pred = {"nodes": [pred_node(7, A), pred_node(8, lost), pred_node(9, lost)]}
    (nm,) = benchmark(tmp_path, {"d": [truth]}, {"d": pred}).node_matches()
    assert [(m.true_node.node_number, m.pred_node.node_number) for m in nm.matches] == [  # type: ignore[union-attr]
        (1, 7),
        (2, 8),
        (3, 9),
    ]


# -- option choice ------------------------------------------------------------------------------


def _option_choice(tmp_path: Path, options: list[Option], pred: dict) -> int:
    bench = benchmark(tmp_path, {"d": options}, {"d": pred})
    return bench.node_matches()[0].true_diagram_option_idx


def test_option_choice_lowest_text_cost_first(tmp_path: Path) -> None:
    options = [Option([A, "Randomised (n = 9)"], [(1, 2)]), Option([A, B], [(2, 1)])]
    pred = {"nodes": [pred_node(1, A, [2]), pred_node(2, B, [])]}
    assert _option_choice(tmp_path, options, pred) == 1  # text beats flow


def test_option_choice_flow_breaks_text_ties(tmp_path: Path) -> None:
    options = [Option([A, B], [(2, 1)]), Option([A, B], [(1, 2)])]
    pred = {"nodes": [pred_node(1, A, [2]), pred_node(2, B, [])]}
    assert _option_choice(tmp_path, options, pred) == 1


def test_option_choice_flow_ignored_when_not_predicted(tmp_path: Path) -> None:
    options = [
        Option([A, B], [(2, 1)], labels=[["x"], []]),
        Option([A, B], [(1, 2)], labels=[["y"], []]),
    ]
    pred = {"nodes": [pred_node(1, A, labels=["x"]), pred_node(2, B, labels=[])]}
    assert _option_choice(tmp_path, options, pred) == 0  # labels decide, flow is not parsed


def test_option_choice_labels_then_additional_texts_then_first(tmp_path: Path) -> None:
    pred = {
        "nodes": [pred_node(1, A, [2], ["Week 12"]), pred_node(2, B, [], [])],
        "additional_texts": ["Figure 2"],
    }
    by_labels = [
        Option([A, B], [(1, 2)], labels=[["Week 52"], []], additional_texts=["Figure 2"]),
        Option([A, B], [(1, 2)], labels=[["Week 12"], []], additional_texts=["Figure 9"]),
    ]
    assert _option_choice(tmp_path / "labels", by_labels, pred) == 1
    by_additional = [
        Option([A, B], [(1, 2)], labels=[["Week 12"], []], additional_texts=["Figure 9"]),
        Option([A, B], [(1, 2)], labels=[["Week 12"], []], additional_texts=["Figure 2"]),
    ]
    assert _option_choice(tmp_path / "additional", by_additional, pred) == 1
    all_equal = [
        Option([A, B], [(1, 2)], labels=[["Week 12"], []], additional_texts=["Figure 2"]),
        Option([A, B], [(1, 2)], labels=[["Week 12"], []], additional_texts=["Figure 2"]),
    ]
    assert _option_choice(tmp_path / "first", all_equal, pred) == 0


# -- separately parsed parts, missing predictions, custom distances ------------------------------


def test_separately_parsed_parts_equal_a_combined_prediction(tmp_path: Path) -> None:
    truth = {
        "d": [
            Option([A, B, C], [(1, 2), (2, 3)], labels=[["x"], [], ["y"]], additional_texts=["Fig"])
        ]
    }
    combined = {
        "nodes": [
            pred_node(3, C, [], ["y"]),
            pred_node(1, A, [2], ["x"]),
            pred_node(2, "Randomized", [3], []),
        ],
        "additional_texts": ["Fig."],
    }
    whole = benchmark(tmp_path / "whole", truth, {"d": combined})
    parts_root = tmp_path / "parts"
    text_dir = write_preds(
        parts_root / "text",
        {
            "d": {
                "nodes": [
                    {"node_number": n["node_number"], "text": n["text"]} for n in combined["nodes"]
                ]
            }
        },
    )
    label_dir = write_preds(
        parts_root / "labels",
        {
            "d": {
                "nodes": [
                    {"node_number": n["node_number"], "labels": n["labels"]}
                    for n in combined["nodes"]
                ]
            }
        },
    )
    flow_dir = write_preds(
        parts_root / "flow",
        {
            "d": {
                "nodes": [
                    {"node_number": n["node_number"], "points_to": n["points_to"]}
                    for n in combined["nodes"]
                ]
            }
        },
    )
    extra_dir = write_preds(parts_root / "additional", {"d": {"additional_texts": ["Fig."]}})
    split = benchmark(parts_root, truth, None, pred_dirs=[label_dir, text_dir, flow_dir, extra_dir])
    for method in (
        "total_node_text_cost",
        "total_label_cost",
        "total_additional_text_cost",
        "all_flow_jaccard_scores",
    ):
        assert getattr(split, method)() == getattr(whole, method)()
    assert split.capabilities.available_methods == whole.capabilities.available_methods

    only_text_labels = ParsingBenchmark(
        pred_diagrams_dir=[text_dir, label_dir],
        true_nodes_dir=parts_root / "ground-truth" / "nodes",
        true_labels_dir=parts_root / "ground-truth" / "labels",
        true_flow_dir=parts_root / "ground-truth" / "flow",
        true_additional_texts_dir=parts_root / "ground-truth" / "additional_texts",
        expected_num_diagrams=1,
    )
    assert only_text_labels.capabilities.available_methods == (
        "node_matches",
        "total_node_text_cost",
        "node_and_label_matches",
        "total_label_cost",
    )
    with pytest.raises(ValueError, match="Missing required components: flow"):
        only_text_labels.all_flow_scores()
    with pytest.raises(ValueError, match="additional_texts"):
        only_text_labels.total_additional_text_cost()


def test_missing_predictions_allowed_only_when_asked(tmp_path: Path) -> None:
    truth = {
        "a": [Option([A, B], [(1, 2)])],
        "b": [Option([A, C], [(1, 2)])],
    }
    preds = {"b": {"nodes": [pred_node(1, A, [2]), pred_node(2, C, [])]}}
    with pytest.raises(ValueError, match="expected 2 predicted flowcharts"):
        benchmark(tmp_path / "strict", truth, preds)
    bench = benchmark(tmp_path / "lenient", truth, preds, allow_missing_pred_diagrams=True)
    assert [nm.parent_img_code for nm in bench.node_matches()] == ["b"]
    assert bench.missing_pred_diagrams == ["a"]
    assert bench.avg_flow_jaccard() == 1.0


def test_results_follow_stem_order_and_range_indices(tmp_path: Path) -> None:
    truth = {s: [Option([A, B], [(1, 2)])] for s in ("c", "a", "b")}
    preds = {s: {"nodes": [pred_node(1, A, [2]), pred_node(2, B, [])]} for s in truth}
    bench = benchmark(tmp_path, truth, preds)
    assert [nm.parent_img_code for nm in bench.node_matches()] == ["a", "b", "c"]
    assert [nm.parent_img_code for nm in bench.node_matches((1, None))] == ["b", "c"]
    assert bench.node_matches((2, 1)) == []


def test_custom_distance_function(tmp_path: Path) -> None:
    def exact_match_cost(*, true_text: str | None, pred_text: str | None) -> int:
        return 0 if (true_text or "") == (pred_text or "") else 1

    truth = {"d": [Option([A, B], [(1, 2)])]}
    preds = {"d": {"nodes": [pred_node(1, A + "!", [2]), pred_node(2, B, [])]}}
    assert (
        benchmark(tmp_path, truth, preds, distance_fn=exact_match_cost).total_node_text_cost() == 1
    )


@pytest.mark.parametrize("bad", [-1.0, math.inf, math.nan])
def test_invalid_distance_values_are_rejected(tmp_path: Path, bad: float) -> None:
    def broken(*, true_text: str | None, pred_text: str | None) -> float:
        return bad

    truth = {"d": [Option([A, B], [(1, 2)])]}
    preds = {"d": {"nodes": [pred_node(1, A, [2]), pred_node(2, B, [])]}}
    bench = benchmark(tmp_path, truth, preds, distance_fn=broken)
    with pytest.raises(ValueError, match="finite, non-negative"):
        bench.total_node_text_cost()


def test_avg_flow_jaccard_of_nothing_is_an_error(tmp_path: Path) -> None:
    truth = {"a": [Option([A, B], [(1, 2)])]}
    gt = write_truth(tmp_path, truth)
    preds = write_preds(tmp_path / "p", {"other": {"nodes": [pred_node(1, A, [])]}})
    with pytest.raises(ValueError, match="without ground truth"):
        ParsingBenchmark(
            pred_diagrams_dir=preds,
            true_nodes_dir=gt / "nodes",
            true_labels_dir=gt / "labels",
            true_flow_dir=gt / "flow",
            true_additional_texts_dir=gt / "additional_texts",
            expected_num_diagrams=1,
            allow_missing_pred_diagrams=True,
        )


def test_matching_is_computed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import parsescore.flowchart.benchmark as module

    calls = []
    real = module.match_nodes

    def counting(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "match_nodes", counting)
    bench = seed_benchmark()
    bench.total_node_text_cost()
    bench.total_label_cost()
    bench.total_additional_text_cost()
    bench.avg_flow_jaccard()
    bench.diagram_matches()
    assert len(calls) == 1
