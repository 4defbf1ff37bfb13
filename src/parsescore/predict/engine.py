"""Sending images to an OpenAI-compatible chat-completions server and keeping what comes back.

Layout of ``--out`` (the folder is a prediction folder the kind's scorer reads as it is):

- ``<stem>.json`` / ``<stem>.puml`` / ``<stem>.html``: one accepted prediction per image;
- ``_predict/responses/<stem>.json``: the server's raw response body, kept for every answered
  image (also when the answer was refused), so a refusal can be inspected;
- ``_predict/state.json``: what happened to each image, written after each one, so that an
  interrupted run resumes (``--on-existing resume``) without asking again for finished images;
- ``_predict/summary.json``: time, tokens, retries and failures of the last run.

The key is read from an environment variable and the server address is never written: no
output file names either.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import random
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from parsescore.core.errors import InputError
from parsescore.core.files import env_limit, load_json, parse_json, write_json, write_text
from parsescore.predict.answers import AnswerError, accept_answer, predict_parts
from parsescore.predict.inputs import (
    Image,
    caption_for,
    default_prompt,
    find_images,
    render_prompt,
)

__all__ = [
    "STATE_DIR",
    "ImageOutcome",
    "PredictInterrupted",
    "PredictOptions",
    "PredictSummary",
    "predict_images",
    "prediction_to_score",
]

STATE_DIR = "_predict"
OnExisting = Literal["error", "resume", "overwrite"]
_STATE_VERSION = 1
_PLACEHOLDER_KEY = "not-needed"
#: Statuses worth another attempt: the request may well succeed later.
_RETRY_STATUSES = frozenset({408, 409, 429})
#: Statuses that no image can get past (key, permission, model name): stop the run.
_FATAL_STATUSES = {401: "the key was refused", 403: "permission denied", 404: "not found"}


@dataclass(frozen=True)
class PredictOptions:
    """How to ask. Every field but ``model`` has a default that suits a hosted API.

    Attributes:
        model: the model name the server knows.
        base_url: the server's ``/v1`` address (default: the client's, i.e. OpenAI or
            ``OPENAI_BASE_URL``).
        api_key_env: the environment variable holding the key. When it is unset and a
            ``base_url`` is given, a placeholder key is sent (local servers need none).
        concurrency: requests in flight at once.
        on_existing: what to do when ``--out`` already holds predictions or a state file.
        captions: image file name or stem → caption (``{caption}`` in the prompt).
        prompt: the prompt template (default: the kind's bundled prompt).
        timeout: seconds one request may take as a whole, however the server trickles its
            answer, before it counts as timed out (and is retried).
        max_retries: further attempts after a 429, 408/409, 5xx, timeout or connection error.
        retry_base: first backoff in seconds, doubled per attempt (with jitter), capped at
            ``retry_cap``; a server's ``Retry-After`` is honoured up to the cap.
        structured_output: request the kind's structured-output format, where it has one
            (e.g. JSON constrained by the prediction schema).
        temperature / max_tokens: sent only when set.
        format: the answer format to ask for, for kinds with several (None: the default).
    """

    model: str
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    concurrency: int = 4
    on_existing: OnExisting = "error"
    captions: Mapping[str, str] | None = None
    prompt: str | None = None
    timeout: float = 120.0
    max_retries: int = 5
    retry_base: float = 1.0
    retry_cap: float = 60.0
    structured_output: bool = True
    temperature: float | None = None
    max_tokens: int | None = None
    format: str | None = None


@dataclass
class ImageOutcome:
    """What happened to one image (one entry of ``state.json``).

    ``status``: ``done`` (prediction written), ``failed`` (see ``error``) or ``skipped``
    (done in an earlier run that this one resumed).
    """

    image: str
    image_sha256: str
    status: Literal["done", "failed", "skipped"]
    output: str | None = None
    error: str | None = None
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class PredictSummary:
    """One run: every finished image's outcome by stem, the image count and the wall time."""

    kind: str
    model: str
    outcomes: dict[str, ImageOutcome]
    seconds: float
    out_dir: Path
    images: int

    def _count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes.values())

    @property
    def done(self) -> int:
        return self._count("done")

    @property
    def skipped(self) -> int:
        return self._count("skipped")

    @property
    def failed(self) -> dict[str, str]:
        """Failed images by stem, with the reason."""
        return {s: o.error or "" for s, o in self.outcomes.items() if o.status == "failed"}

    @property
    def retries(self) -> int:
        return sum(max(o.attempts - 1, 0) for o in self.outcomes.values() if o.status != "skipped")

    @property
    def prompt_tokens(self) -> int:
        return sum(o.prompt_tokens for o in self.outcomes.values() if o.status != "skipped")

    @property
    def completion_tokens(self) -> int:
        return sum(o.completion_tokens for o in self.outcomes.values() if o.status != "skipped")

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "model": self.model,
            "images": self.images,
            "done": self.done,
            "skipped": self.skipped,
            "failed": [
                {"image": self.outcomes[s].image, "error": e} for s, e in self.failed.items()
            ],
            "retries": self.retries,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "seconds": round(self.seconds, 3),
        }


