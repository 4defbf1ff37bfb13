"""Breakdowns: a result's totals per value of an item attribute (``--by FIELD``, ``by=``).

Items carry attributes (``Result.attributes``): what each item is — a table's structure
(simple or complex, as PubTabNet splits them), a diagram's size bin, a page's language — as its
kind declares them (``Kind.attributes``), or a user's own labels from a CSV file (an ``id``
column, then one column per attribute). Each value's totals are computed from the items that
have it with the metrics' declared aggregation (:func:`parsescore.core.aggregate.total`), so
a pooled or micro statistic breaks down as itself, not as a mean; numbers that are not built from
items (``Dataset``) break down only where the kind recomputes them on a subset
(``Kind.subset_totals``).

>>> from parsescore.core.kinds import Mean, Metric
>>> from parsescore.core.results import Result
>>> result = Result("demo", "a", {"t1": {"s": 1.0}, "t2": {"s": 0.5}, "t3": {"s": 0.0}},
...                 attributes={"t1": {"size": "small"}, "t2": {"size": "large"},
...                             "t3": {"size": "large"}})
>>> breakdown(result, "size", [Metric("s", "score", True)])
{'small': {'items': 1.0, 's': 1.0}, 'large': {'items': 2.0, 's': 0.25}}
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from parsescore.core.aggregate import count_names, total
from parsescore.core.errors import InputError
from parsescore.core.kinds import Dataset, Metric
from parsescore.core.results import Result

__all__ = [
    "NO_VALUE",
    "breakdown",
    "groups",
    "read_attributes",
    "with_attribute_source",
    "with_attributes",
    "with_breakdowns",
]

#: The value of an item that lacks the attribute (so that every item is counted somewhere).
NO_VALUE = "(none)"


def _fields(result: Result) -> list[str]:
    seen: dict[str, None] = {}
    for values in result.attributes.values():
        for name in values:
            seen.setdefault(name, None)
    return list(seen)


def groups(result: Result, field: str, order: Sequence[str] = ()) -> dict[str, tuple[str, ...]]:
    """``{value: item ids}`` of ``field``, values in ``order`` first, then as items show them;
    items without the attribute under :data:`NO_VALUE`. An attribute no item has is an
    InputError naming the ones they have."""
    if not any(field in values for values in result.attributes.values()):
        known = ", ".join(_fields(result)) or "(none: give --attributes FILE.csv)"
        raise InputError(f"no {result.kind} item has the attribute {field!r}; attributes: {known}")
    found: dict[str, list[str]] = {value: [] for value in order}
    for item in result.items:
        value = result.attributes.get(item, {}).get(field, NO_VALUE)
        found.setdefault(value, []).append(item)
    return {value: tuple(items) for value, items in found.items() if items}


def breakdown(
    result: Result,
    field: str,
    metrics: Sequence[Metric],
    order: Sequence[str] = (),
    subset: Callable[[Result, Sequence[str]], Mapping[str, float]] | None = None,
) -> dict[str, dict[str, float]]:
    """``{value: {"items": n, total: value}}``: each value's totals of ``metrics`` over its
    items, as each metric aggregates; numbers not built from items (``Dataset``) come from the
    kind's ``subset`` recomputation (``Kind.subset_totals``), or are left out without one."""
    out: dict[str, dict[str, float]] = {}
    for value, items in groups(result, field, order).items():
        totals: dict[str, float] = {"items": float(len(items))}
        recomputed: Mapping[str, float] | None = None
        for metric in metrics:
            if isinstance(metric.aggregate, Dataset):
                if subset is None:
                    continue
                if recomputed is None:
                    recomputed = subset(result, items)
                if metric.name in recomputed:
                    totals[metric.name] = recomputed[metric.name]
                continue
            needed = count_names(metric.aggregate)
            if needed and not any(
                name in result.counts.get(item, {}) for item in items for name in needed
            ):
                continue  # no item of this value carries the counts: no such statistic
            number = total(metric, result.items, result.counts, only=items)
            if number is not None:
                totals[metric.name] = number
        out[value] = totals
    return out


def read_attributes(path: str | Path) -> dict[str, dict[str, str]]:
    """A user's attribute file: CSV with an ``id`` column (the item ids of the results) and one
    column per attribute; an empty cell means the item lacks that attribute."""
    from parsescore.core.files import read_text

    text = read_text(path)
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if not header or header[0].strip().lower() != "id" or len(header) < 2:
        raise InputError(
            "expected a CSV whose first column is 'id', then one column per attribute",
            path=path,
            where="line 1",
        )
    names = [name.strip() for name in header[1:]]
    if len(set(names)) != len(names) or not all(names):
        raise InputError(
            "attribute names must be distinct and non-empty", path=path, where="line 1"
        )
    found: dict[str, dict[str, str]] = {}
    for number, row in enumerate(reader, start=2):
        if not row:
            continue
        if len(row) != len(header):
            raise InputError(
                f"expected {len(header)} cells (id, {', '.join(names)}), found {len(row)}",
                path=path,
                where=f"line {number}",
            )
        if row[0] in found:
            raise InputError(f"item {row[0]!r} appears twice", path=path, where=f"line {number}")
        found[row[0]] = {name: cell for name, cell in zip(names, row[1:], strict=True) if cell}
    return found


def with_attributes(
    result: Result, extra: Mapping[str, Mapping[str, str]], *, source: str = "the attribute file"
) -> Result:
    """``result`` with a user's attributes added to its items' (the user's win on a clash).
    Ids that match no scored item are ignored with a warning (a file may cover more items than
    one run scores; a typo shows there)."""
    unknown = [item for item in extra if item not in result.items]
    merged = {item: dict(values) for item, values in result.attributes.items()}
    for item, values in extra.items():
        if item in result.items and values:
            merged.setdefault(item, {}).update(values)
    warnings = result.warnings
    if unknown:
        shown = ", ".join(unknown[:5]) + (
            f", ... and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        )
        warnings += (f"{len(unknown)} ids of {source} match no scored item (ignored): {shown}",)
    return replace(result, attributes=merged, warnings=warnings)


def with_attribute_source(
    results: Sequence[Result], source: str | Path | Mapping[str, Mapping[str, str]]
) -> list[Result]:
    """``results`` with a user's attributes (``--attributes FILE.csv``, read once, or an
    ``{item: {attribute: value}}`` mapping) added to each (:func:`with_attributes`)."""
    if isinstance(source, Mapping):
        return [with_attributes(r, source, source="the attributes given") for r in results]
    labels = read_attributes(source)
    return [with_attributes(r, labels, source=str(source)) for r in results]


def with_breakdowns(result: Result, fields: Sequence[str]) -> Result:
    """``result`` with the breakdown of its kind's totals by each of ``fields`` in
    ``dataset["breakdown"]`` (``{field: {value: {"items": n, total: value}}}``)."""
    from parsescore.core.kinds import get_kind

    if not fields:
        return result
    kind = get_kind(result.kind)
    declared = {attribute.name: attribute.values for attribute in kind.attributes}
    found = {
        field: breakdown(result, field, kind.totals, declared.get(field, ()), kind.subset_totals)
        for field in fields
    }
    return replace(result, dataset=result.dataset | {"breakdown": found})
