"""Mermaid ``sequenceDiagram`` reader: text → the same :class:`ParsedDiagram` as PlantUML.

Each statement is parsed with a lark grammar (:data:`GRAMMAR`, written from the syntax of
mermaid.js.org/syntax/sequenceDiagram and the lexer rules of Mermaid's
``sequenceDiagram.jison``); block nesting is tracked on a stack so that a block never ended is
a warning with its line, not a failure. Elements are the PlantUML ones, in the mapping of
``docs/sequence.md`` ("Mermaid"), so canonical forms are dialect-free: ``A->>B: hi`` and
PlantUML's ``A -> B : hi`` are the same element.

As in Mermaid: ``%%`` and ``#`` start comments, ``;`` separates statements, ``#quot;`` /
``#9829;`` are entity codes, keywords are case-insensitive. A file whose first statement is not
``sequenceDiagram`` is an :class:`~parsescore.core.errors.InputError` naming the line.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from parsescore.core.errors import InputError, total_reader
from parsescore.core.files import env_limit
from parsescore.sequence.model import (
    Arrow,
    Box,
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
from parsescore.sequence.preprocess import split_lines

if TYPE_CHECKING:
    from lark import Lark, Token, Tree

__all__ = ["GRAMMAR", "MERMAID_DIAGRAM_TYPES", "parse_mermaid"]

_NOMETRIC = (
    "autonumber|activate|deactivate|destroy|links|link|properties|details|title|acctitle|accdescr"
)
#: Mermaid's arrows, longest first (the lexer takes the first alternative that matches): the
#: two-headed ones, the half arrows (``-|\`` ``-\\`` ``/|-`` ...; dotted with ``--``), the rest.
_ARROW = "|".join(
    (
        r"<<-->>",
        r"<<->>",
        r"--\|[\\/]",
        r"--\\\\",
        r"--//",
        r"[/\\]\|--",
        r"//--",
        r"\\\\--",
        r"-\|[\\/]",
        r"-\\\\",
        r"-//",
        r"[/\\]\|-",
        r"//-",
        r"\\\\-",
        r"-->>",
        r"->>",
        r"-->",
        r"->",
        r"--[xX]",
        r"-[xX]",
        r"--\)",
        r"-\)",
    )
)
#: A character of a name: not an arrow character, not the start of a reversed half arrow.
_NAME_CHAR = r"(?:(?![/\\]\|?-|//-|\\\\-|\(\))[^+\-<>:,;\n])"
#: A name: runs of name characters joined by dashes that do not start an arrow
#: (``my-service`` is a name; ``a-xB`` is ``a``, a cross arrow and ``B``).
_NAME = rf"{_NAME_CHAR}+(?:(?!-{{1,2}}(?:[xX)>|]|\\\\|//))-+{_NAME_CHAR}+)*"
#: A declared name stops before `` as ``, ``@{`` or the end of the statement: its characters
#: taken greedily, a run of spaces only when what follows it does not end the name (a lazy
#: ``*?`` with that test as a lookahead rescanned a run of spaces from each of its positions).
_PNAME_END = r"[ \t]+as[ \t]|[ \t]*@\{|[ \t]*(?:\n|\Z)"
_PNAME = (
    r"[^<>:,;@\s](?:[^<>:,;@\s]|[^\S \t\n]|[ \t]++(?!as[ \t]|@\{|\n|\Z))*+"
    rf"(?={_PNAME_END})"
)


def _slashed(pattern: str) -> str:
    """A regex as a lark ``/.../`` literal (its own ``/`` escaped)."""
    return pattern.replace("/", r"\/")


#: The statement grammar. Keywords outrank names (priority 3), so ``loop`` opens a block while
#: ``loopback->>B`` is a message; names stop at the characters Mermaid's lexer stops at.
GRAMMAR = rf"""
start: statement
document: statement (_NL statement)*
?statement: participant | create | box | block | branch | end | note | nometric | signal

participant: PTYPE PNAME CONFIG? (AS REST?)?
create: CREATE PTYPE PNAME CONFIG? (AS REST?)?
box: BOX REST?
block: BLOCK REST?
branch: BRANCH REST?
end: END
note: NOTE SIDE NAME TEXT?
    | NOTE OVER NAME ("," NAME)? TEXT?
nometric: NOMETRIC REST?
signal: NAME CENTRAL? ARROW (ACTIVATION | CENTRAL)? NAME TEXT?

