"""Fixture template for the reference's two quirks: an Enum inside an identity, accented ids."""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict, Field


class EntryKind(str, Enum):  # noqa: UP042 - a StrEnum prints its value, hiding the quirk
    """What a ledger entry records."""

    SALE = "sale"
    REFUND = "refund"


class Entry(BaseModel):
    """A ledger entry, identified by its kind and its code."""

    model_config = ConfigDict(graph_id_fields=["kind", "code"])
    kind: EntryKind
    code: str
    amount: float | None = None


class Place(BaseModel):
    """A branch, identified by its city (a non-name field: accents dropped in the id)."""

    model_config = ConfigDict(graph_id_fields=["city"])
    city: str
    manager: str | None = None


class Ledger(BaseModel):
    """The root: one ledger with its entries and branches."""

    model_config = ConfigDict(graph_id_fields=["name"])
    name: str
    entries: list[Entry] = Field(
        default_factory=list, json_schema_extra={"edge_label": "HAS_ENTRY"}
    )
    places: list[Place] = Field(default_factory=list, json_schema_extra={"edge_label": "HAS_PLACE"})
