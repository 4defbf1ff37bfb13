"""Scoring a dataset: ground-truth files matched with one model's files by relative path.

Paths are matched without their diagram suffix, so ``a.puml`` (truth) pairs with ``a.mmd``
(a Mermaid answer). A file that another script of the same source includes (``!include``) is
part of that script, not scored on its own. A truth file with no prediction counts as
everything deleted (and is reported); a prediction file with no truth is reported and skipped;
a file that cannot be read (or a Mermaid file that is not a sequence diagram) is reported and
the run goes on with the others: an unreadable prediction counts as everything deleted, an
unreadable truth is skipped.

Files are read here, in order; each readable pair is then scored by a pure function through
:mod:`parsescore.core.runner` (local processes, Dask, content-hash cache), so the result does not
depend on how it was run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from parsescore.core.errors import InputError
from parsescore.core.options import options_model
from parsescore.core.runner import item_bytes, run_items
from parsescore.sequence.inputs import ScriptSource
from parsescore.sequence.metrics import (
    CategoryCounts,
    Difference,
    FileScore,
    ModelScore,
    Pairing,
    SkippedFile,
    compare_diagrams,
)
from parsescore.sequence.model import ParsedDiagram
from parsescore.sequence.options import SequenceOptions, recorded
from parsescore.sequence.preprocess import RefusedInclude, collect_includes
from parsescore.sequence.read import FORMATS, SUFFIXES, read_diagram
from parsescore.shared.answers import Answer, unwrap_answer
from parsescore.shared.coverage import Coverage, check_names

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["score_model"]

#: Files a script includes: (root-relative path, text) pairs, read beforehand.
_Includes = tuple[tuple[str, str], ...]
#: One readable pair: truth path and text, prediction path (None if absent) and text,
#: whether the prediction is missing, the notes made while reading, and each side's includes.
_Pair = tuple[str, str, str | None, str, bool, tuple[str, ...], _Includes, _Includes]


_DIFFERENCE_FIELDS = tuple(f.name for f in fields(Difference))
_PAIRING_FIELDS = tuple(f.name for f in fields(Pairing))
_COUNT_FIELDS = tuple(f.name for f in fields(CategoryCounts))


def _file_record(score: FileScore) -> dict[str, Any]:
    """A :class:`FileScore` as plain JSON data (``dataclasses.asdict`` without its deep copy)."""
    return {
        "path": score.path,
        "gt_lines": score.gt_lines,
        "counts": {
            name: {f: getattr(c, f) for f in _COUNT_FIELDS} for name, c in score.counts.items()
        },
        "differences": [{f: getattr(d, f) for f in _DIFFERENCE_FIELDS} for d in score.differences],
        "pairings": [{f: getattr(p, f) for f in _PAIRING_FIELDS} for p in score.pairings],
        "diagnostics": list(score.diagnostics),
        "prediction_missing": score.prediction_missing,
    }


def _file_from_record(record: dict[str, Any]) -> FileScore:
    """Rebuild a :class:`FileScore` from its JSON record (fresh or cached, the same values)."""
    return FileScore(
        path=record["path"],
        gt_lines=record["gt_lines"],
        counts={name: CategoryCounts(**c) for name, c in record["counts"].items()},
        differences=tuple(Difference(**d) for d in record["differences"]),
        pairings=tuple(Pairing(**p) for p in record["pairings"]),
        diagnostics=tuple(record["diagnostics"]),
        prediction_missing=record["prediction_missing"],
    )


def _not_a_diagram(diagram: ParsedDiagram, text: str) -> InputError | None:
    """Why a prediction that was read holds no sequence diagram (None when it holds one): the
    unreadable rule for readers that warn rather than fail (see :func:`score_model`)."""
    if diagram.metric_elements:
        return None
    if not text.strip():
        return InputError("empty answer: no sequence diagram")
    unread = next((e for e in diagram.elements if e.kind == "other"), None)
    if unread is None:
        return InputError("empty diagram: no participant, arrow, note, group or box")
    return InputError(
        "not a sequence diagram: no participant, arrow, note, group or box recognised "
        f"(the first line not read: {unread.raw.strip()[:60]!r})",
        where=f"line {unread.line}",
    )


def _score_pair(
    pair: _Pair,
    *,
    threshold: float,
    ignore_colours: bool = False,
    truth_format: str = "auto",
    pred_format: str = "auto",
) -> dict[str, Any]:
    """Read and compare one file pair (pure and picklable: the runner's scoring function).

    A truth file that cannot be read gives ``{"truth_error": reason}``; a prediction that
    cannot be read, or holds no sequence diagram, is scored as empty (everything deleted) and
    its reason is the record's ``pred_error`` (``[reason, where]``).
    """
    truth_rel, truth_text, pred_rel, pred_text, missing, read_notes, t_inc, p_inc = pair
    notes = list(read_notes)
    try:
        truth_diagram = read_diagram(
            truth_text, format=truth_format, path=truth_rel, includes=dict(t_inc)
        )
    except InputError as exc:
        return {"truth_error": str(exc)}
    empty = read_diagram("", format="plantuml", path=pred_rel or truth_rel)
    pred_diagram = empty
    problem: InputError | None = None
    if not missing:
        try:
            pred_diagram = read_diagram(
                pred_text, format=pred_format, path=pred_rel or truth_rel, includes=dict(p_inc)
            )
            problem = _not_a_diagram(pred_diagram, pred_text)
        except InputError as exc:
            problem = exc
        if problem is not None:
            pred_diagram, missing = empty, True
    notes.extend(f"truth {d}" for d in truth_diagram.diagnostics)
    if not missing:
        notes.extend(f"prediction {d}" for d in pred_diagram.diagnostics)
    record = _file_record(
        compare_diagrams(
            truth_diagram,
            pred_diagram,
            threshold=threshold,
            path=truth_rel,
            diagnostics=notes,
            prediction_missing=missing,
            ignore_colours=ignore_colours,
        )
    )
    record["formats"] = [truth_diagram.format, None if missing else pred_diagram.format]
    record["pred_error"] = None if problem is None else [problem.reason, problem.where]
    return record


def match_key(relative: str) -> str:
    """How a script is matched across sources: its relative path without the diagram suffix.

    >>> match_key("calls/attach.puml") == match_key("calls/attach.mmd")
    True
    """
    lower = relative.lower()
    for suffix in SUFFIXES:
        if lower.endswith(suffix):
            return relative[: -len(suffix)]
    return relative


def _includes(source: ScriptSource, relative: str, text: str) -> _Includes:
    """The local files a PlantUML script includes, read from its source (see preprocess)."""
    if "!include" not in text.lower():
        return ()
    return tuple(sorted(collect_includes(relative, text, source.read_include).items()))


def _include_key(pair: tuple[str, str]) -> str:
    """An included file for the cache key (a refused one differs from a file of that text)."""
    refused = "refused" if isinstance(pair[1], RefusedInclude) else "read"
    return f"{pair[0]}\0{refused}\0{pair[1]}"


def _without(
    slots: list[SkippedFile | _Pair],
    skip_warnings: dict[int, str],
    dropped: set[str],
    advance: Callable[[], None] | None,
) -> tuple[list[SkippedFile | _Pair], dict[int, str]]:
    """The slots without the pairs whose truth path is in ``dropped`` (skips are kept), and the
    skip warnings renumbered to match; ``advance`` is called once per pair dropped."""
    kept: list[SkippedFile | _Pair] = []
    kept_warnings: dict[int, str] = {}
    for index, slot in enumerate(slots):
        if isinstance(slot, SkippedFile) or slot[0] not in dropped:
            if index in skip_warnings:
                kept_warnings[len(kept)] = skip_warnings[index]
            kept.append(slot)
        elif advance:
            advance()
    return kept, kept_warnings


def _repeat(call: Callable[[], None], times: int) -> None:
    for _ in range(times):
        call()


def _reason(error: InputError) -> str:
    """An unreadable answer's reason as ``Result.dataset["unreadable"]`` keeps it: the place
    (``line N``...) and what is wrong, without the file (the item names it)."""
    return f"{error.where}: {error.reason}" if error.where else error.reason


def answer_formats(pred_format: str) -> tuple[str, ...]:
    """The formats a chat answer's fenced block may name (:func:`parsescore.shared.answers.
    unwrap_answer`): the one given, or both for ``auto``."""
    return tuple(fmt.name for fmt in FORMATS) if pred_format == "auto" else (pred_format,)


#: Notes on a file that the coverage warnings already give (not repeated as warnings).
_NO_PREDICTION = "no prediction: everything counted as deleted"
_UNREADABLE = "prediction unreadable ({}): everything counted as deleted"


def score_model(
    truth: ScriptSource,
    pred: ScriptSource,
    options: SequenceOptions | None = None,
    *,
    advance: Callable[[], None] | None = None,
    description: str | None = None,
    console: Console | None = None,
    **given: Any,
) -> ModelScore:
    """Score every ground-truth script of ``truth`` against ``pred`` (truth first).

    ``options``: the kind's options (:class:`~parsescore.sequence.options.SequenceOptions`),
    or its fields as keywords (``threshold=0.3``, ``allow_missing=True``; checked as
    :func:`parsescore.evaluate` checks them). ``truth_format`` / ``pred_format``: ``auto`` (by
    content, then file name), ``plantuml`` or ``mermaid``; ``ignore_colours``: colours never
    count (default: they do, as in the paper).

    Each prediction is a model's answer: :func:`parsescore.shared.answers.unwrap_answer` takes its
    diagram out of a chat answer first (a fenced block, ``@startuml`` … ``@enduml`` in prose,
    without ``<think>`` blocks). A prediction is *unreadable* when its file cannot be read
    (binary, not UTF-8), its reader refuses it (a Mermaid file that is not a
    ``sequenceDiagram``) or it holds no participant, arrow, note, group or box (an empty
    answer, an empty ``@startuml`` … ``@enduml``, prose); it scores as a missing one
    (everything deleted), or stops the run with ``strict``. No prediction matching any truth
    file is an error; a truth file without one scores as everything deleted, or is left out
    with ``allow_missing``. The result's ``coverage`` lists all of them.

    ``jobs``, ``dask_scheduler`` and ``cache`` choose how the pairs are scored (see
    :mod:`parsescore.core.runner`); unless ``quiet``, a bar shows (on ``console``, default
    stderr) when it is a terminal. ``advance`` is called once per ground-truth file.
    """
    if options is None:
        options = options_model(SequenceOptions, "sequence", given)
    elif given:
        raise TypeError(f"score_model: give options or keywords, not both ({', '.join(given)})")
    strict, allow_missing = options.strict, options.allow_missing
    if truth.single_file and pred.single_file:
        pairs: list[tuple[str, str | None]] = [(truth.paths[0], pred.paths[0])]
        orphans: list[str] = []
    else:
        by_key: dict[str, str] = {}
        for rel in pred.paths:
            by_key.setdefault(match_key(rel), rel)
        pairs = [(rel, by_key.get(match_key(rel))) for rel in truth.paths]
        matched = {p for _, p in pairs if p is not None}
        orphans = sorted(set(pred.paths) - matched)
    formats = answer_formats(options.pred_format)
    answers: dict[str, Answer] = {}  # truth path → the answer its prediction was read from
    unreadable_files: dict[str, InputError] = {}  # truth path → why its file was not read
    # Read everything first (in order), keeping unreadable ground truth as a skip.
    slots: list[SkippedFile | _Pair] = []
    skip_warnings: dict[int, str] = {}
    for truth_rel, pred_rel in pairs:
        try:
            truth_text = truth.read(truth_rel)
        except InputError as exc:
            skip_warnings[len(slots)] = f"{truth_rel}: ground truth skipped: {exc}"
            slots.append(SkippedFile(truth_rel, f"ground truth unreadable: {exc}"))
            if advance:
                advance()
            continue
        notes: list[str] = []
        missing = False
        pred_text = ""
        if pred_rel is None:
            missing = True
            notes.append(_NO_PREDICTION)
        else:
            try:
                answer = unwrap_answer(pred.read(pred_rel), formats)
            except InputError as exc:
                if strict:
                    raise
                missing = True
                unreadable_files[truth_rel] = exc
                notes.append(_UNREADABLE.format(exc))
            else:
                answers[truth_rel] = answer
                pred_text = answer.text
        slots.append(
            (
                truth_rel,
                truth_text,
                pred_rel,
                pred_text,
                missing,
                tuple(notes),
                _includes(truth, truth_rel, truth_text),
                () if missing or pred_rel is None else _includes(pred, pred_rel, pred_text),
            )
        )
    # A file another script includes is a part of that script, not a diagram of its own.
    parts = {rel for slot in slots if not isinstance(slot, SkippedFile) for rel, _ in slot[6]}
    pred_parts = {rel for slot in slots if not isinstance(slot, SkippedFile) for rel, _ in slot[7]}
    if parts:
        slots, skip_warnings = _without(slots, skip_warnings, parts, advance)
    orphans = [rel for rel in orphans if rel not in pred_parts]
    readable = [slot for slot in slots if not isinstance(slot, SkippedFile)]
    missing_ids = [slot[0] for slot in readable if slot[2] is None]
    if not (truth.single_file and pred.single_file):
        check_names(
            [match_key(slot[0]) for slot in readable],
            [match_key(rel) for rel in pred.paths if rel not in pred_parts],
            truth=truth.origin or truth.name,
            pred=pred.origin or pred.name,
        )
    if allow_missing and missing_ids:
        slots, skip_warnings = _without(slots, skip_warnings, set(missing_ids), advance)
    to_score = [slot for slot in slots if not isinstance(slot, SkippedFile)]
    scoring = partial(
        _score_pair,
        threshold=options.threshold,
        ignore_colours=options.ignore_colours,
        truth_format=options.truth_format,
        pred_format=options.pred_format,
    )
    run = run_items(
        scoring,
        to_score,
        kind="sequence",
        # the recorded options; the record's shape is part of the key: entries cached before
        # it had ``pred_error`` (the unreadable rule) are not reused
        options=recorded(options) | {"record": 2},
        item_input=lambda p: item_bytes(
            p[0], p[1], p[2], p[3], str(p[4]), *p[5], *(_include_key(pair) for pair in p[6] + p[7])
        ),
        jobs=options.jobs,
        dask_scheduler=options.dask_scheduler,
        cache_dir=options.cache,
        quiet=options.quiet,
        description=description or f"scoring {pred.name}",
        console=console,
        advance=None if advance is None else partial(_repeat, advance),
    )
    scored = iter(run.records)
    files: list[FileScore] = []
    skipped: list[SkippedFile] = []
    warnings: list[str] = []
    formats_read: dict[str, dict[str, int]] = {"truth": {}, "pred": {}}
    unreadable: dict[str, str] = {}
    for index, slot in enumerate(slots):
        if isinstance(slot, SkippedFile):
            skipped.append(slot)
            warnings.append(skip_warnings[index])
            continue
        record = next(scored)
        if "truth_error" in record:
            skipped.append(
                SkippedFile(slot[0], f"ground truth unreadable: {record['truth_error']}")
            )
            warnings.append(f"{slot[0]}: ground truth skipped: {record['truth_error']}")
            continue
        for side, chosen in zip(("truth", "pred"), record["formats"], strict=True):
            if chosen is not None:
                formats_read[side][chosen] = formats_read[side].get(chosen, 0) + 1
        file = _file_from_record(record)
        problem = record.get("pred_error")
        if problem is not None and slot[2] is not None:
            error = InputError(problem[0], path=pred.where(slot[2]), where=problem[1])
            if file.path in answers:
                error = answers[file.path].relocate(error)
            if strict:
                raise error
            unreadable[file.path] = _reason(error)
            file = replace(file, diagnostics=(_UNREADABLE.format(error), *file.diagnostics))
        elif file.path in unreadable_files:
            unreadable[file.path] = _reason(unreadable_files[file.path])
        files.append(file)
        warnings.extend(
            f"{file.path}: {note}"
            for note in file.diagnostics
            if note != _NO_PREDICTION and not note.startswith(_UNREADABLE.split("{")[0])
        )
    for rel in orphans:
        skipped.append(SkippedFile(rel, "prediction without ground truth, skipped"))
        warnings.append(f"{rel}: prediction without ground truth, skipped")
    scored_ids = {file.path for file in files}
    coverage = Coverage(
        len(scored_ids) + (len(missing_ids) if allow_missing else 0),
        missing=[rel for rel in missing_ids if allow_missing or rel in scored_ids],
        unreadable=unreadable,
        fenced={
            rel: answer.fence
            for rel, answer in answers.items()
            if answer.fence is not None and rel in scored_ids
        },
    )
    return ModelScore(
        options.name or pred.name,
        tuple(files),
        tuple(skipped),
        (*coverage.warnings("files", allow_missing=allow_missing), *warnings),
        formats=formats_read,
        coverage=coverage,
    )
