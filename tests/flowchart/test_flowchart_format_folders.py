"""Mermaid and DOT files in prediction and ground-truth folders: scored with Flowde's numbers,
``--pred-format`` / ``--truth-format``, ``edge_label_cost`` in every output, and
``predict --format``."""

from __future__ import annotations

import csv
import json
import sys
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from fc_helpers import to_dot, to_mermaid

from cli_helpers import Cli
from parsescore.core.api import evaluate
from parsescore.core.errors import InputError
from parsescore.flowchart import ParsingBenchmark

DATA = Path(str(files("parsescore") / "data" / "flowchart"))
TRUTH = DATA / "ground-truth"


def _numbers(result: Any) -> dict[str, Any]:
    return {
        d["stem"]: (
            d["option"],
            d["node_text_cost"],
            d["label_cost"],
            d["additional_text_cost"],
            {k: d["flow"][k] for k in ("tp", "fp", "fn", "precision", "recall", "f1", "jaccard")},
        )
        for d in result.native["diagrams"]
    }


@pytest.mark.parametrize(
    ("suffix", "convert", "extra"), [(".mmd", to_mermaid, 0), (".dot", to_dot, 1)]
)
def test_mermaid_and_dot_answers_score_as_the_same_json_answers(
    tmp_path: Path, suffix: str, convert: Any, extra: int
) -> None:
    """Flowde's numbers for a Mermaid/DOT answer equal those of the JSON it transcribes (the
    additional texts it can carry: none in Mermaid, one in DOT)."""
    as_format, as_json = tmp_path / "format", tmp_path / "json"
    as_format.mkdir()
    as_json.mkdir()
    for path in sorted((DATA / "predictions").glob("*.json")):
        pred = json.loads(path.read_text(encoding="utf-8"))
        pred["nodes"].sort(key=lambda n: n["node_number"])
        pred["additional_texts"] = pred["additional_texts"][:extra]
        (as_format / f"{path.stem}{suffix}").write_text(convert(pred), encoding="utf-8")
        (as_json / path.name).write_text(json.dumps(pred), encoding="utf-8")
    ours = evaluate("flowchart", TRUTH, as_format, quiet=True)
    direct = evaluate("flowchart", TRUTH, as_json, quiet=True)
    assert _numbers(ours) == _numbers(direct)
    assert ours.totals == direct.totals  # no edge_label_cost: the JSON truth has no edge labels
    assert "formats" not in direct.native["inputs"]  # JSON-only results are as before
    fmt = {".mmd": "mermaid", ".dot": "dot"}[suffix]
    assert ours.native["inputs"]["formats"] == {"truth": {"json": 5}, "pred": {fmt: 5}}


def test_parsing_benchmark_reads_format_folders(tmp_path: Path) -> None:
    preds = tmp_path / "preds"
    preds.mkdir()
    (preds / "a.mmd").write_text("flowchart TD\n  A[Start] -->|go| B[Stop]\n")
    truth = tmp_path / "truth"
    truth.mkdir()
    (truth / "a.dot").write_text("digraph { s [label=Start]; s -> t [label=Go]; t [label=Stop]; }")
    bench = ParsingBenchmark(
        pred_diagrams_dir=preds, true_diagrams_dir=truth, expected_num_diagrams=1,
        show_progress=False,
    )  # fmt: skip
    assert bench.total_node_text_cost() == 0 and bench.avg_flow_jaccard() == 1.0
    assert bench.edge_label_costs() == {"a": 1.0}  # "go" vs "Go"


TRUTH_MMD = """flowchart TD
  subgraph p1 [Enrolment]
    A["Assessed for eligibility (n = 120)"] --> B{Eligible?}
  end
  B -->|yes| C[Randomised<br>n = 100]
  B -- no --> D[Excluded]
  C --> E[Analysed]
"""
PRED_MMD = """graph TD
  subgraph s [Enrolment]
    a["Assessed for eligibility (n=120)"] --> b{Eligible?}
  end
  b -->|Yes| c[Randomised<br>n = 100]
  b --> d[Excluded]
  c --> e[Analysed]
"""


def test_cli_scores_mermaid_truth_and_answers_with_edge_label_cost(
    tmp_path: Path, cli: Cli
) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    truth.mkdir()
    pred.mkdir()
    (truth / "consort.mmd").write_text(TRUTH_MMD)
    (truth / "same.mmd").write_text(TRUTH_MMD)
    (pred / "consort.mmd").write_text(PRED_MMD)
    (pred / "same.mermaid").write_text(TRUTH_MMD)
    out, result_path, csv_path = tmp_path / "o.json", tmp_path / "r.json", tmp_path / "o.csv"
    run = cli("flowchart", "--truth", truth, "--pred", pred, "--out", out, "--result",
              result_path, "--csv", csv_path, "--quiet")  # fmt: skip
    assert run.code == 0, run.err
    assert " edge " in run.out and "labels on matched edges" in run.out
    native = json.loads(out.read_text())
    by_stem = {d["stem"]: d for d in native["diagrams"]}
    # "yes" vs "Yes" (1) and "no" missing (2); texts: "n = 120" vs "n=120" is Flowde-equal
    assert by_stem["consort"]["edge_label_cost"] == 3.0
    assert by_stem["consort"]["node_text_cost"] == 0.0
    assert by_stem["same"]["edge_label_cost"] == 0.0 and by_stem["same"]["flow"]["f1"] == 1.0
    assert native["totals"]["edge_label_cost"] == 3.0
    assert native["inputs"]["formats"] == {"truth": {"mermaid": 2}, "pred": {"mermaid": 2}}
    import jsonschema

    schema = cli("schema", "flowchart")
    jsonschema.validate(native, json.loads(schema.out))  # the new keys are in the schema
    envelope = json.loads(result_path.read_text())
    items = {item["id"]: item["metrics"] for item in envelope["items"]}
    assert items["consort"]["edge_label_cost"] == 3.0
    rows = {row["id"]: row for row in csv.DictReader(csv_path.open())}
    assert float(rows["consort"]["edge_label_cost"]) == 3.0


