"""What each truth flowchart is, for breakdowns (``--by nodes``): its number of nodes, binned
(:data:`NODE_BINS`).

A Flowde truth may hold several options (readings of the same figure); the count is that of its
first option, the one the format lists first and the option choice falls back on, so that a
flowchart is in the same bin whichever option a system's answer was scored against. An
``--out`` document records the nodes of the option each flowchart was scored against: read
back, a flowchart scored against its first option has its bin, one scored against another has
none (the result envelope, ``--result``, always has it).

>>> node_bin(10), node_bin(11), node_bin(51)
('1-10', '11-20', '>50')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from parsescore.core.kinds import Attribute

if TYPE_CHECKING:
    from parsescore.flowchart.models import DiagramOptions

__all__ = ["ATTRIBUTES", "NODE_BINS", "node_bin", "recorded_attributes", "truth_attributes"]

#: Bins of a truth flowchart's number of nodes, ``(label, low, high)`` inclusive: steps of ten
#: up to 30 (a CONSORT diagram has 10 to 25 nodes), then 31-50 and beyond.
NODE_BINS: tuple[tuple[str, int, float], ...] = (
    ("1-10", 0, 10),
    ("11-20", 11, 20),
    ("21-30", 21, 30),
    ("31-50", 31, 50),
    (">50", 51, float("inf")),
)

#: The flowchart kind's item attributes (``Kind.attributes``).
ATTRIBUTES = (
    Attribute(
        "nodes",
        "the truth flowchart's number of nodes (of its first option), binned",
        tuple(label for label, _, _ in NODE_BINS),
    ),
)


def node_bin(nodes: int) -> str:
    """The :data:`NODE_BINS` label of a node count."""
    for label, low, high in NODE_BINS:
        if low <= nodes <= high:
            return label
    raise ValueError(f"negative node count {nodes}")


def truth_attributes(truth: Iterable[DiagramOptions]) -> dict[str, dict[str, str]]:
    """``{stem: {"nodes": bin}}`` of the truth flowcharts (their first option's nodes)."""
    return {d.parent_img_code: {"nodes": node_bin(len(d.options[0].nodes or ()))} for d in truth}


def recorded_attributes(diagram: Mapping[str, Any]) -> dict[str, str]:
    """The attributes an ``--out`` diagram record tells: its ``nodes`` bin when it was scored
    against the first option (each true node is in one record of ``node_matches``)."""
    records = diagram.get("node_matches")
    if type(diagram.get("option")) is not int or diagram["option"] != 0:
        return {}
    if not isinstance(records, list):
        return {}
    true_nodes = sum(
        1 for record in records if isinstance(record, dict) and record.get("true_node") is not None
    )
    return {"nodes": node_bin(true_nodes)}
