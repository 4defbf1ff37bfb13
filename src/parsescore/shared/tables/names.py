"""The vocabulary of the table machinery: its choices (TEDS denominator, GriTS modes, how LaTeX
math is read) and the names of GriTS's numbers.

Cheap to import (kinds declare their options and metrics from it; ``parsescore --help`` imports
those).
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "GRITS_KEYS",
    "GRITS_VARIANTS",
    "Denominator",
    "IouMode",
    "LatexMath",
    "LcsMode",
    "grits_name",
]

Denominator = Literal["tree_nodes", "all_descendants"]
IouMode = Literal["enclosing", "union"]
LcsMode = Literal["difflib", "exact"]
LatexMath = Literal["source", "text"]

#: GriTS's variants: ``top`` (cell topology), ``con`` (cell content), ``loc`` (cell location:
#: only where every cell has a box).
GRITS_VARIANTS = ("top", "con", "loc")
#: What each variant reports: its F-score, precision and recall.
_PARTS = ("", "precision", "recall")


def grits_name(variant: str, part: str = "") -> str:
    """The metric name of one GriTS number: ``GriTS-Con``, ``GriTS-Con precision``, ..."""
    name = f"GriTS-{variant.capitalize()}"
    return f"{name} {part}" if part else name


#: ``{key: metric name}`` of every GriTS number, keys as the batch records store them
#: (``con``, ``con_precision``, ...), in display order.
GRITS_KEYS: dict[str, str] = {
    (f"{variant}_{part}" if part else variant): grits_name(variant, part)
    for variant in GRITS_VARIANTS
    for part in _PARTS
}
