"""Typed elements of a PlantUML sequence diagram, each with its line numbers and canonical form.

Every element keeps ``line`` / ``end_line`` (1-based, inclusive) and ``raw`` (the script text it
came from) so that each counted difference can show both lines. Elements that carry a metric
(arrows, notes, groups, boxes, participant declarations) have a ``canonical`` one-line form:
parsed, then rendered in one fixed way, so that spacing, indentation, ``A <- B`` versus
``B -> A`` and aliases never make two equal elements look different. Colours are part of the
canonical form (the paper counts a changed colour as a changed line); :func:`without_colours`
drops them (``--ignore-colours``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

__all__ = [
    "CATEGORIES",
    "DEFAULT_THRESHOLD",
    "Arrow",
    "Box",
    "Comment",
    "Diagnostic",
    "Element",
    "End",
    "Endpoint",
    "Group",
    "NoMetric",
    "Note",
    "Other",
    "ParsedDiagram",
    "Participant",
    "normalise_colour",
    "render_name",
    "without_colours",
]

#: The largest normalised Levenshtein distance at which a removed and an added line count as
#: one substitution (the paper's default).
DEFAULT_THRESHOLD = 0.5

#: The metric categories, in the order of the paper's Table 2.
CATEGORIES: tuple[str, ...] = (
    "node",
    "direction",
    "direction_type",
    "message",
    "box",
    "group",
    "note",
    "participant",
)

_PLAIN_CODE = re.compile(r"[\w.@]+")

LineStyle = Literal["solid", "dotted", "hidden"]
Severity = Literal["warning", "error"]


def normalise_colour(text: str) -> str:
    """A colour as canonical forms write it: lower case, no ``#``, no spaces; none is "".

    Colours are compared as written (``#red`` is not ``#FF0000``), as a line diff compares them;
    only case, the ``#`` and spacing are normalised. ``transparent`` (Mermaid's "no colour") is
    no colour.
    """
    colour = re.sub(r"\s+", "", text).lower().lstrip("#")
    return "" if colour == "transparent" else colour


def _with_colour(text: str, colour: str) -> str:
    return f"{text} #{colour}" if colour else text


def render_name(code: str) -> str:
    """A participant code as arrows write it: bare when it is a plain code, else quoted."""
    return code if _PLAIN_CODE.fullmatch(code) else f'"{code}"'


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One end of an arrow.

    Attributes:
        name: the participant's code (aliases resolved), ``"["``/``"]"`` for the left/right
            diagram border of an incoming/outgoing arrow, ``"?"`` when unknown (a ``return``
            with no open activation).
        kind: ``"participant"``, ``"boundary"`` or ``"unknown"``. Participants and unknown
            ends are nodes (an arrow has two endpoints even when one cannot be named); a
            diagram border is not.
        short: a ``?`` short incoming/outgoing arrow (a style detail, not part of equality).
    """

    name: str
    kind: Literal["participant", "boundary", "unknown"] = "participant"
    short: bool = field(default=False, compare=False)

    @property
    def is_node(self) -> bool:
        return self.kind != "boundary"

    def render(self) -> str:
        if self.kind == "boundary":
            return "?" if self.short else self.name
        if self.kind == "unknown":
            return "?"
        return render_name(self.name)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A per-file warning or error with the line it is about (0: the whole file)."""

    line: int
    message: str
    severity: Severity = "warning"

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{self.severity}: {where}{self.message}"


@dataclass(frozen=True, slots=True)
class Arrow:
    """A message arrow, normalised: ``A <- B`` is stored as source B, target A.

    Attributes:
        source, target: endpoints after alias resolution and direction normalisation.
        line_style: ``solid`` (``-``), ``dotted`` (``--``, ``[dashed]``, ``[dotted]``) or
            ``hidden``.
        source_head, target_head: ``""``, ``"normal"``, ``"async"`` or ``"cross"``.
        part: ``"full"``, ``"top"`` or ``"bottom"`` (half arrow heads ``\\`` and ``/``).
        source_circle, target_circle: an ``o`` decoration at that end.
        message: text after ``:``, trimmed, inner whitespace runs collapsed ("" when none).
        multicast: extra targets written ``& C``.
        colour: the arrow's colour (``-[#red]>``), normalised; part of its shape.
        is_return: written as ``return``.
        exo: the line is an incoming/outgoing arrow (``[->``, ``->]``, ``?->``).
    """

    line: int
    end_line: int
    raw: str
    source: Endpoint
    target: Endpoint
    line_style: LineStyle
    source_head: str
    target_head: str
    part: str = "full"
    source_circle: bool = False
    target_circle: bool = False
    message: str = ""
    multicast: tuple[Endpoint, ...] = ()
    is_return: bool = False
    exo: bool = False
    activation: str = ""
    colour: str = ""

    kind = "arrow"

    @property
    def has_message(self) -> bool:
        return bool(self.message)

    @property
    def nodes(self) -> tuple[str, ...]:
        """Endpoints counted as nodes: 2 per arrow, 1 for self and incoming/outgoing.

        A border (``[``, ``]``, ``?``) is no node; the same participant at both ends (a
        self-message) is one node; each further distinct multicast target adds one. Unknown
        ends (a ``return`` with no caller) are never merged: the arrow still has two.
        """
        seen: list[Endpoint] = []
        for end in (self.source, self.target, *self.multicast):
            if end.is_node and not (end.kind == "participant" and end in seen):
                seen.append(end)
        return tuple(end.name for end in seen)

    def _end(self, head: str, circle: bool, side: Literal["left", "right"]) -> str:
        if side == "right":
            symbol = {
                "full": {"normal": ">", "async": ">>"},
                "top": {"normal": "\\", "async": "\\\\"},
                "bottom": {"normal": "/", "async": "//"},
            }[self.part].get(head, "")
            if head == "cross":
                symbol = "x"
            return symbol + ("o" if circle else "")
        symbol = {
            "full": {"normal": "<", "async": "<<"},
            "top": {"normal": "/", "async": "//"},
            "bottom": {"normal": "\\", "async": "\\\\"},
        }[self.part].get(head, "")
        if head == "cross":
            symbol = "x"
        return ("o" if circle else "") + symbol

    def _body(self) -> str:
        if self.colour:
            hidden = "hidden," if self.line_style == "hidden" else ""
            dots = "-" if self.line_style != "solid" else ""
            return f"-[{hidden}#{self.colour}]{dots}"
        return {"solid": "-", "dotted": "--", "hidden": "-[hidden]-"}[self.line_style]

    @property
    def shape(self) -> str:
        """The arrow drawn from source (left) to target (right): line style, colour and heads.

        Two arrows differ in ``direction_type`` exactly when their shapes differ.
        """
        short = (
            ("?" if self.source.short else "")
            + self._end(self.source_head, self.source_circle, "left")
            + self._body()
            + self._end(self.target_head, self.target_circle, "right")
            + ("?" if self.target.short else "")
        )
        return short

    @property
    def canonical(self) -> str:
        """One-line canonical form, e.g. ``B --> A : ok`` for ``A <-- B: ok``."""
        if self.exo and self.target.kind == "boundary" and self.target.name == "[":
            # Going out to the left border: keep the border on the left, draw the arrow reversed.
            body = (
                self._end(self.target_head, self.target_circle, "left")
                + self._body()
                + self._end(self.source_head, self.source_circle, "right")
            )
            text = f"{self.target.render()}{body} {self.source.render()}"
        elif self.exo and self.source.kind == "boundary" and self.source.name == "]":
            body = (
                self._end(self.target_head, self.target_circle, "left")
                + self._body()
                + self._end(self.source_head, self.source_circle, "right")
            )
            text = f"{self.target.render()} {body}{self.source.render()}"
        elif self.exo and self.source.kind == "boundary":
            text = f"{self.source.render()}{self._arrow_token()} {self.target.render()}"
        elif self.exo and self.target.kind == "boundary":
            text = f"{self.source.render()} {self._arrow_token()}{self.target.render()}"
        else:
            targets = " & ".join(end.render() for end in (self.target, *self.multicast))
            text = f"{self.source.render()} {self._arrow_token()} {targets}"
        return f"{text} : {self.message}" if self.message else text

    def _arrow_token(self) -> str:
        return (
            self._end(self.source_head, self.source_circle, "left")
            + self._body()
            + self._end(self.target_head, self.target_circle, "right")
        )


@dataclass(frozen=True, slots=True)
class Participant:
    """A participant declaration (``participant``, ``actor``, ... ``queue``, ``create``).

    Attributes:
        type: the declaration keyword, lower case (``create X`` alone is ``participant``).
        code: the name arrows use (the alias when there is one).
        display: the displayed name (equal to ``code`` when there is no alias).
        stereotype: ``<<...>>`` text or "".
        colour: the declared colour, normalised ("" when none).
    """

    line: int
    end_line: int
    raw: str
    type: str
    code: str
    display: str
    stereotype: str = ""
    created: bool = False
    colour: str = ""

    kind = "participant"

    @property
    def canonical(self) -> str:
        if self.display != self.code:
            text = f'{self.type} "{self.display}" as {render_name(self.code)}'
        else:
            text = f"{self.type} {render_name(self.code)}"
        return _with_colour(f"{text} {self.stereotype}" if self.stereotype else text, self.colour)


@dataclass(frozen=True, slots=True)
class Note:
    """A note (single-line or multi-line: one element either way).

    Attributes:
        shape: ``note``, ``hnote`` or ``rnote``.
        position: ``left``, ``right``, ``over`` or ``across``.
        participants: resolved participant codes (empty for a note on an arrow / across).
        text: the note text; lines of a multi-line note joined with ``\\n``, each trimmed.
    """

    line: int
    end_line: int
    raw: str
    shape: str
    position: str
    participants: tuple[str, ...]
    text: str
    multiline: bool = False
    colour: str = ""

    kind = "note"

    @property
    def canonical(self) -> str:
        head = f"{self.shape} {self.position}"
        if self.participants:
            head += " " + ", ".join(render_name(p) for p in self.participants)
        head = _with_colour(head, self.colour)
        return f"{head} : {self.text}" if self.text else head


@dataclass(frozen=True, slots=True)
class Group:
    """A group opening line (``group alt opt loop par break critical``) or an ``else`` line.

    ``colour``: its colours (``alt#Gold #LightBlue``), normalised and joined with ``#``.
    """

    line: int
    end_line: int
    raw: str
    keyword: str
    label: str
    colour: str = ""

    kind = "group"

    @property
    def canonical(self) -> str:
        keyword = _with_colour(self.keyword, self.colour)
        return f"{keyword} {self.label}" if self.label else keyword


@dataclass(frozen=True, slots=True)
class Box:
    """A ``box`` opening line: its title and colour."""

    line: int
    end_line: int
    raw: str
    title: str
    colour: str = ""

    kind = "box"

    @property
    def canonical(self) -> str:
        return _with_colour(f'box "{self.title}"' if self.title else "box", self.colour)


@dataclass(frozen=True, slots=True)
class End:
    """An ``end`` / ``end box`` / ``end note`` ... line: structure only, counts for nothing."""

    line: int
    end_line: int
    raw: str
    closes: str

    kind = "end"


@dataclass(frozen=True, slots=True)
class NoMetric:
    """A valid line (or block) that carries no metric: ``@startuml``, ``title``, ``skinparam``..."""

    line: int
    end_line: int
    raw: str
    keyword: str

    kind = "no_metric"


@dataclass(frozen=True, slots=True)
class Comment:
    """A ``'`` comment line or a ``/' ... '/`` block comment."""

    line: int
    end_line: int
    raw: str

    kind = "comment"


@dataclass(frozen=True, slots=True)
class Other:
    """A line the parser does not recognise: kept, reported, never counted."""

    line: int
    end_line: int
    raw: str

    kind = "other"


Element = Arrow | Participant | Note | Group | Box | End | NoMetric | Comment | Other

#: Element kinds that carry a metric, and the category their pairing is done in.
METRIC_KINDS: tuple[str, ...] = ("arrow", "note", "group", "box", "participant")


@dataclass(frozen=True, slots=True)
class ParsedDiagram:
    """A parsed script: its elements in file order, diagnostics, the line count, and the format
    it was read from (``plantuml`` or ``mermaid``)."""

    elements: tuple[Element, ...]
    diagnostics: tuple[Diagnostic, ...]
    line_count: int
    path: str = ""
    format: str = "plantuml"

    @property
    def metric_elements(self) -> tuple[Arrow | Participant | Note | Group | Box, ...]:
        return tuple(e for e in self.elements if e.kind in METRIC_KINDS)  # type: ignore[misc]

    @property
    def arrows(self) -> tuple[Arrow, ...]:
        return tuple(e for e in self.elements if isinstance(e, Arrow))

    @property
    def participants(self) -> tuple[Participant, ...]:
        return tuple(e for e in self.elements if isinstance(e, Participant))

    @property
    def notes(self) -> tuple[Note, ...]:
        return tuple(e for e in self.elements if isinstance(e, Note))

    @property
    def groups(self) -> tuple[Group, ...]:
        return tuple(e for e in self.elements if isinstance(e, Group))

    @property
    def boxes(self) -> tuple[Box, ...]:
        return tuple(e for e in self.elements if isinstance(e, Box))

    @property
    def unknown(self) -> tuple[Other, ...]:
        return tuple(e for e in self.elements if isinstance(e, Other))

    @property
    def canonical_lines(self) -> tuple[str, ...]:
        return tuple(e.canonical for e in self.metric_elements)


def without_colours(diagram: ParsedDiagram) -> ParsedDiagram:
    """The same diagram with every colour dropped (``--ignore-colours``: colours never count)."""
    elements = tuple(
        replace(e, colour="") if isinstance(e, Arrow | Participant | Note | Group | Box) else e
        for e in diagram.elements
    )
    return replace(diagram, elements=elements)
