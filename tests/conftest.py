"""Fixtures shared by every kind's tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def scheduler() -> Iterator[str]:
    """One 2-worker Dask process cluster for the whole run, started by the tests themselves."""
    import distributed

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
    ) as cluster:
        yield cluster.scheduler_address
