"""Hostile flowchart answers (issue 23): what the new answer path reads before any reader —
format detection by content, link lines continued over blank lines, answers that are not text —
stays bounded in time and ends as an unreadable answer (never a crash)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from cli_helpers import Cli
from parsescore.core.api import evaluate
from parsescore.flowchart.formats import detect_format

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "text",
    [
        "#" * 100_000,  # a DOT comment line, repeated: each `#` could start a new one
        "//" + "a" * 100_000,
        "/*" * 50_000,
        " \n" * 50_000 + "x",
        "strict " * 20_000,
        'graph "' + "\\" * 100_000,
    ],
)
def test_detecting_a_format_is_linear(text: str) -> None:
    start = time.perf_counter()
    assert detect_format(text) in (None, "mermaid")
    assert time.perf_counter() - start < 1


def test_hostile_answers_are_unreadable_in_bounded_time(tmp_path: Path, cli: Cli) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    truth.mkdir()
    pred.mkdir()
    for stem in ("blank", "binary", "fences", "pieces"):
        (truth / f"{stem}.mmd").write_text("flowchart TD\n  A[Screened] --> B[Included]\n")
    (pred / "blank.mmd").write_text("flowchart TD\n  A -->" + " \n" * 200_000)  # no target
    (pred / "binary.mmd").write_bytes(b"\x00\xff" * 1000)
    (pred / "fences.mmd").write_text("```mermaid\n" * 50_000)
    (pred / "pieces.mmd").write_text(
        "flowchart TD\n  subgraph " + '"a" b ' * 20_000 + "\n  A\n  end"
    )
    start = time.perf_counter()
    found = evaluate("flowchart", truth, pred, quiet=True)
    assert time.perf_counter() - start < 20
    assert sorted(found.dataset["unreadable"]) == ["binary", "blank", "fences", "pieces"]
    assert "binary file" in found.dataset["unreadable"]["binary"]
    assert "line 2, column" in found.dataset["unreadable"]["blank"]
    # a title of 100,000 characters, read in bounded time, is past the label cap (issue 30)
    assert "PARSESCORE_MAX_LABEL_CHARS" in found.dataset["unreadable"]["pieces"]
    run = cli("flowchart", "--truth", truth, "--pred", pred, "--strict")
    assert run.code == 2 and "Traceback" not in run.err and run.err.startswith("error: ")
