"""OmniDocBench v1.5's matching of truth blocks to predicted blocks, reproduced step for step.

:func:`quick_match` is its ``match_gt2pred_quick`` (``utils/match_quick.py``): single-column
``array`` formulas split per line; truth blocks of the ignore categories (captions, footnotes,
headers, footers, page numbers, code algorithms, equation captions) take every prediction closer
than 0.25 first; the rest is matched by a cost matrix of normalised edit distances in which
consecutive predictions may be merged (``_merge_truncated``), a Hungarian assignment, pairs
above 0.7 rejected, a substring rescue below 0.4 that lets several truth blocks share one
prediction, and leftovers paired at cost 1. :func:`simple_match` is ``match_gt2pred_simple``
(``utils/match.py``), which the reference uses for tables.

Entries are the reference's own dictionaries (``gt_idx``, ``gt``, ``pred_idx``, ``pred``,
``gt_position``, ``pred_position``, ``norm_gt``, ``norm_pred``, ``gt_category_type``,
``pred_category_type``, ``gt_attribute``, ``edit``, ``img_id``), so that the compat output can
carry them unchanged. Some steps look odd on purpose (a list edited while it is iterated, indices
into unfiltered lists): they are what the reference does, and docs/document.md lists their
visible effects.
"""

from __future__ import annotations

import copy
import functools
import re
import sys
from collections import defaultdict
from typing import Any

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein
from scipy.optimize import linear_sum_assignment

from parsescore.document import match_kernels as _kernels
from parsescore.document.normalise import formula_key, table_cell_texts, text_key

__all__ = ["IGNORED", "TEXT_CATEGORIES", "quick_match", "simple_match"]

Entry = dict[str, Any]
Item = dict[str, Any]

#: Truth categories that are matched first and left out of the text scores.
IGNORED = (
    "figure_caption", "figure_footnote", "table_caption", "table_footnote", "code_algorithm",
    "code_algorithm_caption", "header", "footer", "page_footnote", "page_number",
    "equation_caption",
)  # fmt: skip
#: Truth categories read as text.
TEXT_CATEGORIES = (
    "text_block", "title", "code_txt", "code_txt_caption", "reference", "equation_caption",
    "figure_caption", "figure_footnote", "table_caption", "table_footnote", "code_algorithm",
    "code_algorithm_caption", "header", "footer", "page_footnote", "page_number",
)  # fmt: skip


def _distance(a: str, b: str) -> float:
    return Levenshtein.distance(a, b) / max(len(a), len(b))


def _cost_matrix(gt_lines: list[str], pred_lines: list[str]) -> np.ndarray:
    """Normalised edit distances (0 where both lines are empty): the distances from rapidfuzz's
    ``cdist`` in C, divided as Python divides them (IEEE, correctly rounded)."""
    if not gt_lines or not pred_lines:
        return np.zeros((len(gt_lines), len(pred_lines)))
    distances = process.cdist(gt_lines, pred_lines, scorer=Levenshtein.distance, dtype=np.int64)
    longest = np.maximum.outer(
        np.fromiter(map(len, gt_lines), np.int64, len(gt_lines)),
        np.fromiter(map(len, pred_lines), np.int64, len(pred_lines)),
    )
    matrix = np.zeros(distances.shape)
    np.divide(distances, longest, out=matrix, where=longest > 0)
    return matrix


def _pred_kind(index: Any, items: list[Item]) -> str:
    item = items[index]
    return str(item.get("fine_category_type") or item["category_type"])


def _gt_kind(item: Item) -> str:
    return str(item.get("fine_category_type") or item["category_type"])


def _position(item: Item) -> Any:
    return item.get("order") if item.get("order") else item.get("position", [""])[0]


