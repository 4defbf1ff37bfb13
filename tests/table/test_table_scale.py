"""``parsescore table`` at scale: --jobs, --dask-scheduler, --cache and --quiet.

The output file must be byte-identical whatever the backend or the cache; the cache must
rescore only the tables whose inputs changed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import Cli
from parsescore.table.synthetic import random_pair

N_TABLES = 30


def _dataset(folder: Path) -> tuple[Path, Path]:
    """30 synthetic pairs; the last truth table has no prediction (scored 0, listed)."""
    truth, pred = {}, {}
    for seed in range(N_TABLES):
        gt, guess = random_pair(seed, 3 + seed % 4, 3 + seed % 3)
        truth[f"t{seed:02d}"] = gt
        if seed != N_TABLES - 1:
            pred[f"t{seed:02d}"] = guess
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "truth.json").write_text(json.dumps(truth), encoding="utf-8")
    (folder / "pred.json").write_text(json.dumps(pred), encoding="utf-8")
    return folder / "truth.json", folder / "pred.json"


def _run(args: list[str], cli: Cli) -> tuple[str, str]:
    result = cli("table", *args)
    assert result.code == 0, result.err
    return result.out, result.err


def _score(truth: Path, pred: Path, out: Path, cli: Cli, *extra: str) -> tuple[bytes, str]:
    _, err = _run(["--truth", str(truth), "--pred", str(pred), "--out", str(out), *extra], cli)
    return out.read_bytes(), err


def test_jobs_and_dask_give_byte_identical_output(tmp_path: Path, scheduler: str, cli: Cli) -> None:
    truth, pred = _dataset(tmp_path)
    serial, _ = _score(truth, pred, tmp_path / "j1.json", cli, "--jobs", "1")
    two, _ = _score(truth, pred, tmp_path / "j2.json", cli, "--jobs", "2")
    on_dask, _ = _score(truth, pred, tmp_path / "dask.json", cli, "--dask-scheduler", scheduler)
    assert two == serial
    assert on_dask == serial
    doc = json.loads(serial)
    assert doc["n_tables"] == N_TABLES
    assert doc["missing"] == [f"t{N_TABLES - 1:02d}"]
    assert 0 < doc["mean"] < 1


def test_cache_rescores_only_changed_tables(tmp_path: Path, cli: Cli) -> None:
    truth, pred = _dataset(tmp_path / "data")
    cache = tmp_path / "cache"
    first, err = _score(truth, pred, tmp_path / "a.json", cli, "--cache", str(cache))
    assert f"cache: 0 of {N_TABLES} table items reused, {N_TABLES} scored" in err
    again, err = _score(truth, pred, tmp_path / "b.json", cli, "--cache", str(cache))
    assert f"cache: {N_TABLES} of {N_TABLES} table items reused, 0 scored" in err
    assert again == first

    # Change two predictions and add the missing one: exactly three tables are rescored.
    predictions = json.loads(pred.read_text(encoding="utf-8"))
    predictions["t03"] = predictions["t04"]
    predictions["t07"] = "<html><body><table><tr><td>x</td></tr></table></body></html>"
    predictions[f"t{N_TABLES - 1:02d}"] = predictions["t01"]
    pred.write_text(json.dumps(predictions), encoding="utf-8")
    cached, err = _score(
        truth, pred, tmp_path / "c.json", cli, "--cache", str(cache), "--jobs", "2"
    )
    assert f"cache: {N_TABLES - 3} of {N_TABLES} table items reused, 3 scored" in err
    fresh, _ = _score(truth, pred, tmp_path / "d.json", cli)
    assert cached == fresh
    assert cached != first

    # Other options are another cache: nothing is reused for TEDS with all_descendants.
    _, err = _score(
        truth,
        pred,
        tmp_path / "e.json",
        cli,
        "--cache",
        str(cache),
        "--denominator",
        "all_descendants",
    )
    assert f"cache: 0 of {N_TABLES} table items reused" in err


def test_corrupt_cache_entry_is_rescored(tmp_path: Path, cli: Cli) -> None:
    truth, pred = _dataset(tmp_path / "data")
    cache = tmp_path / "cache"
    first, _ = _score(truth, pred, tmp_path / "a.json", cli, "--cache", str(cache))
    entry = sorted(cache.glob("*/*.json"))[0]
    entry.write_text('{"format": 1, "key": "trunc', encoding="utf-8")
    second, err = _score(truth, pred, tmp_path / "b.json", cli, "--cache", str(cache))
    assert f"cache: {N_TABLES - 1} of {N_TABLES} table items reused, 1 scored" in err
    assert "1 unreadable entries rewritten" in err
    assert second == first
    assert json.loads(entry.read_text(encoding="utf-8"))["record"]["name"].startswith("t")


def test_progress_bar_only_on_a_terminal_and_never_with_quiet(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    truth, pred = _dataset(tmp_path)
    missing = f"warning: 1 of {N_TABLES} tables have no answer (scored as empty): t29\n"
    _, err = _run(["--truth", str(truth), "--pred", str(pred)], cli)
    assert err == missing  # stderr is not a terminal here: no bar
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich now treats stderr as a terminal
    _, err = _run(["--truth", str(truth), "--pred", str(pred)], cli)
    assert "tables" in err.replace("tables have no answer", "")
    monkeypatch.delenv("FORCE_COLOR")
    _, err = _run(["--truth", str(truth), "--pred", str(pred), "--quiet"], cli)
    assert err == missing


def test_missing_dask_extra_is_a_one_line_error(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    truth, pred = _dataset(tmp_path)
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = cli("table", "--truth", truth, "--pred", pred, "--dask-scheduler", "x:1")
    err = result.err
    assert result.code == 2
    assert "--dask-scheduler needs the dask extra" in err
    assert "Traceback" not in err


def test_bad_html_gives_the_same_outcome_on_every_backend(
    tmp_path: Path, scheduler: str, cli: Cli
) -> None:
    """Wherever it was scored: a bad prediction fails its own item, with the same output as a
    serial run; the first bad truth table stops the run with the serial run's error."""
    truth, pred = _dataset(tmp_path)
    predictions = json.loads(pred.read_text(encoding="utf-8"))
    for bad in ("t05", "t20"):  # read, but refused when scored
        predictions[bad] = predictions[bad].replace("<td>", '<td colspan="x">', 1)
    pred.write_text(json.dumps(predictions), encoding="utf-8")
    backends = (["--jobs", "1"], ["--jobs", "2"], ["--dask-scheduler", scheduler])
    outputs = []
    for number, backend in enumerate(backends):
        out = tmp_path / f"out{number}.json"
        result = cli("table", "--truth", truth, "--pred", pred, "--quiet", "--out", out, *backend)
        assert result.code == 0, result.err
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]
    assert sorted(json.loads(outputs[0])["unreadable"]) == ["t05", "t20"]
    truths = json.loads(truth.read_text(encoding="utf-8"))
    truths["t05"] = " "
    truths["t20"] = " "
    truth.write_text(json.dumps(truths), encoding="utf-8")
    errors = []
    for backend in backends:
        result = cli("table", "--truth", truth, "--pred", pred, "--quiet", *backend)
        assert result.code == 2
        errors.append(result.err)
    assert errors[0] == errors[1] == errors[2]
    assert "truth.json (key 't05'): bad HTML: Document is empty" in errors[0]
