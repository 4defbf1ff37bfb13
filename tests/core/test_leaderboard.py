"""Leaderboard tables (``compare --format``, ``Comparison.to_markdown()`` ...): systems ×
metrics with intervals, the best of each column marked, directions shown — read back by pandoc
(Markdown and LaTeX, as a paper's toolchain reads them) and by the csv module."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from lxml import html
from parsescore_textkind import KIND as TEXT

from debian_tools import debian_command
from parsescore.core.aggregate import totals
from parsescore.core.compare import Comparison, compare_results
from parsescore.core.errors import InputError
from parsescore.core.kinds import Kind, registered
from parsescore.core.leaderboard import latex_escape
from parsescore.core.results import Result

#: (system, per-item (edits, chars)): "=evil_model" and "b&c_50%" test escaping.
SYSTEMS = {
    "model_a": [(1, 10), (0, 12), (2, 20), (1, 8)],
    "b&c_50%": [(3, 10), (2, 12), (5, 20), (2, 8)],
    "=evil_model": [(2, 10), (1, 12), (2, 20), (1, 8)],
}


def _result(name: str, rows: list[tuple[int, int]]) -> Result:
    counts = {f"f{i}": {"edits": float(e), "chars": float(c)} for i, (e, c) in enumerate(rows)}
    items = {item: {"cer": c["edits"] / c["chars"]} for item, c in counts.items()}
    return Result("text", name, items, totals(TEXT.totals, items, counts), counts=counts)


@pytest.fixture
def text_kind() -> Iterator[Kind]:
    with registered(TEXT) as kind:
        yield kind


@pytest.fixture
def comparison(text_kind: Kind) -> Comparison:
    results = [_result(name, rows) for name, rows in SYSTEMS.items()]
    return compare_results(results, n_resamples=300, n_permutations=300, seed=1)


def _pandoc_table(text: str, source: str) -> list[list[html.HtmlElement]]:
    pandoc = debian_command("pandoc", "pandoc", needed_by="leaderboard tests")
    run = subprocess.run(
        [pandoc, "-f", source, "-t", "html"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    page = html.fromstring(run.stdout)
    return [row.xpath("./th|./td") for row in page.xpath("//table//tr")]


def _text(cell: html.HtmlElement) -> str:
    return " ".join(cell.text_content().split())


def _check_rendered(rows: list[list[html.HtmlElement]], comparison: Comparison) -> None:
    header = [_text(cell) for cell in rows[0]]
    assert header == ["system", "CER (pooled) ↓", "CER (mean) ↓"]
    pooled = comparison.statistics["cer"].systems
    mean = comparison.metrics["cer"].systems
    best_pooled = min(pooled, key=lambda s: pooled[s].mean)
    body = {_text(cell[0]): cell[1:] for cell in rows[1:]}
    assert list(body) == list(SYSTEMS)
    for system, cells in body.items():
        s = pooled[system]
        assert _text(cells[0]) == (f"{s.mean:.4f} [{s.ci_low:.4f}, {s.ci_high:.4f}]")
        bold = cells[0].xpath(".//strong")
        assert bool(bold) == (system == best_pooled)
        assert _text(cells[1]).startswith(f"{mean[system].mean:.4f} [")


def test_markdown_renders_as_a_table_with_the_best_in_bold(comparison: Comparison) -> None:
    text = comparison.to_markdown()
    assert "b\\&c" not in text and "| b&c_50% |" in text
    _check_rendered(_pandoc_table(text, "markdown"), comparison)
    assert "95% paired-bootstrap intervals over 4 shared items" in text


def test_latex_renders_as_a_table_with_the_best_in_bold(comparison: Comparison) -> None:
    text = comparison.to_latex()
    assert r"b\&c\_50\%" in text and r"$\downarrow$" in text
    _check_rendered(_pandoc_table(text, "latex"), comparison)


def test_csv_holds_every_value_exactly_and_no_formula(comparison: Comparison) -> None:
    rows = list(csv.reader(io.StringIO(comparison.to_csv())))
    assert rows[0][:4] == ["system", "CER (pooled)", "CER (pooled) ci_low", "CER (pooled) ci_high"]
    by_system = {row[0]: row for row in rows[1:]}
    assert set(by_system) == {"model_a", "b&c_50%", "'=evil_model"}
    pooled = comparison.statistics["cer"].systems["model_a"]
    assert [float(v) for v in by_system["model_a"][1:4]] == [
        pooled.mean,
        pooled.ci_low,
        pooled.ci_high,
    ]


def test_columns_are_the_headline_ones_unless_asked(comparison: Comparison) -> None:
    """Default: the headline statistic and headline means; --metric picks."""
    assert comparison.to_markdown().splitlines()[0] == (
        "| system | CER (pooled) ↓ | CER (mean) ↓ |"
    )
    with pytest.raises(InputError, match="no column to show: cer_mean was not compared"):
        comparison.to_markdown(["cer_mean"])
    assert comparison.to_latex(["cer"]).count("&") == 2 + 2 * len(SYSTEMS) + 1


def test_latex_escapes_every_special_character() -> None:
    assert latex_escape(r"a_b%c&d#e$f{g}h~i^j\k") == (
        r"a\_b\%c\&d\#e\$f\{g\}h\textasciitilde{}i\textasciicircum{}j\textbackslash{}k"
    )


def test_the_cli_prints_and_writes_each_format(text_kind: Kind, tmp_path: Path, cli) -> None:
    paths = []
    for name, rows in SYSTEMS.items():
        path = tmp_path / f"{name.strip('=')}.json"
        _result(name, rows).write(path)
        paths.append(path)
    common = ("--resamples", "200", "--permutations", "200")
    run = cli("compare", *paths, "--format", "latex", *common)
    assert run.code == 0, run.err
    assert run.out.startswith("% parsescore compare") and r"\begin{tabular}{lrr}" in run.out
    for suffix, check in {
        ".md": lambda text: text.startswith("| system |"),
        ".tex": lambda text: r"\toprule" in text,
        ".csv": lambda text: text.startswith("system,"),
        ".json": lambda text: "statistics" in json.loads(text),
    }.items():
        out = tmp_path / f"board{suffix}"
        run = cli("compare", *paths, "--out", out, *common)
        assert run.code == 0, run.err
        assert check(out.read_text(encoding="utf-8")), suffix
    run = cli("compare", *paths, "--format", "html", *common)
    assert run.code == 2 and "html" in run.err
