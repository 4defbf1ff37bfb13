"""Checks every kind's attribute tests make (tests/<kind>/test_<kind>_attributes.py): a
breakdown's totals for a value are the totals of scoring only that value's items; ``compare
--by`` compares within each value as a comparison of those items alone; the attributes travel
in the envelope and, where the document holds them, in the kind's ``--out``."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from cli_helpers import Cli
from parsescore.core.aggregate import totals
from parsescore.core.compare import compare_by, compare_results
from parsescore.core.kinds import Dataset, get_kind
from parsescore.core.results import Result, load_result

#: Small bootstrap and permutation counts: the comparisons are checked for equality, not size.
SETTINGS = {"n_resamples": 200, "n_permutations": 200, "seed": 5}
FLAGS = ("--resamples", "200", "--permutations", "200", "--seed", "5")


def values_of(result: Result, field: str) -> dict[str, list[str]]:
    """``{value: item ids}`` of ``field``, from the items' attributes (in item order)."""
    found: dict[str, list[str]] = {}
    for item in result.items:
        value = result.attributes.get(item, {}).get(field)
        if value is not None:
            found.setdefault(value, []).append(item)
    return found


def check_breakdown_is_the_subsets_totals(
    result: Result, field: str, score_only: Callable[[list[str]], Result]
) -> dict[str, dict[str, float]]:
    """Each value's totals in ``result.dataset["breakdown"][field]`` are those of scoring only
    its items (``score_only``): every total built from items, and the number of items. Returns
    the breakdown."""
    kind = get_kind(result.kind)
    found = result.dataset["breakdown"][field]
    groups = values_of(result, field)
    declared = next(a.values for a in kind.attributes if a.name == field)
    assert list(found) == [v for v in declared if v in groups] + [
        v for v in groups if v not in declared
    ]  # the declared order first
    itemised = [m.name for m in kind.totals if not isinstance(m.aggregate, Dataset)]
    for value, items in groups.items():
        alone = score_only(items)
        assert sorted(alone.items) == sorted(items), value
        assert found[value]["items"] == len(items)
        compared = [name for name in found[value] if name != "items"]
        assert compared, f"{field} = {value}: no totals"
        assert set(compared) <= set(itemised)
        # the subset's totals as its result has them, and (for totals a kind declares beyond
        # those, e.g. sequence's Figure 6/7 rates) as the declarations compute them on it
        declared_totals = totals(kind.totals, alone.items, alone.counts)
        for name in compared:
            expected = alone.totals.get(name, declared_totals.get(name))
            assert found[value][name] == expected, (value, name)
        assert {n for n in itemised if n in alone.totals} <= set(compared), value
    return found


def check_compare_by(results: Sequence[Result], field: str, tmp_path: Path, cli: Cli) -> None:
    """``compare_by`` and ``parsescore compare --by`` (on saved envelopes) give, per value, the
    comparison of that value's items alone."""
    per_value = compare_by(list(results), field, **SETTINGS)  # type: ignore[arg-type]
    groups = values_of(results[0], field)
    assert set(per_value) == set(groups)
    for value, items in groups.items():
        subsets = [
            replace(
                r,
                items={i: m for i, m in r.items.items() if i in items},
                counts={i: c for i, c in r.counts.items() if i in items},
            )
            for r in results
        ]
        alone = compare_results(subsets, **SETTINGS)  # type: ignore[arg-type]
        assert per_value[value].to_json() == alone.to_json(), value
    paths = []
    for result in results:  # the command names a system by its file's stem
        path = tmp_path / f"{result.name}.json"
        result.write(path)
        paths.append(path)
    out = tmp_path / f"by-{field}.json"
    run = cli("compare", *paths, "--by", field, *FLAGS, "--out", out)
    assert run.code == 0, run.err
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["by"] == field and list(doc["groups"]) == list(per_value)
    for value, comparison in per_value.items():
        assert doc["groups"][value] == comparison.to_json()
        assert f"{field} = {value}" in run.out


def check_envelope_round_trip(result: Result, tmp_path: Path) -> Result:
    """The envelope (``--result``) carries the attributes back, and with them the breakdown."""
    path = tmp_path / "envelope.json"
    result.write(path)
    loaded = load_result(path)
    assert loaded.attributes == result.attributes
    assert loaded.attributes, "no attributes to carry"
    return loaded


def native_round_trip(result: Result, tmp_path: Path) -> list[Result]:
    """The results of the kind's ``--out`` document read back."""
    from parsescore.core.results import load_results

    path = tmp_path / "native.json"
    result.write_native(path)
    return load_results(path)
