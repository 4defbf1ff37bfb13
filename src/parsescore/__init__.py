"""parsescore: score what a parser made of a document or diagram against ground truth."""

from parsescore.errors import InputError

__version__ = "0.1.0"

__all__ = ["InputError", "__version__"]
