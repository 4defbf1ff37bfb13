"""Mermaid's own parser as a test oracle: the npm package ``mermaid`` (pinned in
``tests/tools/mermaid/package.json`` and its lock file) run by node with jsdom.

The first use installs node and npm (as root, from Debian's packages) if they are missing and the
pinned packages into a cache folder; without root and node it fails saying how to install them, so
a test that needs the reference never skips silently.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from debian_tools import debian_command

HARNESS = Path(__file__).parent / "tools" / "mermaid"
FILES = ("package.json", "package-lock.json", "parse.mjs")


def _ensure_node() -> None:
    for command, package in (("node", "nodejs"), ("npm", "npm")):
        debian_command(command, package, needed_by="the Mermaid reference tests")


def install_dir() -> Path:
    """The folder holding the pinned packages and the script, installed on first use."""
    _ensure_node()
    digest = hashlib.sha256(b"".join((HARNESS / f).read_bytes() for f in FILES)).hexdigest()[:16]
    root = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    target = root / "parsescore-tests" / f"mermaid-{digest}"
    if not (target / "node_modules" / "mermaid" / "package.json").is_file():
        target.mkdir(parents=True, exist_ok=True)
        for name in FILES:
            shutil.copyfile(HARNESS / name, target / name)
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--silent"],
            cwd=target,
            check=True,
            timeout=600,
        )
    return target


def mermaid_parse(texts: Sequence[str]) -> list[dict[str, Any]]:
    """Mermaid's parse of each text, in one node process: ``{"type", "db"}`` or ``{"error"}``."""
    target = install_dir()
    done = subprocess.run(
        ["node", "parse.mjs"],
        cwd=target,
        input=json.dumps(list(texts)),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"Mermaid's parser failed: {done.stderr.strip()[-2000:]}")
    result: list[dict[str, Any]] = json.loads(done.stdout)
    assert len(result) == len(texts)
    return result
