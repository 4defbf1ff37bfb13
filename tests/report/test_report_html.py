"""The HTML report: every kind renders, hostile text is escaped, comparison only with two or
more systems of a kind, deterministic bytes, Figure 6/7 numbers, CLI registration and errors."""

from __future__ import annotations

import csv
import html
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import Cli, CliRun
from parsescore.report import ReportOptions, load_report_systems, render_report, write_report
from parsescore.sequence.report_html import figure67_rates

FAST = ReportOptions(n_resamples=200, n_permutations=200)
HOSTILE = "<script>alert('x')</script>\"><img src=x onerror=alert(1)>&amp;"


def test_every_kind_renders_overview_plots_and_drilldown(every_kind, tmp_path):
    page = write_report(every_kind, tmp_path / "out", options=FAST).read_text(encoding="utf-8")
    for kind in ("flowchart", "table", "sequence", "graph"):
        assert f'<tbody class="kind" data-kind="{kind}">' in page
        assert f'<section class="plots" data-kind="{kind}">' in page
        assert f'data-kind="{kind}"><summary>' in page  # the system's drill-down
    assert page.count("<svg") >= 5  # 4 distributions + flowchart size + sequence size + fig 6/7
    assert 'class="plot-figure67"' in page
    # flowchart drill-down: both texts, the costs, missing and extra edges
    assert "Start!!" in page and "unmatched_true" in page
    assert "Missing edges (in the truth, not in the prediction): 1" in page
    text = html.unescape(page)
    assert "1 (Start) → 2 (End)" in text
    assert "2 (End) → 10000 (unmatched predicted node)" in text
    # graph drill-down: per-class scores and alias pairs
    assert "Relaxed alias pairs (matched only after relaxing ids): 1" in page
    assert ">a_b<" in page
    # sequence without differences next to it says so
    assert "Differences not available" in page
    # the headline numbers of the overview are the files' own totals
    assert ">0.7000<" in page  # table TEDS mean (0.9 + 0.5) / 2
    assert ">25.00<" in page  # sequence node error %: 1 deletion over 4 ground-truth nodes


def test_hostile_text_is_escaped_everywhere(docs, write_doc, tmp_path):
    paths = [
        write_doc("a/fc.json", docs.flowchart(node_text=HOSTILE, stem=HOSTILE)),
        write_doc("b/tables.json", docs.table({HOSTILE: 0.5, "ok": 1.0})),
        write_doc("c/seq.json", docs.sequence(path=HOSTILE)),
        write_doc("d/eval.json", docs.graph(class_name=HOSTILE)),
    ]
    with (tmp_path / "c" / "differences.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            [
                *("model", "path", "category", "change", "truth_line", "truth_text"),
                *("pred_line", "pred_text", "detail", "edit_distance"),
            ]
        )
        writer.writerow(["seq", HOSTILE, "node", "deletion", "3", HOSTILE, "", "", HOSTILE, ""])
    out = write_report(paths, tmp_path / "out", names=[HOSTILE, "t", "seq", "g"], options=FAST)
    page = out.read_text(encoding="utf-8")
    assert "<script>alert" not in page
    assert "<img src=x" not in page
    assert page.count("<script>") == 1  # only the page's own collapse script
    assert html.escape(HOSTILE, quote=True) in page
    assert "Counted differences: 1" in page  # the sidecar's row for the hostile path
    # a name with '$' and backslashes does not break matplotlib (no mathtext)
    mathy = write_doc("e/m.json", docs.table({"$\\frac{a}{b}$": 0.5}))
    page = write_report([mathy], tmp_path / "out2", names=["$x^2$"], options=FAST).read_text()
    assert "$x^2$" in page


def test_comparison_only_with_two_systems_of_a_kind(docs, write_doc, every_kind, tmp_path):
    page = write_report(every_kind, tmp_path / "one", options=FAST).read_text()
    assert 'id="comparison"' not in page
    second = write_doc("tb2/tables.json", docs.table({"t1": 0.8, "t2": 0.9}))
    page = write_report([*every_kind, second], tmp_path / "two", options=FAST).read_text()
    assert 'id="comparison"' in page
    sections = re.findall(r'<section class="comparison" data-kind="(\w+)">', page)
    assert sections == ["table"]
    # the comparison's numbers: TEDS means 0.7 and 0.85, difference -0.15
    comparison = page[page.index('id="comparison"') : page.index('id="plots"')]
    assert ">0.7000<" in comparison and ">0.8500<" in comparison
    assert "-0.1500" in comparison


