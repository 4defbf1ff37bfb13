"""Benchmark: parsescore TEDS vs table_recognition_metric 0.0.6 on a 60x15 pair, same run.

Prints both times, the ratio and whether the scores are equal, then how our cost grows from
10x5 to 100x20 tables (time per pair, tree sizes, fitted exponent of time vs node count).
Run: ``.venv/bin/python benchmarks/bench_table.py`` (about a minute; the reference dominates).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable

from table_recognition_metric import TEDS as ReferenceTEDS

from parsescore.table import TEDS
from parsescore.table.synthetic import random_pair


def _time(fn: Callable[[], float], repeat: int) -> tuple[float, float]:
    times, value = [], 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def head_to_head() -> None:
    """60x15 pair, TEDS and TEDS-S: ours (median of 5) vs the reference (one run)."""
    gt, pred = random_pair(7, 60, 15, spans=False)
    nodes = TEDS().tree(gt).n_nodes, TEDS().tree(pred).n_nodes  # type: ignore[union-attr]
    print(f"60x15 pair: {nodes[0]} / {nodes[1]} tree nodes")
    print(f"{'mode':8} {'ours [s]':>10} {'reference [s]':>14} {'ratio':>8}  scores equal")
    for structure_only, name in ((False, "TEDS"), (True, "TEDS-S")):
        ours_t, ours_v = _time(lambda s=structure_only: TEDS(s)(gt, pred), 5)
        ref_t, ref_v = _time(lambda s=structure_only: ReferenceTEDS(s)(gt, pred), 1)
        equal = abs(ours_v - ref_v) <= 1e-12
        print(
            f"{name:8} {ours_t:10.4f} {ref_t:14.3f} {ref_t / ours_t:7.0f}x  {equal} "
            f"({ours_v!r} vs {ref_v!r})"
        )


def growth() -> None:
    """Our time per pair from 10x5 to 100x20 and the fitted exponent in the node count."""
    sizes = [(10, 5), (20, 8), (40, 10), (60, 15), (80, 16), (100, 20)]
    print(f"\n{'size':>7} {'nodes':>6} {'TEDS [s]':>10} {'TEDS-S [s]':>11}")
    points = []
    for rows, cols in sizes:
        gt, pred = random_pair(rows * 31 + cols, rows, cols, spans=False)
        n = max(TEDS().tree(gt).n_nodes, TEDS().tree(pred).n_nodes)  # type: ignore[union-attr]
        t_content, _ = _time(lambda g=gt, p=pred: TEDS()(g, p), 3)
        t_structure, _ = _time(lambda g=gt, p=pred: TEDS(True)(g, p), 3)
        points.append((n, t_content))
        print(f"{rows:>3}x{cols:<3} {n:6d} {t_content:10.4f} {t_structure:11.4f}")
    (n0, t0), (n1, t1) = points[1], points[-1]
    exponent = math.log(t1 / t0) / math.log(n1 / n0)
    print(f"time grows ~ nodes^{exponent:.2f} (from {n0} to {n1} nodes)")


def main() -> None:
    """Warm the compiled kernels, then run both parts."""
    warm_gt, warm_pred = random_pair(1, 4, 3)
    TEDS()(warm_gt, warm_pred)
    TEDS(True)(warm_gt, warm_pred)
    head_to_head()
    growth()


if __name__ == "__main__":
    main()
