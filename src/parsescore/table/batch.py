"""Batch evaluation of table collections: TEDS, TEDS-S and GriTS per table, in parallel.

Like PubTabNet's ``batch_evaluate``: every truth table is scored, a missing prediction scores 0
(and is listed), and the mean is over all truth tables. Tables come as
:class:`~parsescore.shared.tables.grid.TableGrid` s: GriTS reads their cells; TEDS parses their HTML
(the one they were written in, or the document of their cells), and a table read from HTML is
parsed once for both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from lxml import etree

from parsescore.core.aggregate import total
from parsescore.core.errors import InputError
from parsescore.core.kinds import Metric
from parsescore.core.options import options_model, recorded_options
from parsescore.core.runner import item_bytes, run_items
from parsescore.shared.tables.grid import GridCell, TableGrid
from parsescore.shared.tables.grits import GritsResult, cells_from_table, grits
from parsescore.shared.tables.names import GRITS_KEYS, Denominator, IouMode, LcsMode
from parsescore.shared.tables.normalise import normalise_html
from parsescore.shared.tables.score import teds_of_trees
from parsescore.shared.tables.tree import TableTree, build_trees, find_table, fragment_table
from parsescore.table.metrics import TEDS as TEDS_METRIC
from parsescore.table.metrics import TEDS_S, TOTALS
from parsescore.table.options import TableOptions

__all__ = [
    "BatchResult",
    "CellScores",
    "TableScores",
    "evaluate_tables",
    "score_cell_tables",
    "score_tables",
]

#: The GriTS numbers a batch of tables computes (tables have no boxes: no GriTS-Loc).
TABLE_GRITS = tuple(key for key in GRITS_KEYS if not key.startswith("loc"))


@dataclass(frozen=True, slots=True)
class TableScores:
    """Scores of one table (all 0 when its prediction is missing, has no table, or
    ``failed``: could not be read within the limits — the reason, so one bad answer fails
    its own item, not the run)."""

    name: str
    teds: float
    teds_s: float
    grits: dict[str, float] | None = None
    missing: bool = False
    failed: str | None = None


@dataclass(frozen=True)
class BatchResult:
    """All per-table scores of a run, in truth order, with the run's options.

    ``metric`` is the headline ("TEDS", or "TEDS-S" with ``structure_only``).
    """

    tables: list[TableScores]
    missing: list[str]
    extra: list[str]
    structure_only: bool = False
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def metric(self) -> str:
        return TEDS_S.name if self.structure_only else TEDS_METRIC.name

    @property
    def failed(self) -> dict[str, str]:
        """``{name: reason}`` of the predictions that could not be read (they score 0)."""
        return {t.name: t.failed for t in self.tables if t.failed is not None}

    def metric_names(self) -> list[str]:
        """Every metric of the run: headline first, then the other TEDS, then GriTS."""
        other = TEDS_METRIC.name if self.structure_only else TEDS_S.name
        names = [self.metric, other]
        if self.tables and self.tables[0].grits is not None:
            names += [GRITS_KEYS[key] for key in self.tables[0].grits]
        return names

    def scores(self, metric: str | None = None) -> dict[str, float]:
        """``{name: score}`` of one metric (default: the headline; see ``metric_names``)."""
        metric = metric or self.metric
        if metric == TEDS_METRIC.name:
            return {t.name: t.teds for t in self.tables}
        if metric == TEDS_S.name:
            return {t.name: t.teds_s for t in self.tables}
        keys = {name: key for key, name in GRITS_KEYS.items()}
        if metric not in keys:
            raise KeyError(f"unknown metric {metric!r}; known: {', '.join(self.metric_names())}")
        return {t.name: (t.grits or {}).get(keys[metric], 0.0) for t in self.tables}

    def mean(self, metric: str | None = None) -> float:
        """Mean over all truth tables (missing predictions count as 0): the metric's declared
        total (:mod:`parsescore.table.metrics`), 0.0 without tables."""
        metric = metric or self.metric
        items = {name: {metric: value} for name, value in self.scores(metric).items()}
        value = total(_declared(metric), items, {})
        return 0.0 if value is None else value

    def to_json(self) -> dict[str, Any]:
        """The ``--out`` document: headline ``scores``/``mean`` plus every metric by name."""
        return {
            "metric": self.metric,
            "scores": self.scores(),
            "mean": self.mean(),
            "missing": list(self.missing),
            "extra": list(self.extra),
            "n_tables": len(self.tables),
            "metrics": {
                name: {"mean": self.mean(name), "scores": self.scores(name)}
                for name in self.metric_names()
            },
            "options": dict(self.options),
        } | ({"failed": self.failed} if self.failed else {})


def _declared(name: str) -> Metric:
    return next(metric for metric in TOTALS if metric.name == name)


class _Side:
    """One table ready to score: its TEDS trees (content and structure) and its GriTS cells
    (None: no table)."""

    __slots__ = ("cells", "content", "structure")

    def __init__(
        self, grid: TableGrid, options: TableOptions, *, path: str | None, name: str
    ) -> None:
        self.content: TableTree | None = None
        self.structure: TableTree | None = None
        self.cells: list[GridCell] | None = None
        try:
            if grid.source is None and not options.normalise:
                if options.grits:
                    self.cells = list(grid.cells or ())  # GriTS reads the grid
                if options.teds:
                    self._trees(find_table(grid.html), options)
                return
            self._from_html(grid.html, options)  # as written (or normalised): parsed once
        except (ValueError, etree.LxmlError) as exc:
            reason = getattr(exc, "reason", None) or str(exc) or type(exc).__name__
            raise InputError(f"bad HTML: {reason}", path=path, where=f"key {name!r}") from None

    def _from_html(self, text: str, options: TableOptions) -> None:
        if not text:
            return
        if options.normalise:
            text = normalise_html(text)
        table = find_table(text)
        if table is None:
            # TEDS reads only body/table; GriTS, as table-transformer's html_to_cells, reads a
            # bare <table> too
            if options.grits:
                fragment = fragment_table(text)
                self.cells = None if fragment is None else cells_from_table(fragment)
            return
        if options.grits:
            self.cells = cells_from_table(table)
        if options.teds:
            self._trees(table, options)

    def _trees(self, table: Any, options: TableOptions) -> None:
        if options.ignore_nodes:
            etree.strip_tags(table, *options.ignore_nodes)
        self.content, self.structure = build_trees(table)  # one walk for both


def _grits_numbers(result: GritsResult | None) -> dict[str, float]:
    if result is None:
        return dict.fromkeys(TABLE_GRITS, 0.0)
    scores = result.scores()
    return {key: float(scores[key] or 0.0) for key in TABLE_GRITS}


def _score_one(
    name: str,
    truth: TableGrid,
    pred: TableGrid | None,
    options: TableOptions,
    paths: tuple[str | None, str | None],
) -> TableScores:
    true_side = _Side(truth, options, path=paths[0], name=name)
    if pred is None:
        grits_part = _grits_numbers(None) if options.grits else None
        return TableScores(name, 0.0, 0.0, grits_part, missing=True)
    try:  # a prediction beyond the limits (or not HTML lxml reads) fails its item only
        pred_side = _Side(pred, options, path=paths[1], name=name)
        grits_part = None
        if options.grits:
            grits_part = _grits_numbers(
                None
                if true_side.cells is None or pred_side.cells is None
                else grits(
                    true_side.cells,
                    pred_side.cells,
                    iou=options.grits_iou,
                    lcs=options.grits_lcs,
                    loc=False,
                )
            )
    except InputError as exc:
        zeros = _grits_numbers(None) if options.grits else None
        return TableScores(name, 0.0, 0.0, zeros, failed=exc.reason)
    if true_side.content is None or pred_side.content is None:  # also: TEDS not asked for
        return TableScores(name, 0.0, 0.0, grits_part)
    assert true_side.structure is not None and pred_side.structure is not None
    teds = teds_of_trees(true_side.content, pred_side.content, denominator=options.denominator)
    teds_s = teds_of_trees(
        true_side.structure, pred_side.structure, denominator=options.denominator
    )
    return TableScores(name, teds.score, teds_s.score, grits_part)


def _score_record(
    item: tuple[str, TableGrid, TableGrid | None],
    *,
    options: TableOptions,
    paths: tuple[str | None, str | None],
) -> dict[str, Any]:
    """One table's scores as the runner's JSON record (picklable with ``partial``)."""
    scores = _score_one(*item, options, paths)
    return {
        "name": scores.name,
        "teds": scores.teds,
        "teds_s": scores.teds_s,
        "grits": scores.grits,
        "missing": scores.missing,
        "failed": scores.failed,
    }


def _item_bytes(item: tuple[str, TableGrid, TableGrid | None]) -> bytes:
    name, truth, pred = item
    return item_bytes(name, truth.cache_key(), None if pred is None else pred.cache_key())


def score_tables(
    truth: Mapping[str, TableGrid],
    pred: Mapping[str, TableGrid],
    options: TableOptions,
    *,
    truth_path: str | Path | None = None,
    pred_path: str | Path | None = None,
) -> BatchResult:
    """Score every truth table against its prediction, as ``options`` say (their TEDS and
    GriTS options, ``jobs``, ``dask_scheduler``, ``cache`` and ``quiet``; ``teds=False``:
    GriTS only, TEDS and TEDS-S then 0). The result does not depend on ``jobs``, the scheduler
    or the cache (:mod:`parsescore.core.runner`); ``options`` are the cache key's.
    """
    paths = (
        None if truth_path is None else str(truth_path),
        None if pred_path is None else str(pred_path),
    )
    names = list(truth)
    items = [(name, truth[name], pred.get(name)) for name in names]
    missing = [name for name in names if name not in pred]
    extra = [name for name in pred if name not in truth]
    run = run_items(
        partial(_score_record, options=options, paths=paths),
        items,
        kind="table",
        options=recorded_options(options),
        item_input=_item_bytes,
        jobs=max(options.jobs, 0),  # any jobs <= 0 means every core, as before
        dask_scheduler=options.dask_scheduler,
        cache_dir=options.cache,
        quiet=options.quiet,
        description="tables",
    )
    tables = [TableScores(**record) for record in run.records]
    return BatchResult(tables, missing, extra, options.structure_only, _batch_options(options))


def _batch_options(options: TableOptions) -> dict[str, Any]:
    """The options of a batch's ``--out`` document: the TEDS and GriTS ones."""
    from parsescore.table.options import document_options

    recorded = document_options(options)
    keys = ("denominator", "normalise", "ignore_nodes", "grits", "grits_iou", "grits_lcs")
    return {key: recorded[key] for key in keys}


