"""Scoring a candidate folder against olmOCR-bench's test files, as its ``benchmark.py`` scores
one candidate (profile ``omnidocbench``, the compat one), or without the rules that zero a whole
candidate for one bad file (profile ``parsescore``).

The harness's rules, kept in compat: every ``*.jsonl`` of the tests folder is a group; each PDF
of ``pdfs/`` without a baseline test gets one (``<pdf>_baseline``, page 1, group ``baseline``);
a candidate's files for a PDF are the ``<pdf stem>_pg<n>_repeat<r>.md`` under its folder, and a
test on page ``p`` reads those whose name contains ``_pg<p>_``; a test's fraction is the share
of its files it passes on (an unreadable file counts, as a failed repeat), and it passes above
one half; a group's score is its share of passed tests, ``overall`` their unweighted mean, a
type's score the mean fraction of its tests. A PDF without files, a page without files, an
unreadable file or a test that cannot run marks the whole candidate failed: every group scores 0.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parsescore.core.errors import InputError
from parsescore.document.olmocr.checks import Check, CheckError, Page, Verdict, parse_check

__all__ = ["Suite", "candidate_files", "load_suite", "score_page", "summarise_pages"]

#: the end of a candidate file's name after the PDF's stem
_TAIL = re.compile(r"_pg\d+_repeat\d+\.md$")
#: the group of the automatic baseline tests
BASELINE_GROUP = "baseline"


@dataclass(frozen=True)
class Suite:
    """The tests folder: every test in file order, its group, and the PDFs of ``pdfs/``."""

    checks: tuple[Check, ...]
    groups: Mapping[str, str]
    pdfs: tuple[str, ...]
    folder: Path


def _walk(folder: Path, suffix: str) -> list[str]:
    """Paths relative to ``folder`` (with ``/``) of the entries ``glob('**/*<suffix>',
    recursive=True)`` lists: names starting with a dot skipped, as glob skips them."""
    found: list[str] = []
    for root, dirs, files in os.walk(folder, followlinks=True):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        base = Path(root).relative_to(folder)
        for name in sorted(files + dirs):
            if name.endswith(suffix) and not name.startswith("."):
                found.append((base / name).as_posix())
    return found


def load_suite(folder: str | Path) -> Suite:
    """The JSONL test files of ``folder`` (checked line by line) and its ``pdfs/`` list, with
    the automatic baseline tests added."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("expected olmOCR-bench's tests folder (*.jsonl and pdfs/)", path=folder)
    pdf_folder = folder / "pdfs"
    if not pdf_folder.is_dir():
        raise InputError("no pdfs/ folder: olmOCR-bench's harness reads the PDF list from it",
                         path=folder)  # fmt: skip
    pdfs = tuple(sorted(_walk(pdf_folder, ".pdf")))
    if not pdfs:
        raise InputError("no PDF files in pdfs/ (olmOCR-bench needs the PDFs' list)",
                         path=pdf_folder)  # fmt: skip
    files = sorted(p for p in folder.iterdir() if p.name.endswith(".jsonl") and
                   not p.name.startswith(".") and p.is_file())  # fmt: skip
    if not files:
        raise InputError("no .jsonl test files", path=folder)
    checks: list[Check] = []
    groups: dict[str, str] = {}
    seen: dict[str, str] = {}
    for path in files:
        try:
            text = path.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise InputError(f"cannot read it as UTF-8 text ({error})", path=path) from None
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as error:
                where = f"line {number}, column {error.colno}"
                raise InputError(f"not JSON: {error.msg}", path=path, where=where) from None
            check = parse_check(data, str(path), number)
            if check.id in seen:
                raise InputError(f"test id {check.id!r} is also in {seen[check.id]} (ids must "
                                 "be unique)", path=path, where=f"line {number}")  # fmt: skip
            seen[check.id] = f"{path.name}"
            checks.append(check)
            groups[check.id] = path.name
    with_baseline = {c.pdf for c in checks if c.type == "baseline"}
    for pdf in pdfs:
        if pdf in with_baseline:
            continue
        check = parse_check({"id": f"{pdf}_baseline", "pdf": pdf, "page": 1,
                             "type": "baseline"}, "(automatic baseline)", 0)  # fmt: skip
        if check.id in seen:
            raise InputError(f"test id {check.id!r} is also the automatic baseline test's id",
                             path=folder)  # fmt: skip
        checks.append(check)
        groups[check.id] = BASELINE_GROUP
    return Suite(tuple(checks), groups, pdfs, folder)


