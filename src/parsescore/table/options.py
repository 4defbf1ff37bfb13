"""The table kind's options, declared once (:mod:`parsescore.core.options`): the flags of
``parsescore table``, the keywords of ``parsescore.evaluate("table", ...)``, what ``Result.options``
and the ``--out`` documents record, the cache key and the docs all come from
:class:`TableOptions`. ``parsescore grits`` and ``teds`` take their shared flags from it too.

Cheap to import (``parsescore --help`` builds the command from it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from parsescore.core.options import AnswerOptions, DatasetOptions, option, recorded_options
from parsescore.shared.tables.names import Denominator, IouMode, LatexMath, LcsMode

__all__ = [
    "TableFormat",
    "TableOptions",
    "document_options",
    "grits_document_options",
]

#: The names of the table formats (the reader registry,
#: ``parsescore.shared.tables.registry.FORMATS``, in ``auto``'s order) and ``auto``; a test
#: checks that they agree.
TableFormat = Literal[
    "html", "markdown", "html-fragment", "latex", "tsv", "csv", "otsl", "doctags", "auto"
]

_FORMAT_HELP = (
    "(html: the reference's input, a whole document; auto: a folder's files by extension, "
    "other tables by their content)."
)


@dataclass(frozen=True)
class TableOptions(DatasetOptions, AnswerOptions):
    """How ``parsescore table`` (and ``parsescore.evaluate("table", ...)``) scores a collection.

    The defaults are the references': TEDS / TEDS-S as ``table_recognition_metric`` 0.0.6,
    GriTS as table-transformer, tables read as HTML documents.
    """

    structure_only: bool = option(
        False, "Headline metric TEDS-S (as the reference's -steds); both are always computed."
    )
    denominator: Denominator = option(
        "tree_nodes",
        "TEDS's normaliser: tree_nodes (the reference) or all_descendants (PubTabNet, "
        "OmniDocBench).",
        scores=True,
    )
    normalise: bool = option(False, "OmniDocBench-style HTML normalisation first.", scores=True)
    ignore_nodes: tuple[str, ...] = option(
        (), "Tags stripped before TEDS (comma-separated, or the flag repeated).", scores=True
    )
    grits: bool = option(True, "Compute GriTS (Top and Con).", scores=True)
    grits_iou: IouMode = option(
        "enclosing",
        "GriTS's box overlap: enclosing (table-transformer) or union (docling-metrics).",
        scores=True,
    )
    grits_lcs: LcsMode = option(
        "difflib",
        "GriTS's text similarity: difflib (table-transformer) or exact (the true LCS).",
        scores=True,
    )
    truth_format: TableFormat = option(
        "html", f"How the truth tables are written {_FORMAT_HELP}", scores=True, record="changed"
    )
    pred_format: TableFormat = option(
        "html",
        f"How the predicted tables are written {_FORMAT_HELP}",
        scores=True,
        record="changed",
    )
    header: bool = option(True, "CSV/TSV: the first row is a header (--no-header: a body row).")
    latex_math: LatexMath = option(
        "source",
        "LaTeX tables: math as its source between $ (source) or as the text it shows "
        "(text: $\\pm$ is ±, $^{a}$ is <sup>a</sup>).",
        scores=True,
        record="changed",
    )
    teds: bool = option(
        True,
        "Compute TEDS and TEDS-S (False: GriTS only, the result shaped as parsescore grits's).",
        scores=True,
        record="changed",
        where="api",
    )
    cells: bool = option(
        False,
        "truth and pred are table-transformer cell lists ({name: [cell]} JSON): GriTS-Top, "
        "-Con and, where every cell has a box, -Loc.",
        scores=True,
        record="changed",
        where="api",
    )
    cell_details: bool = option(
        True,
        "Each table's differing cells in its detail (the command: with --result).",
        where="api",
    )


def _formats(options: TableOptions, changed: dict[str, Any]) -> dict[str, Any]:
    """The reading options a document records (``changed``: those not at their default): the
    formats, both, when one is not the reference's ``html``, with ``latex_math`` when it is not
    the default; nothing otherwise, so that the default document stays the reference's."""
    if "truth_format" not in changed and "pred_format" not in changed:
        return {}
    kept = {"truth_format": options.truth_format, "pred_format": options.pred_format}
    return kept | ({"latex_math": changed["latex_math"]} if "latex_math" in changed else {})


def document_options(options: TableOptions) -> dict[str, Any]:
    """``options`` of a ``parsescore table --out`` document (and so of its ``Result``): the
    TEDS and GriTS options, the formats when not the reference's, ``allow_missing`` when set."""
    recorded = recorded_options(options)
    allow_missing = recorded.pop("allow_missing")
    for key in ("teds", "cells"):
        recorded.pop(key, None)
    formats = _formats(options, {k: recorded[k] for k in _READING if k in recorded})
    for key in _READING:
        recorded.pop(key, None)
    return recorded | formats | ({"allow_missing": True} if allow_missing else {})


def grits_document_options(options: TableOptions) -> dict[str, Any]:
    """``options`` of a ``parsescore grits`` document: ``iou`` and ``lcs`` (its own names for
    ``grits_iou`` / ``grits_lcs``), the formats of tables when not the reference's,
    ``allow_missing`` when set."""
    recorded = document_options(options)
    kept = {"iou": recorded.pop("grits_iou"), "lcs": recorded.pop("grits_lcs")}
    return kept | {k: v for k, v in recorded.items() if k in (*_READING, "allow_missing")}


_READING = ("truth_format", "pred_format", "latex_math")
