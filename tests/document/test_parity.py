"""The ``omnidocbench`` profile against OmniDocBench v1.5's own outputs (tests/document/README.md):
every value of its ``metric_result.json``, of its per-page edit files and of its per-table TEDS,
exactly."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from document_cases import CASES, write_cases

from parsescore import evaluate

GOLDEN = Path(__file__).parent / "golden"
RUNS = [(case, case, ()) for case in CASES] + [
    ("filter_language_english", "perfect", ("language=english",))
]


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_cases(tmp_path_factory.mktemp("cases"))


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return (type(a) is type(b) and a == b) or (
        isinstance(a, int | float)
        and isinstance(b, int | float)
        and a == b
        and not isinstance(a, bool)
    )


@pytest.mark.parametrize(("golden", "case", "filters"), RUNS, ids=[r[0] for r in RUNS])
def test_metric_result_is_omnidocbenchs(
    folders: dict[str, Path], golden: str, case: str, filters: tuple[str, ...]
) -> None:
    root = folders[case].parent.parent
    result = evaluate("document", root / "truth.json", folders[case], filter=filters, quiet=True)
    expected = json.loads((GOLDEN / golden / "metric_result.json").read_text(encoding="utf-8"))
    assert _same(result.native, expected), json.dumps(result.native, indent=1)[:3000]
    skipped = json.loads((GOLDEN / golden / "skipped.json").read_text(encoding="utf-8"))
    assert [f"!!!WARNING: No prediction for {p}" for p in result.dataset["skipped"]] == skipped
    # the per-page values are OmniDocBench's per_page_edit files
    for element, metric in (
        ("text_block", "text_edit"),
        ("display_formula", "formula_edit"),
        ("table", "table_edit"),
        ("reading_order", "reading_order_edit"),
    ):
        path = GOLDEN / golden / f"{element}_per_page_edit.json"
        if not path.exists():
            continue
        per_page = json.loads(path.read_text(encoding="utf-8"))
        ours = {p: v[metric] for p, v in result.items.items() if metric in v}
        assert ours == {k: v for k, v in per_page.items() if v == v}, element
    # every matched sample as OmniDocBench lists it
    for element in ("text_block", "display_formula", "table"):
        samples = json.loads((GOLDEN / golden / f"{element}_result.json").read_text("utf-8"))
        ours = result.computed[element]
        assert len(ours) == len(samples), element
        for mine, theirs in zip(ours, samples, strict=True):
            for key in (
                "gt",
                "pred",
                "norm_gt",
                "norm_pred",
                "gt_idx",
                "pred_idx",
                "edit",
                "gt_category_type",
                "pred_category_type",
                "gt_position",
                "pred_position",
                "metric",
            ):
                assert _same(json.loads(json.dumps(mine.get(key))), theirs.get(key)), (
                    element,
                    key,
                    mine.get(key),
                    theirs.get(key),
                )