PTYPE.3: /(participant|actor)(?![\w-])/i
CREATE.3: /create(?![\w-])/i
BOX.3: /box(?![\w-])/i
BLOCK.3: /(loop|alt|opt|par_over|par|critical|break|rect)(?![\w-])/i
BRANCH.3: /(else|and|option)(?![\w-])/i
END.3: /end(?![\w-])/i
NOTE.3: /note(?![\w-])/i
SIDE.3: /(left|right)[ \t]+of(?![\w-])/i
OVER.3: /over(?![\w-])/i
NOMETRIC.3: /({_NOMETRIC})(?![\w-])/i
AS.3: /as(?![\w-])/i
PNAME: /{_PNAME}/i
CONFIG: /@\{{[^}}]*\}}/
REST: /.+/
TEXT: /:.*/
ARROW: /{_slashed(_ARROW)}/
_NL: /\n/
ACTIVATION: /[+-]/
CENTRAL: "()"
NAME: /{_slashed(_NAME)}/

%ignore /[ \t\f\r]+/
"""


#: First words of the other Mermaid diagram types (a file starting with one is not ours).
MERMAID_DIAGRAM_TYPES = (
    "flowchart",
    "graph",
    "classDiagram",
    "stateDiagram",
    "stateDiagram-v2",
    "erDiagram",
    "journey",
    "gantt",
    "pie",
    "quadrantChart",
    "requirementDiagram",
    "gitGraph",
    "C4Context",
    "C4Container",
    "C4Component",
    "C4Dynamic",
    "C4Deployment",
    "mindmap",
    "timeline",
    "zenuml",
    "sankey-beta",
    "xychart-beta",
    "block-beta",
    "packet-beta",
    "kanban",
    "architecture-beta",
    "radar-beta",
    "treemap-beta",
)

#: Mermaid arrow → (line style, source head, target head, half-head part, reversed): the
#: PlantUML arrow it is (``->>`` is PlantUML's ``->``, ``-)`` its async ``->>``, ...).
_ARROWS: dict[str, tuple[LineStyle, str, str, str, bool]] = {
    "->>": ("solid", "", "normal", "full", False),
    "-->>": ("dotted", "", "normal", "full", False),
    "->": ("solid", "", "", "full", False),
    "-->": ("dotted", "", "", "full", False),
    "-x": ("solid", "", "cross", "full", False),
    "--x": ("dotted", "", "cross", "full", False),
    "-)": ("solid", "", "async", "full", False),
    "--)": ("dotted", "", "async", "full", False),
    "<<->>": ("solid", "normal", "normal", "full", False),
    "<<-->>": ("dotted", "normal", "normal", "full", False),
    "-|\\": ("solid", "", "normal", "top", False),
    "-|/": ("solid", "", "normal", "bottom", False),
    "-\\\\": ("solid", "", "async", "top", False),
    "-//": ("solid", "", "async", "bottom", False),
    "/|-": ("solid", "", "normal", "top", True),
    "\\|-": ("solid", "", "normal", "bottom", True),
    "//-": ("solid", "", "async", "top", True),
    "\\\\-": ("solid", "", "async", "bottom", True),
}
for _token, (_style, _source, _target, _part, _reverse) in list(_ARROWS.items()):
    if _token.startswith("-|") or _token in ("-\\\\", "-//"):
        _ARROWS["-" + _token] = ("dotted", _source, _target, _part, _reverse)
    elif _token.endswith("|-") or _token in ("//-", "\\\\-"):
        _ARROWS[_token + "-"] = ("dotted", _source, _target, _part, _reverse)

#: Mermaid's block keywords → the PlantUML group keyword they are ("" : no metric).
_BLOCKS = {
    "loop": "loop",
    "alt": "alt",
    "opt": "opt",
    "par": "par",
    "par_over": "par",
    "critical": "critical",
    "break": "break",
    "rect": "",
}
#: Branch keywords and the block each belongs in; all count as PlantUML's ``else``.
_BRANCHES = {"else": ("alt",), "and": ("par", "par_over"), "option": ("critical",)}

_ENTITY = re.compile(r"#(\w+);")
_PLACEHOLDER = re.compile("\ue000(\\w+)\ue001")
#: Mermaid's own ``lineBreakRegex`` (``common.ts``): ``</br>`` is a line break like ``<br>``.
_BR = re.compile(r"</?br\s*/?>", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_WRAP = re.compile(r"^:?(?:no)?wrap:", re.IGNORECASE)
_FRONT_MATTER = re.compile(r"^-{3}\s*$")
_HEADER = re.compile(r"^\s*(?P<word>[\w-]+)")
_CONFIG_TYPE = re.compile(r"""["']?type["']?\s*:\s*["']?(\w+)""")
_CONFIG_ALIAS = re.compile(r"""["']?alias["']?\s*:\s*(?:"([^"]*)"|'([^']*)'|([^,}\n]+))""")
_BOX_COLOUR = re.compile(r"^\s*((?:rgba?|hsla?)\s*\(.*?\)|\w*)(.*)$", re.DOTALL)
_PARTICIPANT_TYPES = frozenset(
    ("participant", "actor", "boundary", "control", "entity", "database", "collections", "queue")
)
#: CSS named colours (CSS Color Module 4): a box's first word is its colour only when it is one.
_CSS_NAMES = """aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue
    blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk
    crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki
    darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen
    darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue
    dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite
    gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki
    lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan
    lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen
    lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen
    magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen
    mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream
    mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
    palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum
    powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown
    seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen
    steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow
    yellowgreen transparent currentcolor"""
_CSS_COLOURS = frozenset(_CSS_NAMES.split())
#: Longest statement read (a bound on time: longer ones are reported and skipped;
#: ``PARSESCORE_MAX_STATEMENT_CHARS``).
MAX_STATEMENT = 10_000


def max_statement() -> int:
    """The longest statement read, in characters."""
    return env_limit("PARSESCORE_MAX_STATEMENT_CHARS", MAX_STATEMENT)


@cache
def _parser(start: str = "start") -> Lark:
    """The LALR parser of one statement (``start``), a whole document of statements, one a
    line (``document``: one call for the common case of a file without errors), or a message
    alone (``signal``)."""
    from lark import Lark

    return Lark(GRAMMAR, parser="lalr", lexer="contextual", start=start, maybe_placeholders=False)


def _decode(text: str) -> str:
    """Mermaid's entity codes (``#quot;``, ``#9829;``) and HTML entities, decoded."""

    def entity(match: re.Match[str]) -> str:
        name = match[1]
        if name.isdigit():
            code = int(name)
            return chr(code) if 0 < code < 0x110000 else match[0]
        decoded = html.unescape(f"&{name};")
        return decoded if decoded != f"&{name};" else f"#{name};"

    if "\ue000" in text:
        text = _PLACEHOLDER.sub(entity, text)
    return html.unescape(text) if "&" in text else text


def _clean(text: str) -> str:
    """Message / note / label text as compared: decoded, ``<br>`` (and ``</br>``, as Mermaid
    reads it) = ``\\n``, spaces collapsed."""
    text = _decode(_WRAP.sub("", text.strip()) if "wrap:" in text.lower() else text)
    if "<" in text:
        text = _BR.sub("\\\\n", text)
    return _SPACES.sub(" ", text).strip()


def _without_directives(text: str) -> str:
    """``text`` with each ``%%{ … }%%`` directive replaced by its line breaks (so lines keep
    their numbers). By hand: a lazy regex looked for the end of a directive from every
    ``%%{`` (thousands of unclosed ones took seconds); once one has no end, none after has."""
    pieces: list[str] = []
    done = 0
    while True:
        start = text.find("%%{", done)
        if start < 0:
            break
        end = text.find("}%%", start + 3)
        if end < 0:
            break
        pieces.append(text[done:start])
        pieces.append("\n" * text.count("\n", start, end))
        done = end + 3
    pieces.append(text[done:])
    return "".join(pieces)


@dataclass(slots=True)
class _Statement:
    line: int
    column: int
    text: str
    raw: str


def _statements(text: str) -> tuple[list[_Statement], int]:
    """Statements with their line and column, comments and front matter dropped; and the
    line count. Entity codes are protected first, as Mermaid does, so their ``#`` and ``;``
    are neither a comment nor a separator."""
    text = _without_directives(text)
    lines = split_lines(text)
    statements: list[_Statement] = []
    index = 0
    if lines and _FRONT_MATTER.match(lines[0]):
        for close in range(1, len(lines)):
            if _FRONT_MATTER.match(lines[close]):
                index = close + 1
                break
    in_description = False
    for number in range(index, len(lines)):
        raw = lines[number]
        if in_description:
            in_description = "}" not in raw
            continue
        line = _ENTITY.sub(lambda m: f"\ue000{m[1]}\ue001", raw)
        for marker in ("%%", "#"):
            cut = line.find(marker)
            if cut >= 0:
                line = line[:cut]
        if re.match(r"^\s*accDescr\s*\{", line, re.IGNORECASE):
            in_description = "}" not in line
            statements.append(_Statement(number + 1, 1, "accDescr", raw))
            continue
        column = 0
        for part in line.split(";"):
            if part.strip():
                offset = len(part) - len(part.lstrip())
                statements.append(_Statement(number + 1, column + offset + 1, part.strip(), raw))
            column += len(part) + 1
    return statements, len(split_lines(text))


class _Reader:
    def __init__(self, path: str) -> None:
        self.path = path
        self.elements: list[Element] = []
        self.diagnostics: list[Diagnostic] = []
        self.open: list[tuple[str, int]] = []  # (Mermaid block keyword, line)

    def warn(self, line: int, message: str) -> None:
        self.diagnostics.append(Diagnostic(line, message))

    def statement(self, st: _Statement) -> None:
        from lark.exceptions import LarkError, UnexpectedInput

        limit = max_statement()
        if len(st.text) > limit:
            self.warn(
                st.line,
                f"statement longer than {limit} characters (PARSESCORE_MAX_STATEMENT_CHARS): "
                "ignored",
            )
            self.elements.append(Other(st.line, st.line, st.raw))
            return
        try:
            tree = _parser().parse(st.text)
        except UnexpectedInput as exc:
            signal = self._as_signal(st.text)
            if signal is None:
                column = st.column + max(getattr(exc, "column", 1), 1) - 1
                self.warn(
                    st.line,
                    f"column {column}: not a Mermaid sequenceDiagram statement, ignored: "
                    f"{st.text[:80]!r}",
                )
                self.elements.append(Other(st.line, st.line, st.raw))
                return
            tree = signal
        except LarkError as exc:  # any other grammar failure: reported, never raised
            self.warn(st.line, f"cannot read {st.text[:80]!r}: {exc}")
            self.elements.append(Other(st.line, st.line, st.raw))
            return
        node = tree.children[0]
        assert not isinstance(node, str)
        self.handle(st, node)

    def handle(self, st: _Statement, node: Tree[Token]) -> None:
        """Turn one parsed statement into its element."""
        getattr(self, f"_{node.data}")(st, [str(t) for t in node.children])

    def document(self, statements: list[_Statement]) -> bool:
        """Read all statements with one parse; False (nothing done) when some statement does
        not parse, so that each is then read alone and the bad ones reported."""
        from lark import Tree
        from lark.exceptions import LarkError

        limit = max_statement()
        if not statements or any(len(st.text) > limit for st in statements):
            return False
        try:
            tree = _parser("document").parse("\n".join(st.text for st in statements))
        except LarkError:
            return False
        nodes = [node for node in tree.children if isinstance(node, Tree)]
        if len(nodes) != len(statements):
            return False
        for st, node in zip(statements, nodes, strict=True):
            self.handle(st, node)
        return True

    @staticmethod
    def _as_signal(text: str) -> Tree[Token] | None:
        """``End User->>B: x`` starts with a keyword but is a message: try it as one."""
        from lark import Tree
        from lark.exceptions import LarkError

        try:
            return Tree("start", [_parser("signal").parse(text)])
        except LarkError:
            return None

    # -- statements ----------------------------------------------------------------------
    def _participant(self, st: _Statement, parts: list[str], created: bool = False) -> None:
        kind, name = parts[0].lower(), parts[1].strip()
        display = name
        rest = parts[2:]
        if rest and rest[0].startswith("@{"):
            config = rest.pop(0)
            found = _CONFIG_TYPE.search(config)
            if found and found[1].lower() in _PARTICIPANT_TYPES:
                kind = found[1].lower()
            alias = _CONFIG_ALIAS.search(config)
            if alias:
                display = _clean(next(g for g in alias.groups() if g is not None))
        if rest and rest[0].lower() == "as":
            described = _clean(rest[1]) if len(rest) > 1 else ""
            display = described or display
        self.elements.append(
            Participant(st.line, st.line, st.raw, kind, name, display, created=created)
        )

    def _create(self, st: _Statement, parts: list[str]) -> None:
        self._participant(st, parts[1:], created=True)

    def _box(self, st: _Statement, parts: list[str]) -> None:
        data = parts[1] if len(parts) > 1 else ""
        match = _BOX_COLOUR.match(data)
        colour, title = "", data.strip()
        if match and match[1]:
            word = match[1].strip()
            if word.lower() in _CSS_COLOURS or re.match(r"^(?:rgba?|hsla?)\s*\(", word, re.I):
                colour, title = word, match[2].strip()
        self.open.append(("box", st.line))
        self.elements.append(Box(st.line, st.line, st.raw, _clean(title), normalise_colour(colour)))

    def _block(self, st: _Statement, parts: list[str]) -> None:
        keyword = parts[0].lower()
        self.open.append((keyword, st.line))
        group = _BLOCKS[keyword]
        label = _clean(parts[1]) if len(parts) > 1 else ""
        if group:
            self.elements.append(Group(st.line, st.line, st.raw, group, label))
        else:
            self.elements.append(NoMetric(st.line, st.line, st.raw, keyword))

    def _branch(self, st: _Statement, parts: list[str]) -> None:
        keyword = parts[0].lower()
        if not self.open or self.open[-1][0] not in _BRANCHES[keyword]:
            inside = " or ".join(_BRANCHES[keyword])
            self.warn(st.line, f"'{keyword}' outside {inside}")
        label = _clean(parts[1]) if len(parts) > 1 else ""
        self.elements.append(Group(st.line, st.line, st.raw, "else", label))

    def _end(self, st: _Statement, parts: list[str]) -> None:
        if not self.open:
            self.warn(st.line, "'end' closes no open block")
            closes = "group"
        else:
            closes = "box" if self.open.pop()[0] == "box" else "group"
        self.elements.append(End(st.line, st.line, st.raw, closes))

    def _note(self, st: _Statement, parts: list[str]) -> None:
        position = parts[1].split()[0].lower()
        names = tuple(p.strip() for p in parts[2:] if not p.startswith(":"))
        text = next((p[1:] for p in parts[2:] if p.startswith(":")), "")
        self.elements.append(Note(st.line, st.line, st.raw, "note", position, names, _clean(text)))

    def _nometric(self, st: _Statement, parts: list[str]) -> None:
        self.elements.append(NoMetric(st.line, st.line, st.raw, parts[0].lower()))

    def _signal(self, st: _Statement, parts: list[str]) -> None:
        parts = [p for p in parts if p != "()"]  # a central connection: drawing only
        source, arrow = parts[0].strip(), parts[1]
        rest = parts[2:]
        activation = rest.pop(0) if rest and rest[0] in "+-" else ""
        target = rest[0].strip()
        message = _clean(rest[1][1:]) if len(rest) > 1 else ""
        style, source_head, target_head, part, reverse = _ARROWS[arrow.lower()]
        if reverse:
            source, target = target, source
        self.elements.append(
            Arrow(
                st.line,
                st.line,
                st.raw,
                Endpoint(_decode(source)),
                Endpoint(_decode(target)),
                style,
                source_head,
                target_head,
                part=part,
                message=message,
                activation=activation,
            )
        )

    def finish(self) -> None:
        for keyword, line in reversed(self.open):
            self.warn(line, f"{keyword} opened here is never closed by 'end'")


@total_reader("Mermaid sequenceDiagram")
def parse_mermaid(
    text: str, *, path: str = "", includes: Mapping[str, str] | None = None
) -> ParsedDiagram:
    """Read a Mermaid ``sequenceDiagram`` into PlantUML's elements (same canonical forms).
    Mermaid has no include: ``includes`` is taken, and ignored, so that every reader of the
    registry (:data:`parsescore.sequence.read.FORMATS`) is called alike.

    Raises :class:`~parsescore.core.errors.InputError` (file and line) when the text is not a
    sequence diagram; any statement it cannot read is kept as an ``Other`` element with a
    warning naming its line and column.

    >>> diagram = parse_mermaid("sequenceDiagram\\n  participant A as Alice\\n  A-)B: hi")
    >>> [e.canonical for e in diagram.metric_elements]
    ['participant "Alice" as A', 'A ->> B : hi']
    """
    statements, line_count = _statements(text)
    if not statements:
        raise InputError("empty Mermaid file: expected a 'sequenceDiagram'", path=path or None)
    first = statements[0]
    header = _HEADER.match(first.text)
    word = header["word"] if header else first.text[:20]
    if word.lower() != "sequencediagram":
        what = next((t for t in MERMAID_DIAGRAM_TYPES if t.lower() == word.lower()), None)
        reason = (
            f"a Mermaid {what!r} diagram, not a sequenceDiagram"
            if what
            else f"expected 'sequenceDiagram' first, found {first.text[:40]!r}"
        )
        raise InputError(reason, path=path or None, where=f"line {first.line}")
    reader = _Reader(path)
    reader.elements.append(NoMetric(first.line, first.line, first.raw, "sequenceDiagram"))
    remainder = first.text[header.end() :].strip() if header else ""
    rest = statements[1:]
    if remainder:
        rest.insert(0, _Statement(first.line, first.column, remainder, first.raw))
    if not reader.document(rest):
        for st in rest:
            reader.statement(st)
    reader.finish()
    return ParsedDiagram(
        tuple(reader.elements), tuple(reader.diagnostics), line_count, path, format="mermaid"
    )
