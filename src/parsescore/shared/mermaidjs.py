"""Mermaid's own parser as an optional syntax check of answers (``--check-syntax``).

parsescore reads Mermaid with its own grammar (no Python parser of Mermaid exists), which is
deliberately as lenient as Mermaid where the two were compared; a model's answer that Mermaid
itself would refuse to render may still be read. With the check, the answers are also given to
Mermaid's parser — the npm package ``mermaid`` run by node, with jsdom for the DOM it needs — and
what it rejects counts as unreadable, with Mermaid's message.

Nothing is installed or downloaded here. The packages live in a folder the user names
(``mermaid_dir``, or the environment variable ``PARSESCORE_MERMAID_DIR``), made with, e.g.::

    npm install --prefix ~/.cache/parsescore-mermaid mermaid@12.3.0 jsdom@26.1.0

(the versions the tests compare the reader with). Without node, or without that folder, the
check is unavailable (:class:`MermaidUnavailable`, one line saying why) and scoring goes on. The
node process is bounded in time (``PARSESCORE_MERMAID_TIMEOUT`` seconds, default 120) and heap.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from parsescore.core.files import env_limit

__all__ = [
    "INSTALL_HINT",
    "MERMAID_DIR_ENV",
    "MermaidSyntax",
    "MermaidUnavailable",
    "mermaid_syntax",
]

#: The environment variable naming the folder that holds ``node_modules/mermaid`` and jsdom.
MERMAID_DIR_ENV = "PARSESCORE_MERMAID_DIR"
#: How to make such a folder (the versions the tests use).
INSTALL_HINT = (
    "npm install --prefix DIR mermaid@12.3.0 jsdom@26.1.0, then pass --mermaid-dir DIR "
    f"(or set {MERMAID_DIR_ENV})"
)
_HEAP_MB = 2048
_ON_LINE = re.compile(r" on line (\d+)")
# Mermaid reads its front matter off before parsing and counts lines after it (its own rule)
_FRONT_MATTER = re.compile(r"^-{3}\s*[\n\r](.*?)[\n\r]-{3}\s*[\n\r]+", re.DOTALL)


class MermaidUnavailable(Exception):
    """Mermaid's parser cannot run here; the message says why in one line."""


@dataclass(frozen=True)
class MermaidSyntax:
    """Mermaid's verdict on each text.

    Attributes:
        version: the version of the npm package ``mermaid`` that parsed them.
        errors: per text, None when Mermaid parses it, else its message on one line (without
            the line it names).
        lines: per text, the line of the text Mermaid's message names (None: it names none).
    """

    version: str
    errors: tuple[str | None, ...]
    lines: tuple[int | None, ...]


def _one_line(message: str) -> str:
    """Mermaid's message on one line: a parse error's first and last lines (the middle is a
    drawing of the place: an excerpt and a caret), anything else's first line; at most 300
    characters."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    if not lines:
        return "Mermaid refused the text"
    text = lines[0]
    if len(lines) > 1 and lines[0].startswith(("Parse error", "Lexical error")):
        text = f"{lines[0].rstrip(':.')}: {lines[-1]}"
    return text if len(text) <= 300 else text[:299] + "…"


def _folder(mermaid_dir: str | Path | None) -> Path:
    chosen = mermaid_dir if mermaid_dir is not None else os.environ.get(MERMAID_DIR_ENV) or None
    if chosen is None:
        raise MermaidUnavailable(f"no folder with Mermaid's npm package given ({INSTALL_HINT})")
    folder = Path(chosen).expanduser()
    for package in ("mermaid", "jsdom"):
        if not (folder / "node_modules" / package / "package.json").is_file():
            raise MermaidUnavailable(f"{folder} has no node_modules/{package} ({INSTALL_HINT})")
    return folder


def mermaid_syntax(
    texts: Sequence[str], mermaid_dir: str | Path | None = None, *, timeout: float | None = None
) -> MermaidSyntax:
    """Mermaid's parse of every text, in one node process (see the module).

    ``mermaid_dir`` (default: ``$PARSESCORE_MERMAID_DIR``) holds ``node_modules/mermaid`` and
    ``node_modules/jsdom``. Raises :class:`MermaidUnavailable` when node or the packages are
    missing, or the process fails or runs out of time.
    """
    node = shutil.which("node")
    if node is None:
        raise MermaidUnavailable(
            f"node is not installed (Mermaid's parser runs in node; {INSTALL_HINT})"
        )
    folder = _folder(mermaid_dir)
    limit = timeout if timeout is not None else env_limit("PARSESCORE_MERMAID_TIMEOUT", 120)
    script = (resources.files("parsescore.shared") / "mermaid_check.mjs").read_text(
        encoding="utf-8"
    )
    try:
        done = subprocess.run(
            [node, f"--max-old-space-size={_HEAP_MB}", "--input-type=module", "-e", script],
            cwd=folder,
            input=json.dumps(list(texts)),
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=limit,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise MermaidUnavailable(
            f"Mermaid's parser did not finish in {limit:g} s (PARSESCORE_MERMAID_TIMEOUT)"
        ) from None
    except OSError as exc:
        raise MermaidUnavailable(f"node could not be started: {exc}") from None
    try:
        found = json.loads(done.stdout) if done.returncode == 0 else None
        results = found["results"] if isinstance(found, dict) else None
    except (ValueError, KeyError, TypeError):
        results = None
    if not isinstance(results, list) or len(results) != len(texts):
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise MermaidUnavailable(f"Mermaid's parser failed in {folder}: {tail[:300]}")
    errors: list[str | None] = []
    lines: list[int | None] = []
    for text, result in zip(texts, results, strict=True):
        line = None if result is None else _ON_LINE.search(str(result))
        errors.append(None if result is None else _ON_LINE.sub("", _one_line(str(result)), 1))
        front = _FRONT_MATTER.match(text)
        lines.append(
            None if line is None else int(line[1]) + (front[0].count("\n") if front else 0)
        )
    assert isinstance(found, dict)
    return MermaidSyntax(str(found.get("version", "")), tuple(errors), tuple(lines))
