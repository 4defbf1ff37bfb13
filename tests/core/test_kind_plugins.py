"""A kind installed from another package through the entry-point group ``parsescore.kinds``
runs end to end — CLI (its command built from its declared options), ``evaluate``, ``compare``,
``report`` — in a fresh process, as a user who ``pip install``-ed it would run it; a broken
plugin is left out with a warning, never the end of parsescore."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PLUGINS = Path(__file__).resolve().parents[1] / "plugins"


def _install(site: Path, entry_points: str, name: str = "parsescore-textkind") -> None:
    """What an installer leaves in site-packages: the package and its ``.dist-info`` (the
    metadata importlib.metadata reads entry points from)."""
    shutil.copytree(
        PLUGINS / "parsescore_textkind",
        site / "parsescore_textkind",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    info = site / f"{name.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def _run(site: Path, *args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"PYTHONPATH": str(site), "COLUMNS": "120"}
    return subprocess.run(
        [sys.executable, *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=300,
        check=False,
    )


@pytest.fixture
def texts(tmp_path: Path) -> Path:
    for folder, samples in {
        "truth": ["Hello world", "parsescore", "abc"],
        "good": ["hello world", "parsescore", "abd"],
        "bad": ["hallo wrld", "parse", "xyz"],
    }.items():
        (tmp_path / folder).mkdir()
        for stem, text in zip("abc", samples, strict=True):
            (tmp_path / folder / f"{stem}.txt").write_text(text, encoding="utf-8")
    return tmp_path


def test_a_kind_from_an_entry_point_runs_end_to_end(tmp_path: Path, texts: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _install(site, "[parsescore.kinds]\ntext = parsescore_textkind:KIND\n")
    ps = ("-m", "parsescore")

    run = _run(site, *ps, "--help", cwd=texts)
    assert run.returncode == 0, run.stderr
    assert "text " in run.stdout and "Character error rate" in run.stdout

    # its command: the flags come from its options model
    run = _run(site, *ps, "text", "--help", cwd=texts)
    assert run.returncode == 0, run.stderr
    for flag in ("--truth", "--pred", "--ignore-case", "--name", "--out", "--result", "--csv"):
        assert flag in run.stdout, flag

    run = _run(
        site, *ps, "text", "--truth", "truth", "--pred", "bad", "--out", "bad.json",
        "--result", "bad.env.json", "--name", "model_b", cwd=texts,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "CER" in run.stdout and "(pooled)" in run.stdout
    envelope = json.loads((texts / "bad.env.json").read_text())
    assert envelope["kind"] == "text" and envelope["system"] == "model_b"
    assert envelope["options"] == {"ignore_case": False}
    assert envelope["items"][0]["counts"] == {"edits": 3, "chars": 11}
    edits = sum(item["counts"]["edits"] for item in envelope["items"])
    chars = sum(item["counts"]["chars"] for item in envelope["items"])
    assert envelope["totals"]["cer"] == edits / chars  # the declared ratio of summed counts
    assert envelope["totals"]["files"] == 3

    # a wrong flag value is a usage error naming the flag, not a traceback
    run = _run(site, *ps, "text", "--truth", "truth", "--pred", "bad", "--name", cwd=texts)
    assert run.returncode == 2 and run.stderr.startswith("error:")

    # the library call, with its checked options
    code = (
        "import json, parsescore\n"
        "r = parsescore.evaluate('text', 'truth', 'good', ignore_case=True)\n"
        "print(json.dumps([r.totals, r.options]))\n"
        "try:\n"
        "    parsescore.evaluate('text', 'truth', 'good', ignore_case='yes')\n"
        "except parsescore.InputError as exc:\n"
        "    print(exc)\n"
    )
    run = _run(site, "-c", code, cwd=texts)
    assert run.returncode == 0, run.stderr
    first, second = run.stdout.splitlines()
    totals, options = json.loads(first)
    assert totals["cer"] == 1 / 24 and options == {"ignore_case": True}
    assert second == "text: option 'ignore_case' must be true or false, got 'yes'"

    # compare and report take its results like any kind's
    assert _run(site, *ps, "text", "--truth", "truth", "--pred", "good", "--out", "good.json",
                cwd=texts).returncode == 0  # fmt: skip
    run = _run(site, *ps, "compare", "good.json", "bad.json", "--resamples", "200",
               "--permutations", "200", cwd=texts)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "cer ↓" in run.stdout
    run = _run(site, *ps, "report", "good.json", "bad.env.json", "--out", "report",
               "--resamples", "200", "--permutations", "200", cwd=texts)  # fmt: skip
    assert run.returncode == 0, run.stderr
    page = (texts / "report" / "index.html").read_text()
    assert 'data-kind="text"' in page and 'class="text-kind"' in page


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ("text = parsescore_nowhere:KIND", "cannot be imported (ModuleNotFoundError"),
        ("text = parsescore_textkind:character_error_rate", "is function, not a parsescore Kind"),
        ("table = parsescore_textkind:KIND_AS_TABLE", "cannot be imported"),
    ],
)
def test_a_broken_plugin_is_left_out_with_a_warning(
    tmp_path: Path, entry: str, problem: str
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _install(site, f"[parsescore.kinds]\n{entry}\n")
    run = _run(site, "-m", "parsescore", "--help", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert problem in run.stderr and "it is left out" in run.stderr
    assert "table " in run.stdout and "flowchart " in run.stdout


def test_a_plugin_cannot_take_a_builtin_kind_name(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    _install(site, "[parsescore.kinds]\ntable = parsescore_textkind.as_table:KIND\n")
    (site / "parsescore_textkind" / "as_table.py").write_text(
        "import dataclasses\nfrom parsescore_textkind import KIND as TEXT\n"
        "KIND = dataclasses.replace(TEXT, name='table')\n",
        encoding="utf-8",
    )
    run = _run(site, "-m", "parsescore", "--help", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "names the kind 'table', which is already registered" in run.stderr
    # a built-in kind's command: untouched, and built without reading the plugins at all
    run = _run(site, "-m", "parsescore", "table", "--help", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "--structure-only" in run.stdout and run.stderr == ""