def _lines(
    gt_items: list[Item], pred_items: list[Item], line_type: str | None
) -> tuple[list[str], list[str], list[str], list[str], list[str]]:
    """The reference's ``get_gt_pred_lines``: raw and normalised lines, empty ones dropped (the
    item lists are *not* filtered alongside)."""
    gt_lines: list[str] = []
    norm_gt: list[str] = []
    cats: list[str] = []
    pred_lines: list[str] = []
    norm_pred: list[str] = []
    if line_type in ("html_table", "latex_table"):
        html_lines: list[str] = []
        for item in gt_items:
            cats.append(_gt_kind(item))
            if item.get("content"):
                gt_lines.append(str(item["content"]))
                html_lines.append(str(item["content"]))
            elif line_type == "html_table":
                gt_lines.append(str(item["html"]))
            else:
                gt_lines.append(str(item["latex"]))
                html_lines.append(str(item["html"]))
        pred_lines = [str(item["content"]) for item in pred_items]
        norm_gt, norm_pred = gt_lines, pred_lines
        if line_type == "latex_table":
            gt_lines = html_lines
    else:
        for item in pred_items:
            content = str(item["content"])
            pred_lines.append(content)
            if item["category_type"] == "text_all":
                norm_pred.append(text_key(content))
            elif item["category_type"] == "equation_isolated":
                norm_pred.append(formula_key(content))
            else:
                norm_pred.append(content)
        for item in gt_items:
            category = item["category_type"]
            if item.get("content"):
                gt_lines.append(str(item["content"]))
                norm_gt.append(text_key(str(item["content"])) if category == "text_all"
                               else item["content"])  # fmt: skip
                cats.append(_gt_kind(item))
            elif category in TEXT_CATEGORIES:
                gt_lines.append(str(item["text"]))
                norm_gt.append(text_key(str(item["text"])))
                cats.append(_gt_kind(item))
            elif category == "equation_isolated":
                gt_lines.append(str(item["latex"]))
                norm_gt.append(formula_key(str(item["latex"])))
                cats.append(_gt_kind(item))
    kept = [(a, b, c) for a, b, c in zip(gt_lines, norm_gt, cats, strict=False) if a and b]
    kept_pred = [(a, b) for a, b in zip(pred_lines, norm_pred, strict=False) if a and b]
    return (
        [a for a, _, _ in kept],
        [b for _, b, _ in kept],
        [c for _, _, c in kept],
        [a for a, _ in kept_pred],
        [b for _, b in kept_pred],
    )


def simple_match(
    gt_items: list[Item], pred_items: list[Item], line_type: str, img_name: str
) -> tuple[list[Entry], list[Item] | None]:
    """One Hungarian assignment on normalised edit distance (the reference's tables matcher);
    also returns the unmatched predicted tables' cells as text items."""
    gt_lines, norm_gt, cats, pred_lines, norm_pred = _lines(gt_items, pred_items, line_type)
    entries: list[Entry] = []
    if not norm_gt:
        indices = range(len(norm_pred))
        entries.append({
            "gt_idx": [""], "gt": "", "pred_idx": indices,
            "pred": "".join(pred_lines[i] for i in indices), "gt_position": [""],
            "pred_position": pred_items[indices[0]]["position"][0], "norm_gt": "",
            "norm_pred": "".join(norm_pred[i] for i in indices), "gt_category_type": "",
            "pred_category_type": _pred_kind(indices[0], pred_items), "gt_attribute": [{}],
            "edit": 1, "img_id": img_name,
        })  # fmt: skip
        return entries, None
    if not norm_pred:
        for i in range(len(norm_gt)):
            entries.append(_unmatched_gt(i, gt_lines, norm_gt, cats, gt_items, img_name))
        return entries, None
    cost = _cost_matrix(norm_gt, norm_pred)
    rows, cols = linear_sum_assignment(cost)
    row_list = list(rows)
    for i in range(len(norm_gt)):
        if i in rows:
            j: Any = int(cols[row_list.index(i)])
            pred_line, norm_line, edit = pred_lines[j], norm_pred[j], cost[i][j]
        else:
            j, pred_line, norm_line, edit = "", "", "", 1
        entries.append({
            "gt_idx": [i], "gt": gt_lines[i], "norm_gt": norm_gt[i],
            "gt_category_type": cats[i], "gt_position": [_position(gt_items[i])],
            "gt_attribute": [gt_items[i].get("attribute", {})], "pred_idx": [j],
            "pred": pred_line, "norm_pred": norm_line,
            # index 0 is falsy in the reference: the first prediction has no category/position
            "pred_category_type": _pred_kind(j, pred_items) if j else "",
            "pred_position": pred_items[j]["position"][0] if j else "",
            "edit": edit, "img_id": img_name,
        })  # fmt: skip
    left = [j for j in range(len(norm_pred)) if j not in cols]
    if not left:
        return entries, None
    if line_type in ("html_table", "latex_table"):
        cells: list[Item] = []
        for j in left:
            for text in table_cell_texts(str(pred_items[j].get("content"))):
                item = copy.deepcopy(pred_items[j])
                item["content"] = text
                item["category_type"] = "text_all"
                cells.append(item)
        return entries, cells
    entries.append({
        "gt_idx": [""], "gt": "", "pred_idx": left, "pred": "".join(pred_lines[j] for j in left),
        "gt_position": [""], "pred_position": pred_items[left[0]]["position"][0],
        "norm_gt": "", "norm_pred": "".join(norm_pred[j] for j in left),
        "gt_category_type": "", "pred_category_type": _pred_kind(left[0], pred_items),
        "gt_attribute": [{}], "edit": 1, "img_id": img_name,
    })  # fmt: skip
    return entries, None


