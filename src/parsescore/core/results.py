"""One system's scores on one dataset (:class:`Result`), and reading any result file back.

A :class:`Result` is what :func:`parsescore.evaluate` returns and what every dataset command writes:
``items`` maps each scored item (a diagram, a file, a class, ...) to its numbers, so that systems
scored on the same dataset can be compared item by item (:mod:`parsescore.core.compare`), exported
as a DataFrame or a CSV, or drawn in the report. Which metrics a kind has, and which way each is
better, is declared by the kind (:class:`parsescore.core.kinds.Metric`; :func:`higher_is_better`
reads it).

A missing value (``null`` in a kind's JSON, e.g. a localisation score without boxes) means "not
measured for that item" and is left out of that item's metrics.

Besides the numbers, a :class:`Result` keeps how they were made (``inputs``, ``options``,
``version``), a JSON-ready drill-down record per item (``details``) and dataset-level facts
(``dataset``). :meth:`Result.write` writes all of it as the common *result envelope* (``--result
FILE`` of every dataset command, ``parsescore schema result``), which :func:`load_result` reads
back unchanged::

    {"parsescore_result": 1, "version": "0.1.0", "kind": "<kind>", "system": "run1",
     "inputs": {...}, "options": {...},
     "items": [{"id": "item1", "metrics": {"<metric>": 0.93}, "counts": {...}, "detail": {}}],
     "totals": {"<metric>": 0.93}, "dataset": {...}}

:func:`load_result` also reads each kind's native ``--out`` document (the kind recognises and
reads its own).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from parsescore import __version__
from parsescore.core.errors import InputError
from parsescore.core.files import csv_rows, csv_text, dump_json, load_json, write_json, write_text
from parsescore.core.kinds import get_kind, kind_names, kinds

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ENVELOPE_KEY",
    "ENVELOPE_VERSION",
    "Reader",
    "Result",
    "concat_dataframes",
    "detect_kind",
    "higher_is_better",
    "is_envelope",
    "load_result",
    "load_results",
    "load_systems",
    "result_from_json",
    "results_from_json",
    "system_names",
    "type_name",
    "write_result",
]

#: The key that marks a result envelope, and the one envelope format version this code reads.
ENVELOPE_KEY = "parsescore_result"
ENVELOPE_VERSION = 1


def higher_is_better(kind: str, metric: str) -> bool:
    """Whether a larger ``metric`` is better for results of ``kind``, as the kind declares it.

    A metric the kind does not declare, or one that is not ranked (a count), is an InputError:
    nothing is ranked in a direction nobody declared.
    """
    declared = get_kind(kind).metric(metric)
    if declared.higher_is_better is None:
        raise InputError(f"{kind} {metric!r} is a count, not a score; it has no direction")
    return declared.higher_is_better


@dataclass(frozen=True)
class Result:
    """One system's scores on one dataset, item by item; the in-memory form of the envelope.

    Attributes:
        kind: the kind's name (:func:`parsescore.core.kinds.kind_names`).
        name: the system's name (default: an envelope's ``system``, else the result file's
            stem; ``stem:model`` for one system of a file holding several).
        items: ``{item_id: {metric: value}}`` in the dataset's order.
        totals: the dataset-level numbers, flattened to ``{name: value}`` (as the kind
            computes them: e.g. micro-averaged or summed-then-divided, not the item mean).
        path: the file it was loaded from (None when built in memory). Where a result was
            read from is not part of its value: two results differing only in ``path`` are equal.
        inputs: what was scored, as given (e.g. ``{"truth": ..., "pred": ...}`` paths, or git
            ``{"repo", "truth_ref", "pred_ref"}``).
        options: the scoring options that change the numbers (distance, structure-only
            headline, ignored tags, alignment mode, threshold, ...).
        version: the parsescore version that wrote it (None when the document does not say).
        details: ``{item_id: record}``: each item's JSON-ready drill-down (node pairs, missing
            edges, counted differences, tp/fp/fn, ...), without the numbers already in ``items``;
            an item without one has no entry (the envelope writes ``"detail": {}``).
        dataset: dataset-level facts that are not totals (missing or extra predictions,
            integrity checks, ...).
        counts: ``{item_id: {count: value}}``: the counts behind an item's metrics (tp/fp/fn,
            errors/elements, ...) that totals, intervals and breakdowns of summed-count metrics
            are built from (:mod:`parsescore.core.aggregate`); an item without any has no entry.
        attributes: ``{item_id: {attribute: value}}``: what an item is (a table's structure,
            a diagram's size bin, a page's language, or a user's own labels), by which totals
            and comparisons break down (:mod:`parsescore.core.breakdown`, ``--by``).
        native: the kind's own ``--out`` document for this result (what the reference's format
            fixes), when it was scored in this process; not part of the envelope.
        computed: the kind's own result object (its matches, its batch scores), when scored in
            this process; not part of the envelope.
        warnings: what the user should know about the inputs (e.g. predictions the reference's
            rule scores 0 because they are written in another format); in the envelope when
            there are any.
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
    counts: dict[str, dict[str, float]] = field(default_factory=dict)
    attributes: dict[str, dict[str, str]] = field(default_factory=dict)
    native: Any = field(default=None, compare=False, repr=False)
    computed: Any = field(default=None, compare=False, repr=False)
    warnings: tuple[str, ...] = ()

    def __repr__(self) -> str:
        """One short line (kind, system, item count, headline totals): a REPL shows this, not
        the tens of kB of every item's detail (the attributes hold them)."""
        try:
            headline = get_kind(self.kind).headline_totals()
        except InputError:  # a kind no longer registered: still a readable line
            headline = ()
        shown = ", ".join(
            f"{m.name}={m.show(self.totals[m.name])}" for m in headline if m.name in self.totals
        )
        return (
            f"Result(kind={self.kind!r}, name={self.name!r}, items={len(self.items)}"
            + (f", {shown}" if shown else "")
            + ")"
        )

    def nouns(self) -> tuple[str, str]:
        """The noun of one item and its plural: the kind's (``Kind.item``/``items``), unless the
        result says its items are of another sort (``dataset["nouns"]``: a graph dataset's
        items are documents, a single graph's its node classes and edge labels)."""
        nouns = self.dataset.get("nouns")
        if (
            isinstance(nouns, list | tuple)
            and len(nouns) == 2
            and all(isinstance(n, str) for n in nouns)
        ):
            return nouns[0], nouns[1]
        kind = get_kind(self.kind)
        return kind.item, kind.items

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

    def to_csv(self) -> str:
        """One row per item: an ``id`` column, then one column per metric (``--csv``).

        Values are written exactly (``repr`` of the float, which reads back to the same
        number); a metric an item does not have is an empty cell. Text cells (the ids, the
        header) are made inert for spreadsheets (:func:`parsescore.core.files.csv_text`: a
        leading ``'`` before ``= + - @``, a tab or a carriage return); numbers stay numbers.
        """
        metrics = self.metrics()
        rows = [[csv_text(cell) for cell in ("id", *metrics)]]
        for item, values in self.items.items():
            rows.append(
                [csv_text(item), *(repr(values[m]) if m in values else "" for m in metrics)]
            )
        return csv_rows(rows)

    def to_json(self) -> dict[str, Any]:
        """The result envelope (``parsescore schema result``): same result, same JSON.

        Keys come in a fixed order and floats are not rounded; there is no timestamp, so that
        the same scores always give the same bytes. ``warnings`` is written only when there are
        any.
        """
        envelope: dict[str, Any] = {
            ENVELOPE_KEY: ENVELOPE_VERSION,
            "version": self.version,
            "kind": self.kind,
            "system": self.name,
            "inputs": self.inputs,
            "options": self.options,
            "items": [self._item_record(item, metrics) for item, metrics in self.items.items()],
            "totals": self.totals,
            "dataset": self.dataset,
        }
        if self.warnings:
            envelope["warnings"] = list(self.warnings)
        return envelope

    def _item_record(self, item: str, metrics: dict[str, float]) -> dict[str, Any]:
        record: dict[str, Any] = {"id": item, "metrics": metrics}
        if item in self.counts:
            record["counts"] = self.counts[item]
        if item in self.attributes:
            record["attributes"] = self.attributes[item]
        record["detail"] = self.details.get(item, {})
        return record

    def write(self, path: str | Path) -> Path:
        """Write the envelope to ``path`` atomically; :func:`load_result` reads it back."""
        return write_result(path, self)

    def write_csv(self, path: str | Path) -> Path:
        """Write :meth:`to_csv` to ``path`` atomically."""
        path = Path(path)
        write_text(path, self.to_csv())
        return path

    def write_native(self, path: str | Path) -> Path:
        """Write the kind's own ``--out`` document (only for a result scored in this process)."""
        if self.native is None:
            raise InputError(
                f"result {self.name!r} holds no native {self.kind} document (it was loaded from a "
                "file, not scored here); write the envelope with write() instead"
            )
        path = Path(path)
        write_json(path, self.native)
        return path


