"""What an olmOCR-bench result shows: the terminal summary (overall, per file, per type, failed
or not, what was not run, worst pages) and the report's per-page drill-down (each test with its
verdict, what it looked for and the closest text found in the candidate), worst pages first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console

from parsescore.core.results import Result

__all__ = ["drilldown", "summarise", "worst_first"]


def worst_first(result: Result, items: Sequence[str]) -> list[str]:
    """Pages by their share of tests passed, lowest first (ties in dataset order)."""
    return sorted(items, key=lambda i: result.items.get(i, {}).get("olmocr_page", 1.0))


def summarise(result: Result, out: Console) -> None:
    from rich.markup import escape
    from rich.table import Table

    data = result.dataset
    profile = data.get("profile", "omnidocbench")
    label = "olmOCR-bench" if profile != "parsescore" else "parsescore"
    table = Table(title=f"{escape(result.name)}: document, olmOCR-bench tests ({label})",
                  title_justify="left")  # fmt: skip
    table.add_column("score")
    table.add_column("value", justify="right")
    overall = result.totals.get("olmocr_overall")
    table.add_row("overall (mean over files)",
                  "FAILED" if data.get("failed") else f"{(overall or 0.0) * 100:.1f}%")  # fmt: skip
    pooled = result.totals.get("olmocr_tests_passed")
    if pooled is not None:
        interval = data.get("interval")
        shown = f"{pooled * 100:.1f}%"
        if interval:
            shown += f" [{interval['low'] * 100:.1f}, {interval['high'] * 100:.1f}]"
        table.add_row("tests passed (pooled over pages)", shown)
    for name, value in (data.get("groups") or {}).items():
        table.add_row(f"  file {escape(name)}", f"{value * 100:.1f}%")
    for name, value in (data.get("types") or {}).items():
        table.add_row(f"  type {escape(name)}", f"{value * 100:.1f}%")
    out.print(table)
    out.print(f"{len(result.items)} pages", highlight=False)
    if data.get("failed"):
        errors = data.get("errors") or []
        out.print(f"olmOCR-bench marks this candidate FAILED ({len(errors)} error(s)): "
                  + "; ".join(errors[:3]), highlight=False, markup=False)  # fmt: skip
    elif data.get("errors"):
        out.print(f"{len(data['errors'])} problem(s) (scored as failed tests): "
                  + "; ".join(data["errors"][:3]), highlight=False, markup=False)  # fmt: skip
    if data.get("not_run"):
        out.print(f"not run: {len(data['not_run'])} math test(s) (no KaTeX renderer)",
                  highlight=False)  # fmt: skip
    worst = int(result.options.get("worst", 5)) if "worst" in result.options else 5
    ranked = worst_first(result, list(result.items))[:worst]
    if ranked:
        pages = [f"{i} {result.items[i]['olmocr_page']:.2f}" for i in ranked]
        out.print("worst pages: " + ", ".join(pages), highlight=False, markup=False)


def _closest(test: dict[str, Any]) -> str:
    for verdict in test.get("verdicts", []):
        if not verdict.get("passed") and verdict.get("closest"):
            score, text = verdict["closest"]
            return f"{text} ({score:.2f})"
    for verdict in test.get("verdicts", []):
        if verdict.get("closest"):
            score, text = verdict["closest"]
            return f"{text} ({score:.2f})"
    return ""


def drilldown(system: Any, items: Sequence[str]) -> str:
    """Per page, worst first: every test, its verdict over the repeats, what it looked for,
    the closest text found and why a repeat failed."""
    from parsescore.report.html import e, html_table, item_summary

    result = system.result
    blocks = []
    for item in worst_first(result, items):
        tests = (result.details.get(item) or {}).get("tests", [])
        rows = []
        for test in sorted(tests, key=lambda t: (t["passed"], t["id"])):
            why = next((v.get("detail", "") for v in test.get("verdicts", [])
                        if not v.get("passed")), "")  # fmt: skip
            rows.append([
                e(test["id"]), e(test["type"]), "pass" if test["passed"] else "<b>fail</b>",
                e(f"{test['fraction']:.2f}"), e(test.get("looked_for", "")), e(_closest(test)),
                e(why),
            ])  # fmt: skip
        columns = [("test", False), ("type", False), ("verdict", False), ("repeats passed", True),
                   ("looked for", False), ("closest found", False), ("why", False)]  # fmt: skip
        blocks.append(f"<details><summary>{item_summary(system, item)}</summary>"
                      f"{html_table(columns, rows)}</details>")  # fmt: skip
    return '<div class="document-kind">' + "".join(blocks) + "</div>"
