"""The graph kind under the core contract (issue 24): options declared once, totals computed by
the core from the items' counts (equal to eval.json's micro, to the last bit), one reader per
format, summaries printed from the Result alone, and bad input as InputError."""

from __future__ import annotations

import io
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from cli_helpers import Cli
from parsescore import evaluate, load_result
from parsescore.core.errors import InputError
from parsescore.core.kinds import get_kind, resolved
from parsescore.core.options import declared
from parsescore.core.results import Result
from parsescore.graph.api import evaluate_files
from parsescore.graph.io import read_graph, read_instance
from parsescore.graph.kind import FORMATS, RUNGS
from parsescore.graph.options import GraphOptions
from parsescore.graph.summary import summarise
from parsescore.graph.template import load_template

DATA = Path(__file__).parent / "data"
BUNDLED = Path(__file__).resolve().parents[2] / "src/parsescore/data/graph"
TEMPLATE = f"{DATA / 'library_template.py'}:Library"
DATASET = DATA / "dataset"


# -- options ------------------------------------------------------------------------------------


def test_every_declared_option_is_a_flag_of_the_command(cli: Cli) -> None:
    shown = cli("graph", "--help").out
    for option in declared(GraphOptions):
        assert option.where == "both", option.name  # every option is both a keyword and a flag
        for flag in option.flags:
            assert flag in shown, flag
    # --pred as in every kind; --graph, the reference's name, still accepted but not shown
    assert "--pred PATH" in shown and "--graph" not in shown
    assert {o.name for o in declared(GraphOptions)} >= {"jobs", "dask_scheduler", "cache", "quiet"}


def test_dataset_options_have_no_effect_on_one_document(tmp_path: Path) -> None:
    """One document is scored in the calling process: jobs, cache and quiet are accepted (one
    call serves both modes) and change nothing."""
    files = {"truth": DATA / "library/truth.json", "pred": DATA / "library/graph.json"}
    plain = evaluate("graph", *files.values(), template=TEMPLATE)
    busy = evaluate(
        "graph", *files.values(), template=TEMPLATE, jobs=2, cache=tmp_path / "c", quiet=True
    )
    assert busy == plain and busy.native == plain.native
    assert not (tmp_path / "c").exists()


def test_the_name_flag_names_the_system(tmp_path: Path, cli: Cli) -> None:
    out = tmp_path / "r.json"
    run = cli(
        "graph", "--graph", DATA / "library/graph.json", "--truth", DATA / "library/truth.json",
        "--template", TEMPLATE, "--name", "mine", "--result", out,
    )  # fmt: skip
    assert run.code == 0, run.err
    assert json.loads(out.read_text("utf-8"))["system"] == "mine"


def test_option_values_are_checked_once_by_the_declaration(cli: Cli) -> None:
    with pytest.raises(InputError, match="option 'enum_ids' must be one of reference, value"):
        evaluate("graph", "t.json", "g.json", enum_ids="name")
    with pytest.raises(InputError, match="only apply without a template"):
        evaluate("graph", "t.json", "g.json", template=TEMPLATE, id_fields=["A=b"])
    with pytest.raises(InputError, match="--id-fields expects Class=field1,field2, got 'A'"):
        GraphOptions(id_fields=("A",))
    with pytest.raises(InputError, match="unknown option 'graph'"):
        evaluate("graph", "t.json", "g.json", graph="x")
    run = cli("graph", "--graph", "g.json", "--truth", "t.json", "--id-fields", "A")
    assert (run.code, run.err) == (2, "error: --id-fields expects Class=field1,field2, got 'A'\n")


def test_recorded_options_are_today_s() -> None:
    """Result.options: the mode; the identity fields and root class only without a template
    (given as a mapping or as Class=field strings); the opt-outs only when taken;
    allow_missing only for a dataset."""
    generic = GraphOptions(id_fields={"A": ["x", "y"]}, allow_missing=True)
    assert generic.recorded(dataset=False) == {
        "structural_align": "auto",
        "id_fields": ["A=x,y"],
        "root_class": None,
    }
    assert list(generic.recorded(dataset=True)) == [
        "structural_align", "id_fields", "root_class", "allow_missing",
    ]  # fmt: skip
    templated = GraphOptions(template="t:T", enum_ids="value", normalise_source_accents=True)
    assert templated.recorded(dataset=True) == {
        "structural_align": "auto",
        "enum_ids": "value",
        "normalise_source_accents": True,
    }


