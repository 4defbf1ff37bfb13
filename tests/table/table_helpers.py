"""Helpers for the table tests (a uniquely named module, so other kinds' conftest files
cannot shadow it): the reference implementation and the bundled data."""

from __future__ import annotations

import json
from pathlib import Path

from table_recognition_metric import TEDS as ReferenceTEDS

DATA = Path(__file__).parent / "data"
SAMPLES = Path(__file__).resolve().parents[2] / "src/parsescore/data/table/pubtabnet_samples"


def wrap(inner: str) -> str:
    """A table body inside the ``<html><body><table>`` wrapper the reference requires."""
    return f"<html><body><table>{inner}</table></body></html>"


def reference_score(gt: str, pred: str, structure_only: bool = False) -> float:
    """The reference's score, called as its README and CLI do (gt first)."""
    return ReferenceTEDS(structure_only=structure_only)(gt, pred)


def sample_pairs() -> dict[str, tuple[str, str]]:
    """The 20 PubTabNet sample pairs bundled with the package: name → (gt, pred)."""
    gt = json.loads((SAMPLES / "sample_gt.json").read_text(encoding="utf-8"))
    pred = json.loads((SAMPLES / "sample_pred.json").read_text(encoding="utf-8"))
    return {name: (gt[name]["html"], pred[name]) for name in gt}
