"""KaTeX for the math tests: the npm package ``katex`` at the version olmOCR-bench ships
(0.16.21), installed on first use into a cache folder (node and npm from Debian's packages when
missing, as the Mermaid reference is installed); without root and node it fails saying how to
install them, so a test never skips silently."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from debian_tools import debian_command

VERSION = "0.16.21"


def katex_dir() -> Path:
    """The folder whose node_modules holds katex, installed on first use."""
    for command, package in (("node", "nodejs"), ("npm", "npm")):
        debian_command(command, package, needed_by="the olmOCR-bench math tests")
    root = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    target = root / "parsescore-tests" / f"katex-{VERSION}"
    if not (target / "node_modules" / "katex" / "package.json").is_file():
        target.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent", "--prefix",
                        str(target), f"katex@{VERSION}"], check=True, timeout=600)  # fmt: skip
    return target
