"""The table kind's :class:`TEDS`: the pair scorer of :mod:`parsescore.shared.tables.teds` with
:meth:`TEDS.batch`, which scores a whole collection with the kind's batch machinery."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from parsescore.shared.tables.teds import TEDS as PairTEDS
from parsescore.shared.tables.teds import TedsDetail

if TYPE_CHECKING:
    from parsescore.shared.tables.grid import TableGrid
    from parsescore.table.batch import BatchResult

__all__ = ["TEDS", "TedsDetail"]


class TEDS(PairTEDS):
    """TEDS / TEDS-S of one pair (``TEDS()(truth_html, pred_html)``) or of a collection
    (:meth:`batch`); the options are those of :class:`parsescore.shared.tables.teds.TEDS`."""

    def batch(
        self,
        truth: Mapping[str, str | TableGrid],
        pred: Mapping[str, str | TableGrid],
        *,
        jobs: int = 1,
        with_grits: bool = True,
        progress: bool = False,
    ) -> BatchResult:
        """Score many pairs (``{name: html}`` or ``{name: TableGrid}`` each) with this object's
        options.

        Missing predictions score 0 and are listed; TEDS, TEDS-S (and GriTS) are all
        computed, the headline follows ``structure_only``. See
        :func:`parsescore.table.batch.evaluate_tables`.
        """
        from parsescore.table.batch import evaluate_tables

        return evaluate_tables(
            truth,
            pred,
            structure_only=self.structure_only,
            jobs=jobs,
            with_grits=with_grits,
            ignore_nodes=self.ignore_nodes,
            denominator=self.denominator,
            normalise=self.normalise,
            progress=progress,
        )
