"""Data types of the flowchart parsing benchmark (Flowde-compatible names and fields).

Strict pydantic models (``extra="forbid"``): a result object can be trusted to be well formed,
and every field users know from Flowde is where they expect it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationInfo, model_validator

from parsescore.shared.scores import Counts

__all__ = [
    "Diagram",
    "DiagramMatch",
    "DiagramOptions",
    "FlowScores",
    "Node",
    "NodeMatch",
    "NodeMatches",
    "ParsingBenchmarkCapabilities",
    "ParsingPart",
    "PredDiagramStructure",
    "TextListMatch",
    "TextListMatches",
]

TextMatchType = Literal["match", "unmatched_true", "unmatched_pred"]
ParsingPart = Literal["node_text", "labels", "flow", "additional_texts"]
NonEmptyStr = Annotated[str, Field(min_length=1)]
DiagramType = Literal["pred", "true"]

MAX_NODE_NUMBER = 1000
"""Node numbers stay below this; flow scoring numbers unmatched endpoints from 10000 up."""
FIRST_UNMATCHED_ENDPOINT_ID = 10000

_CONFIG = ConfigDict(extra="forbid", strict=True, validate_assignment=True)


def _match_type(has_true: bool, has_pred: bool) -> TextMatchType:
    if has_true and has_pred:
        return "match"
    return "unmatched_true" if has_true else "unmatched_pred"


class Node(BaseModel):
    """One predicted or ground-truth node. ``labels``/``points_to`` are None when not parsed."""

    model_config = _CONFIG

    node_number: int
    text: NonEmptyStr
    labels: list[NonEmptyStr] | None = None
    points_to: list[int] | None = None
    diagram_type: DiagramType
    true_option_idx: int | None = None
    parent_img_code: str

    @property
    def text_done(self) -> bool:
        return True

    @property
    def labels_done(self) -> bool:
        return self.labels is not None

    @property
    def flow_done(self) -> bool:
        return self.points_to is not None

    @property
    def is_complete(self) -> bool:
        return self.labels_done and self.flow_done

    @model_validator(mode="after")
    def _check(self) -> Node:
        if self.node_number >= MAX_NODE_NUMBER:
            raise ValueError(
                f"node numbers must be less than {MAX_NODE_NUMBER} "
                f"(found {self.node_number} in {self.parent_img_code})"
            )
        if (self.diagram_type == "true") != (self.true_option_idx is not None):
            raise ValueError("a true node needs a true_option_idx and a predicted node none")
        return self


class Diagram(BaseModel):
    """One prediction, or one accepted ground-truth interpretation (an option)."""

    model_config = _CONFIG

    nodes: list[Node] | None = Field(default=None, min_length=1)
    additional_texts: list[NonEmptyStr] | None = None
    parent_img_code: str
    diagram_type: DiagramType
    true_option_idx: int | None
    # set when validated with context {"isolated_nodes": True}: a Mermaid or DOT truth may
    # draw a node in no edge (Flowde's JSON truth may not); kept for later re-checks
    _isolated_nodes: bool = PrivateAttr(default=False)

    @property
    def text_done(self) -> bool:
        return self.nodes is not None

    @property
    def labels_done(self) -> bool:
        return self.nodes is not None and all(n.labels_done for n in self.nodes)

    @property
    def flow_done(self) -> bool:
        return self.nodes is not None and all(n.flow_done for n in self.nodes)

    @property
    def additional_texts_done(self) -> bool:
        return self.additional_texts is not None

    @property
    def is_complete(self) -> bool:
        return self.labels_done and self.flow_done and self.additional_texts_done

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> Diagram:
        where = f"diagram {self.parent_img_code}"
        if (self.diagram_type == "true") != (self.true_option_idx is not None):
            raise ValueError(f"{where}: a true diagram needs a true_option_idx, a prediction none")
        if not (self.text_done or self.additional_texts_done):
            raise ValueError(f"{where}: needs nodes or additional_texts")
        if self.nodes is None:
            return self
        for n in self.nodes:
            if (n.diagram_type, n.parent_img_code, n.true_option_idx) != (
                self.diagram_type,
                self.parent_img_code,
                self.true_option_idx,
            ):
                raise ValueError(
                    f"{where}: node {n.node_number} has diagram type / parent img code / option "
                    f"index ({n.diagram_type}, {n.parent_img_code}, {n.true_option_idx}) unlike "
                    f"its diagram ({self.diagram_type}, {self.parent_img_code}, "
                    f"{self.true_option_idx})"
                )
        numbers = [n.node_number for n in self.nodes]
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"{where}: node numbers must be unique, found {numbers}")
        for part, done in (("labels", Node.labels_done), ("points_to", Node.flow_done)):
            flags = [done.fget(n) for n in self.nodes]  # type: ignore[attr-defined]
            if any(flags) and not all(flags):
                raise ValueError(f"{where}: '{part}' must be given for every node or for none")
        if self.flow_done:
            known = set(numbers)
            for n in self.nodes:
                missing = [t for t in n.points_to or [] if t not in known]
                if missing:
                    raise ValueError(
                        f"{where}: node {n.node_number} points to non-existent node {missing[0]}"
                    )
        if self.diagram_type == "true":
            if not self.is_complete:
                raise ValueError(f"{where}: a ground-truth option must contain all four parts")
            if numbers != list(range(1, len(numbers) + 1)):
                raise ValueError(f"{where}: ground-truth node numbers must be 1..n in order")
            in_flow = {n.node_number for n in self.nodes if n.points_to}
            in_flow |= {t for n in self.nodes for t in n.points_to or []}
            if isinstance(info.context, dict) and info.context.get("isolated_nodes"):
                self._isolated_nodes = True
            if in_flow != set(numbers) and not self._isolated_nodes:
                raise ValueError(
                    f"{where}: every node must point to or be pointed to by another node; not in "
                    f"the flow: {sorted(set(numbers) - in_flow)}"
                )
        return self


class DiagramOptions(BaseModel):
    """All accepted ground-truth interpretations of one flowchart (one per option index)."""

    model_config = _CONFIG

    options: list[Diagram] = Field(min_length=1)
    parent_img_code: str


class TextListMatch(BaseModel):
    """One paired or unmatched label / additional-text string (indices into the source lists)."""

    model_config = _CONFIG

    true_index: int | None
    pred_index: int | None
    true_text: NonEmptyStr | None
    pred_text: NonEmptyStr | None
    parent_img_code: str | None = None
    true_option_idx: int | None = None
    cost: float

    @property
    def match_type(self) -> TextMatchType:
        return _match_type(self.true_index is not None, self.pred_index is not None)

    @model_validator(mode="after")
    def _check(self) -> TextListMatch:
        if (self.true_index is None) != (self.true_text is None):
            raise ValueError("true_index and true_text must both be set or both be None")
        if (self.pred_index is None) != (self.pred_text is None):
            raise ValueError("pred_index and pred_text must both be set or both be None")
        if self.true_index is None and self.pred_index is None:
            raise ValueError("at least one of true_index and pred_index must be set")
        return self


class TextListMatches(BaseModel):
    """Records of one node's labels or one diagram's additional texts; true items first."""

    model_config = _CONFIG

    matches: list[TextListMatch]

    @property
    def total_cost(self) -> float:
        return sum(m.cost for m in self.matches)


class NodeMatch(BaseModel):
    """A predicted node paired with a true node, or either one left unmatched."""

    model_config = _CONFIG

    true_node: Node | None
    pred_node: Node | None
    node_text_cost: int | float
    label_matches: TextListMatches | None = None

    @property
    def match_type(self) -> TextMatchType:
        return _match_type(self.true_node is not None, self.pred_node is not None)

    @property
    def parent_img_code(self) -> str:
        node = self.true_node if self.true_node is not None else self.pred_node
        assert node is not None
        return node.parent_img_code

    @model_validator(mode="after")
    def _check(self) -> NodeMatch:
        if self.true_node is None and self.pred_node is None:
            raise ValueError("at least one of true_node and pred_node must be set")
        if (
            self.true_node is not None
            and self.pred_node is not None
            and self.true_node.parent_img_code != self.pred_node.parent_img_code
        ):
            raise ValueError(
                "true and predicted node of a match come from different flowcharts: "
                f"{self.true_node.parent_img_code} and {self.pred_node.parent_img_code}"
            )
        return self


class FlowScores(BaseModel):
    """Directed-connection scores of one flowchart after node matching."""

    model_config = _CONFIG

    tp: int
    fp: int
    fn: int
    precision: float
    recall: float
    f1: float
    jaccard: float
    missing_edges: set[tuple[int, int]]
    extra_edges: set[tuple[int, int]]


class NodeMatches(BaseModel):
    """Node matches of one flowchart against its selected ground-truth option.

    Order of ``matches``: true nodes in order (matched or not), then unmatched predicted nodes.
    """

    model_config = _CONFIG

    matches: list[NodeMatch]
    true_diagram_option_idx: int

    @property
    def parent_img_code(self) -> str:
        if not self.matches:
            raise ValueError("There should be at least one node match to get parent img code.")
        return self.matches[0].parent_img_code

    @property
    def true_nodes(self) -> list[Node]:
        return [m.true_node for m in self.matches if m.true_node is not None]

    @property
    def pred_nodes(self) -> list[Node]:
        return [m.pred_node for m in self.matches if m.pred_node is not None]

    @property
    def total_node_text_cost(self) -> float:
        return sum(m.node_text_cost for m in self.matches)

    @property
    def total_label_error_cost(self) -> float:
        total = 0.0
        for m in self.matches:
            if m.label_matches is None:
                raise ValueError(
                    "All node matches must have label matches before calculating the total "
                    "label cost."
                )
            total += m.label_matches.total_cost
        return total

    @property
    def flow_score(self) -> FlowScores:
        return flow_scores(self)

    @model_validator(mode="after")
    def _check(self) -> NodeMatches:
        for side in ("true", "pred"):
            numbers = [
                node.node_number
                for m in self.matches
                if (node := getattr(m, f"{side}_node")) is not None
            ]
            if len(numbers) != len(set(numbers)):
                repeated = sorted({n for n in numbers if numbers.count(n) > 1})
                raise ValueError(f"{side} node(s) {repeated} matched more than once")
        return self


def numbered_pred_edges(
    node_matches: NodeMatches,
) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every predicted edge (each occurrence) as ``(its own node numbers, in ground-truth
    numbering)``: a matched endpoint takes its true node's number, each occurrence of an
    unmatched endpoint a fresh id counting from 10000 (source before target, in match order).
    One numbering for the flow scores and the report's edge labels."""
    true_number_of = {
        m.pred_node.node_number: (m.true_node.node_number if m.true_node is not None else None)
        for m in node_matches.matches
        if m.pred_node is not None
    }
    next_id = FIRST_UNMATCHED_ENDPOINT_ID
    found: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for node in node_matches.pred_nodes:
        for target in node.points_to or []:
            ends = []
            for number in (node.node_number, target):
                mapped = true_number_of.get(number)
                if mapped is None:
                    mapped, next_id = next_id, next_id + 1
                ends.append(mapped)
            found.append(((node.node_number, target), (ends[0], ends[1])))
    return found


