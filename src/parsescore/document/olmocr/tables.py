"""The tables olmOCR-bench finds in a page's Markdown, as cell graphs: each cell's text, which
cells are headings, and each cell's neighbours up, down, left and right (several across spans).

Markdown tables are runs of lines holding a ``|``; HTML tables are read as BeautifulSoup's
``html.parser`` tree builder reads them (Python's ``html.parser`` tokens, no implicit closing of
elements, void elements closed at once, whitespace-only strings collapsed, entity and numeric
references resolved as BeautifulSoup resolves them, text inside ``script``, ``style``,
``template``, ``rt`` and ``rp`` and comments left out of a cell's text, CDATA kept), so that a
malformed table gives the same cells as in the reference.

>>> [t.cells for t in markdown_tables("| a | b |\\n|---|---|\\n| 1 | 2 |")]
[{(0, 0): 'a', (0, 1): 'b', (1, 0): '1', (1, 1): '2'}]
>>> table = html_tables("<table><tr><th colspan=2>h</th></tr><tr><td>x</td><td>y</td></tr>")[0]
>>> sorted(table.down[(0, 0)]), table.headings
([(1, 0), (1, 1)], {(0, 0)})
"""

from __future__ import annotations

import html.entities
import re
from dataclasses import dataclass
from html.parser import HTMLParser

__all__ = ["CellGraph", "html_tables", "markdown_tables"]

Cell = tuple[int, int]


@dataclass(frozen=True)
class CellGraph:
    """One table: cell texts by (row, column) of their top-left slot, heading cells, and the
    four neighbour relations."""

    cells: dict[Cell, str]
    headings: set[Cell]
    up: dict[Cell, set[Cell]]
    down: dict[Cell, set[Cell]]
    left: dict[Cell, set[Cell]]
    right: dict[Cell, set[Cell]]

    def _walk(self, start: Cell, relation: dict[Cell, set[Cell]]) -> set[Cell]:
        """The heading cells reached from ``start`` along ``relation``, or where the walk ends
        when it meets none."""
        headings: set[Cell] = set()
        ends: set[Cell] = set()
        todo = {start}
        while todo:
            cell = todo.pop()
            if cell in self.headings:
                headings.add(cell)
            following = relation.get(cell)
            if not following:
                ends.add(cell)
            else:
                todo |= following
        headings.discard(start)
        ends.discard(start)
        return headings or ends

    def top_headings(self, cell: Cell) -> set[Cell]:
        return self._walk(cell, self.up)

    def left_headings(self, cell: Cell) -> set[Cell]:
        return self._walk(cell, self.left)


@dataclass(frozen=True)
class _Spec:
    text: str
    rowspan: int
    colspan: int
    heading: bool


def _span(value: str | None) -> int:
    """A rowspan/colspan attribute as a positive integer (1 when absent or not a number)."""
    if value in (None, ""):
        return 1
    try:
        span = int(value)
    except (TypeError, ValueError):
        return 1
    return span if span > 0 else 1


