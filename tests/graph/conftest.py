"""Shared fixtures of the graph tests: the reference-produced data folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def reference_rules() -> dict[str, Any]:
    return json.loads((DATA / "reference_rules.json").read_text(encoding="utf-8"))


@pytest.fixture
def template_path(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Make the fixture templates importable as dotted paths, as the reference runs saw them."""
    monkeypatch.syspath_prepend(str(DATA))
    return DATA
