"""One entry point for every dialect: which format a script is in, and reading it.

PlantUML (``.puml`` ``.plantuml`` ``.pu`` ``.iuml`` ``.wsd``) and Mermaid ``sequenceDiagram``
(``.mmd`` ``.mermaid``) are read into the same :class:`ParsedDiagram`, so any pairing of
dialects is scored with the same canonical forms.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from parsescore.core.errors import InputError
from parsescore.sequence.model import ParsedDiagram

__all__ = [
    "FORMATS",
    "MERMAID_SUFFIXES",
    "PLANTUML_SUFFIXES",
    "SUFFIXES",
    "detect_format",
    "read_diagram",
]

#: Formats a script can be read from (``auto``: by content, then by file name).
FORMATS: tuple[str, ...] = ("auto", "plantuml", "mermaid")
PLANTUML_SUFFIXES: tuple[str, ...] = (".puml", ".plantuml", ".pu", ".iuml", ".wsd")
MERMAID_SUFFIXES: tuple[str, ...] = (".mmd", ".mermaid")
#: File name endings taken as sequence-diagram scripts in directories and git trees.
SUFFIXES: tuple[str, ...] = PLANTUML_SUFFIXES + MERMAID_SUFFIXES

_FIRST = re.compile(r"^\s*(?P<word>@start\w*|[\w-]+)", re.IGNORECASE)


def _first_word(text: str) -> str:
    """The first word of the first line that is not blank, a comment or Mermaid front matter."""
    in_front_matter = False
    for number, line in enumerate(text.splitlines()[:2000]):
        stripped = line.strip()
        if number == 0 and stripped == "---":
            in_front_matter = True
            continue
        if in_front_matter:
            in_front_matter = stripped != "---"
            continue
        if not stripped or stripped.startswith(("%%", "'")):
            continue
        match = _FIRST.match(stripped)
        return match["word"].lower() if match else ""
    return ""


def detect_format(text: str, path: str = "") -> str:
    """``mermaid`` or ``plantuml``: the content decides when it is plain (a first statement
    ``sequenceDiagram`` or another Mermaid diagram type, or ``@startuml``), else the file name,
    else PlantUML.

    >>> detect_format("sequenceDiagram\\n  A->>B: hi"), detect_format("A -> B", "x.mmd")
    ('mermaid', 'mermaid')
    """
    from parsescore.sequence.mermaid import MERMAID_DIAGRAM_TYPES

    word = _first_word(text)
    if word.startswith("@start"):
        return "plantuml"
    if word == "sequencediagram" or word in {t.lower() for t in MERMAID_DIAGRAM_TYPES}:
        return "mermaid"
    if path.lower().endswith(MERMAID_SUFFIXES):
        return "mermaid"
    return "plantuml"


def read_diagram(
    text: str,
    *,
    format: str = "auto",
    path: str = "",
    includes: Mapping[str, str] | None = None,
) -> ParsedDiagram:
    """Read a PlantUML or Mermaid sequence diagram (``format``: ``auto``, ``plantuml``,
    ``mermaid``). ``includes``: files a PlantUML ``!include`` may name, by root-relative path.

    Raises :class:`~parsescore.core.errors.InputError` for an unknown format or a Mermaid file that
    is not a sequence diagram; anything else it cannot read is a warning in ``diagnostics``.
    """
    if format not in FORMATS:
        raise InputError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")
    chosen = detect_format(text, path) if format == "auto" else format
    if chosen == "mermaid":
        from parsescore.sequence.mermaid import parse_mermaid

        return parse_mermaid(text, path=path)
    from parsescore.sequence.parser import parse_plantuml

    return parse_plantuml(text, path=path, includes=includes)
