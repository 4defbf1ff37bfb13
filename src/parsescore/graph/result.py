"""Graph results: scoring an extracted graph.json (:func:`evaluate`), its eval.json (docling-graph
script 16's document, the ``--out``) and its :class:`~parsescore.core.results.Result`, and reading
eval.json back (:func:`read`).

Items are the node classes (``node:<Class>``) and edge labels (``edge:<LABEL>``); their metrics
are precision, recall and F1 per rung (``node_strict_f1``, ``edge_relaxed_precision``, ...), the
numbers eval.json holds (rounded to 3 decimals there, as the reference writes them, so the result
and ``--out`` never disagree); each item's detail is its tp/fp/fn per rung and the unmatched
nodes or edges themselves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from parsescore import __version__
from parsescore.core.errors import InputError
from parsescore.core.results import Reader, Result

__all__ = ["SCORES", "evaluate", "micro_scores", "read"]

#: eval.json's short score names and the metric names they become.
SCORES = {"p": "precision", "r": "recall", "f1": "f1"}
_INPUTS = ("graph", "truth", "template")

AlignMode = Literal["auto", "on", "off"]
EnumIds = Literal["reference", "value"]


def evaluate(
    truth: str | Path | Mapping[str, str],
    pred: str | Path | Mapping[str, str],
    *,
    template: str | None = None,
    source: str | Path | Mapping[str, str] | None = None,
    structural_align: AlignMode = "auto",
    id_fields: Mapping[str, Sequence[str]] | Sequence[str] | None = None,
    root_class: str | None = None,
    strict: bool = False,
    enum_ids: EnumIds = "reference",
    normalise_source_accents: bool = False,
    allow_missing: bool = False,
    jobs: int = 1,
    dask_scheduler: str | None = None,
    cache: str | Path | None = None,
    quiet: bool = False,
    name: str | None = None,
) -> Result:
    """Score extracted graph.json answers against ground truth (docling-graph 1.9.1's rules).

    ``truth`` and ``pred`` are two files (one document: items are its node classes and edge
    labels, ``native`` its eval.json), or two folders of ``<id>.json`` files, or two ``{id:
    text}`` mappings (a dataset: items are the documents; see :mod:`parsescore.graph.dataset`).
    With ``template`` (``pkg.module.Class`` or ``path/to/file.py:Class``) a truth is an
    instance of it; without, a truth is a graph.json too, with identity fields from its
    ``graph.id_fields_map`` or ``id_fields`` (``{Class: [field, ...]}``, or the CLI's
    ``Class=field1,field2`` strings) and the root class ``root_class``. ``source`` (the text
    the model was served: a file, or for a dataset a folder of ``<id>.<suffix>`` files or an
    ``{id: text}`` mapping) enables the verbatim ratio and synthetic-id detection;
    ``structural_align`` aligns classes whose truth ids are absent from it (``auto``), all
    classes (``on``) or none (``off``).

    Graph files that docling-graph's script 16 scores although they are odd (an edge to a
    missing node, no nodes) are scored like it, with warnings in the result's ``warnings``.
    In a dataset an unreadable answer scores as a missing one (an empty graph) and is listed in
    ``dataset["unreadable"]``; ``strict`` refuses the first unreadable or odd answer instead
    (and, for one document, odd files). ``allow_missing`` scores only the documents that have an
    answer; ``jobs``, ``dask_scheduler``, ``cache`` and ``quiet`` choose how a dataset is run
    (:mod:`parsescore.core.runner`). ``enum_ids="value"`` compares an Enum identity by its value and
    ``normalise_source_accents`` drops the source's accents before synthetic-id detection (the
    reference does neither; see docs/graph.md).
    """
    from parsescore.core.files import gc_paused
    from parsescore.graph.api import match_files
    from parsescore.graph.evaluate import build_report
    from parsescore.graph.io import parse_id_fields
    from parsescore.graph.unmatched import unmatched_details

    if structural_align not in ("auto", "on", "off"):
        raise InputError(f"--structural-align must be auto, on or off, got {structural_align!r}")
    if enum_ids not in ("reference", "value"):
        raise InputError(f"--enum-ids must be reference or value, got {enum_ids!r}")
    if template is not None and (id_fields or root_class):
        raise InputError("--id-fields/--root-class only apply without --template")
    fields: dict[str, list[str]] | None = None
    raw_fields: list[str] = []
    if isinstance(id_fields, Mapping):
        fields = {str(k): list(v) for k, v in id_fields.items()}
        raw_fields = [f"{k}={','.join(v)}" for k, v in fields.items()]
    elif id_fields:
        raw_fields = list(id_fields)
        fields = parse_id_fields(raw_fields)
    if _is_dataset(truth, pred):
        from parsescore.graph.dataset import evaluate_dataset

        return evaluate_dataset(
            truth,
            pred,
            template=template,
            source=source,
            structural_align=structural_align,
            id_fields=fields,
            raw_id_fields=raw_fields,
            root_class=root_class,
            strict=strict,
            enum_ids=enum_ids,
            normalise_source_accents=normalise_source_accents,
            allow_missing=allow_missing,
            jobs=jobs,
            dask_scheduler=dask_scheduler,
            cache=cache,
            quiet=quiet,
            name=name,
        )
    assert not isinstance(truth, Mapping) and not isinstance(pred, Mapping)
    if isinstance(source, Mapping) or (source is not None and Path(source).is_dir()):
        raise InputError(
            "--source is a folder (or mapping) of per-document sources, but --truth and --pred "
            "are files: give the one document's source file",
            path=None if isinstance(source, Mapping) else source,
        )
    with gc_paused():
        matching = match_files(
            truth=truth,
            pred=pred,
            template=template,
            source=source,
            structural_align=structural_align,
            id_fields=fields,
            root_class=root_class,
            strict=strict,
            enum_ids=enum_ids,
            normalise_source_accents=normalise_source_accents,
        )
        report = build_report(matching, graph=str(pred), truth=str(truth), template=template)
        options: dict[str, Any] = {}
        if template is None:
            options = {"id_fields": raw_fields, "root_class": root_class}
        if enum_ids != "reference":
            options["enum_ids"] = enum_ids
        if normalise_source_accents:
            options["normalise_source_accents"] = True
        result = to_result(
            report,
            name=name or Path(pred).stem,
            source=None if source is None else str(source),
            options=options,
            details=unmatched_details(matching),
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
    """The result of an eval.json built in this process, with what eval.json does not record
    (the source path, the options without a template, the unmatched items)."""
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


def _scores(
    entry: Mapping[str, Any], where: str, prefix: str, r: Reader
) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    """Precision/recall/F1 per rung as metrics, and the rest of each rung (tp/fp/fn, ...)."""
    values: dict[str, float] = {}
    rest: dict[str, dict[str, Any]] = {}
    for rung, scores in entry.items():
        scores = r.mapping(scores, f"{where}.{rung}")
        for short, long in SCORES.items():
            number = r.optional_number(
                r.key(scores, short, f"{where}.{rung}"), f"{where}.{rung}.{short}"
            )
            if number is not None:
                values[f"{prefix}_{rung}_{long}"] = number
        rest[rung] = {k: v for k, v in scores.items() if k not in SCORES}
    return values, rest


def micro_scores(
    micro: Mapping[str, Any], where: str, r: Reader
) -> tuple[dict[str, float], dict[str, Any]]:
    """An eval.json ``micro`` as metrics (``node_strict_f1``, ...) and its tp/fp/fn per section
    and rung."""
    values: dict[str, float] = {}
    counts: dict[str, Any] = {}
    for section, prefix in (("nodes", "node"), ("edges", "edge")):
        if section in micro:
            inner = f"{where}.{section}"
            found, counts[section] = _scores(r.mapping(micro[section], inner), inner, prefix, r)
            values |= found
    return values, counts


def read(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The :class:`Result` of an eval.json (``parsescore graph --out``), or of the dataset
    document (``--out`` with folders: :func:`~parsescore.graph.dataset.read_documents`)."""
    if "documents" in doc and "nodes" not in doc:
        from parsescore.graph.dataset import read_documents

        return read_documents(doc, r, name)
    items: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    for section, prefix in (("nodes", "node"), ("edges", "edge")):
        for label, entry in r.mapping(doc[section], f"key {section!r}").items():
            where = f"{section}.{label}"
            item = f"{prefix}:{label}"
            items[item], details[item] = _scores(r.mapping(entry, where), where, prefix, r)
    totals, micro_counts = micro_scores(r.mapping(doc["micro"], "key 'micro'"), "micro", r)
    verbatim = doc.get("verbatim_ratio")
    if isinstance(verbatim, int | float) and not isinstance(verbatim, bool):
        totals["verbatim_ratio"] = float(verbatim)
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
            # every other fact of eval.json (its shape is docling-graph's), with the micro counts
            dataset={"micro": micro_counts} | {k: v for k, v in doc.items() if k not in consumed},
        )
    ]
