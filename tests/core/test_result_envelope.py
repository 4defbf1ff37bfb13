"""The common result envelope (``--result`` of every dataset command, ``parsescore schema result``).

Every envelope here is written by the real commands on the bundled demo data; each test checks
one promise of issue #6: the schema validates every kind's envelope, load/export round-trips,
the numbers are those of the command's own ``--out`` document, and compare/report read it.
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pandas.testing
import pytest

from cli_helpers import Cli, run_cli
from parsescore import __version__
from parsescore.cli.common import per_system_paths as envelope_paths
from parsescore.core.errors import InputError
from parsescore.core.results import (
    Result,
    detect_kind,
    load_result,
    load_results,
    result_from_json,
    results_from_json,
    write_result,
)
from parsescore.core.schema import schema
from parsescore.report.html import render_report
from parsescore.report.sources import load_report_systems
from parsescore.shared.tables.celldiff import cell_diff_summary, differing_cells, table_details
from parsescore.table.inputs import load_tables

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "parsescore" / "data"
ENVELOPE_KEYS = [
    "parsescore_result",
    "version",
    "kind",
    "system",
    "inputs",
    "options",
    "items",
    "totals",
    "dataset",
]


def _cells(texts: list[list[str]]) -> list[dict[str, Any]]:
    return [
        {
            "row_nums": [r],
            "column_nums": [c],
            "cell_text": text,
            "bbox": [10.0 * c, 10.0 * r, 10.0 * c + 9, 10.0 * r + 9],
        }
        for r, row in enumerate(texts)
        for c, text in enumerate(row)
    ]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[Path]]]:
    """``{case: (native --out file, [--result envelopes])}``, written in the same run."""
    out = tmp_path_factory.mktemp("envelope")
    cases: dict[str, tuple[Path, list[Path]]] = {}

    def both(case: str, args: list[str], envelopes: list[str] | None = None) -> None:
        native, envelope = out / f"{case}.json", out / f"{case}.result.json"
        result = run_cli([*args, "--out", native, "--result", envelope], None)
        assert result.code == 0, result.err
        cases[case] = (native, [out / e for e in envelopes] if envelopes else [envelope])

    flow = DATA / "flowchart"
    truth = str(flow / "ground-truth")
    both("flowchart", ["flowchart", "--truth", truth, "--pred", str(flow / "predictions")])
    tables = DATA / "table" / "pubtabnet_samples"
    for case, pred in (("table_a", "sample_pred.json"), ("table_b", "sample_gt.json")):
        args = ["table", "--truth", str(tables / "sample_gt.json"), "--pred", str(tables / pred)]
        both(case, [*args, "--quiet"])
    cells_truth, cells_pred = out / "cells_truth.json", out / "cells_pred.json"
    grid = _cells([["a", "b"], ["1", "2"]])
    cells_truth.write_text(json.dumps({"t1": grid, "t2": grid}))
    cells_pred.write_text(json.dumps({"t1": _cells([["a", "b"], ["1", "3"]])}))
    both("grits", ["grits", "--truth", str(cells_truth), "--pred", str(cells_pred)])
    seq = DATA / "sequence"
    args = ["sequence", "--truth", str(seq / "truth"), "--quiet"]
    both("sequence", [*args, "--pred", str(seq / "model_a"), "--report", str(out / "seq_report")])
    both(
        "sequence2",
        [*args, "--pred", str(seq / "model_a"), "--pred", str(seq / "model_b")],
        ["sequence2.result.model_a.json", "sequence2.result.model_b.json"],
    )
    graph = DATA / "graph"
    both(
        "graph",
        [
            "graph",
            "--graph",
            str(graph / "graph.json"),
            "--truth",
            str(graph / "truth.json"),
            "--template",
            f"{graph / 'library_template.py'}:Library",
            "--source",
            str(graph / "source.md"),
        ],
    )
    return cases


def _doc(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _envelopes(made: dict[str, tuple[Path, list[Path]]]) -> list[Path]:
    return [path for _, envelopes in made.values() for path in envelopes]


def _schema_errors(doc: Any, kind: str = "result") -> list[str]:
    validator = jsonschema.Draft202012Validator(schema(kind))
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(doc)]


# -- schema -------------------------------------------------------------------------------------


def test_every_kinds_envelope_validates(made: dict[str, tuple[Path, list[Path]]]) -> None:
    kinds = set()
    for path in _envelopes(made):
        doc = _doc(path)
        # warnings, when there are any, come last (a missing prediction of model_b here)
        assert list(doc) in (ENVELOPE_KEYS, [*ENVELOPE_KEYS, "warnings"]), path
        assert _schema_errors(doc) == [], path
        assert _schema_errors(doc, "any") == [], path
        kinds.add(doc["kind"])
    assert kinds == {"flowchart", "table", "sequence", "graph"}


def test_native_documents_are_not_envelopes(made: dict[str, tuple[Path, list[Path]]]) -> None:
    for native, _ in made.values():
        assert _schema_errors(_doc(native)), native
        assert _schema_errors(_doc(native), "any") == [], native


def test_result_schema_is_strict_at_the_top() -> None:
    envelope = schema("result")["$defs"]["result"]
    assert envelope["additionalProperties"] is False
    assert envelope["required"] == ENVELOPE_KEYS
    assert schema("result")["$defs"]["result_item"]["additionalProperties"] is False


def _corruptions() -> list[tuple[str, Callable[[dict[str, Any]], None], str]]:
    """(what, edit, key path load_result names) for envelopes broken in one place."""

    def set_key(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
        return lambda d: d.update({key: value})

    def first_item(edit: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
        return lambda d: edit(d["items"][0])

    return [
        ("format version 2", set_key("parsescore_result", 2), "parsescore_result"),
        ("format version as string", set_key("parsescore_result", "1"), "parsescore_result"),
        ("no totals", lambda d: d.pop("totals"), "top level"),
        ("no items", lambda d: d.pop("items"), "top level"),
        ("unknown top-level key", set_key("scores", {}), "top level"),
        ("unknown kind", set_key("kind", "chart"), "kind"),
        ("system as null", set_key("system", None), "system"),
        ("version as number", set_key("version", 1), "version"),
        ("inputs as array", set_key("inputs", []), "inputs"),
        ("dataset as string", set_key("dataset", "x"), "dataset"),
        ("total as string", lambda d: d["totals"].update(x="0.5"), "totals.x"),
        ("items as object", set_key("items", {}), "items"),
        ("item id as number", first_item(lambda i: i.update(id=3)), "items[0].id"),
        (
            "metric as string",
            first_item(lambda i: i["metrics"].update(m="1")),
            "items[0].metrics.m",
        ),
        ("metric as null", first_item(lambda i: i["metrics"].update(m=None)), "items[0].metrics.m"),
        ("detail as array", first_item(lambda i: i.update(detail=[])), "items[0].detail"),
        ("no detail", first_item(lambda i: i.pop("detail")), "items[0]"),
        ("unknown item key", first_item(lambda i: i.update(score=1)), "items[0]"),
    ]


@pytest.mark.parametrize(("what", "edit", "where"), _corruptions(), ids=lambda v: str(v))
def test_corrupted_envelopes_fail_schema_and_load(
    made: dict[str, tuple[Path, list[Path]]],
    tmp_path: Path,
    what: str,
    edit: Callable[[dict[str, Any]], None],
    where: str,
) -> None:
    for path in (made["table_a"][1][0], made["graph"][1][0]):
        doc = copy.deepcopy(_doc(path))
        edit(doc)
        assert _schema_errors(doc), f"{what}: the schema accepted it"
        broken = tmp_path / f"broken_{path.name}"
        broken.write_text(json.dumps(doc))
        with pytest.raises(InputError) as error:
            load_result(broken)
        assert error.value.path == str(broken), what
        assert error.value.where == where, (what, str(error.value))
        assert str(error.value).startswith(f"{broken} ({where}): ")


def test_wrong_format_version_says_what_is_read(
    made: dict[str, tuple[Path, list[Path]]], tmp_path: Path
) -> None:
    doc = _doc(made["flowchart"][1][0]) | {"parsescore_result": 2}
    path = tmp_path / "future.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(
        InputError, match=r"unsupported result envelope version 2; .* reads version 1"
    ):
        load_result(path)


def test_duplicate_item_is_a_load_error(
    made: dict[str, tuple[Path, list[Path]]], tmp_path: Path
) -> None:
    doc = _doc(made["table_a"][1][0])
    doc["items"].append(doc["items"][0])
    path = tmp_path / "twice.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError, match=r"\(items\[20\]\.id\): item .* appears twice"):
        load_result(path)


# -- round trips --------------------------------------------------------------------------------


def test_envelope_round_trips_byte_for_byte(
    made: dict[str, tuple[Path, list[Path]]], tmp_path: Path
) -> None:
    for path in _envelopes(made):
        result = load_result(path)
        again = write_result(tmp_path / path.name, result)
        assert again.read_bytes() == path.read_bytes(), path
        assert load_result(again) == result
        assert result.to_json() == _doc(path)


def test_envelope_numbers_are_the_native_ones(made: dict[str, tuple[Path, list[Path]]]) -> None:
    for native, envelopes in made.values():
        natives = load_results(native)
        assert len(natives) == len(envelopes)
        for from_native, path in zip(natives, envelopes, strict=True):
            from_envelope = load_result(path, name=from_native.name)
            assert from_envelope.items == from_native.items, path
            assert from_envelope.totals == from_native.totals, path
            pandas.testing.assert_frame_equal(
                from_envelope.to_dataframe(), from_native.to_dataframe()
            )


def test_native_to_envelope_to_result(
    made: dict[str, tuple[Path, list[Path]]], tmp_path: Path
) -> None:
    """load_result(native) → write_result → load_result gives the same Result (path aside)."""
    for native, _ in made.values():
        for k, result in enumerate(load_results(native)):
            path = write_result(tmp_path / f"{native.stem}{k}.json", result)
            back = load_result(path)
            assert back == result, native
            assert back.path == str(path) and result.path == str(native)
            pandas.testing.assert_frame_equal(back.to_dataframe(), result.to_dataframe())


def test_write_result_replaces_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "r.json"
    write_result(path, Result("table", "a", {"t": {"TEDS": 0.5}}))
    write_result(path, Result("table", "b", {"t": {"TEDS": 1.0}}, {"TEDS": 1.0}))
    assert load_result(path) == Result("table", "b", {"t": {"TEDS": 1.0}}, {"TEDS": 1.0})
    assert [p.name for p in path.parent.iterdir()] == ["r.json"]  # no temp file left


def test_in_memory_result_defaults_stay_compatible() -> None:
    result = Result("graph", "g", {"node:A": {"node_strict_f1": 1.0}})
    assert (result.inputs, result.options, result.details, result.dataset) == ({}, {}, {}, {})
    assert result.version is None and result.path is None
    doc = result.to_json()
    assert doc["items"] == [{"id": "node:A", "metrics": {"node_strict_f1": 1.0}, "detail": {}}]
    assert _schema_errors(doc) == []


# -- names --------------------------------------------------------------------------------------


def test_system_name_is_used_unless_a_name_is_given(
    made: dict[str, tuple[Path, list[Path]]],
) -> None:
    path = made["table_a"][1][0]
    assert _doc(path)["system"] == path.stem == "table_a.result"
    assert load_result(path).name == "table_a.result"
    assert load_result(path, name="mine").name == "mine"
    doc = _doc(path) | {"system": "from the file"}
    assert result_from_json(doc).name == "from the file"
    assert results_from_json(doc, name="given")[0].name == "given"
    assert detect_kind(doc) == "table"
    assert detect_kind(doc | {"kind": "chart"}) is None


# -- what each command puts in the envelope -----------------------------------------------------


def test_flowchart_envelope(made: dict[str, tuple[Path, list[Path]]]) -> None:
    native = _doc(made["flowchart"][0])
    envelope = _doc(made["flowchart"][1][0])
    assert envelope["version"] == __version__
    assert envelope["inputs"] == native["inputs"]
    assert envelope["options"] == native["options"]
    assert envelope["dataset"] == {
        "missing": native["missing_predictions"],
        "unreadable": native["unreadable"],
        "fenced": native["fenced"],
        "parts": native["parts"],
    }
    for diagram, item in zip(native["diagrams"], envelope["items"], strict=True):
        assert item["id"] == diagram["stem"]
        detail = item["detail"]
        assert detail["node_matches"] == diagram["node_matches"]
        assert set(detail["flow"]) == {"tp", "fp", "fn", "missing_edges", "extra_edges"}
        assert detail["flow"]["missing_edges"] == diagram["flow"]["missing_edges"]
        assert "node_text_cost" not in detail and "stem" not in detail
        assert item["metrics"]["flow_jaccard"] == diagram["flow"]["jaccard"]


def test_table_envelopes(made: dict[str, tuple[Path, list[Path]]]) -> None:
    envelope = _doc(made["table_a"][1][0])
    assert envelope["inputs"] == {
        "truth": str(DATA / "table" / "pubtabnet_samples" / "sample_gt.json"),
        "pred": str(DATA / "table" / "pubtabnet_samples" / "sample_pred.json"),
    }
    assert envelope["options"]["metric"] == "TEDS"
    assert envelope["options"]["denominator"] == "tree_nodes"
    assert envelope["dataset"] == {"missing": [], "unreadable": {}, "fenced": {}, "extra": []}
    assert len(envelope["items"]) == 20
    truth = load_tables(DATA / "table" / "pubtabnet_samples" / "sample_gt.json")
    pred = load_tables(DATA / "table" / "pubtabnet_samples" / "sample_pred.json")
    for item in envelope["items"]:
        detail = item["detail"]
        assert detail["cells"] == differing_cells(truth[item["id"]], pred[item["id"]])
        assert detail["cell_changes"] == cell_diff_summary(detail["cells"])
        assert (detail["cells"] == []) == (item["metrics"]["TEDS"] == 1.0)
    grits = _doc(made["grits"][1][0])
    assert grits["kind"] == "table"
    assert grits["options"] == {"metric": "GriTS-Con", "iou": "enclosing", "lcs": "difflib"}
    assert grits["dataset"] == {
        "missing": ["t2"],
        "unreadable": {},
        "fenced": {},
        "extra": [],
    }
    assert [i["id"] for i in grits["items"]] == ["t1", "t2"]


def test_table_details_are_the_cells_teds_sees_differ() -> None:
    table = "<html><body><table><tr><td>x</td><td>y</td></tr></table></body></html>"
    changed = table.replace("<td>y</td>", "<td>z</td>")
    bare = "<table><tr><td>x</td><td>y</td></tr></table>"  # TEDS finds no table: scores 0
    details = table_details(
        {"same": table, "changed": table, "bare": table, "missing": table, "no_truth": "<p/>"},
        {"same": table, "changed": changed, "bare": bare, "no_truth": table},
    )
    assert set(details) == {"same", "changed", "bare"}  # no record: missing, unreadable truth
    grid = details["same"].pop("grid")  # every cell and the alignment, for the report
    assert details["same"] == {
        "cells": [],
        "cell_changes": {"substitution": 0, "deletion": 0, "insertion": 0},
    }
    assert grid["rows"] == [[0, 0]] and grid["cols"] == [[0, 0], [1, 1]]
    assert [c["text"] for c in grid["truth"]] == [c["text"] for c in grid["pred"]] == ["x", "y"]
    assert details["bare"]["grid"]["pred"] == []  # scored as no table
    assert [c["change"] for c in details["changed"]["cells"]] == ["substitution"]
    assert details["changed"]["cells"][0]["pred"]["text"] == "z"
    assert details["bare"]["cell_changes"] == {"substitution": 0, "deletion": 2, "insertion": 0}


def test_sequence_envelopes(made: dict[str, tuple[Path, list[Path]]]) -> None:
    seq = DATA / "sequence"
    one = _doc(made["sequence"][1][0])
    assert one["inputs"] == {
        "truth": str(seq / "truth"),
        "pred": str(seq / "model_a"),
        "formats": {"truth": {"plantuml": 6}, "pred": {"plantuml": 6}},  # what auto read
    }
    assert one["options"] == {
        "threshold": 0.5,
        "ignore_colours": False,
        "truth_format": "auto",
        "pred_format": "auto",
    }
    assert one["dataset"] == {"missing": [], "unreadable": {}, "fenced": {}, "skipped": []}
    native = _doc(made["sequence"][0])
    for file, item in zip(native["files"], one["items"], strict=True):
        detail = item["detail"]
        assert detail["gt_lines"] == file["gt_lines"]
        errors = sum(
            c["insertion"] + c["deletion"] + c["substitution"] for c in detail["counts"].values()
        )
        assert len(detail["differences"]) == errors  # the counted differences, each once
        assert detail["counts"]["node"]["gt_count"] == file["node"]["gt_count"]
    a_path, b_path = made["sequence2"][1]
    a, b = _doc(a_path), _doc(b_path)
    assert (a["system"], b["system"]) == ("sequence2.result.model_a", "sequence2.result.model_b")
    assert b["inputs"]["pred"] == str(seq / "model_b")
    assert b["dataset"]["missing"] == ["spec_00x_CyclicOperationBasedDeviceListSync.puml"]
    assert b["totals"]["readable"] == 5 / 6
    assert not (a_path.parent / "sequence2.result.json").exists()


def test_envelope_paths_one_per_model() -> None:
    path = Path("out/run.json")
    assert envelope_paths(path, ["model"]) == [path]
    assert envelope_paths(path, ["origin/a", "b#2"]) == [
        Path("out/run.origin_a.json"),
        Path("out/run.b#2.json"),
    ]
    with pytest.raises(InputError, match="clashing file names"):
        envelope_paths(path, ["a/b", "a_b"])


def _git(repo: Path, *args: str) -> None:
    env = os.environ | {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
    }
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def test_sequence_git_mode_writes_one_envelope_per_model(tmp_path: Path, cli: Cli) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    script = "@startuml\nA -> B : one\nB -> C : two\n@enduml\n"
    _git(repo, "init", "-q", "-b", "main")
    (repo / "fig.puml").write_text(script)
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "truth")
    for branch, text in (("m/one", script), ("two", "@startuml\nA -> B : one\n@enduml\n")):
        _git(repo, "checkout", "-q", "-b", branch, "main")
        (repo / "fig.puml").write_text(text)
        _git(repo, "commit", "-q", "--allow-empty", "-am", branch)
    result = tmp_path / "git.json"
    args = ["sequence", "--repo", str(repo), "--truth-ref", "main", "--quiet"]
    run = cli(*args, "--pred-ref", "m/one", "--pred-ref", "two", "--result", result)
    assert run.code == 0, run.err
    printed = " ".join(run.out.split())
    paths = [tmp_path / "git.m_one.json", tmp_path / "git.two.json"]
    for path, ref in zip(paths, ("m/one", "two"), strict=True):
        assert f"Wrote {path}" in printed
        doc = _doc(path)
        assert doc["inputs"] == {
            "repo": str(repo),
            "truth_ref": "main",
            "pred_ref": ref,
            "formats": {"truth": {"plantuml": 1}, "pred": {"plantuml": 1}},
        }
        assert _schema_errors(doc) == []
    assert load_result(paths[0]).totals["error_rate"] == 0.0
    assert load_result(paths[1]).totals["error_rate"] > 0.0


def test_graph_envelope(made: dict[str, tuple[Path, list[Path]]]) -> None:
    native = _doc(made["graph"][0])
    envelope = _doc(made["graph"][1][0])
    assert envelope["inputs"] == {
        "graph": native["graph"],
        "truth": native["truth"],
        "template": native["template"],
        "source": str(DATA / "graph" / "source.md"),
    }
    assert envelope["options"] == {"structural_align": "auto"}
    items = {item["id"]: item for item in envelope["items"]}
    assert set(items) == {f"node:{c}" for c in native["nodes"]} | {
        f"edge:{e}" for e in native["edges"]
    }
    for name, rungs in native["nodes"].items():
        detail = dict(items[f"node:{name}"]["detail"])
        unmatched = detail.pop("unmatched")
        assert detail == {rung: {k: s[k] for k in ("tp", "fp", "fn")} for rung, s in rungs.items()}
        for rung, counts in rungs.items():
            assert len(unmatched[rung]["missing"]) == counts["fn"]
            assert len(unmatched[rung]["extra"]) == counts["fp"]
    for label, rungs in native["edges"].items():
        unmatched = items[f"edge:{label}"]["detail"]["unmatched"]
        assert {r: len(u["missing"]) for r, u in unmatched.items()} == {
            r: c["fn"] for r, c in rungs.items()
        }
    dataset = envelope["dataset"]
    for key in ("integrity", "relaxed_alias_pairs", "attribute_completeness", "edge_fanout"):
        assert dataset[key] == native[key]
    assert dataset["micro"]["nodes"]["strict"] == {
        k: native["micro"]["nodes"]["strict"][k] for k in ("tp", "fp", "fn")
    }


# -- compare and report -------------------------------------------------------------------------


def test_compare_reads_envelopes(
    made: dict[str, tuple[Path, list[Path]]], tmp_path: Path, cli: Cli
) -> None:
    outputs = {}
    for label, pick in (("native", lambda c: c[0]), ("envelope", lambda c: c[1][0])):
        out = tmp_path / f"compare_{label}.json"
        files = [str(pick(made["table_a"])), str(pick(made["table_b"]))]
        names = ["--name", "a", "--name", "b"]
        result = cli("compare", *files, *names, "--resamples", "200", "--out", out)
        assert result.code == 0, result.err
        outputs[label] = _doc(out)
    assert outputs["envelope"] == outputs["native"]
    two = [str(p) for p in made["sequence2"][1]]
    out = tmp_path / "compare_models.json"
    result = cli("compare", *two, "--resamples", "200", "--permutations", "200", "--out", out)
    assert result.code == 0, result.err
    assert _doc(out)["systems"] == ["sequence2.result.model_a", "sequence2.result.model_b"]


def _page(paths: list[Path]) -> str:
    html = render_report(load_report_systems(paths, [f"s{k}" for k in range(len(paths))]))
    for path in paths:
        html = html.replace(str(path), "FILE")
    return html


def _shared(a: str, b: str) -> int:
    """The length of the common prefix of two strings."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


