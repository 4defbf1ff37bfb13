"""The kind registry: what the core knows about a kind of structure, and nothing more.

Each kind package (``parsescore/<kind>/``) exports one :class:`Kind` describing itself: its
name and nouns, its metrics with their direction and display format, how to score a dataset
(:attr:`Kind.evaluate`), how to read its native ``--out`` document back, its JSON Schema parts,
its report renderers, its predict prompt and answer check, its demo and its CLI commands. The
core (results, schema, compare, report, predict, demo, cli) only iterates :func:`kinds`; it never
names a kind. Adding a kind is its package plus one line in :data:`BUILTIN_KINDS` (or a call to
:func:`register_kind`, e.g. from a test or another package).

A description is cheap to import: its heavy parts are given as :func:`lazy` references
(``"module:attribute"``) that import their module on first call, so that ``parsescore --help``
never loads numpy, scipy, numba or lxml.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from parsescore.errors import InputError

if TYPE_CHECKING:
    import typer
    from rich.console import Console

    from parsescore.results import Reader, Result

__all__ = [
    "BUILTIN_KINDS",
    "DemoOutput",
    "Kind",
    "Metric",
    "MetricFormat",
    "PredictParts",
    "ReportParts",
    "get_kind",
    "kind_names",
    "kinds",
    "lazy",
    "register_kind",
    "registered",
    "resolved",
    "unregister_kind",
]

#: The kinds that ship with parsescore, in display order: ``module:attribute`` of each
#: description. This is the one place that lists them.
BUILTIN_KINDS = (
    "parsescore.flowchart.kind:KIND",
    "parsescore.table.kind:KIND",
    "parsescore.sequence.kind:KIND",
    "parsescore.graph.kind:KIND",
)

#: How a metric's value is shown: ``score`` with 4 decimals, ``percent`` with 2, ``cost`` as a
#: whole number when it is one (else 2 decimals), ``count`` as an integer.
MetricFormat = Literal["score", "percent", "cost", "count"]


@dataclass(frozen=True)
class Metric:
    """One number a kind reports, per item or for the dataset.

    Attributes:
        name: the key in ``Result.items[item]`` or ``Result.totals``.
        label: a short human label for tables and plots.
        higher_is_better: the metric's direction (True for scores, False for costs and error
            rates); None for a number that is not ranked (a count of items).
        format: how to show a value (:data:`MetricFormat`).
        headline: shown first: in the overview (totals), comparisons, plots and item summaries.
    """

    name: str
    label: str
    higher_is_better: bool | None
    format: MetricFormat = "score"
    headline: bool = False

    def show(self, value: float | None) -> str:
        """``value`` as text in this metric's format (``–`` when missing or NaN)."""
        if value is None or value != value:
            return "–"
        if self.format == "count":
            return f"{value:.0f}"
        if self.format == "cost":
            return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"
        if self.format == "percent":
            return f"{value:.2f}"
        return f"{value:.4f}"

    @property
    def arrow(self) -> str:
        """``↑`` (higher is better), ``↓`` (lower is better) or nothing."""
        return {True: "↑", False: "↓", None: ""}[self.higher_is_better]


@dataclass(frozen=True)
class ReportParts:
    """A kind's part of the HTML report (``parsescore.report``).

    Attributes:
        prepare: ``(result, path) -> (result, notes)``: the result as the report shows it
            (e.g. with derived metrics or data from a file beside ``path``) and notes for the
            drill-down (e.g. where that data came from).
        plots: ``(systems, salt) -> html``: the kind's own figures beyond the score
            distributions (systems as :class:`parsescore.report.System`).
        drilldown: ``(system, item ids) -> html``: the per-item detail of one system.
    """

    prepare: Callable[[Result, Path | None], tuple[Result, dict[str, Any]]] | None
    plots: Callable[..., str] | None
    drilldown: Callable[..., str]


