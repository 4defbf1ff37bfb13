"""The flowchart kind's options, declared once (:mod:`parsescore.core.options`): the flags of
``parsescore flowchart``, the keywords of ``parsescore.evaluate("flowchart", ...)``,
``Result.options`` and the cache key all come from :class:`FlowchartOptions`.

Cheap to import (``parsescore --help`` reads it).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from parsescore.core.options import AnswerOptions, DatasetOptions, option, recorded_options

__all__ = ["FlowchartOptions", "recorded"]

#: ``--distance``: Flowde's default (normalised text) or raw Levenshtein.
Distance = Literal["normalised", "raw"]
#: ``--pred-format`` / ``--truth-format``: ``auto`` or a format of the reader registry
#: (``KIND.formats``: json, mermaid, dot; a test keeps the two equal).
FormatName = Literal["auto", "json", "mermaid", "dot"]


@dataclass(frozen=True)
class FlowchartOptions(DatasetOptions, AnswerOptions):
    """How ``parsescore flowchart`` scores a dataset (besides ``--truth`` and ``--pred``)."""

    expected_num_diagrams: int | None = option(
        None,
        "Flowcharts in the whole ground truth (default: as many as --truth holds).",
        scores=True,
    )
    distance: Distance = option(
        "normalised",
        "Text distance: normalised (Flowde's default) or raw Levenshtein.",
        scores=True,
    )
    pred_format: FormatName = option(
        "auto",
        "Format of the answers: auto (by extension; texts given in memory: by content) or one "
        "format for every file (a forced format also reads .txt).",
        scores=True,
        record="changed",
    )
    truth_format: FormatName = option(
        "auto",
        "Format of the ground truth: auto (by extension), json (the nodes/ labels/ flow/ "
        "additional_texts/ folders), or mermaid or dot for every file.",
        scores=True,
        record="changed",
    )
    check_syntax: bool = option(
        False,
        "Also give the Mermaid answers to Mermaid's own parser (node and the npm packages "
        "mermaid and jsdom in --mermaid-dir); what it refuses is unreadable.",
        scores=True,
        record="changed",
    )
    mermaid_dir: Path | None = option(
        None,
        "Folder whose node_modules hold mermaid and jsdom, for --check-syntax "
        "(default: $PARSESCORE_MERMAID_DIR).",
    )


#: The order of ``Result.options`` in every flowchart result written so far.
_RECORDED_ORDER = (
    "distance",
    "allow_missing",
    "expected_num_diagrams",
    "pred_format",
    "truth_format",
    "check_syntax",
)


def recorded(options: FlowchartOptions, expected_num_diagrams: int) -> dict[str, Any]:
    """``Result.options``: the declared options that change the numbers
    (:func:`~parsescore.core.options.recorded_options`), as flowchart results have always
    recorded them: ``expected_num_diagrams`` resolved (the number of truth flowcharts), both
    formats when either is not ``auto``, in the order of :data:`_RECORDED_ORDER`."""
    found = recorded_options(options)
    found["expected_num_diagrams"] = expected_num_diagrams
    if "pred_format" in found or "truth_format" in found:
        found |= {"pred_format": options.pred_format, "truth_format": options.truth_format}
    return {key: found[key] for key in _RECORDED_ORDER if key in found}
