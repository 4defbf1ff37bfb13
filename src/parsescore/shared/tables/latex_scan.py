"""A linear reader of the LaTeX tabulars answers write, beside pylatexenc's node walker.

pylatexenc's walker reads a character at a time through several layers of calls: on a 60x15
table it cost as much as scoring the table. Most answers use a small part of LaTeX — ``&``,
``\\\\``, rules, ``\\multicolumn``/``\\multirow``, text styles, symbols, inline math — and this
module reads that part with a few regular expressions, producing what the walker-based reader
(:func:`parsescore.shared.tables.formats.read_latex` with ``fast=False``) produces from the
same text: the rows' cells (their HTML, whether they are blank, their leading span macro), the
rules between rows and longtable's head and foot rows.

Anything outside that part — comments, ``\\verb``, display math, a macro taking arguments it
does not know, a macro argument not written right after its macro, a ``^``/``_`` script in
text, an error — makes :func:`scan` return None, and the walker reads the text (exactly as
before; ``tests/table/test_table_latex_scan.py`` compares the two on generated tables).
Macros without arguments and the special characters (``~``, ``--``, quotes) are converted by
the walker-based converter itself, once per distinct spelling.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["ENVIRONMENTS", "LatexCell", "Scanned", "SpanMacro", "scan"]

#: The tabular environments, and the arguments each takes (pylatexenc's spec notation).
ENVIRONMENTS = {
    "tabular": "[{",
    "tabular*": "{[{",
    "tabularx": "{[{",
    "longtable": "[{",
    "array": "[{",
}
_RULES = frozenset(
    ("hline", "toprule", "midrule", "bottomrule", "cline", "cmidrule", "specialrule")
)
_LONGTABLE_MARKERS = frozenset(("endfirsthead", "endhead", "endfoot", "endlastfoot"))
_STYLES = {"textbf": "b", "textit": "i", "emph": "i", "textsl": "i", "textsuperscript": "sup",
           "textsubscript": "sub"}  # fmt: skip
_TRANSPARENT = frozenset(("makecell", "shortstack", "text", "mbox", "textrm", "texttt", "textsc"))

#: A macro's name is its letters, as pylatexenc reads them (``str.isalpha``: ``\\pmé`` is one
#: name); a name this class takes that ``isalpha`` refuses (``²``) is left to the walker.
_TOKEN = re.compile(r"\\([^\W\d_]+)|\\(.)|([{}$&%])|([^\\{}$&%]+)", re.DOTALL)
_MACRO_NAME = re.compile(r"\\([^\W\d_]+)")
_BEGIN = re.compile(r"\\begin\{([^{}\\]*)\}")
_END = re.compile(r"\\end\{([^{}\\]*)\}")
_SPACE = re.compile(r"\s*")
_SPECIALS = re.compile(r"---|--|``|''|!`|\?`|~")
#: Characters that may start a special (or a script): text without any is plain.
_ODD = re.compile(r"[-`'!?~^_]")
#: A cell's plain characters (nothing to escape, no special) up to its ``&`` or its row's
#: ``\\\\`` (one without optional arguments).
_PLAIN_CELL = re.compile(
    r"((?:[^\\{}$&%`'!?~^_<>-]++|\\text(?:less|greater)\{\}|\\[%&_#$])*+)(&|\\\\(?!\s*+[*\[]))"
)
_PLAIN_ROW = re.compile(
    r"((?:[^\\{}$%`'!?~^_<>-]++|\\text(?:less|greater)\{\}|\\[%&_#$])*+)(\\\\(?!\s*+[*\[]))"
)
#: The ``&`` between a plain row's cells (in a plain row, only ``\\&`` has a ``\\`` before it).
_CELL_SPLIT = re.compile(r"(?<!\\)&")
#: The symbols a plain cell may hold, as their macro (the ``{}`` after a named one is empty).
_PLAIN_SYMBOL = re.compile(r"\\(text(?:less|greater)|[%&_#$])(?:\{\})?")
_RULE_ARGUMENTS = re.compile(r"\s*(?:\([^)]*\)\s*)?")  # as the walker-based reader skips them
#: inline math with one level of braces (possessive: linear)
_MATH = re.compile(r"\$(?:[^$\\{}%]++|\\[^\W\d_]++|\\[^A-Za-z$%{}\[\]()]|\{[^$\\{}%]*+\})*+\$")


class Unsupported(Exception):
    """The text holds something this reader leaves to the walker."""


@dataclass(frozen=True)
class SpanMacro:
    """A ``\\multicolumn`` or ``\\multirow`` opening a cell: its name and offset, its first
    argument as written (with braces) and that argument's offset, and for a ``\\multirow``
    inside a ``\\multicolumn`` its first argument and offset."""

    name: str
    position: int
    number: str
    number_at: int
    inner: tuple[str, int] | None = None


@dataclass(slots=True)
class LatexCell:
    """One cell as both readers give it: its content as HTML (not yet stripped), whether it is
    blank (only spaces and comments) and the span macro opening it."""

    html: str = ""
    blank: bool = True
    span: SpanMacro | None = None


@dataclass
class Scanned:
    """A tabular read: its column specification (as written, without braces), the rows (each
    its cells and the offset where it starts), the rules (how many rows come before each), and
    longtable's rows to drop (repeated heads and feet) and to show last (the last foot)."""

    spec: str | None
    environment_at: int
    end: int = 0
    rows: list[tuple[list[LatexCell], int]] = field(default_factory=list)
    rules: list[int] = field(default_factory=list)
    dropped: set[int] = field(default_factory=set)
    last_foot: list[int] = field(default_factory=list)


