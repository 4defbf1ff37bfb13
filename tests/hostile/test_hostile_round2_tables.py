"""Issue 30, tables: hostile answers of the second round.

- every table reader is linear (or near) in its input: each case grown x2, x4, x8 costs at
  most a constant factor times linear (CPU time ratios in this one process, best of three);
- the cases the issue names: ``| a |`` and 4,000 newlines with ``auto``, 12,000 ``\\cline{1-2}``,
  the two OTSL texts that were IndexError tracebacks, deeply nested LaTeX braces (the error names
  the file, line and column);
- a cap that is hit is the item's unreadable reason (and each cap can be raised by its
  environment variable).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

import parsescore
from cli_helpers import Cli
from cpu_growth import cpu_seconds, growth
from parsescore.core.errors import InputError
from parsescore.shared.tables.formats import read_answer, read_table
from parsescore.shared.tables.limits import MAX_LATEX_WALK

TABULAR = "\\begin{{tabular}}{{ll}}\n{}\n\\end{{tabular}}"

#: name -> (format, the text of size n)
GROWING: dict[str, tuple[str, Callable[[int], str]]] = {
    "markdown: a pipe then newlines (auto)": ("auto", lambda n: "| a |" + "\n" * (200 * n)),
    "markdown: a pipe then newlines": ("markdown", lambda n: "| a |" + "\n" * (200 * n)),
    "markdown: a space run in a cell": ("markdown", lambda n: "|" + " " * (2000 * n) + "a|\n|-|"),
    "markdown: a huge cell": ("markdown", lambda n: "| " + "ab " * (700 * n) + "|\n|---|\n| 1 |"),
    "markdown: many delimiter rows": ("markdown", lambda n: "| a |\n" + "|---|\n" * (100 * n)),
    "markdown: a long delimiter row": ("markdown", lambda n: "| a |\n|" + "-|" * (1000 * n)),
    "markdown: many rows": (
        "markdown",
        lambda n: "| a | b |\n|---|---|\n" + "| 1 | *2* |\n" * 50 * n,
    ),
    "markdown: emphasis runs (markdown-it)": (
        "markdown",
        lambda n: "| a |\n|---|\n| " + "*a_" * (300 * n) + " |",
    ),
    "markdown: link openings (markdown-it)": (
        "markdown",
        lambda n: "| a |\n|---|\n| " + "[a](" * (300 * n) + " |",
    ),
    "markdown: many tables": ("markdown", lambda n: "| a |\n|---|\n\n" * (100 * n)),
    "markdown: many empty cells": ("markdown", lambda n: "|" + " |" * (200 * n) + "\n|-|\n|"),
    "latex: \\cline runs": (
        "auto",
        lambda n: TABULAR.format("a & b \\\\" + "\\cline{1-2}" * 200 * n),
    ),
    "latex: \\hline runs": ("latex", lambda n: TABULAR.format("\\hline" * 300 * n + "a \\\\")),
    "latex: \\cmidrule then spaces": (
        "latex",
        lambda n: TABULAR.format("\\cmidrule" + " " * 3000 * n + "x"),
    ),
    "latex: a space run": ("latex", lambda n: TABULAR.format("a" + " " * 3000 * n + "& b")),
    "latex: many rows": ("latex", lambda n: TABULAR.format("a & $x$ \\\\ \\hline\n" * 60 * n)),
    "latex: many cells": ("latex", lambda n: TABULAR.format("a & " * 100 * n)),
    "latex: rows the walker reads": (
        "latex",
        lambda n: TABULAR.format("% c\na & \\foo{b} \\\\\n" * 30 * n),
    ),
    "latex: groups": ("latex", lambda n: TABULAR.format("{{{a}}}" * 200 * n)),
    "latex: math": ("latex", lambda n: TABULAR.format("$" * 1000 * n)),
    "latex: unclosed braces": ("latex", lambda n: TABULAR.format("{a}{" * 30 * n)),
    "csv: quotes": ("csv", lambda n: '"' + '""' * 2000 * n + '",a\n1,2'),
    "csv: an open quote": ("csv", lambda n: 'a,"' + "x\n" * 2000 * n),
    "csv: many columns": ("csv", lambda n: "a," * 1000 * n + "\n" + "1," * 1000 * n),
    "csv: many rows": ("auto", lambda n: "a,b\n" + "1,2\n" * 500 * n),
    "tsv: tabs": ("tsv", lambda n: "\t" * 2000 * n + "\na"),
    "otsl: cells": ("otsl", lambda n: "<otsl>" + "<fcel>x" * 300 * n + "</otsl>"),
    "otsl: column spans": ("otsl", lambda n: "<otsl><fcel>x" + "<lcel>" * 300 * n + "</otsl>"),
    "otsl: row spans": ("otsl", lambda n: "<otsl><fcel>x<nl>" + "<ucel><nl>" * 300 * n + "</otsl>"),
    "otsl: 2-d spans": ("otsl", lambda n: "<otsl><fcel>x" + ("<xcel>" * 10 + "<nl>") * 20 * n),
    "otsl: empty rows": ("otsl", lambda n: "<fcel>x" + "<nl>" * 1000 * n),
    "otsl: a lone <": ("otsl", lambda n: "<fcel>" + "<" * 2000 * n),
    "doctags: open tables": ("doctags", lambda n: "<doctag><loc_1>" + "<otsl>" * 300 * n),
    "doctags: locations": ("doctags", lambda n: "<otsl>" + "<loc_12>" * 500 * n + "<fcel>x</otsl>"),
    "html: open tables": ("auto", lambda n: "<table " * 300 * n),
    "html: cells": ("html-fragment", lambda n: "<table><tr>" + "<td>x</td>" * 300 * n + "</table>"),
    "auto: pipes and dashes": ("auto", lambda n: "|" + "-|" * 1000 * n),
    "auto: commas": ("auto", lambda n: "," * 3000 * n),
    "auto: fences": ("auto", lambda n: "```\n" * 300 * n),
}


def _read(format: str, text: str) -> None:
    """Read ``text`` as ``format`` (an error is a read too, if it says something)."""
    try:
        grid, _ = read_answer(text, format)
        grid.html  # noqa: B018
    except InputError as exc:
        assert str(exc)


@pytest.mark.parametrize("name", list(GROWING))
def test_each_reader_is_linear(name: str) -> None:
    """Eight times the input costs at most 3 x 8 times as much (a quadratic reader: 64)."""
    format, make = GROWING[name]
    _read(format, make(1))  # imports, caches
    scale = 1  # grown until the first size costs 10 ms (well above the clock and noise floor)
    while cpu_seconds(partial(_read, format, make(scale))) < 1e-2 and scale < 64:
        scale *= 2
    base = partial(_read, format, make(scale))
    for factor in (2, 4, 8):
        ratio = growth(base, partial(_read, format, make(scale * factor)), 3 * factor, floor=1e-3)
        assert ratio <= 3 * factor, f"x{factor}: {ratio:.1f} times the cost of x1"


def test_the_cases_of_the_issue_are_fast_and_clear() -> None:
    cases = {
        "pipe": ("auto", "| a |" + "\n" * 4000),
        "clines": ("auto", TABULAR.format("a & b \\\\\n" + "\\cline{1-2}" * 12_000)),
    }
    for format, text in cases.values():
        start = time.process_time()
        try:
            read_answer(text, format)
        except InputError as exc:
            assert str(exc)
        assert time.process_time() - start < 2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<fcel><fcel><fcel>", "ends with <fcel> and no text after it"),
        ("<otsl><fcel><nl><lcel></otsl>", "the column span of the cell in row 1, column 1"),
    ],
)
def test_otsl_that_was_a_traceback(text: str, expected: str) -> None:
    for format in ("otsl", "auto"):
        with pytest.raises(InputError, match=expected):
            read_answer(text, format)


def test_deep_latex_names_file_line_and_column(tmp_path: Path, cli: Cli) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    truth.mkdir()
    pred.mkdir()
    (truth / "a.html").write_text("<table><tr><td>x</td></tr></table>", encoding="utf-8")
    deep = "\\begin{tabular}{l}\n" + "{" * 5000 + "\n\\end{tabular}"
    (pred / "a.tex").write_text(deep, encoding="utf-8")
    run = cli("table", "--truth", truth, "--pred", pred, "--pred-format", "auto", "--strict")
    assert run.code == 2
    lines = run.err.strip().splitlines()
    assert len(lines) == 1
    assert str(pred / "a.tex") in lines[0]
    assert "line 2, column 100" in lines[0]
    assert "PARSESCORE_MAX_LATEX_DEPTH" in lines[0]
    assert "Traceback" not in run.err and "recursion" not in run.err


def test_caps_are_unreadable_reasons_and_can_be_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    truth = "<html><body><table><tr><td>a</td></tr></table></body></html>"
    deep = TABULAR.format("{" * 150 + "a" + "}" * 150)
    walked = TABULAR.format("% a comment: the walker reads this table\n" + "a \\\\\n" * 400)
    answers = {"deep": deep, "walked": walked}
    monkeypatch.setenv("PARSESCORE_MAX_LATEX_WALK", "1000")
    result = parsescore.evaluate("table", dict.fromkeys(answers, truth), answers, quiet=True,
                                 pred_format="latex")  # fmt: skip
    unreadable = result.dataset["unreadable"]
    assert "nested more than 100 deep" in unreadable["deep"]
    assert "PARSESCORE_MAX_LATEX_DEPTH" in unreadable["deep"]
    assert "PARSESCORE_MAX_LATEX_WALK" in unreadable["walked"]
    monkeypatch.setenv("PARSESCORE_MAX_LATEX_DEPTH", "200")
    assert read_table(deep, "latex").n_rows == 1
    monkeypatch.setenv("PARSESCORE_MAX_LATEX_WALK", "100000")
    assert read_table(walked, "latex").n_rows == 400


def test_the_walker_cap_bounds_its_time() -> None:
    """The longest text the walker reads by default, of its slowest kind seen here (a macro
    with an argument per cell), reads in seconds, not minutes."""
    row = "\\foo{a} & $x^{2}$ \\\\ % c\n"
    text = TABULAR.format(row * (MAX_LATEX_WALK // len(row) - 10))
    start = time.process_time()
    read_table(text, "latex")
    assert time.process_time() - start < 8
