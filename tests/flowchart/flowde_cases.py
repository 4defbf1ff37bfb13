"""Builders for the Flowde reference cases (tests/flowchart/test_reference_flowde_*.py).

Flowde's own unit tests build ``Diagram``/``Node`` objects in memory and call private matching
helpers. Our reference tests go through the public API instead: every case is written as the
JSON files a user would have (four ground-truth part directories and one prediction directory)
under pytest's ``tmp_path`` and evaluated with ``parsescore.flowchart.ParsingBenchmark``.

This module only turns small Python descriptions into those files and reads results back into
plain tuples/dicts, so each test states its inputs and expected numbers directly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parsescore.flowchart import ParsingBenchmark
from parsescore.shared.distance import DistanceFnProtocol, levenshtein

TRUTH_PARTS = ("nodes", "labels", "flow", "additional_texts")


@dataclass(frozen=True)
class TrueNode:
    """One ground-truth node of one option: number, text, labels and outgoing edges."""

    number: int
    text: str
    labels: tuple[str, ...] = ()
    points_to: tuple[int, ...] = ()


def tn(
    number: int, text: str, labels: Iterable[str] = (), points_to: Iterable[int] = ()
) -> TrueNode:
    """Shorthand for :class:`TrueNode` with list-friendly arguments."""
    return TrueNode(number, text, tuple(labels), tuple(points_to))


@dataclass(frozen=True)
class TrueOption:
    """One accepted ground-truth interpretation (spread over the four part files)."""

    nodes: tuple[TrueNode, ...]
    additional_texts: tuple[str, ...] = ("Figure 1",)


def option(
    nodes: Iterable[TrueNode], additional_texts: Iterable[str] = ("Figure 1",)
) -> TrueOption:
    return TrueOption(tuple(nodes), tuple(additional_texts))


def truth_part_contents(options: Sequence[TrueOption]) -> dict[str, dict[str, Any]]:
    """The JSON content of the four ground-truth files of one flowchart."""
    return {
        "nodes": {
            "options": [
                {"nodes": [{"node_number": n.number, "text": n.text} for n in o.nodes]}
                for o in options
            ]
        },
        "labels": {
            "options": [
                {"nodes": [{"node_number": n.number, "labels": list(n.labels)} for n in o.nodes]}
                for o in options
            ]
        },
        "flow": {
            "options": [
                {
                    "nodes": [
                        {"node_number": n.number, "points_to": list(n.points_to)} for n in o.nodes
                    ]
                }
                for o in options
            ]
        },
        "additional_texts": {
            "options": [{"additional_texts": list(o.additional_texts)} for o in options]
        },
    }


def write_json(path: Path, content: Any) -> Path:
    """Write ``content`` as JSON (any value, also deliberately malformed structures)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


@dataclass(frozen=True)
class TruthDirs:
    """The four ground-truth directories below one root."""

    root: Path

    def part(self, name: str) -> Path:
        return self.root / name

    def file(self, part: str, stem: str) -> Path:
        return self.root / part / f"{stem}.json"

    def kwargs(self) -> dict[str, Path]:
        return {
            "true_nodes_dir": self.part("nodes"),
            "true_labels_dir": self.part("labels"),
            "true_flow_dir": self.part("flow"),
            "true_additional_texts_dir": self.part("additional_texts"),
        }


def write_truth(root: Path, truths: Mapping[str, Sequence[TrueOption]]) -> TruthDirs:
    """Write every flowchart's options into ``root/{nodes,labels,flow,additional_texts}``."""
    dirs = TruthDirs(root)
    for part in TRUTH_PARTS:
        dirs.part(part).mkdir(parents=True, exist_ok=True)
    for stem, options in truths.items():
        for part, content in truth_part_contents(options).items():
            write_json(dirs.file(part, stem), content)
    return dirs


def pred_node(
    number: int,
    text: str | None = None,
    labels: Iterable[str] | None = None,
    points_to: Iterable[int] | None = None,
) -> dict[str, Any]:
    """A prediction node dict; parts given as None are left out (= not parsed)."""
    node: dict[str, Any] = {"node_number": number}
    if text is not None:
        node["text"] = text
    if labels is not None:
        node["labels"] = list(labels)
    if points_to is not None:
        node["points_to"] = list(points_to)
    return node


def pred_diagram(
    nodes: Iterable[dict[str, Any]] | None = None,
    additional_texts: Iterable[str] | None = None,
) -> dict[str, Any]:
    """A prediction file's content; parts given as None are left out."""
    content: dict[str, Any] = {}
    if nodes is not None:
        content["nodes"] = list(nodes)
    if additional_texts is not None:
        content["additional_texts"] = list(additional_texts)
    return content


def write_preds(pred_dir: Path, preds: Mapping[str, Any]) -> Path:
    """Write one prediction file per stem into ``pred_dir``."""
    pred_dir.mkdir(parents=True, exist_ok=True)
    for stem, content in preds.items():
        write_json(pred_dir / f"{stem}.json", content)
    return pred_dir


def benchmark_from_dirs(
    pred_dirs: Path | Sequence[Path],
    truth: TruthDirs,
    *,
    expected_num_diagrams: int,
    distance_fn: DistanceFnProtocol | None = None,
    allow_missing: bool = False,
) -> ParsingBenchmark:
    """Construct the benchmark exactly as a user would (distance left at its default if None)."""
    extra: dict[str, Any] = {}
    if distance_fn is not None:
        extra["distance_fn"] = distance_fn
    return ParsingBenchmark(
        pred_diagrams_dir=pred_dirs,
        allow_missing_pred_diagrams=allow_missing,
        expected_num_diagrams=expected_num_diagrams,
        **truth.kwargs(),
        **extra,
    )


