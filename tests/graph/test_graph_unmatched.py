"""The unmatched node/edge lists agree with eval.json's counts and name the right items."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_helpers import Cli
from parsescore.core.errors import InputError
from parsescore.graph.api import evaluate_files, evaluate_generic_files
from parsescore.graph.demo import DEMO_DIR
from parsescore.graph.evaluate import build_report, edge_keys, match_graphs
from parsescore.graph.io import read_instance
from parsescore.graph.template import (
    GraphData,
    collect_id_fields,
    load_template,
)
from parsescore.graph.unmatched import Unmatched, key_label, unmatched_files, unmatched_items

TEMPLATES = {
    "library": "library_template.Library",
    "study": "study_template.Study",
    "catalog": "catalog_template.Catalog",
}
VARIANTS = [  # the modes of test_graph_reference_parity
    ("library", {"source": "source.md"}),
    ("library", {}),
    ("library", {"structural_align": "on"}),
    ("library", {"structural_align": "off", "source": "source.md"}),
    ("study", {"source": "source.md"}),
    ("study", {"structural_align": "on"}),
    ("study", {"structural_align": "off"}),
    ("catalog", {"source": "source.md"}),
    ("catalog", {}),
]
DEMO_MODES: list[dict[str, Any]] = [
    {"source": DEMO_DIR / "source.md"},
    {},
    {"structural_align": "on"},
    {"structural_align": "off", "source": DEMO_DIR / "source.md"},
]


def assert_counts_agree(unmatched: Unmatched, report: dict[str, Any]) -> int:
    """Same classes, labels and rungs as eval.json; missing = fn, extra = fp; returns Σ fp+fn."""
    assert json.loads(json.dumps(unmatched)) == unmatched  # JSON-ready
    total = 0
    for side in ("nodes", "edges"):
        assert unmatched[side].keys() == report[side].keys()
        for name, rungs in report[side].items():
            assert unmatched[side][name].keys() == rungs.keys(), (side, name)
            for rung, metrics in rungs.items():
                lists = unmatched[side][name][rung]
                assert len(lists["missing"]) == metrics["fn"], (side, name, rung)
                assert len(lists["extra"]) == metrics["fp"], (side, name, rung)
                for items in lists.values():
                    assert items == sorted(items)
                    assert len({json.dumps(i) for i in items}) == len(items)
                total += metrics["fn"] + metrics["fp"]
    return total


@pytest.mark.parametrize(("example", "options"), VARIANTS)
def test_fixture_lists_match_eval_counts(
    example: str, options: dict[str, Any], template_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(template_path / example)
    args = {"truth": "truth.json", "pred": "graph.json", "template": TEMPLATES[example]}
    report = evaluate_files(**args, **options)
    unmatched = unmatched_files(**args, **options)
    assert assert_counts_agree(unmatched, report) > 0
    assert unmatched_files(**args, **options) == unmatched  # deterministic


@pytest.mark.parametrize("options", DEMO_MODES)
def test_demo_lists_match_eval_counts(options: dict[str, Any]) -> None:
    args = {
        "truth": DEMO_DIR / "truth.json",
        "pred": DEMO_DIR / "graph.json",
        "template": f"{DEMO_DIR}/library_template.py:Library",
    }
    assert assert_counts_agree(
        unmatched_files(**args, **options), evaluate_files(**args, **options)
    )


@pytest.mark.parametrize("mode", ["auto", "on", "off"])
def test_generic_mode_lists_match_eval_counts(data_dir: Path, mode: Any) -> None:
    # the audit graph is the library graph with its root renamed: a singleton-root pair
    args = {"truth": data_dir / "library" / "graph.json", "pred": data_dir / "audit" / "graph.json"}
    report = evaluate_generic_files(**args, structural_align=mode)
    unmatched = unmatched_files(**args, structural_align=mode)
    assert assert_counts_agree(unmatched, report) > 0
    assert ("aligned" in unmatched["nodes"]["Library"]) == (mode != "off")


def test_demo_names_the_unmatched_items() -> None:
    unmatched = unmatched_files(
        truth=DEMO_DIR / "truth.json",
        pred=DEMO_DIR / "graph.json",
        template=f"{DEMO_DIR}/library_template.py:Library",
        source=DEMO_DIR / "source.md",
    )
    assert unmatched["nodes"]["Chapter"] == {
        "strict": {
            "missing": ["Chapter:article5exclusionsgenerales", "Chapter:chapter2"],
            "extra": ["Chapter:article5", "Chapter:chapter2themaze", "Chapter:chapter3"],
        },
        "relaxed": {"missing": [], "extra": ["Chapter:chapter3"]},
    }
    assert unmatched["edges"]["HOLDS"]["strict"] == {
        "missing": [["Library:RIVERSIDE_PUBLIC_LIBRARY", "Book:GARDENWORK_FOR_BEGINNERS"]],
        "extra": [["Library:RIVERSIDE_PUBLIC_LIBRARY", "Book:GARDEN_WORK_FOR_BEGINNERS"]],
    }
    assert unmatched["edges"]["HOLDS"]["relaxed"] == {"missing": [], "extra": []}


IDS = {"Root": ["name"], "Item": ["code"]}


def hand_made() -> tuple[GraphData, GraphData]:
    """Strict a1; relaxed b2~b2x; singleton roots ACME~GLOBEX; zz9 missing; q7 extra."""
    truth = GraphData(
        nodes=[
            {"id": "t0", "__class__": "Root", "name": "Acme"},
            {"id": "t1", "__class__": "Item", "code": "a1"},
            {"id": "t2", "__class__": "Item", "code": "b2"},
            {"id": "t3", "__class__": "Item", "code": "zz9"},
        ],
        edges=[{"source": "t0", "target": t, "label": "HAS"} for t in ("t1", "t2", "t3")],
    )
    extracted = GraphData(
        nodes=[
            {"id": "e0", "__class__": "Root", "name": "Globex"},
            {"id": "e1", "__class__": "Item", "code": "a1"},
            {"id": "e2", "__class__": "Item", "code": "b2x"},
            {"id": "e3", "__class__": "Item", "code": "q7"},
            {"id": "e4", "__class__": "Item", "code": ""},  # unkeyed: never scored
        ],
        edges=[
            *({"source": "e0", "target": t, "label": "HAS"} for t in ("e1", "e2", "e3", "e4")),
            {"source": "e1", "target": "e2", "label": "LINK"},
        ],
    )
    return truth, extracted


def test_hand_made_case() -> None:
    truth, extracted = hand_made()
    matching = match_graphs(truth, extracted, IDS, root_class="Root")
    unmatched = unmatched_items(matching)
    nothing: dict[str, list[Any]] = {"missing": [], "extra": []}
    assert unmatched["nodes"] == {
        "Item": {
            "strict": {"missing": ["Item:b2", "Item:zz9"], "extra": ["Item:b2x", "Item:q7"]},
            "relaxed": {"missing": ["Item:zz9"], "extra": ["Item:q7"]},
            "aligned": {"missing": ["Item:zz9"], "extra": ["Item:q7"]},
        },
        "Root": {
            "strict": {"missing": ["Root:ACME"], "extra": ["Root:GLOBEX"]},
            "relaxed": {"missing": ["Root:ACME"], "extra": ["Root:GLOBEX"]},
            "aligned": nothing,
        },
    }
    all_truth_has = [["Root:ACME", "Item:a1"], ["Root:ACME", "Item:b2"], ["Root:ACME", "Item:zz9"]]
    # extra edges keep the extracted graph's keys (b2x, GLOBEX) even where a rung folds them
    all_got_has = [
        ["Root:GLOBEX", "Item:a1"],
        ["Root:GLOBEX", "Item:b2x"],
        ["Root:GLOBEX", "Item:q7"],
    ]
    assert unmatched["edges"] == {
        "HAS": {
            "strict": {"missing": all_truth_has, "extra": all_got_has},
            "relaxed": {"missing": all_truth_has, "extra": all_got_has},
            "aligned": {
                "missing": [["Root:ACME", "Item:zz9"]],
                "extra": [["Root:GLOBEX", "Item:q7"]],
            },
        },
        "LINK": {
            rung: {"missing": [], "extra": [["Item:a1", "Item:b2x"]]}
            for rung in ("strict", "relaxed", "aligned")
        },
    }
    report = build_report(matching, graph="g", truth="t", template=None)
    assert_counts_agree(unmatched, report)


def test_edge_keys_hook_and_labels() -> None:
    truth, extracted = hand_made()
    matching = match_graphs(truth, extracted, IDS, root_class="Root")
    relaxed = edge_keys(matching, "relaxed")
    assert ("HAS", ("Root", ("GLOBEX",)), ("Item", ("b2",))) in relaxed  # folded b2x → b2
    assert len(relaxed) == 4  # the edge to the unkeyed node is dropped
    with pytest.raises(ValueError, match="edge side"):
        edge_keys(matching, "loose")  # type: ignore[arg-type]
    assert key_label(("Offer", ("x1", "", "v2"))) == "Offer:x1 /  / v2"


def test_template_excludes_generic_options() -> None:
    with pytest.raises(InputError, match="without a template"):
        unmatched_files(truth="t.json", pred="g.json", template="tpl:Model", root_class="Root")


def all_empty(unmatched: Unmatched) -> bool:
    return all(
        not items
        for side in unmatched.values()
        for rungs in side.values()
        for lists in rungs.values()
        for items in lists.values()
    )


@pytest.mark.parametrize("example", ["library", "study", "catalog"])
def test_fixture_graphs_against_themselves(example: str, template_path: Path) -> None:
    folder = template_path / example
    graph = folder / "graph.json"
    generic = unmatched_files(truth=graph, pred=graph, structural_align="on")
    assert generic["nodes"] and all_empty(generic)
    model = load_template(TEMPLATES[example])
    path = folder / "truth.json"
    truth = read_instance(path.read_text("utf-8"), path, template=model)
    matching = match_graphs(truth, truth, collect_id_fields(model), root_class=model.__name__)
    converted = unmatched_items(matching)
    assert converted["edges"] and all_empty(converted)


codes = st.sampled_from(["x1", "x1y", "X-1", "x2", "ab", "abc", "The ab", "", "7"])


@st.composite
def graphs(draw: Any) -> GraphData:
    n = draw(st.integers(1, 7))
    nodes = []
    for i in range(n):
        cls = draw(st.sampled_from(["Item", "Root"]))
        field = IDS[cls][0]
        nodes.append({"id": f"n{i}", "__class__": cls, field: draw(codes), "text": "red"})
    edges = [
        {
            "source": f"n{draw(st.integers(0, n - 1))}",
            "target": f"n{draw(st.integers(0, n - 1))}",
            "label": draw(st.sampled_from(["L", "M"])),
        }
        for _ in range(draw(st.integers(0, 6)))
    ]
    return GraphData(nodes, edges)


@settings(max_examples=100, deadline=None)
@given(graphs(), st.sampled_from(["auto", "on", "off"]), st.booleans())
def test_graph_against_itself_has_nothing_unmatched(
    graph: GraphData, mode: Any, with_source: bool
) -> None:
    source = "x1 red ab" if with_source else None
    matching = match_graphs(
        graph, graph, IDS, root_class="Root", source_text=source, align_mode=mode
    )
    unmatched = unmatched_items(matching)
    assert all_empty(unmatched)
    assert_counts_agree(unmatched, build_report(matching, graph="g", truth="g", template=None))


@settings(max_examples=100, deadline=None)
@given(graphs(), graphs(), st.sampled_from(["auto", "on", "off"]))
def test_random_pairs_match_eval_counts(truth: GraphData, got: GraphData, mode: Any) -> None:
    matching = match_graphs(truth, got, IDS, root_class="Root", source_text="x1", align_mode=mode)
    report = build_report(matching, graph="g", truth="t", template=None)
    assert_counts_agree(unmatched_items(matching), report)


# -- the lists are made only when an output holds them ---------------------------------------


def test_without_unmatched_the_result_is_the_same_but_the_lists(tmp_path: Path) -> None:
    from dataclasses import replace

    from parsescore.graph.options import GraphOptions
    from parsescore.graph.result import evaluate

    options = GraphOptions(
        template=f"{DEMO_DIR / 'library_template.py'}:Library", source=DEMO_DIR / "source.md"
    )
    full = evaluate(DEMO_DIR / "truth.json", DEMO_DIR / "graph.json", options)
    bare = evaluate(DEMO_DIR / "truth.json", DEMO_DIR / "graph.json", options, unmatched=False)
    assert any("unmatched" in detail for detail in full.details.values())
    stripped = {
        item: rest
        for item, detail in full.details.items()
        if (rest := {k: v for k, v in detail.items() if k != "unmatched"})
    }
    assert bare.details == stripped
    assert replace(bare, details=full.details) == full


def test_the_command_lists_the_unmatched_only_for_result(tmp_path: Path, cli: Cli) -> None:
    args = (
        "graph", "--pred", DEMO_DIR / "graph.json", "--truth", DEMO_DIR / "truth.json",
        "--template", f"{DEMO_DIR / 'library_template.py'}:Library",
        "--source", DEMO_DIR / "source.md",
    )  # fmt: skip
    plain = cli(*args, "--out", tmp_path / "a.json")
    listed = cli(*args, "--out", tmp_path / "b.json", "--result", tmp_path / "r.json")
    assert plain.code == listed.code == 0, (plain.err, listed.err)
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert plain.out.split("Wrote")[0] == listed.out.split("Wrote")[0]  # the same summary
    envelope = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    report = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    unmatched = {
        section: {
            item["id"].partition(":")[2]: item["detail"]["unmatched"]
            for item in envelope["items"]
            if item["id"].startswith(prefix + ":")
        }
        for section, prefix in (("nodes", "node"), ("edges", "edge"))
    }
    assert assert_counts_agree(unmatched, report) > 0
