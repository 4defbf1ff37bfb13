"""``parsescore flowchart`` and the flowchart demo: real runs through the console entry point."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from cli_helpers import Cli

SEED = Path(__file__).parent / "seed_example"


def test_cli_prints_summary_and_writes_every_match(tmp_path: Path, cli: Cli) -> None:
    out = tmp_path / "result.json"
    result = cli(
        "flowchart", "--truth", SEED / "ground-truth", "--pred", SEED / "predictions", "--out", out
    )
    assert result.code == 0, result.err
    printed = result.out
    assert "example_0" in printed and "1/1/1" in printed and "0.333" in printed
    written = json.loads(out.read_text())
    assert written["totals"]["node_text_cost"] == 1
    assert written["totals"]["label_cost"] == 1
    assert written["totals"]["additional_text_cost"] == 1
    assert written["totals"]["avg_flow_jaccard"] == 1 / 3
    (diagram,) = written["diagrams"]
    assert diagram["option"] == 1
    assert diagram["flow"]["missing_edges"] == [[2, 3]]
    assert diagram["flow"]["extra_edges"] == [[1, 3]]
    assert [m["pred_node"] for m in diagram["node_matches"]] == [1, 2, 3]
    assert diagram["node_matches"][1]["label_matches"][1] == {
        "match_type": "match",
        "true_index": 1,
        "pred_index": 1,
        "true_text": "26 weeks",
        "pred_text": "26 week",
        "cost": 1.0,
    }
    # deterministic: same inputs, same bytes
    again = tmp_path / "again.json"
    result = cli(
        "flowchart",
        "--truth",
        SEED / "ground-truth",
        "--pred",
        SEED / "predictions",
        "--out",
        again,
    )
    assert result.code == 0, result.err
    assert again.read_bytes().replace(b"again", b"") == out.read_bytes().replace(b"result", b"")


def test_cli_raw_distance_and_missing_predictions(tmp_path: Path, cli: Cli) -> None:
    truth = tmp_path / "gt"
    shutil.copytree(SEED / "ground-truth", truth)
    for part in ("nodes", "labels", "flow", "additional_texts"):
        shutil.copy(truth / part / "example_0.json", truth / part / "example_1.json")
    out = tmp_path / "r.json"
    args = [
        "flowchart",
        "--truth",
        str(truth),
        "--pred",
        str(SEED / "predictions"),
        "--out",
        str(out),
    ]
    run = cli(*args)  # a prediction is missing: scored as an empty one, and said so
    assert run.code == 0, run.err
    assert "1 of 2 diagrams have no answer (scored as empty): example_1" in " ".join(
        run.err.split()
    )
    assert "readable answers 0.5000; 1 missing" in run.out
    result = json.loads(out.read_text())
    assert result["missing_predictions"] == ["example_1"]
    missing = result["diagrams"][1]
    assert missing["stem"] == "example_1" and missing["readable"] is False
    assert missing["flow"]["tp"] == missing["flow"]["fp"] == 0 and missing["flow"]["f1"] == 0
    assert result["totals"]["readable"] == 0.5
    assert cli(*args, "--allow-missing", "--distance", "raw").code == 0
    result = json.loads(out.read_text())
    assert result["missing_predictions"] == ["example_1"]
    assert [d["stem"] for d in result["diagrams"]] == ["example_0"]
    assert result["options"]["distance"] == "raw"


@pytest.mark.parametrize(
    ("make_args", "fragment"),
    [
        (
            lambda t: ["--truth", str(t / "nope"), "--pred", str(SEED / "predictions")],
            "--truth folder does not exist",
        ),
        (
            lambda t: [
                "--truth",
                str(next((SEED / "predictions").glob("*.json"))),
                "--pred",
                str(t),
            ],
            "--truth should be a directory",
        ),
        (lambda t: ["--truth", str(SEED), "--pred", str(SEED / "predictions")], "lacks nodes/"),
        (
            lambda t: ["--truth", str(SEED / "ground-truth"), "--pred", str(t)],
            "no prediction .json files",
        ),
        (
            lambda t: ["--truth", str(SEED / "ground-truth"), "--pred", str(t / "bad"), "--strict"],
            "bad/example_0.json (line 1, column 2): malformed JSON",
        ),
        (
            lambda t: ["--truth", str(SEED / "ground-truth"), "--pred", str(t / "other")],
            "no answer in",
        ),
    ],
)
def test_cli_bad_input_is_one_line_error(
    tmp_path: Path, cli: Cli, make_args: Callable[[Path], list[str]], fragment: str
) -> None:
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "example_0.json").write_text("{nodes: }")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "example_9.json").write_text("{}")
    result = cli("flowchart", *make_args(tmp_path))
    assert result.code == 2
    err = result.err
    assert "Traceback" not in err
    assert fragment in " ".join(err.split())
    assert err.strip().startswith("error:")


def test_demo_writes_flowchart_result(tmp_path: Path) -> None:
    from parsescore.flowchart.demo import run_demo

    demo = run_demo(tmp_path)
    section = demo.section
    assert [r.kind for r in demo.results] and all(r.items for r in demo.results)
    result = json.loads((tmp_path / "scores.json").read_text())  # the one demo naming
    assert [d["stem"] for d in result["diagrams"]] == [
        "Stanczyk_2016_1",
        "Vander_2016_0",
        "Young_2008_0",
        "Yu_2017_0",
        "example_0",
    ]
    assert section.startswith("## Flowcharts")
    assert "| example_0 | 1 | 1 | 1 | 1 | 1/1/1 | 0.333 |" in section
