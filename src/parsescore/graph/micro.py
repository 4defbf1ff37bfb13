"""Micro scores from the items' counts, computed by the core from the totals' declarations
(:data:`parsescore.graph.kind.TOTALS`, :func:`parsescore.core.aggregate.totals`).

An item (a node class or edge label of one document; a document of a dataset) carries its
tp/fp/fn per rung as counts (``node_strict_tp``, ...). eval.json's ``micro`` (and a dataset's)
is those counts summed with P/R/F1 as the core computes them, rounded as eval.json rounds them;
reading a document back computes the result's totals from the same counts with the same
function, so that the two never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parsescore.core.aggregate import summed_counts, total, totals
from parsescore.graph.kind import RUNGS, SCORES, SECTIONS, TOTALS, count_name

__all__: list[str] = []  # internal: the kind's own machinery

Counts = dict[str, dict[str, float]]

#: The totals by name.
_TOTAL = {metric.name: metric for metric in TOTALS}
_COUNTS = ("tp", "fp", "fn")


def entry_counts(prefix: str, entry: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """An eval.json entry's ``{rung: {tp, fp, fn, ...}}`` as counts (``node_strict_tp``, ...)."""
    return {
        count_name(prefix, rung, count): scores[count]
        for rung, scores in entry.items()
        for count in _COUNTS
    }


def with_rungs(counts: Mapping[str, float], rungs: Sequence[str]) -> dict[str, float]:
    """One document's counts for the rungs of its dataset: a rung the document lacks
    (``aligned``: alignment paired nothing there) counts as its ``relaxed``."""
    found: dict[str, float] = {}
    for _, prefix in SECTIONS:
        for rung in rungs:
            for count in _COUNTS:
                name = count_name(prefix, rung, count)
                found[name] = (
                    counts[name] if name in counts else counts[f"{prefix}_relaxed_{count}"]
                )
    return found


def document_counts(
    reports: Mapping[str, Mapping[str, Any]],
) -> tuple[Counts, list[str]]:
    """The counts of a dataset's documents (``{id: eval.json}``) and the dataset's rungs: the
    ``aligned`` rung when some document has it (:func:`with_rungs` of each document's micro)."""
    rungs = [r for r in RUNGS if any(r in report["micro"]["nodes"] for report in reports.values())]
    counts = {}
    for item, report in reports.items():
        found: dict[str, float] = {}
        for section, prefix in SECTIONS:
            found |= entry_counts(prefix, report["micro"][section])
        counts[item] = with_rungs(found, rungs)
    return counts, rungs


def micro(counts: Counts, rungs: Sequence[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """eval.json's ``micro``: per section and rung, tp/fp/fn summed over the items of
    ``counts`` and precision, recall and F1 of the sums (the totals' declarations, rounded as
    eval.json rounds them).

    The counts are summed once (:func:`~parsescore.core.aggregate.summed_counts`) and each
    score is the core's total of that one sum: integer counts sum exactly in any grouping, so
    this is the total over the items, without summing them again for every score."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for section, prefix in SECTIONS:
        names = [count_name(prefix, rung, count) for rung in rungs for count in _COUNTS]
        summed = {"all": dict(zip(names, summed_counts(counts, names, list(counts)), strict=True))}
        found[section] = {}
        for rung in rungs:
            entry: dict[str, Any] = {
                c: int(summed["all"][count_name(prefix, rung, c)]) for c in _COUNTS
            }
            for short, score in SCORES.items():
                entry[short] = total(_TOTAL[f"{prefix}_{rung}_{score}"], {}, summed, only=["all"])
            found[section][rung] = entry
    return found


def totals_of(
    items: Mapping[str, Mapping[str, float]],
    counts: Counts,
    rungs: Sequence[str],
    given: Mapping[str, float],
) -> dict[str, float]:
    """The result's totals, in eval.json's order: the micro P/R/F1 of ``rungs`` per section
    (a rung no item has gets none), then the dataset numbers ``given`` (verbatim ratio,
    readable)."""
    chosen = [
        _TOTAL[f"{prefix}_{rung}_{score}"]
        for _, prefix in SECTIONS
        for rung in rungs
        for score in SCORES.values()
    ]
    chosen += [m for m in TOTALS if not m.name.startswith(("node_", "edge_"))]
    return totals(chosen, items, counts, given=given)
