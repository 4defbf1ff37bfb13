"""The HTML report: a static main page (inline CSS, SVG and a few lines of script, no network
assets), and detail pages beside it when a system has more items than the main page shows.

Sections: an overview of every system grouped by kind (the kind's own dataset-level numbers),
the comparison of systems of the same kind (:func:`parsescore.core.compare.compare_results`: means
per item with paired-bootstrap intervals, differences, permutation p-values), plots (score
distributions, and each kind's own figures) and per system a sortable item table, worst first
and coloured, then a drill-down per item with its drawing, made by each kind's renderers
(:attr:`parsescore.core.kinds.Kind.report`) from ``Result.details``. This module holds the page and
the helpers the kinds' renderers share (escaping, tables, character-level differences, the
colour scale); it names no kind. Every piece of user text goes through :func:`html.escape`;
the pages have no date and no random ids, so the same inputs give the same bytes.
"""

from __future__ import annotations

import difflib
import hashlib
import html
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parsescore import __version__
from parsescore.core.compare import (
    DEFAULT_PERMUTATIONS,
    DEFAULT_RESAMPLES,
    Comparison,
    MetricComparison,
    compare_by,
    compare_results,
)
from parsescore.core.errors import InputError
from parsescore.core.kinds import Kind, Metric, get_kind, kinds
from parsescore.core.results import Result
from parsescore.report import plots

__all__ = [
    "Cell",
    "ReportOptions",
    "Salt",
    "System",
    "answer_badge",
    "answer_state",
    "badness",
    "char_diff",
    "compact",
    "dicts",
    "e",
    "figure",
    "fmt",
    "headline_metric",
    "html_table",
    "inline_markup",
    "item_anchor",
    "item_details",
    "item_summary",
    "num",
    "render_pages",
    "render_report",
    "scale_style",
    "text_cell",
    "text_pair",
    "unique_svg_ids",
    "value_cell",
    "worst_first",
]

CSS = """
:root{--fg:#1d2430;--muted:#5b6573;--line:#d9dee5;--head:#f2f4f7;--good:#0b6b3a;--bad:#a01c1c}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
color:var(--fg);margin:0;padding:0 28px 40px;max-width:1500px}
p,h1,h2,h3,h4,summary{overflow-wrap:anywhere}
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
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}td.num{white-space:nowrap}
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
.panels{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:flex-start}
.panels>svg{flex:0 1 auto;min-width:0}
.scroll{max-width:100%;overflow-x:auto}.scroll>table{margin:6px 0}
del{background:#ffc9c9;text-decoration:line-through;color:#7a0000}
ins{background:#b8f0c8;text-decoration:none;color:#004d1a}
.drawing{margin:8px 0}.pair{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
.pair>div{flex:1 1 300px;min-width:0;max-width:100%;overflow-x:auto}
.pair h5{margin:4px 0;font-size:13px}
svg.flow text{font:11px system-ui,sans-serif}
td.del,td.ins,td.sub{background:#fde2e2}td.ins{background:#e0f5e6}td.sub{background:#fff1cc}
th.del{background:#f5b5b5}th.ins{background:#b8e6c4}
td.gapcell,tr.gap td{background:repeating-linear-gradient(45deg,#f4f4f4 0 6px,#e6e6e6 6px 12px)}
table.grid td{max-width:240px;font-size:12px}table.grid th{font-size:11px;color:var(--muted)}
td.ln{color:var(--muted);font-size:11px;text-align:right}
table.split tr.same td{color:var(--muted)}table.split tr.skip td{border-left:0;border-right:0;
padding:0 8px;line-height:1}
table.split td{font-family:ui-monospace,"DejaVu Sans Mono",monospace;white-space:pre-wrap;
font-size:12px;word-break:break-word;min-width:60px}
.legend span{display:inline-block;margin-right:12px}
input.filter{font:inherit;margin:4px 0;max-width:100%}
th.sort{cursor:pointer}
.item-list td.num{font-weight:600}
.answer-state{display:inline-block;font-size:11px;font-weight:600;color:#fff;background:#a01c1c;
border-radius:3px;padding:0 5px;margin-left:4px;white-space:nowrap}
@media (max-width:700px){body{padding:0 10px 30px}h1{font-size:20px}
figure{margin:8px 0}.pair>div{flex-basis:100%}}
svg.drawing{max-width:none}:has(>svg.drawing){overflow-x:auto;max-width:100%}
@media (max-width:600px){
table.split,table.split tbody,table.split tr{display:block;width:100%}
table.split td{display:block;width:100%;min-width:0}
table.split td.ln{display:none}table.split td:empty{display:none}
table.split tr{border-bottom:2px solid var(--line)}}
.overview-box{max-width:100%;overflow-x:auto}
.overview-box th:first-child,.overview-box td:first-child{position:sticky;left:0;
background:#fff;z-index:1}.overview-box th:first-child{background:var(--head)}
"""

