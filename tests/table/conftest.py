"""Session fixtures for the table tests (helpers live in ``table_helpers``)."""

from __future__ import annotations

import pytest
from table_helpers import reference_score, sample_pairs


@pytest.fixture(scope="session")
def samples() -> dict[str, tuple[str, str]]:
    return sample_pairs()


@pytest.fixture(scope="session")
def sample_reference(samples: dict[str, tuple[str, str]]) -> dict[str, tuple[float, float]]:
    """The reference's (TEDS, TEDS-S) on each sample pair, computed once per session."""
    return {
        name: (reference_score(gt, pred), reference_score(gt, pred, True))
        for name, (gt, pred) in samples.items()
    }
