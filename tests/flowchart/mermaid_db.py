"""The flowchart model built from Mermaid's own parse (its FlowDB), by the format spec's mapping.

Written independently of ``parsescore.flowchart.formats._Builder`` (only the label clean-up,
a rule of the spec, is shared) so that the reference tests compare two derivations.
"""

from __future__ import annotations

from typing import Any

from parsescore.flowchart.formats import clean_label


def _decoded(text: str) -> str:
    """Undo Mermaid's entity placeholders (its encodeEntities: ``#`` and ``;`` of a code)."""
    return text.replace("ﬂ°°", "#").replace("ﬂ°", "#").replace("¶ß", ";")


def _clean(text: str, label_type: str | None) -> str:
    text = _decoded(text)
    if label_type == "markdown":
        return clean_label("`" + text + "`")
    return clean_label(text)


def model_from_db(db: dict[str, Any]) -> dict[str, Any]:
    """``{"nodes": [(text, labels, points_to)], "edge_labels": {(s, t): label}}``, 1-based."""
    subgraphs = {s["id"]: s for s in db["subgraphs"]}
    vertices = [v for v in db["vertices"] if v["id"] not in subgraphs]
    number = {v["id"]: k + 1 for k, v in enumerate(vertices)}
    # a node's subgraph: the first in Mermaid's list that holds it (Mermaid keeps one)
    home: dict[str, str] = {}
    parent: dict[str, str] = {}
    for sub in db["subgraphs"]:
        for member in sub["nodes"]:
            if member in subgraphs:
                parent.setdefault(member, sub["id"])
            else:
                home.setdefault(member, sub["id"])

    def inside(sub_id: str) -> list[str]:
        found = [v["id"] for v in vertices if _within(v["id"], sub_id)]
        return found

    def _within(node_id: str, sub_id: str) -> bool:
        current = home.get(node_id)
        seen = 0
        while current is not None and seen < 100:
            if current == sub_id:
                return True
            current, seen = parent.get(current), seen + 1
        return False

    def ends(node_id: str) -> list[str]:
        return inside(node_id) if node_id in subgraphs else [node_id]

    points: dict[int, list[int]] = {number[v["id"]]: [] for v in vertices}
    edge_labels: dict[tuple[int, int], str] = {}
    for edge in db["edges"]:
        if edge["stroke"] == "invisible":
            continue
        both = edge["type"].startswith("double_arrow")
        label = clean_label(_decoded(edge.get("text") or ""))
        for a in ends(edge["start"]):
            for b in ends(edge["end"]):
                for s, t in ((a, b), (b, a)) if both else ((a, b),):
                    pair = (number[s], number[t])
                    if pair[1] not in points[pair[0]]:
                        points[pair[0]].append(pair[1])
                    if label and pair not in edge_labels:
                        edge_labels[pair] = label
    nodes = []
    for v in vertices:
        text = _clean(v["text"] or "", v.get("labelType")) or v["id"]
        titles = []
        current = home.get(v["id"])
        while current is not None and len(titles) < 100:
            sub = subgraphs[current]
            title = clean_label(_decoded(sub["title"] or ""))
            if title and sub["title"] != sub["id"]:
                titles.append(title)
            current = parent.get(current)
        nodes.append((text, tuple(reversed(titles)), tuple(points[number[v["id"]]])))
    return {"nodes": nodes, "edge_labels": edge_labels}


def model_from_ours(chart: Any) -> dict[str, Any]:
    """The same shape from a :class:`parsescore.flowchart.formats.Flowchart`."""
    return {
        "nodes": [(n.text, n.labels, n.points_to) for n in chart.nodes],
        "edge_labels": dict(chart.edge_labels),
    }
