"""Library first: ``parsescore.evaluate`` is what every dataset command runs. Its result equals
the command's --out, --result and --csv; the result built from the kind's own objects equals
the one read back from --out; and truth comes before prediction in every public function."""

from __future__ import annotations

import csv
import importlib
import inspect
import io
import json
import math
import pkgutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import parsescore
from parsescore.core.results import load_result, results_from_json

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "parsescore" / "data"
GRAPH = DATA / "graph"

#: (kind, truth, pred, evaluate options, the same as CLI arguments)
CASES: list[tuple[str, Path, Path, dict[str, Any], list[str]]] = [
    (
        "flowchart",
        DATA / "flowchart" / "ground-truth",
        DATA / "flowchart" / "predictions",
        {"distance": "raw", "quiet": True},
        ["--distance", "raw", "--quiet"],
    ),
    (
        "table",
        DATA / "table" / "pubtabnet_samples" / "sample_gt.json",
        DATA / "table" / "pubtabnet_samples" / "sample_pred.json",
        {"structure_only": True, "grits_lcs": "exact", "quiet": True},
        ["--structure-only", "--grits-lcs", "exact", "--quiet"],
    ),
    (
        "sequence",
        DATA / "sequence" / "truth",
        DATA / "sequence" / "model_b",
        {"threshold": 0.3, "quiet": True},
        ["--threshold", "0.3", "--quiet"],
    ),
    (
        "graph",
        GRAPH / "truth.json",
        GRAPH / "graph.json",
        {"template": f"{GRAPH / 'library_template.py'}:Library", "source": GRAPH / "source.md"},
        [
            "--template",
            f"{GRAPH / 'library_template.py'}:Library",
            "--source",
            f"{GRAPH}/source.md",
        ],
    ),
]
IDS = [case[0] for case in CASES]


def _argv(kind: str, truth: Path, pred: Path, extra: list[str], out: Path) -> list[str]:
    outputs = [
        "--out",
        out / "out.json",
        "--result",
        out / "result.json",
        "--csv",
        out / "items.csv",
    ]
    return [kind, "--truth", str(truth), "--pred", str(pred), *extra, *map(str, outputs)]


@pytest.fixture(scope="module")
def scored() -> dict[str, parsescore.Result]:
    return {
        kind: parsescore.evaluate(kind, truth, pred, **options)
        for kind, truth, pred, options, _ in CASES
    }


@pytest.mark.parametrize(("kind", "truth", "pred", "options", "extra"), CASES, ids=IDS)
def test_the_command_writes_what_evaluate_returns(
    kind, truth, pred, options, extra, scored, cli, tmp_path
) -> None:
    result = scored[kind]
    run = cli(*_argv(kind, truth, pred, extra, tmp_path))
    assert run.code == 0, run.err
    native = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert native == json.loads(json.dumps(result.native))
    envelope = load_result(tmp_path / "result.json")
    assert envelope == replace(result, name="result")
    assert (tmp_path / "items.csv").read_text(encoding="utf-8") == result.to_csv()
    for name in ("out.json", "result.json", "items.csv"):
        assert f"Wrote {tmp_path / name}" in run.out


@pytest.mark.parametrize("kind", IDS)
def test_csv_holds_the_numbers_of_out(kind, scored) -> None:
    result = scored[kind]
    (from_out,) = results_from_json(json.loads(json.dumps(result.native)))
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert [row["id"] for row in rows] == list(from_out.items)
    for row in rows:
        values = from_out.items[row["id"]]
        for metric, text in row.items():
            if metric == "id":
                continue
            if text == "":
                assert metric not in values
            else:
                assert float(text) == values[metric]  # exact: repr round-trips


@pytest.mark.parametrize("kind", IDS)
def test_the_result_built_from_objects_equals_the_one_read_from_out(kind, scored) -> None:
    """Two roads to the same numbers: the kind builds its Result from its own typed objects,
    and reads its --out back; both must agree on every metric, total and dataset fact."""
    result = scored[kind]
    (from_out,) = results_from_json(json.loads(json.dumps(result.native)))
    assert from_out.items == result.items
    assert from_out.totals == result.totals
    for item, detail in from_out.details.items():
        for key, value in detail.items():
            assert json.loads(json.dumps(result.details[item][key])) == value, (item, key)
    for key, value in from_out.dataset.items():
        assert json.loads(json.dumps(result.dataset[key])) == value, key
    assert all(math.isfinite(v) for values in result.items.values() for v in values.values())


