"""From images to predictions: ask a vision-language model, keep only what validates.

See :func:`predict_images` and docs/predict.md. Needs the ``predict`` extra (the openai client).
"""

from typing import TYPE_CHECKING

from parsescore.core.lazy import lazy_exports

if TYPE_CHECKING:
    from parsescore.predict.answers import (
        AnswerError,
        accept_answer,
    )
    from parsescore.predict.engine import (
        ImageOutcome,
        PredictInterrupted,
        PredictOptions,
        PredictSummary,
        predict_images,
    )
    from parsescore.predict.inputs import (
        default_prompt,
    )

_EXPORTS = {
    "AnswerError": "parsescore.predict.answers",
    "accept_answer": "parsescore.predict.answers",
    "ImageOutcome": "parsescore.predict.engine",
    "PredictInterrupted": "parsescore.predict.engine",
    "PredictOptions": "parsescore.predict.engine",
    "PredictSummary": "parsescore.predict.engine",
    "predict_images": "parsescore.predict.engine",
    "default_prompt": "parsescore.predict.inputs",
}
__all__ = [
    "AnswerError",
    "ImageOutcome",
    "PredictInterrupted",
    "PredictOptions",
    "PredictSummary",
    "accept_answer",
    "default_prompt",
    "predict_images",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
