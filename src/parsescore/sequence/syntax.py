"""Optional syntax check of predictions with a real PlantUML (``-syntax``, script on stdin).

PlantUML is found through ``PLANTUML_JAR`` (run as ``java -jar``) or a ``plantuml`` command on
``PATH`` (Debian's package; its jar is run directly when the script names it). With neither,
:func:`find_plantuml` returns None and the caller says so once. PlantUML's ``-syntax`` output
starts with ``ERROR`` (then the line number and the message) when a script does not compile.

A prediction is model output, so it is compiled as untrusted input:

- a script using a directive or function that reads a file, the environment or a URL
  (``!include`` and its variants, ``!import``, ``!theme``, ``%load_json``, ``%getenv``,
  ``<img:…>``…) is refused before PlantUML runs, and reported as not compiling;
- PlantUML runs with its ``SANDBOX`` security profile (versions that have profiles), in an empty
  working folder, with an environment holding no secrets, without network access (a network
  namespace of its own where ``unshare`` allows it; in any case every Java proxy points at a
  closed local port, for every host), with a memory limit (``-Xmx``,
  ``PARSESCORE_PLANTUML_MB``, default 512) and a time limit (``PARSESCORE_PLANTUML_SECONDS``,
  default 60).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from parsescore.core.files import env_limit

__all__ = ["SyntaxResult", "check_syntax", "find_plantuml", "refused_directive"]

#: What makes PlantUML read a file, the environment or a URL.
_REFUSED = re.compile(
    r"^\s*!\s*(?:include\w*|import|theme)\b"
    r"|%\s*(?:load_json|getenv|get_all_stdlib|file_exists|dirpath|filename|load\w*)\b"
    r"|<\s*img\b",
    re.IGNORECASE | re.MULTILINE,
)

#: Java options that keep PlantUML off the network (proxies at a closed port, for every host)
#: and inside its sandbox profile.
_JAVA_OPTIONS = (
    "-Djava.awt.headless=true",
    "-DPLANTUML_SECURITY_PROFILE=SANDBOX",
    "-Djava.net.useSystemProxies=false",
    "-Dhttp.proxyHost=127.0.0.1",
    "-Dhttp.proxyPort=9",
    "-Dhttps.proxyHost=127.0.0.1",
    "-Dhttps.proxyPort=9",
    "-Dhttp.nonProxyHosts=",
    "-DsocksProxyHost=127.0.0.1",
    "-DsocksProxyPort=9",
    "-Dftp.proxyHost=127.0.0.1",
    "-Dftp.proxyPort=9",
)


@dataclass(frozen=True, slots=True)
class SyntaxResult:
    """Whether one script compiles; ``line``/``message`` say where and why when it does not."""

    path: str
    ok: bool
    line: int | None = None
    message: str = ""


def _java_options() -> list[str]:
    return [f"-Xmx{env_limit('PARSESCORE_PLANTUML_MB', 512)}m", *_JAVA_OPTIONS]


def _debian_jar(command: str) -> str | None:
    """The jar a ``plantuml`` launcher script runs (``-jar PATH``), if it names one."""
    try:
        head = Path(command).read_bytes()[:8192].decode("utf-8", "replace")
    except OSError:
        return None
    match = re.search(r"-jar\s+(\S+\.jar)", head)
    return match.group(1) if match and Path(match.group(1)).is_file() else None


def find_plantuml() -> list[str] | None:
    """The command that runs PlantUML (with the sandbox's Java options), or None."""
    jar = os.environ.get("PLANTUML_JAR")
    command = shutil.which("plantuml")
    if not jar and command:
        jar = _debian_jar(command)
        if jar is None:
            return [command]  # a launcher we cannot see into: options go in JAVA_TOOL_OPTIONS
    if jar:
        java = shutil.which("java")
        if java and Path(jar).is_file():
            return [java, *_java_options(), "-jar", jar]
    return None


@functools.cache
def _no_network_prefix() -> tuple[str, ...]:
    """``unshare`` into an empty network namespace, when this system allows it."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return ()
    for prefix in ((unshare, "--net"), (unshare, "--net", "--map-root-user")):
        try:
            probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=10, check=False)
        except (OSError, subprocess.SubprocessError):
            continue
        if probe.returncode == 0:
            return prefix
    return ()


def refused_directive(text: str) -> tuple[int, str] | None:
    """``(line, directive)`` of the first thing in a script that would make PlantUML read a
    file, the environment or a URL; None when there is none."""
    match = _REFUSED.search(text)
    if match is None:
        return None
    return text.count("\n", 0, match.start()) + 1, match.group(0).strip()


def _environment(command: list[str], workdir: str) -> dict[str, str]:
    """A minimal environment: no keys or tokens of the user reach PlantUML."""
    keep = ("PATH", "LANG", "LC_ALL", "JAVA_HOME", "TZ")
    env = {name: os.environ[name] for name in keep if name in os.environ}
    env |= {"PLANTUML_SECURITY_PROFILE": "SANDBOX", "HOME": workdir, "TMPDIR": workdir}
    if "-jar" not in command:  # a launcher script: the JVM picks the options up from here
        env["JAVA_TOOL_OPTIONS"] = " ".join(_java_options())
    return env


def check_syntax(
    command: list[str], path: str, text: str, *, timeout: float | None = None
) -> SyntaxResult:
    """Run ``command -syntax`` on one script in the sandbox described above; a refused
    directive, a crash or a time-out is reported as not compiling."""
    refused = refused_directive(text)
    if refused is not None:
        line, directive = refused
        return SyntaxResult(
            path,
            False,
            line,
            f"refused: {directive[:60]!r} would make PlantUML read a file, the environment or "
            "a URL (not checked)",
        )
    return _compile(command, path, text, timeout)


def _compile(command: list[str], path: str, text: str, timeout: float | None) -> SyntaxResult:
    """Run PlantUML on a script (already screened by :func:`refused_directive`)."""
    if timeout is None:
        timeout = env_limit("PARSESCORE_PLANTUML_SECONDS", 60)
    with tempfile.TemporaryDirectory(prefix="parsescore-plantuml-") as workdir:
        env = _environment(command, workdir)
        try:
            result = subprocess.run(
                [*_no_network_prefix(), *command, "-syntax"],
                input=text.encode("utf-8"),
                capture_output=True,
                timeout=timeout,
                check=False,
                cwd=workdir,
                env=env,
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
        error = [
            line
            for line in result.stderr.decode("utf-8", "replace").strip().splitlines()
            if not line.startswith("Picked up JAVA_TOOL_OPTIONS")
        ]
        return SyntaxResult(
            path, False, None, error[-1] if error else f"PlantUML exit status {result.returncode}"
        )
    return SyntaxResult(path, True)
