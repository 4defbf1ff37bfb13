"""The linear Markdown and OTSL readers against the libraries they stand in for, on generated
tables: markdown-it (GFM pipe tables) and docling-core's ``parse_otsl_table_content`` read the
same cells, or both refuse (docling-core's IndexError is our one-line error)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsescore.core.errors import InputError
from parsescore.shared.tables import formats

CELL_TEXT = ["a", "Total", "12.5", "p<0.05", "x > y", "β", "—", " ", "", "A  B", "n=3", "!", "-1",
             "é", "\u00a0", "\u2003x", "a|b", "*b*", "_i_", "`c`", "&amp;", "<b>x</b>", "[l](u)",
             "\\|", "<0@x.y>", "~~s~~", "a  ", "#", ":", "\t"]  # fmt: skip
DELIMITERS = ["---", ":--", "--:", ":-:", "-", " --- ", "", "- -", "x"]


@st.composite
def markdown_tables(draw: st.DrawFn) -> str:
    width = draw(st.integers(1, 4))
    rows = draw(
        st.lists(
            st.lists(st.sampled_from(CELL_TEXT), min_size=0, max_size=width + 1),
            min_size=1,
            max_size=5,
        )
    )
    pipes = draw(st.sampled_from([(True, True), (True, False), (False, True), (True, True)]))

    def line(cells: list[str]) -> str:
        return ("|" if pipes[0] else "") + "|".join(cells) + ("|" if pipes[1] else "")

    delimiter = [draw(st.sampled_from(DELIMITERS)) for _ in range(width)]
    header = draw(st.lists(st.sampled_from(CELL_TEXT), min_size=width, max_size=width))
    lines = [line(header), line(delimiter), *(line(row) for row in rows)]
    if draw(st.integers(0, 5)) == 0:
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(["", " ", "text"])))
    before = draw(st.sampled_from(["", "\n", "Here it is:\n\n", "Here:\n", "# T\n\n", "~~~\n"]))
    after = draw(st.sampled_from(["", "\n", "\n\nDone.", "\nDone", "\n\n| x |\n|---|", "\n~~~"]))
    return before + "\n".join(lines) + after


def markdown_read(text: str, fast: bool) -> object:
    try:
        grid = formats.read_markdown(text) if fast else formats._read_markdown(text)
    except InputError as exc:
        return f"error: {exc}"
    return grid.html, grid.header_rows, grid.warnings, grid.format


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=markdown_tables())
def test_the_plain_pipe_table_reader_reads_as_markdown_it(text: str) -> None:
    assert markdown_read(text, fast=True) == markdown_read(text, fast=False)


@pytest.mark.parametrize(
    "text",
    [
        "| a | b |\n|---|:-:|\n| 1 | p<0.05 |\n| 2 |",
        "Here is the table:\n\n| a | b |\n|---|---|\n| 1 | 2 | 3 |\n\nThat is all.",
        "|  |  |\n|--|--|\n| x | y |",
    ],
)
def test_plain_tables_take_the_linear_reader(text: str) -> None:
    assert formats._plain_pipe_table(text) is not None
    assert markdown_read(text, True) == markdown_read(text, False)


# -- OTSL -------------------------------------------------------------------------------------

TOKENS = ["<fcel>", "<ecel>", "<ched>", "<rhed>", "<srow>", "<lcel>", "<ucel>", "<xcel>", "<nl>",
          "<fcel>", "<nl>", "<loc_12>", "</fcel>"]  # fmt: skip
TEXTS = ["a", "12", " ", "p\ue0000.05", "x y", ""]


@st.composite
def otsl_sequences(draw: st.DrawFn) -> str:
    parts = draw(
        st.lists(
            st.one_of(st.sampled_from(TOKENS), st.sampled_from(TOKENS), st.sampled_from(TEXTS)),
            max_size=30,
        )
    )
    return "<otsl>" + "".join(parts) + draw(st.sampled_from(["</otsl>", ""]))


def _docling(body: str) -> object:
    from docling_core.types.doc.document import parse_otsl_table_content

    try:
        data = parse_otsl_table_content(body)
    except IndexError:
        return "error"
    cells = [
        (c.start_row_offset_idx, c.start_col_offset_idx, c.row_span, c.col_span, c.text)
        for c in data.table_cells
    ]
    return cells, data.num_rows


def _ours(body: str) -> object:
    try:
        cells, rows = formats.otsl_cells(body)
    except InputError as exc:
        assert str(exc)
        return "error"
    return [(c.row, c.column, c.row_span, c.col_span, c.text) for c in cells], rows


@settings(max_examples=1000, deadline=None)
@given(body=otsl_sequences())
def test_otsl_cells_as_docling_core_reads_them(body: str) -> None:
    assert _ours(body) == _docling(body)


@pytest.mark.parametrize(
    "text",
    [
        "<fcel><fcel><fcel>",
        "<otsl><fcel><nl><lcel></otsl>",
        "<fcel>a<ecel><nl><ecel><ucel><nl><ucel>",
    ],
)
def test_what_docling_core_fails_on_is_one_clear_error(text: str) -> None:
    with pytest.raises(InputError, match="OTSL"):
        formats.read_table(text, "otsl")
