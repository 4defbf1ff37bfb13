"""The report's input: every system of every result, as its kind prepares it for the page.

A result file may be an envelope (``--result``) or a kind's native ``--out``; both load as a
:class:`~parsescore.core.results.Result` whose ``details`` the drill-down draws. Each kind may then
prepare its results (:attr:`parsescore.core.kinds.ReportParts.prepare`), e.g. add metrics the report
plots or detail kept in a file beside the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from parsescore.core.errors import InputError
from parsescore.core.files import write_text
from parsescore.core.kinds import get_kind
from parsescore.core.results import Result, load_results, system_names
from parsescore.report.html import ReportOptions, System, render_pages

__all__ = ["load_report_systems", "prepare_system", "write_report"]


def prepare_system(result: Result, path: Path | None = None, dataset: str = "") -> System:
    """A result as the report shows it (its kind's ``prepare``, if any)."""
    prepare = get_kind(result.kind).report.prepare
    if prepare is None:
        return System(result, path, dataset=dataset)
    prepared, notes = prepare(result, path)
    return System(prepared, path, notes, dataset=dataset)


def load_report_systems(
    sources: Sequence[str | Path | Result],
    names: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
) -> list[System]:
    """Every system of the given result files or results (a file may hold several).

    A file's system is named after its stem (with parent folders where stems clash, as in
    ``parsescore compare``), a result keeps its name; ``names`` overrides both, one per source.
    ``datasets`` (one per source) groups systems of one kind by dataset (``parsescore bench``);
    names must be unique within a group.
    """
    sources = list(sources)
    if not sources:
        raise InputError("report needs at least one result file")
    if datasets is not None and len(datasets) != len(sources):
        raise ValueError("datasets must name one dataset per source")
    groups = list(datasets) if datasets is not None else [""] * len(sources)
    if names:
        if len(names) != len(sources):
            raise InputError(
                f"--name given {len(names)} times for {len(sources)} result files; give it once "
                "per file, in the same order"
            )
        labels: list[str | None] = list(names)
    else:
        paths = [Path(s) for s in sources if not isinstance(s, Result)]
        stems = iter(system_names(paths))
        labels = [None if isinstance(s, Result) else next(stems) for s in sources]
    systems: list[System] = []
    for source, label, dataset in zip(sources, labels, groups, strict=True):
        if isinstance(source, Result):
            result = source if label is None else replace(source, name=label)
            systems.append(prepare_system(result, dataset=dataset))
            continue
        path = Path(source)
        systems += [prepare_system(r, path, dataset) for r in load_results(path, name=label)]
    seen: set[tuple[str, str]] = set()
    for system in systems:
        if (system.dataset, system.name) in seen:
            raise InputError(
                f"two systems are both named {system.name!r}; give each file its own --name"
            )
        seen.add((system.dataset, system.name))
    return systems


def write_report(
    sources: Sequence[str | Path | Result],
    out_dir: str | Path,
    *,
    names: Sequence[str] | None = None,
    options: ReportOptions | None = None,
    datasets: Sequence[str] | None = None,
) -> Path:
    """Load the result files (or take the results), render the pages and write
    ``out_dir/index.html`` (and ``out_dir/items/*.html`` for systems with more items than
    ``options.max_items``), each atomically; returns the main page's path."""
    pages = render_pages(load_report_systems(sources, names, datasets), options)
    for name, text in pages.items():
        write_text(Path(out_dir) / name, text)
    return Path(out_dir) / "index.html"