class PredictInterrupted(Exception):
    """Ctrl-C during a run; every finished image is in the state file."""

    def __init__(self, summary: PredictSummary) -> None:
        self.summary = summary
        super().__init__(
            f"interrupted after {len(summary.outcomes)} of {summary.images} "
            "images; run again with --on-existing resume to finish"
        )


class _Fatal(Exception):
    """A server answer that stops the whole run (bad key, unknown model)."""


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _api_key(options: PredictOptions) -> str:
    key = os.environ.get(options.api_key_env)
    if key:
        return key
    if options.base_url is not None:
        return _PLACEHOLDER_KEY  # local servers (vLLM, Ollama) accept any key
    raise InputError(
        f"no API key: set the environment variable {options.api_key_env} (or name another one "
        "with --api-key-env), or give --base-url for a local server that needs none"
    )


def _check_options(kind: str, options: PredictOptions) -> None:
    predict_parts(kind, options.format)  # an unknown kind / format is an error
    if not options.model.strip():
        raise InputError("--model must name a model")
    if options.concurrency < 1:
        raise InputError(f"--concurrency must be 1 or more, got {options.concurrency}")
    if options.max_retries < 0:
        raise InputError(f"--max-retries must be 0 or more, got {options.max_retries}")
    if not options.timeout > 0:
        raise InputError(f"--timeout must be more than 0 seconds, got {options.timeout}")
    if options.base_url is not None:
        _check_base_url(options.base_url)
    if options.on_existing not in ("error", "resume", "overwrite"):
        raise InputError(
            f"--on-existing must be error, resume or overwrite, got {options.on_existing!r}"
        )


