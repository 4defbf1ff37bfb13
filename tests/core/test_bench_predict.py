"""``parsescore bench`` with a system that is a ``predict`` model, end to end: a scripted
OpenAI-compatible chat server on 127.0.0.1 (tests/predict/chat_server.py) answers for every
table image; the bench asks it, scores its answers beside a system of prediction files, compares
them, writes the leaderboard and the report, and on a re-run resumes instead of asking again."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import parsescore

SAMPLES = Path(parsescore.__file__).resolve().parent / "data" / "table" / "pubtabnet_samples"
CHAT_TESTS = Path(__file__).resolve().parents[1] / "predict"
KEY_ENV = "PARSESCORE_BENCH_TEST_KEY"
KEY = "sk-bench-test-4711"


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The predict tests' scripted chat server module, and a started server."""
    monkeypatch.syspath_prepend(str(CHAT_TESTS))
    import chat_server

    monkeypatch.setenv(KEY_ENV, KEY)
    with chat_server.ChatServer() as server:
        yield chat_server, server


def test_a_benchmark_whose_system_is_a_predict_model(chat, tmp_path: Path, cli) -> None:
    chat_server, server = chat
    truth_all = json.loads((SAMPLES / "sample_gt.json").read_text(encoding="utf-8"))
    pred_all = json.loads((SAMPLES / "sample_pred.json").read_text(encoding="utf-8"))
    names = sorted(truth_all)[:4]
    (tmp_path / "truth.json").write_text(json.dumps({n: truth_all[n] for n in names}))
    (tmp_path / "files.json").write_text(json.dumps({n: pred_all[n] for n in names}))
    images = tmp_path / "images"
    images.mkdir()
    for seed, name in enumerate(names):  # PubTabNet names a table by its image file
        image = chat_server.write_png(images / name, seed=seed)
        answer = f"Here it is:\n```html\n{pred_all[name]}\n```" if seed < 3 else "No table."
        server.script(image, chat_server.ok(answer))
    config = tmp_path / "bench.toml"
    config.write_text(
        f"""\
[bench]
title = "A model beside files"
resamples = 200
permutations = 200

[[dataset]]
name = "tables"
kind = "table"
truth = "truth.json"
options = {{ grits = false }}

[[dataset.system]]
name = "files"
pred = "files.json"

[[dataset.system]]
name = "vlm"
predict = {{ images = "images", model = "test-model", base_url = "{server.base_url}", \
api_key_env = "{KEY_ENV}", retry_base = 0.01 }}
""",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    run = cli("bench", config, "--out", out, "--quiet")
    assert run.code == 0, run.err
    # the model was asked once per image, with the model name and the key from the environment
    assert sorted(k for r in server.requests for k in r.image_keys) == sorted(
        chat_server.image_key(images / name) for name in names
    )
    assert {r.model for r in server.requests} == {"test-model"}
    assert {r.authorization for r in server.requests} == {f"Bearer {KEY}"}
    # its answers are kept, unwrapped from the chat answer, under the truth's names
    kept = out / "tables" / "predictions" / "vlm"
    assert sorted(p.name for p in kept.glob("*.html")) == [
        f"{Path(n).stem}.html" for n in names[:3]
    ]
    for name in names[:3]:
        assert (kept / f"{Path(name).stem}.html").read_text(encoding="utf-8").strip() == pred_all[
            name
        ]
    # the model's envelope scores its three tables as the same tables given as files score,
    # and the image it answered with no table as a missing table
    files = json.loads((out / "tables" / "files.json").read_text())
    vlm = json.loads((out / "tables" / "vlm.json").read_text())
    assert vlm["system"] == "vlm" and files["system"] == "files"
    scored = {item["id"]: item for item in vlm["items"]}
    given = {item["id"]: item for item in files["items"]}
    assert sorted(scored) == names
    for name in names[:3]:
        assert scored[name]["metrics"]["TEDS"] == given[name]["metrics"]["TEDS"]
    assert scored[names[3]]["metrics"]["TEDS"] == 0.0
    assert vlm["dataset"]["missing"] == [names[3]]
    alone = parsescore.evaluate(
        "table", tmp_path / "truth.json", {n: pred_all[n] for n in names[:3]}, grits=False,
        quiet=True,
    )  # fmt: skip
    assert [scored[n]["metrics"]["TEDS"] for n in names[:3]] == [
        alone.items[n]["TEDS"] for n in names[:3]
    ]
    # the truth's attributes are the same for both systems
    assert {i: s.get("attributes") for i, s in scored.items()} == {
        i: g.get("attributes") for i, g in given.items()
    }
    # the comparison, the leaderboard and the report hold both systems
    assert json.loads((out / "tables" / "comparison.json").read_text())["systems"] == [
        "files",
        "vlm",
    ]
    rows = list(csv.DictReader(io.StringIO((out / "leaderboard.csv").read_text())))
    assert [(r["dataset"], r["system"]) for r in rows] == [("tables", "files"), ("tables", "vlm")]
    assert "vlm" in (out / "leaderboard.md").read_text()
    page = (out / "report" / "index.html").read_text()
    assert "vlm" in page and "files" in page
    # a re-run resumes: only the image that failed is asked again (and fails again); the
    # envelopes are the same bytes
    before = {p: p.read_bytes() for p in (out / "tables").glob("*.json")}
    assert cli("bench", config, "--out", out, "--quiet").code == 0
    again = server.requests[4:]
    assert [r.image_keys for r in again] == [[chat_server.image_key(images / names[3])]]
    assert {p: p.read_bytes() for p in before} == before
