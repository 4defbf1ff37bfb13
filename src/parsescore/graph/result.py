"""Graph results: scoring an extracted graph.json (:func:`evaluate`), its eval.json (docling-graph
script 16's document, the ``--out``) and its :class:`~parsescore.results.Result`, and reading
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
from parsescore.errors import InputError
from parsescore.results import Reader, Result

__all__ = ["SCORES", "evaluate", "read"]

#: eval.json's short score names and the metric names they become.
SCORES = {"p": "precision", "r": "recall", "f1": "f1"}
_INPUTS = ("graph", "truth", "template")

AlignMode = Literal["auto", "on", "off"]
EnumIds = Literal["reference", "value"]


def evaluate(
    truth: str | Path,
    pred: str | Path,
    *,
    template: str | None = None,
    source: str | Path | None = None,
    structural_align: AlignMode = "auto",
    id_fields: Mapping[str, Sequence[str]] | Sequence[str] | None = None,
    root_class: str | None = None,
    strict: bool = False,
    enum_ids: EnumIds = "reference",
    normalise_source_accents: bool = False,
    name: str | None = None,
) -> Result:
    """Score the extracted graph.json ``pred`` against ``truth`` (docling-graph 1.9.1's rules).

    With ``template`` (``pkg.module.Class`` or ``path/to/file.py:Class``) ``truth`` is an
    instance of it; without, ``truth`` is a graph.json too, with identity fields from its
    ``graph.id_fields_map`` or ``id_fields`` (``{Class: [field, ...]}``, or the CLI's
    ``Class=field1,field2`` strings) and the root class ``root_class``. ``source`` (the text
    the model was served) enables the verbatim ratio and synthetic-id detection;
    ``structural_align`` aligns classes whose truth ids are absent from it (``auto``), all
    classes (``on``) or none (``off``).

    Graph files that docling-graph's script 16 scores although they are odd (an edge to a
    missing node, no nodes) are scored like it, with warnings in the result's ``warnings``;
    ``strict`` refuses them instead. ``enum_ids="value"`` compares an Enum identity by its
    value and ``normalise_source_accents`` drops the source's accents before synthetic-id
    detection (the reference does neither; see docs/graph.md).
    """
    from parsescore.files import gc_paused
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


def read(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The :class:`Result` of an eval.json (``parsescore graph --out``)."""
    items: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    for section, prefix in (("nodes", "node"), ("edges", "edge")):
        for label, entry in r.mapping(doc[section], f"key {section!r}").items():
            where = f"{section}.{label}"
            item = f"{prefix}:{label}"
            items[item], details[item] = _scores(r.mapping(entry, where), where, prefix, r)
    totals: dict[str, float] = {}
    micro_counts: dict[str, Any] = {}
    micro = r.mapping(doc["micro"], "key 'micro'")
    for section, prefix in (("nodes", "node"), ("edges", "edge")):
        if section in micro:
            where = f"micro.{section}"
            values, micro_counts[section] = _scores(
                r.mapping(micro[section], where), where, prefix, r
            )
            totals |= values
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