def _check_base_url(url: str) -> None:
    """An http(s) address with a host (and a valid port), else one clear error."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        # the address is not repeated: it may hold a key or a password
        scheme = f" (its scheme is {parts.scheme!r})" if parts and parts.scheme else ""
        raise InputError(
            "--base-url is not an http(s) address with a host and a valid port, such as "
            f"http://localhost:8000/v1{scheme}"
        )


_DEFAULT_PORTS = {"http": 80, "https": 443}
_OPENAI_URL = "https://api.openai.com/v1"


def _given_base_url(options: PredictOptions) -> str | None:
    """The base URL the user gave: ``--base-url``, else ``OPENAI_BASE_URL`` (the client's own
    default), else None (OpenAI's address)."""
    return options.base_url or os.environ.get("OPENAI_BASE_URL") or None


def _origin(scheme: str, host: str | None, port: int | None) -> tuple[str, str, int]:
    scheme = scheme.lower()
    return scheme, (host or "").lower().strip("[]"), port or _DEFAULT_PORTS.get(scheme, 0)


def _url_origin(url: str) -> tuple[str, str, int]:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = -1
    return _origin(parts.scheme, parts.hostname, port)


def _host_text(origin: tuple[str, str, int]) -> str:
    """``host`` or ``host:port`` (a port other than the scheme's own), for messages."""
    scheme, host, port = origin
    shown = host or "no host"
    return shown if port == _DEFAULT_PORTS.get(scheme) else f"{shown}:{port}"


def _split_query(url: str) -> tuple[str, dict[str, str]]:
    """The base URL without its query, and the query's values: the client sends them with each
    request (joined to the URL, a query would end up before the request's own path)."""
    from urllib.parse import parse_qsl, urlsplit, urlunsplit

    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    return urlunsplit(parts._replace(query="", fragment="")), query


class _OtherHost(Exception):
    """A request was about to leave for another host than the base URL's."""

    def __init__(self, origin: tuple[str, str, int]) -> None:
        super().__init__(_host_text(origin))
        self.origin = origin


def _http_client(base_url: str) -> Any:
    """The client's HTTP client: it follows no redirect, and refuses (before sending) any
    request to another scheme, host or port than ``base_url``'s."""
    import openai

    expected = _url_origin(base_url)

    async def same_host(request: Any) -> None:
        url = request.url
        origin = _origin(str(url.scheme), str(url.host), url.port)
        if origin != expected:
            raise _OtherHost(origin)

    return openai.DefaultAsyncHttpxClient(
        follow_redirects=False, event_hooks={"request": [same_host], "response": []}
    )


def _redirect_error(status: int, location: str | None, base_url: str) -> str:
    """The one error for a redirect (never followed), naming the other host, not its URL."""
    from urllib.parse import urljoin

    said = f"the server redirected the request (HTTP {status})"
    if not location:
        return f"{said} without saying where to; predict follows no redirect"
    origin = _url_origin(urljoin(base_url, location))
    if origin != _url_origin(base_url):
        return (
            f"{said} to another host, {_host_text(origin)}; predict sends requests only to "
            "the --base-url host (give the other address as --base-url if you trust it)"
        )
    return (
        f"{said} to another address on the same host; predict follows no redirect: give "
        "that address as --base-url"
    )


#: Query parameters of ``--base-url`` whose values are credentials (``?api_key=…``, ``sig=…``).
_CREDENTIAL_NAME = re.compile(r"key|token|secret|pass|auth|sig|cred", re.IGNORECASE)
#: The shortest start of the key that is still redacted where the rest was cut off.
KEY_PREFIX = 6
#: Named HTML entities a server may echo a secret's punctuation as.
_NAMED_ENTITIES = {
    "&": "amp",
    "/": "sol",
    ":": "colon",
    ".": "period",
    "=": "equals",
    "?": "quest",
    "@": "commat",
    "_": "lowbar",
    "-": "hyphen|dash",
    "+": "plus",
    "%": "percnt",
    "#": "num",
    "!": "excl",
    "$": "dollar",
    "'": "apos",
    '"': "quot",
    "<": "lt",
    ">": "gt",
    ",": "comma",
    ";": "semi",
    "*": "ast|midast",
    "~": "tilde",
    "(": "lpar",
    ")": "rpar",
    "[": "lsqb|lbrack",
    "]": "rsqb|rbrack",
    "{": "lcub|lbrace",
    "}": "rcub|rbrace",
    "|": "vert|verbar",
    "^": "hat",
    "`": "grave",
    "\\": "bsol",
}


@dataclass(frozen=True)
class Secrets:
    """What must never be written or printed.

    ``whole``: redacted where they appear whole (the base URL, its host:port, the credentials
    in it); ``key``: the API key, redacted also where only its first :data:`KEY_PREFIX` or more
    characters appear (a message cut inside it)."""

    whole: tuple[str, ...]
    key: str | None = None


def _secrets(key: str, base_url: str | None) -> Secrets:
    """The key and, from the base URL: the URL, its host:port, its ``user:password`` (each
    part, and the Basic-auth base64 of the pair) and every query value named like a credential
    (key, token, secret, password, auth, sig)."""
    from urllib.parse import parse_qsl, unquote, urlsplit

    found: list[str] = []
    if base_url:
        parts = urlsplit(base_url)
        userinfo, _, host = parts.netloc.rpartition("@")
        found += [base_url, base_url.rstrip("/"), parts.netloc, host]
        if userinfo:
            user, _, password = userinfo.partition(":")
            for raw in (userinfo, user, password):
                found += [raw, unquote(raw)]
            pair = f"{unquote(user)}:{unquote(password)}".encode()
            found.append(base64.b64encode(pair).decode("ascii"))
        for name, value in parse_qsl(parts.query, keep_blank_values=True):
            if _CREDENTIAL_NAME.search(name):
                found.append(value)
        found.append(parts.query)
    the_key = key if key != _PLACEHOLDER_KEY and len(key) >= 4 else None
    unique = {s for s in found if len(s) >= 4}
    return Secrets(tuple(sorted(unique, key=len, reverse=True)), the_key)


#: ``&`` as it may stand before an HTML entity: plain, JSON-escaped or URL-encoded.
_AMP = r"(?:&|\\{1,8}u0026|%(?:25){0,3}26)"


def _char_pattern(char: str) -> str:
    """A character as a server may echo it: plain, JSON-escaped (``\\u0073``, ``\\/``,
    ``\\"``, with a few backslashes, for JSON inside JSON), URL-encoded (``%73``, also twice:
    ``%2573``) or as an HTML entity (``&#115;``, ``&#x73;``, ``&sol;``). Backslash runs are
    bounded so that a body of backslashes cannot make the search quadratic."""
    code = ord(char)
    forms = [r"\\{0,8}" + re.escape(char)]
    if code < 0x10000:
        forms.append(rf"\\{{1,8}}u{code:04x}")
    forms.append("".join(f"%(?:25){{0,3}}{byte:02x}" for byte in char.encode("utf-8")))
    forms.append(rf"{_AMP}#(?:0{{0,8}}{code}(?![0-9])|x0{{0,8}}{code:x}(?![0-9a-f]));?")
    if char in _NAMED_ENTITIES:
        forms.append(rf"{_AMP}(?:{_NAMED_ENTITIES[char]});")
    return "(?:" + "|".join(forms) + ")"


class Redactor:
    """Replaces every secret, in each encoding a server can echo it, by ``[redacted]``; the key
    also where only a start of it (:data:`KEY_PREFIX` characters or more) appears."""

    def __init__(self, secrets: Secrets) -> None:
        patterns = ["".join(_char_pattern(c) for c in secret) for secret in secrets.whole]
        self._whole = re.compile("|".join(patterns), re.IGNORECASE) if patterns else None
        self._head: re.Pattern[str] | None = None
        self._rest: list[re.Pattern[str]] = []
        key = secrets.key
        if key is not None:
            head = min(KEY_PREFIX, len(key))
            self._head = re.compile("".join(_char_pattern(c) for c in key[:head]), re.IGNORECASE)
            self._rest = [re.compile(_char_pattern(c), re.IGNORECASE) for c in key[head:]]

    def __call__(self, text: str) -> str:
        if self._whole is not None:
            text = self._whole.sub("[redacted]", text)
        if self._head is None:
            return text
        pieces: list[str] = []
        done = 0
        while (found := self._head.search(text, done)) is not None:
            end = found.end()
            for char in self._rest:  # as much more of the key as follows
                more = char.match(text, end)
                if more is None:
                    break
                end = more.end()
            pieces += [text[done : found.start()], "[redacted]"]
            done = end
        pieces.append(text[done:])
        return "".join(pieces)


def _prompts(
    kind: str, images: list[Image], options: PredictOptions
) -> tuple[str, dict[str, str], list[str]]:
    """The template, each image's prompt, and warnings about captions."""
    template = (
        options.prompt if options.prompt is not None else default_prompt(kind, options.format)
    )
    warnings: list[str] = []
    captions = dict(options.captions or {})
    uses_caption = "{caption}" in template
    if captions and not uses_caption:
        warnings.append("--captions given, but the prompt has no {caption} placeholder")
    if uses_caption and captions:
        lacking = [i.path.name for i in images if caption_for(i, captions) is None]
        if lacking:
            shown = ", ".join(lacking[:5]) + (" ..." if len(lacking) > 5 else "")
            raise InputError(f"--captions has no caption for {len(lacking)} image(s): {shown}")
    elif uses_caption:
        warnings.append("no --captions: each image's file stem stands in for its caption")
    prompts = {
        i.stem: render_prompt(template, caption=caption_for(i, captions) or i.stem, stem=i.stem)
        for i in images
    }
    return template, prompts, warnings


def _output(out_dir: Path, kind: str, stem: str, format: str | None = None) -> Path:
    return out_dir / f"{stem}{predict_parts(kind, format).suffix}"


def _prepare_state(
    kind: str, images: list[Image], out_dir: Path, options: PredictOptions, prompt_sha: str
) -> dict[str, ImageOutcome]:
    """Earlier outcomes to keep (resume), after checking ``--on-existing`` against the folder."""
    state_path = out_dir / STATE_DIR / "state.json"
    existing = [_output(out_dir, kind, i.stem, options.format) for i in images]
    existing = [p for p in existing if p.exists()]
    has_state = state_path.exists()
    if options.on_existing == "overwrite" or not (existing or has_state):
        return {}
    if options.on_existing == "error":
        what = [p.name for p in existing[:5]] + (["_predict/state.json"] if has_state else [])
        raise InputError(
            f"already holds predictions or a state file ({', '.join(what)}"
            f"{' ...' if len(existing) > 5 else ''}); use --on-existing resume to finish an "
            "earlier run, --on-existing overwrite to start again, or another --out",
            path=out_dir,
        )
    if not has_state:
        raise InputError(
            f"holds predictions ({', '.join(p.name for p in existing[:5])}) but no "
            "_predict/state.json, so there is no run to resume; use --on-existing overwrite "
            "or another --out",
            path=out_dir,
        )
    state = load_json(state_path)
    if not isinstance(state, dict) or state.get("parsescore_predict") != _STATE_VERSION:
        raise InputError("not a parsescore predict state file", path=state_path)
    for key, value in (("kind", kind), ("model", options.model), ("prompt_sha256", prompt_sha)):
        if state.get(key) != value:
            name = "prompt" if key == "prompt_sha256" else key
            raise InputError(
                f"the earlier run used another {name} ({state.get(key)!r}); resuming would mix "
                "two runs: use --on-existing overwrite or another --out",
                path=state_path,
            )
    kept: dict[str, ImageOutcome] = {}
    recorded = state.get("images", {})
    if not isinstance(recorded, dict):
        raise InputError("expected 'images' to be an object", path=state_path)
    numbers = ("attempts", "prompt_tokens", "completion_tokens", "seconds")
    for image in images:
        entry = recorded.get(image.stem)
        output = _output(out_dir, kind, image.stem, options.format)
        done = (
            isinstance(entry, dict)
            and entry.get("status") in ("done", "skipped")
            and entry.get("image_sha256") == image.sha256
            and output.exists()
        )
        if done:  # keep the earlier run's record; "skipped" only for this run's summary
            assert isinstance(entry, dict)
            kept[image.stem] = ImageOutcome(
                image=image.path.name,
                image_sha256=image.sha256,
                status="skipped",
                output=output.name,
                warnings=[str(w) for w in entry.get("warnings") or []],
                **{k: entry[k] for k in numbers if isinstance(entry.get(k), int | float)},
            )
        elif output.exists():
            raise InputError(
                f"{output.name} is not a finished prediction of this run's {image.path.name} "
                "(the image changed, or the file was put there by hand); move it away or use "
                "--on-existing overwrite",
                path=out_dir,
            )
    return kept


def _write_state(
    out_dir: Path,
    kind: str,
    options: PredictOptions,
    prompt_sha: str,
    outcomes: dict[str, ImageOutcome],
) -> None:
    images = {}
    for stem in sorted(outcomes):
        entry = asdict(outcomes[stem])
        if entry["status"] == "skipped":
            entry["status"] = "done"
        images[stem] = entry
    write_json(
        out_dir / STATE_DIR / "state.json",
        {
            "parsescore_predict": _STATE_VERSION,
            "kind": kind,
            "model": options.model,
            "prompt_sha256": prompt_sha,
            "images": images,
        },
    )


def _request(kind: str, image: Image, prompt: str, options: PredictOptions) -> dict[str, Any]:
    data_url = f"data:{image.media_type};base64,{base64.b64encode(image.read()).decode('ascii')}"
    request: dict[str, Any] = {
        "model": options.model,
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": prompt},
                    {"type": "image_url", "image_url": {"url": data_url}},
                ],
            }
        ],
    }
    response_format = predict_parts(kind, options.format).response_format
    if options.structured_output and response_format is not None:
        request["response_format"] = dict(response_format())
    if options.temperature is not None:
        request["temperature"] = options.temperature
    if options.max_tokens is not None:
        request["max_tokens"] = options.max_tokens
    return request


