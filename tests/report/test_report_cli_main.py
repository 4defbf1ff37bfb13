"""``parsescore report`` through the real console entry point, on a demo run."""

from __future__ import annotations

from pathlib import Path

from cli_helpers import Cli


def test_demo_writes_the_html_report_and_report_command_reads_its_results(
    tmp_path: Path, cli: Cli
) -> None:
    result = cli("demo", "--out", tmp_path / "demo")
    assert result.code == 0, result.err
    page = (tmp_path / "demo" / "report" / "index.html").read_text(encoding="utf-8")
    for kind in ("flowchart", "table", "sequence", "graph"):
        assert kind in page.lower()
    assert "report/index.html" in (tmp_path / "demo" / "index.md").read_text()

    result = cli(
        "report",
        tmp_path / "demo" / "flowchart" / "scores.json",
        tmp_path / "demo" / "table" / "scores.json",
        "--out",
        tmp_path / "again",
    )
    assert result.code == 0, result.err
    again = (tmp_path / "again" / "index.html").read_text(encoding="utf-8")
    assert (
        "<script src=" not in again and "https://" not in again.split("Content-Security-Policy")[0]
    )
