"""Hostile servers for ``parsescore predict``, round two (issue 30, item 5).

- a redirect to another host is one error naming that host, and the other host (a second
  real chat server) receives nothing; no redirect is followed;
- credentials in ``--base-url`` (a query ``api_key``, ``user:password`` and its Basic-auth
  base64) are secrets like the key;
- the key echoed as HTML entities (decimal, hex) is redacted;
- a key cut inside a long error message leaves no start of it (redaction comes before the cut).

The servers are the real loopback chat server of the predict tests (tests/predict/chat_server.py).
"""

from __future__ import annotations

import asyncio
import base64
import html
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, unquote

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "predict"))

from chat_server import ChatServer, Echo, ok, status, write_png

from cli_helpers import Cli, CliRun
from parsescore.predict.engine import (
    KEY_PREFIX,
    Redactor,
    _http_client,
    _OtherHost,
    _secrets,
)

KEY = "sk-round2-PLANTED-key-5e7a9c"
PREFIX = KEY[:KEY_PREFIX]
SEQUENCE = "@startuml\nA -> B : hello\n@enduml\n"


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer() as started:
        yield started


@pytest.fixture
def other() -> Iterator[ChatServer]:
    """The other host of a redirect: it must receive nothing."""
    with ChatServer() as started:
        started.script("default", ok(SEQUENCE))
        yield started


def predict(base_url: str, images: Path, out: Path, cli: Cli, *more: str) -> CliRun:
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
            base_url,
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


def decodings(text: str) -> list[str]:
    """``text`` and what a reader could turn it into: HTML-unescaped, URL-decoded,
    JSON-unescaped (each once, and all three)."""
    try:
        unescaped = json.loads('"' + text.replace('"', '\\"') + '"')
    except ValueError:
        unescaped = text
    return [
        text,
        html.unescape(text),
        unquote(text),
        unescaped,
        html.unescape(unquote(unescaped)),
    ]


def assert_never_written(secret: str, folder: Path, *printed: str) -> None:
    """No form of ``secret`` in any file of ``folder`` nor in ``printed``."""
    texts = [(str(p), p.read_text(errors="replace")) for p in folder.rglob("*") if p.is_file()]
    texts += [("printed", text) for text in printed]
    for where, text in texts:
        for decoded in decodings(text):
            assert secret.lower() not in decoded.lower(), (where, secret)


