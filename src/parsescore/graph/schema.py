"""The JSON Schema parts of graph results (eval.json) (``parsescore schema graph``), built from the
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
    """Every named sub-schema of graph results: eval.json, the dataset document (an eval.json
    per document), their parts, and the envelope's ``graph_detail`` / ``graph_dataset``."""
    coverage = {
        "missing": {**STRINGS, "description": "Truth documents without an answer."},
        "unreadable": map_of(STRING, description="{document: why its answer is unreadable}"),
        "fenced": map_of(STRING, description="{document: info string of the fenced block read}"),
    }
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
        "graph": {
            "anyOf": [ref("graph_eval"), ref("graph_documents")],
            "description": "parsescore graph --out: eval.json (one document), or with folders "
            "the dataset document (an eval.json per document).",
        },
        "graph_eval": record(
            {
                "graph": nullable(STRING),
                "truth": STRING,
                "template": nullable(STRING),
                "micro": ref("micro"),
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
        "micro": record({"nodes": ref("rungs"), "edges": ref("rungs")}),
        "graph_documents": record(
            {
                "truth": nullable(STRING),
                "graph": nullable(STRING),
                "template": nullable(STRING),
                "source": nullable(STRING),
                "micro": ref("micro"),
                "verbatim_ratio": nullable(UNIT),
                "verbatim_n": COUNT,
                "verbatim_hits": COUNT,
                **coverage,
                "documents": map_of(ref("graph_eval"), description="{document id: its eval.json}"),
            },
            extra=True,
            description="parsescore graph with folders: the micro over documents (tp/fp/fn "
            "summed per rung; a document without the aligned rung adds its relaxed counts), "
            "the pooled verbatim ratio, the answers' coverage and each document's eval.json "
            "(null graph: no answer).",
        ),
        "rung_counts": record({"tp": COUNT, "fp": COUNT, "fn": COUNT}, extra=True),
        "unmatched": map_of(
            record(
                {
                    "missing": {"type": "array"},
                    "extra": {"type": "array"},
                }
            )
        ),
        "graph_detail": {
            "anyOf": [
                {
                    "type": "object",
                    "description": "One document: {rung: tp/fp/fn} of a node class or edge "
                    "label (P/R/F1 are metrics), and under 'unmatched' the items themselves per "
                    "rung: 'missing' (truth, the fn) and 'extra' (extracted, the fp); node ids "
                    "as Class:value, edges as [source, target].",
                    "properties": {"unmatched": ref("unmatched")},
                    "additionalProperties": ref("rung_counts"),
                },
                {
                    "type": "object",
                    "description": "A dataset's document: its eval.json without the template, "
                    "micro as tp/fp/fn (P/R/F1 are metrics), and the unmatched items per "
                    "section and class or label.",
                    "properties": {
                        "micro": map_of(map_of(ref("rung_counts"))),
                        "nodes": map_of(ref("rungs")),
                        "edges": map_of(ref("rungs")),
                        "unmatched": record(
                            {"nodes": map_of(ref("unmatched")), "edges": map_of(ref("unmatched"))}
                        ),
                    },
                    "required": ["micro", "nodes", "edges"],
                },
            ]
        },
        "graph_dataset": {
            "type": "object",
            "description": "One document: eval.json's facts other than inputs and scores, and "
            "micro tp/fp/fn. A dataset (nouns: document, documents): the micro tp/fp/fn over "
            "documents, the verbatim counts and the answers' coverage.",
            "properties": {
                "micro": map_of(map_of(ref("rung_counts"))),
                "relaxed_alias_pairs": {
                    "type": "array",
                    "items": record({"truth": STRING, "extracted": STRING, "class": STRING}),
                },
                "integrity": {"type": "object"},
                "attribute_completeness": {"type": "object"},
                "structural_alignment": {"type": "object"},
                "nouns": {"type": "array", "items": STRING, "minItems": 2, "maxItems": 2},
                "verbatim_n": nullable(COUNT),
                "verbatim_hits": COUNT,
                **coverage,
            },
        },
    }
