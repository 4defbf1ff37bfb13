"""TableGrid, the model every reader returns: GriTS reads its cells without parsing HTML, and
they are exactly what table-transformer's ``html_to_cells`` (``cells_from_table``) reads from the
document TEDS scores — placement, spans and text to the last character — for every reader, on
generated tables with the characters and markup HTML parsers treat specially."""

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import html as lxml_html

from parsescore.core.errors import InputError
from parsescore.shared.tables.grid import MAX_NESTING, cell_text
from parsescore.shared.tables.grits import cells_from_table
from parsescore.shared.tables.tree import find_table
from parsescore.table import GridCell, TableGrid, grits, read_collection, read_table

GRITS_10 = Path(__file__).parent / "data" / "grits" / "grits_10.json"


def _lxml_cells(document: str) -> list[tuple[tuple[int, ...], tuple[int, ...], str]]:
    table = find_table(document)
    assert table is not None
    return [(c.row_nums, c.column_nums, c.text) for c in cells_from_table(table)]


def _grid_cells(grid: TableGrid) -> list[tuple[tuple[int, ...], tuple[int, ...], str]]:
    assert grid.cells is not None
    return [(c.row_nums, c.column_nums, c.text) for c in grid.cells]


def _lxml_text(content: str) -> str:
    """What ``html_to_cells`` reads from a cell holding ``content``, parsed in a document."""
    document = f"<html><body><table><tr><td>{content}</td><td>next</td></tr></table></body></html>"
    parser = lxml_html.HTMLParser(remove_comments=True, encoding="utf-8")
    cells = lxml_html.fromstring(document, parser=parser).xpath(".//td")
    return " ".join(cells[0].itertext())


_TEXT = st.text(
    alphabet=st.sampled_from(list("ab <>&;\r\n\t\x00\x0c\u00a0é中lgtmp")),
    max_size=8,
)
_TAG = st.sampled_from(["<b>", "</b>", "<i>", "</i>", "<sup>", "</sup>", "<sub>", "</sub>", "<br>"])


@st.composite
def _content(draw: st.DrawFn) -> str:
    """A cell's content as a reader writes it: escaped text between inline tags, the tags
    balanced or not."""
    parts = draw(st.lists(st.one_of(_TEXT, _TAG), max_size=10))
    return "".join(p if p.startswith("<") else html.escape(p, quote=False) for p in parts)


@settings(max_examples=400, deadline=None)
@given(_content())
def test_cell_text_is_what_html_parsers_read(content: str) -> None:
    text = cell_text(content)
    if text is not None:  # None: the grid keeps such a table as HTML (below)
        assert text == _lxml_text(content)


def test_cell_text_declines_what_parsers_repair() -> None:
    for content in ("x</b>y", "<b>a<i>b</b>c</i>", "<b>open", "a\ud800b", "&nbsp;", "<B>x</B>"):
        assert cell_text(content) is None, content
    deep = "<b>" * (MAX_NESTING + 1) + "x" + "</b>" * (MAX_NESTING + 1)
    assert cell_text(deep) is None
    odd = "a<br>b <b>c</b>\r\nd\x00"
    assert cell_text(odd) == "a b  c \nd\ufffd" == _lxml_text(odd)


@st.composite
def _rows(draw: st.DrawFn) -> list[list[str]]:
    width = draw(st.integers(1, 4))
    words = st.text(alphabet=st.sampled_from([*"ab 1<>&é*_$\\", "\t", "%"]), max_size=6)
    return draw(st.lists(st.lists(words, min_size=width, max_size=width), min_size=1, max_size=5))


def _markdown(rows: list[list[str]]) -> str:
    fix = lambda cell: cell.replace("|", "\\|").replace("\t", " ")  # noqa: E731
    lines = ["| " + " | ".join(fix(c) for c in rows[0]) + " |", "|" + "---|" * len(rows[0])]
    return "\n".join(lines + ["| " + " | ".join(fix(c) for c in r) + " |" for r in rows[1:]])


def _latex(rows: list[list[str]]) -> str:
    def fix(cell: str) -> str:
        for char in "\\&%$#_{}":
            cell = cell.replace(char, "\\" + char if char != "\\" else "\\textbackslash{}")
        return cell.replace("\t", " ")

    body = " \\\\\n".join(" & ".join(fix(c) for c in r) for r in rows)
    spec = "l" * len(rows[0])
    return f"\\begin{{tabular}}{{{spec}}}\\hline\n{body} \\\\\n\\hline\\end{{tabular}}"


def _delimited(rows: list[list[str]], delimiter: str) -> str:
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter).writerows(rows)
    return out.getvalue()


def _otsl(rows: list[list[str]]) -> str:
    cells = [
        "".join(("<ched>" if k == 0 else "<fcel>") + c for c in row) for k, row in enumerate(rows)
    ]
    return "<otsl>" + "<nl>".join(cells) + "<nl></otsl>"


_WRITERS = {
    "markdown": _markdown,
    "latex": _latex,
    "csv": lambda rows: _delimited(rows, ","),
    "tsv": lambda rows: _delimited(rows, "\t"),
    "otsl": _otsl,
}


