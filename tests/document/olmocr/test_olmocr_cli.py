"""olmOCR-bench truth end to end: the command and its --out document, the envelope read back,
the parsescore profile (no whole-candidate zeroing, exact page file names, a page bootstrap
interval), --jobs, and bad test files as one-line errors."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from rich.console import Console

from cli_helpers import Cli
from parsescore import evaluate, load_result
from parsescore.cli.terminal import FittingConsole
from parsescore.core.errors import InputError
from parsescore.document.present import summarise

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from olmocr_cases import write_cases  # noqa: E402


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("olmocr_cli")
    write_cases(root)
    return root


def _golden(name: str) -> dict[str, object]:
    return json.loads((HERE / "golden" / f"{name}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_cli_out_is_the_native_document(cli: Cli, cases: Path, tmp_path: Path) -> None:
    out, envelope = tmp_path / "out.json", tmp_path / "result.json"
    run = cli("document", "--truth", cases / "types", "--pred", cases / "types" / "good",
              "--truth-format", "olmocr-bench", "--out", out, "--result", envelope)  # fmt: skip
    assert run.code == 0, run.out + run.err
    document = json.loads(out.read_text())
    assert set(document) == {"tests", "groups", "overall", "types"}
    golden = _golden("types__good")
    assert document["overall"] == pytest.approx(golden["overall"], abs=1e-9)
    assert {k: v["passed"] for k, v in document["tests"].items()} == {
        k: v["passed"]
        for k, v in golden["tests"].items()  # type: ignore[attr-defined]
    }
    assert "overall (mean over files)" in run.out + run.err
    loaded = load_result(envelope)
    assert loaded.totals["olmocr_overall"] == pytest.approx(golden["overall"], abs=1e-9)
    buffer = io.StringIO()
    summarise(loaded, Console(file=buffer, width=120))
    assert "file text.jsonl" in buffer.getvalue()


def test_failed_candidate_has_failed_and_errors(cases: Path) -> None:
    native = evaluate("document", cases / "repeats", cases / "repeats" / "missing_pdf",
                      truth_format="olmocr-bench", quiet=True).native  # fmt: skip
    assert native is not None and native["failed"] is True and native["errors"]
    assert native["overall"] == 0.0 and set(native["groups"].values()) == {0.0}


def test_parsescore_profile_scores_the_rest(cases: Path) -> None:
    """A PDF without files fails its own tests only; an unreadable repeat fails that repeat."""
    missing = evaluate("document", cases / "repeats", cases / "repeats" / "missing_pdf",
                       truth_format="olmocr-bench", profile="parsescore", quiet=True)  # fmt: skip
    tests = missing.native["tests"]  # type: ignore[index]
    assert "failed" not in missing.native  # type: ignore[operator]
    assert tests["be_1"] == {"fraction": 0.0, "passed": False}
    assert tests["al_1"]["passed"] and tests["ga_1"]["passed"]
    assert missing.totals["olmocr_overall"] > 0
    interval = missing.dataset["interval"]
    assert interval["low"] <= missing.totals["olmocr_tests_passed"] <= interval["high"]
    bad = evaluate("document", cases / "repeats", cases / "repeats" / "unreadable_repeat",
                   truth_format="olmocr-bench", profile="parsescore", quiet=True)  # fmt: skip
    assert bad.native["tests"]["al_1"] == {"fraction": 0.5, "passed": False}  # type: ignore[index]
    # the page-2 test of delta_pg2.pdf has no page-2 file: it fails (compat reads page 1's)
    compat = evaluate("document", cases / "repeats", cases / "repeats" / "two_one_pass",
                      truth_format="olmocr-bench", quiet=True).native  # fmt: skip
    fixed = evaluate("document", cases / "repeats", cases / "repeats" / "two_one_pass",
                     truth_format="olmocr-bench", profile="parsescore",
                     quiet=True).native  # fmt: skip
    assert compat["tests"]["de_2"]["passed"] and not fixed["tests"]["de_2"]["passed"]  # type: ignore[index]


def test_jobs_give_the_same_document(cases: Path) -> None:
    one = evaluate("document", cases / "types", cases / "types" / "markup_soup",
                   truth_format="olmocr-bench", quiet=True)  # fmt: skip
    two = evaluate("document", cases / "types", cases / "types" / "markup_soup",
                   truth_format="olmocr-bench", quiet=True, jobs=2)  # fmt: skip
    assert one.native == two.native and one.items == two.items


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"pdf": "a.pdf", "page": 1, "id": "x", "type": "nope"}', "unknown test type"),
        ('{"pdf": "a.pdf", "page": 1, "id": "x", "type": "present"}', "needs 'text'"),
        (
            '{"pdf": "a.pdf", "page": 1, "id": "x", "type": "present", "text": "a", "y": 1}',
            "no field 'y'",
        ),
        (
            '{"pdf": "a.pdf", "page": 1, "id": "x", "type": "present", "text": "  "}',
            "cannot be empty",
        ),
        (
            '{"pdf": "a.pdf", "page": 1, "id": "x", "type": "order", "before": "ab",'
            ' "after": "cd", "max_diffs": 2}',
            "more than half",
        ),
        ('{"pdf": "a.pdf", "page": "1", "id": "x", "type": "baseline"}', "page must be"),
        (
            '{"pdf": "a.pdf", "page": 1, "id": "x", "type": "footnote", "marker": "a b"}',
            "whitespace",
        ),
        ("{not json", "not JSON"),
    ],
)
def test_bad_test_line_is_one_clear_error(tmp_path: Path, line: str, message: str) -> None:
    (tmp_path / "pdfs").mkdir()
    (tmp_path / "pdfs" / "a.pdf").write_bytes(b"%PDF-1.4\n")
    (tmp_path / "t.jsonl").write_text('{"pdf": "a.pdf", "page": 1, "id": "ok", "type": '
                                      '"present", "text": "a"}\n' + line + "\n")  # fmt: skip
    (tmp_path / "cand").mkdir()
    with pytest.raises(InputError, match=message) as caught:
        evaluate("document", tmp_path, tmp_path / "cand", truth_format="olmocr-bench")
    assert "t.jsonl (line 2" in str(caught.value)


def test_missing_pdfs_folder_and_duplicate_ids(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_text('{"pdf": "a.pdf", "page": 1, "id": "x", "type": '
                                      '"baseline"}\n')  # fmt: skip
    with pytest.raises(InputError, match="no pdfs/ folder"):
        evaluate("document", tmp_path, tmp_path, truth_format="olmocr-bench")
    (tmp_path / "pdfs").mkdir()
    (tmp_path / "pdfs" / "a.pdf").write_bytes(b"%PDF-1.4\n")
    (tmp_path / "u.jsonl").write_text('{"pdf": "a.pdf", "page": 1, "id": "x", "type": '
                                      '"baseline"}\n')  # fmt: skip
    with pytest.raises(InputError, match=r"also in t\.jsonl"):
        evaluate("document", tmp_path, tmp_path, truth_format="olmocr-bench")


def test_out_document_reads_back_and_validates(cli: Cli, cases: Path, tmp_path: Path) -> None:
    """The --out scores document is a result load_result, compare and report take (totals: the
    overall and per-type scores), and it validates against the kind's and `any`'s schema."""
    from parsescore.core.schema import validate

    out = tmp_path / "scores.json"
    run = cli("document", "--truth", cases / "types", "--pred", cases / "types" / "good",
              "--truth-format", "olmocr-bench", "--out", out)  # fmt: skip
    assert run.code == 0, run.out + run.err
    document = json.loads(out.read_text())
    validate(document, "document")
    validate(document, "any")
    loaded = load_result(out)
    assert loaded.kind == "document" and loaded.items == {}
    assert loaded.totals["olmocr_overall"] == document["overall"]
    for name, value in document["types"].items():
        assert loaded.totals[f"olmocr_{name}"] == value
    assert loaded.dataset["groups"] == document["groups"]
    assert loaded.dataset["tests"] == len(document["tests"])
    buffer = io.StringIO()
    summarise(loaded, Console(file=buffer, width=120))
    assert "overall" in buffer.getvalue()
    report = cli("report", out, "--out", tmp_path / "report")
    assert report.code == 0, report.out + report.err
    assert (tmp_path / "report" / "index.html").is_file()
    broken = dict(document, overall="high")
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    with pytest.raises(InputError, match="overall"):
        load_result(tmp_path / "broken.json")


def test_summary_prints_a_failed_candidates_names_and_errors_as_written(cases: Path) -> None:
    """The system's name and olmOCR-bench's errors (texts of the test files and answers) hold
    ``[/x]``, ``[bold]`` or ``:fire:`` as written: rich would stop on the close tag or change
    the text."""
    hostile = "[/x][bold]h:fire:"
    result = evaluate("document", cases / "repeats", cases / "repeats" / "missing_pdf",
                      truth_format="olmocr-bench", quiet=True, name=f"model{hostile}")  # fmt: skip
    errors = result.dataset["errors"]
    errors[0] = errors[0] + hostile
    buffer = io.StringIO()
    summarise(result, FittingConsole(file=buffer, width=400))  # the commands' console
    shown = buffer.getvalue()
    assert f"model{hostile}:" in shown and errors[0] in shown
    assert "\N{FIRE}" not in shown
