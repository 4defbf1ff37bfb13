"""``parsescore predict|run|prompt sequence --format mermaid`` against the scripted
chat-completions server of the predict tests: the Mermaid prompt is sent, answers are checked
with the Mermaid reader and saved as ``.mmd``, and ``run`` scores them against PlantUML truth."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_helpers import Cli
from parsescore.predict import AnswerError, accept_answer, default_prompt
from predict.chat_server import ChatServer, ok, write_png

MERMAID = (
    "sequenceDiagram\n    participant A\n    participant B\n    A->>B: hello\n    B-->>A: ok\n"
)
PLANTUML = "@startuml\nparticipant A\nparticipant B\nA -> B : hello\nB --> A : ok\n@enduml\n"


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer() as running:
        yield running


def test_prompt_format_is_the_papers_prompt_asking_for_mermaid(cli: Cli) -> None:
    plantuml, mermaid = default_prompt("sequence"), default_prompt("sequence", "mermaid")
    assert mermaid.startswith("Generate a Mermaid sequenceDiagram for the given 3GPP")
    # the paper's seven points, unchanged
    assert mermaid.splitlines()[1:] == plantuml.splitlines()[1:]
    assert default_prompt("sequence", "plantuml") == plantuml
    run = cli("prompt", "sequence", "--format", "mermaid")
    assert run.code == 0 and run.out == mermaid
    bad = cli("prompt", "sequence", "--format", "dot")
    assert bad.code == 2
    assert (
        "--format 'dot' is not a format of sequence; expected one of plantuml, mermaid" in bad.err
    )


def test_mermaid_answers_are_checked_with_the_mermaid_reader() -> None:
    prediction = accept_answer("sequence", f"```mermaid\n{MERMAID}```", stem="s", format="mermaid")
    assert prediction.text == MERMAID
    for answer, reason in (
        ("flowchart TD\n  A --> B", "not a Mermaid sequence diagram: a Mermaid 'flowchart'"),
        ("sequenceDiagram\n  autonumber", "no participant, arrow, note, group or box"),
        (PLANTUML, "not a Mermaid sequence diagram: expected 'sequenceDiagram' first"),
    ):
        with pytest.raises(AnswerError, match=reason):
            accept_answer("sequence", answer, stem="s", format="mermaid")


def test_predict_and_run_with_format_mermaid(server: ChatServer, tmp_path: Path, cli: Cli) -> None:
    images, truth = tmp_path / "images", tmp_path / "truth"
    images.mkdir()
    truth.mkdir()
    for seed, stem in enumerate(("flow1", "flow2")):
        image = write_png(images / f"{stem}.png", seed=seed)
        (truth / f"{stem}.puml").write_text(PLANTUML, encoding="utf-8")
        answer = MERMAID if stem == "flow1" else MERMAID.replace("ok", "okay")
        server.script(image, ok(f"Here it is:\n```mermaid\n{answer}```"))
    out = tmp_path / "out"
    os.environ.pop("OPENAI_API_KEY", None)
    result = cli(
        "run", "sequence", "--images", images, "--truth", truth, "--model", "m", "--out", out,
        "--base-url", server.base_url, "--quiet", "--format", "mermaid",
    )  # fmt: skip
    assert result.code == 0, result.out + result.err
    assert sorted(p.name for p in (out / "predictions").iterdir() if p.is_file()) == [
        "flow1.mmd",
        "flow2.mmd",
    ]
    assert all("Mermaid sequenceDiagram" in r.text for r in server.requests)
    scores = json.loads((out / "scores.json").read_text())
    assert scores["totals"]["message"]["substitution"] == 1  # "ok" became "okay" in flow2
    errors = sum(
        scores["totals"][c][k] for c in scores["totals"] for k in ("insertion", "deletion")
    )
    assert errors == 0
    envelope = json.loads((out / "result.json").read_text())
    assert envelope["inputs"]["formats"] == {"truth": {"plantuml": 2}, "pred": {"mermaid": 2}}
