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

import hashlib
import importlib
import importlib.util
import json
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel, ValidationError

from parsescore.errors import InputError
from parsescore.files import load_json
from parsescore.graph.canon import canonical_identity_value

__all__ = [
    "GraphData",
    "collect_id_fields",
    "graph_from_instance",
    "is_entity_model",
    "load_template",
    "truth_graph_from_file",
]


@dataclass
class GraphData:
    """A graph as the evaluator sees it: node dicts and edge dicts, in file order.

    Attributes:
        nodes: ``{"id", "label", "type", "__class__", <fields>...}`` per node.
        edges: ``{"source", "target", "label", ...}`` per edge.
        graph: graph-level metadata (``id_fields_map``, ``template_name``, audit keys).
        warnings: what was odd but scored as the reference scores it (dangling edges, ...).
    """

    nodes: list[dict[str, Any]]
    edges: list[dict[str, Any]]
    graph: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


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
def _id_fields_of(model_type: type) -> Any:
    return _config(model_type, "graph_id_fields", [])


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


def _fields(model: BaseModel) -> list[tuple[str, Any]]:
    """``iter(model)`` without pydantic's per-call overhead: public fields, then extras."""
    fields = [item for item in model.__dict__.items() if not item[0].startswith("_")]
    extra = model.__pydantic_extra__
    if extra:
        fields.extend(extra.items())
    return fields


@lru_cache(maxsize=4096)
def _field_edge_info(model_type: type[BaseModel], field_name: str) -> tuple[str | None, bool]:
    """(explicit edge label, closed-catalog marker) of one field, from json_schema_extra."""
    info = model_type.model_fields.get(field_name)
    if info is None or not isinstance(info.json_schema_extra, Mapping):
        return None, False
    label = info.json_schema_extra.get("edge_label")
    closed = bool(info.json_schema_extra.get("reference_closed_catalog"))
    return (label if isinstance(label, str) else None), closed


def _edge_label(model: BaseModel, field_name: str) -> str | None:
    return _field_edge_info(type(model), field_name)[0]


def _closed_catalog(model: BaseModel, field_name: str) -> bool:
    return _field_edge_info(type(model), field_name)[1]


def _is_empty(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, str | list | dict):
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


class _Converter:
    """One conversion of a root instance (node ids, node attributes, edges)."""

    def __init__(self) -> None:
        self.fingerprint_ids: dict[str, str] = {}
        self.instance_ids: dict[int, tuple[BaseModel, str]] = {}
        self.nodes: dict[str, dict[str, Any]] = {}
        self.visited: set[str] = set()
        self.processed: set[int] = set()
        self.field_lists: dict[int, list[tuple[str, Any]]] = {}

    def fields(self, model: BaseModel) -> list[tuple[str, Any]]:
        """:func:`_fields` of an instance, once per conversion (the walks visit it again)."""
        found = self.field_lists.get(id(model))
        if found is None:
            found = self.field_lists[id(model)] = _fields(model)
        return found

    def node_id(self, model: BaseModel) -> str:
        cached = self.instance_ids.get(id(model))
        if cached is not None and cached[0] is model:
            return cached[1]
        node_id = self._fingerprint_id(model)
        self.instance_ids[id(model)] = (model, node_id)  # the instance is kept alive with its id
        return node_id

    def _fingerprint_id(self, model: BaseModel) -> str:
        id_fields = _id_fields_of(type(model))
        data: dict[str, Any] = {}
        if id_fields:
            for name in id_fields:
                if hasattr(model, name):
                    value = getattr(model, name)
                    if isinstance(value, list):
                        data[name] = tuple(
                            sorted({canonical_identity_value(name, v) for v in value})
                        )
                    else:
                        data[name] = canonical_identity_value(name, value)
            data["__class__"] = type(model).__name__
            fingerprint = _text_fingerprint(data)
        else:
            for name, value in self.fields(model):
                if value and not isinstance(value, list | dict | BaseModel):
                    data[name] = value
            data["__class__"] = type(model).__name__
            fingerprint = _FINGERPRINT_JSON.encode(data)
        known = self.fingerprint_ids.get(fingerprint)
        if known is None:
            digest = hashlib.blake2b(fingerprint.encode()).hexdigest()[:16]
            known = f"{type(model).__name__}_{digest}"
            self.fingerprint_ids[fingerprint] = known
        return known

    def component_attrs(self, component: BaseModel) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in self.fields(component):
            if isinstance(value, BaseModel):
                out[name] = None if is_entity_model(value) else self.component_attrs(value)
            elif isinstance(value, list) and any(isinstance(v, BaseModel) for v in value):
                first = next(v for v in value if isinstance(v, BaseModel))
                out[name] = (
                    None
                    if is_entity_model(first)
                    else [self.component_attrs(v) for v in value if isinstance(v, BaseModel)]
                )
            else:
                out[name] = value
        return out

    def walk_children(self, model: BaseModel) -> None:
        for _, value in self.fields(model):
            if isinstance(value, BaseModel):
                self.add_nodes(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, BaseModel):
                        self.add_nodes(item)

    def enrich(self, model: BaseModel, node_id: str) -> None:
        existing = self.nodes.get(node_id)
        if existing is None:
            return
        for name, value in self.fields(model):
            if isinstance(value, BaseModel):
                if is_entity_model(value):
                    continue
                new: Any = self.component_attrs(value)
            elif isinstance(value, list) and value and isinstance(value[0], BaseModel):
                if is_entity_model(value[0]):
                    continue
                new = [self.component_attrs(v) for v in value if isinstance(v, BaseModel)]
            else:
                new = value
            if not _is_empty(new) and _is_empty(existing.get(name)):
                existing[name] = new

    def add_nodes(self, model: BaseModel) -> None:
        if id(model) in self.processed:
            return
        self.processed.add(id(model))
        if not is_entity_model(model):
            self.walk_children(model)
            return
        node_id = self.node_id(model)
        if node_id in self.visited:
            self.enrich(model, node_id)
            self.walk_children(model)
            return
        self.visited.add(node_id)
        class_name = type(model).__name__
        attrs: dict[str, Any] = {
            "id": node_id,
            "label": class_name,
            "type": "entity",
            "__class__": class_name,
        }
        for name, value in self.fields(model):
            if isinstance(value, BaseModel):
                attrs[name] = None if is_entity_model(value) else self.component_attrs(value)
                self.add_nodes(value)
            elif isinstance(value, list) and value and isinstance(value[0], BaseModel):
                if is_entity_model(value[0]):
                    attrs[name] = None
                else:
                    attrs[name] = [
                        self.component_attrs(v) for v in value if isinstance(v, BaseModel)
                    ]
                for item in value:
                    if isinstance(item, BaseModel):
                        self.add_nodes(item)
            else:
                attrs[name] = value
        self.nodes[node_id] = attrs

    def edges_of(self, model: BaseModel) -> Iterator[tuple[str, str, str, bool]]:
        if not is_entity_model(model):
            return
        source = self.node_id(model)
        for name, value in self.fields(model):
            if isinstance(value, BaseModel):
                if is_entity_model(value):
                    label = _edge_label(model, name) or name
                    yield source, self.node_id(value), label, _closed_catalog(model, name)
                    yield from self.edges_of(value)
                else:
                    yield from self.edges_through_component(source, value)
            elif isinstance(value, list) and value and isinstance(value[0], BaseModel):
                if is_entity_model(value[0]):
                    label = _edge_label(model, name) or name
                    closed = _closed_catalog(model, name)
                    for item in value:
                        yield source, self.node_id(item), label, closed
                        yield from self.edges_of(item)
                else:
                    for item in value:
                        if isinstance(item, BaseModel):
                            yield from self.edges_through_component(source, item)

    def edges_through_component(
        self, source: str, component: BaseModel
    ) -> Iterator[tuple[str, str, str, bool]]:
        for name, value in self.fields(component):
            items = [value] if isinstance(value, BaseModel) else value
            if not isinstance(items, list):
                continue
            for item in items:
                if not isinstance(item, BaseModel):
                    continue
                if is_entity_model(item):
                    label = _edge_label(component, name) or name
                    yield source, self.node_id(item), label, _closed_catalog(component, name)
                    yield from self.edges_of(item)
                else:
                    yield from self.edges_through_component(source, item)


