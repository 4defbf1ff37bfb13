"""How a dataset's answers line up with its truth items — the rules every dataset kind follows
(shared/specs/formats.md, "Unreadable answers in a dataset").

- **Names.** No answer matching any truth item is an error that names a truth id and an answer
  id (and asks whether ``--truth`` and ``--pred`` were swapped when the other way round
  matches): such a run would score every item as missing. Some truth items without an answer
  are scored as the kind's worst (an empty answer), listed in ``Result.dataset["missing"]`` and
  warned about; ``allow_missing`` scores only the items that have one.
- **Unreadable answers.** An answer its reader refuses scores as a missing one does and is
  listed in ``Result.dataset["unreadable"]`` (``{id: reason}``, with line and column where the
  reader knows them); ``strict`` stops at the first one instead (the reader's own error).
- **Readable.** ``Result.totals["readable"]`` is the share of truth items whose answer was
  present and readable; each scored item carries ``readable`` (1.0 or 0.0) among its metrics,
  so that ``--csv``, ``compare`` and the report show it like any other number.
- **Fenced.** ``Result.dataset["fenced"]`` maps each item whose content came from a fenced
  block of a chat answer to the block's info string (:mod:`parsescore.shared.answers`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parsescore.core.errors import InputError
from parsescore.core.kinds import Metric

__all__ = [
    "READABLE",
    "Coverage",
    "check_names",
]

#: Every dataset kind's per-item and total ``readable`` (declared once, here).
READABLE = Metric("readable", "readable answers", True, "score")


def _quoted(ids: Sequence[str]) -> str:
    return repr(ids[0]) if ids else "none"


def check_names(
    truth_ids: Sequence[str],
    answer_ids: Iterable[str],
    *,
    truth: str,
    pred: str,
    allow_missing: bool = False,
    swapped: Callable[[], bool] | None = None,
) -> list[str]:
    """The truth ids without an answer, in truth order; an error when no answer matches any.

    ``truth`` / ``pred`` say where the ids come from (e.g. the paths given); ``swapped()``
    tells whether the inputs would match the other way round (asked only on the error).
    ``allow_missing`` changes nothing here: the caller leaves the missing items out.
    """
    answers = list(answer_ids)
    present = set(answers)
    missing = [item for item in truth_ids if item not in present]
    if truth_ids and len(missing) == len(truth_ids):
        extra = sorted(present)
        message = (
            f"no answer in {pred} matches a truth item of {truth}: truth ids such as "
            f"{_quoted(list(truth_ids))}, answers such as {_quoted(extra)}"
        )
        if not answers:
            message = f"no answer in {pred} (expected answers for truth ids such as " + (
                f"{_quoted(list(truth_ids))} from {truth})"
            )
        if answers and swapped is not None and swapped():
            message += "; did you swap --truth and --pred?"
        raise InputError(message)
    return missing


@dataclass
class Coverage:
    """What a dataset's answers were: missing, unreadable, fenced (see the module).

    ``truth`` counts the truth items (all of them, scored or not).
    """

    truth: int
    missing: list[str] = field(default_factory=list)
    unreadable: dict[str, str] = field(default_factory=dict)
    fenced: dict[str, str] = field(default_factory=dict)

    @property
    def readable(self) -> float:
        """The share of truth items whose answer was present and readable (1.0 when none)."""
        if self.truth == 0:
            return 1.0
        return (self.truth - len(self.missing) - len(self.unreadable)) / self.truth

    def facts(self) -> dict[str, Any]:
        """The ``Result.dataset`` entries: ``missing``, ``unreadable``, ``fenced``."""
        return {
            "missing": list(self.missing),
            "unreadable": dict(self.unreadable),
            "fenced": dict(self.fenced),
        }

    def warnings(self, items: str, *, allow_missing: bool = False) -> list[str]:
        """One warning each for missing and unreadable answers (``items``: the kind's plural
        noun), naming the first few."""
        out: list[str] = []
        if self.missing:
            scored = "left out with --allow-missing" if allow_missing else "scored as empty"
            out.append(
                f"{len(self.missing)} of {self.truth} {items} have no answer ({scored}): "
                + _first(self.missing)
            )
        if self.unreadable:
            named = [f"{item}: {reason}" for item, reason in self.unreadable.items()]
            out.append(
                f"{len(self.unreadable)} of {self.truth} answers are unreadable (scored as "
                "missing; --strict stops at the first): " + _first(named, 3, "; ")
            )
        return out

    @staticmethod
    def from_facts(truth: int, facts: Mapping[str, Any]) -> Coverage:
        """The coverage a result's ``dataset`` records."""
        return Coverage(
            truth,
            list(facts.get("missing", [])),
            dict(facts.get("unreadable", {})),
            dict(facts.get("fenced", {})),
        )


def _first(names: Sequence[str], shown: int = 5, sep: str = ", ") -> str:
    more = f"{sep}... and {len(names) - shown} more" if len(names) > shown else ""
    return sep.join(names[:shown]) + more
