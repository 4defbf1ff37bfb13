"""Hostile table answers: every reader (through the chat-answer rule) gives a table or one
clear error within a time bound, and in a dataset such an answer fails its own item only."""

from __future__ import annotations

import time

import pytest

import parsescore
from parsescore.core.errors import InputError
from parsescore.shared.tables.formats import read_answer, unread_formats

N = 200_000
ANSWERS = {
    # a "|" line and then many blank lines: the delimiter-row pattern once spanned lines and
    # took seconds for a few thousand of them
    "pipe then newlines": "|" + "\n" * N + "x",
    "open tables": "<table " * (N // 7),
    "pipe table then open tables": "| a |\n|---|\n" + "<table>" * (N // 7),
    "fences": "```\n" * (N // 4),
    "tilde fences": "~~~\n" * (N // 4),
    "think tags": "<think>" * (N // 7),
    "dashes": "-" * N,
    "pipes and dashes": "|" + "-|" * (N // 2),
    "dollars": "\\begin{tabular}{l}" + "$" * N + "\\end{tabular}",
    "deep braces": "\\begin{tabular}{l}" + "{" * 5000 + "\\end{tabular}",
    # \cmidrule's (lr) argument skipping was quadratic in the spaces after it
    "cmidrule then spaces": "\\begin{tabular}{l}\\cmidrule" + " " * N + "x\\end{tabular}",
    "math scripts": "\\begin{tabular}{l}$" + "^" * N + "$\\end{tabular}",
    "math minus signs": "\\begin{tabular}{l}$" + "-" * N + "$\\end{tabular}",
}


@pytest.mark.parametrize("name", list(ANSWERS))
@pytest.mark.parametrize(
    ("format", "latex_math"), [("auto", "source"), ("auto", "text"), ("markdown", "source")]
)
def test_each_reader_is_bounded(name: str, format: str, latex_math: str) -> None:
    text = ANSWERS[name]
    start = time.perf_counter()
    try:
        read_answer(text, format, latex_math=latex_math)
    except InputError as exc:
        assert str(exc)
    unread_formats({"a": text})
    assert time.perf_counter() - start < 15


def test_a_hostile_answer_fails_its_own_item() -> None:
    truth = "<html><body><table><tbody><tr><td>x</td></tr></tbody></table></body></html>"
    answers = {name: text for name, text in ANSWERS.items() if len(text) < 60_000}
    answers["good"] = truth
    start = time.perf_counter()
    result = parsescore.evaluate(
        "table", dict.fromkeys(answers, truth), answers, pred_format="auto", quiet=True
    )
    assert time.perf_counter() - start < 60
    assert result.items["good"]["TEDS"] == 1.0
    assert "deep braces" in result.dataset["unreadable"]
    assert "nested more than" in result.dataset["unreadable"]["deep braces"]
    for name in answers:
        if name in result.dataset["unreadable"]:
            assert result.items[name]["readable"] == 0.0 == result.items[name]["TEDS"]
