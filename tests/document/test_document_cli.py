"""The document kind end to end: the CLI, the summary from a loaded envelope, page lookup, page
filters and bad input (one-line errors, unreadable pages listed, nothing else stopped)."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from document_cases import PAGES, write_cases
from rich.console import Console

from cli_helpers import Cli
from parsescore import evaluate, load_result
from parsescore.core.errors import InputError
from parsescore.document.present import summarise


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    write_cases(tmp_path)
    return tmp_path


def test_cli_writes_omnidocbench_document_and_envelope(cli: Cli, cases: Path) -> None:
    out, envelope = cases / "out.json", cases / "result.json"
    run = cli("document", "--truth", cases / "truth.json", "--pred", cases / "pred" / "noisy",
              "--out", out, "--result", envelope)  # fmt: skip
    assert run.code == 0, run.out + run.err
    golden = Path(__file__).parent / "golden" / "noisy" / "metric_result.json"
    assert json.loads(out.read_text()) == json.loads(golden.read_text())
    assert "Text Edit_dist (page avg)" in (run.out + run.err) and "not computed: CDM" in (
        run.out + run.err
    )
    loaded = load_result(envelope)
    assert loaded.totals == evaluate("document", cases / "truth.json", cases / "pred" / "noisy",
                                     quiet=True).totals  # fmt: skip


def test_summary_from_loaded_envelope_is_the_runs(cases: Path, tmp_path: Path) -> None:
    result = evaluate("document", cases / "truth.json", cases / "pred" / "missing_empty")
    path = tmp_path / "envelope.json"
    result.write(path)

    def text(r: object) -> str:
        buffer = io.StringIO()
        summarise(r, Console(file=buffer, width=100))  # type: ignore[arg-type]
        return buffer.getvalue()

    assert text(result) == text(load_result(path, name=result.name))
    assert result.dataset["skipped"] == ["paper_physics_7.png", "slides_agile.pdf_2.jpg"]


def test_native_document_reads_back(cases: Path, tmp_path: Path) -> None:
    result = evaluate("document", cases / "truth.json", cases / "pred" / "perfect")
    path = tmp_path / "perfect_quick_match_metric_result.json"
    path.write_text(json.dumps(result.native))
    assert load_result(path).totals == {k: v for k, v in result.totals.items()
                                        if k not in ("pages", "text_edit_pooled")}  # fmt: skip


def test_page_lookup_names(cases: Path) -> None:
    result = evaluate("document", cases / "truth.json", cases / "pred" / "alternative_names")
    assert sorted(result.dataset["files"].values()) == sorted(
        p.name for p in (cases / "pred" / "alternative_names").iterdir()
    )
    assert not result.dataset["skipped"]


def test_filters_and_bad_filter(cases: Path) -> None:
    result = evaluate("document", cases / "truth.json", cases / "pred" / "perfect",
                      filter=("language=simplified_chinese",))  # fmt: skip
    assert list(result.items) == ["notes_zh_5.jpg"]
    with pytest.raises(InputError, match="KEY=VALUE"):
        evaluate("document", cases / "truth.json", cases / "pred" / "perfect", filter=("x",))


@pytest.mark.parametrize(
    ("truth", "message"),
    [
        ("{}", "expected a JSON array of pages"),
        ("[1]", "(page 0): expected an object"),
        ('[{"page_info": {}}]', "page_info.image_path"),
        (
            '[{"page_info": {"image_path": "a.jpg"}, "layout_dets": [{"category_type": '
            '"text_block", "anno_id": 1}]}]',
            "needs 'text'",
        ),
        ("[", "not JSON"),
    ],
)
def test_bad_truth_is_one_line(cli: Cli, cases: Path, truth: str, message: str) -> None:
    path = cases / "bad.json"
    path.write_text(truth)
    run = cli("document", "--truth", path, "--pred", cases / "pred" / "perfect")
    assert (
        run.code == 2 and message in (run.out + run.err) and "Traceback" not in (run.out + run.err)
    )
    assert str(path) in (run.out + run.err)


def test_bad_pages_are_listed_and_the_rest_scored(cases: Path) -> None:
    pred = cases / "pred" / "perfect"
    image = [p["page_info"]["image_path"] for p in PAGES]
    (pred / (image[0][:-4] + ".md")).write_bytes(b"caf\xe9 au lait\n")
    (pred / (image[1][:-4] + ".md")).write_text("x" * 1_000_001)
    (pred / (image[2][:-4] + ".md")).write_text("$$ unbalanced\n\n" * 500 + "$$x$$")
    (pred / (image[3][:-4] + ".md")).write_text(
        '<table><tr><td rowspan="999999999" colspan="999999">a</td></tr></table>\n'
    )
    start = time.perf_counter()
    result = evaluate("document", cases / "truth.json", pred)
    assert time.perf_counter() - start < 60
    unreadable = result.dataset["unreadable"]
    assert "not UTF-8" in unreadable[image[0]] and "--max-chars" in unreadable[image[1]]
    assert image[2] in result.items and image[3] in result.items
    assert len(result.items) == 5
    with pytest.raises(InputError, match="not UTF-8"):
        evaluate("document", cases / "truth.json", pred, strict=True)


def test_demo(tmp_path: Path) -> None:
    from parsescore.document.demo import run_demo

    output = run_demo(tmp_path)
    assert "## Document" in output.section and len(output.results) == 2
    assert (tmp_path / "scores.model_a.json").is_file()  # the one naming of every demo
