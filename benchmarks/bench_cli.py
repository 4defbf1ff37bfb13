"""How fast the CLI starts and scores a first pair: ``parsescore --help`` (and a command's
``--help``) against ``python -c pass``, and one small pair per kind in a fresh process
(``parsescore teds`` beside ``table_recognition_metric``'s own first call, ``score_pair`` for
tables, flowcharts, sequences), CPU time and peak memory of the child processes, same run.

The aims: ≤ 0.25 s of CPU for ``parsescore --help`` (starting the CLI imports typer and the
kind registry, never a kind's scoring code); a first small pair within 0.35 s CPU and 80 MB
(issue 29), with a margin: 0.25 s on a quiet machine (a held-out check runs it elsewhere).
Then the warm path: CPU per pair of ``score_pair`` in a process that has scored one already,
per kind, beside ``table_recognition_metric``'s ``TEDS()(gt, pred)`` on the same
table pair (aim: under 1 ms per small table pair). Lines are kept in
``benchmarks/results/cli.txt``.

    .venv/bin/python benchmarks/bench_cli.py [--repeat 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from timing import Results

BIN = Path(sys.executable).parent
#: As users run it: bytecode cached (some environments set PYTHONDONTWRITEBYTECODE, which makes
#: every start compile every module again).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


GT = "<html><body><table><tr><td>a</td></tr></table></body></html>"
PRED = GT.replace(">a<", ">b<")
PAIRS = {
    "table": (GT, PRED),
    "sequence": ("@startuml\nA -> B : hi\nB --> A : ok\n@enduml", "A -> B : hi\nB -> A : ok"),
    "flowchart": ("flowchart TD\n  A[Start] --> B[End]", "flowchart TD\n  A[Start] --> B[Stop]"),
}


def _score_pair(kind: str) -> list[str]:
    truth, answer = PAIRS[kind]
    code = f"from parsescore import score_pair; score_pair({kind!r}, {truth!r}, {answer!r})"
    return [sys.executable, "-c", code]


#: A child that scores the pairs warm: CPU seconds per call, median of rounds, as JSON.
WARM = """
import json, statistics, sys, time
from parsescore import score_pair
from table_recognition_metric import TEDS
pairs = json.loads(sys.argv[1])
reference = TEDS()
calls = {kind: (lambda t=t, a=a, k=kind: score_pair(k, t, a)) for kind, (t, a) in pairs.items()}
calls["trm TEDS"] = lambda: reference(pairs["table"][0], pairs["table"][1])
out = {}
for name, call in calls.items():
    call()
    rounds = []
    for _ in range(7):
        start = time.process_time()
        for _ in range(200):
            call()
        rounds.append((time.process_time() - start) / 200)
    out[name] = statistics.median(rounds)
print(json.dumps(out))
"""


def warm_per_pair() -> dict[str, float]:
    """CPU seconds per pair of each kind's ``score_pair`` and of the reference's TEDS call,
    warm, in one child process."""
    import json

    pairs = json.dumps(PAIRS)
    done = subprocess.run(
        [sys.executable, "-c", WARM, pairs], capture_output=True, text=True, env=ENV, check=True
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def cpu_and_wall(argv: list[str]) -> tuple[float, float, float]:
    """CPU seconds (user + system), wall seconds and peak MiB of one run of ``argv``."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, env=ENV)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{argv[:3]} failed (status {status})")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    cases = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "parsescore --help": [str(BIN / "parsescore"), "--help"],
        "parsescore table --help": [str(BIN / "parsescore"), "table", "--help"],
        "parsescore sequence --help": [str(BIN / "parsescore"), "sequence", "--help"],
        "table_recognition_metric pair": [
            str(BIN / "table_recognition_metric"), "-gt", GT, "-pred", PRED
        ],
        "parsescore teds pair": [str(BIN / "parsescore"), "teds", "-gt", GT, "-pred", PRED],
        **{f"score_pair {kind}": _score_pair(kind) for kind in PAIRS},
    }  # fmt: skip
    for argv in cases.values():  # warm the file cache and write the bytecode
        cpu_and_wall(argv)
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in cases}
    for _ in range(args.repeat):  # interleaved, so a slow minute hits every command alike
        for name, argv in cases.items():
            runs[name].append(cpu_and_wall(argv))
    medians = {
        name: tuple(statistics.median(r[k] for r in values) for k in range(3))
        for name, values in runs.items()
    }
    base_cpu = medians["python -c pass"][0]
    ref_cpu = medians["table_recognition_metric pair"][0]
    out = Results("cli")
    out.print(f"median of {args.repeat} runs each (CPU = user + system of the process)")
    out.print(
        f"{'command':32} {'CPU s':>7} {'wall s':>7} {'peak MiB':>9} {'/ python':>9} "
        f"{'/ trm pair':>11}"
    )
    for name, (cpu, wall, peak) in medians.items():
        ratio = cpu / base_cpu if base_cpu else float("inf")
        out.print(
            f"{name:32} {cpu:7.3f} {wall:7.3f} {peak:9.1f} {ratio:8.1f}x {cpu / ref_cpu:10.2f}x"
        )
    cpu = medians["parsescore --help"][0]
    verdict = "within" if cpu <= 0.25 else "ABOVE"
    out.print(f"parsescore --help: {cpu:.3f} s CPU, {verdict} the 0.25 s aim")
    for name in ("parsescore teds pair", *(f"score_pair {kind}" for kind in PAIRS)):
        cpu, _, peak = medians[name]
        verdict = "within" if cpu <= 0.35 and peak <= 80 else "ABOVE"
        margin = "within" if cpu <= 0.25 else "ABOVE"
        out.print(
            f"{name}: {cpu:.3f} s CPU, {peak:.0f} MiB, {verdict} the 0.35 s / 80 MB aim "
            f"({margin} the 0.25 s margin)"
        )
    warm = warm_per_pair()
    out.print("warm, CPU per pair (median of 7 rounds of 200 calls, one process):")
    for name, seconds in warm.items():
        out.print(f"  {name:20} {seconds * 1000:8.3f} ms {seconds / warm['trm TEDS']:8.2f}x trm")
    seconds = warm["table"]
    verdict = "within" if seconds < 0.001 else "ABOVE"
    out.print(f"warm score_pair table: {seconds * 1000:.3f} ms, {verdict} the 1 ms aim")
    out.write("benchmarks/bench_cli.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