def _unmatched_gt(
    i: int, gt_lines: list[str], norm_gt: list[str], cats: list[str], items: list[Item], img: str
) -> Entry:
    return {
        "gt_idx": [i], "gt": gt_lines[i], "pred_idx": [""], "pred": "",
        "gt_position": [_position(items[i])], "pred_position": "", "norm_gt": norm_gt[i],
        "norm_pred": "", "gt_category_type": cats[i], "pred_category_type": "",
        "gt_attribute": [items[i].get("attribute", {})], "edit": 1, "img_id": img,
    }  # fmt: skip


# --- array formulas ----------------------------------------------------------------------------

_ARRAY = re.compile(r"\\begin\{array\}\{(?P<spec>[^}]*)\}(?P<body>.*?)\\end\{array\}", re.S)


def _single_column(spec: str) -> bool:
    spec = re.sub(r"\s+|\|", "", spec)
    spec = re.sub(r"@{[^}]*}", "", spec)
    spec = re.sub(r"!{[^}]*}", "", spec)
    return len(spec) == 1 and spec in {"l", "c", "r"}


def _array_lines(body: str) -> list[str]:
    return [ln.strip() for ln in re.split(r"\\\\", body) if ln.strip()]


def _split_gt_arrays(items: list[Item]) -> list[Item]:
    out: list[Item] = []
    for item in items:
        if item.get("category_type") == "equation_isolated" and "\\begin{array" in item.get(
            "latex", ""
        ):
            match = _ARRAY.search(item["latex"])
            if match:
                if not _single_column(match.group("spec")):
                    out.append(item)
                    continue
                base = float(item["order"])
                for k, line in enumerate(_array_lines(match.group("body")), start=1):
                    new = copy.deepcopy(item)
                    new["latex"] = f"\\[{line}\\]"
                    new["order"] = round(base + k / 10, 1)
                    out.append(new)
                continue
        out.append(item)
    return out


def _split_pred_arrays(items: list[Item]) -> list[Item]:
    out: list[Item] = []
    for item in items:
        if item.get("category_type") == "equation_isolated" and "\\begin{array" in item.get(
            "content", ""
        ):
            content = item["content"]
            match = _ARRAY.search(content)
            if not match or not _single_column(match.group("spec")):
                out.append(item)
                continue
            body = match.group("body")
            origin = item["position"][0] + match.start("body")
            cursor = 0
            for line in _array_lines(body):
                found = body.find(line, cursor)
                if found == -1:
                    found = cursor
                cursor = found + len(line)
                new = copy.deepcopy(item)
                new["content"] = f"\\[{line.strip()}\\]"
                new["position"] = [origin + found, origin + found + len(line) - 1]
                out.append(new)
            continue
        out.append(item)
    return out


# --- quick_match -------------------------------------------------------------------------------


#: Windows the plain scan compares in a process before the compiled kernels are loaded (about
#: a second of scanning, what importing numba costs); they are loaded at once when numba is.
SCAN_BUDGET = 3_000_000
_scanned = 0
_kernels_loaded: dict[str, Any] | None = None


def _compiled() -> dict[str, Any] | None:
    """The kernels of :mod:`parsescore.document.match_kernels` compiled, once they pay: numba
    already imported (the table kernels load it), or the plain scans past ``SCAN_BUDGET``.
    Both paths give the same numbers (tests), so which one runs never changes a result."""
    global _kernels_loaded
    if _kernels_loaded is None and ("numba" in sys.modules or _scanned > SCAN_BUDGET):
        from parsescore.document.match_kernels_compiled import kernels

        _kernels_loaded = kernels
    return _kernels_loaded


@functools.lru_cache(maxsize=4096)
def _codes(text: str) -> np.ndarray:
    return _kernels.codes(text)


def _window_distance(long: str, short: str, threshold: float) -> float:
    """Fewest edits between ``short`` and a window of ``long`` of its length, over that length
    (``len(long) >= len(short) > 0``) — or a value on the same side of ``threshold``: exact
    when it equals ``threshold``, some value below it when it is below, above when above (the
    callers only compare it with ``threshold``), so that the search stops at the first window
    found below.

    Once loaded, the compiled kernel of :mod:`parsescore.document.match_kernels` rules most windows
    out by a lower bound. Otherwise every window is scanned but some: neighbouring windows
    differ by one character dropped and one added, so their distances to ``short`` differ by
    at most 2: a window at distance ``d`` proves the next ``(d - best) // 2`` windows no closer
    than the best so far, and they are skipped unscanned."""
    global _scanned
    n = len(short)
    cutoff, enough = _kernels.cutoffs(threshold, n)
    if len(long) == n:
        return int(Levenshtein.distance(long, short, score_cutoff=cutoff)) / n
    kernels = _compiled()
    if kernels is not None:
        return int(kernels["window_minimum"](_codes(long), _codes(short), cutoff, enough)) / n
    best = cutoff + 1
    start, last = 0, len(long) - n
    distance = Levenshtein.distance
    scanned = 0
    while start <= last:
        found = distance(short, long[start : start + n])
        scanned += 1
        if found < best:
            best = found
            if found <= enough:
                break
        start += (found - best) // 2 + 1
    _scanned += scanned
    return best / n


