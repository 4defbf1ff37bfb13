"""The document kind's report drill-down (issue #26 item 4), rendered and loaded in headless
Chromium as the other report tests do: per page, worst first, each truth block beside its
answer block with the characters that differ marked, unmatched and invented blocks marked,
tables drawn with the shared table drawing, the reading order as two numbered lists.

Chromium is Debian's ``chromium`` package; without it this test fails, it is never skipped."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cli_helpers import Cli
from parsescore import evaluate

DATA = Path(__file__).resolve().parents[2] / "src" / "parsescore" / "data" / "document"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def _chromium() -> str:
    path = "/usr/bin/chromium" if Path("/usr/bin/chromium").is_file() else shutil.which("chromium")
    if path is None:
        pytest.fail("headless Chromium is needed: apt-get install -y chromium")
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """model_b's pages, one answer block invented and one truth block dropped, reported."""
    tmp = tmp_path_factory.mktemp("docreport")
    pred = tmp / "pred"
    shutil.copytree(DATA / "model_b", pred)
    page = sorted(pred.glob("*.md"))[0]
    text = page.read_text(encoding="utf-8")
    paragraphs = text.split("\n\n")
    paragraphs.insert(1, "A sentence the model invented about purple elephants.")
    page.write_text("\n\n".join(paragraphs), encoding="utf-8")
    result = evaluate("document", DATA / "truth.json", pred, name="model_b", quiet=True)
    envelope = tmp / "result.json"
    result.write(envelope)
    return envelope, page.stem


def test_drilldown_in_chromium(report: tuple[Path, str], cli: Cli, tmp_path: Path) -> None:
    envelope, edited = report
    run = cli("report", envelope, "--out", tmp_path / "report")
    assert run.code == 0, run.err
    page = tmp_path / "report" / "index.html"
    done = subprocess.run(
        [_chromium(), *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr",
         "--v=0", "--dump-dom", page.resolve().as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert [line for line in done.stderr.splitlines() if ":CONSOLE" in line] == []
    dom = done.stdout
    assert 'class="document-kind"' in dom
    # every page has its drill-down, worst text edit first
    result = evaluate("document", DATA / "truth.json", DATA / "model_b", quiet=True)
    names = re.findall(r'<details class="item"[^>]*><summary><span class="item-name">([^<]+)',
                       dom)  # fmt: skip
    assert sorted(names) == sorted(result.items)
    # truth beside answer with the differing characters marked
    assert "<del>" in dom and "<ins>" in dom
    # the invented block and the blocks the answer lacks are marked
    assert '<tr class="invented">' in dom and "purple elephants" in dom
    # the tables drawn by the shared drawing (model_b's LaTeX table is emptied, as v1.5 does:
    # every truth cell deleted)
    tables = sum(len(detail.get("tables", [])) for detail in result.details.values())
    assert tables >= 1 and dom.count('data-drawing="table"') == tables
    assert '<td class="del" rowspan="2">Model</td>' in dom
    # the reading order as two numbered lists
    assert dom.count('class="pair reading-order"') == len(result.items)
    assert "<h5>Truth order</h5><ol><li>" in dom and "<h5>Answer order</h5><ol><li>" in dom
    assert edited in " ".join(names)
