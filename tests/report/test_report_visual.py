"""The report's visual parts: character-level differences, worst first by a normalised
headline metric, the colour scale, the drawings of each kind, numbers named once, the layered
layout."""

from __future__ import annotations

import re

import parsescore
from parsescore.core.kinds import get_kind
from parsescore.report import ReportOptions, load_report_systems, render_report
from parsescore.report.draw import layered_layout
from parsescore.report.html import badness, char_diff, scale_style, worst_first

FAST = ReportOptions(n_resamples=50, n_permutations=50)


def test_char_diff_marks_only_what_differs_and_escapes():
    assert char_diff("(n=851)", "(n = 852)") == (
        "(n=85<del>1</del>)",
        "(n<ins> </ins>=<ins> </ins>85<ins>2</ins>)",
    )
    old, new = char_diff("<b>a</b>", "<b>b</b>")
    assert old == "&lt;b&gt;<del>a</del>&lt;/b&gt;" and new == "&lt;b&gt;<ins>b</ins>&lt;/b&gt;"
    assert char_diff("same", "same") == ("same", "same")
    assert char_diff("", "new") == ("", "<ins>new</ins>")


def test_long_texts_are_compared_by_words():
    truth = " ".join(f"w{k}" for k in range(1500))
    old, new = char_diff(truth, truth.replace("w700 ", "x700 "))
    assert old.count("<del>") == 1 and "<del>w700</del>" in old
    assert "<ins>x700</ins>" in new


def test_worst_first_uses_the_normalised_headline_metric(docs, write_doc):
    """A big diagram with many edits but F1 0.98 comes after a small one with F1 0.5."""
    big = docs.flowchart(stem="big", cost=40.0)
    big["diagrams"][0]["flow"] |= {"f1": 0.98, "precision": 0.98, "recall": 0.98}
    small = docs.flowchart(stem="small", cost=1.0)
    big["diagrams"] += small["diagrams"]
    (system,) = load_report_systems([write_doc("f/flow.json", big)])
    assert (
        system.result.items["big"]["node_text_cost"]
        > system.result.items["small"]["node_text_cost"]
    )
    assert worst_first(system) == ["small", "big"]


def test_colour_scale_is_monotone_and_reaches_both_ends():
    table = get_kind("table")
    sequence = get_kind("sequence")
    scores = [badness(table, "TEDS", v) for v in (1.0, 0.95, 0.8, 0.5, 0.0)]
    assert scores[0] == 0.0 and scores[-1] == 1.0 and scores == sorted(scores)
    rates = [badness(sequence, "error_rate", v) for v in (0.0, 5.0, 40.0, 100.0, 250.0)]
    assert rates[0] == 0.0 and rates[-1] == 1.0 and rates == sorted(rates)
    assert badness(get_kind("flowchart"), "node_text_cost", 3.0) is None  # not on a scale
    assert scale_style(0.0).startswith("background:hsl(120,")  # green
    assert scale_style(1.0).startswith("background:hsl(0,")  # red


def test_per_item_table_is_coloured_sorted_and_filterable_with_one_system(docs, write_doc):
    path = write_doc("t/t.json", docs.table({"good": 1.0, "bad": 0.1, "mid": 0.5}))
    page = render_report(load_report_systems([path]), FAST)
    listing = page[page.index('<div class="item-list">') :]
    listing = listing[: listing.index("</table>")]
    assert '<table class="sortable">' in listing
    rows = re.findall(
        # (no link: a scores-only table result draws no drill-down to link to)
        r'<tr><td>(\w+)</td><td class=num data-v="([\d.]+)" '
        r'style="background:hsl\((\d+),',
        listing,
    )
    assert [(name, float(v)) for name, v, _ in rows] == [("bad", 0.1), ("mid", 0.5), ("good", 1.0)]
    hues = [int(h) for _, _, h in rows]
    assert hues == sorted(hues) and hues[-1] == 120
    # the overview is coloured too, with a single system
    overview = page[page.index('id="overview-table"') : page.index("</table>")]
    assert "background:hsl(" in overview
    assert "table.sortable" in page  # the script that sorts and filters


def test_numbers_are_named_once(docs, write_doc):
    first = write_doc("s1/seq.json", docs.sequence(node_errors=1))
    second = write_doc("s2/seq.json", docs.sequence(node_errors=2))
    graph = write_doc("g/eval.json", docs.graph())
    page = render_report(load_report_systems([first, second, graph]), FAST)
    overview = page[page.index('id="overview-table"') : page.index('id="comparison"')]
    assert "error % (all) (pooled) ↓" in overview
    comparison = page[page.index('id="comparison"') : page.index('id="plots"')]
    # the pooled rate under the overview's name, first; the per-file mean named as a mean
    assert "mean per file of error % (all) ↓" in comparison
    assert comparison.index("error % (all) (pooled) ↓") < comparison.index("mean per file of")
    # graph: 1 node class and 1 edge label, not "2 classes"
    graph_rows = overview[overview.index('data-kind="graph"') :]
    assert ">node classes<" in graph_rows and ">edge labels<" in graph_rows
    # the headline numbers first (they stay in view), then the counts
    assert re.search(
        r">eval</a></td>(<td class=\"num[^>]*>[^<]*</td>)+<td class=\"num\">1</td>"
        r"<td class=\"num\">1</td>",
        graph_rows,
    )


