"""The table readers: tables as models write them — HTML (documents or bare fragments),
Markdown pipe tables, LaTeX ``tabular``, CSV/TSV, OTSL/DocTags — each read into a
:class:`~parsescore.shared.tables.grid.TableGrid`, and the dispatch through the table kind's reader
registry (``formats``, by default :data:`parsescore.shared.tables.registry.FORMATS`: name,
extensions, reader, detector; the table kind passes its registered formats).

Tables built from cells follow the PubTabNet convention (shared/specs/formats.md, "Tables"):
header rows (when the format marks them), every cell with a column and a row span, cell text
with inline ``<b>`` ``<i>`` ``<sup>`` ``<sub>`` (and ``<br>`` line breaks) kept and every other
markup as its text. An HTML table is kept as written (the reference's own input); a fragment is
wrapped in ``<html><body>``.

Parsing is done by the formats' own libraries: markdown-it-py (Markdown), pylatexenc's node
walker (LaTeX; the tabular structure — ``&``, ``\\\\``, ``\\multicolumn``, ``\\multirow``, rules —
is read from its nodes here), the ``csv`` module, and docling-core for OTSL/DocTags (the
``docling`` extra). Bad input is an :class:`~parsescore.core.errors.InputError` naming the line and
column; spans are capped at :data:`MAX_SPAN` and tables at :data:`MAX_CELLS` cells.

A reader is ``(text) -> TableGrid``; one that needs the reading options takes them as keywords
(``header`` for CSV/TSV, ``latex_math`` for LaTeX), and :func:`read_table` passes them.
"""

from __future__ import annotations

import bisect
import csv
import functools
import html
import inspect
import io
import re
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from parsescore.core.errors import InputError
from parsescore.core.kinds import Format, resolved
from parsescore.shared.answers import Answer, unwrap_answer
from parsescore.shared.tables import latex_scan, limits
from parsescore.shared.tables.grid import TableGrid
from parsescore.shared.tables.limits import MAX_CELLS, MAX_SPAN
from parsescore.shared.tables.names import LatexMath
from parsescore.shared.tables.registry import FORMATS

__all__ = [
    "MAX_CELLS",
    "MAX_SPAN",
    "detect_format",
    "extensions",
    "format_names",
    "has_table",
    "read_answer",
    "read_table",
    "to_html",
    "unread_formats",
]

_INLINE = {"b": "b", "strong": "b", "i": "i", "em": "i", "sup": "sup", "sub": "sub"}
#: The reading options a reader may take as keywords.
_READING = ("header", "latex_math")


def format_names(formats: Sequence[Format] = FORMATS) -> tuple[str, ...]:
    """The name of every table format of the registry ``formats``, in ``auto``'s order."""
    return tuple(entry.name for entry in formats)


def extensions(formats: Sequence[Format] = FORMATS) -> dict[str, str]:
    """``{file extension: format}``: how ``auto`` reads a folder's files."""
    return {suffix: entry.name for entry in formats for suffix in entry.extensions}


@dataclass(slots=True)
class _Cell:
    html: str
    colspan: int = 1
    rowspan: int = 1


@dataclass
class _Grid:
    rows: list[list[_Cell]] = field(default_factory=list)
    header_rows: int = 0

    def table(self, format: str, warnings: Sequence[str] = ()) -> TableGrid:
        return TableGrid.from_rows(
            [[(c.html, c.colspan, c.rowspan) for c in row] for row in self.rows],
            format=format,
            header_rows=self.header_rows,
            warnings=warnings,
        )


def _fail(message: str, text: str | None = None, position: int | None = None) -> InputError:
    where = None
    if text is not None and position is not None:
        line = text.count("\n", 0, position) + 1
        column = position - (text.rfind("\n", 0, position) + 1) + 1
        where = f"line {line}, column {column}"
    return InputError(message, where=where)


def _span(value: int, what: str) -> int:
    return 1 if value == 1 else limits.span(value, what)  # 1 is always a span


def _text(value: str) -> str:
    if "&" in value or "<" in value or ">" in value:
        return html.escape(value, quote=False)
    return value  # most cells: nothing to escape


# -- detection (each detector is asked only when the formats before it said no) ----------------

_OTSL = re.compile(r"<(?:otsl|fcel|ecel|ched|rhed|lcel|ucel|xcel)>")
_LATEX = re.compile(r"\\begin\{(?:tabular\*?|tabularx|longtable|array)\}")
# one line of a Markdown delimiter row (``|:--|--:|``), stripped; unambiguous, so linear
_DELIMITER_LINE = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?")
_TABLE_TAG = re.compile(r"<table[\s/>]", re.IGNORECASE)
_TABLE_OPEN = re.compile(r"<table\b", re.IGNORECASE)


def _delimiter_row(text: str, *, piped: bool = False) -> bool:
    """Whether a line of ``text`` is a Markdown delimiter row (``piped``: one with a ``|``)."""
    return any(
        _DELIMITER_LINE.fullmatch(line.strip()) is not None and (not piped or "|" in line)
        for line in text.splitlines()
        if "-" in line
    )


def has_table(html: str) -> bool:
    """Whether an HTML text holds a ``<table>`` tag at all (else TEDS and GriTS find none)."""
    return _TABLE_TAG.search(html) is not None


def _plain(text: str) -> bool:
    """No OTSL token (a text with one is OTSL or DocTags, whatever else it holds)."""
    return _OTSL.search(text) is None


def detect_html(text: str) -> bool:
    """A whole HTML document: TEDS finds its ``body/table``."""
    return _plain(text) and _TABLE_OPEN.search(text) is not None and _html_document(text)


def detect_markdown(text: str) -> bool:
    """A Markdown delimiter row (``|---|``): with a pipe beside an HTML ``<table>`` (an answer
    holding both), else on a text with pipes that is not a LaTeX tabular."""
    if not _plain(text):
        return False
    if _TABLE_OPEN.search(text):
        return _delimiter_row(text, piped=True)
    lines = [line for line in text.splitlines() if line.strip()]
    return (
        _LATEX.search(text) is None and any("|" in line for line in lines) and _delimiter_row(text)
    )


def detect_html_fragment(text: str) -> bool:
    """An HTML ``<table>`` that is not a whole document."""
    return _plain(text) and _TABLE_OPEN.search(text) is not None


def detect_latex(text: str) -> bool:
    """A LaTeX tabular environment (``tabular``, ``tabular*``, ``tabularx``, ``longtable``,
    ``array``)."""
    return _plain(text) and _LATEX.search(text) is not None


