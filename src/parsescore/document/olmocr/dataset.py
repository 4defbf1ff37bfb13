"""``parsescore document --truth-format olmocr-bench``: a candidate folder scored against
olmOCR-bench's tests folder, page by page through the core's runner (``--jobs``, ``--cache``),
then the harness's aggregation (compat) or the page-level one (profile ``parsescore``).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from parsescore.core.aggregate import totals
from parsescore.core.errors import InputError
from parsescore.core.options import recorded_options
from parsescore.core.results import Result
from parsescore.document.olmocr.bench import (
    Suite,
    candidate_files,
    early_failure,
    load_suite,
    page_files,
    score_page,
    summarise_pages,
)
from parsescore.document.olmocr.checks import Check
from parsescore.document.options import DocumentOptions

__all__ = ["evaluate"]

#: resamples and seed of the parsescore profile's page bootstrap (the core's defaults)
RESAMPLES = 10_000
SEED = 0


def _page_id(pdf: str, page: int) -> str:
    return f"{pdf}#{page}"


def _item_bytes(item: tuple[str, tuple[str, ...], tuple[Check, ...], int | None, bool]) -> bytes:
    folder, files, checks, limit, math = item
    digest = hashlib.sha256()
    for check in checks:
        digest.update(repr(sorted(check.raw.items())).encode())
    for name in files:
        digest.update(name.encode() + b"\0")
        try:
            digest.update((Path(folder) / name).read_bytes())
        except OSError:
            digest.update(b"\1unreadable")
    digest.update(repr((limit, math)).encode())
    return digest.digest()


@contextlib.contextmanager
def _rarer_collections() -> Iterator[None]:
    """Scoring makes many small containers that live to the end (tests, records, verdicts) and
    next to no reference cycles; at the cyclic collector's default pace (a pass every 700
    allocations) walking them again costs about a sixth of the run. A slower pace while scoring,
    the previous one restored after."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], 50_000), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def evaluate(truth: str | Path, pred: str | Path, options: DocumentOptions) -> Result:
    """Score the candidate folder ``pred`` against the tests folder ``truth``."""
    with _rarer_collections():
        return _evaluate(truth, pred, options)


def _evaluate(truth: str | Path, pred: str | Path, options: DocumentOptions) -> Result:
    from parsescore.core.runner import run_items
    from parsescore.document.kind import TOTALS
    from parsescore.document.olmocr.maths import renderer_available

    compat = options.profile != "parsescore"
    if not isinstance(truth, str | os.PathLike) or not isinstance(pred, str | os.PathLike):
        raise InputError("--truth-format olmocr-bench takes folders: the tests folder (*.jsonl "
                         "and pdfs/) and the candidate's folder")  # fmt: skip
    truth, pred = Path(truth), Path(pred)
    suite = load_suite(truth)
    if not pred.is_dir():
        raise InputError("expected the candidate's folder of <pdf stem>_pg<page>_repeat<r>.md "
                         "files", path=pred)  # fmt: skip
    math = renderer_available()
    not_run: list[str] = [] if math else [c.id for c in suite.checks if c.type == "math"]
    found, missing = candidate_files(pred, suite.pdfs)
    errors = [f"no candidate files for {pdf} (expected {Path(pdf).with_suffix('').as_posix()}"
              "_pg<page>_repeat<r>.md)" for pdf in missing]  # fmt: skip
    pages: dict[tuple[str, int], list[Check]] = {}
    for check in suite.checks:
        pages.setdefault((check.pdf, check.page), []).append(check)
    items = []
    keys = []
    no_files: list[tuple[str, int]] = []
    for (pdf, page), checks in pages.items():
        files = page_files(found.get(pdf, []), pdf, page, compat=compat)
        if not files:
            no_files.append((pdf, page))
            continue
        keys.append((pdf, page))
        items.append((str(pred), tuple(files), tuple(checks),
                      None if compat else options.max_chars, math))  # fmt: skip
    if compat and errors:
        document = early_failure(suite, errors, not_run)
        records: dict[tuple[str, int], Mapping[str, Any]] = {}
    else:
        errors = [] if compat else errors
        for pdf, page in no_files:
            stem = Path(pdf).with_suffix("").as_posix()
            errors.append(f"no candidate files for {pdf} page {page} (expected "
                          f"{stem}_pg{page}_repeat<r>.md)")  # fmt: skip
        run = run_items(
            score_page,
            items,
            kind="document-olmocr",
            options={"profile": options.profile, "math": math},
            item_input=_item_bytes,
            jobs=options.jobs,
            dask_scheduler=options.dask_scheduler,
            cache_dir=options.cache,
            quiet=options.quiet,
            description="olmOCR-bench pages",
        )
        records = dict(zip(keys, run.records, strict=True))
        _decide_pending(records)
        for record in records.values():
            not_run += [k for k, v in record["tests"].items() if v.get("not_run")]
        document = summarise_pages(suite, records, errors, compat=compat, not_run=not_run)
    if not_run:
        document["not_run"] = {"math": not_run}
    return _result(suite, pred, options, document, records, not_run, TOTALS)


