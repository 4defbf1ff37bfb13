"""Template of the synthetic graph benchmark (see bench_graph.py)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Item(BaseModel):
    """An entity with an id, free text, a list, and references to other items."""

    model_config = ConfigDict(graph_id_fields=["code"])
    code: str
    name: str | None = None
    text: str | None = None
    tags: list[str] = Field(default_factory=list)
    related: list[Item] = Field(default_factory=list, json_schema_extra={"edge_label": "RELATED"})


class Section(BaseModel):
    """A grouping entity (one class more for per-class work)."""

    model_config = ConfigDict(graph_id_fields=["title"])
    title: str
    items: list[Item] = Field(default_factory=list, json_schema_extra={"edge_label": "HAS_ITEM"})


class Corpus(BaseModel):
    """The root."""

    model_config = ConfigDict(graph_id_fields=["name"])
    name: str
    sections: list[Section] = Field(
        default_factory=list, json_schema_extra={"edge_label": "HAS_SECTION"}
    )


Item.model_rebuild()