@pytest.mark.parametrize("case", ["flowchart", "table_a", "grits", "sequence", "graph"])
def test_report_from_an_envelope_shows_the_native_drilldown(
    made: dict[str, tuple[Path, list[Path]]], case: str
) -> None:
    """The page of an envelope is the page of the native document (the sequence one reads its
    differences from the envelope instead of the differences.csv that --report wrote)."""
    native, envelopes = made[case]
    if case == "sequence":  # the native JSON has no differences: give it the sidecar
        (native.parent / "differences.csv").write_bytes(
            (native.parent / "seq_report" / "differences.csv").read_bytes()
        )
    from_native = _page([native])
    from_envelope = _page(envelopes)
    if case == "sequence":
        from_native = from_native.replace(
            f"Differences read from {native.parent / 'differences.csv'}.",
            "Differences read from the result envelope.",
        )
        assert "Counted differences" in from_envelope
        (native.parent / "differences.csv").unlink()
        # the envelope names the scored scripts (its inputs): its split diffs add the unchanged
        # lines around each change, which the native document cannot (issue 28)
        assert '<tr class="same">' in from_envelope
        from_envelope = re.sub(r'<tr class="(?:same|skip)">.*?</tr>', "", from_envelope)
    if case in ("flowchart", "table_a", "graph"):  # what the native file cannot hold
        added, note = {
            # the edges both sides share, drawn grey
            "flowchart": ('stroke="#555"', "This file lists only the missing and extra edges"),
            "table_a": ('data-drawing="table"', "this file holds scores only"),
            "graph": ("Unmatched nodes and edges", "the nodes themselves are in the result"),
        }[case]
        head = _shared(from_native, from_envelope)
        tail = _shared(from_native[::-1], from_envelope[::-1])
        native_rest = from_native[head : len(from_native) - tail]
        envelope_rest = from_envelope[head : len(from_envelope) - tail]
        assert note in native_rest and added not in from_native
        assert added in envelope_rest and note not in from_envelope
        return
    assert from_envelope == from_native


