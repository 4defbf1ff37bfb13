"""``parsescore report``: a static HTML report (one page, plus detail pages for large
datasets) over any number of results.

::

    from parsescore.report import write_report

    write_report(["a.json", "b.json"], "report")  # -> Path("report/index.html")
"""

from typing import TYPE_CHECKING

from parsescore.core.lazy import lazy_exports

if TYPE_CHECKING:
    from parsescore.report.html import (
        ReportOptions,
        System,
        render_report,
    )
    from parsescore.report.sources import (
        load_report_systems,
        prepare_system,
        write_report,
    )

_EXPORTS = {
    "ReportOptions": "parsescore.report.html",
    "System": "parsescore.report.html",
    "render_report": "parsescore.report.html",
    "load_report_systems": "parsescore.report.sources",
    "prepare_system": "parsescore.report.sources",
    "write_report": "parsescore.report.sources",
}
__all__ = [
    "ReportOptions",
    "System",
    "load_report_systems",
    "prepare_system",
    "render_report",
    "write_report",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
