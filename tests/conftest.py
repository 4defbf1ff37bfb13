"""Fixtures shared by every kind's tests."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_helpers import Cli, CliRun, run_cli

#: Packages from outside parsescore that the tests use as such (a kind from an entry point).
sys.path.insert(0, str(Path(__file__).resolve().parent / "plugins"))


@pytest.fixture(scope="session")
def scheduler() -> Iterator[str]:
    """One 2-worker Dask process cluster for the whole run, started by the tests themselves."""
    import distributed

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
    ) as cluster:
        yield cluster.scheduler_address


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """``cli(*args)`` runs ``parsescore ARGS`` in-process (see ``cli_helpers.run_cli``), so
    that every test runs the CLI the same way, through ``parsescore.cli.main.main``."""

    def run(*args: str | os.PathLike[str]) -> CliRun:
        return run_cli(args, capsys)

    return run
