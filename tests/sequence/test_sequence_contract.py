"""The sequence kind on the core contract (issue 24): options declared once, totals from the
declared aggregation of the counts every file carries, one reader registry, one direction
(computed → native → Result) and a summary printed from the Result alone."""

from __future__ import annotations

import dataclasses
import io
import json
import typing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from test_sequence_properties import Style, render, scripts

from parsescore import evaluate, load_result
from parsescore.cli.main import build_app
from parsescore.core.errors import InputError
from parsescore.core.options import declared
from parsescore.core.results import results_from_json
from parsescore.sequence import CATEGORIES, FORMATS, SequenceOptions, score_model
from parsescore.sequence.demo import DEMO_DATA
from parsescore.sequence.inputs import path_source
from parsescore.sequence.kind import KIND
from parsescore.sequence.read import SUFFIXES

CHANGES = ("insertion", "deletion", "substitution")


# -- options declared once ------------------------------------------------------------------


def test_format_choices_are_the_reader_registry() -> None:
    hints = typing.get_type_hints(SequenceOptions)
    names = tuple(fmt.name for fmt in FORMATS)
    for field in ("truth_format", "pred_format"):
        assert typing.get_args(hints[field]) == ("auto", *names)
    assert KIND.formats == FORMATS
    assert tuple(s for fmt in FORMATS for s in fmt.extensions) == SUFFIXES


def test_the_command_has_every_declared_flag_and_the_flags_it_always_had(cli) -> None:
    command = build_app().functions["sequence"]
    parameters = set(typing.get_type_hints(command)) - {"return"}
    cli_options = {o.name for o in declared(SequenceOptions) if o.where != "api"}
    assert parameters == {"truth", "pred", "out", "result", "csv"} | cli_options
    shown = cli("sequence", "--help").out
    for flag in [
        "--truth",
        "--pred",
        "--out",
        "--result",
        "--csv",
        "--threshold",
        "--ignore-colours",
        "--truth-format",
        "--pred-format",
        "--strict",
        "--allow-missing",
        "--check-syntax",
        "--report",
        "--repo",
        "--truth-ref",
        "--pred-ref",
        "--worst",
        "--jobs",
        "--dask-scheduler",
        "--cache",
        "--quiet",
        "--force",
        "--name",
    ]:
        assert flag in shown, flag


def test_evaluate_checks_options_once_with_one_error_type() -> None:
    truth = {"a": "@startuml\nA -> B : hi\n@enduml"}
    with pytest.raises(InputError, match="'threshold' must be at most 1"):
        evaluate("sequence", truth, truth, threshold=1.5)
    with pytest.raises(InputError, match="must be one of auto, plantuml, mermaid"):
        evaluate("sequence", truth, truth, pred_format="svg")
    with pytest.raises(InputError, match="unknown option 'worst'"):
        evaluate("sequence", truth, truth, worst=3)  # a flag of the command only
    with pytest.raises(InputError, match="unknown option 'cache_dir'"):
        score_model(
            path_source(DEMO_DATA / "truth"), path_source(DEMO_DATA / "model_a"), cache_dir="."
        )


def test_recorded_options_are_those_sequence_results_always_had() -> None:
    truth = {"a": "@startuml\nA -> B : hi\n@enduml", "b": "@startuml\nA -> B\n@enduml"}
    pred = {"a": truth["a"]}
    plain = evaluate("sequence", truth, pred, quiet=True)
    assert plain.options == {
        "threshold": 0.5,
        "ignore_colours": False,
        "truth_format": "auto",
        "pred_format": "auto",
    }
    missing = evaluate("sequence", truth, pred, quiet=True, allow_missing=True, threshold=0.3)
    assert list(missing.options) == [*plain.options, "allow_missing"]
    assert missing.options["threshold"] == 0.3 and missing.options["allow_missing"] is True


# -- totals: the declared aggregation of the files' counts, bit for bit -------------------------


