"""Fixtures for the report tests: tiny hand-written result JSON of every kind, and the demo's."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from parsescore.sequence.model import CATEGORIES as SEQUENCE_CATEGORIES


def _counts(gt: int, ins: int = 0, dele: int = 0, sub: int = 0) -> dict[str, Any]:
    rate = (lambda n: n / gt * 100) if gt else (lambda n: 0.0)
    return {
        "gt_count": gt,
        "insertion": ins,
        "deletion": dele,
        "substitution": sub,
        "insertion_rate": rate(ins),
        "deletion_rate": rate(dele),
        "substitution_rate": rate(sub),
    }


def flowchart_doc(node_text: str = "Start", stem: str = "d1", cost: float = 2.0) -> dict:
    flow = {"tp": 1, "fp": 1, "fn": 1, "precision": 0.5, "recall": 0.5, "f1": 0.5}
    flow |= {"jaccard": 1 / 3, "missing_edges": [[1, 2]], "extra_edges": [[2, 10000]]}
    return {
        "kind": "flowchart",
        "totals": {"diagrams": 1, "node_text_cost": cost, "flow_micro": dict(flow)},
        "missing_predictions": [],
        "diagrams": [
            {
                "stem": stem,
                "option": 0,
                "node_text_cost": cost,
                "label_cost": 0.0,
                "flow": flow,
                "node_matches": [
                    {
                        "match_type": "match",
                        "true_node": 1,
                        "pred_node": 1,
                        "true_text": node_text,
                        "pred_text": node_text + "!!",
                        "node_text_cost": cost,
                        "label_cost": 0.0,
                        "label_matches": [],
                    },
                    {
                        "match_type": "unmatched_true",
                        "true_node": 2,
                        "pred_node": None,
                        "true_text": "End",
                        "pred_text": None,
                        "node_text_cost": 3.0,
                    },
                ],
            }
        ],
    }


def table_doc(scores: dict[str, float]) -> dict:
    structure = {name: min(1.0, value + 0.05) for name, value in scores.items()}
    return {
        "metric": "TEDS",
        "n_tables": len(scores),
        "missing": [],
        "extra": [],
        "metrics": {
            "TEDS": {"mean": sum(scores.values()) / len(scores), "scores": scores},
            "TEDS-S": {"mean": sum(structure.values()) / len(scores), "scores": structure},
        },
    }


def sequence_block(path: str = "a.puml", lines: int = 25, node_errors: int = 1) -> dict:
    file = {"path": path, "gt_lines": lines}
    for category in SEQUENCE_CATEGORIES:
        file[category] = _counts(4, dele=node_errors) if category == "node" else _counts(2)
    totals = {category: dict(file[category]) for category in SEQUENCE_CATEGORIES}
    return {"totals": totals, "files": [file]}


def graph_doc(class_name: str = "Book") -> dict:
    scores = {"tp": 2, "fp": 1, "fn": 0, "p": 0.667, "r": 1.0, "f1": 0.8}
    return {
        "graph": "graph.json",
        "truth": "truth.json",
        "micro": {"nodes": {"strict": scores}, "edges": {"strict": scores}},
        "nodes": {class_name: {"strict": scores}},
        "edges": {"HAS": {"strict": scores}},
        "relaxed_alias_pairs": [{"truth": "a_b", "extracted": "ab", "class": class_name}],
    }


@pytest.fixture
def write_doc(tmp_path: Path) -> Callable[[str, Any], Path]:
    """Write a JSON document to ``tmp_path/<relative path>`` and return its path."""

    def write(relative: str, doc: Any) -> Path:
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(doc), encoding="utf-8")
        return path

    return write


@pytest.fixture
def every_kind(write_doc: Callable[[str, Any], Path]) -> list[Path]:
    """One small result file of each kind."""
    return [
        write_doc("fc/flow.json", flowchart_doc()),
        write_doc("tb/tables.json", table_doc({"t1": 0.9, "t2": 0.5})),
        write_doc("sq/seq.json", sequence_block()),
        write_doc("gr/eval.json", graph_doc()),
    ]


@pytest.fixture(scope="session")
def demo_results(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The result files `parsescore demo` writes for the bundled data (one per kind)."""
    from parsescore.core.demo import run_demo

    out = tmp_path_factory.mktemp("demo")
    run_demo(out)
    paths = [out / kind / "scores.json" for kind in ("flowchart", "table", "sequence", "graph")]
    missing = [str(p) for p in paths if not p.is_file()]
    assert not missing, f"the demo did not write {missing}"
    return paths


@pytest.fixture
def docs() -> Any:
    """Builders of small result documents: ``docs.flowchart(...)``, ``.table``, ``.sequence``,
    ``.graph``."""
    from types import SimpleNamespace

    return SimpleNamespace(
        flowchart=flowchart_doc, table=table_doc, sequence=sequence_block, graph=graph_doc
    )
