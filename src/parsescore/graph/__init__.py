"""Knowledge-graph extraction evaluation, compatible with docling-graph 1.9.1 (docs/graph.md).

* :func:`evaluate_files` / :func:`evaluate_generic_files` — a graph.json against ground truth
  (script 16's ``eval.json``); ``parsescore.evaluate("graph", ...)`` — the same as a
  :class:`~parsescore.core.results.Result`, for one document or a dataset, with the options of
  :class:`GraphOptions`;
* :func:`match_graphs`, :func:`build_report`, :func:`evaluate_graphs` — the matching and the
  report of graphs already read (:func:`read_graph`, :func:`read_instance`: the kind's readers);
  :func:`unmatched_files` — the unmatched nodes and edges behind the counts;
* :func:`aggregate_tree` — a run matrix of eval.json files (script 17);
* :func:`audit_graph_file` — template-level evaluation without ground truth.
"""

from typing import TYPE_CHECKING

from parsescore.core.lazy import lazy_exports

if TYPE_CHECKING:
    from parsescore.graph.aggregate import aggregate_tree
    from parsescore.graph.api import evaluate_files, evaluate_generic_files
    from parsescore.graph.audit import audit_graph_file
    from parsescore.graph.evaluate import (
        GraphMatching,
        build_report,
        evaluate_graphs,
        match_graphs,
    )
    from parsescore.graph.io import read_graph, read_instance
    from parsescore.graph.options import GraphOptions
    from parsescore.graph.template import GraphData, graph_from_instance, load_template
    from parsescore.graph.unmatched import unmatched_files

_EXPORTS = {
    "aggregate_tree": "parsescore.graph.aggregate",
    "evaluate_files": "parsescore.graph.api",
    "evaluate_generic_files": "parsescore.graph.api",
    "audit_graph_file": "parsescore.graph.audit",
    "GraphMatching": "parsescore.graph.evaluate",
    "build_report": "parsescore.graph.evaluate",
    "evaluate_graphs": "parsescore.graph.evaluate",
    "match_graphs": "parsescore.graph.evaluate",
    "read_graph": "parsescore.graph.io",
    "read_instance": "parsescore.graph.io",
    "GraphOptions": "parsescore.graph.options",
    "GraphData": "parsescore.graph.template",
    "graph_from_instance": "parsescore.graph.template",
    "load_template": "parsescore.graph.template",
    "unmatched_files": "parsescore.graph.unmatched",
}
__all__ = [
    "GraphData",
    "GraphMatching",
    "GraphOptions",
    "aggregate_tree",
    "audit_graph_file",
    "build_report",
    "evaluate_files",
    "evaluate_generic_files",
    "evaluate_graphs",
    "graph_from_instance",
    "load_template",
    "match_graphs",
    "read_graph",
    "read_instance",
    "unmatched_files",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
