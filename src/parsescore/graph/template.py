"""Templates: loading a pydantic root model and turning a ground-truth instance into a graph.

The conversion follows docling-graph 1.9.1's graph converter (without depending on it):

* every entity instance is a node whose id is ``<Class>_<16 hex of blake2b(fingerprint)>``;
  the fingerprint of an entity with ``graph_id_fields`` is its canonical identity values, of
  one without them its non-empty scalar fields; the same fingerprint twice is one node whose
  empty attributes are filled from the later instance (first non-empty value wins);
* components (``model_config["is_entity"] = False``) are embedded in their parent node as
  dicts (entity values inside them nulled); entities nested in a component get an edge from the
  nearest entity ancestor;
* an entity-valued field is an edge labelled ``json_schema_extra["edge_label"]`` or the field
  name; one edge per (source, target) pair (a later label overwrites), self-loops dropped;
* nodes are listed in the converter's order (children before their parent).
"""

from __future__ import annotations

import datetime
import decimal
import enum
import hashlib
import importlib
import importlib.util
import itertools
import json
import operator
import sys
import types
import typing
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from pathlib import Path
from typing import Any, get_args, get_origin

from pydantic import BaseModel, ValidationError

from parsescore.core.errors import InputError
from parsescore.graph.canon import canonical_identity_value

__all__ = ["GraphData", "graph_from_instance", "load_template"]


@dataclass
class GraphData:
    """A graph as the evaluator sees it: node dicts and edge dicts, in file order.

    Attributes:
        nodes: ``{"id", "label", "type", "__class__", <fields>...}`` per node.
        edges: ``{"source", "target", "label", ...}`` per edge.
        graph: graph-level metadata (``id_fields_map``, ``template_name``, audit keys).
        warnings: what was odd but scored as the reference scores it (dangling edges, ...).
        fence: the info string of the chat answer's fenced block it was read from (``""``:
            a block without one; None: not read from a fenced block).
    """

    nodes: list[dict[str, Any]]
    edges: list[dict[str, Any]]
    graph: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    fence: str | None = None


def _failure(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r})"
    return f"{type(exc).__name__}: {exc}"


def load_template(spec: str) -> type[BaseModel]:
    """Import a template: ``pkg.module.Class`` (from the current directory) or ``file.py:Class``.

    Importing runs the module's Python code, with the user's rights: a template is code, to be
    trusted as such. A module that raises or exits while importing is an InputError.

    Raises InputError naming the template and the problem when it does not import or is not a
    pydantic model.
    """
    for candidate in {spec, spec.rpartition(":")[0]} - {""}:
        if Path(candidate).is_dir():
            raise InputError(
                "the template is a folder; expected a Python file and its class "
                "(path/to/file.py:Class) or an importable class (pkg.module.Class)",
                path=candidate,
            )
    if ":" in spec and spec.rsplit(":", 1)[0].endswith(".py"):
        file_part, _, attr = spec.rpartition(":")
        path = Path(file_part)
        if not path.is_file():
            raise InputError("template file not found", path=path)
        module_name = (
            f"_parsescore_template_{hashlib.blake2b(str(path.resolve()).encode()).hexdigest()[:12]}"
        )
        module_spec = importlib.util.spec_from_file_location(module_name, path)
        if module_spec is None or module_spec.loader is None:
            raise InputError("cannot import template file", path=path)
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[module_name] = module
        try:
            module_spec.loader.exec_module(module)
        except (Exception, SystemExit) as exc:
            del sys.modules[module_name]
            raise InputError(f"template does not import: {_failure(exc)}", path=path) from None
        where = f"{path}:{attr}"
    else:
        module_path, _, attr = spec.rpartition(".")
        if not module_path or not attr:
            raise InputError(
                f"template must be 'pkg.module.Class' or 'path/to/file.py:Class', got {spec!r}"
            )
        cwd = str(Path.cwd())
        if cwd not in sys.path:
            sys.path.insert(0, cwd)
        try:
            module = importlib.import_module(module_path)
        except (Exception, SystemExit) as exc:
            raise InputError(
                f"template module {module_path!r} does not import: {_failure(exc)}",
                where=f"--template {spec}",
            ) from None
        where = spec
    template = getattr(module, attr, None)
    if template is None:
        raise InputError(f"no attribute {attr!r} in the template module", where=where)
    if not (isinstance(template, type) and issubclass(template, BaseModel)):
        raise InputError(f"{attr!r} is not a pydantic model class", where=where)
    return template


def _config(model: Any, key: str, default: Any) -> Any:
    config = getattr(model, "model_config", None)
    if config is None:
        return default
    if hasattr(config, "get"):
        return config.get(key, default)
    return getattr(config, key, default)


