"""Benchmark: a BillingDocument-shaped graph (15k nodes / 20k edges) in the three modes.

Usage: ``.venv/bin/python benchmarks/bench_graph.py [--lines N] [--curve]
[--seed N] [--reference-python PATH] [--reference-root DIR] [--timeout S]``.

The ground truth is one ``BillingDocument`` (benchmarks/graph_billing_template.py) with
``--lines`` line items (default 10 900) billing about half as many products, two parties, taxes
and a payment; converted, 15 430 nodes and 21 802 edges (the extracted graph.json: 15 002 nodes
and 20 902 edges, the issue's "15k nodes / 20k edges"). The extracted graph.json is another
instance converted by the same converter (parsescore.graph.template), then perturbed as LLM runs
are: 75 % of the line numbers kept, 8 % written as aliases ("Line 12"), 12 % invented
("row-kqzx", only structural alignment can pair them), 5 % dropped, 2 % spurious lines; product
names kept (case changes), suffixed (relaxed aliases) or renamed; about a fifth of the
attributes missing and extra keys (``confidence``, ``page``) on every node. The source is a
~1.2 MB Markdown rendering of the document.

Per mode (off; auto with --source; on), the command as a user runs it: ``parsescore graph
--truth truth.json --pred graph.json --template graph_billing_template.BillingDocument
--structural-align MODE [--source source.md] --out eval.json`` in a fresh process (interpreter
start, CLI, template import, scoring, the summary, writing eval.json), its CPU seconds (user +
system, the operating system's accounting of the finished child) and peak memory, against the
floor: a fresh process that only loads the two inputs with ``json.load``. The two alternate (floor,
command, floor, command, ...) so that the ratio of each pair is taken while the shared machine
runs at one speed; the median of ``--repeat`` pairs is printed. The ``start`` row is the same
command on a one-line document against the same floor: the fixed cost every row includes.
Bytecode is cached as a user's installation has it (``PYTHONDONTWRITEBYTECODE`` is dropped for
the children and one warm-up run of each command writes the caches). ``lib s`` is the library
call alone (``evaluate_files``, modules imported first), least of the runs. docling-graph
1.9.1's script 16 runs on the same files when ``--reference-python`` exists (wall time of its
process), with whether the eval.json files are equal. ``--curve`` times the three commands from
2k to 50k nodes instead.

The reference, as set up for ``benchmarks/results/graph.txt`` (script 16 is not in the PyPI
package; it is in the repository at the release's tag, and pulls in docling, about 6 GB)::

    python3.11 -m venv /tmp/dg-venv && /tmp/dg-venv/bin/pip install docling-graph==1.9.1
    git -C DOCLING_GRAPH_CLONE show v1.9.1:docs/examples/scripts/16_extraction_evaluation.py \
        > /tmp/dg-ref/docs/examples/scripts/16_extraction_evaluation.py
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TEMPLATE = "graph_billing_template.BillingDocument"
WORDS = [
    "steel",
    "bolt",
    "washer",
    "cable",
    "relay",
    "valve",
    "pump",
    "filter",
    "sensor",
    "board",
    "panel",
    "hinge",
    "bracket",
    "gasket",
    "motor",
    "fan",
    "switch",
    "clamp",
    "drill",
    "blade",
]
UNITS = ["EA", "KG", "HUR", "PC", "M"]
MODES = [("off", False), ("auto", True), ("on", False)]


def _truth_instance(n_lines: int, rng: random.Random) -> dict[str, Any]:
    n_products = max(1, n_lines * 47 // 100)
    products = [
        {
            "name": f"{rng.choice(WORDS).title()} {rng.choice(WORDS)} {p}",
            "item_code": f"SKU-{p:05d}" if rng.random() < 0.6 else None,
            "category": rng.choice(["Hardware", "Services", "Spares"]),
        }
        for p in range(n_products)
    ]
    lines = []
    for n in range(1, n_lines + 1):
        product = products[rng.randrange(n_products)]
        quantity = float(rng.randint(1, 40))
        price = round(rng.uniform(1, 500), 2)
        lines.append(
            {
                "line_number": str(n),
                "item_code": product["item_code"],
                "description": f"{product['name']} - "
                + " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9))),
                "quantity": quantity,
                "unit": rng.choice(UNITS),
                "unit_price": price,
                "line_total": round(quantity * price, 2),
                "product": product,
                "tax": {"tax_type": "VAT", "rate_percent": 20.0, "tax_amount": price / 5},
            }
        )
    return {
        "document_number": "INV-2024-00042",
        "issue_date": "2024-03-01",
        "currency": "EUR",
        "seller": {"name": "Acme Industrial Supplies SA", "tax_id": "FR12345678901",
                   "city": "Lyon", "country": "France"},
        "buyer": {"name": "Müller & Söhne GmbH", "tax_id": "DE123456789", "city": "Köln"},
        "line_items": lines,
        "taxes": [{"tax_type": "VAT", "rate_percent": 20.0}],
        "payment": {"method": "Bank Transfer", "iban": "FR76 3000 6000 0112 3456 7890 189"},
        "total_amount": round(sum(line["line_total"] for line in lines), 2),
    }  # fmt: skip


def _invented(rng: random.Random) -> str:
    return "row-" + "".join(rng.choice(string.ascii_lowercase) for _ in range(6))


def _extracted_instance(truth: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    renamed: dict[str, dict[str, Any]] = {}

    def product(p: dict[str, Any]) -> dict[str, Any]:
        if p["name"] not in renamed:
            roll = rng.random()
            name = p["name"]
            if roll < 0.1:
                name = name + " (refurbished)"
            elif roll < 0.15:
                name = "Generic part " + "".join(rng.choice("xyzw") for _ in range(5))
            elif roll < 0.4:
                name = name.upper()
            renamed[p["name"]] = p | {
                "name": name,
                "category": None if roll > 0.8 else p["category"],
            }
        return renamed[p["name"]]

    lines = []
    for line in truth["line_items"]:
        roll = rng.random()
        if roll < 0.05:
            continue  # dropped
        got = dict(line)
        if roll < 0.13:
            got["line_number"] = f"Line {line['line_number']}"
        elif roll < 0.25:
            got["line_number"] = _invented(rng)
        for name in ("item_code", "unit", "unit_price", "line_total"):
            if rng.random() < 0.2:
                got[name] = None
        got["product"] = product(line["product"])
        lines.append(got)
    for x in range(len(truth["line_items"]) // 50):
        lines.append({"line_number": str(len(truth["line_items"]) + 1 + x),
                      "description": f"Shipping and handling {x}", "quantity": 1.0})  # fmt: skip
    return truth | {"line_items": lines, "buyer": truth["buyer"] | {"name": "Muller & Sohne GmbH"}}


def make_inputs(folder: Path, n_lines: int, seed: int = 17) -> tuple[int, int]:
    """Write truth.json, graph.json and source.md into ``folder``; (nodes, edges) of graph.json."""
    sys.path.insert(0, str(HERE))
    from graph_billing_template import BillingDocument
    from parsescore.graph.template import graph_from_instance

    rng = random.Random(seed)
    truth = _truth_instance(n_lines, rng)
    (folder / "truth.json").write_text(json.dumps(truth, ensure_ascii=False), encoding="utf-8")
    extracted = graph_from_instance(BillingDocument.model_validate(_extracted_instance(truth, rng)))
    for node in extracted.nodes:
        node["confidence"] = round(rng.uniform(0.5, 1.0), 2)
        node["page"] = rng.randint(1, 400)
    graph = {"nodes": extracted.nodes, "edges": extracted.edges, "metadata": {},
             "graph": {"template_name": "BillingDocument"}}  # fmt: skip
    (folder / "graph.json").write_text(json.dumps(graph, ensure_ascii=False), encoding="utf-8")
    rows = [
        f"| {line['line_number']} | {line['product']['name']} | {line['description']} | "
        f"{line['quantity']} {line['unit']} | {line['unit_price']} | {line['line_total']} |"
        for line in truth["line_items"]
    ]
    source = (
        f"# Invoice {truth['document_number']}\n\nSeller: {truth['seller']['name']}\n"
        f"Buyer: {truth['buyer']['name']}\n\n| Line | Product | Description | Qty | Price | "
        "Total |\n|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n"
    )
    (folder / "source.md").write_text(source, encoding="utf-8")
    shutil.copy(HERE / "graph_billing_template.py", folder)  # imported from the current folder
    return len(graph["nodes"]), len(graph["edges"])


def run_ours(
    folder: Path, mode: str, with_source: bool, repeat: int = 1
) -> tuple[float, float, dict[str, Any]]:
    """End-to-end evaluations, each in a fresh process (no warm caches): the least CPU seconds
    of ``repeat`` runs (the machine is shared), the peak resident memory (MiB, the whole
    process) and the eval.json."""
    out = folder / f"ours_{mode}.json"
    cmd = [sys.executable, __file__, "--worker", str(folder), mode, str(int(with_source)), str(out)]
    runs = []
    for _ in range(repeat):
        done = subprocess.run(cmd, check=True, capture_output=True, text=True, env=child_env())
        runs.append(tuple(float(x) for x in done.stdout.split()))
    return min(r[0] for r in runs), max(r[1] for r in runs), json.loads(out.read_text("utf-8"))


def worker(folder: Path, mode: str, with_source: bool, out: Path) -> None:
    """The timed part of :func:`run_ours` (modules imported first, as a CLI run has them)."""
    import resource

    import numpy  # noqa: F401 - imported by the evaluation; an import is not evaluation work

    from parsescore.graph.api import evaluate_files

    start = time.process_time()
    report = evaluate_files(
        truth=folder / "truth.json",
        pred=folder / "graph.json",
        template=TEMPLATE,
        source=folder / "source.md" if with_source else None,
        structural_align=mode,  # type: ignore[arg-type]
    )
    cpu = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.write_text(json.dumps(report, ensure_ascii=False), encoding="utf-8")
    print(cpu, peak)


FLOOR_CODE = (
    "import json, sys\n"
    "for name in sys.argv[1:]:\n"
    "    with open(name, encoding='utf-8') as handle:\n"
    "        json.load(handle)\n"
)
"""The floor: a fresh process that parses the two inputs and nothing else."""


def child_env() -> dict[str, str]:
    """The environment of the timed processes: this one's, with bytecode caching on (a user's
    installation has its ``.pyc`` files; without them every run compiles every module)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def command(mode: str, with_source: bool) -> list[str]:
    """``parsescore graph`` in one mode, as a user types it in the inputs' folder."""
    cmd = [sys.executable, "-m", "parsescore", "graph", "--truth", "truth.json",
           "--pred", "graph.json", "--template", TEMPLATE, "--structural-align", mode,
           "--out", f"eval_{mode}.json"]  # fmt: skip
    return cmd + (["--source", "source.md"] if with_source else [])


