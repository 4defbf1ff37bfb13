"""How a reader's CPU time grows with its input, measured so that a loaded machine or a large
test process cannot fake super-linear growth.

Two things made a linear reader look quadratic inside the whole suite (CI, 2026-12-02: the CSV
reader ×8 measured 57 times ×1 there, 8 times alone): a base measured once, minutes of other
work away from the larger measurement, and the cyclic garbage collector, whose collections cost
what the whole process holds, not what the reader allocates. So the collector is paused while a
read is timed, and each larger input is timed right after its base, several rounds, keeping the
smallest ratio: a quadratic reader's ratio stays large in every round, noise does not.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable


def cpu_seconds(call: Callable[[], object], repeats: int = 3) -> float:
    """The least CPU time of ``repeats`` calls of ``call``, with the cyclic collector paused."""
    best = float("inf")
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.process_time()
            call()
            best = min(best, time.process_time() - start)
    finally:
        if was_enabled:
            gc.enable()
    return best


def growth(
    small: Callable[[], object],
    large: Callable[[], object],
    limit: float,
    rounds: int = 3,
    floor: float = 2e-3,
) -> float:
    """``large``'s CPU time over ``small``'s timed just before it: the first round's ratio at or
    under ``limit``, else the least of ``rounds`` (``small`` counted as at least ``floor``
    seconds: below it a measurement is the clock's resolution)."""
    least = float("inf")
    for _ in range(rounds):
        least = min(least, cpu_seconds(large) / max(cpu_seconds(small), floor))
        if least <= limit:
            break
    return least
