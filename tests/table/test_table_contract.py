"""The table kind on the core contract (issue 24): options declared once (the command's flags,
``evaluate``'s checks, the docs), one reader registry (the choices, ``auto``, the docs), totals
built by the core from the metrics' declarations (bit for bit what the document's reference-style
means are), the result read from the native document, and a summary printed from the result
alone (a run and its envelope read back print the same)."""

from __future__ import annotations

import inspect
import json
import re
import typing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_helpers import wrap

import parsescore
from cli_helpers import Cli
from parsescore.cli.common import wide_console as console
from parsescore.cli.main import build_app
from parsescore.core.errors import InputError
from parsescore.core.options import declared, docs_table
from parsescore.core.results import Reader, load_result
from parsescore.shared.tables.registry import FORMATS
from parsescore.table.batch import BatchResult, TableScores
from parsescore.table.kind import KIND
from parsescore.table.metrics import GRITS, GRITS_KEYS, TOTALS
from parsescore.table.options import TableFormat, TableOptions
from parsescore.table.result import _grits_document, read

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "src/parsescore/data/table/pubtabnet_samples"
GOLDEN = ROOT / "tests/golden/inputs"
DOCS = (ROOT / "docs/table.md").read_text(encoding="utf-8")


def test_format_choices_are_the_registry() -> None:
    assert typing.get_args(TableFormat) == (*(f.name for f in FORMATS), "auto")
    assert KIND.formats == FORMATS
    for name in ("truth_format", "pred_format"):
        option = next(o for o in declared(TableOptions) if o.name == name)
        assert option.choices == typing.get_args(TableFormat)


def test_the_table_command_is_its_declared_options() -> None:
    command = build_app().functions["table"]
    flags = set(inspect.signature(command).parameters)
    options = {o.name for o in declared(TableOptions) if o.where != "api"}
    assert flags == options | {"truth", "pred", "out", "result", "csv"}


def test_grits_and_teds_take_their_shared_flags_from_the_declarations(cli: Cli) -> None:
    def flat(text: str) -> str:  # help is wrapped, at spaces and after hyphens
        return "".join(text.split())

    grits_help = flat(cli("grits", "--help").out)
    for name in ("latex_math", "strict", "allow_missing", "jobs", "cache", "quiet", "name"):
        option = next(o for o in declared(TableOptions) if o.name == name)
        assert flat(option.help) in grits_help, name
    for flag, name in (("--iou", "grits_iou"), ("--lcs", "grits_lcs")):
        option = next(o for o in declared(TableOptions) if o.name == name)
        assert flag in grits_help and flat(option.help) in grits_help
    teds_help = flat(cli("teds", "--help").out)
    for name in ("truth_format", "pred_format", "latex_math"):
        option = next(o for o in declared(TableOptions) if o.name == name)
        assert flat(option.help) in teds_help


def test_the_docs_list_the_declared_options_and_the_registry() -> None:
    assert docs_table(declared(TableOptions)) in DOCS
    for entry in FORMATS:
        row = re.search(rf"^\| `{re.escape(entry.name)}` \| [^|]* \| (.*) \|$", DOCS, re.M)
        assert row is not None and row.group(1) == entry.description, entry.name


def test_negations_repeated_flags_and_bad_values(tmp_path: Path, cli: Cli) -> None:
    truth = {"a": wrap("<tr><td><b>x</b><i>y</i></td><td>1</td></tr>")}
    pred = {"a": wrap("<tr><td>xy</td><td>1</td></tr>")}
    (tmp_path / "t.json").write_text(json.dumps(truth))
    (tmp_path / "p.json").write_text(json.dumps(pred))
    base = ["table", "--truth", tmp_path / "t.json", "--pred", tmp_path / "p.json", "--quiet"]
    docs = {}
    for name, extra in (
        ("comma", ["--ignore-nodes", "b,i"]),
        ("repeated", ["--ignore-nodes", "b", "--ignore-nodes", "i"]),
        ("no-grits", ["--no-grits"]),
    ):
        run = cli(*base, *extra, "--out", tmp_path / f"{name}.json")
        assert run.code == 0, run.err
        docs[name] = json.loads((tmp_path / f"{name}.json").read_text())
    assert docs["comma"] == docs["repeated"]
    assert docs["comma"]["options"]["ignore_nodes"] == ["b", "i"]
    assert docs["comma"]["scores"] == {"a": 1.0}
    assert (
        "GriTS-Con" not in docs["no-grits"]["metrics"] and not docs["no-grits"]["options"]["grits"]
    )
    csv_truth = {"a": wrap("<tbody><tr><td>x</td></tr><tr><td>1</td></tr></tbody>")}
    (tmp_path / "csv_t.json").write_text(json.dumps(csv_truth))
    (tmp_path / "csv_p.json").write_text(json.dumps({"a": "x\n1\n"}))
    args = ["table", "--truth", tmp_path / "csv_t.json", "--pred", tmp_path / "csv_p.json"]
    args += ["--pred-format", "csv", "--quiet", "--out", tmp_path / "csv.json"]
    assert cli(*args, "--no-header").code == 0
    assert json.loads((tmp_path / "csv.json").read_text())["scores"] == {"a": 1.0}
    bad = cli(*base, "--denominator", "nodes")
    assert bad.code == 2 and "nodes" in bad.err and "Traceback" not in bad.err
    with pytest.raises(InputError, match="option 'grits_lcs' must be one of difflib, exact"):
        parsescore.evaluate("table", truth, pred, grits_lcs="fast")
    with pytest.raises(InputError, match="unknown option 'with_grits'"):
        parsescore.evaluate("table", truth, pred, with_grits=False)
    with pytest.raises(InputError, match="cells=True scores GriTS only"):
        parsescore.evaluate("table", truth, pred, cells=True, normalise=True)


