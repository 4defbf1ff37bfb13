"""Reading table collections — JSON, JSONL or a folder of table files — into
:class:`~parsescore.shared.tables.grid.TableGrid` s (:func:`read_collection`), with clear errors.

Accepted shapes (PubTabNet's batch formats and a few common variants):

- JSON object ``{name: html}`` or ``{name: {"html": html}}`` (PubTabNet's ``sample_gt.json``);
- JSON list or JSONL lines of objects with a name (``name``, ``filename``, ``id`` or ``imgid``)
  and ``html``, or one-key objects ``{name: html}``;
- ``html`` may also be PubTabNet's annotation ``{"structure": {"tokens": [...]}, "cells":
  [{"tokens": [...]}, ...]}``, turned into HTML as PubTabNet's ``format_html`` does;
- a folder: every ``*.html`` file below it, named by its relative path without ``.html``.

Tables written in other formats are read too (the reader registry, ``parsescore.table.kind``):
a folder's files by extension (``.html .md .tex .csv .tsv .otsl .dt``), the strings of a JSON or
JSONL collection by their content (``auto``) or as the format given. ``cells`` reads
table-transformer cell lists instead: ``{name: [cell]}`` or a list of ``{"id", "cells"}``.
"""

from __future__ import annotations

import html as html_lib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parsescore.core.errors import InputError
from parsescore.core.files import iter_jsonl, load_json, read_text
from parsescore.shared.answers import Answer, unwrap_answer
from parsescore.shared.tables.formats import has_table, unread_formats
from parsescore.shared.tables.grid import GridCell, TableGrid
from parsescore.shared.tables.limits import check_cells
from parsescore.table.readers import extensions, format_names, read_answer, read_table

__all__ = [
    "CELLS",
    "Collection",
    "html_from_value",
    "load_cell_tables",
    "load_tables",
    "pubtabnet_annotation_html",
    "read_collection",
]

#: The collection format of table-transformer cell lists (not a table format: each table is a
#: list of cells, not a text).
CELLS = "cells"

_NAME_KEYS = ("name", "filename", "id", "imgid")


def pubtabnet_annotation_html(annotation: dict[str, Any], *, path: Path | None, where: str) -> str:
    """HTML of a PubTabNet annotation: cell tokens inserted after each ``<td>`` / ``>``."""
    try:
        structure = list(annotation["structure"]["tokens"])
        cells = list(annotation["cells"])
    except (KeyError, TypeError):
        raise InputError(
            "expected {'structure': {'tokens': [...]}, 'cells': [...]}", path=path, where=where
        ) from None
    slots = [i for i, token in enumerate(structure) if token in ("<td>", ">")]
    for position, cell in zip(slots[::-1], cells[::-1], strict=False):
        tokens = cell.get("tokens") if isinstance(cell, dict) else None
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise InputError("cell 'tokens' must be a list of strings", path=path, where=where)
        if tokens:
            text = "".join(html_lib.escape(t) if len(t) == 1 else t for t in tokens)
            structure.insert(position + 1, text)
    return "<html><body><table>" + "".join(structure) + "</table></body></html>"


