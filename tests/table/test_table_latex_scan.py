"""The linear LaTeX tabular reader against pylatexenc's walker (the reference for every macro
it handles): on generated tables both read the same grid, or both refuse with the same error."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsescore.core.errors import InputError
from parsescore.shared.tables import formats

WORDS = ["a", "Total", "12.5", "n = 3", "p<0.05", "x>y", "mean (SD)", "β", "±3", "—", "A B", "é"]
FAST_PIECES = [
    "\\%", "\\&", "\\_", "\\$", "\\#", "\\{", "\\}", "\\textless{}", "\\textgreater ",
    "\\textbf{bold}", "\\textit{it}", "\\emph{e}", "\\textsuperscript{2}", "\\textsubscript{i}",
    "\\makecell{a \\\\ b}", "\\mbox{m}", "\\texttt{t}", "\\bfseries ", "\\pm", "\\dagger ",
    "\\textbackslash{}", "$x$", "$-1.5$", "$\\pm 2$", "$\\alpha_{1}$", "$x^{2}$", "$10^{-3}$",
    "$\\frac{1}{2}$", "$a & b$", "~", "--", "---", "``q''", "'s", "{grouped}", "{}", "\\ ",
    "\\,", "\\hline", "\\textdegree", "\\LaTeX{}", "{\\bf b}", "\\newline", "\\linebreak",
]  # fmt: skip
OTHER_PIECES = ["\\cline{1-2}", "x^2", "a_b", "\\verb|v|", "% comment\n", "\\\\[2pt]",
                "\\label{l}", "\\hspace{1em}", "\\'e", "\\textbf {s}", "$$d$$", "\\(i\\)",
                "\\textbf"]  # fmt: skip
RULES = ["\\hline", "\\toprule", "\\midrule", "\\bottomrule", "\\cline{2-3}",
         "\\cmidrule(lr){1-2}", "\\cmidrule{2-3}", "\\specialrule{1pt}{2pt}{2pt}", "\\toprule[1pt]",
         "\\hline\\hline", "\\cmidrule(l~r){1-2}"]  # fmt: skip
SPACES = [" ", "", "  ", "\n", "\n\n", "\t", " \n "]
PREFIXES = ["", "\n", "Here is the table:\n", "\\begin{table}[h]\n\\centering\n",
            "\\begin{table}\\caption{Results}\\label{t}\n", "{\\small\n", "% note\n", "$x$ ",
            "\\begin{center}"]  # fmt: skip
SUFFIXES = {"": "", "\n": "\n", "\\begin{table}[h]\n\\centering\n": "\n\\end{table}",
            "\\begin{table}\\caption{Results}\\label{t}\n": "\\end{table}", "{\\small\n": "}",
            "Here is the table:\n": "\nDone.", "% note\n": "", "$x$ ": " $y$",
            "\\begin{center}": "\\end{center}"}  # fmt: skip
ENVIRONMENTS = ["tabular", "tabular*", "tabularx", "longtable", "array"]
SPECS = ["llllll", "l|c|r|lll", "|l|l|l|l|l|", "p{2cm}lllll", "*{6}{c}", "@{}llllll@{}", "ll",
         ">{\\bfseries}llllll", "c c c c c c", "lll"]  # fmt: skip


@st.composite
def cells(draw: st.DrawFn, pure: bool) -> str:
    """A cell; ``pure``: only what the linear reader reads itself (most of the time)."""
    pieces = [st.sampled_from(WORDS), st.sampled_from(FAST_PIECES), st.sampled_from(SPACES)]
    if not pure:
        pieces.append(st.sampled_from(OTHER_PIECES))
    parts = draw(st.lists(st.one_of(*pieces), max_size=4))
    text = "".join(parts)
    lead = draw(st.integers(0, 9))
    if lead == 0:
        n = draw(st.sampled_from(["2", "1", "2", " 2 ", "x", "0", "-1", "{2}", "1"]))
        return f"\\multicolumn{{{n}}}{{c}}{{{text}}}" + draw(st.sampled_from(["", " ", " tail"]))
    if lead == 1:
        n = draw(st.sampled_from(["2", "-2", "3", "1", "y", "+2", "2", "2"]))
        width = draw(st.sampled_from(["*", "2cm", "=", "*}[2pt]{", "*", "*"]))
        return f"\\multirow{{{n}}}{{{width}}}{{{text}}}"
    if lead == 2:
        return f"\\multicolumn{{2}}{{c}}{{ \\multirow{{2}}{{*}}{{{text}}}}}"
    if lead == 3:
        return draw(st.sampled_from(SPACES))
    return text


@st.composite
def tables(draw: st.DrawFn) -> str:
    environment = draw(st.sampled_from(ENVIRONMENTS))
    spec = draw(st.sampled_from(SPECS))
    arguments = {"tabular*": "{\\textwidth}", "tabularx": "{\\linewidth}"}.get(environment, "")
    arguments += draw(st.sampled_from(["", "[t]"]))
    lines = []
    pure = draw(st.booleans())
    for _ in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            lines.append(draw(st.sampled_from(RULES)) + draw(st.sampled_from(SPACES)))
        row = " & ".join(draw(st.lists(cells(pure), min_size=1, max_size=4)))
        end = draw(st.sampled_from(["\\\\", "\\\\", "\\tabularnewline", "\\\\ ", ""]))
        lines.append(row + " " + end)
        if environment == "longtable" and draw(st.integers(0, 4)) == 0:
            lines.append(draw(st.sampled_from(["\\endhead", "\\endfoot", "\\endlastfoot",
                                               "\\endfirsthead"])))  # fmt: skip
    body = draw(st.sampled_from(SPACES)).join(lines)
    prefix = draw(st.sampled_from(PREFIXES))
    head = f"\\begin{{{environment}}}{arguments}{{{spec}}}"
    return f"{prefix}{head}\n{body}\n\\end{{{environment}}}{SUFFIXES[prefix]}"


def read(text: str, math: str, fast: bool) -> tuple[str, int, tuple[str, ...]] | str:
    try:
        grid = formats._read_latex(text, math, fast=fast)
    except InputError as exc:
        return f"error: {exc}"
    return grid.html, grid.header_rows, grid.warnings


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=tables(), math=st.sampled_from(["source", "text"]))
def test_the_linear_reader_reads_as_the_walker(text: str, math: str) -> None:
    assert read(text, math, fast=True) == read(text, math, fast=False)


READ_FAST = [
    "\\begin{tabular}{ll}\\toprule a & b \\\\ \\midrule 1 & 2 \\\\ \\bottomrule\\end{tabular}",
    "\\begin{table}[h]\\centering\n\\begin{tabular}{|l|c|}\\hline \\textbf{x} & $\\pm 1$ \\\\"
    "\\cline{1-2} \\multicolumn{2}{c}{p\\textless{}0.05} \\\\ \\end{tabular}\\caption{c}"
    "\\end{table}",
    "\\begin{longtable}{ll} h & h \\\\ \\endhead a & 12.5\\% \\\\ \\end{longtable}",
    "\\begin{tabular}{ll}\\multirow{2}{*}{a} & b \\\\ & c -- d~e \\\\\\end{tabular}",
]


@pytest.mark.parametrize("text", READ_FAST)
def test_common_tables_take_the_linear_reader(text: str) -> None:
    """The answers models write do not fall back to the walker."""
    convert = formats._LatexText("source")
    assert formats._scan_latex(text, convert) is not None
    assert read(text, "source", True) == read(text, "source", False)
