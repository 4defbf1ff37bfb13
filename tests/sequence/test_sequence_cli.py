"""``parsescore sequence``: files, directories, git refs, JSON shape, reports, bad input."""

from __future__ import annotations

import csv
import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from sequence_helpers import DATA

from cli_helpers import Cli
from parsescore.sequence import CATEGORIES

CATEGORY_KEYS = [
    "gt_count",
    "insertion",
    "deletion",
    "substitution",
    "insertion_rate",
    "deletion_rate",
    "substitution_rate",
]

TRUTH = """@startuml
participant "Alice Long" as A
participant B
A -> B : hello
B --> A : fine
note over A
  remember
end note
@enduml
"""
# One message edit (hello → hallo), one arrow type change (--> → ->), the note deleted.
PRED = """@startuml
participant "Alice Long" as A
participant B
A -> B : hallo
B -> A : fine
@enduml
"""


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_two_files_json_shape_and_values(tmp_path: Path, cli: Cli) -> None:
    truth = write(tmp_path / "t.puml", TRUTH)
    pred = write(tmp_path / "p.puml", PRED)
    out = tmp_path / "out.json"
    run = cli("sequence", "--truth", str(truth), "--pred", str(pred), "--out", str(out))
    assert run.code == 0, run.err
    assert "Table 2" in run.out and "Worst files" in run.out
    result = json.loads(out.read_text())
    assert list(result) == ["totals", "files", "readable"]  # the spec's, then readable
    assert list(result["totals"]) == list(CATEGORIES) and result["readable"] == 1.0
    for category in CATEGORIES:
        assert list(result["totals"][category]) == CATEGORY_KEYS
    (file,) = result["files"]
    assert list(file) == ["path", "gt_lines", *CATEGORIES, "readable"]
    assert (file["path"], file["gt_lines"]) == ("t.puml", 9)
    assert file["message"] == {
        "gt_count": 2,
        "insertion": 0,
        "deletion": 0,
        "substitution": 1,
        "insertion_rate": 0.0,
        "deletion_rate": 0.0,
        "substitution_rate": 50.0,
    }
    assert file["direction_type"]["substitution"] == 1
    assert file["note"]["deletion"] == 1 and file["note"]["deletion_rate"] == 100.0
    assert file["node"]["gt_count"] == 4 and file["participant"]["gt_count"] == 2
    assert result["totals"] == {c: file[c] for c in CATEGORIES}


def test_directories_matched_by_relative_path(tmp_path: Path, cli: Cli) -> None:
    truth_dir, pred_dir = tmp_path / "truth", tmp_path / "pred"
    write(truth_dir / "doc1" / "a.puml", TRUTH)
    write(truth_dir / "doc2" / "a.puml", "@startuml\nA -> B : x\n@enduml\n")
    write(truth_dir / "missing.puml", "@startuml\nA -> B : gone\nB -> C\n@enduml\n")
    write(truth_dir / "README.md", "not a script")
    write(pred_dir / "doc1" / "a.puml", PRED)
    write(pred_dir / "doc2" / "a.puml", "@startuml\nA -> B : x\n@enduml\n")
    write(pred_dir / "extra.puml", "@startuml\nA -> B\n@enduml\n")
    out = tmp_path / "out.json"
    run = cli("sequence", "--truth", str(truth_dir), "--pred", str(pred_dir), "--out", str(out))
    assert run.code == 0, run.err
    result = json.loads(out.read_text())
    by_path = {f["path"]: f for f in result["files"]}
    assert sorted(by_path) == ["doc1/a.puml", "doc2/a.puml", "missing.puml"]
    assert by_path["doc1/a.puml"]["message"]["substitution"] == 1
    assert all(by_path["doc2/a.puml"][c]["deletion"] == 0 for c in CATEGORIES)
    missing = by_path["missing.puml"]
    assert missing["direction"]["deletion"] == 2
    assert missing["node"]["deletion"] == 4
    assert missing["message"]["deletion"] == 1
    assert "1 of 3 files have no answer (scored as empty): missing.puml" in run.err
    assert "extra.puml: prediction without ground truth, skipped" in run.err
    assert "readable answers 0.6667; 1 missing" in run.out
    # Totals are sums of counts, rates recomputed from them.
    totals = result["totals"]["direction"]
    assert totals["gt_count"] == 5 and totals["deletion"] == 2
    assert totals["deletion_rate"] == 2 / 5 * 100


