"""Dataset mode: a folder of extracted graph.json answers against a folder of truths.

The fixture (``data/dataset``, written by its ``make_dataset.py`` from the library example) has
five documents of the ``Library`` template: ``riverside`` (docling-graph's graph.json),
``riverside-dangling`` (an odd file script 16 scores with a warning), ``hillside`` (a chat
answer: prose around a fenced ``json`` block), ``lakeside`` (garbage) and ``harbour`` (no
answer).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_helpers import Cli
from parsescore import evaluate, load_result, score_pair
from parsescore.core.errors import InputError
from parsescore.core.results import Result
from parsescore.core.schema import validate
from parsescore.graph.api import evaluate_files, evaluate_generic_files
from parsescore.graph.evaluate import prf
from parsescore.graph.io import answer_content
from parsescore.graph.micro import document_counts, micro

DATA = Path(__file__).parent / "data"
DATASET = DATA / "dataset"
TEMPLATE = f"{DATA / 'library_template.py'}:Library"
IDS = ["harbour", "hillside", "lakeside", "riverside", "riverside-dangling"]
READ = ["hillside", "riverside", "riverside-dangling"]


def _texts(folder: Path) -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}


def _score(**options: Any) -> Result:
    options.setdefault("template", TEMPLATE)
    options.setdefault("source", DATASET / "source")
    return evaluate("graph", DATASET / "truth", DATASET / "pred", quiet=True, **options)


@pytest.fixture(scope="module")
def scored() -> Result:
    return _score()


def _without_readable(metrics: dict[str, float]) -> dict[str, float]:
    return {k: v for k, v in metrics.items() if k != "readable"}


def _bare_answer(item: str) -> str:
    """An answer's graph.json: the fenced block of a chat answer, else the file itself."""
    text = (DATASET / "pred" / f"{item}.json").read_text(encoding="utf-8")
    return answer_content(text).text


@pytest.mark.parametrize("item", READ)
def test_each_document_scores_as_its_one_document_run(
    scored: Result, item: str, tmp_path: Path
) -> None:
    pred = DATASET / "pred" / f"{item}.json"
    single = evaluate(
        "graph",
        DATASET / "truth" / f"{item}.json",
        pred,
        template=TEMPLATE,
        source=DATASET / "source" / f"{item}.md",
    )
    assert scored.native["documents"][item] == single.native
    assert (
        evaluate_files(
            truth=DATASET / "truth" / f"{item}.json",
            pred=pred,
            template=TEMPLATE,
            source=DATASET / "source" / f"{item}.md",
        )
        == single.native
    )
    expected = {k: v for k, v in single.totals.items() if k != "verbatim_ratio"}
    assert scored.items[item] == expected | {"readable": 1.0}
    # the per-class breakdown and the unmatched lists are the item's detail
    detail = scored.details[item]
    assert detail["nodes"] == single.native["nodes"]
    assert detail["edges"] == single.native["edges"]
    for key, unmatched in single.details.items():
        section, _, name = key.partition(":")
        assert detail["unmatched"][f"{section}s"][name] == unmatched["unmatched"]


def test_unreadable_and_missing_answers_score_as_an_empty_graph(scored: Result) -> None:
    empty = json.dumps({"nodes": [], "edges": []})
    for item in ("lakeside", "harbour"):
        truth = (DATASET / "truth" / f"{item}.json").read_text(encoding="utf-8")
        source = (DATASET / "source" / f"{item}.md").read_text(encoding="utf-8")
        as_empty = evaluate(
            "graph", {item: truth}, {item: empty}, template=TEMPLATE, source={item: source}
        )
        assert _without_readable(scored.items[item]) == _without_readable(as_empty.items[item])
        assert scored.items[item]["readable"] == 0.0
        report = scored.native["documents"][item]
        for section in ("nodes", "edges"):
            strict = report["micro"][section]["strict"]
            assert strict["tp"] == strict["fp"] == 0 and strict["fn"] > 0
    assert scored.native["documents"]["harbour"]["graph"] is None
    assert scored.native["documents"]["lakeside"]["graph"] == str(DATASET / "pred/lakeside.json")


