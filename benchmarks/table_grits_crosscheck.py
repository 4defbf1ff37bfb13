"""Cross-check parsescore's GriTS against microsoft/table-transformer's ``src/grits.py``.

table-transformer is not on PyPI, so this is not a test. Clone it, install
``PyMuPDF==1.21.1`` (its pinned version), and run:

    .venv/bin/python benchmarks/table_grits_crosscheck.py /path/to/table-transformer/src [N]
    .venv/bin/python benchmarks/table_grits_crosscheck.py --html /path/to/table-transformer/src [N]

It scores N random cell-grid pairs (spans, real-valued boxes, short texts) with both
implementations and prints the number of GriTS-Top/Con/Loc results that are not bit-identical.
With ``--html`` it compares ``grits_from_html`` with parsescore's batch GriTS on generated HTML.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import numpy as np

from parsescore.shared.tables.grits import GridCell, grits


def _random_cells(rng: random.Random, n_rows: int, n_cols: int) -> list[dict[str, Any]]:
    cells: list[dict[str, Any]] = []
    taken: set[tuple[int, int]] = set()
    for r in range(n_rows):
        for c in range(n_cols):
            if (r, c) in taken:
                continue
            rs = 2 if r < n_rows - 1 and rng.random() < 0.2 else 1
            cs = 2 if c < n_cols - 1 and rng.random() < 0.2 else 1
            slots = {(rr, cc) for rr in range(r, r + rs) for cc in range(c, c + cs)}
            if slots & taken:
                rs, cs, slots = 1, 1, {(r, c)}
            taken |= slots
            x0, y0 = c * 10 + rng.random() * 3, r * 10 + rng.random() * 3
            cells.append(
                {
                    "row_nums": list(range(r, r + rs)),
                    "column_nums": list(range(c, c + cs)),
                    "cell_text": "".join(rng.choice("ab1 ") for _ in range(rng.randint(0, 6))),
                    "bbox": [
                        x0,
                        y0,
                        x0 + cs * 10 - rng.random() * 3,
                        y0 + rs * 10 - rng.random() * 3,
                    ],
                }
            )
    return cells


def main() -> None:
    """Compare both implementations on random pairs."""
    sys.path.insert(0, sys.argv[1])
    import grits as tt  # table-transformer's module, imported from the given folder

    n_pairs = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rng = random.Random(5)
    mismatches = 0
    for _ in range(n_pairs):
        true = _random_cells(rng, rng.randint(1, 6), rng.randint(1, 5))
        pred = _random_cells(rng, rng.randint(1, 6), rng.randint(1, 5))
        expected = {
            "top": tt.grits_top(
                np.array(tt.cells_to_relspan_grid(true)), np.array(tt.cells_to_relspan_grid(pred))
            ),
            "loc": tt.grits_loc(
                np.array(tt.cells_to_grid(true, key="bbox")),
                np.array(tt.cells_to_grid(pred, key="bbox")),
            ),
            "con": tt.grits_con(
                np.array(tt.cells_to_grid(true, key="cell_text"), dtype=object),
                np.array(tt.cells_to_grid(pred, key="cell_text"), dtype=object),
            ),
        }
        ours = grits(
            [GridCell.from_mapping(c) for c in true], [GridCell.from_mapping(c) for c in pred]
        )
        for key, values in expected.items():
            score = getattr(ours, key)
            got = (score.fscore, score.precision, score.recall, score.upper_bound)
            mismatches += got != tuple(float(v) for v in values)
    print(f"{n_pairs} pairs x 3 metrics: {mismatches} not bit-identical")


def html_main() -> None:
    """Compare GriTS from HTML (``grits_from_html``) with parsescore's batch GriTS."""
    sys.path.insert(0, sys.argv[2])
    import grits as tt

    from parsescore.table.batch import evaluate_tables
    from parsescore.table.synthetic import random_pair

    n_pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    mismatches = compared = skipped = 0
    for seed in range(n_pairs):
        truth, pred = random_pair(seed, 2 + seed % 9, 1 + seed % 6, spans=seed % 4 == 0)
        # xml.etree (table-transformer's parser) knows only XML's five named entities
        truth, pred = (
            t.replace("&nbsp;", "&#160;").replace("<br>", "").replace("p<0", "p&lt;0")
            for t in (truth, pred)
        )
        try:
            expected = tt.grits_from_html(truth, pred)
        except (TypeError, ValueError):
            # not well-formed XML, or a ragged grid (uncovered slots): table-transformer fails
            skipped += 1
            continue
        got = evaluate_tables({"t": truth}, {"t": pred}).tables[0].grits
        assert got is not None
        for key in ("top", "con"):
            compared += 1
            mismatches += got[key] != expected[f"grits_{key}"]
    print(
        f"{n_pairs - skipped} HTML pairs x 2 metrics "
        f"({skipped} skipped: table-transformer fails on them): "
        f"{mismatches} of {compared} not bit-identical"
    )


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "--html":
    html_main()
    sys.exit(0)


if __name__ == "__main__":
    main()