# -- readers ------------------------------------------------------------------------------------


def test_the_reader_registry_reads_the_kind_s_model() -> None:
    assert [f.name for f in get_kind("graph").formats] == ["graph.json", "instance"]
    graph_json, instance = FORMATS
    text = (DATA / "library/graph.json").read_text("utf-8")
    assert graph_json.read(text) == read_graph(text)
    assert graph_json.detect is not None and graph_json.detect(text)
    truth = (DATA / "library/truth.json").read_text("utf-8")
    assert not graph_json.detect(truth) and not graph_json.detect("[1]")
    model = load_template(TEMPLATE)
    assert (
        instance.read(truth, template=model).nodes == read_instance(truth, template=TEMPLATE).nodes
    )
    with pytest.raises(InputError, match="read with its template"):
        instance.read(truth)


def test_an_answer_s_fence_is_recorded_on_the_graph() -> None:
    text = (DATA / "library/graph.json").read_text("utf-8")
    answer = f"Here it is:\n```json\n{text}\n```\n"
    read = read_graph(answer, "a.txt", answer=True)
    assert read.fence == "json" and read.nodes == read_graph(text).nodes
    with pytest.raises(InputError, match="malformed JSON"):
        read_graph(answer, "a.txt")  # a truth is never unwrapped


# -- totals from counts -------------------------------------------------------------------------

CLASSES = {"A": "code", "B": "name", "Root": "name"}
values = st.sampled_from(["x1", "x1y", "X-1", "x2", "ab", "abc", "The ab", "", "7", "Zürich"])


@st.composite
def graph_json(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(0, 7))
    nodes = []
    for i in range(n):
        cls = draw(st.sampled_from(sorted(CLASSES)))
        nodes.append({"id": f"n{i}", "__class__": cls, CLASSES[cls]: draw(values), "t": "red"})
    edges = [
        {"source": f"n{draw(st.integers(0, n - 1))}", "target": f"n{draw(st.integers(0, n - 1))}",
         "label": draw(st.sampled_from(["L", "M"]))}
        for _ in range(draw(st.integers(0, 6) if n else st.just(0)))
    ]  # fmt: skip
    return {"nodes": nodes, "edges": edges, "graph": {"template_name": "Root"}}


def _prf(tp: int, fp: int, fn: int) -> dict[str, Any]:
    """Script 16's prf, written out: counts, then P/R/F1 rounded to 3 decimals."""
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"tp": tp, "fp": fp, "fn": fn, "p": round(p, 3), "r": round(r, 3), "f1": round(f1, 3)}


def _reference_micro(entries: list[dict[str, Any]], rungs: list[str]) -> dict[str, Any]:
    """micro as script 16 computes it: each rung's tp/fp/fn summed over the entries (classes,
    or documents with ``relaxed`` standing for a missing ``aligned``), then prf."""
    micro: dict[str, Any] = {}
    for rung in rungs:
        sums = [0, 0, 0]
        for entry in entries:
            scores = entry.get(rung, entry.get("relaxed"))
            if scores is None:
                continue
            sums = [s + scores[c] for s, c in zip(sums, ("tp", "fp", "fn"), strict=True)]
        micro[rung] = _prf(*sums)
    return micro


def _check_totals(result: Result, micro: dict[str, Any]) -> None:
    """The result's totals are exactly the document's micro P/R/F1, and its counts sum to the
    micro's tp/fp/fn."""
    for section, prefix in (("nodes", "node"), ("edges", "edge")):
        for rung, scores in micro[section].items():
            for short, long in (("p", "precision"), ("r", "recall"), ("f1", "f1")):
                got = result.totals[f"{prefix}_{rung}_{long}"]
                assert got.hex() == float(scores[short]).hex()
            for count in ("tp", "fp", "fn"):
                name = f"{prefix}_{rung}_{count}"
                assert sum(c.get(name, 0) for c in result.counts.values()) == scores[count]
    assert {k for k in result.totals if k.startswith("node_")} == {
        f"node_{rung}_{score}" for rung in micro["nodes"] for score in ("precision", "recall", "f1")
    }