def detect_tsv(text: str) -> bool:
    """Tab-separated: more than half of the lines hold a tab."""
    lines = [line for line in text.splitlines() if line.strip()]
    return (
        _plain(text)
        and bool(lines)
        and sum("\t" in line for line in lines) >= max(1, len(lines) // 2 + 1)
    )


def detect_csv(text: str) -> bool:
    """Comma-separated: every line holds a comma."""
    lines = [line for line in text.splitlines() if line.strip()]
    return _plain(text) and bool(lines) and all("," in line for line in lines)


def detect_otsl(text: str) -> bool:
    """OTSL tokens (``<fcel>``, ``<nl>``, ...) without DocTags' ``<doctag>`` or ``<loc_…>``."""
    return not _plain(text) and "<doctag" not in text and "<loc_" not in text


def detect_doctags(text: str) -> bool:
    """OTSL tokens inside DocTags (``<doctag>``, ``<loc_…>``)."""
    return not _plain(text) and ("<doctag" in text or "<loc_" in text)


def detect_format(text: str, formats: Sequence[Format] = FORMATS) -> str:
    """The format a table's text is written in: the first format of the registry whose
    detector says yes (HTML documents, Markdown, HTML fragments, LaTeX, TSV, CSV, OTSL,
    DocTags). Text that is none of these is an InputError. The text is read as it is: a model's
    answer is unwrapped first (:func:`read_answer`).
    """
    for entry in formats:
        if entry.detect is not None and entry.detect(text):
            return entry.name
    raise InputError(
        "cannot tell the table's format: expected HTML, a Markdown pipe table, a LaTeX tabular, "
        "CSV/TSV or OTSL"
    )


def _html_document(text: str) -> bool:
    """Whether TEDS finds a ``body/table`` in ``text`` (the reference's own rule)."""
    from lxml import etree

    from parsescore.shared.tables.tree import find_table

    try:
        return find_table(text) is not None
    except (etree.LxmlError, ValueError):
        return False


# -- the registry's entry points ------------------------------------------------------------------


@functools.cache
def _keywords(reader: Callable[..., Any]) -> frozenset[str]:
    """The reading options ``reader`` takes as keywords."""
    return frozenset(inspect.signature(reader).parameters) & frozenset(_READING)


def read_table(
    text: str,
    format: str = "auto",
    *,
    header: bool = True,
    latex_math: str = "source",
    formats: Sequence[Format] = FORMATS,
) -> TableGrid:
    """Read one table written in ``format`` (``auto``: :func:`detect_format`), as it is
    written (a truth file; a model's answer goes through :func:`read_answer`).

    ``header=False`` reads the first CSV/TSV row as a body row; ``latex_math`` is how LaTeX
    math in a cell is read (``source`` or ``text``). Returns the grid, with the format read and
    warnings (e.g. an answer holding several tables).
    """
    if latex_math not in typing.get_args(LatexMath):
        raise InputError(f"latex_math must be source or text, got {latex_math!r}")
    if format == "auto":
        format = detect_format(text, formats)
    entry = next((e for e in formats if e.name == format), None)
    if entry is None:
        names = ", ".join(format_names(formats))
        raise InputError(f"unknown table format {format!r}; expected auto, {names}")
    reader = resolved(entry.read)
    reading = {"header": header, "latex_math": latex_math}
    grid: TableGrid = reader(text, **{k: reading[k] for k in _keywords(reader)})
    return grid


def read_answer(
    text: str,
    format: str = "auto",
    *,
    header: bool = True,
    latex_math: str = "source",
    formats: Sequence[Format] = FORMATS,
) -> tuple[TableGrid, Answer]:
    """A model's answer read as a table: its content by the chat-answer rule
    (:func:`parsescore.shared.answers.unwrap_answer`: ``<think>`` blocks dropped, the fenced block
    naming ``format`` — any table format for ``auto`` — else the first), then
    :func:`read_table`. A reader's error names the answer's own line. A plain answer is read
    exactly as :func:`read_table` reads it.
    """
    answer = unwrap_answer(text, format_names(formats) if format == "auto" else (format,))
    try:
        read = read_table(
            answer.text, format, header=header, latex_math=latex_math, formats=formats
        )
        return read, answer
    except InputError as exc:
        raise answer.relocate(exc) from None


def to_html(
    text: str,
    format: str = "auto",
    *,
    latex_math: str = "source",
    formats: Sequence[Format] = FORMATS,
) -> str:
    """The table in a model's answer ``text`` as one PubTabNet-convention HTML document
    (:func:`read_answer`: prose, ``<think>`` blocks and fences around the table are dropped).

    >>> to_html("| a | b |\\n|---|---|\\n| 1 | **2** |")
    '<html><body><table><thead><tr><td>a</td><td>b</td></tr></thead><tbody><tr><td>1</td><td><b>2</b></td></tr></tbody></table></body></html>'
    >>> answer = "Sure! Here:\\n```latex\\n\\\\begin{tabular}{l} $\\\\pm$ \\\\end{tabular}\\n```"
    >>> to_html(answer, latex_math="text")
    '<html><body><table><tbody><tr><td>±</td></tr></tbody></table></body></html>'
    """
    return read_answer(text, format, latex_math=latex_math, formats=formats)[0].html


# -- HTML -----------------------------------------------------------------------------------------


def read_html(text: str) -> TableGrid:
    """An HTML document, as it is (the reference's input: without ``body/table`` it scores 0)."""
    return TableGrid.from_html(text, "html")


def read_html_fragment(text: str) -> TableGrid:
    """A bare HTML ``<table>``, wrapped in ``<html><body>``."""
    return TableGrid.from_html(f"<html><body>{text.strip()}</body></html>", "html-fragment")


# -- Markdown -----------------------------------------------------------------------------------

_TAG = re.compile(r"^<\s*(/?)\s*([a-zA-Z][a-zA-Z0-9]*)[^>]*?(/?)\s*>$")


def _inline_html(tokens: Iterable[Any]) -> str:
    """A cell's inline tokens as HTML: emphasis as ``<b>``/``<i>``, raw ``<b> <i> <sup> <sub>
    <br>`` kept, other markup dropped (its text stays)."""
    out: list[str] = []
    for token in tokens:
        kind = token.type
        if kind in ("text", "code_inline"):
            out.append(_text(token.content))
        elif kind in ("strong_open", "strong_close", "em_open", "em_close"):
            tag = "b" if kind.startswith("strong") else "i"
            out.append(f"</{tag}>" if kind.endswith("close") else f"<{tag}>")
        elif kind in ("softbreak", "hardbreak"):
            out.append("<br>")
        elif kind == "image":
            out.append(_inline_html(token.children or []))
        elif kind == "html_inline":
            match = _TAG.match(token.content.strip())
            if match is None:
                out.append(_text(token.content))
                continue
            closing, name = match.group(1), match.group(2).lower()
            if name == "br":
                out.append("<br>")
            elif name in _INLINE:
                out.append(f"</{_INLINE[name]}>" if closing else f"<{_INLINE[name]}>")
    return "".join(out)


_HTML_TABLE_TAGS = re.compile(r"<(/?)table\b", re.IGNORECASE)


def _tables_in_markdown(text: str, tokens: Sequence[Any]) -> list[tuple[int, int | None]]:
    """Every table of a Markdown text in document order: ``(offset in text, index of its
    ``table_open`` token)`` for pipe tables, ``(offset of <table, None)`` for raw HTML ones."""
    line_starts = [0]
    for line in text.splitlines(keepends=True):
        line_starts.append(line_starts[-1] + len(line))
    found: list[tuple[int, int | None]] = []
    for index, token in enumerate(tokens):
        if token.map is None:
            continue
        start, end = (line_starts[min(k, len(line_starts) - 1)] for k in token.map)
        if token.type == "table_open":
            found.append((start, index))
        elif token.type == "html_block" or (
            token.type == "inline" and any(c.type == "html_inline" for c in token.children or [])
        ):
            found += [
                (m.start(), None)
                for m in _HTML_TABLE_TAGS.finditer(text, start, end)
                if not m.group(1)
            ]
    return found


def _html_table_at(text: str, start: int) -> str:
    """The HTML table opening at ``start``, to its matching ``</table>`` (or the end)."""
    depth = 0
    for match in _HTML_TABLE_TAGS.finditer(text, start):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            end = text.find(">", match.end())
            return text[start : len(text) if end == -1 else end + 1]
    return text[start:]


def read_markdown(text: str) -> TableGrid:
    """A Markdown pipe table (GFM); an HTML table in the text is read as HTML."""
    plain = _plain_pipe_table(text)
    return plain if plain is not None else _read_markdown(text)


#: What makes markdown-it read a cell as more than its text (escapes, code, emphasis, entities,
#: HTML, links), or the text as more than one plain table (code fences, carriage returns).
_NOT_PLAIN_MARKDOWN = re.compile(r"[\\`*_&\[\]\r\x00~]|<[A-Za-z/!?]")
_DELIMITER_CELL = re.compile(r"^:?-+:?$")
#: markdown-it's bound on the empty cells it adds to short rows.
_MAX_AUTOCOMPLETED_CELLS = 0x10000


def _plain_pipe_table(text: str) -> TableGrid | None:
    """A text that is one pipe table of plain cells (and maybe prose without pipes around it,
    apart by a blank line) read as markdown-it reads it, in one pass over its lines; None for
    anything else (markdown-it then reads it: ``tests/table/test_table_reader_parity.py``
    compares the two)."""
    from markdown_it.common.utils import mdTrim

    if _NOT_PLAIN_MARKDOWN.search(text) is not None:
        return None
    lines = text.split("\n")
    for line in lines:  # a "<" is text unless it opens a tag or an autolink (<0@x.y>)
        opening = line.find("<")
        if opening != -1 and line.find(">", opening) != -1:
            return None
    first = next((k for k, line in enumerate(lines) if "|" in line), None)
    if first is None or (first > 0 and lines[first - 1].strip(" \t")):
        return None  # no table, or one that prose runs into
    last = first
    while last + 1 < len(lines) and lines[last + 1].strip(" \t"):
        last += 1
    if any("|" in line for line in lines[last + 1 :]):
        return None  # more tables, or pipes markdown-it may read as one
    table = lines[first : last + 1]
    if len(table) < 2 or not all(line.startswith("|") for line in table):
        return None
    delimiter = table[1]
    if len(delimiter) < 2 or delimiter.strip("|-: \t") or delimiter[1] not in "|-: \t":
        return None
    aligns = 0
    columns = delimiter.split("|")
    for k, column in enumerate(columns):
        cell = mdTrim(column)
        if not cell:
            if k == 0 or k == len(columns) - 1:
                continue
            return None
        if _DELIMITER_CELL.search(cell) is None:
            return None
        aligns += 1
    grid = _Grid(header_rows=1)
    autocompleted = 0
    for k, line in enumerate(table):
        if k == 1:
            continue
        cells = mdTrim(line).split("|")
        if cells and cells[0] == "":
            cells.pop(0)
        if cells and cells[-1] == "":
            cells.pop()
        if k == 0 and (not cells or len(cells) != aligns):
            return None
        autocompleted += aligns - len(cells)
        if autocompleted > _MAX_AUTOCOMPLETED_CELLS:
            return None
        grid.rows.append(
            [
                _Cell(_text(mdTrim(cells[i])).strip() if i < len(cells) else "")
                for i in range(aligns)
            ]
        )
    if all(not c.html for c in grid.rows[0]):
        del grid.rows[0]  # an empty header row: a table without header
        grid.header_rows = 0
    return grid.table("markdown")


def _read_markdown(text: str) -> TableGrid:
    """A Markdown text read by markdown-it (the reference of :func:`_plain_pipe_table`)."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark", {"html": True}).enable("table")
    tokens = parser.parse(text)
    tables = _tables_in_markdown(text, tokens)
    if not tables:
        loose = _HTML_TABLE_TAGS.search(text)  # e.g. an HTML table inside a code block
        if loose is not None and not loose.group(1):
            tables = [(loose.start(), None)]
    if not tables:
        raise InputError(
            "no Markdown table found: expected a header row, then a delimiter row such as "
            "|---|---|, then the body rows"
        )
    warnings: tuple[str, ...] = ()
    if len(tables) > 1:
        warnings = (f"{len(tables)} tables in the answer; the first is scored",)
    offset, first = tables[0]
    if first is None:  # HTML tables embedded in Markdown are read as HTML
        fragment = _html_table_at(text, offset)
        return TableGrid.from_html(f"<html><body>{fragment}</body></html>", "markdown", warnings)
    grid = _Grid()
    in_head = False
    row: list[_Cell] | None = None
    for token in tokens[first:]:
        if token.type == "table_close":
            break
        if token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            row = []
        elif token.type == "tr_close" and row is not None:
            grid.rows.append(row)
            if in_head:
                grid.header_rows += 1
            row = None
        elif token.type == "inline" and row is not None:
            row.append(_Cell(_inline_html(token.children or []).strip()))
    if grid.header_rows and all(not c.html for c in grid.rows[0]):
        del grid.rows[0]  # an empty header row: a table without header, as Markdown must write it
        grid.header_rows = 0
    return grid.table("markdown", warnings)


# -- LaTeX --------------------------------------------------------------------------------------

_ENVIRONMENTS = ("tabular", "tabular*", "tabularx", "longtable", "array")
_RULES = ("hline", "toprule", "midrule", "bottomrule", "cline", "cmidrule", "specialrule")
_SYMBOLS = {
    "textless": "<",
    "textgreater": ">",
    "textbar": "|",
    "textasciitilde": "~",
    "textasciicircum": "^",
    "textbackslash": "\\",
    "textunderscore": "_",
    "textbraceleft": "{",
    "textbraceright": "}",
    "textquotesingle": "'",
    "textquotedbl": '"',
    "textendash": "–",
    "textemdash": "—",
    "textbullet": "•",
    "textdegree": "°",
}
_STYLES = {
    "textbf": "b",
    "bfseries": "b",
    "textit": "i",
    "emph": "i",
    "textsl": "i",
    "textsuperscript": "sup",
    "textsubscript": "sub",
}


@functools.cache
def _latex_context() -> Any:
    """pylatexenc's default macros and environments, with the tables' own (built once: the
    walker only reads it)."""
    from pylatexenc.latexwalker import get_default_latex_context_db
    from pylatexenc.macrospec import EnvironmentSpec, MacroSpec

    context = get_default_latex_context_db()
    context.add_context_category(
        "parsescore-tables",
        prepend=True,
        macros=[
            MacroSpec("multicolumn", "{{{"),
            MacroSpec("multirow", "{[{[{"),
            MacroSpec("textsuperscript", "{"),
            MacroSpec("textsubscript", "{"),
            MacroSpec("cline", "{"),
            MacroSpec("cmidrule", ""),  # its (lr){2-3} arguments are skipped by the reader
            MacroSpec("specialrule", "{{{"),
            MacroSpec("makecell", "[{"),
            MacroSpec("shortstack", "[{"),
            MacroSpec("hspace", "*{"),
            MacroSpec("vspace", "*{"),
            MacroSpec("rule", "[{{"),
            MacroSpec("tabularnewline", ""),
            MacroSpec("caption", "*[{"),
        ],
        environments=[
            EnvironmentSpec("tabular", "[{"),
            EnvironmentSpec("tabular*", "{[{"),
            EnvironmentSpec("tabularx", "{[{"),
            EnvironmentSpec("longtable", "[{"),
            EnvironmentSpec("array", "[{"),
        ],
    )
    return context


#: Stands for a minus sign of math mode until the cell's own minus is known (private use).
_MATH_MINUS = "\ue001"
_DEGREE = {"∘", "\\circ"}  # ``^\circ``: the degree sign


class _LatexText:
    """A cell's LaTeX nodes as cell HTML (pylatexenc's LaTeX-to-text for everything but the
    styles kept as tags, text-mode ``^{}``/``_{}``, symbols it leaves out, and math).

    Math is its source (``math="source"``, the spec's rule) or the text it shows
    (``math="text"``): pylatexenc's latex2text for symbols and Greek letters, ``^``/``_`` as
    ``<sup>``/``<sub>``, ``^\\circ`` as ``°``, and a minus as :data:`_MATH_MINUS` (the cell
    decides which sign it is: :func:`_minus_of`).
    """

    def __init__(self, math: str = "source") -> None:
        self.math = math
        self._seen: dict[tuple[str, str], str] = {}

    @functools.cached_property
    def plain(self) -> Any:
        from pylatexenc.latex2text import LatexNodes2Text

        return LatexNodes2Text(math_mode="verbatim", strict_latex_spaces=False)

    @functools.cached_property
    def math_text(self) -> Any:
        from pylatexenc.latex2text import LatexNodes2Text

        return LatexNodes2Text(math_mode="text", strict_latex_spaces=False)

    def scanned(self, what: str, spelling: str) -> str:
        """A piece the linear reader met (``macro``: a macro without arguments and the spaces
        after it; ``special``: ``~``, ``--``, quotes; ``math``) as this converter writes its
        node: the walker reads the piece alone, once per spelling. Raises
        :class:`~parsescore.shared.tables.latex_scan.Unsupported` where the walker must read
        the whole table (math shown as text)."""
        key = (what, spelling)
        known = self._seen.get(key)
        if known is not None:
            return known
        if what == "math":
            if self.math != "source":
                raise latex_scan.Unsupported
            known = _text(spelling)
        else:
            from pylatexenc import latexwalker as lw

            try:
                nodes, _, _ = lw.LatexWalker(
                    spelling, latex_context=_latex_context(), tolerant_parsing=False
                ).get_latex_nodes()
            except lw.LatexWalkerError:
                raise latex_scan.Unsupported from None
            expected = lw.LatexMacroNode if what == "macro" else lw.LatexSpecialsNode
            if len(nodes) != 1 or not isinstance(nodes[0], expected):
                raise latex_scan.Unsupported
            if nodes[0].len != len(spelling):
                raise latex_scan.Unsupported
            known = self(nodes)
        self._seen[key] = known
        return known

    def _math(self, nodes: Sequence[Any]) -> str:
        """Math-mode nodes as the text they show (cell HTML)."""
        from pylatexenc import latexwalker as lw

        atoms: list[Any] = []  # characters and nodes, one TeX atom each
        for node in nodes:
            if node is None or isinstance(node, lw.LatexCommentNode):
                continue
            if isinstance(node, lw.LatexCharsNode):
                atoms.extend(node.chars)
            else:
                atoms.append(node)
        out: list[str] = []
        k = 0
        while k < len(atoms):
            atom = atoms[k]
            if isinstance(atom, str) and atom in "^_" and k + 1 < len(atoms):
                script = atoms[k + 1]
                inner = self._math_char(script) if isinstance(script, str) else self._math([script])
                if atom == "^" and inner.strip() in _DEGREE:
                    out.append("°")
                else:
                    tag = "sup" if atom == "^" else "sub"
                    out.append(f"<{tag}>{inner}</{tag}>")
                k += 2
                continue
            if isinstance(atom, str):
                out.append(self._math_char(atom))
            elif isinstance(atom, lw.LatexGroupNode):
                out.append(self._math(atom.nodelist))
            elif isinstance(atom, lw.LatexMacroNode) and (
                atom.macroname in _STYLES or atom.macroname in _SYMBOLS
            ):
                out.append(self._macro(atom))
            else:
                out.append(_text(self.math_text.nodelist_to_text([atom])))
            k += 1
        return "".join(out)

    @staticmethod
    def _math_char(char: str) -> str:
        return _MATH_MINUS if char == "-" else _text(char)

    def __call__(self, nodes: Sequence[Any]) -> str:
        from pylatexenc import latexwalker as lw

        out: list[str] = []
        nodes = [n for n in nodes if n is not None]
        k = 0
        while k < len(nodes):
            node = nodes[k]
            if isinstance(node, lw.LatexCharsNode):
                chars = node.chars
                script = chars[-1:] if chars.endswith(("^", "_")) else ""
                if script and k + 1 < len(nodes) and isinstance(nodes[k + 1], lw.LatexGroupNode):
                    tag = "sup" if script == "^" else "sub"
                    out.append(_text(chars[:-1]))
                    out.append(f"<{tag}>{self(nodes[k + 1].nodelist)}</{tag}>")
                    k += 2
                    continue
                out.append(_text(chars))
            elif isinstance(node, lw.LatexMathNode):
                if self.math == "text":
                    out.append(self._math(node.nodelist))
                else:
                    out.append(_text(node.latex_verbatim()))
            elif isinstance(node, lw.LatexGroupNode):
                out.append(self(node.nodelist))
            elif isinstance(node, lw.LatexCommentNode):
                pass
            elif isinstance(node, lw.LatexMacroNode):
                out.append(self._macro(node))
            elif isinstance(node, lw.LatexEnvironmentNode):
                out.append(self(node.nodelist))
            else:
                out.append(_text(self.plain.nodelist_to_text([node])))
            k += 1
        return "".join(out)

    def _args(self, node: Any) -> list[Any]:
        if node.nodeargd is None:
            return []
        return [a for a in node.nodeargd.argnlist if a is not None]

    def _macro(self, node: Any) -> str:
        name = node.macroname
        if name in _SYMBOLS:
            return _text(_SYMBOLS[name])
        if name in ("\\", "newline", "linebreak", "tabularnewline"):
            return "<br>"
        args = self._args(node)
        if name in ("^", "~") and all(_blank(getattr(a, "nodelist", [a])) for a in args):
            return _text(name)  # \^{} and \~{}: the character itself, not an accent
        if name in _STYLES:
            if not args:  # a switch such as \bfseries: no scope to mark
                return ""
            tag = _STYLES[name]
            last = args[-1]
            inner = self(last.nodelist if hasattr(last, "nodelist") else [last])
            return f"<{tag}>{inner}</{tag}>"
        if name in ("makecell", "shortstack", "text", "mbox", "textrm", "texttt", "textsc"):
            last = args[-1] if args else None
            return self(last.nodelist) if last is not None and hasattr(last, "nodelist") else ""
        if name in ("hspace", "vspace", "rule", "label", "centering", "raggedright"):
            return ""
        return _text(self.plain.nodelist_to_text([node]))


def _column_count(spec: str) -> int | None:
    """Columns of a tabular column specification (``l|c p{2cm} *{3}{r}``), None if unsure."""
    count = 0
    k = 0

    def group(position: int) -> tuple[str, int]:
        if position >= len(spec) or spec[position] != "{":
            raise ValueError
        depth = 0
        for end in range(position, len(spec)):
            depth += {"{": 1, "}": -1}.get(spec[end], 0)
            if depth == 0:
                return spec[position + 1 : end], end + 1
        raise ValueError

    try:
        while k < len(spec):
            char = spec[k]
            if char in " |:\t\n":
                k += 1
            elif char in "@!><":
                _, k = group(k + 1)
            elif char in "pmbwWX" and k + 1 < len(spec) and spec[k + 1] == "{":
                _, k = group(k + 1)
                if char in "wW":
                    _, k = group(k)
                count += 1
            elif char == "*":
                times, k = group(k + 1)
                inner, k = group(k)
                repeated = _column_count(inner)
                if repeated is None:
                    return None
                count += int(times) * repeated
            elif char.isalpha():
                count += 1
                k += 1
            else:
                return None
    except ValueError:
        return None
    return count


def _find_environment(nodes: Sequence[Any]) -> Any:
    from pylatexenc import latexwalker as lw

    for node in nodes:
        if isinstance(node, lw.LatexEnvironmentNode):
            if node.environmentname in _ENVIRONMENTS:
                return node
            found = _find_environment(node.nodelist)
            if found is not None:
                return found
        elif isinstance(node, lw.LatexGroupNode):
            found = _find_environment(node.nodelist)
            if found is not None:
                return found
    return None


@dataclass
class _RawCell:
    nodes: list[Any] = field(default_factory=list)


_LONGTABLE_MARKERS = ("endfirsthead", "endhead", "endfoot", "endlastfoot")
_RULE_ARGUMENTS = re.compile(r"\s*(?:\([^)]*\)\s*)?")  # unambiguous: linear
#: Braces, environments and comments, for the nesting depth of a LaTeX text.
_NESTING = re.compile(r"\\(?:begin|end)\b|\\.|[{}]|%[^\n]*", re.DOTALL)


def read_latex(text: str, *, latex_math: str = "source") -> TableGrid:
    """A LaTeX tabular (``latex_math``: math as its source, or as the text it shows)."""
    return _read_latex(text, latex_math)


def _read_latex(text: str, math: str, *, fast: bool = True) -> TableGrid:
    """:func:`read_latex`; ``fast=False`` reads with pylatexenc's walker only (the reference
    the linear reader of :mod:`~parsescore.shared.tables.latex_scan` is tested against)."""
    convert = _LatexText(math)
    scanned = _scan_latex(text, convert) if fast else None  # nests at most 50 deep
    try:
        if scanned is None:
            _check_nesting(text)
            limits.check_latex_walk(len(text))
            scanned = _walk_latex(text, convert)
        return _latex_grid(text, scanned, math)
    except RecursionError:  # pylatexenc's walker recurses once per nested group
        raise InputError(
            "the LaTeX is nested too deeply to read (braces, groups or environments)"
        ) from None


def _check_nesting(text: str) -> None:
    """Refuse LaTeX nested deeper than ``PARSESCORE_MAX_LATEX_DEPTH`` (braces and
    environments), naming where: the walker would run out of stack."""
    limit = limits.latex_depth()
    if text.count("{") + text.count("\\begin") <= limit:
        return  # cannot be deeper
    depth = 0
    for match in _NESTING.finditer(text):
        token = match.group(0)
        if token == "{" or token == "\\begin":
            depth += 1
            if depth > limit:
                raise _fail(
                    f"the LaTeX is nested more than {limit} deep (braces and environments), "
                    "the limit (PARSESCORE_MAX_LATEX_DEPTH)",
                    text,
                    match.start(),
                )
        elif token == "}" or token == "\\end":
            depth = max(depth - 1, 0)


def _scan_latex(text: str, convert: _LatexText) -> latex_scan.Scanned | None:
    """The tabular read by the linear reader, or None where the walker must read it. What is
    around the tabular (a table environment, a caption, prose) is read by the walker with an
    empty tabular in its place: whether it parses and which tabular is the first are its
    answers."""
    scanned = latex_scan.scan(text, convert.scanned, _argument_spec)
    if scanned is None:
        return None
    begin, end = scanned.environment_at, scanned.end
    if text[:begin].strip() or text[end:].strip():
        from pylatexenc import latexwalker as lw

        outside = len(text) - (end - begin)
        if outside > limits.latex_walk_limit():
            return None
        probe = f"{text[:begin]}\\begin{{tabular}}{{l}}\\end{{tabular}}{text[end:]}"
        try:
            nodes, _, _ = lw.LatexWalker(
                probe, latex_context=_latex_context(), tolerant_parsing=False
            ).get_latex_nodes()
        except (lw.LatexWalkerError, RecursionError):
            return None
        found = _find_environment(nodes)
        if found is None or found.pos != begin:
            return None
    return scanned


@functools.lru_cache(maxsize=4096)  # bounded: an answer may name any number of macros
def _argument_spec(name: str) -> str:
    """The arguments pylatexenc reads after the macro ``\\name`` ('' for none; ``?`` for a
    parser that is not the standard one)."""
    from pylatexenc.macrospec import MacroStandardArgsParser

    spec = _latex_context().get_macro_spec(name)
    if spec is None or spec.args_parser is None:
        return ""
    parser = spec.args_parser
    return str(parser.argspec) if isinstance(parser, MacroStandardArgsParser) else "?"


def _walk_latex(text: str, convert: _LatexText) -> latex_scan.Scanned:
    """The tabular read from pylatexenc's nodes."""
    from pylatexenc import latexwalker as lw

    try:
        nodes, _, _ = lw.LatexWalker(
            text, latex_context=_latex_context(), tolerant_parsing=False
        ).get_latex_nodes()
    except lw.LatexWalkerError as exc:
        message = str(exc).splitlines()[0].split(" @(")[0]
        raise _fail(f"malformed LaTeX: {message}", text, getattr(exc, "pos", None)) from None
    environment = _find_environment(nodes)
    if environment is None:
        raise InputError(
            "no LaTeX table found: expected \\begin{tabular} (or tabular*, tabularx, "
            "longtable, array)"
        )
    arguments = environment.nodeargd.argnlist if environment.nodeargd else []
    spec = [a for a in arguments if a is not None]
    scanned = latex_scan.Scanned(spec[-1].latex_verbatim()[1:-1] if spec else None, environment.pos)
    rows: list[tuple[list[_RawCell], int]] = []  # each row's cells and where it starts
    section: list[int] = []  # rows since the previous longtable marker
    has_first_head = any(
        isinstance(n, lw.LatexMacroNode) and n.macroname == "endfirsthead"
        for n in environment.nodelist
    )
    cells, start = [_RawCell()], environment.pos
    caption = False  # the current row holds a \\caption or \\label
    skipping_rule_arguments = False
    for node in environment.nodelist:
        if skipping_rule_arguments:  # \cmidrule(lr){2-3}
            if isinstance(node, lw.LatexCharsNode) and _RULE_ARGUMENTS.fullmatch(node.chars):
                continue
            skipping_rule_arguments = False
            if isinstance(node, lw.LatexGroupNode):
                continue
        row_empty = len(cells) == 1 and _blank(cells[0].nodes)
        if isinstance(node, lw.LatexSpecialsNode) and node.specials_chars == "&":
            cells.append(_RawCell())
        elif isinstance(node, lw.LatexMacroNode) and node.macroname in ("\\", "tabularnewline"):
            if not (row_empty and caption):  # a caption's own line (longtable) is no row
                section.append(len(rows))
                rows.append((cells, start))
            cells, start, caption = [_RawCell()], node.pos, False
        elif isinstance(node, lw.LatexMacroNode) and node.macroname in _RULES and row_empty:
            scanned.rules.append(len(rows))
            skipping_rule_arguments = node.macroname == "cmidrule"
        elif isinstance(node, lw.LatexMacroNode) and node.macroname in _LONGTABLE_MARKERS:
            name = node.macroname
            if name == "endfoot" or (name == "endhead" and has_first_head):
                scanned.dropped.update(section)  # repeated on every page, not rows of the table
            elif name == "endlastfoot":
                scanned.last_foot.extend(section)
            section = []
        elif isinstance(node, lw.LatexMacroNode) and node.macroname in ("caption", "label"):
            caption = True
        else:
            cells[-1].nodes.append(node)
    if not all(_blank(c.nodes) for c in cells):
        rows.append((cells, start))  # a last row without \\
    scanned.rows = [([_cell_of_nodes(c, convert) for c in row], at) for row, at in rows]
    return scanned


