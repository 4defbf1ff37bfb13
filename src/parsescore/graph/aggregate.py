"""Run-matrix aggregation of eval.json files (docling-graph script 17's records and table).

The tree is ``<root>/<doc>/<contract>/<format>[/rep<N>]/<run_dir>``: doc folders starting with
``_`` are skipped, contracts are ``direct`` and ``dense``, a run dir is a folder holding
``metadata.json``; a ``rep*`` folder with no run dir but a ``cell_status.json`` is a failed or
skipped record.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from statistics import mean
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parsescore.core.errors import InputError
from parsescore.core.files import csv_rows, csv_text, load_json, write_json, write_text
from parsescore.core.markdown import inert_markdown

__all__ = ["AggregateResult", "aggregate_tree"]

CONTRACTS = ("direct", "dense")


def _micro(section: dict[str, Any], rung: str) -> dict[str, Any]:
    tp = sum(v[rung]["tp"] for v in section.values())
    fp = sum(v[rung]["fp"] for v in section.values())
    fn = sum(v[rung]["fn"] for v in section.values())
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"p": round(p, 3), "r": round(r, 3), "f1": round(f1, 3), "tp": tp, "fp": fp, "fn": fn}


def _completeness(section: dict[str, Any]) -> tuple[float | None, int]:
    filled = expected = 0
    for fields in section.values():
        for counts in fields.values():
            filled += counts["filled"]
            expected += counts["expected"]
    return (round(filled / expected, 3) if expected else None), expected


def _json_object(path: Path) -> dict[str, Any]:
    """A JSON file that must hold an object (metadata.json, eval.json, dense_run_stats.json)."""
    data = load_json(path)
    if not isinstance(data, dict):
        raise InputError(f"expected a JSON object, found {type(data).__name__}", path=path)
    return data


#: What a file of the wrong shape raises while its fields are read (a list where an object is
#: expected, a string where a count is): bad input, named with the file.
_SHAPE_ERRORS = (KeyError, TypeError, AttributeError, ValueError)


def run_record(run_dir: Path, doc: str, contract: str, fmt: str, rep: int) -> dict[str, Any]:
    """One run directory's metrics as a flat record (metadata, eval.json, dense stats)."""
    row: dict[str, Any] = {
        "doc": doc,
        "contract": contract,
        "format": fmt,
        "rep": rep,
        "run": run_dir.name,
    }
    meta_path = run_dir / "metadata.json"
    if meta_path.exists():
        meta = _json_object(meta_path)
        try:
            row["time_s"] = meta.get("processing_time_seconds")
            results = meta.get("results") or {}
            row["nodes"] = results.get("nodes")
            row["edges"] = results.get("edges")
        except _SHAPE_ERRORS as exc:
            raise InputError(
                f"not a docling-graph metadata.json ({exc!r})", path=meta_path
            ) from None
    eval_path = run_dir / "eval.json"
    if eval_path.exists():
        ev = _json_object(eval_path)
        try:
            row["node_strict"] = _micro(ev["nodes"], "strict")
            row["node_relaxed"] = _micro(ev["nodes"], "relaxed")
            row["edge_strict"] = _micro(ev["edges"], "strict")
            row["edge_relaxed"] = _micro(ev["edges"], "relaxed")
        except _SHAPE_ERRORS as exc:
            raise InputError(
                f"not an eval.json with per-class strict/relaxed counts ({exc!r})", path=eval_path
            ) from None
        try:
            micro = ev.get("micro", {})
            node_aligned = micro.get("nodes", {}).get("aligned")
            edge_aligned = micro.get("edges", {}).get("aligned")
            if isinstance(node_aligned, dict):
                row["node_aligned"] = node_aligned
            if isinstance(edge_aligned, dict):
                row["edge_aligned"] = edge_aligned
            comp, comp_n = _completeness(ev.get("attribute_completeness", {}))
            row["completeness"] = comp
            row["completeness_n"] = comp_n
            row["verbatim"] = ev.get("verbatim_ratio")
            integrity = ev.get("integrity", {})
            row["empty_identity"] = len(integrity.get("empty_identity_nodes", []))
            row["orphans"] = len(integrity.get("orphan_nodes", []))
        except _SHAPE_ERRORS as exc:
            raise InputError(f"not an eval.json of script 16 ({exc!r})", path=eval_path) from None
    stats_path = run_dir / "debug" / "dense_run_stats.json"
    if stats_path.exists():
        stats = _json_object(stats_path)
        row["retention_pct"] = stats.get("retention_pct")
        row["merge_dropped"] = stats.get("merge_orphans_dropped")
        row["chunk_coverage_pct"] = stats.get("chunk_coverage_pct")
        skeleton = stats.get("skeleton_nodes")
        if skeleton is not None and (
            isinstance(skeleton, bool) or not isinstance(skeleton, int | float)
        ):
            raise InputError(
                f"skeleton_nodes must be a number, found {skeleton!r}", path=stats_path
            )
        row["skeleton_nodes"] = skeleton
        row["truncations"] = stats.get("truncation_count")
        row["parents_from_already_found"] = stats.get("parents_from_already_found")
    return row


