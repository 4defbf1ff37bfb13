"""Batch evaluation of table collections: TEDS, TEDS-S and GriTS per table, in parallel.

Like PubTabNet's ``batch_evaluate``: every truth table is scored, a missing prediction scores 0
(and is listed), and the mean is over all truth tables. Each document is parsed once; TEDS and
TEDS-S are computed from the same parse.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from lxml import etree

from parsescore.core.errors import InputError
from parsescore.core.runner import item_bytes, run_items
from parsescore.table.grits_metric import (
    GridCell,
    GritsResult,
    IouMode,
    LcsMode,
    cells_from_table,
    grits,
)
from parsescore.table.normalise import normalise_html
from parsescore.table.score import Denominator, teds_of_trees
from parsescore.table.tree import TableTree, build_tree, find_table

__all__ = ["BatchResult", "TableScores", "evaluate_tables"]

GRITS_KEYS = ("top", "con")
GRITS_NAMES = {
    "top": "GriTS-Top",
    "top_precision": "GriTS-Top precision",
    "top_recall": "GriTS-Top recall",
    "con": "GriTS-Con",
    "con_precision": "GriTS-Con precision",
    "con_recall": "GriTS-Con recall",
}


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
        return "TEDS-S" if self.structure_only else "TEDS"

    @property
    def failed(self) -> dict[str, str]:
        """``{name: reason}`` of the predictions that could not be read (they score 0)."""
        return {t.name: t.failed for t in self.tables if t.failed is not None}

    def metric_names(self) -> list[str]:
        """Every metric of the run: headline first, then the other TEDS, then GriTS."""
        other = "TEDS" if self.structure_only else "TEDS-S"
        names = [self.metric, other]
        if self.tables and self.tables[0].grits is not None:
            names += [GRITS_NAMES[key] for key in self.tables[0].grits]
        return names

    def scores(self, metric: str | None = None) -> dict[str, float]:
        """``{name: score}`` of one metric (default: the headline; see ``metric_names``)."""
        metric = metric or self.metric
        if metric == "TEDS":
            return {t.name: t.teds for t in self.tables}
        if metric == "TEDS-S":
            return {t.name: t.teds_s for t in self.tables}
        keys = {v: k for k, v in GRITS_NAMES.items()}
        if metric not in keys:
            raise KeyError(f"unknown metric {metric!r}; known: {', '.join(self.metric_names())}")
        return {t.name: (t.grits or {}).get(keys[metric], 0.0) for t in self.tables}

    def mean(self, metric: str | None = None) -> float:
        """Mean over all truth tables (missing predictions count as 0)."""
        values = list(self.scores(metric).values())
        return sum(values) / len(values) if values else 0.0

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


@dataclass(frozen=True, slots=True)
class _Options:
    ignore_nodes: tuple[str, ...] | None
    denominator: Denominator
    normalise: bool
    with_grits: bool
    grits_iou: IouMode = "enclosing"
    grits_lcs: LcsMode = "difflib"
    with_teds: bool = True


class _Side:
    """One parsed document: content tree, structure tree and GriTS cells (or no table)."""

    __slots__ = ("cells", "content", "structure")

    def __init__(self, text: str, options: _Options, *, path: str | None, name: str) -> None:
        self.content: TableTree | None = None
        self.structure: TableTree | None = None
        self.cells: list[GridCell] | None = None
        if not text:
            return
        try:
            if options.normalise:
                text = normalise_html(text)
            table = find_table(text)
            if table is None:
                # TEDS reads only body/table; GriTS, as table-transformer's html_to_cells,
                # reads a bare <table> too
                if options.with_grits:
                    fragment = _fragment_table(text)
                    self.cells = None if fragment is None else cells_from_table(fragment)
                return
            if options.with_grits:
                self.cells = cells_from_table(table)
            if not options.with_teds:
                return
            if options.ignore_nodes:
                etree.strip_tags(table, *options.ignore_nodes)
            self.content = build_tree(table, structure_only=False)
            self.structure = build_tree(table, structure_only=True)
        except (ValueError, etree.LxmlError) as exc:
            reason = getattr(exc, "reason", None) or str(exc) or type(exc).__name__
            raise InputError(f"bad HTML: {reason}", path=path, where=f"key {name!r}") from None


def _fragment_table(text: str) -> Any:
    """The first ``<table>`` of a document without ``body/table`` (a bare fragment), or None."""
    from lxml import html

    root = html.fromstring(text, parser=html.HTMLParser(remove_comments=True, encoding="utf-8"))
    if root.tag == "table":
        return root
    found = root.xpath(".//table")
    return found[0] if found else None


def _grits_numbers(result: GritsResult | None) -> dict[str, float]:
    if result is None:
        return dict.fromkeys(GRITS_NAMES, 0.0)
    out: dict[str, float] = {}
    for key in GRITS_KEYS:
        score = getattr(result, key)
        out[key] = score.fscore
        out[f"{key}_precision"] = score.precision
        out[f"{key}_recall"] = score.recall
    return out


def _score_one(
    name: str, truth: str, pred: str | None, options: _Options, paths: tuple[str | None, str | None]
) -> TableScores:
    true_side = _Side(truth, options, path=paths[0], name=name)
    if pred is None:
        grits_part = _grits_numbers(None) if options.with_grits else None
        return TableScores(name, 0.0, 0.0, grits_part, missing=True)
    try:  # a prediction beyond the limits (or not HTML lxml reads) fails its item only
        pred_side = _Side(pred, options, path=paths[1], name=name)
        grits_part = None
        if options.with_grits:
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
        zeros = _grits_numbers(None) if options.with_grits else None
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
    item: tuple[str, str, str | None],
    *,
    options: _Options,
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


def evaluate_tables(
    truth: Mapping[str, str],
    pred: Mapping[str, str],
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
    teds: Any = None,
    with_teds: bool = True,
) -> BatchResult:
    """Score every truth table against its prediction (``{name: html}`` both).

    ``teds`` (a :class:`~parsescore.table.TEDS`) supplies ``ignore_nodes``, ``denominator``
    and ``normalise`` when given. ``jobs`` > 1 runs over processes; ``jobs`` = 0 uses every
    core; ``dask_scheduler`` runs on a Dask cluster; ``cache_dir`` reuses the scores of tables
    scored before with the same options (see :mod:`parsescore.core.runner`). The result does not
    depend on ``jobs``, the scheduler or the cache. ``with_teds=False`` computes GriTS only
    (TEDS and TEDS-S are then 0).

    >>> t = {"a": "<html><body><table><tr><td>x</td></tr></table></body></html>"}
    >>> evaluate_tables(t, t, with_grits=False).mean()
    1.0
    """
    if teds is not None:
        ignore_nodes = teds.ignore_nodes
        denominator = teds.denominator
        normalise = teds.normalise
    if grits_iou not in ("enclosing", "union"):
        raise ValueError(f"grits_iou must be 'enclosing' or 'union', got {grits_iou!r}")
    if grits_lcs not in ("difflib", "exact"):
        raise ValueError(f"grits_lcs must be 'difflib' or 'exact', got {grits_lcs!r}")
    options = _Options(
        tuple(ignore_nodes) if ignore_nodes else None,
        denominator,
        normalise,
        with_grits,
        grits_iou,
        grits_lcs,
        with_teds,
    )
    paths = (
        None if truth_path is None else str(truth_path),
        None if pred_path is None else str(pred_path),
    )
    names = list(truth)
    items = [(name, truth[name], pred.get(name)) for name in names]
    missing = [name for name in names if name not in pred]
    extra = [name for name in pred if name not in truth]
    run_options = {
        "denominator": denominator,
        "normalise": normalise,
        "ignore_nodes": list(options.ignore_nodes or []),
        "grits": with_grits,
        "grits_iou": grits_iou,
        "grits_lcs": grits_lcs,
    }
    if not with_teds:  # another record: its own cache entries
        run_options["teds"] = False
    run = run_items(
        partial(_score_record, options=options, paths=paths),
        items,
        kind="table",
        options=run_options,
        item_input=lambda item: item_bytes(*item),
        jobs=max(jobs, 0),  # any jobs <= 0 means every core, as before
        dask_scheduler=dask_scheduler,
        cache_dir=cache_dir,
        quiet=not progress,
        description="tables",
    )
    tables = [TableScores(**record) for record in run.records]
    return BatchResult(tables, missing, extra, structure_only, run_options)
