"""Kinds are plugins: a kind defined in the test suite ("text", character error rate) gets its
CLI command, --out/--result/--csv, load_result, schema, compare and report sections from the
registry alone; the core modules name no kind; metric metadata drives every direction."""

from __future__ import annotations

import ast
import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from parsescore_textkind import KIND as TEXT
from parsescore_textkind import character_error_rate

import parsescore
from parsescore.core.errors import InputError
from parsescore.core.kinds import Kind, Metric, get_kind, kind_names, kinds, registered
from parsescore.core.results import load_result, results_from_json

SRC = Path(parsescore.__file__).resolve().parent
#: The core: everything that is not a kind's package.
CORE = sorted(
    p
    for p in SRC.rglob("*.py")
    if p.relative_to(SRC).parts[0] not in {kind.name for kind in kinds()}
    and "data" not in p.relative_to(SRC).parts
)


@pytest.fixture
def text_kind() -> Iterator[Kind]:
    with registered(TEXT) as kind:
        yield kind


@pytest.fixture
def texts(tmp_path: Path) -> dict[str, Path]:
    truth, good, bad = (tmp_path / name for name in ("truth", "good", "bad"))
    samples = {
        "a": ("hello world", "hello world", "hallo wrld"),
        "b": ("parsescore", "parsescore!", "parse"),
        "c": ("abc", "abd", "xyz"),
        "d": ("one two three", "one two three", "one two tree"),
    }
    for folder in (truth, good, bad):
        folder.mkdir()
    for stem, (t, g, b) in samples.items():
        (truth / f"{stem}.txt").write_text(t, encoding="utf-8")
        (good / f"{stem}.txt").write_text(g, encoding="utf-8")
        (bad / f"{stem}.txt").write_text(b, encoding="utf-8")
    return {"truth": truth, "good": good, "bad": bad, "root": tmp_path}


def test_a_kind_registered_in_a_test_gets_every_core_service(text_kind, texts, cli) -> None:
    root = texts["root"]
    # the library entry point
    result = parsescore.evaluate("text", texts["truth"], texts["bad"])
    assert result.kind == "text" and list(result.items) == ["a", "b", "c", "d"]
    assert result.items["c"]["cer"] == character_error_rate("abc", "xyz")[0] == 1.0
    # its CLI command with --out, --result and --csv
    run = cli(
        "text", "--truth", texts["truth"], "--pred", texts["bad"],
        "--out", root / "bad.json", "--result", root / "bad.env.json", "--csv", root / "bad.csv",
    )  # fmt: skip
    assert run.code == 0, run.err
    assert f"Wrote {root / 'bad.json'}" in run.out and "CER" in run.out
    native = json.loads((root / "bad.json").read_text())
    assert native == result.native
    # --csv: one row per item, the same numbers as --out
    rows = list(csv.DictReader(io.StringIO((root / "bad.csv").read_text())))
    assert [r["id"] for r in rows] == ["a", "b", "c", "d"]
    assert {r["id"]: float(r["cer"]) for r in rows} == {
        f["name"]: f["cer"] for f in native["files"]
    }
    # load_result reads both the native document and the envelope back, counts included
    assert load_result(root / "bad.json").items == result.items
    envelope = load_result(root / "bad.env.json")
    assert envelope.kind == "text" and envelope.items == result.items
    assert envelope.details == result.details and envelope.counts == result.counts
    assert envelope.totals == result.totals == load_result(root / "bad.json").totals
    # schema: the kind's document and the envelope's detail
    run = cli("schema", "text")
    assert run.code == 0, run.err
    import jsonschema

    jsonschema.validate(native, json.loads(run.out))
    from parsescore.core.schema import schema, validate

    validate(json.loads((root / "bad.env.json").read_text()), "result")
    broken = json.loads((root / "bad.env.json").read_text())
    broken["items"][0]["detail"] = {"distance": "many"}
    with pytest.raises(InputError, match="not a valid result document"):
        validate(broken, "result")
    assert "text" in schema("any")["$defs"]
    # compare: lower CER is better, so the good system is the best
    assert cli("text", "--truth", texts["truth"], "--pred", texts["good"],
               "--out", root / "good.json").code == 0  # fmt: skip
    run = cli("compare", root / "good.json", root / "bad.json", "--out", root / "cmp.json",
              "--resamples", "200", "--permutations", "200")  # fmt: skip
    assert run.code == 0, run.err
    assert "cer ↓" in run.out
    comparison = json.loads((root / "cmp.json").read_text())
    means = comparison["metrics"]["cer"]["systems"]
    assert means["good"]["mean"] < means["bad"]["mean"]
    # report: the kind's own section, title and drill-down
    run = cli("report", root / "good.json", root / "bad.env.json", "--out", root / "report",
              "--resamples", "200", "--permutations", "200")  # fmt: skip
    assert run.code == 0, run.err
    page = (root / "report" / "index.html").read_text()
    assert 'data-kind="text"' in page and "Plain texts" in page
    assert 'class="text-kind"' in page and "CER ↓" in page
    assert "text CER is all edits over all truth characters" in page
    # the help lists it; unregistered, it is gone
    assert "text" in cli("--help").out