def write_result(path: str | Path, result: Result) -> Path:
    """Write ``result`` as an envelope, atomically."""
    path = Path(path)
    write_text(path, dump_json(result.to_json()))
    return path


def _pandas() -> Any:
    """pandas, imported only when a DataFrame is asked for (it is an optional extra)."""
    try:
        import pandas
    except ImportError:
        raise ImportError(
            "DataFrame export needs pandas: pip install 'parsescore[pandas]' (or pandas)"
        ) from None
    return pandas


def system_names(paths: Sequence[Path]) -> list[str]:
    """Each file's stem, with as many parent folders as it takes to tell different files apart.

    ``runs/a/eval.json`` and ``runs/b/eval.json`` become ``a/eval`` and ``b/eval``; the same file
    given twice gets ``#2``.

    >>> system_names([Path("runs/a/eval.json"), Path("runs/b/eval.json")])
    ['a/eval', 'b/eval']
    """
    keys = [path.with_suffix("").parts or (str(path),) for path in paths]
    names = []
    for key in keys:
        others = {other for other in keys if other != key}
        depth = 1
        while depth < len(key) and any(other[-depth:] == key[-depth:] for other in others):
            depth += 1
        names.append(str(PurePath(*key[-depth:])))
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return unique


# -- reading ------------------------------------------------------------------------------------


