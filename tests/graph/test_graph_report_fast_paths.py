"""The identity index's, canonical forms' and edge summary's fast paths against plain
reference implementations of the same rules (hypothesis)."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from parsescore.graph.canon import canonical_identity_value, digit_runs, squash
from parsescore.graph.evaluate import (
    IdentityIndex,
    edge_fanout,
    edge_key_sets,
    match_graphs,
    node_key,
)
from parsescore.graph.template import GraphData

IDS = {"A": ["code"], "B": ["name"], "C": ["code", "name"], "D": []}
raw_values = st.one_of(
    st.none(),
    st.sampled_from(["x1", "X-1", "  ", "", "The ab", "Café 7", "a_b-c", "7", "ｘ１", "ß"]),
    st.text(max_size=6),
    st.integers(-5, 50),
    st.lists(st.sampled_from(["a", "b1"]), max_size=2),
)


def reference_alphanumeric(raw: str) -> str:
    """The non-name canonical form as first written: strip, NFKD, then the squash."""
    text = raw.strip()
    return squash(unicodedata.normalize("NFKD", text)) if text else ""


@given(st.one_of(st.text(), st.text(alphabet=st.characters(max_codepoint=127))))
def test_alphanumeric_form_matches_reference(raw: str) -> None:
    assert canonical_identity_value("code", raw) == reference_alphanumeric(raw)


@given(
    st.one_of(
        st.text(),
        st.text(alphabet=st.sampled_from("ab7_\u0663\u00b2\u2167Z")),
        st.text(alphabet=st.characters(categories=["Nd"]), min_size=1),
        st.text(alphabet=st.characters(categories=["Lu", "Ll", "Lo", "Nl", "No"]), min_size=1),
    )
)
def test_digit_runs_match_the_regex(text: str) -> None:
    assert digit_runs(text) == tuple(re.findall(r"\d+", text))


@st.composite
def graphs(draw: Any) -> GraphData:
    n = draw(st.integers(0, 10))
    nodes: list[dict[str, Any]] = []
    for i in range(n):
        cls = draw(st.sampled_from([*IDS, "E"]))
        node: dict[str, Any] = {"id": draw(st.sampled_from([f"n{i}", f"n{i}", "dup", 3]))}
        node[draw(st.sampled_from(["__class__", "label"]))] = cls
        for name in ("code", "name"):
            if draw(st.booleans()):
                node[name] = draw(raw_values)
        nodes.append(node)
    ends = st.sampled_from([*(f"n{i}" for i in range(n)), "dup", "missing", 3, None])
    edges: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 12))):
        edge = {"source": draw(ends), "target": draw(ends)}
        if draw(st.booleans()):
            edge["label"] = draw(st.sampled_from(["L", "M", 1]))
        edges.append(edge)
    return GraphData(nodes, edges)


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_identity_index_matches_node_key(graph: GraphData) -> None:
    index = IdentityIndex.build(graph.nodes, IDS)
    by_key: dict[Any, dict[str, Any]] = {}
    unkeyed, id_to_key = [], {}
    for node in graph.nodes:
        key = node_key(node, IDS)
        if key is None:
            unkeyed.append(node)
        else:
            by_key.setdefault(key, node)
            id_to_key[str(node.get("id"))] = key
    assert list(index.by_key.items()) == list(by_key.items())
    assert index.unkeyed == unkeyed
    assert index.id_to_key == id_to_key


def reference_fanout(edges: list[dict[str, Any]], id_to_key: dict[str, Any]) -> dict[str, Any]:
    per_label: dict[str, Counter[Any]] = {}
    for edge in edges:
        source = str(edge.get("source"))
        by = ("key", id_to_key[source]) if source in id_to_key else ("id", source)
        per_label.setdefault(str(edge.get("label", "")), Counter())[by] += 1
    return {
        label: {
            "total": sum(counts.values()),
            "sources": len(counts),
            "top_source_share": round(max(counts.values()) / sum(counts.values()), 3),
        }
        for label, counts in per_label.items()
    }


def reference_edges(graph: GraphData, id_to_key: dict[str, Any], fold: dict[Any, Any]) -> set[Any]:
    found = set()
    for edge in graph.edges:
        source, target = str(edge.get("source")), str(edge.get("target"))
        if source in id_to_key and target in id_to_key:
            a, b = id_to_key[source], id_to_key[target]
            found.add((str(edge.get("label", "")), fold.get(a, a), fold.get(b, b)))
    return found


@settings(max_examples=300, deadline=None)
@given(graphs(), graphs())
def test_edge_summary_matches_reference(truth: GraphData, got: GraphData) -> None:
    matching = match_graphs(truth, got, IDS, root_class=None, align_mode="off")
    truth_ids, got_ids = matching.truth_index.id_to_key, matching.extracted_index.id_to_key
    sets = edge_key_sets(matching, ("truth", "strict", "relaxed"))
    assert sets["truth"] == reference_edges(truth, truth_ids, {})
    assert sets["strict"] == reference_edges(got, got_ids, {})
    assert sets["relaxed"] == reference_edges(got, got_ids, matching.relaxed_fold)
    codes = matching.edge_codes
    assert codes.truth.fanout == reference_fanout(truth.edges, truth_ids)
    assert codes.extracted.fanout == reference_fanout(got.edges, got_ids)
    assert edge_fanout(got.edges, got_ids) == reference_fanout(got.edges, got_ids)
    named = {str(edge.get(end)) for edge in got.edges for end in ("source", "target")}
    assert codes.extracted.named_ids == named