def html_from_value(value: Any, *, path: Path | None, where: str) -> str:
    """The HTML string held by one entry (a string, ``{"html": ...}`` or an annotation)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and "html" in value:
        inner = value["html"]
        if isinstance(inner, str):
            return inner
        if isinstance(inner, dict):
            return pubtabnet_annotation_html(inner, path=path, where=where)
        raise InputError(
            f"'html' must be a string or a PubTabNet annotation, got {type(inner).__name__}",
            path=path,
            where=where,
        )
    raise InputError(
        f"expected an HTML string or an object with 'html', got {type(value).__name__}",
        path=path,
        where=where,
    )


def _add(tables: dict[str, str], name: str, value: Any, *, path: Path, where: str) -> None:
    if name in tables:
        raise InputError(f"duplicate table name {name!r}", path=path, where=where)
    tables[name] = html_from_value(value, path=path, where=f"key {name!r}")


def _add_record(tables: dict[str, str], record: Any, *, path: Path, where: str) -> None:
    if not isinstance(record, dict):
        raise InputError(f"expected an object, got {type(record).__name__}", path=path, where=where)
    if "html" in record:
        for key in _NAME_KEYS:
            if key in record:
                _add(tables, str(record[key]), record, path=path, where=where)
                return
        raise InputError(
            f"object with 'html' needs a name field (one of {', '.join(_NAME_KEYS)})",
            path=path,
            where=where,
        )
    if len(record) == 1:
        ((name, value),) = record.items()
        _add(tables, str(name), value, path=path, where=where)
        return
    raise InputError(
        "expected {name: html} or an object with a name and 'html'", path=path, where=where
    )


def load_tables(path: str | Path) -> dict[str, str]:
    """The texts of an HTML table collection, ``{name: html}`` (order of the file, folders
    sorted): the reference's batch input, as it is."""
    path = Path(path)
    tables: dict[str, str] = {}
    if path.is_dir():
        for file in sorted(path.rglob("*.html")):
            name = file.relative_to(path).as_posix()[: -len(".html")]
            tables[name] = read_text(file)
        if not tables:
            raise InputError("folder has no .html files", path=path)
        return tables
    if path.suffix.lower() == ".jsonl":
        for number, record in iter_jsonl(path):
            _add_record(tables, record, path=path, where=f"line {number}")
        return tables
    data = load_json(path)
    if isinstance(data, dict):
        for name, value in data.items():
            _add(tables, name, value, path=path, where=f"key {name!r}")
    elif isinstance(data, list):
        for index, record in enumerate(data):
            _add_record(tables, record, path=path, where=f"item {index}")
    else:
        raise InputError(
            f"expected a JSON object {{name: html}} or a list, got {type(data).__name__}",
            path=path,
        )
    return tables