@settings(max_examples=60, deadline=None)
@given(truth=graph_json(), pred=graph_json(), mode=st.sampled_from(["auto", "on", "off"]))
def test_one_document_totals_equal_script_16_s_micro(
    truth: dict[str, Any], pred: dict[str, Any], mode: str
) -> None:
    folder = Path(tempfile.mkdtemp())
    try:
        (folder / "t.json").write_text(json.dumps(truth), "utf-8")
        (folder / "g.json").write_text(json.dumps(pred), "utf-8")
        result = evaluate(
            "graph", folder / "t.json", folder / "g.json",
            id_fields=[f"{c}={f}" for c, f in CLASSES.items()], structural_align=mode,
        )  # fmt: skip
    finally:
        shutil.rmtree(folder)
    native = result.native
    rungs = list(native["micro"]["nodes"])
    for section in ("nodes", "edges"):
        expected = _reference_micro(list(native[section].values()), rungs)
        assert native["micro"][section] == expected
    _check_totals(result, native["micro"])
    (again,) = get_kind("graph").read(json.loads(json.dumps(native)), _reader(), result.name)
    assert again.totals == result.totals and again.counts == result.counts


def _reader() -> Any:
    from parsescore.core.results import Reader

    return Reader(None)


@settings(max_examples=40, deadline=None)
@given(
    documents=st.lists(st.tuples(graph_json(), graph_json()), min_size=1, max_size=5),
    mode=st.sampled_from(["auto", "on", "off"]),
)
def test_dataset_totals_equal_the_micro_over_documents(
    documents: list[tuple[dict[str, Any], dict[str, Any]]], mode: str
) -> None:
    truth = {f"d{k}": json.dumps(t) for k, (t, _) in enumerate(documents)}
    pred = {f"d{k}": json.dumps(p) for k, (_, p) in enumerate(documents)}
    fields = [f"{c}={f}" for c, f in CLASSES.items()]
    result = evaluate("graph", truth, pred, id_fields=fields, structural_align=mode, quiet=True)
    native = result.native
    reports = list(native["documents"].values())
    rungs = [r for r in RUNGS if any(r in report["micro"]["nodes"] for report in reports)]
    for section in ("nodes", "edges"):
        expected = _reference_micro([r["micro"][section] for r in reports], rungs)
        assert native["micro"][section] == expected
    _check_totals(result, native["micro"])
    (again,) = get_kind("graph").read(json.loads(json.dumps(native)), _reader(), result.name)
    assert again.totals == result.totals and again.counts == result.counts


# -- summaries from the Result alone --------------------------------------------------------------


def _summary(result: Result) -> str:
    buffer = io.StringIO()
    summarise(result, Console(file=buffer, width=140, color_system=None))
    return buffer.getvalue()


def _runs() -> dict[str, Result]:
    return {
        "one document": evaluate(
            "graph", BUNDLED / "truth.json", BUNDLED / "graph.json",
            template=f"{BUNDLED / 'library_template.py'}:Library", source=BUNDLED / "source.md",
        ),
        "aligned": evaluate(
            "graph", DATA / "study/truth.json", DATA / "study/graph.json",
            template=f"{DATA / 'study_template.py'}:Study", source=DATA / "study/source.md",
        ),
        "dataset": evaluate(
            "graph", DATASET / "truth", DATASET / "pred", template=TEMPLATE,
            source=DATASET / "source", quiet=True,
        ),
    }  # fmt: skip


@pytest.mark.parametrize("case", ["one document", "aligned", "dataset"])
def test_a_loaded_result_prints_the_run_s_summary(case: str, tmp_path: Path) -> None:
    scored = _runs()[case]
    shown = _summary(scored)
    assert "Graph evaluation" in shown
    assert ("readable answers" in shown) == (case == "dataset")
    envelope = scored.write(tmp_path / "result.json")
    assert _summary(load_result(envelope)) == shown
    native = tmp_path / "out.json"
    scored.write_native(native)
    assert _summary(load_result(native)) == shown  # eval.json (or the dataset's document) too
    assert resolved(get_kind("graph").summarise) is summarise


