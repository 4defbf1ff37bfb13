"""The unmatched nodes and edges behind eval.json's fp/fn counts, per class or label and rung.

eval.json (docling-graph script 16) only counts what each matching rung leaves unmatched; a
report that shows *which* nodes were missed or invented needs the items themselves. Everything
here is read from the same :class:`~parsescore.graph.evaluate.GraphMatching` (and the same edge
keys, :func:`~parsescore.graph.evaluate.edge_key_sets`) that ``build_report`` counts, so for every
class, label and rung ``len(missing) == fn`` and ``len(extra) == fp``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from parsescore.graph.api import match_files
from parsescore.graph.evaluate import AlignMode, GraphMatching, Key, edge_key_sets

__all__ = ["Unmatched", "key_label", "unmatched_details", "unmatched_files", "unmatched_items"]

Unmatched = dict[str, dict[str, dict[str, dict[str, list[Any]]]]]
"""``{"nodes": {class: {rung: {"missing": [...], "extra": [...]}}}, "edges": {label: ...}}``."""


def key_label(key: Key) -> str:
    """A node identity as a short string, ``Class:value`` (several values joined by " / ").

    The class is kept so that edge endpoints of different classes never read the same;
    canonical identity values hold no spaces, so the rendering is one-to-one.
    """
    return f"{key[0]}:{' / '.join(key[1])}"


Rung = Literal["strict", "relaxed", "aligned"]


def _rungs(matching: GraphMatching) -> list[Rung]:
    """The rungs eval.json reports, in its order."""
    rungs: list[Rung] = ["strict", "relaxed"]
    return [*rungs, "aligned"] if matching.aligned_active else rungs


def _rung_fold(matching: GraphMatching, rung: Rung) -> dict[Key, Key]:
    """Extracted key → truth key pairs a rung folds edge endpoints through (as ``edge_keys``)."""
    return {"relaxed": matching.relaxed_fold, "aligned": matching.aligned_fold}.get(rung, {})


def unmatched_items(matching: GraphMatching) -> Unmatched:
    """Missing (truth, unmatched = fn) and extra (extracted, unmatched = fp) items per rung.

    Nodes are identity keys (``(class, canonical id values)``, the eval's node identity, not
    graph.json's ``id``), rendered by :func:`key_label`; unkeyed nodes are not scored, so never
    listed. Edges are ``[source, target]`` identity keys per label: missing edges in truth keys;
    extra edges in the extracted graph's own keys (each rung folds paired endpoints onto truth
    keys to compare, and that fold is one-to-one, so unfolding loses nothing). Classes, labels
    and rungs are those of eval.json (``aligned`` only when alignment is active); lists sorted.
    """
    truth_keys = list(matching.truth_index.by_key)
    got_keys = list(matching.extracted_index.by_key)
    pairs_by_rung: dict[str, list[tuple[Key, Key]]] = {
        "strict": [(key, key) for key in matching.strict],
        "relaxed": list(matching.relaxed),
        "aligned": [(a, b) for a, b, _ in matching.aligned],
    }
    classes = sorted({k[0] for k in truth_keys} | {k[0] for k in got_keys})
    nodes: dict[str, dict[str, dict[str, list[Any]]]] = {cls: {} for cls in classes}
    matched_truth: set[Key] = set()
    matched_got: set[Key] = set()
    for rung in _rungs(matching):
        matched_truth.update(a for a, _ in pairs_by_rung[rung])
        matched_got.update(b for _, b in pairs_by_rung[rung])
        for cls in classes:
            nodes[cls][rung] = {"missing": [], "extra": []}
        for key in truth_keys:
            if key not in matched_truth:
                nodes[key[0]][rung]["missing"].append(key_label(key))
        for key in got_keys:
            if key not in matched_got:
                nodes[key[0]][rung]["extra"].append(key_label(key))
        for cls in classes:
            for items in nodes[cls][rung].values():
                items.sort()

    rungs = _rungs(matching)
    sets = edge_key_sets(matching, ("truth", *rungs))
    truth_edges = sets["truth"]
    got_by_rung = {rung: sets[rung] for rung in rungs}
    labels = sorted({e[0] for e in truth_edges} | {e[0] for e in got_by_rung["strict"]})
    edges: dict[str, dict[str, dict[str, list[Any]]]] = {label: {} for label in labels}
    for rung, got_edges in got_by_rung.items():
        unfold = {a: b for b, a in _rung_fold(matching, rung).items()}
        for label in labels:
            edges[label][rung] = {"missing": [], "extra": []}
        for label, source, target in truth_edges - got_edges:
            edges[label][rung]["missing"].append([key_label(source), key_label(target)])
        for label, source, target in got_edges - truth_edges:
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
    return unmatched_items(
        match_files(
            truth=truth,
            pred=pred,
            template=template,
            source=source,
            structural_align=structural_align,
            id_fields=id_fields,
            root_class=root_class,
        )
    )


def unmatched_details(matching: GraphMatching) -> dict[str, dict[str, Any]]:
    """The unmatched items as result-envelope details: ``{"node:<Class>" | "edge:<LABEL>":
    {"unmatched": {rung: {"missing", "extra"}}}}``, keyed as the envelope's items are."""
    unmatched = unmatched_items(matching)
    return {
        f"{prefix}:{name}": {"unmatched": rungs}
        for section, prefix in (("nodes", "node"), ("edges", "edge"))
        for name, rungs in unmatched[section].items()
    }
