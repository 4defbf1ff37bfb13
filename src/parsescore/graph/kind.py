"""The knowledge-graph kind's description for the registry (:mod:`parsescore.core.kinds`).

Cheap to import: everything heavy is a :func:`~parsescore.core.kinds.lazy` reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from parsescore.core.kinds import (
    CommandParts,
    Dataset,
    Format,
    FromCounts,
    Kind,
    Metric,
    ReportParts,
    lazy,
)
from parsescore.graph.attributes import ATTRIBUTES
from parsescore.graph.options import GraphOptions
from parsescore.shared.coverage import READABLE

__all__ = ["KIND"]

#: The matching rungs of docling-graph's script 16, in its order.
RUNGS = ("strict", "relaxed", "aligned")
#: eval.json's sections and the prefix of their items, metrics and counts.
SECTIONS = (("nodes", "node"), ("edges", "edge"))
#: eval.json's short score names and the scores (:class:`~parsescore.core.kinds.FromCounts`)
#: they are.
SCORES = {"p": "precision", "r": "recall", "f1": "f1"}
#: eval.json rounds precision, recall and F1 to this many decimals.
DIGITS = 3

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


def count_name(section: str, rung: str, count: str) -> str:
    """The name of an item's count: ``node_strict_tp`` (``section``: ``node`` or ``edge``)."""
    return f"{section}_{rung}_{count}"


def _metric(section: str, rung: str, score: str, *, headline: bool, total: bool) -> Metric:
    """A P/R/F1 of one rung; as a total, micro: the score of the items' summed tp/fp/fn,
    rounded as eval.json rounds it."""
    label = {"precision": "P", "recall": "R", "f1": "F1"}[score]
    metric = Metric(
        f"{section}_{rung}_{score}", f"{section} {label} {rung}", True, headline=headline
    )
    if not total:
        return metric
    tp, fp, fn = (count_name(section, rung, count) for count in ("tp", "fp", "fn"))
    return replace(metric, aggregate=FromCounts(score, tp, fp, fn, digits=DIGITS))  # type: ignore[arg-type]


def _metrics(headline_rungs: tuple[str, ...], *, total: bool = False) -> tuple[Metric, ...]:
    """Every P/R/F1 of every rung; the F1 of ``headline_rungs`` first (node, then edge)."""
    first = [
        _metric(section, rung, "f1", headline=True, total=total)
        for section in ("node", "edge")
        for rung in headline_rungs
    ]
    names = {m.name for m in first}
    rest = [
        _metric(section, rung, score, headline=False, total=total)
        for section in ("node", "edge")
        for rung in RUNGS
        for score in ("precision", "recall", "f1")
        if f"{section}_{rung}_{score}" not in names
    ]
    return (*first, *rest)


#: The dataset-level numbers: micro P/R/F1 per rung (over the classes and labels of one
#: document, or over documents), the verbatim ratio and the share of readable answers.
TOTALS = (
    *_metrics(RUNGS, total=True),
    Metric(
        "verbatim_ratio",
        "verbatim ratio",
        True,
        aggregate=Dataset(
            "the extracted long strings (80+ characters, on strict matches) found in the source "
            "over those checked: counted per document, not per class, and rounded by eval.json"
        ),
    ),
    replace(
        READABLE,
        aggregate=Dataset(
            "the share of every truth document, those --allow-missing leaves out included, "
            "whose answer was present and readable"
        ),
    ),
)

#: The formats the kind reads (its reader registry): the extracted graph (and a truth without
#: a template) is docling-graph's graph.json; a truth with a template is an instance of it.
FORMATS = (
    Format(
        "graph.json",
        "docling-graph's graph.json export (nodes, edges); a prediction may be a chat answer "
        "holding one in a fenced block",
        (".json",),
        read=lazy("parsescore.graph.io:read_graph"),
        detect=lazy("parsescore.graph.io:is_graph_json"),
    ),
    Format(
        "instance",
        "a ground truth: one JSON instance of the root template (--template), converted into "
        "a graph as docling-graph's converter does",
        (".json",),
        read=lazy("parsescore.graph.io:read_instance"),
    ),
)


KIND = Kind(
    name="graph",
    title="Knowledge graphs",
    item="node class or edge label",
    items="node classes and edge labels",
    metrics=(*_metrics(("strict", "relaxed")), READABLE),
    totals=TOTALS,
    totals_note="graph P/R/F1 are micro-averaged over classes (and documents: tp/fp/fn "
    "summed); the verbatim ratio pools the long strings of every document",
    evaluate=lazy("parsescore.graph.result:evaluate"),
    read=lazy("parsescore.graph.result:read"),
    detect=_detect,
    documents={"graph": "parsescore graph --out (eval.json; with folders, one per document)"},
    recognised="`graph` (micro, nodes, edges; or micro, documents)",
    schema=lazy("parsescore.graph.schema:schema_defs"),
    options=GraphOptions,
    command=CommandParts(
        help="Score an extracted graph.json against ground truth (docling-graph script 16), "
        "or a folder of them against a folder of truths; --out writes eval.json (with "
        "folders: one per document and their micro).",
        truth="Ground truth: an instance of --template (JSON), or a graph.json without it; or "
        "a folder of <id>.json truths (a dataset, with --pred a folder).",
        pred="Extracted graph.json (the prediction), or a folder of <id>.json answers.",
        pred_flags=("--graph",),
        run=lazy("parsescore.graph.cli:run"),
    ),
    formats=FORMATS,
    attributes=ATTRIBUTES,
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
