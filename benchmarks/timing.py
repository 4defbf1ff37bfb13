"""Timing and result files shared by the benchmarks (run as scripts: this folder is on
``sys.path``)."""

from __future__ import annotations

import contextlib
import datetime
import io
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

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


class _Tee:
    """A text stream that writes to two streams (the terminal and the results file)."""

    def __init__(self, *streams: TextIO) -> None:
        self.streams = streams

    def write(self, text: str) -> int:
        for stream in self.streams:
            stream.write(text)
        return len(text)

    def flush(self) -> None:
        for stream in self.streams:
            stream.flush()


@contextlib.contextmanager
def tee_results(name: str) -> Iterator[None]:
    """Keep everything a benchmark prints in ``benchmarks/results/<name>.txt`` too (the README
    quotes those files), under a header with the date, the commit and the command. Only a run
    that finishes is kept: ``--help``, a usage error, a crash or Ctrl-C leave the file as it
    was."""
    collected = Results(name)
    buffer = io.StringIO()
    original = sys.stdout
    sys.stdout = _Tee(original, buffer)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout = original
    collected.lines = buffer.getvalue().rstrip("\n").split("\n")
    collected.write(" ".join(["benchmarks/" + Path(sys.argv[0]).name, *sys.argv[1:]]))
