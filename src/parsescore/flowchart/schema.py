"""The JSON Schema parts of flowchart results (``parsescore schema flowchart``), built from the
shared blocks of :mod:`parsescore.core.schema`."""

from __future__ import annotations

from typing import Any

from parsescore.core.schema import (
    COUNT,
    NUMBER,
    STRING,
    STRINGS,
    UNIT,
    map_of,
    nullable,
    record,
    ref,
)

__all__ = ["schema_defs"]


def schema_defs() -> dict[str, dict[str, Any]]:
    """Every named sub-schema of flowchart results: the documents, their parts, and the envelope's
    ``flowchart_detail`` / ``flowchart_dataset``."""
    counts = {
        "tp": COUNT,
        "fp": COUNT,
        "fn": COUNT,
        "precision": UNIT,
        "recall": UNIT,
        "f1": UNIT,
        "jaccard": UNIT,
    }
    edge = {"type": "array", "prefixItems": [COUNT, COUNT], "minItems": 2, "maxItems": 2}
    text_match = record(
        {
            "match_type": {"enum": ["match", "unmatched_true", "unmatched_pred"]},
            "true_index": nullable(COUNT),
            "pred_index": nullable(COUNT),
            "true_text": nullable(STRING),
            "pred_text": nullable(STRING),
            "cost": {"type": "number", "minimum": 0},
        },
        description="One pairing of two text lists (labels, additional texts).",
    )
    return {
        "counts": record(counts, description="tp/fp/fn with precision, recall, F1, Jaccard."),
        "flow": record(
            counts
            | {
                "missing_edges": {"type": "array", "items": edge},
                "extra_edges": {"type": "array", "items": edge},
            },
            description="Flow (edge) scores of one diagram; edges as [source, target] nodes.",
        ),
        "text_match": text_match,
        "node_match": record(
            {
                "match_type": {"enum": ["match", "unmatched_true", "unmatched_pred"]},
                "true_node": nullable(COUNT),
                "pred_node": nullable(COUNT),
                "true_text": nullable(STRING),
                "pred_text": nullable(STRING),
                "node_text_cost": {"type": "number", "minimum": 0},
                "label_cost": {"type": "number", "minimum": 0},
                "label_matches": {"type": "array", "items": ref("text_match")},
            },
            optional=("label_cost", "label_matches"),
        ),
        "diagram": record(
            {
                "stem": STRING,
                "option": COUNT,
                "node_text_cost": {"type": "number", "minimum": 0},
                "label_cost": {"type": "number", "minimum": 0},
                "additional_text_cost": {"type": "number", "minimum": 0},
                "edge_label_cost": {"type": "number", "minimum": 0},
                "readable": {
                    "type": "boolean",
                    "description": "false: the answer was missing or unreadable, and the "
                    "flowchart is scored as an empty prediction.",
                },
                "flow": ref("flow"),
                "node_matches": {"type": "array", "items": ref("node_match")},
                "additional_text_matches": {"type": "array", "items": ref("text_match")},
            },
            optional=(
                "label_cost",
                "additional_text_cost",
                "edge_label_cost",
                "readable",
                "flow",
                "additional_text_matches",
            ),
            description="One flowchart: its costs, flow scores and every node match.",
        ),
        "flowchart_totals": record(
            {
                "diagrams": COUNT,
                "node_text_cost": NUMBER,
                "label_cost": NUMBER,
                "additional_text_cost": NUMBER,
                "edge_label_cost": NUMBER,
                "avg_flow_jaccard": UNIT,
                "flow_micro": ref("counts"),
                "readable": UNIT,
            },
            optional=(
                "label_cost",
                "additional_text_cost",
                "edge_label_cost",
                "avg_flow_jaccard",
                "flow_micro",
                "readable",
            ),
            extra=NUMBER,
        ),
        "flowchart": record(
            {
                "kind": {"const": "flowchart"},
                "version": STRING,
                "inputs": record(
                    {"truth": STRING, "pred": STRINGS}, extra=True, description="Input paths."
                ),
                "options": {"type": "object"},
                "parts": {
                    "type": "array",
                    "items": {"enum": ["node_text", "labels", "flow", "additional_texts"]},
                    "uniqueItems": True,
                },
                "available_methods": STRINGS,
                "totals": ref("flowchart_totals"),
                "missing_predictions": {
                    **STRINGS,
                    "description": "Flowcharts without an answer (scored as empty, or left out "
                    "with allow_missing).",
                },
                "unreadable": map_of(
                    STRING, description="{flowchart: why its answer is unreadable}"
                ),
                "fenced": map_of(
                    STRING, description="{flowchart: info string of the fenced block read}"
                ),
                "diagrams": {"type": "array", "items": ref("diagram")},
            },
            optional=("unreadable", "fenced"),
            extra=True,
        ),
        "flowchart_detail": record(
            {
                "option": COUNT,
                "flow": record(
                    {
                        "tp": COUNT,
                        "fp": COUNT,
                        "fn": COUNT,
                        "missing_edges": {"type": "array", "items": edge},
                        "extra_edges": {"type": "array", "items": edge},
                    },
                    extra=True,
                ),
                "node_matches": {"type": "array", "items": ref("node_match")},
                "additional_text_matches": {"type": "array", "items": ref("text_match")},
                "matched_edges": {
                    "type": "array",
                    "items": edge,
                    "description": "The edges truth and prediction share, in ground-truth "
                    "node numbers (the report draws them).",
                },
                "edge_labels": {
                    "type": "array",
                    "items": record(
                        {
                            "edge": edge,
                            "true_label": nullable(STRING),
                            "pred_label": nullable(STRING),
                            "cost": {"type": "number", "minimum": 0},
                        },
                        optional=("cost",),
                        description="A labelled edge in ground-truth node numbers (an "
                        "unmatched predicted endpoint numbered from 10000, as in extra_edges); "
                        "cost: the label distance on a matched edge where both sides carry "
                        "labels.",
                    ),
                    "description": "The labels on edges, where truth or prediction was read "
                    "from Mermaid or DOT (the report draws them; not in the --out document).",
                },
            },
            optional=(
                "option",
                "flow",
                "node_matches",
                "additional_text_matches",
                "matched_edges",
                "edge_labels",
            ),
            extra=True,
            description="A diagram's record without its stem and the numbers in metrics.",
        ),
        "flowchart_dataset": record(
            {
                "missing": {**STRINGS, "description": "Flowcharts without an answer."},
                "unreadable": map_of(
                    STRING, description="{flowchart: why its answer is unreadable}"
                ),
                "fenced": map_of(
                    STRING, description="{flowchart: info string of the fenced block read}"
                ),
                "parts": {"type": "array", "items": STRING},
            },
            optional=("missing", "unreadable", "fenced", "parts"),
            extra=True,
        ),
    }
