"""``parsescore compare`` on result files written by the kinds' own commands."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from cli_helpers import Cli, CliRun, run_cli
from parsescore.core.compare import compare_results
from parsescore.core.results import load_result, system_names

DATA = Path(__file__).resolve().parents[2] / "src" / "parsescore" / "data"
SEED_EXAMPLE = Path(__file__).resolve().parents[1] / "flowchart" / "seed_example"


def assert_input_error(result: CliRun) -> None:
    """Bad input: exit status 2 and one ``error:`` line on stderr, no traceback."""
    assert result.code == 2, result.err
    assert result.err.startswith("error: ") and result.err.count("\n") == 1, result.err


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[str]]:
    """``sample_pred`` as system A; B is A with five imperfect tables corrected."""
    out = tmp_path_factory.mktemp("tables")
    samples = DATA / "table" / "pubtabnet_samples"
    truth = json.loads((samples / "sample_gt.json").read_text())
    pred = json.loads((samples / "sample_pred.json").read_text())
    truth_path = samples / "sample_gt.json"
    result = run_cli(
        [
            "table",
            "--truth",
            str(truth_path),
            "--pred",
            str(samples / "sample_pred.json"),
            "--no-grits",
            "--out",
            str(out / "model_a.json"),
        ],
        None,
    )
    assert result.code == 0, result.err
    scores_a = json.loads((out / "model_a.json").read_text())["scores"]
    fixed = sorted(name for name, score in scores_a.items() if score < 1)[:5]
    better = dict(pred) | {name: truth[name] for name in fixed}
    (out / "better_pred.json").write_text(json.dumps(better))
    result = run_cli(
        [
            "table",
            "--truth",
            str(truth_path),
            "--pred",
            str(out / "better_pred.json"),
            "--no-grits",
            "--out",
            str(out / "model_b.json"),
        ],
        None,
    )
    assert result.code == 0, result.err
    return out / "model_a.json", out / "model_b.json", fixed


@pytest.fixture(scope="module")
def flowcharts(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The seed example's prediction, and a copy of it with node 1 misread further."""
    out = tmp_path_factory.mktemp("flowcharts")
    truth = SEED_EXAMPLE / "ground-truth"
    result = run_cli(
        [
            "flowchart",
            "--truth",
            str(truth),
            "--pred",
            str(SEED_EXAMPLE / "predictions"),
            "--quiet",
            "--out",
            str(out / "seed.json"),
        ],
        None,
    )
    assert result.code == 0, result.err
    modified = out / "pred_modified"
    shutil.copytree(SEED_EXAMPLE / "predictions", modified)
    doc = json.loads((modified / "example_0.json").read_text())
    doc["nodes"][0]["text"] = "Screened (n = 99)"
    (modified / "example_0.json").write_text(json.dumps(doc))
    result = run_cli(
        [
            "flowchart",
            "--truth",
            str(truth),
            "--pred",
            str(modified),
            "--quiet",
            "--out",
            str(out / "modified.json"),
        ],
        None,
    )
    assert result.code == 0, result.err
    return out / "seed.json", out / "modified.json"


def test_table_comparison_end_to_end(
    tables: tuple[Path, Path, list[str]], tmp_path: Path, cli: Cli
) -> None:
    model_a, model_b, fixed = tables
    out = tmp_path / "comparison.json"
    result = cli("compare", model_a, model_b, "--resamples", "2000", "--out", out)
    assert result.code == 0, result.err
    doc = json.loads(out.read_text())
    assert doc["systems"] == ["model_a", "model_b"]
    assert list(doc["metrics"]) == ["TEDS", "TEDS-S", "readable"]
    assert doc["only_in"] == {"model_a": [], "model_b": []}
    a, b = load_result(model_a), load_result(model_b)
    teds = doc["metrics"]["TEDS"]
    assert teds["systems"]["model_a"]["mean"] == pytest.approx(a.totals["TEDS"], rel=1e-12)
    assert teds["systems"]["model_b"]["mean"] == pytest.approx(b.totals["TEDS"], rel=1e-12)
    (difference,) = teds["differences"]
    # B equals A except on the corrected tables, where B scores 1: every difference is <= 0.
    gains = [1 - a.items[name]["TEDS"] for name in fixed]
    assert difference["mean_difference"] == pytest.approx(-sum(gains) / 20, rel=1e-12)
    assert difference["ci_high"] <= 0 < -difference["ci_low"]
    # 20 items: 2^20 > 10000 sign vectors, so the Monte Carlo p-value with its +1 correction.
    assert 1 / 10001 <= difference["p_value"] < 0.1
    assert doc == compare_results([a, b], n_resamples=2000).to_json()
    for text in ("model_a", "model_b", "TEDS ↑", "95% CI", "model_a − model_b"):
        assert text in result.out


def test_same_bytes_every_run(
    tables: tuple[Path, Path, list[str]], tmp_path: Path, cli: Cli
) -> None:
    model_a, model_b, _ = tables
    outputs = []
    for k in range(2):
        out = tmp_path / f"c{k}.json"
        result = cli(
            "compare",
            model_a,
            model_b,
            "--metric",
            "TEDS-S",
            "--seed",
            "3",
            "--resamples",
            "500",
            "--permutations",
            "300",
            "--out",
            out,
        )
        assert result.code == 0, result.err
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    assert list(json.loads(outputs[0])["metrics"]) == ["TEDS-S"]