def _cell_of_nodes(raw: _RawCell, convert: _LatexText) -> latex_scan.LatexCell:
    """A cell read from pylatexenc's nodes: its HTML, whether it is blank, its span macro."""
    nodes = [n for n in raw.nodes if n is not None]
    content = nodes
    span = None
    macro = _first_macro(nodes)
    if macro is not None and macro.macroname in ("multicolumn", "multirow"):
        args = [a for a in macro.nodeargd.argnlist if a is not None]
        inner = None
        content = _nodes_of(args[-1])
        if macro.macroname == "multicolumn":
            inner_macro = _first_macro(content)
            if inner_macro is not None and inner_macro.macroname == "multirow":
                inner_args = [a for a in inner_macro.nodeargd.argnlist if a is not None]
                inner = (inner_args[0].latex_verbatim(), inner_args[0].pos)
                content = _nodes_of(inner_args[-1])
        span = latex_scan.SpanMacro(
            macro.macroname, macro.pos, args[0].latex_verbatim(), args[0].pos, inner
        )
    return latex_scan.LatexCell(convert(content), _blank(nodes), span)


def _nodes_of(argument: Any) -> list[Any]:
    """A macro argument's nodes (a group's, or the one node an argument without braces is)."""
    nodelist = getattr(argument, "nodelist", None)
    return list(nodelist) if nodelist is not None else [argument]