def test_several_models_give_one_block_each(tmp_path: Path, cli: Cli) -> None:
    write(tmp_path / "truth" / "a.puml", TRUTH)
    write(tmp_path / "claude" / "a.puml", TRUTH)
    write(tmp_path / "gpt" / "a.puml", PRED)
    out = tmp_path / "out.json"
    run = cli(
        "sequence",
        "--truth",
        str(tmp_path / "truth"),
        "--pred",
        str(tmp_path / "claude"),
        "--pred",
        str(tmp_path / "gpt"),
        "--out",
        str(out),
    )
    assert run.code == 0, run.err
    result = json.loads(out.read_text())
    assert list(result) == ["claude", "gpt"]
    assert list(result["claude"]) == ["totals", "files", "readable"]
    assert result["claude"]["totals"]["message"]["substitution"] == 0
    assert result["gpt"]["totals"]["message"]["substitution"] == 1
    assert "claude" in run.out and "gpt" in run.out


def test_report_files(tmp_path: Path, cli: Cli) -> None:
    truth = write(tmp_path / "t" / "a.puml", TRUTH)
    write(tmp_path / "p" / "a.puml", PRED)
    report = tmp_path / "report"
    result = cli(
        "sequence",
        "--truth",
        str(truth.parent),
        "--pred",
        str(tmp_path / "p"),
        "--report",
        str(report),
    )
    assert result.code == 0, result.err
    names = sorted(p.name for p in report.iterdir())
    assert names == [
        ".parsescore",  # marks the folder as written by parsescore
        "differences.csv",
        "differences.md",
        "errors_by_lines.png",
        "errors_by_lines.svg",
        "table1.csv",
        "table1.md",
        "table2.csv",
        "table2.md",
    ]
    table2 = (report / "table2.md").read_text()
    assert "| Ground truth count | 4 | 2 | 2 | 2 | 0 | 0 | 1 | 2 |" in table2
    assert (
        "| Substitution (%) | 0.00 | 0.00 | 50.00 | 50.00 | 0.00 | 0.00 | 0.00 | 0.00 |" in table2
    )
    assert "| Deletion (%) | 0.00 | 0.00 | 0.00 | 0.00 | 0.00 | 0.00 | 100.00 | 0.00 |" in table2
    assert "| 1-20 | 1 |" in (report / "table1.md").read_text()
    assert (report / "table1.csv").read_text().splitlines()[1] == "1-20,1"
    differences = (report / "differences.md").read_text()
    # answer text is Markdown-escaped (core.markdown.markdown_text): shown, never rendered
    assert (
        "| message | substitution | 4 | A \\-&gt; B : hello | 4 | A \\-&gt; B : hallo |"
        in differences
    )
    assert "| note | deletion | 6 | note over A<br>remember<br>end note |" in differences
    assert (report / "errors_by_lines.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (report / "errors_by_lines.svg").read_text()
    with (report / "differences.csv").open(newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:5] == ["model", "path", "category", "change", "truth_line"]
    assert len(rows) == 1 + 3
    assert rows[3][5] == "note over A\nremember\nend note"


def test_output_is_deterministic(tmp_path: Path, cli: Cli) -> None:
    outputs = []
    for run_index in range(2):
        out = tmp_path / f"out{run_index}.json"
        report = tmp_path / f"report{run_index}"
        result = cli(
            "sequence",
            "--truth",
            str(DATA),
            "--pred",
            str(DATA),
            "--out",
            str(out),
            "--report",
            str(report),
        )
        assert result.code == 0, result.err
        outputs.append(
            [out.read_bytes()]
            + [(report / name).read_bytes() for name in sorted(os.listdir(report))]
        )
    assert outputs[0] == outputs[1]


def test_real_diagrams_against_themselves_score_zero(
    tmp_path: Path, cli: Cli, mwdi_dir: Path
) -> None:
    out = tmp_path / "out.json"
    run = cli("sequence", "--truth", str(mwdi_dir), "--pred", str(mwdi_dir), "--out", str(out))
    assert run.code == 0 and "warning" not in run.err
    result = json.loads(out.read_text())
    assert len(result["files"]) == 30
    for category in CATEGORIES:
        totals = result["totals"][category]
        assert totals["insertion"] == totals["deletion"] == totals["substitution"] == 0
    assert result["totals"]["participant"]["gt_count"] == 119


# -- bad input ---------------------------------------------------------------------------------


def test_bad_files_are_reported_and_the_run_goes_on(tmp_path: Path, cli: Cli) -> None:
    truth_dir, pred_dir = tmp_path / "truth", tmp_path / "pred"
    write(truth_dir / "good.puml", TRUTH)
    write(truth_dir / "binary_pred.puml", TRUTH)
    write(truth_dir / "binary_truth.puml", b"\x00\x01\x02")
    write(truth_dir / "unterminated.puml", "@startuml\nA -> B : x\nnote over A\ntext\n@enduml\n")
    write(truth_dir / "json.puml", TRUTH)
    write(pred_dir / "good.puml", PRED)
    write(pred_dir / "binary_pred.puml", b"\x89PNG\x00\x00")
    write(pred_dir / "binary_truth.puml", TRUTH)
    write(pred_dir / "unterminated.puml", "@startuml\nalt x\nA -> B : x\n@enduml\n")
    write(pred_dir / "json.puml", '{"nodes": []}\n')
    out, envelope = tmp_path / "out.json", tmp_path / "result.json"
    run = cli(
        "sequence", "--truth", truth_dir, "--pred", pred_dir, "--out", out, "--result", envelope
    )
    assert run.code == 0, run.err
    result = json.loads(out.read_text())
    paths = [f["path"] for f in result["files"]]
    assert paths == ["binary_pred.puml", "good.puml", "json.puml", "unterminated.puml"]
    flat = " ".join(run.err.split())
    assert "binary_truth.puml: ground truth skipped:" in flat and "binary file" in flat
    # a binary prediction and a JSON one (no sequence diagram) are unreadable: scored as
    # everything deleted, listed, counted in one warning
    assert "2 of 4 answers are unreadable (scored as missing; --strict stops at the first)" in flat
    assert "truth warning: line 3: note opened here is never closed by 'end note'" in flat
    assert "prediction warning: line 2: group opened here is never closed by 'end'" in flat
    assert "json.puml: prediction" not in flat  # its reader's notes are the reason, not warnings
    dataset = json.loads(envelope.read_text())["dataset"]
    assert list(dataset["unreadable"]) == ["binary_pred.puml", "json.puml"]
    assert "binary file" in dataset["unreadable"]["binary_pred.puml"]
    assert dataset["unreadable"]["json.puml"] == (
        "line 1: not a sequence diagram: no participant, arrow, note, group or box recognised "
        """(the first line not read: '{"nodes": []}')"""
    )
    assert "readable answers 0.5000; 2 unreadable" in run.out
    for binary in (result["files"][0], result["files"][2]):
        assert binary["direction"]["deletion"] == 2 and binary["note"]["deletion"] == 1
    assert "Traceback" not in run.err
    strict = cli("sequence", "--truth", truth_dir, "--pred", pred_dir, "--strict")
    assert strict.code == 2 and strict.err.count("error:") == 1
    assert str(pred_dir / "binary_pred.puml") in " ".join(strict.err.split())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--truth", "{missing}", "--pred", "{file}"], "no such file or directory"),
        (["--truth", "{file}", "--pred", "{dir}"], "both be files or both be directories"),
        (["--truth", "{file}"], "give --truth and at least one --pred"),
        (
            ["--truth", "{file}", "--pred", "{file}", "--threshold", "1.5"],
            "not in the range 0<=x<=1",
        ),
        (["--repo", "{dir}", "--truth-ref", "main"], "needs --truth-ref and at least one"),
        (["--truth", "{file}", "--pred", "{file}", "--pred-ref", "x"], "need --repo"),
        (["--truth", "{emptydir}", "--pred", "{emptydir}"], "no sequence-diagram scripts"),
    ],
)
def test_bad_arguments_give_one_line_errors(
    tmp_path: Path, cli: Cli, args: list[str], message: str
) -> None:
    file = write(tmp_path / "a.puml", TRUTH)
    (tmp_path / "dir").mkdir()
    (tmp_path / "emptydir").mkdir()
    values = {
        "{missing}": str(tmp_path / "nope.puml"),
        "{file}": str(file),
        "{dir}": str(tmp_path / "dir"),
        "{emptydir}": str(tmp_path / "emptydir"),
    }
    result = cli("sequence", *[values.get(a, a) for a in args])
    assert result.code == 2
    # One message (the console may soft-wrap it at its width when not a terminal).
    assert result.err.startswith("error:") and result.err.count("error:") == 1
    assert message in " ".join(result.err.split())
    assert "Traceback" not in result.err