def _is_run_dir(path: Path) -> bool:
    return path.is_dir() and (path / "metadata.json").exists()


def _failed_record(
    cell: Path, doc: str, contract: str, fmt: str, rep: int
) -> dict[str, Any] | None:
    marker = cell / "cell_status.json"
    if not marker.exists():
        return None
    try:
        status = load_json(marker)
    except (ValueError, OSError):
        status = {}
    if not isinstance(status, dict):
        status = {}
    return {
        "doc": doc,
        "contract": contract,
        "format": fmt,
        "rep": rep,
        "run": None,
        "status": status.get("status", "failed"),
        "failure_reason": status.get("reason", "unknown"),
    }


def discover_runs(root: Path) -> list[dict[str, Any]]:
    """Every run record under ``root``, in sorted walk order."""
    records: list[dict[str, Any]] = []
    for doc_dir in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("_")):
        for contract in CONTRACTS:
            contract_dir = doc_dir / contract
            if not contract_dir.is_dir():
                continue
            for fmt_dir in sorted(p for p in contract_dir.iterdir() if p.is_dir()):
                for entry in sorted(fmt_dir.iterdir()):
                    if not entry.is_dir():
                        continue
                    if entry.name.startswith("rep"):
                        try:
                            rep = int(entry.name[3:])
                        except ValueError:
                            continue
                        runs = [p for p in sorted(entry.iterdir()) if _is_run_dir(p)]
                        for run in runs:
                            records.append(
                                run_record(run, doc_dir.name, contract, fmt_dir.name, rep)
                            )
                        if not runs:
                            failed = _failed_record(
                                entry, doc_dir.name, contract, fmt_dir.name, rep
                            )
                            if failed is not None:
                                records.append(failed)
                    elif _is_run_dir(entry):
                        records.append(run_record(entry, doc_dir.name, contract, fmt_dir.name, 1))
    return records


def _mean(values: list[Any]) -> float | None:
    numbers = [v for v in values if isinstance(v, int | float)]
    return round(mean(numbers), 3) if numbers else None


def cell_summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One (doc, contract, format) cell over its repeats: means rounded to 3, counts summed."""

    def f1_mean(key: str) -> float | None:
        return _mean([r.get(key, {}).get("f1") for r in runs if isinstance(r.get(key), dict)])

    skeleton = [r.get("skeleton_nodes") for r in runs if r.get("skeleton_nodes") is not None]
    return {
        "runs": len(runs),
        "node_f1_strict": f1_mean("node_strict"),
        "node_f1_relaxed": f1_mean("node_relaxed"),
        "node_f1_aligned": f1_mean("node_aligned"),
        "edge_f1_strict": f1_mean("edge_strict"),
        "edge_f1_relaxed": f1_mean("edge_relaxed"),
        "edge_f1_aligned": f1_mean("edge_aligned"),
        "completeness": _mean([r.get("completeness") for r in runs]),
        "time_s": _mean([r.get("time_s") for r in runs]),
        "retention_pct": _mean([r.get("retention_pct") for r in runs]),
        "chunk_coverage_pct": _mean([r.get("chunk_coverage_pct") for r in runs]),
        "empty_identity": sum(r.get("empty_identity") or 0 for r in runs),
        "orphans": sum(r.get("orphans") or 0 for r in runs),
        "skeleton_nodes": skeleton or None,
    }


def _rung_cell(summary: dict[str, Any], prefix: str) -> str:
    strict = summary[f"{prefix}_f1_strict"]
    if strict is None:
        return "—"
    relaxed = summary[f"{prefix}_f1_relaxed"]
    aligned = summary[f"{prefix}_f1_aligned"]
    relaxed_s = "—" if relaxed is None else f"{relaxed}"
    aligned_s = "—" if aligned is None else f"{aligned}"
    return f"{strict} ({relaxed_s} / {aligned_s})"


TABLE_HEADER = (
    "| Doc | Contract | Format | Runs | Node F1 | Edge F1 | Compl. | Time s | ret% | cov% "
    "| Skel | Empty-id | Orphans |"
)
TABLE_RULE = "| :-- | :-- | :-- | --: | :-- | :-- | --: | --: | --: | --: | :-- | --: | --: |"


def _cells(records: list[dict[str, Any]]) -> dict[tuple[str, str, str], list[dict[str, Any]]]:
    cells: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for record in records:
        cells.setdefault((record["doc"], record["contract"], record["format"]), []).append(record)
    return cells


def table_rows(records: list[dict[str, Any]]) -> list[str]:
    """The synthesis table's data rows, one per cell (sorted by doc, contract, format)."""

    def number(value: Any) -> str:
        return "—" if value is None else f"{value}"

    lines = []
    for (doc, contract, fmt), runs in sorted(_cells(records).items()):
        scored = [r for r in runs if r.get("run")]
        failed = [r for r in runs if not r.get("run")]
        if not scored:
            status = failed[0].get("status", "failed") if failed else "failed"
            reason = failed[0].get("failure_reason", "failed") if failed else "failed"
            label = "SKIPPED" if status == "skipped" else "FAILED"
            lines.append(
                f"| {_md_cell(doc)} | {_md_cell(contract)} | {_md_cell(fmt)} | {len(failed)} "
                f"| {label} ({_md_cell(reason)}) | — "
                "| — | — | — | — | — | — | — |"
            )
            continue
        s = cell_summary(scored)
        skel = "/".join(str(int(v)) for v in s["skeleton_nodes"]) if s["skeleton_nodes"] else "—"
        runs_label = str(s["runs"]) if not failed else f"{s['runs']}+{len(failed)}✗"
        lines.append(
            f"| {_md_cell(doc)} | {_md_cell(contract)} | {_md_cell(fmt)} | {runs_label} "
            f"| {_rung_cell(s, 'node')} | {_rung_cell(s, 'edge')} "
            f"| {number(s['completeness'])} | {number(s['time_s'])} "
            f"| {number(s['retention_pct'])} | {number(s['chunk_coverage_pct'])} "
            f"| {skel} | {s['empty_identity']} | {s['orphans']} |"
        )
    return lines