def _blank(nodes: Sequence[Any]) -> bool:
    from pylatexenc import latexwalker as lw

    return all(
        node is None
        or isinstance(node, lw.LatexCommentNode)
        or (isinstance(node, lw.LatexCharsNode) and not node.chars.strip())
        for node in nodes
    )


def _latex_grid(text: str, scanned: latex_scan.Scanned, math: str = "source") -> TableGrid:
    rows = scanned.rows
    last_foot = set(scanned.last_foot)
    keep = [k for k in range(len(rows)) if k not in scanned.dropped and k not in last_foot]
    keep += [k for k in scanned.last_foot if k not in scanned.dropped]
    if not keep:
        raise InputError("the LaTeX table has no rows")
    columns = _column_count(scanned.spec) if scanned.spec is not None else None
    grid = _Grid()
    covered: dict[tuple[int, int], int] = {}  # (row, column) -> the multirow covering it
    upward: list[tuple[int, int, int]] = []  # (row, column, n) of negative \multirow
    for r, k in enumerate(keep):
        raw_cells, row_start = rows[k]
        row: list[_Cell] = []
        column = 0
        for raw in raw_cells:
            colspan = rowspan = 1
            position = row_start
            macro = raw.span
            if macro is not None:
                position = macro.position
                number = _int_arg(macro.number, macro.number_at, text)
                if macro.name == "multicolumn":
                    colspan = _span(number, "\\multicolumn")
                    if macro.inner is not None:
                        rowspan = _int_arg(*macro.inner, text)
                else:
                    rowspan = number
                if rowspan < 0:
                    upward.append((r, column, -rowspan))
                    rowspan = 1
                rowspan = _span(rowspan, "\\multirow")
            if covered and raw.blank and (r, column) in covered:
                column += colspan  # the empty cell under a \multirow
                continue
            html_text = raw.html
            if math == "text":
                html_text = _minus_of(html_text.strip())
            row.append(_Cell(" ".join(html_text.split()), colspan, rowspan))
            if rowspan > 1:
                for dr in range(1, rowspan):
                    for dc in range(colspan):
                        covered[(r + dr, column + dc)] = r
            column += colspan
            if columns is not None and column > columns:
                raise _fail(
                    f"row {r + 1} has {column} columns, more than the {columns} of the column "
                    "specification",
                    text,
                    position,
                )
        grid.rows.append(row)
    for r, column, n in upward:  # \multirow{-n}: the cell spans the n rows ending here
        top = r - n + 1
        if top < 0:
            raise InputError(f"\\multirow{{-{n}}} in row {r + 1} reaches above the table")
        cell = _cell_at(grid.rows[r], column)
        if cell is None:
            continue
        for above in range(top, r):
            found = _cell_at(grid.rows[above], column)
            if found is not None and not found.html:
                grid.rows[above].remove(found)
        grid.rows[r].remove(cell)
        cell.rowspan = _span(n, "\\multirow")
        _insert_at(grid.rows[top], column, cell)
    # header: the rows before the first rule that follows a row and precedes another row
    kept = sorted(keep)
    for seen in scanned.rules:
        before = bisect.bisect_left(kept, seen)  # the kept rows before the rule
        if 0 < before < len(keep):
            grid.header_rows = before
            break
    return grid.table("latex")