@lru_cache(maxsize=4096)
def _id_fields_of(model_type: type) -> tuple[str, ...]:
    names = _config(model_type, "graph_id_fields", [])
    return tuple(names) if names else ()


@lru_cache(maxsize=4096)
def _class_name(model_type: type) -> str:
    return model_type.__name__  # a lookup through pydantic's metaclass, once per class


@lru_cache(maxsize=4096)
def _is_entity_type(model_type: type) -> bool:
    return bool(_config(model_type, "is_entity", True))


def is_entity_model(model: Any) -> bool:
    """Entities are nodes; ``is_entity=False`` components are embedded in their parent."""
    return _is_entity_type(type(model))  # type: ignore[arg-type]  # classes are hashable


@lru_cache(maxsize=1024)
def _declares_bounds(template: type[BaseModel]) -> bool:
    """Whether any model class reachable from the template sets ``graph_max_instances``."""
    stack: list[type[BaseModel]] = [template]
    seen: set[type[BaseModel]] = set()
    while stack:
        model = stack.pop()
        if model in seen:
            continue
        seen.add(model)
        if _config(model, "graph_max_instances", None) is not None:
            return True
        for info in model.model_fields.values():
            stack.extend(_models_in_annotation(info.annotation))
    return False


def _models_in_annotation(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    for arg in get_args(annotation):
        found.extend(_models_in_annotation(arg))
    return found


def collect_id_fields(template: type[BaseModel]) -> dict[str, list[str]]:
    """``{class name: graph_id_fields}`` for every model class reachable from the template."""
    result: dict[str, list[str]] = {}
    stack: list[type[BaseModel]] = [template]
    seen: set[type[BaseModel]] = set()
    while stack:
        model = stack.pop()
        if model in seen:
            continue
        seen.add(model)
        config = getattr(model, "model_config", {}) or {}
        raw = config.get("graph_id_fields", []) if isinstance(config, dict) else []
        result[model.__name__] = [name for name in raw if isinstance(name, str)]
        for info in model.model_fields.values():
            stack.extend(_models_in_annotation(info.annotation))
    return result


@lru_cache(maxsize=4096)
def _declared_fields(model_type: type[BaseModel]) -> frozenset[str]:
    return frozenset(name for name in model_type.model_fields if name[:1] != "_")


def _fields(model: BaseModel) -> Iterable[tuple[str, Any]]:
    """``iter(model)`` without pydantic's per-call overhead: public fields, then extras.

    The usual instance holds only its declared fields and no extras: then its ``__dict__``
    items are the answer as they are (no copy, no per-name check; nothing changes them while
    a graph is built).
    """
    attributes = model.__dict__
    extra = model.__pydantic_extra__
    if not extra and attributes.keys() <= _declared_fields(type(model)):
        return attributes.items()
    fields = [item for item in attributes.items() if item[0][:1] != "_"]
    if extra:
        fields.extend(extra.items())
    return fields


@lru_cache(maxsize=4096)
def _field_edge_info(model_type: type[BaseModel], field_name: str) -> tuple[str, bool]:
    """(edge label, closed-catalog marker) of one field: ``json_schema_extra["edge_label"]``
    or the field name, and ``json_schema_extra["reference_closed_catalog"]``."""
    info = model_type.model_fields.get(field_name)
    if info is None or not isinstance(info.json_schema_extra, Mapping):
        return field_name, False
    label = info.json_schema_extra.get("edge_label")
    closed = bool(info.json_schema_extra.get("reference_closed_catalog"))
    return (label if isinstance(label, str) and label else field_name), closed


_SIZED = (str, list, dict)
"""The values that are empty when of length 0 (and None)."""


def _is_empty(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, _SIZED):
        return len(value) == 0
    return False


_FINGERPRINT_JSON = json.JSONEncoder(sort_keys=True, default=str)
"""``json.dumps(data, sort_keys=True, default=str)`` without building an encoder per call."""
_JSON_STRING = json.encoder.encode_basestring_ascii  # what the encoder writes a string as


def _text_fingerprint(data: dict[str, str | tuple[str, ...]]) -> str:
    """``_FINGERPRINT_JSON.encode(data)`` for string and string-tuple values, written directly
    (the same text; the encoder's per-call set-up cost more than the writing)."""
    parts = []
    for key in sorted(data):
        value = data[key]
        text = (
            _JSON_STRING(value)
            if isinstance(value, str)
            else "[" + ", ".join(map(_JSON_STRING, value)) + "]"
        )
        parts.append(f"{_JSON_STRING(key)}: {text}")
    return "{" + ", ".join(parts) + "}"


_PLAIN, _LIST, _ENTITY, _COMPONENT = range(4)
"""What a field value is to the walk, told by its type (see :func:`_kind_of`); a value that is
neither a model nor a list is plain (kept as it is). A model is a kind ``>= _ENTITY``."""

_KNOWN_KINDS: dict[type, int] = {
    str: _PLAIN, int: _PLAIN, float: _PLAIN, bool: _PLAIN, type(None): _PLAIN, list: _LIST
}  # fmt: skip


def _kind_of(value_type: type) -> int:
    """Entity, component, list or plain: ``isinstance(value, BaseModel)`` (a check through
    ABCMeta) and the entity check once per type; a converter keeps the answers in a dict."""
    if issubclass(value_type, BaseModel):
        return _ENTITY if _is_entity_type(value_type) else _COMPONENT
    return _LIST if issubclass(value_type, list) else _PLAIN


_OWN = "\x00own"
"""Edge mode of a walk step: the model is its own edge source (docling-graph's walk of an
entity's edges). The other modes are a source node id (edges through a component, drawn from
the nearest entity ancestor) and None (no edges in the subtree)."""


_STR_ONLY = frozenset({str})


def _plain_id(model_type: type, values: tuple[str, ...]) -> str:
    """The node id of identity values that are all plain strings: the fingerprint is
    :func:`_text_fingerprint`'s text, written from the class's template."""
    prefix, steps, tail = _plain_template(model_type)
    text = ""
    for head, name, index in steps:
        text += head + _JSON_STRING(canonical_identity_value(name, values[index]))
    return prefix + _digest(text + tail)


def _digest(fingerprint: str) -> str:
    """The hash part of a node id."""
    return hashlib.blake2b(fingerprint.encode()).digest()[:8].hex()  # hexdigest()[:16]


@lru_cache(maxsize=4096)
def _plain_template(model_type: type) -> tuple[str, tuple[tuple[str, str, int], ...], str]:
    """The id prefix (``<Class>_``) and the fingerprint text of a class's plain-string
    identity as the text before each value and the closing text: keys (its id fields and
    ``__class__``) in sorted order, each value read from the field's position in
    ``graph_id_fields`` (the last one, as a dict keeps the last), the class name written in."""
    names = list(_id_fields_of(model_type))
    last = {name: index for index, name in enumerate(names)}
    steps: list[tuple[str, str, int]] = []
    text = "{"
    for key in sorted({*names, "__class__"}):
        if text != "{" or steps:
            text += ", "
        text += f"{_JSON_STRING(key)}: "
        if key == "__class__":
            text += _JSON_STRING(model_type.__name__)
        else:
            steps.append((text, key, last[key]))
            text = ""
    return f"{model_type.__name__}_", tuple(steps), text + "}"


_SETTLED_PLAIN: frozenset[Any] = frozenset(
    {str, int, float, bool, bytes, type(None), decimal.Decimal, datetime.date,
     datetime.datetime, datetime.time, datetime.timedelta, uuid.UUID,
     dict, tuple, set, frozenset}
)  # fmt: skip
"""Annotations whose validated values are plain to the walk: never a model nor a list
(containers other than lists are kept whole, whatever they hold)."""


def _settled(annotation: Any) -> type | bool | None:
    """What a validated value of a field annotated ``annotation`` is to the walk: None when it
    is always plain, a type when that type (a model class, or list) is the only non-plain
    thing it can be, False when the annotation leaves it open (``Any``, a union of models,
    ``Annotated``, a class the walk does not know)."""
    if annotation is None:
        return None
    if isinstance(annotation, type):
        if annotation in _SETTLED_PLAIN or issubclass(annotation, enum.Enum):
            return None
        if annotation is list or issubclass(annotation, BaseModel):
            return annotation
        return False
    origin = get_origin(annotation)
    if origin is typing.Literal:
        plain = all(
            type(v) in _SETTLED_PLAIN or isinstance(v, enum.Enum) for v in get_args(annotation)
        )
        return None if plain else False
    if origin is list:
        return list
    if origin in (dict, tuple, set, frozenset):
        return None
    if origin is typing.Union or origin is types.UnionType:
        found: type | None = None
        for arg in get_args(annotation):
            kind = _settled(arg)
            if kind is False or (kind is not None and found not in (None, kind)):
                return False
            if kind is not None:
                found = kind  # type: ignore[assignment]  # a type (bool ruled out above)
        return found
    return False


def _validation_keeps_types(model_type: type[BaseModel]) -> bool:
    """Whether a validated instance's values are of their fields' annotated types: none of
    the template's code runs on a field after pydantic validated it (no after, wrap or plain
    field validator, no model validator but 'before' ones, no ``__init__`` or
    ``model_post_init`` of its own). Anything unexpected counts as code."""
    if (
        model_type.__init__ is not BaseModel.__init__
        or model_type.model_post_init is not BaseModel.model_post_init
    ):
        return False
    decorators = getattr(model_type, "__pydantic_decorators__", None)
    field_validators = getattr(decorators, "field_validators", None)
    model_validators = getattr(decorators, "model_validators", None)
    if not isinstance(field_validators, Mapping) or not isinstance(model_validators, Mapping):
        return False
    if getattr(decorators, "validators", True) or getattr(decorators, "root_validators", True):
        return False  # pydantic v1-style validators (or an unknown layout)
    return all(
        getattr(getattr(decorator, "info", None), "mode", None) == "before"
        for decorator in (*field_validators.values(), *model_validators.values())
    )


_Slot = tuple[str, Any, int, str, bool]
"""A field the walk must look at: name, the type its value has when the annotation settles
it (None: tested per value) and that type's kind, edge label, closed-catalog marker."""


@lru_cache(maxsize=4096)
def _class_plan(model_type: type[BaseModel], validated: bool) -> tuple[int, tuple[_Slot, ...]]:
    """A model class's conversion plan: how many fields it declares, and in order those that
    may hold a model or a list (the walk passes over the others without looking). Only an
    instance validated by pydantic is known to hold its annotated types: for any other every
    field is tested per value."""
    trusted = validated and _validation_keeps_types(model_type)
    slots: list[_Slot] = []
    for name, info in model_type.model_fields.items():
        expected = _settled(info.annotation) if trusted and not info.metadata else False
        if expected is None:
            continue  # always plain
        label, closed = _field_edge_info(model_type, name)
        if expected is False:
            slots.append((name, None, _PLAIN, label, closed))
        else:
            slots.append((name, expected, _kind_of(expected), label, closed))  # type: ignore[arg-type]
    return len(_declared_fields(model_type)), tuple(slots)


class _Plan:
    """How one converter reads a model class: its static plan (:func:`_class_plan`) and the
    node ids of the one-string identities it met."""

    __slots__ = ("entity", "extras", "ids", "label", "leaf", "single", "size", "slots", "text")

    def __init__(self, model_type: type[BaseModel], validated: bool) -> None:
        self.size, self.slots = _class_plan(model_type, validated)
        self.entity = _is_entity_type(model_type)
        self.leaf = self.entity and not self.slots  # an entity without model fields
        # whether an instance may hold extras (pydantic keeps them only with extra="allow")
        self.extras = _config(model_type, "extra", None) not in (None, "ignore", "forbid")
        self.label = _class_name(model_type)
        self.ids: dict[str, str] = {}
        prefix, steps, tail = _plain_template(model_type)
        # one id field (not named __class__, whose value the fingerprint never reads)
        self.single = steps[0][1] if len(_id_fields_of(model_type)) == 1 and steps else None
        self.text = (prefix, steps[0][0] if steps else "", tail)  # around the one value


class _Converter:
    """One conversion of a root instance: nodes, enrichment and edges in a single walk.

    docling-graph walks the instance tree twice: once adding nodes (each instance once,
    children before their parent, a repeated fingerprint enriching the first node) and once
    listing edges (every instance, pre-order). :meth:`visit` does both in one pass; each of
    its two outputs keeps its own walk's order, rules and skips, so the result is the same
    (the two outputs share no state but the node ids, which depend only on the instance).

    Each model is read through its class's plan: an instance pydantic validated from plain
    data holds values of its fields' annotated types, so a field annotated with plain types
    only is never looked at and a field annotated ``Model | None`` is tested against that one
    class. An instance with extras or missing fields, or not known to be validated, is read
    testing every value.
    """

    def __init__(self, validated: bool) -> None:
        self.validated = validated
        self.fingerprint_ids: dict[str, str] = {}
        self.raw_ids: dict[tuple[Any, Any], str] = {}  # (class, id values) -> id
        self.nodes: dict[str, dict[str, Any]] = {}
        self.visited: set[str] = set()
        self.processed: set[int] = set()
        self.edges = _EdgeTable()
        self.edge_data = self.edges.data
        self.kinds = dict(_KNOWN_KINDS)  # value type -> _kind_of(type)
        self.plans: dict[type, _Plan] = {}

    def plan(self, model_type: type[BaseModel]) -> _Plan:
        plan = self.plans.get(model_type)
        if plan is None:
            plan = self.plans[model_type] = _Plan(model_type, self.validated)
        return plan

    def read(self, model: BaseModel, plan: _Plan) -> tuple[dict[str, Any], tuple[_Slot, ...]]:
        """The model's fields (name -> value, in order) and the slots to look at: the plan's,
        or when the instance holds extras or lacks a field, every field (tested per
        value)."""
        attributes = model.__dict__
        if len(attributes) == plan.size and not (plan.extras and model.__pydantic_extra__):
            return attributes, plan.slots
        fields = dict(_fields(model))
        cls = type(model)
        return fields, tuple((name, None, _PLAIN, *_field_edge_info(cls, name)) for name in fields)

    def node_id(self, model: BaseModel) -> str:
        """The node id of an entity instance (computed per call: a walk asks once per visit)."""
        cls = type(model)
        plan = self.plans.get(cls) or self.plan(cls)
        if plan.single is not None:
            # The usual identity, one plain string (a declared field: in the instance's dict),
            # kept per string.
            value = model.__dict__.get(plan.single)
            if type(value) is str:
                return plan.ids.get(value) or self.single_id(plan, value)
        id_fields = _id_fields_of(cls)
        if id_fields:
            if len(id_fields) == 1:  # the usual case, without a comprehension
                values: tuple[Any, ...] = (getattr(model, id_fields[0], _MISSING),)
            else:
                values = tuple([getattr(model, name, _MISSING) for name in id_fields])
            if _STR_ONLY.issuperset(map(type, values)):
                # The common case: plain strings. The same values give the same id whatever
                # instance holds them: a repeated entity (a product on many lines) skips the
                # canonical forms and the hash.
                key = (cls, values)
                known = self.raw_ids.get(key)
                if known is None:
                    known = self.raw_ids[key] = _plain_id(cls, values)
                return known
            data: dict[str, Any] = {}
            for name, value in zip(id_fields, values, strict=True):
                if value is _MISSING:
                    continue
                if isinstance(value, list):
                    data[name] = tuple(sorted({canonical_identity_value(name, v) for v in value}))
                else:
                    data[name] = canonical_identity_value(name, value)
            data["__class__"] = cls.__name__
            return self._hashed(cls, _text_fingerprint(data))
        data = {}
        for name, value in _fields(model):
            if value and not isinstance(value, list | dict | BaseModel):
                data[name] = value
        data["__class__"] = cls.__name__
        return self._hashed(cls, _FINGERPRINT_JSON.encode(data))

    def single_id(self, plan: _Plan, value: str) -> str:
        """The node id of a one-string identity met for the first time (kept in the plan)."""
        prefix, head, tail = plan.text
        canonical = canonical_identity_value(plan.single or "", value)  # (single is set)
        fingerprint = head + _JSON_STRING(canonical) + tail
        digest = hashlib.blake2b(fingerprint.encode()).digest()[:8].hex()  # _digest, inlined
        known = plan.ids[value] = prefix + digest
        return known

    def child(self, source: str, item: BaseModel, label: str, closed: bool, add: bool) -> None:
        """An entity-valued field's edge from ``source`` to ``item`` and the walk of ``item``
        (:meth:`node_id` and :meth:`edge` without their calls in the usual case)."""
        cls = type(item)
        plan = self.plans.get(cls) or self.plan(cls)
        fields: dict[str, Any] = item.__dict__
        value = fields.get(plan.single) if plan.single is not None else None
        if type(value) is str:
            child_id = plan.ids.get(value) or self.single_id(plan, value)
        else:
            child_id = self.node_id(item)
        if source != child_id:  # a self-loop is never kept
            key = (source, child_id)
            edges = self.edge_data
            attrs = edges.get(key)
            if attrs is None:
                attrs = edges[key] = {"source": source, "target": child_id, "label": label}
            else:
                attrs["label"] = label  # one edge per pair: a later label overwrites
            if closed:
                attrs["_closed_catalog"] = label
        if plan.leaf and len(fields) == plan.size and not (plan.extras and item.__pydantic_extra__):
            # an entity without model fields: its walk at most adds its node
            if add:
                instance = id(item)
                if instance not in self.processed:
                    self.processed.add(instance)
                    attrs = self.new_node(child_id, plan, fields)
                    if attrs is not None:
                        self.nodes[child_id] = attrs
            return
        # an entity-first list's other items are edge targets too, but walked as what they are
        self.visit(item, add, _OWN, child_id if plan.entity else "")

    def new_node(self, node_id: str, plan: _Plan, fields: dict[str, Any]) -> dict[str, Any] | None:
        """The attributes of an entity's node, or None when the node exists (then the entity
        fills its empty attributes)."""
        if node_id in self.visited:
            self.enrich(node_id, fields)
            return None
        self.visited.add(node_id)
        label = plan.label
        attrs = {"id": node_id, "label": label, "type": "entity", "__class__": label}
        attrs.update(fields)  # the key order; model and list values are replaced by the walk
        return attrs

    def _hashed(self, cls: type, fingerprint: str) -> str:
        known = self.fingerprint_ids.get(fingerprint)
        if known is None:
            known = self.fingerprint_ids[fingerprint] = f"{cls.__name__}_{_digest(fingerprint)}"
        return known

    def kind(self, value: Any) -> int:
        """:func:`_kind_of` the value's type, kept per converter (one dict lookup per value)."""
        kind = self.kinds.get(type(value))
        if kind is None:
            kind = self.kinds[type(value)] = _kind_of(type(value))
        return kind

    def component_attrs(self, component: BaseModel) -> tuple[dict[str, Any], bool]:
        """A component's attributes as embedded in its parent node (entities in it nulled),
        and whether it holds no model at all (then walking it adds nothing)."""
        cls = type(component)
        plan = self.plans.get(cls) or self.plan(cls)
        fields: dict[str, Any] = component.__dict__
        if len(fields) == plan.size and not (plan.extras and component.__pydantic_extra__):
            slots = plan.slots  # (what :meth:`read` answers, without the call)
        else:
            fields, slots = self.read(component, plan)
        out = dict(fields)
        leaf = True
        kinds = self.kinds
        for name, expected, kind, _, _ in slots:
            value = fields[name]
            if type(value) is not expected:
                found = kinds.get(type(value))
                kind = self.kind(value) if found is None else found
            if kind == _PLAIN:
                continue
            if kind == _ENTITY:
                leaf = False
                out[name] = None
            elif kind == _COMPONENT:
                leaf = False
                out[name] = self.component_attrs(value)[0]
            else:
                models = [item for item in value if self.kind(item) >= _ENTITY]
                if models:
                    leaf = False
                    out[name] = (
                        None
                        if self.kind(models[0]) == _ENTITY
                        else [self.component_attrs(v)[0] for v in models]
                    )
        return out, leaf

    def enrich(self, node_id: str, fields: dict[str, Any]) -> None:
        """Fill the empty attributes of an existing node from a repeated entity's fields.

        Done whole before the walk goes below the repeat (as docling-graph does): a repeat
        further down fills only what this one left empty.
        """
        existing = self.nodes.get(node_id)
        if existing is None:
            return  # an ancestor of this repeat: its node is added after its children
        for name, value in fields.items():
            old = existing.get(name)
            if old is not None and (not isinstance(old, _SIZED) or len(old)):
                continue  # filled: the first non-empty value wins (the new one is not needed)
            kind = self.kind(value)
            if kind == _ENTITY:
                continue
            if kind == _COMPONENT:
                new: Any = self.component_attrs(value)[0]
            elif kind == _LIST and value and self.kind(value[0]) in (_ENTITY, _COMPONENT):
                if self.kind(value[0]) == _ENTITY:
                    continue
                new = [self.component_attrs(v)[0] for v in value if self.kind(v) >= _ENTITY]
            else:
                new = value
            if not _is_empty(new):
                existing[name] = new

    def visit(self, model: BaseModel, add: bool, mode: str | None, node_id: str = "") -> None:
        """Walk ``model``: add its nodes when ``add`` and list its edges by ``mode``.

        ``add`` follows docling-graph's node walk (an instance object once; a first entity
        builds its node, a repeated one enriches it; children before parents). ``mode`` follows
        its edge walk: :data:`_OWN` for an entity's own edges (a list counts as entities or
        components by its first item; an entity list gets an edge per item), a source id for
        a component's (each list item by its own kind), None for none (below a component that
        the edge walk reached as an entity: it has no edges). ``node_id`` is the model's id
        when the caller has it and knows the model is an entity.
        """
        if add:
            key = id(model)
            if key in self.processed:
                add = False  # the node walk skips an instance object seen before
            else:
                self.processed.add(key)
        cls = type(model)
        plan = self.plans.get(cls) or self.plan(cls)
        if not node_id and plan.entity:
            node_id = self.node_id(model)
        own = mode is _OWN
        if own:
            mode = node_id or None
        if not add and mode is None:
            return
        fields: dict[str, Any] = model.__dict__
        if len(fields) == plan.size and not (plan.extras and model.__pydantic_extra__):
            slots = plan.slots  # (what :meth:`read` answers, without the call)
        else:
            fields, slots = self.read(model, plan)
        # the node this visit builds, if any
        attrs = self.new_node(node_id, plan, fields) if add and node_id else None
        kinds = self.kinds
        for name, expected, kind, label, closed in slots:
            value = fields[name]
            if type(value) is not expected:
                found = kinds.get(type(value))
                kind = self.kind(value) if found is None else found
                if kind == _PLAIN:
                    continue
            if kind != _LIST:
                if kind == _ENTITY:
                    if attrs is not None:
                        attrs[name] = None
                    if mode is not None:
                        self.child(mode, value, label, closed, add)
                    else:
                        self.visit(value, add, None)
                elif attrs is not None:
                    inner = self.plans.get(type(value))
                    if (
                        inner is not None
                        and not inner.slots
                        and len(value.__dict__) == inner.size
                        and not (inner.extras and value.__pydantic_extra__)
                    ):  # a component of plain fields (as :meth:`read` tells): embedded whole,
                        # and its walk adds nothing
                        attrs[name] = dict(value.__dict__)
                        continue
                    attrs[name], leaf = self.component_attrs(value)
                    if not leaf:  # a leaf's walk adds nothing
                        self.visit(value, add, mode)
                else:
                    self.visit(value, add, mode)
                continue
            first = self.kind(value[0]) if value else _PLAIN
            first_model = first >= _ENTITY
            if attrs is not None:
                if not first_model:
                    attrs[name] = value
                elif first == _ENTITY:
                    attrs[name] = None
                else:
                    attrs[name] = [
                        self.component_attrs(v)[0] for v in value if self.kind(v) >= _ENTITY
                    ]
            # A new node's own walk enters only lists that start with a model.
            add_items = add and (first_model or attrs is None)
            if own and mode is not None:
                if not first_model:
                    if add_items:
                        self.visit_items(value, None)
                elif first == _ENTITY:
                    for item in value:  # every item is an edge target, as in the reference
                        self.child(mode, item, label, closed, add_items)
                else:
                    self.visit_items(value, mode, add_items)
            elif mode is not None:
                for item in value:
                    item_kind = self.kind(item)
                    if item_kind == _ENTITY:
                        self.child(mode, item, label, closed, add_items)
                    elif item_kind == _COMPONENT:
                        self.visit(item, add_items, mode)
            elif add_items:
                self.visit_items(value, None)
        if attrs is not None:
            self.nodes[node_id] = attrs  # after its children, as the reference lists them

    def visit_items(self, items: list[Any], mode: str | None, add: bool = True) -> None:
        for item in items:
            if self.kind(item) >= _ENTITY:
                self.visit(item, add, mode)


_MISSING: Any = object()


_RICHNESS_META = frozenset(
    {"id", "label", "type", "__class__", "__provenance__", "merged_aliases", "merged_from",
     "__conflicts__"}
)  # fmt: skip


class _EdgeTable:
    """Directed edges keyed by (source, target), in insertion order, with in/out lookups.

    Each value is the edge's output dict (``source``, ``target``, ``label``, ...).
    """

    def __init__(self) -> None:
        self.data: dict[tuple[str, str], dict[str, Any]] = {}

    def incoming(self, node_id: str) -> list[tuple[str, str]]:
        return [pair for pair in self.data if pair[1] == node_id]

    def remove_node(self, node_id: str) -> None:
        for pair in [p for p in self.data if node_id in p]:
            del self.data[pair]


def _enforce_closed_catalogs(nodes: dict[str, dict[str, Any]], edges: _EdgeTable) -> None:
    """Drop closed-catalog reference edges to targets no other edge anchors (then the target
    too when it is left unconnected), unless that would wipe every node of the class."""
    if not any(map(operator.contains, edges.data.values(), itertools.repeat("_closed_catalog"))):
        return  # no closed-catalog field in this template: nothing to drop or to clean
    incoming: dict[str, list[tuple[str, str]]] = {}
    for pair in edges.data:
        incoming.setdefault(pair[1], []).append(pair)

    def marked(pair: tuple[str, str]) -> bool:
        attrs = edges.data[pair]
        marker = attrs.get("_closed_catalog")
        return bool(marker) and marker == attrs.get("label")

    total: dict[str, int] = {}
    candidates: dict[str, list[str]] = {}
    any_marker = False
    for node_id, attrs in nodes.items():
        cls = str(attrs.get("__class__") or "")
        total[cls] = total.get(cls, 0) + 1
        pairs = incoming.get(node_id, [])
        if pairs and any(marked(p) for p in pairs):
            any_marker = True
            if all(marked(p) for p in pairs):
                candidates.setdefault(cls, []).append(node_id)
    if any_marker:
        for cls, members in candidates.items():
            if len(members) >= total.get(cls, 0):
                continue
            for node_id in members:
                for pair in edges.incoming(node_id):
                    del edges.data[pair]
                if not any(node_id in pair for pair in edges.data):
                    del nodes[node_id]
    for attrs in edges.data.values():
        attrs.pop("_closed_catalog", None)


def _cardinality_bounds(instance: BaseModel) -> dict[str, int]:
    bounds: dict[str, int] = {}
    seen: set[int] = set()

    def visit(model: BaseModel) -> None:
        if id(model) in seen:
            return
        seen.add(id(model))
        raw = _config(model, "graph_max_instances", None)
        if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 1:
            bounds[type(model).__name__] = raw
        for _, value in _fields(model):
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, BaseModel):
                    visit(item)

    visit(instance)
    return bounds


