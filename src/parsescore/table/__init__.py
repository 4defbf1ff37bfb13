"""Tables: TEDS / TEDS-S with the scores of ``table_recognition_metric`` 0.0.6 (fast, exact),
batch evaluation of collections, and GriTS (Top, Con, Loc)."""

from typing import TYPE_CHECKING

from parsescore.core.lazy import lazy_exports

if TYPE_CHECKING:
    from parsescore.table.batch import (
        BatchResult,
        TableScores,
        evaluate_tables,
    )
    from parsescore.table.formats import (
        TableText,
        detect_format,
        read_table,
        to_html,
    )
    from parsescore.table.grits_metric import (
        GridCell,
        GritsResult,
        GritsScore,
        cells_from_table,
        grits,
    )
    from parsescore.table.inputs import (
        load_tables,
        read_collection,
    )
    from parsescore.table.normalise import (
        normalise_html,
    )
    from parsescore.table.teds import (
        TEDS,
        TedsDetail,
    )

_EXPORTS = {
    "BatchResult": "parsescore.table.batch",
    "TableScores": "parsescore.table.batch",
    "evaluate_tables": "parsescore.table.batch",
    "GridCell": "parsescore.table.grits_metric",
    "GritsResult": "parsescore.table.grits_metric",
    "GritsScore": "parsescore.table.grits_metric",
    "cells_from_table": "parsescore.table.grits_metric",
    "grits": "parsescore.table.grits_metric",
    "TableText": "parsescore.table.formats",
    "detect_format": "parsescore.table.formats",
    "read_table": "parsescore.table.formats",
    "to_html": "parsescore.table.formats",
    "load_tables": "parsescore.table.inputs",
    "read_collection": "parsescore.table.inputs",
    "normalise_html": "parsescore.table.normalise",
    "TEDS": "parsescore.table.teds",
    "TedsDetail": "parsescore.table.teds",
}
__all__ = [
    "TEDS",
    "BatchResult",
    "GridCell",
    "GritsResult",
    "GritsScore",
    "TableScores",
    "TableText",
    "TedsDetail",
    "cells_from_table",
    "detect_format",
    "evaluate_tables",
    "grits",
    "load_tables",
    "normalise_html",
    "read_collection",
    "read_table",
    "to_html",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
