"""Flowchart results: scoring a dataset (:func:`evaluate`), its ``--out`` document and its
:class:`~parsescore.results.Result`, and reading that document back (:func:`read`).

The ``--out`` document records every number and every match: per diagram the chosen option,
the costs, the flow counts with missing and extra edges, each node pair with both texts and its
cost, each label and additional-text pair. The :class:`Result` is built from the same typed
matches: per diagram the three edit costs and the four flow scores as metrics, the rest of the
record as its detail.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from parsescore import __version__
from parsescore.errors import InputError
from parsescore.flowchart.benchmark import ParsingBenchmark, use_runner
from parsescore.flowchart.formats import format_of
from parsescore.flowchart.load import TRUTH_PARTS, format_truth_paths, is_format_truth
from parsescore.flowchart.models import FlowScores, NodeMatches, TextListMatches
from parsescore.results import Reader, Result
from parsescore.scores import Counts, micro_counts
from parsescore.text import levenshtein, levenshtein_with_text_normalisation

__all__ = ["COSTS", "DISTANCES", "FLOW_SCORES", "evaluate", "read", "to_result"]

#: A diagram's edit costs (lower is better), as metrics and as keys of its record; the last
#: only where truth and prediction carry edge labels (Mermaid, DOT).
COSTS = ("node_text_cost", "label_cost", "additional_text_cost", "edge_label_cost")
#: A diagram's flow scores; metrics ``flow_<name>``.
FLOW_SCORES = ("precision", "recall", "f1", "jaccard")
#: ``--distance``: Flowde's default (normalised text) or raw Levenshtein.
DISTANCES = {"normalised": levenshtein_with_text_normalisation, "raw": levenshtein}

Distance = Literal["normalised", "raw"]


def evaluate(
    truth: str | Path,
    pred: str | Path | Sequence[str | Path],
    *,
    expected_num_diagrams: int | None = None,
    allow_missing: bool = False,
    distance: Distance = "normalised",
    jobs: int = 1,
    dask_scheduler: str | None = None,
    cache: str | Path | None = None,
    quiet: bool = False,
    name: str | None = None,
    pred_format: str = "auto",
    truth_format: str = "auto",
) -> Result:
    """Score prediction folder(s) ``pred`` against the ground-truth folder ``truth``.

    ``truth`` holds ``nodes/ labels/ flow/ additional_texts/``, or one Mermaid/DOT file per
    flowchart (``.mmd .mermaid .dot .gv``); ``pred`` is one folder, or a list of folders of
    separately parsed parts, of ``.json``, Mermaid or DOT files. ``pred_format`` /
    ``truth_format`` override the extension. ``expected_num_diagrams`` defaults to the number
    of flowcharts in ``truth``; ``allow_missing`` scores only the flowcharts that have
    predictions. The numbers are Flowde's ``ParsingBenchmark``'s, plus ``edge_label_cost``
    where both sides carry edge labels.
    """
    truth = Path(truth)
    preds = [Path(pred)] if isinstance(pred, str | Path) else [Path(p) for p in pred]
    if not preds:
        raise InputError("no prediction folder given")
    if distance not in DISTANCES:
        raise InputError(f"distance must be normalised or raw, got {distance!r}")
    if not truth.exists():
        raise InputError("--truth folder does not exist", path=truth)
    if not truth.is_dir():
        raise InputError(
            "--truth should be a directory holding nodes/ labels/ flow/ additional_texts/ "
            "or .mmd/.dot files",
            path=truth,
        )
    options: dict[str, Any] = {
        "distance": distance,
        "allow_missing": allow_missing,
        "expected_num_diagrams": expected_num_diagrams,
    }
    if pred_format != "auto" or truth_format != "auto":
        options |= {"pred_format": pred_format, "truth_format": truth_format}
    if is_format_truth(truth, truth_format):
        if expected_num_diagrams is None:
            expected_num_diagrams = len(format_truth_paths(truth, truth_format))
        options["expected_num_diagrams"] = expected_num_diagrams
        bench = ParsingBenchmark(
            pred_diagrams_dir=preds[0] if len(preds) == 1 else preds,
            distance_fn=DISTANCES[distance],
            allow_missing_pred_diagrams=allow_missing,
            expected_num_diagrams=expected_num_diagrams,
            show_progress=False if quiet else None,
            pred_format=pred_format,
            true_diagrams_dir=truth,
            truth_format=truth_format,
        )
        return _scored(bench, truth, preds, options, jobs, dask_scheduler, cache, quiet, name)
    missing = [part for part in TRUTH_PARTS if not (truth / part).is_dir()]
    if missing:
        raise InputError(
            f"ground-truth folder lacks {', '.join(p + '/' for p in missing)}; expected "
            "nodes/ labels/ flow/ additional_texts/",
            path=truth,
        )
    if expected_num_diagrams is None:
        expected_num_diagrams = len(list((truth / "nodes").glob("*.json")))
    bench = ParsingBenchmark(
        pred_diagrams_dir=preds[0] if len(preds) == 1 else preds,
        distance_fn=DISTANCES[distance],
        allow_missing_pred_diagrams=allow_missing,
        true_nodes_dir=truth / "nodes",
        true_labels_dir=truth / "labels",
        true_flow_dir=truth / "flow",
        true_additional_texts_dir=truth / "additional_texts",
        expected_num_diagrams=expected_num_diagrams,
        show_progress=False if quiet else None,
        pred_format=pred_format,
    )
    options["expected_num_diagrams"] = expected_num_diagrams
    return _scored(bench, truth, preds, options, jobs, dask_scheduler, cache, quiet, name)


def _scored(
    bench: ParsingBenchmark,
    truth: Path,
    preds: list[Path],
    options: dict[str, Any],
    jobs: int,
    dask_scheduler: str | None,
    cache: str | Path | None,
    quiet: bool,
    name: str | None,
) -> Result:
    use_runner(bench, jobs=jobs, dask_scheduler=dask_scheduler, cache_dir=cache, quiet=quiet)
    inputs: dict[str, Any] = {"truth": str(truth), "pred": [str(p) for p in preds]}
    formats = _formats_read(bench, options)
    if formats:
        inputs["formats"] = formats
    return to_result(bench, inputs=inputs, options=options, name=name or preds[0].name)


def _formats_read(bench: ParsingBenchmark, options: dict[str, Any]) -> dict[str, Any]:
    """Which formats were read, file counts per format, when any is not Flowde's JSON (so
    that ``auto`` says what it chose; JSON-only results stay as they were)."""
    counts: dict[str, dict[str, int]] = {"truth": {}, "pred": {}}
    for source in bench.pred_sources.sources:
        for path in source.paths:
            fmt = format_of(path, options.get("pred_format", "auto")) or "json"
            counts["pred"][fmt] = counts["pred"].get(fmt, 0) + 1
    for path in bench.true_paths:
        fmt = format_of(path, options.get("truth_format", "auto")) or "json"
        counts["truth"][fmt] = counts["truth"].get(fmt, 0) + 1
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
    bench: ParsingBenchmark, *, inputs: dict[str, Any], options: dict[str, Any], name: str
) -> Result:
    """The benchmark's :class:`Result`, its ``--out`` document as ``native``.

    Both come from the same matches: a diagram's costs and flow scores are its metrics, its
    option, flow counts, edges and every node, label and additional-text pair its detail.
    """
    caps = bench.capabilities
    node_matches = bench.node_matches()
    edge_costs = bench.edge_label_costs()
    additional = bench.additional_text_matches() if caps.additional_text_matches else None
    diagrams: list[dict[str, Any]] = []
    items: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
    for k, nm in enumerate(node_matches):
        stem = nm.parent_img_code
        costs: dict[str, float] = {"node_text_cost": nm.total_node_text_cost}
        if caps.node_and_label_matches:
            costs["label_cost"] = nm.total_label_error_cost
        if additional is not None:
            costs["additional_text_cost"] = additional[k].total_cost
        if stem in edge_costs:
            costs["edge_label_cost"] = edge_costs[stem]
        detail: dict[str, Any] = {"option": nm.true_diagram_option_idx}
        metrics = {metric: float(value) for metric, value in costs.items()}
        record: dict[str, Any] = {"stem": stem, "option": nm.true_diagram_option_idx, **costs}
        if caps.flow_scores:
            record["flow"] = flow = _flow(nm.flow_score)
            detail["flow"] = {key: v for key, v in flow.items() if key not in FLOW_SCORES}
            # the report draws the diagrams: it needs the edges both sides share too
            true_edges = {(n.node_number, t) for n in nm.true_nodes for t in n.points_to or []}
            detail["matched_edges"] = _edges(true_edges - nm.flow_score.missing_edges)
            metrics |= {f"flow_{metric}": float(flow[metric]) for metric in FLOW_SCORES}
        record["node_matches"] = detail["node_matches"] = _node_records(nm)
        if additional is not None:
            record["additional_text_matches"] = _text_list(additional[k])
            detail["additional_text_matches"] = record["additional_text_matches"]
        diagrams.append(record)
        items[stem] = metrics
        details[stem] = detail

    totals: dict[str, Any] = {
        "diagrams": len(diagrams),
        "node_text_cost": bench.total_node_text_cost(),
    }
    if caps.node_and_label_matches:
        totals["label_cost"] = bench.total_label_cost()
    if caps.additional_text_matches:
        totals["additional_text_cost"] = bench.total_additional_text_cost()
    if edge_costs:
        totals["edge_label_cost"] = sum(edge_costs.values())
    micro: Counts | None = None
    if caps.flow_scores and diagrams:
        totals["avg_flow_jaccard"] = bench.avg_flow_jaccard()
        micro = micro_counts(Counts(s.tp, s.fp, s.fn) for s in bench.all_flow_scores())
        totals["flow_micro"] = micro.as_dict()
    parts = sorted(bench.pred_structure.parts)
    native = {
        "kind": "flowchart",
        "version": __version__,
        "inputs": inputs,
        "options": options,
        "parts": parts,
        "available_methods": list(caps.available_methods),
        "totals": totals,
        "missing_predictions": bench.missing_pred_diagrams,
        "diagrams": diagrams,
    }
    flat = {key: float(value) for key, value in totals.items() if key != "flow_micro"}
    if micro is not None:
        flat |= {f"flow_micro_{metric}": float(getattr(micro, metric)) for metric in FLOW_SCORES}
    return Result(
        "flowchart",
        name,
        items,
        flat,
        inputs=inputs,
        options=options,
        version=__version__,
        details=details,
        dataset={"missing_predictions": bench.missing_pred_diagrams, "parts": parts},
        native=native,
        computed=bench,
    )


def read(doc: Mapping[str, Any], r: Reader, name: str) -> list[Result]:
    """The :class:`Result` of a ``parsescore flowchart --out`` document."""
    items: dict[str, dict[str, float]] = {}
    details: dict[str, dict[str, Any]] = {}
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
        items[stem] = values
        # the drill-down: the diagram's record without its id and the numbers now in `values`
        details[stem] = {
            key: (
                {f: v for f, v in value.items() if f not in FLOW_SCORES} if key == "flow" else value
            )
            for key, value in diagram.items()
            if key not in ("stem", *COSTS)
        }
    totals: dict[str, float] = {}
    raw = r.mapping(doc.get("totals", {}), "key 'totals'")
    for key, value in raw.items():
        if key == "flow_micro" and isinstance(value, dict):
            for metric in FLOW_SCORES:
                number = r.optional_number(value.get(metric), f"totals.flow_micro.{metric}")
                if number is not None:
                    totals[f"flow_micro_{metric}"] = number
        elif isinstance(value, int | float) and not isinstance(value, bool):
            totals[key] = float(value)
    version = doc.get("version")
    return [
        Result(
            "flowchart",
            name,
            items,
            totals,
            r.path,
            inputs=dict(r.mapping(doc.get("inputs", {}), "key 'inputs'")),
            options=dict(r.mapping(doc.get("options", {}), "key 'options'")),
            version=version if isinstance(version, str) else None,
            details=details,
            dataset={k: doc[k] for k in ("missing_predictions", "parts") if k in doc},
        )
    ]
