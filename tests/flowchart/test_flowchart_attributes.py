"""The flowchart kind's item attribute ``nodes``: bins of the truth's node count (its first
option), on the bundled data — each bin's totals are those of scoring its flowcharts alone,
compared per bin, carried by the envelope, and read back from ``--out`` for the flowcharts
scored against their first option."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import parsescore
from attribute_checks import (
    check_breakdown_is_the_subsets_totals,
    check_compare_by,
    check_envelope_round_trip,
    native_round_trip,
)
from parsescore.core.results import Result

DATA = Path(parsescore.__file__).resolve().parent / "data" / "flowchart"
TRUTH = DATA / "ground-truth"
PARTS = ("nodes", "labels", "flow", "additional_texts")


def _first_option_nodes(stem: str) -> int:
    doc = json.loads((TRUTH / "nodes" / f"{stem}.json").read_text(encoding="utf-8"))
    return len(doc["options"][0]["nodes"])


def _expected_bin(nodes: int) -> str:
    """The documented bins (docs/flowchart.md), written out here."""
    for low, high in ((1, 10), (11, 20), (21, 30), (31, 50)):
        if low <= max(nodes, 1) <= high:
            return f"{low}-{high}"
    return ">50"


def _option(stem: str, part: str) -> dict:
    doc = json.loads((TRUTH / part / f"{stem}.json").read_text(encoding="utf-8"))
    return doc["options"][0]


@pytest.fixture(scope="module")
def first_options(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A second system: every flowchart answered as its truth's first option reads."""
    folder = tmp_path_factory.mktemp("first_options")
    for path in sorted((TRUTH / "nodes").glob("*.json")):
        stem = path.stem
        nodes = _option(stem, "nodes")["nodes"]
        labels = {n["node_number"]: n["labels"] for n in _option(stem, "labels")["nodes"]}
        flow = {n["node_number"]: n["points_to"] for n in _option(stem, "flow")["nodes"]}
        answer = {
            "nodes": [
                {
                    "node_number": n["node_number"],
                    "text": n["text"],
                    "labels": labels[n["node_number"]],
                    "points_to": flow[n["node_number"]],
                }
                for n in nodes
            ],
            "additional_texts": _option(stem, "additional_texts")["additional_texts"],
        }
        (folder / f"{stem}.json").write_text(json.dumps(answer), encoding="utf-8")
    return folder


def _score(pred: Path, truth: Path = TRUTH, **options) -> Result:
    return parsescore.evaluate("flowchart", truth, pred, quiet=True, **options)


def test_each_flowchart_is_in_the_bin_of_its_first_options_nodes() -> None:
    result = _score(DATA / "predictions", by=("nodes",))
    assert set(result.attributes) == set(result.items)
    for stem, values in result.attributes.items():
        assert values == {"nodes": _expected_bin(_first_option_nodes(stem))}, stem
    assert len({v["nodes"] for v in result.attributes.values()}) >= 3
    # example_0's options have 2 and 3 nodes: its bin is its first option's, whichever is chosen
    assert result.native["diagrams"][-1]["stem"] == "example_0"
    assert result.native["diagrams"][-1]["option"] == 1


def test_a_breakdown_is_each_bins_flowcharts_scored_alone(tmp_path: Path) -> None:
    result = _score(DATA / "predictions", by=("nodes",))

    def score_only(items: list[str]) -> Result:
        subset = tmp_path / f"subset{len(list(tmp_path.iterdir()))}"
        for part in PARTS:
            (subset / "truth" / part).mkdir(parents=True)
            for stem in items:
                shutil.copy(TRUTH / part / f"{stem}.json", subset / "truth" / part)
        (subset / "pred").mkdir()
        for stem in items:
            shutil.copy(DATA / "predictions" / f"{stem}.json", subset / "pred")
        return _score(subset / "pred", subset / "truth")

    found = check_breakdown_is_the_subsets_totals(result, "nodes", score_only)
    assert any(v["items"] > 1 for v in found.values())
    assert all("flow_micro_f1" in v and "node_text_cost" in v for v in found.values())


def test_compare_by_nodes_compares_within_each_bin(first_options, tmp_path: Path, cli) -> None:
    a = _score(DATA / "predictions", name="bundled")
    b = _score(first_options, name="first")
    assert b.totals["node_text_cost"] == 0  # the second system reads each first option
    check_compare_by([a, b], "nodes", tmp_path, cli)


def test_the_envelope_carries_them_and_the_out_document_where_it_can(
    first_options, tmp_path: Path
) -> None:
    result = _score(DATA / "predictions", by=("nodes",))
    loaded = check_envelope_round_trip(result, tmp_path)
    assert loaded.dataset["breakdown"] == result.dataset["breakdown"]
    (native,) = native_round_trip(result, tmp_path / "bundled")
    # read back: each flowchart scored against its first option; example_0 was not
    assert native.attributes == {s: v for s, v in result.attributes.items() if s != "example_0"}
    perfect = _score(first_options)
    (native,) = native_round_trip(perfect, tmp_path / "first")
    assert native.attributes == perfect.attributes and len(native.attributes) == 5


@pytest.fixture(autouse=True)
def _folders(tmp_path: Path) -> None:
    for name in ("bundled", "first"):
        (tmp_path / name).mkdir()