def _instance_id_fields(instance: BaseModel) -> dict[str, list[str]]:
    result: dict[str, list[str]] = {}
    seen: set[int] = set()

    def visit(model: Any) -> None:
        if id(model) in seen or not isinstance(model, BaseModel):
            return
        seen.add(id(model))
        config = getattr(model, "model_config", {}) or {}
        raw = config.get("graph_id_fields", []) if isinstance(config, dict) else []
        result.setdefault(type(model).__name__, [f for f in raw if isinstance(f, str)])
        for _, value in _fields(model):
            items = value if isinstance(value, list) else [value]
            for item in items:
                if isinstance(item, BaseModel):
                    visit(item)

    visit(instance)
    return result


def _richness(attrs: dict[str, Any]) -> int:
    return sum(
        1
        for key, value in attrs.items()
        if key not in _RICHNESS_META
        and value is not None
        and not (isinstance(value, str | list | dict) and not value)
    )


def _enforce_bounds(
    nodes: dict[str, dict[str, Any]], edges: _EdgeTable, instance: BaseModel
) -> None:
    """Keep the best-supported ``graph_max_instances`` nodes of a bounded class, drop the rest.

    Ranked by filled attributes, then in-edges from non-root nodes, then canonical identity,
    then node id (no provenance is bound to a ground truth, so that criterion is always 0).
    """
    if not _declares_bounds(type(instance)):
        return  # nothing to enforce: skip the walk over every instance
    bounds = _cardinality_bounds(instance)
    if not bounds:
        return
    root_class = type(instance).__name__
    id_fields = _instance_id_fields(instance)
    for cls in sorted(bounds):
        sources: dict[str, list[str]] = {}
        for source, target in edges.data:
            sources.setdefault(target, []).append(source)
        scored = []
        for node_id, attrs in nodes.items():
            if str(attrs.get("__class__") or "") != cls:
                continue
            external = sum(
                1
                for source in sources.get(node_id, [])
                if str(nodes.get(source, {}).get("__class__") or "") != root_class
            )
            identity = "".join(
                canonical_identity_value(name, attrs.get(name))
                for name in id_fields.get(cls, [])
                if attrs.get(name) is not None
            )
            scored.append((node_id, _richness(attrs), external, identity))
        if len(scored) <= bounds[cls]:
            continue
        scored.sort(key=lambda s: (-s[1], -s[2], s[3], str(s[0])))
        for node_id, *_ in scored[bounds[cls] :]:
            del nodes[node_id]
            edges.remove_node(node_id)


