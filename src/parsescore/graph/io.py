"""Reading docling-graph ``graph.json`` exports and source texts, with clear errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parsescore.core.errors import InputError
from parsescore.core.files import load_json, parse_json, read_text
from parsescore.graph.canon import strip_markup
from parsescore.graph.template import GraphData
from parsescore.shared.answers import Answer, unwrap_answer

__all__ = [
    "answer_content",
    "graph_from_answer",
    "graph_from_json_data",
    "load_answer_graph",
    "load_graph_json",
    "load_source_text",
    "parse_id_fields",
    "source_from_text",
]

MARKUP_SUFFIXES = frozenset({".dclg", ".dclx", ".xml"})


EXAMPLES = 3
"""How many offending nodes/edges a warning names before it only counts the rest."""


def _examples(found: list[str]) -> str:
    shown = ", ".join(found[:EXAMPLES])
    return shown + (f" and {len(found) - EXAMPLES} more" if len(found) > EXAMPLES else "")


def graph_from_json_data(data: Any, path: str | Path, *, strict: bool = False) -> GraphData:
    """Check a parsed graph.json and wrap it.

    What docling-graph's script 16 cannot read (not an object, ``nodes`` not a list, a node
    or edge that is not an object) is an error. What it scores — no ``nodes`` key or an empty
    node list (every truth node missed), a node without ``id`` (read as the id ``"None"``), an
    edge without an end or whose end is no node's id (never matched; still in the fan-out) —
    is scored the same way with a warning naming the nodes/edges, or refused with
    ``strict=True``.
    """
    if not isinstance(data, dict):
        raise InputError(
            f"expected a JSON object with 'nodes' and 'edges', got {type(data).__name__}",
            path=path,
        )
    warnings: list[str] = []
    nodes = data.get("nodes", [])
    if not isinstance(nodes, list):
        raise InputError(
            f"'nodes' must be a list of node objects, got {type(nodes).__name__}", path=path
        )
    if not nodes:
        what = "has no 'nodes' key" if "nodes" not in data else "has an empty 'nodes' list"
        if strict:
            raise InputError(
                f"graph {what} (expected a non-empty 'nodes' list of node objects)", path=path
            )
        warnings.append(f"{path}: graph {what}; scored as a graph without nodes")
    edges = data.get("edges", [])
    if edges is None:
        edges = []
    if not isinstance(edges, list):
        raise InputError(f"'edges' must be a list, got {type(edges).__name__}", path=path)
    node_ids: set[str] = set()
    no_id: list[str] = []
    for index, node in enumerate(nodes):
        if not isinstance(node, dict):
            raise InputError(
                f"node is a {type(node).__name__}, expected an object",
                path=path,
                where=f"nodes[{index}]",
            )
        if node.get("id") is None:
            if strict:
                raise InputError("node has no 'id'", path=path, where=f"nodes[{index}]")
            no_id.append(f"nodes[{index}]")
        node_ids.add(str(node.get("id")))
    if no_id:
        warnings.append(
            f"{path}: {len(no_id)} node(s) without 'id' ({_examples(no_id)}); scored under "
            "the id 'None' as script 16 reads them"
        )
    dangling: list[str] = []
    for index, edge in enumerate(edges):
        if not isinstance(edge, dict):
            raise InputError(
                f"edge is a {type(edge).__name__}, expected an object",
                path=path,
                where=f"edges[{index}]",
            )
        for end in ("source", "target"):
            if end not in edge:
                if strict:
                    raise InputError(f"edge has no '{end}'", path=path, where=f"edges[{index}]")
                dangling.append(f"edges[{index}] has no {end}")
            elif str(edge[end]) not in node_ids:
                if strict:
                    raise InputError(
                        f"edge {end} {edge[end]!r} is not the id of any node",
                        path=path,
                        where=f"edges[{index}]",
                    )
                dangling.append(f"edges[{index}] {end} {edge[end]!r}")
    if dangling:
        warnings.append(
            f"{path}: {len(dangling)} edge end(s) name no node ({_examples(dangling)}); such "
            "edges are never matched but count in the fan-out, as in script 16"
        )
    graph = data.get("graph")
    return GraphData(
        nodes=nodes,
        edges=edges,
        graph=graph if isinstance(graph, dict) else {},
        warnings=warnings,
    )


def load_graph_json(path: str | Path, *, strict: bool = False) -> GraphData:
    """Load and check a docling-graph ``graph.json`` export (see :func:`graph_from_json_data`)."""
    return graph_from_json_data(load_json(path), path, strict=strict)


def answer_content(text: str) -> Answer:
    """What the graph.json reader reads of an answer: a text that begins with ``{`` is a bare
    graph.json, read whole (its strings may hold ``<think>`` or fences that mark nothing, and
    a 10 MB export is not scanned for them); any other text goes through the chat-answer rule
    (:func:`parsescore.shared.answers.unwrap_answer`, a fenced ``json`` block first)."""
    head = text[:64].lstrip()
    if head.startswith("{") or (not head and text.lstrip().startswith("{")):
        return Answer(text)
    return unwrap_answer(text, ("json",))


def graph_from_answer(
    text: str, path: str | Path, *, strict: bool = False
) -> tuple[GraphData, Answer]:
    """The extracted graph of an answer (:func:`answer_content`, then
    :func:`graph_from_json_data`), and where its content came from. An error names the
    answer's own line (``Answer.relocate``)."""
    answer = answer_content(text)
    try:
        graph = graph_from_json_data(parse_json(answer.text, path), path, strict=strict)
    except InputError as exc:
        raise answer.relocate(exc, path) from None
    return graph, answer


def load_answer_graph(path: str | Path, *, strict: bool = False) -> GraphData:
    """:func:`graph_from_answer` of a file (the extracted graph.json, or a chat answer)."""
    return graph_from_answer(read_text(path), path, strict=strict)[0]


def source_from_text(raw: str, name: str | Path | None) -> str:
    """The text the model was served, from its raw file text: DocLang/XML serialisations (by
    the suffix of ``name``, or a ``<doctag`` start) are reduced to their content."""
    suffix = Path(str(name)).suffix.lower() if name is not None else ""
    if suffix in MARKUP_SUFFIXES or raw.lstrip().startswith("<doctag"):
        return strip_markup(raw)
    return raw


def load_source_text(path: str | Path) -> str:
    """The text the model was served; DocLang/XML serialisations are reduced to their content."""
    return source_from_text(read_text(path), path)


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
