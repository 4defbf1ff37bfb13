"""Helpers the kinds share: text distance and normalisation (``distance``), optimal assignment
(``assign``), count and score types (``scores``), line diffs (``linediff``), chat answers
(``answers``), answer coverage (``coverage``), Mermaid's own parser (``mermaidjs``) and the
table machinery (``tables``: readers, TEDS, GriTS) that the table and document kinds share."""