def test_an_unregistered_kind_is_unknown_everywhere(texts, cli) -> None:
    assert "text" not in kind_names()
    run = cli("text", "--truth", texts["truth"], "--pred", texts["bad"])
    assert run.code == 2 and run.err.startswith("error: No such command 'text'")
    with pytest.raises(InputError, match="unknown kind 'text'"):
        parsescore.evaluate("text", texts["truth"], texts["bad"])
    doc = {"kind": "text", "files": [], "totals": {}}
    with pytest.raises(InputError, match="kind 'text', which is not registered"):
        results_from_json(doc)


def test_evaluate_names_the_options_a_kind_has(text_kind, texts) -> None:
    with pytest.raises(InputError, match=r"text: .*'threshold'.*its options: name"):
        parsescore.evaluate("text", texts["truth"], texts["bad"], threshold=0.3)
    with pytest.raises(InputError, match=r"flowchart: .*its options: .*expected_num_diagrams"):
        parsescore.evaluate("flowchart", "t", "p", structure_only=True)


def test_a_kind_name_is_registered_once() -> None:
    with registered(TEXT), pytest.raises(ValueError, match="already registered"):
        parsescore.register_kind(TEXT)
    assert "text" not in kind_names()


def test_a_metric_declared_twice_must_agree() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        Kind(
            **{
                **TEXT.__dict__,
                "totals": (Metric("cer", "CER", True),),  # the items say lower is better
            }
        )


def test_directions_come_from_the_metric_metadata() -> None:
    table = get_kind("table")
    assert table.metric("TEDS").higher_is_better is True
    assert get_kind("flowchart").metric("node_text_cost").higher_is_better is False
    assert get_kind("flowchart").metric("flow_f1").higher_is_better is True
    sequence = get_kind("sequence")  # error rates; and coverage's readable share
    assert all(m.higher_is_better is False for m in sequence.metrics if m.name != "readable")
    assert sequence.metric("readable").higher_is_better is True
    assert get_kind("graph").metric("edge_relaxed_precision").higher_is_better is True
    # a metric nobody declared has no direction: an error, not a guess
    with pytest.raises(InputError, match="no metric 'TEDS-error'"):
        table.metric("TEDS-error")
    # so a result carrying one cannot be ranked silently
    from parsescore.core.compare import compare_results
    from parsescore.core.results import Result

    a = Result("table", "a", {"t1": {"TEDS-error": 0.1}, "t2": {"TEDS-error": 0.2}})
    b = Result("table", "b", {"t1": {"TEDS-error": 0.3}, "t2": {"TEDS-error": 0.4}})
    with pytest.raises(InputError, match="its direction is unknown"):
        compare_results([a, b], n_resamples=10, n_permutations=10)


