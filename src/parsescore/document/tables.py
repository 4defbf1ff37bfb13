"""TEDS and TEDS-S of one page table as OmniDocBench scores them: PubTabNet's rules with the
``len(.//*)`` denominator (our ``all_descendants``), from the shared table machinery.

OmniDocBench's ``call_TEDS`` scores every table twice (TEDS, then TEDS-S), each parsing both
sides; :meth:`TedsScorer.pair` gives both numbers from one parse and one walk of each side
(``parse_table_trees``), with the same failures scoring 0 as the two separate calls.
"""

from __future__ import annotations

from functools import lru_cache

from parsescore.shared.tables.score import teds_of_trees
from parsescore.shared.tables.teds import TEDS
from parsescore.shared.tables.tree import parse_table_trees

__all__ = ["TedsScorer", "teds_score"]


@lru_cache(maxsize=2)
def _scorer(structure_only: bool) -> TEDS:
    return TEDS(structure_only=structure_only, denominator="all_descendants")


class TedsScorer:
    """The page tables' TEDS: one pair and flag at a time (``__call__``) or both flags at
    once (:meth:`pair`)."""

    def __call__(self, gt_html: str, pred_html: str, structure_only: bool) -> float:
        """PubTabNet's TEDS (``len(.//*)`` denominator), 0 when a side has no table."""
        return float(_scorer(structure_only)(gt_html, pred_html))

    def pair(self, gt_html: str, pred_html: str) -> tuple[float, float]:
        """``(TEDS, TEDS-S)`` as ``call_TEDS`` takes them: each is what ``self(gt, pred,
        flag)`` returns, or the int 0 where that call raises. Parsing (truth first, as the
        reference) raises for both flags alike, so one parse serves both."""
        if (not gt_html) or (not pred_html):
            return 0.0, 0.0
        try:
            first = parse_table_trees(gt_html)
            second = parse_table_trees(pred_html)
        except Exception:
            return 0, 0
        if first is None or second is None:
            return 0.0, 0.0
        scores: list[float] = []
        for one, other in zip(first, second, strict=True):
            try:
                scores.append(float(teds_of_trees(one, other, denominator="all_descendants").score))
            except Exception:
                scores.append(0)
        return scores[0], scores[1]


#: The scorer every document table goes through.
teds_score = TedsScorer()
