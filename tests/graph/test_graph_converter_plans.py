"""The converter's per-class plans give what the general walk gives (hypothesis).

The walk reads each model through its class's plan (fields whose annotation settles them as
plain are never looked at, a ``Model | None`` field is tested against its class); the oracle
is the walk as it was, testing every value (graph_converter_oracle.py). Random templates mix
every kind of annotation the plans treat differently, including ones they must leave open:
``Any``, unions of models, an ``Annotated`` validator and a model validator that put a model
where a string was declared.
"""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

import pytest
from graph_converter_oracle import general_graph
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model, model_validator
from test_graph_converter_shapes import Team, teams

from parsescore.graph.template import GraphData, _settled, graph_from_instance


class Colour(str, enum.Enum):  # noqa: UP042 - a str-mixin Enum, as templates use
    RED = "red"
    BLUE = "blue"


FIELD_KINDS = (
    "str", "int", "float", "enum", "literal", "strs", "any", "dict", "tuple",
    "model", "models", "union", "mixed", "after",
)  # fmt: skip
"""Field kinds; the last six need a later class to refer to."""
MODEL_KINDS = frozenset({"model", "models", "union", "mixed", "after"})
TEXTS = st.sampled_from(["a", "A", "b", "", "The a", "M"])


def _annotation(kind: str, targets: list[type[BaseModel]]) -> Any:
    if kind not in MODEL_KINDS:
        return {
            "str": str | None,
            "int": int | None,
            "float": float | None,
            "enum": Colour | None,
            "literal": Literal["x", "y"] | None,
            "strs": list[str],
            "any": Any,
            "dict": dict[str, Any] | None,
            "tuple": tuple[str, ...] | None,
        }[kind]
    first = targets[0]
    if kind == "after":  # a model where a string is declared: tested per value
        return Annotated[
            str | None, AfterValidator(lambda v: first.model_validate({}) if v == "M" else v)
        ]
    return {
        "model": first | None,
        "models": list[first],  # type: ignore[valid-type]
        "union": first | targets[-1] | None,
        "mixed": list[str | first],  # type: ignore[valid-type]
    }[kind]


@st.composite
def templates(draw: st.DrawFn) -> list[type[BaseModel]]:
    """Classes 0..n-1, each referring only to later ones (the root is class 0); every field
    has a default, so any class validates from ``{}``."""
    count = draw(st.sampled_from([1, 2, 3, 3, 4]))
    classes: list[type[BaseModel]] = []
    for index in reversed(range(count)):
        later = list(reversed(classes))  # classes built so far are the later ones
        kinds = st.sampled_from(
            FIELD_KINDS if later else tuple(k for k in FIELD_KINDS if k not in MODEL_KINDS)
        )
        fields: dict[str, Any] = {}
        for position, kind in enumerate(draw(st.lists(kinds, min_size=1, max_size=6))):
            extra = {}
            if draw(st.booleans()):
                extra["edge_label"] = draw(st.sampled_from(["L1", "L2"]))
            if draw(st.integers(0, 4)) == 0:
                extra["reference_closed_catalog"] = True
            targets = draw(st.permutations(later)) if later else []
            default: Any = [] if kind in {"strs", "models", "mixed"} else None
            fields[f"f{position}_{kind}"] = (
                _annotation(kind, list(targets)),
                Field(default=default, json_schema_extra=extra or None),
            )
        plain = [n for n in fields if n.endswith(("_str", "_int", "_strs"))]
        config = ConfigDict(
            extra=draw(st.sampled_from(["ignore", "allow"])),
            is_entity=index == 0 or draw(st.integers(0, 3)) > 0,  # type: ignore[typeddict-unknown-key]
            graph_id_fields=draw(st.lists(st.sampled_from(plain), max_size=2)) if plain else [],  # type: ignore[typeddict-unknown-key]
        )
        validators: dict[str, Any] = {}
        strings = tuple(n for n in fields if n.endswith("_str"))
        if later and strings and draw(st.booleans()):
            target = later[0]

            def swap(model: Any, names: Any = strings, target: Any = target) -> Any:
                for name in names:  # after validation: no check of the type
                    if getattr(model, name) == "M":
                        setattr(model, name, target.model_validate({}))
                return model

            validators["swap"] = model_validator(mode="after")(swap)
        classes.append(
            create_model(  # type: ignore[call-overload]
                f"C{index}", __config__=config, __validators__=validators, **fields
            )
        )
    return list(reversed(classes))


