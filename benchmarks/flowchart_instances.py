"""Synthetic large flowcharts for the flowchart benchmark and its scale tests.

A ground truth of ``n`` nodes (a third of the texts shared by several nodes, about three edges
per node, labels) and a prediction that renumbers the nodes, edits some texts, drops and adds
some edges and swaps some labels — the hard case for matching, since every duplicated text is a
tie that only flow and labels can break.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any


def make_instance(n: int = 200, seed: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return (truth parts, prediction) as JSON-ready dicts for one flowchart."""
    rng = random.Random(seed)
    duplicated = ["Lost to follow-up (n = 3)", "Excluded (n = 2)", "Analysed (n = 40)"]
    texts = []
    for i in range(n):
        if i % 3 == 0:
            texts.append(duplicated[(i // 3) % len(duplicated)])
        else:
            texts.append(f"Box {i}: assessed for eligibility (n = {rng.randint(10, 999)})")
    edges: set[tuple[int, int]] = set()
    for i in range(1, n):
        edges.add((rng.randrange(0, i), i))  # a spanning tree keeps every node in the flow
    while len(edges) < 3 * n:
        a, b = rng.randrange(n), rng.randrange(n)
        if a != b:
            edges.add((a, b))
    label_pool = ["Intervention", "Control", "Before treatment", "During treatment", "Week 12"]
    labels = [rng.sample(label_pool, rng.randint(0, 2)) for _ in range(n)]

    def truth_nodes(key: str, value: Any) -> dict[str, Any]:
        return {"options": [{"nodes": [{"node_number": i + 1, key: value(i)} for i in range(n)]}]}

    truth = {
        "nodes": truth_nodes("text", lambda i: texts[i]),
        "labels": truth_nodes("labels", lambda i: labels[i]),
        "flow": truth_nodes("points_to", lambda i: sorted(b + 1 for a, b in edges if a == i)),
        "additional_texts": {"options": [{"additional_texts": ["Figure 1", "CONSORT diagram"]}]},
    }
    perm = list(range(n))
    rng.shuffle(perm)  # true node i becomes predicted node perm[i] + 1
    pred_edges = {e for e in edges if rng.random() > 0.1}
    while len(pred_edges) < len(edges):
        a, b = rng.randrange(n), rng.randrange(n)
        if a != b:
            pred_edges.add((a, b))
    pred_nodes = []
    for i in range(n):
        text = texts[i]
        if i % 3 and rng.random() < 0.3:
            text = text.replace("eligibility", "eligibilty")
        pred_labels = list(labels[i])
        if pred_labels and rng.random() < 0.2:
            pred_labels = pred_labels[:1]
        pred_nodes.append(
            {
                "node_number": perm[i] + 1,
                "text": text,
                "labels": pred_labels,
                "points_to": sorted(perm[b] + 1 for a, b in pred_edges if a == i),
            }
        )
    pred_nodes.sort(key=lambda node: node["node_number"])
    prediction = {"nodes": pred_nodes, "additional_texts": ["Figure 1"]}
    return truth, prediction


def make_identical_instance(n: int = 60, seed: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """The pathological shape: every text and every label the same, the flow a renumbered copy.

    Only the flow can tell nodes apart, and it has many equally good matchings; a model that
    branches over them is exponential (Flowde's dense MILP at 60 nodes does not finish).
    """
    truth, prediction = make_instance(n, seed)
    for node in truth["nodes"]["options"][0]["nodes"]:
        node["text"] = "Same"
    for node in truth["labels"]["options"][0]["nodes"]:
        node["labels"] = ["Arm"]
    number_of = {}  # true node number -> predicted node number, from the texts' order
    for i, node in enumerate(prediction["nodes"]):
        node["text"] = "Same"
        node["labels"] = ["Arm"]
        number_of[i + 1] = node["node_number"]
    rng = random.Random(seed)
    numbers = list(number_of.values())
    rng.shuffle(numbers)
    number_of = dict(zip(number_of, numbers, strict=True))
    targets = {t["node_number"]: t["points_to"] for t in truth["flow"]["options"][0]["nodes"]}
    for true_number, pred_number in number_of.items():
        node = next(p for p in prediction["nodes"] if p["node_number"] == pred_number)
        node["points_to"] = sorted(number_of[t] for t in targets[true_number])
    return truth, prediction


def write_instance(
    root: Path, n: int = 200, seed: int = 0, stem: str = "large", *, identical: bool = False
) -> Path:
    """Write one instance as ``root/ground-truth/<part>/`` and ``root/predictions/``."""
    truth, prediction = (make_identical_instance if identical else make_instance)(n, seed)
    for part, content in truth.items():
        folder = root / "ground-truth" / part
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{stem}.json").write_text(json.dumps(content), encoding="utf-8")
    (root / "predictions").mkdir(parents=True, exist_ok=True)
    (root / "predictions" / f"{stem}.json").write_text(json.dumps(prediction), encoding="utf-8")
    return root
