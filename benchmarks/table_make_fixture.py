"""Make tests/table/data/reference_large.json: the reference's scores on large table pairs.

``table_recognition_metric`` needs ~10-20 s per 60x15 pair, too slow for the test suite, so
its scores on large generated pairs are stored once with the HTML they were computed on.
Run: ``.venv/bin/python benchmarks/table_make_fixture.py`` (a few minutes on 2 cores).
"""

from __future__ import annotations

import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from table_recognition_metric import TEDS as ReferenceTEDS

from parsescore.core.files import write_json
from parsescore.table.synthetic import random_pair

OUT = Path(__file__).resolve().parent.parent / "tests" / "table" / "data" / "reference_large.json"

# (seed, rows, cols, spans, broken)
CASES = [
    (1001, 30, 10, True, False),
    (1002, 40, 8, True, False),
    (1003, 40, 12, False, False),
    (1004, 50, 10, True, True),
    (1005, 50, 12, True, False),
    (1006, 60, 10, False, False),
    (1007, 60, 15, True, False),
    (1008, 60, 15, False, False),
    # medium-large pairs with broken markup and spans
    *[(1100 + k, 20 + 3 * k, 8 + k % 5, k % 2 == 0, k % 3 == 0) for k in range(12)],
    (1200, 60, 15, True, True),
    (1201, 45, 15, True, True),
]


def _score(case: tuple[int, int, int, bool, bool]) -> dict[str, object]:
    seed, rows, cols, spans, broken = case
    truth, pred = random_pair(seed, rows, cols, spans=spans, broken=broken)
    return {
        "seed": seed,
        "rows": rows,
        "cols": cols,
        "truth": truth,
        "pred": pred,
        "reference_version": "table_recognition_metric 0.0.6",
        "teds": ReferenceTEDS()(truth, pred),
        "teds_s": ReferenceTEDS(structure_only=True)(truth, pred),
    }


def main() -> None:
    """Compute the reference scores in parallel and write the fixture."""
    jobs = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    with ProcessPoolExecutor(jobs) as pool:
        records = list(pool.map(_score, CASES))
    write_json(OUT, {"cases": records})
    print(json.dumps([{k: r[k] for k in ("seed", "teds", "teds_s")} for r in records]))


if __name__ == "__main__":
    main()