def _graph(rows: list[list[_Spec]]) -> CellGraph | None:
    """Lay the cells out on the grid (spans occupy slots; a short row leaves holes) and link
    each cell to the first occupied slot past its edge in every direction."""
    if not rows:
        return None
    cells: dict[Cell, str] = {}
    headings: set[Cell] = set()
    extent: dict[Cell, tuple[int, int]] = {}
    grid: list[list[Cell | None]] = []
    pending: list[tuple[Cell, int] | None] = []
    for r, specs in enumerate(rows):
        line: list[Cell | None] = []
        c = 0
        k = 0
        while k < len(specs) or c < len(pending):
            if c < len(pending) and pending[c] is not None:
                owner, remaining = pending[c]  # type: ignore[misc]
                line.append(owner)
                pending[c] = (owner, remaining - 1) if remaining > 1 else None
                c += 1
                continue
            if k >= len(specs):
                if c < len(pending):
                    line.append(None)
                    c += 1
                    continue
                break
            spec = specs[k]
            k += 1
            cell = (r, c)
            cells[cell] = spec.text
            if spec.heading:
                headings.add(cell)
            extent[cell] = (spec.rowspan, spec.colspan)
            if len(pending) < c + spec.colspan:
                pending.extend([None] * (c + spec.colspan - len(pending)))
            for offset in range(spec.colspan):
                line.append(cell)
                pending[c + offset] = (cell, spec.rowspan - 1) if spec.rowspan > 1 else None
            c += spec.colspan
        grid.append(line)
    while any(p is not None for p in pending):
        line = []
        for c, entry in enumerate(pending):
            if entry is None:
                line.append(None)
                continue
            owner, remaining = entry
            line.append(owner)
            pending[c] = (owner, remaining - 1) if remaining > 1 else None
        grid.append(line)
    if not cells:
        return None
    used = [c for line in grid for c, v in enumerate(line) if v is not None]
    if not used:
        return None
    width = max(used) + 1
    for line in grid:
        if len(line) < width:
            line.extend([None] * (width - len(line)))
        else:
            del line[width:]
    height = len(grid)
    up: dict[Cell, set[Cell]] = {cell: set() for cell in cells}
    down: dict[Cell, set[Cell]] = {cell: set() for cell in cells}
    left: dict[Cell, set[Cell]] = {cell: set() for cell in cells}
    right: dict[Cell, set[Cell]] = {cell: set() for cell in cells}

    columns = [[line[cc] for line in grid] for cc in range(width)]

    def first(cell: Cell, slots: list[Cell | None], start: int, stop: int, step: int) -> \
            Cell | None:  # fmt: skip
        """The first slot of ``slots[start:stop:step]`` held by another cell (scanned lazily:
        the nearest one is usually next door)."""
        for index in range(start, stop, step):
            found = slots[index]
            if found is not None and found != cell:
                return found
        return None

    for cell, (rowspan, colspan) in extent.items():
        r0, c0 = cell
        r1, c1 = r0 + rowspan - 1, c0 + colspan - 1
        for rr in range(r0, r1 + 1):
            hit = first(cell, grid[rr], c1 + 1, width, 1)
            if hit is not None:
                right[cell].add(hit)
            hit = first(cell, grid[rr], c0 - 1, -1, -1)
            if hit is not None:
                left[cell].add(hit)
        for cc in range(c0, c1 + 1):
            hit = first(cell, columns[cc], r1 + 1, height, 1)
            if hit is not None:
                down[cell].add(hit)
            hit = first(cell, columns[cc], r0 - 1, -1, -1)
            if hit is not None:
                up[cell].add(hit)
    return CellGraph(cells, headings, up, down, left, right)


# --- Markdown ---


def markdown_tables(text: str) -> list[CellGraph]:
    """Every run of two or more lines holding a ``|``; its first row and first column are
    headings."""
    found: list[CellGraph] = []
    block: list[str] = []
    for line in [*text.strip().split("\n"), ""]:
        if "|" in line:
            block.append(line)
            continue
        if len(block) >= 2:
            rows = _markdown_rows(block)
            if rows:
                graph = _graph([[_Spec(t, 1, 1, r == 0 or c == 0) for c, t in enumerate(row)]
                                for r, row in enumerate(rows)])  # fmt: skip
                if graph is not None:
                    found.append(graph)
        block = []
    return found


def _markdown_rows(lines: list[str]) -> list[list[str]]:
    separator = None
    for i, line in enumerate(lines):
        bare = line.replace("|", "").strip()
        if bare and all(c in "- :" for c in bare):
            separator = i
            break
    rows = []
    for i, line in enumerate(lines):
        if i == separator or (line.strip() and all(c in "- :|" for c in line)):
            continue
        cells = [cell.strip() for cell in line.split("|")]
        if cells and cells[0] == "":
            cells = cells[1:]
        if cells and cells[-1] == "":
            cells = cells[:-1]
        if cells:
            rows.append(cells)
    return rows


# --- HTML, as BeautifulSoup(markup, "html.parser") builds it ---

_VOID = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "menuitem",
    "meta", "param", "source", "track", "wbr", "basefont", "bgsound", "command", "frame",
    "image", "isindex", "nextid", "spacer",
})  # fmt: skip
_KEEP_WHITESPACE = frozenset({"pre", "textarea"})
_OWN_STRINGS = frozenset({"script", "style", "template", "rt", "rp"})
_ASCII_SPACES = frozenset("\x20\x0a\x09\x0c\x0d")
_ENTITIES = {k[:-1]: v for k, v in html.entities.html5.items() if k.endswith(";")}
_NONCHARACTERS = frozenset(
    [0xFFFE, 0xFFFF] + [p * 0x10000 + 0xFFFE for p in range(1, 17)]
    + [p * 0x10000 + 0xFFFF for p in range(1, 17)]
)  # fmt: skip


