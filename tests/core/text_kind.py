"""A small kind defined in the test suite, to prove that a kind is a plugin: "text" scores the
character error rate (CER) of predicted plain-text files against truth files of the same name.

Nothing here is registered by importing it; the tests register :data:`TEXT` themselves. It
uses only the core's public parts (``parsescore.kinds``, ``results``, ``schema``,
``cli_common``, ``report.html``), as a kind package outside parsescore would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import typer
from rapidfuzz.distance import Levenshtein
from rich.console import Console

from parsescore.cli_common import CsvOption, OutOption, ResultOption, console, write_outputs
from parsescore.errors import InputError
from parsescore.kinds import Kind, Metric, ReportParts
from parsescore.report.html import System, e, html_table, item_summary
from parsescore.results import Reader, Result
from parsescore.schema import COUNT, NUMBER, STRING, map_of, record, ref


def character_error_rate(truth: str, pred: str) -> tuple[float, int]:
    """(edit distance / truth length, edit distance); an empty truth has CER 0 or 1."""
    distance = Levenshtein.distance(truth, pred)
    if not truth:
        return (0.0 if not pred else 1.0), distance
    return distance / len(truth), distance


def evaluate(truth: str | Path, pred: str | Path, *, name: str | None = None) -> Result:
    """CER of every ``*.txt`` of ``truth`` against the same-named file of ``pred``."""
    truth, pred = Path(truth), Path(pred)
    if not truth.is_dir():
        raise InputError("expected a folder of .txt files", path=truth)
    files, items, details = [], {}, {}
    total_distance = total_chars = 0
    for path in sorted(truth.glob("*.txt")):
        expected = path.read_text(encoding="utf-8")
        other = pred / path.name
        got = other.read_text(encoding="utf-8") if other.is_file() else ""
        cer, distance = character_error_rate(expected, got)
        files.append({"name": path.stem, "cer": cer, "distance": distance, "chars": len(expected)})
        items[path.stem] = {"cer": cer}
        details[path.stem] = {"distance": distance, "chars": len(expected)}
        total_distance += distance
        total_chars += len(expected)
    totals = {"cer": total_distance / total_chars if total_chars else 0.0, "files": len(files)}
    native = {"kind": "text", "files": files, "totals": totals}
    return Result(
        "text",
        name or pred.name,
        items,
        {"cer": float(totals["cer"]), "files": float(len(files))},
        inputs={"truth": str(truth), "pred": str(pred)},
        details=details,
        native=native,
    )


def read(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The result of a ``parsescore text --out`` document."""
    items, details = {}, {}
    for k, file in enumerate(r.array(r.key(doc, "files", "top level"), "key 'files'")):
        where = f"files[{k}]"
        file = r.mapping(file, where)
        ident = r.string(r.key(file, "name", where), f"{where}.name")
        items[ident] = {"cer": r.number(r.key(file, "cer", where), f"{where}.cer")}
        details[ident] = {"distance": file.get("distance"), "chars": file.get("chars")}
    totals = r.mapping(r.key(doc, "totals", "top level"), "key 'totals'")
    return [
        Result(
            "text",
            name,
            items,
            {key: r.number(value, f"totals.{key}") for key, value in totals.items()},
            r.path,
            details=details,
        )
    ]


def schema_defs() -> dict[str, dict[str, Any]]:
    detail = record({"distance": COUNT, "chars": COUNT})
    return {
        "text": record(
            {
                "kind": {"const": "text"},
                "files": {"type": "array", "items": ref("text_file")},
                "totals": map_of(NUMBER),
            }
        ),
        "text_file": record({"name": STRING, "cer": NUMBER, "distance": COUNT, "chars": COUNT}),
        "text_detail": detail,
        "text_dataset": {"type": "object"},
    }


def register(app: typer.Typer) -> None:
    @app.command("text")
    def text_command(
        truth: Path = typer.Option(..., "--truth", help="Folder of truth .txt files."),
        pred: Path = typer.Option(..., "--pred", help="Folder of predicted .txt files."),
        out: OutOption = None,
        result: ResultOption = None,
        csv: CsvOption = None,
    ) -> None:
        """Character error rate of plain-text files [a kind defined in the tests]."""
        from parsescore.api import evaluate as evaluate_any

        scored = evaluate_any("text", truth, pred)
        out_console = console()
        summarise(scored, out_console)
        write_outputs([scored], out_console, out=out, result=result, csv=csv)


def summarise(result: Result, out: Console) -> None:
    out.print(f"CER {result.totals['cer']:.4f} over {len(result.items)} files", highlight=False)


def drilldown(system: System, items: Sequence[str]) -> str:
    rows = [
        [item_summary(system, item), e(system.result.details.get(item, {}).get("distance"))]
        for item in items
    ]
    return (
        '<div class="text-kind">' + html_table([("file", False), ("edits", True)], rows) + "</div>"
    )


TEXT = Kind(
    name="text",
    title="Plain texts",
    item="text file",
    items="text files",
    metrics=(Metric("cer", "CER", False, headline=True),),
    totals=(Metric("cer", "CER", False, headline=True), Metric("files", "files", None, "count")),
    totals_note="text CER is all edits over all truth characters",
    evaluate=evaluate,
    read=read,
    detect=lambda doc: doc.get("kind") == "text",
    documents={"text": "parsescore text --out"},
    recognised="`parsescore text` (keys kind, files)",
    schema=schema_defs,
    cli=register,
    report=ReportParts(prepare=None, plots=None, drilldown=drilldown),
    summarise=summarise,
)
