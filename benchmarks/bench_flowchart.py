"""Flowchart matching: parsescore vs the reference's dense MILP formulation, in one run.

Flowde itself is not on PyPI, so the reference side is its formulation rebuilt from the spec
(`flowchart_dense_baseline.py`): dense two-stage MILPs over all node pairs and edge pairs. Both
must reach the same optimum (text cost, matched edge pairs, label cost); the script checks that.
Two shapes: the benchmark's (a third of the texts duplicated, three edges a node, labels, noisy
texts and edges) and the pathological one (every text and label identical, the flow a renumbered
copy). Times are CPU seconds in a warm process (median of ``--repeat`` runs for ours, one run
for the dense model); the ratio is dense / ours. Lines are kept in
``benchmarks/results/flowchart.txt``.

    .venv/bin/python benchmarks/bench_flowchart.py [--sizes 30 60 100 200] [--identical 30 60]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from flowchart_dense_baseline import dense_lexicographic_optimum
from flowchart_instances import make_identical_instance, make_instance, write_instance
from parsescore.flowchart import ParsingBenchmark
from timing import Results, median_cpu_seconds


def ours(root: Path) -> tuple[float, int, float]:
    gt = root / "ground-truth"
    bench = ParsingBenchmark(
        pred_diagrams_dir=root / "predictions",
        true_nodes_dir=gt / "nodes",
        true_labels_dir=gt / "labels",
        true_flow_dir=gt / "flow",
        true_additional_texts_dir=gt / "additional_texts",
        expected_num_diagrams=1,
    )
    text = bench.total_node_text_cost()
    labels = bench.total_label_cost()
    tp = bench.all_flow_scores()[0].tp
    bench.diagram_matches()
    bench.avg_flow_jaccard()
    return text, tp, labels


def dense(
    n: int, limit: float, identical: bool
) -> tuple[float | None, tuple[float, int, float | None] | None]:
    truth, pred = (make_identical_instance if identical else make_instance)(n)
    t_nodes = truth["nodes"]["options"][0]["nodes"]
    t_flow = truth["flow"]["options"][0]["nodes"]
    t_labels = truth["labels"]["options"][0]["nodes"]
    p_index = {node["node_number"]: k for k, node in enumerate(pred["nodes"])}
    start = time.process_time()
    try:
        result = dense_lexicographic_optimum(
            [node["text"] for node in t_nodes],
            [node["text"] for node in pred["nodes"]],
            [(node["node_number"] - 1, t - 1) for node in t_flow for t in node["points_to"]],
            [
                (p_index[node["node_number"]], p_index[t])
                for node in pred["nodes"]
                for t in node["points_to"]
            ],
            [node["labels"] for node in t_labels],
            [node["labels"] for node in pred["nodes"]],
            time_limit=limit,
        )
    except TimeoutError:
        return None, None
    return time.process_time() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 60, 100, 200])
    parser.add_argument("--identical", type=int, nargs="*", default=[20, 60])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--dense-limit", type=float, default=60.0, help="solver seconds per dense run"
    )
    parser.add_argument(
        "--dense-max-nodes",
        type=int,
        default=100,
        help="largest size given to the dense model (at 200 nodes it has 360k edge-pair "
        "variables and 1M rows; building and solving it takes far longer than this benchmark)",
    )
    args = parser.parse_args()
    out = Results("flowchart")
    out.print(
        f"{'shape':>10} {'nodes':>6} {'ours cpu s':>11} {'dense cpu s':>12} {'ratio':>9}"
        "  same optimum"
    )
    cases = [("benchmark", n) for n in args.sizes] + [("identical", n) for n in args.identical]
    for shape, n in cases:
        identical = shape == "identical"
        with tempfile.TemporaryDirectory() as tmp:
            root = write_instance(Path(tmp), n, identical=identical)
            our_result = ours(root)  # warm-up (imports, first-call overheads)
            our_time = median_cpu_seconds(lambda r=root: ours(r), args.repeat)  # type: ignore[misc]
        head = f"{shape:>10} {n:>6} {our_time:>11.3f}"
        if n > args.dense_max_nodes:
            out.print(f"{head} {'not run':>12} {'':>9}  (--dense-max-nodes)")
            continue
        dense_time, dense_result = dense(n, args.dense_limit, identical)
        if dense_time is None:
            bound = args.dense_limit
            out.print(
                f"{head} {'>' + format(bound, '.0f'):>12} "
                f"{'>' + format(bound / our_time, '.0f') + 'x':>9}  (dense did not finish)"
            )
            continue
        same = dense_result == our_result
        out.print(f"{head} {dense_time:>12.3f} {dense_time / our_time:>8.0f}x  {same}")
        if not same:
            raise SystemExit(f"optimum differs: ours {our_result}, dense {dense_result}")
    out.print("\ntargets (issue 29): 200 nodes < 0.5 s; 60 identical nodes < 2 s (CPU, warm)")
    out.write("benchmarks/bench_flowchart.py " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
