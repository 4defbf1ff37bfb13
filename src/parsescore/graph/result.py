"""Graph results: scoring an extracted graph.json (:func:`evaluate`), its eval.json (docling-graph
script 16's document, the ``--out``) and its :class:`~parsescore.core.results.Result`, read from
that eval.json (:func:`read`, also ``Kind.read``).

Items are the node classes (``node:<Class>``) and edge labels (``edge:<LABEL>``); their metrics
are precision, recall and F1 per rung (``node_strict_f1``, ``edge_relaxed_precision``, ...), the
numbers eval.json holds (rounded to 3 decimals there, as the reference writes them, so the result
and ``--out`` never disagree); their counts are the tp/fp/fn per rung (``node_strict_tp``, ...),
from which the core computes the totals (micro over classes: :mod:`parsescore.graph.micro`); each
item's detail is its tp/fp/fn per rung and the unmatched nodes or edges themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from parsescore import __version__
from parsescore.core.errors import InputError
from parsescore.core.results import Reader, Result
from parsescore.graph.kind import RUNGS, SCORES, SECTIONS, count_name
from parsescore.graph.options import GraphOptions

__all__ = ["evaluate", "read"]

_INPUTS = ("graph", "truth", "template")
_COUNTS = ("tp", "fp", "fn")


def evaluate(
    truth: str | Path | Mapping[str, str],
    pred: str | Path | Mapping[str, str],
    options: GraphOptions,
    *,
    unmatched: bool = True,
) -> Result:
    """Score extracted graph.json answers against ground truth (docling-graph 1.9.1's rules).

    ``truth`` and ``pred`` are two files (one document: items are its node classes and edge
    labels, ``native`` its eval.json), or two folders of ``<id>.json`` files, or two ``{id:
    text}`` mappings (a dataset: items are the documents; see :mod:`parsescore.graph.dataset`).
    ``options`` (:class:`~parsescore.graph.options.GraphOptions`, checked by
    :func:`parsescore.evaluate`): with ``template`` a truth is an instance of it; without, a
    graph.json too, with identity fields from its ``graph.id_fields_map`` or ``id_fields`` and
    the root class ``root_class``. ``source`` enables the verbatim ratio and synthetic-id
    detection; ``structural_align`` aligns classes whose truth ids are absent from it.

    Graph files that docling-graph's script 16 scores although they are odd (an edge to a
    missing node, no nodes) are scored like it, with warnings in the result's ``warnings``.
    In a dataset an unreadable answer scores as a missing one (an empty graph) and is listed in
    ``dataset["unreadable"]``; ``strict`` refuses the first unreadable or odd answer instead
    (and, for one document, odd files). ``allow_missing``, ``jobs``, ``dask_scheduler``,
    ``cache`` and ``quiet`` are a dataset's (one document is scored here, in this process).

    ``unmatched=False`` leaves out one document's unmatched nodes and edges (the items'
    ``details["unmatched"]``, listed only in the result envelope): ``parsescore graph``
    without ``--result`` writes nothing that holds them.
    """
    if _is_dataset(truth, pred):
        from parsescore.graph.dataset import evaluate_dataset

        return evaluate_dataset(truth, pred, options)
    assert not isinstance(truth, Mapping) and not isinstance(pred, Mapping)
    from parsescore.core.files import gc_paused

    source = options.source
    if isinstance(source, Mapping) or (source is not None and Path(source).is_dir()):
        raise InputError(
            "--source is a folder (or mapping) of per-document sources, but --truth and --pred "
            "are files: give the one document's source file",
            path=None if isinstance(source, Mapping) else source,
        )
    with gc_paused():  # imports too: collections meanwhile would rescan what stays alive
        from parsescore.graph.api import match_files
        from parsescore.graph.evaluate import build_report
        from parsescore.graph.unmatched import unmatched_details

        matching = match_files(truth=truth, pred=pred, options=options)
        report = build_report(
            matching, graph=str(pred), truth=str(truth), template=options.template
        )
        result = to_result(
            report,
            name=options.name or Path(pred).stem,
            source=None if source is None else str(source),
            options=options.recorded(dataset=False),
            details=unmatched_details(matching) if unmatched else {},
            computed=matching,
        )
    return replace(result, warnings=(*matching.truth.warnings, *matching.extracted.warnings))


def _is_dataset(
    truth: str | Path | Mapping[str, str], pred: str | Path | Mapping[str, str]
) -> bool:
    """Whether the inputs are a dataset (two folders or two mappings) rather than one document
    (two files); a folder against a file is an error."""
    if isinstance(truth, Mapping) or isinstance(pred, Mapping):
        return True
    truth_dir, pred_dir = Path(truth).is_dir(), Path(pred).is_dir()
    if truth_dir != pred_dir:
        folder, file = ("--truth", "--pred") if truth_dir else ("--pred", "--truth")
        raise InputError(
            f"{folder} is a folder but {file} is not: give two folders (a dataset of "
            "<id>.json documents) or two files (one document)",
            path=truth if truth_dir else pred,
        )
    return truth_dir


def to_result(
    report: dict[str, Any],
    *,
    name: str,
    source: str | None,
    options: Mapping[str, Any],
    details: Mapping[str, Mapping[str, Any]],
    computed: Any = None,
) -> Result:
    """The result of an eval.json built in this process: :func:`read` of it, with what eval.json
    does not record (the source path, the options without a template, the unmatched items)."""
    (result,) = read(report, Reader(None), name)
    merged = {
        item: result.details.get(item, {}) | dict(details.get(item, {})) for item in result.items
    }
    return replace(
        result,
        version=__version__,
        inputs=result.inputs | {"source": source},
        options=result.options | dict(options),
        details={item: detail for item, detail in merged.items() if detail},
        native=report,
        computed=computed,
    )


def _count(value: Any, where: str, r: Reader) -> float:
    """A tp/fp/fn count (kept an int when it is one, as eval.json writes it)."""
    if type(value) is int:
        return value
    number = r.number(value, where)
    return int(number) if number.is_integer() else number


def rung_scores(
    entry: Mapping[str, Any], where: str, prefix: str, r: Reader
) -> tuple[dict[str, float], dict[str, float], dict[str, dict[str, Any]]]:
    """An eval.json entry ``{rung: {tp, fp, fn, p, r, f1}}``: precision/recall/F1 per rung as
    metrics (``node_strict_f1``), tp/fp/fn as counts (``node_strict_tp``) and each rung without
    its scores (its tp/fp/fn, as the item's detail)."""
    values: dict[str, float] = {}
    counts: dict[str, float] = {}
    rest: dict[str, dict[str, Any]] = {}
    for rung, scores in entry.items():
        inner = f"{where}.{rung}"
        scores = r.mapping(scores, inner)
        for short, long in SCORES.items():
            number = r.optional_number(r.key(scores, short, inner), f"{inner}.{short}")
            if number is not None:
                values[f"{prefix}_{rung}_{long}"] = number
        for count in _COUNTS:
            value = scores[count] if count in scores else r.key(scores, count, inner)
            counts[count_name(prefix, rung, count)] = _count(value, f"{inner}.{count}", r)
        rest[rung] = {k: v for k, v in scores.items() if k not in SCORES}
    return values, counts, rest


def micro_rungs(micro: Mapping[str, Any], where: str, r: Reader) -> list[str]:
    """The rungs an eval.json ``micro`` reports (its ``nodes``' keys, in eval.json's order)."""
    nodes = r.mapping(r.key(micro, "nodes", where), f"{where}.nodes")
    return [rung for rung in RUNGS if rung in nodes]


def micro_counts(micro: Mapping[str, Any], where: str, r: Reader) -> dict[str, Any]:
    """An eval.json ``micro``'s tp/fp/fn per section and rung (``Result.dataset["micro"]``)."""
    found: dict[str, Any] = {}
    for section, prefix in SECTIONS:
        if section in micro:
            inner = f"{where}.{section}"
            found[section] = rung_scores(r.mapping(micro[section], inner), inner, prefix, r)[2]
    return found


def read(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The :class:`Result` of an eval.json (``parsescore graph --out``), or of the dataset
    document (``--out`` with folders: :func:`~parsescore.graph.dataset.read_documents`); its
    totals are computed from the items' counts by the core (:func:`~parsescore.graph.micro.
    totals_of`), so they equal eval.json's micro."""
    from parsescore.graph.micro import totals_of

    if "documents" in doc and "nodes" not in doc:
        from parsescore.graph.dataset import read_documents

        return read_documents(doc, r, name)
    items: dict[str, dict[str, float]] = {}
    counts: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    for section, prefix in SECTIONS:
        for label, entry in r.mapping(doc[section], f"key {section!r}").items():
            where = f"{section}.{label}"
            item = f"{prefix}:{label}"
            items[item], counts[item], details[item] = rung_scores(
                r.mapping(entry, where), where, prefix, r
            )
    micro = r.mapping(doc["micro"], "key 'micro'")
    given: dict[str, float] = {}
    verbatim = doc.get("verbatim_ratio")
    if isinstance(verbatim, int | float) and not isinstance(verbatim, bool):
        given["verbatim_ratio"] = float(verbatim)
    totals = totals_of(items, counts, micro_rungs(micro, "micro", r), given)
    alignment = doc.get("structural_alignment")
    mode = alignment.get("mode") if isinstance(alignment, dict) else None
    consumed = {*_INPUTS, "micro", "nodes", "edges", "verbatim_ratio"}
    return [
        Result(
            "graph",
            name,
            items,
            totals,
            r.path,
            inputs={k: doc[k] for k in _INPUTS if k in doc},
            options={} if mode is None else {"structural_align": mode},
            details=details,
            attributes={
                item: {"class": item.partition(":")[2]} for item in items if item[:5] == "node:"
            },
            # every other fact of eval.json (its shape is docling-graph's), with the micro counts
            dataset={"micro": micro_counts(micro, "micro", r)}
            | {k: v for k, v in doc.items() if k not in consumed},
            counts=counts,
        )
    ]
