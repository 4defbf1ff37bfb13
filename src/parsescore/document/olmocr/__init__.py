"""olmOCR-bench's unit tests as the document kind's second truth format (issue 27).

``checks`` reads the JSONL test files and decides each test on a page's Markdown as olmOCR-bench
(allenai/olmocr ``olmocr/bench`` at f7cfe4c2) decides it; ``textops`` holds its text
normalisation, the fuzzy searches and the repetition rule; ``tables`` rebuilds its table graph
from Markdown and HTML tables; ``bench`` scores a candidate folder (repeats, per-file scores, the
automatic baseline, failed candidates) and writes the OUT document.
"""
