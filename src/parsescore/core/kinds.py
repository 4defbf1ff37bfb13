"""The kind registry: what the core knows about a kind of structure, and nothing more.

Each kind package (``parsescore/<kind>/``) exports one :class:`Kind` describing itself: its
name and nouns, its metrics with their direction and display format, how to score a dataset
(:attr:`Kind.evaluate`), how to read its native ``--out`` document back, its JSON Schema parts,
its report renderers, its predict prompt and answer check, its demo and its CLI commands. The
core (results, schema, compare, report, predict, demo, cli) only iterates :func:`kinds`; it never
names a kind. Adding a kind is its package plus one line in :data:`BUILTIN_KINDS`, or, from
another package, an entry point in the group ``parsescore.kinds`` (:data:`ENTRY_POINT_GROUP`), or
a call to :func:`register_kind` (a test, a notebook).

A description is cheap to import: its heavy parts are given as :func:`lazy` references
(``"module:attribute"``) that import their module on first call, so that ``parsescore --help``
never loads numpy, scipy, numba or lxml.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from parsescore.core.errors import InputError

if TYPE_CHECKING:
    from importlib import metadata

    import typer
    from rich.console import Console

    from parsescore.core.results import Reader, Result

__all__ = [
    "BUILTIN_KINDS",
    "ENTRY_POINT_GROUP",
    "Aggregate",
    "Attribute",
    "CommandParts",
    "Dataset",
    "DemoOutput",
    "Format",
    "FromCounts",
    "Items",
    "Kind",
    "Mean",
    "Metric",
    "MetricFormat",
    "PredictParts",
    "Ratio",
    "ReportParts",
    "Sum",
    "builtin_kind",
    "get_kind",
    "iter_kinds",
    "kind_names",
    "kinds",
    "lazy",
    "register_kind",
    "registered",
    "replaced",
    "resolved",
    "unregister_kind",
    "without_plugins",
]

#: The kinds that ship with parsescore, in display order: ``module:attribute`` of each
#: description. This is the one place that lists them.
BUILTIN_KINDS = (
    "parsescore.flowchart.kind:KIND",
    "parsescore.table.kind:KIND",
    "parsescore.sequence.kind:KIND",
    "parsescore.graph.kind:KIND",
    "parsescore.document.kind:KIND",
)

#: How a metric's value is shown: ``score`` with 4 decimals, ``percent`` with 2, ``cost`` as a
#: whole number when it is one (else 2 decimals), ``count`` as an integer.
MetricFormat = Literal["score", "percent", "cost", "count"]


@dataclass(frozen=True)
class Mean:
    """The mean of the items' values of a metric (``of``: another metric's name), summed in item
    order and divided by their number, as the references do; items without a value (``None``)
    are left out; ``empty`` when no item has one (None: no total)."""

    of: str | None = None
    empty: float | None = None


@dataclass(frozen=True)
class Sum:
    """The sum of the items' values of a metric, or of one of their counts (``count``)."""

    of: str | None = None
    count: str | None = None


@dataclass(frozen=True)
class Ratio:
    """``scale * (Σ numerator / Σ denominator)``: counts summed over items, then divided
    (micro, or pooled); ``empty`` when the summed denominator is 0."""

    numerator: str
    denominator: str
    scale: float = 1.0
    empty: float = 0.0


@dataclass(frozen=True)
class FromCounts:
    """A set-comparison score of the items' summed ``tp``/``fp``/``fn`` counts
    (:class:`parsescore.shared.scores.Counts`: precision, recall, F1 as 2PR/(P+R), Jaccard),
    rounded to ``digits`` decimals where the reference's format rounds it (graph's eval.json:
    3; None: not rounded)."""

    score: Literal["precision", "recall", "f1", "jaccard"]
    tp: str = "tp"
    fp: str = "fp"
    fn: str = "fn"
    digits: int | None = None


@dataclass(frozen=True)
class Items:
    """The number of scored items."""


@dataclass(frozen=True)
class Dataset:
    """A dataset-level number not built from items (the kind gives it, with ``why``)."""

    why: str = ""


#: How a metric's dataset total is built from its items (:func:`parsescore.core.aggregate.totals`).
Aggregate = Mean | Sum | Ratio | FromCounts | Items | Dataset