def _decide_pending(records: Mapping[tuple[str, int], Mapping[str, Any]]) -> None:
    """Math verdicts that need KaTeX's layout, for every page at once (one browser run)."""
    from parsescore.document.olmocr.maths import decide_pending

    waiting = [(result, verdict) for record in records.values()
               for result in record["tests"].values() for verdict in result["verdicts"]
               if "pending" in verdict]  # fmt: skip
    if not waiting:
        return
    decided = decide_pending([(v["pending"][0], v["pending"][1]) for _, v in waiting])
    for (result, verdict), passed in zip(waiting, decided, strict=True):
        del verdict["pending"]
        verdict["passed"] = passed
        verdict["detail"] = "" if passed else "no formula of the page is laid out like it"
        result["passes"] += passed


def _result(
    suite: Suite,
    pred: Path,
    options: DocumentOptions,
    document: dict[str, Any],
    records: Mapping[tuple[str, int], Mapping[str, Any]],
    not_run: list[str],
    metrics: Any,
) -> Result:
    skipped = set(not_run)
    items: dict[str, dict[str, float]] = {}
    counts: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    tests = document["tests"]
    for check in suite.checks:
        if check.id in skipped:
            continue
        page = _page_id(check.pdf, check.page)
        count = counts.setdefault(page, {"olmocr_passed": 0, "olmocr_tests": 0})
        count["olmocr_tests"] += 1
        outcome = tests.get(check.id)
        passed = bool(outcome and outcome["passed"])
        count["olmocr_passed"] += passed
        record = records.get((check.pdf, check.page))
        entry = {} if record is None else record["tests"].get(check.id, {})
        details.setdefault(page, {"tests": []})["tests"].append({
            "id": check.id, "type": check.type, "passed": passed,
            "fraction": 0.0 if outcome is None else outcome["fraction"],
            "looked_for": _looked_for(check),
            "verdicts": entry.get("verdicts", []),
        })  # fmt: skip
    for page, count in counts.items():
        items[page] = {"olmocr_page": count["olmocr_passed"] / count["olmocr_tests"]}
    given = {"olmocr_overall": document["overall"]}
    for name, value in document["types"].items():
        given[f"olmocr_{name}"] = value
    found = totals(metrics, items, counts, given=given)
    dataset: dict[str, Any] = {
        "truth_format": "olmocr-bench",
        "profile": options.profile,
        "pages": len(counts),
        "groups": document["groups"],
        "types": document["types"],
        "failed": bool(document.get("failed")),
        "errors": document.get("errors", []),
        "not_run": not_run,
    }
    if options.profile == "parsescore" and counts:
        dataset["interval"] = _interval(counts)
    warnings = []
    if document.get("failed"):
        warnings.append("olmOCR-bench marks this candidate FAILED (every group scores 0): "
                        + "; ".join(document["errors"][:3]))  # fmt: skip
    if not_run:
        warnings.append(f"{len(not_run)} math test(s) not run: no KaTeX renderer (node and the "
                        "katex package), or the verdict needs KaTeX's layout")  # fmt: skip
    return Result(
        "document",
        options.name or pred.name,
        items,
        {k: v for k, v in found.items() if k in given or k.startswith("olmocr") or k == "pages"},
        inputs={"truth": str(suite.folder), "pred": str(pred)},
        options=recorded_options(options),
        counts=counts,
        details=details,
        dataset=dataset,
        native=document,
        computed=records,
        warnings=tuple(warnings),
    )


def _looked_for(check: Check) -> str:
    fields = check.fields
    if check.type in ("present", "absent", "format"):
        return str(fields["text"])
    if check.type == "order":
        return f"{fields['before']} … before … {fields['after']}"
    if check.type == "table":
        return str(fields["cell"])
    if check.type == "math":
        return str(fields["math"])
    if check.type == "footnote":
        return str(fields["marker"])
    return "non-empty, no runaway repetition"


def _interval(counts: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
    """95% bootstrap interval over pages of the pooled share of tests passed (the core's
    resampling of items, the metric's declared ratio)."""
    import numpy as np

    from parsescore.core.compare import bootstrap_statistics
    from parsescore.core.kinds import Ratio

    rule = Ratio("olmocr_passed", "olmocr_tests")
    table = np.array([[[c["olmocr_passed"], c["olmocr_tests"]] for c in counts.values()]])
    samples = bootstrap_statistics(rule, table, n_resamples=RESAMPLES, seed=SEED)[0]
    low, high = np.percentile(samples, [2.5, 97.5])
    return {"low": float(low), "high": float(high), "confidence": 0.95,
            "resamples": RESAMPLES, "seed": SEED}  # fmt: skip
