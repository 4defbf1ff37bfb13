"""The graph kind's item attribute ``class``: a document's dominant class in a dataset (the most
truth nodes, ties to the first in name order), a node item's own class in one document — each
class's totals are those of scoring its documents alone, compared per class, carried by the
envelope and read back from ``--out`` (eval.json holds the counts they come from)."""

from __future__ import annotations

import shutil
from collections import Counter
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

DATA = Path(__file__).parent / "data"
DATASET = DATA / "dataset"
TEMPLATE = f"{DATA / 'library_template.py'}:Library"
BUNDLED = Path(parsescore.__file__).resolve().parent / "data" / "graph"


def _score(truth: Path, pred: Path, **options) -> Result:
    return parsescore.evaluate("graph", truth, pred, template=TEMPLATE, quiet=True, **options)


def _dominant_from_the_converted_truth(path: Path) -> str:
    """The class with the most nodes in the truth graph the converter builds (not eval.json's
    counts); ties to the first in name order."""
    from parsescore.graph.io import read_instance

    graph = read_instance(path.read_text(encoding="utf-8"), path, template=TEMPLATE)
    counts = Counter(node.get("__class__") or node.get("label") for node in graph.nodes)
    return min(counts, key=lambda name: (-counts[name], name))


def test_a_documents_class_is_its_truths_dominant_class() -> None:
    result = _score(DATASET / "truth", DATASET / "pred", by=("class",))
    assert set(result.attributes) == set(result.items)
    for item, values in result.attributes.items():
        assert values == {
            "class": _dominant_from_the_converted_truth(DATASET / "truth" / f"{item}.json")
        }
    assert len({v["class"] for v in result.attributes.values()}) >= 3
    assert "harbour" in result.dataset["missing"]  # a missing answer keeps its truth's class


def test_a_breakdown_is_each_class_documents_scored_alone(tmp_path: Path) -> None:
    result = _score(DATASET / "truth", DATASET / "pred", by=("class",))

    def score_only(items: list[str]) -> Result:
        subset = tmp_path / f"subset{len(list(tmp_path.iterdir()))}"
        for side in ("truth", "pred"):
            (subset / side).mkdir(parents=True)
            for item in items:
                if (DATASET / side / f"{item}.json").exists():
                    shutil.copy(DATASET / side / f"{item}.json", subset / side)
                else:  # a missing answer scores as an empty graph: say so, alone
                    (subset / side / f"{item}.json").write_text('{"nodes": [], "edges": []}')
        return _score(subset / "truth", subset / "pred")

    found = check_breakdown_is_the_subsets_totals(result, "class", score_only)
    assert any(v["items"] > 1 for v in found.values())
    assert all("node_strict_f1" in v and "edge_strict_f1" in v for v in found.values())


def test_compare_by_class_compares_within_each_class(tmp_path: Path, cli) -> None:
    aligned = _score(DATASET / "truth", DATASET / "pred", name="aligned")
    off = _score(DATASET / "truth", DATASET / "pred", name="off", structural_align="off")
    check_compare_by([aligned, off], "class", tmp_path, cli)


def test_the_envelope_and_the_out_document_carry_them(tmp_path: Path) -> None:
    result = _score(DATASET / "truth", DATASET / "pred", by=("class",))
    loaded = check_envelope_round_trip(result, tmp_path)
    assert loaded.dataset["breakdown"] == result.dataset["breakdown"]
    (native,) = native_round_trip(result, tmp_path)
    assert native.attributes == result.attributes


def test_one_documents_node_classes_are_their_own_and_edges_have_none(tmp_path: Path) -> None:
    result = parsescore.evaluate(
        "graph", BUNDLED / "truth.json", BUNDLED / "graph.json",
        template=f"{BUNDLED / 'library_template.py'}:Library", by=("class",),
    )  # fmt: skip
    nodes = [item for item in result.items if item.startswith("node:")]
    assert nodes and len(nodes) < len(result.items)  # edges too
    assert result.attributes == {item: {"class": item[5:]} for item in nodes}
    found = result.dataset["breakdown"]["class"]
    for item in nodes:  # a class alone: its own node numbers, and no edge number
        assert found[item[5:]]["node_strict_f1"] == result.items[item]["node_strict_f1"]
        assert "edge_strict_f1" not in found[item[5:]]
    assert found["(none)"]["edge_strict_f1"] == result.totals["edge_strict_f1"]
    assert "node_strict_f1" not in found["(none)"]
    (native,) = native_round_trip(result, tmp_path)
    assert native.attributes == result.attributes


@pytest.fixture(autouse=True)
def _template_importable(template_path: Path) -> None:
    """The fixture templates import as the reference runs saw them."""
