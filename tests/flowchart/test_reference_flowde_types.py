"""Flowde's data-type test cases, reproduced on ``parsescore.flowchart``'s public models.

Upstream file: EPPI-Centre/Flowde
``tests/unit/test_benchmarks/test_parsing/test_parsing_bench_types.py``.

Our ``Node``, ``Diagram``, ``TextListMatch``, ``TextListMatches``, ``NodeMatch``, ``NodeMatches``,
``FlowScores`` and ``DiagramMatch`` take the same fields as Flowde's, so these cases construct
them directly. For pydantic's own checks (strict types, extra fields, missing fields, empty
strings) the test names the pydantic error type; for the models' own rules it expects a
``ValidationError``. Flowde's file-based constructors (``Diagram.from_path``,
``DiagramOptions.from_true_paths``) are covered through the benchmark in
``test_reference_flowde_validation.py``; ``NodeMatches.add``/``get_matched_*_node`` and
``DiagramMatch.validate_diagrams_complete`` are not part of our API (see the report).
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from parsescore.flowchart import (
    Diagram,
    DiagramMatch,
    FlowScores,
    Node,
    NodeMatch,
    NodeMatches,
    TextListMatch,
    TextListMatches,
)


def node_dict(
    number: int = 1,
    text: Any = "Node 1",
    labels: Any = None,
    points_to: Any = None,
    diagram_type: Any = "pred",
    true_option_idx: Any = None,
    parent_img_code: Any = "diagram_1",
) -> dict[str, Any]:
    return {
        "node_number": number,
        "text": text,
        "labels": labels,
        "points_to": points_to,
        "diagram_type": diagram_type,
        "true_option_idx": true_option_idx,
        "parent_img_code": parent_img_code,
    }


def full_node_dict(**overrides: Any) -> dict[str, Any]:
    data = node_dict(labels=["label 1"], points_to=[])
    data.update(overrides)
    return data


def pred_node(number: int = 1, text: str = "Node 1", labels=None, points_to=None, code="diagram_1"):
    return Node.model_validate(node_dict(number, text, labels, points_to, "pred", None, code))


def true_node(
    number: int = 1,
    text: str = "Node 1",
    labels=None,
    points_to=None,
    option_idx=0,
    code="diagram_1",
):
    return Node.model_validate(node_dict(number, text, labels, points_to, "true", option_idx, code))


def pred_diagram(nodes=None, additional_texts=None, code="diagram_1") -> Diagram:
    return Diagram(
        nodes=nodes,
        additional_texts=additional_texts,
        parent_img_code=code,
        diagram_type="pred",
        true_option_idx=None,
    )


def full_pred_diagram(nodes=None, additional_texts=None, code="diagram_1") -> Diagram:
    return pred_diagram(
        nodes
        if nodes is not None
        else [
            pred_node(1, "Pred node 1", ["pred label 1"], [2], code),
            pred_node(2, "Pred node 2", ["pred label 2"], [], code),
        ],
        additional_texts if additional_texts is not None else ["Pred Figure 1"],
        code,
    )


def true_diagram(nodes=None, additional_texts=None, code="diagram_1", option_idx=0) -> Diagram:
    return Diagram(
        nodes=nodes
        if nodes is not None
        else [
            true_node(1, "True node 1", ["true label 1"], [2], option_idx, code),
            true_node(2, "True node 2", ["true label 2"], [1], option_idx, code),
        ],
        additional_texts=additional_texts if additional_texts is not None else ["True Figure 1"],
        parent_img_code=code,
        diagram_type="true",
        true_option_idx=option_idx,
    )


def text_match(true_index=0, pred_index=0, true_text="true text", pred_text="pred text", cost=0.0):
    return TextListMatch(
        true_index=true_index,
        pred_index=pred_index,
        true_text=true_text,
        pred_text=pred_text,
        cost=cost,
    )


def node_match(true: Node | None, pred: Node | None, text_cost: float = 0, label_cost: float = 0):
    return NodeMatch(
        true_node=true,
        pred_node=pred,
        node_text_cost=text_cost,
        label_matches=TextListMatches(
            matches=[text_match(true_text="true label", pred_text="pred label", cost=label_cost)]
        ),
    )


def two_node_matches(true: Diagram, pred: Diagram) -> NodeMatches:
    return NodeMatches(
        matches=[
            node_match(true.nodes[0], pred.nodes[0], text_cost=1, label_cost=2),
            node_match(true.nodes[1], pred.nodes[1], text_cost=3, label_cost=4),
        ],
        true_diagram_option_idx=true.true_option_idx,
    )


def error_types(excinfo: pytest.ExceptionInfo[ValidationError]) -> set[str]:
    return {e["type"] for e in excinfo.value.errors()}


# --- Node -------------------------------------------------------------------------------------


def test_valid_pred_node_and_its_properties() -> None:
    node = pred_node(1, "Node 1", ["screening", "eligibility"], [2])
    assert node.node_number == 1
    assert (node.labels_done, node.text_done, node.flow_done, node.is_complete) == (
        True,
        True,
        True,
        True,
    )


def test_valid_true_node() -> None:
    node = true_node(1, "Node 1", ["screening"], [2], option_idx=0)
    assert node.diagram_type == "true"
    assert node.true_option_idx == 0


@pytest.mark.parametrize(
    ("labels", "points_to", "expected"),
    [
        pytest.param(["label 1"], [2], (True, True, True, True), id="all-done"),
        pytest.param(None, [2], (False, True, True, False), id="labels-not-done"),
        pytest.param(["label 1"], None, (True, True, False, False), id="flow-not-done"),
        pytest.param(None, None, (False, True, False, False), id="labels-and-flow-not-done"),
        pytest.param([], [], (True, True, True, True), id="empty-lists-count-as-done"),
    ],
)
def test_node_done_flags(labels, points_to, expected: tuple[bool, bool, bool, bool]) -> None:
    node = pred_node(labels=labels, points_to=points_to)
    assert (node.labels_done, node.text_done, node.flow_done, node.is_complete) == expected


def _without(key: str) -> dict[str, Any]:
    return {k: v for k, v in full_node_dict().items() if k != key}


@pytest.mark.parametrize(
    ("data", "pydantic_type"),
    [
        pytest.param(
            full_node_dict(diagram_type="true", true_option_idx=None),
            "value_error",
            id="true-node-missing-option-idx",
        ),
        pytest.param(
            full_node_dict(true_option_idx=0), "value_error", id="pred-node-has-option-idx"
        ),
        pytest.param(full_node_dict(node_number=1000), "value_error", id="node-number-too-large"),
        pytest.param({**full_node_dict(), "extra": "x"}, "extra_forbidden", id="extra-field"),
        pytest.param(full_node_dict(node_number="1"), "int_type", id="strict-node-number-string"),
        pytest.param(full_node_dict(node_number=1.0), "int_type", id="strict-node-number-float"),
        pytest.param(full_node_dict(node_number=True), "int_type", id="strict-node-number-bool"),
        pytest.param(full_node_dict(node_number=None), "int_type", id="node-number-none"),
        pytest.param(full_node_dict(text=""), "string_too_short", id="empty-text"),
        pytest.param(full_node_dict(text=123), "string_type", id="text-not-string"),
        pytest.param(full_node_dict(text=None), "string_type", id="text-none"),
        pytest.param(full_node_dict(labels="screening"), "list_type", id="labels-not-list"),
        pytest.param(full_node_dict(labels=["s", 123]), "string_type", id="label-item-not-string"),
        pytest.param(full_node_dict(labels=[""]), "string_too_short", id="empty-label-item"),
        pytest.param(full_node_dict(points_to=2), "list_type", id="points-to-not-list"),
        pytest.param(full_node_dict(points_to=["2"]), "int_type", id="points-to-item-string"),
        pytest.param(full_node_dict(points_to=[2.0]), "int_type", id="points-to-item-float"),
        pytest.param(full_node_dict(points_to=[True]), "int_type", id="points-to-item-bool"),
        pytest.param(
            full_node_dict(diagram_type="unknown"), "literal_error", id="bad-diagram-type"
        ),
        pytest.param(full_node_dict(diagram_type=None), "literal_error", id="diagram-type-none"),
        pytest.param(full_node_dict(true_option_idx="0"), "int_type", id="option-idx-string"),
        pytest.param(full_node_dict(true_option_idx=0.0), "int_type", id="option-idx-float"),
        pytest.param(full_node_dict(true_option_idx=True), "int_type", id="option-idx-bool"),
        pytest.param(full_node_dict(parent_img_code=123), "string_type", id="img-code-not-string"),
        pytest.param(full_node_dict(parent_img_code=None), "string_type", id="img-code-none"),
        pytest.param(_without("node_number"), "missing", id="missing-node-number"),
        pytest.param(_without("text"), "missing", id="missing-text"),
        pytest.param(_without("diagram_type"), "missing", id="missing-diagram-type"),
        pytest.param(_without("parent_img_code"), "missing", id="missing-parent-img-code"),
    ],
)
def test_invalid_node_data(data: dict[str, Any], pydantic_type: str) -> None:
    with pytest.raises(ValidationError) as excinfo:
        Node.model_validate(data)
    assert pydantic_type in error_types(excinfo)


# --- Diagram ----------------------------------------------------------------------------------


def test_valid_pred_diagram_and_its_properties() -> None:
    diagram = pred_diagram(
        [
            pred_node(1, "Pred node 1", ["pred label 1"], [2]),
            pred_node(2, "Pred node 2", ["pred label 2"], []),
        ],
        ["Pred Figure 1"],
    )
    assert (
        diagram.labels_done,
        diagram.text_done,
        diagram.flow_done,
        diagram.additional_texts_done,
        diagram.is_complete,
    ) == (True, True, True, True, True)


@pytest.mark.parametrize(
    ("nodes", "additional_texts", "expected"),
    [
        pytest.param(
            lambda: [
                pred_node(1, labels=["l1"], points_to=[2]),
                pred_node(2, labels=["l2"], points_to=[]),
            ],
            ["Figure 1"],
            (True, True, True, True, True),
            id="all-done",
        ),
        pytest.param(
            lambda: [
                pred_node(1, labels=["l1"], points_to=[2]),
                pred_node(2, labels=["l2"], points_to=[]),
            ],
            None,
            (True, True, True, False, False),
            id="additional-texts-not-done",
        ),
        pytest.param(
            lambda: [pred_node(1, labels=[], points_to=[])],
            [],
            (True, True, True, True, True),
            id="empty-lists-count-as-done",
        ),
        pytest.param(
            lambda: [pred_node(1), pred_node(2)],
            ["Figure 1"],
            (False, True, False, True, False),
            id="all-node-parts-not-done",
        ),
        pytest.param(
            lambda: None,
            ["Figure 1"],
            (False, False, False, True, False),
            id="nodes-not-done-additional-texts-done",
        ),
    ],
)
def test_diagram_done_flags(nodes, additional_texts, expected) -> None:
    diagram = pred_diagram(nodes(), additional_texts)
    assert (
        diagram.labels_done,
        diagram.text_done,
        diagram.flow_done,
        diagram.additional_texts_done,
        diagram.is_complete,
    ) == expected


@pytest.mark.parametrize(
    "nodes",
    [
        pytest.param(
            lambda: [
                pred_node(1, labels=None, points_to=[2]),
                pred_node(2, labels=["l2"], points_to=[]),
            ],
            id="one-node-labels-not-done",
        ),
        pytest.param(
            lambda: [
                pred_node(1, labels=["l1"], points_to=None),
                pred_node(2, labels=["l2"], points_to=[]),
            ],
            id="one-node-flow-not-done",
        ),
        pytest.param(
            lambda: [pred_node(1, labels=["l1"], points_to=[2]), pred_node(2)],
            id="one-node-complete-other-node-incomplete-labels-first",
        ),
        pytest.param(
            lambda: [pred_node(1, labels=["l1"], points_to=[2]), pred_node(2, labels=["l2"])],
            id="one-node-complete-other-node-incomplete-flow",
        ),
    ],
)
def test_diagram_parts_must_be_done_for_all_nodes_or_none(nodes) -> None:
    with pytest.raises(ValidationError):
        pred_diagram(nodes(), ["Figure 1"])


def test_valid_true_diagram() -> None:
    diagram = true_diagram()
    assert diagram.diagram_type == "true"
    assert diagram.true_option_idx == 0
    assert diagram.is_complete is True


def _diagram_dict(**overrides: Any) -> dict[str, Any]:
    data = {
        "nodes": [full_node_dict(labels=["label 1"], points_to=[])],
        "additional_texts": ["Figure 1"],
        "parent_img_code": "diagram_1",
        "diagram_type": "pred",
        "true_option_idx": None,
    }
    data.update(overrides)
    return data


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(
            lambda: pred_diagram([pred_node(1), pred_node(1)], ["Figure 1"]),
            id="duplicate-node-numbers",
        ),
        pytest.param(
            lambda: true_diagram(
                [true_node(1, "Node 1", ["l1"], [3]), true_node(3, "Node 3", ["l3"], [1])],
                ["Figure 1"],
            ),
            id="true-node-numbers-not-sequential",
        ),
        pytest.param(
            lambda: Diagram(
                nodes=[true_node(1, "node 1", ["node 1"], [])],
                additional_texts=["Figure 1"],
                parent_img_code="diagram_1",
                diagram_type="true",
                true_option_idx=None,
            ),
            id="true-diagram-missing-option-idx",
        ),
        pytest.param(
            lambda: Diagram(
                nodes=[pred_node(1)],
                additional_texts=["Figure 1"],
                parent_img_code="diagram_1",
                diagram_type="pred",
                true_option_idx=0,
            ),
            id="pred-diagram-has-option-idx",
        ),
        pytest.param(
            lambda: Diagram(
                nodes=[pred_node(1, "node 1", ["node 1"], [])],
                additional_texts=["Figure 1"],
                parent_img_code="diagram_1",
                diagram_type="true",
                true_option_idx=0,
            ),
            id="node-diagram-type-mismatch",
        ),
        pytest.param(
            lambda: pred_diagram([pred_node(1, code="other_diagram")], ["Figure 1"]),
            id="node-parent-img-code-mismatch",
        ),
        pytest.param(
            lambda: true_diagram(
                [true_node(1, "node 1", ["node 1"], [], option_idx=1)], ["Figure 1"]
            ),
            id="node-option-idx-mismatch",
        ),
        pytest.param(
            lambda: pred_diagram(
                [
                    pred_node(1, labels=["l1"], points_to=[3]),
                    pred_node(2, labels=["l2"], points_to=[]),
                ],
                ["Figure 1"],
            ),
            id="fake-node-in-flow",
        ),
        pytest.param(
            lambda: pred_diagram([pred_node(1, labels=["l1"], points_to=[999])], ["Figure 1"]),
            id="single-pred-node-points-to-fake-node",
        ),
        pytest.param(
            lambda: true_diagram([true_node(1, points_to=[2]), true_node(2, points_to=[1])]),
            id="true-diagram-labels-incomplete",
        ),
        pytest.param(
            lambda: true_diagram([true_node(1, labels=["l1"]), true_node(2, labels=["l2"])]),
            id="true-diagram-flow-incomplete",
        ),
        pytest.param(
            lambda: Diagram(
                nodes=[
                    true_node(1, labels=["l1"], points_to=[2]),
                    true_node(2, labels=["l2"], points_to=[1]),
                ],
                additional_texts=None,
                parent_img_code="diagram_1",
                diagram_type="true",
                true_option_idx=0,
            ),
            id="true-diagram-additional-texts-incomplete",
        ),
        pytest.param(
            lambda: Diagram(
                nodes=[true_node(1), true_node(2)],
                additional_texts=None,
                parent_img_code="diagram_1",
                diagram_type="true",
                true_option_idx=0,
            ),
            id="true-diagram-all-parts-incomplete",
        ),
        pytest.param(
            lambda: true_diagram(
                [true_node(1, "node 1", ["label 1"], []), true_node(2, "node 2", ["label 2"], [])],
                ["Figure 1"],
            ),
            id="true-diagram-isolated-nodes",
        ),
        pytest.param(
            lambda: true_diagram(
                [
                    true_node(1, "node 1", ["label 1"], [2]),
                    true_node(2, "node 2", ["label 2"], []),
                    true_node(3, "node 3", ["label 3"], []),
                ],
                ["Figure 1"],
            ),
            id="true-diagram-one-isolated-node",
        ),
        pytest.param(lambda: pred_diagram(None, None), id="pred-diagram-no-nodes-no-additional"),
        pytest.param(lambda: pred_diagram([], ["Figure 1"]), id="empty-nodes-list"),
        pytest.param(
            lambda: pred_diagram([pred_node(1, labels=["l1"], points_to=[])], [""]),
            id="empty-additional-text-item",
        ),
        pytest.param(
            lambda: pred_diagram([pred_node(1, labels=["l1"], points_to=[])], ["Figure 1", ""]),
            id="one-empty-additional-text-item",
        ),
        pytest.param(
            lambda: pred_diagram([pred_node(1, labels=[""], points_to=[])], ["Figure 1"]),
            id="empty-label-item-in-nested-node",
        ),
        pytest.param(
            lambda: Diagram.model_validate(_diagram_dict(nodes=[full_node_dict(node_number="1")])),
            id="nested-node-strict-node-number",
        ),
        pytest.param(
            lambda: Diagram.model_validate(
                _diagram_dict(nodes=[{**full_node_dict(), "extra": "x"}])
            ),
            id="nested-node-extra-field",
        ),
        pytest.param(
            lambda: Diagram.model_validate({**_diagram_dict(), "extra": "x"}),
            id="diagram-extra-field",
        ),
        pytest.param(
            lambda: Diagram.model_validate(_diagram_dict(additional_texts="Figure 1")),
            id="additional-texts-not-list",
        ),
        pytest.param(
            lambda: Diagram.model_validate(_diagram_dict(parent_img_code=123)),
            id="parent-img-code-not-string",
        ),
        pytest.param(
            lambda: Diagram.model_validate(_diagram_dict(diagram_type="unknown")),
            id="invalid-diagram-type",
        ),
    ],
)
def test_invalid_diagram(make) -> None:
    with pytest.raises(ValidationError):
        make()


def test_pred_diagram_node_numbers_need_not_be_sequential() -> None:
    diagram = pred_diagram([pred_node(1), pred_node(3)], ["Figure 1"])
    assert [n.node_number for n in diagram.nodes] == [1, 3]


def test_diagram_validates_nested_node_dicts() -> None:
    with pytest.raises(ValidationError):
        Diagram.model_validate(_diagram_dict(nodes=[node_dict(number=1000)]))


# --- TextListMatch / TextListMatches ----------------------------------------------------------


@pytest.mark.parametrize(
    ("true_index", "pred_index", "true_text", "pred_text", "match_type"),
    [
        pytest.param(0, 0, "true text", "pred text", "match", id="match"),
        pytest.param(0, None, "true text", None, "unmatched_true", id="unmatched-true"),
        pytest.param(None, 0, None, "pred text", "unmatched_pred", id="unmatched-pred"),
    ],
)
def test_text_list_match_fields_and_type(true_index, pred_index, true_text, pred_text, match_type):
    m = text_match(true_index, pred_index, true_text, pred_text, cost=4)
    assert (m.true_index, m.pred_index, m.true_text, m.pred_text, m.cost) == (
        true_index,
        pred_index,
        true_text,
        pred_text,
        4,
    )
    assert m.match_type == match_type


def _tlm(**overrides: Any) -> dict[str, Any]:
    data = {"true_index": 0, "pred_index": 0, "true_text": "true", "pred_text": "pred", "cost": 1}
    data.update(overrides)
    return data


def _tlm_without(key: str) -> dict[str, Any]:
    return {k: v for k, v in _tlm().items() if k != key}


@pytest.mark.parametrize(
    ("data", "pydantic_type"),
    [
        pytest.param(_tlm(cost="1"), "float_type", id="strict-cost-string"),
        pytest.param(_tlm(cost=True), "float_type", id="strict-cost-bool"),
        pytest.param(_tlm(true_index="0"), "int_type", id="strict-true-index-string"),
        pytest.param(_tlm(pred_index="0"), "int_type", id="strict-pred-index-string"),
        pytest.param(_tlm(true_index=0.0), "int_type", id="strict-true-index-float"),
        pytest.param(_tlm(pred_index=0.0), "int_type", id="strict-pred-index-float"),
        pytest.param(_tlm(true_index=True), "int_type", id="strict-true-index-bool"),
        pytest.param(_tlm(pred_index=True), "int_type", id="strict-pred-index-bool"),
        pytest.param(_tlm(true_text=123), "string_type", id="true-text-not-string"),
        pytest.param(_tlm(pred_text=123), "string_type", id="pred-text-not-string"),
        pytest.param(_tlm(true_text=""), "string_too_short", id="true-text-empty"),
        pytest.param(_tlm(pred_text=""), "string_too_short", id="pred-text-empty"),
        pytest.param({**_tlm(), "extra": "x"}, "extra_forbidden", id="extra-field"),
        pytest.param(_tlm_without("true_index"), "missing", id="missing-true-index"),
        pytest.param(_tlm_without("pred_index"), "missing", id="missing-pred-index"),
        pytest.param(_tlm_without("true_text"), "missing", id="missing-true-text"),
        pytest.param(_tlm_without("pred_text"), "missing", id="missing-pred-text"),
        pytest.param(_tlm_without("cost"), "missing", id="missing-cost"),
        pytest.param(_tlm(true_text=None), "value_error", id="true-index-set-true-text-none"),
        pytest.param(_tlm(true_index=None), "value_error", id="true-index-none-true-text-set"),
        pytest.param(_tlm(pred_text=None), "value_error", id="pred-index-set-pred-text-none"),
        pytest.param(_tlm(pred_index=None), "value_error", id="pred-index-none-pred-text-set"),
        pytest.param(
            _tlm(true_index=None, pred_index=None, true_text=None, pred_text=None),
            "value_error",
            id="both-true-and-pred-unmatched",
        ),
    ],
)
def test_invalid_text_list_match(data: dict[str, Any], pydantic_type: str) -> None:
    with pytest.raises(ValidationError) as excinfo:
        TextListMatch.model_validate(data)
    assert pydantic_type in error_types(excinfo)


@pytest.mark.parametrize(
    ("costs", "total"),
    [
        pytest.param([], 0, id="empty"),
        pytest.param([2], 2, id="single-match"),
        pytest.param([1.5, 2.5, 3], 7, id="multiple-matches"),
    ],
)
def test_text_list_matches_total_cost(costs: list[float], total: float) -> None:
    records = [
        text_match(i, i, f"true text {i}", f"pred text {i}", cost) for i, cost in enumerate(costs)
    ]
    matches = TextListMatches(matches=records)
    assert matches.matches == records
    assert matches.total_cost == total


# --- NodeMatch --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("has_true", "has_pred", "match_type"),
    [
        pytest.param(True, True, "match", id="match"),
        pytest.param(False, True, "unmatched_pred", id="pred-only"),
        pytest.param(True, False, "unmatched_true", id="true-only"),
    ],
)
def test_node_match_img_code_and_type(has_true: bool, has_pred: bool, match_type: str) -> None:
    m = node_match(true_node() if has_true else None, pred_node() if has_pred else None)
    assert m.parent_img_code == "diagram_1"
    assert m.match_type == match_type


_NESTED_BAD_COST = {
    "matches": [
        {"true_index": 0, "pred_index": 0, "true_text": "true", "pred_text": "pred", "cost": "1"}
    ]
}
_NESTED_EMPTY_TEXT = {
    "matches": [{"true_index": 0, "pred_index": 0, "true_text": "", "pred_text": "pred", "cost": 1}]
}


@pytest.mark.parametrize(
    ("true", "pred", "cost", "label_matches", "pydantic_type"),
    [
        pytest.param(
            lambda: true_node(code="true_diagram"),
            lambda: pred_node(code="pred_diagram"),
            0,
            lambda: TextListMatches(matches=[text_match()]),
            "value_error",
            id="parent-img-code-mismatch",
        ),
        pytest.param(
            lambda: None,
            lambda: None,
            0,
            lambda: TextListMatches(matches=[text_match()]),
            "value_error",
            id="both-nodes-none",
        ),
        pytest.param(
            true_node,
            pred_node,
            "0",
            lambda: TextListMatches(matches=[]),
            "float_type",
            id="cost-str",
        ),
        pytest.param(
            true_node,
            pred_node,
            True,
            lambda: TextListMatches(matches=[]),
            "float_type",
            id="cost-bool",
        ),
        pytest.param(true_node, pred_node, 0, lambda: "not a list", "model_type", id="labels-str"),
        pytest.param(
            true_node, pred_node, 0, lambda: _NESTED_BAD_COST, "float_type", id="nested-label-cost"
        ),
        pytest.param(
            true_node,
            pred_node,
            0,
            lambda: _NESTED_EMPTY_TEXT,
            "string_too_short",
            id="nested-label-empty-true-text",
        ),
        pytest.param(
            lambda: "not a node",
            pred_node,
            0,
            lambda: TextListMatches(matches=[]),
            "model_type",
            id="true-node-not-node",
        ),
        pytest.param(
            true_node,
            lambda: "not a node",
            0,
            lambda: TextListMatches(matches=[]),
            "model_type",
            id="pred-node-not-node",
        ),
    ],
)
def test_invalid_node_match(true, pred, cost, label_matches, pydantic_type: str) -> None:
    with pytest.raises(ValidationError) as excinfo:
        NodeMatch(
            true_node=true(), pred_node=pred(), node_text_cost=cost, label_matches=label_matches()
        )
    assert pydantic_type in error_types(excinfo)


# --- NodeMatches ------------------------------------------------------------------------------


def test_node_matches_properties() -> None:
    true = true_diagram()
    pred = full_pred_diagram()
    node_matches = two_node_matches(true, pred)
    assert node_matches.parent_img_code == "diagram_1"
    assert node_matches.total_node_text_cost == 4
    assert node_matches.total_label_error_cost == 6
    assert node_matches.true_nodes == true.nodes
    assert node_matches.pred_nodes == pred.nodes


def test_node_matches_properties_with_unmatched_records() -> None:
    t1 = true_node(1, "True node 1", ["true label 1"], [2])
    t2 = true_node(2, "True node 2", ["true label 2"], [1])
    t3 = true_node(3, "Unmatched true node", ["true label 3"], [])
    p1 = pred_node(1, "Pred node 1", ["pred label 1"], [2])
    p2 = pred_node(2, "Pred node 2", ["pred label 2"], [])
    p3 = pred_node(3, "Unmatched pred node", ["pred label 3"], [])
    records = [
        NodeMatch(
            true_node=t1,
            pred_node=p1,
            node_text_cost=10.5,
            label_matches=TextListMatches(
                matches=[
                    text_match(true_text="true label 1", pred_text="pred label 1", cost=2),
                    text_match(true_text="true label 2", pred_text="pred label 2", cost=3),
                ]
            ),
        ),
        NodeMatch(
            true_node=t2, pred_node=p2, node_text_cost=20, label_matches=TextListMatches(matches=[])
        ),
        NodeMatch(
            true_node=t3,
            pred_node=None,
            node_text_cost=30,
            label_matches=TextListMatches(
                matches=[
                    text_match(true_text="true label 3", pred_text=None, pred_index=None, cost=4)
                ]
            ),
        ),
        NodeMatch(
            true_node=None,
            pred_node=p3,
            node_text_cost=40,
            label_matches=TextListMatches(
                matches=[
                    text_match(true_text=None, true_index=None, pred_text="pred label 3", cost=5.5)
                ]
            ),
        ),
    ]
    node_matches = NodeMatches(matches=records, true_diagram_option_idx=0)
    assert node_matches.parent_img_code == "diagram_1"
    assert node_matches.total_node_text_cost == 100.5
    assert node_matches.total_label_error_cost == 14.5
    assert node_matches.true_nodes == [t1, t2, t3]
    assert node_matches.pred_nodes == [p1, p2, p3]


def test_node_matches_total_label_cost_needs_label_matches() -> None:
    node_matches = NodeMatches(
        matches=[
            NodeMatch(
                true_node=true_node(), pred_node=pred_node(), node_text_cost=0, label_matches=None
            )
        ],
        true_diagram_option_idx=0,
    )
    with pytest.raises(ValueError):
        _ = node_matches.total_label_error_cost


def test_node_matches_parent_img_code_needs_a_record() -> None:
    with pytest.raises(ValueError):
        _ = NodeMatches(matches=[], true_diagram_option_idx=0).parent_img_code


@pytest.mark.parametrize(
    "numbers",
    [
        pytest.param([(1, 1), (1, 2)], id="true-node-matched-twice"),
        pytest.param([(1, 1), (2, 1)], id="pred-node-matched-twice"),
    ],
)
def test_node_matches_rejects_a_node_matched_twice(numbers: list[tuple[int, int]]) -> None:
    with pytest.raises(ValidationError):
        NodeMatches(
            matches=[node_match(true_node(t), pred_node(p)) for t, p in numbers],
            true_diagram_option_idx=0,
        )


def _flow(tp, fp, fn, precision, recall, f1, jaccard, missing, extra) -> FlowScores:
    return FlowScores(
        tp=tp,
        fp=fp,
        fn=fn,
        precision=precision,
        recall=recall,
        f1=f1,
        jaccard=jaccard,
        missing_edges=missing,
        extra_edges=extra,
    )


@pytest.mark.parametrize(
    ("true_flow", "pred_flow", "expected"),
    [
        pytest.param(
            {1: [2], 2: []},
            {1: [2], 2: []},
            _flow(1, 0, 0, 1.0, 1.0, 1.0, 1.0, set(), set()),
            id="perfect-single-edge",
        ),
        pytest.param(
            {1: [2], 2: []},
            {1: [], 2: []},
            _flow(0, 0, 1, 0.0, 0.0, 0.0, 0.0, {(1, 2)}, set()),
            id="missing-single-edge",
        ),
        pytest.param(
            {1: [], 2: []},
            {1: [2], 2: []},
            _flow(0, 1, 0, 0.0, 0.0, 0.0, 0.0, set(), {(1, 2)}),
            id="extra-single-edge",
        ),
        pytest.param(
            {1: [2], 2: []},
            {1: [], 2: [1]},
            _flow(0, 1, 1, 0.0, 0.0, 0.0, 0.0, {(1, 2)}, {(2, 1)}),
            id="wrong-direction",
        ),
        pytest.param(
            {1: [2, 3], 2: [], 3: []},
            {1: [2], 2: [], 3: []},
            _flow(1, 0, 1, 1.0, 0.5, 2 / 3, 0.5, {(1, 3)}, set()),
            id="one-of-two-true-edges-found",
        ),
        pytest.param(
            {1: [2], 2: [], 3: []},
            {1: [2, 3], 2: [], 3: []},
            _flow(1, 1, 0, 0.5, 1.0, 2 / 3, 0.5, set(), {(1, 3)}),
            id="one-correct-one-extra-edge",
        ),
        pytest.param(
            {1: [2, 3], 2: [3], 3: []},
            {1: [2, 3], 2: [], 3: [2]},
            _flow(2, 1, 1, 2 / 3, 2 / 3, 2 / 3, 0.5, {(2, 3)}, {(3, 2)}),
            id="mixed-tp-fp-fn",
        ),
        pytest.param(
            {1: [], 2: []},
            {1: [], 2: []},
            _flow(0, 0, 0, 0.0, 0.0, 0.0, 1.0, set(), set()),
            id="no-true-or-pred-edges",
        ),
        pytest.param(
            {1: [2], 2: [3], 3: []},
            {1: [2], 2: [3], 3: []},
            _flow(2, 0, 0, 1.0, 1.0, 1.0, 1.0, set(), set()),
            id="perfect-chain",
        ),
        pytest.param(
            {1: [2], 2: [3], 3: []},
            {1: [3], 2: [], 3: []},
            _flow(0, 1, 2, 0.0, 0.0, 0.0, 0.0, {(1, 2), (2, 3)}, {(1, 3)}),
            id="shortcut-edge-instead-of-chain",
        ),
    ],
)
def test_flow_score_of_identity_matches(
    true_flow: dict[int, list[int]], pred_flow: dict[int, list[int]], expected: FlowScores
) -> None:
    node_matches = NodeMatches(
        matches=[
            NodeMatch(
                true_node=true_node(n, f"True node {n}", [f"true label {n}"], targets),
                pred_node=pred_node(n, f"Pred node {n}", [f"pred label {n}"], pred_flow[n]),
                node_text_cost=0,
                label_matches=TextListMatches(matches=[]),
            )
            for n, targets in true_flow.items()
        ],
        true_diagram_option_idx=0,
    )
    assert node_matches.flow_score == expected


def _record(true: Node | None, pred: Node | None, cost: float = 0) -> NodeMatch:
    return NodeMatch(
        true_node=true,
        pred_node=pred,
        node_text_cost=cost,
        label_matches=TextListMatches(matches=[]),
    )


def test_flow_score_edge_from_unmatched_pred_node_is_a_false_positive() -> None:
    node_matches = NodeMatches(
        matches=[
            _record(true_node(1, points_to=[2]), pred_node(1, points_to=[2])),
            _record(true_node(2, points_to=[]), pred_node(2, points_to=[])),
            _record(None, pred_node(3, points_to=[1]), 10),
        ],
        true_diagram_option_idx=0,
    )
    assert node_matches.flow_score == _flow(1, 1, 0, 0.5, 1.0, 2 / 3, 0.5, set(), {(10000, 1)})


def test_flow_score_edge_to_unmatched_pred_node_is_a_false_positive() -> None:
    node_matches = NodeMatches(
        matches=[
            _record(true_node(1, points_to=[2]), pred_node(1, points_to=[3])),
            _record(true_node(2, points_to=[]), pred_node(2, points_to=[])),
            _record(None, pred_node(3, points_to=[]), 10),
        ],
        true_diagram_option_idx=0,
    )
    assert node_matches.flow_score == _flow(0, 1, 1, 0.0, 0.0, 0.0, 0.0, {(1, 2)}, {(1, 10000)})


def test_flow_score_gives_each_unmatched_endpoint_occurrence_a_fresh_id() -> None:
    """Node 4 occurs twice (as a target, then as a source) and gets two ids; node 5 is absent."""
    node_matches = NodeMatches.model_construct(
        matches=[
            _record(true_node(1, points_to=[]), pred_node(1, points_to=[])),
            _record(true_node(2, points_to=[]), pred_node(2, points_to=[])),
            _record(None, pred_node(3, points_to=[4]), 10),
            _record(None, pred_node(4, points_to=[5]), 10),
        ],
        true_diagram_option_idx=0,
    )
    assert node_matches.flow_score == _flow(
        0, 2, 0, 0.0, 0.0, 0.0, 0.0, set(), {(10000, 10001), (10002, 10003)}
    )


# --- DiagramMatch -----------------------------------------------------------------------------


def make_diagram_match() -> DiagramMatch:
    true = true_diagram()
    pred = full_pred_diagram()
    return DiagramMatch(
        node_matches=two_node_matches(true, pred),
        additional_text_matches=TextListMatches(
            matches=[text_match(true_text="True Figure 1", pred_text="Pred Figure 1", cost=5)]
        ),
        pred_diagram=pred,
        true_diagram=true,
    )


def test_diagram_match_costs_and_flow() -> None:
    diagram_match = make_diagram_match()
    assert diagram_match.total_node_text_cost == 4
    assert diagram_match.total_label_error_cost == 6
    assert diagram_match.total_additional_text_cost == 5
    assert diagram_match.total_text_cost == 15
    assert isinstance(diagram_match.flow_score, FlowScores)


def _additional(true_text="True Figure 1", pred_text="Pred Figure 1") -> TextListMatches:
    return TextListMatches(matches=[text_match(true_text=true_text, pred_text=pred_text)])


def _pred_without_labels() -> Diagram:
    return full_pred_diagram(nodes=[pred_node(1, points_to=[2]), pred_node(2, points_to=[])])


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(
            lambda: DiagramMatch(
                node_matches=two_node_matches(true_diagram(), _pred_without_labels()),
                additional_text_matches=_additional(),
                pred_diagram=_pred_without_labels(),
                true_diagram=true_diagram(),
            ),
            id="pred-diagram-incomplete",
        ),
        pytest.param(
            lambda: DiagramMatch(
                node_matches=two_node_matches(
                    Diagram.model_construct(
                        nodes=[true_node(1, points_to=[2]), true_node(2, points_to=[1])],
                        additional_texts=["True Figure 1"],
                        parent_img_code="diagram_1",
                        diagram_type="true",
                        true_option_idx=0,
                    ),
                    full_pred_diagram(),
                ),
                additional_text_matches=_additional(),
                pred_diagram=full_pred_diagram(),
                true_diagram=true_diagram(
                    nodes=[true_node(1, points_to=[2]), true_node(2, points_to=[1])]
                ),
            ),
            id="true-diagram-incomplete-inherited",
        ),
        pytest.param(
            lambda: DiagramMatch(
                node_matches=two_node_matches(
                    true_diagram(code="true_diagram"), full_pred_diagram(code="pred_diagram")
                ),
                additional_text_matches=_additional(),
                pred_diagram=full_pred_diagram(code="pred_diagram"),
                true_diagram=true_diagram(code="true_diagram"),
            ),
            id="diagram-origin-mismatch",
        ),
        pytest.param(
            lambda: DiagramMatch(
                node_matches=two_node_matches(true_diagram(), full_pred_diagram()),
                additional_text_matches=_additional(pred_text="Wrong pred text"),
                pred_diagram=full_pred_diagram(),
                true_diagram=true_diagram(),
            ),
            id="pred-additional-texts-not-in-matches",
        ),
        pytest.param(
            lambda: DiagramMatch(
                node_matches=two_node_matches(true_diagram(), full_pred_diagram()),
                additional_text_matches=_additional(true_text="Wrong true text"),
                pred_diagram=full_pred_diagram(),
                true_diagram=true_diagram(),
            ),
            id="true-additional-texts-not-in-matches",
        ),
        pytest.param(
            lambda: DiagramMatch(
                node_matches=NodeMatches(
                    matches=[node_match(true_diagram().nodes[0], full_pred_diagram().nodes[0])],
                    true_diagram_option_idx=0,
                ),
                additional_text_matches=_additional(),
                pred_diagram=full_pred_diagram(),
                true_diagram=true_diagram(),
            ),
            id="not-every-node-in-matches",
        ),
        pytest.param(
            lambda: DiagramMatch(
                node_matches=NodeMatches(
                    matches=[
                        node_match(true_diagram().nodes[0], full_pred_diagram().nodes[0]),
                        node_match(true_diagram().nodes[1], None),
                    ],
                    true_diagram_option_idx=0,
                ),
                additional_text_matches=_additional(),
                pred_diagram=full_pred_diagram(),
                true_diagram=true_diagram(),
            ),
            id="not-every-pred-node-in-matches",
        ),
        pytest.param(
            lambda: DiagramMatch(
                node_matches=two_node_matches(
                    true_diagram(additional_texts=["True Figure 1"]),
                    true_diagram(additional_texts=["Pred Figure 1"]),
                ),
                additional_text_matches=_additional(),
                pred_diagram=true_diagram(additional_texts=["Pred Figure 1"]),
                true_diagram=true_diagram(additional_texts=["True Figure 1"]),
            ),
            id="pred-diagram-has-true-type",
        ),
        pytest.param(
            lambda: DiagramMatch(
                node_matches=NodeMatches(
                    matches=[
                        node_match(full_pred_diagram().nodes[0], full_pred_diagram().nodes[0]),
                        node_match(full_pred_diagram().nodes[1], full_pred_diagram().nodes[1]),
                    ],
                    true_diagram_option_idx=0,
                ),
                additional_text_matches=_additional(),
                pred_diagram=full_pred_diagram(additional_texts=["Pred Figure 1"]),
                true_diagram=full_pred_diagram(additional_texts=["True Figure 1"]),
            ),
            id="true-diagram-has-pred-type",
        ),
    ],
)
def test_invalid_diagram_match(make) -> None:
    with pytest.raises(ValidationError):
        make()


def test_diagram_match_validates_nested_diagram_dicts() -> None:
    pred = full_pred_diagram().model_dump()
    pred["nodes"][1]["node_number"] = 1
    with pytest.raises(ValidationError):
        DiagramMatch.model_validate(
            {
                "node_matches": two_node_matches(true_diagram(), full_pred_diagram()).model_dump(),
                "additional_text_matches": {
                    "matches": [
                        text_match(
                            true_text="True Figure 1", pred_text="Pred Figure 1"
                        ).model_dump()
                    ]
                },
                "pred_diagram": pred,
                "true_diagram": true_diagram().model_dump(),
            }
        )


def test_diagram_match_rejects_a_true_typed_prediction() -> None:
    true = true_diagram()
    pred = Diagram(
        nodes=[
            true_node(1, points_to=[2], labels=["label 1"]),
            true_node(2, points_to=[1], labels=["label 2"]),
        ],
        additional_texts=["Pred Figure 1"],
        parent_img_code="diagram_1",
        diagram_type="true",
        true_option_idx=0,
    )
    with pytest.raises(ValidationError):
        DiagramMatch(
            node_matches=NodeMatches(
                matches=[
                    node_match(true.nodes[0], pred.nodes[0]),
                    node_match(true.nodes[1], pred.nodes[1]),
                ],
                true_diagram_option_idx=0,
            ),
            additional_text_matches=_additional(),
            pred_diagram=pred,
            true_diagram=true,
        )


def test_diagram_match_rejects_diagrams_of_different_flowcharts() -> None:
    true = true_diagram(code="true_diagram")
    pred = full_pred_diagram(code="pred_diagram")
    with pytest.raises(ValidationError):
        DiagramMatch(
            node_matches=NodeMatches(
                matches=[
                    node_match(true.nodes[0], None),
                    node_match(true.nodes[1], None),
                    node_match(None, pred.nodes[0]),
                    node_match(None, pred.nodes[1]),
                ],
                true_diagram_option_idx=0,
            ),
            additional_text_matches=TextListMatches(
                matches=[
                    text_match(true_text="True Figure 1", pred_text=None, pred_index=None),
                    text_match(true_text=None, true_index=None, pred_text="Pred Figure 1"),
                ]
            ),
            pred_diagram=pred,
            true_diagram=true,
        )
