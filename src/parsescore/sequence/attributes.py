"""What each truth script is, for breakdowns (``--by lines``): the paper's bins of ground-truth
line counts (its Table 1 and Figure 6/7: 1-20, 21-30, 31-40, 41-50, 51-100; the spec adds >100
for longer scripts). A file's count is every line of its truth script (``gt_lines``), as the
paper counts "lines of script"; each ``--out`` file record holds it, so a document read back
has the attribute too.

>>> line_bin(20), line_bin(21), line_bin(101)
('1-20', '21-30', '>100')
"""

from __future__ import annotations

from parsescore.core.kinds import Attribute

__all__ = ["ATTRIBUTES", "LINE_BINS", "line_bin"]

#: Table 1 / Figure 6-7 bins of ground-truth line counts: (label, low, high) inclusive.
LINE_BINS: tuple[tuple[str, int, float], ...] = (
    ("1-20", 0, 20),
    ("21-30", 21, 30),
    ("31-40", 31, 40),
    ("41-50", 41, 50),
    ("51-100", 51, 100),
    (">100", 101, float("inf")),
)

#: The sequence kind's item attributes (``Kind.attributes``).
ATTRIBUTES = (
    Attribute(
        "lines",
        "the truth script's number of lines, in the paper's bins (its Table 1 and Figure 6/7)",
        tuple(label for label, _, _ in LINE_BINS),
    ),
)


def line_bin(lines: int) -> str:
    """The Table 1 bin of a ground-truth line count (an empty file falls in ``1-20``)."""
    for label, low, high in LINE_BINS:
        if low <= lines <= high:
            return label
    raise ValueError(f"negative line count {lines}")