def test_the_command_prints_the_summary_of_its_result(tmp_path: Path, cli: Cli) -> None:
    out = tmp_path / "r.json"
    run = cli(
        "graph", "--pred", BUNDLED / "graph.json", "--truth", BUNDLED / "truth.json",
        "--template", f"{BUNDLED / 'library_template.py'}:Library", "--source",
        BUNDLED / "source.md", "--result", out,
    )  # fmt: skip
    assert run.code == 0, run.err
    printed = run.out.split(f"Wrote {out}")[0]
    assert " ".join(printed.split()) == " ".join(_summary(load_result(out)).split())


def test_evaluate_files_reports_what_the_kind_scores() -> None:
    report = evaluate_files(
        truth=BUNDLED / "truth.json",
        pred=BUNDLED / "graph.json",
        template=f"{BUNDLED / 'library_template.py'}:Library",
        source=BUNDLED / "source.md",
    )
    assert report == _runs()["one document"].native


# -- graph-aggregate and graph-audit: files of the wrong shape are bad input ---------------------


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("metadata.json", [], "metadata.json: expected a JSON object, found list"),
        ("metadata.json", {"results": [1]}, "metadata.json: not a docling-graph metadata.json"),
        ("eval.json", {"nodes": {}, "edges": {}, "micro": []}, "eval.json: not an eval.json"),
        ("eval.json", [1], "eval.json: expected a JSON object, found list"),
        ("debug/dense_run_stats.json", {"skeleton_nodes": "x"}, "skeleton_nodes must be a number"),
    ],
)
def test_aggregate_refuses_files_of_the_wrong_shape(
    name: str, content: Any, message: str, tmp_path: Path, cli: Cli
) -> None:
    root = tmp_path / "matrix"
    shutil.copytree(DATA / "matrix/input", root)
    target = root / "library/direct/doclang/rep1/run_a" / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(content), "utf-8")
    run = cli("graph-aggregate", "--root", root, "--quiet")
    assert run.code == 2 and run.err.startswith("error: ") and message in run.err, run.err
    assert len(run.err.splitlines()) == 1


def test_audit_counts_odd_metadata_instead_of_failing(tmp_path: Path, cli: Cli) -> None:
    graph = json.loads((DATA / "library/graph.json").read_text("utf-8"))
    graph["graph"] = {"alias_reconciliation": {"merged": "some"}, "id_fields_map": {"X": 3}}
    graph["graph"]["template_name"] = "X"
    path = tmp_path / "graph.json"
    path.write_text(json.dumps(graph), "utf-8")
    run = cli("graph-audit", "--graph", path, "--out", tmp_path / "audit.json")
    assert run.code == 0, run.err
    findings = json.loads((tmp_path / "audit.json").read_text("utf-8"))["per_document"][0]
    assert [f["key"] for f in findings["audit_findings"]] == ["alias_reconciliation"]


def test_the_docs_list_the_declared_options_and_the_readers() -> None:
    from parsescore.core.options import docs_table

    docs = (Path(__file__).resolve().parents[2] / "docs/graph.md").read_text("utf-8")
    assert docs_table(declared(GraphOptions)) in docs
    for fmt in FORMATS:
        assert f"| `{fmt.name}` | `{fmt.read.__name__}(" in docs


# -- what graph-aggregate and graph-audit print: names as written ---------------------------------


def test_aggregate_and_audit_print_folder_names_as_written(
    template_path: Path, tmp_path: Path, cli: Cli
) -> None:
    """A document folder named ``lib[bold]h:fire:`` or a source named ``[/x]`` prints as
    written: rich would swallow the tag, show a picture, or stop on the unmatched close tag."""
    root = tmp_path / "matrix"
    shutil.copytree(DATA / "matrix/input", root)
    (root / "library").rename(root / "lib[bold]h:fire:")
    run = cli("graph-aggregate", "--root", root)
    assert run.code == 0, run.err
    assert "lib[bold]h:fire:" in run.out and "\N{FIRE}" not in run.out

    provenance = json.loads((template_path / "audit" / "provenance.json").read_text("utf-8"))
    provenance["document"]["source"] = "scans/[/x][bold]:fire:.pdf"
    (tmp_path / "provenance.json").write_text(json.dumps(provenance), "utf-8")
    run = cli("graph-audit", "--graph", template_path / "audit" / "graph.json",
              "--provenance", tmp_path / "provenance.json",
              "--template", "library_template.Library")  # fmt: skip
    assert run.code == 0, run.err
    assert "scans/[/x][bold]:fire:.pdf" in " ".join(run.out.split())
