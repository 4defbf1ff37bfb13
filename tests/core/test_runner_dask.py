"""The runner on a Dask LocalCluster (2 worker processes, started here): same records."""

from __future__ import annotations

from pathlib import Path

import pytest
from runner_helpers import calls, counted_square, fail_on_threes, square

from parsescore.core.runner import item_bytes, run_items


def test_dask_records_equal_the_serial_records(scheduler: str) -> None:
    items = list(range(500))
    serial = run_items(square, items, kind="demo", options={}, quiet=True)
    on_dask = run_items(
        square, items, kind="demo", options={}, dask_scheduler=scheduler, quiet=True
    )
    assert on_dask.records == serial.records
    assert on_dask.stats == serial.stats


def test_dask_reports_the_first_failing_item(scheduler: str) -> None:
    with pytest.raises(ValueError, match=r"^cannot score item 3$"):
        run_items(
            fail_on_threes,
            list(range(500)),
            kind="demo",
            options={},
            dask_scheduler=scheduler,
            quiet=True,
        )


def test_dask_with_cache_scores_only_the_new_items(scheduler: str, tmp_path: Path) -> None:
    counter, cache = tmp_path / "calls.txt", tmp_path / "cache"

    def run(values: list[int]) -> object:
        return run_items(
            counted_square,
            [(str(counter), v) for v in values],
            kind="demo",
            options={},
            item_input=lambda item: item_bytes(str(item[1])),
            dask_scheduler=scheduler,
            cache_dir=cache,
            quiet=True,
        )

    first = run(list(range(40)))
    assert calls(str(counter)) == list(range(40))
    counter.unlink()
    second = run([*range(40), 77])
    assert calls(str(counter)) == [77]
    assert second.records[:40] == first.records
    assert second.records[40]["item"] == 77
