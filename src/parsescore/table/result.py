"""Table results: scoring a collection (:func:`evaluate`: TEDS, TEDS-S and GriTS of HTML tables,
or GriTS of table-transformer cell lists), its ``--out`` document and its
:class:`~parsescore.core.results.Result`, and reading that document back (:func:`read`).

Per table, every metric of the run is a metric of its item (``TEDS``, ``TEDS-S``,
``GriTS-Top``, ...); the dataset's totals are the metrics' means and ``n_tables``; missing and
extra predictions are dataset facts; the cells that differ are each table's detail.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, TypeGuard

from parsescore import __version__
from parsescore.core.errors import InputError
from parsescore.core.results import Reader, Result
from parsescore.shared.coverage import READABLE, Coverage

__all__ = ["evaluate", "read"]

Denominator = Literal["tree_nodes", "all_descendants"]
LatexMath = Literal["source", "text"]
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
    latex_math: LatexMath = "source",
    cells: bool = False,
    teds: bool = True,
    cell_details: bool = True,
    strict: bool = False,
    allow_missing: bool = False,
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
    (``grits=False`` skips it). ``cell_details`` adds each table's differing cells to its
    detail.

    ``truth_format`` / ``pred_format`` say how tables are written (:mod:`parsescore.table.formats`:
    ``html`` — the reference's input, the default —, ``html-fragment``, ``markdown``, ``latex``,
    ``csv``, ``tsv``, ``otsl``, ``doctags``, or ``auto``: a folder's files by extension, other
    tables by their content); ``header=False`` reads no CSV/TSV header row; ``latex_math="text"``
    reads LaTeX math as the text it shows (default: its source, the spec's rule). With the
    default ``html``, predictions the reference's rule scores 0 because they are in another
    format are counted in a warning.

    Predictions are a model's answers (:mod:`parsescore.shared.coverage` has the rules): each is
    read by the chat-answer rule (prose, ``<think>`` and fences around the table dropped; fenced
    ones listed in ``dataset["fenced"]``). An answer that cannot be read (or holds no table) scores
    0, as a missing one does, and is listed in ``dataset["unreadable"]`` (``strict=True``: an error
    instead). A truth table without an answer scores 0 and is listed in ``dataset["missing"]``
    (``allow_missing=True``: left out); no answer matching any truth table is an error. ``readable``
    (per table and in the totals) is the share of truth tables whose answer was present and
    readable.

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
    if latex_math not in ("source", "text"):
        raise InputError(f"--latex-math must be source or text, got {latex_math!r}")
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
            allow_missing=allow_missing,
        )
    if not teds and not grits:
        raise InputError("teds=False scores GriTS only; grits=False leaves nothing to score")
    from parsescore.shared.coverage import check_names
    from parsescore.table.batch import evaluate_tables
    from parsescore.table.celldiff import table_details
    from parsescore.table.inputs import read_collection

    reading: dict[str, Any] = {"header": header, "latex_math": latex_math}
    formats = (truth_format, pred_format)
    try:
        truth_read = read_collection(truth, truth_format, **reading)
    except InputError as exc:
        if not _swapped(truth, pred, formats, reading):
            raise
        swap = f"{exc.reason}; did you swap --truth and --pred?"
        raise InputError(swap, path=exc.path, where=exc.where) from None
    pred_read = read_collection(pred, pred_format, strict=strict, answers=True, **reading)
    truth_tables = {name: table.html for name, table in truth_read.tables.items()}
    pred_tables = {name: table.html for name, table in pred_read.tables.items()}
    if not truth_tables:
        raise InputError("no truth tables", path=str(truth) if _is_path(truth) else None)
    answered = [*pred_read.tables, *pred_read.failed]
    missing = check_names(
        list(truth_tables),
        answered,
        truth=str(truth) if _is_path(truth) else "the truth tables",
        pred=str(pred) if _is_path(pred) else "the answers",
        swapped=lambda: _swapped(truth, pred, formats, reading),
    )
    coverage = Coverage(len(truth_tables), missing)
    if allow_missing:
        left_out = set(missing)
        truth_tables = {n: html for n, html in truth_tables.items() if n not in left_out}
    warnings = list(truth_read.warnings) + list(pred_read.warnings)
    warnings += _wrapped_truth_warning(truth_read.wrapped, coverage.truth, pred_read.fenced)
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
    for table in batch.tables:  # read, or failed when scored (bad HTML, beyond the limits)
        reason = pred_read.failed.get(table.name, table.failed)
        if reason is not None:
            if strict:
                raise InputError(reason, path=inputs.get("pred"), where=f"key {table.name!r}")
            coverage.unreadable[table.name] = reason
    coverage.fenced = {n: f for n, f in pred_read.fenced.items() if n in truth_tables}
    extra = [n for n in answered if n not in truth_read.tables]  # readable ones first
    warnings += coverage.warnings("tables", allow_missing=allow_missing)
    chosen: dict[str, Any] = {}
    if formats != ("html", "html"):  # the default output stays the reference's
        chosen = {"truth_format": truth_format, "pred_format": pred_format}
        if latex_math != "source":
            chosen["latex_math"] = latex_math
    if allow_missing:
        chosen["allow_missing"] = True
    if not teds:
        doc = _grits_document(batch, grits_iou, grits_lcs)
        doc["options"] |= chosen
        _answers_into(doc, coverage, extra)
        return _grits_result(doc, label, inputs, computed=batch, warnings=warnings)
    details = table_details(truth_tables, pred_tables, normalise=normalise) if cell_details else {}
    native = batch.to_json()
    native["options"] |= chosen
    options = {"metric": batch.metric} | batch.options | chosen
    if formats != ("html", "html"):
        formats_read = {
            name: {
                "truth": truth_read.tables[name].format,
                "pred": pred_read.tables[name].format if name in pred_read.tables else None,
            }
            for name in truth_tables
        }
        native["formats"] = formats_read
        details = {
            name: dict(details.get(name, {})) | {"formats": formats_read[name]}
            for name in truth_tables
        }
    _answers_into(native, coverage, extra)
    items, totals = _numbers(native, Reader(None))
    return Result(
        "table",
        label,
        items,
        totals,
        inputs=inputs,
        options=options,
        version=__version__,
        details={item: dict(details[item]) for item in items if details.get(item)},
        dataset=coverage.facts() | {"extra": extra},
        native=native,
        computed=batch,
        warnings=tuple(warnings),
    )


def _answers_into(doc: dict[str, Any], coverage: Coverage, extra: list[str]) -> None:
    """The ``--out`` document's account of the answers: the ``readable`` metric (its mean is
    :attr:`Coverage.readable`, over every truth table), ``missing`` (no answer), ``extra``,
    and, when there are any, ``unreadable`` and ``fenced`` (it once had ``failed``)."""
    absent = set(coverage.missing) | set(coverage.unreadable)
    doc["metrics"][READABLE.name] = {
        "mean": coverage.readable,
        "scores": {name: 0.0 if name in absent else 1.0 for name in doc["scores"]},
    }
    doc["missing"] = list(coverage.missing)
    doc["extra"] = list(extra)
    doc.pop("failed", None)
    doc.pop("unreadable", None)
    if coverage.unreadable:
        doc["unreadable"] = dict(coverage.unreadable)
    if coverage.fenced:
        doc["fenced"] = dict(coverage.fenced)


def _swapped(truth: Any, pred: Any, formats: tuple[str, str], reading: dict[str, Any]) -> bool:
    """Whether the inputs match the other way round: the ``--pred`` collection read as truth
    and the ``--truth`` one read as answers share a table name. Truth and answers are both
    tables, so the names alone cannot tell; how each side is read can (e.g. a folder of
    Markdown answers given as ``--truth``, which the reference's ``html`` does not read)."""
    if not (_is_path(truth) and _is_path(pred)):
        return False
    from parsescore.table.inputs import read_collection

    try:
        as_truth = read_collection(pred, formats[0], **reading).tables
        as_answers = read_collection(truth, formats[1], strict=False, answers=True, **reading)
    except InputError:
        return False
    return not as_truth.keys().isdisjoint([*as_answers.tables, *as_answers.failed])


def _wrapped_truth_warning(
    wrapped: Sequence[str], count: int, fenced: Mapping[str, str]
) -> list[str]:
    """A warning when truth tables are written as chat answers (truth is read as written)."""
    if not wrapped:
        return []
    shown = ", ".join(wrapped[:5]) + (" ..." if len(wrapped) > 5 else "")
    swap = "; did you swap --truth and --pred?" if not fenced else ""
    return [
        f"{len(wrapped)} of {count} truth tables are written as chat answers (a fenced block or "
        f"<think>), which truth is not unwrapped from ({shown}){swap}"
    ]


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
    }


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
    allow_missing: bool,
) -> Result:
    from parsescore.shared.coverage import check_names
    from parsescore.table.grits_metric import evaluate_cell_tables, load_cell_tables

    def cells_of(value: Any) -> Any:
        return load_cell_tables(value) if _is_path(value) else value

    truth_cells, pred_cells = cells_of(truth), cells_of(pred)
    missing = check_names(
        list(truth_cells),
        list(pred_cells),
        truth=inputs.get("truth", "the truth cells"),
        pred=inputs.get("pred", "the predicted cells"),
    )
    if allow_missing:
        truth_cells = {n: cells for n, cells in truth_cells.items() if n not in set(missing)}
    # the document is GriTS's own output: per metric its mean and {table: score or None}
    doc = evaluate_cell_tables(truth_cells, pred_cells, iou=iou, lcs=lcs, quiet=quiet, **run)
    if allow_missing:
        doc["options"]["allow_missing"] = True
    coverage = Coverage(len(truth_cells) + (len(missing) if allow_missing else 0), missing)
    _answers_into(doc, coverage, list(doc["extra"]))
    warnings = coverage.warnings("tables", allow_missing=allow_missing)
    return _grits_result(doc, name, inputs, warnings=warnings)