def _retry_after(headers: Any) -> float | None:
    value = headers.get("retry-after") if headers is not None else None
    try:
        return max(float(value), 0.0) if value is not None else None
    except ValueError:
        return None  # an HTTP date: fall back to the backoff


def _backoff(attempt: int, retry_after: float | None, options: PredictOptions) -> float:
    if retry_after is not None:
        return min(retry_after, options.retry_cap)
    backoff = min(options.retry_base * 2**attempt, options.retry_cap)
    return float(backoff * random.uniform(0.5, 1.0))


def max_response_bytes() -> int:
    """The largest server response read, in bytes (``PARSESCORE_MAX_RESPONSE_MB``, default 32)."""
    return env_limit("PARSESCORE_MAX_RESPONSE_MB", 32) * 1_000_000


class _TooLarge(Exception):
    pass


async def _fetch(client: Any, request: dict[str, Any], cap: int) -> str:
    """One request's body, read in pieces and abandoned beyond ``cap`` bytes."""
    async with client.chat.completions.with_streaming_response.create(**request) as response:
        declared = response.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > cap:
            raise _TooLarge
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.iter_bytes():
            size += len(chunk)
            if size > cap:
                raise _TooLarge
            chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace")


async def _ask(
    client: Any, request: dict[str, Any], options: PredictOptions, redact: Redactor
) -> tuple[str, int]:
    """The raw response body and the attempts it took; raises on a failure to give up on.

    ``options.timeout`` bounds each request as a whole (a server trickling bytes cannot hold
    it longer), and a response larger than :func:`max_response_bytes` is abandoned. A redirect
    is never followed: it stops the run. Messages are redacted before they are cut."""
    import openai

    cap = max_response_bytes()
    attempt = 0
    while True:
        attempt += 1
        try:
            body = await asyncio.wait_for(_fetch(client, request, cap), options.timeout)
            return body, attempt
        except _TooLarge:
            raise _GiveUp(
                f"the response is larger than the limit of {cap // 1_000_000} MB "
                "(PARSESCORE_MAX_RESPONSE_MB)",
                attempt,
            ) from None
        except _OtherHost as exc:
            raise _Fatal(_other_host_error(exc)) from None
        except openai.APIStatusError as exc:
            status = exc.status_code
            if 300 <= status < 400:
                location = exc.response.headers.get("location")
                raise _Fatal(_redirect_error(status, location, str(client.base_url))) from None
            if status in _FATAL_STATUSES:
                raise _Fatal(
                    f"the server answered {status} ({_FATAL_STATUSES[status]}): "
                    f"{_server_message(exc, redact)}"
                ) from None
            retryable = status in _RETRY_STATUSES or status >= 500
            if not retryable or attempt > options.max_retries:
                raise _GiveUp(f"HTTP {status}: {_server_message(exc, redact)}", attempt) from None
            wait = _backoff(attempt - 1, _retry_after(exc.response.headers), options)
        except (openai.APIConnectionError, TimeoutError) as exc:  # timeouts included
            if isinstance(exc.__cause__, _OtherHost):  # older clients wrap every error
                raise _Fatal(_other_host_error(exc.__cause__)) from None
            timed_out = isinstance(exc, openai.APITimeoutError | TimeoutError)
            what = "timed out" if timed_out else "connection failed"
            if attempt > options.max_retries:
                raise _GiveUp(f"request {what} ({attempt} attempts)", attempt) from None
            wait = _backoff(attempt - 1, None, options)
        await asyncio.sleep(wait)


