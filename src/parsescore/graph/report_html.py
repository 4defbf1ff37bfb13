"""The graph part of the HTML report: precision, recall and F1 per rung of every node class and
edge label, the relaxed alias and structural-alignment pairs, integrity, attribute completeness
and the unmatched nodes and edges themselves (from ``Result.details`` and ``Result.dataset``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parsescore.core.kinds import get_kind
from parsescore.core.results import Result
from parsescore.graph.kind import DOCUMENT_NOUNS, RUNGS, is_documents
from parsescore.report.draw import MAX_DRAWN, DrawEdge, DrawNode, layered_layout, svg_graph
from parsescore.report.html import (
    Cell,
    System,
    compact,
    dicts,
    e,
    fmt,
    html_table,
    item_details,
    text_cell,
    value_cell,
)

__all__ = ["counts", "drilldown"]

_RED = "#c62828"


def counts(result: Result) -> list[tuple[str, int]]:
    """Node classes and edge labels counted apart (the overview's counts); documents for a
    dataset."""
    if is_documents(result.dataset):
        return [(DOCUMENT_NOUNS[1], len(result.items))]
    nodes = sum(1 for item in result.items if item.startswith("node:"))
    edges = sum(1 for item in result.items if item.startswith("edge:"))
    return [("node classes", nodes), ("edge labels", edges)]


def _unmatched_lists(detail: Mapping[str, Any]) -> tuple[str, list[Any], list[Any]]:
    """The first rung with unmatched lists: its name, missing and extra entries."""
    unmatched = detail.get("unmatched")
    if isinstance(unmatched, dict):
        for rung in RUNGS:
            lists = unmatched.get(rung)
            if isinstance(lists, dict):
                missing = lists.get("missing")
                extra = lists.get("extra")
                return (
                    rung,
                    missing if isinstance(missing, list) else [],
                    extra if isinstance(extra, list) else [],
                )
    return "", [], []


def drawing(item: str, detail: Mapping[str, Any]) -> str:
    """The unmatched nodes (or edges with their end nodes) of one class (or label) at the
    first rung: missing ones (in the truth, not extracted) dashed red, extra ones solid red;
    a table instead beyond a readable size."""
    rung, missing, extra = _unmatched_lists(detail)
    if not rung:
        return (
            '<p class="note item-drawing">Not drawn: this file gives counts only (the '
            "unmatched nodes are in the result envelope, <code>--result</code>).</p>"
        )
    section, _, label = item.partition(":")
    nodes: dict[str, DrawNode] = {}
    edges: list[DrawEdge] = []

    def node(name: Any, side: str | None) -> str:
        text = str(name)
        if side is not None or text not in nodes:
            fill, stroke = ("#e8f0fe", "#4a6fa5") if side is None else ("#fde2e2", _RED)
            nodes[text] = DrawNode(
                text,
                text,
                fill=fill,
                stroke=stroke,
                dashed=side == "missing",
                title=f"{text} ({side})" if side else f"{text} (endpoint)",
            )
        return text

    for side, entries in (("missing", missing), ("extra", extra)):
        for entry in entries:
            if section == "edge" and isinstance(entry, list) and len(entry) >= 2:
                a, b = node(entry[0], None), node(entry[-1], None)
                edges.append(
                    DrawEdge(a, b, _RED, dashed=side == "missing", label=f"{label} ({side})")
                )
            else:
                node(entry, side)
    if not nodes:
        counted = detail.get(rung)
        tp = counted.get("tp") if isinstance(counted, dict) else None
        what = "nodes" if section == "node" else "edges"
        text = (
            f"{label}: all {tp} {what} matched" if isinstance(tp, int) else f"{label}: all matched"
        )
        box = DrawNode(label, text, fill="#dcf5e3", stroke="#2e7d32", title=text)
        svg = svg_graph([box], [], layered_layout([label], []), label=text)
        return (
            f'<div class="item-drawing" data-drawing="graph"><h5>Nothing unmatched at the '
            f"{e(rung)} rung</h5>{svg}</div>"
        )
    if len(nodes) > MAX_DRAWN:
        rows = [
            [e(side), text_cell(compact(v))]
            for side, vs in (("missing", missing), ("extra", extra))
            for v in vs
        ]
        return (
            '<div class="item-drawing">'
            + html_table([("", False), ("unmatched", False)], rows)
            + "</div>"
        )
    layout = layered_layout(list(nodes), [(d.source, d.target) for d in edges], wrap=4)
    svg = svg_graph(list(nodes.values()), edges, layout, label=f"unmatched {item} ({rung})")
    return (
        f'<div class="item-drawing" data-drawing="graph"><h5>Unmatched at the {e(rung)} rung'
        f"</h5>{svg}</div>"
        '<p class="legend note"><span>dashed red: missing (in the truth, not extracted)</span>'
        "<span>solid red: extra (extracted, not in the truth)</span></p>"
    )


_SCORES = (("precision", "P"), ("recall", "R"), ("f1", "F1"))


def _scores_table(system: System, items: Sequence[str], prefix: str, what: str) -> str:
    kind = get_kind(system.kind)
    rows: list[list[Cell]] = []
    classes: list[str] = []
    for item in items:
        section, _, name = item.partition(":")
        if section != prefix:
            continue
        values = system.result.items[item]
        detail = system.result.details.get(item, {})
        rungs = [r for r in RUNGS if any(f"{prefix}_{r}_{s}" in values for s, _ in _SCORES)]
        for k, rung in enumerate(rungs):
            found = detail.get(rung)
            counts = found if isinstance(found, dict) else {}
            rows.append(
                [
                    e(name) if k == 0 else "",
                    e(rung),
                    fmt(counts.get("tp")),
                    fmt(counts.get("fp")),
                    fmt(counts.get("fn")),
                    *(
                        value_cell(
                            kind, f"{prefix}_{rung}_{score}", values.get(f"{prefix}_{rung}_{score}")
                        )
                        for score, _ in _SCORES
                    ),
                ]
            )
            classes.append("diff" if (counts.get("fp") or counts.get("fn")) else "")
    return html_table(
        [
            (what, False),
            ("rung", False),
            ("tp", True),
            ("fp", True),
            ("fn", True),
            *((label, True) for _, label in _SCORES),
        ],
        rows,
        classes,
    )


def _inputs(result: Result) -> str:
    facts = [
        f"{label}: {e(result.inputs[key])}"
        for key, label in (
            ("graph", "graph"),
            ("truth", "truth"),
            ("template", "template"),
            ("source", "source"),
        )
        if isinstance(result.inputs.get(key), str)
    ]
    return f'<p class="note">{" · ".join(facts)}</p>' if facts else ""


def drilldown(system: System, items: Sequence[str]) -> str:
    """The listed classes and labels per rung, then the dataset's pairs and checks; for a
    dataset, each listed document (:func:`_documents_drilldown`)."""
    result = system.result
    if is_documents(result.dataset):
        return _documents_drilldown(system, items)
    out = [_inputs(result)]
    for prefix, title, what in (
        ("node", "Node classes", "class"),
        ("edge", "Edge labels", "label"),
    ):
        if any(item.startswith(f"{prefix}:") for item in items):
            out.append(f"<h4>{title}: precision, recall, F1 per rung</h4>")
            out.append(_scores_table(system, items, prefix, what))
    out.append("<h4>Per class and label: what was not matched</h4>")
    out += [
        item_details(system, item, drawing(item, result.details.get(item, {}))) for item in items
    ]
    out.append(_facts(result.dataset))
    out.append(_unmatched(system))
    return "".join(out)


def _facts(dataset: Mapping[str, Any], h: str = "h4") -> str:
    """Relaxed alias pairs, structural-alignment pairs, integrity and attribute completeness of
    one eval.json (a one-document result's ``dataset``, a dataset document's detail)."""
    out = []
    aliases = dicts(dataset.get("relaxed_alias_pairs"))
    out.append(f"<{h}>Relaxed alias pairs (matched only after relaxing ids): {len(aliases)}</{h}>")
    if aliases:
        out.append(
            html_table(
                [("class", False), ("truth id", False), ("extracted id", False)],
                [
                    [e(a.get("class")), text_cell(a.get("truth")), text_cell(a.get("extracted"))]
                    for a in aliases
                ],
            )
        )
    alignment = dataset.get("structural_alignment")
    if isinstance(alignment, dict) and alignment.get("pairs"):
        pairs = alignment["pairs"]
        out.append(f"<{h}>Structural alignment pairs: {len(pairs)}</{h}>")
        out.append(f'<div class="text">{e(compact(pairs))}</div>')
    integrity = dataset.get("integrity")
    if isinstance(integrity, dict) and integrity:
        out.append(f"<{h}>Integrity</{h}>")
        out.append(
            html_table(
                [("check", False), ("value", False)],
                [[e(k), text_cell(compact(v))] for k, v in integrity.items()],
            )
        )
    completeness = dataset.get("attribute_completeness")
    if isinstance(completeness, dict) and completeness:
        rows = []
        for cls, attributes in completeness.items():
            if not isinstance(attributes, dict):
                continue
            for k, (attribute, c) in enumerate(attributes.items()):
                if isinstance(c, dict):
                    rows.append(
                        [
                            e(cls) if k == 0 else "",
                            e(attribute),
                            fmt(c.get("filled")),
                            fmt(c.get("expected")),
                        ]
                    )
        out.append(f"<{h}>Attribute completeness</{h}>")
        out.append(
            html_table(
                [("class", False), ("attribute", False), ("filled", True), ("expected", True)], rows
            )
        )
    return "".join(out)


_COUNT_HEADER = [("tp", True), ("fp", True), ("fn", True), *((lbl, True) for _, lbl in _SCORES)]


def _document_micro(system: System, item: str, detail: Mapping[str, Any]) -> str:
    """A document's micro counts and scores per section and rung."""
    kind = get_kind(system.kind)
    values = system.result.items[item]
    micro = detail.get("micro")
    rows: list[list[Cell]] = []
    classes: list[str] = []
    for section, prefix in (("nodes", "node"), ("edges", "edge")):
        found = micro.get(section) if isinstance(micro, dict) else None
        per_rung = found if isinstance(found, dict) else {}
        for k, rung in enumerate(r for r in RUNGS if r in per_rung):
            counted = per_rung[rung] if isinstance(per_rung[rung], dict) else {}
            rows.append(
                [
                    e(section) if k == 0 else "",
                    e(rung),
                    *(fmt(counted.get(c)) for c in ("tp", "fp", "fn")),
                    *(
                        value_cell(kind, name, values.get(name))
                        for name in (f"{prefix}_{rung}_{score}" for score, _ in _SCORES)
                    ),
                ]
            )
            classes.append("diff" if (counted.get("fp") or counted.get("fn")) else "")
    return html_table([("", False), ("rung", False), *_COUNT_HEADER], rows, classes)


def _document_classes(detail: Mapping[str, Any]) -> str:
    """A document's eval.json per class and label: counts and P/R/F1 per rung."""
    rows: list[list[Cell]] = []
    classes: list[str] = []
    for section, what in (("nodes", "node"), ("edges", "edge")):
        entries = detail.get(section)
        if not isinstance(entries, dict):
            continue
        for name, per_rung in entries.items():
            if not isinstance(per_rung, dict):
                continue
            for k, (rung, prf) in enumerate(per_rung.items()):
                if not isinstance(prf, dict):
                    continue
                rows.append(
                    [
                        e(f"{what}:{name}") if k == 0 else "",
                        e(rung),
                        *(fmt(prf.get(c)) for c in ("tp", "fp", "fn")),
                        *(fmt(prf.get(c), 3) for c in ("p", "r", "f1")),
                    ]
                )
                classes.append("diff" if (prf.get("fp") or prf.get("fn")) else "")
    if not rows:
        return ""
    header = [("class / label", False), ("rung", False), *_COUNT_HEADER]
    return "<h5>Per class and label</h5>" + html_table(header, rows, classes)


def _document_unmatched(detail: Mapping[str, Any]) -> str:
    """A document's unmatched nodes and edges per class or label and rung."""
    unmatched = detail.get("unmatched")
    if not isinstance(unmatched, dict):
        return (
            '<p class="note">The unmatched nodes and edges themselves are in the result '
            "envelope (<code>parsescore graph --result FILE</code>).</p>"
        )
    rows = []
    for section, what in (("nodes", "node"), ("edges", "edge")):
        entries = unmatched.get(section)
        for name, per_rung in (entries if isinstance(entries, dict) else {}).items():
            for rung, lists in (per_rung if isinstance(per_rung, dict) else {}).items():
                if not isinstance(lists, dict):
                    continue
                for side, title in (("missing", "missing (fn)"), ("extra", "extra (fp)")):
                    values = lists.get(side) or []
                    if values:
                        shown = [" → ".join(v) if isinstance(v, list) else str(v) for v in values]
                        rows.append(
                            [e(f"{what}:{name}"), e(rung), e(title), text_cell("\n".join(shown))]
                        )
    if not rows:
        return "<h5>Unmatched nodes and edges: none</h5>"
    header = [("class / label", False), ("rung", False), ("", False), ("ids", False)]
    return "<h5>Unmatched nodes and edges</h5>" + html_table(header, rows, ["diff"] * len(rows))


def _answer_note(dataset: Mapping[str, Any], item: str) -> str:
    """How a document's answer was read (unreadable, missing, from a fenced block)."""
    unreadable = dataset.get("unreadable")
    if isinstance(unreadable, dict) and item in unreadable:
        return (
            f'<p class="note">Answer unreadable ({e(unreadable[item])}): scored as an empty '
            "graph.</p>"
        )
    missing = dataset.get("missing")
    if isinstance(missing, list) and item in missing:
        return '<p class="note">No answer: scored as an empty graph.</p>'
    fenced = dataset.get("fenced")
    if isinstance(fenced, dict) and item in fenced:
        return (
            f'<p class="note">Answer read from a fenced block ({e(fenced[item] or "no info")}).</p>'
        )
    return ""


def _documents_drilldown(system: System, items: Sequence[str]) -> str:
    """Each listed document of a dataset: how its answer was read, its micro scores, its
    classes and labels, what was not matched, and its eval.json's pairs and checks."""
    result = system.result
    out = [_inputs(result)]
    for item in items:
        detail = result.details.get(item, {})
        paths = [
            f"{label}: {e(detail[key])}"
            for key, label in (("graph", "answer"), ("truth", "truth"))
            if isinstance(detail.get(key), str)
        ]
        body = [
            f'<p class="note">{" · ".join(paths)}</p>' if paths else "",
            _answer_note(result.dataset, item),
            _document_micro(system, item, detail),
            _document_classes(detail),
            _document_unmatched(detail),
            _facts(detail, "h5"),
        ]
        out.append(item_details(system, item, "".join(body)))
    return "".join(out)


def _unmatched(system: System) -> str:
    """The unmatched nodes and edges per class/label and rung."""
    details = system.result.details
    rows = []
    for item, detail in details.items():
        unmatched = detail.get("unmatched")
        if not isinstance(unmatched, dict):
            continue
        for rung, lists in unmatched.items():
            if not isinstance(lists, dict):
                continue
            for side, title in (("missing", "missing (fn)"), ("extra", "extra (fp)")):
                values = lists.get(side) or []
                if values:
                    shown = [" → ".join(v) if isinstance(v, list) else str(v) for v in values]
                    rows.append([e(item), e(rung), e(title), text_cell("\n".join(shown))])
    if not any(isinstance(d.get("unmatched"), dict) for d in details.values()):
        return (
            '<p class="note">eval.json gives the counts of unmatched nodes per class (fp: '
            "extracted but not in the truth, fn: in the truth but not extracted); the nodes "
            "themselves are in the result envelope (<code>parsescore graph --result FILE</code>)."
            "</p>"
        )
    if not rows:
        return "<h4>Unmatched nodes and edges: none</h4>"
    header = [("class / label", False), ("rung", False), ("", False), ("ids", False)]
    return "<h4>Unmatched nodes and edges</h4>" + html_table(header, rows, ["diff"] * len(rows))
