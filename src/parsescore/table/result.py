"""Table results: scoring a collection (:func:`evaluate`: TEDS, TEDS-S and GriTS of tables in any
format, or GriTS of table-transformer cell lists), its ``--out`` document, and the
:class:`~parsescore.core.results.Result` read from that document (:func:`read`, the same code
for a run and for a document read back).

One direction: the scores (:mod:`parsescore.table.batch`) make the document — the reference's
format, its means built by the core from the metrics' declared aggregation — and the document
makes the result. Per table, every metric of the run is a metric of its item (``TEDS``,
``TEDS-S``, ``GriTS-Top``, ...); the totals are the metrics' means, ``readable`` and
``n_tables``; missing and extra predictions are dataset facts; the cells that differ are each
table's detail.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeGuard

from parsescore import __version__
from parsescore.core.aggregate import total, totals
from parsescore.core.errors import InputError
from parsescore.core.kinds import Mean, Metric
from parsescore.core.results import Reader, Result
from parsescore.shared.coverage import READABLE, Coverage
from parsescore.shared.tables.names import GRITS_KEYS
from parsescore.table.attributes import attributes_of
from parsescore.table.metrics import GRITS, GRITS_HEADLINE, N_TABLES, TOTALS
from parsescore.table.options import TableOptions, document_options, grits_document_options

__all__ = ["evaluate", "read"]


def evaluate(
    truth: str | Path | Mapping[str, Any],
    pred: str | Path | Mapping[str, Any],
    options: TableOptions,
) -> Result:
    """Score predicted tables against truth tables, matched by name.

    ``truth`` and ``pred`` are collections (a JSON or JSONL file, or a folder of table files;
    see :func:`parsescore.table.read_collection`) or ``{name: text}`` mappings; ``options``
    the kind's (:class:`~parsescore.table.options.TableOptions`, checked by
    :func:`parsescore.evaluate`). TEDS and TEDS-S are ``table_recognition_metric`` 0.0.6's
    (``structure_only`` makes TEDS-S the headline; ``denominator="all_descendants"`` is
    PubTabNet's); GriTS is table-transformer's (``grits=False`` skips it). ``cell_details``
    adds each table's differing cells to its detail.

    ``truth_format`` / ``pred_format`` say how tables are written (the reader registry:
    ``html`` — the reference's input, the default —, ``html-fragment``, ``markdown``,
    ``latex``, ``csv``, ``tsv``, ``otsl``, ``doctags``, or ``auto``: a folder's files by
    extension, other tables by their content); ``header=False`` reads no CSV/TSV header row;
    ``latex_math="text"`` reads LaTeX math as the text it shows. Predictions are a model's
    answers: read by the chat-answer rule (prose, ``<think>`` blocks and fences around the table
    dropped); one that cannot be read scores 0 and is listed in ``dataset["unreadable"]``
    (``strict=True`` stops at the first instead). With formats other than ``html`` the result
    records each table's formats in its detail (``--out``: ``formats``).

    ``cells=True`` reads table-transformer cell lists (``{name: [cell]}`` JSON) and computes
    GriTS-Top, -Con and -Loc (``grits_iou`` / ``grits_lcs`` apply). ``teds=False`` scores
    tables in any format with GriTS only: the result is shaped as that of cell lists
    (``parsescore grits``), GriTS-Loc not measured (tables have no boxes).
    """
    inputs = {
        side: str(value) for side, value in (("truth", truth), ("pred", pred)) if _is_path(value)
    }
    label = options.name or (Path(pred).stem if _is_path(pred) else "pred")
    if options.cells:
        if options.structure_only or options.denominator != "tree_nodes":
            raise InputError("cells=True scores GriTS only; TEDS options do not apply")
        if options.normalise or options.ignore_nodes:
            raise InputError("cells=True scores GriTS only; TEDS options do not apply")
        doc, warnings, truth_cells = _cells(truth, pred, options, inputs)
        result = _result(doc, label, inputs, warnings)
        return replace(result, attributes=attributes_of(truth_cells, result.items))
    if not options.teds and not options.grits:
        raise InputError("teds=False scores GriTS only; grits=False leaves nothing to score")
    return _tables(truth, pred, options, inputs, label)


def _tables(
    truth: Any, pred: Any, options: TableOptions, inputs: dict[str, str], label: str
) -> Result:
    from parsescore.shared.coverage import check_names
    from parsescore.table.batch import score_tables
    from parsescore.table.inputs import read_collection

    reading: dict[str, Any] = {"header": options.header, "latex_math": options.latex_math}
    formats = (options.truth_format, options.pred_format)
    try:
        truth_read = read_collection(truth, options.truth_format, **reading)
    except InputError as exc:
        if not _swapped(truth, pred, formats, reading):
            raise
        swap = f"{exc.reason}; did you swap --truth and --pred?"
        raise InputError(swap, path=exc.path, where=exc.where) from None
    pred_read = read_collection(
        pred, options.pred_format, strict=options.strict, answers=True, **reading
    )
    truth_tables, pred_tables = dict(truth_read.tables), pred_read.tables
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
    if options.allow_missing:
        left_out = set(missing)
        truth_tables = {n: grid for n, grid in truth_tables.items() if n not in left_out}
    warnings = list(truth_read.warnings) + list(pred_read.warnings)
    warnings += _wrapped_truth_warning(truth_read.wrapped, coverage.truth, pred_read.fenced)
    batch = score_tables(
        truth_tables,
        pred_tables,
        options,
        truth_path=truth if _is_path(truth) else None,
        pred_path=pred if _is_path(pred) else None,
    )
    for table in batch.tables:  # read, or failed when scored (bad HTML, beyond the limits)
        reason = pred_read.failed.get(table.name, table.failed)
        if reason is not None:
            if options.strict:
                raise InputError(reason, path=inputs.get("pred"), where=f"key {table.name!r}")
            coverage.unreadable[table.name] = reason
    coverage.fenced = {n: f for n, f in pred_read.fenced.items() if n in truth_tables}
    extra = [n for n in answered if n not in truth_read.tables]  # readable ones first
    warnings += coverage.warnings("tables", allow_missing=options.allow_missing)
    if not options.teds:
        doc = _grits_document(
            {t.name: dict(t.grits or {}) for t in batch.tables}, list(batch.missing), []
        )
        doc["options"] = grits_document_options(options)
        _answers_into(doc, coverage, extra)
        result = _result(doc, label, inputs, warnings, computed=batch)
        return replace(result, attributes=attributes_of(truth_tables, result.items))
    native = batch.to_json()
    native["options"] = document_options(options)
    details: dict[str, dict[str, Any]] = {}
    if options.cell_details:
        from parsescore.shared.tables.celldiff import table_details

        details = table_details(
            {n: grid.html for n, grid in truth_tables.items()},
            {n: grid.html for n, grid in pred_tables.items()},
            normalise=options.normalise,
        )
    if formats != ("html", "html"):
        formats_read = {
            name: {
                "truth": truth_tables[name].format,
                "pred": pred_tables[name].format if name in pred_tables else None,
            }
            for name in truth_tables
        }
        native["formats"] = formats_read
        details = {
            name: dict(details.get(name, {})) | {"formats": formats_read[name]}
            for name in truth_tables
        }
    _answers_into(native, coverage, extra)
    result = _result(native, label, inputs, warnings, computed=batch)
    return replace(
        result,
        details={item: details[item] for item in result.items if details.get(item)},
        attributes=attributes_of(truth_tables, result.items),
    )


def _result(
    doc: dict[str, Any],
    label: str,
    inputs: dict[str, str],
    warnings: Sequence[str],
    *,
    computed: Any = None,
) -> Result:
    """The result of a run: its document read back (:func:`read`), with what a document does
    not hold (the inputs, the version, the warnings)."""
    (result,) = read(doc, Reader(None), label)
    return replace(
        result,
        inputs=inputs,
        version=__version__,
        native=doc,
        computed=computed,
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


def _grits_document(
    tables: Mapping[str, Mapping[str, float | None]], missing: list[str], extra: list[str]
) -> dict[str, Any]:
    """The ``parsescore grits`` document of per-table GriTS numbers (keyed as
    :data:`~parsescore.shared.tables.names.GRITS_KEYS`; absent or None: not measured): per metric
    its mean over the tables that have it (None: none has) and ``{table: score or None}``."""
    metrics: dict[str, Any] = {}
    for metric, key in zip(GRITS, GRITS_KEYS, strict=True):
        scores = {name: numbers.get(key) for name, numbers in tables.items()}
        items = {name: {metric.name: v} for name, v in scores.items() if v is not None}
        metrics[metric.name] = {"mean": total(metric, items, {}), "scores": scores}
    headline = metrics[GRITS_HEADLINE]
    return {
        "metric": GRITS_HEADLINE,
        "scores": headline["scores"],
        "mean": headline["mean"],
        "missing": missing,
        "extra": extra,
        "n_tables": len(tables),
        "metrics": metrics,
        "options": {},
    }


def _is_path(value: object) -> TypeGuard[str | Path]:
    """A collection given as a file or folder (not an in-memory mapping)."""
    return isinstance(value, str | Path)


def _cells(
    truth: Any, pred: Any, options: TableOptions, inputs: dict[str, str]
) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
    """The GriTS document of two cell-list collections, its warnings and the truth tables."""
    from parsescore.shared.coverage import check_names
    from parsescore.table.batch import score_cell_tables
    from parsescore.table.inputs import CELLS, read_collection

    truth_cells = read_collection(truth, CELLS).tables
    pred_cells = read_collection(pred, CELLS).tables
    missing = check_names(
        list(truth_cells),
        list(pred_cells),
        truth=inputs.get("truth", "the truth cells"),
        pred=inputs.get("pred", "the predicted cells"),
    )
    if options.allow_missing:
        truth_cells = {n: cells for n, cells in truth_cells.items() if n not in set(missing)}
    scored = score_cell_tables(truth_cells, pred_cells, options)
    doc = _grits_document(scored.tables, scored.missing, scored.extra)
    doc["options"] = grits_document_options(options)
    coverage = Coverage(len(truth_cells) + (len(missing) if options.allow_missing else 0), missing)
    _answers_into(doc, coverage, list(doc["extra"]))
    warnings = coverage.warnings("tables", allow_missing=options.allow_missing)
    return doc, warnings, truth_cells


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
) -> tuple[dict[str, dict[str, float]], list[Metric], dict[str, float]]:
    """Per table its metrics (a ``null`` score is not measured: left out), the document's
    metrics in its order, and the numbers given for the dataset (``readable``)."""
    metrics = r.mapping(r.key(doc, "metrics", "top level"), "key 'metrics'")
    declared = {metric.name: metric for metric in TOTALS}
    items: dict[str, dict[str, float]] = {}
    found: list[Metric] = []
    given: dict[str, float] = {}
    for metric, entry in metrics.items():
        where = f"metrics.{metric}"
        entry = r.mapping(entry, where)
        scores = r.mapping(r.key(entry, "scores", where), f"{where}.scores")
        for table, value in scores.items():
            number = r.optional_number(value, f"{where}.scores.{table}")
            slot = items.setdefault(table, {})
            if number is not None:
                slot[metric] = number
        found.append(declared.get(metric) or Metric(metric, metric, None, aggregate=Mean()))
        if metric == READABLE.name:
            readable = r.optional_number(entry.get("mean"), f"{where}.mean")
            if readable is not None:
                given[metric] = readable
    return items, found, given


def read(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The :class:`Result` of a ``parsescore table`` or ``grits`` ``--out`` document: its
    items, the totals the metrics declare (means, ``readable`` as the document gives it,
    ``n_tables``), its options (with the headline ``metric``) and its dataset facts."""
    items, metrics, given = _numbers(doc, r)
    if "n_tables" in doc:
        r.number(doc["n_tables"], "n_tables")
        metrics.append(N_TABLES)
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
            totals(metrics, items, {}, given=given),
            r.path,
            options=options,
            details={item: {"formats": formats[item]} for item in items if item in formats},
            dataset=_coverage(doc, r).facts() | {"extra": extra},
        )
    ]
