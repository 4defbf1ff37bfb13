"""Every command's output files on the bundled data and the test fixtures, as recorded before
the kind-registry refactoring (issue 11): the refactored commands must write the same bytes.

``python tests/golden/record.py`` rewrites ``tests/golden/expected/`` (only when a change of
output is deliberate; say why in the commit). Each case runs the CLI in-process from the
project root, so that the paths written into the outputs are the relative ones given here.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = Path(__file__).resolve().parent / "expected"
DATA = "src/parsescore/data"
FLOW = f"{DATA}/flowchart"
SEED = "tests/flowchart/seed_example"
TABLES = f"{DATA}/table/pubtabnet_samples"
SEQ = f"{DATA}/sequence"
GRAPH = f"{DATA}/graph"
GFIX = "tests/graph/data"
#: tests/table/data/grits/grits_10.json as two cell-list files (the last table unpredicted)
GRITS_T = "tests/golden/inputs/grits_truth.json"
GRITS_P = "tests/golden/inputs/grits_pred.json"


@dataclass(frozen=True)
class Case:
    """One command line; ``{out}`` in it is the case's output folder. ``outputs`` are the files
    compared (relative to that folder); ``setup`` prepares inputs in it first."""

    name: str
    argv: tuple[str, ...]
    outputs: tuple[str, ...]
    setup: Callable[[Path], None] | None = None
    stdout: bool = False
    needs: tuple[str, ...] = field(default=())


def _matrix(out: Path) -> None:
    shutil.copytree(ROOT / GFIX / "matrix" / "input", out / "matrix")


def _fc(name: str, truth: str, pred: str, *extra: str) -> Case:
    argv = ("flowchart", "--truth", truth, "--pred", pred, "--out", "{out}/out.json")
    argv += ("--result", "{out}/result.json", *extra)
    return Case(name, argv, ("out.json", "result.json"))


def _table(name: str, *extra: str) -> Case:
    argv = ("table", "--truth", f"{TABLES}/sample_gt.json", "--pred", f"{TABLES}/sample_pred.json")
    argv += ("--out", "{out}/out.json", "--result", "{out}/result.json", "--quiet", *extra)
    return Case(name, argv, ("out.json", "result.json"))


def _graph(name: str, folder: str, *extra: str, template: str | None = None) -> Case:
    argv: tuple[str, ...] = ("graph", "--graph", f"{folder}/graph.json")
    argv += ("--truth", f"{folder}/truth.json")
    if template is not None:
        argv += ("--template", template)
    argv += ("--out", "{out}/out.json", "--result", "{out}/result.json", *extra)
    return Case(name, argv, ("out.json", "result.json"))


CASES: tuple[Case, ...] = (
    _fc("flowchart-bundled", f"{FLOW}/ground-truth", f"{FLOW}/predictions"),
    _fc(
        "flowchart-bundled-raw", f"{FLOW}/ground-truth", f"{FLOW}/predictions", "--distance", "raw"
    ),
    _fc("flowchart-seed", f"{SEED}/ground-truth", f"{SEED}/predictions"),
    _fc(
        "flowchart-allow-missing",
        f"{FLOW}/ground-truth",
        f"{SEED}/predictions",
        "--allow-missing",
    ),
    _table("table-bundled"),
    _table("table-structure-only", "--structure-only"),
    _table("table-no-grits", "--no-grits"),
    _table(
        "table-options",
        "--denominator",
        "all_descendants",
        "--normalise",
        "--grits-iou",
        "union",
        "--grits-lcs",
        "exact",
        "--ignore-nodes",
        "b,i",
    ),
    Case(
        "table-reverse",
        (
            "table",
            "--truth",
            f"{TABLES}/sample_pred.json",
            "--pred",
            f"{TABLES}/sample_gt.json",
            "--out",
            "{out}/out.json",
            "--quiet",
        ),
        ("out.json",),
    ),
    Case(
        "grits",
        (
            "grits",
            "--truth",
            GRITS_T,
            "--pred",
            GRITS_P,
            "--out",
            "{out}/out.json",
            "--result",
            "{out}/result.json",
            "--quiet",
        ),
        ("out.json", "result.json"),
    ),
    Case(
        "grits-union-exact",
        (
            "grits",
            "--truth",
            GRITS_T,
            "--pred",
            GRITS_P,
            "--out",
            "{out}/out.json",
            "--iou",
            "union",
            "--lcs",
            "exact",
            "--quiet",
        ),
        ("out.json",),
    ),
    Case(
        "teds-pair",
        (
            "teds",
            "-gt",
            "<html><body><table><tr><td>Week</td><td>Duration (min)</td></tr>"
            "<tr><td>1</td><td>20</td></tr></table></body></html>",
            "-pred",
            "<html><body><table><tr><td>Week</td><td>Duration</td></tr>"
            "<tr><td>1</td></tr></table></body></html>",
        ),
        (),
        stdout=True,
    ),
    Case(
        "sequence-two-models",
        (
            "sequence",
            "--truth",
            f"{SEQ}/truth",
            "--pred",
            f"{SEQ}/model_a",
            "--pred",
            f"{SEQ}/model_b",
            "--out",
            "{out}/out.json",
            "--result",
            "{out}/result.json",
            "--report",
            "{out}/report",
            "--quiet",
        ),
        (
            "out.json",
            "result.model_a.json",
            "result.model_b.json",
            "report/table1.md",
            "report/table1.csv",
            "report/table2.md",
            "report/table2.csv",
            "report/differences.md",
            "report/differences.csv",
        ),
    ),
    Case(
        "sequence-one-model",
        (
            "sequence",
            "--truth",
            f"{SEQ}/truth",
            "--pred",
            f"{SEQ}/model_b",
            "--out",
            "{out}/out.json",
            "--result",
            "{out}/result.json",
            "--threshold",
            "0.3",
            "--quiet",
        ),
        ("out.json", "result.json"),
    ),
    Case(
        "sequence-mwdi-self",
        (
            "sequence",
            "--truth",
            "tests/sequence/data/mwdi",
            "--pred",
            "tests/sequence/data/mwdi",
            "--out",
            "{out}/out.json",
            "--quiet",
        ),
        ("out.json",),
    ),
    _graph(
        "graph-bundled",
        GRAPH,
        "--source",
        f"{GRAPH}/source.md",
        template=f"{GRAPH}/library_template.py:Library",
    ),
    _graph(
        "graph-library-on",
        f"{GFIX}/library",
        "--source",
        f"{GFIX}/library/source.md",
        "--structural-align",
        "on",
        template=f"{GFIX}/library_template.py:Library",
    ),
    _graph(
        "graph-library-off",
        f"{GFIX}/library",
        "--structural-align",
        "off",
        template=f"{GFIX}/library_template.py:Library",
    ),
    _graph(
        "graph-catalog",
        f"{GFIX}/catalog",
        "--source",
        f"{GFIX}/catalog/source.md",
        template=f"{GFIX}/catalog_template.py:Catalog",
    ),
    _graph(
        "graph-study",
        f"{GFIX}/study",
        "--source",
        f"{GFIX}/study/source.md",
        template=f"{GFIX}/study_template.py:Study",
    ),
    Case(
        "graph-aggregate",
        ("graph-aggregate", "--root", "{out}/matrix", "--quiet"),
        ("matrix/_aggregate.json", "matrix/synthesis_report.md", "matrix/_aggregate.csv"),
        setup=_matrix,
    ),
    Case(
        "graph-audit",
        (
            "graph-audit",
            "--graph",
            f"{GFIX}/audit/graph.json",
            "--out",
            "{out}/out.json",
            "--markdown",
            "{out}/out.md",
        ),
        ("out.json", "out.md"),
    ),
    Case(
        "graph-audit-bundled",
        (
            "graph-audit",
            "--graph",
            f"{GRAPH}/graph.json",
            "--provenance",
            f"{GRAPH}/provenance.json",
            "--template",
            f"{GRAPH}/library_template.py:Library",
            "--out",
            "{out}/out.json",
        ),
        ("out.json",),
    ),
    *(
        Case(f"schema-{kind}", ("schema", kind, "--out", "{out}/schema.json"), ("schema.json",))
        for kind in ("flowchart", "table", "grits", "sequence", "graph", "compare", "result", "any")
    ),
)

#: ``compare`` over the outputs of other cases (recorded after them).
COMPARE_CASES: tuple[Case, ...] = (
    Case(
        "compare-flowchart",
        (
            "compare",
            "{golden}/flowchart-bundled/out.json",
            "{golden}/flowchart-bundled-raw/out.json",
            "--out",
            "{out}/out.json",
            "--resamples",
            "500",
            "--permutations",
            "500",
        ),
        ("out.json",),
    ),
    Case(
        "compare-table-envelopes",
        (
            "compare",
            "{golden}/table-bundled/result.json",
            "{golden}/table-reverse/out.json",
            "--name",
            "a",
            "--name",
            "b",
            "--out",
            "{out}/out.json",
            "--resamples",
            "500",
        ),
        ("out.json",),
    ),
    Case(
        "compare-sequence-models",
        (
            "compare",
            "{golden}/sequence-two-models/out.json",
            "--out",
            "{out}/out.json",
            "--resamples",
            "500",
            "--permutations",
            "500",
        ),
        ("out.json",),
    ),
    Case(
        "compare-graph",
        (
            "compare",
            "{golden}/graph-library-on/out.json",
            "{golden}/graph-library-off/result.json",
            "--out",
            "{out}/out.json",
            "--resamples",
            "300",
        ),
        ("out.json",),
    ),
)


def run_case(case: Case, out: Path, golden: Path, capsys: object = None) -> dict[str, bytes]:
    """Run one case in-process from the project root; ``{name: bytes}`` of its outputs."""
    import contextlib
    import io
    import os

    from parsescore.cli.main import main

    out.mkdir(parents=True, exist_ok=True)
    if case.setup is not None:
        case.setup(out)
    argv = [a.replace("{out}", str(out)).replace("{golden}", str(golden)) for a in case.argv]
    stdout = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(stdout):
            try:
                main(argv)
            except SystemExit as stop:
                if stop.code not in (0, None):
                    raise AssertionError(f"{case.name}: exit {stop.code}") from None
    finally:
        os.chdir(cwd)
    found = {name: (out / name).read_bytes() for name in case.outputs}
    if case.stdout:
        found["stdout.txt"] = stdout.getvalue().encode("utf-8")
    for name, data in found.items():
        assert str(out).encode() not in data, f"{case.name}/{name} holds the temporary path"
    return found