@dataclass(frozen=True)
class PredictParts:
    """A kind's part of ``parsescore predict`` / ``run``.

    Attributes:
        suffix: the prediction file's suffix (``.json``, ``.html``, ...).
        prompt: the bundled prompt template (``{caption}``, ``{stem}``).
        accept: ``(answer text, stem) -> (file text, warnings)``; raises ``ValueError`` with
            the reason when the answer is not a prediction the scorer would accept.
        response_format: ``() -> format``: the structured-output format to request, if any.
        run_options: options of :attr:`Kind.evaluate` that ``run`` passes (e.g. to score
            with some predictions missing).
        pred_for_run: ``(truth, predictions folder, {stem: image file name}, target) -> pred``:
            what ``run`` scores as the prediction (default: the folder itself).
        formats: other answer formats the kind accepts (``--format NAME``), each with its own
            parts (prompt, check, suffix); these parts are the default format's.
        format_name: the default format's name, as ``--format`` takes it.
    """

    suffix: str
    prompt: Callable[[], str]
    accept: Callable[[str, str], tuple[str, tuple[str, ...]]]
    response_format: Callable[[], Mapping[str, Any]] | None = None
    run_options: Mapping[str, Any] = field(default_factory=dict)
    pred_for_run: Callable[[Path, Path, Mapping[str, str], Path], Path] | None = None
    formats: Mapping[str, PredictParts] = field(default_factory=dict)
    format_name: str | None = None


@dataclass(frozen=True)
class DemoOutput:
    """What a kind's demo wrote: its Markdown section and the results the report shows."""

    section: str
    results: Sequence[Result]


@dataclass(frozen=True)
class Kind:
    """Everything the core needs to know about one kind of structure.

    Attributes:
        name: the kind's name (``Result.kind``, the CLI command, ``parsescore schema NAME``).
        title: plural title for report headings (``Sequence diagrams``).
        item / items: the noun of one scored item and its plural (``diagram``, ``diagrams``).
        metrics: the per-item metrics, in display order.
        totals: the dataset-level numbers (``Result.totals``), in display order.
        totals_note: how the dataset-level numbers are computed, for the report's overview
            (``table scores are means over tables``).
        evaluate: ``(truth, pred, **options) -> Result``: score a dataset (keyword options
            are the kind's own; see its documentation).
        read: ``(doc, reader, name) -> [Result]``: the results of a native ``--out``
            document (one per system; ``reader`` checks values and names key paths).
        detect: whether a parsed JSON document is this kind's native ``--out``.
        documents: ``{schema name: title}`` of the kind's native documents.
        recognised: how its native documents are told apart, for error messages
            (```parsescore <name>` (keys a, b)``).
        schema: ``() -> {definition name: JSON Schema}``: the kind's ``$defs``; they include
            each document's name and ``<name>_detail`` / ``<name>_dataset`` (the envelope's
            per-item detail and dataset facts).
        cli: ``(app) -> None``: add the kind's commands to a typer app.
        report: the kind's report renderers.
        predict: the kind's predict parts (None: the kind is not predicted from images).
        demo: ``(out_dir) -> DemoOutput``: score the bundled example data into ``out_dir``.
        summarise: ``(result, console) -> None``: print a result's summary as the kind's
            command does (used by ``parsescore run``).
    """

    name: str
    title: str
    item: str
    items: str
    metrics: tuple[Metric, ...]
    totals: tuple[Metric, ...]
    totals_note: str
    evaluate: Callable[..., Result]
    read: Callable[[Any, Reader, str], list[Result]]
    detect: Callable[[Any], bool]
    documents: Mapping[str, str]
    recognised: str
    schema: Callable[[], dict[str, dict[str, Any]]]
    cli: Callable[[typer.Typer], None]
    report: ReportParts
    summarise: Callable[[Result, Console], None]
    predict: PredictParts | None = None
    demo: Callable[[Path], DemoOutput] | None = None

    def __post_init__(self) -> None:
        seen: dict[str, Metric] = {}
        for metric in (*self.metrics, *self.totals):
            other = seen.setdefault(metric.name, metric)
            if (other.higher_is_better, other.format) != (metric.higher_is_better, metric.format):
                raise ValueError(
                    f"kind {self.name!r}: metric {metric.name!r} is declared twice with "
                    "different directions or formats"
                )

    def metric(self, name: str) -> Metric:
        """The metric called ``name`` (per item or total); an unknown name is an InputError,
        so that nothing is ranked in a direction nobody declared."""
        for metric in (*self.metrics, *self.totals):
            if metric.name == name:
                return metric
        known = ", ".join(m.name for m in self.metrics)
        raise InputError(
            f"{self.name} results have no metric {name!r} (its direction is unknown); "
            f"{self.name} metrics: {known}"
        )

    def headline_metrics(self) -> tuple[str, ...]:
        """The per-item headline metrics, in display order."""
        return tuple(m.name for m in self.metrics if m.headline)

    def headline_totals(self) -> tuple[Metric, ...]:
        """The dataset-level numbers of the overview, in display order."""
        return tuple(m for m in self.totals if m.headline)


