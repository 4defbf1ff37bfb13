"""Benchmark: ``parsescore document`` (profile omnidocbench) vs OmniDocBench v1.5's own
end-to-end evaluation, on the same 1,000 pages, in the same run.

The pages are made at run time (nothing of them is shipped): OmniDocBench's demo pages
(``$OMNIDOCBENCH_DIR/demo_data``: its page list and one Markdown per page) when that checkout is
there, else parsescore's bundled demo pages — each repeated under new image names, its
prediction varied (paragraphs dropped, swapped, repeated, characters changed, the file as it
is) with a fixed seed. OmniDocBench's demo pages are licensed for research only: they are read
where they are and written to a temporary folder, never into the project.

The reference runs in its own Python (``$OMNIDOCBENCH_PYTHON``) as a subprocess through
``tests/document/run_reference.py``; its time is the evaluation it reports (imports left out),
ours the ``parsescore.evaluate`` call (imports left out too; the median of three runs, each
printed), single-process, then with ``--jobs`` (the median of three wall times). Both
``metric_result.json`` documents are compared value for value. The ratio and the numbers are
printed and written to ``benchmarks/results/document.txt``.

Run: ``.venv/bin/python benchmarks/bench_document.py [--pages 1000] [--jobs 2]`` (the
reference takes about a quarter of a second a page).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import parsescore

ROOT = Path(__file__).resolve().parent.parent
REFERENCE_DIR = Path(os.environ.get("OMNIDOCBENCH_DIR", "/work/omnidocbench"))
REFERENCE_PYTHON = Path(
    os.environ.get("OMNIDOCBENCH_PYTHON", "/work/omnidocbench-env/bin/python")
)
BUNDLED = ROOT / "src" / "parsescore" / "data" / "document"
RESULTS = ROOT / "benchmarks" / "results" / "document.txt"


def source_pages() -> tuple[list[dict[str, Any]], dict[str, str], str]:
    """The pages to repeat: their truth, ``{image stem: Markdown}`` and where they came from."""
    demo = REFERENCE_DIR / "demo_data"
    truth_file = demo / "omnidocbench_demo" / "OmniDocBench_demo.json"
    if truth_file.is_file() and (demo / "end2end").is_dir():
        pages, folder, origin = json.loads(truth_file.read_text()), demo / "end2end", "demo"
    else:
        pages = json.loads((BUNDLED / "truth.json").read_text())
        folder, origin = BUNDLED / "model_a", "bundled"
    answers = {}
    for page in pages:
        stem = os.path.basename(page["page_info"]["image_path"])[:-4]
        path = folder / f"{stem}.md"
        if path.is_file():
            answers[stem] = path.read_text(encoding="utf-8")
    return [p for p in pages if os.path.basename(p["page_info"]["image_path"])[:-4] in answers], \
        answers, origin  # fmt: skip


def vary(markdown: str, rng: random.Random) -> str:
    """One model-like variation of a page's Markdown."""
    paragraphs = [p for p in re.split(r"\n\s*\n", markdown) if p.strip()]
    choice = rng.randrange(5)
    if choice == 1 and len(paragraphs) > 1:
        paragraphs.pop(rng.randrange(len(paragraphs)))
    elif choice == 2 and len(paragraphs) > 1:
        i, j = rng.sample(range(len(paragraphs)), 2)
        paragraphs[i], paragraphs[j] = paragraphs[j], paragraphs[i]
    elif choice == 3 and paragraphs:
        k = rng.randrange(len(paragraphs))
        paragraphs.insert(k, paragraphs[k])
    elif choice == 4:  # misread letters of words (markup intact: tags, commands, fences)
        text = "\n\n".join(paragraphs)
        markup = {k for m in _MARKUP.finditer(text) for k in range(m.start(), m.end())}
        letters = [k for k, c in enumerate(text) if c.isalpha() and k not in markup]
        chars = list(text)
        for k in rng.sample(letters, min(len(letters), max(1, len(text) // 50))):
            chars[k] = rng.choice("aeiou")
        return "".join(chars)
    return "\n\n".join(paragraphs)


#: What a misread letter never touches: HTML tags, LaTeX commands, code-fence lines.
_MARKUP = re.compile(r"<[^>]*>|\\[A-Za-z]+|^```.*$", re.MULTILINE)


def make_dataset(n_pages: int, folder: Path, seed: int = 0) -> tuple[Path, Path, str]:
    """``n_pages`` pages (truth JSON, prediction folder) made from the source pages."""
    pages, answers, origin = source_pages()
    rng = random.Random(seed)
    truth: list[dict[str, Any]] = []
    pred = folder / "pred"
    pred.mkdir(parents=True, exist_ok=True)
    for k in range(n_pages):
        page = json.loads(json.dumps(pages[k % len(pages)]))
        image = os.path.basename(page["page_info"]["image_path"])
        stem, suffix = image[:-4], image[-4:]
        new_stem = f"{stem}_v{k:04d}"
        page["page_info"]["image_path"] = new_stem + suffix
        truth.append(page)
        (pred / f"{new_stem}.md").write_text(vary(answers[stem], rng), encoding="utf-8")
    truth_file = folder / "truth.json"
    truth_file.write_text(json.dumps(truth, ensure_ascii=False), encoding="utf-8")
    return truth_file, pred, origin


def run_reference(
    truth: Path, pred: Path, out: Path
) -> tuple[float, float, dict[str, Any]] | None:
    """OmniDocBench's evaluation wall and CPU seconds (its own clocks, imports left out) and
    its document."""
    if not REFERENCE_PYTHON.is_file() or not (REFERENCE_DIR / "dataset").is_dir():
        return None
    script = ROOT / "tests" / "document" / "run_reference.py"
    done = subprocess.run(
        [str(REFERENCE_PYTHON), str(script), str(REFERENCE_DIR), str(truth), str(pred), str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds = float(re.findall(r"^SECONDS ([0-9.]+)", done.stdout, re.M)[-1])
    cpu = float(re.findall(r"^CPU_SECONDS ([0-9.]+)", done.stdout, re.M)[-1])
    document = json.loads(
        (out / "result" / f"{pred.name}_quick_match_metric_result.json").read_text()
    )
    return seconds, cpu, document


def run_ours(truth: Path, pred: Path, jobs: int) -> tuple[float, float, dict[str, Any]]:
    """Wall and CPU seconds of ``parsescore.evaluate`` (this process; workers' CPU not
    counted) and its ``metric_result`` document."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = parsescore.evaluate("document", truth, pred, jobs=jobs, quiet=True)
    return time.perf_counter() - wall, time.process_time() - cpu, result.native


def fresh_peak_mib(truth: Path, pred: Path) -> float:
    """Peak memory of a new process scoring the pages (single process): what the pages cost,
    unmixed with this process's other runs. Read from its ``VmHWM`` (ru_maxrss would start
    from this process's peak: Linux keeps it across fork and exec)."""
    code = ("import re, sys, parsescore; "
            "parsescore.evaluate('document', sys.argv[1], sys.argv[2], quiet=True); "
            "status = open('/proc/self/status').read(); "
            "print(re.search(r'VmHWM:\\s*(\\d+)', status)[1])")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code, str(truth), str(pred)],
                          capture_output=True, text=True, check=True)  # fmt: skip
    return int(done.stdout.split()[-1]) / 1024


def differences(ours: Any, theirs: Any, path: str = "") -> list[str]:
    """Where two documents differ (NaN equals NaN)."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        found = [f"{path}/{k}: only in one" for k in set(ours) ^ set(theirs)]
        for key in sorted(set(ours) & set(theirs)):
            found += differences(ours[key], theirs[key], f"{path}/{key}")
        return found
    if isinstance(ours, float) and isinstance(theirs, float) and ours != ours:
        return [] if theirs != theirs else [path]
    return [] if ours == theirs else [f"{path}: {ours!r} vs {theirs!r}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2, help="also time ours with this many jobs")
    parser.add_argument("--no-reference", action="store_true", help="time parsescore only")
    args = parser.parse_args()
    lines: list[str] = []

    def say(text: str) -> None:
        print(text, flush=True)
        lines.append(text)

    with tempfile.TemporaryDirectory(prefix="bench-document-") as tmp:
        folder = Path(tmp)
        truth, pred, origin = make_dataset(args.pages, folder)
        say(f"{args.pages} pages made from the {origin} pages (seed 0)")
        parsescore.evaluate("document", truth, pred, quiet=True)  # imports, lazy loads
        runs = [run_ours(truth, pred, 1) for _ in range(3)]
        ours_wall = statistics.median(run[0] for run in runs)
        ours_cpu = statistics.median(run[1] for run in runs)
        ours_doc = runs[0][2]
        say(f"parsescore, 1 process (median of 3): {ours_wall:.2f} s wall, {ours_cpu:.2f} s CPU, "
            f"{1000 * ours_wall / args.pages:.1f} ms a page; CPU of each run "
            + ", ".join(f"{run[1]:.2f}" for run in runs))  # fmt: skip
        half = max(1, args.pages // 2)
        half_truth, half_pred, _ = make_dataset(half, folder / "half")
        half_wall, _, _ = run_ours(half_truth, half_pred, 1)
        say(f"parsescore, {half} pages: {half_wall:.2f} s wall "
            f"(x{ours_wall / half_wall:.2f} for x{args.pages / half:.1f} pages)")  # fmt: skip
        if args.jobs > 1:
            jobs_runs = [run_ours(truth, pred, args.jobs) for _ in range(3)]
            jobs_wall = statistics.median(run[0] for run in jobs_runs)
            jobs_doc = jobs_runs[0][2]
            say(f"parsescore, --jobs {args.jobs} (median of 3): {jobs_wall:.2f} s wall "
                f"(x{ours_wall / jobs_wall:.2f} of 1 process; same document: "
                f"{not differences(jobs_doc, ours_doc)})")  # fmt: skip
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        say(f"parsescore peak memory (this process): {rss:.0f} MiB")
        peak_half, peak_all = fresh_peak_mib(half_truth, half_pred), fresh_peak_mib(truth, pred)
        sizes = [path.stat().st_size / 2**20 for path in (half_truth, truth)]
        say(f"parsescore peak memory, a fresh process each: {peak_half:.0f} MiB for {half} pages, "
            f"{peak_all:.0f} MiB for {args.pages} (truth JSON {sizes[0]:.0f} and {sizes[1]:.0f} "
            "MiB)")  # fmt: skip
        reference = None if args.no_reference else run_reference(truth, pred, folder / "ref")
        if reference is None:
            say("OmniDocBench not found (OMNIDOCBENCH_DIR, OMNIDOCBENCH_PYTHON): no ratio")
        else:
            ref_seconds, ref_cpu, ref_doc = reference
            diff = differences(ours_doc, ref_doc)
            say(f"OmniDocBench v1.5, 1 process: {ref_seconds:.2f} s wall, {ref_cpu:.2f} s CPU, "
                f"{1000 * ref_seconds / args.pages:.1f} ms a page")  # fmt: skip
            say(f"ratio, single process: {ref_cpu / ours_cpu:.1f}x less CPU, "
                f"{ref_seconds / ours_wall:.1f}x less wall time (a loaded machine: CPU is the "
                "steadier measure)")  # fmt: skip
            say("metric_result.json identical to the reference's: "
                + ("yes" if not diff else f"NO, {len(diff)} differences: {diff[:5]}"))  # fmt: skip
    if args.pages == 1000 and not args.no_reference:
        RESULTS.parent.mkdir(exist_ok=True)
        stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        with RESULTS.open("a", encoding="utf-8") as out:
            out.write(f"## {stamp} ({os.cpu_count()} cores, python {sys.version.split()[0]})\n")
            out.write("\n".join(lines) + "\n\n")
        print(f"Wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
