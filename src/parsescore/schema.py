"""JSON Schemas (draft 2020-12) of every kind's ``--out`` document (``parsescore schema KIND``).

The schemas are built here in Python from the formats the commands write (flowchart
``benchmark_result``, table ``BatchResult.to_json``, ``grits``' ``evaluate_cell_tables``, the
sequence spec's ``{"totals", "files"}`` block, graph's eval.json, ``Comparison.to_json``), so that
other tools can check a file without reading our code. Policy, the same for every kind:

* records whose shape is fixed (counts, P/R/F1, sequence category counts, a node match, a
  confidence interval, ...) are strict: every key required, no other key allowed, counts are
  ``integer`` and scores ``number``, sequence categories an exact set;
* envelopes (a document's top level, its ``inputs``/``options``) list and require their keys but
  accept extra ones, so that a kind may add detail without breaking older readers.

``result`` is the common result envelope every dataset command writes with ``--result``
(:meth:`parsescore.results.Result.to_json`): strict at the top level, each item's ``detail`` and
the ``dataset`` described per kind but open (a kind may add drill-down detail). ``any`` is "any
document :func:`parsescore.results.load_result` accepts": one of the five kind documents or an
envelope.
"""

from __future__ import annotations

import copy
from typing import Any

from parsescore.errors import InputError
from parsescore.files import dump_json
from parsescore.results import ENVELOPE_KEY, ENVELOPE_VERSION, KINDS, SEQUENCE_CATEGORIES

__all__ = ["DRAFT", "SCHEMA_KINDS", "schema", "schema_json", "validate"]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
_BASE_ID = "urn:parsescore:schema:"

#: The documents with a schema: the kinds' ``--out`` JSON, ``compare --out``, the ``--result``
#: envelope and ``any`` (whatever ``load_result`` reads).
SCHEMA_KINDS = ("flowchart", "table", "grits", "sequence", "graph", "compare", "result", "any")

_TITLES = {
    "flowchart": "parsescore flowchart --out",
    "table": "parsescore table --out",
    "grits": "parsescore grits --out",
    "sequence": "parsescore sequence --out (one model, or one block per model)",
    "graph": "parsescore graph --out (eval.json)",
    "compare": "parsescore compare --out",
    "result": "parsescore result envelope (--result of every dataset command)",
    "any": "any result document parsescore.load_result reads",
}

# -- building blocks ----------------------------------------------------------------------------

_NUMBER: dict[str, Any] = {"type": "number"}
_COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
_UNIT: dict[str, Any] = {"type": "number", "minimum": 0, "maximum": 1}
_STRING: dict[str, Any] = {"type": "string"}
_STRINGS: dict[str, Any] = {"type": "array", "items": _STRING}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _record(
    properties: dict[str, Any],
    *,
    optional: tuple[str, ...] = (),
    extra: bool | dict[str, Any] = False,
    description: str | None = None,
) -> dict[str, Any]:
    """An object whose keys are all required but ``optional``; ``extra`` governs other keys."""
    out: dict[str, Any] = {"type": "object"}
    if description:
        out["description"] = description
    out["properties"] = properties
    out["required"] = [k for k in properties if k not in optional]
    out["additionalProperties"] = extra
    return out


def _map(values: dict[str, Any], **more: Any) -> dict[str, Any]:
    """An object with free keys (names, ids) whose values all match ``values``."""
    return {"type": "object", "additionalProperties": values, **more}


