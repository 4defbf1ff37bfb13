"""Run ``run_items`` with ``--jobs 2`` on items that keep their worker busy (the workers tests
of tests/hostile/test_hostile_round2_core.py kill this process, or press Ctrl-C).

Usage: ``python round2_workers.py FOLDER MODE [--cli]``. MODE: ``sleep`` (each worker sleeps
in its item), ``busy`` (each worker computes) or ``idle`` (one worker finishes its item and
waits for more). ``--cli``: run the items as the work of a command (``parsescore demo``). Each
worker writes its pid to ``FOLDER/pid-<pid>`` when it starts an item.
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
    if sys.argv[3:] != ["--cli"]:
        run_items(importable_score, items, kind="demo", options={}, jobs=2, quiet=True)
        sys.exit(0)
    # as a command: `parsescore demo` whose work is these items
    import parsescore.core.demo
    from parsescore.cli.main import main

    def demo(out: Path) -> None:
        run_items(importable_score, items, kind="demo", options={}, jobs=2, quiet=True)

    parsescore.core.demo.run_demo = demo
    main(["demo", "--out", str(Path(folder) / "out")])
