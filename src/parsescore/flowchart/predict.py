"""Flowcharts from images (``parsescore predict flowchart``): the prompt, the structured-output
schema and the check that turns a model's answer into a prediction file; in Flowde's JSON (the
default) or, with ``--format mermaid|dot``, in Mermaid or Graphviz DOT (read back with the
readers of :mod:`parsescore.flowchart.formats` before the answer is kept)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from parsescore.core.errors import InputError
from parsescore.core.files import dump_json, parse_json
from parsescore.flowchart.formats import flowde_data, read_flowchart
from parsescore.flowchart.load import check_pred_document
from parsescore.predict.answers import AnswerError

__all__ = [
    "FLOWCHART_SCHEMA",
    "accept",
    "accept_dot",
    "accept_mermaid",
    "prompt",
    "prompt_dot",
    "prompt_mermaid",
    "response_format",
]

#: The JSON Schema sent as the structured-output format of flowchart requests (strict mode:
#: every property required, no others), matching the flowchart prediction format.
FLOWCHART_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["nodes", "additional_texts"],
    "properties": {
        "nodes": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["node_number", "text", "labels", "points_to"],
                "properties": {
                    "node_number": {"type": "integer"},
                    "text": {"type": "string"},
                    "labels": {"type": "array", "items": {"type": "string"}},
                    "points_to": {"type": "array", "items": {"type": "integer"}},
                },
            },
        },
        "additional_texts": {"type": "array", "items": {"type": "string"}},
    },
}


def response_format() -> dict[str, Any]:
    """The ``response_format`` of a structured-output request: JSON following the schema."""
    return {
        "type": "json_schema",
        "json_schema": {"name": "flowchart", "strict": True, "schema": FLOWCHART_SCHEMA},
    }


def _bundled(name: str) -> str:
    return (resources.files("parsescore.flowchart") / name).read_text(encoding="utf-8")


def prompt() -> str:
    """The bundled prompt template (``prompt.txt`` beside this module)."""
    return _bundled("prompt.txt")


def prompt_mermaid() -> str:
    """The prompt asking for a Mermaid flowchart (``prompt_mermaid.txt``)."""
    return _bundled("prompt_mermaid.txt")


def prompt_dot() -> str:
    """The prompt asking for a Graphviz DOT digraph (``prompt_dot.txt``)."""
    return _bundled("prompt_dot.txt")


def _accept_format(text: str, stem: str, fmt: str, suffix: str) -> str:
    """An answer in Mermaid or DOT that its reader and the prediction-folder checks accept."""
    path = Path(f"{stem}{suffix}")
    try:
        data, _ = flowde_data(read_flowchart(text, fmt, path=path))
        check_pred_document(data, path=path)
    except InputError as exc:
        raise AnswerError(str(exc)) from None
    return text.rstrip() + "\n"


def accept_mermaid(text: str, stem: str) -> tuple[str, tuple[str, ...]]:
    """A Mermaid flowchart with at least one node, kept as written (``.mmd``)."""
    return _accept_format(text, stem, "mermaid", ".mmd"), ()


def accept_dot(text: str, stem: str) -> tuple[str, tuple[str, ...]]:
    """A Graphviz DOT graph with at least one node, kept as written (``.dot``)."""
    return _accept_format(text, stem, "dot", ".dot"), ()


def accept(text: str, stem: str) -> tuple[str, tuple[str, ...]]:
    """A JSON object that passes the prediction-folder checks of ``parsescore flowchart`` with
    all four parts (``nodes`` with ``node_number``, ``text``, ``labels``, ``points_to``;
    ``additional_texts``), so every file of a predicted folder has the same parts."""
    try:
        data = parse_json(text)
    except InputError as exc:
        where = f" at {exc.where}" if exc.where else ""
        raise AnswerError(f"the answer is not JSON: {exc.reason}{where}") from None
    if not isinstance(data, dict) or set(data) != {"nodes", "additional_texts"}:
        found = sorted(data) if isinstance(data, dict) else type(data).__name__
        raise AnswerError(
            f"expected a JSON object with keys 'additional_texts', 'nodes'; found {found}"
        )
    try:
        check_pred_document(data, path=Path(f"{stem}.json"))
    except InputError as exc:
        raise AnswerError(str(exc)) from None
    node_keys = {"node_number", "text", "labels", "points_to"}
    if set(data["nodes"][0]) != node_keys:  # the check above made every node's keys equal
        raise AnswerError(
            f"nodes have keys {sorted(data['nodes'][0])}; expected {sorted(node_keys)} "
            "(every prediction of a folder must have the same parts)"
        )
    return dump_json(data), ()
