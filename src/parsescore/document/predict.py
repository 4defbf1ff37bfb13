"""Pages from images (``parsescore predict document`` / ``run document``): the prompt and the
check that turns a model's answer into the page's Markdown file.

The prompt (``prompt.txt``) asks for what OmniDocBench's end-to-end evaluation reads: paragraphs
separated by blank lines, formulas in LaTeX (``$…$`` inline, ``$$…$$`` display), tables in HTML,
code fenced. The answer is the file as it is (only ``<think>`` blocks dropped: a page's Markdown
holds its own code fences, and OmniDocBench removes a ```` ```markdown ```` wrapper itself), so
that ``run`` scores exactly what the model wrote, as OmniDocBench would.
"""

from __future__ import annotations

import re
from importlib import resources

__all__ = ["MAX_ANSWER_CHARS", "accept", "prompt"]

#: The longest answer kept: the scorer's default ``--max-chars`` (a longer page would be listed
#: as unreadable; a model looping on a page writes that).
MAX_ANSWER_CHARS = 200_000

_WRAPPED = re.compile(r"\A```(?:markdown|md)?[ \t]*\n(.*)\n```\s*\Z", re.DOTALL | re.IGNORECASE)


def prompt() -> str:
    """The bundled prompt template (``prompt.txt`` beside this module)."""
    return (resources.files("parsescore.document") / "prompt.txt").read_text(encoding="utf-8")


def accept(text: str, stem: str) -> tuple[str, tuple[str, ...]]:
    """The page's Markdown: the answer itself, with a warning when it is wrapped in one
    ```` ```markdown ```` fence (kept: OmniDocBench drops the fence lines as it splits);
    ``ValueError`` when it is too long to be one page."""
    del stem
    if len(text) > MAX_ANSWER_CHARS:
        raise ValueError(
            f"the answer has {len(text)} characters, more than one page's {MAX_ANSWER_CHARS} "
            "(a model repeating itself?)"
        )
    warnings: tuple[str, ...] = ()
    if _WRAPPED.match(text):
        warnings = ("wrapped in a ```markdown fence (kept: OmniDocBench drops its lines)",)
    return text.rstrip("\n") + "\n", warnings
