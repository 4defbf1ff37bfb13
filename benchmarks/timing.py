"""Timing and result files shared by the benchmarks (run as scripts: this folder is on
``sys.path``)."""

from __future__ import annotations

import datetime
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent


def median_seconds(fn: Callable[[], object], repeat: int) -> float:
    """The median wall time of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def median_cpu_seconds(fn: Callable[[], object], repeat: int) -> float:
    """The median CPU time (this process, all threads) of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


class Results:
    """Prints a benchmark's lines and keeps them in its results file (the README quotes it).

    The file starts with the date, the commit and the command, so a number can be traced to
    the run that measured it; each run replaces the file.
    """

    def __init__(self, name: str, path: Path | None = None) -> None:
        self.path = path if path is not None else HERE / "results" / f"{name}.txt"
        self.lines: list[str] = []

    def print(self, line: str = "") -> None:
        print(line, flush=True)
        self.lines.append(line)

    def write(self, command: str) -> None:
        try:
            commit = subprocess.run(
                ["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"],
                capture_output=True,
                text=True,
                check=False,
            ).stdout.strip()
        except OSError:
            commit = "unknown"
        stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        header = f"# {command}\n# {stamp}, commit {commit or 'unknown'}\n"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(header + "\n".join(self.lines) + "\n", encoding="utf-8")
        print(f"(results kept in {self.path.relative_to(HERE.parent)})")
