"""Hostile servers for ``parsescore predict`` (issue 16): a server echoing the key and its own
address in every encoding, trickling bytes, sending a huge body or odd usage numbers.

The server is the real loopback chat server of the predict tests (tests/predict/chat_server.py).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "predict"))

from chat_server import (
    ChatServer,
    Echo,
    Huge,
    Trickle,
    garbage,
    ok,
    write_png,
)

from cli_helpers import Cli, CliRun

KEY = "sk-hostile-PLANTED-key-93f1"
SEQUENCE = "@startuml\nA -> B : hello\n@enduml\n"


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer() as started:
        yield started


def predict(server: ChatServer, images: Path, out: Path, cli: Cli, *more: str) -> CliRun:
    os.environ["PARSESCORE_HOSTILE_KEY"] = KEY
    try:
        return cli(
            "predict",
            "sequence",
            "--images",
            images,
            "--out",
            out,
            "--model",
            "m",
            "--base-url",
            server.base_url,
            "--api-key-env",
            "PARSESCORE_HOSTILE_KEY",
            "--retry-base",
            "0.01",
            "--max-retries",
            "0",
            *more,
        )
    finally:
        del os.environ["PARSESCORE_HOSTILE_KEY"]


def images(tmp_path: Path, count: int = 1) -> Path:
    folder = tmp_path / "images"
    folder.mkdir()
    for i in range(count):
        write_png(folder / f"img{i}.png", seed=i)
    return folder


def forms(secret: str) -> list[str]:
    """Every way the tests expect a secret could be written: plain, JSON-escaped, URL-encoded."""
    escaped = "".join(f"\\u{ord(c):04x}" for c in secret)
    return [secret, escaped, secret.replace("/", "\\/"), quote(secret, safe="")]


def assert_no_secret(folder: Path, server: ChatServer, *extra: str) -> None:
    host = f"127.0.0.1:{server.port}"
    secrets = [*forms(KEY), *forms(server.base_url), *forms(host)]
    for path in folder.rglob("*"):
        if path.is_file():
            text = path.read_text(errors="replace")
            for secret in secrets:
                assert secret.lower() not in text.lower(), (path, secret)
    for text in extra:
        for secret in secrets:
            assert secret.lower() not in text.lower(), secret


@pytest.mark.parametrize("encoding", ["plain", "json", "url"])
def test_echoed_secrets_are_redacted_everywhere(
    tmp_path: Path, cli: Cli, server: ChatServer, encoding: str
) -> None:
    answer = "@startuml\nA -> B : {key} at {base} on {host}\n@enduml\n"
    server.script("default", Echo(answer, encoding))
    out = tmp_path / "out"
    result = predict(server, images(tmp_path), out, cli)
    assert result.code == 0, result.err
    written = (out / "img0.puml").read_text()
    assert "[redacted]" in written
    assert_no_secret(out, server, result.out, result.err)


@pytest.mark.parametrize("encoding", ["plain", "json", "url"])
def test_echoed_secrets_in_a_server_error_are_redacted(
    tmp_path: Path, cli: Cli, server: ChatServer, encoding: str
) -> None:
    server.script("default", Echo("bad key {key} for {host} ({base})", encoding, code=400))
    out = tmp_path / "out"
    result = predict(server, images(tmp_path), out, cli)
    state = (out / "_predict" / "state.json").read_text()
    assert "[redacted]" in state
    assert_no_secret(out, server, result.out, result.err)


def test_fatal_server_error_is_redacted(tmp_path: Path, cli: Cli, server: ChatServer) -> None:
    server.script("default", Echo("key {key} refused by {host}", "json", code=401))
    result = predict(server, images(tmp_path), tmp_path / "out", cli)
    assert result.code == 2
    assert_no_secret(tmp_path / "out", server, result.out, result.err)


@pytest.mark.parametrize(
    ("usage", "said"),
    [("[1, 2]", "usage is not an object"), ('{"prompt_tokens": 1e400}', "prompt_tokens")],
)
def test_odd_usage_fails_that_answer_only(
    tmp_path: Path, cli: Cli, server: ChatServer, usage: str, said: str
) -> None:
    body = (
        '{"choices": [{"index": 0, "message": {"role": "assistant", "content": "@startuml\\n'
        'A -> B : x\\n@enduml\\n"}, "finish_reason": "stop"}], "usage": ' + usage + "}"
    )
    folder = images(tmp_path, 2)
    from chat_server import image_key

    server.script(image_key(folder / "img0.png"), garbage(body))
    server.script("default", ok(SEQUENCE))
    out = tmp_path / "out"
    result = predict(server, folder, out, cli)
    assert "Traceback" not in result.err
    assert (out / "img1.puml").is_file() and not (out / "img0.puml").exists()
    summary = (out / "_predict" / "summary.json").read_text()
    assert said in summary and "img0.png" in summary


def test_timeout_is_a_total_deadline(tmp_path: Path, cli: Cli, server: ChatServer) -> None:
    server.script("default", Trickle(interval=0.3, size=1000))
    start = time.perf_counter()
    out = tmp_path / "out"
    result = predict(server, images(tmp_path), out, cli, "--timeout", "1.5")
    elapsed = time.perf_counter() - start
    assert elapsed < 8, elapsed  # one byte every 0.3 s would take 300 s
    assert "timed out" in (out / "_predict" / "summary.json").read_text()
    assert "Traceback" not in result.err


@pytest.mark.parametrize("declare_length", [True, False])
def test_response_size_is_capped(
    tmp_path: Path,
    cli: Cli,
    server: ChatServer,
    monkeypatch: pytest.MonkeyPatch,
    declare_length: bool,
) -> None:
    monkeypatch.setenv("PARSESCORE_MAX_RESPONSE_MB", "1")
    server.script("default", Huge(50_000_000, declare_length))
    out = tmp_path / "out"
    start = time.perf_counter()
    result = predict(server, images(tmp_path), out, cli)
    assert time.perf_counter() - start < 10
    summary = (out / "_predict" / "summary.json").read_text()
    assert "larger than the limit of 1 MB" in summary
    assert "Traceback" not in result.err
    assert not (out / "_predict" / "responses").exists()  # nothing of it was kept


@pytest.mark.parametrize("url", ["::not a url::", "ftp://host/v1", "http://", "http://h:99999/v1"])
def test_bad_base_url_is_one_error(tmp_path: Path, cli: Cli, url: str) -> None:
    result = cli(
        "predict",
        "sequence",
        "--images",
        images(tmp_path),
        "--out",
        tmp_path / "out",
        "--model",
        "m",
        "--base-url",
        url,
    )
    assert result.code == 2
    errors = [line for line in result.err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith("error: --base-url"), result.err
    assert "Traceback" not in result.err


def test_image_over_the_size_limit_is_one_error(
    tmp_path: Path, cli: Cli, server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PARSESCORE_MAX_FILE_MB", "1")
    folder = images(tmp_path)
    big = folder / "big.png"
    big.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 1_500_000)
    result = predict(server, folder, tmp_path / "out", cli)
    errors = [line for line in result.err.splitlines() if line.startswith("error:")]
    assert result.code == 2 and len(errors) == 1, result.err
    assert "big.png" in errors[0] and "PARSESCORE_MAX_FILE_MB" in errors[0]
    assert server.requests == []