def candidate_files(folder: Path, pdfs: Sequence[str]) -> tuple[dict[str, list[str]], list[str]]:
    """Each PDF's candidate files (``<stem>_pg<n>_repeat<r>.md`` under ``folder``) and the PDFs
    that have none."""
    # the harness matches ^<stem>_pg\d+_repeat\d+\.md$ for every PDF against every file; the
    # tail fixes the stem, so each file is filed once under the stem it can match
    by_stem: dict[str, list[str]] = {}
    for name in _walk(folder, ".md"):
        tail = _TAIL.search(name)
        if tail is not None:
            by_stem.setdefault(name[: tail.start()], []).append(name)
    found: dict[str, list[str]] = {}
    missing: list[str] = []
    for pdf in pdfs:
        matching = by_stem.get(os.path.splitext(pdf)[0])
        if matching:
            found[pdf] = matching
        else:
            missing.append(pdf)
    return found, missing


def page_files(files: Sequence[str], pdf: str, page: int, *, compat: bool) -> list[str]:
    """A PDF's files for one page: in compat the harness's filter (the name contains
    ``_pg<page>_``, which also matches inside the PDF's own name), else exactly
    ``<stem>_pg<page>_repeat<r>.md``."""
    if compat:
        needle = f"_pg{page}_"
        return [f for f in files if needle in os.path.basename(f)]
    stem = re.escape(os.path.splitext(pdf)[0])
    pattern = re.compile(rf"^{stem}_pg{page}_repeat\d+\.md$")
    return [f for f in files if pattern.match(f)]


def read_candidate(path: Path) -> str:
    """A candidate file as the harness opens it: UTF-8, universal newlines."""
    data = path.read_bytes().decode("utf-8")
    return data.replace("\r\n", "\n").replace("\r", "\n")


