"""Scoring a dataset of pages: the truth JSON read and checked, each page's Markdown looked up as
OmniDocBench looks it up, pages matched one by one (an unreadable page is listed, never the end
of the run), then the dataset pass and the ``<name>_metric_result.json`` document.
"""

from __future__ import annotations

import json
import os
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

from parsescore.core.aggregate import totals
from parsescore.core.errors import InputError
from parsescore.core.files import full_collections_paused, loads_as_json
from parsescore.core.options import recorded_options
from parsescore.core.results import Reader, Result
from parsescore.document.options import DocumentOptions

__all__ = [
    "evaluate",
    "find_prediction",
    "load_truth",
    "page_attributes",
    "page_filters",
    "read",
    "subset_totals",
    "totals_of",
    "truth_chars",
]

#: Per-page Edit_dist of each element, as OmniDocBench writes ``<name>_<element>_per_page_edit``.
ELEMENTS = {
    "text_block": "text_edit",
    "display_formula": "formula_edit",
    "table": "table_edit",
    "reading_order": "reading_order_edit",
}


def load_truth(path: str | Path) -> list[dict[str, Any]]:
    """OmniDocBench's page list, checked up front (each error names the file and the page)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(
            "no such file (expected OmniDocBench's page-list JSON)", path=path
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read it as UTF-8 text ({error})", path=path) from None
    try:
        pages = loads_as_json(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"not JSON: {error.msg}", path=path, where=f"line {error.lineno}, column {error.colno}"
        ) from None
    del text
    if not isinstance(pages, list):
        raise InputError(
            f"expected a JSON array of pages (OmniDocBench.json), found {type(pages).__name__}",
            path=path,
        )
    seen: dict[str, int] = {}
    for index, page in enumerate(pages):
        where = f"page {index}"
        if not isinstance(page, dict):
            raise InputError("expected an object with page_info and layout_dets", path=path,
                             where=where)  # fmt: skip
        info = page.get("page_info")
        if not isinstance(info, dict) or not isinstance(info.get("image_path"), str):
            raise InputError("expected page_info.image_path (a string)", path=path, where=where)
        if not isinstance(info.get("page_attribute", {}), dict):
            raise InputError("expected page_info.page_attribute to be an object", path=path,
                             where=where)  # fmt: skip
        image = os.path.basename(info["image_path"])
        if len(image) < 5:
            raise InputError(f"image_path {image!r} has no 3-letter extension", path=path,
                             where=where)  # fmt: skip
        if image in seen:
            raise InputError(f"image {image!r} is also page {seen[image]}", path=path, where=where)
        seen[image] = index
        blocks = page.get("layout_dets")
        if not isinstance(blocks, list):
            raise InputError("expected layout_dets (an array of blocks)", path=path, where=where)
        for k, block in enumerate(blocks):
            _check_block(block, path, f"{where} ({image}), layout_dets[{k}]")
        extra = page.get("extra", {"relation": []})
        if not isinstance(extra, dict) or not isinstance(extra.get("relation", []), list):
            raise InputError("expected extra.relation (an array)", path=path, where=where)
        ids = {block["anno_id"] for block in blocks if isinstance(block["anno_id"], Hashable)}
        for k, relation in enumerate(extra.get("relation", [])):
            _check_relation(relation, ids, path, f"{where} ({image}), extra.relation[{k}]")
    return pages


def _check_relation(relation: Any, ids: set[Any], path: Path, where: str) -> None:
    if not isinstance(relation, dict) or not isinstance(relation.get("relation_type"), str):
        raise InputError("expected an object with relation_type (a string)", path=path,
                         where=where)  # fmt: skip
    if relation["relation_type"] != "truncated":
        return
    for key in ("source_anno_id", "target_anno_id"):
        value = relation.get(key)
        if not isinstance(value, Hashable) or value not in ids:
            raise InputError(f"{key} {value!r} is the anno_id of no block of this page",
                             path=path, where=where)  # fmt: skip


def truth_chars(page: Mapping[str, Any]) -> int:
    """How many characters a page's truth holds (its blocks' text, LaTeX and HTML)."""
    return sum(len(block.get(key) or "") for block in page["layout_dets"]
               for key in ("text", "latex", "html") if isinstance(block.get(key), str))  # fmt: skip


def _check_block(block: Any, path: Path, where: str) -> None:
    if not isinstance(block, dict):
        raise InputError("expected a block object", path=path, where=where)
    category = block.get("category_type")
    if not isinstance(category, str):
        raise InputError("expected category_type (a string)", path=path, where=where)
    if "anno_id" not in block:
        raise InputError("expected anno_id", path=path, where=where)
    order = block.get("order")
    if order is not None and (isinstance(order, bool) or not isinstance(order, int | float)):
        raise InputError(f"expected order to be a number or null, found {order!r}", path=path,
                         where=where)  # fmt: skip
    from parsescore.document.match import TEXT_CATEGORIES

    needs = ("text" if category in TEXT_CATEGORIES else "latex" if category ==
             "equation_isolated" else "html" if category == "table" else None)  # fmt: skip
    if needs and not isinstance(block.get(needs), str):
        raise InputError(f"a {category} block needs {needs!r} (a string)", path=path, where=where)


def page_filters(given: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` filters on ``page_attribute``."""
    filters: dict[str, str] = {}
    for text in given:
        key, sep, value = text.partition("=")
        if not sep or not key:
            raise InputError(f"--filter takes KEY=VALUE (a page_attribute field), got {text!r}")
        filters[key] = value
    return filters


