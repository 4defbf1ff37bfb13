"""Table results: scoring a collection (:func:`evaluate`: TEDS, TEDS-S and GriTS of HTML tables,
or GriTS of table-transformer cell lists), its ``--out`` document and its
:class:`~parsescore.results.Result`, and reading that document back (:func:`read`).

Per table, every metric of the run is a metric of its item (``TEDS``, ``TEDS-S``,
``GriTS-Top``, ...); the dataset's totals are the metrics' means and ``n_tables``; missing and
extra predictions are dataset facts; the cells that differ are each table's detail.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, TypeGuard

from parsescore import __version__
from parsescore.errors import InputError
from parsescore.results import Reader, Result

__all__ = ["evaluate", "read"]

Denominator = Literal["tree_nodes", "all_descendants"]
IouMode = Literal["enclosing", "union"]
LcsMode = Literal["difflib", "exact"]


def evaluate(
    truth: str | Path | Mapping[str, str],
    pred: str | Path | Mapping[str, str],
    *,
    structure_only: bool = False,
    denominator: Denominator = "tree_nodes",
    normalise: bool = False,
    ignore_nodes: Sequence[str] | None = None,
    grits: bool = True,
    grits_iou: IouMode = "enclosing",
    grits_lcs: LcsMode = "difflib",
    truth_format: str = "html",
    pred_format: str = "html",
    header: bool = True,
    cells: bool = False,
    teds: bool = True,
    cell_details: bool = True,
    jobs: int = 1,
    dask_scheduler: str | None = None,
    cache: str | Path | None = None,
    quiet: bool = False,
    name: str | None = None,
) -> Result:
    """Score predicted tables against truth tables, matched by name.

    ``truth`` and ``pred`` are collections (a JSON or JSONL file, or a folder of table files;
    see :func:`parsescore.table.load_tables`) or ``{name: text}`` mappings. TEDS and TEDS-S are
    ``table_recognition_metric`` 0.0.6's (``structure_only`` makes TEDS-S the headline;
    ``denominator="all_descendants"`` is PubTabNet's); GriTS is table-transformer's
    (``grits=False`` skips it). A missing prediction scores 0. ``cell_details`` adds each
    table's differing cells to its detail.

    ``truth_format`` / ``pred_format`` say how tables are written (:mod:`parsescore.table.formats`:
    ``html`` — the reference's input, the default —, ``html-fragment``, ``markdown``, ``latex``,
    ``csv``, ``tsv``, ``otsl``, ``doctags``, or ``auto``: a folder's files by extension, other
    tables by their content); ``header=False`` reads no CSV/TSV header row. A prediction that
    cannot be read scores as missing and is listed (``dataset["unreadable"]``, a warning); with
    the default ``html``, predictions the reference's rule scores 0 because they are in another
    format are counted in a warning.

    With ``cells=True`` both sides are table-transformer cell lists (``{name: [cell]}`` JSON)
    and only GriTS-Top, -Con and -Loc are computed (``grits_iou`` / ``grits_lcs`` apply).
    ``teds=False`` scores tables in any format with GriTS only: the result is shaped as that of
    cell lists (``parsescore grits``), GriTS-Loc not measured (tables have no boxes).
    """
    if denominator not in ("tree_nodes", "all_descendants"):
        raise InputError(
            f"--denominator must be tree_nodes or all_descendants, got {denominator!r}"
        )
    if grits_iou not in ("enclosing", "union"):
        raise InputError(f"--grits-iou must be enclosing or union, got {grits_iou!r}")
    if grits_lcs not in ("difflib", "exact"):
        raise InputError(f"--grits-lcs must be difflib or exact, got {grits_lcs!r}")
    inputs = {
        side: str(value) for side, value in (("truth", truth), ("pred", pred)) if _is_path(value)
    }
    label = name or (Path(pred).stem if _is_path(pred) else "pred")
    if cells:
        if structure_only or denominator != "tree_nodes" or normalise or ignore_nodes:
            raise InputError("cells=True scores GriTS only; TEDS options do not apply")
        return _cells(
            truth,
            pred,
            iou=grits_iou,
            lcs=grits_lcs,
            run={"jobs": jobs, "dask_scheduler": dask_scheduler, "cache_dir": cache},
            quiet=quiet,
            inputs=inputs,
            name=label,
        )
    from parsescore.table.batch import evaluate_tables
    from parsescore.table.celldiff import table_details
    from parsescore.table.inputs import read_collection

    truth_read = read_collection(truth, truth_format, header=header)
    pred_read = read_collection(pred, pred_format, header=header, strict=False)
    truth_tables = {name: table.html for name, table in truth_read.tables.items()}
    pred_tables = {name: table.html for name, table in pred_read.tables.items()}
    if not truth_tables:
        raise InputError("no truth tables", path=str(truth) if _is_path(truth) else None)
    warnings = _format_warnings(truth_tables, truth_format, "truth tables")
    warnings += _format_warnings(pred_tables, pred_format, "predictions")
    warnings += list(truth_read.warnings) + list(pred_read.warnings)
    if pred_read.failed:
        shown = "; ".join(f"{n}: {why}" for n, why in list(pred_read.failed.items())[:5])
        warnings.append(
            f"{len(pred_read.failed)} predictions could not be read and score as missing: {shown}"
        )
    if not teds and not grits:
        raise InputError("teds=False scores GriTS only; grits=False leaves nothing to score")
    batch = evaluate_tables(
        truth_tables,
        pred_tables,
        with_teds=teds,
        structure_only=structure_only,
        jobs=jobs,
        with_grits=grits,
        ignore_nodes=list(ignore_nodes) if ignore_nodes else None,
        denominator=denominator,
        normalise=normalise,
        grits_iou=grits_iou,
        grits_lcs=grits_lcs,
        progress=not quiet,
        dask_scheduler=dask_scheduler,
        cache_dir=cache,
        truth_path=truth if _is_path(truth) else None,
        pred_path=pred if _is_path(pred) else None,
    )
    if batch.failed:
        shown = "; ".join(f"{n}: {why}" for n, why in list(batch.failed.items())[:5])
        warnings.append(f"{len(batch.failed)} predictions could not be scored and score 0: {shown}")
    if not teds:
        doc = _grits_document(batch, grits_iou, grits_lcs)
        if (truth_format, pred_format) != ("html", "html"):
            doc["options"] |= {"truth_format": truth_format, "pred_format": pred_format}
        return _grits_result(doc, label, inputs, computed=batch, warnings=warnings)
    details = table_details(truth_tables, pred_tables, normalise=normalise) if cell_details else {}
    native = batch.to_json()
    options = {"metric": batch.metric} | batch.options
    dataset: dict[str, Any] = {"missing": list(batch.missing), "extra": list(batch.extra)}
    if batch.failed:
        dataset["failed"] = batch.failed
    if (truth_format, pred_format) != ("html", "html"):  # the default output stays the reference's
        formats = {
            name: {
                "truth": truth_read.tables[name].format,
                "pred": pred_read.tables[name].format if name in pred_read.tables else None,
            }
            for name in truth_tables
        }
        chosen = {"truth_format": truth_format, "pred_format": pred_format}
        native["options"] |= chosen
        native["formats"] = formats
        native["unreadable"] = dict(pred_read.failed)
        options |= chosen
        dataset["unreadable"] = dict(pred_read.failed)
        details = {
            name: dict(details.get(name, {})) | {"formats": formats[name]} for name in truth_tables
        }
    names = batch.metric_names()
    scores = {metric: batch.scores(metric) for metric in names}
    items = {t.name: {m: float(scores[m][t.name]) for m in names} for t in batch.tables}
    totals = {m: float(batch.mean(m)) for m in names} | {"n_tables": float(len(batch.tables))}
    return Result(
        "table",
        label,
        items,
        totals,
        inputs=inputs,
        options=options,
        version=__version__,
        details={item: dict(details[item]) for item in items if details.get(item)},
        dataset=dataset,
        native=native,
        computed=batch,
        warnings=tuple(warnings),
    )


def _grits_document(batch: Any, iou: str, lcs: str) -> dict[str, Any]:
    """The ``parsescore grits`` document of a GriTS-only table run (GriTS-Loc not measured)."""
    metrics: dict[str, Any] = {}
    for variant in ("top", "con", "loc"):
        for label, key in (
            (f"GriTS-{variant.capitalize()}", variant),
            (f"GriTS-{variant.capitalize()} precision", f"{variant}_precision"),
            (f"GriTS-{variant.capitalize()} recall", f"{variant}_recall"),
        ):
            if variant == "loc":
                metrics[label] = {"mean": None, "scores": {t.name: None for t in batch.tables}}
                continue
            scores = {t.name: t.grits[key] for t in batch.tables}
            mean = sum(scores.values()) / len(scores) if scores else None
            metrics[label] = {"mean": mean, "scores": scores}
    headline = metrics["GriTS-Con"]
    return {
        "metric": "GriTS-Con",
        "scores": headline["scores"],
        "mean": headline["mean"],
        "missing": list(batch.missing),
        "extra": list(batch.extra),
        "n_tables": len(batch.tables),
        "metrics": metrics,
        "options": {"iou": iou, "lcs": lcs},
    } | ({"failed": batch.failed} if batch.failed else {})


def _format_warnings(tables: dict[str, str], format: str, what: str) -> list[str]:
    """With the reference's ``html``: how many tables it scores 0 for being in another format."""
    if format != "html":
        return []
    from parsescore.table.formats import unread_formats

    found = unread_formats(tables)
    if not found:
        return []
    counts = ", ".join(f"{len(names)} {kind}" for kind, names in found.items())
    examples = ", ".join(name for names in found.values() for name in names[:3])
    flag = "--pred-format" if what == "predictions" else "--truth-format"
    return [
        f"{sum(map(len, found.values()))} of {len(tables)} {what} are not full HTML documents "
        f"({counts}: {examples}); the reference's rule scores them 0; {flag} auto reads them"
    ]


