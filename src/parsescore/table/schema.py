"""The JSON Schema parts of table and GriTS results (``parsescore schema table|grits``), built
from the shared blocks of :mod:`parsescore.core.schema`."""

from __future__ import annotations

import typing
from typing import Any

from parsescore.core.schema import (
    COUNT,
    NUMBER,
    STRING,
    STRINGS,
    map_of,
    nullable,
    record,
    ref,
)
from parsescore.shared.coverage import READABLE
from parsescore.shared.tables.names import GRITS_KEYS, Denominator, IouMode, LcsMode
from parsescore.table.metrics import GRITS, TEDS, TEDS_S

__all__ = ["schema_defs"]

#: The GriTS metrics of a ``parsescore table`` document (tables have no boxes: no GriTS-Loc).
_TABLE_GRITS = tuple(name for key, name in GRITS_KEYS.items() if not key.startswith("loc"))

_MISSING = STRINGS | {"description": "Truth tables without an answer (they score 0)."}
_EXTRA = STRINGS | {"description": "Answers without a truth table (ignored)."}
_UNREADABLE = map_of(
    STRING,
    description="{table name: why its answer could not be read or scored (it scores 0, as a "
    "missing one does)}; in a --out document only when some could not (older documents call "
    "it 'failed')",
)
_READABLE = ref("table_metric") | {
    "description": "Per table 1 when its answer was present and readable, else 0; the mean is "
    "the share of all truth tables (--allow-missing: the tables left out count as 0)."
}
_FENCED = map_of(
    STRING,
    description="{table name: info string of the fenced block its answer was read from}; in a "
    "--out document only when some were",
)


def _choices(hint: Any) -> dict[str, Any]:
    """The enum of an option's values (its ``Literal``)."""
    return {"enum": list(typing.get_args(hint))}


def schema_defs() -> dict[str, dict[str, Any]]:
    """Every named sub-schema of table and GriTS results: the documents, their parts, and the
    envelope's ``table_detail`` / ``table_dataset``."""
    return {
        "table_metric": record(
            {"mean": NUMBER, "scores": map_of(NUMBER, description="{table name: score}")}
        ),
        "grits_metric": record(
            {
                "mean": nullable(NUMBER),
                "scores": map_of(nullable(NUMBER), description="{table name: score or null}"),
            },
            description="null: not measured (GriTS-Loc without boxes).",
        ),
        "table": record(
            {
                "metric": {"enum": [TEDS.name, TEDS_S.name]},
                "scores": map_of(NUMBER),
                "mean": NUMBER,
                "missing": _MISSING,
                "extra": _EXTRA,
                "n_tables": COUNT,
                "unreadable": _UNREADABLE,
                "fenced": _FENCED,
                "metrics": record(
                    {name: ref("table_metric") for name in (TEDS.name, TEDS_S.name, *_TABLE_GRITS)}
                    | {READABLE.name: _READABLE},
                    optional=_TABLE_GRITS,
                    extra=ref("table_metric"),
                    description="Every metric by name; GriTS ones are absent with --no-grits.",
                ),
                "options": record(
                    {
                        "denominator": _choices(Denominator),
                        "normalise": {"type": "boolean"},
                        "ignore_nodes": STRINGS,
                        "grits": {"type": "boolean"},
                        "grits_iou": _choices(IouMode),
                        "grits_lcs": _choices(LcsMode),
                    },
                    extra=True,
                ),
            },
            optional=("unreadable", "fenced"),
            extra=True,
        ),
        "grits": record(
            {
                "metric": {"const": GRITS_KEYS["con"]},
                "scores": map_of(nullable(NUMBER)),
                "mean": nullable(NUMBER),
                "missing": _MISSING,
                "extra": _EXTRA,
                "n_tables": COUNT,
                "unreadable": _UNREADABLE,
                "fenced": _FENCED,
                "metrics": record(
                    {metric.name: ref("grits_metric") for metric in GRITS}
                    | {READABLE.name: _READABLE},
                    extra=ref("grits_metric"),
                ),
                "options": record(
                    {
                        "iou": _choices(IouMode),
                        "lcs": _choices(LcsMode),
                    },
                    extra=True,
                ),
            },
            optional=("unreadable", "fenced"),
            extra=True,
        ),
        "table_cell": record(
            {
                "row": COUNT,
                "col": COUNT,
                "rowspan": COUNT,
                "colspan": COUNT,
                "text": STRING,
            },
            description="A cell: 0-based grid slot of its top-left corner, spans, text.",
        ),
        "table_detail": record(
            {
                "cells": {
                    "type": "array",
                    "items": record(
                        {
                            "change": {"enum": ["insertion", "deletion", "substitution"]},
                            "truth": nullable(ref("table_cell")),
                            "pred": nullable(ref("table_cell")),
                        }
                    ),
                },
                "cell_changes": record(
                    {"insertion": COUNT, "deletion": COUNT, "substitution": COUNT}
                ),
                "grid": record(
                    {
                        "rows": {"type": "array", "items": {"type": "array", "items": COUNT}},
                        "cols": {"type": "array", "items": {"type": "array", "items": COUNT}},
                        "truth": {"type": "array", "items": ref("table_cell")},
                        "pred": {"type": "array", "items": ref("table_cell")},
                    },
                    description="Every cell of both tables and the GriTS row and column "
                    "alignment ([truth, pred] index pairs), for the report's side-by-side view.",
                ),
            },
            optional=("cells", "cell_changes", "grid"),
            extra=True,
            description="The cells that differ (rows and columns aligned as GriTS aligns them) "
            "and their counts.",
        ),
        "table_dataset": record(
            {
                "missing": _MISSING,
                "unreadable": _UNREADABLE,
                "fenced": _FENCED,
                "extra": _EXTRA,
            },
            optional=("unreadable", "fenced"),
            extra=True,
        ),
    }
