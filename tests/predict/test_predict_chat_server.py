"""The scripted chat server itself, driven by the official ``openai`` client."""

from __future__ import annotations

import io
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest
from chat_server import (
    ChatServer,
    data_url,
    delay,
    disconnect,
    garbage,
    image_key,
    jpeg_bytes,
    marker,
    ok,
    png_bytes,
    status,
    write_jpeg,
    write_png,
)
from PIL import Image


@pytest.fixture
def client(chat_server: ChatServer) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(
        base_url=chat_server.base_url, api_key="sk-test", max_retries=0, timeout=5.0
    ) as c:
        yield c


@pytest.fixture
def png(tmp_path: Path) -> Path:
    return write_png(tmp_path / "page.png", seed=1)


def messages(image: Path | None, text: str = "Parse this diagram.") -> list[dict[str, Any]]:
    content: list[dict[str, Any]] = [{"type": "text", "text": text}]
    if image is not None:
        content.append({"type": "image_url", "image_url": {"url": data_url(image)}})
    return [{"role": "user", "content": content}]


def ask(client: openai.OpenAI, image: Path | None, **kwargs: Any) -> Any:
    return client.chat.completions.create(model="test-model", messages=messages(image), **kwargs)


def test_ok_reply_is_a_chat_completion(chat_server: ChatServer, client: openai.OpenAI, png: Path):
    chat_server.script(key=image_key(png), replies=[ok("graph TD; A-->B", 120, 8)])
    completion = ask(client, png)
    assert completion.object == "chat.completion"
    assert completion.model == "test-model"
    assert completion.choices[0].message.role == "assistant"
    assert completion.choices[0].message.content == "graph TD; A-->B"
    assert completion.choices[0].finish_reason == "stop"
    assert completion.usage is not None
    assert (completion.usage.prompt_tokens, completion.usage.completion_tokens) == (120, 8)
    assert completion.usage.total_tokens == 128


def test_rate_limit_surfaces_then_next_reply_is_served(
    chat_server: ChatServer, client: openai.OpenAI, png: Path
):
    chat_server.script(key=image_key(png), replies=[status(429, retry_after=2), ok("done")])
    with pytest.raises(openai.RateLimitError) as err:
        ask(client, png)
    assert err.value.status_code == 429
    assert err.value.response.headers["retry-after"] == "2"
    assert err.value.code == "rate_limit_exceeded"
    assert ask(client, png).choices[0].message.content == "done"
    assert ask(client, png).choices[0].message.content == "done"  # the last reply repeats
    assert len(chat_server.requests) == 3  # max_retries=0: no hidden retry


@pytest.mark.parametrize(
    ("code", "error"),
    [
        (400, openai.BadRequestError),
        (500, openai.InternalServerError),
        (503, openai.InternalServerError),
    ],
)
def test_status_codes_map_to_openai_errors(
    chat_server: ChatServer, client: openai.OpenAI, png: Path, code: int, error: type[Exception]
):
    chat_server.script(key=image_key(png), replies=[status(code, message="boom")])
    with pytest.raises(error) as err:
        ask(client, png)
    assert isinstance(err.value, openai.APIStatusError)
    assert err.value.status_code == code
    assert err.value.body == {
        "message": "boom",
        "type": "invalid_request_error" if code == 400 else "server_error",
        "param": None,
        "code": "invalid_request" if code == 400 else None,
    }


def test_delay_beyond_client_timeout_and_prompt_shutdown(chat_server: ChatServer, png: Path):
    chat_server.script(key=image_key(png), replies=[delay(10, then=ok("late"))])
    with openai.OpenAI(
        base_url=chat_server.base_url, api_key="k", max_retries=0, timeout=0.5
    ) as client:
        start = time.monotonic()
        with pytest.raises(openai.APITimeoutError):
            ask(client, png)
        assert 0.45 < time.monotonic() - start < 5  # the timeout, not the 10 s reply
    assert chat_server.in_flight == 1  # the handler is still asleep
    start = time.monotonic()
    chat_server.stop()
    assert time.monotonic() - start < 5  # the sleeping handler was woken, not waited for
    assert chat_server.in_flight == 0


def test_garbage_body(chat_server: ChatServer, client: openai.OpenAI, png: Path):
    """A non-JSON body labelled JSON escapes the client as a bare JSONDecodeError (not an
    openai error); labelled text/plain, the client returns the raw text as a ``str``."""
    chat_server.script(
        key=image_key(png), replies=[garbage("<html>oops"), garbage("oops", "text/plain")]
    )
    with pytest.raises(json.JSONDecodeError):
        ask(client, png)
    assert ask(client, png) == "oops"


