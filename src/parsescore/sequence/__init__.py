"""Sequence-diagram conversion metrics (the image-to-UML paper, seed 003), PlantUML or Mermaid.

Read scripts (PlantUML, or Mermaid ``sequenceDiagram``: the reader registry :data:`FORMATS`)
into the same typed elements, compare a prediction with its ground truth through a minimal line
diff of canonical forms, pair removed/added lines by Levenshtein with linear sum assignment, and
count node / direction / direction_type / message / box / group / note / participant
insertions, deletions and substitutions. These are the names docs/sequence.md documents.

>>> from parsescore.sequence import compare_scripts
>>> score = compare_scripts("A -> B : hello", "A --> B : hello")
>>> score.counts["direction_type"].substitution
1
"""

from typing import TYPE_CHECKING

from parsescore.core.lazy import lazy_exports

if TYPE_CHECKING:
    from parsescore.sequence.dataset import score_model
    from parsescore.sequence.mermaid import parse_mermaid
    from parsescore.sequence.metrics import (
        CategoryCounts,
        Difference,
        FileScore,
        ModelScore,
        compare_diagrams,
        compare_scripts,
    )
    from parsescore.sequence.model import CATEGORIES, ParsedDiagram
    from parsescore.sequence.options import SequenceOptions
    from parsescore.sequence.parser import parse_plantuml
    from parsescore.sequence.read import FORMATS, detect_format, read_diagram

_EXPORTS = {
    "score_model": "parsescore.sequence.dataset",
    "CategoryCounts": "parsescore.sequence.metrics",
    "Difference": "parsescore.sequence.metrics",
    "FileScore": "parsescore.sequence.metrics",
    "ModelScore": "parsescore.sequence.metrics",
    "compare_diagrams": "parsescore.sequence.metrics",
    "compare_scripts": "parsescore.sequence.metrics",
    "CATEGORIES": "parsescore.sequence.model",
    "ParsedDiagram": "parsescore.sequence.model",
    "SequenceOptions": "parsescore.sequence.options",
    "parse_mermaid": "parsescore.sequence.mermaid",
    "parse_plantuml": "parsescore.sequence.parser",
    "FORMATS": "parsescore.sequence.read",
    "detect_format": "parsescore.sequence.read",
    "read_diagram": "parsescore.sequence.read",
}
__all__ = [
    "CATEGORIES",
    "FORMATS",
    "CategoryCounts",
    "Difference",
    "FileScore",
    "ModelScore",
    "ParsedDiagram",
    "SequenceOptions",
    "compare_diagrams",
    "compare_scripts",
    "detect_format",
    "parse_mermaid",
    "parse_plantuml",
    "read_diagram",
    "score_model",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
