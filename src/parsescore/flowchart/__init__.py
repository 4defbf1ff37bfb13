"""Flowchart parsing benchmark, compatible with Flowde's ``ParsingBenchmark``.

``from parsescore.flowchart import ParsingBenchmark`` replaces
``from flowde.benchmarks.parsing.parsing_bench import ParsingBenchmark``.
"""

from parsescore.flowchart.benchmark import ParsingBenchmark
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
from parsescore.text import (
    DistanceFnProtocol,
    levenshtein,
    levenshtein_with_text_normalisation,
    normalise_text,
)

__all__ = [
    "Diagram",
    "DiagramMatch",
    "DiagramOptions",
    "DistanceFnProtocol",
    "FlowScores",
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
]
