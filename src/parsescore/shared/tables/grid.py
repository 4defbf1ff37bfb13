"""One table as parsescore reads it, whatever it was written in: :class:`TableGrid`, the model
every reader returns (``parsescore.table.read_table`` and the format registry).

A grid is its cells (:class:`GridCell`: the rows and columns each covers, its text as GriTS
compares it, its content as HTML, a box when the input has one), its header rows and the format
it was read as. GriTS reads the cells; TEDS reads HTML — the reference's metric is defined on
it — so a grid also gives the HTML document TEDS scores: the one the table was written in
(``html`` and ``html-fragment``, an HTML table in a Markdown answer: :attr:`TableGrid.source`,
read as the reference reads it, the cells read from it) or, for every other format, the
PubTabNet-convention document of its cells (``<html><body><table>``, ``<thead>`` with the header
rows, ``<tbody>``, every cell a ``<td>`` with ``colspan``/``rowspan`` only).

The cells a reader builds are placed as table-transformer's ``html_to_cells`` places the cells of
that document (each row's cells from the left, each at the first column no cell above covers)
and carry the text it would read (``" ".join(itertext())``), so that GriTS of a grid equals
GriTS of its HTML to the last bit without parsing it (``tests/table/test_table_grid.py`` checks
every reader). A table with a cell whose markup HTML parsers repair (a stray or misnested tag,
nesting deeper than :data:`MAX_NESTING`, a lone surrogate) has its cells read from that document
by lxml, as a table written in HTML has. Both are built only when asked for: a reader's rows are
kept as it wrote them.

Cheap to import (no lxml until an HTML table's cells are asked for).
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from parsescore.core.errors import InputError
from parsescore.shared.tables.limits import check_cells

__all__ = ["MAX_NESTING", "GridCell", "TableGrid"]

#: The deepest inline markup (``<b><i>…``) read without an HTML parser; deeper cells are read
#: back as HTML (libxml2 drops content nested more than 255 deep).
MAX_NESTING = 64


@dataclass(frozen=True, slots=True)
class GridCell:
    """One table cell: the grid rows/columns it covers, its text and optional box.

    Attributes:
        row_nums, column_nums: the rows and columns it covers (0-based).
        text: its text, as GriTS-Con compares it (HTML: ``" ".join(itertext())``).
        bbox: its box ``(x0, y0, x1, y1)`` (cell lists only; GriTS-Loc compares boxes).
        header: whether it is a header cell (``th``, or in ``thead``); GriTS ignores it.
        html: its content as HTML (inline ``<b> <i> <sup> <sub> <br>``), for the document TEDS
            reads; None: its text, escaped. Not part of equality (GriTS does not read it).
    """

    row_nums: tuple[int, ...]
    column_nums: tuple[int, ...]
    text: str = ""
    bbox: tuple[float, float, float, float] | None = None
    header: bool = field(default=False, compare=False)
    html: str | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, where: str = "cell") -> GridCell:
        """From table-transformer's cell dict (``row_nums``, ``column_nums``, ``cell_text``,
        ``bbox``)."""
        try:
            rows = tuple(int(r) for r in data["row_nums"])
            cols = tuple(int(c) for c in data["column_nums"])
        except (KeyError, TypeError, ValueError):
            raise InputError(
                "needs integer lists 'row_nums' and 'column_nums'", where=where
            ) from None
        if not rows or not cols or min(rows) < 0 or min(cols) < 0:
            raise InputError("'row_nums'/'column_nums' must be non-empty and >= 0", where=where)
        text = data.get("cell_text", data.get("text", ""))
        if not isinstance(text, str):
            raise InputError("'cell_text' must be a string", where=where)
        bbox = data.get("bbox")
        box = None
        if bbox is not None:
            try:
                box = tuple(float(v) for v in bbox)
            except (TypeError, ValueError):
                raise InputError("'bbox' must be 4 numbers", where=where) from None
            if len(box) != 4:
                raise InputError("'bbox' must be 4 numbers", where=where)
        return cls(rows, cols, text, box, bool(data.get("header", False)))  # type: ignore[arg-type]


#: One cell as a reader writes it: its content as HTML, its column span and its row span.
RowCell = tuple[str, int, int]


@dataclass(frozen=True)
class TableGrid:
    """One table, whatever it was written in (see the module).

    Made by the readers (:func:`parsescore.table.read_table`), or with :meth:`from_rows`,
    :meth:`from_html` or :meth:`from_cells`.

    Attributes:
        format: the format it was read as (a name of the format registry, or ``cells``).
        source: the HTML document as written, for a table read from HTML: TEDS reads it as the
            reference does and :attr:`cells` are read from it. None for other formats.
        rows: the table as a reader of another format built it: each row's cells from the left,
            each ``(content as HTML, colspan, rowspan)`` (:meth:`from_rows`).
        given_cells: the cells of a table given as cells (table-transformer's cell lists).
        header_rows: how many of the first rows are header rows.
        warnings: what the reader noticed (e.g. several tables in an answer).
    """

    format: str
    source: str | None = None
    rows: tuple[tuple[RowCell, ...], ...] = ()
    given_cells: tuple[GridCell, ...] = ()
    header_rows: int = 0
    warnings: tuple[str, ...] = ()

    @classmethod
    def from_html(cls, text: str, format: str = "html", warnings: Sequence[str] = ()) -> TableGrid:
        """A table written in HTML (``text`` as it is: TEDS reads it as the reference does)."""
        return cls(format, source=text, warnings=tuple(warnings))

    @classmethod
    def from_rows(
        cls,
        rows: Sequence[Sequence[RowCell]],
        *,
        format: str,
        header_rows: int = 0,
        warnings: Sequence[str] = (),
    ) -> TableGrid:
        """A table built row by row: each cell its content as HTML (text escaped; inline
        ``<b> <i> <sup> <sub>`` and ``<br>``), its column span and its row span, each row's cells
        from the left. Refuses a table of more than ``PARSESCORE_MAX_CELLS`` slots."""
        check_cells(sum(colspan * rowspan for row in rows for _, colspan, rowspan in row))
        return cls(
            format,
            rows=tuple(tuple(row) for row in rows),
            header_rows=header_rows,
            warnings=tuple(warnings),
        )

    @classmethod
    def from_cells(
        cls, cells: Sequence[GridCell], *, format: str = "cells", header_rows: int = 0
    ) -> TableGrid:
        """A table given as its cells (table-transformer's cell lists, with boxes or not)."""
        return cls(format, given_cells=tuple(cells), header_rows=header_rows)

    @cached_property
    def cells(self) -> tuple[GridCell, ...] | None:
        """Every cell on the grid. A table read from HTML has the cells table-transformer's
        ``html_to_cells`` reads from :attr:`source` (TEDS's first ``body/table``, else a bare
        ``<table>``; None when it holds no table: TEDS and GriTS score it 0); a table built row
        by row has its rows' cells placed and read as ``html_to_cells`` would read them from its
        :attr:`html` (which is parsed only when a cell holds markup HTML parsers repair)."""
        if self.source is not None:
            return html_cells(self.source)
        if not self.rows:
            return self.given_cells
        placed = _placed(self.rows, self.header_rows)
        return html_cells(self.html) if placed is None else placed

    @cached_property
    def html(self) -> str:
        """The HTML document TEDS reads: :attr:`source`, or the PubTabNet-convention document
        of the rows (or cells)."""
        if self.source is not None:
            return self.source
        if self.rows or not self.given_cells:
            return _render(self.rows, self.header_rows)
        return _render(_rows_of(self.given_cells), self.header_rows)

    @property
    def n_rows(self) -> int:
        """The rows of the grid (a row whose cells all come from above included)."""
        if self.source is None and self.rows:
            return len(self.rows)
        return max((max(c.row_nums) for c in self.cells or ()), default=-1) + 1

    @property
    def has_boxes(self) -> bool:
        """Whether every cell has a box (GriTS-Loc needs them on both sides)."""
        cells = self.cells
        return bool(cells) and all(c.bbox is not None for c in cells or ())

    def cache_key(self) -> bytes:
        """What the grid's scores depend on, as bytes (the cache key of its item)."""
        key = self.html
        if self.given_cells and any(c.bbox is not None for c in self.given_cells):
            key += repr([c.bbox for c in self.given_cells])
        return key.encode("utf-8", "surrogatepass")


def html_cells(text: str) -> tuple[GridCell, ...] | None:
    """The cells of an HTML document's table as GriTS places them (TEDS's first ``body/table``,
    else the first ``<table>``); None without a table. Bad HTML is an InputError."""
    from lxml import etree

    from parsescore.shared.tables.grits import cells_from_table
    from parsescore.shared.tables.tree import find_table, fragment_table

    if not text:
        return None
    try:
        table = find_table(text)
        if table is None:
            table = fragment_table(text)
        return None if table is None else tuple(cells_from_table(table))
    except (ValueError, etree.LxmlError) as exc:
        reason = getattr(exc, "reason", None) or str(exc) or type(exc).__name__
        raise InputError(f"bad HTML: {reason}") from None


def _placed(rows: Sequence[Sequence[RowCell]], header_rows: int) -> tuple[GridCell, ...] | None:
    """The cells of ``rows`` on the grid, placed as ``html_to_cells`` places the cells of their
    HTML (each at the first column of its row that no cell above covers); None when a cell's
    text cannot be read without an HTML parser (:func:`cell_text`)."""
    cells: list[GridCell] = []
    below: dict[int, set[int]] = {}  # row -> the columns cells above reach into
    for r, row in enumerate(rows):
        taken = below.pop(r, None)
        column = 0
        header = r < header_rows
        for content, colspan, rowspan in row:
            if taken:
                while column in taken:
                    column += 1
            text = cell_text(content)
            if text is None:
                return None
            column_nums = tuple(range(column, column + colspan))
            if rowspan > 1:
                for covered in range(r + 1, r + rowspan):
                    below.setdefault(covered, set()).update(column_nums)
            row_nums = (r,) if rowspan == 1 else tuple(range(r, r + rowspan))
            cells.append(GridCell(row_nums, column_nums, text, None, header, content))
            column += colspan
    return tuple(cells)


def _rows_of(cells: Sequence[GridCell]) -> list[list[RowCell]]:
    """Given cells as rows (each in the row it starts in, from the left), to render them."""
    n_rows = max((max(c.row_nums) for c in cells), default=-1) + 1
    rows: list[list[tuple[int, RowCell]]] = [[] for _ in range(n_rows)]
    for cell in cells:
        content = cell.html if cell.html is not None else html_lib.escape(cell.text, quote=False)
        rows[min(cell.row_nums)].append(
            (min(cell.column_nums), (content, len(cell.column_nums), len(cell.row_nums)))
        )
    return [[entry for _, entry in sorted(row, key=lambda e: e[0])] for row in rows]


def _render(rows: Sequence[Sequence[RowCell]], header_rows: int) -> str:
    """The PubTabNet-convention HTML document of a table's rows."""

    def row_html(row: Sequence[RowCell]) -> str:
        cells = []
        for content, colspan, rowspan in row:
            attributes = ""
            if colspan > 1:
                attributes += f' colspan="{colspan}"'
            if rowspan > 1:
                attributes += f' rowspan="{rowspan}"'
            cells.append(f"<td{attributes}>{content}</td>")
        return "<tr>" + "".join(cells) + "</tr>"

    head, body = rows[:header_rows], rows[header_rows:]
    parts = ["<html><body><table>"]
    if head:
        parts.append("<thead>" + "".join(row_html(r) for r in head) + "</thead>")
    if body:
        parts.append("<tbody>" + "".join(row_html(r) for r in body) + "</tbody>")
    parts.append("</table></body></html>")
    return "".join(parts)


_TAG = re.compile(r"<(/?)([a-z]+)>")
_INLINE = frozenset(("b", "i", "sup", "sub"))
_ENTITY = re.compile(r"&(?!(?:amp|lt|gt);)")


def cell_text(content: str) -> str | None:
    """The text an HTML parser reads from a cell's content as the readers write it (escaped
    text, ``<b> <i> <sup> <sub>`` and ``<br>``): its text runs, split at every tag, joined with
    ``" "`` as ``" ".join(itertext())`` joins them (empty runs left out), with the parser's
    newlines (``\\r\\n`` and ``\\r`` are ``\\n``) and U+FFFD for NUL. None when a parser would
    repair the markup (a stray, misnested or unclosed tag, nesting deeper than
    :data:`MAX_NESTING`, another tag or entity) or the text has a lone surrogate."""
    if "<" not in content and "&" not in content:
        return _parsed(content)
    if _ENTITY.search(content):
        return None
    runs: list[str] = []
    stack: list[str] = []
    start = 0
    for match in _TAG.finditer(content):
        runs.append(content[start : match.start()])
        start = match.end()
        closing, name = match.group(1), match.group(2)
        if name == "br" and not closing:
            continue
        if name not in _INLINE:
            return None
        if closing:
            if not stack or stack.pop() != name:
                return None
        else:
            stack.append(name)
            if len(stack) > MAX_NESTING:
                return None
    runs.append(content[start:])
    if stack or any("<" in run for run in runs):
        return None
    texts = []
    for run in runs:
        if run:
            text = _parsed(run.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
            if text is None:
                return None
            texts.append(text)
    return " ".join(texts)


def _parsed(text: str) -> str | None:
    """A text run as an HTML parser reads it (newlines, NUL), None with a lone surrogate."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return None
    return text
