"""The report's input: every system of every result file, with the raw JSON it came from.

:mod:`parsescore.results` reduces a kind's ``--out`` JSON to per-item numbers; the drill-down
needs more (flowchart node pairs, graph alias pairs, sequence differences), so each
:class:`System` keeps its raw block next to its :class:`~parsescore.results.Result`. For a result
envelope (``--result``) that block is rebuilt in the native shape from the envelope's ``details``
and ``dataset``, so the drill-down shows the same data whichever file it is given. Sequence
results gain three per-item metrics (``node_error_rate``, ``message_error_rate``,
``direction_error_rate``: the paper's Figure 6/7 quantity, (I + D + S) / ground truth × 100) so
that they can be compared and plotted like any other metric.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from parsescore.compare_cli import system_names
from parsescore.errors import InputError
from parsescore.files import load_json, read_text
from parsescore.results import (
    FLOW_METRICS,
    FLOWCHART_COSTS,
    GRAPH_SCORES,
    Result,
    is_envelope,
    results_from_json,
)
from parsescore.scores import safe_ratio

__all__ = [
    "FIGURE_CATEGORIES",
    "System",
    "category_error_rate",
    "load_report_systems",
    "native_view",
]

#: The categories of the sequence paper's Figure 6/7, in its order.
FIGURE_CATEGORIES = ("node", "message", "direction")

_DIFFERENCE_COLUMNS = (
    "model",
    "path",
    "category",
    "change",
    "truth_line",
    "truth_text",
    "pred_line",
    "pred_text",
    "detail",
)


@dataclass(frozen=True)
class System:
    """One system of one result file.

    Attributes:
        result: its per-item numbers (sequence results with the derived category error rates).
        raw: the JSON block the result was read from (one model's block of a multi-model
            sequence JSON).
        path: the result file.
        differences: sequence only: ``{file path: [difference rows]}`` when the counted
            differences are available (in the JSON, or in a ``differences.csv`` next to it),
            else None.
        differences_source: where the differences came from (for the reader), or None.
    """

    result: Result
    raw: Mapping[str, Any]
    path: Path
    differences: dict[str, list[dict[str, Any]]] | None = None
    differences_source: str | None = None

    @property
    def kind(self) -> str:
        return self.result.kind

    @property
    def name(self) -> str:
        return self.result.name


def category_error_rate(counts: Mapping[str, Any]) -> float:
    """(insertions + deletions + substitutions) / ground-truth count × 100 (0 with no truth)."""
    errors = sum(float(counts.get(c, 0) or 0) for c in ("insertion", "deletion", "substitution"))
    return safe_ratio(errors, float(counts.get("gt_count", 0) or 0)) * 100


def _with_category_rates(result: Result, raw: Mapping[str, Any]) -> Result:
    items = {item: dict(values) for item, values in result.items.items()}
    for file in raw.get("files", []):
        if not isinstance(file, dict):
            continue
        values = items.get(file.get("path"))
        if values is None:
            continue
        for category in FIGURE_CATEGORIES:
            if isinstance(file.get(category), dict):
                values[f"{category}_error_rate"] = category_error_rate(file[category])
    totals = dict(result.totals)
    for category in FIGURE_CATEGORIES:
        block = raw.get("totals", {}).get(category)
        if isinstance(block, dict):
            totals[f"{category}_error_rate"] = category_error_rate(block)
    return replace(result, items=items, totals=totals)


_SHORT_SCORES = {long: short for short, long in GRAPH_SCORES.items()}  # back to eval.json's


def native_view(result: Result) -> dict[str, Any]:
    """The block of the kind's native ``--out`` JSON that the drill-down reads, rebuilt from an
    envelope's metrics, ``details`` and ``dataset`` (the inverse of how results.py splits it)."""
    if result.kind == "flowchart":
        diagrams = []
        for item, metrics in result.items.items():
            detail = result.details.get(item, {})
            diagram: dict[str, Any] = {"stem": item}
            diagram |= {m: metrics[m] for m in FLOWCHART_COSTS if m in metrics}
            for key, value in detail.items():
                if key == "flow" and isinstance(value, dict):
                    scores = {f"flow_{m}": m for m in FLOW_METRICS}
                    value = {m: metrics[k] for k, m in scores.items() if k in metrics} | value
                diagram[key] = value
            diagrams.append(diagram)
        return dict(result.dataset) | {"diagrams": diagrams}
    if result.kind == "sequence":
        files, totals = [], {}
        for item in result.items:
            detail = result.details.get(item, {})
            file: dict[str, Any] = {"path": item}
            if "gt_lines" in detail:
                file["gt_lines"] = detail["gt_lines"]
            for category, counts in (detail.get("counts") or {}).items():
                file[category] = dict(counts)
                summed = totals.setdefault(category, {})
                for key, value in counts.items():
                    summed[key] = summed.get(key, 0) + value
            if isinstance(detail.get("differences"), list):
                file["differences"] = detail["differences"]
            files.append(file)
        return {"totals": totals, "files": files}
    if result.kind == "graph":
        sections: dict[str, dict[str, Any]] = {"nodes": {}, "edges": {}}
        for item, metrics in result.items.items():
            prefix, _, name = item.partition(":")
            detail = result.details.get(item, {})
            rungs: dict[str, Any] = {}
            for metric, value in metrics.items():  # node_<rung>_<score>: a rung has scores
                rung, _, score = metric.removeprefix(f"{prefix}_").rpartition("_")
                if rung not in rungs:
                    counts = detail.get(rung)
                    rungs[rung] = dict(counts) if isinstance(counts, dict) else {}
                rungs[rung][_SHORT_SCORES.get(score, score)] = value
            sections["nodes" if prefix == "node" else "edges"][name] = rungs
        dataset = {k: v for k, v in result.dataset.items() if k != "micro"}
        return dict(result.inputs) | sections | dataset
    return dict(result.dataset)  # table: missing / extra


