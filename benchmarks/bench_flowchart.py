"""Flowchart matching: parsescore vs the reference's dense MILP formulation, in one run.

Flowde itself is not on PyPI, so the reference side is its formulation rebuilt from the spec
(`flowchart_dense_baseline.py`): dense two-stage MILPs over all node pairs and edge pairs. Both
must reach the same optimum (text cost, matched edge pairs, label cost); the script checks that.

    .venv/bin/python benchmarks/bench_flowchart.py [--sizes 30 60 100] [--dense-limit 120]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from flowchart_dense_baseline import dense_lexicographic_optimum
from flowchart_instances import make_instance, write_instance
from parsescore.flowchart import ParsingBenchmark


def ours(root: Path) -> tuple[float, tuple[float, int, float]]:
    start = time.perf_counter()
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
    return time.perf_counter() - start, (text, tp, labels)


def dense(n: int, limit: float) -> tuple[float | None, tuple[float, int, float | None] | None]:
    truth, pred = make_instance(n)
    t_nodes = truth["nodes"]["options"][0]["nodes"]
    t_flow = truth["flow"]["options"][0]["nodes"]
    t_labels = truth["labels"]["options"][0]["nodes"]
    p_index = {node["node_number"]: k for k, node in enumerate(pred["nodes"])}
    start = time.perf_counter()
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
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 60, 100, 200])
    parser.add_argument(
        "--dense-limit", type=float, default=120.0, help="solver seconds per dense run"
    )
    parser.add_argument(
        "--dense-max-nodes",
        type=int,
        default=100,
        help="largest size given to the dense model (at 200 nodes it has 360k edge-pair "
        "variables and 1M rows; building and solving it takes far longer than this benchmark)",
    )
    args = parser.parse_args()
    print(f"{'nodes':>6} {'parsescore s':>13} {'dense MILP s':>13} {'ratio':>9}  same optimum")
    for n in args.sizes:
        with tempfile.TemporaryDirectory() as tmp:
            root = write_instance(Path(tmp), n)
            ours(root)  # warm-up (imports, first-call overheads)
            our_time, our_result = ours(root)
        if n > args.dense_max_nodes:
            print(f"{n:>6} {our_time:>13.3f} {'not run':>13} {'':>9}  (--dense-max-nodes)")
            continue
        dense_time, dense_result = dense(n, args.dense_limit)
        if dense_time is None:
            print(
                f"{n:>6} {our_time:>13.3f} {'>' + format(args.dense_limit, '.0f'):>13} "
                f"{'>' + format(args.dense_limit / our_time, '.0f') + 'x':>9}  "
                "(dense did not finish)"
            )
            continue
        same = dense_result == our_result
        print(
            f"{n:>6} {our_time:>13.3f} {dense_time:>13.3f} {dense_time / our_time:>8.0f}x  {same}"
        )
        if not same:
            raise SystemExit(f"optimum differs: ours {our_result}, dense {dense_result}")
    print("\n200-node target: parsescore under 2 s (ours above, whole benchmark API).")


if __name__ == "__main__":
    main()
