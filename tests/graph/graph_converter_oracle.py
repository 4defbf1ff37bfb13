"""The truth converter's walk as it was before per-class plans: every field of every model
tested by its value's type (:class:`GeneralConverter`, kept verbatim as the oracle of
test_graph_converter_plans.py). It shares the id helpers and the final steps (closed
catalogs, bounds, edge order) with :mod:`parsescore.graph.template`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from parsescore.graph.canon import canonical_identity_value
from parsescore.graph.template import (
    _COMPONENT,
    _ENTITY,
    _FINGERPRINT_JSON,
    _KNOWN_KINDS,
    _LIST,
    _MISSING,
    _OWN,
    _PLAIN,
    _STR_ONLY,
    GraphData,
    _class_name,
    _digest,
    _EdgeTable,
    _field_edge_info,
    _fields,
    _finish,
    _id_fields_of,
    _is_empty,
    _kind_of,
    _plain_id,
    _text_fingerprint,
)


def general_graph(instance: BaseModel) -> GraphData:
    """``graph_from_instance`` through the general walk."""
    converter = GeneralConverter()
    converter.visit(instance, True, _OWN)
    return _finish(converter.nodes, converter.edges, instance)


class GeneralConverter:
    """One conversion of a root instance: nodes, enrichment and edges in a single walk.

    docling-graph walks the instance tree twice: once adding nodes (each instance once,
    children before their parent, a repeated fingerprint enriching the first node) and once
    listing edges (every instance, pre-order). :meth:`visit` does both in one pass; each of
    its two outputs keeps its own walk's order, rules and skips, so the result is the same
    (the two outputs share no state but the node ids, which depend only on the instance).
    """

    def __init__(self) -> None:
        self.fingerprint_ids: dict[str, str] = {}
        self.raw_ids: dict[tuple[Any, Any], str] = {}  # (class, id string or id values) -> id
        self.nodes: dict[str, dict[str, Any]] = {}
        self.visited: set[str] = set()
        self.processed: set[int] = set()
        self.leaves: set[int] = set()  # id() of components holding only plain values
        self.edges = _EdgeTable()
        self.kinds = dict(_KNOWN_KINDS)  # value type -> _kind_of(type)

    def node_id(self, model: BaseModel) -> str:
        """The node id of an entity instance (computed per call: a walk asks once per visit)."""
        cls = type(model)
        id_fields = _id_fields_of(cls)
        if len(id_fields) == 1:
            # The usual identity, one plain string (a declared field: in the instance's dict),
            # keyed by the string itself (a tuple of values never equals it).
            value = model.__dict__.get(id_fields[0])
            if type(value) is str:
                single = self.raw_ids.get((cls, value))
                if single is None:
                    single = self.raw_ids[cls, value] = _plain_id(cls, (value,))
                return single
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

    def list_models(self, items: list[Any]) -> tuple[list[Any], bool]:
        """The models of a list (in order) and whether the first of them is an entity."""
        models = [item for item in items if self.kind(item) >= _ENTITY]
        return models, bool(models) and self.kind(models[0]) == _ENTITY

    def component_attrs(self, component: BaseModel) -> dict[str, Any]:
        """A component's attributes as embedded in its parent node (entities in it nulled).

        A component holding no model at all is noted in ``leaves``: walking it adds nothing.
        """
        out: dict[str, Any] = {}
        leaf = True
        kinds = self.kinds
        for name, value in _fields(component):
            kind = kinds.get(type(value))
            if kind is None:
                kind = self.kind(value)
            if kind == _PLAIN:
                out[name] = value
            elif kind == _ENTITY:
                leaf = False
                out[name] = None
            elif kind == _COMPONENT:
                leaf = False
                out[name] = self.component_attrs(value)
            else:
                models, entities = self.list_models(value)
                if models:
                    leaf = False
                    out[name] = None if entities else [self.component_attrs(v) for v in models]
                else:
                    out[name] = value
        if leaf:
            self.leaves.add(id(component))
        return out

    def enrich(self, node_id: str, fields: Iterable[tuple[str, Any]]) -> None:
        """Fill the empty attributes of an existing node from a repeated entity's fields.

        Done whole before the walk goes below the repeat (as docling-graph does): a repeat
        further down fills only what this one left empty.
        """
        existing = self.nodes.get(node_id)
        if existing is None:
            return  # an ancestor of this repeat: its node is added after its children
        for name, value in fields:
            if not _is_empty(existing.get(name)):
                continue  # filled: the first non-empty value wins (the new one is not needed)
            kind = self.kind(value)
            if kind == _ENTITY:
                continue
            if kind == _COMPONENT:
                new: Any = self.component_attrs(value)
            elif kind == _LIST and value and self.kind(value[0]) in (_ENTITY, _COMPONENT):
                if self.kind(value[0]) == _ENTITY:
                    continue
                new = [self.component_attrs(v) for v in value if self.kind(v) >= _ENTITY]
            else:
                new = value
            if not _is_empty(new):
                existing[name] = new

    def edge(self, source: str, target: str, label: str, closed: bool) -> None:
        """Add an edge (label and marker from :func:`_field_edge_info`); a self-loop is never
        kept, so not added."""
        if source == target:
            return
        key = (source, target)
        attrs = self.edges.data.get(key)
        if attrs is None:
            attrs = self.edges.data[key] = {
                "source": source,
                "target": target,
                "label": label,
            }
        else:
            attrs["label"] = label  # one edge per pair: a later label overwrites
        if closed:
            attrs["_closed_catalog"] = label

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
            if id(model) in self.processed:
                add = False  # the node walk skips an instance object seen before
            else:
                self.processed.add(id(model))
        kinds = self.kinds
        entity = bool(node_id) or self.kind(model) == _ENTITY
        if entity and not node_id:
            node_id = self.node_id(model)
        own = mode is _OWN
        if own:
            mode = node_id or None
        if not add and mode is None:
            return
        fields = _fields(model)
        attrs: dict[str, Any] | None = None  # the node this visit builds, if any
        if add and entity:
            if node_id in self.visited:
                self.enrich(node_id, fields)
            else:
                self.visited.add(node_id)
                label = _class_name(type(model))
                attrs = {"id": node_id, "label": label, "type": "entity", "__class__": label}
                attrs.update(fields)  # the key order; model and list values are replaced below
        for name, value in fields:
            kind = kinds.get(type(value))
            if kind is None:
                kind = self.kind(value)
            if kind == _PLAIN:
                continue
            if kind != _LIST:
                child_entity = kind == _ENTITY
                if attrs is not None:
                    attrs[name] = None if child_entity else self.component_attrs(value)
                if mode is not None and child_entity:
                    child_id = self.node_id(value)
                    self.edge(mode, child_id, *_field_edge_info(type(model), name))
                    self.visit(value, add, _OWN, child_id)
                elif child_entity or id(value) not in self.leaves:  # a leaf's walk adds nothing
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
                        self.component_attrs(v) for v in value if self.kind(v) >= _ENTITY
                    ]
            # A new node's own walk enters only lists that start with a model.
            add_items = add and (first_model or attrs is None)
            if mode is not None:
                label, closed = _field_edge_info(type(model), name)
            if own and mode is not None:
                if not first_model:
                    if add_items:
                        self.visit_items(value, None)
                elif first == _ENTITY:
                    for item in value:  # every item is an edge target, as in the reference
                        child_id = self.node_id(item)
                        self.edge(mode, child_id, label, closed)
                        entity_item = kinds.get(type(item)) == _ENTITY  # a mixed list's are not
                        self.visit(item, add_items, _OWN, child_id if entity_item else "")
                else:
                    self.visit_items(value, mode, add_items)
            elif mode is not None:
                for item in value:
                    item_kind = self.kind(item)
                    if item_kind == _ENTITY:
                        child_id = self.node_id(item)
                        self.edge(mode, child_id, label, closed)
                        self.visit(item, add_items, _OWN, child_id)
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
