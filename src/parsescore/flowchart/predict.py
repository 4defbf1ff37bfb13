"""Flowcharts from images (``parsescore predict flowchart``): the prompt, the structured-output
schema and the check that turns a model's answer into a prediction file."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from parsescore.errors import InputError
from parsescore.files import dump_json, parse_json
from parsescore.flowchart.load import FlowchartTypeError, check_pred_document
from parsescore.predict.answers import AnswerError

__all__ = ["FLOWCHART_SCHEMA", "accept", "prompt", "response_format"]

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


def prompt() -> str:
    """The bundled prompt template (``prompt.txt`` beside this module)."""
    return (resources.files("parsescore.flowchart") / "prompt.txt").read_text(encoding="utf-8")


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
    except (InputError, FlowchartTypeError) as exc:
        raise AnswerError(str(exc)) from None
    node_keys = {"node_number", "text", "labels", "points_to"}
    if set(data["nodes"][0]) != node_keys:  # the check above made every node's keys equal
        raise AnswerError(
            f"nodes have keys {sorted(data['nodes'][0])}; expected {sorted(node_keys)} "
            "(every prediction of a folder must have the same parts)"
        )
    return dump_json(data), ()
