"""docs/kinds.md, "Add a format": the example is run exactly as written there (its code block is
executed), and the toy format then reads, scores and shows like a built-in one — through
``evaluate``, ``read_table``, a folder read by extension, and the CLI — and only inside the
``with`` block."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import parsescore
from cli_helpers import Cli
from parsescore.core.errors import InputError
from parsescore.core.kinds import get_kind, kind_names, replaced
from parsescore.table import read_table, with_format

DOCS = Path(__file__).resolve().parents[2] / "docs" / "kinds.md"


def _example() -> str:
    """The Python block of the docs' "Add a format" section."""
    section = DOCS.read_text(encoding="utf-8").split("## Add a format", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None
    return block.group(1)


@pytest.fixture(scope="module")
def example() -> dict[str, Any]:
    names = {"__name__": "docs_add_a_format"}
    exec(compile(_example(), str(DOCS), "exec"), names)  # the docs' own example
    return names


def test_the_docs_example_runs_as_written(example: dict[str, Any]) -> None:
    result = example["result"]
    assert result.options["pred_format"] == "semicolon"
    assert (result.items["week"]["TEDS"], result.items["week"]["GriTS-Con"]) == (
        0.9444444444444444,
        0.875,
    )
    # the toy format scores exactly as the same table written in Markdown
    markdown = {"week": "| Week | Duration (min) |\n|---|---|\n| 1 | 25 |"}
    same = parsescore.evaluate(
        "table", example["truth"], markdown, pred_format="markdown", quiet=True
    )
    assert same.items == result.items
    # outside the with block the built-in kind is back, at its place
    assert "semicolon" not in [f.name for f in get_kind("table").formats]
    assert kind_names().index("table") == 1
    with pytest.raises(InputError, match="option 'pred_format' must be one of"):
        parsescore.evaluate("table", example["truth"], example["answers"], pred_format="semicolon")


def test_the_toy_format_is_a_format_like_the_others(
    example: dict[str, Any], tmp_path: Path, cli: Cli
) -> None:
    truth = tmp_path / "truth.json"
    truth.write_text(json.dumps(example["truth"]))
    answers = tmp_path / "answers"
    answers.mkdir()
    (answers / "week.scsv").write_text("Week;Duration (min)\n1;20\n")
    with replaced(with_format(example["SEMICOLON"])):
        grid = read_table("a;b\n1;2", "semicolon")
        assert grid.format == "semicolon" and grid.html.startswith("<html><body><table><thead>")
        by_extension = parsescore.evaluate("table", truth, answers, pred_format="auto", quiet=True)
        assert by_extension.items["week"]["TEDS"] == 1.0
        assert by_extension.details["week"]["formats"] == {"truth": "html", "pred": "semicolon"}
        run = cli("table", "--truth", truth, "--pred", answers, "--pred-format", "semicolon")
        assert run.code == 0, run.err
        assert "semicolon" in cli("table", "--help").out
        empty = parsescore.evaluate("table", truth, {"week": "\n"}, pred_format="semicolon")
        assert "no rows" in empty.dataset["unreadable"]["week"]  # the reader's InputError
    assert cli("table", "--truth", truth, "--pred", answers, "--pred-format", "semicolon").code == 2
