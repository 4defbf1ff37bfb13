"""olmOCR-bench parity: the compat profile's OUT document against the verdicts olmOCR-bench's own
harness gave on the same cases (``golden/``, recorded by ``record_goldens.py``), test by test, per
file, per type and overall (math tests are not in these cases: README.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import parsescore

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from olmocr_cases import CASES, write_cases  # noqa: E402

PAIRS = [(case, candidate) for case, spec in CASES.items() for candidate in spec["candidates"]]


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("olmocr_cases")
    write_cases(root)
    return root


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
    assert set(got["tests"]) == set(want["tests"])
    for test_id, verdict in want["tests"].items():
        mine = got["tests"][test_id]
        assert mine["passed"] == verdict["passed"], test_id
        assert mine["fraction"] == pytest.approx(verdict["fraction"], abs=1e-9), test_id
    assert got["groups"].keys() == want["groups"].keys()
    for name, value in want["groups"].items():
        assert got["groups"][name] == pytest.approx(value, abs=1e-9), name
    assert got["overall"] == pytest.approx(want["overall"], abs=1e-9)
    assert got["types"].keys() == want["types"].keys()
    for name, value in want["types"].items():
        assert got["types"][name] == pytest.approx(value, abs=1e-9), name


def test_goldens_cover_every_type_but_math() -> None:
    seen = {t["type"] for spec in CASES.values() for tests in spec["tests"].values()
            for t in tests}  # fmt: skip
    assert seen == {"present", "absent", "order", "table", "baseline", "format", "footnote"}
    verdicts = [v["passed"] for case, cand in PAIRS for v in _golden(case, cand)["tests"].values()]
    assert any(verdicts) and not all(verdicts)