def floor_command() -> list[str]:
    return [sys.executable, "-c", FLOOR_CODE, "truth.json", "graph.json"]


def process_cost(cmd: list[str], folder: Path) -> tuple[float, float]:
    """CPU seconds (user + system) and peak resident MiB of one fresh process running ``cmd``
    in ``folder`` (the operating system's accounting of the finished child)."""
    proc = subprocess.Popen(
        cmd, cwd=folder, env=child_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert proc.stderr is not None
    errors = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed: {errors.decode()[-500:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def peak_text(mib: float) -> str:
    """A child's peak MiB for the table, when it is the child's own: Linux starts a child's
    peak at its parent's size when it forks (this process holds the generated inputs), so a
    child that stays below that reads as the parent and is shown as ``≤`` it."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return f"{mib:9.1f}" if mib > own else f"{'≤' + format(own, '.0f'):>9}"


def paired_costs(
    cmd: list[str], folder: Path, repeat: int, cmd_folder: Path | None = None
) -> tuple[float, float, float, float]:
    """The command against the floor, alternating (one warm-up of each first): median CPU s
    of the command, median CPU s of the floor, median of the pairs' ratios, peak MiB. The
    command runs in ``cmd_folder`` when given (the floor always reads ``folder``'s inputs)."""
    where = cmd_folder or folder
    process_cost(floor_command(), folder)
    process_cost(cmd, where)
    ours: list[float] = []
    floors: list[float] = []
    peak = 0.0
    for _ in range(repeat):
        floors.append(process_cost(floor_command(), folder)[0])
        cpu, mib = process_cost(cmd, where)
        ours.append(cpu)
        peak = max(peak, mib)
    ratios = [a / b for a, b in zip(ours, floors, strict=True)]
    return statistics.median(ours), statistics.median(floors), statistics.median(ratios), peak


def run_reference(
    folder: Path, mode: str, with_source: bool, python: Path, root: Path, timeout: float
) -> tuple[float | None, dict[str, Any] | None, str]:
    script = root / "docs/examples/scripts/16_extraction_evaluation.py"
    if not python.exists() or not script.exists():
        return None, None, f"reference not available ({python} / {script})"
    out = folder / f"ref_{mode}.json"
    cmd = [str(python), str(script), "--graph", "graph.json", "--truth", "truth.json",
           "--template", TEMPLATE, "--structural-align", mode, "--out", str(out)]  # fmt: skip
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


def curve(sizes: list[int], repeat: int) -> None:
    """The command's median CPU seconds per mode from 2k to 50k nodes (lines ≈ 0.68 × nodes),
    and the floor's."""
    print(f"{'nodes':>7} {'edges':>7} " + " ".join(f"{m:>8}" for m, _ in MODES) + "  floor s")
    for nodes in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            n, e = make_inputs(folder, max(1, round(nodes * 0.68)))
            costs = [paired_costs(command(mode, src), folder, repeat) for mode, src in MODES]
            floor = statistics.median(c[1] for c in costs)
            print(f"{n:7d} {e:7d} " + " ".join(f"{c[0]:8.2f}" for c in costs)
                  + f"  {floor:7.3f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--lines", type=int, default=10_900)
    parser.add_argument("--curve", action="store_true", help="Time 2k → 50k nodes instead.")
    parser.add_argument("--reference-python", type=Path, default=Path("/tmp/dg-venv/bin/python"))
    parser.add_argument("--reference-root", type=Path, default=Path("/tmp/dg-ref"))
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument(
        "--repeat", type=int, default=5, help="Timed runs per command (median kept)."
    )
    parser.add_argument(
        "--write-inputs", type=Path, help="Only write the inputs into this folder (test fixtures)."
    )
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    if args.worker:
        folder, mode, with_source, out = args.worker
        worker(Path(folder), mode, with_source == "1", Path(out))
        return
    if args.write_inputs:
        args.write_inputs.mkdir(parents=True, exist_ok=True)
        print(make_inputs(args.write_inputs, args.lines, args.seed))
        return
    if args.curve:
        curve([2_000, 5_000, 10_000, 20_000, 50_000], args.repeat)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        n_nodes, n_edges = make_inputs(folder, args.lines, args.seed)
        size = sum((folder / f).stat().st_size for f in ("truth.json", "graph.json", "source.md"))
        print(f"extracted graph: {n_nodes} nodes, {n_edges} edges; inputs {size / 1e6:.1f} MB; "
              f"median of {args.repeat} fresh processes, each paired with the floor "
              "(a fresh process json.load-ing both inputs)")  # fmt: skip
        print(f"{'mode':<8} {'cmd s':>6} {'floor s':>7} {'×floor':>7} {'peak MiB':>9} "
              f"{'lib s':>6} {'ref s':>8} {'ratio':>7}  note")  # fmt: skip
        # What every run pays before its inputs matter: the same command on a one-line document
        # (interpreter, CLI, pydantic and the template's models, rich, writing eval.json).
        tiny = folder / "one-line"
        tiny.mkdir()
        make_inputs(tiny, 1, args.seed)
        start_s, start_floor_s, start_times, start_peak = paired_costs(
            command("off", False), folder, args.repeat, cmd_folder=tiny
        )
        print(f"{'start':<8} {start_s:6.2f} {start_floor_s:7.3f} {start_times:6.1f}x "
              f"{peak_text(start_peak)} {'':6} {'':8} {'':7}  the off command on a one-line "
              "document: the fixed cost in every row below")  # fmt: skip
        for mode, with_source in MODES:
            cmd_s, floor_s, times_floor, peak = paired_costs(
                command(mode, with_source), folder, args.repeat
            )
            report = json.loads((folder / f"eval_{mode}.json").read_text(encoding="utf-8"))
            lib_s, _, lib_report = run_ours(folder, mode, with_source, 1)
            ref_s, ref_report, note = run_reference(
                folder, mode, with_source, args.reference_python, args.reference_root,
                args.timeout,
            )  # fmt: skip
            if lib_report | {"graph": report["graph"], "truth": report["truth"]} != report:
                note = "library and command DIFFER; " + note
            if ref_report is not None:
                ref_report["graph"] = report["graph"]
                ref_report["truth"] = report["truth"]
                note = "equal to reference" if ref_report == report else "DIFFERS from reference"
            ratio = f"{ref_s / cmd_s:6.1f}x" if ref_s else "    —"
            ref_text = f"{ref_s:8.2f}" if ref_s else "       —"
            label = f"{mode}{'+src' if with_source else ''}"
            micro = report["micro"]["nodes"]
            best = micro.get("aligned", micro["relaxed"])["f1"]
            print(
                f"{label:<8} {cmd_s:6.2f} {floor_s:7.3f} {times_floor:6.1f}x {peak_text(peak)} "
                f"{lib_s:6.2f} {ref_text} {ratio}  node F1 strict {micro['strict']['f1']} "
                f"best {best}; {note}"
            )


if __name__ == "__main__":
    import contextlib

    from timing import tee_results

    helper_run = "--worker" in sys.argv or "--write-inputs" in sys.argv
    with contextlib.nullcontext() if helper_run else tee_results("graph"):
        main()
