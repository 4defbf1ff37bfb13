"""olmOCR-bench parity: the compat profile's OUT document against the verdicts olmOCR-bench's own
harness gave on the same cases (``golden/``, recorded by ``record_olmocr_goldens.py``), test by
test, per file, per type and overall (math through node's KaTeX and, for the layout, Debian's
Chromium; a math test that needs a browser where none is would be not run)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import parsescore
from parsescore.document.olmocr.maths import KATEX_DIR_ENV

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from katex_ref import katex_dir  # noqa: E402
from olmocr_cases import CASES, write_cases  # noqa: E402

PAIRS = [(case, candidate) for case, spec in CASES.items() for candidate in spec["candidates"]]


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The cases written out, with KaTeX for the math tests (node's katex package)."""
    root = tmp_path_factory.mktemp("olmocr_cases")
    write_cases(root)
    before = os.environ.get(KATEX_DIR_ENV)
    os.environ[KATEX_DIR_ENV] = str(katex_dir())
    yield root
    if before is None:
        del os.environ[KATEX_DIR_ENV]
    else:
        os.environ[KATEX_DIR_ENV] = before


def _golden(case: str, candidate: str) -> dict[str, Any]:
    path = HERE / "golden" / f"{case}__{candidate}.json"
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.mark.parametrize(("case", "candidate"), PAIRS)
def test_compat_matches_harness(cases: Path, case: str, candidate: str) -> None:
    want = _golden(case, candidate)
    got = parsescore.evaluate("document", cases / case, cases / case / candidate,
                              truth_format="olmocr-bench", quiet=True).native  # fmt: skip
    assert got is not None
    assert bool(got.get("failed")) == want["failed"]
    assert (len(got.get("errors", [])) > 0) == (want["errors"] > 0)
    # math tests whose verdict needs KaTeX's layout (a browser) are reported as not run
    not_run = set(got.get("not_run", {}).get("math", []))
    assert not_run <= {t for t in want["tests"] if t.startswith("m_")}
    assert set(got["tests"]) == set(want["tests"]) - not_run
    for test_id, verdict in want["tests"].items():
        if test_id in not_run:
            continue
        mine = got["tests"][test_id]
        assert mine["passed"] == verdict["passed"], test_id
        assert mine["fraction"] == pytest.approx(verdict["fraction"], abs=1e-9), test_id
    if not_run:
        return
    assert got["groups"].keys() == want["groups"].keys()
    for name, value in want["groups"].items():
        assert got["groups"][name] == pytest.approx(value, abs=1e-9), name
    assert got["overall"] == pytest.approx(want["overall"], abs=1e-9)
    assert got["types"].keys() == want["types"].keys()
    for name, value in want["types"].items():
        assert got["types"][name] == pytest.approx(value, abs=1e-9), name


def test_every_math_test_decided(cases: Path) -> None:
    """With node's KaTeX and Debian's Chromium (for the layout comparison, which three tests of
    the cases need) every math test is decided: none is reported as not run."""
    for candidate in CASES["math"]["candidates"]:
        native = parsescore.evaluate("document", cases / "math", cases / "math" / candidate,
                                     truth_format="olmocr-bench", quiet=True).native  # fmt: skip
        assert native is not None and "not_run" not in native, candidate


def test_goldens_cover_every_type() -> None:
    seen = {t["type"] for spec in CASES.values() for tests in spec["tests"].values()
            for t in tests}  # fmt: skip
    assert seen == {"present", "absent", "order", "table", "baseline", "format", "footnote",
                    "math"}
    verdicts = [v["passed"] for case, cand in PAIRS for v in _golden(case, cand)["tests"].values()]
    assert any(verdicts) and not all(verdicts)
