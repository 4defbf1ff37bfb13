"""Sequence diagrams from images (``parsescore predict sequence``): the prompt and the check
that turns a model's answer into a prediction file."""

from __future__ import annotations

import re
from importlib import resources

from parsescore.predict.answers import AnswerError
from parsescore.sequence.parser import parse_plantuml

__all__ = ["accept", "prompt"]

_START = re.compile(r"^\s*@startuml\b", re.MULTILINE | re.IGNORECASE)
_END = re.compile(r"^\s*@enduml\b", re.MULTILINE | re.IGNORECASE)


def prompt() -> str:
    """The bundled prompt template (``prompt.txt`` beside this module)."""
    return (resources.files("parsescore.sequence") / "prompt.txt").read_text(encoding="utf-8")


def accept(text: str, stem: str) -> tuple[str, tuple[str, ...]]:
    """A PlantUML script with ``@startuml`` ... ``@enduml`` in which our parser recognises at
    least one participant, arrow, note, group or box (other parser warnings are kept, not
    fatal: PlantUML knows more than the metrics need)."""
    if not _START.search(text) or not _END.search(text):
        raise AnswerError("the answer is not a PlantUML script: no @startuml ... @enduml")
    diagram = parse_plantuml(text, path=f"{stem}.puml")
    if not diagram.metric_elements:
        raise AnswerError(
            "no participant, arrow, note, group or box recognised: not a sequence diagram"
        )
    body = text if text.endswith("\n") else text + "\n"
    return body, tuple(str(d) for d in diagram.diagnostics)