_RICHNESS_META = frozenset(
    {"id", "label", "type", "__class__", "__provenance__", "merged_aliases", "merged_from",
     "__conflicts__"}
)  # fmt: skip


class _EdgeTable:
    """Directed edges keyed by (source, target), in insertion order, with in/out lookups."""

    def __init__(self) -> None:
        self.data: dict[tuple[str, str], dict[str, Any]] = {}

    def add(self, source: str, target: str, attrs: dict[str, Any]) -> None:
        self.data.setdefault((source, target), {}).update(attrs)

    def incoming(self, node_id: str) -> list[tuple[str, str]]:
        return [pair for pair in self.data if pair[1] == node_id]

    def remove_node(self, node_id: str) -> None:
        for pair in [p for p in self.data if node_id in p]:
            del self.data[pair]


def _enforce_closed_catalogs(nodes: dict[str, dict[str, Any]], edges: _EdgeTable) -> None:
    """Drop closed-catalog reference edges to targets no other edge anchors (then the target
    too when it is left unconnected), unless that would wipe every node of the class."""
    if not any("_closed_catalog" in attrs for attrs in edges.data.values()):
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


def graph_from_instance(instance: BaseModel) -> GraphData:
    """Convert a validated root instance into nodes and edges by the converter's rules."""
    converter = _Converter()
    converter.node_id(instance)
    converter.add_nodes(instance)
    edges = _EdgeTable()
    for source, target, label, closed in converter.edges_of(instance):
        attrs: dict[str, Any] = {"label": label}
        if closed:
            attrs["_closed_catalog"] = label
        edges.add(source, target, attrs)
    for pair in [p for p in edges.data if p[0] == p[1]]:
        del edges.data[pair]
    nodes = converter.nodes
    _enforce_closed_catalogs(nodes, edges)
    _enforce_bounds(nodes, edges, instance)
    # Edges listed as a directed graph lists them: by source node order, then first insertion.
    order = {node_id: index for index, node_id in enumerate(nodes)}
    listed = sorted(
        ((order.get(s, len(order)), i, s, t) for i, (s, t) in enumerate(edges.data)),
        key=lambda item: (item[0], item[1]),
    )
    return GraphData(
        nodes=[{"id": node_id, **attrs} for node_id, attrs in nodes.items()],
        edges=[{"source": s, "target": t, **edges.data[s, t]} for _, _, s, t in listed],
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


def truth_graph_from_file(path: str | Path, template: type[BaseModel]) -> GraphData:
    """Validate a ground-truth JSON against the template and convert it into a graph."""
    data = load_json(path)
    try:
        instance = template.model_validate(data)
    except ValidationError as exc:
        raise InputError(
            f"ground truth does not validate against {template.__name__}: "
            f"{_validation_summary(exc)}",
            path=path,
        ) from None
    return graph_from_instance(instance)