def test_coverage_facts_and_warnings(scored: Result) -> None:
    assert list(scored.items) == IDS
    assert scored.dataset["missing"] == ["harbour"]
    assert scored.dataset["unreadable"] == {
        "lakeside": "line 1, column 1: malformed JSON: Expecting value"
    }
    assert scored.dataset["fenced"] == {"hillside": "json"}
    assert scored.dataset["nouns"] == ["document", "documents"]
    assert scored.totals["readable"] == pytest.approx(3 / 5)
    assert [scored.items[i]["readable"] for i in IDS] == [0.0, 1.0, 0.0, 1.0, 1.0]
    warnings = "\n".join(scored.warnings)
    assert "riverside-dangling.json: 12 edge end(s) name no node" in warnings
    assert "1 of 5 documents have no answer (scored as empty): harbour" in warnings
    assert "1 of 5 answers are unreadable (scored as missing; --strict stops at the first)" in (
        warnings
    )


def test_totals_are_micro_over_documents(scored: Result) -> None:
    reports = scored.native["documents"].values()
    for section, prefix in (("nodes", "node"), ("edges", "edge")):
        for rung in ("strict", "relaxed"):
            summed = [
                sum(r["micro"][section][rung][c] for r in reports) for c in ("tp", "fp", "fn")
            ]
            expected = prf(*summed)
            assert scored.dataset["micro"][section][rung] == dict(
                zip(("tp", "fp", "fn"), summed, strict=True)
            )
            assert scored.totals[f"{prefix}_{rung}_f1"] == expected["f1"]
            assert scored.totals[f"{prefix}_{rung}_precision"] == expected["p"]
    hits = scored.native["verbatim_hits"]
    checked = sum(r["verbatim_n"] or 0 for r in reports)
    assert scored.native["verbatim_n"] == checked == 2
    assert scored.totals["verbatim_ratio"] == round(hits / checked, 3)


def test_documents_without_the_aligned_rung_add_their_relaxed_counts() -> None:
    def report(relaxed: tuple[int, int, int], aligned: tuple[int, int, int] | None) -> Any:
        rungs = {"strict": prf(0, 9, 9), "relaxed": prf(*relaxed)}
        if aligned is not None:
            rungs["aligned"] = prf(*aligned)
        return {"micro": {"nodes": rungs, "edges": rungs}}

    counts, rungs = document_counts(
        {"a": report((1, 2, 3), (4, 0, 1)), "b": report((5, 1, 1), None)}
    )
    assert rungs == ["strict", "relaxed", "aligned"]
    assert counts["b"]["node_aligned_tp"] == 5  # b's relaxed counts
    summed = micro(counts, rungs)
    assert summed["nodes"]["aligned"] == prf(9, 1, 2)
    assert summed["nodes"]["relaxed"] == prf(6, 3, 4)
    assert document_counts({"b": report((5, 1, 1), None)})[1] == ["strict", "relaxed"]


def test_structural_alignment_on_gives_every_document_the_aligned_rung() -> None:
    result = _score(structural_align="on")
    assert "node_aligned_f1" in result.totals
    assert all("node_aligned_f1" in result.items[i] for i in IDS)


def test_allow_missing_scores_only_the_answered_documents() -> None:
    result = _score(allow_missing=True)
    assert list(result.items) == [i for i in IDS if i != "harbour"]
    assert result.dataset["missing"] == ["harbour"]
    assert result.totals["readable"] == pytest.approx(3 / 5)
    assert result.options["allow_missing"] is True
    assert any("left out with --allow-missing" in w for w in result.warnings)


