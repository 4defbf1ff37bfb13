"""Record the unit-level goldens (``golden/units.json``) with the reference's own functions.

    /work/olmocr-env/bin/python tests/document/olmocr/record_olmocr_units.py OLMOCR_SRC

``OLMOCR_SRC`` as for ``run_olmocr_reference.py`` (``record_olmocr_goldens.py`` extracts it and
runs this too).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _table(table) -> dict:  # type: ignore[no-untyped-def]
    def rel(relation):  # type: ignore[no-untyped-def]
        return sorted([list(k), sorted(list(v) for v in vs)] for k, vs in relation.items())

    return {
        "cells": sorted([r, c, t] for (r, c), t in table.cell_text.items()),
        "headings": sorted(list(h) for h in table.heading_cells),
        "up": rel(table.up_relations),
        "down": rel(table.down_relations),
        "left": rel(table.left_relations),
        "right": rel(table.right_relations),
        "top_headings": sorted([list(k), sorted(list(v) for v in table.top_heading_relations(*k))]
                               for k in table.cell_text),
        "left_headings": sorted([list(k), sorted(list(v) for v in
                                                 table.left_heading_relations(*k))]
                                for k in table.cell_text),
    }


def main(argv: list[str]) -> None:
    sys.path.insert(0, argv[0])
    sys.path.insert(0, str(HERE))
    report = types.ModuleType("olmocr.bench.report")
    sys.modules["olmocr.bench.report"] = report
    from fuzzysearch import choose_search_class, find_near_matches
    from fuzzysearch.common import LevenshteinSearchParams
    from olmocr.bench.table_parsing import parse_html_tables, parse_markdown_tables
    from olmocr.bench.tests import normalize_text
    from olmocr.repeatdetect import RepeatDetector
    from run_olmocr_reference import use_debian_chromium
    from unit_inputs import FORMULA_PAIRS, HTML, MARKDOWN, NEAR, TEXTS

    use_debian_chromium()
    from olmocr.bench.katex.render import compare_rendered_equations, render_equation

    with contextlib.redirect_stdout(io.StringIO()):  # the renderer prints its errors
        maths = [compare_rendered_equations(render_equation(a), render_equation(b))
                 for a, b in FORMULA_PAIRS]  # fmt: skip

    near = [sorted(m.start for m in find_near_matches(n, t, max_l_dist=d)) for n, t, d in NEAR]
    raw = []
    for n, t, d in NEAR:
        params = LevenshteinSearchParams(None, None, None, d)
        search = choose_search_class(params)
        raw.append([[m.start, m.end, m.dist] for m in search.search(n, t, params)])
    html = [[_table(t) for t in parse_html_tables(h)] for h in HTML]
    markdown = [[_table(t) for t in parse_markdown_tables(m)] for m in MARKDOWN]
    texts = []
    for text in TEXTS:
        detector = RepeatDetector(max_ngram_size=5)
        detector.add_letters(text)
        texts.append({"normalised": normalize_text(text), "repeats": detector.ngram_repeats()})
    found = {"maths": maths, "near": near, "near_raw": raw, "html": html, "markdown": markdown,
             "texts": texts}
    json.dump(found, sys.stdout, indent=0, ensure_ascii=False)
    sys.stdout.flush()
    os._exit(0)  # the browsers' threads and exit-time messages are not waited for


if __name__ == "__main__":
    main(sys.argv[1:])
