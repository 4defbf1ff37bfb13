"""From images to predictions: ask a vision-language model, keep only what validates.

See :func:`predict_images` and docs/predict.md. Needs the ``predict`` extra (the openai client).
"""

from parsescore.predict.answers import FLOWCHART_SCHEMA, AnswerError, accept_answer
from parsescore.predict.engine import (
    ImageOutcome,
    PredictInterrupted,
    PredictOptions,
    PredictSummary,
    predict_images,
)
from parsescore.predict.inputs import default_prompt

__all__ = [
    "FLOWCHART_SCHEMA",
    "AnswerError",
    "ImageOutcome",
    "PredictInterrupted",
    "PredictOptions",
    "PredictSummary",
    "accept_answer",
    "default_prompt",
    "predict_images",
]
