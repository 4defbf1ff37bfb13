"""Module-level scoring functions for the runner tests (workers import them by name)."""

from __future__ import annotations

import os
from typing import Any


def square(item: int) -> dict[str, Any]:
    """A record with an int, a float that needs every digit, and a tuple."""
    return {"item": item, "square": item * item, "ratio": 1 / (item + 3), "pair": (item, -item)}


def counted_square(item: tuple[str, int]) -> dict[str, Any]:
    """``square`` that also appends one line to a counter file per call (any process)."""
    counter, value = item
    fd = os.open(counter, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, f"{value}\n".encode())
    finally:
        os.close(fd)
    return square(value)


def fail_on_threes(item: int) -> dict[str, Any]:
    """Fails on every item whose last digit is 3: the first failure is item 3."""
    if item % 10 == 3:
        raise ValueError(f"cannot score item {item}")
    return {"item": item}


def not_a_dict(item: int) -> Any:
    return [item]


def calls(counter: str) -> list[int]:
    """The items scored since the counter file was last removed."""
    if not os.path.exists(counter):
        return []
    with open(counter, encoding="utf-8") as handle:
        return sorted(int(line) for line in handle if line.strip())
