"""The CLI on the oldest and the newest typer that ``pyproject.toml`` allows.

``make test`` runs on the locked versions (``uv.lock``); a user who ``pip install``s parsescore
gets whatever the ranges allow on that day. typer has changed its objects between releases
(0.26 brought its own copy of click; 0.29 dropped ``Option.type``; before 0.18 it does not
run on today's click), so each end of the range is
installed here (into a folder put first on ``PYTHONPATH``, beside this venv's other packages)
and the same commands run under it: help everywhere, a usage error, a bad input, a real
scoring run that writes its file, and the guard that refuses to write over an input.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.version import Version

from parsescore.cli.main import build_app

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "src/parsescore/data/table/pubtabnet_samples"


def _lowest(package: str) -> str:
    """The lower bound ``pyproject.toml`` gives ``package`` (``>=X``)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for requirement in project["dependencies"]:
        match = re.fullmatch(rf"{re.escape(package)}\s*>=\s*([\w.]+)", requirement.strip())
        if match:
            return match[1]
    raise AssertionError(f"pyproject.toml gives {package} no '>=' bound")


def _install(target: Path, *requirements: str) -> None:
    """Install ``requirements`` (and what they need) into ``target`` with uv (the Makefile puts
    uv in this venv); ``--refresh`` so that "newest" means the registry's newest today."""
    uv = [sys.executable, "-m", "uv", "pip", "install", "--quiet", "--refresh"]
    done = subprocess.run(
        [*uv, "--python", sys.executable, "--target", str(target), *requirements],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"could not install {requirements}: {done.stderr[-2000:]}"


def _run(target: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(target), COLUMNS="120")
    return subprocess.run(
        [sys.executable, "-m", "parsescore", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=cwd,
    )


@pytest.fixture(scope="module", params=["oldest", "newest"])
def typer_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp(f"typer-{request.param}")
    if request.param == "oldest":
        _install(target, f"typer=={_lowest('typer')}", f"rich=={_lowest('rich')}")
    else:
        _install(target, "--upgrade", "typer", "rich")
    return target


def _versions(target: Path) -> dict[str, str]:
    code = (
        "import json, importlib.metadata as m; "
        "print(json.dumps({p: m.version(p) for p in ('typer', 'rich')}))"
    )
    env = dict(os.environ, PYTHONPATH=str(target))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    versions: dict[str, str] = json.loads(done.stdout)
    return versions


def test_the_installed_typer_is_the_one_under_test(typer_dir: Path) -> None:
    versions = _versions(typer_dir)
    names = [p.name for p in typer_dir.glob("typer-*.dist-info")]
    assert names == [f"typer-{versions['typer']}.dist-info"], names
    if typer_dir.name.startswith("typer-oldest"):
        for package in ("typer", "rich"):
            assert Version(versions[package]) == Version(_lowest(package)), versions


def test_help_of_every_command(typer_dir: Path, tmp_path: Path) -> None:
    bare = _run(typer_dir, cwd=tmp_path)
    assert bare.returncode == 0, bare.stderr
    assert bare.stdout.startswith("Usage: parsescore") and bare.stderr == ""
    for command in sorted(build_app().functions):
        run = _run(typer_dir, command, "--help", cwd=tmp_path)
        assert run.returncode == 0, (command, _versions(typer_dir), run.stderr[-2000:])
        assert run.stdout.startswith(f"Usage: parsescore {command}"), (command, run.stdout)
        assert "Traceback" not in run.stdout + run.stderr


def test_errors_are_one_line(typer_dir: Path, tmp_path: Path) -> None:
    usage = _run(typer_dir, "table", "--pred", "p.json", cwd=tmp_path)
    assert usage.returncode == 2
    assert usage.stderr.splitlines() == [
        "error: Missing option '--truth'.",
        "see: parsescore table --help",
    ]
    value = _run(typer_dir, "flowchart", "--truth", "t", "--pred", "p", "--jobs", "x", cwd=tmp_path)
    assert value.returncode == 2 and value.stderr.startswith("error: Invalid value"), value.stderr
    missing = _run(typer_dir, "table", "--truth", "nope.json", "--pred", "p.json", cwd=tmp_path)
    assert missing.returncode == 2
    assert missing.stderr.startswith("error: nope.json: file"), missing.stderr
    assert "Traceback" not in usage.stderr + value.stderr + missing.stderr


def test_a_real_run_writes_its_file_and_never_over_an_input(
    typer_dir: Path, tmp_path: Path
) -> None:
    truth, pred = SAMPLES / "sample_gt.json", SAMPLES / "sample_pred.json"
    out = tmp_path / "out.json"
    run = _run(
        typer_dir, "table", "--truth", str(truth), "--pred", str(pred), "--out", str(out),
        "--quiet", cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["n_tables"] > 0
    copy = tmp_path / "pred.json"
    copy.write_bytes(pred.read_bytes())
    refused = _run(
        typer_dir, "table", "--truth", str(truth), "--pred", str(copy), "--out", str(copy),
        cwd=tmp_path,
    )  # fmt: skip
    assert refused.returncode == 2
    assert "refusing to overwrite an input" in refused.stderr
    assert copy.read_bytes() == pred.read_bytes()
