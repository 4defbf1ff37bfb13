"""Profile ``omnidocbench``: OmniDocBench v1.5's end-to-end evaluation, reproduced bit for bit.

:func:`match_page` is its per-page matching (``End2EndDataset.process_get_matched_elements``:
truncated blocks joined, tables matched first and the unmatched ones' cells sent to the text pool,
quick_match on the rest, reading order); :func:`metric_result` builds its
``<name>_metric_result.json`` document from the matched samples (``call_Edit_dist``,
``call_TEDS``, ``get_full_labels_results``, ``get_page_split``) with the same summation orders
as pandas (pairwise sums for a Series' mean and sum, compensated sums for a grouped mean), so
that every value equals the reference's to the last bit.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np
from rapidfuzz.distance import Levenshtein

from parsescore.document.match import IGNORED, TEXT_CATEGORIES, quick_match, simple_match
from parsescore.document.normalise import clean_string, latex_to_text, table_key
from parsescore.document.split import Block, split_page

__all__ = [
    "PageMatch",
    "TableScorer",
    "dataset_samples",
    "match_page",
    "metric_result",
    "page_from_record",
    "page_record",
]

Entry = dict[str, Any]
NAN = float("nan")

#: Truth categories sent to quick_match, in the reference's order.
MIXED = (*TEXT_CATEGORIES, "equation_isolated")


class PageMatch:
    """One page's matched samples, as the reference keeps them before the dataset pass."""

    __slots__ = ("formulas", "html_tables", "invented", "latex_tables", "order", "text")

    def __init__(self) -> None:
        #: the answer's blocks matched to no truth block (the reference drops them; the report
        #: shows them)
        self.invented: list[Entry] = []
        self.text: list[Entry] = []
        self.formulas: list[Entry] = []
        self.latex_tables: list[Entry] = []
        self.html_tables: list[Entry] = []
        self.order: Entry = {}