def find_prediction(folder: Path, image: str) -> Path | None:
    """The page's Markdown as OmniDocBench looks it up: ``<stem>.md``, then ``<stem without
    .pdf>.mmd`` (nougat), ``<stem without .pdf>.md`` (marker), ``<image>.md`` (MinerU)."""
    stem = image[:-4]
    for name in (stem + ".md", stem.replace(".pdf", "") + ".mmd",
                 stem.replace(".pdf", "") + ".md", image + ".md"):  # fmt: skip
        candidate = folder / name
        if candidate.is_file():
            return candidate
    return None


def _read_page(path: Path, max_chars: int) -> str:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise InputError(f"cannot read it ({error.strerror})", path=path) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            f"not UTF-8 (byte {error.start}); expected the page's Markdown in UTF-8", path=path
        ) from None
    if len(text) > max_chars:
        raise InputError(
            f"{len(text)} characters, more than --max-chars {max_chars}; expected one page",
            path=path,
        )
    return text


def _page_values(samples: Mapping[str, list[dict[str, Any]]], per_page: Mapping[str, Mapping[
        str, float]], pages: Sequence[str]) -> tuple[dict[str, dict[str, float]],
                                                      dict[str, dict[str, float]]]:  # fmt: skip
    """Per page metrics (the reference's per-page values) and the counts behind them."""
    items: dict[str, dict[str, float]] = {page: {} for page in pages}
    counts: dict[str, dict[str, float]] = {page: {} for page in pages}
    for element, metric in ELEMENTS.items():
        for name, value in per_page.get(element, {}).items():
            if name in items and value == value:
                items[name][metric] = value
        prefix = metric.removesuffix("_edit")
        for sample in samples[element]:
            name = str(sample.get("image_name"))
            if name not in counts or "Edit_num" not in sample:
                continue
            page = counts[name]
            page[f"{prefix}_edits"] = page.get(f"{prefix}_edits", 0) + sample["Edit_num"]
            page[f"{prefix}_chars"] = page.get(f"{prefix}_chars", 0) + sample["upper_len"]
    tables: dict[str, list[dict[str, Any]]] = {}
    for sample in samples["table"]:
        tables.setdefault(str(sample.get("image_name")), []).append(sample)
    for name, found in tables.items():
        if name in items:
            items[name]["table_teds"] = sum(s["metric"]["TEDS"] for s in found) / len(found)
            items[name]["table_teds_s"] = sum(
                s["metric"]["TEDS_structure_only"] for s in found
            ) / len(found)
            counts[name]["tables"] = len(found)
    return items, counts


def totals_of(document: Mapping[str, Any]) -> dict[str, float]:
    """The compat headline numbers of a ``<name>_metric_result.json`` document."""

    def get(*keys: str) -> float | None:
        node: Any = document
        for key in keys:
            if not isinstance(node, Mapping) or key not in node:
                return None
            node = node[key]
        if isinstance(node, bool) or not isinstance(node, int | float) or node != node:
            return None
        return float(node)

    found = {
        "text_edit": get("text_block", "all", "Edit_dist", "ALL_page_avg"),
        "text_edit_whole": get("text_block", "all", "Edit_dist", "edit_whole"),
        "text_edit_sample_avg": get("text_block", "all", "Edit_dist", "edit_sample_avg"),
        "formula_edit": get("display_formula", "all", "Edit_dist", "ALL_page_avg"),
        "table_teds": get("table", "all", "TEDS", "all"),
        "table_teds_s": get("table", "all", "TEDS_structure_only", "all"),
        "table_edit": get("table", "all", "Edit_dist", "ALL_page_avg"),
        "reading_order_edit": get("reading_order", "all", "Edit_dist", "ALL_page_avg"),
    }
    return {k: v for k, v in found.items() if v is not None}