def _defs() -> dict[str, dict[str, Any]]:
    """Every named sub-schema; each kind's schema carries the ones it reaches."""
    counts = {
        "tp": _COUNT,
        "fp": _COUNT,
        "fn": _COUNT,
        "precision": _UNIT,
        "recall": _UNIT,
        "f1": _UNIT,
        "jaccard": _UNIT,
    }
    edge = {"type": "array", "prefixItems": [_COUNT, _COUNT], "minItems": 2, "maxItems": 2}
    text_match = _record(
        {
            "match_type": {"enum": ["match", "unmatched_true", "unmatched_pred"]},
            "true_index": _nullable(_COUNT),
            "pred_index": _nullable(_COUNT),
            "true_text": _nullable(_STRING),
            "pred_text": _nullable(_STRING),
            "cost": {"type": "number", "minimum": 0},
        },
        description="One pairing of two text lists (labels, additional texts).",
    )
    defs: dict[str, dict[str, Any]] = {
        # flowchart
        "counts": _record(counts, description="tp/fp/fn with precision, recall, F1, Jaccard."),
        "flow": _record(
            counts
            | {
                "missing_edges": {"type": "array", "items": edge},
                "extra_edges": {"type": "array", "items": edge},
            },
            description="Flow (edge) scores of one diagram; edges as [source, target] nodes.",
        ),
        "text_match": text_match,
        "node_match": _record(
            {
                "match_type": {"enum": ["match", "unmatched_true", "unmatched_pred"]},
                "true_node": _nullable(_COUNT),
                "pred_node": _nullable(_COUNT),
                "true_text": _nullable(_STRING),
                "pred_text": _nullable(_STRING),
                "node_text_cost": {"type": "number", "minimum": 0},
                "label_cost": {"type": "number", "minimum": 0},
                "label_matches": {"type": "array", "items": _ref("text_match")},
            },
            optional=("label_cost", "label_matches"),
        ),
        "diagram": _record(
            {
                "stem": _STRING,
                "option": _COUNT,
                "node_text_cost": {"type": "number", "minimum": 0},
                "label_cost": {"type": "number", "minimum": 0},
                "additional_text_cost": {"type": "number", "minimum": 0},
                "flow": _ref("flow"),
                "node_matches": {"type": "array", "items": _ref("node_match")},
                "additional_text_matches": {"type": "array", "items": _ref("text_match")},
            },
            optional=("label_cost", "additional_text_cost", "flow", "additional_text_matches"),
            description="One flowchart: its costs, flow scores and every node match.",
        ),
        "flowchart_totals": _record(
            {
                "diagrams": _COUNT,
                "node_text_cost": _NUMBER,
                "label_cost": _NUMBER,
                "additional_text_cost": _NUMBER,
                "avg_flow_jaccard": _UNIT,
                "flow_micro": _ref("counts"),
            },
            optional=("label_cost", "additional_text_cost", "avg_flow_jaccard", "flow_micro"),
            extra=_NUMBER,
        ),
        "flowchart": _record(
            {
                "kind": {"const": "flowchart"},
                "version": _STRING,
                "inputs": _record(
                    {"truth": _STRING, "pred": _STRINGS}, extra=True, description="Input paths."
                ),
                "options": {"type": "object"},
                "parts": {
                    "type": "array",
                    "items": {"enum": ["node_text", "labels", "flow", "additional_texts"]},
                    "uniqueItems": True,
                },
                "available_methods": _STRINGS,
                "totals": _ref("flowchart_totals"),
                "missing_predictions": _STRINGS,
                "diagrams": {"type": "array", "items": _ref("diagram")},
            },
            extra=True,
        ),
        # table and grits
        "table_metric": _record(
            {"mean": _NUMBER, "scores": _map(_NUMBER, description="{table name: score}")}
        ),
        "grits_metric": _record(
            {
                "mean": _nullable(_NUMBER),
                "scores": _map(_nullable(_NUMBER), description="{table name: score or null}"),
            },
            description="null: not measured (GriTS-Loc without boxes).",
        ),
        "table": _record(
            {
                "metric": {"enum": ["TEDS", "TEDS-S"]},
                "scores": _map(_NUMBER),
                "mean": _NUMBER,
                "missing": _STRINGS,
                "extra": _STRINGS,
                "n_tables": _COUNT,
                "metrics": _record(
                    {
                        name: _ref("table_metric")
                        for name in (
                            "TEDS",
                            "TEDS-S",
                            "GriTS-Top",
                            "GriTS-Top precision",
                            "GriTS-Top recall",
                            "GriTS-Con",
                            "GriTS-Con precision",
                            "GriTS-Con recall",
                        )
                    },
                    optional=tuple(
                        f"GriTS-{v}{s}"
                        for v in ("Top", "Con")
                        for s in ("", " precision", " recall")
                    ),
                    extra=_ref("table_metric"),
                    description="Every metric by name; GriTS ones are absent with --no-grits.",
                ),
                "options": _record(
                    {
                        "denominator": {"enum": ["tree_nodes", "all_descendants"]},
                        "normalise": {"type": "boolean"},
                        "ignore_nodes": _STRINGS,
                        "grits": {"type": "boolean"},
                        "grits_iou": {"enum": ["enclosing", "union"]},
                        "grits_lcs": {"enum": ["difflib", "exact"]},
                    },
                    extra=True,
                ),
            },
            extra=True,
        ),
        "grits": _record(
            {
                "metric": {"const": "GriTS-Con"},
                "scores": _map(_nullable(_NUMBER)),
                "mean": _nullable(_NUMBER),
                "missing": _STRINGS,
                "extra": _STRINGS,
                "n_tables": _COUNT,
                "metrics": _record(
                    {
                        f"GriTS-{v}{s}": _ref("grits_metric")
                        for v in ("Top", "Con", "Loc")
                        for s in ("", " precision", " recall")
                    },
                    extra=_ref("grits_metric"),
                ),
                "options": _record(
                    {
                        "iou": {"enum": ["enclosing", "union"]},
                        "lcs": {"enum": ["difflib", "exact"]},
                    },
                    extra=True,
                ),
            },
            extra=True,
        ),
        # sequence
        "category_counts": _record(
            {
                "gt_count": _COUNT,
                "insertion": _COUNT,
                "deletion": _COUNT,
                "substitution": _COUNT,
                "insertion_rate": {"type": "number", "minimum": 0},
                "deletion_rate": {"type": "number", "minimum": 0},
                "substitution_rate": {"type": "number", "minimum": 0},
            },
            description="Ground-truth count, I/D/S counts and their rates (% of gt_count).",
        ),
        "sequence_totals": _record({c: _ref("category_counts") for c in SEQUENCE_CATEGORIES}),
        "sequence_file": _record(
            {"path": _STRING, "gt_lines": _COUNT}
            | {c: _ref("category_counts") for c in SEQUENCE_CATEGORIES}
        ),
        "sequence_block": _record(
            {
                "totals": _ref("sequence_totals"),
                "files": {"type": "array", "items": _ref("sequence_file")},
            },
            description="One model: dataset totals (counts summed, then divided) and files.",
        ),
        "sequence": {
            "description": "One model's block, or {model: block} for several models (a "
            "document with both 'totals' and 'files' is one block, as load_result reads it).",
            "if": {"type": "object", "required": ["totals", "files"]},
            "then": _ref("sequence_block"),
            "else": _map(_ref("sequence_block"), minProperties=1),
        },
        # graph
        "prf": _record(
            {"tp": _COUNT, "fp": _COUNT, "fn": _COUNT, "p": _UNIT, "r": _UNIT, "f1": _UNIT},
            description="Counts with precision/recall/F1 rounded to 3 decimals.",
        ),
        "rungs": _record(
            {"strict": _ref("prf"), "relaxed": _ref("prf"), "aligned": _ref("prf")},
            optional=("aligned",),
        ),
        "fanout": _nullable(
            _record({"total": _COUNT, "sources": _COUNT, "top_source_share": _UNIT})
        ),
        "graph": _record(
            {
                "graph": _STRING,
                "truth": _STRING,
                "template": _nullable(_STRING),
                "micro": _record({"nodes": _ref("rungs"), "edges": _ref("rungs")}),
                "nodes": _map(_ref("rungs"), description="{node class: rungs}"),
                "edges": _map(_ref("rungs"), description="{edge label: rungs}"),
                "relaxed_alias_pairs": {
                    "type": "array",
                    "items": _record({"truth": _STRING, "extracted": _STRING, "class": _STRING}),
                },
                "structural_alignment": _record(
                    {
                        "mode": {"enum": ["auto", "on", "off"]},
                        "classes": _STRINGS,
                        "synthetic_id_classes": _STRINGS,
                        "pairs": {
                            "type": "array",
                            "items": _record(
                                {
                                    "truth": _STRING,
                                    "extracted": _STRING,
                                    "class": _STRING,
                                    "score": _NUMBER,
                                }
                            ),
                        },
                    },
                    extra=True,
                ),
                "attribute_completeness": _map(
                    _map(_record({"filled": _COUNT, "expected": _COUNT})),
                    description="{class: {field: {filled, expected}}}",
                ),
                "verbatim_ratio": _nullable(_UNIT),
                "verbatim_n": _nullable(_COUNT),
                "edge_fanout": _map(
                    _record({"extracted": _ref("fanout"), "truth": _ref("fanout")})
                ),
                "integrity": _record(
                    {
                        "empty_identity_nodes": _STRINGS,
                        "orphan_nodes": _STRINGS,
                        "unkeyed_extracted_nodes": _COUNT,
                        "unkeyed_truth_nodes": _COUNT,
                    },
                    extra=True,
                ),
            },
            extra=True,
        ),
        # compare
        "interval": _record({"mean": _NUMBER, "ci_low": _NUMBER, "ci_high": _NUMBER}),
        "difference": _record(
            {
                "a": _STRING,
                "b": _STRING,
                "mean_difference": _NUMBER,
                "ci_low": _NUMBER,
                "ci_high": _NUMBER,
                "p_value": _UNIT,
            },
            description="a - b averaged over the items, its bootstrap interval and p-value.",
        ),
        "compare": _record(
            {
                "systems": {"type": "array", "items": _STRING, "minItems": 2, "uniqueItems": True},
                "metrics": _map(
                    _record(
                        {
                            "systems": _map(_ref("interval"), minProperties=2),
                            "differences": {"type": "array", "items": _ref("difference")},
                        }
                    ),
                    minProperties=1,
                ),
                "only_in": _map(_STRINGS, description="{system: items other systems lack}"),
            },
            extra=True,
        ),
        # the --result envelope
        "result_item": _record(
            {
                "id": _STRING,
                "metrics": _map(_NUMBER, description="{metric: value}; unmeasured: absent"),
                "detail": {"type": "object", "description": "The item's drill-down record."},
            }
        ),
        "flowchart_detail": _record(
            {
                "option": _COUNT,
                "flow": _record(
                    {
                        "tp": _COUNT,
                        "fp": _COUNT,
                        "fn": _COUNT,
                        "missing_edges": {"type": "array", "items": edge},
                        "extra_edges": {"type": "array", "items": edge},
                    },
                    extra=True,
                ),
                "node_matches": {"type": "array", "items": _ref("node_match")},
                "additional_text_matches": {"type": "array", "items": _ref("text_match")},
            },
            optional=("option", "flow", "node_matches", "additional_text_matches"),
            extra=True,
            description="A diagram's record without its stem and the numbers in metrics.",
        ),
        "table_cell": _record(
            {
                "row": _COUNT,
                "col": _COUNT,
                "rowspan": _COUNT,
                "colspan": _COUNT,
                "text": _STRING,
            },
            description="A cell: 0-based grid slot of its top-left corner, spans, text.",
        ),
        "table_detail": _record(
            {
                "cells": {
                    "type": "array",
                    "items": _record(
                        {
                            "change": {"enum": ["insertion", "deletion", "substitution"]},
                            "truth": _nullable(_ref("table_cell")),
                            "pred": _nullable(_ref("table_cell")),
                        }
                    ),
                },
                "cell_changes": _record(
                    {"insertion": _COUNT, "deletion": _COUNT, "substitution": _COUNT}
                ),
            },
            optional=("cells", "cell_changes"),
            extra=True,
            description="The cells that differ (rows and columns aligned as GriTS aligns them) "
            "and their counts.",
        ),
        "sequence_detail": _record(
            {
                "gt_lines": _COUNT,
                "counts": _record(
                    {
                        c: _record(
                            {
                                "gt_count": _COUNT,
                                "insertion": _COUNT,
                                "deletion": _COUNT,
                                "substitution": _COUNT,
                            }
                        )
                        for c in SEQUENCE_CATEGORIES
                    },
                    optional=SEQUENCE_CATEGORIES,
                    extra=True,
                ),
                "differences": {
                    "type": "array",
                    "items": _record(
                        {
                            "category": _STRING,
                            "change": {"enum": ["insertion", "deletion", "substitution"]},
                            "truth_line": _nullable(_COUNT),
                            "truth_text": _nullable(_STRING),
                            "pred_line": _nullable(_COUNT),
                            "pred_text": _nullable(_STRING),
                            "detail": _STRING,
                            "edit_distance": _nullable(_COUNT),
                        },
                        optional=("edit_distance",),
                        extra=True,
                    ),
                },
            },
            optional=("gt_lines", "counts", "differences"),
            extra=True,
            description="A file's ground-truth lines, counts per category and every counted "
            "difference.",
        ),
        "rung_counts": _record({"tp": _COUNT, "fp": _COUNT, "fn": _COUNT}, extra=True),
        "graph_detail": {
            "type": "object",
            "description": "{rung: tp/fp/fn} of a node class or edge label (P/R/F1 are "
            "metrics), and under 'unmatched' the items themselves per rung: 'missing' (truth, "
            "the fn) and 'extra' (extracted, the fp); node ids as Class:value, edges as "
            "[source, target].",
            "properties": {
                "unmatched": _map(
                    _record(
                        {
                            "missing": {"type": "array"},
                            "extra": {"type": "array"},
                        }
                    )
                )
            },
            "additionalProperties": _ref("rung_counts"),
        },
        "flowchart_dataset": _record(
            {
                "missing_predictions": _STRINGS,
                "parts": {"type": "array", "items": _STRING},
            },
            optional=("missing_predictions", "parts"),
            extra=True,
        ),
        "table_dataset": _record(
            {"missing": _STRINGS, "extra": _STRINGS}, optional=("missing", "extra"), extra=True
        ),
        "sequence_dataset": _record(
            {
                "missing_predictions": _STRINGS,
                "skipped": {
                    "type": "array",
                    "items": _record({"path": _STRING, "reason": _STRING}),
                },
            },
            optional=("missing_predictions", "skipped"),
            extra=True,
        ),
        "graph_dataset": {
            "type": "object",
            "description": "eval.json's facts other than inputs and scores, and micro tp/fp/fn.",
            "properties": {
                "micro": _map(_map(_ref("rung_counts"))),
                "relaxed_alias_pairs": {
                    "type": "array",
                    "items": _record({"truth": _STRING, "extracted": _STRING, "class": _STRING}),
                },
                "integrity": {"type": "object"},
                "attribute_completeness": {"type": "object"},
                "structural_alignment": {"type": "object"},
            },
        },
        "result": {
            **_record(
                {
                    ENVELOPE_KEY: {"const": ENVELOPE_VERSION},
                    "version": _nullable(_STRING),
                    "kind": {"enum": list(KINDS)},
                    "system": _STRING,
                    "inputs": {"type": "object", "description": "What was scored, as given."},
                    "options": {"type": "object", "description": "Options that change numbers."},
                    "items": {"type": "array", "items": _ref("result_item")},
                    "totals": _map(_NUMBER, description="Dataset-level numbers, flattened."),
                    "dataset": {"type": "object", "description": "Dataset-level facts."},
                },
                description="One system on one dataset (parsescore.results.Result.to_json).",
            ),
            "allOf": [
                {
                    "if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                    "then": {
                        "properties": {
                            "items": {"items": {"properties": {"detail": _ref(f"{kind}_detail")}}},
                            "dataset": _ref(f"{kind}_dataset"),
                        }
                    },
                }
                for kind in KINDS
            ],
        },
        "any": {
            "anyOf": [
                _ref(k) for k in ("flowchart", "table", "grits", "sequence", "graph", "result")
            ]
        },
    }
    return defs


