"""A comparison as a table for a paper: systems × metrics, each value with its interval, the best
of each column marked and each column's direction shown — as Markdown, LaTeX or CSV
(``parsescore compare --format``, ``Comparison.to_markdown()`` ...).

Columns are the kind's summed-count statistics first (pooled, micro: under the kind's labels),
then the per-item means (``<label> (mean)``), in the comparison's order: the headline ones, or
those asked for (``metrics``, ``--metric``). Values are shown in their
metric's display format (:meth:`parsescore.core.kinds.Metric.show`); CSV holds them exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parsescore.core.errors import InputError
from parsescore.core.files import csv_rows, csv_text
from parsescore.core.kinds import Metric, get_kind
from parsescore.core.markdown import inert_markdown

if TYPE_CHECKING:
    from parsescore.core.compare import Comparison, MetricComparison

__all__ = ["FORMATS", "Column", "columns", "to_csv", "to_latex", "to_markdown"]

#: The formats a leaderboard is written in, and the file extensions that choose them.
FORMATS = {".md": "markdown", ".markdown": "markdown", ".tex": "latex", ".csv": "csv"}


@dataclass(frozen=True)
class Column:
    """One column: its title, its metric's display rules, and the comparison entry."""

    name: str
    title: str
    metric: Metric
    entry: MetricComparison

    @property
    def arrow(self) -> str:
        return "↑" if self.entry.higher_is_better else "↓"

    def best(self) -> set[str]:
        """The systems with the best value (all of them when tied)."""
        values = {name: s.mean for name, s in self.entry.systems.items()}
        best = max(values.values()) if self.entry.higher_is_better else min(values.values())
        return {name for name, value in values.items() if value == best}


def columns(comparison: Comparison, metrics: Sequence[str] | None = None) -> list[Column]:
    """The table's columns: statistics of summed counts, then per-item means — those named in
    ``metrics``, else the kind's headline ones (all, when none is a headline)."""
    kind = get_kind(comparison.kind)
    found = [
        Column(name, entry.label or name, _declared(kind.totals, name), entry)
        for name, entry in comparison.statistics.items()
    ]
    for name, entry in comparison.metrics.items():
        label = _declared(kind.metrics, name).label
        found.append(Column(name, f"{label} (mean)", _declared(kind.metrics, name), entry))
    if metrics is not None:
        chosen = [c for c in found if c.name in metrics]
        if not chosen:
            compared = ", ".join(dict.fromkeys(c.name for c in found))
            raise InputError(
                f"no column to show: {', '.join(metrics)} was not compared; compared: {compared}"
            )
        return chosen
    headline = [c for c in found if c.metric.headline]
    return headline or found


def _declared(metrics: Sequence[Metric], name: str) -> Metric:
    """The declaration of ``name`` among ``metrics`` (a total and an item metric may share a
    name: a pooled rate and the per-item rate)."""
    return next((m for m in metrics if m.name == name), Metric(name, name, True))


def _cell(column: Column, system: str) -> tuple[str, str]:
    summary = column.entry.systems[system]
    show = column.metric.show
    return show(summary.mean), f"[{show(summary.ci_low)}, {show(summary.ci_high)}]"


def _cells(
    cols: Sequence[Column],
    system: str,
    bold: Callable[[str], str],
    interval: Callable[[str], str],
) -> list[str]:
    """A system's row: each column's value (``bold`` where it is the best) and its interval,
    as a table format writes them."""
    cells = []
    for column in cols:
        value, bounds = _cell(column, system)
        cells.append(f"{bold(value) if system in column.best() else value} {interval(bounds)}")
    return cells


def _note(comparison: Comparison) -> str:
    n = len(comparison.common_items)
    return (
        f"{comparison.confidence * 100:g}% paired-bootstrap intervals over {n} shared items "
        f"({comparison.n_resamples} resamples, seed {comparison.seed}); best of each column in "
        "bold; ↑ higher is better, ↓ lower is better."
    )


def to_markdown(comparison: Comparison, metrics: Sequence[str] | None = None) -> str:
    """A pipe table (one row per system), then a line saying how the intervals were made."""
    cols = columns(comparison, metrics)

    def escape(text: str) -> str:
        return text.replace("|", "\\|")

    lines = [
        "| system | " + " | ".join(escape(f"{c.title} {c.arrow}") for c in cols) + " |",
        "|---|" + "---:|" * len(cols),
    ]
    for system in comparison.systems:
        cells = _cells(cols, system, lambda value: f"**{value}**", lambda interval: interval)
        lines.append(f"| {escape(system)} | " + " | ".join(cells) + " |")
    # a system's name (a file stem, a --name) renders as text, never as HTML
    return inert_markdown("\n".join(lines) + f"\n\n{_note(comparison)}\n")


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped.

    >>> latex_escape("error % (model_a)")
    'error \\\\% (model\\\\_a)'
    """
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def to_latex(comparison: Comparison, metrics: Sequence[str] | None = None) -> str:
    """A ``tabular`` with booktabs rules (``\\usepackage{booktabs}``), one row per system."""
    cols = columns(comparison, metrics)
    arrows = {"↑": r"$\uparrow$", "↓": r"$\downarrow$"}
    lines = [
        f"% parsescore compare: {_note(comparison).replace('↑', 'up').replace('↓', 'down')}",
        r"\begin{tabular}{l" + "r" * len(cols) + "}",
        r"\toprule",
        "system & "
        + " & ".join(f"{latex_escape(c.title)} {arrows[c.arrow]}" for c in cols)
        + r" \\",
        r"\midrule",
    ]
    for system in comparison.systems:
        cells = _cells(
            cols,
            system,
            lambda value: rf"\textbf{{{value}}}",
            lambda interval: f"{{\\footnotesize {interval}}}",
        )
        lines.append(f"{latex_escape(system)} & " + " & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def to_csv(comparison: Comparison, metrics: Sequence[str] | None = None) -> str:
    """One row per system: per column its value and interval bounds, exactly (``repr``)."""
    cols = columns(comparison, metrics)
    header = ["system"]
    for column in cols:
        header += [column.title, f"{column.title} ci_low", f"{column.title} ci_high"]
    rows = [[csv_text(cell) for cell in header]]
    for system in comparison.systems:
        row = [csv_text(system)]
        for column in cols:
            summary = column.entry.systems[system]
            row += [repr(summary.mean), repr(summary.ci_low), repr(summary.ci_high)]
        rows.append(row)
    return csv_rows(rows)
