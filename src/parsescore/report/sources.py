"""The report's input: every system of every result, as its kind prepares it for the page.

A result file may be an envelope (``--result``) or a kind's native ``--out``; both load as a
:class:`~parsescore.core.results.Result` whose ``details`` the drill-down draws. Each kind may then
prepare its results (:attr:`parsescore.core.kinds.ReportParts.prepare`), e.g. add metrics the report
plots or detail kept in a file beside the result.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from parsescore.core.errors import InputError
from parsescore.core.files import write_bytes, write_text
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


#: The report's own list of the files it wrote (with their sha256), in the report folder.
MARKER = ".parsescore-report.json"
_MARKER_VERSION = 1
_PAGE_NAME = re.compile(r"(?:index|items/[A-Za-z0-9][A-Za-z0-9._-]*)\.html")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _written_before(folder: Path) -> dict[str, str]:
    """The pages an earlier report wrote into ``folder`` (its marker: page → sha256); nothing
    when there is no marker or it is not one (then no file is removed)."""
    marker = folder / MARKER
    if marker.is_symlink() or not marker.is_file():
        return {}
    try:
        doc = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return {}
    files = doc.get("files") if isinstance(doc, dict) else None
    if not isinstance(doc, dict) or doc.get("parsescore_report") != _MARKER_VERSION:
        return {}
    if not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)}


def _remove_stale(folder: Path, before: dict[str, str], now: set[str]) -> list[str]:
    """Remove the pages of the earlier report that this one did not write again: only a
    regular file (not a link) named like a report page, inside the folder, whose bytes are
    still those the report wrote (a file edited or put there since is kept)."""
    removed = []
    for name, digest in sorted(before.items()):
        if name in now or not _PAGE_NAME.fullmatch(name):
            continue
        path = folder / name
        try:
            if path.is_symlink() or not path.is_file() or path.parent.is_symlink():
                continue
            if _sha256(path.read_bytes()) != digest:
                continue
            path.unlink()
        except OSError:
            continue
        removed.append(name)
    items = folder / "items"
    if removed and items.is_dir() and not items.is_symlink() and not any(items.iterdir()):
        with contextlib.suppress(OSError):
            items.rmdir()
    return removed


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
    ``options.max_items``), each atomically; returns the main page's path.

    The folder's marker (:data:`MARKER`) lists the pages written and their sha256: a report
    written again into the folder removes the earlier report's pages it does not write again
    (e.g. ``items/*.html`` of a larger run), never a file the report did not write."""
    pages = render_pages(load_report_systems(sources, names, datasets), options)
    folder = Path(out_dir)
    before = _written_before(folder)
    written: dict[str, str] = {}
    for name, text in pages.items():
        data = text.encode("utf-8")
        write_bytes(folder / name, data)
        written[name] = _sha256(data)
    _remove_stale(folder, before, set(pages))
    marker = {"parsescore_report": _MARKER_VERSION, "files": dict(sorted(written.items()))}
    write_text(folder / MARKER, json.dumps(marker, indent=1) + "\n")
    return folder / "index.html"