def _is_path(value: object) -> TypeGuard[str | Path]:
    """A collection given as a file or folder (not an in-memory mapping)."""
    return isinstance(value, str | Path)


def _cells(
    truth: Any,
    pred: Any,
    *,
    iou: IouMode,
    lcs: LcsMode,
    run: dict[str, Any],
    quiet: bool,
    inputs: dict[str, str],
    name: str,
) -> Result:
    from parsescore.table.grits_metric import evaluate_cell_tables, load_cell_tables

    def cells_of(value: Any) -> Any:
        return load_cell_tables(value) if _is_path(value) else value

    # the document is GriTS's own output: per metric its mean and {table: score or None}
    doc = evaluate_cell_tables(
        cells_of(truth), cells_of(pred), iou=iou, lcs=lcs, quiet=quiet, **run
    )
    return _grits_result(doc, name, inputs)


def _grits_result(
    doc: dict[str, Any],
    name: str,
    inputs: dict[str, str],
    *,
    computed: Any = None,
    warnings: Sequence[str] = (),
) -> Result:
    """The result of a GriTS document (``parsescore grits``'s shape; the numbers are its own)."""
    items, totals = _numbers(doc, Reader(None))
    return Result(
        "table",
        name,
        items,
        totals,
        inputs=inputs,
        options={"metric": doc["metric"]} | doc["options"],
        version=__version__,
        dataset={"missing": doc["missing"], "extra": doc["extra"]},
        native=doc,
        computed=computed,
        warnings=tuple(warnings),
    )


