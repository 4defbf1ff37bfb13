"""``parsescore bench``: a config of two kinds and three systems each, end to end (envelopes,
comparisons, leaderboard tables, one report grouped by dataset, the cache on a re-run); config
errors that name the key and its line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

import parsescore
from parsescore.core.bench import EXAMPLE, load_bench
from parsescore.core.errors import InputError

DATA = Path(parsescore.__file__).resolve().parent / "data"
TABLES = DATA / "table" / "pubtabnet_samples"
SEQUENCES = DATA / "sequence"


def _config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bench.toml"
    path.write_text(text, encoding="utf-8")
    return path


BENCH = f"""\
[bench]
title = "Two kinds, three systems"
resamples = 300
permutations = 300

[[dataset]]
name = "pubtabnet"
kind = "table"
truth = "{TABLES / "sample_gt.json"}"
options = {{ grits = false }}

[[dataset.system]]
name = "pred"
pred = "{TABLES / "sample_pred.json"}"

[[dataset.system]]
name = "pred-normalised"
pred = "{TABLES / "sample_pred.json"}"
options = {{ normalise = true }}

[[dataset.system]]
name = "perfect"
pred = "{TABLES / "sample_gt.json"}"

[[dataset]]
name = "sequences"
kind = "sequence"
truth = "{SEQUENCES / "truth"}"

[[dataset.system]]
name = "model_a"
pred = "{SEQUENCES / "model_a"}"

[[dataset.system]]
name = "model_a-no-colours"
pred = "{SEQUENCES / "model_a"}"
options = {{ ignore_colours = true }}

[[dataset.system]]
name = "model_b"
pred = "{SEQUENCES / "model_b"}"
"""


def test_a_benchmark_of_two_kinds_and_three_systems(tmp_path: Path, cli) -> None:
    config = _config(tmp_path, BENCH)
    out = tmp_path / "out"
    run = cli("bench", config, "--out", out, "--quiet")
    assert run.code == 0, run.err
    # every system's envelope, as the kind's own command would score it
    for dataset, systems in {
        "pubtabnet": ["pred", "pred-normalised", "perfect"],
        "sequences": ["model_a", "model_a-no-colours", "model_b"],
    }.items():
        for system in systems:
            envelope = json.loads((out / dataset / f"{system}.json").read_text())
            assert envelope["system"] == system
        comparison = json.loads((out / dataset / "comparison.json").read_text())
        assert comparison["systems"] == systems
    table = json.loads((out / "pubtabnet" / "pred.json").read_text())
    alone = parsescore.evaluate(
        "table", TABLES / "sample_gt.json", TABLES / "sample_pred.json", grits=False, quiet=True
    )
    assert table["totals"] == alone.totals
    assert json.loads((out / "pubtabnet" / "pred-normalised.json").read_text())["options"][
        "normalise"
    ]
    assert json.loads((out / "sequences" / "model_a-no-colours.json").read_text())["options"][
        "ignore_colours"
    ]
    # the leaderboard tables: one per dataset
    board = (out / "leaderboard.md").read_text()
    assert board.startswith("# Two kinds, three systems\n")
    assert "## pubtabnet (tables)" in board and "## sequences (sequence diagrams)" in board
    rows = list(csv.DictReader(io.StringIO((out / "leaderboard.csv").read_text())))
    assert [(r["dataset"], r["system"]) for r in rows] == [
        ("pubtabnet", "pred"),
        ("pubtabnet", "pred-normalised"),
        ("pubtabnet", "perfect"),
        ("sequences", "model_a"),
        ("sequences", "model_a-no-colours"),
        ("sequences", "model_b"),
    ]
    assert (out / "leaderboard.tex").read_text().count(r"\begin{tabular}") == 2
    # one report, its systems grouped by dataset
    page = (out / "report" / "index.html").read_text()
    assert "Tables — pubtabnet" in page and "Sequence diagrams — sequences" in page
    assert page.count('<section class="comparison"') == 2
    # a re-run scores from the cache: the same bytes
    cached = sorted(p.name for p in (out / "cache").rglob("*.json"))
    assert cached
    before = {p: p.read_bytes() for p in out.rglob("*.json") if "cache" not in p.parts}
    assert cli("bench", config, "--out", out, "--quiet").code == 0
    assert sorted(p.name for p in (out / "cache").rglob("*.json")) == cached
    assert {p: p.read_bytes() for p in before} == before


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            ("resamples = 300", "resamples = 300\nsamples = 3"),
            r"line 4, bench\.samples\): unknown key 'samples'",
        ),
        (('kind = "table"', 'kind = "tabel"'), r"line 8, dataset\[0\]\.kind\): unknown kind"),
        (
            ("options = { grits = false }", "options = { grits = false, denominator = 3 }"),
            r"line 10, dataset\[0\]\.options\): table: option 'denominator' must be",
        ),
        (
            ("options = { normalise = true }", "options = { normalize = true }"),
            r"line 19, dataset\[0\]\.system\[1\]\.options\): table: unknown option 'normalize'",
        ),
        (
            ('name = "perfect"', 'name = "pred"'),
            r"dataset\[0\]\.system\[2\]\.name\): system 'pred' appears twice",
        ),
        (
            (f'pred = "{SEQUENCES / "model_b"}"', 'pred = "nowhere/model_b"'),
            r"line 41, dataset\[1\]\.system\[2\]\.pred\): nowhere/model_b does not exist",
        ),
        (('name = "model_b"', 'name = "model b"'), r"'model b' is not a folder-safe name"),
        (("title = ", "title = = "), r"not valid TOML: .*line 2"),
        (
            ("options = { grits = false }", "options = { cache = 'c' }"),
            r"'cache' is set by parsescore bench",
        ),
    ],
)
def test_config_errors_name_the_key_and_its_line(
    tmp_path: Path, cli, edit: tuple[str, str], message: str
) -> None:
    config = _config(tmp_path, BENCH.replace(*edit, 1))
    with pytest.raises(InputError, match=message):
        load_bench(config)
    run = cli("bench", config, "--out", tmp_path / "out")
    assert run.code == 2 and run.err.startswith(f"error: {config}")
    assert not (tmp_path / "out").exists()  # nothing runs before the whole config is checked


def test_init_writes_a_commented_example_that_reads(tmp_path: Path, cli) -> None:
    path = tmp_path / "bench.toml"
    run = cli("bench", "--init", path)
    assert run.code == 0 and path.read_text() == EXAMPLE
    assert cli("bench", "--init", path).code == 2  # never over an existing file
    with pytest.raises(InputError, match=r"line 15, dataset\[0\]\.truth\): truth/tables.json"):
        load_bench(path)
    for folder in ("truth/sequences", "runs/model_a/tables", "runs/model_a/sequences"):
        (tmp_path / folder).mkdir(parents=True)
    for file in ("truth/tables.json", "runs/model_a/tables.json"):
        (tmp_path / file).write_text("{}")
    (tmp_path / "runs/model_b/tables").mkdir(parents=True)
    (tmp_path / "runs/model_b/sequences").mkdir(parents=True)
    bench = load_bench(path)
    assert [d.name for d in bench.datasets] == ["tables", "sequences"]
    assert bench.datasets[0].systems[1].options == {
        "structure_only": False,
        "pred_format": "markdown",
    }
