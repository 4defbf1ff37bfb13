"""JSON Schemas (draft 2020-12) of every result document (``parsescore schema NAME``).

The schemas are built in Python from the formats the commands write: each kind contributes the
definitions of its ``--out`` documents (:attr:`parsescore.core.kinds.Kind.schema`), this module the
shared building blocks, ``compare --out`` and the result envelope, so that other tools can check
a file without reading our code. Policy, the same for every kind:

* records whose shape is fixed (counts, P/R/F1, category counts, a node match, a confidence
  interval, ...) are strict: every key required, no other key allowed, counts are ``integer``
  and scores ``number``, fixed sets of categories exact;
* envelopes (a document's top level, its ``inputs``/``options``) list and require their keys but
  accept extra ones, so that a kind may add detail without breaking older readers.

``result`` is the common result envelope every dataset command writes with ``--result``
(:meth:`parsescore.core.results.Result.to_json`): strict at the top level, each item's ``detail``
and the ``dataset`` described per kind but open (a kind may add drill-down detail). ``any`` is "any
document :func:`parsescore.core.results.load_result` accepts": one of the kinds' documents or an
envelope."""

from __future__ import annotations

import copy
from typing import Any

from parsescore.core.errors import InputError
from parsescore.core.files import dump_json
from parsescore.core.kinds import kinds
from parsescore.core.results import ENVELOPE_KEY, ENVELOPE_VERSION

__all__ = [
    "COUNT",
    "DRAFT",
    "NUMBER",
    "STRING",
    "STRINGS",
    "UNIT",
    "map_of",
    "nullable",
    "record",
    "ref",
    "schema",
    "schema_json",
    "schema_names",
    "validate",
]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
_BASE_ID = "urn:parsescore:schema:"

# -- building blocks (the kinds' schema modules use them) --------------------------------------

NUMBER: dict[str, Any] = {"type": "number"}
COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
UNIT: dict[str, Any] = {"type": "number", "minimum": 0, "maximum": 1}
STRING: dict[str, Any] = {"type": "string"}
STRINGS: dict[str, Any] = {"type": "array", "items": STRING}


def ref(name: str) -> dict[str, Any]:
    """A reference to the definition ``name``."""
    return {"$ref": f"#/$defs/{name}"}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def record(
    properties: dict[str, Any],
    *,
    optional: tuple[str, ...] = (),
    extra: bool | dict[str, Any] = False,
    description: str | None = None,
) -> dict[str, Any]:
    """An object whose keys are all required but ``optional``; ``extra`` governs other keys."""
    out: dict[str, Any] = {"type": "object"}
    if description:
        out["description"] = description
    out["properties"] = properties
    out["required"] = [k for k in properties if k not in optional]
    out["additionalProperties"] = extra
    return out


def map_of(values: dict[str, Any], **more: Any) -> dict[str, Any]:
    """An object with free keys (names, ids) whose values all match ``values``."""
    return {"type": "object", "additionalProperties": values, **more}


_CORE_TITLES = {
    "compare": "parsescore compare --out",
    "result": "parsescore result envelope (--result of every dataset command)",
    "any": "any result document parsescore.load_result reads",
}


def _titles() -> dict[str, str]:
    """Every document with a schema and its title: the kinds' documents, then the core's."""
    titles: dict[str, str] = {}
    for kind in kinds():
        titles |= dict(kind.documents)
    return titles | _CORE_TITLES


def schema_names() -> tuple[str, ...]:
    """The documents ``parsescore schema`` knows: each kind's ``--out`` documents,
    ``compare``, ``result`` (the envelope) and ``any`` (whatever ``load_result`` reads)."""
    return tuple(_titles())


