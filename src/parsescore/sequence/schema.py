"""The JSON Schema parts of sequence results (``parsescore schema sequence``), built from the
shared blocks of :mod:`parsescore.core.schema`."""

from __future__ import annotations

from typing import Any

from parsescore.core.schema import (
    COUNT,
    STRING,
    STRINGS,
    UNIT,
    map_of,
    nullable,
    record,
    ref,
)
from parsescore.sequence.model import CATEGORIES

__all__ = ["schema_defs"]


def schema_defs() -> dict[str, dict[str, Any]]:
    """Every named sub-schema of sequence results: the documents, their parts, and the envelope's
    ``sequence_detail`` / ``sequence_dataset``."""
    return {
        "category_counts": record(
            {
                "gt_count": COUNT,
                "insertion": COUNT,
                "deletion": COUNT,
                "substitution": COUNT,
                "insertion_rate": {"type": "number", "minimum": 0},
                "deletion_rate": {"type": "number", "minimum": 0},
                "substitution_rate": {"type": "number", "minimum": 0},
            },
            description="Ground-truth count, I/D/S counts and their rates (% of gt_count).",
        ),
        "sequence_totals": record({c: ref("category_counts") for c in CATEGORIES}),
        "sequence_file": record(
            {"path": STRING, "gt_lines": COUNT}
            | {c: ref("category_counts") for c in CATEGORIES}
            | {"readable": UNIT},
            optional=("readable",),
            description="One truth file; readable: 1 when its prediction was present and "
            "readable, 0 when it was missing or unreadable (scored as everything deleted).",
        ),
        "sequence_block": record(
            {
                "totals": ref("sequence_totals"),
                "files": {"type": "array", "items": ref("sequence_file")},
                "readable": UNIT,
            },
            optional=("readable",),
            description="One model: dataset totals (counts summed, then divided), files, and "
            "the share of truth files whose prediction was present and readable.",
        ),
        "sequence": {
            "description": "One model's block, or {model: block} for several models (a "
            "document with both 'totals' and 'files' is one block, as load_result reads it).",
            "if": {"type": "object", "required": ["totals", "files"]},
            "then": ref("sequence_block"),
            "else": map_of(ref("sequence_block"), minProperties=1),
        },
        "sequence_detail": record(
            {
                "gt_lines": COUNT,
                "counts": record(
                    {
                        c: record(
                            {
                                "gt_count": COUNT,
                                "insertion": COUNT,
                                "deletion": COUNT,
                                "substitution": COUNT,
                            }
                        )
                        for c in CATEGORIES
                    },
                    optional=CATEGORIES,
                    extra=True,
                ),
                "differences": {
                    "type": "array",
                    "items": record(
                        {
                            "category": STRING,
                            "change": {"enum": ["insertion", "deletion", "substitution"]},
                            "truth_line": nullable(COUNT),
                            "truth_text": nullable(STRING),
                            "pred_line": nullable(COUNT),
                            "pred_text": nullable(STRING),
                            "detail": STRING,
                            "edit_distance": nullable(COUNT),
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
        "sequence_dataset": record(
            {
                "missing": {**STRINGS, "description": "Truth files without a prediction."},
                "unreadable": map_of(
                    STRING, description="{truth file: why its prediction was not read}"
                ),
                "fenced": map_of(
                    STRING,
                    description="{truth file: info string of the fenced block its "
                    "prediction was read from}",
                ),
                "skipped": {
                    "type": "array",
                    "items": record({"path": STRING, "reason": STRING}),
                },
            },
            optional=("missing", "unreadable", "fenced", "skipped"),
            extra=True,
        ),
    }