#: ``(what, spelling) -> cell HTML``: how the walker-based converter writes a macro without
#: arguments (with the spaces after it) or a special character.
Converter = Callable[[str, str], str]
#: The argument spec pylatexenc knows for a macro name ('' for none).
ArgumentSpec = Callable[[str], str]


def scan(text: str, convert: Converter, spec_of: ArgumentSpec) -> Scanned | None:
    """The first tabular of ``text`` read, or None when the text is outside this reader's part
    of LaTeX (the walker then reads it). Linear in the text."""
    try:
        return _Scanner(text, convert, spec_of).table()
    except Unsupported:
        return None


def environment_span(text: str) -> tuple[int, int, str] | None:
    """Where the first tabular environment starts and ends (``\\begin`` to after ``\\end``),
    and its name; None without one. Only a plain search: the caller checks what is around."""
    for match in _BEGIN.finditer(text):
        name = match.group(1)
        if name in ENVIRONMENTS:
            end = text.find(f"\\end{{{name}}}", match.end())
            if end == -1:
                return None
            return match.start(), end + len(name) + 6, name
    return None


class _Scanner:
    def __init__(self, text: str, convert: Converter, spec_of: ArgumentSpec) -> None:
        self.text = text
        self.convert = convert
        self.spec_of = spec_of

    # -- the environment ------------------------------------------------------------------

    def table(self) -> Scanned:
        found = environment_span(self.text)
        if found is None:
            raise Unsupported
        begin, _, name = found
        text = self.text
        position = begin + len(name) + 8  # after \begin{name}
        spec = None
        for kind in ENVIRONMENTS[name]:
            if position < len(text) and text[position] in " \t\r\n":
                after = _SPACE.match(text, position).end()  # type: ignore[union-attr]
                if after < len(text) and text[after] in "[{*":
                    raise Unsupported  # an argument after spaces: the walker decides
            if kind == "[":
                if text.startswith("[", position):
                    close = text.find("]", position)
                    if close == -1 or any(c in text[position:close] for c in "{}\\$%["):
                        raise Unsupported
                    position = close + 1
            else:
                if not text.startswith("{", position):
                    raise Unsupported
                end = self.balanced(position)
                spec = text[position + 1 : end - 1]
                position = end
        scanned = Scanned(spec, begin)
        self.body(position, name, scanned)
        return scanned

    def balanced(self, position: int) -> int:
        """The end of the brace group opening at ``position`` (a column specification: plain
        characters, braces and macros)."""
        depth = 0
        for match in _TOKEN.finditer(self.text, position):
            alpha, symbol, special, _ = match.groups()
            if symbol is not None and symbol not in "|@!<>,;:":
                raise Unsupported
            if special == "{":
                depth += 1
            elif special == "}":
                depth -= 1
                if depth == 0:
                    return match.end()
            elif special is not None:
                raise Unsupported
            elif alpha is not None and (
                not alpha.isalpha()
                or alpha in ("begin", "end", "verb")
                or self.spec_of(alpha) not in ("", "{")
                or (self.spec_of(alpha) and not self.text.startswith("{", match.end()))
            ):
                raise Unsupported  # a macro whose arguments could reach past the group
        raise Unsupported

    def body(self, position: int, name: str, scanned: Scanned) -> None:
        text = self.text
        cells = [LatexCell()]
        start = scanned.environment_at
        section: list[int] = []
        pending_rule_arguments = False
        while True:
            if len(cells) == 1 and cells[0].blank and not pending_rule_arguments:
                whole = _PLAIN_ROW.match(text, position)
                if whole is not None:  # a row of plain cells: most rows, at once
                    pieces = _CELL_SPLIT.split(whole.group(1))
                    pieces[0] = cells[0].html + pieces[0]
                    row = []
                    for piece in pieces:
                        if "\\" in piece:
                            piece = _PLAIN_SYMBOL.sub(self.symbol, piece)
                        row.append(LatexCell(piece, not piece.strip()))
                    section.append(len(scanned.rows))
                    scanned.rows.append((row, start))
                    cells, start = [LatexCell()], whole.start(2)
                    position = whole.end()
                    continue
            if not pending_rule_arguments and cells[-1].span is None:
                plain = _PLAIN_CELL.match(text, position)
                if plain is not None:  # plain characters up to & or \\: most cells, at once
                    chars = plain.group(1)
                    if "\\" in chars:
                        chars = _PLAIN_SYMBOL.sub(self.symbol, chars)
                    if chars:
                        cell = cells[-1]
                        if cell.blank and chars.strip():
                            cell.blank = False
                        cell.html += chars
                    position = plain.end()
                    if plain.group(2) == "&":
                        cells.append(LatexCell())
                    else:
                        section.append(len(scanned.rows))
                        scanned.rows.append((cells, start))
                        cells, start = [LatexCell()], plain.start(2)
                    continue
            match = _TOKEN.match(text, position)
            if match is None:
                raise Unsupported
            alpha, symbol, special, chars = match.groups()
            if alpha is not None and not alpha.isalpha():
                raise Unsupported
            token_at = position
            position = match.end()
            if chars is not None and not pending_rule_arguments:  # the common case, inline
                cell = cells[-1]
                if cell.span is None and _ODD.search(chars) is None:
                    if cell.blank and chars.strip():
                        cell.blank = False
                    if "<" in chars or ">" in chars:
                        chars = chars.replace("<", "&lt;").replace(">", "&gt;")
                    cell.html += chars
                    continue
            elif special == "&":
                cells.append(LatexCell())
                continue
            if pending_rule_arguments:
                pending_rule_arguments = False
                if chars is not None and _RULE_ARGUMENTS.fullmatch(chars):
                    if _SPECIALS.search(chars):
                        raise Unsupported  # the walker splits these characters
                    pending_rule_arguments = True
                    continue
                if special == "{":
                    position = self.skip_group(token_at)
                    continue
            row_empty = len(cells) == 1 and cells[0].blank
            if special == "&":
                cells.append(LatexCell())
            elif symbol == "\\" or alpha == "tabularnewline":
                if symbol == "\\":
                    self.no_options(position)
                else:
                    position = self.post_space(position)
                section.append(len(scanned.rows))
                scanned.rows.append((cells, start))
                cells, start = [LatexCell()], token_at
            elif alpha == "end":
                found = _END.match(text, token_at)
                if found is None or found.group(1) != name:
                    raise Unsupported
                scanned.end = found.end()
                break
            elif alpha in _RULES and row_empty:
                position = self.post_space(position)
                scanned.rules.append(len(scanned.rows))
                if alpha == "cmidrule":
                    pending_rule_arguments = True
                elif alpha == "cline":
                    if not text.startswith("{", position):
                        raise Unsupported
                    position = self.skip_group(position)
                elif alpha == "specialrule":
                    for _ in range(3):
                        if not text.startswith("{", position):
                            raise Unsupported
                        position = self.skip_group(position)
            elif alpha == "endfirsthead":
                raise Unsupported  # it changes what an \\endhead before it means: the walker
            elif alpha in _LONGTABLE_MARKERS:
                position = self.post_space(position)
                if alpha == "endfoot":
                    scanned.dropped.update(section)
                elif alpha == "endlastfoot":
                    scanned.last_foot.extend(section)
                section = []
            elif alpha in ("caption", "label", "begin") or special in ("}", "%"):
                raise Unsupported
            else:
                position = self.cell_content(cells[-1], match, token_at)
        if any(not cell.blank for cell in cells):
            scanned.rows.append((cells, start))

    # -- cells --------------------------------------------------------------------------------

    def cell_content(self, cell: LatexCell, match: re.Match[str], token_at: int) -> int:
        """Add one token (and what it takes) to ``cell``; the position after it."""
        alpha, _, _, chars = match.groups()
        if cell.span is not None:  # what follows a span macro is not read (the walker too)
            return self.piece(match, token_at, 0)[1]
        if chars is not None and not chars.strip():
            cell.html += chars
            return match.end()
        if cell.blank and alpha in ("multicolumn", "multirow"):
            cell.blank = False
            html, end = self.span_macro(cell, alpha, token_at, match.end())
            cell.html = html
            return end
        cell.blank = False
        html, end = self.piece(match, token_at, 0)
        cell.html += html
        return end

    def span_macro(self, cell: LatexCell, name: str, at: int, position: int) -> tuple[str, int]:
        text = self.text
        if not text.startswith("{", position):
            raise Unsupported
        number_end = self.skip_group(position)
        number = text[position:number_end]
        position = number_end
        if name == "multicolumn":
            if not text.startswith("{", position):
                raise Unsupported
            position = self.skip_group(position)  # the column specification
        else:
            if not text.startswith("{", position):  # [rows] before the width: not here
                raise Unsupported
            position = self.skip_group(position)  # the width
        if not text.startswith("{", position):
            raise Unsupported
        content_at = position
        inner = None
        if name == "multicolumn":
            lead = _TOKEN.match(text, position + 1)
            while lead is not None and lead.group(4) is not None and not lead.group(4).strip():
                lead = _TOKEN.match(text, lead.end())
            if lead is not None and lead.group(1) == "multirow":
                inner_cell = LatexCell()
                html, _ = self.span_macro(inner_cell, "multirow", lead.start(), lead.end())
                assert inner_cell.span is not None
                inner = (inner_cell.span.number, inner_cell.span.number_at)
                end = self.skip_group(content_at)
                cell.span = SpanMacro(name, at, number, number_at=at + len(name) + 1, inner=inner)
                return html, end
        html, end = self.group(content_at, 1)
        cell.span = SpanMacro(name, at, number, number_at=at + len(name) + 1, inner=inner)
        return html, end

    def skip_group(self, position: int) -> int:
        """The end of the group at ``position``, read as cell content (so that it is in this
        reader's part of LaTeX)."""
        return self.group(position, 1)[1]

    def group(self, position: int, depth: int) -> tuple[str, int]:
        """The group opening at ``position``: its content as HTML, and where it ends."""
        if depth > 50:
            raise Unsupported  # the walker reads (or refuses) deep nesting
        text = self.text
        out: list[str] = []
        position += 1
        while True:
            match = _TOKEN.match(text, position)
            if match is None:
                raise Unsupported
            if match.group(3) == "}":
                return "".join(out), match.end()
            html, position = self.piece(match, position, depth)
            out.append(html)

    def piece(self, match: re.Match[str], at: int, depth: int) -> tuple[str, int]:
        """One token of cell content (a group, math, a macro, characters) as HTML."""
        alpha, symbol, special, chars = match.groups()
        text = self.text
        position = match.end()
        if alpha is not None and not alpha.isalpha():
            raise Unsupported
        if chars is not None:
            if "^" in chars or "_" in chars:
                raise Unsupported
            return self.characters(chars), position
        if special == "{":
            return self.group(at, depth + 1)
        if special == "$":
            math = _MATH.match(text, at)
            if math is None or text.startswith("$$", at):
                raise Unsupported
            for name in _MACRO_NAME.findall(math.group(0)):
                if not name.isalpha() or self.spec_of(name) or name in ("begin", "end", "verb"):
                    raise Unsupported  # a macro with arguments inside math
            verbatim = math.group(0)
            return self.convert("math", verbatim), math.end()
        if special is not None:  # & inside a group, %, a stray }
            raise Unsupported
        if symbol is not None:
            if symbol == "\\":
                self.no_options(position)
                return "<br>", position
            if symbol in "()[]":
                raise Unsupported  # math delimiters
            if self.spec_of(symbol):
                raise Unsupported
            return self.convert("macro", "\\" + symbol), position
        assert alpha is not None
        if alpha in ("begin", "end", "verb", "multicolumn", "multirow"):
            raise Unsupported
        if alpha in _STYLES or alpha in _TRANSPARENT:
            if self.spec_of(alpha) != "{" or not text.startswith("{", position):
                raise Unsupported
            inner, end = self.group(position, depth + 1)
            if alpha in _STYLES:
                tag = _STYLES[alpha]
                return f"<{tag}>{inner}</{tag}>", end
            return inner, end
        if self.spec_of(alpha):
            raise Unsupported
        end = self.post_space(position)
        return self.convert("macro", text[at:end]), end

    def characters(self, chars: str) -> str:
        """Characters as HTML: escaped, and the special ones (``~``, ``--``, quotes) as the
        walker-based converter writes them."""
        if _SPECIALS.search(chars) is None:
            return html.escape(chars, quote=False)
        out: list[str] = []
        done = 0
        for special in _SPECIALS.finditer(chars):
            out.append(html.escape(chars[done : special.start()], quote=False))
            out.append(self.convert("special", special.group(0)))
            done = special.end()
        out.append(html.escape(chars[done:], quote=False))
        return "".join(out)

    def symbol(self, match: re.Match[str]) -> str:
        """A symbol of a plain cell as the walker-based converter writes it."""
        return self.convert("macro", "\\" + match.group(1))

    def post_space(self, position: int) -> int:
        """After an alpha macro: the spaces pylatexenc's tokenizer keeps as the macro's own (up
        to a paragraph break)."""
        space = _SPACE.match(self.text, position)
        assert space is not None
        paragraph = self.text.find("\n\n", position, space.end())
        return space.end() if paragraph == -1 else paragraph

    def no_options(self, position: int) -> None:
        """``\\\\`` followed by ``*`` or ``[``: its optional arguments, for the walker."""
        after = _SPACE.match(self.text, position)
        assert after is not None
        if after.end() < len(self.text) and self.text[after.end()] in "*[":
            raise Unsupported
