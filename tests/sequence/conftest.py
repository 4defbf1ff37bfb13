"""Shared fixtures for the sequence-diagram tests (helpers live in sequence_helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sequence_helpers import DATA


@pytest.fixture
def mwdi_dir() -> Path:
    """The 30 real mwdi diagrams copied into the tests (the project never reads /work/shared)."""
    return DATA
