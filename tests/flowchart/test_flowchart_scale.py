"""``parsescore flowchart`` at scale: --jobs, --dask-scheduler, --cache and --quiet.

The output file must be byte-identical whatever the backend or the cache, and identical to
``ParsingBenchmark`` used directly (no runner); the cache rescores only changed flowcharts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import parsescore
from cli_helpers import Cli
from parsescore.core.files import dump_json
from parsescore.flowchart import ParsingBenchmark
from parsescore.flowchart.result import to_result
from parsescore.shared.coverage import Coverage

BUNDLED = Path(parsescore.__file__).parent / "data" / "flowchart"
PARTS = ("nodes", "labels", "flow", "additional_texts")
COPIES = 4


def _dataset(root: Path) -> tuple[Path, Path, int]:
    """The bundled flowcharts, each copied four times with an edited first predicted node."""
    truth, pred = root / "ground-truth", root / "predictions"
    stems = sorted(p.stem for p in (BUNDLED / "predictions").glob("*.json"))
    for part in PARTS:
        (truth / part).mkdir(parents=True)
    pred.mkdir(parents=True)
    for stem in stems:
        for copy in range(COPIES):
            name = f"{stem}_c{copy}"
            for part in PARTS:
                source = BUNDLED / "ground-truth" / part / f"{stem}.json"
                (truth / part / f"{name}.json").write_bytes(source.read_bytes())
            doc = json.loads((BUNDLED / "predictions" / f"{stem}.json").read_text("utf-8"))
            if copy:
                doc["nodes"][0]["text"] += f" (copy {copy})"
            (pred / f"{name}.json").write_text(json.dumps(doc), encoding="utf-8")
    return truth, pred, len(stems) * COPIES


def _run(args: list[str], cli: Cli) -> tuple[str, str]:
    result = cli("flowchart", *args)
    assert result.code == 0, result.err
    return result.out, result.err


def _score(truth: Path, pred: Path, out: Path, cli: Cli, *extra: str) -> tuple[bytes, str]:
    _, err = _run(["--truth", str(truth), "--pred", str(pred), "--out", str(out), *extra], cli)
    return out.read_bytes(), err


def test_jobs_and_dask_match_the_benchmark_used_directly(
    tmp_path: Path, scheduler: str, cli: Cli
) -> None:
    truth, pred, n = _dataset(tmp_path / "data")
    serial, _ = _score(truth, pred, tmp_path / "j1.json", cli, "--jobs", "1")
    two, _ = _score(truth, pred, tmp_path / "j2.json", cli, "--jobs", "2")
    on_dask, _ = _score(truth, pred, tmp_path / "dask.json", cli, "--dask-scheduler", scheduler)
    assert two == serial
    assert on_dask == serial

    bench = ParsingBenchmark(
        pred_diagrams_dir=pred,
        true_nodes_dir=truth / "nodes",
        true_labels_dir=truth / "labels",
        true_flow_dir=truth / "flow",
        true_additional_texts_dir=truth / "additional_texts",
        expected_num_diagrams=n,
        show_progress=False,
    )
    direct = to_result(
        bench,
        inputs={"truth": str(truth), "pred": [str(pred)]},
        options={"distance": "normalised", "allow_missing": False, "expected_num_diagrams": n},
        name="direct",
        coverage=Coverage(n),  # every answer present and readable
    ).native
    assert dump_json(direct).encode("utf-8") == serial


def test_cache_rescores_only_changed_flowcharts(tmp_path: Path, cli: Cli) -> None:
    truth, pred, n = _dataset(tmp_path / "data")
    cache = tmp_path / "cache"
    first, err = _score(truth, pred, tmp_path / "a.json", cli, "--cache", str(cache))
    assert f"cache: 0 of {n} flowchart items reused, {n} scored" in err
    again, err = _score(truth, pred, tmp_path / "b.json", cli, "--cache", str(cache))
    assert f"cache: {n} of {n} flowchart items reused, 0 scored" in err
    assert again == first

    for path in sorted(pred.glob("*_c2.json"))[:2]:
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["nodes"][-1]["text"] = "something else entirely"
        path.write_text(json.dumps(doc), encoding="utf-8")
    cached, err = _score(
        truth, pred, tmp_path / "c.json", cli, "--cache", str(cache), "--jobs", "2"
    )
    assert f"cache: {n - 2} of {n} flowchart items reused, 2 scored" in err
    fresh, _ = _score(truth, pred, tmp_path / "d.json", cli)
    assert cached == fresh
    assert cached != first

    # Every entry broken: each is ignored, rescored and rewritten; the output is unchanged.
    for entry in cache.glob("*/*.json"):
        entry.write_text("{broken", encoding="utf-8")
    repaired, err = _score(truth, pred, tmp_path / "e.json", cli, "--cache", str(cache))
    assert f"cache: 0 of {n} flowchart items reused, {n} scored, {n} unreadable entries" in err
    assert repaired == fresh

    _, err = _score(
        truth, pred, tmp_path / "f.json", cli, "--cache", str(cache), "--distance", "raw"
    )
    assert f"cache: 0 of {n} flowchart items reused, {n} scored" in err


def test_quiet_prints_no_progress(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    truth, pred, _ = _dataset(tmp_path / "data")
    args = ["--truth", str(truth), "--pred", str(pred)]
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    _, err = _run(args, cli)
    assert "Matching flowcharts" in err
    _, err = _run([*args, "--quiet"], cli)
    assert err == ""
