"""PlantUML sequence-diagram conversion metrics (the image-to-UML paper, seed 003).

Parse scripts into typed elements, compare a prediction with its ground truth through a minimal
line diff of canonical forms, pair removed/added lines by Levenshtein with linear sum
assignment, and count node / direction / direction_type / message / box / group / note /
participant insertions, deletions and substitutions.

>>> from parsescore.sequence import compare_scripts
>>> score = compare_scripts("A -> B : hello", "A --> B : hello")
>>> score.counts["direction_type"].substitution
1
"""

from parsescore.sequence.dataset import score_model
from parsescore.sequence.metrics import (
    DEFAULT_THRESHOLD,
    CategoryCounts,
    Difference,
    FileScore,
    ModelScore,
    compare_diagrams,
    compare_scripts,
    ground_truth_counts,
)
from parsescore.sequence.model import CATEGORIES, ParsedDiagram
from parsescore.sequence.parser import parse_plantuml

__all__ = [
    "CATEGORIES",
    "DEFAULT_THRESHOLD",
    "CategoryCounts",
    "Difference",
    "FileScore",
    "ModelScore",
    "ParsedDiagram",
    "compare_diagrams",
    "compare_scripts",
    "ground_truth_counts",
    "parse_plantuml",
    "score_model",
]
