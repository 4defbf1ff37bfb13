"""Sequence-diagram results: scoring one model's scripts (:func:`evaluate`), its ``--out`` block
and its :class:`~parsescore.core.results.Result`, and reading ``--out`` back (:func:`read`).

Per file the metrics are the insertion, deletion and substitution rates of each of the paper's
categories (``<category>_insertion_rate``, ...) and ``error_rate`` (all errors over all
ground-truth elements × 100); its detail is its ground-truth line count, its counts per category
and every counted difference. Totals are the same rates over the summed counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from parsescore import __version__
from parsescore.core.errors import InputError
from parsescore.core.results import Reader, Result
from parsescore.sequence.kind import is_block
from parsescore.sequence.metrics import DEFAULT_THRESHOLD, CategoryCounts, ModelScore
from parsescore.sequence.model import CATEGORIES
from parsescore.sequence.read import SUFFIXES

__all__ = ["COUNTS", "RATES", "evaluate", "read", "sources", "to_result"]

#: A category's rates (percentages of its ground-truth count); metrics ``<category>_<rate>``.
RATES = ("insertion_rate", "deletion_rate", "substitution_rate")
#: A category's counts, as the detail keeps them.
COUNTS = ("gt_count", "insertion", "deletion", "substitution")


def sources(
    truth: str | Path | Mapping[str, str],
    pred: str | Path | Mapping[str, str],
    *,
    repo: str | Path | None = None,
) -> tuple[Any, Any, dict[str, str]]:
    """The truth and prediction script sources (files, folders, ``{id: text}`` mappings, or
    git refs of ``repo``) and the inputs as the result records them (paths and refs only)."""
    from parsescore.sequence.inputs import git_source, path_source, text_source

    if repo is not None:
        if isinstance(truth, Mapping) or isinstance(pred, Mapping):
            raise InputError("with repo, truth and pred are git refs, not texts")
        return (
            git_source(Path(repo), str(truth)),
            git_source(Path(repo), str(pred)),
            {"repo": str(repo), "truth_ref": str(truth), "pred_ref": str(pred)},
        )
    inputs: dict[str, str] = {}
    found = []
    for side, given in (("truth", truth), ("pred", pred)):
        if isinstance(given, Mapping):
            found.append(text_source(given, side))
        else:
            found.append(path_source(Path(given)))
            inputs[side] = str(given)
    truth_source, pred_source = found
    if pred_source.single_file != truth_source.single_file:
        raise InputError("--truth and --pred must both be files or both be directories")
    if not truth_source.paths:
        raise InputError(
            f"no sequence-diagram scripts ({', '.join(SUFFIXES)}) found",
            path=None if isinstance(truth, Mapping) else Path(truth),
        )
    return truth_source, pred_source, inputs


def evaluate(
    truth: str | Path | Mapping[str, str],
    pred: str | Path | Mapping[str, str],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    ignore_colours: bool = False,
    truth_format: str = "auto",
    pred_format: str = "auto",
    repo: str | Path | None = None,
    strict: bool = False,
    allow_missing: bool = False,
    jobs: int = 1,
    dask_scheduler: str | None = None,
    cache: str | Path | None = None,
    quiet: bool = False,
    name: str | None = None,
) -> Result:
    """Score one model's sequence diagrams ``pred`` against the ground truth ``truth``.

    Both are files or folders of PlantUML or Mermaid scripts (paired by relative path without
    the suffix), or ``{id: text}`` mappings (ids paired the same way); with ``repo`` they are
    git refs of that repository (the paper's set-up). Predictions are models' answers: a chat
    answer's diagram is taken out of its prose first (``dataset["fenced"]`` lists those read
    from a fenced block). ``threshold`` is the largest normalised Levenshtein distance at
    which a removed and an added line count as one substitution. Colours count as the paper
    counts them unless ``ignore_colours``. ``truth_format`` / ``pred_format``: ``auto``,
    ``plantuml``, ``mermaid``.

    A prediction that cannot be read or holds no sequence diagram scores as everything
    deleted, is listed in ``dataset["unreadable"]`` and warned about (``strict``: an error
    instead). A truth file without a prediction scores the same, listed in
    ``dataset["missing"]`` (``allow_missing``: left out); no prediction matching any truth
    file is an error. Each file's ``readable`` is 1.0 or 0.0, ``totals["readable"]`` their
    share over all truth files.

    >>> from parsescore import evaluate
    >>> truth = {"call": "@startuml\\nA -> B : hi\\n@enduml"}
    >>> answer = {"call": "Sure:\\n```mermaid\\nsequenceDiagram\\n  A->>B: hi\\n```"}
    >>> result = evaluate("sequence", truth, answer, quiet=True)
    >>> result.totals["error_rate"], result.totals["readable"], result.dataset["fenced"]
    (0.0, 1.0, {'call': 'mermaid'})
    """
    from rich.console import Console

    from parsescore.sequence.dataset import score_model
    from parsescore.sequence.read import FORMATS

    if not 0 <= threshold <= 1:
        raise InputError(f"--threshold must be between 0 and 1, got {threshold}")
    for option, value in (("--truth-format", truth_format), ("--pred-format", pred_format)):
        if value not in FORMATS:
            raise InputError(f"{option} must be one of {', '.join(FORMATS)}, got {value!r}")
    truth_source, pred_source, inputs = sources(truth, pred, repo=repo)
    model = score_model(
        truth_source,
        pred_source,
        threshold=threshold,
        ignore_colours=ignore_colours,
        truth_format=truth_format,
        pred_format=pred_format,
        strict=strict,
        allow_missing=allow_missing,
        jobs=jobs,
        dask_scheduler=dask_scheduler,
        cache_dir=cache,
        progress=not quiet,
        console=Console(stderr=True),
    )
    options: dict[str, Any] = {"threshold": threshold, "ignore_colours": ignore_colours}
    options |= {"truth_format": truth_format, "pred_format": pred_format}
    if allow_missing:  # recorded only when set: it changes which files are scored
        options["allow_missing"] = True
    return to_result(model, inputs=inputs, options=options, name=name or model.name)


def _rates(counts: Mapping[str, CategoryCounts]) -> dict[str, float]:
    values = {
        f"{category}_{rate}": float(getattr(counts[category], rate))
        for category in CATEGORIES
        for rate in RATES
    }
    return values | {"error_rate": _error_rate(counts.values())}


def _error_rate(counts: Iterable[CategoryCounts]) -> float:
    """All errors over all ground-truth elements × 100 (0 without ground truth)."""
    errors = gt = 0.0
    for c in counts:
        gt += c.gt_count
        errors += c.insertion + c.deletion + c.substitution
    return errors / gt * 100 if gt else 0.0


def to_result(
    model: ModelScore, *, inputs: dict[str, Any], options: dict[str, Any], name: str
) -> Result:
    """The model's :class:`Result`, its ``--out`` block (``{"totals", "files"}``) as ``native``.

    ``inputs`` also records which format each side's files were read as (``formats``)."""
    from parsescore.shared.coverage import READABLE, Coverage

    coverage = model.coverage or Coverage(
        len(model.files), missing=[f.path for f in model.files if f.prediction_missing]
    )
    items: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    for file in model.files:
        items[file.path] = _rates(file.counts) | {READABLE.name: file.readable}
        details[file.path] = {
            "gt_lines": file.gt_lines,
            "counts": {
                category: {key: getattr(file.counts[category], key) for key in COUNTS}
                for category in CATEGORIES
            },
            "differences": [d.as_dict() for d in file.differences],
        }
    return Result(
        "sequence",
        name,
        items,
        _rates(model.totals) | {READABLE.name: model.readable},
        inputs=inputs | {"formats": model.formats},
        options=options,
        version=__version__,
        details=details,
        dataset=coverage.facts()
        | {"skipped": [{"path": s.path, "reason": s.reason} for s in model.skipped]},
        native=model.as_dict(),
        computed=model,
        warnings=tuple(model.warnings),
    )


