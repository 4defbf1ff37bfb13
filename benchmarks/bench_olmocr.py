"""Benchmark: ``parsescore document --truth-format olmocr-bench`` vs olmOCR-bench's own harness
(allenai/olmocr f7cfe4c2, its ``benchmark.main()``) on the same synthetic benchmark, in the same
run; both as command lines, so both pay their start-up.

The synthetic benchmark has olmOCR-bench's shape (see ``make_benchmark``; math tests rendered by
the harness in Debian's Chromium, by parsescore in node's KaTeX with ``--katex-dir``), and a
candidate with ``--repeats`` repeats per page whose text mostly, not always, matches. Prints both
times, the ratio, whether the verdicts agree, and ours with ``--jobs 2``.

    .venv/bin/python benchmarks/bench_olmocr.py --reference-python /work/olmocr-env/bin/python \
        --olmocr-src SRC --katex-dir DIR [--pages 1400] [--repeats 1]

``SRC`` holds the harness's files as ``tests/document/olmocr/record_olmocr_goldens.py`` extracts
them (``--mirror GIT_DIR`` extracts them into a temporary folder instead). ``--pages 1400`` is the
real benchmark's size. ``--no-math`` leaves the math pages out (the other kinds in the same
proportions): the harness renders every formula in a fresh Chromium page and waits for the
network to be idle, about a third of a second each on two cores, so its math pages dominate:
the default (400 pages, about 2,300 tests, 665 of them math) takes it over twenty minutes,
1400 pages over an hour; without math 1400 pages take it about half a minute.

Both sides' CPU time is measured (the command's and its waited-for descendants': the harness's
Playwright driver and what it reaps, our node), as well as wall time; on a machine shared with
other work CPU is the steadier measure (without math: with math, processes nobody waits for go
uncounted on both sides). The lines are appended to ``benchmarks/results/olmocr.txt``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "document" / "olmocr"))

WORDS = [
    "alpha", "bridge", "committee", "winter", "valley", "season", "report", "results", "revenue",
    "costs", "north", "south", "method", "data", "model", "table", "figure", "sample", "measured",
    "value", "increase", "decrease", "total", "annual", "quarter", "region", "growth", "market",
    "policy", "river", "station", "energy", "signal", "network", "layer",
]  # fmt: skip


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))).capitalize() + "."


def _formula(rng: random.Random) -> str:
    a, b, c = rng.sample("abcdxyzuvw", 3)
    n = rng.randint(2, 9)
    return rng.choice([
        f"\\frac{{{a}}}{{{b}}} + {c}^{{{n}}}",
        f"\\sum_{{i=1}}^{{{n}}} {a}_{{i}} {b}",
        f"\\int_0^{{{n}}} {a}({b})\\,d{b}",
        f"{a}^2 + {b}^2 = {c}^{n}",
        f"\\sqrt{{{a} + {b}}} \\leq {c} + {n}",
        f"\\alpha_{{{a}}} \\beta^{{{b}}} = {n}",
    ])  # fmt: skip


def make_benchmark(root: Path, pages: int, repeats: int, seed: int = 27, *,
                   math: bool = True) -> None:
    """Write ``root/{*.jsonl, pdfs/, cand/}``: pages of olmOCR-bench's kinds, roughly in its
    proportions: math pages (a third: twelve formulas, five ``math`` tests), table pages (five
    ``table`` tests each, HTML or Markdown tables), multi-column
    pages (five ``order`` tests), header/footer pages (three ``absent``, one ``present``) and
    long-text pages (four ``present``), one JSONL file per kind."""
    from olmocr_cases import pdf_bytes

    rng = random.Random(seed)
    (root / "pdfs").mkdir(parents=True)
    (root / "cand").mkdir()
    files: dict[str, list[str]] = {}
    blank = pdf_bytes(1)
    kinds = ["table", "multi_column", "headers_footers", "long_tiny_text", "math", "math"]
    if not math:
        kinds = kinds[:4]
    for p in range(pages):
        pdf = f"doc{p:05d}.pdf"
        (root / "pdfs" / pdf).write_bytes(blank)
        kind = kinds[p % len(kinds)]
        sentences = [_sentence(rng) for _ in range(rng.randint(25, 50))]
        tests: list[dict[str, object]] = []
        table = ""
        if kind == "table":
            rows = [[f"r{r}c{c}v{rng.randint(0, 999)}" for c in range(6)] for r in range(8)]
            if p % 8 == 0:
                table = "\n".join("| " + " | ".join(row) + " |" for row in rows[:1]) + "\n"
                table += "|" + "---|" * 6 + "\n"
                table += "\n".join("| " + " | ".join(row) + " |" for row in rows[1:])
            else:
                table = "<table><thead><tr>" + "".join(f"<th>{c}</th>" for c in rows[0])
                table += "</tr></thead><tbody>" + "".join(
                    "<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>"
                    for row in rows[1:]) + "</tbody></table>"
            for _ in range(5):
                r, c = rng.randint(1, 7), rng.randint(1, 4)
                tests.append({"type": "table", "cell": rows[r][c], "up": rows[r - 1][c],
                              "right": rows[r][c + 1], "top_heading": rows[0][c]})
        elif kind == "multi_column":
            for _ in range(5):
                a, b = sorted(rng.sample(range(len(sentences)), 2))
                tests.append({"type": "order", "before": sentences[a][:40],
                              "after": sentences[b][:40], "max_diffs": rng.randint(0, 3)})
        elif kind == "math":
            formulas = [_formula(rng) for _ in range(12)]
            for k, formula in enumerate(formulas):
                sentences.insert(2 * k + 1, f"$${formula}$$" if k % 2 else f"\\({formula}\\)")
            for formula in formulas[:3]:
                tests.append({"type": "math", "math": formula})
            tests.append({"type": "math", "math": formulas[3].replace(" ", "")})
            tests.append({"type": "math", "math": _formula(rng)})
        elif kind == "headers_footers":
            header = f"Journal of Things {rng.randint(1, 99)} page {rng.randint(1, 400)}"
            tests += [{"type": "absent", "text": header, "max_diffs": 2},
                      {"type": "absent", "text": _sentence(rng)},
                      {"type": "absent", "text": f"Copyright {rng.randint(1990, 2024)}"},
                      {"type": "present", "text": rng.choice(sentences)}]
            if rng.random() < 0.3:
                sentences.insert(0, header)
        else:
            for _ in range(4):
                tests.append({"type": "present", "text": rng.choice(sentences),
                              "max_diffs": rng.randint(0, 4)})
        group = files.setdefault(f"{kind}.jsonl", [])
        for k, test in enumerate(tests):
            group.append(json.dumps({"pdf": pdf, "page": 1, "id": f"{pdf}_{k}", **test}))
        body = "\n\n".join([*sentences[:10], table, *sentences[10:]])
        for rep in range(1, repeats + 1):
            text = body
            if rng.random() < 0.3:  # a worse repeat: sentences dropped and shuffled
                kept = sentences[:]
                rng.shuffle(kept)
                text = "\n\n".join(kept[: len(kept) // 2]) + "\n\n" + table
            (root / "cand" / f"doc{p:05d}_pg1_repeat{rep}.md").write_text(text, encoding="utf-8")
    for name, lines in files.items():
        (root / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


REFERENCE = r"""
import sys, types, time, json
source, folder, target, tests = sys.argv[1:5]
sys.path.insert(0, source)
sys.path.insert(0, tests)
report = types.ModuleType("olmocr.bench.report"); report.generate_html_report = None
sys.modules["olmocr.bench.report"] = report
from olmocr.bench import benchmark
captured = {}
original = benchmark.evaluate_candidate
def wrapped(*a, **k):
    captured["r"] = original(*a, **k)
    return captured["r"]