def flow_scores(node_matches: NodeMatches) -> FlowScores:
    """Compare directed edges in ground-truth numbering.

    A matched predicted endpoint takes its true node's number; each occurrence of an unmatched
    endpoint gets a fresh id counting from 10000 (source before target, in match order).
    """
    true_edges = {
        (n.node_number, target) for n in node_matches.true_nodes for target in n.points_to or []
    }
    pred_edges = {numbered for _, numbered in numbered_pred_edges(node_matches)}
    counts = Counts.from_sets(true_edges, pred_edges)
    return FlowScores(
        tp=counts.tp,
        fp=counts.fp,
        fn=counts.fn,
        precision=counts.precision,
        recall=counts.recall,
        f1=counts.f1,
        jaccard=counts.jaccard,
        missing_edges=true_edges - pred_edges,
        extra_edges=pred_edges - true_edges,
    )


class DiagramMatch(BaseModel):
    """Everything compared for one flowchart: nodes with labels, flow, additional texts."""

    model_config = _CONFIG

    node_matches: NodeMatches
    additional_text_matches: TextListMatches
    pred_diagram: Diagram
    true_diagram: Diagram

    @property
    def total_node_text_cost(self) -> float:
        return self.node_matches.total_node_text_cost

    @property
    def total_label_error_cost(self) -> float:
        return self.node_matches.total_label_error_cost

    @property
    def total_additional_text_cost(self) -> float:
        return self.additional_text_matches.total_cost

    @property
    def total_text_cost(self) -> float:
        return (
            self.total_node_text_cost
            + self.total_label_error_cost
            + self.total_additional_text_cost
        )

    @property
    def flow_score(self) -> FlowScores:
        return self.node_matches.flow_score

    @model_validator(mode="after")
    def _check(self) -> DiagramMatch:
        pred, true = self.pred_diagram, self.true_diagram
        if pred.diagram_type != "pred" or true.diagram_type != "true":
            raise ValueError("a diagram match needs a 'pred' and a 'true' diagram, in that order")
        if pred.parent_img_code != true.parent_img_code:
            raise ValueError(
                f"diagram match of different flowcharts: {pred.parent_img_code} and "
                f"{true.parent_img_code}"
            )
        if not pred.is_complete or not true.is_complete:
            raise ValueError("a diagram match needs complete diagrams (all four parts)")
        nm = self.node_matches
        for side, diagram, nodes in (("true", true, nm.true_nodes), ("pred", pred, nm.pred_nodes)):
            if sorted(nodes, key=lambda n: n.node_number) != sorted(
                diagram.nodes or [], key=lambda n: n.node_number
            ):
                raise ValueError(f"the {side} nodes of the matches are not the {side} diagram's")
        records = self.additional_text_matches.matches
        for side, diagram in (("true", true), ("pred", pred)):
            texts = sorted(t for r in records if (t := getattr(r, f"{side}_text")) is not None)
            if texts != sorted(diagram.additional_texts or []):
                raise ValueError(
                    f"the {side} additional texts of the matches are not the {side} diagram's"
                )
        return self