def test_flowchart_drawing_shows_missing_and_extra_edges(docs, write_doc):
    page = render_report(load_report_systems([write_doc("f/f.json", docs.flowchart())]), FAST)
    drawing = page[page.index('data-drawing="flowchart"') :]
    drawing = drawing[: drawing.index("</div></div>")]
    truth, pred = drawing.split("<h5>Prediction</h5>")
    # missing 1 -> 2 dashed red on the truth; extra 2 -> unmatched endpoint red on the prediction
    assert truth.count('stroke="#c62828" stroke-width="1.6" stroke-dasharray') == 1
    assert pred.count("<line") == 1 and 'stroke-dasharray="5 3"' not in pred
    assert "(unmatched endpoint)" in pred
    assert "✎" in truth and "✎" in pred  # node 1's text was edited
    assert page.count('data-drawing="flowchart"') == 1


def test_flowchart_envelope_draws_matched_edges_from_real_scoring(tmp_path):
    from importlib.resources import files
    from pathlib import Path

    data = Path(str(files("parsescore") / "data" / "flowchart"))
    result = parsescore.evaluate("flowchart", data / "ground-truth", data / "predictions")
    for detail in result.details.values():
        flow = detail["flow"]
        matched = detail["matched_edges"]
        # tp counts the edges both sides share
        assert len(matched) == flow["tp"]
        assert not {tuple(e) for e in matched} & {tuple(e) for e in flow["missing_edges"]}
    page = render_report(load_report_systems([result]), FAST)
    assert page.count('data-drawing="flowchart"') == len(result.items)


def test_table_drawing_aligns_rows_as_grits_and_marks_changes():
    row = "<tr><td>{}</td><td>{}</td></tr>"
    truth = "<html><body><table>" + row.format("a", "1") + row.format("b", "2")
    truth += row.format("c", "3") + "</table></body></html>"
    pred = "<html><body><table>" + row.format("a", "1") + row.format("c", "8")
    pred += "</table></body></html>"
    result = parsescore.evaluate("table", {"t": truth}, {"t": pred}, quiet=True)
    grid = result.details["t"]["grid"]
    assert grid["rows"] == [[0, 0], [2, 1]] and grid["cols"] == [[0, 0], [1, 1]]
    page = render_report(load_report_systems([result]), FAST)
    drawing = page[page.index('data-drawing="table"') :]
    truth_side, pred_side = drawing[: drawing.index("</table>")], drawing.split("<h5>Prediction")[1]
    pred_side = pred_side[: pred_side.index("</table>")]
    assert "<th class=del>2</th>" in truth_side  # truth row 2 deleted
    assert '<tr class="gap"><th class="ins">+</th>' not in truth_side
    assert '<tr class="gap">' in pred_side  # the prediction has a gap opposite it
    assert "<td class=sub><del>3</del></td>" in truth_side
    assert "<td class=sub><ins>8</ins></td>" in pred_side


def test_sequence_split_diff_names_the_counted_category(docs, write_doc, tmp_path):
    block = docs.sequence()
    block["files"][0]["differences"] = [
        {
            "category": "message",
            "change": "substitution",
            "truth_line": 4,
            "truth_text": "A -> B: hello",
            "pred_line": 4,
            "pred_text": "A -> B: hallo",
            "detail": "",
        },
        {
            "category": "node",
            "change": "deletion",
            "truth_line": 7,
            "truth_text": "B -> C: go",
            "pred_line": None,
            "pred_text": None,
            "detail": "",
        },
    ]
    page = render_report(load_report_systems([write_doc("s/seq.json", block)]), FAST)
    split = page[page.index('data-drawing="sequence"') :]
    split = split[: split.index("</table>")]
    assert "A -&gt; B: h<del>e</del>llo" in split and "A -&gt; B: h<ins>a</ins>llo" in split
    assert '<td class="cat">message substitution</td>' in split
    assert '<td class="del">B -&gt; C: go</td><td class="ln"></td><td></td>' in split


def test_graph_drawing_highlights_unmatched_nodes(tmp_path):
    from parsescore.graph.demo import run_demo

    output = run_demo(tmp_path / "g")
    (result,) = output.results
    page = render_report(load_report_systems([result]), FAST)
    assert page.count('data-drawing="graph"') == len(result.items)
    book = page[page.index("unmatched node:Book") :]
    book = book[: book.index("</svg>")]
    assert "Book:GARDENWORK_FOR_BEGINNERS" in book and 'stroke-dasharray="4 3"' in book


def test_layered_layout_layers_follow_edges_and_cycles_terminate():
    layout = layered_layout(["a", "b", "c", "d"], [("a", "b"), ("b", "c"), ("c", "a"), ("a", "d")])
    assert set(layout) == {"a", "b", "c", "d"}
    assert layout["a"][1] < layout["b"][1] < layout["c"][1]
    wide = layered_layout([str(k) for k in range(10)], [], wrap=4)
    assert len({y for _, y in wide.values()}) == 3  # 4 + 4 + 2 per visual row


def test_drawings_tolerate_malformed_detail(docs, write_doc):
    """Wrong types in a result's detail are left out of the drawings, never a traceback."""
    from parsescore.core.results import Result

    flow = docs.flowchart()
    flow["diagrams"][0]["node_matches"][0]["true_node"] = [1, 2]
    flow["diagrams"][0]["flow"]["missing_edges"] = [["a", {}], [1], 5]
    flow["diagrams"][0]["flow"]["extra_edges"] = "not a list"
    table = Result(
        "table",
        "t",
        {"x": {"TEDS": 0.5}},
        {"TEDS": 0.5},
        details={
            "x": {
                "cells": [{"change": "substitution", "truth": {"row": "a"}, "pred": 3}],
                "grid": {"rows": 7, "cols": [[0, "b"]], "truth": [{"row": -1, "text": {}}]},
            }
        },
    )
    systems = load_report_systems([write_doc("f/f.json", flow), table])
    page = render_report(systems, FAST)
    assert page.count('class="pair item-drawing"') == 2
