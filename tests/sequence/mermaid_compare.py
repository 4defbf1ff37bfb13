"""Mermaid's parse (its db, from ``mermaid_ref``) and ours, in one comparable shape.

Both sides become lists of plain tuples: declared participants, arrows (from, to, text, kind),
notes, groups (keyword, text) in order, and boxes (title, colour, members). Texts are compared
after the same clean-up on both sides (entity codes decoded, ``<br>`` = newline, spaces
collapsed): what the canonical forms compare.
"""

from __future__ import annotations

import html
import re
from typing import Any

from parsescore.sequence.model import Box, End, ParsedDiagram, Participant

#: Mermaid LINETYPE name → (line style, source head, target head, part, drawn right-to-left).
ARROW_KINDS: dict[str, tuple[str, str, str, str, bool]] = {
    "SOLID": ("solid", "", "normal", "full", False),
    "DOTTED": ("dotted", "", "normal", "full", False),
    "SOLID_OPEN": ("solid", "", "", "full", False),
    "DOTTED_OPEN": ("dotted", "", "", "full", False),
    "SOLID_CROSS": ("solid", "", "cross", "full", False),
    "DOTTED_CROSS": ("dotted", "", "cross", "full", False),
    "SOLID_POINT": ("solid", "", "async", "full", False),
    "DOTTED_POINT": ("dotted", "", "async", "full", False),
    "BIDIRECTIONAL_SOLID": ("solid", "normal", "normal", "full", False),
    "BIDIRECTIONAL_DOTTED": ("dotted", "normal", "normal", "full", False),
    "SOLID_TOP": ("solid", "", "normal", "top", False),
    "SOLID_BOTTOM": ("solid", "", "normal", "bottom", False),
    "STICK_TOP": ("solid", "", "async", "top", False),
    "STICK_BOTTOM": ("solid", "", "async", "bottom", False),
    "SOLID_ARROW_TOP_REVERSE": ("solid", "", "normal", "top", True),
    "SOLID_ARROW_BOTTOM_REVERSE": ("solid", "", "normal", "bottom", True),
    "STICK_ARROW_TOP_REVERSE": ("solid", "", "async", "top", True),
    "STICK_ARROW_BOTTOM_REVERSE": ("solid", "", "async", "bottom", True),
    "SOLID_TOP_DOTTED": ("dotted", "", "normal", "top", False),
    "SOLID_BOTTOM_DOTTED": ("dotted", "", "normal", "bottom", False),
    "STICK_TOP_DOTTED": ("dotted", "", "async", "top", False),
    "STICK_BOTTOM_DOTTED": ("dotted", "", "async", "bottom", False),
    "SOLID_ARROW_TOP_REVERSE_DOTTED": ("dotted", "", "normal", "top", True),
    "SOLID_ARROW_BOTTOM_REVERSE_DOTTED": ("dotted", "", "normal", "bottom", True),
    "STICK_ARROW_TOP_REVERSE_DOTTED": ("dotted", "", "async", "top", True),
    "STICK_ARROW_BOTTOM_REVERSE_DOTTED": ("dotted", "", "async", "bottom", True),
}
#: Mermaid block starts → PlantUML group keyword; branch items → ``else``.
GROUP_STARTS = {
    "LOOP_START": "loop",
    "ALT_START": "alt",
    "OPT_START": "opt",
    "PAR_START": "par",
    "PAR_OVER_START": "par",
    "CRITICAL_START": "critical",
    "BREAK_START": "break",
}
BRANCHES = ("ALT_ELSE", "PAR_AND", "CRITICAL_OPTION")
PLACEMENTS = {0: "left", 1: "right", 2: "over"}