# -- git mode ----------------------------------------------------------------------------------


def git(repo: Path, *args: str) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
    }
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def paper_repo(tmp_path: Path) -> Path:
    """A repository like the paper's: ground truth on main, one branch per model."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    write(repo / "TS23.401" / "fig1.puml", TRUTH)
    write(repo / "TS23.401" / "fig2.puml", "@startuml\nA -> B : one\nB -> C : two\n@enduml\n")
    write(repo / "README.md", "ground truth")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "ground truth")
    git(repo, "checkout", "-q", "-b", "claude")
    write(repo / "TS23.401" / "fig1.puml", PRED)
    git(repo, "commit", "-q", "-am", "claude outputs")
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "-q", "-b", "gpt")
    write(repo / "TS23.401" / "fig2.puml", "@startuml\nA -> B : one\n@enduml\n")
    git(repo, "rm", "-q", "TS23.401/fig1.puml")
    git(repo, "commit", "-q", "-am", "gpt outputs")
    git(repo, "checkout", "-q", "main")
    return repo


def test_git_mode_two_model_branches(paper_repo: Path, tmp_path: Path, cli: Cli) -> None:
    out = tmp_path / "git.json"
    run = cli(
        "sequence",
        "--repo",
        str(paper_repo),
        "--truth-ref",
        "main",
        "--pred-ref",
        "claude",
        "--pred-ref",
        "gpt",
        "--out",
        str(out),
    )
    assert run.code == 0, run.err
    result = json.loads(out.read_text())
    assert list(result) == ["claude", "gpt"]
    claude = {f["path"]: f for f in result["claude"]["files"]}
    gpt = {f["path"]: f for f in result["gpt"]["files"]}
    assert sorted(claude) == ["TS23.401/fig1.puml", "TS23.401/fig2.puml"]
    assert claude["TS23.401/fig1.puml"]["message"]["substitution"] == 1
    assert claude["TS23.401/fig1.puml"]["note"]["deletion"] == 1
    assert gpt["TS23.401/fig2.puml"]["direction"]["deletion"] == 1
    assert gpt["TS23.401/fig1.puml"]["direction"]["deletion"] == 2  # file missing on gpt
    err = " ".join(run.err.split())
    assert "[gpt] 1 of 2 files have no answer (scored as empty): TS23.401/fig1.puml" in err
    assert "[claude] readable answers 1.0000" in run.out
    assert "[gpt] readable answers 0.5000; 1 missing" in run.out
    assert "claude" in run.out


def test_git_mode_reads_committed_content_not_the_work_tree(
    paper_repo: Path, tmp_path: Path, cli: Cli
) -> None:
    write(paper_repo / "TS23.401" / "fig1.puml", "uncommitted garbage")
    out = tmp_path / "git.json"
    result = cli(
        "sequence",
        "--repo",
        str(paper_repo),
        "--truth-ref",
        "main",
        "--pred-ref",
        "main",
        "--out",
        str(out),
    )
    assert result.code == 0, result.err
    totals = json.loads(out.read_text())["totals"]
    assert all(totals[c]["insertion"] == totals[c]["deletion"] == 0 for c in CATEGORIES)


def test_git_mode_unknown_ref(paper_repo: Path, cli: Cli) -> None:
    result = cli(
        "sequence", "--repo", str(paper_repo), "--truth-ref", "main", "--pred-ref", "llama"
    )
    assert result.code == 2
    assert result.err.startswith("error:") and result.err.count("error:") == 1
    assert "unknown git ref 'llama'" in " ".join(result.err.split())


def test_git_mode_not_a_repository(tmp_path: Path, cli: Cli) -> None:
    result = cli("sequence", "--repo", str(tmp_path), "--truth-ref", "main", "--pred-ref", "x")
    assert result.code == 2 and result.err.startswith("error:")
    assert "not a git repository" in " ".join(result.err.split())
    result = cli(
        "sequence", "--repo", str(tmp_path / "nope"), "--truth-ref", "main", "--pred-ref", "x"
    )
    assert result.code == 2 and "no such repository directory" in " ".join(result.err.split())


# -- syntax check ------------------------------------------------------------------------------

FAKE_PLANTUML = """#!/bin/sh
# A stand-in for PlantUML's -syntax mode: scripts containing BROKEN do not compile.
echo "$@" >> "{log}"
input=$(cat)
case "$input" in
  *BROKEN*) printf 'ERROR\\n2\\nSyntax Error?\\n'; exit 200 ;;
  *) printf 'SEQUENCE\\n(2 participants)\\n' ;;