def lazy(target: str) -> Callable[..., Any]:
    """A callable standing for ``module:attribute``, imported on its first call.

    >>> dumps = lazy("json:dumps")
    >>> dumps([1])
    '[1]'
    """
    module, _, attribute = target.partition(":")
    if not module or not attribute:
        raise ValueError(f"expected 'module:attribute', got {target!r}")
    resolved: list[Callable[..., Any]] = []

    def resolve() -> Callable[..., Any]:
        if not resolved:
            resolved.append(getattr(importlib.import_module(module), attribute))
        return resolved[0]

    def call(*args: Any, **kwargs: Any) -> Any:
        return resolve()(*args, **kwargs)

    call.__name__ = attribute
    call.__qualname__ = attribute
    call.__doc__ = f"``{target}``, imported on first call."
    call.resolve = resolve  # type: ignore[attr-defined]  # the real callable (its signature)
    return call


def resolved(function: Callable[..., Any]) -> Callable[..., Any]:
    """The callable a :func:`lazy` reference stands for (``function`` itself otherwise)."""
    resolve = getattr(function, "resolve", None)
    return function if resolve is None else resolve()


_REGISTRY: dict[str, Kind] = {}
_LOADED = False


def _load_builtin() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for target in BUILTIN_KINDS:
        module, _, attribute = target.partition(":")
        kind = getattr(importlib.import_module(module), attribute)
        _REGISTRY.setdefault(kind.name, kind)


def kinds() -> tuple[Kind, ...]:
    """Every registered kind, built-in ones first, in registration order."""
    _load_builtin()
    return tuple(_REGISTRY.values())


def kind_names() -> tuple[str, ...]:
    """The names of every registered kind."""
    return tuple(kind.name for kind in kinds())


def get_kind(name: str) -> Kind:
    """The kind called ``name``; an unknown name is an InputError listing the known ones."""
    _load_builtin()
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown kind {name!r}; expected one of {', '.join(_REGISTRY)}") from None


def register_kind(kind: Kind) -> None:
    """Add a kind (after the built-in ones). Its name must be new."""
    _load_builtin()
    if kind.name in _REGISTRY:
        raise ValueError(f"a kind called {kind.name!r} is already registered")
    _REGISTRY[kind.name] = kind


def unregister_kind(name: str) -> None:
    """Remove a kind registered with :func:`register_kind`."""
    _load_builtin()
    _REGISTRY.pop(name, None)


@contextmanager
def registered(kind: Kind) -> Iterator[Kind]:
    """Register ``kind`` for the duration of a ``with`` block (tests, notebooks)."""
    register_kind(kind)
    try:
        yield kind
    finally:
        unregister_kind(kind.name)
