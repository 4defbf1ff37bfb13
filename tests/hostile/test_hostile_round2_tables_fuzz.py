"""Issue 30, item 2, tables: every table reader, given any text, returns a table or raises the
one-line InputError — never another exception (IndexError, RecursionError, lxml's errors...).
One hypothesis test per reader, each fed text made of that format's own markup (the pieces
where a reader's assumptions break) and arbitrary characters; then the answer path (chat
unwrapping and ``auto`` detection) and the grid's HTML and cells."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsescore.core.errors import InputError
from parsescore.shared.tables.formats import read_answer, read_table

PIECES = {
    "html": ["<html>", "<body>", "<table>", "</table>", "<tr>", "</tr>", "<td>", "</td>",
             "<th colspan='2'>", "<td rowspan=x>", "<td colspan=0>", "<thead>", "<b>", "</i>",
             "&", "&#0;", "<!--", "-->", "<", ">", "\x00", "\ud800", "<tbody>", "</html>"],
    "html-fragment": ["<table>", "</table>", "<tr>", "<td>", "</td>", "<th rowspan='99999'>",
                      "<td colspan=-1>", "<caption>", "<sup>", "<br>", "<", "\x0c"],
    "markdown": ["|", "||", "---", ":-:", "\n", "\n\n", " ", "\\|", "`", "*", "_", "<table>",
                 "</table>", "<td>", "&amp;", "[", "](", "~~~", "```", "> ", "- ", "\t", "\r"],
    "latex": ["\\begin{tabular}", "{ll}", "\\end{tabular}", "&", "\\\\", "{", "}", "$", "%",
              "\\multicolumn{", "\\multirow{", "}{c}{", "\\hline", "\\cline{1-2}", "\\cmidrule",
              "(lr)", "\\textbf{", "\\verb|", "-1", "2", "x", "\\endhead", "\\endfirsthead",
              "\\endlastfoot", "\\caption{", "\\begin{longtable}", "\\end{longtable}", "^", "_",
              "\\[", "\\(", "~", "--", "\\", "\n\n", "[", "]", "*{3}{l}", "\\begin{array}"],
    "csv": [",", '"', '""', "\n", "\r", "\r\n", "a", " ", "\t", "\x00", ";", "=1+1"],
    "tsv": ["\t", '"', "\n", "\r", "a", ",", "\x00"],
    "otsl": ["<otsl>", "</otsl>", "<fcel>", "<ecel>", "<lcel>", "<ucel>", "<xcel>", "<nl>",
             "<ched>", "<rhed>", "<srow>", "<loc_1>", "<", ">", "a", "</fcel>", "<x>", "<fcel"],
    "doctags": ["<doctag>", "<otsl>", "</otsl>", "<loc_12>", "<fcel>", "<nl>", "<lcel>",
                "<ucel>", "<xcel>", "<ecel>", "a", "<", "</doctag>", "<loc_>", "<otsl"],
}  # fmt: skip


def texts(format: str) -> st.SearchStrategy[str]:
    piece = st.one_of(st.sampled_from(PIECES[format]), st.text(max_size=3))
    return st.lists(piece, max_size=40).map("".join)


def _reads_or_refuses(text: str, format: str, latex_math: str = "source") -> None:
    try:
        grid = read_table(text, format, latex_math=latex_math)
    except InputError as exc:
        assert str(exc) and "\n" not in str(exc).strip()
        return
    try:  # what scoring reads of the grid
        grid.html  # noqa: B018
        grid.cells  # noqa: B018
    except InputError as exc:
        assert str(exc)


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(text=texts("html"))
def test_html_reader(text: str) -> None:
    _reads_or_refuses(text, "html")


@FUZZ
@given(text=texts("html-fragment"))
def test_html_fragment_reader(text: str) -> None:
    _reads_or_refuses(text, "html-fragment")


@FUZZ
@given(text=texts("markdown"))
def test_markdown_reader(text: str) -> None:
    _reads_or_refuses(text, "markdown")


@FUZZ
@given(text=texts("latex"), math=st.sampled_from(["source", "text"]))
def test_latex_reader(text: str, math: str) -> None:
    _reads_or_refuses(text, "latex", math)


@FUZZ
@given(text=texts("latex").map(lambda t: f"\\begin{{tabular}}{{ll}}{t}\\end{{tabular}}"))
def test_latex_reader_inside_a_tabular(text: str) -> None:
    _reads_or_refuses(text, "latex")
    _reads_or_refuses(text, "latex", "text")


@FUZZ
@given(text=texts("csv"))
def test_csv_reader(text: str) -> None:
    _reads_or_refuses(text, "csv")


@FUZZ
@given(text=texts("tsv"))
def test_tsv_reader(text: str) -> None:
    _reads_or_refuses(text, "tsv")


@FUZZ
@given(text=texts("otsl"))
def test_otsl_reader(text: str) -> None:
    _reads_or_refuses(text, "otsl")


@FUZZ
@given(text=texts("doctags"))
def test_doctags_reader(text: str) -> None:
    _reads_or_refuses(text, "doctags")


@FUZZ
@given(
    text=st.sampled_from(list(PIECES)).flatmap(texts),
    fence=st.sampled_from(
        [
            ("", ""),
            ("```\n", "\n```"),
            ("```latex\n", "\n```"),
            ("<think>", "</think>"),
            ("```markdown\n", "```"),
            ("~~~\n", "~~~"),
        ]
    ),
)
def test_auto_detection_and_answers(text: str, fence: tuple[str, str]) -> None:
    """An answer in any format, fenced or not, read with ``auto``: a table or one line."""
    try:
        grid, _ = read_answer(fence[0] + text + fence[1], "auto")
    except InputError as exc:
        assert str(exc) and "\n" not in str(exc).strip()
        return
    try:
        grid.html  # noqa: B018
        grid.cells  # noqa: B018
    except InputError as exc:
        assert str(exc)
