"""Sequence diagrams from images (``parsescore predict sequence [--format plantuml|mermaid]``):
the prompts and the checks that turn a model's answer into a prediction file.

PlantUML (the default) uses the paper's prompt; Mermaid (``--format mermaid``) the same prompt
asking for a ``sequenceDiagram`` (``prompt_mermaid.txt``). Each answer is checked with the
reader that will score it.
"""

from __future__ import annotations

import re
from importlib import resources

from parsescore.core.errors import InputError
from parsescore.predict.answers import AnswerError
from parsescore.sequence.parser import parse_plantuml

__all__ = ["accept", "accept_mermaid", "prompt", "prompt_mermaid"]

_START = re.compile(r"^\s*@startuml\b", re.MULTILINE | re.IGNORECASE)
_END = re.compile(r"^\s*@enduml\b", re.MULTILINE | re.IGNORECASE)


def prompt() -> str:
    """The bundled prompt template (``prompt.txt`` beside this module)."""
    return (resources.files("parsescore.sequence") / "prompt.txt").read_text(encoding="utf-8")


def prompt_mermaid() -> str:
    """The paper's prompt asking for Mermaid (``prompt_mermaid.txt`` beside this module)."""
    folder = resources.files("parsescore.sequence")
    return (folder / "prompt_mermaid.txt").read_text(encoding="utf-8")


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


def accept_mermaid(text: str, stem: str) -> tuple[str, tuple[str, ...]]:
    """A Mermaid ``sequenceDiagram`` in which the reader recognises at least one participant,
    arrow, note, group or box (other reader warnings are kept, not fatal)."""
    from parsescore.sequence.mermaid import parse_mermaid

    try:
        diagram = parse_mermaid(text, path=f"{stem}.mmd")
    except InputError as exc:
        raise AnswerError(f"not a Mermaid sequence diagram: {exc.reason}") from None
    if not diagram.metric_elements:
        raise AnswerError(
            "no participant, arrow, note, group or box recognised: not a sequence diagram"
        )
    body = text if text.endswith("\n") else text + "\n"
    return body, tuple(str(d) for d in diagram.diagnostics)