#: A hyphen-minus written as a minus sign: before a number, not inside a word or a range.
_HYPHEN_MINUS = re.compile(r"(?<![\w.])-(?=\.?\d)")


def _minus_of(cell: str) -> str:
    """The cell with its math minus signs as the minus sign the rest of the cell uses: the
    hyphen-minus where the cell writes negative numbers with it and never with U+2212, else
    U+2212 (what TeX prints, and what PubTabNet and PubTables-1M truth write for negative
    numbers: 13 of 14 in the bundled samples, 408 of 420 in grits_10)."""
    if _MATH_MINUS not in cell:
        return cell
    rest = cell.replace(_MATH_MINUS, "")
    sign = "-" if "\u2212" not in rest and _HYPHEN_MINUS.search(rest) else "\u2212"
    return cell.replace(_MATH_MINUS, sign)


def _first_macro(nodes: Sequence[Any]) -> Any:
    from pylatexenc import latexwalker as lw

    for node in nodes:
        if isinstance(node, lw.LatexCharsNode) and not node.chars.strip():
            continue
        if isinstance(node, lw.LatexCommentNode):
            continue
        return node if isinstance(node, lw.LatexMacroNode) else None
    return None


def _int_arg(verbatim: str, position: int, text: str) -> int:
    """A ``\\multicolumn``/``\\multirow`` number, from its argument as written."""
    value = verbatim.strip("{} \t\n")
    try:
        return int(value)
    except ValueError:
        message = f"expected a number of rows or columns, found {value[:40]!r}"
        raise _fail(message, text, position) from None


