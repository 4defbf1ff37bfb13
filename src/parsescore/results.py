"""Loading any kind's ``--out`` JSON, or the common result envelope, back as one result model.

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

Besides the numbers, a :class:`Result` keeps what the native document records about how they
were made (``inputs``, ``options``, ``version``), a JSON-ready drill-down record per item
(``details``) and dataset-level facts (``dataset``). :func:`write_result` writes all of it as the
common *result envelope* (``--result FILE`` of every dataset command, ``parsescore schema
result``), which :func:`load_result` reads back unchanged::

    {"parsescore_result": 1, "version": "0.1.0", "kind": "table", "system": "run1",
     "inputs": {...}, "options": {...},
     "items": [{"id": "t1", "metrics": {"TEDS": 0.93}, "detail": {}}],
     "totals": {"TEDS": 0.93}, "dataset": {...}}
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parsescore import __version__
from parsescore.errors import InputError
from parsescore.files import load_json, write_json

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ENVELOPE_KEY",
    "ENVELOPE_VERSION",
    "FLOWCHART_COSTS",
    "FLOW_METRICS",
    "GRAPH_SCORES",
    "KINDS",
    "SEQUENCE_CATEGORIES",
    "Result",
    "command_result",
    "concat_dataframes",
    "detect_kind",
    "higher_is_better",
    "is_envelope",
    "load_result",
    "load_results",
    "result_from_json",
    "results_from_json",
    "write_result",
]

KINDS = ("flowchart", "table", "sequence", "graph")

#: The key that marks a result envelope, and the one envelope format version this code reads.
ENVELOPE_KEY = "parsescore_result"
ENVELOPE_VERSION = 1

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

#: Flow scores of a flowchart diagram (``flow_<name>`` as metrics).
FLOW_METRICS = ("precision", "recall", "f1", "jaccard")
#: eval.json's short score names and the metric names they become.
GRAPH_SCORES = {"p": "precision", "r": "recall", "f1": "f1"}
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
    """One system's scores on one dataset, item by item; the in-memory form of the envelope.

    Attributes:
        kind: ``flowchart``, ``table``, ``sequence`` or ``graph``.
        name: the system's name (default: an envelope's ``system``, else the result file's
            stem; ``stem:model`` for one model of a multi-model sequence JSON).
        items: ``{item_id: {metric: value}}`` in the file's order.
        totals: the file's dataset-level numbers, flattened to ``{name: value}`` (as the kind
            computes them: e.g. micro-averaged or summed-then-divided, not the item mean).
        path: the file it was loaded from (None when built from a dict). Where a result was
            read from is not part of its value: two results differing only in ``path`` are equal.
        inputs: what was scored, as given (e.g. ``{"truth": ..., "pred": ...}`` paths, or git
            ``{"repo", "truth_ref", "pred_ref"}``).
        options: the scoring options that change the numbers (distance, structure-only
            headline, ignored tags, alignment mode, threshold, ...).
        version: the parsescore version that wrote it (None when the document does not say).
        details: ``{item_id: record}``: each item's JSON-ready drill-down (node pairs, missing
            edges, counted differences, tp/fp/fn, ...), without the numbers already in ``items``;
            an item without one has no entry (the envelope writes ``"detail": {}``).
        dataset: dataset-level facts that are not totals (missing or extra predictions, graph
            integrity and alias pairs, ...).
    """

    kind: str
    name: str
    items: dict[str, dict[str, float]]
    totals: dict[str, float] = field(default_factory=dict)
    path: str | None = field(default=None, compare=False)
    inputs: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    version: str | None = None
    details: dict[str, dict[str, Any]] = field(default_factory=dict)
    dataset: dict[str, Any] = field(default_factory=dict)

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

    def to_json(self) -> dict[str, Any]:
        """The result envelope (``parsescore schema result``): same result, same JSON.

        Keys come in a fixed order and floats are not rounded; there is no timestamp, so that
        the same scores always give the same bytes.
        """
        return {
            ENVELOPE_KEY: ENVELOPE_VERSION,
            "version": self.version,
            "kind": self.kind,
            "system": self.name,
            "inputs": self.inputs,
            "options": self.options,
            "items": [
                {"id": item, "metrics": metrics, "detail": self.details.get(item, {})}
                for item, metrics in self.items.items()
            ],
            "totals": self.totals,
            "dataset": self.dataset,
        }


def write_result(path: str | Path, result: Result) -> Path:
    """Write ``result`` as an envelope, atomically (an existing file is replaced, as ``--out``)."""
    path = Path(path)
    write_json(path, result.to_json())
    return path


def command_result(
    doc: Any,
    path: str | Path,
    *,
    inputs: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    details: Mapping[str, Mapping[str, Any]] | None = None,
    dataset: Mapping[str, Any] | None = None,
) -> Result:
    """What a dataset command writes to ``--result path``: its native ``doc`` read back, plus
    what ``doc`` does not record.

    The numbers are read from the very document the command writes to ``--out`` (so the two
    files can never disagree); ``inputs``/``options``/``dataset`` are merged over what the
    document records and each item's ``details`` over its own record. The system is named after
    ``path``'s stem (what :func:`load_result` would call a native file) and the version is this
    parsescore's.
    """
    path = Path(path)
    result = result_from_json(doc, name=path.stem, path=path)
    extra = details or {}
    merged = {
        item: result.details.get(item, {}) | dict(extra.get(item, {})) for item in result.items
    }
    return replace(
        result,
        version=__version__,
        inputs=result.inputs | dict(inputs or {}),
        options=result.options | dict(options or {}),
        details={item: detail for item, detail in merged.items() if detail},
        dataset=result.dataset | dict(dataset or {}),
    )


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


def is_envelope(doc: Any) -> bool:
    """Whether ``doc`` is a result envelope (:meth:`Result.to_json`), whatever its version."""
    return isinstance(doc, dict) and ENVELOPE_KEY in doc


def detect_kind(doc: Any) -> str | None:
    """The kind whose result document ``doc`` is, by its keys (None if none matches).

    An envelope names its kind; a multi-model sequence JSON (one ``{"totals", "files"}`` block
    per model) is ``sequence``.
    """
    if not isinstance(doc, dict):
        return None
    if is_envelope(doc):
        return doc.get("kind") if doc.get("kind") in KINDS else None
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
    f"expected a result envelope (key {ENVELOPE_KEY!r}, written by --result) or the --out JSON "
    "of `parsescore flowchart` (keys kind, diagrams), `table`/`grits` (metrics, n_tables), "
    "`sequence` (totals, files, or one such block per model) or `graph` (micro, nodes, edges)"
)

#: A flowchart diagram's edit costs (lower is better).
FLOWCHART_COSTS = ("node_text_cost", "label_cost", "additional_text_cost")
_ENVELOPE_KEYS = (
    ENVELOPE_KEY,
    "version",
    "kind",
    "system",
    "inputs",
    "options",
    "items",
    "totals",
    "dataset",
)


def _plain(value: Any) -> float | int:
    """A count or score as it was written (an integer stays an integer in the details)."""
    return value if isinstance(value, int) else float(value)


def _flowchart(doc: Mapping[str, Any], r: _Reader) -> dict[str, Any]:
    items: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    for k, diagram in enumerate(r.array(r.key(doc, "diagrams", "top level"), "key 'diagrams'")):
        where = f"diagrams[{k}]"
        diagram = r.mapping(diagram, where)
        stem = r.key(diagram, "stem", where)
        if not isinstance(stem, str):
            raise r.fail(f"{where}.stem", f"expected a string, found {_type_name(stem)}")
        if stem in items:
            raise r.fail(f"{where}.stem", f"diagram {stem!r} appears twice")
        values: dict[str, float] = {}
        for metric in FLOWCHART_COSTS:
            if metric in diagram:
                value = r.number(diagram[metric], f"{where}.{metric}", optional=True)
                if value is not None:
                    values[metric] = value
        if "flow" in diagram:
            flow = r.mapping(diagram["flow"], f"{where}.flow")
            for metric in FLOW_METRICS:
                value = r.number(
                    r.key(flow, metric, f"{where}.flow"), f"{where}.flow.{metric}", optional=True
                )
                if value is not None:
                    values[f"flow_{metric}"] = value
        items[stem] = values
        # the drill-down: the diagram's record without its id and the numbers now in `values`
        details[stem] = {
            key: (
                {f: v for f, v in value.items() if f not in FLOW_METRICS}
                if key == "flow"
                else value
            )
            for key, value in diagram.items()
            if key not in ("stem", *FLOWCHART_COSTS)
        }
    totals: dict[str, float] = {}
    raw = r.mapping(doc.get("totals", {}), "key 'totals'")
    for key, value in raw.items():
        if key == "flow_micro" and isinstance(value, dict):
            for metric in FLOW_METRICS:
                number = r.number(value.get(metric), f"totals.flow_micro.{metric}", optional=True)
                if number is not None:
                    totals[f"flow_micro_{metric}"] = number
        elif isinstance(value, int | float) and not isinstance(value, bool):
            totals[key] = float(value)
    version = doc.get("version")
    return {
        "items": items,
        "totals": totals,
        "inputs": dict(r.mapping(doc.get("inputs", {}), "key 'inputs'")),
        "options": dict(r.mapping(doc.get("options", {}), "key 'options'")),
        "version": version if isinstance(version, str) else None,
        "details": details,
        "dataset": {k: doc[k] for k in ("missing_predictions", "parts") if k in doc},
    }


def _table(doc: Mapping[str, Any], r: _Reader) -> dict[str, Any]:
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
    # the headline metric is an option (``--structure-only`` makes it TEDS-S)
    headline = doc.get("metric")
    options: dict[str, Any] = {"metric": headline} if isinstance(headline, str) else {}
    options |= r.mapping(doc.get("options", {}), "key 'options'")
    return {
        "items": items,
        "totals": totals,
        "options": options,
        "dataset": {k: doc[k] for k in ("missing", "extra") if k in doc},
    }


def _sequence_counts(
    block: Mapping[str, Any], where: str, r: _Reader
) -> tuple[dict[str, float], float, float, dict[str, dict[str, float | int]]]:
    """A file's (or the totals') rates per category, its summed errors and gt count, and its
    counts per category (``gt_count``, ``insertion``, ``deletion``, ``substitution``)."""
    values: dict[str, float] = {}
    counted: dict[str, dict[str, float | int]] = {}
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
        counted[category] = {}
        for count in ("gt_count", "insertion", "deletion", "substitution"):
            raw = r.key(counts, count, f"{where}.{category}")
            number: float = r.number(raw, f"{where}.{category}.{count}")  # type: ignore[assignment]
            counted[category][count] = _plain(raw)
            if count == "gt_count":
                gt += number
            else:
                errors += number
    return values, errors, gt, counted


def _sequence(block: Mapping[str, Any], r: _Reader, prefix: str) -> dict[str, Any]:
    items: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    files = r.array(r.key(block, "files", prefix or "top level"), f"{prefix}files")
    for k, file in enumerate(files):
        where = f"{prefix}files[{k}]"
        file = r.mapping(file, where)
        path = r.key(file, "path", where)
        if not isinstance(path, str):
            raise r.fail(f"{where}.path", f"expected a string, found {_type_name(path)}")
        if path in items:
            raise r.fail(f"{where}.path", f"file {path!r} appears twice")
        values, errors, gt, counts = _sequence_counts(file, where, r)
        values["error_rate"] = errors / gt * 100 if gt else 0.0
        items[path] = values
        details[path] = {}
        if "gt_lines" in file:
            lines = file["gt_lines"]
            r.number(lines, f"{where}.gt_lines")
            details[path]["gt_lines"] = _plain(lines)
        details[path]["counts"] = counts
    totals, errors, gt, _ = _sequence_counts(
        r.mapping(r.key(block, "totals", prefix or "top level"), f"{prefix}totals"),
        f"{prefix}totals",
        r,
    )
    totals["error_rate"] = errors / gt * 100 if gt else 0.0
    return {"items": items, "totals": totals, "details": details}


def _graph_scores(
    entry: Mapping[str, Any], where: str, prefix: str, r: _Reader
) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    """Precision/recall/F1 per rung as metrics, and the rest of each rung (tp/fp/fn, ...)."""
    values: dict[str, float] = {}
    rest: dict[str, dict[str, Any]] = {}
    for rung, scores in entry.items():
        scores = r.mapping(scores, f"{where}.{rung}")
        for short, long in GRAPH_SCORES.items():
            number = r.number(
                r.key(scores, short, f"{where}.{rung}"), f"{where}.{rung}.{short}", optional=True
            )
            if number is not None:
                values[f"{prefix}_{rung}_{long}"] = number
        rest[rung] = {k: v for k, v in scores.items() if k not in GRAPH_SCORES}
    return values, rest


_GRAPH_INPUTS = ("graph", "truth", "template")


def _graph(doc: Mapping[str, Any], r: _Reader) -> dict[str, Any]:
    items: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    for section, prefix in (("nodes", "node"), ("edges", "edge")):
        for name, entry in r.mapping(doc[section], f"key {section!r}").items():
            where = f"{section}.{name}"
            item = f"{prefix}:{name}"
            items[item], details[item] = _graph_scores(r.mapping(entry, where), where, prefix, r)
    totals: dict[str, float] = {}
    micro_counts: dict[str, Any] = {}
    micro = r.mapping(doc["micro"], "key 'micro'")
    for section, prefix in (("nodes", "node"), ("edges", "edge")):
        if section in micro:
            where = f"micro.{section}"
            values, micro_counts[section] = _graph_scores(
                r.mapping(micro[section], where), where, prefix, r
            )
            totals |= values
    verbatim = doc.get("verbatim_ratio")
    if isinstance(verbatim, int | float) and not isinstance(verbatim, bool):
        totals["verbatim_ratio"] = float(verbatim)
    alignment = doc.get("structural_alignment")
    mode = alignment.get("mode") if isinstance(alignment, dict) else None
    consumed = {*_GRAPH_INPUTS, "micro", "nodes", "edges", "verbatim_ratio"}
    return {
        "items": items,
        "totals": totals,
        "inputs": {k: doc[k] for k in _GRAPH_INPUTS if k in doc},
        "options": {} if mode is None else {"structural_align": mode},
        "details": details,
        # every other fact of eval.json (its shape is docling-graph's), with the micro counts
        "dataset": {"micro": micro_counts} | {k: v for k, v in doc.items() if k not in consumed},
    }


def _envelope(doc: Mapping[str, Any], r: _Reader, name: str | None) -> Result:
    """The :class:`Result` an envelope holds, every field checked (key paths in errors)."""
    format_version = doc[ENVELOPE_KEY]
    if format_version != ENVELOPE_VERSION or isinstance(format_version, bool):
        raise r.fail(
            ENVELOPE_KEY,
            f"unsupported result envelope version {format_version!r}; parsescore {__version__} "
            f"reads version {ENVELOPE_VERSION} (write it again with this parsescore's --result)",
        )
    unknown = [k for k in doc if k not in _ENVELOPE_KEYS]
    if unknown:
        raise r.fail(
            "top level", f"unknown key {unknown[0]!r}; expected {', '.join(_ENVELOPE_KEYS)}"
        )
    for key in _ENVELOPE_KEYS:
        r.key(doc, key, "top level")
    kind = doc["kind"]
    if kind not in KINDS:
        raise r.fail("kind", f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
    system = doc["system"]
    if not isinstance(system, str):
        raise r.fail("system", f"expected a string, found {_type_name(system)}")
    version = doc["version"]
    if version is not None and not isinstance(version, str):
        raise r.fail("version", f"expected a string or null, found {_type_name(version)}")
    items: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    for k, item in enumerate(r.array(doc["items"], "items")):
        where = f"items[{k}]"
        item = r.mapping(item, where)
        extra = [key for key in item if key not in ("id", "metrics", "detail")]
        if extra:
            raise r.fail(where, f"unknown key {extra[0]!r}; expected id, metrics, detail")
        ident = r.key(item, "id", where)
        if not isinstance(ident, str):
            raise r.fail(f"{where}.id", f"expected a string, found {_type_name(ident)}")
        if ident in items:
            raise r.fail(f"{where}.id", f"item {ident!r} appears twice")
        metrics = r.mapping(r.key(item, "metrics", where), f"{where}.metrics")
        items[ident] = {
            metric: r.number(value, f"{where}.metrics.{metric}")  # type: ignore[misc]
            for metric, value in metrics.items()
        }
        detail = r.mapping(r.key(item, "detail", where), f"{where}.detail")
        if detail:
            details[ident] = dict(detail)
    totals = {
        key: r.number(value, f"totals.{key}")
        for key, value in r.mapping(doc["totals"], "totals").items()
    }
    return Result(
        kind,
        system if name is None else name,
        items,
        totals,  # type: ignore[arg-type]
        r.path,
        inputs=dict(r.mapping(doc["inputs"], "inputs")),
        options=dict(r.mapping(doc["options"], "options")),
        version=version,
        details=details,
        dataset=dict(r.mapping(doc["dataset"], "dataset")),
    )


def results_from_json(
    doc: Any, *, name: str | None = None, path: str | Path | None = None
) -> list[Result]:
    """Every system in one parsed result document (several for a multi-model sequence JSON).

    ``name`` overrides the system name: an envelope's ``system``, else ``path``'s stem (or
    ``result`` without a path).
    """
    where_path = None if path is None else str(path)
    r = _Reader(where_path)
    if is_envelope(doc):
        return [_envelope(doc, r, name)]
    kind = detect_kind(doc)
    if kind is None:
        found = (
            f"found keys {', '.join(sorted(map(str, doc))[:8]) or '(none)'}"
            if isinstance(doc, dict)
            else f"found {_type_name(doc)}"
        )
        raise InputError(f"not a parsescore result: {_EXPECTED}; {found}", path=where_path)
    if name is None:
        name = "result" if path is None else Path(path).stem
    if kind == "sequence" and not _is_sequence_block(doc):
        return [
            Result(kind, f"{name}:{model}", path=where_path, **_sequence(block, r, f"{model}."))
            for model, block in doc.items()
        ]
    reader = {"flowchart": _flowchart, "table": _table, "graph": _graph}.get(kind)
    fields = _sequence(doc, r, "") if reader is None else reader(doc, r)
    return [Result(kind, name, path=where_path, **fields)]


def result_from_json(
    doc: Any, *, name: str | None = None, path: str | Path | None = None
) -> Result:
    """The one system in a parsed result document (a multi-model sequence JSON is an error)."""
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
    """Load a result envelope or one kind's ``--out`` JSON as a :class:`Result`.

    It is named ``name``, else the envelope's ``system``, else the file's stem.

    >>> load_result("table.json").items["PMC1.png"]["TEDS"]  # doctest: +SKIP
    0.93
    """
    path = Path(path)
    return result_from_json(load_json(path), name=name, path=path)


def load_results(path: str | Path, *, name: str | None = None) -> list[Result]:
    """Load every system of a result file: one Result, or one per model (``stem:model``)."""
    path = Path(path)
    return results_from_json(load_json(path), name=name, path=path)


def concat_dataframes(results: Iterable[Result]) -> pd.DataFrame:
    """All results' DataFrames stacked (one row per system and item)."""
    return _pandas().concat([result.to_dataframe() for result in results], ignore_index=True)
