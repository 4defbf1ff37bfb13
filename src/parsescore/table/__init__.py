"""Tables: TEDS / TEDS-S with the scores of ``table_recognition_metric`` 0.0.6 (fast, exact),
batch evaluation of collections, and GriTS (Top, Con, Loc)."""

from parsescore.table.batch import BatchResult, TableScores, evaluate_tables
from parsescore.table.grits import GridCell, GritsResult, GritsScore, cells_from_table, grits
from parsescore.table.inputs import load_tables
from parsescore.table.normalise import normalise_html
from parsescore.table.teds import TEDS, TedsDetail

__all__ = [
    "TEDS",
    "BatchResult",
    "GridCell",
    "GritsResult",
    "GritsScore",
    "TableScores",
    "TedsDetail",
    "cells_from_table",
    "evaluate_tables",
    "grits",
    "load_tables",
    "normalise_html",
]