def graph_from_instance(instance: BaseModel, *, validated: bool = False) -> GraphData:
    """Convert a root instance into nodes and edges by the converter's rules.

    ``validated=True`` says that pydantic built the instance from plain data just now (as
    :func:`truth_graph_from_data` does), so its values are of their fields' annotated types
    and the walk skips the fields that cannot hold a model (see :class:`_Converter`). Any
    other instance (``model_construct``, assignments, a copy with updates) may hold anything
    anywhere, so every value is tested.
    """
    converter = _Converter(validated)
    converter.visit(instance, True, _OWN)
    return _finish(converter.nodes, converter.edges, instance)


def _finish(nodes: dict[str, dict[str, Any]], edges: _EdgeTable, instance: BaseModel) -> GraphData:
    """The walk's nodes and edges with closed catalogs and bounds enforced, edges in order."""
    _enforce_closed_catalogs(nodes, edges)
    _enforce_bounds(nodes, edges, instance)
    # Edges listed as a directed graph lists them: by source node order, then first insertion
    # (a stable sort by the source's position; sources without a node last), in C loops.
    position = dict(zip(nodes, itertools.count()))
    ranks = list(map(position.get, map(itemgetter(0), edges.data), itertools.repeat(len(nodes))))
    listed = list(edges.data.values())
    return GraphData(
        nodes=list(nodes.values()),
        edges=list(map(listed.__getitem__, sorted(range(len(ranks)), key=ranks.__getitem__))),
        graph={"template_name": type(instance).__name__},
    )


def _validation_summary(exc: ValidationError, limit: int = 3) -> str:
    parts = []
    for error in exc.errors()[:limit]:
        location = ".".join(str(p) for p in error.get("loc", ())) or "(root)"
        parts.append(f"{location}: {error.get('msg', 'invalid')}")
    more = exc.error_count() - limit
    if more > 0:
        parts.append(f"... and {more} more")
    return "; ".join(parts)


def truth_graph_from_data(data: Any, path: str | Path, template: type[BaseModel]) -> GraphData:
    """A parsed ground truth validated against the template and converted into a graph
    (``path`` names it in errors; the ``instance`` reader,
    :func:`parsescore.graph.io.read_instance`)."""
    try:
        instance = template.model_validate(data)
    except ValidationError as exc:
        hint = ""
        if isinstance(data, dict) and isinstance(data.get("nodes"), list) and "edges" in data:
            hint = "; it is a graph.json (nodes, edges): did you swap --truth and --pred?"
        raise InputError(
            f"ground truth does not validate against {template.__name__}: "
            f"{_validation_summary(exc)}{hint}",
            path=path,
        ) from None
    return graph_from_instance(instance, validated=True)
