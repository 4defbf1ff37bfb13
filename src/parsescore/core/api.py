"""The library entry point: score a dataset of any kind and get its :class:`Result`.

Every dataset command is a thin shell over :func:`evaluate`; ``parsescore run``, notebooks and
tests call it directly.
"""

from __future__ import annotations

from typing import Any

from parsescore.core.kinds import get_kind, resolved
from parsescore.core.options import NamedOptions, declared, options_model
from parsescore.core.results import Result

__all__ = ["PAIR_ID", "evaluate", "finish", "score_pair"]

#: The id of the one item :func:`score_pair` scores.
PAIR_ID = "pair"


def evaluate(kind: str, truth: Any, pred: Any, **options: Any) -> Result:
    """Score the predictions ``pred`` against the ground truth ``truth`` as ``kind`` does.

    ``truth`` and ``pred`` are what the kind's command takes as ``--truth`` / ``--pred``
    (files or folders; a kind may take a list of prediction folders), or, for every kind,
    ``{item id: text}`` mappings (the texts of the truth files and of the answers).
    ``options`` are the kind's declared options (``Kind.options``; ``parsescore <kind> --help``
    lists them as flags, docs/kinds.md as keywords; e.g. ``threshold=0.3``); ``name`` names the
    system. An option the kind does not have, or a value it does not take, is an InputError
    naming what it takes.

    ::

        result = evaluate(kind, "truth.json", "pred.json")
        result.totals, result.to_dataframe(), result.to_csv()
    """
    described = get_kind(kind)
    scorer = resolved(described.evaluate)
    model: Any = options_model(described.options or NamedOptions, kind, options)
    return finish(scorer(truth, pred, model), model)


def finish(result: Result, options: Any) -> Result:
    """What the core adds to a kind's result from the options every kind takes: the user's
    item attributes (``attributes``) and the breakdowns of the totals (``by``)."""
    from parsescore.core.breakdown import with_attribute_source, with_breakdowns

    extra = getattr(options, "attributes", None)
    if extra is not None:
        (result,) = with_attribute_source([result], extra)
    return with_breakdowns(result, tuple(getattr(options, "by", ())))


def score_pair(kind: str, truth: str, answer: str, **options: Any) -> dict[str, float]:
    """The metrics of one answer against its truth, both given as text: exactly what a dataset
    of that one item gives it (``evaluate(kind, {id: truth}, {id: answer})``), like
    ``jiwer.wer(reference, hypothesis)`` or scikit-learn's metrics.

    ``options`` are the kind's own (``format``-like options included); an answer its reader
    refuses scores as the kind's worst with ``readable`` 0.0 (``strict=True`` raises instead).
    Work no metric shows is skipped (no progress bar, the kind's ``pair_options``), which
    changes no number.

    ::

        score_pair("sequence", "@startuml\\nA -> B : hi\\n@enduml", answer_text)
    """
    described = get_kind(kind)
    declared_options = {
        option.name: option for option in declared(described.options or NamedOptions)
    }
    if "quiet" in declared_options:
        options.setdefault("quiet", True)
    for name, value in described.pair_options.items():
        option = declared_options.get(name)
        if option is None or option.scores:  # a kind's mistake, not the caller's
            raise ValueError(
                f"{kind}: pair option {name!r} is not an option that changes no number"
            )
        options.setdefault(name, value)
    result = evaluate(kind, {PAIR_ID: truth}, {PAIR_ID: answer}, **options)
    return dict(result.items[PAIR_ID])
