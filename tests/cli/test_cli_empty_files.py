"""Empty or whitespace-only truth and answer files (issue 28, item 3): a warning naming the
file, and no number beside another that contradicts it (``63 errors`` next to ``0.00 %``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from parsescore.cli.common import empty_file_warnings
from parsescore.sequence.demo import DEMO_DATA

EMPTY_TRUTH = "spec_00x_CyclicOperationBasedDeviceListSync.puml"
BLANK_ANSWER = "spec_101_ProvideListOfDeviceInterfaces.puml"


def _dataset(tmp_path: Path) -> tuple[Path, Path]:
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    shutil.copytree(DEMO_DATA / "truth", truth)
    shutil.copytree(DEMO_DATA / "model_a", pred)
    (truth / EMPTY_TRUTH).write_text("")
    (pred / BLANK_ANSWER).write_text("  \n\t\n")
    return truth, pred


def test_an_empty_truth_and_a_blank_answer_are_named_and_no_rate_contradicts(cli, tmp_path):
    truth, pred = _dataset(tmp_path)
    run = cli("sequence", "--truth", truth, "--pred", pred, "--quiet", "--result",
              tmp_path / "r.json")  # fmt: skip
    assert run.code == 0, run.err
    err = " ".join(run.err.split())
    assert f"truth file {truth / EMPTY_TRUTH} is empty" in err
    assert BLANK_ANSWER in err  # the reader's own warning names it (unreadable: empty answer)
    row = next(line for line in run.out.splitlines() if EMPTY_TRUTH[:20] in line)
    assert "0.00" not in row and "empty truth" in row  # errors, and no rate of 0 beside them
    blank = next(line for line in run.out.splitlines() if BLANK_ANSWER[:20] in line)
    assert "unreadable" in blank
    written = (tmp_path / "r.json").read_text()
    assert "is empty (or only whitespace)" in written  # the envelope keeps the warning


def test_empty_file_warnings_name_each_blank_file_once(tmp_path):
    truth, pred = _dataset(tmp_path)
    found = empty_file_warnings(truth, [pred])
    assert len(found) == 2
    assert str(truth / EMPTY_TRUTH) in found[0] and str(pred / BLANK_ANSWER) in found[1]
    said = [f"1 of 6 answers are unreadable: {BLANK_ANSWER}: empty answer"]
    assert len(empty_file_warnings(truth, pred, said)) == 1  # not named twice
    assert empty_file_warnings(DEMO_DATA / "truth", DEMO_DATA / "model_a") == []
