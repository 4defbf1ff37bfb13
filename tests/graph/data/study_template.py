"""Fixture template: research studies whose ground-truth ids are invented slugs."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Measurement(BaseModel):
    """A measured quantity (component)."""

    model_config = ConfigDict(is_entity=False)
    quantity: str | None = None
    value: float | None = None
    unit: str | None = None


class Sample(BaseModel):
    """A material sample, identified by a code."""

    model_config = ConfigDict(graph_id_fields=["sample_id"])
    sample_id: str
    material: str | None = None
    concentration: str | None = None
    measurements: list[Measurement] = Field(default_factory=list)


class Experiment(BaseModel):
    """An experiment, identified by an (often invented) slug."""

    model_config = ConfigDict(graph_id_fields=["experiment_id"])
    experiment_id: str
    method: str | None = None
    description: str | None = None
    temperatures: list[str] = Field(default_factory=list)
    samples: list[Sample] = Field(
        default_factory=list, json_schema_extra={"edge_label": "USES_SAMPLE"}
    )


class Study(BaseModel):
    """The root study."""

    model_config = ConfigDict(graph_id_fields=["study_id"])
    study_id: str
    title: str | None = None
    experiments: list[Experiment] = Field(
        default_factory=list, json_schema_extra={"edge_label": "HAS_EXPERIMENT"}
    )
