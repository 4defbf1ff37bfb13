"""What a reader of the report sees (issue 28, item 4): ids unique on the page, node labels
headed as such, table cells' inline markup rendered safely, every missing answer marked where
its item appears, and no stale page left by a larger earlier report."""

from __future__ import annotations

import collections
import re
from pathlib import Path

from parsescore.report import ReportOptions, write_report
from parsescore.report.html import e, inline_markup, unique_svg_ids
from parsescore.report.sources import MARKER


def _page(demo_results: list[Path], folder: Path) -> str:
    return write_report(demo_results, folder).read_text(encoding="utf-8")


def test_every_id_on_the_demo_page_is_unique(demo_results, tmp_path):
    page = _page(demo_results, tmp_path / "r")
    ids = collections.Counter(re.findall(r'\bid="([^"]+)"', page))
    assert ids, "no id at all"
    assert [name for name, n in ids.items() if n > 1] == []
    # every reference inside a drawing points at an id of the page
    referenced = set(re.findall(r'url\(#([^)]+)\)|href="#([^"]+)"', page))
    missing = {r for pair in referenced for r in pair if r and r not in ids}
    assert not missing, sorted(missing)[:5]


def test_unique_svg_ids_renames_each_drawings_ids_and_their_references():
    one = '<svg><marker id="arrow-0"/><path marker-end="url(#arrow-0)"/></svg>'
    page = unique_svg_ids(f"<p id='x'>{one}{one}</p>")
    assert page.count('id="s1-arrow-0"') == 1 and page.count('id="s2-arrow-0"') == 1
    assert "url(#s1-arrow-0)" in page and "url(#s2-arrow-0)" in page
    assert "<p id='x'>" in page  # ids outside drawings are the page's own


def test_flowchart_node_labels_are_headed_as_node_labels(demo_results, tmp_path):
    page = _page(demo_results[:1], tmp_path / "r")
    assert "<h4>Node labels</h4>" in page
    assert "<h4>Edge labels</h4>" not in page


def test_table_cells_render_inline_markup_and_nothing_else(demo_results, tmp_path):
    page = _page([demo_results[1].parent / "result.json"], tmp_path / "r")
    assert "<b>(N = 4,560)</b>" in page  # a PubTabNet header cell, bold as in the truth
    assert "&lt;b&gt;(N = 4,560)&lt;/b&gt;" not in page
    hostile = e('<b>x</b><img src=x onerror="alert(1)"><sup onclick="y">a</sup><br/>')
    shown = inline_markup(hostile)
    assert shown.startswith("<b>x</b>&lt;img") and "<img" not in shown
    assert "<sup" not in shown and shown.endswith("<br>")


def test_a_missing_answer_is_marked_in_its_row_and_its_drill_down(demo_results, tmp_path):
    item = re.escape("spec_00x_CyclicOperationBasedDeviceListSync.puml")
    state = r'<span class="answer-state">(?:missing|no readable) answer</span>'
    for source in (demo_results[2], demo_results[2].parent / "result.model_b.json"):
        page = _page([source], tmp_path / source.stem)
        assert re.search(item + r"</a> " + state + "</td>", page), source.name  # its row
        assert re.search(r'item-name">' + item + "</span> " + state, page)  # its drill-down
        # model_a has that answer: only model_b's row and drill-down carry the mark
        assert len(re.findall(state, page)) == 2
    envelope = _page([demo_results[2].parent / "result.model_b.json"], tmp_path / "env")
    assert "missing answer" in envelope  # the envelope lists it as missing: said so


def test_a_rewritten_report_leaves_no_stale_page(demo_results, tmp_path):
    folder = tmp_path / "r"
    write_report(demo_results, folder, options=ReportOptions(max_items=2))
    pages = sorted(p.name for p in (folder / "items").glob("*.html"))
    assert pages, "the small max_items wrote no detail page"
    (folder / "items" / "mine.html").write_text("not the report's")  # a file it did not write
    write_report(demo_results, folder)  # every item on the main page now
    left = sorted(p.name for p in (folder / "items").glob("*.html"))
    assert left == ["mine.html"]
    assert (folder / MARKER).is_file()


def test_split_diffs_show_two_unchanged_lines_around_each_change():
    from parsescore.sequence.report_html import split_diff

    truth = ["@startuml", "A -> B : one", "A -> B : two", "A -> B : three", "B -> C : four",
             "C -> D : five", "D -> E : six", "@enduml"]  # fmt: skip
    pred = [*truth[:4], "B -> C : FOUR", *truth[5:]]
    differences = [
        {"category": "message", "change": "substitution", "truth_line": 5,
         "truth_text": truth[4], "pred_line": 5, "pred_text": pred[4]},
    ]  # fmt: skip
    page = split_diff(differences, truth, pred)
    same = re.findall(
        r'<tr class="same"><td class="ln">(\d+)</td>.*?<td class="ln">(\d+)</td>', page
    )
    assert same == [("3", "3"), ("4", "4"), ("6", "6"), ("7", "7")]  # two before, two after
    assert "A -&gt; B : one" not in page  # three lines away: not shown
    # a line only the prediction has shifts the alignment, as a side-by-side diff shows it
    inserted = [*truth[:2], "X -> Y : new", *truth[2:]]
    added = [{"category": "message", "change": "insertion", "truth_line": None,
              "truth_text": None, "pred_line": 3, "pred_text": "X -> Y : new"}]  # fmt: skip
    page = split_diff(added, truth, inserted)
    same = re.findall(
        r'<tr class="same"><td class="ln">(\d+)</td>.*?<td class="ln">(\d+)</td>', page
    )
    assert same == [("1", "1"), ("2", "2"), ("3", "4"), ("4", "5")]
    assert 'class="same"' not in split_diff(differences)  # no scripts at hand: no context


def test_drawn_edges_pass_behind_no_unrelated_box_and_have_arrowheads():
    from parsescore.report.draw import DrawEdge, DrawNode, svg_graph

    # a, b, c in one column; d beside b: a -> c must go round b, a -> b is straight
    layout = {"a": (100.0, 30.0), "b": (100.0, 116.0), "c": (100.0, 202.0), "d": (274.0, 116.0)}
    nodes = [DrawNode(k, k.upper()) for k in layout]
    edges = [DrawEdge("a", "b"), DrawEdge("a", "c", label="skips b"), DrawEdge("a", "d")]
    svg = svg_graph(nodes, edges, layout, label="t", size=(520.0, 240.0))
    assert svg.count('marker-end="url(#arrow-0)"') == 3 and '<marker id="arrow-0"' in svg
    assert len(re.findall(r"<line ", svg)) == 2  # a -> b and a -> d: neighbouring rows
    curve = re.search(r'<path d="M([\d.]+),([\d.]+) Q([\d.]+),([\d.]+) ([\d.]+),([\d.]+)"', svg)
    assert curve, svg
    x0, y0, cx, cy, x2, y2 = map(float, curve.groups())
    for k in range(1, 20):  # every point of the curve is clear of b's box (and d's)
        t = k / 20
        x = (1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t**2 * x2
        y = (1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t**2 * y2
        for bx, by in (layout["b"], layout["d"]):
            assert not (abs(x - bx) < 75 and abs(y - by) < 20), (x, y)
    assert ">skips b</text>" in svg  # the edge's label is drawn, not only in a tooltip