@dataclass(frozen=True)
class CellScores:
    """GriTS of cell lists: per truth table its numbers (keyed as
    :data:`~parsescore.shared.tables.names.GRITS_KEYS`; None: GriTS-Loc not measured), in truth
    order, the truth tables without a prediction (they score 0) and the predictions without
    truth."""

    tables: dict[str, dict[str, float | None]]
    missing: list[str]
    extra: list[str]


def score_cell_tables(
    truth: Mapping[str, TableGrid], pred: Mapping[str, TableGrid], options: TableOptions
) -> CellScores:
    """GriTS-Top, -Con and (where both sides have boxes) -Loc of every truth table's cells
    against its prediction's; a missing prediction scores 0 (GriTS-Loc too where the truth has
    boxes). ``jobs``, ``dask_scheduler``, ``cache`` and ``quiet`` are the runner's (same result
    whatever they are)."""
    names = list(truth)
    missing = [n for n in names if n not in pred]
    items = [(n, _cells(truth[n]), _cells(pred[n])) for n in names if n in pred]
    run = run_items(
        partial(_cell_record, iou=options.grits_iou, lcs=options.grits_lcs),
        items,
        kind="grits",
        options=recorded_options(options),
        item_input=lambda item: repr(item).encode("utf-8"),  # dataclass reprs are exact
        jobs=options.jobs,
        dask_scheduler=options.dask_scheduler,
        cache_dir=options.cache,
        quiet=options.quiet,
        description="tables",
    )
    scored = {item[0]: record for item, record in zip(items, run.records, strict=True)}
    tables: dict[str, dict[str, float | None]] = {}
    for name in names:
        if name in scored:
            tables[name] = scored[name]
        else:
            boxes = truth[name].has_boxes
            tables[name] = {
                k: 0.0 if boxes or not k.startswith("loc") else None for k in GRITS_KEYS
            }
    return CellScores(tables, missing, [n for n in pred if n not in truth])


