"""Scoring a dataset: ground-truth files matched with one model's files by relative path.

A truth file with no prediction counts as everything deleted (and is reported); a prediction
file with no truth is reported and skipped; a file that cannot be read is reported and the run
goes on with the others.
"""

from __future__ import annotations

from collections.abc import Callable

from parsescore.errors import InputError
from parsescore.sequence.inputs import ScriptSource
from parsescore.sequence.metrics import (
    DEFAULT_THRESHOLD,
    FileScore,
    ModelScore,
    SkippedFile,
    compare_diagrams,
)
from parsescore.sequence.parser import parse_plantuml

__all__ = ["score_model"]


def score_model(
    truth: ScriptSource,
    pred: ScriptSource,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    name: str | None = None,
    advance: Callable[[], None] | None = None,
) -> ModelScore:
    """Score every ground-truth script of ``truth`` against ``pred`` (truth first)."""
    if truth.single_file and pred.single_file:
        pairs = [(truth.paths[0], pred.paths[0])]
        orphans: list[str] = []
    else:
        pred_paths = set(pred.paths)
        pairs = [(rel, rel if rel in pred_paths else None) for rel in truth.paths]
        orphans = sorted(pred_paths - set(truth.paths))
    files: list[FileScore] = []
    skipped: list[SkippedFile] = []
    warnings: list[str] = []
    for truth_rel, pred_rel in pairs:
        try:
            truth_text = truth.read(truth_rel)
        except InputError as exc:
            skipped.append(SkippedFile(truth_rel, f"ground truth unreadable: {exc}"))
            warnings.append(f"{truth_rel}: ground truth skipped: {exc}")
            if advance:
                advance()
            continue
        notes: list[str] = []
        missing = False
        if pred_rel is None:
            pred_text = ""
            missing = True
            notes.append("no prediction: everything counted as deleted")
        else:
            try:
                pred_text = pred.read(pred_rel)
            except InputError as exc:
                pred_text = ""
                missing = True
                notes.append(f"prediction unreadable ({exc}): everything counted as deleted")
        truth_diagram = parse_plantuml(truth_text, path=truth_rel)
        pred_diagram = parse_plantuml(pred_text, path=pred_rel or truth_rel)
        notes.extend(f"truth {d}" for d in truth_diagram.diagnostics)
        if not missing:
            notes.extend(f"prediction {d}" for d in pred_diagram.diagnostics)
        files.append(
            compare_diagrams(
                truth_diagram,
                pred_diagram,
                threshold=threshold,
                path=truth_rel,
                diagnostics=notes,
                prediction_missing=missing,
            )
        )
        warnings.extend(f"{truth_rel}: {note}" for note in notes)
        if advance:
            advance()
    for rel in orphans:
        skipped.append(SkippedFile(rel, "prediction without ground truth, skipped"))
        warnings.append(f"{rel}: prediction without ground truth, skipped")
    return ModelScore(name or pred.name, tuple(files), tuple(skipped), tuple(warnings))
