"""Helpers the kinds share: text distance and normalisation (``distance``), optimal assignment
(``assign``), count and score types (``scores``), line diffs (``linediff``), chat answers
(``answers``), answer coverage (``coverage``) and Mermaid's own parser (``mermaidjs``)."""