def test_strict_stops_at_the_first_unreadable_or_odd_answer(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        _score(strict=True)
    assert str(caught.value) == (
        f"{DATASET / 'pred/lakeside.json'} (line 1, column 1): malformed JSON: Expecting value"
    )
    pred = tmp_path / "pred"
    shutil.copytree(DATASET / "pred", pred)
    (pred / "lakeside.json").unlink()
    with pytest.raises(InputError, match=r"riverside-dangling\.json \(edges\[14\]\): edge target"):
        evaluate("graph", DATASET / "truth", pred, template=TEMPLATE, strict=True, quiet=True)


def test_mappings_score_as_folders_and_score_pair_as_one_document(scored: Result) -> None:
    truth, pred, source = (_texts(DATASET / f) for f in ("truth", "pred", "source"))
    in_memory = evaluate("graph", truth, pred, template=TEMPLATE, source=source, quiet=True)
    assert in_memory.items == scored.items
    assert in_memory.totals == scored.totals
    assert in_memory.dataset == scored.dataset
    for item in READ:
        assert (
            score_pair(
                "graph", truth[item], pred[item], template=TEMPLATE, source={"pair": source[item]}
            )
            == scored.items[item]
        )
    # an unreadable answer: the kind's worst, readable 0
    assert score_pair("graph", truth["lakeside"], pred["lakeside"], template=TEMPLATE) == (
        evaluate("graph", {"x": truth["lakeside"]}, {"x": "{}"}, template=TEMPLATE).items["x"]
        | {"readable": 0.0}
    )


def test_one_document_on_disk_equals_score_pair(tmp_path: Path) -> None:
    for folder in ("truth", "pred"):
        (tmp_path / folder).mkdir()
        shutil.copyfile(DATASET / folder / "hillside.json", tmp_path / folder / "doc.json")
    on_disk = evaluate("graph", tmp_path / "truth", tmp_path / "pred", template=TEMPLATE)
    pair = score_pair(
        "graph",
        (tmp_path / "truth/doc.json").read_text(encoding="utf-8"),
        (tmp_path / "pred/doc.json").read_text(encoding="utf-8"),
        template=TEMPLATE,
    )
    assert pair == on_disk.items["doc"]


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("not json at all", "line 1, column 1: malformed JSON: Expecting value"),
        (
            '{"nodes": [], "nodes": []}',
            "duplicate key 'nodes' in a JSON object (each key must appear once)",
        ),
        ("[1, 2]", "expected a JSON object with 'nodes' and 'edges', got list"),
        ('{"nodes": {"a": 1}}', "'nodes' must be a list of node objects, got dict"),
        ('{"nodes": [7]}', "nodes[0]: node is a int, expected an object"),
        ("", "line 1, column 1: malformed JSON: Expecting value"),
        (
            'Here:\n```json\n{"nodes": [\n```\n',
            "line 4, column 1, in the fenced block from line 3: malformed JSON: Expecting value",
        ),
    ],
)
def test_unreadable_reasons(answer: str, reason: str) -> None:
    truth = (DATASET / "truth" / "hillside.json").read_text(encoding="utf-8")
    result = evaluate("graph", {"d": truth}, {"d": answer}, template=TEMPLATE)
    assert result.dataset["unreadable"] == {"d": reason}
    assert result.items["d"]["readable"] == 0.0
    assert result.items["d"]["node_strict_recall"] == 0.0


def test_answer_files_that_are_not_text_are_unreadable(tmp_path: Path) -> None:
    pred = tmp_path / "pred"
    shutil.copytree(DATASET / "pred", pred)
    (pred / "lakeside.json").write_bytes(b"\xff\xfe{}")
    result = evaluate("graph", DATASET / "truth", pred, template=TEMPLATE, quiet=True)
    assert result.dataset["unreadable"] == {"lakeside": "not UTF-8 text (byte 0)"}


# -- chat answers -------------------------------------------------------------------------------

PROSE = st.text(
    alphabet=st.characters(blacklist_characters="`~{<", blacklist_categories=("Cs",)),
    max_size=40,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    before=PROSE,
    after=PROSE,
    fence=st.sampled_from(["```", "~~~", "````"]),
    info=st.sampled_from(["json", "JSON", "", "json {.graph}"]),
    think=st.booleans(),
)
def test_a_wrapped_answer_scores_as_its_content(
    before: str, after: str, fence: str, info: str, think: bool
) -> None:
    truth = (DATASET / "truth" / "riverside.json").read_text(encoding="utf-8")
    bare = _bare_answer("riverside")
    wrapped = f"{before}\n{fence}{info}\n{bare.rstrip()}\n{fence}\n{after}"
    if think:
        wrapped = "<think>The user wants JSON. ```draft```</think>\n" + wrapped
    result = evaluate(
        "graph", {"a": truth, "b": truth}, {"a": bare, "b": wrapped}, template=TEMPLATE
    )
    assert result.items["a"] == result.items["b"]
    assert result.dataset["fenced"] == {"b": info}
    assert result.native["documents"]["a"]["micro"] == result.native["documents"]["b"]["micro"]


