"""Knowledge-graph extraction evaluation, compatible with docling-graph 1.9.1.

* :func:`evaluate_files` / :func:`evaluate_generic_files` — a graph.json against ground truth
  (script 16's ``eval.json``);
* :func:`aggregate_tree` — a run matrix of eval.json files (script 17);
* :func:`audit_graph_file` — template-level evaluation without ground truth.
"""

from typing import TYPE_CHECKING

from parsescore.core.lazy import lazy_exports

if TYPE_CHECKING:
    from parsescore.graph.aggregate import (
        aggregate_tree,
    )
    from parsescore.graph.api import (
        evaluate_files,
        evaluate_generic_files,
    )
    from parsescore.graph.audit import (
        audit_graph_file,
    )
    from parsescore.graph.evaluate import (
        evaluate_graphs,
        match_graphs,
    )
    from parsescore.graph.template import (
        GraphData,
        graph_from_instance,
        load_template,
    )

_EXPORTS = {
    "aggregate_tree": "parsescore.graph.aggregate",
    "evaluate_files": "parsescore.graph.api",
    "evaluate_generic_files": "parsescore.graph.api",
    "audit_graph_file": "parsescore.graph.audit",
    "evaluate_graphs": "parsescore.graph.evaluate",
    "match_graphs": "parsescore.graph.evaluate",
    "GraphData": "parsescore.graph.template",
    "graph_from_instance": "parsescore.graph.template",
    "load_template": "parsescore.graph.template",
}
__all__ = [
    "GraphData",
    "aggregate_tree",
    "audit_graph_file",
    "evaluate_files",
    "evaluate_generic_files",
    "evaluate_graphs",
    "graph_from_instance",
    "load_template",
    "match_graphs",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