def make_benchmark(
    tmp_path: Path,
    truths: Mapping[str, Sequence[TrueOption]],
    preds: Mapping[str, Any],
    *,
    distance_fn: DistanceFnProtocol | None = None,
    allow_missing: bool = False,
    expected_num_diagrams: int | None = None,
) -> ParsingBenchmark:
    """Write ground truth and predictions below ``tmp_path`` and build the benchmark."""
    truth = write_truth(tmp_path / "truth", truths)
    pred_dir = write_preds(tmp_path / "pred", preds)
    return benchmark_from_dirs(
        pred_dir,
        truth,
        expected_num_diagrams=len(truths)
        if expected_num_diagrams is None
        else expected_num_diagrams,
        distance_fn=distance_fn,
        allow_missing=allow_missing,
    )


def one_option_benchmark(
    tmp_path: Path,
    true_nodes: Iterable[TrueNode],
    pred_nodes: Iterable[dict[str, Any]],
    *,
    true_additional_texts: Iterable[str] = ("Figure 1",),
    pred_additional_texts: Iterable[str] | None = ("Figure 1",),
    distance_fn: DistanceFnProtocol | None = None,
    stem: str = "diagram_1",
) -> ParsingBenchmark:
    """One flowchart with a single ground-truth option (Flowde's ``match_nodes_single_option``)."""
    return make_benchmark(
        tmp_path,
        {stem: [option(true_nodes, true_additional_texts)]},
        {stem: pred_diagram(pred_nodes, pred_additional_texts)},
        distance_fn=distance_fn,
    )


# --- reading results back -------------------------------------------------------------------


def node_pairs(node_matches: Any) -> list[tuple[int | None, int | None, float]]:
    """(true number, predicted number, node-text cost) per record, in record order."""
    return [
        (
            m.true_node.node_number if m.true_node is not None else None,
            m.pred_node.node_number if m.pred_node is not None else None,
            m.node_text_cost,
        )
        for m in node_matches.matches
    ]


def pair_set(node_matches: Any) -> set[tuple[int | None, int | None]]:
    """The matching as a set of (true number, predicted number), None for unmatched."""
    return {(t, p) for t, p, _ in node_pairs(node_matches)}


def text_records(text_list_matches: Any, *, with_indices: bool = True) -> list[dict[str, Any]]:
    """The records of a ``TextListMatches`` as plain dicts, in record order."""
    records = []
    for m in text_list_matches.matches:
        record: dict[str, Any] = {
            "match_type": m.match_type,
            "true_text": m.true_text,
            "pred_text": m.pred_text,
            "cost": m.cost,
        }
        if with_indices:
            record["true_index"] = m.true_index
            record["pred_index"] = m.pred_index
        records.append(record)
    return records


def rec(
    match_type: str,
    true_index: int | None,
    pred_index: int | None,
    true_text: str | None,
    pred_text: str | None,
    cost: float,
) -> dict[str, Any]:
    """An expected text-list record (same keys as :func:`text_records`)."""
    return {
        "match_type": match_type,
        "true_index": true_index,
        "pred_index": pred_index,
        "true_text": true_text,
        "pred_text": pred_text,
        "cost": cost,
    }


def matched(i: int, j: int, true_text: str, pred_text: str, cost: float) -> dict[str, Any]:
    return rec("match", i, j, true_text, pred_text, cost)


def unmatched_true(i: int, true_text: str, cost: float) -> dict[str, Any]:
    return rec("unmatched_true", i, None, true_text, None, cost)


def unmatched_pred(j: int, pred_text: str, cost: float) -> dict[str, Any]:
    return rec("unmatched_pred", None, j, None, pred_text, cost)


# --- the distance functions used by Flowde's matching tests ---------------------------------

# A lookup table of costs that contradicts Levenshtein on purpose (identical texts are not free,
# some different texts are cheap), so that tests show the custom function really drives every
# matching decision. Keys are (true_text, pred_text); None means "unmatched".
TABLE_COSTS: dict[tuple[str | None, str | None], int] = {
    ("abc", "abc"): 7,
    ("abc", None): 13,
    (None, "abcd"): 19,
    ("cat", "cat"): 5,
    ("dog", "dig"): 8,
    ("dog", "dog"): 6,
    ("mouse", None): 17,
    (None, "mouse"): 23,
    ("allocated", "allocated"): 100,
    ("randomised", "randomised"): 100,
    ("allocated", "randomised"): 1,
    ("randomised", "allocated"): 1,
    ("extreme", "extreme"): 1000,
}
TABLE_PAIR_DEFAULT = 83
TABLE_UNMATCHED_TRUE_DEFAULT = 89
TABLE_UNMATCHED_PRED_DEFAULT = 97


def table_distance(*, true_text: str | None, pred_text: str | None) -> int:
    """Flowde's test cost table: listed pairs, else 97 / 89 for unmatched, 83 for pairs."""
    if (true_text, pred_text) in TABLE_COSTS:
        return TABLE_COSTS[(true_text, pred_text)]
    if true_text is None:
        return TABLE_UNMATCHED_PRED_DEFAULT
    if pred_text is None:
        return TABLE_UNMATCHED_TRUE_DEFAULT
    return TABLE_PAIR_DEFAULT


def tenth_levenshtein(*, true_text: str | None, pred_text: str | None) -> float:
    """Raw Levenshtein divided by ten: fractional costs with the same ties."""
    return levenshtein(true_text=true_text, pred_text=pred_text) / 10


def zero_distance(*, true_text: str | None, pred_text: str | None) -> int:
    """Every text costs nothing (Flowde's dummy distance in its orchestration tests)."""
    return 0