def _refs(node: Any, found: list[str]) -> None:
    """Append the definition names ``node`` refers to (``#/$defs/NAME``) to ``found``."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            found.append(ref.removeprefix("#/$defs/"))
        for value in node.values():
            _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)


def _reached(name: str, defs: dict[str, dict[str, Any]]) -> list[str]:
    """``name`` and every definition it refers to, directly or not."""
    order: list[str] = []
    stack = [name]
    while stack:
        current = stack.pop()
        if current in order:
            continue
        order.append(current)
        found: list[str] = []
        _refs(defs[current], found)
        stack.extend(reversed(found))
    return order


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``kind``'s document, self-contained (``$defs``)."""
    if kind not in SCHEMA_KINDS:
        raise InputError(f"unknown schema {kind!r}; expected one of {', '.join(SCHEMA_KINDS)}")
    defs = _defs()
    return {
        "$schema": DRAFT,
        "$id": f"{_BASE_ID}{kind}",
        "title": _TITLES[kind],
        "$ref": f"#/$defs/{kind}",
        # a deep copy: the building blocks are shared, a caller may edit what it gets
        "$defs": copy.deepcopy({name: defs[name] for name in sorted(_reached(kind, defs))}),
    }


def schema_json(kind: str) -> str:
    """:func:`schema` as deterministic JSON text (same bytes every run)."""
    return dump_json(schema(kind))


def validate(doc: Any, kind: str) -> None:
    """Raise :class:`InputError` naming where ``doc`` breaks ``kind``'s schema.

    Of several errors, jsonschema's ``best_match`` (the most specific) is reported. Needs
    the ``jsonschema`` package (imported only here).
    """
    try:
        import jsonschema
    except ImportError:
        raise ImportError("schema validation needs jsonschema: pip install jsonschema") from None
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema(kind)).iter_errors(doc)
    )
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "top level"
        raise InputError(f"not a valid {kind} document: {error.message}", where=where)