#: quick_match's thresholds on window distances: a prediction may join a merged run below
#: ``MERGE`` (0.6); a truth block is rescued into a prediction below ``RESCUE`` (0.4).
MERGE, RESCUE = 0.6, 0.4


def _sub_gt_distance(pred: str, gt: str, threshold: float = RESCUE) -> float:
    """Best distance of ``gt`` to a window of ``pred`` of its length (1 if longer); exact up
    to ``threshold``."""
    if len(pred) >= len(gt) > 0:
        return _window_distance(pred, gt, threshold)
    return 1


def _final_subsets(subsets: list[list[int]], costs: list[float]) -> list[list[int]]:
    if not subsets or not costs:
        return []
    pairs = sorted(zip(subsets, costs, strict=False), key=lambda p: p[0][0])
    groups: dict[int, list[tuple[list[int], float]]] = defaultdict(list)
    group = 0
    groups[group].append(pairs[0])
    for pair in pairs[1:]:
        overlap = any(idx in member[0] for member in groups[group] for idx in pair[0])
        if not overlap:
            group += 1
        groups[group].append(pair)
    final: list[list[int]] = []
    for members in groups.values():
        if len(members) == 1:
            final.append(members[0][0])
            continue
        paths: dict[int, list[tuple[list[int], float]]] = defaultdict(list)
        paths[0].append(members[0])
        for subset in members[1:]:
            new_path = True
            for key, path in list(paths.items()):
                is_dup = is_same = False
                for item in path:  # the reference edits this list while iterating it
                    if item[0] == subset[0]:
                        is_dup = is_same = True
                        if item[1] > subset[1]:
                            path.pop(path.index(item))
                            path.append(subset)
                    elif any(a == b for a in item[0] for b in subset[0]):
                        is_dup = True
                if not is_dup:
                    paths[key].append(subset)
                    new_path = False
                if is_same:
                    new_path = False
            if new_path:
                paths[len(paths)].append(subset)
        best, chosen = float("inf"), []
        for path in paths.values():
            average = sum(c for _, c in path) / len(path)
            if average < best:
                chosen, best = [s for s, _ in path], average
        final.extend(chosen)
    return final


def _merge_truncated(
    cost: np.ndarray, norm_gt: list[str], norm_pred: list[str]
) -> tuple[np.ndarray, list[Any]]:
    """The reference's merging of consecutive predictions into runs, row by row.

    A run starting at prediction ``j`` grows by the next prediction while (the reference's
    conditions, a conjunction) the joined run is no farther from the truth line than the run
    before it, every prediction of the run fits a window of the truth line below ``MERGE``, and
    the joined run is not yet longer than the truth line. The conditions are tested cheapest
    first (lengths, then one distance, then window scans), which gives the same runs while
    scanning windows only where the outcome still depends on them; a run's distance is carried
    from the step that made it, and a single prediction's is the cost matrix's. Once the
    kernels are loaded, each truth line's loop runs compiled (``match_kernels.merge_row``)."""
    fixed = np.argwhere(cost < 0.25)
    fixed_gt = {int(i[0]) for i in fixed}
    fixed_pred = {int(i[1]) for i in fixed}
    free_gt = [i for i in range(cost.shape[0]) if i not in fixed_gt]
    free_pred = [j for j in range(cost.shape[1]) if j not in fixed_pred]
    subsets: list[list[int]] = []
    subset_costs: list[float] = []
    kernels = _compiled()
    if kernels is not None and free_gt and free_pred:
        # the same loop compiled (match_kernels.merge_row), one call a truth line
        joined, starts, lengths = _joined(norm_pred)
        stops = np.zeros(len(norm_pred), np.bool_)
        stops[sorted(fixed_pred)] = True
        free = np.array(free_pred, np.int64)
        for i in free_gt:
            j, step, best = kernels["merge_row"](
                _codes(norm_gt[i]), joined, starts, lengths, stops, free, cost[i], MERGE
            )
            subsets.append(list(range(j, j + step)))
            subset_costs.append(float(best))
        free_gt = []
    for i in free_gt:
        gt = norm_gt[i]
        candidates: list[list[int]] = []
        distances: list[float] = []
        windows: dict[int, float] = {}  # each prediction's window distance, once a row

        def window(k: int, gt: str = gt, windows: dict[int, float] = windows) -> float:
            if k not in windows:
                windows[k] = _window_distance(gt, norm_pred[k], MERGE)
            return windows[k]

        for j in free_pred:
            step = 1
            line = norm_pred[j]
            line_cost = float(cost[i][j])
            while not (j + step in fixed_pred or j + step >= len(norm_pred)):
                added = norm_pred[j + step]
                if len(added) > len(gt) or (step == 1 and len(line) > len(gt)):
                    break  # a prediction longer than the truth line fits no window of it
                merged = line + " " + added
                merged_cost = _distance(gt, merged)
                if merged_cost > line_cost:
                    break
                if step == 1 and window(j) > MERGE:
                    break
                if not window(j + step) < MERGE:
                    break
                step += 1
                line, line_cost = merged, merged_cost
                if len(merged) > len(gt):
                    break
            candidates.append(list(range(j, j + step)))
            distances.append(line_cost)
        if distances:
            best = min(distances)
            chosen = candidates[distances.index(best)]
            if chosen:
                subsets.append(chosen)
                subset_costs.append(best)
    final = _final_subsets(subsets, subset_costs)
    if not final:
        return cost, list(range(len(norm_pred)))
    indices: list[Any] = list(range(len(norm_pred)))
    for subset in final:
        at = indices.index(subset[0])
        for _ in subset:
            indices.pop(at)
        indices.insert(at, subset)
    # the reference recomputes the whole matrix; a single prediction's column is unchanged
    runs = [k for k, s in enumerate(indices) if isinstance(s, list)]
    singles = [k for k, s in enumerate(indices) if not isinstance(s, list)]
    matrix = np.empty((cost.shape[0], len(indices)))
    matrix[:, singles] = cost[:, [indices[k] for k in singles]]
    lines = [" ".join(norm_pred[indices[k][0] : indices[k][-1] + 1]) for k in runs]
    matrix[:, runs] = _cost_matrix(norm_gt, lines)
    return matrix, indices


