"""Demo output, the aggregate CLI, and the closed-catalog guard of the truth conversion."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, Field

from cli_helpers import Cli
from parsescore.graph.demo import DEMO_DIR, run_demo
from parsescore.graph.template import graph_from_instance


def test_demo_eval_equals_reference(data_dir: Path, tmp_path: Path) -> None:
    for name in ("graph.json", "truth.json", "source.md"):
        assert (DEMO_DIR / name).read_bytes() == (data_dir / "library" / name).read_bytes()
    demo = run_demo(tmp_path / "graph")
    section = demo.section
    assert [r.kind for r in demo.results] and all(r.items for r in demo.results)
    assert section.startswith("## Graph")
    ours = json.loads((tmp_path / "graph" / "scores.json").read_text("utf-8"))
    expected = json.loads(
        (data_dir / "library" / "expected" / "eval_auto_source.json").read_text("utf-8")
    )
    for key in ("graph", "truth", "template"):
        ours.pop(key), expected.pop(key)
    assert ours == expected
    assert (tmp_path / "graph" / "audit.md").read_text("utf-8").startswith("# Template evaluation")


def test_aggregate_cli(data_dir: Path, tmp_path: Path, cli: Cli) -> None:
    root = tmp_path / "m"
    shutil.copytree(data_dir / "matrix" / "input", root)
    result = cli("graph-aggregate", "--root", root, "--csv", tmp_path / "runs.csv")
    assert result.code == 0, result.err
    assert "Aggregated 10 run(s)" in " ".join(result.out.split())
    assert (root / "synthesis_report.md").is_file() and (tmp_path / "runs.csv").is_file()
    result = cli("graph-aggregate", "--root", tmp_path / "absent")
    assert result.code == 2


class Member(BaseModel):
    model_config = ConfigDict(graph_id_fields=["code"])
    code: str


class Group(BaseModel):
    model_config = ConfigDict(graph_id_fields=["name"])
    name: str
    refs: list[Member] = Field(
        default_factory=list,
        json_schema_extra={"edge_label": "REF", "reference_closed_catalog": True},
    )


class Holder(BaseModel):
    model_config = ConfigDict(graph_id_fields=["name"])
    name: str
    groups: list[Group] = Field(default_factory=list)
    members: list[Member] = Field(default_factory=list)


def test_closed_catalog_guard_keeps_a_class_with_no_anchored_member() -> None:
    only_refs = Holder.model_validate(
        {"name": "h", "groups": [{"name": "g", "refs": [{"code": "m"}]}]}
    )
    graph = graph_from_instance(only_refs)
    assert [e["label"] for e in graph.edges if e["label"] == "REF"] == ["REF"]  # guard: kept
    mixed = Holder.model_validate(
        {
            "name": "h",
            "groups": [{"name": "g", "refs": [{"code": "m"}, {"code": "x"}]}],
            "members": [{"code": "m"}],
        }
    )
    graph = graph_from_instance(mixed)
    codes = sorted(n.get("code") for n in graph.nodes if n["__class__"] == "Member")
    assert codes == ["m"]  # 'x' only existed through the closed catalogue: edge and node dropped
    assert all("_closed_catalog" not in e for e in graph.edges)


def test_terminal_lists_the_first_pairs_and_counts_the_rest(
    template_path: Path, tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large graph has thousands of alias/aligned pairs: the terminal shows the first 20 of
    each list and says how many more --out holds."""
    from parsescore.graph.summary import SHOWN_PAIRS

    folder = template_path / "billing"
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2] / "benchmarks"))
    out = tmp_path / "eval.json"
    result = cli(
        "graph", "--graph", folder / "graph.json", "--truth", folder / "truth.json",
        "--template", "graph_billing_template.BillingDocument", "--structural-align", "on",
        "--out", out,
    )  # fmt: skip
    assert result.code == 0, result.err
    report = json.loads(out.read_text("utf-8"))
    lists = (report["relaxed_alias_pairs"], report["structural_alignment"]["pairs"])
    assert all(len(pairs) > SHOWN_PAIRS for pairs in lists)  # the fixture exercises the cap
    for pairs in lists:
        assert f"… and {len(pairs) - SHOWN_PAIRS} more" in result.out
        shown = [
            p
            for p in pairs[: SHOWN_PAIRS + 1]
            if f"{p['truth']!r} ~ {p['extracted']!r}" in result.out
        ]
        assert len(shown) == SHOWN_PAIRS