class _GiveUp(Exception):
    def __init__(self, message: str, attempts: int) -> None:
        super().__init__(message)
        self.attempts = attempts


def _other_host_error(exc: _OtherHost) -> str:
    return (
        f"a request was about to go to another host, {exc}; predict sends requests only to "
        "the --base-url host"
    )


def _server_message(exc: Any, redact: Redactor, limit: int = 300) -> str:
    """The server's error message, redacted, then cut to ``limit`` characters (in that order:
    a cut inside a secret would leave a start of it that no longer matches)."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        message = body.get("message") or body.get("error", {})
        if isinstance(message, dict):
            message = message.get("message")
        if isinstance(message, str) and message:
            return redact(message)[:limit]
    return redact(str(getattr(exc, "message", "") or exc))[:limit]


def _tokens(usage: dict[str, Any], name: str) -> int:
    """A token count of ``usage``: a whole number from 0 (absent: 0), else an AnswerError."""
    value = usage.get(name)
    if value is None:
        return 0
    if isinstance(value, float) and value.is_integer() and 0 <= value < 2**63:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**63:
        return value
    raise AnswerError(f"the server's usage.{name} is not a token count: {str(value)[:80]}")


def _answer(body: str) -> tuple[str, int, int, str | None]:
    """The assistant's text, token usage and finish reason from a chat-completion body."""
    try:
        doc = parse_json(body)
        message = doc["choices"][0]["message"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise AnswerError(
            "the server's response is not a chat completion (no choices[0].message)"
        ) from None
    usage = doc.get("usage") or {}
    if not isinstance(usage, dict):
        raise AnswerError(f"the server's usage is not an object: {str(usage)[:80]}")
    prompt_tokens = _tokens(usage, "prompt_tokens")
    completion_tokens = _tokens(usage, "completion_tokens")
    finish = doc["choices"][0].get("finish_reason")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, list):  # some servers send content parts, as requests do
        texts = [p.get("text") for p in content if isinstance(p, dict)]
        content = "".join(t for t in texts if isinstance(t, str)) if texts else None
    if not isinstance(content, str):
        refusal = message.get("refusal") if isinstance(message, dict) else None
        raise AnswerError(
            f"the model gave no text answer{f': {refusal}' if refusal else ''} "
            f"(finish_reason {finish!r})"
        )
    return content, prompt_tokens, completion_tokens, finish


