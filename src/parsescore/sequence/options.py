"""The sequence kind's options, declared once: the flags of ``parsescore sequence``, the keywords of
``parsescore.evaluate("sequence", ...)``, ``Result.options``, the cache key and the docs all come
from :class:`SequenceOptions`.

Cheap to import (no numpy, scipy or lark): ``parsescore --help`` builds the command from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from parsescore.core.options import AnswerOptions, DatasetOptions, option, recorded_options
from parsescore.sequence.model import DEFAULT_THRESHOLD

__all__ = ["FormatName", "SequenceOptions", "recorded"]

#: What ``--truth-format`` / ``--pred-format`` take: ``auto`` (by content, then file name) or a
#: format of the reader registry (:data:`parsescore.sequence.read.FORMATS`; a test checks they
#: agree).
FormatName = Literal["auto", "plantuml", "mermaid"]


@dataclass(frozen=True)
class SequenceOptions(DatasetOptions, AnswerOptions):
    """How ``parsescore sequence`` scores (threshold, colours, formats, git refs) and what it
    shows or writes besides the scores (``--report``, ``--worst``, ``--check-syntax``)."""

    threshold: float = option(
        DEFAULT_THRESHOLD,
        "Largest normalised Levenshtein distance (distance / longer length) for a removed/added "
        "pair to count as a substitution.",
        scores=True,
        minimum=0,
        maximum=1,
    )
    ignore_colours: bool = option(
        False,
        "Colours never count (default: a changed colour is a substitution, as in the paper's git "
        "diff).",
        scores=True,
    )
    truth_format: FormatName = option(
        "auto", "Ground-truth dialect (auto: by content, name).", scores=True
    )
    pred_format: FormatName = option(
        "auto", "Prediction dialect (auto: by content, name).", scores=True
    )
    repo: Path | None = option(
        None, "Git repository (paper set-up): truth and pred are refs of it."
    )
    truth_ref: str | None = option(None, "Ref holding the ground truth.", where="cli")
    pred_ref: tuple[str, ...] = option(
        (), "Ref holding one model's outputs (repeatable).", where="cli"
    )
    check_syntax: bool = option(False, "Report predictions PlantUML cannot compile.", where="cli")
    report: Path | None = option(
        None, "Write Table 1/2, the plot and all differences here.", where="cli"
    )
    worst: int = option(10, "How many worst files to list per model.", minimum=0, where="cli")
    force: bool = option(
        False,
        "Write into the output folder even if it holds files parsescore did not write.",
        where="cli",
    )


def recorded(options: SequenceOptions) -> dict[str, Any]:
    """``Result.options`` and the cache key: the options that change the numbers, as sequence
    results have always recorded them (``allow_missing`` last, and only when set: it changes
    which files are scored, not how)."""
    found: Mapping[str, Any] = recorded_options(options)
    values = {name: value for name, value in found.items() if name != "allow_missing"}
    if options.allow_missing:
        values["allow_missing"] = True
    return values
