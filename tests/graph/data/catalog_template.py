"""Fixture template: closed-catalog reference edges and a cardinality-bounded class."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Coverage(BaseModel):
    """A coverage of the fixed catalogue (its field 'label' shadows the node label)."""

    model_config = ConfigDict(graph_id_fields=["code"])
    code: str
    label: str | None = None


class Offer(BaseModel):
    """An offer that references catalogue coverages."""

    model_config = ConfigDict(graph_id_fields=["name"])
    name: str
    includes: list[Coverage] = Field(
        default_factory=list,
        json_schema_extra={"edge_label": "INCLUDES", "reference_closed_catalog": True},
    )


class Segment(BaseModel):
    """A business segment; the document lists at most one, so the bound is 2."""

    model_config = ConfigDict(graph_id_fields=["name"], graph_max_instances=2)
    name: str
    revenue: str | None = None
    share: str | None = None


class Catalog(BaseModel):
    """The root."""

    model_config = ConfigDict(graph_id_fields=["title"])
    title: str
    coverages: list[Coverage] = Field(
        default_factory=list, json_schema_extra={"edge_label": "OFFERS_COVERAGE"}
    )
    offers: list[Offer] = Field(default_factory=list, json_schema_extra={"edge_label": "HAS_OFFER"})
    segments: list[Segment] = Field(default_factory=list)
