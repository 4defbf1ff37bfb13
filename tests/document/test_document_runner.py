"""Pages go through the core runner (issue #26 item 7): ``--jobs`` and ``--cache`` give exactly
the numbers of one process, and a second run with the cache scores nothing again."""

from __future__ import annotations

from pathlib import Path

import pytest
from document_cases import write_cases

from parsescore import evaluate


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("runner")
    write_cases(root)
    return root


def test_jobs_give_the_same_result(cases: Path) -> None:
    one = evaluate("document", cases / "truth.json", cases / "pred" / "noisy", quiet=True)
    two = evaluate("document", cases / "truth.json", cases / "pred" / "noisy", jobs=2,
                   quiet=True)  # fmt: skip
    assert two.native == one.native
    assert two.items == one.items and two.totals == one.totals and two.details == one.details


def test_cache_reuses_every_page(cases: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
                                 ) -> None:  # fmt: skip
    cache = tmp_path / "cache"
    first = evaluate("document", cases / "truth.json", cases / "pred" / "shuffled", cache=cache)
    assert "0 of" in capfd.readouterr().err
    again = evaluate("document", cases / "truth.json", cases / "pred" / "shuffled", cache=cache)
    err = capfd.readouterr().err
    scored = len(first.items) + len(first.dataset["unreadable"])
    assert f"{scored} of {scored} document items reused, 0 scored" in err
    assert again.native == first.native and again.items == first.items
    # a changed page is scored again, the others reused
    page = next((cases / "pred" / "shuffled").glob("*.md"))
    original = page.read_text(encoding="utf-8")
    try:
        page.write_text(original + "\n\nOne more paragraph.\n", encoding="utf-8")
        evaluate("document", cases / "truth.json", cases / "pred" / "shuffled", cache=cache)
        assert f"{scored - 1} of {scored} document items reused, 1 scored" in capfd.readouterr().err
    finally:
        page.write_text(original, encoding="utf-8")
