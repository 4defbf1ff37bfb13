"""The demo scores the bundled PubTabNet samples with the reference's numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from table_helpers import sample_pairs

from parsescore.table.demo import run_demo


def test_run_demo(tmp_path: Path, sample_reference: dict[str, tuple[float, float]]) -> None:
    demo = run_demo(tmp_path / "table")
    section = demo.section
    assert [r.kind for r in demo.results] and all(r.items for r in demo.results)
    assert section.startswith("## Table")
    doc = json.loads((tmp_path / "table" / "scores.json").read_text())
    pairs = sample_pairs()
    assert set(doc["scores"]) == set(pairs)
    name = "PMC4445578_009_01.png"
    assert doc["scores"][name] == pytest.approx(sample_reference[name][0], abs=1e-12)
    assert f"{doc['mean']:.4f}" in section
    assert (tmp_path / "table" / "tables.md").read_text().count("\n| PMC") == 20