benchmark.evaluate_candidate = wrapped
from run_olmocr_reference import use_debian_chromium
use_debian_chromium()
sys.argv = ["benchmark", "--dir", folder, "--candidate", "cand", "--bootstrap_samples", "10"]
benchmark.main()
passed = {t.id: p for pages in captured["r"][6].values() for v in pages.values() for t, p, _ in v}
open(target, "w").write(json.dumps(passed))
"""


RESULTS = HERE / "results" / "olmocr.txt"


def _run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """The command's wall and CPU seconds (user + system, its waited-for children included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{command[:3]} failed:\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reference-python", required=True)
    parser.add_argument("--olmocr-src")
    parser.add_argument("--mirror")
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--katex-dir", help="folder with node_modules/katex (math tests)")
    parser.add_argument("--no-math", action="store_true", help="no math pages (see above)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = args.olmocr_src
        if source is None:
            if args.mirror is None:
                raise SystemExit("give --olmocr-src or --mirror")
            from record_olmocr_goldens import extract

            source = str(Path(tmp) / "src")
            extract(args.mirror, Path(source))
        bench = Path(tmp) / "bench"
        make_benchmark(bench, args.pages, args.repeats, math=not args.no_math)
        # byte-code caches written for both (a warm-up run on 5 pages), as on a user's machine
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["HOME"] = tmp
        if args.katex_dir:
            env["PARSESCORE_KATEX_DIR"] = args.katex_dir
        warm = Path(tmp) / "warm"
        make_benchmark(warm, 5, 1, math=not args.no_math)
        tests = sum(len(p.read_text().splitlines()) for p in bench.glob("*.jsonl")) + args.pages
        maths = len((bench / "math.jsonl").read_text().splitlines()) if not args.no_math else 0
        lines = [f"{args.pages} pages, {tests} tests (with the automatic baselines; {maths} math), "
                 f"{args.repeats} repeat(s)"]  # fmt: skip
        print(lines[0], flush=True)
        script = Path(tmp) / "reference.py"
        script.write_text(REFERENCE)
        verdicts = Path(tmp) / "reference.json"
        tests_dir = str(ROOT / "tests" / "document" / "olmocr")
        _run([args.reference_python, str(script), source, str(warm), str(verdicts), tests_dir],
             env)  # fmt: skip
        _run([sys.executable, "-m", "parsescore", "document", "--truth", str(warm), "--pred",
              str(warm / "cand"), "--truth-format", "olmocr-bench", "--quiet"], env)
        reference = _run([args.reference_python, str(script), source, str(bench), str(verdicts),
                          tests_dir], env)  # fmt: skip
        ours_out = Path(tmp) / "ours.json"
        command = [sys.executable, "-m", "parsescore", "document", "--truth", str(bench), "--pred",
                   str(bench / "cand"), "--truth-format", "olmocr-bench", "--quiet", "--out",
                   str(ours_out)]
        ours = _run(command, env)
        ours2 = _run([*command, "--jobs", "2"], env)
        theirs = json.loads(verdicts.read_text())
        mine = {k: v["passed"] for k, v in json.loads(ours_out.read_text())["tests"].items()}
        agree = sum(theirs[k] == mine.get(k) for k in theirs)
        lines += [
            f"reference harness: {reference[0]:8.2f} s wall {reference[1]:8.2f} s CPU",
            f"parsescore:        {ours[0]:8.2f} s wall {ours[1]:8.2f} s CPU   "
            f"({reference[1] / ours[1]:.1f}x less CPU, {reference[0] / ours[0]:.1f}x less wall)",
            f"parsescore -j 2:   {ours2[0]:8.2f} s wall {ours2[1]:8.2f} s CPU   "
            f"({ours[0] / ours2[0]:.2f}x the wall of -j 1, {ours2[1] / ours[1]:.2f}x its CPU; "
            f"{reference[1] / ours2[1]:.1f}x less CPU, {reference[0] / ours2[0]:.1f}x less wall "
            "than the harness)",
            f"verdicts equal: {agree}/{len(theirs)}",
        ]
        if maths:
            lines.append("(math: -j 2's CPU leaves out its workers' node processes, which the "
                         "pool's workers exit without waiting for; the harness's CPU may leave "
                         "out Chromium's: compare wall times)")  # fmt: skip
        for line in lines[1:]:
            print(line, flush=True)
        stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=False).stdout.strip()
        RESULTS.parent.mkdir(exist_ok=True)
        with RESULTS.open("a", encoding="utf-8") as out:
            load = os.getloadavg()[0]
            out.write(f"## {stamp}, commit {commit} ({os.cpu_count()} cores, load average "
                      f"{load:.1f} at the end, python {sys.version.split()[0]}): "
                      f"bench_olmocr.py --pages {args.pages} "
                      f"--repeats {args.repeats}{' --no-math' if args.no_math else ''}\n")
            out.write("\n".join(lines) + "\n\n")
        print(f"Appended to {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