def test_report_command_on_envelopes(
    made: dict[str, tuple[Path, list[Path]]], tmp_path: Path, cli: Cli
) -> None:
    files = [str(made[c][1][0]) for c in ("flowchart", "table_a", "sequence", "graph")]
    files += [str(p) for p in made["sequence2"][1]]
    result = cli("report", *files, "--out", tmp_path / "report")
    assert result.code == 0, result.err
    html = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    for shown in ("Node pairs", "Counted differences", "Relaxed alias pairs", "Integrity"):
        assert shown in html
    assert "sequence2.result.model_b" in html


def test_result_without_out(tmp_path: Path, cli: Cli) -> None:
    """--result does not need --out: the envelope alone is written."""
    graph = DATA / "graph"
    envelope = tmp_path / "only.json"
    result = cli(
        "graph",
        "--graph",
        graph / "graph.json",
        "--truth",
        graph / "truth.json",
        "--template",
        f"{graph / 'library_template.py'}:Library",
        "--result",
        envelope,
    )
    assert result.code == 0, result.err
    assert [p.name for p in tmp_path.iterdir()] == ["only.json"]
    assert _doc(envelope)["inputs"]["source"] is None
    assert _schema_errors(_doc(envelope)) == []


def _detail_corruptions() -> list[tuple[str, str, Callable[[dict[str, Any]], None]]]:
    """(case, what, edit) breaking one kind's described detail or dataset keys."""

    def detail(edit: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
        return lambda d: edit(d["items"][0]["detail"])

    return [
        ("flowchart", "edge of three", detail(lambda x: x["flow"].update(extra_edges=[[1, 2, 3]]))),
        (
            "flowchart",
            "bad match type",
            detail(lambda x: x["node_matches"][0].update(match_type=1)),
        ),
        ("flowchart", "parts as string", lambda d: d["dataset"].update(parts="flow")),
        ("table_a", "missing as string", lambda d: d["dataset"].update(missing="t1")),
        ("sequence", "bad change", detail(lambda x: x["differences"][0].update(change="edit"))),
        ("sequence", "count as float", detail(lambda x: x["counts"]["node"].update(gt_count=1.5))),
        ("sequence", "skipped as strings", lambda d: d["dataset"].update(skipped=["a"])),
        ("graph", "tp as string", detail(lambda x: x["strict"].update(tp="2"))),
        (
            "graph",
            "alias without class",
            lambda d: d["dataset"]["relaxed_alias_pairs"][0].pop("class"),
        ),
    ]


@pytest.mark.parametrize(("case", "what", "edit"), _detail_corruptions(), ids=lambda v: str(v))
def test_schema_checks_each_kinds_detail(
    made: dict[str, tuple[Path, list[Path]]],
    case: str,
    what: str,
    edit: Callable[[dict[str, Any]], None],
) -> None:
    doc = _doc(made[case][1][0])
    doc["items"].sort(key=lambda item: -len(json.dumps(item["detail"])))  # one with differences
    assert _schema_errors(doc) == []
    edit(doc)
    assert _schema_errors(doc), f"{case}: {what} was accepted"


def test_cli_errors_keep_their_key_paths_verbatim(
    made: dict[str, tuple[Path, list[Path]]], tmp_path: Path, cli: Cli
) -> None:
    """Square brackets in an error (key paths, extras) are text, not terminal markup."""
    doc = _doc(made["table_a"][1][0])
    doc["items"][0]["metrics"]["TEDS"] = "high"
    bad = tmp_path / "bad[v2].json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    result = cli("compare", bad, made["table_b"][1][0])
    assert result.code == 2
    err = result.err
    assert "bad[v2].json (items[0].metrics.TEDS): expected a number, found a string" in err
