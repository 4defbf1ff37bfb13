"""Bad input to the document kind (issue #26 item 8): truth of the wrong shape is one line naming
the file and the place; a page that cannot be scored (too long on either side, not UTF-8,
unbalanced tags) is listed and the rest scored; hostile Markdown is split in time linear in its
size."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from document_cases import PAGES, write_cases

from cli_helpers import Cli
from parsescore import evaluate
from parsescore.document.split import split_page


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    write_cases(tmp_path)
    return tmp_path


def _with(change: Callable[[list[dict[str, Any]]], None]) -> str:
    pages = copy.deepcopy(PAGES)
    change(pages)
    return json.dumps(pages)


def _relation(pages: list[dict[str, Any]], relation: Any) -> None:
    pages[1].setdefault("extra", {})["relation"] = [relation]


MISSING = {"relation_type": "truncated", "source_anno_id": -5, "target_anno_id": -6}
BAD_TRUTH = [
    ('{"pages": []}', "expected a JSON array of pages"),
    (_with(lambda p: p[0].pop("layout_dets")), "(page 0): expected layout_dets"),
    (_with(lambda p: p[0]["layout_dets"].append(7)), "layout_dets["),
    (_with(lambda p: p[0]["layout_dets"][0].update(order="first")), "expected order"),
    (_with(lambda p: p[2]["page_info"].update(page_attribute=[])), "page_attribute"),
    (_with(lambda p: p[3].update(extra={"relation": {}})), "extra.relation"),
    (_with(lambda p: _relation(p, "truncated")), "extra.relation[0]"),
    (_with(lambda p: _relation(p, MISSING)), "anno_id of no block"),
    (_with(lambda p: p.append(p[0])), "is also page 0"),
]


@pytest.mark.parametrize(("truth", "message"), BAD_TRUTH)
def test_bad_truth_is_one_line(cli: Cli, cases: Path, truth: str, message: str) -> None:
    path = cases / "bad.json"
    path.write_text(truth, encoding="utf-8")
    run = cli("document", "--truth", path, "--pred", cases / "pred" / "perfect")
    text = run.out + run.err
    assert run.code == 2 and message in text and "Traceback" not in text, text
    assert str(path) in text
    assert len([line for line in run.err.splitlines() if line.startswith("error:")]) == 1


def test_a_huge_truth_page_is_listed_not_scored(cases: Path) -> None:
    pages = copy.deepcopy(PAGES)
    block = next(b for b in pages[0]["layout_dets"] if isinstance(b.get("text"), str))
    block["text"] = "lorem ipsum " * 100_000
    truth = cases / "huge.json"
    truth.write_text(json.dumps(pages), encoding="utf-8")
    start = time.process_time()
    result = evaluate("document", truth, cases / "pred" / "perfect", quiet=True)
    assert time.process_time() - start < 30
    image = pages[0]["page_info"]["image_path"]
    assert "more than --max-chars 200000" in result.dataset["unreadable"][image]
    assert image not in result.items and len(result.items) == len(PAGES) - 1


def test_unbalanced_tables_are_listed(cases: Path) -> None:
    pred = cases / "pred" / "perfect"
    image = PAGES[0]["page_info"]["image_path"]
    (pred / (image[:-4] + ".md")).write_text("<table>" * 5000, encoding="utf-8")
    result = evaluate("document", cases / "truth.json", pred, quiet=True)
    assert "unclosed <table> tags" in result.dataset["unreadable"][image]
    assert len(result.items) == len(PAGES) - 1


HOSTILE = {
    "unbalanced $$": lambda n: "$$ a " * n,
    "unclosed \\[": lambda n: "\\[ x " * n,
    "unclosed \\(": lambda n: "\\( x " * n,
    "pipes without end": lambda n: "| a " * n,
    "pipe table": lambda n: "|a|b|\n|---|---|\n" + "|x|y|\n" * n,
    "unclosed images": lambda n: "![a](b " * n,
    "unclosed \\title{": lambda n: "\\title{ " * n,
    "unclosed \\section*{": lambda n: "\\section*{ " * n,
    "unclosed code fences": lambda n: "```py\nx\n" * n,
    "unclosed LaTeX tables": lambda n: "\\begin{table} " * n,
    "paragraphs": lambda n: "some words\n\n" * n,
}


def _cpu(text: str) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        split_page(text)
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize("name", list(HOSTILE))
def test_splitting_time_is_linear_in_size(name: str) -> None:
    """Four times the text costs about four times the time (quadratic would be sixteen)."""
    make = HOSTILE[name]
    small, large = make(2_500), make(10_000)
    assert len(large) >= 3.9 * len(small) - 40
    t_small, t_large = _cpu(small), _cpu(large)
    assert t_large < 0.5 or t_large < 8 * max(t_small, 1e-3), (t_small, t_large)
    assert t_large < 5
