"""A kind from outside parsescore, as another package would write it: "text" scores the character
error rate (CER) of predicted plain-text files against truth files of the same name.

It is the worked example of docs/kinds.md ("Add a kind"): the tests install it through the
entry-point group ``parsescore.kinds`` (``text = parsescore_textkind:KIND``) and run it end to end
(CLI, evaluate, compare, report), or register :data:`KIND` in-process. It uses only parsescore's
public parts: the kind contract, the options model, the aggregations, ``Result``, the schema
helpers and the report's HTML helpers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rapidfuzz.distance import Levenshtein
from rich.console import Console

from parsescore.core.aggregate import totals
from parsescore.core.errors import InputError
from parsescore.core.kinds import (
    Attribute,
    CommandParts,
    Items,
    Kind,
    Mean,
    Metric,
    Ratio,
    ReportParts,
)
from parsescore.core.options import NamedOptions, option, recorded_options
from parsescore.core.results import Reader, Result
from parsescore.core.schema import COUNT, NUMBER, STRING, map_of, record, ref
from parsescore.report.html import System, e, html_table, item_summary

__all__ = ["KIND", "TextOptions", "character_error_rate", "evaluate"]


@dataclass(frozen=True)
class TextOptions(NamedOptions):
    """The text kind's options: each a flag of ``parsescore text`` and a keyword of
    ``parsescore.evaluate("text", ...)``."""

    ignore_case: bool = option(False, "Compare the texts case-folded.", scores=True)


def character_error_rate(truth: str, pred: str) -> tuple[float, int]:
    """(edit distance / truth length, edit distance); an empty truth has CER 0 or 1."""
    distance = Levenshtein.distance(truth, pred)
    if not truth:
        return (0.0 if not pred else 1.0), distance
    return distance / len(truth), distance


METRICS = (Metric("cer", "CER", False, headline=True),)
TOTALS = (
    Metric("cer", "CER (pooled)", False, headline=True, aggregate=Ratio("edits", "chars")),
    Metric("cer_mean", "CER (mean per file)", False, aggregate=Mean(of="cer")),
    Metric("files", "files", None, "count", aggregate=Items()),
)


def evaluate(truth: str | Path, pred: str | Path, options: TextOptions) -> Result:
    """CER of every ``*.txt`` of ``truth`` against the same-named file of ``pred``."""
    truth, pred = Path(truth), Path(pred)
    if not truth.is_dir():
        raise InputError("expected a folder of .txt files", path=truth)
    items: dict[str, dict[str, float]] = {}
    counts: dict[str, dict[str, float]] = {}
    attributes: dict[str, dict[str, str]] = {}
    for path in sorted(truth.glob("*.txt")):
        expected = path.read_text(encoding="utf-8")
        other = pred / path.name
        got = other.read_text(encoding="utf-8") if other.is_file() else ""
        if options.ignore_case:
            expected, got = expected.casefold(), got.casefold()
        cer, distance = character_error_rate(expected, got)
        items[path.stem] = {"cer": cer}
        counts[path.stem] = {"edits": distance, "chars": len(expected)}
        attributes[path.stem] = {"length": "short" if len(expected) < 10 else "long"}
    total = totals(TOTALS, items, counts)
    native = {
        "kind": "text",
        "files": [{"name": i, "cer": items[i]["cer"], **counts[i]} for i in items],
        "totals": total,
    }
    return Result(
        "text",
        options.name or pred.name,
        items,
        total,
        inputs={"truth": str(truth), "pred": str(pred)},
        options=recorded_options(options),
        counts=counts,
        attributes=attributes,
        native=native,
    )


def read(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The result of a ``parsescore text --out`` document."""
    items, counts = {}, {}
    for k, file in enumerate(r.array(r.key(doc, "files", "top level"), "key 'files'")):
        where = f"files[{k}]"
        file = r.mapping(file, where)
        ident = r.string(r.key(file, "name", where), f"{where}.name")
        items[ident] = {"cer": r.number(r.key(file, "cer", where), f"{where}.cer")}
        counts[ident] = {
            key: r.number(r.key(file, key, where), f"{where}.{key}") for key in ("edits", "chars")
        }
    return [Result("text", name, items, totals(TOTALS, items, counts), r.path, counts=counts)]


def schema_defs() -> dict[str, dict[str, Any]]:
    return {
        "text": record(
            {
                "kind": {"const": "text"},
                "files": {"type": "array", "items": ref("text_file")},
                "totals": map_of(NUMBER),
            }
        ),
        "text_file": record({"name": STRING, "cer": NUMBER, "edits": COUNT, "chars": COUNT}),
        "text_detail": record({}),
        "text_dataset": {"type": "object"},
    }


def summarise(result: Result, out: Console) -> None:
    """One line from the result alone (a loaded envelope prints the same)."""
    out.print(
        f"CER {result.totals['cer']:.4f} (pooled) over {len(result.items)} files", highlight=False
    )


def drilldown(system: System, items: Sequence[str]) -> str:
    rows = [
        [item_summary(system, item), e(system.result.counts.get(item, {}).get("edits"))]
        for item in items
    ]
    return (
        '<div class="text-kind">' + html_table([("file", False), ("edits", True)], rows) + "</div>"
    )


KIND = Kind(
    name="text",
    title="Plain texts",
    item="text file",
    items="text files",
    metrics=METRICS,
    totals=TOTALS,
    totals_note="text CER is all edits over all truth characters",
    evaluate=evaluate,
    read=read,
    detect=lambda doc: doc.get("kind") == "text",
    documents={"text": "parsescore text --out"},
    recognised="`parsescore text` (keys kind, files)",
    schema=schema_defs,
    report=ReportParts(prepare=None, plots=None, drilldown=drilldown),
    summarise=summarise,
    options=TextOptions,
    attributes=(Attribute("length", "short (under 10 characters) or long", ("short", "long")),),
    command=CommandParts(
        help="Character error rate of plain-text files [a kind from another package].",
        truth="Folder of truth .txt files.",
        pred="Folder of predicted .txt files.",
    ),
)