def test_comparison_of_disjoint_datasets_is_explained(docs, write_doc, tmp_path):
    a = write_doc("a/t.json", docs.table({"x": 0.5}))
    b = write_doc("b/t.json", docs.table({"y": 0.5}))
    page = write_report([a, b], tmp_path / "out", options=FAST).read_text()
    assert "Not compared: " in page and "share no items" in page


def test_same_inputs_same_bytes_across_processes(every_kind, docs, write_doc, tmp_path):
    second = write_doc("sq2/seq.json", docs.sequence(lines=120, node_errors=2))
    args = [str(p) for p in [*every_kind, second]]
    code = (
        "import sys; from parsescore.report import ReportOptions, write_report; "
        "write_report(sys.argv[2:], sys.argv[1], "
        "options=ReportOptions(n_resamples=300, n_permutations=300))"
    )
    pages = []
    for k, seed in enumerate(("1", "2")):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = tmp_path / f"run{k}"
        subprocess.run([sys.executable, "-c", code, str(out), *args], check=True, env=env)
        pages.append((out / "index.html").read_bytes())
    assert pages[0] == pages[1]
    systems = load_report_systems([Path(a) for a in args])
    in_process = render_report(systems, ReportOptions(n_resamples=300, n_permutations=300))
    assert in_process.encode("utf-8") == pages[0]
    assert b"Date" not in pages[0] and b"<dc:date>" not in pages[0]


def test_figure67_rates_by_line_bin(docs, write_doc):
    block = docs.sequence(path="a.puml", lines=25, node_errors=1)
    other = docs.sequence(path="b.puml", lines=30, node_errors=3)["files"][0]
    big = docs.sequence(path="c.puml", lines=101, node_errors=0)["files"][0]
    block["files"] += [other, big]
    (system,) = load_report_systems([write_doc("s/seq.json", block)])
    rates = figure67_rates(system)
    # 21-30: (1 + 3) deletions over (4 + 4) ground-truth nodes; >100: none over 4; others empty
    assert rates["node"]["21-30"] == pytest.approx(50.0)
    assert rates["node"][">100"] == 0.0
    assert all(rates["node"][b] != rates["node"][b] for b in ("1-20", "31-40", "41-50", "51-100"))
    assert rates["message"]["21-30"] == 0.0
    # the derived per-file metric is compared like any other
    assert system.result.items["b.puml"]["node_error_rate"] == pytest.approx(75.0)


def test_multi_model_sequence_json_and_sidecar(docs, write_doc, tmp_path):
    doc = {"m1": docs.sequence(node_errors=0), "m2": docs.sequence(node_errors=2)}
    path = write_doc("s/results.json", doc)
    (tmp_path / "s" / "differences.csv").write_text(
        "model,path,category,change,truth_line,truth_text,pred_line,pred_text,detail,"
        "edit_distance\nm2,a.puml,node,deletion,7,A -> B: hi,,,node B missing,\n",
        encoding="utf-8",
    )
    systems = load_report_systems([path])
    assert [s.name for s in systems] == ["results:m1", "results:m2"]
    assert [s.notes["differences"] for s in systems] == [True, True]
    assert systems[0].result.details["a.puml"]["differences"] == []
    assert systems[1].result.details["a.puml"]["differences"][0]["truth_line"] == 7
    page = render_report(systems, FAST)
    assert 'data-kind="sequence"' in page and "A -&gt; B: hi" in page
    assert "No differences counted." in page


def test_cli_report_command(every_kind: list[Path], tmp_path: Path, cli: Cli) -> None:
    out = tmp_path / "report"
    result = cli(
        *("report", *every_kind, "--out", out, "--resamples", "100"),
        *("--permutations", "100", "--title", "My <run>"),
    )
    assert result.code == 0, result.err
    page = (out / "index.html").read_text()
    assert "<title>My &lt;run&gt;</title>" in page
    assert result.out == f"Wrote {out / 'index.html'}\n"


def _is_input_error(result: CliRun) -> bool:
    """How ``parsescore.cli.main.main`` reports bad input: status 2, one ``error:`` line."""
    return result.code == 2 and result.err.startswith("error: ") and result.err.count("\n") == 1


