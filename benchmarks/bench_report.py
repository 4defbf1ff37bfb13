"""The HTML report at scale: ``parsescore report`` over 10,000 tables and 2,000 sequence
diagrams, timed against scoring them, one run.

Inputs are synthetic (as in ``bench_scale.py``): small random table pairs
(``parsescore.table.synthetic``) and the 30 mwdi test diagrams with seeded small edits. Both
are scored to result envelopes (with every item's detail: cells, grids, differences), then
``parsescore report`` (the CLI, in a fresh process) renders them. Printed: scoring and report
times (also the report's CPU time: on a busy machine wall time overstates it), their ratio,
the main page's size and the detail pages' count and total size. Targets (issue 15): report
under 30 s, main page under 5 MB.

    .venv/bin/python benchmarks/bench_report.py [--tables 10000] [--diagrams 2000]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import parsescore

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import sequence_dirs, table_pairs

CLI = Path(sys.executable).parent / "parsescore"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--diagrams", type=int, default=2_000)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average before the run: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        truth, pred = table_pairs(args.tables)
        start = time.perf_counter()
        tables = parsescore.evaluate("table", truth, pred, quiet=True)
        table_seconds = time.perf_counter() - start
        tables.write(root / "tables.json")

        truth_dir, pred_dir = sequence_dirs(root, args.diagrams)
        start = time.perf_counter()
        sequence = parsescore.evaluate("sequence", truth_dir, pred_dir, quiet=True)
        sequence_seconds = time.perf_counter() - start
        sequence.write(root / "sequence.json")
        scoring = table_seconds + sequence_seconds

        out = root / "report"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            [
                str(CLI),
                "report",
                str(root / "tables.json"),
                str(root / "sequence.json"),
                "--out",
                str(out),
            ],
            check=True,
            capture_output=True,
        )
        report_seconds = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        report_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        main_page = (out / "index.html").stat().st_size
        pages = sorted((out / "items").glob("*.html")) if (out / "items").is_dir() else []
        print(f"scoring {args.tables} tables:          {table_seconds:8.2f} s")
        print(f"scoring {args.diagrams} sequence diagrams: {sequence_seconds:8.2f} s")
        print(f"parsescore report (CLI process):   {report_seconds:8.2f} s (target < 30 s)")
        print(f"  its CPU time:                    {report_cpu:8.2f} s (wall on an idle machine)")
        print(f"ratio report / scoring:            {report_seconds / scoring:8.3f}")
        print(f"main page: {main_page / 1e6:.2f} MB (target < 5 MB)")
        total = sum(p.stat().st_size for p in pages)
        print(f"detail pages: {len(pages)}, {total / 1e6:.2f} MB in all")


if __name__ == "__main__":
    from timing import tee_results

    with tee_results("report"):
        main()