def test_flowchart_seed_example_and_modified_copy(
    flowcharts: tuple[Path, Path], tmp_path: Path, cli: Cli
) -> None:
    seed, modified = flowcharts
    out = tmp_path / "c.json"
    result = cli("compare", seed, modified, "--metric", "node_text_cost", "--out", out)
    assert result.code == 0, result.err
    entry = json.loads(out.read_text())["metrics"]["node_text_cost"]
    cost_seed = load_result(seed).items["example_0"]["node_text_cost"]
    cost_modified = load_result(modified).items["example_0"]["node_text_cost"]
    assert cost_modified > cost_seed
    assert entry["systems"]["seed"] == {
        "mean": cost_seed,
        "ci_low": cost_seed,
        "ci_high": cost_seed,
    }
    # One item: both sign vectors reach |d|, p = 1 exactly.
    assert entry["differences"][0]["mean_difference"] == cost_seed - cost_modified
    assert entry["differences"][0]["p_value"] == 1.0
    assert "node_text_cost ↓" in result.out


def test_only_in_from_real_flowchart_runs(tmp_path: Path, cli: Cli) -> None:
    truth = DATA / "flowchart" / "ground-truth"
    partial = tmp_path / "partial"
    shutil.copytree(DATA / "flowchart" / "predictions", partial)
    (partial / "Yu_2017_0.json").unlink()
    for name, pred in (("full", DATA / "flowchart" / "predictions"), ("partial", partial)):
        result = cli(
            "flowchart",
            "--truth",
            truth,
            "--pred",
            pred,
            "--allow-missing",
            "--quiet",
            "--out",
            tmp_path / f"{name}.json",
        )
        assert result.code == 0, result.err
    out = tmp_path / "c.json"
    result = cli(
        "compare",
        tmp_path / "full.json",
        tmp_path / "partial.json",
        "--metric",
        "flow_f1",
        "--resamples",
        "200",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    doc = json.loads(out.read_text())
    assert doc["only_in"] == {"full": ["Yu_2017_0"], "partial": []}
    assert "only in full (1, not compared): Yu_2017_0" in result.out
    full = load_result(tmp_path / "full.json")
    shared = [v["flow_f1"] for k, v in full.items.items() if k != "Yu_2017_0"]
    assert doc["metrics"]["flow_f1"]["systems"]["full"]["mean"] == pytest.approx(
        sum(shared) / len(shared), rel=1e-12
    )


def test_multi_model_sequence_file(tmp_path: Path, cli: Cli) -> None:
    seq = DATA / "sequence"
    result = cli(
        "sequence",
        "--truth",
        seq / "truth",
        "--pred",
        seq / "model_a",
        "--pred",
        seq / "model_b",
        "--out",
        tmp_path / "seq.json",
    )
    assert result.code == 0, result.err
    out = tmp_path / "c.json"
    result = cli("compare", tmp_path / "seq.json", "--metric", "error_rate", "--out", out)
    assert result.code == 0, result.err
    doc = json.loads(out.read_text())
    assert doc["systems"] == ["seq:model_a", "seq:model_b"]
    # 6 files: exact enumeration of 64 sign vectors, so p is a multiple of 1/64.
    assert (doc["metrics"]["error_rate"]["differences"][0]["p_value"] * 64).is_integer()


def test_names_option_and_clashing_stems(
    tables: tuple[Path, Path, list[str]], tmp_path: Path, cli: Cli
) -> None:
    model_a, model_b, _ = tables
    for sub, source in (("x", model_a), ("y", model_b)):
        (tmp_path / sub).mkdir()
        shutil.copy(source, tmp_path / sub / "result.json")
    paths = [tmp_path / "x" / "result.json", tmp_path / "y" / "result.json"]
    assert system_names(paths) == ["x/result", "y/result"]
    assert system_names([paths[0], paths[0]]) == ["result", "result#2"]
    nested = [Path("a/x/r.json"), Path("b/x/r.json"), Path("c/r.json"), Path("r.json")]
    assert system_names(nested) == ["a/x/r", "b/x/r", "c/r", "r"]
    out = tmp_path / "c.json"
    result = cli(
        "compare",
        *paths,
        "--name",
        "ocr",
        "--name",
        "vlm",
        "--metric",
        "TEDS",
        "--resamples",
        "100",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    assert json.loads(out.read_text())["systems"] == ["ocr", "vlm"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--metric", "GriTS-Con"], r"unknown metric 'GriTS-Con'.*known: TEDS, TEDS-S"),
        (["--resamples", "0"], "at least 1"),
        (["--seed", "-1"], "--seed must be a non-negative integer"),
        (["--name", "only-one"], "--name given 1 times for 2 result files"),
    ],
)
def test_bad_options(
    tables: tuple[Path, Path, list[str]], extra: list[str], message: str, cli: Cli
) -> None:
    model_a, model_b, _ = tables
    result = cli("compare", model_a, model_b, *extra)
    assert_input_error(result)
    assert re.search(message, result.err), result.err


def test_bad_inputs(
    tables: tuple[Path, Path, list[str]], flowcharts: tuple[Path, Path], tmp_path: Path, cli: Cli
) -> None:
    model_a, _, _ = tables
    seed, _ = flowcharts
    result = cli("compare", model_a, seed)
    assert_input_error(result)
    assert "cannot compare results of different kinds" in result.err
    assert f"{model_a} is table" in result.err and f"{seed} is flowchart" in result.err

    result = cli("compare", model_a)
    assert_input_error(result)
    assert "at least two systems" in result.err

    junk = tmp_path / "junk.json"
    junk.write_text('{"hello": "world"}')
    result = cli("compare", model_a, junk)
    assert_input_error(result)
    assert result.err.startswith(f"error: {junk}: not a parsescore result")

    result = cli("compare", model_a, tmp_path / "missing.json")
    assert_input_error(result)
    assert "file not found" in result.err
