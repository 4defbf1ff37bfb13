"""What each item is, for breakdowns (``--by class``): the node class.

For one document the items are its node classes (``node:<Class>``: ``class`` is that class) and
edge labels (``edge:<LABEL>``: no class; ``--by class`` puts them under ``(none)``, so that the
edge totals stay whole there). For a dataset the items are documents, and a document's
``class`` is its *dominant* class: the class with the most truth nodes — as eval.json counts
them, ``tp + fn`` of its strict rung — ties going to the class first in name order; a document
whose truth has no nodes has none. (The root class would not split anything: every document of
a dataset is an instance of the same template.) Both come from eval.json, so a ``--out``
document read back has them too.

>>> book, author = {"strict": {"tp": 1, "fn": 2}}, {"strict": {"tp": 2, "fn": 1}}
>>> dominant_class({"Book": book, "Author": author})  # 3 truth nodes each: name order
'Author'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parsescore.core.kinds import Attribute

__all__ = ["ATTRIBUTES", "dominant_class"]

#: The graph kind's item attributes (``Kind.attributes``).
ATTRIBUTES = (
    Attribute(
        "class",
        "the node class: a `node:<Class>` item's own; a document's dominant class (the most "
        "truth nodes; a tie goes to the first in name order)",
    ),
)


def _truth_nodes(rungs: Any) -> int:
    """A class's truth nodes: ``tp + fn`` of its strict rung (of its first rung otherwise);
    0 for an entry whose counts are not counts."""
    if not isinstance(rungs, Mapping) or not rungs:
        return 0
    counted = rungs.get("strict", next(iter(rungs.values())))
    if not isinstance(counted, Mapping):
        return 0
    total = 0
    for count in (counted.get("tp"), counted.get("fn")):
        if type(count) is not int or count < 0:  # eval.json writes counts as integers
            return 0
        total += count
    return total


def dominant_class(nodes: Mapping[str, Any]) -> str | None:
    """The class of eval.json's ``nodes`` section with the most truth nodes (ties: the first
    in name order); None when the truth has no node."""
    best: tuple[int, str] | None = None
    for name in sorted(nodes):
        count = _truth_nodes(nodes[name])
        if count > 0 and (best is None or count > best[0]):
            best = (count, name)
    return None if best is None else best[1]
