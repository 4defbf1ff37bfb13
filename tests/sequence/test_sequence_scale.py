"""``parsescore sequence`` at scale: --jobs, --dask-scheduler, --cache and --quiet.

Output files (JSON and every report file, which lists each counted difference) must be
byte-identical whatever the backend or the cache; the cache rescores only changed files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sequence_helpers import MWDI_FILES

from cli_helpers import Cli


def _edit(text: str, seed: int) -> str:
    """A small, seed-dependent edit of a script: one line dropped or changed."""
    lines = text.splitlines()
    arrows = [i for i, line in enumerate(lines) if "->" in line]
    if not arrows:
        return text
    index = arrows[seed % len(arrows)]
    if seed % 3 == 0:
        del lines[index]
    elif seed % 3 == 1:
        lines[index] = lines[index].replace("->", "-->", 1)
    else:
        lines[index] += " changed"
    return "\n".join(lines) + "\n"


def _dataset(folder: Path) -> tuple[Path, Path, Path]:
    """Truth (the 30 mwdi diagrams) and two models; model b lacks one file, has an orphan."""
    truth, model_a, model_b = folder / "truth", folder / "model_a", folder / "model_b"
    for directory in (truth, model_a, model_b):
        directory.mkdir(parents=True)
    for seed, path in enumerate(MWDI_FILES):
        text = path.read_text(encoding="utf-8")
        (truth / path.name).write_text(text, encoding="utf-8")
        (model_a / path.name).write_text(_edit(text, seed), encoding="utf-8")
        if seed != 4:
            (model_b / path.name).write_text(_edit(text, seed + 1), encoding="utf-8")
    (model_b / "orphan.puml").write_text("@startuml\nA -> B\n@enduml\n", encoding="utf-8")
    (model_b / MWDI_FILES[6].name).write_bytes(b"\x00\x01 binary")
    return truth, model_a, model_b


def _run(args: list[str], cli: Cli) -> tuple[str, str]:
    result = cli("sequence", *args)
    assert result.code == 0, result.err
    return result.out, result.err


def _score(
    data: tuple[Path, Path, Path], out: Path, cli: Cli, *extra: str
) -> tuple[dict[str, bytes], str]:
    """Run on both models; return every output file's bytes (JSON and report) and stderr."""
    truth, model_a, model_b = data
    args = ["--truth", str(truth), "--pred", str(model_a), "--pred", str(model_b)]
    _, err = _run(
        [*args, "--out", str(out / "result.json"), "--report", str(out / "report"), *extra], cli
    )
    files = {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.suffix != ".png"  # the plot image is not part of the contract
    }
    return files, err


def test_jobs_and_dask_give_byte_identical_output(tmp_path: Path, scheduler: str, cli: Cli) -> None:
    data = _dataset(tmp_path / "data")
    serial, err_serial = _score(data, tmp_path / "j1", cli, "--jobs", "1")
    two, err_two = _score(data, tmp_path / "j2", cli, "--jobs", "2")
    on_dask, err_dask = _score(data, tmp_path / "dask", cli, "--dask-scheduler", scheduler)
    assert len(serial) >= 3
    assert two == serial
    assert on_dask == serial
    assert err_two == err_serial == err_dask  # the same warnings, in the same order
    doc = json.loads(serial["result.json"])
    assert set(doc) == {"model_a", "model_b"}
    assert len(doc["model_a"]["files"]) == len(MWDI_FILES)
    assert "prediction without ground truth" in err_serial


def test_cache_rescores_only_changed_files(tmp_path: Path, cli: Cli) -> None:
    data = _dataset(tmp_path / "data")
    truth, model_a, model_b = data
    cache = tmp_path / "cache"
    n = len(MWDI_FILES)
    # The key is the content: model b reuses model a's record wherever its file is the same.
    same = sum(
        (model_b / p.name).is_file()
        and (model_b / p.name).read_bytes() == (model_a / p.name).read_bytes()
        for p in MWDI_FILES
    )
    assert 0 < same < n
    first, err = _score(data, tmp_path / "a", cli, "--cache", str(cache))
    assert f"cache: 0 of {n} sequence items reused, {n} scored" in err
    assert f"cache: {same} of {n} sequence items reused, {n - same} scored" in err
    again, err = _score(data, tmp_path / "b", cli, "--cache", str(cache))
    assert err.count(f"cache: {n} of {n} sequence items reused, 0 scored") == 2
    assert again == first

    # Change two predictions of model a (a new arrow): only those two files are scored again.
    for path in MWDI_FILES[:2]:
        text = (model_a / path.name).read_text(encoding="utf-8")
        (model_a / path.name).write_text(text.replace("@enduml", "Zed -> Zod : new\n@enduml"))
    cached, err = _score(data, tmp_path / "c", cli, "--cache", str(cache), "--jobs", "2")
    assert f"cache: {n - 2} of {n} sequence items reused, 2 scored" in err
    assert f"cache: {n} of {n} sequence items reused, 0 scored" in err
    fresh, _ = _score(data, tmp_path / "d", cli)
    assert cached == fresh
    assert cached != first

    # Another threshold is another cache.
    _, err = _score(data, tmp_path / "e", cli, "--cache", str(cache), "--threshold", "0.3")
    assert f"cache: 0 of {n} sequence items reused, {n} scored" in err
    assert truth.is_dir()


def test_corrupt_cache_entry_is_rescored(tmp_path: Path, cli: Cli) -> None:
    data = _dataset(tmp_path / "data")
    cache = tmp_path / "cache"
    first, _ = _score(data, tmp_path / "a", cli, "--cache", str(cache))
    for entry in sorted(cache.glob("*/*.json"))[:3]:
        entry.write_text("not json at all", encoding="utf-8")
    second, err = _score(data, tmp_path / "b", cli, "--cache", str(cache))
    assert err.count("unreadable entries rewritten") >= 1
    assert second == first


def test_progress_bar_only_on_a_terminal_and_never_with_quiet(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    truth, model_a, _ = _dataset(tmp_path / "data")
    args = ["--truth", str(truth), "--pred", str(model_a)]
    _, err = _run(args, cli)
    assert "scoring model_a" not in err
    monkeypatch.setenv("FORCE_COLOR", "1")
    _, err = _run(args, cli)
    assert "scoring model_a" in err
    _, err = _run([*args, "--quiet"], cli)
    assert "scoring" not in err