@dataclass(frozen=True)
class Format:
    """One format a kind reads (its reader registry): name, file extensions, a content
    detector for ``auto`` and the reader into the kind's own model.

    Attributes:
        name: what ``--truth-format`` / ``--pred-format`` take.
        description: a few words for ``--help`` and the docs.
        extensions: file suffixes read as this format in ``auto`` mode (``.mmd``).
        read: ``(text) -> model``: the kind's reader (raises InputError naming the place).
        detect: ``(text) -> bool``: whether a text is in this format (``auto`` without a
            telling extension); None: never chosen by content.
    """

    name: str
    description: str
    extensions: tuple[str, ...]
    read: Callable[[str], Any]
    detect: Callable[[str], bool] | None = None


@dataclass(frozen=True)
class Attribute:
    """An item attribute a kind declares (``Result.attributes``; ``--by``): its name, what it
    says, and its values in the order they are shown (bins in size order; empty: the order the
    items show them)."""

    name: str
    description: str
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class CommandParts:
    """A kind's own command, built by the core from its declared options (``Kind.options``).

    Attributes:
        help: the command's help text.
        truth, pred: the help of ``--truth`` and ``--pred``.
        pred_many: ``--pred`` may be repeated (prediction folders of separate parts, models).
        required: whether ``--truth`` and ``--pred`` must be given.
        pred_flags: other spellings of ``--pred``, accepted but not shown in ``--help``
            (older names, such as graph's ``--graph``).
        run: ``(values) -> None``: what the command does with its checked flags (``truth``,
            ``pred``, ``out``, ``result``, ``csv`` and the options model as ``options``);
            default: :func:`parsescore.evaluate`, the kind's summary, then the files.
    """

    help: str
    truth: str
    pred: str
    pred_many: bool = False
    required: bool = True
    pred_flags: tuple[str, ...] = ()
    run: Callable[[Mapping[str, Any]], None] | None = None


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
        aggregate: how its dataset total is built from the items (:data:`Aggregate`; a
            metric of ``Kind.totals``).
    """

    name: str
    label: str
    higher_is_better: bool | None
    format: MetricFormat = "score"
    headline: bool = False
    aggregate: Aggregate = Mean()

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
        counts: ``(result) -> [(label, count)]``: what the overview counts of a system
            (default: its items) when items are of several sorts.
    """

    prepare: Callable[[Result, Path | None], tuple[Result, dict[str, Any]]] | None
    plots: Callable[..., str] | None
    drilldown: Callable[..., str]
    counts: Callable[[Result], Sequence[tuple[str, int]]] | None = None


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
        default_format: the name of the answer format these parts ask for ("" when the kind
            has one format only).
        formats: other answer formats the kind can be asked for (``--format NAME``), each with
            its own suffix, prompt and check.
        whole_answer: the answer is the file as written, only ``<think>`` blocks dropped (no
            fenced block taken out of it): for formats that hold fences of their own (a page's
            Markdown with code blocks).
    """

    suffix: str
    prompt: Callable[[], str]
    accept: Callable[[str, str], tuple[str, tuple[str, ...]]]
    response_format: Callable[[], Mapping[str, Any]] | None = None
    run_options: Mapping[str, Any] = field(default_factory=dict)
    pred_for_run: Callable[[Path, Path, Mapping[str, str], Path], Path] | None = None
    default_format: str = ""
    formats: Mapping[str, PredictParts] = field(default_factory=dict)
    whole_answer: bool = False


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
        evaluate: ``(truth, pred, options) -> Result``: score a dataset (``options`` an
            instance of ``options``, checked by :func:`parsescore.evaluate`).
        read: ``(doc, reader, name) -> [Result]``: the results of a native ``--out``
            document (one per system; ``reader`` checks values and names key paths).
        detect: whether a parsed JSON document is this kind's native ``--out``.
        documents: ``{schema name: title}`` of the kind's native documents.
        recognised: how its native documents are told apart, for error messages
            (```parsescore <name>` (keys a, b)``).
        schema: ``() -> {definition name: JSON Schema}``: the kind's ``$defs``; they include
            each document's name and ``<name>_detail`` / ``<name>_dataset`` (the envelope's
            per-item detail and dataset facts).
        options: the kind's options model: a frozen dataclass whose fields are declared with
            :func:`parsescore.core.options.option` (``evaluate``'s keywords, the command's
            flags, ``Result.options``, the cache key, ``--help`` and the docs come from it);
            ``evaluate`` receives an instance (None: the core's ``NamedOptions`` only).
        command: the kind's own command, built by the core from ``options``.
        formats: the kind's reader registry (:class:`Format`), in ``auto``'s order.
        attributes: the item attributes its results carry (:class:`Attribute`), by which
            totals and comparisons break down (``--by``).
        subset_totals: ``(result, item ids) -> {total: value}``: the kind's ``Dataset``
            totals recomputed on a subset of its items, for breakdowns (a result scored in this
            process; {} when it cannot); None: those totals have no breakdown.
        cli: ``(app) -> None``: add the kind's other commands to a typer app.
        report: the kind's report renderers.
        predict: the kind's predict parts (None: the kind is not predicted from images).
        demo: ``(out_dir) -> DemoOutput``: score the bundled example data into ``out_dir``.
        summarise: ``(result, console) -> None``: print a result's summary as the kind's
            command does (used by ``parsescore run``).
        pair_options: the options :func:`parsescore.score_pair` sets unless given: work whose
            output a pair's metrics never show (details for a result file). They must be
            options that change no number (not ``scores``); ``score_pair`` checks it.
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
    report: ReportParts
    summarise: Callable[[Result, Console], None]
    options: type | None = None
    command: CommandParts | None = None
    formats: tuple[Format, ...] = ()
    attributes: tuple[Attribute, ...] = ()
    subset_totals: Callable[[Result, Sequence[str]], Mapping[str, float]] | None = None
    cli: Callable[[typer.Typer], None] | None = None
    predict: PredictParts | None = None
    demo: Callable[[Path], DemoOutput] | None = None
    pair_options: Mapping[str, Any] = field(default_factory=dict)

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
            from parsescore.core.files import gc_paused

            # A kind's scoring modules are most of a first call's work: thousands of objects
            # (classes, dataclasses, models, compiled patterns) whose allocation would set off
            # collection after collection of everything allocated so far.
            with gc_paused():
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
#: The descriptions of :data:`BUILTIN_KINDS` read so far, at their places (None: not read).
_BUILTINS: list[Kind | None] = [None] * len(BUILTIN_KINDS)
_PLUGINS_LOADED = False
#: Open :func:`without_plugins` blocks.
_plugins_held = 0


#: The entry-point group through which other packages add kinds (``name = "pkg.mod:KIND"``).
ENTRY_POINT_GROUP = "parsescore.kinds"


def _load_builtin() -> None:
    """Every built-in kind's description, and not the installed plugins."""
    while _load_next_builtin():
        pass


