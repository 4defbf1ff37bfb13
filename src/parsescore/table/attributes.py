"""What each truth table is, for breakdowns (``--by structure``, ``--by cells``).

``structure`` splits tables as PubTabNet does (its annotations' ``type``, and the simple/complex
TEDS columns of its paper): a table is ``complex`` when a cell spans more than one row or column
(``rowspan`` or ``colspan`` above 1), else ``simple``. ``cells`` bins the table by its number of
cells, a spanning cell counted once (:data:`CELL_BINS`). Both come from the truth's cells as
GriTS places them (:attr:`~parsescore.shared.tables.grid.TableGrid.cells`), so a table written in
Markdown, LaTeX or OTSL is split by the same rule as one written in HTML.

>>> from parsescore.shared.tables.grid import TableGrid
>>> table_attributes(TableGrid.from_rows([[("a", 2, 1)], [("1", 1, 1), ("2", 1, 1)]],
...                                      format="markdown"))
{'structure': 'complex', 'cells': '1-25'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from parsescore.core.errors import InputError
from parsescore.core.kinds import Attribute

if TYPE_CHECKING:
    from parsescore.shared.tables.grid import TableGrid

__all__ = ["ATTRIBUTES", "CELL_BINS", "attributes_of", "cells_bin", "table_attributes"]

#: Bins of a truth table's number of cells, ``(label, low, high)`` inclusive: a small table
#: (up to 5 x 5), then doubling sizes (PubTabNet's tables have about 60 cells on average).
CELL_BINS: tuple[tuple[str, int, float], ...] = (
    ("1-25", 0, 25),
    ("26-50", 26, 50),
    ("51-100", 51, 100),
    ("101-200", 101, 200),
    (">200", 201, float("inf")),
)

#: The table kind's item attributes (``Kind.attributes``).
ATTRIBUTES = (
    Attribute(
        "structure",
        "simple (no cell spans more than one row or column) or complex (a rowspan or colspan "
        "above 1), as PubTabNet splits its tables",
        ("simple", "complex"),
    ),
    Attribute(
        "cells",
        "the truth table's number of cells (a spanning cell counted once), binned",
        tuple(label for label, _, _ in CELL_BINS),
    ),
)


def cells_bin(cells: int) -> str:
    """The :data:`CELL_BINS` label of a cell count (a table without cells falls in the first)."""
    for label, low, high in CELL_BINS:
        if low <= cells <= high:
            return label
    raise ValueError(f"negative cell count {cells}")


def table_attributes(grid: TableGrid) -> dict[str, str]:
    """A truth table's ``structure`` and ``cells``; none when it holds no table or its HTML
    cannot be placed on a grid (it is scored as it is; there is nothing to split it by)."""
    try:
        cells = grid.cells
    except InputError:
        return {}
    if cells is None:
        return {}
    spans = any(len(c.row_nums) > 1 or len(c.column_nums) > 1 for c in cells)
    return {"structure": "complex" if spans else "simple", "cells": cells_bin(len(cells))}


def attributes_of(
    truth: Mapping[str, TableGrid], items: Mapping[str, object]
) -> dict[str, dict[str, str]]:
    """``{table: attributes}`` of the scored ``items`` whose truth is in ``truth``."""
    found = {name: table_attributes(truth[name]) for name in items if name in truth}
    return {name: values for name, values in found.items() if values}
