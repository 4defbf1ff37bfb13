"""``parsescore predict document`` / ``run document`` against the scripted chat server: each page
image's answer becomes ``<image stem>.md`` as written (code fences kept, ``<think>`` dropped), and
``run`` scores them exactly as ``parsescore document`` scores the same files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from chat_server import ChatServer, ok, write_jpeg, write_png

from cli_helpers import Cli
from parsescore.core.api import evaluate
from parsescore.document.predict import prompt

DATA = Path(__file__).resolve().parents[2] / "src" / "parsescore" / "data" / "document"


def _images(tmp_path: Path, chat_server: ChatServer, answer: dict[str, str]) -> Path:
    images = tmp_path / "images"
    images.mkdir()
    truth = json.loads((DATA / "truth.json").read_text(encoding="utf-8"))
    for seed, page in enumerate(truth):
        name = page["page_info"]["image_path"]
        write = write_png if name.endswith(".png") else write_jpeg
        chat_server.script(write(images / name, seed=seed), ok(answer[name[:-4]]))
    return images


def test_run_document_scores_the_answers_as_the_files(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    answers = {p.stem: p.read_text(encoding="utf-8") for p in (DATA / "model_a").glob("*.md")}
    stems = sorted(answers)
    code_page = answers[stems[0]] + "\n\n```python\nprint('kept')\n```\n"
    sent = dict(answers)
    sent[stems[0]] = "<think>Looking at the page.</think>\n" + code_page
    images = _images(tmp_path, chat_server, sent)
    out = tmp_path / "out"
    run = cli("run", "document", "--images", str(images), "--truth", str(DATA / "truth.json"),
              "--model", "m-1", "--out", str(out), "--base-url", chat_server.base_url,
              "--quiet")  # fmt: skip
    assert run.code == 0, run.out + run.err
    written = (out / "predictions" / f"{stems[0]}.md").read_text(encoding="utf-8")
    assert written == code_page.rstrip("\n") + "\n"  # the code fence kept, <think> dropped
    expected_folder = tmp_path / "expected"
    shutil.copytree(DATA / "model_a", expected_folder)
    (expected_folder / f"{stems[0]}.md").write_text(code_page, encoding="utf-8")
    expected = evaluate("document", DATA / "truth.json", expected_folder, quiet=True)
    result = json.loads((out / "result.json").read_text(encoding="utf-8"))
    assert result["kind"] == "document"
    assert result["totals"] == json.loads(json.dumps(expected.totals))
    assert {i["id"]: i["metrics"] for i in result["items"]} == json.loads(
        json.dumps(expected.items)
    )
    # the prompt the server saw is the documented one
    assert all(prompt().strip() in " ".join(r.texts) for r in chat_server.requests)


def test_a_looping_answer_is_a_failure_not_a_page(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    answers = {p.stem: p.read_text(encoding="utf-8") for p in (DATA / "model_a").glob("*.md")}
    looping = dict(answers)
    first = sorted(answers)[0]
    looping[first] = "the same line again\n" * 20_000
    images = _images(tmp_path, chat_server, looping)
    out = tmp_path / "out"
    run = cli("predict", "document", "--images", str(images), "--model", "m-1", "--out",
              str(out), "--base-url", chat_server.base_url, "--quiet")  # fmt: skip
    assert run.code == 1
    assert "more than one page's 200000" in run.out + run.err
    assert not (out / f"{first}.md").exists()
    assert len(list(out.glob("*.md"))) == len(answers) - 1
