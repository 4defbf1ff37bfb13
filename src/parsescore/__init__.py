"""parsescore: score what a parser made of a document or diagram against ground truth."""

from parsescore.errors import InputError

__version__ = "0.1.0"

__all__ = ["InputError", "__version__", "load_result"]


def __getattr__(name: str) -> object:
    # Lazy, so that ``import parsescore`` stays light.
    if name == "load_result":
        from parsescore.results import load_result

        return load_result
    raise AttributeError(f"module 'parsescore' has no attribute {name!r}")
