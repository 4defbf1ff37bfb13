"""The JSON Schema parts of table and GriTS results (``parsescore schema table|grits``), built
from the shared blocks of :mod:`parsescore.core.schema`."""

from __future__ import annotations

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

__all__ = ["schema_defs"]

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
                "metric": {"enum": ["TEDS", "TEDS-S"]},
                "scores": map_of(NUMBER),
                "mean": NUMBER,
                "missing": _MISSING,
                "extra": _EXTRA,
                "n_tables": COUNT,
                "unreadable": _UNREADABLE,
                "fenced": _FENCED,
                "metrics": record(
                    {
                        name: ref("table_metric")
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
                    }
                    | {"readable": _READABLE},
                    optional=tuple(
                        f"GriTS-{v}{s}"
                        for v in ("Top", "Con")
                        for s in ("", " precision", " recall")
                    ),
                    extra=ref("table_metric"),
                    description="Every metric by name; GriTS ones are absent with --no-grits.",
                ),
                "options": record(
                    {
                        "denominator": {"enum": ["tree_nodes", "all_descendants"]},
                        "normalise": {"type": "boolean"},
                        "ignore_nodes": STRINGS,
                        "grits": {"type": "boolean"},
                        "grits_iou": {"enum": ["enclosing", "union"]},
                        "grits_lcs": {"enum": ["difflib", "exact"]},
                    },
                    extra=True,
                ),
            },
            optional=("unreadable", "fenced"),
            extra=True,
        ),
        "grits": record(
            {
                "metric": {"const": "GriTS-Con"},
                "scores": map_of(nullable(NUMBER)),
                "mean": nullable(NUMBER),
                "missing": _MISSING,
                "extra": _EXTRA,
                "n_tables": COUNT,
                "unreadable": _UNREADABLE,
                "fenced": _FENCED,
                "metrics": record(
                    {
                        f"GriTS-{v}{s}": ref("grits_metric")
                        for v in ("Top", "Con", "Loc")
                        for s in ("", " precision", " recall")
                    }
                    | {"readable": _READABLE},
                    extra=ref("grits_metric"),
                ),
                "options": record(
                    {
                        "iou": {"enum": ["enclosing", "union"]},
                        "lcs": {"enum": ["difflib", "exact"]},
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