@dataclass(frozen=True)
class Collection:
    """A collection read in some format: each table's grid (with the format read), the tables
    that could not be read (name → reason), warnings, and the chat-answer facts.

    ``fenced``: answers whose table came from a fenced block (name → its info string).
    ``wrapped``: tables read as written (truth) whose text is a chat answer (a fenced block or
    a ``<think>`` block), which truth tables should not be.
    """

    tables: dict[str, TableGrid]
    failed: dict[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    fenced: dict[str, str] = field(default_factory=dict)
    wrapped: tuple[str, ...] = ()


def _texts(path: Path, *, every_format: bool) -> dict[str, tuple[str, str | None, Path]]:
    """``{name: (text, format of its file extension or None, file)}`` of a collection."""
    if not path.is_dir() or not every_format:
        files = {}
        if path.is_dir():
            files = {
                file.relative_to(path).as_posix()[: -len(".html")]: file
                for file in path.rglob("*.html")
            }
        return {
            name: (text, None, files.get(name, path)) for name, text in load_tables(path).items()
        }
    out: dict[str, tuple[str, str | None, Path]] = {}
    by_suffix = extensions()
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        format = by_suffix.get(file.suffix.lower())
        if format is None:
            continue
        name = file.relative_to(path).with_suffix("").as_posix()
        if name in out:
            raise InputError(
                f"two files for table {name!r} (e.g. .html and .md); keep one",
                path=file,
            )
        out[name] = (read_text(file), format, file)
    if not out:
        known = " ".join(sorted(by_suffix))
        raise InputError(f"folder has no table files ({known})", path=path)
    return out


def _answer_table(
    text: str, format: str, *, header: bool, latex_math: str
) -> tuple[TableGrid, Answer]:
    """A model's answer read as a table (:func:`~parsescore.shared.tables.formats.read_answer`); one
    with no table at all (empty; HTML without a ``<table>``) is an error too: it scores as a
    missing answer, and is counted as unreadable."""
    table, answer = read_answer(text, format, header=header, latex_math=latex_math)
    if not answer.text.strip():
        raise InputError("the answer is empty")
    if table.source is not None and not has_table(table.source):
        raise InputError("no <table> in the answer")
    return table, answer


def read_collection(
    source: str | Path | Mapping[str, str],
    format: str = "html",
    *,
    header: bool = True,
    strict: bool = True,
    answers: bool = False,
    latex_math: str = "source",
) -> Collection:
    """Read a collection of tables written in ``format`` (``auto``: each table's own).

    ``html`` is the reference's input, read as it is. With ``auto``, a folder's files are read by
    their extension and the strings of a JSON/JSONL collection (or a mapping) by their content.
    ``answers``: the tables are a model's answers (predictions), each read by the chat-answer
    rule (:func:`~parsescore.shared.tables.formats.read_answer`; an answer holding no table is
    refused too); truth tables are read as written. A table that cannot be read is an InputError
    naming the file, the table and the place in it (``strict``), or is listed in ``failed`` with
    the reason. ``cells``: table-transformer cell lists (:data:`CELLS`), which have no format to
    read or answer to unwrap.
    """
    if format == CELLS:
        return Collection(_cell_collection(source))
    names = format_names()
    if format != "auto" and format not in names:
        raise InputError(f"unknown table format {format!r}; expected auto, {', '.join(names)}")
    path: Path | None = None
    texts: dict[str, tuple[str, str | None, Path | None]]
    warnings: list[str] = []
    if isinstance(source, Mapping):  # values as in a JSON collection: text, {"html": ...}
        texts = {
            str(name): (html_from_value(value, path=None, where=f"key {name!r}"), None, None)
            for name, value in source.items()
        }
    else:
        path = Path(source)
        if format == "html" and path.is_dir():
            suffixes = extensions()
            others = sorted(
                p.suffix.lower()
                for p in path.rglob("*")
                if p.is_file() and suffixes.get(p.suffix.lower(), "html") != "html"
            )
            if others:
                counts = ", ".join(f"{others.count(s)} {s}" for s in dict.fromkeys(others))
                note = (
                    f"{counts} files, which the html format does not read; format auto reads them"
                )
                if not any(path.rglob("*.html")):
                    raise InputError(f"folder has no .html files but {note}", path=path)
                warnings.append(f"{path} also holds {note}")
        texts = dict(_texts(path, every_format=format != "html"))
    tables: dict[str, TableGrid] = {}
    failed: dict[str, str] = {}
    fenced: dict[str, str] = {}
    wrapped: list[str] = []
    contents: dict[str, str] = {}  # what the reference's html reads (answers: unwrapped)
    for name, (text, by_extension, file) in texts.items():
        chosen = format
        if format == "auto" and by_extension and by_extension != "html":
            chosen = by_extension  # .html: a whole document or a fragment, by its content
        if not answers and _is_chat_answer(text):
            wrapped.append(name)
        if format == "html" and not answers:
            tables[name] = TableGrid.from_html(text, "html")
            contents[name] = text
            continue
        if format == "html":  # an answer's content, readable or not
            contents[name] = unwrap_answer(text, ("html",)).text
        try:
            if answers:
                table, answer = _answer_table(text, chosen, header=header, latex_math=latex_math)
                if answer.fence is not None:
                    fenced[name] = answer.fence
            else:
                table = read_table(text, chosen, header=header, latex_math=latex_math)
        except InputError as exc:
            if strict:
                in_file = file is not None and file != path  # a folder's file: it names it
                where = None if in_file else f"key {name!r}"
                if exc.where:
                    where = exc.where if where is None else f"{where}, {exc.where}"
                raise InputError(exc.reason, path=file or path, where=where) from None
            failed[name] = f"{chosen}: {exc.where + ': ' if exc.where else ''}{exc.reason}"
            continue
        tables[name] = table
        warnings += [f"{name}: {w}" for w in table.warnings]
    if format == "html":
        warnings += _not_documents(contents, "predictions" if answers else "truth tables")
    return Collection(tables, failed, tuple(warnings), fenced, tuple(wrapped))


def _not_documents(tables: dict[str, str], what: str) -> list[str]:
    """With the reference's ``html``: how many tables it scores 0 for being in another format."""
    found = unread_formats(tables)
    if not found:
        return []
    counts = ", ".join(f"{len(names)} {kind}" for kind, names in found.items())
    examples = ", ".join(name for names in found.values() for name in names[:3])
    flag = "--pred-format" if what == "predictions" else "--truth-format"
    return [
        f"{sum(map(len, found.values()))} of {len(tables)} {what} are not full HTML documents "
        f"({counts}: {examples}); the reference's rule scores them 0; {flag} auto reads them"
    ]


def _is_chat_answer(text: str) -> bool:
    """Whether the chat-answer rule would change ``text`` (a fenced or ``<think>`` block)."""
    answer = unwrap_answer(text, format_names())
    return answer.fenced or answer.thinking


def _cell_collection(source: str | Path | Mapping[str, Any]) -> dict[str, TableGrid]:
    """The grids of a cell-list collection: a JSON file (:func:`load_cell_tables`) or a
    mapping ``{name: [GridCell or cell dict]}``."""
    if not isinstance(source, Mapping):
        return {
            name: TableGrid.from_cells(cells) for name, cells in load_cell_tables(source).items()
        }
    tables = {}
    for name, cells in source.items():
        where = f"key {name!r}"
        if not isinstance(cells, list | tuple):
            raise InputError("expected a list of cells", where=where)
        tables[str(name)] = TableGrid.from_cells(
            [_cell(cell, f"{where}, cell {k}") for k, cell in enumerate(cells)]
        )
    return tables


def _cell(value: Any, where: str) -> GridCell:
    if isinstance(value, GridCell):
        return value
    if not isinstance(value, Mapping):
        raise InputError("a cell must be an object", where=where)
    return GridCell.from_mapping(value, where=where)


def load_cell_tables(path: str | Path) -> dict[str, list[GridCell]]:
    """Cell tables from JSON: ``{name: [cell, ...]}`` or a list of ``{"id"|"name": ...,
    "cells": [...]}`` (cells as table-transformer's dicts)."""
    path = Path(path)
    data = load_json(path)
    records: list[tuple[str, Any]] = []
    if isinstance(data, dict):
        records = [(str(k), v) for k, v in data.items()]
    elif isinstance(data, list):
        for index, item in enumerate(data):
            name = item.get("id", item.get("name")) if isinstance(item, dict) else None
            if name is None or "cells" not in item:
                raise InputError(
                    "expected {'id': ..., 'cells': [...]}", path=path, where=f"item {index}"
                )
            records.append((str(name), item["cells"]))
    else:
        raise InputError("expected {name: [cells]} or a list of {'id', 'cells'}", path=path)
    tables: dict[str, list[GridCell]] = {}
    for name, cells in records:
        if not isinstance(cells, list):
            raise InputError("expected a list of cells", path=path, where=f"key {name!r}")
        parsed = []
        for index, cell in enumerate(cells):
            if not isinstance(cell, dict):
                raise InputError(
                    "a cell must be an object", path=path, where=f"key {name!r}, cell {index}"
                )
            try:
                parsed.append(GridCell.from_mapping(cell, where=f"key {name!r}, cell {index}"))
            except InputError as exc:
                raise InputError(exc.reason, path=path, where=exc.where) from None
        if parsed:
            rows = max(max(c.row_nums) for c in parsed) + 1
            columns = max(max(c.column_nums) for c in parsed) + 1
            try:
                check_cells(rows * columns)
            except InputError as exc:
                raise InputError(exc.reason, path=path, where=f"key {name!r}") from None
        tables[name] = parsed
    return tables
