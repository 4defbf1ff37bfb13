"""TEDS and TEDS-S for the document kind.

LOCAL ADAPTER (temporary): the architecture says a kind's package must not import another kind's
package, but TEDS lives in the table kind (``parsescore.table.teds.TEDS`` with
``table/tree.py``, ``table/ted.py``, ``table/score.py``). Until those move to
``parsescore/shared/`` this module is the one place where the document kind reaches into
``parsescore.table``; nothing else in ``parsescore.document`` does.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

__all__ = ["teds_score"]


@lru_cache(maxsize=2)
def _scorer(structure_only: bool) -> Any:
    from parsescore.table.teds import TEDS  # the adapter's one cross-kind import

    return TEDS(structure_only=structure_only, denominator="all_descendants")


def teds_score(gt_html: str, pred_html: str, structure_only: bool) -> float:
    """PubTabNet's TEDS (``len(.//*)`` denominator), 0 when a side has no table."""
    return float(_scorer(structure_only)(gt_html, pred_html))