def _score_page(item: tuple[dict[str, Any], str, str], max_chars: int, strict: bool) -> dict[
        str, Any]:  # fmt: skip
    """One page in a worker: ``{"page": record}`` or ``{"unreadable": reason}`` (``strict``:
    the error itself)."""
    from parsescore.document.compat import page_record
    from parsescore.document.tables import teds_score

    page, file, image = item
    path = Path(file)
    try:
        size = truth_chars(page)
        if size > max_chars:
            raise InputError(
                f"its truth holds {size} characters, more than --max-chars {max_chars}; "
                "expected one page"
            )
        markdown = _read_page(path, max_chars)
        return {"page": page_record(page, markdown, image, teds_score)}
    except InputError as error:
        if strict:
            raise
        return {"unreadable": error.reason}
    except (KeyError, TypeError, IndexError, RecursionError, ValueError) as error:
        if strict:
            raise InputError(f"cannot score this page: {error!r}", path=path) from None
        return {"unreadable": f"cannot score this page: {error!r}"}


def _page_bytes(item: tuple[dict[str, Any], str, str]) -> bytes:
    """A page's cache key input: its truth (canonical JSON), its image name and its file."""
    from parsescore.core.runner import item_bytes

    page, file, image = item
    try:
        data: bytes | None = Path(file).read_bytes()
    except OSError:
        data = None
    truth = json.dumps(page, ensure_ascii=False, sort_keys=True)
    return item_bytes(truth, image, data)


def evaluate(truth: str | Path, pred: str | Path, options: DocumentOptions) -> Result:
    """Score a folder of page Markdown files against OmniDocBench's page list: pages matched
    one by one (``--jobs``, Dask, ``--cache``: each page a record), then the dataset pass."""
    # the other truth format and profile first: they need none of the modules below (scipy)
    if options.truth_format == "olmocr-bench":
        from parsescore.document.olmocr.dataset import evaluate as evaluate_olmocr

        return evaluate_olmocr(truth, pred, options)
    if options.profile == "parsescore":
        from parsescore.document.better import evaluate as evaluate_parsescore

        return evaluate_parsescore(truth, pred, options)
    with full_collections_paused():
        return _evaluate_omnidocbench(Path(truth), Path(pred), options)


