"""A terminal that never hides a number.

rich shrinks a table that is wider than the console by wrapping, folding and at last cropping
every column alike, so ``0.500`` can print as ``0.…`` or as ``0`` over ``.500``. The console of
every command (:class:`FittingConsole`) prints its tables through :func:`fit_table` instead:
columns that hold numbers keep their full width, the other columns (ids, words) give up room,
ids wrap where they have a natural break (``_``, ``-``, ``/``, ``.``), and a table that cannot
fit even so is printed one record per line. A closed pipe (``| head``) ends the command quietly
(:class:`ClosedPipe`), after the files it writes are in place.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Console, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from parsescore.cli.common import ClosedPipe

__all__ = ["ClosedPipe", "FittingConsole", "fit_table", "records", "wrap_id"]

#: The narrowest an id or word column is made before the table gives way to records.
TEXT_MIN = 8
#: A word in an id or word column longer than this may be broken to make room.
ID_WORD = 14
#: Where an id may be broken: before one of these characters (the piece after it starts with
#: the separator, so ``example`` / ``_0`` still reads as one id and never as a number).
_ID_BREAK = re.compile(r"(?=[_\-/.:\s])")
_DIGIT = re.compile(r"\d")


def _lines_width(text: Text) -> int:
    return max((Text(line).cell_len for line in text.plain.split("\n")), default=0)


def _longest_word(text: Text) -> int:
    return max((len(word) for word in text.plain.split()), default=0)


def wrap_id(text: Text, width: int) -> Text:
    """``text`` broken into lines of at most ``width`` cells, before a separator where it has
    one (``Stanczyk_2016`` / ``_1``), else mid-word only when a piece alone is too long."""
    if width < 1 or text.cell_len <= width or "\n" in text.plain:
        return text
    plain = text.plain
    pieces = [m.start() for m in _ID_BREAK.finditer(plain) if m.start() > 0]
    bounds = [0, *pieces, len(plain)]
    offsets: list[int] = []
    start = 0
    for left, right in itertools.pairwise(bounds):
        while right - start > width:  # the piece does not fit on the current line
            if left > start:
                offsets.append(left)
                start = left
            else:  # one piece longer than a line: break it where the line is full
                start += width
                offsets.append(start)
    if not offsets:
        return text
    lines = text.divide(offsets)
    for line in lines:
        line.rstrip()
    return Text("\n").join(lines)


def _cells(console: Console, table: Table) -> list[list[Text]] | None:
    """The table's cells as text, column by column; None when a cell is another renderable
    (a nested table): such a table is printed as rich lays it out."""
    columns: list[list[Text]] = []
    for column in table.columns:
        texts: list[Text] = []
        for cell in column.cells:
            if isinstance(cell, str):
                texts.append(console.render_str(cell, highlight=False))
            elif isinstance(cell, Text):
                texts.append(cell)
            else:
                return None
        columns.append(texts)
    return columns


def _header(console: Console, column: Any) -> Text:
    header = column.header
    if isinstance(header, Text):
        return header
    return console.render_str(str(header), highlight=False) if header else Text()


def fit_table(console: Console, table: Table, width: int) -> Table | None:
    """``table`` laid out in ``width`` cells with every number whole, or None when it cannot
    be: then print :func:`records` instead.

    A column other than the first whose cells hold a digit is a number column: its width is its
    widest cell (its header wraps at words). The first column (the row's id) and word columns
    share the rest, down to :data:`TEXT_MIN` cells each; ids wrap by :func:`wrap_id`.
    """
    columns = _cells(console, table)
    if columns is None:
        return table
    natural = Measurement.get(console, console.options.update_width(10**6), table).maximum
    if natural <= width:
        return table
    fixed: dict[int, int] = {}
    flexible: dict[int, tuple[int, int]] = {}  # index: (minimum, maximum)
    for index, (column, texts) in enumerate(zip(table.columns, columns, strict=True)):
        header = _header(console, column)
        widest = max((_lines_width(t) for t in texts), default=0)
        if index > 0 and any(_DIGIT.search(t.plain) for t in texts):
            fixed[index] = max(widest, _longest_word(header), 1)
        else:
            most = max(widest, header.cell_len, 1)
            # a word of an id column (``(unreadable)``) stays whole up to ID_WORD cells
            words = max((_longest_word(t) for t in texts), default=0)
            floor = max(TEXT_MIN, _longest_word(header) if index else 0, column.min_width or 0)
            least = min(most, max(floor, min(words, ID_WORD)))
            flexible[index] = (least, most)
    for index, column in enumerate(table.columns):
        column.width = fixed.get(index) or flexible[index][0]
    overhead = Measurement.get(console, console.options.update_width(10**6), table).minimum - sum(
        column.width or 0 for column in table.columns
    )
    room = width - overhead - sum(fixed.values())
    if room < sum(least for least, _ in flexible.values()):
        return None
    widths = {index: least for index, (least, _) in flexible.items()}
    room -= sum(widths.values())
    while room > 0:  # give the room to the narrowest columns that want more, a cell at a time
        wanting = [i for i, (_, most) in flexible.items() if widths[i] < most]
        if not wanting:
            break
        narrowest = min(wanting, key=lambda i: (widths[i], i))
        widths[narrowest] += 1
        room -= 1
    for index, column in enumerate(table.columns):
        if index in widths:
            column.width = widths[index]
            column.overflow = "fold"
    if 0 in widths:
        first = table.columns[0]
        first._cells = [wrap_id(t, widths[0]) for t in columns[0]]
    return table


def records(console: Console, table: Table, width: int) -> list[Text]:
    """``table`` as one record per row: the row's id, then ``header value`` pairs, packed into
    lines of ``width`` cells (a pair is never split, so a number stays whole)."""
    columns = _cells(console, table) or []
    headers = [Text(" ".join(_header(console, column).plain.split())) for column in table.columns]
    lines: list[Text] = []
    if table.title:
        title = table.title
        lines.append(title if isinstance(title, Text) else console.render_str(str(title)))
    for row_index, row in enumerate(table.rows):
        cells = [column[row_index] for column in columns]
        parts: list[Text] = []
        if cells and cells[0].plain.strip():
            parts.append(Text(" ".join(cells[0].plain.split()), style="bold"))
        for header, cell in zip(headers[1:], cells[1:], strict=True):
            value = " ".join(cell.plain.split())
            if value:
                pair = Text.assemble(header, ": " if header.plain else "", value)
                parts.append(pair)
        lines.extend(_packed(parts, width, row.style))
    return lines


def _packed(parts: Sequence[Text], width: int, style: Any) -> Iterable[Text]:
    line = Text()
    for part in parts:
        if line.plain and line.cell_len + 3 + part.cell_len > width:
            yield line
            line = Text("  ")
        elif line.plain.strip():
            line.append(" · ")
        line.append_text(part)
    if line.plain.strip():
        if style:
            line.stylize(style)
        yield line


class FittingConsole(Console):
    """The console of every command: tables are fitted (:func:`fit_table`) or printed as
    records, and a closed pipe raises :class:`ClosedPipe` (``parsescore.cli.main`` ends the
    command quietly) instead of rich's own exit status 1. Emoji codes are text: a model's
    label ``:fire:`` or a file ``a:smile:b.json`` prints as written, not as a picture."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("emoji", False)
        super().__init__(*args, **kwargs)

    def print(self, *objects: Any, **kwargs: Any) -> None:
        shown: list[RenderableType] = []
        for item in objects:
            if isinstance(item, Table):
                fitted = fit_table(self, item, self.width)
                if fitted is None:
                    for line in records(self, item, self.width):
                        super().print(line, soft_wrap=True, highlight=False)
                    continue
                item = fitted
            shown.append(item)
        if shown or not objects:
            super().print(*shown, **kwargs)

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise ClosedPipe