def test_result_methods(scored, tmp_path) -> None:
    result = scored["flowchart"]
    frame = result.to_dataframe()
    assert list(frame["item"]) == list(result.items)
    assert frame.loc[0, "node_text_cost"] == next(iter(result.items.values()))["node_text_cost"]
    path = result.write(tmp_path / "env.json")
    assert load_result(path) == result and result.to_json()["kind"] == "flowchart"
    assert load_result(path, name="env") == replace(result, name="env")
    assert result.write_csv(tmp_path / "a.csv").read_text(encoding="utf-8") == result.to_csv()
    loaded = load_result(path)
    with pytest.raises(parsescore.InputError, match="holds no native flowchart document"):
        loaded.write_native(tmp_path / "native.json")


def test_evaluate_takes_lists_and_names() -> None:
    flow = DATA / "flowchart"
    result = parsescore.evaluate(
        "flowchart", flow / "ground-truth", [flow / "predictions"], name="mine", quiet=True
    )
    assert result.name == "mine" and result.inputs["pred"] == [str(flow / "predictions")]


# -- argument order -----------------------------------------------------------------------------

_TRUTH = ("truth", "true", "gt", "expected", "reference")
_PRED = ("pred", "extracted", "predicted")


def _public_callables() -> list[tuple[str, Any]]:
    found = []
    for info in pkgutil.walk_packages(parsescore.__path__, "parsescore."):
        if ".data." in info.name:
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if name.startswith("_") or getattr(obj, "__module__", None) != info.name:
                continue
            if inspect.isfunction(obj):
                found.append((f"{info.name}.{name}", obj))
            elif inspect.isclass(obj):
                found += [
                    (f"{info.name}.{name}.{attr}", value)
                    for attr, value in vars(obj).items()
                    if inspect.isfunction(value)
                    and (not attr.startswith("_") or attr in ("__init__", "__call__"))
                ]
    return found


def test_truth_comes_before_prediction_everywhere() -> None:
    checked = 0
    for name, function in _public_callables():
        params = list(inspect.signature(function).parameters)
        truth = [i for i, p in enumerate(params) if p.lower().startswith(_TRUTH)]
        pred = [i for i, p in enumerate(params) if p.lower().startswith(_PRED)]
        if not truth or not pred:
            continue
        checked += 1
        if name == "parsescore.flowchart.benchmark.ParsingBenchmark.__init__":
            assert params[1] == "pred_diagrams_dir"  # Flowde's own signature, kept as it is
            continue
        assert min(truth) < min(pred), f"{name}{inspect.signature(function)}"
    assert checked > 30


@pytest.mark.parametrize(
    "function",
    ["match_files", "evaluate_files", "evaluate_generic_files", "unmatched_files"],
)
def test_graph_file_functions_take_truth_and_pred_by_keyword(function: str) -> None:
    module = "unmatched" if function == "unmatched_files" else "api"
    target = getattr(importlib.import_module(f"parsescore.graph.{module}"), function)
    params = inspect.signature(target).parameters
    assert params["truth"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["pred"].kind is inspect.Parameter.KEYWORD_ONLY
    with pytest.raises(TypeError):
        target(GRAPH / "graph.json", GRAPH / "truth.json")


def test_graph_keywords_score_as_the_command(scored) -> None:
    from parsescore.graph.api import evaluate_files

    report = evaluate_files(
        truth=GRAPH / "truth.json",
        pred=GRAPH / "graph.json",
        template=f"{GRAPH / 'library_template.py'}:Library",
        source=GRAPH / "source.md",
    )
    assert report == scored["graph"].native


def test_every_kind_scores_truth_first() -> None:
    from parsescore.core.kinds import kinds, resolved

    for kind in kinds():
        params = list(inspect.signature(resolved(kind.evaluate)).parameters)
        assert params[:2] == ["truth", "pred"], kind.name