@dataclass
class _Run:
    """What every request of one run shares."""

    client: Any
    kind: str
    options: PredictOptions
    out_dir: Path
    gate: asyncio.Semaphore
    stop: asyncio.Event  # set when the server refused the key or model: ask no more
    redact: Redactor  # the key and the server address, kept out of every file


async def _one(run: _Run, image: Image, prompt: str) -> ImageOutcome | None:
    """Ask for one image; None when the run was stopped before its turn came."""
    outcome = ImageOutcome(image=image.path.name, image_sha256=image.sha256, status="failed")
    output = _output(run.out_dir, run.kind, image.stem, run.options.format)
    async with run.gate:
        if run.stop.is_set():
            return None
        start = time.perf_counter()
        try:
            body, outcome.attempts = await _ask(
                run.client, _request(run.kind, image, prompt, run.options), run.options, run.redact
            )
        except _Fatal as exc:
            run.stop.set()
            raise _Fatal(run.redact(str(exc))) from None
        except _GiveUp as exc:
            outcome.attempts, outcome.error = exc.attempts, run.redact(str(exc))
        else:
            body = run.redact(body)
            responses = run.out_dir / STATE_DIR / "responses"
            try:
                json.loads(body)
            except (ValueError, RecursionError):
                write_text(responses / f"{image.stem}.txt", body)
            else:
                write_text(responses / f"{image.stem}.json", body)
            try:
                content, outcome.prompt_tokens, outcome.completion_tokens, finish = _answer(body)
                try:
                    prediction = accept_answer(
                        run.kind, run.redact(content), stem=image.stem, format=run.options.format
                    )
                except AnswerError as exc:
                    cut = " (the answer was cut at the token limit)" if finish == "length" else ""
                    raise AnswerError(f"{exc}{cut}") from None
            except AnswerError as exc:
                outcome.error = run.redact(str(exc))
            else:
                write_text(output, run.redact(prediction.text))
                outcome.status, outcome.output = "done", output.name
                outcome.warnings = [run.redact(w) for w in prediction.warnings]
        outcome.seconds = round(time.perf_counter() - start, 3)
    if outcome.status == "failed" and output.exists():
        output.unlink()  # overwrite mode: the folder must not keep an older run's answer
    return outcome


