"""``parsescore report``: one self-contained HTML page over any number of result files.

>>> from parsescore.report import write_report  # doctest: +SKIP
>>> write_report(["a.json", "b.json"], "report")  # doctest: +SKIP
PosixPath('report/index.html')
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from parsescore.files import write_text
from parsescore.report.html import ReportOptions, render_report
from parsescore.report.sources import System, load_report_systems

__all__ = ["ReportOptions", "System", "load_report_systems", "render_report", "write_report"]


def write_report(
    paths: Sequence[str | Path],
    out_dir: str | Path,
    *,
    names: Sequence[str] | None = None,
    options: ReportOptions | None = None,
) -> Path:
    """Load the result files, render the page and write ``out_dir/index.html`` (atomically)."""
    systems = load_report_systems([Path(p) for p in paths], names)
    page = render_report(systems, options)
    target = Path(out_dir) / "index.html"
    write_text(target, page)
    return target
