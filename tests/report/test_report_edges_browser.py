"""Edges in the report's drawings, as headless Chromium renders them (issue #28 item 4): every
drawn edge of a graph or flowchart drawing has a marker-end that resolves to a ``<marker>`` on
the page (the per-system id prefixes keep them resolving), and the rendered element has it as
its computed ``marker-end``; flowchart edges carry their labels (Mermaid truth and answer), an
edited label marked as edited node texts are (✎, the edited colour), each label rendered with
a size. Chromium is started as in :mod:`test_report_browser` (never skipped: it fails without).
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from test_report_browser import _run, console_messages

from parsescore import evaluate
from parsescore.report import write_report

TRUTH = {
    "d": "flowchart TD\n  A[Screened] -->|eligible| B{Consented?}\n  B -- yes --> C[Randomised]\n"
    "  B -- no --> D[Excluded]\n  C --> E[Analysed]\n"
}
ANSWER = {
    "d": "```mermaid\nflowchart TD\n  A[Screened] -->|eligible| B{Consented?}\n"
    "  B -- Yes! --> C[Randomized]\n  B --> D[Excluded]\n  A -- skip --> E[Analysed]\n"
    "  B -- maybe --> F[Waitlist]\n```"
}

#: Injected at the end of the page: opens every drill-down, then records per kind each drawn
#: edge's marker (resolved or not, computed style) and the flowchart edge labels as rendered.
MEASURE = """
document.querySelectorAll('details').forEach(function (d) { d.open = true; });
var edges = {}, labels = [];
document.querySelectorAll('details.system').forEach(function (system) {
  var kind = system.getAttribute('data-kind');
  system.querySelectorAll('svg.drawing').forEach(function (svg) {
    svg.querySelectorAll('line, path').forEach(function (el) {
      if (el.closest('marker') || el.closest('g')) { return; }  // arrowheads, node boxes
      var ref = (el.getAttribute('marker-end') || '').match(/^url\\(#(.+)\\)$/);
      var target = ref ? document.getElementById(ref[1]) : null;
      var box = el.getBBox();
      (edges[kind] = edges[kind] || []).push({
        ref: ref ? ref[1] : null,
        resolved: target !== null && target.tagName.toLowerCase() === 'marker'
          && target.querySelector('path') !== null,
        in_same_svg: target !== null && target.closest('svg') === svg,
        computed: getComputedStyle(el).markerEnd,
        drawn: box.width + box.height > 0
      });
    });
    if (kind === 'flowchart') {
      svg.querySelectorAll('text.edge-label').forEach(function (t) {
        var box = t.getBBox();
        labels.push({side: svg.getAttribute('aria-label'), text: t.textContent,
          edited: t.classList.contains('edited'), fill: getComputedStyle(t).fill,
          width: box.width});
      });
    }
  });
});
var marks = Array.from(document.querySelectorAll('svg.drawing g text')).filter(function (t) {
  return t.textContent === '✎';
}).map(function (t) { return getComputedStyle(t).fill; });
var ids = Array.from(document.querySelectorAll('[id]')).map(function (x) { return x.id; });
var out = document.createElement('pre'); out.id = 'measure';
out.textContent = JSON.stringify({edges: edges, labels: labels, node_marks: marks,
  repeated_ids: ids.length - new Set(ids).size});
document.body.appendChild(out);
"""


@pytest.fixture(scope="module")
def measured(demo_results: list[Path], tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The measures of a report of the demo's graphs and a Mermaid flowchart with labels."""
    folder = tmp_path_factory.mktemp("edges")
    flow = folder / "flow.json"
    evaluate("flowchart", TRUTH, ANSWER, quiet=True).write(flow)
    # the graph demo's envelope: its scores.json (the native document) has counts only
    graph = next(p for p in demo_results if p.parent.name == "graph").with_name("result.json")
    page = write_report([flow, graph], folder / "report")
    text = page.read_text(encoding="utf-8")
    assert text.count("</body>") == 1
    probe = page.with_name("probe.html")
    probe.write_text(text.replace("</body>", f"<script>{MEASURE}</script></body>"), "utf-8")
    result = _run(probe, folder / "profile", "--window-size=1280,900", "--dump-dom")
    assert result.returncode == 0, result.stderr[-2000:]
    assert console_messages(result.stderr) == []
    found = re.search(r'<pre id="measure">(.*?)</pre>', result.stdout, re.S)
    assert found, result.stdout[-500:]
    measures: dict = json.loads(html.unescape(found.group(1)))
    return measures


@pytest.mark.parametrize("kind", ["graph", "flowchart"])
def test_every_drawn_edge_has_an_arrowhead_that_resolves(measured: dict, kind: str) -> None:
    edges = measured["edges"].get(kind, [])
    assert len(edges) >= (10 if kind == "graph" else 9), edges  # the demo graphs; 4+5 arrows
    bad = [edge for edge in edges if not (edge["ref"] and edge["resolved"] and edge["drawn"])]
    assert bad == [], bad[:5]
    assert all(edge["in_same_svg"] for edge in edges)
    for edge in edges:  # the rendered element carries the marker (not only the attribute)
        assert edge["computed"] in (f'url("#{edge["ref"]}")', f"url(#{edge['ref']})"), edge
    assert measured["repeated_ids"] == 0


def test_flowchart_edges_show_their_labels_edited_ones_marked(measured: dict) -> None:
    labels = measured["labels"]
    assert all(label["width"] > 0 for label in labels), labels  # rendered, with a size
    shown = {
        side: sorted((label["text"], label["edited"]) for label in labels if label["side"] == side)
        for side in ("ground truth", "prediction")
    }
    assert shown["ground truth"] == sorted(
        [("eligible", False), ("yes ✎", True), ("no ✎", True), ("missing", False)]
    )
    assert shown["prediction"] == sorted(
        [
            ("eligible", False),
            ("Yes! ✎", True),
            ("✎", True),
            ("extra: skip", False),
            ("extra: maybe", False),
        ]
    )
    # an edited label in the colour of the ✎ on an edited node, an unedited one not
    node_mark = set(measured["node_marks"])
    assert len(node_mark) == 1, node_mark
    edited = {label["fill"] for label in labels if label["edited"]}
    plain = {label["fill"] for label in labels if not label["edited"]}
    assert edited == node_mark and not plain & node_mark
