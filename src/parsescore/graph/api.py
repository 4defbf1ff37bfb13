"""File-level entry points: a graph.json against ground truth, with or without a template.

Every function takes the files as keywords (``truth=``, ``pred=``): the two are the same kind of
file, and a swap would silently swap precision and recall. Their options are those of
:class:`~parsescore.graph.options.GraphOptions`, checked by its declarations.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsescore.core.errors import InputError
from parsescore.core.files import gc_paused, read_bytes
from parsescore.core.options import options_model
from parsescore.graph.evaluate import GraphMatching, build_report, match_graphs
from parsescore.graph.io import load_source_text, read_graph, read_instance
from parsescore.graph.options import AlignMode, EnumIds, GraphOptions
from parsescore.graph.template import GraphData, collect_id_fields, load_template

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["evaluate_files", "evaluate_generic_files"]


def graph_options(**given: Any) -> GraphOptions:
    """The options model of keyword options (each checked by its declaration)."""
    return options_model(GraphOptions, "graph", given)


@gc_paused()
def match_files(*, truth: str | Path, pred: str | Path, options: GraphOptions) -> GraphMatching:
    """The node matching behind eval.json for these inputs (what every report is built from).

    ``pred`` is the extracted graph.json (or a chat answer holding it in a fenced block:
    :func:`~parsescore.graph.io.answer_content`). With ``options.template``, ``truth`` is an
    instance of it; without, both are graph.json files: identity fields then come from the
    truth's ``graph.id_fields_map`` (else the extracted graph's), overridden per class by
    ``options.id_fields``, and the root class (for singleton-root pairing) from
    ``options.root_class``, else the truth's ``graph.template_name``.

    Graph files script 16 scores although they are odd (dangling edges, no nodes) are scored
    with warnings in the graphs' ``warnings``; ``options.strict`` refuses them.
    """
    model = None if options.template is None else load_template(options.template)
    if model is not None:
        truth_graph = read_instance(read_bytes(truth), truth, template=model)
    else:
        truth_graph = read_graph(read_bytes(truth), truth, strict=options.strict)
    extracted = read_graph(read_bytes(pred), pred, strict=options.strict, answer=True)
    source = options.source
    assert not isinstance(source, Mapping)  # one document: a file (GraphOptions allows both)
    source_text = load_source_text(source) if source is not None else None
    return match_loaded(
        truth_graph, extracted, model=model, truth=truth, source_text=source_text, options=options
    )


def match_loaded(
    truth_graph: GraphData,
    extracted: GraphData,
    *,
    model: type[BaseModel] | None,
    truth: str | Path,
    source_text: str | None,
    options: GraphOptions,
) -> GraphMatching:
    """:func:`match_files` of graphs already read (``model``: the template, None for the
    generic mode; ``truth`` names the truth in errors): the one place that decides the
    identity fields and the root class."""
    if model is not None:
        fields = collect_id_fields(model)
        root: str | None = model.__name__
    else:
        fields = {}
        for source_graph in (extracted.graph, truth_graph.graph):
            raw = source_graph.get("id_fields_map")
            if isinstance(raw, dict):
                for cls, names in raw.items():
                    if isinstance(names, list):
                        fields[str(cls)] = [n for n in names if isinstance(n, str)]
        fields.update(options.identity_fields() or {})
        if not any(fields.values()):
            raise InputError(
                "no identity fields: the truth graph has no graph.id_fields_map; "
                "pass --id-fields Class=field1,field2",
                path=truth,
            )
        root = options.root_class
        if root is None:
            name = truth_graph.graph.get("template_name") or extracted.graph.get("template_name")
            root = str(name) if name else None
    return match_graphs(
        truth_graph,
        extracted,
        fields,
        root_class=root,
        source_text=source_text,
        align_mode=options.structural_align,
        enum_ids=options.enum_ids,
        normalise_source_accents=options.normalise_source_accents,
    )


@gc_paused()
def evaluate_files(
    *,
    truth: str | Path,
    pred: str | Path,
    template: str,
    source: str | Path | None = None,
    structural_align: AlignMode = "auto",
    strict: bool = False,
    enum_ids: EnumIds = "reference",
    normalise_source_accents: bool = False,
) -> dict[str, Any]:
    """Score ``pred`` (an extracted graph.json) against ``truth`` (an instance of ``template``).

    Returns the eval.json dictionary of docling-graph's script 16 for the same inputs.

    On the bundled example:

    >>> from importlib.resources import files
    >>> data = Path(str(files("parsescore") / "data" / "graph"))
    >>> report = evaluate_files(
    ...     truth=data / "truth.json",
    ...     pred=data / "graph.json",
    ...     template=f"{data / 'library_template.py'}:Library",
    ...     source=data / "source.md",
    ... )
    >>> report["micro"]["nodes"]["relaxed"]
    {'tp': 10, 'fp': 2, 'fn': 0, 'p': 0.833, 'r': 1.0, 'f1': 0.909}
    """
    options = graph_options(
        template=template,
        source=source,
        structural_align=structural_align,
        strict=strict,
        enum_ids=enum_ids,
        normalise_source_accents=normalise_source_accents,
    )
    matching = match_files(truth=truth, pred=pred, options=options)
    return build_report(matching, graph=str(Path(pred)), truth=str(Path(truth)), template=template)


@gc_paused()
def evaluate_generic_files(
    *,
    truth: str | Path,
    pred: str | Path,
    id_fields: dict[str, list[str]] | None = None,
    root_class: str | None = None,
    source: str | Path | None = None,
    structural_align: AlignMode = "auto",
    strict: bool = False,
    normalise_source_accents: bool = False,
) -> dict[str, Any]:
    """Score two graph.json files without a template (see :func:`match_files` for the rules)."""
    options = graph_options(
        id_fields=id_fields or (),
        root_class=root_class,
        source=source,
        structural_align=structural_align,
        strict=strict,
        normalise_source_accents=normalise_source_accents,
    )
    matching = match_files(truth=truth, pred=pred, options=options)
    return build_report(matching, graph=str(Path(pred)), truth=str(Path(truth)), template=None)