def test_forced_formats_read_txt_files(tmp_path: Path, cli: Cli) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    truth.mkdir()
    pred.mkdir()
    (truth / "a.txt").write_text(TRUTH_MMD)
    (pred / "a.txt").write_text(PRED_MMD)
    run = cli("flowchart", "--truth", truth, "--pred", pred, "--pred-format", "mermaid",
              "--truth-format", "mermaid", "--out", tmp_path / "o.json", "--quiet")  # fmt: skip
    assert run.code == 0, run.err
    native = json.loads((tmp_path / "o.json").read_text())
    assert native["options"]["pred_format"] == "mermaid"
    assert native["diagrams"][0]["edge_label_cost"] == 3.0


def test_folder_errors_name_the_file_and_place(tmp_path: Path, cli: Cli) -> None:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    truth.mkdir()
    pred.mkdir()
    (truth / "a.mmd").write_text(TRUTH_MMD)
    (pred / "a.mmd").write_text("flowchart TD\n  A -->\n")
    run = cli("flowchart", "--truth", truth, "--pred", pred, "--strict")
    assert run.code == 2 and run.err.count("\n") == 1
    assert f"{pred / 'a.mmd'} (line 2, column" in run.err and "Traceback" not in run.err
    (pred / "a.mmd").write_text(PRED_MMD)
    (pred / "a.json").write_text("{}")
    run = cli("flowchart", "--truth", truth, "--pred", pred)
    assert run.code == 2 and "two files for flowchart 'a'" in run.err
    (pred / "a.json").unlink()
    (truth / "a.mmd").write_text("classDiagram\n  class A\n")
    run = cli("flowchart", "--truth", truth, "--pred", pred)
    assert run.code == 2 and "not a flowchart" in run.err and "line 1, column 1" in run.err
    with pytest.raises(InputError, match="option 'pred_format' must be one of auto, json, mermaid"):
        evaluate("flowchart", truth, pred, pred_format="xml")
    run = cli("flowchart", "--truth", truth, "--pred", pred, "--truth-format", "xml")
    assert run.code == 2 and "'xml' is not one of 'auto', 'json', 'mermaid', 'dot'" in run.err


def test_predict_and_run_in_mermaid(tmp_path: Path, cli: Cli) -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "predict"))
    from chat_server import ChatServer, ok, write_png

    images, truth = tmp_path / "images", tmp_path / "truth"
    images.mkdir()
    truth.mkdir()
    (truth / "good.mmd").write_text(TRUTH_MMD)
    (truth / "bad.mmd").write_text(TRUTH_MMD)
    with ChatServer() as server:
        server.script(write_png(images / "good.png", seed=1), ok(f"```mermaid\n{PRED_MMD}```"))
        server.script(write_png(images / "bad.png", seed=2), ok("flowchart TD\n  A -->"))
        out = tmp_path / "out"
        run = cli(
            "run", "flowchart", "--format", "mermaid", "--images", images, "--truth", truth,
            "--model", "m", "--out", out, "--base-url", server.base_url, "--quiet",
        )  # fmt: skip
        prompts = [r.text for r in server.requests]
        response_formats = [r.response_format for r in server.requests]
    assert run.code == 1  # one image failed
    assert "failed bad.png" in run.out and "line 2" in run.out
    assert (out / "predictions" / "good.mmd").read_text() == PRED_MMD
    assert all("Mermaid flowchart" in p for p in prompts) and response_formats == [None, None]
    scores = json.loads((out / "scores.json").read_text())
    assert scores["missing_predictions"] == ["bad"]
    assert scores["diagrams"][0]["edge_label_cost"] == 3.0
    assert "edge label cost: 3 (" in (out / "report" / "index.html").read_text()
    listed = cli("prompt", "flowchart", "--format", "dot")
    assert listed.code == 0 and "Graphviz DOT digraph" in listed.out


def test_the_documented_examples_give_the_documented_numbers(tmp_path: Path, cli: Cli) -> None:
    """docs/flowchart.md (DOT answer vs Mermaid truth) and the README (Mermaid answer vs the
    bundled Flowde truth)."""
    here = Path(__file__).parent / "data"
    example_dir = here / "docs_example"
    run = cli("flowchart", "--truth", example_dir / "truth", "--pred", example_dir / "pred",
              "--out", tmp_path / "docs.json", "--quiet")  # fmt: skip
    assert run.code == 0, run.err
    consort = json.loads((tmp_path / "docs.json").read_text())["diagrams"][0]
    assert (consort["node_text_cost"], consort["edge_label_cost"]) == (1.0, 3.0)
    assert consort["flow"]["f1"] == 1.0
    run = cli("flowchart", "--truth", TRUTH, "--pred", here / "mermaid_answer", "--allow-missing",
              "--out", tmp_path / "readme.json", "--quiet")  # fmt: skip
    assert run.code == 0, run.err
    example = json.loads((tmp_path / "readme.json").read_text())["diagrams"][0]
    costs = (example["node_text_cost"], example["label_cost"], example["additional_text_cost"])
    assert (example["stem"], example["option"], costs) == ("example_0", 1, (1.0, 1.0, 8.0))
    assert (example["flow"]["tp"], example["flow"]["fp"], example["flow"]["fn"]) == (1, 1, 1)
