"""The JSON Schema parts of graph results (eval.json) (``parsescore schema graph``), built from the
shared blocks of :mod:`parsescore.schema`."""

from __future__ import annotations

from typing import Any

from parsescore.schema import (
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
    """Every named sub-schema of graph results: eval.json, its parts, and the envelope's
    ``graph_detail`` / ``graph_dataset``."""
    return {
        "prf": record(
            {"tp": COUNT, "fp": COUNT, "fn": COUNT, "p": UNIT, "r": UNIT, "f1": UNIT},
            description="Counts with precision/recall/F1 rounded to 3 decimals.",
        ),
        "rungs": record(
            {"strict": ref("prf"), "relaxed": ref("prf"), "aligned": ref("prf")},
            optional=("aligned",),
        ),
        "fanout": nullable(record({"total": COUNT, "sources": COUNT, "top_source_share": UNIT})),
        "graph": record(
            {
                "graph": STRING,
                "truth": STRING,
                "template": nullable(STRING),
                "micro": record({"nodes": ref("rungs"), "edges": ref("rungs")}),
                "nodes": map_of(ref("rungs"), description="{node class: rungs}"),
                "edges": map_of(ref("rungs"), description="{edge label: rungs}"),
                "relaxed_alias_pairs": {
                    "type": "array",
                    "items": record({"truth": STRING, "extracted": STRING, "class": STRING}),
                },
                "structural_alignment": record(
                    {
                        "mode": {"enum": ["auto", "on", "off"]},
                        "classes": STRINGS,
                        "synthetic_id_classes": STRINGS,
                        "pairs": {
                            "type": "array",
                            "items": record(
                                {
                                    "truth": STRING,
                                    "extracted": STRING,
                                    "class": STRING,
                                    "score": NUMBER,
                                }
                            ),
                        },
                    },
                    extra=True,
                ),
                "attribute_completeness": map_of(
                    map_of(record({"filled": COUNT, "expected": COUNT})),
                    description="{class: {field: {filled, expected}}}",
                ),
                "verbatim_ratio": nullable(UNIT),
                "verbatim_n": nullable(COUNT),
                "edge_fanout": map_of(record({"extracted": ref("fanout"), "truth": ref("fanout")})),
                "integrity": record(
                    {
                        "empty_identity_nodes": STRINGS,
                        "orphan_nodes": STRINGS,
                        "unkeyed_extracted_nodes": COUNT,
                        "unkeyed_truth_nodes": COUNT,
                    },
                    extra=True,
                ),
            },
            extra=True,
        ),
        "rung_counts": record({"tp": COUNT, "fp": COUNT, "fn": COUNT}, extra=True),
        "graph_detail": {
            "type": "object",
            "description": "{rung: tp/fp/fn} of a node class or edge label (P/R/F1 are "
            "metrics), and under 'unmatched' the items themselves per rung: 'missing' (truth, "
            "the fn) and 'extra' (extracted, the fp); node ids as Class:value, edges as "
            "[source, target].",
            "properties": {
                "unmatched": map_of(
                    record(
                        {
                            "missing": {"type": "array"},
                            "extra": {"type": "array"},
                        }
                    )
                )
            },
            "additionalProperties": ref("rung_counts"),
        },
        "graph_dataset": {
            "type": "object",
            "description": "eval.json's facts other than inputs and scores, and micro tp/fp/fn.",
            "properties": {
                "micro": map_of(map_of(ref("rung_counts"))),
                "relaxed_alias_pairs": {
                    "type": "array",
                    "items": record({"truth": STRING, "extracted": STRING, "class": STRING}),
                },
                "integrity": {"type": "object"},
                "attribute_completeness": {"type": "object"},
                "structural_alignment": {"type": "object"},
            },
        },
    }