def _cell_at(row: list[_Cell], column: int) -> _Cell | None:
    position = 0
    for cell in row:
        if position == column:
            return cell
        position += cell.colspan
    return None


def _insert_at(row: list[_Cell], column: int, cell: _Cell) -> None:
    position = 0
    for index, other in enumerate(row):
        if position >= column:
            row.insert(index, cell)
            return
        position += other.colspan
    row.append(cell)


# -- CSV / TSV ----------------------------------------------------------------------------------


def read_csv(text: str, *, header: bool = True) -> TableGrid:
    """Comma-separated rows (``header``: the first row is a header row)."""
    return _delimited(text, ",", header, "csv")


def read_tsv(text: str, *, header: bool = True) -> TableGrid:
    """Tab-separated rows (``header``: the first row is a header row)."""
    return _delimited(text, "\t", header, "tsv")


def _delimited(text: str, delimiter: str, header: bool, format: str) -> TableGrid:
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, strict=True)
    grid = _Grid()
    width: int | None = None
    try:
        for row in reader:
            if not row or not any(cell.strip() for cell in row):
                continue
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise InputError(
                    f"{len(row)} cells where the first row has {width}",
                    where=f"line {reader.line_num}",
                )
            grid.rows.append([_Cell(_text(cell)) for cell in row])
    except csv.Error as exc:
        raise InputError(f"malformed CSV: {exc}", where=f"line {reader.line_num}") from None
    if not grid.rows:
        raise InputError("no rows in the CSV/TSV table")
    grid.header_rows = 1 if header else 0
    return grid.table(format)


