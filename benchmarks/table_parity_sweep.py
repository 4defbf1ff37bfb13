"""Parity sweep: parsescore TEDS vs table_recognition_metric 0.0.6 on many generated pairs.

Larger than the test suite can afford: every pair in both modes and both argument orders.
Run: ``.venv/bin/python benchmarks/table_parity_sweep.py [N_PAIRS] [JOBS]``.
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor

from table_recognition_metric import TEDS as ReferenceTEDS

from parsescore.table import TEDS
from parsescore.table.synthetic import random_pair


def _one(seed: int) -> tuple[int, float, int]:
    rows = 2 + seed % 23
    cols = 1 + (seed // 23) % 9
    gt, pred = random_pair(100_000 + seed, rows, cols, broken=seed % 5 == 0, spans=seed % 7 != 0)
    worst, compared = 0.0, 0
    for structure_only in (False, True):
        for first, second in ((gt, pred), (pred, gt)):
            ours = TEDS(structure_only)(first, second)
            ref = ReferenceTEDS(structure_only)(first, second)
            worst = max(worst, abs(ours - ref))
            compared += 1
    return seed, worst, compared


def main() -> None:
    """Run the sweep and print the number of comparisons and the largest difference."""
    n_pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(_one, range(n_pairs), chunksize=20))
    worst = max(r[1] for r in results)
    over = [r[0] for r in results if r[1] > 1e-12]
    print(
        f"{n_pairs} pairs, {sum(r[2] for r in results)} comparisons "
        f"(2 modes x 2 argument orders); max |ours - reference| = {worst:.3g}; "
        f"pairs over 1e-12: {over}"
    )


if __name__ == "__main__":
    main()