@pytest.mark.parametrize(
    "args",
    [
        ["table", "--truth", SAMPLES / "sample_gt.json", "--pred", "{pred}"],
        ["table", "--truth", SAMPLES / "sample_gt.json", "--pred", "{pred}", "--allow-missing"],
        ["table", "--truth", SAMPLES / "sample_gt.json", "--pred", "{pred}", "--structure-only"],
        ["grits", "--truth", GOLDEN / "grits_truth.json", "--pred", GOLDEN / "grits_pred.json"],
        [
            *("grits", "--truth", SAMPLES / "sample_gt.json", "--pred", "{pred}"),
            *("--truth-format", "html", "--pred-format", "auto"),
        ],
    ],
)
def test_a_loaded_envelope_prints_the_summary_of_its_run(
    args: list[object], tmp_path: Path, cli: Cli, capsys: pytest.CaptureFixture[str]
) -> None:
    # answers: some missing, one unreadable, one without truth, the rest as the samples give them
    pred = json.loads((SAMPLES / "sample_pred.json").read_text())
    names = list(pred)
    pred = {name: pred[name] for name in names[3:]} | {names[3]: "no table here", "x": "<table/>"}
    (tmp_path / "pred.json").write_text(json.dumps(pred))
    argv = [str(tmp_path / "pred.json") if a == "{pred}" else a for a in args]
    run = cli(*argv, "--quiet", "--result", tmp_path / "r.json")
    assert run.code == 0, run.err
    capsys.readouterr()
    KIND.summarise(load_result(tmp_path / "r.json"), console())
    loaded = capsys.readouterr()
    ran = [line for line in run.out.splitlines() if not line.startswith("Wrote ")]
    assert loaded.out.splitlines() == ran
    assert loaded.err == run.err


_SCORE = st.floats(-1.0, 1.0, allow_nan=False)


@st.composite
def _batch(draw: st.DrawFn) -> BatchResult:
    n = draw(st.integers(1, 12))
    tables = [
        TableScores(
            f"t{k}",
            draw(_SCORE),
            draw(_SCORE),
            {key: draw(_SCORE) for key in GRITS_KEYS if not key.startswith("loc")},
        )
        for k in range(n)
    ]
    return BatchResult(tables, [], [], draw(st.booleans()), {"grits": True})


@settings(max_examples=200, deadline=None)
@given(_batch())
def test_totals_are_the_reference_means_to_the_last_bit(batch: BatchResult) -> None:
    doc = batch.to_json()
    for entry in doc["metrics"].values():
        values = list(entry["scores"].values())
        assert entry["mean"] == sum(values) / len(values)  # PubTabNet's batch mean, in order
    doc["metrics"]["readable"] = {"mean": 0.75, "scores": dict.fromkeys(doc["scores"], 1.0)}
    (result,) = read(json.loads(json.dumps(doc)), Reader(None), "r")
    expected = {name: entry["mean"] for name, entry in doc["metrics"].items()}
    assert result.totals == expected | {"n_tables": float(len(batch.tables))}
    assert list(result.totals) == [*doc["metrics"], "n_tables"]


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.text("abc", min_size=1, max_size=3),
        st.fixed_dictionaries({key: st.one_of(st.none(), _SCORE) for key in GRITS_KEYS}),
        min_size=1,
        max_size=8,
    )
)
def test_grits_totals_are_the_means_of_what_was_measured(
    tables: dict[str, dict[str, float | None]],
) -> None:
    doc = _grits_document(tables, [], [])
    for metric, key in zip(GRITS, GRITS_KEYS, strict=True):
        present = [v[key] for v in tables.values() if v[key] is not None]
        expected = sum(present) / len(present) if present else None
        assert doc["metrics"][metric.name]["mean"] == expected
    (result,) = read(json.loads(json.dumps(doc)), Reader(None), "r")
    means = {m.name: doc["metrics"][m.name]["mean"] for m in GRITS}
    assert result.totals == {k: v for k, v in means.items() if v is not None} | {
        "n_tables": float(len(tables))
    }


def test_every_total_declares_its_aggregation() -> None:
    from parsescore.core.kinds import Dataset, Items, Mean

    kinds = {m.name: type(m.aggregate) for m in TOTALS}
    assert kinds.pop("readable") is Dataset and kinds.pop("n_tables") is Items
    assert set(kinds.values()) == {Mean}


def test_the_metric_names_are_spelled_out_once() -> None:
    """GriTS's and TEDS's names are written in table/metrics.py only; every other module takes
    them from there (they were written out in five places)."""
    package = ROOT / "src/parsescore/table"
    pattern = re.compile(
        r"""(["'])(?:GriTS-(?:Top|Con|Loc)(?: precision| recall)?|TEDS(?:-S)?)\1"""
    )
    for module in sorted(package.glob("*.py")):
        if module.name in ("metrics.py", "__init__.py", "teds.py"):
            continue  # teds.py and __init__ name the TEDS class, not the metric
        code = re.sub(r'"""[\s\S]*?"""', "", module.read_text(encoding="utf-8"))
        assert not pattern.search(code), module.name
