"""``parsescore predict|run table`` with answers in Markdown and LaTeX (against the scripted
chat-completions server of the predict tests): they are read by the scorer's own readers and
saved as the HTML document those make, so that ``run`` scores them with the reference's html."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from table_helpers import pandoc_path, render_all

from cli_helpers import Cli
from parsescore.predict import AnswerError, accept_answer
from parsescore.shared.tables.formats import read_table
from parsescore.table.inputs import load_tables
from predict.chat_server import ChatServer, ok, write_png

SAMPLES = Path(__file__).resolve().parents[2] / "src/parsescore/data/table/pubtabnet_samples"
TRUTH = load_tables(SAMPLES / "sample_gt.json")
NAMES = ["PMC5755158_010_01.png", "PMC3872294_001_00.png", "PMC4219599_004_00.png"]


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer() as running:
        yield running


def test_markdown_and_latex_answers_become_the_html_they_read_as() -> None:
    markdown = "| a | b |\n|---|---|\n| 1 | **2** |\n"
    prediction = accept_answer("table", f"Here you go:\n```markdown\n{markdown}```", stem="t")
    assert prediction.text == read_table(markdown, "markdown").html + "\n"
    assert prediction.warnings == ("written in markdown; saved as the HTML it reads as",)
    latex = "\\begin{tabular}{ll} \\hline a & b \\\\ \\hline 1 & $\\pm$2 \\\\ \\end{tabular}"
    assert accept_answer("table", latex, stem="t").text == read_table(latex).html + "\n"
    for answer, reason in (
        ("\\begin{tabular}{l} {a \\end{tabular}", "the answer's latex table cannot be read"),
        ("Sorry, I cannot read it.", "no <table> found in the answer"),  # not a CSV table
        ("| a |\n", "no <table> found"),
    ):
        with pytest.raises(AnswerError, match=reason):
            accept_answer("table", answer, stem="t")


def test_run_scores_markdown_latex_and_html_answers(
    server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    pandoc = pandoc_path()
    truths = [TRUTH[name] for name in NAMES]
    markdown = render_all(pandoc, truths[:1], "gfm")[0]
    latex = render_all(pandoc, truths[1:2], "latex")[0]
    replies = [
        f"Sure! Here is the table:\n\n```markdown\n{markdown}```\n",
        f"<think>Two columns.</think>\n```latex\n{latex}```",
        truths[2],
    ]
    images, truth = tmp_path / "images", tmp_path / "truth"
    images.mkdir()
    truth.mkdir()
    for seed, (reply, name) in enumerate(zip(replies, NAMES, strict=True)):
        stem = f"t{seed}"
        server.script(write_png(images / f"{stem}.png", seed=seed), ok(reply))
        (truth / f"{stem}.html").write_text(TRUTH[name], encoding="utf-8")
    os.environ.pop("OPENAI_API_KEY", None)
    out = tmp_path / "out"
    run = cli(
        "run", "table", "--images", images, "--truth", truth, "--model", "m", "--out", out,
        "--base-url", server.base_url, "--quiet",
    )  # fmt: skip
    assert run.code == 0, run.out + run.err
    saved = sorted(p.name for p in (out / "predictions").iterdir() if p.is_file())
    assert saved == ["t0.html", "t1.html", "t2.html"]
    scores = json.loads((out / "scores.json").read_text())
    assert scores["scores"] == {"t0": 1.0, "t1": 1.0, "t2": 1.0}
    assert scores["metrics"]["readable"]["mean"] == 1.0