def page_elements(page: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Truth blocks by category, truncated blocks joined (a chain of three repeats the middle
    block, as the reference's merge lists do)."""
    chains: list[list[Any]] = []
    truncated: dict[Any, Any] = {}
    for relation in page["extra"]["relation"]:
        if relation["relation_type"] != "truncated":
            continue
        source, target = relation["source_anno_id"], relation["target_anno_id"]
        truncated[source] = truncated[target] = ""
        joined = False
        for chain in chains:
            if source in chain or target in chain:
                chain.extend((source, target))
                joined = True
        if not joined:
            chains.append([source, target])
    elements: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for block in page["layout_dets"]:
        if block["anno_id"] not in truncated:
            elements[block["category_type"]].append(block)
        else:
            truncated[block["anno_id"]] = block
    for chain in chains:
        blocks = sorted((truncated[a] for a in chain), key=lambda b: b["order"])
        first = blocks[0]
        elements[first["category_type"]].append({
            "category_type": first["category_type"], "order": first["order"],
            "anno_id": first["anno_id"], "text": "".join(b["text"] for b in blocks),
            "merge_list": blocks,
        })  # fmt: skip
    return elements


def _by_order(items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(items, key=lambda item: item.get("order") or 0)


def _as_item(block: Block) -> dict[str, Any]:
    item: dict[str, Any] = {
        "category_type": block.category,
        "position": [block.start, block.end],
        "content": block.content,
    }
    if block.fine:
        item["fine_category_type"] = block.fine
    return item


def _reading_order(entries: list[Entry], img_name: str) -> Entry:
    matched = [(e["gt_position"], e["pred_position"]) for e in entries
               if e["gt_position"] != [""] and e["pred_position"] != ""]  # fmt: skip
    truth = [x for e in entries if e["gt_position"] != [""] for x in e["gt_position"] if x]
    pred = [x for pos, _ in sorted(matched, key=lambda m: m[1]) for x in pos if x]
    truth = sorted(truth)
    if not pred and not truth:
        return {}
    edit = Levenshtein.distance(truth, pred) / max(len(pred), len(truth))
    return {"gt": truth, "pred": pred, "img_id": img_name, "edit": edit}


#: Pages with more predicted blocks than this list no invented blocks (bounded time).
INVENTED_LIMIT = 2000


def _invented(pool: Sequence[Mapping[str, Any]], entries: Sequence[Entry]) -> list[Entry]:
    """The answer's text blocks that no sample holds: quick_match drops a prediction it pairs
    with nothing (they cost nothing in v1.5), so they are found by their text."""
    if len(pool) > INVENTED_LIMIT:
        return []
    used = "\x00".join(str(entry.get("pred") or "") for entry in entries)
    return [{"pred": str(item["content"]),
             "category": str(item.get("fine_category_type") or item["category_type"])}
            for item in pool if item["category_type"] == "text_all"
            and str(item["content"]).strip() and str(item["content"]) not in used]  # fmt: skip


def match_page(page: Mapping[str, Any], markdown: str, img_name: str) -> PageMatch:
    """One page's samples (text, formulas, tables, reading order)."""
    result = PageMatch()
    by_category: dict[str, list[dict[str, Any]]] = {}
    for block in split_page(markdown):
        by_category.setdefault(block.category, []).append(_as_item(block))
    elements = page_elements(page)
    pool = [item for category, items in by_category.items()
            if category not in ("html_table", "latex_table") for item in items]  # fmt: skip
    mixed = [block for category in MIXED for block in elements.get(category, [])]
    mixed = _by_order(mixed) if mixed else mixed
    if elements.get("table"):
        tables = _by_order(elements["table"])
        latex = by_category.get("latex_table", [])
        html = by_category.get("html_table", [])
        if not latex and not html:
            entries, cells = simple_match(tables, [], "html_table", img_name)
            result.html_tables = [e for e in entries if e["gt_idx"] != [""]]
        elif len(latex) > len(html):
            entries, cells = simple_match(tables, latex, "latex_table", img_name)
            result.latex_tables = [e for e in entries if e["gt_idx"] != [""]]
        else:
            entries, cells = simple_match(tables, html, "html_table", img_name)
            result.html_tables = [e for e in entries if e["gt_idx"] != [""]]
        if cells:
            pool.extend(cells)
    entries = quick_match(mixed, pool, img_name)
    result.invented = _invented(pool, entries)
    text = [e for e in entries if e.get("gt_category_type") in TEXT_CATEGORIES]
    result.formulas = [e for e in entries if e.get("gt_category_type") == "equation_isolated"
                       and e["gt_idx"] != [""]]  # fmt: skip
    if text:
        result.text = [e for e in text if e["gt_category_type"] not in IGNORED]
    if result.text:
        result.order = _reading_order(result.text, img_name)
    return result


#: The private key of a table entry holding its TEDS and TEDS-S, computed with its page.
_TEDS = "_teds"


class TableScorer(Protocol):
    """What scores the page tables (``document.tables.teds_score``)."""

    def __call__(self, gt: str, pred: str, structure_only: bool, /) -> float:
        """TEDS (``structure_only``: TEDS-S) of one pair."""

    def pair(self, gt: str, pred: str, /) -> tuple[float, float]:
        """TEDS and TEDS-S of one pair, each as ``call_TEDS`` takes it (a failure: 0)."""


def _table_scores(scorer: TableScorer, gt: str, pred: str) -> tuple[float, float]:
    """TEDS and TEDS-S as ``call_TEDS`` takes them: a scorer's failure scores 0."""
    return scorer.pair(gt, pred)


def page_record(
    page: Mapping[str, Any],
    markdown: str,
    img_name: str,
    teds: TableScorer,
) -> dict[str, Any]:
    """One page's share of the work, JSON-able (what a worker returns and the cache keeps):
    its samples, with what the dataset pass would do to its tables alone done here — predicted
    LaTeX tables emptied (v1.5), both sides normalised, TEDS and TEDS-S computed — so that
    the dataset pass left is cheap and the costly part runs in parallel."""
    match = match_page(page, markdown, img_name)
    for entry in match.latex_tables:
        _empty_latex(entry)
    for entry in (*match.html_tables, *match.latex_tables):
        entry["norm_gt"] = table_key(entry["gt"])
        entry["norm_pred"] = table_key(entry["pred"])
        entry[_TEDS] = _table_scores(teds, *_sides(entry))
    return {"text": match.text, "formulas": match.formulas, "latex_tables": match.latex_tables,
            "html_tables": match.html_tables, "order": match.order,
            "invented": match.invented}  # fmt: skip


def page_from_record(record: Mapping[str, Any]) -> PageMatch:
    """The :class:`PageMatch` of a :func:`page_record`."""
    match = PageMatch()
    match.text, match.formulas = record["text"], record["formulas"]
    match.latex_tables, match.html_tables = record["latex_tables"], record["html_tables"]
    match.order = record["order"]
    match.invented = record.get("invented", [])
    return match


def _empty_latex(entry: Entry) -> None:
    """v1.5 empties every predicted LaTeX table (its edit is 1)."""
    for key in list(entry):
        if "pred" in key:
            entry[key] = ""
    entry["edit"] = 1


def dataset_samples(pages: Sequence[PageMatch]) -> dict[str, list[Entry]]:
    """The four sample lists of the dataset (``End2EndDataset.get_matched_elements``)."""
    text: list[Entry] = []
    formulas: list[Entry] = []
    latex: list[Entry] = []
    html: list[Entry] = []
    order: list[Entry] = []
    for page in pages:
        if page.order:
            order.append(page.order)
        text.extend(page.text)
        formulas.extend(page.formulas)
        latex.extend(page.latex_tables)
        html.extend(page.html_tables)
    kept, moved = [], []
    for entry in formulas:
        if entry.get("pred_category_type") not in ("equation_inline", "equation_isolated", ""):
            entry["gt"] = latex_to_text(entry["gt"])
            entry["norm_gt"] = clean_string(entry["gt"])
            moved.append(entry)
        else:
            kept.append(entry)
    if moved and text:
        text.extend(moved)
    for entry in latex:  # v1.5 empties every predicted LaTeX table
        if _TEDS not in entry:  # (a page_record did it already)
            _empty_latex(entry)
        html.append(entry)
    tables = latex if len(latex) > len(html) else html
    for index, entry in enumerate(tables):
        if _TEDS not in entry:
            entry["norm_gt"] = table_key(entry["gt"])
            entry["norm_pred"] = table_key(entry["pred"])
        entry["img_id"] = entry["img_id"] if entry.get("img_id") else index
    for samples in (text, kept, order):
        for index, entry in enumerate(samples):
            if not entry.get("img_id"):
                entry["img_id"] = index
    return {"text_block": text, "display_formula": kept, "table": tables, "reading_order": order}


# --- sums as pandas makes them -----------------------------------------------------------------


#: numpy (1.24, the reference's) sums a float64 array in chunks of its iterator's buffer size,
#: each chunk pairwise (:func:`_pairwise`); numpy 2 orders large sums differently, so the sum is
#: written out here rather than left to whichever numpy is installed.
_CHUNK = 8192


def _pairwise(values: list[float], start: int, n: int) -> float:
    """numpy 1.24's ``pairwise_sum_DOUBLE`` of ``values[start:start + n]``: plain below 8
    values, 8 running sums up to 128, halves (multiples of 8) above."""
    if n < 8:
        total = 0.0
        for i in range(start, start + n):
            total += values[i]
        return total
    if n <= 128:
        sums = values[start : start + 8]
        i, end = 8, n - n % 8
        while i < end:
            for j in range(8):
                sums[j] += values[start + i + j]
            i += 8
        total = ((sums[0] + sums[1]) + (sums[2] + sums[3])) + ((sums[4] + sums[5]) + (
            sums[6] + sums[7]))  # fmt: skip
        for k in range(start + i, start + n):
            total += values[k]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise(values, start, half) + _pairwise(values, start + half, n - half)


def _series_sum(values: Sequence[float]) -> float:
    """``Series.sum()`` (numpy 1.24's chunked pairwise sum, NaN skipped)."""
    if len(values) < 8 and all(type(v) is float or type(v) is int for v in values):
        # the usual page: fewer than 8 plain numbers, which the pairwise sum adds in order
        # (``v != v`` is ``_isnan`` for these two types)
        total = 0.0
        for v in values:
            total += 0.0 if v != v else float(v)
        return total
    # a plain float that is not NaN is its own float(); anything else through _isnan
    array = [v if type(v) is float and v == v else float(v) if type(v) is int else _number(v)
             for v in values]  # fmt: skip
    total = 0.0
    for start in range(0, len(array), _CHUNK):
        total += _pairwise(array, start, min(_CHUNK, len(array) - start))
    return total


def _series_mean(values: Sequence[float]) -> float:
    """``Series.mean()`` (pairwise sum over the non-NaN count)."""
    count = len(values) - sum(1 for v in values if v != v and _isnan(v))
    return _series_sum(values) / count if count else NAN


def _grouped_mean(values: Sequence[float]) -> float:
    """``GroupBy.mean()`` (pandas' compensated sum)."""
    total = compensation = 0.0
    count = 0
    for value in values:
        if _isnan(value):
            continue
        count += 1
        y = value - compensation
        t = total + y
        compensation = t - total - y
        if compensation != compensation:
            compensation = 0.0
        total = t
    return total / count if count else NAN


def _python_sum(values: Iterable[float]) -> float:
    """``sum()`` as the reference's Python (3.10) computes it: left to right, from the int 0
    (Python 3.12's ``sum`` of floats compensates its rounding, which would change last bits)."""
    total: float = 0
    for value in values:
        total += value
    return total


def _isnan(value: float) -> bool:
    return isinstance(value, float) and math.isnan(value)


def _weighted(score: float, upper: int) -> float:
    """``float(np.float64(score) * upper)``: for a float and an int below 2**53 (converted
    exactly), the same IEEE product Python's ``*`` makes, without numpy's scalar."""
    if type(score) is float and type(upper) is int and -(2**53) < upper < 2**53:
        return score * upper
    return float(np.float64(score) * upper)


def _number(value: float) -> float:
    """A value as ``Series.sum()`` adds it: NaN skipped (as 0.0), else ``float()``."""
    return 0.0 if _isnan(value) else float(value)


def _image_name(img_id: Any) -> str:
    text = str(img_id)
    if text.endswith((".jpg", ".png")):
        return text
    return "_".join(text.split("_")[:-1])


def _sides(sample: Entry) -> tuple[Any, Any]:
    gt = sample["norm_gt"] if sample.get("norm_gt") else sample["gt"]
    pred = sample["norm_pred"] if sample.get("norm_pred") else sample["pred"]
    return gt, pred


def _edit_dist(samples: list[Entry]) -> tuple[dict[str, Any], dict[str, float]]:
    """``call_Edit_dist``: per-sample distances (written into the samples) and the aggregates."""
    names: dict[str, str] = {}  # img_id -> image name (a page's samples share it)
    for sample in samples:
        img_id = str(sample["img_id"])
        name = names.get(img_id)
        if name is None:
            name = names[img_id] = _image_name(img_id)
        sample["image_name"] = name
        gt, pred = _sides(sample)
        upper = max(len(pred), len(gt))
        sample["upper_len"] = upper
        if len(pred) > 0 or len(gt) > 0:
            distance = Levenshtein.distance(pred, gt)
            if not sample.get("metric"):
                sample["metric"] = {}
            sample["metric"]["Edit_dist"] = distance / upper
            sample["Edit_num"] = distance
    if not samples:
        return {"Edit_dist": {"ALL_page_avg": "NaN"}}, {}
    pages: dict[str, list[Entry]] = defaultdict(list)
    for sample in samples:
        pages[sample["image_name"]].append(sample)
    per_page = {}
    for name in sorted(pages):
        edits = _series_sum([s.get("Edit_num", NAN) for s in pages[name]])
        uppers = _series_sum([float(s["upper_len"]) for s in pages[name]])
        per_page[name] = _divide(edits, uppers)
    edits = _series_sum([s.get("Edit_num", NAN) for s in samples])
    uppers = _series_sum([float(s["upper_len"]) for s in samples])
    ratios = [_divide(s.get("Edit_num", NAN), float(s["upper_len"])) for s in samples]
    return {
        "Edit_dist": {
            "ALL_page_avg": _series_mean(list(per_page.values())),
            "edit_whole": _divide(edits, uppers),
            "edit_sample_avg": _series_mean(ratios),
        }
    }, per_page


def _divide(a: float, b: float) -> float:
    if (a != a and _isnan(a)) or (b != b and _isnan(b)):  # (x != x: only NaN is _isnan)
        return NAN
    if b == 0:
        return NAN if a == 0 else math.copysign(math.inf, a)
    return a / b


def _teds(samples: list[Entry], scorer: TableScorer) -> dict[str, Any]:
    """``call_TEDS``: TEDS and TEDS-S per table (written into the samples) and their means."""
    scores, structure = [], []
    for sample in samples:
        found = sample.pop(_TEDS, None)
        score, score_s = _table_scores(scorer, *_sides(sample)) if found is None else found
        scores.append(score)
        structure.append(score_s)
        if not sample.get("metric"):
            sample["metric"] = {}
        sample["metric"]["TEDS"] = score
        sample["metric"]["TEDS_structure_only"] = score_s
    if not samples:
        return {"TEDS": {}, "TEDS_structure_only": {}}
    return {
        "TEDS": {"all": _python_sum(scores) / len(scores)},
        "TEDS_structure_only": {"all": _python_sum(structure) / len(structure)},
    }


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted(v) for k, v in sorted(value.items())}
    return value


def _groups(samples: list[Entry]) -> dict[str, Any]:
    """``get_full_labels_results``: means per truth block attribute."""
    if not samples:
        return {}
    labels: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for sample in samples:
        if not sample.get("gt_attribute"):
            continue
        names = {f"{k}: {v}" for anno in sample["gt_attribute"] for k, v in anno.items()}
        for name in names:
            for metric, score in sample["metric"].items():
                labels[name][metric].append(score)
    result: dict[str, Any] = {"sample_count": {}}
    for name, metrics in labels.items():
        for metric, scores in metrics.items():
            result.setdefault(metric, {})[name] = _python_sum(scores) / len(scores)
            result["sample_count"][name] = len(scores)
    return dict(_sorted(result))


def _page_split(samples: list[Entry], page_info: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """``get_page_split``: page-level means per page attribute (a page's rows grouped by page
    and attribute, pages in sorted order within an attribute, as the reference's ``groupby``)."""
    if not page_info:
        return {}
    # metric -> attribute -> page -> [(score, upper)]
    groups: dict[str, dict[str, dict[str, list[tuple[float, int]]]]] = {}
    names: dict[str, str] = {}
    labels: dict[str, list[str]] = {}
    for sample in samples:
        img_id = str(sample["img_id"])
        name = names.get(img_id)
        if name is None:
            name = img_id[:-4] if img_id.endswith((".jpg", ".png")) else _image_name(img_id)
            names[img_id] = name
        info = page_info[name]
        metrics = sample.get("metric")
        if not metrics:
            continue
        attributes = labels.get(name)
        if attributes is None:
            attributes = ["ALL"]
            for key, value in info.items():
                if isinstance(value, list):
                    attributes.extend(issue for issue in value if "table" not in issue)
                else:
                    attributes.append(f"{key}: {value}")
            labels[name] = attributes
        gt, pred = _sides(sample)
        upper = max(len(gt), len(pred))
        for metric, score in metrics.items():
            by_attribute = groups.get(metric)
            if by_attribute is None:
                by_attribute = groups[metric] = {}
            for attribute in attributes:
                pages = by_attribute.get(attribute)
                if pages is None:
                    pages = by_attribute[attribute] = {}
                rows = pages.get(name)
                if rows is None:
                    pages[name] = [(score, upper)]
                else:
                    rows.append((score, upper))
    result: dict[str, Any] = {}
    for metric, by_attribute in groups.items():
        means: dict[str, float] = {}
        for attribute, pages in by_attribute.items():
            values = []
            for name in sorted(pages):
                rows = pages[name]
                if metric == "Edit_dist":
                    weighted = _series_sum([_weighted(s, u) for s, u in rows])
                    total = _series_sum([float(u) for _, u in rows])
                    values.append(_divide(weighted, total))
                else:
                    values.append(_series_mean([float(s) for s, _ in rows]))
            means[attribute] = _grouped_mean(values)
        result[metric] = means
    return dict(_sorted(result))


def metric_result(
    samples: Mapping[str, list[Entry]],
    page_info: Mapping[str, Mapping[str, Any]],
    teds: TableScorer,
) -> tuple[dict[str, Any], dict[str, dict[str, float]]]:
    """The ``<name>_metric_result.json`` document and the per-page Edit_dist of each element."""
    document: dict[str, Any] = {}
    per_page: dict[str, dict[str, float]] = {}
    for element in ("text_block", "display_formula", "table", "reading_order"):
        element_samples = samples[element]
        result: dict[str, Any] = {}
        if element == "table":
            result.update(_teds(element_samples, teds))
        edit, per_page[element] = _edit_dist(element_samples)
        result.update(edit)
        document[element] = {
            "all": result,
            "group": _groups(element_samples),
            "page": _page_split(element_samples, page_info),
        }
    return document, per_page
