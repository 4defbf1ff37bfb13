"""The sequence kind's item attribute ``lines``: the paper's bins of ground-truth line counts
(Table 1, Figure 6/7), on the MWDI scripts with two deterministic damaged copies as systems —
each bin's pooled rates are those of scoring its files alone, compared per bin, carried by
the envelope and read back from ``--out`` (whose files record ``gt_lines``)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from sequence_helpers import DATA as MWDI

import parsescore
from attribute_checks import (
    check_breakdown_is_the_subsets_totals,
    check_compare_by,
    check_envelope_round_trip,
    native_round_trip,
)
from parsescore.core.results import Result
from parsescore.sequence.report import binned_error_rates

#: The paper's Table 1 ranges (its 50 files go to 100 lines) and the spec's longer ones.
PAPER_BINS = ["1-20", "21-30", "31-40", "41-50", "51-100", ">100"]
ARROW = re.compile(r"-+>")


def _damaged(text: str, every: int) -> str:
    """The script with every ``every``-th arrow line dropped and the message of the next one
    changed: insertions, deletions and substitutions in every file."""
    lines, arrows = [], 0
    for line in text.splitlines():
        if ARROW.search(line) and not line.lstrip().startswith("'"):
            arrows += 1
            if arrows % every == 0:
                continue
            if arrows % every == 1 and ":" in line:
                line = line + " (changed)"
        lines.append(line)
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    source = MWDI
    root = tmp_path_factory.mktemp("mwdi")
    found = {name: root / name for name in ("truth", "a", "b")}
    for folder in found.values():
        folder.mkdir()
    for script in sorted(source.glob("*.puml")):
        text = script.read_text(encoding="utf-8")
        (found["truth"] / script.name).write_text(text, encoding="utf-8")
        (found["a"] / script.name).write_text(_damaged(text, 4), encoding="utf-8")
        (found["b"] / script.name).write_text(_damaged(text, 3), encoding="utf-8")
    return found


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _score(truth: Path, pred: Path, **options) -> Result:
    return parsescore.evaluate("sequence", truth, pred, quiet=True, **options)


def _paper_bin(lines: int) -> str:
    """The bin of the paper's Table 1 (1-20 ... 51-100), else >100, written out here."""
    for low, high in ((1, 20), (21, 30), (31, 40), (41, 50), (51, 100)):
        if low <= max(lines, 1) <= high:
            return f"{low}-{high}"
    return ">100"


def test_each_file_is_in_the_bin_of_its_truth_line_count(folders) -> None:
    result = _score(folders["truth"], folders["a"], by=("lines",))
    assert set(result.attributes) == set(result.items)
    for item, values in result.attributes.items():
        assert values == {"lines": _paper_bin(_lines(folders["truth"] / item))}, item
    present = {v["lines"] for v in result.attributes.values()}
    assert len(present) >= 4
    assert list(result.dataset["breakdown"]["lines"]) == [b for b in PAPER_BINS if b in present]


def test_a_breakdown_is_each_bins_files_scored_alone(folders, tmp_path: Path) -> None:
    result = _score(folders["truth"], folders["a"], by=("lines",))

    def score_only(items: list[str]) -> Result:
        subset = tmp_path / f"subset{len(list(tmp_path.iterdir()))}"
        for side in ("truth", "a"):
            (subset / side).mkdir(parents=True)
            for item in items:
                shutil.copy(folders[side] / item, subset / side / item)
        return _score(subset / "truth", subset / "a")

    found = check_breakdown_is_the_subsets_totals(result, "lines", score_only)
    assert sum(v["items"] for v in found.values()) == len(result.items)
    assert any(v["items"] > 1 for v in found.values())  # bins of several files
    # the pooled error per bin is the paper's Figure 6/7 (as the report draws it)
    lines = {item: result.details[item]["gt_lines"] for item in result.items}
    figure = binned_error_rates(lines, result.counts)
    for value, totals in found.items():
        for category in ("node", "message", "direction"):
            assert totals[f"{category}_error_rate"] == figure[category][value]


def test_compare_by_lines_compares_within_each_bin(folders, tmp_path: Path, cli) -> None:
    a = _score(folders["truth"], folders["a"], name="a")
    b = _score(folders["truth"], folders["b"], name="b")
    check_compare_by([a, b], "lines", tmp_path, cli)


def test_the_envelope_and_the_out_document_carry_them(folders, tmp_path: Path, cli) -> None:
    result = _score(folders["truth"], folders["a"], by=("lines",))
    loaded = check_envelope_round_trip(result, tmp_path)
    assert loaded.dataset["breakdown"] == result.dataset["breakdown"]
    (native,) = native_round_trip(result, tmp_path)
    assert native.attributes == result.attributes
    # a saved --out compares by lines: two of them, on the command line
    _score(folders["truth"], folders["b"]).write_native(tmp_path / "b.json")
    run = cli("compare", tmp_path / "native.json", tmp_path / "b.json", "--by", "lines",
              "--resamples", "100", "--permutations", "100")  # fmt: skip
    assert run.code == 0, run.err
    assert "lines = 1-20" in run.out


def test_a_line_count_that_is_not_one_is_a_clear_error(folders, tmp_path: Path) -> None:
    import json

    from parsescore.core.errors import InputError
    from parsescore.core.results import load_result

    result = _score(folders["truth"], folders["a"])
    doc = result.native
    doc["files"][0]["gt_lines"] = -3
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(InputError, match=r"files\[0\]\.gt_lines\): expected a line count"):
        load_result(path)
