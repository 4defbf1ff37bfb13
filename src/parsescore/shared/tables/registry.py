"""The built-in table formats: the reader registry (name, description, extensions, reader,
detector) of :mod:`parsescore.shared.tables.formats`, which the table kind declares as its own.

Cheap to import: every reader and detector is a :func:`~parsescore.core.kinds.lazy` reference.
"""

from __future__ import annotations

from parsescore.core.kinds import Format, lazy

__all__ = ["FORMATS"]


def _format(name: str, description: str, extensions: tuple[str, ...], reader: str) -> Format:
    """A registry entry whose reader is ``parsescore.shared.tables.formats.read_<reader>`` and
    detector ``detect_<reader>``."""
    module = "parsescore.shared.tables.formats"
    return Format(
        name,
        description,
        extensions,
        read=lazy(f"{module}:read_{reader}"),
        detect=lazy(f"{module}:detect_{reader}"),
    )


#: The table formats, in the order ``auto`` asks their detectors (a detector is asked only when
#: the formats before it said no). ``auto`` reads a folder's files by their extension, except
#: ``.html``/``.htm``, which are told apart by their content (a whole document or a fragment).
FORMATS: tuple[Format, ...] = (
    _format(
        "html", "an HTML document (the reference's input, read as it is)", (".html", ".htm"), "html"
    ),
    _format("markdown", "a Markdown pipe table", (".md", ".markdown"), "markdown"),
    _format("html-fragment", "a bare HTML <table>", (), "html_fragment"),
    _format("latex", "a LaTeX tabular", (".tex",), "latex"),
    _format("tsv", "tab-separated rows", (".tsv",), "tsv"),
    _format("csv", "comma-separated rows", (".csv",), "csv"),
    _format("otsl", "OTSL tokens", (".otsl",), "otsl"),
    _format("doctags", "DocTags holding an OTSL table", (".dt",), "doctags"),
)
