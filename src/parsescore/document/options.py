"""The document kind's options, declared once (cheap to import)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from parsescore.core.options import AnswerOptions, DatasetOptions, option

__all__ = ["DocumentOptions"]


@dataclass(frozen=True)
class DocumentOptions(DatasetOptions, AnswerOptions):
    """Each a flag of ``parsescore document`` and a keyword of
    ``parsescore.evaluate("document", ...)``."""

    profile: Literal["omnidocbench", "parsescore"] = option(
        "omnidocbench",
        "omnidocbench: the leaderboard's own numbers, bit for bit (quirks kept): OmniDocBench "
        "v1.5's end-to-end ones, or olmOCR-bench's with --truth-format olmocr-bench; "
        "parsescore: the same numbers plus the ones a page should get under their own names "
        "(every page scored, invented text costs, tables in any format, GriTS, order accuracy "
        "and Kendall tau, CER/WER as jiwer defines them; for olmOCR-bench: no whole-candidate "
        "zeroing, intervals over pages).",
        scores=True,
    )
    truth_format: Literal["omnidocbench", "olmocr-bench"] = option(
        "omnidocbench",
        "omnidocbench: OmniDocBench's page list (OmniDocBench.json); olmocr-bench: a folder of "
        "olmOCR-bench's JSONL unit tests and its pdfs/, the prediction a folder of "
        "<pdf stem>_pg<page>_repeat<r>.md files.",
        scores=True,
    )
    filter: tuple[str, ...] = option(
        (),
        "Score only pages whose page_attribute KEY equals VALUE (KEY=VALUE, repeatable), as "
        "OmniDocBench's config 'filter' does.",
        scores=True,
    )
    max_chars: int = option(
        200_000,
        "A page file longer than this many characters is listed as unreadable, not scored.",
        scores=True,
        minimum=1,
    )
    normalisation: Literal["unicode", "whitespace", "none", "omnidocbench"] = option(
        "unicode",
        "Text normalisation of the parsescore profile's text numbers: unicode (NFKC, escaped "
        "\\t \\n as spaces, dashes and quotes unified, whitespace collapsed), whitespace "
        "(whitespace collapsed), none (as written), omnidocbench (OmniDocBench's: word "
        "characters only).",
        scores=True,
    )
    worst: int = option(5, "Pages shown in the summary, worst text first.", where="cli", minimum=0)
