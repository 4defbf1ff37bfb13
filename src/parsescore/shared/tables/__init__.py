"""Table machinery more than one kind uses: the readers of the formats models write (each into
a :class:`~parsescore.shared.tables.grid.TableGrid`), the HTML → tree conversion and compiled
tree edit distance behind TEDS / TEDS-S (:class:`~parsescore.shared.tables.teds.TEDS`), GriTS,
OmniDocBench's HTML normalisation and the size limits. The ``table`` kind scores collections of
tables with it; the ``document`` kind scores the tables of a page."""
