"""Hostile answers in a graph dataset: each is an unreadable document, bounded in time and
memory, and the run goes on; a hostile truth is one error naming it."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from cli_helpers import Cli
from parsescore import evaluate

DATA = Path(__file__).resolve().parents[1] / "graph" / "data"
DATASET = DATA / "dataset"
TEMPLATE = f"{DATA / 'library_template.py'}:Library"


def _pred(tmp_path: Path, answer: str | bytes) -> Path:
    pred = tmp_path / "pred"
    shutil.copytree(DATASET / "pred", pred)
    target = pred / "lakeside.json"
    if isinstance(answer, bytes):
        target.write_bytes(answer)
    else:
        target.write_text(answer, encoding="utf-8")
    return pred


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("[" * 100_000 + "]" * 100_000, "JSON nested 100000 levels deep, more than the limit"),
        ("```\n" * 200_000 + "prose", "malformed JSON"),
        ("<think>" * 100_000 + '{"nodes": []}', "malformed JSON"),
        ("Sure:\n" + "~~~json\n" * 50_000, "malformed JSON"),
    ],
    ids=["deep", "fences", "think", "tildes"],
)
def test_hostile_answer_is_one_unreadable_document(
    tmp_path: Path, answer: str, reason: str
) -> None:
    pred = _pred(tmp_path, answer)
    start = time.perf_counter()
    result = evaluate("graph", DATASET / "truth", pred, template=TEMPLATE, quiet=True)
    assert time.perf_counter() - start < 20
    assert list(result.dataset["unreadable"]) == ["lakeside"]
    assert reason in result.dataset["unreadable"]["lakeside"]
    assert result.items["riverside"]["node_relaxed_f1"] == 0.909


def test_answer_past_the_size_limit_is_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARSESCORE_MAX_FILE_MB", "1")
    pred = _pred(tmp_path, "x" * 1_500_000)
    result = evaluate("graph", DATASET / "truth", pred, template=TEMPLATE, quiet=True)
    assert result.dataset["unreadable"] == {
        "lakeside": "file of 1.5 MB is larger than the limit of 1 MB (PARSESCORE_MAX_FILE_MB); "
        "write a large dataset as JSONL (one item per line, read line by line)"
    }


def test_hostile_truth_is_one_error(tmp_path: Path, cli: Cli) -> None:
    truth = tmp_path / "truth"
    shutil.copytree(DATASET / "truth", truth)
    (truth / "lakeside.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    run = cli("graph", "--truth", truth, "--pred", DATASET / "pred", "--template", TEMPLATE)
    assert run.code == 2
    assert run.err.startswith(f"error: {truth / 'lakeside.json'}: JSON nested 100000 levels deep")
    assert run.err.count("\n") == 1


def test_out_inside_an_input_folder_is_refused(tmp_path: Path, cli: Cli) -> None:
    pred = _pred(tmp_path, "{}")
    run = cli(
        "graph", "--truth", DATASET / "truth", "--pred", pred, "--template", TEMPLATE,
        "--out", pred / "eval.json",
    )  # fmt: skip
    assert run.code == 2 and "inside the input folder --pred" in run.err
    assert not (pred / "eval.json").exists()
