"""Tables from images (``parsescore predict table``): the prompt, the check that turns a
model's answer into a prediction file, and how ``run`` names the predictions."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path

from lxml import etree

from parsescore.core.errors import InputError
from parsescore.core.files import read_text, write_json
from parsescore.predict.answers import AnswerError
from parsescore.shared.tables.tree import find_table

__all__ = ["ANSWER_FORMATS", "accept", "named_as_truth", "prompt"]


def prompt() -> str:
    """The bundled prompt template (``prompt.txt`` beside this module)."""
    return (resources.files("parsescore.table") / "prompt.txt").read_text(encoding="utf-8")


#: The formats an answer may be written in besides HTML: read by the scorer's own readers and
#: written as the HTML document the scorer reads. (CSV is not among them: prose with a comma
#: reads as a one-cell CSV table.)
ANSWER_FORMATS = ("markdown", "latex")


def accept(text: str, stem: str) -> tuple[str, tuple[str, ...]]:
    """HTML whose ``body/table`` the TEDS tree builder finds, with at least one cell; a bare
    ``<table>`` answer is written inside ``<html><body>``, the form TEDS reads.

    An answer written as a Markdown pipe table or a LaTeX tabular is read by the scorer's
    readers (:func:`parsescore.shared.tables.formats.read_table`, LaTeX math kept as its source, the
    default) and written as the HTML document they make: the prediction file stays ``.html``,
    so that ``run`` scores it with the reference's ``html`` format as any other prediction.
    """
    from parsescore.table.readers import detect_format, read_table

    try:
        format = detect_format(text)
    except InputError:
        format = None
    warnings: tuple[str, ...] = ()
    if format in ANSWER_FORMATS:
        try:
            table = read_table(text, format)
        except InputError as exc:
            raise AnswerError(f"the answer's {format} table cannot be read: {exc}") from None
        text = table.html
        warnings = (f"written in {format}; saved as the HTML it reads as", *table.warnings)
    try:
        found = find_table(text)
        if found is None:  # a bare <table>: TEDS reads only body/table (it scores this 0)
            text = f"<html><body>{text}</body></html>"
            found = find_table(text)
    except (etree.ParserError, ValueError) as exc:
        raise AnswerError(f"the answer is not HTML: {exc}") from None
    if found is None:
        raise AnswerError(
            "no <table> found in the answer (directly in <body>, or bare), nor a Markdown pipe "
            "table or a LaTeX tabular"
        )
    if not found.xpath(".//td|.//th"):
        raise AnswerError("the table has no cells (<td> or <th>)")
    return text + "\n", warnings


def named_as_truth(truth: Path, folder: Path, images: Mapping[str, str], target: Path) -> Path:
    """The prediction folder, or a JSON of the predictions keyed as the truth names them.

    PubTabNet-style truth names each table by its image file (``PMC…_00.png``) while the
    prediction folder names it by stem; when the truth uses file names, the predictions
    (``images``: stem → image file name) are collected into ``target`` under those names so
    that tables meet their truth.
    """
    from parsescore.table.inputs import load_tables

    names = set(load_tables(truth))
    if not any(image in names for image in images.values()):
        return folder
    tables = {
        (image if image in names else stem): read_text(folder / f"{stem}.html")
        for stem, image in images.items()
    }
    write_json(target, tables)
    return target
