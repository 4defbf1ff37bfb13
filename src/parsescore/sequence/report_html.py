"""The sequence part of the HTML report: the paper's Figure 6/7 and errors by file size, and
per file its counts per category and every counted difference (from ``Result.details``).

:func:`prepare` adds what the report plots beside the metrics: each file's error % of the
Figure 6/7 categories (``node_error_rate``, ...), and the counted differences from a
``differences.csv`` written beside a native ``--out`` (``parsescore sequence --report``) when the
result itself does not hold them.
"""

from __future__ import annotations

import csv
import difflib
import io
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from parsescore.core.aggregate import total
from parsescore.core.errors import InputError
from parsescore.core.files import csv_text, read_text
from parsescore.core.kinds import Metric
from parsescore.core.results import Result
from parsescore.report import plots
from parsescore.report.html import (
    Salt,
    System,
    char_diff,
    dicts,
    e,
    figure,
    fmt,
    html_table,
    item_details,
    num,
    text_pair,
)
from parsescore.sequence.attributes import LINE_BINS
from parsescore.sequence.kind import CHANGES, PLOT_CATEGORIES, POOLED_ERRORS
from parsescore.sequence.model import CATEGORIES
from parsescore.sequence.report import DIFFERENCE_COLUMNS, TABLE2_HEADERS, binned_error_rates
from parsescore.sequence.result import counts_of
from parsescore.shared.scores import safe_ratio

__all__ = ["drilldown", "figure67_rates", "plots_html", "prepare"]


