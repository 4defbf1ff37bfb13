"""The table readers as the table kind offers them: those of
:mod:`parsescore.shared.tables.formats`, looking formats up in the kind's registered formats
(:func:`~parsescore.table.kind.registered`), so that a format added with
:func:`~parsescore.table.kind.with_format` is read like a built-in one."""

from __future__ import annotations

from parsescore.shared.answers import Answer
from parsescore.shared.tables import formats
from parsescore.shared.tables.grid import TableGrid
from parsescore.table.kind import registered

__all__ = ["detect_format", "extensions", "format_names", "read_answer", "read_table", "to_html"]


def detect_format(text: str) -> str:
    """:func:`parsescore.shared.tables.formats.detect_format` over the kind's formats."""
    return formats.detect_format(text, registered())


def format_names() -> tuple[str, ...]:
    """The name of every format of the kind, in ``auto``'s order."""
    return formats.format_names(registered())


def extensions() -> dict[str, str]:
    """``{file extension: format}`` of the kind's formats."""
    return formats.extensions(registered())


def read_table(
    text: str, format: str = "auto", *, header: bool = True, latex_math: str = "source"
) -> TableGrid:
    """:func:`parsescore.shared.tables.formats.read_table` over the kind's formats."""
    return formats.read_table(
        text, format, header=header, latex_math=latex_math, formats=registered()
    )


def read_answer(
    text: str, format: str = "auto", *, header: bool = True, latex_math: str = "source"
) -> tuple[TableGrid, Answer]:
    """:func:`parsescore.shared.tables.formats.read_answer` over the kind's formats."""
    return formats.read_answer(
        text, format, header=header, latex_math=latex_math, formats=registered()
    )


def to_html(text: str, format: str = "auto", *, latex_math: str = "source") -> str:
    """:func:`parsescore.shared.tables.formats.to_html` over the kind's formats.

    >>> to_html("| a |\\n|---|\\n| 1 |")
    '<html><body><table><thead><tr><td>a</td></tr></thead><tbody><tr><td>1</td></tr></tbody></table></body></html>'
    """
    return formats.to_html(text, format, latex_math=latex_math, formats=registered())