def test_a_bare_graph_json_whose_strings_hold_markers_is_read_whole() -> None:
    truth = (DATASET / "truth" / "riverside.json").read_text(encoding="utf-8")
    data = json.loads(_bare_answer("riverside"))
    plain = json.dumps(data)
    data["nodes"][0]["role"] = "<think> see ```json``` ~~~"
    marked = json.dumps(data, indent=2)
    result = evaluate(
        "graph", {"a": truth, "b": truth}, {"a": plain, "b": marked}, template=TEMPLATE
    )
    assert result.items["a"] == result.items["b"]
    assert result.dataset["unreadable"] == {} and result.dataset["fenced"] == {}
    assert answer_content(marked).text is marked  # not scanned: a 10 MB export costs nothing


def test_one_document_mode_reads_a_chat_answer(tmp_path: Path) -> None:
    pred = DATASET / "pred" / "hillside.json"
    bare = tmp_path / "bare.json"
    bare.write_text(_bare_answer("hillside"), encoding="utf-8")
    truth = DATASET / "truth" / "hillside.json"
    wrapped = evaluate_files(truth=truth, pred=pred, template=TEMPLATE)
    assert wrapped == evaluate_files(truth=truth, pred=bare, template=TEMPLATE) | {
        "graph": str(pred)
    }


# -- general rules, as properties ---------------------------------------------------------------


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    chosen=st.lists(st.sampled_from(READ), min_size=1, max_size=3, unique=True),
    garbage=st.text(max_size=30),
    missing=st.booleans(),
)
def test_one_garbage_answer_changes_only_its_item(
    chosen: list[str], garbage: str, missing: bool
) -> None:
    truth, pred = _texts(DATASET / "truth"), _texts(DATASET / "pred")
    truths = {item: truth[item] for item in [*chosen, "lakeside"]}
    answers = {item: pred[item] for item in chosen}
    clean = evaluate("graph", truths, answers | {"lakeside": "{}"}, template=TEMPLATE)
    bad = dict(answers)
    if not missing:
        bad["lakeside"] = garbage
    dirty = evaluate("graph", truths, bad, template=TEMPLATE)
    for item in chosen:
        assert dirty.items[item] == clean.items[item]
    assert _without_readable(dirty.items["lakeside"]) == _without_readable(clean.items["lakeside"])
    readable = 0.0 if missing or "lakeside" in dirty.dataset["unreadable"] else 1.0
    assert dirty.items["lakeside"]["readable"] == readable
    # readable: the share of truth documents whose answer was present and readable
    assert dirty.totals["readable"] == pytest.approx(
        sum(values["readable"] for values in dirty.items.values()) / len(truths)
    )


# -- names, inputs ------------------------------------------------------------------------------