def score_page(item: tuple[str, Sequence[str], Sequence[Check], int | None, bool]) -> dict[str,
                                                                                          Any]:
    """One page: every test on each of its files (one record, for the runner).

    ``item`` is (candidate folder, the page's files, its tests, a length above which a file is
    unreadable or None, whether to run math tests)."""
    from parsescore.document.olmocr.maths import NeedsLayout, prerender_page, run_math

    folder, files, checks, max_chars, math = item
    pages: list[Page | None] = []
    #: repeats with the same text share one Page, and so each test's verdict on it
    by_text: dict[str, Page] = {}
    unreadable: dict[str, str] = {}
    for name in files:
        try:
            text = read_candidate(Path(folder) / name)
        except (OSError, UnicodeDecodeError) as error:
            unreadable[name] = f"cannot read it: {error}"
            pages.append(None)
            continue
        if max_chars is not None and len(text) > max_chars:
            unreadable[name] = f"{len(text)} characters, more than --max-chars {max_chars}"
            pages.append(None)
            continue
        pages.append(by_text.setdefault(text, Page(text)))
    maths = [check for check in checks if check.type == "math"] if math else []
    if maths:
        # each test meets a failing renderer itself below, as without this
        with contextlib.suppress(CheckError):
            prerender_page([c.fields["math"] for c in maths],
                           list(by_text),
                           [bool(c.get("ignore_dollar_delimited")) for c in maths])  # fmt: skip
    results: dict[str, Any] = {}
    for check in checks:
        if check.type == "math" and not math:
            continue
        passes = 0
        errors: list[str] = []
        verdicts = []
        undecided = False
        decided: dict[int, Verdict] = {}  # by id() of a shared Page: a test decides once per text
        for name, page in zip(files, pages, strict=True):
            if page is None:
                errors.append(f"error reading {name}: {unreadable[name]}")
                verdicts.append({"file": name, "passed": False, "detail": unreadable[name]})
                continue
            try:
                verdict = decided.get(id(page))
                if verdict is None:
                    verdict = (run_math(check, page, batch=True) if check.type == "math" else
                               check.run(page))  # fmt: skip
                    decided[id(page)] = verdict
            except CheckError as error:
                errors.append(f"test {check.id} on {name}: {error}")
                verdicts.append({"file": name, "passed": False, "detail": str(error)})
                continue
            except NeedsLayout as need:
                if need.pending is not None:  # decided after every page, in one browser run
                    formula, hyps = need.pending
                    verdicts.append({"file": name, "passed": False, "detail": "",
                                     "pending": [formula, hyps]})  # fmt: skip
                    continue
                undecided = True
                detail = "needs KaTeX's layout (a browser): not run"
                verdicts.append({"file": name, "passed": False, "detail": detail})
                continue
            passes += verdict.passed
            entry: dict[str, Any] = {"file": name, "passed": verdict.passed,
                                     "detail": verdict.detail}  # fmt: skip
            if verdict.closest is not None:
                entry["closest"] = [verdict.closest[0], verdict.closest[1][:300]]
            verdicts.append(entry)
        results[check.id] = {"passes": passes, "repeats": len(files), "errors": errors,
                             "verdicts": verdicts}  # fmt: skip
        if undecided:
            results[check.id]["not_run"] = True
    return {"tests": results, "unreadable": unreadable}


def summarise_pages(
    suite: Suite,
    records: Mapping[tuple[str, int], Mapping[str, Any]],
    errors: list[str],
    *,
    compat: bool,
    not_run: Sequence[str],
) -> dict[str, Any]:
    """The OUT document from the pages' records: ``tests``, ``groups``, ``overall``, ``types``
    (and ``failed``/``errors`` when the harness marks the candidate failed, in compat)."""
    tests: dict[str, dict[str, Any]] = {}
    types: dict[str, list[float]] = {}
    skipped = set(not_run)
    for check in suite.checks:
        if check.id in skipped:
            continue
        record = records.get((check.pdf, check.page))
        result = None if record is None else record["tests"].get(check.id)
        if result is None:
            fraction = 0.0
        else:
            errors.extend(result["errors"])
            repeats = result["repeats"]
            fraction = result["passes"] / repeats if repeats > 0 else 0.0
        tests[check.id] = {"fraction": fraction, "passed": fraction > 0.5}
        types.setdefault(check.type, []).append(fraction)
    failed = compat and bool(errors)
    totals: dict[str, list[int]] = {}
    for check in suite.checks:
        if check.id in skipped:
            continue
        group = totals.setdefault(suite.groups[check.id], [0, 0])
        group[1] += 1
        if not failed and tests[check.id]["passed"]:
            group[0] += 1
    groups = {name: passed / total for name, (passed, total) in totals.items()}
    document: dict[str, Any] = {
        "tests": tests,
        "groups": groups,
        "overall": sum(groups.values()) / len(groups) if groups else 0.0,
        "types": {t: sum(v) / len(v) for t, v in sorted(types.items())},
    }
    if failed:
        document["failed"] = True
        document["errors"] = list(errors)
    return document


def early_failure(suite: Suite, errors: list[str], not_run: Sequence[str]) -> dict[str, Any]:
    """The harness's answer when a PDF has no candidate file at all: no test is run, every
    group scores 0."""
    skipped = set(not_run)
    names: dict[str, None] = {}
    for check in suite.checks:
        if check.id not in skipped:
            names.setdefault(suite.groups[check.id], None)
    return {"tests": {}, "groups": dict.fromkeys(names, 0.0), "overall": 0.0, "types": {},
            "failed": True, "errors": errors}  # fmt: skip
