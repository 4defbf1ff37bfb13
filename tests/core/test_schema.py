"""parsescore.core.schema: the published JSON Schemas validate every command's REAL --out JSON."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from cli_helpers import Cli, run_cli
from parsescore.core.errors import InputError
from parsescore.core.results import load_results
from parsescore.core.schema import DRAFT, schema, schema_json, schema_names, validate
from parsescore.sequence.model import CATEGORIES

SCHEMA_KINDS = schema_names()

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "parsescore" / "data"


def _cells(texts: list[list[str]], *, boxes: bool) -> list[dict[str, Any]]:
    """A table-transformer cell list of a grid of texts (with or without boxes)."""
    cells = []
    for r, row in enumerate(texts):
        for c, text in enumerate(row):
            cell: dict[str, Any] = {"row_nums": [r], "column_nums": [c], "cell_text": text}
            if boxes:
                cell["bbox"] = [10.0 * c, 10.0 * r, 10.0 * c + 9, 10.0 * r + 9]
            cells.append(cell)
    return cells


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """Real --out documents of every command, made by the commands themselves."""
    out = tmp_path_factory.mktemp("schema")
    made: dict[str, list[Path]] = {k: [] for k in SCHEMA_KINDS if k not in ("result", "any")}

    for k, (truth, pred) in enumerate(
        [
            (ROOT / "tests/flowchart/seed_example/ground-truth", "predictions"),
            (DATA / "flowchart/ground-truth", "predictions"),
        ]
    ):
        path = out / f"flowchart{k}.json"
        result = run_cli(
            [
                "flowchart",
                "--truth",
                str(truth),
                "--pred",
                str(truth.parent / pred),
                "--out",
                str(path),
            ],
            None,
        )
        assert result.code == 0, result.err
        made["flowchart"].append(path)

    document = out / "document.json"
    made_document = run_cli(
        ["document", "--truth", str(DATA / "document" / "truth.json"), "--pred",
         str(DATA / "document" / "model_a"), "--out", str(document)],
        None,
    )  # fmt: skip
    assert made_document.code == 0, made_document.err
    made["document"].append(document)

    tables = DATA / "table" / "pubtabnet_samples"
    for name, pred in (("sys_a", "sample_pred.json"), ("sys_b", "sample_gt.json")):
        path = out / f"{name}.json"
        result = run_cli(
            [
                "table",
                "--truth",
                str(tables / "sample_gt.json"),
                "--pred",
                str(tables / pred),
                "--jobs",
                "1",
                "--quiet",
                "--out",
                str(path),
            ],
            None,
        )
        assert result.code == 0, result.err
        made["table"].append(path)
    structure = out / "structure_only.json"
    result = run_cli(
        [
            "table",
            "--truth",
            str(tables / "sample_gt.json"),
            "--pred",
            str(tables / "sample_pred.json"),
            "--structure-only",
            "--no-grits",
            "--jobs",
            "1",
            "--quiet",
            "--out",
            str(structure),
        ],
        None,
    )
    assert result.code == 0, result.err
    made["table"].append(structure)

    grid = [["a", "b"], ["1", "2"]]
    for boxes in (True, False):
        truth_cells = out / f"cells_truth_{boxes}.json"
        pred_cells = out / f"cells_pred_{boxes}.json"
        truth_cells.write_text(
            json.dumps({"t1": _cells(grid, boxes=boxes), "t2": _cells(grid, boxes=boxes)})
        )
        pred_cells.write_text(json.dumps({"t1": _cells([["a", "b"], ["1", "3"]], boxes=boxes)}))
        path = out / f"grits_{boxes}.json"
        result = run_cli(
            ["grits", "--truth", str(truth_cells), "--pred", str(pred_cells), "--out", str(path)],
            None,
        )
        assert result.code == 0, result.err
        made["grits"].append(path)

    seq = DATA / "sequence"
    one, two = out / "seq_one.json", out / "seq_two.json"
    result = run_cli(
        [
            "sequence",
            "--truth",
            str(seq / "truth"),
            "--pred",
            str(seq / "model_a"),
            "--quiet",
            "--out",
            str(one),
        ],
        None,
    )
    assert result.code == 0, result.err
    result = run_cli(
        [
            "sequence",
            "--truth",
            str(seq / "truth"),
            "--pred",
            str(seq / "model_a"),
            "--pred",
            str(seq / "model_b"),
            "--quiet",
            "--out",
            str(two),
        ],
        None,
    )
    assert result.code == 0, result.err
    made["sequence"] += [one, two]

    graph = DATA / "graph"
    path = out / "eval.json"
    result = run_cli(
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
            "--out",
            str(path),
        ],
        None,
    )
    assert result.code == 0, result.err
    made["graph"].append(path)

    path = out / "compare.json"
    result = run_cli(
        [
            "compare",
            str(made["table"][0]),
            str(made["table"][1]),
            "--resamples",
            "200",
            "--permutations",
            "200",
            "--out",
            str(path),
        ],
        None,
    )
    assert result.code == 0, result.err
    made["compare"].append(path)
    return {k: [json.loads(p.read_text(encoding="utf-8")) for p in v] for k, v in made.items()}


def _errors(doc: Any, kind: str) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema(kind))
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(doc)]


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_schemas_are_valid_draft_2020_12(kind: str) -> None:
    doc = schema(kind)
    assert doc["$schema"] == DRAFT
    jsonschema.Draft202012Validator.check_schema(doc)
    assert json.loads(schema_json(kind)) == doc
    assert schema_json(kind) == schema_json(kind)  # deterministic bytes


@pytest.mark.parametrize("kind", [k for k in SCHEMA_KINDS if k not in ("result", "any")])
def test_real_outputs_validate(docs: dict[str, list[dict[str, Any]]], kind: str) -> None:
    assert docs[kind], kind
    for doc in docs[kind]:
        assert _errors(doc, kind) == []
        if kind != "compare":  # every loadable kind document is an `any`, not an envelope
            assert _errors(doc, "any") == []
            assert _errors(doc, "result")


def test_outputs_cover_the_optional_shapes(docs: dict[str, list[dict[str, Any]]]) -> None:
    """The fixture really exercises both sequence shapes, GriTS-Loc null/number and --no-grits."""
    assert set(docs["sequence"][0]) == {"totals", "files", "readable"}
    assert set(docs["sequence"][1]) == {"model_a", "model_b"}
    locs = [doc["metrics"]["GriTS-Loc"]["mean"] for doc in docs["grits"]]
    assert isinstance(locs[0], float) and locs[1] is None
    assert "GriTS-Con" not in docs["table"][2]["metrics"]
    assert docs["table"][2]["metric"] == "TEDS-S"
    assert any("flow" in d for d in docs["flowchart"][0]["diagrams"])


def test_sequence_categories_match_the_sequence_package() -> None:
    assert SCHEMA_KINDS == (
        "flowchart", "table", "grits", "sequence", "graph", "document", "compare", "result", "any"
    )  # fmt: skip
    totals = schema("sequence")["$defs"]["sequence_totals"]
    assert totals["required"] == list(CATEGORIES)
    assert totals["additionalProperties"] is False


def test_validated_documents_are_the_ones_load_result_reads(
    docs: dict[str, list[dict[str, Any]]], tmp_path: Path
) -> None:
    for kind in ("flowchart", "table", "grits", "sequence", "graph"):
        for k, doc in enumerate(docs[kind]):
            path = tmp_path / f"{kind}{k}.json"
            path.write_text(json.dumps(doc))
            expected = "table" if kind == "grits" else kind
            assert {r.kind for r in load_results(path)} == {expected}


def _corruptions(docs: dict[str, list[dict[str, Any]]]) -> list[tuple[str, str, Any]]:
    """(kind, what, broken document) for each kind: a missing key and a wrong type, deep and top."""
    out: list[tuple[str, str, Any]] = []

    def broken(kind: str, what: str, index: int, edit: Any) -> None:
        doc = copy.deepcopy(docs[kind][index])
        edit(doc)
        out.append((kind, what, doc))

    broken("flowchart", "no diagrams", 0, lambda d: d.pop("diagrams"))
    broken("flowchart", "tp as float", 0, lambda d: d["totals"]["flow_micro"].update(tp=1.5))
    broken("flowchart", "cost as string", 0, lambda d: d["diagrams"][0].update(node_text_cost="1"))
    broken(
        "flowchart",
        "bad match type",
        0,
        lambda d: d["diagrams"][0]["node_matches"][0].update(match_type="x"),
    )
    broken("flowchart", "no stem", 0, lambda d: d["diagrams"][0].pop("stem"))
    broken("table", "no n_tables", 0, lambda d: d.pop("n_tables"))
    broken("table", "score as string", 0, lambda d: d["metrics"]["TEDS"]["scores"].update(x="0.5"))
    broken("table", "null TEDS mean", 0, lambda d: d["metrics"]["TEDS"].update(mean=None))
    broken("table", "bad denominator", 0, lambda d: d["options"].update(denominator="all"))
    broken("grits", "no metrics", 0, lambda d: d.pop("metrics"))
    broken("grits", "n_tables as string", 0, lambda d: d.update(n_tables="2"))
    broken("sequence", "no files", 0, lambda d: d.pop("files"))
    broken(
        "sequence", "unknown category", 0, lambda d: d["totals"].update(arrow=d["totals"]["node"])
    )
    broken("sequence", "missing category", 0, lambda d: d["files"][0].pop("note"))
    broken("sequence", "count as float", 0, lambda d: d["totals"]["node"].update(insertion=0.5))
    broken("sequence", "model without totals", 1, lambda d: d["model_b"].pop("totals"))
    broken("graph", "no micro", 0, lambda d: d.pop("micro"))
    broken("graph", "p as string", 0, lambda d: d["nodes"]["Book"]["strict"].update(p="0.5"))
    broken("graph", "no strict rung", 0, lambda d: d["edges"]["HOLDS"].pop("strict"))
    broken("compare", "no only_in", 0, lambda d: d.pop("only_in"))
    broken(
        "compare",
        "p_value as string",
        0,
        lambda d: d["metrics"]["TEDS"]["differences"][0].update(p_value="0"),
    )
    broken(
        "compare", "no ci_low", 0, lambda d: d["metrics"]["TEDS"]["systems"]["sys_a"].pop("ci_low")
    )
    return out


def test_corrupted_documents_fail(docs: dict[str, list[dict[str, Any]]]) -> None:
    cases = _corruptions(docs)
    assert len(cases) == 22
    for kind, what, doc in cases:
        assert _errors(doc, kind), f"{kind}: {what} was accepted"
        if kind != "compare":
            assert _errors(doc, "any"), f"any: {kind} {what} was accepted"
        with pytest.raises(InputError, match=f"not a valid {kind} document"):
            validate(doc, kind)


def test_any_rejects_other_documents(docs: dict[str, list[dict[str, Any]]]) -> None:
    assert _errors(docs["compare"][0], "any")
    assert _errors({}, "any")
    assert _errors([1, 2], "any")
    assert _errors(docs["sequence"][0], "graph")


def test_validate_names_the_place(docs: dict[str, list[dict[str, Any]]]) -> None:
    with pytest.raises(InputError, match=r"^totals: .*'node' is a required property"):
        validate({"totals": {}, "files": []}, "sequence")
    with pytest.raises(InputError, match=r"^model_a: .*'files' is a required property"):
        validate({"model_a": {"totals": {}}}, "sequence")
    with pytest.raises(InputError, match=r"^n_tables: .*is not of type 'integer'"):
        validate(docs["grits"][0] | {"n_tables": "2"}, "grits")
    validate(docs["grits"][0], "grits")  # the real document passes


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_schema_command_prints_the_schema(kind: str, cli: Cli) -> None:
    result = cli("schema", kind)
    assert result.code == 0, result.err
    assert json.loads(result.out) == schema(kind)


def test_schema_command_writes_out(tmp_path: Path, cli: Cli) -> None:
    path = tmp_path / "deep" / "table.schema.json"
    result = cli("schema", "table", "--out", path)
    assert result.code == 0, result.err
    assert result.out == f"Wrote {path}\n"
    assert path.read_text(encoding="utf-8") == schema_json("table")


def test_schema_command_unknown_kind(cli: Cli) -> None:
    result = cli("schema", "tables")
    assert result.code == 2 and result.err.startswith("error: "), result.err
    assert "unknown schema 'tables'" in result.err
    assert "flowchart, table, grits, sequence, graph, document, compare, result, any" in result.err


def test_schema_is_a_fresh_copy() -> None:
    first = schema("graph")
    first["$defs"]["prf"]["properties"]["tp"]["minimum"] = 99
    assert schema("graph")["$defs"]["prf"]["properties"]["tp"]["minimum"] == 0
    assert schema("table")["$defs"]["table"]["properties"]["n_tables"]["minimum"] == 0
