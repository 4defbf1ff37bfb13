"""Issue 30, items 4 and 7, for the table and graph kinds: every CSV they write keeps a cell a
spreadsheet would run (leading ``= + - @``, tab, carriage return) as text, numbers as numbers;
the Markdown they write renders no answer or document text as HTML and keeps its tables'
rows; a graph template path that is a folder is one clear error."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from cli_helpers import Cli
from parsescore.core.errors import InputError
from parsescore.graph.aggregate import records_csv, render_synthesis
from parsescore.graph.audit import DocumentEvaluation, EvaluationReport, GroundingReport
from parsescore.graph.template import load_template

FORMULAS = ['=HYPERLINK("http://x")', "+1+2", "-2+3", "@SUM(A1)", "\tx", "\rx"]
HTML = "<img src=x onerror=alert(1)>"


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def test_table_csv_cells_stay_text(tmp_path: Path, cli: Cli) -> None:
    table = "<html><body><table><tr><td>a</td></tr></table></body></html>"
    names = {name: table for name in FORMULAS}
    (tmp_path / "truth.json").write_text(json.dumps(names), encoding="utf-8")
    (tmp_path / "pred.json").write_text(json.dumps(names), encoding="utf-8")
    out = tmp_path / "scores.csv"
    run = cli("table", "--truth", tmp_path / "truth.json", "--pred", tmp_path / "pred.json",
              "--csv", out, "--quiet")  # fmt: skip
    assert run.code == 0, run.err
    rows = _rows(out.read_bytes().decode("utf-8"))
    first = {row[0] for row in rows[1:]}
    assert all(name not in first for name in FORMULAS)
    assert {f"'{name}" for name in FORMULAS} <= first
    numbers = [cell for row in rows[1:] for cell in row[1:]]
    assert numbers and all(not cell.startswith("'") for cell in numbers)


def _record(doc: str) -> dict[str, object]:
    return {"doc": doc, "contract": "a|b", "format": "json", "run": None, "status": "failed",
            "failure_reason": f"<script>alert(1)</script> {HTML}", "score": -0.5}  # fmt: skip


def test_graph_aggregate_csv_cells_stay_text() -> None:
    records = [_record(name) for name in FORMULAS]
    rows = _rows(records_csv(records))
    column = rows[0].index("doc")
    assert [row[column] for row in rows[1:]] == [f"'{name}" for name in FORMULAS]
    score = rows[0].index("score")
    assert {row[score] for row in rows[1:]} == {"-0.5"}  # a number stays a number


def test_graph_synthesis_renders_no_html() -> None:
    report = render_synthesis([_record(HTML + "\nnext | cell")])
    assert "<img" not in report and "<script" not in report
    row = next(line for line in report.splitlines() if "FAILED" in line)
    assert row.count(" | ") == 12  # the document's pipe and line break did not add cells


def test_graph_audit_markdown_renders_no_html() -> None:
    document = DocumentEvaluation(
        source=f"{HTML}\n# heading",
        succeeded=True,
        grounding=GroundingReport(checked=1, ungrounded_samples=[f"<script>x</script>|{HTML}"]),
    )
    failed = DocumentEvaluation(source="b", succeeded=False, error=f"{HTML}\n<a href=x>")
    report = EvaluationReport.from_documents(f"t`{HTML}", [document, failed]).render_markdown()
    title, _, rest = report.partition("\n")
    assert f"`t{HTML}`" in title  # a code span: shown as written, never run
    assert "<img" not in rest and "<script" not in rest and "<a " not in rest
    assert "\n# heading" not in report


@pytest.mark.parametrize("form", ["{folder}", "{folder}:Model", "{folder}/inner.py:Model"])
def test_a_template_folder_says_so(tmp_path: Path, form: str) -> None:
    (tmp_path / "inner.py").mkdir()
    spec = form.format(folder=tmp_path)
    with pytest.raises(InputError, match="the template is a folder") as caught:
        load_template(spec)
    assert "\n" not in str(caught.value)
