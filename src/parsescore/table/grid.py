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
every reader). A cell whose markup HTML parsers repair (a stray or misnested tag, nesting deeper
than :data:`MAX_NESTING`, a lone surrogate) keeps its table as the HTML its reader wrote, read
back as HTML like any other.

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
from parsescore.table.limits import check_cells

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

    Made by the readers (:func:`parsescore.table.read_table`), or with :meth:`from_rows` /
    :meth:`from_html`.

    Attributes:
        format: the format it was read as (a name of the format registry, or ``cells``).
        source: the HTML document as written, for a table read from HTML: TEDS reads it as the
            reference does and :attr:`cells` are read from it. None for other formats.
        built_cells: the cells a reader of another format built (empty with ``source``).
        n_rows: the rows of the grid (a row whose cells all come from above included).
        header_rows: how many of the first rows are header rows.
        warnings: what the reader noticed (e.g. several tables in an answer).
    """

    format: str
    source: str | None = None
    built_cells: tuple[GridCell, ...] = ()
    n_rows: int = 0
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
        cells, regular = _placed(rows, header_rows)
        grid = cls(
            format,
            built_cells=tuple(cells),
            n_rows=len(rows),
            header_rows=header_rows,
            warnings=tuple(warnings),
        )
        if regular:
            return grid
        return cls.from_html(grid.html, format, warnings)  # HTML parsers repair its markup

    @classmethod
    def from_cells(
        cls, cells: Sequence[GridCell], *, format: str = "cells", header_rows: int = 0
    ) -> TableGrid:
        """A table given as its cells (table-transformer's cell lists, with boxes or not)."""
        n_rows = max((max(c.row_nums) for c in cells), default=-1) + 1
        return cls(format, built_cells=tuple(cells), n_rows=n_rows, header_rows=header_rows)

    @cached_property
    def cells(self) -> tuple[GridCell, ...] | None:
        """Every cell on the grid; for a table read from HTML, read from :attr:`source` as
        table-transformer's ``html_to_cells`` reads a table (TEDS's first ``body/table``, else a
        bare ``<table>``). None when that HTML holds no table (TEDS and GriTS score it 0)."""
        if self.source is None:
            return self.built_cells
        return html_cells(self.source)

    @cached_property
    def html(self) -> str:
        """The HTML document TEDS reads: :attr:`source`, or the PubTabNet-convention document
        of the cells."""
        if self.source is not None:
            return self.source
        return _render(self.built_cells, self.n_rows, self.header_rows)

    @property
    def has_boxes(self) -> bool:
        """Whether every cell has a box (GriTS-Loc needs them on both sides)."""
        cells = self.cells
        return bool(cells) and all(c.bbox is not None for c in cells or ())

    def cache_key(self) -> bytes:
        """What the grid's scores depend on, as bytes (the cache key of its item)."""
        key = self.html
        if self.source is None and any(c.bbox is not None for c in self.built_cells):
            key += repr([c.bbox for c in self.built_cells])
        return key.encode("utf-8", "surrogatepass")


def html_cells(text: str) -> tuple[GridCell, ...] | None:
    """The cells of an HTML document's table as GriTS places them (TEDS's first ``body/table``,
    else the first ``<table>``); None without a table. Bad HTML is an InputError."""
    from lxml import etree

    from parsescore.table.grits_metric import cells_from_table
    from parsescore.table.tree import find_table, fragment_table

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


def _placed(rows: Sequence[Sequence[RowCell]], header_rows: int) -> tuple[list[GridCell], bool]:
    """The cells of ``rows`` on the grid, placed as ``html_to_cells`` places the cells of their
    HTML, and whether every cell's text could be read without an HTML parser."""
    cells: list[GridCell] = []
    occupied: dict[int, set[int]] = {}
    regular = True
    for r, row in enumerate(rows):
        taken = occupied.setdefault(r, set())
        column = 0
        for content, colspan, rowspan in row:
            while column in taken:
                column += 1
            row_nums = tuple(range(r, r + rowspan))
            column_nums = tuple(range(column, column + colspan))
            for covered in row_nums:
                occupied.setdefault(covered, set()).update(column_nums)
            text = cell_text(content)
            if text is None:
                regular, text = False, ""
            cells.append(GridCell(row_nums, column_nums, text, None, r < header_rows, content))
            column += colspan
    return cells, regular


def _render(cells: Sequence[GridCell], n_rows: int, header_rows: int) -> str:
    """The PubTabNet-convention HTML document of placed cells."""
    by_row: list[list[str]] = [[] for _ in range(n_rows)]
    for cell in cells:
        attributes = ""
        if len(cell.column_nums) > 1:
            attributes += f' colspan="{len(cell.column_nums)}"'
        if len(cell.row_nums) > 1:
            attributes += f' rowspan="{len(cell.row_nums)}"'
        content = cell.html if cell.html is not None else html_lib.escape(cell.text, quote=False)
        by_row[cell.row_nums[0]].append(f"<td{attributes}>{content}</td>")
    rows = ["<tr>" + "".join(row) + "</tr>" for row in by_row]
    parts = ["<html><body><table>"]
    if rows[:header_rows]:
        parts.append("<thead>" + "".join(rows[:header_rows]) + "</thead>")
    if rows[header_rows:]:
        parts.append("<tbody>" + "".join(rows[header_rows:]) + "</tbody>")
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
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return text
