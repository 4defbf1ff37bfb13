"""Size limits of a table, one place for every reader and metric (TEDS, GriTS, cell diff).

A span or a grid beyond these is refused with a clear message instead of exhausting time or
memory. Each limit can be changed with an environment variable:

- ``PARSESCORE_MAX_SPAN`` (default 1,000): the largest ``colspan`` / ``rowspan``;
- ``PARSESCORE_MAX_CELLS`` (default 1,000,000): the most grid slots of one table;
- ``PARSESCORE_MAX_GRITS_PAIRS`` (default 25,000,000): GriTS compares every slot of the truth
  with every slot of the prediction; the most slot pairs one table pair may have;
- ``PARSESCORE_MAX_LATEX_DEPTH`` (default 100): the deepest nesting of braces and environments
  in a LaTeX table (pylatexenc's walker recurses once per level);
- ``PARSESCORE_MAX_LATEX_WALK`` (default 100,000 characters): the longest LaTeX text read by
  pylatexenc's walker, which reads what the linear tabular reader leaves to it (comments,
  macros with arguments it does not know, ...) at a few microseconds a character.
"""

from __future__ import annotations

from parsescore.core.errors import InputError
from parsescore.core.files import env_limit

__all__ = [
    "MAX_CELLS",
    "MAX_GRITS_PAIRS",
    "MAX_LATEX_DEPTH",
    "MAX_LATEX_WALK",
    "MAX_SPAN",
    "check_cells",
    "check_grits_pairs",
    "check_latex_walk",
    "latex_depth",
    "latex_walk_limit",
    "span",
]

#: Default largest ``colspan`` / ``rowspan``.
MAX_SPAN = 1000
#: Default most cells (grid slots) of one table.
MAX_CELLS = 1_000_000
#: Default most truth-slot x prediction-slot pairs GriTS scores for one table pair.
MAX_GRITS_PAIRS = 25_000_000
#: Default deepest nesting of braces and environments in a LaTeX table.
MAX_LATEX_DEPTH = 100
#: Default longest LaTeX text pylatexenc's walker reads, in characters.
MAX_LATEX_WALK = 100_000


def span(value: int | str, what: str, *, at_least_one: bool = True) -> int:
    """A span read from a table: an integer up to ``PARSESCORE_MAX_SPAN`` (and at least 1,
    unless ``at_least_one`` is False: TEDS keeps a ``colspan="0"`` as its reference does)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise InputError(f"{what}={str(value)[:40]!r} is not an integer span") from None
    if number < 1 and at_least_one:
        raise InputError(f"{what} {number} is not a span (at least 1)")
    limit = env_limit("PARSESCORE_MAX_SPAN", MAX_SPAN)
    if number > limit:
        raise InputError(
            f"{what} {number} is larger than the limit of {limit} (PARSESCORE_MAX_SPAN)"
        )
    return number


def check_cells(slots: int) -> None:
    """Refuse a table of more than ``PARSESCORE_MAX_CELLS`` grid slots."""
    limit = env_limit("PARSESCORE_MAX_CELLS", MAX_CELLS)
    if slots > limit:
        raise InputError(
            f"the table has {slots} cells, more than the limit of {limit} (PARSESCORE_MAX_CELLS)"
        )


def check_grits_pairs(true_slots: int, pred_slots: int) -> None:
    """Refuse a GriTS comparison of more than ``PARSESCORE_MAX_GRITS_PAIRS`` slot pairs."""
    limit = env_limit("PARSESCORE_MAX_GRITS_PAIRS", MAX_GRITS_PAIRS)
    if true_slots * pred_slots > limit:
        raise InputError(
            f"GriTS of a {true_slots}-cell table with a {pred_slots}-cell table compares "
            f"{true_slots * pred_slots} cell pairs, more than the limit of {limit} "
            "(PARSESCORE_MAX_GRITS_PAIRS)"
        )


def latex_depth() -> int:
    """The deepest nesting of a LaTeX table (``PARSESCORE_MAX_LATEX_DEPTH``)."""
    return env_limit("PARSESCORE_MAX_LATEX_DEPTH", MAX_LATEX_DEPTH)


def latex_walk_limit() -> int:
    """The longest LaTeX text pylatexenc's walker reads (``PARSESCORE_MAX_LATEX_WALK``)."""
    return env_limit("PARSESCORE_MAX_LATEX_WALK", MAX_LATEX_WALK)


def check_latex_walk(characters: int) -> None:
    """Refuse a LaTeX text longer than ``PARSESCORE_MAX_LATEX_WALK`` for the walker."""
    limit = latex_walk_limit()
    if characters > limit:
        raise InputError(
            f"the LaTeX table is {characters} characters long and uses more than the plain "
            f"tabular markup read in linear time; the full LaTeX reader takes at most {limit} "
            "(PARSESCORE_MAX_LATEX_WALK)"
        )