async def _run(
    kind: str,
    pending: list[Image],
    prompts: dict[str, str],
    options: PredictOptions,
    out_dir: Path,
    on_outcome: Callable[[str, ImageOutcome], None],
) -> None:
    import openai

    key = _api_key(options)
    given = _given_base_url(options)
    redact = Redactor(_secrets(key, given))
    base_url, query = _split_query(given or _OPENAI_URL)
    async with openai.AsyncOpenAI(
        api_key=key,
        base_url=base_url,
        default_query=query or None,
        max_retries=0,
        timeout=options.timeout,
        http_client=_http_client(base_url),
    ) as client:
        run = _Run(
            client,
            kind,
            options,
            out_dir,
            asyncio.Semaphore(options.concurrency),
            asyncio.Event(),
            redact,
        )
        tasks = [asyncio.create_task(_one(run, i, prompts[i.stem])) for i in pending]
        try:
            for finished in asyncio.as_completed(tasks):
                outcome = await finished
                if outcome is not None:
                    on_outcome(outcome.image, outcome)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


def _openai() -> None:
    try:
        import openai  # noqa: F401
    except ImportError:
        raise InputError(
            "parsescore predict needs the openai client: pip install 'parsescore[predict]'"
        ) from None


def prediction_to_score(
    truth: Path, summary: PredictSummary, format: str | None, target: Path
) -> tuple[Path, Mapping[str, Any]]:
    """What ``run`` (and a ``bench`` system that predicts) scores after predicting: the
    predictions (the folder, or what the kind's ``pred_for_run`` makes of it in ``target``) and
    the kind's ``run_options``. An InputError when no image gave a valid prediction."""
    if summary.done + summary.skipped == 0:
        raise InputError("no image gave a valid prediction; nothing to score")
    parts = predict_parts(summary.kind, format)
    if parts.pred_for_run is None:
        return summary.out_dir, parts.run_options
    done = {
        stem: outcome.image
        for stem, outcome in summary.outcomes.items()
        if outcome.status != "failed"
    }
    return parts.pred_for_run(truth, summary.out_dir, done, target), parts.run_options


