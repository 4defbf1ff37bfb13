"""The HTML report: one self-contained static page (inline CSS and SVG, no network assets).

Sections: an overview of every system grouped by kind (the kind's own dataset-level numbers),
the comparison of systems of the same kind (:func:`parsescore.compare.compare_results`: means
with paired-bootstrap intervals, differences, permutation p-values), plots (score
distributions, error by item size, the sequence paper's Figure 6/7) and a drill-down per item.
Every piece of user text goes through :func:`html.escape`; the page has no date and no random
ids, so the same inputs give the same bytes.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parsescore import __version__
from parsescore.compare import Comparison, compare_results
from parsescore.errors import InputError
from parsescore.report import plots
from parsescore.report.sources import FIGURE_CATEGORIES, System
from parsescore.results import KINDS, higher_is_better
from parsescore.scores import safe_ratio

__all__ = ["HEADLINE_ITEM_METRICS", "HEADLINE_TOTALS", "ReportOptions", "render_report"]

KIND_TITLES = {
    "flowchart": "Flowcharts",
    "table": "Tables",
    "sequence": "Sequence diagrams",
    "graph": "Knowledge graphs",
}
ITEM_NOUNS = {"flowchart": "diagrams", "table": "tables", "sequence": "files", "graph": "classes"}
ITEM_NOUN = {"flowchart": "diagram", "table": "table", "sequence": "file", "graph": "class"}

#: Overview columns per kind: (key in ``Result.totals``, label).
HEADLINE_TOTALS: dict[str, tuple[tuple[str, str], ...]] = {
    "flowchart": (
        ("node_text_cost", "node text cost"),
        ("label_cost", "label cost"),
        ("additional_text_cost", "additional text cost"),
        ("flow_micro_f1", "flow F1 (micro)"),
        ("avg_flow_jaccard", "flow Jaccard (mean)"),
    ),
    "table": (
        ("TEDS", "TEDS"),
        ("TEDS-S", "TEDS-S"),
        ("GriTS-Top", "GriTS-Top"),
        ("GriTS-Con", "GriTS-Con"),
        ("GriTS-Loc", "GriTS-Loc"),
    ),
    "sequence": (
        ("error_rate", "error % (all)"),
        ("node_error_rate", "node error %"),
        ("message_error_rate", "message error %"),
        ("direction_error_rate", "direction error %"),
    ),
    "graph": (
        ("node_strict_f1", "node F1 strict"),
        ("node_relaxed_f1", "node F1 relaxed"),
        ("node_aligned_f1", "node F1 aligned"),
        ("edge_strict_f1", "edge F1 strict"),
        ("edge_relaxed_f1", "edge F1 relaxed"),
        ("edge_aligned_f1", "edge F1 aligned"),
    ),
}

#: Item metrics shown first in comparisons and plotted as distributions.
HEADLINE_ITEM_METRICS: dict[str, tuple[str, ...]] = {
    "flowchart": ("node_text_cost", "label_cost", "additional_text_cost", "flow_f1"),
    "table": ("TEDS", "TEDS-S", "GriTS-Top", "GriTS-Con", "GriTS-Loc"),
    "sequence": ("error_rate", "node_error_rate", "message_error_rate", "direction_error_rate"),
    "graph": ("node_strict_f1", "node_relaxed_f1", "edge_strict_f1", "edge_relaxed_f1"),
}

FIGURE_TITLES = {
    "node": "Node error (%)",
    "message": "Message error (%)",
    "direction": "Direction change error (%)",
}

CSS = """
:root{--fg:#1d2430;--muted:#5b6573;--line:#d9dee5;--head:#f2f4f7;--good:#0b6b3a;--bad:#a01c1c}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
color:var(--fg);margin:0;padding:0 28px 40px;max-width:1500px}
header{padding:18px 0 6px;border-bottom:2px solid var(--fg);margin-bottom:8px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 8px;
border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:16px;margin:20px 0 6px}
h4{font-size:14px;margin:14px 0 4px}
nav a{margin-right:14px}a{color:#1f5fbf}
.muted{color:var(--muted)}.note{color:var(--muted);font-size:13px;margin:4px 0}
table{border-collapse:collapse;margin:6px 0 12px;font-size:13px}
th,td{border:1px solid var(--line);padding:3px 8px;vertical-align:top;text-align:left}
th.pad,td.pad,tr.kind-head th.pad{border:0;background:none}
th{background:var(--head);font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.kind-head th{background:#e3e8ef;font-size:13px}
tr.kind-title th{background:#fff;border:0;font-size:15px;padding:12px 0 4px}
.best{font-weight:700;color:var(--good)}
.sig{font-weight:700}
.text{white-space:pre-wrap;word-break:break-word;max-width:520px;font-family:ui-monospace,
"DejaVu Sans Mono",monospace;font-size:12px}
tr.diff td{background:#fff6e5}tr.unmatched td{background:#fdecec}
details{margin:3px 0}details.system>summary{font-weight:600;font-size:15px;cursor:pointer}
details.item{margin-left:18px;border-left:3px solid var(--line);padding-left:8px}
details.item>summary{cursor:pointer}
figure{margin:10px 0 18px}figcaption{color:var(--muted);font-size:13px}
svg{max-width:100%;height:auto}
button{font:inherit;margin-right:8px}
"""

SCRIPT = """
document.querySelectorAll('button[data-open]').forEach(function (button) {
  button.addEventListener('click', function () {
    var open = button.getAttribute('data-open') === '1';
    document.querySelectorAll('#drilldown details').forEach(function (d) { d.open = open; });
  });
});
"""


@dataclass(frozen=True)
class ReportOptions:
    """Settings of the comparison and of the drill-down."""

    seed: int = 0
    n_resamples: int = 10_000
    n_permutations: int = 10_000
    max_items: int = 200
    title: str = "parsescore report"


def e(value: Any) -> str:
    """HTML-escaped text (quotes too, so it is safe in attributes)."""
    return html.escape(str(value), quote=True)


def fmt(value: Any, digits: int = 4) -> str:
    """A number for a table cell; anything that is not a number is shown (escaped) as it is."""
    if value is None:
        return "–"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return e(value)
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "–"
    return f"{value:.{digits}f}"


def _dicts(value: Any) -> list[Mapping[str, Any]]:
    """The JSON objects of a JSON array (anything else is ignored: the drill-down is tolerant)."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _num(value: Any) -> float:
    """A JSON value as a number for sums (0 for anything else)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    return float(value)


def fmt_metric(kind: str, metric: str, value: float | None) -> str:
    """Costs as counts (up to 2 decimals), percentages with 2 decimals, scores with 4."""
    if value is None or math.isnan(value):
        return "–"
    if kind == "flowchart" and metric.endswith("_cost"):
        return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"
    if kind == "sequence":
        return f"{value:.2f}"
    return f"{value:.4f}"


def _p(value: float) -> str:
    return f"{value:.4f}" if value >= 1e-4 else f"{value:.1e}"


def _arrow(kind: str, metric: str) -> str:
    return "↑" if higher_is_better(kind, metric) else "↓"


def _table(
    header: Sequence[tuple[str, bool]], rows: Iterable[Sequence[str]], row_class: Sequence[str] = ()
) -> str:
    """A table; ``header`` is ``[(escaped title, numeric)]``, cells are already-escaped HTML."""
    numeric = [n for _, n in header]
    out = ["<table><thead><tr>"]
    out += [f"<th{' class=num' if n else ''}>{title}</th>" for title, n in header]
    out.append("</tr></thead><tbody>")
    classes = list(row_class)
    for k, row in enumerate(rows):
        cls = classes[k] if k < len(classes) and classes[k] else ""
        out.append(f'<tr class="{cls}">' if cls else "<tr>")
        out += [
            f"<td{' class=num' if k2 < len(numeric) and numeric[k2] else ''}>{cell}</td>"
            for k2, cell in enumerate(row)
        ]
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _text_cell(value: Any) -> str:
    return (
        '<span class="muted">–</span>' if value is None else f'<div class="text">{e(value)}</div>'
    )


# -- overview -----------------------------------------------------------------------------------


def _by_kind(systems: Sequence[System]) -> dict[str, list[System]]:
    groups: dict[str, list[System]] = {}
    for kind in KINDS:
        members = [s for s in systems if s.kind == kind]
        if members:
            groups[kind] = members
    return groups


def _best(kind: str, key: str, values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    if len(present) < 2:
        return None
    best = max(present) if higher_is_better(kind, key) else min(present)
    return best if present.count(best) == 1 else None


def _overview(groups: Mapping[str, list[System]], anchors: Mapping[int, str]) -> str:
    present = {
        kind: [
            (key, label)
            for key, label in HEADLINE_TOTALS[kind]
            if any(key in s.result.totals for s in members)
        ]
        for kind, members in groups.items()
    }
    width = 2 + max(len(columns) for columns in present.values())
    out = ['<table id="overview-table">']
    for kind, members in groups.items():
        columns = present[kind]
        out.append(f'<tbody class="kind" data-kind="{e(kind)}">')
        out.append(f'<tr class="kind-title"><th colspan="{width}">{e(KIND_TITLES[kind])}</th></tr>')
        out.append('<tr class="kind-head"><th>system</th>')
        out.append(f'<th class="num">{e(ITEM_NOUNS[kind])}</th>')
        out += [f'<th class="num">{e(label)} {_arrow(kind, key)}</th>' for key, label in columns]
        out += ['<th class="pad"></th>'] * (width - 2 - len(columns))
        out.append("</tr>")
        bests = {
            key: _best(kind, key, [s.result.totals.get(key) for s in members]) for key, _ in columns
        }
        for system in members:
            cells = [
                f'<td><a href="#{e(anchors[id(system)])}" title="{e(system.path)}">'
                f"{e(system.name)}</a></td>",
                f'<td class="num">{len(system.result.items)}</td>',
            ]
            for key, _ in columns:
                value = system.result.totals.get(key)
                cls = "num best" if value is not None and value == bests[key] else "num"
                cells.append(f'<td class="{cls}">{fmt_metric(kind, key, value)}</td>')
            cells += ['<td class="pad"></td>'] * (width - 2 - len(columns))
            out.append(f'<tr class="system-row">{"".join(cells)}</tr>')
        out.append("</tbody>")
    out.append("</table>")
    out.append(
        '<p class="note">Dataset-level numbers as each kind computes them (flowchart costs are '
        "sums over diagrams, flow F1 is micro-averaged; table scores are means over tables; "
        "sequence error % is all errors over all ground-truth elements; graph F1 is "
        "micro-averaged over classes). ↑ higher is better, ↓ lower is better; green: the best "
        "of several systems.</p>"
    )
    return "".join(out)


# -- comparison ---------------------------------------------------------------------------------


def _comparison_tables(comparison: Comparison, metrics: Sequence[str]) -> str:
    level = f"{comparison.confidence * 100:g}%"
    mean_rows: list[list[str]] = []
    for metric in metrics:
        entry = comparison.metrics[metric]
        values = [s.mean for s in entry.systems.values()]
        best = max(values) if entry.higher_is_better else min(values)
        for k, (name, summary) in enumerate(entry.systems.items()):
            cls = "num best" if summary.mean == best and values.count(best) == 1 else "num"
            mean_rows.append(
                [
                    e(f"{metric} {'↑' if entry.higher_is_better else '↓'}") if k == 0 else "",
                    str(len(entry.items)) if k == 0 else "",
                    e(name),
                    f'<span class="{cls}">{fmt(summary.mean)}</span>',
                    f"[{fmt(summary.ci_low)}, {fmt(summary.ci_high)}]",
                ]
            )
    diff_rows: list[list[str]] = []
    for metric in metrics:
        for k, d in enumerate(comparison.metrics[metric].differences):
            significant = d.p_value < 0.05
            diff_rows.append(
                [
                    e(metric) if k == 0 else "",
                    e(f"{d.a} − {d.b}"),
                    f"{d.mean_difference:+.4f}",
                    f"[{d.ci_low:+.4f}, {d.ci_high:+.4f}]",
                    f'<span class="sig">{_p(d.p_value)}</span>' if significant else _p(d.p_value),
                ]
            )
    means = _table(
        [("metric", False), ("n", True), ("system", False), ("mean", True), (f"{level} CI", True)],
        mean_rows,
    )
    diffs = _table(
        [
            ("metric", False),
            ("a − b", False),
            ("mean difference", True),
            (f"{level} CI", True),
            ("p", True),
        ],
        diff_rows,
    )
    return (
        f'<div class="cmp-means">{means}</div><h4>Differences a − b (paired)</h4>'
        f'<div class="cmp-diffs">{diffs}</div>'
    )


def _comparison(kind: str, members: Sequence[System], options: ReportOptions) -> str:
    out = [f'<section class="comparison" data-kind="{e(kind)}"><h3>{e(KIND_TITLES[kind])}</h3>']
    try:
        comparison = compare_results(
            [s.result for s in members],
            seed=options.seed,
            n_resamples=options.n_resamples,
            n_permutations=options.n_permutations,
        )
    except InputError as error:
        out.append(f'<p class="note">Not compared: {e(error)}</p></section>')
        return "".join(out)
    out.append(
        f'<p class="note">{len(comparison.common_items)} shared {e(ITEM_NOUNS[kind])}; '
        f"{comparison.confidence * 100:g}% paired-bootstrap intervals "
        f"({comparison.n_resamples} resamples, seed {comparison.seed}); p: two-sided "
        f"sign-flip permutation test ({comparison.n_permutations} random sign flips, or exact "
        "when 2^n is fewer); bold p &lt; 0.05.</p>"
    )
    for name, items in comparison.only_in.items():
        if items:
            shown = ", ".join(items[:20]) + (" …" if len(items) > 20 else "")
            out.append(
                f'<p class="note">Only in {e(name)} ({len(items)}, not compared): {e(shown)}</p>'
            )
    headline = [m for m in HEADLINE_ITEM_METRICS[kind] if m in comparison.metrics]
    rest = [m for m in comparison.metrics if m not in headline]
    if headline:
        out.append(_comparison_tables(comparison, headline))
    if rest:
        out.append(
            f"<details><summary>All other metrics ({len(rest)})</summary>"
            f"{_comparison_tables(comparison, rest)}</details>"
        )
    out.append("</section>")
    return "".join(out)


# -- plots --------------------------------------------------------------------------------------


class _Salt:
    """Distinct, deterministic ``svg.hashsalt`` values, one per figure of the page."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> str:
        self.count += 1
        return f"parsescore-report-{self.count}"


def _figure(svg: str, caption: str, css_class: str) -> str:
    return f'<figure class="{css_class}">{svg}<figcaption>{caption}</figcaption></figure>'


def _flowchart_sizes(system: System) -> dict[str, int]:
    sizes = {}
    for diagram in _dicts(system.raw.get("diagrams")):
        nodes = [m for m in _dicts(diagram.get("node_matches")) if m.get("true_node") is not None]
        sizes[diagram.get("stem")] = len(nodes)
    return sizes


def figure67_rates(system: System) -> dict[str, dict[str, float]]:
    """Figure 6/7 data of one model: per category and line bin, summed (I+D+S)/gt × 100."""
    out: dict[str, dict[str, float]] = {}
    for category in FIGURE_CATEGORIES:
        errors = {label: 0.0 for label, _, _ in plots.LINE_BINS}
        truth = {label: 0.0 for label, _, _ in plots.LINE_BINS}
        present = {label: False for label, _, _ in plots.LINE_BINS}
        for file in _dicts(system.raw.get("files")):
            counts = file.get(category)
            if not isinstance(counts, dict) or not isinstance(file.get("gt_lines"), int):
                continue
            label = plots.line_bin(file["gt_lines"])
            present[label] = True
            errors[label] += sum(
                _num(counts.get(c)) for c in ("insertion", "deletion", "substitution")
            )
            truth[label] += _num(counts.get("gt_count"))
        out[category] = {
            label: safe_ratio(errors[label], truth[label]) * 100 if present[label] else math.nan
            for label in errors
        }
    return out


def _plots(kind: str, members: Sequence[System], salt: _Salt) -> str:
    out = [f'<section class="plots" data-kind="{e(kind)}"><h3>{e(KIND_TITLES[kind])}</h3>']
    metrics = [
        (m, higher_is_better(kind, m))
        for m in HEADLINE_ITEM_METRICS[kind]
        if any(m in values for s in members for values in s.result.items.values())
    ]
    if metrics:
        values = {
            m: {s.name: [v[m] for v in s.result.items.values() if m in v] for s in members}
            for m, _ in metrics
        }
        out.append(
            _figure(
                plots.distribution_svg(metrics, values, salt=salt()),
                f"Score distributions per {e(ITEM_NOUN[kind])}: a box per system, "
                "every item a dot (boxes of more than 400 items show their outliers instead).",
                "plot-distribution",
            )
        )
    if kind == "flowchart":
        points: dict[str, dict[str, list[tuple[float, float]]]] = {"flow": {}, "text": {}}
        for s in members:
            sizes = _flowchart_sizes(s)
            for item, v in s.result.items.items():
                size = sizes.get(item)
                if not size:
                    continue
                if "flow_f1" in v:
                    points["flow"].setdefault(s.name, []).append((size, 1 - v["flow_f1"]))
                if "node_text_cost" in v:
                    points["text"].setdefault(s.name, []).append((size, v["node_text_cost"] / size))
        panels = [
            (key, title)
            for key, title in (
                ("flow", "edge error (1 − flow F1)"),
                ("text", "node-text cost per ground-truth node"),
            )
            if points[key]
        ]
        if panels:
            svg = plots.size_scatter_svg(panels, points, xlabel="ground-truth nodes", salt=salt())
            out.append(_figure(svg, "Errors by diagram size.", "plot-size"))
    elif kind == "sequence":
        points = {"error": {}}
        for s in members:
            lines = {f.get("path"): f.get("gt_lines") for f in _dicts(s.raw.get("files"))}
            for item, v in s.result.items.items():
                if isinstance(lines.get(item), int) and "error_rate" in v:
                    points["error"].setdefault(s.name, []).append((lines[item], v["error_rate"]))
        if points["error"]:
            svg = plots.size_scatter_svg(
                [("error", "error % (all categories)")],
                points,
                xlabel="ground-truth lines",
                salt=salt(),
            )
            out.append(_figure(svg, "Errors by file size (ground-truth lines).", "plot-size"))
        rates: dict[str, dict[str, dict[str, float]]] = {c: {} for c in FIGURE_CATEGORIES}
        for s in members:
            for category, by_bin in figure67_rates(s).items():
                rates[category][s.name] = by_bin
        svg = plots.figure67_svg(rates, titles=FIGURE_TITLES, salt=salt())
        out.append(
            _figure(
                svg,
                "The paper's Figure 6/7: error % (insertions + deletions + substitutions over "
                "ground-truth elements, summed over the files of each bin) of nodes, messages "
                "and direction changes by ground-truth line count; one line per model, no "
                "point where a model has no file in the bin.",
                "plot-figure67",
            )
        )
    elif kind == "table":
        out.append(
            '<p class="note">Error by table size is not plotted: the table result JSON does '
            "not record cell counts.</p>"
        )
    out.append("</section>")
    return "".join(out)


# -- drill-down ---------------------------------------------------------------------------------


def _primary(kind: str, result_items: Mapping[str, Mapping[str, float]]) -> str | None:
    for metric in HEADLINE_ITEM_METRICS[kind]:
        if any(metric in v for v in result_items.values()):
            return metric
    return None


def _worst_first(system: System) -> list[str]:
    """Item ids, the worst by the kind's first headline metric first (ties by id)."""
    metric = _primary(system.kind, system.result.items)
    items = list(system.result.items)
    if metric is None:
        return sorted(items)
    higher = higher_is_better(system.kind, metric)

    def badness(item: str) -> tuple[float, str]:
        value = system.result.items[item].get(metric)
        if value is None:
            return (math.inf, item)
        return (-value if not higher else value, item)

    return sorted(items, key=badness)


def _item_summary(system: System, item: str) -> str:
    values = system.result.items.get(item, {})
    shown = [
        f"{e(m)} {fmt_metric(system.kind, m, values[m])}"
        for m in HEADLINE_ITEM_METRICS[system.kind]
        if m in values
    ]
    return (
        f'<span class="item-name">{e(item)}</span> <span class="muted">{" · ".join(shown)}</span>'
    )


def _flowchart_item(diagram: Mapping[str, Any]) -> str:
    out = []
    matches = _dicts(diagram.get("node_matches"))
    true_text = {
        m.get("true_node"): m.get("true_text") for m in matches if m.get("true_node") is not None
    }
    rows, classes = [], []
    label_rows, label_classes = [], []
    for m in matches:
        unmatched = m.get("match_type") != "match"
        rows.append(
            [
                e(m.get("match_type")),
                e(fmt(m.get("true_node"))) if m.get("true_node") is not None else "–",
                _text_cell(m.get("true_text")),
                e(fmt(m.get("pred_node"))) if m.get("pred_node") is not None else "–",
                _text_cell(m.get("pred_text")),
                fmt(_num(m.get("node_text_cost")), 1),
                fmt(_num(m.get("label_cost")), 1) if "label_cost" in m else "–",
            ]
        )
        cost = _num(m.get("node_text_cost")) + _num(m.get("label_cost"))
        classes.append("unmatched" if unmatched else ("diff" if cost else ""))
        for lm in _dicts(m.get("label_matches")):
            label_rows.append(
                [
                    e(m.get("true_node")) if m.get("true_node") is not None else "–",
                    e(lm.get("match_type")),
                    _text_cell(lm.get("true_text")),
                    _text_cell(lm.get("pred_text")),
                    fmt(lm.get("cost"), 1),
                ]
            )
            label_classes.append(
                "unmatched"
                if lm.get("match_type") != "match"
                else ("diff" if lm.get("cost") else "")
            )
    out.append("<h4>Node pairs</h4>")
    out.append(
        _table(
            [
                ("match", False),
                ("truth node", True),
                ("truth text", False),
                ("pred node", True),
                ("predicted text", False),
                ("text cost", True),
                ("label cost", True),
            ],
            rows,
            classes,
        )
    )
    if label_rows:
        out.append("<h4>Edge labels</h4>")
        out.append(
            _table(
                [
                    ("truth node", True),
                    ("match", False),
                    ("truth label", False),
                    ("predicted label", False),
                    ("cost", True),
                ],
                label_rows,
                label_classes,
            )
        )
    additional = _dicts(diagram.get("additional_text_matches"))
    if additional:
        out.append("<h4>Additional texts</h4>")
        out.append(
            _table(
                [("match", False), ("truth", False), ("prediction", False), ("cost", True)],
                [
                    [
                        e(a.get("match_type")),
                        _text_cell(a.get("true_text")),
                        _text_cell(a.get("pred_text")),
                        fmt(a.get("cost"), 1),
                    ]
                    for a in additional
                ],
                ["unmatched" if a.get("match_type") != "match" else "" for a in additional],
            )
        )
    flow = diagram.get("flow")
    if isinstance(flow, dict):

        def node(number: Any) -> str:
            if isinstance(number, int) and number >= 10000:
                return f"{number} (unmatched predicted node)"
            text = true_text.get(number)
            short = "" if text is None else f" ({' '.join(str(text).split())[:60]})"
            return f"{number}{short}"

        for key, title in (
            ("missing_edges", "Missing edges (in the truth, not in the prediction)"),
            ("extra_edges", "Extra edges (in the prediction, not in the truth)"),
        ):
            edges = [
                edge
                for edge in (flow.get(key) or [])
                if isinstance(edge, list | tuple) and len(edge) == 2
            ]
            out.append(f"<h4>{title}: {len(edges)}</h4>")
            if edges:
                out.append(
                    "<ul>"
                    + "".join(f"<li>{e(node(a))} → {e(node(b))}</li>" for a, b in edges)
                    + "</ul>"
                )
        out.append(
            '<p class="note">Edges use ground-truth node numbers; a predicted endpoint without '
            "a matched node gets a fresh id from 10000.</p>"
        )
    return "".join(out)


def _flowchart_drilldown(system: System, items: Sequence[str]) -> str:
    by_stem = {d.get("stem"): d for d in _dicts(system.raw.get("diagrams"))}
    out = []
    missing = system.raw.get("missing_predictions") or []
    if missing:
        out.append(f'<p class="note">Missing predictions: {e(", ".join(map(str, missing)))}</p>')
    for item in items:
        out.append(
            f'<details class="item"><summary>{_item_summary(system, item)}</summary>'
            f"{_flowchart_item(by_stem.get(item, {}))}</details>"
        )
    return "".join(out)


def _table_drilldown(system: System, items: Sequence[str]) -> str:
    metrics = system.result.metrics()
    out = []
    for key, title in (
        ("missing", "Missing predictions (scored 0)"),
        ("extra", "Extra predictions"),
    ):
        names = system.raw.get(key) or []
        if names:
            out.append(f'<p class="note">{title}: {e(", ".join(map(str, names)))}</p>')
    rows = [[e(item)] + [fmt(system.result.items[item].get(m)) for m in metrics] for item in items]
    primary = _primary("table", system.result.items)
    classes = [
        "diff" if primary is not None and system.result.items[item].get(primary, 1.0) < 1.0 else ""
        for item in items
    ]
    out.append(_table([("table", False)] + [(e(m), True) for m in metrics], rows, classes))
    details = system.result.details
    if not any("cells" in details.get(item, {}) for item in items):
        out.append(
            '<p class="note">Worst first. The cells that differ are in the result envelope '
            "(<code>parsescore table --result FILE</code>); this file holds scores only.</p>"
        )
        return "".join(out)
    out.append("<h4>The cells that differ (rows and columns aligned as GriTS aligns them)</h4>")
    for item in items:
        cells = _dicts(details.get(item, {}).get("cells"))
        if item not in details or not cells:
            continue
        counts = details[item].get("cell_changes") or {}
        tally = ", ".join(f"{n} {change}" for change, n in counts.items() if n)
        out.append(
            f'<details class="item"><summary>{_item_summary(system, item)} '
            f'<span class="muted">— {e(tally)}</span></summary>{_table_cells(cells)}</details>'
        )
    return "".join(out)


_CELLS_SHOWN = 200


def _cell_place(cell: Any) -> str:
    if not isinstance(cell, dict):
        return "–"
    spans = [f"{k[0]}{cell[k]}" for k in ("rowspan", "colspan") if cell.get(k, 1) != 1]
    return e(f"r{cell.get('row')} c{cell.get('col')}" + (f" ({' '.join(spans)})" if spans else ""))


def _table_cells(cells: Sequence[Mapping[str, Any]]) -> str:
    rows = [
        [
            e(c.get("change")),
            _cell_place(c.get("truth")),
            _text_cell((c.get("truth") or {}).get("text") if c.get("truth") else None),
            _cell_place(c.get("pred")),
            _text_cell((c.get("pred") or {}).get("text") if c.get("pred") else None),
        ]
        for c in cells[:_CELLS_SHOWN]
    ]
    header = [("change", False), ("truth cell", False), ("truth text", False)]
    header += [("predicted cell", False), ("predicted text", False)]
    more = len(cells) - _CELLS_SHOWN
    tail = f'<p class="note">… and {more} more in the result file.</p>' if more > 0 else ""
    return _table(header, rows, ["diff"] * len(rows)) + tail


_CATEGORY_ORDER = (
    "node",
    "direction",
    "direction_type",
    "message",
    "box",
    "group",
    "note",
    "participant",
)


def _sequence_item(system: System, file: Mapping[str, Any]) -> str:
    out = []
    categories = [c for c in _CATEGORY_ORDER if isinstance(file.get(c), dict)] + [
        c
        for c, v in file.items()
        if c not in _CATEGORY_ORDER and isinstance(v, dict) and "gt_count" in v
    ]
    out.append(
        _table(
            [
                ("category", False),
                ("ground truth", True),
                ("insertions", True),
                ("deletions", True),
                ("substitutions", True),
                ("error %", True),
            ],
            [
                [
                    e(c),
                    fmt(file[c].get("gt_count")),
                    fmt(file[c].get("insertion")),
                    fmt(file[c].get("deletion")),
                    fmt(file[c].get("substitution")),
                    fmt(
                        safe_ratio(
                            sum(
                                _num(file[c].get(k))
                                for k in ("insertion", "deletion", "substitution")
                            ),
                            _num(file[c].get("gt_count")),
                        )
                        * 100,
                        2,
                    ),
                ]
                for c in categories
            ],
        )
    )
    if system.differences is None:
        out.append(
            '<p class="note">Differences not available: the result JSON does not list them and '
            "there is no differences.csv next to it (write one with <code>parsescore sequence "
            "... --report DIR</code>).</p>"
        )
        return "".join(out)
    differences = system.differences.get(file.get("path"), [])
    if not differences:
        out.append('<p class="note">No differences counted.</p>')
        return "".join(out)
    out.append(f"<h4>Counted differences: {len(differences)}</h4>")
    out.append(
        _table(
            [
                ("category", False),
                ("change", False),
                ("truth line", True),
                ("truth", False),
                ("pred line", True),
                ("prediction", False),
                ("detail", False),
            ],
            [
                [
                    e(d.get("category")),
                    e(d.get("change")),
                    fmt(d.get("truth_line")) if d.get("truth_line") is not None else "–",
                    _text_cell(d.get("truth_text")),
                    fmt(d.get("pred_line")) if d.get("pred_line") is not None else "–",
                    _text_cell(d.get("pred_text")),
                    e(d.get("detail", "")),
                ]
                for d in differences
            ],
            ["unmatched" if d.get("change") != "substitution" else "diff" for d in differences],
        )
    )
    return "".join(out)


def _sequence_drilldown(system: System, items: Sequence[str]) -> str:
    by_path = {f.get("path"): f for f in _dicts(system.raw.get("files"))}
    out = []
    if system.differences_source:
        out.append(f'<p class="note">Differences read from {e(system.differences_source)}.</p>')
    for item in items:
        file = by_path.get(item, {})
        lines = file.get("gt_lines")
        suffix = f" — {lines} ground-truth lines" if isinstance(lines, int) else ""
        out.append(
            f'<details class="item"><summary>{_item_summary(system, item)}'
            f'<span class="muted">{e(suffix)}</span></summary>'
            f"{_sequence_item(system, file)}</details>"
        )
    return "".join(out)


def _graph_scores_table(section: Mapping[str, Any], what: str) -> str:
    rows, classes = [], []
    for name, rungs in section.items():
        if not isinstance(rungs, dict):
            continue
        for k, (rung, s) in enumerate(rungs.items()):
            if not isinstance(s, dict):
                continue
            rows.append(
                [
                    e(name) if k == 0 else "",
                    e(rung),
                    fmt(s.get("tp")),
                    fmt(s.get("fp")),
                    fmt(s.get("fn")),
                    fmt(s.get("p"), 3),
                    fmt(s.get("r"), 3),
                    fmt(s.get("f1"), 3),
                ]
            )
            classes.append("diff" if (s.get("fp") or s.get("fn")) else "")
    return _table(
        [
            (what, False),
            ("rung", False),
            ("tp", True),
            ("fp", True),
            ("fn", True),
            ("P", True),
            ("R", True),
            ("F1", True),
        ],
        rows,
        classes,
    )


def _graph_drilldown(system: System, items: Sequence[str]) -> str:
    raw = system.raw
    out = []
    facts = [
        f"{label}: {e(raw[key])}"
        for key, label in (("graph", "graph"), ("truth", "truth"), ("template", "template"))
        if isinstance(raw.get(key), str)
    ]
    if facts:
        out.append(f'<p class="note">{" · ".join(facts)}</p>')
    for key, title in (("nodes", "Node classes"), ("edges", "Edge labels")):
        if isinstance(raw.get(key), dict):
            out.append(f"<h4>{title}: precision, recall, F1 per rung</h4>")
            out.append(_graph_scores_table(raw[key], "class" if key == "nodes" else "label"))
    aliases = _dicts(raw.get("relaxed_alias_pairs"))
    out.append(f"<h4>Relaxed alias pairs (matched only after relaxing ids): {len(aliases)}</h4>")
    if aliases:
        out.append(
            _table(
                [("class", False), ("truth id", False), ("extracted id", False)],
                [
                    [e(a.get("class")), _text_cell(a.get("truth")), _text_cell(a.get("extracted"))]
                    for a in aliases
                    if isinstance(a, dict)
                ],
            )
        )
    alignment = raw.get("structural_alignment")
    if isinstance(alignment, dict) and alignment.get("pairs"):
        pairs = alignment["pairs"]
        out.append(f"<h4>Structural alignment pairs: {len(pairs)}</h4>")
        out.append(f'<div class="text">{e(_compact(pairs))}</div>')
    integrity = raw.get("integrity")
    if isinstance(integrity, dict) and integrity:
        out.append("<h4>Integrity</h4>")
        out.append(
            _table(
                [("check", False), ("value", False)],
                [[e(k), _text_cell(_compact(v))] for k, v in integrity.items()],
            )
        )
    completeness = raw.get("attribute_completeness")
    if isinstance(completeness, dict) and completeness:
        rows = []
        for cls, attributes in completeness.items():
            if not isinstance(attributes, dict):
                continue
            for k, (attribute, c) in enumerate(attributes.items()):
                if isinstance(c, dict):
                    rows.append(
                        [
                            e(cls) if k == 0 else "",
                            e(attribute),
                            fmt(c.get("filled")),
                            fmt(c.get("expected")),
                        ]
                    )
        out.append("<h4>Attribute completeness</h4>")
        out.append(
            _table(
                [("class", False), ("attribute", False), ("filled", True), ("expected", True)], rows
            )
        )
    out.append(_graph_unmatched(system))
    return "".join(out)


def _graph_unmatched(system: System) -> str:
    """The unmatched nodes and edges per class/label at the strictest and loosest rung."""
    rows = []
    for item, detail in system.result.details.items():
        unmatched = detail.get("unmatched")
        if not isinstance(unmatched, dict):
            continue
        for rung, lists in unmatched.items():
            if not isinstance(lists, dict):
                continue
            for side, title in (("missing", "missing (fn)"), ("extra", "extra (fp)")):
                values = lists.get(side) or []
                if values:
                    shown = [" → ".join(v) if isinstance(v, list) else str(v) for v in values]
                    rows.append([e(item), e(rung), e(title), _text_cell("\n".join(shown))])
    if not any(isinstance(d.get("unmatched"), dict) for d in system.result.details.values()):
        return (
            '<p class="note">eval.json gives the counts of unmatched nodes per class (fp: '
            "extracted but not in the truth, fn: in the truth but not extracted); the nodes "
            "themselves are in the result envelope (<code>parsescore graph --result FILE</code>)."
            "</p>"
        )
    if not rows:
        return "<h4>Unmatched nodes and edges: none</h4>"
    header = [("class / label", False), ("rung", False), ("", False), ("ids", False)]
    return "<h4>Unmatched nodes and edges</h4>" + _table(header, rows, ["diff"] * len(rows))


def _compact(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_compact(v) for v in value) if value else "(none)"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_compact(v)}" for k, v in value.items())
    return str(value)


_DRILLDOWN: dict[str, Callable[[System, Sequence[str]], str]] = {
    "flowchart": _flowchart_drilldown,
    "table": _table_drilldown,
    "sequence": _sequence_drilldown,
    "graph": _graph_drilldown,
}


def _drilldown(system: System, anchor: str, options: ReportOptions) -> str:
    items = _worst_first(system)
    total = len(items)
    if options.max_items and total > options.max_items and system.kind != "graph":
        items = items[: options.max_items]
    if system.kind == "graph":
        shown = f"{total} node classes and edge labels"
    elif len(items) < total:
        shown = f"{len(items)} of {total} {ITEM_NOUNS[system.kind]}, worst first"
    else:
        shown = f"{total} {ITEM_NOUNS[system.kind]}, worst first"
    return (
        f'<details class="system" id="{e(anchor)}" data-kind="{e(system.kind)}">'
        f'<summary>{e(system.name)} <span class="muted">({e(KIND_TITLES[system.kind])}; '
        f"{e(shown)})</span></summary>{_DRILLDOWN[system.kind](system, items)}</details>"
    )


# -- page ---------------------------------------------------------------------------------------


def render_report(systems: Sequence[System], options: ReportOptions | None = None) -> str:
    """The whole page as a string (deterministic for the same systems and options)."""
    options = options or ReportOptions()
    systems = list(systems)
    if not systems:
        raise InputError("report needs at least one result file")
    anchors = {id(s): f"system-{k + 1}" for k, s in enumerate(systems)}
    groups = _by_kind(systems)
    salt = _Salt()
    compared = {k: m for k, m in groups.items() if len(m) >= 2}
    body = [
        "<header>",
        f"<h1>{e(options.title)}</h1>",
        f'<p class="muted">{len(systems)} system{"s" if len(systems) != 1 else ""} · '
        f"{e(', '.join(KIND_TITLES[k].lower() for k in groups))} · parsescore "
        f"{e(__version__)}</p>",
        '<nav><a href="#overview">Overview</a>',
        '<a href="#comparison">Comparison</a>' if compared else "",
        '<a href="#plots">Plots</a><a href="#drilldown">Per item</a></nav>',
        "</header>",
        '<section id="overview"><h2>Overview</h2>',
        _overview(groups, anchors),
        "</section>",
    ]
    if compared:
        body.append('<section id="comparison"><h2>Comparison of systems</h2>')
        body += [_comparison(kind, members, options) for kind, members in compared.items()]
        body.append("</section>")
    body.append('<section id="plots"><h2>Plots</h2>')
    for kind, members in groups.items():
        try:
            body.append(_plots(kind, members, salt))
        except ImportError as error:  # matplotlib is the optional ``plot`` extra
            body.append(f'<p class="note">No plots: {e(error)}</p>')
            break
    body.append("</section>")
    body.append(
        '<section id="drilldown"><h2>Per item</h2><p>'
        '<button type="button" data-open="1">Expand all</button>'
        '<button type="button" data-open="0">Collapse all</button></p>'
    )
    for kind, members in groups.items():
        body.append(f"<h3>{e(KIND_TITLES[kind])}</h3>")
        body += [_drilldown(s, anchors[id(s)], options) for s in members]
    body.append("</section>")
    page = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(options.title)}</title>",
        f"<style>{CSS}</style></head><body>",
        *body,
        f"<script>{SCRIPT}</script>",
        "</body></html>",
        "",
    ]
    return "\n".join(part for part in page if part)
