"""The options of ``parsescore graph`` and ``parsescore.evaluate("graph", ...)``, declared once
(:mod:`parsescore.core.options`): the command's flags, ``evaluate``'s checks, ``Result.options``,
the cache key and the docs all come from :class:`GraphOptions`.

Cheap to import (the CLI is built from it): nothing but the core's declarations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from parsescore.core.errors import InputError
from parsescore.core.options import AnswerOptions, DatasetOptions, option, recorded_options

__all__ = ["AlignMode", "EnumIds", "GraphOptions"]

#: ``--structural-align``: align the classes whose truth ids are absent from the source
#: (``auto``), every class (``on``) or none (``off``).
AlignMode = Literal["auto", "on", "off"]
#: ``--enum-ids``: an Enum in an identity compared as ``str()`` (the reference) or by its value.
EnumIds = Literal["reference", "value"]

#: What ``--template`` is, and that importing it runs its code.
TEMPLATE_HELP = (
    "Root template: pkg.module.Class or path/to/file.py:Class. The module is imported, so its "
    "Python code runs with your rights: use only templates you trust."
)


def parse_id_fields(specs: Sequence[str]) -> dict[str, list[str]]:
    """``["Person=name", "Offer=code,version"]`` → ``{"Person": ["name"], ...}``."""
    result: dict[str, list[str]] = {}
    for spec in specs:
        cls, sep, fields = spec.partition("=")
        names = [f.strip() for f in fields.split(",") if f.strip()]
        if not sep or not cls.strip() or not names:
            raise InputError(f"--id-fields expects Class=field1,field2, got {spec!r}")
        result[cls.strip()] = names
    return result


@dataclass(frozen=True)
class GraphOptions(DatasetOptions, AnswerOptions):
    """How graphs are scored: one document (two files) or a dataset (two folders, or two
    ``{id: text}`` mappings). ``jobs``, ``dask_scheduler``, ``cache`` and ``quiet`` choose how a
    dataset's documents are run; one document is scored in the calling process, so they have
    no effect there (they are accepted, so that one call works for both)."""

    strict: bool = option(
        False,
        "Stop (exit 2) at the first answer that is unreadable or that script 16 scores only "
        "with a warning (edges to missing nodes, no nodes, nodes without id), instead of "
        "scoring it (as an empty graph, or with the warning).",
    )
    template: str | None = option(None, TEMPLATE_HELP)
    source: Path | Mapping[str, str] | None = option(
        None,
        "Source text the model was served (enables verbatim ratio and synthetic-id "
        "detection); with folders, a folder of <id>.<suffix> sources.",
    )
    structural_align: AlignMode = option(
        "auto",
        "auto: align classes whose truth ids are absent from --source; on: all classes; off: none.",
        scores=True,
    )
    id_fields: tuple[str, ...] | Mapping[str, Sequence[str]] = option(
        (),
        "Without --template: identity fields, Class=field1,field2 (repeatable).",
        scores=True,
    )
    root_class: str | None = option(None, "Without --template: the root class name.", scores=True)
    enum_ids: EnumIds = option(
        "reference",
        "reference: an Enum in an identity is compared as str() (the reference; never equals "
        "the extracted value); value: by its value.",
        scores=True,
        record="changed",
    )
    normalise_source_accents: bool = option(
        False,
        "Drop the source's accents before looking truth ids up in it (ids are accent-free; "
        "the reference keeps the source's accents).",
        scores=True,
        record="changed",
    )

    def __post_init__(self) -> None:
        if self.template is not None and (self.id_fields or self.root_class):
            raise InputError(
                "id_fields and root_class (--id-fields, --root-class) only apply without a "
                "template (--template)"
            )
        self.identity_fields()  # a malformed Class=field spec is refused here, once

    def identity_fields(self) -> dict[str, list[str]] | None:
        """``id_fields`` as ``{Class: [field, ...]}`` (None when not given)."""
        if isinstance(self.id_fields, Mapping):
            return {str(k): list(v) for k, v in self.id_fields.items()}
        return parse_id_fields(self.id_fields) if self.id_fields else None

    def recorded(self, *, dataset: bool) -> dict[str, Any]:
        """``Result.options`` (:func:`~parsescore.core.options.recorded_options`) as eval.json's
        readers always wrote them: the alignment mode; the identity fields (as
        ``Class=field1,field2``) and the root class only in the generic mode (no template);
        ``allow_missing`` only for a dataset, and last."""
        found = recorded_options(self)
        allow_missing = found.pop("allow_missing")
        if self.template is not None:
            del found["id_fields"], found["root_class"]
        elif isinstance(self.id_fields, Mapping):
            found["id_fields"] = [f"{k}={','.join(v)}" for k, v in self.id_fields.items()]
        if dataset and allow_missing:
            found["allow_missing"] = True
        return found
