"""Datasets at scale: throughput with --jobs 1 vs --jobs 2, and Dask's overhead, one run.

Work: 10,000 small synthetic table pairs (``parsescore.table.synthetic``; TEDS, TEDS-S and
GriTS per pair, as ``parsescore table`` computes by default) and 2,000 sequence diagrams (the
30 mwdi test diagrams with seeded small edits, written to folders and scored as
``parsescore sequence`` does, reading included). Each is run serially, on 2 local processes
and on a 2-worker Dask LocalCluster (processes); every run must give the same records. Also
timed: a re-run with every item in the ``--cache``.

    .venv/bin/python benchmarks/bench_scale.py [--tables 10000] [--diagrams 2000]

On a 2-core machine the ideal --jobs 2 ratio is 2.0; other work on the machine lowers it.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parsescore.sequence.dataset import score_model
from parsescore.sequence.inputs import directory_source
from parsescore.table.batch import evaluate_tables
from parsescore.table.synthetic import random_pair

MWDI = Path(__file__).resolve().parent.parent / "tests" / "sequence" / "data" / "mwdi"


def table_pairs(n: int) -> tuple[dict[str, str], dict[str, str]]:
    truth, pred = {}, {}
    for seed in range(n):
        gt, guess = random_pair(seed, 3 + seed % 4, 3 + seed % 3)
        truth[f"t{seed:05d}"], pred[f"t{seed:05d}"] = gt, guess
    return truth, pred


def edit(text: str, rng: random.Random) -> str:
    """One to three small edits: a line dropped, an arrow retyped, a message changed."""
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        arrows = [i for i, line in enumerate(lines) if "->" in line]
        if not arrows:
            break
        i = rng.choice(arrows)
        roll = rng.random()
        if roll < 0.3:
            del lines[i]
        elif roll < 0.6:
            lines[i] = lines[i].replace("->", "-->", 1)
        else:
            lines[i] += " (edited)"
    return "\n".join(lines) + "\n"


def sequence_dirs(root: Path, n: int) -> tuple[Path, Path]:
    sources = sorted(MWDI.glob("*.puml"))
    truth, pred = root / "truth", root / "pred"
    truth.mkdir()
    pred.mkdir()
    rng = random.Random(6)
    for i in range(n):
        text = sources[i % len(sources)].read_text(encoding="utf-8")
        name = f"d{i:05d}.puml"
        (truth / name).write_text(text, encoding="utf-8")
        (pred / name).write_text(edit(text, rng), encoding="utf-8")
    return truth, pred


CPU: dict[str, float] = {}


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the pool's workers)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(run: Callable[[], Any], label: str = "") -> tuple[float, Any]:
    cpu = _cpu()
    start = time.perf_counter()
    result = run()
    if label:
        CPU[label] = _cpu() - cpu
    return time.perf_counter() - start, result


def report(name: str, n: int, times: dict[str, float]) -> None:
    serial = times["jobs 1"]
    print(f"\n{name}: {n} items")
    for label, seconds in times.items():
        cpu = f"  (CPU {CPU[label]:.2f} s)" if label in CPU else ""
        print(
            f"  {label:<22} {seconds:8.2f} s  {n / seconds:9.0f} items/s  "
            f"speed-up vs jobs 1: {serial / seconds:5.2f}x{cpu}"
        )
    print(f"  ratio jobs 1 / jobs 2 (wall): {serial / times['jobs 2']:.2f}")
    print(f"  Dask overhead vs local processes: {times['dask 2 workers'] / times['jobs 2']:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--diagrams", type=int, default=2_000)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average before the run: {os.getloadavg()[0]:.2f}")

    from distributed import LocalCluster

    start = time.perf_counter()
    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
    )
    print(f"Dask LocalCluster (2 worker processes) start: {time.perf_counter() - start:.2f} s")
    address = cluster.scheduler_address
    try:
        truth, pred = table_pairs(args.tables)
        evaluate_tables(dict(list(truth.items())[:50]), pred, jobs=1)  # compile / load numba
        times: dict[str, float] = {}
        results = {}
        for label, kwargs in (
            ("jobs 1", {"jobs": 1}),
            ("jobs 2", {"jobs": 2}),
            ("dask 2 workers", {"dask_scheduler": address}),
        ):
            times[label], results[label] = timed(
                lambda kw=kwargs: evaluate_tables(truth, pred, **kw),
                label if "jobs" in label else "",
            )
        with tempfile.TemporaryDirectory() as cache:
            evaluate_tables(truth, pred, jobs=2, cache_dir=cache)
            times["all cached (jobs 1)"], results["cached"] = timed(
                lambda: evaluate_tables(truth, pred, cache_dir=cache)
            )
        docs = {label: result.to_json() for label, result in results.items()}
        assert all(doc == docs["jobs 1"] for doc in docs.values()), "table results differ"
        report("Tables (TEDS + TEDS-S + GriTS)", args.tables, times)

        with tempfile.TemporaryDirectory() as tmp:
            truth_dir, pred_dir = sequence_dirs(Path(tmp), args.diagrams)
            truth_src, pred_src = directory_source(truth_dir), directory_source(pred_dir)
            times, models = {}, {}
            for label, kwargs in (
                ("jobs 1", {"jobs": 1}),
                ("jobs 2", {"jobs": 2}),
                ("dask 2 workers", {"dask_scheduler": address}),
            ):
                times[label], models[label] = timed(
                    lambda kw=kwargs: score_model(truth_src, pred_src, **kw),
                    label if "jobs" in label else "",
                )
            cache = Path(tmp) / "cache"
            score_model(truth_src, pred_src, jobs=2, cache=cache)
            times["all cached (jobs 1)"], models["cached"] = timed(
                lambda: score_model(truth_src, pred_src, cache=cache)
            )
            assert all(m == models["jobs 1"] for m in models.values()), "sequence results differ"
            report("Sequence diagrams (parse + diff + categorise)", args.diagrams, times)
    finally:
        cluster.close()
    print(f"\nload average after the run: {os.getloadavg()[0]:.2f} (other work competes for cores)")


if __name__ == "__main__":
    from timing import tee_results

    with tee_results("scale"):
        main()