def render_synthesis(records: list[dict[str, Any]]) -> str:
    """synthesis_report.md: a short legend and the per-cell table (same table as script 17)."""
    lines = [
        "# Benchmark Synthesis Report",
        "",
        "Written by `parsescore graph-aggregate`. Each row is one (document, contract, format)",
        "cell; numbers are means over its repeats. Node and edge micro F1 are shown as",
        "`strict (relaxed / aligned)` and are never mixed; the aligned rung (structural and",
        "singleton-root pairs) is the fair one when identifiers drift, `—` when it was not",
        "active. `ret%` is dense merge retention, `cov%` skeleton chunk coverage and `Skel`",
        "the skeleton size of each repeat: compare quality only between runs of similar",
        "retention.",
        "",
        TABLE_HEADER,
        TABLE_RULE,
        *table_rows(records),
        "",
        "Per-run records: `_aggregate.json` (and `_aggregate.csv`); per-class and per-label",
        "detail: each run directory's `eval.json`.",
        "",
    ]
    return inert_markdown("\n".join(lines))


def _flatten(record: dict[str, Any]) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(value, dict):
            for sub, sub_value in value.items():
                flat[f"{key}_{sub}"] = sub_value
        elif isinstance(value, list):
            flat[key] = "/".join(str(v) for v in value)
        else:
            flat[key] = value
    return flat


def records_csv(records: list[dict[str, Any]]) -> str:
    """Per-run records as CSV: nested scores flattened to ``<rung>_<measure>`` columns."""
    rows = [_flatten(r) for r in records]
    columns: list[str] = []
    for row in rows:
        for key in row:
            if key not in columns:
                columns.append(key)
    return csv_rows(
        [
            [csv_text(c) for c in columns],
            *([_csv_cell(row.get(k)) for k in columns] for row in rows),
        ]
    )


def _csv_cell(value: Any) -> str:
    """One CSV cell: empty for None, a number as Python writes it, text made inert for
    spreadsheets (:func:`~parsescore.core.files.csv_text`)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return csv_text(value)
    return str(value)


def _md_cell(value: Any) -> str:
    """A value in a Markdown table row: on one line, its pipes escaped (the document is then
    made inert: :func:`~parsescore.core.markdown.inert_markdown`)."""
    return " ".join(str(value).splitlines()).replace("|", "\\|")


@dataclass(frozen=True)
class AggregateResult:
    """What ``graph-aggregate`` wrote: the records and the three output paths."""

    records: list[dict[str, Any]]
    json_path: Path
    report_path: Path
    csv_path: Path


def aggregate_tree(root: str | Path, *, csv_path: str | Path | None = None) -> AggregateResult:
    """Walk ``root``, write ``_aggregate.json``, ``synthesis_report.md`` and a CSV there."""
    root = Path(root)
    if not root.is_dir():
        raise InputError("benchmark root not found (expected a folder)", path=root)
    records = discover_runs(root)
    json_path = root / "_aggregate.json"
    report_path = root / "synthesis_report.md"
    csv_out = Path(csv_path) if csv_path is not None else root / "_aggregate.csv"
    write_json(json_path, records)
    write_text(report_path, render_synthesis(records))
    write_text(csv_out, records_csv(records))
    return AggregateResult(records, json_path, report_path, csv_out)


def print_aggregate_summary(result: AggregateResult, console: Console | None = None) -> None:
    """The synthesis table as a rich table."""
    from parsescore.cli.common import console as command_console

    console = console or command_console()
    table = Table(title="Benchmark synthesis (mean over repeats)", title_justify="left")
    headers = [h.strip() for h in TABLE_HEADER.strip("|").split("|")]
    for header in headers:
        table.add_column(header)
    for line in table_rows(result.records):
        table.add_row(*[escape(cell.strip()) for cell in line.strip().strip("|").split("|")])
    console.print(table)
