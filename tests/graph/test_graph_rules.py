"""The evaluator's rules one by one, on small hand-made graphs (expected values by hand)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from parsescore.graph.canon import is_filled, normalise_entity_name, strip_markup
from parsescore.graph.evaluate import (
    edge_fanout,
    evaluate_graphs,
    fanout_warnings,
    node_key,
    prf,
    structural_pairs,
)
from parsescore.graph.template import GraphData, graph_from_instance


def node(cls: str, node_id: str, **fields: Any) -> dict[str, Any]:
    return {"id": node_id, "label": cls, "type": "entity", "__class__": cls, **fields}


def edge(source: str, target: str, label: str) -> dict[str, Any]:
    return {"source": source, "target": target, "label": label}


IDS = {"Root": ["name"], "Item": ["code"], "Note": []}


def run(truth: GraphData, got: GraphData, **kw: Any) -> dict[str, Any]:
    kw.setdefault("root_class", "Root")
    return evaluate_graphs(truth, got, IDS, **kw)


# --- canonicalisation -------------------------------------------------------------------------


def test_name_fields_are_upper_snake_without_articles_accents_possessives() -> None:
    assert normalise_entity_name("The Müller's shop") == "MULLER_SHOP"
    assert normalise_entity_name("an  old-fashioned_way") == "OLD_FASHIONED_WAY"
    assert normalise_entity_name("A") == ""
    assert normalise_entity_name("Theory") == "THEORY"  # 'The' only as a separate word


def test_identity_key_uses_class_and_canonical_values() -> None:
    assert node_key(node("Item", "1", code="AB-12"), IDS) == ("Item", ("ab12",))
    assert node_key({"id": "2", "label": "Item", "code": "x"}, IDS) == ("Item", ("x",))
    assert node_key(node("Item", "3", code=" -- "), IDS) is None  # canonically empty: unkeyed
    assert node_key(node("Note", "4", text="hello"), IDS) is None  # no id fields: unkeyed


def test_filled_values() -> None:
    assert [is_filled(v) for v in (None, "", "  ", [], {}, 0, False, "x", [0])] == [
        False, False, False, False, False, True, True, True, True,
    ]  # fmt: skip


def test_markup_is_stripped() -> None:
    # CDATA is unwrapped first, so tag-like text inside it is removed too (as the reference does)
    assert strip_markup("<doctag><text><![CDATA[a <b> c]]></text><loc_1/>d</doctag>") == "a  cd"


def test_prf_rounds_and_guards_zero_denominators() -> None:
    assert prf(1, 2, 0) == {"tp": 1, "fp": 2, "fn": 0, "p": 0.333, "r": 1.0, "f1": 0.5}
    assert prf(0, 0, 0) == {"tp": 0, "fp": 0, "fn": 0, "p": 0.0, "r": 0.0, "f1": 0.0}


# --- node matching rungs ----------------------------------------------------------------------


def test_strict_and_unkeyed_counts() -> None:
    truth = GraphData(
        [node("Root", "r", name="Lib"), node("Item", "a", code="A1"), node("Note", "n", text="t")],
        [edge("r", "a", "HAS")],
    )
    got = GraphData(
        [
            node("Root", "R", name="the lib"),
            node("Item", "b", code="a-1"),
            node("Item", "c", code=""),
        ],
        [edge("R", "b", "HAS"), edge("R", "c", "HAS")],
    )
    report = run(truth, got)
    assert report["nodes"]["Item"]["strict"] == prf(1, 0, 0)
    assert report["nodes"]["Root"]["strict"] == prf(1, 0, 0)
    assert report["edges"]["HAS"]["strict"] == prf(1, 0, 0)  # edge to the unkeyed node is dropped
    assert report["integrity"]["unkeyed_extracted_nodes"] == 1
    assert report["integrity"]["unkeyed_truth_nodes"] == 1
    assert report["integrity"]["empty_identity_nodes"] == ["c"]
    assert "aligned" not in report["micro"]["nodes"]  # no alignment happened


def test_first_node_with_a_key_wins() -> None:
    truth = GraphData([node("Item", "a", code="X", colour="red")], [])
    got = GraphData(
        [node("Item", "b", code="x", colour=""), node("Item", "c", code="X", colour="red")], []
    )
    report = run(truth, got)
    assert report["nodes"]["Item"]["strict"] == prf(1, 0, 0)  # duplicates collapse
    assert report["attribute_completeness"]["Item"]["colour"] == {"filled": 0, "expected": 1}


def test_relaxed_needs_a_unique_candidate_with_equal_digits() -> None:
    truth = GraphData(
        [node("Item", "t1", code="Article 5 general"), node("Item", "t2", code="Part 7")], []
    )
    got = GraphData(
        [
            node("Item", "g1", code="Article 5"),
            node("Item", "g2", code="Article 6"),  # digits differ: never a candidate
            node("Item", "g3", code="Part 7 a"),
            node("Item", "g4", code="Part 7 b"),  # two candidates for 'Part 7': none accepted
        ],
        [],
    )
    report = run(truth, got)
    assert report["relaxed_alias_pairs"] == [
        {"truth": "article5general", "extracted": "article5", "class": "Item"}
    ]
    assert report["nodes"]["Item"]["relaxed"] == prf(1, 3, 1)


def test_relaxed_candidate_is_used_up() -> None:
    truth = GraphData([node("Item", "t1", code="ab"), node("Item", "t2", code="abc")], [])
    got = GraphData([node("Item", "g1", code="abcd")], [])
    report = run(truth, got)
    assert [p["truth"] for p in report["relaxed_alias_pairs"]] == ["ab"]


def test_singleton_root_pairs_unmatched_roots() -> None:
    truth = GraphData(
        [node("Root", "r", name="Real Name"), node("Item", "a", code="A")], [edge("r", "a", "HAS")]
    )
    got = GraphData(
        [node("Root", "R", name="file_stem"), node("Item", "b", code="A")], [edge("R", "b", "HAS")]
    )
    report = run(truth, got)
    assert report["structural_alignment"]["pairs"] == [
        {"truth": "REAL_NAME", "extracted": "FILE_STEM", "class": "Root", "score": "singleton-root"}
    ]
    assert report["edges"]["HAS"]["strict"] == prf(0, 1, 1)
    assert report["edges"]["HAS"]["aligned"] == prf(1, 0, 0)  # endpoint folded onto the truth root
    assert report["structural_alignment"]["classes"] == []  # auto without source aligns nothing
    off = run(truth, got, align_mode="off")
    assert off["structural_alignment"]["pairs"] == []
    assert "aligned" not in off["micro"]["edges"]


def test_synthetic_classes_are_aligned_in_auto_mode_with_source() -> None:
    truth = GraphData(
        [node("Item", "t1", code="ITEM-ALPHA", colour="red", size="large"),
         node("Item", "t2", code="ITEM-BETA", colour="blue")],
        [],
    )  # fmt: skip
    got = GraphData(
        [
            node("Item", "g1", code="i1", colour="Blue"),
            node("Item", "g2", code="i2", colour="red", size="large"),
        ],
        [],
    )
    report = run(truth, got, source_text="A red large item and a blue one.")
    alignment = report["structural_alignment"]
    assert alignment["synthetic_id_classes"] == ["Item"]
    assert alignment["pairs"] == [
        {"truth": "itemalpha", "extracted": "i2", "class": "Item", "score": 2.0},
        {"truth": "itembeta", "extracted": "i1", "class": "Item", "score": 1.0},
    ]
    assert report["nodes"]["Item"]["aligned"] == prf(2, 0, 0)
    found = run(truth, got, source_text="item-alpha and item beta")
    assert found["structural_alignment"]["synthetic_id_classes"] == []


def test_alignment_scores_and_threshold() -> None:
    truth = {("C", ("t",)): {"a": "Rheology sweep", "b": "x" * 45, "tags": ["p", "q"]}}
    got = {
        ("C", ("g1",)): {"a": "rheology"},  # containment, short: 0.5 < 1.0, rejected
        ("C", ("g2",)): {"b": "y" + "x" * 45},  # containment ≥ 40 chars: 1.0
        ("C", ("g3",)): {"a": "rheology", "tags": ["Q"]},  # 0.5 + 0.5
    }
    pairs = structural_pairs(list(truth), list(got), truth, got, {"C"})
    assert pairs == [(("C", ("t",)), ("C", ("g2",)), 1.0)]  # tie with g3 keeps extracted order


def test_edges_fold_through_relaxed_aliases() -> None:
    truth = GraphData(
        [node("Root", "r", name="L"), node("Item", "a", code="Article 5 rules")],
        [edge("r", "a", "HAS")],
    )
    got = GraphData(
        [node("Root", "R", name="L"), node("Item", "b", code="Article 5")], [edge("R", "b", "HAS")]
    )
    report = run(truth, got)
    assert report["edges"]["HAS"]["strict"] == prf(0, 1, 1)
    assert report["edges"]["HAS"]["relaxed"] == prf(1, 0, 0)


# --- completeness, verbatim, fan-out, integrity -----------------------------------------------


def test_completeness_counts_zero_and_false_as_filled() -> None:
    truth = GraphData(
        [
            node(
                "Item",
                "a",
                code="A",
                count=0,
                flag=False,
                text="",
                tags=[],
                extra="x",
                dims={"w": 1},
            )
        ],
        [],
    )
    got = GraphData([node("Item", "b", code="A", count=0, flag=False, extra=None, dims={})], [])
    comp = run(truth, got)["attribute_completeness"]["Item"]
    assert comp == {
        "code": {"filled": 1, "expected": 1},
        "count": {"filled": 1, "expected": 1},
        "flag": {"filled": 1, "expected": 1},
        "extra": {"filled": 0, "expected": 1},
        "dims": {"filled": 0, "expected": 1},
    }


def test_verbatim_ratio_with_and_without_source() -> None:
    long_ok = "Exclusions: " + "damage caused by floods, storms and   hail " * 2
    long_bad = "This sentence is not in the source at all and it is long enough to be checked, yes."
    truth = GraphData([node("Item", "a", code="A"), node("Item", "b", code="B")], [])
    got = GraphData(
        [
            node("Item", "x", code="A", text=long_ok),
            node("Item", "y", code="B", text=long_bad, s="short"),
        ],
        [],
    )
    source = "- Exclusions: " + "damage caused by floods, storms and hail " * 2
    with_source = run(truth, got, source_text=source)
    assert (with_source["verbatim_ratio"], with_source["verbatim_n"]) == (0.5, 2)
    without = run(truth, got)
    assert (without["verbatim_ratio"], without["verbatim_n"]) == (None, None)
    nothing_long = run(truth, GraphData([node("Item", "x", code="A")], []), source_text=source)
    assert (nothing_long["verbatim_ratio"], nothing_long["verbatim_n"]) == (None, 0)


def test_fanout_and_warning() -> None:
    truth_edges = [edge(f"p{i % 3}", f"c{i}", "HAS") for i in range(6)]
    truth = GraphData(
        [node("Item", f"p{i}", code=f"p{i}") for i in range(3)]
        + [node("Item", f"c{i}", code=f"c{i}") for i in range(6)],
        truth_edges,
    )
    got = GraphData(truth.nodes, [edge("p0", f"c{i}", "HAS") for i in range(6)])
    report = run(truth, got)
    assert report["edge_fanout"]["HAS"] == {
        "extracted": {"total": 6, "sources": 1, "top_source_share": 1.0},
        "truth": {"total": 6, "sources": 3, "top_source_share": 0.333},
    }
    assert [w["label"] for w in fanout_warnings(report["edge_fanout"])] == ["HAS"]
    few = {"HAS": {"extracted": {"total": 4, "sources": 1, "top_source_share": 1.0}, "truth": None}}
    assert fanout_warnings(few) == []


def test_fanout_counts_unkeyed_sources_by_raw_id() -> None:
    fan = edge_fanout(
        [edge("u1", "a", "L"), edge("u2", "a", "L"), edge("k", "a", "L")], {"k": ("C", ("k",))}
    )
    assert fan == {"L": {"total": 3, "sources": 3, "top_source_share": 0.333}}


def test_integrity_lists_orphans_and_empty_identity() -> None:
    truth = GraphData([node("Item", "a", code="A")], [])
    got = GraphData(
        [node("Item", "a", code="A"), node("Item", "e", code=None), node("Root", "r", name="R")],
        [edge("r", "a", "HAS")],
    )
    integrity = run(truth, got)["integrity"]
    assert integrity["orphan_nodes"] == ["e"]
    assert integrity["empty_identity_nodes"] == ["e"]


# --- ground truth conversion ------------------------------------------------------------------


class Tag(BaseModel):
    model_config = ConfigDict(is_entity=False)
    word: str | None = None
    owner: Person | None = None


class Person(BaseModel):
    model_config = ConfigDict(graph_id_fields=["name"])
    name: str
    age: int | None = None
    friend: Person | None = Field(default=None, json_schema_extra={"edge_label": "KNOWS"})


class Memo(BaseModel):
    text: str | None = None


class Shelf(BaseModel):
    model_config = ConfigDict(graph_id_fields=["name"])
    name: str
    people: list[Person] = Field(default_factory=list, json_schema_extra={"edge_label": "HAS"})
    lead: Person | None = None
    tags: list[Tag] = Field(default_factory=list)
    memos: list[Memo] = Field(default_factory=list)


Tag.model_rebuild()


def test_truth_conversion_merges_embeds_and_labels() -> None:
    shelf = Shelf.model_validate(
        {
            "name": "S",
            "people": [
                {"name": "Ann", "friend": {"name": "ann"}},  # self-loop after merging: dropped
                {"name": "ANN", "age": 30},  # duplicate: fills the empty age
                {"name": "Bob"},
            ],
            "lead": {"name": "Bob", "age": 40},
            "tags": [{"word": "w", "owner": {"name": "Cy"}}],
            "memos": [{"text": "m"}, {"text": "m"}],
        }
    )
    graph = graph_from_instance(shelf)
    by_class: dict[str, list[dict[str, Any]]] = {}
    for n in graph.nodes:
        by_class.setdefault(n["__class__"], []).append(n)
    assert [n["name"] for n in by_class["Person"]] == ["Ann", "Bob", "Cy"]
    assert by_class["Person"][0]["age"] == 30
    assert by_class["Person"][1]["age"] == 40
    assert len(by_class["Memo"]) == 1  # no id fields: merged by content
    shelf_node = by_class["Shelf"][0]
    assert graph.nodes[-1] is shelf_node  # parents come after their children
    assert shelf_node["people"] is None and shelf_node["lead"] is None
    assert shelf_node["tags"] == [{"word": "w", "owner": None}]
    ids = {n["id"]: n for n in graph.nodes}
    labelled = {
        (ids[e["source"]].get("name"), ids[e["target"]].get("name"), e["label"])
        for e in graph.edges
    }
    assert labelled == {
        ("S", "Ann", "HAS"),
        ("S", "Bob", "lead"),  # the later label overwrote HAS on the same pair
        ("S", "Cy", "owner"),  # entity inside a component: edge from the nearest entity
        ("S", None, "memos"),
    }
    assert all(e["source"] != e["target"] for e in graph.edges)
    assert all(
        n["id"].startswith(n["__class__"] + "_") and len(n["id"]) == len(n["__class__"]) + 17
        for n in graph.nodes
    )
