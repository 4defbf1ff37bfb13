"""Turning a model's answer into a prediction file, or a clear reason why it is not one.

An answer is accepted only when the scorer of its kind would accept the file it becomes, so a
prediction folder written by ``parsescore predict`` always scores. The check itself is the
kind's (:attr:`parsescore.kinds.PredictParts.accept`); this module unwraps the answer first
(code fences, a leading ``<think>`` block) and names the reason when it is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from parsescore.errors import InputError
from parsescore.kinds import PredictParts, get_kind, kinds

__all__ = [
    "AnswerError",
    "Prediction",
    "accept_answer",
    "predict_parts",
    "unwrap_fences",
]

_FENCE = re.compile(r"^```[^\n`]*\n(.*?)```[ \t]*$", re.DOTALL | re.MULTILINE)
_THINKING = re.compile(r"\A\s*<think>.*?</think>", re.DOTALL)


class AnswerError(ValueError):
    """A model's answer that is not a valid prediction of its kind (the message says why)."""


@dataclass(frozen=True)
class Prediction:
    """An accepted answer: the file text to write and the warnings worth keeping."""

    text: str
    warnings: tuple[str, ...] = ()


def unwrap_fences(answer: str) -> str:
    """The body of the first Markdown code fence in ``answer``, or ``answer`` itself.

    Models often wrap code in ```` ```json ```` / ```` ```plantuml ```` fences, with or without
    prose around them; the fence's body is the answer. A leading ``<think>…</think>`` block
    (reasoning models served by vLLM or Ollama put it in the content) is dropped first.
    """
    answer = _THINKING.sub("", answer, count=1)
    match = _FENCE.search(answer)
    return match.group(1) if match else answer


def predict_parts(kind: str, answer_format: str | None = None) -> PredictParts:
    """The predict parts of ``kind`` in ``answer_format`` (None: the kind's default format);
    a kind that is not predicted from images, or a format it does not offer, is an error."""
    parts = get_kind(kind).predict
    if parts is None:
        able = ", ".join(k.name for k in kinds() if k.predict is not None)
        raise InputError(f"predict supports {able}; got {kind!r}")
    if answer_format is None or answer_format == parts.format_name:
        return parts
    if answer_format not in parts.formats:
        if not parts.formats:
            raise InputError(f"--format: {kind} answers have one format; got {answer_format!r}")
        offered = ", ".join([parts.format_name or "default", *parts.formats])
        raise InputError(f"--format: {kind} answers can be {offered}; got {answer_format!r}")
    return parts.formats[answer_format]


def accept_answer(
    kind: str, answer: str, *, stem: str, answer_format: str | None = None
) -> Prediction:
    """The prediction file made from a model's answer, or :class:`AnswerError` saying why not."""
    text = unwrap_fences(answer).strip()
    if not text:
        raise AnswerError("the answer is empty")
    try:
        body, warnings = predict_parts(kind, answer_format).accept(text, stem)
    except AnswerError:
        raise
    except ValueError as exc:  # a kind's check may raise any ValueError with the reason
        raise AnswerError(str(exc)) from None
    return Prediction(body, warnings)