def _defs() -> dict[str, dict[str, Any]]:
    """Every named sub-schema: the kinds' and the core's."""
    names = [kind.name for kind in kinds()]
    documents = [name for kind in kinds() for name in kind.documents]
    defs: dict[str, dict[str, Any]] = {}
    for kind in kinds():
        parts = kind.schema()
        needed = [*kind.documents, f"{kind.name}_detail", f"{kind.name}_dataset"]
        missing = [name for name in needed if name not in parts]
        if missing:
            raise ValueError(f"kind {kind.name!r}: its schema lacks {', '.join(missing)}")
        defs |= parts
    defs |= {
        "interval": record({"mean": NUMBER, "ci_low": NUMBER, "ci_high": NUMBER}),
        "difference": record(
            {
                "a": STRING,
                "b": STRING,
                "mean_difference": NUMBER,
                "ci_low": NUMBER,
                "ci_high": NUMBER,
                "p_value": UNIT,
            },
            description="a - b averaged over the items, its bootstrap interval and p-value.",
        ),
        "compare": record(
            {
                "systems": {"type": "array", "items": STRING, "minItems": 2, "uniqueItems": True},
                "metrics": map_of(
                    record(
                        {
                            "systems": map_of(ref("interval"), minProperties=2),
                            "differences": {"type": "array", "items": ref("difference")},
                        }
                    ),
                    minProperties=1,
                ),
                "only_in": map_of(STRINGS, description="{system: items other systems lack}"),
            },
            extra=True,
        ),
        "result_item": record(
            {
                "id": STRING,
                "metrics": map_of(NUMBER, description="{metric: value}; unmeasured: absent"),
                "counts": map_of(
                    NUMBER,
                    description="{count: value}: the counts behind the metrics that totals of "
                    "summed counts are built from (tp/fp/fn, errors/elements, ...)",
                ),
                "attributes": map_of(
                    STRING,
                    description="{attribute: value}: what the item is (structure, size bin, "
                    "language, a user's labels), for breakdowns (--by)",
                ),
                "detail": {"type": "object", "description": "The item's drill-down record."},
            },
            optional=("counts", "attributes"),
        ),
        "result": {
            **record(
                {
                    ENVELOPE_KEY: {"const": ENVELOPE_VERSION},
                    "version": nullable(STRING),
                    "kind": {"enum": list(names)},
                    "system": STRING,
                    "inputs": {"type": "object", "description": "What was scored, as given."},
                    "options": {"type": "object", "description": "Options that change numbers."},
                    "items": {"type": "array", "items": ref("result_item")},
                    "totals": map_of(NUMBER, description="Dataset-level numbers, flattened."),
                    "dataset": {"type": "object", "description": "Dataset-level facts."},
                    "warnings": {
                        **STRINGS,
                        "description": "What the user should know about the inputs.",
                    },
                },
                optional=("warnings",),
                description="One system on one dataset (parsescore.core.results.Result.to_json).",
            ),
            "allOf": [
                {
                    "if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                    "then": {
                        "properties": {
                            "items": {"items": {"properties": {"detail": ref(f"{kind}_detail")}}},
                            "dataset": ref(f"{kind}_dataset"),
                        }
                    },
                }
                for kind in names
            ],
        },
        "any": {"anyOf": [ref(name) for name in (*documents, "result")]},
    }
    return defs


def _refs(node: Any, found: list[str]) -> None:
    """Append the definition names ``node`` refers to (``#/$defs/NAME``) to ``found``."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            found.append(ref.removeprefix("#/$defs/"))
        for value in node.values():
            _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)


def _reached(name: str, defs: dict[str, dict[str, Any]]) -> list[str]:
    """``name`` and every definition it refers to, directly or not."""
    order: list[str] = []
    stack = [name]
    while stack:
        current = stack.pop()
        if current in order:
            continue
        order.append(current)
        found: list[str] = []
        _refs(defs[current], found)
        stack.extend(reversed(found))
    return order


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``kind``'s document, self-contained (``$defs``)."""
    titles = _titles()
    if kind not in titles:
        raise InputError(f"unknown schema {kind!r}; expected one of {', '.join(titles)}")
    defs = _defs()
    return {
        "$schema": DRAFT,
        "$id": f"{_BASE_ID}{kind}",
        "title": titles[kind],
        "$ref": f"#/$defs/{kind}",
        # a deep copy: the building blocks are shared, a caller may edit what it gets
        "$defs": copy.deepcopy({name: defs[name] for name in sorted(_reached(kind, defs))}),
    }


def schema_json(kind: str) -> str:
    """:func:`schema` as deterministic JSON text (same bytes every run)."""
    return dump_json(schema(kind))


def validate(doc: Any, kind: str) -> None:
    """Raise :class:`InputError` naming where ``doc`` breaks ``kind``'s schema.

    Of several errors, jsonschema's ``best_match`` (the most specific) is reported. Needs
    the ``jsonschema`` package (imported only here).
    """
    try:
        import jsonschema
    except ImportError:
        raise ImportError("schema validation needs jsonschema: pip install jsonschema") from None
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema(kind)).iter_errors(doc)
    )
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "top level"
        raise InputError(f"not a valid {kind} document: {error.message}", where=where)
