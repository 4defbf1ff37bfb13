"""Run olmOCR-bench's own harness on one case folder and one candidate; print its verdicts as JSON.

Run it with the reference's Python (a venv with rapidfuzz, fuzzysearch, beautifulsoup4, lxml,
pypdf, tqdm, numpy and playwright: see README.md), never with parsescore's::

    /work/olmocr-env/bin/python tests/document/olmocr/run_olmocr_reference.py \
        OLMOCR_SRC CASE_DIR CANDIDATE

``OLMOCR_SRC`` is a folder holding the ``olmocr`` package's ``repeatdetect.py`` and ``bench/``
at commit f7cfe4c22098b154c76b6ec950d1c0a464eecf8d (``record_olmocr_goldens.py`` extracts them
from a git mirror; nothing of it is vendored). The harness's ``main()`` runs as its command line
would (``--dir CASE_DIR --candidate CANDIDATE``); its printed per-file lines give each group's
passed/total, and its ``evaluate_candidate`` (wrapped, not changed) gives the errors, the failure
messages with each test's passed/total repeats, the per-type fractions and the per-test verdicts.
Its math renderer launches Debian's Chromium instead of Playwright's download.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys


def use_debian_chromium() -> None:
    """The harness launches Playwright's own Chromium download; Debian's Chromium
    (``$OLMOCR_CHROMIUM``, default /usr/bin/chromium) is launched instead, nothing else changed."""
    import os
    import weakref

    from olmocr.bench.katex import render
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("OLMOCR_CHROMIUM", "/usr/bin/chromium")

    def start(self):  # type: ignore[no-untyped-def]
        playwright = sync_playwright().start()
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        self.p, self.browser, self._closed = playwright, browser, False
        self._finalizer = weakref.finalize(self, render._cleanup_playwright, playwright, browser)

    render._BrowserOwner.__init__ = start


def main(argv: list[str]) -> None:
    source, case, candidate = argv
    sys.path.insert(0, source)
    import types

    # report.py (the --test_report HTML page, not used here) imports the PDF renderer of
    # olmocr's pipeline: a stand-in module keeps the pipeline out of the reference's env
    report = types.ModuleType("olmocr.bench.report")
    report.generate_html_report = None  # type: ignore[attr-defined]
    sys.modules["olmocr.bench.report"] = report
    use_debian_chromium()
    from olmocr.bench import benchmark

    captured: dict[str, object] = {}
    original = benchmark.evaluate_candidate

    def wrapped(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = original(*args, **kwargs)
        captured["result"] = result
        return result

    benchmark.evaluate_candidate = wrapped
    sys.argv = ["benchmark", "--dir", case, "--candidate", candidate, "--bootstrap_samples", "20"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        benchmark.main()
    printed = out.getvalue()
    _, _, errors, failures, breakdown, _, results = captured["result"]  # type: ignore[misc]
    ratios = {}
    for line in failures:
        found = re.match(r"^Test (.+) on .+ page \d+ average pass ratio: [0-9.]+ \((\d+)/(\d+) "
                         r"repeats passed\)", line)  # fmt: skip
        assert found, line
        ratios[found.group(1)] = (int(found.group(2)), int(found.group(3)))
    tests = {}
    for pages in results.values():
        for verdicts in pages.values():
            for test, passed, explanation in verdicts:
                if test.id in ratios:
                    p, n = ratios[test.id]
                    fraction = p / n
                elif explanation == "Missing MD files":
                    fraction = 0.0
                else:
                    fraction = 1.0
                tests[test.id] = {"fraction": fraction, "passed": passed}
    groups = {}
    for line in printed.splitlines():
        found = re.match(r"^ {8}(\S.*?)\s*: [0-9.]+% \((\d+)/(\d+) tests\)$", line)
        if found:
            groups[found.group(1)] = [int(found.group(2)), int(found.group(3))]
    rates = [p / t for p, t in groups.values()]
    document = {
        "tests": tests,
        "groups": {k: p / t for k, (p, t) in groups.items()},
        "group_counts": groups,
        "overall": sum(rates) / len(rates) if rates else 0.0,
        "types": {t: sum(v) / len(v) for t, v in sorted(breakdown.items())},
        "failed": "FAILED (errors)" in printed,
        "errors": len(errors),
    }
    json.dump(document, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    sys.stdout.flush()
    # the browsers' threads and their exit-time messages (on stdout) are not waited for
    import os

    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
