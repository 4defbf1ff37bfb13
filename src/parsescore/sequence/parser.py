"""PlantUML sequence-diagram parser: script text → :class:`ParsedDiagram` of typed elements.

One pass over the lines with the statement grammar of :mod:`parsescore.sequence.grammar`
(tried in a fixed order), a block reader for multi-line notes, titles, legends, ``ref``
blocks, ``skinparam { }`` and ``/' '/`` comments, a stack for ``group``/``box`` nesting and an
activation stack for ``return``. Then a second pass resolves every endpoint through the
participant declarations (``participant "Long Name" as L``: ``L`` and ``"Long Name"`` are the
same node). Unknown lines become :class:`Other` elements with a warning; only a script past a
preprocessor cap raises (an InputError naming the line).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from parsescore.core.errors import total_reader
from parsescore.sequence import grammar as g
from parsescore.sequence.model import (
    Arrow,
    Box,
    Comment,
    Diagnostic,
    Element,
    End,
    Endpoint,
    Group,
    LineStyle,
    NoMetric,
    Note,
    Other,
    ParsedDiagram,
    Participant,
    normalise_colour,
)
from parsescore.sequence.preprocess import preprocess, split_lines

__all__ = ["parse_plantuml", "split_lines"]

_ENDUML = re.compile(r"^@end\w*\s*$", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_RUNS = re.compile(r"(\s)\s+")
_QUOTES = '"\u201c\u201d'


def collapse(text: str) -> str:
    """Trim and collapse whitespace runs to one space: spacing never counts."""
    return _SPACES.sub(" ", text).strip()


def _unquote(name: str) -> tuple[str, bool]:
    name = name.strip()
    if len(name) >= 2 and name[0] in _QUOTES and name[-1] in _QUOTES:
        return collapse(name[1:-1]), True
    return name, False


@dataclass(slots=True)
class _RawEnd:
    """An endpoint before alias resolution."""

    name: str
    quoted: bool = False
    kind: str = "participant"
    short: bool = False


@dataclass(slots=True)
class _Activation:
    caller: _RawEnd | None
    callee: _RawEnd


class _Parser:
    def __init__(self, text: str, path: str, includes: Mapping[str, str] | None) -> None:
        self.line_count = len(split_lines(text))
        prepared = preprocess(text, path=path, includes=includes)
        self.lines = [line.text for line in prepared.lines]
        self.numbers = [line.number for line in prepared.lines]
        self.elements: list[Element] = []
        self.diagnostics: list[Diagnostic] = list(prepared.diagnostics)
        self.open_structures: list[tuple[str, int]] = []  # ("group"|"box", line)
        self.activations: list[_Activation] = []
        self.last_arrow: tuple[_RawEnd, _RawEnd] | None = None
        self.autoactivate = False
        self.arrow_ends: dict[int, tuple[_RawEnd, _RawEnd, tuple[_RawEnd, ...]]] = {}
        self.note_names: dict[int, tuple[_RawEnd, ...]] = {}
        self.saw_start = False
        self.inline_aliases: dict[str, str] = {}

    # -- helpers -------------------------------------------------------------------------
    def no(self, index: int) -> int:
        """The line number, in the file as written, of preprocessed line ``index``."""
        return self.numbers[index] if self.numbers else 0

    def warn(self, line: int, message: str) -> None:
        self.diagnostics.append(Diagnostic(line, message))

    def _block(self, start: int, end_re: re.Pattern[str], what: str) -> int | None:
        """Index of the line closing a block opened at ``start`` (None when never closed: the
        search stops at ``@enduml``, where PlantUML stops reading the diagram)."""
        for j in range(start + 1, len(self.lines)):
            line = self.lines[j].strip()
            if end_re.match(line):
                return j
            if _ENDUML.match(line):
                return None
        return None

    # -- main loop -----------------------------------------------------------------------
    def run(self) -> None:
        i = 0
        lines = self.lines
        while i < len(lines):
            raw = lines[i]
            s = raw.strip()
            number = self.no(i)
            if not s:
                i += 1
                continue
            if s.startswith("/'"):
                i = self._block_comment(i)
                continue
            if s.startswith("'"):
                self.elements.append(Comment(number, number, raw))
                i += 1
                continue
            i = self._statement(i, s, raw)
        for kind, line in reversed(self.open_structures):
            closer = "end" if kind == "group" else "end box"
            self.warn(line, f"{kind} opened here is never closed by '{closer}'")
        if self.line_count and not self.saw_start:
            self.warn(0, "no @startuml line: this may not be a PlantUML script")
        if self.line_count and not any(e.kind not in ("other", "comment") for e in self.elements):
            self.warn(0, "no PlantUML sequence-diagram statement recognised")

    def _block_comment(self, i: int) -> int:
        s = self.lines[i].strip()
        close = s.find("'/", 2)
        if close >= 0:
            self.elements.append(Comment(self.no(i), self.no(i), self.lines[i]))
            rest = s[close + 2 :].strip()
            if rest:
                return self._statement(i, rest, self.lines[i])
            return i + 1
        for j in range(i + 1, len(self.lines)):
            if "'/" in self.lines[j]:
                self.elements.append(
                    Comment(self.no(i), self.no(j), "\n".join(self.lines[i : j + 1]))
                )
                return j + 1
        self.warn(self.no(i), "block comment opened here is never closed by '/")
        self.elements.append(
            Comment(self.no(i), self.no(len(self.lines) - 1), "\n".join(self.lines[i:]))
        )
        return len(self.lines)

    def _statement(self, i: int, s: str, raw: str) -> int:
        number = self.no(i)
        shown = s
        # Whitespace runs as one character: what a statement means never depends on their
        # length (names, messages and notes are collapsed), and the grammar's lazy ``(.+?)\s*$``
        # patterns rescanned a long run from each of its positions (80,000 spaces: a minute).
        s = _RUNS.sub(r"\1", s)
        # Multi-line blocks without metric.
        for keyword, open_re, close_re in g.BLOCKS:
            if open_re.match(s):
                j = self._block(i, close_re, keyword)
                if j is None:
                    self.warn(number, f"{keyword} block opened here is never closed")
                    self.elements.append(NoMetric(number, number, raw, keyword))
                    return i + 1
                self.elements.append(
                    NoMetric(number, self.no(j), "\n".join(self.lines[i : j + 1]), keyword)
                )
                return j + 1
        brace = g.BRACE_BLOCK.match(s)
        if brace:
            keyword = brace["keyword"].lower()
            depth = 0
            for j in range(i, len(self.lines)):
                depth += self.lines[j].count("{") - self.lines[j].count("}")
                if depth <= 0:
                    self.elements.append(
                        NoMetric(number, self.no(j), "\n".join(self.lines[i : j + 1]), keyword)
                    )
                    return j + 1
            self.warn(number, f"{keyword} block opened here is never closed by '}}'")
            self.elements.append(NoMetric(number, number, raw, keyword))
            return i + 1
        # Arrows before keyword lines: a participant may be called ``title`` or ``show``.
        match = g.ARROW.match(s)
        if match and self._arrow(number, match, raw):
            return i + 1
        match = g.EXO_LEFT.match(s)
        if match:
            self._exo(number, match, raw, left=True)
            return i + 1
        match = g.EXO_RIGHT.match(s)
        if match:
            self._exo(number, match, raw, left=False)
            return i + 1
        no_metric = g.NO_METRIC_ANY.match(s)
        if no_metric:
            keyword = g.NO_METRIC_KEYWORDS[no_metric.lastgroup or ""]
            if keyword == "startuml":
                self.saw_start = True
            if keyword == "autoactivate":
                self.autoactivate = s.lower().endswith("on")
            self.elements.append(NoMetric(number, number, raw, keyword))
            return i + 1
        if g.END_BOX.match(s):
            self._close("box", number, raw)
            return i + 1
        if g.END_NOTE.match(s):
            self.warn(number, "'end note' without an open note")
            self.elements.append(End(number, number, raw, "note"))
            return i + 1
        match = g.NOTE.match(s)
        if match:
            return self._note(i, match, raw)
        match = g.PARTICIPANT.match(s) or g.CREATE_ONLY.match(s)
        if match:
            end = self._participant(i, match, raw, create_only="type" not in match.groupdict())
            if end is not None:
                return end
        match = g.BOX.match(s)
        if match:
            self._box(number, match, raw)
            return i + 1
        if g.ACTIVATE.match(s) or g.DEACTIVATE_SHORT.match(s):
            self._activation(number, s, raw)
            return i + 1
        match = g.RETURN.match(s)
        if match:
            self._return(number, match, raw)
            return i + 1
        match = g.GROUP.match(s)
        if match:
            self._group(number, match, raw)
            return i + 1
        match = g.END.match(s)
        if match:
            what = (match["what"] or "").lower()
            if what in ("title", "legend", "header", "footer", "ref"):
                self.warn(number, f"'{s}' without an open {what} block")
                self.elements.append(End(number, number, raw, what))
            else:
                self._close("group", number, raw)
            return i + 1
        self.warn(number, f"not a PlantUML sequence-diagram line, ignored: {shown[:80]!r}")
        self.elements.append(Other(number, number, raw))
        return i + 1

    # -- statements ----------------------------------------------------------------------
    def _close(self, kind: str, number: int, raw: str) -> None:
        for index in range(len(self.open_structures) - 1, -1, -1):
            if self.open_structures[index][0] == kind:
                for inner, line in self.open_structures[index + 1 :]:
                    self.warn(line, f"{inner} opened here is closed implicitly at line {number}")
                del self.open_structures[index:]
                break
        else:
            self.warn(number, f"'{raw.strip()}' closes no open {kind}")
        self.elements.append(End(number, number, raw, kind))

    def _note(self, i: int, match: re.Match[str], raw: str) -> int:
        number = self.no(i)
        shape = match["shape"].lower()
        position = "across" if match["across"] else match["position"].lower()
        names: tuple[_RawEnd, ...] = ()
        if match["participants"]:
            names = tuple(
                _RawEnd(*_unquote(part))
                for part in re.findall(rf"{g.QUOTED}|{g.CODE}", match["participants"])
            )
        colour = normalise_colour(match["color"] or "")
        if match["text"] is not None:
            text = collapse(match["text"])
            note = Note(number, number, raw, shape, position, (), text, colour=colour)
            self.note_names[len(self.elements)] = names
            self.elements.append(note)
            return i + 1
        j = self._block(i, g.END_NOTE, "note")
        if j is None:
            self.warn(number, f"{shape} opened here is never closed by 'end {shape}'")
            self.note_names[len(self.elements)] = names
            self.elements.append(Note(number, number, raw, shape, position, (), "", colour=colour))
            return i + 1
        body = [collapse(line) for line in self.lines[i + 1 : j]]
        while body and not body[0]:
            body.pop(0)
        while body and not body[-1]:
            body.pop()
        note = Note(
            number,
            self.no(j),
            "\n".join(self.lines[i : j + 1]),
            shape,
            position,
            (),
            "\\n".join(body),
            multiline=True,
            colour=colour,
        )
        self.note_names[len(self.elements)] = names
        self.elements.append(note)
        return j + 1

    def _participant(
        self, i: int, match: re.Match[str], raw: str, *, create_only: bool = False
    ) -> int | None:
        """Parse a declaration; None when the rest of the line is not one (try other forms)."""
        number = self.no(i)
        rest = g.PARTICIPANT_REST.match(match["rest"])
        if rest is None:
            return None
        if rest["code1"]:
            code, display = rest["code1"], collapse(rest["full"])
        elif rest["code2"]:
            code, display = rest["code2"], collapse(rest["full2"])
        elif rest["code3"]:
            code, display = rest["alias3"], rest["code3"]
        elif rest["full4"]:
            code = display = collapse(rest["full4"])
        else:
            code = display = rest["code5"]
        end_line = number
        following = i + 1
        text = raw
        if rest["multiline"]:
            j = self._block(i, re.compile(r"^\]\s*$"), "participant")
            if j is None:
                self.warn(number, "multi-line participant opened here is never closed by ']'")
            else:
                body = [collapse(line) for line in self.lines[i + 1 : j] if line.strip()]
                display = "\\n".join(body) or display
                end_line = self.no(j)
                following = j + 1
                text = "\n".join(self.lines[i : j + 1])
        kind = "participant" if create_only else match["type"].lower()
        self.elements.append(
            Participant(
                number,
                end_line,
                text,
                kind,
                code,
                display,
                collapse(rest["stereo"] or ""),
                created=create_only or bool(match.groupdict().get("create")),
                colour=normalise_colour(rest["color"] or ""),
            )
        )
        return following

    def _box(self, number: int, match: re.Match[str], raw: str) -> None:
        rest = (match["rest"] or "").strip()
        parsed = g.BOX_REST.match(rest)
        colour = ""
        if parsed is None:
            title = collapse(rest)
        else:
            title = collapse(parsed["quoted"] if parsed["quoted"] is not None else parsed["plain"])
            colour = normalise_colour(parsed["color"] or "")
        self.open_structures.append(("box", number))
        self.elements.append(Box(number, number, raw, title, colour))

    def _group(self, number: int, match: re.Match[str], raw: str) -> None:
        keyword = match["keyword"].lower()
        label = collapse(match["label"] or "")
        if keyword in ("else", "also"):
            if not any(kind == "group" for kind, _ in self.open_structures):
                self.warn(number, f"'{keyword}' outside any group")
        else:
            self.open_structures.append(("group", number))
        if keyword in g.COUNTED_GROUP_KEYWORDS:
            colours = [normalise_colour(c) for c in (match["color1"], match["color2"]) if c]
            self.elements.append(Group(number, number, raw, keyword, label, "#".join(colours)))
        else:
            # ``par2`` / ``also`` / ``partition``: real PlantUML grouping, but not one of the
            # spec's group keywords, so structure only (like ``end``).
            self.elements.append(NoMetric(number, number, raw, keyword))

    def _activation(self, number: int, s: str, raw: str) -> None:
        match = g.ACTIVATE.match(s)
        verb = match["verb"].lower() if match else "deactivate"
        if match:
            name = _RawEnd(*_unquote(match["name"]))
            if verb == "activate":
                caller = None
                if self.last_arrow and self.last_arrow[1].name == name.name:
                    caller = self.last_arrow[0]
                self.activations.append(_Activation(caller, name))
            else:
                self._deactivate(name.name)
        elif self.activations:
            self.activations.pop()
        self.elements.append(NoMetric(number, number, raw, verb))

    def _deactivate(self, name: str) -> None:
        for index in range(len(self.activations) - 1, -1, -1):
            if self.activations[index].callee.name == name:
                del self.activations[index]
                return

    def _return(self, number: int, match: re.Match[str], raw: str) -> None:
        if self.activations:
            top = self.activations.pop()
            source = top.callee
            target = top.caller or _RawEnd("?", kind="unknown")
        else:
            self.warn(number, "'return' with no active participant to return from")
            source = _RawEnd("?", kind="unknown")
            target = _RawEnd("?", kind="unknown")
        self.arrow_ends[len(self.elements)] = (source, target, ())
        self.elements.append(
            Arrow(
                number,
                number,
                raw,
                Endpoint("?"),
                Endpoint("?"),
                "dotted",
                "",
                "normal",
                message=_message(match["message"]),
                is_return=True,
            )
        )

    @staticmethod
    def _part(match: re.Match[str], prefix: str) -> tuple[_RawEnd, tuple[str, str] | None]:
        """An arrow end and, for an inline ``"Long" as L`` / ``L as "Long"``, its alias."""
        if match[f"{prefix}code"] is not None:
            return _RawEnd(match[f"{prefix}code"]), None
        if match[f"{prefix}long"] is not None:
            return _RawEnd(collapse(match[f"{prefix}long"]), quoted=True), None
        if match[f"{prefix}longcode"] is not None:
            code = match[f"{prefix}longcode"]
            return _RawEnd(code), (code, collapse(match[f"{prefix}longc"]))
        code = match[f"{prefix}codel"]
        return _RawEnd(code), (code, collapse(match[f"{prefix}codellong"]))

    def _arrow(self, number: int, match: re.Match[str], raw: str) -> bool:
        d1 = (match["d1"] or "").replace("_", "").lower()
        d2 = (match["d2"] or "").replace("_", "").lower()
        has1 = any(c in d1 for c in "<\\/")
        has2 = any(c in d2 for c in ">\\/")
        x1, x2 = "x" in d1, "x" in d2
        if has2 or (x1 and x2):
            reverse = False
        elif has1:
            reverse = True
        elif x1 or x2:
            reverse = False
        else:
            return False  # PlantUML: "Illegal sequence arrow"
        p1, alias1 = self._part(match, "p1")
        p2, alias2 = self._part(match, "p2")
        for alias in (alias1, alias2):
            if alias is not None:
                self.inline_aliases.setdefault(alias[0], alias[1])
        body = (match["ba1"] or match["ba2"] or "") + (match["bb1"] or match["bb2"] or "")
        style_text = (match["st1"] or match["st2"] or "").lower()
        line_style = _line_style(len(body) > 1, style_text)
        if line_style == "hidden":  # PlantUML draws (and numbers) nothing: no element
            self.elements.append(NoMetric(number, number, raw, "hidden arrow"))
            return True
        if reverse:
            source, target = p2, p1
            source_dress, target_dress = d2, d1
        else:
            source, target = p1, p2
            source_dress, target_dress = d1, d2
        both = has1 and has2

        def head(dress: str, is_target: bool) -> str:
            if "x" in dress:
                return "cross"
            marks = ("<<", "\\\\", "//", ">>")
            pointy = any(c in dress for c in "<>\\/")
            if not pointy or (not is_target and not both):
                return ""
            return "async" if any(m in dress for m in marks) else "normal"

        part = "full"
        if "\\" in d2 or "/" in d1:
            part = "top"
        if "/" in d2 or "\\" in d1:
            part = "bottom"
        multicast = tuple(_RawEnd(name) for name in re.findall(g.CODE, match["multicast"] or ""))
        activation = match["activation"] or ""
        self._track_activation(source, target, activation, line_style)
        self.arrow_ends[len(self.elements)] = (source, target, multicast)
        self.elements.append(
            Arrow(
                number,
                number,
                raw,
                Endpoint("?"),
                Endpoint("?"),
                line_style,
                head(source_dress, False),
                head(target_dress, True),
                part=part,
                source_circle="o" in source_dress,
                target_circle="o" in target_dress,
                message=_message(match["message"]),
                activation=activation,
                colour=_style_colour(style_text),
            )
        )
        return True

    def _track_activation(
        self, source: _RawEnd, target: _RawEnd, activation: str, line_style: LineStyle
    ) -> None:
        self.last_arrow = (source, target)
        if activation.startswith(("++", "**")) or (
            self.autoactivate and not activation and line_style == "solid"
        ):
            self.activations.append(_Activation(source, target))
        if activation.startswith("--") or activation.endswith("--"):
            self._deactivate(source.name)
        if activation == "--++":
            self.activations.append(_Activation(source, target))
        if self.autoactivate and not activation and line_style == "dotted":
            self._deactivate(source.name)

    def _exo(self, number: int, match: re.Match[str], raw: str, *, left: bool) -> None:
        short = (match["short"] or "").lower()
        d1, d2 = match["d1"], match["d2"]
        dressing = d1 if d1 is not None else d2
        if left:
            if "]" in short:
                exo_type = "from_right" if d1 is not None else "to_right"
            else:
                exo_type = "from_left" if d1 is not None else "to_left"
        elif "[" in short:
            exo_type = "to_left" if d1 is not None else "from_left"
        else:
            exo_type = "to_right" if d1 is not None else "from_right"
        side = "[" if exo_type.endswith("left") else "]"
        border = _RawEnd(side, kind="boundary", short="?" in short)
        participant = _RawEnd(*_unquote(match["participant"]))
        if exo_type.startswith("from"):
            source, target = border, participant
        else:
            source, target = participant, border
        body = "".join(match[name] or "" for name in ("ba1", "bb1", "bb2", "ba2", "ba2b"))
        style_text = (match["st1"] or match["st2"] or "").lower()
        line_style = _line_style("--" in body, style_text)
        if line_style == "hidden":  # PlantUML draws (and numbers) nothing: no element
            self.elements.append(NoMetric(number, number, raw, "hidden arrow"))
            return
        sync = len(dressing) == 2
        moves_right = exo_type in ("from_left", "to_right")
        part = "full"
        if "/" in dressing:
            part = "bottom" if moves_right else "top"
        elif "\\" in dressing:
            part = "top" if moves_right else "bottom"
        supp = (match["supp"] or "").lower()
        crossed = "x" in short or "x" in supp
        head = "cross" if crossed else ("async" if sync else "normal")
        both = match["both"] is not None
        border_circle = "o" in short
        participant_circle = "o" in supp
        source_circle = border_circle if source is border else participant_circle
        target_circle = participant_circle if source is border else border_circle
        activation = match["activation"] or ""
        self.arrow_ends[len(self.elements)] = (source, target, ())
        self.elements.append(
            Arrow(
                number,
                number,
                raw,
                Endpoint("?"),
                Endpoint("?"),
                line_style,
                ("async" if len(match["both"] or "") == 2 else "normal") if both else "",
                head,
                part=part,
                source_circle=source_circle,
                target_circle=target_circle,
                message=_message(match["message"]),
                exo=True,
                activation=activation,
                colour=_style_colour(style_text),
            )
        )

    # -- resolution ----------------------------------------------------------------------
    def resolve(self) -> None:
        codes: set[str] = set()
        display_to_code: dict[str, str] = {}
        for element in self.elements:
            if isinstance(element, Participant):
                codes.add(element.code)
                display_to_code.setdefault(element.display, element.code)
        for code, display in self.inline_aliases.items():
            codes.add(code)
            display_to_code.setdefault(display, code)

        def resolve(end: _RawEnd) -> Endpoint:
            if end.kind != "participant":
                return Endpoint(end.name, end.kind, end.short)  # type: ignore[arg-type]
            if end.name in codes or not end.quoted:
                return Endpoint(end.name)
            return Endpoint(display_to_code.get(end.name, end.name))

        for index, (source, target, multicast) in self.arrow_ends.items():
            arrow = self.elements[index]
            assert isinstance(arrow, Arrow)
            self.elements[index] = replace(
                arrow,
                source=resolve(source),
                target=resolve(target),
                multicast=tuple(resolve(end) for end in multicast),
            )
        for index, names in self.note_names.items():
            note = self.elements[index]
            assert isinstance(note, Note)
            self.elements[index] = replace(
                note, participants=tuple(resolve(end).name for end in names)
            )


_INVISIBLE = re.compile(r"\\n|<[^>]*>|\*\*|//|\"\"|__|\s")


def _message(text: str | None) -> str:
    """A message as compared: whitespace collapsed; "" when nothing of it is drawn (``\\n``,
    ``<i> </i>``: PlantUML draws no text, so it is no message)."""
    message = collapse(text or "")
    return message if _INVISIBLE.sub("", message) else ""


def _style_colour(style_text: str) -> str:
    """The colour of an arrow's ``[#red,dashed]`` style ("" when it has none)."""
    return "#".join(
        normalise_colour(part) for part in style_text.split(",") if part.strip().startswith("#")
    )


def _line_style(dotted: bool, style_text: str) -> LineStyle:
    styles = {part.strip() for part in style_text.split(",")}
    if "hidden" in styles:
        return "hidden"
    if dotted or "dashed" in styles or "dotted" in styles:
        return "dotted"
    return "solid"


@total_reader("PlantUML script")
def parse_plantuml(
    text: str, *, path: str = "", includes: Mapping[str, str] | None = None
) -> ParsedDiagram:
    """Parse a PlantUML sequence-diagram script.

    Unknown lines become :class:`Other` elements and warnings; unterminated notes, groups and
    boxes get a warning naming the line that opened them. Only a script past one of the
    preprocessor's caps (:mod:`parsescore.sequence.preprocess`) is an
    :class:`~parsescore.core.errors.InputError` naming its line.

    >>> diagram = parse_plantuml('@startuml\\nparticipant "Long Name" as L\\nL <- B : hi\\n@enduml')
    >>> [e.canonical for e in diagram.metric_elements]
    ['participant "Long Name" as L', 'B -> L : hi']
    """
    parser = _Parser(text, path, includes)
    parser.run()
    parser.resolve()
    return ParsedDiagram(tuple(parser.elements), tuple(parser.diagnostics), parser.line_count, path)
