"""The table kind's metrics, declared once: their names, labels, directions and how each total
is built (:class:`~parsescore.core.kinds.Metric`). Everything else — the batch scores, the
``--out`` documents, their JSON Schema, the summary — takes the names from here.

Cheap to import (the registry and ``parsescore --help`` import it).
"""

from __future__ import annotations

from dataclasses import replace

from parsescore.core.kinds import Dataset, Items, Mean, Metric
from parsescore.shared.coverage import READABLE
from parsescore.shared.tables.names import GRITS_KEYS, grits_name

__all__ = [
    "GRITS",
    "GRITS_HEADLINE",
    "METRICS",
    "N_TABLES",
    "READABLE_TOTAL",
    "TEDS",
    "TEDS_S",
    "TOTALS",
]

TEDS = Metric("TEDS", "TEDS", True, headline=True, aggregate=Mean())
TEDS_S = Metric("TEDS-S", "TEDS-S", True, headline=True, aggregate=Mean())
#: Every GriTS metric (F-scores are headlines), each total the mean over the tables that have
#: it (GriTS-Loc: those with boxes on both sides; none: no total).
GRITS: tuple[Metric, ...] = tuple(
    Metric(name, name, True, headline=not key.endswith(("precision", "recall")), aggregate=Mean())
    for key, name in GRITS_KEYS.items()
)
#: The share of all truth tables whose answer was present and readable: a dataset number, since
#: with ``--allow-missing`` the tables left out count too but are not items.
READABLE_TOTAL = replace(
    READABLE,
    aggregate=Dataset("the share of every truth table, those left out by --allow-missing too"),
)
N_TABLES = Metric("n_tables", "tables", None, "count", aggregate=Items())

#: The headline of a GriTS run (cell lists, or tables scored with GriTS only).
GRITS_HEADLINE = grits_name("con")

#: Per table, in display order.
METRICS: tuple[Metric, ...] = (TEDS, TEDS_S, *GRITS, READABLE)
#: The dataset's numbers, in display order (a run has the ones its options compute).
TOTALS: tuple[Metric, ...] = (TEDS, TEDS_S, *GRITS, READABLE_TOTAL, N_TABLES)