def _builtin_place(name: str) -> int | None:
    """The place in :data:`BUILTIN_KINDS` of the built-in kind called ``name`` (each is
    ``parsescore.<name>.kind:KIND``), None for any other name."""
    prefix = f"parsescore.{name}.kind:"
    return next((i for i, target in enumerate(BUILTIN_KINDS) if target.startswith(prefix)), None)


def _load_builtin_at(place: int) -> None:
    """The description of the built-in kind at ``place`` into the registry, in its place: a
    first call of one built-in kind (``score_pair("graph", …)``, ``parsescore graph``) imports
    neither the other kinds' descriptions nor ``importlib.metadata``.

    While a built-in kind is not read the registry holds built-in kinds only (registering,
    replacing or removing a kind reads them all first), so it is refilled in their order: it
    is the same however it was filled."""
    if _BUILTINS[place] is not None:
        return
    module, _, attribute = BUILTIN_KINDS[place].partition(":")
    _BUILTINS[place] = getattr(importlib.import_module(module), attribute)
    _REGISTRY.clear()
    for kind in _BUILTINS:
        if kind is not None:
            _REGISTRY.setdefault(kind.name, kind)


def _builtins_in_order() -> int:
    """How many built-in kinds, from the first, are read (the registry's first entries)."""
    return next((i for i, kind in enumerate(_BUILTINS) if kind is None), len(_BUILTINS))


def _load_next_builtin() -> bool:
    """The first built-in kind not yet read into the registry (False: all are there)."""
    place = _builtins_in_order()
    if place >= len(_BUILTINS):
        return False
    _load_builtin_at(place)
    return True


def builtin_kind(name: str) -> Kind | None:
    """The registered kind called ``name`` when a built-in kind has that name, reading that
    kind's description only (no other kind's, no plugin); None for any other name."""
    place = _builtin_place(name)
    if place is None:
        return None
    _load_builtin_at(place)
    return _REGISTRY.get(name)