def _cells(grid: TableGrid) -> tuple[GridCell, ...]:
    return tuple(grid.cells or ())


def _cell_record(
    item: tuple[str, Sequence[GridCell], Sequence[GridCell]], *, iou: IouMode, lcs: LcsMode
) -> dict[str, float | None]:
    """One table's GriTS (a picklable runner task); a table beyond the limits stops the run."""
    name, truth_cells, pred_cells = item
    try:
        return grits(truth_cells, pred_cells, iou=iou, lcs=lcs).scores()
    except InputError as exc:
        raise InputError(exc.reason, where=f"table {name!r}") from None


def _grid(value: str | TableGrid) -> TableGrid:
    return value if isinstance(value, TableGrid) else TableGrid.from_html(value)


def evaluate_tables(
    truth: Mapping[str, str | TableGrid],
    pred: Mapping[str, str | TableGrid],
    *,
    structure_only: bool = False,
    jobs: int = 1,
    with_grits: bool = True,
    ignore_nodes: Iterable[str] | None = None,
    denominator: Denominator = "tree_nodes",
    normalise: bool = False,
    grits_iou: IouMode = "enclosing",
    grits_lcs: LcsMode = "difflib",
    progress: bool = False,
    dask_scheduler: str | None = None,
    cache_dir: str | Path | None = None,
    truth_path: str | Path | None = None,
    pred_path: str | Path | None = None,
) -> BatchResult:
    """Score every truth table against its prediction (``{name: html}`` both, or grids).

    ``jobs`` > 1 runs over processes; ``jobs`` = 0 uses every
    core; ``dask_scheduler`` runs on a Dask cluster; ``cache_dir`` reuses the scores of tables
    scored before with the same options (see :mod:`parsescore.core.runner`). The result does not
    depend on ``jobs``, the scheduler or the cache. The keywords are those of
    :class:`~parsescore.table.options.TableOptions` under this function's older names
    (``with_grits`` is ``grits``, ``cache_dir`` ``cache``, ``progress`` not ``quiet``).

    >>> t = {"a": "<html><body><table><tr><td>x</td></tr></table></body></html>"}
    >>> evaluate_tables(t, t, with_grits=False).mean()
    1.0
    """
    given = {
        "structure_only": structure_only,
        "jobs": jobs,
        "grits": with_grits,
        "ignore_nodes": tuple(ignore_nodes) if ignore_nodes else (),
        "denominator": denominator,
        "normalise": normalise,
        "grits_iou": grits_iou,
        "grits_lcs": grits_lcs,
        "quiet": not progress,
        "dask_scheduler": dask_scheduler,
        "cache": cache_dir,
    }
    options = options_model(
        TableOptions, "table", {k: v for k, v in given.items() if v is not None}
    )
    return score_tables(
        {name: _grid(value) for name, value in truth.items()},
        {name: _grid(value) for name, value in pred.items()},
        options,
        truth_path=truth_path,
        pred_path=pred_path,
    )
