"""Benchmark: a synthetic 20k-node / 60k-edge graph evaluated in every rung.

Usage: ``.venv/bin/python benchmarks/bench_graph.py [--items N] [--reference-python PATH]
[--reference-root DIR] [--timeout S]``.

The ground truth is a nested ``Corpus`` instance (benchmarks/graph_bench_template.py): 1 root,
199 sections, 19 800 items, each item with 2 references to other items, i.e. 20 000 nodes and
59 599 edges once converted. The extracted graph.json keeps 80 % of the item ids (case/punctuation
variants), turns 10 % into relaxed aliases ("<id> annex"), 10 % into invented ids that only
structural alignment can pair, adds 2 % spurious items, drops 5 % of the references and renames
the root (singleton-root pairing).

Reported per mode (off → strict + relaxed; auto with --source; on → aligned for every class):
our wall time, our peak traced memory (tracemalloc, a separate run), and the reference's wall
time (docling-graph 1.9.1's script 16 in its own venv, when given) with the ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORDS = [
    "policy",
    "cover",
    "damage",
    "flood",
    "storm",
    "fire",
    "theft",
    "glass",
    "garden",
    "roof",
    "pipe",
    "water",
    "claim",
    "excess",
    "limit",
    "annual",
    "premium",
    "tenant",
    "owner",
    "building",
    "contents",
    "liability",
]


def make_inputs(folder: Path, n_items: int, seed: int = 7) -> None:
    """Write truth.json, graph.json and source.md of the synthetic benchmark into ``folder``."""
    rng = random.Random(seed)
    n_sections = max(1, n_items // 100 + (1 if n_items % 100 else 0))
    codes = [f"ITEM-{i:05d}" for i in range(n_items)]
    texts = [
        " ".join(rng.choice(WORDS) for _ in range(16)) + f" clause {i}" for i in range(n_items)
    ]
    names = [f"{rng.choice(WORDS)} {rng.choice(WORDS)} {i}" for i in range(n_items)]
    related = [rng.sample(range(n_items), 2) for _ in range(n_items)]
    sections = []
    for s in range(n_sections):
        members = range(s * 100, min(n_items, (s + 1) * 100))
        sections.append(
            {
                "title": f"Section {s}",
                "items": [
                    {
                        "code": codes[i],
                        "name": names[i],
                        "text": texts[i],
                        "tags": [WORDS[i % len(WORDS)]],
                        "related": [{"code": codes[j]} for j in related[i]],
                    }
                    for i in members
                ],
            }
        )
    truth = {"name": "Synthetic corpus", "sections": sections}
    (folder / "truth.json").write_text(json.dumps(truth), encoding="utf-8")

    kind = [rng.random() for _ in range(n_items)]
    extracted_code = []
    for i, k in enumerate(kind):
        if k < 0.8:
            extracted_code.append(codes[i].lower().replace("-", "_"))
        elif k < 0.9:
            extracted_code.append(codes[i] + " annex")
        else:
            extracted_code.append("gen-" + "".join(rng.choice("abcdefghij") for _ in range(8)))
    nodes = [
        {"id": "root", "label": "Corpus", "type": "entity", "__class__": "Corpus",
         "name": "corpus_file_stem", "sections": None}
    ]  # fmt: skip
    edges = []
    for s in range(n_sections):
        nodes.append(
            {"id": f"s{s}", "label": "Section", "type": "entity", "__class__": "Section",
             "title": f"section {s}", "items": None}
        )  # fmt: skip
        edges.append({"source": "root", "target": f"s{s}", "label": "HAS_SECTION"})
    for i in range(n_items):
        nodes.append(
            {"id": f"i{i}", "label": "Item", "type": "entity", "__class__": "Item",
             "code": extracted_code[i], "name": names[i], "text": texts[i],
             "tags": [WORDS[i % len(WORDS)]], "related": None}
        )  # fmt: skip
        edges.append({"source": f"s{i // 100}", "target": f"i{i}", "label": "HAS_ITEM"})
        for j in related[i]:
            if rng.random() >= 0.05:
                edges.append({"source": f"i{i}", "target": f"i{j}", "label": "RELATED"})
    for x in range(n_items // 50):
        nodes.append(
            {"id": f"x{x}", "label": "Item", "type": "entity", "__class__": "Item",
             "code": f"spurious {x}", "name": f"noise {x}", "text": None, "tags": [],
             "related": None}
        )  # fmt: skip
        edges.append({"source": "s0", "target": f"x{x}", "label": "HAS_ITEM"})
    graph = {"nodes": nodes, "edges": edges, "metadata": {}, "graph": {}}
    (folder / "graph.json").write_text(json.dumps(graph), encoding="utf-8")
    source = "\n".join(f"{codes[i]}: {names[i]}. {texts[i]}" for i in range(n_items))
    (folder / "source.md").write_text(source, encoding="utf-8")


MODES = [("off", False), ("auto", True), ("on", False)]


def run_ours(folder: Path, mode: str, with_source: bool) -> tuple[float, dict]:
    from parsescore.graph.api import evaluate_files

    start = time.perf_counter()
    report = evaluate_files(
        truth=folder / "truth.json",
        pred=folder / "graph.json",
        template="graph_bench_template.Corpus",
        source=folder / "source.md" if with_source else None,
        structural_align=mode,  # type: ignore[arg-type]
    )
    return time.perf_counter() - start, report


def peak_memory(folder: Path, mode: str, with_source: bool) -> float:
    tracemalloc.start()
    run_ours(folder, mode, with_source)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def run_reference(
    folder: Path, mode: str, with_source: bool, python: Path, root: Path, timeout: float
) -> tuple[float | None, dict | None, str]:
    script = root / "docs/examples/scripts/16_extraction_evaluation.py"
    if not python.exists() or not script.exists():
        return None, None, f"reference not available ({python} / {script})"
    out = folder / f"ref_{mode}.json"
    cmd = [str(python), str(script), "--graph", "graph.json", "--truth", "truth.json",
           "--template", "graph_bench_template.Corpus", "--structural-align", mode,
           "--out", str(out)]  # fmt: skip
    if with_source:
        cmd += ["--source", "source.md"]
    start = time.perf_counter()
    try:
        subprocess.run(
            cmd, cwd=folder, check=True, timeout=timeout, capture_output=True,
            env={"PYTHONPATH": str(HERE), "PATH": "/usr/bin:/bin"},
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return None, None, f"reference timed out after {timeout:.0f} s"
    except subprocess.CalledProcessError as exc:
        return None, None, f"reference failed: {exc.stderr.decode()[-300:]}"
    elapsed = time.perf_counter() - start
    return elapsed, json.loads(out.read_text(encoding="utf-8")), ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=19_800)
    parser.add_argument("--reference-python", type=Path, default=Path("/tmp/dg-venv/bin/python"))
    parser.add_argument("--reference-root", type=Path, default=Path("/tmp/dg-ref"))
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--no-memory", action="store_true", help="Skip the tracemalloc runs.")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        make_inputs(folder, args.items)
        graph = json.loads((folder / "graph.json").read_text(encoding="utf-8"))
        print(
            f"extracted graph: {len(graph['nodes'])} nodes, {len(graph['edges'])} edges; "
            f"truth: {args.items + args.items // 100 + 1} nodes"
        )
        print(f"{'mode':<6} {'ours s':>8} {'peak MiB':>9} {'ref s':>8} {'ratio':>7}  note")
        for mode, with_source in MODES:
            ours_s, report = run_ours(folder, mode, with_source)
            peak = float("nan") if args.no_memory else peak_memory(folder, mode, with_source)
            ref_s, ref_report, note = run_reference(
                folder, mode, with_source, args.reference_python, args.reference_root,
                args.timeout,
            )  # fmt: skip
            if ref_report is not None:
                ref_report["graph"] = report["graph"]
                ref_report["truth"] = report["truth"]
                note = "equal to reference" if ref_report == report else "DIFFERS from reference"
            ratio = f"{ref_s / ours_s:6.1f}x" if ref_s else "    —"
            ref_text = f"{ref_s:8.2f}" if ref_s else "       —"
            label = f"{mode}{'+src' if with_source else ''}"
            micro = report["micro"]["nodes"]
            best = micro.get("aligned", micro["relaxed"])["f1"]
            print(
                f"{label:<8} {ours_s:6.2f} {peak:9.1f} {ref_text} {ratio}  "
                f"node F1 strict {micro['strict']['f1']} best {best}; {note}"
            )


if __name__ == "__main__":
    main()
