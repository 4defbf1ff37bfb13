"""Every command writes the bytes it wrote before the kind-registry refactoring (cases.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import CASES, COMPARE_CASES, EXPECTED, Case, run_case


@pytest.mark.parametrize("case", [*CASES, *COMPARE_CASES], ids=lambda c: c.name)
def test_output_bytes_unchanged(case: Case, tmp_path: Path) -> None:
    expected_dir = EXPECTED / case.name
    expected = {
        str(p.relative_to(expected_dir)): p.read_bytes()
        for p in sorted(expected_dir.rglob("*"))
        if p.is_file()
    }
    assert expected, f"no recorded output for {case.name}: run tests/golden/record.py"
    found = run_case(case, tmp_path / case.name, EXPECTED)
    assert sorted(found) == sorted(expected)
    for name, data in expected.items():
        assert found[name] == data, f"{case.name}/{name} differs from the recorded output"
