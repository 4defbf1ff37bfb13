"""``parsescore predict`` against a real chat-completions server on 127.0.0.1 (see chat_server).

Every test starts the server itself (the ``chat_server`` fixture), scripts its replies per
image, runs the real CLI (in-process, or as a subprocess where a signal is needed) and checks
the files written, the requests the server received and the summary.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from chat_server import ChatServer, delay, garbage, hold, ok, status, write_jpeg, write_png

from cli_helpers import Cli, CliRun, default_sigint
from parsescore.core.api import evaluate
from parsescore.flowchart.predict import FLOWCHART_SCHEMA

DATA = Path(__file__).resolve().parents[2] / "src" / "parsescore" / "data"
KEY = "sk-test-key-4711"
SEQUENCE = "@startuml\nparticipant A\nparticipant B\nA -> B : hello\nB --> A : ok\n@enduml\n"
TABLE = "<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>"


def predict(
    server: ChatServer,
    kind: str,
    images: Path,
    out: Path,
    cli: Cli,
    *more: str,
) -> CliRun:
    """Run ``parsescore predict`` in-process with the test key in the environment."""
    args = [
        "predict",
        kind,
        "--images",
        str(images),
        "--out",
        str(out),
        "--model",
        "test-model",
        "--base-url",
        server.base_url,
        "--api-key-env",
        "PARSESCORE_TEST_KEY",
        "--retry-base",
        "0.01",
        *more,
    ]
    os.environ["PARSESCORE_TEST_KEY"] = KEY
    try:
        return cli(*args)
    finally:
        del os.environ["PARSESCORE_TEST_KEY"]


def state(out: Path) -> dict:
    return json.loads((out / "_predict" / "state.json").read_text())


def all_text(folder: Path) -> str:
    return "\n".join(p.read_text(errors="replace") for p in folder.rglob("*") if p.is_file())


def test_valid_answers_of_every_kind_become_prediction_files(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    answers = {
        "flowchart": (
            '```json\n{"nodes": [{"node_number": 1, "text": "Screened", "labels": [], '
            '"points_to": []}], "additional_texts": []}\n```',
            ".json",
        ),
        "sequence": (f"Here is the script:\n```plantuml\n{SEQUENCE}```\n", ".puml"),
        "table": (f"```html\n{TABLE}\n```", ".html"),
    }
    for seed, (kind, (answer, suffix)) in enumerate(answers.items()):
        images = tmp_path / kind / "images"
        images.mkdir(parents=True)
        png = write_png(images / "one.png", seed=seed)
        jpeg = write_jpeg(images / "two.jpg", seed=seed + 10)
        chat_server.script(png, ok(answer, prompt_tokens=100, completion_tokens=20))
        chat_server.script(jpeg, ok(answer, prompt_tokens=50, completion_tokens=10))
        out = tmp_path / kind / "out"
        result = predict(chat_server, kind, images, out, cli)
        assert result.code == 0, result.out
        assert "2 images, 2 done, 0 resumed, 0 failed" in result.out
        assert "tokens 150 in, 30 out" in result.out
        assert sorted(p.name for p in out.glob(f"*{suffix}")) == [f"one{suffix}", f"two{suffix}"]
        written = (out / f"one{suffix}").read_text()
        assert "```" not in written
        if kind == "flowchart":
            assert json.loads(written)["nodes"][0]["text"] == "Screened"
        elif kind == "sequence":
            assert written == SEQUENCE
        else:
            assert written == f"<html><body>{TABLE}</body></html>\n"
        # the raw response is kept beside the outputs, as the server sent it
        raw = json.loads((out / "_predict" / "responses" / "one.json").read_text())
        assert raw["choices"][0]["message"]["content"] == answer
        summary = json.loads((out / "_predict" / "summary.json").read_text())
        assert summary["done"] == 2 and summary["failed"] == [] and summary["prompt_tokens"] == 150

    requests = chat_server.requests
    assert len(requests) == 6
    assert {r.authorization for r in requests} == {f"Bearer {KEY}"}
    assert {r.model for r in requests} == {"test-model"}
    for request in requests:
        assert len(request.media_types) == 1
        assert request.media_types[0] == request.images[0].sniffed  # the true media type
    assert (
        sorted(m for r in requests for m in r.media_types) == ["image/jpeg"] * 3 + ["image/png"] * 3
    )
    flowchart_requests = [r for r in requests if r.response_format is not None]
    assert len(flowchart_requests) == 2
    assert flowchart_requests[0].response_format["json_schema"]["schema"] == FLOWCHART_SCHEMA
    assert "Transcribe it as one JSON object" in flowchart_requests[0].text
    # the sequence prompt is the paper's, with the stem standing in for the missing caption
    assert any('call flow diagram of "one"' in r.text for r in requests)
    # neither the key nor the server's address lands in any output file
    for kind in answers:
        text = all_text(tmp_path / kind / "out")
        assert KEY not in text
        assert str(chat_server.port) not in text and "127.0.0.1" not in text


def test_invalid_answers_are_recorded_failures_without_a_prediction_file(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    images = tmp_path / "images"
    images.mkdir()
    good = write_png(images / "good.png", seed=1)
    broken = write_png(images / "broken.png", seed=2)
    wrong = write_png(images / "wrong_shape.png", seed=3)
    chat_server.script(
        good,
        ok(
            '{"nodes": [{"node_number": 1, "text": "A", "labels": [], "points_to": []}], '
            '"additional_texts": ["Figure 1"]}'
        ),
    )
    chat_server.script(broken, ok('{"nodes": [{"node_number": 1, "text": "A",'))
    chat_server.script(
        wrong,
        ok(
            '{"nodes": [{"node_number": 1, "text": "A", "labels": [], "points_to": [7]}], '
            '"additional_texts": []}'
        ),
    )
    out = tmp_path / "out"
    result = predict(chat_server, "flowchart", images, out, cli)
    assert result.code == 1
    assert "3 images, 1 done, 0 resumed, 2 failed" in result.out
    assert "failed broken.png: the answer is not JSON" in result.out
    assert "failed wrong_shape.png:" in result.out and "points to 7" in result.out
    assert sorted(p.name for p in out.glob("*.json")) == ["good.json"]
    recorded = state(out)["images"]
    assert recorded["broken"]["status"] == "failed"
    assert "not JSON" in recorded["broken"]["error"]
    assert recorded["wrong_shape"]["status"] == "failed"
    # the refused answers' raw responses are kept for inspection
    assert (out / "_predict" / "responses" / "broken.json").is_file()
    # what was written scores: the folder is a valid prediction folder
    truth_like = json.loads((out / "good.json").read_text())
    assert truth_like["additional_texts"] == ["Figure 1"]


def test_invalid_plantuml_and_tables_are_failures(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    images = tmp_path / "images"
    images.mkdir()
    cases = {
        "prose": "I am sorry, I cannot read the diagram.",
        "no_end": "@startuml\nA -> B : hi\n",
        "no_statement": "@startuml\nthis is not plantuml\n@enduml",
    }
    for seed, (stem, answer) in enumerate(cases.items()):
        chat_server.script(write_png(images / f"{stem}.png", seed=seed), ok(answer))
    out = tmp_path / "out"
    result = predict(chat_server, "sequence", images, out, cli)
    assert result.code == 1
    assert "3 images, 0 done" in result.out
    assert list(out.glob("*.puml")) == []
    errors = {s: e["error"] for s, e in state(out)["images"].items()}
    assert "no @startuml ... @enduml" in errors["prose"]
    assert "no @startuml ... @enduml" in errors["no_end"]
    assert "not a sequence diagram" in errors["no_statement"]

    table_images = tmp_path / "table_images"
    table_images.mkdir()
    chat_server.script(write_png(table_images / "t.png", seed=9), ok("<p>no table here</p>"))
    result = predict(chat_server, "table", table_images, tmp_path / "t_out", cli)
    assert result.code == 1 and "failed t.png: no <table> found" in result.out


def test_429_then_success_is_retried_after_the_servers_retry_after(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    images = tmp_path / "images"
    images.mkdir()
    image = write_png(images / "a.png")
    chat_server.script(image, [status(429, retry_after=0.3), status(503), ok(SEQUENCE)])
    out = tmp_path / "out"
    result = predict(chat_server, "sequence", images, out, cli)
    assert result.code == 0, result.out
    assert "1 done" in result.out and "2 retries" in result.out
    arrivals = [r.arrived for r in chat_server.requests]
    assert len(arrivals) == 3
    assert arrivals[1] - arrivals[0] >= 0.3  # Retry-After honoured
    assert state(out)["images"]["a"]["attempts"] == 3
    assert (out / "a.puml").read_text() == SEQUENCE


def test_timeouts_are_retried_and_give_up_after_max_retries(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    images = tmp_path / "images"
    images.mkdir()
    slow_then_ok = write_png(images / "slow.png", seed=1)
    always_500 = write_png(images / "down.png", seed=2)
    chat_server.script(slow_then_ok, [delay(5), ok(SEQUENCE)])
    chat_server.script(always_500, status(500))
    out = tmp_path / "out"
    result = predict(
        chat_server, "sequence", images, out, cli, "--timeout", "0.5", "--max-retries", "2"
    )
    assert result.code == 1
    recorded = state(out)["images"]
    assert recorded["slow"]["status"] == "done" and recorded["slow"]["attempts"] == 2
    assert recorded["down"]["status"] == "failed" and recorded["down"]["attempts"] == 3
    assert recorded["down"]["error"].startswith("HTTP 500")
    assert len(chat_server.requests_for(always_500)) == 3
    assert "failed down.png: HTTP 500" in result.out


def test_the_key_and_address_are_redacted_even_when_the_server_echoes_them(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    images = tmp_path / "images"
    images.mkdir()
    echoed = write_png(images / "echo.png", seed=1)
    refused = write_png(images / "refused.png", seed=2)
    chat_server.script(
        echoed, ok(f"<table><tr><td>{KEY}</td><td>{chat_server.base_url}</td></tr></table>")
    )
    chat_server.script(refused, status(400, message=f"bad key {KEY} for {chat_server.base_url}"))
    out = tmp_path / "out"
    result = predict(chat_server, "table", images, out, cli)
    assert result.code == 1
    assert "[redacted]" in state(out)["images"]["refused"]["error"]
    assert "[redacted]" in (out / "echo.html").read_text()
    text = all_text(out)
    assert KEY not in text and chat_server.base_url not in text


def test_a_refused_key_stops_the_run_with_one_clear_error(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    images = tmp_path / "images"
    images.mkdir()
    for seed in range(3):
        write_png(images / f"i{seed}.png", seed=seed)
    chat_server.script("default", status(401))
    result = predict(chat_server, "table", images, tmp_path / "out", cli, "--concurrency", "1")
    assert result.code == 2
    assert "error:" in result.err and "401" in result.err and "key was refused" in result.err
    assert "Traceback" not in result.err
    assert len(chat_server.requests) == 1  # stopped at the first refusal


def test_concurrency_is_bounded(chat_server: ChatServer, tmp_path: Path, cli: Cli) -> None:
    images = tmp_path / "images"
    images.mkdir()
    for seed in range(6):
        write_png(images / f"i{seed}.png", seed=seed)
    chat_server.script("default", delay(0.2, ok(TABLE)))
    result = predict(chat_server, "table", images, tmp_path / "out", cli, "--concurrency", "2")
    assert result.code == 0, result.out
    assert chat_server.max_in_flight == 2
    assert len(list((tmp_path / "out").glob("*.html"))) == 6


def test_existing_output_is_never_overwritten_silently(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    images = tmp_path / "images"
    images.mkdir()
    image = write_png(images / "a.png")
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.html").write_text("<table><tr><td>mine</td></tr></table>")
    chat_server.script(image, [ok(TABLE), ok("no table")])
    result = predict(chat_server, "table", images, out, cli)
    assert result.code == 2 and "--on-existing" in result.err
    assert (out / "a.html").read_text() == "<table><tr><td>mine</td></tr></table>"
    result = predict(chat_server, "table", images, out, cli, "--on-existing", "resume")
    assert result.code == 2 and "no _predict/state.json" in result.err
    assert chat_server.requests == []
    result = predict(chat_server, "table", images, out, cli, "--on-existing", "overwrite")
    assert result.code == 0 and "<td>mine</td>" not in (out / "a.html").read_text()
    # overwrite with a refused answer removes the older answer: the folder reflects this run
    result = predict(chat_server, "table", images, out, cli, "--on-existing", "overwrite")
    assert result.code == 1 and not (out / "a.html").exists()


def test_resume_after_an_interruption_does_not_repeat_finished_images(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    images = tmp_path / "images"
    images.mkdir()
    first = write_png(images / "a.png", seed=1)
    second = write_png(images / "b.png", seed=2)
    third = write_png(images / "c.png", seed=3)
    chat_server.script(first, ok(SEQUENCE))
    chat_server.script(second, ok(SEQUENCE))
    # c is answered 500 first: its retry comes after a backoff sleep, so by the time the retry
    # arrives the run has recorded a and b (with --concurrency 1 the first c request can be sent
    # just before b's outcome is written). The retry is then held open, no clock involved,
    # and the run is interrupted while it waits; `wake` is set when the retry arrives.
    wake = threading.Event()
    chat_server.script(third, [status(500), hold(reached=wake), ok(SEQUENCE)])
    out = tmp_path / "out"
    command = [
        sys.executable, "-m", "parsescore", "predict", "sequence", "--images", str(images),
        "--out", str(out), "--model", "test-model", "--base-url", chat_server.base_url,
        "--concurrency", "1", "--retry-base", "0.01", "--quiet",
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=default_sigint,
    )
    # A run that ends without reaching the hold (a crash, say) wakes the test too.
    threading.Thread(target=lambda: (process.wait(), wake.set()), daemon=True).start()
    wake.wait()
    if process.poll() is not None:
        pytest.fail(f"the run ended before the third image was in flight: {process.communicate()}")
    assert len(chat_server.requests_for(third)) == 2  # the 500 and the held retry
    process.send_signal(signal.SIGINT)
    # No timeout needed: were the interrupt ignored, the held request would time out in the
    # run itself (--timeout, 120 s), its retry would be answered and the run would end.
    _, stderr = process.communicate()
    assert process.returncode == 130, stderr
    assert "interrupted after 2 of 3 images" in stderr
    assert "Traceback" not in stderr
    recorded = state(out)["images"]
    assert sorted(recorded) == ["a", "b"] and not (out / "c.puml").exists()

    result = predict(chat_server, "sequence", images, out, cli, "--on-existing", "resume")
    assert result.code == 0, result.out
    assert "3 images, 1 done, 2 resumed, 0 failed" in result.out
    assert len(chat_server.requests_for(first)) == 1  # not asked again
    assert len(chat_server.requests_for(second)) == 1
    assert len(chat_server.requests_for(third)) == 3  # asked once more
    assert sorted(p.name for p in out.glob("*.puml")) == ["a.puml", "b.puml", "c.puml"]
    resumed = state(out)["images"]
    assert resumed["a"]["status"] == "done"
    assert resumed["a"]["attempts"] == 1 and resumed["a"]["prompt_tokens"] == 10  # kept
    assert resumed["c"]["attempts"] == 1

    # resuming with another model would mix two runs: refused
    result = predict(
        chat_server, "sequence", images, out, cli, "--on-existing", "resume", "--model", "m2"
    )
    assert result.code == 2 and "another model" in result.err


def test_captions_fill_the_sequence_prompt(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    images = tmp_path / "images"
    images.mkdir()
    write_png(images / "a.png", seed=1)
    write_jpeg(images / "b.jpeg", seed=2)
    chat_server.script("default", ok(SEQUENCE))
    captions = tmp_path / "captions.csv"
    captions.write_text('image,caption\na.png,"Registration, step 1"\nb,Handover\n')
    result = predict(
        chat_server, "sequence", images, tmp_path / "out", cli, "--captions", str(captions)
    )
    assert result.code == 0
    texts = sorted(r.text for r in chat_server.requests)
    assert 'call flow diagram of "Handover"' in texts[0]
    assert 'call flow diagram of "Registration, step 1"' in texts[1]

    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps({"a.png": "Only one"}))
    result = predict(
        chat_server, "sequence", images, tmp_path / "out2", cli, "--captions", str(partial)
    )
    assert result.code == 2 and "no caption for 1 image(s): b.jpeg" in result.err


def test_a_custom_prompt_file_is_sent(chat_server: ChatServer, tmp_path: Path, cli: Cli) -> None:
    images = tmp_path / "images"
    images.mkdir()
    write_png(images / "fig.png")
    prompt = tmp_path / "prompt.txt"
    prompt.write_text('Table {stem}: answer {"html": ...} style? No: HTML only.')
    chat_server.script("default", ok(TABLE))
    result = predict(chat_server, "table", images, tmp_path / "out", cli, "--prompt", str(prompt))
    assert result.code == 0
    assert chat_server.requests[0].text == 'Table fig: answer {"html": ...} style? No: HTML only.'


def test_bad_inputs_get_one_line_errors(chat_server: ChatServer, tmp_path: Path, cli: Cli) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("x")
    result = predict(chat_server, "table", empty, tmp_path / "o1", cli)
    assert result.code == 2 and "no images found" in result.err

    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / "x.png").write_text("not an image")
    result = predict(chat_server, "table", fake, tmp_path / "o2", cli)
    assert result.code == 2 and "x.png" in result.err and "not a PNG or JPEG image" in result.err

    clash = tmp_path / "clash"
    clash.mkdir()
    write_png(clash / "same.png")
    write_jpeg(clash / "same.jpg")
    result = predict(chat_server, "table", clash, tmp_path / "o3", cli)
    assert result.code == 2 and "same.jpg" in result.err and "rename one" in result.err

    images = tmp_path / "images"
    images.mkdir()
    write_png(images / "a.png")
    result = predict(chat_server, "table", images, tmp_path / "o4", cli, "--concurrency", "0")
    assert result.code == 2 and "--concurrency must be 1 or more" in result.err
    for error in (result.code, result.err):
        assert "Traceback" not in str(error)
    assert chat_server.requests == []


def test_a_jpeg_named_png_is_sent_as_jpeg(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    images = tmp_path / "images"
    images.mkdir()
    write_jpeg(images / "photo.png", seed=5)
    chat_server.script("default", ok(TABLE))
    result = predict(chat_server, "table", images, tmp_path / "out", cli)
    assert result.code == 0
    assert chat_server.requests[0].media_types == ["image/jpeg"]


def test_a_server_answer_that_is_not_a_chat_completion_is_a_failure(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    images = tmp_path / "images"
    images.mkdir()
    write_png(images / "a.png")
    chat_server.script("default", garbage("<html>proxy error</html>", content_type="text/html"))
    out = tmp_path / "out"
    result = predict(chat_server, "table", images, out, cli)
    assert result.code == 1
    assert "not a chat completion" in result.out
    assert (out / "_predict" / "responses" / "a.txt").read_text() == "<html>proxy error</html>"


def test_predicted_flowcharts_score_like_the_same_files_scored_directly(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    """The outputs score correctly end to end: answers = the demo's predictions."""
    predictions = DATA / "flowchart" / "predictions"
    truth = DATA / "flowchart" / "ground-truth"
    images = tmp_path / "images"
    images.mkdir()
    for seed, path in enumerate(sorted(predictions.glob("*.json"))):
        image = write_png(images / f"{path.stem}.png", seed=seed)
        chat_server.script(image, ok(f"```json\n{path.read_text()}\n```"))
    out = tmp_path / "out"
    result = predict(chat_server, "flowchart", images, out, cli)
    assert result.code == 0, result.out
    ours = evaluate("flowchart", truth, out, quiet=True).native
    direct = evaluate("flowchart", truth, predictions, quiet=True).native
    ours.pop("inputs"), direct.pop("inputs")
    assert ours == direct
    assert len(ours["diagrams"]) == 5


