"""The Mermaid reader against Mermaid's own parser (npm ``mermaid`` run by node with jsdom).

On every flowchart of the corpus (real files from public repositories, tests/flowchart/data/
mermaid_corpus/SOURCES), our nodes, texts, subgraph labels, edges and edge labels must equal
those the spec's mapping gives from Mermaid's FlowDB. One node process parses the whole corpus.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mermaid_db import model_from_db, model_from_ours

from mermaid_ref import mermaid_parse
from parsescore.core.errors import InputError
from parsescore.flowchart.formats import read_mermaid

CORPUS = Path(__file__).parent / "data" / "mermaid_corpus"
FLOWCHARTS = sorted(CORPUS.glob("*.mmd"))
OTHERS = sorted((CORPUS / "not_flowcharts").glob("*.mmd"))
# the reader's fixes of issue 23, on real-looking answers (data/mermaid_answers/SOURCES)
ANSWER_DIR = Path(__file__).parent / "data" / "mermaid_answers"
ANSWERS = sorted(ANSWER_DIR.glob("*.mmd"))


@pytest.fixture(scope="module")
def reference() -> dict[str, dict[str, Any]]:
    paths = FLOWCHARTS + OTHERS + ANSWERS
    parsed = mermaid_parse([p.read_text(encoding="utf-8") for p in paths])
    return {
        str(p.relative_to(CORPUS) if p.is_relative_to(CORPUS) else p.name): r
        for p, r in zip(paths, parsed, strict=True)
    }


def _sources() -> dict[str, list[str]]:
    rows = {}
    for line in (CORPUS / "SOURCES").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, *fields = line.split("\t")
            rows[name] = fields
    return rows


def test_corpus_is_large_varied_and_recorded() -> None:
    assert len(FLOWCHARTS) >= 30
    sources = _sources()
    for path in FLOWCHARTS + OTHERS:
        fields = sources[str(path.relative_to(CORPUS))]
        repo, _, commit, licence, _ = fields
        assert repo.startswith("mermaid-js/") and len(commit) == 40 and licence == "MIT"
    text = "\n".join(p.read_text(encoding="utf-8") for p in FLOWCHARTS)
    # the features the reader must handle all occur in the corpus
    features = """subgraph & -.-> ==> --o --x <--> ~~~ -->| @{ classDef style click linkStyle
        %% "` <br (( {{ [( [[ > direction :::"""
    for feature in features.split():
        assert feature in text, feature


@pytest.mark.parametrize("path", FLOWCHARTS, ids=lambda p: p.stem)
def test_reader_equals_mermaid(path: Path, reference: dict[str, dict[str, Any]]) -> None:
    ref = reference[path.name]
    assert "error" not in ref, ref
    assert ref["type"] in ("flowchart", "flowchart-v2", "flowchart-elk")
    ours = model_from_ours(read_mermaid(path.read_text(encoding="utf-8"), path=path))
    assert ours == model_from_db(ref["db"])


@pytest.mark.parametrize("path", OTHERS, ids=lambda p: p.stem)
def test_other_diagram_types_are_one_line_errors(
    path: Path, reference: dict[str, dict[str, Any]]
) -> None:
    ref = reference[f"not_flowcharts/{path.name}"]
    assert "error" not in ref and not ref["type"].startswith("flowchart")  # Mermaid agrees
    with pytest.raises(InputError) as caught:
        read_mermaid(path.read_text(encoding="utf-8"), path=path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message and "line " in message
    assert "not a flowchart" in message or "not a Mermaid flowchart" in message


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: p.stem)
def test_answers_read_as_mermaid_reads_them(
    path: Path, reference: dict[str, dict[str, Any]]
) -> None:
    ref = reference[path.name]
    assert "error" not in ref, ref
    ours = read_mermaid(path.read_text(encoding="utf-8"), path=path)
    assert model_from_ours(ours) == model_from_db(ref["db"])


def test_a_link_may_end_its_line(reference: dict[str, dict[str, Any]]) -> None:
    """`A -->` / `B`, also across a blank line, with a text link and `~~~`: one edge each."""
    db = reference["continued_links.mmd"]["db"]
    edges = {(e["start"], e["end"]): e["stroke"] for e in db["edges"]}
    assert edges[("A", "C")] == edges[("B", "C")] == "normal"
    assert edges[("F", "G")] == "dotted" and edges[("E", "G")] == "invisible"
    chart = read_mermaid((ANSWER_DIR / "continued_links.mmd").read_text(encoding="utf-8"))
    number = {n.node_id: n.node_number for n in chart.nodes}
    assert number["C"] in next(n for n in chart.nodes if n.node_id == "A").points_to
    assert chart.edge_labels[(number["D"], number["E"])] == "excluded on title and abstract"


def test_a_br_end_tag_is_a_line_break(reference: dict[str, dict[str, Any]]) -> None:
    db = reference["br_end_tags.mmd"]["db"]
    texts = {v["id"]: v["text"] for v in db["vertices"]}
    assert texts["enrol"] == "Assessed for eligibility<br>(n = 412)"  # Mermaid's own reading
    assert db["subgraphs"][0]["title"] == "Analysis<br>(intention to treat)"
    chart = read_mermaid((ANSWER_DIR / "br_end_tags.mmd").read_text(encoding="utf-8"))
    assert chart.nodes[0].text == "Assessed for eligibility\n(n = 412)"
    assert chart.nodes[1].text.count("\n") == 2 and "</" not in chart.nodes[1].text
    assert chart.additional_texts == ()  # the front-matter title counts nothing (the spec)


def test_a_quoted_subgraph_head_followed_by_words(reference: dict[str, dict[str, Any]]) -> None:
    db = reference["msc3771_threaded_timelines.mmd"]["db"]
    assert db["subgraphs"][0]["title"] == "Main timeline"
    path = ANSWER_DIR / "msc3771_threaded_timelines.mmd"
    chart = read_mermaid(path.read_text(encoding="utf-8"))
    assert chart.nodes[0].labels == ("Main timeline",)
