"""Tools the tests run as references (Graphviz, PlantUML, node), from Debian's packages.

A missing tool is installed as root with apt; without root the test fails saying what to
install, so a reference test never skips silently.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest


def debian_command(command: str, package: str, *, needed_by: str) -> str:
    """The path of ``command``, installing Debian's ``package`` first when it is missing."""
    found = shutil.which(command)
    if found:
        return found
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, timeout=600)
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", package], check=True, env=env, timeout=900
        )
        found = shutil.which(command)
    if not found:
        pytest.fail(f"{needed_by} need {command}: sudo apt-get install {package}")
    return found
