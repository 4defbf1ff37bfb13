"""The unmatched nodes and edges behind eval.json's fp/fn counts, per class or label and rung.

eval.json (docling-graph script 16) only counts what each matching rung leaves unmatched; a
report that shows *which* nodes were missed or invented needs the items themselves. Everything
here is read from the same :class:`~parsescore.graph.evaluate.GraphMatching` (and the same
numbered edges, ``GraphMatching.edge_codes``) that ``build_report`` counts, so for every class,
label and rung ``len(missing) == fn`` and ``len(extra) == fp``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parsescore.graph.api import graph_options, match_files
from parsescore.graph.evaluate import GraphMatching, Key
from parsescore.graph.options import AlignMode

__all__ = ["unmatched_files", "unmatched_items"]

Unmatched = dict[str, dict[str, dict[str, dict[str, list[Any]]]]]
"""``{"nodes": {class: {rung: {"missing": [...], "extra": [...]}}}, "edges": {label: ...}}``."""


def key_label(key: Key) -> str:
    """A node identity as a short string, ``Class:value`` (several values joined by " / ").

    The class is kept so that edge endpoints of different classes never read the same;
    canonical identity values hold no spaces, so the rendering is one-to-one.
    """
    return f"{key[0]}:{' / '.join(key[1])}"


def unmatched_items(matching: GraphMatching) -> Unmatched:
    """Missing (truth, unmatched = fn) and extra (extracted, unmatched = fp) items per rung.

    Nodes are identity keys (``(class, canonical id values)``, the eval's node identity, not
    graph.json's ``id``), rendered by :func:`key_label`; unkeyed nodes are not scored, so never
    listed. Edges are ``[source, target]`` identity keys per label: missing edges in truth keys;
    extra edges in the extracted graph's own keys (each rung folds paired endpoints onto truth
    keys to compare, and that fold is one-to-one, so unfolding loses nothing). Classes, labels
    and rungs are those of eval.json (``aligned`` only when alignment is active); lists sorted.
    """
    rungs = matching.rungs
    truth_keys = matching.truth_index.by_key
    got_keys = matching.extracted_index.by_key
    # Rungs only add pairs: a node matched at rung i stays matched at every later rung, so it
    # is listed under the rungs before i (all rungs when never matched).
    truth_rung: dict[Key, int] = {}
    got_rung: dict[Key, int] = {}
    pairs_by_rung: list[list[tuple[Key, Key]]] = [
        [(key, key) for key in matching.strict],
        list(matching.relaxed),
        [(a, b) for a, b, _ in matching.aligned],
    ]
    for index, pairs in enumerate(pairs_by_rung[: len(rungs)]):
        for a, b in pairs:
            truth_rung.setdefault(a, index)
            got_rung.setdefault(b, index)
    classes = sorted({k[0] for k in truth_keys} | {k[0] for k in got_keys})
    nodes: dict[str, dict[str, dict[str, list[Any]]]] = {
        cls: {rung: {"missing": [], "extra": []} for rung in rungs} for cls in classes
    }
    for keys, matched, side in ((truth_keys, truth_rung, "missing"), (got_keys, got_rung, "extra")):
        for key in keys:
            until = matched.get(key, len(rungs))
            if until:
                label = key_label(key)
                per_rung = nodes[key[0]]
                for rung in rungs[:until]:
                    per_rung[rung][side].append(label)
    for per_rung in nodes.values():
        for lists in per_rung.values():
            for items in lists.values():
                items.sort()

    codes = matching.edge_codes
    truth_edges = codes.truth_edges()
    got_by_rung = {rung: codes.extracted_edges(matching.fold(rung)) for rung in rungs}
    present = {*codes.label_codes(truth_edges), *codes.label_codes(got_by_rung["strict"])}
    labels = sorted(codes.labels[code] for code in present)
    edges: dict[str, dict[str, dict[str, list[Any]]]] = {
        label: {rung: {"missing": [], "extra": []} for rung in rungs} for label in labels
    }
    for rung, got_edges in got_by_rung.items():
        unfold = {a: b for b, a in matching.fold(rung).items()}
        for label, source, target in codes.decode(truth_edges - got_edges):
            edges[label][rung]["missing"].append([key_label(source), key_label(target)])
        for label, source, target in codes.decode(got_edges - truth_edges):
            edges[label][rung]["extra"].append(
                [key_label(unfold.get(source, source)), key_label(unfold.get(target, target))]
            )
        for label in labels:
            for items in edges[label][rung].values():
                items.sort()
    return {"nodes": nodes, "edges": edges}


def unmatched_files(
    *,
    truth: str | Path,
    pred: str | Path,
    template: str | None = None,
    source: str | Path | None = None,
    structural_align: AlignMode = "auto",
    id_fields: dict[str, list[str]] | None = None,
    root_class: str | None = None,
) -> Unmatched:
    """:func:`unmatched_items` for the inputs of ``parsescore graph`` (same options)."""
    options = graph_options(
        template=template,
        source=source,
        structural_align=structural_align,
        id_fields=id_fields or (),
        root_class=root_class,
    )
    return unmatched_items(match_files(truth=truth, pred=pred, options=options))


def unmatched_details(matching: GraphMatching) -> dict[str, dict[str, Any]]:
    """The unmatched items as result-envelope details: ``{"node:<Class>" | "edge:<LABEL>":
    {"unmatched": {rung: {"missing", "extra"}}}}``, keyed as the envelope's items are."""
    unmatched = unmatched_items(matching)
    return {
        f"{prefix}:{name}": {"unmatched": rungs}
        for section, prefix in (("nodes", "node"), ("edges", "edge"))
        for name, rungs in unmatched[section].items()
    }
