"""parsescore: score what a parser made of a document or diagram against ground truth.

Every kind (``parsescore.core.kinds.kind_names()``) is scored the same way::

    import parsescore

    result = parsescore.evaluate(kind, truth, pred, **options)
    parsescore.score_pair(kind, truth_text, answer_text, **options)  # one pair: its metrics
    result.totals, result.items, result.to_dataframe(), result.to_csv()
    result.write("result.json")  # parsescore.load_result reads it back
"""

from typing import TYPE_CHECKING

from parsescore.core.errors import InputError
from parsescore.core.lazy import lazy_exports

__version__ = "0.1.0"

if TYPE_CHECKING:
    from parsescore.core.api import evaluate, score_pair
    from parsescore.core.kinds import Kind, Metric, get_kind, register_kind
    from parsescore.core.results import Result, load_result, load_results

_EXPORTS = {
    "evaluate": "parsescore.core.api",
    "score_pair": "parsescore.core.api",
    "Kind": "parsescore.core.kinds",
    "Metric": "parsescore.core.kinds",
    "get_kind": "parsescore.core.kinds",
    "register_kind": "parsescore.core.kinds",
    "Result": "parsescore.core.results",
    "load_result": "parsescore.core.results",
    "load_results": "parsescore.core.results",
}
__all__ = [
    "InputError",
    "Kind",
    "Metric",
    "Result",
    "__version__",
    "evaluate",
    "get_kind",
    "load_result",
    "load_results",
    "register_kind",
    "score_pair",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
