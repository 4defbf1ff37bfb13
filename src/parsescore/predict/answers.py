"""Turning a model's answer into a prediction file, or a clear reason why it is not one.

An answer is accepted only when the scorer of its kind would accept the file it becomes, so a
prediction folder written by ``parsescore predict`` always scores. Per kind:

- flowchart: a JSON object that passes the prediction-folder checks of ``parsescore
  flowchart`` with all four parts (``nodes`` with ``node_number``, ``text``, ``labels``,
  ``points_to``; ``additional_texts``), so every file of the folder has the same parts;
- sequence: a PlantUML script with ``@startuml`` ... ``@enduml`` in which our parser recognises at
  least one participant, arrow, note, group or box (other parser warnings are kept, not fatal:
  PlantUML knows more than the metrics need);
- table: HTML whose ``body/table`` the TEDS tree builder finds, with at least one cell; a bare
  ``<table>`` answer is written inside ``<html><body>``, the form TEDS reads.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree

from parsescore.errors import InputError
from parsescore.files import dump_json
from parsescore.flowchart.load import FlowchartTypeError, check_pred_document
from parsescore.sequence.parser import parse_plantuml
from parsescore.table.tree import find_table

__all__ = [
    "FLOWCHART_SCHEMA",
    "KIND_SUFFIX",
    "AnswerError",
    "Prediction",
    "accept_answer",
    "unwrap_fences",
]

#: The prediction file's suffix per kind.
KIND_SUFFIX = {"flowchart": ".json", "sequence": ".puml", "table": ".html"}

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

_FENCE = re.compile(r"^```[^\n`]*\n(.*?)```[ \t]*$", re.DOTALL | re.MULTILINE)
_THINKING = re.compile(r"\A\s*<think>.*?</think>", re.DOTALL)
_START = re.compile(r"^\s*@startuml\b", re.MULTILINE | re.IGNORECASE)
_END = re.compile(r"^\s*@enduml\b", re.MULTILINE | re.IGNORECASE)


class AnswerError(ValueError):
    """A model's answer that is not a valid prediction of its kind (the message says why)."""


@dataclass(frozen=True)
class Prediction:
    """An accepted answer: the file text to write and the warnings worth keeping."""

    text: str
    warnings: tuple[str, ...] = ()


def unwrap_fences(answer: str) -> str:
    """The body of the first Markdown code fence in ``answer``, or ``answer`` itself.

    Models often wrap code in ```` ```json ```` / ```` ```plantuml ```` fences, with or without
    prose around them; the fence's body is the answer. A leading ``<think>…</think>`` block
    (reasoning models served by vLLM or Ollama put it in the content) is dropped first.
    """
    answer = _THINKING.sub("", answer, count=1)
    match = _FENCE.search(answer)
    return match.group(1) if match else answer


def _flowchart(text: str, stem: str) -> Prediction:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AnswerError(
            f"the answer is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
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
    return Prediction(dump_json(data))


def _sequence(text: str, stem: str) -> Prediction:
    if not _START.search(text) or not _END.search(text):
        raise AnswerError("the answer is not a PlantUML script: no @startuml ... @enduml")
    diagram = parse_plantuml(text, path=f"{stem}.puml")
    if not diagram.metric_elements:
        raise AnswerError(
            "no participant, arrow, note, group or box recognised: not a sequence diagram"
        )
    body = text if text.endswith("\n") else text + "\n"
    return Prediction(body, tuple(str(d) for d in diagram.diagnostics))


def _table(text: str, stem: str) -> Prediction:
    try:
        table = find_table(text)
        if table is None:  # a bare <table>: TEDS reads only body/table (it scores this 0)
            text = f"<html><body>{text}</body></html>"
            table = find_table(text)
    except (etree.ParserError, ValueError) as exc:
        raise AnswerError(f"the answer is not HTML: {exc}") from None
    if table is None:
        raise AnswerError("no <table> found in the answer (directly in <body>, or bare)")
    if not table.xpath(".//td|.//th"):
        raise AnswerError("the table has no cells (<td> or <th>)")
    return Prediction(text + "\n")


_ACCEPT = {"flowchart": _flowchart, "sequence": _sequence, "table": _table}


def accept_answer(kind: str, answer: str, *, stem: str) -> Prediction:
    """The prediction file made from a model's answer, or :class:`AnswerError` saying why not."""
    text = unwrap_fences(answer).strip()
    if not text:
        raise AnswerError("the answer is empty")
    return _ACCEPT[kind](text, stem)