@settings(max_examples=60, deadline=None)
@given(_rows(), st.sampled_from(sorted(_WRITERS)), st.booleans())
def test_every_reader_gives_the_cells_of_its_document(
    rows: list[list[str]], format: str, header: bool
) -> None:
    text = _WRITERS[format](rows)
    if format in ("csv", "tsv") and not any(c.strip() for row in rows for c in row):
        return  # blank CSV rows are skipped: no table
    try:
        grid = read_table(text, format, header=header)
    except InputError:
        return  # a text the reader refuses (e.g. an unbalanced LaTeX brace): nothing to compare
    assert grid.source is None or grid.format == format
    assert _grid_cells(grid) == _lxml_cells(grid.html)


@pytest.mark.parametrize(
    ("format", "text"),
    [
        ("markdown", "| a | b |\n|---|---|\n| **x** *y* | <sup>2</sup> <br> z |"),
        ("markdown", "| a |\n|---|\n| x</b>y |"),  # a stray tag: kept as HTML
        ("markdown", "| a | b |\n|---|---|\n| 1 |  |\n|  | 2 |"),
        (
            "latex",
            "\\begin{tabular}{lll}\\toprule \\multicolumn{2}{c}{a} & b \\\\ \\midrule"
            " \\multirow{2}{*}{c} & d & e \\\\ & f & g \\\\ \\bottomrule\\end{tabular}",
        ),
        (
            "latex",
            "\\begin{tabular}{ll} a & \\textbf{b} \\textsuperscript{2} \\\\ "
            "c$^{x}$ & d\\end{tabular}",
        ),
        ("otsl", "<otsl><ched>a<lcel><nl><fcel>b<fcel>c<nl><ucel><fcel>d<nl></otsl>"),
        ("csv", 'a,"b\r\nc"\n1,2\n'),
    ],
)
def test_readers_on_spans_markup_and_odd_text(format: str, text: str) -> None:
    grid = read_table(text, format)
    assert grid.format == format
    assert _grid_cells(grid) == _lxml_cells(grid.html)


def test_a_cell_parsers_repair_has_its_cells_read_by_lxml() -> None:
    grid = read_table("| a | b |\n|---|---|\n| x</b>y | <b>open |", "markdown")
    assert grid.source is None and grid.rows
    assert [c.text for c in grid.cells or ()] == ["a", "b", "xy", "open"]
    assert _grid_cells(grid) == _lxml_cells(grid.html)
    regular = read_table("| a | b |\n|---|---|\n| xy | **open** |", "markdown")
    assert [c.html for c in regular.cells or ()] == ["a", "b", "xy", "<b>open</b>"]


def test_html_tables_are_read_as_written() -> None:
    document = (
        "<html><body><table><tr><th colspan='2'>a <b>b</b></th></tr>"
        "<tr><td>c</td><td rowspan='2'>d</td></tr><tr><td>e</td></tr></table></body></html>"
    )
    grid = read_table(document, "html")
    assert grid.source == document and grid.html == document
    assert _grid_cells(grid) == _lxml_cells(document)
    assert grid.cells is not None and grid.cells[0].header
    fragment = read_table("<table><tr><td>x</td></tr></table>", "html-fragment")
    assert fragment.html == "<html><body><table><tr><td>x</td></tr></table></body></html>"
    assert read_table("<p>no table</p>", "html").cells is None  # TEDS and GriTS score it 0
    bare = read_table("<table><tr><td>x</td></tr></table>", "html")  # GriTS reads a bare table
    assert [c.text for c in bare.cells or ()] == ["x"]
    with pytest.raises(InputError, match="bad HTML"):
        _ = read_table(
            "<html><body><table><tr><td colspan='x'>1</td></tr></table></body></html>"
        ).cells


def test_grits_of_a_grid_is_grits_of_its_html() -> None:
    truth = read_table("| a | b |\n|---|---|\n| 1 | **2** |", "markdown")
    pred = read_table("\\begin{tabular}{ll} a & b \\\\ \\hline 1 & 3\\end{tabular}", "latex")
    from_html = [cells_from_table(find_table(g.html)) for g in (truth, pred)]
    assert truth.cells is not None and pred.cells is not None
    assert grits(truth.cells, pred.cells) == grits(*from_html)


def test_cell_lists_are_grids_with_boxes(tmp_path: Path) -> None:
    cases = json.loads(GRITS_10.read_text(encoding="utf-8"))
    path = tmp_path / "cells.json"
    path.write_text(json.dumps({case["id"]: case["true_cells"] for case in cases}))
    grids = read_collection(path, "cells").tables
    first = grids[cases[0]["id"]]
    assert first.format == "cells" and first.has_boxes and first.source is None
    expected = [GridCell.from_mapping(cell) for cell in cases[0]["true_cells"]]
    assert list(first.cells or ()) == expected
    mapping = read_collection({"t": [{"row_nums": [0], "column_nums": [0, 1]}]}, "cells").tables
    assert mapping["t"].n_rows == 1 and not mapping["t"].has_boxes
    with pytest.raises(InputError, match="a cell must be an object"):
        read_collection({"t": ["x"]}, "cells")


def test_from_rows_refuses_a_table_beyond_the_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARSESCORE_MAX_CELLS", "3")
    with pytest.raises(InputError, match="PARSESCORE_MAX_CELLS"):
        TableGrid.from_rows([[("a", 2, 2)]], format="toy")
