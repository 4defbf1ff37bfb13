"""Tables: TEDS / TEDS-S with the scores of ``table_recognition_metric`` 0.0.6 (fast, exact),
GriTS (Top, Con, Loc) as table-transformer computes it, batch evaluation of collections, and
the readers of the formats models write, each into a :class:`TableGrid` (docs/table.md)."""

from typing import TYPE_CHECKING

from parsescore.core.lazy import lazy_exports

if TYPE_CHECKING:
    from parsescore.shared.tables.grid import GridCell, TableGrid
    from parsescore.shared.tables.grits import GritsResult, GritsScore, grits
    from parsescore.table.batch import BatchResult, TableScores, evaluate_tables
    from parsescore.table.inputs import Collection, read_collection
    from parsescore.table.kind import with_format
    from parsescore.table.options import TableOptions
    from parsescore.table.readers import detect_format, read_answer, read_table, to_html
    from parsescore.table.teds import TEDS, TedsDetail

_EXPORTS = {
    "BatchResult": "parsescore.table.batch",
    "TableScores": "parsescore.table.batch",
    "evaluate_tables": "parsescore.table.batch",
    "detect_format": "parsescore.table.readers",
    "read_answer": "parsescore.table.readers",
    "read_table": "parsescore.table.readers",
    "to_html": "parsescore.table.readers",
    "GridCell": "parsescore.shared.tables.grid",
    "TableGrid": "parsescore.shared.tables.grid",
    "GritsResult": "parsescore.shared.tables.grits",
    "GritsScore": "parsescore.shared.tables.grits",
    "grits": "parsescore.shared.tables.grits",
    "Collection": "parsescore.table.inputs",
    "read_collection": "parsescore.table.inputs",
    "with_format": "parsescore.table.kind",
    "TableOptions": "parsescore.table.options",
    "TEDS": "parsescore.table.teds",
    "TedsDetail": "parsescore.table.teds",
}
__all__ = [
    "TEDS",
    "BatchResult",
    "Collection",
    "GridCell",
    "GritsResult",
    "GritsScore",
    "TableGrid",
    "TableOptions",
    "TableScores",
    "TedsDetail",
    "detect_format",
    "evaluate_tables",
    "grits",
    "read_answer",
    "read_collection",
    "read_table",
    "to_html",
    "with_format",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