class _Node:
    __slots__ = ("attrs", "children", "name", "parent")

    def __init__(self, name: str, attrs: dict[str, str], parent: _Node | None) -> None:
        self.name = name
        self.attrs = attrs
        self.parent = parent
        #: child nodes, and strings as (text, counted in get_text)
        self.children: list[_Node | tuple[str, bool]] = []


def _numeric(name: str) -> str:
    """A numeric character reference's text as BeautifulSoup resolves it (Windows-1252 for
    0x80-0x9F, U+FFFD for NUL, surrogates and beyond U+10FFFF; digits after the number kept)."""
    base, digits = 10, "0123456789"
    if name[:1] in ("x", "X"):
        name, base, digits = name[1:], 16, "0123456789abcdef"
    try:
        value = int(name, base)
        extra = ""
    except ValueError:
        k = 0
        while k < len(name) and name[k] in digits:
            k += 1
        if k == 0:
            return name
        value, extra = int(name[:k], base), name[k:]
    if value == 0 or value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
        return "\ufffd" + extra
    if 0xFDD0 <= value <= 0xFDEF or value in _NONCHARACTERS:
        return chr(value) + extra
    if 0x80 <= value <= 0x9F:
        try:
            return bytes([value]).decode("cp1252") + extra
        except UnicodeDecodeError:
            pass
    return chr(value) + extra


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.root = _Node("[document]", {}, None)
        self.stack = [self.root]
        self.pending: list[str] = []
        self.closed_void: list[str] = []
        self.open_counts: dict[str, int] = {}
        self.keep_whitespace = 0
        self.own_strings: list[_Node] = []

    def flush(self, counted: bool = True) -> None:
        if not self.pending:
            return
        data = "".join(self.pending)
        self.pending = []
        if not self.keep_whitespace and all(ch in _ASCII_SPACES for ch in data):
            data = "\n" if "\n" in data else " "
        self.stack[-1].children.append((data, counted and not self.own_strings))

    def push(self, name: str, attrs: dict[str, str]) -> None:
        node = _Node(name, attrs, self.stack[-1])
        self.stack[-1].children.append(node)
        self.stack.append(node)
        self.open_counts[name] = self.open_counts.get(name, 0) + 1
        if name in _KEEP_WHITESPACE:
            self.keep_whitespace += 1
        if name in _OWN_STRINGS:
            self.own_strings.append(node)

    def pop(self) -> None:
        node = self.stack.pop()
        self.open_counts[node.name] -= 1
        if node.name in _KEEP_WHITESPACE:
            self.keep_whitespace -= 1
        if self.own_strings and self.own_strings[-1] is node:
            self.own_strings.pop()

    def close_tag(self, name: str) -> None:
        self.flush()
        for k in range(len(self.stack) - 1, 0, -1):
            if not self.open_counts.get(name):
                break
            found = self.stack[k].name == name
            self.pop()
            if found:
                break

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.start(tag, attrs, True)

    def start(self, tag: str, attrs: list[tuple[str, str | None]], void_closes: bool) -> None:
        self.flush()
        values: dict[str, str] = {}
        for key, value in attrs:
            values[key] = "" if value is None else value
        self.push(tag, values)
        if void_closes and tag in _VOID:
            self.close_tag(tag)
            self.closed_void.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.start(tag, attrs, False)
        self.close_tag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.closed_void:
            self.closed_void.remove(tag)
        else:
            self.close_tag(tag)

    def handle_data(self, data: str) -> None:
        self.pending.append(data)

    def handle_charref(self, name: str) -> None:
        self.pending.append(_numeric(name))

    def handle_entityref(self, name: str) -> None:
        self.pending.append(_ENTITIES.get(name, "&" + name))

    def _special(self, data: str) -> None:
        self.flush()
        self.pending.append(data)
        self.flush(counted=False)

    def handle_comment(self, data: str) -> None:
        self._special(data)

    def handle_decl(self, decl: str) -> None:
        self._special(decl)

    def unknown_decl(self, data: str) -> None:
        if data.upper().startswith("CDATA["):  # CData: counted in get_text, as text is
            self.flush()
            self.pending.append(data[len("CDATA[") :])
            self.flush_as_cdata()
            return
        self._special(data)

    def flush_as_cdata(self) -> None:
        data = "".join(self.pending)
        self.pending = []
        if not self.keep_whitespace and all(ch in _ASCII_SPACES for ch in data):
            data = "\n" if "\n" in data else " "
        self.stack[-1].children.append((data, True))

    def handle_pi(self, data: str) -> None:
        self._special(data)