def _numbers(
    doc: Mapping[str, Any], r: Reader
) -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    """Per table its metrics (a ``null`` score is not measured: left out), and the totals."""
    metrics = r.mapping(r.key(doc, "metrics", "top level"), "key 'metrics'")
    items: dict[str, dict[str, float]] = {}
    totals: dict[str, float] = {}
    for metric, entry in metrics.items():
        where = f"metrics.{metric}"
        entry = r.mapping(entry, where)
        scores = r.mapping(r.key(entry, "scores", where), f"{where}.scores")
        for table, value in scores.items():
            number = r.optional_number(value, f"{where}.scores.{table}")
            slot = items.setdefault(table, {})
            if number is not None:
                slot[metric] = number
        mean = r.optional_number(entry.get("mean"), f"{where}.mean")
        if mean is not None:
            totals[metric] = mean
    if "n_tables" in doc:
        totals["n_tables"] = r.number(doc["n_tables"], "n_tables")
    return items, totals


def read(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The :class:`Result` of a ``parsescore table`` or ``grits`` ``--out`` document."""
    items, totals = _numbers(doc, r)
    # the headline metric is an option (``--structure-only`` makes it TEDS-S)
    headline = doc.get("metric")
    options: dict[str, Any] = {"metric": headline} if isinstance(headline, str) else {}
    options |= r.mapping(doc.get("options", {}), "key 'options'")
    formats = r.mapping(doc.get("formats", {}), "key 'formats'")
    return [
        Result(
            "table",
            name,
            items,
            totals,
            r.path,
            options=options,
            details={item: {"formats": formats[item]} for item in items if item in formats},
            dataset={k: doc[k] for k in ("missing", "extra", "unreadable") if k in doc},
        )
    ]
