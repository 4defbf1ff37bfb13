"""Reading a large Mermaid sequence diagram against scoring it, one run.

A synthetic 2,000-message ``sequenceDiagram`` (participants with aliases, every arrow kind,
notes, loops/alt/par blocks, a box) is read with our lark-based reader, its PlantUML rendering
with the PlantUML parser, and a prediction (the Mermaid text with a few edits) is scored against
the PlantUML truth. Printed: the times and the ratio reading / scoring, so reading never
dominates a cross-dialect run. With ``--mermaid`` it also times Mermaid's own parser (node +
jsdom, the tests' pinned harness; node start-up included) on the same text.

    .venv/bin/python benchmarks/bench_sequence_formats.py [--messages 2000] [--repeat 3] [--mermaid]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from parsescore.sequence.mermaid import parse_mermaid
from parsescore.sequence.metrics import compare_diagrams
from parsescore.sequence.parser import parse_plantuml

#: Mermaid arrow → the PlantUML arrow it is (the reader's mapping).
ARROWS = {"->>": "->", "-->>": "-->", "-)": "->>", "--)": "-->>", "-x": "-x", "--x": "--x"}


def diagrams(messages: int, seed: int = 14) -> tuple[str, str, str]:
    """(Mermaid truth, the same diagram in PlantUML, a Mermaid prediction with edits)."""
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(12)]
    mermaid = ["sequenceDiagram", "    box aqua Core"]
    plantuml = ["@startuml", 'box "Core" #aqua']
    for index, name in enumerate(names):
        mermaid.append(f"    participant {name} as Service number {index}")
        plantuml.append(f'participant "Service number {index}" as {name}')
        if index == 3:
            mermaid.append("    end")
            plantuml.append("end box")
    open_blocks = 0
    for number in range(messages):
        if number % 50 == 0 and open_blocks:
            mermaid.append("    end")
            plantuml.append("end")
            open_blocks -= 1
        elif number % 50 == 10:
            keyword = rng.choice(["loop", "alt", "opt", "par"])
            mermaid.append(f"    {keyword} block {number}")
            plantuml.append(f"{keyword} block {number}")
            open_blocks += 1
        a, b = rng.sample(names, 2)
        arrow = rng.choice(list(ARROWS))
        mermaid.append(f"    {a}{arrow}{b}: {number}. request with some text")
        plantuml.append(f"{a} {ARROWS[arrow]} {b} : {number}. request with some text")
        if number % 25 == 0:
            mermaid.append(f"    Note over {a},{b}: note {number}<br/>second line")
            plantuml.append(f"note over {a}, {b} : note {number}\\nsecond line")
    mermaid += ["    end"] * open_blocks
    plantuml += ["end"] * open_blocks + ["@enduml"]
    prediction = list(mermaid)
    for _ in range(messages // 20):
        i = rng.randrange(15, len(prediction))
        if "->>" in prediction[i] and ":" in prediction[i]:
            prediction[i] = prediction[i].replace("request", "reqest")
        elif rng.random() < 0.5 and "Note" not in prediction[i] and "end" not in prediction[i]:
            del prediction[i]
    return "\n".join(mermaid) + "\n", "\n".join(plantuml) + "\n", "\n".join(prediction) + "\n"


def best(repeat: int, call: object) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--mermaid", action="store_true", help="also time Mermaid's parser")
    args = parser.parse_args()
    mermaid, plantuml, prediction = diagrams(args.messages)
    truth = parse_plantuml(plantuml)
    pred = parse_mermaid(prediction)
    assert not parse_mermaid(mermaid).diagnostics and not truth.diagnostics
    assert compare_diagrams(truth, parse_mermaid(mermaid)).errors == 0  # faithful rendering
    read_mermaid = best(args.repeat, lambda: parse_mermaid(mermaid))
    read_plantuml = best(args.repeat, lambda: parse_plantuml(plantuml))
    score = best(args.repeat, lambda: compare_diagrams(truth, pred))
    errors = compare_diagrams(truth, pred).errors
    lines = mermaid.count("\n")
    print(f"Mermaid diagram: {args.messages} messages, {lines} lines; prediction: {errors} errors")
    print(f"read Mermaid (lark reader)       {read_mermaid:8.3f} s")
    print(f"read PlantUML (same diagram)     {read_plantuml:8.3f} s")
    print(f"score prediction vs truth        {score:8.3f} s")
    print(f"ratio read Mermaid / score       {read_mermaid / score:8.2f}x")
    if args.mermaid:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from mermaid_ref import mermaid_parse

        start = time.perf_counter()
        (parsed,) = mermaid_parse([mermaid])
        theirs = time.perf_counter() - start
        assert "error" not in parsed, parsed
        print(f"Mermaid's parser (node, 1 call)  {theirs:8.3f} s (node start-up included)")
        print(f"ratio ours / Mermaid's           {read_mermaid / theirs:8.2f}x")
    return 0


if __name__ == "__main__":
    from timing import tee_results

    with tee_results("sequence_formats"):
        status = main()
    raise SystemExit(status)
