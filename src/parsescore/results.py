"""Loading any kind's ``--out`` JSON back as one per-item result model.

Every kind writes its own JSON (``parsescore flowchart``, ``table``, ``grits``, ``sequence``,
``graph``); :func:`load_result` recognises which one a file is by its keys and turns it into a
:class:`Result`: ``items`` maps each scored item (a diagram, a table, a file, a graph class or
edge label) to its numbers, so that systems scored on the same dataset can be compared item by
item (:mod:`parsescore.compare`) or exported as a DataFrame.

Metrics per kind (``higher_is_better`` says which way is good):

========== ====================== ===============================================================
kind       item id                metrics (direction)
========== ====================== ===============================================================
flowchart  diagram stem           ``node_text_cost``, ``label_cost``, ``additional_text_cost``
                                  (edit costs, lower is better); ``flow_precision``,
                                  ``flow_recall``, ``flow_f1``, ``flow_jaccard`` (higher)
table      table name             every metric of the JSON's ``metrics``: ``TEDS``, ``TEDS-S``,
                                  ``GriTS-Top``, ``GriTS-Con`` (+ precision/recall), ... (higher)
sequence   file path              ``<category>_insertion_rate``, ``<category>_deletion_rate``,
                                  ``<category>_substitution_rate`` for each of the paper's
                                  categories, and ``error_rate`` (all errors / all ground-truth
                                  elements × 100); percentages of errors, lower is better
graph      ``node:<Class>``,      ``node_<rung>_precision|recall|f1`` on node classes,
           ``edge:<LABEL>``       ``edge_<rung>_precision|recall|f1`` on edge labels, rung
                                  ``strict``, ``relaxed`` (and ``aligned`` when active); higher
========== ====================== ===============================================================

A missing value (``null`` in the JSON, e.g. GriTS-Loc without boxes) means "not measured for that
item" and is left out of that item's metrics.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsescore.errors import InputError
from parsescore.files import load_json

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "KINDS",
    "SEQUENCE_CATEGORIES",
    "Result",
    "concat_dataframes",
    "detect_kind",
    "higher_is_better",
    "load_result",
    "load_results",
    "result_from_json",
    "results_from_json",
]

KINDS = ("flowchart", "table", "sequence", "graph")

#: The sequence paper's categories, in Table 2 order (kept here so the core does not import the
#: sequence package; a sequence JSON's own category keys are used when they differ).
SEQUENCE_CATEGORIES = (
    "node",
    "direction",
    "direction_type",
    "message",
    "box",
    "group",
    "note",
    "participant",
)

_FLOW_METRICS = ("precision", "recall", "f1", "jaccard")
_GRAPH_SCORES = {"p": "precision", "r": "recall", "f1": "f1"}
_SEQUENCE_RATES = ("insertion_rate", "deletion_rate", "substitution_rate")


def higher_is_better(kind: str, metric: str) -> bool:
    """Whether a larger value of ``metric`` is better for results of ``kind``.

    Costs (flowchart ``*_cost``) and error rates (every sequence metric) are lower-is-better;
    scores (TEDS, GriTS, precision/recall/F1/Jaccard) are higher-is-better.
    """
    if kind == "flowchart":
        return not metric.endswith("_cost")
    if kind == "sequence":
        return False
    if kind in ("table", "graph"):
        return True
    raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")


@dataclass(frozen=True)
class Result:
    """One system's scores on one dataset, item by item.

    Attributes:
        kind: ``flowchart``, ``table``, ``sequence`` or ``graph``.
        name: the system's name (default: the result file's stem; ``stem:model`` for one model
            of a multi-model sequence JSON).
        items: ``{item_id: {metric: value}}`` in the file's order.
        totals: the file's dataset-level numbers, flattened to ``{name: value}`` (as the kind
            computes them: e.g. micro-averaged or summed-then-divided, not the item mean).
        path: the file it was loaded from (None when built from a dict).
    """

    kind: str
    name: str
    items: dict[str, dict[str, float]]
    totals: dict[str, float] = field(default_factory=dict)
    path: str | None = None

    def metrics(self) -> list[str]:
        """Every metric any item has, in order of first appearance."""
        seen: dict[str, None] = {}
        for values in self.items.values():
            for metric in values:
                seen.setdefault(metric, None)
        return list(seen)

    def higher_is_better(self, metric: str) -> bool:
        """Whether a larger ``metric`` is better (see :func:`higher_is_better`)."""
        return higher_is_better(self.kind, metric)

    def to_dataframe(self) -> pd.DataFrame:
        """One row per item: columns ``system``, ``kind``, ``item``, then one per metric.

        pandas is an optional extra (``pip install parsescore[pandas]``); a metric an item does
        not have is NaN.
        """
        pd = _pandas()
        metrics = self.metrics()
        rows = [
            {"system": self.name, "kind": self.kind, "item": item}
            | {m: values.get(m, math.nan) for m in metrics}
            for item, values in self.items.items()
        ]
        return pd.DataFrame(rows, columns=["system", "kind", "item", *metrics])


def _pandas() -> Any:
    """pandas, imported only when a DataFrame is asked for (it is an optional extra)."""
    try:
        import pandas
    except ImportError:
        raise ImportError(
            "DataFrame export needs pandas: pip install 'parsescore[pandas]' (or pandas)"
        ) from None
    return pandas


# -- reading ------------------------------------------------------------------------------------


class _Reader:
    """Checks values while a document is walked, naming the key path of anything wrong."""

    def __init__(self, path: str | None) -> None:
        self.path = path

    def fail(self, where: str, message: str) -> InputError:
        return InputError(message, path=self.path, where=where)

    def mapping(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected a JSON object, found {_type_name(value)}")
        return value

    def array(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a JSON array, found {_type_name(value)}")
        return value

    def number(self, value: Any, where: str, *, optional: bool = False) -> float | None:
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(where, f"expected a number, found {_type_name(value)}")
        number = float(value)
        if not math.isfinite(number):
            raise self.fail(where, f"expected a finite number, found {value!r}")
        return number

    def key(self, doc: Mapping[str, Any], name: str, where: str) -> Any:
        if name not in doc:
            raise self.fail(where, f"missing key {name!r}")
        return doc[name]


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        str: "a string",
        int: "a number",
        float: "a number",
        list: "an array",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def _is_sequence_block(value: Any) -> bool:
    return isinstance(value, dict) and "totals" in value and "files" in value


def detect_kind(doc: Any) -> str | None:
    """The kind whose ``--out`` JSON ``doc`` is, by its keys (None if none matches).

    A multi-model sequence JSON (one ``{"totals", "files"}`` block per model) is ``sequence``.
    """
    if not isinstance(doc, dict):
        return None
    if doc.get("kind") == "flowchart" or ("diagrams" in doc and "missing_predictions" in doc):
        return "flowchart"
    if "metrics" in doc and "n_tables" in doc:
        return "table"
    if {"micro", "nodes", "edges"} <= doc.keys():
        return "graph"
    if _is_sequence_block(doc):
        return "sequence"
    if doc and all(_is_sequence_block(v) for v in doc.values()):
        return "sequence"
    return None


_EXPECTED = (
    "expected the --out JSON of `parsescore flowchart` (keys kind, diagrams), `table`/`grits` "
    "(metrics, n_tables), `sequence` (totals, files, or one such block per model) or `graph` "
    "(micro, nodes, edges)"
)


def _flowchart(doc: Mapping[str, Any], r: _Reader) -> tuple[dict, dict]:
    items: dict[str, dict[str, float]] = {}
    for k, diagram in enumerate(r.array(r.key(doc, "diagrams", "top level"), "key 'diagrams'")):
        where = f"diagrams[{k}]"
        diagram = r.mapping(diagram, where)
        stem = r.key(diagram, "stem", where)
        if not isinstance(stem, str):
            raise r.fail(f"{where}.stem", f"expected a string, found {_type_name(stem)}")
        if stem in items:
            raise r.fail(f"{where}.stem", f"diagram {stem!r} appears twice")
        values: dict[str, float] = {}
        for metric in ("node_text_cost", "label_cost", "additional_text_cost"):
            if metric in diagram:
                value = r.number(diagram[metric], f"{where}.{metric}", optional=True)
                if value is not None:
                    values[metric] = value
        if "flow" in diagram:
            flow = r.mapping(diagram["flow"], f"{where}.flow")
            for metric in _FLOW_METRICS:
                value = r.number(
                    r.key(flow, metric, f"{where}.flow"), f"{where}.flow.{metric}", optional=True
                )
                if value is not None:
                    values[f"flow_{metric}"] = value
        items[stem] = values
    totals: dict[str, float] = {}
    raw = r.mapping(doc.get("totals", {}), "key 'totals'")
    for key, value in raw.items():
        if key == "flow_micro" and isinstance(value, dict):
            for metric in _FLOW_METRICS:
                number = r.number(value.get(metric), f"totals.flow_micro.{metric}", optional=True)
                if number is not None:
                    totals[f"flow_micro_{metric}"] = number
        elif isinstance(value, int | float) and not isinstance(value, bool):
            totals[key] = float(value)
    return items, totals


def _table(doc: Mapping[str, Any], r: _Reader) -> tuple[dict, dict]:
    metrics = r.mapping(r.key(doc, "metrics", "top level"), "key 'metrics'")
    items: dict[str, dict[str, float]] = {}
    totals: dict[str, float] = {}
    for metric, entry in metrics.items():
        where = f"metrics.{metric}"
        entry = r.mapping(entry, where)
        scores = r.mapping(r.key(entry, "scores", where), f"{where}.scores")
        for name, value in scores.items():
            number = r.number(value, f"{where}.scores.{name}", optional=True)
            slot = items.setdefault(name, {})
            if number is not None:
                slot[metric] = number
        mean = r.number(entry.get("mean"), f"{where}.mean", optional=True)
        if mean is not None:
            totals[metric] = mean
    if "n_tables" in doc:
        totals["n_tables"] = r.number(doc["n_tables"], "n_tables") or 0.0
    return items, totals


def _sequence_counts(
    block: Mapping[str, Any], where: str, r: _Reader
) -> tuple[dict[str, float], float, float]:
    """A file's (or the totals') rates per category, and its summed errors and gt count."""
    values: dict[str, float] = {}
    errors = gt = 0.0
    categories = [c for c in SEQUENCE_CATEGORIES if c in block] + [
        c
        for c, v in block.items()
        if c not in SEQUENCE_CATEGORIES and isinstance(v, dict) and "gt_count" in v
    ]
    if not categories:
        raise r.fail(where, f"no category counts; expected keys such as {SEQUENCE_CATEGORIES[0]!r}")
    for category in categories:
        counts = r.mapping(block[category], f"{where}.{category}")
        for rate in _SEQUENCE_RATES:
            values[f"{category}_{rate}"] = r.number(
                r.key(counts, rate, f"{where}.{category}"), f"{where}.{category}.{rate}"
            )  # type: ignore[assignment]
        for change in ("insertion", "deletion", "substitution"):
            errors += r.number(  # type: ignore[operator]
                r.key(counts, change, f"{where}.{category}"), f"{where}.{category}.{change}"
            )
        gt += r.number(  # type: ignore[operator]
            r.key(counts, "gt_count", f"{where}.{category}"), f"{where}.{category}.gt_count"
        )
    return values, errors, gt


def _sequence(block: Mapping[str, Any], r: _Reader, prefix: str) -> tuple[dict, dict]:
    items: dict[str, dict[str, float]] = {}
    files = r.array(r.key(block, "files", prefix or "top level"), f"{prefix}files")
    for k, file in enumerate(files):
        where = f"{prefix}files[{k}]"
        file = r.mapping(file, where)
        path = r.key(file, "path", where)
        if not isinstance(path, str):
            raise r.fail(f"{where}.path", f"expected a string, found {_type_name(path)}")
        if path in items:
            raise r.fail(f"{where}.path", f"file {path!r} appears twice")
        values, errors, gt = _sequence_counts(file, where, r)
        values["error_rate"] = errors / gt * 100 if gt else 0.0
        items[path] = values
    totals, errors, gt = _sequence_counts(
        r.mapping(r.key(block, "totals", prefix or "top level"), f"{prefix}totals"),
        f"{prefix}totals",
        r,
    )
    totals["error_rate"] = errors / gt * 100 if gt else 0.0
    return items, totals


def _graph_scores(entry: Mapping[str, Any], where: str, prefix: str, r: _Reader) -> dict:
    values: dict[str, float] = {}
    for rung, scores in entry.items():
        scores = r.mapping(scores, f"{where}.{rung}")
        for short, long in _GRAPH_SCORES.items():
            number = r.number(
                r.key(scores, short, f"{where}.{rung}"), f"{where}.{rung}.{short}", optional=True
            )
            if number is not None:
                values[f"{prefix}_{rung}_{long}"] = number
    return values


def _graph(doc: Mapping[str, Any], r: _Reader) -> tuple[dict, dict]:
    items: dict[str, dict[str, float]] = {}
    for section, prefix in (("nodes", "node"), ("edges", "edge")):
        for name, entry in r.mapping(doc[section], f"key {section!r}").items():
            where = f"{section}.{name}"
            items[f"{prefix}:{name}"] = _graph_scores(r.mapping(entry, where), where, prefix, r)
    totals: dict[str, float] = {}
    micro = r.mapping(doc["micro"], "key 'micro'")
    for section, prefix in (("nodes", "node"), ("edges", "edge")):
        if section in micro:
            where = f"micro.{section}"
            totals |= _graph_scores(r.mapping(micro[section], where), where, prefix, r)
    verbatim = doc.get("verbatim_ratio")
    if isinstance(verbatim, int | float) and not isinstance(verbatim, bool):
        totals["verbatim_ratio"] = float(verbatim)
    return items, totals


def results_from_json(doc: Any, *, name: str, path: str | Path | None = None) -> list[Result]:
    """Every system in one parsed ``--out`` document (several for a multi-model sequence JSON)."""
    where_path = None if path is None else str(path)
    r = _Reader(where_path)
    kind = detect_kind(doc)
    if kind is None:
        found = (
            f"found keys {', '.join(sorted(map(str, doc))[:8]) or '(none)'}"
            if isinstance(doc, dict)
            else f"found {_type_name(doc)}"
        )
        raise InputError(f"not a parsescore result: {_EXPECTED}; {found}", path=where_path)
    if kind == "sequence" and not _is_sequence_block(doc):
        results = []
        for model, block in doc.items():
            items, totals = _sequence(block, r, f"{model}.")
            results.append(Result(kind, f"{name}:{model}", items, totals, where_path))
        return results
    reader = {"flowchart": _flowchart, "table": _table, "graph": _graph}.get(kind)
    items, totals = _sequence(doc, r, "") if reader is None else reader(doc, r)
    return [Result(kind, name, items, totals, where_path)]


def result_from_json(doc: Any, *, name: str, path: str | Path | None = None) -> Result:
    """The one system in a parsed ``--out`` document (a multi-model sequence JSON is an error)."""
    results = results_from_json(doc, name=name, path=path)
    if len(results) != 1:
        models = ", ".join(result.name.split(":", 1)[1] for result in results)
        raise InputError(
            f"holds {len(results)} sequence models ({models}); use load_results() to get one "
            "Result per model",
            path=None if path is None else str(path),
        )
    return results[0]


def load_result(path: str | Path, *, name: str | None = None) -> Result:
    """Load one kind's ``--out`` JSON as a :class:`Result` named ``name`` (default: the stem).

    >>> load_result("table.json").items["PMC1.png"]["TEDS"]  # doctest: +SKIP
    0.93
    """
    path = Path(path)
    return result_from_json(load_json(path), name=name or path.stem, path=path)


def load_results(path: str | Path, *, name: str | None = None) -> list[Result]:
    """Load every system of a ``--out`` JSON: one Result, or one per model (``stem:model``)."""
    path = Path(path)
    return results_from_json(load_json(path), name=name or path.stem, path=path)


def concat_dataframes(results: Iterable[Result]) -> pd.DataFrame:
    """All results' DataFrames stacked (one row per system and item)."""
    return _pandas().concat([result.to_dataframe() for result in results], ignore_index=True)