def _counts(detail: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    counts = detail.get("counts")
    if not isinstance(counts, dict):
        return {}
    return {c: v for c, v in counts.items() if isinstance(v, dict)}


def _with_category_rates(result: Result) -> Result:
    """The result with the Figure 6/7 error rates of each file and of the dataset: the kind's
    declared totals (:data:`parsescore.sequence.kind.POOLED_ERRORS`), over one file and over
    all of them."""
    counts = counts_of(result)
    items = {item: dict(values) for item, values in result.items.items()}
    figure = [
        (category, metric)
        for category, metric in zip(PLOT_CATEGORIES, POOLED_ERRORS[1:], strict=True)
        if any(f"{category}_gt_count" in c for c in counts.values())
    ]
    for item, values in items.items():
        for category, metric in figure:
            if f"{category}_gt_count" in counts[item]:
                values[metric.name] = _total(metric, counts, [item])
    totals = dict(result.totals)
    for category, metric in figure:
        with_it = [item for item in counts if f"{category}_gt_count" in counts[item]]
        totals[metric.name] = _total(metric, counts, with_it)
    return replace(result, items=items, totals=totals)


def _total(metric: Metric, counts: Mapping[str, Mapping[str, float]], ids: list[str]) -> float:
    value = total(metric, counts, counts, only=ids)
    assert value is not None  # a ratio always has one
    return value


def _uncsv(cell: str | None) -> str | None:
    """A text cell as it was before :func:`parsescore.core.files.csv_text` kept a spreadsheet
    from running it: the ``'`` put before a leading ``= + - @``, tab or carriage return goes."""
    if cell is not None and cell[:1] == "'" and csv_text(cell[1:]) == cell:
        return cell[1:]
    return cell


def _read_differences_csv(path: Path) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """``{model: {file path: [rows]}}`` from a sequence ``differences.csv``."""
    rows = list(csv.DictReader(io.StringIO(read_text(path))))
    required = DIFFERENCE_COLUMNS[:-1]  # edit_distance may be absent (an older file)
    if rows and not set(required) <= set(rows[0]):
        raise InputError(
            f"not a parsescore sequence differences file; expected columns {', '.join(required)}",
            path=str(path),
        )
    out: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for row in rows:
        row = {key: _uncsv(value) for key, value in row.items()}
        record = {
            "category": row["category"],
            "change": row["change"],
            "truth_line": int(row["truth_line"]) if row["truth_line"] else None,
            "truth_text": row["truth_text"] or None,
            "pred_line": int(row["pred_line"]) if row["pred_line"] else None,
            "pred_text": row["pred_text"] or None,
            "detail": row["detail"],
        }
        out.setdefault(row["model"], {}).setdefault(row["path"], []).append(record)
    return out


def _sidecar(result: Result, path: Path) -> dict[str, list[dict[str, Any]]] | None:
    """The differences of ``result``'s files in a ``differences.csv`` beside ``path``: the
    rows of its model (``stem:model`` names one model of a multi-model file), or of the only
    model when the file holds one."""
    sidecar = path.parent / "differences.csv"
    if not sidecar.is_file():
        return None
    by_model = _read_differences_csv(sidecar)
    model = result.name.split(":", 1)[1] if ":" in result.name else None
    if model is not None:  # a model without rows had no differences
        chosen = by_model.get(model, {})
    elif len(by_model) <= 1:
        chosen = next(iter(by_model.values()), {})
    else:
        return None
    return {p: rows for p, rows in chosen.items() if p in result.items}


def prepare(result: Result, path: Path | None) -> tuple[Result, dict[str, Any]]:
    """The result with the Figure 6/7 error rates, and its differences (from the result, or
    a ``differences.csv`` beside a native file); notes say where the differences came from."""
    result = _with_category_rates(result)
    items = list(result.items)
    if items and all(isinstance(result.details.get(i, {}).get("differences"), list) for i in items):
        # an envelope records the parsescore version; a native --out does not
        source = None
        if path is not None:
            source = "the result envelope" if result.version is not None else "the result JSON"
        return result, {"differences": True, "differences_source": source}
    if path is None:
        return result, {"differences": False}
    found = _sidecar(result, path)
    if found is None:
        return result, {"differences": False}
    details = {
        item: dict(result.details.get(item, {})) | {"differences": found.get(item, [])}
        for item in items
    }
    return replace(result, details=details), {
        "differences": True,
        "differences_source": str(path.parent / "differences.csv"),
    }


def figure67_rates(system: System) -> dict[str, dict[str, float]]:
    """Figure 6/7 data of one model: per category and line bin, summed (I+D+S)/gt × 100."""
    lines = {
        item: detail["gt_lines"]
        for item, detail in system.result.details.items()
        if isinstance(detail.get("gt_lines"), int)
    }
    return binned_error_rates(lines, counts_of(system.result))


def plots_html(members: Sequence[System], salt: Salt) -> str:
    """Errors by file size, and the paper's Figure 6/7 (error % by ground-truth line bin)."""
    out = []
    points: dict[str, dict[str, list[tuple[float, float]]]] = {"error": {}}
    for s in members:
        for item, v in s.result.items.items():
            lines = s.result.details.get(item, {}).get("gt_lines")
            if isinstance(lines, int) and "error_rate" in v:
                points["error"].setdefault(s.name, []).append((lines, v["error_rate"]))
    if points["error"]:
        svg = plots.size_scatter_svg(
            [("error", "error % (all categories)")],
            points,
            xlabel="ground-truth lines",
            salt=salt(),
        )
        out.append(figure(svg, "Errors by file size (ground-truth lines).", "plot-size"))
    rates: dict[str, dict[str, dict[str, float]]] = {c: {} for c in PLOT_CATEGORIES}
    for s in members:
        for category, by_bin in figure67_rates(s).items():
            rates[category][s.name] = by_bin
    svgs = [
        plots.binned_lines_svg(
            {category: by_model},
            bins=[label for label, _, _ in LINE_BINS],
            titles={category: f"{TABLE2_HEADERS[category]} error (%)"},
            xlabel="ground-truth lines",
            ylabel="insertions + deletions + substitutions (%)",
            salt=salt(),
        )
        for category, by_model in rates.items()
    ]
    out.append(
        figure(
            svgs,
            "The paper's Figure 6/7: error % (insertions + deletions + substitutions over "
            "ground-truth elements, summed over the files of each bin) of nodes, messages "
            "and direction changes by ground-truth line count; one line per model, no "
            "point where a model has no file in the bin.",
            "plot-figure67",
        )
    )
    return "".join(out)


def _file(system: System, item: str) -> str:
    detail = system.result.details.get(item, {})
    counts = _counts(detail)
    categories = [c for c in CATEGORIES if c in counts] + [
        c for c, v in counts.items() if c not in CATEGORIES and "gt_count" in v
    ]
    out = [
        html_table(
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
                    fmt(counts[c].get("gt_count")),
                    fmt(counts[c].get("insertion")),
                    fmt(counts[c].get("deletion")),
                    fmt(counts[c].get("substitution")),
                    fmt(
                        safe_ratio(
                            sum(num(counts[c].get(k)) for k in CHANGES),
                            num(counts[c].get("gt_count")),
                        )
                        * 100,
                        2,
                    ),
                ]
                for c in categories
            ],
        )
    ]
    if not system.notes.get("differences"):
        out.append(
            '<p class="note">Differences not available: the result JSON does not list them and '
            "there is no differences.csv next to it (write one with <code>parsescore sequence "
            "... --report DIR</code>).</p>"
        )
        return "".join(out)
    differences = dicts(detail.get("differences"))
    truth_lines = _script_lines(system.result.inputs.get("truth"), item)
    pred_lines = _script_lines(system.result.inputs.get("pred"), item)
    if not (
        _agrees(truth_lines, differences, "truth") and _agrees(pred_lines, differences, "pred")
    ):
        truth_lines = pred_lines = None  # not the scripts that were scored: no context
    out.insert(0, split_diff(differences, truth_lines, pred_lines))
    if not differences:
        out.append('<p class="note">No differences counted.</p>')
        return "".join(out)
    out.append(f"<h4>Counted differences: {len(differences)}</h4>")
    out.append(
        html_table(
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
                    text_pair(d.get("truth_text"), d.get("pred_text"))[0],
                    fmt(d.get("pred_line")) if d.get("pred_line") is not None else "–",
                    text_pair(d.get("truth_text"), d.get("pred_text"))[1],
                    e(d.get("detail", "")),
                ]
                for d in differences
            ],
            ["unmatched" if d.get("change") != "substitution" else "diff" for d in differences],
        )
    )
    return "".join(out)


