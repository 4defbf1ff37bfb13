"""Batch evaluation and the CLI: input formats, missing predictions, parallel = serial,
the --out document, one-line errors naming file and key, and the reference CLI's output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from table_helpers import sample_pairs, wrap

from cli_helpers import Cli
from parsescore.core.errors import InputError
from parsescore.table import TEDS
from parsescore.table.batch import evaluate_tables
from parsescore.table.inputs import load_tables, pubtabnet_annotation_html

SAMPLES = Path(__file__).resolve().parents[2] / "src/parsescore/data/table/pubtabnet_samples"
BIN = Path(sys.executable).parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    # A wide terminal so that rich does not wrap the one-line error message.
    env = {**os.environ, "COLUMNS": "2000"}
    return subprocess.run(
        [str(BIN / "parsescore"), *args], capture_output=True, text=True, check=False, env=env
    )


def test_pubtabnet_samples_batch_equals_reference_per_table(
    sample_reference: dict[str, tuple[float, float]],
) -> None:
    truth = load_tables(SAMPLES / "sample_gt.json")
    pred = load_tables(SAMPLES / "sample_pred.json")
    result = evaluate_tables(truth, pred)
    assert [t.name for t in result.tables] == list(truth)
    for table in result.tables:
        assert table.teds == pytest.approx(sample_reference[table.name][0], abs=1e-12)
        assert table.teds_s == pytest.approx(sample_reference[table.name][1], abs=1e-12)
    expected_mean = sum(sample_reference[n][0] for n in truth) / len(truth)
    assert result.mean() == pytest.approx(expected_mean, abs=1e-12)


def test_parallel_equals_serial_and_batch_method() -> None:
    pairs = sample_pairs()
    truth = {n: g for n, (g, _) in pairs.items()}
    pred = {n: p for n, (_, p) in pairs.items()}
    serial = evaluate_tables(truth, pred, jobs=1)
    parallel = evaluate_tables(truth, pred, jobs=2)
    assert serial.tables == parallel.tables
    via_method = TEDS(structure_only=True).batch(truth, pred, with_grits=False)
    assert via_method.metric == "TEDS-S"
    assert via_method.scores() == serial.scores("TEDS-S")


def test_missing_predictions_score_zero_and_are_listed() -> None:
    truth = {"a": wrap("<tr><td>x</td></tr>"), "b": wrap("<tr><td>y</td></tr>")}
    pred = {"a": truth["a"], "zzz": truth["b"]}
    result = evaluate_tables(truth, pred)
    assert result.missing == ["b"]
    assert result.extra == ["zzz"]
    assert result.scores() == {"a": 1.0, "b": 0.0}
    assert result.mean() == 0.5
    doc = result.to_json()
    assert doc["metrics"]["GriTS-Top"]["scores"] == {"a": 1.0, "b": 0.0}


def test_formats(tmp_path: Path) -> None:
    html_a = wrap("<tr><td>x</td><td>y</td></tr>")
    html_b = wrap("<tr><td>z</td></tr>")
    (tmp_path / "plain.json").write_text(json.dumps({"a": html_a, "b": html_b}))
    (tmp_path / "wrapped.json").write_text(
        json.dumps({"a": {"html": html_a}, "b": {"html": html_b}})
    )
    (tmp_path / "list.json").write_text(json.dumps([{"name": "a", "html": html_a}, {"b": html_b}]))
    (tmp_path / "lines.jsonl").write_text(
        json.dumps({"filename": "a", "html": html_a}) + "\n\n" + json.dumps({"b": html_b}) + "\n"
    )
    folder = tmp_path / "folder"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.html").write_text(html_a)
    (folder / "sub" / "b.html").write_text(html_b)
    expected = {"a": html_a, "b": html_b}
    for name in ("plain.json", "wrapped.json", "list.json", "lines.jsonl"):
        assert load_tables(tmp_path / name) == expected, name
    assert load_tables(folder) == {"a": html_a, "sub/b": html_b}


def test_pubtabnet_annotation_to_html() -> None:
    annotation = {
        "structure": {
            "tokens": ["<tr>", "<td>", "</td>", "<td", ' colspan="2"', ">", "</td>", "</tr>"]
        },
        "cells": [{"tokens": ["<b>", "a", "&", "</b>"]}, {"tokens": []}],
    }
    html = pubtabnet_annotation_html(annotation, path=Path("x"), where="line 1")
    assert (
        html == "<html><body><table><tr><td><b>a&amp;</b></td>"
        '<td colspan="2"></td></tr></table></body></html>'
    )


def test_table_command_out_document(
    tmp_path: Path, sample_reference: dict[str, tuple[float, float]], cli: Cli
) -> None:
    out = tmp_path / "out.json"
    result = cli(
        "table",
        "--truth",
        SAMPLES / "sample_gt.json",
        "--pred",
        SAMPLES / "sample_pred.json",
        "--out",
        out,
        "--jobs",
        "2",
    )
    assert result.code == 0, result.err
    doc = json.loads(out.read_text())
    assert doc["metric"] == "TEDS" and doc["missing"] == []
    assert set(doc["metrics"]) >= {"TEDS", "TEDS-S", "GriTS-Top", "GriTS-Con"}
    for name, score in doc["scores"].items():
        assert score == pytest.approx(sample_reference[name][0], abs=1e-12)
    assert doc["mean"] == pytest.approx(sum(doc["scores"].values()) / 20, abs=1e-15)
    assert "TEDS (headline)" in result.out
    # deterministic bytes
    out2 = tmp_path / "out2.json"
    result = cli(
        "table", "--truth", SAMPLES / "sample_gt.json", "--pred", SAMPLES / "sample_pred.json",
        "--out", out2,
    )  # fmt: skip
    assert result.code == 0, result.err
    assert out.read_bytes() == out2.read_bytes()


def test_table_command_structure_only_headline(tmp_path: Path, cli: Cli) -> None:
    out = tmp_path / "out.json"
    result = cli(
        "table",
        "--truth",
        SAMPLES / "sample_gt.json",
        "--pred",
        SAMPLES / "sample_pred.json",
        "--structure-only",
        "--no-grits",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    doc = json.loads(out.read_text())
    assert doc["metric"] == "TEDS-S"
    assert doc["scores"] == doc["metrics"]["TEDS-S"]["scores"]
    assert "GriTS-Top" not in doc["metrics"]


@pytest.mark.parametrize(
    ("truth_text", "pred_text", "message"),
    [
        ('{"a": ', '{"a": "x"}', "truth.json (line 1, column 7): malformed JSON"),
        ('{"a": 3}', '{"a": "x"}', "truth.json (key 'a'): expected an HTML string"),
        (
            '{"a": "<html><body><table><tr><td colspan=\\"x\\">x</td></tr></table></body></html>"}',
            '{"a": "x"}',
            "truth.json (key 'a'): bad HTML",
        ),
        ("[1]", '{"a": "x"}', "truth.json (item 0): expected an object"),
    ],
)
def test_bad_input_one_line_errors(
    tmp_path: Path, truth_text: str, pred_text: str, message: str
) -> None:
    (tmp_path / "truth.json").write_text(truth_text)
    (tmp_path / "pred.json").write_text(pred_text)
    proc = _run(
        "table", "--truth", str(tmp_path / "truth.json"), "--pred", str(tmp_path / "pred.json")
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert message in lines[0]


def test_an_unreadable_prediction_fails_its_item_only(tmp_path: Path) -> None:
    """An empty answer (refused when read) and bad HTML (refused when scored) score 0 as a
    missing one does, are listed as unreadable, and the run goes on; --strict stops."""
    table = "<html><body><table><tr><td>x</td></tr></table></body></html>"
    bad_span = table.replace("<td>", "<td colspan='two'>")
    (tmp_path / "truth.json").write_text(json.dumps({"a": table, "b": table, "c": table}))
    (tmp_path / "pred.json").write_text(json.dumps({"a": " ", "b": table, "c": bad_span}))
    out = tmp_path / "out.json"
    args = ["table", "--truth", str(tmp_path / "truth.json"), "--pred", str(tmp_path / "pred.json")]
    proc = _run(*args, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(out.read_text())
    assert doc["scores"] == {"a": 0.0, "b": 1.0, "c": 0.0}
    assert doc["unreadable"] == {
        "a": "html: the answer is empty",
        "c": "bad HTML: <td colspan='two'>: not an integer",
    }
    assert doc["missing"] == [] and "failed" not in doc
    assert "readable answers 0.3333; 2 unreadable\n" in proc.stdout
    assert (
        "2 of 3 answers are unreadable (scored as missing; --strict stops at the first): "
        "a: html: the answer is empty; c: bad HTML" in " ".join(proc.stderr.split())
    )
    strict = _run(*args, "--strict")
    assert strict.returncode == 2
    expected = f"error: {tmp_path / 'pred.json'} (key 'a'): the answer is empty"
    assert strict.stderr.strip() == expected


def test_bad_jsonl_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"a": "x"}\n{oops\n')
    with pytest.raises(InputError, match=r"t.jsonl \(line 2\): malformed JSON"):
        load_tables(path)


def test_teds_command_prints_like_the_reference_cli() -> None:
    gt = wrap("<tr><td>购买方</td><td colspan='2'>a</td></tr>")
    pred = wrap("<tr><td>购买</td><td>a</td></tr>")
    for extra in ([], ["-steds"]):
        ours = _run("teds", "-gt", gt, "-pred", pred, *extra)
        ref = subprocess.run(
            [str(BIN / "table_recognition_metric"), "-gt", gt, "-pred", pred, *extra],
            capture_output=True,
            text=True,
            check=True,
        )
        assert ours.returncode == 0
        assert ours.stdout == ref.stdout
    long_form = _run("teds", "--gt_html", gt, "--pred_html", "", "--structure_only")
    assert long_form.stdout == "0.0\n"


def test_teds_command_takes_text_too_long_for_a_file_name() -> None:
    """A text option is checked against the files it might name; one longer than a file name
    may be (a long cell without a slash) names none, as for the reference: a score, no
    traceback."""
    html = "<table><tr><td>" + "a" * 300 + "</td></tr></table>"
    for gt in (html, wrap("<tr><td>" + "a" * 300)):
        ours = _run("teds", "-gt", gt, "-pred", gt)
        ref = subprocess.run(
            [str(BIN / "table_recognition_metric"), "-gt", gt, "-pred", gt],
            capture_output=True,
            text=True,
            check=True,
        )
        assert ours.returncode == 0 and "Traceback" not in ours.stderr
        assert ours.stdout == ref.stdout


def test_teds_command_errors() -> None:
    proc = _run("teds", "-pred", "x")
    assert proc.returncode == 2 and "gt_html must be non-empty." in proc.stderr
    proc = _run("teds", "-gt", " ", "-pred", "x")
    assert proc.returncode == 2 and "bad HTML" in proc.stderr and "Traceback" not in proc.stderr


def test_progress_bar_and_all_cores_do_not_change_results() -> None:
    pairs = sample_pairs()
    truth = {n: g for n, (g, _) in list(pairs.items())[:6]}
    pred = {n: p for n, (_, p) in list(pairs.items())[:6]}
    quiet = evaluate_tables(truth, pred, with_grits=False)
    shown = evaluate_tables(truth, pred, with_grits=False, progress=True, jobs=0)
    assert quiet.tables == shown.tables


def test_bad_option_values(cli: Cli) -> None:
    with pytest.raises(ValueError, match="grits_iou"):
        evaluate_tables({}, {}, grits_iou="iou")  # type: ignore[arg-type]
    result = cli("table", "--truth", "x", "--pred", "y", "--denominator", "z")
    assert result.code != 0


def test_table_command_lists_the_lowest_scoring_tables(tmp_path: Path, cli: Cli) -> None:
    gt = {"a": wrap("<tr><td>1</td><td>2</td></tr>"), "b": wrap("<tr><td>x</td></tr>")}
    pred = {"a": wrap("<tr><td>1</td></tr>"), "b": wrap("<tr><td>x</td></tr>")}
    (tmp_path / "gt.json").write_text(json.dumps(gt))
    (tmp_path / "pred.json").write_text(json.dumps(pred))
    result = cli("table", "--truth", tmp_path / "gt.json", "--pred", tmp_path / "pred.json")
    assert result.code == 0, result.err
    lowest = result.out.split("lowest-scoring tables")[1]
    expected = TEDS()(gt["a"], pred["a"])
    assert f"{expected:.4f}" in lowest
    assert lowest.index(" a ") < lowest.index(" b ")  # ascending by score
