"""Sequence-diagram results: scoring one model's scripts (:func:`evaluate`), its ``--out`` block
and its :class:`~parsescore.core.results.Result`, and reading ``--out`` back (:func:`read`).

One direction: the scored model gives its native ``{"totals", "files"}`` block, and the Result is
read from that block by the code that reads a ``--out`` file (:func:`_block`), with what the
block does not hold (the differences, the inputs, the coverage facts) added after.

Per file the metrics are the insertion, deletion and substitution rates of each of the paper's
categories (``<category>_insertion_rate``, ...) and ``error_rate`` (all errors over all
ground-truth elements × 100); its counts (``Result.counts``) are those rates' numerators and
denominators; its detail is its ground-truth line count, its counts per category and every
counted difference. Totals are the same rates over the summed counts, computed by the core from
the kind's declarations (:data:`parsescore.sequence.kind.RESULT_TOTALS`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from parsescore import __version__
from parsescore.core.aggregate import totals
from parsescore.core.errors import InputError
from parsescore.core.results import Reader, Result
from parsescore.sequence.attributes import line_bin
from parsescore.sequence.kind import CATEGORY_COUNTS, CHANGES, RESULT_TOTALS, file_counts, is_block
from parsescore.sequence.metrics import ModelScore
from parsescore.sequence.model import CATEGORIES
from parsescore.sequence.options import SequenceOptions, recorded
from parsescore.sequence.read import SUFFIXES
from parsescore.shared.scores import safe_ratio

__all__ = ["counts_of", "evaluate", "read", "sources", "to_result"]


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
    options: SequenceOptions,
) -> Result:
    """Score one model's sequence diagrams ``pred`` against the ground truth ``truth``
    (``parsescore.evaluate("sequence", truth, pred, **options)`` checks the options first).

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
    from parsescore.sequence.dataset import score_model

    truth_source, pred_source, inputs = sources(truth, pred, repo=options.repo)
    model = score_model(truth_source, pred_source, options)
    name = options.name or model.name
    return to_result(model, inputs=inputs, options=recorded(options), name=name)


def to_result(
    model: ModelScore, *, inputs: dict[str, Any], options: dict[str, Any], name: str
) -> Result:
    """The model's :class:`Result`, read from its ``--out`` block (kept as ``native``) as
    :func:`read` reads one, with every counted difference, the coverage facts, ``inputs``
    (and which format each side's files were read as: ``formats``) and ``options`` added.
    """
    from parsescore.shared.coverage import Coverage

    coverage = model.coverage or Coverage(
        len(model.files), missing=[f.path for f in model.files if f.prediction_missing]
    )
    native = model.as_dict()
    parts = _block(native, Reader(None), "")
    details = parts["details"]
    for file in model.files:
        details[file.path]["differences"] = [d.as_dict() for d in file.differences]
    return Result(
        "sequence",
        name,
        parts["items"],
        parts["totals"],
        attributes=parts["attributes"],
        inputs=inputs | {"formats": model.formats},
        options=options,
        version=__version__,
        details=details,
        dataset=coverage.facts()
        | {"skipped": [{"path": s.path, "reason": s.reason} for s in model.skipped]},
        counts=parts["counts"],
        native=native,
        computed=model,
        warnings=tuple(model.warnings),
    )


def counts_of(result: Result) -> dict[str, Mapping[str, float]]:
    """Each file's counts: ``result.counts``, or, for an envelope written before files carried
    them, from each file's counts per category in its detail."""
    found: dict[str, Mapping[str, float]] = {}
    for item in result.items:
        counts = result.counts.get(item)
        if counts is None:
            by_category = result.details.get(item, {}).get("counts", {})
            counts = file_counts({c: v for c, v in by_category.items() if isinstance(v, dict)})
        found[item] = counts
    return found


