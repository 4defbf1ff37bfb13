"""Run ``run_items`` with ``--jobs 2`` on items that keep their worker busy (the workers test
of tests/hostile/test_hostile_round2_core.py kills this process with SIGKILL).

Usage: ``python round2_workers.py FOLDER MODE`` where MODE is ``sleep`` (each worker sleeps in
its item), ``busy`` (each worker computes) or ``idle`` (one worker finishes its item and waits
for more). Each worker writes its pid to ``FOLDER/pid-<pid>`` when it starts an item.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any


def score(item: tuple[str, str, int]) -> dict[str, Any]:
    folder, mode, index = item
    (Path(folder) / f"pid-{os.getpid()}").write_text(str(index))
    if mode == "idle" and index == 0:
        (Path(folder) / f"idle-{os.getpid()}").write_text("")
        return {"index": index}
    deadline = time.monotonic() + 120
    total = 0
    while time.monotonic() < deadline:
        if mode == "busy":
            total += sum(i * i for i in range(10_000))
        else:
            time.sleep(0.05)
    return {"index": index, "total": total}


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from round2_workers import score as importable_score  # workers import it by name

    from parsescore.core.runner import run_items

    folder, mode = sys.argv[1], sys.argv[2]
    items = [(folder, mode, i) for i in range(2)]
    run_items(importable_score, items, kind="demo", options={}, jobs=2, quiet=True)
