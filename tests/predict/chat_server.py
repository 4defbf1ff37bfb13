"""A scripted, OpenAI-compatible chat-completions server on 127.0.0.1 for the predict tests.

Only ``POST /v1/chat/completions`` is served (anything else gets a 404). What each request
gets back is scripted per key with :meth:`ChatServer.script`; a request's key is, in order
of preference, the SHA-256 of its first decoded image if that is scripted, else a
``[[key:NAME]]`` marker in its text if that is scripted, else ``"default"`` if that is
scripted. Unscripted requests get a 400 saying so. Stdlib only (no openai import here).

To act while a request is in flight, script a :func:`hold`: it keeps the request open with no
clock involved, sets an event when a request reaches it, and answers once released.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
import socket
import struct
import threading
import time
import zlib
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

CHAT_PATH = "/v1/chat/completions"
DEFAULT_KEY = "default"
CREATED = 1_700_000_000
MAX_DELAY = 30.0
MARKER_RE = re.compile(r"\[\[key:([^\]]+)\]\]")
_DATA_URL_RE = re.compile(r"data:([^;,]+)(;base64)?,(.*)", re.DOTALL)
_ERROR_TYPES = {
    400: ("invalid_request_error", "invalid_request"),
    401: ("invalid_request_error", "invalid_api_key"),
    404: ("invalid_request_error", "not_found"),
    429: ("requests", "rate_limit_exceeded"),
}


# ----------------------------------------------------------------------------- replies


@dataclass(frozen=True)
class Ok:
    """HTTP 200 with a valid ``chat.completion`` whose message content is ``content``."""

    content: str
    prompt_tokens: int = 10
    completion_tokens: int = 5
    finish_reason: str = "stop"


@dataclass(frozen=True)
class Status:
    """An HTTP error ``code``, optionally with ``Retry-After``; OpenAI-shaped JSON body."""

    code: int
    retry_after: float | None = None
    body: Mapping[str, Any] | str | None = None
    message: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Delay:
    """Sleep ``seconds`` (interrupted by server shutdown), then send ``then``."""

    seconds: float
    then: Reply


@dataclass(frozen=True, eq=False)
class Hold:
    """Keep the request open until :meth:`release` (or server shutdown), then send ``then``.

    No clock: a test that must act while a request is in flight waits for ``reached`` (set
    when a request gets here) instead of sleeping, and the reply waits for the test.
    """

    then: Reply
    reached: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)

    def release(self) -> None:
        """Let every request held here (and every later one) go on to ``then``."""
        self.released.set()


@dataclass(frozen=True)
class Garbage:
    """HTTP 200 whose body is ``body`` verbatim (not JSON), labelled ``content_type``."""

    body: str
    content_type: str = "application/json"


@dataclass(frozen=True)
class Disconnect:
    """Close the connection without sending any response."""


@dataclass(frozen=True)
class Echo:
    """Echo what the client sent: ``template`` with ``{key}`` (the bearer token), ``{host}``
    (the ``Host`` header, i.e. host:port) and ``{base}`` (``http://{host}/v1``), each written
    in ``encoding``: ``plain``, ``json`` (``\\uXXXX`` escapes, ``\\/`` for slashes: what a
    JSON encoder may send, decoding to the clear text) or ``url`` (``%XX``). ``code`` 200 puts
    it in the answer's content, any other code in an OpenAI error message."""

    template: str
    encoding: str = "plain"
    code: int = 200


@dataclass(frozen=True)
class Trickle:
    """HTTP 200 announcing ``size`` bytes, then sending one byte every ``interval`` seconds."""

    interval: float
    size: int = 1000


@dataclass(frozen=True)
class Huge:
    """HTTP 200 sending ``size`` bytes of a never-ending JSON string (``Content-Length``
    announced, or not: then the body ends when the connection closes)."""

    size: int
    declare_length: bool = True


Reply = Ok | Status | Delay | Hold | Garbage | Disconnect | Echo | Trickle | Huge


def ok(
    content: str | Mapping[str, Any] | list[Any],
    prompt_tokens: int = 10,
    completion_tokens: int = 5,
    finish_reason: str = "stop",
) -> Ok:
    """A successful completion; a non-string ``content`` is sent JSON-encoded."""
    text = content if isinstance(content, str) else json.dumps(content)
    return Ok(text, prompt_tokens, completion_tokens, finish_reason)


def status(
    code: int,
    retry_after: float | None = None,
    body: Mapping[str, Any] | str | None = None,
    *,
    message: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> Status:
    """An error reply; ``body`` (dict → JSON, str → raw) overrides the OpenAI error shape."""
    return Status(code, retry_after, body, message, dict(headers or {}))


def delay(seconds: float, then: Reply | None = None) -> Delay:
    """Sleep before replying with ``then`` (default ``ok("")``)."""
    return Delay(seconds, ok("") if then is None else then)


def hold(then: Reply | None = None, *, reached: threading.Event | None = None) -> Hold:
    """Hold the request open until :meth:`Hold.release`, then reply ``then`` (default
    ``ok("")``). ``reached`` is set when a request arrives here; pass your own event to be
    woken by this or by something else (e.g. the client process exiting), whichever is first.
    """
    return Hold(ok("") if then is None else then, threading.Event() if reached is None else reached)


def garbage(body: str, content_type: str = "application/json") -> Garbage:
    """A 200 whose body is not valid JSON."""
    return Garbage(body, content_type)


def _encode(text: str, encoding: str) -> str:
    """``text`` as it stands in a JSON body's raw bytes, in ``encoding`` (see :class:`Echo`)."""
    if encoding == "json":
        return "".join("\\/" if c == "/" else f"\\u{ord(c):04x}" for c in text)
    if encoding == "url":
        from urllib.parse import quote

        return quote(text, safe="")
    if encoding == "plain":
        return text
    raise ValueError(f"unknown encoding {encoding!r}")


def disconnect() -> Disconnect:
    """Drop the connection without a response."""
    return Disconnect()


def error_body(code: int, message: str) -> dict[str, Any]:
    """OpenAI's error shape ``{"error": {"message", "type", "code"}}`` for ``code``."""
    kind, err_code = _ERROR_TYPES.get(code, ("server_error" if code >= 500 else "api_error", None))
    return {"error": {"message": message, "type": kind, "param": None, "code": err_code}}


# ----------------------------------------------------------------------------- records


@dataclass(frozen=True)
class RecordedImage:
    """One ``image_url`` part of a request."""

    url: str
    media_type: str | None  # from the data URL, e.g. "image/png"; None if not a data URL
    data: bytes | None  # decoded bytes; None if not a (valid base64) data URL
    key: str | None  # SHA-256 hex of ``data``
    sniffed: str | None  # "image/png" / "image/jpeg" from the magic bytes, else None


@dataclass(frozen=True)
class RecordedRequest:
    """Everything the server saw of one request."""

    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    raw: bytes
    body: Any  # parsed JSON, or None if the body was not JSON
    arrived: float  # time.monotonic() when the request line was read
    key: str | None  # the script key it resolved to; None if unscripted / not a chat request
    texts: tuple[str, ...] = ()
    images: tuple[RecordedImage, ...] = ()

    @property
    def authorization(self) -> str | None:
        return self.headers.get("authorization")

    @property
    def model(self) -> str | None:
        return self.body.get("model") if isinstance(self.body, dict) else None

    @property
    def response_format(self) -> Any:
        return self.body.get("response_format") if isinstance(self.body, dict) else None

    @property
    def text(self) -> str:
        """All text parts of all messages, joined by newlines."""
        return "\n".join(self.texts)

    @property
    def media_types(self) -> list[str | None]:
        return [image.media_type for image in self.images]

    @property
    def image_keys(self) -> list[str | None]:
        return [image.key for image in self.images]


def _sniff(data: bytes) -> str | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    return None


def _image(url: str) -> RecordedImage:
    match = _DATA_URL_RE.fullmatch(url)
    if not match:
        return RecordedImage(url, None, None, None, None)
    media_type, is_b64, payload = match.groups()
    try:
        data = base64.b64decode(payload, validate=True) if is_b64 else payload.encode()
    except (binascii.Error, ValueError):
        return RecordedImage(url, media_type, None, None, None)
    return RecordedImage(url, media_type, data, hashlib.sha256(data).hexdigest(), _sniff(data))


def _parts(body: Any) -> tuple[tuple[str, ...], tuple[RecordedImage, ...]]:
    """Text parts and image parts of every message in a chat request body."""
    texts: list[str] = []
    images: list[RecordedImage] = []
    messages = body.get("messages") if isinstance(body, dict) else None
    for message in messages if isinstance(messages, list) else []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            texts.append(content)
            continue
        for part in content if isinstance(content, list) else []:
            if not isinstance(part, dict):
                continue
            if part.get("type") == "text" and isinstance(part.get("text"), str):
                texts.append(part["text"])
            elif part.get("type") == "image_url":
                image_url = part.get("image_url")
                url = image_url.get("url") if isinstance(image_url, dict) else image_url
                if isinstance(url, str):
                    images.append(_image(url))
    return tuple(texts), tuple(images)


# ----------------------------------------------------------------------------- server


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # ChatServer.stop joins handler threads itself, with a deadline
    owner: ChatServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay quiet about clients that went away (e.g. after a client-side timeout)."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else delayed ACKs add ~40 ms per reply
    server: _HTTPServer

    def setup(self) -> None:
        super().setup()
        self.server.owner._connection_opened(self.request)

    def finish(self) -> None:
        with suppress(OSError):
            super().finish()
        self.server.owner._connection_closed(self.request)

    def log_message(self, format: str, *args: Any) -> None:
        """No access log on stderr."""

    def do_POST(self) -> None:
        self.server.owner._handle(self)

    do_GET = do_PUT = do_PATCH = do_DELETE = do_POST

    # --- writing, tolerant of clients that hung up
    def send_body(
        self,
        code: int,
        payload: bytes,
        content_type: str = "application/json",
        headers: Mapping[str, str] | None = None,
    ) -> None:
        try:
            self.send_response(code)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)
            self.wfile.flush()
        except OSError:
            self.close_connection = True

    def send_json(self, code: int, obj: Any, headers: Mapping[str, str] | None = None) -> None:
        self.send_body(code, json.dumps(obj).encode(), headers=headers)


class ChatServer:
    """Threaded scripted chat-completions server; use as a context manager or start()/stop()."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self._port = port
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._scripts: dict[str, list[Reply]] = {}
        self._positions: dict[str, int] = {}
        self._requests: list[RecordedRequest] = []
        self._connections: set[socket.socket] = set()
        self._handler_threads: set[threading.Thread] = set()
        self._holding: list[Hold] = []  # one entry per handler waiting on a hold
        self._in_flight = 0
        self._max_in_flight = 0
        self._served = 0
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle
    def start(self) -> ChatServer:
        """Bind a free port and serve on a daemon thread."""
        if self._httpd is not None:
            raise RuntimeError("chat server already started")
        self._stopping.clear()
        httpd = _HTTPServer((self.host, self._port), _Handler)
        httpd.owner = self
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            daemon=True,
            name="chat-server",
        )
        self._thread.start()
        return self

    def stop(self, timeout: float = 1.0) -> None:
        """Stop serving: wake sleeping handlers (releasing the holds they wait on), drop open
        connections, join threads."""
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        deadline = time.monotonic() + timeout
        with self._lock:  # under the lock: a handler about to hold sees it (see _hold)
            self._stopping.set()
            holding = list(self._holding)
        for held in holding:
            held.release()
        httpd.shutdown()
        httpd.server_close()
        with self._lock:
            connections = list(self._connections)
            threads = list(self._handler_threads)
        for conn in connections:
            with suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
        if self._thread is not None:
            self._thread.join(max(0.0, deadline - time.monotonic()))
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))

    def __enter__(self) -> ChatServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("chat server not started")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """What to pass as ``openai.OpenAI(base_url=...)``, e.g. ``http://127.0.0.1:PORT/v1``."""
        return f"http://{self.host}:{self.port}/v1"

    # --- scripting and inspection
    def script(self, key: str | os.PathLike[str], replies: Reply | Sequence[Reply]) -> None:
        """Plan the replies for ``key`` (an image hash, a path to hash, a marker name, or
        ``"default"``): consumed in order, the last repeats. Replaces any earlier script."""
        name = image_key(key) if isinstance(key, os.PathLike) else key
        planned = [replies] if isinstance(replies, Reply) else list(replies)
        if not planned:
            raise ValueError("script needs at least one reply")
        with self._lock:
            self._scripts[name] = planned
            self._positions[name] = 0

    @property
    def requests(self) -> list[RecordedRequest]:
        """A snapshot of every request received so far, in arrival order."""
        with self._lock:
            return list(self._requests)

    def requests_for(self, key: str | os.PathLike[str]) -> list[RecordedRequest]:
        """The requests that resolved to ``key``."""
        name = image_key(key) if isinstance(key, os.PathLike) else key
        return [r for r in self.requests if r.key == name]

    @property
    def in_flight(self) -> int:
        with self._lock:
            return self._in_flight

    @property
    def max_in_flight(self) -> int:
        """Most chat requests being handled at once (delays included) since start."""
        with self._lock:
            return self._max_in_flight

    # --- internals (called from handler threads)
    def _connection_opened(self, conn: socket.socket) -> None:
        with self._lock:
            self._connections.add(conn)
            self._handler_threads.add(threading.current_thread())

    def _connection_closed(self, conn: socket.socket) -> None:
        with self._lock:
            self._connections.discard(conn)
            self._handler_threads.discard(threading.current_thread())

    def _resolve(self, texts: Sequence[str], images: Sequence[RecordedImage]) -> str | None:
        candidates = [image.key for image in images[:1] if image.key]
        candidates += [m.group(1) for text in texts for m in MARKER_RE.finditer(text)]
        candidates.append(DEFAULT_KEY)
        return next((c for c in candidates if c in self._scripts), None)

    def _next_reply(self, key: str | None) -> Reply:
        if key is None:
            return status(400, message="chat_server: no reply scripted for this request")
        planned = self._scripts[key]
        position = self._positions[key]
        self._positions[key] = position + 1
        return planned[min(position, len(planned) - 1)]

    def _handle(self, handler: _Handler) -> None:
        arrived = time.monotonic()
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        path = handler.path.split("?", 1)[0]
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        headers = {name.lower(): value for name, value in handler.headers.items()}
        is_chat = handler.command == "POST" and path == CHAT_PATH
        texts, images = _parts(body) if is_chat else ((), ())
        with self._lock:
            key = self._resolve(texts, images) if is_chat and isinstance(body, dict) else None
            reply = self._next_reply(key) if key is not None or is_chat else None
            self._requests.append(
                RecordedRequest(
                    handler.command, path, headers, raw, body, arrived, key, texts, images
                )
            )
            if is_chat:
                self._in_flight += 1
                self._max_in_flight = max(self._max_in_flight, self._in_flight)
        if not is_chat:
            handler.send_json(404, error_body(404, f"no route for {handler.command} {path}"))
            return
        if not isinstance(body, dict):
            reply = status(400, message="chat_server: request body is not a JSON object")
        try:
            assert reply is not None
            self._send(handler, reply, body if isinstance(body, dict) else {})
        finally:
            with self._lock:
                self._in_flight -= 1

    def _hold(self, held: Hold) -> bool:
        """Wait, without a timeout, until ``held`` is released; False if the server stops."""
        with self._lock:
            if self._stopping.is_set():
                return False
            self._holding.append(held)
        held.reached.set()
        held.released.wait()
        with self._lock:
            self._holding.remove(held)
        return not self._stopping.is_set()

    def _send(self, handler: _Handler, reply: Reply, body: dict[str, Any]) -> None:
        while isinstance(reply, Delay | Hold):
            if isinstance(reply, Hold):
                waited = self._hold(reply)
            else:
                waited = not self._stopping.wait(min(reply.seconds, MAX_DELAY))
            if not waited:
                handler.close_connection = True
                return
            reply = reply.then
        if self._stopping.is_set() or isinstance(reply, Disconnect):
            handler.close_connection = True
            with suppress(OSError):
                handler.request.shutdown(socket.SHUT_RDWR)
            return
        if isinstance(reply, Echo):
            self._echo(handler, reply, body)
        elif isinstance(reply, Trickle):
            self._trickle(handler, reply)
        elif isinstance(reply, Huge):
            self._huge(handler, reply)
        elif isinstance(reply, Garbage):
            handler.send_body(200, reply.body.encode(), reply.content_type)
        elif isinstance(reply, Status):
            headers = dict(reply.headers)
            if reply.retry_after is not None:
                headers["Retry-After"] = f"{reply.retry_after:g}"
            if isinstance(reply.body, str):
                handler.send_body(reply.code, reply.body.encode(), headers=headers)
            else:
                payload = reply.body or error_body(
                    reply.code, reply.message or f"scripted HTTP {reply.code}"
                )
                handler.send_json(reply.code, payload, headers)
        else:
            with self._lock:
                self._served += 1
                serial = self._served
            handler.send_json(200, _completion(reply, body.get("model"), serial))

    def _echo(self, handler: _Handler, reply: Echo, body: dict[str, Any]) -> None:
        token = (handler.headers.get("Authorization") or "").removeprefix("Bearer ")
        host = handler.headers.get("Host") or ""
        values = {"key": token, "host": host, "base": f"http://{host}/v1"}
        marks = {name: f"@@{name}@@" for name in values}
        text = reply.template.format(**marks)
        if reply.code == 200:
            payload = json.dumps(_completion(Ok(text), body.get("model"), 0))
        else:
            payload = json.dumps(error_body(reply.code, text))
        for name, value in values.items():
            payload = payload.replace(marks[name], _encode(value, reply.encoding))
        handler.send_body(reply.code, payload.encode())

    def _trickle(self, handler: _Handler, reply: Trickle) -> None:
        try:
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(reply.size))
            handler.end_headers()
            for _ in range(reply.size):
                handler.wfile.write(b" ")
                handler.wfile.flush()
                if self._stopping.wait(reply.interval):
                    break
        except OSError:
            pass
        handler.close_connection = True

    def _huge(self, handler: _Handler, reply: Huge) -> None:
        chunk = b"x" * 65536
        try:
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            if reply.declare_length:
                handler.send_header("Content-Length", str(reply.size))
            else:
                handler.send_header("Connection", "close")
            handler.end_headers()
            handler.wfile.write(b'{"choices": "')
            sent = 13
            while sent < reply.size and not self._stopping.is_set():
                piece = chunk[: reply.size - sent]
                handler.wfile.write(piece)
                sent += len(piece)
        except OSError:
            pass
        handler.close_connection = True


