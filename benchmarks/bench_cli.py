"""How fast the CLI starts: ``parsescore --help`` (and a command's ``--help``) against
``python -c pass``, CPU time of the child processes, in the same run.

The aim is ≤ 0.25 s of CPU for ``parsescore --help``: starting the CLI imports typer and the
kind registry, never a kind's scoring code (numpy, scipy, numba, lxml, ...).

    .venv/bin/python benchmarks/bench_cli.py [--repeat 10]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
#: As users run it: bytecode cached (some environments set PYTHONDONTWRITEBYTECODE, which makes
#: every start compile every module again).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cpu_and_wall(argv: list[str]) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of one run of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    cases = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "parsescore --help": [str(BIN / "parsescore"), "--help"],
        "parsescore table --help": [str(BIN / "parsescore"), "table", "--help"],
        "parsescore sequence --help": [str(BIN / "parsescore"), "sequence", "--help"],
    }
    for argv in cases.values():  # warm the file cache and write the bytecode
        cpu_and_wall(argv)
    medians: dict[str, tuple[float, float]] = {}
    for name, argv in cases.items():
        runs = [cpu_and_wall(argv) for _ in range(args.repeat)]
        medians[name] = (
            statistics.median(c for c, _ in runs),
            statistics.median(w for _, w in runs),
        )
    base_cpu = medians["python -c pass"][0]
    print(f"median of {args.repeat} runs each (CPU = user + system of the process)")
    print(f"{'command':30} {'CPU s':>8} {'wall s':>8} {'CPU / python -c pass':>22}")
    for name, (cpu, wall) in medians.items():
        ratio = cpu / base_cpu if base_cpu else float("inf")
        print(f"{name:30} {cpu:8.3f} {wall:8.3f} {ratio:21.1f}x")
    cpu = medians["parsescore --help"][0]
    verdict = "within" if cpu <= 0.25 else "ABOVE"
    print(f"parsescore --help: {cpu:.3f} s CPU, {verdict} the 0.25 s aim")


if __name__ == "__main__":
    main()
