"""``math`` tests: olmOCR-bench renders both formulas with KaTeX in a browser and compares the
renderings. Without a renderer the tests are reported as not run, never passed or failed."""

from __future__ import annotations

from parsescore.document.olmocr.checks import Check, CheckError, Page, Verdict

__all__ = ["renderer_available", "run_math"]


def renderer_available() -> bool:
    """Whether math tests can be decided here (not yet: they are reported as not run)."""
    return False


def run_math(check: Check, page: Page) -> Verdict:
    raise CheckError("no KaTeX renderer: math tests are not run")