#: the tags of a table written as plain markup (lower case, no attributes)
_PLAIN_TAG = re.compile(r"<(/?)(table|thead|tbody|tfoot|tr|th|td|br)(/?)>")


def _parse(text: str, *, plain: bool = True) -> _TreeBuilder:
    """The page's tree as BeautifulSoup's html.parser builder makes it. Where every ``<`` opens
    a plain table tag and there is no ``&`` (``plain``), the text is cut at those tags and
    handed to the builder's handlers as HTMLParser would hand it (data between tags when not
    empty, start, end and self-closing tags), without HTMLParser's general tokeniser."""
    builder = _TreeBuilder()
    tags = list(_PLAIN_TAG.finditer(text)) if plain and "&" not in text else None
    if tags is None or len(tags) != text.count("<") or any(t[1] and t[3] for t in tags):
        builder.feed(text)
        builder.close()
        builder.flush()
        return builder
    at = 0
    for tag in tags:
        if tag.start() > at:
            builder.handle_data(text[at : tag.start()])
        if tag[1]:
            builder.handle_endtag(tag[2])
        elif tag[3]:
            builder.handle_startendtag(tag[2], [])
        else:
            builder.handle_starttag(tag[2], [])
        at = tag.end()
    if at < len(text):
        builder.handle_data(text[at:])
    builder.flush()
    return builder


def _descendants(node: _Node, name: str) -> list[_Node]:
    found: list[_Node] = []
    todo: list[_Node] = [node]
    while todo:
        current = todo.pop()
        for child in reversed(current.children):
            if isinstance(child, _Node):
                todo.append(child)
        if current is not node and current.name == name:
            found.append(current)
    return found


def _cell_text(node: _Node) -> str:
    """BeautifulSoup's ``get_text()`` of the cell after its ``<br>`` became newlines."""
    parts: list[str] = []

    def walk(current: _Node) -> None:
        for child in current.children:
            if isinstance(child, _Node):
                if child.name == "br":
                    parts.append("\n")
                else:
                    walk(child)
            elif child[1]:
                parts.append(child[0])

    walk(node)
    return "".join(parts).strip()


def _in_thead(node: _Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.name == "thead":
            return True
        parent = parent.parent
    return False


def html_tables(text: str) -> list[CellGraph]:
    """Every ``<table>`` element (nested ones too, each also inside its parent, whose rows
    include the nested table's rows); ``th`` cells and cells of rows inside ``thead`` are
    headings; ``rowspan="0"`` spans the rest of the table's rows."""
    if "<table" not in text.lower():
        return []
    builder = _parse(text)
    found: list[CellGraph] = []
    for table in _descendants(builder.root, "table"):
        rows = _descendants(table, "tr")
        if not rows:
            continue
        specs: list[list[_Spec]] = []
        for r, row in enumerate(rows):
            heading_row = _in_thead(row)
            line = []
            for cell in row.children:
                if not isinstance(cell, _Node) or cell.name not in ("td", "th"):
                    continue
                raw_rowspan = cell.attrs.get("rowspan")
                rowspan = _span(raw_rowspan)
                if raw_rowspan is not None and raw_rowspan.strip() == "0":
                    rowspan = max(1, len(rows) - r)
                line.append(_Spec(_cell_text(cell), rowspan, _span(cell.attrs.get("colspan")),
                                  cell.name == "th" or heading_row))  # fmt: skip
            specs.append(line)
        graph = _graph(specs)
        if graph is not None:
            found.append(graph)
    return found