def test_every_kind_declares_its_headline_and_formats() -> None:
    for kind in kinds():
        assert kind.headline_metrics(), kind.name
        assert kind.headline_totals(), kind.name
        for metric in (*kind.metrics, *kind.totals):
            assert metric.label and metric.format in ("score", "percent", "cost", "count")
    cost = get_kind("flowchart").metric("node_text_cost")
    assert (cost.show(4.0), cost.show(2.5), cost.arrow) == ("4", "2.50", "↓")
    assert get_kind("sequence").metric("error_rate").show(1 / 3) == "0.33"
    assert get_kind("table").metric("TEDS").show(1 / 3) == "0.3333"


def _string_constants(path: Path) -> set[str]:
    return {
        node.value
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_core_names_no_kind() -> None:
    """No core module imports a kind's package or holds a kind's name as a string; the one
    registry line per kind (``BUILTIN_KINDS``) is the exception."""
    names = set(kind_names())
    assert {"flowchart", "table", "sequence", "graph"} <= names
    assert len(CORE) > 15
    for path in CORE:
        where = path.relative_to(SRC)
        for module in _imports(path):
            parts = module.split(".")
            assert not (parts[0] == "parsescore" and len(parts) > 1 and parts[1] in names), (
                f"{where} imports {module}"
            )
        constants = _string_constants(path)
        if where == Path("core/kinds.py"):
            constants -= {f"parsescore.{name}.kind:KIND" for name in names}
        if where.parts[:2] == ("shared", "tables"):
            constants -= {"table"}  # HTML's <table> and markdown-it's table rule, not the kind
        for constant in constants:
            assert constant not in names, f"{where} names the kind {constant!r}"
            assert not any(constant.startswith(f"parsescore.{n}.") for n in names), (
                f"{where} refers to {constant!r}"
            )


def test_a_kind_package_imports_no_other_kind() -> None:
    names = set(kind_names())
    for name in names:
        for path in (SRC / name).rglob("*.py"):
            for module in _imports(path):
                parts = module.split(".")
                if parts[0] == "parsescore" and len(parts) > 1 and parts[1] in names:
                    assert parts[1] == name, f"{path.relative_to(SRC)} imports {module}"


def test_a_kind_whose_schema_lacks_its_envelope_parts_is_named() -> None:
    from dataclasses import replace

    from parsescore.core.schema import schema

    incomplete = replace(TEXT, schema=lambda: {"text": {"type": "object"}})
    with registered(incomplete), pytest.raises(ValueError, match=r"'text'.*text_detail"):
        schema("result")


def _command_flags(cli: Any, command: str) -> set[str]:
    """Every ``--flag`` spelling ``parsescore COMMAND --help`` lists (wide: no flag wrapped)."""
    run = cli(command, "--help")
    assert run.code == 0, run.err
    flags: set[str] = set()
    for line in run.out.splitlines():  # an option's line starts with its flags
        # "--x/--no-x" (a negatable bool) or "--pred, --graph" (an alias)
        found = re.match(r"\s+(--[a-z][a-z0-9-]*)(?:\s*[/,]\s*(--[a-z][a-z0-9-]*))?", line)
        if found:
            flags |= {flag for flag in found.groups() if flag}
    return flags - {"--help"}


def test_every_command_has_exactly_its_declared_flags(text_kind, cli, monkeypatch) -> None:
    """A kind's command is built from its options model: its flags are the declared ones plus
    the common --truth/--pred/--out/--result/--csv, for every kind with a command (the old
    spellings of --pred, ``pred_flags``, are accepted but not shown)."""
    from parsescore.core.options import declared

    monkeypatch.setenv("COLUMNS", "250")
    common = {"--truth", "--pred", "--out", "--result", "--csv"}
    checked = []
    for kind in kinds():
        if kind.command is None or kind.options is None:
            continue
        expected = set(common)
        for option in declared(kind.options):
            if option.where != "api":
                for spelling in option.flags:
                    expected |= {f for f in spelling.split("/")}
        assert _command_flags(cli, kind.name) == expected, kind.name
        checked.append(kind.name)
    assert "text" in checked
