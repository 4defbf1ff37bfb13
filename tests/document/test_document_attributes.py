"""Pages' attributes (issue #25): OmniDocBench's ``page_attribute`` fields are item attributes, and
``--by FIELD`` gives each value the totals of scoring only its pages — the compat numbers
(``Dataset``-aggregated) recomputed on the subset — checked against ``--filter`` runs, against
OmniDocBench's own filtered run (golden ``filter_language_english``) and against the page
breakdowns OmniDocBench writes in every ``metric_result.json`` (its ``page`` sections)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from document_cases import CASES, write_cases

from parsescore import evaluate
from parsescore.core.results import result_from_json
from parsescore.document.dataset import totals_of

GOLDEN = Path(__file__).parent / "golden"
FIELDS = ("data_source", "language", "layout")
#: Our totals and the page section of OmniDocBench's element that computes the same statistic
#: (a mean over pages of each page's pooled edit distance). Its page TEDS is a mean over pages
#: of each page's mean TEDS, not our table_teds (a mean over tables): not compared.
SAME_STATISTIC = {
    "text_edit": "text_block",
    "formula_edit": "display_formula",
    "table_edit": "table",
    "reading_order_edit": "reading_order",
}


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_cases(tmp_path_factory.mktemp("cases"))


def _truth(folders: dict[str, Path]) -> Path:
    return folders["perfect"].parent.parent / "truth.json"


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def test_pages_carry_their_attributes(folders: dict[str, Path]) -> None:
    result = evaluate("document", _truth(folders), folders["perfect"], quiet=True)
    truth = json.loads(_truth(folders).read_text(encoding="utf-8"))
    for page in truth:
        image = Path(page["page_info"]["image_path"]).name
        attributes = page["page_info"]["page_attribute"]
        assert result.attributes[image]["language"] == attributes["language"]
        issues = attributes.get("special_issue") or []
        assert result.attributes[image].get("special_issue") == ("+".join(issues) or None)


@pytest.mark.parametrize("case", ["perfect", "noisy", "shuffled", "dropped"])
def test_by_equals_scoring_the_subset(folders: dict[str, Path], case: str) -> None:
    truth = _truth(folders)
    result = evaluate("document", truth, folders[case], by=FIELDS, quiet=True)
    for field in FIELDS:
        for value, totals in result.dataset["breakdown"][field].items():
            subset = evaluate(
                "document", truth, folders[case], filter=(f"{field}={value}",), quiet=True
            )
            assert totals.pop("items") == len(subset.items)
            # every compat number breaks down (the core leaves out a pooled number whose
            # pages carry no counts, where the whole run gives it its empty value)
            assert set(totals_of(subset.native)) <= set(totals), (field, value)
            for name, number in totals.items():
                assert _same(number, subset.totals[name]), (field, value, name)


def test_by_language_is_omnidocbenchs_filtered_run(folders: dict[str, Path]) -> None:
    result = evaluate("document", _truth(folders), folders["perfect"], by=("language",),
                      quiet=True)  # fmt: skip
    golden = json.loads((GOLDEN / "filter_language_english" / "metric_result.json").read_text())
    expected = totals_of(golden)
    english = result.dataset["breakdown"]["language"]["english"]
    assert expected
    for name, number in expected.items():
        assert _same(english[name], number), name


@pytest.mark.parametrize("case", CASES)
def test_by_matches_omnidocbenchs_page_breakdowns(folders: dict[str, Path], case: str) -> None:
    result = evaluate("document", _truth(folders), folders[case], by=FIELDS, quiet=True)
    golden = json.loads((GOLDEN / case / "metric_result.json").read_text(encoding="utf-8"))
    compared = 0
    for field in FIELDS:
        for value, totals in result.dataset["breakdown"][field].items():
            for name, element in SAME_STATISTIC.items():
                page = golden[element].get("page", {}).get("Edit_dist", {})
                theirs = page.get(f"{field}: {value}")
                if theirs is None or name not in totals:
                    continue
                # the same statistic summed in another order: equal to the last few bits
                assert totals[name] == pytest.approx(theirs, rel=1e-12, abs=1e-15), (
                    field, value, name)  # fmt: skip
                compared += 1
    assert compared >= 10


def test_breakdown_survives_the_envelope(folders: dict[str, Path]) -> None:
    result = evaluate("document", _truth(folders), folders["noisy"], by=("language",),
                      quiet=True)  # fmt: skip
    back = result_from_json(json.loads(json.dumps(result.to_json())))
    assert back.dataset["breakdown"] == result.dataset["breakdown"]
    assert back.attributes == result.attributes