# -- OTSL / DocTags -----------------------------------------------------------------------------

_OTSL_KNOWN = {"otsl", "fcel", "ecel", "lcel", "ucel", "xcel", "nl", "ched", "rhed", "srow"}
_LESS_THAN = "\ue000"  # a private-use character standing for "<" in cell text


def read_otsl(text: str) -> TableGrid:
    """OTSL tokens (docling-core reads them)."""
    return _otsl(text, "otsl")


def read_doctags(text: str) -> TableGrid:
    """DocTags: the first ``<otsl>`` block (``<loc_…>`` tokens ignored)."""
    return _otsl(text, "doctags")


def _otsl(text: str, format: str) -> TableGrid:
    body = text
    if format == "doctags":
        opening = text.find("<otsl>")
        closing = -1 if opening == -1 else text.find("</otsl>", opening + 6)
        if closing == -1:
            raise InputError("no <otsl> table in the DocTags")
        body = _LOC.sub("", text[opening : closing + 7])
    token = _OTSL_UNKNOWN.search(body)
    if token is not None:
        offset = token.start() + (text.find(body) if body in text else 0)
        raise _fail(f"unknown OTSL token <{token.group(2)}>", text, offset)
    body = _LOC.sub("", body)
    if "<otsl>" not in body:
        body = f"<otsl>{body}</otsl>"
    # a "<" of the cell text ("p<0.05") is not a token: hidden from the tokenizer
    body = _NOT_A_TOKEN.sub(_LESS_THAN, body)
    cells, num_rows = otsl_cells(body)
    header_rows = 0
    for line in body.replace("<otsl>", "").replace("</otsl>", "").split("<nl>"):
        if "<ched>" in line:
            header_rows += 1
        else:
            break
    grid = _Grid(header_rows=header_rows)
    by_row: dict[int, list[OtslCell]] = {}
    for cell in cells:
        by_row.setdefault(cell.row, []).append(cell)
    for r in range(num_rows):
        grid.rows.append(
            [
                _Cell(
                    _text(_unhidden(cell.text.strip())),
                    _span(cell.col_span, "column span"),
                    _span(cell.row_span, "row span"),
                )
                for cell in sorted(by_row.get(r, []), key=lambda c: c.column)
            ]
        )
    grid.header_rows = min(grid.header_rows, len(grid.rows))
    return grid.table(format)