class Reader:
    """Checks values while a document is walked, naming the key path of anything wrong."""

    def __init__(self, path: str | None) -> None:
        self.path = path

    def fail(self, where: str, message: str) -> InputError:
        return InputError(message, path=self.path, where=where)

    def mapping(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected a JSON object, found {type_name(value)}")
        return value

    def array(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a JSON array, found {type_name(value)}")
        return value

    def number(self, value: Any, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(where, f"expected a number, found {type_name(value)}")
        number = float(value)
        if not math.isfinite(number):
            raise self.fail(where, f"expected a finite number, found {value!r}")
        return number

    def optional_number(self, value: Any, where: str) -> float | None:
        return None if value is None else self.number(value, where)

    def string(self, value: Any, where: str) -> str:
        if not isinstance(value, str):
            raise self.fail(where, f"expected a string, found {type_name(value)}")
        return value

    def key(self, doc: Mapping[str, Any], name: str, where: str) -> Any:
        if name not in doc:
            raise self.fail(where, f"missing key {name!r}")
        return doc[name]


def type_name(value: Any) -> str:
    """How a JSON value is named in error messages (``a string``, ``an array``, ``null``)."""
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


def is_envelope(doc: Any) -> bool:
    """Whether ``doc`` is a result envelope (:meth:`Result.to_json`), whatever its version."""
    return isinstance(doc, dict) and ENVELOPE_KEY in doc


def detect_kind(doc: Any) -> str | None:
    """The kind whose result document ``doc`` is (None if none matches).

    An envelope, or any document with a ``kind`` string, names its kind; any other document is
    asked of every kind in turn.
    """
    if not isinstance(doc, dict):
        return None
    if is_envelope(doc) or isinstance(doc.get("kind"), str):  # a document naming its kind
        return doc["kind"] if doc.get("kind") in kind_names() else None
    for kind in kinds():
        if kind.detect(doc):
            return kind.name
    return None


def _expected() -> str:
    documents = ", ".join(kind.recognised for kind in kinds())
    return (
        f"expected a result envelope (key {ENVELOPE_KEY!r}, written by --result) or the --out "
        f"JSON of {documents}"
    )


#: The keys of an envelope's item record, in the order they are written.
_ITEM_KEYS = ("id", "metrics", "counts", "attributes", "detail")

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


def _envelope(doc: Mapping[str, Any], r: Reader, name: str | None) -> Result:
    """The :class:`Result` an envelope holds, every field checked (key paths in errors)."""
    format_version = doc[ENVELOPE_KEY]
    if format_version != ENVELOPE_VERSION or isinstance(format_version, bool):
        raise r.fail(
            ENVELOPE_KEY,
            f"unsupported result envelope version {format_version!r}; parsescore {__version__} "
            f"reads version {ENVELOPE_VERSION} (write it again with this parsescore's --result)",
        )
    unknown = [k for k in doc if k not in (*_ENVELOPE_KEYS, "warnings")]
    if unknown:
        raise r.fail(
            "top level",
            f"unknown key {unknown[0]!r}; expected {', '.join(_ENVELOPE_KEYS)} (and warnings)",
        )
    warnings = [
        r.string(w, f"warnings[{k}]")
        for k, w in enumerate(r.array(doc.get("warnings", []), "warnings"))
    ]
    for key in _ENVELOPE_KEYS:
        r.key(doc, key, "top level")
    kind = doc["kind"]
    if kind not in kind_names():
        raise r.fail("kind", f"unknown kind {kind!r}; expected one of {', '.join(kind_names())}")
    system = r.string(doc["system"], "system")
    version = doc["version"]
    if version is not None and not isinstance(version, str):
        raise r.fail("version", f"expected a string or null, found {type_name(version)}")
    items: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    counts: dict[str, dict[str, float]] = {}
    attributes: dict[str, dict[str, str]] = {}
    for k, item in enumerate(r.array(doc["items"], "items")):
        where = f"items[{k}]"
        item = r.mapping(item, where)
        extra = [key for key in item if key not in _ITEM_KEYS]
        if extra:
            raise r.fail(where, f"unknown key {extra[0]!r}; expected {', '.join(_ITEM_KEYS)}")
        ident = r.string(r.key(item, "id", where), f"{where}.id")
        if ident in items:
            raise r.fail(f"{where}.id", f"item {ident!r} appears twice")
        metrics = r.mapping(r.key(item, "metrics", where), f"{where}.metrics")
        items[ident] = {
            metric: r.number(value, f"{where}.metrics.{metric}")
            for metric, value in metrics.items()
        }
        if "counts" in item:  # whole counts stay integers, so the envelope round-trips
            counts[ident] = {
                name: value
                if isinstance(value, int) and not isinstance(value, bool)
                else r.number(value, f"{where}.counts.{name}")
                for name, value in r.mapping(item["counts"], f"{where}.counts").items()
            }
        if "attributes" in item:
            attributes[ident] = {
                name: r.string(value, f"{where}.attributes.{name}")
                for name, value in r.mapping(item["attributes"], f"{where}.attributes").items()
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
        totals,
        r.path,
        inputs=dict(r.mapping(doc["inputs"], "inputs")),
        options=dict(r.mapping(doc["options"], "options")),
        version=version,
        details=details,
        dataset=dict(r.mapping(doc["dataset"], "dataset")),
        counts=counts,
        attributes=attributes,
        warnings=tuple(warnings),
    )


def results_from_json(
    doc: Any, *, name: str | None = None, path: str | Path | None = None
) -> list[Result]:
    """Every system in one parsed result document (a kind's document may hold several).

    ``name`` overrides the system name: an envelope's ``system``, else ``path``'s stem (or
    ``result`` without a path).
    """
    where_path = None if path is None else str(path)
    r = Reader(where_path)
    if is_envelope(doc):
        return [_envelope(doc, r, name)]
    kind = detect_kind(doc)
    if kind is None and isinstance(doc, dict) and isinstance(doc.get("kind"), str):
        raise InputError(
            f"a result of kind {doc['kind']!r}, which is not registered; registered kinds: "
            f"{', '.join(kind_names())}",
            path=where_path,
        )
    if kind is None:
        found = (
            f"found keys {', '.join(sorted(map(str, doc))[:8]) or '(none)'}"
            if isinstance(doc, dict)
            else f"found {type_name(doc)}"
        )
        raise InputError(f"not a parsescore result: {_expected()}; {found}", path=where_path)
    if name is None:
        name = "result" if path is None else Path(path).stem
    return get_kind(kind).read(doc, r, name)


def result_from_json(
    doc: Any, *, name: str | None = None, path: str | Path | None = None
) -> Result:
    """The one system in a parsed result document (a document of several is an error)."""
    results = results_from_json(doc, name=name, path=path)
    if len(results) != 1:
        systems = ", ".join(result.name.split(":", 1)[-1] for result in results)
        raise InputError(
            f"holds {len(results)} systems ({systems}); use load_results() to get one "
            "Result per system",
            path=None if path is None else str(path),
        )
    return results[0]


def load_result(path: str | Path, *, name: str | None = None) -> Result:
    """Load a result envelope or one kind's ``--out`` JSON as a :class:`Result`.

    It is named ``name``, else the envelope's ``system``, else the file's stem.

    ::

        load_result("result.json").items["item1"]  # {'<metric>': 0.93}
    """
    path = Path(path)
    return result_from_json(load_json(path), name=name, path=path)


def load_results(path: str | Path, *, name: str | None = None) -> list[Result]:
    """Load every system of a result file: one Result, or one per model (``stem:model``)."""
    path = Path(path)
    return results_from_json(load_json(path), name=name, path=path)


def load_systems(paths: Sequence[Path], names: Sequence[str] | None = None) -> list[Result]:
    """Every system in the given result files, named by ``names`` (one per file) or by
    :func:`system_names`; a file holding several systems gives each (``name:system``)."""
    if names:
        if len(names) != len(paths):
            raise InputError(
                f"--name given {len(names)} times for {len(paths)} result files; give it once "
                "per file, in the same order"
            )
        labels = list(names)
    else:
        labels = system_names(paths)
    results: list[Result] = []
    for path, label in zip(paths, labels, strict=True):
        results.extend(load_results(path, name=label))
    return results


def concat_dataframes(results: Iterable[Result]) -> pd.DataFrame:
    """All results' DataFrames stacked (one row per system and item)."""
    return _pandas().concat([result.to_dataframe() for result in results], ignore_index=True)