def _load_all() -> None:
    """Built-in kinds, then the kinds of the entry-point group (a plugin never takes a built-in
    kind's name, so a built-in kind is the same whether or not plugins were read)."""
    global _PLUGINS_LOADED
    _load_builtin()
    if _PLUGINS_LOADED or _plugins_held:
        return
    _PLUGINS_LOADED = True
    from importlib import metadata

    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            kind = entry.load()
        except Exception as exc:  # a broken plugin must not break parsescore
            _plugin_problem(entry, f"cannot be imported ({type(exc).__name__}: {exc})")
            continue
        if not isinstance(kind, Kind):
            _plugin_problem(entry, f"is {type(kind).__name__}, not a parsescore Kind")
        elif kind.name in _REGISTRY:
            _plugin_problem(entry, f"names the kind {kind.name!r}, which is already registered")
        else:
            _REGISTRY[kind.name] = kind


def _plugin_problem(entry: metadata.EntryPoint, problem: str) -> None:
    warnings.warn(
        f"parsescore: the kind {entry.name!r} of entry point group {ENTRY_POINT_GROUP!r} "
        f"({entry.value}) {problem}; it is left out",
        stacklevel=3,
    )


@contextmanager
def without_plugins() -> Iterator[None]:
    """Within the block, the registry answers without reading the installed plugins (the
    built-in kinds and those already registered): the CLI builds the app for a built-in kind's
    command so, as reading every installed distribution's entry points costs a fresh process
    about 0.05-0.08 s of CPU. A plugin never takes a built-in kind's name, so those kinds are
    the same either way. After the block the plugins are read as before, on first need."""
    global _plugins_held
    _plugins_held += 1
    try:
        yield
    finally:
        _plugins_held -= 1


def kinds() -> tuple[Kind, ...]:
    """Every registered kind, built-in ones first, in registration order."""
    _load_all()
    return tuple(_REGISTRY.values())


def iter_kinds() -> Iterator[Kind]:
    """:func:`kinds` one at a time: a built-in kind's description is imported when the
    iteration reaches it, the plugins after the last built-in one, so a caller that stops
    early (the CLI, once it has the command it runs) imports no more."""
    index = 0
    while True:
        while index >= _builtins_in_order() and _load_next_builtin():
            pass
        if index >= len(_REGISTRY):
            _load_all()
            if index >= len(_REGISTRY):
                return
        yield list(_REGISTRY.values())[index]
        index += 1


def kind_names() -> tuple[str, ...]:
    """The names of every registered kind."""
    return tuple(kind.name for kind in kinds())


def get_kind(name: str) -> Kind:
    """The kind called ``name``; an unknown name is an InputError listing the known ones.

    A built-in kind's name is answered without reading the installed plugins (a fresh
    process's first call stays cheap); any other name reads them first."""
    if isinstance(name, str):
        builtin_kind(name)
    if not (isinstance(name, str) and name in _REGISTRY):
        _load_all()
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown kind {name!r}; expected one of {', '.join(_REGISTRY)}") from None


def register_kind(kind: Kind) -> None:
    """Add a kind (after the built-in ones). Its name must be new."""
    _load_all()
    if kind.name in _REGISTRY:
        raise ValueError(f"a kind called {kind.name!r} is already registered")
    _REGISTRY[kind.name] = kind


def unregister_kind(name: str) -> None:
    """Remove a kind registered with :func:`register_kind`."""
    _load_all()
    _REGISTRY.pop(name, None)


@contextmanager
def registered(kind: Kind) -> Iterator[Kind]:
    """Register ``kind`` for the duration of a ``with`` block (tests, notebooks)."""
    register_kind(kind)
    try:
        yield kind
    finally:
        unregister_kind(kind.name)


@contextmanager
def replaced(kind: Kind) -> Iterator[Kind]:
    """Register ``kind`` in place of the registered kind of the same name (at its place in the
    order) for the duration of a ``with`` block — e.g. a built-in kind with one more format, in
    tests and notebooks; the original is back after it."""
    _load_all()
    if kind.name not in _REGISTRY:
        raise ValueError(f"no kind called {kind.name!r} is registered")
    original = _REGISTRY[kind.name]
    _REGISTRY[kind.name] = kind
    try:
        yield kind
    finally:
        _REGISTRY[kind.name] = original
