"""The kind's readers (its registry: :data:`parsescore.graph.kind.FORMATS`) and source texts,
with clear errors.

* ``graph.json`` — :func:`read_graph`: docling-graph's export (the extracted graph; the truth
  without a template); with ``answer=True`` a chat answer holding one in a fenced block;
* ``instance`` — :func:`read_instance`: a ground truth, one instance of the root template,
  converted into a graph.

Both return the kind's model, :class:`~parsescore.graph.template.GraphData`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsescore.core.errors import InputError
from parsescore.core.files import decode_text, parse_json, read_text
from parsescore.graph.canon import strip_markup
from parsescore.graph.template import GraphData, load_template, truth_graph_from_data
from parsescore.shared.answers import Answer, unwrap_answer

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["is_graph_json", "read_graph", "read_instance"]

MARKUP_SUFFIXES = frozenset({".dclg", ".dclx", ".xml"})


EXAMPLES = 3
"""How many offending nodes/edges a warning names before it only counts the rest."""


def _examples(found: list[str]) -> str:
    shown = ", ".join(found[:EXAMPLES])
    return shown + (f" and {len(found) - EXAMPLES} more" if len(found) > EXAMPLES else "")


def _checked_graph(data: Any, path: str | Path, *, strict: bool = False) -> GraphData:
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


def _bare_json(text: str | bytes) -> bool:
    """Whether an answer is a bare graph.json: its first character but whitespace is ``{``."""
    head = text[:64].lstrip()
    if not head:
        head = text.lstrip()
    return head[:1] in ("{", b"{")


def answer_content(text: str) -> Answer:
    """What the graph.json reader reads of an answer: a text that begins with ``{`` is a bare
    graph.json, read whole (its strings may hold ``<think>`` or fences that mark nothing, and
    a 10 MB export is not scanned for them); any other text goes through the chat-answer rule
    (:func:`parsescore.shared.answers.unwrap_answer`, a fenced ``json`` block first)."""
    if _bare_json(text):
        return Answer(text)
    return unwrap_answer(text, ("json",))


def read_graph(
    text: str | bytes,
    path: str | Path = "graph.json",
    *,
    strict: bool = False,
    answer: bool = False,
) -> GraphData:
    """The ``graph.json`` reader: docling-graph's export as a :class:`GraphData`.

    ``path`` names the file in errors. What script 16 cannot read is an InputError; what it
    scores although it is odd is read with warnings (``strict=True`` refuses it: see
    :func:`_checked_graph`). ``answer=True`` reads a model's answer (an extracted graph) by the
    chat-answer rule first (:func:`answer_content`): an error then names the answer's own line,
    and :attr:`GraphData.fence` says which fenced block the graph came from. ``text`` may be
    the file's bytes (:func:`~parsescore.core.files.read_bytes`): a bare graph.json is then
    parsed undecoded (see :func:`~parsescore.core.files.parse_json`), an answer decoded first.
    """
    if not answer or (isinstance(text, bytes) and _bare_json(text)):
        return _checked_graph(parse_json(text, path), path, strict=strict)
    if isinstance(text, bytes):
        text = decode_text(text, path)
    content = answer_content(text)
    try:
        graph = _checked_graph(parse_json(content.text, path), path, strict=strict)
    except InputError as exc:
        raise content.relocate(exc, path) from None
    graph.fence = content.fence
    return graph


def is_graph_json(text: str) -> bool:
    """Whether ``text`` is a graph.json (a JSON object with a ``nodes`` list and ``edges``)."""
    if not text.lstrip().startswith("{"):
        return False
    try:
        data = parse_json(text)
    except InputError:
        return False
    return isinstance(data, dict) and isinstance(data.get("nodes"), list) and "edges" in data


def read_instance(
    text: str | bytes,
    path: str | Path = "truth.json",
    *,
    template: type[BaseModel] | str | None = None,
) -> GraphData:
    """The ``instance`` reader: a ground truth, one JSON instance of ``template`` (the model,
    or ``pkg.module.Class`` / ``file.py:Class``), validated and converted into a graph by
    docling-graph's converter rules (:func:`~parsescore.graph.template.graph_from_instance`)."""
    if template is None:
        raise InputError("an instance is read with its template (--template)", path=path)
    model = load_template(template) if isinstance(template, str) else template
    return truth_graph_from_data(parse_json(text, path), path, model)


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
