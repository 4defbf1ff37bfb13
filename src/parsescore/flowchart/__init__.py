"""Flowchart parsing benchmark, compatible with Flowde's ``ParsingBenchmark``.

``from parsescore.flowchart import ParsingBenchmark`` replaces
``from flowde.benchmarks.parsing.parsing_bench import ParsingBenchmark``. ``read_mermaid`` and
``read_dot`` read flowcharts written in Mermaid or Graphviz DOT into the same model.
"""

from typing import TYPE_CHECKING

from parsescore.core.lazy import lazy_exports

if TYPE_CHECKING:
    from parsescore.flowchart.benchmark import (
        ParsingBenchmark,
    )
    from parsescore.flowchart.formats import (
        Flowchart,
        FlowNode,
        read_dot,
        read_mermaid,
    )
    from parsescore.flowchart.models import (
        Diagram,
        DiagramMatch,
        DiagramOptions,
        FlowScores,
        Node,
        NodeMatch,
        NodeMatches,
        ParsingBenchmarkCapabilities,
        PredDiagramStructure,
        TextListMatch,
        TextListMatches,
    )
    from parsescore.shared.distance import (
        DistanceFnProtocol,
        levenshtein,
        levenshtein_with_text_normalisation,
        normalise_text,
    )

_EXPORTS = {
    "ParsingBenchmark": "parsescore.flowchart.benchmark",
    "Flowchart": "parsescore.flowchart.formats",
    "FlowNode": "parsescore.flowchart.formats",
    "read_dot": "parsescore.flowchart.formats",
    "read_mermaid": "parsescore.flowchart.formats",
    "Diagram": "parsescore.flowchart.models",
    "DiagramMatch": "parsescore.flowchart.models",
    "DiagramOptions": "parsescore.flowchart.models",
    "FlowScores": "parsescore.flowchart.models",
    "Node": "parsescore.flowchart.models",
    "NodeMatch": "parsescore.flowchart.models",
    "NodeMatches": "parsescore.flowchart.models",
    "ParsingBenchmarkCapabilities": "parsescore.flowchart.models",
    "PredDiagramStructure": "parsescore.flowchart.models",
    "TextListMatch": "parsescore.flowchart.models",
    "TextListMatches": "parsescore.flowchart.models",
    "DistanceFnProtocol": "parsescore.shared.distance",
    "levenshtein": "parsescore.shared.distance",
    "levenshtein_with_text_normalisation": "parsescore.shared.distance",
    "normalise_text": "parsescore.shared.distance",
}
__all__ = [
    "Diagram",
    "DiagramMatch",
    "DiagramOptions",
    "DistanceFnProtocol",
    "FlowNode",
    "FlowScores",
    "Flowchart",
    "Node",
    "NodeMatch",
    "NodeMatches",
    "ParsingBenchmark",
    "ParsingBenchmarkCapabilities",
    "PredDiagramStructure",
    "TextListMatch",
    "TextListMatches",
    "levenshtein",
    "levenshtein_with_text_normalisation",
    "normalise_text",
    "read_dot",
    "read_mermaid",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