def _evaluate_omnidocbench(truth: Path, pred: Path, options: DocumentOptions) -> Result:
    """The ``omnidocbench`` profile's run (see :func:`evaluate`)."""
    from functools import partial

    from parsescore.core.runner import run_items
    from parsescore.document.compat import dataset_samples, metric_result, page_from_record
    from parsescore.document.kind import OMNIDOCBENCH_TOTALS as TOTALS
    from parsescore.document.present import page_details
    from parsescore.document.tables import teds_score

    if not pred.is_dir():
        raise InputError("expected a folder of page Markdown files (<image stem>.md)", path=pred)
    pages = load_truth(truth)
    filters = page_filters(options.filter)
    selected = [p for p in pages
                if all(p["page_info"].get("page_attribute", {}).get(k) == v
                       or str(p["page_info"].get("page_attribute", {}).get(k)) == v
                       for k, v in filters.items())]  # fmt: skip
    skipped: list[str] = []
    work: list[tuple[dict[str, Any], str, str]] = []
    for page in selected:
        image = os.path.basename(page["page_info"]["image_path"])
        path = find_prediction(pred, image)
        if path is None:
            skipped.append(image)
        else:
            work.append((page, str(path), image))
    run = run_items(
        partial(_score_page, max_chars=options.max_chars, strict=options.strict),
        work,
        kind="document",
        options=recorded_options(options) | {"record": 1},
        item_input=_page_bytes,
        jobs=options.jobs,
        dask_scheduler=options.dask_scheduler,
        cache_dir=options.cache,
        quiet=options.quiet,
        description=f"scoring {pred.name}",
    )
    matched = []
    scored: list[str] = []
    unreadable: dict[str, str] = {}
    files: dict[str, str] = {}
    for (_, file, image), record in zip(work, run.records, strict=True):
        if "unreadable" in record:
            unreadable[image] = record["unreadable"]
            continue
        matched.append(page_from_record(record["page"]))
        scored.append(image)
        files[image] = Path(file).name
    kept = None
    if options.by or options.attributes is not None:  # pristine pages for subset_totals
        kept = {image: json.dumps(record["page"]) for (_, _, image), record in
                zip(work, run.records, strict=True) if "page" in record}  # fmt: skip
    samples = dataset_samples(matched)
    page_info = {
        os.path.basename(p["page_info"]["image_path"])[:-4]: p["page_info"].get(
            "page_attribute", {}
        )
        for p in pages
    }
    document, per_page = metric_result(samples, page_info, teds_score)
    computed: dict[str, Any] = dict(samples)
    if kept is not None:
        computed |= {"pages": kept, "page_info": page_info}
    items, counts = _page_values(samples, per_page, scored)
    invented = {image: page.invented for image, page in zip(scored, matched, strict=True)}
    details = {page: detail for page, detail in page_details(samples, invented).items()
               if page in items}  # fmt: skip
    warnings = []
    if skipped:
        warnings.append(
            f"{len(skipped)} page(s) without a prediction file were skipped, as OmniDocBench "
            "skips them: " + ", ".join(skipped[:5]) + (" …" if len(skipped) > 5 else "")
        )
    if unreadable:
        warnings.append(f"{len(unreadable)} page file(s) could not be scored (listed)")
    return Result(
        "document",
        options.name or pred.name,
        items,
        totals(TOTALS, items, counts, given=totals_of(document)),
        inputs={"truth": str(truth), "pred": str(pred)},
        options=recorded_options(options),
        counts={k: v for k, v in counts.items() if v},
        dataset={
            "profile": options.profile,
            "pages": len(selected),
            "skipped": skipped,
            "unreadable": unreadable,
            "files": files,
            "not_computed": ["CDM", "Overall (needs CDM)", "BLEU", "METEOR"],
            "metric_result": document,
        },
        details=details,
        attributes={image: page_attributes(page_info[image[:-4]]) for image in scored},
        native=document,
        computed=computed,
        warnings=tuple(warnings),
    )


def page_attributes(attributes: Mapping[str, Any]) -> dict[str, str]:
    """A page's ``page_attribute`` as item attributes (``--by``): a value as ``--filter``
    compares it (``str``), a list (``special_issue``) joined with ``+``; an empty list or a
    null is no value."""
    found: dict[str, str] = {}
    for key, value in attributes.items():
        if isinstance(value, list):
            if value:
                found[key] = "+".join(str(v) for v in value)
        elif value is not None:
            found[key] = str(value)
    return found


def subset_totals(result: Result, items: Sequence[str]) -> dict[str, float]:
    """The compat totals of a subset of the pages (``--by``), recomputed exactly as scoring
    only those pages does (``--filter``): the dataset pass again on their matched samples
    (kept by :func:`evaluate` when ``by`` or ``attributes`` is given; {} otherwise, e.g. for
    a loaded envelope)."""
    from parsescore.document.compat import dataset_samples, metric_result, page_from_record
    from parsescore.document.tables import teds_score

    computed = result.computed
    if not isinstance(computed, Mapping) or "pages" not in computed:
        return {}
    pages = computed["pages"]
    matched = [page_from_record(json.loads(pages[item])) for item in items if item in pages]
    document, _ = metric_result(dataset_samples(matched), computed["page_info"], teds_score)
    return totals_of(document)


def read(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The result of an OmniDocBench ``<name>_metric_result.json`` document (its totals; the
    document holds no per-page values)."""
    from parsescore.core.kinds import Dataset
    from parsescore.document.kind import OMNIDOCBENCH_TOTALS as TOTALS

    reported = [m for m in TOTALS if isinstance(m.aggregate, Dataset)]
    for element in ELEMENTS:
        r.mapping(r.key(doc, element, "top level"), f"key {element!r}")
    return [
        Result(
            "document",
            name,
            {},
            totals(reported, {}, {}, given=totals_of(doc)),
            r.path,
            dataset={"metric_result": dict(doc)},
        )
    ]
