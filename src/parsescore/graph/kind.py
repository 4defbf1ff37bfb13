"""The knowledge-graph kind's description for the registry (:mod:`parsescore.core.kinds`).

Cheap to import: everything heavy is a :func:`~parsescore.core.kinds.lazy` reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parsescore.core.kinds import Kind, Metric, ReportParts, lazy
from parsescore.shared.coverage import READABLE

__all__ = ["DOCUMENT_NOUNS", "KIND", "RUNGS", "is_documents"]

#: The matching rungs of docling-graph's script 16, in its order.
RUNGS = ("strict", "relaxed", "aligned")

#: What an item is in dataset mode (folders): the kind's ``item``/``items`` nouns describe the
#: one-document mode, whose items are node classes and edge labels. A dataset-mode result
#: records these under ``Result.dataset["nouns"]``.
DOCUMENT_NOUNS = ("document", "documents")


def is_documents(dataset: Mapping[str, Any]) -> bool:
    """Whether a graph result's ``dataset`` facts are those of dataset mode (items are
    documents) rather than of one document (items are node classes and edge labels)."""
    return dataset.get("nouns") == list(DOCUMENT_NOUNS)


def _detect(doc: Mapping[str, Any]) -> bool:
    """eval.json (one document), or the dataset document (``documents`` and their micro)."""
    return {"micro", "nodes", "edges"} <= doc.keys() or {"micro", "documents"} <= doc.keys()


def _metric(section: str, rung: str, score: str, *, headline: bool = False) -> Metric:
    what = "node" if section == "node" else "edge"
    label = {"precision": "P", "recall": "R", "f1": "F1"}[score]
    return Metric(f"{section}_{rung}_{score}", f"{what} {label} {rung}", True, headline=headline)


def _metrics(headline_rungs: tuple[str, ...]) -> tuple[Metric, ...]:
    """Every P/R/F1 of every rung; the F1 of ``headline_rungs`` first (node, then edge)."""
    first = [
        _metric(section, rung, "f1", headline=True)
        for section in ("node", "edge")
        for rung in headline_rungs
    ]
    names = {m.name for m in first}
    rest = [
        _metric(section, rung, score)
        for section in ("node", "edge")
        for rung in RUNGS
        for score in ("precision", "recall", "f1")
        if f"{section}_{rung}_{score}" not in names
    ]
    return (*first, *rest)


KIND = Kind(
    name="graph",
    title="Knowledge graphs",
    item="node class or edge label",
    items="node classes and edge labels",
    metrics=(*_metrics(("strict", "relaxed")), READABLE),
    totals=(
        *_metrics(RUNGS),
        Metric("verbatim_ratio", "verbatim ratio", True),
        READABLE,
    ),
    totals_note="graph P/R/F1 are micro-averaged over classes (and documents: tp/fp/fn "
    "summed); the verbatim ratio pools the long strings of every document",
    evaluate=lazy("parsescore.graph.result:evaluate"),
    read=lazy("parsescore.graph.result:read"),
    detect=_detect,
    documents={"graph": "parsescore graph --out (eval.json; with folders, one per document)"},
    recognised="`graph` (micro, nodes, edges; or micro, documents)",
    schema=lazy("parsescore.graph.schema:schema_defs"),
    cli=lazy("parsescore.graph.cli:register"),
    report=ReportParts(
        prepare=None,
        plots=None,
        drilldown=lazy("parsescore.graph.report_html:drilldown"),
        counts=lazy("parsescore.graph.report_html:counts"),
    ),
    summarise=lazy("parsescore.graph.summary:summarise"),
    demo=lazy("parsescore.graph.demo:run_demo"),
)