SCRIPT = """
document.querySelectorAll('button[data-open]').forEach(function (button) {
  button.addEventListener('click', function () {
    var open = button.getAttribute('data-open') === '1';
    document.querySelectorAll('#drilldown details').forEach(function (d) { d.open = open; });
  });
});
document.querySelectorAll('table.sortable').forEach(function (table) {
  var body = table.tBodies[0], input = document.createElement('input');
  input.className = 'filter'; input.type = 'search'; input.placeholder = 'filter rows';
  table.parentNode.insertBefore(input, table);
  input.addEventListener('input', function () {
    var q = input.value.toLowerCase();
    Array.from(body.rows).forEach(function (r) {
      r.hidden = q !== '' && r.textContent.toLowerCase().indexOf(q) < 0;
    });
  });
  Array.from(table.tHead.rows[0].cells).forEach(function (th, col) {
    th.classList.add('sort'); th.title = 'sort';
    th.addEventListener('click', function () {
      var down = th.getAttribute('data-dir') !== 'asc';
      th.setAttribute('data-dir', down ? 'asc' : 'desc');
      var key = function (r) {
        var c = r.cells[col], v = c ? c.getAttribute('data-v') : null;
        return v !== null ? parseFloat(v) : (c ? c.textContent : '');
      };
      Array.from(body.rows).sort(function (a, b) {
        var x = key(a), y = key(b), o = x < y ? -1 : (x > y ? 1 : 0);
        return down ? o : -o;
      }).forEach(function (r) { body.appendChild(r); });
    });
  });
});
"""


@dataclass(frozen=True)
class ReportOptions:
    """Settings of the comparison and of the drill-down (``max_items``: items per system with
    their detail on the main page, and per detail page; 0 puts every item on the main page;
    ``by``: an item attribute to compare within each value of)."""

    seed: int = 0
    n_resamples: int = DEFAULT_RESAMPLES
    n_permutations: int = DEFAULT_PERMUTATIONS
    max_items: int = 200
    title: str = "parsescore report"
    by: str | None = None


@dataclass(frozen=True)
class System:
    """One system of the report: its result as the kind's ``prepare`` made it, where it was
    read from, and the kind's notes for the drill-down (e.g. where extra detail came from)."""

    result: Result
    path: Path | None = None
    notes: Mapping[str, Any] = field(default_factory=dict)
    dataset: str = ""

    @property
    def kind(self) -> str:
        return self.result.kind

    @property
    def group(self) -> str:
        """The report groups (overview, comparison, plots) systems of one kind on one dataset:
        ``kind`` or ``kind/dataset`` when the report names datasets (``parsescore bench``)."""
        return f"{self.kind}/{self.dataset}" if self.dataset else self.kind

    @property
    def name(self) -> str:
        return self.result.name


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


def dicts(value: Any) -> list[Mapping[str, Any]]:
    """The JSON objects of a JSON array (anything else is ignored: the drill-down is tolerant)."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def num(value: Any) -> float:
    """A JSON value as a number for sums (0 for anything else)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    return float(value)


def compact(value: Any) -> str:
    """A JSON value as one line of text."""
    if isinstance(value, list):
        return ", ".join(compact(v) for v in value) if value else "(none)"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {compact(v)}" for k, v in value.items())
    return str(value)


def _p(value: float) -> str:
    return f"{value:.4f}" if value >= 1e-4 else f"{value:.1e}"


#: A table cell: its HTML, or ``(HTML, extra <td> attributes)`` (a colour, a sort key).
Cell = str | tuple[str, str]


