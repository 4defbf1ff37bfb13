"""``ParsingBenchmark``: Flowde's parsing benchmark, computed once and reused by every method."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from parsescore.core.runner import item_bytes, run_items
from parsescore.flowchart.edges import EdgeLabels, edge_label_cost
from parsescore.flowchart.load import (
    PredDiagramSources,
    check_truth_files,
    load_format_truth,
    load_pred_diagrams,
    load_true_diagram_options,
    validate_pred_diagram_sources,
)
from parsescore.flowchart.match import match_additional_texts, match_node_labels, match_nodes
from parsescore.flowchart.models import (
    Diagram,
    DiagramMatch,
    DiagramOptions,
    FlowScores,
    NodeMatches,
    ParsingBenchmarkCapabilities,
    PredDiagramStructure,
    TextListMatches,
)
from parsescore.shared.distance import DistanceFnProtocol, levenshtein_with_text_normalisation
from parsescore.shared.scores import macro_mean

__all__ = ["ParsingBenchmark", "use_runner"]

N_DIAGRAMS_IN_BENCHMARK = 346
"""Flowde's default ``expected_num_diagrams`` (its research dataset's size)."""


@dataclass
class _DiagramResult:
    node_matches: NodeMatches
    additional_text_matches: TextListMatches | None


def _match_one(
    pair: tuple[DiagramOptions, Diagram],
    *,
    distance_fn: DistanceFnProtocol,
    labels: bool,
    additional_texts: bool,
    flow: bool = True,
) -> _DiagramResult:
    """Match one flowchart: nodes, then labels and additional texts if predicted.

    An empty prediction (a missing or unreadable answer, :meth:`ParsingBenchmark.from_loaded`)
    is matched as predicting the parts the others do.
    """
    options, pred = pair
    parts = None
    if not pred.nodes:
        parts = PredDiagramStructure(
            node_text=True, labels=labels, flow=flow, additional_texts=additional_texts
        )
    node_matches = match_nodes(options, pred, distance_fn, parts=parts)
    if labels:
        match_node_labels(node_matches, distance_fn)
    additional = None
    if additional_texts:
        chosen = options.options[node_matches.true_diagram_option_idx]
        additional = match_additional_texts(chosen, pred, distance_fn)
    return _DiagramResult(node_matches, additional)


def _match_record(
    pair: tuple[DiagramOptions, Diagram],
    *,
    distance_fn: DistanceFnProtocol,
    labels: bool,
    additional_texts: bool,
    flow: bool = True,
) -> dict[str, Any]:
    """:func:`_match_one` as a JSON record (the runner's pure, picklable scoring function)."""
    result = _match_one(
        pair, distance_fn=distance_fn, labels=labels, additional_texts=additional_texts, flow=flow
    )
    additional = result.additional_text_matches
    return {
        "node_matches": result.node_matches.model_dump(mode="json"),
        "additional_text_matches": None
        if additional is None
        else additional.model_dump(mode="json"),
    }


def _result_from_record(record: dict[str, Any]) -> _DiagramResult:
    additional = record["additional_text_matches"]
    return _DiagramResult(
        NodeMatches.model_validate_json(json.dumps(record["node_matches"])),
        None if additional is None else TextListMatches.model_validate_json(json.dumps(additional)),
    )


def _pair_bytes(pair: tuple[DiagramOptions, Diagram]) -> bytes:
    return item_bytes(pair[0].model_dump_json(), pair[1].model_dump_json())


def _match_with_runner(
    bench: ParsingBenchmark,
    pairs: list[tuple[DiagramOptions, Diagram]],
    parts: dict[str, bool],
    scale: dict[str, Any],
) -> list[_DiagramResult]:
    distance = bench.distance_fn
    scale = dict(scale)
    key = scale.pop("key")
    if key is None:
        name = getattr(distance, "__qualname__", distance)
        key = {"distance_fn": f"{distance.__module__}.{name}"}
    run = run_items(
        partial(
            _match_record,
            distance_fn=distance,
            labels=parts["labels"],
            additional_texts=parts["additional_texts"],
            flow=parts["flow"],
        ),
        pairs,
        kind="flowchart",
        options={**key, **parts},
        item_input=_pair_bytes,
        description="Matching flowcharts",
        **scale,
    )
    return [_result_from_record(record) for record in run.records]


def use_runner(
    bench: ParsingBenchmark,
    *,
    jobs: int = 1,
    dask_scheduler: str | None = None,
    cache_dir: str | Path | None = None,
    quiet: bool | None = None,
    key: Mapping[str, Any] | None = None,
) -> None:
    """Match ``bench``'s flowcharts through :mod:`parsescore.core.runner` (processes, Dask, cache).

    For the CLI: ``ParsingBenchmark``'s own API stays Flowde's. The matches (and so every
    number) are the same as without the runner; the distance function must be picklable.
    ``quiet`` (default: not ``bench.show_progress``) silences the bar and the cache summary.
    ``key``: the options that change the numbers, for the cache key (``parsescore flowchart``:
    its recorded options; default: the distance function's name); the parts predicted are added.
    """
    bench._scale = {
        "jobs": jobs,
        "dask_scheduler": dask_scheduler,
        "cache_dir": cache_dir,
        "quiet": not bench.show_progress if quiet is None else quiet,
        "key": None if key is None else dict(key),
    }
    bench._results = None


class ParsingBenchmark:
    """Evaluate parsed flowcharts against accepted ground-truth interpretations.

    Construction loads and validates every file (``TypeError`` for wrong types, ``ValueError``
    for wrong structure or values, each naming the file). The matching of every flowchart is
    computed once, on first use, and every method derives its numbers from it.

    Beyond Flowde's parameters, keyword-only: ``show_progress`` (default: when stderr is a
    terminal); ``pred_format`` (``auto``: by extension, or ``json``, ``mermaid``, ``dot``);
    ``true_diagrams_dir``, a folder of single-option Mermaid/DOT truths used instead of the
    four part folders, and its ``truth_format``.

    On the bundled example (the seed's ``example_0`` and four CONSORT flowcharts):

    >>> from importlib.resources import files
    >>> data = Path(str(files("parsescore") / "data" / "flowchart"))
    >>> truth = data / "ground-truth"
    >>> bench = ParsingBenchmark(
    ...     pred_diagrams_dir=data / "predictions",
    ...     true_nodes_dir=truth / "nodes",
    ...     true_labels_dir=truth / "labels",
    ...     true_flow_dir=truth / "flow",
    ...     true_additional_texts_dir=truth / "additional_texts",
    ...     expected_num_diagrams=5,
    ...     show_progress=False,
    ... )
    >>> bench.total_node_text_cost(), bench.total_label_cost()
    (48.0, 115.0)
    >>> score = bench.all_flow_scores()[-1]  # example_0
    >>> score.tp, score.fp, score.fn, score.missing_edges, score.extra_edges
    (1, 1, 1, {(2, 3)}, {(1, 3)})
    """

    def __init__(
        self,
        pred_diagrams_dir: Path | Sequence[Path],
        distance_fn: DistanceFnProtocol = levenshtein_with_text_normalisation,
        allow_missing_pred_diagrams: bool = False,
        true_nodes_dir: Path = Path("ground-truth/nodes"),
        true_labels_dir: Path = Path("ground-truth/labels"),
        true_additional_texts_dir: Path = Path("ground-truth/additional_texts"),
        true_flow_dir: Path = Path("ground-truth/flow"),
        expected_num_diagrams: int = N_DIAGRAMS_IN_BENCHMARK,
        *,
        show_progress: bool | None = None,
        pred_format: str = "auto",
        true_diagrams_dir: Path | None = None,
        truth_format: str = "auto",
    ) -> None:
        if not callable(distance_fn):
            raise TypeError(f"distance_fn must be callable, got {type(distance_fn).__name__}")
        self.pred_sources = validate_pred_diagram_sources(pred_diagrams_dir, pred_format)
        pred_stems = [p.stem for p in self.pred_sources.node_text_source.paths]
        #: Edge labels per flowchart, where its file's format carries them (Mermaid, DOT).
        self.pred_edge_labels: dict[str, EdgeLabels] = {
            path.stem: labels
            for path, labels in zip(
                self.pred_sources.node_text_source.paths,
                self.pred_sources.node_text_source.edge_labels,
                strict=True,
            )
            if labels is not None
        }
        self.true_edge_labels: dict[str, EdgeLabels] = {}
        if true_diagrams_dir is not None:
            format_truth = load_format_truth(
                Path(true_diagrams_dir),
                truth_format,
                pred_stems=pred_stems,
                expected_num_diagrams=expected_num_diagrams,
                allow_missing_pred_diagrams=allow_missing_pred_diagrams,
            )
            self.true_edge_labels = format_truth.edge_labels
            self.true_paths: tuple[Path, ...] = format_truth.paths
            self._finish_init(
                format_truth.stems,
                list(format_truth.options),
                None,
                distance_fn,
                allow_missing_pred_diagrams,
                show_progress,
            )
            return
        truth = check_truth_files(
            true_nodes_dir=true_nodes_dir,
            true_labels_dir=true_labels_dir,
            true_flow_dir=true_flow_dir,
            true_additional_texts_dir=true_additional_texts_dir,
            pred_stems=pred_stems,
            expected_num_diagrams=expected_num_diagrams,
            allow_missing_pred_diagrams=allow_missing_pred_diagrams,
        )
        self.true_paths = truth.paths["nodes"]
        # Every ground-truth flowchart is validated, also those without a prediction.
        all_options = load_true_diagram_options(truth)
        self._finish_init(
            truth.stems,
            all_options,
            None,
            distance_fn,
            allow_missing_pred_diagrams,
            show_progress,
        )

    @classmethod
    def from_loaded(
        cls,
        truth: Sequence[DiagramOptions],
        preds: Sequence[Diagram],
        structure: PredDiagramStructure,
        *,
        empty: Sequence[str] = (),
        distance_fn: DistanceFnProtocol = levenshtein_with_text_normalisation,
        true_edge_labels: Mapping[str, EdgeLabels] | None = None,
        pred_edge_labels: Mapping[str, EdgeLabels] | None = None,
        true_paths: Sequence[Path] = (),
        show_progress: bool | None = None,
    ) -> ParsingBenchmark:
        """parsescore's way in (not Flowde's): flowcharts already read and checked.

        ``truth``: every ground-truth flowchart; ``preds``: the predictions, of the parts
        ``structure`` names; ``empty``: flowcharts scored as an empty prediction of those parts
        (a missing or unreadable answer: every true node unmatched). Flowcharts with neither are
        left out, as ``allow_missing_pred_diagrams`` leaves them.
        """
        if not callable(distance_fn):
            raise TypeError(f"distance_fn must be callable, got {type(distance_fn).__name__}")
        bench = cls.__new__(cls)
        bench.pred_sources = PredDiagramSources((), structure)
        bench.pred_edge_labels = dict(pred_edge_labels or {})
        bench.true_edge_labels = dict(true_edge_labels or {})
        bench.true_paths = tuple(true_paths)
        empties = [
            Diagram.model_construct(
                nodes=[],
                additional_texts=[] if structure.additional_texts else None,
                parent_img_code=stem,
                diagram_type="pred",
                true_option_idx=None,
            )
            for stem in empty
        ]
        bench._finish_init(
            [options.parent_img_code for options in truth],
            list(truth),
            [*preds, *empties],
            distance_fn,
            True,
            show_progress,
        )
        bench.pred_structure = structure
        bench.capabilities = ParsingBenchmarkCapabilities.from_pred_structure(structure)
        return bench

    def _finish_init(
        self,
        truth_stems: Sequence[str],
        all_options: list[DiagramOptions],
        pred_diagrams: list[Diagram] | None,
        distance_fn: DistanceFnProtocol,
        allow_missing_pred_diagrams: bool,
        show_progress: bool | None,
    ) -> None:
        """The state every method reads; ``pred_diagrams`` None: those of ``pred_sources``."""
        if pred_diagrams is None:
            pred_diagrams = load_pred_diagrams(self.pred_sources)
        self.pred_diagrams: list[Diagram] = sorted(pred_diagrams, key=lambda d: d.parent_img_code)
        pred_stems = {d.parent_img_code for d in self.pred_diagrams}
        self.true_diagrams_options_list: list[DiagramOptions] = sorted(
            (d for d in all_options if d.parent_img_code in pred_stems),
            key=lambda d: d.parent_img_code,
        )
        self.missing_pred_diagrams: list[str] = sorted(set(truth_stems) - pred_stems)
        self.allow_missing_pred_diagrams = allow_missing_pred_diagrams
        self.distance_fn = distance_fn
        self.pred_structure = self.pred_sources.structure
        self.capabilities = ParsingBenchmarkCapabilities.from_pred_structure(self.pred_structure)
        self.show_progress = sys.stderr.isatty() if show_progress is None else show_progress
        self._results: list[_DiagramResult] | None = None
        self._scale: dict[str, Any] | None = None

    # -- the one computation -----------------------------------------------------------------
    def _match_all(self) -> list[_DiagramResult]:
        if self._results is not None:
            return self._results
        pairs = list(zip(self.true_diagrams_options_list, self.pred_diagrams, strict=True))
        parts = {
            "labels": self.pred_structure.labels,
            "additional_texts": self.pred_structure.additional_texts,
            "flow": self.pred_structure.flow,
        }
        if self._scale is not None:
            self._results = _match_with_runner(self, pairs, parts, self._scale)
            return self._results
        if not self.show_progress:  # no bar: rich is not even imported
            results = [_match_one(pair, distance_fn=self.distance_fn, **parts) for pair in pairs]
        else:
            from rich.progress import Progress

            results = []
            with Progress(transient=True) as progress:
                task = progress.add_task("Matching flowcharts", total=len(pairs))
                for pair in pairs:
                    results.append(_match_one(pair, distance_fn=self.distance_fn, **parts))
                    progress.advance(task)
        self._results = results
        return results

    def _require(self, available: bool, operation: str, parts: set[str]) -> None:
        if available:
            return
        missing = sorted(parts - set(self.pred_structure.parts))
        raise ValueError(
            f"{operation} is unavailable for predicted diagrams containing "
            f"{self.pred_structure.describe()}. Missing required components: "
            f"{', '.join(missing)}."
        )

    # -- Flowde's methods --------------------------------------------------------------------
    def node_matches(
        self, range_indices: tuple[int | None, int | None] | None = None
    ) -> list[NodeMatches]:
        """Node matches per flowchart (sorted stems); ``range_indices`` slices them."""
        self._require(self.capabilities.node_matches, "Node matching", {"node_text"})
        start, stop = range_indices if range_indices is not None else (None, None)
        return [r.node_matches for r in self._match_all()[start:stop]]

    def node_matches_with_flow(self) -> list[NodeMatches]:
        """Node matches, requiring predicted flow so that each ``flow_score`` is defined."""
        self._require(
            self.capabilities.node_matches_with_flow,
            "Node matching with flow",
            {"node_text", "flow"},
        )
        return self.node_matches()

    def node_and_label_matches(self) -> list[NodeMatches]:
        """Node matches with the label matches of every record."""
        self._require(
            self.capabilities.node_and_label_matches,
            "Node and label matching",
            {"node_text", "labels"},
        )
        return self.node_matches()

    def additional_text_matches(self) -> list[TextListMatches]:
        """Additional-text matches against the selected option of each flowchart."""
        self._require(
            self.capabilities.additional_text_matches,
            "Additional text matching",
            {"node_text", "additional_texts"},
        )
        return [r.additional_text_matches for r in self._match_all()]  # type: ignore[misc]

    def diagram_matches(self) -> list[DiagramMatch]:
        """Complete comparisons (nodes, labels, flow, additional texts) per flowchart."""
        self._require(
            self.capabilities.diagram_matches,
            "Diagram matching",
            {"node_text", "labels", "flow", "additional_texts"},
        )
        out = []
        for options, pred, r in zip(
            self.true_diagrams_options_list, self.pred_diagrams, self._match_all(), strict=True
        ):
            assert r.additional_text_matches is not None
            out.append(
                DiagramMatch(
                    node_matches=r.node_matches,
                    additional_text_matches=r.additional_text_matches,
                    pred_diagram=pred,
                    true_diagram=options.options[r.node_matches.true_diagram_option_idx],
                )
            )
        return out

    def total_node_text_cost(self) -> float:
        """Sum of paired and unmatched node-text costs over all flowcharts."""
        return sum(nm.total_node_text_cost for nm in self.node_matches())

    def total_label_cost(self) -> float:
        """Sum of label costs (labels of unmatched nodes included)."""
        return sum(nm.total_label_error_cost for nm in self.node_and_label_matches())

    def total_additional_text_cost(self) -> float:
        """Sum of paired and unmatched additional-text costs."""
        return sum(m.total_cost for m in self.additional_text_matches())

    def all_flow_scores(self) -> list[FlowScores]:
        """Directed-connection scores per flowchart."""
        self._require(self.capabilities.flow_scores, "Flow scoring", {"node_text", "flow"})
        return [nm.flow_score for nm in self.node_matches_with_flow()]

    def all_flow_jaccard_scores(self) -> list[float]:
        """One flow Jaccard per flowchart."""
        return [s.jaccard for s in self.all_flow_scores()]

    def edge_label_costs(self) -> dict[str, float]:
        """``edge_label_cost`` per flowchart whose truth and prediction both carry edge labels
        (read from Mermaid or DOT); not a Flowde method (see :mod:`parsescore.flowchart.edges`)."""
        costs = {}
        for nm in self.node_matches():
            stem = nm.parent_img_code
            if stem in self.true_edge_labels and stem in self.pred_edge_labels:
                costs[stem] = float(
                    edge_label_cost(
                        nm,
                        self.true_edge_labels[stem],
                        self.pred_edge_labels[stem],
                        self.distance_fn,
                    )
                )
        return costs

    def avg_flow_jaccard(self) -> float:
        """Unweighted mean flow Jaccard; ValueError when there is nothing to average."""
        scores = self.all_flow_jaccard_scores()
        if not scores:
            raise ValueError(
                "Cannot calculate average flow Jaccard because there are no flow scores."
            )
        return macro_mean(scores)
