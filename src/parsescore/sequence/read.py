"""The reader registry (:data:`FORMATS`) and its one entry point: which format a script is in,
and reading it.

PlantUML (``.puml`` ``.plantuml`` ``.pu`` ``.iuml`` ``.wsd``) and Mermaid ``sequenceDiagram``
(``.mmd`` ``.mermaid``) are read into the same :class:`ParsedDiagram`, so any pairing of
dialects is scored with the same canonical forms. Adding a format is one :class:`Format` entry
here: the CLI choices (a test checks ``SequenceOptions``' ``Literal``), ``auto`` and the
directory listing follow.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from parsescore.core.errors import InputError
from parsescore.core.kinds import Format, lazy, resolved
from parsescore.sequence.model import ParsedDiagram

__all__ = ["FORMATS", "SUFFIXES", "detect_format", "read_diagram"]

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


def _is_plantuml(text: str) -> bool:
    """A first statement ``@startuml`` (or another ``@start…``)."""
    return _first_word(text).startswith("@start")


def _is_mermaid(text: str) -> bool:
    """A first statement ``sequenceDiagram``, or another Mermaid diagram type (which the
    Mermaid reader then refuses, naming it)."""
    from parsescore.sequence.mermaid import MERMAID_DIAGRAM_TYPES

    word = _first_word(text)
    return word == "sequencediagram" or word in {t.lower() for t in MERMAID_DIAGRAM_TYPES}


#: The reader registry: every format a script can be read from, in ``auto``'s order (the first
#: is also what a script nothing tells apart is read as). Each reader is called as
#: ``read(text, path=..., includes=...)`` and returns a :class:`ParsedDiagram`.
FORMATS: tuple[Format, ...] = (
    Format(
        "plantuml",
        "PlantUML sequence diagram (@startuml … @enduml)",
        (".puml", ".plantuml", ".pu", ".iuml", ".wsd"),
        lazy("parsescore.sequence.parser:parse_plantuml"),
        _is_plantuml,
    ),
    Format(
        "mermaid",
        "Mermaid sequenceDiagram",
        (".mmd", ".mermaid"),
        lazy("parsescore.sequence.mermaid:parse_mermaid"),
        _is_mermaid,
    ),
)
_BY_NAME = {fmt.name: fmt for fmt in FORMATS}
#: File name endings taken as sequence-diagram scripts in directories and git trees.
SUFFIXES: tuple[str, ...] = tuple(suffix for fmt in FORMATS for suffix in fmt.extensions)


def detect_format(text: str, path: str = "") -> str:
    """The name of the format ``text`` is in: the content decides when it is plain (a first
    statement ``@startuml``, or ``sequenceDiagram`` or another Mermaid diagram type), else the
    file name's extension, else the first format (PlantUML).

    >>> detect_format("sequenceDiagram\\n  A->>B: hi"), detect_format("A -> B", "x.mmd")
    ('mermaid', 'mermaid')
    """
    for fmt in FORMATS:
        if fmt.detect is not None and fmt.detect(text):
            return fmt.name
    lower = path.lower()
    for fmt in FORMATS:
        if lower.endswith(fmt.extensions):
            return fmt.name
    return FORMATS[0].name


def read_diagram(
    text: str,
    *,
    format: str = "auto",
    path: str = "",
    includes: Mapping[str, str] | None = None,
) -> ParsedDiagram:
    """Read a sequence diagram in any registered format (``format``: ``auto`` or a name of
    :data:`FORMATS`). ``includes``: files a PlantUML ``!include`` may name, by root-relative
    path.

    Raises :class:`~parsescore.core.errors.InputError` for an unknown format or a Mermaid file that
    is not a sequence diagram; anything else it cannot read is a warning in ``diagnostics``.
    """
    chosen = detect_format(text, path) if format == "auto" else format
    fmt = _BY_NAME.get(chosen)
    if fmt is None:
        names = ", ".join(["auto", *_BY_NAME])
        raise InputError(f"unknown format {format!r}; expected one of {names}")
    diagram: ParsedDiagram = resolved(fmt.read)(text, path=path, includes=includes)
    return diagram
