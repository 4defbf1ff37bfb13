"""The flowchart model from Graphviz's own parse (``dot -Tjson0``), by the format spec's mapping.

Independent of ``parsescore.flowchart.formats``: nodes and clusters as Graphviz lists them,
labels unescaped here. Compared as sets and maps keyed by node name (Graphviz orders nodes its
own way), with node texts only where the label is plain (no HTML, no record fields).
"""

from __future__ import annotations

from typing import Any


def _plain(label: str, name: str) -> str:
    text = label.replace("\\N", name)
    for escape in ("\\n", "\\l", "\\r"):
        text = text.replace(escape, "\n")
    return "\n".join(line.strip() for line in text.splitlines()).strip()


def model_from_dot_json(doc: dict[str, Any]) -> dict[str, Any]:
    objects = doc.get("objects", [])
    count = doc.get("_subgraph_cnt", 0)
    subgraphs, nodes = objects[:count], objects[count:]
    name = {o["_gvid"]: o["name"] for o in nodes}
    texts = {}
    for o in nodes:
        label = o.get("label", "\\N")
        if not label.startswith("<") and "|" not in label and "{" not in label:
            texts[o["name"]] = _plain(label, o["name"]) or o["name"]
    clusters = [s for s in subgraphs if s.get("name", "").startswith("cluster")]
    titles: dict[str, list[tuple[int, str]]] = {o["name"]: [] for o in nodes}
    for s in clusters:
        members = s.get("nodes", [])
        title = _plain(s.get("label", ""), s["name"])
        for gvid in members:
            if title:
                titles[name[gvid]].append((-len(members), title))  # outer clusters hold more
    edges = {(name[e["tail"]], name[e["head"]]) for e in doc.get("edges", [])}
    edge_labels = {
        (name[e["tail"]], name[e["head"]]): _plain(e["label"], "")
        for e in doc.get("edges", [])
        if e.get("label") and not e["label"].startswith("<")
    }
    return {
        "nodes": set(name.values()),
        "edges": edges,
        "texts": texts,
        "labels": {n: tuple(t for _, t in sorted(v)) for n, v in titles.items()},
        "edge_labels": edge_labels,
        "graph_label": _plain(doc.get("label", ""), ""),
    }


def model_from_ours(chart: Any) -> dict[str, Any]:
    by_number = {n.node_number: n.node_id for n in chart.nodes}
    edges = {(n.node_id, by_number[t]) for n in chart.nodes for t in n.points_to}
    return {
        "nodes": {n.node_id for n in chart.nodes},
        "edges": edges,
        "texts": {n.node_id: n.text for n in chart.nodes},
        "labels": {n.node_id: n.labels for n in chart.nodes},
        "edge_labels": {
            (by_number[s], by_number[t]): label for (s, t), label in chart.edge_labels.items()
        },
        "graph_label": chart.additional_texts[0] if chart.additional_texts else "",
    }


def comparable(ours: dict[str, Any], ref: dict[str, Any]) -> dict[str, Any]:
    """``ours`` with node texts only where Graphviz's label is plain (as in ``ref``)."""
    return {**ours, "texts": {k: v for k, v in ours["texts"].items() if k in ref["texts"]}}