def run(
    server: ChatServer,
    kind: str,
    images: Path,
    truth: Path,
    out: Path,
    cli: Cli,
    *more: str,
) -> CliRun:
    """``parsescore run`` in-process (no key needed: --base-url points at the test server)."""
    args = ["run", kind, "--images", str(images), "--truth", str(truth), "--model", "m-1"]
    args += ["--out", str(out), "--base-url", server.base_url, "--quiet", *more]
    return cli(*args)


def test_run_table_scores_the_predictions_under_the_truths_names(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    from parsescore.table import TEDS
    from parsescore.table.inputs import load_tables

    samples = DATA / "table" / "pubtabnet_samples"
    truth_all = json.loads((samples / "sample_gt.json").read_text())
    pred_all = json.loads((samples / "sample_pred.json").read_text())
    names = sorted(truth_all)[:3]
    truth = tmp_path / "truth.json"
    truth.write_text(json.dumps({n: truth_all[n] for n in names}))
    images = tmp_path / "images"
    images.mkdir()
    for seed, name in enumerate(names):
        image = write_png(images / name, seed=seed)  # PubTabNet names tables by image file
        answer = pred_all[name] if seed < 2 else "I see no table."
        chat_server.script(image, ok(answer))
    out = tmp_path / "out"
    outcome = run(chat_server, "table", images, truth, out, cli)
    assert outcome.code == 1  # one image failed
    assert "3 images, 2 done, 0 resumed, 1 failed" in outcome.out
    result = json.loads((out / "result.json").read_text())
    assert result["kind"] == "table"
    scored = {item["id"]: item["metrics"]["TEDS"] for item in result["items"]}
    teds, truth_html = TEDS(), load_tables(truth)
    for name in names[:2]:
        assert scored[name] == teds(truth_html[name], pred_all[name])
    assert scored[names[2]] == 0.0
    assert json.loads((out / "scores.json").read_text())["missing"] == [names[2]]
    page = (out / "report" / "index.html").read_text()
    assert "m-1" in page and names[0] in page


def test_run_sequence_end_to_end_on_the_readme_example(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "predict" / "sequence"
    for image in (example / "images").glob("*.png"):
        chat_server.script(image, ok((example / "answers" / f"{image.stem}.txt").read_text()))
    out = tmp_path / "out"
    result = run(
        chat_server,
        "sequence",
        example / "images",
        example / "truth",
        out,
        cli,
        "--captions",
        str(example / "captions.csv"),
    )
    assert result.code == 0, result.out
    # the same numbers as scoring the answers' scripts directly
    direct_pred = tmp_path / "direct"
    direct_pred.mkdir()
    for stem in (p.stem for p in (example / "truth").glob("*.puml")):
        source = DATA / "sequence" / "model_a" / f"{stem}.puml"
        (direct_pred / f"{stem}.puml").write_bytes(source.read_bytes())
    assert sorted(p.name for p in (out / "predictions").glob("*.puml")) == sorted(
        p.name for p in direct_pred.glob("*.puml")
    )
    result = cli(
        "sequence", "--truth", example / "truth", "--pred", direct_pred,
        "--out", tmp_path / "direct.json", "--quiet",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert json.loads((out / "scores.json").read_text()) == json.loads(
        (tmp_path / "direct.json").read_text()
    )
    assert 'call flow diagram of "Request for list of parallel links"' in " ".join(
        r.text for r in chat_server.requests
    )
    assert (out / "report" / "index.html").is_file()


def test_run_flowchart_leaves_failed_images_out_and_lists_them(
    chat_server: ChatServer, tmp_path: Path, cli: Cli
) -> None:
    predictions = DATA / "flowchart" / "predictions"
    images = tmp_path / "images"
    images.mkdir()
    stems = sorted(p.stem for p in predictions.glob("*.json"))
    for seed, stem in enumerate(stems):
        answer = (predictions / f"{stem}.json").read_text() if seed else "no flowchart here"
        chat_server.script(write_png(images / f"{stem}.png", seed=seed), ok(answer))
    out = tmp_path / "out"
    outcome = run(chat_server, "flowchart", images, DATA / "flowchart" / "ground-truth", out, cli)
    assert outcome.code == 1
    assert f"failed {stems[0]}.png: the answer is not JSON" in outcome.out
    result = json.loads((out / "result.json").read_text())
    assert [item["id"] for item in result["items"]] == stems[1:]
    assert result["dataset"]["missing"] == [stems[0]]
    direct = evaluate(
        "flowchart", DATA / "flowchart" / "ground-truth", predictions, quiet=True
    ).native
    by_stem = {d["stem"]: d for d in direct["diagrams"]}
    for item in result["items"]:  # the same numbers as scoring those files directly
        assert item["metrics"]["node_text_cost"] == by_stem[item["id"]]["node_text_cost"]
    assert (out / "report" / "index.html").is_file()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "malformed JSON"),
        ('{"parsescore_predict": 7}', "not a parsescore predict state file"),
        (
            '{"parsescore_predict": 1, "kind": "table", "model": "test-model", '
            '"prompt_sha256": "%s", "images": []}',
            "expected 'images' to be an object",
        ),
    ],
)
def test_a_damaged_state_file_is_a_clear_error(
    chat_server: ChatServer,
    tmp_path: Path,
    cli: Cli,
    content: str,
    message: str,
) -> None:
    import hashlib

    from parsescore.predict import default_prompt

    images = tmp_path / "images"
    images.mkdir()
    write_png(images / "a.png")
    state_file = tmp_path / "out" / "_predict" / "state.json"
    state_file.parent.mkdir(parents=True)
    prompt_sha = hashlib.sha256(default_prompt("table").encode()).hexdigest()
    state_file.write_text(content.replace("%s", prompt_sha))
    result = predict(chat_server, "table", images, tmp_path / "out", cli, "--on-existing", "resume")
    assert result.code == 2 and message in result.err and "state.json" in result.err
    assert "Traceback" not in result.err
    assert state_file.read_text() == content.replace("%s", prompt_sha)  # left as it was


def test_content_sent_as_parts_is_joined(chat_server: ChatServer, tmp_path: Path, cli: Cli) -> None:
    images = tmp_path / "images"
    images.mkdir()
    write_png(images / "a.png")
    body = {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "test-model",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": "<table><tr><td>a</td>"},
                        {"type": "text", "text": "</tr></table>"},
                    ],
                },
            }
        ],
    }
    chat_server.script("default", garbage(json.dumps(body)))
    result = predict(chat_server, "table", images, tmp_path / "out", cli)
    assert result.code == 0, result.out
    assert "<td>a</td></tr></table>" in (tmp_path / "out" / "a.html").read_text()