def _unhidden(text: str) -> str:
    """Cell text with the ``<`` hidden from the tokenizer back."""
    return text.replace(_LESS_THAN, "<") if _LESS_THAN in text else text


_LOC = re.compile(r"<loc_\d+>")
#: The first token that is neither OTSL's nor a location.
_OTSL_UNKNOWN = re.compile(rf"<(/?)(?!(?:{'|'.join(sorted(_OTSL_KNOWN))})>|loc_)([a-z_]+[0-9]*)>")
_NOT_A_TOKEN = re.compile(rf"<(?!/?(?:{'|'.join(sorted(_OTSL_KNOWN))})>)")
_ANGLED = re.compile(r"(<[^>]+>)")
#: The tokens that make the table's structure; the first five open a cell.
_OPENS = frozenset(("<fcel>", "<ecel>", "<ched>", "<rhed>", "<srow>"))
_STRUCTURE = _OPENS | {"<lcel>", "<ucel>", "<xcel>", "<nl>"}
_SPANNED = frozenset(("<lcel>", "<ucel>", "<xcel>"))
_OTSL_FRAME = frozenset(("<otsl>", "</otsl>"))
_LEFT = frozenset(("<lcel>", "<xcel>"))
_UP = frozenset(("<ucel>", "<xcel>"))


class OtslCell(typing.NamedTuple):
    """One cell of an OTSL table: where it starts, its spans and its text."""

    row: int
    column: int
    row_span: int
    col_span: int
    text: str


def otsl_cells(body: str) -> tuple[list[OtslCell], int]:
    """The cells of an OTSL sequence and its number of rows, as docling-core's
    ``parse_otsl_table_content`` reads them (its rules kept, quirks included: a ``<fcel>``
    without text takes the next token as its text; rows are the runs of tokens between
    ``<nl>``s, empty ones not counted), in one pass and without its pydantic models
    (``tests/table/test_table_reader_parity.py`` compares the two). Where docling-core fails with an
    IndexError (a full cell at the very end, a span running past its row or the table), an
    InputError says so."""
    parts: list[str] = []  # tokens and texts, blank texts dropped (text holds no "<")
    rows: list[list[str]] = [[]]  # the structure tokens of each row, empty rows dropped
    for part in _ANGLED.split(body):
        if part[:1] != "<":
            if part.strip():
                parts.append(part)
        elif part not in _OTSL_FRAME and not part.startswith("<loc_"):
            parts.append(part)
            if part == "<nl>":
                if rows[-1]:
                    rows.append([])
            elif part in _STRUCTURE:
                rows[-1].append(part)
    if not rows[-1]:
        rows.pop()
    cells: list[OtslCell] = []
    r = c = 0
    opens, spanned = _OPENS, _SPANNED
    for i, part in enumerate(parts):
        if part[0] != "<":
            continue  # text: read with the cell before it
        if part in opens:
            row_span = col_span = 1
            text = ""
            right = 1
            if part != "<ecel>":
                if i + 1 >= len(parts):
                    raise InputError(
                        f"the OTSL ends with {part} and no text after it (an empty cell is <ecel>)"
                    )
                text = parts[i + 1]
                right = 2
            next_right = parts[i + right] if i + right < len(parts) else ""
            next_bottom = ""
            if r + 1 < len(rows) and c < len(rows[r + 1]):
                next_bottom = rows[r + 1][c]
            if next_right in _LEFT:
                col_span += _otsl_run_right(rows, r, c + 1)
            if next_bottom in _UP:
                row_span += _otsl_run_down(rows, r + 1, c)
            cells.append(OtslCell(r, c, row_span, col_span, text.strip()))
            c += 1
        elif part in spanned:
            c += 1
        elif part == "<nl>":
            r += 1
            c = 0
    return cells, len(rows)


def _otsl_spill(what: str, r: int, c: int) -> InputError:
    return InputError(
        f"malformed OTSL: the {what} of the cell in row {r + 1}, column {c + 1} runs past its "
        "row or the table (expected <lcel>/<ucel>/<xcel> only where a cell spans)"
    )


def _otsl_run_right(rows: list[list[str]], r: int, c: int) -> int:
    """How many ``<lcel>``/``<xcel>`` follow from column ``c`` of row ``r``."""
    if r >= len(rows) or c >= len(rows[r]):
        raise _otsl_spill("column span", r, c - 1)
    row = rows[r]
    span = 0
    while row[c] in _LEFT:
        c += 1
        span += 1
        if c >= len(row):
            break
    return span


def _otsl_run_down(rows: list[list[str]], r: int, c: int) -> int:
    """How many ``<ucel>``/``<xcel>`` follow from row ``r`` down column ``c``."""
    span = 0
    top = r - 1
    while True:
        if c >= len(rows[r]):
            raise _otsl_spill("row span", top, c)
        if rows[r][c] not in _UP:
            return span
        r += 1
        span += 1
        if r >= len(rows):
            return span


def unread_formats(texts: dict[str, str]) -> dict[str, list[str]]:
    """The tables the reference's HTML rule scores 0 because they are written in another format:
    ``{what they look like: [names]}``. A cheap look at the text, not a parse (it is only for the
    warning that says so)."""
    found: dict[str, list[str]] = {}
    for name, text in texts.items():
        head = text[:4096].lower()
        if "<body" in head or "<html" in head:
            continue
        if "<table" in text.lower():
            kind = "bare <table> fragments"
        elif _OTSL.search(head):
            kind = "OTSL/DocTags"
        elif _LATEX.search(text):
            kind = "LaTeX"
        elif "|" in text and _delimiter_row(text):
            kind = "Markdown"
        else:
            continue
        found.setdefault(kind, []).append(name)
    return found
