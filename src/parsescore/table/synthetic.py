"""Deterministic synthetic HTML table pairs for parity tests and benchmarks.

Tables have spans, ``th`` headers, inline tags, entities, CJK text, empty cells and, on
request, broken markup; a "prediction" is the truth with random edits of the kinds table
recognisers make (lost/extra cells and rows, changed text, changed spans).
"""

from __future__ import annotations

import random

__all__ = ["random_pair", "random_table_html"]

_WORDS = ["total", "n", "mean", "SD", "0.5", "12", "p<0.05", "Group A", "β", "±3.2", "—"]
_CJK = ["购买方", "税率", "合计", "名称", "規格", "표", "单位"]
_ENTITIES = ["&amp;", "&lt;", "&gt;", "&nbsp;", "&#x4e2d;", "&#233;", "&quot;"]
_INLINE = ["b", "i", "sup", "sub", "span", "em", "strong"]


def _text(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.18:
        return ""
    parts = []
    for _ in range(rng.randint(1, 3)):
        kind = rng.random()
        if kind < 0.55:
            parts.append(rng.choice(_WORDS))
        elif kind < 0.75:
            parts.append(rng.choice(_CJK))
        elif kind < 0.88:
            parts.append(rng.choice(_ENTITIES))
        else:
            tag = rng.choice(_INLINE)
            parts.append(f"<{tag}>{rng.choice(_WORDS)}</{tag}>")
    text = rng.choice([" ", "", "  "]).join(parts)
    if rng.random() < 0.1:
        text = f" {text}\n"
    if rng.random() < 0.05:
        text += "<br>"
    return text


def _cell(rng: random.Random, tag: str, colspan: int, rowspan: int) -> str:
    attrs = ""
    if colspan > 1:
        attrs += f' colspan="{colspan}"'
    if rowspan > 1:
        attrs += f' rowspan="{rowspan}"'
    return f"<{tag}{attrs}>{_text(rng)}</{tag}>"


def _rows(rng: random.Random, n_rows: int, n_cols: int, spans: bool, th: bool) -> list[list[str]]:
    rows: list[list[str]] = []
    for r in range(n_rows):
        cells: list[str] = []
        c = 0
        while c < n_cols:
            colspan = rng.choice([1, 1, 1, 1, 2, 3]) if spans else 1
            colspan = min(colspan, n_cols - c)
            rowspan = rng.choice([1, 1, 1, 1, 1, 2]) if spans and r < n_rows - 1 else 1
            tag = "th" if th and r == 0 and rng.random() < 0.7 else "td"
            cells.append(_cell(rng, tag, colspan, rowspan))
            c += colspan
        rows.append(cells)
    return rows


def _render(rng: random.Random, rows: list[list[str]], head: int, wrap: bool) -> str:
    body = "".join("<tr>" + "".join(cells) + "</tr>" for cells in rows[head:])
    if head:
        inner = (
            "<thead>"
            + "".join("<tr>" + "".join(c) + "</tr>" for c in rows[:head])
            + "</thead><tbody>"
            + body
            + "</tbody>"
        )
    else:
        inner = body
    table = f"<table>{inner}</table>"
    if wrap:
        return f"<html><body>{table}</body></html>"
    return table


def random_table_html(
    rng: random.Random, n_rows: int, n_cols: int, *, spans: bool = True, th: bool = True
) -> str:
    """One table as ``<html><body><table>...`` HTML."""
    rows = _rows(rng, n_rows, n_cols, spans, th)
    return _render(rng, rows, head=1 if rng.random() < 0.5 else 0, wrap=True)


def _break(rng: random.Random, html: str) -> str:
    """Malformed markup lxml still parses: dropped closing tags, stray tags, truncation."""
    roll = rng.random()
    if roll < 0.3:
        return html.replace("</td>", "", rng.randint(1, 4))
    if roll < 0.5:
        return html.replace("</tr>", "</tr></td></span>", 1)
    if roll < 0.7:
        return html[: max(20, int(len(html) * rng.uniform(0.5, 0.95)))]
    if roll < 0.85:
        return html.replace("<td>", "<td><b>", 2)
    return html.replace("<tr>", "<tr><td>extra", 1)


def random_pair(
    seed: int, n_rows: int, n_cols: int, *, broken: bool = False, spans: bool = True
) -> tuple[str, str]:
    """(truth, prediction) HTML for one seed; the prediction is an edited copy."""
    rng = random.Random(seed)
    rows = _rows(rng, n_rows, n_cols, spans, th=rng.random() < 0.6)
    head = 1 if rng.random() < 0.5 else 0
    truth = _render(rng, rows, head, wrap=True)
    pred_rows = [list(r) for r in rows]
    for _ in range(rng.randint(0, max(1, n_rows * n_cols // 6))):
        kind = rng.random()
        r = rng.randrange(len(pred_rows)) if pred_rows else 0
        if not pred_rows:
            break
        row = pred_rows[r]
        if kind < 0.35 and row:
            row[rng.randrange(len(row))] = _cell(rng, "td", 1, 1)
        elif kind < 0.5 and row:
            del row[rng.randrange(len(row))]
        elif kind < 0.62:
            row.insert(rng.randint(0, len(row)), _cell(rng, "td", 1, 1))
        elif kind < 0.7 and len(pred_rows) > 1:
            del pred_rows[r]
        elif kind < 0.78:
            pred_rows.insert(r, list(row))
        elif kind < 0.9 and row:
            row[rng.randrange(len(row))] = _cell(rng, "td", rng.randint(1, 3), rng.randint(1, 2))
    pred = _render(rng, pred_rows, head if rng.random() < 0.8 else 0, wrap=True)
    if broken:
        pred = _break(rng, pred)
        if rng.random() < 0.3:
            truth = _break(rng, truth)
    return truth, pred
