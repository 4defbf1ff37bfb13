"""Report files: the paper's Table 2 and Table 1 (Markdown + CSV), the Figure 6/7 plot
(PNG + SVG) and every counted difference with its line numbers and both lines.

Everything is derived from :class:`~parsescore.sequence.metrics.ModelScore` objects; the output
is deterministic (same scores, same bytes; the SVG is written without a date and with a fixed
hash salt). matplotlib is imported lazily (the ``plot`` extra).
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from parsescore.core.aggregate import total
from parsescore.core.files import csv_rows, csv_text, write_bytes, write_text
from parsescore.core.markdown import markdown_text
from parsescore.sequence.attributes import LINE_BINS, line_bin
from parsescore.sequence.kind import CHANGES, PLOT_CATEGORIES, POOLED_ERRORS
from parsescore.sequence.metrics import ModelScore
from parsescore.sequence.model import CATEGORIES

__all__ = [
    "bin_error_rates",
    "differences_csv",
    "differences_markdown",
    "results_json",
    "table1_csv",
    "table1_markdown",
    "table2_csv",
    "table2_markdown",
    "write_plot",
    "write_report",
]

#: Column titles of the paper's Table 2, in :data:`CATEGORIES` order.
TABLE2_HEADERS: dict[str, str] = {
    "node": "Node",
    "direction": "Direction change",
    "direction_type": "Direction type",
    "message": "Message",
    "box": "Box",
    "group": "Group",
    "note": "Note",
    "participant": "Participants",
}


def unique_names(names: Iterable[str]) -> list[str]:
    """Names made unique (``name``, ``name#2``, ...) for JSON keys and tables."""
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        count = seen.get(name, 0) + 1
        seen[name] = count
        unique.append(name if count == 1 else f"{name}#{count}")
    return unique


def _names(models: Sequence[ModelScore]) -> list[str]:
    return unique_names(model.name for model in models)


def results_json(models: Sequence[ModelScore]) -> dict[str, Any]:
    """One model: the spec's ``{"totals", "files"}``; several: one such block per model name."""
    if len(models) == 1:
        return models[0].as_dict()
    return {name: model.as_dict() for name, model in zip(_names(models), models, strict=True)}


def _rows(model: ModelScore) -> list[tuple[str, list[float]]]:
    pooled = model.pooled
    return [
        (f"{change.capitalize()} (%)", [pooled[f"{c}_{change}_rate"] for c in CATEGORIES])
        for change in CHANGES
    ]


def _gt_row(model: ModelScore) -> list[int]:
    totals = model.totals
    return [totals[c].gt_count for c in CATEGORIES]


def table2_markdown(models: Sequence[ModelScore]) -> str:
    """Table 2: ground-truth counts, then insertion/deletion/substitution % per model."""
    header = "| | " + " | ".join(TABLE2_HEADERS[c] for c in CATEGORIES) + " |"
    lines = [header, "|---" * (len(CATEGORIES) + 1) + "|"]
    first_gt = _gt_row(models[0]) if models else [0] * len(CATEGORIES)
    lines.append("| Ground truth count | " + " | ".join(str(v) for v in first_gt) + " |")
    for name, model in zip(_names(models), models, strict=True):
        lines.append(
            f"| **Error analysis for {markdown_text(name)} output** |" + " |" * len(CATEGORIES)
        )
        if _gt_row(model) != first_gt:
            lines.append(
                "| Ground truth count | " + " | ".join(str(v) for v in _gt_row(model)) + " |"
            )
        for label, values in _rows(model):
            lines.append(f"| {label} | " + " | ".join(f"{v:.2f}" for v in values) + " |")
    return "\n".join(lines) + "\n"


def _csv(rows: Sequence[Sequence[Any]]) -> str:
    """CSV text of rows of text and numbers: text through :func:`~parsescore.core.files.csv_text`
    (a cell a spreadsheet would run as a formula stays text), numbers as numbers."""
    return csv_rows(
        [csv_text(cell) if isinstance(cell, str) else repr(cell) for cell in row] for row in rows
    )


def table2_csv(models: Sequence[ModelScore]) -> str:
    """Table 2 in long form: one row per model and measure, one column per category."""
    rows: list[list[Any]] = [["model", "measure", *CATEGORIES]]
    for name, model in zip(_names(models), models, strict=True):
        rows.append([name, "gt_count", *_gt_row(model)])
        for label, values in _rows(model):
            measure = label.split(" ")[0].lower() + "_rate"
            rows.append([name, measure, *values])
    return _csv(rows)


def table1_counts(model: ModelScore) -> list[tuple[str, int]]:
    """Table 1: number of ground-truth files per line-count bin."""
    counts = {label: 0 for label, _, _ in LINE_BINS}
    for file in model.files:
        counts[line_bin(file.gt_lines)] += 1
    return list(counts.items())


#: What a "line" of Table 1 is, stated under the table (the paper does not say).
TABLE1_LINES_NOTE = (
    "Lines: every line of the ground-truth file, as an editor numbers them (blank lines, "
    "comments, `@startuml`/`@enduml` included; a final line break ends the last line)."
)


def table1_markdown(model: ModelScore) -> str:
    lines = ["| Range of puml script lines | Count of puml files |", "|---|---|"]
    lines += [f"| {label} | {count} |" for label, count in table1_counts(model)]
    return "\n".join(lines) + "\n\n" + TABLE1_LINES_NOTE + "\n"


def table1_csv(model: ModelScore) -> str:
    return _csv([["range", "files"], *table1_counts(model)])


def bin_error_rates(model: ModelScore) -> dict[str, dict[str, float]]:
    """Figure 6/7 data: per category and bin, (I + D + S) / ground truth × 100 (NaN: no files)."""
    return binned_error_rates({file.path: file.gt_lines for file in model.files}, model.counts)


def binned_error_rates(
    lines: Mapping[str, int], counts: Mapping[str, Mapping[str, float]]
) -> dict[str, dict[str, float]]:
    """Figure 6/7 data of files' ground-truth line counts and counts (``Result.counts``): per
    plotted category and line bin, the category's error % pooled over the files of the bin
    (the kind's declared total, :func:`parsescore.core.aggregate.total`, over those files; NaN:
    no file there)."""
    out: dict[str, dict[str, float]] = {}
    for category, metric in zip(PLOT_CATEGORIES, POOLED_ERRORS[1:], strict=True):
        members: dict[str, list[str]] = {label: [] for label, _, _ in LINE_BINS}
        for item, count in lines.items():
            if f"{category}_gt_count" in counts.get(item, {}):
                members[line_bin(count)].append(item)
        out[category] = {}
        for label, ids in members.items():
            value = total(metric, counts, counts, only=ids) if ids else None
            out[category][label] = math.nan if value is None else value
    return out


def write_plot(models: Sequence[ModelScore], stem: Path) -> list[Path]:
    """Write ``stem.png`` and ``stem.svg``: error % of node, message, direction by line bin."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [label for label, _, _ in LINE_BINS]
    with matplotlib.rc_context({"svg.hashsalt": "parsescore", "svg.fonttype": "none"}):
        figure, axes = plt.subplots(1, len(PLOT_CATEGORIES), figsize=(12, 3.8), sharey=False)
        for axis, category in zip(axes, PLOT_CATEGORIES, strict=True):
            for name, model in zip(_names(models), models, strict=True):
                rates = bin_error_rates(model)[category]
                axis.plot(labels, [rates[label] for label in labels], marker="o", label=name)
            axis.set_title(f"{TABLE2_HEADERS[category]} error (%)")
            axis.set_xlabel("ground-truth lines")
            axis.grid(alpha=0.3)
        axes[0].set_ylabel("insertions + deletions + substitutions (%)")
        axes[-1].legend()
        figure.tight_layout()
        paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
        for path in paths:
            image = io.BytesIO()
            metadata = {"Date": None} if path.suffix == ".svg" else {"Software": None}
            figure.savefig(image, format=path.suffix[1:], metadata=metadata, dpi=110)
            write_bytes(path, image.getvalue())
        plt.close(figure)
    return paths


def _cell(text: str | None) -> str:
    """Text in a Markdown table cell, shown as written (never as markup or HTML): each line
    through :func:`~parsescore.core.markdown.markdown_text`, lines joined by ``<br>``."""
    if text is None:
        return ""
    return "<br>".join(markdown_text(line) for line in text.split("\n"))


def differences_markdown(models: Sequence[ModelScore]) -> str:
    """Every counted difference per model and file, with line numbers and both lines."""
    out = ["# Sequence-diagram differences\n"]
    for name, model in zip(_names(models), models, strict=True):
        out.append(f"## Model {markdown_text(name)}\n")
        for skipped in model.skipped:
            out.append(f"- skipped {markdown_text(skipped.path)}: {markdown_text(skipped.reason)}")
        if model.skipped:
            out.append("")
        for file in model.files:
            out.append(
                f"### {markdown_text(file.path)} — {file.gt_lines} lines, {file.errors} errors "
                f"over {file.elements} ground-truth elements\n"
            )
            for note in file.diagnostics:
                out.append(f"- {markdown_text(note)}")
            if file.diagnostics:
                out.append("")
            if not file.differences:
                out.append("No differences.\n")
                continue
            out.append(
                "| category | change | truth line | truth | prediction line | prediction | detail |"
            )
            out.append("|---|---|---|---|---|---|---|")
            for d in file.differences:
                out.append(
                    f"| {_cell(d.category)} | {_cell(d.change)} | {d.truth_line or ''} "
                    f"| {_cell(d.truth_text)} | {d.pred_line or ''} | {_cell(d.pred_text)} "
                    f"| {_cell(d.detail)} |"
                )
            out.append("")
    return "\n".join(out) + "\n"


#: The columns of ``differences.csv`` (the report reads the file back by these names).
DIFFERENCE_COLUMNS = (
    "model",
    "path",
    "category",
    "change",
    "truth_line",
    "truth_text",
    "pred_line",
    "pred_text",
    "detail",
    "edit_distance",
)


def differences_csv(models: Sequence[ModelScore]) -> str:
    rows: list[list[Any]] = [list(DIFFERENCE_COLUMNS)]
    for name, model in zip(_names(models), models, strict=True):
        for file in model.files:
            for d in file.differences:
                rows.append(
                    [
                        name,
                        file.path,
                        d.category,
                        d.change,
                        d.truth_line if d.truth_line is not None else "",
                        d.truth_text or "",
                        d.pred_line if d.pred_line is not None else "",
                        d.pred_text or "",
                        d.detail,
                        d.edit_distance if d.edit_distance is not None else "",
                    ]
                )
    return _csv(rows)


def write_report(models: Sequence[ModelScore], directory: Path) -> tuple[list[Path], list[str]]:
    """Write every report file into ``directory``; returns (paths written, warnings)."""
    written: list[Path] = []
    warnings: list[str] = []
    files = {
        "table2.md": table2_markdown(models),
        "table2.csv": table2_csv(models),
        "table1.md": table1_markdown(models[0]),
        "table1.csv": table1_csv(models[0]),
        "differences.md": differences_markdown(models),
        "differences.csv": differences_csv(models),
    }
    for name, text in files.items():
        write_text(directory / name, text)
        written.append(directory / name)
    try:
        written.extend(write_plot(models, directory / "errors_by_lines"))
    except ImportError:
        warnings.append(
            "matplotlib is not installed (the 'plot' extra): Figure 6/7 plot not written"
        )
    return written, warnings