esac
"""


def make_executable(path: Path, text: str) -> None:
    write(path, text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def syntax_dirs(tmp_path: Path) -> tuple[Path, Path]:
    truth_dir, pred_dir = tmp_path / "truth", tmp_path / "pred"
    for name in ("ok.puml", "bad.puml"):
        write(truth_dir / name, TRUTH)
    write(pred_dir / "ok.puml", PRED)
    write(pred_dir / "bad.puml", "@startuml\nA -> B : x\nBROKEN line\n@enduml\n")
    return truth_dir, pred_dir


def test_check_syntax_without_plantuml_says_so_once(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    truth_dir, pred_dir = syntax_dirs(tmp_path)
    empty_bin = tmp_path / "empty-bin"
    empty_bin.mkdir()
    monkeypatch.setenv("PATH", str(empty_bin))
    monkeypatch.delenv("PLANTUML_JAR", raising=False)
    result = cli("sequence", "--truth", str(truth_dir), "--pred", str(pred_dir), "--check-syntax")
    assert result.code == 0, result.err
    assert result.err.count("syntax check skipped: no PlantUML found") == 1
    assert "does not compile" not in result.out


def test_check_syntax_with_a_plantuml_command(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    truth_dir, pred_dir = syntax_dirs(tmp_path)
    log = tmp_path / "calls.log"
    make_executable(tmp_path / "bin" / "plantuml", FAKE_PLANTUML.format(log=log))
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("PLANTUML_JAR", raising=False)
    result = cli("sequence", "--truth", str(truth_dir), "--pred", str(pred_dir), "--check-syntax")
    assert result.code == 0, result.err
    flat = " ".join(result.out.split())
    assert "[pred] bad.puml: line 3 does not compile: Syntax Error?" in flat
    assert "ok.puml: line" not in flat
    assert "syntax check: 1 prediction(s) do not compile" in flat
    assert log.read_text().split() == ["-syntax", "-syntax"]


def test_check_syntax_with_plantuml_jar(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    truth_dir, pred_dir = syntax_dirs(tmp_path)
    log = tmp_path / "calls.log"
    jar = write(tmp_path / "plantuml.jar", "not really a jar")
    make_executable(tmp_path / "bin" / "java", FAKE_PLANTUML.format(log=log))
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("PLANTUML_JAR", str(jar))
    result = cli("sequence", "--truth", str(truth_dir), "--pred", str(pred_dir), "--check-syntax")
    assert result.code == 0, result.err
    assert "bad.puml: line 3 does not compile" in " ".join(result.out.split())
    first_call = log.read_text().splitlines()[0].split()
    assert first_call[-3:] == ["-jar", str(jar), "-syntax"]
    # the sandbox: security profile, memory limit, every proxy at a closed local port
    assert "-DPLANTUML_SECURITY_PROFILE=SANDBOX" in first_call
    assert "-Xmx512m" in first_call
    assert "-Dhttp.proxyHost=127.0.0.1" in first_call


def test_git_is_available_for_these_tests() -> None:
    assert shutil.which("git") is not None


def test_non_utf8_prediction_is_reported(tmp_path: Path, cli: Cli) -> None:
    write(tmp_path / "t" / "a.puml", TRUTH)
    write(tmp_path / "p" / "a.puml", b"@startuml\nA -> B : caf\xe9\n@enduml\n")
    result = cli("sequence", "--truth", str(tmp_path / "t"), "--pred", str(tmp_path / "p"))
    assert result.code == 0, result.err
    # The bad byte is at offset 22: 10 bytes of "@startuml\n", 12 of "A -> B : caf".
    assert "not UTF-8 text (byte 22)" in " ".join(result.err.split())


def test_report_without_matplotlib_writes_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from parsescore.sequence import compare_scripts
    from parsescore.sequence.metrics import ModelScore
    from parsescore.sequence.report import write_report

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib → ImportError
    model = ModelScore("m", (compare_scripts(TRUTH, PRED, path="a.puml"),))
    written, warnings = write_report([model], tmp_path / "r")
    assert sorted(p.name for p in written) == [
        "differences.csv",
        "differences.md",
        "table1.csv",
        "table1.md",
        "table2.csv",
        "table2.md",
    ]
    assert warnings == [
        "matplotlib is not installed (the 'plot' extra): Figure 6/7 plot not written"
    ]


def test_worst_files_are_listed_worst_first(tmp_path: Path, cli: Cli) -> None:
    write(tmp_path / "t" / "good.puml", TRUTH)
    write(tmp_path / "t" / "bad.puml", TRUTH)
    write(tmp_path / "p" / "good.puml", TRUTH)
    write(tmp_path / "p" / "bad.puml", PRED)
    result = cli(
        "sequence", "--truth", str(tmp_path / "t"), "--pred", str(tmp_path / "p"), "--worst", "1"
    )
    assert result.code == 0, result.err
    worst = result.out[result.out.index("Worst files") :]
    assert "bad.puml" in worst and "good.puml" not in worst


def test_missing_dask_extra_is_a_one_line_error(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    truth, pred = write(tmp_path / "t.puml", TRUTH), write(tmp_path / "p.puml", PRED)
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = cli("sequence", "--truth", str(truth), "--pred", str(pred), "--dask-scheduler", "x:1")
    assert result.code == 2 and "Traceback" not in result.err
    assert result.err.startswith("error: --dask-scheduler needs the dask extra")