def _categories(
    block: Mapping[str, Any], where: str, r: Reader
) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
    """A file's rates per category (``<category>_<change>_rate``) and its counts per category
    (``gt_count``, ``insertion``, ``deletion``, ``substitution``; integers kept)."""
    values: dict[str, float] = {}
    counted: dict[str, dict[str, Any]] = {}
    categories = [c for c in CATEGORIES if c in block] + [
        c
        for c, v in block.items()
        if c not in CATEGORIES and isinstance(v, dict) and "gt_count" in v
    ]
    if not categories:
        raise r.fail(where, f"no category counts; expected keys such as {CATEGORIES[0]!r}")
    for category in categories:
        counts = r.mapping(block[category], f"{where}.{category}")
        for change in CHANGES:
            rate = f"{change}_rate"
            values[f"{category}_{rate}"] = _number(counts, rate, where, category, r)
        counted[category] = {}
        for count in CATEGORY_COUNTS:
            number = _number(counts, count, where, category, r)
            raw = counts[count]
            counted[category][count] = raw if isinstance(raw, int) else number
    return values, counted


def _number(counts: Mapping[str, Any], key: str, where: str, category: str, r: Reader) -> float:
    """``counts[key]`` as a number (the Reader's checks and messages; the common case of a
    plain finite number without building them: a dataset has a few hundred per file)."""
    value = counts.get(key)
    if type(value) is int or (type(value) is float and math.isfinite(value)):
        return float(value)
    place = f"{where}.{category}"
    return r.number(r.key(counts, key, place), f"{place}.{key}")


def _block(block: Mapping[str, Any], r: Reader, prefix: str) -> dict[str, Any]:
    """The items, counts, details and totals of one model's ``{"totals", "files"}`` block: each
    file's rates as written, its ``error_rate`` and counts from its counts per category, the
    totals from the summed counts (the core's :func:`~parsescore.core.aggregate.totals` of
    :data:`RESULT_TOTALS`) and the block's ``readable``."""
    items: dict[str, dict[str, float]] = {}
    counts: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    attributes: dict[str, dict[str, str]] = {}
    files = r.array(r.key(block, "files", prefix or "top level"), f"{prefix}files")
    for k, file in enumerate(files):
        where = f"{prefix}files[{k}]"
        file = r.mapping(file, where)
        path = r.string(r.key(file, "path", where), f"{where}.path")
        if path in items:
            raise r.fail(f"{where}.path", f"file {path!r} appears twice")
        values, by_category = _categories(file, where, r)
        counts[path] = file_counts(by_category)
        values["error_rate"] = safe_ratio(counts[path]["errors"], counts[path]["elements"]) * 100
        if "readable" in file:  # documents written before the coverage rules have none
            values["readable"] = r.number(file["readable"], f"{where}.readable")
        items[path] = values
        details[path] = {}
        if "gt_lines" in file:
            lines = file["gt_lines"]
            number = r.number(lines, f"{where}.gt_lines")
            details[path]["gt_lines"] = lines if isinstance(lines, int) else number
            if number < 0 or not number.is_integer():
                raise r.fail(f"{where}.gt_lines", f"expected a line count, found {lines!r}")
            attributes[path] = {"lines": line_bin(int(number))}
        details[path]["counts"] = by_category
        if isinstance(file.get("differences"), list):
            details[path]["differences"] = file["differences"]
    _categories(
        r.mapping(r.key(block, "totals", prefix or "top level"), f"{prefix}totals"),
        f"{prefix}totals",
        r,
    )  # checked: a block must have its totals, though they are computed from the files
    given: dict[str, float] = {}
    if "readable" in block:
        given["readable"] = r.number(block["readable"], f"{prefix}readable")
    return {
        "items": items,
        "counts": counts,
        "details": details,
        "attributes": attributes,
        "totals": totals(RESULT_TOTALS, items, counts, given=given),
    }


def read(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The results of a ``parsescore sequence --out`` document: one, or one per model
    (named ``name:model``) for a multi-model document."""
    if is_block(doc):
        return [Result("sequence", name, path=r.path, **_block(doc, r, ""))]
    return [
        Result("sequence", f"{name}:{model}", path=r.path, **_block(block, r, f"{model}."))
        for model, block in doc.items()
    ]
