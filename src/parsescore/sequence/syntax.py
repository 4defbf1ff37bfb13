"""Optional syntax check of predictions with a real PlantUML (``-syntax``, script on stdin).

PlantUML is found through ``PLANTUML_JAR`` (run as ``java -jar``) or a ``plantuml`` command on
``PATH`` (Debian's package). With neither, :func:`find_plantuml` returns None and the caller
says so once. PlantUML's ``-syntax`` output starts with ``ERROR`` (then the line number and the
message) when a script does not compile.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

__all__ = ["SyntaxResult", "check_syntax", "find_plantuml"]


@dataclass(frozen=True, slots=True)
class SyntaxResult:
    """Whether one script compiles; ``line``/``message`` say where and why when it does not."""

    path: str
    ok: bool
    line: int | None = None
    message: str = ""


def find_plantuml() -> list[str] | None:
    """The command that runs PlantUML, or None when none is available."""
    jar = os.environ.get("PLANTUML_JAR")
    if jar:
        java = shutil.which("java")
        if java and Path(jar).is_file():
            return [java, "-Djava.awt.headless=true", "-jar", jar]
        return None
    command = shutil.which("plantuml")
    return [command] if command else None


def check_syntax(
    command: list[str], path: str, text: str, *, timeout: float = 120.0
) -> SyntaxResult:
    """Run ``command -syntax`` on one script; a crash or time-out is reported as not compiling."""
    try:
        result = subprocess.run(
            [*command, "-syntax"],
            input=text.encode("utf-8"),
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return SyntaxResult(path, False, None, f"PlantUML timed out after {timeout:g} s")
    except OSError as exc:
        return SyntaxResult(path, False, None, f"could not run PlantUML: {exc.strerror}")
    lines = [line.strip() for line in result.stdout.decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    if lines and lines[0].upper() == "ERROR":
        line_number = int(lines[1]) + 1 if len(lines) > 1 and lines[1].isdigit() else None
        message = " ".join(lines[2:]) if len(lines) > 2 else "syntax error"
        return SyntaxResult(path, False, line_number, message)
    if result.returncode != 0 and not lines:
        error = result.stderr.decode("utf-8", "replace").strip().splitlines()
        return SyntaxResult(
            path, False, None, error[-1] if error else f"PlantUML exit status {result.returncode}"
        )
    return SyntaxResult(path, True)