def _read_differences_csv(path: Path) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """``{model: {file path: [rows]}}`` from a sequence ``differences.csv``."""
    rows = list(csv.DictReader(io.StringIO(read_text(path))))
    if rows and not set(_DIFFERENCE_COLUMNS) <= set(rows[0]):
        raise InputError(
            f"not a parsescore sequence differences file; expected columns "
            f"{', '.join(_DIFFERENCE_COLUMNS)}",
            path=str(path),
        )
    out: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for row in rows:
        record = {
            "category": row["category"],
            "change": row["change"],
            "truth_line": int(row["truth_line"]) if row["truth_line"] else None,
            "truth_text": row["truth_text"] or None,
            "pred_line": int(row["pred_line"]) if row["pred_line"] else None,
            "pred_text": row["pred_text"] or None,
            "detail": row["detail"],
        }
        out.setdefault(row["model"], {}).setdefault(row["path"], []).append(record)
    return out


def _sequence_differences(
    raw: Mapping[str, Any], path: Path, model: str | None, n_models: int
) -> tuple[dict[str, list[dict[str, Any]]] | None, str | None]:
    files = [f for f in raw.get("files", []) if isinstance(f, dict)]
    if files and all(isinstance(f.get("differences"), list) for f in files):
        return {
            f["path"]: [d for d in f["differences"] if isinstance(d, dict)] for f in files
        }, "the result JSON"
    sidecar = path.parent / "differences.csv"
    if not sidecar.is_file():
        return None, None
    by_model = _read_differences_csv(sidecar)
    if model is not None:  # a model without rows had no differences
        chosen = by_model.get(model, {})
    elif n_models == 1 and len(by_model) <= 1:
        chosen = next(iter(by_model.values()), {})
    else:
        return None, None
    known = {f.get("path") for f in files}
    return {p: rows for p, rows in chosen.items() if p in known}, str(sidecar)


def _envelope_system(result: Result, path: Path) -> System:
    """A system from a result envelope: its drill-down block rebuilt in the native shape."""
    raw = native_view(result)
    if result.kind != "sequence":
        return System(result, raw, path)
    files = raw["files"]
    differences = None
    if files and all("differences" in f for f in files):
        differences = {f["path"]: f["differences"] for f in files}
    return System(
        _with_category_rates(result, raw),
        raw,
        path,
        differences,
        "the result envelope" if differences is not None else None,
    )


def load_report_systems(paths: Sequence[Path], names: Sequence[str] | None = None) -> list[System]:
    """Every system of the given result files (one per model of a multi-model sequence JSON).

    A system's name is its file's stem (with parent folders where stems clash, as in
    ``parsescore compare``), or the matching ``names`` entry.
    """
    paths = [Path(p) for p in paths]
    if not paths:
        raise InputError("report needs at least one result file")
    if names:
        if len(names) != len(paths):
            raise InputError(
                f"--name given {len(names)} times for {len(paths)} result files; give it once "
                "per file, in the same order"
            )
        labels = list(names)
    else:
        labels = system_names(paths)
    systems: list[System] = []
    for path, label in zip(paths, labels, strict=True):
        doc = load_json(path)
        results = results_from_json(doc, name=label, path=path)
        if is_envelope(doc):
            systems.append(_envelope_system(results[0], path))
            continue
        multi = results[0].kind == "sequence" and "files" not in doc
        blocks: list[tuple[str | None, Mapping[str, Any]]] = (
            [(model, block) for model, block in doc.items()] if multi else [(None, doc)]
        )
        for result, (model, raw) in zip(results, blocks, strict=True):
            if result.kind == "sequence":
                differences, source = _sequence_differences(raw, path, model, len(blocks))
                systems.append(
                    System(_with_category_rates(result, raw), raw, path, differences, source)
                )
            else:
                systems.append(System(result, raw, path))
    seen: set[str] = set()
    for system in systems:
        if system.name in seen:
            raise InputError(
                f"two systems are both named {system.name!r}; give each file its own --name"
            )
        seen.add(system.name)
    return systems