def _assign(
    cost: np.ndarray, norm_gt: list[str], norm_pred: list[str]
) -> tuple[dict[int, dict[str, Any]], list[int]]:
    """Merged assignment; pairs above 0.7 rejected. Returns matches and unmatched truth rows."""
    cost, indices = _merge_truncated(cost, norm_gt, norm_pred)
    rows, cols = linear_sum_assignment(cost)
    row_list = list(rows)
    costs = [cost[r][c] for r, c in zip(rows, cols, strict=False)]
    chosen = [indices[c] for c in cols]
    matches: dict[int, dict[str, Any]] = {}
    unmatched: list[int] = []
    for i in range(len(norm_gt)):
        if i not in rows:
            unmatched.append(i)
            continue
        k = row_list.index(i)
        pred = chosen[k]
        span = list(range(pred[0], pred[-1] + 1)) if isinstance(pred, list) else [pred]
        if costs[k] > 0.7:
            unmatched.append(i)
        else:
            matches[i] = {"pred_indices": span, "edit_distance": costs[k]}
    return matches, unmatched


def _joined(lines: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``lines`` joined by spaces as the kernels take them: the codes, each line's start and
    length (a run of consecutive lines is a slice)."""
    lengths = np.fromiter(map(len, lines), np.int64, len(lines))
    starts = np.zeros(len(lines), np.int64)
    np.cumsum(lengths[:-1] + 1, out=starts[1:])
    return _kernels.codes(" ".join(lines)), starts, lengths


def _rescue(unmatched: list[int], norm_gt: list[str], norm_pred: list[str]) -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    kernels = _compiled()
    if kernels is not None and unmatched and norm_pred:
        hits = kernels["rescue_hits"](
            *_joined([norm_gt[i] for i in unmatched]), *_joined(norm_pred), RESCUE
        ).tolist()
        for j, row in enumerate(hits):
            if any(row):
                found[j] = [i for i, hit in zip(unmatched, row, strict=True) if hit]
        return found
    for j, pred in enumerate(norm_pred):
        hits = [i for i in unmatched if _sub_gt_distance(pred, norm_gt[i]) < RESCUE]
        if hits:
            found[j] = hits
    return found


def _merge_matches(
    matches: dict[Any, dict[str, Any]], rescued: dict[int, list[int]]
) -> dict[tuple[Any, ...], dict[str, Any]]:
    final: dict[tuple[Any, ...], dict[str, Any]] = {}
    done: set[Any] = set()
    for i, info in matches.items():
        key = tuple(sorted(info["pred_indices"]))
        if key in final:
            if i not in done:
                final[key]["gt_indices"].append(i)
                done.add(i)
        else:
            final[key] = {"gt_indices": [i], "edit_distance": info["edit_distance"]}
            done.add(i)
    for j, gts in rescued.items():
        key = (j,)
        if key in final:
            for i in gts:
                if i not in done:
                    final[key]["gt_indices"].append(i)
                    done.add(i)
        else:
            final[key] = {"gt_indices": [i for i in gts if i not in done], "edit_distance": None}
            done.update(final[key]["gt_indices"])
    return final


def _recompute(
    final: dict[tuple[Any, ...], dict[str, Any]], gt: list[str], pred: list[str]
) -> None:
    for key, info in final.items():
        gts = sorted(set(info["gt_indices"]))
        if not gts:
            info["edit_distance"] = 1
            continue
        if len(gts) > 1:
            merged = "".join(gt[i] for i in gts)
            content = pred[key[0]] if isinstance(key[0], int) else ""
        else:
            merged = gt[gts[0]]
            content = " ".join(pred[j] for j in key if isinstance(j, int))
            info["pred_content"] = content
        longest = max(len(merged), len(content))
        info["edit_distance"] = Levenshtein.distance(merged, content) / longest if longest else 1


def _convert(
    final: dict[tuple[Any, ...], dict[str, Any]], gt: list[str], pred: list[str]
) -> list[Entry]:
    out: list[Entry] = []
    for key, info in final.items():
        content = " ".join(pred[j] for j in key if isinstance(j, int))
        for i in sorted(set(info["gt_indices"])):
            out.append({"gt_idx": int(i), "gt": gt[i], "pred_idx": list(key), "pred": content,
                        "edit": info["edit_distance"]})  # fmt: skip
    matched_gt: set[Any] = set().union(*[set(info["gt_indices"]) for info in final.values()])
    free_gt = set(range(len(gt))) - matched_gt
    matched_pred = {j for key in final for j in key if isinstance(j, int)}
    free_pred = set(range(len(pred))) - matched_pred
    if free_pred:
        if free_gt:
            gt_list, pred_list = list(free_gt), list(free_pred)
            # _distance of each pair (lines are never empty): the same floats from one cdist
            matrix = _cost_matrix([gt[i] for i in gt_list], [pred[j] for j in pred_list])
            rows, cols = linear_sum_assignment(matrix)
            for r, c in zip(rows, cols, strict=False):
                i, j = gt_list[r], pred_list[c]
                out.append({"gt_idx": int(i), "gt": gt[i], "pred_idx": [j], "pred": pred[j],
                            "edit": 1})  # fmt: skip
        else:
            out.append({"gt_idx": "", "gt": "", "pred_idx": list(free_pred),
                        "pred": " ".join(pred[j] for j in free_pred), "edit": 1})  # fmt: skip
    else:
        for i in free_gt:
            out.append({"gt_idx": int(i), "gt": gt[i], "pred_idx": "", "pred": "", "edit": 1})
    return out


def _merge_duplicates(converted: list[Entry], n_gt: int, gt_lines: list[str]) -> list[Entry]:
    """Entries of the same predictions made one. The reference compares every entry with every
    other; the entries are grouped by key here instead (the first of a group is the one kept,
    the others appended in order: the same result, in linear time)."""
    merged: list[Entry] = []
    done_gt: set[Any] = set()
    groups: dict[tuple[Any, ...], list[Entry]] = {}
    for entry in converted:
        key = tuple(entry["pred_idx"]) if isinstance(entry["pred_idx"], list) else (
            entry["pred_idx"],)  # fmt: skip
        groups.setdefault(key, []).append(entry)
    for key, group in groups.items():
        if key == ("",):
            continue
        entry = group[0]
        new = {"gt_idx": [entry["gt_idx"]], "gt": entry["gt"], "pred_idx": entry["pred_idx"],
               "pred": entry["pred"], "edit": entry["edit"]}  # fmt: skip
        for other in group[1:]:
            new["gt_idx"].append(other["gt_idx"])
            new["gt"] += other["gt"]
            done_gt.add(other["gt_idx"])
        merged.append(new)
        done_gt.add(entry["gt_idx"])
    for i in range(n_gt):
        if i not in done_gt:
            merged.append({"gt_idx": [i], "gt": gt_lines[i], "pred_idx": [""], "pred": "",
                           "edit": 1})  # fmt: skip
    return merged


def _category(indices: list[Any], cats: list[str]) -> str:
    """The most frequent category of the blocks (ignored ones only when all are), the first
    seen among equals: ``Counter.most_common(1)``, counted without building a Counter."""
    clean = [cats[i] for i in indices if cats[i] not in IGNORED]
    if len(indices) == 1 or len(clean) == 1:
        return str(clean[0] if clean else cats[indices[0]])
    counts: dict[str, int] = {}
    for category in clean or [cats[i] for i in indices]:
        counts[category] = counts.get(category, 0) + 1
    return str(max(counts, key=counts.__getitem__))


def _array_of(lines: list[str], indices: list[Any]) -> str:
    body = " \\\\ ".join("{" + lines[i].strip("$").strip("\n") + "}" for i in indices)
    return "\\begin{array}{l} " + body + " \\end{array}"


def quick_match(gt_items: list[Item], pred_items: list[Item], img_name: str) -> list[Entry]:
    """The reference's ``match_gt2pred_quick`` on one page's text-like blocks."""
    gt_items = _split_gt_arrays(gt_items)
    order = sorted(
        enumerate(pred_items),
        key=lambda p: (p[1].get("fine_category_type") == "equation_inline", p[1]["position"][0],
                       p[0]),
    )  # fmt: skip
    pred_items = _split_pred_arrays([item for _, item in order])
    gt_lines, norm_gt, cats, pred_lines, norm_pred = _lines(gt_items, pred_items, None)
    if not norm_gt:
        return [{
            "gt_idx": [""], "gt": "", "pred_idx": [j], "pred": pred_lines[j], "gt_position": [""],
            "pred_position": pred_items[j]["position"][0], "norm_gt": "",
            "norm_pred": norm_pred[j], "gt_category_type": "",
            "pred_category_type": _pred_kind(j, pred_items), "gt_attribute": [{}], "edit": 1,
            "img_id": img_name,
        } for j in range(len(norm_pred))]  # fmt: skip
    if not norm_pred:
        return [_unmatched_gt(i, gt_lines, norm_gt, cats, gt_items, img_name)
                for i in range(len(norm_gt))]  # fmt: skip
    if len(norm_gt) == 1 and len(norm_pred) == 1:
        return [{
            "gt_idx": [0], "gt": gt_lines[0], "pred_idx": [0], "pred": pred_lines[0],
            "gt_position": [_position(gt_items[0])],
            "pred_position": pred_items[0]["position"][0], "norm_gt": norm_gt[0],
            "norm_pred": norm_pred[0], "gt_category_type": cats[0],
            "pred_category_type": _pred_kind(0, pred_items),
            "gt_attribute": [gt_items[0].get("attribute", {})],
            "edit": _distance(norm_gt[0], norm_pred[0]), "img_id": img_name,
        }]  # fmt: skip
    ig = [i for i in range(len(norm_gt)) if cats[i] in IGNORED]
    keep = [i for i in range(len(norm_gt)) if cats[i] not in IGNORED]
    ig_norm = [norm_gt[i] for i in ig]
    ig_raw = [gt_lines[i] for i in ig]
    ig_items = [gt_items[i] for i in ig]
    ig_cats = [cats[i] for i in ig]
    ig_pred: list[Any] = []
    ig_pred_norm: list[str] = []
    ig_pred_raw: list[str] = []
    ig_pred_items: list[Item] = []
    ignored_results: list[Entry] = []
    if ig:
        matrix = _cost_matrix(ig_norm, norm_pred)
        close = np.argwhere(matrix < 0.25)
        found: dict[Any, dict[str, Any]] = {}
        if len(close):
            ig_pred = [pair[1] for pair in close]
            for j in ig_pred:
                ig_pred_norm.append(norm_pred[j])
                ig_pred_raw.append(pred_lines[j])
                ig_pred_items.append(pred_items[j])
            for k, pair in enumerate(close):
                found[pair[0]] = {"pred_indices": [k], "edit_distance": matrix[pair[0]][pair[1]]}
        final = _merge_matches(found, {})
        _recompute(final, ig_norm, ig_pred_norm)
        converted = _convert(final, ig_norm, ig_pred_norm)
        ignored_results = _merge_duplicates(converted, len(ig_norm), ig_raw)
        for entry in ignored_results:  # the reference removes entries while iterating
            if not isinstance(entry["gt_idx"], list):
                entry["gt_idx"] = [entry["gt_idx"]]
            if not isinstance(entry["pred_idx"], list):
                entry["pred_idx"] = [entry["pred_idx"]]
            has_gt, has_pred = entry["gt_idx"] != [""], entry["pred_idx"] != [""]
            entry["gt_position"] = [_position(ig_items[i]) for i in entry["gt_idx"]] if has_gt \
                else [""]  # fmt: skip
            entry["pred_position"] = ig_pred_items[entry["pred_idx"][0]]["position"][0] \
                if has_pred else ""  # fmt: skip
            entry["gt"] = "".join(ig_raw[i] for i in entry["gt_idx"]) if has_gt else ""
            entry["pred"] = "".join(ig_pred_raw[j] for j in entry["pred_idx"]) if has_pred else ""
            entry["norm_gt"] = "".join(ig_norm[i] for i in entry["gt_idx"]) if has_gt else ""
            entry["norm_pred"] = "".join(ig_pred_norm[j] for j in entry["pred_idx"]) \
                if has_pred else ""  # fmt: skip
            if has_gt:
                entry["gt_category_type"] = _category(entry["gt_idx"], ig_cats)
            else:
                entry["gt_category_type"] = ""
                entry["pred_category_type"] = _pred_kind(entry["pred_idx"][0], ig_pred_items) \
                    if has_pred else ""  # fmt: skip
                if entry["pred_category_type"] == "equation_inline":
                    ignored_results.remove(entry)
            entry["pred_category_type"] = _pred_kind(entry["pred_idx"][0], ig_pred_items) \
                if has_pred else ""  # fmt: skip
            entry["gt_attribute"] = [ig_items[i].get("attribute", {}) for i in entry["gt_idx"]] \
                if has_gt else [{}]  # fmt: skip
            entry["img_id"] = img_name
        for entry in ignored_results:
            if isinstance(entry["gt_idx"], list) and entry["gt_idx"] != [""]:
                entry["gt_idx"] = [ig[i] for i in entry["gt_idx"]]
            if isinstance(entry["pred_idx"], list) and entry["pred_idx"] != [""]:
                entry["pred_idx"] = [int(ig_pred[j]) for j in entry["pred_idx"]]

    rest = [j for j in range(len(norm_pred)) if j not in ig_pred]
    p_norm = [norm_pred[j] for j in rest]
    p_raw = [pred_lines[j] for j in rest]
    p_items = [pred_items[j] for j in rest]
    g_norm = [norm_gt[i] for i in keep]
    g_raw = [gt_lines[i] for i in keep]
    g_items = [gt_items[i] for i in keep]
    g_cats = [cats[i] for i in keep]
    matches, unmatched = _assign(_cost_matrix(g_norm, p_norm), g_norm, p_norm)
    final = _merge_matches(matches, _rescue(unmatched, g_norm, p_norm))
    _recompute(final, g_norm, p_norm)
    results = _merge_duplicates(_convert(final, g_norm, p_norm), len(g_norm), g_raw)
    for entry in results:  # the reference removes entries while iterating
        if entry["gt_idx"] != [""]:
            entry["gt_category_type"] = _category(entry["gt_idx"], g_cats)
        else:
            entry["gt_category_type"] = ""
            entry["pred_category_type"] = _pred_kind(entry["pred_idx"][0], p_items) \
                if entry["pred_idx"] != [""] else ""  # fmt: skip
            if entry["pred_category_type"] == "equation_inline":
                results.remove(entry)
        if not isinstance(entry["gt_idx"], list):
            entry["gt_idx"] = [entry["gt_idx"]]
        if not isinstance(entry["pred_idx"], list):
            entry["pred_idx"] = [entry["pred_idx"]]
        has_gt, has_pred = entry["gt_idx"] != [""], entry["pred_idx"] != [""]
        entry["gt_position"] = [_position(g_items[i]) for i in entry["gt_idx"]] if has_gt \
            else [""]  # fmt: skip
        entry["pred_position"] = p_items[entry["pred_idx"][0]]["position"][0] if has_pred else ""
        if entry["gt_category_type"] == "equation_isolated" and len(entry["gt_idx"]) > 1:
            entry["gt"] = _array_of(g_raw, entry["gt_idx"])
        else:
            entry["gt"] = "".join(g_raw[i] for i in entry["gt_idx"]) if has_gt else ""
        entry["pred_category_type"] = _pred_kind(entry["pred_idx"][0], p_items) if has_pred \
            else ""  # fmt: skip
        entry["gt_attribute"] = [g_items[i].get("attribute", {}) for i in entry["gt_idx"]] \
            if has_gt else [{}]  # fmt: skip
        entry["img_id"] = img_name
        if "equation" in entry["pred_category_type"] and len(entry["pred_idx"]) > 1:
            entry["pred"] = _array_of(p_raw, entry["pred_idx"])
        else:
            entry["pred"] = "".join(p_raw[j] for j in entry["pred_idx"]) if has_pred else ""
        entry["norm_gt"] = "".join(g_norm[i] for i in entry["gt_idx"]) if has_gt else ""
        entry["norm_pred"] = "".join(p_norm[j] for j in entry["pred_idx"]) if has_pred else ""
    for entry in results:
        if isinstance(entry["gt_idx"], list) and entry["gt_idx"] != [""]:
            entry["gt_idx"] = [keep[i] for i in entry["gt_idx"]]
        if isinstance(entry["pred_idx"], list) and entry["pred_idx"] != [""]:
            entry["pred_idx"] = [int(rest[j]) for j in entry["pred_idx"]]
    results.extend(ignored_results)
    return results
