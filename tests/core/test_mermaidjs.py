"""parsescore.shared.mermaidjs: Mermaid's own parser as the optional syntax check of answers,
found in a folder the user names, and one clear line when it cannot run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mermaid_ref import install_dir
from parsescore.shared.mermaidjs import MERMAID_DIR_ENV, MermaidUnavailable, mermaid_syntax


def test_mermaids_verdicts_with_their_lines() -> None:
    found = mermaid_syntax(
        [
            "flowchart TD\n  A --> B\n",
            "---\ntitle: T\n---\nflowchart TD\n  A -->|x|\n  B\n",  # Mermaid counts 2
            "Sure! Here is the flowchart.",
            "sequenceDiagram\n  A->>B: hi\n",
        ],
        install_dir(),
    )
    assert found.version == "12.3.0"
    ok, broken, prose, sequence = found.errors
    assert ok is None and sequence is None
    assert broken is not None and broken.startswith("Parse error: Expecting")
    assert "got 'NEWLINE'" in broken and "\n" not in broken and "line" not in broken
    assert found.lines == (None, 5, None, None)  # counted in the text, front matter included
    assert prose is not None and prose.startswith("No diagram type detected")


def test_the_folder_may_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MERMAID_DIR_ENV, str(install_dir()))
    assert mermaid_syntax(["flowchart LR\n  A --> B"]).errors == (None,)


def test_without_a_folder_node_or_time_it_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(MERMAID_DIR_ENV, raising=False)
    with pytest.raises(MermaidUnavailable, match="no folder with Mermaid's npm package given"):
        mermaid_syntax(["flowchart LR\n  A --> B"])
    with pytest.raises(MermaidUnavailable, match=r"has no node_modules/mermaid \(npm install"):
        mermaid_syntax(["flowchart LR\n  A --> B"], tmp_path)
    with pytest.raises(MermaidUnavailable, match=r"did not finish in 0\.001 s"):
        mermaid_syntax(["flowchart LR\n  A --> B"], install_dir(), timeout=0.001)
    broken = tmp_path / "broken"
    for package in ("mermaid", "jsdom"):
        (broken / "node_modules" / package).mkdir(parents=True)
        (broken / "node_modules" / package / "package.json").write_text("{}")
    with pytest.raises(MermaidUnavailable, match="Mermaid's parser failed in"):
        mermaid_syntax(["flowchart LR\n  A --> B"], broken)
    folder = install_dir()
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(MermaidUnavailable, match="node is not installed"):
        mermaid_syntax(["flowchart LR\n  A --> B"], folder)
