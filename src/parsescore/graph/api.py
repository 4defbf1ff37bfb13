"""File-level entry points: a graph.json against ground truth, with or without a template."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parsescore.errors import InputError
from parsescore.graph.evaluate import AlignMode, evaluate_graphs
from parsescore.graph.io import load_graph_json, load_source_text
from parsescore.graph.template import collect_id_fields, load_template, truth_graph_from_file

__all__ = ["evaluate_files", "evaluate_generic_files"]


def evaluate_files(
    graph: str | Path,
    truth: str | Path,
    template: str,
    *,
    source: str | Path | None = None,
    structural_align: AlignMode = "auto",
) -> dict[str, Any]:
    """Score ``graph`` (a graph.json) against ``truth`` (an instance of ``template``).

    Returns the eval.json dictionary of docling-graph's script 16 for the same inputs.

    >>> report = evaluate_files("graph.json", "truth.json", "tpl.py:Invoice")  # doctest: +SKIP
    >>> report["micro"]["nodes"]["strict"]["f1"]  # doctest: +SKIP
    """
    model = load_template(template)
    id_fields = collect_id_fields(model)
    truth_graph = truth_graph_from_file(truth, model)
    extracted = load_graph_json(graph)
    source_text = load_source_text(source) if source is not None else None
    return evaluate_graphs(
        truth_graph,
        extracted,
        id_fields,
        root_class=model.__name__,
        source_text=source_text,
        align_mode=structural_align,
        graph_name=Path(graph),
        truth_name=Path(truth),
        template_name=template,
    )


def evaluate_generic_files(
    graph: str | Path,
    truth: str | Path,
    *,
    id_fields: dict[str, list[str]] | None = None,
    root_class: str | None = None,
    source: str | Path | None = None,
    structural_align: AlignMode = "auto",
) -> dict[str, Any]:
    """Score two graph.json files without a template.

    Identity fields come from the truth's ``graph.id_fields_map`` (else the extracted graph's),
    overridden per class by ``id_fields``; the root class (for singleton-root pairing) from
    ``root_class``, else the truth's ``graph.template_name``.
    """
    truth_graph = load_graph_json(truth)
    extracted = load_graph_json(graph)
    fields: dict[str, list[str]] = {}
    for source_graph in (extracted.graph, truth_graph.graph):
        raw = source_graph.get("id_fields_map")
        if isinstance(raw, dict):
            for cls, names in raw.items():
                if isinstance(names, list):
                    fields[str(cls)] = [n for n in names if isinstance(n, str)]
    fields.update(id_fields or {})
    if not any(fields.values()):
        raise InputError(
            "no identity fields: the truth graph has no graph.id_fields_map; "
            "pass --id-fields Class=field1,field2",
            path=truth,
        )
    if root_class is None:
        name = truth_graph.graph.get("template_name") or extracted.graph.get("template_name")
        root_class = str(name) if name else None
    source_text = load_source_text(source) if source is not None else None
    return evaluate_graphs(
        truth_graph,
        extracted,
        fields,
        root_class=root_class,
        source_text=source_text,
        align_mode=structural_align,
        graph_name=Path(graph),
        truth_name=Path(truth),
        template_name=None,
    )
