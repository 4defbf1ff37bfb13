"""Profile ``parsescore`` of the document kind: the numbers a page should get, next to the
compat ones (docs/document.md, "Profile parsescore").

One pass per page builds the alignment and every number derives from it (jiwer's style):

1. truth blocks from OmniDocBench's page (truncated blocks joined): text, display formulas,
   tables; the page furniture OmniDocBench ignores (headers, footers, page numbers, captions,
   footnotes) is *optional*: an answer may transcribe it or not, at no cost either way;
2. answer blocks from the page's Markdown (:func:`answer_blocks`): HTML, LaTeX and Markdown
   pipe tables, display formulas, then paragraphs;
3. per pool (text, formulas, tables) a minimum-cost matching where every block is paired once
   or left alone (``parsescore.shared.assign.augmented_assignment``, scipy's
   ``linear_sum_assignment``: deterministic): text and formulas cost their Levenshtein edits,
   a block left alone its length (0 for an optional truth block); tables cost 1 − TEDS;
4. from the alignment: CER and WER with jiwer's definitions, docling-eval's character error
   over the union of both sides (a missed block costs its truth characters, an invented one its
   own), TEDS / TEDS-S / GriTS of tables read in any format, reading order as pairwise order
   accuracy, Kendall τ and edit distance over the matched blocks.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import numpy as np

from parsescore.core.errors import InputError
from parsescore.core.results import Result
from parsescore.document.better_text import formula_text, normaliser
from parsescore.document.options import DocumentOptions
from parsescore.shared.distance import error_counts

__all__ = [
    "AnswerBlock",
    "TruthBlock",
    "answer_blocks",
    "order_scores",
    "score_page",
    "truth_blocks",
    "undefined_totals",
]

BlockKind = Literal["text", "formula", "table"]


@dataclass(frozen=True, slots=True)
class TruthBlock:
    """One block of the truth page.

    Attributes:
        kind: ``text``, ``formula`` or ``table``.
        content: its text, LaTeX or HTML as the truth holds it.
        category: OmniDocBench's ``category_type``.
        anno_id: the truth's block id.
        order: its reading-order position (None: not in the reading order).
        optional: page furniture OmniDocBench ignores; free to transcribe or to leave out.
    """

    kind: BlockKind
    content: str
    category: str
    anno_id: Any
    order: float | None
    optional: bool = False


@dataclass(frozen=True, slots=True)
class AnswerBlock:
    """One block of the answer's Markdown.

    Attributes:
        kind: ``text``, ``formula`` or ``table``.
        content: its text (Markdown heading and emphasis markers removed), LaTeX or table source.
        start: its offset in the file (the answer's reading order).
        format: a table's format (``html-fragment``, ``latex``, ``markdown``); "" otherwise.
    """

    kind: BlockKind
    content: str
    start: int
    format: str = ""


# -- the truth ---------------------------------------------------------------------------------


def _joined(page: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The page's blocks with each chain of truncated blocks joined into its first block, in
    reading order, each block once (OmniDocBench's merge repeats the middle of a chain of
    three: a compat quirk this profile does not keep)."""
    blocks = list(page["layout_dets"])
    by_id = {b["anno_id"]: k for k, b in enumerate(blocks)}
    parent = list(range(len(blocks)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for relation in page.get("extra", {}).get("relation", []):
        if not isinstance(relation, Mapping) or relation.get("relation_type") != "truncated":
            continue
        source, target = (
            by_id.get(relation.get("source_anno_id")),
            by_id.get(relation.get("target_anno_id")),
        )
        if source is not None and target is not None:
            parent[root(source)] = root(target)
    groups: dict[int, list[int]] = {}
    for k in range(len(blocks)):
        groups.setdefault(root(k), []).append(k)
    joined: list[dict[str, Any]] = []
    for members in groups.values():
        if len(members) == 1:
            joined.append(blocks[members[0]])
            continue
        members.sort(key=lambda k: (blocks[k].get("order") is None, blocks[k].get("order") or 0))
        first = dict(blocks[members[0]])
        first["text"] = "".join(blocks[k].get("text") or "" for k in members)
        joined.append(first)
    return joined


#: Truth categories that are page furniture: optional in this profile (OmniDocBench ignores
#: them; ``abandon`` marks content it says to leave out).
OPTIONAL = ("abandon",)


def truth_blocks(page: Mapping[str, Any]) -> list[TruthBlock]:
    """The page's text, formula and table blocks (figures and other blocks without text are
    not transcribed and are left out)."""
    from parsescore.document.match import IGNORED, TEXT_CATEGORIES

    blocks: list[TruthBlock] = []
    for item in _joined(page):
        category = item["category_type"]
        order = item.get("order")
        order = float(order) if isinstance(order, int | float) else None
        anno = item.get("anno_id")
        if category in TEXT_CATEGORIES or (category in OPTIONAL and item.get("text")):
            optional = category in IGNORED or category in OPTIONAL
            blocks.append(TruthBlock("text", item.get("text") or "", category, anno, order,
                                     optional))  # fmt: skip
        elif category == "equation_isolated":
            blocks.append(TruthBlock("formula", item.get("latex") or "", category, anno, order))
        elif category == "table":
            blocks.append(TruthBlock("table", item.get("html") or "", category, anno, order))
    blocks.sort(key=lambda b: (b.order is None, b.order or 0.0))
    return blocks


# -- the answer --------------------------------------------------------------------------------

_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_WRAPPER_TAG = re.compile(r"</?(html|body)\b[^>]*>", re.IGNORECASE)
_INLINE_PAREN = re.compile(r"\\\((.+?)\\\)", re.DOTALL)
_FENCE = re.compile(r"(?m)^[ \t]*```[\w+.-]*[ \t]*$")
_ENVIRONMENT = re.compile(r"\\(begin|end)\{([a-zA-Z]+\*?)\}")
_TABLE_ENVIRONMENTS = frozenset(
    ("table", "table*", "tabular", "tabular*", "tabularx", "longtable", "tabu")
)
_MATH_ENVIRONMENTS = frozenset(
    f"{name}{star}"
    for name in ("equation", "align", "gather", "multline", "eqnarray")
    for star in ("", "*")
)
_HTML_TABLE_TAG = re.compile(r"<(/?)table\b[^>]*>", re.IGNORECASE)
_DISPLAY = re.compile(r"\$\$(.+?)\$\$|\\\[(.+?)\\\]", re.DOTALL)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_PIPE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_HEADING = re.compile(r"(?m)^[ \t]{0,3}#{1,6}[ \t]+")
_EMPHASIS = re.compile(r"\*\*|__")
_NO_TEXT = re.compile(r"^[\W_]*$")


def _html_tables(text: str) -> list[tuple[int, int]]:
    """Outermost ``<table>…</table>`` spans (nested tables inside)."""
    spans: list[tuple[int, int]] = []
    depth, start = 0, 0
    for tag in _HTML_TABLE_TAG.finditer(text):
        if not tag.group(1):
            if depth == 0:
                start = tag.start()
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                spans.append((start, tag.end()))
    return spans


def _environments(text: str, names: frozenset[str]) -> list[tuple[int, int]]:
    """Outermost ``\\begin{name}…\\end{name}`` spans of the named environments."""
    spans: list[tuple[int, int]] = []
    stack: list[tuple[str, int]] = []
    for found in _ENVIRONMENT.finditer(text):
        begin, name = found.group(1) == "begin", found.group(2)
        if name not in names:
            continue
        if begin:
            stack.append((name, found.start()))
        elif stack and stack[-1][0] == name:
            _, start = stack.pop()
            if not stack:
                spans.append((start, found.end()))
    return spans


def _free(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    return all(end <= s or start >= e for s, e in spans)


def _plain(text: str) -> str:
    """A paragraph's text: Markdown heading and bold markers removed, inline math written
    ``$…$`` as the truth writes it (``\\(x\\)`` → ``$x$``)."""
    text = _INLINE_PAREN.sub(lambda m: f"${m.group(1)}$", text)
    return _EMPHASIS.sub("", _HEADING.sub("", text)).strip()


def answer_blocks(markdown: str) -> list[AnswerBlock]:
    """The blocks of a page's Markdown, in file order.

    Images, code-fence lines and ``<html>``/``<body>`` tags are removed; then HTML tables,
    display formulas (``$$``, ``\\[``, ``equation``/``align``/… environments) and LaTeX tables
    (``tabular`` and friends, inside ``table`` when there is one) are taken out, each outside
    what was taken before; what is left is split into paragraphs on blank lines, where a run of
    ``|…|`` lines holding a delimiter row is a Markdown table (heading and bold markers removed
    from the text, ``\\(…\\)`` written ``$…$``). Inline ``$…$`` stays in its paragraph. A
    paragraph without a letter or digit (``* * *``, ``---``) is dropped.

    >>> [(b.kind, b.content) for b in answer_blocks("# Title\\n\\n$$x$$\\n\\n|a|\\n|---|\\n|1|")]
    [('text', 'Title'), ('formula', 'x'), ('table', '|a|\\n|---|\\n|1|')]
    """
    text = markdown.replace("\r\n", "\n").replace("\r", "\n")
    text = _FENCE.sub(lambda m: " " * len(m.group(0)), text)
    text = _IMAGE.sub(lambda m: " " * len(m.group(0)), text)
    text = _WRAPPER_TAG.sub(lambda m: " " * len(m.group(0)), text)
    blocks: list[AnswerBlock] = []
    taken: list[tuple[int, int]] = []
    for start, end in _html_tables(text):
        blocks.append(AnswerBlock("table", text[start:end], start, "html-fragment"))
        taken.append((start, end))
    for found in _DISPLAY.finditer(text):
        start, end = found.span()
        if _free(taken, start, end):
            body = found.group(1) if found.group(1) is not None else found.group(2)
            blocks.append(AnswerBlock("formula", body.strip(), start))
            taken.append((start, end))
    for start, end in _environments(text, _MATH_ENVIRONMENTS):
        if _free(taken, start, end):
            blocks.append(AnswerBlock("formula", text[start:end], start))
            taken.append((start, end))
    for start, end in _environments(text, _TABLE_ENVIRONMENTS):
        if _free(taken, start, end):
            blocks.append(AnswerBlock("table", text[start:end], start, "latex"))
            taken.append((start, end))
    rest = list(text)
    for start, end in taken:
        rest[start:end] = "\n\n" + " " * (end - start - 2) if end - start >= 2 else " "
    rest_text = "".join(rest)
    position = 0
    for chunk in _PARAGRAPH_BREAK.split(rest_text):
        offset = rest_text.index(chunk, position) if chunk else position
        position = offset + len(chunk)
        blocks.extend(_paragraph_blocks(chunk, offset))
    blocks.sort(key=lambda b: b.start)
    return blocks


def _paragraph_blocks(chunk: str, offset: int) -> list[AnswerBlock]:
    """A paragraph's text and Markdown tables (a run of pipe rows with a delimiter row)."""
    lines = chunk.split("\n")
    out: list[AnswerBlock] = []
    pending: list[str] = []
    pending_start = offset
    cursor = offset
    k = 0

    def flush() -> None:
        content = _plain("\n".join(pending))
        if content and not _NO_TEXT.match(content):
            out.append(AnswerBlock("text", content, pending_start))
        pending.clear()

    while k < len(lines):
        j = k
        while j < len(lines) and _PIPE_ROW.match(lines[j]):
            j += 1
        if j - k >= 2 and any(_DELIMITER_ROW.match(line) for line in lines[k:j]):
            flush()
            out.append(AnswerBlock("table", "\n".join(lines[k:j]).strip(), cursor, "markdown"))
            cursor += sum(len(line) + 1 for line in lines[k:j])
            pending_start = cursor
            k = j
            continue
        if not pending:
            pending_start = cursor
        pending.append(lines[k])
        cursor += len(lines[k]) + 1
        k += 1
    flush()
    return out


# -- tables ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Table:
    html: str | None
    cells: Any
    problem: str = ""


def _read_table(content: str, format: str) -> _Table:
    """A table as normalised HTML (OmniDocBench's table normalisation, so that a header
    written as ``<th>`` or ``<thead>`` counts as the same cell) and its cells for GriTS; a
    table no reader can read is kept with the reason (it scores 0)."""
    from parsescore.shared.tables.formats import read_table
    from parsescore.shared.tables.grid import html_cells
    from parsescore.shared.tables.normalise import normalise_html

    try:
        if format == "html-fragment" and "<html" in content.lower():
            format = "html"
        grid = read_table(content, format)
        normalised = normalise_html(grid.html)
        cells = html_cells(normalised)
    except InputError as error:
        return _Table(None, None, error.reason)
    except (ValueError, RecursionError) as error:
        return _Table(None, None, f"{type(error).__name__}: {error}")
    if cells is None:
        return _Table(None, None, "no table in it")
    return _Table(normalised, cells)


@lru_cache(maxsize=2)
def _teds(structure_only: bool) -> Any:
    from parsescore.shared.tables.teds import TEDS

    return TEDS(structure_only=structure_only, denominator="all_descendants")


def table_scores(truth: _Table, answer: _Table) -> dict[str, float]:
    """TEDS, TEDS-S (PubTabNet's ``.//*`` denominator), GriTS-Top and GriTS-Con of one pair."""
    from parsescore.shared.tables.grits import grits

    if truth.html is None or answer.html is None:
        return {"teds": 0.0, "teds_s": 0.0, "grits_top": 0.0, "grits_con": 0.0}
    found = grits(truth.cells, answer.cells, loc=False)
    return {
        "teds": float(_teds(False)(truth.html, answer.html)),
        "teds_s": float(_teds(True)(truth.html, answer.html)),
        "grits_top": float(found.top.fscore),
        "grits_con": float(found.con.fscore),
    }


# -- reading order -----------------------------------------------------------------------------


def order_scores(truth: Sequence[float], answer: Sequence[float]) -> dict[str, float]:
    """Reading order of matched blocks: their truth positions and their answer positions.

    ``pairs``/``agreeing``: block pairs ordered differently on neither side / the same way on
    both; ``accuracy`` = agreeing / pairs; ``tau``: Kendall's τ-b (scipy's default);
    ``edit``: Levenshtein distance between the blocks in truth order and in answer order, over
    their number. Fewer than two blocks: no accuracy or τ.

    >>> found = order_scores([1, 2, 3], [10, 30, 20])
    >>> found["pairs"], found["agreeing"], round(found["tau"], 4), round(found["edit"], 4)
    (3, 2, 0.3333, 0.6667)
    """
    from rapidfuzz.distance import Levenshtein

    n = len(truth)
    concordant = discordant = tied_truth = tied_answer = 0
    for i in range(n):
        for j in range(i + 1, n):
            dt, da = truth[i] - truth[j], answer[i] - answer[j]
            if dt == 0 or da == 0:
                tied_truth += dt == 0
                tied_answer += da == 0
                continue
            if (dt > 0) == (da > 0):
                concordant += 1
            else:
                discordant += 1
    out: dict[str, float] = {"pairs": concordant + discordant, "agreeing": concordant}
    total = n * (n - 1) // 2
    if concordant + discordant:
        out["accuracy"] = concordant / (concordant + discordant)
        denominator = math.sqrt((total - tied_truth) * (total - tied_answer))
        out["tau"] = (concordant - discordant) / denominator
    if n:
        by_truth = sorted(range(n), key=lambda k: (truth[k], k))
        by_answer = sorted(range(n), key=lambda k: (answer[k], k))
        out["edit"] = Levenshtein.distance(by_truth, by_answer) / n
    return out


# -- one page ----------------------------------------------------------------------------------


def _match(
    paired: np.ndarray, alone_truth: Sequence[float], alone_answer: Sequence[float]
) -> list[tuple[int | None, int | None]]:
    from parsescore.shared.assign import augmented_assignment

    records = augmented_assignment(
        paired, np.asarray(alone_truth, dtype=np.float64), np.asarray(alone_answer, np.float64)
    )
    return [(r.true_index, r.pred_index) for r in records]


def _edit_matrix(truth: Sequence[str], answer: Sequence[str]) -> np.ndarray:
    from parsescore.shared.distance import levenshtein, text_costs

    return text_costs(truth, answer, levenshtein).paired


def _text_pool(
    kind: BlockKind,
    truth: Sequence[TruthBlock],
    answer: Sequence[AnswerBlock],
    normalise: Callable[[str], str],
) -> tuple[list[dict[str, Any]], dict[str, float], list[tuple[float, float]]]:
    truth_texts = [normalise(b.content) for b in truth]
    answer_texts = [normalise(b.content) for b in answer]
    keep = [k for k, t in enumerate(answer_texts) if t]
    answer = [answer[k] for k in keep]
    answer_texts = [answer_texts[k] for k in keep]
    pairs = _match(
        _edit_matrix(truth_texts, answer_texts),
        [0.0 if b.optional else float(len(t)) for b, t in zip(truth, truth_texts, strict=True)],
        [float(len(t)) for t in answer_texts],
    )
    groups = _joined_neighbours(pairs, truth, answer, normalise)
    counts = {"char_edits": 0.0, "truth_chars": 0.0, "word_edits": 0.0, "truth_words": 0.0,
              "union_chars": 0.0}  # fmt: skip
    records: list[dict[str, Any]] = []
    order: list[tuple[float, float]] = []
    for tis, ais in sorted(groups, key=lambda g: (not g[0], g[0][:1], g[1][:1])):
        t = _truth_of([truth[i] for i in tis])
        a = _answer_of([answer[j] for j in ais])
        if t is not None and t.optional:
            status = "absorbed" if a is not None else "optional"
            records.append(_record(kind, t, a, status, None))
            continue
        status = "matched" if t and a else "missed" if t else "invented"
        found = error_counts(normalise(t.content) if t else "", normalise(a.content) if a else "")
        counts["char_edits"] += found.char_edits
        counts["truth_chars"] += found.truth_chars
        counts["word_edits"] += found.word_edits
        counts["truth_words"] += found.truth_words
        counts["union_chars"] += max(found.truth_chars, found.pred_chars)
        values: dict[str, Any] = {"edits": found.char_edits, "truth_chars": found.truth_chars,
                                  "answer_chars": found.pred_chars}  # fmt: skip
        if len(tis) > 1:
            values["truth_joined"] = [truth[i].anno_id for i in tis]
        if len(ais) > 1:
            values["answer_joined"] = [answer[j].start for j in ais]
        records.append(_record(kind, t, a, status, values))
        if t is not None and a is not None and t.order is not None:
            order.append((t.order, float(a.start)))
    return records, counts, order


#: What joins neighbouring blocks of one side into one (before normalisation).
_JOIN = " "
#: The joining of neighbours stops once a page's edit distances have compared this many
#: character pairs (a few seconds), so that time stays bounded on a page written as one huge
#: block; ordinary pages (a few thousand characters) are far below it. Deterministic: it
#: depends on the texts' lengths only.
JOIN_WORK = 2 * 10**10


def _truth_of(blocks: Sequence[TruthBlock]) -> TruthBlock | None:
    if not blocks:
        return None
    first = blocks[0]
    return replace(first, content=_JOIN.join(b.content for b in blocks))


def _answer_of(blocks: Sequence[AnswerBlock]) -> AnswerBlock | None:
    if not blocks:
        return None
    return replace(blocks[0], content=_JOIN.join(b.content for b in blocks))


def _joined_neighbours(
    pairs: Sequence[tuple[int | None, int | None]],
    truth: Sequence[TruthBlock],
    answer: Sequence[AnswerBlock],
    normalise: Callable[[str], str],
) -> list[tuple[list[int], list[int]]]:
    """The pairs, with a block left alone joined to a neighbouring pair when that saves edits.

    A paragraph the answer splits in two (or two truth blocks it writes as one) would otherwise
    pair with one part and leave the other alone, costing its characters twice over. A block
    left alone (an unmatched answer block, or an unmatched truth block) whose neighbour on its
    own side (the next or previous block, in file order or in truth order) belongs to a pair is
    joined to that pair when that saves more than half the block's length: the pair's edits
    before plus what the block costs alone (its length; 0 for optional furniture, which thus
    joins only when the answer wrote it inside the pair's text) minus the pair's edits after.
    A whole run of such neighbours on one side may join at once (a page written as one block
    against its many truth blocks takes one step, not one per block). The largest saving is
    applied first (ties: the first pair, the truth side, the first block) until none is left or
    :data:`JOIN_WORK` is spent; invented text does not join on its own, as it saves no edits
    (riding along in a run it costs what it costs alone, plus the joining space).
    """
    from rapidfuzz.distance import Levenshtein

    groups = [([t] if t is not None else [], [a] if a is not None else []) for t, a in pairs]

    def text(tis: Sequence[int], ais: Sequence[int]) -> tuple[str, str]:
        return (normalise(_JOIN.join(truth[i].content for i in tis)),
                normalise(_JOIN.join(answer[j].content for j in ais)))  # fmt: skip

    known: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    work = [0]

    def cost(tis: Sequence[int], ais: Sequence[int]) -> int:
        key = (tuple(tis), tuple(ais))
        if key not in known:
            t, a = text(tis, ais)
            work[0] += len(t) * len(a)
            known[key] = int(Levenshtein.distance(t, a))
        return known[key]

    sizes: dict[tuple[int, int], int] = {}

    def size(side: int, index: int) -> int:
        """A block's normalised length (side 0: truth, 1: answer)."""
        if (side, index) not in sizes:
            sizes[side, index] = len(text([index], [])[0] if side == 0 else text([], [index])[1])
        return sizes[side, index]

    def runs(side: int, indices: Sequence[int], alone: Mapping[int, int]) -> list[list[int]]:
        """The nearest alone neighbour on each side, and each side's whole run of them (truth
        runs hold blocks in the reading order only, and end on a block that is not optional
        furniture, which costs nothing alone)."""
        found: list[list[int]] = []
        for step, edge in ((-1, indices[0]), (1, indices[-1])):
            run: list[int] = []
            while edge + step * (len(run) + 1) in alone:
                run.append(edge + step * (len(run) + 1))
            if run:
                found.append(run[:1])
            if side == 0:
                run = run[: next((n for n, i in enumerate(run) if truth[i].order is None),
                                 len(run))]  # fmt: skip
                while run and truth[run[-1]].optional:
                    run.pop()
            if len(run) > 1:
                found.append(run)
        return found

    while True:
        alone = (
            {g[0][0]: k for k, g in enumerate(groups) if not g[1] and len(g[0]) == 1},
            {g[1][0]: k for k, g in enumerate(groups) if not g[0] and len(g[1]) == 1},
        )
        best: tuple[int, int, int, int, list[int]] | None = None  # -saving, group, side, first
        for k, (tis, ais) in enumerate(groups):
            if not tis or not ais or truth[tis[0]].optional:
                continue
            candidates = [(side, own, run) for side, own in ((0, tis), (1, ais))
                          for run in runs(side, own, alone[side])]  # fmt: skip
            if not candidates:
                continue
            before = cost(tis, ais)
            for side, own, run in candidates:
                joined = sorted([*own, *run])
                length = sum(size(side, i) for i in run)
                optional = sum(size(0, i) for i in run if side == 0 and truth[i].optional)
                alone_cost = length - optional
                after = cost(joined, ais) if side == 0 else cost(tis, joined)
                saving = before + alone_cost - after
                candidate = (-saving, k, side, run[0], run)
                if 2 * saving > length and (best is None or candidate[:4] < best[:4]):
                    best = candidate
        if best is None or work[0] > JOIN_WORK:
            return groups
        _, k, side, _, run = best
        tis, ais = groups[k]
        groups[k] = (sorted([*tis, *run]), ais) if side == 0 else (tis, sorted([*ais, *run]))
        gone = {alone[side][i] for i in run}
        groups = [g for n, g in enumerate(groups) if n not in gone]


def _record(
    kind: BlockKind,
    truth: TruthBlock | None,
    answer: AnswerBlock | None,
    status: str,
    values: Mapping[str, Any] | None,
) -> dict[str, Any]:
    record: dict[str, Any] = {"kind": kind, "status": status}
    if truth is not None:
        record["truth"] = {"anno_id": truth.anno_id, "category": truth.category,
                           "order": truth.order, "content": truth.content}  # fmt: skip
    if answer is not None:
        record["answer"] = {"start": answer.start, "content": answer.content}
        if answer.format:
            record["answer"]["format"] = answer.format
    if values:
        record.update(values)
    return record


def _table_pool(
    truth: Sequence[TruthBlock], answer: Sequence[AnswerBlock]
) -> tuple[list[dict[str, Any]], dict[str, float], list[tuple[float, float]]]:
    truth_tables = [_read_table(b.content, "html-fragment") for b in truth]
    answer_tables = [_read_table(b.content, b.format) for b in answer]
    paired = np.ones((len(truth), len(answer)), dtype=np.float64)
    scores: dict[tuple[int, int], dict[str, float]] = {}
    for i, truth_table in enumerate(truth_tables):
        for j, answer_table in enumerate(answer_tables):
            scores[i, j] = table_scores(truth_table, answer_table)
            paired[i, j] = 1.0 - scores[i, j]["teds"]
    # a pair is kept only when it beats leaving both alone (TEDS above 0)
    pairs = _match(paired, [0.5] * len(truth), [0.5] * len(answer))
    counts = {"slots": 0.0, "teds": 0.0, "teds_s": 0.0, "grits_top": 0.0, "grits_con": 0.0}
    records: list[dict[str, Any]] = []
    order: list[tuple[float, float]] = []
    for ti, ai in sorted(pairs, key=lambda p: (p[0] is None, p[0] or 0, p[1] or 0)):
        t = truth[ti] if ti is not None else None
        a = answer[ai] if ai is not None else None
        counts["slots"] += 1
        values: dict[str, Any] = {}
        if ti is not None and ai is not None:
            values = dict(scores[ti, ai])
            for name, value in values.items():
                counts[name] += value
            if t is not None and t.order is not None and a is not None:
                order.append((t.order, float(a.start)))
        else:
            values = {"teds": 0.0, "teds_s": 0.0, "grits_top": 0.0, "grits_con": 0.0}
        if ai is not None and answer_tables[ai].problem:
            values["unreadable"] = answer_tables[ai].problem
        status = "matched" if t and a else "missed" if t else "invented"
        records.append(_record("table", t, a, status, values))
    return records, counts, order


def score_page(
    page: Mapping[str, Any], markdown: str | None, normalisation: str
) -> tuple[dict[str, float], dict[str, float], dict[str, Any]]:
    """One page's metrics, the counts behind them and its alignment (``markdown`` None: no
    answer file; it scores as an empty answer)."""
    truth = truth_blocks(page)
    answer = answer_blocks(markdown or "")
    normalise = normaliser(normalisation)

    def of(kind: BlockKind, side: Sequence[Any]) -> list[Any]:
        return [b for b in side if b.kind == kind]

    text_records, text, text_order = _text_pool(
        "text", of("text", truth), of("text", answer), normalise
    )
    formula_records, formula, formula_order = _text_pool(
        "formula", of("formula", truth), of("formula", answer), formula_text
    )
    table_records, tables, table_order = _table_pool(of("table", truth), of("table", answer))
    metrics: dict[str, float] = {}
    counts: dict[str, float] = {
        "text_char_edits": text["char_edits"], "text_truth_chars": text["truth_chars"],
        "text_word_edits": text["word_edits"], "text_truth_words": text["truth_words"],
        "text_union_edits": text["char_edits"], "text_union_chars": text["union_chars"],
        "formula_union_edits": formula["char_edits"],
        "formula_union_chars": formula["union_chars"],
    }  # fmt: skip
    if text["truth_chars"]:
        metrics["text_cer"] = text["char_edits"] / text["truth_chars"]
    if text["truth_words"]:
        metrics["text_wer"] = text["word_edits"] / text["truth_words"]
    if text["union_chars"]:
        metrics["text_union_error"] = text["char_edits"] / text["union_chars"]
    if formula["union_chars"]:
        metrics["formula_union_error"] = formula["char_edits"] / formula["union_chars"]
    counts["table_slots"] = tables["slots"]
    for name in ("teds", "teds_s", "grits_top", "grits_con"):
        counts[f"table_{name}_sum"] = tables[name]
        if tables["slots"]:
            metric = {"teds": "table_teds_any", "teds_s": "table_teds_s_any"}.get(
                name, f"table_{name}"
            )
            metrics[metric] = tables[name] / tables["slots"]
    matched = sorted([*text_order, *formula_order, *table_order])
    order = order_scores([t for t, _ in matched], [a for _, a in matched])
    counts["order_pairs"] = order["pairs"]
    counts["order_pairs_agreeing"] = order["agreeing"]
    for name in ("accuracy", "tau", "edit"):
        if name in order:
            metrics[f"order_{name}"] = order[name]
    detail = {"alignment": [*text_records, *formula_records, *table_records]}
    return metrics, counts, detail


# -- the dataset -------------------------------------------------------------------------------

#: What the ``parsescore`` profile writes as its native ``--out`` document (``profile`` key).
NATIVE_PROFILE = "parsescore"


def evaluate(truth: str | Path, pred: str | Path, options: DocumentOptions) -> Result:
    """The compat result (profile ``omnidocbench``, unchanged) with the ``parsescore``
    profile's metrics beside it: every selected truth page scored, a missing page as an empty
    answer (listed)."""
    from parsescore.core.aggregate import totals
    from parsescore.core.options import recorded_options
    from parsescore.document.dataset import (
        _read_page,
        find_prediction,
        load_truth,
        page_filters,
    )
    from parsescore.document.dataset import (
        evaluate as evaluate_compat,
    )
    from parsescore.document.kind import OMNIDOCBENCH_TOTALS as TOTALS
    from parsescore.document.kind import PARSESCORE_TOTALS

    compat = evaluate_compat(truth, pred, replace(options, profile="omnidocbench"))
    truth, pred = Path(truth), Path(pred)
    filters = page_filters(options.filter)
    items: dict[str, dict[str, float]] = {}
    counts: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    missing: list[str] = []
    unreadable: dict[str, str] = dict(compat.dataset.get("unreadable") or {})
    for page in load_truth(truth):
        attributes = page["page_info"].get("page_attribute", {})
        if not all(attributes.get(k) == v or str(attributes.get(k)) == v
                   for k, v in filters.items()):  # fmt: skip
            continue
        image = os.path.basename(page["page_info"]["image_path"])
        path = find_prediction(pred, image)
        markdown: str | None = None
        if path is None:
            missing.append(image)
        elif image not in unreadable:
            markdown = _read_page(path, options.max_chars)
        else:
            markdown = ""
        metrics, page_counts, detail = score_page(page, markdown, options.normalisation)
        items[image] = {**compat.items.get(image, {}), **metrics}
        counts[image] = {**compat.counts.get(image, {}), **page_counts}
        details[image] = {**compat.details.get(image, {}), **detail}
    if missing and options.allow_missing:
        for image in missing:
            items.pop(image)
            counts.pop(image)
            details.pop(image)
    given = {m.name: v for m in TOTALS if (v := compat.totals.get(m.name)) is not None}
    found = totals((*TOTALS, *PARSESCORE_TOTALS), items, counts, given=given)
    found = {k: v for k, v in found.items() if k not in undefined_totals(PARSESCORE_TOTALS, counts)}
    warnings = [w for w in compat.warnings if "skipped" not in w]
    if missing:
        warnings.append(
            f"{len(missing)} page(s) without a prediction file "
            + ("were left out (--allow-missing) of the parsescore numbers" if
               options.allow_missing else "scored as empty answers in the parsescore numbers")
            + " (OmniDocBench's numbers skip them): " + ", ".join(missing[:5])
            + (" …" if len(missing) > 5 else "")
        )  # fmt: skip
    dataset = dict(compat.dataset)
    dataset.update({"profile": "parsescore", "normalisation": options.normalisation,
                    "missing": missing})  # fmt: skip
    native = {
        "profile": NATIVE_PROFILE,
        "normalisation": options.normalisation,
        "totals": {k: v for k, v in found.items() if k not in _COMPAT_TOTALS},
        "pages": {
            image: {"metrics": items[image], "counts": counts[image],
                    "alignment": details[image]["alignment"]}
            for image in items
        },
        "missing": missing,
        "unreadable": unreadable,
        "omnidocbench": compat.native,
    }  # fmt: skip
    return Result(
        "document",
        compat.name,
        items,
        found,
        inputs=compat.inputs,
        options=recorded_options(options),
        details=details,
        counts={k: v for k, v in counts.items() if v},
        dataset=dataset,
        native=native,
        computed=compat.computed,
        warnings=tuple(warnings),
    )


_COMPAT_TOTALS = frozenset(
    ("text_edit", "text_edit_whole", "text_edit_sample_avg", "text_edit_pooled", "formula_edit",
     "table_teds", "table_teds_s", "table_edit", "reading_order_edit")
)  # fmt: skip


def undefined_totals(metrics: Sequence[Any], counts: Mapping[str, Mapping[str, float]]) -> set[str]:
    """The pooled totals whose summed denominator is 0 (no table, no text, no ordered pair in
    the dataset): they have no value, rather than the 0 a ratio of nothing would give."""
    from parsescore.core.kinds import Ratio

    return {
        m.name
        for m in metrics
        if isinstance(m.aggregate, Ratio)
        and not sum(c.get(m.aggregate.denominator, 0) for c in counts.values())
    }