def _value(draw: st.DrawFn, kind: str, annotation: Any, depth: int) -> Any:
    targets = _targets(annotation)
    if kind in {"str", "after"}:
        return draw(st.none() | st.just("M") | TEXTS)  # "M": where validators put a model
    if kind == "int":
        return draw(st.none() | st.integers(-1, 2))
    if kind == "float":
        return draw(st.none() | st.sampled_from([0.5, 1.0]))
    if kind == "enum":
        return draw(st.none() | st.sampled_from(["red", "blue"]))
    if kind == "literal":
        return draw(st.none() | st.sampled_from(["x", "y"]))
    if kind in {"strs", "tuple"}:
        return draw(st.lists(TEXTS, max_size=3))
    if kind in {"any", "dict"}:
        return (
            draw(st.none() | st.sampled_from([{"k": "v"}, {}]))
            if kind == "dict"
            else draw(st.sampled_from([None, "s", 3, ["a"], {"k": 1}, [{"k": 1}], []]))
        )
    if kind in {"model", "union"}:
        return None if draw(st.booleans()) else _data(draw, draw(st.sampled_from(targets)), depth)
    items = []
    for _ in range(draw(st.integers(0, 3))):
        if kind == "mixed" and draw(st.booleans()):
            items.append(draw(TEXTS))
        else:
            items.append(_data(draw, targets[0], depth))
    return items


def _targets(annotation: Any) -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = []
    stack = [annotation]
    while stack:
        item = stack.pop()
        if isinstance(item, type) and issubclass(item, BaseModel):
            found.append(item)
        stack.extend(getattr(item, "__args__", ()))
    return sorted(set(found), key=lambda c: c.__name__)


def _data(draw: st.DrawFn, cls: type[BaseModel], depth: int) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for name, info in cls.model_fields.items():
        if draw(st.integers(0, 3)) == 0:
            continue  # the default
        data[name] = _value(draw, name.split("_", 1)[1], info.annotation, depth + 1)
    if draw(st.integers(0, 4)) == 0:
        data["undeclared"] = draw(TEXTS)  # an extra where the class allows them
    return data


@st.composite
def instances(draw: st.DrawFn) -> BaseModel:
    root = draw(templates())[0]
    return root.model_validate(_data(draw, root, 0))


def _same(got: GraphData, want: GraphData) -> None:
    assert [list(n.items()) for n in got.nodes] == [list(n.items()) for n in want.nodes]
    assert [list(e.items()) for e in got.edges] == [list(e.items()) for e in want.edges]


@settings(max_examples=300, deadline=None)
@given(instances())
def test_plans_equal_the_general_walk_on_random_templates(instance: BaseModel) -> None:
    try:
        want = general_graph(instance)
    except Exception as exc:  # a shape the reference cannot convert: the same failure
        for validated in (True, False):
            with pytest.raises(type(exc)):
                graph_from_instance(instance, validated=validated)
        return
    _same(graph_from_instance(instance, validated=True), want)
    _same(graph_from_instance(instance), want)


@settings(max_examples=100, deadline=None)
@given(teams())
def test_plans_equal_the_general_walk_on_shared_objects(team: Team) -> None:
    """Instance objects listed twice, extras, mixed lists (built, not validated from data)."""
    _same(graph_from_instance(team), general_graph(team))


def test_annotations_settle_what_validation_guarantees() -> None:
    class M(BaseModel):
        x: str | None = None

    assert _settled(str | None) is None
    assert _settled(Colour | int | Literal["a"] | dict[str, M] | tuple[M, ...]) is None
    assert _settled(M | None) is M
    assert _settled(list[M] | None) is list
    assert _settled(M | list[str]) is False  # two non-plain types: tested per value
    assert _settled(Any) is False
    assert _settled(Annotated[str, "meta"] | None) is False


class ClassKeyed(BaseModel):
    """An identity naming ``__class__``, whose value the fingerprint never reads."""

    model_config = ConfigDict(graph_id_fields=["__class__"])
    x: str = "v"


class EmptyKeyed(BaseModel):
    model_config = ConfigDict(graph_id_fields=[""])
    x: str = "v"


class Keyed(BaseModel):
    a: ClassKeyed = Field(default_factory=ClassKeyed)
    b: list[EmptyKeyed] = Field(default_factory=lambda: [EmptyKeyed(), EmptyKeyed(x="w")])


def test_odd_one_field_identities_equal_the_general_walk() -> None:
    _same(graph_from_instance(Keyed()), general_graph(Keyed()))


class Leaf(BaseModel):
    model_config = ConfigDict(graph_id_fields=["name"])
    name: str = "leaf"


class Holder(BaseModel):
    model_config = ConfigDict(graph_id_fields=["name"])
    name: str = "holder"
    note: str | None = None
    leaves: list[str] = Field(default_factory=list)


def test_an_unvalidated_instance_is_tested_per_value() -> None:
    """``model_construct`` and assignments may put models where plain types are declared:
    the default conversion still finds them, as the general walk does."""
    built = Holder.model_construct(name="h", note=Leaf(name="a"), leaves=[Leaf(name="b")])
    assigned = Holder(name="h")
    assigned.note = Leaf(name="c")  # type: ignore[assignment]  # what validation would refuse
    for instance in (built, assigned):
        want = general_graph(instance)
        assert len(want.nodes) > 1  # the models are nodes
        _same(graph_from_instance(instance), want)
