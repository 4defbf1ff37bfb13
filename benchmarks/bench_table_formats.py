"""Benchmark: reading a 60x15 table in each format (``to_html``) against the TEDS of that table
and a one-cell edit of it, same run. The aim: reading costs under 10% of scoring. Prints each
reader's share and keeps the table in ``table_formats_results.txt``.

The renderings are made here, as a model would write them (GFM pipes, a booktabs tabular, CSV,
TSV, OTSL tokens); the HTML document is the reference's input and costs nothing to read.

    .venv/bin/python benchmarks/bench_table_formats.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from parsescore.shared.tables.formats import read_table, to_html
from parsescore.table import TEDS

ROWS, COLS = 60, 15
AIM = 10  # percent of a TEDS: issue 29's bound for every reader
WORDS = ["total", "n", "12", "0.5", "p<0.05", "Group A", "±3.2", "β", "mean (SD)", "—"]


def grid(seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [
        [
            " ".join(rng.sample(WORDS, rng.randint(1, 2))) if rng.random() > 0.1 else ""
            for _ in range(COLS)
        ]
        for _ in range(ROWS)
    ]


def markdown(rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * COLS]
    lines += [
        "| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows[1:]
    ]
    return "\n".join(lines)


def latex(rows: list[list[str]]) -> str:
    def cell(text: str) -> str:
        return text.replace("%", "\\%").replace("<", "\\textless{}")

    body = [" & ".join(cell(c) for c in row) + " \\\\" for row in rows]
    head = ["\\begin{tabular}{" + "l" * COLS + "}", "\\toprule", body[0], "\\midrule"]
    return "\n".join([*head, *body[1:], "\\bottomrule", "\\end{tabular}"])


def delimited(rows: list[list[str]], delimiter: str) -> str:
    import csv
    import io

    buffer = io.StringIO()
    csv.writer(buffer, delimiter=delimiter, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def otsl(rows: list[list[str]]) -> str:
    tokens = ["<otsl>"]
    for k, row in enumerate(rows):
        for text in row:
            tokens.append(("<ched>" if k == 0 else "<fcel>") + text if text else "<ecel>")
        tokens.append("<nl>")
    return "".join(tokens) + "</otsl>"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument(
        "--results",
        type=Path,
        default=Path(__file__).with_name("table_formats_results.txt"),
        help="where the printed table is kept (default: %(default)s)",
    )
    args = parser.parse_args()
    rows = grid(7)
    texts = {
        "markdown": markdown(rows),
        "latex": latex(rows),
        "csv": delimited(rows, ","),
        "tsv": delimited(rows, "\t"),
        "otsl": otsl(rows),
    }
    truth = to_html(texts["markdown"], "markdown")
    edited = [row[:] for row in rows]
    edited[30][7] = "edited"
    pred = to_html(markdown(edited), "markdown")
    for name, text in texts.items():  # every rendering reads back to the same table
        assert TEDS()(truth, read_table(text, name).html) == 1.0, name
    # rounds interleave TEDS and every reader (CPU time of this process), so that a busy machine
    # slows both sides of each ratio alike; the share is the median of the rounds' ratios
    jobs: dict[str, Callable[[], object]] = {"TEDS": lambda: TEDS()(truth, pred)}
    jobs.update({name: (lambda t=text, n=name: to_html(t, n)) for name, text in texts.items()})
    seconds: dict[str, list[float]] = {name: [] for name in jobs}
    for _ in range(args.repeat):
        for name, job in jobs.items():
            start = time.process_time()
            job()
            seconds[name].append(time.process_time() - start)
    teds = seconds["TEDS"]
    lines = [
        f"{ROWS}x{COLS} table; TEDS of it and a one-cell edit: "
        f"{statistics.median(teds) * 1000:.1f} ms CPU (median of {args.repeat} rounds)",
        f"{'format':10} {'to_html [ms]':>13} {'of TEDS':>9}",
    ]
    for name in texts:
        share = statistics.median(r / t for r, t in zip(seconds[name], teds, strict=True)) * 100
        verdict = "" if share < AIM else f"  (above the {AIM}% aim)"
        lines.append(
            f"{name:10} {statistics.median(seconds[name]) * 1000:13.2f} {share:8.1f}%{verdict}"
        )
    report = "\n".join(lines)
    print(report)
    args.results.write_text(report + "\n", encoding="utf-8")


if __name__ == "__main__":
    from timing import tee_results

    with tee_results("table_formats"):
        main()