def html_table(
    header: Sequence[tuple[str, bool]],
    rows: Iterable[Sequence[Cell]],
    row_class: Sequence[str] = (),
    *,
    sortable: bool = False,
) -> str:
    """A table in its own horizontal scroll box (a wide table never widens the page);
    ``header`` is ``[(escaped title, numeric)]``, cells are already-escaped HTML. A
    ``sortable`` table gets a filter box and sortable columns from the page's script."""
    numeric = [n for _, n in header]
    out = [
        '<div class="scroll"><table class="sortable">'
        if sortable
        else '<div class="scroll"><table>'
    ]
    out.append("<thead><tr>")
    out += [f"<th{' class=num' if n else ''}>{title}</th>" for title, n in header]
    out.append("</tr></thead><tbody>")
    classes = list(row_class)
    for k, row in enumerate(rows):
        cls = classes[k] if k < len(classes) and classes[k] else ""
        out.append(f'<tr class="{cls}">' if cls else "<tr>")
        for k2, cell in enumerate(row):
            content, extra = (cell, "") if isinstance(cell, str) else cell
            num_class = " class=num" if k2 < len(numeric) and numeric[k2] else ""
            out.append(f"<td{num_class}{' ' + extra if extra else ''}>{content}</td>")
        out.append("</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def text_cell(value: Any) -> str:
    """A text (node text, cell, line) in a monospace block; ``–`` when there is none."""
    return (
        '<span class="muted">–</span>' if value is None else f'<div class="text">{e(value)}</div>'
    )


_INLINE_TAG = re.compile(r"&lt;(/?)(b|i|em|strong|sup|sub)&gt;|&lt;br\s*/?&gt;")
_DIFF_TAG = re.compile(r"</?(?:del|ins)>")


def _diff_balanced(html_text: str) -> bool:
    """Whether every ``<del>``/``<ins>`` opened in ``html_text`` closes in it too."""
    depth = 0
    for tag in _DIFF_TAG.findall(html_text):
        depth += -1 if tag.startswith("</") else 1
        if depth < 0:
            return False
    return depth == 0


def inline_markup(escaped: str) -> str:
    """An escaped table cell (``e(text)`` or a :func:`char_diff` side) with its inline markup
    shown as markup: ``<b>``, ``<i>``, ``<em>``, ``<strong>``, ``<sup>``, ``<sub>`` (each
    pair with no attribute, closed in the same cell and not across a marked difference) and
    ``<br>``. Nothing else becomes a tag: every other ``&lt;…&gt;`` stays text.

    >>> inline_markup(e("<b>n</b> = 5<sup>a</sup><br/><script>x</script>"))
    '<b>n</b> = 5<sup>a</sup><br>&lt;script&gt;x&lt;/script&gt;'
    """
    matches = list(_INLINE_TAG.finditer(escaped))
    keep: dict[int, str] = {}  # match start -> the tag it becomes
    open_at: list[tuple[str, re.Match[str]]] = []
    for match in matches:
        closing, name = match.group(1), match.group(2)
        if name is None:  # <br>
            keep[match.start()] = "<br>"
        elif not closing:
            open_at.append((name, match))
        elif open_at and open_at[-1][0] == name:
            _, opened = open_at.pop()
            if _diff_balanced(escaped[opened.end() : match.start()]):
                keep[opened.start()] = f"<{name}>"
                keep[match.start()] = f"</{name}>"
        else:
            open_at.clear()  # crossed pairs: leave the rest as text
    if not keep:
        return escaped
    out: list[str] = []
    last = 0
    for match in matches:
        if match.start() in keep:
            out += [escaped[last : match.start()], keep[match.start()]]
            last = match.end()
    return "".join(out) + escaped[last:]


#: Texts longer than this are compared in words rather than characters (bounded time).
_CHAR_LIMIT = 2000


def _tokens(text: str, words: bool) -> list[str]:
    if not words:
        return list(text)
    out: list[str] = []
    for k, part in enumerate(text.split(" ")):
        out += ([" "] if k else []) + ([part] if part else [])
    return out


def char_diff(truth: str, pred: str) -> tuple[str, str]:
    """Both texts as escaped HTML with what differs marked, as ``git diff --word-diff`` does
    by characters: truth's deleted characters in ``<del>``, the prediction's inserted ones in
    ``<ins>`` (difflib's opcodes; longer texts are compared word by word, bounding the time).

    >>> char_diff("n=114", "n=115")
    ('n=11<del>4</del>', 'n=11<ins>5</ins>')
    """
    words = max(len(truth), len(pred)) > _CHAR_LIMIT
    a, b = _tokens(truth, words), _tokens(pred, words)
    left: list[str] = []
    right: list[str] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        old, new = e("".join(a[i1:i2])), e("".join(b[j1:j2]))
        if op == "equal":
            left.append(old)
            right.append(new)
            continue
        if old:
            left.append(f"<del>{old}</del>")
        if new:
            right.append(f"<ins>{new}</ins>")
    return "".join(left), "".join(right)


def text_pair(truth: Any, pred: Any) -> tuple[str, str]:
    """Two :func:`text_cell` blocks with their character differences marked (a side that is
    missing shows ``–``)."""
    if not isinstance(truth, str) or not isinstance(pred, str):
        return text_cell(truth), text_cell(pred)
    old, new = char_diff(truth, pred)
    return f'<div class="text">{old}</div>', f'<div class="text">{new}</div>'


def headline_metric(kind: Kind, values: Mapping[str, float] | None = None) -> str | None:
    """The metric items are ranked and coloured by: the first headline metric on a fixed scale
    (a score in [0, 1] or a percentage), so that a big item's raw cost does not outrank a
    small item's worse score; the first headline metric when none is on a fixed scale. With
    ``values``, the first such metric the item has."""
    names = [n for n in kind.headline_metrics() if values is None or n in values]
    scaled = [n for n in names if kind.metric(n).format in ("score", "percent")]
    chosen = scaled or names
    return chosen[0] if chosen else None


def badness(kind: Kind, metric: str, value: float) -> float | None:
    """How bad a value is on a 0 (perfect) to 1 (worst) scale, monotone in the value; None for
    a metric not on a fixed scale (a cost) or an unranked one."""
    m = kind.metric(metric)
    if m.higher_is_better is None or value != value:
        return None
    if m.format == "score":
        bad = 1 - value if m.higher_is_better else value
    elif m.format == "percent":
        bad = (100 - value if m.higher_is_better else value) / 100
    else:
        return None
    # the square root spreads the near-perfect end, where most items are
    return math.sqrt(min(1.0, max(0.0, bad)))


def scale_style(bad: float | None) -> str:
    """A background from green (0, perfect) through yellow to red (1, worst)."""
    if bad is None:
        return ""
    return f"background:hsl({round(120 * (1 - bad))},70%,{round(86 - 6 * bad)}%)"


def value_cell(kind: Kind, metric: str, value: float | None) -> Cell:
    """A metric's value, coloured by :func:`badness`, with its number as the sort key."""
    if value is None:
        return '<span class="muted">–</span>'
    bad = badness(kind, metric, value)
    style = scale_style(bad)
    extra = f'data-v="{value!r}"' + (f' style="{style}"' if style else "")
    return kind.metric(metric).show(value), extra


def item_anchor(system: System, item: str) -> str:
    """A stable element id for an item's drill-down (no user text in ids)."""
    digest = hashlib.sha1(f"{system.name}\0{item}".encode()).hexdigest()[:12]
    return f"item-{digest}"


def item_details(system: System, item: str, body: str, extra: str = "") -> str:
    """An item's collapsible drill-down: its summary line (and ``extra`` HTML), then ``body``."""
    return (
        f'<details class="item" id="{item_anchor(system, item)}"><summary>'
        f"{item_summary(system, item)}{extra}</summary>{body}</details>"
    )


# -- overview -----------------------------------------------------------------------------------


def _by_kind(systems: Sequence[System]) -> dict[str, list[System]]:
    """Systems by group (:attr:`System.group`): kinds in registry order, datasets in the order
    they come."""
    groups: dict[str, list[System]] = {}
    for kind in kinds():
        for system in systems:
            if system.kind == kind.name:
                groups.setdefault(system.group, []).append(system)
    return groups


def _kind_of(members: Sequence[System]) -> Kind:
    return get_kind(members[0].kind)


def _title(members: Sequence[System]) -> str:
    """A group's heading: the kind's title, and the dataset's name when the report has them."""
    dataset = members[0].dataset
    return _kind_of(members).title + (f" — {dataset}" if dataset else "")


def _best(higher: bool | None, values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    if len(present) < 2 or higher is None:
        return None
    best = max(present) if higher else min(present)
    return best if present.count(best) == 1 else None


def _counts(kind: Kind, system: System) -> list[tuple[str, int]]:
    """The overview's counts of a system: the kind's own (``ReportParts.counts``) or its items."""
    if kind.report.counts is not None:
        return list(kind.report.counts(system.result))
    return [(system.result.nouns()[1], len(system.result.items))]


def _overview_metrics(kind: Kind, members: Sequence[System]) -> list[Metric]:
    """The overview's columns of a kind: its headline totals, then the share of readable
    answers (:mod:`parsescore.shared.coverage`), each where some system has it."""
    from parsescore.shared.coverage import READABLE

    metrics = [*kind.headline_totals(), READABLE]
    unique = list({m.name: m for m in metrics}.values())
    return [m for m in unique if any(m.name in s.result.totals for s in members)]


def _overview(groups: Mapping[str, list[System]], anchors: Mapping[int, str]) -> str:
    present = {
        name: _overview_metrics(_kind_of(members), members) for name, members in groups.items()
    }
    counted = {
        name: [label for label, _ in _counts(_kind_of(members), members[0])]
        for name, members in groups.items()
    }
    width = 1 + max(len(counted[name]) + len(columns) for name, columns in present.items())
    out = ['<div class="scroll overview-box"><table id="overview-table">']
    for name, members in groups.items():
        kind = _kind_of(members)
        columns = present[name]
        pad = width - 1 - len(counted[name]) - len(columns)
        out.append(f'<tbody class="kind" data-kind="{e(kind.name)}">')
        out.append(f'<tr class="kind-title"><th colspan="{width}">{e(_title(members))}</th></tr>')
        # the headline numbers right after the system (its column stays in view when the
        # table scrolls), the counts after them
        out.append('<tr class="kind-head"><th>system</th>')
        out += [f'<th class="num">{e(m.label)} {m.arrow}</th>' for m in columns]
        out += [f'<th class="num">{e(label)}</th>' for label in counted[name]]
        out += ['<th class="pad"></th>'] * pad
        out.append("</tr>")
        bests = {
            m.name: _best(m.higher_is_better, [s.result.totals.get(m.name) for s in members])
            for m in columns
        }
        for system in members:
            title = "" if system.path is None else f' title="{e(system.path)}"'
            cells = [f'<td><a href="#{e(anchors[id(system)])}"{title}>{e(system.name)}</a></td>']
            for metric in columns:
                value = system.result.totals.get(metric.name)
                cls = "num best" if value is not None and value == bests[metric.name] else "num"
                bad = None if value is None else badness(kind, metric.name, value)
                style = f' style="{scale_style(bad)}"' if bad is not None else ""
                cells.append(f'<td class="{cls}"{style}>{metric.show(value)}</td>')
            cells += [f'<td class="num">{n}</td>' for _, n in _counts(kind, system)]
            cells += ['<td class="pad"></td>'] * pad
            out.append(f'<tr class="system-row">{"".join(cells)}</tr>')
        out.append("</tbody>")
    out.append("</table></div>")
    notes = "; ".join(dict.fromkeys(_kind_of(members).totals_note for members in groups.values()))
    out.append(
        f'<p class="note">Dataset-level numbers as each kind computes them ({e(notes)}); the '
        "comparison below gives means per item, named so. ↑ higher is better, ↓ lower is "
        "better; bold green: the best of several systems; background: green (perfect) to red "
        "(worst) for scores and percentages.</p>"
    )
    return "".join(out)


# -- comparison ---------------------------------------------------------------------------------


def _comparison_tables(
    comparison: Comparison, entries: Sequence[tuple[str, MetricComparison]]
) -> str:
    """The values with their intervals, then the paired differences, of ``entries``
    (``(title, comparison of one statistic or metric)``)."""
    level = f"{comparison.confidence * 100:g}%"
    value_rows: list[list[str]] = []
    for title, entry in entries:
        values = [s.mean for s in entry.systems.values()]
        best = max(values) if entry.higher_is_better else min(values)
        for k, (name, summary) in enumerate(entry.systems.items()):
            cls = "num best" if summary.mean == best and values.count(best) == 1 else "num"
            value_rows.append(
                [
                    e(f"{title} {'↑' if entry.higher_is_better else '↓'}") if k == 0 else "",
                    str(len(entry.items)) if k == 0 else "",
                    e(name),
                    f'<span class="{cls}">{fmt(summary.mean)}</span>',
                    f"[{fmt(summary.ci_low)}, {fmt(summary.ci_high)}]",
                ]
            )
    diff_rows: list[list[str]] = []
    for title, entry in entries:
        for k, d in enumerate(entry.differences):
            significant = d.p_value < 0.05
            diff_rows.append(
                [
                    e(title) if k == 0 else "",
                    e(f"{d.a} − {d.b}"),
                    f"{d.mean_difference:+.4f}",
                    f"[{d.ci_low:+.4f}, {d.ci_high:+.4f}]",
                    f'<span class="sig">{_p(d.p_value)}</span>' if significant else _p(d.p_value),
                ]
            )
    values_table = html_table(
        [
            ("statistic", False),
            ("n", True),
            ("system", False),
            ("value", True),
            (f"{level} CI", True),
        ],
        value_rows,
    )
    diffs = html_table(
        [
            ("statistic", False),
            ("a − b", False),
            ("difference", True),
            (f"{level} CI", True),
            ("p", True),
        ],
        diff_rows,
    )
    return (
        f'<div class="cmp-means">{values_table}</div><h4>Differences a − b (paired)</h4>'
        f'<div class="cmp-diffs">{diffs}</div>'
    )


def _comparison(kind: Kind, members: Sequence[System], options: ReportOptions) -> str:
    out = [f'<section class="comparison" data-kind="{e(kind.name)}"><h3>{e(_title(members))}</h3>']
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
    nouns = members[0].result.nouns()
    out.append(
        f'<p class="note">{len(comparison.common_items)} shared {e(nouns[1])}; '
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
    # the dataset's numbers under the overview's names first (pooled, micro: statistics of the
    # items' summed counts), then per-item means, named as means
    headline_totals = {m.name for m in kind.headline_totals()}
    headline_metrics = set(kind.headline_metrics())
    statistics = [(entry.label, entry) for entry in comparison.statistics.values()]
    means = [
        (f"mean per {nouns[0]} of {kind.metric(metric).label}", entry)
        for metric, entry in comparison.metrics.items()
    ]
    first = [s for s in statistics if s[1].metric in headline_totals]
    first += [m for m in means if m[1].metric in headline_metrics]
    rest = [s for s in (*statistics, *means) if s not in first]
    if first:
        out.append(_comparison_tables(comparison, first))
    if rest:
        out.append(
            f"<details><summary>All other metrics ({len(rest)})</summary>"
            f"{_comparison_tables(comparison, rest)}</details>"
        )
    if options.by:
        headline = headline_totals | headline_metrics
        out.append(_comparison_by(kind, members, options, options.by, headline))
    out.append("</section>")
    return "".join(out)


def _comparison_by(
    kind: Kind, members: Sequence[System], options: ReportOptions, field: str, headline: set[str]
) -> str:
    """The headline comparison within each value of the item attribute ``field`` (``--by``)."""
    try:
        per_value = compare_by(
            [s.result for s in members],
            field,
            seed=options.seed,
            n_resamples=options.n_resamples,
            n_permutations=options.n_permutations,
        )
    except InputError as error:
        return f'<p class="note">No breakdown by {e(field)}: {e(error)}</p>'
    nouns = members[0].result.nouns()
    out = [f'<h4 class="by">By {e(field)}</h4>']
    for value, comparison in per_value.items():
        entries = [
            (entry.label, entry)
            for entry in comparison.statistics.values()
            if entry.metric in headline
        ]
        entries += [
            (f"mean per {nouns[0]} of {kind.metric(metric).label}", entry)
            for metric, entry in comparison.metrics.items()
            if metric in headline
        ]
        out.append(
            f'<h5>{e(field)} = {e(value)} <span class="muted">'
            f"({len(comparison.common_items)} {e(nouns[1])})</span></h5>"
        )
        if entries:
            out.append(_comparison_tables(comparison, entries))
    return "".join(out)


# -- plots --------------------------------------------------------------------------------------


class Salt:
    """Distinct, deterministic ``svg.hashsalt`` values, one per figure of the page."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> str:
        self.count += 1
        return f"parsescore-report-{self.count}"


def figure(svg: str | Sequence[str], caption: str, css_class: str) -> str:
    """A figure with its caption (``caption`` is HTML); several panels (one SVG each) sit side
    by side where the page is wide and stack where it is narrow."""
    panels = [svg] if isinstance(svg, str) else list(svg)
    return (
        f'<figure class="{css_class}"><div class="panels">{"".join(panels)}</div>'
        f"<figcaption>{caption}</figcaption></figure>"
    )


def _plots(kind: Kind, members: Sequence[System], salt: Salt) -> str:
    out = [f'<section class="plots" data-kind="{e(kind.name)}"><h3>{e(_title(members))}</h3>']
    metrics = [
        (m, kind.metric(m).higher_is_better is not False)
        for m in kind.headline_metrics()
        if any(m in values for s in members for values in s.result.items.values())
    ]
    if metrics:
        values = {
            m: {s.name: [v[m] for v in s.result.items.values() if m in v] for s in members}
            for m, _ in metrics
        }
        out.append(
            figure(
                [
                    plots.distribution_svg([(m, up)], {m: values[m]}, salt=salt())
                    for m, up in metrics
                ],
                f"Score distributions per {e(members[0].result.nouns()[0])}: a box per system, "
                "every item a dot (boxes of more than 400 items show their outliers instead).",
                "plot-distribution",
            )
        )
    if kind.report.plots is not None:
        out.append(kind.report.plots(members, salt))
    out.append("</section>")
    return "".join(out)


# -- drill-down ---------------------------------------------------------------------------------


def _rank(kind: Kind, values: Mapping[str, float]) -> float:
    """How bad an item is (larger: worse) by its :func:`headline_metric`."""
    metric = headline_metric(kind, values)
    if metric is None:
        return math.inf
    value = values[metric]
    if value != value:
        return math.inf
    bad = badness(kind, metric, value)
    if bad is not None:
        return bad
    return value if kind.metric(metric).higher_is_better is False else -value


def worst_first(system: System) -> list[str]:
    """Item ids, the worst first by each item's :func:`headline_metric` (ties by id)."""
    kind = get_kind(system.kind)
    items = system.result.items
    return sorted(items, key=lambda item: (-_rank(kind, items[item]), item))


def answer_state(system: System, item: str) -> str | None:
    """``"unreadable answer"`` or ``"missing answer"`` when the item's answer was scored as
    empty (the result's ``unreadable`` / ``missing`` lists, or its ``readable`` of 0), else
    None."""
    facts = system.result.dataset
    unreadable, missing = facts.get("unreadable") or {}, facts.get("missing") or []
    if isinstance(unreadable, Mapping | list) and item in unreadable:
        return "unreadable answer"
    if isinstance(missing, Mapping | list) and item in missing:
        return "missing answer"
    if system.result.items.get(item, {}).get("readable") == 0.0:
        return "no readable answer"
    return None


def answer_badge(system: System, item: str) -> str:
    """The mark of an item whose answer is missing or unreadable (``""`` otherwise), shown
    wherever the item appears: its row in the item table and its drill-down."""
    state = answer_state(system, item)
    return "" if state is None else f' <span class="answer-state">{e(state)}</span>'


def item_summary(system: System, item: str) -> str:
    """An item's name, the mark of a missing or unreadable answer, and its headline numbers,
    for a drill-down ``<summary>``."""
    kind = get_kind(system.kind)
    values = system.result.items.get(item, {})
    shown = [
        f"{e(m)} {kind.metric(m).show(values[m])}" for m in kind.headline_metrics() if m in values
    ]
    return (
        f'<span class="item-name">{e(item)}</span>{answer_badge(system, item)} '
        f'<span class="muted">{" · ".join(shown)}</span>'
    )


def item_table(system: System, items: Sequence[str], where: Mapping[str, str]) -> str:
    """The per-item table: the listed items, worst first, with their headline metrics coloured
    from green (perfect) to red (worst); sortable and filterable. ``where[item]`` is the page
    (``""``: this one) holding an item's drill-down; items not in it are not linked."""
    kind = get_kind(system.kind)
    metrics = [
        m for m in kind.headline_metrics() if any(m in system.result.items[i] for i in items)
    ]
    rows = []
    for item in items:
        values = system.result.items[item]
        name = e(item)
        if item in where:
            name = f'<a href="{e(where[item])}#{item_anchor(system, item)}">{name}</a>'
        name += answer_badge(system, item)
        rows.append([name, *(value_cell(kind, m, values.get(m)) for m in metrics)])
    header = [
        (e(system.result.nouns()[0]), False),
        *((f"{e(kind.metric(m).label)} {kind.metric(m).arrow}", True) for m in metrics),
    ]
    return f'<div class="item-list">{html_table(header, rows, sortable=True)}</div>'


#: At most this many rows in a system's item table on the main page (the detail pages list
#: the rest), so that the main page stays small for any number of items.
MAX_LISTED = 2000


def _drilldown(system: System, anchor: str, options: ReportOptions, pages: dict[str, str]) -> str:
    """The system's item table and its worst items' drill-down on the main page; with more
    items than ``options.max_items``, the rest go to detail pages ``items/ANCHOR-N.html``
    (added to ``pages``), linked from the table and a list of pages."""
    kind = get_kind(system.kind)
    items = worst_first(system)
    total = len(items)
    size = options.max_items or total or 1
    chunks = [items[k : k + size] for k in range(0, total, size)] or [[]]
    where = {item: "" for item in chunks[0]}
    names = [f"items/{anchor}-{k + 1}.html" for k in range(len(chunks))]
    for name, chunk in zip(names[1:], chunks[1:], strict=True):
        where |= dict.fromkeys(chunk, name)
    listed = items[:MAX_LISTED]
    ranked = headline_metric(kind)
    order = "" if ranked is None else f" by {kind.metric(ranked).label}"
    items_noun = system.result.nouns()[1]
    shown = f"{total} {items_noun}, worst first{order}"
    links = ""
    if len(chunks) > 1:
        links = (
            f'<p class="pages">Detail of {len(chunks[0])} {e(items_noun)} below; the others on '
            + " ".join(f'<a href="{e(n)}">{k + 2}</a>' for k, n in enumerate(names[1:]))
            + f" ({size} per page).</p>"
        )
        for k, (name, chunk) in enumerate(zip(names[1:], chunks[1:], strict=True)):
            back = f"../index.html#{e(anchor)}"
            first = (k + 1) * size + 1
            title = f"{system.name}: {items_noun} {first}–{first + len(chunk) - 1} of {total}"
            detail = kind.report.drilldown(system, chunk)
            here = {i: "" for i in chunk if _has_drilldown(detail, system, i)}
            pages[name] = _page(
                title,
                f'<header><h1>{e(title)}</h1><p><a href="{back}">Back to the report</a>'
                f"</p></header>{item_table(system, chunk, here)}{detail}",
            )
    more = ""
    if len(listed) < total:
        more = (
            f'<p class="note">The {len(listed)} worst of {total} listed here; the detail '
            "pages list the others.</p>"
        )
    detail = kind.report.drilldown(system, chunks[0])
    # link only to drill-downs that exist (a kind may draw none for an item: scores only)
    where = {i: page for i, page in where.items() if page or _has_drilldown(detail, system, i)}
    return (
        f'<details class="system" id="{e(anchor)}" data-kind="{e(system.kind)}">'
        f'<summary>{e(system.name)} <span class="muted">({e(kind.title)}; '
        f"{e(shown)})</span></summary>{item_table(system, listed, where)}{more}{links}"
        f"{detail}</details>"
    )


def _has_drilldown(html_text: str, system: System, item: str) -> bool:
    return f'id="{item_anchor(system, item)}"' in html_text


# -- page ---------------------------------------------------------------------------------------


def render_report(systems: Sequence[System], options: ReportOptions | None = None) -> str:
    """The main page as a string (deterministic for the same systems and options)."""
    return render_pages(systems, options)["index.html"]


def render_pages(systems: Sequence[System], options: ReportOptions | None = None) -> dict[str, str]:
    """Every page of the report by its path in the report folder: ``index.html`` and, for a
    system with more items than ``options.max_items``, its detail pages ``items/*.html``."""
    options = options or ReportOptions()
    systems = list(systems)
    if not systems:
        raise InputError("report needs at least one result file")
    anchors = {id(s): f"system-{k + 1}" for k, s in enumerate(systems)}
    groups = _by_kind(systems)
    salt = Salt()
    compared = {k: m for k, m in groups.items() if len(m) >= 2}
    body = [
        "<header>",
        f"<h1>{e(options.title)}</h1>",
        f'<p class="muted">{len(systems)} system{"s" if len(systems) != 1 else ""} · '
        f"{e(', '.join(dict.fromkeys(_kind_of(m).title.lower() for m in groups.values())))} "
        "· parsescore "
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
        body += [_comparison(_kind_of(members), members, options) for members in compared.values()]
        body.append("</section>")
    body.append('<section id="plots"><h2>Plots</h2>')
    for members in groups.values():
        try:
            body.append(_plots(_kind_of(members), members, salt))
        except ImportError as error:  # matplotlib is the optional ``plot`` extra
            body.append(f'<p class="note">No plots: {e(error)}</p>')
            break
    body.append("</section>")
    body.append(
        '<section id="drilldown"><h2>Per item</h2><p>'
        '<button type="button" data-open="1">Expand all</button>'
        '<button type="button" data-open="0">Collapse all</button></p>'
    )
    pages: dict[str, str] = {}
    for members in groups.values():
        body.append(f"<h3>{e(_title(members))}</h3>")
        body += [_drilldown(s, anchors[id(s)], options, pages) for s in members]
    body.append("</section>")
    return {"index.html": _page(options.title, "\n".join(part for part in body if part))} | pages


_SVG = re.compile(r"<svg\b.*?</svg>", re.S)
_SVG_ID = re.compile(r'\bid="([^"]+)"')


def unique_svg_ids(body: str) -> str:
    """``body`` with the ids inside each ``<svg>`` (arrowhead markers, matplotlib's clip paths
    and glyphs) made unique on the page: the n-th drawing's ``arrow-0`` becomes ``s<n>-arrow-0``,
    and its ``url(#…)`` and ``href="#…"`` references follow. Two drawings defining the same id
    would otherwise share one (the browser takes the first: arrowheads of the wrong colour)."""
    count = 0

    def one(match: re.Match[str]) -> str:
        nonlocal count
        svg = match.group(0)
        ids = set(_SVG_ID.findall(svg))
        if not ids:
            return svg
        count += 1
        prefix = f"s{count}-"

        def renamed(found: re.Match[str]) -> str:
            name = found.group(2)
            return found.group(1) + (prefix + name if name in ids else name) + found.group(3)

        return re.sub(r'(\bid="|url\(#|href="#)([^")]+)([")])', renamed, svg)

    return _SVG.sub(one, body)


def _page(title: str, body: str) -> str:
    """A self-contained page: inline style and script, nothing fetched; every id inside its
    drawings unique (:func:`unique_svg_ids`)."""
    body = unique_svg_ids(body)
    page = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(title)}</title>",
        f"<style>{CSS}</style></head><body>",
        body,
        f"<script>{SCRIPT}</script>",
        "</body></html>",
        "",
    ]
    return "\n".join(page)
