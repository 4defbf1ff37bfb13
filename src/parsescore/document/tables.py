"""TEDS and TEDS-S of one page table as OmniDocBench scores them: PubTabNet's rules with the
``len(.//*)`` denominator (our ``all_descendants``), from the shared table machinery."""

from __future__ import annotations

from functools import lru_cache

from parsescore.shared.tables.teds import TEDS

__all__ = ["teds_score"]


@lru_cache(maxsize=2)
def _scorer(structure_only: bool) -> TEDS:
    return TEDS(structure_only=structure_only, denominator="all_descendants")


def teds_score(gt_html: str, pred_html: str, structure_only: bool) -> float:
    """PubTabNet's TEDS (``len(.//*)`` denominator), 0 when a side has no table."""
    return float(_scorer(structure_only)(gt_html, pred_html))
