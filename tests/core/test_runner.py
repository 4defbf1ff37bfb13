"""The runner: same records in the same order on every backend; the content-hash cache."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from rich.console import Console
from runner_helpers import calls, counted_square, fail_on_threes, not_a_dict, square

from parsescore.core.errors import InputError
from parsescore.core.runner import (
    DaskUnavailableError,
    ResultCache,
    item_bytes,
    run_items,
)

ITEMS = list(range(300))


def _expected(items: list[int]) -> list[dict[str, object]]:
    # What ``square`` returns, as JSON gives it back (the tuple becomes a list).
    return [{"item": i, "square": i * i, "ratio": 1 / (i + 3), "pair": [i, -i]} for i in items]


@pytest.mark.parametrize("jobs", [1, 2, 0])
def test_records_are_in_item_order_on_every_backend(jobs: int) -> None:
    run = run_items(square, ITEMS, kind="demo", options={}, jobs=jobs, quiet=True)
    assert run.records == _expected(ITEMS)
    assert (run.stats.total, run.stats.scored, run.stats.reused) == (300, 300, 0)


def test_empty_dataset() -> None:
    run = run_items(square, [], kind="demo", options={}, jobs=2, quiet=True)
    assert run.records == []
    assert run.stats.total == 0


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_first_failing_item_is_reported_whatever_the_jobs(jobs: int) -> None:
    with pytest.raises(ValueError, match=r"^cannot score item 3$"):
        run_items(fail_on_threes, ITEMS, kind="demo", options={}, jobs=jobs, quiet=True)


def test_a_scorer_must_return_a_dict() -> None:
    with pytest.raises(TypeError, match="must return a dict, got list"):
        run_items(not_a_dict, [1], kind="demo", options={}, quiet=True)


def test_negative_jobs_is_an_input_error() -> None:
    with pytest.raises(InputError, match="--jobs must be 0"):
        run_items(square, [1], kind="demo", options={}, jobs=-1)


def test_missing_dask_extra_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import now raises ImportError
    with pytest.raises(DaskUnavailableError, match=r"pip install 'parsescore\[dask\]'"):
        run_items(square, [1], kind="demo", options={}, dask_scheduler="tcp://127.0.0.1:1")


def test_item_bytes_is_unambiguous() -> None:
    assert item_bytes("ab", "c") != item_bytes("a", "bc")
    assert item_bytes(None) != item_bytes("")
    assert item_bytes("x", None) != item_bytes("x")
    assert item_bytes("é") == item_bytes("é".encode())


def test_cache_key_covers_kind_options_version_and_input(tmp_path: Path) -> None:
    def key(kind: str = "table", options: dict | None = None, version: str = "1.0") -> str:
        cache = ResultCache(tmp_path, kind=kind, options=options or {"a": 1}, version=version)
        return cache.key(b"input")

    base = key()
    assert base == key()
    assert len({base, key(kind="sequence"), key(options={"a": 2}), key(version="1.1")}) == 4
    cache = ResultCache(tmp_path, kind="table", options={"a": 1}, version="1.0")
    assert cache.key(b"input") != cache.key(b"input2")


def _cached_run(counter: Path, cache: Path, values: list[int], jobs: int = 1) -> object:
    items = [(str(counter), v) for v in values]
    return run_items(
        counted_square,
        items,
        kind="demo",
        options={"version": "test"},
        item_input=lambda item: item_bytes(str(item[1])),
        jobs=jobs,
        cache_dir=cache,
        quiet=True,
    )


@pytest.mark.parametrize("jobs", [1, 2])
def test_cache_rescores_only_new_or_changed_items(tmp_path: Path, jobs: int) -> None:
    counter, cache = tmp_path / "calls.txt", tmp_path / "cache"
    first = _cached_run(counter, cache, list(range(20)), jobs)
    assert calls(str(counter)) == list(range(20))
    assert first.records == _expected(list(range(20)))

    counter.unlink()
    again = _cached_run(counter, cache, list(range(20)), jobs)
    assert calls(str(counter)) == []
    assert again.records == first.records
    assert (again.stats.scored, again.stats.reused) == (0, 20)

    # Two items changed (5 -> 105, 7 -> 107) and one added (200).
    changed = [105 if v == 5 else 107 if v == 7 else v for v in range(20)] + [200]
    third = _cached_run(counter, cache, changed, jobs)
    assert calls(str(counter)) == [105, 107, 200]
    assert third.records == _expected(changed)
    assert (third.stats.scored, third.stats.reused) == (3, 18)


def test_corrupt_cache_entries_are_ignored_and_rewritten(tmp_path: Path) -> None:
    counter, cache = tmp_path / "calls.txt", tmp_path / "cache"
    first = _cached_run(counter, cache, list(range(6)))
    entries = sorted(cache.glob("*/*.json"))
    assert len(entries) == 6
    entries[0].write_text(entries[0].read_text()[:15])  # truncated
    entries[1].write_bytes(b"\xff\xfe not text")  # not UTF-8
    entries[2].write_text(json.dumps({"format": 1, "key": "someone else", "record": {}}))
    entries[3].write_text("[1, 2]")  # JSON, not an entry

    counter.unlink()
    second = _cached_run(counter, cache, list(range(6)))
    assert len(calls(str(counter))) == 4
    assert second.records == first.records
    assert (second.stats.scored, second.stats.reused, second.stats.corrupt) == (4, 2, 4)

    counter.unlink()
    third = _cached_run(counter, cache, list(range(6)))  # the entries were rewritten
    assert calls(str(counter)) == []
    assert third.records == first.records
    assert third.stats.corrupt == 0


def test_cache_directory_that_is_a_file(tmp_path: Path) -> None:
    path = tmp_path / "cache"
    path.write_text("not a directory")
    with pytest.raises(InputError, match="--cache must be a directory"):
        run_items(square, [1], kind="demo", options={}, cache_dir=path)


def test_cache_summary_is_printed_unless_quiet(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=200)
    run_items(square, [1, 2], kind="demo", options={}, cache_dir=tmp_path, console=console)
    run_items(square, [1, 2, 3], kind="demo", options={}, cache_dir=tmp_path, console=console)
    assert out.getvalue().splitlines() == [
        "cache: 0 of 2 demo items reused, 2 scored",
        "cache: 2 of 3 demo items reused, 1 scored",
    ]
    quiet = io.StringIO()
    console = Console(file=quiet, force_terminal=False)
    run_items(square, [1], kind="demo", options={}, cache_dir=tmp_path, console=console, quiet=True)
    assert quiet.getvalue() == ""


def _progress_output(*, terminal: bool, quiet: bool, description: str = "walking") -> str:
    out = io.StringIO()
    console = Console(file=out, force_terminal=terminal, width=100)
    run_items(
        square, ITEMS, kind="demo", options={}, console=console, quiet=quiet,
        description=description,
    )  # fmt: skip
    return out.getvalue()


def test_progress_bar_on_a_terminal_only_and_never_when_quiet() -> None:
    assert "walking" in _progress_output(terminal=True, quiet=False)
    assert _progress_output(terminal=True, quiet=True) == ""
    assert _progress_output(terminal=False, quiet=False) == ""


def test_progress_label_naming_a_folder_is_text() -> None:
    """``scoring <answers' folder>``: a folder named ``m[red]`` or ``[/x]`` is shown as named
    (rich would take the tag for a style, or stop on the unmatched close tag)."""
    shown = _progress_output(terminal=True, quiet=False, description="scoring m[red][/x]")
    assert "scoring m[red][/x]" in shown


def test_advance_callback_counts_every_item(tmp_path: Path) -> None:
    seen: list[int] = []
    run_items(square, ITEMS[:10], kind="demo", options={}, cache_dir=tmp_path, quiet=True)
    run_items(
        square,
        ITEMS[:25],
        kind="demo",
        options={},
        jobs=2,
        cache_dir=tmp_path,
        quiet=True,
        advance=seen.append,
    )
    assert sum(seen) == 25
    assert seen[0] == 10  # the cached items first, at once


def test_malformed_scheduler_address_is_an_input_error() -> None:
    with pytest.raises(
        InputError, match=r"'tcp://host' is not a scheduler address .*tcp://host:8786"
    ):
        run_items(square, [1], kind="demo", options={}, dask_scheduler="tcp://host")