def _completion(reply: Ok, model: Any, serial: int) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-test-{serial}",
        "object": "chat.completion",
        "created": CREATED,
        "model": model if isinstance(model, str) else "unknown",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content, "refusal": None},
                "logprobs": None,
                "finish_reason": reply.finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
        },
    }


# ----------------------------------------------------------------------------- images


def image_key(path: str | os.PathLike[str]) -> str:
    """The script key of an image file: SHA-256 hex of its bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def marker(key: str) -> str:
    """Text to put in a prompt so the request resolves to ``key``."""
    return f"[[key:{key}]]"


def data_url(path: str | os.PathLike[str], media_type: str | None = None) -> str:
    """``data:<type>;base64,...`` for a file (type sniffed from its bytes if not given)."""
    data = Path(path).read_bytes()
    kind = media_type or _sniff(data) or "application/octet-stream"
    return f"data:{kind};base64,{base64.b64encode(data).decode()}"


def _seed_bytes(seed: int, n: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(f"{seed}:{counter}".encode()).digest()
        counter += 1
    return out[:n]


def png_bytes(seed: int = 0, width: int = 2, height: int = 2) -> bytes:
    """A valid RGB PNG whose pixels depend on ``seed``."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data)
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    pixels = _seed_bytes(seed, width * height * 3)
    rows = b"".join(b"\x00" + pixels[y * width * 3 : (y + 1) * width * 3] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def jpeg_bytes(seed: int = 0) -> bytes:
    """A valid 8x8 greyscale baseline JPEG of one uniform grey level chosen by ``seed``.

    One block, unit quantisation: the only coefficient is DC = 8 * (level - 128); the AC
    table holds just EOB. Distinct seeds (mod 256) give distinct pixels and bytes.
    """
    level = (seed * 37 + 11) % 256
    dc = 8 * (level - 128)
    size = abs(dc).bit_length()
    bits = format(size, "04b")  # DC table: categories 0..11, all 4-bit codes 0000..1011
    if size:
        bits += format(dc if dc > 0 else dc + (1 << size) - 1, f"0{size}b")
    bits += "0"  # AC table: EOB is the single 1-bit code "0"
    bits += "1" * (-len(bits) % 8)
    scan = bytes(int(bits[i : i + 8], 2) for i in range(0, len(bits), 8)).replace(
        b"\xff", b"\xff\x00"
    )

    def segment(marker_byte: int, data: bytes) -> bytes:
        return bytes([0xFF, marker_byte]) + struct.pack(">H", len(data) + 2) + data

    dc_counts = bytes([0, 0, 0, 12] + [0] * 12)
    ac_counts = bytes([1] + [0] * 15)
    return (
        b"\xff\xd8"
        + segment(0xDB, b"\x00" + b"\x01" * 64)
        + segment(0xC0, struct.pack(">BHHB", 8, 8, 8, 1) + b"\x01\x11\x00")
        + segment(0xC4, b"\x00" + dc_counts + bytes(range(12)))
        + segment(0xC4, b"\x10" + ac_counts + b"\x00")
        + segment(0xDA, b"\x01\x01\x00\x00\x3f\x00")
        + scan
        + b"\xff\xd9"
    )


def write_png(path: str | os.PathLike[str], seed: int = 0, width: int = 2, height: int = 2) -> Path:
    """Write :func:`png_bytes` to ``path``; returns the path."""
    out = Path(path)
    out.write_bytes(png_bytes(seed, width, height))
    return out


def write_jpeg(path: str | os.PathLike[str], seed: int = 0) -> Path:
    """Write :func:`jpeg_bytes` to ``path``; returns the path."""
    out = Path(path)
    out.write_bytes(jpeg_bytes(seed))
    return out


def replay(images: Path, answers: Path, port: int) -> None:
    """Serve each image's answer from ``answers/<image stem>.*`` until Ctrl-C.

    A stand-in for a model server (vLLM, Ollama) in the README's example: the same requests,
    answers read from files instead of a model.
    """
    server = ChatServer(port=port)
    count = 0
    for image in sorted(images.iterdir()):
        found = sorted(answers.glob(f"{image.stem}.*"))
        if image.is_file() and found:
            server.script(image, ok(found[0].read_text(encoding="utf-8")))
            count += 1
    with server:
        print(f"replaying {count} answers on {server.base_url} (Ctrl-C stops)", flush=True)
        with suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=replay.__doc__)
    parser.add_argument("--images", type=Path, required=True, help="the images folder")
    parser.add_argument("--answers", type=Path, required=True, help="one answer file per stem")
    parser.add_argument("--port", type=int, default=8000)
    arguments = parser.parse_args()
    replay(arguments.images, arguments.answers, arguments.port)
