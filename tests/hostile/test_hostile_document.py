"""Fuzzing the document kind's Markdown splitter and page matching: whatever the text, the result
is blocks (in order, inside the text) or an InputError — never another exception."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.core.errors import InputError
from parsescore.document.compat import page_record
from parsescore.document.split import split_page

#: Markdown pieces models write, and the delimiters the splitter looks for, to be shuffled.
PIECES = st.sampled_from([
    "$", "$$", "\\[", "\\]", "\\(", "\\)", "|", "|\n", "---", ":", "\n", "\n\n", " ", "a", "é",
    "中", "```", "```py\n", "```markdown\n", "<table>", "</table>", "<tr>", "<td>", "</td>",
    '<td colspan="99999">', "<html>", "<body>", "![", "](", ")", "\\begin{table}",
    "\\end{table}", "\\begin{tabular}", "\\end{tabular}", "\\title{", "\\text {", "}",
    "\\section*{", "\\begin{array}{c}", "\\\\", "\\end{array}", "____", "    ", "\r", "\x00",
])  # fmt: skip
MARKDOWN = st.lists(PIECES, max_size=60).map("".join) | st.text(max_size=200)

DATA = Path(__file__).resolve().parent.parent.parent / "src" / "parsescore" / "data"
TRUTH = json.loads((DATA / "document" / "truth.json").read_text(encoding="utf-8"))


@given(MARKDOWN)
@settings(max_examples=400, deadline=None)
def test_splitter_gives_blocks_or_input_error(text: str) -> None:
    try:
        blocks = split_page(text)
    except InputError:
        return
    starts = [block.start for block in blocks]
    assert starts == sorted(starts)
    for block in blocks:
        assert isinstance(block.content, str) and block.start <= block.end
        assert block.category in ("text_all", "equation_isolated", "html_table", "latex_table")


@given(MARKDOWN, st.integers(min_value=0, max_value=len(TRUTH) - 1))
@settings(max_examples=150, deadline=None)
def test_page_matching_gives_a_record_or_input_error(text: str, index: int) -> None:
    from parsescore.document.tables import teds_score

    try:
        record = page_record(TRUTH[index], text, "page.jpg", teds_score)
    except InputError:
        return
    json.dumps(record)  # what a worker sends back and the cache keeps