def _reference_totals(block: dict[str, typing.Any]) -> dict[str, float]:
    """The spec's arithmetic on a native block, as sequence totals were computed before the
    core did it: each category's counts summed over the files (integers), then ``count /
    gt_count * 100`` (0 without ground truth); ``error_rate`` all errors over all elements."""
    summed = {c: dict.fromkeys(("gt_count", *CHANGES), 0) for c in CATEGORIES}
    for file in block["files"]:
        for category in CATEGORIES:
            for key in summed[category]:
                summed[category][key] += file[category][key]
    totals: dict[str, float] = {}
    errors = elements = 0
    for category in CATEGORIES:
        gt = summed[category]["gt_count"]
        for change in CHANGES:
            count = summed[category][change]
            totals[f"{category}_{change}_rate"] = count / gt * 100 if gt else 0.0
            errors += count
        elements += gt
    totals["error_rate"] = errors / elements * 100 if elements else 0.0
    totals["readable"] = block["readable"]
    return totals


datasets = st.lists(st.tuples(scripts, scripts, st.booleans()), min_size=1, max_size=5)


@settings(max_examples=40, deadline=None)
@given(datasets, st.sampled_from([0.0, 0.3, 0.5, 1.0]))
def test_totals_from_counts_equal_the_reference_computation(
    pairs: list[tuple[typing.Any, typing.Any, bool]], threshold: float
) -> None:
    truth = {f"f{k}": render(t, Style(None)) for k, (t, _, _) in enumerate(pairs)}
    pred = {f"f{k}": render(p, Style(k)) for k, (_, p, present) in enumerate(pairs) if present}
    if not pred:
        pred = {"f0": truth["f0"]}
    result = evaluate("sequence", truth, pred, quiet=True, threshold=threshold)
    native = json.loads(json.dumps(result.native))
    reference = _reference_totals(native)
    assert list(result.totals) == list(reference)
    for name, value in reference.items():
        assert result.totals[name] == value, name  # to the last bit
    for category in CATEGORIES:  # the native document's totals: same numbers, same counts
        for change in CHANGES:
            key = f"{change}_rate"
            assert native["totals"][category][key] == reference[f"{category}_{key}"]
    for file in native["files"]:
        counts = result.counts[file["path"]]
        assert counts["elements"] == sum(file[c]["gt_count"] for c in CATEGORIES)
        assert counts["errors"] == sum(file[c][x] for c in CATEGORIES for x in CHANGES)
        rate = result.items[file["path"]]["error_rate"]
        assert rate == (counts["errors"] / counts["elements"] * 100 if counts["elements"] else 0.0)
    (read_back,) = results_from_json(native)
    assert read_back.totals == result.totals and read_back.counts == result.counts
    assert read_back.items == result.items


def test_totals_with_allow_missing_keep_readable_over_all_truth_files() -> None:
    result = evaluate(
        "sequence", DEMO_DATA / "truth", DEMO_DATA / "model_b", quiet=True, allow_missing=True
    )
    assert len(result.items) == 5 and result.totals["readable"] == 5 / 6
    assert result.totals == _reference_totals(result.native)


# -- one direction, and the summary from the Result alone ---------------------------------------


def test_the_result_is_read_from_its_native_document() -> None:
    result = evaluate("sequence", DEMO_DATA / "truth", DEMO_DATA / "model_b", quiet=True)
    (read_back,) = results_from_json(json.loads(json.dumps(result.native)))
    assert read_back.items == result.items and read_back.totals == result.totals
    assert read_back.counts == result.counts
    for item, detail in result.details.items():
        assert read_back.details[item] == {k: v for k, v in detail.items() if k != "differences"}


def _summary(result: typing.Any, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    buffer = io.StringIO()
    KIND.summarise(result, Console(file=buffer, width=160, color_system=None))
    return buffer.getvalue(), capsys.readouterr().err


def test_a_loaded_envelope_prints_the_summary_of_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = evaluate("sequence", DEMO_DATA / "truth", DEMO_DATA / "model_b", quiet=True)
    capsys.readouterr()
    ran = _summary(result, capsys)
    result.write(tmp_path / "result.json")
    loaded = _summary(load_result(tmp_path / "result.json"), capsys)
    assert loaded == ran
    assert "Worst files — model_b" in ran[0] and "1 missing" in ran[0]
    assert "have no answer" in ran[1]
    assert dataclasses.replace(result, native=None, computed=None) == load_result(
        tmp_path / "result.json"
    )
