"""Report files: the paper's Table 2 and Table 1 (Markdown + CSV), the Figure 6/7 plot
(PNG + SVG) and every counted difference with its line numbers and both lines.

Everything is derived from :class:`~parsescore.sequence.metrics.ModelScore` objects; the output
is deterministic (same scores, same bytes; the SVG is written without a date and with a fixed
hash salt). matplotlib is imported lazily (the ``plot`` extra).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from parsescore.core.files import write_bytes, write_text
from parsescore.sequence.metrics import (
    LINE_BINS,
    CategoryCounts,
    ModelScore,
    line_bin,
)
from parsescore.sequence.model import CATEGORIES

__all__ = [
    "DIFFERENCE_COLUMNS",
    "PLOT_CATEGORIES",
    "TABLE1_LINES_NOTE",
    "TABLE2_HEADERS",
    "bin_error_rates",
    "binned_error_rates",
    "differences_csv",
    "differences_markdown",
    "results_json",
    "table1_counts",
    "table1_csv",
    "table1_markdown",
    "table2_csv",
    "table2_markdown",
    "unique_names",
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
#: The categories of the paper's Figure 6/7, in its order.
PLOT_CATEGORIES = ("node", "message", "direction")


def unique_names(models: Sequence[ModelScore]) -> list[str]:
    """Model names made unique (``name``, ``name#2``, ...) for JSON keys and tables."""
    seen: dict[str, int] = {}
    names = []
    for model in models:
        count = seen.get(model.name, 0) + 1
        seen[model.name] = count
        names.append(model.name if count == 1 else f"{model.name}#{count}")
    return names


def results_json(models: Sequence[ModelScore]) -> dict[str, Any]:
    """One model: the spec's ``{"totals", "files"}``; several: one such block per model name."""
    if len(models) == 1:
        return models[0].as_dict()
    return {name: model.as_dict() for name, model in zip(unique_names(models), models, strict=True)}


def _rows(model: ModelScore) -> list[tuple[str, list[float]]]:
    totals = model.totals
    return [
        ("Insertion (%)", [totals[c].insertion_rate for c in CATEGORIES]),
        ("Deletion (%)", [totals[c].deletion_rate for c in CATEGORIES]),
        ("Substitution (%)", [totals[c].substitution_rate for c in CATEGORIES]),
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
    for name, model in zip(unique_names(models), models, strict=True):
        lines.append(f"| **Error analysis for {name} output** |" + " |" * len(CATEGORIES))
        if _gt_row(model) != first_gt:
            lines.append(
                "| Ground truth count | " + " | ".join(str(v) for v in _gt_row(model)) + " |"
            )
        for label, values in _rows(model):
            lines.append(f"| {label} | " + " | ".join(f"{v:.2f}" for v in values) + " |")
    return "\n".join(lines) + "\n"


def _csv(rows: Sequence[Sequence[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows(rows)
    return buffer.getvalue()


def table2_csv(models: Sequence[ModelScore]) -> str:
    """Table 2 in long form: one row per model and measure, one column per category."""
    rows: list[list[Any]] = [["model", "measure", *CATEGORIES]]
    for name, model in zip(unique_names(models), models, strict=True):
        rows.append([name, "gt_count", *_gt_row(model)])
        for label, values in _rows(model):
            measure = label.split(" ")[0].lower() + "_rate"
            rows.append([name, measure, *[repr(v) for v in values]])
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
    return binned_error_rates((file.gt_lines, file.counts) for file in model.files)


def binned_error_rates(
    files: Iterable[tuple[int, Mapping[str, CategoryCounts]]],
) -> dict[str, dict[str, float]]:
    """Figure 6/7 data of ``(ground-truth lines, counts per category)`` pairs: per plotted
    category and line bin, the summed (I + D + S) / ground truth × 100 (NaN: no file there)."""
    files = list(files)
    out: dict[str, dict[str, float]] = {}
    for category in PLOT_CATEGORIES:
        sums = {label: CategoryCounts() for label, _, _ in LINE_BINS}
        present = {label: False for label, _, _ in LINE_BINS}
        for lines, counts in files:
            if category not in counts:
                continue
            label = line_bin(lines)
            sums[label] = sums[label] + counts[category]
            present[label] = True
        out[category] = {
            label: (sums[label].error_rate if present[label] else math.nan) for label in sums
        }
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
            for name, model in zip(unique_names(models), models, strict=True):
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
    if text is None:
        return ""
    return text.replace("|", "\\|").replace("\n", "<br>")


def differences_markdown(models: Sequence[ModelScore]) -> str:
    """Every counted difference per model and file, with line numbers and both lines."""
    out = ["# Sequence-diagram differences\n"]
    for name, model in zip(unique_names(models), models, strict=True):
        out.append(f"## Model {name}\n")
        for skipped in model.skipped:
            out.append(f"- skipped `{skipped.path}`: {skipped.reason}")
        if model.skipped:
            out.append("")
        for file in model.files:
            out.append(
                f"### `{file.path}` — {file.gt_lines} lines, {file.errors} errors "
                f"over {file.elements} ground-truth elements\n"
            )
            for note in file.diagnostics:
                out.append(f"- {note}")
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
                    f"| {d.category} | {d.change} | {d.truth_line or ''} | {_cell(d.truth_text)} "
                    f"| {d.pred_line or ''} | {_cell(d.pred_text)} | {_cell(d.detail)} |"
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
    for name, model in zip(unique_names(models), models, strict=True):
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
