"""Turning a model's answer into a prediction file, or a clear reason why it is not one.

An answer is accepted only when the scorer of its kind would accept the file it becomes, so a
prediction folder written by ``parsescore predict`` always scores. The check itself is the
kind's (:attr:`parsescore.core.kinds.PredictParts.accept`); this module unwraps the answer first,
with the rule every scorer applies (:func:`parsescore.shared.answers.unwrap_answer`: ``<think>``
blocks, fenced blocks, PlantUML's ``@startuml``), and names the reason when it is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from parsescore.core.errors import InputError
from parsescore.core.kinds import PredictParts, get_kind, kinds
from parsescore.shared.answers import unwrap_answer, without_thinking

__all__ = [
    "AnswerError",
    "Prediction",
    "accept_answer",
    "predict_parts",
]

#: The format a prediction file's suffix stands for (the fenced block to prefer).
_SUFFIX_FORMATS = {
    ".json": "json",
    ".html": "html",
    ".md": "markdown",
    ".tex": "latex",
    ".csv": "csv",
    ".mmd": "mermaid",
    ".dot": "dot",
    ".puml": "plantuml",
}


class AnswerError(ValueError):
    """A model's answer that is not a valid prediction of its kind (the message says why)."""


@dataclass(frozen=True)
class Prediction:
    """An accepted answer: the file text to write and the warnings worth keeping."""

    text: str
    warnings: tuple[str, ...] = ()


def predict_parts(kind: str, format: str | None = None) -> PredictParts:
    """The predict parts of ``kind`` for the answer ``format`` (None: its default format); a
    kind that is not predicted from images, or a format it has not, is an error."""
    parts = get_kind(kind).predict
    if parts is None:
        able = ", ".join(k.name for k in kinds() if k.predict is not None)
        raise InputError(f"predict supports {able}; got {kind!r}")
    if format is None or format == parts.default_format:
        return parts
    if format not in parts.formats:
        known = [name for name in (parts.default_format, *parts.formats) if name]
        offer = f"one of {', '.join(known)}" if known else "no --format (it has one format)"
        raise InputError(f"--format {format!r} is not a format of {kind}; expected {offer}")
    return parts.formats[format]


def accept_answer(kind: str, answer: str, *, stem: str, format: str | None = None) -> Prediction:
    """The prediction file made from a model's answer, or :class:`AnswerError` saying why not."""
    parts = predict_parts(kind, format)
    expected = _SUFFIX_FORMATS.get(parts.suffix, "")
    if parts.whole_answer:
        text = without_thinking(answer).strip()
    else:
        text = unwrap_answer(answer, (expected,) if expected else ()).text.strip()
    if not text:
        raise AnswerError("the answer is empty")
    try:
        body, warnings = parts.accept(text, stem)
    except AnswerError:
        raise
    except ValueError as exc:  # a kind's check may raise any ValueError with the reason
        raise AnswerError(str(exc)) from None
    return Prediction(body, warnings)
