"""Builders for flowchart test datasets written to a temporary folder."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parsescore.flowchart import ParsingBenchmark


@dataclass
class Option:
    """One ground-truth option: texts of nodes 1..n, their labels, edges between numbers."""

    texts: list[str]
    edges: list[tuple[int, int]]
    labels: list[list[str]] | None = None
    additional_texts: list[str] = field(default_factory=list)

    def part(self, name: str) -> dict[str, Any]:
        n = len(self.texts)
        labels = self.labels or [[] for _ in range(n)]
        if name == "additional_texts":
            return {"additional_texts": self.additional_texts}
        nodes = []
        for i in range(1, n + 1):
            if name == "nodes":
                nodes.append({"node_number": i, "text": self.texts[i - 1]})
            elif name == "labels":
                nodes.append({"node_number": i, "labels": labels[i - 1]})
            else:
                nodes.append({"node_number": i, "points_to": [b for a, b in self.edges if a == i]})
        return {"nodes": nodes}


def pred_node(
    number: int,
    text: str,
    points_to: Sequence[int] | None = None,
    labels: Sequence[str] | None = None,
) -> dict[str, Any]:
    node: dict[str, Any] = {"node_number": number, "text": text}
    if labels is not None:
        node["labels"] = list(labels)
    if points_to is not None:
        node["points_to"] = list(points_to)
    return node


def write_truth(root: Path, truth: dict[str, list[Option]]) -> Path:
    gt = root / "ground-truth"
    for part in ("nodes", "labels", "flow", "additional_texts"):
        (gt / part).mkdir(parents=True, exist_ok=True)
        for stem, options in truth.items():
            content = {"options": [o.part(part) for o in options]}
            (gt / part / f"{stem}.json").write_text(json.dumps(content), encoding="utf-8")
    return gt


def write_preds(folder: Path, preds: dict[str, dict[str, Any]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for stem, content in preds.items():
        (folder / f"{stem}.json").write_text(json.dumps(content), encoding="utf-8")
    return folder


def benchmark(
    root: Path,
    truth: dict[str, list[Option]],
    preds: dict[str, dict[str, Any]] | None,
    pred_dirs: Sequence[Path] | None = None,
    **kwargs: Any,
) -> ParsingBenchmark:
    gt = write_truth(root, truth)
    pred_dir: Path | Sequence[Path]
    if pred_dirs is None:
        assert preds is not None
        pred_dir = write_preds(root / "predictions", preds)
    else:
        pred_dir = list(pred_dirs)
    kwargs.setdefault("expected_num_diagrams", len(truth))
    return ParsingBenchmark(
        pred_diagrams_dir=pred_dir,
        true_nodes_dir=gt / "nodes",
        true_labels_dir=gt / "labels",
        true_flow_dir=gt / "flow",
        true_additional_texts_dir=gt / "additional_texts",
        **kwargs,
    )


def _mermaid_text(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "#quot;").replace("\n", "<br>")
    )


def to_mermaid(pred: dict[str, Any]) -> str:
    """A JSON prediction as Mermaid: each node in its own chain of subgraphs (its labels)."""
    lines = ["flowchart TD"]
    for node in pred["nodes"]:
        k = node["node_number"]
        for depth, label in enumerate(node["labels"]):
            lines.append(f'subgraph s{k}_{depth} ["{_mermaid_text(label)}"]')
        lines.append(f'n{k}["{_mermaid_text(node["text"])}"]')
        lines += ["end"] * len(node["labels"])
    for node in pred["nodes"]:
        for target in node["points_to"]:
            lines.append(f"n{node['node_number']} --> n{target}")
    return "\n".join(lines) + "\n"


def _dot_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def to_dot(pred: dict[str, Any]) -> str:
    """A JSON prediction as DOT: labels as nested clusters, the first additional text as the
    graph's label."""
    lines = ["digraph {"]
    if pred["additional_texts"]:
        lines.append(f'label="{_dot_text(pred["additional_texts"][0])}";')
    for node in pred["nodes"]:
        k = node["node_number"]
        for depth, label in enumerate(node["labels"]):
            lines.append(f'subgraph cluster_{k}_{depth} {{ label="{_dot_text(label)}";')
        lines.append(f'n{k} [label="{_dot_text(node["text"])}"];')
        lines += ["}"] * len(node["labels"])
    for node in pred["nodes"]:
        for target in node["points_to"]:
            lines.append(f"n{node['node_number']} -> n{target};")
    return "\n".join(lines) + "\n}\n"