# ----------------------------------------------------------------------------- redirects


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_redirect_to_another_host_is_one_error_and_sends_nothing_there(
    tmp_path: Path, cli: Cli, server: ChatServer, other: ChatServer, code: int
) -> None:
    target = f"{other.base_url}/chat/completions?api_key={KEY}&token=stolen-{KEY}"
    server.script("default", status(code, headers={"Location": target}))
    out = tmp_path / "out"
    result = predict(server.base_url, images(tmp_path, 2), out, cli)
    assert result.code == 2, result.err
    errors = [line for line in result.err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.err
    assert f"another host, 127.0.0.1:{other.port}" in errors[0]
    assert "Traceback" not in result.err
    assert other.requests == []  # the image and the prompt never left for the other host
    assert len(server.requests) <= 2
    assert_never_written(PREFIX, out, result.out, result.err)
    assert_never_written(f"127.0.0.1:{server.port}", out, result.out, result.err)
    assert_never_written("stolen", out, result.out, result.err)


def test_redirect_on_the_same_host_is_not_followed(
    tmp_path: Path, cli: Cli, server: ChatServer
) -> None:
    server.script("default", status(307, headers={"Location": "/v2/chat/completions"}))
    result = predict(server.base_url, images(tmp_path), tmp_path / "out", cli)
    assert result.code == 2, result.err
    assert "redirected the request (HTTP 307) to another address on the same host" in result.err
    assert [r.path for r in server.requests] == ["/v1/chat/completions"]


def test_a_request_to_another_host_is_refused_before_it_is_sent(
    server: ChatServer, other: ChatServer
) -> None:
    """The client's own guard, whatever asks it to go elsewhere (not only a redirect)."""

    async def send() -> None:
        async with _http_client(server.base_url) as client:
            await client.post(f"{other.base_url}/chat/completions", json={"model": "m"})

    with pytest.raises(_OtherHost, match=f"127.0.0.1:{other.port}"):
        asyncio.run(send())
    assert other.requests == []


# ----------------------------------------------------------------------------- base URL credentials


def test_api_key_in_the_base_url_query_is_a_secret(
    tmp_path: Path, cli: Cli, server: ChatServer
) -> None:
    secret = "qs-SECRET-token-1f2e3d"
    answer = f"@startuml\nA -> B : {secret} {quote(secret)} {html.escape(secret)}\n@enduml\n"
    server.script("default", ok(answer))
    out = tmp_path / "out"
    base = f"{server.base_url}?api_key={secret}&api-version=2024-06-01"
    result = predict(base, images(tmp_path), out, cli)
    assert result.code == 0, result.err
    assert "[redacted]" in (out / "img0.puml").read_text()
    (request,) = server.requests
    assert request.path == "/v1/chat/completions"  # the query did not break the path
    assert_never_written(secret, out, result.out, result.err)
    assert_never_written(PREFIX, out, result.out, result.err)


def test_user_password_in_the_base_url_and_its_basic_auth_are_secrets(
    tmp_path: Path, cli: Cli, server: ChatServer
) -> None:
    user, password = "alice", "pa55-SECRET-word"
    basic = base64.b64encode(f"{user}:{password}".encode()).decode()
    server.script("default", Echo(f"@startuml\nA -> B : {{key}} {password} {basic}\n@enduml\n"))
    out = tmp_path / "out"
    base = f"http://{user}:{password}@127.0.0.1:{server.port}/v1"
    result = predict(base, images(tmp_path), out, cli)
    assert result.code == 0, result.err
    assert "[redacted]" in (out / "img0.puml").read_text()
    for secret in (password, basic, f"{user}:{password}", PREFIX):
        assert_never_written(secret, out, result.out, result.err)


# ----------------------------------------------------------------------------- key forms


def entities(text: str, hexadecimal: bool) -> str:
    return "".join(f"&#x{ord(c):x};" if hexadecimal else f"&#{ord(c)};" for c in text)


@pytest.mark.parametrize("hexadecimal", [False, True])
def test_key_echoed_as_html_entities_is_redacted(
    tmp_path: Path, cli: Cli, server: ChatServer, hexadecimal: bool
) -> None:
    answer = f"@startuml\nA -> B : {entities(KEY, hexadecimal)}\n@enduml\n"
    server.script("default", ok(answer))
    out = tmp_path / "out"
    result = predict(server.base_url, images(tmp_path), out, cli)
    assert result.code == 0, result.err
    assert "[redacted]" in (out / "img0.puml").read_text()
    assert_never_written(PREFIX, out, result.out, result.err)


@pytest.mark.parametrize("before", [289, 294, 299])
@pytest.mark.parametrize("code", [400, 401])
def test_key_cut_inside_a_long_error_message_leaves_no_start(
    tmp_path: Path, cli: Cli, server: ChatServer, before: int, code: int
) -> None:
    """The message is cut to 300 characters after redaction: no first 11 (or 6) characters
    of the key stay in state.json, summary.json or the terminal."""
    server.script("default", status(code, message="x" * before + KEY + " refused"))
    out = tmp_path / "out"
    result = predict(server.base_url, images(tmp_path), out, cli)
    assert "Traceback" not in result.err
    assert_never_written(PREFIX, out, result.out, result.err)
    if code == 400:
        assert "x" * 50 in (out / "_predict" / "state.json").read_text()


@pytest.mark.parametrize("length", range(KEY_PREFIX, len(KEY) + 1))
def test_any_start_of_the_key_of_six_or_more_is_redacted(length: int) -> None:
    redact = Redactor(_secrets(KEY, None))
    start = KEY[:length]
    for form in (start, json.dumps(start)[1:-1], quote(start), entities(start, True)):
        assert redact(f"said {form} here") == "said [redacted] here", form
    assert redact(f"said {KEY[: KEY_PREFIX - 1]} here") == f"said {KEY[: KEY_PREFIX - 1]} here"


def test_redaction_of_a_hostile_body_stays_linear() -> None:
    """Runs of backslashes, ampersands and percent signs (what the patterns start with) do not
    make the search quadratic."""
    import time

    redact = Redactor(_secrets(KEY, "http://u:pw-SECRET@127.0.0.1:9/v1?token=tok-SECRET"))
    timings = []
    for size in (50_000, 400_000):
        body = ("\\" * size) + ("&#" * size) + ("%25" * size) + ("sk-rou" * (size // 6))
        start = time.perf_counter()
        redact(body)
        timings.append(time.perf_counter() - start)
    assert timings[1] < 8 * 4 * max(timings[0], 0.01), timings
