"""Fixture template: a small library (entities, a component, an entity inside a component)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Address(BaseModel):
    """A postal address (component: embedded in its parent node)."""

    model_config = ConfigDict(is_entity=False)
    street: str | None = None
    city: str | None = None


class Person(BaseModel):
    """A person, identified by name."""

    model_config = ConfigDict(graph_id_fields=["name"])
    name: str
    role: str | None = None
    address: Address | None = None


class Chapter(BaseModel):
    """A chapter, identified by its label (e.g. 'Article 5')."""

    model_config = ConfigDict(graph_id_fields=["label_text"])
    label_text: str
    summary: str | None = None


class Book(BaseModel):
    """A book, identified by title."""

    model_config = ConfigDict(graph_id_fields=["title"])
    title: str
    year: int | None = None
    isbn: str | None = None
    blurb: str | None = None
    keywords: list[str] = Field(default_factory=list)
    authors: list[Person] = Field(
        default_factory=list, json_schema_extra={"edge_label": "WRITTEN_BY"}
    )
    chapters: list[Chapter] = Field(
        default_factory=list, json_schema_extra={"edge_label": "HAS_CHAPTER"}
    )


class Note(BaseModel):
    """A free note: no identity fields, so it is never scored (unkeyed)."""

    text: str | None = None


class Branch(BaseModel):
    """A branch office (component) with its manager (an entity inside a component)."""

    model_config = ConfigDict(is_entity=False)
    branch_code: str | None = None
    address: Address | None = None
    manager: Person | None = Field(default=None, json_schema_extra={"edge_label": "MANAGED_BY"})


class Library(BaseModel):
    """The root: a library with books, staff, branches and notes."""

    model_config = ConfigDict(graph_id_fields=["name"])
    name: str
    city: str | None = None
    books: list[Book] = Field(default_factory=list, json_schema_extra={"edge_label": "HOLDS"})
    staff: list[Person] = Field(default_factory=list, json_schema_extra={"edge_label": "EMPLOYS"})
    branches: list[Branch] = Field(default_factory=list)
    notes: list[Note] = Field(default_factory=list)