def test_disconnect_is_a_connection_error(
    chat_server: ChatServer, client: openai.OpenAI, png: Path
):
    chat_server.script(key=image_key(png), replies=[disconnect(), ok("back")])
    with pytest.raises(openai.APIConnectionError) as err:
        ask(client, png)
    assert not isinstance(err.value, openai.APITimeoutError)
    assert ask(client, png).choices[0].message.content == "back"


def test_requests_are_recorded(chat_server: ChatServer, client: openai.OpenAI, tmp_path: Path):
    png, jpg = write_png(tmp_path / "a.png", seed=1), write_jpeg(tmp_path / "b.jpg", seed=1)
    chat_server.script(key=png, replies=ok("p"))  # a path is hashed like image_key
    chat_server.script(key=image_key(jpg), replies=[ok("j")])
    schema = {"type": "json_schema", "json_schema": {"name": "flowchart", "schema": {}}}
    ask(client, png, response_format=schema)
    ask(client, jpg)
    first, second = chat_server.requests
    assert (first.method, first.path) == ("POST", "/v1/chat/completions")
    assert first.authorization == "Bearer sk-test"
    assert first.model == "test-model"
    assert first.key == image_key(png) and second.key == image_key(jpg)
    assert first.media_types == ["image/png"] and second.media_types == ["image/jpeg"]
    assert first.images[0].sniffed == "image/png" and second.images[0].sniffed == "image/jpeg"
    assert first.images[0].data == png.read_bytes()
    assert first.response_format == schema and second.response_format is None
    assert first.text == "Parse this diagram."
    assert first.arrived <= second.arrived
    assert chat_server.requests_for(jpg) == [second]


def test_key_resolution_marker_default_and_unscripted(
    chat_server: ChatServer, client: openai.OpenAI, tmp_path: Path
):
    a, b = write_png(tmp_path / "a.png", seed=1), write_png(tmp_path / "b.png", seed=2)
    with pytest.raises(openai.BadRequestError, match="no reply scripted"):
        ask(client, a)
    assert chat_server.requests[-1].key is None
    chat_server.script(key="default", replies=[ok("fallback")])
    chat_server.script(key="m1", replies=[ok("by marker")])
    chat_server.script(key=image_key(a), replies=[ok("by hash")])
    assert ask(client, a).choices[0].message.content == "by hash"
    assert ask(client, b).choices[0].message.content == "fallback"
    by_marker = client.chat.completions.create(
        model="x", messages=messages(b, f"Parse {marker('m1')} this.")
    )
    assert by_marker.choices[0].message.content == "by marker"
    assert [r.key for r in chat_server.requests[1:]] == [image_key(a), "default", "m1"]


def test_other_paths_are_404(chat_server: ChatServer):
    url = chat_server.base_url.removesuffix("/v1") + "/v1/models"
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(url, timeout=2)
    assert err.value.code == 404
    assert json.loads(err.value.read())["error"]["code"] == "not_found"


def test_max_in_flight_counts_concurrent_requests(
    chat_server: ChatServer, client: openai.OpenAI, tmp_path: Path
):
    chat_server.script(key="default", replies=[delay(0.3, then=ok("slow"))])
    images = [write_png(tmp_path / f"{i}.png", seed=i) for i in range(3)]
    results: list[str | None] = []

    def one(image: Path) -> None:
        results.append(ask(client, image).choices[0].message.content)

    threads = [threading.Thread(target=one, args=(p,)) for p in images]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert results == ["slow"] * 3
    assert chat_server.max_in_flight == 3  # served in parallel, not one after another
    deadline = time.monotonic() + 5  # a handler may still be finishing after its reply left
    while chat_server.in_flight and time.monotonic() < deadline:
        time.sleep(0.01)
    assert chat_server.in_flight == 0


def test_image_helpers_are_valid_and_seeded():
    for seed in range(3):
        with Image.open(io.BytesIO(png_bytes(seed, 3, 2))) as im:
            im.load()
            assert (im.format, im.size, im.mode) == ("PNG", (3, 2), "RGB")
        with Image.open(io.BytesIO(jpeg_bytes(seed))) as im:
            im.load()
            assert (im.format, im.size, im.mode) == ("JPEG", (8, 8), "L")
            assert im.getextrema() == ((seed * 37 + 11) % 256,) * 2
    assert len({png_bytes(s) for s in range(50)}) == 50
    assert len({jpeg_bytes(s) for s in range(50)}) == 50