def test_cli_bad_input_is_an_input_error(
    write_doc: Callable[[str, Any], Path], tmp_path: Path, cli: Cli
) -> None:
    bad = write_doc("bad.json", {"hello": 1})
    result = cli("report", bad, "--out", tmp_path / "o")
    assert _is_input_error(result), result.err
    assert "not a parsescore result" in result.err and "bad.json" in result.err
    result = cli("report", bad, "--out", tmp_path / "o", "--max-items", "-1")
    assert _is_input_error(result), result.err


def test_max_items_pages_the_detail_worst_first(docs, write_doc, tmp_path):
    path = write_doc("t/t.json", docs.table({"good": 1.0, "bad": 0.1, "mid": 0.5}))
    index = write_report(
        [path],
        tmp_path / "o",
        options=ReportOptions(n_resamples=10, n_permutations=10, max_items=2),
    )
    page = index.read_text()
    drill = page[page.index('id="drilldown"') :]
    assert "3 tables, worst first by TEDS" in drill
    assert drill.index(">bad<") < drill.index(">mid<") < drill.index(">good<")
    second = tmp_path / "o" / "items" / "system-1-2.html"
    assert 'href="items/system-1-2.html"' in drill and second.is_file()
    rest = second.read_text()
    assert ">good<" in rest and ">bad<" not in rest and 'href="../index.html#system-1"' in rest


def test_without_matplotlib_the_page_says_so(every_kind, monkeypatch):
    from parsescore.report import plots

    def missing() -> None:
        raise ImportError("the report's plots need matplotlib: pip install 'parsescore[plot]'")

    monkeypatch.setattr(plots, "_pyplot", missing)
    page = render_report(load_report_systems(every_kind), FAST)
    assert "No plots: the report&#x27;s plots need matplotlib" in page
    assert 'class="plot-' not in page and 'id="overview-table"' in page
    assert 'data-drawing="flowchart"' in page  # the drawings need no matplotlib


def test_the_overview_shows_the_share_of_readable_answers(tmp_path: Path) -> None:
    """Two table systems on the same three tables: one answered everything, the other sent a
    chat answer, an answer with no table and nothing for the third; the overview's column
    "readable answers" holds each system's share, best marked (parsescore.shared.coverage)."""
    import parsescore

    table = "<table><tr><td>a</td><td>b</td></tr></table>"
    truth = {name: table for name in ("t1", "t2", "t3")}
    good = parsescore.evaluate(
        "table", truth, truth, truth_format="html-fragment", pred_format="auto", name="good"
    )
    answers = {"t1": f"Sure!\n```html\n{table}\n```", "t2": "I cannot read this image."}
    poor = parsescore.evaluate(
        "table", truth, answers, truth_format="html-fragment", pred_format="auto", name="poor"
    )
    assert (good.totals["readable"], poor.totals["readable"]) == (1.0, 1 / 3)
    assert poor.dataset["missing"] == ["t3"] and list(poor.dataset["unreadable"]) == ["t2"]
    assert poor.dataset["fenced"] == {"t1": "html"}
    page = write_report([good, poor], tmp_path / "out", options=FAST).read_text(encoding="utf-8")
    overview = page[page.index('id="overview-table"') : page.index("</table>")]
    assert '<th class="num">readable answers ↑</th>' in overview
    rows = re.findall(r'<tr class="system-row">(.*?)</tr>', overview)
    assert len(rows) == 2
    assert ">1.0000</td>" in rows[0] and 'class="num best"' in rows[0]
    assert ">0.3333</td>" in rows[1]


def test_flowchart_drilldown_lists_missing_predictions(tmp_path: Path) -> None:
    """A flowchart whose answer file is absent is named in the drill-down's list of missing
    predictions (the Result's ``dataset["missing"]``), from a run and from its saved --out."""
    import shutil

    import parsescore

    bundled = Path(parsescore.__file__).parent / "data" / "flowchart"
    pred = tmp_path / "pred"
    shutil.copytree(bundled / "predictions", pred)
    dropped = sorted(pred.iterdir())[0]
    dropped.unlink()
    result = parsescore.evaluate("flowchart", bundled / "ground-truth", pred, quiet=True)
    assert result.dataset["missing"] == [dropped.stem]
    page = write_report([result], tmp_path / "out", options=FAST).read_text(encoding="utf-8")
    assert f"Missing predictions: {dropped.stem}" in page
