"""Benchmark: reading a 500-node Mermaid flowchart (``read_mermaid``) against scoring it against
its truth (``parsescore.evaluate("flowchart", ...)``, which reads both files too), same run. The
aim: reading costs under 10% of scoring.

The flowchart is made here as a CONSORT-like model answer would be: phase subgraphs, boxes with
counts, decisions with labelled yes/no edges; the prediction is the truth with some texts and
edge labels edited and some edges dropped.

    .venv/bin/python benchmarks/bench_flowchart_formats.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from parsescore.core.api import evaluate
from parsescore.flowchart.formats import read_mermaid
from timing import median_seconds

NODES = 500
PHASES = ["Enrolment", "Allocation", "Follow-up", "Analysis"]


def flowchart(seed: int, *, edit: float) -> str:
    """A Mermaid flowchart of ``NODES`` nodes; ``edit`` is the share of texts and edges changed."""
    rng = random.Random(seed)
    edits = random.Random(seed + 1)
    lines = ["flowchart TD"]
    per_phase = NODES // len(PHASES)
    for p, phase in enumerate(PHASES):
        lines.append(f'  subgraph p{p} ["{phase}"]')
        for k in range(p * per_phase, (p + 1) * per_phase):
            n = rng.randint(1, 999)
            text = f"Step {k}: assessed for eligibility<br>(n = {n})"
            if edits.random() < edit:
                text = text.replace("assessed", "asessed")
            shape = ("{", "}") if k % 5 == 0 else ('["', '"]')
            lines.append(f"    n{k}{shape[0]}{text}{shape[1]}")
        lines.append("  end")
    for k in range(NODES - 1):
        if edits.random() < edit / 2:
            continue
        if k % 5 == 0:
            label = "yes" if edits.random() >= edit else "Yes"
            lines.append(f"  n{k} -->|{label}| n{k + 1}")
            lines.append(f"  n{k} -- no --> n{min(k + 7, NODES - 1)}")
        else:
            lines.append(f"  n{k} --> n{k + 1}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    truth_text, pred_text = flowchart(7, edit=0.0), flowchart(7, edit=0.1)
    read_mermaid(pred_text)  # builds the grammar once, as any run does before its first file
    with tempfile.TemporaryDirectory() as tmp:
        truth, pred = Path(tmp) / "truth", Path(tmp) / "pred"
        truth.mkdir()
        pred.mkdir()
        (truth / "big.mmd").write_text(truth_text, encoding="utf-8")
        (pred / "big.mmd").write_text(pred_text, encoding="utf-8")
        result = evaluate("flowchart", truth, pred, quiet=True)
        reading = median_seconds(lambda: read_mermaid(pred_text), args.repeat)
        scoring = median_seconds(
            lambda: evaluate("flowchart", truth, pred, quiet=True), args.repeat
        )
    item = result.items["big"]
    print(
        f"{NODES}-node Mermaid flowchart, {len(pred_text)} characters; scores: node text cost "
        f"{item['node_text_cost']:g}, flow F1 {item['flow_f1']:.3f}, edge label cost "
        f"{item['edge_label_cost']:g}"
    )
    print(f"read_mermaid      {reading * 1000:8.1f} ms (median of {args.repeat})")
    print(f"evaluate (score)  {scoring * 1000:8.1f} ms (median of {args.repeat})")
    ratio = reading / scoring
    print(f"reading / scoring = {ratio:.3f} ({'under' if ratio < 0.1 else 'OVER'} the 10% aim)")


if __name__ == "__main__":
    from timing import tee_results

    with tee_results("flowchart_formats"):
        main()