def test_no_answer_matching_any_truth_is_an_error(tmp_path: Path, cli: Cli) -> None:
    pred = tmp_path / "pred"
    pred.mkdir()
    shutil.copyfile(DATASET / "pred" / "riverside.json", pred / "other.json")
    run = cli("graph", "--truth", DATASET / "truth", "--pred", pred, "--template", TEMPLATE)
    assert run.code == 2
    assert run.err == (
        f"error: no answer in {pred} matches a truth item of {DATASET / 'truth'}: truth ids "
        "such as 'harbour', answers such as 'other'\n"
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    run = cli("graph", "--truth", DATASET / "truth", "--pred", empty, "--template", TEMPLATE)
    assert run.code == 2 and run.err.startswith(f"error: no answer in {empty} (expected")


def test_swapped_truth_and_pred_asks_whether_they_were_swapped(tmp_path: Path, cli: Cli) -> None:
    for folder in ("truth", "pred"):
        (tmp_path / folder).mkdir()
        shutil.copyfile(DATASET / folder / "riverside.json", tmp_path / folder / "riverside.json")
    run = cli(
        "graph", "--truth", tmp_path / "pred", "--pred", tmp_path / "truth", "--template", TEMPLATE
    )
    assert run.code == 2
    assert run.err.startswith(
        f"error: {tmp_path / 'pred' / 'riverside.json'}: ground truth does not validate against "
        "Library"
    )
    assert run.err.rstrip().endswith(
        "it is a graph.json (nodes, edges): did you swap --truth and --pred?"
    )


def test_answers_without_truth_and_documents_without_source_are_warned(tmp_path: Path) -> None:
    pred, source = tmp_path / "pred", tmp_path / "source"
    shutil.copytree(DATASET / "pred", pred)
    shutil.copytree(DATASET / "source", source)
    shutil.copyfile(pred / "riverside.json", pred / "unknown.json")
    (source / "hillside.md").unlink()
    result = evaluate("graph", DATASET / "truth", pred, template=TEMPLATE, source=source)
    assert "1 answers have no truth (not scored): unknown" in result.warnings
    assert (
        "1 of 5 documents have no source (scored without one: no verbatim ratio, no "
        "synthetic-id detection): hillside" in result.warnings
    )
    assert "unknown" not in result.items
    assert result.native["documents"]["hillside"]["verbatim_ratio"] is None


def test_bad_dataset_inputs(tmp_path: Path, cli: Cli) -> None:
    truth, pred = DATASET / "truth", DATASET / "pred"
    one = DATASET / "pred" / "riverside.json"
    run = cli("graph", "--truth", truth, "--pred", one, "--template", TEMPLATE)
    assert run.code == 2
    assert run.err == (
        f"error: {truth}: --truth is a folder but --pred is not: give two folders (a dataset "
        "of <id>.json documents) or two files (one document)\n"
    )
    source_file = DATASET / "source" / "riverside.md"
    run = cli(
        "graph", "--truth", truth, "--pred", pred, "--template", TEMPLATE, "--source", source_file
    )
    assert run.code == 2 and "--source must be a folder of per-document sources" in run.err
    run = cli(
        "graph",
        "--truth",
        truth / "riverside.json",
        "--pred",
        one,
        "--source",
        DATASET / "source",
        "--template",
        TEMPLATE,
    )
    assert run.code == 2 and "--source is a folder (or mapping) of per-document sources" in run.err
    sources = tmp_path / "sources"
    shutil.copytree(DATASET / "source", sources)
    shutil.copyfile(sources / "riverside.md", sources / "riverside.xml")
    run = cli(
        "graph", "--truth", truth, "--pred", pred, "--template", TEMPLATE, "--source", sources
    )
    assert run.code == 2
    assert "two sources for document 'riverside': riverside.md and riverside.xml" in run.err
    empty = tmp_path / "empty"
    empty.mkdir()
    run = cli("graph", "--truth", empty, "--pred", pred, "--template", TEMPLATE)
    assert run.code == 2 and "no truth documents (<id>.json files)" in run.err


def test_generic_mode_dataset(tmp_path: Path) -> None:
    """Without a template a truth is a graph.json too, in a dataset as for one document."""
    truth, pred = tmp_path / "truth", tmp_path / "pred"
    truth.mkdir()
    pred.mkdir()
    shutil.copyfile(DATA / "library" / "graph.json", truth / "a.json")
    shutil.copyfile(DATA / "lenient" / "dangling.json", pred / "a.json")
    shutil.copyfile(DATA / "library" / "graph.json", truth / "b.json")
    (pred / "b.json").write_text("{", encoding="utf-8")
    result = evaluate("graph", truth, pred, root_class="Library")
    single = evaluate_generic_files(
        truth=truth / "a.json", pred=pred / "a.json", root_class="Library"
    )
    assert result.native["documents"]["a"] == single
    assert list(result.dataset["unreadable"]) == ["b"]
    assert result.options["root_class"] == "Library"


# -- outputs ------------------------------------------------------------------------------------


def test_cli_outputs_read_back_and_validate(tmp_path: Path, cli: Cli, scored: Result) -> None:
    out, envelope, csv = tmp_path / "out.json", tmp_path / "result.json", tmp_path / "rows.csv"
    run = cli(
        "graph",
        "--truth",
        DATASET / "truth",
        "--graph",  # the one-document name of --pred
        DATASET / "pred",
        "--template",
        TEMPLATE,
        "--source",
        DATASET / "source",
        "--out",
        out,
        "--result",
        envelope,
        "--csv",
        csv,
        "--quiet",
    )
    assert run.code == 0, run.err
    assert "Graph evaluation — 5 documents, micro over documents" in run.out
    assert "readable answers 0.6000; 1 unreadable; 1 missing; 1 read from a fenced block" in (
        run.out
    )
    assert "warning: 1 of 5 documents have no answer (scored as empty): harbour" in run.err
    native = json.loads(out.read_text(encoding="utf-8"))
    assert native == scored.native
    validate(native, "graph")
    validate(json.loads(envelope.read_text(encoding="utf-8")), "result")
    from_out, from_envelope = load_result(out), load_result(envelope)
    assert from_out.items == from_envelope.items == scored.items
    assert from_out.totals == from_envelope.totals == scored.totals
    assert from_out.dataset == {k: v for k, v in scored.dataset.items()}
    # the envelope keeps the unmatched lists; eval.json (--out) never had them
    assert from_envelope.details == scored.details
    assert {
        k: {d: v for d, v in x.items() if d != "unmatched"} for k, x in scored.details.items()
    } == (from_out.details)
    assert csv.read_text(encoding="utf-8").splitlines()[0].endswith(",readable")


def test_jobs_cache_and_dask_give_the_same_result(tmp_path: Path, scheduler: str, cli: Cli) -> None:
    base = [
        "graph",
        "--truth",
        DATASET / "truth",
        "--pred",
        DATASET / "pred",
        "--template",
        TEMPLATE,
    ]
    base += ["--source", DATASET / "source"]
    outputs = []
    for name, extra in (
        ("serial", []),
        ("jobs", ["--jobs", "2"]),
        ("dask", ["--dask-scheduler", scheduler]),
        ("cold", ["--cache", str(tmp_path / "cache")]),
        ("warm", ["--cache", str(tmp_path / "cache")]),
    ):
        run = cli(*base, *extra, "--out", tmp_path / f"{name}.json")
        assert run.code == 0, run.err
        outputs.append((tmp_path / f"{name}.json").read_bytes())
        if name == "warm":
            assert "cache: 5 of 5 graph items reused, 0 scored" in run.err
    assert len(set(outputs)) == 1


def test_an_edited_template_is_not_served_from_the_cache(tmp_path: Path) -> None:
    template = tmp_path / "library_template.py"
    shutil.copyfile(DATA / "library_template.py", template)
    spec = f"{template}:Library"
    first = _score(template=spec, cache=tmp_path / "cache")
    text = template.read_text(encoding="utf-8")
    template.write_text(text.replace('"WRITTEN_BY"', '"AUTHORED_BY"'), encoding="utf-8")
    second = _score(template=spec, cache=tmp_path / "cache")
    assert first.items != second.items
    assert "AUTHORED_BY" in second.native["documents"]["riverside"]["edges"]


def test_report_of_a_dataset_result(tmp_path: Path, scored: Result) -> None:
    from parsescore.graph.report_html import counts, drilldown
    from parsescore.report.html import System

    assert counts(scored) == [("documents", 5)]
    html = drilldown(System(scored), IDS)
    assert "Answer unreadable (line 1, column 1: malformed JSON: Expecting value)" in html
    assert "No answer: scored as an empty graph." in html
    assert "Answer read from a fenced block (json)" in html
    assert "Library:HARBOUR_MARITIME_ARCHIVE" in html
    envelope = tmp_path / "result.json"
    scored.write(envelope)
    loaded = load_result(envelope)
    assert drilldown(System(loaded), IDS) == html


def test_the_docs_show_what_the_dataset_example_prints(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    docs = (Path(__file__).parents[2] / "docs" / "graph.md").read_text(encoding="utf-8")
    monkeypatch.chdir(DATASET)
    run = cli(
        "graph", "--truth", "truth", "--pred", "pred",
        "--template", "../library_template.py:Library", "--source", "source",
        "--out", tmp_path / "eval.json",
    )  # fmt: skip
    assert run.code == 0, run.err
    shown = [line.rstrip() for line in run.out.splitlines() if not line.startswith("Wrote ")]
    assert len(shown) == 19
    for line in shown:
        assert f"\n{line}\n" in docs, line