@dataclass(frozen=True)
class PredDiagramStructure:
    """Which parts the predictions contain."""

    node_text: bool
    labels: bool
    flow: bool
    additional_texts: bool

    @property
    def parts(self) -> frozenset[ParsingPart]:
        flags: dict[ParsingPart, bool] = {
            "node_text": self.node_text,
            "labels": self.labels,
            "flow": self.flow,
            "additional_texts": self.additional_texts,
        }
        return frozenset(part for part, on in flags.items() if on)

    @property
    def has_nodes(self) -> bool:
        return self.node_text or self.labels or self.flow

    def describe(self) -> str:
        return ", ".join(sorted(self.parts)) if self.parts else "no parsing components"


@dataclass(frozen=True)
class ParsingBenchmarkCapabilities:
    """Which benchmark methods work for the loaded predictions."""

    node_matches: bool
    node_matches_with_flow: bool
    node_and_label_matches: bool
    additional_text_matches: bool
    flow_scores: bool
    diagram_matches: bool

    @classmethod
    def from_pred_structure(cls, s: PredDiagramStructure) -> ParsingBenchmarkCapabilities:
        return cls(
            node_matches=s.node_text,
            node_matches_with_flow=s.node_text and s.flow,
            node_and_label_matches=s.node_text and s.labels,
            additional_text_matches=s.node_text and s.additional_texts,
            flow_scores=s.node_text and s.flow,
            diagram_matches=s.node_text and s.labels and s.flow and s.additional_texts,
        )

    @property
    def available_methods(self) -> tuple[str, ...]:
        methods: list[str] = []
        if self.node_matches:
            methods += ["node_matches", "total_node_text_cost"]
        if self.node_matches_with_flow:
            methods.append("node_matches_with_flow")
        if self.node_and_label_matches:
            methods += ["node_and_label_matches", "total_label_cost"]
        if self.additional_text_matches:
            methods += ["additional_text_matches", "total_additional_text_cost"]
        if self.flow_scores:
            methods += ["all_flow_scores", "all_flow_jaccard_scores", "avg_flow_jaccard"]
        if self.diagram_matches:
            methods.append("diagram_matches")
        return tuple(methods)
