"""``parsescore grits`` at scale: --jobs, --dask-scheduler, --cache give the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import Cli

DATA = Path(__file__).parent / "data" / "grits" / "grits_10.json"


def _dataset(folder: Path) -> tuple[Path, Path]:
    """The 10 table-transformer cases as truth/prediction files; the last one unpredicted."""
    cases = json.loads(DATA.read_text(encoding="utf-8"))
    truth = {case["id"]: case["true_cells"] for case in cases}
    pred = {case["id"]: case["pred_cells"] for case in cases[:-1]}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "truth.json").write_text(json.dumps(truth), encoding="utf-8")
    (folder / "pred.json").write_text(json.dumps(pred), encoding="utf-8")
    return folder / "truth.json", folder / "pred.json"


def _score(truth: Path, pred: Path, out: Path, cli: Cli, *extra: str) -> tuple[bytes, str]:
    result = cli("grits", "--truth", truth, "--pred", pred, "--out", out, *extra)
    assert result.code == 0, result.err
    return out.read_bytes(), result.err


def test_grits_jobs_dask_and_cache_give_byte_identical_output(
    tmp_path: Path, scheduler: str, cli: Cli
) -> None:
    truth, pred = _dataset(tmp_path / "data")
    serial, _ = _score(truth, pred, tmp_path / "j1.json", cli, "--jobs", "1")
    two, _ = _score(truth, pred, tmp_path / "j2.json", cli, "--jobs", "2")
    on_dask, _ = _score(truth, pred, tmp_path / "dask.json", cli, "--dask-scheduler", scheduler)
    assert two == serial and on_dask == serial
    doc = json.loads(serial)
    cases = json.loads(DATA.read_text(encoding="utf-8"))
    for case in cases[:-1]:  # the reference's own numbers, whatever the backend
        assert doc["metrics"]["GriTS-Con"]["scores"][case["id"]] == case["grits_con"]
    assert doc["missing"] == [cases[-1]["id"]]

    cache = tmp_path / "cache"
    first, err = _score(truth, pred, tmp_path / "c1.json", cli, "--cache", str(cache))
    assert "cache: 0 of 9 grits items reused, 9 scored" in err
    predictions = json.loads(pred.read_text(encoding="utf-8"))
    first_id = cases[0]["id"]
    predictions[first_id] = predictions[first_id][:-1]  # drop one predicted cell
    pred.write_text(json.dumps(predictions), encoding="utf-8")
    changed, err = _score(truth, pred, tmp_path / "c2.json", cli, "--cache", str(cache))
    assert "cache: 8 of 9 grits items reused, 1 scored" in err
    fresh, _ = _score(truth, pred, tmp_path / "c3.json", cli)
    assert changed == fresh and changed != first
