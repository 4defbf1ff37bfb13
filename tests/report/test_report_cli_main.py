"""``parsescore report`` through the real console entry point, on a demo run."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsescore.cli import main


def test_demo_writes_the_html_report_and_report_command_reads_its_results(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as info:
        main(["demo", "--out", str(tmp_path / "demo")])
    assert info.value.code in (0, None)
    page = (tmp_path / "demo" / "report" / "index.html").read_text(encoding="utf-8")
    for kind in ("flowchart", "table", "sequence", "graph"):
        assert kind in page.lower()
    assert "report/index.html" in (tmp_path / "demo" / "index.md").read_text()

    with pytest.raises(SystemExit) as info:
        main(
            [
                "report",
                str(tmp_path / "demo" / "flowchart" / "result.json"),
                str(tmp_path / "demo" / "table" / "results.json"),
                "--out",
                str(tmp_path / "again"),
            ]
        )
    assert info.value.code in (0, None)
    again = (tmp_path / "again" / "index.html").read_text(encoding="utf-8")
    assert (
        "<script src=" not in again and "https://" not in again.split("Content-Security-Policy")[0]
    )