def predict_images(
    kind: str,
    images_dir: Path,
    out_dir: Path,
    options: PredictOptions,
    *,
    on_progress: Callable[[int, int], None] | None = None,
) -> PredictSummary:
    """Ask the model for every image of ``images_dir``; write predictions into ``out_dir``.

    ``on_progress(finished, total)`` is called after each image. Raises
    :class:`PredictInterrupted` on Ctrl-C (the state file then holds every finished image) and
    :class:`~parsescore.core.errors.InputError` when the server refuses the key or the model.
    """
    _openai()
    _check_options(kind, options)
    images = find_images(images_dir)
    template, prompts, _ = _prompts(kind, images, options)
    prompt_sha = _sha256(template)
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError("--out exists and is not a folder", path=out_dir)
    outcomes = _prepare_state(kind, images, out_dir, options, prompt_sha)
    out_dir.mkdir(parents=True, exist_ok=True)
    pending = [i for i in images if i.stem not in outcomes]
    stems = {i.path.name: i.stem for i in images}
    start = time.perf_counter()
    total = len(images)

    def on_outcome(name: str, outcome: ImageOutcome) -> None:
        outcomes[stems[name]] = outcome
        _write_state(out_dir, kind, options, prompt_sha, outcomes)
        if on_progress is not None:
            on_progress(len(outcomes), total)

    _write_state(out_dir, kind, options, prompt_sha, outcomes)
    if on_progress is not None:
        on_progress(len(outcomes), total)

    def summary() -> PredictSummary:
        ordered = {i.stem: outcomes[i.stem] for i in images if i.stem in outcomes}
        seconds = time.perf_counter() - start
        return PredictSummary(kind, options.model, ordered, seconds, out_dir, len(images))

    try:
        if pending:
            asyncio.run(_run(kind, pending, prompts, options, out_dir, on_outcome))
    except KeyboardInterrupt:
        raise PredictInterrupted(summary()) from None
    except _Fatal as exc:
        raise InputError(f"{exc}; stopped (finished images are kept in {STATE_DIR}/)") from None
    result = summary()
    write_json(out_dir / STATE_DIR / "summary.json", result.to_json())
    return result


def prompt_warnings(kind: str, images_dir: Path, options: PredictOptions) -> list[str]:
    """The warnings a run would give about captions (for the CLI to print first)."""
    return _prompts(kind, find_images(images_dir), options)[2]
