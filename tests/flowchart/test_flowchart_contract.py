"""The flowchart kind on the core contract (issue 24): options declared once, one reader
registry, totals declared and computed by the core from the items' counts (equal to Flowde's
arithmetic to the last bit), and a summary printed from the Result alone."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parsescore
from cli_helpers import Cli
from parsescore.cli.common import wide_console as console
from parsescore.core.files import dump_json
from parsescore.core.options import declared, docs_table
from parsescore.core.results import Reader, load_result
from parsescore.flowchart import ParsingBenchmark
from parsescore.flowchart.kind import FORMATS, KIND
from parsescore.flowchart.options import _RECORDED_ORDER, FlowchartOptions, FormatName
from parsescore.flowchart.result import _native_totals, read
from parsescore.flowchart.summary import summarise
from parsescore.shared.scores import Counts, macro_mean, micro_counts

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "flowchart.md"
BUNDLED = Path(parsescore.__file__).parent / "data" / "flowchart"
CHAT = ROOT / "tests" / "flowchart" / "data" / "chat_example"


# -- options -------------------------------------------------------------------------------------


def test_format_choices_are_the_registry_names_and_auto() -> None:
    names = ("auto", *(entry.name for entry in KIND.formats))
    assert get_args(FormatName) == names
    choices = {o.name: o.choices for o in declared(FlowchartOptions)}
    assert choices["pred_format"] == choices["truth_format"] == names
    assert KIND.formats == FORMATS


def test_recorded_options_are_the_declared_scoring_ones() -> None:
    scoring = {o.name for o in declared(FlowchartOptions) if o.scores}
    assert set(_RECORDED_ORDER) == scoring


def test_docs_options_table_is_the_declaration() -> None:
    table = docs_table(declared(FlowchartOptions))
    assert table in DOCS.read_text(encoding="utf-8"), (
        "docs/flowchart.md's options table is not the declarations': paste\n" + table
    )


def test_docs_formats_table_is_the_registry() -> None:
    text = DOCS.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)`: [^|]*\| ([^|]*) \|", text, re.MULTILINE)
    found = {name: tuple(re.findall(r"`(\.\w+)`", extensions)) for name, extensions in rows}
    assert found == {entry.name: entry.extensions for entry in KIND.formats}


def test_command_flags_and_name(tmp_path: Path, cli: Cli) -> None:
    truth, pred = BUNDLED / "ground-truth", BUNDLED / "predictions"
    envelope = tmp_path / "r.json"
    run = cli("flowchart", "--truth", truth, "--pred", pred, "--name", "model-a", "--quiet")
    assert run.code == 0, run.err
    run = cli(*("flowchart", "--truth", truth, "--pred", pred, "--result", envelope))
    assert run.code == 0, run.err
    assert load_result(envelope).name == "r"  # not named: the file's stem, as before
    cli(*("flowchart", "--truth", truth, "--pred", pred, "--result", envelope, "--name", "m"))
    assert load_result(envelope).name == "m"
    run = cli("flowchart", "--truth", truth, "--pred", pred, "--distance", "cosine")
    assert run.code == 2 and "'cosine' is not one of 'normalised', 'raw'" in run.err


# -- one direction: the summary from the Result alone -------------------------------------------


@pytest.mark.parametrize(
    ("truth", "pred"),
    [(BUNDLED / "ground-truth", BUNDLED / "predictions"), (CHAT / "truth", CHAT / "pred")],
    ids=["bundled", "chat"],
)
def test_loaded_results_print_the_run_summary(
    truth: Path, pred: Path, tmp_path: Path, cli: Cli, capsys: pytest.CaptureFixture[str]
) -> None:
    envelope, native = tmp_path / "result.json", tmp_path / "out.json"
    run = cli("flowchart", "--truth", truth, "--pred", pred, "--result", envelope, "--out", native)
    assert run.code == 0, run.err
    printed = "".join(line for line in run.out.splitlines(True) if not line.startswith("Wrote "))
    for path in (envelope, native):
        capsys.readouterr()
        summarise(load_result(path), console())
        out, err = capsys.readouterr()
        assert out == printed, path
        assert err == run.err, path


def test_envelope_and_native_read_back_as_the_run() -> None:
    result = parsescore.evaluate("flowchart", CHAT / "truth", CHAT / "pred", quiet=True)
    again = read(json.loads(dump_json(result.native)), Reader(None), result.name)[0]
    assert again.items == result.items and again.counts == result.counts
    assert list(again.totals.items()) == list(result.totals.items())
    assert again.dataset == result.dataset and again.options == result.options


# -- totals: the core's, equal to Flowde's arithmetic to the last bit ----------------------------


def test_totals_are_the_benchmarks_own_numbers() -> None:
    truth = BUNDLED / "ground-truth"
    result = parsescore.evaluate("flowchart", truth, BUNDLED / "predictions", quiet=True)
    bench = ParsingBenchmark(
        pred_diagrams_dir=BUNDLED / "predictions",
        true_nodes_dir=truth / "nodes",
        true_labels_dir=truth / "labels",
        true_flow_dir=truth / "flow",
        true_additional_texts_dir=truth / "additional_texts",
        expected_num_diagrams=5,
        show_progress=False,
    )
    micro = micro_counts(Counts(s.tp, s.fp, s.fn) for s in bench.all_flow_scores())
    expected = {
        "diagrams": 5,
        "node_text_cost": bench.total_node_text_cost(),
        "label_cost": bench.total_label_cost(),
        "additional_text_cost": bench.total_additional_text_cost(),
        "avg_flow_jaccard": bench.avg_flow_jaccard(),
        "flow_micro": micro.as_dict(),
        "readable": 1.0,
    }
    assert dump_json(result.native["totals"]) == dump_json(expected)  # values and types
    flat = {k: float(v) for k, v in expected.items() if k != "flow_micro"}
    flat |= {f"flow_micro_{s}": getattr(micro, s) for s in ("precision", "recall", "f1", "jaccard")}
    assert [(k, repr(v)) for k, v in result.totals.items()] == [
        (k, repr(v)) for k, v in flat.items()
    ]


COST = st.one_of(st.just(0), st.floats(0, 200, allow_nan=False).map(lambda x: round(x, 3)))


@st.composite
def diagrams(draw: st.DrawFn) -> list[dict[str, Any]]:
    """``--out`` diagram records: costs (an integer 0 where no text was compared, as Flowde's
    sums give it) and flow counts with their scores."""
    records = []
    labels, additional, edges, flow = (draw(st.booleans()) for _ in range(4))
    for k in range(draw(st.integers(1, 12))):
        record: dict[str, Any] = {"stem": f"d{k}", "option": 0, "node_text_cost": draw(COST)}
        if labels:
            record["label_cost"] = draw(COST)
        if additional:
            record["additional_text_cost"] = draw(COST)
        if edges and draw(st.booleans()):
            record["edge_label_cost"] = float(draw(COST))
        record["readable"] = draw(st.booleans())
        if flow:
            counts = Counts(*(draw(st.integers(0, 30)) for _ in range(3)))
            record["flow"] = counts.as_dict() | {"missing_edges": [], "extra_edges": []}
        record["node_matches"] = []
        records.append(record)
    return records


def _flowde_totals(records: list[dict[str, Any]], readable: float) -> dict[str, Any]:
    """The totals as the code before issue 24 computed them (Flowde's arithmetic)."""
    totals: dict[str, Any] = {"diagrams": len(records)}
    totals["node_text_cost"] = sum(r["node_text_cost"] for r in records)
    for cost in ("label_cost", "additional_text_cost"):
        if cost in records[0]:
            totals[cost] = sum(r[cost] for r in records)
    edge = [r["edge_label_cost"] for r in records if "edge_label_cost" in r]
    if edge:
        totals["edge_label_cost"] = sum(edge)
    if "flow" in records[0]:
        totals["avg_flow_jaccard"] = macro_mean([r["flow"]["jaccard"] for r in records])
        micro = micro_counts(
            Counts(r["flow"]["tp"], r["flow"]["fp"], r["flow"]["fn"]) for r in records
        )
        totals["flow_micro"] = micro.as_dict()
    totals["readable"] = readable
    return totals


@settings(max_examples=200, deadline=None)
@given(diagrams(), st.floats(0, 1))
def test_declared_totals_equal_flowdes_arithmetic(
    records: list[dict[str, Any]], share: float
) -> None:
    expected = _flowde_totals(records, share)
    assert dump_json(_native_totals(records, share)) == dump_json(expected)
    doc = {"kind": "flowchart", "totals": expected, "missing_predictions": [], "diagrams": records}
    result = read(doc, Reader(None), "r")[0]
    flat = {k: float(v) for k, v in expected.items() if k != "flow_micro"}
    if "flow_micro" in expected:
        flat |= {
            f"flow_micro_{s}": expected["flow_micro"][s]
            for s in ("precision", "recall", "f1", "jaccard")
        }
    assert sorted((k, repr(v)) for k, v in result.totals.items()) == sorted(
        (k, repr(v)) for k, v in flat.items()
    )
    assert all(result.counts[r["stem"]]["tp"] == r["flow"]["tp"] for r in records if "flow" in r)