def _grits_result(
    doc: dict[str, Any],
    name: str,
    inputs: dict[str, str],
    *,
    computed: Any = None,
    warnings: Sequence[str] = (),
) -> Result:
    """The result of a GriTS document (``parsescore grits``'s shape; the numbers are its own)."""
    reader = Reader(None)
    items, totals = _numbers(doc, reader)
    return Result(
        "table",
        name,
        items,
        totals,
        inputs=inputs,
        options={"metric": doc["metric"]} | doc["options"],
        version=__version__,
        dataset=_coverage(doc, reader).facts() | {"extra": doc["extra"]},
        native=doc,
        computed=computed,
        warnings=tuple(warnings),
    )


def _coverage(doc: Mapping[str, Any], r: Reader) -> Coverage:
    """What a ``--out`` document records of the answers (older ones: unreadable answers under
    ``failed``, or also among ``missing``)."""
    unreadable = r.mapping(doc.get("unreadable", doc.get("failed", {})), "key 'unreadable'")
    missing = [
        r.string(item, "key 'missing'")
        for item in r.array(doc.get("missing", []), "key 'missing'")
        if item not in unreadable
    ]
    fenced = r.mapping(doc.get("fenced", {}), "key 'fenced'")
    scored = int(r.number(doc.get("n_tables", 0), "n_tables"))
    options = doc.get("options")
    left_out = isinstance(options, Mapping) and options.get("allow_missing") is True
    return Coverage(
        scored + (len(missing) if left_out else 0),
        missing,
        {str(k): str(v) for k, v in unreadable.items()},
        {str(k): str(v) for k, v in fenced.items()},
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
    extra = r.array(doc.get("extra", []), "key 'extra'")
    return [
        Result(
            "table",
            name,
            items,
            totals,
            r.path,
            options=options,
            details={item: {"formats": formats[item]} for item in items if item in formats},
            dataset=_coverage(doc, r).facts() | {"extra": extra},
        )
    ]
