"""The truth converter on shapes the reference fixtures do not hold (expected values by hand).

Components holding entity lists and component lists, a repeated entity filling an empty
component, one instance object listed twice, extra attributes, a list-valued identity and a
list whose first item is not a model; then hypothesis checks the converter's invariants on
random trees of these classes.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field

from parsescore.graph.canon import canonical_identity_value
from parsescore.graph.template import GraphData, graph_from_instance


class Person(BaseModel):
    """An entity identified by name; extra keys are kept as attributes."""

    model_config = ConfigDict(graph_id_fields=["name"], extra="allow")
    name: str
    email: str | None = None
    home: Address | None = None
    tags: list[Tag] = Field(default_factory=list)


class Tag(BaseModel):
    """An entity without id fields: identified by its scalar content."""

    word: str | None = None


class Note(BaseModel):
    """A component that names entities."""

    model_config = ConfigDict(is_entity=False)
    text: str | None = None
    about: list[Person] = Field(default_factory=list, json_schema_extra={"edge_label": "ABOUT"})


class Address(BaseModel):
    """A component holding an entity, an entity list and a component list."""

    model_config = ConfigDict(is_entity=False)
    city: str | None = None
    owner: Person | None = Field(default=None, json_schema_extra={"edge_label": "OWNED_BY"})
    residents: list[Person] = Field(default_factory=list)
    notes: list[Note] = Field(default_factory=list)


class Team(BaseModel):
    """The root: a list-valued identity, entity lists, a closed catalog, a mixed list."""

    model_config = ConfigDict(graph_id_fields=["codes"])
    codes: list[str] = Field(default_factory=list)
    members: list[Person] = Field(
        default_factory=list, json_schema_extra={"edge_label": "HAS_MEMBER"}
    )
    lead: Person | None = Field(
        default=None, json_schema_extra={"edge_label": "LED_BY", "reference_closed_catalog": True}
    )
    sites: list[Address] = Field(default_factory=list)
    loose: list[str | Person | Address] = Field(default_factory=list)


Person.model_rebuild()


def by_name(graph: GraphData) -> dict[str, dict[str, Any]]:
    return {str(n.get("name") or n.get("word") or n["__class__"]): n for n in graph.nodes}


def named_edges(graph: GraphData) -> list[tuple[str, str, str]]:
    names = {node_id: name for name, node_id in ((k, v["id"]) for k, v in by_name(graph).items())}
    return [(names[e["source"]], names[e["target"]], e["label"]) for e in graph.edges]


def test_components_embed_and_draw_edges_from_the_nearest_entity() -> None:
    ann = Person(name="Ann", nickname="A")  # an extra key
    team = Team(
        codes=["b", "a"],
        members=[ann, Person(name="Bob", tags=[Tag(word="x")]), ann],  # Ann's object twice
        sites=[
            Address(
                city="Lyon",
                owner=Person(name="Cy"),
                residents=[Person(name="Dee")],
                notes=[Note(text="n", about=[Person(name="Eve")])],
            )
        ],
        loose=["first is text", Person(name="Fay")],  # not walked from a new node
    )
    graph = graph_from_instance(team)
    nodes = by_name(graph)
    assert [n["__class__"] for n in graph.nodes] == [
        "Person", "Tag", "Person", "Person", "Person", "Person", "Team",
    ]  # fmt: skip
    assert "Fay" not in nodes
    assert nodes["Ann"]["nickname"] == "A"
    assert nodes["Team"]["codes"] == ["b", "a"]
    assert nodes["Team"]["members"] is None
    assert nodes["Team"]["sites"] == [
        {"city": "Lyon", "owner": None, "residents": None,
         "notes": [{"text": "n", "about": None}]}
    ]  # fmt: skip
    assert named_edges(graph) == [
        ("Bob", "x", "tags"),
        ("Team", "Ann", "HAS_MEMBER"),
        ("Team", "Bob", "HAS_MEMBER"),
        ("Team", "Cy", "OWNED_BY"),
        ("Team", "Dee", "residents"),
        ("Team", "Eve", "ABOUT"),
    ]


def test_a_repeated_entity_fills_empty_attributes_and_components() -> None:
    team = Team(
        codes=["a"],
        members=[
            Person(name="Ann"),
            Person(name="ANN", email="a@x", home=Address(city="Oslo"), tags=[Tag(word="t")]),
            Person(name="ann", email="other@x", home=Address(city="Rome")),
        ],
    )
    graph = graph_from_instance(team)
    assert [n["__class__"] for n in graph.nodes] == ["Person", "Tag", "Team"]
    ann = graph.nodes[0]
    assert (ann["name"], ann["email"]) == ("Ann", "a@x")  # first non-empty value wins
    assert ann["home"] == {"city": "Oslo", "owner": None, "residents": [], "notes": []}
    assert ann["tags"] == []  # entities are edges, never filled in as attributes
    assert ("Ann", "t", "tags") in named_edges(graph)


def test_list_identities_ignore_order_and_duplicates() -> None:
    one = graph_from_instance(Team(codes=["b", "a", "a"]))
    two = graph_from_instance(Team(codes=["a", "b"]))
    assert one.nodes[0]["id"] == two.nodes[0]["id"]
    assert one.nodes[0]["id"] != graph_from_instance(Team(codes=["a"])).nodes[0]["id"]


NAMES = st.sampled_from(["Ann", "ann", "Bob", "Cy"])


@st.composite
def teams(draw: st.DrawFn) -> Team:
    """Random teams reusing some Person objects (shared instances) and repeating names."""
    pool: list[Person] = []

    def person(depth: int) -> Person:
        if pool and draw(st.booleans()):
            return pool[draw(st.integers(0, len(pool) - 1))]
        made = Person(
            name=draw(NAMES),
            email=draw(st.none() | st.sampled_from(["e", ""])),
            home=address(depth + 1) if depth < 2 and draw(st.booleans()) else None,
            tags=[Tag(word=w) for w in draw(st.lists(st.sampled_from(["x", "y"]), max_size=2))],
        )
        pool.append(made)
        return made

    def address(depth: int) -> Address:
        return Address(
            city=draw(st.none() | st.just("Lyon")),
            owner=person(depth) if draw(st.booleans()) else None,
            residents=[person(depth) for _ in range(draw(st.integers(0, 2)))],
            notes=[
                Note(text="n", about=[person(depth) for _ in range(draw(st.integers(0, 1)))])
                for _ in range(draw(st.integers(0, 1)))
            ],
        )

    members = [person(0) for _ in range(draw(st.integers(0, 3)))]
    loose: list[str | Person | Address] = [  # mixed kinds: the first item decides the walk
        person(0) if draw(st.booleans()) else address(1) for _ in range(draw(st.integers(0, 2)))
    ]
    if draw(st.booleans()):
        loose.insert(0, "text")
    return Team(
        codes=draw(st.lists(st.sampled_from(["a", "b"]), max_size=2)),
        members=members,
        lead=person(0) if draw(st.booleans()) else None,
        sites=[address(0) for _ in range(draw(st.integers(0, 2)))],
        loose=loose,
    )


@settings(max_examples=150, deadline=None)
@given(teams())
def test_converter_invariants(team: Team) -> None:
    before = team.model_dump()
    graph = graph_from_instance(team)
    assert team.model_dump() == before  # the input is never changed
    ids = [n["id"] for n in graph.nodes]
    assert len(ids) == len(set(ids))
    assert all(n["id"].startswith(n["__class__"] + "_") for n in graph.nodes)
    pairs = [(e["source"], e["target"]) for e in graph.edges]
    assert len(pairs) == len(set(pairs))
    assert all(source != target for source, target in pairs)
    order = {node_id: index for index, node_id in enumerate(ids)}
    assert all(source in order for source, _ in pairs)
    positions = [order[source] for source, _ in pairs]
    assert positions == sorted(positions)  # edges listed by their source's node order
    assert graph.nodes[-1]["__class__"] == "Team"  # the root comes after its children
    again = graph_from_instance(copy.deepcopy(team))
    assert (again.nodes, again.edges) == (graph.nodes, graph.edges)


class Code(BaseModel):
    """An entity identified by one field, which may also arrive as an undeclared extra."""

    model_config = ConfigDict(graph_id_fields=["code"], extra="allow")
    code: str | int | None = None


class Keyless(BaseModel):
    """The same identity field, never declared: an instance holds it only as an extra."""

    model_config = ConfigDict(graph_id_fields=["code"], extra="allow")
    label: str | None = None


class Codes(BaseModel):
    """A root holding both."""

    model_config = ConfigDict(graph_id_fields=["name"])
    name: str = "root"
    codes: list[Code] = Field(default_factory=list)
    loose: list[Keyless] = Field(default_factory=list)


def plain_node_id(cls: str, values: dict[str, Any]) -> str:
    """docling-graph's node id, written plainly: the hash of the JSON text of the canonical
    identity values and the class name."""
    data = {name: canonical_identity_value(name, value) for name, value in values.items()}
    text = json.dumps(data | {"__class__": cls}, sort_keys=True, default=str)
    return f"{cls}_{hashlib.blake2b(text.encode()).hexdigest()[:16]}"


CODE_VALUES = st.one_of(
    st.text(alphabet="aB1 -é_", max_size=6), st.integers(-3, 3), st.none()
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(
    st.lists(CODE_VALUES, max_size=5), st.lists(st.text(alphabet="aB1 ", max_size=4), max_size=3)
)
def test_single_field_ids_equal_the_plain_definition(codes: list[Any], extras: list[str]) -> None:
    """The one-plain-string identity's fast path (a declared field read from the instance's
    dict, the id kept per string) gives docling-graph's id, and other values and an identity
    held as an extra take the general path to the same definition."""
    root = Codes(
        codes=[Code(code=value) for value in codes],
        loose=[Keyless(label="x", code=value) for value in extras],  # type: ignore[call-arg]
    )
    graph = graph_from_instance(root)
    ids = {node["id"] for node in graph.nodes}
    for value in codes:
        assert plain_node_id("Code", {"code": value}) in ids
    for value in extras:
        assert plain_node_id("Keyless", {"code": value}) in ids
    assert plain_node_id("Codes", {"name": "root"}) in ids
