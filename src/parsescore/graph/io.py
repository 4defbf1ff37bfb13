"""Reading docling-graph ``graph.json`` exports and source texts, with clear errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parsescore.errors import InputError
from parsescore.files import load_json, read_text
from parsescore.graph.canon import strip_markup
from parsescore.graph.template import GraphData

__all__ = ["graph_from_json_data", "load_graph_json", "load_source_text", "parse_id_fields"]

MARKUP_SUFFIXES = frozenset({".dclg", ".dclx", ".xml"})


def graph_from_json_data(data: Any, path: str | Path) -> GraphData:
    """Check a parsed graph.json (nodes with ids, edges between existing nodes) and wrap it."""
    if not isinstance(data, dict):
        raise InputError(
            f"expected a JSON object with 'nodes' and 'edges', got {type(data).__name__}",
            path=path,
        )
    nodes = data.get("nodes")
    if not isinstance(nodes, list) or not nodes:
        raise InputError(
            "graph has no nodes (expected a non-empty 'nodes' list of node objects)", path=path
        )
    edges = data.get("edges", [])
    if edges is None:
        edges = []
    if not isinstance(edges, list):
        raise InputError(f"'edges' must be a list, got {type(edges).__name__}", path=path)
    node_ids: set[str] = set()
    for index, node in enumerate(nodes):
        if not isinstance(node, dict):
            raise InputError(
                f"node is a {type(node).__name__}, expected an object",
                path=path,
                where=f"nodes[{index}]",
            )
        if node.get("id") is None:
            raise InputError("node has no 'id'", path=path, where=f"nodes[{index}]")
        node_ids.add(str(node["id"]))
    for index, edge in enumerate(edges):
        if not isinstance(edge, dict):
            raise InputError(
                f"edge is a {type(edge).__name__}, expected an object",
                path=path,
                where=f"edges[{index}]",
            )
        for end in ("source", "target"):
            if end not in edge:
                raise InputError(f"edge has no '{end}'", path=path, where=f"edges[{index}]")
            if str(edge[end]) not in node_ids:
                raise InputError(
                    f"edge {end} {edge[end]!r} is not the id of any node",
                    path=path,
                    where=f"edges[{index}]",
                )
    graph = data.get("graph")
    return GraphData(nodes=nodes, edges=edges, graph=graph if isinstance(graph, dict) else {})


def load_graph_json(path: str | Path) -> GraphData:
    """Load and check a docling-graph ``graph.json`` export."""
    return graph_from_json_data(load_json(path), path)


def load_source_text(path: str | Path) -> str:
    """The text the model was served; DocLang/XML serialisations are reduced to their content."""
    raw = read_text(path)
    if Path(path).suffix.lower() in MARKUP_SUFFIXES or raw.lstrip().startswith("<doctag"):
        return strip_markup(raw)
    return raw


def parse_id_fields(specs: list[str]) -> dict[str, list[str]]:
    """``["Person=name", "Offer=code,version"]`` → ``{"Person": ["name"], ...}``."""
    result: dict[str, list[str]] = {}
    for spec in specs:
        cls, sep, fields = spec.partition("=")
        names = [f.strip() for f in fields.split(",") if f.strip()]
        if not sep or not cls.strip() or not names:
            raise InputError(
                f"--id-fields expects Class=field1,field2, got {spec!r}", where="--id-fields"
            )
        result[cls.strip()] = names
    return result