def clean(text: str | None) -> str:
    """The clean-up both sides get: Mermaid's entity markers and codes decoded, ``<br>`` =
    ``\\n``, ``wrap:`` prefixes dropped, whitespace runs collapsed."""
    text = text or ""
    text = re.sub("ﬂ°°(\\d+)¶ß", lambda m: chr(int(m[1])), text)
    text = re.sub("ﬂ°(\\w+)¶ß", lambda m: html.unescape(f"&{m[1]};"), text)
    text = re.sub(r"#(\d+);", lambda m: chr(int(m[1])), text)
    text = html.unescape(re.sub(r"^:?(?:no)?wrap:", "", text.strip(), flags=re.I))
    # Mermaid's lineBreakRegex (common.ts, 12.3.0: /<\/?br\s*\/?>/gi): what it draws as a break
    text = re.sub(r"</?br\s*/?>", "\\\\n", text, flags=re.I)
    return re.sub(r"\s+", " ", text).strip()


def from_mermaid(db: dict[str, Any]) -> dict[str, list[tuple[Any, ...]]]:
    """Mermaid's db as the comparable shape."""
    names = {number: name for name, number in db["lineType"].items()}
    arrows, notes, groups = [], [], []
    for m in db["messages"]:
        kind = names.get(m["type"], str(m["type"]))
        if kind in ARROW_KINDS:
            style, source_head, target_head, part, reverse = ARROW_KINDS[kind]
            source, target = (m["to"], m["from"]) if reverse else (m["from"], m["to"])
            shape = (style, source_head, target_head, part)
            arrows.append((source, target, clean(m["message"]), shape))
        elif kind == "NOTE":
            actors = (m["from"],) if m["from"] == m["to"] else (m["from"], m["to"])
            notes.append((PLACEMENTS[m["placement"]], actors, clean(m["message"])))
        elif kind in GROUP_STARTS:
            groups.append((GROUP_STARTS[kind], clean(m["message"])))
        elif kind in BRANCHES:
            groups.append(("else", clean(m["message"])))
    boxes = [
        (
            clean(b["name"]),
            "" if b["fill"] in (None, "transparent") else b["fill"].lower(),
            tuple(b["actorKeys"]),
        )
        for b in db["boxes"]
    ]
    actors = sorted((a["name"], clean(a["description"]), a["type"]) for a in db["actors"])
    return {"arrows": arrows, "notes": notes, "groups": groups, "boxes": boxes, "actors": actors}


def from_ours(diagram: ParsedDiagram) -> dict[str, list[tuple[Any, ...]]]:
    """Our parse as the comparable shape (actors: declared ones plus every name used, as
    Mermaid creates an actor for each name it meets)."""
    arrows = [
        (
            a.source.name,
            a.target.name,
            a.message,
            (a.line_style, a.source_head, a.target_head, a.part),
        )
        for a in diagram.arrows
    ]
    notes = []
    for n in diagram.notes:
        over = n.participants
        actors = over if n.position == "over" else over[:1]
        notes.append((n.position, actors, n.text))
    groups = [(g.keyword, g.label) for g in diagram.groups]
    boxes: list[tuple[Any, ...]] = []
    current: list[str] | None = None
    box: Box | None = None
    declared: dict[str, tuple[str, str, str]] = {}
    for e in diagram.elements:
        if isinstance(e, Box):
            box, current = e, []
        elif isinstance(e, End) and e.closes == "box" and box is not None and current is not None:
            boxes.append((box.title, box.colour, tuple(current)))
            box, current = None, None
        elif isinstance(e, Participant):
            declared[e.code] = (e.code, e.display, e.type)
            if current is not None and e.code not in current:
                current.append(e.code)
    for a in diagram.arrows:
        for end in (a.source, a.target):
            declared.setdefault(end.name, (end.name, end.name, "participant"))
    for n in diagram.notes:
        for name in n.participants:
            declared.setdefault(name, (name, name, "participant"))
    return {
        "arrows": arrows,
        "notes": notes,
        "groups": groups,
        "boxes": boxes,
        "actors": sorted(declared.values()),
    }