def drilldown(system: System, items: Sequence[str]) -> str:
    """Every listed file's counts per category and its counted differences."""
    out = []
    source = system.notes.get("differences_source")
    if source:
        out.append(f'<p class="note">Differences read from {e(source)}.</p>')
    for item in items:
        lines = system.result.details.get(item, {}).get("gt_lines")
        suffix = f" — {lines} ground-truth lines" if isinstance(lines, int) else ""
        out.append(
            item_details(
                system, item, _file(system, item), f'<span class="muted">{e(suffix)}</span>'
            )
        )
    return "".join(out)


def _line(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


#: Unchanged lines shown before and after each change of a split diff.
CONTEXT = 2


def _script_lines(root: Any, item: str) -> list[str] | None:
    """The lines of ``item`` under the folder ``root`` (an input of the result), or None when
    it is not there to read (a result moved to another machine, a git ref, text inputs)."""
    if not isinstance(root, str) or not root:
        return None
    path = Path(root) / item
    try:
        if not path.is_file() or path.stat().st_size > 4_000_000:
            return None
        return path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None


def _agrees(lines: list[str] | None, differences: Sequence[Mapping[str, Any]], side: str) -> bool:
    """Whether ``lines`` are the script the differences were counted on: every counted line
    of that side reads the same there (an answer unwrapped from a chat reply would not)."""
    if lines is None:
        return False
    for d in differences:
        number, text = _line(d.get(f"{side}_line")), d.get(f"{side}_text")
        if number is None or not isinstance(text, str):
            continue
        first = (text.strip().splitlines() or [""])[0].strip()  # a note spans lines
        if not 0 < number <= len(lines) or lines[number - 1].strip() != first:
            return False
    return True


def _span(d: Mapping[str, Any], side: str) -> range:
    """The lines a difference covers on one side (a note or a group spans several)."""
    line, text = _line(d.get(f"{side}_line")), d.get(f"{side}_text")
    if line is None:
        return range(0)
    return range(line, line + max(1, len(text.splitlines()) if isinstance(text, str) else 1))


def _context_rows(
    differences: Sequence[Mapping[str, Any]],
    truth_lines: list[str] | None,
    pred_lines: list[str] | None,
) -> list[tuple[int, int]]:
    """The unchanged line pairs (truth line, prediction line) within :data:`CONTEXT` lines of
    a change, aligned as a side-by-side diff aligns them (the lines the two scripts have in
    common, :class:`difflib.SequenceMatcher`); a line a counted difference covers is never
    context."""
    if truth_lines is None or pred_lines is None:
        return []
    matcher = difflib.SequenceMatcher(
        None, [x.strip() for x in truth_lines], [x.strip() for x in pred_lines], autojunk=False
    )
    same = {
        a + k + 1: b + k + 1 for a, b, size in matcher.get_matching_blocks() for k in range(size)
    }
    back = {p: t for t, p in same.items()}
    changed_t = {n for d in differences for n in _span(d, "truth")}
    changed_p = {n for d in differences for n in _span(d, "pred")}
    near: set[int] = set()
    for t in changed_t:
        near |= set(range(t - CONTEXT, t + CONTEXT + 1))
    for p in changed_p:  # a line only the prediction has: its neighbours, as truth lines
        for q in range(p - CONTEXT, p + CONTEXT + 1):
            if q in back:
                near.add(back[q])
    return [
        (t, same[t])
        for t in sorted(near)
        if t in same and t not in changed_t and same[t] not in changed_p
    ]


def split_diff(
    differences: Sequence[Mapping[str, Any]],
    truth_lines: list[str] | None = None,
    pred_lines: list[str] | None = None,
) -> str:
    """The changed lines of the two scripts side by side (as a split diff): the truth's line
    on the left, the prediction's on the right, their character differences marked, and the
    categories counted on each line. With the two scripts at hand (``truth_lines``,
    ``pred_lines``), :data:`CONTEXT` unchanged lines around each change show where in the
    diagram it happened; a gap between two runs of lines is marked ``⋯``."""
    context = _context_rows(differences, truth_lines, pred_lines)
    rows: dict[tuple[int | None, int | None], dict[str, Any]] = {}
    for d in differences:
        t, p = _line(d.get("truth_line")), _line(d.get("pred_line"))
        row = rows.setdefault(
            (t, p),
            {"truth": d.get("truth_text"), "pred": d.get("pred_text"), "counted": []},
        )
        row["counted"].append(f"{d.get('category')} {d.get('change')}")

    def order(key: tuple[int | None, int | None]) -> tuple[int, int]:
        t, p = key
        return (t if t is not None else (p or 0), 0 if t is not None else 1)

    if truth_lines is not None and pred_lines is not None:  # (context is empty otherwise)
        for t, p in context:
            rows[(t, p)] = {"same": (truth_lines[t - 1], pred_lines[p - 1]), "counted": []}
    body = []
    last: int | None = None
    for t, p in sorted(rows, key=order):
        row = rows[(t, p)]
        here = t if t is not None else p
        if context and last is not None and here is not None and here > last + 1:
            body.append('<tr class="skip"><td class="ln">⋯</td><td></td><td class="ln">⋯</td>'
                        "<td></td><td></td></tr>")  # fmt: skip
        if here is not None:  # a note deleted or added spans its lines
            text = row.get("truth") if t is not None else row.get("pred")
            lines = len(text.splitlines()) if isinstance(text, str) and "same" not in row else 1
            last = here + max(lines, 1) - 1
        if "same" in row:
            left_text, right_text = (e(text) for text in row["same"])
            body.append(
                f'<tr class="same"><td class="ln">{t}</td><td>{left_text}</td>'
                f'<td class="ln">{p}</td><td>{right_text}</td><td class="cat"></td></tr>'
            )
            continue
        truth, pred = (
            row["truth"] if t is not None else None,
            row["pred"] if p is not None else None,
        )
        if isinstance(truth, str) and isinstance(pred, str):
            old, new = char_diff(truth, pred)
            left, right = f'<td class="sub">{old}</td>', f'<td class="sub">{new}</td>'
        else:
            left = f'<td class="del">{e(truth)}</td>' if truth is not None else "<td></td>"
            right = f'<td class="ins">{e(pred)}</td>' if pred is not None else "<td></td>"
        counted = e(", ".join(dict.fromkeys(row["counted"])))
        body.append(
            f'<tr><td class="ln">{"" if t is None else t}</td>{left}'
            f'<td class="ln">{"" if p is None else p}</td>{right}'
            f'<td class="cat">{counted}</td></tr>'
        )
    return (
        '<div class="scroll item-drawing" data-drawing="sequence"><table class="split">'
        "<thead><tr><th>line</th><th>ground truth</th><th>line</th><th>prediction</th>"
        f"<th>counted as</th></tr></thead><tbody>{''.join(body)}</tbody></table></div>"
        + ("" if body else '<p class="note">The two scripts agree on every counted line.</p>')
    )