def _counts(
    block: Mapping[str, Any], where: str, r: Reader
) -> tuple[dict[str, float], float, float, dict[str, dict[str, float | int]]]:
    """A file's (or the totals') rates per category, its summed errors and gt count, and its
    counts per category (``gt_count``, ``insertion``, ``deletion``, ``substitution``)."""
    values: dict[str, float] = {}
    counted: dict[str, dict[str, float | int]] = {}
    errors = gt = 0.0
    categories = [c for c in CATEGORIES if c in block] + [
        c
        for c, v in block.items()
        if c not in CATEGORIES and isinstance(v, dict) and "gt_count" in v
    ]
    if not categories:
        raise r.fail(where, f"no category counts; expected keys such as {CATEGORIES[0]!r}")
    for category in categories:
        counts = r.mapping(block[category], f"{where}.{category}")
        for rate in RATES:
            values[f"{category}_{rate}"] = r.number(
                r.key(counts, rate, f"{where}.{category}"), f"{where}.{category}.{rate}"
            )
        counted[category] = {}
        for count in COUNTS:
            raw = r.key(counts, count, f"{where}.{category}")
            number = r.number(raw, f"{where}.{category}.{count}")
            counted[category][count] = raw if isinstance(raw, int) else number
            if count == "gt_count":
                gt += number
            else:
                errors += number
    return values, errors, gt, counted


def _block(block: Mapping[str, Any], r: Reader, prefix: str) -> dict[str, Any]:
    items: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    files = r.array(r.key(block, "files", prefix or "top level"), f"{prefix}files")
    for k, file in enumerate(files):
        where = f"{prefix}files[{k}]"
        file = r.mapping(file, where)
        path = r.string(r.key(file, "path", where), f"{where}.path")
        if path in items:
            raise r.fail(f"{where}.path", f"file {path!r} appears twice")
        values, errors, gt, counts = _counts(file, where, r)
        values["error_rate"] = errors / gt * 100 if gt else 0.0
        if "readable" in file:  # documents written before the coverage rules have none
            values["readable"] = r.number(file["readable"], f"{where}.readable")
        items[path] = values
        details[path] = {}
        if "gt_lines" in file:
            lines = file["gt_lines"]
            number = r.number(lines, f"{where}.gt_lines")
            details[path]["gt_lines"] = lines if isinstance(lines, int) else number
        details[path]["counts"] = counts
        if isinstance(file.get("differences"), list):
            details[path]["differences"] = file["differences"]
    totals, errors, gt, _ = _counts(
        r.mapping(r.key(block, "totals", prefix or "top level"), f"{prefix}totals"),
        f"{prefix}totals",
        r,
    )
    totals["error_rate"] = errors / gt * 100 if gt else 0.0
    if "readable" in block:
        totals["readable"] = r.number(block["readable"], f"{prefix}readable")
    return {"items": items, "totals": totals, "details": details}


def read(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The results of a ``parsescore sequence --out`` document: one, or one per model
    (named ``name:model``) for a multi-model document."""
    if is_block(doc):
        return [Result("sequence", name, path=r.path, **_block(doc, r, ""))]
    return [
        Result("sequence", f"{name}:{model}", path=r.path, **_block(block, r, f"{model}."))
        for model, block in doc.items()
    ]
