"""Flowchart results: scoring a dataset (:func:`evaluate`), its ``--out`` document and its
:class:`~parsescore.core.results.Result`, and reading that document back (:func:`read`).

One direction: the matches → the ``--out`` document (:func:`native_document`: per diagram the
chosen option, the costs, the flow counts and scores with missing and extra edges, each node pair
with both texts and its cost, each label and additional-text pair; the totals by their
declarations) → the :class:`Result`, made by reading that document with :func:`read`'s code (per
diagram the costs, flow scores and ``readable`` as metrics, the flow tp/fp/fn as counts, the rest
of the record as its detail), so that a document read back is the result the run had.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from parsescore import __version__
from parsescore.core.aggregate import summed_counts, totals
from parsescore.core.errors import InputError
from parsescore.core.kinds import FromCounts, Metric, Sum
from parsescore.core.options import recorded_options
from parsescore.core.results import Reader, Result
from parsescore.flowchart.attributes import recorded_attributes, truth_attributes
from parsescore.flowchart.benchmark import ParsingBenchmark, use_runner
from parsescore.flowchart.dataset import (
    answers_from_folder,
    answers_from_texts,
    check_answers,
    check_mermaid_syntax,
    check_same_stems,
)
from parsescore.flowchart.edges import EdgeLabels, edge_label_records
from parsescore.flowchart.kind import TOTALS
from parsescore.flowchart.load import (
    TRUTH_PARTS,
    check_truth_files,
    format_truth_from_texts,
    format_truth_paths,
    is_format_truth,
    load_format_truth,
    load_true_diagram_options,
)
from parsescore.flowchart.models import DiagramOptions, FlowScores, NodeMatches, TextListMatches
from parsescore.flowchart.options import FlowchartOptions, recorded
from parsescore.shared.coverage import READABLE, Coverage, check_names
from parsescore.shared.distance import levenshtein, levenshtein_with_text_normalisation

__all__ = ["evaluate", "read", "to_result"]

#: A diagram's edit costs (lower is better), as metrics and as keys of its record; the last
#: only where truth and prediction carry edge labels (Mermaid, DOT).
COSTS = ("node_text_cost", "label_cost", "additional_text_cost", "edge_label_cost")
#: A diagram's flow scores; metrics ``flow_<name>``.
FLOW_SCORES = ("precision", "recall", "f1", "jaccard")
#: A diagram's flow counts (``Result.counts``), from which the micro flow scores are built.
FLOW_COUNTS = ("tp", "fp", "fn")
#: ``--distance``: Flowde's default (normalised text) or raw Levenshtein.
DISTANCES = {"normalised": levenshtein_with_text_normalisation, "raw": levenshtein}


def evaluate(
    truth: str | Path | Mapping[str, str],
    pred: str | Path | Sequence[str | Path] | Mapping[str, str],
    options: FlowchartOptions,
) -> Result:
    """Score the answers ``pred`` against the ground truth ``truth`` with ``options``
    (:class:`~parsescore.flowchart.options.FlowchartOptions`, checked by
    :func:`parsescore.evaluate`, which takes them as keywords).

    ``truth`` is a folder holding ``nodes/ labels/ flow/ additional_texts/``, or one Mermaid/DOT
    file per flowchart (``.mmd .mermaid .dot .gv``), or ``{id: Mermaid or DOT text}``; ``pred``
    is a folder of ``.json``, Mermaid or DOT answers, a list of folders of separately parsed
    parts, or ``{id: answer text}``. ``pred_format`` / ``truth_format`` override the extension
    (texts: the format by content). Answers are chat answers: a fenced block or a ``<think>``
    block around the content is unwrapped (:mod:`parsescore.shared.answers`).

    An answer that cannot be read (a syntax error, Flowde's per-file rules broken) scores as an
    empty prediction — every true node unmatched — and is listed in
    ``Result.dataset["unreadable"]``; ``strict`` stops at the first instead. A flowchart without
    an answer scores the same and is listed in ``dataset["missing"]``; ``allow_missing`` leaves
    it out instead (Flowde's ``allow_missing_pred_diagrams``). ``check_syntax`` also gives the
    Mermaid answers to Mermaid's own parser (node and the npm package in ``mermaid_dir`` or
    ``$PARSESCORE_MERMAID_DIR``; see :mod:`parsescore.shared.mermaidjs`). ``expected_num_diagrams``
    defaults to the number of flowcharts in ``truth``. The numbers are Flowde's
    ``ParsingBenchmark``'s, plus ``edge_label_cost`` where both sides carry edge labels and
    ``readable`` (1.0 or 0.0) per flowchart.
    """
    pred_format = options.pred_format
    preds = _pred_inputs(pred)
    truth_read = _read_truth(truth, options.truth_format, options.expected_num_diagrams, preds)
    if isinstance(pred, Mapping):
        sources = [answers_from_texts(pred, pred_format)]
        names = ["the answers"]
    else:
        paths = [Path(p) for p in preds]
        if len({p.resolve() for p in paths}) != len(paths):
            raise InputError(
                f"each prediction directory may be given only once; found {[str(p) for p in paths]}"
            )
        sources = [answers_from_folder(p, pred_format) for p in paths]
        names = [str(p) for p in paths]
    check_same_stems(sources, names)

    truth_stems = list(truth_read.stems)
    answer_stems = [read.stem for read in sources[0]]
    missing = check_names(
        truth_stems,
        answer_stems,
        truth="the truth texts" if isinstance(truth, Mapping) else str(truth),
        pred=", ".join(names),
        swapped=lambda: _looks_like_truth(preds),
    )
    warnings: list[str] = []
    extra = sorted(set(answer_stems) - set(truth_stems))
    if extra:
        warnings.append(
            f"{len(extra)} answers match no ground-truth flowchart (not scored): "
            + ", ".join(extra[:5])
            + (f", ... and {len(extra) - 5} more" if len(extra) > 5 else "")
        )
    known = set(truth_stems)
    sources = [[read for read in answers if read.stem in known] for answers in sources]
    if options.check_syntax:
        unavailable = check_mermaid_syntax(
            [r for answers in sources for r in answers], options.mermaid_dir
        )
        if unavailable:
            warnings.append(unavailable)
    read = check_answers(sources, names)
    if options.strict and read.unreadable:
        first = read.unreadable[min(read.unreadable)]
        assert first.error is not None
        raise first.error

    empty = sorted(set(read.unreadable) | (set() if options.allow_missing else set(missing)))
    labelled = {"mermaid", "dot"}
    pred_edge_labels = {
        r.stem: r.edge_labels
        for answers in sources
        for r in answers
        if r.edge_labels is not None and r.stem in read.diagrams
    }
    any_labelled = any(r.fmt in labelled for answers in sources for r in answers)
    for stem in empty:  # an empty prediction written in Mermaid/DOT carries no edge label
        answer = read.unreadable.get(stem)
        if (answer.fmt in labelled) if answer is not None else any_labelled:
            pred_edge_labels[stem] = {}
    bench = ParsingBenchmark.from_loaded(
        truth_read.options,
        list(read.diagrams.values()),
        read.structure,
        empty=empty,
        distance_fn=DISTANCES[options.distance],
        true_edge_labels=truth_read.edge_labels,
        pred_edge_labels=pred_edge_labels,
        true_paths=truth_read.paths,
        show_progress=False if options.quiet else None,
    )
    use_runner(
        bench,
        jobs=options.jobs,
        dask_scheduler=options.dask_scheduler,
        cache_dir=options.cache,
        quiet=options.quiet,
        key=recorded_options(options),
    )
    coverage = Coverage(
        len(truth_stems),
        missing,
        {stem: answer.reason for stem, answer in sorted(read.unreadable.items())},
        {
            r.stem: r.answer.fence
            for r in sources[0]
            if r.answer.fence is not None and r.stem in known
        },
    )
    inputs: dict[str, Any] = {
        "truth": _described(truth),
        "pred": [_described(pred)] if isinstance(pred, Mapping) else names,
    }
    formats = _formats_read(truth_read.formats, [r.fmt for answers in sources for r in answers])
    if formats:
        inputs["formats"] = formats
    default_name = "answers" if isinstance(pred, Mapping) else Path(preds[0]).name
    return to_result(
        bench,
        inputs=inputs,
        options=recorded(options, len(truth_read.stems)),
        name=options.name or default_name,
        coverage=coverage,
        warnings=warnings,
    )


@dataclass(frozen=True)
class _Truth:
    """Every ground-truth flowchart, read and checked."""

    stems: tuple[str, ...]
    options: tuple[DiagramOptions, ...]
    edge_labels: dict[str, EdgeLabels]
    paths: tuple[Path, ...]
    formats: tuple[str, ...]


def _pred_inputs(pred: Any) -> list[str | Path]:
    if isinstance(pred, Mapping):
        return []
    preds = [pred] if isinstance(pred, str | Path) else list(pred)
    if not preds:
        raise InputError("no prediction folder given")
    return preds


def _read_truth(
    truth: str | Path | Mapping[str, str],
    fmt: str,
    expected_num_diagrams: int | None,
    preds: Sequence[str | Path],
) -> _Truth:
    """The ground truth, all of it checked (flowcharts without an answer too)."""
    if isinstance(truth, Mapping):
        found = format_truth_from_texts(truth, fmt, expected_num_diagrams=expected_num_diagrams)
        return _Truth(found.stems, found.options, found.edge_labels, found.paths, found.formats)
    truth = Path(truth)
    if not truth.exists():
        raise InputError("--truth folder does not exist", path=truth)
    if not truth.is_dir():
        raise InputError(
            "--truth should be a directory holding nodes/ labels/ flow/ additional_texts/ "
            "or .mmd/.dot files",
            path=truth,
        )
    if is_format_truth(truth, fmt):
        if expected_num_diagrams is None:
            expected_num_diagrams = len(format_truth_paths(truth, fmt))
        found = load_format_truth(
            truth,
            fmt,
            expected_num_diagrams=expected_num_diagrams,
            pred_stems=(),
            allow_missing_pred_diagrams=True,
        )
        return _Truth(found.stems, found.options, found.edge_labels, found.paths, found.formats)
    missing = [part for part in TRUTH_PARTS if not (truth / part).is_dir()]
    if missing:
        swap = "; did you swap --truth and --pred?" if _looks_like_truth(preds) else ""
        raise InputError(
            f"ground-truth folder lacks {', '.join(p + '/' for p in missing)}; expected "
            f"nodes/ labels/ flow/ additional_texts/{swap}",
            path=truth,
        )
    if expected_num_diagrams is None:
        expected_num_diagrams = len(list((truth / "nodes").glob("*.json")))
    files = check_truth_files(
        true_nodes_dir=truth / "nodes",
        true_labels_dir=truth / "labels",
        true_flow_dir=truth / "flow",
        true_additional_texts_dir=truth / "additional_texts",
        pred_stems=(),
        expected_num_diagrams=expected_num_diagrams,
        allow_missing_pred_diagrams=True,
    )
    options = load_true_diagram_options(files)
    paths = files.paths["nodes"]
    return _Truth(files.stems, tuple(options), {}, paths, ("json",) * len(paths))


def _looks_like_truth(preds: Sequence[str | Path]) -> bool:
    """Whether the answers' folder is a Flowde ground truth (the four part folders)."""
    return len(preds) == 1 and all((Path(preds[0]) / part).is_dir() for part in TRUTH_PARTS)


def _described(texts: Any) -> str:
    """How a folder, or texts given in memory, are named in ``inputs``."""
    return f"({len(texts)} texts)" if isinstance(texts, Mapping) else str(texts)


def _formats_read(truth: Sequence[str], answers: Sequence[str | None]) -> dict[str, Any]:
    """Which formats were read, file counts per format, when any is not Flowde's JSON (so
    that ``auto`` says what it chose; JSON-only results stay as they were)."""
    counts: dict[str, dict[str, int]] = {"truth": {}, "pred": {}}
    for side, found in (("truth", truth), ("pred", answers)):
        for fmt in found:
            key = fmt or "unknown"
            counts[side][key] = counts[side].get(key, 0) + 1
    if set(counts["truth"]) | set(counts["pred"]) <= {"json"}:
        return {}
    return counts


def _edges(edges: set[tuple[int, int]]) -> list[list[int]]:
    return [list(e) for e in sorted(edges)]


def _text_list(matches: TextListMatches) -> list[dict[str, Any]]:
    return [
        {
            "match_type": m.match_type,
            "true_index": m.true_index,
            "pred_index": m.pred_index,
            "true_text": m.true_text,
            "pred_text": m.pred_text,
            "cost": m.cost,
        }
        for m in matches.matches
    ]


def _node_records(nm: NodeMatches) -> list[dict[str, Any]]:
    records = []
    for m in nm.matches:
        record: dict[str, Any] = {
            "match_type": m.match_type,
            "true_node": m.true_node.node_number if m.true_node else None,
            "pred_node": m.pred_node.node_number if m.pred_node else None,
            "true_text": m.true_node.text if m.true_node else None,
            "pred_text": m.pred_node.text if m.pred_node else None,
            "node_text_cost": float(m.node_text_cost),
        }
        if m.label_matches is not None:
            record["label_cost"] = m.label_matches.total_cost
            record["label_matches"] = _text_list(m.label_matches)
        records.append(record)
    return records


def _flow(score: FlowScores) -> dict[str, Any]:
    return {
        "tp": score.tp,
        "fp": score.fp,
        "fn": score.fn,
        **{name: getattr(score, name) for name in FLOW_SCORES},
        "missing_edges": _edges(score.missing_edges),
        "extra_edges": _edges(score.extra_edges),
    }


def to_result(
    bench: ParsingBenchmark,
    *,
    inputs: dict[str, Any],
    options: dict[str, Any],
    name: str,
    coverage: Coverage | None = None,
    warnings: Sequence[str] = (),
) -> Result:
    """The benchmark's :class:`Result`: its ``--out`` document (:func:`native_document`), read
    back by the code of :func:`read`, with what that document has no place for (the edges
    truth and prediction share, the labels on edges, ``warnings`` beyond the missing and
    unreadable answers, the benchmark itself)."""
    doc, drawn = native_document(bench, inputs=inputs, options=options, coverage=coverage)
    result = _result(doc, Reader(None), name, drawn=drawn)
    truth = truth_attributes(bench.true_diagrams_options_list)
    return replace(
        result,
        native=doc,
        computed=bench,
        warnings=(*result.warnings, *warnings),
        attributes={item: truth[item] for item in result.items if item in truth},
    )


def native_document(
    bench: ParsingBenchmark,
    *,
    inputs: dict[str, Any],
    options: dict[str, Any],
    coverage: Coverage | None = None,
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The ``--out`` document of a scored benchmark, and per diagram what the report draws
    that Flowde's document has no place for: ``matched_edges``, the edges truth and prediction
    share (in ground-truth node numbers), and ``edge_labels`` where a side was read from a
    format that carries them (:func:`parsescore.flowchart.edges.edge_label_records`).

    Per diagram: the chosen option, the costs, the flow counts and scores with missing and
    extra edges, every node, label and additional-text pair. The totals are built from the
    diagrams' values and flow counts by their declarations (:data:`TOTALS`,
    :func:`parsescore.core.aggregate.totals`). ``coverage`` (parsescore's dataset path) adds
    ``readable`` per diagram and in the totals, and the answers that were missing, unreadable or
    fenced.
    """
    caps = bench.capabilities
    node_matches = bench.node_matches()
    edge_costs = bench.edge_label_costs()
    additional = bench.additional_text_matches() if caps.additional_text_matches else None
    diagrams: list[dict[str, Any]] = []
    drawn: dict[str, dict[str, Any]] = {}
    for k, nm in enumerate(node_matches):
        stem = nm.parent_img_code
        record: dict[str, Any] = {
            "stem": stem,
            "option": nm.true_diagram_option_idx,
            "node_text_cost": nm.total_node_text_cost,
        }
        if caps.node_and_label_matches:
            record["label_cost"] = nm.total_label_error_cost
        if additional is not None:
            record["additional_text_cost"] = additional[k].total_cost
        if stem in edge_costs:
            record["edge_label_cost"] = edge_costs[stem]
        if coverage is not None:
            record["readable"] = stem not in coverage.unreadable and stem not in coverage.missing
        if caps.flow_scores:
            record["flow"] = _flow(nm.flow_score)
            true_edges = {(n.node_number, t) for n in nm.true_nodes for t in n.points_to or []}
            drawn.setdefault(stem, {})["matched_edges"] = _edges(
                true_edges - nm.flow_score.missing_edges
            )
        true_labels, pred_labels = (
            bench.true_edge_labels.get(stem),
            bench.pred_edge_labels.get(stem),
        )
        if true_labels is not None or pred_labels is not None:
            drawn.setdefault(stem, {})["edge_labels"] = edge_label_records(
                nm, true_labels, pred_labels, bench.distance_fn
            )
        record["node_matches"] = _node_records(nm)
        if additional is not None:
            record["additional_text_matches"] = _text_list(additional[k])
        diagrams.append(record)

    parts = sorted(bench.pred_structure.parts)
    missing = bench.missing_pred_diagrams if coverage is None else list(coverage.missing)
    doc = {
        "kind": "flowchart",
        "version": __version__,
        "inputs": inputs,
        "options": options,
        "parts": parts,
        "available_methods": list(caps.available_methods),
        "totals": _native_totals(diagrams, None if coverage is None else coverage.readable),
        "missing_predictions": missing,
        **(
            {}
            if coverage is None
            else {"unreadable": dict(coverage.unreadable), "fenced": dict(coverage.fenced)}
        ),
        "diagrams": diagrams,
    }
    return doc, drawn


def _native_totals(diagrams: Sequence[Mapping[str, Any]], readable: float | None) -> dict[str, Any]:
    """The ``totals`` of the ``--out`` document, by the declarations: from the diagrams' own
    values (a cost keeps its type, as Flowde's ``total_*_cost`` sums keep theirs) and flow counts;
    the flow counts summed beside their micro scores."""
    values = {d["stem"]: _values(d) for d in diagrams}
    counts = {d["stem"]: _counts(d) for d in diagrams if "flow" in d}
    found = totals(_measured(values, counts), values, counts, given=_given(readable))
    doc: dict[str, Any] = {"diagrams": int(found["diagrams"])}
    doc |= {cost: found[cost] for cost in COSTS if cost in found}
    if "avg_flow_jaccard" in found:
        doc["avg_flow_jaccard"] = found["avg_flow_jaccard"]
        summed = summed_counts(counts, FLOW_COUNTS, list(counts))
        doc["flow_micro"] = {
            name: int(value) for name, value in zip(FLOW_COUNTS, summed, strict=True)
        }
        doc["flow_micro"] |= {score: found[f"flow_micro_{score}"] for score in FLOW_SCORES}
    if READABLE.name in found:
        doc[READABLE.name] = found[READABLE.name]
    return doc


def _values(diagram: Mapping[str, Any]) -> dict[str, Any]:
    """A diagram record's metrics, as written (a cost may be an integer)."""
    values = {cost: diagram[cost] for cost in COSTS if cost in diagram}
    if "flow" in diagram:
        values |= {f"flow_{score}": diagram["flow"][score] for score in FLOW_SCORES}
    return values


def _counts(diagram: Mapping[str, Any]) -> dict[str, float]:
    return {name: diagram["flow"][name] for name in FLOW_COUNTS}


def _given(readable: float | None) -> dict[str, float]:
    return {} if readable is None else {READABLE.name: readable}


def _measured(items: Mapping[str, Mapping[str, Any]], counts: Mapping[str, Any]) -> list[Metric]:
    """The totals the diagrams measure: a cost's sum only where a diagram has that cost (no
    label cost without predicted labels, no edge label cost for JSON), the micro flow scores
    only where diagrams have flow counts (predictions with ``points_to``)."""
    have = {name for values in items.values() for name in values}
    found = []
    for metric in TOTALS:
        rule = metric.aggregate
        if isinstance(rule, Sum) and (rule.of or metric.name) not in have:
            continue
        if isinstance(rule, FromCounts) and not counts:
            continue
        found.append(metric)
    return found


def read(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The :class:`Result` of a ``parsescore flowchart --out`` document."""
    return [_result(doc, r, name)]


def _result(
    doc: Mapping[str, Any],
    r: Reader,
    name: str,
    *,
    drawn: Mapping[str, Mapping[str, Any]] | None = None,
) -> Result:
    """The :class:`Result` an ``--out`` document holds: per diagram its costs, flow scores and
    ``readable`` as metrics, its flow tp/fp/fn as counts, the rest of its record (with what
    ``drawn`` has for it: matched edges, edge labels) as its detail; the totals computed from
    those by their declarations (``readable``, a dataset number, as the document gives it)."""
    items: dict[str, dict[str, float]] = {}
    counts: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    attributes: dict[str, dict[str, str]] = {}
    for k, diagram in enumerate(r.array(r.key(doc, "diagrams", "top level"), "key 'diagrams'")):
        where = f"diagrams[{k}]"
        diagram = r.mapping(diagram, where)
        stem = r.string(r.key(diagram, "stem", where), f"{where}.stem")
        if stem in items:
            raise r.fail(f"{where}.stem", f"diagram {stem!r} appears twice")
        values: dict[str, float] = {}
        for metric in COSTS:
            if metric in diagram:
                value = r.optional_number(diagram[metric], f"{where}.{metric}")
                if value is not None:
                    values[metric] = value
        if "flow" in diagram:
            flow = r.mapping(diagram["flow"], f"{where}.flow")
            for metric in FLOW_SCORES:
                value = r.optional_number(
                    r.key(flow, metric, f"{where}.flow"), f"{where}.flow.{metric}"
                )
                if value is not None:
                    values[f"flow_{metric}"] = value
            counts[stem] = {
                count: _count(r, r.key(flow, count, f"{where}.flow"), f"{where}.flow.{count}")
                for count in FLOW_COUNTS
            }
        if "readable" in diagram:
            readable = diagram["readable"]
            if not isinstance(readable, bool):
                raise r.fail(f"{where}.readable", "should be true or false")
            values[READABLE.name] = 1.0 if readable else 0.0
        items[stem] = values
        recorded = recorded_attributes(diagram)
        if recorded:
            attributes[stem] = recorded
        details[stem] = _detail(diagram, (drawn or {}).get(stem, {}))
    raw = r.mapping(doc.get("totals", {}), "key 'totals'")
    readable = r.optional_number(raw.get(READABLE.name), f"totals.{READABLE.name}")
    found = totals(_measured(items, counts), items, counts, given=_given(readable))
    # in the order of the document's totals, the micro flow scores last (as results always had)
    order = [key for key in raw if key != "flow_micro"]
    order += [f"flow_micro_{score}" for score in FLOW_SCORES]
    version = doc.get("version")
    return Result(
        "flowchart",
        name,
        items,
        {key: found[key] for key in sorted(found, key=lambda key: _position(order, key))},
        r.path,
        inputs=dict(r.mapping(doc.get("inputs", {}), "key 'inputs'")),
        options=dict(r.mapping(doc.get("options", {}), "key 'options'")),
        version=version if isinstance(version, str) else None,
        details=details,
        dataset=_dataset_facts(doc),
        counts=counts,
        attributes=attributes,
        warnings=_coverage_warnings(doc),
    )


def _position(order: Sequence[str], key: str) -> int:
    return order.index(key) if key in order else len(order)


def _count(r: Reader, value: Any, where: str) -> int:
    """A flow count: a whole number, 0 or more (an integer, as the envelope keeps it)."""
    number = r.number(value, where)
    if number < 0 or not number.is_integer():
        raise r.fail(where, f"expected a count (a whole number, 0 or more), found {value!r}")
    return int(number)


def _detail(diagram: Mapping[str, Any], drawn: Mapping[str, Any]) -> dict[str, Any]:
    """A diagram's drill-down: its record without its id and the numbers now in its metrics;
    ``drawn`` (matched edges, edge labels: envelope only) after its flow."""
    detail: dict[str, Any] = {}
    for key, value in diagram.items():
        if key in ("stem", "readable", *COSTS):
            continue
        if key == "flow":
            detail["flow"] = {f: v for f, v in value.items() if f not in FLOW_SCORES}
            detail |= drawn
        else:
            detail[key] = value
    return detail | dict(drawn)


def _coverage_warnings(doc: Mapping[str, Any]) -> tuple[str, ...]:
    """The warnings about missing and unreadable answers, from what a document of the dataset
    path records (its ``unreadable``, ``missing_predictions`` and options)."""
    options = doc.get("options")
    if "unreadable" not in doc or not isinstance(options, Mapping):
        return ()
    truth, facts = options.get("expected_num_diagrams"), _dataset_facts(doc)
    if not isinstance(truth, int) or not isinstance(facts.get("unreadable"), Mapping):
        return ()
    if not isinstance(facts.get("missing", []), list):
        return ()
    coverage = Coverage.from_facts(truth, facts)
    return tuple(coverage.warnings("diagrams", allow_missing=options.get("allow_missing") is True))


def _dataset_facts(doc: Mapping[str, Any]) -> dict[str, Any]:
    """``Result.dataset`` of an ``--out`` document: its ``missing_predictions`` as ``missing``
    (the key every kind's results use), the unreadable and fenced answers, the parts."""
    facts: dict[str, Any] = {}
    if "missing_predictions" in doc:
        facts["missing"] = doc["missing_predictions"]
    for key in ("unreadable", "fenced", "parts"):
        if key in doc:
            facts[key] = doc[key]
    return facts
