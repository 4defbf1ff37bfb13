"""Helpers shared by the sequence-diagram tests (a uniquely named module, not conftest)."""

from __future__ import annotations

from pathlib import Path

from parsescore.sequence import CATEGORIES, compare_scripts

DATA = Path(__file__).parent / "data" / "mwdi"
MWDI_FILES = sorted(DATA.glob("*.puml"))


def counts(truth: str, pred: str, **kwargs: float) -> dict[str, tuple[int, int, int]]:
    """(insertions, deletions, substitutions) of every category with any error."""
    score = compare_scripts(truth, pred, **kwargs)  # type: ignore[arg-type]
    return {
        category: (c.insertion, c.deletion, c.substitution)
        for category, c in score.counts.items()
        if c.errors
    }


def gt(text: str) -> dict[str, int]:
    """Ground-truth counts of every category with a non-zero count."""
    score = compare_scripts(text, text)
    return {c: score.counts[c].gt_count for c in CATEGORIES if score.counts[c].gt_count}
